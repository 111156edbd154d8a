/* webcalc._pjunit's panjin_advice14(): 盘锦's 14-tile advice, every discard, in one compiled
 * call (issue 38, "one compiled call per hand"): the 牌理 rows, the ready discards' rows and
 * the best shanten that webcalc/analysis.py analyze() otherwise reads off
 * webcalc/efficiency.py efficiency() (Panjin.discards_search: panjin_draws.discards_search,
 * its count and its searches of every discard at once; Panjin.discards_useful:
 * panjin_draws.discards_useful; efficiency._own_draws and _compiled_entries) and
 * ready_discard_rows(). That Python path stays the reference:
 * tests/test_panjin_advice14_c.py holds the two equal, compiled and with
 * WEBCALC_PURE_PYTHON=1.
 *
 * It calls the searches it stands in front of as they are (panjin_lower.c pj_count_lower,
 * panjin_hand.c discards_drawn_impl, pj_standard_drawn and pj_relaxed_bounds, through
 * panjin_advice.c's helpers) and _pjunit_rows.c's rows (own_rows_of): only the Python
 * between them goes. What it does not cover (七对 with its option and no melds, a hand of
 * (nearly) only wildcards, more jokers than the searches take, counts the count or the rows
 * refuse) it answers None for, and the Python path answers. Its arguments are
 * panjin_advice's less useful (panjin_advice.h reads them); the method table in
 * webcalc/_pjunit.c guards it like discards_drawn: it runs that search's tables. */
#include "panjin_advice.h"

/* what the rows table answered of each discard without the discard-win rule (the waits
 * of a discard ready for a discard win): cov[i] 1 where it answered, d0[i], mask0[i] */
typedef struct {
    int cov[34], d0[34];
    uint64_t mask0[34];
} Waits0;

/* panjin_discards_drawn of the 14-tile hand at limit for the n kinds ks: found[i] 1 with
 * d[i], mask[i], wild[i] set, 0 for None; 0, or -1 with an exception set */
static int discards_at(Hand *h, int limit, int need_real, const int *ks, int n, int *found,
                       int *d, uint64_t *mask, int *wild, Waits0 *w0) {
    memset(found, 0, sizeof(int) * (size_t)n);
    memset(w0->cov, 0, sizeof(w0->cov));
    if (h->none)
        return 0;                                 /* no target at all (PJ-7, no groups) */
    /* the rows table's answers (panjin_table.c pjt_discards), the search's for the rest */
    int *cov = w0->cov, rest[34], nrest = 0;
    pjt_discards(h->r, h->c, h->jokers, h->max_x, h->groups, h->suits0, h->want, h->allowed,
                 need_real, limit, ks, n, cov, found, d, mask, wild,
                 need_real ? w0->d0 : NULL, w0->mask0);
    for (int i = 0; i < n; i++)
        if (!cov[i])
            rest[nrest++] = i;
    if (!nrest)
        return 0;
    PyObject *list = PyList_New(nrest);
    for (int j = 0; list && j < nrest; j++) {
        PyObject *k = PyLong_FromLong(ks[rest[j]]);
        if (!k)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, j, k);
    }
    if (!list)
        return -1;
    PyObject *res = hand_search(h, limit, need_real, list);
    Py_DECREF(list);
    if (!res)
        return -1;
    for (int j = 0; j < nrest; j++) {
        int i = rest[j];
        if ((found[i] = read_found(PyList_GET_ITEM(res, j), &d[i], &mask[i], &wild[i])) < 0)
            break;
    }
    Py_DECREF(res);
    return PyErr_Occurred() ? -1 : 0;
}

/* the waits of the 13 tiles real13 for a discard win (Panjin.winning_kinds, those with a
 * live copy: the kinds the limit-1 search draws, no wildcard kind): 0 with *out set, -1
 * with an exception set, -2 for counts the count does not take */
static int discard_waits(const AdviceArgs *a, Hand *h13, const int *real13, uint64_t *out) {
    *out = 0;
    if (hand_counts(h13, real13, a->caps) < 0)
        return -1;
    int tab = hand_table(h13, 0);
    if (tab != 3) {                               /* the rows table's answer */
        if (tab == 1 && h13->tab_d[0] <= 1)
            *out = h13->tab_m[0] & ~a->wmask;
        return 0;
    }
    int lower = advice_count(a, real13);
    if (lower < 0)
        return lower;
    if (lower > 1)
        return 0;                                 /* no complete hand one tile away */
    int d, w;
    uint64_t m;
    int got = hand_standard(h13, 1, 0, &d, &m, &w);
    if (got < 0)
        return -1;
    if (got)
        *out = m & ~a->wmask;
    return 0;
}

/* panjin_advice14(real, caps, jokers, room, groups, flags, allowed, piaohu, need_real,
 * seven_pairs, wild, held, indicator, visible, kinds) -> (efficiency, discards, shanten)
 * or None: the 14-tile hand's 牌理 rows (efficiency()), its ready discards' rows
 * (ready_discard_rows()) and the best shanten of its discards (None: none is ever ready;
 * the caller makes it -1 for a complete hand). The arguments as panjin_advice takes them
 * (panjin_advice.c), of the 14 tiles. */
PyObject *panjin_advice14_impl(PyObject *self, PyObject *args) {
    (void)self;
    AdviceArgs a;
    int ok = read_advice_args(args, &a, 0);
    if (ok)
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    int ks[34], n = 0, concealed = a.jokers;
    for (int k = 0; k < 34; k++) {
        concealed += a.real[k];
        if (a.real[k])
            ks[n++] = k;
    }
    if (a.jokers >= concealed - 1)
        Py_RETURN_NONE;                           /* discards_search: discard by discard */
    Hand h, h13;
    hand_init(&h, &a);
    hand_init(&h13, &a);
    PyObject *result = NULL;
    int found[34], d[34], wild[34];
    uint64_t mask[34];
    Waits0 w0;
    memset(found, 0, sizeof(found));
    memset(w0.cov, 0, sizeof(w0.cov));
    if (hand_counts(&h, a.real, a.caps) < 0)
        goto done;
    int tab = hand_table(&h, a.need_real);
    if (tab != 3) {
        /* the rows table covers the 14 tiles: their exact distance d14 at once, then every
         * discard at d14 + 1 — what the two passes below come to (a pass at the count + 1
         * that finds every discard finds them at d14 + 1 too: the count is at most d14) */
        int d14 = h.tab_d[a.need_real ? 1 : 0];
        if (tab == 1 && d14 <= 15 - 3 * (4 - a.groups) &&
            discards_at(&h, d14 + 1, a.need_real, ks, n, found, d, mask, wild, &w0) < 0)
            goto done;
    } else {
        /* discards_search: every discard at one above the count, and where one has no
         * result there, at the 14 tiles' distance plus one */
        int lower = advice_count(&a, a.real);
        if (lower < 0) {
            if (lower == -2)
                result = Py_NewRef(Py_None);
            goto done;
        }
        if (lower < AINF) {
            if (discards_at(&h, lower + 1, a.need_real, ks, n, found, d, mask, wild, &w0) < 0)
                goto done;
            int all = 1, any = 0;
            for (int i = 0; i < n; i++) {
                all &= found[i];
                any |= found[i];
            }
            if (!all) {
                /* _standard_distance from max(count, start) up */
                int d14 = -1, from = any ? lower : lower + 1;
                for (int b = from; b <= 15 - 3 * (4 - a.groups); b++) {
                    int dd, ww;
                    uint64_t mm;
                    int got = hand_standard(&h, b, a.need_real, &dd, &mm, &ww);
                    if (got < 0)
                        goto done;
                    if (got) {
                        d14 = dd;
                        break;
                    }
                }
                if (d14 < 0)
                    memset(found, 0, sizeof(found));  /* no standard target: never ready */
                else if (discards_at(&h, d14 + 1, a.need_real, ks, n, found, d, mask, wild,
                                     &w0) < 0)
                    goto done;
            }
        }
    }
    /* discards_useful: per discard its distance and the kinds whose draw lowers it (a hand
     * ready for a discard win: its waits) */
    long ds[34];
    uint64_t useful[34];
    int real13[34];
    memcpy(real13, a.real, sizeof(real13));
    for (int i = 0; i < n; i++) {
        ds[i] = found[i] && d[i] < AINF ? d[i] : AINF;
        useful[i] = 0;
        if (ds[i] >= AINF)
            continue;
        if (a.need_real && ds[i] == 1 && w0.cov[i]) {
            /* the table's answer without the rule, from the same merge */
            useful[i] = w0.d0[i] <= 1 ? w0.mask0[i] & ~a.wmask : 0;
        } else if (a.need_real && ds[i] == 1) {
            real13[ks[i]]--;
            int w = discard_waits(&a, &h13, real13, &useful[i]);
            real13[ks[i]]++;
            if (w == -2) {
                result = Py_NewRef(Py_None);      /* the Python path */
                goto done;
            }
            if (w < 0)
                goto done;
        } else {
            useful[i] = mask[i] | (wild[i] ? a.wmask : 0);
        }
        useful[i] &= ((uint64_t)1 << 34) - 1;
    }
    /* the rows (_compiled_entries, ready_discard_rows) */
    result = own_rows_of(ks, ds, useful, n, a.held, a.indicator, a.nv ? a.vis : NULL, a.kinds,
                         1);
    if (!result && PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();                            /* counts it does not take: Python */
        result = Py_NewRef(Py_None);
    }
done:
    hand_clear(&h);
    hand_clear(&h13);
    return result;
}
