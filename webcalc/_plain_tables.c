/* webcalc._plain's dense unit tables: every suit pattern of at most 14 tiles and every
 * honors pattern its own slot, a table its ten D values (shanten.py _plain_rows with every
 * cap 4) packed in a 64-bit word (see _plain.h, _plain.c). */
#include "_plain.h"

static int R[10][MAXT + 1];        /* R[L][S]: vectors of L counts 0-4 summing to <= S */
int OFF[9][MAXT + 1][5];           /* a suit's rank: sum of OFF[i][counts before i][c_i] */
long n_suits;
uint64_t *suit_tab, *honor_tab;
long built_suits, built_honors;
uint64_t *suit_rtab, *honor_rtab;
long built_rsuits, built_rhonors;

static void ranks_init(void) {
    for (int s = 0; s <= MAXT; s++)
        R[0][s] = 1;
    for (int l = 1; l <= 9; l++)
        for (int s = 0; s <= MAXT; s++) {
            int n = 0;
            for (int v = 0; v <= 4 && v <= s; v++)
                n += R[l - 1][s - v];
            R[l][s] = n;
        }
    for (int i = 0; i < 9; i++)
        for (int s = 0; s <= MAXT; s++) {
            int acc = 0;
            for (int c = 0; c < 5; c++) {
                OFF[i][s][c] = acc;
                if (s + c <= MAXT)
                    acc += R[8 - i][MAXT - s - c];
            }
        }
    n_suits = R[9][MAXT];
}

/* shanten.py _plain_rows with every cap 4 (the twin of _pjunit_free.c plain_rows), packed:
 * D of (g, p) in bits 5 (2 g + p) and up, NOD for no row; BUILT set */
/* A unit's DP (shanten.py _plain_rows with every cap 4; the twin of _pjunit_free.c
 * plain_rows): states (a, b, g, p) -> D, a and b the sequences begun at the two kinds
 * before, as key ((a * 5 + b) * 5 + g) * 2 + p; a state list holds the reached keys. */
typedef struct {
    int n, key[250], d[250];
} SList;

/* one kind of the unit: c held there, s_max the sequences that may begin there */
static void dp_step(const SList *in, int c, int s_max, SList *out) {
    static int map[250], ready;    /* key -> D; left all BIG between calls */
    if (!ready) {
        for (int k = 0; k < 250; k++)
            map[k] = BIG;
        ready = 1;
    }
    int nn = 0;
#define PSET(A, B, GG, P, V)                                                               \
    do {                                                                                   \
        int k_ = (((A) * 5 + (B)) * 5 + (GG)) * 2 + (P), v_ = (V);                         \
        if (map[k_] == BIG)                                                                \
            out->key[nn++] = k_;                                                           \
        if (v_ < map[k_])                                                                  \
            map[k_] = v_;                                                                  \
    } while (0)
    for (int j = 0; j < in->n; j++) {
        int key = in->key[j], d = in->d[j];
        int p = key & 1, g = (key >> 1) % 5, b = (key / 10) % 5, a = key / 50;
        int base = a + b;
        int top = s_max;
        if (4 - g < top)
            top = 4 - g;
        if (4 - base < top)
            top = 4 - base;
        for (int s = 0; s <= top; s++) {
            int pl = base + s, g1 = g + s;
            PSET(b, s, g1, p, d + (pl > c ? pl - c : 0));
            if (!c)
                continue;
            if (!p && pl + 2 <= 4)
                PSET(b, s, g1, 1, d + (pl + 2 > c ? pl + 2 - c : 0));
            if (g1 < 4 && pl + 3 <= 4)
                PSET(b, s, g1 + 1, p, d + (pl + 3 > c ? pl + 3 - c : 0));
            /* a triplet and the pair at one kind: 5 places, never within a cap of 4 */
        }
    }
#undef PSET
    for (int j = 0; j < nn; j++) {
        out->d[j] = map[out->key[j]];
        map[out->key[j]] = BIG;
    }
    out->n = nn;
}

/* one kind of a relaxed table (_pjunit_free.c free_rows with every cap RCAP: q is always
 * 0): no cap on the places at a kind, so up to two triplets there, and a triplet and the
 * pair together; the same states */
static void dp_step_r(const SList *in, int c, int s_max, SList *out) {
    static int map[250], ready;    /* key -> D; left all BIG between calls */
    if (!ready) {
        for (int k = 0; k < 250; k++)
            map[k] = BIG;
        ready = 1;
    }
    int nn = 0;
    for (int j = 0; j < in->n; j++) {
        int key = in->key[j], d = in->d[j];
        int p = key & 1, g = (key >> 1) % 5, b = (key / 10) % 5, a = key / 50;
        int base = a + b, top = s_max < 4 - g ? s_max : 4 - g;
        int ntrips = c ? 3 : 1, pair_ok = c && !p;
        for (int s = 0; s <= top; s++)
            for (int t = 0; t < ntrips && g + s + t <= 4; t++)
                for (int pr = 0; pr <= pair_ok; pr++) {
                    int places = base + s + 3 * t + 2 * pr;
                    int k_ = ((b * 5 + s) * 5 + g + s + t) * 2 + (p | pr);
                    int v_ = d + (places > c ? places - c : 0);
                    if (map[k_] == BIG)
                        out->key[nn++] = k_;
                    if (v_ < map[k_])
                        map[k_] = v_;
                }
    }
    for (int j = 0; j < nn; j++) {
        out->d[j] = map[out->key[j]];
        map[out->key[j]] = BIG;
    }
    out->n = nn;
}

typedef void (*Step)(const SList *, int, int, SList *);

static inline int s_max_at(const int *unit, int n, int honors, int i) {
    if (honors || i > n - 3)
        return 0;
    int s = unit[i] + unit[i + 1] + unit[i + 2];
    return s > 4 ? 4 : s;
}

/* the packed table of the final states: D of (g, p) in bits 5 (2 g + p) and up, NOD for
 * no row; BUILT set */
static uint64_t pack_states(const SList *st) {
    int best[10];
    for (int gp = 0; gp < 10; gp++)
        best[gp] = BIG;
    for (int j = 0; j < st->n; j++) {
        int gp = st->key[j] % 10;
        if (st->d[j] < best[gp])
            best[gp] = st->d[j];
    }
    uint64_t out = BUILT;
    for (int gp = 0; gp < 10; gp++)
        out |= (uint64_t)(best[gp] < (int)NOD ? (unsigned)best[gp] : NOD) << (5 * gp);
    return out;
}

static uint64_t build_with(Step step, const int *unit, int n, int honors) {
    SList a, b, *cur = &a, *nxt = &b, *t;
    a.n = 1;
    a.key[0] = 0;
    a.d[0] = 0;
    for (int i = 0; i < n; i++) {
        step(cur, unit[i], s_max_at(unit, n, honors, i), nxt);
        t = cur;
        cur = nxt;
        nxt = t;
    }
    return pack_states(cur);
}

uint64_t unit_build(const int *unit, int n, int honors) {
    return build_with(dp_step, unit, n, honors);
}

uint64_t unit_build_r(const int *unit, int n, int honors) {
    return build_with(dp_step_r, unit, n, honors);
}

int tables_alloc(void) {
    if (suit_tab)
        return 0;
    ranks_init();
    suit_tab = PyMem_Calloc((size_t)n_suits, sizeof(uint64_t));
    honor_tab = PyMem_Calloc(NHON, sizeof(uint64_t));
    if (!suit_tab || !honor_tab) {
        PyMem_Free(suit_tab);
        PyMem_Free(honor_tab);
        suit_tab = honor_tab = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* the relaxed tables' slots, allocated on first use (and the plain ones': the layout) */
int rtables_alloc(void) {
    if (suit_rtab)
        return 0;
    if (tables_alloc() < 0)
        return -1;
    suit_rtab = PyMem_Calloc((size_t)n_suits, sizeof(uint64_t));
    honor_rtab = PyMem_Calloc(NHON, sizeof(uint64_t));
    if (!suit_rtab || !honor_rtab) {
        PyMem_Free(suit_rtab);
        PyMem_Free(honor_rtab);
        suit_rtab = honor_rtab = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* every suit pattern below the counts cu[0 .. j-1] chosen (sum s), the DP run through
 * kind j - 3 into st[j] (a kind's step needs the two counts after it): each prefix's
 * steps are made once for all the patterns that share it */
static void warm_suits(Step step, uint64_t *tab, long *built, int *cu, int j, int s,
                       SList *st) {
    if (j == 9) {
        SList x, y;
        step(&st[9], cu[7], 0, &x);
        step(&x, cu[8], 0, &y);
        int r = 0, ss = 0;
        for (int i = 0; i < 9; i++) {
            r += OFF[i][ss][cu[i]];
            ss += cu[i];
        }
        if (!tab[r]) {
            tab[r] = pack_states(&y);
            (*built)++;
        }
        return;
    }
    for (int c = 0; c <= 4 && s + c <= MAXT; c++) {
        cu[j] = c;
        if (j >= 2)                    /* kind j - 2's step: its s_max reads cu[j] */
            step(&st[j], cu[j - 2], s_max_at(cu, 9, 0, j - 2), &st[j + 1]);
        else
            st[j + 1] = st[j];
        warm_suits(step, tab, built, cu, j + 1, s + c, st);
    }
}

/* every suit pattern of at most 14 tiles and every honors pattern into its slot, in the
 * plain (rel 0) or the relaxed tables: how many were built now */
static long warm_walk(int rel) {
    long before = rel ? built_rsuits + built_rhonors : built_suits + built_honors;
    static SList st[10];
    int cu[9] = {0};
    st[0].n = 1;
    st[0].key[0] = 0;
    st[0].d[0] = 0;
    warm_suits(rel ? dp_step_r : dp_step, rel ? suit_rtab : suit_tab,
               rel ? &built_rsuits : &built_suits, cu, 0, 0, st);
    memset(cu, 0, sizeof(cu));
    for (;;) {                                 /* the honors: every count vector */
        int s = 0;
        for (int i = 0; i < 7; i++)
            s += cu[i];
        if (s <= MAXT)
            table_in(cu, 3, rel);
        int i = 0;
        while (i < 7 && cu[i] == 4)
            cu[i++] = 0;
        if (i == 7)
            break;
        cu[i]++;
    }
    return (rel ? built_rsuits + built_rhonors : built_suits + built_honors) - before;
}

/* the plain tables warmed: how many were built now, or -1 with an exception set */
long warm_tables(void) {
    return tables_alloc() < 0 ? -1 : warm_walk(0);
}

/* the relaxed tables warmed (3.9 MB more, about 0.5-1 s): as warm_tables */
long warm_rtables(void) {
    return rtables_alloc() < 0 ? -1 : warm_walk(1);
}
