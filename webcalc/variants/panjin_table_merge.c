/* webcalc._pjunit's hands from 盘锦's rows table (panjin_table.c maps it; its top tells what
 * it holds): pjt_standard answers a hand's standard distance with no limit as
 * pj_standard_drawn (panjin_hand.c) answers it, pjt_discards every discard of a 14-tile
 * hand at a limit as discards_drawn does. Both merge the units' rows as round 11 measured
 * (bench/RESULTS.md): each row's bound from the other units' least r + x by (groups, pair),
 * the rows within the limit bucketed by (groups, pair), three units merged into states
 * (g, p, x, suits shown, wanted flags) → (least r, kinds drawn), the last unit joined and
 * the targets read as _drawn_best reads them. Their Python twin is
 * webcalc/variants/panjin_table.py table_standard. Part of the one extension
 * webcalc._pjunit (setup.py). */
#include "panjin_table.h"

#define PNONE 99
#define WANT3 (YJ | TRIP | SEQ)
#define AX 5
#define ACC (5 * 2 * AX * 4 * 8)
#define LAST_LIMIT 20             /* a target costs at most 14 real tiles + 4 jokers + 1 */

static inline int acc_index(int g, int p, int x, int n, int f) {
    return (((g * 2 + p) * AX + x) * 4 + n) * 8 + f;
}

/* a row decoded: r, x, (g, p) as g * 2 + p, the suit shown (0, 1), the wanted flags >> 1,
 * the bound, the kinds drawn at the hand's bits */
typedef struct {
    uint8_t r, x, gp, n, f, bound, rx;
    uint16_t kd;                   /* its step in a merge state's index: (x * 4 + n) * 8 */
    uint64_t m;
} DRow;

/* a unit's rows with bound <= the limit, by (g, p): bucket b is r[at[b]..at[b + 1]),
 * copies in one array (a few cache lines, not a pointer a row) */
typedef struct {
    DRow r[PJT_MAXROWS];
    int at[11];
} Kept;

static uint8_t acc_r[2][ACC], acc_on[2][ACC];
static uint64_t acc_m[2][ACC];
static int acc_live[2][ACC], acc_n[2];

/* a packed row of unit u decoded into o, with its bound given the other units' least
 * r + x (other): a target through it costs at least that; show: a row that does not show
 * the suit is in no target (PJ-4 wants every suit), its bound PNONE */
static inline void unpack(uint32_t w, int u, const int *other, int J, int show, DRow *o) {
    o->gp = (uint8_t)(w >> 20 & 15);
    if (show && !(w >> 13 & PRES)) {
        o->bound = PNONE;
        return;
    }
    o->r = (uint8_t)(w >> 9 & 15);
    o->x = (uint8_t)(w >> 17 & 7);
    o->n = (uint8_t)(u < 3 && (w >> 13 & PRES));
    o->f = (uint8_t)((w >> 13 & WANT3) >> 1);
    o->m = (uint64_t)(w & 0x1FF) << (9 * u);
    o->rx = (uint8_t)(o->r + o->x);
    o->kd = (uint16_t)((o->x * 4 + o->n) * 8);
    int own = o->r + (o->x > J ? o->x - J : 0);
    int v = o->rx + other[9 - o->gp] - J;            /* (4 - g) * 2 + 1 - p = 9 - gp */
    if (v < own)
        v = own;
    o->bound = (uint8_t)(v > PNONE ? PNONE : v);
}

/* packed rows of unit u (sorted by (g, p)) decoded (unpack); returns the least bound */
static int decode(const uint32_t *rows, int nr, int u, const int *other, int J, int show,
                  DRow *out) {
    int least = PNONE;
    for (int i = 0; i < nr; i++) {
        unpack(rows[i], u, other, J, show, &out[i]);
        if (out[i].bound < least)
            least = out[i].bound;
    }
    return least;
}

/* the decoded rows (sorted by (g, p)) with bound <= limit into kp, bucket by bucket */
static void keep(const DRow *rows, int nr, int limit, Kept *kp) {
    int b = 0, n = 0;
    kp->at[0] = 0;
    for (int i = 0; i < nr; i++) {
        if (rows[i].bound > limit)
            continue;
        while (b < rows[i].gp)
            kp->at[++b] = n;
        kp->r[n++] = rows[i];
    }
    while (b < 10)
        kp->at[++b] = n;
}

/* decode and keep in one pass (a 14-tile hand's rows, at one limit): a bucket's rows come
 * by r + x, and past the first whose r + x + the others' least - J is over the limit none
 * is within it (a row's bound is at least that) */
static void decode_keep(const uint32_t *rows, int nr, int u, const int *other, int J,
                        int show, int limit, Kept *kp) {
    int b = 0, n = 0;
    kp->at[0] = 0;
    for (int i = 0; i < nr;) {
        uint32_t w = rows[i];
        int gp = (int)(w >> 20 & 15);
        if ((int)(w >> 9 & 15) + (int)(w >> 17 & 7) + other[9 - gp] - J > limit) {
            while (i < nr && (int)(rows[i] >> 20 & 15) == gp)
                i++;                               /* the rest of the bucket */
            continue;
        }
        i++;
        unpack(w, u, other, J, show, &kp->r[n]);
        if (kp->r[n].bound > limit)
            continue;
        while (b < gp)
            kp->at[++b] = n;
        n++;
    }
    while (b < 10)
        kp->at[++b] = n;
}

/* the states another state of the same (g, p, x, suits shown) beats: fewer real tiles to
 * draw and every wanted flag it has. Whatever completes them completes the other for less,
 * so none of their targets is a nearest one (under the discard-win rule a tie is possible
 * only at one real tile drawn, whose kinds _drawn_best drops, with the same jokers) */
static void prune_dominated(int at) {
    static int beaten[ACC];
    int nb = 0, kept_n = 0;
    for (int a = 0; a < acc_n[at]; a++) {
        int k = acc_live[at][a], f = k & 7, r = acc_r[at][k], lost = 0;
        for (int f2 = (f + 1) | f; f2 < 8 && !lost; f2 = (f2 + 1) | f) {
            int k2 = k - f + f2;
            lost = acc_on[at][k2] && acc_r[at][k2] < r;
        }
        if (lost)
            beaten[nb++] = k;
        else
            acc_live[at][kept_n++] = k;
    }
    for (int i = 0; i < nb; i++)
        acc_on[at][beaten[i]] = 0;
    acc_n[at] = kept_n;
}

/* three units' kept rows merged at limit (later[j]: the least r + x by (g, p) of the units
 * after position j; okn[j]: the suit counts a state may show after position j, PJ-4's
 * allowed counts still within reach): the states left in acc_*[returned index] */
static int merge3(Kept *const kp[3], int later[3][10], const int *okn, int limit, int J,
                  int max_x) {
    int cur = 0, k0 = acc_index(0, 0, 0, 0, 0);
    acc_n[0] = 0;
    acc_r[0][k0] = 0;
    acc_m[0][k0] = 0;
    acc_on[0][k0] = 1;
    acc_live[0][acc_n[0]++] = k0;
    for (int j = 0; j < 3; j++) {
        int nx = cur ^ 1;
        const Kept *kj = kp[j];
        acc_n[nx] = 0;
        for (int a = 0; a < acc_n[cur]; a++) {
            int k = acc_live[cur][a];
            acc_on[cur][k] = 0;
            int f = k & 7, n = k >> 3 & 3, x = (k >> 5) % AX, gp = (k >> 5) / AX;
            int g = gp >> 1, p = gp & 1;
            int r = acc_r[cur][k];
            uint64_t m = acc_m[cur][k];
            int ok = okn[j] >> n;
            for (int wg = 0; wg + g <= 4; wg++)
                for (int wp = 0; wp + p <= 1; wp++) {
                    int b = wg * 2 + wp, g3 = g + wg, p3 = p + wp;
                    int still = 3 * (4 - g3) + 2 * (1 - p3), after = later[j][9 - g3 * 2 - p3];
                    /* rows by r + x: past lim2 no row keeps the bound (r3 + x3 + after - J) */
                    int lim2 = limit - r - x - after + J, xlo = J - still - x, xhi = max_x - x;
                    int base = (((g3 * 2 + p3) * AX + x) * 4 + n) * 8;
                    const DRow *end = kj->r + kj->at[b + 1];
                    for (const DRow *o = kj->r + kj->at[b]; o < end; o++) {
                        if (o->rx > lim2)
                            break;
                        if (o->x > xhi || o->x < xlo)
                            continue;             /* every joker placed */
                        int x3 = x + o->x, r3 = r + o->r;
                        if (r3 + (x3 > J ? x3 - J : 0) > limit || !(ok >> o->n & 1))
                            continue;             /* its cost; PJ-4's suit count */
                        int k2 = base + o->kd + (f | o->f);
                        uint64_t m3 = m | o->m;
                        if (!acc_on[nx][k2]) {
                            acc_on[nx][k2] = 1;
                            acc_live[nx][acc_n[nx]++] = k2;
                            acc_r[nx][k2] = (uint8_t)r3;
                            acc_m[nx][k2] = m3;
                        } else if (r3 < acc_r[nx][k2]) {
                            acc_r[nx][k2] = (uint8_t)r3;
                            acc_m[nx][k2] = m3;
                        } else if (r3 == acc_r[nx][k2]) {
                            acc_m[nx][k2] |= m3;
                        }
                    }
                }
        }
        if (j < 2)
            prune_dominated(nx);
        cur = nx;
    }
    return cur;
}

/* the merged states of acc_*[cur] completed by the last unit's kept rows: the targets
 * within limit, read as _drawn_best reads them (*best PNONE, or above limit, when none;
 * best0, mask0 unless NULL: the same without the discard-win rule) */
static void join(int cur, const Kept *last, int limit, int J, int max_x, int want,
                 int allowed, int need_real, int *best_out, uint64_t *mask_out, int *wild_out,
                 int *best0_out, uint64_t *mask0_out) {
    int best = PNONE, wild = 0, best0 = PNONE;
    uint64_t mask = 0, mask0 = 0;
    for (int a = 0; a < acc_n[cur]; a++) {
        int k = acc_live[cur][a];
        int f = k & 7, n = k >> 3 & 3, x = (k >> 5) % AX, gp = (k >> 5) / AX;
        int b = 9 - gp;
        int r = acc_r[cur][k];
        uint64_t m = acc_m[cur][k];
        /* a target costs r + x - J + the row's r + x (x3 >= J): rows by r + x, past the
         * limit none is within it */
        int lim = limit - r - x + J;
        const DRow *end = last->r + last->at[b + 1];
        for (const DRow *o = last->r + last->at[b]; o < end; o++) {
            if (o->rx > lim)
                break;
            int x3 = x + o->x;
            if (x3 > max_x || x3 < J || !(allowed >> (n + o->n) & 1) ||
                (((f | o->f) << 1) & want) != want)
                continue;
            int r3 = r + o->r, cost = r3 + x3 - J;
            uint64_t m3 = m | o->m;
            if (best0_out) {               /* the same targets without the rule */
                if (cost < best0) {
                    best0 = cost;
                    mask0 = m3;
                } else if (cost == best0) {
                    mask0 |= m3;
                }
            }
            if (need_real) {               /* _drawn_best: the discard-win rule */
                if (!r3)
                    cost++;
                if (r3 < 2)
                    m3 = 0;
            }
            if (cost < best) {
                best = cost;
                mask = m3;
                wild = x3 > J;
            } else if (cost == best) {
                mask |= m3;
                wild |= x3 > J;
            }
        }
    }
    *best_out = best;
    *mask_out = mask;
    *wild_out = wild;
    if (best0_out) {
        *best0_out = best0;
        *mask0_out = mask0;
    }
}

static void acc_release(int cur) {
    for (int a = 0; a < acc_n[cur]; a++)
        acc_on[cur][acc_live[cur][a]] = 0;
    acc_n[cur] = 0;
}

/* the least r + x by (g, p) of the units at positions j.. of a merge (rel in merge order):
 * later[j - 1] for j = 1..3 (merge3 reads them); and of every unit but the one at j:
 * other[j] (pj_combined, panjin_bounds.c: 99 for none, as PNONE) */
static void spread(int rel[4][10], int later[3][10], int other[4][10]) {
    pj_combined(rel, other, NULL);
    memcpy(later[0], other[0], sizeof(later[0]));         /* positions 1, 2, 3 */
    pj_min_plus(rel[2], rel[3], later[1]);
    memcpy(later[2], rel[3], sizeof(later[2]));
}

/* okn for merge3 when the units merge in order (the suits among them: suit[j]) */
static void reach(const int *suit, int allowed, int *okn) {
    for (int j = 0; j < 3; j++) {
        int rem = 0;
        for (int i = j + 1; i < 4; i++)
            rem += suit[i];
        okn[j] = 0;
        for (int n = 0; n < 4; n++)
            for (int a = n; a <= n + rem && a < 4; a++)
                if (allowed >> a & 1)
                    okn[j] |= 1 << n;
    }
}

/* a key's rows asked of memory now, so that the misses overlap (a hand reads 4-15 keys
 * from a 70 MB table) */
static inline void prefetch_rows(const uint32_t *rows, int nr) {
    const char *p = (const char *)rows, *end = (const char *)(rows + nr);
    for (; p < end; p += 64)
        __builtin_prefetch(p);
}

/* a key's least r + x by (g, p) (its rel bytes: of every row, or of those that show the
 * suit) as numbers */
static void rel_of(const uint8_t *krel, int show, int *rel) {
    for (int b = 0; b < 10; b++)
        rel[b] = krel[(show ? 10 : 0) + b];
}

static int covered_hand(int groups, int suits0, int want) {
    return pjt_loaded() && groups == 4 && !suits0 && !(want & ~WANT3);
}

static DRow dec[4][PJT_MAXROWS];
static Kept kept[4];

/* the hand's standard distance with no limit from the table, as pj_standard_drawn answers
 * it (min_jokers = jokers): 1 with *d, *mask, *wild set, 0 when no target exists, -2 when
 * the table does not cover the hand (the search answers) */
int pjt_standard(const int *real, const int *caps, int jokers, int max_x, int groups,
                 int suits0, int want, int allowed, int need_real, int *d_out,
                 uint64_t *mask_out, int *wild_out) {
    if (!covered_hand(groups, suits0, want))
        return -2;
    const uint32_t *rows[4];
    const uint8_t *krel;
    int nr[4], show = allowed == 1 << 3, rel[4][10], later[3][10], other[4][10];
    for (int u = 0; u < 4; u++) {
        if (!(rows[u] = pjt_unit_rows(u, real + 9 * u, caps + 9 * u, jokers, max_x, &nr[u],
                                      &krel)))
            return -2;
        prefetch_rows(rows[u], nr[u]);
        rel_of(krel, u < 3 && show, rel[u]);
    }
    const int J = jokers;
    spread(rel, later, other);
    int low = 0;
    for (int u = 0; u < 4; u++) {
        int least = decode(rows[u], nr[u], u, other[u], J, u < 3 && show, dec[u]);
        if (least > low)
            low = least;
    }
    Kept *const kp[3] = {&kept[0], &kept[1], &kept[2]};
    static const int SUIT[4] = {1, 1, 1, 0};
    int okn[3];
    reach(SUIT, allowed, okn);
    for (int limit = low; limit <= LAST_LIMIT; limit++) {
        for (int u = 0; u < 4; u++)
            keep(dec[u], nr[u], limit, &kept[u]);
        int cur = merge3(kp, later, okn, limit, J, max_x), best, wild;
        uint64_t mask;
        join(cur, &kept[3], limit, J, max_x, want, allowed, need_real, &best, &mask, &wild,
             NULL, NULL);
        acc_release(cur);
        if (best <= limit) {
            *d_out = best;
            *mask_out = mask;
            *wild_out = wild;
            return 1;
        }
    }
    return 0;
}

static Kept vkept;

/* every discard ks[i] of a 14-tile hand at limit, as discards_drawn answers (the 13 tiles
 * left, pj_standard_drawn at limit): cov[i] 1 where the table covers the 13 tiles left
 * (then found[i] 1 with d[i], mask[i], wild[i], or 0: no target within limit), 0 where it
 * does not (the search answers those). d0 (unless NULL): the same without the discard-win
 * rule, d0[i] and mask0[i] (d0[i] PNONE: none within limit). The three units a discard
 * leaves alone are merged once per unit discarded from, the unit less the tile joined
 * last. */
void pjt_discards(const int *real, const int *caps, int jokers, int max_x, int groups,
                  int suits0, int want, int allowed, int need_real, int limit, const int *ks,
                  int n, int *cov, int *found, int *d, uint64_t *mask, int *wild, int *d0,
                  uint64_t *mask0) {
    for (int i = 0; i < n; i++)
        cov[i] = found[i] = 0;
    if (!covered_hand(groups, suits0, want))
        return;
    const int J = jokers, show = allowed == 1 << 3;
    const uint32_t *rows[4];
    const uint8_t *krel;
    int nr[4], rel[4][10];
    for (int u = 0; u < 4; u++) {
        rows[u] = pjt_unit_rows(u, real + 9 * u, caps + 9 * u, jokers, max_x, &nr[u], &krel);
        if (rows[u]) {
            rel_of(krel, u < 3 && show, rel[u]);
            prefetch_rows(rows[u], nr[u]);
        }
    }
    /* every discard's unit rows looked up (and fetched) before the merges need them */
    const uint32_t *vrows_all[4][MAXN];
    int vnr_all[4][MAXN], vi_all[4][MAXN], nv_all[4] = {0};
    int any_all[4][10];
    for (int u = 0; u < 4; u++) {
        for (int b = 0; b < 10; b++)
            any_all[u][b] = PNONE;
        int others_ok = 1;
        for (int v = 0; v < 4; v++)
            if (v != u && !rows[v])
                others_ok = 0;
        if (!others_ok)
            continue;
        for (int i = 0; i < n; i++) {
            int k = ks[i], nv = nv_all[u];
            if (k < 9 * u || k >= 9 * u + (u == 3 ? 7 : 9) || real[k] < 1 || nv >= MAXN)
                continue;
            int c[MAXN];
            memcpy(c, real + 9 * u, sizeof(int) * (u == 3 ? 7 : 9));
            c[k - 9 * u]--;
            const uint32_t *vr = pjt_unit_rows(u, c, caps + 9 * u, jokers, max_x,
                                               &vnr_all[u][nv], &krel);
            if (!vr)
                continue;
            prefetch_rows(vr, vnr_all[u][nv]);
            vrows_all[u][nv] = vr;
            vi_all[u][nv_all[u]++] = i;
            const uint8_t *vrel = krel + (u < 3 && show ? 10 : 0);
            for (int b = 0; b < 10; b++)
                if (vrel[b] < any_all[u][b])
                    any_all[u][b] = vrel[b];
        }
    }
    for (int u = 0; u < 4; u++) {
        /* the discards from unit u, their units' rows; the others as held */
        const uint32_t *const *vrows = vrows_all[u];
        const int *vnr = vnr_all[u], *vi = vi_all[u];
        int nv = nv_all[u];
        const int *any = any_all[u];
        if (!nv)
            continue;
        /* merge order: the other units, then u (its least r + x: any variant's) */
        int order[4], no = 0, suit[4], okn[3];
        for (int v = 0; v < 4; v++)
            if (v != u)
                order[no++] = v;
        order[3] = u;
        for (int j = 0; j < 4; j++)
            suit[j] = order[j] < 3;
        reach(suit, allowed, okn);
        int orel[4][10], later[3][10], other[4][10];
        for (int j = 0; j < 3; j++)
            memcpy(orel[j], rel[order[j]], sizeof(orel[j]));
        memcpy(orel[3], any, sizeof(orel[3]));
        spread(orel, later, other);
        Kept *kp[3];
        for (int j = 0; j < 3; j++) {
            decode_keep(rows[order[j]], nr[order[j]], order[j], other[j], J,
                        order[j] < 3 && show, limit, &kept[j]);
            kp[j] = &kept[j];
        }
        int cur = merge3(kp, later, okn, limit, J, max_x);
        for (int t = 0; t < nv; t++) {
            int i = vi[t], best, w;
            uint64_t m;
            decode_keep(vrows[t], vnr[t], u, other[3], J, u < 3 && show, limit, &vkept);
            join(cur, &vkept, limit, J, max_x, want, allowed, need_real, &best, &m, &w,
                 d0 ? &d0[i] : NULL, d0 ? &mask0[i] : NULL);
            cov[i] = 1;
            if (best <= limit) {
                found[i] = 1;
                d[i] = best;
                mask[i] = m;
                wild[i] = w;
            }
        }
        acc_release(cur);
    }
}

