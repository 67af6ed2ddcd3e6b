/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* small growable buffers (malloc-based: usable without the GIL)                               */

#if defined(__linux__)
#include <sys/mman.h>
#endif

static int grow(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t elem) {
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* grow() that zero-fills the new part */
static int grow_zero(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t elem) {
    Py_ssize_t old = *cap;
    if (grow(p, cap, need, elem)) return -1;
    if (*cap > old) memset((char *)*p + (size_t)old * elem, 0, (size_t)(*cap - old) * elem);
    return 0;
}

/* calloc for a table read before it is written (a hash table probed for its keys), zeroed by
 * writing.  calloc hands out fresh pages untouched: the first read of each maps the shared zero
 * page and the first write faults again, and that second fault flushes the page's TLB entry on
 * every CPU the process runs on -- with n_jobs=2, an interprocessor interrupt per 4 KB page (a
 * process's first n_jobs=2 call on news: 36-40 ms of system time against 8-12 with one thread;
 * 0-12 since).  Written first, each page is faulted in once, writable. */
static void *(*volatile table_zero)(void *, int, size_t) = memset;   /* which compilers cannot
                                                                     * fold with malloc into calloc */
static void *table_alloc(size_t bytes) {
    void *p = malloc(bytes);
    if (p) table_zero(p, 0, bytes);
    return p;
}

/* A scratch block of `bytes` from a 64-byte boundary, its contents unspecified (the callers
 * write every byte they read).  From `huge_from` bytes on, on Linux, it is a mapping of whole
 * 2 MB pages with transparent huge pages asked for (a hint): one fault and one TLB entry per
 * 2 MB instead of per 4 KB, which matters where a page fault costs microseconds (2.8 on the VMs
 * measured) and where rows are read at random.  huge_free(raw, mapped) releases it. */
#define HUGE_PAGE ((size_t)2 << 20)
static void *huge_alloc(size_t bytes, size_t huge_from, void **raw, size_t *mapped) {
    *mapped = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= huge_from) {
        size_t whole = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), len = whole + HUGE_PAGE;
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            char *t = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
            (void)madvise(t, whole, MADV_HUGEPAGE);
            *raw = m;
            *mapped = len;
            return t;
        }
    }
#else
    (void)huge_from;
#endif
    *raw = malloc(bytes + 64);
    return *raw ? (void *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63) : NULL;
}

static void huge_free(void *raw, size_t mapped) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (mapped) {
        munmap(raw, mapped);
        return;
    }
#else
    (void)mapped;
#endif
    free(raw);
}

static inline int ivec_push(IVec *a, int32_t x) {
    if (a->n == a->cap && grow((void **)&a->v, &a->cap, a->n + 1, sizeof(int32_t))) return -1;
    a->v[a->n++] = x;
    return 0;
}

static inline int ctz64(uint64_t x) {
#if defined(_MSC_VER)
    unsigned long k;
    _BitScanForward64(&k, x);
    return (int)k;
#else
    return __builtin_ctzll(x);
#endif
}

static inline int clz64(uint64_t x) {
#if defined(_MSC_VER)
    unsigned long k;
    _BitScanReverse64(&k, x);
    return 63 - (int)k;
#else
    return __builtin_clzll(x);
#endif
}

static inline int popc64(uint64_t x) {
    /* SWAR popcount: portable builds (no -mpopcnt) would otherwise call libgcc per word. */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* A test hook's body for a kernel chosen at run time: arg (-1: keep, else 0..max) becomes
 * *allowed; returns the previous (allowed, supported).  what names the argument in the error. */
static PyObject *level_hook(PyObject *arg, int *allowed, int supported, int max, const char *what) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < -1 || v > max) {
        PyErr_Format(PyExc_ValueError, "%s must be -1..%d", what, max);
        return NULL;
    }
    PyObject *old = Py_BuildValue("ii", *allowed, supported);
    if (old && v >= 0) *allowed = (int)v;
    return old;
}
