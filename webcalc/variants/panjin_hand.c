/* webcalc._pjunit's standard_drawn() and discards_drawn(), in C: 盘锦's searches of a whole
 * hand in one call each, with no table row going through Python. standard_drawn is the twin
 * of panjin_standard_drawn (webcalc/variants/panjin_draws.py): its four unit searches (as
 * unit_panjin_drawn asks them, pj_search of panjin_unit.c), their merges (as merge) and
 * _drawn_best. discards_drawn is the twin of panjin_discards_drawn: its four unit searches
 * with the tables of every discard (unit_panjin_drawn_drops), the other three units merged
 * per unit (from the other pair's merge, made once for both units of a pair: the same
 * results as the twin's merges in order), and _combine per discard. The bounds those
 * searches prune with are panjin_bounds.c's. Part
 * of the one extension webcalc._pjunit (setup.py; the method table is webcalc/_pjunit.c,
 * which guards both like search(): they use its tables).
 */
#include "panjin_unit.h"

typedef struct {
    int key, r;                  /* key: a search key (pack) or a merge key (mpack) */
    uint64_t m;
} MRow;

static int yaojiu(int k) {
    return k >= 27 || k % 9 == 0 || k % 9 == 8;
}

/* the merges' states by merge key (mpack): fr[key] its r (NOVAL: none yet), fm[key] its
 * drawn kinds, fk[0..nf) the keys set, in the order first set; kept between calls and
 * cleared key by key after each merge (merge_rows). One value a key: no State of MAXE
 * values to make and look up, no slot map of search keys (the two Tables these replace
 * cost a 14-tile hand's compiled call 2-3 % more instructions, 2026-12-07) */
static int fr[MKEYS], fk[MKEYS], nf = 0, fready = 0;
static uint64_t fm[MKEYS];

/* the arguments both functions share, read and checked (pj_hand_ok): 0, or -1 with an
 * exception set */
static int read_hand(PyObject *real_o, PyObject *caps_o, PyObject *rest_o, int *real,
                     int *caps, int *rest, int jokers, int max_x, int groups, int suits0,
                     int want, int limit) {
    if (read_ints(real_o, real, 34, "real") != 34 || read_ints(caps_o, caps, 34, "caps") != 34
        || read_ints(rest_o, rest, 40, "rest") != 40) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "real, caps: 34 numbers; rest: 40");
        return -1;
    }
    return pj_hand_ok(real, caps, jokers, max_x, groups, suits0, want, limit);
}

int pj_hand_ok(const int *real, const int *caps, int jokers, int max_x, int groups,
               int suits0, int want, int limit) {
    if (check_unit(real, 34) < 0)
        return -1;
    for (int k = 0; k < 34; k++)
        if (caps[k] < -64 || caps[k] > 64) {
            PyErr_SetString(PyExc_ValueError, "caps: -64 to 64");
            return -1;
        }
    if (max_x < 0 || max_x >= NX || jokers < 0 || jokers >= NX || groups < 0 || groups > 4 ||
        suits0 < 0 || suits0 > 7 || want < 0 || want >= NF || limit < 0 || limit > 99) {
        PyErr_SetString(PyExc_ValueError, "an argument out of range");
        return -1;
    }
    return 0;
}

/* unit u's search as unit_panjin_drawn(_drops) asks it: its tables' rows (table 0: the unit
 * as held; e >= 1: less one tile at drops[e - 1]) into rows[e] / nrows[e] (PyMem, the
 * caller frees); 0, or -1 with an exception set */
static int unit_rows(const int *real, const int *caps, const int *rest, const int *req,
                     int u, int jokers, int max_x, int limit, int groups, const int *drops,
                     int nd, int restrict_x, MRow **rows, int *nrows) {
    int a = 9 * u, n = u < 3 ? 9 : 7;
    int unit[MAXN + 2] = {0}, yj[MAXN];
    for (int i = 0; i < n; i++) {
        unit[i] = real[a + i];
        yj[i] = yaojiu(a + i);
    }
    int mx = jokers + limit < max_x ? jokers + limit : max_x;
    Table *fin;
    if (pj_search(unit, n, caps + a, yj, a, u == 3, mx, limit, jokers, jokers, groups,
                  rest + 10 * u, req, drops, nd, 0, 1, restrict_x, &fin) < 0)
        return -1;
    int failed = 0;
    for (int e = 0; e <= nd; e++) {
        rows[e] = PyMem_Malloc(sizeof(MRow) * (fin->n ? fin->n : 1));
        nrows[e] = 0;
        if (!rows[e]) {
            failed = 1;
            continue;
        }
        for (int k = 0; k < fin->n; k++)
            if (fin->s[k].r[e] != NOVAL)
                rows[e][nrows[e]++] = (MRow){fin->s[k].key, fin->s[k].r[e], fin->s[k].m[e]};
    }
    table_clear(fin);
    if (failed) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* a table row decoded once, grouped by (g, p) */
typedef struct {
    int g, p, x, fl, r;
    uint64_t m;
} DRow;

/* rows (search keys) decoded into out, grouped by g * 2 + p: bucket k is
 * out[start[k]..start[k + 1]), in the rows' order */
static void bucket_rows(const MRow *rows, int nr, DRow *out, int *start) {
    int count[11] = {0};
    for (int j = 0; j < nr; j++) {
        int rk = rows[j].key;
        count[((rk / (NF * NX * 2)) % 5) * 2 + (rk / (NF * NX)) % 2 + 1]++;
    }
    start[0] = 0;
    for (int k = 0; k < 10; k++)
        start[k + 1] = start[k] + count[k + 1];
    int at[10];
    for (int k = 0; k < 10; k++)
        at[k] = start[k];
    for (int j = 0; j < nr; j++) {
        int rk = rows[j].key, g = (rk / (NF * NX * 2)) % 5, p = (rk / (NF * NX)) % 2;
        out[at[g * 2 + p]++] = (DRow){g, p, (rk / NF) % NX, rk % NF, rows[j].r, rows[j].m};
    }
}

/* one merge step (merge_impl's): acc (merge keys) with a unit's rows (search keys), then
 * the dominance pruning (prune's for one table: a state is dropped when one with the same
 * key but for flags, a superset of its flags with the same PRES bit, is cheaper or as
 * cheap with every kind it draws); the result replaces *acc (PyMem), its rows in the
 * order their keys were first made. 0, or -1 with an exception set. The rows are decoded
 * once and grouped by (g, p): an acc state meets only the groups that keep g + g2 <=
 * groups and p + p2 <= 1 (the others fail that test first). */
static int merge_rows(MRow **acc, int *nacc, const MRow *rows, int nr, int groups,
                      int max_x, int jokers, int limit, int counts_suit, int want, int k_u) {
    int failed = 0;
    DRow *dr = PyMem_Malloc(sizeof(DRow) * (nr ? nr : 1));
    int start[11];
    if (!dr) {
        PyErr_NoMemory();
        return -1;
    }
    if (!fready) {                       /* made here: no caller need know of them */
        for (int k = 0; k < MKEYS; k++)
            fr[k] = NOVAL;
        fready = 1;
    }
    bucket_rows(rows, nr, dr, start);
    for (int i = 0; i < *nacc && !failed; i++) {
        const MRow *s = &(*acc)[i];
        int kk = s->key, f = kk % NF, nn = (kk / NF) % 4, x = (kk / (NF * 4)) % NX;
        int p = (kk / (NF * 4 * NX)) % 2, g = kk / (NF * 4 * NX * 2);
        for (int g2 = 0; g2 <= groups - g && !failed; g2++)
            for (int p2 = 0; p2 <= 1 - p && !failed; p2++)
                for (int j = start[g2 * 2 + p2]; j < start[g2 * 2 + p2 + 1]; j++) {
                    const DRow *w = &dr[j];
                    int fl = w->fl, g3 = g + g2, p3 = p + p2, x3 = x + w->x;
                    if (x3 > max_x || x3 >= NX)
                        continue;
                    int r3 = s->r + w->r;
                    if (!merge_admits(g3, p3, x3, r3, groups, jokers, k_u, limit))
                        continue;
                    int n3 = (counts_suit && (fl & PRES)) ? nn + 1 : nn;
                    if (n3 > 3) {
                        PyErr_SetString(PyExc_ValueError, "more than three suits");
                        failed = 1;
                        break;
                    }
                    int key = mpack(g3, p3, x3, n3, f | (fl & want));
                    uint64_t m3 = sub_merge(s->m, w->m, f, fl, counts_suit, want);
                    int old = fr[key];
                    if (old == NOVAL) {
                        fk[nf++] = key;
                        fr[key] = r3;
                        fm[key] = m3;
                    } else if (r3 < old) {
                        fr[key] = r3;
                        fm[key] = m3;
                    } else if (r3 == old) {
                        fm[key] |= m3;
                    }
                }
    }
    PyMem_Free(dr);
    MRow *out = failed ? NULL : PyMem_Malloc(sizeof(MRow) * (nf ? nf : 1));
    if (!failed && !out) {
        PyErr_NoMemory();
        failed = 1;
    }
    if (!failed) {
        int no = 0;
        for (int q = 0; q < nf; q++) {
            int key = fk[q], r = fr[key], fl = key & (NF - 1), head = key & ~(NF - 1);
            int free_bits = ~fl & (NF - 1) & ~PRES, beaten = 0;
            uint64_t m = fm[key];
            for (int sub = free_bits; sub && !beaten; sub = (sub - 1) & free_bits) {
                int r2 = fr[head | fl | sub];
                uint64_t m2 = fm[head | fl | sub];
                if (r2 != NOVAL && (r2 < r || (r2 == r && (m2 | m) == m2)))
                    beaten = 1;
            }
            if (!beaten)
                out[no++] = (MRow){key, r, m};
        }
        PyMem_Free(*acc);
        *acc = out;
        *nacc = no;
    }
    for (int q = 0; q < nf; q++)
        fr[fk[q]] = NOVAL;
    nf = 0;
    return failed ? -1 : 0;
}

/* the restrict_x of unit u's search (panjin_draws.py _restrict_levels): 2 where one suit
 * more shown could break PJ-4 (u's suit counts, and an allowed count's next one is not
 * allowed, up to three), else 1 */
static int restrict_level(int u, int suits0, int allowed) {
    if (u == 3 || (suits0 >> u & 1))
        return 1;
    for (int c = 0; c < 3; c++)
        if ((allowed >> c & 1) && !(allowed >> (c + 1) & 1))
            return 2;
    return 1;
}

/* panjin_draws.py _sub_wild: whether a target of the restricted searches (m its merged
 * mask, n suits shown, r real tiles drawn, x jokers placed) says a wildcard draw lowers
 * the distance through a joker for a drawn real tile: as cheap when every held joker is
 * placed, one more fits max_x, a real tile is still drawn for the discard-win rule, and
 * the hand still meets PJ-4..PJ-7 (lacking nothing, or one suit fewer shown) */
static int sub_wild(uint64_t m, int n, long long r, int x, int jokers, int max_x,
                    int need_real, int allowed) {
    int subs = (int)(m >> SUB0 & 0xFF);
    return subs && x >= jokers && x < max_x && (!need_real || r >= 2) &&
           ((subs & 1) || ((subs & 2) && n > 0 && (allowed >> (n - 1) & 1)));
}

/* the merge of no unit yet: the melds' suits counted */
static MRow *merge_start(int suits0) {
    MRow *acc = PyMem_Malloc(sizeof(MRow));
    if (acc)
        acc[0] = (MRow){mpack(0, 0, 0, (suits0 & 1) + (suits0 >> 1 & 1) + (suits0 >> 2 & 1),
                              0), 0, 0};
    else
        PyErr_NoMemory();
    return acc;
}

/* _drawn_best's step: a target costing cost and drawing the kinds m (wild_here: it places
 * more jokers than the hand holds) kept when it is the cheapest so far, its kinds and its
 * wildcard draw joined to the others' when it is as cheap */
static inline void keep_best(long long cost, uint64_t m, int wild_here, long long *best,
                             uint64_t *mask, int *wild) {
    if (*best < 0 || cost < *best) {
        *best = cost;
        *mask = m;
        *wild = wild_here;
    } else if (cost == *best) {
        *mask |= m;
        *wild = *wild || wild_here;
    }
}

/* (d, drawn, wild) or None: the cheapest targets of best/mask/wild as _drawn_best gives */
static PyObject *drawn_value(long long best, uint64_t mask, int wild, int limit) {
    if (best < 0 || best > limit)
        Py_RETURN_NONE;
    return Py_BuildValue("(LKO)", best, (unsigned long long)mask, wild ? Py_True : Py_False);
}

/* standard_drawn(real, caps, jokers, max_x, groups, suits0, want, allowed, min_jokers,
 * limit, need_real, rest) -> (d, drawn, wild) or None. real, caps: 34 each; allowed: the
 * bit set of the suit counts PJ-4 allows; rest: _rest_places_all's four rest tables, flat
 * (40 numbers). Its searches are restricted as discards_drawn's (sub_wild reads wild). */
PyObject *standard_drawn_impl(PyObject *self, PyObject *args) {
    PyObject *real_o, *caps_o, *rest_o;
    int jokers, max_x, groups, suits0, want, allowed, min_jokers, limit, need_real;
    if (!PyArg_ParseTuple(args, "OOiiiiiiiipO", &real_o, &caps_o, &jokers, &max_x, &groups,
                          &suits0, &want, &allowed, &min_jokers, &limit, &need_real, &rest_o))
        return NULL;
    int real[34], caps[34], rest[40];
    if (read_hand(real_o, caps_o, rest_o, real, caps, rest, jokers, max_x, groups, suits0,
                  want, limit) < 0)
        return NULL;
    int req[4][20];
    if (suit_req(real, suits0, allowed, req) < 0)
        return NULL;
    long long best;
    int wild;
    uint64_t mask;
    if (pj_standard_drawn(real, caps, rest, req, jokers, max_x, groups, suits0, want, allowed,
                          min_jokers, limit, need_real, &best, &mask, &wild) < 0)
        return NULL;
    return drawn_value(best, mask, wild, limit);
}

int pj_standard_drawn(const int *real, const int *caps, const int *rest, int req[4][20],
                      int jokers, int max_x, int groups, int suits0, int want, int allowed,
                      int min_jokers, int limit, int need_real, long long *best_out,
                      uint64_t *mask_out, int *wild_out) {
    MRow *acc = merge_start(suits0), *rows = NULL;
    int nacc = 1, nr = 0, failed = 1;
    if (!acc)
        return -1;
    int held[4] = {0, 0, 0, 0};
    for (int k = 0; k < 34; k++)
        held[k < 27 ? k / 9 : 3] += real[k];
    for (int u = 0; u < 4; u++) {
        PyMem_Free(rows);
        rows = NULL;
        if (unit_rows(real, caps, rest, req[u], u, jokers, max_x, limit, groups, NULL, 0,
                      restrict_level(u, suits0, allowed), &rows, &nr))
            goto done;
        int k_u = jokers;
        for (int v = u + 1; v < 4; v++)
            k_u += held[v];
        if (merge_rows(&acc, &nacc, rows, nr, groups, max_x, jokers, limit,
                       u < 3 && !(suits0 >> u & 1), want, k_u))
            goto done;
    }
    long long best = -1;
    int wild = 0;
    uint64_t mask = 0;
    for (int i = 0; i < nacc; i++) {
        int kk = acc[i].key, f = kk % NF, nn = (kk / NF) % 4, x = (kk / (NF * 4)) % NX;
        int p = (kk / (NF * 4 * NX)) % 2, g = kk / (NF * 4 * NX * 2);
        if (g != groups || p != 1 || x < min_jokers || !(allowed >> nn & 1) ||
            (f & want) != want)
            continue;
        int r = acc[i].r, cost = r + (x > jokers ? x - jokers : 0);
        uint64_t m = acc[i].m;
        int wild_here = x > jokers || sub_wild(m, nn, r, x, jokers, max_x, need_real, allowed);
        m &= ~SUBS;
        if (need_real) {
            if (!r)
                cost += 1;
            if (r < 2)
                m = 0;
        }
        keep_best(cost, m, wild_here, &best, &mask, &wild);
    }
    *best_out = best;
    *mask_out = mask;
    *wild_out = wild;
    failed = 0;
done:
    PyMem_Free(acc);
    PyMem_Free(rows);
    return failed ? -1 : 0;
}

/* discards_drawn(real, caps, jokers, max_x, groups, suits0, want, allowed, min_jokers,
 * limit, need_real, rest, discards) -> [(d, drawn, wild) or None per discard, in order]:
 * panjin_discards_drawn of the 14-tile hand real (arguments as standard_drawn's; discards:
 * kinds the hand holds). Its searches are restricted (pj_search's restrict_x: no drawn
 * joker a real tile could stand for), and a discard's wild is read as _combine reads it:
 * a cheapest target places a joker beyond the held ones, or draws a real tile such a
 * joker could stand for, the hand meeting PJ-4..PJ-7 as well with it. */
PyObject *discards_drawn_impl(PyObject *self, PyObject *args) {
    PyObject *real_o, *caps_o, *rest_o, *discards_o;
    int jokers, max_x, groups, suits0, want, allowed, min_jokers, limit, need_real;
    if (!PyArg_ParseTuple(args, "OOiiiiiiiipOO", &real_o, &caps_o, &jokers, &max_x, &groups,
                          &suits0, &want, &allowed, &min_jokers, &limit, &need_real, &rest_o,
                          &discards_o))
        return NULL;
    int real[34], caps[34], rest[40], discards[34];
    if (read_hand(real_o, caps_o, rest_o, real, caps, rest, jokers, max_x, groups, suits0,
                  want, limit) < 0)
        return NULL;
    int nk = read_ints(discards_o, discards, 34, "discards");
    int req[4][20];
    if (nk < 0 || suit_req(real, suits0, allowed, req) < 0)
        return NULL;
    int wanted[34] = {0};
    for (int i = 0; i < nk; i++) {
        if (discards[i] < 0 || discards[i] > 33 || !real[discards[i]]) {
            PyErr_SetString(PyExc_ValueError, "discards: kinds the hand holds");
            return NULL;
        }
        wanted[discards[i]] = 1;
    }
    int held[4] = {0, 0, 0, 0};
    for (int k = 0; k < 34; k++)
        held[k < 27 ? k / 9 : 3] += real[k];
    /* per unit: its tables (0: as held; e >= 1: less one tile at drops[u][e - 1]) */
    MRow *rows[4][MAXE] = {{NULL}};
    int nrows[4][MAXE], drops[4][MAXN], nd[4];
    int table_of[34];                    /* a discard's table in its unit */
    MRow *acc = NULL, *pair = NULL;
    int npair = 0;
    DRow *dacc = NULL;
    PyObject *result = NULL;
    for (int u = 0; u < 4; u++) {
        int a = 9 * u, n = u < 3 ? 9 : 7;
        nd[u] = 0;
        for (int i = 0; i < n; i++)
            if (wanted[a + i]) {
                drops[u][nd[u]++] = i;
                table_of[a + i] = nd[u];
            }
        if (unit_rows(real, caps, rest, req[u], u, jokers, max_x, limit, groups, drops[u],
                      nd[u], restrict_level(u, suits0, allowed), rows[u], nrows[u]))
            goto done;
    }
    result = PyList_New(nk);
    if (!result)
        goto done;
    for (int i = 0; i < nk; i++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(result, i, Py_None);
    }
    /* the other three units of a unit u merged (their tables as held; u holds one less),
     * from the merge of the other pair: units 0 and 1 share that of 2 and 3 and the
     * reverse, so a pair whose units both hold discards merges the other pair once (the
     * order of the merges changes no result: each step keeps every target within the
     * limit; k_u, the real tiles and jokers still to come, is the same for both users) */
    for (int half = 0; half < 2; half++) {
        int mine0 = 2 * half, other0 = 2 - 2 * half;
        if (!nd[mine0] && !nd[mine0 + 1])
            continue;
        PyMem_Free(pair);
        npair = 1;
        pair = merge_start(suits0);
        if (!pair) {
            Py_CLEAR(result);
            goto done;
        }
        int later = held[mine0] + held[mine0 + 1] - 1 + jokers;  /* after the pair */
        for (int w = other0; w < other0 + 2; w++)
            if (merge_rows(&pair, &npair, rows[w][0], nrows[w][0], groups, max_x, jokers,
                           limit, w < 3 && !(suits0 >> w & 1), want,
                           later + (w == other0 ? held[other0 + 1] : 0))) {
                Py_CLEAR(result);
                goto done;
            }
        for (int u = mine0; u < mine0 + 2; u++) {
            if (!nd[u])
                continue;
            int w = u ^ 1;                   /* the unit beside u in its pair */
            PyMem_Free(acc);
            int nacc = npair;
            acc = PyMem_Malloc(sizeof(MRow) * (npair ? npair : 1));
            if (!acc) {
                PyErr_NoMemory();
                Py_CLEAR(result);
                goto done;
            }
            memcpy(acc, pair, sizeof(MRow) * npair);
            if (merge_rows(&acc, &nacc, rows[w][0], nrows[w][0], groups, max_x, jokers, limit,
                           w < 3 && !(suits0 >> w & 1), want, held[u] - 1 + jokers)) {
                Py_CLEAR(result);
                goto done;
            }
            int counts_suit = u < 3 && !(suits0 >> u & 1);
            /* the merged states decoded once, grouped by (g, p): a table row (g2, p2) meets
             * only those with g = groups - g2 and p = 1 - p2 */
            PyMem_Free(dacc);
            dacc = PyMem_Malloc(sizeof(DRow) * (nacc ? nacc : 1));
            if (!dacc) {
                PyErr_NoMemory();
                Py_CLEAR(result);
                goto done;
            }
            int astart[11], acount[11] = {0}, aat[10];
            for (int q = 0; q < nacc; q++) {
                int kk = acc[q].key;
                acount[((kk / (NF * 4 * NX * 2)) * 2 + (kk / (NF * 4 * NX)) % 2) + 1]++;
            }
            astart[0] = 0;
            for (int b = 0; b < 10; b++) {
                astart[b + 1] = astart[b] + acount[b + 1];
                aat[b] = astart[b];
            }
            for (int q = 0; q < nacc; q++) {
                int kk = acc[q].key, g = kk / (NF * 4 * NX * 2), p = (kk / (NF * 4 * NX)) % 2;
                /* DRow's fields here: x, n (in p), flags, r, drawn */
                dacc[aat[g * 2 + p]++] = (DRow){g, (kk / NF) % 4, (kk / (NF * 4)) % NX, kk % NF,
                                                acc[q].r, acc[q].m};
            }
            for (int i = 0; i < nk; i++) {
                int k = discards[i];
                if (k < 9 * u || k >= 9 * u + (u < 3 ? 9 : 7))
                    continue;
                const MRow *tab = rows[u][table_of[k]];
                long long best = -1;
                uint64_t mask = 0;
                int wild = 0;
                for (int j = 0; j < nrows[u][table_of[k]]; j++) {   /* combine (_combine) */
                    int rk = tab[j].key, fl = rk % NF, x2 = (rk / NF) % NX;
                    int p2 = (rk / (NF * NX)) % 2, g2 = (rk / (NF * NX * 2)) % 5;
                    int inc = (counts_suit && (fl & PRES)) ? 1 : 0, fw = fl & want;
                    if (g2 > groups || p2 > 1)
                        continue;
                    int bk = (groups - g2) * 2 + (1 - p2);
                    for (int q = astart[bk]; q < astart[bk + 1]; q++) {
                        const DRow *w = &dacc[q];
                        int f = w->fl, nn = w->p, x3 = w->x + x2;
                        if (x3 > max_x || x3 < min_jokers || !((allowed >> (nn + inc)) & 1) ||
                            (f | fw) != want)
                            continue;
                        long long rr = (long long)w->r + tab[j].r;
                        long long cost = rr + (x3 > jokers ? x3 - jokers : 0);
                        uint64_t m3 = w->m | tab[j].m;
                        /* or a joker for a drawn real tile (panjin_merge.py _combine) */
                        int wild_here = x3 > jokers ||
                            ((m3 & SUBS) &&
                             sub_wild(sub_merge(w->m, tab[j].m, f, fl, counts_suit, want),
                                      nn + inc, rr, x3, jokers, max_x, need_real, allowed));
                        m3 &= ~SUBS;
                        if (need_real && rr < 2) {
                            m3 = 0;
                            if (!rr)
                                cost += 1;
                        }
                        if (cost > limit)
                            continue;
                        keep_best(cost, m3, wild_here, &best, &mask, &wild);
                    }
                }
                PyObject *one = drawn_value(best, mask, wild, limit);
                if (!one) {
                    Py_CLEAR(result);
                    goto done;
                }
                PyObject *old = PyList_GET_ITEM(result, i);
                PyList_SET_ITEM(result, i, one);
                Py_DECREF(old);
            }
        }
    }
done:
    PyMem_Free(acc);
    PyMem_Free(pair);
    PyMem_Free(dacc);
    for (int u = 0; u < 4; u++)
        for (int e = 0; e < MAXE; e++)
            PyMem_Free(rows[u][e]);
    return result;
}
