/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own.
 *
 * Bit reversal of 64-bit words (the packed union back-trace walks on reversed bits): six shift
 * steps after a byte swap, or, chosen at run time (x86-64 with GCC >= 9 or Clang), four words at
 * once: where the processor has GFNI and AVX2, one affine transform reverses the bits of every
 * byte; with AVX2 alone, two 16-entry table lookups (vpshufb) of each byte's nibbles do; then a
 * byte shuffle swaps the bytes.  The AVX2 lookups serve the x86-64 processors without GFNI (AMD
 * before Zen 4, Intel before Ice Lake): on a Zen 3 the plain steps were 2.4 % of a news pair's
 * time. */

static inline uint64_t rev64(uint64_t x) {
#if defined(_MSC_VER)
    x = _byteswap_uint64(x);
#else
    x = __builtin_bswap64(x);
#endif
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    return ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
}

static void rev_words_plain(uint64_t *z, Py_ssize_t n) {
    for (Py_ssize_t q = 0; q < n; q++) z[q] = rev64(z[q]);
}

#if defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9))
#define BITREV_GFNI 1
#include <immintrin.h>
#include <cpuid.h>

/* 0: plain, 1: AVX2, 2: GFNI + AVX2; bitrev_allowed: the test hook's cap */
static int bitrev_supported = -1, bitrev_allowed = 2;

static int bitrev_level(void) {
    if (bitrev_supported < 0) {
        unsigned a = 0, b = 0, c = 0, d = 0;
        __builtin_cpu_init();
        int gfni = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 8));   /* CPUID.7.0:ECX.GFNI */
        bitrev_supported = __builtin_cpu_supports("avx2") ? 1 + gfni : 0;
    }
    return bitrev_allowed < bitrev_supported ? bitrev_allowed : bitrev_supported;
}

__attribute__((target("avx2,gfni"))) static void rev_words_gfni(uint64_t *z, Py_ssize_t n) {
    /* row k of the affine matrix (byte 7 - k) picks source bit 7 - k for result bit k */
    const __m256i bits = _mm256_set1_epi64x(0x8040201008040201LL);
    const __m256i bytes = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                                           7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    Py_ssize_t q = 0;
    for (; q + 4 <= n; q += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(z + q));
        v = _mm256_shuffle_epi8(_mm256_gf2p8affine_epi64_epi8(v, bits, 0), bytes);
        _mm256_storeu_si256((__m256i *)(z + q), v);
    }
    for (; q < n; q++) z[q] = rev64(z[q]);
}

/* each byte's bits reversed by its nibbles: the low nibble's reversed bits (LO, shifted up) or'd
 * with the high nibble's (HI); the two 16-byte tables as 64-bit halves, little-endian */
#define BITREV_LO0 0xE060A020C0408000ULL
#define BITREV_LO1 0xF070B030D0509010ULL
#define BITREV_HI0 0x0E060A020C040800ULL
#define BITREV_HI1 0x0F070B030D050901ULL
__attribute__((target("avx2"))) static void rev_words_avx2(uint64_t *z, Py_ssize_t n) {
    const __m256i lo = _mm256_setr_epi64x((long long)BITREV_LO0, (long long)BITREV_LO1, (long long)BITREV_LO0,
                                          (long long)BITREV_LO1);
    const __m256i hi = _mm256_setr_epi64x((long long)BITREV_HI0, (long long)BITREV_HI1, (long long)BITREV_HI0,
                                          (long long)BITREV_HI1);
    const __m256i nib = _mm256_set1_epi8(0x0F);
    const __m256i bytes = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                                           7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    Py_ssize_t q = 0;
    for (; q + 4 <= n; q += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(z + q));
        __m256i r = _mm256_or_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib)),
                                    _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib)));
        _mm256_storeu_si256((__m256i *)(z + q), _mm256_shuffle_epi8(r, bytes));
    }
    for (; q < n; q++) z[q] = rev64(z[q]);
}
static void rev_words(uint64_t *z, Py_ssize_t n) {
    int level = bitrev_level();
    if (level == 2) rev_words_gfni(z, n);
    else if (level == 1) rev_words_avx2(z, n);
    else rev_words_plain(z, n);
}
#else
static int bitrev_supported = 0, bitrev_allowed = 0;
static int bitrev_level(void) { return 0; }
static void rev_words(uint64_t *z, Py_ssize_t n) { rev_words_plain(z, n); }
#endif

/* _bitrev_hooks(level) -> previous (allowed, supported): level 0 forces the plain reversal, 1
 * allows AVX2's lookups, 2 GFNI too, -1 keeps the setting (tests run each). */
static PyObject *mod_bitrev_hooks(PyObject *self, PyObject *arg) {
    bitrev_level();
    return level_hook(arg, &bitrev_allowed, bitrev_supported, 2, "level");
}
