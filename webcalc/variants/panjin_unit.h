/* What webcalc/variants/panjin_unit.c (盘锦's unit search) shares with panjin_hand.c (a
 * hand's searches in one call): the search's states and tables, and the search itself.
 * Part of the one extension webcalc._pjunit (webcalc/_pjunit.h lists its sources). */
#ifndef WEBCALC_PANJIN_UNIT_H
#define WEBCALC_PANJIN_UNIT_H

#include "../_pjunit.h"

#define MAXE (MAXN + 1)        /* tables: the unit and the unit less one tile per kind */
#define NX 32                  /* jokers placed: 0..31 */
#define NF 32                  /* flags: PRES YJ TRIP SEQ RD */
#define NKEYS (5 * 5 * 5 * 2 * NX * NF)
#define PRES 1
#define YJ 2
#define TRIP 4
#define SEQ 8
#define RD 16

typedef struct {
    int key;
    int r[MAXE];
    uint64_t m[MAXE];
} State;

typedef struct {
    State *s;
    int n, cap;
    int *slot;                  /* key -> index in s + 1, or 0 (calloc: untouched pages of
                                 * the map are never made resident) */
} Table;

static inline int pack(int a, int b, int g, int p, int x, int fl) {
    return ((((a * 5 + b) * 5 + g) * 2 + p) * NX + x) * NF + fl;
}

/* a merge state's key (g, p, x, n suits, flags), as merge() keeps it */
#define MKEYS (5 * 2 * NX * 4 * NF)
static inline int mpack(int g, int p, int x, int n, int f) {
    return (((g * 2 + p) * NX + x) * 4 + n) * NF + f;
}

PJ_HIDDEN int table_init(Table *t);
PJ_HIDDEN void table_clear(Table *t);
PJ_HIDDEN State *table_get(Table *t, int key);
PJ_HIDDEN int prune(Table *src, Table *dst, int ne);
PJ_HIDDEN int pj_search(const int *unit, int n, const int *caps, const int *yj, int start,
                        int honors, int max_x, int limit, int jokers, int need_x, int groups,
                        const int *rest, const int *req, const int *drops, int nd,
                        int track_rd, int track_mask, Table **fin);

#endif
