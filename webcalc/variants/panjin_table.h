/* What panjin_table.c (盘锦's rows table: built, mapped, looked up) shares with
 * panjin_table_merge.c (hands answered from it). Part of webcalc._pjunit. */
#ifndef WEBCALC_PANJIN_TABLE_H
#define WEBCALC_PANJIN_TABLE_H

#include "panjin_unit.h"

#define PJT_TILES 7               /* real tiles a unit may hold to be in the table */
#define PJT_MAXROWS 1024          /* rows a key (more: the build refuses) */
#define PJT_REL 20                /* a key's least r + x by (g, p): all rows, the suit's */
#define PJT_NONE 99               /* no row at that (g, p) */

/* a unit's packed rows in the loaded table (*nr of them, sorted by (g, p); each: mask 0-8,
 * r 9-12, flags 13-16, x 17-19, p 20, g 21-23) and its least r + x by (g, p) (*rel:
 * PJT_REL bytes, [g * 2 + p] of all rows, [10 + g * 2 + p] of those that show the suit),
 * or NULL when no table is loaded or it does not cover the unit (u 0-2 a suit, 3 the
 * honours; counts and caps of its kinds) */
PJ_HIDDEN const uint32_t *pjt_unit_rows(int u, const int *counts, const int *caps, int jokers,
                                        int max_x, int *nr, const uint8_t **rel);

#endif
