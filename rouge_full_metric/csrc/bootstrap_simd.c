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
 * bs_sums8z), the 48-bit LCG in 64-bit lanes, the index floor((x / 2^48) * N) the very double
 * the scalar code takes (x < 2^52 turns into a double exactly through the exponent bits of 2^52;
 * bs_jump_draw4 says why one multiply by N / 2^48 rounds as the scalar code's two do).  The
 * 32-bit truncation needs N < 2^31, which bootstrap.c checks. */

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
#define BS_AVX2F __attribute__((target("avx2,fma")))
#define BS_AVX512 __attribute__((target("avx2,fma,avx512f,avx512vl,avx512dq")))
#define BS_AVX512I __attribute__((target("avx2,fma,avx512f,avx512vl,avx512dq,avx512ifma")))

/* 0: scalar kernels, 1: AVX2 with FMA (bs_sums4p's unpacking; the AVX2 CPUs we know of have it), 2:
 * AVX-512 (F and VL: the same 256-bit code with 32 registers, which the Perl-order sums' 24
 * accumulators fill; for rows of 12 or 16 columns those sums have
 * their own kernels, bootstrap_avx512.h's, whose draws take DQ's 64-bit multiply and conversion,
 * and FMA: every CPU with AVX-512 VL has both), 3: AVX-512 with IFMA (Ice Lake, Zen 4 and
 * later), whose 52-bit multiply-add takes the draws' multiply in one uop */
static int bs_supported = -1, bs_allowed = 3;

static int bs_level(void) {
    if (bs_supported < 0) {
        __builtin_cpu_init();
        int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                     __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma");
        bs_supported = avx512 && __builtin_cpu_supports("avx512ifma") ? 3
                       : avx512 ? 2
                       : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
    }
    return bs_allowed < bs_supported ? bs_allowed : bs_supported;
}

/* 4 replicates' generators, each holding the state of its next draw: drand48's after the Perl's
 * srand(r + q), stepped once (bs_draw4 reads a state before it steps it) */
BS_AVX2 static inline void bs_seed4(bs_u64x4 *x, Py_ssize_t r) {
    for (int q = 0; q < 4; q++) (*x)[q] = (perl_seed(r + q) * BS_A + 0xB) & BS_MASK;
}

/* 4 lanes' rows floor((x / 2^48) * N), and x advanced: x * mul + add mod 2^48, with mul a
 * general 48-bit number (three 32-bit multiplies; GCC would spell x * mul as a serial chain of
 * shifts and adds on AVX2, and AVX-512's 64-bit multiply is slow on Intel).  scale is N / 2^48
 * (exact: N times a power of two), and x * scale rounds the same real number x N / 2^48 that
 * (x / 2^48) * N rounds in its second multiply, the first being exact: the same double, in one
 * multiply instead of two (0.95 times the counting's time). */
BS_AVX2 static inline __attribute__((always_inline)) bs_i32x4 bs_jump_draw4(bs_u64x4 *x, double scale, __m256i ml, __m256i mh, bs_u64x4 add) {
    __m256i v = (__m256i)*x;
    bs_f64x4 u = (bs_f64x4)(*x | BS_TWO52) - 0x1p52;
    __m256i lo = _mm256_mul_epu32(v, ml);
    __m256i mid = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(v, 32), ml), _mm256_mul_epu32(v, mh));
    *x = ((bs_u64x4)_mm256_add_epi64(lo, _mm256_slli_epi64(mid, 32)) + add) & BS_MASK;
    return __builtin_convertvector(u * scale, bs_i32x4);
}

/* the next draw of 4 replicates (bs_seed4's states): x advanced one place.  The row comes from
 * the state before the step, so the step and the row's arithmetic run side by side; from the
 * state after it, in two multiplies (and x * A's high half as a shift and an add), the draws
 * took 1.05-1.2 times as long (the Perl-order sums, AVX2, 4 to 16 columns, 1,000 to 100,000
 * rows). */
BS_AVX2 static inline __attribute__((always_inline)) bs_i32x4 bs_draw4(bs_u64x4 *x, double scale) {
    return bs_jump_draw4(x, scale, _mm256_set1_epi64x((long long)(BS_A & 0xFFFFFFFFULL)), _mm256_set1_epi64x((long long)(BS_A >> 32)),
                         (bs_u64x4){0} + 0xB);
}

/* ---- count_sums: each replicate's counts in a table of its own ----------------------------
 * Counting 8 replicates' draws straight into cnt[i * 8 + q] (8 N bytes: 800 KB at 100,000 rows,
 * in L2) made each byte increment miss L1, and a random byte increment in L2 cost ~4 cycles on
 * the Xeon measured (2 MB of L2), as much as the whole draw.  One replicate's N bytes (100 KB)
 * hit L1 about half the time: the counting took 0.8 against 1.3 us/pair at 100,000 rows x 1,000
 * replicates.  A single replicate's draws form one serial LCG chain, so its draws d, d + 8,
 * d + 16, ... become one of 8 lanes, the generator jumped 8 places a step; the counts do not
 * depend on the order of the draws.  The multiply-adds read the 8 tables as they are (bs_tilec,
 * bs_tilez). */

/* cnt[i] += how often replicate r's N draws hit row i.  A byte may wrap: the caller finds it in
 * the totals.  AVX2 code also where AVX-512 is there: built for AVX-512, GCC 12 made it 1.4
 * times slower. */
BS_AVX2 static void bs_count1(uint8_t *cnt, Py_ssize_t N, Py_ssize_t r) {
    const double size = (double)N, scale = size * (1.0 / 281474976710656.0);
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
        bs_i32x4 a0 = bs_jump_draw4(&x0, scale, ml, mh, step), a1 = bs_jump_draw4(&x1, scale, ml, mh, step);
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

/* Nonzero when one of the first `lanes` replicates' counts (replicate q's N bytes at cnt + q * S)
 * does not total N: a byte passed 255 and wrapped. */
BS_AVX2 static int bs_own_wrapped(const uint8_t *cnt, Py_ssize_t S, Py_ssize_t N, Py_ssize_t lanes) {
    for (Py_ssize_t q = 0; q < lanes; q++) {
        const uint8_t *c = cnt + q * S;
        __m256i sum = _mm256_setzero_si256();   /* four 64-bit sums of byte groups (psadbw) */
        Py_ssize_t i = 0;
        for (; i + 32 <= N; i += 32)
            sum = _mm256_add_epi64(sum, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(c + i)), _mm256_setzero_si256()));
        uint64_t part[4], total = 0;
        memcpy(part, &sum, 32);
        for (int j = 0; j < 4; j++) total += part[j];
        for (; i < N; i++) total += c[i];
        if (total != (uint64_t)N) return 1;
    }
    return 0;
}

/* (double)c for every count byte c: a replicate's count becomes a vector of 4 lanes in one
 * broadcast load */
#define BS_C4(n) (n), (n) + 1, (n) + 2, (n) + 3
#define BS_C16(n) BS_C4(n), BS_C4((n) + 4), BS_C4((n) + 8), BS_C4((n) + 12)
#define BS_C64(n) BS_C16(n), BS_C16((n) + 16), BS_C16((n) + 32), BS_C16((n) + 48)
static const double bs_count_double[256] = {BS_C64(0), BS_C64(64), BS_C64(128), BS_C64(192)};

/* out[k * BS_TILEC_REPS + q] = sum over rows i < N, in row order, of c_q[i] * tile[i * 4 NV + k],
 * where c_q (replicate q's counts, q < lanes) is at cnt + q * S: the scalar count_tile's
 * multiplies and adds, bit for bit, with a lane per column where bs_tilez has a lane per
 * replicate.  A row's 4 NV values stay in registers while G replicates (G NV accumulators, 8 or
 * 12 of AVX2's 16 registers) add their multiples of them; the replicates take turns over
 * each block of BS_TILEC_ROWS rows, which L2 keeps meanwhile, their sums kept in `keep`
 * between blocks.  So the values are read from memory once per BS_TILEC_REPS replicates: at
 * 100,000 rows of 12 columns (9.6 MB) the table read once per 8 replicates cost more than the
 * multiply-adds.  Against the kernel before it (a lane per replicate, 6 columns a pass, the 8
 * tables first interleaved into rows of 8 bytes), no count is converted in a vector (a table
 * lookup instead) and no table is interleaved. */
#define BS_TILEC_ROWS 1024   /* 1,024 rows of 12 columns: 96 KB */
#define BS_TILEC_REPS 32
BS_AVX2 static inline __attribute__((always_inline)) void bs_tilec(const uint8_t *cnt, Py_ssize_t S, const double *tile, Py_ssize_t N,
                                                                     int NV, int G, Py_ssize_t lanes, double *out) {
    bs_f64x4 keep[BS_TILEC_REPS][4];
    for (int q = 0; q < BS_TILEC_REPS; q++)
        for (int j = 0; j < NV; j++) keep[q][j] = (bs_f64x4){0};
    for (Py_ssize_t i0 = 0; i0 < N; i0 += BS_TILEC_ROWS) {
        Py_ssize_t i1 = N - i0 < BS_TILEC_ROWS ? N : i0 + BS_TILEC_ROWS;
        /* the groups past lanes would add counts 0: skipped, their sums stay 0 */
        for (int g = 0; g < lanes; g += G) {
            bs_f64x4 a[8][4];
            const uint8_t *c[8];
            for (int q = 0; q < G; q++) {
                c[q] = cnt + (g + q) * S;
                for (int j = 0; j < NV; j++) a[q][j] = keep[g + q][j];
            }
            for (Py_ssize_t i = i0; i < i1; i++) {
                bs_f64x4 r[4];
                for (int j = 0; j < NV; j++) r[j] = (bs_f64x4)_mm256_loadu_pd(tile + (i * NV + j) * 4);
                for (int q = 0; q < G; q++) {
                    bs_f64x4 v = (bs_f64x4)_mm256_broadcast_sd(bs_count_double + c[q][i]);
                    for (int j = 0; j < NV; j++) a[q][j] += v * r[j];
                }
            }
            for (int q = 0; q < G; q++)
                for (int j = 0; j < NV; j++) keep[g + q][j] = a[q][j];
        }
    }
    for (int q = 0; q < BS_TILEC_REPS; q++)
        for (int j = 0; j < NV; j++)
            for (int l = 0; l < 4; l++) out[(j * 4 + l) * BS_TILEC_REPS + q] = keep[q][j][l];
}

/* NV (1 to 3: rows of W = 4, 8 or 12 columns) constant in each copy, so that the sums stay in
 * registers.  cnt holds BS_TILEC_REPS tables (those past lanes zero): G divides it. */
BS_AVX2 static void bs_tilec_avx2(const uint8_t *cnt, Py_ssize_t S, const double *tile, Py_ssize_t N, int W, Py_ssize_t lanes,
                                  double *out) {
    switch (W) {
    case 4: bs_tilec(cnt, S, tile, N, 1, 8, lanes, out); break;
    case 8: bs_tilec(cnt, S, tile, N, 2, 4, lanes, out); break;
    default: bs_tilec(cnt, S, tile, N, 3, 4, lanes, out); break;
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

/* ---- replicate_sums: Q replicates' draw-order sums over a table of nv 4-column groups ------
 * The rows are random and the table outgrows L2, so memory latency sets the pace: the rows of
 * the draws BS_AHEAD steps ahead (Q replicates a step, 4 or 8) are prefetched, their indices
 * kept in a ring until their turn.  Each replicate still adds its own rows in draw order.  With
 * AVX2's 16 registers, 8 replicates' sums of 12 or 16 columns (24 or 32 accumulators) spilled to
 * the stack, each addition a store and a load; 4 a pass keep them in registers (EPYC, 12
 * columns, ns a draw, 8 / 4: 1,000 rows 3.30 / 2.62, 20,000 2.68 / 2.01, 100,000 3.71 / 3.22). */
#define BS_AHEAD 8   /* a power of two */

BS_AVX2 static inline __attribute__((always_inline)) void bs_sumsq(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv,
                                                                     int Q, double *out) {
    const double scale = (double)N * (1.0 / 281474976710656.0);
    const Py_ssize_t stride = 4 * nv;
    bs_u64x4 x0, x1 = {0};
    bs_seed4(&x0, r0);
    if (Q == 8) bs_seed4(&x1, r0 + 4);
    bs_f64x4 a[8][4];
    for (int q = 0; q < Q; q++)
        for (int j = 0; j < 4; j++) a[q][j] = (bs_f64x4){0};
    uint32_t ring[BS_AHEAD][8];
#define BS_PRODUCE(d) do { \
        uint32_t *slot_ = ring[(d) & (BS_AHEAD - 1)]; \
        bs_i32x4 a0_ = bs_draw4(&x0, scale); \
        memcpy(slot_, &a0_, 16); \
        if (Q == 8) { \
            bs_i32x4 a1_ = bs_draw4(&x1, scale); \
            memcpy(slot_ + 4, &a1_, 16); \
        } \
        for (int q = 0; q < Q; q++) { \
            const char *p_ = (const char *)(tbl + (size_t)slot_[q] * stride); \
            __builtin_prefetch(p_); \
            if (nv > 2) __builtin_prefetch(p_ + 8 * stride - 1);   /* the row's second line */ \
        } \
    } while (0)
#define BS_CONSUME(d) do { \
        const uint32_t *slot_ = ring[(d) & (BS_AHEAD - 1)]; \
        for (int q = 0; q < Q; q++) { \
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
    for (int q = 0; q < Q; q++)
        for (int j = 0; j < nv; j++) memcpy(out + (q * 4 + j) * 4, &a[q][j], 32);
}

BS_AVX2 static inline __attribute__((always_inline)) void bs_sums8(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    bs_sumsq(tbl, N, r0, nv, 8, out);
}

/* bs_sums8z's tables (bootstrap_avx512.h explains them): 12 columns split into an 8- and a
 * 4-column table while the latter is at most BS_SPLIT_MAX bytes, its rows prefetched past
 * BS_PF4_MIN; prefetches to L1 while the table is at most BS_NEAR_MAX bytes.  Rows of 4 or 8
 * columns (one line) up to BS_LINE_ROWS_MAX bytes, prefetched into L1; bs_sums8 beyond.  ns a
 * draw, IFMA draws, bs_sums8 / bs_sums8z: 3 columns, 1,000 rows 1.04 / 0.69, 50,000 1.07 /
 * 0.76, 100,000 1.22 / 1.11, 300,000 1.89 / 1.87; 6 columns, 1,000 1.12 / 0.73, 50,000 1.39 /
 * 1.11, 100,000 1.67 / 1.55, 150,000 1.97 / 1.92, 300,000 3.16 / 3.89 (bs_sums8z prefetching
 * into L2 instead: 100,000 rows 1.24 and 1.72-1.79). */
#define BS_LINE_ROWS_MAX ((size_t)8 << 20)
#define BS_SPLIT_MAX ((size_t)4 << 20)
#define BS_NEAR_MAX ((size_t)1 << 20)
#define BS_PF4_MIN ((size_t)2 << 20)

/* ---- replicate_sums on the Perl's 5-decimal values: rows of 32-bit integers ---------------
 * Flavor rouge155's values are the Perl's 5-decimal numbers, each the double nearest k / 10^5
 * for an integer k.  Stored as k (bs_pack5), a row of 16 columns is one 64-byte line where 16
 * doubles take two; a row of 12 keeps its last 4 columns as doubles beside the first 8 as k
 * (half a line each): one line where 12 doubles take 1.5, and a table of 100,000 rows 6.4 MB
 * instead of 9.6.  Each draw turns the k back into the very same doubles (bs_unpack5: exact for
 * every k up to 2,000,000, and bs_pack5 checks each value: a column block with any other value
 * keeps the doubles' kernels) and adds them as bs_sums8z adds its rows, so every sum is the same
 * bit for bit.  The unpacking is the kernel's work, bound by the two vector ports: with all 12
 * columns as k a table that L1 holds took 2.4 ns a draw, the doubles' kernel 1.3; with 8 as k,
 * bs_unpack5's two operations for three and bs_draw8z's DQ draws 1.55, its IFMA draws 1.48.
 * Packed from BS_PACK_MIN bytes of doubles' table, near where it outgrows L2 (this Xeon's 2 MB;
 * ns a draw, IFMA draws, packed / doubles: 12 columns, 10,000 rows 1.49 / 1.31, 15,000 1.49 /
 * 1.51, 20,000 1.49 / 1.65, 25,000 1.57 / 1.88, 100,000 1.97 / 3.63; 16 columns, 15,000 2.09 /
 * 2.10, 20,000 2.07 / 2.40, 100,000 2.45 / 3.94). */
#define BS_PACK_MIN ((size_t)3 << 19)   /* 1.5 MB: 16,384 rows of 12 columns, 12,288 of 16 */
/* tests lower bs_pack_min and read bs_packed, the column blocks packed so far (_bootstrap_hooks) */
static Py_ssize_t bs_pack_min = (Py_ssize_t)BS_PACK_MIN, bs_packed = 0;

/* 10^-5 - c_hi, c_hi being the double nearest 10^-5 (1e-5), to double precision (bs_unpack5) */
#define BS_C_LO (-8.1808162581494437e-22)

/* Row i of the table at tbl (64 bytes a row): the k of v[i * K + k0 + c] for c < 16 (kw > 12)
 * or c < 8 (kw <= 12: then the columns 8..11 follow as doubles, from byte 32), 0 past kw.
 * Returns 0 (tbl partly written) at the first k column's value that is not the double nearest
 * k / 10^5 for some k with 0 <= k <= 2,000,000 (-0.0, NaN and every unrounded value among them). */
BS_AVX2F static int bs_pack5(const double *v, Py_ssize_t N, Py_ssize_t K, Py_ssize_t k0, Py_ssize_t kw, uint32_t *tbl) {
    int ks = kw > 12 ? 16 : 8;
    for (Py_ssize_t i = 0; i < N; i++) {
        for (Py_ssize_t c = 0; c < ks; c++) {
            uint32_t k = 0;
            if (c < kw) {
                double x = v[i * K + k0 + c];
                if (!(x >= 0.0 && x <= 20.0)) return 0;
                k = (uint32_t)(x * 1e5 + 0.5);
                double c5 = (double)k, y = __builtin_fma(c5, 1e-5, c5 * BS_C_LO);   /* bs_unpack5's */
                if (memcmp(&x, &y, 8) != 0) return 0;
            }
            tbl[i * 16 + c] = k;
        }
        if (ks == 8)
            for (Py_ssize_t c = 8; c < 12; c++) {
                double x = c < kw ? v[i * K + k0 + c] : 0.0;
                memcpy(tbl + i * 16 + 8 + (c - 8) * 2, &x, 8);
            }
    }
    return 1;
}

/* bs_unpack5 (bootstrap_avx512.h) for 4 k: the same two operations, so the same doubles */
BS_AVX2F static inline __attribute__((always_inline)) __m256d bs_unpack5x4(const void *k) {
    __m256d c = _mm256_cvtepi32_pd(_mm_load_si128((const __m128i *)k));
    return _mm256_fmadd_pd(c, _mm256_set1_pd(1e-5), _mm256_mul_pd(c, _mm256_set1_pd(BS_C_LO)));
}

/* AVX2's Perl-order sums over bs_pack5's table of 12 columns (nv 3: rows of 8 k and 4 doubles,
 * one line where the doubles' rows take 1.5): 4 replicates a pass, whose 12 accumulators stay
 * in AVX2's 16 registers, the rows of the draws BS_AHEAD4 steps (64 draws) ahead prefetched to
 * L2.  The same sums as bs_sumsq's, bit for bit.  The unpacking costs more than the half line
 * it saves until the doubles' table outgrows what L3 keeps for us (BS_PACK_AVX2_MIN; on an
 * EPYC without AVX-512, ns a draw, doubles / packed: 80,000 x 12 2.49 / 2.54, 100,000 4.18 /
 * 3.82, 130,000 4.42 / 3.38; 8 steps ahead instead of 16: 100,000 3.36 against 2.78 in another
 * run).  Of a draw's ~1.7 ns with the table in L2, the draws and the prefetches take ~0.65,
 * the unpacking ~0.6. */
#define BS_AHEAD4 16   /* a power of two */
/* level 1 packs from 16 / 3 of the AVX-512 kernels' threshold m (bytes of doubles' table): 8 MB */
#define BS_PACK_AVX2_MIN(m) ((m) * 16 / 3)
BS_AVX2F static void bs_sums4p(const uint32_t *tbl, Py_ssize_t N, Py_ssize_t r0, double *out) {
    const double scale = (double)N * (1.0 / 281474976710656.0);
    const char *base = (const char *)tbl;
    bs_u64x4 x;
    bs_seed4(&x, r0);
    __m256d a[4][3];
    for (int q = 0; q < 4; q++) a[q][0] = a[q][1] = a[q][2] = _mm256_setzero_pd();
    uint32_t ring[BS_AHEAD4][4];
    for (Py_ssize_t d = 0; d < N + BS_AHEAD4; d++) {
        if (d >= BS_AHEAD4) {
            const uint32_t *slot = ring[(d - BS_AHEAD4) & (BS_AHEAD4 - 1)];
            for (int q = 0; q < 4; q++) {
                const char *row = base + (size_t)slot[q] * 64;
                a[q][0] = _mm256_add_pd(a[q][0], bs_unpack5x4(row));
                a[q][1] = _mm256_add_pd(a[q][1], bs_unpack5x4(row + 16));
                a[q][2] = _mm256_add_pd(a[q][2], _mm256_load_pd((const double *)(row + 32)));
            }
        }
        if (d < N) {
            uint32_t *slot = ring[d & (BS_AHEAD4 - 1)];
            bs_i32x4 r = bs_draw4(&x, scale);
            memcpy(slot, &r, 16);
            for (int q = 0; q < 4; q++) __builtin_prefetch(base + (size_t)slot[q] * 64, 0, 1);
        }
    }
    for (int q = 0; q < 4; q++)
        for (int j = 0; j < 3; j++) _mm256_storeu_pd(out + q * 16 + j * 4, a[q][j]);
}

#define BS_K(name) name##_dq
#define BS_KT BS_AVX512
#define BS_KIFMA 0
#include "bootstrap_avx512.h"
#undef BS_K
#undef BS_KT
#undef BS_KIFMA
#define BS_K(name) name##_ifma
#define BS_KT BS_AVX512I
#define BS_KIFMA 1
#include "bootstrap_avx512.h"
#undef BS_K
#undef BS_KT
#undef BS_KIFMA

/* nv constant in each copy, so that the accumulators stay in registers (4 replicates a pass
 * from 12 columns: bs_sumsq) */
BS_AVX2 static void bs_sums8_avx2(const double *tbl, Py_ssize_t N, Py_ssize_t r0, int nv, double *out) {
    switch (nv) {
    case 1: bs_sums8(tbl, N, r0, 1, out); break;
    case 2: bs_sums8(tbl, N, r0, 2, out); break;
    case 3: bs_sumsq(tbl, N, r0, 3, 4, out); bs_sumsq(tbl, N, r0 + 4, 3, 4, out + 64); break;
    default: bs_sumsq(tbl, N, r0, 4, 4, out); bs_sumsq(tbl, N, r0 + 4, 4, 4, out + 64); break;
    }
}

/* replicate_sums with the vector kernels (level 1, 2 or 3): out (R, K) for replicates first ..
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
        /* 5-decimal values in a table past BS_PACK_MIN bytes (AVX2: 12 columns past 8 MB): bs_sums8p or
         * bs_sums4p (tbl has room: nv_max >= 3) */
        size_t pack_min = level >= 2 ? (size_t)bs_pack_min : BS_PACK_AVX2_MIN((size_t)bs_pack_min);
        int packed = (level >= 2 ? nv >= 3 : nv == 3) && (size_t)N * (size_t)nv * 32 >= pack_min &&
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
            if (packed && level >= 3) bs_sums8p_avx512_ifma((const uint32_t *)tbl, N, first + r0, nv, acc);
            else if (packed && level >= 2) bs_sums8p_avx512_dq((const uint32_t *)tbl, N, first + r0, nv, acc);
            else if (packed) {
                bs_sums4p((const uint32_t *)tbl, N, first + r0, acc);
                bs_sums4p((const uint32_t *)tbl, N, first + r0 + 4, acc + 64);
            }
            else if (level >= 3) bs_sums8_avx512_ifma(tbl, N, first + r0, nv, split, near, acc);
            else if (level >= 2) bs_sums8_avx512_dq(tbl, N, first + r0, nv, split, near, acc);
            else bs_sums8_avx2(tbl, N, first + r0, nv, acc);
            for (Py_ssize_t q = 0; q < 8 && r0 + q < R; q++)
                for (Py_ssize_t c = 0; c < kw; c++) o[(r0 + q) * K + k0 + c] = acc[q * 16 + c];
        }
    }
    huge_free(raw, mapped);
    return 0;
}

#undef BS_AVX2
#undef BS_AVX2F
#undef BS_AVX512
#undef BS_AVX512I
#endif
