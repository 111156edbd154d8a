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
                        int track_rd, int track_mask, int restrict_x, Table **fin);

/* The restricted searches (restrict_x 1, or 2 where the unit's suit counts for
 * PJ-4; panjin_draws.py unit_panjin_drawn_drops' restrict): no drawn joker where a real
 * tile could stand, and a drawn mask's bits SUB0 + L say that some cheapest path draws a
 * real tile a drawn joker could stand for, its flags then lacking L (PRES | YJ | TRIP at
 * most; panjin_merge.py SUB0 tells why). sub_clear: those bits with each L less gone;
 * sub_merge: panjin_merge.py _sub_merge. */
#define SUB0 50
#define SUBS ((uint64_t)0xFF << SUB0)
PJ_HIDDEN extern unsigned char sub_table[8][256];
PJ_HIDDEN void sub_table_init(void);      /* before the first sub_clear */
static inline uint64_t sub_clear(uint64_t m, int gone) {
    int f = (int)(m >> SUB0 & 0xFF);
    return f ? (m & ~SUBS) | (uint64_t)sub_table[gone & 7][f] << SUB0 : m;
}
/* whether a merge step's state (g3 groups, p3 pairs, x3 jokers placed, cost r3) can still
 * end within limit: places left for the hand's jokers, and r3 plus the least it must still
 * pay (jokers not yet placed, places the k_u free fillers to come cannot fill); its twin:
 * panjin_merge.py _merge_drawn */
static inline int merge_admits(int g3, int p3, int x3, int r3, int groups, int jokers,
                               int k_u, int limit) {
    int still = 3 * (groups - g3) + 2 * (1 - p3);
    if (x3 + still < jokers)
        return 0;
    int lb = x3 - jokers;
    if (still + x3 - k_u > lb) lb = still + x3 - k_u;
    if (lb < 0) lb = 0;
    return r3 + lb <= limit;
}
static inline uint64_t sub_merge(uint64_t m, uint64_t m2, int f, int fl, int counts_suit,
                                 int want) {
    if (!((m | m2) & SUBS))
        return m | m2;
    int keep = (counts_suit ? PRES : 0) | (want & ~f & (YJ | TRIP));
    return ((m | m2) & ~SUBS) | sub_clear(m & SUBS, fl & want & (YJ | TRIP))
           | sub_clear(m2 & SUBS, 7 & ~keep);
}

#endif
