/* webcalc._plain: the advice of a plain hand in one call, from dense unit tables (issue 38,
 * Build 1: one compiled call per hand).
 *
 * A plain hand here: no wildcard in play, no meld, no indicator, every kind in play (34), 13
 * or 14 tiles, at most four of a kind. For it the free-joker search (webcalc/_pjunit_draws.c
 * free_draws, mode M_PLAIN; its twin webcalc/efficiency.py FreeOracle) looks up each unit's
 * table (shanten.py _plain_rows: the fewest draws D per (groups, pair) of the unit) in a
 * hashed cache, and a table missing from it is built then (about 5 us for a suit of 10-12
 * tiles). Here every table has its own slot, found by arithmetic: a suit's by the rank of
 * its nine counts among the count vectors of at most 14 tiles (405,350 of them), the
 * honors' by their seven counts in base 5 (78,125); a slot holds the ten D values packed in
 * a 64-bit word (3.2 MB and 0.6 MB, allocated on first use, filled as met or all at once
 * by warm()). Tables are a pure function of the counts (the caps are all 4 here), so a slot
 * is never stale.
 *
 * advice(counts, shapes, discards, visible) answers exactly what
 * _pjunit.free_advice(counts, (), -1, 34, 0, shapes, 0, discards, visible) does (and its twin
 * webcalc/advice_rows.py advice_rows of FreeOracle's answer):
 *   discards None (13 tiles): (shanten, waits, useful, useful_total, any_tile_wait)
 *   else (14 tiles):          (efficiency, discards, shanten)
 * or None for a hand it does not take (not 13 / 14 tiles, a count outside 0-4, a discard
 * not held, visible not 34 counts 0-4 or empty): the caller asks free_advice, which says
 * what is wrong. draws(counts, shapes, discards) answers what free_draws does, or None.
 * shapes: free_draws' bits (1 seven pairs, 4 knitted, 8 thirteen orphans; 2, four
 * wildcards, needs a wildcard: nothing here). tests/test_plain_advice.py holds the three
 * equal. */
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
#define SH_KNIT 4
#define SH_ORPH 8

static int R[10][MAXT + 1];        /* R[L][S]: vectors of L counts 0-4 summing to <= S */
static int OFF[9][MAXT + 1][5];    /* a suit's rank: sum of OFF[i][counts before i][c_i] */
static long n_suits;
static const int UA[4] = {0, 9, 18, 27}, UN[4] = {9, 9, 9, 7};
static uint64_t *suit_tab, *honor_tab;
static long built_suits, built_honors;

static void ranks_init(void) {
    for (int s = 0; s <= MAXT; s++)
        R[0][s] = 1;
    for (int l = 1; l <= 9; l++)
        for (int s = 0; s <= MAXT; s++) {
            int n = 0;
            for (int v = 0; v <= 4 && v <= s; v++)
                n += R[l - 1][s - v];
            R[l][s] = n;
        }
    for (int i = 0; i < 9; i++)
        for (int s = 0; s <= MAXT; s++) {
            int acc = 0;
            for (int c = 0; c < 5; c++) {
                OFF[i][s][c] = acc;
                if (s + c <= MAXT)
                    acc += R[8 - i][MAXT - s - c];
            }
        }
    n_suits = R[9][MAXT];
}

/* shanten.py _plain_rows with every cap 4 (the twin of _pjunit_free.c plain_rows), packed:
 * D of (g, p) in bits 5 (2 g + p) and up, NOD for no row; BUILT set */
/* A unit's DP (shanten.py _plain_rows with every cap 4; the twin of _pjunit_free.c
 * plain_rows): states (a, b, g, p) -> D, a and b the sequences begun at the two kinds
 * before, as key ((a * 5 + b) * 5 + g) * 2 + p; a state list holds the reached keys. */
typedef struct {
    int n, key[250], d[250];
} SList;

/* one kind of the unit: c held there, s_max the sequences that may begin there */
static void dp_step(const SList *in, int c, int s_max, SList *out) {
    static int map[250], ready;    /* key -> D; left all BIG between calls */
    if (!ready) {
        for (int k = 0; k < 250; k++)
            map[k] = BIG;
        ready = 1;
    }
    int nn = 0;
#define PSET(A, B, GG, P, V)                                                               \
    do {                                                                                   \
        int k_ = (((A) * 5 + (B)) * 5 + (GG)) * 2 + (P), v_ = (V);                         \
        if (map[k_] == BIG)                                                                \
            out->key[nn++] = k_;                                                           \
        if (v_ < map[k_])                                                                  \
            map[k_] = v_;                                                                  \
    } while (0)
    for (int j = 0; j < in->n; j++) {
        int key = in->key[j], d = in->d[j];
        int p = key & 1, g = (key >> 1) % 5, b = (key / 10) % 5, a = key / 50;
        int base = a + b;
        int top = s_max;
        if (4 - g < top)
            top = 4 - g;
        if (4 - base < top)
            top = 4 - base;
        for (int s = 0; s <= top; s++) {
            int pl = base + s, g1 = g + s;
            PSET(b, s, g1, p, d + (pl > c ? pl - c : 0));
            if (!c)
                continue;
            if (!p && pl + 2 <= 4)
                PSET(b, s, g1, 1, d + (pl + 2 > c ? pl + 2 - c : 0));
            if (g1 < 4 && pl + 3 <= 4)
                PSET(b, s, g1 + 1, p, d + (pl + 3 > c ? pl + 3 - c : 0));
            /* a triplet and the pair at one kind: 5 places, never within a cap of 4 */
        }
    }
#undef PSET
    for (int j = 0; j < nn; j++) {
        out->d[j] = map[out->key[j]];
        map[out->key[j]] = BIG;
    }
    out->n = nn;
}

static inline int s_max_at(const int *unit, int n, int honors, int i) {
    if (honors || i > n - 3)
        return 0;
    int s = unit[i] + unit[i + 1] + unit[i + 2];
    return s > 4 ? 4 : s;
}

/* the packed table of the final states: D of (g, p) in bits 5 (2 g + p) and up, NOD for
 * no row; BUILT set */
static uint64_t pack_states(const SList *st) {
    int best[10];
    for (int gp = 0; gp < 10; gp++)
        best[gp] = BIG;
    for (int j = 0; j < st->n; j++) {
        int gp = st->key[j] % 10;
        if (st->d[j] < best[gp])
            best[gp] = st->d[j];
    }
    uint64_t out = BUILT;
    for (int gp = 0; gp < 10; gp++)
        out |= (uint64_t)(best[gp] < (int)NOD ? (unsigned)best[gp] : NOD) << (5 * gp);
    return out;
}

static uint64_t unit_build(const int *unit, int n, int honors) {
    SList a, b, *cur = &a, *nxt = &b, *t;
    a.n = 1;
    a.key[0] = 0;
    a.d[0] = 0;
    for (int i = 0; i < n; i++) {
        dp_step(cur, unit[i], s_max_at(unit, n, honors, i), nxt);
        t = cur;
        cur = nxt;
        nxt = t;
    }
    return pack_states(cur);
}

static int tables_alloc(void) {
    if (suit_tab)
        return 0;
    ranks_init();
    suit_tab = PyMem_Calloc((size_t)n_suits, sizeof(uint64_t));
    honor_tab = PyMem_Calloc(NHON, sizeof(uint64_t));
    if (!suit_tab || !honor_tab) {
        PyMem_Free(suit_tab);
        PyMem_Free(honor_tab);
        suit_tab = honor_tab = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* the packed table of unit u (0-2 a suit, 3 the honors) of counts u9 (a suit at most MAXT
 * tiles: the callers keep to that) */
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

/* The tables are read at scattered slots (3.9 MB): a hand's slots are asked for first, all
 * at once, so that their cache misses overlap instead of following one another. */
static inline void prefetch(const int *cu, int u) { __builtin_prefetch(slot_of(cu, u)); }

/* the slot of unit u of c with one more tile at kind k (k < 0: none), prefetched */
static inline uint64_t *slot_drawn(const int *c, int u, int k) {
    int cu[9];
    memcpy(cu, c + UA[u], sizeof(int) * (size_t)UN[u]);
    if (k >= 0)
        cu[k - UA[u]]++;
    uint64_t *slot = slot_of(cu, u);
    __builtin_prefetch(slot);
    return slot;
}

/* the table in slot, that of unit u of c with one more tile at k (k < 0: none), built into
 * it when empty */
static inline uint64_t fill(uint64_t *slot, const int *c, int u, int k) {
    if (!*slot) {
        int cu[9];
        memcpy(cu, c + UA[u], sizeof(int) * (size_t)UN[u]);
        if (k >= 0)
            cu[k - UA[u]]++;
        *slot = unit_build(cu, UN[u], u == 3);
        if (u < 3)
            built_suits++;
        else
            built_honors++;
    }
    return *slot;
}

static inline void unpack(uint64_t t, int *D) {
    for (int gp = 0; gp < 10; gp++) {
        unsigned v = (unsigned)(t >> (5 * gp)) & NOD;
        D[gp] = v == NOD ? BIG : (int)v;
    }
}

/* out = a merged with one more unit's table D (groups <= G, one pair): a min-plus product
 * over the 15 (g, g') with g + g' <= G, without branches; BIG (none) stays BIG */
static void merge(const int *a, const int *D, int *out) {
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
static void best_of(const int *s, int *best) {
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

static const int ORPH[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static const char IS_ORPH[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
                                 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static inline int unit_of(int k) { return k < 27 ? k / 9 : 3; }

/* 七对 pair slots of a kind held c times (cap 4): _pjunit_draws.c slots */
static inline void slots(int c, int *hist, int sign) {
    hist[c < 2 ? 2 - c : 0] += sign;
    hist[c > 2 ? 4 - c : 2] += sign;
}

static int seven_of(const int *hist) {
    int need = 7, total = 0;
    for (int v = 0; v < 3; v++) {
        int take = hist[v] < need ? hist[v] : need;
        total += take * v;
        need -= take;
    }
    return need ? TINF : total;
}

/* d of the 13-tile hand c and its lower / zero sets, from the standard distances of the
 * hand (base) and of each draw (std; kinds held four times not read): _pjunit_draws.c
 * shape_masks without wildcards (every face 4). A draw's 七对 and 十三幺 distances depend
 * only on how many of its kind are held (and whether it is a terminal or honor): worked
 * out once for each. */
static void shape_masks(const int *c, int shapes, const int *std, int base, int *d_out,
                        uint64_t *lower, uint64_t *zero) {
    int other[2][5], d0 = base;            /* [terminal/honor][held]: the other shapes' */
    for (int o = 0; o < 2; o++)
        for (int n = 0; n < 5; n++)
            other[o][n] = TINF;
    if (shapes & SH_SEVEN) {
        int hist[3] = {0, 0, 0};
        for (int k = 0; k < 34; k++)
            slots(c[k], hist, 1);
        int d = seven_of(hist);
        d0 = d < d0 ? d : d0;
        for (int n = 0; n < 4; n++) {
            int hh[3] = {hist[0], hist[1], hist[2]};
            slots(n, hh, -1);
            slots(n + 1, hh, 1);
            other[0][n] = other[1][n] = seven_of(hh);
        }
    }
    if (shapes & SH_ORPH) {
        int kinds = 0, paired = 0;
        for (int i = 0; i < 13; i++) {
            kinds += c[ORPH[i]] > 0;
            paired |= c[ORPH[i]] >= 2;
        }
        int d = 14 - kinds - paired;
        d0 = d < d0 ? d : d0;
        for (int n = 0; n < 4; n++) {
            int dk = 14 - (kinds + !n) - (paired || n >= 1);
            other[0][n] = d < other[0][n] ? d : other[0][n];
            other[1][n] = dk < other[1][n] ? dk : other[1][n];
        }
    }
    int honors = 0, have[6] = {0};
    static int perm_of[6][27], perm_ready;
    if (shapes & SH_KNIT) {
        if (!perm_ready) {
            for (int p = 0; p < 6; p++)
                for (int su = 0; su < 3; su++)
                    for (int r = PERMS[p][su]; r < 9; r += 3)
                        perm_of[p][su * 9 + r] = 1;
            perm_ready = 1;
        }
        for (int k = 27; k < 34; k++)
            honors += c[k] > 0;
        for (int p = 0; p < 6; p++)
            for (int k = 0; k < 27; k++)
                have[p] += perm_of[p][k] && c[k];
        int top = 0;
        for (int p = 0; p < 6; p++)
            top = have[p] > top ? have[p] : top;
        int d = 14 - top - (honors < 5 ? honors : 5);
        d0 = d < d0 ? d : d0;
    }
    uint64_t lo = 0, ze = 0;
    for (int k = 0; k < 34; k++) {
        if (c[k] >= 4)
            continue;
        int v = std[k], o = other[(int)IS_ORPH[k]][c[k]];
        v = o < v ? o : v;
        if (shapes & SH_KNIT) {
            int hon = honors + (k >= 27 && !c[k]), top = 0;
            for (int p = 0; p < 6; p++) {
                int x = have[p] + (k < 27 && !c[k] && perm_of[p][k]);
                top = x > top ? x : top;
            }
            int d = 14 - top - (hon < 5 ? hon : 5);
            v = d < v ? d : v;
        }
        if (v < d0)
            lo |= (uint64_t)1 << k;
        if (v == 0)
            ze |= (uint64_t)1 << k;
    }
    *d_out = d0;
    *lower = lo;
    *zero = ze;
}

typedef struct {
    int d;
    uint64_t lower, zero;
} Triple;


/* A draw is "far" when no tile of its unit within two kinds of it is held (the honors:
 * none of its own kind): its unit's table with it is the unit's merged with a lone tile's,
 * so d(H + k) is the lone tile's table finished against the whole hand's states, the same
 * for every far kind of a rank (_pjunit_draws.c is_far; every cap is 4 here) */
static int LONE[10][10], lone_ready;       /* [rank, or 9 for an honor] */

static void lone_init(void) {
    if (lone_ready)
        return;
    for (int r = 0; r < 10; r++) {
        int cu[9] = {0};
        cu[r < 9 ? r : 0] = 1;
        unpack(table_of(cu, r < 9 ? 0 : 3), LONE[r]);
    }
    lone_ready = 1;
}

/* the kinds near a held tile (is_far false), as bits: a held suit tile's kind and the two
 * on either side in its suit, a held honor's own kind */
static inline uint64_t near_of(const int *c) {
    uint64_t held = 0, near = 0;
    for (int k = 0; k < 34; k++)
        held |= (uint64_t)(c[k] > 0) << k;
    for (int u = 0; u < 3; u++) {
        uint64_t m = held >> (9 * u) & 0x1ff;
        near |= ((m | m << 1 | m << 2 | m >> 1 | m >> 2) & 0x1ff) << (9 * u);
    }
    return near | (held & ((uint64_t)0x7f << 27));
}

#define IS_FAR(near, k) (!((near) >> (k) & 1))

static inline int far_std(const int *best_all, int k, int *by_rank) {
    int r = k < 27 ? k % 9 : 9;
    if (by_rank[r] < 0)
        by_rank[r] = finish(best_all, LONE[r]);
    return by_rank[r];
}

/* The 13-tile hand c: T its units' tables, bestR[u] the best of the other three units'
 * merge. Every kind held fewer than four times is drawn into its unit. */
static void eval13(const int *c, int shapes, int T[4][10], int RS[4][10], int bestR[4][10],
                   uint64_t *const *sl, Triple *out) {
    int std[34], D[10], all[10], best_all[10];
    int by_rank[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    uint64_t near = near_of(c);
    int base = finish(bestR[0], T[0]);
    merge(RS[0], T[0], all);
    best_of(all, best_all);
    for (int k = 0; k < 34; k++) {
        if (c[k] >= 4)
            continue;
        if (IS_FAR(near, k)) {
            std[k] = far_std(best_all, k, by_rank);
            continue;
        }
        int u = unit_of(k);
        unpack(fill(sl[k], c, u, k), D);
        std[k] = finish(bestR[u], D);
    }
    shape_masks(c, shapes, std, base, &out->d, &out->lower, &out->zero);
}

/* the four units' tables of c; -1 when a unit holds more than MAXT tiles */
static int unit_tables(const int *c, int T[4][10]) {
    for (int u = 0; u < 4; u++) {
        int s = 0;
        for (int i = 0; i < UN[u]; i++)
            s += c[UA[u] + i];
        if (s > MAXT)
            return -1;
        unpack(table_of(c + UA[u], u), T[u]);
    }
    return 0;
}

/* P[u][w] (u != w): the merge of the two units other than u and w (a table is a state
 * list of its own: (g, p) -> D); all six pairs, or (some) those of 0-1 and 2-3 only */
static void pair_merges(int T[4][10], int P[4][4][10], int some) {
    for (int u = 0; u < 4; u++)
        for (int w = u + 1; w < 4; w++) {
            if (some && !(u == 0 && w == 1) && !(u == 2 && w == 3))
                continue;
            int x = -1, y = -1;
            for (int v = 0; v < 4; v++)
                if (v != u && v != w) {
                    if (x < 0)
                        x = v;
                    else
                        y = v;
                }
            merge(T[x], T[y], P[u][w]);
            memcpy(P[w][u], P[u][w], sizeof(P[u][w]));
        }
}

/* the rest of each unit (the other three merged), as best_of: unit u's partner in the
 * pairs 0-1 and 2-3 merged with the other pair */
static void rest_bests(int T[4][10], int P[4][4][10], int RS[4][10], int bestR[4][10]) {
    for (int u = 0; u < 4; u++) {
        merge(P[u][u ^ 1], T[u ^ 1], RS[u]);
        best_of(RS[u], bestR[u]);
    }
}


static int draws13(const int *c, int shapes, Triple *out) {
    int T[4][10], P[4][4][10], RS[4][10], bestR[4][10];
    uint64_t *sl[34];
    for (int u = 0; u < 4; u++)                /* 13 tiles: every unit and draw fits */
        prefetch(c + UA[u], u);
    uint64_t near = near_of(c);
    for (int k = 0; k < 34; k++)
        if (c[k] < 4 && !IS_FAR(near, k))
            sl[k] = slot_drawn(c, unit_of(k), k);
    if (unit_tables(c, T) < 0)
        return -1;
    lone_init();
    pair_merges(T, P, 1);
    rest_bests(T, P, RS, bestR);
    eval13(c, shapes, T, RS, bestR, sl, out);
    return 0;
}

/* per discard ds[e] of the 14-tile hand c, the triple of the 13 tiles left */
static int draws14(const int *c, int shapes, const int *ds, int nd, Triple *out) {
    int T[4][10], P[4][4][10], RS[4][10], bestR[4][10];
    int Dk[34][10], have_dk[34] = {0}, sum[4] = {0, 0, 0, 0}, c2[34];
    uint64_t *sl_dk[34], *sl_tu[34], *sl_in[34][9];
    for (int k = 0; k < 34; k++)
        sum[unit_of(k)] += c[k];
    for (int u = 0; u < 4; u++)                /* 14 tiles: at most MAXT in a unit */
        prefetch(c + UA[u], u);
    uint64_t near = near_of(c), near2[34];
    for (int k = 0; k < 34; k++)
        if (c[k] < 4 && sum[unit_of(k)] < MAXT && !IS_FAR(near, k))
            sl_dk[k] = slot_drawn(c, unit_of(k), k);
    memcpy(c2, c, sizeof(c2));
    for (int e = 0; e < nd; e++) {
        int t = ds[e], u = unit_of(t);
        c2[t]--;
        near2[e] = c2[t] ? near : near_of(c2);
        sl_tu[e] = slot_drawn(c2, u, -1);
        for (int k = UA[u]; k < UA[u] + UN[u]; k++)
            if (c2[k] < 4 && !IS_FAR(near2[e], k))
                sl_in[e][k - UA[u]] = slot_drawn(c2, u, k);
        c2[t]++;
    }
    if (unit_tables(c, T) < 0)
        return -1;
    lone_init();
    pair_merges(T, P, 0);
    rest_bests(T, P, RS, bestR);
    for (int e = 0; e < nd; e++) {
        int t = ds[e], u = unit_of(t), std[34], Tu[10], D[10], bw[10], s[10], best_all[10];
        int by_rank[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
        c2[t]--;
        unpack(fill(sl_tu[e], c2, u, -1), Tu);
        int base = finish(bestR[u], Tu);
        merge(RS[u], Tu, s);                 /* the 13 tiles' states: for the far draws */
        best_of(s, best_all);
        for (int w = 0; w < 4; w++) {
            int a = UA[w], n = UN[w], any_near = 0;
            for (int k = a; k < a + n; k++) {
                if (c2[k] >= 4)
                    continue;
                if (IS_FAR(near2[e], k))
                    std[k] = far_std(best_all, k, by_rank);
                else
                    any_near = 1;
            }
            if (!any_near)
                continue;
            if (w == u) {
                for (int k = a; k < a + n; k++)
                    if (c2[k] < 4 && !IS_FAR(near2[e], k)) {
                        unpack(fill(sl_in[e][k - a], c2, u, k), D);
                        std[k] = finish(bestR[u], D);
                    }
                continue;
            }
            merge(P[u][w], Tu, s);
            best_of(s, bw);
            for (int k = a; k < a + n; k++) {
                if (c2[k] >= 4 || IS_FAR(near2[e], k))
                    continue;
                if (!have_dk[k]) {          /* unit w as in the 14 tiles, k drawn */
                    unpack(fill(sl_dk[k], c, w, k), Dk[k]);
                    have_dk[k] = 1;
                }
                std[k] = finish(bw, Dk[k]);
            }
        }
        shape_masks(c2, shapes, std, base, &out[e].d, &out[e].lower, &out[e].zero);
        c2[t]++;
    }
    return 0;
}

/* ---- arguments -------------------------------------------------------------------------- */

/* 34 counts 0-4 read from a sequence into out; 1, or 0 when it is not such a sequence
 * (no error set), -1 with an error set */
static int read_counts(PyObject *o, int *out, int allow_empty, int *n_out) {
    PyObject *f = PySequence_Fast(o, "a sequence");
    if (!f) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n != 34 && !(allow_empty && n == 0)) {
        Py_DECREF(f);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(items[i])) {
            Py_DECREF(f);
            return 0;
        }
        long v = PyLong_AsLong(items[i]);
        if (v < 0 || v > 4) {
            PyErr_Clear();
            Py_DECREF(f);
            return 0;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    *n_out = (int)n;
    return 1;
}

/* counts, shapes, discards (None or held kinds: up to 34, distinct) read; 1, 0 (not a hand
 * taken here), -1 (an error) */
static int read_hand(PyObject *counts_o, int shapes, PyObject *discards_o, int *c, int *ds,
                     int *nd) {
    int n;
    int r = read_counts(counts_o, c, 0, &n);
    if (r <= 0)
        return r;
    if (shapes < 0 || shapes > 15)
        return 0;
    int total = 0;
    for (int k = 0; k < 34; k++)
        total += c[k];
    *nd = -1;
    if (discards_o == Py_None)
        return total == 13;
    if (total != 14)
        return 0;
    PyObject *f = PySequence_Fast(discards_o, "discards");
    if (!f) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(f);
    if (m > 34) {
        Py_DECREF(f);
        return 0;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(f, i);
        long v = PyLong_CheckExact(x) ? PyLong_AsLong(x) : -1;
        if (v < 0 || v > 33 || !c[v]) {
            PyErr_Clear();
            Py_DECREF(f);
            return 0;
        }
        ds[i] = (int)v;
    }
    Py_DECREF(f);
    *nd = (int)m;
    return 1;
}

static int compute(const int *c, int shapes, const int *ds, int nd, Triple *out) {
    if (tables_alloc() < 0)
        return -1;
    if (nd < 0)
        return draws13(c, shapes, out) < 0 ? 0 : 1;
    return draws14(c, shapes, ds, nd, out) < 0 ? 0 : 1;
}

static PyObject *triple_obj(const Triple *t) {
    return Py_BuildValue("(iKK)", t->d, (unsigned long long)t->lower,
                         (unsigned long long)t->zero);
}

/* draws(counts, shapes, discards) -> free_draws' answer, or None */
static PyObject *draws(PyObject *self, PyObject *args) {
    PyObject *counts_o, *discards_o;
    int shapes, c[34], ds[34], nd;
    Triple out[34];
    if (!PyArg_ParseTuple(args, "OiO", &counts_o, &shapes, &discards_o))
        return NULL;
    int r = read_hand(counts_o, shapes, discards_o, c, ds, &nd);
    if (r > 0)
        r = compute(c, shapes, ds, nd, out);
    if (r < 0)
        return NULL;
    if (!r)
        Py_RETURN_NONE;
    if (nd < 0)
        return triple_obj(&out[0]);
    PyObject *l = PyList_New(nd);
    if (!l)
        return NULL;
    for (int e = 0; e < nd; e++) {
        PyObject *t = triple_obj(&out[e]);
        if (!t) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, e, t);
    }
    return l;
}

/* ---- the rows: _pjunit_rows.c free_advice's (webcalc/advice_rows.py) -------------------- */

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

typedef struct {
    int left[34];
    PyObject *cell[34];            /* owned, made when first listed */
} Cells;

static PyObject *cell_of(Cells *c, int k) {
    if (!c->cell[k]) {
        PyObject *d = PyDict_New();
        PyObject *n = d ? PyLong_FromLong(c->left[k]) : NULL;
        if (!n || PyDict_SetItem(d, s_tile, s_code[k]) < 0
            || PyDict_SetItem(d, s_remaining, n) < 0
            || PyDict_SetItem(d, s_dead, c->left[k] == 0 ? Py_True : Py_False) < 0) {
            Py_XDECREF(n);
            Py_XDECREF(d);
            return NULL;
        }
        Py_DECREF(n);
        c->cell[k] = d;
    }
    return c->cell[k];
}

/* the kinds of mask as a new list of their cells; *total their copies left */
static PyObject *cell_list(Cells *c, uint64_t mask, long *total) {
    int n = 0;
    long sum = 0;
    for (uint64_t m = mask; m; m &= m - 1)
        n++;
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int k = 0, i = 0; mask; k++, mask >>= 1) {
        if (!(mask & 1))
            continue;
        PyObject *d = cell_of(c, k);
        if (!d) {
            Py_DECREF(out);
            return NULL;
        }
        Py_INCREF(d);
        PyList_SET_ITEM(out, i++, d);
        sum += c->left[k];
    }
    *total = sum;
    return out;
}

static PyObject *row_dict(PyObject *k1, PyObject *v1, PyObject *k2, PyObject *v2,
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

static void sort_keyed(Keyed *a, int n) { /* insertion sort: at most 34, keys distinct */
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

static PyObject *keyed_list(Keyed *a, int n) {
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

static PyObject *advice13(Cells *c, const Triple *a, uint64_t live) {
    long wt, ut;
    PyObject *waits = cell_list(c, a->zero & live, &wt);
    if (!waits)
        return NULL;
    int nlive = 0;
    for (uint64_t m = live; m; m &= m - 1)
        nlive++;
    PyObject *any = nlive && PyList_GET_SIZE(waits) == nlive ? Py_True : Py_False;
    if (a->d >= TINF) {
        PyObject *empty = PyList_New(0);
        if (!empty) {
            Py_DECREF(waits);
            return NULL;
        }
        return Py_BuildValue("(ONNiO)", Py_None, waits, empty, 0, any);
    }
    PyObject *useful = cell_list(c, (a->d == 1 ? a->zero : a->lower) & live, &ut);
    if (!useful) {
        Py_DECREF(waits);
        return NULL;
    }
    return Py_BuildValue("(iNNlO)", a->d > 1 ? a->d - 1 : 0, waits, useful, ut, any);
}

static PyObject *advice14(Cells *c, const int *gone, const Triple *a, const int *ds, int nd,
                          uint64_t live) {
    Keyed eff[34], ready[34];
    int ne = 0, nr = 0;
    PyObject *out = NULL;
    for (int e = 0; e < nd; e++) {
        int t = ds[e], d = a[e].d;
        long wt, ut;
        uint64_t back = gone[t] < 5 ? live | (uint64_t)1 << t : live;
        PyObject *wl = cell_list(c, a[e].zero & back, &wt);
        if (!wl)
            goto fail;
        Py_ssize_t nw = PyList_GET_SIZE(wl);
        if (nw) {
            PyObject *n = PyLong_FromLong(wt);
            PyObject *row = n ? row_dict(s_discard, s_code[t], s_waits, wl, s_remaining, n,
                                         NULL, NULL)
                              : NULL;
            Py_XDECREF(n);
            if (!row) {
                Py_DECREF(wl);
                goto fail;
            }
            ready[nr].key[0] = -wt;
            ready[nr].key[1] = -(long)nw;
            ready[nr].key[2] = t;
            ready[nr++].row = row;
        }
        PyObject *useful, *sh;
        if (d >= TINF) {
            Py_DECREF(wl);
            useful = PyList_New(0);
            ut = 0;
            sh = Py_None;
            Py_INCREF(sh);
        } else {
            if (d == 1) {
                useful = PyList_GetSlice(wl, 0, nw);
                ut = wt;
            } else {
                useful = cell_list(c, a[e].lower & back, &ut);
            }
            Py_DECREF(wl);
            sh = PyLong_FromLong(d > 1 ? d - 1 : 0);
        }
        PyObject *tot = PyLong_FromLong(ut);
        PyObject *row = useful && sh && tot
                            ? row_dict(s_discard, s_code[t], s_shanten, sh, s_useful, useful,
                                       s_useful_total, tot)
                            : NULL;
        Py_XDECREF(useful);
        Py_XDECREF(sh);
        Py_XDECREF(tot);
        if (!row)
            goto fail;
        eff[ne].key[0] = d >= TINF ? TINF : (d > 1 ? d - 1 : 0);
        eff[ne].key[1] = d >= TINF ? 0 : -ut;
        eff[ne].key[2] = t;
        eff[ne++].row = row;
    }
    {
        sort_keyed(eff, ne);
        long best = ne && eff[0].key[0] < TINF ? eff[0].key[0] : -1;
        PyObject *el = keyed_list(eff, ne);
        if (!el)
            goto fail;
        ne = 0;
        PyObject *rl = keyed_list(ready, nr);
        if (!rl) {
            Py_DECREF(el);
            goto fail;
        }
        nr = 0;
        if (best < 0)
            out = Py_BuildValue("(NNO)", el, rl, Py_None);
        else
            out = Py_BuildValue("(NNl)", el, rl, best);
    }
fail:
    for (int i = 0; i < ne; i++)
        Py_XDECREF(eff[i].row);
    for (int i = 0; i < nr; i++)
        Py_XDECREF(ready[i].row);
    return out;
}

/* advice(counts, shapes, discards, visible) -> free_advice's answer, or None */
static PyObject *advice(PyObject *self, PyObject *args) {
    PyObject *counts_o, *discards_o, *visible_o;
    int shapes, c[34], ds[34], nd, vis[34], nv;
    Triple tr[34];
    if (!PyArg_ParseTuple(args, "OiOO", &counts_o, &shapes, &discards_o, &visible_o))
        return NULL;
    int r = read_hand(counts_o, shapes, discards_o, c, ds, &nd);
    if (r > 0)
        r = read_counts(visible_o, vis, 1, &nv);
    if (r > 0)
        r = compute(c, shapes, ds, nd, tr);
    if (r < 0)
        return NULL;
    if (!r)
        Py_RETURN_NONE;
    if (strings_ready() < 0)
        return NULL;
    Cells cells;
    uint64_t live = 0;
    memset(cells.cell, 0, sizeof(cells.cell));
    for (int k = 0; k < 34; k++) {
        int left = 4 - c[k] - (nv ? vis[k] : 0);
        cells.left[k] = left > 0 ? left : 0;
        if (c[k] < 4)
            live |= (uint64_t)1 << k;
    }
    PyObject *out = nd < 0 ? advice13(&cells, &tr[0], live)
                           : advice14(&cells, c, tr, ds, nd, live);
    for (int k = 0; k < 34; k++)
        Py_XDECREF(cells.cell[k]);
    return out;
}

/* every suit pattern below the counts cu[0 .. j-1] chosen (sum s), the DP run through
 * kind j - 3 into st[j] (a kind's step needs the two counts after it): each prefix's
 * steps are made once for all the patterns that share it */
static void warm_suits(int *cu, int j, int s, SList *st) {
    if (j == 9) {
        SList x, y;
        dp_step(&st[9], cu[7], 0, &x);
        dp_step(&x, cu[8], 0, &y);
        int r = 0, ss = 0;
        for (int i = 0; i < 9; i++) {
            r += OFF[i][ss][cu[i]];
            ss += cu[i];
        }
        if (!suit_tab[r]) {
            suit_tab[r] = pack_states(&y);
            built_suits++;
        }
        return;
    }
    for (int c = 0; c <= 4 && s + c <= MAXT; c++) {
        cu[j] = c;
        if (j >= 2)                    /* kind j - 2's step: its s_max reads cu[j] */
            dp_step(&st[j], cu[j - 2], s_max_at(cu, 9, 0, j - 2), &st[j + 1]);
        else
            st[j + 1] = st[j];
        warm_suits(cu, j + 1, s + c, st);
    }
}

/* warm() -> tables built now: every suit pattern of at most 14 tiles and every honors
 * pattern (about 0.2 s; a server's master fills them before its workers fork) */
static PyObject *warm(PyObject *self, PyObject *noargs) {
    if (tables_alloc() < 0)
        return NULL;
    long before = built_suits + built_honors;
    static SList st[10];
    int cu[9] = {0};
    st[0].n = 1;
    st[0].key[0] = 0;
    st[0].d[0] = 0;
    warm_suits(cu, 0, 0, st);
    memset(cu, 0, sizeof(cu));
    for (;;) {                                 /* the honors: every count vector */
        int s = 0;
        for (int i = 0; i < 7; i++)
            s += cu[i];
        if (s <= MAXT)
            table_of(cu, 3);
        int i = 0;
        while (i < 7 && cu[i] == 4)
            cu[i++] = 0;
        if (i == 7)
            break;
        cu[i]++;
    }
    return PyLong_FromLong(built_suits + built_honors - before);
}

/* unit(counts, honors, stored) -> [(g, p, 0, D), ...] in (g, p) order, as
 * _pjunit.plain_unit(counts, (4, ...), honors): the table of a suit (9 counts, at most 14
 * tiles) or of the honors (7 counts), its slot's (stored: filled if empty) or built anew */
static PyObject *unit(PyObject *self, PyObject *args) {
    PyObject *o;
    int honors, stored, cu[9], s = 0;
    if (!PyArg_ParseTuple(args, "Opp", &o, &honors, &stored))
        return NULL;
    int n = honors ? 7 : 9;
    PyObject *f = PySequence_Fast(o, "unit: a sequence");
    if (!f)
        return NULL;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        return PyErr_Format(PyExc_ValueError, "unit: %d counts", n);
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v < 0 || v > 4) {
            Py_DECREF(f);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "unit: counts 0-4");
            return NULL;
        }
        cu[i] = (int)v;
        s += (int)v;
    }
    Py_DECREF(f);
    if (s > MAXT)
        return PyErr_Format(PyExc_ValueError, "unit: at most %d tiles", MAXT);
    if (tables_alloc() < 0)
        return NULL;
    uint64_t t = stored ? table_of(cu, honors ? 3 : 0) : unit_build(cu, n, honors);
    PyObject *out = PyList_New(0);
    for (int gp = 0; out && gp < 10; gp++) {
        unsigned v = (unsigned)(t >> (5 * gp)) & NOD;
        if (v == NOD)
            continue;
        PyObject *row = Py_BuildValue("(iiiI)", gp >> 1, gp & 1, 0, v);
        if (!row || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(row);
    }
    return out;
}

/* info() -> (bytes of the tables, suit tables built, honors tables built) */
static PyObject *info(PyObject *self, PyObject *noargs) {
    long bytes = suit_tab ? (long)((n_suits + NHON) * (long)sizeof(uint64_t)) : 0;
    return Py_BuildValue("(lll)", bytes, built_suits, built_honors);
}

static PyMethodDef methods[] = {
    {"advice", advice, METH_VARARGS,
     "advice(counts, shapes, discards, visible) -> _pjunit.free_advice(counts, (), -1, 34, "
     "0, shapes, 0, discards, visible)'s answer for a plain hand, or None. See the module."},
    {"draws", draws, METH_VARARGS,
     "draws(counts, shapes, discards) -> _pjunit.free_draws(counts, (), -1, 34, 0, shapes, "
     "0, discards)'s answer for a plain hand, or None."},
    {"warm", warm, METH_NOARGS, "warm() -> how many unit tables were built now."},
    {"unit", unit, METH_VARARGS,
     "unit(counts, honors, stored) -> [(g, p, 0, D), ...]: a unit's table, as "
     "_pjunit.plain_unit(counts, (4, ...), honors)."},
    {"info", info, METH_NOARGS, "info() -> (bytes, suit tables built, honors tables built)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "webcalc._plain",
                                    "A plain hand's advice from dense unit tables.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__plain(void) { return PyModule_Create(&module); }
