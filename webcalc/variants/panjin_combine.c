/* webcalc._pjunit's combine() and rest_places(), in C. combine is the twin of _combine
 * (webcalc/variants/panjin_draws.py), the last step of panjin_discards_drawn — a 14-tile 盘锦
 * hand's other three units merged, against each table of the unit a discard touches (every
 * discard of that unit at once); rest_places the twin of _rest_places_all (panjin_search.py),
 * the bound the unit searches of webcalc/variants/panjin_unit.c prune with. Part of the one
 * extension webcalc._pjunit (setup.py; the method table is webcalc/_pjunit.c).
 *
 * combine(acc, tables, groups, max_x, min_jokers, allowed, counts_suit, want, jokers,
 * need_real, limit) -> [(d, drawn, wild) or None per table]. acc {(g, p, x, n, f): (r,
 * drawn)} is the merge of the other units (panjin_draws.py _merge_drawn); each table is
 * rows (g, p, x, flags, r, drawn) (unit_panjin_drawn_drops). A complete target has
 * groups groups, one pair, at least min_jokers jokers placed (never more than max_x), a
 * suit count in the bit set allowed (PJ-4) and every flag of want (PJ-5..PJ-7); it costs
 * r + max(0, x - jokers), and with need_real (the discard-win rule, PJ-2 / C-9) as
 * _drawn_best reads it. Keeps nothing between calls.
 */
#include "../_pjunit.h"

#define CNX 32                 /* jokers placed: 0..31, as panjin_unit.c's NX */
#define CNF 32                 /* flags: PRES YJ TRIP SEQ RD, as panjin_unit.c's NF */
#define CPRES 1

typedef struct {
    int x, n, f;
    long long r;
    uint64_t m;
} AccRow;

/* acc read into rows bucketed by (g, p): bucket b = g * 2 + p holds rows[start[b] ..
 * start[b + 1]); returns the rows (PyMem) or NULL with an exception set */
static AccRow *read_acc(PyObject *items, Py_ssize_t *start) {
    Py_ssize_t na = PyList_GET_SIZE(items);
    AccRow *tmp = PyMem_Malloc(sizeof(AccRow) * (na ? na : 1));
    AccRow *rows = PyMem_Malloc(sizeof(AccRow) * (na ? na : 1));
    int *gp = PyMem_Malloc(sizeof(int) * (na ? na : 1));
    Py_ssize_t fill[10];
    if (!tmp || !rows || !gp) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int k = 0; k < 11; k++)
        start[k] = 0;
    for (Py_ssize_t it = 0; it < na; it++) {
        PyObject *key, *val;
        int g, p, x, n, f, r;
        unsigned long long m;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(items, it), "OO", &key, &val) ||
            !is_tuple(key, "acc key") || !is_tuple(val, "acc value") ||
            !PyArg_ParseTuple(key, "iiiii", &g, &p, &x, &n, &f) ||
            !PyArg_ParseTuple(val, "iK", &r, &m))
            goto fail;
        if (g < 0 || g > 4 || p < 0 || p > 1 || x < 0 || x >= CNX || n < 0 || n > 3 ||
            f < 0 || f >= CNF || r < 0 || r > 1000) {
            PyErr_SetString(PyExc_ValueError, "acc: a key or value out of range");
            goto fail;
        }
        gp[it] = g * 2 + p;
        tmp[it] = (AccRow){x, n, f, r, (uint64_t)m};
        start[g * 2 + p + 1]++;
    }
    for (int k = 0; k < 10; k++) {
        start[k + 1] += start[k];
        fill[k] = start[k];
    }
    for (Py_ssize_t it = 0; it < na; it++)
        rows[fill[gp[it]]++] = tmp[it];
    PyMem_Free(tmp);
    PyMem_Free(gp);
    return rows;
fail:
    PyMem_Free(tmp);
    PyMem_Free(rows);
    PyMem_Free(gp);
    return NULL;
}

/* one table against the bucketed acc: the (d, drawn, wild) of _combine, or None */
static PyObject *combine_one(PyObject *table_o, const AccRow *rows, const Py_ssize_t *start,
                             int groups, int max_x, int min_jokers, int allowed,
                             int counts_suit, int want, int jokers, int need_real,
                             int limit) {
    PyObject *table = PySequence_Tuple(table_o);
    if (!table)
        return NULL;
    long long best = -1;
    uint64_t mask = 0;
    int wild = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(table); i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(table, i);
        int g2, p2, x2, fl, r2;
        unsigned long long m2;
        if (!is_tuple(row, "table row") ||
            !PyArg_ParseTuple(row, "iiiiiK", &g2, &p2, &x2, &fl, &r2, &m2)) {
            Py_DECREF(table);
            return NULL;
        }
        if (g2 < 0 || g2 > 4 || p2 < 0 || p2 > 1 || x2 < 0 || x2 >= CNX || fl < 0 ||
            fl >= CNF || r2 < 0 || r2 > 1000) {
            PyErr_SetString(PyExc_ValueError, "table: a row out of range");
            Py_DECREF(table);
            return NULL;
        }
        int g = groups - g2;
        if (g < 0)
            continue;
        int b = g * 2 + 1 - p2;
        int inc = (counts_suit && (fl & CPRES)) ? 1 : 0;
        int fw = fl & want;
        for (Py_ssize_t j = start[b]; j < start[b + 1]; j++) {
            const AccRow *a = &rows[j];
            int x3 = a->x + x2;
            if (x3 > max_x || x3 < min_jokers || !((allowed >> (a->n + inc)) & 1))
                continue;
            if ((a->f | fw) != want)
                continue;
            long long rr = a->r + r2;
            long long cost = rr + (x3 > jokers ? (long long)x3 - jokers : 0);
            uint64_t m3 = a->m | (uint64_t)m2;
            if (need_real && rr < 2) {
                m3 = 0;
                if (!rr)
                    cost += 1;
            }
            if (cost > limit)
                continue;
            if (best < 0 || cost < best) {
                best = cost;
                mask = m3;
                wild = x3 > jokers;
            } else if (cost == best) {
                mask |= m3;
                wild = wild || x3 > jokers;
            }
        }
    }
    Py_DECREF(table);
    if (best < 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(LKO)", best, (unsigned long long)mask, wild ? Py_True : Py_False);
}

PyObject *combine(PyObject *self, PyObject *args) {
    PyObject *acc, *tables_o;
    int groups, max_x, min_jokers, allowed, counts_suit, want, jokers, need_real, limit;
    if (!PyArg_ParseTuple(args, "O!Oiiiipiipi", &PyDict_Type, &acc, &tables_o, &groups,
                          &max_x, &min_jokers, &allowed, &counts_suit, &want, &jokers,
                          &need_real, &limit))
        return NULL;
    if (groups < 0 || groups > 4 || max_x < 0 || max_x >= CNX || jokers < 0 ||
        jokers >= CNX || min_jokers < -1 || min_jokers >= CNX || allowed < 0 ||
        allowed >= 32) {
        PyErr_SetString(PyExc_ValueError,
                        "groups 0 to 4; max_x, jokers, min_jokers 0 to 31; allowed 0 to 31");
        return NULL;
    }
    PyObject *items = PyDict_Items(acc);     /* a private snapshot, as read_ints */
    if (!items)
        return NULL;
    PyObject *tables = PySequence_Tuple(tables_o);
    if (!tables) {
        Py_DECREF(items);
        return NULL;
    }
    Py_ssize_t start[11];
    PyObject *result = NULL;
    AccRow *rows = read_acc(items, start);
    if (!rows)
        goto done;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(tables);
    result = PyList_New(nt);
    if (!result)
        goto done;
    for (Py_ssize_t ti = 0; ti < nt; ti++) {
        PyObject *one = combine_one(PySequence_Fast_GET_ITEM(tables, ti), rows, start, groups,
                                    max_x, min_jokers, allowed, counts_suit, want, jokers,
                                    need_real, limit);
        if (!one) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, ti, one);
    }
done:
    PyMem_Free(rows);
    Py_DECREF(items);
    Py_DECREF(tables);
    return result;
}

/* rest_places(m0, m1, m2, m3) -> (rest without unit 0, ..., without unit 3): shanten.py
 * _rest_places_all from the four units' minima (_unit_free_min: ten numbers [g * 2 + p],
 * 99 for none). For each unit left out, the other three combined (min-plus, groups up to
 * four, one pair), then rest[g][p] = min(acc[g][p], rest[g - 1][p] + 3, rest[g][p - 1] + 2)
 * capped at 99, as ((r00, r01), ..., (r40, r41)). */
static void min_plus(const int *a, const int *b, int *out) {
    for (int k = 0; k < 10; k++)
        out[k] = 99;
    for (int i = 0; i < 10; i++) {
        if (a[i] >= 99)
            continue;
        for (int j = 0; j < 10; j++) {
            if (b[j] >= 99 || ((i & 1) && (j & 1)) || i + j >= 10)
                continue;
            if (a[i] + b[j] < out[i + j])
                out[i + j] = a[i] + b[j];
        }
    }
}

PyObject *rest_places(PyObject *self, PyObject *args) {
    PyObject *mo[4];
    if (!PyArg_ParseTuple(args, "OOOO", &mo[0], &mo[1], &mo[2], &mo[3]))
        return NULL;
    int m[4][10];
    for (int u = 0; u < 4; u++) {
        int got = read_ints(mo[u], m[u], 10, "minima");
        if (got < 0)
            return NULL;
        if (got != 10) {
            PyErr_SetString(PyExc_ValueError, "minima: 10 numbers");
            return NULL;
        }
    }
    int m01[10], m23[10], w[4][10];
    min_plus(m[0], m[1], m01);
    min_plus(m[2], m[3], m23);
    min_plus(m[1], m23, w[0]);
    min_plus(m[0], m23, w[1]);
    min_plus(m01, m[3], w[2]);
    min_plus(m01, m[2], w[3]);
    PyObject *out = PyTuple_New(4);
    if (!out)
        return NULL;
    for (int u = 0; u < 4; u++) {
        int r[5][2];
        for (int g = 0; g < 5; g++) {
            int r0 = w[u][g * 2], r1 = w[u][g * 2 + 1];
            if (g) {
                if (r[g - 1][0] + 3 < r0) r0 = r[g - 1][0] + 3;
                if (r[g - 1][1] + 3 < r1) r1 = r[g - 1][1] + 3;
            }
            if (r0 + 2 < r1) r1 = r0 + 2;
            r[g][0] = r0 < 99 ? r0 : 99;
            r[g][1] = r1 < 99 ? r1 : 99;
        }
        PyObject *t = Py_BuildValue("((ii)(ii)(ii)(ii)(ii))", r[0][0], r[0][1], r[1][0], r[1][1],
                                    r[2][0], r[2][1], r[3][0], r[3][1], r[4][0], r[4][1]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, u, t);
    }
    return out;
}

