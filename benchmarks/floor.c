/* The tokenizing floor of issue 21: what a plain C loop takes to turn a text into interned token
 * ids the way the rouge_score set needs them (maximal [A-Za-z0-9] runs, ASCII-lowercased, each
 * hashed and looked up in one table of the distinct tokens, new ones added), and nothing else: no
 * n-grams, no LCS, no Python objects.  bench_floor.py compiles it at run time (cc -O2) and times it
 * beside the package; it is not part of the package.
 *
 * Two ways, each in three steps, floor_run(mode):
 *   0, 1, 2  a byte at a time: tokenize only (the tokens found and lowercased into a scratch
 *            buffer), also hash each token, also intern it (one table, the bytes in an arena);
 *   3, 4, 5  64 bytes at a time (floor_run_fast): the block lowered and its token bytes' mask
 *            made with AVX2 (a byte at a time elsewhere), tokens read off the mask's bit runs,
 *            each hashed from its first 16 bytes as two words (masked without a branch), then
 *            looked up in batches of 32 after prefetching their slots: a direct-mapped front
 *            cache, then a table whose 32-byte slots hold a token's first 16 bytes (no arena
 *            read below 17 bytes).  The package's own tokenizer is built this way; the floor
 *            is the faster of the two.
 * Each returns a checksum of what it computed, so the compiler can drop none of it.  The tables
 * persist between calls (warm, as the package's own token tables are after a warm-up) until
 * floor_reset. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static unsigned char LOWER[256];   /* [A-Z] -> [a-z], [a-z0-9] kept, every other byte 0 */

typedef struct { uint64_t h; uint32_t off, len; } Slot;   /* len 0: empty */

static Slot *tab;
static uint64_t cap, used;
static unsigned char *arena;
static uint64_t arena_n, arena_cap;

static void init_lower(void) {
    for (int c = 0; c < 256; c++)
        LOWER[c] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? (unsigned char)c
                   : (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : 0;
}

int floor_reset(void) {
    init_lower();
    free(tab);
    free(arena);
    cap = 1024;
    used = 0;
    tab = calloc(cap, sizeof(Slot));
    arena_cap = 1 << 16;
    arena_n = 0;
    arena = malloc(arena_cap);
    return tab && arena ? 0 : -1;
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* a multiply-xorshift hash of the token's 8-byte words (the scratch buffer is zero-padded) */
static inline uint64_t hash_tok(const unsigned char *t, uint32_t len) {
    uint64_t h = 0x243F6A8885A308D3ULL ^ len;
    for (uint32_t k = 0; k < len; k += 8) {
        h = (h ^ load64(t + k)) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h * 0xBF58476D1CE4E5B9ULL;
}

static int grow(void) {
    uint64_t ncap = cap * 2;
    Slot *nt = calloc(ncap, sizeof(Slot));
    if (!nt) return -1;
    for (uint64_t k = 0; k < cap; k++) {
        if (!tab[k].len) continue;
        uint64_t j = tab[k].h & (ncap - 1);
        while (nt[j].len) j = (j + 1) & (ncap - 1);
        nt[j] = tab[k];
    }
    free(tab);
    tab = nt;
    cap = ncap;
    return 0;
}

/* the token's id: its slot's index in the arena order (new tokens appended) */
static inline int64_t intern(const unsigned char *t, uint32_t len, uint64_t h) {
    uint64_t j = h & (cap - 1);
    for (;;) {
        Slot *s = &tab[j];
        if (!s->len) break;
        if (s->h == h && s->len == len && !memcmp(arena + s->off, t, len)) return s->off;
        j = (j + 1) & (cap - 1);
    }
    if (arena_n + len > arena_cap) {
        while (arena_n + len > arena_cap) arena_cap *= 2;
        unsigned char *na = realloc(arena, arena_cap);
        if (!na) return -1;
        arena = na;
    }
    memcpy(arena + arena_n, t, len);
    tab[j].h = h;
    tab[j].off = (uint32_t)arena_n;
    tab[j].len = len;
    arena_n += len;
    if (++used * 2 > cap && grow()) return -1;
    return (int64_t)(arena_n - len);
}

/* texts: buf[offs[i]:offs[i+1]] for i < ntexts.  Returns the checksum, or -1 on a failed
 * allocation. */
int64_t floor_run(const unsigned char *buf, const int64_t *offs, int64_t ntexts, int mode) {
    unsigned char tok[4096 + 8];
    int64_t sum = 0;
    for (int64_t i = 0; i < ntexts; i++) {
        const unsigned char *u = buf + offs[i];
        int64_t n = offs[i + 1] - offs[i], k = 0;
        while (k < n) {
            unsigned char c = LOWER[u[k]];
            if (!c) { k++; continue; }
            uint32_t len = 0;
            do {
                if (len < 4096) tok[len++] = c;
                k++;
            } while (k < n && (c = LOWER[u[k]]));
            memset(tok + len, 0, 8);
            if (mode == 0) { sum += len + tok[0]; continue; }
            uint64_t h = hash_tok(tok, len);
            if (mode == 1) { sum += (int64_t)(h >> 40); continue; }
            int64_t id = intern(tok, len, h);
            if (id < 0) return -1;
            sum += id;
        }
    }
    return sum;
}

/* ---- 64 bytes at a time ---- */

/* h: the whole hash; id: the token's number in order of arrival; its bytes past 16 are at
 * farena[foff[id]] */
typedef struct { uint64_t head, head2, h; uint32_t len, id; } FSlot;

/* A direct-mapped cache of ids for tokens of up to 16 bytes in front of the table, 384 KB: the
 * frequent (Zipf) tokens then stay in L2 (the package's interner has one; the floor with it was
 * 1.96 -> 1.87 us/pair on news, in two runs of bench_floor.py) */
#define FRONT_BITS 14
typedef struct { uint64_t head, head2; uint32_t tag; uint32_t id; } Front;
static Front front[1 << FRONT_BITS];

static inline uint32_t front_tag(uint64_t h, int64_t len) { return (uint32_t)((h >> 8) & 0xFFFFFF00u) | (uint32_t)len; }

static FSlot *ftab;
static uint64_t fcap, fused;
static unsigned char *farena, *lowered;
static uint64_t farena_n, farena_cap, lowered_cap;
static uint32_t *foff;
static uint64_t foff_cap;

int floor_reset_fast(void) {
    free(ftab);
    free(farena);
    free(foff);
    memset(front, 0, sizeof front);
    fcap = 1024;
    fused = 0;
    ftab = calloc(fcap, sizeof(FSlot));
    farena_cap = 1 << 16;
    farena_n = 0;
    farena = malloc(farena_cap);
    foff_cap = 1024;
    foff = malloc(foff_cap * sizeof(uint32_t));
    return ftab && farena && foff ? 0 : -1;
}

static inline unsigned ctz64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }

/* b[0:n] lowered (separators 0), zeros to the end of the block holding byte n; masks[k]: block
 * k's token bytes */
static void lower_scalar(const unsigned char *u, int64_t n, unsigned char *b, uint64_t *masks) {
    int64_t end = ((n >> 6) + 1) * 64;
    for (int64_t k = 0; k < n; k++) b[k] = LOWER[u[k]];
    memset(b + n, 0, (size_t)(end - n));
    for (int64_t base = 0; base < end; base += 64) {
        uint64_t M = 0;
        for (int j = 0; j < 64; j++) M |= (uint64_t)(b[base + j] != 0) << j;
        masks[base >> 6] = M;
    }
}

#if defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9))
#include <immintrin.h>
#define FLOOR_AVX2 1
__attribute__((target("avx2"))) static inline uint32_t lower32(const unsigned char *u, unsigned char *b) {
    __m256i x = _mm256_loadu_si256((const __m256i *)u);
    __m256i t = _mm256_or_si256(x, _mm256_set1_epi8(0x20));
    __m256i a = _mm256_sub_epi8(t, _mm256_set1_epi8('a')), d = _mm256_sub_epi8(x, _mm256_set1_epi8('0'));
    __m256i alpha = _mm256_cmpeq_epi8(_mm256_min_epu8(a, _mm256_set1_epi8(25)), a);
    __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
    _mm256_storeu_si256((__m256i *)b, _mm256_or_si256(_mm256_and_si256(alpha, t), _mm256_and_si256(digit, x)));
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(alpha, digit));
}

__attribute__((target("avx2"))) static void lower_avx2(const unsigned char *u, int64_t n, unsigned char *b,
                                                       uint64_t *masks) {
    int64_t base = 0;
    for (; base + 64 <= n; base += 64)
        masks[base >> 6] = (uint64_t)lower32(u + base, b + base) |
                           (uint64_t)lower32(u + base + 32, b + base + 32) << 32;
    unsigned char tail[64] = {0};
    memcpy(tail, u + base, (size_t)(n - base));
    masks[base >> 6] = (uint64_t)lower32(tail, b + base) | (uint64_t)lower32(tail + 32, b + base + 32) << 32;
}
#endif

static int has_avx2 = -1;

static void lower_text(const unsigned char *u, int64_t n, unsigned char *b, uint64_t *masks) {
#ifdef FLOOR_AVX2
    if (has_avx2 < 0) {
        __builtin_cpu_init();
        has_avx2 = __builtin_cpu_supports("avx2") != 0;
    }
    if (has_avx2) { lower_avx2(u, n, b, masks); return; }
#endif
    lower_scalar(u, n, b, masks);
}

/* the hash of a token from its first 16 bytes as two words and its length; longer tokens mix in
 * their other words */
static inline uint64_t hash_fast(const unsigned char *s, int64_t len, uint64_t head, uint64_t head2) {
    uint64_t h = (head ^ ((uint64_t)len * 0x9E3779B97F4A7C15ULL)) * 0xC4CEB9FE1A85EC53ULL;
    h = (h ^ (h >> 32) ^ head2) * 0xFF51AFD7ED558CCDULL;
    for (int64_t k = 16; k < len; k += 8) {
        uint64_t w = load64(s + k);
        if (len - k < 8) w &= (1ULL << (8 * (len - k))) - 1;
        h = (h ^ (h >> 32) ^ w) * 0xFF51AFD7ED558CCDULL;
    }
    return h ^ (h >> 29);
}

static int grow_fast(void) {
    uint64_t ncap = fcap * 2;
    FSlot *nt = calloc(ncap, sizeof(FSlot));
    if (!nt) return -1;
    for (uint64_t k = 0; k < fcap; k++) {
        if (!ftab[k].len) continue;
        uint64_t j = ftab[k].h & (ncap - 1);
        while (nt[j].len) j = (j + 1) & (ncap - 1);
        nt[j] = ftab[k];
    }
    free(ftab);
    ftab = nt;
    fcap = ncap;
    return 0;
}

typedef struct { uint64_t h, head, head2; int64_t s, len; } Tok;

/* a token of len bytes (at most 16 counted): its bytes 0-7 and 8-15 as loaded, masked to it */
static const uint64_t HEAD_MASK[17] = {
    0, 0xFFULL, 0xFFFFULL, 0xFFFFFFULL, 0xFFFFFFFFULL, 0xFFFFFFFFFFULL, 0xFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFULL,
    ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL};
static const uint64_t HEAD2_MASK[17] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFFULL, 0xFFFFULL, 0xFFFFFFULL, 0xFFFFFFFFULL, 0xFFFFFFFFFFULL, 0xFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFULL, ~0ULL};


static int64_t intern_table(const unsigned char *b, const Tok *t);

static inline int64_t intern_fast(const unsigned char *b, const Tok *t) {
    if (t->len > 16) return intern_table(b, t);
    Front *f = &front[t->h >> (64 - FRONT_BITS)];
    uint32_t tag = front_tag(t->h, t->len);
    if (f->tag == tag && f->head == t->head && f->head2 == t->head2) return f->id;
    int64_t id = intern_table(b, t);
    if (id >= 0) { f->tag = tag; f->head = t->head; f->head2 = t->head2; f->id = (uint32_t)id; }
    return id;
}

static int64_t intern_table(const unsigned char *b, const Tok *t) {
    uint64_t j = t->h & (fcap - 1);
    for (;;) {
        FSlot *e = &ftab[j];
        if (!e->len) break;
        if (e->h == t->h && e->len == (uint32_t)t->len && e->head == t->head && e->head2 == t->head2 &&
            (t->len <= 16 || !memcmp(farena + foff[e->id], b + t->s + 16, (size_t)(t->len - 16))))
            return e->id;
        j = (j + 1) & (fcap - 1);
    }
    uint32_t id = (uint32_t)fused;
    if (fused + 1 > foff_cap) {
        uint32_t *no = realloc(foff, 2 * foff_cap * sizeof(uint32_t));
        if (!no) return -1;
        foff = no;
        foff_cap *= 2;
    }
    int64_t rest = t->len > 16 ? t->len - 16 : 0;
    if (farena_n + (uint64_t)rest > farena_cap) {
        while (farena_n + (uint64_t)rest > farena_cap) farena_cap *= 2;
        unsigned char *na = realloc(farena, farena_cap);
        if (!na) return -1;
        farena = na;
    }
    memcpy(farena + farena_n, b + t->s + 16, (size_t)rest);
    foff[id] = (uint32_t)farena_n;
    farena_n += (uint64_t)rest;
    FSlot *e = &ftab[j];
    e->head = t->head;
    e->head2 = t->head2;
    e->h = t->h;
    e->len = (uint32_t)t->len;
    e->id = id;
    if (++fused * 2 > fcap && grow_fast()) return -1;
    return id;
}

int64_t floor_run_fast(const unsigned char *buf, const int64_t *offs, int64_t ntexts, int mode) {
    enum { BATCH = 32 };
    Tok t[BATCH];
    int64_t sum = 0;
    for (int64_t i = 0; i < ntexts; i++) {
        const unsigned char *u = buf + offs[i];
        int64_t n = offs[i + 1] - offs[i], nblocks = (n >> 6) + 1;
        uint64_t need = (uint64_t)(nblocks * 64 + 16 + nblocks * 8);
        if (need > lowered_cap) {
            free(lowered);
            lowered_cap = need * 2;
            lowered = malloc(lowered_cap);
            if (!lowered) return -1;
        }
        unsigned char *b = lowered;
        uint64_t *masks = (uint64_t *)(void *)(b + nblocks * 64 + 16);
        lower_text(u, n, b, masks);
        memset(b + nblocks * 64, 0, 16);
        int nt = 0;
        int64_t pending = -1;
        uint64_t carry = 0;
        for (int64_t base = 0; base <= n; base += 64) {
            uint64_t M = masks[base >> 6], before = (M << 1) | carry;
            uint64_t starts = M & ~before, ends = ~M & before;
            carry = M >> 63;
            while (ends) {
                int64_t e = base + ctz64(ends), s;
                ends &= ends - 1;
                if (pending >= 0) { s = pending; pending = -1; }
                else { s = base + ctz64(starts); starts &= starts - 1; }
                int64_t len = e - s;
                /* masked through a table: tests of len would be a coin toss for the predictor
                 * (this way's tokenizing, news: 0.98 -> 0.49 us/pair) */
                int64_t cl = len < 16 ? len : 16;
                uint64_t head = load64(b + s) & HEAD_MASK[cl], head2 = load64(b + s + 8) & HEAD2_MASK[cl];
                if (mode == 3) { sum += len + (int64_t)(head & 0xFF); continue; }
                uint64_t h = hash_fast(b + s, len, head, head2);
                if (mode == 4) { sum += (int64_t)(h >> 40); continue; }
                __builtin_prefetch(&front[h >> (64 - FRONT_BITS)]);
                __builtin_prefetch(&ftab[h & (fcap - 1)]);
                t[nt].h = h; t[nt].head = head; t[nt].head2 = head2; t[nt].s = s; t[nt].len = len;
                if (++nt == BATCH) {
                    for (int q = 0; q < nt; q++) {
                        int64_t id = intern_fast(b, &t[q]);
                        if (id < 0) return -1;
                        sum += id;
                    }
                    nt = 0;
                }
            }
            if (starts) pending = base + ctz64(starts);
        }
        for (int q = 0; q < nt; q++) {
            int64_t id = intern_fast(b, &t[q]);
            if (id < 0) return -1;
            sum += id;
        }
    }
    return sum;
}

/* distinct tokens interned so far: by the byte-at-a-time way (fast = 0) or the other */
int64_t floor_distinct(int fast) { return (int64_t)(fast ? fused : used); }
