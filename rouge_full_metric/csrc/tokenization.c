/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* tokenization                                                                                 */

static unsigned char LOWER_ALNUM[256];   /* lowercase of [A-Za-z0-9], 0 elsewhere */
static unsigned char PERL_SPACE[256];    /* Perl's \s on bytes: [ \t\n\r\f\x0b] */

static void init_tables(void) {
    for (int c = 0; c < 256; c++) {
        LOWER_ALNUM[c] = 0;
        if (c >= 'a' && c <= 'z') LOWER_ALNUM[c] = (unsigned char)c;
        if (c >= '0' && c <= '9') LOWER_ALNUM[c] = (unsigned char)c;
        if (c >= 'A' && c <= 'Z') LOWER_ALNUM[c] = (unsigned char)(c + 32);
        PERL_SPACE[c] = (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b);
    }
}

/* Grow a Worker's vocabulary-indexed arrays (slot, loc: -1 between uses) to need ids. */
static int reserve_vocab(WorkerObject *w, Py_ssize_t need) {
    if (need <= w->vcap) return 0;
    Py_ssize_t c = w->vcap ? w->vcap : 4096;
    while (c < need) c *= 2;
    int32_t **arrs[2] = {&w->slot, &w->loc};
    for (int k = 0; k < 2; k++) {
        int32_t *q = (int32_t *)realloc(*arrs[k], (size_t)c * sizeof(int32_t));
        if (!q) return -1;
        *arrs[k] = q;
        for (Py_ssize_t i = w->vcap; i < c; i++) q[i] = -1;
    }
    w->vcap = c;
    return 0;
}

static int ensure_vocab(WorkerObject *w) { return reserve_vocab(w, w->in.nent); }

/* stemmer.stem of the ASCII lowercase word in buf[0:n] (room for n + 1 bytes): the exception
 * table's base form, else the Porter stem, computed in place. */
static const char *morph_stem(const EngineObject *e, char *buf, Py_ssize_t n, Py_ssize_t *len) {
    Py_ssize_t k = lookup(&e->exc, buf, n);
    if (k >= 0 && e->exc.ent[k].fin >= 0) {
        const Entry *base = &e->exc.ent[e->exc.ent[k].fin];
        *len = base->len;
        return e->exc.arena + base->off;
    }
    *len = porter(buf, n);
    return buf;
}

/* make_token_filter's answer for raw token idx, without Python: -1 dropped, else the interned
 * id of the result; -3 when the token is not made of [a-z0-9] bytes only (or out of memory,
 * with c->err set). */
static int32_t native_final(Ctx *c, Py_ssize_t idx) {
    WorkerObject *w = c->w;
    const EngineObject *e = w->eng;
    Py_ssize_t n = w->in.ent[idx].len;
    const unsigned char *t = (const unsigned char *)w->in.arena + w->in.ent[idx].off;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!t[k] || LOWER_ALNUM[t[k]] != t[k]) return -3;
    int32_t fin = (int32_t)idx;
    if (e->nltk_stem) {
        if (n > 3) {
            if (np_long_y_run(t, n)) return -3;
            if (grow((void **)&w->nbuf, &w->nbufcap, n, sizeof(uint32_t)) ||
                grow((void **)&w->sbuf, &w->sbufcap, n + 8, 1)) { c->err = ERR_NOMEM; return -3; }
            for (Py_ssize_t k = 0; k < n; k++) w->nbuf[k] = t[k];
            Py_ssize_t len = nltk_porter(w->nbuf, n, n, 1);
            /* a copy: interning the result may move the arena */
            for (Py_ssize_t k = 0; k < len; k++) w->sbuf[k] = (char)w->nbuf[k];
            Py_ssize_t k = intern(&w->in, w->sbuf, len, -2);
            if (k < 0) { c->err = ERR_NOMEM; return -3; }
            fin = (int32_t)k;
        }
    } else if (e->drop_stop && lookup(&e->stops, (const char *)t, n) >= 0) fin = -1;
    else if (e->stem && n > 3) {
        /* a copy: interning the result may move the arena */
        if (grow((void **)&w->sbuf, &w->sbufcap, n + 8, 1)) { c->err = ERR_NOMEM; return -3; }
        memcpy(w->sbuf, t, (size_t)n);
        Py_ssize_t len;
        const char *r = morph_stem(e, w->sbuf, n, &len);
        Py_ssize_t k = intern(&w->in, r, len, -2);
        if (k < 0) { c->err = ERR_NOMEM; return -3; }
        fin = (int32_t)k;
    }
    interner_set_fin(&w->in, idx, fin);
    return fin;
}

/* The final id of interned raw token idx, once per token per Worker: the native filter when it
 * applies, else the Python token filter (stop words, stemmer); -1 means dropped. */
static int32_t resolve_final(Ctx *c, Py_ssize_t idx) {
    WorkerObject *w = c->w;
    if (w->eng->native) {
        int32_t fin = native_final(c, idx);
        if (fin != -3 || c->err) return fin;
    }
    if (c->nogil) PyEval_RestoreThread(c->ts);
    int32_t fin = -3;
    PyObject *tok = PyUnicode_DecodeUTF8(w->in.arena + w->in.ent[idx].off, w->in.ent[idx].len, "surrogatepass");
    if (tok) {
        PyObject *r = PyObject_CallOneArg(w->eng->filter, tok);
        Py_DECREF(tok);
        if (r) {
            if (r == Py_None) fin = -1;
            else if (PyUnicode_Check(r)) {
                Py_ssize_t n;
                const char *s = PyUnicode_AsUTF8AndSize(r, &n);
                if (s) {
                    Py_ssize_t k = intern(&w->in, s, n, -2);
                    if (k < 0) PyErr_NoMemory();
                    else fin = (int32_t)k;
                }
            } else PyErr_SetString(PyExc_TypeError, "token filter must return str or None");
            Py_DECREF(r);
        }
    }
    if (fin == -3) c->err = ERR_PY;
    else interner_set_fin(&w->in, idx, fin);
    if (c->nogil) c->ts = PyEval_SaveThread();
    return fin;
}

static inline uint32_t front_tag(uint64_t h, Py_ssize_t n) {
    return (uint32_t)((h >> 8) & 0xFFFFFF00u) | (uint32_t)n;
}

/* Append the final id of token s[0:n] (h its hash; head: its first 8 bytes, head2: the next 8,
 * both zero-padded) to out, which has room. */
static inline int emit_h(Ctx *c, const char *s, Py_ssize_t n, uint64_t h, uint64_t head, uint64_t head2,
                         IVec *out) {
    WorkerObject *w = c->w;
    Front *fe = NULL;
    uint32_t tag = 0;
    if (n <= 16 && w->front) {
        fe = &w->front[h >> (64 - FRONT_BITS)];
        tag = front_tag(h, n);
        if (fe->tag == tag && fe->head == head && fe->head2 == head2) {
            int32_t fin = fe->fin;
            out->v[out->n] = fin;
            out->n += fin >= 0;
            return 0;
        }
    }
    Slot *sl = intern_slot(&w->in, s, n, w->eng->filter ? -2 : -4, h, head, head2);
    if (!sl) { c->err = ERR_NOMEM; return -1; }
    int32_t fin = sl->fin;
    if (fin == -2) {
        fin = resolve_final(c, (Py_ssize_t)sl->idx1 - 1);
        if (c->err) return -1;
    }
    if (fe) { fe->tag = tag; fe->head = head; fe->head2 = head2; fe->fin = fin; }
    if (fin >= 0) out->v[out->n++] = fin;
    return 0;
}

static inline int emit(Ctx *c, const char *s, Py_ssize_t n, uint64_t head, IVec *out) {
    uint64_t head2 = head2_of(s, n);
    return emit_h(c, s, n, hash_tok(s, n, head, head2), head, head2, out);
}

/* Room for the tokens of n more bytes: at most one per two bytes, plus one. */
static inline int reserve_tokens(Ctx *c, IVec *out, Py_ssize_t n) {
    if (grow((void **)&out->v, &out->cap, out->n + n / 2 + 2, sizeof(int32_t))) { c->err = ERR_NOMEM; return -1; }
    return 0;
}

static int ensure_tbuf(Ctx *c, Py_ssize_t n) {
    if (grow((void **)&c->w->tbuf, &c->w->tbcap_chars, n + 8, 1)) { c->err = ERR_NOMEM; return -1; }
    return 0;
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* LOWER_ALNUM of eight bytes at once: per byte, range tests on its low seven bits (each
 * subtraction stays inside its byte: x | 0x80 >= 0x80 > lo, and (hi | 0x80) - x >= 1). */
static inline uint64_t lower_alnum8(uint64_t x) {
    const uint64_t L01 = 0x0101010101010101ULL, H80 = 0x8080808080808080ULL;
    uint64_t y = x & ~H80, yh = y | H80;
#define IN_RANGE(lo, hi) ((yh - (lo) * L01) & (((hi) * L01 | H80) - y))
    uint64_t upper = IN_RANGE(0x41, 0x5A);
    uint64_t alnum = (IN_RANGE(0x30, 0x39) | upper | IN_RANGE(0x61, 0x7A)) & ~x & H80;
#undef IN_RANGE
    return (x | (upper & H80) >> 2) & ((alnum >> 7) * 0xFF);
}

/* Bit j of the result: bit 7 of byte j of x, whose other bits are 0 (the multiply gathers the
 * eight bit 7s into the top byte: every partial product lands on a distinct bit, so nothing
 * carries). */
static inline uint64_t top_bits8(uint64_t x) {
    return ((x >> 7) * 0x0102040810204080ULL) >> 56;
}

/* Bit j of the result: byte j of x is not 0, for x whose bytes are all < 0x80 (byte + 0x7F then
 * carries into bit 7 exactly when the byte is not 0). */
static inline uint64_t nonzero_bytes8(uint64_t x) {
    const uint64_t L7F = 0x7F7F7F7F7F7F7F7FULL, H80 = 0x8080808080808080ULL;
    return top_bits8((x + L7F) & H80);
}

/* ---- the lowering pass of tok_perl: b = LOWER_ALNUM of the span, and per 64-byte block a mask
 * of its nonzero bytes.  Two versions with the same output, chosen at run time: AVX2 (32 bytes
 * an instruction) and the word-at-a-time one for every other machine. */

/* 0: word at a time, 1: AVX2 (capped at what the CPU has; tests force each) */
static int lower_supported = -1, lower_allowed = 1;

/* Bit j of the result: byte j of x is "\n" (exact: each byte's test stays inside the byte). */
static inline uint64_t newline_bytes8(uint64_t x) {
    const uint64_t L7F = 0x7F7F7F7F7F7F7F7FULL, H80 = 0x8080808080808080ULL;
    uint64_t y = x ^ 0x0A0A0A0A0A0A0A0AULL;
    return top_bits8(~(((y & L7F) + L7F) | y) & H80);   /* bit 7 of each byte of y that is 0 */
}

/* Scalar: b[0:n] lowered, zeros up to the end of the block holding byte n; masks[k] for the
 * blocks 0..n>>6, and nl[k] (unless NULL) the block's "\n" bytes.  Returns nonzero when u[0:n]
 * holds a byte >= 0x80. */
static int lower_masks_scalar(const unsigned char *u, Py_ssize_t n, unsigned char *b, uint64_t *masks,
                              uint64_t *nl) {
    Py_ssize_t k = 0, end = ((n >> 6) + 1) * 64;
    uint64_t any = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w = load64(u + k), x = lower_alnum8(w);
        any |= w;
        memcpy(b + k, &x, 8);
    }
    memset(b + k, 0, (size_t)(end - k));
    for (; k < n; k++) { any |= u[k]; b[k] = LOWER_ALNUM[u[k]]; }
    for (Py_ssize_t base = 0; base < end; base += 64) {
        uint64_t M = 0;
        for (int j = 0; j < 8; j++) M |= nonzero_bytes8(load64(b + base + 8 * j)) << (8 * j);
        masks[base >> 6] = M;
    }
    if (nl) {
        Py_ssize_t base = 0;
        for (; base + 64 <= n; base += 64) {
            uint64_t L = 0;
            for (int j = 0; j < 8; j++) L |= newline_bytes8(load64(u + base + 8 * j)) << (8 * j);
            nl[base >> 6] = L;
        }
        nl[base >> 6] = 0;
        for (Py_ssize_t k2 = base; k2 < n; k2++) nl[base >> 6] |= (uint64_t)(u[k2] == '\n') << (k2 - base);
    }
    return (any & 0x8080808080808080ULL) != 0;
}

#if defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9))
#define LOWER_SIMD 1
#include <immintrin.h>

/* 32 bytes: [A-Z] -> [a-z], [a-z0-9] kept, every other byte 0; the nonzero bytes' mask; *high
 * gathers the bytes' top bits, *nl gets the "\n" bytes' mask. */
__attribute__((target("avx2"))) static inline uint32_t lower32_avx2(const unsigned char *u, unsigned char *b,
                                                                    __m256i *high, uint32_t *nl) {
    __m256i x = _mm256_loadu_si256((const __m256i *)u);
    *high = _mm256_or_si256(*high, x);
    *nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')));
    __m256i t = _mm256_or_si256(x, _mm256_set1_epi8(0x20));   /* letters lowercased */
    __m256i a = _mm256_sub_epi8(t, _mm256_set1_epi8('a')), d = _mm256_sub_epi8(x, _mm256_set1_epi8('0'));
    /* unsigned a <= 25 and d <= 9 (a byte >= 0x80 lands above both) */
    __m256i alpha = _mm256_cmpeq_epi8(_mm256_min_epu8(a, _mm256_set1_epi8(25)), a);
    __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
    __m256i r = _mm256_or_si256(_mm256_and_si256(alpha, t), _mm256_and_si256(digit, x));
    _mm256_storeu_si256((__m256i *)b, r);
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(alpha, digit));
}

__attribute__((target("avx2"))) static int lower_masks_avx2(const unsigned char *u, Py_ssize_t n, unsigned char *b,
                                                           uint64_t *masks, uint64_t *nl) {
    __m256i high = _mm256_setzero_si256();
    uint32_t n0, n1;
    Py_ssize_t base = 0;
    for (; base + 64 <= n; base += 64) {
        masks[base >> 6] = (uint64_t)lower32_avx2(u + base, b + base, &high, &n0) |
                           (uint64_t)lower32_avx2(u + base + 32, b + base + 32, &high, &n1) << 32;
        if (nl) nl[base >> 6] = (uint64_t)n0 | (uint64_t)n1 << 32;
    }
    /* the last block (it holds byte n) from a zero-padded copy: nothing past n is read */
    unsigned char tail[64];
    memset(tail, 0, 64);
    memcpy(tail, u + base, (size_t)(n - base));
    masks[base >> 6] = (uint64_t)lower32_avx2(tail, b + base, &high, &n0) |
                       (uint64_t)lower32_avx2(tail + 32, b + base + 32, &high, &n1) << 32;
    if (nl) nl[base >> 6] = (uint64_t)n0 | (uint64_t)n1 << 32;
    return _mm256_movemask_epi8(high) != 0;
}
#endif

static int lower_level(void) {
    if (lower_supported < 0) {
#ifdef LOWER_SIMD
        __builtin_cpu_init();
        lower_supported = __builtin_cpu_supports("avx2") ? 1 : 0;
#else
        lower_supported = 0;
#endif
    }
    return lower_allowed < lower_supported ? lower_allowed : lower_supported;
}

static int lower_masks(const unsigned char *u, Py_ssize_t n, unsigned char *b, uint64_t *masks, uint64_t *nl) {
#ifdef LOWER_SIMD
    if (lower_level() >= 1) return lower_masks_avx2(u, n, b, masks, nl);
#endif
    return lower_masks_scalar(u, n, b, masks, nl);
}

/* _tokenizer_simd(level) -> (previous level, supported level): tests force the word-at-a-time
 * lowering (0) or AVX2 (1); -1 leaves it as it is. */
static PyObject *mod_tokenizer_simd(PyObject *self, PyObject *arg) {
    lower_level();
    return level_hook(arg, &lower_allowed, lower_supported, 1, "level");
}

typedef struct { uint64_t h, head, head2; Py_ssize_t s, len; } ScanTok;

/* A token of len bytes (at most 16 counted): its bytes 0-7 and 8-15 as loaded, masked to the token */
static const uint64_t HEAD_MASK[17] = {
    0, 0xFFULL, 0xFFFFULL, 0xFFFFFFULL, 0xFFFFFFFFULL, 0xFFFFFFFFFFULL, 0xFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFULL,
    ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL};
static const uint64_t HEAD2_MASK[17] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFFULL, 0xFFFFULL, 0xFFFFFFULL, 0xFFFFFFFFULL, 0xFFFFFFFFFFULL, 0xFFFFFFFFFFFFULL,
    0xFFFFFFFFFFFFFFULL, ~0ULL};

/* Look up a batch of scanned tokens (their front slots were prefetched as they were found). */
static inline int emit_batch(Ctx *c, const unsigned char *b, const ScanTok *t, int nt, IVec *out) {
    for (int q = 0; q < nt; q++)
        if (emit_h(c, (const char *)b + t[q].s, t[q].len, t[q].h, t[q].head, t[q].head2, out)) return -1;
    return 0;
}

/* ROUGE-1.5.5 tokens of a byte span: maximal [A-Za-z0-9] runs, ASCII-lowercased (every other
 * byte, '-' and each byte of a UTF-8 sequence included, is a separator: spec §4.1).  With send,
 * the span is read as lines split at "\n", and the token count at the end of each non-empty line
 * is pushed to send: the same as tokenizing each such line in turn, in one pass. */
static int tok_perl_lines(Ctx *c, const char *p, Py_ssize_t n, IVec *out, IVec *send) {
    WorkerObject *w = c->w;
    const unsigned char *u = (const unsigned char *)p;
    /* the span lowercased, separators as 0 bytes, then zeros to the end of the 64-byte block
     * holding byte n (a token ending at a block's end is closed by the next block) and 16 more (a
     * token's two head words are read whole); then the blocks' masks */
    Py_ssize_t padded = ((n >> 6) + 1) * 64 + 16, nblocks = (n >> 6) + 1;
    if (ensure_tbuf(c, padded + nblocks * 16) || reserve_tokens(c, out, n)) return -1;
    if (send && grow((void **)&send->v, &send->cap, send->n + n / 2 + 2, sizeof(int32_t))) { c->err = ERR_NOMEM; return -1; }
    unsigned char *b = (unsigned char *)w->tbuf;
    Py_ssize_t line_start = 0;   /* with send: where the current line begins */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (Py_ssize_t k = 0; k < n; k++) { c->high |= u[k] >= 0x80; b[k] = LOWER_ALNUM[u[k]]; }
    memset(b + n, 0, 16);
    Py_ssize_t i = 0;
    while (i < n) {
        if (!b[i]) {
            if (send && u[i] == '\n') {
                if (i > line_start) send->v[send->n++] = (int32_t)out->n;
                line_start = i + 1;
            }
            i++;
            continue;
        }
        Py_ssize_t s = i;
        while (b[i]) i++;
        if (emit(c, (const char *)b + s, i - s, head_of((const char *)b + s, i - s), out)) return -1;
    }
    if (send && n > line_start) send->v[send->n++] = (int32_t)out->n;
    return 0;
#else
    /* masks after the text's blocks, 8-byte aligned */
    uint64_t *masks = (uint64_t *)(void *)(b + padded), *nlm = send ? masks + nblocks : NULL;
    c->high |= lower_masks(u, n, b, masks, nlm);
    memset(b + padded - 16, 0, 16);
    /* Tokens from bit masks, 64 bytes at a time: M marks the nonzero bytes of a block, a start is
     * a 1 after a 0, an end a 0 after a 1.  Finding a token then depends on the masks only, not on
     * the previous token's length (a scan from token to token chains a load, a compare and a
     * count per token).  Starts and ends pair up in order; a run reaching the block's end stays
     * open (pending) into the next block.  Found tokens are hashed and their front slots
     * prefetched in batches, then looked up, the cache misses overlapped. */
    enum { BATCH = 32 };
    ScanTok t[BATCH];
    int nt = 0;
    Py_ssize_t pending = -1;
    uint64_t carry = 0;   /* the previous block's last byte is not 0 */
    for (Py_ssize_t base = 0; base <= n; base += 64) {
        uint64_t M = masks[base >> 6];
        uint64_t before = (M << 1) | carry;
        uint64_t starts = M & ~before, ends = ~M & before;
        uint64_t nl = nlm ? nlm[base >> 6] : 0;
        carry = M >> 63;
        while (ends | nl) {
            if (nl && (!ends || ctz64(nl) < ctz64(ends))) {
                /* a line ends before the next token does (a token ending at the "\n" is in it):
                 * its count once the batch is looked up */
                Py_ssize_t q = base + ctz64(nl);
                nl &= nl - 1;
                if (q > line_start) {
                    if (emit_batch(c, b, t, nt, out)) return -1;
                    nt = 0;
                    send->v[send->n++] = (int32_t)out->n;
                }
                line_start = q + 1;
                continue;
            }
            Py_ssize_t e = base + ctz64(ends), s;
            ends &= ends - 1;
            if (pending >= 0) { s = pending; pending = -1; }
            else { s = base + ctz64(starts); starts &= starts - 1; }
            Py_ssize_t len = e - s;
            /* masked through a table, not by tests of len: a token's length is a coin toss for
             * the branch predictor (news: 0.5 of the floor's 1.0 us/pair of scanning) */
            Py_ssize_t cl = len < 16 ? len : 16;
            uint64_t head = load64(b + s) & HEAD_MASK[cl], head2 = load64(b + s + 8) & HEAD2_MASK[cl];
            uint64_t h = hash_tok((const char *)b + s, len, head, head2);
#if defined(__GNUC__) || defined(__clang__)
            if (w->front) __builtin_prefetch(&w->front[h >> (64 - FRONT_BITS)]);
            /* and the interner's slot, for the tokens the front cache misses */
            if (w->in.tabcap) __builtin_prefetch(&w->in.tab[h & (uint64_t)(w->in.tabcap - 1)]);
#endif
            t[nt].h = h; t[nt].head = head; t[nt].head2 = head2; t[nt].s = s; t[nt].len = len;
            if (++nt == BATCH) {
                if (emit_batch(c, b, t, nt, out)) return -1;
                nt = 0;
            }
        }
        if (starts) pending = base + ctz64(starts);   /* at most one: its run reaches the block's end */
    }
    if (emit_batch(c, b, t, nt, out)) return -1;
    if (send && n > line_start) send->v[send->n++] = (int32_t)out->n;
    return 0;
#endif
}

static int tok_perl(Ctx *c, const char *p, Py_ssize_t n, IVec *out) { return tok_perl_lines(c, p, n, out, NULL); }

/* Whether u[0:n] holds U+0130 (C4 B0) or U+212A (E2 84 AA), the characters whose str.lower()
 * has ASCII letters. */
static int has_rs_ascii_lowering(const unsigned char *u, Py_ssize_t n) {
    static const unsigned char lead[2] = {0xC4, 0xE2};
    for (int k = 0; k < 2; k++) {
        const unsigned char *q = u, *end = u + n;
        while ((q = (const unsigned char *)memchr(q, lead[k], (size_t)(end - q))) != NULL) {
            if (k == 0 ? (end - q >= 2 && q[1] == 0xB0) : (end - q >= 3 && q[1] == 0x84 && q[2] == 0xAA)) return 1;
            q++;
        }
    }
    return 0;
}

/* rouge_score tokens of UTF-8 text: str.lower() then [^a-z0-9]+ -> space.  Only two non-ASCII
 * characters lowercase to ASCII letters: U+0130 -> "i" + U+0307 (which then separates) and
 * the Kelvin sign U+212A -> "k".  A text without them has tok_perl's tokens (every other
 * non-ASCII character lowercases to non-ASCII, a separator for both), and its scan over 64-byte
 * masks is 2-3x faster than this byte loop: read_text calls this one only for texts with them. */
static int tok_rs(Ctx *c, const char *p, Py_ssize_t n, IVec *out) {
    const unsigned char *u = (const unsigned char *)p;
    if (ensure_tbuf(c, n) || reserve_tokens(c, out, n)) return -1;
    char *b = c->w->tbuf;
    Py_ssize_t i = 0, len = 0;
    uint64_t head = 0;
#define RS_PUT(ch) { if (len < 8) head |= (uint64_t)(unsigned char)(ch) << (8 * len); b[len++] = (char)(ch); }
    while (i < n) {
        unsigned char ch = u[i];
        if (LOWER_ALNUM[ch]) { RS_PUT(LOWER_ALNUM[ch]); i++; continue; }
        if (ch == 0xC4 && i + 1 < n && u[i + 1] == 0xB0) {
            RS_PUT('i');
            if (emit(c, b, len, head, out)) return -1;
            len = 0;
            head = 0;
            i += 2;
            continue;
        }
        if (ch == 0xE2 && i + 2 < n && u[i + 1] == 0x84 && u[i + 2] == 0xAA) {
            RS_PUT('k');
            i += 3;
            continue;
        }
        if (len) {
            if (emit(c, b, len, head, out)) return -1;
            len = 0;
            head = 0;
        }
        i++;
    }
#undef RS_PUT
    if (len && emit(c, b, len, head, out)) return -1;
    return 0;
}

/* Number of Perl words of a sentence (split /\s+/: a leading empty field counts when real
 * fields follow, trailing empty fields do not) and the byte end of its first q words. */
static Py_ssize_t perl_words(const char *p, Py_ssize_t n, Py_ssize_t q, Py_ssize_t *end) {
    const unsigned char *u = (const unsigned char *)p;
    Py_ssize_t i = 0, real = 0;
    int lead = n > 0 && PERL_SPACE[u[0]];
    Py_ssize_t want = q - lead;   /* real fields to take */
    if (end) *end = 0;
    if (end && want <= 0) return 0;
    while (i < n) {
        while (i < n && PERL_SPACE[u[i]]) i++;
        if (i == n) break;
        while (i < n && !PERL_SPACE[u[i]]) i++;
        real++;
        if (end && real == want) { *end = i; return q; }
    }
    if (end) *end = n;
    return real + (real > 0 ? lead : 0);
}

static int push_line(Ctx *c, const char *p, Py_ssize_t n) {
    WorkerObject *w = c->w;
    if (w->nlines == w->linescap &&
        grow((void **)&w->lines, &w->linescap, w->nlines + 1, sizeof(Span))) { c->err = ERR_NOMEM; return -1; }
    w->lines[w->nlines].p = p;
    w->lines[w->nlines].n = n;
    w->nlines++;
    return 0;
}

static int split_lines(Ctx *c, const char *p, Py_ssize_t n) {
    const char *end = p + n;
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        if (stop > p && push_line(c, p, stop - p)) return -1;
        p = stop + 1;
    }
    return 0;
}

/* The joined reader under -l/-b (spec §4.2) over w->lines; sentence ends go to send when given
 * (under -l the sentence reader keeps exactly these sentences). */
static int joined_limited(Ctx *c, IVec *out, IVec *send) {
    WorkerObject *w = c->w;
    EngineObject *e = w->eng;
    Py_ssize_t used = 0;
    for (Py_ssize_t k = 0; k < w->nlines; k++) {
        const char *p = w->lines[k].p;
        Py_ssize_t n = w->lines[k].n, cut = n;
        int stop = 0;
        if (e->word_limit) {
            Py_ssize_t size = perl_words(p, n, 0, NULL);
            if (used + size < e->word_limit) used += size;
            else { perl_words(p, n, e->word_limit - used, &cut); stop = 1; }
        } else {
            if (used + n < e->byte_limit) used += n;
            else { cut = e->byte_limit - used; stop = 1; }
        }
        if (tok_perl(c, p, cut, out)) return -1;
        if (send && ivec_push(send, (int32_t)out->n)) { c->err = ERR_NOMEM; return -1; }
        if (stop) break;
    }
    return 0;
}

typedef struct { Span whole; Py_ssize_t first, count; int is_list; } Src;

static int collect_lines(Ctx *c, const Src *s, const Span *items, int split_items) {
    c->w->nlines = 0;
    if (!s->is_list) return split_lines(c, s->whole.p, s->whole.n);
    for (Py_ssize_t k = 0; k < s->count; k++) {
        const Span *it = &items[s->first + k];
        if (split_items) { if (split_lines(c, it->p, it->n)) return -1; }
        else if (it->n > 0 && push_line(c, it->p, it->n)) return -1;
    }
    return 0;
}
