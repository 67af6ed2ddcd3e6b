/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* Worker                                                                                        */

static void textbuf_free(TextBuf *t) { free(t->tok.v); free(t->stok.v); free(t->send.v); free(t->ftok.v); }

static void Worker_dealloc(WorkerObject *w) {
    interner_free(&w->in);
    free(w->front);
    free(w->slot); free(w->loc);
    free(w->lp.v); free(w->lr.v); free(w->lro); free(w->dcnt); free(w->ucnt);
    free(w->ph); free(w->prc); free(w->ppc); free(w->pgap);
    for (Py_ssize_t i = 0; i < w->tbcap; i++) textbuf_free(&w->tb[i]);
    free(w->tb); free(w->tbuf); free(w->sbuf); free(w->nbuf); free(w->lines); free(w->flat); free(w->pdist.v); free(w->red.v);
    free(w->lslot1);
    free(w->lslot); free(w->lbm); free(w->lbp); free(w->lustamp); free(w->lpstamp);
    free(w->lps.v); free(w->lrs.v); free(w->lrso);
    free(w->masks); free(w->rows); free(w->ck); free(w->wc); free(w->wr); free(w->zeros); free(w->wck); free(w->wckr);
    free(w->mark); free(w->carry); free(w->gt);
    if (w->f) {
        for (int i = 0; w->eng && i < w->eng->ntypes + 1; i++) free(w->f[i]);
        free(w->f);
    }
    free(w->fn);
    free(w->stats); free(w->scores); free(w->tmp);
    free(w->rtab); free(w->pre); free(w->rflag); free(w->lcnt); free(w->wrow);
    free(w->lmask); free(w->pid); free(w->rid); free(w->cell); free(w->gcnt); free(w->clog); free(w->ltab); free(w->nh);
    Py_XDECREF(w->eng);
    PyObject_Free(w);
}

/* One text (a str, bytes, or a list/tuple of sentences) as spans; new references to keep
 * alive go to keep.  Returns 0, or -1 with an exception set (the caller falls back to the
 * pure-Python path, which raises the canonical message). */
static int text_spans(EngineObject *e, PyObject *o, Src *src, Span **items, Py_ssize_t *nitems,
                      Py_ssize_t *capitems, PyObject *keep) {
    memset(src, 0, sizeof(*src));
    int rs = e->flavor == FLAVOR_RS;
    if (PyUnicode_Check(o)) {
        if ((e->tokenizer == TOK_XLSUM || e->tokenizer == TOK_XLSUM_BASIC) && !(o = xl_lowered(o, keep))) return -1;
        if (PyUnicode_READY(o) < 0) return -1;
        if (PyUnicode_IS_ASCII(o)) {
            /* no copy; the reference in keep guards against the caller's list changing */
            if (PyList_Append(keep, o)) return -1;
            src->whole.p = (const char *)PyUnicode_DATA(o);
            src->whole.n = PyUnicode_GET_LENGTH(o);
            return 0;
        }
        PyObject *b = PyUnicode_AsEncodedString(o, "utf-8", "surrogatepass");
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

static inline PyObject *make_tuple(PyObject *type, PyObject *a, PyObject *b, PyObject *c, PyObject *d) {
    Py_ssize_t n = d ? 4 : 3;
    PyObject *t = ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, n);
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
    /* numbers only: never part of a cycle, so keep it (and the dicts holding it) out of the
     * collector's way, as CPython itself does lazily for such tuples */
    PyObject_GC_UnTrack(t);
    return t;
}

static inline PyObject *num(double x, int as_int) {
    return as_int ? PyLong_FromLongLong((long long)x) : PyFloat_FromDouble(x);
}

/* run(predictions, references, start, stop, with_stats) -> (scores, stats or None)
 * scores: [{type: Score}], stats: [{type: [PairStats per reference]}] for examples
 * start..stop-1. */
static PyObject *Worker_run(WorkerObject *w, PyObject *args) {
    PyObject *preds, *refs;
    Py_ssize_t start, stop;
    int with_stats;
    if (!PyArg_ParseTuple(args, "OOnnp", &preds, &refs, &start, &stop, &with_stats)) return NULL;
    if (w->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)");
        return NULL;
    }
    EngineObject *e = w->eng;
    PyObject *pseq = PySequence_Fast(preds, "predictions must be a sequence");
    if (!pseq) return NULL;
    PyObject *rseq = PySequence_Fast(refs, "references must be a sequence");
    if (!rseq) { Py_DECREF(pseq); return NULL; }
    if (start < 0) start = 0;
    if (stop > PySequence_Fast_GET_SIZE(pseq)) stop = PySequence_Fast_GET_SIZE(pseq);
    if (stop > PySequence_Fast_GET_SIZE(rseq)) stop = PySequence_Fast_GET_SIZE(rseq);
    Py_ssize_t count = stop > start ? stop - start : 0;
    PyObject *keep = PyList_New(0);
    PyObject *result = NULL, *scores_list = NULL, *stats_list = NULL;
    int gc_was_enabled = 0;
    Src *srcs = NULL;
    Span *items = NULL;
    Py_ssize_t nsrc = 0, srccap = 0, nitems = 0, itemcap = 0;
    Py_ssize_t *exoff = (Py_ssize_t *)malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    if (!keep || !exoff) { PyErr_NoMemory(); goto fail; }
    w->busy = 1;

    /* phase 1 (GIL): the texts as byte spans */
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(pseq, start + i);
        PyObject *r = PySequence_Fast_GET_ITEM(rseq, start + i);
        exoff[i] = nsrc;
        Py_ssize_t nref;
        PyObject *rt = NULL;
        if (PyUnicode_Check(r) || PyBytes_Check(r) || PyByteArray_Check(r)) nref = 1;
        else if (PyList_Check(r) || PyTuple_Check(r)) {
            rt = PySequence_Tuple(r);
            if (!rt) goto fail;
            if (PyList_Append(keep, rt)) { Py_DECREF(rt); goto fail; }
            Py_DECREF(rt);
            nref = PyTuple_GET_SIZE(rt);
            if (nref == 0) { PyErr_SetString(PyExc_ValueError, "references is empty"); goto fail; }
        } else { PyErr_SetString(PyExc_TypeError, "references must be str or list"); goto fail; }
        if (grow((void **)&srcs, &srccap, nsrc + 1 + nref, sizeof(Src))) { PyErr_NoMemory(); goto fail; }
        if (text_spans(e, p, &srcs[nsrc++], &items, &nitems, &itemcap, keep)) goto fail;
        for (Py_ssize_t k = 0; k < nref; k++) {
            PyObject *x = rt ? PyTuple_GET_ITEM(rt, k) : r;
            if (text_spans(e, x, &srcs[nsrc++], &items, &nitems, &itemcap, keep)) goto fail;
        }
    }
    exoff[count] = nsrc;
    Py_ssize_t nstats = (nsrc - count) * e->ntypes;
    if (grow((void **)&w->stats, &w->statscap, nstats + 1, sizeof(PS)) ||
        grow((void **)&w->scores, &w->scorescap, count * e->ntypes + 1, sizeof(SC))) { PyErr_NoMemory(); goto fail; }

    /* phase 2 (no GIL): tokenize, count, match, combine */
    {
        Ctx c = {w, NULL, 1, 0};
        c.ts = PyEval_SaveThread();
        poll_begin(w, &c, NULL);
        Py_ssize_t soff = 0;
        for (Py_ssize_t i = 0; i < count && !c.err; i++) {
            Py_ssize_t ntext = exoff[i + 1] - exoff[i], M = ntext - 1;
            if (i % SIGNAL_EVERY == SIGNAL_EVERY - 1 && poll_signals(&c, &w->poll_last)) break;
            if (w->in.nent > INTERN_RESET_LIMIT || w->in.alen > INTERN_RESET_BYTES) {
                /* every per-vocabulary array is back to its neutral value between examples */
                interner_free(&w->in);
                memset(w->front, 0, sizeof(Front) << FRONT_BITS);
            }
            if (grow((void **)&w->tb, &w->tbcap, ntext, sizeof(TextBuf))) { c.err = ERR_NOMEM; break; }
            if (w->ntb < w->tbcap) {
                memset(w->tb + w->ntb, 0, (size_t)(w->tbcap - w->ntb) * sizeof(TextBuf));
                w->ntb = w->tbcap;
            }
            for (Py_ssize_t k = 0; k < ntext && !c.err; k++)
                read_text(&c, &srcs[exoff[i] + k], items, &w->tb[k]);
            if (c.err) break;
            if (ensure_vocab(w)) { c.err = ERR_NOMEM; break; }
            PS *st = w->stats + soff;
            if (example_stats(w, w->tb, M, st)) { c.err = ERR_NOMEM; break; }
            if (w->stop) break;   /* Ctrl-C inside the example: c.err is set */
            if (grow((void **)&w->tmp, &w->tmpcap, M + 1, sizeof(PS))) { c.err = ERR_NOMEM; break; }
            for (int ti = 0; ti < e->ntypes; ti++) {
                double weight = e->types[ti].kind == K_W ? e->types[ti].weight : 0.0;
                int by_recall = e->flavor == FLAVOR_PAPER && e->types[ti].kind == K_N;
                w->scores[i * e->ntypes + ti] = reduce_scores(e, st + (Py_ssize_t)ti * M, M, weight, w->tmp,
                                                              by_recall);
            }
            soff += M * e->ntypes;
        }
        poll_end(w);
        PyEval_RestoreThread(c.ts);
        if (c.err == ERR_NOMEM) { PyErr_NoMemory(); goto fail; }
        if (c.err) goto fail;
    }

    /* phase 3 (GIL): Python objects; nothing built here can form a cycle, so the collector
     * is paused rather than run over the growing result again and again */
    gc_was_enabled = PyGC_Disable();
    scores_list = PyList_New(count);
    if (!scores_list) goto fail;
    if (with_stats && !(stats_list = PyList_New(count))) goto fail;
    {
        Py_ssize_t soff = 0;
        for (Py_ssize_t i = 0; i < count; i++) {
            Py_ssize_t M = exoff[i + 1] - exoff[i] - 1;
            PyObject *d = PyDict_New();
            if (!d) goto fail;
            PyList_SET_ITEM(scores_list, i, d);
            PyObject *sd = NULL;
            if (with_stats) {
                if (!(sd = PyDict_New())) goto fail;
                PyList_SET_ITEM(stats_list, i, sd);
            }
            for (int ti = 0; ti < e->ntypes; ti++) {
                SC s = w->scores[i * e->ntypes + ti];
                PyObject *sc = make_tuple(e->score_type, PyFloat_FromDouble(s.p), PyFloat_FromDouble(s.r),
                                          PyFloat_FromDouble(s.f), NULL);
                if (!sc) goto fail;
                int rc = PyDict_SetItem(d, e->types[ti].name, sc);
                Py_DECREF(sc);
                if (rc) goto fail;
                if (!with_stats) continue;
                int ints = e->types[ti].kind != K_W;
                PyObject *lst = PyList_New(M);
                if (!lst) goto fail;
                for (Py_ssize_t r = 0; r < M; r++) {
                    PS *p = &w->stats[soff + (Py_ssize_t)ti * M + r];
                    PyObject *t = make_tuple(e->stats_type, num(p->h, ints), num(p->rc, ints), num(p->pc, ints),
                                             PyFloat_FromDouble(p->sel));
                    if (!t) { Py_DECREF(lst); goto fail; }
                    PyList_SET_ITEM(lst, r, t);
                }
                rc = PyDict_SetItem(sd, e->types[ti].name, lst);
                Py_DECREF(lst);
                if (rc) goto fail;
            }
            soff += M * e->ntypes;
        }
    }
    result = PyTuple_Pack(2, scores_list, with_stats ? stats_list : Py_None);
fail:
    if (gc_was_enabled) PyGC_Enable();
    w->busy = 0;
    Py_XDECREF(scores_list);
    Py_XDECREF(stats_list);
    Py_XDECREF(keep);
    Py_DECREF(pseq);
    Py_DECREF(rseq);
    free(srcs);
    free(items);
    free(exoff);
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
     "run(predictions, references, start, stop, with_stats) -> (scores, stats or None)"},
    {"tokens", (PyCFunction)Worker_tokens, METH_O,
     "tokens(text) -> (joined tokens, sentence ends, sentence-reader tokens, flat tokens)"},
    {"vocabulary_size", (PyCFunction)Worker_vocabulary_size, METH_NOARGS, "Entries in the token cache."},
    {"arena_bytes", (PyCFunction)Worker_arena_bytes, METH_NOARGS, "Bytes of token text in the token cache."},
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
