/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* scan_config: the canonical-config reader of perl_config in C.  It accepts exactly the        */
/* documents perl_config._scan_regex accepts (same grammar, checked on generated documents by    */
/* tests/test_xml_config_stream.py) and returns the same element tuples, in chunks; None sends   */
/* the document to expat.  A quarter of the regular expressions' time.                          */

typedef struct { const unsigned char *p, *end; } Cur;

static inline int xml_s(unsigned char ch) { return ch == ' ' || ch == '\t' || ch == '\n'; }
static inline void skip_s(Cur *c) { while (c->p < c->end && xml_s(*c->p)) c->p++; }
static inline int name_start(unsigned char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}
static inline int name_char(unsigned char ch) {
    return name_start(ch) || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.';
}

static int lit(Cur *c, const char *s) {
    size_t n = strlen(s);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n)) return 0;
    c->p += n;
    return 1;
}

/* [^<]* */
static Span scan_text(Cur *c) {
    const unsigned char *s = c->p;
    const unsigned char *q = memchr(s, '<', (size_t)(c->end - s));
    c->p = q ? q : c->end;
    return (Span){(const char *)s, (Py_ssize_t)(c->p - s)};
}

/* S* = S* "value" with value [^"<\t\n]*, after the attribute name */
static int scan_value(Cur *c, Span *value) {
    skip_s(c);
    if (!lit(c, "=")) return 0;
    skip_s(c);
    if (!lit(c, "\"")) return 0;
    const unsigned char *s = c->p;
    while (c->p < c->end && *c->p != '"' && *c->p != '<' && *c->p != '\t' && *c->p != '\n') c->p++;
    if (c->p == c->end || *c->p != '"') return 0;
    *value = (Span){(const char *)s, (Py_ssize_t)(c->p - s)};
    c->p++;
    return 1;
}

/* S+ NAME S* = S* "value" for the one attribute NAME */
static int scan_attr(Cur *c, const char *name, Span *value) {
    if (c->p == c->end || !xml_s(*c->p)) return 0;
    skip_s(c);
    return lit(c, name) && scan_value(c, value);
}

/* <?xml version="1.0" [encoding="utf-8"] [standalone="yes|no"] ?>, quotes " or ' */
static int scan_quoted_word(Cur *c, const char *word, int nocase) {
    if (c->p == c->end || (*c->p != '"' && *c->p != '\'')) return 0;
    unsigned char q = *c->p++;
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n + 1) return 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char ch = c->p[k];
        if (nocase && ch >= 'A' && ch <= 'Z') ch = (unsigned char)(ch + 32);
        if (ch != (unsigned char)word[k]) return 0;
    }
    c->p += n;
    return *c->p++ == q;
}

static int scan_decl(Cur *c) {
    if (!lit(c, "<?xml") || c->p == c->end || !xml_s(*c->p)) return 0;
    skip_s(c);
    if (!lit(c, "version")) return 0;
    skip_s(c);
    if (!lit(c, "=")) return 0;
    skip_s(c);
    if (!scan_quoted_word(c, "1.0", 0)) return 0;
    static const char *const names[2] = {"encoding", "standalone"};
    for (int k = 0; k < 2; k++) {
        Cur save = *c;
        skip_s(c);
        if (c->p == save.p || !lit(c, names[k])) { *c = save; continue; }
        skip_s(c);
        if (!lit(c, "=")) return 0;
        skip_s(c);
        if (k == 0) {
            if (!scan_quoted_word(c, "utf-8", 1)) return 0;
        } else {
            Cur yes = *c;
            if (scan_quoted_word(&yes, "yes", 0)) *c = yes;
            else if (!scan_quoted_word(c, "no", 0)) return 0;
        }
    }
    skip_s(c);
    return lit(c, "?>");
}

/* the bytes Python's strict UTF-8 decoder accepts, without U+FFFE and U+FFFF (not XML) */
static int valid_utf8(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        unsigned char b = *p;
        if (b < 0x80) { p++; continue; }
        int n;
        uint32_t cp;
        if (b >= 0xC2 && b <= 0xDF) { n = 1; cp = b & 0x1F; }
        else if (b >= 0xE0 && b <= 0xEF) { n = 2; cp = b & 0x0F; }
        else if (b >= 0xF0 && b <= 0xF4) { n = 3; cp = b & 0x07; }
        else return 0;
        if (end - p <= n) return 0;
        for (int k = 1; k <= n; k++) {
            if ((p[k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (p[k] & 0x3F);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        p += n + 1;
    }
    return 1;
}

/* The constant strings of the element tuples, made once (interned). */
static PyObject *S_EMPTY, *S_P, *S_M, *S_EVAL, *S_PEER_ROOT, *S_MODEL_ROOT, *S_INPUT_FORMAT;

static int scan_strings(void) {
    if (S_EMPTY) return 0;
    S_EMPTY = PyUnicode_InternFromString("");
    S_P = PyUnicode_InternFromString("P");
    S_M = PyUnicode_InternFromString("M");
    S_EVAL = PyUnicode_InternFromString("EVAL");
    S_PEER_ROOT = PyUnicode_InternFromString("PEER-ROOT");
    S_MODEL_ROOT = PyUnicode_InternFromString("MODEL-ROOT");
    S_INPUT_FORMAT = PyUnicode_InternFromString("INPUT-FORMAT");
    return S_EMPTY && S_P && S_M && S_EVAL && S_PEER_ROOT && S_MODEL_ROOT && S_INPUT_FORMAT ? 0 : -1;
}

static PyObject *span_str(Span s) {
    if (!s.n) { Py_INCREF(S_EMPTY); return S_EMPTY; }
    return PyUnicode_DecodeUTF8(s.p, s.n, "strict");
}

/* One tuple (item, item_id, item_text, is_eval, eval_id, root_tag, root_text, is_format,
 * input_type) as perl_config._CANONICAL_ELEMENTS.findall gives it: tag at index at, then its
 * one (second = NULL) or two values, "" everywhere else. */
static int push_element(PyObject *out, int at, PyObject *tag, Span first, const Span *second) {
    PyObject *t = PyTuple_New(9);
    if (!t) return -1;
    for (int k = 0; k < 9; k++) { Py_INCREF(S_EMPTY); PyTuple_SET_ITEM(t, k, S_EMPTY); }
    PyObject *a = span_str(first), *b = second ? span_str(*second) : NULL;
    if (!a || (second && !b)) { Py_XDECREF(a); Py_XDECREF(b); Py_DECREF(t); return -1; }
    Py_INCREF(tag);
    Py_SETREF(((PyTupleObject *)t)->ob_item[at], tag);
    Py_SETREF(((PyTupleObject *)t)->ob_item[at + 1], a);
    if (b) Py_SETREF(((PyTupleObject *)t)->ob_item[at + 2], b);
    int r = PyList_Append(out, t);
    Py_DECREF(t);
    return r;
}

/* <PEERS> or <MODELS> content after the start tag: (text <P S+ ID S*=S* "v" S* > text </P>)* */
static int scan_items(Cur *c, char kind, PyObject *out) {
    char open[3] = {'<', kind, 0}, close[5] = {'<', '/', kind, '>', 0};
    PyObject *item = kind == 'P' ? S_P : S_M;
    for (;;) {
        scan_text(c);
        Cur save = *c;
        Span id, text;
        if (!lit(c, open) || !scan_attr(c, "ID", &id)) { *c = save; return 0; }
        skip_s(c);
        if (!lit(c, ">")) return -1;
        text = scan_text(c);
        if (!lit(c, close)) return -1;
        if (push_element(out, 0, item, id, &text)) return -2;
    }
}

/* -1: not canonical, -2: Python error, 0: done */
static int scan_eval_content(Cur *c, PyObject *out) {
    for (;;) {
        scan_text(c);
        if (lit(c, "</EVAL>")) return 0;
        PyObject *root = NULL;
        if (lit(c, "<PEER-ROOT>")) root = S_PEER_ROOT;
        else if (lit(c, "<MODEL-ROOT>")) root = S_MODEL_ROOT;
        if (root) {
            Span text = scan_text(c);
            if (!lit(c, root == S_PEER_ROOT ? "</PEER-ROOT>" : "</MODEL-ROOT>")) return -1;
            if (push_element(out, 5, root, text, NULL)) return -2;
        } else if (lit(c, "<INPUT-FORMAT")) {
            Span type;
            if (!scan_attr(c, "TYPE", &type)) return -1;
            skip_s(c);
            if (!lit(c, "/>")) {
                if (!lit(c, ">")) return -1;
                scan_text(c);
                if (!lit(c, "</INPUT-FORMAT>")) return -1;
            }
            if (push_element(out, 7, S_INPUT_FORMAT, type, NULL)) return -2;
        } else {
            int peers = lit(c, "<PEERS>");
            if (!peers && !lit(c, "<MODELS>")) return -1;
            int r = scan_items(c, peers ? 'P' : 'M', out);
            if (r) return r;
            scan_text(c);
            if (!lit(c, peers ? "</PEERS>" : "</MODELS>")) return -1;
        }
    }
}

/* scan_config(data, pos=0, max_evals=1024) -> (elements, next pos or -1 at the end), or None.
 * Chunks of EVALs keep the element tuples of a large config from piling up; pos 0 also checks
 * the bytes of the whole document.  A chunk's elements stand only if the document turns out
 * canonical to the end (None from a later call means: read it all again with expat). */
static PyObject *mod_scan_config(PyObject *self, PyObject *args) {
    PyObject *arg;
    Py_ssize_t pos = 0, max_evals = 1024;
    if (!PyArg_ParseTuple(args, "O|nn", &arg, &pos, &max_evals)) return NULL;
    if (!PyBytes_Check(arg)) Py_RETURN_NONE;
    if (scan_strings()) return NULL;
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(arg);
    Py_ssize_t n = PyBytes_GET_SIZE(arg);
    if (pos < 0 || pos > n || max_evals < 1) {
        PyErr_SetString(PyExc_ValueError, "pos must lie in the data and max_evals be >= 1");
        return NULL;
    }
    Cur c = {p, p + n};
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) Py_RETURN_NONE;
    if (pos == 0) {
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char b = p[i];
            if ((b < 0x20 && b != '\t' && b != '\n') || b == '&') Py_RETURN_NONE;
            if (b == ']' && i + 2 < n && p[i + 1] == ']' && p[i + 2] == '>') Py_RETURN_NONE;
        }
        if (!valid_utf8(p, p + n)) Py_RETURN_NONE;
    }
    if (n >= 2 && p[0] == '<' && p[1] == '?' && !scan_decl(&c)) Py_RETURN_NONE;
    /* the root: S* <NAME (S+ NAME S* = S* "v")* S* > with distinct attribute names */
    skip_s(&c);
    if (!lit(&c, "<") || c.p == c.end || !name_start(*c.p)) Py_RETURN_NONE;
    Span root = {(const char *)c.p, 0};
    while (c.p < c.end && name_char(*c.p)) c.p++;
    root.n = (const char *)c.p - root.p;
    static const char *const special[6] = {"EVAL", "INPUT-FORMAT", "PEER-ROOT", "MODEL-ROOT", "PEERS", "MODELS"};
    for (int k = 0; k < 6; k++) {
        if ((Py_ssize_t)strlen(special[k]) != root.n) continue;
        Py_ssize_t j = 0;
        while (j < root.n && (root.p[j] >= 'a' && root.p[j] <= 'z' ? root.p[j] - 32 : root.p[j]) == special[k][j]) j++;
        if (j == root.n) Py_RETURN_NONE;
    }
    Span names[64];
    int nnames = 0;
    for (;;) {
        const unsigned char *before = c.p;
        skip_s(&c);
        if (lit(&c, ">")) break;
        if (c.p == before || c.p == c.end || !name_start(*c.p) || nnames == 64) Py_RETURN_NONE;
        Span name = {(const char *)c.p, 0}, value;
        while (c.p < c.end && name_char(*c.p)) c.p++;
        name.n = (const char *)c.p - name.p;
        if (!scan_value(&c, &value)) Py_RETURN_NONE;
        for (int k = 0; k < nnames; k++)
            if (names[k].n == name.n && !memcmp(names[k].p, name.p, (size_t)name.n)) Py_RETURN_NONE;
        names[nnames++] = name;
    }
    if (pos > 0) c.p = p + pos;   /* the prolog above only gave the root's name */
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (Py_ssize_t evals = 0;; evals++) {
        if (evals == max_evals) return Py_BuildValue("(Nn)", out, (Py_ssize_t)(c.p - p));
        scan_text(&c);
        if (lit(&c, "<EVAL")) {
            Span id;
            if (!scan_attr(&c, "ID", &id)) goto not_canonical;
            skip_s(&c);
            if (!lit(&c, ">")) goto not_canonical;
            if (push_element(out, 3, S_EVAL, id, NULL)) goto error;
            int r = scan_eval_content(&c, out);
            if (r == -2) goto error;
            if (r) goto not_canonical;
        } else if (lit(&c, "</")) {
            if ((Py_ssize_t)(c.end - c.p) < root.n || memcmp(c.p, root.p, (size_t)root.n)) goto not_canonical;
            c.p += root.n;
            if (c.p < c.end && name_char(*c.p)) goto not_canonical;
            skip_s(&c);
            if (!lit(&c, ">")) goto not_canonical;
            skip_s(&c);
            if (c.p != c.end) goto not_canonical;
            return Py_BuildValue("(Nn)", out, (Py_ssize_t)-1);
        } else goto not_canonical;
    }
not_canonical:
    Py_DECREF(out);
    Py_RETURN_NONE;
error:
    Py_DECREF(out);
    return NULL;
}
