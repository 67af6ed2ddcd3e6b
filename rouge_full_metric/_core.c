/*
 * Compiled hot path of rouge_full_metric: tokenization, token interning, n-gram / skip-bigram
 * clipped matching, LCS (bit-parallel length; Perl back-trace for the union LCS), WLCS, the
 * multi-reference combination and the Perl bootstrap's replicate sums.
 *
 * The pure-Python engine (scorer.py and friends) is the reference: every number produced here
 * must be bit-identical to it, which is why float expressions below keep the Python's operation
 * order and the file must be compiled with -ffp-contract=off (no fused multiply-adds).
 *
 * Threading model: a Worker owns every mutable buffer (interner, scratch), so several Workers
 * can run on several threads with the GIL released.  The GIL is re-taken only to call the
 * Python token filter the first time a Worker sees a token the native filter (stop words and
 * the ROUGE-1.5.5 stemmer in C, flavors rouge155 and paper) does not handle, and to build the
 * result objects.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#if defined(_MSC_VER)
#include <intrin.h>
#endif
#if defined(_WIN32)
#include <io.h>
#define open _open
#define read _read
#define close _close
#else
#include <unistd.h>
#endif
#ifndef O_BINARY
#define O_BINARY 0
#endif

#define FLAVOR_ROUGE155 0
#define FLAVOR_PAPER 1
#define FLAVOR_RS 2

enum { K_N = 0, K_L, K_LSUM, K_W, K_S };
enum { MR_AVERAGE = 0, MR_BEST, MR_MAX };

/* Row-table budget (64-bit words) before the LCS/WLCS back-traces switch to checkpointing:
 * 2^22 words = 32 MiB. */
static Py_ssize_t TABLE_WORDS_LIMIT = (Py_ssize_t)1 << 22;
/* A Worker forgets its token cache past this many entries (checked between examples). */
#define INTERN_RESET_LIMIT ((Py_ssize_t)1 << 22)

#define ERR_NOMEM 1
#define ERR_PY 2

/* ------------------------------------------------------------------------------------------ */
/* small growable buffers (malloc-based: usable without the GIL)                               */

typedef struct { int32_t *v; Py_ssize_t n, cap; } IVec;

static int grow(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t elem) {
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* grow() that zero-fills the new part */
static int grow_zero(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t elem) {
    Py_ssize_t old = *cap;
    if (grow(p, cap, need, elem)) return -1;
    if (*cap > old) memset((char *)*p + (size_t)old * elem, 0, (size_t)(*cap - old) * elem);
    return 0;
}

static inline int ivec_push(IVec *a, int32_t x) {
    if (a->n == a->cap && grow((void **)&a->v, &a->cap, a->n + 1, sizeof(int32_t))) return -1;
    a->v[a->n++] = x;
    return 0;
}

static inline int ctz64(uint64_t x) {
#if defined(_MSC_VER)
    unsigned long k;
    _BitScanForward64(&k, x);
    return (int)k;
#else
    return __builtin_ctzll(x);
#endif
}

static inline int popc64(uint64_t x) {
    /* SWAR popcount: portable builds (no -mpopcnt) would otherwise call libgcc per word. */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* ------------------------------------------------------------------------------------------ */
/* rounding: float("%.5f" % x) without the GIL                                                 */

/* Correctly rounded to 5 decimals (ties to even on exact binary ties), as Python's "%.5f"
 * formatting followed by float(): k/1e5 is then the double nearest to the decimal k/100000,
 * which is what float() of the printed string gives.  fma() makes the comparisons with the
 * decimal grid exact. */
static double round5(double x) {
    if (x >= 0.0 && x < 1e4) {
        /* x * 1e5 is within 2^-24 of the exact product here, so unless its fraction is near
         * one half the exact product rounds the same way: no fma() needed */
        double y = x * 1e5, fl = floor(y), frac = y - fl;
        if (frac < 0.5 - 1e-6) return fl / 1e5;
        if (frac > 0.5 + 1e-6) return (fl + 1.0) / 1e5;
    }
    if (!(x >= 0.0) || x >= 1e10) {
        if (x < 0.0 && x > -1e10) return -round5(-x);
        return x; /* nan/inf/huge: not produced by ROUGE ratios */
    }
    double k = floor(x * 1e5);
    if (fma(x, 1e5, -k) < 0.0) k -= 1.0;
    else if (fma(x, 1e5, -(k + 1.0)) >= 0.0) k += 1.0;
    double t = fma(x, 2e5, -(2.0 * k + 1.0));
    if (t > 0.0 || (t == 0.0 && fmod(k, 2.0) != 0.0)) k += 1.0;
    return k / 1e5;
}

/* ------------------------------------------------------------------------------------------ */
/* token interner                                                                              */

typedef struct { uint64_t h; uint64_t head; uint32_t off, len; int32_t fin; } Entry;

/* Slots hold the hash's high 32 bits and entry index + 1, so a probe touches an entry only
 * when the hashes agree; tokens of up to 8 bytes compare as one word (head). */
typedef struct {
    Entry *ent; Py_ssize_t nent, capent;
    uint64_t *tab; Py_ssize_t tabcap;   /* power of two */
    char *arena; Py_ssize_t alen, acap;
} Interner;

/* The first 8 bytes of a token as a little-endian word (built byte by byte: a variable-length
 * memcpy into a stack word stalls on store forwarding). */
static inline uint64_t head_of(const char *s, Py_ssize_t n) {
    uint64_t x = 0;
    for (Py_ssize_t k = 0; k < n && k < 8; k++) x |= (uint64_t)(unsigned char)s[k] << (8 * k);
    return x;
}

static inline uint64_t hash_tok(const char *s, Py_ssize_t n, uint64_t head) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    if (n <= 8) {
        h = (h ^ head) * 0xc4ceb9fe1a85ec53ULL;
        return h ^ (h >> 29);
    }
    while (n >= 8) {
        uint64_t x;
        memcpy(&x, s, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    h = (h ^ head_of(s, n)) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

static inline uint64_t hash_bytes(const char *s, Py_ssize_t n) {
    return hash_tok(s, n, head_of(s, n));
}

static void interner_free(Interner *in) {
    free(in->ent); free(in->tab); free(in->arena);
    memset(in, 0, sizeof(*in));
}

static int interner_rehash(Interner *in, Py_ssize_t newcap) {
    uint64_t *t = (uint64_t *)calloc((size_t)newcap, sizeof(uint64_t));
    if (!t) return -1;
    uint64_t mask = (uint64_t)newcap - 1;
    for (Py_ssize_t i = 0; i < in->nent; i++) {
        uint64_t h = in->ent[i].h, s = h & mask;
        while (t[s]) s = (s + 1) & mask;
        t[s] = (h & 0xFFFFFFFF00000000ULL) | (uint64_t)(i + 1);
    }
    free(in->tab);
    in->tab = t;
    in->tabcap = newcap;
    return 0;
}

/* Index of the entry for s, or -1 with *slotp the empty slot where it would go. */
static inline Py_ssize_t probe(const Interner *in, const char *s, Py_ssize_t n, uint64_t h, uint64_t head,
                               uint64_t *slotp) {
    uint64_t hi = h & 0xFFFFFFFF00000000ULL;
    uint64_t mask = (uint64_t)in->tabcap - 1, slot = h & mask;
    for (;;) {
        uint64_t e = in->tab[slot];
        if (!e) break;
        if ((e & 0xFFFFFFFF00000000ULL) == hi) {
            const Entry *en = &in->ent[(e & 0xFFFFFFFFULL) - 1];
            if (en->len == (uint32_t)n && en->head == head &&
                (n <= 8 || memcmp(in->arena + en->off + 8, s + 8, (size_t)(n - 8)) == 0))
                return (Py_ssize_t)(e & 0xFFFFFFFFULL) - 1;
        }
        slot = (slot + 1) & mask;
    }
    *slotp = slot;
    return -1;
}

/* Index of the entry for s (created with fin = init_fin, or fin = own index when init_fin is
 * -4), or -1 when out of memory. */
static Py_ssize_t intern_h(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin, uint64_t h, uint64_t head) {
    if (in->tabcap == 0 && interner_rehash(in, 1024)) return -1;
    uint64_t slot = 0;
    Py_ssize_t found = probe(in, s, n, h, head, &slot);
    if (found >= 0) return found;
    if (grow((void **)&in->ent, &in->capent, in->nent + 1, sizeof(Entry))) return -1;
    if (grow((void **)&in->arena, &in->acap, in->alen + n + 1, 1)) return -1;
    Py_ssize_t idx = in->nent++;
    Entry *en = &in->ent[idx];
    en->h = h;
    en->head = head;
    en->off = (uint32_t)in->alen;
    en->len = (uint32_t)n;
    en->fin = init_fin == -4 ? (int32_t)idx : init_fin;
    memcpy(in->arena + in->alen, s, (size_t)n);
    in->alen += n;
    in->tab[slot] = (h & 0xFFFFFFFF00000000ULL) | (uint64_t)(idx + 1);
    if (in->nent * 2 > in->tabcap && interner_rehash(in, in->tabcap * 2)) return -1;
    return idx;
}

static Py_ssize_t intern(Interner *in, const char *s, Py_ssize_t n, int32_t init_fin) {
    return intern_h(in, s, n, init_fin, hash_bytes(s, n), head_of(s, n));
}

/* Index of the entry for s, or -1 when absent (never inserts: safe on a shared, read-only table). */
static Py_ssize_t lookup(const Interner *in, const char *s, Py_ssize_t n) {
    uint64_t slot, head = head_of(s, n);
    return in->tabcap ? probe(in, s, n, hash_tok(s, n, head), head, &slot) : -1;
}

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

/* ------------------------------------------------------------------------------------------ */
/* objects                                                                                      */

/* Direct-mapped cache of final ids for tokens of up to 16 bytes: frequent (Zipf) tokens then cost
 * one cache-resident probe instead of two dependent misses in the interner.  A hit is exact:
 * the whole token (head and head2: bytes 0-7 and 8-15, zero-padded) and its length are
 * compared. */
#define FRONT_BITS 14
typedef struct { uint64_t head, head2; uint32_t tag; int32_t fin; } Front;

typedef struct { int kind; int n; double weight; int max_gap; int unigrams; PyObject *name; } TSpec;

typedef struct {
    PyObject_HEAD
    int flavor;
    int ntypes;
    TSpec *types;
    Py_ssize_t word_limit, byte_limit;
    int needs_sentences, needs_flat;
    int multi_ref, jackknife, rounded, rs_f;
    double alpha;
    PyObject *filter;       /* callable(str) -> str | None, or NULL */
    /* tokenization.make_token_filter in C for [a-z0-9] tokens (filter stays the fallback):
     * stops holds the stop words, exc the exception table (a key's fin: its base form's entry;
     * a base form that is no key has fin -1).  Read-only once built, so Workers share it. */
    int native, stem, drop_stop;
    Interner stops, exc;
    PyObject *score_type, *stats_type;
} EngineObject;

typedef struct { const char *p; Py_ssize_t n; } Span;

typedef struct {
    IVec tok;          /* joined reader */
    IVec stok;         /* sentence reader tokens when they differ from tok (-b) */
    IVec send;         /* sentence ends (into tok or stok) */
    IVec ftok;         /* whole text as one line under a length limit (rougeL) */
    int stok_alias, ftok_alias;
} TextBuf;

typedef struct { double h, rc, pc, sel; } PS;
typedef struct { double p, r, f; } SC;

typedef struct { uint64_t key; int32_t pos, cnt, used; uint32_t stamp; } GEnt;

typedef struct {
    PyObject_HEAD
    EngineObject *eng;
    int busy;
    Interner in;
    Front *front;
    /* per-vocabulary dense arrays: -1 between uses */
    int32_t *slot, *loc;
    Py_ssize_t vcap;
    uint32_t stamp;
    TextBuf *tb; Py_ssize_t ntb, tbcap;
    char *tbuf; Py_ssize_t tbcap_chars;
    char *sbuf; Py_ssize_t sbufcap;     /* the word being stemmed */
    Span *lines; Py_ssize_t nlines, linescap;
    char *flat; Py_ssize_t flatcap;
    IVec pdist;                         /* distinct tokens of the prediction */
    IVec red;                           /* a peer sentence reduced for one WLCS */
    /* union LCS/WLCS work in prediction-local ids: these D-sized arrays stay in L1 */
    int32_t *lslot, *lbm, *lbp; uint32_t *lustamp, *lpstamp;
    Py_ssize_t lslotcap, lbmcap, lbpcap, lustampcap, lpstampcap;
    /* a sentence of <= 64 tokens: its columns per token (through LMASK), zero between uses */
    uint64_t *lmask; Py_ssize_t lmaskcap;
    IVec lps, lrs; Py_ssize_t *lrso; Py_ssize_t lrsocap;
    uint64_t *masks; Py_ssize_t maskcap;
    uint64_t *rows; Py_ssize_t rowcap;  /* LCS rows / WLCS direction bits */
    int32_t *wrow; Py_ssize_t wrowcap;  /* row lists of the one-word back-traces */
    uint64_t *ck; Py_ssize_t ckcap;     /* LCS checkpoints */
    double *wc; Py_ssize_t wccap;       /* WLCS: two value rows */
    int32_t *wr; Py_ssize_t wrcap;      /* WLCS: two run rows */
    int32_t *zeros; Py_ssize_t zeroscap; /* a run row of zeros, never written */
    double *wck; Py_ssize_t wckcap;     /* WLCS checkpoints */
    int32_t *wckr; Py_ssize_t wckrcap;
    unsigned char *mark; Py_ssize_t markcap;
    uint8_t *carry; Py_ssize_t carrycap;
    GEnt *gt; Py_ssize_t gtcap;
    double **f; Py_ssize_t *fn;         /* per rouge type: k ** weight for k < fn */
    PS *stats; Py_ssize_t statscap;
    SC *scores; Py_ssize_t scorescap;
    PS *tmp; Py_ssize_t tmpcap;
    /* prediction-local ids (0..D-1) of the prediction's and each reference's tokens (-1: absent
     * from the prediction, so nothing containing it can match) */
    IVec lp, lr;
    Py_ssize_t *lro; Py_ssize_t lrocap;
    int32_t *dcnt; Py_ssize_t dcap;     /* dense D x D pair counts, zero between uses */
    int32_t *rtab, *pre, *rflag; Py_ssize_t rtabcap, precap, rflagcap;   /* any-gap pairs of a reference */
    int32_t *lcnt; Py_ssize_t lcntcap;  /* joined count of each prediction-local id */
    int32_t *ucnt; Py_ssize_t ucap;     /* dense D unigram counts */
    double *ph, *prc, *ppc; int *pgap; Py_ssize_t phcap;  /* pair-part cache per type */
    /* n-gram levels: ids of the prediction's / references' windows, the cells they were named
     * by, counts, consumed counts to restore, and the id table (zero between uses) */
    int32_t *pid, *rid, *cell, *gcnt, *clog, *ltab;
    Py_ssize_t pidcap, ridcap, cellcap, gcntcap, clogcap, ltabcap;
    double *nh; Py_ssize_t nhcap;       /* hits per n and reference */
    int nlevels;                        /* levels in nh for this example (0: none computed) */
} WorkerObject;

typedef struct { WorkerObject *w; PyThreadState *ts; int nogil; int err; } Ctx;


static PyTypeObject EngineType;
static PyTypeObject WorkerType;

/* ------------------------------------------------------------------------------------------ */
/* tokenization                                                                                 */

static unsigned char LOWER_ALNUM[256];   /* lowercase of [A-Za-z0-9], 0 elsewhere */
static unsigned char PERL_SPACE[256];    /* Perl's \s on bytes: [ \t\n\r\f\x0b] */

static void init_tables(void) {
    for (int c = 0; c < 256; c++) {
        LOWER_ALNUM[c] = 0;
        if (c >= 'a' && c <= 'z') LOWER_ALNUM[c] = (unsigned char)c;
        if (c >= '0' && c <= '9') LOWER_ALNUM[c] = (unsigned char)c;
        if (c >= 'A' && c <= 'Z') LOWER_ALNUM[c] = (unsigned char)(c + 32);
        PERL_SPACE[c] = (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b);
    }
}

static int ensure_vocab(WorkerObject *w) {
    Py_ssize_t need = w->in.nent;
    if (need <= w->vcap) return 0;
    Py_ssize_t c = w->vcap ? w->vcap : 4096;
    while (c < need) c *= 2;
    int32_t **arrs[2] = {&w->slot, &w->loc};
    for (int k = 0; k < 2; k++) {
        int32_t *q = (int32_t *)realloc(*arrs[k], (size_t)c * sizeof(int32_t));
        if (!q) return -1;
        *arrs[k] = q;
        for (Py_ssize_t i = w->vcap; i < c; i++) q[i] = -1;
    }
    w->vcap = c;
    return 0;
}

/* stemmer.stem of the ASCII lowercase word in buf[0:n] (room for n + 1 bytes): the exception
 * table's base form, else the Porter stem, computed in place. */
static const char *morph_stem(const EngineObject *e, char *buf, Py_ssize_t n, Py_ssize_t *len) {
    Py_ssize_t k = lookup(&e->exc, buf, n);
    if (k >= 0 && e->exc.ent[k].fin >= 0) {
        const Entry *base = &e->exc.ent[e->exc.ent[k].fin];
        *len = base->len;
        return e->exc.arena + base->off;
    }
    *len = porter(buf, n);
    return buf;
}

/* make_token_filter's answer for raw token idx, without Python: -1 dropped, else the interned
 * id of the result; -3 when the token is not made of [a-z0-9] bytes only (or out of memory,
 * with c->err set). */
static int32_t native_final(Ctx *c, Py_ssize_t idx) {
    WorkerObject *w = c->w;
    const EngineObject *e = w->eng;
    Py_ssize_t n = w->in.ent[idx].len;
    const unsigned char *t = (const unsigned char *)w->in.arena + w->in.ent[idx].off;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!t[k] || LOWER_ALNUM[t[k]] != t[k]) return -3;
    int32_t fin = (int32_t)idx;
    if (e->drop_stop && lookup(&e->stops, (const char *)t, n) >= 0) fin = -1;
    else if (e->stem && n > 3) {
        /* a copy: interning the result may move the arena */
        if (grow((void **)&w->sbuf, &w->sbufcap, n + 8, 1)) { c->err = ERR_NOMEM; return -3; }
        memcpy(w->sbuf, t, (size_t)n);
        Py_ssize_t len;
        const char *r = morph_stem(e, w->sbuf, n, &len);
        Py_ssize_t k = intern(&w->in, r, len, -2);
        if (k < 0) { c->err = ERR_NOMEM; return -3; }
        fin = (int32_t)k;
    }
    w->in.ent[idx].fin = fin;
    return fin;
}

/* The final id of interned raw token idx, once per token per Worker: the native filter when it
 * applies, else the Python token filter (stop words, stemmer); -1 means dropped. */
static int32_t resolve_final(Ctx *c, Py_ssize_t idx) {
    WorkerObject *w = c->w;
    if (w->eng->native) {
        int32_t fin = native_final(c, idx);
        if (fin != -3 || c->err) return fin;
    }
    if (c->nogil) PyEval_RestoreThread(c->ts);
    int32_t fin = -3;
    PyObject *tok = PyUnicode_DecodeLatin1(w->in.arena + w->in.ent[idx].off, w->in.ent[idx].len, NULL);
    if (tok) {
        PyObject *r = PyObject_CallOneArg(w->eng->filter, tok);
        Py_DECREF(tok);
        if (r) {
            if (r == Py_None) fin = -1;
            else if (PyUnicode_Check(r)) {
                Py_ssize_t n;
                const char *s = PyUnicode_AsUTF8AndSize(r, &n);
                if (s) {
                    Py_ssize_t k = intern(&w->in, s, n, -2);
                    if (k < 0) PyErr_NoMemory();
                    else fin = (int32_t)k;
                }
            } else PyErr_SetString(PyExc_TypeError, "token filter must return str or None");
            Py_DECREF(r);
        }
    }
    if (fin == -3) c->err = ERR_PY;
    else w->in.ent[idx].fin = fin;
    if (c->nogil) c->ts = PyEval_SaveThread();
    return fin;
}

static inline uint32_t front_tag(uint64_t h, Py_ssize_t n) {
    return (uint32_t)((h >> 8) & 0xFFFFFF00u) | (uint32_t)n;
}

/* Append the final id of token s[0:n] (h its hash; head: its first 8 bytes, head2: the next 8
 * when n <= 16, both zero-padded) to out, which has room. */
static inline int emit_h(Ctx *c, const char *s, Py_ssize_t n, uint64_t h, uint64_t head, uint64_t head2,
                         IVec *out) {
    WorkerObject *w = c->w;
    Front *fe = NULL;
    uint32_t tag = 0;
    if (n <= 16 && w->front) {
        fe = &w->front[h >> (64 - FRONT_BITS)];
        tag = front_tag(h, n);
        if (fe->tag == tag && fe->head == head && fe->head2 == head2) {
            int32_t fin = fe->fin;
            out->v[out->n] = fin;
            out->n += fin >= 0;
            return 0;
        }
    }
    Py_ssize_t idx = intern_h(&w->in, s, n, w->eng->filter ? -2 : -4, h, head);
    if (idx < 0) { c->err = ERR_NOMEM; return -1; }
    int32_t fin = w->in.ent[idx].fin;
    if (fin == -2) {
        fin = resolve_final(c, idx);
        if (c->err) return -1;
    }
    if (fe) { fe->tag = tag; fe->head = head; fe->head2 = head2; fe->fin = fin; }
    if (fin >= 0) out->v[out->n++] = fin;
    return 0;
}

static inline int emit(Ctx *c, const char *s, Py_ssize_t n, uint64_t head, IVec *out) {
    return emit_h(c, s, n, hash_tok(s, n, head), head, n > 8 && n <= 16 ? head_of(s + 8, n - 8) : 0, out);
}

/* Room for the tokens of n more bytes: at most one per two bytes, plus one. */
static inline int reserve_tokens(Ctx *c, IVec *out, Py_ssize_t n) {
    if (grow((void **)&out->v, &out->cap, out->n + n / 2 + 2, sizeof(int32_t))) { c->err = ERR_NOMEM; return -1; }
    return 0;
}

static int ensure_tbuf(Ctx *c, Py_ssize_t n) {
    if (grow((void **)&c->w->tbuf, &c->w->tbcap_chars, n + 8, 1)) { c->err = ERR_NOMEM; return -1; }
    return 0;
}

static inline uint64_t load64(const unsigned char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* LOWER_ALNUM of eight bytes at once: per byte, range tests on its low seven bits (each
 * subtraction stays inside its byte: x | 0x80 >= 0x80 > lo, and (hi | 0x80) - x >= 1). */
static inline uint64_t lower_alnum8(uint64_t x) {
    const uint64_t L01 = 0x0101010101010101ULL, H80 = 0x8080808080808080ULL;
    uint64_t y = x & ~H80, yh = y | H80;
#define IN_RANGE(lo, hi) ((yh - (lo) * L01) & (((hi) * L01 | H80) - y))
    uint64_t upper = IN_RANGE(0x41, 0x5A);
    uint64_t alnum = (IN_RANGE(0x30, 0x39) | upper | IN_RANGE(0x61, 0x7A)) & ~x & H80;
#undef IN_RANGE
    return (x | (upper & H80) >> 2) & ((alnum >> 7) * 0xFF);
}

/* ROUGE-1.5.5 tokens of a byte span: maximal [A-Za-z0-9] runs, ASCII-lowercased (every other
 * byte, '-' and each byte of a UTF-8 sequence included, is a separator: spec §4.1). */
static int tok_perl(Ctx *c, const char *p, Py_ssize_t n, IVec *out) {
    WorkerObject *w = c->w;
    const unsigned char *u = (const unsigned char *)p;
    if (ensure_tbuf(c, n + 16) || reserve_tokens(c, out, n)) return -1;
    /* the span lowercased, separators as 0 bytes, then 16 zero bytes */
    unsigned char *b = (unsigned char *)w->tbuf;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (Py_ssize_t k = 0; k < n; k++) b[k] = LOWER_ALNUM[u[k]];
    memset(b + n, 0, 16);
    Py_ssize_t i = 0;
    while (i < n) {
        if (!b[i]) { i++; continue; }
        Py_ssize_t s = i;
        while (b[i]) i++;
        if (emit(c, (const char *)b + s, i - s, head_of((const char *)b + s, i - s), out)) return -1;
    }
    return 0;
#else
    Py_ssize_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t x = lower_alnum8(load64(u + k));
        memcpy(b + k, &x, 8);
    }
    memset(b + k, 0, 24);
    for (; k < n; k++) b[k] = LOWER_ALNUM[u[k]];
    /* Pass 1 finds the tokens (runs of nonzero bytes, eight bytes at a time: every byte is
     * < 0x80, so byte + 0x7F carries into bit 7 exactly when the byte is not 0), hashes them and
     * prefetches their front slots; pass 2 looks them up, the cache misses overlapped. */
    enum { BATCH = 32 };
    const uint64_t L7F = 0x7F7F7F7F7F7F7F7FULL, H80 = 0x8080808080808080ULL;
    Py_ssize_t i = 0;
    while (i < n) {
        struct { uint64_t h, head, head2; Py_ssize_t s, len; } t[BATCH];
        int nt = 0;
        while (i < n && nt < BATCH) {
            uint64_t nz = (load64(b + i) + L7F) & H80;
            if (!nz) { i += 8; continue; }
            i += ctz64(nz) >> 3;
            Py_ssize_t s = i;
            for (;;) {
                uint64_t z = ~(load64(b + i) + L7F) & H80;
                if (z) { i += ctz64(z) >> 3; break; }
                i += 8;
            }
            Py_ssize_t len = i - s;
            uint64_t head = load64(b + s), head2 = 0;
            if (len < 8) head &= (1ULL << (8 * len)) - 1;
            else if (len <= 16) {
                head2 = load64(b + s + 8);
                if (len < 16) head2 &= (1ULL << (8 * (len - 8))) - 1;
            }
            uint64_t h = hash_tok((const char *)b + s, len, head);
#if defined(__GNUC__) || defined(__clang__)
            if (w->front) __builtin_prefetch(&w->front[h >> (64 - FRONT_BITS)]);
            /* and the interner's slot, for the tokens the front cache misses */
            if (w->in.tabcap) __builtin_prefetch(&w->in.tab[h & (uint64_t)(w->in.tabcap - 1)]);
#endif
            t[nt].h = h; t[nt].head = head; t[nt].head2 = head2; t[nt].s = s; t[nt].len = len;
            nt++;
        }
        for (int q = 0; q < nt; q++)
            if (emit_h(c, (const char *)b + t[q].s, t[q].len, t[q].h, t[q].head, t[q].head2, out)) return -1;
    }
    return 0;
#endif
}

/* rouge_score tokens of UTF-8 text: str.lower() then [^a-z0-9]+ -> space.  Only two non-ASCII
 * characters lowercase to ASCII letters: U+0130 -> "i" + U+0307 (which then separates) and
 * the Kelvin sign U+212A -> "k". */
static int tok_rs(Ctx *c, const char *p, Py_ssize_t n, IVec *out) {
    const unsigned char *u = (const unsigned char *)p;
    if (ensure_tbuf(c, n) || reserve_tokens(c, out, n)) return -1;
    char *b = c->w->tbuf;
    Py_ssize_t i = 0, len = 0;
    uint64_t head = 0;
#define RS_PUT(ch) { if (len < 8) head |= (uint64_t)(unsigned char)(ch) << (8 * len); b[len++] = (char)(ch); }
    while (i < n) {
        unsigned char ch = u[i];
        if (LOWER_ALNUM[ch]) { RS_PUT(LOWER_ALNUM[ch]); i++; continue; }
        if (ch == 0xC4 && i + 1 < n && u[i + 1] == 0xB0) {
            RS_PUT('i');
            if (emit(c, b, len, head, out)) return -1;
            len = 0;
            head = 0;
            i += 2;
            continue;
        }
        if (ch == 0xE2 && i + 2 < n && u[i + 1] == 0x84 && u[i + 2] == 0xAA) {
            RS_PUT('k');
            i += 3;
            continue;
        }
        if (len) {
            if (emit(c, b, len, head, out)) return -1;
            len = 0;
            head = 0;
        }
        i++;
    }
#undef RS_PUT
    if (len && emit(c, b, len, head, out)) return -1;
    return 0;
}

/* Number of Perl words of a sentence (split /\s+/: a leading empty field counts when real
 * fields follow, trailing empty fields do not) and the byte end of its first q words. */
static Py_ssize_t perl_words(const char *p, Py_ssize_t n, Py_ssize_t q, Py_ssize_t *end) {
    const unsigned char *u = (const unsigned char *)p;
    Py_ssize_t i = 0, real = 0;
    int lead = n > 0 && PERL_SPACE[u[0]];
    Py_ssize_t want = q - lead;   /* real fields to take */
    if (end) *end = 0;
    if (end && want <= 0) return 0;
    while (i < n) {
        while (i < n && PERL_SPACE[u[i]]) i++;
        if (i == n) break;
        while (i < n && !PERL_SPACE[u[i]]) i++;
        real++;
        if (end && real == want) { *end = i; return q; }
    }
    if (end) *end = n;
    return real + (real > 0 ? lead : 0);
}

static int push_line(Ctx *c, const char *p, Py_ssize_t n) {
    WorkerObject *w = c->w;
    if (w->nlines == w->linescap &&
        grow((void **)&w->lines, &w->linescap, w->nlines + 1, sizeof(Span))) { c->err = ERR_NOMEM; return -1; }
    w->lines[w->nlines].p = p;
    w->lines[w->nlines].n = n;
    w->nlines++;
    return 0;
}

static int split_lines(Ctx *c, const char *p, Py_ssize_t n) {
    const char *end = p + n;
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        if (stop > p && push_line(c, p, stop - p)) return -1;
        p = stop + 1;
    }
    return 0;
}

/* The joined reader under -l/-b (spec §4.2) over w->lines; sentence ends go to send when given
 * (under -l the sentence reader keeps exactly these sentences). */
static int joined_limited(Ctx *c, IVec *out, IVec *send) {
    WorkerObject *w = c->w;
    EngineObject *e = w->eng;
    Py_ssize_t used = 0;
    for (Py_ssize_t k = 0; k < w->nlines; k++) {
        const char *p = w->lines[k].p;
        Py_ssize_t n = w->lines[k].n, cut = n;
        int stop = 0;
        if (e->word_limit) {
            Py_ssize_t size = perl_words(p, n, 0, NULL);
            if (used + size < e->word_limit) used += size;
            else { perl_words(p, n, e->word_limit - used, &cut); stop = 1; }
        } else {
            if (used + n < e->byte_limit) used += n;
            else { cut = e->byte_limit - used; stop = 1; }
        }
        if (tok_perl(c, p, cut, out)) return -1;
        if (send && ivec_push(send, (int32_t)out->n)) { c->err = ERR_NOMEM; return -1; }
        if (stop) break;
    }
    return 0;
}

typedef struct { Span whole; Py_ssize_t first, count; int is_list; } Src;

static int collect_lines(Ctx *c, const Src *s, const Span *items, int split_items) {
    c->w->nlines = 0;
    if (!s->is_list) return split_lines(c, s->whole.p, s->whole.n);
    for (Py_ssize_t k = 0; k < s->count; k++) {
        const Span *it = &items[s->first + k];
        if (split_items) { if (split_lines(c, it->p, it->n)) return -1; }
        else if (it->n > 0 && push_line(c, it->p, it->n)) return -1;
    }
    return 0;
}

static int read_text(Ctx *c, const Src *s, const Span *items, TextBuf *tb) {
    WorkerObject *w = c->w;
    EngineObject *e = w->eng;
    tb->tok.n = tb->stok.n = tb->send.n = tb->ftok.n = 0;
    tb->stok_alias = tb->ftok_alias = 1;
    int limited = e->word_limit || e->byte_limit;
    if (e->flavor == FLAVOR_RS) {
        if (collect_lines(c, s, items, 1)) return -1;
        for (Py_ssize_t k = 0; k < w->nlines; k++) {
            if (tok_rs(c, w->lines[k].p, w->lines[k].n, &tb->tok)) return -1;
            if (e->needs_sentences && ivec_push(&tb->send, (int32_t)tb->tok.n)) goto nomem;
        }
        return 0;
    }
    if (collect_lines(c, s, items, 0)) return -1;
    if (!limited) {
        for (Py_ssize_t k = 0; k < w->nlines; k++) {
            if (tok_perl(c, w->lines[k].p, w->lines[k].n, &tb->tok)) return -1;
            if (e->needs_sentences && ivec_push(&tb->send, (int32_t)tb->tok.n)) goto nomem;
        }
        return 0;
    }
    if (e->word_limit) {
        if (joined_limited(c, &tb->tok, e->needs_sentences ? &tb->send : NULL)) return -1;
    } else {
        if (joined_limited(c, &tb->tok, NULL)) return -1;
        if (e->needs_sentences) {
            /* the Perl's sentence reader never advances its byte count under -b (quirk Q3) */
            tb->stok_alias = 0;
            for (Py_ssize_t k = 0; k < w->nlines; k++) {
                Py_ssize_t n = w->lines[k].n;
                int stop = n >= e->byte_limit;
                if (tok_perl(c, w->lines[k].p, stop ? e->byte_limit : n, &tb->stok)) return -1;
                if (ivec_push(&tb->send, (int32_t)tb->stok.n)) goto nomem;
                if (stop) break;
            }
        }
    }
    if (e->needs_flat) {
        /* rougeL reads the whole text as one line: "\n" -> " " for a string, the sentences of a
         * list joined by spaces (which may still contain "\n") */
        tb->ftok_alias = 0;
        Py_ssize_t total = 0;
        if (!s->is_list) total = s->whole.n;
        else for (Py_ssize_t k = 0; k < s->count; k++) total += items[s->first + k].n + 1;
        if (grow((void **)&w->flat, &w->flatcap, total + 1, 1)) goto nomem;
        Py_ssize_t len = 0;
        if (!s->is_list) {
            for (Py_ssize_t i = 0; i < s->whole.n; i++) w->flat[i] = s->whole.p[i] == '\n' ? ' ' : s->whole.p[i];
            len = s->whole.n;
        } else {
            for (Py_ssize_t k = 0; k < s->count; k++) {
                if (k) w->flat[len++] = ' ';
                memcpy(w->flat + len, items[s->first + k].p, (size_t)items[s->first + k].n);
                len += items[s->first + k].n;
            }
        }
        w->nlines = 0;
        if (split_lines(c, w->flat, len)) return -1;
        if (joined_limited(c, &tb->ftok, NULL)) return -1;
    }
    return 0;
nomem:
    c->err = ERR_NOMEM;
    return -1;
}

#define SENT_TOKENS(tb) ((tb)->stok_alias ? (tb)->tok.v : (tb)->stok.v)
#define SENT_NTOK(tb) ((tb)->stok_alias ? (tb)->tok.n : (tb)->stok.n)
#define FLAT(tb) ((tb)->ftok_alias ? &(tb)->tok : &(tb)->ftok)
/* sentence-reader tokens in prediction-local ids */
#define PRED_LOCAL_SENT(w, tb) ((tb)->stok_alias ? (w)->lp.v : (w)->lps.v)
#define REF_LOCAL_SENT(w, tb, r) ((tb)->stok_alias ? (w)->lr.v + (w)->lro[r] : (w)->lrs.v + (w)->lrso[r])

/* ------------------------------------------------------------------------------------------ */
/* n-grams and skip-bigrams: clipped matches via the prediction's table                        */

static inline uint64_t mix64(uint64_t k) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL; k ^= k >> 33;
    return k;
}

static inline uint64_t ngram_key(const int32_t *x, int n) {
    if (n == 2) return ((uint64_t)(uint32_t)x[0] << 32) | (uint32_t)x[1];
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int k = 0; k < n; k++) h = mix64(h ^ (uint32_t)x[k]) + (uint64_t)k;
    return h;
}

static int gt_init(WorkerObject *w, Py_ssize_t count, uint64_t *mask) {
    Py_ssize_t cap = 16;
    while (cap < 2 * count) cap *= 2;
    if (grow((void **)&w->gt, &w->gtcap, cap, sizeof(GEnt))) return -1;
    for (Py_ssize_t i = 0; i < cap; i++) w->gt[i].pos = -1;
    *mask = (uint64_t)cap - 1;
    return 0;
}

/* Find (or, with insert, add) the entry of a key; n > 2 compares tokens, since only n <= 2
 * keys are exact. */
static inline GEnt *gt_find(WorkerObject *w, uint64_t mask, uint64_t key, const int32_t *x, int n,
                           const int32_t *base, int insert, int32_t pos) {
    uint64_t s = ((key * 0x9E3779B97F4A7C15ULL) >> 29) & mask;
    for (;;) {
        GEnt *g = &w->gt[s];
        if (g->pos < 0) {
            if (!insert) return NULL;
            g->key = key; g->pos = pos; g->cnt = 0; g->used = 0; g->stamp = 0;
            return g;
        }
        if (g->key == key && (n <= 2 || memcmp(base + g->pos, x, (size_t)n * sizeof(int32_t)) == 0))
            return g;
        s = (s + 1) & mask;
    }
}

static inline void gt_hit(GEnt *g, uint32_t stamp, double *hits) {
    if (g->stamp != stamp) { g->stamp = stamp; g->used = 0; }
    if (++g->used <= g->cnt) *hits += 1.0;
}

/* ------------------------------------------------------------------------------------------ */
/* LCS                                                                                           */

static inline void lcs_step(const uint64_t *prev, uint64_t *cur, const uint64_t *M, Py_ssize_t words) {
    if (!M) { memcpy(cur, prev, (size_t)words * 8); return; }
    uint64_t carry = 0;
    for (Py_ssize_t k = 0; k < words; k++) {
        uint64_t v = prev[k], mm = M[k], u = v & mm;
        uint64_t s = v + u, c1 = s < v, s2 = s + carry, c2 = s2 < s;
        carry = c1 | c2;
        cur[k] = s2 | (v & ~mm);
    }
}

/* LCS length (Hyyrö's bit-parallel algorithm), column blocks of 64 outermost so the memory is
 * O(m + vocabulary) whatever the lengths. */
static Py_ssize_t lcs_length(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n, int *err) {
    if (m == 0 || n == 0) return 0;
    if (grow((void **)&w->carry, &w->carrycap, m, 1) || grow((void **)&w->masks, &w->maskcap, 64, 8)) {
        *err = ERR_NOMEM;
        return 0;
    }
    memset(w->carry, 0, (size_t)m);
    Py_ssize_t total = 0;
    int32_t *slot = w->slot;
    uint64_t *masks = w->masks;
    for (Py_ssize_t j0 = 0; j0 < n; j0 += 64) {
        Py_ssize_t j1 = j0 + 64 < n ? j0 + 64 : n;
        int nd = 0;
        for (Py_ssize_t j = j0; j < j1; j++) {
            int32_t t = b[j];
            if (slot[t] < 0) { slot[t] = nd; masks[nd++] = 0; }
            masks[slot[t]] |= 1ULL << (j - j0);
        }
        uint64_t V = ~0ULL;
        uint8_t *carry = w->carry;
        for (Py_ssize_t i = 0; i < m; i++) {
            int32_t s = slot[a[i]];
            if (s < 0 && !carry[i]) continue;
            uint64_t M = s >= 0 ? masks[s] : 0, U = V & M;
            uint64_t x = V + U, c1 = x < V, x2 = x + carry[i], c2 = x2 < x;
            carry[i] = (uint8_t)(c1 | c2);
            V = x2 | (V & ~M);
        }
        uint64_t valid = (j1 - j0 == 64) ? ~0ULL : ((1ULL << (j1 - j0)) - 1);
        total += popc64(~V & valid);
        for (Py_ssize_t j = j0; j < j1; j++) slot[b[j]] = -1;
    }
    return total;
}

/* Set slot[t] -> mask index for the tokens of b (words 64-bit words per mask); returns the
 * number of distinct tokens or -1. */
static Py_ssize_t set_masks(WorkerObject *w, const int32_t *b, Py_ssize_t n, Py_ssize_t words) {
    Py_ssize_t nd = 0;
    if (grow((void **)&w->masks, &w->maskcap, (n + 1) * words, 8)) return -1;
    for (Py_ssize_t j = 0; j < n; j++) {
        int32_t t = b[j];
        if (t < 0) continue;   /* a placeholder column never matches */
        if (w->lslot[t] < 0) {
            w->lslot[t] = (int32_t)nd;
            memset(w->masks + nd * words, 0, (size_t)words * 8);
            nd++;
        }
        w->masks[w->lslot[t] * words + (j >> 6)] |= 1ULL << (j & 63);
    }
    return nd;
}

static void clear_slots(WorkerObject *w, const int32_t *b, Py_ssize_t n) {
    for (Py_ssize_t j = 0; j < n; j++) if (b[j] >= 0) w->lslot[b[j]] = -1;
}

static inline const uint64_t *mask_of(WorkerObject *w, int32_t t, Py_ssize_t words) {
    if (t < 0) return NULL;
    int32_t s = w->lslot[t];
    return s < 0 ? NULL : w->masks + (Py_ssize_t)s * words;
}

/* c[i][j] from row i's bit vector: the zero bits among the first j columns. */
static inline Py_ssize_t cval(const uint64_t *row, Py_ssize_t j) {
    Py_ssize_t ones = 0, full = j >> 6;
    for (Py_ssize_t k = 0; k < full; k++) ones += popc64(row[k]);
    if (j & 63) ones += popc64(row[full] & ((1ULL << (j & 63)) - 1));
    return j - ones;
}

/* c[i][j] - c[i][j-1] */
static inline Py_ssize_t dbit(const uint64_t *row, Py_ssize_t j) {
    return 1 - (Py_ssize_t)((row[(j - 1) >> 6] >> ((j - 1) & 63)) & 1);
}

typedef struct {
    WorkerObject *w; const int32_t *a; Py_ssize_t m, words, K, lo, hi;
} LcsRows;

static void lcs_load(LcsRows *r, Py_ssize_t lo) {
    WorkerObject *w = r->w;
    Py_ssize_t words = r->words;
    r->lo = lo;
    r->hi = lo + r->K < r->m ? lo + r->K : r->m;
    memcpy(w->rows, w->ck + (lo / r->K) * words, (size_t)words * 8);
    for (Py_ssize_t i = lo + 1; i <= r->hi; i++)
        lcs_step(w->rows + (i - 1 - lo) * words, w->rows + (i - lo) * words, mask_of(w, r->a[i - 1], words), words);
}

#define LROW(r, i) ((r)->w->rows + ((i) - (r)->lo) * (r)->words)

/* Mark the model positions on the LCS that ROUGE-1.5.5.pl's back-trace picks (spec §7): from the
 * ends, match equal tokens, else go up when c[i-1][j] >= c[i][j-1].  Rows come from the bit-
 * parallel table; past TABLE_WORDS_LIMIT only every K-th row is kept and blocks are recomputed.
 * The masks of b must be set.  Returns the LCS length or -1. */
static Py_ssize_t lcs_marks(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n,
                            unsigned char *mark) {
    if (m == 0 || n == 0) return 0;
    Py_ssize_t words = (n + 63) >> 6;
    LcsRows r = {w, a, m, words, m, 0, 0};
    if ((m + 1) * words > TABLE_WORDS_LIMIT) {
        r.K = TABLE_WORDS_LIMIT / words - 1;
        if (r.K < 1) r.K = 1;
    }
    Py_ssize_t nck = m / r.K + 1;
    if (grow((void **)&w->rows, &w->rowcap, (r.K + 1) * words, 8) ||
        grow((void **)&w->ck, &w->ckcap, nck * words, 8)) return -1;
    for (Py_ssize_t k = 0; k < words; k++) w->ck[k] = ~0ULL;
    if (r.K < m) {
        /* forward pass keeping the checkpoints, two rows in the table as scratch */
        uint64_t *p0 = w->rows, *p1 = w->rows + words;
        memcpy(p0, w->ck, (size_t)words * 8);
        for (Py_ssize_t i = 1; i <= m; i++) {
            lcs_step(p0, p1, mask_of(w, a[i - 1], words), words);
            uint64_t *t = p0; p0 = p1; p1 = t;
            if (i % r.K == 0 && i / r.K < nck) memcpy(w->ck + (i / r.K) * words, p0, (size_t)words * 8);
        }
    }
    lcs_load(&r, ((m - 1) / r.K) * r.K);
    Py_ssize_t i = m, j = n;
    Py_ssize_t av = cval(LROW(&r, i), j), length = av;
    if (av == 0) return 0;
    Py_ssize_t bv = cval(LROW(&r, i - 1), j);
    while (i > 0 && j > 0 && av > 0) {
        if (a[i - 1] == b[j - 1]) {
            mark[i - 1] = 1;
            av = bv - dbit(LROW(&r, i - 1), j);
            i--; j--;
            if (i == 0 || j == 0 || av == 0) break;
            if (i - 1 < r.lo) lcs_load(&r, r.lo - r.K);
            bv = cval(LROW(&r, i - 1), j);
        } else if (bv >= av - dbit(LROW(&r, i), j)) {
            av = bv;
            i--;
            if (i == 0 || av == 0) break;
            if (i - 1 < r.lo) lcs_load(&r, r.lo - r.K);
            bv = cval(LROW(&r, i - 1), j);
        } else {
            av -= dbit(LROW(&r, i), j);
            bv -= dbit(LROW(&r, i - 1), j);
            j--;
        }
    }
    return length;
}

/* ------------------------------------------------------------------------------------------ */
/* WLCS                                                                                          */

static int ensure_f(WorkerObject *w, int ti, double weight, Py_ssize_t size) {
    if (w->fn[ti] > size) return 0;
    Py_ssize_t c = w->fn[ti] ? w->fn[ti] : 64;
    while (c <= size) c *= 2;
    double *f = (double *)realloc(w->f[ti], (size_t)c * sizeof(double));
    if (!f) return -1;
    for (Py_ssize_t k = w->fn[ti]; k < c; k++) f[k] = pow((double)k, weight);
    w->f[ti] = f;
    w->fn[ti] = c;
    return 0;
}

/* One WLCS row (spec §8): a match always takes the diagonal, (c + f[k+1]) - f[k] in the
 * Python's order; otherwise up when up >= left.  Direction bits (1 = up) go to dir if given. */
static inline void wlcs_row(int32_t t, const int32_t *b, Py_ssize_t n, const double *f,
                            const double *pc, const int32_t *pr, double *cc, int32_t *cr, uint64_t *dir) {
    cc[0] = 0.0;
    cr[0] = 0;
    for (Py_ssize_t j = 1; j <= n; j++) {
        if (t == b[j - 1]) {
            int32_t k = pr[j - 1];
            cc[j] = pc[j - 1] + f[k + 1] - f[k];
            cr[j] = k + 1;
        } else {
            double up = pc[j], left = cc[j - 1];
            cr[j] = 0;
            if (up >= left) {
                cc[j] = up;
                if (dir) dir[j >> 6] |= 1ULL << (j & 63);
            } else cc[j] = left;
        }
    }
}

typedef struct {
    WorkerObject *w; const int32_t *a; Py_ssize_t m; const int32_t *b; Py_ssize_t n, words, K, lo, hi;
    const double *f; Py_ssize_t mwords;
} WRows;

/* wlcs_row for a row whose token occurs in b at the set bits of mask (bit j-1 <-> column j;
 * NULL: nowhere): the cells between matches are running maxima, done without branches. */
static inline int wlcs_row_masked(const uint64_t *mask, Py_ssize_t n, const double *f, const double *pc,
                                  const int32_t *pr, double *cc, int32_t *cr, uint64_t *dir) {
    double left = 0.0;
    int monotone = 1;
    cc[0] = 0.0;
    cr[0] = 0;
    Py_ssize_t j = 1, mwords = (n + 63) >> 6;
    uint64_t acc = 0;   /* direction bits of the current 64-column word */
    /* "up" when up >= left; the value is then max(up, left) either way (no NaN, no -0.0) */
#define WLCS_MISMATCH_CELL                          \
    {                                               \
        double up = pc[j];                          \
        acc |= (uint64_t)(up >= left) << (j & 63);  \
        left = up > left ? up : left;               \
        cc[j] = left;                               \
        cr[j] = 0;                                  \
        if ((j & 63) == 63) { dir[j >> 6] |= acc; acc = 0; } \
    }
    for (Py_ssize_t wd = 0; mask && wd < mwords; wd++) {
        uint64_t bits = mask[wd];
        while (bits) {
            Py_ssize_t m = (wd << 6) + ctz64(bits) + 1;
            bits &= bits - 1;
            for (; j < m; j++) WLCS_MISMATCH_CELL
            int32_t k = pr[m - 1];
            double v = pc[m - 1] + f[k + 1] - f[k];
            monotone &= v >= left;
            left = v;
            cc[m] = left;
            cr[m] = k + 1;
            if ((m & 63) == 63) { dir[m >> 6] |= acc; acc = 0; }
            j = m + 1;
        }
    }
    for (; j <= n; j++) WLCS_MISMATCH_CELL
#undef WLCS_MISMATCH_CELL
    if (acc) dir[n >> 6] |= acc;
    return monotone;
}

static void wlcs_load(WRows *r, Py_ssize_t lo) {
    WorkerObject *w = r->w;
    Py_ssize_t n = r->n, words = r->words;
    r->lo = lo;
    r->hi = lo + r->K < r->m ? lo + r->K : r->m;
    double *cbuf[2] = {w->wc, w->wc + (n + 1)};
    int32_t *rbuf[2] = {w->wr, w->wr + (n + 1)};
    Py_ssize_t ci = lo / r->K;
    memcpy(cbuf[0], w->wck + ci * (n + 1), (size_t)(n + 1) * sizeof(double));
    memcpy(rbuf[0], w->wckr + ci * (n + 1), (size_t)(n + 1) * sizeof(int32_t));
    double *pc = cbuf[0];
    int32_t *pr = rbuf[0];
    memset(w->rows, 0, (size_t)(r->hi - lo) * words * 8);
    /* the checkpoint row's shape is unknown: only rows computed here vouch for monotony */
    int monotone = 0;
    for (Py_ssize_t i = lo + 1; i <= r->hi; i++) {
        uint64_t *dir = w->rows + (i - lo - 1) * words;
        int32_t sl = r->a[i - 1] < 0 ? -1 : w->lslot[r->a[i - 1]];
        if (sl < 0 && monotone) {
            /* no match in this row and a nondecreasing row above: the running maxima are that
             * row itself, every step goes up, and the runs restart at 0 */
            memset(dir, 0xFF, (size_t)words * 8);
            pr = w->zeros;
            continue;
        }
        double *cc = pc == cbuf[0] ? cbuf[1] : cbuf[0];
        int32_t *cr = pr == rbuf[0] ? rbuf[1] : rbuf[0];
        monotone = wlcs_row_masked(sl < 0 ? NULL : w->masks + (Py_ssize_t)sl * r->mwords, n, r->f,
                                   pc, pr, cc, cr, dir);
        pc = cc;
        pr = cr;
    }
}

/* Model positions on the WLCS the Perl's back-trace picks; same block scheme as lcs_marks. */
static int wlcs_marks(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n,
                      const double *f, unsigned char *mark) {
    if (m == 0 || n == 0) return 0;
    Py_ssize_t words = (n + 64) >> 6;   /* bit j for column j = 1..n */
    WRows r = {w, a, m, b, n, words, m, 0, 0, f, (n + 63) >> 6};
    if (m * words > TABLE_WORDS_LIMIT) {
        r.K = TABLE_WORDS_LIMIT / words;
        if (r.K < 1) r.K = 1;
    }
    Py_ssize_t nck = m / r.K + 1;
    if (grow((void **)&w->rows, &w->rowcap, r.K * words, 8) ||
        grow((void **)&w->wc, &w->wccap, 2 * (n + 1), sizeof(double)) ||
        grow((void **)&w->wr, &w->wrcap, 2 * (n + 1), sizeof(int32_t)) ||
        grow_zero((void **)&w->zeros, &w->zeroscap, n + 1, sizeof(int32_t)) ||
        grow((void **)&w->wck, &w->wckcap, nck * (n + 1), sizeof(double)) ||
        grow((void **)&w->wckr, &w->wckrcap, nck * (n + 1), sizeof(int32_t))) return -1;
    memset(w->wck, 0, (size_t)(n + 1) * sizeof(double));
    memset(w->wckr, 0, (size_t)(n + 1) * sizeof(int32_t));
    if (r.K < m) {
        double *pc = w->wc, *cc = w->wc + (n + 1);
        int32_t *pr = w->wr, *cr = w->wr + (n + 1);
        memcpy(pc, w->wck, (size_t)(n + 1) * sizeof(double));
        memcpy(pr, w->wckr, (size_t)(n + 1) * sizeof(int32_t));
        for (Py_ssize_t i = 1; i <= m; i++) {
            wlcs_row(a[i - 1], b, n, f, pc, pr, cc, cr, NULL);
            double *t = pc; pc = cc; cc = t;
            int32_t *q = pr; pr = cr; cr = q;
            if (i % r.K == 0 && i / r.K < nck) {
                memcpy(w->wck + (i / r.K) * (n + 1), pc, (size_t)(n + 1) * sizeof(double));
                memcpy(w->wckr + (i / r.K) * (n + 1), pr, (size_t)(n + 1) * sizeof(int32_t));
            }
        }
    }
    wlcs_load(&r, ((m - 1) / r.K) * r.K);
    Py_ssize_t i = m, j = n;
    while (i > 0 && j > 0) {
        if (i <= r.lo) wlcs_load(&r, r.lo - r.K);
        if (a[i - 1] == b[j - 1]) {
            mark[i - 1] = 1;
            i--; j--;
        } else if ((w->rows[(i - r.lo - 1) * words + (j >> 6)] >> (j & 63)) & 1) {
            i--;
        } else {
            j--;
        }
    }
    return 0;
}

/* WLCS(X, Y) of the papers (the final cell), in two rows of memory. */
static int wlcs_value(WorkerObject *w, const int32_t *a, Py_ssize_t m, const int32_t *b, Py_ssize_t n,
                      const double *f, double *out) {
    *out = 0.0;
    if (m == 0 || n == 0) return 0;
    if (grow((void **)&w->wc, &w->wccap, 2 * (n + 1), sizeof(double)) ||
        grow((void **)&w->wr, &w->wrcap, 2 * (n + 1), sizeof(int32_t))) return -1;
    double *pc = w->wc, *cc = w->wc + (n + 1);
    int32_t *pr = w->wr, *cr = w->wr + (n + 1);
    memset(pc, 0, (size_t)(n + 1) * sizeof(double));
    memset(pr, 0, (size_t)(n + 1) * sizeof(int32_t));
    for (Py_ssize_t i = 1; i <= m; i++) {
        wlcs_row(a[i - 1], b, n, f, pc, pr, cc, cr, NULL);
        double *t = pc; pc = cc; cc = t;
        int32_t *q = pr; pr = cr; cr = q;
    }
    *out = pc[n];
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* union back-traces against a peer sentence of at most 64 tokens (one mask word)               */

static inline int clz64(uint64_t x) {
#if defined(_MSC_VER)
    unsigned long k;
    _BitScanReverse64(&k, x);
    return 63 - (int)k;
#else
    return __builtin_clzll(x);
#endif
}

/* lmask shifted by one: id -1 (a token the prediction lacks) reads the always-zero first word, so
 * row loops look up masks without a branch. */
#define LMASK(w) ((w)->lmask + 1)

/* Columns 0..j-1 (j <= 64). */
static inline uint64_t low_bits(Py_ssize_t j) {
    return j >= 64 ? ~0ULL : (1ULL << j) - 1;
}

/* lcs_marks when the peer sentence has n <= 64 tokens, lmask[t] holding its columns of token t.
 * With V_i the bit-parallel rows, D_i = (~V_{i-1} & V_i) - (V_{i-1} & ~V_i) has bit j-1 set
 * exactly when c[i][j] > c[i-1][j] (each row moves one zero of V per run of ones that holds a
 * match, from the run's end down to its lowest match; the difference of the two bit sets fills
 * each such span, and for the top run, whose end is past the word, the borrow fills up to
 * bit 63).  At a mismatch c[i][j] = max(c[i-1][j], c[i][j-1]), so the Perl's "up when
 * c[i-1][j] >= c[i][j-1]" is "up unless bit j-1 of D_i", and the walk left along a row ends at
 * the highest lower column that matches or has a clear bit: one step per row. */
static void lcs_marks_word(WorkerObject *w, const int32_t *a, Py_ssize_t m, Py_ssize_t n, unsigned char *mark) {
    const uint64_t *lmask = LMASK(w);
    uint64_t *dv = w->rows, V = ~0ULL;
    int32_t *rowi = w->wrow;
    Py_ssize_t nm = 0;
    /* a row without matches leaves V as it is, and the walk goes straight up through it (D = 0):
     * only the rows with matches are kept */
    for (Py_ssize_t i = 0; i < m; i++) {
        uint64_t M = lmask[a[i]];
        uint64_t Vn = (V + (V & M)) | (V & ~M);
        dv[nm] = (~V & Vn) - (V & ~Vn);
        rowi[nm] = (int32_t)i;
        nm += M != 0;
        V = Vn;
    }
    Py_ssize_t j = n;
    for (Py_ssize_t q = nm; q > 0 && j > 0; q--) {
        Py_ssize_t i = rowi[q - 1];
        uint64_t M = lmask[a[i]];
        uint64_t S = (M | ~dv[q - 1]) & low_bits(j);
        if (!S) break;   /* left to column 0 */
        int p = 63 - clz64(S);
        unsigned char diag = (unsigned char)((M >> p) & 1);
        mark[i] |= diag;
        j = p + 1 - diag;
    }
}

/* A WLCS row without matches, in place over the row above: running maxima, runs of 0. */
static inline uint64_t wlcs_row_plain(double *c, Py_ssize_t n) {
    uint64_t d = 0;
    double left = 0.0;
    for (Py_ssize_t j = 1; j <= n; j++) {
        double up = c[j];
        d |= (uint64_t)(up >= left) << j;
        left = up > left ? up : left;
        c[j] = left;
    }
    return d;
}

/* wlcs_marks when the peer sentence has n <= 63 tokens (direction bits 1..n in one word), its
 * columns per token in lmask (entry -1 zero).  One row of values, updated in place.  A row
 * without matches under a nondecreasing row is that row again, with every step up and runs of
 * 0: it is skipped, so only the rows with matches are visited, plus, after a row that is not
 * nondecreasing, the next row when it has no match (which makes the row nondecreasing again).
 * Under a nondecreasing row a row also keeps the cells before its first match, and past its
 * last match the running maximum meets the row above at the first cell that reaches it, after
 * which the two agree.  Runs are kept at matches only (a mismatch's run is 0).  The back-trace
 * visits only the computed rows (a skipped row steps straight up) and walks left along a row to
 * the highest column that matches (diagonal) or goes up. */
static void wlcs_marks_word(WorkerObject *w, const uint64_t *lmask, const int32_t *a, Py_ssize_t m, Py_ssize_t n,
                            const double *f, unsigned char *mark) {
    double c[64];
    int32_t run[64];
    uint64_t *dir = w->rows, prevM = 0;
    int32_t *computed = w->wrow, *matched = w->wrow + m;
    Py_ssize_t ncomputed = 0, nmatched = 0, prev = -2;   /* prev: the last row with matches */
    for (Py_ssize_t i = 0; i < m; i++) {
        matched[nmatched] = (int32_t)i;
        nmatched += lmask[a[i]] != 0;
    }
    if (!nmatched) return;
    int monotone = 1;   /* row 0 is all zeros: nondecreasing */
    for (Py_ssize_t j = 0; j <= n; j++) { c[j] = 0.0; run[j] = 0; }
    for (Py_ssize_t q = 0; q < nmatched; q++) {
        Py_ssize_t i = matched[q];
        if (i > prev + 1) {
            prevM = 0;
            if (!monotone) {
                dir[prev + 1] = wlcs_row_plain(c, n);
                computed[ncomputed++] = (int32_t)(prev + 1);
                monotone = 1;
            }
        }
        uint64_t M = lmask[a[i]], bits = M, d = 0;
        Py_ssize_t j = 1, last = 0, last_match = -1;   /* last: the last cell updated */
        double left = 0.0, last_old = 0.0;            /* last_old: that cell's value in the row above */
        int32_t last_match_run = 0, next_monotone = 1;
        if (monotone) {
            j = ctz64(bits) + 1;
            d = low_bits(j) & ~1ULL;
            left = c[j - 1];
        }
        while (bits) {
            Py_ssize_t mc = ctz64(bits) + 1;
            bits &= bits - 1;
            for (; j < mc; j++) {
                double up = c[j];
                d |= (uint64_t)(up >= left) << j;
                left = up > left ? up : left;
                c[j] = left;
                last_old = up;
                last = j;
            }
            /* (c + f[k+1]) - f[k] from the diagonal cell, k its run (0 unless it matched) */
            double diag = last == mc - 1 ? last_old : c[mc - 1];
            int32_t k = 0;
            if (mc >= 2 && ((prevM >> (mc - 2)) & 1)) k = last_match == mc - 1 ? last_match_run : run[mc - 1];
            double v = diag + f[k + 1] - f[k];
            next_monotone &= v >= left;
            left = v;
            last_old = c[mc];
            c[mc] = v;
            last_match_run = run[mc];
            run[mc] = k + 1;
            last_match = last = mc;
            j = mc + 1;
        }
        if (monotone) {
            for (; j <= n; j++) {
                double up = c[j];
                if (up >= left) {
                    d |= ~0ULL << j;
                    break;
                }
                c[j] = left;
            }
        } else {
            for (; j <= n; j++) {
                double up = c[j];
                d |= (uint64_t)(up >= left) << j;
                left = up > left ? up : left;
                c[j] = left;
            }
        }
        dir[i] = d;
        computed[ncomputed++] = (int32_t)i;
        monotone = next_monotone;
        prevM = M;
        prev = i;
    }
    if (!monotone && prev + 1 < m) {
        dir[prev + 1] = wlcs_row_plain(c, n);
        computed[ncomputed++] = (int32_t)(prev + 1);
    }
    Py_ssize_t j = n;
    for (Py_ssize_t q = ncomputed; q > 0 && j > 0; q--) {
        Py_ssize_t i = computed[q - 1];
        uint64_t M = lmask[a[i]];
        uint64_t S = ((M << 1) | dir[i]) & (low_bits(j + 1) & ~1ULL);   /* columns 1..j */
        if (!S) break;
        int p = 63 - clz64(S);
        unsigned char diag = (unsigned char)((M >> (p - 1)) & 1);
        mark[i] |= diag;
        j = p - diag;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* per-pair statistics                                                                           */

/* WLCS union marks.  A run of peer tokens that never occur in the model sentence behaves as one
 * column (its cells are equal in every row, with one direction per row and runs of 0), so each
 * such run is collapsed into a single placeholder column (-1) before the DP: same marks, smaller
 * table. */
static int union_marks_weighted(WorkerObject *w, TextBuf *pred, TextBuf *ref, const int32_t *ptok,
                                const int32_t *rtok, const double *f) {
    Py_ssize_t pstart = 0;
    for (Py_ssize_t ps = 0; ps < pred->send.n; ps++) {
        Py_ssize_t pend = pred->send.v[ps], pn = pend - pstart;
        const int32_t *pb = ptok + pstart;
        pstart = pend;
        if (pn == 0) continue;
        if (pn <= 63 && SENT_NTOK(ref) <= TABLE_WORDS_LIMIT) {
            for (Py_ssize_t j = 0; j < pn; j++) LMASK(w)[pb[j]] |= 1ULL << j;
            Py_ssize_t rstart = 0;
            for (Py_ssize_t rs = 0; rs < ref->send.n; rs++) {
                Py_ssize_t rend = ref->send.v[rs];
                wlcs_marks_word(w, LMASK(w), rtok + rstart, rend - rstart, pn, f, w->mark + rstart);
                rstart = rend;
            }
            for (Py_ssize_t j = 0; j < pn; j++) LMASK(w)[pb[j]] = 0;
            continue;
        }
        uint32_t stp = ++w->stamp;
        for (Py_ssize_t j = 0; j < pn; j++) w->lpstamp[pb[j]] = stp;
        if (grow((void **)&w->red.v, &w->red.cap, pn + 1, sizeof(int32_t))) return -1;
        Py_ssize_t rstart = 0;
        for (Py_ssize_t rs = 0; rs < ref->send.n; rs++) {
            Py_ssize_t rend = ref->send.v[rs], rn = rend - rstart;
            const int32_t *ra = rtok + rstart;
            unsigned char *mk = w->mark + rstart;
            rstart = rend;
            int shared = 0;
            for (Py_ssize_t k = 0; k < rn; k++) if (ra[k] >= 0 && w->lpstamp[ra[k]] == stp) { shared = 1; break; }
            if (!shared) continue;
            uint32_t sts = ++w->stamp;
            for (Py_ssize_t k = 0; k < rn; k++) if (ra[k] >= 0) w->lustamp[ra[k]] = sts;
            Py_ssize_t nred = 0;
            int gap = 0;
            for (Py_ssize_t j = 0; j < pn; j++) {
                if (w->lustamp[pb[j]] == sts) { w->red.v[nred++] = pb[j]; gap = 0; }
                else if (!gap) { w->red.v[nred++] = -2; gap = 1; }
            }
            Py_ssize_t words = (nred + 63) >> 6;
            if (set_masks(w, w->red.v, nred, words) < 0) return -1;
            int rc = wlcs_marks(w, ra, rn, w->red.v, nred, f, mk);
            clear_slots(w, w->red.v, nred);
            if (rc) return -1;
        }
    }
    return 0;
}

/* Union marks of every model sentence against every peer sentence (spec §7/§8); the union does
 * not depend on the order, so each peer sentence's masks are built once per reference. */
static int union_marks(WorkerObject *w, TextBuf *pred, TextBuf *ref, const int32_t *ptok, const int32_t *rtok,
                       int weighted, const double *f) {
    Py_ssize_t nr = SENT_NTOK(ref);
    if (grow((void **)&w->mark, &w->markcap, nr + 1, 1) ||
        grow((void **)&w->rows, &w->rowcap, nr + 1, 8) ||
        grow((void **)&w->wrow, &w->wrowcap, 2 * (nr + 1), sizeof(int32_t))) return -1;
    memset(w->mark, 0, (size_t)nr + 1);
    if (weighted) return union_marks_weighted(w, pred, ref, ptok, rtok, f);
    Py_ssize_t pstart = 0;
    for (Py_ssize_t ps = 0; ps < pred->send.n; ps++) {
        Py_ssize_t pend = pred->send.v[ps], pn = pend - pstart;
        const int32_t *pb = ptok + pstart;
        pstart = pend;
        if (pn == 0) continue;
        if (pn <= 64 && nr <= TABLE_WORDS_LIMIT) {
            for (Py_ssize_t j = 0; j < pn; j++) LMASK(w)[pb[j]] |= 1ULL << j;
            Py_ssize_t rstart = 0;
            for (Py_ssize_t rs = 0; rs < ref->send.n; rs++) {
                Py_ssize_t rend = ref->send.v[rs];
                lcs_marks_word(w, rtok + rstart, rend - rstart, pn, w->mark + rstart);
                rstart = rend;
            }
            for (Py_ssize_t j = 0; j < pn; j++) LMASK(w)[pb[j]] = 0;
            continue;
        }
        Py_ssize_t words = (pn + 63) >> 6;
        if (set_masks(w, pb, pn, words) < 0) return -1;
        Py_ssize_t rstart = 0;
        int rc = 0;
        for (Py_ssize_t rs = 0; rs < ref->send.n && rc == 0; rs++) {
            Py_ssize_t rend = ref->send.v[rs], rn = rend - rstart;
            const int32_t *ra = rtok + rstart;
            unsigned char *mk = w->mark + rstart;
            rstart = rend;
            int shared = 0;
            for (Py_ssize_t k = 0; k < rn; k++) if (ra[k] >= 0 && w->lslot[ra[k]] >= 0) { shared = 1; break; }
            if (!shared) continue;
            rc = lcs_marks(w, ra, rn, pb, pn, mk) < 0 ? -1 : 0;
        }
        clear_slots(w, pb, pn);
        if (rc) return -1;
    }
    return 0;
}

/* Unigram budgets in prediction-local ids, through LBM / LBP: a reference token the prediction
 * lacks (id -1) has a zero prediction budget (LBP(w)[-1] stays 0), so it is never counted. */
#define LBM(w) ((w)->lbm + 1)
#define LBP(w) ((w)->lbp + 1)

static void budgets_set(WorkerObject *w, Py_ssize_t r) {
    const int32_t *lr = w->lr.v + w->lro[r];
    int32_t *lbm = LBM(w);
    Py_ssize_t T = w->lro[r + 1] - w->lro[r];
    for (Py_ssize_t k = 0; k < T; k++) lbm[lr[k]]++;
    memcpy(LBP(w), w->lcnt, (size_t)w->pdist.n * sizeof(int32_t));
}

static void budgets_clear(WorkerObject *w) {
    memset(w->lbm, 0, (size_t)(w->pdist.n + 1) * sizeof(int32_t));
    memset(LBP(w), 0, (size_t)w->pdist.n * sizeof(int32_t));
}

static inline double sel_of(EngineObject *e, double hits, double rc) {
    double recall = rc != 0.0 ? hits / rc : 0.0;
    return e->rounded ? round5(recall) : recall;
}


/* Number of skip-bigrams of T tokens with at most gap tokens between (gap < 0: unlimited). */
static double pair_count(Py_ssize_t T, Py_ssize_t gap) {
    Py_ssize_t span = gap < 0 ? T : gap + 2;
    double c = 0.0;
    for (Py_ssize_t i = 0; i + 1 < T; i++) c += (double)((i + span < T ? i + span : T) - i - 1);
    return c;
}

/* Clipped matching by consuming the prediction's counts: a reference item with a count left takes
 * one (min(prediction count, reference count) summed over items, as the reference counts it).
 * The consumed items go to log so that restore() can hand them back for the next reference. */
static inline Py_ssize_t consume(int32_t *cnt, int32_t id, int32_t *log, Py_ssize_t nlog) {
    int32_t c = cnt[id], h = c > 0;
    cnt[id] = c - h;
    log[nlog] = id;
    return nlog + h;
}

static inline void restore(int32_t *cnt, const int32_t *log, Py_ssize_t nlog) {
    for (Py_ssize_t k = 0; k < nlog; k++) cnt[log[k]]++;
}

#define DENSE_MAX 724   /* D x D int32 pair tables up to ~2 MiB each */

/* pair_part for skip-bigrams with any gap when D <= DENSE_MAX.  The pair counts are D x D tables
 * (cell b * D + a: a before b) built a position at a time: position j adds the running counts of
 * every token before it to its row, a vector addition.  A reference's hits are the cell-wise
 * minima of its table and the prediction's, summed over the rows of its tokens. */
static int pair_part_any_gap(WorkerObject *w, Py_ssize_t M, Py_ssize_t D, double *ph, double *prc) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n;
    if (grow_zero((void **)&w->dcnt, &w->dcap, D * D + 1, sizeof(int32_t)) ||
        grow((void **)&w->rtab, &w->rtabcap, D * D + 1, sizeof(int32_t)) ||
        grow((void **)&w->pre, &w->precap, D + 1, sizeof(int32_t)) ||
        grow_zero((void **)&w->rflag, &w->rflagcap, D + 1, sizeof(int32_t)) ||
        grow((void **)&w->rid, &w->ridcap, D + 1, sizeof(int32_t))) return -1;
    int32_t *P = w->dcnt, *R = w->rtab, *pre = w->pre, *flag = w->rflag, *rows = w->rid;
    memset(pre, 0, (size_t)D * sizeof(int32_t));
    Py_ssize_t seen = 0;   /* local ids follow first occurrence: those before j are < seen */
    for (Py_ssize_t j = 0; j < pn; j++) {
        int32_t b = lp[j], *row = P + (Py_ssize_t)b * D;
        for (Py_ssize_t a = 0; a < seen; a++) row[a] += pre[a];
        pre[b]++;
        seen += b == seen;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], nrows = 0, hi = 0;
        memset(pre, 0, (size_t)D * sizeof(int32_t));
        for (Py_ssize_t k = 0; k < T; k++) {
            int32_t b = lr[k];
            if (b < 0) continue;
            int32_t *row = R + (Py_ssize_t)b * D;
            if (!flag[b]) {
                flag[b] = 1;
                rows[nrows++] = b;
                memset(row, 0, (size_t)D * sizeof(int32_t));
            }
            for (Py_ssize_t a = 0; a < hi; a++) row[a] += pre[a];
            pre[b]++;
            if (b >= hi) hi = b + 1;
        }
        int64_t hits = 0;
        for (Py_ssize_t q = 0; q < nrows; q++) {
            const int32_t *x = P + (Py_ssize_t)rows[q] * D, *y = R + (Py_ssize_t)rows[q] * D;
            int64_t h = 0;
            for (Py_ssize_t a = 0; a < D; a++) h += x[a] < y[a] ? x[a] : y[a];
            hits += h;
            flag[rows[q]] = 0;
        }
        ph[r] = (double)hits;
        prc[r] = pair_count(T, -1);
    }
    memset(P, 0, (size_t)(D * D) * sizeof(int32_t));
    return 0;
}

/* Clipped matches of the skip-bigrams (gap 0: bigrams) of the prediction and each reference:
 * w->ph/prc[ti*M + r] and w->ppc[ti].  Keys are pairs of prediction-local ids, so up to
 * DENSE_MAX distinct prediction tokens a dense D x D table replaces hashing; a pair holding a
 * token the prediction lacks is skipped.  An earlier type with the same gap (rouge2 / rougeS0,
 * rougeS4 / rougeSU4) is reused. */
static int pair_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int ti, int gap, Py_ssize_t D) {
    EngineObject *e = w->eng;
    for (int tj = 0; tj < ti; tj++) {
        if (w->pgap[tj] == gap) {
            memcpy(w->ph + (Py_ssize_t)ti * M, w->ph + (Py_ssize_t)tj * M, (size_t)M * sizeof(double));
            memcpy(w->prc + (Py_ssize_t)ti * M, w->prc + (Py_ssize_t)tj * M, (size_t)M * sizeof(double));
            w->ppc[ti] = w->ppc[tj];
            w->pgap[ti] = gap;
            return 0;
        }
    }
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n;
    w->ppc[ti] = pair_count(pn, gap);
    w->pgap[ti] = gap;
    double *ph = w->ph + (Py_ssize_t)ti * M, *prc = w->prc + (Py_ssize_t)ti * M;
    if (D <= DENSE_MAX && gap < 0) return pair_part_any_gap(w, M, D, ph, prc);
    if (D <= DENSE_MAX) {
        /* cell (a + 1) * (D + 1) + b + 1: row 0 and column 0 (a token the prediction lacks) stay
         * 0, so a reference pair holding one consumes nothing, without a test */
        Py_ssize_t npairs = (Py_ssize_t)w->ppc[ti], W = D + 1;
        if (grow_zero((void **)&w->dcnt, &w->dcap, W * W + 1, sizeof(int32_t)) ||
            grow((void **)&w->clog, &w->clogcap, npairs + 1, sizeof(int32_t))) return -1;
        int32_t *cnt = w->dcnt, *log = w->clog;
        Py_ssize_t pspan = gap + 2;
        for (Py_ssize_t i = 0; i + 1 < pn; i++) {
            int32_t *row = cnt + (Py_ssize_t)(lp[i] + 1) * W + 1;
            Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
            for (Py_ssize_t j = i + 1; j < jend; j++) row[lp[j]]++;
        }
        for (Py_ssize_t r = 0; r < M; r++) {
            const int32_t *lr = w->lr.v + w->lro[r];
            Py_ssize_t T = w->lro[r + 1] - w->lro[r], nlog = 0;
            for (Py_ssize_t i = 0; i + 1 < T; i++) {
                int32_t base = (lr[i] + 1) * (int32_t)W + 1;
                Py_ssize_t jend = i + pspan < T ? i + pspan : T;
                for (Py_ssize_t j = i + 1; j < jend; j++) nlog = consume(cnt, base + lr[j], log, nlog);
            }
            ph[r] = (double)nlog;
            prc[r] = pair_count(T, gap);
            if (r + 1 < M) restore(cnt, log, nlog);
        }
        if (W * W <= npairs) memset(cnt, 0, (size_t)(W * W) * sizeof(int32_t));
        else
            for (Py_ssize_t i = 0; i + 1 < pn; i++) {
                int32_t *row = cnt + (Py_ssize_t)(lp[i] + 1) * W + 1;
                Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
                for (Py_ssize_t j = i + 1; j < jend; j++) row[lp[j]] = 0;
            }
        return 0;
    }
    /* many distinct tokens: hash the (exact) pair keys */
    Py_ssize_t bound = gap < 0 ? pn * (pn - 1) / 2 : pn * (gap + 1);
    uint64_t mask;
    if (gt_init(w, bound + 1, &mask)) return -1;
    Py_ssize_t pspan = gap < 0 ? pn : gap + 2;
    for (Py_ssize_t i = 0; i + 1 < pn; i++) {
        uint64_t hi = (uint64_t)(uint32_t)lp[i] << 32;
        Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
        for (Py_ssize_t j = i + 1; j < jend; j++) gt_find(w, mask, hi | (uint32_t)lp[j], NULL, 1, NULL, 1, 0)->cnt++;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], span = gap < 0 ? T : gap + 2;
        uint32_t st = ++w->stamp;
        double hits = 0.0;
        for (Py_ssize_t i = 0; i + 1 < T; i++) {
            if (lr[i] < 0) continue;
            uint64_t hi = (uint64_t)(uint32_t)lr[i] << 32;
            Py_ssize_t jend = i + span < T ? i + span : T;
            for (Py_ssize_t j = i + 1; j < jend; j++) {
                if (lr[j] < 0) continue;
                GEnt *g = gt_find(w, mask, hi | (uint32_t)lr[j], NULL, 1, NULL, 0, 0);
                if (g) gt_hit(g, st, &hits);
            }
        }
        ph[r] = hits;
        prc[r] = pair_count(T, gap);
    }
    (void)e;
    return 0;
}

/* ROUGE-SU's unigrams (every token but the last; every token in flavor paper) added to o[]. */
static int unigram_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int all, Py_ssize_t D, PS *o) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pu = all ? pn : (pn > 0 ? pn - 1 : 0);
    if (grow((void **)&w->ucnt, &w->ucap, D + 2, sizeof(int32_t)) ||
        grow((void **)&w->clog, &w->clogcap, pu + 1, sizeof(int32_t))) return -1;
    int32_t *cnt = w->ucnt + 1, *log = w->clog;   /* cnt[-1] = 0: a token the prediction lacks */
    memset(w->ucnt, 0, (size_t)(D + 1) * sizeof(int32_t));
    for (Py_ssize_t k = 0; k < pu; k++) cnt[lp[k]]++;
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], ru = all ? T : (T > 0 ? T - 1 : 0), nlog = 0;
        for (Py_ssize_t k = 0; k < ru; k++) nlog = consume(cnt, lr[k], log, nlog);
        if (r + 1 < M) restore(cnt, log, nlog);
        o[r].h += (double)nlog;
        o[r].rc += (double)ru;
        o[r].pc += (double)pu;
    }
    return 0;
}

/* Clipped n-gram matches, n >= 3: exact keys packing 16-bit prediction-local ids when n <= 4,
 * else a hash checked against the tokens.  Windows holding a token the prediction lacks are
 * skipped. */
static int ngram_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int n, Py_ssize_t D, PS *o) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n, pcount = pn - n + 1 > 0 ? pn - n + 1 : 0;
    int packed = n <= 4 && D < 65536;
    uint64_t mask;
    if (gt_init(w, pcount, &mask)) return -1;
    for (Py_ssize_t p = 0; p < pcount; p++) {
        uint64_t key = 0;
        if (packed) for (int q = 0; q < n; q++) key = (key << 16) | (uint32_t)lp[p + q];
        else key = ngram_key(lp + p, n);
        gt_find(w, mask, key, lp + p, packed ? 1 : n, lp, 1, (int32_t)p)->cnt++;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], rcount = T - n + 1 > 0 ? T - n + 1 : 0;
        uint32_t st = ++w->stamp;
        double hits = 0.0;
        Py_ssize_t last_bad = -1;
        if (pcount) {
            for (Py_ssize_t k = 0; k < T; k++) {
                if (lr[k] < 0) { last_bad = k; continue; }
                Py_ssize_t p = k - n + 1;
                if (p < 0 || last_bad >= p) continue;
                uint64_t key = 0;
                if (packed) for (int q = 0; q < n; q++) key = (key << 16) | (uint32_t)lr[p + q];
                else key = ngram_key(lr + p, n);
                GEnt *g = gt_find(w, mask, key, lr + p, packed ? 1 : n, lp, 0, 0);
                if (g) gt_hit(g, st, &hits);
            }
        }
        o[r].h = hits;
        o[r].rc = (double)rcount;
        o[r].pc = (double)pcount;
    }
    (void)tbs;
    return 0;
}

/* Dense n-gram tables up to this many cells (int32): (pn + 1) x (D + 1), the prediction's length
 * and distinct tokens plus one, bounds every level's table. */
#define LEVEL_CELLS_MAX ((Py_ssize_t)1 << 20)

/* Clipped n-gram matches for n = 1..maxn of every reference: w->nh[(n - 1) * M + r].  Level n
 * names the prediction's distinct n-grams 1..B through a dense table indexed by (id of the
 * (n-1)-gram, next token), so a reference window gets its n-gram's id with one lookup per level
 * and no hashing; a window the prediction lacks gets 0.  Returns 1 (nothing computed) when the
 * tables would be too big, -1 when out of memory. */
static int ngram_levels(WorkerObject *w, Py_ssize_t M, int maxn, Py_ssize_t D) {
    const int32_t *lp = w->lp.v, *lr = w->lr.v;
    Py_ssize_t pn = w->lp.n, TR = w->lr.n, W = D + 1;
    w->nlevels = 0;
    if ((pn + 1) * W > LEVEL_CELLS_MAX) return 1;
    if (grow((void **)&w->nh, &w->nhcap, (Py_ssize_t)maxn * M + 1, sizeof(double)) ||
        grow((void **)&w->pid, &w->pidcap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->cell, &w->cellcap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->gcnt, &w->gcntcap, pn + 2, sizeof(int32_t)) ||
        grow((void **)&w->rid, &w->ridcap, TR + 1, sizeof(int32_t)) ||
        grow((void **)&w->clog, &w->clogcap, pn + 1, sizeof(int32_t)) ||
        grow_zero((void **)&w->ltab, &w->ltabcap, (pn + 1) * W + 1, sizeof(int32_t))) return -1;
    /* Ids are 1-based here, 0 standing for "not in the prediction": the table's row 0 and column 0
     * (an absent (n-1)-gram or token) stay 0, and so does count 0, so that a reference window the
     * prediction lacks needs no test anywhere. */
    int32_t *pid = w->pid, *rid = w->rid, *cnt = w->gcnt, *tab = w->ltab, *cell = w->cell, *log = w->clog;
    for (Py_ssize_t p = 0; p < pn; p++) pid[p] = lp[p] + 1;
    for (Py_ssize_t q = 0; q < TR; q++) rid[q] = lr[q] + 1;
    Py_ssize_t B = D;   /* distinct (n-1)-grams, then n-grams */
    for (int n = 1; n <= maxn; n++) {
        double *nh = w->nh + (Py_ssize_t)(n - 1) * M;
        Py_ssize_t pc = pn - n + 1;
        if (pc <= 0) {
            for (Py_ssize_t r = 0; r < M; r++) nh[r] = 0.0;
            continue;
        }
        if (n > 1) {
            int32_t nb = 0;
            for (Py_ssize_t p = 0; p < pc; p++) {
                int32_t c = pid[p] * (int32_t)W + lp[p + n - 1] + 1, t = tab[c], fresh = t == 0;
                nb += fresh;
                t = fresh ? nb : t;
                tab[c] = t;
                cell[p] = c;
                pid[p] = t;
            }
            for (Py_ssize_t r = 0; r < M; r++) {
                Py_ssize_t base = w->lro[r], wins = w->lro[r + 1] - base - n + 1;
                for (Py_ssize_t q = 0; q < wins; q++)
                    rid[base + q] = tab[rid[base + q] * (int32_t)W + lr[base + q + n - 1] + 1];
            }
            for (Py_ssize_t p = 0; p < pc; p++) tab[cell[p]] = 0;
            B = nb;
        }
        memset(cnt, 0, (size_t)(B + 1) * sizeof(int32_t));
        for (Py_ssize_t p = 0; p < pc; p++) cnt[pid[p]]++;
        for (Py_ssize_t r = 0; r < M; r++) {
            Py_ssize_t base = w->lro[r], wins = w->lro[r + 1] - base - n + 1, nlog = 0;
            for (Py_ssize_t q = 0; q < wins; q++) nlog = consume(cnt, rid[base + q], log, nlog);
            nh[r] = (double)nlog;
            if (r + 1 < M) restore(cnt, log, nlog);
        }
    }
    w->nlevels = maxn;
    return 0;
}

/* Statistics of every type against every reference of one example: out[t * M + r]. */
static int example_stats(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, PS *out) {
    EngineObject *e = w->eng;
    TextBuf *pred = &tbs[0];
    const int32_t *pt = pred->tok.v;
    Py_ssize_t pn = pred->tok.n;
    int rcode = 0;
    w->pdist.n = 0;
    w->lp.n = 0;
    w->lr.n = 0;
    if (grow((void **)&w->pdist.v, &w->pdist.cap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->lp.v, &w->lp.cap, pn + 1, sizeof(int32_t)) ||
        grow((void **)&w->lcnt, &w->lcntcap, pn + 1, sizeof(int32_t))) { rcode = -1; goto done; }
    {
        /* local ids in order of first occurrence, and each one's joined count */
        int32_t *loc = w->loc, *pd = w->pdist.v, *lp = w->lp.v, *lcnt = w->lcnt, D0 = 0;
        for (Py_ssize_t k = 0; k < pn; k++) {
            int32_t t = pt[k], l = loc[t];
            if (l < 0) {
                l = loc[t] = D0;
                pd[D0++] = t;
                lcnt[l] = 0;
            }
            lcnt[l]++;
            lp[k] = l;
        }
        w->pdist.n = D0;
        w->lp.n = pn;
    }
    Py_ssize_t D = w->pdist.n;
    if (grow((void **)&w->lro, &w->lrocap, M + 1, sizeof(Py_ssize_t))) { rcode = -1; goto done; }
    if ((Py_ssize_t)e->ntypes * M + 1 > w->phcap) {
        Py_ssize_t c = (Py_ssize_t)e->ntypes * M + 1, c2 = c;
        if (grow((void **)&w->ph, &w->phcap, c, sizeof(double)) ||
            grow((void **)&w->prc, &c2, c + 1, sizeof(double))) { rcode = -1; goto done; }
        w->phcap = c < c2 ? c : c2;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        TextBuf *ref = &tbs[1 + r];
        w->lro[r] = w->lr.n;
        /* loc is -1 for every token outside the prediction (only joined tokens have ids yet) */
        if (grow((void **)&w->lr.v, &w->lr.cap, w->lr.n + ref->tok.n + 1, sizeof(int32_t))) { rcode = -1; goto done; }
        for (Py_ssize_t k = 0; k < ref->tok.n; k++) w->lr.v[w->lr.n++] = w->loc[ref->tok.v[k]];
    }
    w->lro[M] = w->lr.n;
    for (int ti = 0; ti < e->ntypes; ti++) w->pgap[ti] = INT32_MIN;
    if (e->needs_sentences) {
        /* Under -b the sentence reader may hold prediction tokens the joined reader lost; they
         * still match in the LCS/WLCS (only the budgets exclude them), so they get local ids
         * too, after the joined ones (with a joined count of 0). */
        if (!pred->stok_alias)
            for (Py_ssize_t k = 0; k < pred->stok.n; k++) {
                int32_t t = pred->stok.v[k];
                if (w->loc[t] < 0) {
                    w->loc[t] = (int32_t)w->pdist.n;
                    if (ivec_push(&w->pdist, t)) { rcode = -1; goto done; }
                }
            }
        Py_ssize_t DA = w->pdist.n;
        if (grow((void **)&w->lcnt, &w->lcntcap, DA + 1, sizeof(int32_t))) { rcode = -1; goto done; }
        for (Py_ssize_t k = D; k < DA; k++) w->lcnt[k] = 0;
        Py_ssize_t old = w->lslotcap;
        if (grow((void **)&w->lslot, &w->lslotcap, DA + 1, sizeof(int32_t)) ||
            grow_zero((void **)&w->lbm, &w->lbmcap, DA + 2, sizeof(int32_t)) ||
            grow_zero((void **)&w->lbp, &w->lbpcap, DA + 2, sizeof(int32_t)) ||
            grow_zero((void **)&w->lustamp, &w->lustampcap, DA + 1, sizeof(uint32_t)) ||
            grow_zero((void **)&w->lpstamp, &w->lpstampcap, DA + 1, sizeof(uint32_t)) ||
            grow_zero((void **)&w->lmask, &w->lmaskcap, DA + 2, sizeof(uint64_t))) { rcode = -1; goto done; }
        for (Py_ssize_t k = old; k < w->lslotcap; k++) w->lslot[k] = -1;
        /* the sentence reader's tokens, in local ids (the same arrays unless -b made them differ) */
        w->lps.n = 0;
        w->lrs.n = 0;
        if (grow((void **)&w->lrso, &w->lrsocap, M + 1, sizeof(Py_ssize_t))) { rcode = -1; goto done; }
        if (!pred->stok_alias)
            for (Py_ssize_t k = 0; k < pred->stok.n; k++)
                if (ivec_push(&w->lps, w->loc[pred->stok.v[k]])) { rcode = -1; goto done; }
        for (Py_ssize_t r = 0; r < M; r++) {
            TextBuf *ref = &tbs[1 + r];
            w->lrso[r] = w->lrs.n;
            if (!ref->stok_alias)
                for (Py_ssize_t k = 0; k < ref->stok.n; k++)
                    if (ivec_push(&w->lrs, w->loc[ref->stok.v[k]])) { rcode = -1; goto done; }
        }
    }
    int maxn = 0;
    for (int ti = 0; ti < e->ntypes; ti++)
        if (e->types[ti].kind == K_N && e->types[ti].n > maxn) maxn = e->types[ti].n;
    w->nlevels = 0;
    if (maxn && ngram_levels(w, M, maxn, D) < 0) { rcode = -1; goto done; }
    for (int ti = 0; ti < e->ntypes; ti++) {
        TSpec *ts = &e->types[ti];
        PS *o = out + (Py_ssize_t)ti * M;
        if (ts->kind == K_N && ts->n <= w->nlevels) {
            const double *nh = w->nh + (Py_ssize_t)(ts->n - 1) * M;
            double pc = pn - ts->n + 1 > 0 ? (double)(pn - ts->n + 1) : 0.0;
            for (Py_ssize_t r = 0; r < M; r++) {
                Py_ssize_t T = w->lro[r + 1] - w->lro[r];
                double rc = T - ts->n + 1 > 0 ? (double)(T - ts->n + 1) : 0.0;
                o[r].h = nh[r]; o[r].rc = rc; o[r].pc = pc; o[r].sel = sel_of(e, nh[r], rc);
            }
        } else if (ts->kind == K_N && ts->n == 1) {
            /* clipped unigram matches = the unigram kernel over every token */
            for (Py_ssize_t r = 0; r < M; r++) { o[r].h = 0.0; o[r].rc = 0.0; o[r].pc = 0.0; }
            if (unigram_part(w, tbs, M, 1, D, o)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) o[r].sel = sel_of(e, o[r].h, o[r].rc);
        } else if (ts->kind == K_N && ts->n == 2) {
            if (pair_part(w, tbs, M, ti, 0, D)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) {
                double h = w->ph[ti * M + r], rc = w->prc[ti * M + r];
                o[r].h = h; o[r].rc = rc; o[r].pc = w->ppc[ti]; o[r].sel = sel_of(e, h, rc);
            }
        } else if (ts->kind == K_N) {
            if (ngram_part(w, tbs, M, ts->n, D, o)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) o[r].sel = sel_of(e, o[r].h, o[r].rc);
        } else if (ts->kind == K_S) {
            if (pair_part(w, tbs, M, ti, ts->max_gap, D)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) {
                o[r].h = w->ph[ti * M + r]; o[r].rc = w->prc[ti * M + r]; o[r].pc = w->ppc[ti];
            }
            if (ts->unigrams && unigram_part(w, tbs, M, e->flavor == FLAVOR_PAPER, D, o)) { rcode = -1; goto done; }
            for (Py_ssize_t r = 0; r < M; r++) o[r].sel = sel_of(e, o[r].h, o[r].rc);
        } else if (ts->kind == K_L) {
            IVec *pf = FLAT(pred);
            for (Py_ssize_t r = 0; r < M; r++) {
                IVec *rf = FLAT(&tbs[1 + r]);
                int err = 0;
                double hits = (double)lcs_length(w, rf->v, rf->n, pf->v, pf->n, &err);
                if (err) { rcode = -1; goto done; }
                double rc = (double)rf->n;
                o[r].h = hits; o[r].rc = rc; o[r].pc = (double)pf->n; o[r].sel = rc != 0.0 ? hits / rc : 0.0;
            }
        } else if (ts->kind == K_LSUM) {
            for (Py_ssize_t r = 0; r < M; r++) {
                TextBuf *ref = &tbs[1 + r];
                const int32_t *rt = REF_LOCAL_SENT(w, ref, r);
                if (union_marks(w, pred, ref, PRED_LOCAL_SENT(w, pred), rt, 0, NULL)) { rcode = -1; goto done; }
                Py_ssize_t nr = SENT_NTOK(ref);
                double hits = 0.0, model_len;
                if (e->flavor == FLAVOR_PAPER) {
                    for (Py_ssize_t k = 0; k < nr; k++) hits += w->mark[k];
                    model_len = (double)ref->tok.n;
                } else {
                    budgets_set(w, r);
                    int32_t *lbm = LBM(w), *lbp = LBP(w), taken = 0;
                    for (Py_ssize_t k = 0; k < nr; k++) {
                        int32_t t = rt[k], ok = w->mark[k] & (lbm[t] > 0) & (lbp[t] > 0);
                        taken += ok;
                        lbm[t] -= ok;
                        lbp[t] -= ok;
                    }
                    hits = (double)taken;
                    budgets_clear(w);
                    model_len = (double)nr;
                }
                o[r].h = hits; o[r].rc = model_len; o[r].pc = (double)pn;
                o[r].sel = model_len != 0.0 ? hits / model_len : 0.0;
            }
        } else if (ts->kind == K_W) {
            double weight = ts->weight;
            if (e->flavor == FLAVOR_PAPER) {
                IVec *pf = FLAT(pred);
                for (Py_ssize_t r = 0; r < M; r++) {
                    IVec *rf = FLAT(&tbs[1 + r]);
                    Py_ssize_t longest = rf->n > pf->n ? rf->n : pf->n;
                    double hits;
                    if (ensure_f(w, ti, weight, longest + 2) ||
                        wlcs_value(w, rf->v, rf->n, pf->v, pf->n, w->f[ti], &hits)) { rcode = -1; goto done; }
                    double ref_norm = pow((double)rf->n, weight);
                    o[r].h = hits; o[r].rc = ref_norm; o[r].pc = pow((double)pf->n, weight);
                    o[r].sel = ref_norm != 0.0 ? pow(hits / ref_norm, 1.0 / weight) : 0.0;
                }
                continue;
            }
            for (Py_ssize_t r = 0; r < M; r++) {
                TextBuf *ref = &tbs[1 + r];
                Py_ssize_t longest = 0, prev = 0;
                for (Py_ssize_t s = 0; s < ref->send.n; s++) {
                    if (ref->send.v[s] - prev > longest) longest = ref->send.v[s] - prev;
                    prev = ref->send.v[s];
                }
                prev = 0;
                for (Py_ssize_t s = 0; s < pred->send.n; s++) {
                    if (pred->send.v[s] - prev > longest) longest = pred->send.v[s] - prev;
                    prev = pred->send.v[s];
                }
                if (ensure_f(w, ti, weight, longest + 2)) { rcode = -1; goto done; }
                const double *f = w->f[ti];
                const int32_t *rt = REF_LOCAL_SENT(w, ref, r);
                if (union_marks(w, pred, ref, PRED_LOCAL_SENT(w, pred), rt, 1, f)) { rcode = -1; goto done; }
                budgets_set(w, r);
                double hits = 0.0, block = 0.0;
                Py_ssize_t start = 0;
                for (Py_ssize_t s = 0; s < ref->send.n; s++) {
                    Py_ssize_t end = ref->send.v[s];
                    Py_ssize_t run = 0;
                    for (Py_ssize_t k = start; k < end; k++) {
                        if (!w->mark[k]) continue;
                        int32_t t = rt[k];
                        if (LBM(w)[t] > 0 && LBP(w)[t] > 0) {
                            run++;
                            LBM(w)[t]--; LBP(w)[t]--;
                            if (k + 1 == end || !w->mark[k + 1]) { hits += f[run]; run = 0; }
                        }
                    }
                    block += f[end - start];
                    start = end;
                }
                budgets_clear(w);
                o[r].h = hits; o[r].rc = pow(block, weight); o[r].pc = pow((double)pn, weight);
                o[r].sel = block != 0.0 ? pow(hits / block, 1.0 / weight) : 0.0;
            }
        }
    }
done:
    for (Py_ssize_t k = 0; k < w->pdist.n; k++) w->loc[w->pdist.v[k]] = -1;
    return rcode;
}

/* ------------------------------------------------------------------------------------------ */
/* scores (scoring.py: score_from_counts, combine, jackknife)                                    */

static SC score_from_counts(EngineObject *e, double h, double rc, double pc, double weight) {
    SC s;
    double recall = rc != 0.0 ? h / rc : 0.0;
    double precision = pc != 0.0 ? h / pc : 0.0;
    if (weight != 0.0) {
        recall = pow(recall, 1.0 / weight);
        precision = pow(precision, 1.0 / weight);
    }
    double alpha = e->alpha;
    if (e->rounded) {
        recall = round5(recall);
        precision = round5(precision);
        double den = (1.0 - alpha) * precision + alpha * recall;
        s.f = round5(den > 0.0 ? (precision * recall) / den : 0.0);
    } else if (e->rs_f) {
        double sum = precision + recall;
        s.f = sum > 0.0 ? 2.0 * precision * recall / sum : 0.0;
    } else {
        double den = (1.0 - alpha) * precision + alpha * recall;
        s.f = den > 0.0 ? (precision * recall) / den : 0.0;
    }
    s.p = precision;
    s.r = recall;
    return s;
}

static SC combine(EngineObject *e, const PS *s, Py_ssize_t M, double weight) {
    if (e->multi_ref == MR_MAX) {
        SC best = score_from_counts(e, s[0].h, s[0].rc, s[0].pc, weight);
        for (Py_ssize_t k = 1; k < M; k++) {
            SC c = score_from_counts(e, s[k].h, s[k].rc, s[k].pc, weight);
            if (c.f > best.f) best = c;
        }
        return best;
    }
    if (e->multi_ref == MR_BEST) {
        double best = -1.0;
        const PS *chosen = &s[0];
        for (Py_ssize_t k = 0; k < M; k++)
            if (s[k].sel > best) { best = s[k].sel; chosen = &s[k]; }
        return score_from_counts(e, chosen->h, chosen->rc, chosen->pc, weight);
    }
    double h = 0.0, rc = 0.0, pc = 0.0;
    for (Py_ssize_t k = 0; k < M; k++) { h += s[k].h; rc += s[k].rc; pc += s[k].pc; }
    return score_from_counts(e, h, rc, pc, weight);
}

static SC reduce_scores(EngineObject *e, const PS *s, Py_ssize_t M, double weight, PS *tmp) {
    if (!e->jackknife || M < 2) return combine(e, s, M, weight);
    double p = 0.0, r = 0.0, f = 0.0;
    for (Py_ssize_t k = 0; k < M; k++) {
        Py_ssize_t q = 0;
        for (Py_ssize_t x = 0; x < M; x++) if (x != k) tmp[q++] = s[x];
        SC c = combine(e, tmp, M - 1, weight);
        p += c.p; r += c.r; f += c.f;
    }
    SC out = {p / (double)M, r / (double)M, f / (double)M};
    return out;
}

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

static void Engine_dealloc(EngineObject *self) {
    if (self->types) {
        for (int i = 0; i < self->ntypes; i++) Py_XDECREF(self->types[i].name);
        PyMem_Free(self->types);
    }
    Py_XDECREF(self->filter);
    interner_free(&self->stops);
    interner_free(&self->exc);
    Py_XDECREF(self->score_type);
    Py_XDECREF(self->stats_type);
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

/* native = (use_stemmer, remove_stopwords, stop words, {inflected: base form}) */
static int set_native(EngineObject *self, PyObject *native) {
    int stem, stop, ascii;
    PyObject *words, *table, *item, *key, *value;
    if (!PyArg_ParseTuple(native, "ppOO!", &stem, &stop, &words, &PyDict_Type, &table)) return -1;
    interner_free(&self->stops);
    interner_free(&self->exc);
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
    Py_ssize_t pos = 0;
    while (PyDict_Next(table, &pos, &key, &value)) {
        Py_ssize_t kn, vn;
        int vascii;
        const char *k = utf8_of(key, &kn, &ascii), *v = k ? utf8_of(value, &vn, &vascii) : NULL;
        if (!v) return -1;
        if (!ascii) continue;
        Py_ssize_t vi = intern(&self->exc, v, vn, -1), ki = vi < 0 ? -1 : intern(&self->exc, k, kn, -1);
        if (ki < 0) { PyErr_NoMemory(); return -1; }
        self->exc.ent[ki].fin = (int32_t)vi;
    }
    self->native = 1;
    self->stem = stem;
    self->drop_stop = stop;
    return 0;
}

/* Engine(flavor, types, word_limit, byte_limit, multi_ref, jackknife, alpha, token_filter,
 *        Score, PairStats[, native]); types: [(name, kind, n, weight, max_gap or -1, unigrams)];
 * native (see set_native) makes the core apply token_filter's stop words and stemmer itself. */
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
        if (self->flavor == FLAVOR_RS) { PyErr_SetString(PyExc_ValueError, "flavor rouge_score has no native filter"); return -1; }
        if (set_native(self, native)) return -1;
    }
    Py_INCREF(score_type); self->score_type = score_type;
    Py_INCREF(stats_type); self->stats_type = stats_type;
    return 0;
}

static PyObject *Engine_worker(EngineObject *self, PyObject *unused) {
    WorkerObject *w = PyObject_New(WorkerObject, &WorkerType);
    if (!w) return NULL;
    char *start = (char *)w + offsetof(WorkerObject, eng);
    memset(start, 0, sizeof(WorkerObject) - offsetof(WorkerObject, eng));
    Py_INCREF(self);
    w->eng = self;
    w->f = (double **)calloc((size_t)(self->ntypes + 1), sizeof(double *));
    w->fn = (Py_ssize_t *)calloc((size_t)(self->ntypes + 1), sizeof(Py_ssize_t));
    w->front = (Front *)calloc((size_t)1 << FRONT_BITS, sizeof(Front));
    w->ppc = (double *)calloc((size_t)(self->ntypes + 1), sizeof(double));
    w->pgap = (int *)calloc((size_t)(self->ntypes + 1), sizeof(int));
    if (!w->f || !w->fn || !w->ppc || !w->pgap || !w->front) { Py_DECREF(w); return PyErr_NoMemory(); }
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

static PyMethodDef Engine_methods[] = {
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
    free(w->tb); free(w->tbuf); free(w->sbuf); free(w->lines); free(w->flat); free(w->pdist.v); free(w->red.v);
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
        Py_ssize_t soff = 0;
        for (Py_ssize_t i = 0; i < count && !c.err; i++) {
            Py_ssize_t ntext = exoff[i + 1] - exoff[i], M = ntext - 1;
            if (w->in.nent > INTERN_RESET_LIMIT) {
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
            if (grow((void **)&w->tmp, &w->tmpcap, M + 1, sizeof(PS))) { c.err = ERR_NOMEM; break; }
            for (int ti = 0; ti < e->ntypes; ti++) {
                double weight = e->types[ti].kind == K_W ? e->types[ti].weight : 0.0;
                w->scores[i * e->ntypes + ti] = reduce_scores(e, st + (Py_ssize_t)ti * M, M, weight, w->tmp);
            }
            soff += M * e->ntypes;
        }
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
                PyList_SET_ITEM(lists[k], i, PyUnicode_DecodeLatin1(w->in.arena + en->off, en->len, NULL));
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

static PyMethodDef Worker_methods[] = {
    {"run", (PyCFunction)Worker_run, METH_VARARGS,
     "run(predictions, references, start, stop, with_stats) -> (scores, stats or None)"},
    {"tokens", (PyCFunction)Worker_tokens, METH_O,
     "tokens(text) -> (joined tokens, sentence ends, sentence-reader tokens, flat tokens)"},
    {"vocabulary_size", (PyCFunction)Worker_vocabulary_size, METH_NOARGS, "Entries in the token cache."},
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

/* ------------------------------------------------------------------------------------------ */
/* module functions                                                                              */

/* replicate_sums(values, N, K, out, R): values a C-contiguous float64 (N, K) buffer in sorted
 * key order, out a writable C-contiguous float64 (R, K) buffer; out[r] = the sequential sum of
 * the values at the Perl's N draws of replicate r (drand48 seeded with r), exactly as
 * bootstrap.replicate_sums adds them.
 *
 * The draws hit random rows of a table bigger than L2, so memory latency, not the additions,
 * sets the pace.  Hence: the columns are copied into blocks of RS_BLOCK (one 64-byte line per
 * row), a pair of replicates' draws is computed once and then swept over each block with the
 * accumulators in registers, and the rows a few draws ahead are prefetched.  Each replicate
 * still adds its own draws in draw order, so every sum is the Perl's bit for bit. */
#define RS_BLOCK 8
#define RS_LANES 2
#define RS_AHEAD 8
static PyObject *mod_replicate_sums(PyObject *self, PyObject *args) {
    Py_buffer vb, ob;
    Py_ssize_t N, K, R;
    if (!PyArg_ParseTuple(args, "y*nnw*n", &vb, &N, &K, &ob, &R)) return NULL;
    PyObject *res = NULL;
    char *raw = NULL;
    Py_ssize_t *at = NULL;
    if (N < 0 || K < 0 || R < 0 || vb.len != N * K * 8 || ob.len != R * K * 8) {
        PyErr_SetString(PyExc_ValueError, "values must hold N*K and out R*K float64 values");
        goto end;
    }
    Py_ssize_t nb = (K + RS_BLOCK - 1) / RS_BLOCK;
    if (N > 0 && nb > 0) {
        raw = (char *)malloc((size_t)(nb * N * RS_BLOCK) * sizeof(double) + 64);
        at = (Py_ssize_t *)malloc((size_t)((N + RS_AHEAD) * RS_LANES) * sizeof(Py_ssize_t));
        if (!raw || !at) { PyErr_NoMemory(); goto end; }
    }
    {
        const double *v = (const double *)vb.buf;
        double *o = (double *)ob.buf;
        Py_BEGIN_ALLOW_THREADS
        const uint64_t A = 0x5DEECE66DULL, C = 0xB, MASK = (1ULL << 48) - 1;
        const double scale = 1.0 / 281474976710656.0, size = (double)N;
        for (Py_ssize_t k = 0; k < R * K; k++) o[k] = 0.0;
        if (raw) {
            /* blk[b][i][c] = v[i][b * RS_BLOCK + c], zero past K (sums of zeros, never read) */
            double *blk = (double *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
            for (Py_ssize_t b = 0; b < nb; b++)
                for (Py_ssize_t i = 0; i < N; i++)
                    for (Py_ssize_t c = 0; c < RS_BLOCK; c++) {
                        Py_ssize_t k = b * RS_BLOCK + c;
                        blk[(b * N + i) * RS_BLOCK + c] = k < K ? v[i * K + k] : 0.0;
                    }
            for (Py_ssize_t d = N; d < N + RS_AHEAD; d++)
                for (int q = 0; q < RS_LANES; q++) at[d * RS_LANES + q] = 0;
            for (Py_ssize_t r0 = 0; r0 < R; r0 += RS_LANES) {
                Py_ssize_t lanes = R - r0 < RS_LANES ? R - r0 : RS_LANES;
                uint64_t x[RS_LANES];
                for (int q = 0; q < RS_LANES; q++) x[q] = (((uint64_t)(r0 + q) << 16) + 0x330E) & MASK;
                for (Py_ssize_t d = 0; d < N; d++)
                    for (int q = 0; q < RS_LANES; q++) {   /* lanes interleaved: the LCG is a serial chain */
                        x[q] = (A * x[q] + C) & MASK;
                        at[d * RS_LANES + q] = (Py_ssize_t)(((double)x[q] * scale) * size) * RS_BLOCK;
                    }
                for (Py_ssize_t b = 0; b < nb; b++) {
                    const double *base = blk + b * N * RS_BLOCK;
                    double acc[RS_LANES][RS_BLOCK];
                    for (int q = 0; q < RS_LANES; q++)
                        for (int c = 0; c < RS_BLOCK; c++) acc[q][c] = 0.0;
                    for (Py_ssize_t d = 0; d < N; d++) {
                        for (int q = 0; q < RS_LANES; q++) {
                            const double *row = base + at[d * RS_LANES + q];
#if defined(__GNUC__) || defined(__clang__)
                            __builtin_prefetch(base + at[(d + RS_AHEAD) * RS_LANES + q]);
#endif
                            for (int c = 0; c < RS_BLOCK; c++) acc[q][c] += row[c];
                        }
                    }
                    for (Py_ssize_t q = 0; q < lanes; q++)
                        for (Py_ssize_t c = 0; c < RS_BLOCK && b * RS_BLOCK + c < K; c++)
                            o[(r0 + q) * K + b * RS_BLOCK + c] = acc[q][c];
                }
            }
        }
        Py_END_ALLOW_THREADS
    }
    Py_INCREF(Py_None);
    res = Py_None;
end:
    free(raw);
    free(at);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&ob);
    return res;
}

/* _set_table_limit(words) -> previous: tests shrink it to exercise the checkpointed back-traces. */
static PyObject *mod_set_table_limit(PyObject *self, PyObject *arg) {
    Py_ssize_t v = PyLong_AsSsize_t(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < 1) { PyErr_SetString(PyExc_ValueError, "limit must be >= 1"); return NULL; }
    Py_ssize_t old = TABLE_WORDS_LIMIT;
    TABLE_WORDS_LIMIT = v;
    return PyLong_FromSsize_t(old);
}

static PyObject *mod_round5(PyObject *self, PyObject *arg) {
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(round5(x));
}

/* Issue 12: read_files reads only regular files up to READ_FILES_MAX_BYTES.  A device such as
 * /dev/zero never ends and a huge file would exhaust memory; both get None, and the Python
 * reader (cli/input_files.py) refuses them with a message, under its configurable cap. */
#include <sys/stat.h>
#ifndef S_ISREG
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#endif
#define READ_FILES_MAX_BYTES ((long long)64 << 20)
static int read_files_accepts(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (long long)st.st_size <= READ_FILES_MAX_BYTES;
}

/* read_files(paths) -> [bytes or None]: each file's content, None where it cannot be opened or
 * read (the caller then takes its slow path, which reports the error as the Perl does).  The
 * ROUGE-1.5.5.pl command line reads two small files per evaluation; open/read/close here cost
 * a third of Python's open().read(). */
static PyObject *mod_read_files(PyObject *self, PyObject *paths) {
    PyObject *seq = PySequence_Fast(paths, "paths must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    char *buf = NULL;
    size_t cap = 0;
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *encoded = NULL;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &encoded)) { Py_CLEAR(out); break; }
        PyObject *item = NULL;
        int fd = open(PyBytes_AS_STRING(encoded), O_RDONLY | O_BINARY);
        Py_DECREF(encoded);
        if (fd >= 0 && !read_files_accepts(fd)) {
            close(fd);
            fd = -1;   /* the caller's Python path applies its checks and says why (issue 12) */
        }
        if (fd >= 0) {
            size_t len = 0;
            for (;;) {
                if (len == cap) {
                    size_t c = cap ? 2 * cap : 65536;
                    char *q = (char *)realloc(buf, c);
                    if (!q) { len = (size_t)-1; break; }
                    buf = q;
                    cap = c;
                }
                ptrdiff_t got = read(fd, buf + len, (unsigned)(cap - len > 1 << 30 ? 1 << 30 : cap - len));
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) { if (got < 0) len = (size_t)-1; break; }
                len += (size_t)got;
            }
            close(fd);
            if (len != (size_t)-1) {
                item = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
                if (!item) { Py_CLEAR(out); break; }
            }
        }
        if (!item) { Py_INCREF(Py_None); item = Py_None; }
        PyList_SET_ITEM(out, i, item);
    }
    free(buf);
    Py_DECREF(seq);
    return out;
}

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

static PyObject *mod_porter_stem(PyObject *self, PyObject *arg) {
    Py_ssize_t n;
    char *buf = stem_arg(arg, &n, 0);
    if (!buf) return NULL;
    PyObject *out = PyUnicode_DecodeASCII(buf, porter(buf, n), NULL);
    PyMem_Free(buf);
    return out;
}

static PyMethodDef module_methods[] = {
    {"scan_config", mod_scan_config, METH_VARARGS,
     "scan_config(data, pos=0, max_evals=1024) -> (elements, next pos or -1) of a canonical ROUGE config, or None."},
    {"read_files", mod_read_files, METH_O, "read_files(paths) -> [bytes or None]: whole files (None: unreadable)."},
    {"porter_stem", mod_porter_stem, METH_O, "porter_stem(word) -> stemmer.porter_stem(word), in C (ASCII words; for tests)."},
    {"replicate_sums", mod_replicate_sums, METH_VARARGS,
     "replicate_sums(values, N, K, out, R): the Perl bootstrap's per-replicate sequential sums."},
    {"round5", mod_round5, METH_O, "float('%.5f' % x), computed in C."},
    {"_set_table_limit", mod_set_table_limit, METH_O, "Set the back-trace table budget (64-bit words); returns the old one."},
    {NULL}
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core",
    "Compiled hot path of rouge_full_metric (optional: the pure-Python engine gives identical results).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    init_porter_classes();
    if (PyType_Ready(&EngineType) < 0 || PyType_Ready(&WorkerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    /* compiled.py checks it before using a core built from another copy of the package */
    if (PyModule_AddIntConstant(m, "API_VERSION", 2) < 0) { Py_DECREF(m); return NULL; }
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) { Py_DECREF(&EngineType); Py_DECREF(m); return NULL; }
    Py_INCREF(&WorkerType);
    if (PyModule_AddObject(m, "Worker", (PyObject *)&WorkerType) < 0) { Py_DECREF(&WorkerType); Py_DECREF(m); return NULL; }
    return m;
}
