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
    free(in->ent); huge_free(in->tabmem, in->tabmapped); free(in->arena);
    memset(in, 0, sizeof(*in));
}

/* Empty, keeping its memory (a parked Worker's: see worker_park). */
static void interner_clear(Interner *in) {
    if (in->tab) memset(in->tab, 0, (size_t)in->tabcap * sizeof(Slot));
    in->nent = 0;
    in->alen = 0;
}

/* Slot e for entry idx: its first 16 bytes, length, hash tag and final id beside the index. */
static inline void slot_fill(Slot *e, const Entry *en, Py_ssize_t idx) {
    e->head = en->head;
    e->head2 = en->head2;
    e->tag = (uint32_t)(en->h >> 32);
    e->len = en->len;
    e->idx1 = (uint32_t)(idx + 1);
    e->fin = en->fin;
}

/* Tables from this size on sit on 2 MB pages where the system has them (huge_alloc): the table
 * is written all over, so each of its 4 KB pages would be faulted in, and a Worker's first batch
 * makes its tables from 1,024 slots up (interner_next_cap).  News (30,000 tokens): the last
 * table is 2 MB, 512 faults, ~0.9 ms on the VMs measured against ~0.08 for one 2 MB page, in
 * every Worker of a new process. */
#define INTERN_HUGE_FROM HUGE_PAGE

static int interner_rehash(Interner *in, Py_ssize_t newcap) {
    void *mem;
    size_t mapped, bytes = (size_t)newcap * sizeof(Slot);
    Slot *t = (Slot *)huge_alloc(bytes, INTERN_HUGE_FROM, &mem, &mapped);
    if (!t) return -1;
    table_zero(t, 0, bytes);
    uint64_t mask = (uint64_t)newcap - 1;
    for (Py_ssize_t i = 0; i < in->nent; i++) {
        uint64_t s = in->ent[i].h & mask;
        while (t[s].idx1) s = (s + 1) & mask;
        slot_fill(&t[s], &in->ent[i], i);
    }
    huge_free(in->tabmem, in->tabmapped);
    in->tabmem = mem;
    in->tabmapped = mapped;
    in->tab = t;
    in->tabcap = newcap;
    return 0;
}

/* The capacity after cap: four times it below 1 MB of slots, twice from there.  A table below
 * 2 MB is new memory (bigger than every freed one before it), so doubling faulted in ~2 MB of
 * 4 KB pages before the first table on huge pages (news, a new interpreter's n_jobs=1 call: 446
 * of its 1,424 faults).  Quadrupling makes 32 KB, 128 KB, 512 KB and then the 2 MB table.  News,
 * n_jobs=2 in new interpreters (each Worker makes its own tables): 2,419 -> 2,078 faults, 0.35 ms
 * less wall time (paired median; 38 of 61 rounds faster); long texts 1,683 -> 1,329, 0.90 ms (27
 * of 41).  With one thread only 1,424 -> 1,370: the entries array used to grow into the freed
 * tables' pages. */
static inline Py_ssize_t interner_next_cap(Py_ssize_t cap) {
    if (!cap) return 1024;
    return (size_t)cap * sizeof(Slot) < INTERN_HUGE_FROM / 2 ? cap * 4 : cap * 2;
}

/* The slot holding s, or the empty slot where it would go (idx1 == 0). */
static inline Slot *probe(const Interner *in, const char *s, Py_ssize_t n, uint64_t h, uint64_t head,
                          uint64_t head2) {
    uint32_t tag = (uint32_t)(h >> 32);
    uint64_t mask = (uint64_t)in->tabcap - 1, slot = h & mask;
    for (;;) {
        Slot *e = &in->tab[slot];
        if (!e->idx1) return e;
        if (e->tag == tag && e->len == (uint32_t)n && e->head == head && e->head2 == head2 &&
            (n <= 16 || memcmp(in->arena + in->ent[e->idx1 - 1].off + 16, s + 16, (size_t)(n - 16)) == 0))
            return e;
        slot = (slot + 1) & mask;
    }
}

/* The slot of s's entry (created with fin = init_fin, or fin = own index when init_fin is -4),
 * or NULL when out of memory.  The pointer holds until the next insertion. */
static Slot *intern_slot(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin, uint64_t h, uint64_t head,
                         uint64_t head2) {
    if ((in->nent + 1) * 2 > in->tabcap && interner_rehash(in, interner_next_cap(in->tabcap))) return NULL;
    Slot *e = probe(in, s, n, h, head, head2);
    if (e->idx1) return e;
    if (grow((void **)&in->ent, &in->capent, in->nent + 1, sizeof(Entry))) return NULL;
    if (grow((void **)&in->arena, &in->acap, in->alen + n + 1, 1)) return NULL;
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
    slot_fill(e, en, idx);
    return e;
}

/* Index of the entry for s, or -1 when out of memory. */
static Py_ssize_t intern_h(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin, uint64_t h, uint64_t head,
                           uint64_t head2) {
    Slot *e = intern_slot(in, s, n, init_fin, h, head, head2);
    return e ? (Py_ssize_t)e->idx1 - 1 : -1;
}

static Py_ssize_t intern(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin) {
    return intern_h(in, s, n, init_fin, hash_bytes(s, n), head_of(s, n), head2_of(s, n));
}

/* Set entry idx's final id, in its entry and its slot. */
static void interner_set_fin(Interner *in, Py_ssize_t idx, int32_t fin) {
    Entry *en = &in->ent[idx];
    en->fin = fin;
    uint64_t mask = (uint64_t)in->tabcap - 1, slot = en->h & mask;
    while (in->tab[slot].idx1 != (uint32_t)(idx + 1)) slot = (slot + 1) & mask;
    in->tab[slot].fin = fin;
}

/* Index of the entry for s, or -1 when absent (never inserts: safe on a shared, read-only table). */
static Py_ssize_t lookup(const Interner *in, const char *s, Py_ssize_t n) {
    uint64_t head = head_of(s, n), head2 = head2_of(s, n);
    return in->tabcap ? (Py_ssize_t)probe(in, s, n, hash_tok(s, n, head, head2), head, head2)->idx1 - 1 : -1;
}
