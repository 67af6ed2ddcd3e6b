/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* WLCS                                                                                          */

static int ensure_f(WorkerObject *w, int ti, double weight, Py_ssize_t size) {
    if (w->fn[ti] > size) return 0;
    Py_ssize_t c = w->fn[ti] ? w->fn[ti] : 64;
    while (c <= size) c *= 2;
    double *f = (double *)realloc(w->f[ti], (size_t)c * sizeof(double));
    if (!f) return -1;
    for (Py_ssize_t k = w->fn[ti]; k < c; k++) f[k] = pow((double)k, weight);
    w->f[ti] = f;
    w->fn[ti] = c;
    return 0;
}

/* One WLCS row (spec §8): a match always takes the diagonal, (c + f[k+1]) - f[k] in the
 * Python's order; otherwise up when up >= left.  Direction bits (1 = up) go to dir if given. */
static inline void wlcs_row(int32_t t, const int32_t *b, Py_ssize_t n, const double *f,
                            const double *pc, const int32_t *pr, double *cc, int32_t *cr, uint64_t *dir) {
    cc[0] = 0.0;
    cr[0] = 0;
    for (Py_ssize_t j = 1; j <= n; j++) {
        if (t == b[j - 1]) {
            int32_t k = pr[j - 1];
            cc[j] = pc[j - 1] + f[k + 1] - f[k];
            cr[j] = k + 1;
        } else {
            double up = pc[j], left = cc[j - 1];
            cr[j] = 0;
            if (up >= left) {
                cc[j] = up;
                if (dir) dir[j >> 6] |= 1ULL << (j & 63);
            } else cc[j] = left;
        }
    }
}

typedef struct {
    WorkerObject *w; const int32_t *a; Py_ssize_t m; const int32_t *b; Py_ssize_t n, words, K, lo, hi;
    const double *f; Py_ssize_t mwords;
} WRows;

/* wlcs_row for a row whose token occurs in b at the set bits of mask (bit j-1 <-> column j;
 * NULL: nowhere): the cells between matches are running maxima, done without branches. */
static inline int wlcs_row_masked(const uint64_t *mask, Py_ssize_t n, const double *f, const double *pc,
                                  const int32_t *pr, double *cc, int32_t *cr, uint64_t *dir) {
    double left = 0.0;
    int monotone = 1;
    cc[0] = 0.0;
    cr[0] = 0;
    Py_ssize_t j = 1, mwords = (n + 63) >> 6;
    uint64_t acc = 0;   /* direction bits of the current 64-column word */
    /* "up" when up >= left; the value is then max(up, left) either way (no NaN, no -0.0) */
#define WLCS_MISMATCH_CELL                          \
    {                                               \
        double up = pc[j];                          \
        acc |= (uint64_t)(up >= left) << (j & 63);  \
        left = up > left ? up : left;               \
        cc[j] = left;                               \
        cr[j] = 0;                                  \
        if ((j & 63) == 63) { dir[j >> 6] |= acc; acc = 0; } \
    }
    for (Py_ssize_t wd = 0; mask && wd < mwords; wd++) {
        uint64_t bits = mask[wd];
        while (bits) {
            Py_ssize_t m = (wd << 6) + ctz64(bits) + 1;
            bits &= bits - 1;
            for (; j < m; j++) WLCS_MISMATCH_CELL
            int32_t k = pr[m - 1];
            double v = pc[m - 1] + f[k + 1] - f[k];
            monotone &= v >= left;
            left = v;
            cc[m] = left;
            cr[m] = k + 1;
            if ((m & 63) == 63) { dir[m >> 6] |= acc; acc = 0; }
            j = m + 1;
        }
    }
    for (; j <= n; j++) WLCS_MISMATCH_CELL
#undef WLCS_MISMATCH_CELL
    if (acc) dir[n >> 6] |= acc;
    return monotone;
}

static void wlcs_load(WRows *r, Py_ssize_t lo) {
    WorkerObject *w = r->w;
    Py_ssize_t n = r->n, words = r->words;
    r->lo = lo;
    r->hi = lo + r->K < r->m ? lo + r->K : r->m;
    double *cbuf[2] = {w->wc, w->wc + (n + 1)};
    int32_t *rbuf[2] = {w->wr, w->wr + (n + 1)};
    Py_ssize_t ci = lo / r->K;
    memcpy(cbuf[0], w->wck + ci * (n + 1), (size_t)(n + 1) * sizeof(double));
    memcpy(rbuf[0], w->wckr + ci * (n + 1), (size_t)(n + 1) * sizeof(int32_t));
    double *pc = cbuf[0];
    int32_t *pr = rbuf[0];
    memset(w->rows, 0, (size_t)(r->hi - lo) * words * 8);
    /* the checkpoint row's shape is unknown: only rows computed here vouch for monotony */
    int monotone = 0;
    Py_ssize_t acc = 0;
    for (Py_ssize_t i = lo + 1; i <= r->hi; i++) {
        if (POLL_LOOP(w, acc, n)) return;   /* callers check w->stop */
        uint64_t *dir = w->rows + (i - lo - 1) * words;
        int32_t sl = r->a[i - 1] < 0 ? -1 : w->lslot[r->a[i - 1]];
        if (sl < 0 && monotone) {
            /* no match in this row and a nondecreasing row above: the running maxima are that
             * row itself, every step goes up, and the runs restart at 0 */
            memset(dir, 0xFF, (size_t)words * 8);
            pr = w->zeros;
            continue;
        }
        double *cc = pc == cbuf[0] ? cbuf[1] : cbuf[0];
        int32_t *cr = pr == rbuf[0] ? rbuf[1] : rbuf[0];
        monotone = wlcs_row_masked(sl < 0 ? NULL : w->masks + (Py_ssize_t)sl * r->mwords, n, r->f,
                                   pc, pr, cc, cr, dir);
        pc = cc;
        pr = cr;
    }
}

/* Model positions on the WLCS the Perl's back-trace picks; same block scheme as lcs_marks. */
static int wlcs_marks(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n,
                      const double *f, unsigned char *mark) {
    if (m == 0 || n == 0) return 0;
    Py_ssize_t words = (n + 64) >> 6;   /* bit j for column j = 1..n */
    WRows r = {w, a, m, b, n, words, m, 0, 0, f, (n + 63) >> 6};
    if (m * words > TABLE_WORDS_LIMIT) {
        r.K = TABLE_WORDS_LIMIT / words;
        if (r.K < 1) r.K = 1;
    }
    Py_ssize_t nck = m / r.K + 1;
    if (grow((void **)&w->rows, &w->rowcap, r.K * words, 8) ||
        grow((void **)&w->wc, &w->wccap, 2 * (n + 1), sizeof(double)) ||
        grow((void **)&w->wr, &w->wrcap, 2 * (n + 1), sizeof(int32_t)) ||
        grow_zero((void **)&w->zeros, &w->zeroscap, n + 1, sizeof(int32_t)) ||
        grow((void **)&w->wck, &w->wckcap, nck * (n + 1), sizeof(double)) ||
        grow((void **)&w->wckr, &w->wckrcap, nck * (n + 1), sizeof(int32_t))) return -1;
    memset(w->wck, 0, (size_t)(n + 1) * sizeof(double));
    memset(w->wckr, 0, (size_t)(n + 1) * sizeof(int32_t));
    if (r.K < m) {
        double *pc = w->wc, *cc = w->wc + (n + 1);
        int32_t *pr = w->wr, *cr = w->wr + (n + 1);
        memcpy(pc, w->wck, (size_t)(n + 1) * sizeof(double));
        memcpy(pr, w->wckr, (size_t)(n + 1) * sizeof(int32_t));
        Py_ssize_t acc = 0;
        for (Py_ssize_t i = 1; i <= m; i++) {
            if (POLL_LOOP(w, acc, n)) return 0;
            wlcs_row(a[i - 1], b, n, f, pc, pr, cc, cr, NULL);
            double *t = pc; pc = cc; cc = t;
            int32_t *q = pr; pr = cr; cr = q;
            if (i % r.K == 0 && i / r.K < nck) {
                memcpy(w->wck + (i / r.K) * (n + 1), pc, (size_t)(n + 1) * sizeof(double));
                memcpy(w->wckr + (i / r.K) * (n + 1), pr, (size_t)(n + 1) * sizeof(int32_t));
            }
        }
    }
    wlcs_load(&r, ((m - 1) / r.K) * r.K);
    Py_ssize_t i = m, j = n;
    while (i > 0 && j > 0 && !w->stop) {
        if (i <= r.lo) {
            wlcs_load(&r, r.lo - r.K);
            if (w->stop) return 0;
        }
        if (a[i - 1] == b[j - 1]) {
            mark[i - 1] = 1;
            i--; j--;
        } else if ((w->rows[(i - r.lo - 1) * words + (j >> 6)] >> (j & 63)) & 1) {
            i--;
        } else {
            j--;
        }
    }
    return 0;
}

/* WLCS(X, Y) of the papers (the final cell), in two rows of memory.  Each cell keeps its value
 * before the current run (base) and reads base + f[k], as lcs.wlcs_value does: a full match
 * gives f(n) exactly, where (c + f[k+1]) - f[k] would carry rounding (R = 1.0000000000000002). */
static int wlcs_value(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n,
                      const double *f, double *out) {
    *out = 0.0;
    if (m == 0 || n == 0) return 0;
    if (grow((void **)&w->wc, &w->wccap, 4 * (n + 1), sizeof(double)) ||
        grow((void **)&w->wr, &w->wrcap, 2 * (n + 1), sizeof(int32_t))) return -1;
    double *pc = w->wc, *cc = w->wc + (n + 1), *pb = w->wc + 2 * (n + 1), *cb = w->wc + 3 * (n + 1);
    int32_t *pr = w->wr, *cr = w->wr + (n + 1);
    memset(pc, 0, (size_t)(n + 1) * sizeof(double));
    memset(pb, 0, (size_t)(n + 1) * sizeof(double));
    memset(pr, 0, (size_t)(n + 1) * sizeof(int32_t));
    Py_ssize_t acc = 0;
    for (Py_ssize_t i = 1; i <= m; i++) {
        if (POLL_LOOP(w, acc, n)) return 0;   /* callers check w->stop */
        int32_t t = a[i - 1];
        cc[0] = cb[0] = 0.0;
        cr[0] = 0;
        for (Py_ssize_t j = 1; j <= n; j++) {
            if (t == b[j - 1]) {
                int32_t k = pr[j - 1] + 1;
                cb[j] = pb[j - 1];
                cr[j] = k;
                cc[j] = pb[j - 1] + f[k];
            } else {
                double up = pc[j], left = cc[j - 1];
                cc[j] = cb[j] = up >= left ? up : left;
                cr[j] = 0;
            }
        }
        double *t1 = pc; pc = cc; cc = t1;
        double *t2 = pb; pb = cb; cb = t2;
        int32_t *q = pr; pr = cr; cr = q;
    }
    *out = pc[n];
    return 0;
}
