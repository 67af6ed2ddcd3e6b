/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* the ROUGE-1.5.5 stemmer (stemmer.py), for tokens the token filter handles natively          */

/* Character classes of the Porter regexes, one bit each; every byte outside the listed vowels
 * is a consonant, the upper-case Y that marks an initial y included. */
enum {
    PC_C = 1,    /* [^aeiou] */
    PC_N = 2,    /* [^aeiouy] */
    PC_V = 4,    /* [aeiouy] */
    PC_U = 8,    /* [aeiou] */
    PC_W = 16,   /* [^aeiouwxy] */
    PC_D = 32    /* [^aeiouylsz] */
};
static unsigned char PCLASS[256];

/* c != 0: strchr would find the terminator */
static int in_set(const char *set, int c) { return c && strchr(set, c) != NULL; }

static void init_porter_classes(void) {
    for (int c = 0; c < 256; c++) {
        int vowel = in_set("aeiou", c);
        PCLASS[c] = (unsigned char)(vowel ? PC_U | PC_V : PC_C | (c == 'y' ? PC_V : PC_N));
        if (!vowel && !in_set("wxy", c)) PCLASS[c] |= PC_W;
        if (!vowel && !in_set("ylsz", c)) PCLASS[c] |= PC_D;
    }
}

static int pclass_bit(char k) {
    switch (k) {
    case 'c': return PC_C;
    case 'N': return PC_N;
    case 'v': return PC_V;
    case 'U': return PC_U;
    default: return PC_W;   /* 'W' */
    }
}

/* Does pattern p (class letters, each optionally followed by '*', then an optional '$') match
 * s[i:n] from its start?  A backtracking matcher like the regex engines; every star in the
 * patterns below is followed by a disjoint class or by the end, so backtracking is linear. */
static int pmatch(const char *p, const unsigned char *s, Py_ssize_t i, Py_ssize_t n) {
    for (;;) {
        if (!*p) return 1;
        if (*p == '$') return i == n;
        int bit = pclass_bit(*p);
        if (p[1] == '*') {
            Py_ssize_t j = i;
            while (j < n && (PCLASS[s[j]] & bit)) j++;
            for (; j >= i; j--)
                if (pmatch(p + 2, s, j, n)) return 1;
            return 0;
        }
        if (i >= n || !(PCLASS[s[i]] & bit)) return 0;
        p++;
        i++;
    }
}

/* The measure regexes with C = cN*, V = vU*; each optional group (C)? or (V)? is expanded into
 * the alternatives with and without it. */
static const char *const P_MGR0[] = {"cN*vU*cN*", "vU*cN*", NULL};                  /* ^(C)?VC */
static const char *const P_MEQ1[] = {"cN*vU*cN*vU*$", "cN*vU*cN*$", "vU*cN*vU*$", "vU*cN*$", NULL};
static const char *const P_MGR1[] = {"cN*vU*cN*vU*cN*", "vU*cN*vU*cN*", NULL};      /* ^(C)?VCVC */
static const char *const P_VOWEL[] = {"cN*v", "v", NULL};                           /* ^(C)?v */
static const char *const P_CVC[] = {"cN*vW$", NULL};                                /* ^Cv[^aeiouwxy]$ */

static int ptest(const char *const *alts, const char *w, Py_ssize_t n) {
    for (; *alts; alts++)
        if (pmatch(*alts, (const unsigned char *)w, 0, n)) return 1;
    return 0;
}

static int ends(const char *w, Py_ssize_t n, const char *suf) {
    size_t k = strlen(suf);
    return (size_t)n >= k && memcmp(w + n - k, suf, k) == 0;
}

typedef struct { const char *from, *to; } Rule;

static const Rule STEP2[] = {
    {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
    {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
    {"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
    {"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
    {"logi", "log"}, {NULL, NULL}};
static const Rule STEP3[] = {
    {"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""},
    {"ness", ""}, {NULL, NULL}};
static const Rule STEP4[] = {
    {"al", ""}, {"ance", ""}, {"ence", ""}, {"er", ""}, {"ic", ""}, {"able", ""}, {"ible", ""},
    {"ant", ""}, {"ement", ""}, {"ou", ""}, {"ism", ""}, {"ate", ""}, {"iti", ""}, {"ous", ""},
    {"ive", ""}, {"ize", ""}, {NULL, NULL}};

/* A step's "(s1|s2|...)$" searched leftmost-first: the longest suffix of the list that ends w
 * is the one tested, and a failed test does not fall back to a shorter one. */
static Py_ssize_t apply_rules(const Rule *r, const char *const *cond, char *w, Py_ssize_t n) {
    const Rule *best = NULL;
    for (; r->from; r++)
        if (ends(w, n, r->from) && (!best || strlen(r->from) > strlen(best->from))) best = r;
    if (!best) return n;
    Py_ssize_t k = n - (Py_ssize_t)strlen(best->from);
    if (!ptest(cond, w, k)) return n;
    memcpy(w + k, best->to, strlen(best->to));
    return k + (Py_ssize_t)strlen(best->to);
}

/* stemmer.porter_stem on w[0:n], in place; returns the new length.  w needs room for n + 1
 * bytes (enci -> ence grows the word by one). */
static Py_ssize_t porter(char *w, Py_ssize_t n) {
    if (n < 3) return n;
    int initial_y = w[0] == 'y';
    if (initial_y) w[0] = 'Y';

    /* 1a: (ss|i)es$ -> group, else ([^s])s$ -> group */
    if (ends(w, n, "sses") || ends(w, n, "ies")) n -= 2;
    else if (w[n - 1] == 's' && w[n - 2] != 's') n -= 1;

    /* 1b */
    if (ends(w, n, "eed")) {
        if (ptest(P_MGR0, w, n - 3)) n -= 1;
    } else {
        Py_ssize_t k = ends(w, n, "ed") ? n - 2 : ends(w, n, "ing") ? n - 3 : -1;
        if (k >= 0 && ptest(P_VOWEL, w, k)) {
            n = k;
            if (ends(w, n, "at") || ends(w, n, "bl") || ends(w, n, "iz")) w[n++] = 'e';
            else if (n >= 2 && w[n - 1] == w[n - 2] && (PCLASS[(unsigned char)w[n - 1]] & PC_D)) n--;
            else if (ptest(P_CVC, w, n)) w[n++] = 'e';
        }
    }

    /* 1c */
    if (ends(w, n, "y") && ptest(P_VOWEL, w, n - 1)) w[n - 1] = 'i';

    n = apply_rules(STEP2, P_MGR0, w, n);
    n = apply_rules(STEP3, P_MGR0, w, n);

    /* 4, Lin's cascade: each test runs on the result of the previous one */
    n = apply_rules(STEP4, P_MGR1, w, n);
    if (ends(w, n, "ment") && ptest(P_MGR1, w, n - 4)) n -= 4;
    if (ends(w, n, "ent")) {
        if (ptest(P_MGR1, w, n - 3)) n -= 3;
    } else if ((ends(w, n, "sion") || ends(w, n, "tion")) && ptest(P_MGR1, w, n - 3)) {
        n -= 3;   /* the s/t stays */
    }

    /* 5 */
    if (ends(w, n, "e")) {
        Py_ssize_t k = n - 1;
        if (ptest(P_MGR1, w, k) || (ptest(P_MEQ1, w, k) && !ptest(P_CVC, w, k))) n = k;
    }
    if (ends(w, n, "ll") && ptest(P_MGR1, w, n)) n--;

    if (initial_y) w[0] = 'y';   /* Perl's lcfirst; the word never loses its first letter */
    return n;
}
