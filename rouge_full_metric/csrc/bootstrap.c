/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* module functions                                                                              */


/* replicate_sums' and count_sums' arguments (values, N, K, out, R, first=0), checked: 0, or -1
 * with an exception set and no buffer held. */
static int sums_args(PyObject *args, Py_buffer *vb, Py_buffer *ob, Py_ssize_t *N, Py_ssize_t *K, Py_ssize_t *R,
                     Py_ssize_t *first) {
    *first = 0;
    if (!PyArg_ParseTuple(args, "y*nnw*n|n", vb, N, K, ob, R, first)) return -1;
    const char *bad = NULL;
    if (*N < 0 || *K < 0 || *R < 0 || vb->len != *N * *K * 8 || ob->len != *R * *K * 8)
        bad = "values must hold N*K and out R*K float64 values";
    else if (*first < 0 || *first > INT32_MAX)
        bad = "first must be 0..2**31-1";
    if (!bad) return 0;
    PyErr_SetString(PyExc_ValueError, bad);
    PyBuffer_Release(vb);
    PyBuffer_Release(ob);
    return -1;
}

/* replicate_sums(values, N, K, out, R, first=0): values a C-contiguous float64 (N, K) buffer in
 * sorted key order, out a writable C-contiguous float64 (R, K) buffer; out[r] = the sequential
 * sum of the values at the Perl's N draws of replicate first + r (drand48 seeded with first + r),
 * exactly as bootstrap.replicate_sums adds them.  first lets threads share the replicates out.
 *
 * The draws hit random rows of a table bigger than L2, so memory latency, not the additions,
 * sets the pace.  Hence: the columns are copied into blocks of RS_BLOCK (one 64-byte line per
 * row), a pair of replicates' draws is computed once and then swept over each block with the
 * accumulators in registers, and the rows a few draws ahead are prefetched.  Each replicate
 * still adds its own draws in draw order, so every sum is the Perl's bit for bit.  On x86-64
 * with AVX2, bootstrap_simd.c's kernel runs instead (same sums, bit for bit). */
#define RS_BLOCK 8
#define RS_LANES 2
#define RS_AHEAD 8
static PyObject *mod_replicate_sums(PyObject *self, PyObject *args) {
    Py_buffer vb, ob;
    Py_ssize_t N, K, R, first;
    if (sums_args(args, &vb, &ob, &N, &K, &R, &first)) return NULL;
    PyObject *res = NULL;
    char *raw = NULL;
    Py_ssize_t *at = NULL;
    int stopped = 0;
#ifdef BOOTSTRAP_SIMD
    int level = N <= INT32_MAX ? bs_level() : 0;
    if (level > 0) {
        int err = 0;
        double *o = (double *)ob.buf;
        int64_t last = monotonic_ms();
        PyThreadState *ts = PyEval_SaveThread();
        for (Py_ssize_t k = 0; k < R * K; k++) o[k] = 0.0;
        if (N > 0 && K > 0) err = bs_replicate_sums((const double *)vb.buf, N, K, o, R, first, level, &ts, &last);
        PyEval_RestoreThread(ts);
        if (err == ERR_NOMEM) PyErr_NoMemory();
        if (err) goto end;   /* ERR_PY: the handler's exception (KeyboardInterrupt) is set */
        Py_INCREF(Py_None);
        res = Py_None;
        goto end;
    }
#endif
    Py_ssize_t nb = (K + RS_BLOCK - 1) / RS_BLOCK;
    if (N > 0 && nb > 0) {
        raw = (char *)malloc((size_t)(nb * N * RS_BLOCK) * sizeof(double) + 64);
        at = (Py_ssize_t *)malloc((size_t)((N + RS_AHEAD) * RS_LANES) * sizeof(Py_ssize_t));
        if (!raw || !at) { PyErr_NoMemory(); goto end; }
    }
    {
        const double *v = (const double *)vb.buf;
        double *o = (double *)ob.buf;
        int64_t last = monotonic_ms();
        PyThreadState *ts = PyEval_SaveThread();
        const uint64_t A = 0x5DEECE66DULL, C = 0xB, MASK = (1ULL << 48) - 1;
        const double scale = 1.0 / 281474976710656.0, size = (double)N;
        for (Py_ssize_t k = 0; k < R * K; k++) o[k] = 0.0;
        if (raw) {
            /* blk[b][i][c] = v[i][b * RS_BLOCK + c], zero past K (sums of zeros, never read) */
            double *blk = (double *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
            for (Py_ssize_t b = 0; b < nb; b++)
                for (Py_ssize_t i = 0; i < N; i++)
                    for (Py_ssize_t c = 0; c < RS_BLOCK; c++) {
                        Py_ssize_t k = b * RS_BLOCK + c;
                        blk[(b * N + i) * RS_BLOCK + c] = k < K ? v[i * K + k] : 0.0;
                    }
            for (Py_ssize_t d = N; d < N + RS_AHEAD; d++)
                for (int q = 0; q < RS_LANES; q++) at[d * RS_LANES + q] = 0;
            for (Py_ssize_t r0 = 0; r0 < R; r0 += RS_LANES) {
                if ((stopped = nogil_signals(&ts, &last))) break;
                Py_ssize_t lanes = R - r0 < RS_LANES ? R - r0 : RS_LANES;
                uint64_t x[RS_LANES];
                for (int q = 0; q < RS_LANES; q++) x[q] = perl_seed(first + r0 + q);
                for (Py_ssize_t d = 0; d < N; d++)
                    for (int q = 0; q < RS_LANES; q++) {   /* lanes interleaved: the LCG is a serial chain */
                        x[q] = (A * x[q] + C) & MASK;
                        at[d * RS_LANES + q] = (Py_ssize_t)(((double)x[q] * scale) * size) * RS_BLOCK;
                    }
                for (Py_ssize_t b = 0; b < nb; b++) {
                    const double *base = blk + b * N * RS_BLOCK;
                    double acc[RS_LANES][RS_BLOCK];
                    for (int q = 0; q < RS_LANES; q++)
                        for (int c = 0; c < RS_BLOCK; c++) acc[q][c] = 0.0;
                    for (Py_ssize_t d = 0; d < N; d++) {
                        for (int q = 0; q < RS_LANES; q++) {
                            const double *row = base + at[d * RS_LANES + q];
#if defined(__GNUC__) || defined(__clang__)
                            __builtin_prefetch(base + at[(d + RS_AHEAD) * RS_LANES + q]);
#endif
                            for (int c = 0; c < RS_BLOCK; c++) acc[q][c] += row[c];
                        }
                    }
                    for (Py_ssize_t q = 0; q < lanes; q++)
                        for (Py_ssize_t c = 0; c < RS_BLOCK && b * RS_BLOCK + c < K; c++)
                            o[(r0 + q) * K + b * RS_BLOCK + c] = acc[q][c];
                }
            }
        }
        PyEval_RestoreThread(ts);
    }
    if (stopped) goto end;   /* the handler's exception (KeyboardInterrupt) is set */
    Py_INCREF(Py_None);
    res = Py_None;
end:
    free(raw);
    free(at);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&ob);
    return res;
}

/* count_sums(values, N, K, out, R): out[r] = sum over rows i of c[r][i] * values[i], where
 * c[r][i] counts how often replicate r's N Perl draws (those of replicate_sums) hit row i.
 * Returns False, with out incomplete, when a count would pass 255 (the caller then adds in draw
 * order instead).
 *
 * The counts are a replicate's sufficient statistic for a mean.  replicate_sums reads a random
 * row per draw from a table far bigger than L2 and is bound by memory latency; here the random
 * accesses only increment one byte in a count table that stays in L2, and the values are then
 * streamed in order once per CS_REPS replicates, the accumulators held in registers.  Each
 * out[r][k] still adds its terms in row order with separate multiplies and adds (the build
 * disables contraction), so the result is the same on every machine and vector width; it
 * differs from the draw-order sums in the last bits, so it serves the flavors whose bootstrap
 * need not be the Perl's bit for bit.  On x86-64 with AVX2, count_sums_v and bootstrap_simd.c's
 * kernels draw, count and multiply-add instead, each replicate counted in a table of its own
 * first (same sums, bit for bit). */
#define CS_REPS 8
#define CS_COLS 6
#define CS_LANES 4

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
/* wider vectors where the CPU has them: the same multiplies and adds, in the same order */
__attribute__((target_clones("avx2", "default")))
#endif
static void count_tile(const uint8_t *cnt, const double *tile, Py_ssize_t N, double acc[CS_COLS][CS_REPS]) {
    double a[CS_COLS][CS_REPS];
    for (int k = 0; k < CS_COLS; k++)
        for (int q = 0; q < CS_REPS; q++) a[k][q] = 0.0;
    for (Py_ssize_t i = 0; i < N; i++) {
        double c[CS_REPS];
        for (int q = 0; q < CS_REPS; q++) c[q] = (double)cnt[i * CS_REPS + q];
        for (int k = 0; k < CS_COLS; k++) {
            double v = tile[i * CS_COLS + k];
            for (int q = 0; q < CS_REPS; q++) a[k][q] += v * c[q];
        }
    }
    for (int k = 0; k < CS_COLS; k++)
        for (int q = 0; q < CS_REPS; q++) acc[k][q] = a[k][q];
}

/* The counts of replicates first + r0 .. first + r0+CS_REPS-1 into cnt[i][q] (those from first
 * + R on stay zero); nonzero when a count wrapped. */
static int count_draws(uint8_t *cnt, Py_ssize_t N, Py_ssize_t first, Py_ssize_t r0, Py_ssize_t R) {
    const uint64_t A = 0x5DEECE66DULL, C = 0xB, MASK = (1ULL << 48) - 1;
    const double scale = 1.0 / 281474976710656.0, size = (double)N;
    uint8_t wrapped = 0;
    memset(cnt, 0, (size_t)(N * CS_REPS));
    for (int q0 = 0; q0 < CS_REPS; q0 += CS_LANES) {
        uint64_t x[CS_LANES];
        for (int q = 0; q < CS_LANES; q++) x[q] = perl_seed(first + r0 + q0 + q);
        if (r0 + q0 + CS_LANES <= R) {
            for (Py_ssize_t d = 0; d < N; d++)
                for (int q = 0; q < CS_LANES; q++) {   /* lanes interleaved: each LCG is a serial chain */
                    x[q] = (A * x[q] + C) & MASK;
                    uint8_t *cell = cnt + (Py_ssize_t)(((double)x[q] * scale) * size) * CS_REPS + q0 + q;
                    *cell += 1;
                    wrapped |= (uint8_t)(*cell == 0);
                }
        } else {
            for (int q = 0; q < CS_LANES && r0 + q0 + q < R; q++)
                for (Py_ssize_t d = 0; d < N; d++) {
                    x[q] = (A * x[q] + C) & MASK;
                    uint8_t *cell = cnt + (Py_ssize_t)(((double)x[q] * scale) * size) * CS_REPS + q0 + q;
                    *cell += 1;
                    wrapped |= (uint8_t)(*cell == 0);
                }
        }
    }
    return wrapped;
}

/* A test hook (_bootstrap_hooks): below 255, count_sums also declines when a count passes this,
 * so that tests reach the fallback a real count past 255 (N >= 256 draws on one row) never does. */
static int COUNT_LIMIT = 255;

/* Whether a count of the first `lanes` replicates passes it: replicate q's count of row i at
 * cnt[i * row + q * lane] (one table of 8 bytes a row: row 8, lane 1; a table a replicate: row 1,
 * lane its size). */
static int counts_over_limit(const uint8_t *cnt, Py_ssize_t N, Py_ssize_t lanes, Py_ssize_t row, Py_ssize_t lane) {
    if (COUNT_LIMIT >= 255) return 0;
    for (Py_ssize_t i = 0; i < N; i++)
        for (Py_ssize_t q = 0; q < lanes; q++)
            if (cnt[i * row + q * lane] > COUNT_LIMIT) return 1;
    return 0;
}

#ifdef BOOTSTRAP_SIMD
/* The width of count_sums_v's tile t of nt, W columns each: at level 1 the last one only as wide
 * as what is left of the K, rounded up to a multiple of 4 */
static int tile_width(int level, Py_ssize_t t, Py_ssize_t nt, Py_ssize_t K, int W) {
    return level == 1 && t == nt - 1 ? (int)((K - t * W + 3) / 4 * 4) : W;
}

/* count_sums in vectors (level 1: AVX2, 2 or 3: AVX-512): out (R, K) for replicates first ..
 * first + R - 1, zeroed by the caller.  Per 8 replicates (AVX2: BS_TILEC_REPS), each one's
 * counts into a table of its own (bs_count1), then bs_tilez (AVX-512: a lane per replicate) or
 * bs_tilec (AVX2: a lane per column) over each tile of columns (AVX-512: 4, 8, 12 or 16; AVX2:
 * 4, 8 or 12), a 12-column row in one pass, not two of 6.  *wrapped is set when a count passed
 * 255 (or COUNT_LIMIT).  Returns 0, ERR_NOMEM, or ERR_PY when a signal handler raised. */
static int count_sums_v(const double *v, Py_ssize_t N, Py_ssize_t K, double *o, Py_ssize_t R, Py_ssize_t first,
                        int level, PyThreadState **ts, int64_t *last, int *wrapped) {
    const Py_ssize_t rows = (N + 7) / 8 * 8;            /* bs_tilez reads whole groups of 8 rows */
    const Py_ssize_t S = (rows + 63) / 64 * 64;         /* a replicate's table, from a line boundary */
    /* AVX2: tiles of 12 columns and a last one of what is left, up to a multiple of 4 (16 would
     * leave bs_tilec registers for 2 replicates at a time, not 4); AVX-512: all of W columns */
    const int Wf = level == 1 ? 12 : 16;
    const int W = K >= Wf ? Wf : (int)((K + 3) / 4 * 4);
    const Py_ssize_t nt = (K + W - 1) / W;
    const Py_ssize_t B = level == 1 ? BS_TILEC_REPS : 8;   /* replicates a pass over the values */
    void *raw;
    size_t mapped;
    double *tiles = (double *)malloc((size_t)(nt * rows * W) * sizeof(double));
    uint8_t *cnt = (uint8_t *)huge_alloc((size_t)(S * B), 2 * HUGE_PAGE, &raw, &mapped);
    if (!tiles || !cnt) {
        free(tiles);
        if (cnt) huge_free(raw, mapped);
        return ERR_NOMEM;
    }
    /* tile t, from tiles + t * rows * W: row i at i * wt, its column c v[i][t * W + c], zero past
     * K and past N */
    for (Py_ssize_t t = 0; t < nt; t++) {
        const int wt = tile_width(level, t, nt, K, W);
        for (Py_ssize_t i = 0; i < rows; i++)
            for (Py_ssize_t c = 0; c < wt; c++) {
                Py_ssize_t k = t * W + c;
                tiles[t * rows * W + i * wt + c] = i < N && k < K ? v[i * K + k] : 0.0;
            }
    }
    int err = 0;
    for (Py_ssize_t r0 = 0; r0 < R && !*wrapped; r0 += B) {
        if (nogil_signals(ts, last)) { err = ERR_PY; break; }
        Py_ssize_t lanes = R - r0 < B ? R - r0 : B;
        memset(cnt, 0, (size_t)(S * B));   /* the replicates past R keep counts 0 */
        for (Py_ssize_t q = 0; q < lanes; q++) bs_count1(cnt + q * S, N, first + r0 + q);
        *wrapped |= counts_over_limit(cnt, N, lanes, 1, S);
        if (level == 1) *wrapped |= bs_own_wrapped(cnt, S, N, lanes);
        for (Py_ssize_t t = 0; t < nt && !*wrapped; t++) {
            double acc[16 * BS_TILEC_REPS];
            if (level == 1) bs_tilec_avx2(cnt, S, tiles + t * rows * W, N, tile_width(level, t, nt, K, W), lanes, acc);
            else {
                uint64_t tot[8];
                bs_tilez_avx512(cnt, S, tiles + t * rows * W, N, W, acc, tot);
                for (Py_ssize_t q = 0; q < lanes; q++) *wrapped |= tot[q] != (uint64_t)N;   /* a byte wrapped */
            }
            for (Py_ssize_t q = 0; q < lanes; q++)
                for (Py_ssize_t c = 0; c < W && t * W + c < K; c++) o[(r0 + q) * K + t * W + c] = acc[c * B + q];
        }
    }
    free(tiles);
    huge_free(raw, mapped);
    return err;
}
#endif

static PyObject *mod_count_sums(PyObject *self, PyObject *args) {
    Py_buffer vb, ob;
    Py_ssize_t N, K, R, first;
    if (sums_args(args, &vb, &ob, &N, &K, &R, &first)) return NULL;
    PyObject *res = NULL;
    double *tiles = NULL;
    uint8_t *cnt = NULL;
    int wrapped = 0, stopped = 0;
#ifdef BOOTSTRAP_SIMD
    int level = N <= INT32_MAX ? bs_level() : 0;
    if (level > 0) {
        double *o = (double *)ob.buf;
        int64_t last = monotonic_ms();
        int err = 0;
        PyThreadState *ts = PyEval_SaveThread();
        for (Py_ssize_t k = 0; k < R * K; k++) o[k] = 0.0;
        if (N > 0 && K > 0) err = count_sums_v((const double *)vb.buf, N, K, o, R, first, level, &ts, &last, &wrapped);
        PyEval_RestoreThread(ts);
        if (err == ERR_NOMEM) PyErr_NoMemory();
        if (!err) res = PyBool_FromLong(!wrapped);
        goto end;   /* ERR_PY: the handler's exception (KeyboardInterrupt) is set */
    }
#endif
    Py_ssize_t nt = (K + CS_COLS - 1) / CS_COLS;
    if (N > 0 && nt > 0) {
        tiles = (double *)malloc((size_t)(nt * N * CS_COLS) * sizeof(double));
        cnt = (uint8_t *)malloc((size_t)(N * CS_REPS));
        if (!tiles || !cnt) { PyErr_NoMemory(); goto end; }
    }
    {
        const double *v = (const double *)vb.buf;
        double *o = (double *)ob.buf;
        int64_t last = monotonic_ms();
        PyThreadState *ts = PyEval_SaveThread();
        for (Py_ssize_t k = 0; k < R * K; k++) o[k] = 0.0;
        if (tiles) {
            /* tiles[t][i][c] = v[i][t * CS_COLS + c], zero past K: each pass streams one tile */
            for (Py_ssize_t t = 0; t < nt; t++)
                for (Py_ssize_t i = 0; i < N; i++)
                    for (Py_ssize_t c = 0; c < CS_COLS; c++) {
                        Py_ssize_t k = t * CS_COLS + c;
                        tiles[(t * N + i) * CS_COLS + c] = k < K ? v[i * K + k] : 0.0;
                    }
            for (Py_ssize_t r0 = 0; r0 < R && !wrapped; r0 += CS_REPS) {
                if ((stopped = nogil_signals(&ts, &last))) break;
                wrapped = count_draws(cnt, N, first, r0, R);
                wrapped |= counts_over_limit(cnt, N, R - r0 < CS_REPS ? R - r0 : CS_REPS, CS_REPS, 1);
                for (Py_ssize_t t = 0; t < nt && !wrapped; t++) {
                    double acc[CS_COLS][CS_REPS];
                    count_tile(cnt, tiles + t * N * CS_COLS, N, acc);
                    for (Py_ssize_t q = 0; q < CS_REPS && r0 + q < R; q++)
                        for (Py_ssize_t c = 0; c < CS_COLS && t * CS_COLS + c < K; c++)
                            o[(r0 + q) * K + t * CS_COLS + c] = acc[c][q];
                }
            }
        }
        PyEval_RestoreThread(ts);
    }
    /* stopped: the handler's exception (KeyboardInterrupt) is set */
    res = stopped ? NULL : PyBool_FromLong(!wrapped);
end:
    free(tiles);
    free(cnt);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&ob);
    return res;
}

/* _bootstrap_hooks(simd, count_limit[, pack_min]) -> (previous simd, previous count_limit,
 * supported simd, previous pack_min, packed): tests force the scalar (0), AVX2 with FMA (1), AVX-512 (2)
 * or AVX-512 with IFMA (3) kernels (capped at what the CPU has), lower the count past which
 * count_sums declines, and set the size of the doubles' table (bytes) from which replicate_sums
 * packs 5-decimal values (AVX-512: blocks of 9-16 columns; AVX2: 9-12, from 16 / 3 of it; 0:
 * whenever they pack); packed counts the column blocks it packed so far.  -1 leaves a setting as
 * it is. */
static PyObject *mod_bootstrap_hooks(PyObject *self, PyObject *args) {
    int simd, limit;
    Py_ssize_t pack_min = -1;
    if (!PyArg_ParseTuple(args, "ii|n", &simd, &limit, &pack_min)) return NULL;
    if (simd > 3 || limit > 255 || simd < -1 || limit < -1 || pack_min < -1) {
        PyErr_SetString(PyExc_ValueError, "simd must be -1..3, count_limit -1..255 and pack_min -1 or more");
        return NULL;
    }
#ifdef BOOTSTRAP_SIMD
    bs_level();
    PyObject *old = Py_BuildValue("iiinn", bs_allowed, COUNT_LIMIT, bs_supported, bs_pack_min, bs_packed);
    if (old && simd >= 0) bs_allowed = simd;
    if (old && pack_min >= 0) bs_pack_min = pack_min;
#else
    PyObject *old = Py_BuildValue("iiinn", 0, COUNT_LIMIT, 0, (Py_ssize_t)-1, (Py_ssize_t)0);
#endif
    if (old && limit >= 0) COUNT_LIMIT = limit;
    return old;
}

/* byte_order(keys, out): out (a writable intp buffer of len(keys)) = bootstrap.byte_order(keys),
 * the positions of the str keys in code-point order (the order of their UTF-8 bytes), ties in
 * input order.  A natural merge sort of (prefix, position) items: the scorer's keys "1.A" ..
 * "N.A" are a few sorted runs (one per number of digits) and merge in a few sequential passes.
 * The prefix packs a key's first 8 code points, a byte each (255 for any from 255 up), so that
 * most comparisons touch no string: sorted(range(N), key=keys.__getitem__) spends most of its
 * time in the key calls. */
typedef struct {
    uint64_t prefix;
    Py_ssize_t at;
} bo_item;

typedef struct {
    const void *data;
    Py_ssize_t len;
    int kind;
} bo_key;

/* the whole keys compared: a before b */
static int bo_key_less(const bo_key *a, const bo_key *b) {
    Py_ssize_t n = a->len < b->len ? a->len : b->len;
    if (a->kind == PyUnicode_1BYTE_KIND && b->kind == PyUnicode_1BYTE_KIND) {
        int c = memcmp(a->data, b->data, (size_t)n);
        if (c) return c < 0;
    } else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 x = PyUnicode_READ(a->kind, a->data, i), y = PyUnicode_READ(b->kind, b->data, i);
            if (x != y) return x < y;
        }
    }
    return a->len < b->len;
}

/* b strictly before a.  Unequal prefixes decide unless a byte 255 (a code point >= 255, maybe
 * two different ones) precedes their first difference; a shorter key's prefix ends in zeros, so
 * equal prefixes (and a real U+0000 against the padding) go to the keys themselves. */
static inline int bo_less(const bo_item *b, const bo_item *a, const bo_key *keys, int clamped) {
    uint64_t x = a->prefix ^ b->prefix;
    if (x) {
        int lead = clz64(x) & ~7;   /* bits before the first differing byte */
        if (!clamped || !lead) return b->prefix < a->prefix;
        /* w: a's common bytes inverted, the rest 0xFF; a zero byte in w is a 255 in common */
        uint64_t w = ~(a->prefix & (~(uint64_t)0 << (64 - lead)));
        if (!((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL)) return b->prefix < a->prefix;
    }
    return bo_key_less(&keys[b->at], &keys[a->at]);
}

static PyObject *mod_byte_order(PyObject *self, PyObject *args) {
    PyObject *keys, *seq;
    Py_buffer ob;
    if (!PyArg_ParseTuple(args, "Ow*", &keys, &ob)) return NULL;
    PyObject *res = NULL;
    bo_key *k;
    bo_item *items;
    Py_ssize_t *runs;
    void *raw = NULL;
    size_t mapped = 0;
    if (!(seq = PySequence_Fast(keys, "keys must be a sequence of str"))) goto end;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (ob.len != n * (Py_ssize_t)sizeof(Py_ssize_t) || ob.itemsize != sizeof(Py_ssize_t)) {
        PyErr_SetString(PyExc_ValueError, "out must hold len(keys) intp values");
        goto end;
    }
    /* one block, on huge pages when large: 100,000 keys take 5.6 MB, whose 1,400 faults of 4 KB
     * pages cost more (3.7 ms at 2.8 us) than the sort */
    size_t bytes = ((size_t)n + 1) * (2 * sizeof(bo_item) + sizeof(bo_key) + sizeof(Py_ssize_t));
    char *block = (char *)huge_alloc(bytes, HUGE_PAGE, &raw, &mapped);
    if (!block) { PyErr_NoMemory(); goto end; }
    items = (bo_item *)block;
    k = (bo_key *)(items + 2 * (n + 1));
    runs = (Py_ssize_t *)(k + n + 1);
    PyObject **objs = PySequence_Fast_ITEMS(seq);
    int clamped = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = objs[i];
        if (!PyUnicode_Check(s)) {
            PyErr_Format(PyExc_TypeError, "keys must be str, got %.80s at position %zd", Py_TYPE(s)->tp_name, i);
            goto end;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(s) < 0) goto end;
#endif
        k[i].data = PyUnicode_DATA(s);
        k[i].len = PyUnicode_GET_LENGTH(s);
        k[i].kind = (int)PyUnicode_KIND(s);
        uint64_t p = 0;
        for (Py_ssize_t j = 0; j < 8; j++) {
            Py_UCS4 c = j < k[i].len ? PyUnicode_READ(k[i].kind, k[i].data, j) : 0;
            if (c >= 255) { c = 255; clamped = 1; }
            p = p << 8 | c;
        }
        items[i].prefix = p;
        items[i].at = i;
    }
    /* the sorted runs of the input: runs[0] = 0 < runs[1] < ... < runs[nr] = n */
    bo_item *src = items, *dst = items + n;
    Py_ssize_t nr = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (i == 0 || bo_less(&src[i], &src[i - 1], k, clamped)) runs[nr++] = i;
    runs[nr] = n;
    while (nr > 1) {   /* merge runs 2j and 2j + 1; an odd last run is copied over */
        Py_ssize_t m = 0;
        for (Py_ssize_t j = 0; j < nr; j += 2) {
            Py_ssize_t lo = runs[j], mid = runs[j + 1], hi = j + 2 <= nr ? runs[j + 2] : mid;
            Py_ssize_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) dst[o++] = bo_less(&src[b], &src[a], k, clamped) ? src[b++] : src[a++];
            while (a < mid) dst[o++] = src[a++];
            while (b < hi) dst[o++] = src[b++];
            runs[m++] = lo;
        }
        runs[m] = n;
        nr = m;
        bo_item *t = src;
        src = dst;
        dst = t;
    }
    Py_ssize_t *out = (Py_ssize_t *)ob.buf;
    for (Py_ssize_t i = 0; i < n; i++) out[i] = src[i].at;
    Py_INCREF(Py_None);
    res = Py_None;
end:
    if (raw) huge_free(raw, mapped);
    Py_XDECREF(seq);
    PyBuffer_Release(&ob);
    return res;
}
