/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* union back-traces against a peer sentence of at most 64 tokens (one mask word)               */

/* lmask (lmaskr) shifted by one: id -1 (a token the prediction lacks) reads the always-zero first
 * word, so row loops look up masks without a branch. */
#define LMASK(w) ((w)->lmask + 1)
#define LMASKR(w) ((w)->lmaskr + 1)

/* Columns 0..j-1 (j <= 64). */
static inline uint64_t low_bits(Py_ssize_t j) {
    return j >= 64 ? ~0ULL : (1ULL << j) - 1;
}

/* One lane: model sentence pb[0:pn] (0 < pn, bits + 1 + pn <= 64 when bits) packed after the
 * `bits` bits already used, its columns set in lm / lmr (unless NULL: the caller reverses lm's
 * words instead) and its bits added to K, G, X0 (see lcs_marks_packed below); the bits used
 * after it. */
static inline Py_ssize_t pack_lane(uint64_t *lm, uint64_t *lmr, const int32_t *pb, Py_ssize_t pn, Py_ssize_t bits,
                                   uint64_t *K, uint64_t *G, uint64_t *X0) {
    Py_ssize_t s0 = bits ? bits + 1 : 0;
    for (Py_ssize_t j = 0; j < pn; j++) {
        lm[pb[j]] |= 1ULL << (s0 + j);
        if (lmr) lmr[pb[j]] |= 1ULL << (63 - s0 - j);
    }
    *K |= low_bits(pn) << s0;
    if (bits) *G |= 1ULL << bits;
    *X0 |= 1ULL << (64 - s0 - pn);
    return s0 + pn;
}

/* One peer row of the lanes (Hyyro's step, see lcs_marks_packed below): V becomes the next
 * row's, the row's walk bits are returned. */
static inline uint64_t packed_row(uint64_t *V, uint64_t M, uint64_t K, uint64_t G) {
    uint64_t v = *V, Vn = ((v & K) + (v & M)) | (v & ~M);
    uint64_t D = ((~v & Vn) | G) - (v & ~Vn);
    *V = Vn;
    return D & K & ~M;
}

/* One step of the lanes' walks back up a kept row (see lcs_marks_packed below): Z the row's
 * reversed walk bits, lmr the reversed columns of its peer token, r the caller's word for the row
 * (its row index here, its token's local id in single_ref.c), of which only the top bit is read:
 * set on the last kept row of a peer sentence, where the walks restart at X0.  X moves on; the
 * returned bits are the lanes that take the token diagonally. */
static inline uint64_t packed_walk(uint64_t *X, uint64_t X0, uint64_t Z, uint64_t lmr, uint32_t r) {
    uint64_t x = (r >> 31) ? X0 : *X, F = (Z + x) & ~Z, dg = F & lmr;
    *X = F + dg;
    return dg;
}

/* lcs_marks of several model sentences at once against every peer sentence (a: the peer's
 * tokens, send: its ns sentence ends), one pass over the peer.  The model sentences sit side by
 * side in one word as lanes (columns per token in LMASK, the same bits reversed in LMASKR; K: the
 * lanes' bits), a guard bit between two lanes (G).
 *
 * Rows: Hyyro's V' = (V + (V & M)) | (V & ~M) per lane.  A guard is 0 in V & K and in M, so a
 * carry out of a lane stops in it (V keeps garbage only outside its lanes; V & K drops it).
 * With on = ~V & V' and off = V & ~V', D = (on | G) - off has bit j-1 of a lane set exactly when
 * c[i][j] > c[i-1][j]: each row moves one zero of V per run of ones that holds a match, from the
 * run's end down to its lowest match, and the difference fills each such span; the lane's last
 * off, whose on lies past the lane, borrows from the guard above it, whose 1 stops the borrow
 * there (the last lane's borrow runs out of the word); K drops the bits outside the lanes.
 *
 * Walks: at a mismatch c[i][j] = max(c[i-1][j], c[i][j-1]), so the Perl's "up when c[i-1][j] >=
 * c[i][j-1]" is "up unless bit j-1 of D", and a walk left along a row ends at the highest lower
 * column that matches or has D clear: one step per row, diagonal on a match.  A row without
 * matches leaves V as it is and every walk goes straight up through it (D = M = 0), so only the
 * rows with matches are kept.  All lanes walk at once on the reversed bits, where a lane's
 * column j sits at bit 63 - s - j (s: the lane's first bit) and "left" is up: X holds one bit
 * per lane at its highest allowed column, Z = rev(D & ~M & K) is 1 exactly at the columns a walk
 * passes over, so Z + X carries each lane's bit up over them to its stop, F = (Z + X) & ~Z.  A
 * walk that passes column 0 carries into the bit above its lane (the guard before it, never in
 * Z) and stays there; lane 0's bit leaves the word, which ends its walk too.  A diagonal step
 * moves the bit up one more (X = F + diagonals).  X restarts at X0 (every lane at its last
 * column) at each peer sentence's last kept row, flagged by the top bit of its row index. */
static void lcs_marks_packed(WorkerObject *w, const int32_t *a, const int32_t *send, Py_ssize_t ns, uint64_t K,
                             uint64_t G, uint64_t X0, unsigned char *mark) {
    const uint64_t *lm = LMASK(w), *lmr = LMASKR(w);
    uint64_t *zr = w->rows;
    uint32_t *rowi = (uint32_t *)w->wrow;
    Py_ssize_t nm = 0, start = 0;
    for (Py_ssize_t s = 0; s < ns; s++) {
        Py_ssize_t end = send[s], nm0 = nm;
        uint64_t V = K;
        for (Py_ssize_t i = start; i < end; i++) {
            uint64_t M = lm[a[i]];
            zr[nm] = packed_row(&V, M, K, G);
            rowi[nm] = (uint32_t)i;
            nm += M != 0;
        }
        if (nm > nm0) rowi[nm - 1] |= 0x80000000u;
        start = end;
    }
    rev_words(zr, nm);
    uint64_t X = X0;
    for (Py_ssize_t q = nm - 1; q >= 0; q--) {
        uint32_t r = rowi[q];
        Py_ssize_t i = (Py_ssize_t)(r & 0x7fffffffu);
        mark[i] |= packed_walk(&X, X0, zr[q], lmr[a[i]], r) != 0;
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
