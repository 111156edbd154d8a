/* webcalc._pjunit's rows table: 盘锦's unit rows built once at install time, and a 13-tile
 * hand's standard search answered from them (issue 38; the design measured in
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
 * pjt_standard answers what pj_standard_drawn (panjin_hand.c) answers with no limit: the
 * four units' rows merged under a bound (each row's least cost with the other units' least
 * r + x by (g, p); the limit raised from the largest unit's least bound until a target is
 * within it), the targets read as _drawn_best reads them. Its Python twin is
 * webcalc/variants/panjin_table.py table_standard (the same rows from the searches,
 * merged by _merge_drawn); tests/test_panjin_table.py holds the two equal and both equal
 * to the bounded search they stand in for. A hand the table does not cover (melds, more
 * jokers, a larger unit, mode "both", no table loaded) answers -2: the search runs.
 *
 * File (native byte order, written and read on the same machine): PjtHeader, then the
 * offsets of the suit keys (nkeys[0] + 1) and of the honours' keys (nkeys[1] + 1) into the
 * rows, then the rows, one uint32 each (pjt_pack). The file is mapped read-only: the
 * workers gunicorn forks share the pages the master read when it loaded (and checked) it.
 */
#include "panjin_unit.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PJT_TILES 7               /* real tiles a unit may hold to be in the table */
#define PJT_FORMAT 1              /* raise when the rows or the layout change */
#define PJT_JV 4                  /* jokers 0, 1, 2 with max_x 4; 3: no wildcard, max_x 0 */
#define PJT_MAXROWS 1024          /* rows a key (more: the build refuses) */

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
    return 0;
}

/* rows_table_chunk(honors, first, last) -> (rows, counts): the rows of keys first..last-1
 * (bytes of uint32 rows, then bytes of one uint32 count a key), as the build writes them */
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
    uint32_t one[PJT_MAXROWS];
    PyObject *result = NULL;
    if (!rows || !counts) {
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
    }
    result = Py_BuildValue("(y#y#)", (const char *)rows, (Py_ssize_t)(used * 4),
                           (const char *)counts, (Py_ssize_t)((last - first) * 4));
done:
    PyMem_Free(rows);
    PyMem_Free(counts);
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
             words != (size_t)n0 + 1 + n1 + 1 + hd->nrows || (size - sizeof(PjtHeader)) % 4)
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
    rows_all = off[1] + n1 + 1;
    keys_n[0] = n0;
    keys_n[1] = n1;
    return Py_BuildValue("(kkk)", (unsigned long)n0, (unsigned long)n1,
                         (unsigned long)hd->nrows);
}

/* rows_table_rows(honors, key) -> bytes: a key's rows in the loaded table (tests) */
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
    return PyBytes_FromStringAndSize((const char *)(rows_all + o[key]),
                                     (Py_ssize_t)(o[key + 1] - o[key]) * 4);
}

/* -- a hand from the table ------------------------------------------------------------ */

#define PNONE 99
#define WANT3 (YJ | TRIP | SEQ)
#define AX 5
#define ACC (5 * 2 * AX * 4 * 8)
#define LAST_LIMIT 20             /* a target costs at most 14 real tiles + 4 jokers + 1 */

static inline int acc_index(int g, int p, int x, int n, int f) {
    return (((g * 2 + p) * AX + x) * 4 + n) * 8 + f;
}

/* a row decoded: r, x, (g, p) as g * 2 + p, the suit shown (0, 1), the wanted flags >> 1,
 * the bound, the kinds drawn at the hand's bits */
typedef struct {
    uint8_t r, x, gp, n, f, bound;
    uint64_t m;
} DRow;

/* a unit's rows with bound <= the limit, by (g, p): bucket b is r[at[b]..at[b + 1]),
 * copies in one array (a few cache lines, not a pointer a row) */
typedef struct {
    DRow r[PJT_MAXROWS];
    int at[11];
} Kept;

static uint8_t acc_r[2][ACC], acc_on[2][ACC];
static uint64_t acc_m[2][ACC];
static int acc_live[2][ACC], acc_n[2];

int pjt_loaded(void) {
    return map_base != NULL;
}

static void min_plus(const uint8_t *a, const uint8_t *b, uint8_t *out) {
    memset(out, PNONE, 10);
    for (int i = 0; i < 10; i++) {
        if (a[i] >= PNONE)
            continue;
        for (int j = 0; j + i < 10; j++) {
            if (b[j] >= PNONE)
                continue;
            int g = (i >> 1) + (j >> 1), p = (i & 1) + (j & 1);
            if (g > 4 || p > 1)
                continue;
            int v = a[i] + b[j];
            if (v < out[g * 2 + p])
                out[g * 2 + p] = (uint8_t)v;
        }
    }
}

/* a unit's key rows in the table, or NULL when it does not cover the unit */
static const uint32_t *unit_rows_of(int u, const int *counts, const int *caps, int jokers,
                                    int max_x, int *nr) {
    int h = u == 3;
    long key = key_of(h, counts, caps, jokers, max_x);
    if (key < 0)
        return NULL;
    const uint32_t *o = off[h];
    *nr = (int)(o[key + 1] - o[key]);
    return rows_all + o[key];
}

/* least r + x by (g, p) of packed rows, folded into rel (min); show: only the rows that
 * show the unit's suit (PJ-4 wants every suit: the others are in no target) */
static void rel_fold(const uint32_t *rows, int nr, uint8_t *rel, int show) {
    for (int i = 0; i < nr; i++) {
        uint32_t w = rows[i];
        if (show && !(w >> 13 & PRES))
            continue;
        int v = (int)(w >> 9 & 15) + (int)(w >> 17 & 7), k = (int)(w >> 20 & 15);
        if (v < rel[k])
            rel[k] = (uint8_t)v;
    }
}

/* packed rows of unit u decoded, each with its bound given the other units' least r + x
 * (other); returns the least bound */
static int decode(const uint32_t *rows, int nr, int u, const uint8_t *other, int J, int show,
                  DRow *out) {
    int least = PNONE;
    for (int i = 0; i < nr; i++) {
        uint32_t w = rows[i];
        DRow *o = &out[i];
        if (show && !(w >> 13 & PRES)) {
            o->bound = PNONE;                     /* in no target (rel_fold) */
            o->gp = 0;
            continue;
        }
        o->r = (uint8_t)(w >> 9 & 15);
        o->x = (uint8_t)(w >> 17 & 7);
        o->gp = (uint8_t)(w >> 20 & 15);
        o->n = (uint8_t)(u < 3 && (w >> 13 & PRES));
        o->f = (uint8_t)((w >> 13 & WANT3) >> 1);
        o->m = (uint64_t)(w & 0x1FF) << (9 * u);
        int own = o->r + (o->x > J ? o->x - J : 0);
        int v = o->r + o->x + other[9 - o->gp] - J;   /* (4 - g) * 2 + 1 - p = 9 - gp */
        if (v < own)
            v = own;
        if (v > PNONE)
            v = PNONE;
        o->bound = (uint8_t)v;
        if (v < least)
            least = v;
    }
    return least;
}

static void keep(const DRow *rows, int nr, int limit, Kept *kp) {
    int count[11] = {0};
    for (int i = 0; i < nr; i++)
        if (rows[i].bound <= limit)
            count[rows[i].gp + 1]++;
    kp->at[0] = 0;
    for (int b = 0; b < 10; b++)
        kp->at[b + 1] = kp->at[b] + count[b + 1];
    int put[10];
    memcpy(put, kp->at, sizeof(put));
    for (int i = 0; i < nr; i++)
        if (rows[i].bound <= limit)
            kp->r[put[rows[i].gp]++] = rows[i];
}

/* three units' kept rows merged at limit (later[j]: the least r + x by (g, p) of the units
 * after position j; okn[j]: the suit counts a state may show after position j, PJ-4's
 * allowed counts still within reach): the states left in acc_*[returned index] */
static int merge3(Kept *const kp[3], uint8_t later[3][10], const int *okn, int limit, int J,
                  int max_x) {
    int cur = 0, k0 = acc_index(0, 0, 0, 0, 0);
    acc_n[0] = 0;
    acc_r[0][k0] = 0;
    acc_m[0][k0] = 0;
    acc_on[0][k0] = 1;
    acc_live[0][acc_n[0]++] = k0;
    for (int j = 0; j < 3; j++) {
        int nx = cur ^ 1;
        const Kept *kj = kp[j];
        acc_n[nx] = 0;
        for (int a = 0; a < acc_n[cur]; a++) {
            int k = acc_live[cur][a];
            acc_on[cur][k] = 0;
            int f = k & 7, n = k >> 3 & 3, x = (k >> 5) % AX, gp = (k >> 5) / AX;
            int g = gp >> 1, p = gp & 1;
            int r = acc_r[cur][k];
            uint64_t m = acc_m[cur][k];
            for (int wg = 0; wg + g <= 4; wg++)
                for (int wp = 0; wp + p <= 1; wp++) {
                    int b = wg * 2 + wp, g3 = g + wg, p3 = p + wp;
                    int still = 3 * (4 - g3) + 2 * (1 - p3), after = later[j][9 - g3 * 2 - p3];
                    const DRow *end = kj->r + kj->at[b + 1];
                    for (const DRow *o = kj->r + kj->at[b]; o < end; o++) {
                        int x3 = x + o->x;
                        if (x3 > max_x || x3 + still < J)
                            continue;             /* every joker placed */
                        int r3 = r + o->r;
                        if (r3 + (x3 > J ? x3 - J : 0) > limit || r3 + x3 + after - J > limit)
                            continue;
                        if (!(okn[j] >> (n + o->n) & 1))
                            continue;             /* PJ-4's suit count out of reach */
                        int k2 = acc_index(g3, p3, x3, n + o->n, f | o->f);
                        uint64_t m3 = m | o->m;
                        if (!acc_on[nx][k2]) {
                            acc_on[nx][k2] = 1;
                            acc_live[nx][acc_n[nx]++] = k2;
                            acc_r[nx][k2] = (uint8_t)r3;
                            acc_m[nx][k2] = m3;
                        } else if (r3 < acc_r[nx][k2]) {
                            acc_r[nx][k2] = (uint8_t)r3;
                            acc_m[nx][k2] = m3;
                        } else if (r3 == acc_r[nx][k2]) {
                            acc_m[nx][k2] |= m3;
                        }
                    }
                }
        }
        cur = nx;
    }
    return cur;
}

/* the merged states of acc_*[cur] completed by the last unit's kept rows: the targets,
 * read as _drawn_best reads them; *best PNONE when none */
static void join(int cur, const Kept *last, int J, int max_x, int want, int allowed,
                 int need_real, int *best_out, uint64_t *mask_out, int *wild_out,
                 int *best0_out, uint64_t *mask0_out) {
    int best = PNONE, wild = 0, best0 = PNONE;
    uint64_t mask = 0, mask0 = 0;
    for (int a = 0; a < acc_n[cur]; a++) {
        int k = acc_live[cur][a];
        int f = k & 7, n = k >> 3 & 3, x = (k >> 5) % AX, gp = (k >> 5) / AX;
        int b = 9 - gp;
        int r = acc_r[cur][k];
        uint64_t m = acc_m[cur][k];
        const DRow *end = last->r + last->at[b + 1];
        for (const DRow *o = last->r + last->at[b]; o < end; o++) {
            int x3 = x + o->x;
            if (x3 > max_x || x3 < J || !(allowed >> (n + o->n) & 1) ||
                (((f | o->f) << 1) & want) != want)
                continue;
            int r3 = r + o->r, cost = r3 + (x3 > J ? x3 - J : 0);
            uint64_t m3 = m | o->m;
            if (best0_out) {               /* the same targets without the rule */
                if (cost < best0) {
                    best0 = cost;
                    mask0 = m3;
                } else if (cost == best0) {
                    mask0 |= m3;
                }
            }
            if (need_real) {               /* _drawn_best: the discard-win rule */
                if (!r3)
                    cost++;
                if (r3 < 2)
                    m3 = 0;
            }
            if (cost < best) {
                best = cost;
                mask = m3;
                wild = x3 > J;
            } else if (cost == best) {
                mask |= m3;
                wild |= x3 > J;
            }
        }
    }
    *best_out = best;
    *mask_out = mask;
    *wild_out = wild;
    if (best0_out) {
        *best0_out = best0;
        *mask0_out = mask0;
    }
}

static void acc_release(int cur) {
    for (int a = 0; a < acc_n[cur]; a++)
        acc_on[cur][acc_live[cur][a]] = 0;
    acc_n[cur] = 0;
}

/* the least r + x of the units at positions i.. of order (rel[order[..]]), for each
 * position: suf[i]; and of every position but i: other[i] */
static void spread(uint8_t rel[4][10], uint8_t suf[4][10], uint8_t other[4][10]) {
    uint8_t pre[4][10];
    memcpy(pre[0], rel[0], 10);
    for (int u = 1; u < 4; u++)
        min_plus(pre[u - 1], rel[u], pre[u]);
    memcpy(suf[3], rel[3], 10);
    for (int u = 2; u >= 0; u--)
        min_plus(rel[u], suf[u + 1], suf[u]);
    memcpy(other[0], suf[1], 10);
    memcpy(other[3], pre[2], 10);
    for (int u = 1; u < 3; u++)
        min_plus(pre[u - 1], suf[u + 1], other[u]);
}

/* okn for merge3 when the units merge in order (the suits among them: suit[j]) */
static void reach(const int *suit, int allowed, int *okn) {
    for (int j = 0; j < 3; j++) {
        int rem = 0;
        for (int i = j + 1; i < 4; i++)
            rem += suit[i];
        okn[j] = 0;
        for (int n = 0; n < 4; n++)
            for (int a = n; a <= n + rem && a < 4; a++)
                if (allowed >> a & 1)
                    okn[j] |= 1 << n;
    }
}

static int covered_hand(int groups, int suits0, int want) {
    return map_base && groups == 4 && !suits0 && !(want & ~WANT3);
}

static DRow dec[4][PJT_MAXROWS];
static Kept kept[4];

/* the hand's standard distance with no limit from the table, as pj_standard_drawn answers
 * it (min_jokers = jokers): 1 with *d, *mask, *wild set, 0 when no target exists, -2 when
 * the table does not cover the hand (the search answers) */
int pjt_standard(const int *real, const int *caps, int jokers, int max_x, int groups,
                 int suits0, int want, int allowed, int need_real, int *d_out,
                 uint64_t *mask_out, int *wild_out) {
    if (!covered_hand(groups, suits0, want))
        return -2;
    const uint32_t *rows[4];
    int nr[4];
    uint8_t rel[4][10], suf[4][10], other[4][10];
    for (int u = 0; u < 4; u++) {
        if (!(rows[u] = unit_rows_of(u, real + 9 * u, caps + 9 * u, jokers, max_x, &nr[u])))
            return -2;
        memset(rel[u], PNONE, 10);
        rel_fold(rows[u], nr[u], rel[u], u < 3 && allowed == 1 << 3);
    }
    const int J = jokers;
    spread(rel, suf, other);
    int low = 0;
    for (int u = 0; u < 4; u++) {
        int least = decode(rows[u], nr[u], u, other[u], J, u < 3 && allowed == 1 << 3,
                           dec[u]);
        if (least > low)
            low = least;
    }
    Kept *const kp[3] = {&kept[0], &kept[1], &kept[2]};
    static const int SUIT[4] = {1, 1, 1, 0};
    int okn[3];
    reach(SUIT, allowed, okn);
    for (int limit = low; limit <= LAST_LIMIT; limit++) {
        for (int u = 0; u < 4; u++)
            keep(dec[u], nr[u], limit, &kept[u]);
        int cur = merge3(kp, suf + 1, okn, limit, J, max_x), best, wild;
        uint64_t mask;
        join(cur, &kept[3], J, max_x, want, allowed, need_real, &best, &mask, &wild, NULL,
             NULL);
        acc_release(cur);
        if (best <= limit) {
            *d_out = best;
            *mask_out = mask;
            *wild_out = wild;
            return 1;
        }
    }
    return 0;
}

static DRow vdec[PJT_MAXROWS];
static Kept vkept;

/* every discard ks[i] of a 14-tile hand at limit, as discards_drawn answers (the 13 tiles
 * left, pj_standard_drawn at limit): cov[i] 1 where the table covers the 13 tiles left
 * (then found[i] 1 with d[i], mask[i], wild[i], or 0: no target within limit), 0 where it
 * does not (the search answers those). d0 (unless NULL): the same without the discard-win
 * rule, d0[i] and mask0[i] (d0[i] PNONE: none within limit). The three units a discard
 * leaves alone are merged once per unit discarded from, the unit less the tile joined
 * last. */
void pjt_discards(const int *real, const int *caps, int jokers, int max_x, int groups,
                  int suits0, int want, int allowed, int need_real, int limit, const int *ks,
                  int n, int *cov, int *found, int *d, uint64_t *mask, int *wild, int *d0,
                  uint64_t *mask0) {
    for (int i = 0; i < n; i++)
        cov[i] = found[i] = 0;
    if (!covered_hand(groups, suits0, want))
        return;
    const int J = jokers;
    const uint32_t *rows[4];
    int nr[4];
    uint8_t rel[4][10];
    for (int u = 0; u < 4; u++) {
        rows[u] = unit_rows_of(u, real + 9 * u, caps + 9 * u, jokers, max_x, &nr[u]);
        if (rows[u]) {
            memset(rel[u], PNONE, 10);
            rel_fold(rows[u], nr[u], rel[u], u < 3 && allowed == 1 << 3);
        }
    }
    for (int u = 0; u < 4; u++) {
        /* the discards from unit u, their units' rows; the others as held */
        const uint32_t *vrows[MAXN];
        int vnr[MAXN], vi[MAXN], nv = 0;
        int others_ok = 1;
        for (int v = 0; v < 4; v++)
            if (v != u && !rows[v])
                others_ok = 0;
        if (!others_ok)
            continue;
        uint8_t any[10];
        memset(any, PNONE, 10);
        for (int i = 0; i < n; i++) {
            int k = ks[i];
            if (k < 9 * u || k >= 9 * u + (u == 3 ? 7 : 9) || real[k] < 1)
                continue;
            int c[MAXN];
            memcpy(c, real + 9 * u, sizeof(int) * (u == 3 ? 7 : 9));
            c[k - 9 * u]--;
            const uint32_t *vr = unit_rows_of(u, c, caps + 9 * u, jokers, max_x, &vnr[nv]);
            if (!vr)
                continue;
            vrows[nv] = vr;
            vi[nv++] = i;
            rel_fold(vr, vnr[nv - 1], any, u < 3 && allowed == 1 << 3);
        }
        if (!nv)
            continue;
        /* merge order: the other units, then u (its least r + x: any variant's) */
        int order[4], no = 0, suit[4], okn[3];
        for (int v = 0; v < 4; v++)
            if (v != u)
                order[no++] = v;
        order[3] = u;
        for (int j = 0; j < 4; j++)
            suit[j] = order[j] < 3;
        reach(suit, allowed, okn);
        uint8_t orel[4][10], suf[4][10], other[4][10];
        for (int j = 0; j < 3; j++)
            memcpy(orel[j], rel[order[j]], 10);
        memcpy(orel[3], any, 10);
        spread(orel, suf, other);
        Kept *kp[3];
        for (int j = 0; j < 3; j++) {
            decode(rows[order[j]], nr[order[j]], order[j], other[j], J,
                   order[j] < 3 && allowed == 1 << 3, dec[j]);
            keep(dec[j], nr[order[j]], limit, &kept[j]);
            kp[j] = &kept[j];
        }
        int cur = merge3(kp, suf + 1, okn, limit, J, max_x);
        for (int t = 0; t < nv; t++) {
            int i = vi[t], best, w;
            uint64_t m;
            decode(vrows[t], vnr[t], u, other[3], J, u < 3 && allowed == 1 << 3, vdec);
            keep(vdec, vnr[t], limit, &vkept);
            join(cur, &vkept, J, max_x, want, allowed, need_real, &best, &m, &w,
                 d0 ? &d0[i] : NULL, d0 ? &mask0[i] : NULL);
            cov[i] = 1;
            if (best <= limit) {
                found[i] = 1;
                d[i] = best;
                mask[i] = m;
                wild[i] = w;
            }
        }
        acc_release(cur);
    }
}

/* pjt_answer(real, caps, jokers, max_x, groups, suits0, want, allowed, need_real) ->
 * (d, drawn, wild), None (no target), or False (not covered): pjt_standard (tests) */
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
