/* webcalc._pjunit: the engine's hot searches compiled, twenty-seven functions in one
 * optional extension (setup.py). Each is the twin of a Python function that stays the
 * reference and runs when the module was not built or refuses a call (webcalc/compiled.py): the same
 * states, transitions, bounds and pruning, so tests/test_pjunit.py can hold both equal.
 *
 * This file is the module: the argument readers the other sources share, the re-entrancy
 * guards and the method table. The searches are in the sources _pjunit.h lists: the
 * free-joker unit tables and folds (_pjunit_free.c), a free-joker hand's draws at once
 * (_pjunit_draws.c) and its advice as rows (_pjunit_rows.c), and a rule set's own per-unit search next to its variant
 * (variants/panjin_unit.c).
 *
 * Some functions keep tables between calls (static buffers and bounded caches, below); none
 * keeps an answer that is not a pure function of its arguments.
 */
#include "_pjunit.h"

/* The sequences are read through a private tuple (PySequence_Tuple), never a caller's list
 * in place: an item's __index__ may run Python code that empties the list being read. */
int read_ints(PyObject *seq, int *out, int maxn, const char *what) {
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
        if (v < INT_MIN || v > INT_MAX) { /* not cut to its low bits: 2**40 is not 0 */
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* a unit's counts: none negative, none above 14; else ValueError (a count of 5 does
 * come: tables.unit_additions adds a tile to a kind held four times) */
int check_unit(const int *unit, int n) {
    for (int i = 0; i < n; i++) {
        if (unit[i] < 0 || unit[i] > 14) {
            PyErr_SetString(PyExc_ValueError, "unit: counts are 0 to 14");
            return -1;
        }
    }
    return 0;
}

/* PyArg_ParseTuple on something that is not a tuple raises SystemError: a TypeError first */
int is_tuple(PyObject *o, const char *what) {
    if (PyTuple_Check(o))
        return 1;
    PyErr_Format(PyExc_TypeError, "%s: a tuple, not %.100s", what, Py_TYPE(o)->tp_name);
    return 0;
}

/* a unit's caps (copies of each kind there are to place): -64 to 64, else ValueError (a
 * cap far below zero made places - cap overflow into a negative key) */
int read_caps(PyObject *seq, int *caps) {
    int n = read_ints(seq, caps, MAXN, "caps");
    for (int i = 0; i < n; i++) {
        if (caps[i] < -64 || caps[i] > 64) {
            PyErr_SetString(PyExc_ValueError, "caps: -64 to 64");
            return -1;
        }
    }
    return n;
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
GUARDED(standard_drawn, busy_search)        /* their searches use search()'s tables */
GUARDED(discards_drawn, busy_search)
GUARDED(panjin_advice, busy_search)         /* it runs standard_drawn's searches */
GUARDED(panjin_advice14, busy_search)       /* and discards_drawn's */
GUARDED(rows_table_chunk, busy_search)     /* it runs search()'s tables */
GUARDED(fold, busy_fold)
GUARDED(fold_draws, busy_fold)

/* _pjunit_rows.c: a hand field in the plain notation read to its tiles and counts */
PJ_HIDDEN PyObject *plain_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* _pjunit_rows.c: the standard readings of a hand without jokers, as group ids */
PJ_HIDDEN PyObject *plain_readings(PyObject *self, PyObject *args);
/* _pjunit_jokers.c: the standard readings of a complete hand with jokers, as group codes */
PJ_HIDDEN PyObject *joker_readings(PyObject *self, PyObject *args);
/* _pjunit_listing.c: the API form of the readings standard_readings' shared groups make */
PJ_HIDDEN PyObject *list_readings(PyObject *self, PyObject *args);
/* _pjunit_listing.c: those readings from joker_readings' codes and the groups met */
PJ_HIDDEN PyObject *coded_readings(PyObject *self, PyObject *args);

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(unit, caps, yj, start, honors, max_x, limit, jokers, need_x, groups, rest, "
     "drops, track_rd, track_mask[, req[, restrict]]) -> [rows of the unit, rows of the "
     "unit less one tile at each of drops]; each row (g, p, x, flags, r, drawn); req (20 "
     "numbers, with rest): the bound sees the suit count; restrict (1, 2; not with "
     "track_rd): no drawn joker a real tile could stand for (drawn's bits 50-57 tell "
     "instead). See webcalc/variants/panjin_search.py unit_panjin, panjin_draws.py "
     "unit_panjin_drawn and unit_panjin_drawn_drops."},
    {"standard_drawn", standard_drawn, METH_VARARGS,
     "standard_drawn(real, caps, jokers, max_x, groups, suits0, want, allowed, min_jokers, "
     "limit, need_real, rest) -> (d, drawn, wild) or None. See "
     "webcalc/variants/panjin_draws.py panjin_standard_drawn."},
    {"discards_drawn", discards_drawn, METH_VARARGS,
     "discards_drawn(real, caps, jokers, max_x, groups, suits0, want, allowed, min_jokers, "
     "limit, need_real, rest, discards) -> [(d, drawn, wild) or None per discard]. See "
     "webcalc/variants/panjin_draws.py panjin_discards_drawn."},
    {"merge", merge, METH_VARARGS,
     "merge(acc, table, groups, max_x, jokers, limit, counts_suit, want, k_u) -> dict: "
     "one merge step of panjin_standard_drawn, pruned. See "
     "webcalc/variants/panjin_merge.py _merge_drawn."},
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
    {"free_merge", free_merge, METH_VARARGS,
     "free_merge(tables, groups, jokers, joker_room) -> int or None: free_standard from its "
     "unit tables. See webcalc/shanten.py free_standard."},
    {"rest_places", rest_places, METH_VARARGS,
     "rest_places(m0, m1, m2, m3) -> four rest tables. See "
     "webcalc/variants/panjin_search.py "
     "_rest_places_all."},
    {"relaxed_rest", relaxed_rest, METH_VARARGS,
     "relaxed_rest(real) -> (whole, four rest tables) from the relaxed unit tables. See "
     "webcalc/variants/panjin_search.py _relaxed_bounds."},
    {"suit_rests", suit_rests, METH_VARARGS,
     "suit_rests(real, suits0, allowed) -> per unit (req0 + req1), 20 numbers: the rest "
     "tables its drawn searches prune with, seeing the suit count. See "
     "webcalc/variants/panjin_search.py _suit_rests."},
    {"free_draws", free_draws, METH_VARARGS,
     "free_draws(counts, meld_tiles, indicator, kinds, wild, shapes, melds, discards) -> "
     "(d, lower, zero), or per discard a list of them. See webcalc/efficiency.py "
     "FreeOracle."},
    {"free_advice", free_advice, METH_VARARGS,
     "free_advice(counts, meld_tiles, indicator, kinds, wild, shapes, melds, discards, "
     "visible) -> free_draws' answer as the API's rows: (shanten, waits, useful, "
     "useful_total, any_tile_wait), or with discards (efficiency, discards, shanten). See "
     "webcalc/advice_rows.py."},
    {"own_rows", own_rows, METH_VARARGS,
     "own_rows(discards, held, indicator, visible, kinds) -> the 14-tile 牌理 rows from "
     "each allowed discard's (t, d, mask). See webcalc/efficiency.py _entry_rows."},
    {"free_warm", free_warm, METH_VARARGS,
     "free_warm(max_tiles, any_jokers) -> tables looked up: fills free_draws' cache with "
     "the unit patterns of up to max_tiles tiles (webcalc/warmup.py)."},
    {"free_cache_info", free_cache_info, METH_NOARGS,
     "free_cache_info() -> (hits, misses) of free_draws' unit tables."},
    {"plain_hand", (PyCFunction)(void (*)(void))plain_hand, METH_FASTCALL,
     "plain_hand(text, tiles, kinds) -> (tiles held, sorted; 34 counts), or None when the "
     "text is not in the plain notation or holds a kind not below kinds or five of a kind. "
     "See webcalc/analysis.py _plain_hand."},
    {"plain_readings", plain_readings, METH_VARARGS,
     "plain_readings(counts, melds) -> [sorted group ids of each standard reading], sorted; "
     "None past 512 splits or for a count above four. See webcalc/decompose.py "
     "_plain_reading_ids."},
    {"joker_readings", joker_readings, METH_VARARGS,
     "joker_readings(counts, jokers, melds, in_triplet) -> [sorted group codes of each "
     "standard reading], sorted; None past 65536 splits or for a count above four. See "
     "webcalc/decompose.py "
     "_joker_reading_codes."},
    {"list_readings", list_readings, METH_VARARGS,
     "list_readings(readings, pool, statics, shared, codes) -> [each reading's API dict, or "
     "None where the Python listing lists it]. See webcalc/decompose.py listed_dicts."},
    {"coded_readings", coded_readings, METH_VARARGS,
     "coded_readings(codes, coded, placeholder, melds, reading, shape) -> [reading(shape, "
     "groups + melds) per code tuple], or None where a group is not in coded yet. See "
     "webcalc/decompose.py _coded_readings."},
    {"achievable_flags", (PyCFunction)(void (*)(void))achievable_flags, METH_FASTCALL,
     "achievable_flags(counts, jokers, melds, pair, in_triplet) -> int: the (triplet, "
     "sequence) flags the standard splits reach, bit trip * 2 + seq each; None outside "
     "counts 0-4, 0-14 jokers, 0-4 melds, 0-1 pair. See webcalc/decompose.py "
     "_achievable_flags."},
    {"count_lower", count_lower, METH_VARARGS,
     "count_lower(real, caps, jokers, groups, allowed, flags) -> int or None: at most "
     "a rule set's own standard distance, seeing its suit, terminal and triplet "
     "conditions. See webcalc/variants/panjin_lower.py."},
    {"panjin_advice", panjin_advice, METH_VARARGS,
     "panjin_advice(real, caps, jokers, room, groups, flags, allowed, piaohu, need_real, "
     "seven_pairs, wild, held, indicator, visible, kinds, useful) -> (shanten, waits, "
     "useful, useful_total, any_tile_wait) or None: a rule set's own 13-tile advice in one "
     "call. See webcalc/variants/panjin_advice.py own_advice."},
    {"panjin_advice14", panjin_advice14, METH_VARARGS,
     "panjin_advice14(real, caps, jokers, room, groups, flags, allowed, piaohu, need_real, "
     "seven_pairs, wild, held, indicator, visible, kinds) -> (efficiency, discards, "
     "shanten) or None: a rule set's own 14-tile advice, every discard, in one call. See "
     "webcalc/variants/panjin_advice.py discards_advice."},
    {"rows_table", rows_table, METH_O,
     "rows_table(path) -> (suit keys, honours' keys, rows): maps the 盘锦 rows table "
     "(checked; ValueError for a file of another build or damaged); rows_table(None) "
     "unmaps it. See webcalc/variants/panjin_table.py."},
    {"rows_table_chunk", rows_table_chunk, METH_VARARGS,
     "rows_table_chunk(honors, first, last) -> (rows, counts, rel): the searched rows of "
     "those keys, as the table holds them (bytes of uint32 rows and counts, 20 bytes of "
     "least r + x a key)."},
    {"rows_table_keys", rows_table_keys, METH_VARARGS,
     "rows_table_keys(honors) -> the keys a unit kind has in the table."},
    {"rows_table_key", rows_table_key, METH_VARARGS,
     "rows_table_key(honors, counts, caps, jokers, max_x) -> a unit's key, or None when the "
     "table does not cover it."},
    {"rows_table_rows", rows_table_rows, METH_VARARGS,
     "rows_table_rows(honors, key) -> (rows, rel): a key's rows and least r + x in the loaded "
     "table, as rows_table_chunk gives them."},
    {"rows_table_answer", rows_table_answer, METH_VARARGS,
     "rows_table_answer(real, caps, jokers, max_x, groups, suits0, want, allowed, "
     "need_real) -> (d, drawn, wild), None, or False when the table does not cover the "
     "hand: standard_drawn with no limit, from the table."},
    {"rows_table_fnv", rows_table_fnv, METH_O,
     "rows_table_fnv(data) -> the checksum (FNV-1a of 32-bit words) a table's header holds."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "webcalc._pjunit",
    "The engine's hot searches, compiled (webcalc/compiled.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__pjunit(void) { return PyModule_Create(&module); }
