/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* Engine                                                                                        */

static int kind_of(PyObject *s) {
    const char *k = PyUnicode_AsUTF8(s);
    if (!k) return -1;
    if (!strcmp(k, "N")) return K_N;
    if (!strcmp(k, "L")) return K_L;
    if (!strcmp(k, "Lsum")) return K_LSUM;
    if (!strcmp(k, "W")) return K_W;
    if (!strcmp(k, "S")) return K_S;
    PyErr_Format(PyExc_ValueError, "unknown rouge type kind %R", s);
    return -1;
}

static void float_cache_free(EngineObject *e) {
    if (e->floats) {
        for (Py_ssize_t k = 0; k < (Py_ssize_t)1 << e->float_bits; k++) Py_XDECREF(e->floats[k].obj);
        PyMem_Free(e->floats);
    }
    if (e->scores) {
        for (Py_ssize_t k = 0; k < (Py_ssize_t)1 << e->float_bits; k++) Py_XDECREF(e->scores[k].obj);
        PyMem_Free(e->scores);
    }
    e->floats = NULL;
    e->scores = NULL;
}

static void Engine_dealloc(EngineObject *self) {
    if (self->types) {
        for (int i = 0; i < self->ntypes; i++) Py_XDECREF(self->types[i].name);
        PyMem_Free(self->types);
    }
    Py_XDECREF(self->filter);
    interner_free(&self->stops);
    if (!self->exc_shared) interner_free(&self->exc);
    Py_XDECREF(self->score_type);
    Py_XDECREF(self->stats_type);
    float_cache_free(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* UTF-8 of a str; *ascii: whether every byte is ASCII (only such keys can meet a native token). */
static const char *utf8_of(PyObject *o, Py_ssize_t *n, int *ascii) {
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected a str, got %.100s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    const char *s = PyUnicode_AsUTF8AndSize(o, n);
    *ascii = 1;
    for (Py_ssize_t k = 0; s && k < *n; k++)
        if ((unsigned char)s[k] >= 0x80) *ascii = 0;
    return s;
}

/* The exception table from its text, "inflected<TAB>base" lines (rouge155_data.WORDNET_EXCEPTIONS):
 * a later line for the same key wins, as in the dict stemmer.py builds from it; keys that are not
 * ASCII are left out (no native token can meet them).  0, or -1 with an exception set. */
static int exc_from_text(Interner *in, PyObject *text) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    if (!s) return -1;
    const char *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl) nl = end;
        const char *tab = memchr(s, '\t', (size_t)(nl - s));
        if (!tab || memchr(tab + 1, '\t', (size_t)(nl - tab - 1))) {
            PyErr_SetString(PyExc_ValueError, "the exception table's text must be one 'inflected<TAB>base' pair per line");
            return -1;
        }
        int ascii = 1;
        for (const char *p = s; p < tab; p++)
            if ((unsigned char)*p >= 0x80) ascii = 0;
        if (ascii) {
            Py_ssize_t vi = intern(in, tab + 1, nl - tab - 1, -1), ki = vi < 0 ? -1 : intern(in, s, tab - s, -1);
            if (ki < 0) { PyErr_NoMemory(); return -1; }
            interner_set_fin(in, ki, (int32_t)vi);
        }
        s = nl + 1;
    }
    return 0;
}

/* The exception table built from the first text given, and that text (a reference kept): every
 * Engine given the same str shares it, read-only, for the life of the process.  Building it took
 * a stemmed scorer's Engine 1.4 ms warm and 2.2 ms in a new process, each time. */
static Interner text_exc;
static PyObject *text_exc_source;

/* native = (use_stemmer, remove_stopwords, stop words, exception table): the table a dict
 * {inflected: base form}, or its text (see exc_from_text) */
static int set_native(EngineObject *self, PyObject *native) {
    int stem, stop, ascii;
    PyObject *words, *table, *item, *key, *value;
    if (!PyArg_ParseTuple(native, "ppOO", &stem, &stop, &words, &table)) return -1;
    if (!PyDict_Check(table) && !PyUnicode_Check(table)) {
        PyErr_Format(PyExc_TypeError, "the exception table must be a dict or its text, got %.100s",
                     Py_TYPE(table)->tp_name);
        return -1;
    }
    interner_free(&self->stops);
    if (!self->exc_shared) interner_free(&self->exc);
    memset(&self->exc, 0, sizeof self->exc);
    self->exc_shared = 0;
    PyObject *it = PyObject_GetIter(words);
    if (!it) return -1;
    while ((item = PyIter_Next(it))) {
        Py_ssize_t n;
        const char *s = utf8_of(item, &n, &ascii);
        if (s && ascii && intern(&self->stops, s, n, -1) < 0) PyErr_NoMemory();
        Py_DECREF(item);
        if (PyErr_Occurred()) break;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return -1;
    if (PyUnicode_Check(table)) {
        if (table != text_exc_source) {
            if (text_exc_source) {   /* another text than the first: this Engine's own table */
                if (exc_from_text(&self->exc, table) < 0) return -1;
                goto done;
            }
            Interner built;
            memset(&built, 0, sizeof built);
            if (exc_from_text(&built, table) < 0) { interner_free(&built); return -1; }
            text_exc = built;
            Py_INCREF(table);
            text_exc_source = table;
        }
        self->exc = text_exc;
        self->exc_shared = 1;
        goto done;
    }
    Py_ssize_t pos = 0;
    while (PyDict_Next(table, &pos, &key, &value)) {
        Py_ssize_t kn, vn;
        int vascii;
        const char *k = utf8_of(key, &kn, &ascii), *v = k ? utf8_of(value, &vn, &vascii) : NULL;
        if (!v) return -1;
        if (!ascii) continue;
        Py_ssize_t vi = intern(&self->exc, v, vn, -1), ki = vi < 0 ? -1 : intern(&self->exc, k, kn, -1);
        if (ki < 0) { PyErr_NoMemory(); return -1; }
        interner_set_fin(&self->exc, ki, (int32_t)vi);
    }
done:
    self->native = 1;
    self->stem = stem;
    self->drop_stop = stop;
    return 0;
}

/* Whether type is a tuple subclass with nothing but the tuple's items (a namedtuple: no
 * __dict__, no weak references), so that its instances can be made without tp_alloc. */
static int tuple_plain(PyTypeObject *tp) {
    return tp->tp_alloc == PyType_GenericAlloc && tp->tp_basicsize == PyTuple_Type.tp_basicsize &&
           tp->tp_dictoffset == 0 && tp->tp_weaklistoffset == 0;
}

/* Engine(flavor, types, word_limit, byte_limit, multi_ref, jackknife, alpha, token_filter,
 *        Score, PairStats[, native]); types: [(name, kind, n, weight, max_gap or -1, unigrams)];
 * native (see set_native) makes the core apply token_filter's stop words and stemmer itself;
 * in flavor rouge_score it is "nltk_porter" (token_filter: rouge_score's tokenizer with NLTK).
 * Keyword tokenizer= (see engine_tokenizer): "perl" (default), "xlsum", "xlsum_basic", "whitespace". */
static int Engine_init(EngineObject *self, PyObject *args, PyObject *kwds) {
    const char *flavor, *multi_ref;
    PyObject *types, *filter, *score_type, *stats_type, *native = Py_None;
    Py_ssize_t wl, bl;
    int jack;
    double alpha;
    if (!PyArg_ParseTuple(args, "sOnnspdOOO|O", &flavor, &types, &wl, &bl, &multi_ref, &jack, &alpha,
                          &filter, &score_type, &stats_type, &native))
        return -1;
    if (!strcmp(flavor, "rouge155")) self->flavor = FLAVOR_ROUGE155;
    else if (!strcmp(flavor, "paper")) self->flavor = FLAVOR_PAPER;
    else if (!strcmp(flavor, "rouge_score")) self->flavor = FLAVOR_RS;
    else { PyErr_Format(PyExc_ValueError, "unknown flavor %s", flavor); return -1; }
    if (!strcmp(multi_ref, "average")) self->multi_ref = MR_AVERAGE;
    else if (!strcmp(multi_ref, "best")) self->multi_ref = MR_BEST;
    else if (!strcmp(multi_ref, "max")) self->multi_ref = MR_MAX;
    else if (!strcmp(multi_ref, "max_rp")) self->multi_ref = MR_MAX_RP;
    else { PyErr_Format(PyExc_ValueError, "unknown multi_ref %s", multi_ref); return -1; }
    if (!PyType_Check(score_type) || !PyType_IsSubtype((PyTypeObject *)score_type, &PyTuple_Type) ||
        !PyType_Check(stats_type) || !PyType_IsSubtype((PyTypeObject *)stats_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Score and PairStats must be tuple subclasses");
        return -1;
    }
    PyObject *seq = PySequence_Fast(types, "types must be a sequence");
    if (!seq) return -1;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(seq);
    self->types = (TSpec *)PyMem_Calloc((size_t)(nt ? nt : 1), sizeof(TSpec));
    if (!self->types) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    self->ntypes = 0;
    int has_L = 0, has_W = 0;
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *name, *kind;
        int n, maxgap, uni;
        double weight;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "UUidip", &name, &kind, &n, &weight, &maxgap, &uni)) {
            Py_DECREF(seq);
            return -1;
        }
        TSpec *t = &self->types[self->ntypes];
        t->kind = kind_of(kind);
        if (t->kind < 0) { Py_DECREF(seq); return -1; }
        if (t->kind == K_N && n < 1) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "n must be >= 1"); return -1; }
        /* the ranges of rouge_types.py (MAX_N, MIN/MAX_W_WEIGHT): beyond them counts and
         * weights overflow */
        if ((t->kind == K_N && n > 1000000) || (t->kind == K_W && !(weight >= 0.1 && weight <= 5.0)) ||
            (t->kind == K_S && maxgap < -1)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "rouge type %R: n, weight or gap out of range", name);
            return -1;
        }
        t->n = n; t->weight = weight; t->max_gap = maxgap; t->unigrams = uni;
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        t->name = name;
        self->ntypes++;
        if (t->kind == K_LSUM || t->kind == K_W) self->needs_sentences = 1;
        if (t->kind == K_L) has_L = 1;
        if (t->kind == K_W) has_W = 1;
    }
    Py_DECREF(seq);
    self->single_ref_kinds = single_ref_kinds(self);
    self->word_limit = wl > 0 ? wl : 0;
    self->byte_limit = bl > 0 ? bl : 0;
    if (self->word_limit && self->byte_limit) {
        PyErr_SetString(PyExc_ValueError, "word_limit and byte_limit exclude each other");
        return -1;
    }
    self->needs_flat = (self->word_limit || self->byte_limit) &&
                       (has_L || (has_W && self->flavor == FLAVOR_PAPER));
    self->jackknife = jack;
    self->alpha = alpha;
    self->rounded = self->flavor == FLAVOR_ROUGE155;
    self->rs_f = self->flavor == FLAVOR_RS && alpha == 0.5;
    if (filter != Py_None) {
        if (!PyCallable_Check(filter)) { PyErr_SetString(PyExc_TypeError, "token_filter must be callable or None"); return -1; }
        Py_INCREF(filter);
        self->filter = filter;
    }
    self->native = 0;
    if (native != Py_None) {
        /* tokens outside [a-z0-9] still go to the Python filter */
        if (!self->filter) { PyErr_SetString(PyExc_TypeError, "a native filter needs token_filter as its fallback"); return -1; }
        if (self->flavor == FLAVOR_RS) {
            /* rouge_score's tokenizer with use_stemmer: NLTK's Porter on tokens of > 3 characters */
            if (!PyUnicode_Check(native) || PyUnicode_CompareWithASCIIString(native, "nltk_porter")) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, "flavor rouge_score's native filter must be 'nltk_porter', got %R", native);
                return -1;
            }
            self->native = 1;
            self->nltk_stem = 1;
        } else if (set_native(self, native)) return -1;
    }
    if (engine_tokenizer(self, kwds)) return -1;
    Py_INCREF(score_type); self->score_type = score_type;
    Py_INCREF(stats_type); self->stats_type = stats_type;
    self->score_plain = tuple_plain((PyTypeObject *)score_type);
    self->stats_plain = tuple_plain((PyTypeObject *)stats_type);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Parked Workers: the memory of dropped Workers, kept for the next ones                        */
/*
 * A new scorer's Workers used to allocate their token cache and buffers afresh, and the ones of
 * the scorer just dropped had been given back: glibc trims the top of its heap past 128 KiB-32
 * MiB free, so every page came back through a page fault (2.8 us each on a virtual machine):
 * ~1,500 faults a news batch for a new scorer, 4 of its 5 ms of cold cost, and with n_jobs=2
 * both threads faulting while the caller's frees sent the other CPU TLB shootdowns (1.4x the
 * CPU of n_jobs=1).  A dropped Worker's buffers (token cache emptied, the Engine's own parts
 * freed) wait here for the next Engine.worker(); the vocabulary invariants hold as after the
 * token cache's reset between examples.  At most SPARE_MAX Workers of at most SPARE_BYTES each
 * wait (the GIL guards the array); _spare_workers(0) empties it. */
#define SPARE_BYTES ((size_t)16 << 20)
static void worker_free_buffers(WorkerObject *w);   /* worker.c */
static int SPARE_MAX = 2;
static WorkerObject spare_workers[8];
static int nspare;

/* The bytes a Worker's growable buffers hold (their capacities). */
static size_t worker_bytes(const WorkerObject *w) {
    size_t b = (size_t)w->in.tabcap * sizeof(Slot) + (size_t)w->in.capent * sizeof(Entry) + (size_t)w->in.acap;
    b += w->front ? sizeof(Front) << FRONT_BITS : 0;
    for (Py_ssize_t i = 0; i < w->tbcap; i++)
        b += (size_t)(w->tb[i].tok.cap + w->tb[i].stok.cap + w->tb[i].send.cap + w->tb[i].ftok.cap) * sizeof(int32_t);
#define ARRAY_BYTES(p, cap) b += (size_t)w->cap * sizeof(*w->p);
    WORKER_ARRAYS(ARRAY_BYTES)
#undef ARRAY_BYTES
    return b;
}

/* The parts sized by the Engine's types: freed with the Worker or when it is parked. */
static void worker_free_engine_parts(WorkerObject *w) {
    if (w->f) {
        for (int i = 0; w->eng && i < w->eng->ntypes + 1; i++) free(w->f[i]);
        free(w->f);
    }
    free(w->fn); free(w->ppc); free(w->pgap);
    w->f = NULL; w->fn = NULL; w->ppc = NULL; w->pgap = NULL;
}

/* Keep w's buffers for a later Worker (w->eng already released): 1, or 0 when there is no room
 * (the caller frees them).  Called with the GIL. */
static int worker_park(WorkerObject *w) {
    if (nspare >= SPARE_MAX || w->busy || worker_bytes(w) > SPARE_BYTES) return 0;
    if (w->front) {
        /* Every filled front slot is that of a token the interner holds (emit_h; a reset of the
         * interner clears them all), so few tokens clear their slots alone: the whole 384 KB was
         * most of what dropping a scorer that scored one pair cost (6 of ~36 us). */
        if (w->in.nent < ((Py_ssize_t)1 << FRONT_BITS) / 16)
            for (Py_ssize_t k = 0; k < w->in.nent; k++)
                memset(&w->front[w->in.ent[k].h >> (64 - FRONT_BITS)], 0, sizeof(Front));
        else
            memset(w->front, 0, sizeof(Front) << FRONT_BITS);
    }
    interner_clear(&w->in);
    w->ctx = NULL;
    w->cancel = NULL;
    w->stop = 0;
    w->poll_work = w->poll_last = 0;
    memcpy(&spare_workers[nspare++], w, sizeof(WorkerObject));
    return 1;
}

static void spare_release(int keep) {
    while (nspare > keep) worker_free_buffers(&spare_workers[--nspare]);
}

/* _spare_workers(n) -> previous n: how many dropped Workers' buffers wait for new ones (0-8;
 * 0 frees those waiting). */
static PyObject *mod_spare_workers(PyObject *self, PyObject *arg) {
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0 || n > (long)(sizeof(spare_workers) / sizeof(spare_workers[0]))) {
        PyErr_SetString(PyExc_ValueError, "n: 0-8 spare Workers");
        return NULL;
    }
    int old = SPARE_MAX;
    SPARE_MAX = (int)n;
    spare_release(SPARE_MAX);
    return PyLong_FromLong(old);
}

static PyObject *Engine_worker(EngineObject *self, PyObject *unused) {
    WorkerObject *w = PyObject_New(WorkerObject, &WorkerType);
    if (!w) return NULL;
    char *start = (char *)w + offsetof(WorkerObject, eng);
    if (nspare) memcpy(start, (char *)&spare_workers[--nspare] + offsetof(WorkerObject, eng),
                       sizeof(WorkerObject) - offsetof(WorkerObject, eng));
    else memset(start, 0, sizeof(WorkerObject) - offsetof(WorkerObject, eng));
    Py_INCREF(self);
    w->eng = self;
    w->f = (double **)calloc((size_t)(self->ntypes + 1), sizeof(double *));
    w->fn = (Py_ssize_t *)calloc((size_t)(self->ntypes + 1), sizeof(Py_ssize_t));
    w->ppc = (double *)calloc((size_t)(self->ntypes + 1), sizeof(double));
    w->pgap = (int *)calloc((size_t)(self->ntypes + 1), sizeof(int));
    if (!w->f || !w->fn || !w->ppc || !w->pgap) { Py_DECREF(w); return PyErr_NoMemory(); }
    return (PyObject *)w;
}

/* An ASCII str without '\n' (where Python's "$" would also match before a final newline) as a
 * new PyMem buffer with room to stem it, lower-cased if lower. */
static char *stem_arg(PyObject *arg, Py_ssize_t *n, int lower) {
    int ascii;
    const char *s = utf8_of(arg, n, &ascii);
    if (!s) return NULL;
    if (!ascii || memchr(s, '\n', (size_t)*n)) {
        PyErr_SetString(PyExc_ValueError, "the C stemmer takes ASCII words without a newline");
        return NULL;
    }
    char *buf = (char *)PyMem_Malloc((size_t)*n + 8);
    if (!buf) { PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t k = 0; k < *n; k++) buf[k] = lower && s[k] >= 'A' && s[k] <= 'Z' ? (char)(s[k] + 32) : s[k];
    return buf;
}

static PyObject *Engine_stem(EngineObject *self, PyObject *arg) {
    if (!self->native || !self->stem) {
        PyErr_SetString(PyExc_ValueError, "this Engine has no native stemmer");
        return NULL;
    }
    Py_ssize_t n, len;
    char *buf = stem_arg(arg, &n, 1);
    if (!buf) return NULL;
    const char *r = morph_stem(self, buf, n, &len);
    PyObject *out = PyUnicode_DecodeUTF8(r, len, NULL);
    PyMem_Free(buf);
    return out;
}

static PyObject *Engine_batch(EngineObject *e, PyObject *args);   /* parallel.c */

static PyMethodDef Engine_methods[] = {
    {"batch", (PyCFunction)Engine_batch, METH_VARARGS,
     "batch(predictions, references, start, stop, with_stats, threads, table=None) -> Batch: examples\n"
     "start..stop-1 read once, for several threads to score (parallel.c); table as Worker.run's."},
    {"worker", (PyCFunction)Engine_worker, METH_NOARGS,
     "A new Worker: the scratch state (token cache, buffers) of one scoring thread."},
    {"stem", (PyCFunction)Engine_stem, METH_O,
     "stem(word) -> stemmer.stem(word) computed by the native filter (ASCII words; for tests)."},
    {NULL}
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_full_metric._core.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The options of one RougeScorer, compiled.",
    .tp_methods = Engine_methods,
    .tp_init = (initproc)Engine_init,
    .tp_new = PyType_GenericNew,
};
