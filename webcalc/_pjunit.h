/* webcalc._pjunit's shared declarations: what its C sources share (setup.py lists them;
 * the module is one extension, webcalc._pjunit).
 *
 *   webcalc/_pjunit.c              the module: the argument readers, the re-entrancy
 *                                  guards and the method table (twenty-seven functions)
 *   webcalc/_pjunit_free.c         the free-joker unit tables, folds and merge (shanten.py:
 *                                  unit_free, _plain_rows, free_unit_states,
 *                                  free_unit_draws, free_standard) and tables.py's
 *                                  unit_needs
 *   webcalc/_pjunit_draws.c        a free-joker hand's distance and every draw's at once
 *                                  (efficiency.py FreeOracle, draws.py)
 *   webcalc/_pjunit_rows.c         a free-joker hand's advice as the API's rows, in one
 *                                  call (advice_rows.py)
 *   webcalc/_pjunit_jokers.c       a complete hand's standard readings with jokers
 *                                  (decompose.py _splits, read to group codes)
 *   webcalc/_pjunit_listing.c      those readings from their codes and their API form
 *                                  (decompose.py _coded_readings, listed_dicts)
 *   webcalc/_pjunit_flags.c        the (刻, 顺) flags a hand's standard splits reach
 *                                  (decompose.py _achievable_flags)
 *   webcalc/variants/panjin_unit.c a rule set's own per-unit search
 *                                  (webcalc/variants/panjin_search.py, panjin_draws.py;
 *                                  panjin_unit.h what it shares with panjin_hand.c)
 *   webcalc/variants/panjin_merge.c its merge step (panjin_merge.py _merge_drawn)
 *   webcalc/variants/panjin_hand.c the same rule set's searches of a whole hand, 13
 *                                  tiles or every discard of 14, in one call each
 *   webcalc/variants/panjin_bounds.c their bounds: the rest bound (panjin_search.py
 *                                  _rest_places_all, _relaxed_bounds) and the rule set's suit
 *                                  requirement (_suit_rests)
 *   webcalc/variants/panjin_lower.c the count those searches start from, seeing the
 *                                  rule set's whole-hand conditions (panjin_lower.py)
 *   webcalc/variants/panjin_advice.c the same rule set's 13-tile advice in one call: the
 *                                  count, the searches, the waits and the rows
 *                                  (panjin_advice.py own_advice)
 *   webcalc/variants/panjin_advice14.c its 14-tile advice (every discard) in one call:
 *                                  the count, the discards' searches, the rows
 *                                  (panjin_advice.py discards_advice)
 *
 * Every function is the twin of a Python function that stays the reference
 * (tests/test_pjunit.py holds the two equal).
 */
#ifndef WEBCALC_PJUNIT_H
#define WEBCALC_PJUNIT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define PJ_HIDDEN __attribute__((visibility("hidden")))
#else
#define PJ_HIDDEN
#endif

#define MAXN 9                 /* kinds in a unit */
#define NOVAL 0x7fffffff

/* One row of a free-joker unit table (shanten.py unit_free): (g, p, q, D). */
#define FQ 32
typedef struct {
    uint8_t g, p, q, d;
} Row;
#define MAXROWS (5 * 2 * FQ)      /* at most one Pareto row per (g, p, q) */

/* _pjunit.c: the argument readers */
PJ_HIDDEN int read_ints(PyObject *seq, int *out, int maxn, const char *what);
PJ_HIDDEN int check_unit(const int *unit, int n);
PJ_HIDDEN int is_tuple(PyObject *o, const char *what);
PJ_HIDDEN int read_caps(PyObject *seq, int *caps);

/* _pjunit_free.c */
PJ_HIDDEN int free_rows(const int *unit, const int *caps, int n, int honors, Row *out);
PJ_HIDDEN int plain_rows(const int *unit, const int *caps, int n, int honors, Row *out);
PJ_HIDDEN PyObject *rows_list(const Row *rows, int nr);
PJ_HIDDEN PyObject *free_unit(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *fold_impl(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *fold_draws_impl(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *needs(PyObject *self, PyObject *args);
PJ_HIDDEN void unit_needs_dp(const int *unit, int n, int honors, int in_triplet, int *n0,
                            int *n1);
PJ_HIDDEN PyObject *plain_unit(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *free_merge(PyObject *self, PyObject *args);

/* _pjunit_draws.c; its cached unit tables (free_unit_rows, one call per table) also give
 * a rule set's own search its bounds (variants/panjin_hand.c relaxed_rest) */
#define M_PLAIN 0                  /* no wildcard in play: shanten.py _plain_rows */
#define M_FREE 1                   /* jokers, the caps honoured: shanten.py unit_free */
#define M_RELAXED 2                /* jokers, no cap: unit_free with every cap RCAP */
#define RCAP 31                    /* a cap no place count reaches (at most 20 places) */
PJ_HIDDEN int free_unit_rows(const int *unit, const int *caps, int n, int honors, int mode,
                             Row *out);
PJ_HIDDEN PyObject *free_draws(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *free_warm(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *free_cache_info(PyObject *self, PyObject *args);

/* _pjunit_rows.c */
PJ_HIDDEN PyObject *free_advice(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *own_rows(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *own_rows_of(const int *ts, const long *ds, const uint64_t *masks, int n,
                                const int *held, int indicator, const int *vis, int kinds,
                                int ready);

/* variants/panjin_unit.c */
PJ_HIDDEN PyObject *search_impl(PyObject *self, PyObject *args);

/* variants/panjin_merge.c */
PJ_HIDDEN PyObject *merge_impl(PyObject *self, PyObject *args);

/* _pjunit_flags.c */
PJ_HIDDEN PyObject *achievable_flags(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* variants/panjin_hand.c */
PJ_HIDDEN PyObject *standard_drawn_impl(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *discards_drawn_impl(PyObject *self, PyObject *args);
/* the numbers standard_drawn reads, as it checks them: 0, or -1 with an exception set */
PJ_HIDDEN int pj_hand_ok(const int *real, const int *caps, int jokers, int max_x, int groups,
                         int suits0, int want, int limit);
/* standard_drawn's search of checked numbers (req: suit_req's), its cheapest targets as
 * _drawn_best keeps them (*best < 0 or above limit: None): 0, or -1 with an exception set */
PJ_HIDDEN int pj_standard_drawn(const int *real, const int *caps, const int *rest,
                                int req[4][20], int jokers, int max_x, int groups, int suits0,
                                int want, int allowed, int min_jokers, int limit,
                                int need_real, long long *best, uint64_t *mask, int *wild);
/* variants/panjin_bounds.c */
PJ_HIDDEN PyObject *rest_places(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *relaxed_rest(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *suit_rests(PyObject *self, PyObject *args);
PJ_HIDDEN int pj_relaxed_unit(const int *counts, int u, int m[10]);
/* two units' minima (ten numbers [g * 2 + p] each, at least 0, 99 for none) combined:
 * out[g * 2 + p] the least a[g1 * 2 + p1] + b[g2 * 2 + p2] with g1 + g2 = g, p1 + p2 = p,
 * capped at 99 (panjin_lower.c's count reads it too) */
PJ_HIDDEN void pj_min_plus(const int *a, const int *b, int *out);
/* four units' minima m combined by pj_min_plus: w[u] the three but u, all (unless NULL)
 * the four */
PJ_HIDDEN void pj_combined(int m[4][10], int w[4][10], int *all);
/* minima acc (as pj_min_plus's) with fresh groups (3 places each) and the fresh pair (2)
 * for the rest: r[g * 2 + p] the least acc[g1 * 2 + p1] + 3 (g - g1) + 2 (p - p1), capped
 * at 99 (panjin_search.py _rest_of; panjin_lower.c's unit closure) */
PJ_HIDDEN void pj_rest_rows(const int *acc, int *r);
/* the four units' relaxed minima of real, m[u] as pj_relaxed_unit gives them (the *_of
 * functions below read them, so that a hand looks its units up once): 0, or -1 with an
 * exception set */
PJ_HIDDEN int pj_relaxed_minima(const int *real, int m[4][10]);
/* panjin_search.py _suit_rests of real (suit_rests' numbers): 0, or -1 with an exception
 * set; suit_req_of: the same of real's minima m */
PJ_HIDDEN int suit_req(const int *real, int suits0, int allowed, int req[4][20]);
PJ_HIDDEN void suit_req_of(int m[4][10], int suits0, int allowed, int req[4][20]);
/* relaxed_rest(real) as numbers: whole[g * 2 + p], rest[u * 10 + g * 2 + p]; 0, or -1
 * with an exception set; pj_relaxed_bounds_of: the same of real's minima m */
PJ_HIDDEN int pj_relaxed_bounds(const int *real, int whole[10], int rest[40]);
PJ_HIDDEN void pj_relaxed_bounds_of(int m[4][10], int whole[10], int rest[40]);

/* variants/panjin_lower.c */
PJ_HIDDEN PyObject *count_lower(PyObject *self, PyObject *args);
PJ_HIDDEN int pj_count_lower(const int *real, const int *caps, int jokers, int groups,
                             int allowed, int flags);
/* the same with real's relaxed minima m (pj_relaxed_minima) already looked up */
PJ_HIDDEN int pj_count_lower_of(const int *real, int m[4][10], const int *caps, int jokers,
                                int groups, int allowed, int flags);

/* variants/panjin_advice.c, variants/panjin_advice14.c (what they share:
 * variants/panjin_advice.h) */
PJ_HIDDEN PyObject *panjin_advice_impl(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *panjin_advice14_impl(PyObject *self, PyObject *args);

/* variants/panjin_table.c: the rows table (its top tells) */
PJ_HIDDEN PyObject *rows_table(PyObject *self, PyObject *arg);
PJ_HIDDEN PyObject *rows_table_chunk_impl(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *rows_table_keys(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *rows_table_key(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *rows_table_rows(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *rows_table_answer(PyObject *self, PyObject *args);
PJ_HIDDEN PyObject *rows_table_fnv(PyObject *self, PyObject *arg);
PJ_HIDDEN int pjt_loaded(void);
/* a hand's standard distance with no limit from the table: 1 with *d, *mask, *wild set, 0
 * when no target exists, -2 when the table does not cover the hand */
PJ_HIDDEN int pjt_standard(const int *real, const int *caps, int jokers, int max_x,
                           int groups, int suits0, int want, int allowed, int need_real,
                           int *d, uint64_t *mask, int *wild);
/* every discard ks[i] of a 14-tile hand at limit from the table: cov[i] 1 where it covers
 * the 13 tiles left (found[i], d[i], mask[i], wild[i] as discards_drawn answers), 0 where
 * the search must answer; d0, mask0 (unless NULL): the same without the discard-win rule
 * (d0[i] 99: none within limit) */
PJ_HIDDEN void pjt_discards(const int *real, const int *caps, int jokers, int max_x,
                            int groups, int suits0, int want, int allowed, int need_real,
                            int limit, const int *ks, int n, int *cov, int *found, int *d,
                            uint64_t *mask, int *wild, int *d0, uint64_t *mask0);


#endif
