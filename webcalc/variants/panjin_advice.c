/* webcalc._pjunit's panjin_advice(): 盘锦's 13-tile advice in one compiled call (issue 38,
 * "one compiled call per hand"), the twin of the Python path of own_advice in
 * webcalc/variants/panjin_advice.py (its count, the waits' limit-1 search, the waits'
 * candidates and filter with their split search, the useful draws' bounded searches and
 * the rows), which stays the reference: tests/test_panjin_advice_c.py holds the two equal,
 * compiled and with WEBCALC_PURE_PYTHON=1.
 *
 * It calls the searches it stands in front of as they are (panjin_lower.c pj_count_lower,
 * panjin_hand.c pj_relaxed_bounds, suit_req and pj_standard_drawn — relaxed_rest's,
 * suit_rests' and standard_drawn's numbers, read once a hand with no tuple between them —,
 * _pjunit_flags.c achievable_flags): nothing of theirs changes, only the Python between
 * them goes. What it does not cover
 * (七对 with its option and no melds, more jokers than the searches take, a count or a
 * split search that refuses the counts) it answers None for, and the Python path answers.
 * Part of the one extension webcalc._pjunit (setup.py; the method table in
 * webcalc/_pjunit.c guards it like standard_drawn: it runs that search's tables). */
#include "panjin_advice.h"
#include "../_rowkit.h"

static const unsigned char YJ_K[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0,
                                       1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};

/* 34 numbers as a tuple */
static PyObject *int_tuple(const int *v) {
    PyObject *t = PyTuple_New(34);
    for (int k = 0; t && k < 34; k++) {
        PyObject *n = PyLong_FromLong(v[k]);
        if (!n) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, k, n);
    }
    return t;
}

/* the tuples hand_search passes, made from h's numbers when first needed: 0, or -1 with
 * an exception set */
static int hand_tuples(Hand *h) {
    if (h->real && h->caps && h->rest)
        return 0;
    if (hand_minima(h) < 0)
        return -1;
    hand_clear(h);
    if (!(h->real = int_tuple(h->r)) || !(h->caps = int_tuple(h->c))
        || !(h->rest = PyTuple_New(40))) {
        hand_clear(h);
        return -1;
    }
    for (int i = 0; i < 40; i++) {
        PyObject *n = PyLong_FromLong(h->rs[i]);
        if (!n) {
            hand_clear(h);
            return -1;
        }
        PyTuple_SET_ITEM(h->rest, i, n);
    }
    return 0;
}

PyObject *hand_search(Hand *h, int limit, int need_real, PyObject *discards) {
    if (hand_tuples(h) < 0)
        return NULL;
    PyObject *args = discards
        ? Py_BuildValue("(OOiiiiiiiiNOO)", h->real, h->caps, h->jokers, h->max_x, h->groups,
                        h->suits0, h->want, h->allowed, h->jokers, limit,
                        PyBool_FromLong(need_real), h->rest, discards)
        : Py_BuildValue("(OOiiiiiiiiNO)", h->real, h->caps, h->jokers, h->max_x, h->groups,
                        h->suits0, h->want, h->allowed, h->jokers, limit,
                        PyBool_FromLong(need_real), h->rest);
    if (!args)
        return NULL;
    PyObject *found = discards ? discards_drawn_impl(NULL, args)
                               : standard_drawn_impl(NULL, args);
    Py_DECREF(args);
    return found;
}

int read_found(PyObject *found, int *d, uint64_t *mask, int *wild) {
    if (found == Py_None)
        return 0;
    *d = (int)PyLong_AsLong(PyTuple_GET_ITEM(found, 0));
    *mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(found, 1));
    *wild = PyTuple_GET_ITEM(found, 2) == Py_True;
    return PyErr_Occurred() ? -1 : 1;
}

/* panjin_standard_drawn of the hand at limit (need_real: the discard-win rule): 1 with
 * *d, *mask, *wild set, 0 for None, -1 with an exception set. The search standard_drawn
 * runs (pj_standard_drawn), on h's numbers as standard_drawn would read and check them:
 * no tuple made or read */
int hand_standard(Hand *h, int limit, int need_real, int *d, uint64_t *mask, int *wild) {
    if (h->none)
        return 0;
    /* the rows table (panjin_table.c), once per discard rule: the least distance with no
     * limit, so every limit reads the same answer */
    int nr = need_real ? 1 : 0, tab = hand_table(h, need_real);
    if (tab == 2)
        return 0;
    if (tab == 1) {
        if (h->tab_d[nr] > limit)
            return 0;
        *d = h->tab_d[nr];
        *mask = h->tab_m[nr];
        *wild = h->tab_w[nr];
        return 1;
    }
    if (hand_minima(h) < 0)
        return -1;
    if (h->whole >= AINF || (h->whole > h->jokers ? h->whole - h->jokers : 0) > limit)
        return 0;                                 /* _lower: no target within limit */
    if (pj_hand_ok(h->r, h->c, h->jokers, h->max_x, h->groups, h->suits0, h->want, limit) < 0)
        return -1;
    if (!h->has_req) {
        suit_req_of(h->m, h->suits0, h->allowed, h->req);
        h->has_req = 1;
    }
    long long best;
    if (pj_standard_drawn(h->r, h->c, h->rs, h->req, h->jokers, h->max_x, h->groups,
                          h->suits0, h->want, h->allowed, h->jokers, limit, need_real, &best,
                          mask, wild) < 0)
        return -1;
    if (best < 0 || best > limit)
        return 0;
    *d = (int)best;
    return 1;
}

/* Panjin._structure_ok (no 七对 here) of the hand with one joker more: 1, 0, -1 with an
 * exception set, -2 when achievable_flags refuses the counts */
static int wild_completes(Hand *h, const int *real, int trip0, int seq0, int piaohu) {
    int need = h->groups, total = h->jokers + 1;
    for (int k = 0; k < 34; k++)
        total += real[k];
    if (total != 3 * need + 2)
        return 0;
    if (hand_tuples(h) < 0)
        return -1;
    PyObject *argv[5] = {h->real, PyLong_FromLong(h->jokers + 1), PyLong_FromLong(need),
                         PyLong_FromLong(1), Py_False};
    PyObject *flags = NULL;
    if (argv[1] && argv[2] && argv[3])
        flags = achievable_flags(NULL, argv, 5);
    Py_XDECREF(argv[1]);
    Py_XDECREF(argv[2]);
    Py_XDECREF(argv[3]);
    if (!flags)
        return -1;
    if (flags == Py_None) {
        Py_DECREF(flags);
        return -2;
    }
    long m = PyLong_AsLong(flags);
    Py_DECREF(flags);
    for (int b = 0; b < 4; b++) {
        if (!(m >> b & 1))
            continue;
        int trip = b >> 1, seq = (b & 1) || seq0;
        if (!(trip || trip0))
            continue;                             /* PJ-6 */
        if (seq && need == 0)
            continue;                             /* PJ-7: 手把一 only as 飘胡 */
        if (seq || piaohu)
            return 1;
    }
    return 0;
}

/* the {"tile", "remaining", "dead"} dict of kind k, made once and shared */
static PyObject *cell(PyObject **cells, const int *left, int k) {
    if (!cells[k]) {
        PyObject *rem = PyLong_FromLong(left[k]);
        if (!rem)
            return NULL;
        cells[k] = row4(s_tile, s_code[k], s_remaining, rem, s_dead,
                        left[k] ? Py_False : Py_True, NULL, NULL);
        Py_DECREF(rem);
    }
    return cells[k];
}

/* the kinds of mask (below kinds, with a copy not held or shown) as a list of cells */
static PyObject *cell_rows(PyObject **cells, const int *left, uint64_t mask, long *total) {
    PyObject *out = PyList_New(0);
    for (int k = 0; out && k < 34; k++) {
        if (!(mask >> k & 1))
            continue;
        PyObject *c = cell(cells, left, k);
        if (!c || PyList_Append(out, c) < 0) {
            Py_CLEAR(out);
            break;
        }
        if (total)
            *total += left[k];
    }
    return out;
}

int read_advice_args(PyObject *args, AdviceArgs *a, int useful) {
    PyObject *real_o, *caps_o, *wild_o, *held_o, *vis_o;
    a->useful = 1;
    if (!PyArg_ParseTuple(args, useful ? "OOiiiiipppOOiOip" : "OOiiiiipppOOiOi", &real_o,
                          &caps_o, &a->jokers, &a->room, &a->groups, &a->flags, &a->allowed,
                          &a->piaohu, &a->need_real, &a->seven, &wild_o, &held_o,
                          &a->indicator, &vis_o, &a->kinds, &a->useful))
        return -1;
    int wk[34], nw;
    if (read_ints(real_o, a->real, 34, "real") != 34
        || (caps_o != Py_None && read_ints(caps_o, a->caps, 34, "caps") != 34)
        || read_ints(held_o, a->held, 34, "held") != 34
        || (a->nv = read_ints(vis_o, a->vis, 34, "visible")) < 0
        || (nw = read_ints(wild_o, wk, 34, "wild")) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "real, caps, held: 34 numbers");
        return -1;
    }
    if ((a->nv && a->nv != 34) || a->indicator < -1 || a->indicator > 33 || a->kinds < 0
        || a->kinds > 34 || a->groups < 0 || a->groups > 4 || a->jokers < 0 || a->room < 0) {
        PyErr_SetString(PyExc_ValueError, "panjin_advice: an argument out of range");
        return -1;
    }
    a->wmask = 0;
    for (int i = 0; i < nw; i++) {
        if (wk[i] < 0 || wk[i] > 33) {
            PyErr_SetString(PyExc_ValueError, "wild: kinds 0..33");
            return -1;
        }
        a->wmask |= (uint64_t)1 << wk[i];
    }
    if (caps_o == Py_None) {
        /* hand_caps' real caps and joker room: per kind 4 copies, 3 of the indicator's,
         * less the melds' (held less the concealed), none below 0; a wildcard kind's real
         * cap 0, its copies not held the room */
        a->room = 0;
        for (int k = 0; k < 34; k++) {
            int face = 4 - (k == a->indicator);
            if (a->wmask >> k & 1) {
                a->caps[k] = 0;
                if (face > a->held[k])
                    a->room += face - a->held[k];
            } else {
                face -= a->held[k] - a->real[k];
                a->caps[k] = face > 0 ? face : 0;
            }
        }
    }
    if ((a->seven && a->groups == 4) || a->jokers + a->room >= 32 || a->jokers >= 32)
        return 1;                                 /* 七对, too many jokers: the Python path */
    for (int k = 0; k < 34; k++)
        if (a->real[k] < 0 || a->real[k] > 4)
            return 1;                             /* counts count_lower does not take */
    return 0;
}

int advice_count(const AdviceArgs *a, const int *real) {
    int m[4][10];
    if (pj_relaxed_minima(real, m) < 0)
        return -1;
    return advice_count_of(a, real, m);
}

int advice_count_of(const AdviceArgs *a, const int *real, int m[4][10]) {
    int lower = pj_count_lower_of(real, m, a->caps, a->jokers, a->groups, a->allowed,
                                  a->flags & 31);
    if (lower < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return -1;
        PyErr_Clear();                            /* counts it does not take: Python */
        return -2;
    }
    return lower;
}

void hand_init(Hand *h, const AdviceArgs *a) {
    int yj0 = a->flags >> 3 & 1, trip0 = a->flags >> 4 & 1, seq0 = a->flags >> 5 & 1;
    h->real = h->caps = h->rest = NULL;
    h->jokers = a->jokers;
    h->max_x = a->jokers + a->room;
    h->groups = a->groups;
    h->suits0 = a->flags & 7;
    h->allowed = a->allowed;
    h->whole = 0;
    h->has_req = h->has_m = 0;
    h->tab[0] = h->tab[1] = 0;
    h->want = (yj0 ? 0 : A_YJ) | (trip0 ? 0 : A_TRIP);
    if (!a->piaohu && !seq0 && a->groups)
        h->want |= A_SEQ;
    h->none = a->groups == 0 && (seq0 || !a->piaohu);
}

int hand_counts(Hand *h, const int *real, const int *caps) {
    hand_clear(h);
    h->has_req = h->has_m = 0;
    h->tab[0] = h->tab[1] = 0;
    memcpy(h->r, real, sizeof(h->r));
    memcpy(h->c, caps, sizeof(h->c));
    return 0;
}

int hand_minima(Hand *h) {
    if (h->has_m)
        return 0;
    int whole[10];
    if (pj_relaxed_minima(h->r, h->m) < 0)
        return -1;
    pj_relaxed_bounds_of(h->m, whole, h->rs);
    h->whole = whole[h->groups * 2 + 1];
    h->has_m = 1;
    return 0;
}

int hand_table(Hand *h, int need_real) {
    int nr = need_real ? 1 : 0;
    if (!h->tab[nr]) {
        int got = h->none ? -2
                          : pjt_standard(h->r, h->c, h->jokers, h->max_x, h->groups, h->suits0,
                                         h->want, h->allowed, nr, &h->tab_d[nr], &h->tab_m[nr],
                                         &h->tab_w[nr]);
        h->tab[nr] = got == 1 ? 1 : got == 0 ? 2 : 3;
    }
    return h->tab[nr];
}

void hand_clear(Hand *h) {
    Py_CLEAR(h->real);
    Py_CLEAR(h->caps);
    Py_CLEAR(h->rest);
}

/* panjin_advice(real, caps, jokers, room, groups, flags, allowed, piaohu, need_real,
 * seven_pairs, wild, held, indicator, visible, kinds, useful) -> (shanten, waits, useful,
 * useful_total, any_tile_wait) or None: own_advice of a 13-tile hand (see the top).
 * real, caps: the real counts and caps (34 each); room: the jokers' room (hand_caps;
 * caps None: both worked out here as hand_caps does, from held and indicator, room unread);
 * flags: panjin_meld_flags as bits (suits 0-2, 幺九 3, 刻 4, 顺 5); allowed: the suit
 * counts as a bit set; wild: the wildcard kinds; held: the 34 counts held (melds
 * included); indicator: its kind or -1; visible: 34 counts or empty. */
PyObject *panjin_advice_impl(PyObject *self, PyObject *args) {
    (void)self;
    AdviceArgs a;
    int ok = read_advice_args(args, &a, 1);
    if (ok)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    const int *real = a.real, *held = a.held, *vis = a.vis;
    int room = a.room, allowed = a.allowed, piaohu = a.piaohu,
        need_real = a.need_real, indicator = a.indicator, kinds = a.kinds, useful = a.useful,
        nv = a.nv;
    uint64_t wmask = a.wmask;
    int suits0 = a.flags & 7, yj0 = a.flags >> 3 & 1, trip0 = a.flags >> 4 & 1,
        seq0 = a.flags >> 5 & 1;
    Hand h;
    hand_init(&h, &a);
    PyObject *result = NULL, *cells[34] = {NULL}, *waits = NULL, *rows = NULL;
    if (hand_counts(&h, real, a.caps) < 0)
        goto done;
    /* the count (count_lower), or where the rows table covers the hand its exact distance
     * (panjin_table.c): the searches below then read that answer */
    int lower, tab = hand_table(&h, 0);
    if (tab != 3) {
        lower = tab == 1 ? h.tab_d[0] : AINF;
    } else {
        /* the units' relaxed minima, looked up once for the count, the bounds and
         * suit_req */
        if (hand_minima(&h) < 0)
            goto done;
        lower = advice_count_of(&a, real, h.m);
        if (lower < 0) {
            if (lower == -2)
                result = Py_NewRef(Py_None);
            goto done;
        }
    }
    /* the waits' limit-1 search (Panjin._ready_search) */
    int rd = 0, rwild = 0, found = 0;
    uint64_t rmask = 0;
    if (lower <= 1 && (found = hand_standard(&h, 1, 0, &rd, &rmask, &rwild)) < 0)
        goto done;
    /* the waits (winning_kinds, live_only): the kinds the search draws, proven, and the
     * wildcard kinds when one draws a wildcard (none for a discard win), each by the split
     * search with one joker more */
    uint64_t wait = 0;
    if (found) {
        wait = rmask & ~wmask;
        /* _drawn_kinds, less the wildcards for a discard win; _standard_filter keeps a
         * wildcard kind when one draws a wildcard or none is left to draw */
        uint64_t wc = rwild ? wmask : rmask & wmask;
        if (need_real || !(rwild || room < 1))
            wc = 0;
        if (wc) {
            int suits = suits0, yj = yj0;
            for (int k = 0; k < 34; k++)
                if (real[k]) {
                    if (k < 27)
                        suits |= 1 << (k / 9);
                    yj |= YJ_K[k];
                }
            int ns = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1), ok = 0;
            if ((allowed >> ns & 1) && yj) {
                ok = wild_completes(&h, real, trip0, seq0, piaohu);
                if (ok == -2) {
                    result = Py_None;             /* the Python path */
                    Py_INCREF(result);
                    goto done;
                }
                if (ok < 0)
                    goto done;
            }
            if (ok)
                wait |= wc;
        }
    }
    /* the rows */
    if (strings_ready() < 0)
        goto done;
    int left[34], live = 0;
    uint64_t alive = 0;
    for (int k = 0; k < 34; k++) {
        int gone = held[k] + (k == indicator);
        int l = 4 - gone - (nv ? vis[k] : 0);
        left[k] = l > 0 ? l : 0;
        if (k < kinds && gone < 4) {
            alive |= (uint64_t)1 << k;
            live++;
        }
    }
    int n_waits = 0;
    for (int k = 0; k < 34; k++)
        n_waits += (wait & alive) >> k & 1;
    waits = cell_rows(cells, left, wait & alive, NULL);
    if (!waits)
        goto done;
    PyObject *any_tile = live && n_waits == live ? Py_True : Py_False;
    /* the useful draws (useful_search with what is known): bounded searches from the
     * count up, the limit-1 one the waits' own */
    int d0 = AINF;
    uint64_t drawn = 0;
    if (useful && lower < AINF) {
        for (int b = lower; b < 15; b++) {
            int d = 0, w = 0, got;
            uint64_t m = 0;
            if (b == 1 && !need_real) {
                got = found;
                d = rd, m = rmask, w = rwild;
            } else if ((got = hand_standard(&h, b, need_real, &d, &m, &w)) < 0) {
                goto done;
            }
            if (got) {
                d0 = d;
                drawn = m | (w ? wmask : 0);
                break;
            }
        }
        if (need_real && d0 == 1)
            drawn = wait;                         /* C-12: a ready hand's waits */
    }
    if (d0 >= AINF) {
        result = Py_BuildValue("(OO[]iO)", Py_None, waits, 0, any_tile);
        goto done;
    }
    long total = 0;
    rows = cell_rows(cells, left, drawn & alive, &total);
    if (rows)
        result = Py_BuildValue("(iOOlO)", d0 > 1 ? d0 - 1 : 0, waits, rows, total, any_tile);
done:
    hand_clear(&h);
    Py_XDECREF(waits);
    Py_XDECREF(rows);
    for (int k = 0; k < 34; k++)
        Py_XDECREF(cells[k]);
    return result;
}
