/* 盘锦's count below which its searches need not run, seeing PJ-4..PJ-6: the twin of
 * webcalc/variants/panjin_lower.py count_lower (tests/test_panjin_lower.py holds the two
 * equal, and the count at most the distance the searches find).
 *
 * From the relaxed unit tables (jokers anywhere, no cap: _pjunit_draws.c free_unit_rows,
 * M_RELAXED, cached and warmed, the ones relaxed_rest reads), each unit's fewest places
 * unfilled by its held real tiles per (g, p), with its own fresh groups (3 places) and
 * pair (2). For each set S of suits a target may show (|S ∪ the melds' suits| allowed,
 * PJ-4): a suit of S that no meld shows has a group or the pair in its unit ((0, 0)
 * barred), one outside S only jokers there (3 and 2 places a group and the pair); the four
 * units together (min-plus) give U, the fewest places unfilled; each suit of S the hand
 * holds no real tile of is a real tile to draw (R). The count is the least over S of
 * max(U - jokers, R, K), K (PJ-6) the least over the kinds k a real 刻 may be of (in a
 * suit S shows, or an honor) of t + max(0, U_k - jokers): t = 3 - held real tiles of k (2 -
 * held for an honor pair as the eyes), no joker among them (PJ-2), and U_k the places the
 * rest of the target leaves unfilled (the hand less those held tiles, one group fewer or
 * no pair, the other suits of S still shown); and at least one draw for a missing 幺九
 * (PJ-5). */
#include "../_pjunit.h"

#define PINF 99

/* a unit's relaxed minima with its own fresh groups and pair (pj_rest_rows of its table) */
static int unit_closure(const int *counts, int u, int *out) {
    int m[10];
    if (pj_relaxed_unit(counts, u, m) < 0)
        return -1;
    pj_rest_rows(m, out);
    return 0;
}

static const unsigned char YAOJIU_K[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0,
                                           1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};

/* pj_count_lower: count_lower below on read counts (real 0 to 4, groups 0 to 4, jokers at
 * least 0: the caller checks), PINF for None, -1 with an exception set; panjin_advice.c
 * calls it too */
int pj_count_lower(const int *real, const int *caps, int jokers, int groups, int allowed,
                   int flags) {
    int m[4][10];
    if (pj_relaxed_minima(real, m) < 0)
        return -1;
    return pj_count_lower_of(real, m, caps, jokers, groups, allowed, flags);
}

int pj_count_lower_of(const int *real, int m[4][10], const int *caps, int jokers, int groups,
                      int allowed, int flags) {
    int f[4][10], held[4];
    for (int u = 0; u < 4; u++) {
        held[u] = 0;
        for (int i = 0; i < (u < 3 ? 9 : 7); i++)
            held[u] += real[9 * u + i];
        pj_rest_rows(m[u], f[u]);
    }
    /* PJ-6's candidates: a real triplet of k, or an honor's real pair as the eyes, by the
     * draws t they need; a kind not held leaves its unit's table as it is, a held one's
     * table less the tiles it takes is looked up when first asked */
    int want_trip = !(flags & 16) && groups > 0, nc = 0;
    struct { int k, u, size, t, used, ready, g[10]; } cand[41];
    for (int t = 0; want_trip && t <= 3; t++)
        for (int k = 0; k < 34; k++)
            for (int size = 3; size >= (k < 27 ? 3 : 2); size--) {
                int used = real[k] < size ? real[k] : size;
                if (caps[k] < size || size - used != t)
                    continue;
                cand[nc].k = k;
                cand[nc].u = k < 27 ? k / 9 : 3;
                cand[nc].size = size;
                cand[nc].t = t;
                cand[nc].used = used;
                cand[nc].ready = 0;
                nc++;
            }
    int suits0 = flags & 7, best = PINF;
    for (int s = 0; s < 8; s++) {
        int shown = s | suits0, n_shown = 0;
        for (int u = 0; u < 3; u++)
            n_shown += shown >> u & 1;
        if (!(allowed >> n_shown & 1))
            continue;
        int v[4][10], draws = 0;
        for (int u = 0; u < 3; u++)
            for (int k = 0; k < 10; k++) {
                if (suits0 >> u & 1)
                    v[u][k] = f[u][k];                   /* shown by a meld */
                else if (s >> u & 1)
                    v[u][k] = k ? f[u][k] : PINF;        /* a group or the pair there */
                else
                    v[u][k] = 3 * (k >> 1) + 2 * (k & 1);  /* jokers only */
            }
        for (int u = 0; u < 3; u++)
            if ((s >> u & 1) && !(suits0 >> u & 1) && !held[u])
                draws++;
        memcpy(v[3], f[3], sizeof v[3]);
        /* the other three units together, each unit left out in turn, and all four */
        int rest[4][10], all[10];
        pj_combined(v, rest, all);
        int places = all[groups * 2 + 1];
        if (places >= PINF)
            continue;
        int c = places - jokers > draws ? places - jokers : draws;
        if (want_trip) {             /* the 刻 in a unit S (or a meld) shows, or the honors */
            int trip = PINF;
            for (int i = 0; i < nc && cand[i].t < trip; i++) {
                int u = cand[i].u;
                if (u < 3 && !(shown >> u & 1))
                    continue;
                /* its unit shown by the 刻: no more asked there (a kind not held: the
                 * unit's own table) */
                const int *g = f[u];
                if (cand[i].used) {
                    if (!cand[i].ready) {
                        int less[MAXN] = {0};  /* the honors: 7 kinds, real's last */
                        memcpy(less, real + 9 * u, sizeof(int) * (u < 3 ? 9 : 7));
                        less[cand[i].k - 9 * u] -= cand[i].used;
                        if (unit_closure(less, u, cand[i].g) < 0)
                            return -1;
                        cand[i].ready = 1;
                    }
                    g = cand[i].g;
                }
                /* the places left: g with the rest of the units, one group fewer (a
                 * triplet) or no pair (the eyes) */
                int target = cand[i].size == 3 ? (groups - 1) * 2 + 1 : groups * 2, left = PINF;
                for (int j = 0; j <= target; j++) {
                    int o = target - j;
                    if (g[j] >= PINF || rest[u][o] >= PINF || ((j & 1) && (o & 1)))
                        continue;
                    if (g[j] + rest[u][o] < left)
                        left = g[j] + rest[u][o];
                }
                if (left >= PINF)
                    continue;
                int t = cand[i].t + (left > jokers ? left - jokers : 0);
                if (t < trip)
                    trip = t;
            }
            if (trip > c)
                c = trip;
        }
        if (c < best)
            best = c;
    }
    if (best >= PINF)
        return PINF;
    if (!(flags & 8)) {                              /* PJ-5: a first 幺九 to draw */
        int yj = 0;
        for (int k = 0; k < 34; k++)
            if (YAOJIU_K[k] && real[k])
                yj = 1;
        if (!yj && best < 1)
            best = 1;
    }
    return best;
}

/* count_lower(real, caps, jokers, groups, allowed, flags) -> int or None:
 * panjin_lower.py count_lower; allowed the suit counts as a bit set, flags the melds'
 * suits (bits 0-2), 幺九 (bit 3) and 刻 (bit 4). */
PyObject *count_lower(PyObject *self, PyObject *args) {
    PyObject *real_o, *caps_o;
    int jokers, groups, allowed, flags;
    if (!PyArg_ParseTuple(args, "OOiiii", &real_o, &caps_o, &jokers, &groups, &allowed,
                          &flags))
        return NULL;
    int real[34], caps[34];
    if (read_ints(real_o, real, 34, "real") != 34 || read_ints(caps_o, caps, 34, "caps") != 34) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "real, caps: 34 numbers each");
        return NULL;
    }
    for (int k = 0; k < 34; k++)
        if (real[k] < 0 || real[k] > 4) {
            PyErr_SetString(PyExc_ValueError, "real: counts are 0 to 4");
            return NULL;
        }
    if (groups < 0 || groups > 4 || jokers < 0) {
        PyErr_SetString(PyExc_ValueError, "groups: 0 to 4; jokers: at least 0");
        return NULL;
    }
    int best = pj_count_lower(real, caps, jokers, groups, allowed, flags);
    if (best < 0)
        return NULL;
    if (best >= PINF)
        Py_RETURN_NONE;
    return PyLong_FromLong(best);
}
