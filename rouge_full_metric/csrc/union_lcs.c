/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* union back-traces against a peer sentence of at most 64 tokens (one mask word)               */

static inline int clz64(uint64_t x) {
#if defined(_MSC_VER)
    unsigned long k;
    _BitScanReverse64(&k, x);
    return 63 - (int)k;
#else
    return __builtin_clzll(x);
#endif
}

/* lmask shifted by one: id -1 (a token the prediction lacks) reads the always-zero first word, so
 * row loops look up masks without a branch. */
#define LMASK(w) ((w)->lmask + 1)

/* Columns 0..j-1 (j <= 64). */
static inline uint64_t low_bits(Py_ssize_t j) {
    return j >= 64 ? ~0ULL : (1ULL << j) - 1;
}

/* lcs_marks when the peer sentence has n <= 64 tokens, lmask[t] holding its columns of token t.
 * With V_i the bit-parallel rows, D_i = (~V_{i-1} & V_i) - (V_{i-1} & ~V_i) has bit j-1 set
 * exactly when c[i][j] > c[i-1][j] (each row moves one zero of V per run of ones that holds a
 * match, from the run's end down to its lowest match; the difference of the two bit sets fills
 * each such span, and for the top run, whose end is past the word, the borrow fills up to
 * bit 63).  At a mismatch c[i][j] = max(c[i-1][j], c[i][j-1]), so the Perl's "up when
 * c[i-1][j] >= c[i][j-1]" is "up unless bit j-1 of D_i", and the walk left along a row ends at
 * the highest lower column that matches or has a clear bit: one step per row. */
static void lcs_marks_word(WorkerObject *w, const int32_t *a, Py_ssize_t m, Py_ssize_t n, unsigned char *mark) {
    const uint64_t *lmask = LMASK(w);
    uint64_t *dv = w->rows, V = ~0ULL;
    int32_t *rowi = w->wrow;
    Py_ssize_t nm = 0;
    /* a row without matches leaves V as it is, and the walk goes straight up through it (D = 0):
     * only the rows with matches are kept */
    for (Py_ssize_t i = 0; i < m; i++) {
        uint64_t M = lmask[a[i]];
        uint64_t Vn = (V + (V & M)) | (V & ~M);
        dv[nm] = (~V & Vn) - (V & ~Vn);
        rowi[nm] = (int32_t)i;
        nm += M != 0;
        V = Vn;
    }
    Py_ssize_t j = n;
    for (Py_ssize_t q = nm; q > 0 && j > 0; q--) {
        Py_ssize_t i = rowi[q - 1];
        uint64_t M = lmask[a[i]];
        uint64_t S = (M | ~dv[q - 1]) & low_bits(j);
        if (!S) break;   /* left to column 0 */
        int p = 63 - clz64(S);
        unsigned char diag = (unsigned char)((M >> p) & 1);
        mark[i] |= diag;
        j = p + 1 - diag;
    }
}

/* A WLCS row without matches, in place over the row above: running maxima, runs of 0. */
static inline uint64_t wlcs_row_plain(double *c, Py_ssize_t n) {
    uint64_t d = 0;
    double left = 0.0;
    for (Py_ssize_t j = 1; j <= n; j++) {
        double up = c[j];
        d |= (uint64_t)(up >= left) << j;
        left = up > left ? up : left;
        c[j] = left;
    }
    return d;
}

/* wlcs_marks when the peer sentence has n <= 63 tokens (direction bits 1..n in one word), its
 * columns per token in lmask (entry -1 zero).  One row of values, updated in place.  A row
 * without matches under a nondecreasing row is that row again, with every step up and runs of
 * 0: it is skipped, so only the rows with matches are visited, plus, after a row that is not
 * nondecreasing, the next row when it has no match (which makes the row nondecreasing again).
 * Under a nondecreasing row a row also keeps the cells before its first match, and past its
 * last match the running maximum meets the row above at the first cell that reaches it, after
 * which the two agree.  Runs are kept at matches only (a mismatch's run is 0).  The back-trace
 * visits only the computed rows (a skipped row steps straight up) and walks left along a row to
 * the highest column that matches (diagonal) or goes up. */
static void wlcs_marks_word(WorkerObject *w, const uint64_t *lmask, const int32_t *a, Py_ssize_t m, Py_ssize_t n,
                            const double *f, unsigned char *mark) {
    double c[64];
    int32_t run[64];
    uint64_t *dir = w->rows, prevM = 0;
    int32_t *computed = w->wrow, *matched = w->wrow + m;
    Py_ssize_t ncomputed = 0, nmatched = 0, prev = -2;   /* prev: the last row with matches */
    for (Py_ssize_t i = 0; i < m; i++) {
        matched[nmatched] = (int32_t)i;
        nmatched += lmask[a[i]] != 0;
    }
    if (!nmatched) return;
    int monotone = 1;   /* row 0 is all zeros: nondecreasing */
    for (Py_ssize_t j = 0; j <= n; j++) { c[j] = 0.0; run[j] = 0; }
    for (Py_ssize_t q = 0; q < nmatched; q++) {
        Py_ssize_t i = matched[q];
        if (i > prev + 1) {
            prevM = 0;
            if (!monotone) {
                dir[prev + 1] = wlcs_row_plain(c, n);
                computed[ncomputed++] = (int32_t)(prev + 1);
                monotone = 1;
            }
        }
        uint64_t M = lmask[a[i]], bits = M, d = 0;
        Py_ssize_t j = 1, last = 0, last_match = -1;   /* last: the last cell updated */
        double left = 0.0, last_old = 0.0;            /* last_old: that cell's value in the row above */
        int32_t last_match_run = 0, next_monotone = 1;
        if (monotone) {
            j = ctz64(bits) + 1;
            d = low_bits(j) & ~1ULL;
            left = c[j - 1];
        }
        while (bits) {
            Py_ssize_t mc = ctz64(bits) + 1;
            bits &= bits - 1;
            for (; j < mc; j++) {
                double up = c[j];
                d |= (uint64_t)(up >= left) << j;
                left = up > left ? up : left;
                c[j] = left;
                last_old = up;
                last = j;
            }
            /* (c + f[k+1]) - f[k] from the diagonal cell, k its run (0 unless it matched) */
            double diag = last == mc - 1 ? last_old : c[mc - 1];
            int32_t k = 0;
            if (mc >= 2 && ((prevM >> (mc - 2)) & 1)) k = last_match == mc - 1 ? last_match_run : run[mc - 1];
            double v = diag + f[k + 1] - f[k];
            next_monotone &= v >= left;
            left = v;
            last_old = c[mc];
            c[mc] = v;
            last_match_run = run[mc];
            run[mc] = k + 1;
            last_match = last = mc;
            j = mc + 1;
        }
        if (monotone) {
            for (; j <= n; j++) {
                double up = c[j];
                if (up >= left) {
                    d |= ~0ULL << j;
                    break;
                }
                c[j] = left;
            }
        } else {
            for (; j <= n; j++) {
                double up = c[j];
                d |= (uint64_t)(up >= left) << j;
                left = up > left ? up : left;
                c[j] = left;
            }
        }
        dir[i] = d;
        computed[ncomputed++] = (int32_t)i;
        monotone = next_monotone;
        prevM = M;
        prev = i;
    }
    if (!monotone && prev + 1 < m) {
        dir[prev + 1] = wlcs_row_plain(c, n);
        computed[ncomputed++] = (int32_t)(prev + 1);
    }
    Py_ssize_t j = n;
    for (Py_ssize_t q = ncomputed; q > 0 && j > 0; q--) {
        Py_ssize_t i = computed[q - 1];
        uint64_t M = lmask[a[i]];
        uint64_t S = ((M << 1) | dir[i]) & (low_bits(j + 1) & ~1ULL);   /* columns 1..j */
        if (!S) break;
        int p = 63 - clz64(S);
        unsigned char diag = (unsigned char)((M >> (p - 1)) & 1);
        mark[i] |= diag;
        j = p - diag;
    }
}
