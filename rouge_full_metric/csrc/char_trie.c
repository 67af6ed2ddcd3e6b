/* ------------------------------------------------------------------------------------------ */
/* A character trie for the segmenters' dictionaries (newmm.c, jieba.c)                         */
/*
 * Edges (parent node, code point) -> child live in one open-addressing table, nodes are numbers
 * (0 = the root, never anybody's child).  Per node: `end` (a dictionary key ends here) and, for
 * dictionaries with values, `value` (jieba's word frequency).
 */

typedef struct {
    uint64_t *keys;          /* (parent << 21 | ch) + 1; 0 = empty slot */
    uint32_t *child;
    size_t cap;              /* power of two */
    size_t nedges;
    uint8_t *end;
    int64_t *value;          /* NULL without values */
    size_t nnodes, capnodes;
} CharTrie;

static size_t ct_slot(const CharTrie *t, uint64_t key) {
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 20) & (t->cap - 1);
    while (t->keys[i] && t->keys[i] != key) i = (i + 1) & (t->cap - 1);
    return i;
}

/* the child of node for ch, or 0 */
static inline uint32_t ct_child(const CharTrie *t, uint32_t node, Py_UCS4 ch) {
    size_t i = ct_slot(t, (((uint64_t)node << 21) | ch) + 1);
    return t->keys[i] ? t->child[i] : 0;
}

static int ct_grow(CharTrie *t) {
    size_t ncap = t->cap ? t->cap * 2 : (size_t)1 << 16;
    uint64_t *ok = t->keys;
    uint32_t *oc = t->child;
    size_t ocap = t->cap;
    uint64_t *nk = (uint64_t *)PyMem_Calloc(ncap, sizeof(uint64_t));
    uint32_t *nch = (uint32_t *)PyMem_Malloc(ncap * sizeof(uint32_t));
    if (!nk || !nch) {
        PyMem_Free(nk);
        PyMem_Free(nch);
        return -1;
    }
    t->keys = nk;
    t->child = nch;
    t->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (!ok[i]) continue;
        size_t j = ct_slot(t, ok[i]);
        t->keys[j] = ok[i];
        t->child[j] = oc[i];
    }
    PyMem_Free(ok);
    PyMem_Free(oc);
    return 0;
}

static int ct_new_node(CharTrie *t, uint32_t *id) {
    if (t->nnodes >= ((size_t)1 << 31)) return -1;
    if (t->nnodes == t->capnodes) {
        size_t nc = t->capnodes ? t->capnodes * 2 : (size_t)1 << 16;
        uint8_t *e = (uint8_t *)PyMem_Realloc(t->end, nc);
        if (!e) return -1;
        t->end = e;
        if (t->value) {
            int64_t *v = (int64_t *)PyMem_Realloc(t->value, nc * sizeof(int64_t));
            if (!v) return -1;
            t->value = v;
        }
        t->capnodes = nc;
    }
    t->end[t->nnodes] = 0;
    if (t->value) t->value[t->nnodes] = 0;
    *id = (uint32_t)t->nnodes++;
    return 0;
}

static void ct_free(CharTrie *t) {
    PyMem_Free(t->keys);
    PyMem_Free(t->child);
    PyMem_Free(t->end);
    PyMem_Free(t->value);
    memset(t, 0, sizeof(*t));
}

/* An empty trie (the root only); with_values: keep a value per node.  -1: out of memory. */
static int ct_init(CharTrie *t, int with_values) {
    uint32_t root;
    memset(t, 0, sizeof(*t));
    if (with_values && !(t->value = (int64_t *)PyMem_Malloc(sizeof(int64_t)))) return -1;
    if (ct_grow(t) || ct_new_node(t, &root)) {
        ct_free(t);
        return -1;
    }
    return 0;
}

/* The node of the str `word`, made with its path if missing (does not set end).  -1 with
 * MemoryError set. */
static int ct_insert(CharTrie *t, PyObject *word, uint32_t *out) {
    int kind = PyUnicode_KIND(word);
    const void *data = PyUnicode_DATA(word);
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    uint32_t node = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        uint32_t next = ct_child(t, node, ch);
        if (!next) {
            if ((t->nedges + 1) * 2 > t->cap && ct_grow(t)) { PyErr_NoMemory(); return -1; }
            if (ct_new_node(t, &next)) { PyErr_NoMemory(); return -1; }
            uint64_t key = (((uint64_t)node << 21) | ch) + 1;
            size_t s = ct_slot(t, key);
            t->keys[s] = key;
            t->child[s] = next;
            t->nedges++;
        }
        node = next;
    }
    *out = node;
    return 0;
}

/* The node of text[a:b] if that path exists, else 0 (the root only for a == b). */
static uint32_t ct_find(const CharTrie *t, int kind, const void *data, Py_ssize_t a, Py_ssize_t b) {
    uint32_t node = 0;
    for (Py_ssize_t i = a; i < b; i++)
        if (!(node = ct_child(t, node, PyUnicode_READ(kind, data, i)))) return 0;
    return node;
}
