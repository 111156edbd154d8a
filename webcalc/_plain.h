/* webcalc._plain's shared declarations (one extension, its sources split by job; setup.py
 * lists them):
 *
 *   webcalc/_plain.c          the module: arguments, the API's rows, the method table
 *   webcalc/_plain_tables.c   the dense unit tables: the slots, a table's DP, the warm walk
 *   webcalc/_plain_search.c   a hand's distance and every draw's, 13 tiles or each discard
 *                             of 14, from those tables (free_draws' answer)
 *
 * See webcalc/_plain.c for what the module answers. */
#ifndef WEBCALC_PLAIN_H
#define WEBCALC_PLAIN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define TINF 99                    /* never ready (shanten.py INF) */
#define BIG 10000
#define NOD 31u                    /* a packed D: no row */
#define BUILT ((uint64_t)1 << 63)  /* a slot's flag: its table is made */
#define MAXT 14                    /* tiles in a suit at most */
#define G 4                        /* groups to make: no melds */
#define NHON 78125                 /* 5 ** 7 */
#define SH_SEVEN 1
#define SH_KNIT 4
#define SH_ORPH 8

#if defined(__GNUC__)
#define PL_HIDDEN __attribute__((visibility("hidden")))
#else
#define PL_HIDDEN
#endif

static const int UA[4] = {0, 9, 18, 27}, UN[4] = {9, 9, 9, 7};

/* _plain_tables.c: the slots (a suit's by its rank, OFF; the honors' in base 5) */
PL_HIDDEN extern int OFF[9][MAXT + 1][5];
PL_HIDDEN extern long n_suits, built_suits, built_honors;
PL_HIDDEN extern uint64_t *suit_tab, *honor_tab;
PL_HIDDEN uint64_t unit_build(const int *unit, int n, int honors);
PL_HIDDEN int tables_alloc(void);
PL_HIDDEN long warm_tables(void);

/* the slot of unit u's table (0-2 a suit, 3 the honors), counts cu */
static inline uint64_t *slot_of(const int *cu, int u) {
    if (u < 3) {
        int r = 0, s = 0;
        for (int i = 0; i < 9; i++) {
            r += OFF[i][s][cu[i]];
            s += cu[i];
        }
        return &suit_tab[r];
    }
    int x = 0;
    for (int i = 6; i >= 0; i--)
        x = x * 5 + cu[i];
    return &honor_tab[x];
}

/* the packed table of unit u of counts cu (a suit at most MAXT tiles: the callers keep to
 * that), built into its slot when empty */
static inline uint64_t table_of(const int *cu, int u) {
    uint64_t *slot = slot_of(cu, u);
    if (!*slot) {
        *slot = unit_build(cu, UN[u], u == 3);
        if (u < 3)
            built_suits++;
        else
            built_honors++;
    }
    return *slot;
}

/* _plain_search.c: free_draws' triple, (d, lower, zero) */
typedef struct {
    int d;
    uint64_t lower, zero;
} Triple;
PL_HIDDEN int draws13(const int *c, int shapes, Triple *out);
PL_HIDDEN int draws14(const int *c, int shapes, const int *ds, int nd, Triple *out);

#endif
