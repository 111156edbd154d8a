/* What panjin_advice.c (盘锦's 13-tile advice in one call) shares with panjin_advice14.c
 * (its 14-tile advice, every discard, in one call): the arguments both calls take, read
 * once, and a hand's searches as standard_drawn and discards_drawn (panjin_hand.c) take
 * them. Part of webcalc._pjunit (webcalc/_pjunit.h lists its sources). */
#ifndef WEBCALC_PANJIN_ADVICE_H
#define WEBCALC_PANJIN_ADVICE_H

#include "../_pjunit.h"

#define AINF 99
#define A_YJ 2                     /* panjin_unit.h's flags: 幺九, 刻, 顺 */
#define A_TRIP 4
#define A_SEQ 8

/* the arguments both calls take (panjin_advice's sixteenth, useful, only that call's) */
typedef struct {
    int real[34], caps[34], held[34], vis[34], nv;
    int jokers, room, groups, flags, allowed, piaohu, need_real, seven, indicator, kinds,
        useful;
    uint64_t wmask;                 /* the wildcard kinds as bits */
} AdviceArgs;

/* what a hand's searches share: the arguments standard_drawn takes but the limit and the
 * discard rule, and the relaxed bounds (relaxed_rest: whole[g][1] and the flat rest), as
 * numbers (hand_standard's searches read them as they are), and as tuples made when
 * hand_search first needs them */
typedef struct {
    PyObject *real, *caps, *rest;   /* owned: tuples of r, c, rs, never the caller's */
    int jokers, max_x, groups, suits0, want, allowed, none, whole;
    int r[34], c[34], rs[40];       /* the real counts, caps and rest tables */
    int m[4][10];                   /* r's units' relaxed minima (pj_relaxed_minima) */
    int req[4][20], has_req;        /* suit_req of r, once a search needs it */
    int has_m;                      /* m, rs and whole worked out (hand_minima) */
    /* the rows table's answer (panjin_table.c pjt_standard) per discard rule, once asked:
     * tab[need_real] 0 not yet, 1 found (tab_d, tab_m, tab_w), 2 no target, 3 not covered */
    int tab[2], tab_d[2], tab_w[2];
    uint64_t tab_m[2];
} Hand;

/* the arguments read and checked (useful: read a sixteenth); 0, 1 when the calls do not
 * cover them (the Python path answers: 七对 with its option, too many jokers, counts
 * above four), -1 with an exception set */
PJ_HIDDEN int read_advice_args(PyObject *args, AdviceArgs *a, int useful);
/* count_lower of real (34 counts) with a's other arguments: the count (AINF for None), -1
 * with an exception set, -2 for counts it does not take (the Python path answers) */
PJ_HIDDEN int advice_count(const AdviceArgs *a, const int *real);
/* the same with real's relaxed minima m already looked up (a Hand's m) */
PJ_HIDDEN int advice_count_of(const AdviceArgs *a, const int *real, int m[4][10]);
/* h's numbers from a (its tuples NULL); hand_counts: h's real counts and caps from 34
 * real counts and caps (its tuples dropped, made again when hand_search needs them; its
 * table answers and relaxed minima forgotten), 0 or -1 with an exception set; hand_clear
 * drops the tuples */
PJ_HIDDEN void hand_init(Hand *h, const AdviceArgs *a);
PJ_HIDDEN int hand_counts(Hand *h, const int *real, const int *caps);
PJ_HIDDEN void hand_clear(Hand *h);
/* h's relaxed minima, rest and whole from its counts, once (hand_counts leaves them to
 * the first search that needs them): 0, or -1 with an exception set */
PJ_HIDDEN int hand_minima(Hand *h);
/* the rows table's answer for h (panjin_table.c pjt_standard), once per discard rule:
 * 1 found (h->tab_d, tab_m, tab_w), 2 no target, 3 the table does not cover the hand */
PJ_HIDDEN int hand_table(Hand *h, int need_real);
/* standard_drawn (discards NULL) or discards_drawn (of the kinds in discards, a list) of
 * the hand at limit, as panjin_hand.c answers; NULL with an exception set */
PJ_HIDDEN PyObject *hand_search(Hand *h, int limit, int need_real, PyObject *discards);
/* one answer (d, drawn, wild) or None of those read: 1 with *d, *mask, *wild set, 0 for
 * None, -1 with an exception set */
PJ_HIDDEN int read_found(PyObject *found, int *d, uint64_t *mask, int *wild);
/* panjin_standard_drawn of the hand at limit, on its numbers (no tuple): 1 with *d, *mask,
 * *wild set, 0 for None, -1 with an exception set */
PJ_HIDDEN int hand_standard(Hand *h, int limit, int need_real, int *d, uint64_t *mask,
                            int *wild);

#endif
