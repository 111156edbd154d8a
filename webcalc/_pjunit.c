/* webcalc._pjunit: the 盘锦 per-unit search of webcalc/shanten.py in C.
 *
 * One function, search(), runs the state search that the Python functions unit_panjin,
 * unit_panjin_drawn and unit_panjin_drawn_drops run (the same states, the same
 * transitions, the same bounds, the same dominance pruning), so the pure-Python versions
 * stay the reference: tests/test_pjunit.py checks that both give the same tables, and
 * webcalc/shanten.py falls back to Python when this module was not built.
 *
 * A state is (a, b, g, p, x, fl) as in Python: open places of the sequences begun one
 * and two kinds back, groups, pair, jokers placed, flags. Each state carries one value
 * (r, drawn) per table: r real tiles drawn, drawn the bit set of the kinds some cheapest
 * way to it draws. Table 0 is the unit as held; table e >= 1 is the unit less one tile at
 * drops[e - 1], which starts from the shared prefix when the search reaches that kind.
 *
 * The whole search is decided by its arguments (no state kept between calls).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXN 9                 /* kinds in a unit */
#define MAXE (MAXN + 1)        /* tables: the unit and the unit less one tile per kind */
#define NX 32                  /* jokers placed: 0..31 */
#define NF 32                  /* flags: PRES YJ TRIP SEQ RD */
#define NKEYS (5 * 5 * 5 * 2 * NX * NF)
#define PRES 1
#define YJ 2
#define TRIP 4
#define SEQ 8
#define RD 16
#define NOVAL 0x7fffffff

typedef struct {
    int key;
    int r[MAXE];
    uint64_t m[MAXE];
} State;

typedef struct {
    State *s;
    int n, cap;
    int *slot;                  /* key -> index in s + 1, or 0 (calloc: untouched pages of
                                 * the map are never made resident) */
} Table;

static int table_init(Table *t) {
    t->cap = 256;
    t->n = 0;
    t->s = PyMem_Malloc(sizeof(State) * t->cap);
    t->slot = PyMem_Calloc(NKEYS, sizeof(int));
    if (!t->s || !t->slot)
        return -1;
    return 0;
}

static void table_clear(Table *t) {
    for (int i = 0; i < t->n; i++)
        t->slot[t->s[i].key] = 0;
    t->n = 0;
}

static State *table_get(Table *t, int key) {
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

static inline int pack(int a, int b, int g, int p, int x, int fl) {
    return ((((a * 5 + b) * 5 + g) * 2 + p) * NX + x) * NF + fl;
}

/* _prune_drops: a table's value is dropped when another state with the same key but for
 * flags, a superset of its flags with the same PRES bit, is cheaper there, or as cheap
 * with every kind it draws; a state with no value left is dropped. */
static int prune(Table *src, Table *dst, int ne) {
    table_clear(dst);
    for (int i = 0; i < src->n; i++) {
        State *s = &src->s[i];
        int head = s->key & ~(NF - 1);
        int fl = s->key & (NF - 1);
        int free_bits = ~fl & (NF - 1) & ~PRES;
        State kept;
        int any = 0;
        for (int e = 0; e < ne; e++) {
            kept.r[e] = NOVAL;
            int r = s->r[e];
            if (r == NOVAL)
                continue;
            uint64_t m = s->m[e];
            int beaten = 0;
            /* every proper superset f2 of fl with the same PRES bit */
            for (int sub = free_bits; sub && !beaten; sub = (sub - 1) & free_bits) {
                int j = src->slot[head | fl | sub] - 1;
                if (j < 0)
                    continue;
                State *o = &src->s[j];
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

/* The sequences are read through a private tuple (PySequence_Tuple), never a caller's list
 * in place: an item's __index__ may run Python code that empties the list being read. */
static int read_ints(PyObject *seq, int *out, int maxn, const char *what) {
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > maxn) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", what, maxn);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* a unit's counts: none negative, none above 14; else ValueError (a count of 5 does
 * come: tables.unit_additions adds a tile to a kind held four times) */
static int check_unit(const int *unit, int n) {
    for (int i = 0; i < n; i++) {
        if (unit[i] < 0 || unit[i] > 14) {
            PyErr_SetString(PyExc_ValueError, "unit: counts are 0 to 14");
            return -1;
        }
    }
    return 0;
}

/* PyArg_ParseTuple on something that is not a tuple raises SystemError: a TypeError first */
static int is_tuple(PyObject *o, const char *what) {
    if (PyTuple_Check(o))
        return 1;
    PyErr_Format(PyExc_TypeError, "%s: a tuple, not %.100s", what, Py_TYPE(o)->tp_name);
    return 0;
}

/* a unit's caps (copies of each kind there are to place): -64 to 64, else ValueError (a
 * cap far below zero made places - cap overflow into a negative key) */
static int read_caps(PyObject *seq, int *caps) {
    int n = read_ints(seq, caps, MAXN, "caps");
    for (int i = 0; i < n; i++) {
        if (caps[i] < -64 || caps[i] > 64) {
            PyErr_SetString(PyExc_ValueError, "caps: -64 to 64");
            return -1;
        }
    }
    return n;
}

/* shanten.py _joker_room: the most jokers a kind's places take, ``beside`` those its held
 * real tiles leave open, and more (each displacing a held tile, thrown away) only up to the
 * held jokers not yet placed (PJ-2: a held wildcard is never discarded) */
static inline int joker_room(int beside, int held_left) {
    return beside >= held_left ? beside : held_left;
}

static PyObject *search_impl(PyObject *self, PyObject *args) {
    PyObject *unit_o, *caps_o, *yj_o, *bound_o, *drops_o;
    int start, honors, max_x, limit, jokers, need_x, groups, track_rd, track_mask;
    if (!PyArg_ParseTuple(args, "OOOiiiiiiiOOpp", &unit_o, &caps_o, &yj_o, &start, &honors,
                          &max_x, &limit, &jokers, &need_x, &groups, &bound_o, &drops_o,
                          &track_rd, &track_mask))
        return NULL;
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
    /* rest[g][p] (10 numbers, g = 0..4, p = 0..1): at least how many places of g groups
     * and p pairs the other units leave unfilled (panjin_rest_places); bound[g][p][v + 14]:
     * _suffix_bound, at least how many places stay unfilled when g groups and p pairs are
     * still to make and the unit's open places exceed its real tiles still to come by v */
    int rest[10], bound[5 * 2 * 41];
    int bounded = bound_o != Py_None;
    if (bounded) {
        if (read_ints(bound_o, rest, 10, "rest") != 10) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "rest: 10 items");
            return NULL;
        }
        for (int g = 0; g < 5; g++)
            for (int p = 0; p < 2; p++)
                for (int v = -14; v < 27; v++) {
                    int best = 0x3fffffff;
                    for (int gs = 0; gs <= g; gs++)
                        for (int ps = 0; ps <= p; ps++) {
                            int own = 3 * gs + 2 * ps + v;
                            int val = (own > 0 ? own : 0) + rest[(g - gs) * 2 + (p - ps)];
                            if (val < best)
                                best = val;
                        }
                    bound[(g * 2 + p) * 41 + v + 14] = best;
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
            return NULL;
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

    /* three tables kept between calls (their key maps are 1 MB each: cleared entry by
     * entry, never reallocated); the GIL is held throughout, so one set serves all */
    static Table t0, t1, t2;
    static int ready = 0;
    if (!ready) {
        if (table_init(&t0) || table_init(&t1) || table_init(&t2))
            return PyErr_NoMemory();
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
        table_clear(&nxt);
        for (int k = 0; k < cur.n && !failed; k++) {
            State *st = &cur.s[k];
            int key = st->key;
            int fl = key % NF;
            int x = (key / NF) % NX;
            int p = (key / (NF * NX)) % 2;
            int g = (key / (NF * NX * 2)) % 5;
            int b = (key / (NF * NX * 10)) % 5;
            int a = key / (NF * NX * 50);
            int room = max_x - x;
            int open_ = a + b;
            if (open_ > cap + room)
                continue;
            int smax = s_top < 4 - g ? s_top : 4 - g;
            for (int s = 0; s <= smax; s++) {
                int f_s = s ? (fl | SEQ) : fl;
                for (int t = 0; t < ntrips; t++) {
                    int g2 = g + s + t;
                    if (g2 > 4 || g2 > groups)
                        break;
                    int f_t = t ? (f_s | TRIP) : f_s;
                    for (int pr = 0; pr <= (p ? 0 : 1); pr++) {
                        int free_ = open_ + s + 2 * pr;
                        int places = free_ + 3 * t;
                        int lo = places > cap ? places - cap : 0;
                        int held = c_low < places ? c_low : places;
                        int hi = free_;
                        if (room < hi) hi = room;
                        int beside = joker_room(places - held, jokers - x);
                        if (beside < hi) hi = beside;
                        int lb = 0;
                        int still = 3 * (groups - g2) + 2 * (1 - p - pr) + b + 2 * s;
                        if (bounded) {
                            /* below -14 the bound no longer changes (3g + 2p <= 14) */
                            int v = b + 2 * s - h_i;
                            if (v < -14) v = -14;
                            lb = bound[((groups - g2) * 2 + (1 - p - pr)) * 41 + v + 14]
                                 - jokers;
                        }
                        if (need_x > 0) {
                            int low = need_x - x - still;
                            if (low > lo) lo = low;
                        }
                        for (int y = lo; y <= hi; y++) {
                            int x2 = x + y;
                            int thr = NOVAL;
                            if (bounded) {
                                int ex = x2 > jokers ? x2 - jokers : 0;
                                int m = lb + x2 > ex ? lb + x2 : ex;
                                thr = limit - m;
                                if (thr < 0)
                                    continue;
                            }
                            int real = places - y;
                            int f = real ? (f_t | real_bits) : f_t;
                            if (honors && pr && !y)
                                f |= TRIP;
                            int okey_base = pack(b, s, g2, p + pr, x2, 0);
                            State *out = NULL;
                            for (int q = 0; q < ne; q++) {
                                int e = entries[q];
                                int r = st->r[e];
                                if (r == NOVAL)
                                    continue;
                                int c = ce_c[e];
                                if (s > ce_s[e]
                                    || y > joker_room(places - (c < places ? c : places),
                                                      jokers - x))
                                    continue;
                                int d = real > c ? real - c : 0;
                                int r2 = r + d;
                                if (r2 > thr)
                                    continue;
                                int f2 = (d && track_rd) ? (f | RD) : f;
                                uint64_t m2 = d ? (st->m[e] | bit) : st->m[e];
                                if (track_rd) {
                                    out = table_get(&nxt, okey_base + f2);
                                } else if (!out) {
                                    out = table_get(&nxt, okey_base + f2);
                                }
                                if (!out) {
                                    failed = 1;
                                    break;
                                }
                                int old = out->r[e];
                                if (old == NOVAL || r2 < old) {
                                    out->r[e] = r2;
                                    out->m[e] = m2;
                                } else if (r2 == old) {
                                    out->m[e] |= m2;
                                }
                            }
                            if (failed) break;
                        }
                        if (failed) break;
                    }
                    if (failed) break;
                }
                if (failed) break;
            }
        }
        if (failed)
            break;
        if (nxt.n > 48 || i == n - 1) {
            if (prune(&nxt, &tmp, ntab)) { failed = 1; break; }
            Table sw = cur; cur = tmp; tmp = sw;
        } else {
            Table sw = cur; cur = nxt; nxt = sw;
        }
    }
    PyObject *result = NULL;
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyList_New(ntab);
    if (!result)
        goto done;
    for (int e = 0; e < ntab; e++) {
        PyObject *lst = PyList_New(0);
        if (!lst) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, e, lst);
    }
    for (int k = 0; k < cur.n; k++) {
        State *st = &cur.s[k];
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
    /* the tables may have grown or swapped roles: keep them all for the next call */
    table_clear(&cur);
    table_clear(&nxt);
    table_clear(&tmp);
    t0 = cur;
    t1 = nxt;
    t2 = tmp;
    return result;
}


/* merge(acc, table, groups, max_x, jokers, limit, counts_suit, want, k_u) -> dict: one
 * merge step of panjin_standard_drawn / panjin_discards_drawn (shanten.py _merge_drawn):
 * acc {(g, p, x, n, f): (r, drawn)} with a unit's table rows (g, p, x, flags, r, drawn),
 * then the dominance pruning of _prune_drawn. */
#define MKEYS (5 * 2 * NX * 4 * NF)

static inline int mpack(int g, int p, int x, int n, int f) {
    return (((g * 2 + p) * NX + x) * 4 + n) * NF + f;
}

static PyObject *merge_impl(PyObject *self, PyObject *args) {
    PyObject *acc, *table_o;
    int groups, max_x, jokers, limit, counts_suit, want, k_u;
    if (!PyArg_ParseTuple(args, "O!Oiiiipii", &PyDict_Type, &acc, &table_o, &groups, &max_x,
                          &jokers, &limit, &counts_suit, &want, &k_u))
        return NULL;
    if (groups < 0 || groups > 4) {
        PyErr_SetString(PyExc_ValueError, "groups: 0 to 4");
        return NULL;
    }
    static Table a, b;
    static int ready = 0;
    if (!ready) {
        if (table_init(&a) || table_init(&b))
            return PyErr_NoMemory();
        ready = 1;
    }
    PyObject *table = PySequence_Tuple(table_o);
    if (!table)
        return NULL;
    PyObject *items = PyDict_Items(acc);     /* a private snapshot, as read_ints */
    if (!items) {
        Py_DECREF(table);
        return NULL;
    }
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(table);
    int (*rows)[5] = PyMem_Malloc(sizeof(int[5]) * (nt ? nt : 1));
    uint64_t *rm = PyMem_Malloc(sizeof(uint64_t) * (nt ? nt : 1));
    PyObject *result = NULL;
    Table cur = a, out = b;
    table_clear(&cur);
    table_clear(&out);
    if (!rows || !rm) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(table, i);
        unsigned long long m;
        if (!is_tuple(row, "table row") || !PyArg_ParseTuple(row, "iiiiiK", &rows[i][0], &rows[i][1], &rows[i][2],
                              &rows[i][3], &rows[i][4], &m))
            goto done;
        if (rows[i][0] < 0 || rows[i][0] > 4 || rows[i][1] < 0 || rows[i][1] > 1 ||
            rows[i][2] < 0 || rows[i][2] >= NX || rows[i][3] < 0 || rows[i][3] >= NF) {
            PyErr_SetString(PyExc_ValueError, "table: a row out of range");
            goto done;
        }
        rm[i] = m;
    }
    for (Py_ssize_t it = 0; it < PyList_GET_SIZE(items); it++) {
        PyObject *key, *val;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(items, it), "OO", &key, &val))
            goto done;
        int g, p, x, n, f, r;
        unsigned long long m;
        if (!is_tuple(key, "acc key") || !is_tuple(val, "acc value") ||
            !PyArg_ParseTuple(key, "iiiii", &g, &p, &x, &n, &f) ||
            !PyArg_ParseTuple(val, "iK", &r, &m))
            goto done;
        if (g < 0 || g > 4 || p < 0 || p > 1 || x < 0 || x >= NX || n < 0 || n > 3 ||
            f < 0 || f >= NF) {
            PyErr_SetString(PyExc_ValueError, "acc: a key out of range");
            goto done;
        }
        for (Py_ssize_t i = 0; i < nt; i++) {
            int g3 = g + rows[i][0], p3 = p + rows[i][1], x3 = x + rows[i][2];
            int fl = rows[i][3];
            if (g3 > groups || p3 > 1 || x3 > max_x || x3 >= NX)
                continue;
            int still = 3 * (groups - g3) + 2 * (1 - p3);
            if (x3 + still < jokers)
                continue;
            int r3 = r + rows[i][4];
            int lb = x3 - jokers;
            if (still + x3 - k_u > lb) lb = still + x3 - k_u;
            if (lb < 0) lb = 0;
            if (r3 + lb > limit)
                continue;
            int n3 = (counts_suit && (fl & PRES)) ? n + 1 : n;
            if (n3 > 3) {
                PyErr_SetString(PyExc_ValueError, "more than three suits");
                goto done;
            }
            State *st = table_get(&cur, mpack(g3, p3, x3, n3, f | (fl & want)));
            if (!st) {
                PyErr_NoMemory();
                goto done;
            }
            uint64_t m3 = (uint64_t)m | rm[i];
            if (st->r[0] == NOVAL || r3 < st->r[0]) {
                st->r[0] = r3;
                st->m[0] = m3;
            } else if (r3 == st->r[0]) {
                st->m[0] |= m3;
            }
        }
    }
    if (prune(&cur, &out, 1)) {
        PyErr_NoMemory();          /* prune fails only when a table cannot grow */
        goto done;
    }
    result = PyDict_New();
    if (!result)
        goto done;
    for (int k = 0; k < out.n; k++) {
        State *st = &out.s[k];
        int kk = st->key;
        int f = kk % NF, n = (kk / NF) % 4, x = (kk / (NF * 4)) % NX;
        int p = (kk / (NF * 4 * NX)) % 2, g = kk / (NF * 4 * NX * 2);
        PyObject *kt = Py_BuildValue("(iiiii)", g, p, x, n, f);
        PyObject *vt = Py_BuildValue("(iK)", st->r[0], (unsigned long long)st->m[0]);
        if (!kt || !vt || PyDict_SetItem(result, kt, vt) < 0) {
            Py_XDECREF(kt);
            Py_XDECREF(vt);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(kt);
        Py_DECREF(vt);
    }
done:
    PyMem_Free(rows);
    PyMem_Free(rm);
    Py_DECREF(table);
    Py_DECREF(items);
    table_clear(&cur);
    table_clear(&out);
    a = cur;
    b = out;
    return result;
}

/* free_unit(unit, caps, honors) -> [(g, p, q, D), ...]: shanten.py unit_free with jokers
 * (三门峡, 郑州, 晋城, and 盘锦's looser bounds): the per-unit table, jokers anywhere,
 * Pareto-minimal in (q, D) for each (g, p), rows in (g, p, q) order. Only groups touching a
 * held tile of the unit are built; q counts places beyond a kind's cap (jokers there). */
#define FQ 32
#define FKEYS (5 * 5 * 5 * 2 * FQ)

/* One row of a free-joker unit table (shanten.py unit_free): (g, p, q, D). */
typedef struct {
    uint8_t g, p, q, d;
} Row;
#define MAXROWS (5 * 2 * FQ)      /* at most one Pareto row per (g, p, q) */

/* unit_free's table with jokers: the Pareto rows in (g, p, q) order into out (MAXROWS), their
 * number returned, or -1 (ValueError set) for more than 31 places beyond the caps. The
 * counts and caps are checked by the callers (0-14, -64-64). */
static int free_rows(const int *unit, const int *caps, int n, int honors, Row *out) {
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

static PyObject *rows_list(const Row *rows, int nr) {
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

static PyObject *free_unit(PyObject *self, PyObject *args) {
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
static PyObject *fold_impl(PyObject *self, PyObject *args) {
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
static PyObject *fold_draws_impl(PyObject *self, PyObject *args) {
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

/* needs(unit, honors, in_triplet) -> (n0, n1): tables.py unit_needs, the fewest jokers
 * that complete the unit's real tiles into groups (n0) or groups and one pair (n1), every
 * real tile used. A DP over the kinds: the sequences begun one and two kinds back still
 * open, and whether the pair is placed; at each kind s sequences begin (at most four: five
 * alike would leave one all jokers, which an optimum drops), t triplets (jokers in them
 * only with in_triplet, else t <= count / 3 of real tiles) and maybe the pair; the kind's
 * real tiles must all find places, jokers fill the rest. tables.py's recursive _need stays
 * the reference (tests/test_pjunit.py). */
static PyObject *needs(PyObject *self, PyObject *args) {
    PyObject *unit_o;
    int honors, in_triplet;
    if (!PyArg_ParseTuple(args, "Opp", &unit_o, &honors, &in_triplet))
        return NULL;
    int unit[MAXN + 2] = {0};
    int n = read_ints(unit_o, unit, MAXN, "unit");
    if (n < 0 || check_unit(unit, n) < 0)
        return NULL;
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
    int n0 = dp[0][0][0], n1 = dp[0][0][1];
    return Py_BuildValue("(ii)", n0 == NOVAL ? 99 : n0, n1 == NOVAL ? 99 : n1);
}

/* plain_unit(unit, caps, honors) -> [(g, p, 0, D), ...]: shanten.py _plain_rows, unit_free
 * without jokers: the fewest draws D per (g, p), no place beyond a kind's cap, only groups
 * touching a held tile of the unit; rows in (g, p) order. */
static int plain_rows(const int *unit, const int *caps, int n, int honors, Row *out) {
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

static PyObject *plain_unit(PyObject *self, PyObject *args) {
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

/* rest_places(m0, m1, m2, m3) -> (rest without unit 0, ..., without unit 3): shanten.py
 * _rest_places_all from the four units' minima (_unit_free_min: ten numbers [g * 2 + p],
 * 99 for none). For each unit left out, the other three combined (min-plus, groups up to
 * four, one pair), then rest[g][p] = min(acc[g][p], rest[g - 1][p] + 3, rest[g][p - 1] + 2)
 * capped at 99, as ((r00, r01), ..., (r40, r41)). */
static void min_plus(const int *a, const int *b, int *out) {
    for (int k = 0; k < 10; k++)
        out[k] = 99;
    for (int i = 0; i < 10; i++) {
        if (a[i] >= 99)
            continue;
        for (int j = 0; j < 10; j++) {
            if (b[j] >= 99 || ((i & 1) && (j & 1)) || i + j >= 10)
                continue;
            if (a[i] + b[j] < out[i + j])
                out[i + j] = a[i] + b[j];
        }
    }
}

static PyObject *rest_places(PyObject *self, PyObject *args) {
    PyObject *mo[4];
    if (!PyArg_ParseTuple(args, "OOOO", &mo[0], &mo[1], &mo[2], &mo[3]))
        return NULL;
    int m[4][10];
    for (int u = 0; u < 4; u++) {
        int got = read_ints(mo[u], m[u], 10, "minima");
        if (got < 0)
            return NULL;
        if (got != 10) {
            PyErr_SetString(PyExc_ValueError, "minima: 10 numbers");
            return NULL;
        }
    }
    int m01[10], m23[10], w[4][10];
    min_plus(m[0], m[1], m01);
    min_plus(m[2], m[3], m23);
    min_plus(m[1], m23, w[0]);
    min_plus(m[0], m23, w[1]);
    min_plus(m01, m[3], w[2]);
    min_plus(m01, m[2], w[3]);
    PyObject *out = PyTuple_New(4);
    if (!out)
        return NULL;
    for (int u = 0; u < 4; u++) {
        int r[5][2];
        for (int g = 0; g < 5; g++) {
            int r0 = w[u][g * 2], r1 = w[u][g * 2 + 1];
            if (g) {
                if (r[g - 1][0] + 3 < r0) r0 = r[g - 1][0] + 3;
                if (r[g - 1][1] + 3 < r1) r1 = r[g - 1][1] + 3;
            }
            if (r0 + 2 < r1) r1 = r0 + 2;
            r[g][0] = r0 < 99 ? r0 : 99;
            r[g][1] = r1 < 99 ? r1 : 99;
        }
        PyObject *t = Py_BuildValue("((ii)(ii)(ii)(ii)(ii))", r[0][0], r[0][1], r[1][0], r[1][1],
                                    r[2][0], r[2][1], r[3][0], r[3][1], r[4][0], r[4][1]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, u, t);
    }
    return out;
}

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
 * Unit tables are kept between calls in two bounded caches (plain: no jokers at all; free:
 * with), keyed by the unit's counts and caps: a table is a pure function of its key. */

#define TINF 99
#define BIG 100000
#define PC_BITS 17
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
static int unit_rows(const int *unit, const int *caps, int n, int honors, int any_jokers,
                     Row *out) {
    uint64_t key = 1;
    for (int i = 0; i < n; i++)
        key = (key << 6) | (uint64_t)(unit[i] << 3 | caps[i]);
    key = (key << 2) | (uint64_t)(honors << 1 | (any_jokers ? 1 : 0));
    int pad[MAXN + 2] = {0};
    for (int i = 0; i < n; i++)
        pad[i] = unit[i];
    if (!any_jokers) {
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
        int nr = plain_rows(pad, caps, n, honors, out);
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
    uint64_t wild;
} FreeHand;

typedef int States[5][2][32];      /* merged units: (g, p, q) -> D, BIG for none */

static void states_clear(States s) {
    for (int g = 0; g < 5; g++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < 32; q++)
                s[g][p][q] = BIG;
}

/* out = a merged with one more unit's rows (groups <= G, one pair, q <= qm) */
static void states_merge(States a, const Row *rows, int nr, int G, int qm, States out) {
    states_clear(out);
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
static int lookup(const int *unit, const int *caps, int u, int any_jokers, Tab *out) {
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
        out->n = unit_rows(su, sc, n, 1, any_jokers, out->r);
    } else {
        out->n = unit_rows(unit, caps, n, 0, any_jokers, out->r);
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

static Tab lone[2][10];            /* [any_jokers][rank, or 9 for an honor] */
static int lone_ready[2];

static int lone_tables(int any_jokers) {
    if (lone_ready[any_jokers])
        return 0;
    int caps[MAXN] = {4, 4, 4, 4, 4, 4, 4, 4, 4};
    for (int i = 0; i < 10; i++) {
        int unit[MAXN] = {0};
        unit[i < 9 ? i : 0] = 1;
        if (lookup(unit, caps, i < 9 ? 0 : 3, any_jokers, &lone[any_jokers][i]) < 0)
            return -1;
    }
    lone_ready[any_jokers] = 1;
    return 0;
}

/* d_std of the hand (base) and of the hand with each kind drawn (std): T the four units'
 * tables, D[k] the table of k's unit with k drawn, or NULL (far[k]: from the lone tile;
 * else not drawn: a wildcard, or a kind held four times) */
static void eval_std(const FreeHand *h, Tab *const T[4], Tab *const D[34], const int *far,
                     int *std, int *base_out) {
    int G = h->groups, J = h->jokers, qm = h->jokers + h->room;
    Tab *lt = lone[qm > 0];
    States zero_s, tmp, s01, s23, all, best;
    states_clear(zero_s);
    zero_s[0][0][0] = 0;
    states_merge(zero_s, T[0]->r, T[0]->n, G, qm, tmp);
    states_merge(tmp, T[1]->r, T[1]->n, G, qm, s01);
    states_merge(zero_s, T[2]->r, T[2]->n, G, qm, tmp);
    states_merge(tmp, T[3]->r, T[3]->n, G, qm, s23);
    states_merge(s01, T[2]->r, T[2]->n, G, qm, tmp);
    states_merge(tmp, T[3]->r, T[3]->n, G, qm, all);
    states_best(all, G, qm, best);
    int v = best[0][0][0];
    int base = v >= BIG ? TINF : (v > J ? v - J : 0);
    *base_out = base;
    for (int k = 0; k < 34; k++) {
        if (h->wild >> k & 1)
            std[k] = base < TINF ? (base > 1 ? base - 1 : 0) : TINF;
        else if (far[k])
            std[k] = finish_rows(best, lt[k < 27 ? k % 9 : 9].r, lt[k < 27 ? k % 9 : 9].n, G,
                                 qm, J);
        else
            std[k] = TINF;
    }
    for (int u = 0; u < 4; u++) {
        int a = UNIT_A[u], n = UNIT_N[u], any = 0;
        for (int i = 0; i < n; i++)
            any |= D[a + i] != NULL;
        if (!any)
            continue;
        int other = u < 2 ? 1 - u : 5 - u;               /* the pair partner */
        States rest;
        states_merge(u < 2 ? s23 : s01, T[other]->r, T[other]->n, G, qm, rest);
        states_best(rest, G, qm, tmp);
        for (int i = 0; i < n; i++)
            if (D[a + i])
                std[a + i] = finish_rows(tmp, D[a + i]->r, D[a + i]->n, G, qm, J);
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
    int dk[34], d0 = TINF;
    for (int k = -1; k < 34; k++) {
        if (k >= 0 && c[k] >= 4) {
            dk[k] = TINF;
            continue;
        }
        int best_d = k < 0 ? base : std[k];
        if (h->shapes & SH_SEVEN) {
            int hh[3] = {hist[0], hist[1], hist[2]};
            if (k >= 0) {
                slots(c[k], h->face[k], hh, -1);
                slots(c[k] + 1, h->face[k], hh, 1);
            }
            int d = seven_of(hh);
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
            if (k >= 0)
                for (int i = 0; i < 13; i++)
                    if (ORPH[i] == k) {
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

/* the drawn tables of unit u as held in h (NULL where far, wild or held four times) */
static int drawn_tables(const FreeHand *h, int u, Tab *store, Tab **D, int *far) {
    int a = UNIT_A[u], n = UNIT_N[u], any_jokers = h->jokers + h->room > 0;
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
        int unit[MAXN];
        for (int j = 0; j < n; j++)
            unit[j] = h->real[a + j];
        unit[i]++;
        if (lookup(unit, h->caps + a, u, any_jokers, &store[i]) < 0)
            return -1;
        D[k] = &store[i];
    }
    return 0;
}

static Tab tb_base[4], tb_drawn[34], tb_unit, tb_unit_drawn[MAXN];

static PyObject *triple(int d, uint64_t lower, uint64_t zero) {
    return Py_BuildValue("(iKK)", d, (unsigned long long)lower, (unsigned long long)zero);
}

/* (d, lower, zero) of the 13-tile hand h */
static PyObject *draws13(const FreeHand *h) {
    int any_jokers = h->jokers + h->room > 0;
    if (lone_tables(any_jokers) < 0)
        return NULL;
    Tab *T[4], *D[34];
    int far[34], std[34], base, d;
    for (int u = 0; u < 4; u++) {
        if (lookup(h->real + UNIT_A[u], h->caps + UNIT_A[u], u, any_jokers, &tb_base[u]) < 0
            || drawn_tables(h, u, tb_drawn + UNIT_A[u], D, far) < 0)
            return NULL;
        T[u] = &tb_base[u];
    }
    eval_std(h, T, D, far, std, &base);
    uint64_t lo, ze;
    shape_masks(h, std, base, &d, &lo, &ze);
    return triple(d, lo, ze);
}

/* per discard of the 14-tile hand h, (d, lower, zero) of the 13 tiles left: the units a
 * discard leaves alone keep their tables and drawn tables */
static PyObject *draws14(const FreeHand *h, const int *ds, int nd) {
    int any_jokers = h->jokers + h->room > 0;
    if (lone_tables(any_jokers) < 0)
        return NULL;
    Tab *TB[4], *DB[34];
    int farB[34];
    for (int u = 0; u < 4; u++) {
        if (lookup(h->real + UNIT_A[u], h->caps + UNIT_A[u], u, any_jokers, &tb_base[u]) < 0
            || drawn_tables(h, u, tb_drawn + UNIT_A[u], DB, farB) < 0)
            return NULL;
        TB[u] = &tb_base[u];
    }
    PyObject *out = PyList_New(nd);
    if (!out)
        return NULL;
    for (int e = 0; e < nd; e++) {
        FreeHand h2 = *h;
        int t = ds[e];
        Tab *T[4] = {TB[0], TB[1], TB[2], TB[3]}, *D[34];
        int far[34];
        memcpy(D, DB, sizeof(D));
        memcpy(far, farB, sizeof(far));
        h2.counts[t]--;
        if (h->wild >> t & 1) {
            h2.jokers--;
            if (h->face[t] >= h->counts[t])
                h2.room++;
        } else {
            h2.real[t]--;
            int u = t < 27 ? t / 9 : 3;
            if (lookup(h2.real + UNIT_A[u], h2.caps + UNIT_A[u], u, any_jokers, &tb_unit) < 0
                || drawn_tables(&h2, u, tb_unit_drawn, D, far) < 0) {
                Py_DECREF(out);
                return NULL;
            }
            T[u] = &tb_unit;
        }
        int std[34], base, d;
        uint64_t lo, ze;
        eval_std(&h2, T, D, far, std, &base);
        shape_masks(&h2, std, base, &d, &lo, &ze);
        PyObject *tr = triple(d, lo, ze);
        if (!tr) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, e, tr);
    }
    return out;
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

static PyObject *free_draws(PyObject *self, PyObject *args) {
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
 * a server's workers fork with them (webcalc/warmup.py); returns how many were looked up */
static PyObject *free_warm(PyObject *self, PyObject *args) {
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
                if (lookup(unit, caps, u, any_jokers, &tab) < 0)
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

static PyObject *free_cache_info(PyObject *self, PyObject *args) {
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

/* search, merge and fold / fold_draws keep tables between calls (the static Table and DMap
 * sets): a call made while one of them runs (an argument's __index__ or __iter__ calling
 * back in) would reuse, clear or reallocate the tables under it. Such a call raises
 * RuntimeError instead. */
static int busy_search, busy_merge, busy_fold;

#define GUARDED(name, flag)                                                              \
    static PyObject *name(PyObject *self, PyObject *args) {                              \
        if (flag) {                                                                      \
            PyErr_SetString(PyExc_RuntimeError, #name ": called while running");        \
            return NULL;                                                                 \
        }                                                                                \
        flag = 1;                                                                        \
        PyObject *r = name##_impl(self, args);                                           \
        flag = 0;                                                                        \
        return r;                                                                        \
    }
GUARDED(search, busy_search)
GUARDED(merge, busy_merge)
GUARDED(fold, busy_fold)
GUARDED(fold_draws, busy_fold)

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(unit, caps, yj, start, honors, max_x, limit, jokers, need_x, groups, rest, "
     "drops, track_rd, track_mask) -> [rows of the unit, rows of the unit less one tile at "
     "each of drops]; each row (g, p, x, flags, r, drawn). See webcalc/shanten.py."},
    {"merge", merge, METH_VARARGS,
     "merge(acc, table, groups, max_x, jokers, limit, counts_suit, want, k_u) -> dict: "
     "one merge step of panjin_standard_drawn, pruned. See webcalc/shanten.py _merge_drawn."},
    {"free_unit", free_unit, METH_VARARGS,
     "free_unit(unit, caps, honors) -> [(g, p, q, D), ...]: unit_free with jokers, "
     "Pareto rows in (g, p, q) order. See webcalc/shanten.py unit_free."},
    {"fold", fold, METH_VARARGS,
     "fold(states, unit, caps, honors, any_jokers, groups, jokers, joker_room, limit, after) "
     "-> {(g, p, q): D}. See webcalc/shanten.py free_unit_states."},
    {"fold_draws", fold_draws, METH_VARARGS,
     "fold_draws(states, unit, caps, honors, any_jokers, groups, jokers, joker_room, limit, "
     "draws) -> set of kinds. See webcalc/shanten.py free_unit_draws."},
    {"needs", needs, METH_VARARGS,
     "needs(unit, honors, in_triplet) -> (n0, n1): jokers completing the unit into groups "
     "/ groups and a pair. See webcalc/tables.py unit_needs."},
    {"plain_unit", plain_unit, METH_VARARGS,
     "plain_unit(unit, caps, honors) -> [(g, p, 0, D), ...]: unit_free without jokers. "
     "See webcalc/shanten.py _plain_rows."},
    {"rest_places", rest_places, METH_VARARGS,
     "rest_places(m0, m1, m2, m3) -> four rest tables. See webcalc/shanten.py "
     "_rest_places_all."},
    {"free_draws", free_draws, METH_VARARGS,
     "free_draws(counts, meld_tiles, indicator, kinds, wild, shapes, melds, discards) -> "
     "(d, lower, zero), or per discard a list of them. See webcalc/efficiency.py "
     "FreeOracle."},
    {"free_warm", free_warm, METH_VARARGS,
     "free_warm(max_tiles, any_jokers) -> tables looked up: fills free_draws' cache with "
     "the unit patterns of up to max_tiles tiles (webcalc/warmup.py)."},
    {"free_cache_info", free_cache_info, METH_NOARGS,
     "free_cache_info() -> (hits, misses) of free_draws' unit tables."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "webcalc._pjunit",
    "The 盘锦 per-unit search of webcalc/shanten.py, compiled.", -1, methods,
};

PyMODINIT_FUNC PyInit__pjunit(void) { return PyModule_Create(&module); }
