/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* NLTK's PorterStemmer().stem (mode NLTK_EXTENSIONS), as rouge_score's tokenizer calls it      */
/*                                                                                              */
/* A transcription of nltk/stem/porter.py (NLTK 3.6 to 3.10.4 agree on it for lowercase words;   */
/* tests/check_nltk_porter_versions.py): every step keeps NLTK's control flow -- a rule list    */
/* stops at the first suffix that matches, whether or not its condition holds -- and works on   */
/* code points, so that any str gives NLTK's answer (nltk_porter_stem).  A word never grows:    */
/* every replacement is at most as long as the suffix it replaces, so the buffer is the word's. */

typedef uint32_t NpChar;

static int np_vowel(NpChar c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

/* _is_consonant(w, i): a y is a consonant when the letter before it is not one (the first
 * letter counts as preceded by a vowel); walked back iteratively, as NLTK 3.10 does. */
static int np_cons(const NpChar *w, Py_ssize_t i) {
    if (np_vowel(w[i])) return 0;
    if (w[i] != 'y') return 1;
    int negate = 0;
    while (i > 0 && w[i] == 'y') { negate = !negate; i--; }
    return (!np_vowel(w[i])) != negate;
}

/* _measure(w[0:k]): the "vc" pairs of the consonant/vowel sequence, in one pass. */
static Py_ssize_t np_measure(const NpChar *w, Py_ssize_t k) {
    Py_ssize_t m = 0;
    int prev = 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        int cons = np_vowel(w[i]) ? 0 : w[i] != 'y' ? 1 : i == 0 ? 1 : !prev;
        if (i > 0 && !prev && cons) m++;
        prev = cons;
    }
    return m;
}

static int np_has_vowel(const NpChar *w, Py_ssize_t k) {
    int prev = 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        int cons = np_vowel(w[i]) ? 0 : w[i] != 'y' ? 1 : i == 0 ? 1 : !prev;
        if (!cons) return 1;
        prev = cons;
    }
    return 0;
}

static int np_ends(const NpChar *w, Py_ssize_t n, const char *suf) {
    Py_ssize_t k = (Py_ssize_t)strlen(suf);
    if (n < k) return 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (w[n - k + i] != (NpChar)(unsigned char)suf[i]) return 0;
    return 1;
}

/* Write an ASCII replacement at w[k:]; returns the new length. */
static Py_ssize_t np_put(NpChar *w, Py_ssize_t k, const char *rep) {
    for (; *rep; rep++) w[k++] = (NpChar)(unsigned char)*rep;
    return k;
}

static int np_double_cons(const NpChar *w, Py_ssize_t k) {
    return k >= 2 && w[k - 1] == w[k - 2] && np_cons(w, k - 1);
}

/* *o, with NLTK's two-letter vowel-consonant case */
static int np_cvc(const NpChar *w, Py_ssize_t k) {
    if (k >= 3 && np_cons(w, k - 3) && !np_cons(w, k - 2) && np_cons(w, k - 1) &&
        w[k - 1] != 'w' && w[k - 1] != 'x' && w[k - 1] != 'y')
        return 1;
    return k == 2 && !np_cons(w, 0) && np_cons(w, 1);
}

enum { NP_M0, NP_M1, NP_ION, NP_LOGI };
typedef struct { const char *suf, *rep; int cond; } NpRule;

/* _apply_rule_list: the first rule whose suffix ends w decides (applied or not). */
static Py_ssize_t np_rules(NpChar *w, Py_ssize_t n, const NpRule *r) {
    for (; r->suf; r++) {
        if (!np_ends(w, n, r->suf)) continue;
        Py_ssize_t k = n - (Py_ssize_t)strlen(r->suf);
        int ok;
        switch (r->cond) {
        case NP_M0: ok = np_measure(w, k) > 0; break;
        case NP_M1: ok = np_measure(w, k) > 1; break;
        case NP_ION: ok = np_measure(w, k) > 1 && (w[k - 1] == 's' || w[k - 1] == 't'); break;
        default: ok = np_measure(w, n - 3) > 0; break;   /* logi: the l stays with the stem */
        }
        return ok ? np_put(w, k, r->rep) : n;
    }
    return n;
}

static const NpRule NP_STEP2[] = {
    {"ational", "ate", NP_M0}, {"tional", "tion", NP_M0}, {"enci", "ence", NP_M0}, {"anci", "ance", NP_M0},
    {"izer", "ize", NP_M0}, {"bli", "ble", NP_M0}, {"alli", "al", NP_M0}, {"entli", "ent", NP_M0},
    {"eli", "e", NP_M0}, {"ousli", "ous", NP_M0}, {"ization", "ize", NP_M0}, {"ation", "ate", NP_M0},
    {"ator", "ate", NP_M0}, {"alism", "al", NP_M0}, {"iveness", "ive", NP_M0}, {"fulness", "ful", NP_M0},
    {"ousness", "ous", NP_M0}, {"aliti", "al", NP_M0}, {"iviti", "ive", NP_M0}, {"biliti", "ble", NP_M0},
    {"fulli", "ful", NP_M0}, {"logi", "log", NP_LOGI}, {NULL, NULL, 0}};
static const NpRule NP_STEP3[] = {
    {"icate", "ic", NP_M0}, {"ative", "", NP_M0}, {"alize", "al", NP_M0}, {"iciti", "ic", NP_M0},
    {"ical", "ic", NP_M0}, {"ful", "", NP_M0}, {"ness", "", NP_M0}, {NULL, NULL, 0}};
static const NpRule NP_STEP4[] = {
    {"al", "", NP_M1}, {"ance", "", NP_M1}, {"ence", "", NP_M1}, {"er", "", NP_M1}, {"ic", "", NP_M1},
    {"able", "", NP_M1}, {"ible", "", NP_M1}, {"ant", "", NP_M1}, {"ement", "", NP_M1}, {"ment", "", NP_M1},
    {"ent", "", NP_M1}, {"ion", "", NP_ION}, {"ou", "", NP_M1}, {"ism", "", NP_M1}, {"ate", "", NP_M1},
    {"iti", "", NP_M1}, {"ous", "", NP_M1}, {"ive", "", NP_M1}, {"ize", "", NP_M1}, {NULL, NULL, 0}};

/* The irregular forms (NLTK's pool), looked up before any step. */
static const char *const NP_POOL[][2] = {
    {"sky", "sky"}, {"skies", "sky"}, {"dying", "die"}, {"lying", "lie"}, {"tying", "tie"}, {"news", "news"},
    {"innings", "inning"}, {"inning", "inning"}, {"outings", "outing"}, {"outing", "outing"},
    {"cannings", "canning"}, {"canning", "canning"}, {"howe", "howe"}, {"proceed", "proceed"},
    {"exceed", "exceed"}, {"succeed", "succeed"}, {NULL, NULL}};

static Py_ssize_t np_step1a(NpChar *w, Py_ssize_t n) {
    if (n == 4 && np_ends(w, n, "ies")) return n - 1;   /* NLTK: dies -> die, flies -> fli */
    if (np_ends(w, n, "sses") || np_ends(w, n, "ies")) return n - 2;
    if (np_ends(w, n, "ss")) return n;
    if (np_ends(w, n, "s")) return n - 1;
    return n;
}

static Py_ssize_t np_step1b(NpChar *w, Py_ssize_t n) {
    if (np_ends(w, n, "ied")) return n == 4 ? n - 1 : n - 2;   /* died -> die, spied -> spi */
    if (np_ends(w, n, "eed")) return np_measure(w, n - 3) > 0 ? n - 1 : n;
    Py_ssize_t k = -1;
    if (np_ends(w, n, "ed") && np_has_vowel(w, n - 2)) k = n - 2;
    else if (np_ends(w, n, "ing") && np_has_vowel(w, n - 3)) k = n - 3;
    if (k < 0) return n;
    if (np_ends(w, k, "at") || np_ends(w, k, "bl") || np_ends(w, k, "iz")) return np_put(w, k, "e");
    if (np_double_cons(w, k)) {
        NpChar last = w[k - 1];
        return last == 'l' || last == 's' || last == 'z' ? k : k - 1;
    }
    /* NLTK's "*d" rule also matches the literal suffix "*d": intermediate[:-2] + "d" */
    if (np_ends(w, k, "*d")) { w[k - 2] = 'd'; return k - 1; }
    if (np_measure(w, k) == 1 && np_cvc(w, k)) return np_put(w, k, "e");
    return k;
}

static Py_ssize_t np_step1c(NpChar *w, Py_ssize_t n) {
    /* (*c and not c) Y -> I: the stem before the y is longer than one letter, ends in a consonant */
    if (np_ends(w, n, "y") && n - 1 > 1 && np_cons(w, n - 2)) w[n - 1] = 'i';
    return n;
}

static Py_ssize_t np_step2(NpChar *w, Py_ssize_t n) {
    /* NLTK applies alli -> al first and, when it does, step 2 again to the result */
    if (np_ends(w, n, "alli") && np_measure(w, n - 4) > 0) n -= 2;
    return np_rules(w, n, NP_STEP2);
}

static Py_ssize_t np_step5(NpChar *w, Py_ssize_t n) {
    if (np_ends(w, n, "e")) {
        Py_ssize_t m = np_measure(w, n - 1);
        if (m > 1 || (m == 1 && !np_cvc(w, n - 1))) n--;
    }
    if (np_ends(w, n, "ll") && np_measure(w, n - 1) > 1) n--;
    return n;
}

/* PorterStemmer().stem on the lowercased word w[0:n]; orig_len is the length of the word as
 * given (NLTK leaves words of at most two characters alone, measured before lowercasing);
 * use_pool: whether the irregular forms apply.  Returns the stem's length (in place). */
static Py_ssize_t nltk_porter(NpChar *w, Py_ssize_t n, Py_ssize_t orig_len, int use_pool) {
    for (int p = 0; use_pool && NP_POOL[p][0]; p++) {
        if ((Py_ssize_t)strlen(NP_POOL[p][0]) == n && np_ends(w, n, NP_POOL[p][0]))
            return np_put(w, 0, NP_POOL[p][1]);
    }
    if (orig_len <= 2) return n;
    n = np_step1a(w, n);
    n = np_step1b(w, n);
    n = np_step1c(w, n);
    n = np_step2(w, n);
    n = np_rules(w, n, NP_STEP3);
    n = np_rules(w, n, NP_STEP4);
    return np_step5(w, n);
}

/* NLTK 3.6-3.9 find whether a y is a consonant by recursion, one level per y before it: a
 * word with a long run of y raises RecursionError there.  Such tokens go to the Python
 * filter (NLTK itself), so that the compiled engine fails or succeeds as the reference does. */
#define NP_Y_RUN_TO_PYTHON 64

static int np_long_y_run(const unsigned char *t, Py_ssize_t n) {
    Py_ssize_t run = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        run = t[i] == 'y' ? run + 1 : 0;
        if (run >= NP_Y_RUN_TO_PYTHON) return 1;
    }
    return 0;
}

/* nltk_porter_stem(word, pool_lowercased=True) -> str: PorterStemmer().stem(word) for any str.
 * pool_lowercased=False: NLTK before 3.10 looked the irregular forms up before lowercasing. */
static PyObject *mod_nltk_porter_stem(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"word", "pool_lowercased", NULL};
    PyObject *word;
    int pool_lowercased = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "U|p", kwlist, &word, &pool_lowercased)) return NULL;
    PyObject *lowered = PyObject_CallMethod(word, "lower", NULL);
    if (!lowered) return NULL;
    if (!PyUnicode_Check(lowered)) {   /* a str subclass's own lower() */
        PyErr_Format(PyExc_TypeError, "word.lower() must return a str, got %.100s", Py_TYPE(lowered)->tp_name);
        Py_DECREF(lowered);
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(lowered), orig_len = PyUnicode_GET_LENGTH(word);
    Py_UCS4 *w = PyUnicode_AsUCS4Copy(lowered);
    if (!w) { Py_DECREF(lowered); return NULL; }
    /* NLTK before 3.10 looked the word up as given: a word with capitals missed the pool */
    int use_pool = pool_lowercased || PyUnicode_Compare(word, lowered) == 0;
    if (PyErr_Occurred()) { PyMem_Free(w); Py_DECREF(lowered); return NULL; }
    Py_ssize_t len = nltk_porter((NpChar *)w, n, orig_len, use_pool);
    Py_DECREF(lowered);
    PyObject *out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, w, len);
    PyMem_Free(w);
    return out;
}
