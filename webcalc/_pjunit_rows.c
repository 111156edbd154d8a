/* webcalc._pjunit, a free-joker hand's advice in one call, as the API's rows: free_draws
 * (_pjunit_draws.c) and the rows read off its answer, the twin of
 * webcalc/advice_rows.py advice_rows (see there for what the rows are; issue 38: Python only
 * parses the request and shapes the answer). tests/test_advice_rows.py holds the two equal.
 *
 * free_advice(counts, meld_tiles, indicator, kinds, wild, shapes, melds, discards, visible):
 * the first eight arguments as free_draws takes them, visible 34 counts (0 to 4) or empty.
 *   discards None: (shanten, waits, useful, useful_total, any_tile_wait)
 *   else:          (efficiency, discards, shanten)
 * Each kind's {"tile", "remaining", "dead"} is one dict, listed in every row that has it. */
#include "_pjunit.h"
#include "_rowkit.h"

#define RINF 99

typedef struct {
    int gone[34], left[34];
    PyObject *cell[34]; /* borrowed from owned below, made when first listed */
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

/* the kinds of mask as a new list of their cells; *total gets their copies left */
static PyObject *cell_list(Cells *c, uint64_t mask, long *total) {
    PyObject *out = PyList_New(0);
    long sum = 0;
    if (!out)
        return NULL;
    for (int k = 0; mask; k++, mask >>= 1) {
        if (!(mask & 1))
            continue;
        PyObject *d = cell_of(c, k);
        if (!d || PyList_Append(out, d) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        sum += c->left[k];
    }
    *total = sum;
    return out;
}

static int read_triple(PyObject *t, int *d, uint64_t *lower, uint64_t *zero) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
        PyErr_SetString(PyExc_TypeError, "free_advice: free_draws gave no triple");
        return -1;
    }
    *d = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
    *lower = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(t, 1));
    *zero = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(t, 2));
    return PyErr_Occurred() ? -1 : 0;
}

/* A 牌理 row {discard, shanten, useful, useful_total} put at eff[*ne] with its sort key (the
   nearer first, then the more tiles, then the tile; a discard that never wins last). Takes
   the references of useful and sh (either NULL after a failed allocation). 0, or -1 with the
   error set. */
static int put_eff_row(Keyed *eff, int *ne, int t, long d, PyObject *useful, PyObject *sh,
                       long ut) {
    PyObject *tot = PyLong_FromLong(ut);
    PyObject *row = useful && sh && tot ? row4(s_discard, s_code[t], s_shanten, sh, s_useful,
                                               useful, s_useful_total, tot)
                                        : NULL;
    Py_XDECREF(useful);
    Py_XDECREF(sh);
    Py_XDECREF(tot);
    if (!row)
        return -1;
    eff[*ne].key[0] = d >= RINF ? RINF : (d > 1 ? d - 1 : 0);
    eff[*ne].key[1] = d >= RINF ? 0 : -ut;
    eff[*ne].key[2] = t;
    eff[(*ne)++].row = row;
    return 0;
}

static PyObject *advice13(Cells *c, PyObject *answer, uint64_t live) {
    int d;
    uint64_t lower, zero;
    long wt, ut;
    if (read_triple(answer, &d, &lower, &zero) < 0)
        return NULL;
    PyObject *waits = cell_list(c, zero & live, &wt);
    if (!waits)
        return NULL;
    int nlive = 0;
    for (uint64_t m = live; m; m >>= 1)
        nlive += (int)(m & 1);
    PyObject *any = nlive && PyList_GET_SIZE(waits) == nlive ? Py_True : Py_False;
    if (d >= RINF) {
        PyObject *empty = PyList_New(0);
        if (!empty) {
            Py_DECREF(waits);
            return NULL;
        }
        return Py_BuildValue("(ONNiO)", Py_None, waits, empty, 0, any);
    }
    PyObject *useful = cell_list(c, (d == 1 ? zero : lower) & live, &ut);
    if (!useful) {
        Py_DECREF(waits);
        return NULL;
    }
    return Py_BuildValue("(iNNlO)", d > 1 ? d - 1 : 0, waits, useful, ut, any);
}

static PyObject *advice14(Cells *c, PyObject *answer, const int *ds, int nd, int kinds,
                          uint64_t live) {
    Keyed eff[34], ready[34];
    int ne = 0, nr = 0;
    PyObject *out = NULL;
    if (!PyList_Check(answer) || PyList_GET_SIZE(answer) != nd) {
        PyErr_SetString(PyExc_TypeError, "free_advice: free_draws gave no list per discard");
        return NULL;
    }
    for (int e = 0; e < nd; e++) {
        int t = ds[e], d;
        uint64_t lower, zero;
        long wt, ut;
        if (read_triple(PyList_GET_ITEM(answer, e), &d, &lower, &zero) < 0)
            goto fail;
        uint64_t back = t < kinds && c->gone[t] < 5 ? live | (uint64_t)1 << t : live;
        PyObject *wl = cell_list(c, zero & back, &wt);
        if (!wl)
            goto fail;
        Py_ssize_t nw = PyList_GET_SIZE(wl);
        if (nw) {
            PyObject *n = PyLong_FromLong(wt);
            PyObject *row = n ? row4(s_discard, s_code[t], s_waits, wl, s_remaining, n, NULL,
                                     NULL)
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
        if (d >= RINF) {
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
                useful = cell_list(c, lower & back, &ut);
            }
            Py_DECREF(wl);
            sh = PyLong_FromLong(d > 1 ? d - 1 : 0);
        }
        if (put_eff_row(eff, &ne, (int)t, d, useful, sh, ut) < 0)
            goto fail;
    }
    out = advice14_answer(eff, &ne, ready, &nr, RINF);
fail:
    for (int i = 0; i < ne; i++)
        Py_XDECREF(eff[i].row);
    for (int i = 0; i < nr; i++)
        Py_XDECREF(ready[i].row);
    return out;
}

PyObject *free_advice(PyObject *self, PyObject *args) {
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 9) {
        PyErr_SetString(PyExc_TypeError, "free_advice: nine arguments");
        return NULL;
    }
    if (strings_ready() < 0)
        return NULL;
    PyObject *head = PyTuple_GetSlice(args, 0, 8);
    if (!head)
        return NULL;
    PyObject *answer = free_draws(self, head); /* validates the first eight */
    Py_DECREF(head);
    if (!answer)
        return NULL;
    Cells c;
    int counts[34], mt[64], vis[34], ds[34];
    int indicator = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 2));
    int kinds = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 3));
    PyObject *discards_o = PyTuple_GET_ITEM(args, 7), *out = NULL;
    int nm, nv, nd = 0;
    memset(c.cell, 0, sizeof(c.cell));
    if (read_ints(PyTuple_GET_ITEM(args, 0), counts, 34, "counts") != 34
        || (nm = read_ints(PyTuple_GET_ITEM(args, 1), mt, 64, "meld tiles")) < 0
        || (nv = read_ints(PyTuple_GET_ITEM(args, 8), vis, 34, "visible")) < 0
        || (discards_o != Py_None && (nd = read_ints(discards_o, ds, 34, "discards")) < 0)) {
        if (!PyErr_Occurred()) /* an iterator free_draws used up: fewer than 34 counts */
            PyErr_SetString(PyExc_ValueError, "counts: 34 numbers");
        goto done;
    }
    if (nv != 0 && nv != 34) {
        PyErr_SetString(PyExc_ValueError, "visible: 34 numbers or none");
        goto done;
    }
    for (int k = 0; k < nv; k++) {
        if (vis[k] < 0 || vis[k] > 4) {
            PyErr_SetString(PyExc_ValueError, "visible: counts are 0 to 4");
            goto done;
        }
    }
    for (int k = 0; k < 34; k++)
        c.gone[k] = counts[k];
    for (int i = 0; i < nm; i++)
        c.gone[mt[i]]++;
    if (indicator >= 0)
        c.gone[indicator]++;
    uint64_t live = 0;
    for (int k = 0; k < 34; k++) {
        int left = 4 - c.gone[k] - (nv ? vis[k] : 0);
        c.left[k] = left > 0 ? left : 0;
        if (k < kinds && c.gone[k] < 4)
            live |= (uint64_t)1 << k;
    }
    out = discards_o == Py_None ? advice13(&c, answer, live)
                                : advice14(&c, answer, ds, nd, kinds, live);
done:
    for (int k = 0; k < 34; k++)
        Py_XDECREF(c.cell[k]);
    Py_DECREF(answer);
    return out;
}

/* the 14-tile 牌理 rows of n discards, each (ts[e], ds[e], masks[e]) (a distance RINF or
 * more: never ready), as own_rows below says; held, indicator, vis (NULL: none), kinds as
 * own_rows takes them. ready: (the rows, the API's discards rows of the ready ones as
 * efficiency.ready_discard_rows writes them, the best shanten or None) instead of the
 * rows alone. NULL with an exception set (ValueError: counts it does not take). */
PyObject *own_rows_of(const int *ts, const long *ds, const uint64_t *masks, int n,
                      const int *held, int indicator, const int *vis, int kinds, int ready) {
    if (strings_ready() < 0)
        return NULL;
    if (n > 34 || indicator < -1 || indicator > 33 || kinds < 0 || kinds > 34) {
        PyErr_SetString(PyExc_ValueError,
                        "own_rows: at most 34 discards, indicator -1..33, kinds 0..34");
        return NULL;
    }
    Cells c;
    Keyed eff[34], rd[34];
    int ne = 0, nr = 0;
    PyObject *out = NULL;
    memset(c.cell, 0, sizeof(c.cell));
    uint64_t live = 0;
    for (int k = 0; k < 34; k++) {
        if (held[k] < 0 || held[k] > 8 || (vis && (vis[k] < 0 || vis[k] > 4))) {
            PyErr_SetString(PyExc_ValueError, "own_rows: held 0 to 8, visible 0 to 4");
            goto done;
        }
        c.gone[k] = held[k] + (k == indicator);
        int left = 4 - c.gone[k] - (vis ? vis[k] : 0);
        c.left[k] = left > 0 ? left : 0;
        if (k < kinds && c.gone[k] < 4)
            live |= (uint64_t)1 << k;
    }
    for (int e = 0; e < n; e++) {
        int t = ts[e];
        long d = ds[e];
        uint64_t mask = masks[e];
        if (t < 0 || t > 33 || mask >> 34) {
            PyErr_SetString(PyExc_ValueError, "own_rows: t 0..33, mask below 2**34");
            goto done;
        }
        PyObject *useful, *sh;
        long ut = 0;
        if (d >= RINF) {
            useful = PyList_New(0);
            sh = Py_None;
            Py_INCREF(sh);
        } else {
            mask &= t < kinds && c.gone[t] < 5 ? live | (uint64_t)1 << t : live;
            useful = cell_list(&c, mask, &ut);
            sh = PyLong_FromLong(d > 1 ? d - 1 : 0);
        }
        if (ready && d <= 1 && useful) {
            /* ready_discard_rows: {discard, waits (the useful draws), remaining} */
            PyObject *wl = PyList_GetSlice(useful, 0, PyList_GET_SIZE(useful));
            PyObject *tot = wl ? PyLong_FromLong(ut) : NULL;
            PyObject *row = tot ? row4(s_discard, s_code[t], s_waits, wl, s_remaining, tot,
                                       NULL, NULL)
                                : NULL;
            Py_XDECREF(wl);
            Py_XDECREF(tot);
            if (!row) {
                Py_XDECREF(useful);
                Py_XDECREF(sh);
                goto done;
            }
            rd[nr].key[0] = -ut;
            rd[nr].key[1] = -(long)PyList_GET_SIZE(useful);
            rd[nr].key[2] = t;
            rd[nr++].row = row;
        }
        if (put_eff_row(eff, &ne, t, d, useful, sh, ut) < 0)
            goto done;
    }
    if (!ready) {
        if ((out = keyed_list(eff, ne)))
            ne = 0;
    } else {
        out = advice14_answer(eff, &ne, rd, &nr, RINF);
    }
done:
    for (int i = 0; i < ne; i++)
        Py_XDECREF(eff[i].row);
    for (int i = 0; i < nr; i++)
        Py_XDECREF(rd[i].row);
    for (int k = 0; k < 34; k++)
        Py_XDECREF(c.cell[k]);
    return out;
}

/* own_rows(discards, held, indicator, visible, kinds): the 14-tile 牌理 rows of a rule set
 * whose own search gives each discard's distance and useful kinds, the twin of
 * webcalc/efficiency.py _entry_rows (see there); tests/test_pjunit_own_rows.py holds the
 * two equal. discards: (t, d, mask) per discard the rule set allows, mask its kinds as bits;
 * held: the 14 tiles' 34 counts, melds included; indicator: its kind or -1; visible: 34
 * counts (0 to 4) or empty. One {"tile", "remaining", "dead"} dict per kind, as above. */
PyObject *own_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *discards_o, *held_o, *vis_o;
    int indicator, kinds;
    if (!PyArg_ParseTuple(args, "OOiOi", &discards_o, &held_o, &indicator, &vis_o, &kinds))
        return NULL;
    int held[34], vis[34], nv, ts[34];
    long ds[34];
    uint64_t masks[34];
    if (read_ints(held_o, held, 34, "held") != 34
        || (nv = read_ints(vis_o, vis, 34, "visible")) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "held: 34 numbers");
        return NULL;
    }
    if (nv != 0 && nv != 34) {
        PyErr_SetString(PyExc_ValueError,
                        "own_rows: 34 held, 34 visible or none, indicator -1..33, kinds 0..34");
        return NULL;
    }
    PyObject *fast = PySequence_Tuple(discards_o);
    if (!fast)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(fast);
    if (n > 34) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "own_rows: at most 34 discards");
        return NULL;
    }
    for (Py_ssize_t e = 0; e < n; e++) {
        PyObject *item = PyTuple_GET_ITEM(fast, e);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_TypeError, "own_rows: a (t, d, mask) per discard");
            return NULL;
        }
        long t = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
        ds[e] = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        masks[e] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(item, 2));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        ts[e] = t < 0 || t > 33 ? -1 : (int)t;
    }
    Py_DECREF(fast);
    return own_rows_of(ts, ds, masks, (int)n, held, indicator, nv ? vis : NULL, kinds, 0);
}

/* plain_hand(text, tiles, kinds): a hand field in the plain notation (``123m456p11z``: the
 * text webcalc/tiles.py _PLAIN_NOTATION matches whole, digits and suit letters only, 1-7
 * before z, 0 a red five) as (its tiles sorted, from ``tiles`` (ALL_TILES), a tuple; its 34
 * counts, a list), or None: any other text, a kind not below ``kinds``, or more than four
 * of a kind (the general path then reads the field and words what is wrong). The twin of
 * webcalc/analysis.py _plain_hand's Python (plain_kinds and counts_of); tests/test_pjunit.py
 * holds the two equal. */
PyObject *plain_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "plain_hand(text, tiles, kinds)");
        return NULL;
    }
    PyObject *text = args[0], *tiles = args[1];
    long kinds = PyLong_AsLong(args[2]);
    if (kinds == -1 && PyErr_Occurred())
        return NULL;
    if (!PyTuple_Check(tiles) || PyTuple_GET_SIZE(tiles) != 34) {
        PyErr_SetString(PyExc_TypeError, "plain_hand: tiles must be a tuple of 34 tiles");
        return NULL;
    }
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text))
        Py_RETURN_NONE;
    const char *s = (const char *)PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int counts[34] = {0};
    Py_ssize_t i = 0, total = 0;
    if (n == 0)
        Py_RETURN_NONE;
    while (i < n) {                    /* one group: digits, then its suit letter */
        Py_ssize_t j = i;
        while (j < n && s[j] >= '0' && s[j] <= '9')
            j++;
        if (j == i || j == n)
            Py_RETURN_NONE;
        int start;
        switch (s[j]) {
        case 'm': case 'M': start = 0; break;
        case 'p': case 'P': start = 9; break;
        case 's': case 'S': start = 18; break;
        case 'z': case 'Z': start = 27; break;
        default: Py_RETURN_NONE;
        }
        for (Py_ssize_t q = i; q < j; q++) {
            int d = s[q] - '0';
            if (start == 27 && (d < 1 || d > 7))
                Py_RETURN_NONE;
            int k = start + (d == 0 ? 4 : d - 1);
            if (k >= kinds || ++counts[k] > 4)
                Py_RETURN_NONE;
        }
        total += j - i;
        i = j + 1;
    }
    PyObject *held = PyTuple_New(total), *list = PyList_New(34);
    if (held == NULL || list == NULL) {
        Py_XDECREF(held);
        Py_XDECREF(list);
        return NULL;
    }
    Py_ssize_t at = 0;
    for (int k = 0; k < 34; k++) {
        PyObject *c = PyLong_FromLong(counts[k]);
        if (c == NULL) {
            Py_DECREF(held);
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, c);
        PyObject *t = PyTuple_GET_ITEM(tiles, k);
        for (int c2 = 0; c2 < counts[k]; c2++) {
            Py_INCREF(t);
            PyTuple_SET_ITEM(held, at++, t);
        }
    }
    return Py_BuildValue("(NN)", held, list);
}

/* plain_readings(counts, melds): the standard readings of concealed tiles without jokers
 * (``counts``, 34 ints) as ``melds`` sequences/triplets and a pair, each a tuple of group
 * ids sorted (a pair of kind k is k, a sequence from k is 34 + k, a triplet 68 + k: the
 * order of webcalc/decompose.py's split groups), the list sorted and each reading once. The
 * twin of decompose.py _plain_reading_ids (its _plain_splits, read to ids); None when there
 * are more than PR_MAX splits (never for 14 tiles) or a count above four (standard_readings
 * takes any counts; never a request's, C-2): the twin then answers. */
#define PR_MAX 512
#define PR_GROUPS 5
typedef struct {
    int n, len;
    uint8_t ids[PR_MAX][PR_GROUPS];
} Splits;

static void pr_emit(Splits *out, const uint8_t *stack, int depth) {
    if (out->n >= PR_MAX) {
        out->n = PR_MAX + 1;                     /* too many: the caller refuses */
        return;
    }
    uint8_t *row = out->ids[out->n++];
    for (int a = 0; a < depth; a++) {            /* insertion sort of at most 5 ids */
        uint8_t v = stack[a];
        int b = a;
        while (b > 0 && row[b - 1] > v) {
            row[b] = row[b - 1];
            b--;
        }
        row[b] = v;
    }
    out->len = depth;
}

static void pr_dfs(int *c, int start, int melds, int pair, int floor, uint8_t *stack,
                   int depth, Splits *out) {
    int i = start;
    while (i < 34 && !c[i])
        i++;
    if (i == 34) {
        if (melds == 0 && pair == 0)
            pr_emit(out, stack, depth);
        return;
    }
    if (depth >= PR_GROUPS || out->n > PR_MAX)
        return;
    if (i != start)
        floor = 0;
    if (pair && c[i] >= 2 && floor <= 0) {
        c[i] -= 2;
        stack[depth] = (uint8_t)i;
        pr_dfs(c, i, melds, 0, 0, stack, depth + 1, out);
        c[i] += 2;
    }
    if (!melds)
        return;
    if (floor <= 1 && i < 27 && i % 9 < 7 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        stack[depth] = (uint8_t)(34 + i);
        pr_dfs(c, i, melds - 1, pair, 1, stack, depth + 1, out);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    if (c[i] >= 3) {
        c[i] -= 3;
        stack[depth] = (uint8_t)(68 + i);
        pr_dfs(c, i, melds - 1, pair, 2, stack, depth + 1, out);
        c[i] += 3;
    }
}

static int pr_cmp_len;
static int pr_cmp(const void *a, const void *b) {
    return memcmp(a, b, (size_t)pr_cmp_len);
}

PyObject *plain_readings(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *seq;
    int melds;
    if (!PyArg_ParseTuple(args, "Oi", &seq, &melds))
        return NULL;
    int c[34];
    int got = read_ints(seq, c, 34, "counts");
    if (got < 0)
        return NULL;
    if (got != 34) {
        PyErr_SetString(PyExc_ValueError, "plain_readings: 34 counts");
        return NULL;
    }
    if (melds < 0 || melds > 4) {
        PyErr_SetString(PyExc_ValueError, "plain_readings: melds must be 0 to 4");
        return NULL;
    }
    int over = 0;
    for (int k = 0; k < 34; k++) {
        if (c[k] < 0) {
            PyErr_SetString(PyExc_ValueError, "plain_readings: counts must not be negative");
            return NULL;
        }
        over |= c[k] > 4;
    }
    if (over)                 /* five of a kind (never a request's, C-2): the twin lists it */
        Py_RETURN_NONE;
    Splits buf, *out = &buf;
    out->n = 0;
    out->len = melds + 1;
    uint8_t stack[PR_GROUPS];
    pr_dfs(c, 0, melds, 1, 0, stack, 0, out);
    if (out->n > PR_MAX)
        Py_RETURN_NONE;                   /* more than it holds: the Python twin lists them */
    int len = melds + 1, n = out->n;
    pr_cmp_len = len;                     /* the GIL is held: no other call runs this */
    if (n > 1)
        qsort(out->ids, (size_t)n, sizeof(out->ids[0]), pr_cmp);
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        if (r && memcmp(out->ids[r], out->ids[r - 1], (size_t)len) == 0)
            continue;
        PyObject *t = PyTuple_New(len);
        if (t == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        for (int g = 0; g < len; g++) {
            PyObject *v = PyLong_FromLong(out->ids[r][g]);
            if (v == NULL) {
                Py_DECREF(t);
                Py_DECREF(list);
                    return NULL;
            }
            PyTuple_SET_ITEM(t, g, v);
        }
        if (PyList_Append(list, t) < 0) {
            Py_DECREF(t);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(t);
    }
    return list;
}
