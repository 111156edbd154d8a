/* The advice rows both compiled parts write (webcalc/_pjunit_rows.c and webcalc/_plain.c):
 * a row is a dict of three or four keys (row4: the fourth pair left out when k4 is NULL),
 * and a list of rows is sorted by a three-long key (sort_keyed, keyed_list: the rows' order
 * the Python twin advice_rows.py gives). Each extension includes this header; the functions
 * are static, so each module has its own copy of the machine code and no symbol is shared. */
#ifndef WEBCALC_ROWKIT_H
#define WEBCALC_ROWKIT_H

#include <Python.h>

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

#endif
