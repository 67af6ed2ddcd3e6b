/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* n-grams and skip-bigrams: clipped matches via the prediction's table                        */

static inline uint64_t mix64(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL; k ^= k >> 33;
    return k;
}

/* A hash table (gt_init) holds up to this many keys: a table of up to 96 MiB.  Past it, the
 * prediction's n-grams (ngram_part) or skip-bigrams (pair_part_hashed) are hashed a range of
 * first tokens at a time. */
#define HASH_KEYS_MAX ((double)((Py_ssize_t)1 << 20))

/* The end of the range of first-token ids from lo whose bounds (bound[a]: at most that many
 * distinct keys start with id a) add up to at most HASH_KEYS_MAX, or of lo alone when its bound
 * is larger; *count: their sum, the range's table size. */
static Py_ssize_t keys_range_end(const double *bound, Py_ssize_t lo, Py_ssize_t D, double *count) {
    Py_ssize_t hi = lo;
    *count = 0.0;
    do *count += bound[hi++]; while (hi < D && *count + bound[hi] <= HASH_KEYS_MAX);
    return hi;
}

static int gt_init(WorkerObject *w, Py_ssize_t count, uint64_t *mask) {
    Py_ssize_t cap = 16;
    while (cap < 2 * count) cap *= 2;
    if (grow((void **)&w->gt, &w->gtcap, cap, sizeof(GEnt))) return -1;
    for (Py_ssize_t i = 0; i < cap; i++) w->gt[i].pos = -1;
    *mask = (uint64_t)cap - 1;
    return 0;
}

/* Find (or, with insert, add) the entry of a key; n > 2 compares tokens, since only n <= 2
 * keys are exact. */
static inline GEnt *gt_find(WorkerObject *w, uint64_t mask, uint64_t key, const int32_t *x, int n,
                           const int32_t *base, int insert, int32_t pos) {
    uint64_t s = ((key * 0x9E3779B97F4A7C15ULL) >> 29) & mask;
    for (;;) {
        GEnt *g = &w->gt[s];
        if (g->pos < 0) {
            if (!insert) return NULL;
            g->key = key; g->pos = pos; g->cnt = 0; g->used = 0; g->stamp = 0;
            return g;
        }
        if (g->key == key && (n <= 2 || memcmp(base + g->pos, x, (size_t)n * sizeof(int32_t)) == 0))
            return g;
        s = (s + 1) & mask;
    }
}

static inline void gt_hit(GEnt *g, uint32_t stamp, double *hits) {
    if (g->stamp != stamp) { g->stamp = stamp; g->used = 0; }
    if (++g->used <= g->cnt) *hits += 1.0;
}
