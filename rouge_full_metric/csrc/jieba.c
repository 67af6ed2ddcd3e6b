/* ------------------------------------------------------------------------------------------ */
/* jieba's default cut (Chinese; XL-Sum's scorer calls jieba.cut(text), HMM on)                 */
/*
 * Reference: jieba 0.42.1, Tokenizer.get_DAG, Tokenizer.calc, Tokenizer.__cut_DAG and
 * jieba.finalseg (cut, __cut, viterbi).  jieba.cut's outer split into blocks (its re_han_default
 * and re_skip_default) stays in Python (native_segmenters.py); this runs one block.  The
 * floating-point sums keep jieba's operation order and both max() tie rules (the larger end
 * position; the larger state letter), so the chosen words are jieba's.  The dictionary (FREQ,
 * with jieba's prefix entries), log(total) and the HMM tables come from the running jieba.
 * tests/test_native_segmenters.py compares this with jieba.cut on generated texts.
 */

enum { HMM_B = 0, HMM_E, HMM_M, HMM_S };   /* in letter order: tuple ties go to the larger */

typedef struct {
    CharTrie freq;            /* FREQ: end = key, value = its frequency */
    Py_ssize_t dict_pos;      /* PyDict_Next's position after FREQ's last entry read */
    Py_ssize_t dict_len;      /* entries read */
    Py_ssize_t users;         /* cuts running on this model (jieba_model_extend waits for none) */
    double logtotal;
    double start[4], trans[4][4];
    uint32_t *emit_keys;      /* code point + 1; 0 = empty */
    double (*emit)[4];
    size_t emit_cap;
    double min_float;
} JiebaModel;

static void jieba_model_free(PyObject *capsule) {
    JiebaModel *m = (JiebaModel *)PyCapsule_GetPointer(capsule, "rouge_full_metric.jieba_model");
    if (!m) return;
    ct_free(&m->freq);
    PyMem_Free(m->emit_keys);
    PyMem_Free(m->emit);
    PyMem_Free(m);
}

static size_t jieba_emit_slot(const JiebaModel *m, Py_UCS4 ch) {
    size_t i = (size_t)(((uint64_t)(ch + 1) * 0x9E3779B97F4A7C15ULL) >> 24) & (m->emit_cap - 1);
    while (m->emit_keys[i] && m->emit_keys[i] != ch + 1) i = (i + 1) & (m->emit_cap - 1);
    return i;
}

/* emit_p[state].get(ch, MIN_FLOAT) */
static inline double jieba_emit(const JiebaModel *m, int state, Py_UCS4 ch) {
    size_t i = jieba_emit_slot(m, ch);
    return m->emit_keys[i] ? m->emit[i][state] : m->min_float;
}

static int jieba_doubles(PyObject *seq, double *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "jieba_model: %s must have %zd floats", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

/* Read FREQ's entries from m->dict_pos on into the trie (all of them for a new model); *sum (if
 * given) gets the sum of the frequencies read.  0, or -1 with an exception set. */
static int jieba_read_freq(JiebaModel *m, PyObject *freq, long long *sum) {
    PyObject *key, *value;
    long long total = 0;
    while (PyDict_Next(freq, &m->dict_pos, &key, &value)) {
        if (!PyUnicode_Check(key) || !PyLong_Check(value)) {
            PyErr_SetString(PyExc_TypeError, "jieba_model: freq must map str to int");
            return -1;
        }
        long long f = PyLong_AsLongLong(value);
        if (f == -1 && PyErr_Occurred()) return -1;
        if (f < 0 || f > ((long long)1 << 53)) {
            PyErr_SetString(PyExc_ValueError, "jieba_model: a frequency is negative or above 2**53");
            return -1;
        }
        uint32_t node;
        if (ct_insert(&m->freq, key, &node)) return -1;
        m->freq.end[node] = 1;
        m->freq.value[node] = f;
        m->dict_len++;
        total += f;
        if (total > ((long long)1 << 60)) total = (long long)1 << 60;   /* no overflow; it then matches no delta */
    }
    if (sum) *sum = total;
    return 0;
}

/* jieba_model(freq, logtotal, start, trans, emit, min_float) -> capsule.
 *   freq: dict str -> int >= 0 (jieba.dt.FREQ); logtotal: math.log(jieba.dt.total);
 *   start: 4 floats, trans: 16 floats (from-state major), emit: dict str (one character) -> 4
 *   floats, states in the order B, E, M, S, missing entries given as min_float. */
static PyObject *mod_jieba_model(PyObject *self, PyObject *args) {
    PyObject *freq, *start, *trans, *emit;
    double logtotal, min_float;
    if (!PyArg_ParseTuple(args, "O!dOOO!d:jieba_model", &PyDict_Type, &freq, &logtotal, &start, &trans,
                          &PyDict_Type, &emit, &min_float))
        return NULL;
    JiebaModel *m = (JiebaModel *)PyMem_Calloc(1, sizeof(JiebaModel));
    if (!m) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(m, "rouge_full_metric.jieba_model", jieba_model_free);
    if (!capsule) { PyMem_Free(m); return NULL; }
    m->logtotal = logtotal;
    m->min_float = min_float;
    if (ct_init(&m->freq, 1)) { Py_DECREF(capsule); return PyErr_NoMemory(); }
    if (jieba_doubles(start, m->start, 4, "start") || jieba_doubles(trans, &m->trans[0][0], 16, "trans")) {
        Py_DECREF(capsule);
        return NULL;
    }
    if (jieba_read_freq(m, freq, NULL)) { Py_DECREF(capsule); return NULL; }
    Py_ssize_t ne = PyDict_Size(emit);
    PyObject *key, *value;
    Py_ssize_t pos;
    m->emit_cap = 16;
    while (m->emit_cap < (size_t)ne * 2 + 2) m->emit_cap *= 2;
    m->emit_keys = (uint32_t *)PyMem_Calloc(m->emit_cap, sizeof(uint32_t));
    m->emit = (double (*)[4])PyMem_Malloc(m->emit_cap * sizeof(double[4]));
    if (!m->emit_keys || !m->emit) { Py_DECREF(capsule); return PyErr_NoMemory(); }
    pos = 0;
    while (PyDict_Next(emit, &pos, &key, &value)) {
        if (!PyUnicode_Check(key) || PyUnicode_GET_LENGTH(key) != 1) {
            PyErr_SetString(PyExc_TypeError, "jieba_model: emit keys must be single characters");
            Py_DECREF(capsule);
            return NULL;
        }
        Py_UCS4 ch = PyUnicode_READ_CHAR(key, 0);
        size_t i = jieba_emit_slot(m, ch);
        m->emit_keys[i] = ch + 1;
        if (jieba_doubles(value, m->emit[i], 4, "emit")) { Py_DECREF(capsule); return NULL; }
    }
    return capsule;
}

/* jieba_model_extend(model, freq, logtotal) -> the sum of the new entries' frequencies, or -1.
 * jieba's add_word only ever adds keys to FREQ (dicts keep insertion order: the new ones come
 * after every entry read so far, and without deletions PyDict_Next's positions stay put) or
 * changes an existing key's value; the new keys are read here, and the caller compares their sum
 * with the change of jieba's total, which differs when an existing value changed too.  -1 when
 * the dictionary cannot be followed this way (FREQ holds fewer or other entries than read: keys
 * deleted by hand; a cut is using the model) or a new entry is invalid: the caller rebuilds. */
static PyObject *mod_jieba_model_extend(PyObject *self, PyObject *args) {
    PyObject *capsule, *freq;
    double logtotal;
    if (!PyArg_ParseTuple(args, "OO!d:jieba_model_extend", &capsule, &PyDict_Type, &freq, &logtotal)) return NULL;
    JiebaModel *m = (JiebaModel *)PyCapsule_GetPointer(capsule, "rouge_full_metric.jieba_model");
    if (!m) return NULL;
    Py_ssize_t size = PyDict_Size(freq);
    if (m->users || size < m->dict_len) return PyLong_FromLong(-1);
    long long sum = 0;
    if (jieba_read_freq(m, freq, &sum)) {
        /* the model holds part of the new entries: it must not be used again */
        m->dict_len = -1;
        if (!PyErr_ExceptionMatches(PyExc_MemoryError)) { PyErr_Clear(); return PyLong_FromLong(-1); }
        return NULL;
    }
    if (m->dict_len != size) { m->dict_len = -1; return PyLong_FromLong(-1); }
    m->logtotal = logtotal;
    return PyLong_FromLongLong(sum);
}

typedef struct {
    const JiebaModel *m;
    PyObject *text, *out;
    int kind;
    const void *data;
    Py_ssize_t *ends, *first;   /* the DAG: ends of position k are ends[first[k] .. first[k+1]) */
    int64_t *freqs;             /* FREQ of each DAG edge's word (0: use 1) */
    Py_ssize_t capedges;        /* room in ends and freqs */
    double *route_v;            /* route[k] = (route_v[k], route_x[k]) */
    Py_ssize_t *route_x;
    double *v;                  /* viterbi: 4 per position */
    int8_t *back;               /* viterbi: the previous state, 4 per position */
} JiebaCut;

#define JB_CH(c, i) PyUnicode_READ((c)->kind, (c)->data, (i))
/* Ctrl-C in a long block: the handlers run every 2^16 positions of each pass (the GIL is held) */
#define JB_SIGNALS(i) (((i) & 0xFFFF) == 0xFFFF && PyErr_CheckSignals())

static int jb_emit(JiebaCut *c, Py_ssize_t a, Py_ssize_t b) {
    PyObject *w = PyUnicode_Substring(c->text, a, b);
    if (!w) return -1;
    int r = PyList_Append(c->out, w);
    Py_DECREF(w);
    return r;
}

/* FREQ.get(text[a:b]) truthy */
static int jb_known(const JiebaCut *c, Py_ssize_t a, Py_ssize_t b) {
    uint32_t node = ct_find(&c->m->freq, c->kind, c->data, a, b);
    return node && c->m->freq.end[node] && c->m->freq.value[node];
}

/* finalseg.__cut on the Han run text[a:b]: viterbi over B, M, E, S, then the words. */
static int jb_hmm(JiebaCut *c, Py_ssize_t a, Py_ssize_t b) {
    static const int prev[4][2] = {{HMM_E, HMM_S}, {HMM_B, HMM_M}, {HMM_M, HMM_B}, {HMM_S, HMM_E}};
    const JiebaModel *m = c->m;
    Py_ssize_t n = b - a;
    double *v = c->v;
    for (int y = 0; y < 4; y++) v[y] = m->start[y] + jieba_emit(m, y, JB_CH(c, a));
    for (Py_ssize_t t = 1; t < n; t++) {
        if (JB_SIGNALS(t)) return -1;
        Py_UCS4 ch = JB_CH(c, a + t);
        for (int y = 0; y < 4; y++) {
            double em = jieba_emit(m, y, ch);
            int y0 = prev[y][0], y1 = prev[y][1];
            double p0 = v[4 * (t - 1) + y0] + m->trans[y0][y] + em;
            double p1 = v[4 * (t - 1) + y1] + m->trans[y1][y] + em;
            /* max over (prob, state) tuples */
            int take1 = p1 > p0 || (p1 == p0 && y1 > y0);
            v[4 * t + y] = take1 ? p1 : p0;
            c->back[4 * t + y] = (int8_t)(take1 ? y1 : y0);
        }
    }
    double pe = v[4 * (n - 1) + HMM_E], ps = v[4 * (n - 1) + HMM_S];
    int state = ps >= pe ? HMM_S : HMM_E;   /* max((V[E], 'E'), (V[S], 'S')) */
    for (Py_ssize_t t = n - 1; t >= 0; t--) {   /* the path, stored in back[4t] (t's own slot 0) */
        int s = state;
        if (t > 0) state = c->back[4 * t + s];
        c->back[4 * t] = (int8_t)s;
    }
    Py_ssize_t begin = 0, next = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int s = c->back[4 * i];
        if (s == HMM_B) begin = i;
        else if (s == HMM_E) {
            if (jb_emit(c, a + begin, a + i + 1)) return -1;
            next = i + 1;
        } else if (s == HMM_S) {
            if (jb_emit(c, a + i, a + i + 1)) return -1;
            next = i + 1;
        }
    }
    return next < n ? jb_emit(c, a + next, b) : 0;
}

static inline int jb_han(Py_UCS4 ch) { return ch >= 0x4E00 && ch <= 0x9FD5; }
static inline int jb_alnum(Py_UCS4 ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* finalseg.cut(text[a:b]): Han runs through the HMM; the rest split by its re_skip,
 * ([a-zA-Z0-9]+(?:\.\d+)?%?), keeping the non-empty pieces. */
static int jb_finalseg(JiebaCut *c, Py_ssize_t a, Py_ssize_t b) {
    Py_ssize_t i = a;
    while (i < b) {
        Py_ssize_t j = i;
        if (jb_han(JB_CH(c, i))) {
            while (j < b && jb_han(JB_CH(c, j))) j++;
            if (jb_hmm(c, i, j)) return -1;
            i = j;
            continue;
        }
        while (j < b && !jb_han(JB_CH(c, j))) j++;
        /* the non-Han block i..j */
        Py_ssize_t gap = i, k = i;
        while (k < j) {
            if (!jb_alnum(JB_CH(c, k))) { k++; continue; }
            Py_ssize_t e = k;
            while (e < j && jb_alnum(JB_CH(c, e))) e++;
            if (e + 1 < j && JB_CH(c, e) == '.' && Py_UNICODE_ISDECIMAL(JB_CH(c, e + 1))) {
                e += 2;
                while (e < j && Py_UNICODE_ISDECIMAL(JB_CH(c, e))) e++;
            }
            if (e < j && JB_CH(c, e) == '%') e++;
            if (k > gap && jb_emit(c, gap, k)) return -1;
            if (jb_emit(c, k, e)) return -1;
            gap = k = e;
        }
        if (j > gap && jb_emit(c, gap, j)) return -1;
        i = j;
    }
    return 0;
}

/* __cut_DAG's flush of the single characters text[a:b] gathered in buf. */
static int jb_flush(JiebaCut *c, Py_ssize_t a, Py_ssize_t b) {
    if (b - a == 1) return jb_emit(c, a, b);
    if (!jb_known(c, a, b)) return jb_finalseg(c, a, b);
    for (Py_ssize_t i = a; i < b; i++)
        if (jb_emit(c, i, i + 1)) return -1;
    return 0;
}

/* Twice the room for DAG edges (a position has as many as dictionary words start there). */
static int jb_grow_edges(JiebaCut *c) {
    Py_ssize_t cap = c->capedges * 2;
    Py_ssize_t *e = (Py_ssize_t *)PyMem_Realloc(c->ends, (size_t)cap * sizeof(Py_ssize_t));
    if (e) c->ends = e;
    int64_t *f = e ? (int64_t *)PyMem_Realloc(c->freqs, (size_t)cap * sizeof(int64_t)) : NULL;
    if (f) c->freqs = f;
    if (!e || !f) { PyErr_NoMemory(); return -1; }
    c->capedges = cap;
    return 0;
}

static int jb_cut(JiebaCut *c, Py_ssize_t n) {
    const CharTrie *t = &c->m->freq;
    /* get_DAG */
    Py_ssize_t ne = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (JB_SIGNALS(k)) return -1;
        c->first[k] = ne;
        uint32_t node = ct_child(t, 0, JB_CH(c, k));
        Py_ssize_t i = k;
        while (i < n && node && t->end[node]) {      /* while frag in FREQ */
            if (t->value[node]) {
                if (ne == c->capedges && jb_grow_edges(c)) return -1;
                c->ends[ne] = i;
                c->freqs[ne++] = t->value[node];
            }
            i++;
            if (i < n) node = ct_child(t, node, JB_CH(c, i));
        }
        if (ne == c->first[k]) {
            if (ne == c->capedges && jb_grow_edges(c)) return -1;
            c->ends[ne] = k;
            c->freqs[ne++] = 0;
        }
    }
    c->first[n] = ne;
    /* calc: route[idx] = max((log(FREQ.get(word) or 1) - logtotal + route[x + 1][0], x)) */
    c->route_v[n] = 0.0;
    c->route_x[n] = 0;
    for (Py_ssize_t idx = n - 1; idx >= 0; idx--) {
        if (JB_SIGNALS(idx)) return -1;
        double best = 0.0;
        Py_ssize_t bx = -1;
        for (Py_ssize_t e = c->first[idx]; e < c->first[idx + 1]; e++) {
            Py_ssize_t x = c->ends[e];
            int64_t f = c->freqs[e] ? c->freqs[e] : 1;
            double val = log((double)f) - c->m->logtotal + c->route_v[x + 1];
            if (bx < 0 || val > best || (val == best && x > bx)) { best = val; bx = x; }
        }
        c->route_v[idx] = best;
        c->route_x[idx] = bx;
    }
    /* __cut_DAG's walk */
    Py_ssize_t x = 0, buf = 0;
    while (x < n) {
        if (JB_SIGNALS(x)) return -1;
        Py_ssize_t y = c->route_x[x] + 1;
        if (y - x != 1) {
            if (x > buf && jb_flush(c, buf, x)) return -1;
            if (jb_emit(c, x, y)) return -1;
            buf = y;
        }
        x = y;
    }
    return n > buf ? jb_flush(c, buf, n) : 0;
}

/* jieba_cut_block(model, block) -> [str]: jieba.dt's __cut_DAG(block) (a block of
 * re_han_default) with the model's dictionary and HMM. */
static PyObject *mod_jieba_cut_block(PyObject *self, PyObject *args) {
    PyObject *capsule, *text;
    if (!PyArg_ParseTuple(args, "OU:jieba_cut_block", &capsule, &text)) return NULL;
    JiebaModel *m = (JiebaModel *)PyCapsule_GetPointer(capsule, "rouge_full_metric.jieba_model");
    if (!m) return NULL;
    if (m->dict_len < 0) { PyErr_SetString(PyExc_ValueError, "jieba_cut_block: this model was left half extended"); return NULL; }
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *out = PyList_New(0);
    if (!out || n == 0) return out;
    size_t cap = (size_t)n + 1;
    JiebaCut c = {m, text, out, PyUnicode_KIND(text), PyUnicode_DATA(text)};
    c.capedges = (Py_ssize_t)cap;   /* one end a position at least; grown as words start */
    c.ends = (Py_ssize_t *)PyMem_Malloc((size_t)c.capedges * sizeof(Py_ssize_t));
    c.freqs = (int64_t *)PyMem_Malloc((size_t)c.capedges * sizeof(int64_t));
    c.first = (Py_ssize_t *)PyMem_Malloc((cap + 1) * sizeof(Py_ssize_t));
    c.route_v = (double *)PyMem_Malloc((cap + 1) * sizeof(double));
    c.route_x = (Py_ssize_t *)PyMem_Malloc((cap + 1) * sizeof(Py_ssize_t));
    c.v = (double *)PyMem_Malloc(cap * 4 * sizeof(double));
    c.back = (int8_t *)PyMem_Malloc(cap * 4);
    int rc;
    if (!c.ends || !c.freqs || !c.first || !c.route_v || !c.route_x || !c.v || !c.back) {
        PyErr_NoMemory();
        rc = -1;
    } else {
        m->users++;   /* Python code may run inside (allocations, signal handlers): no extend meanwhile */
        rc = jb_cut(&c, n);
        m->users--;
    }
    PyMem_Free(c.ends); PyMem_Free(c.freqs); PyMem_Free(c.first); PyMem_Free(c.route_v);
    PyMem_Free(c.route_x); PyMem_Free(c.v); PyMem_Free(c.back);
    if (rc) Py_CLEAR(out);
    return out;
}
