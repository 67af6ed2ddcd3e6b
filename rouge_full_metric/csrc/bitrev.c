/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own.
 *
 * Bit reversal of 64-bit words (the packed union back-trace walks on reversed bits): six shift
 * steps after a byte swap, or, where the processor has GFNI and AVX2 (chosen at run time,
 * x86-64 with GCC >= 9 or Clang), one affine transform per four words reverses the bits of every
 * byte and a byte shuffle swaps the bytes. */

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

/* 0: plain, 1: GFNI + AVX2; bitrev_allowed: the test hook's cap */
static int bitrev_supported = -1, bitrev_allowed = 1;

static int bitrev_level(void) {
    if (bitrev_supported < 0) {
        unsigned a = 0, b = 0, c = 0, d = 0;
        __builtin_cpu_init();
        int gfni = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 8));   /* CPUID.7.0:ECX.GFNI */
        bitrev_supported = gfni && __builtin_cpu_supports("avx2");
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

static void rev_words(uint64_t *z, Py_ssize_t n) {
    if (bitrev_supported > 0 && bitrev_allowed) rev_words_gfni(z, n);
    else rev_words_plain(z, n);
}
#else
static int bitrev_supported = 0, bitrev_allowed = 0;
static int bitrev_level(void) { return 0; }
static void rev_words(uint64_t *z, Py_ssize_t n) { rev_words_plain(z, n); }
#endif

/* _bitrev_hooks(gfni) -> previous (allowed, supported): gfni 0 forces the plain reversal, 1
 * allows GFNI, -1 keeps the setting (tests run both). */
static PyObject *mod_bitrev_hooks(PyObject *self, PyObject *arg) {
    bitrev_level();
    return level_hook(arg, &bitrev_allowed, bitrev_supported, 1, "gfni");
}
