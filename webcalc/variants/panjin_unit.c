/* webcalc._pjunit, 盘锦's own per-unit search in C: the twin of the Python functions
 * unit_panjin (webcalc/variants/panjin_search.py), unit_panjin_drawn and
 * unit_panjin_drawn_drops (webcalc/variants/panjin_draws.py; their merge step is
 * panjin_merge.c). Part of the one extension webcalc._pjunit (setup.py; the module and its
 * method table are webcalc/_pjunit.c); panjin_hand.c runs its search for whole hands, and
 * holds the rest bound (_rest_places_all).
 *
 * search() runs the state search those Python functions run (the same states, the same
 * transitions, the same bounds, the same dominance pruning), so the pure-Python versions
 * stay the reference: tests/test_pjunit.py checks that both give the same tables, and the
 * Python falls back to itself when the module was not built.
 *
 * A state is (a, b, g, p, x, fl) as in Python: open places of the sequences begun one
 * and two kinds back, groups, pair, jokers placed, flags (PJ-2: jokers only in sequences
 * and the pair; PJ-4..PJ-7: the whole-hand flags). Each state carries one value (r, drawn)
 * per table: r real tiles drawn, drawn the bit set of the kinds some cheapest way to it
 * draws. Table 0 is the unit as held; table e >= 1 is the unit less one tile at
 * drops[e - 1], which starts from the shared prefix when the search reaches that kind.
 *
 * The bound (rest, and req: PJ-4's suit count, panjin_hand.c suit_req) is a lower bound
 * of the places every completion of a state leaves unfilled by held tiles; a state is
 * dropped only when even that puts every completion above the limit, so the targets
 * within it and their cheapest paths (the rows, the drawn kinds) are those without it.
 *
 * restrict_x (panjin_hand.c's searches, panjin_draws.py unit_panjin_drawn_drops'
 * restrict): a step places a drawn joker (one beyond the held ones) only where the kind's
 * cap leaves no real tile, or, with 2, at a place of no real tile while the state shows
 * no real tile of its suit (PJ-4 may want it absent). The same target with a drawn real
 * tile there costs no more, has the flags and drawn kinds or more (panjin_merge.py
 * SUB0), so the answers' distances and kinds are those of every target; whether a
 * wildcard draw lowers the distance rides in the masks' bits SUB0 + L. The discards'
 * searches expand 28 % fewer states (332,574 against 462,829 for 623 discards_drawn
 * calls of 14-tile hands, 2026-12-07).
 */
#include "panjin_unit.h"


int table_init(Table *t) {
    t->cap = 256;
    t->n = 0;
    t->s = PyMem_Malloc(sizeof(State) * t->cap);
    t->slot = PyMem_Calloc(NKEYS, sizeof(int));
    if (!t->s || !t->slot)
        return -1;
    return 0;
}

void table_clear(Table *t) {
    for (int i = 0; i < t->n; i++)
        t->slot[t->s[i].key] = 0;
    t->n = 0;
}

State *table_get(Table *t, int key) {
    int i = t->slot[key] - 1;
    if (i >= 0)
        return &t->s[i];
    if (t->n == t->cap) {
        State *ns = PyMem_Realloc(t->s, sizeof(State) * t->cap * 2);
        if (!ns)
            return NULL;
        t->s = ns;
        t->cap *= 2;
    }
    State *s = &t->s[t->n];
    t->slot[key] = ++t->n;
    s->key = key;
    for (int e = 0; e < MAXE; e++)
        s->r[e] = NOVAL;
    return s;
}


/* _prune_drops: a table's value is dropped when another state with the same key but for
 * flags, a superset of its flags with the same PRES bit, is cheaper there, or as cheap
 * with every kind it draws; a state with no value left is dropped. */
int prune(Table *src, Table *dst, int ne) {
    table_clear(dst);
    for (int i = 0; i < src->n; i++) {
        State *s = &src->s[i];
        int head = s->key & ~(NF - 1);
        int fl = s->key & (NF - 1);
        int free_bits = ~fl & (NF - 1) & ~PRES;
        /* the states of every proper superset f2 of fl with the same PRES bit, looked up
         * once for all the tables */
        State *sup[NF];
        int nsup = 0;
        for (int sub = free_bits; sub; sub = (sub - 1) & free_bits) {
            int j = src->slot[head | fl | sub] - 1;
            if (j >= 0)
                sup[nsup++] = &src->s[j];
        }
        State kept;
        int any = 0;
        for (int e = 0; e < ne; e++) {
            kept.r[e] = NOVAL;
            int r = s->r[e];
            if (r == NOVAL)
                continue;
            uint64_t m = s->m[e];
            int beaten = 0;
            for (int q = 0; q < nsup && !beaten; q++) {
                State *o = sup[q];
                int r2 = o->r[e];
                if (r2 == NOVAL)
                    continue;
                if (r2 < r || (r2 == r && (o->m[e] | m) == o->m[e]))
                    beaten = 1;
            }
            if (!beaten) {
                kept.r[e] = r;
                kept.m[e] = m;
                any = 1;
            }
        }
        if (!any)
            continue;
        State *d = table_get(dst, s->key);
        if (!d)
            return -1;
        for (int e = 0; e < ne; e++) {
            d->r[e] = kept.r[e];
            d->m[e] = kept.m[e];
        }
    }
    return 0;
}


/* shanten.py _joker_room: the most jokers a kind's places take, ``beside`` those its held
 * real tiles leave open, and more (each displacing a held tile, thrown away) only up to the
 * held jokers not yet placed (PJ-2: a held wildcard is never discarded) */
static inline int joker_room(int beside, int held_left) {
    return beside >= held_left ? beside : held_left;
}

/* three tables kept between calls (their key maps are 1 MB each: cleared entry by entry,
 * never reallocated); the GIL is held throughout, so one set serves all */
static Table t0, t1, t2;
static int ready = 0;

/* bound[g][p][v + 14] (_suffix_bound) from rest, for g <= groups and v_low <= v <= 0;
 * with one_own, only the splits whose unit's share makes a group or the pair (none at g =
 * p = 0: 99 there, as the twin's INF). The search reads no v above 0: v = u1 + u2 - h_i,
 * where u1 and u2 are at most the unit's tiles at the next two kinds and h_i counts them
 * (the grid above 0 was 35 % of this function's work, unread) */
static void fill_bound(int *bound, const int *rest, int groups, int v_low, int one_own) {
    /* B(g, p, v), every split: the split leaving the unit nothing is rest[g][p]; the
     * others take one group (B(g - 1, p, v + 3)) or the pair (B(g, 0, v + 2)) into the
     * unit's share and split the rest as before; above v = 0 every share is paid in full,
     * B(g, p, v) = v + B(g, p, 0). With one_own, the least of those two only. */
    int full[5 * 2 * 41];
    int *B = one_own ? full : bound;
    for (int g = 0; g <= groups; g++)
        for (int p = 0; p < 2; p++) {
            int *row = B + (g * 2 + p) * 41 + 14, r = rest[g * 2 + p];
            const int *gl = g ? B + ((g - 1) * 2 + p) * 41 + 14 : NULL;
            const int *pl = p ? B + g * 2 * 41 + 14 : NULL;
            int *own = one_own ? bound + (g * 2 + p) * 41 + 14 : NULL;
            for (int v = v_low; v <= 0; v++) {
                int best = 0x3fffffff;
                if (gl) {
                    int w = v + 3 > 0 ? v + 3 + gl[0] : gl[v + 3];
                    best = w;
                }
                if (pl) {
                    int w = v + 2 > 0 ? v + 2 + pl[0] : pl[v + 2];
                    if (w < best)
                        best = w;
                }
                if (own)
                    own[v] = g || p ? best : 99;
                row[v] = r < best ? r : best;
            }
        }
}

/* a loop of one or two rounds (the triplet, the pair) unrolled: each round's arithmetic
 * folds, and its exit is not a branch on the state's pair (-4 to -5 % of the compiled
 * 盘锦 calls, both tile counts, 2026-12-07) */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL2 _Pragma("GCC unroll 2")
#else
#define UNROLL2
#endif

/* what one kind's step of the search reads, the same for every state it expands */
typedef struct {
    int cap, max_x, jokers, need_x, groups, limit, honors, bounded, has_req, track_rd;
    int restrict_x;
    int ntrips, real_bits, s_top, c_low, h_i, c_next1, c_next2, ne, c_full;
    uint64_t bit;
    const int *bound, *bound_lack, *bound_carry;
    const int *entries, *ce_c, *ce_s;
} Step;

/* One kind's step: every state of cur expanded into nxt (the transitions and bounds that
 * pj_search's comments describe); 0, or 1 when a table could not grow. (A copy for one
 * table, every 13-tile search, with its loops over the tables folded away, bought 3-7 % of
 * panjin_advice and nothing on 14 tiles: not kept, under the 10 % a fast path needs.) */
static int step_states(const Step *P, Table *cur, Table *nxt) {
    const int cap = P->cap, jokers = P->jokers, groups = P->groups, limit = P->limit;
    const int honors = P->honors, bounded = P->bounded, track_rd = P->track_rd;
    const int ne = P->ne;
    const int *bound = P->bound;
    const uint64_t bit = P->bit;
    for (int k = 0; k < cur->n; k++) {
        const State *st = &cur->s[k];
        int key = st->key;
        int fl = key % NF;
        int x = (key / NF) % NX;
        int p = (key / (NF * NX)) % 2;
        int g = (key / (NF * NX * 2)) % 5;
        int b = (key / (NF * NX * 10)) % 5;
        int a = key / (NF * NX * 50);
        int room = P->max_x - x;
        int open_ = a + b;
        if (open_ > cap + room)
            continue;
        /* the tables this state has a value in (the others are skipped throughout), with
         * their values, counts and sequence room read once */
        int le[MAXE], lr[MAXE], lc[MAXE], lsq[MAXE], nle = 0;
        uint64_t lm[MAXE];
        for (int q = 0; q < ne; q++) {
            int e = P->entries[q];
            if (st->r[e] != NOVAL) {
                le[nle] = e;
                lr[nle] = st->r[e];
                lm[nle] = st->m[e];
                lc[nle] = P->ce_c[e];
                lsq[nle++] = P->ce_s[e];
            }
        }
        if (!nle)
            continue;
        /* every place a held tile does not fill costs a draw or a joker, and the bounds
         * below are at least -jokers: a step of more places than slack is over the limit
         * in every table (the exact test below would drop each such step): a 14-tile
         * hand's unit searches evaluate 724 steps each instead of 1,328, a 13-tile hand's
         * 279 instead of 415 (盘锦 hands as bench/rule_sets.py makes them, 2026-12-07) */
        int slack = NOVAL;
        if (bounded) {
            int rlow = NOVAL, chigh = 0;
            for (int q = 0; q < nle; q++) {
                if (lr[q] < rlow) rlow = lr[q];
                if (lc[q] > chigh) chigh = lc[q];
            }
            slack = limit + jokers - x - rlow + chigh;
        }
        if (open_ > slack)
            continue;
        const int left = jokers - x;        /* held jokers not placed yet */
        const int *lack_or = P->has_req && !(fl & PRES) ? P->bound_lack : NULL;
        int smax = P->s_top < 4 - g ? P->s_top : 4 - g;
        if (open_ + smax > slack)
            smax = slack - open_;
        for (int s = 0; s <= smax; s++) {
            /* the tables where s sequences may start here, and their least cost */
            int ls[MAXE], nls = 0, rmin = NOVAL;
            /* and the least cost of those holding the unit's count here (r_full) and of
             * the one holding a tile less here (r_less: its drop is this kind) */
            int r_full = NOVAL, r_less = NOVAL;
            for (int q = 0; q < nle; q++) {
                if (s > lsq[q])
                    continue;
                ls[nls++] = q;
                if (lr[q] < rmin)
                    rmin = lr[q];
                if (lc[q] == P->c_full) {
                    if (lr[q] < r_full)
                        r_full = lr[q];
                } else if (lr[q] < r_less) {
                    r_less = lr[q];
                }
            }
            if (!nls)
                continue;
            int f_s = s ? (fl | SEQ) : fl;
            /* the carried places' share of the bound (_carried_bound), the same for every
             * t and pair below: the bound's column and what it adds */
            int col = 0, add = 0;
            const int *lack_grid = bound;
            if (bounded) {
                int u1 = b + s < P->c_next1 ? b + s : P->c_next1;
                int u2 = s < P->c_next2 ? s : P->c_next2;
                int v = u1 + u2 - P->h_i;
                if (v < -14) v = -14;
                col = v + 14;
                add = (b + 2 * s - u1 - u2) - jokers;
                if (lack_or)
                    lack_grid = b + s ? P->bound_carry : lack_or;
            }
            UNROLL2
            for (int t = 0; t < P->ntrips; t++) {
                int g2 = g + s + t;
                if (g2 > 4 || g2 > groups)
                    break;
                int f_t = t ? (f_s | TRIP) : f_s;
                UNROLL2
                for (int pr = 0; pr <= (p ? 0 : 1); pr++) {
                    int free_ = open_ + s + 2 * pr;
                    int places = free_ + 3 * t;
                    if (places > slack)
                        break;                      /* more places still with the pair */
                    int lo = places > cap ? places - cap : 0;
                    int lb = 0, lb_lack = 0;
                    int still = 3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s;
                    if (bounded) {
                        int at = ((groups - g2) * 2 + (1 - p - pr)) * 41 + col;
                        lb = bound[at] + add;
                        /* a step that places no real tile leaves a state without the
                         * unit's suit unless it had it */
                        lb_lack = lack_or ? lack_grid[at] + add : lb;
                    }
                    if (P->need_x > 0) {
                        int low = P->need_x - x - still;
                        if (low > lo) lo = low;
                    }
                    if (bounded) {
                        /* at any y in lo..hi a table's value costs at least
                         * r + max(0, places - y - c) + lb + x + y >=
                         * r + lb + x + max(places - c, lo): when none is within the
                         * limit, no y gives a state (what the loop below would find
                         * value by value, skipped) */
                        int best = NOVAL;
                        if (r_full != NOVAL) {
                            int need = places - P->c_full;
                            best = r_full + (need < lo ? lo : need);
                        }
                        if (r_less != NOVAL) {
                            int need = places - P->c_full + 1;
                            if (r_less + (need < lo ? lo : need) < best)
                                best = r_less + (need < lo ? lo : need);
                        }
                        int lbm = places ? lb : lb_lack;
                        if (lb_lack < lbm)
                            lbm = lb_lack;
                        if (best + lbm + x > limit)
                            continue;
                    }
                    int held = P->c_low < places ? P->c_low : places;
                    int hi = free_;
                    if (room < hi) hi = room;
                    int beside = joker_room(places - held, left);
                    if (beside < hi) hi = beside;
                    /* per table: the most jokers its held tiles leave room for here (and
                     * for a restricted search's sub path, one held joker fewer left) */
                    int ylim[MAXE], ysub[MAXE];
                    for (int q = 0; q < nls; q++) {
                        int c = lc[ls[q]];
                        ylim[q] = joker_room(places - (c < places ? c : places), left);
                        ysub[q] = joker_room(places - (c < places ? c : places), left - 1);
                    }
                    /* restricted: no drawn joker where a real tile could stand, but for a
                     * place of no real tile where its suit would count (PJ-4) */
                    const int y_top = left > lo ? left : lo;
                    const int step_f = (s ? SEQ : 0) | (t ? TRIP : 0);
                    for (int y = lo; y <= hi; y++) {
                        if (P->restrict_x && y > y_top &&
                            !(P->restrict_x == 2 && y == places && !(fl & PRES)))
                            continue;
                        int x2 = x + y;
                        int thr = NOVAL;
                        int real = places - y;
                        if (bounded) {
                            /* thr falls as y grows and a value only grows (r2 >= r):
                             * past the first y no table can meet, none can but at
                             * y = places (no real tile placed: lb_lack) */
                            int ex = x2 > jokers ? x2 - jokers : 0;
                            int l = real ? lb : lb_lack;
                            int m = l + x2 > ex ? l + x2 : ex;
                            thr = limit - m;
                            if (thr < 0 || rmin > thr) {
                                if (real && lb_lack < lb && places <= hi) {
                                    y = places - 1;
                                    continue;
                                }
                                break;
                            }
                        }
                        int f = real ? (f_t | P->real_bits) : f_t;
                        if (honors && pr && !y)
                            f |= TRIP;
                        /* what this step gives a sub path too, and what a joker for one of
                         * its drawn real tiles would lose */
                        int gives = 0, lost = 0;
                        if (P->restrict_x) {
                            int real_less = real > 1 ? P->real_bits : 0;
                            gives = f & (step_f | (real ? P->real_bits : 0) |
                                         (honors && pr && !y ? TRIP : 0));
                            lost = f & ~(fl | step_f | real_less) & 7;
                        }
                        int okey_base = pack(b, s, g2, p + pr, x2, 0);
                        State *out = NULL;
                        for (int q = 0; q < nls; q++) {
                            if (y > ylim[q])
                                continue;
                            int j = ls[q], e = le[j];
                            int c = lc[j];
                            int d = real > c ? real - c : 0;
                            int r2 = lr[j] + d;
                            if (r2 > thr)
                                continue;
                            int f2 = (d && track_rd) ? (f | RD) : f;
                            uint64_t m2 = lm[j];
                            if (P->restrict_x) {
                                if (m2 & SUBS)      /* a sub path holds a joker less */
                                    m2 = y > ysub[q] ? (m2 & ~SUBS) : sub_clear(m2, gives);
                                if (d && y < free_)
                                    m2 |= (uint64_t)1 << (SUB0 + lost);
                            }
                            if (d)
                                m2 |= bit;
                            if (track_rd || !out) {
                                out = table_get(nxt, okey_base + f2);
                                if (!out)
                                    return 1;
                            }
                            int old = out->r[e];
                            if (old == NOVAL || r2 < old) {
                                out->r[e] = r2;
                                out->m[e] = m2;
                            } else if (r2 == old) {
                                out->m[e] |= m2;
                            }
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* The search proper (search() without its argument reading): the unit's table and, per
 * drops[e], the table of the unit less one tile there; rest NULL: unbounded. Leaves the
 * final states in *fin (one of the tables above: the caller reads it, and clears it with
 * table_clear before the next search) and returns 0; or -1 with an exception set. */
int pj_search(const int *unit, int n, const int *caps, const int *yj, int start,
                     int honors, int max_x, int limit, int jokers, int need_x, int groups,
                     const int *rest, const int *req, const int *drops, int nd, int track_rd,
                     int track_mask, int restrict_x, Table **fin) {
    /* rest[g][p] (10 numbers, g = 0..4, p = 0..1): at least how many places of g groups
     * and p pairs the other units leave unfilled (panjin_rest_places); bound[g][p][v + 14]:
     * _suffix_bound, at least how many places stay unfilled when g groups and p pairs are
     * still to make and the unit's open places exceed its real tiles still to come by v */
    int bound[5 * 2 * 41];
    int bounded = rest != NULL;
    sub_table_init();
    /* with req (PJ-4 seen, _suit_bounds): bound for a state that shows the unit's suit
     * (the rest at req1); bound_lack for one that does not: either the unit's own share
     * makes a group or the pair (req1) or the unit ends without its suit (req0);
     * bound_carry for one that does not but carries a sequence on (either, any split) */
    int bound_lack_own[5 * 2 * 41], bound_carry_own[5 * 2 * 41];
    const int *bound_lack = bound, *bound_carry = bound;
    if (bounded) {
        /* v = u1 + u2 - h_i >= -h_i >= -(the unit's tiles): only those v are read */
        int held_all = 0;
        for (int i = 0; i < n; i++)
            held_all += unit[i];
        int v_low = held_all < 14 ? -held_all : -14;
        if (!req)
            fill_bound(bound, rest, groups, v_low, 0);
        else {
            /* each of req0, req1 and rest bounds the other units' places: their
             * greater does too */
            int r0[10], r1[10], either[10], other[5 * 2 * 41];
            int same = 1, carry_same = 1, none = 1;
            for (int k = 0; k < 10; k++) {
                r0[k] = req[k] > rest[k] ? req[k] : rest[k];
                r1[k] = req[10 + k] > rest[k] ? req[10 + k] : rest[k];
                either[k] = r0[k] < r1[k] ? r0[k] : r1[k];
                same &= r0[k] == r1[k];
                carry_same &= either[k] == r1[k];
                none &= r0[k] >= 99;
            }
            fill_bound(bound, r1, groups, v_low, 0);
            /* the grids equal to bound not filled again (req0 = req1: the honors, or a
             * suit the melds show; req1 <= req0: the carried bound is bound) */
            if (!same) {
                if (!carry_same) {
                    fill_bound(bound_carry_own, either, groups, v_low, 0);
                    bound_carry = bound_carry_own;
                }
                fill_bound(bound_lack_own, r1, groups, v_low, 1);
                /* req0 at 99 throughout: the count never lets the unit end without its
                 * suit (_suit_bounds leaves that case out too) */
                if (!none) {
                    fill_bound(other, r0, groups, v_low, 0);
                    for (int k = 0; k < (groups + 1) * 2; k++)
                        for (int v = v_low; v <= 0; v++)
                            if (other[k * 41 + v + 14] < bound_lack_own[k * 41 + v + 14])
                                bound_lack_own[k * 41 + v + 14] = other[k * 41 + v + 14];
                }
                bound_lack = bound_lack_own;
            }
        }
    }
    /* the count of each table at each kind */
    int cnt[MAXE][MAXN + 2];
    int start_at[MAXN];
    for (int i = 0; i < MAXN; i++)
        start_at[i] = 0;
    for (int e = 0; e <= nd; e++)
        for (int i = 0; i < MAXN + 2; i++)
            cnt[e][i] = unit[i];
    for (int e = 0; e < nd; e++) {
        if (drops[e] < 0 || drops[e] >= n || !unit[drops[e]]) {
            PyErr_SetString(PyExc_ValueError, "drops: a position the unit holds");
            return -1;
        }
        cnt[e + 1][drops[e]] -= 1;
        start_at[drops[e]] = e + 1;
    }
    int held_after[MAXN];
    for (int i = 0; i < n; i++) {
        held_after[i] = 0;
        for (int j = i + 1; j < n; j++)
            held_after[i] += unit[j];
    }

    if (!ready) {
        if (table_init(&t0) || table_init(&t1) || table_init(&t2)) {
            PyErr_NoMemory();
            return -1;
        }
        ready = 1;
    }
    Table cur = t0, nxt = t1, tmp = t2;
    table_clear(&cur);
    table_clear(&nxt);
    table_clear(&tmp);
    State *s0 = table_get(&cur, 0);
    s0->r[0] = 0;
    s0->m[0] = 0;
    int entries[MAXE], ne = 1, ntab = nd + 1;
    entries[0] = 0;
    int failed = 0;
    for (int i = 0; i < n && !failed; i++) {
        int e_new = start_at[i];
        if (e_new) {
            entries[ne++] = e_new;
            for (int k = 0; k < cur.n; k++) {
                State *s = &cur.s[k];
                s->r[e_new] = s->r[0];
                s->m[e_new] = s->m[0];
            }
        }
        int cap = caps[i];
        uint64_t bit = track_mask ? (uint64_t)1 << (start + i) : 0;
        int seq_ok = !honors && i <= n - 3;
        int real_bits = yj[i] ? (PRES | YJ) : PRES;
        int ntrips = cap >= 3 ? 2 : 1;
        int ce_c[MAXE], ce_s[MAXE];
        int s_top = 0, c_low = 99;
        for (int q = 0; q < ne; q++) {
            int e = entries[q];
            int c = cnt[e][i];
            int sm = 0;
            if (seq_ok) {
                sm = c + cnt[e][i + 1] + cnt[e][i + 2] + 1;
                if (sm > 4)
                    sm = 4;
            }
            ce_c[e] = c;
            ce_s[e] = sm;
            if (sm > s_top) s_top = sm;
            if (c < c_low) c_low = c;
        }
        int h_i = held_after[i];
        /* the unit's counts at the next two kinds (those of every table started by now) */
        int c_next1 = unit[i + 1], c_next2 = unit[i + 2];
        table_clear(&nxt);
        Step P = {cap, max_x, jokers, need_x, groups, limit, honors, bounded, req != NULL,
                  track_rd, restrict_x, ntrips, real_bits, s_top, c_low, h_i, c_next1,
                  c_next2, ne, unit[i], bit,
                  bound, bound_lack, bound_carry, entries, ce_c, ce_s};
        failed = step_states(&P, &cur, &nxt);
        if (failed)
            break;
        /* the dominance step at the end, and on the way only for a large table: with the
         * bounds above, a 14-tile hand's searches keep about 35 states a kind, and pruning
         * them each time cost more (8 % of discards_drawn) than the states it dropped
         * (10 % of them); the bound stops a search with the bounds off (rest NULL, the
         * tests' reference tables) from growing without one. The drawn kinds of a row
         * that a superset of its flags dominated on the way depend on when it was
         * dropped, so the Python twins prune at the same sizes (panjin_draws.py) */
        if (nxt.n > 256 || i == n - 1) {
            if (prune(&nxt, &tmp, ntab)) { failed = 1; break; }
            Table sw = cur; cur = tmp; tmp = sw;
        } else {
            Table sw = cur; cur = nxt; nxt = sw;
        }
    }
    if (failed) {
        table_clear(&cur);
        table_clear(&nxt);
        table_clear(&tmp);
    }
    /* the tables may have grown or swapped roles: keep them all for the next call */
    table_clear(&nxt);
    table_clear(&tmp);
    t0 = cur;
    t1 = nxt;
    t2 = tmp;
    if (failed) {
        PyErr_NoMemory();
        return -1;
    }
    *fin = &t0;
    return 0;
}

PyObject *search_impl(PyObject *self, PyObject *args) {
    PyObject *unit_o, *caps_o, *yj_o, *bound_o, *drops_o, *req_o = Py_None;
    int start, honors, max_x, limit, jokers, need_x, groups, track_rd, track_mask;
    int restrict_x = 0;
    if (!PyArg_ParseTuple(args, "OOOiiiiiiiOOpp|Oi", &unit_o, &caps_o, &yj_o, &start, &honors,
                          &max_x, &limit, &jokers, &need_x, &groups, &bound_o, &drops_o,
                          &track_rd, &track_mask, &req_o, &restrict_x))
        return NULL;
    if (restrict_x < 0 || restrict_x > 2 || (restrict_x && track_rd)) {
        PyErr_SetString(PyExc_ValueError, "restrict: 0 to 2, and 0 with track_rd");
        return NULL;
    }
    int unit[MAXN + 2] = {0}, caps[MAXN] = {0}, yj[MAXN] = {0}, drops[MAXN];
    int n = read_ints(unit_o, unit, MAXN, "unit");
    if (n < 0 || read_caps(caps_o, caps) < 0 || read_ints(yj_o, yj, MAXN, "yj") < 0)
        return NULL;
    int nd = read_ints(drops_o, drops, MAXN, "drops");
    if (nd < 0 || check_unit(unit, n) < 0)
        return NULL;
    if (max_x >= NX || max_x < 0 || groups < 0 || groups > 4) {
        PyErr_SetString(PyExc_ValueError, "max_x or groups out of range");
        return NULL;
    }
    if (track_mask && (start < 0 || start > 64 - n)) {   /* start + n may overflow */
        PyErr_SetString(PyExc_ValueError, "start: the unit's kinds must fit the 64-bit mask");
        return NULL;
    }
    if (track_rd && nd) {
        PyErr_SetString(PyExc_ValueError, "track_rd is for one table only");
        return NULL;
    }
    int rest[10];
    if (bound_o != Py_None && read_ints(bound_o, rest, 10, "rest") != 10) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "rest: 10 items");
        return NULL;
    }
    int req[20];
    if (req_o != Py_None && (bound_o == Py_None || read_ints(req_o, req, 20, "req") != 20)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "req: 20 items, with rest");
        return NULL;
    }
    Table *fin;
    if (pj_search(unit, n, caps, yj, start, honors, max_x, limit, jokers, need_x, groups,
                  bound_o != Py_None ? rest : NULL, req_o != Py_None ? req : NULL, drops, nd,
                  track_rd, track_mask, restrict_x, &fin) < 0)
        return NULL;
    int ntab = nd + 1;
    PyObject *result = PyList_New(ntab);
    if (!result)
        goto done;
    for (int e = 0; e < ntab; e++) {
        PyObject *lst = PyList_New(0);
        if (!lst) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, e, lst);
    }
    for (int k = 0; k < fin->n; k++) {
        State *st = &fin->s[k];
        int key = st->key;
        int fl = key % NF;
        int x = (key / NF) % NX;
        int p = (key / (NF * NX)) % 2;
        int g = (key / (NF * NX * 2)) % 5;
        for (int e = 0; e < ntab; e++) {
            if (st->r[e] == NOVAL)
                continue;
            PyObject *row = Py_BuildValue("(iiiiiK)", g, p, x, fl, st->r[e],
                                          (unsigned long long)st->m[e]);
            if (!row || PyList_Append(PyList_GET_ITEM(result, e), row) < 0) {
                Py_XDECREF(row);
                Py_CLEAR(result);
                goto done;
            }
            Py_DECREF(row);
        }
    }
done:
    table_clear(fin);
    return result;
}
