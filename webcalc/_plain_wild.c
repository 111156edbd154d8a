/* webcalc._plain's search with wildcards in play (an indicator, every kind in play, melds or not):
 * the distance of a hand and of every draw, 13 tiles or each discard of 14, from the dense
 * relaxed tables (_plain.h): _pjunit_draws.c free_draws' answer where its relaxed tables
 * settle it (mode M_RELAXED, relaxed_exact), and "not taken" where they do not (the caller
 * then asks free_draws, whose capped tables answer). The same arithmetic as
 * _plain_search.c, with free_draws' joker rules: a unit holds its real tiles (a wildcard
 * kind none), a distance is max(0, D - jokers), a wildcard drawn is one joker more, a draw
 * is far only where no held tile and no cap below 4 (the indicator's, a wildcard kind's,
 * a meld's) is within two kinds of it, and the other shapes count the face caps and 四混.
 * Melds: their groups made (the honors' tables moved by as many groups, unpack_u), their
 * tiles off the faces. */
#include "_plain.h"

static const int ORPH[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static const char IS_ORPH[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
                                 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static inline int unit_of(int k) { return k < 27 ? k / 9 : 3; }

static inline int less_j(int v, int J) { return v >= TINF ? TINF : (v > J ? v - J : 0); }

/* a hand as free_draws reads it (no meld, 34 kinds) */
typedef struct {
    int c[34], real[34], face[34];
    int J, room, shapes, melds;
    uint64_t wild, capped;         /* capped: the kinds whose cap is below 4 */
} WHand;

/* a unit's table unpacked into D; the honors' (u 3) with the melds' groups made: its rows
 * (g, p) moved to (g + melds, p), those past four groups dropped, so that every merge and
 * finish asks 4 - melds groups of the concealed tiles (free_draws' G) */
static inline void unpack_u(uint64_t t, int *D, int u, int melds) {
    unpack(t, D);
    if (u != 3 || !melds)
        return;
    for (int g = G; g >= 0; g--)
        for (int p = 0; p < 2; p++)
            D[2 * g + p] = g >= melds ? D[2 * (g - melds) + p] : BIG;
}

/* the kinds near a held real tile or a cap below 4 (_pjunit_draws.c is_far false), bits */
static uint64_t near_of(const WHand *h) {
    uint64_t block = h->capped;
    for (int k = 0; k < 34; k++)
        block |= (uint64_t)(h->real[k] > 0) << k;
    uint64_t near = 0;
    for (int u = 0; u < 3; u++) {
        uint64_t m = block >> (9 * u) & 0x1ff;
        near |= ((m | m << 1 | m << 2 | m >> 1 | m >> 2) & 0x1ff) << (9 * u);
    }
    return near | (block & ((uint64_t)0x7f << 27));
}

#define IS_FAR(near, k) (!((near) >> (k) & 1))

static int LONE_R[10][10], lone_ready;

static void lone_init(void) {
    if (lone_ready)
        return;
    for (int r = 0; r < 10; r++) {
        int cu[9] = {0};
        cu[r < 9 ? r : 0] = 1;
        unpack(table_in(cu, r < 9 ? 0 : 3, 1), LONE_R[r]);
    }
    lone_ready = 1;
}

static inline void slots(int c, int cap, int *hist, int sign) {
    if (cap < 2)
        return;
    hist[c < 2 ? 2 - c : 0] += sign;
    if (cap >= 4)
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

/* _pjunit_draws.c shape_masks (no meld): d of the hand and the lower / zero sets */
static void shape_masks(const WHand *h, const int *std, int base, Triple *out) {
    const int *c = h->c;
    int hist[3] = {0, 0, 0};
    if (h->shapes & SH_SEVEN)
        for (int k = 0; k < 34; k++)
            slots(c[k], h->face[k], hist, 1);
    int honors = 0, have[6] = {0}, orph_kinds = 0, orph_paired = 0;
    static int perm_of[6][27], perm_ready;
    if (h->shapes & SH_KNIT) {
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
    }
    if (h->shapes & SH_ORPH)
        for (int i = 0; i < 13; i++) {
            orph_kinds += c[ORPH[i]] > 0;
            orph_paired |= c[ORPH[i]] >= 2;
        }
    int dk[34], d0 = TINF, seven_at[5][5], four[34], nfour = 0;
    memset(seven_at, 0xff, sizeof(seven_at));
    if ((h->shapes & SH_FOUR) && h->melds <= 3)     /* the wildcard kinds with four faces */
        for (uint64_t m = h->wild; m; m &= m - 1) {
            int w = __builtin_ctzll(m);
            if (h->face[w] >= 4)
                four[nfour++] = w;
        }
    for (int k = -1; k < 34; k++) {
        if (k >= 0 && c[k] >= 4) {
            dk[k] = TINF;
            continue;
        }
        int best_d = k < 0 ? base : std[k];
        if (h->shapes & SH_SEVEN) {
            int *at = k >= 0 ? &seven_at[c[k]][h->face[k]] : NULL, d = at ? *at : -1;
            if (d < 0) {
                int hh[3] = {hist[0], hist[1], hist[2]};
                if (k >= 0) {
                    slots(c[k], h->face[k], hh, -1);
                    slots(c[k] + 1, h->face[k], hh, 1);
                }
                d = seven_of(hh);
                if (at)
                    *at = d;
            }
            if (d < best_d)
                best_d = d;
        }
        for (int i = 0; i < nfour; i++) {
            int w = four[i];
            int d = 4 - (c[w] + (k == w)), floor_ = k < 0 ? 1 : 0;
            if (d < floor_)
                d = floor_;
            if (d < best_d)
                best_d = d;
        }
        if (h->shapes & SH_KNIT) {
            int hon = honors + (k >= 27 && !c[k]), top = 0;
            for (int p = 0; p < 6; p++) {
                int v = have[p] + (k >= 0 && k < 27 && !c[k] && perm_of[p][k]);
                if (v > top)
                    top = v;
            }
            int d = 14 - top - (hon < 5 ? hon : 5);
            if (d < best_d)
                best_d = d;
        }
        if (h->shapes & SH_ORPH) {
            int kinds = orph_kinds, paired = orph_paired;
            if (k >= 0 && IS_ORPH[k]) {
                kinds += !c[k];
                paired = paired || c[k] >= 1;
            }
            int d = 14 - kinds - paired;
            if (d < best_d)
                best_d = d;
        }
        if (k < 0)
            d0 = best_d;
        else
            dk[k] = best_d;
    }
    uint64_t lo = 0, ze = 0;
    for (int k = 0; k < 34; k++) {
        if (c[k] >= 4)
            continue;
        if (dk[k] < d0)
            lo |= (uint64_t)1 << k;
        if (dk[k] == 0)
            ze |= (uint64_t)1 << k;
    }
    out->d = d0;
    out->lower = lo;
    out->zero = ze;
}

/* _pjunit_draws.c relaxed_exact: the relaxed answer is free_draws' */
static int exact(const WHand *h, int base, int d) {
    int e = 0;
    for (int k = 0; k < 34; k++) {
        int cap = h->wild >> k & 1 ? 0 : h->face[k];
        if (h->real[k] > cap)
            e += h->real[k] - cap;
    }
    return base < TINF && (base + e <= h->room || base > d);
}

/* the slot of unit u of real counts r with one more tile at k (k < 0: none), prefetched */
static inline uint64_t *rslot_drawn(const int *r, int u, int k) {
    int cu[9];
    memcpy(cu, r + UA[u], sizeof(int) * (size_t)UN[u]);
    if (k >= 0)
        cu[k - UA[u]]++;
    uint64_t *slot = slot_in(cu, u, 1);
    __builtin_prefetch(slot);
    return slot;
}

static inline uint64_t rfill(uint64_t *slot, const int *r, int u, int k) {
    if (!*slot) {
        int cu[9];
        memcpy(cu, r + UA[u], sizeof(int) * (size_t)UN[u]);
        if (k >= 0)
            cu[k - UA[u]]++;
        *slot = unit_build_r(cu, UN[u], u == 3);
        if (u < 3)
            built_rsuits++;
        else
            built_rhonors++;
    }
    return *slot;
}

static inline int far_std(const int *best_all, int k, int J, int *by_rank) {
    int r = k < 27 ? k % 9 : 9;
    if (by_rank[r] < 0)
        by_rank[r] = less_j(finish(best_all, LONE_R[r]), J);
    return by_rank[r];
}

/* the four units' relaxed tables of the real counts r; -1 when a unit holds more than
 * MAXT tiles */
static int unit_tables(const int *r, int melds, int T[4][10]) {
    for (int u = 0; u < 4; u++) {
        int s = 0;
        for (int i = 0; i < UN[u]; i++)
            s += r[UA[u] + i];
        if (s > MAXT)
            return -1;
        unpack_u(table_in(r + UA[u], u, 1), T[u], u, melds);
    }
    return 0;
}

/* P[u][w]: the merge of the two units other than u and w (as _plain_search.c) */
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

static void rest_bests(int T[4][10], int P[4][4][10], int RS[4][10], int bestR[4][10]) {
    for (int u = 0; u < 4; u++) {
        merge(P[u][u ^ 1], T[u ^ 1], RS[u]);
        best_of(RS[u], bestR[u]);
    }
}

/* the hand as free_draws reads it: 0, or -1 when its relaxed tables are not what
 * free_draws looks up first (no joker and no room: the capped plain tables) */
static int read_whand(const int *c, int shapes, const WArgs *wa, WHand *h) {
    h->shapes = shapes;
    h->wild = wa->wild;
    h->melds = wa->melds;
    h->J = h->room = 0;
    h->capped = 0;
    for (int k = 0; k < 34; k++) {
        int face = 4 - (k == wa->indicator) - wa->meld_count[k];
        h->c[k] = c[k];
        h->face[k] = face > 0 ? face : 0;
        if (wa->wild >> k & 1) {
            h->real[k] = 0;
            h->J += c[k];
            h->room += h->face[k] > c[k] ? h->face[k] - c[k] : 0;
            h->capped |= (uint64_t)1 << k;
        } else {
            h->real[k] = c[k];
            if (h->face[k] < 4)
                h->capped |= (uint64_t)1 << k;
        }
    }
    return h->J + h->room > 0 ? 0 : -1;
}

/* the 13-tile hand: 0, -1 (a unit over MAXT tiles), -2 (not settled by the relaxed tables) */
int wdraws13(const int *c, int shapes, const WArgs *wa, Triple *out) {
    WHand h;
    int T[4][10], P[4][4][10], RS[4][10], bestR[4][10], std[34], D[10], all[10], best_all[10];
    int by_rank[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    uint64_t *sl[34], wild = wa->wild;
    if (read_whand(c, shapes, wa, &h) < 0)
        return -2;
    uint64_t near = near_of(&h);
    for (int k = 0; k < 34; k++)
        if (c[k] < 4 && !(wild >> k & 1) && !IS_FAR(near, k))
            sl[k] = rslot_drawn(h.real, unit_of(k), k);
    if (unit_tables(h.real, h.melds, T) < 0)
        return -1;
    lone_init();
    pair_merges(T, P, 1);
    rest_bests(T, P, RS, bestR);
    int base = less_j(finish(bestR[0], T[0]), h.J);
    merge(RS[0], T[0], all);
    best_of(all, best_all);
    for (int k = 0; k < 34; k++) {
        if (c[k] >= 4)
            continue;
        if (wild >> k & 1) {
            std[k] = base < TINF ? (base > 1 ? base - 1 : 0) : TINF;
            continue;
        }
        if (IS_FAR(near, k)) {
            std[k] = far_std(best_all, k, h.J, by_rank);
            continue;
        }
        int u = unit_of(k);
        unpack_u(rfill(sl[k], h.real, u, k), D, u, h.melds);
        std[k] = less_j(finish(bestR[u], D), h.J);
    }
    shape_masks(&h, std, base, out);
    return exact(&h, base, out->d) ? 0 : -2;
}

/* per discard ds[e] of the 14-tile hand c, the triple of the 13 tiles left: 0, -1, -2 as
 * wdraws13 (-2: some discard not settled) */
int wdraws14(const int *c, int shapes, const WArgs *wa, const int *ds, int nd, Triple *out) {
    WHand h;
    int T[4][10], P[4][4][10], RS[4][10], bestR[4][10], all[10], best14[10];
    int Dk[34][10], have_dk[34] = {0}, sum[4] = {0, 0, 0, 0};
    uint64_t *sl_dk[34], *sl_tu[34], *sl_in[34][9], near2[34], wild = wa->wild;
    if (read_whand(c, shapes, wa, &h) < 0)
        return -2;
    for (int k = 0; k < 34; k++)
        sum[unit_of(k)] += h.real[k];
    uint64_t near = near_of(&h);
    for (int k = 0; k < 34; k++)
        if (c[k] < 4 && !(wild >> k & 1) && sum[unit_of(k)] < MAXT && !IS_FAR(near, k))
            sl_dk[k] = rslot_drawn(h.real, unit_of(k), k);
    WHand h2 = h;
    for (int e = 0; e < nd; e++) {
        int t = ds[e], u = unit_of(t);
        if (wild >> t & 1)
            continue;
        h2.real[t]--;
        near2[e] = h2.real[t] ? near : near_of(&h2);
        sl_tu[e] = rslot_drawn(h2.real, u, -1);
        for (int k = UA[u]; k < UA[u] + UN[u]; k++)
            if (c[k] - (k == t) < 4 && !(wild >> k & 1) && !IS_FAR(near2[e], k))
                sl_in[e][k - UA[u]] = rslot_drawn(h2.real, u, k);
        h2.real[t]++;
    }
    if (unit_tables(h.real, h.melds, T) < 0)
        return -1;
    lone_init();
    pair_merges(T, P, 0);
    rest_bests(T, P, RS, bestR);
    merge(RS[0], T[0], all);                  /* the 14 tiles' states: a wildcard's discard */
    best_of(all, best14);
    for (int e = 0; e < nd; e++) {
        int t = ds[e], std[34], by_rank[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
        h2 = h;
        h2.c[t]--;
        if (wild >> t & 1) {                   /* no unit changed: one joker fewer */
            h2.J--;
            if (h.face[t] >= h.c[t])
                h2.room++;
            int base = less_j(finish(bestR[0], T[0]), h2.J);
            for (int k = 0; k < 34; k++) {
                if (h2.c[k] >= 4)
                    continue;
                if (wild >> k & 1) {
                    std[k] = base < TINF ? (base > 1 ? base - 1 : 0) : TINF;
                } else if (IS_FAR(near, k)) {
                    std[k] = far_std(best14, k, h2.J, by_rank);
                } else {
                    int w = unit_of(k);
                    if (!have_dk[k]) {
                        unpack_u(rfill(sl_dk[k], h.real, w, k), Dk[k], w, h.melds);
                        have_dk[k] = 1;
                    }
                    std[k] = less_j(finish(bestR[w], Dk[k]), h2.J);
                }
            }
            shape_masks(&h2, std, base, &out[e]);
            if (!exact(&h2, base, out[e].d))
                return -2;
            continue;
        }
        int u = unit_of(t), Tu[10], D[10], bw[10], s[10], best_all[10];
        h2.real[t]--;
        unpack_u(rfill(sl_tu[e], h2.real, u, -1), Tu, u, h.melds);
        int base = less_j(finish(bestR[u], Tu), h2.J);
        merge(RS[u], Tu, s);                   /* the 13 tiles' states: for the far draws */
        best_of(s, best_all);
        for (int w = 0; w < 4; w++) {
            int a = UA[w], n = UN[w], any_near = 0;
            for (int k = a; k < a + n; k++) {
                if (h2.c[k] >= 4)
                    continue;
                if (wild >> k & 1)
                    std[k] = base < TINF ? (base > 1 ? base - 1 : 0) : TINF;
                else if (IS_FAR(near2[e], k))
                    std[k] = far_std(best_all, k, h2.J, by_rank);
                else
                    any_near = 1;
            }
            if (!any_near)
                continue;
            if (w == u) {
                for (int k = a; k < a + n; k++)
                    if (h2.c[k] < 4 && !(wild >> k & 1) && !IS_FAR(near2[e], k)) {
                        unpack_u(rfill(sl_in[e][k - a], h2.real, u, k), D, u, h.melds);
                        std[k] = less_j(finish(bestR[u], D), h2.J);
                    }
                continue;
            }
            merge(P[u][w], Tu, s);
            best_of(s, bw);
            for (int k = a; k < a + n; k++) {
                if (h2.c[k] >= 4 || wild >> k & 1 || IS_FAR(near2[e], k))
                    continue;
                if (!have_dk[k]) {             /* unit w as in the 14 tiles, k drawn */
                    unpack_u(rfill(sl_dk[k], h.real, w, k), Dk[k], w, h.melds);
                    have_dk[k] = 1;
                }
                std[k] = less_j(finish(bw, Dk[k]), h2.J);
            }
        }
        shape_masks(&h2, std, base, &out[e]);
        if (!exact(&h2, base, out[e].d))
            return -2;
    }
    return 0;
}
