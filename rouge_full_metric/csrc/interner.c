/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* token interner                                                                              */

/* The first 8 bytes of a token as a little-endian word (built byte by byte: a variable-length
 * memcpy into a stack word stalls on store forwarding). */
static inline uint64_t head_of(const char *s, Py_ssize_t n) {
    uint64_t x = 0;
    for (Py_ssize_t k = 0; k < n && k < 8; k++) x |= (uint64_t)(unsigned char)s[k] << (8 * k);
    return x;
}

/* Bytes 8-15 of a token as a little-endian word (0 for tokens of <= 8 bytes). */
static inline uint64_t head2_of(const char *s, Py_ssize_t n) {
    return n > 8 ? head_of(s + 8, n - 8) : 0;
}

/* The hash of a token from its first 16 bytes as two words (head, head2) and its length, with
 * no branch below 17 bytes (the scanner's common case); longer tokens mix in their other words. */
static inline uint64_t hash_tok(const char *s, Py_ssize_t n, uint64_t head, uint64_t head2) {
    uint64_t h = (head ^ ((uint64_t)n * 0x9E3779B97F4A7C15ULL)) * 0xc4ceb9fe1a85ec53ULL;
    h = (h ^ (h >> 32) ^ head2) * 0xff51afd7ed558ccdULL;
    for (Py_ssize_t k = 16; k < n; k += 8) h = (h ^ (h >> 32) ^ head_of(s + k, n - k)) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 29);
}

static inline uint64_t hash_bytes(const char *s, Py_ssize_t n) {
    return hash_tok(s, n, head_of(s, n), head2_of(s, n));
}

static void interner_free(Interner *in) {
    free(in->ent); free(in->tab); free(in->arena);
    memset(in, 0, sizeof(*in));
}

static int interner_rehash(Interner *in, Py_ssize_t newcap) {
    uint64_t *t = (uint64_t *)calloc((size_t)newcap, sizeof(uint64_t));
    if (!t) return -1;
    uint64_t mask = (uint64_t)newcap - 1;
    for (Py_ssize_t i = 0; i < in->nent; i++) {
        uint64_t h = in->ent[i].h, s = h & mask;
        while (t[s]) s = (s + 1) & mask;
        t[s] = (h & 0xFFFFFFFF00000000ULL) | (uint64_t)(i + 1);
    }
    free(in->tab);
    in->tab = t;
    in->tabcap = newcap;
    return 0;
}

/* Index of the entry for s, or -1 with *slotp the empty slot where it would go. */
static inline Py_ssize_t probe(const Interner *in, const char *s, Py_ssize_t n, uint64_t h, uint64_t head,
                               uint64_t head2, uint64_t *slotp) {
    uint64_t hi = h & 0xFFFFFFFF00000000ULL;
    uint64_t mask = (uint64_t)in->tabcap - 1, slot = h & mask;
    for (;;) {
        uint64_t e = in->tab[slot];
        if (!e) break;
        if ((e & 0xFFFFFFFF00000000ULL) == hi) {
            const Entry *en = &in->ent[(e & 0xFFFFFFFFULL) - 1];
            if (en->len == (uint32_t)n && en->head == head && en->head2 == head2 &&
                (n <= 16 || memcmp(in->arena + en->off + 16, s + 16, (size_t)(n - 16)) == 0))
                return (Py_ssize_t)(e & 0xFFFFFFFFULL) - 1;
        }
        slot = (slot + 1) & mask;
    }
    *slotp = slot;
    return -1;
}

/* Index of the entry for s (created with fin = init_fin, or fin = own index when init_fin is
 * -4), or -1 when out of memory. */
static Py_ssize_t intern_h(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin, uint64_t h, uint64_t head,
                           uint64_t head2) {
    if (in->tabcap == 0 && interner_rehash(in, 1024)) return -1;
    uint64_t slot = 0;
    Py_ssize_t found = probe(in, s, n, h, head, head2, &slot);
    if (found >= 0) return found;
    if (grow((void **)&in->ent, &in->capent, in->nent + 1, sizeof(Entry))) return -1;
    if (grow((void **)&in->arena, &in->acap, in->alen + n + 1, 1)) return -1;
    Py_ssize_t idx = in->nent++;
    Entry *en = &in->ent[idx];
    en->h = h;
    en->head = head;
    en->head2 = head2;
    en->off = (uint64_t)in->alen;
    en->len = (uint32_t)n;
    en->fin = init_fin == -4 ? (int32_t)idx : init_fin;
    memcpy(in->arena + in->alen, s, (size_t)n);
    in->alen += n;
    in->tab[slot] = (h & 0xFFFFFFFF00000000ULL) | (uint64_t)(idx + 1);
    if (in->nent * 2 > in->tabcap && interner_rehash(in, in->tabcap * 2)) return -1;
    return idx;
}

static Py_ssize_t intern(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin) {
    return intern_h(in, s, n, init_fin, hash_bytes(s, n), head_of(s, n), head2_of(s, n));
}

/* Index of the entry for s, or -1 when absent (never inserts: safe on a shared, read-only table). */
static Py_ssize_t lookup(const Interner *in, const char *s, Py_ssize_t n) {
    uint64_t slot, head = head_of(s, n), head2 = head2_of(s, n);
    return in->tabcap ? probe(in, s, n, hash_tok(s, n, head, head2), head, head2, &slot) : -1;
}
