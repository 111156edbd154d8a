/* webcalc._plain's search: a plain hand's distance and every draw's at once, for 13 tiles or
 * each discard of 14 (free_draws' answer, mode M_PLAIN), from the dense unit tables (see
 * _plain.h, _plain.c). */
#include "_plain.h"

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


int draws13(const int *c, int shapes, Triple *out) {
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
int draws14(const int *c, int shapes, const int *ds, int nd, Triple *out) {
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

