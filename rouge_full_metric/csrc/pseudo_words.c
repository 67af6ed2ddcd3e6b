/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* pseudo_words(tokens) -> "t<hex> t<hex> ...": Python's tokens as words the core's readers keep
 * whole (batch._Words): "t" and the hex digits of each token's UTF-8 (lone surrogates passed
 * through), joined by spaces.  The scores then depend only on which tokens are equal.  In Python
 * this cost ~0.1 us a token, most of a custom tokenizer's whole path on long texts. */

static const char HEX_DIGITS[] = "0123456789abcdef";

static PyObject *mod_pseudo_words(PyObject *self, PyObject *tokens) {
    PyObject *seq = PySequence_Fast(tokens, "tokens must be a sequence of str");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), total = n > 0 ? n - 1 : 0;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    /* each token's UTF-8: borrowed from the str's cache, or a bytes object for lone surrogates */
    PyObject **held = (PyObject **)calloc((size_t)n + 1, sizeof(PyObject *));
    const char **bytes = (const char **)malloc(((size_t)n + 1) * sizeof(char *));
    Py_ssize_t *lens = (Py_ssize_t *)malloc(((size_t)n + 1) * sizeof(Py_ssize_t));
    PyObject *out = NULL;
    if (!held || !bytes || !lens) { PyErr_NoMemory(); goto end; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = items[i];
        if (!PyUnicode_Check(t)) {
            PyErr_Format(PyExc_TypeError, "tokens must be str, got %.80s", Py_TYPE(t)->tp_name);
            goto end;
        }
        bytes[i] = PyUnicode_AsUTF8AndSize(t, &lens[i]);
        if (!bytes[i]) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) goto end;
            PyErr_Clear();
            if (!(held[i] = PyUnicode_AsEncodedString(t, "utf-8", "surrogatepass"))) goto end;
            bytes[i] = PyBytes_AS_STRING(held[i]);
            lens[i] = PyBytes_GET_SIZE(held[i]);
        }
        total += 1 + 2 * lens[i];
    }
    out = PyUnicode_New(total, 127);
    if (!out) goto end;
    {
        char *o = (char *)PyUnicode_1BYTE_DATA(out);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (i) *o++ = ' ';
            *o++ = 't';
            const unsigned char *b = (const unsigned char *)bytes[i];
            for (Py_ssize_t k = 0; k < lens[i]; k++) {
                *o++ = HEX_DIGITS[b[k] >> 4];
                *o++ = HEX_DIGITS[b[k] & 15];
            }
        }
    }
end:
    if (held)
        for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(held[i]);
    free(held);
    free(bytes);
    free(lens);
    Py_DECREF(seq);
    return out;
}
