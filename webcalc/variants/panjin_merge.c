/* webcalc._pjunit's merge(): one merge step of 盘锦's drawn searches, the twin of
 * _merge_drawn (webcalc/variants/panjin_merge.py; panjin_hand.c merges a hand's units in
 * one call with merge_rows, the same step), and the lost-set table of the discards'
 * restricted searches (panjin_unit.h sub_clear, panjin_merge.py SUB0). Part of the one
 * extension webcalc._pjunit (setup.py; the method table is webcalc/_pjunit.c).
 */
#include "panjin_unit.h"

/* panjin_unit.h's sub_clear: each lost set L of a mask's bits SUB0 + L becomes L & ~gone,
 * from sub_table[gone][the eight bits] (made once) */
unsigned char sub_table[8][256];

void sub_table_init(void) {
    static int made = 0;
    if (made)
        return;
    for (int g = 0; g < 8; g++)
        for (int f = 0; f < 256; f++) {
            int out = 0;
            for (int l = 0; l < 8; l++)
                if (f >> l & 1)
                    out |= 1 << (l & ~g);
            sub_table[g][f] = (unsigned char)out;
        }
    made = 1;
}

/* merge(acc, table, groups, max_x, jokers, limit, counts_suit, want, k_u) -> dict: one
 * merge step of panjin_standard_drawn / panjin_discards_drawn (shanten.py _merge_drawn):
 * acc {(g, p, x, n, f): (r, drawn)} with a unit's table rows (g, p, x, flags, r, drawn),
 * then the dominance pruning of _prune_drawn. */


PyObject *merge_impl(PyObject *self, PyObject *args) {
    PyObject *acc, *table_o;
    int groups, max_x, jokers, limit, counts_suit, want, k_u;
    if (!PyArg_ParseTuple(args, "O!Oiiiipii", &PyDict_Type, &acc, &table_o, &groups, &max_x,
                          &jokers, &limit, &counts_suit, &want, &k_u))
        return NULL;
    if (groups < 0 || groups > 4) {
        PyErr_SetString(PyExc_ValueError, "groups: 0 to 4");
        return NULL;
    }
    static Table a, b;
    static int ready = 0;
    if (!ready) {
        if (table_init(&a) || table_init(&b))
            return PyErr_NoMemory();
        ready = 1;
    }
    sub_table_init();
    PyObject *table = PySequence_Tuple(table_o);
    if (!table)
        return NULL;
    PyObject *items = PyDict_Items(acc);     /* a private snapshot, as read_ints */
    if (!items) {
        Py_DECREF(table);
        return NULL;
    }
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(table);
    int (*rows)[5] = PyMem_Malloc(sizeof(int[5]) * (nt ? nt : 1));
    uint64_t *rm = PyMem_Malloc(sizeof(uint64_t) * (nt ? nt : 1));
    PyObject *result = NULL;
    Table cur = a, out = b;
    table_clear(&cur);
    table_clear(&out);
    if (!rows || !rm) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(table, i);
        unsigned long long m;
        if (!is_tuple(row, "table row") || !PyArg_ParseTuple(row, "iiiiiK", &rows[i][0], &rows[i][1], &rows[i][2],
                              &rows[i][3], &rows[i][4], &m))
            goto done;
        if (rows[i][0] < 0 || rows[i][0] > 4 || rows[i][1] < 0 || rows[i][1] > 1 ||
            rows[i][2] < 0 || rows[i][2] >= NX || rows[i][3] < 0 || rows[i][3] >= NF) {
            PyErr_SetString(PyExc_ValueError, "table: a row out of range");
            goto done;
        }
        rm[i] = m;
    }
    for (Py_ssize_t it = 0; it < PyList_GET_SIZE(items); it++) {
        PyObject *key, *val;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(items, it), "OO", &key, &val))
            goto done;
        int g, p, x, n, f, r;
        unsigned long long m;
        if (!is_tuple(key, "acc key") || !is_tuple(val, "acc value") ||
            !PyArg_ParseTuple(key, "iiiii", &g, &p, &x, &n, &f) ||
            !PyArg_ParseTuple(val, "iK", &r, &m))
            goto done;
        if (g < 0 || g > 4 || p < 0 || p > 1 || x < 0 || x >= NX || n < 0 || n > 3 ||
            f < 0 || f >= NF) {
            PyErr_SetString(PyExc_ValueError, "acc: a key out of range");
            goto done;
        }
        for (Py_ssize_t i = 0; i < nt; i++) {
            int g3 = g + rows[i][0], p3 = p + rows[i][1], x3 = x + rows[i][2];
            int fl = rows[i][3];
            if (g3 > groups || p3 > 1 || x3 > max_x || x3 >= NX)
                continue;
            int r3 = r + rows[i][4];
            if (!merge_admits(g3, p3, x3, r3, groups, jokers, k_u, limit))
                continue;
            int n3 = (counts_suit && (fl & PRES)) ? n + 1 : n;
            if (n3 > 3) {
                PyErr_SetString(PyExc_ValueError, "more than three suits");
                goto done;
            }
            State *st = table_get(&cur, mpack(g3, p3, x3, n3, f | (fl & want)));
            if (!st) {
                PyErr_NoMemory();
                goto done;
            }
            uint64_t m3 = sub_merge((uint64_t)m, rm[i], f, fl, counts_suit, want);
            if (st->r[0] == NOVAL || r3 < st->r[0]) {
                st->r[0] = r3;
                st->m[0] = m3;
            } else if (r3 == st->r[0]) {
                st->m[0] |= m3;
            }
        }
    }
    if (prune(&cur, &out, 1)) {
        PyErr_NoMemory();          /* prune fails only when a table cannot grow */
        goto done;
    }
    result = PyDict_New();
    if (!result)
        goto done;
    for (int k = 0; k < out.n; k++) {
        State *st = &out.s[k];
        int kk = st->key;
        int f = kk % NF, n = (kk / NF) % 4, x = (kk / (NF * 4)) % NX;
        int p = (kk / (NF * 4 * NX)) % 2, g = kk / (NF * 4 * NX * 2);
        PyObject *kt = Py_BuildValue("(iiiii)", g, p, x, n, f);
        PyObject *vt = Py_BuildValue("(iK)", st->r[0], (unsigned long long)st->m[0]);
        if (!kt || !vt || PyDict_SetItem(result, kt, vt) < 0) {
            Py_XDECREF(kt);
            Py_XDECREF(vt);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(kt);
        Py_DECREF(vt);
    }
done:
    PyMem_Free(rows);
    PyMem_Free(rm);
    Py_DECREF(table);
    Py_DECREF(items);
    table_clear(&cur);
    table_clear(&out);
    a = cur;
    b = out;
    return result;
}
