/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* Reading a str that is not all ASCII.  English news is that more often than not (curly quotes,
 * dashes, an accented name) and still nearly all ASCII, so both functions below take the ASCII
 * runs 16 code units at a time (SSE2; byte by byte elsewhere) and the other characters one by one.
 *
 * str_utf8(o): the UTF-8 bytes of a str, lone surrogates as their three bytes (Python's
 * "surrogatepass"), which the core's readers take.  PyUnicode_AsEncodedString gave the same bytes
 * through the codec machinery: ~0.8 us for a 60-token text with a curly quote, 40 % of what
 * scoring the whole pair costs.
 *
 * mod_ascii_majority(text, limit): lost_text.loses_letters's bound over text[:limit] (at most
 * every non-ASCII character is a lost letter, so a text with at least as many ASCII letters and
 * digits as non-ASCII characters loses no majority of its letters), without copying the text's
 * head (score() checks its two texts on every call). */

/* How many of the 16 code units at u lead the block as ASCII (16: all), with those bytes stored at
 * o when o is given: 16 bytes are written whatever the count, so o must have 16 bytes of room
 * (the callers' texts have >= 16 units left, each giving >= 1 byte). */
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
static inline int ascii_lead_ucs1(const Py_UCS1 *u, char *o) {
    __m128i x = _mm_loadu_si128((const __m128i *)u);
    if (o) _mm_storeu_si128((__m128i *)o, x);
    unsigned high = (unsigned)_mm_movemask_epi8(x);
    return high ? ctz64(high) : 16;
}

static inline int ascii_lead_ucs2(const Py_UCS2 *u, char *o) {
    __m128i x = _mm_loadu_si128((const __m128i *)u), y = _mm_loadu_si128((const __m128i *)(u + 8));
    __m128i low = _mm_set1_epi16(0x7F);
    /* a unit is ASCII when subtracting 0x7F with unsigned saturation leaves 0 */
    __m128i bx = _mm_cmpeq_epi16(_mm_subs_epu16(x, low), _mm_setzero_si128());
    __m128i by = _mm_cmpeq_epi16(_mm_subs_epu16(y, low), _mm_setzero_si128());
    if (o) _mm_storeu_si128((__m128i *)o, _mm_packus_epi16(_mm_and_si128(x, bx), _mm_and_si128(y, by)));
    unsigned ok = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(bx, by));   /* bit k: unit k is ASCII */
    return ok == 0xFFFF ? 16 : ctz64(~ok & 0xFFFF);
}
#else
/* elsewhere 8 units at a time in a 64-bit word (memcpy: unaligned loads, one instruction) */
static inline int ascii_lead_ucs1(const Py_UCS1 *u, char *o) {
    int k = 0;
    for (; k < 16; k += 8) {
        uint64_t x;
        memcpy(&x, u + k, 8);
        if (x & 0x8080808080808080ULL) break;
        if (o) memcpy(o + k, &x, 8);
    }
    while (k < 16 && u[k] < 0x80) { if (o) o[k] = (char)u[k]; k++; }
    return k;
}

static inline int ascii_lead_ucs2(const Py_UCS2 *u, char *o) {
    int k = 0;
    while (k < 16 && u[k] < 0x80) { if (o) o[k] = (char)u[k]; k++; }
    return k;
}
#endif

static inline int ascii_lead_ucs4(const Py_UCS4 *u, char *o) {
    int k = 0;
    while (k < 16 && u[k] < 0x80) { if (o) o[k] = (char)u[k]; k++; }
    return k;
}

static inline Py_ssize_t utf8_width(Py_UCS4 c) {
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

static inline char *utf8_put(char *o, Py_UCS4 c) {
    if (c < 0x80) { *o++ = (char)c; return o; }
    if (c < 0x800) {
        *o++ = (char)(0xC0 | (c >> 6));
    } else {
        if (c < 0x10000) {
            *o++ = (char)(0xE0 | (c >> 12));   /* surrogates too: "surrogatepass" */
        } else {
            *o++ = (char)(0xF0 | (c >> 18));
            *o++ = (char)(0x80 | ((c >> 12) & 0x3F));
        }
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
    }
    *o++ = (char)(0x80 | (c & 0x3F));
    return o;
}

/* One loop per kind of str: size, then fill.  Each step takes a block's ASCII lead and the
 * character after it. */
#define UTF8_SIZE(T, LEAD)                                                              \
    {                                                                                   \
        const T *u = (const T *)data;                                                   \
        Py_ssize_t i = 0, size = 0;                                                     \
        while (i + 16 <= n) {                                                           \
            int k = LEAD(u + i, NULL);                                                  \
            i += k;                                                                     \
            size += k;                                                                  \
            if (k < 16) size += utf8_width(u[i++]);                                     \
        }                                                                               \
        while (i < n) size += utf8_width(u[i++]);                                       \
        return size;                                                                    \
    }

#define UTF8_FILL(T, LEAD)                                                              \
    {                                                                                   \
        const T *u = (const T *)data;                                                   \
        Py_ssize_t i = 0;                                                               \
        while (i + 16 <= n) {                                                           \
            int k = LEAD(u + i, o);                                                     \
            i += k;                                                                     \
            o += k;                                                                     \
            if (k < 16) o = utf8_put(o, u[i++]);                                        \
        }                                                                               \
        while (i < n) o = utf8_put(o, u[i++]);                                          \
        return;                                                                         \
    }

static Py_ssize_t utf8_size(int kind, const void *data, Py_ssize_t n) {
    if (kind == PyUnicode_1BYTE_KIND) UTF8_SIZE(Py_UCS1, ascii_lead_ucs1)
    if (kind == PyUnicode_2BYTE_KIND) UTF8_SIZE(Py_UCS2, ascii_lead_ucs2)
    UTF8_SIZE(Py_UCS4, ascii_lead_ucs4)
}

static void utf8_fill(int kind, const void *data, Py_ssize_t n, char *o) {
    if (kind == PyUnicode_1BYTE_KIND) UTF8_FILL(Py_UCS1, ascii_lead_ucs1)
    if (kind == PyUnicode_2BYTE_KIND) UTF8_FILL(Py_UCS2, ascii_lead_ucs2)
    UTF8_FILL(Py_UCS4, ascii_lead_ucs4)
}

#undef UTF8_SIZE
#undef UTF8_FILL

/* New bytes: o's UTF-8 ("surrogatepass"); o is a ready str. */
static PyObject *str_utf8(PyObject *o) {
    int kind = PyUnicode_KIND(o);
    const void *data = PyUnicode_DATA(o);
    Py_ssize_t n = PyUnicode_GET_LENGTH(o);
    PyObject *b = PyBytes_FromStringAndSize(NULL, utf8_size(kind, data, n));
    if (b) utf8_fill(kind, data, n, PyBytes_AS_STRING(b));
    return b;
}

/* The bytes < 0x80 among x's eight with [A-Z] lowercased (a byte's test stays inside it: each
 * addition is on its low seven bits). */
static inline uint64_t ascii_lower8(uint64_t x) {
    const uint64_t L7F = 0x7F7F7F7F7F7F7F7FULL, H80 = 0x8080808080808080ULL;
    uint64_t y = x & L7F;
    uint64_t upper = (y + (0x80 - 'A') * 0x0101010101010101ULL) & ~(y + (0x80 - 'Z' - 1) * 0x0101010101010101ULL) & ~x & H80;
    return x | upper >> 2;
}

static inline void ascii_lower(char *o, Py_ssize_t n) {
    Py_ssize_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t x;
        memcpy(&x, o + k, 8);
        x = ascii_lower8(x);
        memcpy(o + k, &x, 8);
    }
    for (; k < n; k++) o[k] = (char)ascii_lower8((unsigned char)o[k]);
}

/* A non-ASCII code point lowered: -1 when str.lower() must lower the text (XL_LOWER_PY) */
static inline int64_t lower_cp(Py_UCS4 c) {
    unsigned b = XL_TABLE[c];
    if (b & XL_LOWER_PY) return -1;
    return b & XL_LOWER ? (int64_t)Py_UNICODE_TOLOWER(c) : (int64_t)c;
}

/* One loop per kind of str, as UTF8_FILL but lowering, in one pass into room for the widest
 * case (a code point whose lowering is wider in UTF-8 is XL_LOWER_PY).  A block's ASCII lead is
 * looked for once 8 ASCII units have come in a row: text whose letters are not ASCII (Hindi: a
 * space between words) or mix with it (Vietnamese) goes unit by unit, and a first version, which
 * looked for a lead after every non-ASCII unit, spent 38 % of Hindi's scoring here.  The end of
 * what it wrote, or NULL at an XL_LOWER_PY code point. */
#define LOWER_FILL(T, LEAD)                                                             \
    {                                                                                   \
        const T *u = (const T *)data;                                                   \
        Py_ssize_t i = 0;                                                               \
        int ascii_run = 8;                                                              \
        while (i < n) {                                                                 \
            Py_UCS4 c = u[i];                                                           \
            if (c >= 0x80) {                                                            \
                int64_t l = lower_cp(c);                                                \
                if (l < 0) return NULL;                                                 \
                o = utf8_put(o, (Py_UCS4)l);                                            \
                i++;                                                                    \
                ascii_run = 0;                                                          \
            } else if (ascii_run < 8 || i + 16 > n) {                                   \
                *o++ = (char)ascii_lower8(c);                                           \
                i++;                                                                    \
                ascii_run++;                                                            \
            } else {                                                                    \
                int k = LEAD(u + i, o);                                                 \
                ascii_lower(o, k);                                                      \
                i += k;                                                                 \
                o += k;                                                                 \
            }                                                                           \
        }                                                                               \
        return o;                                                                       \
    }

static char *lower_utf8_fill(int kind, const void *data, Py_ssize_t n, char *o) {
    if (kind == PyUnicode_1BYTE_KIND) LOWER_FILL(Py_UCS1, ascii_lead_ucs1)
    if (kind == PyUnicode_2BYTE_KIND) LOWER_FILL(Py_UCS2, ascii_lead_ucs2)
    LOWER_FILL(Py_UCS4, ascii_lead_ucs4)
}

#undef LOWER_FILL

/* The XL-Sum tokenizers' step 1 (xlsum_tokenizer.c), o.lower(), as the UTF-8 they read
 * ("surrogatepass"), without the str that str.lower() makes and str_utf8 encodes (English
 * XL-Sum texts, most with a curly quote or a dash, went through CPython's per-character full
 * lowering): new bytes; o itself (a new reference) when o is ASCII with no [A-Z]; NULL without an
 * exception when o holds an XL_LOWER_PY code point (str.lower() is the caller's to call).  The
 * same code points as str.lower(): [A-Z] shifted, the others through XL_TABLE's bits (built
 * from str.lower() itself).  o is a ready str, XL_TABLE built. */
static PyObject *str_lower_utf8(PyObject *o) {
    int kind = PyUnicode_KIND(o);
    const void *data = PyUnicode_DATA(o);
    Py_ssize_t n = PyUnicode_GET_LENGTH(o);
    if (PyUnicode_IS_ASCII(o)) {
        const char *u = (const char *)data;
        Py_ssize_t k = 0;
        while (k < n && !(u[k] >= 'A' && u[k] <= 'Z')) k++;
        if (k == n) {
            Py_INCREF(o);
            return o;
        }
        /* made empty, then written: from u, CPython would hand back its shared one-byte object */
        PyObject *b = PyBytes_FromStringAndSize(NULL, n);
        if (b) {
            memcpy(PyBytes_AS_STRING(b), u, (size_t)n);
            ascii_lower(PyBytes_AS_STRING(b) + k, n - k);
        }
        return b;
    }
    /* the widest a code point of the kind can be in UTF-8, lowered or not; a block's ASCII lead
     * writes 16 bytes whatever it counts, within the room of its 16 code points */
    Py_ssize_t width = kind == PyUnicode_1BYTE_KIND ? 2 : kind == PyUnicode_2BYTE_KIND ? 3 : 4;
    if (n > PY_SSIZE_T_MAX / 4) return PyErr_NoMemory();
    PyObject *b = PyBytes_FromStringAndSize(NULL, width * n);
    if (!b) return NULL;
    char *end = lower_utf8_fill(kind, data, n, PyBytes_AS_STRING(b));
    if (!end) {
        Py_DECREF(b);
        return NULL;
    }
    if (_PyBytes_Resize(&b, end - PyBytes_AS_STRING(b))) return NULL;
    return b;
}

static PyObject *mod_utf8(PyObject *self, PyObject *o) {
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "utf8() takes a str, got %.80s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    if (PyUnicode_READY(o) < 0) return NULL;
    return str_utf8(o);
}

/* ASCII letters and digits minus non-ASCII characters among u[0:n]. */
#define MAJORITY(T, LEAD)                                                               \
    {                                                                                   \
        const T *u = (const T *)data;                                                   \
        Py_ssize_t i = 0;                                                               \
        while (i < n) {                                                                 \
            int k = i + 16 <= n ? LEAD(u + i, NULL) : 0;                                \
            for (int j = 0; j < k; j++) margin += LOWER_ALNUM[u[i + j]] != 0;           \
            i += k;                                                                     \
            if (k < 16 && i < n) {                                                      \
                Py_UCS4 c = u[i++];                                                     \
                margin += c < 0x80 ? LOWER_ALNUM[c] != 0 : -1;                          \
            }                                                                           \
        }                                                                               \
    }

/* ascii_majority(text, limit): over text[:limit] */
static PyObject *mod_ascii_majority(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "ascii_majority(text, limit) takes a str and an int");
        return NULL;
    }
    PyObject *o = args[0];
    Py_ssize_t limit = PyLong_AsSsize_t(args[1]);
    if (limit < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ascii_majority: limit must be >= 0");
        return NULL;
    }
    if (PyUnicode_READY(o) < 0) return NULL;
    int kind = PyUnicode_KIND(o);
    const void *data = PyUnicode_DATA(o);
    Py_ssize_t n = PyUnicode_GET_LENGTH(o), margin = 0;
    if (n > limit) n = limit;
    if (kind == PyUnicode_1BYTE_KIND) MAJORITY(Py_UCS1, ascii_lead_ucs1)
    else if (kind == PyUnicode_2BYTE_KIND) MAJORITY(Py_UCS2, ascii_lead_ucs2)
    else MAJORITY(Py_UCS4, ascii_lead_ucs4)
    return PyBool_FromLong(margin >= 0);
}

#undef MAJORITY
