/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* Worker                                                                                        */

static void textbuf_free(TextBuf *t) { free(t->tok.v); free(t->stok.v); free(t->send.v); free(t->ftok.v); }

static void worker_free_buffers(WorkerObject *w) {
    interner_free(&w->in);
    free(w->front);
    for (Py_ssize_t i = 0; i < w->tbcap; i++) textbuf_free(&w->tb[i]);
#define FREE_ARRAY(p, cap) free(w->p);
    WORKER_ARRAYS(FREE_ARRAY)
#undef FREE_ARRAY
}

static void Worker_dealloc(WorkerObject *w) {
    EngineObject *e = w->eng;
    worker_free_engine_parts(w);
    w->eng = NULL;
    if (!worker_park(w)) worker_free_buffers(w);
    Py_XDECREF(e);
    PyObject_Free(w);
}

static PyObject *str_utf8(PyObject *o);   /* text_utf8.c */

/* A snapshot tuple of ours (not the caller's own tuple), which only a keep list holds: it cannot be
 * part of a reference cycle, so the collector need not look at it (see texts_read). */
static inline void keep_untracked(PyObject *snapshot, PyObject *original) {
    if (snapshot != original && PyObject_GC_IsTracked(snapshot)) PyObject_GC_UnTrack(snapshot);
}

/* One text (a str, bytes, or a list/tuple of sentences) as spans; new references to keep
 * alive go to keep.  Returns 0, or -1 with an exception set (the caller falls back to the
 * pure-Python path, which raises the canonical message). */
static int text_spans(EngineObject *e, PyObject *o, Src *src, Span **items, Py_ssize_t *nitems,
                      Py_ssize_t *capitems, PyObject *keep) {
    memset(src, 0, sizeof(*src));
    int rs = e->flavor == FLAVOR_RS;
    if (PyUnicode_Check(o)) {
        int lowered = e->tokenizer == TOK_XLSUM || e->tokenizer == TOK_XLSUM_BASIC;   /* kept by xl_lowered */
        if (lowered && !(o = xl_lowered(o, keep))) return -1;
        if (PyBytes_Check(o)) {   /* the lowered text's UTF-8 */
            src->whole.p = PyBytes_AS_STRING(o);
            src->whole.n = PyBytes_GET_SIZE(o);
            return 0;
        }
        if (PyUnicode_READY(o) < 0) return -1;
        if (PyUnicode_IS_ASCII(o)) {
            /* no copy; the reference in keep guards against the caller's list changing */
            if (!lowered && PyList_Append(keep, o)) return -1;
            src->whole.p = (const char *)PyUnicode_DATA(o);
            src->whole.n = PyUnicode_GET_LENGTH(o);
            return 0;
        }
        PyObject *b = str_utf8(o);   /* lone surrogates pass, as the Python engine reads them */
        if (!b) return -1;
        if (PyList_Append(keep, b)) { Py_DECREF(b); return -1; }
        Py_DECREF(b);
        src->whole.p = PyBytes_AS_STRING(b);
        src->whole.n = PyBytes_GET_SIZE(b);
        return 0;
    }
    if ((PyBytes_Check(o) || PyByteArray_Check(o)) && e->tokenizer != TOK_PERL) {
        PyErr_SetString(PyExc_TypeError, "tokenizer other than 'perl' takes str texts");
        return -1;
    }
    if (PyBytes_Check(o) || PyByteArray_Check(o)) {
        PyObject *b = PyBytes_FromObject(o);   /* a copy for bytearray: the GIL is released later */
        if (!b) return -1;
        if (rs) {  /* rouge_score decodes bytes strictly */
            PyObject *u = PyUnicode_DecodeUTF8(PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b), "strict");
            if (!u) { Py_DECREF(b); return -1; }
            Py_DECREF(u);
        }
        if (PyList_Append(keep, b)) { Py_DECREF(b); return -1; }
        Py_DECREF(b);
        src->whole.p = PyBytes_AS_STRING(b);
        src->whole.n = PyBytes_GET_SIZE(b);
        return 0;
    }
    if (PyList_Check(o) || PyTuple_Check(o)) {
        PyObject *t = PySequence_Tuple(o);   /* a snapshot: lists can change while unlocked */
        if (!t) return -1;
        keep_untracked(t, o);
        if (PyList_Append(keep, t)) { Py_DECREF(t); return -1; }
        Py_DECREF(t);
        Py_ssize_t n = PyTuple_GET_SIZE(t);
        src->is_list = 1;
        src->first = *nitems;
        src->count = n;
        if (grow((void **)items, capitems, *nitems + n + 1, sizeof(Span))) { PyErr_NoMemory(); return -1; }
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *s = PyTuple_GET_ITEM(t, k);
            Src sub;
            if (!PyUnicode_Check(s) && (rs || !(PyBytes_Check(s) || PyByteArray_Check(s)))) {
                PyErr_SetString(PyExc_TypeError, "sentence must be str or bytes");
                return -1;
            }
            if (text_spans(e, s, &sub, items, nitems, capitems, keep)) return -1;
            (*items)[src->first + k] = sub.whole;
        }
        *nitems += n;
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "text must be str, bytes or a list of sentences");
    return -1;
}

static inline PyObject *make_tuple(PyObject *type, int plain, PyObject *a, PyObject *b, PyObject *c, PyObject *d) {
    PyTypeObject *tp = (PyTypeObject *)type;
    Py_ssize_t n = d ? 4 : 3;
    PyObject *t;
    /* Numbers only: never part of a cycle, so the tuple stays out of the collector's way (as
     * CPython itself does lazily for such tuples).  An instance of a plain tuple subclass
     * (tuple_plain: the Engine's types are checked once) is made untracked from the start;
     * others go through tp_alloc and are untracked after. */
    if (plain) {
        t = (PyObject *)PyObject_GC_NewVar(PyTupleObject, tp, n);
        if (t) for (Py_ssize_t k = 0; k < n; k++) PyTuple_SET_ITEM(t, k, NULL);
    } else t = tp->tp_alloc(tp, n);
    if (!t) { Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c); Py_XDECREF(d); return NULL; }
    if (!a || !b || !c || (n == 4 && !d)) {
        Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c); Py_XDECREF(d);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);
    PyTuple_SET_ITEM(t, 2, c);
    if (d) PyTuple_SET_ITEM(t, 3, d);
    if (!plain) PyObject_GC_UnTrack(t);
    return t;
}

static inline FloatSlot *float_slot(const EngineObject *e, double x, uint64_t *bits) {
    memcpy(bits, &x, 8);
    return &e->floats[(*bits * 0x9E3779B97F4A7C15ULL) >> (64 - e->float_bits)];
}

/* The float cache for a build of `examples` (with the GIL): 2^FLOAT_CACHE_SMALL_BITS slots until
 * a build of FLOAT_CACHE_GROW_FROM examples, then 2^FLOAT_CACHE_BITS.  Making the whole cache
 * for a score() of one pair, and freeing it with the Engine, was 3.5 us of the 21 that building
 * a scorer for one pair cost. */
#define FLOAT_CACHE_GROW_FROM 64
static void float_cache_fit(EngineObject *e, Py_ssize_t examples) {
    int want = examples >= FLOAT_CACHE_GROW_FROM ? FLOAT_CACHE_BITS : FLOAT_CACHE_SMALL_BITS;
    if (e->floats && e->float_bits >= want) return;
    FloatSlot *f = (FloatSlot *)PyMem_Calloc((size_t)1 << want, sizeof(FloatSlot));
    if (!f) return;   /* the cache there is (or none: plain floats) */
    /* Scores are cached from the big cache on: in the small one few recur (news, 4 types: a
     * score() loop of 2,000 pairs took 3 % more time with a Score cache of 256 slots, and a new
     * scorer for each pair 5-15 % more) */
    ScoreSlot *sc = e->score_plain && want == FLOAT_CACHE_BITS ?
                    (ScoreSlot *)PyMem_Calloc((size_t)1 << want, sizeof(ScoreSlot)) : NULL;
    float_cache_free(e);
    e->floats = f;
    e->scores = sc;   /* NULL when refused: Scores made one by one */
    e->float_bits = want;
}

/* x as a float object, from the engine's cache when it holds these bits (with the GIL) */
static PyObject *result_float(EngineObject *e, double x) {
    if (!e->floats) return PyFloat_FromDouble(x);
    uint64_t bits;
    FloatSlot *slot = float_slot(e, x, &bits);
    if (slot->obj && slot->bits == bits) {
        Py_INCREF(slot->obj);
        return slot->obj;
    }
    PyObject *f = PyFloat_FromDouble(x), *old = slot->obj;
    if (!f) return NULL;
    Py_INCREF(f);
    slot->obj = f;
    slot->bits = bits;
    Py_XDECREF(old);
    return f;
}

/* The Score cache's slot for s; the bits of its three floats in *p, *r, *f. */
static inline ScoreSlot *score_slot(const EngineObject *e, const SC *s, uint64_t *p, uint64_t *r, uint64_t *f) {
    memcpy(p, &s->p, 8);
    memcpy(r, &s->r, 8);
    memcpy(f, &s->f, 8);
    return &e->scores[(((*p * 0x9E3779B97F4A7C15ULL) ^ *r) * 0xC4CEB9FE1A85EC53ULL ^ *f) * 0x9E3779B97F4A7C15ULL >>
                      (64 - e->float_bits)];
}

/* The Score of s, from the engine's cache when it holds one of these three floats' bits (with
 * the GIL); a new reference, or NULL with an exception set. */
static PyObject *result_score(EngineObject *e, SC s) {
    uint64_t p = 0, r = 0, f = 0;
    ScoreSlot *slot = e->scores ? score_slot(e, &s, &p, &r, &f) : NULL;
    if (slot && slot->obj && slot->p == p && slot->r == r && slot->f == f) {
        Py_INCREF(slot->obj);
        return slot->obj;
    }
    PyObject *o = make_tuple(e->score_type, e->score_plain, result_float(e, s.p), result_float(e, s.r),
                             result_float(e, s.f), NULL);
    if (!o || !slot) return o;
    PyObject *old = slot->obj;
    Py_INCREF(o);
    slot->obj = o;
    slot->p = p;
    slot->r = r;
    slot->f = f;
    Py_XDECREF(old);
    return o;
}

static inline PyObject *num(EngineObject *e, double x, int as_int) {
    return as_int ? PyLong_FromLongLong((long long)x) : result_float(e, x);
}

/* The texts of examples start..start+count-1 as byte spans (phase 1 of a run, with the GIL):
 * srcs[exoff[i]] is example i's prediction, srcs[exoff[i]+1..exoff[i+1]-1] its references; keep
 * holds what the spans point into. */
typedef struct {
    PyObject *keep;
    Src *srcs; Span *items; Py_ssize_t *exoff;
    Py_ssize_t count, nsrc, srccap, nitems, itemcap;
} Texts;

static void texts_free(Texts *t) {
    Py_CLEAR(t->keep);
    free(t->srcs); free(t->items); free(t->exoff);
    t->srcs = NULL; t->items = NULL; t->exoff = NULL;
}

/* Bytes of example i's texts, plus one. */
static Py_ssize_t example_bytes(const Texts *t, Py_ssize_t i) {
    Py_ssize_t bytes = 1;
    for (Py_ssize_t k = t->exoff[i]; k < t->exoff[i + 1]; k++) {
        const Src *s = &t->srcs[k];
        if (!s->is_list) bytes += s->whole.n;
        else for (Py_ssize_t j = 0; j < s->count; j++) bytes += t->items[s->first + j].n;
    }
    return bytes;
}

/* Examples start..start+count-1, or (max_bytes > 0) the first of them up to the one that brings
 * example_bytes' sum to max_bytes: t->count says how many.  0, or -1 with an exception set (t is
 * then freed by the caller with texts_free). */
#define TEXTS_AHEAD 8
static int texts_read(EngineObject *e, PyObject *pseq, PyObject *rseq, Py_ssize_t start, Py_ssize_t count,
                      Py_ssize_t max_bytes, Texts *t) {
    memset(t, 0, sizeof(*t));
    t->keep = PyList_New(0);
    t->exoff = (Py_ssize_t *)malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    if (!t->keep || !t->exoff) { PyErr_NoMemory(); return -1; }
    /* Only the Texts holds keep, so it cannot be part of a reference cycle.  Tracked, it made the
     * first young-generation collection after an n_jobs > 1 run (where the batch, and so keep,
     * is alive until the call returns) look at every text of the batch: news, 23,000 strs out
     * of the caches, 0.76 ms of a 22 ms call on the calling thread; with one thread the texts
     * are freed before any collection, which visits the results list alone (0.17 ms). */
    PyObject_GC_UnTrack(t->keep);
    t->exoff[0] = 0;
    Py_ssize_t bytes = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        /* Python code can run below (a str subclass's lower(), a list subclass's iterator) and
         * change the caller's lists: their items are looked up afresh for each example, and the
         * example's two objects held while it is read */
        if (start + count > PySequence_Fast_GET_SIZE(pseq) || start + count > PySequence_Fast_GET_SIZE(rseq)) {
            PyErr_SetString(PyExc_RuntimeError, "predictions or references changed size while being read");
            return -1;
        }
        PyObject **pitems = PySequence_Fast_ITEMS(pseq) + start, **ritems = PySequence_Fast_ITEMS(rseq) + start;
        PyObject *p = pitems[i], *r = ritems[i], *rt = NULL;
#if defined(__GNUC__) || defined(__clang__)
        /* the objects a few examples ahead: after a batch the texts are out of L2, and their
         * headers are a dependent miss each */
        if (i + TEXTS_AHEAD < count) {
            __builtin_prefetch(pitems[i + TEXTS_AHEAD]);
            __builtin_prefetch(ritems[i + TEXTS_AHEAD]);
        }
#endif
        Py_INCREF(p);
        Py_INCREF(r);
        t->exoff[i] = t->nsrc;
        Py_ssize_t nref = 1;
        int rc = -1;
        if (PyList_Check(r) || PyTuple_Check(r)) {
            rt = PySequence_Tuple(r);
            if (!rt || PyList_Append(t->keep, rt)) goto example_done;
            keep_untracked(rt, r);
            nref = PyTuple_GET_SIZE(rt);
            if (nref == 0) { PyErr_SetString(PyExc_ValueError, "references is empty"); goto example_done; }
        } else if (!PyUnicode_Check(r) && !PyBytes_Check(r) && !PyByteArray_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "references must be str or list");
            goto example_done;
        }
        if (grow((void **)&t->srcs, &t->srccap, t->nsrc + 1 + nref, sizeof(Src))) { PyErr_NoMemory(); goto example_done; }
        if (text_spans(e, p, &t->srcs[t->nsrc++], &t->items, &t->nitems, &t->itemcap, t->keep)) goto example_done;
        Py_ssize_t k = 0;
        for (; k < nref; k++)
            if (text_spans(e, rt ? PyTuple_GET_ITEM(rt, k) : r, &t->srcs[t->nsrc++], &t->items, &t->nitems, &t->itemcap,
                           t->keep)) break;
        rc = k < nref ? -1 : 0;
    example_done:
        Py_XDECREF(rt);
        Py_DECREF(p);
        Py_DECREF(r);
        if (rc) return -1;
        t->count = i + 1;
        t->exoff[i + 1] = t->nsrc;
        if (max_bytes > 0 && (bytes += example_bytes(t, i)) >= max_bytes) break;
    }
    return 0;
}

/* Where example i's per-reference statistics start in a run's stats array. */
static inline Py_ssize_t stats_offset(const Texts *t, Py_ssize_t i, int ntypes) {
    return (t->exoff[i] - i) * ntypes;
}

/* The front cache, made once the interner's table reaches FRONT_FROM bytes: it keeps the hot
 * tokens' probes in L2 when that table no longer fits there, and a smaller table sits in L2
 * anyway.  Made earlier -- with the Worker, or at its first text -- its 384 KB were a new
 * process's first score(): 96 page faults, ~0.27 ms (a helper that never scores spent as much).
 * Optional: without memory for it the tokens go to the interner directly.  The callers ask again
 * between texts, as the table grows.  With or without the GIL. */
#define FRONT_FROM ((size_t)2 << 20)
static inline void worker_front(WorkerObject *w) {
    if (!w->front && (size_t)w->in.tabcap * sizeof(Slot) >= FRONT_FROM)
        w->front = (Front *)table_alloc(sizeof(Front) << FRONT_BITS);
}

/* Phase 2 (GIL released, c->nogil): tokenize, count, match and combine examples a..b-1 into
 * stats / scores (indexed as stats_offset and i * ntypes).  stats NULL: the call wants no
 * statistics, and each example's go to w->stats, one example at a time (a batch-sized array
 * written once and never read was 1.5 MB of stores on news, and on a first call ~360 page
 * faults).  Stops with c->err set, or with
 * w->stop after Ctrl-C / the cancel byte.  signals: this thread runs Python's signal handlers
 * between examples (only the calling thread; helpers learn of Ctrl-C by the cancel byte). */
static void score_range(Ctx *c, WorkerObject *w, const Texts *t, Py_ssize_t a, Py_ssize_t b, PS *stats, SC *scores,
                        int signals) {
    EngineObject *e = w->eng;
    for (Py_ssize_t i = a; i < b && !c->err; i++) {
        Py_ssize_t ntext = t->exoff[i + 1] - t->exoff[i], M = ntext - 1;
        if (signals && (i - a) % SIGNAL_EVERY == SIGNAL_EVERY - 1 && poll_signals(c, &w->poll_last)) break;
        if (w->cancel && *w->cancel) { worker_poll_slow(w); break; }
        if (w->in.nent > INTERN_RESET_LIMIT || w->in.alen > INTERN_RESET_BYTES) {
            /* every per-vocabulary array is back to its neutral value between examples */
            interner_free(&w->in);
            if (w->front) memset(w->front, 0, sizeof(Front) << FRONT_BITS);
        }
        worker_front(w);
        if (grow((void **)&w->tb, &w->tbcap, ntext, sizeof(TextBuf))) { c->err = ERR_NOMEM; break; }
        if (w->ntb < w->tbcap) {
            memset(w->tb + w->ntb, 0, (size_t)(w->tbcap - w->ntb) * sizeof(TextBuf));
            w->ntb = w->tbcap;
        }
        /* the next example's texts (up to 4 KB each) on their way to the cache: each sits in its
         * own Python object, so the hardware's prefetcher meets every one with a miss or two, and
         * the lowering pass waited on them (news, perf: 76 % of its samples on its loads).  News,
         * bench_ab, 21 rounds: 1.07, 1.02 and 1.055 times as fast as without; two examples ahead
         * 1.037; long texts 1.013, 4 references 1.035 */
        if (i + 1 < b)
            for (Py_ssize_t k = t->exoff[i + 1]; k < t->exoff[i + 2]; k++) {
                const Src *src = &t->srcs[k];
                if (src->is_list) continue;
                Py_ssize_t n = src->whole.n < 4096 ? src->whole.n : 4096;
                for (Py_ssize_t q = 0; q < n; q += 64) __builtin_prefetch(src->whole.p + q);
            }
        for (Py_ssize_t k = 0; k < ntext && !c->err; k++)
            read_text(c, &t->srcs[t->exoff[i] + k], t->items, &w->tb[k]);
        if (c->err) break;
        if (ensure_vocab(w)) { c->err = ERR_NOMEM; break; }
        PS *st;
        if (stats) st = stats + stats_offset(t, i, e->ntypes);
        else if (grow((void **)&w->stats, &w->statscap, (Py_ssize_t)e->ntypes * M + 1, sizeof(PS))) {
            c->err = ERR_NOMEM;
            break;
        } else st = w->stats;
        if (example_stats(w, w->tb, M, st)) { c->err = ERR_NOMEM; break; }
        if (w->stop) break;   /* Ctrl-C inside the example: c->err is set */
        if (grow((void **)&w->tmp, &w->tmpcap, M + 1, sizeof(PS))) { c->err = ERR_NOMEM; break; }
        for (int ti = 0; ti < e->ntypes; ti++) {
            double weight = e->types[ti].kind == K_W ? e->types[ti].weight : 0.0;
            int by_recall = e->flavor == FLAVOR_PAPER && e->types[ti].kind == K_N;
            /* one reference: every multi_ref rule and the jackknife give this reference's score */
            scores[i * e->ntypes + ti] = M == 1 ? score_from_counts(e, st[ti].h, st[ti].rc, st[ti].pc, weight)
                                                : reduce_scores(e, st + (Py_ssize_t)ti * M, M, weight, w->tmp, by_recall);
        }
    }
}

/* The float cache's slots of example i + 2 * BUILD_AHEAD's scores, and the objects in the slots
 * of example i + BUILD_AHEAD's (prefetched BUILD_AHEAD examples before), for write.  Scoring
 * evicts the cache and its few thousand floats, and a chunk built after its scoring (n_jobs=2)
 * met them one miss behind the other (slot, then object): on news, ~0.8 ms a call more than one
 * build after the whole batch's scoring.  With the prefetches the two cost the same, and the
 * one-thread build ~0.4 ms less than before (perf samples of result_float).  With the Score cache
 * its slots and Scores are prefetched instead (a hit reads no float slot): news, bench_ab, 21
 * rounds, against no Score cache: 1.019 and 1.044 times as fast with the float slots prefetched,
 * 1.056 and 1.047 with the Score slots. */
#define BUILD_AHEAD 4
static inline void build_prefetch(const EngineObject *e, const SC *scores, Py_ssize_t i, Py_ssize_t b) {
    uint64_t bits;
    if (e->scores) {   /* the Score cache's slots, then their Scores; floats only on a miss */
        uint64_t p, r, f;
        if (i + 2 * BUILD_AHEAD < b)
            for (int k = 0; k < e->ntypes; k++)
                __builtin_prefetch(score_slot(e, &scores[(i + 2 * BUILD_AHEAD) * e->ntypes + k], &p, &r, &f));
        if (i + BUILD_AHEAD < b)
            for (int k = 0; k < e->ntypes; k++) {
                const ScoreSlot *q = score_slot(e, &scores[(i + BUILD_AHEAD) * e->ntypes + k], &p, &r, &f);
                if (q->obj) __builtin_prefetch(q->obj, 1);
            }
        return;
    }
    if (i + 2 * BUILD_AHEAD < b)
        for (int k = 0; k < e->ntypes; k++) {
            const SC *s = &scores[(i + 2 * BUILD_AHEAD) * e->ntypes + k];
            __builtin_prefetch(float_slot(e, s->p, &bits));
            __builtin_prefetch(float_slot(e, s->r, &bits));
            __builtin_prefetch(float_slot(e, s->f, &bits));
        }
    if (i + BUILD_AHEAD < b)
        for (int k = 0; k < e->ntypes; k++) {
            const SC *s = &scores[(i + BUILD_AHEAD) * e->ntypes + k];
            const FloatSlot *q;
            if ((q = float_slot(e, s->p, &bits))->obj) __builtin_prefetch(q->obj, 1);
            if ((q = float_slot(e, s->r, &bits))->obj) __builtin_prefetch(q->obj, 1);
            if ((q = float_slot(e, s->f, &bits))->obj) __builtin_prefetch(q->obj, 1);
        }
}

/* Phase 3 (GIL): the Python objects of examples a..b-1 into scores_list[i] (and stats_list[i]
 * unless NULL).  Nothing built here can form a cycle, so the collector is paused rather than
 * run over the growing result again and again.  0, or -1 with an exception set. */
static int build_range(EngineObject *e, const Texts *t, Py_ssize_t a, Py_ssize_t b, const PS *stats,
                       const SC *scores, PyObject *scores_list, PyObject *stats_list, Py_ssize_t list_offset) {
    int gc_was_enabled = PyGC_Disable(), rc = -1;
    float_cache_fit(e, b - a);
    for (Py_ssize_t i = a; i < b; i++) {
        if (e->floats) build_prefetch(e, scores, i, b);
        Py_ssize_t M = t->exoff[i + 1] - t->exoff[i] - 1, soff = stats_offset(t, i, e->ntypes);
        PyObject *d = PyDict_New();
        if (!d) goto end;
        PyList_SET_ITEM(scores_list, list_offset + i, d);
        PyObject *sd = NULL;
        if (stats_list) {
            if (!(sd = PyDict_New())) goto end;
            PyList_SET_ITEM(stats_list, list_offset + i, sd);
        }
        for (int ti = 0; ti < e->ntypes; ti++) {
            SC s = scores[i * e->ntypes + ti];
            PyObject *sc = result_score(e, s);
            if (!sc) goto end;
            int failed = PyDict_SetItem(d, e->types[ti].name, sc);
            Py_DECREF(sc);
            if (failed) goto end;
            if (!sd) continue;
            int ints = e->types[ti].kind != K_W;
            PyObject *lst = PyList_New(M);
            if (!lst) goto end;
            for (Py_ssize_t r = 0; r < M; r++) {
                const PS *p = &stats[soff + (Py_ssize_t)ti * M + r];
                PyObject *tp = make_tuple(e->stats_type, e->stats_plain, num(e, p->h, ints), num(e, p->rc, ints),
                                          num(e, p->pc, ints), result_float(e, p->sel));
                if (!tp) { Py_DECREF(lst); goto end; }
                PyList_SET_ITEM(lst, r, tp);
            }
            failed = PyDict_SetItem(sd, e->types[ti].name, lst);
            Py_DECREF(lst);
            if (failed) goto end;
        }
        /* str keys and untracked Scores: the dict cannot be part of a cycle (CPython tracks it
         * because Score is a tuple subclass; a later insertion of a container tracks it again) */
        if (!sd && PyObject_GC_IsTracked(d)) PyObject_GC_UnTrack(d);
    }
    rc = 0;
end:
    if (gc_was_enabled) PyGC_Enable();
    return rc;
}

/* Two sequences of the same examples, clipped: start..*stop-1 exist in both. */
static int run_sequences(PyObject *preds, PyObject *refs, PyObject **pseq, PyObject **rseq, Py_ssize_t *start,
                         Py_ssize_t *stop) {
    *pseq = PySequence_Fast(preds, "predictions must be a sequence");
    if (!*pseq) return -1;
    *rseq = PySequence_Fast(refs, "references must be a sequence");
    if (!*rseq) { Py_CLEAR(*pseq); return -1; }
    if (*start < 0) *start = 0;
    if (*stop > PySequence_Fast_GET_SIZE(*pseq)) *stop = PySequence_Fast_GET_SIZE(*pseq);
    if (*stop > PySequence_Fast_GET_SIZE(*rseq)) *stop = PySequence_Fast_GET_SIZE(*rseq);
    if (*stop < *start) *stop = *start;
    return 0;
}

/* run(predictions, references, start, stop, with_stats, cancel=None) -> (scores, stats or None)
 * scores: [{type: Score}], stats: [{type: [PairStats per reference]}] for examples
 * start..stop-1.  cancel: a bytearray of one byte; another thread sets it to stop this run
 * (KeyboardInterrupt) within a millisecond or so. */
static PyObject *worker_run(WorkerObject *w, PyObject *preds, PyObject *refs, Py_ssize_t start, Py_ssize_t stop,
                            int with_stats, PyObject *cancel, PyObject *table);

static PyObject *Worker_run(WorkerObject *w, PyObject *args) {
    PyObject *preds, *refs, *cancel = Py_None, *table = Py_None;
    Py_ssize_t start, stop;
    int with_stats;
    if (!PyArg_ParseTuple(args, "OOnnp|OO", &preds, &refs, &start, &stop, &with_stats, &cancel, &table)) return NULL;
    return worker_run(w, preds, refs, start, stop, with_stats, cancel, table);
}

/* score(prediction, references) -> the scores of one example: run((prediction,), (references,),
 * 0, 1, False)[0][0] without the argument tuple, its parsing and the result's list and tuple
 * (RougeScorer.score's path, where they were a sixth of a short pair's time). */
static PyObject *Worker_score(WorkerObject *w, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "score() takes 2 arguments (prediction, references), got %zd", nargs);
        return NULL;
    }
    PyObject *preds = PyTuple_Pack(1, args[0]), *refs = preds ? PyTuple_Pack(1, args[1]) : NULL, *res = NULL, *one = NULL;
    if (refs) res = worker_run(w, preds, refs, 0, 1, 0, Py_None, Py_None);
    if (res) {
        one = PyList_GET_ITEM(PyTuple_GET_ITEM(res, 0), 0);
        Py_INCREF(one);
    }
    Py_XDECREF(res);
    Py_XDECREF(preds);
    Py_XDECREF(refs);
    return one;
}

/* The buffer of a run's table argument: writable, C-contiguous float64.  0, or -1 with an
 * exception set (nothing held). */
static int table_buffer(PyObject *table, Py_buffer *out) {
    if (PyObject_GetBuffer(table, out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) return -1;
    const char *f = out->format ? out->format : "B";
    if (f[0] == '@' || f[0] == '=') f++;   /* native order only */
    if (strcmp(f, "d") == 0) return 0;
    PyErr_Format(PyExc_TypeError, "table: a float64 buffer, got format %s", out->format ? out->format : "B");
    PyBuffer_Release(out);
    return -1;
}

/* 0 when the table holds count examples' scores, else -1 with ValueError set. */
static int table_size_check(const Py_buffer *out, Py_ssize_t count, int ntypes) {
    Py_ssize_t want = (Py_ssize_t)((size_t)count * 3 * (size_t)ntypes * sizeof(double));
    if (out->len == want) return 0;
    PyErr_Format(PyExc_ValueError, "table: %zd bytes for %zd examples x %d types x 3 float64, got %zd",
                 want, count, ntypes, out->len);
    return -1;
}

/* n (example, type) scores as table rows of float64 P, R, F: no Python object per example */
static void scores_to_table(const SC *s, Py_ssize_t n, double *o) {
    for (Py_ssize_t k = 0; k < n; k++) {
        o[3 * k] = s[k].p;
        o[3 * k + 1] = s[k].r;
        o[3 * k + 2] = s[k].f;
    }
}

static PyObject *worker_run(WorkerObject *w, PyObject *preds, PyObject *refs, Py_ssize_t start, Py_ssize_t stop,
                            int with_stats, PyObject *cancel, PyObject *table) {
    PyObject *pseq, *rseq;
    if (cancel == Py_None) cancel = NULL;
    else if (!PyByteArray_Check(cancel) || PyByteArray_GET_SIZE(cancel) < 1) {
        PyErr_SetString(PyExc_ValueError, "cancel: a bytearray of one byte, or None");
        return NULL;
    }
    if (w->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)");
        return NULL;
    }
    Py_buffer out = {0};
    if (table != Py_None && table_buffer(table, &out)) return NULL;
    EngineObject *e = w->eng;
    if (run_sequences(preds, refs, &pseq, &rseq, &start, &stop)) { PyBuffer_Release(&out); return NULL; }
    Py_ssize_t count = stop - start;
    PyObject *result = NULL, *scores_list = NULL, *stats_list = NULL;
    Texts t;
    memset(&t, 0, sizeof(t));
    w->busy = 1;
    if (out.obj && table_size_check(&out, count, e->ntypes)) goto fail;
    if (texts_read(e, pseq, rseq, start, count, 0, &t)) goto fail;
    if ((with_stats && grow((void **)&w->stats, &w->statscap, (t.nsrc - count) * e->ntypes + 1, sizeof(PS))) ||
        grow((void **)&w->scores, &w->scorescap, count * e->ntypes + 1, sizeof(SC))) { PyErr_NoMemory(); goto fail; }
    PS *stats = with_stats ? w->stats : NULL;
    {
        Ctx c = {w, NULL, 1, 0};
        c.ts = PyEval_SaveThread();
        poll_begin(w, &c, cancel ? (const volatile unsigned char *)PyByteArray_AS_STRING(cancel) : NULL);
        score_range(&c, w, &t, 0, count, stats, w->scores, 1);
        poll_end(w);
        PyEval_RestoreThread(c.ts);
        if (c.err == ERR_NOMEM) { PyErr_NoMemory(); goto fail; }
        if (c.err) goto fail;
    }
    if (out.obj) {
        scores_to_table(w->scores, count * e->ntypes, (double *)out.buf);
        Py_INCREF(Py_None);
        result = Py_None;
        goto fail;
    }
    scores_list = PyList_New(count);
    if (!scores_list) goto fail;
    if (with_stats && !(stats_list = PyList_New(count))) goto fail;
    if (build_range(e, &t, 0, count, stats, w->scores, scores_list, stats_list, 0)) goto fail;
    result = PyTuple_Pack(2, scores_list, with_stats ? stats_list : Py_None);
fail:
    PyBuffer_Release(&out);
    w->busy = 0;
    Py_XDECREF(scores_list);
    Py_XDECREF(stats_list);
    texts_free(&t);
    Py_DECREF(pseq);
    Py_DECREF(rseq);
    return result;
}

/* tokens(text) -> (joined, sentence ends, sentence-reader tokens, flat) as lists of strings:
 * the readers' view of one text, for tests and debugging. */
static PyObject *Worker_tokens(WorkerObject *w, PyObject *text) {
    PyObject *keep = PyList_New(0);
    Span *items = NULL;
    Py_ssize_t nitems = 0, itemcap = 0;
    Src src;
    PyObject *out = NULL;
    if (!keep) return NULL;
    if (text_spans(w->eng, text, &src, &items, &nitems, &itemcap, keep)) goto end;
    if (grow((void **)&w->tb, &w->tbcap, 1, sizeof(TextBuf))) { PyErr_NoMemory(); goto end; }
    if (w->ntb < w->tbcap) { memset(w->tb + w->ntb, 0, (size_t)(w->tbcap - w->ntb) * sizeof(TextBuf)); w->ntb = w->tbcap; }
    {
        Ctx c = {w, NULL, 0, 0};
        worker_front(w);
        read_text(&c, &src, items, &w->tb[0]);
        if (c.err == ERR_NOMEM) { PyErr_NoMemory(); goto end; }
        if (c.err) goto end;
    }
    {
        TextBuf *tb = &w->tb[0];
        IVec *vs[3] = {&tb->tok, tb->stok_alias ? &tb->tok : &tb->stok, FLAT(tb)};
        PyObject *lists[3] = {NULL, NULL, NULL};
        for (int k = 0; k < 3; k++) {
            lists[k] = PyList_New(vs[k]->n);
            if (!lists[k]) break;
            for (Py_ssize_t i = 0; i < vs[k]->n; i++) {
                Entry *en = &w->in.ent[vs[k]->v[i]];
                PyList_SET_ITEM(lists[k], i, PyUnicode_DecodeUTF8(w->in.arena + en->off, en->len, "surrogatepass"));
            }
        }
        PyObject *ends = PyList_New(tb->send.n);
        if (ends) for (Py_ssize_t i = 0; i < tb->send.n; i++) PyList_SET_ITEM(ends, i, PyLong_FromLong(tb->send.v[i]));
        if (lists[0] && lists[1] && lists[2] && ends) out = PyTuple_Pack(4, lists[0], ends, lists[1], lists[2]);
        for (int k = 0; k < 3; k++) Py_XDECREF(lists[k]);
        Py_XDECREF(ends);
    }
end:
    Py_DECREF(keep);
    free(items);
    return out;
}

static PyObject *Worker_vocabulary_size(WorkerObject *w, PyObject *unused) {
    return PyLong_FromSsize_t(w->in.nent);
}

static PyObject *Worker_arena_bytes(WorkerObject *w, PyObject *unused) {
    return PyLong_FromSsize_t(w->in.alen);
}

static PyObject *Worker_memory_bytes(WorkerObject *w, PyObject *unused) {
    return PyLong_FromSize_t(worker_bytes(w));
}

static PyObject *Worker_front_cache_bytes(WorkerObject *w, PyObject *unused) {
    return PyLong_FromSize_t(w->front ? sizeof(Front) << FRONT_BITS : 0);
}

/* _skip_arena(n): advance the token cache's arena by n unwritten bytes, so that tests reach
 * offsets past 4 GiB with address space only (large blocks are mapped lazily). */
static PyObject *Worker_skip_arena(WorkerObject *w, PyObject *arg) {
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0 || w->busy) { PyErr_SetString(PyExc_ValueError, "n must be >= 0 (and the Worker idle)"); return NULL; }
    if (grow((void **)&w->in.arena, &w->in.acap, w->in.alen + n + 1, 1)) return PyErr_NoMemory();
    w->in.alen += n;
    Py_RETURN_NONE;
}

static PyMethodDef Worker_methods[] = {
    {"run", (PyCFunction)Worker_run, METH_VARARGS,
     "run(predictions, references, start, stop, with_stats, cancel=None, table=None) -> (scores, stats or None);\n"
     "cancel: a one-byte bytearray another thread sets to stop the run (KeyboardInterrupt); table: a\n"
     "writable C-contiguous float64 buffer of (stop - start) x types x 3 that receives the scores instead\n"
     "(P, R, F per type; the result is then None)."},
    {"score", (PyCFunction)(void (*)(void))Worker_score, METH_FASTCALL,
     "score(prediction, references) -> the scores of one example, as run((prediction,), (references,), 0, 1, False)[0][0]"},
    {"tokens", (PyCFunction)Worker_tokens, METH_O,
     "tokens(text) -> (joined tokens, sentence ends, sentence-reader tokens, flat tokens)"},
    {"vocabulary_size", (PyCFunction)Worker_vocabulary_size, METH_NOARGS, "Entries in the token cache."},
    {"arena_bytes", (PyCFunction)Worker_arena_bytes, METH_NOARGS, "Bytes of token text in the token cache."},
    {"memory_bytes", (PyCFunction)Worker_memory_bytes, METH_NOARGS,
     "Bytes the Worker's buffers hold (their capacities: token cache, front cache, scratch)."},
    {"front_cache_bytes", (PyCFunction)Worker_front_cache_bytes, METH_NOARGS,
     "Bytes of the front cache (0 until the Worker's interner table reaches 2 MB)."},
    {"_skip_arena", (PyCFunction)Worker_skip_arena, METH_O, "_skip_arena(n): leave n unwritten bytes in the token cache (tests)."},
    {NULL}
};

static PyTypeObject WorkerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_full_metric._core.Worker",
    .tp_basicsize = sizeof(WorkerObject),
    .tp_dealloc = (destructor)Worker_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scratch state of one scoring thread (token cache, buffers); create with Engine.worker().",
    .tp_methods = Worker_methods,
};
