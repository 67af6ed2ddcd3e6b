/* Part of the _core translation unit: csrc/_core.c includes this file after pair_stats.c (whose
 * example_stats calls it); it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* rouge1, rouge2, rougeL and rougeLsum of a short prediction against one reference, one pass    */

/* The general path (example_stats) makes a pass over the reference for each thing it needs: its
 * local ids, a copy of them per n-gram level, the counts each level takes, rougeL's LCS rows and
 * rougeLsum's union rows, each a loop of ~60 steps on news whose own dependency chain (a count in
 * memory, the LCS word, the lanes' word) runs alone, and rougeLsum marks the tokens its walks
 * take before a last pass counts them.  Here one loop over the reference does it all, so the
 * chains overlap, the walks count as they go, and the prediction's side (counts, bigram ids,
 * columns, lanes) is built once for all the types.  News, the rouge_score set: 1.11x.
 *
 * It serves the case most scoring meets -- one reference, a prediction of at most 128 tokens
 * whose sentences pack into two words of rougeLsum's lanes (a guard bit between two), the
 * joined reader for every type -- and returns 1 (nothing done) elsewhere.  Its numbers are the
 * general path's: the same clipped counts, LCS and union (tests/test_single_ref.py compares both
 * paths with the pure-Python engine on every mix of the four types). */

enum { SR_1 = 1, SR_2 = 2, SR_L = 4, SR_LSUM = 8 };

static int single_ref_allowed = 1;    /* the test hook's switch: 0 sends every example the general way */
static uint64_t single_ref_served;   /* examples this path scored, for the tests (any thread) */
/* Counted only once the hook has been called: an atomic add per example is a contended cache
 * line between n_jobs' threads (and score_matrix's), which no caller but the tests needs. */
static volatile int single_ref_counting;

/* _single_ref_hook(on) -> previous (allowed, examples served since the hook's first call): on 0
 * turns this path off, 1 on, -1 keeps it (tests compare both, and check that it serves what it
 * should). */
static PyObject *mod_single_ref_hook(PyObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < -1 || v > 1) {
        PyErr_SetString(PyExc_ValueError, "on must be -1..1");
        return NULL;
    }
#if defined(__GNUC__) || defined(__clang__)
    uint64_t served = __atomic_load_n(&single_ref_served, __ATOMIC_RELAXED);
#else
    uint64_t served = single_ref_served;
#endif
    PyObject *old = Py_BuildValue("iK", single_ref_allowed, (unsigned long long)served);
    if (old && v >= 0) single_ref_allowed = (int)v;
    single_ref_counting = 1;
    return old;
}

/* The SR_* set of the engine's types, or 0 when one of them is another kind (kept in the engine
 * at its creation: EngineObject.single_ref_kinds). */
static int single_ref_kinds(const EngineObject *e) {
    int kinds = 0;
    for (int ti = 0; ti < e->ntypes; ti++) {
        const TSpec *ts = &e->types[ti];
        if (ts->kind == K_N && ts->n == 1) kinds |= SR_1;
        else if (ts->kind == K_N && ts->n == 2) kinds |= SR_2;
        else if (ts->kind == K_L) kinds |= SR_L;
        else if (ts->kind == K_LSUM) kinds |= SR_LSUM;
        else return 0;
    }
    return kinds;
}

/* The prediction's per-token columns, by local id + 1 (index 0: a token it lacks, all zeros):
 * rougeL's LCS columns (NL words) and rougeLsum's lanes and their reversed bits (NS words), each
 * word an array of D + 1. */
typedef struct { uint64_t *l[2], *s[2], *sr[2]; uint64_t K[2], G[2], X0[2]; } Cols;

/* The pass over the reference rt[0:T] (interned ids): rouge1's and rouge2's clipped matches taken
 * from c1 / c2 (indexed by local id + 1 and by bigram id), rougeL's LCS words v over the columns,
 * and rougeLsum's rows of the lanes, kept (zr, one array of T per word, and rowi) when they
 * match, the last of each reference sentence (send) flagged.  rowi holds a kept row's local id,
 * all the walks need of its token (no array of the reference's local ids: one store and one
 * pointer less a token, which the loop's registers feel).  kinds, NL and NS are constants at the
 * calls that matter, so the compiler drops what they leave out; always inlined, because GCC 12
 * otherwise made one clone for the three calls that tested them at run time (news, with the
 * walks' inlining below and rowi: 1.08x). */
static ALWAYS_INLINE void single_ref_pass(int kinds, int NL, int NS, const int32_t *loc, const int32_t *rt,
                                          Py_ssize_t T, int32_t *c1, int32_t *c2, const int32_t *tab, int32_t W,
                                          const Cols *cols, uint64_t *v, const int32_t *send, Py_ssize_t ns,
                                          uint64_t *zr, uint32_t *rowi, Py_ssize_t *nm_out, int32_t *h1_out,
                                          int32_t *h2_out) {
    int32_t h1 = 0, h2 = 0, prev = 0;   /* prev: the previous token's local id + 1 (0: none) */
    uint64_t v0 = v[0], v1 = v[1], K0 = cols->K[0], K1 = cols->K[1], G0 = cols->G[0], G1 = cols->G[1];
    const uint64_t *L0 = cols->l[0], *L1 = cols->l[1], *S0 = cols->s[0], *S1 = cols->s[1];
    Py_ssize_t q = 0, nm = 0;
    if (!(kinds & SR_LSUM)) ns = 1;
    for (Py_ssize_t s = 0; s < ns; s++) {
        Py_ssize_t end = kinds & SR_LSUM ? send[s] : T, nm0 = nm;
        uint64_t V0 = K0, V1 = K1;
        for (; q < end; q++) {
            int32_t l = loc[rt[q]], l1 = l + 1;
            if (kinds & SR_1) h1 += take(c1, l1);
            if (kinds & SR_2) {
                h2 += take(c2, tab[prev * W + l1]);
                prev = l1;
            }
            if ((kinds & SR_L) && NL == 1) {
                uint64_t u = v0 & L0[l1];
                v0 = (v0 + u) | (v0 - u);
            } else if (kinds & SR_L) {
                uint64_t cur[2] = {v0, v1}, m[2] = {L0[l1], L1[l1]};
                lcs_step(cur, cur, m, 2);
                v0 = cur[0];
                v1 = cur[1];
            }
            if (kinds & SR_LSUM) {
                uint64_t M0 = S0[l1], M1 = NS == 2 ? S1[l1] : 0;
                zr[nm] = packed_row(&V0, M0, K0, G0);
                if (NS == 2) zr[T + nm] = packed_row(&V1, M1, K1, G1);
                rowi[nm] = (uint32_t)l;   /* >= 0: a kept row's token is the prediction's */
                nm += (M0 | M1) != 0;
            }
        }
        if ((kinds & SR_LSUM) && nm > nm0) rowi[nm - 1] |= 0x80000000u;
    }
    v[0] = v0;
    v[1] = v1;
    *nm_out = nm;
    *h1_out = h1;
    *h2_out = h2;
}

/* The pass for the other mixes of types, each common one (rouge_score's default three, each type
 * alone) with its own constants: with kinds tested at run time, the pass took 2.2x as long for
 * rouge1 alone on news, 1.5x for the three, 1.14x for rougeL alone (perf on the EPYC; whole calls
 * 1.00-1.09x).  Out of line, so that the four types' code in single_ref_stats stays as it was
 * (inlined there too, the four lost ~1 %). */
NOINLINE static void single_ref_pass_other(int kinds, int NL, int NS, const int32_t *loc, const int32_t *rt,
                                           Py_ssize_t T, int32_t *c1, int32_t *c2, const int32_t *tab, int32_t W,
                                           const Cols *cols, uint64_t *v, const int32_t *send, Py_ssize_t ns,
                                           uint64_t *zr, uint32_t *rowi, Py_ssize_t *nm_out, int32_t *h1_out,
                                           int32_t *h2_out) {
#define SR_PASS(K, L, S) \
    single_ref_pass(K, L, S, loc, rt, T, c1, c2, tab, W, cols, v, send, ns, zr, rowi, nm_out, h1_out, h2_out)
    if (kinds == (SR_1 | SR_2 | SR_L) && NL == 1) SR_PASS(SR_1 | SR_2 | SR_L, 1, 1);
    else if (kinds == SR_1) SR_PASS(SR_1, 1, 1);
    else if (kinds == SR_2) SR_PASS(SR_2, 1, 1);
    else if (kinds == SR_LSUM && NS == 1) SR_PASS(SR_LSUM, 1, 1);
    else if (kinds == SR_L && NL == 1) SR_PASS(SR_L, 1, 1);
    else SR_PASS(kinds, NL, NS);
#undef SR_PASS
}

/* rougeLsum's hits: the walks of every lane (lcs_marks_packed's, both words at once on the kept
 * rows of either: a row one word does not match leaves that word's walks as they are), each reference
 * token a walk takes diagonally counted while the prediction's count of it (budget, by local id)
 * lasts.  The marked tokens are some of the reference's joined tokens, so only the prediction's
 * counts clip them (example_stats' rougeLsum, the aliased case), and the order of the takes
 * changes none of the sums. */
static ALWAYS_INLINE int32_t single_ref_walks(int NS, const Cols *cols, uint64_t *zr, Py_ssize_t T,
                                              const uint32_t *rowi, Py_ssize_t nm, int32_t *budget) {
    rev_words(zr, nm);
    if (NS == 2) rev_words(zr + T, nm);
    const uint64_t start0 = cols->X0[0], start1 = cols->X0[1], *R0 = cols->sr[0], *R1 = cols->sr[1];
    uint64_t X0 = start0, X1 = start1;
    int32_t taken = 0;
    for (Py_ssize_t q = nm - 1; q >= 0; q--) {
        uint32_t r = rowi[q];
        int32_t t = (int32_t)(r & 0x7fffffffu);
        uint64_t dg = packed_walk(&X0, start0, zr[q], R0[t + 1], r);
        if (NS == 2) dg |= packed_walk(&X1, start1, zr[T + q], R1[t + 1], r);
        int32_t c = budget[t], ok = (dg != 0) & (c > 0);
        budget[t] = c - ok;
        taken += ok;
    }
    return taken;
}

/* The words rougeLsum's lanes need for the prediction's sentences (send, n of them): 1 or 2, or
 * 3 when they do not fit in two (or one passes 64 tokens). */
static int lane_words(const int32_t *send, Py_ssize_t n) {
    Py_ssize_t prev = 0, bits = 0;
    int words = 1;
    for (Py_ssize_t s = 0; s < n; s++) {
        Py_ssize_t len = send[s] - prev;
        prev = send[s];
        if (len == 0) continue;
        if (len > 64) return 3;
        if ((bits ? bits + 1 : 0) + len > 64) {
            words++;
            bits = 0;
        }
        bits = (bits ? bits + 1 : 0) + len;
    }
    return words;
}

/* The prediction's bigrams lp[p], lp[p + 1] as ids 1..nb in tab (cell (lp[p] + 1) * W + lp[p + 1]
 * + 1; the cells into cell, to clear), each id's count in cnt[1..nb] and cnt[0] = 0, the id a
 * reference bigram the prediction lacks finds.  Kept out of line, as the two below: inlined into
 * single_ref_stats, these loops reloaded their values from the stack (GCC, perf annotate). */
NOINLINE static void bigram_ids(const int32_t *lp, Py_ssize_t pn, int32_t W, int32_t *tab, int32_t *cell,
                                int32_t *cnt) {
    int32_t nb = 0;
    memset(cnt, 0, (size_t)(pn + 1) * sizeof(int32_t));
    for (Py_ssize_t p = 0; p + 1 < pn; p++) {
        int32_t c = (lp[p] + 1) * W + lp[p + 1] + 1, t = tab[c], fresh = t == 0;
        nb += fresh;
        t = fresh ? nb : t;
        tab[c] = t;
        cell[p] = c;
        cnt[t]++;
    }
}

/* rougeL's columns: bit j of the prediction's position j (< 128) in its token's word(s), l0 for
 * 0..63, l1 for 64..127, by local id. */
NOINLINE static void lcs_columns(const int32_t *lp, Py_ssize_t pn, uint64_t *l0, uint64_t *l1) {
    Py_ssize_t j = 0, n0 = pn < 64 ? pn : 64;
    for (; j < n0; j++) l0[lp[j]] |= 1ULL << j;
    for (; j < pn; j++) l1[lp[j]] |= 1ULL << (j - 64);
}

/* rougeLsum's lanes of the prediction's sentences (ends send[0:ns]), at most two words of them
 * (lane_words): the columns by local id + 1 in cols->s, their reversed bits in cols->sr (the
 * whole arrays reversed at once, rather than a second column set per token), K, G and X0 of each
 * word. */
NOINLINE static void pack_lanes(const int32_t *lp, const int32_t *send, Py_ssize_t ns, Py_ssize_t D, Cols *cols) {
    Py_ssize_t pstart = 0, used = 0;
    int k = 0;
    for (Py_ssize_t s = 0; s < ns; s++) {
        Py_ssize_t pend = send[s], len = pend - pstart;
        const int32_t *pb = lp + pstart;
        pstart = pend;
        if (len <= 0) continue;
        if ((used ? used + 1 : 0) + len > 64) {   /* the word is full: this sentence opens the next */
            k++;
            used = 0;
        }
        used = pack_lane(cols->s[k] + 1, NULL, pb, len, used, &cols->K[k], &cols->G[k], &cols->X0[k]);
    }
    for (int q = 0; q <= k; q++) {
        memcpy(cols->sr[q], cols->s[q], (size_t)(D + 1) * sizeof(uint64_t));
        rev_words(cols->sr[q], D + 1);
    }
}

/* Statistics of every type of a one-reference example (out[ti]), after example_stats has given
 * the prediction its local ids (w->lp, w->pdist, w->lcnt): 0, 1 when this case is not served (the
 * caller goes on as usual, nothing here changed), -1 when out of memory. */
static int single_ref_stats(WorkerObject *w, TextBuf *tbs, PS *out) {
    EngineObject *e = w->eng;
    TextBuf *pred = &tbs[0], *ref = &tbs[1];
    Py_ssize_t pn = pred->tok.n, T = ref->tok.n, D = w->pdist.n;
    int kinds = single_ref_allowed ? e->single_ref_kinds : 0;
    if (!kinds || pn > 128) return 1;
    if ((kinds & SR_L) && !(pred->ftok_alias && ref->ftok_alias)) return 1;
    int NL = pn > 64 ? 2 : 1, NS = 1;
    if (kinds & SR_LSUM) {
        if (!pred->stok_alias || !ref->stok_alias || 2 * T > TABLE_WORDS_LIMIT) return 1;
        /* every reference token in some sentence: the other types read them all in the same loop */
        if (ref->send.n ? ref->send.v[ref->send.n - 1] != T : T != 0) return 1;
        if ((NS = lane_words(pred->send.v, pred->send.n)) > 2) return 1;
    }
    int32_t W = (int32_t)D + 1;
    if (grow((void **)&w->pid, &w->pidcap, D + 2, sizeof(int32_t)) ||
        grow((void **)&w->gcnt, &w->gcntcap, pn + 2, sizeof(int32_t)) ||
        grow((void **)&w->cell, &w->cellcap, pn + 1, sizeof(int32_t)) ||
        grow_zero((void **)&w->ltab, &w->ltabcap, (Py_ssize_t)W * W + 1, sizeof(int32_t)) ||
        grow((void **)&w->masks, &w->maskcap, 6 * (D + 1), sizeof(uint64_t)) ||
        grow_zero((void **)&w->lbp, &w->lbpcap, D + 2, sizeof(int32_t)) ||
        grow((void **)&w->rows, &w->rowcap, 2 * T + 1, 8) ||
        grow((void **)&w->wrow, &w->wrowcap, T + 1, sizeof(int32_t))) return -1;
    const int32_t *lp = w->lp.v;
    int32_t *c1 = w->pid, *c2 = w->gcnt, *tab = w->ltab, *cell = w->cell;
    Cols cols = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {0, 0}, {0, 0}, {0, 0}};
    for (int k = 0; k < 2; k++) {
        cols.l[k] = w->masks + (Py_ssize_t)k * (D + 1);
        cols.s[k] = w->masks + (Py_ssize_t)(2 + k) * (D + 1);
        cols.sr[k] = w->masks + (Py_ssize_t)(4 + k) * (D + 1);
    }
    if (kinds & SR_L) memset(cols.l[0], 0, (size_t)(2 * (D + 1)) * sizeof(uint64_t));
    if (kinds & SR_LSUM) memset(cols.s[0], 0, (size_t)(2 * (D + 1)) * sizeof(uint64_t));   /* sr: copied */
    /* the prediction's side: unigram counts, bigram ids and their counts, the LCS columns, the
     * lanes */
    if (kinds & SR_1) {
        c1[0] = 0;
        memcpy(c1 + 1, w->lcnt, (size_t)D * sizeof(int32_t));
    }
    if (kinds & SR_2) bigram_ids(lp, pn, W, tab, cell, c2);
    if (kinds & SR_L) lcs_columns(lp, pn, cols.l[0] + 1, cols.l[1] + 1);
    if (kinds & SR_LSUM) pack_lanes(lp, pred->send.v, pred->send.n, D, &cols);
    Py_ssize_t nm = 0;
    int32_t h1 = 0, h2 = 0;
    uint64_t v[2] = {~0ULL, ~0ULL};
    const int32_t *rt = ref->tok.v, *send = ref->send.v;
    uint64_t *zr = w->rows;
    uint32_t *rowi = (uint32_t *)w->wrow;
    Py_ssize_t ns = ref->send.n;
    enum { ALL = SR_1 | SR_2 | SR_L | SR_LSUM };
    if (kinds == ALL && NL == 1 && NS == 1)
        single_ref_pass(ALL, 1, 1, w->loc, rt, T, c1, c2, tab, W, &cols, v, send, ns, zr, rowi, &nm, &h1, &h2);
    else if (kinds == ALL && NL == 1)
        single_ref_pass(ALL, 1, 2, w->loc, rt, T, c1, c2, tab, W, &cols, v, send, ns, zr, rowi, &nm, &h1, &h2);
    else
        single_ref_pass_other(kinds, NL, NS, w->loc, rt, T, c1, c2, tab, W, &cols, v, send, ns, zr, rowi, &nm, &h1,
                              &h2);
    if (kinds & SR_2)
        for (Py_ssize_t p = 0; p + 1 < pn; p++) tab[cell[p]] = 0;
    int32_t lsum = 0;
    if (kinds & SR_LSUM) {
        int32_t *lbp = LBP(w);
        memcpy(lbp, w->lcnt, (size_t)D * sizeof(int32_t));
        lsum = NS == 1 ? single_ref_walks(1, &cols, zr, T, rowi, nm, lbp)
                       : single_ref_walks(2, &cols, zr, T, rowi, nm, lbp);
        memset(lbp, 0, (size_t)D * sizeof(int32_t));
    }
    double lcs = 0.0;
    if (pn && T) lcs = NL == 1 ? (double)popc64(~v[0] & low_bits(pn))
                               : (double)(popc64(~v[0]) + popc64(~v[1] & low_bits(pn - 64)));
    for (int ti = 0; ti < e->ntypes; ti++) {
        const TSpec *ts = &e->types[ti];
        PS *o = &out[ti];
        if (ts->kind == K_N) {
            double h = ts->n == 1 ? (double)h1 : (double)h2;
            double rc = T - ts->n + 1 > 0 ? (double)(T - ts->n + 1) : 0.0;
            o->h = h; o->rc = rc; o->pc = pn - ts->n + 1 > 0 ? (double)(pn - ts->n + 1) : 0.0; o->sel = sel_of(e, h, rc);
        } else {
            /* rougeL; rougeLsum, whose length in flavor paper is the joined reader's: the same tokens here */
            double h = ts->kind == K_L ? lcs : (double)lsum, rc = (double)T;
            o->h = h; o->rc = rc; o->pc = (double)pn; o->sel = rc != 0.0 ? h / rc : 0.0;
        }
    }
    if (single_ref_counting) {
#if defined(__GNUC__) || defined(__clang__)
        __atomic_fetch_add(&single_ref_served, 1, __ATOMIC_RELAXED);
#else
        single_ref_served++;
#endif
    }
    return 0;
}
