/* Part of the _core translation unit: bootstrap_simd.c includes this file twice, once for
 * AVX-512 with DQ (level 2) and once with IFMA too (level 3), after defining BS_K(name) (this
 * copy's name for each function), BS_KT (its target attribute) and BS_KIFMA (1 in the IFMA copy);
 * it is not compiled on its own.  The two copies differ only in bs_draw8z's multiply.  The
 * AVX-512 kernels of the Perl-order sums (replicate_sums), every lane doing bootstrap.py's
 * operations on the same operands in the same order. */

/* The next draw's rows of the 8 replicates of one 512-bit vector, as 64-bit integers, from the
 * state after the step (bs_draw4 takes the row from the state before it, which on AVX2 ran
 * 1.05-1.2 times faster; not tried here, with no AVX-512 machine at hand since).  x * A + 0xB
 * in one IFMA multiply-add (its low 52 bits: x < 2^48 and A < 2^35 fit its operands, and 2^48
 * divides 2^52) or DQ's 64-bit multiply (three uops), where three 32-bit multiplies take eight;
 * the row as x * (N * 2^-48) in one fused multiply-add on x's double 2^52 + x: it rounds the
 * product x * N * 2^-48 once, as (x * 2^-48) * N does (its first multiply is exact).  scale is
 * N * 2^-48, shift -N * 2^4.  bs_sums8z at 1,000 x 12, whose draws are its work, took 1.26 ns a
 * draw with the three 32-bit multiplies, 1.15 with DQ's multiply, 0.96 with IFMA's (CPU medians
 * of 7 in one process). */
BS_KT static inline __attribute__((always_inline)) __m512i BS_K(bs_draw8z)(__m512i *x, __m512d scale, __m512d shift) {
#if BS_KIFMA
    *x = _mm512_and_si512(_mm512_madd52lo_epu64(_mm512_set1_epi64(0xB), *x, _mm512_set1_epi64((long long)BS_A)),
                          _mm512_set1_epi64(BS_MASK));
#else
    *x = _mm512_and_si512(_mm512_add_epi64(_mm512_mullo_epi64(*x, _mm512_set1_epi64((long long)BS_A)), _mm512_set1_epi64(0xB)),
                          _mm512_set1_epi64(BS_MASK));
#endif
    __m512d u = _mm512_castsi512_pd(_mm512_or_si512(*x, _mm512_set1_epi64(BS_TWO52)));
    return _mm512_cvttpd_epu64(_mm512_fmadd_pd(u, scale, shift));
}

/* The AVX-512 form of bs_sums8 (rows of 4 to 16 columns, nv 1-4; rows of one line up to
 * BS_LINE_ROWS_MAX bytes of table, bs_sums8 past it): the same sums, bit for bit, in fewer
 * instructions a draw, which matters because the prefetched loads overlap with them (at 100,000
 * x 12 a draw costs about what its arithmetic alone costs plus half again).  The 8 replicates'
 * generators share one 512-bit vector (bs_draw8z); the ring holds each draw's byte offset,
 * computed in the vector, so that a load or a prefetch is one instruction on its address; 16
 * columns add as two 512-bit vectors.  Unless the table is small (near: at most
 * BS_NEAR_MAX bytes, which L2 holds), the prefetches go to L2 only (prefetcht2): the table then
 * lives in L3 or memory, and L2 keeps more misses in flight than L1.
 *
 * split (nv 3 only; 1 or 2): the 12 columns as two tables, 8 columns (64-byte rows, at tbl)
 * and 4 (32-byte rows, at tbl + 8 N), instead of one of 96-byte rows.  A draw still reads two
 * lines, but the 4-column table is a third of the bytes and, while small, stays in L3 as the
 * 8-column one streams from memory.  bs_replicate_sums splits only while that table is at most
 * BS_SPLIT_MAX bytes: past it, two unrelated memory lines a draw cost more than the two adjacent
 * ones of a 96-byte row (200,000 x 12: 1.4 times the time).  Its rows are prefetched (into L1)
 * only past BS_PF4_MIN bytes (split 2): below, out-of-order execution hides its cache misses and
 * the prefetches cost more than they save (20,000 x 12: 0.85 of the time without them; 115,000:
 * 1.15 times).
 *
 * Measured in one process against the kernel before (bs_sums8 at every level; AVX-512 machine,
 * 32 MB of L3 shared with other jobs, whose load moves the ratios; time before / time after):
 * 100,000 x 12 1.07-1.22 (one table of 96-byte rows: 1.05), 200,000 x 12 1.9 (with the huge pages
 * of bs_replicate_sums' table), 50,000 x 12 1.17, 20,000 x 12 1.18, 2,000 x 12 1.26, 100,000 x 16 1.67,
 * 10,000 x 16 1.13. */
BS_KT static inline __attribute__((always_inline)) void BS_K(bs_sums8z)(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, int split, int near, double *out) {
    const __m512d scale = _mm512_set1_pd((double)N * 0x1p-48), shift = _mm512_set1_pd(-(double)N * 0x1p4);
    const char *base = (const char *)tbl, *base4 = (const char *)(tbl + 8 * N);
    /* a draw's offset: of its row, or (split) of its row in the 4-column table, the 8-column
     * table's being twice it */
    const size_t row = split ? 32 : (size_t)32 * (size_t)nv;
    uint64_t seed[8];
    for (int q = 0; q < 8; q++) seed[q] = perl_seed(r0 + q);
    __m512i x = _mm512_loadu_si512(seed);
    /* the accumulators: nv 4, two vectors of 8 columns a replicate; 2, one; 3 and 1, three and
     * one of 4; split, one of 8 and one of 4 */
    bs_f64x8 z[8][2];
    bs_f64x4 y[8][3];
    for (int q = 0; q < 8; q++) {
        z[q][0] = z[q][1] = (bs_f64x8){0};
        y[q][0] = y[q][1] = y[q][2] = (bs_f64x4){0};
    }
    uint64_t ring[BS_AHEAD][8] __attribute__((aligned(64)));
#define BS_PREFETCH_FAR(p) do { if (near) __builtin_prefetch((p), 0, 3); else __builtin_prefetch((p), 0, 1); } while (0)
    for (Py_ssize_t d = 0; d < N + BS_AHEAD; d++) {
        if (d >= BS_AHEAD) {
            const uint64_t *slot = ring[(d - BS_AHEAD) & (BS_AHEAD - 1)];
            for (int q = 0; q < 8; q++) {
                if (split) {
                    z[q][0] += *(const bs_f64x8 *)(base + 2 * slot[q]);
                    y[q][0] += *(const bs_f64x4 *)(base4 + slot[q]);
                } else if (nv == 4) {
                    for (int j = 0; j < 2; j++) z[q][j] += ((const bs_f64x8 *)(base + slot[q]))[j];
                } else if (nv == 2) {
                    z[q][0] += *(const bs_f64x8 *)(base + slot[q]);
                } else {
                    for (int j = 0; j < nv; j++) y[q][j] += ((const bs_f64x4 *)(base + slot[q]))[j];
                }
            }
        }
        if (d < N) {
            uint64_t *slot = ring[d & (BS_AHEAD - 1)];
            _mm512_store_si512(slot, _mm512_mul_epu32(BS_K(bs_draw8z)(&x, scale, shift), _mm512_set1_epi64((long long)row)));
            for (int q = 0; q < 8; q++) {
                if (split) {
                    BS_PREFETCH_FAR(base + 2 * slot[q]);
                    if (split > 1) __builtin_prefetch(base4 + slot[q], 0, 3);
                } else {
                    BS_PREFETCH_FAR(base + slot[q]);
                    if (nv > 2) BS_PREFETCH_FAR(base + slot[q] + row - 1);   /* the row's second line */
                }
            }
        }
    }
#undef BS_PREFETCH_FAR
    for (int q = 0; q < 8; q++) {
        if (split) {
            memcpy(out + q * 16, &z[q][0], 64);
            memcpy(out + q * 16 + 8, &y[q][0], 32);
        } else if (nv == 4) {
            memcpy(out + q * 16, z[q], 128);
        } else if (nv == 2) {
            memcpy(out + q * 16, &z[q][0], 64);
        } else {
            memcpy(out + q * 16, y[q], (size_t)nv * 32);
        }
    }
}

/* bs_pack5's k back into its double, 8 at a time: k * c_hi + k * c_lo with one rounding, c_hi
 * the double nearest 10^-5 and c_lo the rest; the sum is within 2^-100 of k / 10^5 relatively,
 * which lies at least 2^-66 from a midpoint between doubles (a fraction of denominator 10^5), so
 * the rounding gives the double nearest k / 10^5 (tests/test_bootstrap.py checks all 2,000,001).
 * One fused multiply-add and a multiply where q = k * c_hi and its correction took three. */
BS_KT static inline __attribute__((always_inline)) __m512d BS_K(bs_unpack5)(__m256i k) {
    __m512d c = _mm512_cvtepu32_pd(k);
    return _mm512_fmadd_pd(c, _mm512_set1_pd(1e-5), _mm512_mul_pd(c, _mm512_set1_pd(BS_C_LO)));
}

/* bs_sums8z over bs_pack5's table, nv 3 (12 columns: a vector of 8 sums a replicate from its
 * k, and the 4 doubles of two replicates' rows in one vector) or 4 (16: two vectors of 8 from
 * k).  The table is past L2 here: prefetches to L2, as bs_sums8z's far ones (without them 1.3
 * times the time; 16 draws ahead instead of 8 did not help). */
BS_KT static inline __attribute__((always_inline)) void BS_K(bs_sums8p)(const uint32_t *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    const __m512d scale = _mm512_set1_pd((double)N * 0x1p-48), shift = _mm512_set1_pd(-(double)N * 0x1p4);
    const char *base = (const char *)tbl;
    uint64_t seed[8];
    for (int q = 0; q < 8; q++) seed[q] = perl_seed(r0 + q);
    __m512i x = _mm512_loadu_si512(seed);
    __m512d z[8], w[8];
    for (int q = 0; q < 8; q++) z[q] = w[q] = _mm512_setzero_pd();
    uint64_t ring[BS_AHEAD][8] __attribute__((aligned(64)));
    for (Py_ssize_t d = 0; d < N + BS_AHEAD; d++) {
        if (d >= BS_AHEAD) {
            const uint64_t *slot = ring[(d - BS_AHEAD) & (BS_AHEAD - 1)];
            for (int q = 0; q < 8; q++) {
                const char *row = base + slot[q];
                z[q] = _mm512_add_pd(z[q], BS_K(bs_unpack5)(_mm256_load_si256((const __m256i *)row)));
                if (nv == 4) w[q] = _mm512_add_pd(w[q], BS_K(bs_unpack5)(_mm256_load_si256((const __m256i *)(row + 32))));
            }
            if (nv == 3)   /* the 4 doubles of two replicates' rows in one vector */
                for (int q = 0; q < 8; q += 2) {
                    __m512d t = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_load_pd((const double *)(base + slot[q] + 32))),
                                                   _mm256_load_pd((const double *)(base + slot[q + 1] + 32)), 1);
                    w[q >> 1] = _mm512_add_pd(w[q >> 1], t);
                }
        }
        if (d < N) {
            uint64_t *slot = ring[d & (BS_AHEAD - 1)];
            _mm512_store_si512(slot, _mm512_slli_epi64(BS_K(bs_draw8z)(&x, scale, shift), 6));   /* 64-byte rows */
            for (int q = 0; q < 8; q++) __builtin_prefetch(base + slot[q], 0, 1);
        }
    }
    for (int q = 0; q < 8; q++) {
        _mm512_storeu_pd(out + q * 16, z[q]);
        if (nv == 4) _mm512_storeu_pd(out + q * 16 + 8, w[q]);
        else _mm256_storeu_pd(out + q * 16 + 8, q & 1 ? _mm512_extractf64x4_pd(w[q >> 1], 1) : _mm512_castpd512_pd256(w[q >> 1]));
    }
}

BS_KT static void BS_K(bs_sums8p_avx512)(const uint32_t *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    if (nv == 3) BS_K(bs_sums8p)(tbl, N, r0, 3, out);
    else BS_K(bs_sums8p)(tbl, N, r0, 4, out);
}

BS_KT static void BS_K(bs_sums8_avx512)(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, int split, int near, double *out) {
#define BS_NEAR(NV, SPLIT) do { \
        if (near) BS_K(bs_sums8z)(tbl, N, r0, NV, SPLIT, 1, out); \
        else BS_K(bs_sums8z)(tbl, N, r0, NV, SPLIT, 0, out); \
    } while (0)
    switch (nv) {
    /* rows of one line (4 or 8 columns): prefetched into L1, up to BS_LINE_ROWS_MAX bytes of
     * table; past it bs_sums8 (bootstrap_simd.c measures both beside BS_LINE_ROWS_MAX) */
    case 1:
        if ((size_t)N * 32 <= BS_LINE_ROWS_MAX) BS_K(bs_sums8z)(tbl, N, r0, 1, 0, 1, out);
        else bs_sums8(tbl, N, r0, 1, out);
        break;
    case 2:
        if ((size_t)N * 64 <= BS_LINE_ROWS_MAX) BS_K(bs_sums8z)(tbl, N, r0, 2, 0, 1, out);
        else bs_sums8(tbl, N, r0, 2, out);
        break;
    case 3:
        if (split > 1) BS_NEAR(3, 2);
        else if (split) BS_NEAR(3, 1);
        else BS_NEAR(3, 0);
        break;
    default: BS_NEAR(4, 0); break;
    }
#undef BS_NEAR
}
