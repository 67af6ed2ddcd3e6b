/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* per-pair statistics                                                                           */

/* WLCS union marks.  A run of peer tokens that never occur in the model sentence behaves as one
 * column (its cells are equal in every row, with one direction per row and runs of 0), so each
 * such run is collapsed into a single placeholder column (-1) before the DP: same marks, smaller
 * table. */
static int union_marks_weighted(WorkerObject *w, TextBuf *pred, TextBuf *ref, const int32_t *ptok,
                                const int32_t *rtok, const double *f) {
    Py_ssize_t pstart = 0;
    for (Py_ssize_t ps = 0; ps < pred->send.n; ps++) {
        Py_ssize_t pend = pred->send.v[ps], pn = pend - pstart;
        const int32_t *pb = ptok + pstart;
        pstart = pend;
        if (pn == 0) continue;
        if (worker_poll(w, SENT_NTOK(ref))) return 0;   /* nothing set up yet: leave as is */
        if (pn <= 63 && SENT_NTOK(ref) <= TABLE_WORDS_LIMIT) {
            for (Py_ssize_t j = 0; j < pn; j++) LMASK(w)[pb[j]] |= 1ULL << j;
            Py_ssize_t rstart = 0;
            for (Py_ssize_t rs = 0; rs < ref->send.n; rs++) {
                Py_ssize_t rend = ref->send.v[rs];
                wlcs_marks_word(w, LMASK(w), rtok + rstart, rend - rstart, pn, f, w->mark + rstart);
                rstart = rend;
            }
            for (Py_ssize_t j = 0; j < pn; j++) LMASK(w)[pb[j]] = 0;
            continue;
        }
        uint32_t stp = ++w->stamp;
        for (Py_ssize_t j = 0; j < pn; j++) w->lpstamp[pb[j]] = stp;
        if (grow((void **)&w->red.v, &w->red.cap, pn + 1, sizeof(int32_t))) return -1;
        Py_ssize_t rstart = 0;
        for (Py_ssize_t rs = 0; rs < ref->send.n; rs++) {
            Py_ssize_t rend = ref->send.v[rs], rn = rend - rstart;
            const int32_t *ra = rtok + rstart;
            unsigned char *mk = w->mark + rstart;
            rstart = rend;
            int shared = 0;
            for (Py_ssize_t k = 0; k < rn; k++) if (ra[k] >= 0 && w->lpstamp[ra[k]] == stp) { shared = 1; break; }
            if (!shared) continue;
            uint32_t sts = ++w->stamp;
            for (Py_ssize_t k = 0; k < rn; k++) if (ra[k] >= 0) w->lustamp[ra[k]] = sts;
            Py_ssize_t nred = 0;
            int gap = 0;
            for (Py_ssize_t j = 0; j < pn; j++) {
                if (w->lustamp[pb[j]] == sts) { w->red.v[nred++] = pb[j]; gap = 0; }
                else if (!gap) { w->red.v[nred++] = -2; gap = 1; }
            }
            Py_ssize_t words = (nred + 63) >> 6;
            if (set_masks(w, w->red.v, nred, words) < 0) return -1;
            int rc = wlcs_marks(w, ra, rn, w->red.v, nred, f, mk);
            clear_slots(w, w->red.v, nred);
            if (rc) return -1;
        }
    }
    return 0;
}

/* Union marks of one model sentence of any length against every peer sentence (the multi-word
 * back-trace; each peer sentence without a token in common is skipped). */
static int union_marks_long(WorkerObject *w, TextBuf *ref, const int32_t *pb, Py_ssize_t pn, const int32_t *rtok) {
    Py_ssize_t words = (pn + 63) >> 6;
    if (set_masks(w, pb, pn, words) < 0) return -1;
    Py_ssize_t rstart = 0;
    int rc = 0;
    for (Py_ssize_t rs = 0; rs < ref->send.n && rc == 0; rs++) {
        Py_ssize_t rend = ref->send.v[rs], rn = rend - rstart;
        const int32_t *ra = rtok + rstart;
        unsigned char *mk = w->mark + rstart;
        rstart = rend;
        int shared = 0;
        for (Py_ssize_t k = 0; k < rn; k++) if (ra[k] >= 0 && w->lslot[ra[k]] >= 0) { shared = 1; break; }
        if (!shared) continue;
        rc = lcs_marks(w, ra, rn, pb, pn, mk) < 0 ? -1 : 0;
    }
    clear_slots(w, pb, pn);
    return rc;
}

/* Union marks of every model sentence against every peer sentence (spec §7/§8).  The union does
 * not depend on the order, so consecutive model sentences are packed into 64-bit words (one
 * guard bit between two) and each word makes one pass over the peer (lcs_marks_packed); a
 * sentence of more than 64 tokens takes the multi-word back-trace, and so does every sentence
 * when the peer passes TABLE_WORDS_LIMIT. */
static int union_marks(WorkerObject *w, TextBuf *pred, TextBuf *ref, const int32_t *ptok, const int32_t *rtok,
                       int weighted, const double *f) {
    Py_ssize_t nr = SENT_NTOK(ref);
    if (grow((void **)&w->mark, &w->markcap, nr + 1, 1) ||
        grow((void **)&w->rows, &w->rowcap, nr + 1, 8) ||
        grow((void **)&w->wrow, &w->wrowcap, 2 * (nr + 1), sizeof(int32_t))) return -1;
    memset(w->mark, 0, (size_t)nr + 1);
    if (weighted) return union_marks_weighted(w, pred, ref, ptok, rtok, f);
    uint64_t *lm = LMASK(w), *lmr = LMASKR(w);
    int packable = nr <= TABLE_WORDS_LIMIT;
    Py_ssize_t ps = 0, ns = pred->send.n, pstart = 0;
    while (ps < ns) {
        if (worker_poll(w, nr)) return 0;   /* nothing set up yet: leave as is */
        uint64_t K = 0, G = 0, X0 = 0;
        Py_ssize_t bits = 0, first = pstart;
        for (; ps < ns; ps++) {
            Py_ssize_t pend = pred->send.v[ps], pn = pend - pstart;
            const int32_t *pb = ptok + pstart;
            if (pn > 64 || !packable) {
                if (union_marks_long(w, ref, pb, pn, rtok)) return -1;
            } else if (pn > 0) {
                if ((bits ? bits + 1 : 0) + pn > 64) break;   /* the word is full: this sentence opens the next */
                bits = pack_lane(lm, lmr, pb, pn, bits, &K, &G, &X0);
            }
            pstart = pend;
        }
        if (!bits) continue;
        lcs_marks_packed(w, rtok, ref->send.v, ref->send.n, K, G, X0, w->mark);
        for (Py_ssize_t k = first; k < pstart; k++) lm[ptok[k]] = lmr[ptok[k]] = 0;
        if (w->stop) return 0;
    }
    return 0;
}

/* Unigram budgets in prediction-local ids, through LBM / LBP: a reference token the prediction
 * lacks (id -1) has a zero prediction budget (LBP(w)[-1] stays 0), so it is never counted. */
#define LBM(w) ((w)->lbm + 1)
#define LBP(w) ((w)->lbp + 1)

static void budgets_set(WorkerObject *w, Py_ssize_t r) {
    const int32_t *lr = w->lr.v + w->lro[r];
    int32_t *lbm = LBM(w);
    Py_ssize_t T = w->lro[r + 1] - w->lro[r];
    for (Py_ssize_t k = 0; k < T; k++) lbm[lr[k]]++;
    memcpy(LBP(w), w->lcnt, (size_t)w->pdist.n * sizeof(int32_t));
}

static void budgets_clear(WorkerObject *w) {
    memset(w->lbm, 0, (size_t)(w->pdist.n + 1) * sizeof(int32_t));
    memset(LBP(w), 0, (size_t)w->pdist.n * sizeof(int32_t));
}

static inline double sel_of(EngineObject *e, double hits, double rc) {
    double recall = rc != 0.0 ? hits / rc : 0.0;
    return e->rounded ? round5(recall) : recall;
}

/* Number of skip-bigrams of T tokens with at most gap tokens between (gap < 0: unlimited). */
static double pair_count(Py_ssize_t T, Py_ssize_t gap) {
    Py_ssize_t span = gap < 0 ? T : gap + 2;
    double c = 0.0;
    for (Py_ssize_t i = 0; i + 1 < T; i++) c += (double)((i + span < T ? i + span : T) - i - 1);
    return c;
}

/* Clipped matching by consuming the prediction's counts: a reference item with a count left takes
 * one (min(prediction count, reference count) summed over items, as the reference counts it).
 * take() returns 1 when it took one (without a branch: whether a count is left is a coin toss for
 * the predictor); consume() also logs the item so that restore() can hand the counts back for
 * the next reference.  Where the counts are not needed again (the last reference) or come back
 * from a snapshot, take() alone. */
static inline int32_t take(int32_t *cnt, int32_t id) {
    int32_t c = cnt[id], h = c > 0;
    cnt[id] = c - h;
    return h;
}

static inline Py_ssize_t consume(int32_t *cnt, int32_t id, int32_t *log, Py_ssize_t nlog) {
    log[nlog] = id;
    return nlog + take(cnt, id);
}

static inline void restore(int32_t *cnt, const int32_t *log, Py_ssize_t nlog) {
    for (Py_ssize_t k = 0; k < nlog; k++) cnt[log[k]]++;
}

#define DENSE_MAX 724   /* D x D int32 pair tables up to ~2 MiB each */

/* pair_part for skip-bigrams with any gap when D <= DENSE_MAX.  The pair counts are D x D tables
 * (cell b * D + a: a before b) built a position at a time: position j adds the running counts of
 * every token before it to its row, a vector addition.  A reference's hits are the cell-wise
 * minima of its table and the prediction's, summed over the rows of its tokens. */
static int pair_part_any_gap(WorkerObject *w, Py_ssize_t M, Py_ssize_t D, double *ph, double *prc) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n;
    if (grow_zero((void **)&w->dcnt, &w->dcap, D * D + 1, sizeof(int32_t)) ||
        grow((void **)&w->rtab, &w->rtabcap, D * D + 1, sizeof(int32_t)) ||
        grow((void **)&w->pre, &w->precap, D + 1, sizeof(int32_t)) ||
        grow_zero((void **)&w->rflag, &w->rflagcap, D + 1, sizeof(int32_t)) ||
        grow((void **)&w->rid, &w->ridcap, D + 1, sizeof(int32_t))) return -1;
    int32_t *P = w->dcnt, *R = w->rtab, *pre = w->pre, *flag = w->rflag, *rows = w->rid;
    memset(pre, 0, (size_t)D * sizeof(int32_t));
    Py_ssize_t seen = 0;   /* local ids follow first occurrence: those before j are < seen */
    for (Py_ssize_t j = 0; j < pn; j++) {
        int32_t b = lp[j], *row = P + (Py_ssize_t)b * D;
        for (Py_ssize_t a = 0; a < seen; a++) row[a] += pre[a];
        pre[b]++;
        seen += b == seen;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], nrows = 0, hi = 0;
        /* one text is at most 65,535 x DENSE_MAX adds (~50 ms); many references add up */
        if (worker_poll(w, T * D)) break;   /* callers check w->stop; P is cleared below */
        memset(pre, 0, (size_t)D * sizeof(int32_t));
        for (Py_ssize_t k = 0; k < T; k++) {
            int32_t b = lr[k];
            if (b < 0) continue;
            int32_t *row = R + (Py_ssize_t)b * D;
            if (!flag[b]) {
                flag[b] = 1;
                rows[nrows++] = b;
                memset(row, 0, (size_t)D * sizeof(int32_t));
            }
            for (Py_ssize_t a = 0; a < hi; a++) row[a] += pre[a];
            pre[b]++;
            if (b >= hi) hi = b + 1;
        }
        int64_t hits = 0;
        for (Py_ssize_t q = 0; q < nrows; q++) {
            const int32_t *x = P + (Py_ssize_t)rows[q] * D, *y = R + (Py_ssize_t)rows[q] * D;
            int64_t h = 0;
            for (Py_ssize_t a = 0; a < D; a++) h += x[a] < y[a] ? x[a] : y[a];
            hits += h;
            flag[rows[q]] = 0;
        }
        ph[r] = (double)hits;
        prc[r] = pair_count(T, -1);
    }
    memset(P, 0, (size_t)(D * D) * sizeof(int32_t));
    return 0;
}

/* Clipped matches of the skip-bigrams (gap 0: bigrams) of the prediction and each reference:
 * w->ph/prc[ti*M + r] and w->ppc[ti].  Keys are pairs of prediction-local ids, so up to
 * DENSE_MAX distinct prediction tokens a dense D x D table replaces hashing; a pair holding a
 * token the prediction lacks is skipped.  An earlier type with the same gap (rouge2 / rougeS0,
 * rougeS4 / rougeSU4) is reused. */
static int pair_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int ti, int gap, Py_ssize_t D) {
    EngineObject *e = w->eng;
    /* A gap reaching over the longest text is any gap (the same pairs); clamping it keeps the
     * spans and table bounds below from overflowing or growing with the gap. */
    Py_ssize_t longest = w->lp.n, sumT = 0;
    for (Py_ssize_t r = 0; r < M; r++) {
        Py_ssize_t T = w->lro[r + 1] - w->lro[r];
        sumT += T;
        if (T > longest) longest = T;
    }
    if (gap >= 0 && (Py_ssize_t)gap + 2 >= longest) gap = -1;
    for (int tj = 0; tj < ti; tj++) {
        if (w->pgap[tj] == gap) {
            memcpy(w->ph + (Py_ssize_t)ti * M, w->ph + (Py_ssize_t)tj * M, (size_t)M * sizeof(double));
            memcpy(w->prc + (Py_ssize_t)ti * M, w->prc + (Py_ssize_t)tj * M, (size_t)M * sizeof(double));
            w->ppc[ti] = w->ppc[tj];
            w->pgap[ti] = gap;
            return 0;
        }
    }
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n;
    w->ppc[ti] = pair_count(pn, gap);
    w->pgap[ti] = gap;
    double *ph = w->ph + (Py_ssize_t)ti * M, *prc = w->prc + (Py_ssize_t)ti * M;
    /* int32 dense counts cannot overflow below 65536 tokens a text */
    int small = longest < 65536;
    if (small && D <= DENSE_MAX && gap < 0) return pair_part_any_gap(w, M, D, ph, prc);
    if (small && D <= DENSE_MAX) {
        /* cell (a + 1) * (D + 1) + b + 1: row 0 and column 0 (a token the prediction lacks) stay
         * 0, so a reference pair holding one consumes nothing, without a test.  The consumed
         * cells are logged for restore(), or, when the log could outgrow the table, the table
         * is restored from a copy. */
        Py_ssize_t npairs = (Py_ssize_t)w->ppc[ti], W = D + 1;
        int snap = npairs > W * W;
        if (grow_zero((void **)&w->dcnt, &w->dcap, W * W + 1, sizeof(int32_t)) ||
            grow((void **)&w->clog, &w->clogcap, (snap ? 0 : npairs) + 1, sizeof(int32_t)) ||
            (snap && grow((void **)&w->rtab, &w->rtabcap, W * W + 1, sizeof(int32_t)))) return -1;
        int32_t *cnt = w->dcnt, *log = w->clog;
        Py_ssize_t pspan = (Py_ssize_t)gap + 2, acc = 0;
        /* a gap near the length costs up to 65,535^2 / 2 cells a text: seconds, so it polls;
         * once stopped the numbers are meaningless (callers check w->stop) and the whole
         * table, at most ~2 MiB, is cleared rather than the prediction's pairs walked again */
        for (Py_ssize_t i = 0; i + 1 < pn && !POLL_LOOP(w, acc, pspan); i++) {
            int32_t *row = cnt + (Py_ssize_t)(lp[i] + 1) * W + 1;
            Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
            for (Py_ssize_t j = i + 1; j < jend; j++) row[lp[j]]++;
        }
        if (snap) memcpy(w->rtab, cnt, (size_t)(W * W) * sizeof(int32_t));
        for (Py_ssize_t r = 0; r < M && !w->stop; r++) {
            const int32_t *lr = w->lr.v + w->lro[r];
            Py_ssize_t T = w->lro[r + 1] - w->lro[r], nlog = 0;
            for (Py_ssize_t i = 0; i + 1 < T && !POLL_LOOP(w, acc, pspan); i++) {
                int32_t base = (lr[i] + 1) * (int32_t)W + 1;
                Py_ssize_t jend = i + pspan < T ? i + pspan : T;
                if (snap)
                    for (Py_ssize_t j = i + 1; j < jend; j++) nlog += take(cnt, base + lr[j]);
                else
                    for (Py_ssize_t j = i + 1; j < jend; j++) nlog = consume(cnt, base + lr[j], log, nlog);
            }
            ph[r] = (double)nlog;
            prc[r] = pair_count(T, gap);
            if (r + 1 < M) {
                if (snap) memcpy(cnt, w->rtab, (size_t)(W * W) * sizeof(int32_t));
                else restore(cnt, log, nlog);
            }
        }
        if (W * W <= npairs || w->stop) memset(cnt, 0, (size_t)(W * W) * sizeof(int32_t));
        else
            for (Py_ssize_t i = 0; i + 1 < pn; i++) {
                int32_t *row = cnt + (Py_ssize_t)(lp[i] + 1) * W + 1;
                Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
                for (Py_ssize_t j = i + 1; j < jend; j++) row[lp[j]] = 0;
            }
        return 0;
    }
    /* Many distinct tokens or long texts: hash the (exact) pair keys (pair_part_hashed), or
     * compare dense tables a block of rows at a time (pair_part_blocked), whichever costs less.
     * Costs in adds of the blocked tables (0.22-0.30 ns each, measured): a hashed pair 12-30 ns
     * (50 adds while the table is small, 100 past 2^18 prediction pairs); a scan of the texts per
     * range or per block ~3 ns a token (12 adds); the blocked tables' setup 6 ms in a new process
     * (0.5 once the heap holds them; the larger figure keeps small texts hashed, as they were).
     * Before, the rule was pairs * 8 against tokens x D, and past 2^20 prediction pairs always
     * the blocked tables, whose scans grow with D squared: rouge2 of 1.1 million words by 100,000
     * distinct ones took 213 s (0.15 s hashed), rougeS4 of 220,000 by 20,000 3.1 s (0.08). */
    double pairs = pair_estimate(pn, gap), tokens = (double)(pn + sumT);
    for (Py_ssize_t r = 0; r < M; r++) pairs += pair_estimate(w->lro[r + 1] - w->lro[r], gap);
    double ranges = ceil(w->ppc[ti] / HASH_KEYS_MAX);
    double rows = D > 0 ? floor((double)BLOCK_CELLS / (double)D) : 1.0;
    double blocks = ceil((double)D / (rows < 1 ? 1 : rows));
    double hashed = pairs * (w->ppc[ti] > 262144.0 ? 100.0 : 50.0) + ranges * tokens * 12.0;
    double blocked = tokens * (double)D + blocks * tokens * 12.0 + 2.5e7;
    if (hashed > blocked) return pair_part_blocked(w, M, D, gap, ph, prc);
    (void)e;
    return pair_part_hashed(w, M, D, gap, w->ppc[ti], ph, prc);
}

/* ROUGE-SU's unigrams (every token but the last; every token in flavor paper) added to o[]. */
static int unigram_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int all, Py_ssize_t D, PS *o) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pu = all ? pn : (pn > 0 ? pn - 1 : 0);
    if (grow((void **)&w->ucnt, &w->ucap, D + 2, sizeof(int32_t)) ||
        grow((void **)&w->clog, &w->clogcap, pu + 1, sizeof(int32_t))) return -1;
    int32_t *cnt = w->ucnt + 1, *log = w->clog;   /* cnt[-1] = 0: a token the prediction lacks */
    memset(w->ucnt, 0, (size_t)(D + 1) * sizeof(int32_t));
    for (Py_ssize_t k = 0; k < pu; k++) cnt[lp[k]]++;
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], ru = all ? T : (T > 0 ? T - 1 : 0), nlog = 0;
        for (Py_ssize_t k = 0; k < ru; k++) nlog = consume(cnt, lr[k], log, nlog);
        if (r + 1 < M) restore(cnt, log, nlog);
        o[r].h += (double)nlog;
        o[r].rc += (double)ru;
        o[r].pc += (double)pu;
    }
    return 0;
}

/* The clipped matches of the n-grams whose first token's id is in [lo, hi), added to o[].h: the
 * prediction's windows go into a table of up to `count` (gt_init), each reference's are looked
 * up.  `ranged` is a constant at each call, as in pairs_hashed_range: 0 compiles to the loops
 * as they were before ranges.
 *
 * A window's key is a polynomial hash of its ids, rolled from one window to the next (a multiply,
 * an add and a subtract a token, whatever n); gt_find compares the tokens when keys are equal.
 * Hashing each window's ids afresh cost rouge9 a chain of 9 mixes a window (rouge9 of 5,000-token
 * pairs: 350 -> 200 us/pair), and keys packing 16-bit ids for n <= 4 were 0-12 % slower than
 * rolled ones. */
#define ROLL_P 0x9E3779B97F4A7C15ULL
static inline uint64_t roll_key(uint64_t h) { return h ^ (h >> 29); }

static inline int ngrams_hashed_range(WorkerObject *w, Py_ssize_t M, int n, int32_t lo, int32_t hi,
                                      Py_ssize_t count, PS *o, Py_ssize_t *acc, int ranged) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pcount = pn - n + 1 > 0 ? pn - n + 1 : 0;
    /* the unsigned difference is out of range for a reference's -1 (a token the prediction lacks) */
    uint32_t first = (uint32_t)lo, width = (uint32_t)(hi - lo);
    uint64_t mask, top = 1;   /* top: ROLL_P^(n-1), the weight of a window's first id */
    for (int q = 1; q < n; q++) top *= ROLL_P;
    if (gt_init(w, count, &mask)) return -1;
    /* a hash lookup a window, mostly a cache miss on long texts: 4-12 s for two texts of 10^7
     * words, so both loops poll (callers check w->stop; gt_init starts the table afresh) */
    uint64_t h = 0;
    for (int q = 0; q + 1 < n && q < pn; q++) h = h * ROLL_P + (uint32_t)lp[q];
    for (Py_ssize_t p = 0; p < pcount && !POLL_LOOP(w, *acc, n); p++) {
        h = h * ROLL_P + (uint32_t)lp[p + n - 1];
        uint64_t key = roll_key(h);
        h -= (uint64_t)(uint32_t)lp[p] * top;
        if (ranged && (uint32_t)lp[p] - first >= width) continue;
        gt_find(w, mask, key, lp + p, n, lp, 1, (int32_t)p)->cnt++;
    }
    for (Py_ssize_t r = 0; r < M && pcount; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], last_bad = -1;
        uint32_t st = ++w->stamp;
        double hits = 0.0;
        h = 0;
        for (Py_ssize_t k = 0; k < T && !POLL_LOOP(w, *acc, n); k++) {
            Py_ssize_t p = k - n + 1;
            /* rolled over every token, -1 included: a window holding one is skipped below, and
             * its id leaves the sum exactly as it came in */
            h = h * ROLL_P + (uint32_t)lr[k];
            uint64_t key = roll_key(h);
            if (p >= 0) h -= (uint64_t)(uint32_t)lr[p] * top;
            if (lr[k] < 0) { last_bad = k; continue; }
            if (p < 0 || last_bad >= p) continue;
            if (ranged && (uint32_t)lr[p] - first >= width) continue;
            GEnt *g = gt_find(w, mask, key, lr + p, n, lp, 0, 0);
            if (g) gt_hit(g, st, &hits);
        }
        o[r].h += hits;
    }
    return 0;
}

/* Clipped n-gram matches, n >= 3, where levels (ngram_levels) do not serve: a rolled hash of
 * each window, checked against the tokens.  Windows holding a token the prediction lacks are
 * skipped.  Past HASH_KEYS_MAX prediction windows, the ids of their first tokens are cut into
 * ranges of at most that many windows, each hashed and matched in turn (as pair_part_hashed
 * does for pairs): the table stays within 96 MiB, where rouge3 of 3 million words took 192 MiB
 * and rouge9 of 10^7 words 800 MiB (whose clearing also held Ctrl-C for a second). */
static int ngram_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int n, Py_ssize_t D, PS *o) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pcount = pn - n + 1 > 0 ? pn - n + 1 : 0, acc = 0;
    for (Py_ssize_t r = 0; r < M; r++) {
        Py_ssize_t T = w->lro[r + 1] - w->lro[r];
        o[r].h = 0.0;
        o[r].rc = T - n + 1 > 0 ? (double)(T - n + 1) : 0.0;
        o[r].pc = (double)pcount;
    }
    (void)tbs;
    if ((double)pcount <= HASH_KEYS_MAX) return ngrams_hashed_range(w, M, n, 0, (int32_t)D, pcount, o, &acc, 0);
    double *heads = (double *)calloc((size_t)D, sizeof(double));
    if (!heads) return -1;
    for (Py_ssize_t p = 0; p < pcount; p++) heads[lp[p]] += 1.0;
    /* a first token heads at most D^(n-1) distinct n-grams (a text of one repeated word: one) */
    double tails = pow((double)D, (double)(n - 1));
    for (Py_ssize_t a = 0; a < D; a++) if (heads[a] > tails) heads[a] = tails;
    int rc = 0;
    for (Py_ssize_t lo = 0, hi; lo < D && !w->stop && !rc; lo = hi) {
        double count;
        hi = keys_range_end(heads, lo, D, &count);
        rc = ngrams_hashed_range(w, M, n, (int32_t)lo, (int32_t)hi, (Py_ssize_t)count, o, &acc, 1);
    }
    free(heads);
    return rc;
}

/* Dense n-gram tables up to this many cells (int32): (pn + 1) x (D + 1), the prediction's length
 * and distinct tokens plus one, bounds every level's table. */
#define LEVEL_CELLS_MAX ((Py_ssize_t)1 << 20)

/* Levels serve n <= this; a larger n is hashed (ngram_part), whose rolled keys cost the same for
 * every n where levels cost a pass each: rouge9 of 800-token pairs 59 -> 31 us/pair, rouge5 41 ->
 * 33, rouge4 36 against 35, rouge3 31 against 35 (levels ahead). */
#define LEVELS_N_MAX 4

/* Clipped n-gram matches for n = 1..maxn of every reference: w->nh[(n - 1) * M + r].  Level n
 * names the prediction's distinct n-grams 1..B through a dense table indexed by (id of the
 * (n-1)-gram, next token), so a reference window gets its n-gram's id with one lookup per level
 * and no hashing; a window the prediction lacks gets 0.  Returns 1 (nothing computed) when the
 * tables would be too big, -1 when out of memory. */
NOINLINE static int ngram_levels(WorkerObject *w, Py_ssize_t M, int maxn, Py_ssize_t D) {
    const int32_t *lp = w->lp.v, *lr = w->lr.v;
    Py_ssize_t pn = w->lp.n, TR = w->lr.n, W = D + 1;
    w->nlevels = 0;
    if ((pn + 1) * W > LEVEL_CELLS_MAX) return 1;
    if (grow((void **)&w->nh, &w->nhcap, (Py_ssize_t)maxn * M + 1, sizeof(double)) ||
        grow((void **)&w->pid, &w->pidcap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->cell, &w->cellcap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->gcnt, &w->gcntcap, pn + 2, sizeof(int32_t)) ||
        grow((void **)&w->rid, &w->ridcap, TR + 1, sizeof(int32_t)) ||
        grow((void **)&w->clog, &w->clogcap, pn + 1, sizeof(int32_t)) ||
        grow_zero((void **)&w->ltab, &w->ltabcap, (pn + 1) * W + 1, sizeof(int32_t))) return -1;
    /* Ids are 1-based here, 0 standing for "not in the prediction": the table's row 0 and column 0
     * (an absent (n-1)-gram or token) stay 0, and so does count 0, so that a reference window the
     * prediction lacks needs no test anywhere. */
    int32_t *pid = w->pid, *rid = w->rid, *cnt = w->gcnt, *tab = w->ltab, *cell = w->cell, *log = w->clog;
    for (Py_ssize_t p = 0; p < pn; p++) pid[p] = lp[p] + 1;
    for (Py_ssize_t q = 0; q < TR; q++) rid[q] = lr[q] + 1;
    Py_ssize_t B = D;   /* distinct (n-1)-grams, then n-grams */
    for (int n = 1; n <= maxn; n++) {
        double *nh = w->nh + (Py_ssize_t)(n - 1) * M;
        Py_ssize_t pc = pn - n + 1;
        if (pc <= 0) {
            for (Py_ssize_t r = 0; r < M; r++) nh[r] = 0.0;
            continue;
        }
        if (n > 1) {
            int32_t nb = 0;
            for (Py_ssize_t p = 0; p < pc; p++) {
                int32_t c = pid[p] * (int32_t)W + lp[p + n - 1] + 1, t = tab[c], fresh = t == 0;
                nb += fresh;
                t = fresh ? nb : t;
                tab[c] = t;
                cell[p] = c;
                pid[p] = t;
            }
            for (Py_ssize_t r = 0; r < M; r++) {
                Py_ssize_t base = w->lro[r], wins = w->lro[r + 1] - base - n + 1;
                for (Py_ssize_t q = 0; q < wins; q++)
                    rid[base + q] = tab[rid[base + q] * (int32_t)W + lr[base + q + n - 1] + 1];
            }
            for (Py_ssize_t p = 0; p < pc; p++) tab[cell[p]] = 0;
            B = nb;
        }
        memset(cnt, 0, (size_t)(B + 1) * sizeof(int32_t));
        for (Py_ssize_t p = 0; p < pc; p++) cnt[pid[p]]++;
        for (Py_ssize_t r = 0; r < M; r++) {
            Py_ssize_t base = w->lro[r], wins = w->lro[r + 1] - base - n + 1, nlog = 0;
            if (r + 1 == M) {   /* the last reference: no counts to hand back, so no log */
                for (Py_ssize_t q = 0; q < wins; q++) nlog += take(cnt, rid[base + q]);
                nh[r] = (double)nlog;
                break;
            }
            for (Py_ssize_t q = 0; q < wins; q++) nlog = consume(cnt, rid[base + q], log, nlog);
            nh[r] = (double)nlog;
            restore(cnt, log, nlog);
        }
    }
    w->nlevels = maxn;
    return 0;
}

static int single_ref_stats(WorkerObject *w, TextBuf *tbs, PS *out);   /* single_ref.c */

/* Statistics of every type against every reference of one example: out[t * M + r]. */
static int example_stats(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, PS *out) {
    EngineObject *e = w->eng;
    TextBuf *pred = &tbs[0];
    const int32_t *pt = pred->tok.v;
    Py_ssize_t pn = pred->tok.n;
    int rcode = 0;
    w->pdist.n = 0;
    w->lp.n = 0;
    w->lr.n = 0;
    if (grow((void **)&w->pdist.v, &w->pdist.cap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->lp.v, &w->lp.cap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->lcnt, &w->lcntcap, pn + 1, sizeof(int32_t))) { rcode = -1; goto done; }
    {
        /* local ids in order of first occurrence, and each one's joined count */
        int32_t *loc = w->loc, *pd = w->pdist.v, *lp = w->lp.v, *lcnt = w->lcnt, D0 = 0;
        /* without a branch: whether a token is new is a coin toss for the predictor */
        memset(lcnt, 0, (size_t)pn * sizeof(int32_t));
        for (Py_ssize_t k = 0; k < pn; k++) {
            int32_t t = pt[k], l = loc[t], fresh = l < 0;
            l = fresh ? D0 : l;
            loc[t] = l;
            pd[D0] = t;
            D0 += fresh;
            lcnt[l]++;
            lp[k] = l;
        }
        w->pdist.n = D0;
        w->lp.n = pn;
    }
    Py_ssize_t D = w->pdist.n;
    if (M == 1) {
        int served = single_ref_stats(w, tbs, out);
        if (served <= 0) { rcode = served; goto done; }
    }
    if (grow((void **)&w->lro, &w->lrocap, M + 1, sizeof(Py_ssize_t))) { rcode = -1; goto done; }
    if ((Py_ssize_t)e->ntypes * M + 1 > w->phcap) {
        Py_ssize_t c = (Py_ssize_t)e->ntypes * M + 1, c2 = c;
        if (grow((void **)&w->ph, &w->phcap, c, sizeof(double)) ||
            grow((void **)&w->prc, &c2, c + 1, sizeof(double))) { rcode = -1; goto done; }
        w->phcap = c < c2 ? c : c2;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        TextBuf *ref = &tbs[1 + r];
        w->lro[r] = w->lr.n;
        /* loc is -1 for every token outside the prediction (only joined tokens have ids yet) */
        if (grow((void **)&w->lr.v, &w->lr.cap, w->lr.n + ref->tok.n + 1, sizeof(int32_t))) { rcode = -1; goto done; }
        for (Py_ssize_t k = 0; k < ref->tok.n; k++) w->lr.v[w->lr.n++] = w->loc[ref->tok.v[k]];
    }
    w->lro[M] = w->lr.n;
    for (int ti = 0; ti < e->ntypes; ti++) w->pgap[ti] = INT32_MIN;
    if (e->needs_sentences) {
        /* Under -b the sentence reader may hold prediction tokens the joined reader lost; they
         * still match in the LCS/WLCS (only the budgets exclude them), so they get local ids
         * too, after the joined ones (with a joined count of 0). */
        if (!pred->stok_alias)
            for (Py_ssize_t k = 0; k < pred->stok.n; k++) {
                int32_t t = pred->stok.v[k];
                if (w->loc[t] < 0) {
                    w->loc[t] = (int32_t)w->pdist.n;
                    if (ivec_push(&w->pdist, t)) { rcode = -1; goto done; }
                }
            }
        Py_ssize_t DA = w->pdist.n;
        if (grow((void **)&w->lcnt, &w->lcntcap, DA + 1, sizeof(int32_t))) { rcode = -1; goto done; }
        for (Py_ssize_t k = D; k < DA; k++) w->lcnt[k] = 0;
        Py_ssize_t old = w->lslotcap;
        if (grow((void **)&w->lslot, &w->lslotcap, DA + 1, sizeof(int32_t)) ||
            grow_zero((void **)&w->lbm, &w->lbmcap, DA + 2, sizeof(int32_t)) ||
            grow_zero((void **)&w->lbp, &w->lbpcap, DA + 2, sizeof(int32_t)) ||
            grow_zero((void **)&w->lustamp, &w->lustampcap, DA + 1, sizeof(uint32_t)) ||
            grow_zero((void **)&w->lpstamp, &w->lpstampcap, DA + 1, sizeof(uint32_t)) ||
            grow_zero((void **)&w->lmask, &w->lmaskcap, DA + 2, sizeof(uint64_t)) ||
            grow_zero((void **)&w->lmaskr, &w->lmaskrcap, DA + 2, sizeof(uint64_t))) { rcode = -1; goto done; }
        for (Py_ssize_t k = old; k < w->lslotcap; k++) w->lslot[k] = -1;
        /* the sentence reader's tokens, in local ids (the same arrays unless -b made them differ) */
        w->lps.n = 0;
        w->lrs.n = 0;
        if (grow((void **)&w->lrso, &w->lrsocap, M + 1, sizeof(Py_ssize_t))) { rcode = -1; goto done; }
        if (!pred->stok_alias)
            for (Py_ssize_t k = 0; k < pred->stok.n; k++)
                if (ivec_push(&w->lps, w->loc[pred->stok.v[k]])) { rcode = -1; goto done; }
        for (Py_ssize_t r = 0; r < M; r++) {
            TextBuf *ref = &tbs[1 + r];
            w->lrso[r] = w->lrs.n;
            if (!ref->stok_alias)
                for (Py_ssize_t k = 0; k < ref->stok.n; k++)
                    if (ivec_push(&w->lrs, w->loc[ref->stok.v[k]])) { rcode = -1; goto done; }
        }
    }
    int maxn = 0;
    for (int ti = 0; ti < e->ntypes; ti++)
        if (e->types[ti].kind == K_N && e->types[ti].n > maxn && e->types[ti].n <= LEVELS_N_MAX) maxn = e->types[ti].n;
    w->nlevels = 0;
    if (maxn && ngram_levels(w, M, maxn, D) < 0) { rcode = -1; goto done; }
    for (int ti = 0; ti < e->ntypes; ti++) {
        TSpec *ts = &e->types[ti];
        PS *o = out + (Py_ssize_t)ti * M;
        if (ts->kind == K_N && ts->n <= w->nlevels) {
            const double *nh = w->nh + (Py_ssize_t)(ts->n - 1) * M;
            double pc = pn - ts->n + 1 > 0 ? (double)(pn - ts->n + 1) : 0.0;
            for (Py_ssize_t r = 0; r < M; r++) {
                Py_ssize_t T = w->lro[r + 1] - w->lro[r];
                double rc = T - ts->n + 1 > 0 ? (double)(T - ts->n + 1) : 0.0;
                o[r].h = nh[r]; o[r].rc = rc; o[r].pc = pc; o[r].sel = sel_of(e, nh[r], rc);
            }
        } else if (ts->kind == K_N && ts->n == 1) {
            /* clipped unigram matches = the unigram kernel over every token */
            for (Py_ssize_t r = 0; r < M; r++) { o[r].h = 0.0; o[r].rc = 0.0; o[r].pc = 0.0; }
            if (unigram_part(w, tbs, M, 1, D, o)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) o[r].sel = sel_of(e, o[r].h, o[r].rc);
        } else if (ts->kind == K_N && ts->n == 2) {
            if (pair_part(w, tbs, M, ti, 0, D)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) {
                double h = w->ph[ti * M + r], rc = w->prc[ti * M + r];
                o[r].h = h; o[r].rc = rc; o[r].pc = w->ppc[ti]; o[r].sel = sel_of(e, h, rc);
            }
        } else if (ts->kind == K_N) {
            if (ngram_part(w, tbs, M, ts->n, D, o)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) o[r].sel = sel_of(e, o[r].h, o[r].rc);
        } else if (ts->kind == K_S) {
            if (pair_part(w, tbs, M, ti, ts->max_gap, D)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) {
                o[r].h = w->ph[ti * M + r]; o[r].rc = w->prc[ti * M + r]; o[r].pc = w->ppc[ti];
            }
            if (ts->unigrams && unigram_part(w, tbs, M, e->flavor == FLAVOR_PAPER, D, o)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) o[r].sel = sel_of(e, o[r].h, o[r].rc);
        } else if (ts->kind == K_L) {
            IVec *pf = FLAT(pred);
            /* When the flat reader is the joined one, the LCS runs on prediction-local ids (a
             * reference token the prediction lacks is -1 and matches nothing): its slots then
             * fit in L1 whatever the corpus's vocabulary. */
            int local = pred->ftok_alias;
            for (Py_ssize_t r = 0; r < M && local; r++) local = tbs[1 + r].ftok_alias;
            if (local) {
                Py_ssize_t old = w->lslot1cap;
                if (grow((void **)&w->lslot1, &w->lslot1cap, D + 2, sizeof(int32_t))) { rcode = -1; goto done; }
                for (Py_ssize_t k = old; k < w->lslot1cap; k++) w->lslot1[k] = -1;
            }
            for (Py_ssize_t r = 0; r < M; r++) {
                IVec *rf = FLAT(&tbs[1 + r]);
                int err = 0;
                Py_ssize_t got = -1;
                /* the prediction's positions as the bits when that costs no more words a row */
                if (local && (pf->n + 63) >> 6 <= (rf->n + 63) >> 6)
                    got = lcs_length_local(w, w->lp.v, pf->n, w->pdist.n, w->lr.v + w->lro[r], rf->n, &err);
                if (got < 0)
                    got = local ? lcs_length(w, w->lslot1 + 1, w->lr.v + w->lro[r], rf->n, w->lp.v, pf->n, &err)
                                : lcs_length(w, w->slot, rf->v, rf->n, pf->v, pf->n, &err);
                double hits = (double)got;
                if (err) { rcode = -1; goto done; }
                double rc = (double)rf->n;
                o[r].h = hits; o[r].rc = rc; o[r].pc = (double)pf->n; o[r].sel = rc != 0.0 ? hits / rc : 0.0;
            }
        } else if (ts->kind == K_LSUM) {
            for (Py_ssize_t r = 0; r < M; r++) {
                TextBuf *ref = &tbs[1 + r];
                const int32_t *rt = REF_LOCAL_SENT(w, ref, r);
                if (union_marks(w, pred, ref, PRED_LOCAL_SENT(w, pred), rt, 0, NULL)) { rcode = -1; goto done; }
                Py_ssize_t nr = SENT_NTOK(ref);
                double hits = 0.0, model_len;
                {
                    /* flavor paper clips as rouge155 does (P <= 1) and normalizes by the
                     * joined reader's length (scorer.py, _pair_stats) */
                    int32_t *lbm = LBM(w), *lbp = LBP(w), taken = 0;
                    if (ref->stok_alias) {
                        /* the marked tokens are some of the reference's joined tokens, so its
                         * budget never binds: only the prediction's clips */
                        memcpy(lbp, w->lcnt, (size_t)w->pdist.n * sizeof(int32_t));
                        for (Py_ssize_t k = 0; k < nr; k++) {
                            int32_t t = rt[k], ok = w->mark[k] & (lbp[t] > 0);
                            taken += ok;
                            lbp[t] -= ok;
                        }
                        memset(lbp, 0, (size_t)w->pdist.n * sizeof(int32_t));
                    } else {
                        budgets_set(w, r);
                        for (Py_ssize_t k = 0; k < nr; k++) {
                            int32_t t = rt[k], ok = w->mark[k] & (lbm[t] > 0) & (lbp[t] > 0);
                            taken += ok;
                            lbm[t] -= ok;
                            lbp[t] -= ok;
                        }
                        budgets_clear(w);
                    }
                    hits = (double)taken;
                    model_len = e->flavor == FLAVOR_PAPER ? (double)ref->tok.n : (double)nr;
                }
                o[r].h = hits; o[r].rc = model_len; o[r].pc = (double)pn;
                o[r].sel = model_len != 0.0 ? hits / model_len : 0.0;
            }
        } else if (ts->kind == K_W) {
            double weight = ts->weight;
            if (e->flavor == FLAVOR_PAPER) {
                IVec *pf = FLAT(pred);
                for (Py_ssize_t r = 0; r < M; r++) {
                    IVec *rf = FLAT(&tbs[1 + r]);
                    Py_ssize_t longest = rf->n > pf->n ? rf->n : pf->n;
                    double hits;
                    if (ensure_f(w, ti, weight, longest + 2) ||
                        wlcs_value(w, rf->v, rf->n, pf->v, pf->n, w->f[ti], &hits)) { rcode = -1; goto done; }
                    double ref_norm = pow((double)rf->n, weight);
                    o[r].h = hits; o[r].rc = ref_norm; o[r].pc = pow((double)pf->n, weight);
                    o[r].sel = ref_norm != 0.0 ? pow(hits / ref_norm, 1.0 / weight) : 0.0;
                }
                continue;
            }
            for (Py_ssize_t r = 0; r < M; r++) {
                TextBuf *ref = &tbs[1 + r];
                Py_ssize_t longest = 0, prev = 0;
                for (Py_ssize_t s = 0; s < ref->send.n; s++) {
                    if (ref->send.v[s] - prev > longest) longest = ref->send.v[s] - prev;
                    prev = ref->send.v[s];
                }
                prev = 0;
                for (Py_ssize_t s = 0; s < pred->send.n; s++) {
                    if (pred->send.v[s] - prev > longest) longest = pred->send.v[s] - prev;
                    prev = pred->send.v[s];
                }
                if (ensure_f(w, ti, weight, longest + 2)) { rcode = -1; goto done; }
                const double *f = w->f[ti];
                const int32_t *rt = REF_LOCAL_SENT(w, ref, r);
                if (union_marks(w, pred, ref, PRED_LOCAL_SENT(w, pred), rt, 1, f)) { rcode = -1; goto done; }
                budgets_set(w, r);
                double hits = 0.0, block = 0.0;
                Py_ssize_t start = 0;
                for (Py_ssize_t s = 0; s < ref->send.n; s++) {
                    Py_ssize_t end = ref->send.v[s];
                    Py_ssize_t run = 0;
                    for (Py_ssize_t k = start; k < end; k++) {
                        if (!w->mark[k]) continue;
                        int32_t t = rt[k];
                        if (LBM(w)[t] > 0 && LBP(w)[t] > 0) {
                            run++;
                            LBM(w)[t]--; LBP(w)[t]--;
                            if (k + 1 == end || !w->mark[k + 1]) { hits += f[run]; run = 0; }
                        }
                    }
                    block += f[end - start];
                    start = end;
                }
                budgets_clear(w);
                o[r].h = hits; o[r].rc = pow(block, weight); o[r].pc = pow((double)pn, weight);
                o[r].sel = block != 0.0 ? pow(hits / block, 1.0 / weight) : 0.0;
            }
        }
    }
done:
    for (Py_ssize_t k = 0; k < w->pdist.n; k++) w->loc[w->pdist.v[k]] = -1;
    return rcode;
}
