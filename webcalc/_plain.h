/* webcalc._plain's shared declarations (one extension, its sources split by job; setup.py
 * lists them):
 *
 *   webcalc/_plain.c          the module: arguments, the API's rows, the method table
 *   webcalc/_plain_tables.c   the dense unit tables: the slots, a table's DP, the warm walk
 *   webcalc/_plain_search.c   a hand's distance and every draw's, 13 tiles or each discard
 *                             of 14, from those tables (free_draws' answer)
 *   webcalc/_plain_wild.c     the same with wildcards in play, from the relaxed tables
 *
 * See webcalc/_plain.c for what the module answers. */
#ifndef WEBCALC_PLAIN_H
#define WEBCALC_PLAIN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define TINF 99                    /* never ready (shanten.py INF) */
#define BIG 10000
#define NOD 31u                    /* a packed D: no row */
#define BUILT ((uint64_t)1 << 63)  /* a slot's flag: its table is made */
#define MAXT 14                    /* tiles in a suit at most */
#define G 4                        /* groups to make: no melds */
#define NHON 78125                 /* 5 ** 7 */
#define SH_SEVEN 1
#define SH_FOUR 2
#define SH_KNIT 4
#define SH_ORPH 8

#if defined(__GNUC__)
#define PL_HIDDEN __attribute__((visibility("hidden")))
#else
#define PL_HIDDEN
#endif

static const int UA[4] = {0, 9, 18, 27}, UN[4] = {9, 9, 9, 7};

/* _plain_tables.c: the slots (a suit's by its rank, OFF; the honors' in base 5) */
PL_HIDDEN extern int OFF[9][MAXT + 1][5];
PL_HIDDEN extern long n_suits, built_suits, built_honors;
PL_HIDDEN extern uint64_t *suit_tab, *honor_tab;
PL_HIDDEN uint64_t unit_build(const int *unit, int n, int honors);
PL_HIDDEN int tables_alloc(void);
PL_HIDDEN long warm_tables(void);

/* the slot of unit u's table (0-2 a suit, 3 the honors), counts cu */
static inline uint64_t *slot_of(const int *cu, int u) {
    if (u < 3) {
        int r = 0, s = 0;
        for (int i = 0; i < 9; i++) {
            r += OFF[i][s][cu[i]];
            s += cu[i];
        }
        return &suit_tab[r];
    }
    int x = 0;
    for (int i = 6; i >= 0; i--)
        x = x * 5 + cu[i];
    return &honor_tab[x];
}

/* the packed table of unit u of counts cu (a suit at most MAXT tiles: the callers keep to
 * that), built into its slot when empty */
static inline uint64_t table_of(const int *cu, int u) {
    uint64_t *slot = slot_of(cu, u);
    if (!*slot) {
        *slot = unit_build(cu, UN[u], u == 3);
        if (u < 3)
            built_suits++;
        else
            built_honors++;
    }
    return *slot;
}

/* the relaxed tables (wildcards in play: _pjunit_draws.c M_RELAXED, every cap RCAP, so a
 * function of the counts alone), in slots of their own laid out as the plain ones */
PL_HIDDEN extern uint64_t *suit_rtab, *honor_rtab;
PL_HIDDEN extern long built_rsuits, built_rhonors;
PL_HIDDEN uint64_t unit_build_r(const int *unit, int n, int honors);
PL_HIDDEN int rtables_alloc(void);
PL_HIDDEN long warm_rtables(void);

/* the slot of unit u of counts cu in the plain (rel 0) or the relaxed tables */
static inline uint64_t *slot_in(const int *cu, int u, int rel) {
    uint64_t *s = slot_of(cu, u);
    return rel ? (u < 3 ? suit_rtab + (s - suit_tab) : honor_rtab + (s - honor_tab)) : s;
}

/* the packed table of unit u of counts cu, plain or relaxed, built into its slot when
 * empty */
static inline uint64_t table_in(const int *cu, int u, int rel) {
    if (!rel)
        return table_of(cu, u);
    uint64_t *slot = slot_in(cu, u, 1);
    if (!*slot) {
        *slot = unit_build_r(cu, UN[u], u == 3);
        if (u < 3)
            built_rsuits++;
        else
            built_rhonors++;
    }
    return *slot;
}

/* ---- the search's arithmetic on (groups, pair) states (both searches) ------------------- */

static inline void unpack(uint64_t t, int *D) {
    for (int gp = 0; gp < 10; gp++) {
        unsigned v = (unsigned)(t >> (5 * gp)) & NOD;
        D[gp] = v == NOD ? BIG : (int)v;
    }
}

/* out = a merged with one more unit's table D (groups <= G, one pair): a min-plus product
 * over the 15 (g, g') with g + g' <= G, without branches; BIG (none) stays BIG */
static inline void merge(const int *a, const int *D, int *out) {
    for (int z = 0; z < 10; z++)
        out[z] = 2 * BIG;
    for (int g = 0; g <= G; g++) {
        int a0 = a[2 * g], a1 = a[2 * g + 1];
        for (int h = 0; h <= G - g; h++) {
            int d0 = D[2 * h], d1 = D[2 * h + 1], *o = out + 2 * (g + h);
            int v = a0 + d0, w = a0 + d1, x = a1 + d0;
            if (w > x)
                w = x;
            o[0] = v < o[0] ? v : o[0];
            o[1] = w < o[1] ? w : o[1];
        }
    }
    for (int z = 0; z < 10; z++)
        out[z] = out[z] < BIG ? out[z] : BIG;
}

/* best[g][p]: the least D' + 3 (G - g - g') + 2 (1 - p - p') over the states (g', p') of s
 * with g + g' <= G, p + p' <= 1 (_pjunit_draws.c states_best, no joker places) */
static inline void best_of(const int *s, int *best) {
    int m[10];
    for (int g = 0; g <= G; g++)
        for (int p = 0; p < 2; p++) {
            int x = g * 2 + p;
            int v = s[x] < BIG ? s[x] - 3 * g - 2 * p : BIG;
            if (g && m[x - 2] < v)
                v = m[x - 2];
            if (p && m[x - 1] < v)
                v = m[x - 1];
            m[x] = v;
        }
    for (int g = 0; g <= G; g++)
        for (int p = 0; p < 2; p++) {
            int v = m[(G - g) * 2 + 1 - p];
            best[g * 2 + p] = v < BIG ? v + 3 * (G - g) + 2 * (1 - p) : BIG;
        }
}

static inline int finish(const int *best, const int *D) {
    int low = 2 * BIG;                 /* BIG + anything is no row */
    for (int x = 0; x < 10; x++) {
        int v = best[x] + D[x];
        low = v < low ? v : low;
    }
    return low >= BIG ? TINF : low;
}

/* _plain_search.c: free_draws' triple, (d, lower, zero) */
typedef struct {
    int d;
    uint64_t lower, zero;
} Triple;
PL_HIDDEN int draws13(const int *c, int shapes, Triple *out);
PL_HIDDEN int draws14(const int *c, int shapes, const int *ds, int nd, Triple *out);

/* _plain_wild.c: the same with wildcards in play (the relaxed tables); -2: not settled by
 * them */
typedef struct {
    uint64_t wild;                 /* the wildcard kinds, as bits */
    int indicator, melds;          /* the indicator's kind or -1; the melds declared */
    int meld_count[34];            /* the melds' tiles per kind */
} WArgs;
PL_HIDDEN int wdraws13(const int *c, int shapes, const WArgs *wa, Triple *out);
PL_HIDDEN int wdraws14(const int *c, int shapes, const WArgs *wa, const int *ds, int nd,
                       Triple *out);

#endif
