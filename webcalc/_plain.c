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
 * shapes: free_draws' bits (1 seven pairs, 2 four wildcards, 4 knitted, 8 thirteen
 * orphans). tests/test_plain_advice.py holds the three equal.
 *
 * With wildcards in play (the optional wild, the wildcard kinds as bits, indicator, its
 * kind, and meld_tiles and melds as free_draws takes them; 34 kinds): free_draws reads such a hand first in its relaxed tables (no
 * caps: a function of the counts alone, mode M_RELAXED), and they settle it unless
 * relaxed_exact fails. Those have dense slots of their own here (the same layout, 3.9 MB
 * more, allocated on the first such hand, filled as met or by warm(True) in about 0.5-0.9
 * s), and _plain_wild.c answers as free_draws does, or None where the relaxed tables do
 * not settle the hand (then free_advice's capped tables answer): 0 of 3,600 bench hands of
 * 三门峡 and 郑州 with 0-2 wildcard tiles, about a third of tests/test_plain_advice.py's
 * random ones without 四混. Melds without wildcards in play (the plain tables with the
 * melds' caps) are not taken. */
#include "_plain.h"
#include "_rowkit.h"

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
static int read_hand(PyObject *counts_o, int shapes, PyObject *discards_o, int melds, int *c,
                     int *ds, int *nd) {
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
    if (melds < 0 || melds > 4)
        return 0;
    total += 3 * melds;
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

/* the triples: 1, 0 (not taken here), -1 (an error). wa: the wildcard kinds, the
 * indicator, the melds (none: a plain hand) */
static int compute(const int *c, int shapes, const int *ds, int nd, const WArgs *wa,
                   Triple *out) {
    if (tables_alloc() < 0)
        return -1;
    if (wa->wild || wa->indicator >= 0 || wa->melds) {
        if (wa->wild >> 34 || wa->indicator < -1 || wa->indicator > 33)
            return 0;
        if (rtables_alloc() < 0)
            return -1;
        if (nd < 0)
            return wdraws13(c, shapes, wa, out) < 0 ? 0 : 1;
        for (int e = 0; e < nd; e++)       /* a wildcard discarded: one of them held */
            if (wa->wild >> ds[e] & 1 && !c[ds[e]])
                return 0;
        return wdraws14(c, shapes, wa, ds, nd, out) < 0 ? 0 : 1;
    }
    if (nd < 0)
        return draws13(c, shapes, out) < 0 ? 0 : 1;
    return draws14(c, shapes, ds, nd, out) < 0 ? 0 : 1;
}

/* the optional arguments: wild, indicator, meld tiles (kinds 0-33), melds; 1, or 0 when
 * they are not such (no error set), -1 with an error set */
static int read_wargs(unsigned long long wild, int indicator, PyObject *mt_o, int melds,
                      WArgs *wa) {
    wa->wild = wild;
    wa->indicator = indicator;
    wa->melds = melds;
    memset(wa->meld_count, 0, sizeof(wa->meld_count));
    if (!mt_o)
        return 1;
    PyObject *f = PySequence_Fast(mt_o, "meld tiles");
    if (!f) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(f, i);
        long v = PyLong_Check(x) ? PyLong_AsLong(x) : -1;
        if (v < 0 || v > 33 || n > 64) {
            PyErr_Clear();
            Py_DECREF(f);
            return 0;
        }
        wa->meld_count[v]++;
    }
    Py_DECREF(f);
    return 1;
}

static PyObject *triple_obj(const Triple *t) {
    return Py_BuildValue("(iKK)", t->d, (unsigned long long)t->lower,
                         (unsigned long long)t->zero);
}

/* draws(counts, shapes, discards, wild=0, indicator=-1, meld_tiles=(), melds=0) ->
 * free_draws' answer, or None */
static PyObject *draws(PyObject *self, PyObject *args) {
    PyObject *counts_o, *discards_o, *mt_o = NULL;
    int shapes, c[34], ds[34], nd, indicator = -1, melds = 0;
    unsigned long long wild = 0;
    Triple out[34];
    WArgs wa;
    if (!PyArg_ParseTuple(args, "OiO|KiOi", &counts_o, &shapes, &discards_o, &wild, &indicator,
                          &mt_o, &melds))
        return NULL;
    int r = read_hand(counts_o, shapes, discards_o, melds, c, ds, &nd);
    if (r > 0)
        r = read_wargs(wild, indicator, mt_o, melds, &wa);
    if (r > 0)
        r = compute(c, shapes, ds, nd, &wa, out);
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
            PyObject *row = n ? row4(s_discard, s_code[t], s_waits, wl, s_remaining, n,
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
                            ? row4(s_discard, s_code[t], s_shanten, sh, s_useful, useful,
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
    out = advice14_answer(eff, &ne, ready, &nr, TINF);
fail:
    for (int i = 0; i < ne; i++)
        Py_XDECREF(eff[i].row);
    for (int i = 0; i < nr; i++)
        Py_XDECREF(ready[i].row);
    return out;
}

/* advice(counts, shapes, discards, visible, wild=0, indicator=-1, meld_tiles=(), melds=0)
 * -> free_advice's answer, or None */
static PyObject *advice(PyObject *self, PyObject *args) {
    PyObject *counts_o, *discards_o, *visible_o, *mt_o = NULL;
    int shapes, c[34], ds[34], nd, vis[34], nv, indicator = -1, melds = 0, gone[34];
    unsigned long long wild = 0;
    Triple tr[34];
    WArgs wa;
    if (!PyArg_ParseTuple(args, "OiOO|KiOi", &counts_o, &shapes, &discards_o, &visible_o,
                          &wild, &indicator, &mt_o, &melds))
        return NULL;
    int r = read_hand(counts_o, shapes, discards_o, melds, c, ds, &nd);
    if (r > 0)
        r = read_counts(visible_o, vis, 1, &nv);
    if (r > 0)
        r = read_wargs(wild, indicator, mt_o, melds, &wa);
    if (r > 0)
        r = compute(c, shapes, ds, nd, &wa, tr);
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
        gone[k] = c[k] + (k == indicator) + wa.meld_count[k];
        int left = 4 - gone[k] - (nv ? vis[k] : 0);
        cells.left[k] = left > 0 ? left : 0;
        if (gone[k] < 4)
            live |= (uint64_t)1 << k;
    }
    PyObject *out = nd < 0 ? advice13(&cells, &tr[0], live)
                           : advice14(&cells, gone, tr, ds, nd, live);
    for (int k = 0; k < 34; k++)
        Py_XDECREF(cells.cell[k]);
    return out;
}

/* warm(relaxed=False) -> tables built now: every suit pattern of at most 14 tiles and every
 * honors pattern, the plain tables or the relaxed ones (about 0.3-0.8 s each; a server's
 * master fills them before its workers fork) */
static PyObject *warm(PyObject *self, PyObject *args) {
    int relaxed = 0;
    if (!PyArg_ParseTuple(args, "|p", &relaxed))
        return NULL;
    long n = relaxed ? warm_rtables() : warm_tables();
    return n < 0 ? NULL : PyLong_FromLong(n);
}

/* unit(counts, honors, stored, relaxed=False) -> [(g, p, 0, D), ...] in (g, p) order, as
 * _pjunit.plain_unit(counts, (4, ...), honors) (relaxed: _pjunit.free_unit(counts, (31, ...),
 * honors)): the table of a suit (9 counts, at most 14
 * tiles) or of the honors (7 counts), its slot's (stored: filled if empty) or built anew */
static PyObject *unit(PyObject *self, PyObject *args) {
    PyObject *o;
    int honors, stored, relaxed = 0, cu[9], s = 0;
    if (!PyArg_ParseTuple(args, "Opp|p", &o, &honors, &stored, &relaxed))
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
    if (tables_alloc() < 0 || (relaxed && rtables_alloc() < 0))
        return NULL;
    uint64_t t = stored ? table_in(cu, honors ? 3 : 0, relaxed)
                        : (relaxed ? unit_build_r : unit_build)(cu, n, honors);
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

/* info() -> (bytes of the plain tables, suit tables built, honors tables built, bytes of
 * the relaxed tables, relaxed suit tables built, relaxed honors tables built) */
static PyObject *info(PyObject *self, PyObject *noargs) {
    long one = (long)((n_suits + NHON) * (long)sizeof(uint64_t));
    return Py_BuildValue("(llllll)", suit_tab ? one : 0L, built_suits, built_honors,
                         suit_rtab ? one : 0L, built_rsuits, built_rhonors);
}

static PyMethodDef methods[] = {
    {"advice", advice, METH_VARARGS,
     "advice(counts, shapes, discards, visible, wild=0, indicator=-1, meld_tiles=(), melds=0)"
     " -> _pjunit.free_advice(counts, meld_tiles, indicator, 34, wild, shapes, melds, "
     "discards, visible)'s answer, or None. See the module."},
    {"draws", draws, METH_VARARGS,
     "draws(counts, shapes, discards, wild=0, indicator=-1, meld_tiles=(), melds=0) -> "
     "_pjunit.free_draws(counts, meld_tiles, indicator, 34, wild, shapes, melds, "
     "discards)'s answer, or None."},
    {"warm", warm, METH_VARARGS,
     "warm(relaxed=False) -> how many unit tables (plain or relaxed) were built now."},
    {"unit", unit, METH_VARARGS,
     "unit(counts, honors, stored, relaxed=False) -> [(g, p, 0, D), ...]: a unit's table, "
     "as _pjunit.plain_unit(counts, (4, ...), honors), or relaxed (no caps)."},
    {"info", info, METH_NOARGS,
     "info() -> (bytes, suit tables built, honors tables built, and the same of the "
     "relaxed tables)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "webcalc._plain",
                                    "A plain hand's advice from dense unit tables.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__plain(void) { return PyModule_Create(&module); }
