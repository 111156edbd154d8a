/* webcalc._pjunit, a free-joker hand's distance and every draw's at once: the twin of
 * webcalc/efficiency.py's FreeOracle, called by webcalc/draws.py (see _pjunit.h). */
#include "_pjunit.h"

/* ---- the free-joker variants: a hand's distance and every draw's at once -------------
 *
 * free_draws(counts, meld_tiles, indicator, kinds, wild, shapes, melds, discards) answers
 * what efficiency.py's FreeOracle answers, for a 13-tile hand: d, the fewest tiles a
 * complete hand of the variant's shapes holds beyond it (shanten + 1), and for every kind k
 * d(H + k). The standard shape (three suits and the honors as units, shanten.py unit_free
 * tables combined by min-plus over (groups, pair, joker-only places), cost max(0, D - J)
 * with the joker-only places at most jokers + room: shanten.py free_standard); the others as
 * FreeOracle._others counts them (shapes: 1 seven pairs, 2 four wildcards, 4 knitted, 8
 * thirteen orphans). A wildcard kind drawn is one joker more: max(0, d_std - 1).
 *
 * discards None: the hand is the 13 tiles; returns (d, lower, zero): lower the bit set of
 * the kinds k with d(H + k) < d, zero those with d(H + k) == 0 (kinds held four times, or
 * counts[k] >= 4, are in neither). discards a sequence of kinds: the hand is 14 tiles and
 * the answer is a list, per discard t, of the same triple for the 13 tiles left.
 *
 * Unit tables are kept between calls in two bounded caches, keyed by the unit's counts and
 * caps (a table is a pure function of its key): one D per (g, p) for the plain tables (no
 * wildcard in play) and the relaxed ones (wildcards in play, no caps: keyed by the counts
 * alone, see "the relaxed tables first" below), and the free tables with the caps, which
 * a hand with wildcards needs only when the relaxed ones cannot settle it. PC_BITS 18:
 * the plain and the relaxed tables of every suit pattern up to 9 tiles (webcalc/warmup.py,
 * 84,506) fit with 493 of them pushed out (17: 5,219), for 6 MB. */

#define TINF 99
#define BIG 100000
#define PC_BITS 18
#define PC_WAYS 4
#define FC_BITS 13
#define FC_ROWS 48
#define SH_SEVEN 1
#define SH_FOUR 2
#define SH_KNIT 4
#define SH_ORPH 8

typedef struct {
    uint64_t key;
    uint8_t d[10];                  /* D per g * 2 + p; 255: no row */
} PEntry;

typedef struct {
    uint64_t key;
    int n;
    Row rows[FC_ROWS];
} FEntry;

static PEntry *pcache;
static FEntry *fcache;
static unsigned long cache_hits, cache_misses, misses_by_tiles[16];

static inline uint64_t slot_of(uint64_t key, int bits) {
    return (key * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
}

/* the unit's table (unit counts 0-5, caps 0-4) into out, its rows counted; -1 with an
 * exception set (memory) */
int free_unit_rows(const int *unit, const int *caps, int n, int honors, int mode,
                   Row *out) {
    static const int no_caps[MAXN] = {RCAP, RCAP, RCAP, RCAP, RCAP, RCAP, RCAP, RCAP, RCAP};
    int any_jokers = mode != M_PLAIN;
    uint64_t key = 1;
    for (int i = 0; i < n; i++)       /* a relaxed table's caps are 7 in its key: never a cap */
        key = (key << 6) | (uint64_t)(unit[i] << 3 | (mode == M_RELAXED ? 7 : caps[i]));
    key = (key << 2) | (uint64_t)(honors << 1 | (any_jokers ? 1 : 0));
    int pad[MAXN + 2] = {0};
    for (int i = 0; i < n; i++)
        pad[i] = unit[i];
    if (mode != M_FREE) {             /* one D per (g, p): the plain and the relaxed tables */
        if (!pcache) {
            pcache = PyMem_Calloc((size_t)1 << PC_BITS, sizeof(PEntry));
            if (!pcache) {
                PyErr_NoMemory();
                return -1;
            }
        }
        uint64_t h = slot_of(key, PC_BITS);
        PEntry *free_slot = NULL;
        for (int w = 0; w < PC_WAYS; w++) {
            PEntry *e = &pcache[(h + w) & (((uint64_t)1 << PC_BITS) - 1)];
            if (e->key == key) {
                int nr = 0;
                for (int gp = 0; gp < 10; gp++)
                    if (e->d[gp] != 255) {
                        out[nr].g = (uint8_t)(gp >> 1);
                        out[nr].p = (uint8_t)(gp & 1);
                        out[nr].q = 0;
                        out[nr].d = e->d[gp];
                        nr++;
                    }
                cache_hits++;
                return nr;
            }
            if (!e->key && !free_slot)
                free_slot = e;
        }
        cache_misses++;
        {
            int sum = 0;
            for (int i = 0; i < n; i++)
                sum += unit[i];
            misses_by_tiles[sum < 15 ? sum : 15]++;
        }
        int nr = mode == M_PLAIN ? plain_rows(pad, caps, n, honors, out)
                                 : free_rows(pad, no_caps, n, honors, out);
        if (nr < 0)
            return -1;
        PEntry *e = free_slot ? free_slot : &pcache[h];
        e->key = key;
        memset(e->d, 255, sizeof(e->d));
        for (int i = 0; i < nr; i++)
            e->d[out[i].g * 2 + out[i].p] = out[i].d;
        return nr;
    }
    if (!fcache) {
        fcache = PyMem_Calloc((size_t)1 << FC_BITS, sizeof(FEntry));
        if (!fcache) {
            PyErr_NoMemory();
            return -1;
        }
    }
    uint64_t h = slot_of(key, FC_BITS);
    FEntry *free_slot = NULL;
    for (int w = 0; w < PC_WAYS; w++) {
        FEntry *e = &fcache[(h + w) & (((uint64_t)1 << FC_BITS) - 1)];
        if (e->key == key) {
            memcpy(out, e->rows, sizeof(Row) * (size_t)e->n);
            cache_hits++;
            return e->n;
        }
        if (!e->key && !free_slot)
            free_slot = e;
    }
    cache_misses++;
    int nr = free_rows(pad, caps, n, honors, out);
    if (nr < 0)
        return -1;
    if (nr <= FC_ROWS) {
        FEntry *e = free_slot ? free_slot : &fcache[h];
        e->key = key;
        e->n = nr;
        memcpy(e->rows, out, sizeof(Row) * (size_t)nr);
    }
    return nr;
}

typedef struct {
    int real[34], caps[34], counts[34], face[34];
    int jokers, room, groups, shapes, melds;
    int mode;                      /* the tables looked up: M_PLAIN, M_FREE or M_RELAXED */
    uint64_t wild;
} FreeHand;

typedef int States[5][2][32];      /* merged units: (g, p, q) -> D, BIG for none */

/* only the states g <= G, q <= qm are ever read: only those are cleared */
static void states_clear(States s, int G, int qm) {
    for (int g = 0; g <= G; g++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q <= qm; q++)
                s[g][p][q] = BIG;
}

/* out = a merged with one more unit's rows (groups <= G, one pair, q <= qm) */
static void states_merge(States a, const Row *rows, int nr, int G, int qm, States out) {
    states_clear(out, G, qm);
    for (int g = 0; g <= G; g++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q <= qm; q++) {
                int d = a[g][p][q];
                if (d >= BIG)
                    continue;
                for (int i = 0; i < nr; i++) {
                    int g3 = g + rows[i].g, p3 = p + rows[i].p, q3 = q + rows[i].q;
                    if (g3 > G || p3 > 1 || q3 > qm)
                        continue;
                    int d3 = d + rows[i].d;
                    if (d3 < out[g3][p3][q3])
                        out[g3][p3][q3] = d3;
                }
            }
}

/* best[g][p][q]: the least D' + 3 (G - g - g') + 2 (1 - p - p') over the states (g', p', q')
 * of s with g + g' <= G, p + p' <= 1, q + q' <= qm: what the last unit's row (g, p, q) still
 * needs from the others and from fresh groups */
static void states_best(States s, int G, int qm, States best) {
    States m;                      /* prefix minima of D' - 3 g' - 2 p' */
    for (int g = 0; g <= G; g++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q <= qm; q++) {
                int v = s[g][p][q] < BIG ? s[g][p][q] - 3 * g - 2 * p : BIG;
                if (g && m[g - 1][p][q] < v) v = m[g - 1][p][q];
                if (p && m[g][0][q] < v) v = m[g][0][q];
                if (q && m[g][p][q - 1] < v) v = m[g][p][q - 1];
                m[g][p][q] = v;
            }
    for (int g = 0; g <= G; g++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q <= qm; q++) {
                int v = m[G - g][1 - p][qm - q];
                best[g][p][q] = v < BIG ? v + 3 * (G - g) + 2 * (1 - p) : BIG;
            }
}

static int finish_rows(States best, const Row *rows, int nr, int G, int qm, int jokers) {
    int low = BIG;
    for (int i = 0; i < nr; i++) {
        if (rows[i].g > G || rows[i].q > qm)
            continue;
        int b = best[rows[i].g][rows[i].p][rows[i].q];
        if (b < BIG && b + rows[i].d < low)
            low = b + rows[i].d;
    }
    if (low >= BIG)
        return TINF;
    return low > jokers ? low - jokers : 0;
}

static const int UNIT_A[4] = {0, 9, 18, 27}, UNIT_N[4] = {9, 9, 9, 7};
static const int ORPH[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static const char IS_ORPH[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
                                 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

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

typedef struct {
    int n;
    Row r[MAXROWS];
} Tab;

/* the table of unit u (counts unit, caps caps) into out; -1 with an exception set. The
 * honors have no sequences: their table is that of the same (count, cap) pairs in any
 * order, so they are looked up sorted (more hands share a pattern). */
static int lookup(const int *unit, const int *caps, int u, int mode, Tab *out) {
    int n = UNIT_N[u];
    if (u == 3) {
        int su[MAXN], sc[MAXN];
        for (int i = 0; i < n; i++) {
            su[i] = unit[i];
            sc[i] = caps[i];
        }
        for (int i = 1; i < n; i++)           /* insertion sort, (count, cap) descending */
            for (int j = i; j > 0 && (su[j] > su[j - 1]
                                      || (su[j] == su[j - 1] && sc[j] > sc[j - 1])); j--) {
                int t = su[j]; su[j] = su[j - 1]; su[j - 1] = t;
                t = sc[j]; sc[j] = sc[j - 1]; sc[j - 1] = t;
            }
        out->n = free_unit_rows(su, sc, n, 1, mode, out->r);
    } else {
        out->n = free_unit_rows(unit, caps, n, 0, mode, out->r);
    }
    return out->n < 0 ? -1 : 0;
}

/* A draw into a unit is "far" when no held tile of the unit is within two kinds of it (for
 * the honors: none of its own kind) and every kind there may hold four: then the groups
 * the drawn tile can be in share no tile and no cap with the others' (at a kind that holds
 * nothing only sequences place tiles, at most four of them), so the unit's table with the
 * tile is the unit's merged with the lone tile's, and d(H + k) is the lone tile's table
 * finished against the whole hand's states. */
static int is_far(const int *unit, const int *caps, int u, int i) {
    if (u == 3)
        return !unit[i] && caps[i] == 4;
    for (int j = i - 2; j <= i + 2; j++)
        if (j >= 0 && j < 9 && (unit[j] || caps[j] != 4))
            return 0;
    return 1;
}

static Tab lone[3][10];            /* [mode][rank, or 9 for an honor] */
static int lone_ready[3];

static int lone_tables(int mode) {
    if (lone_ready[mode])
        return 0;
    int caps[MAXN] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
    for (int i = 0; i < 10; i++) {
        int unit[MAXN] = {0};
        unit[i < 9 ? i : 0] = 1;
        if (lookup(unit, caps, i < 9 ? 0 : 3, mode, &lone[mode][i]) < 0)
            return -1;
    }
    lone_ready[mode] = 1;
    return 0;
}

/* The merged states of a hand's units: pair[0] units 0 and 1, pair[1] units 2 and 3,
 * rest[u] the three units other than u and best[u] its states_best (in G, qm). A discard
 * changes one unit u: its hand's rest[u] is the 14 tiles' (prep_merges of the 14 tiles),
 * and the others' rests need one or two merges, not the whole hand's six and one more per
 * unit. */
typedef struct {
    States pair[2], rest[4], best[4];
} Merged;

static Merged m14[3];              /* per mode: the 14-tile hand of draws14 */

static void prep_merges(Tab *const T[4], int G, int qm, Merged *m) {
    States zero_s, tmp;
    states_clear(zero_s, G, qm);
    zero_s[0][0][0] = 0;
    for (int a = 0; a < 2; a++) {
        states_merge(zero_s, T[2 * a]->r, T[2 * a]->n, G, qm, tmp);
        states_merge(tmp, T[2 * a + 1]->r, T[2 * a + 1]->n, G, qm, m->pair[a]);
    }
    for (int u = 0; u < 4; u++) {
        int other = u ^ 1;                            /* the pair partner */
        states_merge(m->pair[u < 2], T[other]->r, T[other]->n, G, qm, m->rest[u]);
        states_best(m->rest[u], G, qm, m->best[u]);
    }
}

/* d_std of the hand (base) and of the hand with each kind drawn (std): T the four units'
 * tables, D[k] the table of k's unit with k drawn, or NULL (far[k]: from the lone tile;
 * else not drawn: a wildcard, or a kind held four times). m: T's merged states (u < 0),
 * or those of tables that differ from T only at unit u (u >= 0; their rest[u] is T's) */
static void eval_std(const FreeHand *h, Tab *const T[4], Tab *const D[34], const int *far,
                     Merged *m, int u, int *std, int *base_out) {
    int G = h->groups, J = h->jokers, qm = h->mode == M_FREE ? h->jokers + h->room : 0;
    int u0 = u < 0 ? 0 : u;
    Tab *lt = lone[h->mode];
    States all, best, tmp, pu, rest;
    states_merge(m->rest[u0], T[u0]->r, T[u0]->n, G, qm, all);
    states_best(all, G, qm, best);
    int v = best[0][0][0];
    int base = v >= BIG ? TINF : (v > J ? v - J : 0);
    *base_out = base;
    int by_rank[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1}; /* a far tile: by its rank */
    for (int k = 0; k < 34; k++) {
        int r = k < 27 ? k % 9 : 9;
        if (h->wild >> k & 1)
            std[k] = base < TINF ? (base > 1 ? base - 1 : 0) : TINF;
        else if (far[k])
            std[k] = by_rank[r] >= 0 ? by_rank[r]
                     : (by_rank[r] = finish_rows(best, lt[r].r, lt[r].n, G, qm, J));
        else
            std[k] = TINF;
    }
    if (u >= 0) {                                     /* u's new table with its partner's */
        states_clear(tmp, G, qm);
        tmp[0][0][0] = 0;
        states_merge(tmp, T[u]->r, T[u]->n, G, qm, rest);
        states_merge(rest, T[u ^ 1]->r, T[u ^ 1]->n, G, qm, pu);
    }
    for (int w = 0; w < 4; w++) {
        int a = UNIT_A[w], n = UNIT_N[w], any = 0;
        for (int i = 0; i < n; i++)
            any |= D[a + i] != NULL;
        if (!any)
            continue;
        int (*bw)[2][32] = m->best[w];
        if (u >= 0 && w != u) {          /* the rest of w holds u's new table: merged here */
            states_merge(w == (u ^ 1) ? m->pair[u < 2] : pu, T[w ^ 1]->r, T[w ^ 1]->n, G, qm,
                         rest);
            states_best(rest, G, qm, tmp);
            bw = tmp;
        }
        for (int i = 0; i < n; i++)
            if (D[a + i])
                std[a + i] = finish_rows(bw, D[a + i]->r, D[a + i]->n, G, qm, J);
    }
}

/* d of the hand and the lower / zero sets from the standard distances and the other
 * shapes (efficiency.py FreeOracle._others) */
static void shape_masks(const FreeHand *h, const int *std, int base, int *d_out,
                        uint64_t *lower, uint64_t *zero) {
    const int *c = h->counts;
    int hist[3] = {0, 0, 0};
    if (h->shapes & SH_SEVEN)
        for (int k = 0; k < 34; k++)
            slots(c[k], h->face[k], hist, 1);
    int honors = 0, have[6] = {0}, orph_kinds = 0, orph_paired = 0;
    int perm_of[6][27];
    if (h->shapes & SH_KNIT) {
        for (int k = 27; k < 34; k++)
            honors += c[k] > 0;
        for (int p = 0; p < 6; p++) {
            for (int k = 0; k < 27; k++)
                perm_of[p][k] = 0;
            for (int su = 0; su < 3; su++)
                for (int r = PERMS[p][su]; r < 9; r += 3)
                    perm_of[p][su * 9 + r] = 1;
            for (int k = 0; k < 27; k++)
                have[p] += perm_of[p][k] && c[k];
        }
    }
    if (h->shapes & SH_ORPH)
        for (int i = 0; i < 13; i++) {
            orph_kinds += c[ORPH[i]] > 0;
            orph_paired |= c[ORPH[i]] >= 2;
        }
    int dk[34], d0 = TINF, seven_at[4][5];
    memset(seven_at, 0xff, sizeof(seven_at));           /* -1: not worked out yet */
    for (int k = -1; k < 34; k++) {
        if (k >= 0 && c[k] >= 4) {
            dk[k] = TINF;
            continue;
        }
        int best_d = k < 0 ? base : std[k];
        if (h->shapes & SH_SEVEN) {       /* a draw's 七对 distance: by (count, face) */
            int *at = k >= 0 ? &seven_at[c[k]][h->face[k]] : NULL, d = at ? *at : -1;
            if (d < 0) {
                int hh[3] = {hist[0], hist[1], hist[2]};
                if (k >= 0) {
                    slots(c[k], h->face[k], hh, -1);
                    slots(c[k] + 1, h->face[k], hh, 1);
                }
                d = seven_of(hh);
                if (at) *at = d;
            }
            if (d < best_d) best_d = d;
        }
        if ((h->shapes & SH_FOUR) && h->melds <= 3)
            for (int w = 0; w < 34; w++) {
                if (!(h->wild >> w & 1) || h->face[w] < 4)
                    continue;
                int d = 4 - (c[w] + (k == w));
                int floor_ = k < 0 ? 1 : 0;
                if (d < floor_) d = floor_;
                if (d < best_d) best_d = d;
            }
        if (h->shapes & SH_KNIT) {
            int hon = honors + (k >= 27 && !c[k]);
            int top = 0;
            for (int p = 0; p < 6; p++) {
                int v = have[p] + (k >= 0 && k < 27 && !c[k] && perm_of[p][k]);
                if (v > top) top = v;
            }
            int d = 14 - top - (hon < 5 ? hon : 5);
            if (d < best_d) best_d = d;
        }
        if (h->shapes & SH_ORPH) {
            int kinds = orph_kinds, paired = orph_paired;
            if (k >= 0 && IS_ORPH[k]) {
                kinds += !c[k];
                paired = paired || c[k] >= 1;
            }
            int d = 14 - kinds - paired;
            if (d < best_d) best_d = d;
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
    *d_out = d0;
    *lower = lo;
    *zero = ze;
}

/* the drawn tables of unit u as held in h (NULL where far, wild or held four times); the
 * kind t drawn (a discard's own kind drawn back, t >= 0) has the table same */
static int drawn_tables(const FreeHand *h, int u, Tab *store, Tab **D, int *far, int t,
                        Tab *same) {
    int a = UNIT_A[u], n = UNIT_N[u];
    for (int i = 0; i < n; i++) {
        int k = a + i;
        D[k] = NULL;
        far[k] = 0;
        if (h->wild >> k & 1 || h->counts[k] >= 4)
            continue;
        if (is_far(h->real + a, h->caps + a, u, i)) {
            far[k] = 1;
            continue;
        }
        if (k == t) {
            D[k] = same;
            continue;
        }
        int unit[MAXN];
        for (int j = 0; j < n; j++)
            unit[j] = h->real[a + j];
        unit[i]++;
        if (lookup(unit, h->caps + a, u, h->mode, &store[i]) < 0)
            return -1;
        D[k] = &store[i];
    }
    return 0;
}

/* ---- jokers in play: the relaxed tables first ------------------------------------------
 *
 * With wildcards in play a unit's table depends on its caps only through q, the places
 * beyond them (a joker's there), and the hand only asks q <= jokers + room. The caps vary
 * with the room (the wildcard kind's real cap 0, the indicator's 3, the melds'), so tables
 * keyed by them are many. The relaxed tables drop the caps (every cap RCAP: q is always 0)
 * and depend on the counts alone. They give each target its D, so a relaxed distance is
 * never above the capped one; and it is the capped one whenever the relaxed optimum S of
 * the hand H satisfies S + E <= room (E: the real tiles held beyond their caps,
 * excess()): a target of cost S has D <= S + jokers, and q <= D + E, so it is allowed.
 * Then every draw's answer is exact too: a draw k whose relaxed distance is below S is a
 * target of cost at most S - 1 with E at most one more (exact by the same bound); one
 * whose relaxed distance is S or more has a capped one of S or more, and neither lowers
 * the hand nor completes it (S >= 1). The same holds when another shape is nearer than S
 * (d < S): no standard distance of H or H + k (S - 1 at least, so >= d) decides a bit.
 * Otherwise (relaxed_exact false) the capped tables answer. efficiency.py FreeOracle does
 * the same (free_oracle). */

static int excess(const FreeHand *h) {
    int e = 0;
    for (int k = 0; k < 34; k++)
        if (h->real[k] > h->caps[k])
            e += h->real[k] - h->caps[k];
    return e;
}

static int relaxed_exact(const FreeHand *h, int base, int d) {
    return base < TINF && (base + excess(h) <= h->room || base > d);
}

static Tab tb_base[3][4], tb_drawn[3][34], tb_unit, tb_unit_drawn[MAXN];
static Merged m_one;               /* draws13's merged states, or a wildcard discard's */

static inline int qmax(const FreeHand *h) {
    return h->mode == M_FREE ? h->jokers + h->room : 0;
}

static PyObject *triple(int d, uint64_t lower, uint64_t zero) {
    return Py_BuildValue("(iKK)", d, (unsigned long long)lower, (unsigned long long)zero);
}

/* the four unit tables of h and their drawn tables, in h's mode */
static int hand_tables(const FreeHand *h, Tab **T, Tab **D, int *far) {
    if (lone_tables(h->mode) < 0)
        return -1;
    for (int u = 0; u < 4; u++) {
        if (lookup(h->real + UNIT_A[u], h->caps + UNIT_A[u], u, h->mode,
                   &tb_base[h->mode][u]) < 0
            || drawn_tables(h, u, tb_drawn[h->mode] + UNIT_A[u], D, far, -1, NULL) < 0)
            return -1;
        T[u] = &tb_base[h->mode][u];
    }
    return 0;
}

/* (d, lower, zero) of the 13-tile hand h */
static PyObject *draws13(FreeHand *h) {
    Tab *T[4], *D[34];
    int far[34], std[34], base, d;
    uint64_t lo, ze;
    h->mode = h->jokers + h->room > 0 ? M_RELAXED : M_PLAIN;
    for (;;) {
        if (hand_tables(h, T, D, far) < 0)
            return NULL;
        prep_merges(T, h->groups, qmax(h), &m_one);
        eval_std(h, T, D, far, &m_one, -1, std, &base);
        shape_masks(h, std, base, &d, &lo, &ze);
        if (h->mode != M_RELAXED || relaxed_exact(h, base, d))
            return triple(d, lo, ze);
        h->mode = M_FREE;
    }
}

/* (d, lower, zero) of h2, the 14-tile hand h less a tile t, into out: the units a discard
 * leaves alone keep the tables and drawn tables of h (TB, DB, farB, in h2's mode); -1 with
 * an exception set */
static int one_discard(const FreeHand *h, FreeHand *h2, int t, Tab *const TB[4],
                       Tab *const DB[34], const int *farB, int *base, int *d, uint64_t *lo,
                       uint64_t *ze) {
    Tab *T[4] = {TB[0], TB[1], TB[2], TB[3]}, *D[34];
    int far[34], std[34];
    memcpy(D, DB, sizeof(D));
    memcpy(far, farB, sizeof(far));
    int u = -1;
    if (!(h->wild >> t & 1)) {
        u = t < 27 ? t / 9 : 3;
        if (lookup(h2->real + UNIT_A[u], h2->caps + UNIT_A[u], u, h2->mode, &tb_unit) < 0
            || drawn_tables(h2, u, tb_unit_drawn, D, far, t, TB[u]) < 0)
            return -1;
        T[u] = &tb_unit;
    } else {                           /* a wildcard discarded: no unit changed, J and qm did */
        prep_merges(T, h2->groups, qmax(h2), &m_one);
    }
    eval_std(h2, T, D, far, u < 0 ? &m_one : &m14[h2->mode], u, std, base);
    shape_masks(h2, std, *base, d, lo, ze);
    return 0;
}

/* per discard of the 14-tile hand h, (d, lower, zero) of the 13 tiles left; in the relaxed
 * tables first, a discard whose answer they do not settle in the capped ones */
static PyObject *draws14(FreeHand *h, const int *ds, int nd) {
    Tab *TB[3][4], *DB[3][34];
    int farB[3][34], ready[3] = {0, 0, 0};
    int mode0 = h->jokers + h->room > 0 ? M_RELAXED : M_PLAIN;
    PyObject *out = PyList_New(nd);
    if (!out)
        return NULL;
    for (int e = 0; e < nd; e++) {
        FreeHand h2 = *h;
        int t = ds[e], base, d;
        uint64_t lo, ze;
        h2.counts[t]--;
        if (h->wild >> t & 1) {
            h2.jokers--;
            if (h->face[t] >= h->counts[t])
                h2.room++;
        } else {
            h2.real[t]--;
        }
        for (int mode = mode0;; mode = M_FREE) {
            if (!ready[mode]) {
                h->mode = mode;
                if (hand_tables(h, TB[mode], DB[mode], farB[mode]) < 0)
                    goto fail;
                prep_merges(TB[mode], h->groups, qmax(h), &m14[mode]);
                ready[mode] = 1;
            }
            h2.mode = mode;
            if (one_discard(h, &h2, t, TB[mode], DB[mode], farB[mode], &base, &d, &lo,
                            &ze) < 0)
                goto fail;
            if (mode != M_RELAXED || relaxed_exact(&h2, base, d))
                break;
        }
        PyObject *tr = triple(d, lo, ze);
        if (!tr)
            goto fail;
        PyList_SET_ITEM(out, e, tr);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static int read34(PyObject *o, int *out, int lo, int hi, const char *what) {
    int n = read_ints(o, out, 34, what);
    if (n < 0)
        return -1;
    if (n != 34) {
        PyErr_Format(PyExc_ValueError, "%s: 34 numbers", what);
        return -1;
    }
    for (int i = 0; i < 34; i++)
        if (out[i] < lo || out[i] > hi) {
            PyErr_Format(PyExc_ValueError, "%s: %d to %d", what, lo, hi);
            return -1;
        }
    return 0;
}

PyObject *free_draws(PyObject *self, PyObject *args) {
    PyObject *counts_o, *melds_o, *discards_o;
    int indicator, kinds;
    unsigned long long wild;
    FreeHand h;
    if (!PyArg_ParseTuple(args, "OOiiKiiO", &counts_o, &melds_o, &indicator, &kinds, &wild,
                          &h.shapes, &h.melds, &discards_o))
        return NULL;
    if (read34(counts_o, h.counts, 0, 4, "counts") < 0)
        return NULL;
    int mt[64];
    int nm = read_ints(melds_o, mt, 64, "meld tiles");
    if (nm < 0)
        return NULL;
    if (indicator < -1 || indicator > 33 || kinds < 0 || kinds > 34 || wild >> 34
        || h.shapes < 0 || h.shapes > 15 || h.melds < 0 || h.melds > 4) {
        PyErr_SetString(PyExc_ValueError, "free_draws: indicator -1-33, kinds 0-34, wild "
                                          "below 2**34, shapes 0-15, melds 0-4");
        return NULL;
    }
    for (int i = 0; i < nm; i++)
        if (mt[i] < 0 || mt[i] > 33) {
            PyErr_SetString(PyExc_ValueError, "meld tiles: kinds 0-33");
            return NULL;
        }
    /* shanten.py hand_caps and the Situation's real counts and jokers */
    h.wild = wild;
    h.groups = 4 - h.melds;
    h.jokers = h.room = 0;
    for (int k = 0; k < 34; k++)
        h.face[k] = k < kinds ? 4 : 0;
    if (indicator >= 0)
        h.face[indicator]--;
    for (int i = 0; i < nm; i++)
        h.face[mt[i]]--;
    for (int k = 0; k < 34; k++) {
        if (h.face[k] < 0)
            h.face[k] = 0;
        if (wild >> k & 1) {
            h.caps[k] = 0;
            h.real[k] = 0;
            h.jokers += h.counts[k];
            h.room += h.face[k] > h.counts[k] ? h.face[k] - h.counts[k] : 0;
        } else {
            h.caps[k] = h.face[k];
            h.real[k] = h.counts[k];
        }
    }
    if (h.jokers + h.room > 31) {
        PyErr_SetString(PyExc_ValueError, "free_draws: more than 31 wildcard tiles");
        return NULL;
    }
    if (discards_o == Py_None)
        return draws13(&h);
    int ds[34];
    int nd = read_ints(discards_o, ds, 34, "discards");
    if (nd < 0)
        return NULL;
    for (int i = 0; i < nd; i++)
        if (ds[i] < 0 || ds[i] > 33 || !h.counts[ds[i]]
            || (h.wild >> ds[i] & 1 && !h.jokers)) {
            PyErr_SetString(PyExc_ValueError, "discards: kinds of the hand");
            return NULL;
        }
    return draws14(&h, ds, nd);
}

/* free_warm(max_tiles, any_jokers): fill the unit-table cache with every suit pattern of at
 * most max_tiles tiles (each kind 0-4, caps 4) and every honors pattern (sorted), so that
 * a server's workers fork with them (webcalc/warmup.py); returns how many were looked up.
 * any_jokers: the relaxed tables (what a hand with wildcards in play looks up first), else
 * the plain ones */
PyObject *free_warm(PyObject *self, PyObject *args) {
    int max_tiles, any_jokers;
    if (!PyArg_ParseTuple(args, "ip", &max_tiles, &any_jokers))
        return NULL;
    if (max_tiles < 0 || max_tiles > 14) {
        PyErr_SetString(PyExc_ValueError, "free_warm: 0 to 14 tiles");
        return NULL;
    }
    int caps[MAXN] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
    long done = 0;
    Tab tab;
    for (int u = 0; u < 4; u += 3) {               /* a suit (all three alike), the honors */
        int n = UNIT_N[u], unit[MAXN] = {0};
        for (;;) {
            int sum = 0, sorted_ok = 1;
            for (int i = 0; i < n; i++) {
                sum += unit[i];
                if (u == 3 && i && unit[i] > unit[i - 1])
                    sorted_ok = 0;
            }
            if (sum <= max_tiles && sorted_ok) {
                if (lookup(unit, caps, u, any_jokers ? M_RELAXED : M_PLAIN, &tab) < 0)
                    return NULL;
                done++;
            }
            int i = 0;                             /* the next count vector, odometer-wise */
            while (i < n && unit[i] == 4)
                unit[i++] = 0;
            if (i == n)
                break;
            unit[i]++;
        }
    }
    return PyLong_FromLong(done);
}

PyObject *free_cache_info(PyObject *self, PyObject *args) {
    PyObject *by = PyTuple_New(16);
    if (!by)
        return NULL;
    for (int i = 0; i < 16; i++) {
        PyObject *v = PyLong_FromUnsignedLong(misses_by_tiles[i]);
        if (!v) {
            Py_DECREF(by);
            return NULL;
        }
        PyTuple_SET_ITEM(by, i, v);
    }
    return Py_BuildValue("(kkN)", cache_hits, cache_misses, by);
}

