/* webcalc._pjunit, the free-joker unit tables and folds: the twins of webcalc/shanten.py's
 * unit_free, _plain_rows, free_unit_states and free_unit_draws, and of webcalc/tables.py's
 * unit_needs (see _pjunit.h and _pjunit.c). */
#include "_pjunit.h"

/* free_unit(unit, caps, honors) -> [(g, p, q, D), ...]: shanten.py unit_free with jokers
 * (the free-joker rule sets, and the looser bounds of a rule set's own search): the
 * per-unit table, jokers anywhere,
 * Pareto-minimal in (q, D) for each (g, p), rows in (g, p, q) order. Only groups touching a
 * held tile of the unit are built; q counts places beyond a kind's cap (jokers there). */
#define FKEYS (5 * 5 * 5 * 2 * FQ)


/* unit_free's table with jokers: the Pareto rows in (g, p, q) order into out (MAXROWS), their
 * number returned, or -1 (ValueError set) for more than 31 places beyond the caps. The
 * counts and caps are checked by the callers (0-14, -64-64). */
int free_rows(const int *unit, const int *caps, int n, int honors, Row *out) {
    static int cur[FKEYS], nxt[FKEYS];     /* key -> D, or NOVAL */
    static int ready = 0;
    if (!ready) {
        for (int k = 0; k < FKEYS; k++)
            cur[k] = nxt[k] = NOVAL;
        ready = 1;
    }
    static int used_c[FKEYS], used_n[FKEYS];
    int nc = 0, nn = 0;
#define FPACK(a, b, g, p, q) (((((a) * 5 + (b)) * 5 + (g)) * 2 + (p)) * FQ + (q))
    cur[0] = 0;
    used_c[nc++] = 0;
    int overflow = 0;
    for (int i = 0; i < n; i++) {
        int c = unit[i], cap = caps[i];
        int seq_ok = !honors && i <= n - 3 && (c || unit[i + 1] || unit[i + 2]);
        int ntrips = c ? 3 : 1;
        int s_max = 0;
        if (seq_ok) {
            s_max = c + unit[i + 1] + unit[i + 2];
            if (s_max > 4) s_max = 4;
        }
        nn = 0;
        for (int k = 0; k < nc; k++) {
            int key = used_c[k];
            int d = cur[key];
            int q = key % FQ, p = (key / FQ) % 2, g = (key / (FQ * 2)) % 5;
            int b = (key / (FQ * 10)) % 5, a = key / (FQ * 50);
            int base = a + b;
            int pair_ok = c && !p;
            int top = s_max < 4 - g ? s_max : 4 - g;
            for (int s = 0; s <= top; s++) {
                int pl0 = base + s, g1 = g + s;
                for (int t = 0; t < ntrips; t++) {
                    int g2 = g1 + t;
                    if (g2 > 4)
                        break;
                    for (int pr = 0; pr <= pair_ok; pr++) {
                        int places = pl0 + 3 * t + 2 * pr;
                        int q2 = q + (places > cap ? places - cap : 0);
                        int d2 = d + (places > c ? places - c : 0);
                        if (q2 >= FQ) {
                            overflow = 1;
                            continue;
                        }
                        int nk = FPACK(b, s, g2, p | pr, q2);
                        if (nxt[nk] == NOVAL) {
                            used_n[nn++] = nk;
                            nxt[nk] = d2;
                        } else if (d2 < nxt[nk]) {
                            nxt[nk] = d2;
                        }
                    }
                }
            }
        }
        for (int k = 0; k < nc; k++)
            cur[used_c[k]] = NOVAL;
        nc = 0;
        for (int k = 0; k < nn; k++) {
            int key = used_n[k];
            cur[key] = nxt[key];
            nxt[key] = NOVAL;
            used_c[nc++] = key;
        }
    }
    /* best D per (g, p, q), then the Pareto rows */
    int best[5][2][FQ];
    for (int g = 0; g < 5; g++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < FQ; q++)
                best[g][p][q] = NOVAL;
    for (int k = 0; k < nc; k++) {
        int key = used_c[k];
        int q = key % FQ, p = (key / FQ) % 2, g = (key / (FQ * 2)) % 5;
        if (cur[key] < best[g][p][q])
            best[g][p][q] = cur[key];
        cur[key] = NOVAL;
    }
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "more than 31 places beyond the caps");
        return -1;
    }
    int nr = 0;
    for (int g = 0; g < 5; g++)
        for (int p = 0; p < 2; p++) {
            int low = NOVAL;
            for (int q = 0; q < FQ; q++) {
                int d = best[g][p][q];
                if (d < low) {
                    out[nr].g = (uint8_t)g;
                    out[nr].p = (uint8_t)p;
                    out[nr].q = (uint8_t)q;
                    out[nr].d = (uint8_t)(d < 255 ? d : 255);
                    nr++;
                    low = d;
                }
            }
        }
    return nr;
}

PyObject *rows_list(const Row *rows, int nr) {
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    for (int i = 0; i < nr; i++) {
        PyObject *row = Py_BuildValue("(iiii)", rows[i].g, rows[i].p, rows[i].q, rows[i].d);
        if (!row || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(row);
    }
    return out;
}

PyObject *free_unit(PyObject *self, PyObject *args) {
    PyObject *unit_o, *caps_o;
    int honors;
    if (!PyArg_ParseTuple(args, "OOp", &unit_o, &caps_o, &honors))
        return NULL;
    int unit[MAXN + 2] = {0}, caps[MAXN] = {0};
    int n = read_ints(unit_o, unit, MAXN, "unit");
    if (n < 0 || read_caps(caps_o, caps) < 0 || check_unit(unit, n) < 0)
        return NULL;
    Row rows[MAXROWS];
    int nr = free_rows(unit, caps, n, honors, rows);
    if (nr < 0)
        return NULL;
    return rows_list(rows, nr);
}

/* The bounded folds of the free-joker variants (shanten.py free_unit_states and
 * free_unit_draws): merged states {(g, p, q): D} of the units folded so far, one more unit
 * folded in kind by kind, keeping only the partial targets that can still end within
 * limit. A state is (a, b, g, p, q, f): open places of the sequences begun one and two kinds
 * back, groups, pair, joker-only places, and (free_unit_draws) the kind the extra tile went
 * to, f + 1 (0: not placed yet). */
#define DQ 64
#define DF 10
#define DKEYS (5 * 5 * 5 * 2 * DQ * DF)

typedef struct {
    int *val;                   /* key -> D + 1, or 0 (calloc, as Table's map) */
    int *used;                  /* the keys set, in order */
    int n;
} DMap;

static int dmap_init(DMap *m) {
    m->val = PyMem_Calloc(DKEYS, sizeof(int));
    m->used = PyMem_Malloc(sizeof(int) * DKEYS);
    m->n = 0;
    if (!m->val || !m->used)
        return -1;
    return 0;
}

static inline void dmap_min(DMap *m, int key, int d) {
    int old = m->val[key];
    if (!old) {
        m->used[m->n++] = key;
        m->val[key] = d + 1;
    } else if (d + 1 < old) {
        m->val[key] = d + 1;
    }
}

static void dmap_clear(DMap *m) {
    for (int k = 0; k < m->n; k++)
        m->val[m->used[k]] = 0;
    m->n = 0;
}

#define DPACK(a, b, g, p, q, f1) ((((((a) * 5 + (b)) * 5 + (g)) * 2 + (p)) * DQ + (q)) * DF + (f1))

static DMap dm_a, dm_b;
static int dm_ready = 0;

/* one (key, value) item of a states dict: ((g, p, q), D), D never negative (D + 1 == 0 marks
 * an empty slot of a DMap: a negative D would let one key be listed again and again past
 * the end of its used array) */
static int state_item(PyObject *item, int *g, int *p, int *q, int *d) {
    PyObject *key, *val;
    if (!PyArg_ParseTuple(item, "OO", &key, &val) || !is_tuple(key, "states key") ||
        !PyArg_ParseTuple(key, "iii", g, p, q))
        return -1;
    long v = PyLong_AsLong(val);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v > 1000000) {
        PyErr_SetString(PyExc_ValueError, "states: D is 0 to 1000000");
        return -1;
    }
    *d = (int)v;
    return 0;
}

static int fold_args(PyObject *args, PyObject **states, int *unit, int *n, int *caps,
                     int *honors, int *any_jokers, int *groups, int *jokers, int *joker_room,
                     int *limit, PyObject **extra) {
    PyObject *unit_o, *caps_o;
    if (!PyArg_ParseTuple(args, "O!OOppiiiiO", &PyDict_Type, states, &unit_o, &caps_o, honors,
                          any_jokers, groups, jokers, joker_room, limit, extra))
        return -1;
    for (int i = 0; i < MAXN + 2; i++)
        unit[i] = 0;
    *n = read_ints(unit_o, unit, MAXN, "unit");
    if (*n < 0 || read_caps(caps_o, caps) < 0 || check_unit(unit, *n) < 0)
        return -1;
    if (*jokers < 0 || *jokers >= DQ || *joker_room >= DQ || *jokers + *joker_room >= DQ ||
        *groups < 0 || *groups > 4) {
        PyErr_SetString(PyExc_ValueError, "jokers, joker_room or groups out of range");
        return -1;
    }
    if (!dm_ready) {
        if (dmap_init(&dm_a) || dmap_init(&dm_b)) {
            PyErr_NoMemory();
            return -1;
        }
        dm_ready = 1;
    }
    dmap_clear(&dm_a);
    dmap_clear(&dm_b);
    /* no target costs more than a million draws: a larger limit means the same, and keeps
     * budget = jokers + limit from overflowing */
    if (*limit > 1000000)
        *limit = 1000000;
    return 0;
}

/* The states dict read into cur (a private snapshot, as read_ints), each state kept only
 * when it can still end within budget: its joker-only places q at most qmax, and its D plus
 * the places its groups and pair still need beyond the ``have`` held tiles to come. */
static int fold_seed(PyObject *states, DMap *cur, int groups, int budget, int qmax,
                     int have) {
    PyObject *items = PyDict_Items(states);
    if (!items)
        return -1;
    for (Py_ssize_t it = 0; it < PyList_GET_SIZE(items); it++) {
        int g, p, q, d;
        if (state_item(PyList_GET_ITEM(items, it), &g, &p, &q, &d) < 0) {
            Py_DECREF(items);
            return -1;
        }
        if (d > budget)
            continue;
        if (q > qmax || q < 0 || g < 0 || g > 4 || p < 0 || p > 1)
            continue;
        int need = 3 * (groups - g) + 2 * (1 - p) - have;
        if (d + (need > 0 ? need : 0) > budget)
            continue;
        dmap_min(cur, DPACK(0, 0, g, p, q, 0), d);
    }
    Py_DECREF(items);
    return 0;
}

/* The groups one state (a, b, g, p, q; D = d; f: the draw's mark) begins at a kind holding
 * c real tiles of cap: up to s_max sequences, triplets (two more with jokers) and maybe the
 * pair, each kept in nxt when its draws plus the places still to fill beyond the ``left``
 * held tiles to come stay within budget (the transitions of free_unit_states). */
static inline void fold_groups(DMap *nxt, int a, int b, int g, int p, int q, int d, int f,
                               int c, int cap, int s_max, int any_jokers, int left,
                               int groups, int qmax, int budget) {
    int base = a + b;
    int pair_ok = c && !p;
    int ntrips = (c && any_jokers) ? 3 : (c ? 2 : 1);
    int top = s_max < groups - g ? s_max : groups - g;
    for (int s = 0; s <= top; s++) {
        int pl0 = base + s, g1 = g + s, open_ = b + 2 * s;
        for (int t = 0; t < ntrips; t++) {
            int g2 = g1 + t;
            if (g2 > groups)
                break;
            int places = pl0 + 3 * t;
            int q2 = q + (places > cap ? places - cap : 0);
            if (q2 > qmax)
                break;
            int d2 = d + (places > c ? places - c : 0);
            int need = open_ + 3 * (groups - g2) + 2 * (1 - p) - left;
            if (d2 + (need > 0 ? need : 0) <= budget)
                dmap_min(nxt, DPACK(b, s, g2, p, q2, f), d2);
            if (pair_ok) {
                places += 2;
                q2 = q + (places > cap ? places - cap : 0);
                if (q2 > qmax)
                    continue;
                d2 = d + (places > c ? places - c : 0);
                need -= 2;
                if (d2 + (need > 0 ? need : 0) <= budget)
                    dmap_min(nxt, DPACK(b, s, g2, 1, q2, f), d2);
            }
        }
    }
}

/* fold(states, unit, caps, honors, any_jokers, groups, jokers, joker_room, limit, after)
 * -> {(g, p, q): D}: free_unit_states. */
PyObject *fold_impl(PyObject *self, PyObject *args) {
    PyObject *states, *after_o;
    int unit[MAXN + 2], caps[MAXN], n, honors, any_jokers, groups, jokers, joker_room, limit;
    if (fold_args(args, &states, unit, &n, caps, &honors, &any_jokers, &groups, &jokers,
                  &joker_room, &limit, &after_o) < 0)
        return NULL;
    int after = (int)PyLong_AsLong(after_o);
    if (after == -1 && PyErr_Occurred())
        return NULL;
    PyObject *out = PyDict_New();
    if (!out || limit < 0)
        return out;
    int budget = jokers + limit, qmax = jokers + joker_room;
    int rem[MAXN + 1];
    rem[n] = 0;
    for (int i = n - 1; i >= 0; i--)
        rem[i] = rem[i + 1] + unit[i];
    DMap *cur = &dm_a, *nxt = &dm_b;
    if (fold_seed(states, cur, groups, budget, qmax, rem[0] + after) < 0)
        goto fail;
    for (int i = 0; i < n; i++) {
        if (!cur->n)
            goto done;
        int c = unit[i], cap = caps[i];
        int seq_ok = !honors && i <= n - 3 && (c || unit[i + 1] || unit[i + 2]);
        int s_max = 0;
        if (seq_ok) {
            s_max = c + unit[i + 1] + unit[i + 2];
            if (s_max > 4) s_max = 4;
        }
        int left = rem[i + 1] + after;
        for (int k = 0; k < cur->n; k++) {
            int kk = cur->used[k];
            int q = (kk / DF) % DQ, p = (kk / (DF * DQ)) % 2, g = (kk / (DF * DQ * 2)) % 5;
            int b = (kk / (DF * DQ * 10)) % 5, a = kk / (DF * DQ * 50);
            fold_groups(nxt, a, b, g, p, q, cur->val[kk] - 1, 0, c, cap, s_max, any_jokers,
                        left, groups, qmax, budget);
        }
        dmap_clear(cur);
        DMap *sw = cur; cur = nxt; nxt = sw;
    }
    {
        /* best D per (g, p, q) */
        int best[5][2][DQ];
        for (int g = 0; g < 5; g++)
            for (int p = 0; p < 2; p++)
                for (int q = 0; q < DQ; q++)
                    best[g][p][q] = NOVAL;
        for (int k = 0; k < cur->n; k++) {
            int kk = cur->used[k];
            int q = (kk / DF) % DQ, p = (kk / (DF * DQ)) % 2, g = (kk / (DF * DQ * 2)) % 5;
            if (cur->val[kk] - 1 < best[g][p][q])
                best[g][p][q] = cur->val[kk] - 1;
        }
        for (int g = 0; g < 5; g++)
            for (int p = 0; p < 2; p++)
                for (int q = 0; q < DQ; q++) {
                    if (best[g][p][q] == NOVAL)
                        continue;
                    PyObject *kt = Py_BuildValue("(iii)", g, p, q);
                    PyObject *vt = PyLong_FromLong(best[g][p][q]);
                    if (!kt || !vt || PyDict_SetItem(out, kt, vt) < 0) {
                        Py_XDECREF(kt);
                        Py_XDECREF(vt);
                        goto fail;
                    }
                    Py_DECREF(kt);
                    Py_DECREF(vt);
                }
    }
done:
    dmap_clear(&dm_a);
    dmap_clear(&dm_b);
    return out;
fail:
    dmap_clear(&dm_a);
    dmap_clear(&dm_b);
    Py_DECREF(out);
    return NULL;
}

/* fold_draws(states, unit, caps, honors, any_jokers, groups, jokers, joker_room, limit,
 * draws) -> set: free_unit_draws, the kinds of draws whose extra tile keeps the hand
 * within limit. */
PyObject *fold_draws_impl(PyObject *self, PyObject *args) {
    PyObject *states, *draws_o;
    int unit[MAXN + 2], caps[MAXN], n, honors, any_jokers, groups, jokers, joker_room, limit;
    if (fold_args(args, &states, unit, &n, caps, &honors, &any_jokers, &groups, &jokers,
                  &joker_room, &limit, &draws_o) < 0)
        return NULL;
    int allowed[MAXN] = {0}, any = 0;
    PyObject *it = PyObject_GetIter(draws_o);
    if (!it)
        return NULL;
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        long i = PyLong_AsLong(item);
        Py_DECREF(item);
        if (i == -1 && PyErr_Occurred()) {
            Py_DECREF(it);
            return NULL;
        }
        if (i >= 0 && i < n) {
            allowed[i] = 1;
            any = 1;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return NULL;
    PyObject *out = PySet_New(NULL);
    if (!out || limit < 0 || !any)
        return out;
    int budget = jokers + limit, qmax = jokers + joker_room;
    int rem[MAXN + 1];
    rem[n] = 0;
    for (int i = n - 1; i >= 0; i--)
        rem[i] = rem[i + 1] + unit[i];
    DMap *cur = &dm_a, *nxt = &dm_b;
    /* the held tiles to come: the unit's, and the extra tile */
    if (fold_seed(states, cur, groups, budget, qmax, rem[0] + 1) < 0)
        goto fail;
    for (int i = 0; i < n; i++) {
        if (!cur->n)
            goto done;
        int c0 = unit[i], cap = caps[i];
        int seqs = !honors && i <= n - 3;
        int ahead = seqs ? unit[i + 1] + unit[i + 2] : 0;
        int later = rem[i + 1];
        for (int k = 0; k < cur->n; k++) {
            int kk = cur->used[k];
            int f1 = kk % DF;
            int q = (kk / DF) % DQ, p = (kk / (DF * DQ)) % 2, g = (kk / (DF * DQ * 2)) % 5;
            int b = (kk / (DF * DQ * 10)) % 5, a = kk / (DF * DQ * 50);
            int extras = (f1 == 0 && allowed[i]) ? 2 : 1;
            for (int extra = 0; extra < extras; extra++) {
                int c = c0 + extra;
                int f2 = extra ? i + 1 : f1;
                int pending = f2 == 0;       /* the extra tile may still come later */
                int s_max = 0;
                if (seqs) {
                    s_max = c + ahead + pending;
                    if (s_max > 4) s_max = 4;
                }
                fold_groups(nxt, a, b, g, p, q, cur->val[kk] - 1, f2, c, cap, s_max,
                            any_jokers, later + pending, groups, qmax, budget);
            }
        }
        dmap_clear(cur);
        DMap *sw = cur; cur = nxt; nxt = sw;
    }
    {
        int found[MAXN] = {0};
        for (int k = 0; k < cur->n; k++) {
            int kk = cur->used[k];
            int f1 = kk % DF;
            if (!f1 || found[f1 - 1])
                continue;
            int p = (kk / (DF * DQ)) % 2, g = (kk / (DF * DQ * 2)) % 5;
            int total = cur->val[kk] - 1 + 3 * (groups - g) + 2 * (1 - p);
            if (total - jokers <= limit)
                found[f1 - 1] = 1;
        }
        for (int i = 0; i < n; i++) {
            if (!found[i])
                continue;
            PyObject *v = PyLong_FromLong(i);
            if (!v || PySet_Add(out, v) < 0) {
                Py_XDECREF(v);
                goto fail;
            }
            Py_DECREF(v);
        }
    }
done:
    dmap_clear(&dm_a);
    dmap_clear(&dm_b);
    return out;
fail:
    dmap_clear(&dm_a);
    dmap_clear(&dm_b);
    Py_DECREF(out);
    return NULL;
}

/* unit_needs_dp (also _pjunit_jokers.c's), and needs(unit, honors, in_triplet) -> (n0, n1)
 * around it: tables.py unit_needs (99: none), the fewest jokers that complete the unit's
 * real tiles into groups (n0) or groups and one pair (n1), every
 * real tile used. A DP over the kinds: the sequences begun one and two kinds back still
 * open, and whether the pair is placed; at each kind s sequences begin (at most four: five
 * alike would leave one all jokers, which an optimum drops), t triplets (jokers in them
 * only with in_triplet, else t <= count / 3 of real tiles) and maybe the pair; the kind's
 * real tiles must all find places, jokers fill the rest. tables.py's recursive _need stays
 * the reference (tests/test_pjunit.py). */
PJ_HIDDEN void unit_needs_dp(const int *unit, int n, int honors, int in_triplet, int *n0,
                            int *n1) {
    /* dp[o1][o2][pr]: o1 sequences begun at the kind before (they need this kind and the
     * next), o2 begun two kinds back (they need this kind), pr pairs placed */
    int dp[5][5][2], nx[5][5][2];
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            dp[a][b][0] = dp[a][b][1] = NOVAL;
    dp[0][0][0] = 0;
    for (int i = 0; i < n; i++) {
        int c = unit[i];
        /* a group with no real tile is all jokers, which an optimum drops: a sequence
         * begins here only with a real tile among its three kinds, a second triplet only
         * when four real tiles are here, a pair of jokers only at the last kind */
        int s_top = 0;
        if (!honors && i <= n - 3) {
            s_top = c + unit[i + 1] + unit[i + 2];
            if (s_top > 4) s_top = 4;
        }
        int t_top = c >= 4 ? 2 : (c ? 1 : 0);
        int pair_here = c || i == n - 1;
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 5; b++)
                nx[a][b][0] = nx[a][b][1] = NOVAL;
        for (int o1 = 0; o1 < 5; o1++)
            for (int o2 = 0; o2 < 5; o2++)
                for (int pr = 0; pr < 2; pr++) {
                    int d = dp[o1][o2][pr];
                    if (d == NOVAL)
                        continue;
                    for (int sq = 0; sq <= s_top; sq++)
                        for (int t = 0; t <= t_top; t++) {
                            if (!in_triplet && 3 * t > c)
                                break;
                            for (int p2 = 0; p2 <= (pair_here ? 1 - pr : 0); p2++) {
                                int places = o1 + o2 + sq + 3 * t + 2 * p2;
                                if (c > places)
                                    continue;
                                int d2 = d + places - c;
                                if (d2 < nx[sq][o1][pr + p2])
                                    nx[sq][o1][pr + p2] = d2;
                            }
                        }
                }
        memcpy(dp, nx, sizeof(dp));
    }
    *n0 = dp[0][0][0] == NOVAL ? 99 : dp[0][0][0];
    *n1 = dp[0][0][1] == NOVAL ? 99 : dp[0][0][1];
}

PyObject *needs(PyObject *self, PyObject *args) {
    PyObject *unit_o;
    int honors, in_triplet;
    if (!PyArg_ParseTuple(args, "Opp", &unit_o, &honors, &in_triplet))
        return NULL;
    int unit[MAXN + 2] = {0};
    int n = read_ints(unit_o, unit, MAXN, "unit");
    if (n < 0 || check_unit(unit, n) < 0)
        return NULL;
    int n0, n1;
    unit_needs_dp(unit, n, honors, in_triplet, &n0, &n1);
    return Py_BuildValue("(ii)", n0, n1);
}

/* plain_unit(unit, caps, honors) -> [(g, p, 0, D), ...]: shanten.py _plain_rows, unit_free
 * without jokers: the fewest draws D per (g, p), no place beyond a kind's cap, only groups
 * touching a held tile of the unit; rows in (g, p) order. */
int plain_rows(const int *unit, const int *caps, int n, int honors, Row *out) {
    /* states (a, b, g, p) -> D as key ((a * 5 + b) * 5 + g) * 2 + p; only the reached ones
     * are visited (the maps are left all NOVAL between calls) */
#define PKEYS 250
#define PPACK(a, b, g, p) ((((a) * 5 + (b)) * 5 + (g)) * 2 + (p))
    static int cur[PKEYS], nxt[PKEYS], ready = 0;
    int lc[PKEYS], ln[PKEYS], nc = 0, nn;
    if (!ready) {
        for (int k = 0; k < PKEYS; k++)
            cur[k] = nxt[k] = NOVAL;
        ready = 1;
    }
    cur[0] = 0;
    lc[nc++] = 0;
#define PSET(key, v)                        \
    do {                                    \
        int k_ = (key), v_ = (v);           \
        if (nxt[k_] == NOVAL) {             \
            ln[nn++] = k_;                  \
            nxt[k_] = v_;                   \
        } else if (v_ < nxt[k_]) {          \
            nxt[k_] = v_;                   \
        }                                   \
    } while (0)
    for (int i = 0; i < n; i++) {
        int c = unit[i], cap = caps[i];
        int s_max = 0;
        if (!honors && i <= n - 3) {
            s_max = c + unit[i + 1] + unit[i + 2];
            if (s_max > 4) s_max = 4;
        }
        nn = 0;
        for (int j = 0; j < nc; j++) {
            int key = lc[j];
            int d = cur[key];
            cur[key] = NOVAL;
            int p = key & 1, g = (key >> 1) % 5, b = (key / 10) % 5, a = key / 50;
            int base = a + b;
            int top = s_max;
            if (4 - g < top) top = 4 - g;
            if (cap - base < top) top = cap - base;
            for (int s = 0; s <= top; s++) {
                int pl = base + s, g1 = g + s;
                PSET(PPACK(b, s, g1, p), d + (pl > c ? pl - c : 0));
                if (!c)
                    continue;
                if (!p && pl + 2 <= cap)
                    PSET(PPACK(b, s, g1, 1), d + (pl + 2 > c ? pl + 2 - c : 0));
                if (g1 < 4 && pl + 3 <= cap) {
                    PSET(PPACK(b, s, g1 + 1, p), d + (pl + 3 > c ? pl + 3 - c : 0));
                    if (!p && pl + 5 <= cap)
                        PSET(PPACK(b, s, g1 + 1, 1), d + (pl + 5 > c ? pl + 5 - c : 0));
                }
            }
        }
        for (int j = 0; j < nn; j++) {
            int key = ln[j];
            cur[key] = nxt[key];
            nxt[key] = NOVAL;
            lc[j] = key;
        }
        nc = nn;
    }
#undef PSET
    int best[5][2];
    for (int g = 0; g < 5; g++)
        best[g][0] = best[g][1] = NOVAL;
    for (int j = 0; j < nc; j++) {
        int key = lc[j];
        int p = key & 1, g = (key >> 1) % 5;
        if (cur[key] < best[g][p])
            best[g][p] = cur[key];
        cur[key] = NOVAL;
    }
    int nr = 0;
    for (int g = 0; g < 5; g++)
        for (int p = 0; p < 2; p++) {
            if (best[g][p] == NOVAL)
                continue;
            out[nr].g = (uint8_t)g;
            out[nr].p = (uint8_t)p;
            out[nr].q = 0;
            out[nr].d = (uint8_t)(best[g][p] < 255 ? best[g][p] : 255);
            nr++;
        }
    return nr;
}

PyObject *plain_unit(PyObject *self, PyObject *args) {
    PyObject *unit_o, *caps_o;
    int honors;
    if (!PyArg_ParseTuple(args, "OOp", &unit_o, &caps_o, &honors))
        return NULL;
    int unit[MAXN + 2] = {0}, caps[MAXN] = {0};
    int n = read_ints(unit_o, unit, MAXN, "unit");
    if (n < 0 || read_caps(caps_o, caps) < 0 || check_unit(unit, n) < 0)
        return NULL;
    Row rows[10];
    return rows_list(rows, plain_rows(unit, caps, n, honors, rows));
}


/* free_merge(tables, groups, jokers, joker_room) -> int or None: shanten.py free_standard
 * from its unit tables (unit_free rows (g, p, q, D)): _merge_free of each in turn from
 * {(0, 0, 0): 0} (groups up to `groups`, one pair), then _finish_free (a target whose
 * joker-only places q exceed the jokers and the wildcard tiles left is refused; the rest
 * cost the places left unfilled, less the jokers). Keeps nothing between calls. */
#define MQ (4 * FQ)                     /* q summed over four units */
typedef struct {
    int g, p, q, d;
} MRow;

PyObject *free_merge(PyObject *self, PyObject *args) {
    PyObject *tables_o;
    int groups, jokers, joker_room;
    if (!PyArg_ParseTuple(args, "Oiii", &tables_o, &groups, &jokers, &joker_room))
        return NULL;
    if (groups < 0 || groups > 4 || jokers < 0 || jokers > 1000 || joker_room < 0 ||
        joker_room > 1000) {
        PyErr_SetString(PyExc_ValueError, "groups 0 to 4, jokers and joker_room 0 to 1000");
        return NULL;
    }
    PyObject *tables = PySequence_Tuple(tables_o);
    if (!tables)
        return NULL;
    if (PySequence_Fast_GET_SIZE(tables) > 4) {
        Py_DECREF(tables);
        PyErr_SetString(PyExc_ValueError, "tables: at most four");
        return NULL;
    }
    static short slot[5 * 2 * MQ];     /* (g, p, q) -> index in the new rows + 1, or 0 */
    MRow cur[5 * 2 * MQ], nxt[5 * 2 * MQ], rows[MAXROWS];
    int ncur = 1;
    cur[0] = (MRow){0, 0, 0, 0};
    PyObject *result = NULL;
    for (Py_ssize_t u = 0; u < PySequence_Fast_GET_SIZE(tables); u++) {
        PyObject *table = PySequence_Tuple(PySequence_Fast_GET_ITEM(tables, u));
        if (!table)
            goto done;
        Py_ssize_t nr = PySequence_Fast_GET_SIZE(table);
        if (nr > MAXROWS) {
            Py_DECREF(table);
            PyErr_SetString(PyExc_ValueError, "table: too many rows");
            goto done;
        }
        for (Py_ssize_t i = 0; i < nr; i++) {
            PyObject *row = PySequence_Fast_GET_ITEM(table, i);
            int g, p, q, d;
            if (!is_tuple(row, "table row") ||
                !PyArg_ParseTuple(row, "iiii", &g, &p, &q, &d)) {
                Py_DECREF(table);
                goto done;
            }
            if (g < 0 || g > 4 || p < 0 || p > 1 || q < 0 || q >= FQ || d < 0 || d > 1000) {
                Py_DECREF(table);
                PyErr_SetString(PyExc_ValueError, "table: a row out of range");
                goto done;
            }
            rows[i] = (MRow){g, p, q, d};
        }
        Py_DECREF(table);
        int nn = 0;
        for (int a = 0; a < ncur; a++) {
            const MRow *s = &cur[a];
            for (Py_ssize_t i = 0; i < nr; i++) {
                int g3 = s->g + rows[i].g, p3 = s->p + rows[i].p;
                if (g3 > groups || p3 > 1)
                    continue;
                int q3 = s->q + rows[i].q, d3 = s->d + rows[i].d;
                int key = (g3 * 2 + p3) * MQ + q3;
                int at = slot[key] - 1;
                if (at < 0) {
                    slot[key] = (short)(nn + 1);
                    nxt[nn++] = (MRow){g3, p3, q3, d3};
                } else if (d3 < nxt[at].d) {
                    nxt[at].d = d3;
                }
            }
        }
        for (int a = 0; a < nn; a++) {
            slot[(nxt[a].g * 2 + nxt[a].p) * MQ + nxt[a].q] = 0;
            cur[a] = nxt[a];
        }
        ncur = nn;
    }
    int best = -1;
    for (int a = 0; a < ncur; a++) {
        if (cur[a].q - jokers > joker_room)
            continue;
        int total = cur[a].d + 3 * (groups - cur[a].g) + 2 * (1 - cur[a].p);
        int cost = total > jokers ? total - jokers : 0;
        if (best < 0 || cost < best)
            best = cost;
    }
    if (best < 0) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        result = PyLong_FromLong(best);
    }
done:
    Py_DECREF(tables);
    return result;
}
