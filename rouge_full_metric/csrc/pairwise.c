/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* pairwise ROUGE (pairwise.py: score_matrix, filter_near_duplicates)                            */
/*
 * A pair corpus holds texts tokenized once by one Worker, so that all their ids share one
 * vocabulary.  Kernels then score any (prediction, reference) pair of its texts with the GIL
 * released and no Python object per pair:
 *   rougeL   the bit-parallel LCS length (Hyyro) of the two flat token lists, the bit masks built
 *            once per row text (one word when it has <= 64 tokens, else one mask per distinct
 *            token and 64 columns);
 *   rouge<N> the clipped overlap of n-gram ids interned once per corpus (n = 1: the tokens);
 *   others   (rougeLsum, rougeW, rougeS) example_stats on the two texts, i.e. what Worker.run
 *            computes for that example with that single reference.
 * The score is score_from_counts of those statistics, as Worker.run gives it for one reference
 * (with one reference every multi_ref rule and jackknifing reduce to it).
 * Any Worker of the corpus's Engine can run the kernels (one thread per Worker): only its
 * vocabulary-indexed scratch arrays are grown to the corpus's vocabulary.
 */

typedef struct {
    EngineObject *eng;      /* strong reference */
    Py_ssize_t n;           /* texts */
    TextBuf *tb;            /* each text's readers (owned copies of the IVecs) */
    int32_t *unit;          /* fast kernels: the units (tokens, n-gram ids) of every text, back to back */
    Py_ssize_t *uoff;       /* text i's units: unit[uoff[i]:uoff[i+1]] */
    Py_ssize_t vocab;       /* token ids are < vocab */
    Py_ssize_t nunits;      /* unit ids are < nunits */
    Py_ssize_t maxunits;    /* the longest text, in units */
    int kind, gram, fast;   /* the Engine's single rouge type; fast: rougeL or rouge<N> */
} PairCorpus;

#define PAIR_CAPSULE "rouge_full_metric._core.PairCorpus"

static void pair_corpus_free(PyObject *capsule) {
    PairCorpus *pc = (PairCorpus *)PyCapsule_GetPointer(capsule, PAIR_CAPSULE);
    if (!pc) return;
    if (pc->tb) for (Py_ssize_t i = 0; i < pc->n; i++) textbuf_free(&pc->tb[i]);
    free(pc->tb); free(pc->unit); free(pc->uoff);
    Py_XDECREF(pc->eng);
    free(pc);
}

static int ivec_copy(IVec *dst, const IVec *src) {
    dst->n = dst->cap = 0;
    dst->v = (int32_t *)malloc((size_t)(src->n + 1) * sizeof(int32_t));
    if (!dst->v) return -1;
    if (src->n) memcpy(dst->v, src->v, (size_t)src->n * sizeof(int32_t));
    dst->n = src->n;
    dst->cap = src->n + 1;
    return 0;
}

/* Intern the n-grams (n >= 2) of every text's joined tokens into dense ids (exact: keys are
 * compared token by token). */
static int pair_intern_grams(PairCorpus *pc, int n) {
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < pc->n; i++) {
        Py_ssize_t T = pc->tb[i].tok.n;
        pc->uoff[i] = total;
        total += T >= n ? T - n + 1 : 0;
    }
    pc->uoff[pc->n] = total;
    pc->unit = (int32_t *)malloc((size_t)(total + 1) * sizeof(int32_t));
    Py_ssize_t cap = 16;
    while (cap < 2 * total + 2) cap *= 2;
    /* an entry: the first occurrence (text, position) + 1, 0 when empty */
    typedef struct { uint64_t h; Py_ssize_t text, pos; int32_t id; } GramSlot;
    GramSlot *tab = (GramSlot *)calloc((size_t)cap, sizeof(GramSlot));
    if (!pc->unit || !tab) { free(tab); return -1; }
    int32_t next = 0;
    for (Py_ssize_t i = 0; i < pc->n; i++) {
        const int32_t *t = pc->tb[i].tok.v;
        Py_ssize_t W = pc->uoff[i + 1] - pc->uoff[i];
        for (Py_ssize_t p = 0; p < W; p++) {
            uint64_t h = 0x9E3779B97F4A7C15ULL;
            for (int k = 0; k < n; k++) h = mix64(h ^ (uint32_t)t[p + k]) + (uint64_t)k;
            Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(cap - 1));
            for (;;) {
                GramSlot *g = &tab[s];
                if (g->text == 0) {
                    g->h = h; g->text = i + 1; g->pos = p; g->id = next++;
                    pc->unit[pc->uoff[i] + p] = g->id;
                    break;
                }
                if (g->h == h && memcmp(pc->tb[g->text - 1].tok.v + g->pos, t + p, (size_t)n * sizeof(int32_t)) == 0) {
                    pc->unit[pc->uoff[i] + p] = g->id;
                    break;
                }
                s = (s + 1) & (cap - 1);
            }
        }
    }
    free(tab);
    pc->nunits = next;
    return 0;
}

/* pair_corpus(worker, texts_a, texts_b or None) -> corpus (a capsule): the texts of a, then
 * those of b, tokenized by worker (which should be fresh: its vocabulary must not be reset
 * while the corpus is read).  Errors as Worker.run's (TypeError, ValueError, UnicodeError). */
static PyObject *mod_pair_corpus(PyObject *self, PyObject *args) {
    PyObject *wo, *ta, *tb_ = Py_None;
    if (!PyArg_ParseTuple(args, "O!O|O", &WorkerType, &wo, &ta, &tb_)) return NULL;
    WorkerObject *w = (WorkerObject *)wo;
    EngineObject *e = w->eng;
    if (e->ntypes != 1) { PyErr_SetString(PyExc_ValueError, "pair_corpus needs an Engine with one rouge type"); return NULL; }
    if (w->busy) { PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)"); return NULL; }
    PyObject *sa = PySequence_Fast(ta, "texts must be a sequence");
    if (!sa) return NULL;
    PyObject *sb = NULL;
    if (tb_ != Py_None && !(sb = PySequence_Fast(tb_, "texts must be a sequence"))) { Py_DECREF(sa); return NULL; }
    Py_ssize_t na = PySequence_Fast_GET_SIZE(sa), nb = sb ? PySequence_Fast_GET_SIZE(sb) : 0;
    PyObject *keep = PyList_New(0), *capsule = NULL;
    Span *items = NULL;
    Py_ssize_t nitems = 0, itemcap = 0;
    PairCorpus *pc = (PairCorpus *)calloc(1, sizeof(PairCorpus));
    if (!keep || !pc) { PyErr_NoMemory(); goto fail; }
    pc->n = na + nb;
    Py_INCREF(e);
    pc->eng = e;
    pc->kind = e->types[0].kind;
    pc->gram = e->types[0].n;
    pc->fast = pc->kind == K_L || pc->kind == K_N;
    pc->tb = (TextBuf *)calloc((size_t)(pc->n + 1), sizeof(TextBuf));
    pc->uoff = (Py_ssize_t *)malloc((size_t)(pc->n + 1) * sizeof(Py_ssize_t));
    if (!pc->tb || !pc->uoff) { PyErr_NoMemory(); goto fail; }
    if (grow((void **)&w->tb, &w->tbcap, 1, sizeof(TextBuf))) { PyErr_NoMemory(); goto fail; }
    if (w->ntb < w->tbcap) { memset(w->tb + w->ntb, 0, (size_t)(w->tbcap - w->ntb) * sizeof(TextBuf)); w->ntb = w->tbcap; }
    w->busy = 1;
    for (Py_ssize_t i = 0; i < pc->n; i++) {
        /* Ctrl-C while a large corpus is read (the GIL is held) */
        if ((i & 1023) == 1023 && PyErr_CheckSignals()) { w->busy = 0; goto fail; }
        worker_front(w);
        PyObject *o = i < na ? PySequence_Fast_GET_ITEM(sa, i) : PySequence_Fast_GET_ITEM(sb, i - na);
        Src src;
        nitems = 0;
        if (PyList_SetSlice(keep, 0, PyList_GET_SIZE(keep), NULL)) { w->busy = 0; goto fail; }
        if (text_spans(e, o, &src, &items, &nitems, &itemcap, keep)) { w->busy = 0; goto fail; }
        Ctx c = {w, NULL, 0, 0};
        TextBuf *s = &w->tb[0];
        read_text(&c, &src, items, s);
        if (c.err) { w->busy = 0; if (c.err == ERR_NOMEM) PyErr_NoMemory(); goto fail; }
        TextBuf *d = &pc->tb[i];
        d->stok_alias = s->stok_alias;
        d->ftok_alias = s->ftok_alias;
        if (ivec_copy(&d->tok, &s->tok) || ivec_copy(&d->send, &s->send) ||
            (!s->stok_alias && ivec_copy(&d->stok, &s->stok)) || (!s->ftok_alias && ivec_copy(&d->ftok, &s->ftok))) {
            w->busy = 0;
            PyErr_NoMemory();
            goto fail;
        }
    }
    w->busy = 0;
    pc->vocab = w->in.nent;
    if (pc->kind == K_N && pc->gram >= 2) {
        if (pair_intern_grams(pc, pc->gram)) { PyErr_NoMemory(); goto fail; }
    } else {
        Py_ssize_t total = 0;
        for (Py_ssize_t i = 0; i < pc->n; i++) {
            pc->uoff[i] = total;
            total += pc->kind == K_L ? FLAT(&pc->tb[i])->n : pc->tb[i].tok.n;
        }
        pc->uoff[pc->n] = total;
        pc->unit = (int32_t *)malloc((size_t)(total + 1) * sizeof(int32_t));
        if (!pc->unit) { PyErr_NoMemory(); goto fail; }
        for (Py_ssize_t i = 0; i < pc->n; i++) {
            const IVec *v = pc->kind == K_L ? FLAT(&pc->tb[i]) : &pc->tb[i].tok;
            if (v->n) memcpy(pc->unit + pc->uoff[i], v->v, (size_t)v->n * sizeof(int32_t));
        }
        pc->nunits = pc->vocab;
    }
    for (Py_ssize_t i = 0; i < pc->n; i++)
        if (pc->uoff[i + 1] - pc->uoff[i] > pc->maxunits) pc->maxunits = pc->uoff[i + 1] - pc->uoff[i];
    capsule = PyCapsule_New(pc, PAIR_CAPSULE, pair_corpus_free);
    if (!capsule) goto fail;
    pc = NULL;
fail:
    if (pc) {
        if (pc->tb) for (Py_ssize_t i = 0; i < pc->n; i++) textbuf_free(&pc->tb[i]);
        free(pc->tb); free(pc->unit); free(pc->uoff);
        Py_XDECREF(pc->eng);
        free(pc);
    }
    Py_XDECREF(keep);
    free(items);
    Py_DECREF(sa);
    Py_XDECREF(sb);
    return capsule;
}

/* Kernel state of one call: scratch indexed by unit id (neutral between rows). */
typedef struct {
    const PairCorpus *pc;
    WorkerObject *w;
    EngineObject *e;
    uint64_t *mask;          /* rougeL, row of <= 64 units: columns of each unit (0 between rows) */
    int32_t *slot;           /* rougeL, longer row: unit -> mask index (-1 between rows) */
    uint64_t *mw; Py_ssize_t mwcap;
    uint64_t *V; Py_ssize_t Vcap;
    int32_t *cnt;            /* rouge<N> (and the rougeL overlap bound): row unit counts (0 between rows) */
    int32_t *log; Py_ssize_t logcap;
    Py_ssize_t row, rlen, words;
    int use_cnt;
    double weight;
    /* the chosen measure of (row length, other text's length, hits), memoized: the roles are
     * fixed per call, so this is all the score depends on */
    struct PairMemo { uint64_t key; double v; } *memo;   /* key + 1; 0: empty */
    int measure, row_is_pred;
    Py_ssize_t *order;       /* pair_matrix: columns by length, for the four-lane LCS */
    unsigned char *vm, *vmraw;  /* row groups: 32 bytes per unit, 32-byte aligned (0 between groups) */
    uint64_t *present;       /* row groups: a bit per unit that some row of the group holds */
} PairK;

#define PAIR_MEMO_BITS 11

static void pairk_free(PairK *k) {
    free(k->mask); free(k->slot); free(k->mw); free(k->V); free(k->cnt); free(k->log); free(k->memo); free(k->order); free(k->vmraw); free(k->present);
}

static int pairk_init(PairK *k, const PairCorpus *pc, WorkerObject *w, int with_counts, int measure, int row_is_pred) {
    memset(k, 0, sizeof(*k));
    k->pc = pc;
    k->w = w;
    k->e = pc->eng;
    k->row = -1;
    k->measure = measure;
    k->row_is_pred = row_is_pred;
    if (!(k->memo = (struct PairMemo *)calloc((size_t)1 << PAIR_MEMO_BITS, sizeof(struct PairMemo)))) return -1;
    k->weight = pc->kind == K_W ? pc->eng->types[0].weight : 0.0;
    if (!pc->fast) return reserve_vocab(w, pc->vocab);
    Py_ssize_t nu = pc->nunits + 1;
    k->use_cnt = pc->kind == K_N || with_counts;
    if (pc->kind == K_L) {
        k->mask = (uint64_t *)calloc((size_t)nu, sizeof(uint64_t));
        k->slot = (int32_t *)malloc((size_t)nu * sizeof(int32_t));
        if (!k->mask || !k->slot) return -1;
        for (Py_ssize_t i = 0; i < nu; i++) k->slot[i] = -1;
    }
    if (k->use_cnt && !(k->cnt = (int32_t *)calloc((size_t)nu, sizeof(int32_t)))) return -1;
    if (grow((void **)&k->log, &k->logcap, pc->maxunits + 1, sizeof(int32_t))) return -1;
    return 0;
}

static inline Py_ssize_t pair_units(const PairCorpus *pc, Py_ssize_t i) { return pc->uoff[i + 1] - pc->uoff[i]; }

/* Make text i the row: its masks and/or counts. */
static int pairk_set_row(PairK *k, Py_ssize_t i) {
    const PairCorpus *pc = k->pc;
    k->row = i;
    if (!pc->fast) return 0;
    const int32_t *u = pc->unit + pc->uoff[i];
    Py_ssize_t m = pair_units(pc, i);
    k->rlen = m;
    if (k->use_cnt) for (Py_ssize_t j = 0; j < m; j++) k->cnt[u[j]]++;
    if (pc->kind != K_L) return 0;
    if (m <= 64) {
        for (Py_ssize_t j = 0; j < m; j++) k->mask[u[j]] |= 1ULL << j;
        k->words = 1;
        return 0;
    }
    Py_ssize_t words = (m + 63) >> 6, nd = 0;
    k->words = words;
    if (grow((void **)&k->mw, &k->mwcap, (m + 1) * words, 8) || grow((void **)&k->V, &k->Vcap, words + 1, 8)) return -1;
    for (Py_ssize_t j = 0; j < m; j++) {
        int32_t t = u[j];
        if (k->slot[t] < 0) { k->slot[t] = (int32_t)nd; memset(k->mw + nd * words, 0, (size_t)words * 8); nd++; }
        k->mw[k->slot[t] * words + (j >> 6)] |= 1ULL << (j & 63);
    }
    return 0;
}

static void pairk_clear_row(PairK *k) {
    const PairCorpus *pc = k->pc;
    if (k->row < 0 || !pc->fast) { k->row = -1; return; }
    const int32_t *u = pc->unit + pc->uoff[k->row];
    Py_ssize_t m = k->rlen;
    if (k->use_cnt) for (Py_ssize_t j = 0; j < m; j++) k->cnt[u[j]] = 0;
    if (pc->kind == K_L) {
        if (m <= 64) for (Py_ssize_t j = 0; j < m; j++) k->mask[u[j]] = 0;
        else for (Py_ssize_t j = 0; j < m; j++) k->slot[u[j]] = -1;
    }
    k->row = -1;
}

/* Clipped overlap of text j's units with the row's (the counts are restored). */
static inline Py_ssize_t pairk_overlap(PairK *k, Py_ssize_t j) {
    const int32_t *u = k->pc->unit + k->pc->uoff[j];
    Py_ssize_t n = pair_units(k->pc, j), h = 0;
    int32_t *cnt = k->cnt, *log = k->log;
    for (Py_ssize_t q = 0; q < n; q++) {
        int32_t t = u[q];
        if (cnt[t] > 0) { cnt[t]--; log[h++] = t; }
    }
    for (Py_ssize_t q = 0; q < h; q++) cnt[log[q]]++;
    return h;
}

/* LCS length of text j's units against the row's. */
static inline Py_ssize_t pairk_lcs(PairK *k, Py_ssize_t j) {
    const int32_t *u = k->pc->unit + k->pc->uoff[j];
    Py_ssize_t n = pair_units(k->pc, j), m = k->rlen;
    if (m == 0 || n == 0) return 0;
    if (m <= 64) {
        const uint64_t *mask = k->mask;
        uint64_t V = ~0ULL;
        for (Py_ssize_t q = 0; q < n; q++) {
            uint64_t M = mask[u[q]], U = V & M;
            V = (V + U) | (V - U);
        }
        return popc64(~V & low_bits(m));
    }
    Py_ssize_t words = k->words;
    uint64_t *V = k->V;
    for (Py_ssize_t x = 0; x < words; x++) V[x] = ~0ULL;
    for (Py_ssize_t q = 0; q < n; q++) {
        int32_t s = k->slot[u[q]];
        if (s < 0) continue;
        lcs_step(V, V, k->mw + (Py_ssize_t)s * words, words);   /* in place: word x reads only V[x] */
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t x = 0; x < words; x++) {
        uint64_t valid = x + 1 < words || (m & 63) == 0 ? ~0ULL : (1ULL << (m & 63)) - 1;
        total += popc64(~V[x] & valid);
    }
    return total;
}

static inline double pick(SC s, int measure) { return measure == 0 ? s.p : measure == 1 ? s.r : s.f; }

/* The measure of the row against text j (fast kernels) given the hits h. */
static inline double pairk_value_len(PairK *k, Py_ssize_t rowlen, Py_ssize_t lj, Py_ssize_t h) {
    if (h == 0) return 0.0;   /* P = R = F = 0 in every flavor */
    struct PairMemo *m = NULL;
    uint64_t key = 0;
    if (rowlen < ((Py_ssize_t)1 << 21) && lj < ((Py_ssize_t)1 << 21)) {
        key = (((uint64_t)rowlen << 42) | ((uint64_t)lj << 21) | (uint64_t)h) + 1;
        m = &k->memo[((key * 0x9E3779B97F4A7C15ULL) >> (64 - PAIR_MEMO_BITS))];
        if (m->key == key) return m->v;
    }
    SC s = k->row_is_pred ? score_from_counts(k->e, (double)h, (double)lj, (double)rowlen, 0.0)
                          : score_from_counts(k->e, (double)h, (double)rowlen, (double)lj, 0.0);
    double v = pick(s, k->measure);
    if (m) { m->key = key; m->v = v; }
    return v;
}

static inline double pairk_value(PairK *k, Py_ssize_t j, Py_ssize_t h) {
    return pairk_value_len(k, k->rlen, pair_units(k->pc, j), h);
}

/* LCS lengths of four texts against a row of <= 64 units, interleaved (the four dependency
 * chains overlap); a text that has ended reads the sentinel unit nunits, whose mask is 0. */
static inline void pairk_lcs4(PairK *k, const Py_ssize_t *js, Py_ssize_t *h) {
    const PairCorpus *pc = k->pc;
    const uint64_t *mask = k->mask;
    const int32_t *u0 = pc->unit + pc->uoff[js[0]], *u1 = pc->unit + pc->uoff[js[1]];
    const int32_t *u2 = pc->unit + pc->uoff[js[2]], *u3 = pc->unit + pc->uoff[js[3]];
    Py_ssize_t n0 = pair_units(pc, js[0]), n1 = pair_units(pc, js[1]), n2 = pair_units(pc, js[2]), n3 = pair_units(pc, js[3]);
    Py_ssize_t n = n0, lo = n0;
    if (n1 > n) n = n1;
    if (n2 > n) n = n2;
    if (n3 > n) n = n3;
    if (n1 < lo) lo = n1;
    if (n2 < lo) lo = n2;
    if (n3 < lo) lo = n3;
    const int32_t sent = (int32_t)pc->nunits;
    uint64_t V0 = ~0ULL, V1 = ~0ULL, V2 = ~0ULL, V3 = ~0ULL;
#define LANE(V, M) { uint64_t M_ = (M), U_ = V & M_; V = (V + U_) | (V - U_); }
    Py_ssize_t q = 0;
    for (; q < lo; q++) {
        LANE(V0, mask[u0[q]]); LANE(V1, mask[u1[q]]); LANE(V2, mask[u2[q]]); LANE(V3, mask[u3[q]]);
    }
    for (; q < n; q++) {
        LANE(V0, mask[q < n0 ? u0[q] : sent]); LANE(V1, mask[q < n1 ? u1[q] : sent]);
        LANE(V2, mask[q < n2 ? u2[q] : sent]); LANE(V3, mask[q < n3 ? u3[q] : sent]);
    }
#undef LANE
    uint64_t valid = low_bits(k->rlen);
    h[0] = popc64(~V0 & valid); h[1] = popc64(~V1 & valid); h[2] = popc64(~V2 & valid); h[3] = popc64(~V3 & valid);
}

/* Row groups: up to 8 row texts of <= 32 units (32-bit lanes) or 4 of <= 64 (64-bit lanes) run
 * against one column text at once, their masks interleaved per unit (vm[t] holds row l's
 * columns of unit t in lane l), so that one load serves every lane and the lanes' LCS steps are
 * vector operations (GCC/Clang vector extensions: SSE2/AVX2/NEON as the target allows). */
typedef struct { Py_ssize_t text[8], len[8]; int n, wide; } PairGroup;

#if (defined(__GNUC__) || defined(__clang__)) && !defined(ROUGE_FULL_METRIC_NO_LANES)
#define PAIR_LANES 1
/* 16-byte vectors (SSE2, NEON): two per group, kept in registers */
typedef uint32_t pv32 __attribute__((vector_size(16), may_alias));
typedef uint64_t pv64 __attribute__((vector_size(16), may_alias));
#else
#define PAIR_LANES 0
#endif

static int pairk_vm(PairK *k) {
    if (k->vm) return 0;
    size_t size = (size_t)(k->pc->nunits + 1) * 32 + 32;
    k->vmraw = (unsigned char *)calloc(size, 1);
    k->present = (uint64_t *)calloc((size_t)(k->pc->nunits >> 6) + 2, 8);
    if (!k->vmraw || !k->present) return -1;
    k->vm = (unsigned char *)(((uintptr_t)k->vmraw + 31) & ~(uintptr_t)31);
    return 0;
}

static void group_set(PairK *k, const PairGroup *g) {
    const PairCorpus *pc = k->pc;
    for (int l = 0; l < g->n; l++) {
        const int32_t *u = pc->unit + pc->uoff[g->text[l]];
        for (Py_ssize_t j = 0; j < g->len[l]; j++) {
            unsigned char *cell = k->vm + (size_t)u[j] * 32;
            k->present[u[j] >> 6] |= 1ULL << (u[j] & 63);
            if (g->wide) { uint64_t x; memcpy(&x, cell + 8 * l, 8); x |= 1ULL << j; memcpy(cell + 8 * l, &x, 8); }
            else { uint32_t x; memcpy(&x, cell + 4 * l, 4); x |= 1U << j; memcpy(cell + 4 * l, &x, 4); }
        }
    }
}

static void group_clear(PairK *k, const PairGroup *g) {
    const PairCorpus *pc = k->pc;
    for (int l = 0; l < g->n; l++) {
        const int32_t *u = pc->unit + pc->uoff[g->text[l]];
        for (Py_ssize_t j = 0; j < g->len[l]; j++) {
            memset(k->vm + (size_t)u[j] * 32, 0, 32);
            k->present[u[j] >> 6] = 0;
        }
    }
}

#if PAIR_LANES
/* t if some row holds unit t, else the sentinel (branch-free: which one is unpredictable) */
static inline size_t group_unit(const uint64_t *present, int32_t t, int32_t sent) {
    uint64_t keep = 0 - ((present[t >> 6] >> (t & 63)) & 1);
    return (size_t)(((uint64_t)(uint32_t)t & keep) | ((uint64_t)(uint32_t)sent & ~keep));
}

/* LCS lengths of column text j against each row of the group. */
static inline void group_lcs(PairK *k, const PairGroup *g, Py_ssize_t j, Py_ssize_t *h) {
    const PairCorpus *pc = k->pc;
    const int32_t *u = pc->unit + pc->uoff[j];
    Py_ssize_t n = pair_units(pc, j);
    const uint64_t *present = k->present;
    const int32_t sent = (int32_t)pc->nunits;
    /* a unit no row holds reads the sentinel's zero mask (cached) rather than its own (a cache
     * miss for a rare unit) */
#define GROUP_UNIT(t) group_unit(present, (t), sent)
    uint64_t out[4];
    if (!g->wide) {
        const pv32 *vm = (const pv32 *)k->vm;
        pv32 A = ~(pv32){0, 0, 0, 0}, B = A;
        for (Py_ssize_t q = 0; q < n; q++) {
            const pv32 *M = vm + 2 * (size_t)GROUP_UNIT(u[q]);
            pv32 MA = M[0], MB = M[1], UA = A & MA, UB = B & MB;
            A = (A + UA) | (A - UA);
            B = (B + UB) | (B - UB);
        }
        pv32 res[2];   /* A and B themselves never have their address taken: registers */
        res[0] = A;
        res[1] = B;
        const uint32_t *lanes = (const uint32_t *)res;
        for (int l = 0; l < g->n; l++) {
            uint32_t valid = g->len[l] >= 32 ? 0xFFFFFFFFU : (1U << g->len[l]) - 1;
            h[l] = popc64((uint64_t)(~lanes[l] & valid));
        }
    } else {
        const pv64 *vm = (const pv64 *)k->vm;
        pv64 A = ~(pv64){0, 0}, B = A;
        for (Py_ssize_t q = 0; q < n; q++) {
            const pv64 *M = vm + 2 * (size_t)GROUP_UNIT(u[q]);
            pv64 MA = M[0], MB = M[1], UA = A & MA, UB = B & MB;
            A = (A + UA) | (A - UA);
            B = (B + UB) | (B - UB);
        }
        pv64 res[2];
        res[0] = A;
        res[1] = B;
        memcpy(out, res, 32);
        for (int l = 0; l < g->n; l++) h[l] = popc64(~out[l] & low_bits(g->len[l]));
    }
#undef GROUP_UNIT
}
#endif

/* Row texts (indices into pc) split into groups: those of <= 32 units by eights, of 33..64 by
 * fours (in the order given); the longer ones are left for the one-row kernels.  Returns the
 * number of groups written to gs (room: n / 4 + 2), the long rows to rest (*nrest). */
static Py_ssize_t make_groups(const PairCorpus *pc, const Py_ssize_t *rows, Py_ssize_t n, PairGroup *gs,
                              Py_ssize_t *rest, Py_ssize_t *nrest) {
    Py_ssize_t ng = 0;
    *nrest = 0;
    PairGroup cur[2];
    cur[0].n = cur[1].n = 0;
    cur[0].wide = 0;
    cur[1].wide = 1;
    for (Py_ssize_t x = 0; x < n; x++) {
        Py_ssize_t t = rows[x], len = pair_units(pc, t);
        if (len > 64 || !PAIR_LANES) { rest[(*nrest)++] = t; continue; }
        PairGroup *g = &cur[len > 32];
        g->text[g->n] = t;
        g->len[g->n] = len;
        if (++g->n == (g->wide ? 4 : 8)) { gs[ng++] = *g; g->n = 0; }
    }
    for (int w = 0; w < 2; w++) if (cur[w].n) gs[ng++] = cur[w];
    return ng;
}

/* The measure of prediction p against reference r, one of which is the row. */
static int pairk_score(PairK *k, Py_ssize_t p, Py_ssize_t r, double *out) {
    const PairCorpus *pc = k->pc;
    if (pc->fast) {
        Py_ssize_t other = p == k->row && k->row_is_pred ? r : p;
        /* a long row's cell is costly enough to count (callers stop on k->w->stop); short rows
         * are counted per row by the callers */
        if (k->words > 1) worker_poll(k->w, k->words * pair_units(pc, other));
        *out = pairk_value(k, other, pc->kind == K_L ? pairk_lcs(k, other) : pairk_overlap(k, other));
        return 0;
    }
    TextBuf two[2];
    two[0] = pc->tb[p];
    two[1] = pc->tb[r];
    PS st[2];
    if (example_stats(k->w, two, 1, st)) return -1;
    /* one reference: every multi_ref rule and jackknifing reduce to the plain score */
    *out = pick(score_from_counts(k->e, st[0].h, st[0].rc, st[0].pc, k->weight), k->measure);
    return 0;
}

/* Does a pair with h <= hub (units: lr of the reference, lp of the prediction) possibly score
 * >= threshold?  The margin covers 5-decimal rounding and the last bits of the F formulas,
 * so a pair whose score reaches the threshold is never refused. */
static inline int pair_may_reach(EngineObject *e, double hub, Py_ssize_t lr, Py_ssize_t lp, int measure, double threshold) {
    SC s = score_from_counts(e, hub, (double)lr, (double)lp, 0.0);
    return pick(s, measure) >= threshold - 2e-5;
}

static int get_buf(PyObject *o, Py_buffer *view, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)) return -1;
    if (view->itemsize != 8 || view->len < need * 8) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: need a writable contiguous buffer of %zd 8-byte items", what, need);
        return -1;
    }
    return 0;
}

static PairCorpus *corpus_of(PyObject *capsule, WorkerObject *w) {
    PairCorpus *pc = (PairCorpus *)PyCapsule_GetPointer(capsule, PAIR_CAPSULE);
    if (pc && pc->eng != w->eng) {
        PyErr_SetString(PyExc_ValueError, "the Worker and the corpus belong to different Engines");
        return NULL;
    }
    return pc;
}

/* pair_matrix(worker, corpus, a_base, b_base, ncols, r0, r1, measure, out): for rows
 * r0 <= r < r1 and columns 0 <= c < ncols, out[r * ncols + c] = the score (0: precision,
 * 1: recall, 2: F) of prediction a_base + r against reference b_base + c. */
static PyObject *mod_pair_matrix(PyObject *self, PyObject *args) {
    PyObject *wo, *co, *outo, *cancel = NULL;
    Py_ssize_t a_base, b_base, ncols, r0, r1;
    int measure;
    if (!PyArg_ParseTuple(args, "O!OnnnnniO|O!", &WorkerType, &wo, &co, &a_base, &b_base, &ncols, &r0, &r1,
                          &measure, &outo, &PyByteArray_Type, &cancel)) return NULL;
    if (cancel && PyByteArray_GET_SIZE(cancel) < 1) { PyErr_SetString(PyExc_ValueError, "cancel: need one byte"); return NULL; }
    WorkerObject *w = (WorkerObject *)wo;
    PairCorpus *pc = corpus_of(co, w);
    if (!pc) return NULL;
    if (a_base < 0 || b_base < 0 || ncols < 0 || r0 < 0 || r1 < r0 || a_base + r1 > pc->n || b_base + ncols > pc->n ||
        measure < 0 || measure > 2) {
        PyErr_SetString(PyExc_ValueError, "pair_matrix: bounds out of range");
        return NULL;
    }
    if (w->busy) { PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)"); return NULL; }
    Py_buffer out;
    if (get_buf(outo, &out, r1 * ncols, "out")) return NULL;
    double *o = (double *)out.buf;
    PairK k;
    int err = 0;
    w->busy = 1;
    Ctx ctx;
    poll_begin_nogil(w, &ctx, cancel);
    Py_ssize_t colunits = pc->uoff[b_base + ncols] - pc->uoff[b_base] + ncols;
    if (pairk_init(&k, pc, w, 0, measure, 1)) err = 1;
    int lanes = !err && pc->kind == K_L && ncols >= 4;
    if (lanes) {
        /* the columns by length (counting sort), so that four neighbours end together */
        Py_ssize_t *cnt = (Py_ssize_t *)calloc((size_t)pc->maxunits + 2, sizeof(Py_ssize_t));
        k.order = (Py_ssize_t *)malloc((size_t)ncols * sizeof(Py_ssize_t));
        if (!cnt || !k.order) { free(cnt); err = 1; }
        else {
            for (Py_ssize_t c = 0; c < ncols; c++) cnt[pair_units(pc, b_base + c) + 1]++;
            for (Py_ssize_t x = 1; x <= pc->maxunits + 1; x++) cnt[x] += cnt[x - 1];
            for (Py_ssize_t c = 0; c < ncols; c++) k.order[cnt[pair_units(pc, b_base + c)]++] = c;
            free(cnt);
        }
    }
    Py_ssize_t *rest = NULL, nrest = 0;
    PairGroup *gs = NULL;
    if (!err && PAIR_LANES && pc->kind == K_L && r1 > r0) {
        /* rows of <= 64 units in groups (one column pass serves 4 or 8 rows), the others below */
        Py_ssize_t nr = r1 - r0;
        Py_ssize_t *rows = (Py_ssize_t *)malloc((size_t)nr * sizeof(Py_ssize_t));
        rest = (Py_ssize_t *)malloc((size_t)nr * sizeof(Py_ssize_t));
        gs = (PairGroup *)malloc((size_t)(nr / 4 + 2) * sizeof(PairGroup));
        if (!rows || !rest || !gs || pairk_vm(&k)) err = 1;
        else {
            for (Py_ssize_t r = 0; r < nr; r++) rows[r] = a_base + r0 + r;
            Py_ssize_t ng = make_groups(pc, rows, nr, gs, rest, &nrest);
#if PAIR_LANES
            for (Py_ssize_t gi = 0; gi < ng && !worker_poll(w, colunits); gi++) {
                PairGroup *g = &gs[gi];
                group_set(&k, g);
                for (Py_ssize_t c = 0; c < ncols; c++) {
                    Py_ssize_t h[8], j = b_base + c, lc = pair_units(pc, j);
                    group_lcs(&k, g, j, h);
                    for (int l = 0; l < g->n; l++)
                        o[(g->text[l] - a_base) * ncols + c] = pairk_value_len(&k, g->len[l], lc, h[l]);
                }
                group_clear(&k, g);
            }
#else
            (void)ng;
#endif
        }
        free(rows);
    }
    for (Py_ssize_t x = 0; !err && !w->stop && x < (rest ? nrest : r1 - r0); x++) {
        Py_ssize_t r = rest ? rest[x] - a_base : r0 + x;
        Py_ssize_t p = a_base + r;
        if (pairk_set_row(&k, p)) { err = 1; break; }
        double *row = o + r * ncols;
        Py_ssize_t c = 0;
        if (lanes && k.rlen <= 64) {
            worker_poll(w, colunits);
            for (; c + 4 <= ncols; c += 4) {
                Py_ssize_t js[4], h[4];
                for (int l = 0; l < 4; l++) js[l] = b_base + k.order[c + l];
                pairk_lcs4(&k, js, h);
                for (int l = 0; l < 4; l++) row[k.order[c + l]] = pairk_value(&k, js[l], h[l]);
            }
            for (; c < ncols; c++) {
                Py_ssize_t j = b_base + k.order[c];
                row[k.order[c]] = pairk_value(&k, j, pairk_lcs(&k, j));
            }
        }
        if (c < ncols) worker_poll(w, colunits);
        for (; c < ncols && !w->stop; c++)
            if (pairk_score(&k, p, b_base + c, &row[c])) { err = 1; break; }
        pairk_clear_row(&k);
    }
    free(rest);
    free(gs);
    pairk_free(&k);
    int stopped = poll_end_nogil(w, &ctx);
    w->busy = 0;
    PyBuffer_Release(&out);
    if (stopped) return NULL;   /* KeyboardInterrupt (or the handler's exception) is set */
    if (err) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* The lengths (units) lk of a kept text that may reach the threshold against a new text of lq
 * units: h <= min(lq, lk), a bound that rises with lk up to lq and falls after it, so they
 * form one interval [*lo, *hi] (empty: *lo > *hi), found by bisection. */
static void pair_interval(EngineObject *e, Py_ssize_t lq, Py_ssize_t maxunits, int measure, double threshold,
                          Py_ssize_t *lo, Py_ssize_t *hi) {
    if (!pair_may_reach(e, (double)lq, lq, lq, measure, threshold)) { *lo = 1; *hi = 0; return; }
    Py_ssize_t a = 0, b = lq;   /* the smallest lk <= lq that may reach */
    while (a < b) {
        Py_ssize_t mid = (a + b) / 2;
        if (pair_may_reach(e, (double)mid, lq, mid, measure, threshold)) b = mid; else a = mid + 1;
    }
    *lo = a;
    a = lq; b = maxunits > lq ? maxunits : lq;   /* the largest lk >= lq that may reach */
    while (a < b) {
        Py_ssize_t mid = a + (b - a + 1) / 2;
        if (pair_may_reach(e, (double)lq, lq, mid, measure, threshold)) a = mid; else b = mid - 1;
    }
    *hi = a;
}

/* The first kept[x] (scan_from <= x < nkept) whose score as the prediction against new text q
 * reaches the threshold: *found (-1: none) and its score. */
static int filter_query(PairK *k, Py_ssize_t q, const int64_t *kept, Py_ssize_t scan_from, Py_ssize_t nkept,
                        double threshold, Py_ssize_t *found, double *value) {
    const PairCorpus *pc = k->pc;
    EngineObject *e = pc->eng;
    int measure = k->measure, err = 0;
    *found = -1;
    *value = 0.0;
    if (pairk_set_row(k, q)) return -1;
    Py_ssize_t lq = pair_units(pc, q), minlen = 0, maxlen = pc->maxunits;
    if (pc->fast) pair_interval(e, lq, pc->maxunits, measure, threshold, &minlen, &maxlen);
    int overlap_bound = pc->kind == K_L && k->use_cnt && lq > 64;
    int lanes = pc->kind == K_L && lq <= 64;
    Py_ssize_t js[4], nl = 0, acc = 0;
    for (Py_ssize_t x = scan_from; x < nkept && *found < 0; x++) {
        Py_ssize_t kk = (Py_ssize_t)kept[x];
        if (POLL_LOOP(k->w, acc, (k->words + 1) * pair_units(pc, kk) + 1)) break;
        if (pc->fast) {
            Py_ssize_t lk = pair_units(pc, kk);
            if (lk < minlen || lk > maxlen) continue;
            if (overlap_bound && !pair_may_reach(e, (double)pairk_overlap(k, kk), lq, lk, measure, threshold)) continue;
        }
        if (lanes) {
            /* four candidates at a time, checked in order */
            js[nl++] = kk;
            if (nl < 4) continue;
            Py_ssize_t h[4];
            pairk_lcs4(k, js, h);
            nl = 0;
            for (int l = 0; l < 4; l++) {
                double v = pairk_value(k, js[l], h[l]);
                if (v >= threshold) { *found = js[l]; *value = v; break; }
            }
            continue;
        }
        double v;
        if (pairk_score(k, kk, q, &v)) { err = 1; break; }
        if (v >= threshold) { *found = kk; *value = v; break; }
    }
    for (Py_ssize_t l = 0; l < nl && *found < 0 && !k->w->stop; l++) {
        double v = pairk_value(k, js[l], pairk_lcs(k, js[l]));
        if (v >= threshold) { *found = js[l]; *value = v; }
    }
    pairk_clear_row(k);
    return err ? -1 : 0;
}

#if PAIR_LANES
/* filter_query for every new text of a row group at once (rougeL): one pass over the kept
 * texts, each lane stopping at its own first match. */
static void filter_group(PairK *k, const PairGroup *g, const int64_t *kept, Py_ssize_t scan_from, Py_ssize_t nkept,
                         double threshold, int64_t *match, double *score) {
    const PairCorpus *pc = k->pc;
    Py_ssize_t mn[8], mx[8], hull_lo = PY_SSIZE_T_MAX, hull_hi = -1;
    int live[8], nlive = 0;
    for (int l = 0; l < g->n; l++) {
        pair_interval(pc->eng, g->len[l], pc->maxunits, k->measure, threshold, &mn[l], &mx[l]);
        live[l] = mn[l] <= mx[l];
        if (!live[l]) continue;
        nlive++;
        if (mn[l] < hull_lo) hull_lo = mn[l];
        if (mx[l] > hull_hi) hull_hi = mx[l];
    }
    if (!nlive) return;
    group_set(k, g);
    Py_ssize_t acc = 0;
    for (Py_ssize_t x = scan_from; x < nkept && nlive; x++) {
        Py_ssize_t kk = (Py_ssize_t)kept[x], lk = pair_units(pc, kk);
        if (lk < hull_lo || lk > hull_hi) continue;
        if (POLL_LOOP(k->w, acc, lk + 1)) break;
        Py_ssize_t h[8];
        group_lcs(k, g, kk, h);
        for (int l = 0; l < g->n; l++) {
            if (!live[l] || lk < mn[l] || lk > mx[l]) continue;
            double v = pairk_value_len(k, g->len[l], lk, h[l]);
            if (v >= threshold) {
                match[g->text[l]] = kk;
                score[g->text[l]] = v;
                live[l] = 0;
                nlive--;
            }
        }
    }
    group_clear(k, g);
}
#endif

/* pair_filter(worker, corpus, lo, hi, kept, nkept, scan_from, sequential, threshold, measure,
 *             match, score) -> nkept
 * For each text q in lo..hi-1 (the new text, scored as the reference against each kept text
 * k as the prediction, as Self-Instruct calls rouge_score), the first kept[x], scan_from <= x <
 * nkept, whose score reaches threshold goes to match[q] (its score to score[q]).  With
 * sequential, texts already matched (match[q] >= 0) are skipped and a text left unmatched is
 * appended to kept; otherwise kept is read only (several threads may scan one block). */
static PyObject *mod_pair_filter(PyObject *self, PyObject *args) {
    PyObject *wo, *co, *kepto, *matcho, *scoreo, *cancel = NULL;
    Py_ssize_t lo, hi, nkept, scan_from;
    int sequential, measure;
    double threshold;
    if (!PyArg_ParseTuple(args, "O!OnnOnnpdiOO|O!", &WorkerType, &wo, &co, &lo, &hi, &kepto, &nkept, &scan_from,
                          &sequential, &threshold, &measure, &matcho, &scoreo, &PyByteArray_Type, &cancel)) return NULL;
    if (cancel && PyByteArray_GET_SIZE(cancel) < 1) { PyErr_SetString(PyExc_ValueError, "cancel: need one byte"); return NULL; }
    WorkerObject *w = (WorkerObject *)wo;
    PairCorpus *pc = corpus_of(co, w);
    if (!pc) return NULL;
    if (lo < 0 || hi < lo || hi > pc->n || nkept < 0 || scan_from < 0 || measure < 0 || measure > 2) {
        PyErr_SetString(PyExc_ValueError, "pair_filter: bounds out of range");
        return NULL;
    }
    if (w->busy) { PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)"); return NULL; }
    Py_buffer kb, mb, sb;
    if (get_buf(kepto, &kb, pc->n, "kept")) return NULL;
    if (get_buf(matcho, &mb, pc->n, "match")) { PyBuffer_Release(&kb); return NULL; }
    if (get_buf(scoreo, &sb, pc->n, "score")) { PyBuffer_Release(&kb); PyBuffer_Release(&mb); return NULL; }
    int64_t *kept = (int64_t *)kb.buf, *match = (int64_t *)mb.buf;
    double *score = (double *)sb.buf;
    int bad = nkept > pc->n;
    for (Py_ssize_t x = 0; x < nkept && !bad; x++) bad = kept[x] < 0 || kept[x] >= pc->n;
    if (bad) {
        PyBuffer_Release(&kb); PyBuffer_Release(&mb); PyBuffer_Release(&sb);
        PyErr_SetString(PyExc_ValueError, "pair_filter: kept holds indices out of range");
        return NULL;
    }
    PairK k;
    int err = 0;
    w->busy = 1;
    Ctx ctx;
    poll_begin_nogil(w, &ctx, cancel);
    /* rougeL rows longer than one word also get counts: the unigram overlap bounds the LCS */
    if (pairk_init(&k, pc, w, pc->kind == K_L && pc->maxunits > 64, measure, 0)) err = 1;
    Py_ssize_t *order = NULL, *rest = NULL, nrest = 0;
    PairGroup *gs = NULL;
    if (!err && !sequential && PAIR_LANES && pc->kind == K_L && hi > lo) {
        /* independent new texts: by length into row groups, each scanning the kept texts once */
        Py_ssize_t nq = hi - lo;
        Py_ssize_t *cnt = (Py_ssize_t *)calloc((size_t)pc->maxunits + 2, sizeof(Py_ssize_t));
        order = (Py_ssize_t *)malloc((size_t)nq * sizeof(Py_ssize_t));
        rest = (Py_ssize_t *)malloc((size_t)nq * sizeof(Py_ssize_t));
        gs = (PairGroup *)malloc((size_t)(nq / 4 + 2) * sizeof(PairGroup));
        if (!cnt || !order || !rest || !gs || pairk_vm(&k)) err = 1;
        else {
            for (Py_ssize_t q = lo; q < hi; q++) cnt[pair_units(pc, q) + 1]++;
            for (Py_ssize_t x = 1; x <= pc->maxunits + 1; x++) cnt[x] += cnt[x - 1];
            for (Py_ssize_t q = lo; q < hi; q++) order[cnt[pair_units(pc, q)]++] = q;
            Py_ssize_t ng = make_groups(pc, order, nq, gs, rest, &nrest);
#if PAIR_LANES
            for (Py_ssize_t gi = 0; gi < ng && !w->stop; gi++)
                filter_group(&k, &gs[gi], kept, scan_from, nkept, threshold, match, score);
#else
            (void)ng;
#endif
        }
        free(cnt);
    }
    for (Py_ssize_t x = 0; !err && x < (rest ? nrest : hi - lo); x++) {
        Py_ssize_t q = rest ? rest[x] : lo + x;
        if (sequential && match[q] >= 0) continue;
        Py_ssize_t found;
        double value;
        if (filter_query(&k, q, kept, scan_from, nkept, threshold, &found, &value)) { err = 1; break; }
        if (w->stop) break;   /* found is meaningless: the search was cut short */
        if (found >= 0) { match[q] = found; score[q] = value; }
        else if (sequential) kept[nkept++] = q;
    }
    free(order); free(rest); free(gs);
    pairk_free(&k);
    int stopped = poll_end_nogil(w, &ctx);
    w->busy = 0;
    PyBuffer_Release(&kb); PyBuffer_Release(&mb); PyBuffer_Release(&sb);
    if (stopped) return NULL;   /* KeyboardInterrupt (or the handler's exception) is set */
    if (err) return PyErr_NoMemory();
    return PyLong_FromSsize_t(nkept);
}

/* pair_info(corpus) -> {texts, vocabulary, units, total_units, fast}: sizes, for tests. */
static PyObject *mod_pair_info(PyObject *self, PyObject *co) {
    PairCorpus *pc = (PairCorpus *)PyCapsule_GetPointer(co, PAIR_CAPSULE);
    if (!pc) return NULL;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:i}", "texts", pc->n, "vocabulary", pc->vocab, "units", pc->nunits,
                         "total_units", pc->uoff[pc->n], "fast", pc->fast);
}
