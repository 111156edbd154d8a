/* achievable_flags: every (has_real_triplet, has_sequence) pair some standard split of a
 * hand reaches. The twin of webcalc/decompose.py _achievable_flags (the same choices for
 * the lowest real tile, the same flags, the same end condition); tests/test_pjunit_flags.py
 * holds the two equal. No table is kept between calls. */
#include "_pjunit.h"

/* the flags as a 4-bit set: bit (trip * 2 + seq) for each pair reached */
typedef struct {
    int c[34];
    int in_triplet;
} AFState;

static int af_dfs(AFState *s, int from, int jokers, int melds, int pair) {
    int *c = s->c;
    int i = from;
    while (i < 34 && !c[i])
        i++;
    if (i == 34) {
        if (jokers != 3 * melds + 2 * pair)
            return 0;
        return 1 << (melds > 0 && !s->in_triplet);          /* (False, seq) */
    }
    int ci = c[i], out = 0, sub;
#define AF_ADD(trip, seq, sub_)                                                          \
    do {                                                                                 \
        int m_ = (sub_);                                                                 \
        for (int b_ = 0; b_ < 4; b_++)                                                   \
            if (m_ >> b_ & 1)                                                            \
                out |= 1 << (((b_ >> 1) | (trip)) << 1 | ((b_ & 1) | (seq)));            \
        if (out == 15)                                                                   \
            return out;                                                                  \
    } while (0)
    if (pair > 0) {
        if (ci >= 2) {                          /* a real pair: a 刻 when an honor */
            c[i] = ci - 2;
            sub = af_dfs(s, i, jokers, melds, pair - 1);
            c[i] = ci;
            AF_ADD(i >= 27, 0, sub);
        }
        if (jokers >= 1) {
            c[i] = ci - 1;
            sub = af_dfs(s, i, jokers - 1, melds, pair - 1);
            c[i] = ci;
            AF_ADD(0, 0, sub);
        }
    }
    if (melds <= 0)
        return out;
    if (ci >= 3) {
        c[i] = ci - 3;
        sub = af_dfs(s, i, jokers, melds - 1, pair);
        c[i] = ci;
        AF_ADD(1, 0, sub);
    }
    if (s->in_triplet) {
        if (ci >= 2 && jokers >= 1) {
            c[i] = ci - 2;
            sub = af_dfs(s, i, jokers - 1, melds - 1, pair);
            c[i] = ci;
            AF_ADD(0, 0, sub);
        }
        if (jokers >= 2) {
            c[i] = ci - 1;
            sub = af_dfs(s, i, jokers - 2, melds - 1, pair);
            c[i] = ci;
            AF_ADD(0, 0, sub);
        }
    }
    if (i < 27) {
        int base = i / 9 * 9;
        for (int a = i - 2; a <= i; a++) {
            if (a < base || a + 2 > base + 8)
                continue;
            /* places below i are jokers; i is real; above i real (when held) or a joker */
            int below = i - a;                  /* jokers below i */
            int k1 = i + 1, k2 = i + 2;         /* the places above i, when in the run */
            int above = a + 2 - i;              /* 0, 1 or 2 places above i */
            for (int r1 = 0; r1 < (above >= 1 ? 2 : 1); r1++) {   /* r1: place k1 real */
                if (r1 && c[k1] < 1)
                    continue;
                for (int r2 = 0; r2 < (above >= 2 ? 2 : 1); r2++) {
                    if (r2 && c[k2] < 1)
                        continue;
                    int need = below + (above >= 1 && !r1) + (above >= 2 && !r2);
                    if (need > jokers)
                        continue;
                    c[i] = ci - 1;
                    if (r1)
                        c[k1]--;
                    if (r2)
                        c[k2]--;
                    sub = af_dfs(s, i, jokers - need, melds - 1, pair);
                    c[i] = ci;
                    if (r1)
                        c[k1]++;
                    if (r2)
                        c[k2]++;
                    AF_ADD(0, 1, sub);
                }
            }
        }
    }
#undef AF_ADD
    return out;
}

/* achievable_flags(counts, jokers, melds, pair, in_triplet) -> the 4-bit set above, or None
 * outside 34 counts of 0-4, 0-14 jokers, 0-4 melds and 0-1 pair (the twin answers). */
PyObject *achievable_flags(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "achievable_flags: five arguments");
        return NULL;
    }
    AFState st;
    int got = read_ints(args[0], st.c, 34, "counts");
    if (got < 0)
        return NULL;
    long jokers = PyLong_AsLong(args[1]);
    long melds = PyLong_AsLong(args[2]);
    long pair = PyLong_AsLong(args[3]);
    int in_triplet = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || in_triplet < 0)
        return NULL;
    if (got != 34 || jokers < 0 || jokers > 14 || melds < 0 || melds > 4 || pair < 0 ||
        pair > 1)
        Py_RETURN_NONE;
    for (int k = 0; k < 34; k++)
        if (st.c[k] < 0 || st.c[k] > 4)
            Py_RETURN_NONE;
    st.in_triplet = in_triplet;
    return PyLong_FromLong(af_dfs(&st, 0, (int)jokers, (int)melds, (int)pair));
}
