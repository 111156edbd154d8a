/* Issue 38, round 11 (bench/RESULTS.md): a 13-tile 盘锦 hand from its four units' unbounded
   rows, as an install-time table would give them, measured. Not part of the package.

     python bench/pj_unit_rows.py --hands 1000 --seed 51 --no-check --no-time --dump rows.txt
     cc -O2 -o /tmp/pj_table_merge bench/pj_table_merge.c && /tmp/pj_table_merge rows.txt 5

   Per hand (no melds, so PJ-4 wants the three suits): each unit's least r + x by (groups,
   pair) (its relaxed table), the other units' combined by min-plus (prefix and suffix),
   each row's bound max(r + max(0, x - J), r + x + others - J) (a target costs Σr +
   max(0, Σx - J) ≥ both), the limit from the largest of the units' least bounds up; at
   each limit the rows within it merged exactly (the merge of
   webcalc/variants/panjin_merge.py, a state also dropped when its r + x + the units still
   to come exceed the limit) and read as _drawn_best reads them. Prints the hands whose
   (d, drawn mask, wildcard) differ from the dump's, then µs a hand per wildcard count
   (CPU time, best of the passes), merge pairs and limits tried a hand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PRES 1
#define WANT 14 /* YJ | TRIP | SEQ */
#define NONE 99

typedef struct { uint8_t g, p, x, fl, r; uint64_t m; } Row;
typedef struct {
    int w, jokers, max_x, need_real, d, wild;
    uint64_t mask;
    int n[4];
    Row *rows[4];
} Hand;

static Hand hands[20000];
static int n_hands;
static long pairs_tried, limits_tried;

/* relaxed tables: [g * 2 + p] -> least r + x */
static void relaxed(const Hand *h, int u, uint8_t *t) {
    memset(t, NONE, 10);
    for (int i = 0; i < h->n[u]; i++) {
        const Row *w = &h->rows[u][i];
        int v = w->r + w->x, k = w->g * 2 + w->p;
        if (v < t[k]) t[k] = (uint8_t)v;
    }
}

static void min_plus(const uint8_t *a, const uint8_t *b, uint8_t *out) {
    memset(out, NONE, 10);
    for (int i = 0; i < 10; i++) {
        if (a[i] >= NONE) continue;
        for (int j = 0; j < 10; j++) {
            if (b[j] >= NONE) continue;
            int g = (i >> 1) + (j >> 1), p = (i & 1) + (j & 1);
            if (g > 4 || p > 1) continue;
            int v = a[i] + b[j];
            if (v < out[g * 2 + p]) out[g * 2 + p] = (uint8_t)v;
        }
    }
}

/* merge states, dense: (g, p, x, suits shown, wanted flags >> 1) */
#define AX 10
#define ACC (5 * 2 * AX * 4 * 8)
static inline int acc_index(int g, int p, int x, int n, int f) {
    return (((g * 2 + p) * AX + x) * 4 + n) * 8 + f;
}
static inline void acc_key(int k, int *g, int *p, int *x, int *n, int *f) {
    *f = k & 7;
    *n = (k >> 3) & 3;
    *x = (k >> 5) % AX;
    *p = (k >> 5) / AX & 1;
    *g = (k >> 5) / AX >> 1;
}
static uint8_t acc_r[2][ACC], acc_on[2][ACC];
static uint64_t acc_m[2][ACC];
static int acc_live[2][ACC], acc_n[2];

static int solve(const Hand *h, uint64_t *mask_out, int *wild_out) {
    const int J = h->jokers;
    uint8_t rel[4][10], pre[4][10], suf[4][10], other[4][10];
    for (int u = 0; u < 4; u++) relaxed(h, u, rel[u]);
    memcpy(pre[0], rel[0], 10);
    for (int u = 1; u < 4; u++) min_plus(pre[u - 1], rel[u], pre[u]);
    memcpy(suf[3], rel[3], 10);
    for (int u = 2; u >= 0; u--) min_plus(rel[u], suf[u + 1], suf[u]);
    memcpy(other[0], suf[1], 10);
    memcpy(other[3], pre[2], 10);
    for (int u = 1; u < 3; u++) min_plus(pre[u - 1], suf[u + 1], other[u]);
    static uint8_t bound[4][512];
    int low = 0;
    for (int u = 0; u < 4; u++) {
        int least = NONE;
        for (int i = 0; i < h->n[u]; i++) {
            const Row *w = &h->rows[u][i];
            int own = w->r + (w->x > J ? w->x - J : 0);
            int v = w->r + w->x + other[u][(4 - w->g) * 2 + 1 - w->p] - J;
            if (v < own) v = own;
            if (v > NONE) v = NONE;
            bound[u][i] = (uint8_t)v;
            if (v < least) least = v;
        }
        if (least > low) low = least;
    }
    static const Row *kept[4][512];
    int n_kept[4];
    for (int limit = low; limit < NONE; limit++) {
        limits_tried++;
        for (int u = 0; u < 4; u++) {
            n_kept[u] = 0;
            for (int i = 0; i < h->n[u]; i++)
                if (bound[u][i] <= limit) kept[u][n_kept[u]++] = &h->rows[u][i];
        }
        int cur = 0;
        int k0 = acc_index(0, 0, 0, 0, 0);
        acc_n[0] = 0;
        acc_r[0][k0] = 0; acc_m[0][k0] = 0; acc_on[0][k0] = 1; acc_live[0][acc_n[0]++] = k0;
        for (int u = 0; u < 4; u++) {
            int nx = cur ^ 1;
            const uint8_t *later = u < 3 ? suf[u + 1] : NULL;
            acc_n[nx] = 0;
            for (int a = 0; a < acc_n[cur]; a++) {
                int k = acc_live[cur][a];
                acc_on[cur][k] = 0;
                int g, p, x, n, f;
                acc_key(k, &g, &p, &x, &n, &f);
                int r = acc_r[cur][k];
                uint64_t m = acc_m[cur][k];
                for (int i = 0; i < n_kept[u]; i++) {
                    const Row *w = kept[u][i];
                    pairs_tried++;
                    int g3 = g + w->g, p3 = p + w->p, x3 = x + w->x;
                    if (g3 > 4 || p3 > 1 || x3 > h->max_x) continue;
                    if (x3 + 3 * (4 - g3) + 2 * (1 - p3) < J) continue;  /* every joker placed */
                    int r3 = r + w->r;
                    if (r3 + (x3 > J ? x3 - J : 0) > limit) continue;
                    if (later && r3 + x3 + later[(4 - g3) * 2 + 1 - p3] - J > limit) continue;
                    int n3 = n + ((u < 3 && (w->fl & PRES)) ? 1 : 0);
                    int f3 = f | ((w->fl & WANT) >> 1);
                    int k2 = acc_index(g3, p3, x3, n3, f3);
                    uint64_t m3 = m | w->m;
                    if (!acc_on[nx][k2]) {
                        acc_on[nx][k2] = 1; acc_live[nx][acc_n[nx]++] = k2;
                        acc_r[nx][k2] = (uint8_t)r3; acc_m[nx][k2] = m3;
                    } else if (r3 < acc_r[nx][k2]) {
                        acc_r[nx][k2] = (uint8_t)r3; acc_m[nx][k2] = m3;
                    } else if (r3 == acc_r[nx][k2]) {
                        acc_m[nx][k2] |= m3;
                    }
                }
            }
            cur = nx;
        }
        int best = NONE, wild = 0;
        uint64_t mask = 0;
        for (int a = 0; a < acc_n[cur]; a++) {
            int k = acc_live[cur][a];
            acc_on[cur][k] = 0;
            int g, p, x, n, f;
            acc_key(k, &g, &p, &x, &n, &f);
            if (g != 4 || p != 1 || x < J || n != 3 || f != 7) continue;
            int r = acc_r[cur][k];
            uint64_t m = acc_m[cur][k];
            int cost = r + (x > J ? x - J : 0);
            if (h->need_real) {           /* _drawn_best: the discard-win rule */
                if (!r) cost++;
                if (r < 2) m = 0;
            }
            if (cost < best) { best = cost; mask = m; wild = x > J; }
            else if (cost == best) { mask |= m; wild |= x > J; }
        }
        if (best <= limit) { *mask_out = mask; *wild_out = wild; return best; }
    }
    return -1;
}

static int read_hands(const char *path) {
    FILE *fh = fopen(path, "r");
    if (!fh) return 0;
    while (n_hands < 20000) {
        Hand *h = &hands[n_hands];
        unsigned long long mask;
        if (fscanf(fh, "%d %d %d %d %d %llu %d", &h->w, &h->jokers, &h->max_x, &h->need_real,
                   &h->d, &mask, &h->wild) != 7) break;
        h->mask = mask;
        for (int u = 0; u < 4; u++) {
            if (fscanf(fh, "%d", &h->n[u]) != 1 || h->n[u] > 512) return 0;
            h->rows[u] = malloc(sizeof(Row) * (size_t)(h->n[u] + 1));
            for (int i = 0; i < h->n[u]; i++) {
                int g, p, x, fl, r;
                unsigned long long m;
                if (fscanf(fh, "%d %d %d %d %d %llu", &g, &p, &x, &fl, &r, &m) != 6) return 0;
                h->rows[u][i] = (Row){(uint8_t)g, (uint8_t)p, (uint8_t)x, (uint8_t)fl, (uint8_t)r, m};
            }
        }
        n_hands++;
    }
    fclose(fh);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2 || !read_hands(argv[1])) {
        fprintf(stderr, "usage: pj_table_merge ROWS_FILE [PASSES]\n");
        return 2;
    }
    int differ = 0;
    for (int i = 0; i < n_hands; i++) {
        uint64_t m = 0;
        int wild = 0, d = solve(&hands[i], &m, &wild);
        if (d != hands[i].d || (d >= 0 && (m != hands[i].mask || wild != hands[i].wild))) {
            if (differ++ < 5)
                printf("hand %d: %d %llx %d, the dump %d %llx %d\n", i, d, (unsigned long long)m,
                       wild, hands[i].d, (unsigned long long)hands[i].mask, hands[i].wild);
        }
    }
    printf("%d hands, %d differ\n", n_hands, differ);
    int passes = argc > 2 ? atoi(argv[2]) : 5;
    for (int w = 0; w < 3; w++) {
        double best = 1e18;
        long pairs = 0, limits = 0;
        int k = 0;
        for (int pass = 0; pass < passes; pass++) {
            struct timespec t0, t1;
            pairs_tried = limits_tried = 0;
            k = 0;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
            for (int i = 0; i < n_hands; i++)
                if (hands[i].w == w) {
                    uint64_t m;
                    int wild;
                    solve(&hands[i], &m, &wild);
                    k++;
                }
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
            double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3;
            if (us < best) best = us;
            pairs = pairs_tried;
            limits = limits_tried;
        }
        if (k)
            printf("w%d: %d hands, %.2f µs a hand (best of %d), merge pairs %.0f, limits %.2f a hand\n",
                   w, k, best / k, passes, (double)pairs / k, (double)limits / k);
    }
    return 0;
}
