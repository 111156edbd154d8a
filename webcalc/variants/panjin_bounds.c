/* webcalc._pjunit's bounds for 盘锦's whole-hand searches (panjin_hand.c, panjin_lower.c,
 * panjin_advice.c): the units' relaxed minima (jokers anywhere, no cap), the rest tables
 * they give (rest_places, the twin of panjin_search.py _rest_places_all; relaxed_rest, of
 * _relaxed_bounds) and PJ-4's suit requirement (suit_req, suit_rests: _suit_rests). Split
 * from panjin_hand.c, which prunes with them. Part of the one extension webcalc._pjunit
 * (setup.py; the method table is webcalc/_pjunit.c).
 */
#include "panjin_unit.h"

/* unit u's relaxed minima (_unit_free_min of the relaxed tables: jokers anywhere, no cap,
 * the free-joker rule sets' cached tables) from its counts (counts[0] its first kind):
 * m[g * 2 + p], 99 for none; 0, or -1 with an exception set. panjin_lower.c's count reads
 * them too */
int pj_relaxed_unit(const int *counts, int u, int m[10]) {
    static const int no_caps[MAXN] = {0};      /* a relaxed table's key has no caps */
    int n = u < 3 ? 9 : 7, unit[MAXN];
    for (int i = 0; i < n; i++)
        unit[i] = counts[i];
    if (u == 3)              /* the honors' table is that of their counts in any order */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && unit[j] > unit[j - 1]; j--) {
                int t = unit[j]; unit[j] = unit[j - 1]; unit[j - 1] = t;
            }
    Row rows[MAXROWS];
    int nr = free_unit_rows(unit, no_caps, n, u == 3, M_RELAXED, rows);
    if (nr < 0)
        return -1;
    for (int k = 0; k < 10; k++)
        m[k] = 99;
    for (int i = 0; i < nr; i++) {
        int k = rows[i].g * 2 + rows[i].p;
        if (rows[i].d < m[k])
            m[k] = rows[i].d;
    }
    return 0;
}

/* the four units' relaxed minima: m[u], as pj_relaxed_unit */
int pj_relaxed_minima(const int *real, int m[4][10]) {
    for (int u = 0; u < 4; u++)
        if (pj_relaxed_unit(real + 9 * u, u, m[u]) < 0)
            return -1;
    return 0;
}

/* panjin_search.py _suit_rests: per unit u, req[u] = (req0, req1), the rest tables of its
 * search that see PJ-4 (allowed: the suit counts as a bit set; suits0 the melds' suits):
 * the other units' places when u ends without its suit (req0) or with it (req1). A suit
 * the count needs shown takes a group or the pair of its unit (a real tile in it): its
 * minima with a fresh group or pair (3, 2 places) where the unit has none, and no (0, 0).
 * At least k of the other counted suits are shown, k the fewest the allowed counts leave
 * (99 throughout when none): the least over every k of them shown, each at most what its
 * target pays (needing more shown never costs less), so every target within the limit
 * still passes the bound. */
int suit_req(const int *real, int suits0, int allowed, int req[4][20]) {
    int m[4][10];
    if (pj_relaxed_minima(real, m) < 0)
        return -1;
    suit_req_of(m, suits0, allowed, req);
    return 0;
}

void suit_req_of(int m[4][10], int suits0, int allowed, int req[4][20]) {
    int fresh[4][10], shown[4][10];
    for (int u = 0; u < 4; u++) {
        pj_rest_rows(m[u], fresh[u]);
        for (int k = 0; k < 10; k++)
            shown[u][k] = k ? fresh[u][k] : 99;
    }
    int base = (suits0 & 1) + (suits0 >> 1 & 1) + (suits0 >> 2 & 1);
    for (int u = 0; u < 4; u++) {
        int others[3], no = 0, counted = 0;
        for (int w = 0; w < 4; w++)
            if (w != u) {
                others[no++] = w;
                if (w < 3 && !(suits0 >> w & 1))
                    counted |= 1 << w;
            }
        int nc = (counted & 1) + (counted >> 1 & 1) + (counted >> 2 & 1);
        int own_counts = u < 3 && !(suits0 >> u & 1);
        /* the unit's own suit counting for nothing, req0 and req1 are one table */
        for (int own = 0; own < 1 + own_counts; own++) {
            int *out = req[u] + 10 * own;
            for (int k = 0; k < 10; k++)
                out[k] = 99;
            int k_min = -1;
            for (int k = 0; k <= nc && k_min < 0; k++)
                if (allowed >> (base + (own_counts ? own : 0) + k) & 1)
                    k_min = k;
            if (k_min < 0)
                continue;
            for (int sset = 0; sset < 8; sset++) {
                if ((sset & ~counted) ||
                    (sset & 1) + (sset >> 1 & 1) + (sset >> 2 & 1) != k_min)
                    continue;
                int acc[10], t[10], r[10];
                const int *x0 = sset >> others[0] & 1 ? shown[others[0]] : m[others[0]];
                const int *x1 = sset >> others[1] & 1 ? shown[others[1]] : m[others[1]];
                const int *x2 = sset >> others[2] & 1 ? shown[others[2]] : m[others[2]];
                pj_min_plus(x0, x1, t);
                pj_min_plus(t, x2, acc);
                pj_rest_rows(acc, r);
                for (int k = 0; k < 10; k++)
                    if (r[k] < out[k])
                        out[k] = r[k];
            }
        }
        if (!own_counts)
            memcpy(req[u] + 10, req[u], sizeof(int) * 10);
    }
}

/* rest_places(m0, m1, m2, m3) -> (rest without unit 0, ..., without unit 3): shanten.py
 * _rest_places_all from the four units' minima (_unit_free_min: ten numbers [g * 2 + p],
 * 99 for none). For each unit left out, the other three combined (min-plus, groups up to
 * four, one pair), then rest[g][p] = min(acc[g][p], rest[g - 1][p] + 3, rest[g][p - 1] + 2)
 * capped at 99, as ((r00, r01), ..., (r40, r41)). */
void pj_min_plus(const int *a, const int *b, int *out) {
    /* every number is at least 0, so a 99 in a or b never makes a sum below 99: the least
     * sum of each (g1 + g2, p1 + p2), at most one pair, capped at 99, without a branch */
    for (int g = 0; g < 5; g++) {
        int o0 = 99, o1 = 99;
        for (int g1 = 0; g1 <= g; g1++) {
            const int *x = a + 2 * g1, *y = b + 2 * (g - g1);
            int s0 = x[0] + y[0], s1 = x[0] + y[1], s2 = x[1] + y[0];
            o0 = s0 < o0 ? s0 : o0;
            o1 = s1 < o1 ? s1 : o1;
            o1 = s2 < o1 ? s2 : o1;
        }
        out[2 * g] = o0;
        out[2 * g + 1] = o1;
    }
}

/* _rest_of: rest[g * 2 + p] from the minima acc of the other units, fresh groups (3
 * places) and pair (2) for the rest, capped at 99 */
void pj_rest_rows(const int *acc, int *r) {
    for (int g = 0; g < 5; g++) {
        int r0 = acc[g * 2], r1 = acc[g * 2 + 1];
        if (g) {
            if (r[(g - 1) * 2] + 3 < r0) r0 = r[(g - 1) * 2] + 3;
            if (r[(g - 1) * 2 + 1] + 3 < r1) r1 = r[(g - 1) * 2 + 1] + 3;
        }
        if (r0 + 2 < r1) r1 = r0 + 2;
        r[g * 2] = r0 < 99 ? r0 : 99;
        r[g * 2 + 1] = r1 < 99 ? r1 : 99;
    }
}

/* pj_rest_rows as ((r00, r01), ..., (r40, r41)) */
static PyObject *rest_of(const int *acc) {
    int r[10];
    pj_rest_rows(acc, r);
    return Py_BuildValue("((ii)(ii)(ii)(ii)(ii))", r[0], r[1], r[2], r[3], r[4], r[5], r[6],
                         r[7], r[8], r[9]);
}

/* the units' minima m combined, each unit left out in turn (w[u]) and, with all, the four
 * together (panjin_lower.c's count reads it too) */
void pj_combined(int m[4][10], int w[4][10], int *all) {
    int m01[10], m23[10];
    pj_min_plus(m[0], m[1], m01);
    pj_min_plus(m[2], m[3], m23);
    pj_min_plus(m[1], m23, w[0]);
    pj_min_plus(m[0], m23, w[1]);
    pj_min_plus(m01, m[3], w[2]);
    pj_min_plus(m01, m[2], w[3]);
    if (all)
        pj_min_plus(m01, m23, all);
}

/* the four rest tables (each unit left out) from the units' minima m, as a tuple; with
 * whole, also the four units together first: (whole, (rest0, ..., rest3)) */
static PyObject *rests(int m[4][10], int whole) {
    int w[4][10], all[10];
    pj_combined(m, w, whole ? all : NULL);
    PyObject *out = PyTuple_New(4);
    if (!out)
        return NULL;
    for (int u = 0; u < 4; u++) {
        PyObject *t = rest_of(w[u]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, u, t);
    }
    if (!whole)
        return out;
    PyObject *t = rest_of(all);
    if (!t) {
        Py_DECREF(out);
        return NULL;
    }
    return Py_BuildValue("(NN)", t, out);
}

int pj_relaxed_bounds(const int *real, int whole[10], int rest[40]) {
    int m[4][10];
    if (pj_relaxed_minima(real, m) < 0)
        return -1;
    pj_relaxed_bounds_of(m, whole, rest);
    return 0;
}

void pj_relaxed_bounds_of(int m[4][10], int whole[10], int rest[40]) {
    int w[4][10], all[10];
    pj_combined(m, w, all);
    for (int u = 0; u < 4; u++)
        pj_rest_rows(w[u], rest + 10 * u);
    pj_rest_rows(all, whole);
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
    return rests(m, 0);
}

/* real: 34 tile counts, each 0 to 14 as check_unit takes them (relaxed_rest's and
 * suit_rests' argument); 0, or -1
 * with an exception set */
static int read_real(PyObject *real_o, int real[34]) {
    if (read_ints(real_o, real, 34, "real") != 34) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "real: 34 numbers");
        return -1;
    }
    return check_unit(real, 34) < 0 ? -1 : 0;
}

/* relaxed_rest(real) -> (whole, (rest0, ..., rest3)): panjin_search.py _relaxed_bounds, the
 * bounds of 盘锦's searches from the relaxed unit tables (jokers anywhere, no cap: the
 * free-joker rule sets' tables, webcalc/_pjunit_draws.c, cached and warmed, keyed by the
 * counts alone): rest as rest_places gives it, whole the same of all four units. A cap
 * only removes targets, so each is at most what the capped tables give (the bounds stay
 * bounds); whole[groups][1] - jokers is at most the hand's distance. */
PyObject *relaxed_rest(PyObject *self, PyObject *args) {
    PyObject *real_o;
    if (!PyArg_ParseTuple(args, "O", &real_o))
        return NULL;
    int real[34];
    if (read_real(real_o, real) < 0)
        return NULL;
    int m[4][10];
    if (pj_relaxed_minima(real, m) < 0)
        return NULL;
    return rests(m, 1);
}

/* suit_rests(real, suits0, allowed) -> ((req0 + req1 of unit 0), ..., of unit 3), twenty
 * numbers each: suit_req, as panjin_search.py _suit_rests gives it (the tests hold the two
 * equal; the searches compute it in the call) */
PyObject *suit_rests(PyObject *self, PyObject *args) {
    PyObject *real_o;
    int suits0, allowed;
    if (!PyArg_ParseTuple(args, "Oii", &real_o, &suits0, &allowed))
        return NULL;
    int real[34];
    if (read_real(real_o, real) < 0)
        return NULL;
    if (suits0 < 0 || suits0 > 7 || allowed < 0 || allowed > 255) {
        PyErr_SetString(PyExc_ValueError, "suits0: 0 to 7; allowed: 0 to 255");
        return NULL;
    }
    int req[4][20];
    if (suit_req(real, suits0, allowed, req) < 0)
        return NULL;
    PyObject *out = PyTuple_New(4);
    for (int u = 0; out && u < 4; u++) {
        PyObject *t = PyTuple_New(20);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        for (int k = 0; k < 20; k++) {
            PyObject *v = PyLong_FromLong(req[u][k]);
            if (!v) {
                Py_DECREF(t);
                Py_CLEAR(out);
                break;
            }
            PyTuple_SET_ITEM(t, k, v);
        }
        if (out)
            PyTuple_SET_ITEM(out, u, t);
    }
    return out;
}
