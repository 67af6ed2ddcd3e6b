/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* LCS                                                                                           */

/* One row of Hyyrö's bit-parallel LCS over words 64-bit words: V' = (V + (V & M)) | (V & ~M),
 * the addition carried from word to word.  The carry chain bounds a row's speed: add-with-carry
 * (one cycle a word) where the compiler offers it, else two compares a word. */
static inline void lcs_step(const uint64_t *prev, uint64_t *cur, const uint64_t *M, Py_ssize_t words) {
    if (!M) { memcpy(cur, prev, (size_t)words * 8); return; }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned char cf = 0;
    for (Py_ssize_t k = 0; k < words; k++) {
        uint64_t v = prev[k], mm = M[k];
        unsigned long long sum;
        cf = __builtin_ia32_addcarryx_u64(cf, v, v & mm, &sum);
        cur[k] = sum | (v & ~mm);
    }
#else
    uint64_t carry = 0;
    for (Py_ssize_t k = 0; k < words; k++) {
        uint64_t v = prev[k], mm = M[k], u = v & mm;
        uint64_t s = v + u, c1 = s < v, s2 = s + carry, c2 = s2 < s;
        carry = c1 | c2;
        cur[k] = s2 | (v & ~mm);
    }
#endif
}

/* LCS length by column blocks of 64 outermost: O(m + vocabulary) memory whatever the lengths
 * (the fallback of lcs_length when one mask per distinct token of the shorter text would pass
 * TABLE_WORDS_LIMIT). */
static Py_ssize_t lcs_length_blocks(WorkerObject *w, int32_t *slot, const int32_t *a, Py_ssize_t m, const int32_t *b,
                                    Py_ssize_t n, int *err) {
    if (grow((void **)&w->carry, &w->carrycap, m, 1) || grow((void **)&w->masks, &w->maskcap, 64, 8)) {
        *err = ERR_NOMEM;
        return 0;
    }
    memset(w->carry, 0, (size_t)m);
    Py_ssize_t total = 0;
    uint64_t *masks = w->masks;
    for (Py_ssize_t j0 = 0; j0 < n; j0 += 64) {
        Py_ssize_t j1 = j0 + 64 < n ? j0 + 64 : n;
        int nd = 0;
        for (Py_ssize_t j = j0; j < j1; j++) {
            int32_t t = b[j];
            if (slot[t] < 0) { slot[t] = nd; masks[nd++] = 0; }
            masks[slot[t]] |= 1ULL << (j - j0);
        }
        uint64_t V = ~0ULL;
        uint8_t *carry = w->carry;
        for (Py_ssize_t i = 0; i < m; i++) {
            int32_t s = slot[a[i]];
            if (s < 0 && !carry[i]) continue;
            uint64_t M = s >= 0 ? masks[s] : 0, U = V & M;
            uint64_t x = V + U, c1 = x < V, x2 = x + carry[i], c2 = x2 < x;
            carry[i] = (uint8_t)(c1 | c2);
            V = x2 | (V & ~M);
        }
        uint64_t valid = (j1 - j0 == 64) ? ~0ULL : ((1ULL << (j1 - j0)) - 1);
        total += popc64(~V & valid);
        for (Py_ssize_t j = j0; j < j1; j++) slot[b[j]] = -1;
        if (worker_poll(w, m)) break;   /* callers check w->stop */
    }
    return total;
}

/* The LCS length from the column masks of a text of n tokens (words 64-bit words a mask, row
 * masks + r * words; the row before masks is zero, V's words before that) and the rows a[0:m] of
 * the other text: row slot[a[i]], or a[i] itself without slot, -1 for a token the first text
 * lacks (it reads the zero row: no branch when one word holds every column). */
static Py_ssize_t lcs_from_masks(WorkerObject *w, const uint64_t *masks, Py_ssize_t words, Py_ssize_t n,
                                 const int32_t *a, Py_ssize_t m, const int32_t *slot) {
    uint64_t *V = (uint64_t *)masks - 2 * words;
    Py_ssize_t total = 0;
    if (words == 1) {
        uint64_t v = ~0ULL;
        for (Py_ssize_t i = 0; i < m; i++) {
            if ((i & 4095) == 4095 && worker_poll(w, 4096)) break;   /* callers check w->stop */
            uint64_t u = v & masks[slot ? slot[a[i]] : a[i]];
            v = (v + u) | (v - u);
        }
        return popc64(~v & (n == 64 ? ~0ULL : (1ULL << n) - 1));
    }
    Py_ssize_t acc = 0;
    for (Py_ssize_t x = 0; x < words; x++) V[x] = ~0ULL;
    for (Py_ssize_t i = 0; i < m && !POLL_LOOP(w, acc, words); i++) {   /* callers check w->stop */
        int32_t s = slot ? slot[a[i]] : a[i];
        if (s >= 0) lcs_step(V, V, masks + (Py_ssize_t)s * words, words);   /* in place: word x reads only V[x] */
    }
    for (Py_ssize_t x = 0; x < words; x++) {
        uint64_t valid = x + 1 < words || (n & 63) == 0 ? ~0ULL : (1ULL << (n & 63)) - 1;
        total += popc64(~V[x] & valid);
    }
    return total;
}

/* LCS length (Hyyrö's bit-parallel algorithm, as pairwise.c's kernels): the shorter text's
 * positions are the bits, so a row of the longer one costs ceil(shorter / 64) word steps with
 * the carry in a register; rows whose token the shorter text lacks leave the bits as they are
 * and are skipped.  Memory: one mask per distinct token of the shorter text, within
 * TABLE_WORDS_LIMIT words (else lcs_length_blocks).  slot: indexed by token id, -1 between
 * uses (w->slot for interned ids; a small array for prediction-local ids keeps it in L1). */
static Py_ssize_t lcs_length(WorkerObject *w, int32_t *slot, const int32_t *a, Py_ssize_t m, const int32_t *b,
                             Py_ssize_t n, int *err) {
    if (m == 0 || n == 0) return 0;
    if (n > m) {
        const int32_t *t = a; a = b; b = t;
        Py_ssize_t k = m; m = n; n = k;
    }
    Py_ssize_t words = (n + 63) >> 6;
    Py_ssize_t nd = 0;
    for (Py_ssize_t j = 0; j < n; j++)
        if (slot[b[j]] < 0) slot[b[j]] = (int32_t)nd++;
    if ((nd + 1) * words > TABLE_WORDS_LIMIT || grow((void **)&w->masks, &w->maskcap, (nd + 2) * words, 8)) {
        for (Py_ssize_t j = 0; j < n; j++) slot[b[j]] = -1;
        return lcs_length_blocks(w, slot, a, m, b, n, err);
    }
    uint64_t *masks = w->masks + 2 * words;
    memset(masks - words, 0, (size_t)((nd + 1) * words) * 8);
    for (Py_ssize_t j = 0; j < n; j++)
        masks[slot[b[j]] * words + (j >> 6)] |= 1ULL << (j & 63);
    Py_ssize_t total = lcs_from_masks(w, masks, words, n, a, m, slot);
    for (Py_ssize_t j = 0; j < n; j++) slot[b[j]] = -1;
    return total;
}

/* LCS length of the prediction lp[0:pn] (prediction-local ids, numbered in order of first
 * occurrence, so an id is its own mask index) against a reference in the same ids lr[0:rn] (-1:
 * a token the prediction lacks, ids up to nids - 1): lcs_length without the slot table, the
 * prediction's positions the bits.  -1 when the masks would pass TABLE_WORDS_LIMIT (the caller
 * then takes lcs_length). */
static Py_ssize_t lcs_length_local(WorkerObject *w, const int32_t *lp, Py_ssize_t pn, Py_ssize_t nids,
                                   const int32_t *lr, Py_ssize_t rn, int *err) {
    if (pn == 0 || rn == 0) return 0;
    Py_ssize_t words = (pn + 63) >> 6;
    if ((nids + 2) * words > TABLE_WORDS_LIMIT) return -1;
    if (grow((void **)&w->masks, &w->maskcap, (nids + 2) * words, 8)) { *err = ERR_NOMEM; return 0; }
    uint64_t *masks = w->masks + 2 * words;
    memset(masks - words, 0, (size_t)((nids + 1) * words) * 8);
    for (Py_ssize_t j = 0; j < pn; j++) masks[lp[j] * words + (j >> 6)] |= 1ULL << (j & 63);
    return lcs_from_masks(w, masks, words, pn, lr, rn, NULL);
}

/* Set slot[t] -> mask index for the tokens of b (words 64-bit words per mask); returns the
 * number of distinct tokens or -1. */
static Py_ssize_t set_masks(WorkerObject *w, const int32_t *b, Py_ssize_t n, Py_ssize_t words) {
    Py_ssize_t nd = 0;
    if (grow((void **)&w->masks, &w->maskcap, (n + 1) * words, 8)) return -1;
    for (Py_ssize_t j = 0; j < n; j++) {
        int32_t t = b[j];
        if (t < 0) continue;   /* a placeholder column never matches */
        if (w->lslot[t] < 0) {
            w->lslot[t] = (int32_t)nd;
            memset(w->masks + nd * words, 0, (size_t)words * 8);
            nd++;
        }
        w->masks[w->lslot[t] * words + (j >> 6)] |= 1ULL << (j & 63);
    }
    return nd;
}

static void clear_slots(WorkerObject *w, const int32_t *b, Py_ssize_t n) {
    for (Py_ssize_t j = 0; j < n; j++) if (b[j] >= 0) w->lslot[b[j]] = -1;
}

static inline const uint64_t *mask_of(WorkerObject *w, int32_t t, Py_ssize_t words) {
    if (t < 0) return NULL;
    int32_t s = w->lslot[t];
    return s < 0 ? NULL : w->masks + (Py_ssize_t)s * words;
}

/* c[i][j] from row i's bit vector: the zero bits among the first j columns. */
static inline Py_ssize_t cval(const uint64_t *row, Py_ssize_t j) {
    Py_ssize_t ones = 0, full = j >> 6;
    for (Py_ssize_t k = 0; k < full; k++) ones += popc64(row[k]);
    if (j & 63) ones += popc64(row[full] & ((1ULL << (j & 63)) - 1));
    return j - ones;
}

/* c[i][j] - c[i][j-1] */
static inline Py_ssize_t dbit(const uint64_t *row, Py_ssize_t j) {
    return 1 - (Py_ssize_t)((row[(j - 1) >> 6] >> ((j - 1) & 63)) & 1);
}

typedef struct {
    WorkerObject *w; const int32_t *a; Py_ssize_t m, words, K, lo, hi;
} LcsRows;

static void lcs_load(LcsRows *r, Py_ssize_t lo) {
    WorkerObject *w = r->w;
    Py_ssize_t words = r->words;
    r->lo = lo;
    r->hi = lo + r->K < r->m ? lo + r->K : r->m;
    memcpy(w->rows, w->ck + (lo / r->K) * words, (size_t)words * 8);
    Py_ssize_t acc = 0;
    for (Py_ssize_t i = lo + 1; i <= r->hi && !POLL_LOOP(w, acc, words); i++)   /* callers check w->stop */
        lcs_step(w->rows + (i - 1 - lo) * words, w->rows + (i - lo) * words, mask_of(w, r->a[i - 1], words), words);
}

#define LROW(r, i) ((r)->w->rows + ((i) - (r)->lo) * (r)->words)

/* Mark the model positions on the LCS that ROUGE-1.5.5.pl's back-trace picks (spec §7): from the
 * ends, match equal tokens, else go up when c[i-1][j] >= c[i][j-1].  Rows come from the bit-
 * parallel table; past TABLE_WORDS_LIMIT only every K-th row is kept and blocks are recomputed.
 * The masks of b must be set.  Returns the LCS length or -1. */
static Py_ssize_t lcs_marks(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n,
                            unsigned char *mark) {
    if (m == 0 || n == 0) return 0;
    Py_ssize_t words = (n + 63) >> 6;
    LcsRows r = {w, a, m, words, m, 0, 0};
    if ((m + 1) * words > TABLE_WORDS_LIMIT) {
        r.K = TABLE_WORDS_LIMIT / words - 1;
        if (r.K < 1) r.K = 1;
    }
    Py_ssize_t nck = m / r.K + 1;
    if (grow((void **)&w->rows, &w->rowcap, (r.K + 1) * words, 8) ||
        grow((void **)&w->ck, &w->ckcap, nck * words, 8)) return -1;
    for (Py_ssize_t k = 0; k < words; k++) w->ck[k] = ~0ULL;
    if (r.K < m) {
        /* forward pass keeping the checkpoints, two rows in the table as scratch */
        uint64_t *p0 = w->rows, *p1 = w->rows + words;
        memcpy(p0, w->ck, (size_t)words * 8);
        Py_ssize_t acc = 0;
        for (Py_ssize_t i = 1; i <= m; i++) {
            if (POLL_LOOP(w, acc, words)) return 0;
            lcs_step(p0, p1, mask_of(w, a[i - 1], words), words);
            uint64_t *t = p0; p0 = p1; p1 = t;
            if (i % r.K == 0 && i / r.K < nck) memcpy(w->ck + (i / r.K) * words, p0, (size_t)words * 8);
        }
    }
    lcs_load(&r, ((m - 1) / r.K) * r.K);
    if (w->stop) return 0;
    Py_ssize_t i = m, j = n;
    Py_ssize_t av = cval(LROW(&r, i), j), length = av;
    if (av == 0) return 0;
    Py_ssize_t bv = cval(LROW(&r, i - 1), j);
    while (i > 0 && j > 0 && av > 0) {
        if (a[i - 1] == b[j - 1]) {
            mark[i - 1] = 1;
            av = bv - dbit(LROW(&r, i - 1), j);
            i--; j--;
            if (i == 0 || j == 0 || av == 0) break;
            if (i - 1 < r.lo) {
                lcs_load(&r, r.lo - r.K);
                if (w->stop) return 0;
            }
            bv = cval(LROW(&r, i - 1), j);
        } else if (bv >= av - dbit(LROW(&r, i), j)) {
            av = bv;
            i--;
            if (i == 0 || av == 0) break;
            if (i - 1 < r.lo) {
                lcs_load(&r, r.lo - r.K);
                if (w->stop) return 0;
            }
            bv = cval(LROW(&r, i - 1), j);
        } else {
            av -= dbit(LROW(&r, i), j);
            bv -= dbit(LROW(&r, i - 1), j);
            j--;
        }
    }
    return length;
}
