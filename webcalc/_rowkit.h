/* The advice rows both compiled parts write (webcalc/_pjunit_rows.c and webcalc/_plain.c):
 * the tiles' codes and the rows' keys as interned strings (strings_ready), a row is a dict of
 * three or four keys (row4: the fourth pair left out when k4 is NULL),
 * and a list of rows is sorted by a three-long key (sort_keyed, keyed_list: the rows' order
 * the Python twin advice_rows.py gives). Each extension includes this header; the functions
 * are static, so each module has its own copy of the machine code and no symbol is shared. */
#ifndef WEBCALC_ROWKIT_H
#define WEBCALC_ROWKIT_H

#include <Python.h>

/* the tiles' codes and the rows' keys, made once per module (strings_ready) */
static const char *const CODE[34] = {
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m",
    "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",
    "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s",
    "1z", "2z", "3z", "4z", "5z", "6z", "7z"};

static PyObject *s_tile, *s_remaining, *s_dead, *s_discard, *s_shanten, *s_useful,
    *s_useful_total, *s_waits, *s_code[34];

static int strings_ready(void) {
    if (s_tile)
        return 0;
#define INTERN(var, text)                                                                 \
    if (!(var = PyUnicode_InternFromString(text)))                                        \
        return -1;
    INTERN(s_remaining, "remaining")
    INTERN(s_dead, "dead")
    INTERN(s_discard, "discard")
    INTERN(s_shanten, "shanten")
    INTERN(s_useful, "useful")
    INTERN(s_useful_total, "useful_total")
    INTERN(s_waits, "waits")
    for (int k = 0; k < 34; k++)
        INTERN(s_code[k], CODE[k])
    INTERN(s_tile, "tile") /* last: the flag that all are made */
#undef INTERN
    return 0;
}

static inline PyObject *row4(PyObject *k1, PyObject *v1, PyObject *k2, PyObject *v2,
                             PyObject *k3, PyObject *v3, PyObject *k4, PyObject *v4) {
    PyObject *d = PyDict_New();
    if (!d || PyDict_SetItem(d, k1, v1) < 0 || PyDict_SetItem(d, k2, v2) < 0
        || PyDict_SetItem(d, k3, v3) < 0 || (k4 && PyDict_SetItem(d, k4, v4) < 0)) {
        Py_XDECREF(d);
        return NULL;
    }
    return d;
}

typedef struct {
    long key[3];
    PyObject *row;
} Keyed;

static inline void sort_keyed(Keyed *a, int n) { /* insertion sort: at most 34, keys distinct */
    for (int i = 1; i < n; i++) {
        Keyed x = a[i];
        int j = i - 1;
        while (j >= 0
               && (a[j].key[0] > x.key[0]
                   || (a[j].key[0] == x.key[0]
                       && (a[j].key[1] > x.key[1]
                           || (a[j].key[1] == x.key[1] && a[j].key[2] > x.key[2]))))) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

static inline PyObject *keyed_list(Keyed *a, int n) {
    sort_keyed(a, n);
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(out, i, a[i].row);
        a[i].row = NULL;
    }
    return out;
}

/* a 14-tile hand's answer (efficiency rows, discards rows, the best shanten or None) from
 * its keyed rows: eff sorted, its first key the best shanten when below inf. Takes the
 * rows' references (*ne, *nr then 0); NULL with an exception set, the rows not taken left
 * to the caller. */
static inline PyObject *advice14_answer(Keyed *eff, int *ne, Keyed *ready, int *nr,
                                        long inf) {
    sort_keyed(eff, *ne);
    long best = *ne && eff[0].key[0] < inf ? eff[0].key[0] : -1;
    PyObject *el = keyed_list(eff, *ne);
    if (!el)
        return NULL;
    *ne = 0;
    PyObject *rl = keyed_list(ready, *nr);
    if (!rl) {
        Py_DECREF(el);
        return NULL;
    }
    *nr = 0;
    return best < 0 ? Py_BuildValue("(NNO)", el, rl, Py_None)
                    : Py_BuildValue("(NNl)", el, rl, best);
}

#endif
