/* ------------------------------------------------------------------------------------------ */
/* PyThaiNLP's newmm word segmenter (Thai; XL-Sum's scorer calls word_tokenize(engine="newmm"))  */
/*
 * Reference: pythainlp.tokenize.newmm (_onecut, _extend_graph, _find_skip_end, _bfs_paths_graph)
 * and pythainlp.util.Trie.prefixes.  Everything that decides a word boundary is mirrored step by
 * step, because the result depends on the order of things, not only on the dictionary:
 *   - the positions still to expand are a min-heap without duplicates (heappop order);
 *   - the graph keeps each position's edges in dictionary-prefix order (shortest word first) and
 *     stops growing past _MAX_GRAPH_SIZE edges;
 *   - when one position is left, the path taken is the first one breadth-first search reaches;
 *   - text outside the dictionary is skipped as _find_skip_end does, _PAT_NONTHAI included.
 * The Thai Character Cluster boundaries (tcc_p.tcc_pos_array) come from PyThaiNLP's own regular
 * expression, _PAT_TCC: native_segmenters.py turns its parse tree into the small program run by
 * tx_seq below (a backtracking matcher for the few constructs it uses: literals, classes,
 * alternation, greedy repeats, groups, lookahead, "$"), so a release with other cluster rules is
 * followed, not silently diverged from.  The formatted-number rejoining (rejoin_formatted_num)
 * stays in Python, PyThaiNLP's own code.  tests/test_native_segmenters.py compares this with
 * word_tokenize(engine="newmm") and tcc_pos_array on generated texts.
 */

#define NEWMM_MAX_GRAPH_SIZE 50

/* The dictionary (PyThaiNLP's Trie) and the cluster pattern's program. */
typedef struct {
    CharTrie dict;
    int32_t *tcc;            /* see tx_seq */
    Py_ssize_t ntcc;
} NewmmTrie;

static int tx_check_seq(const int32_t *c, Py_ssize_t n, int32_t seq, int depth);

static void newmm_trie_free(NewmmTrie *t) {
    if (!t) return;
    ct_free(&t->dict);
    PyMem_Free(t->tcc);
    PyMem_Free(t);
}

static void newmm_capsule_free(PyObject *capsule) {
    newmm_trie_free((NewmmTrie *)PyCapsule_GetPointer(capsule, "rouge_full_metric.newmm_trie"));
}

/* Trie.add: the word stripped (str.strip()), then one node a character. */
static int newmm_add(NewmmTrie *t, PyObject *word) {
    PyObject *w = PyObject_CallMethod(word, "strip", NULL);
    if (!w) return -1;
    uint32_t node;
    int rc = ct_insert(&t->dict, w, &node);
    if (!rc) t->dict.end[node] = 1;
    Py_DECREF(w);
    return rc;
}

/* newmm_dictionary(words, tcc_program) -> capsule: the trie of PyThaiNLP's Trie(words), and the
 * cluster pattern's program (native-endian int32s, see tx_seq). */
static PyObject *mod_newmm_dictionary(PyObject *self, PyObject *args) {
    PyObject *words;
    Py_buffer prog;
    if (!PyArg_ParseTuple(args, "Oy*:newmm_dictionary", &words, &prog)) return NULL;
    if (prog.len % 4 || prog.len < 8) {
        PyBuffer_Release(&prog);
        PyErr_SetString(PyExc_ValueError, "newmm_dictionary: tcc_program must hold int32s");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(words);
    if (!it) { PyBuffer_Release(&prog); return NULL; }
    NewmmTrie *t = (NewmmTrie *)PyMem_Calloc(1, sizeof(NewmmTrie));
    if (t) t->tcc = (int32_t *)PyMem_Malloc((size_t)prog.len);
    if (!t || !t->tcc || ct_init(&t->dict, 0)) {
        Py_DECREF(it);
        PyBuffer_Release(&prog);
        newmm_trie_free(t);
        return PyErr_NoMemory();
    }
    memcpy(t->tcc, prog.buf, (size_t)prog.len);
    t->ntcc = prog.len / 4;
    PyBuffer_Release(&prog);
    if (tx_check_seq(t->tcc, t->ntcc, t->tcc[0], 0)) {
        Py_DECREF(it);
        newmm_trie_free(t);
        PyErr_SetString(PyExc_ValueError, "newmm_dictionary: malformed tcc_program");
        return NULL;
    }
    PyObject *word;
    while ((word = PyIter_Next(it))) {
        if (!PyUnicode_Check(word)) {
            PyErr_Format(PyExc_TypeError, "newmm_dictionary: words must be str, not %.100s", Py_TYPE(word)->tp_name);
            Py_DECREF(word);
            break;
        }
        int bad = newmm_add(t, word);
        Py_DECREF(word);
        if (bad) break;
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) { newmm_trie_free(t); return NULL; }
    PyObject *capsule = PyCapsule_New(t, "rouge_full_metric.newmm_trie", newmm_capsule_free);
    if (!capsule) newmm_trie_free(t);
    return capsule;
}

/* ---- Thai Character Clusters: _PAT_TCC.match(text, p), run from its parse tree ----------- */
/* The program (int32s): [0] = the top sequence's offset.  A sequence: [count, node offsets...].
 * Nodes: TX_LIT c | TX_IN k lo hi ... (k ranges) | TX_END ("$": the end, or before a final
 * newline) | TX_BRANCH k seq... | TX_REPEAT min max seq (greedy) | TX_GROUP seq |
 * TX_ASSERT seq (positive lookahead).  native_segmenters.tcc_program builds it; a pattern with anything
 * else (or a repeat whose body can match nothing) keeps the Python tcc_pos_array instead. */
enum { TX_LIT = 1, TX_IN, TX_END, TX_BRANCH, TX_REPEAT, TX_GROUP, TX_ASSERT };
#define TX_MAX_REPEAT 16

/* What to do once a sequence is matched: go on with seq at idx (repeat < 0), or, after an
 * iteration of the repeat node `repeat`, try iteration count + 1. */
typedef struct TxCont {
    int32_t seq, idx, repeat, count;
    const struct TxCont *next;
} TxCont;

typedef struct { const int32_t *c; int kind; const void *data; Py_ssize_t n; } Tx;

static Py_ssize_t tx_seq(const Tx *x, int32_t seq, int32_t idx, Py_ssize_t pos, const TxCont *k);

static Py_ssize_t tx_repeat(const Tx *x, int32_t node, int32_t count, Py_ssize_t pos, const TxCont *after) {
    const int32_t *c = x->c;
    if (count < c[node + 2]) {
        TxCont again = {-1, 0, node, count + 1, after};
        Py_ssize_t r = tx_seq(x, c[node + 3], 0, pos, &again);
        if (r >= 0) return r;
    }
    if (count >= c[node + 1]) {
        if (!after) return pos;
        return after->repeat < 0 ? tx_seq(x, after->seq, after->idx, pos, after->next)
                                 : tx_repeat(x, after->repeat, after->count, pos, after->next);
    }
    return -1;
}

static Py_ssize_t tx_seq(const Tx *x, int32_t seq, int32_t idx, Py_ssize_t pos, const TxCont *k) {
    const int32_t *c = x->c;
    while (idx < c[seq]) {
        int32_t node = c[seq + 1 + idx];
        switch (c[node]) {
        case TX_LIT:
            if (pos >= x->n || PyUnicode_READ(x->kind, x->data, pos) != (Py_UCS4)c[node + 1]) return -1;
            pos++;
            break;
        case TX_IN: {
            if (pos >= x->n) return -1;
            Py_UCS4 ch = PyUnicode_READ(x->kind, x->data, pos);
            int32_t r, nr = c[node + 1];
            for (r = 0; r < nr; r++)
                if (ch >= (Py_UCS4)c[node + 2 + 2 * r] && ch <= (Py_UCS4)c[node + 3 + 2 * r]) break;
            if (r == nr) return -1;
            pos++;
            break;
        }
        case TX_END:
            if (!(pos == x->n || (pos == x->n - 1 && PyUnicode_READ(x->kind, x->data, pos) == '\n'))) return -1;
            break;
        case TX_ASSERT:
            if (tx_seq(x, c[node + 1], 0, pos, NULL) < 0) return -1;
            break;
        case TX_GROUP: {
            TxCont then = {seq, idx + 1, -1, 0, k};
            return tx_seq(x, c[node + 1], 0, pos, &then);
        }
        case TX_BRANCH: {
            TxCont then = {seq, idx + 1, -1, 0, k};
            for (int32_t b = 0; b < c[node + 1]; b++) {
                Py_ssize_t r = tx_seq(x, c[node + 2 + b], 0, pos, &then);
                if (r >= 0) return r;
            }
            return -1;
        }
        case TX_REPEAT: {
            TxCont then = {seq, idx + 1, -1, 0, k};
            return tx_repeat(x, node, 0, pos, &then);
        }
        default:
            return -1;
        }
        idx++;
    }
    if (!k) return pos;
    return k->repeat < 0 ? tx_seq(x, k->seq, k->idx, pos, k->next) : tx_repeat(x, k->repeat, k->count, pos, k->next);
}

/* The program is ours (native_segmenters.tcc_program), but a bad one must fail cleanly, not read
 * out of bounds: every offset in range, every node of a known kind, nesting bounded. */
static int tx_check_seq(const int32_t *c, Py_ssize_t n, int32_t seq, int depth);

static int tx_check_node(const int32_t *c, Py_ssize_t n, int32_t node, int depth) {
    if (node < 1 || node >= n) return -1;
    switch (c[node]) {
    case TX_LIT: return node + 1 < n ? 0 : -1;
    case TX_END: return 0;
    case TX_IN: return node + 1 < n && c[node + 1] >= 0 && node + 1 + 2 * (Py_ssize_t)c[node + 1] < n ? 0 : -1;
    case TX_GROUP: case TX_ASSERT: return node + 1 < n ? tx_check_seq(c, n, c[node + 1], depth + 1) : -1;
    case TX_REPEAT:
        /* a bounded count (the matcher recurses once per iteration) */
        return node + 3 < n && c[node + 1] >= 0 && c[node + 2] >= c[node + 1] && c[node + 2] <= TX_MAX_REPEAT
               ? tx_check_seq(c, n, c[node + 3], depth + 1) : -1;
    case TX_BRANCH:
        if (node + 1 >= n || c[node + 1] < 1 || node + 1 + (Py_ssize_t)c[node + 1] >= n) return -1;
        for (int32_t b = 0; b < c[node + 1]; b++)
            if (tx_check_seq(c, n, c[node + 2 + b], depth + 1)) return -1;
        return 0;
    default: return -1;
    }
}

static int tx_check_seq(const int32_t *c, Py_ssize_t n, int32_t seq, int depth) {
    if (depth > 64 || seq < 1 || seq >= n || c[seq] < 0 || seq + (Py_ssize_t)c[seq] >= n) return -1;
    for (int32_t i = 0; i < c[seq]; i++)
        if (tx_check_node(c, n, c[seq + 1 + i], depth)) return -1;
    return 0;
}

/* tcc_pos_array(text): flags[p] = 1 where a cluster ends (a failed match is a 1-character one).
 * -1 when a signal handler raised (Ctrl-C: checked every 2^14 clusters; the GIL is held). */
static int tx_clusters(const NewmmTrie *t, PyObject *text, uint8_t *flags) {
    Tx x = {t->tcc, PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    memset(flags, 0, (size_t)x.n + 1);
    Py_ssize_t p = 0, steps = 0;
    while (p < x.n) {
        if ((++steps & 0x3FFF) == 0 && PyErr_CheckSignals()) return -1;
        Py_ssize_t e = tx_seq(&x, t->tcc[0], 0, p, NULL);
        p = e > p ? e : p + 1;
        flags[p] = 1;
    }
    return 0;
}

typedef struct {
    const NewmmTrie *trie;
    int kind;
    const void *data;
    Py_ssize_t n;
    const uint8_t *valid;     /* n + 1 TCC boundary flags */
    /* the graph since the last cut: each expanded position's edges are contiguous (a position
     * is expanded once), so a position keeps (first edge, count) */
    Py_ssize_t *edge_end; Py_ssize_t nedge, capedge;
    Py_ssize_t *first, *count;        /* per position; count -1 = not in the graph */
    Py_ssize_t *touched; Py_ssize_t ntouched;
    /* the min-heap of positions to expand, and membership */
    Py_ssize_t *heap; Py_ssize_t nheap;
    uint8_t *inheap;
    /* breadth-first search */
    Py_ssize_t *parent, *queue, *bfs_touched;
} Newmm;

#define NM_CH(s, i) PyUnicode_READ((s)->kind, (s)->data, (i))

static void nm_push(Newmm *s, Py_ssize_t v) {
    Py_ssize_t i = s->nheap++;
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (s->heap[p] <= v) break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = v;
    s->inheap[v] = 1;
}

static Py_ssize_t nm_pop(Newmm *s) {
    Py_ssize_t top = s->heap[0], last = s->heap[--s->nheap], i = 0;
    while (1) {
        Py_ssize_t c = 2 * i + 1;
        if (c >= s->nheap) break;
        if (c + 1 < s->nheap && s->heap[c + 1] < s->heap[c]) c++;
        if (s->heap[c] >= last) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->nheap) s->heap[i] = last;
    s->inheap[top] = 0;
    return top;
}

static void nm_clear_graph(Newmm *s) {
    for (Py_ssize_t i = 0; i < s->ntouched; i++) s->count[s->touched[i]] = -1;
    s->ntouched = 0;
    s->nedge = 0;
}

/* Length of the _PAT_NONTHAI match at pos, 0 when none:
 *   [-a-zA-Z]+ | \d+([,\.]\d+)* | [ \t]+ | \r?\n | [^\u0E00-\u0E7F \t\r\n]+   (first that matches)
 * \d is Unicode Nd (re's str patterns), Py_UNICODE_ISDECIMAL. */
static Py_ssize_t nm_nonthai(const Newmm *s, Py_ssize_t pos) {
    Py_ssize_t n = s->n, i = pos;
    Py_UCS4 c = NM_CH(s, pos);
    if (c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        while (i < n && ((c = NM_CH(s, i)) == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) i++;
        return i - pos;
    }
    if (Py_UNICODE_ISDECIMAL(c)) {
        while (i < n && Py_UNICODE_ISDECIMAL(NM_CH(s, i))) i++;
        while (i + 1 < n && ((c = NM_CH(s, i)) == ',' || c == '.') && Py_UNICODE_ISDECIMAL(NM_CH(s, i + 1))) {
            i += 2;
            while (i < n && Py_UNICODE_ISDECIMAL(NM_CH(s, i))) i++;
        }
        return i - pos;
    }
    if (c == ' ' || c == '\t') {
        while (i < n && ((c = NM_CH(s, i)) == ' ' || c == '\t')) i++;
        return i - pos;
    }
    if (c == '\n') return 1;
    if (c == '\r') return (pos + 1 < n && NM_CH(s, pos + 1) == '\n') ? 2 : 0;
    while (i < n) {
        c = NM_CH(s, i);
        if ((c >= 0x0E00 && c <= 0x0E7F) || c == ' ' || c == '\t' || c == '\r' || c == '\n') break;
        i++;
    }
    return i - pos;
}

/* _PAT_THAI_TWOCHARS.match(word), "[ก-ฮ]{,2}$", for the word text[pos:pos+len]: at most two
 * consonants and nothing else ("$" could also stop before a final newline, but Trie.add strips
 * its words, so none ends with one). */
static int nm_two_consonants(const Newmm *s, Py_ssize_t pos, Py_ssize_t len) {
    if (len > 2) return 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        Py_UCS4 c = NM_CH(s, pos + k);
        if (c < 0x0E01 || c > 0x0E2E) return 0;
    }
    return 1;
}

/* _extend_graph: the dictionary words at begin, shortest first, ending on a TCC boundary.
 * Returns the new graph size, or -1 out of memory. */
static Py_ssize_t nm_extend(Newmm *s, Py_ssize_t begin, Py_ssize_t graph_size) {
    uint32_t node = 0;
    s->first[begin] = s->nedge;
    s->count[begin] = 0;
    s->touched[s->ntouched++] = begin;
    for (Py_ssize_t i = begin; i < s->n; i++) {
        node = ct_child(&s->trie->dict, node, NM_CH(s, i));
        if (!node) break;
        if (!s->trie->dict.end[node]) continue;
        Py_ssize_t end = i + 1;
        if (!s->valid[end]) continue;
        if (s->nedge == s->capedge) {
            /* edges since the last cut: at most NEWMM_MAX_GRAPH_SIZE + 1 + one per position */
            Py_ssize_t nc = s->capedge * 2;
            Py_ssize_t *e = (Py_ssize_t *)PyMem_Realloc(s->edge_end, (size_t)nc * sizeof(Py_ssize_t));
            if (!e) return -1;
            s->edge_end = e;
            s->capedge = nc;
        }
        s->edge_end[s->nedge++] = end;
        s->count[begin]++;
        graph_size++;
        if (!s->inheap[end]) nm_push(s, end);
        if (graph_size > NEWMM_MAX_GRAPH_SIZE) break;
    }
    return graph_size;
}

/* _find_skip_end: where a word outside the dictionary that starts at begin ends. */
static Py_ssize_t nm_skip_end(const Newmm *s, Py_ssize_t begin) {
    Py_ssize_t m = nm_nonthai(s, begin);
    if (m) return begin + m;
    for (Py_ssize_t pos = begin + 1; pos < s->n; pos++) {
        if (!s->valid[pos]) continue;
        uint32_t node = 0;
        for (Py_ssize_t i = pos; i < s->n; i++) {
            node = ct_child(&s->trie->dict, node, NM_CH(s, i));
            if (!node) break;
            if (s->trie->dict.end[node] && s->valid[i + 1] && !nm_two_consonants(s, pos, i + 1 - pos)) return pos;
        }
        if (nm_nonthai(s, pos)) return pos;
    }
    return s->n;
}

static int nm_emit(PyObject *out, PyObject *text, Py_ssize_t a, Py_ssize_t b) {
    PyObject *w = PyUnicode_Substring(text, a, b);
    if (!w) return -1;
    int r = PyList_Append(out, w);
    Py_DECREF(w);
    return r;
}

/* _bfs_paths_graph(graph, start, goal)'s first path, emitted word by word; *end_pos = goal. */
static int nm_cut(Newmm *s, PyObject *text, PyObject *out, Py_ssize_t *end_pos, Py_ssize_t goal) {
    Py_ssize_t start = *end_pos, head = 0, tail = 0, nb = 0, found = -1;
    s->parent[start] = start;               /* visited */
    s->bfs_touched[nb++] = start;
    s->queue[tail++] = start;
    while (head < tail && found < 0) {
        Py_ssize_t v = s->queue[head++];
        if (s->count[v] <= 0) continue;
        for (Py_ssize_t e = s->first[v]; e < s->first[v] + s->count[v]; e++) {
            Py_ssize_t w = s->edge_end[e];
            if (w == goal) { found = v; break; }
            if (s->parent[w] < 0) {
                s->parent[w] = v;
                s->bfs_touched[nb++] = w;
                s->queue[tail++] = w;
            }
        }
    }
    int rc = 0;
    if (found < 0) {
        /* unreachable with PyThaiNLP's invariants; Python would raise from next() */
        PyErr_SetString(PyExc_RuntimeError, "newmm: no path in the word graph");
        rc = -1;
    } else {
        /* the path start .. found, goal: walk back, then emit forwards */
        Py_ssize_t len = 0;
        for (Py_ssize_t v = found; v != start; v = s->parent[v]) s->queue[len++] = v;
        Py_ssize_t prev = start;
        for (Py_ssize_t k = len - 1; k >= 0 && !rc; k--) {
            rc = nm_emit(out, text, prev, s->queue[k]);
            prev = s->queue[k];
        }
        if (!rc) rc = nm_emit(out, text, prev, goal);
        *end_pos = goal;
    }
    for (Py_ssize_t i = 0; i < nb; i++) s->parent[s->bfs_touched[i]] = -1;
    return rc;
}

static NewmmTrie *newmm_arg(PyObject *capsule) {
    return (NewmmTrie *)PyCapsule_GetPointer(capsule, "rouge_full_metric.newmm_trie");
}

/* newmm_clusters(trie, text) -> bytes: tcc_pos_array(text) (for tests). */
static PyObject *mod_newmm_clusters(PyObject *self, PyObject *args) {
    PyObject *capsule, *text;
    if (!PyArg_ParseTuple(args, "OU:newmm_clusters", &capsule, &text)) return NULL;
    NewmmTrie *trie = newmm_arg(capsule);
    if (!trie) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, PyUnicode_GET_LENGTH(text) + 1);
    if (out && tx_clusters(trie, text, (uint8_t *)PyBytes_AS_STRING(out))) Py_CLEAR(out);
    return out;
}

/* newmm_segment(trie, text) -> [str]: pythainlp.tokenize.newmm.segment(text) (safe_mode=False)
 * with the dictionary and cluster rules given as trie. */
static PyObject *mod_newmm_segment(PyObject *self, PyObject *args) {
    PyObject *capsule, *text;
    if (!PyArg_ParseTuple(args, "OU:newmm_segment", &capsule, &text)) return NULL;
    NewmmTrie *trie = newmm_arg(capsule);
    if (!trie) return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *out = PyList_New(0);
    if (!out || n == 0) return out;
    size_t m = (size_t)n + 2;
    uint8_t *valid = (uint8_t *)PyMem_Malloc(m);
    if (!valid) { Py_DECREF(out); return PyErr_NoMemory(); }
    if (tx_clusters(trie, text, valid)) { PyMem_Free(valid); Py_DECREF(out); return NULL; }
    Newmm s = {trie, PyUnicode_KIND(text), PyUnicode_DATA(text), n, valid};
    s.capedge = 256;
    s.edge_end = (Py_ssize_t *)PyMem_Malloc((size_t)s.capedge * sizeof(Py_ssize_t));
    s.first = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    s.count = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    s.touched = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    s.heap = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    s.inheap = (uint8_t *)PyMem_Calloc(m, 1);
    s.parent = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    s.queue = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    s.bfs_touched = (Py_ssize_t *)PyMem_Malloc(m * sizeof(Py_ssize_t));
    int rc = 0;
    if (!s.edge_end || !s.first || !s.count || !s.touched || !s.heap || !s.inheap || !s.parent || !s.queue
        || !s.bfs_touched) {
        PyErr_NoMemory();
        rc = -1;
    } else {
        for (size_t i = 0; i < m; i++) { s.count[i] = -1; s.parent[i] = -1; }
        Py_ssize_t end_pos = 0, graph_size = 0, steps = 0;
        nm_push(&s, 0);
        while (!rc && s.heap[0] < n) {
            if ((++steps & 0x3FFF) == 0 && PyErr_CheckSignals()) { rc = -1; break; }
            Py_ssize_t begin = nm_pop(&s);
            graph_size = nm_extend(&s, begin, graph_size);
            if (graph_size < 0) {
                PyErr_NoMemory();
                rc = -1;
            } else if (s.nheap == 1) {
                rc = nm_cut(&s, text, out, &end_pos, s.heap[0]);
                graph_size = 0;
                nm_clear_graph(&s);
            } else if (s.nheap == 0) {
                end_pos = nm_skip_end(&s, begin);
                graph_size = 0;
                nm_clear_graph(&s);
                rc = nm_emit(out, text, begin, end_pos);
                nm_push(&s, end_pos);
            }
        }
    }
    PyMem_Free(s.edge_end); PyMem_Free(s.first); PyMem_Free(s.count); PyMem_Free(s.touched);
    PyMem_Free(s.heap); PyMem_Free(s.inheap); PyMem_Free(s.parent); PyMem_Free(s.queue);
    PyMem_Free(s.bfs_touched);
    PyMem_Free(valid);
    if (rc) Py_CLEAR(out);
    return out;
}
