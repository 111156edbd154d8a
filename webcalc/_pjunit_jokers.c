/* joker_readings: the standard readings of a complete hand with jokers, as group codes.
 * The twin of webcalc/decompose.py _splits read to sorted codes (_joker_reading_codes);
 * tests/test_pjunit_jokers.py holds the two equal. */
#include "_pjunit.h"

#define JR_GROUPS 5
#define JR_MAX 65536                /* splits held; past this the Python twin lists them */
#define JR_INF 99                   /* tables.py INF */

/* unit_needs_dp (_pjunit_free.c: tables.py unit_needs of one unit's real tiles; 99 is
 * JR_INF) through a direct-mapped cache (the DP is ~10 us; the search asks it once a
 * child state): key the unit's counts in base 5, honors and in_triplet; 0 is no key.
 * Buys: a complete hand's readings with one / two jokers 6.5 / 4.8 us with it, 47 / 80 us
 * without (200 fresh complete hands each, CPU, 2026-12-06, f4bfb38, load 2.5; bench/
 * RESULTS.md "Issue 38, round 3: 三门峡 and 郑州 against the faster 晋城"). */
#define JR_CACHE (1 << 14)
static uint32_t jr_keys[JR_CACHE];
static uint8_t jr_vals[JR_CACHE][2];

static void jr_needs_cached(const int *unit, int n, int honors, int in_triplet, int *n0,
                            int *n1) {
    uint32_t key = 0;
    for (int i = 0; i < n; i++)
        key = key * 5 + (uint32_t)unit[i];
    key = (key * 4 + (uint32_t)(honors * 2 + in_triplet)) + 1;
    uint32_t slot = (key * 2654435761u) >> 18;
    if (jr_keys[slot] == key) {
        *n0 = jr_vals[slot][0];
        *n1 = jr_vals[slot][1];
        return;
    }
    unit_needs_dp(unit, n, honors, in_triplet, n0, n1);
    jr_keys[slot] = key;
    jr_vals[slot][0] = (uint8_t)*n0;
    jr_vals[slot][1] = (uint8_t)*n1;
}

static const int JR_UNITS[4][3] = {{0, 9, 0}, {9, 18, 0}, {18, 27, 0}, {27, 34, 1}};

/* a place (k, wild) as 1..70, kept in order; a group (kind order, places) as
 * order << 21 | p0 << 14 | p1 << 7 | p2 (p2 0 for a pair): codes compare as the groups */
#define JR_PLACE(k, w) (((k) + 1) * 2 + (w) + 1)
#define JR_CODE(o, a, b, c) (((uint32_t)(o) << 21) | ((uint32_t)(a) << 14) | ((b) << 7) | (c))

typedef struct {
    int n, cap, len, over;
    uint32_t (*rows)[JR_GROUPS];
} JRSplits;

typedef struct {
    int c[34];
    int in_triplet;
    uint32_t stack[JR_GROUPS];
    JRSplits *out;
} JRState;

static void jr_emit(JRState *s, int depth, int melds, int pair) {
    JRSplits *o = s->out;
    if (o->n >= JR_MAX) {
        o->over = 1;
        return;
    }
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 64;
        void *p = PyMem_Realloc(o->rows, (size_t)cap * sizeof(o->rows[0]));
        if (p == NULL) {
            o->over = 2;
            return;
        }
        o->rows = p;
        o->cap = cap;
    }
    uint32_t all[JR_GROUPS];
    int m = 0;
    for (int a = 0; a < depth; a++)
        all[m++] = s->stack[a];
    for (int a = 0; a < melds; a++)
        all[m++] = JR_CODE(3, 2, 2, 2);
    for (int a = 0; a < pair; a++)
        all[m++] = JR_CODE(3, 2, 2, 0);
    uint32_t *row = o->rows[o->n++];
    for (int a = 0; a < m; a++) {               /* insertion sort of at most 5 codes */
        uint32_t v = all[a];
        int b = a;
        while (b > 0 && row[b - 1] > v) {
            row[b] = row[b - 1];
            b--;
        }
        row[b] = v;
    }
}

static void jr_dfs(JRState *s, int jokers, int melds, int pair, uint32_t floor, int depth);

/* take group ``code`` holding the lowest tile i (its real places in ks, n of them) */
static void jr_take(JRState *s, int i, uint32_t code, const int *ks, int nk, int need,
                    int jokers, int melds, int pair, int is_pair, int depth, int *others,
                    int *pair_best) {
    int *c = s->c;
    int short_ = 0;
    for (int a = 0; a < nk; a++)
        if (--c[ks[a]] < 0)
            short_ = 1;
    if (!short_) {
        int nj = jokers - need;
        int nm = is_pair ? melds : melds - 1, np = is_pair ? pair - 1 : pair;
        int u = i < 27 ? i / 9 : 3;
        int ua = JR_UNITS[u][0], ub = JR_UNITS[u][1], uh = JR_UNITS[u][2];
        if (*others < 0) {
            /* the other units are as in the parent (the group lies in i's unit) */
            for (int a = 0; a < nk; a++)
                c[ks[a]]++;
            *others = 0;
            for (int v = 0; v < 4; v++) {
                if (v == u)
                    continue;
                int n0, n1;
                jr_needs_cached(c + JR_UNITS[v][0], JR_UNITS[v][1] - JR_UNITS[v][0], JR_UNITS[v][2],
                         s->in_triplet, &n0, &n1);
                *others += n0;
                if (n1 - n0 < *pair_best)
                    *pair_best = n1 - n0;
            }
            for (int a = 0; a < nk; a++)
                c[ks[a]]--;
        }
        int n0, n1;
        jr_needs_cached(c + ua, ub - ua, uh, s->in_triplet, &n0, &n1);
        int d = n1 - n0 < *pair_best ? n1 - n0 : *pair_best;
        int wanted = *others + n0 + (np ? d : 0);
        if (wanted <= nj) {
            s->stack[depth] = code;
            jr_dfs(s, nj, nm, np, c[i] ? code : 0, depth + 1);
        }
    }
    for (int a = 0; a < nk; a++)
        c[ks[a]]++;
}

static void jr_dfs(JRState *s, int jokers, int melds, int pair, uint32_t floor, int depth) {
    int *c = s->c;
    if (s->out->over)
        return;
    int i = 0;
    while (i < 34 && !c[i])
        i++;
    if (i == 34) {
        if (jokers == 3 * melds + 2 * pair && depth + melds + pair <= JR_GROUPS)
            jr_emit(s, depth, melds, pair);
        return;
    }
    if (depth >= JR_GROUPS)
        return;
    int others = -1, pair_best = 2;
    int ci = c[i];
    int pi = JR_PLACE(i, 0), pw = JR_PLACE(i, 1);
    int ks[3];
    uint32_t code;
#define TAKE(cd, nk, need, is_pair)                                                         \
    do {                                                                                    \
        code = (cd);                                                                        \
        if (!floor || code >= floor)                                                        \
            jr_take(s, i, code, ks, nk, need, jokers, melds, pair, is_pair, depth, &others, \
                    &pair_best);                                                            \
    } while (0)
    if (pair) {
        ks[0] = ks[1] = i;
        if (ci >= 2)
            TAKE(JR_CODE(0, pi, pi, 0), 2, 0, 1);
        if (jokers >= 1)
            TAKE(JR_CODE(0, pi, pw, 0), 1, 1, 1);
    }
    if (!melds)
        return;
    ks[0] = ks[1] = ks[2] = i;
    if (ci >= 3)
        TAKE(JR_CODE(2, pi, pi, pi), 3, 0, 0);
    if (s->in_triplet) {
        if (ci >= 2 && jokers >= 1)
            TAKE(JR_CODE(2, pi, pi, pw), 2, 1, 0);
        if (jokers >= 2)
            TAKE(JR_CODE(2, pi, pw, pw), 1, 2, 0);
    }
    if (i >= 27)
        return;
    int base = (i / 9) * 9;
    for (int a = i - 2; a <= i; a++) {
        if (a < base || a + 2 > base + 8)
            continue;
        /* places below i are jokers; i itself real; above: real (if held) or a joker */
        int opts[3][2], no[3];
        for (int q = 0; q < 3; q++) {
            int k = a + q;
            if (k < i) {
                opts[q][0] = 1;
                no[q] = 1;
            } else if (k == i) {
                opts[q][0] = 0;
                no[q] = 1;
            } else {
                no[q] = 0;
                if (c[k] >= 1)
                    opts[q][no[q]++] = 0;
                opts[q][no[q]++] = 1;
            }
        }
        for (int x = 0; x < no[0]; x++)
            for (int y = 0; y < no[1]; y++)
                for (int z = 0; z < no[2]; z++) {
                    int w0 = opts[0][x], w1 = opts[1][y], w2 = opts[2][z];
                    int need = w0 + w1 + w2;
                    if (need > jokers)
                        continue;
                    int nk = 0;
                    if (!w0) ks[nk++] = a;
                    if (!w1) ks[nk++] = a + 1;
                    if (!w2) ks[nk++] = a + 2;
                    TAKE(JR_CODE(1, JR_PLACE(a, w0), JR_PLACE(a + 1, w1), JR_PLACE(a + 2, w2)),
                         nk, need, 0);
                }
    }
#undef TAKE
}

static int jr_cmp_len;
static int jr_cmp(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    for (int g = 0; g < jr_cmp_len; g++)
        if (x[g] != y[g])
            return x[g] < y[g] ? -1 : 1;
    return 0;
}

/* joker_readings(counts, jokers, melds, in_triplet): the readings of a complete hand of
 * concealed real ``counts`` (34 ints) and ``jokers`` jokers as ``melds`` sequences/
 * triplets and a pair: each the sorted codes of its groups (above), the list sorted, each
 * once; [] when none; None past JR_MAX splits (the twin lists them). */
PyObject *joker_readings(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *seq;
    int jokers, melds, in_triplet;
    if (!PyArg_ParseTuple(args, "Oiip", &seq, &jokers, &melds, &in_triplet))
        return NULL;
    JRState st;
    int got = read_ints(seq, st.c, 34, "counts");
    if (got < 0)
        return NULL;
    if (got != 34 || melds < 0 || melds > 4 || jokers < 0 || jokers > 14) {
        PyErr_SetString(PyExc_ValueError,
                        "joker_readings: 34 counts, 0-14 jokers, 0-4 melds");
        return NULL;
    }
    for (int k = 0; k < 34; k++) {
        if (st.c[k] < 0) {
            PyErr_SetString(PyExc_ValueError, "joker_readings: counts must be 0 or more");
            return NULL;
        }
        if (st.c[k] > 4)        /* standard_readings takes any counts (never a request's,
                                 * C-2): five of a kind is the Python twin's to list */
            Py_RETURN_NONE;
    }
    JRSplits out = {0, 0, melds + 1, 0, NULL};
    st.in_triplet = in_triplet;
    st.out = &out;
    jr_dfs(&st, jokers, melds, 1, 0, 0);
    if (out.over) {
        PyMem_Free(out.rows);
        if (out.over == 2)
            return PyErr_NoMemory();
        Py_RETURN_NONE;
    }
    int len = melds + 1, n = out.n;
    jr_cmp_len = len;                     /* the GIL is held: no other call runs this */
    if (n > 1)
        qsort(out.rows, (size_t)n, sizeof(out.rows[0]), jr_cmp);
    PyObject *list = PyList_New(0);
    if (list == NULL)
        goto fail;
    for (int r = 0; r < n; r++) {
        if (r && jr_cmp(out.rows[r], out.rows[r - 1]) == 0)
            continue;
        PyObject *t = PyTuple_New(len);
        if (t == NULL)
            goto fail;
        for (int g = 0; g < len; g++) {
            PyObject *v = PyLong_FromUnsignedLong(out.rows[r][g]);
            if (v == NULL) {
                Py_DECREF(t);
                goto fail;
            }
            PyTuple_SET_ITEM(t, g, v);
        }
        int bad = PyList_Append(list, t);
        Py_DECREF(t);
        if (bad < 0)
            goto fail;
    }
    PyMem_Free(out.rows);
    return list;
fail:
    Py_XDECREF(list);
    PyMem_Free(out.rows);
    return NULL;
}
