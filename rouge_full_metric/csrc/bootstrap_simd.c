/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own.
 *
 * The bootstrap's kernels in AVX2 / AVX-512 vectors (x86-64, GCC >= 9 or Clang), chosen at run
 * time; bootstrap.c keeps the scalar kernels for every other machine and compiler.  Each vector
 * lane does the scalar kernel's IEEE operations on the same operands in the same order (the
 * build disables contraction into fused multiply-adds), so every sum is bit-identical to the
 * scalar one and to bootstrap.py's; tests/test_bootstrap.py runs each level against Python.
 *
 * The draws: Perl's drand48 for 4 replicates per 256-bit vector (8 per 512-bit one in
 * bs_sums8z), the 48-bit LCG in 64-bit lanes, the index floor((x / 2^48) * N) taken as the scalar code takes it (x < 2^52 turns into
 * a double exactly through the exponent bits of 2^52).  The 32-bit truncation needs N < 2^31,
 * which bootstrap.c checks. */

/* drand48's state after the Perl's srand(r): (r << 16) + 0x330E in 48 bits.  Every kernel, these
 * and bootstrap.c's scalar ones (that file comes after this one), seeds replicate r so. */
static inline uint64_t perl_seed(Py_ssize_t r) { return (((uint64_t)r << 16) + 0x330E) & ((1ULL << 48) - 1); }

#if defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9))
#define BOOTSTRAP_SIMD 1
#include <immintrin.h>

typedef uint64_t bs_u64x4 __attribute__((vector_size(32)));
typedef double bs_f64x4 __attribute__((vector_size(32)));
typedef int32_t bs_i32x4 __attribute__((vector_size(16)));
typedef double bs_f64x8 __attribute__((vector_size(64)));

#define BS_A 0x5DEECE66DULL
#define BS_MASK ((1ULL << 48) - 1)
#define BS_TWO52 0x4330000000000000ULL   /* the bits of 2^52 */
#define BS_AVX2 __attribute__((target("avx2")))
#define BS_AVX512 __attribute__((target("avx2,avx512f,avx512vl")))
#define BS_AVX512F __attribute__((target("avx2,fma,avx512f,avx512vl")))   /* the packed kernel's decode */

/* 0: scalar kernels, 1: AVX2, 2: AVX-512 (F and VL: the same 256-bit code with 32 registers,
 * which the Perl-order sums' 24 accumulators fill; for rows of 12 or 16 columns those sums have
 * their own kernels, bs_sums8z and bs_sums8p; FMA, which every AVX-512 CPU has, for bs_sums8p) */
static int bs_supported = -1, bs_allowed = 2;

static int bs_level(void) {
    if (bs_supported < 0) {
        __builtin_cpu_init();
        bs_supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                       __builtin_cpu_supports("fma") ? 2
                       : __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return bs_allowed < bs_supported ? bs_allowed : bs_supported;
}

BS_AVX2 static inline void bs_seed4(bs_u64x4 *x, Py_ssize_t r) {
    for (int q = 0; q < 4; q++) (*x)[q] = perl_seed(r + q);
}

/* the next draw of 4 replicates: the row floor(((double)x * 2^-48) * N) of each */
BS_AVX2 static inline __attribute__((always_inline)) bs_i32x4 bs_draw4(bs_u64x4 *x, double size) {
    /* x * A mod 2^64 from three 32-bit multiplies, A = 5 * 2^32 + 0xDEECE66D; GCC would spell
     * x * A as a serial chain of ~20 shifts and adds on AVX2, and AVX-512's 64-bit multiply is
     * slow on Intel */
    const __m256i al = _mm256_set1_epi64x(0xDEECE66DLL);
    __m256i v = (__m256i)*x;
    __m256i lo = _mm256_mul_epu32(v, al);
    __m256i mid = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(v, 32), al),
                                   _mm256_add_epi64(_mm256_slli_epi64(v, 2), v));
    *x = ((bs_u64x4)_mm256_add_epi64(lo, _mm256_slli_epi64(mid, 32)) + 0xB) & BS_MASK;
    bs_f64x4 u = (bs_f64x4)(*x | BS_TWO52) - 0x1p52;
    return __builtin_convertvector((u * (1.0 / 281474976710656.0)) * size, bs_i32x4);
}

/* ---- count_sums with AVX2: 8 replicates' counts in one table, cnt[i * 8 + q] (bs_count8_own) */

/* Nonzero when one of the first `lanes` replicates' counts does not total N: a byte passed 255
 * and wrapped. */
static int bs_counts_wrapped(const uint8_t *cnt, Py_ssize_t N, Py_ssize_t lanes) {
    uint64_t total[8] = {0};
    for (Py_ssize_t i0 = 0; i0 < N; i0 += 256) {
        uint64_t even = 0, odd = 0;   /* four 16-bit fields each, at most 256 * 255 */
        for (Py_ssize_t i = i0; i < N && i < i0 + 256; i++) {
            uint64_t w;
            memcpy(&w, cnt + i * 8, 8);
            even += w & 0x00FF00FF00FF00FFULL;
            odd += (w >> 8) & 0x00FF00FF00FF00FFULL;
        }
        for (int q = 0; q < 4; q++) {
            total[2 * q] += (even >> (16 * q)) & 0xFFFF;
            total[2 * q + 1] += (odd >> (16 * q)) & 0xFFFF;
        }
    }
    for (Py_ssize_t q = 0; q < lanes && q < 8; q++)
        if (total[q] != (uint64_t)N) return 1;
    return 0;
}

/* out[k * 8 + q] = sum over rows i, in row order, of cnt[i * 8 + q] * tile[i * 6 + k]: the
 * scalar count_tile's multiplies and adds, 4 replicates a vector, the 12 accumulators in
 * registers (AVX2 has 16). */
BS_AVX2 static inline __attribute__((always_inline)) void bs_tile6(const uint8_t *cnt, const double *tile, Py_ssize_t N, double *out) {
    bs_f64x4 a[6][2];
    for (int k = 0; k < 6; k++) a[k][0] = a[k][1] = (bs_f64x4){0};
    for (Py_ssize_t i = 0; i < N; i++) {
        uint64_t w;
        memcpy(&w, cnt + i * 8, 8);
        bs_u64x4 b = (bs_u64x4){0} + w;
        /* the count bytes into doubles, exactly: small integers under the exponent of 2^52 */
        bs_f64x4 c0 = (bs_f64x4)(((b >> (bs_u64x4){0, 8, 16, 24}) & 0xFF) | BS_TWO52) - 0x1p52;
        bs_f64x4 c1 = (bs_f64x4)(((b >> (bs_u64x4){32, 40, 48, 56}) & 0xFF) | BS_TWO52) - 0x1p52;
        for (int k = 0; k < 6; k++) {
            double v = tile[i * 6 + k];
            a[k][0] += c0 * v;
            a[k][1] += c1 * v;
        }
    }
    for (int k = 0; k < 6; k++) memcpy(out + k * 8, a[k], 64);
}

BS_AVX2 static void bs_tile6_avx2(const uint8_t *cnt, const double *tile, Py_ssize_t N, double *out) {
    bs_tile6(cnt, tile, N, out);
}

/* ---- count_sums: each replicate's counts in a table of its own ----------------------------
 * Counting 8 replicates' draws straight into cnt[i * 8 + q] (8 N bytes: 800 KB at 100,000 rows,
 * in L2) made each byte increment miss L1, and a random byte increment in L2 cost ~4 cycles on
 * the Xeon measured (2 MB of L2), as much as the whole draw.  One replicate's N bytes (100 KB)
 * hit L1 about half the time: the counting took 0.8 against 1.3 us/pair at 100,000 rows x 1,000
 * replicates.  A single replicate's draws form one serial LCG chain, so its draws d, d + 8,
 * d + 16, ... become one of 8 lanes, the generator jumped 8 places a step; the counts do not
 * depend on the order of the draws.  AVX2 then interleaves the 8 tables into its cnt[i * 8 + q]
 * (bs_count8_own); AVX-512 reads them as they are (bs_tilez). */

/* 4 lanes' rows floor((x / 2^48) * N), and x advanced 8 places: x * mul + add mod 2^48, with mul
 * a general 48-bit number (three 32-bit multiplies) */
BS_AVX2 static inline __attribute__((always_inline)) bs_i32x4 bs_jump_draw4(bs_u64x4 *x, double size, __m256i ml, __m256i mh, bs_u64x4 add) {
    __m256i v = (__m256i)*x;
    bs_f64x4 u = (bs_f64x4)(*x | BS_TWO52) - 0x1p52;
    __m256i lo = _mm256_mul_epu32(v, ml);
    __m256i mid = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(v, 32), ml), _mm256_mul_epu32(v, mh));
    *x = ((bs_u64x4)_mm256_add_epi64(lo, _mm256_slli_epi64(mid, 32)) + add) & BS_MASK;
    return __builtin_convertvector((u * (1.0 / 281474976710656.0)) * size, bs_i32x4);
}

/* cnt[i] += how often replicate r's N draws hit row i.  A byte may wrap: the caller finds it in
 * the totals.  AVX2 code also where AVX-512 is there: built for AVX-512, GCC 12 made it 1.4
 * times slower. */
BS_AVX2 static void bs_count1(uint8_t *cnt, Py_ssize_t N, Py_ssize_t r) {
    const double size = (double)N;
    uint64_t mul = 1, add = 0, first[8], x = perl_seed(r);
    for (int s = 0; s < 8; s++) {   /* x_{d+8} = mul * x_d + add */
        mul = (mul * BS_A) & BS_MASK;
        add = (add * BS_A + 0xB) & BS_MASK;
    }
    for (int j = 0; j < 8; j++) first[j] = x = (x * BS_A + 0xB) & BS_MASK;   /* draws 1 .. 8 */
    const __m256i ml = _mm256_set1_epi64x((long long)(mul & 0xFFFFFFFFULL)), mh = _mm256_set1_epi64x((long long)(mul >> 32));
    const bs_u64x4 step = (bs_u64x4){0} + add;
    bs_u64x4 x0, x1;
    memcpy(&x0, first, 32);
    memcpy(&x1, first + 4, 32);
    Py_ssize_t steps = N / 8;
    for (Py_ssize_t m = 0; m < steps; m++) {
        bs_i32x4 a0 = bs_jump_draw4(&x0, size, ml, mh, step), a1 = bs_jump_draw4(&x1, size, ml, mh, step);
        uint32_t at[8];
        memcpy(at, &a0, 16);
        memcpy(at + 4, &a1, 16);
        /* One read-modify-write instruction a draw: from the plain cnt[...]++ GCC 12 made a
         * load, an add, a store and a spill of the new count (1.5 against 1.8 us/pair). */
        for (int q = 0; q < 8; q++) __asm__("addb $1, %0" : "+m"(cnt[at[q]]));
    }
    uint64_t rest[8];   /* the last N mod 8 draws: the lanes' x as they stand */
    memcpy(rest, &x0, 32);
    memcpy(rest + 4, &x1, 32);
    for (Py_ssize_t j = 0; j < N - steps * 8; j++) cnt[(Py_ssize_t)(((double)rest[j] * (1.0 / 281474976710656.0)) * size)]++;
}

/* AVX2's table: cnt[i * 8 + q] (rows up to N rounded up to 8) = the counts of replicate r0 + q
 * (0 for q >= lanes), counted in own + q * S (S >= N rounded up to 8) by bs_count1 and then
 * interleaved 8 rows at a time (an 8 x 8 byte transpose in SSE2 registers). */
BS_AVX2 static void bs_count8_own(uint8_t *cnt, uint8_t *own, Py_ssize_t S, Py_ssize_t N, Py_ssize_t r0, Py_ssize_t lanes) {
    memset(own, 0, (size_t)S * 8);
    for (Py_ssize_t q = 0; q < lanes && q < 8; q++) bs_count1(own + q * S, N, r0 + q);
    for (Py_ssize_t i = 0; i < N; i += 8) {
        __m128i r[8];
        for (int q = 0; q < 8; q++) r[q] = _mm_loadl_epi64((const __m128i *)(own + q * S + i));
        __m128i a = _mm_unpacklo_epi8(r[0], r[1]), b = _mm_unpacklo_epi8(r[2], r[3]);
        __m128i c = _mm_unpacklo_epi8(r[4], r[5]), d = _mm_unpacklo_epi8(r[6], r[7]);
        __m128i ab0 = _mm_unpacklo_epi16(a, b), ab1 = _mm_unpackhi_epi16(a, b);   /* rows 0-3, 4-7 of q 0-3 */
        __m128i cd0 = _mm_unpacklo_epi16(c, d), cd1 = _mm_unpackhi_epi16(c, d);   /* of q 4-7 */
        _mm_storeu_si128((__m128i *)(cnt + i * 8), _mm_unpacklo_epi32(ab0, cd0));
        _mm_storeu_si128((__m128i *)(cnt + i * 8 + 16), _mm_unpackhi_epi32(ab0, cd0));
        _mm_storeu_si128((__m128i *)(cnt + i * 8 + 32), _mm_unpacklo_epi32(ab1, cd1));
        _mm_storeu_si128((__m128i *)(cnt + i * 8 + 48), _mm_unpackhi_epi32(ab1, cd1));
    }
}

/* out[k * 8 + q] = sum over rows i < N, in row order, of c_q[i] * tile[i * W + k], where c_q
 * (replicate q's counts) is at cnt + q * S; tot[q] = the sum of c_q.  A lane per replicate, as
 * bs_tile6: the same multiplies and adds, bit for bit.  Every 8 rows one gather reads 8 counts of
 * each replicate and a shift takes each row's.  The rows from N up to a multiple of 8 must hold
 * counts 0 and values 0: adding 0 * 0 leaves a sum as it is (a sum starts at +0.0 and can never
 * become -0.0, the one value + 0.0 changes). */
BS_AVX512 static inline __attribute__((always_inline)) void bs_tilez(const uint8_t *cnt, Py_ssize_t S, const double *tile, Py_ssize_t N, int W, double *out, uint64_t *tot) {
    bs_f64x8 a[16];
    for (int k = 0; k < W; k++) a[k] = (bs_f64x8){0};
    __m512i total = _mm512_setzero_si512();
    const __m512i two52 = _mm512_set1_epi64((long long)BS_TWO52), byte = _mm512_set1_epi64(0xFF);
    const __m512d m52 = _mm512_set1_pd(0x1p52);
    const __m512i at = _mm512_set_epi64(7 * S, 6 * S, 5 * S, 4 * S, 3 * S, 2 * S, S, 0);
    for (Py_ssize_t i0 = 0; i0 < N; i0 += 8) {
        __m512i z = _mm512_i64gather_epi64(at, (const void *)(cnt + i0), 1);
        for (int j = 0; j < 8; j++) {
            __m512i c64 = _mm512_and_si512(_mm512_srli_epi64(z, 8 * j), byte);
            total = _mm512_add_epi64(total, c64);
            /* the counts into doubles, exactly, as bs_tile6 */
            bs_f64x8 c = (bs_f64x8)_mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(c64, two52)), m52);
            const double *row = tile + (i0 + j) * W;
            for (int k = 0; k < W; k++) a[k] += c * row[k];
        }
    }
    for (int k = 0; k < W; k++) memcpy(out + k * 8, &a[k], 64);
    _mm512_storeu_si512(tot, total);
}

/* W (4, 8, 12 or 16 columns) constant in each copy, so that the sums stay in registers */
BS_AVX512 static void bs_tilez_avx512(const uint8_t *cnt, Py_ssize_t S, const double *tile, Py_ssize_t N, int W, double *out, uint64_t *tot) {
    switch (W) {
    case 4: bs_tilez(cnt, S, tile, N, 4, out, tot); break;
    case 8: bs_tilez(cnt, S, tile, N, 8, out, tot); break;
    case 12: bs_tilez(cnt, S, tile, N, 12, out, tot); break;
    default: bs_tilez(cnt, S, tile, N, 16, out, tot); break;
    }
}

/* ---- replicate_sums: 8 replicates' draw-order sums over a table of nv 4-column groups ------
 * The rows are random and the table outgrows L2, so memory latency sets the pace: the rows of
 * the draws BS_AHEAD steps ahead (8 replicates a step) are prefetched, their indices kept in a
 * ring until their turn.  Each replicate still adds its own rows in draw order. */
#define BS_AHEAD 8   /* a power of two */

BS_AVX2 static inline __attribute__((always_inline)) void bs_sums8(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    const double size = (double)N;
    const Py_ssize_t stride = 4 * nv;
    bs_u64x4 x0, x1;
    bs_seed4(&x0, r0);
    bs_seed4(&x1, r0 + 4);
    bs_f64x4 a[8][4];
    for (int q = 0; q < 8; q++)
        for (int j = 0; j < 4; j++) a[q][j] = (bs_f64x4){0};
    uint32_t ring[BS_AHEAD][8];
#define BS_PRODUCE(d) do { \
        bs_i32x4 a0_ = bs_draw4(&x0, size), a1_ = bs_draw4(&x1, size); \
        uint32_t *slot_ = ring[(d) & (BS_AHEAD - 1)]; \
        memcpy(slot_, &a0_, 16); \
        memcpy(slot_ + 4, &a1_, 16); \
        for (int q = 0; q < 8; q++) { \
            const char *p_ = (const char *)(tbl + (size_t)slot_[q] * stride); \
            __builtin_prefetch(p_); \
            if (nv > 2) __builtin_prefetch(p_ + 8 * stride - 1);   /* the row's second line */ \
        } \
    } while (0)
#define BS_CONSUME(d) do { \
        const uint32_t *slot_ = ring[(d) & (BS_AHEAD - 1)]; \
        for (int q = 0; q < 8; q++) { \
            const bs_f64x4 *row_ = (const bs_f64x4 *)(tbl + (size_t)slot_[q] * stride); \
            for (int j = 0; j < nv; j++) a[q][j] += row_[j]; \
        } \
    } while (0)
    Py_ssize_t d = 0;
    for (; d < N && d < BS_AHEAD; d++) BS_PRODUCE(d);
    for (; d < N; d++) {
        BS_CONSUME(d - BS_AHEAD);
        BS_PRODUCE(d);
    }
    for (Py_ssize_t e = d < BS_AHEAD ? 0 : d - BS_AHEAD; e < N; e++) BS_CONSUME(e);
#undef BS_PRODUCE
#undef BS_CONSUME
    for (int q = 0; q < 8; q++)
        for (int j = 0; j < nv; j++) memcpy(out + (q * 4 + j) * 4, &a[q][j], 32);
}

/* bs_draw4 for the 8 replicates of one 512-bit vector, lane for lane */
BS_AVX512 static inline __attribute__((always_inline)) __m256i bs_draw8z(__m512i *x, __m512d size) {
    const __m512i al = _mm512_set1_epi64(0xDEECE66DLL);
    __m512i lo = _mm512_mul_epu32(*x, al);
    __m512i mid = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(*x, 32), al),
                                   _mm512_add_epi64(_mm512_slli_epi64(*x, 2), *x));
    *x = _mm512_and_si512(_mm512_add_epi64(_mm512_add_epi64(lo, _mm512_slli_epi64(mid, 32)), _mm512_set1_epi64(0xB)),
                          _mm512_set1_epi64(BS_MASK));
    __m512d u = _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(*x, _mm512_set1_epi64(BS_TWO52))), _mm512_set1_pd(0x1p52));
    return _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_mul_pd(u, _mm512_set1_pd(1.0 / 281474976710656.0)), size));
}

/* The AVX-512 form of bs_sums8 for rows of 12 or 16 columns (nv 3, 4; narrower rows keep
 * bs_sums8, measured as fast or faster there): the same sums, bit for bit, in fewer instructions
 * a draw, which matters because the prefetched loads overlap with them (at 100,000 x 12 a draw
 * costs about what its arithmetic alone costs plus half again).  The 8 replicates' generators
 * share one 512-bit vector (bs_draw4's operations, lane for lane); the ring holds each draw's
 * byte offset, computed in the vector, so that a load or a prefetch is one instruction on its
 * address; 16 columns add as two 512-bit vectors.  Unless the table is small (near: at most
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
#define BS_SPLIT_MAX ((size_t)4 << 20)
#define BS_NEAR_MAX ((size_t)1 << 20)
#define BS_PF4_MIN ((size_t)2 << 20)

BS_AVX512 static inline __attribute__((always_inline)) void bs_sums8z(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, int split, int near, double *out) {
    const __m512d size = _mm512_set1_pd((double)N);
    const char *base = (const char *)tbl, *base4 = (const char *)(tbl + 8 * N);
    /* a draw's offset: of its row, or (split) of its row in the 4-column table, the 8-column
     * table's being twice it */
    const size_t row = split ? 32 : (size_t)32 * (size_t)nv;
    uint64_t seed[8];
    for (int q = 0; q < 8; q++) seed[q] = perl_seed(r0 + q);
    __m512i x = _mm512_loadu_si512(seed);
    /* the accumulators: nv 4, two vectors of 8 columns a replicate; 3, three of 4; split, one
     * of 8 and one of 4 */
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
                } else {
                    for (int j = 0; j < 3; j++) y[q][j] += ((const bs_f64x4 *)(base + slot[q]))[j];
                }
            }
        }
        if (d < N) {
            __m256i at = bs_draw8z(&x, size);
            uint64_t *slot = ring[d & (BS_AHEAD - 1)];
            _mm512_store_si512(slot, _mm512_mul_epu32(_mm512_cvtepu32_epi64(at), _mm512_set1_epi64((long long)row)));
            for (int q = 0; q < 8; q++) {
                if (split) {
                    BS_PREFETCH_FAR(base + 2 * slot[q]);
                    if (split > 1) __builtin_prefetch(base4 + slot[q], 0, 3);
                } else {
                    BS_PREFETCH_FAR(base + slot[q]);
                    BS_PREFETCH_FAR(base + slot[q] + row - 1);   /* the row's second line */
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
        } else {
            memcpy(out + q * 16, y[q], 96);
        }
    }
}

/* ---- replicate_sums on the Perl's 5-decimal values: rows of 32-bit integers ---------------
 * Flavor rouge155's values are the Perl's 5-decimal numbers, each the double nearest k / 10^5
 * for an integer k.  Stored as k (bs_pack5), a row of up to 16 columns is one 64-byte line where
 * 12 or 16 doubles take two, and a table of 100,000 rows 6.4 MB instead of 9.6 or 12.8.  Each
 * draw turns its row back into the very same doubles (bs_unpack5: q = k * 1e-5, then q's error
 * corrected by two fused multiply-adds; exact for every k up to 2,000,000, and bs_pack5 checks
 * each value: a column block with any other value keeps the doubles' kernels) and adds them as
 * bs_sums8z adds its rows, so every sum is the same bit for bit.  The unpacking costs more than
 * the second line saves while the doubles' table is in L2 or close to it, hence only from
 * BS_PACK_MIN bytes of doubles' table: on the Xeon measured (2 MB of L2), time with doubles /
 * packed at 12 columns 0.86 at 40,000 rows, 1.08 at 45,000, 1.17 at 65,000, 1.3 at 100,000, 1.6
 * at 300,000; at 16 columns 0.94 at 30,000, 1.05 at 40,000, 1.14 at 50,000. */
#define BS_PACK_MIN ((size_t)9 << 19)   /* 4.5 MB: 49,152 rows of 12 columns, 36,864 of 16 */
/* tests lower bs_pack_min and read bs_packed, the column blocks packed so far (_bootstrap_hooks) */
static Py_ssize_t bs_pack_min = (Py_ssize_t)BS_PACK_MIN, bs_packed = 0;

/* tbl[i * 16 + c] = the k of v[i * K + k0 + c] for c < kw, 0 for kw <= c < 16.  Returns 0 (tbl
 * partly written) at the first value that is not the double nearest k / 10^5 for some k with
 * 0 <= k <= 2,000,000 (-0.0, NaN and every unrounded value among them). */
BS_AVX512F static int bs_pack5(const double *v, Py_ssize_t N, Py_ssize_t K, Py_ssize_t k0, Py_ssize_t kw, uint32_t *tbl) {
    for (Py_ssize_t i = 0; i < N; i++)
        for (Py_ssize_t c = 0; c < 16; c++) {
            uint32_t k = 0;
            if (c < kw) {
                double x = v[i * K + k0 + c];
                if (!(x >= 0.0 && x <= 20.0)) return 0;
                k = (uint32_t)(x * 1e5 + 0.5);
                double q = (double)k * 1e-5, y = __builtin_fma(__builtin_fma(-q, 1e5, (double)k), 1e-5, q);
                if (memcmp(&x, &y, 8) != 0) return 0;
            }
            tbl[i * 16 + c] = k;
        }
    return 1;
}

/* bs_pack5's k back into its double, 8 at a time: the scalar check's operations */
BS_AVX512F static inline __attribute__((always_inline)) __m512d bs_unpack5(__m256i k) {
    __m512d c = _mm512_cvtepu32_pd(k), q = _mm512_mul_pd(c, _mm512_set1_pd(1e-5));
    return _mm512_fmadd_pd(_mm512_fnmadd_pd(q, _mm512_set1_pd(1e5), c), _mm512_set1_pd(1e-5), q);
}

/* bs_sums8z over bs_pack5's table, nv 3 (12 columns: a vector of 8 sums a replicate, and the
 * 4-column tails of two replicates' rows unpacked together into one vector: 100,000 x 12 took
 * 2.77 against 3.09 us/pair with a 4-lane unpacking each) or 4 (16: two of 8).  The table is past
 * L2 here: prefetches to L2, as bs_sums8z's far ones (without them 1.3 times the time; 16 draws
 * ahead instead of 8 did not help). */
BS_AVX512F static inline __attribute__((always_inline)) void bs_sums8p(const uint32_t *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    const __m512d size = _mm512_set1_pd((double)N);
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
                z[q] = _mm512_add_pd(z[q], bs_unpack5(_mm256_load_si256((const __m256i *)row)));
                if (nv == 4) w[q] = _mm512_add_pd(w[q], bs_unpack5(_mm256_load_si256((const __m256i *)(row + 32))));
            }
            if (nv == 3)   /* the 4-column tails of two replicates' rows in one vector */
                for (int q = 0; q < 8; q += 2) {
                    __m256i t = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_load_si128((const __m128i *)(base + slot[q] + 32))),
                                                        _mm_load_si128((const __m128i *)(base + slot[q + 1] + 32)), 1);
                    w[q >> 1] = _mm512_add_pd(w[q >> 1], bs_unpack5(t));
                }
        }
        if (d < N) {
            __m256i at = bs_draw8z(&x, size);
            uint64_t *slot = ring[d & (BS_AHEAD - 1)];
            _mm512_store_si512(slot, _mm512_slli_epi64(_mm512_cvtepu32_epi64(at), 6));   /* 64-byte rows */
            for (int q = 0; q < 8; q++) __builtin_prefetch(base + slot[q], 0, 1);
        }
    }
    for (int q = 0; q < 8; q++) {
        _mm512_storeu_pd(out + q * 16, z[q]);
        if (nv == 4) _mm512_storeu_pd(out + q * 16 + 8, w[q]);
        else _mm256_storeu_pd(out + q * 16 + 8, q & 1 ? _mm512_extractf64x4_pd(w[q >> 1], 1) : _mm512_castpd512_pd256(w[q >> 1]));
    }
}

BS_AVX512F static void bs_sums8p_avx512(const uint32_t *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    if (nv == 3) bs_sums8p(tbl, N, r0, 3, out);
    else bs_sums8p(tbl, N, r0, 4, out);
}

/* nv, split and near constants in each copy, so that the accumulators stay in registers */
BS_AVX2 static void bs_sums8_avx2(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    switch (nv) {
    case 1: bs_sums8(tbl, N, r0, 1, out); break;
    case 2: bs_sums8(tbl, N, r0, 2, out); break;
    case 3: bs_sums8(tbl, N, r0, 3, out); break;
    default: bs_sums8(tbl, N, r0, 4, out); break;
    }
}
BS_AVX512 static void bs_sums8_avx512(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, int split, int near, double *out) {
#define BS_NEAR(NV, SPLIT) do { \
        if (near) bs_sums8z(tbl, N, r0, NV, SPLIT, 1, out); \
        else bs_sums8z(tbl, N, r0, NV, SPLIT, 0, out); \
    } while (0)
    switch (nv) {
    case 1: bs_sums8(tbl, N, r0, 1, out); break;   /* rows of one line: bs_sums8 is as fast or faster */
    case 2: bs_sums8(tbl, N, r0, 2, out); break;
    case 3:
        if (split > 1) BS_NEAR(3, 2);
        else if (split) BS_NEAR(3, 1);
        else BS_NEAR(3, 0);
        break;
    default: BS_NEAR(4, 0); break;
    }
#undef BS_NEAR
}

/* replicate_sums with the vector kernels (level 1 or 2): out (R, K) for replicates first ..
 * first + R - 1, zeroed by the caller;
 * between blocks of replicates the signal handlers run (nogil_signals: *ts is the caller's saved
 * thread state).  Returns 0, ERR_NOMEM, or ERR_PY when a handler raised (its exception set). */
static int bs_replicate_sums(const double *v, Py_ssize_t N, Py_ssize_t K, double *o, Py_ssize_t R, Py_ssize_t first,
                             int level, PyThreadState **ts, int64_t *last) {
    Py_ssize_t nv_max = (K < 16 ? K + 3 : 16) / 4;
    void *raw;
    size_t mapped;
    /* rows of 4 * nv doubles, zero past K (added, never read back), from a cache-line boundary
     * (a row of 4 or 8 columns is one line, not two every other time); from 4 MB on huge pages,
     * so that random rows need a TLB entry per 2 MB (200,000 rows x 12 columns: 0.6-0.75 of the
     * time with 4 KB pages, whose TLB misses the prefetches cannot hide) */
    double *tbl = (double *)huge_alloc((size_t)N * (size_t)nv_max * 32, 2 * HUGE_PAGE, &raw, &mapped);
    if (!tbl) return ERR_NOMEM;
    for (Py_ssize_t k0 = 0; k0 < K; k0 += 16) {
        Py_ssize_t kw = K - k0 < 16 ? K - k0 : 16;
        int nv = (int)((kw + 3) / 4);
        int split = 0;   /* bs_sums8z's: 0, or 1 + whether to prefetch the 4-column table */
        if (level >= 2 && nv == 3 && (size_t)N * 32 <= BS_SPLIT_MAX) split = 1 + ((size_t)N * 32 > BS_PF4_MIN);
        int near = (size_t)N * (size_t)nv * 32 <= BS_NEAR_MAX;
        /* 5-decimal values in a table past BS_PACK_MIN bytes: bs_sums8p (tbl has room: nv_max >= 3) */
        int packed = level >= 2 && nv >= 3 && (size_t)N * (size_t)nv * 32 >= (size_t)bs_pack_min &&
                     bs_pack5(v, N, K, k0, kw, (uint32_t *)tbl);
        __atomic_add_fetch(&bs_packed, packed, __ATOMIC_RELAXED);   /* a test counter; threads may race */
        if (!packed && split)   /* 8 columns at tbl, the other 4 (zero past kw) at tbl + 8 N */
            for (Py_ssize_t i = 0; i < N; i++)
                for (Py_ssize_t c = 0; c < 12; c++)
                    (c < 8 ? tbl + i * 8 + c : tbl + 8 * N + i * 4 + c - 8)[0] = c < kw ? v[i * K + k0 + c] : 0.0;
        else if (!packed)
            for (Py_ssize_t i = 0; i < N; i++)
                for (Py_ssize_t c = 0; c < 4 * nv; c++) tbl[i * 4 * nv + c] = c < kw ? v[i * K + k0 + c] : 0.0;
        for (Py_ssize_t r0 = 0; r0 < R; r0 += 8) {
            if (nogil_signals(ts, last)) { huge_free(raw, mapped); return ERR_PY; }
            double acc[8 * 16];
            if (packed) bs_sums8p_avx512((const uint32_t *)tbl, N, first + r0, nv, acc);
            else if (level >= 2) bs_sums8_avx512(tbl, N, first + r0, nv, split, near, acc);
            else bs_sums8_avx2(tbl, N, first + r0, nv, acc);
            for (Py_ssize_t q = 0; q < 8 && r0 + q < R; q++)
                for (Py_ssize_t c = 0; c < kw; c++) o[(r0 + q) * K + k0 + c] = acc[q * 16 + c];
        }
    }
    huge_free(raw, mapped);
    return 0;
}

#undef BS_AVX2
#undef BS_AVX512
#undef BS_AVX512F
#endif
