/* webcalc._pjunit's rows table: 盘锦's unit rows built once at install time, and looked up
 * for the hands panjin_table_merge.c answers from them (issue 38; the design measured in
 * bench/RESULTS.md, "Issue 38, round 11: 盘锦's unit rows by a DP", and "round 12").
 *
 * A unit's rows are what pj_search (panjin_unit.c) finds for it with no bound from the
 * other units: per (groups g, pair p, jokers placed x, flags) the fewest real tiles r to
 * draw and the kinds those draws take. They depend on the unit's counts, its caps and the
 * jokers held, not on the other units, so a file holds them for every unit the table
 * covers (panjin_table.py builds it, `make` runs that): suit units and the honours' unit of
 * at most PJT_TILES real tiles, caps of a hand without melds (4 each, or the indicator's kind
 * 3 and its wildcard's 0 in the unit that holds them, mode "next"), 0-2 jokers held with
 * all four wildcard tiles in play (max_x 4), or no wildcard at all (max_x 0).
 *
 * panjin_table_merge.c answers hands from it: pjt_standard what pj_standard_drawn
 * (panjin_hand.c) answers with no limit, the four units' rows merged under a bound (each
 * row's least cost with the other units' least r + x by (g, p); the limit raised from the
 * largest unit's least bound until a target is within it), the targets read as
 * _drawn_best reads them; pjt_discards every discard of 14 tiles. Its Python twin is
 * webcalc/variants/panjin_table.py table_standard (the same rows from the searches,
 * merged by _merge_drawn); tests/test_panjin_table.py holds the two equal and both equal
 * to the bounded search they stand in for. A hand the table does not cover (melds, more
 * jokers, a larger unit, mode "both", no table loaded) answers -2: the search runs.
 *
 * File (native byte order, written and read on the same machine): PjtHeader, then the
 * offsets of the suit keys (nkeys[0] + 1) and of the honours' keys (nkeys[1] + 1) into the
 * rows, then each key's least r + x by (g, p) (PJT_REL bytes a key, suit keys first:
 * key_rel), then the rows, one uint32 each (pjt_pack), each key's sorted by (g, p), then
 * r + x. The file is mapped read-only: the workers gunicorn forks share the pages the
 * master read when it loaded (and checked) it.
 */
#include "panjin_table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PJT_FORMAT 3              /* raise when the rows or the layout change */
#define PJT_JV 4                  /* jokers 0, 1, 2 with max_x 4; 3: no wildcard, max_x 0 */

typedef struct {
    char magic[8];
    uint32_t format, tiles, nkeys[2], nrows, check;
} PjtHeader;

static const char MAGIC[8] = {'P', 'J', 'R', 'O', 'W', 'S', 0, 1};

/* cnt[h][i][s]: the patterns of kinds i.. of a unit (h: 0 suit, 1 honours) holding at most
 * s tiles, each count 0-4 */
static uint32_t cnt[2][MAXN + 1][PJT_TILES + 1];
static int cnt_ready;

static void cnt_init(void) {
    if (cnt_ready)
        return;
    for (int h = 0; h < 2; h++) {
        int n = h ? 7 : 9;
        for (int s = 0; s <= PJT_TILES; s++)
            cnt[h][n][s] = 1;
        for (int i = n - 1; i >= 0; i--)
            for (int s = 0; s <= PJT_TILES; s++) {
                uint32_t t = 0;
                for (int v = 0; v <= 4 && v <= s; v++)
                    t += cnt[h][i + 1][s - v];
                cnt[h][i][s] = t;
            }
    }
    cnt_ready = 1;
}

static inline int unit_n(int h) {
    return h ? 7 : 9;
}

/* the wildcard (mode "next") of an indicator at i in the unit: a suit's next rank, the
 * next wind, the next dragon (wildcards.py's PANJIN cycle: 东南西北, 中发白 = 7z 6z 5z) */
static inline int next_of(int h, int i) {
    if (!h)
        return (i + 1) % 9;
    if (i < 4)
        return (i + 1) % 4;
    return i == 4 ? 6 : i - 1;    /* 5z → 7z, 6z → 5z, 7z → 6z */
}

static uint32_t nkeys_of(int h) {
    cnt_init();
    return cnt[h][0][PJT_TILES] * (uint32_t)(unit_n(h) + 1) * PJT_JV;
}

/* a pattern's rank among those of at most PJT_TILES tiles; -1 when it holds more */
static long rank_of(int h, const int *c) {
    int n = unit_n(h), s = PJT_TILES;
    long r = 0;
    for (int i = 0; i < n; i++) {
        if (c[i] < 0 || c[i] > 4 || c[i] > s)
            return -1;
        for (int v = 0; v < c[i]; v++)
            r += cnt[h][i + 1][s - v];
        s -= c[i];
    }
    return r;
}

static void unrank(int h, long r, int *c) {
    int n = unit_n(h), s = PJT_TILES;
    for (int i = 0; i < n; i++) {
        int v = 0;
        while (r >= (long)cnt[h][i + 1][s - v]) {
            r -= cnt[h][i + 1][s - v];
            v++;
        }
        c[i] = v;
        s -= v;
    }
}

/* the unit's caps form: 0 for all 4, 1 + i for the indicator at i (3) and its wildcard
 * (0); -1 for any other caps */
static int caps_form(int h, const int *caps) {
    int n = unit_n(h), three = -1, zero = -1;
    for (int i = 0; i < n; i++) {
        if (caps[i] == 4)
            continue;
        if (caps[i] == 3 && three < 0)
            three = i;
        else if (caps[i] == 0 && zero < 0)
            zero = i;
        else
            return -1;
    }
    if (three < 0 && zero < 0)
        return 0;
    if (three < 0 || zero != next_of(h, three))
        return -1;
    return 1 + three;
}

/* a key's pattern, caps and jokers; 0, or -1 for a key no hand has (the indicator's kind
 * held four times or its wildcard held as real tiles, an indicator without wildcards) */
static int key_unit(int h, uint32_t key, int *c, int *caps, int *jokers, int *max_x) {
    int n = unit_n(h);
    int jv = (int)(key % PJT_JV), form = (int)(key / PJT_JV % (uint32_t)(n + 1));
    unrank(h, (long)(key / PJT_JV / (uint32_t)(n + 1)), c);
    for (int i = 0; i < n; i++)
        caps[i] = 4;
    if (form) {
        int i = form - 1, w = next_of(h, i);
        if (jv == 3 || c[i] > 3 || c[w])
            return -1;
        caps[i] = 3;
        caps[w] = 0;
    }
    *jokers = jv == 3 ? 0 : jv;
    *max_x = jv == 3 ? 0 : 4;
    return 0;
}

/* a row: mask 0-8, r 9-12, flags 13-16 (PRES YJ TRIP SEQ), x 17-19, p 20, g 21-23 */
static inline uint32_t pjt_pack(int g, int p, int x, int fl, int r, uint64_t m) {
    return (uint32_t)m | (uint32_t)r << 9 | (uint32_t)fl << 13 | (uint32_t)x << 17 |
           (uint32_t)p << 20 | (uint32_t)g << 21;
}

/* one key's rows by the search (no bound): n rows into out; 0, -1 with an exception set */
static int key_rows(int h, uint32_t key, uint32_t *out, int *nr) {
    int c[MAXN + 2] = {0}, caps[MAXN], yj[MAXN], jokers, max_x, n = unit_n(h);
    *nr = 0;
    if (key_unit(h, key, c, caps, &jokers, &max_x) < 0)
        return 0;
    for (int i = 0; i < n; i++)
        yj[i] = h || i == 0 || i == 8;
    Table *fin;
    if (pj_search(c, n, caps, yj, 0, h, max_x, 99, jokers, jokers, 4, NULL, NULL, NULL, 0, 0,
                  1, 0, &fin) < 0)
        return -1;
    int bad = 0;
    for (int k = 0; k < fin->n && !bad; k++) {
        State *st = &fin->s[k];
        int key2 = st->key, fl = key2 % NF, x = (key2 / NF) % NX, p = (key2 / (NF * NX)) % 2,
            g = (key2 / (NF * NX * 2)) % 5, r = st->r[0];
        if (r == NOVAL)
            continue;
        if (r > 15 || x > 7 || fl > 15 || *nr >= PJT_MAXROWS || (st->m[0] >> n))
            bad = 1;
        else
            out[(*nr)++] = pjt_pack(g, p, x, fl, r, st->m[0]);
    }
    table_clear(fin);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "rows_table_chunk: a row does not fit the table");
        return -1;
    }
    /* by (g, p), then by r + x (the search's order kept within): a merge reads a bucket as
     * one run, and stops where r + x passes its limit */
    uint32_t sorted[PJT_MAXROWS];
    int at = 0;
    for (int gp = 0; gp < 10; gp++)
        for (int rx = 0; rx <= 15 + 7; rx++)
            for (int i = 0; i < *nr; i++)
                if ((int)(out[i] >> 20 & 15) == gp &&
                    (int)(out[i] >> 9 & 15) + (int)(out[i] >> 17 & 7) == rx)
                    sorted[at++] = out[i];
    memcpy(out, sorted, sizeof(uint32_t) * (size_t)at);
    return 0;
}

/* a key's least r + x by (g, p): rel[0..9] of every row, rel[10..19] of the rows that show
 * the unit's suit (PRES; what a merge reads when PJ-4 wants every suit) */
static void key_rel(const uint32_t *rows, int nr, uint8_t *rel) {
    memset(rel, PJT_NONE, PJT_REL);
    for (int i = 0; i < nr; i++) {
        uint32_t w = rows[i];
        int v = (int)(w >> 9 & 15) + (int)(w >> 17 & 7), k = (int)(w >> 20 & 15);
        if (v < rel[k])
            rel[k] = (uint8_t)v;
        if ((w >> 13 & PRES) && v < rel[10 + k])
            rel[10 + k] = (uint8_t)v;
    }
}

/* rows_table_chunk(honors, first, last) -> (rows, counts, rel): the rows of keys
 * first..last-1 (bytes of uint32 rows; bytes of one uint32 count a key; bytes of PJT_REL
 * a key, key_rel), as the build writes them */
PyObject *rows_table_chunk_impl(PyObject *self, PyObject *args) {
    (void)self;
    int h;
    unsigned long first, last;
    if (!PyArg_ParseTuple(args, "pkk", &h, &first, &last))
        return NULL;
    if (first > last || last > nkeys_of(h)) {
        PyErr_SetString(PyExc_ValueError, "rows_table_chunk: keys out of range");
        return NULL;
    }
    size_t cap = 4096, used = 0;
    uint32_t *rows = PyMem_Malloc(cap * 4), *counts = PyMem_Malloc((last - first + 1) * 4);
    uint8_t *rel = PyMem_Malloc((last - first + 1) * PJT_REL);
    uint32_t one[PJT_MAXROWS];
    PyObject *result = NULL;
    if (!rows || !counts || !rel) {
        PyErr_NoMemory();
        goto done;
    }
    for (unsigned long k = first; k < last; k++) {
        int nr;
        if (key_rows(h, (uint32_t)k, one, &nr) < 0)
            goto done;
        if (used + (size_t)nr > cap) {
            cap = (used + (size_t)nr) * 2;
            uint32_t *grown = PyMem_Realloc(rows, cap * 4);
            if (!grown) {
                PyErr_NoMemory();
                goto done;
            }
            rows = grown;
        }
        memcpy(rows + used, one, (size_t)nr * 4);
        used += (size_t)nr;
        counts[k - first] = (uint32_t)nr;
        key_rel(one, nr, rel + (k - first) * PJT_REL);
    }
    result = Py_BuildValue("(y#y#y#)", (const char *)rows, (Py_ssize_t)(used * 4),
                           (const char *)counts, (Py_ssize_t)((last - first) * 4),
                           (const char *)rel, (Py_ssize_t)((last - first) * PJT_REL));
done:
    PyMem_Free(rows);
    PyMem_Free(counts);
    PyMem_Free(rel);
    return result;
}

/* rows_table_keys(honors) -> the keys a unit kind has; with pattern, caps and jokers:
 * rows_table_key(honors, counts, caps, jokers, max_x) -> the key, or None outside */
PyObject *rows_table_keys(PyObject *self, PyObject *args) {
    (void)self;
    int h;
    if (!PyArg_ParseTuple(args, "p", &h))
        return NULL;
    return PyLong_FromUnsignedLong(nkeys_of(h));
}

static long key_of(int h, const int *c, const int *caps, int jokers, int max_x) {
    cnt_init();
    int jv;
    if (max_x == 4 && jokers >= 0 && jokers <= 2)
        jv = jokers;
    else if (max_x == 0 && jokers == 0)
        jv = 3;
    else
        return -1;
    int form = caps_form(h, caps);
    if (form < 0 || (form && jv == 3))
        return -1;
    long r = rank_of(h, c);
    if (r < 0)
        return -1;
    return (r * (unit_n(h) + 1) + form) * PJT_JV + jv;
}

PyObject *rows_table_key(PyObject *self, PyObject *args) {
    (void)self;
    int h, jokers, max_x, c[MAXN + 2] = {0}, caps[MAXN] = {0};
    PyObject *c_o, *caps_o;
    if (!PyArg_ParseTuple(args, "pOOii", &h, &c_o, &caps_o, &jokers, &max_x))
        return NULL;
    int n = unit_n(h);
    if (read_ints(c_o, c, MAXN, "counts") != n || read_ints(caps_o, caps, MAXN, "caps") != n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "counts, caps: one number a kind of the unit");
        return NULL;
    }
    long key = key_of(h, c, caps, jokers, max_x);
    if (key < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(key);
}

/* -- the loaded table -------------------------------------------------------------- */

static void *map_base;
static size_t map_size;
static const uint32_t *off[2], *rows_all;
static const uint8_t *rel_all[2];
static uint32_t keys_n[2];

static uint32_t fnv(const uint32_t *w, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= w[i];
        h *= 16777619u;
    }
    return h;
}

/* rows_table_fnv(data) -> the checksum the header holds of the words after it */
PyObject *rows_table_fnv(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0)
        return NULL;
    uint32_t h = fnv((const uint32_t *)b.buf, (size_t)b.len / 4);
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLong(h);
}

static void unload(void) {
    if (map_base)
        munmap(map_base, map_size);
    map_base = NULL;
    map_size = 0;
    off[0] = off[1] = rows_all = NULL;
    rel_all[0] = rel_all[1] = NULL;
}

/* rows_table(path) -> (suit keys, honours' keys, rows): maps and checks the file (every
 * page read once: the checksum); rows_table(None) -> None: unmaps it. OSError or
 * ValueError (a file of another build or damaged): no table, the searches answer. */
PyObject *rows_table(PyObject *self, PyObject *arg) {
    (void)self;
    if (arg == Py_None) {
        unload();
        Py_RETURN_NONE;
    }
    PyObject *path_b;
    if (!PyUnicode_FSConverter(arg, &path_b))
        return NULL;
    cnt_init();
    unload();
    int fd = open(PyBytes_AS_STRING(path_b), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg);
        Py_DECREF(path_b);
        return NULL;
    }
    Py_DECREF(path_b);
    struct stat st;
    void *base = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(PjtHeader))
        base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) {
        PyErr_SetString(PyExc_ValueError, "rows_table: not a rows table (too short)");
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    const PjtHeader *hd = base;
    uint32_t n0 = nkeys_of(0), n1 = nkeys_of(1);
    size_t words = (size - sizeof(PjtHeader)) / 4;
    const char *why = NULL;
    if (memcmp(hd->magic, MAGIC, 8) || hd->format != PJT_FORMAT || hd->tiles != PJT_TILES)
        why = "another format";
    else if (hd->nkeys[0] != n0 || hd->nkeys[1] != n1 ||
             words != (size_t)n0 + 1 + n1 + 1 + (size_t)(n0 + n1) * PJT_REL / 4 + hd->nrows ||
             (size - sizeof(PjtHeader)) % 4)
        why = "the wrong size";
    if (!why) {
        const uint32_t *w = (const uint32_t *)(hd + 1);
        if (fnv(w, words) != hd->check)
            why = "a damaged file (checksum)";
        else {
            /* offsets ascending, within the rows */
            for (int h = 0; h < 2 && !why; h++) {
                const uint32_t *o = h ? w + n0 + 1 : w;
                uint32_t nk = h ? n1 : n0;
                for (uint32_t k = 0; k < nk && !why; k++)
                    if (o[k] > o[k + 1] || o[k + 1] - o[k] > PJT_MAXROWS)
                        why = "a damaged file (offsets)";
                if (!why && o[nk] > hd->nrows)
                    why = "a damaged file (offsets)";
            }
        }
    }
    if (why) {
        munmap(base, size);
        PyErr_Format(PyExc_ValueError, "rows_table: %s", why);
        return NULL;
    }
    map_base = base;
    map_size = size;
    off[0] = (const uint32_t *)(hd + 1);
    off[1] = off[0] + n0 + 1;
    rel_all[0] = (const uint8_t *)(off[1] + n1 + 1);
    rel_all[1] = rel_all[0] + (size_t)n0 * PJT_REL;
    rows_all = (const uint32_t *)(rel_all[1] + (size_t)n1 * PJT_REL);
    keys_n[0] = n0;
    keys_n[1] = n1;
    return Py_BuildValue("(kkk)", (unsigned long)n0, (unsigned long)n1,
                         (unsigned long)hd->nrows);
}

/* rows_table_rows(honors, key) -> (rows, rel): a key's rows and least r + x in the loaded
 * table, as rows_table_chunk gives them (load's spot checks, tests) */
PyObject *rows_table_rows(PyObject *self, PyObject *args) {
    (void)self;
    int h;
    unsigned long key;
    if (!PyArg_ParseTuple(args, "pk", &h, &key))
        return NULL;
    if (!map_base) {
        PyErr_SetString(PyExc_RuntimeError, "rows_table_rows: no table loaded");
        return NULL;
    }
    if (key >= keys_n[h]) {
        PyErr_SetString(PyExc_ValueError, "rows_table_rows: key out of range");
        return NULL;
    }
    const uint32_t *o = off[h];
    return Py_BuildValue("(y#y#)", (const char *)(rows_all + o[key]),
                         (Py_ssize_t)(o[key + 1] - o[key]) * 4,
                         (const char *)(rel_all[h] + (size_t)key * PJT_REL),
                         (Py_ssize_t)PJT_REL);
}

/* a unit's rows in the loaded table (panjin_table.h) */
const uint32_t *pjt_unit_rows(int u, const int *counts, const int *caps, int jokers, int max_x,
                              int *nr, const uint8_t **rel) {
    if (!map_base)
        return NULL;
    int h = u == 3;
    long key = key_of(h, counts, caps, jokers, max_x);
    if (key < 0)
        return NULL;
    const uint32_t *o = off[h];
    *nr = (int)(o[key + 1] - o[key]);
    *rel = rel_all[h] + (size_t)key * PJT_REL;
    return rows_all + o[key];
}

int pjt_loaded(void) {
    return map_base != NULL;
}

/* rows_table_answer(real, caps, jokers, max_x, groups, suits0, want, allowed, need_real)
 * -> (d, drawn, wild), None (no target), or False (not covered): pjt_standard (tests) */
PyObject *rows_table_answer(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *real_o, *caps_o;
    int jokers, max_x, groups, suits0, want, allowed, need_real, real[34], caps[34];
    if (!PyArg_ParseTuple(args, "OOiiiiiip", &real_o, &caps_o, &jokers, &max_x, &groups,
                          &suits0, &want, &allowed, &need_real))
        return NULL;
    if (read_ints(real_o, real, 34, "real") != 34 || read_ints(caps_o, caps, 34, "caps") != 34) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "real, caps: 34 numbers");
        return NULL;
    }
    if (check_unit(real, 34) < 0)
        return NULL;
    int d, wild;
    uint64_t mask;
    int got = pjt_standard(real, caps, jokers, max_x, groups, suits0, want, allowed, need_real,
                           &d, &mask, &wild);
    if (got == -2)
        Py_RETURN_FALSE;
    if (!got)
        Py_RETURN_NONE;
    return Py_BuildValue("(iKO)", d, (unsigned long long)mask, wild ? Py_True : Py_False);
}
