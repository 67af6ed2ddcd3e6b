/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* defined in a file included later */
static double pair_count(Py_ssize_t T, Py_ssize_t gap);

/* ------------------------------------------------------------------------------------------ */
/* skip-bigrams of long texts: memory bounded whatever the gap and vocabulary                   */

/* Pair tables of the blocked path: int64 cells per table (2 tables: 8 MiB). */
#define BLOCK_CELLS ((Py_ssize_t)1 << 19)

/* Add the pair counts of tokens t[0..T) (prediction-local ids, -1: skipped but still a position)
 * whose second token b is in [b0, b0 + B) to rows (b - b0) * D of tab; *touched lists the rows
 * written (flag marks them).  win[a] counts id a among the positions within reach of the current
 * one (all earlier positions when gap < 0); it is zero on entry and on return.  One pass over a
 * long text is the whole cost of a block (a million tokens by a hundred thousand distinct ones
 * took minutes uncut), so it polls; once w->stop is set the rows are meaningless (callers
 * check w->stop) but win is still cleared. */
static void pair_rows(WorkerObject *w, const int32_t *t, Py_ssize_t T, Py_ssize_t gap, Py_ssize_t D,
                      Py_ssize_t b0, Py_ssize_t B, int64_t *tab, int32_t *win, unsigned char *flag,
                      int32_t *touched, Py_ssize_t *ntouched) {
    Py_ssize_t hi = 0, acc = 0;   /* ids a >= hi have win[a] == 0 */
    for (Py_ssize_t j = 0; j < T; j++) {
        if (gap >= 0 && j - gap - 2 >= 0 && t[j - gap - 2] >= 0) win[t[j - gap - 2]]--;
        int32_t b = t[j];
        if (b < 0) continue;
        if (b >= b0 && b < b0 + B) {
            int64_t *row = tab + (Py_ssize_t)(b - b0) * D;
            if (!flag[b - b0]) { flag[b - b0] = 1; touched[(*ntouched)++] = b - (int32_t)b0; }
            for (Py_ssize_t a = 0; a < hi; a++) row[a] += win[a];
            acc += hi;
        }
        win[b]++;
        if (b >= hi) hi = b + 1;
        if (POLL_LOOP(w, acc, 1)) break;
    }
    memset(win, 0, (size_t)hi * sizeof(int32_t));
}

/* pair_part for long texts: the D x D pair tables (cell b * D + a: a before b, within the gap)
 * of the prediction and each reference are built and compared a block of rows at a time, so
 * memory stays at 2 x BLOCK_CELLS counts whatever the number of pairs, and time is
 * O((prediction + references) x D) adds per text plus one scan per block. */
static int pair_part_blocked(WorkerObject *w, Py_ssize_t M, Py_ssize_t D, Py_ssize_t gap, double *ph,
                             double *prc) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n;
    for (Py_ssize_t r = 0; r < M; r++) {
        ph[r] = 0.0;
        prc[r] = pair_count(w->lro[r + 1] - w->lro[r], gap);
    }
    if (D == 0) return 0;
    Py_ssize_t B = BLOCK_CELLS / D;
    if (B < 1) B = 1;
    if (B > D) B = D;
    int64_t *P = (int64_t *)calloc((size_t)(B * D), sizeof(int64_t));
    int64_t *R = (int64_t *)calloc((size_t)(B * D), sizeof(int64_t));
    int32_t *win = (int32_t *)calloc((size_t)D, sizeof(int32_t));
    int32_t *ptouched = (int32_t *)malloc((size_t)B * sizeof(int32_t));
    int32_t *rtouched = (int32_t *)malloc((size_t)B * sizeof(int32_t));
    unsigned char *pflag = (unsigned char *)calloc((size_t)B, 1), *rflag = (unsigned char *)calloc((size_t)B, 1);
    int rc = -1;
    if (!P || !R || !win || !ptouched || !rtouched || !pflag || !rflag) goto done;
    for (Py_ssize_t b0 = 0; b0 < D; b0 += B) {
        Py_ssize_t nb = D - b0 < B ? D - b0 : B, np = 0;
        pair_rows(w, lp, pn, gap, D, b0, nb, P, win, pflag, ptouched, &np);
        for (Py_ssize_t r = 0; r < M && !w->stop; r++) {
            Py_ssize_t nr = 0, acc = 0;
            pair_rows(w, w->lr.v + w->lro[r], w->lro[r + 1] - w->lro[r], gap, D, b0, nb, R, win, rflag,
                      rtouched, &nr);
            int64_t hits = 0;
            for (Py_ssize_t q = 0; q < nr && !POLL_LOOP(w, acc, D); q++) {
                int64_t *y = R + (Py_ssize_t)rtouched[q] * D;
                if (pflag[rtouched[q]]) {
                    const int64_t *x = P + (Py_ssize_t)rtouched[q] * D;
                    for (Py_ssize_t a = 0; a < D; a++) hits += x[a] < y[a] ? x[a] : y[a];
                }
                memset(y, 0, (size_t)D * sizeof(int64_t));
                rflag[rtouched[q]] = 0;
            }
            ph[r] += (double)hits;
        }
        for (Py_ssize_t q = 0; q < np; q++) {
            memset(P + (Py_ssize_t)ptouched[q] * D, 0, (size_t)D * sizeof(int64_t));
            pflag[ptouched[q]] = 0;
        }
        if (w->stop) break;   /* ph is meaningless (callers check w->stop); the tables are ours alone */
    }
    rc = 0;
done:
    free(P); free(R); free(win); free(ptouched); free(rtouched); free(pflag); free(rflag);
    return rc;
}

/* Closed-form pair count of T tokens within gap (an estimate for choosing a path; pair_count
 * is the exact sum the scores use). */
static double pair_estimate(Py_ssize_t T, Py_ssize_t gap) {
    double t = (double)T, k = gap < 0 || gap + 1 >= T ? t - 1 : (double)(gap + 1);
    return T < 2 ? 0.0 : k * (k + 1) / 2 + (t - 1 - k) * k;
}

/* The clipped matches of the pairs whose first token's id is in [lo, hi), added to ph[]: the
 * prediction's pairs go into a table of up to `count` (gt_init), each reference's are looked up.
 * `ranged` is a constant at each call.  The whole vocabulary at once (0: at most HASH_KEYS_MAX
 * prediction pairs, so only the references' loops poll) compiles to the loops as they were
 * before ranges; a per-token range test there cost rouge2 of 900,000 words 18 % of its pair
 * time.  A range (1) skips the tokens of other ranges, and its prediction loop polls too: one
 * frequent first token may head millions of pairs. */
static inline int pairs_hashed_range(WorkerObject *w, Py_ssize_t M, Py_ssize_t gap, int32_t lo, int32_t hi,
                                     double count, double *ph, Py_ssize_t *acc, int ranged) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pspan = gap < 0 ? pn : gap + 2;
    /* the unsigned difference is out of range for a reference's -1 (a token the prediction lacks) */
    uint32_t first = (uint32_t)lo, width = (uint32_t)(hi - lo);
    uint64_t mask;
    if (gt_init(w, (Py_ssize_t)count + 1, &mask)) return -1;
    for (Py_ssize_t i = 0; i + 1 < pn && !(ranged && POLL_LOOP(w, *acc, 1)); i++) {
        if (ranged && (uint32_t)lp[i] - first >= width) continue;
        uint64_t key = (uint64_t)(uint32_t)lp[i] << 32;
        Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
        for (Py_ssize_t j = i + 1; j < jend; j++) gt_find(w, mask, key | (uint32_t)lp[j], NULL, 1, NULL, 1, 0)->cnt++;
        if (ranged) *acc += jend - i;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], span = gap < 0 ? T : gap + 2;
        uint32_t st = ++w->stamp;
        double hits = 0.0;
        for (Py_ssize_t i = 0; i + 1 < T && !POLL_LOOP(w, *acc, span); i++) {
            if (ranged ? (uint32_t)lr[i] - first >= width : lr[i] < 0) continue;
            uint64_t key = (uint64_t)(uint32_t)lr[i] << 32;
            Py_ssize_t jend = i + span < T ? i + span : T;
            for (Py_ssize_t j = i + 1; j < jend; j++) {
                if (lr[j] < 0) continue;
                GEnt *g = gt_find(w, mask, key | (uint32_t)lr[j], NULL, 1, NULL, 0, 0);
                if (g) gt_hit(g, st, &hits);
            }
        }
        ph[r] += hits;
    }
    return 0;
}

/* pair_part by hashing the prediction's pairs (keys: pairs of prediction-local ids).  Past
 * HASH_KEYS_MAX prediction pairs (ppc, within the gap), the ids of the pairs' first tokens are
 * cut into ranges whose distinct pairs fit that bound (id a heads at most min(its pairs, D)
 * distinct ones), and each range's pairs are hashed and matched in turn: memory stays bounded,
 * and each range costs one more scan of the texts.  A key lives in one range, so each range's
 * clipped matches add up to the whole's. */
static int pair_part_hashed(WorkerObject *w, Py_ssize_t M, Py_ssize_t D, Py_ssize_t gap, double ppc,
                            double *ph, double *prc) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pspan = gap < 0 ? pn : gap + 2, acc = 0;
    for (Py_ssize_t r = 0; r < M; r++) {
        ph[r] = 0.0;
        prc[r] = pair_count(w->lro[r + 1] - w->lro[r], gap);
    }
    if (ppc <= HASH_KEYS_MAX) return pairs_hashed_range(w, M, gap, 0, (int32_t)D, ppc, ph, &acc, 0);
    double *bound = (double *)calloc((size_t)D, sizeof(double));
    if (!bound) return -1;
    for (Py_ssize_t i = 0; i + 1 < pn; i++) bound[lp[i]] += (double)((i + pspan < pn ? i + pspan : pn) - i - 1);
    for (Py_ssize_t a = 0; a < D; a++) if (bound[a] > (double)D) bound[a] = (double)D;
    int rc = 0;
    for (Py_ssize_t lo = 0, hi; lo < D && !w->stop && !rc; lo = hi) {
        double count;
        hi = keys_range_end(bound, lo, D, &count);
        rc = pairs_hashed_range(w, M, gap, (int32_t)lo, (int32_t)hi, count, ph, &acc, 1);
    }
    free(bound);
    return rc;
}
