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
#include <time.h>

#define FLAVOR_ROUGE155 0
#define FLAVOR_PAPER 1
#define FLAVOR_RS 2

enum { K_N = 0, K_L, K_LSUM, K_W, K_S };
enum { MR_AVERAGE = 0, MR_BEST, MR_MAX, MR_MAX_RP };

/* Row-table budget (64-bit words) before the LCS/WLCS back-traces switch to checkpointing:
 * 2^22 words = 32 MiB. */
static Py_ssize_t TABLE_WORDS_LIMIT = (Py_ssize_t)1 << 22;
/* A Worker forgets its token cache past this many entries or arena bytes (checked between
 * examples): memory stays bounded whatever the vocabulary.  Variables, so that tests can shrink
 * them (_set_intern_limits) to exercise the resets without gigabytes of tokens. */
static Py_ssize_t INTERN_RESET_LIMIT = (Py_ssize_t)1 << 22;
static Py_ssize_t INTERN_RESET_BYTES = (Py_ssize_t)1 << 28;

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

/* off is 64 bits: a long-lived Worker's arena may pass 4 GiB between resets (same 32-byte size). */
typedef struct { uint64_t h; uint64_t head; uint64_t off; uint32_t len; int32_t fin; } Entry;

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
    en->off = (uint64_t)in->alen;
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
    int tokenizer;          /* TOK_*: see the Unicode token pipelines section */
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
    PyObject *tok = PyUnicode_DecodeUTF8(w->in.arena + w->in.ent[idx].off, w->in.ent[idx].len, "surrogatepass");
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

/* ------------------------------------------------------------------------------------------ */
/* Unicode token pipelines: Engine(tokenizer="xlsum" | "xlsum_basic" | "whitespace") and      */
/* xlsum_tokenize()                                                                             */
/*
 * multilingual-rouge 0.0.1 (XL-Sum's scorer) tokenizes a text of a language without a word
 * segmenter, and every text with lang=None, as follows (rouge_scorer.MultiTokenizer):
 *   1. text.lower(): the interpreter's str.lower (multi-character and final-sigma rules);
 *   2. BERT's BasicTokenizer: U+0000, U+FFFD and category C* except \t \n \r are deleted
 *      (they do not separate: "a\u200bb" -> "ab"); str.split()'s whitespace separates;
 *      punctuation (category P* and the ASCII symbols !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~)
 *      separates and is removed;
 *   3. the resulting words, joined by " ", go through pyonmttok.Tokenizer("aggressive"):
 *      a run of letters is a token, a run of digits is a token, every other character is a
 *      token of its own; a combining mark continues the token before it (of any class); a
 *      mark that starts a word gets the separator before it, written "％0020" (U+FF05 and the
 *      code point in four hex digits), as a prefix -- a word that is not the text's first;
 *      six characters are substituted (U+2581 -> "_", U+FFED -> U+25A0, U+FFE8 -> U+2502,
 *      U+FF05 -> "%", U+FF03 -> "#", U+FF1A -> ":"; only the first three survive step 2);
 *   4. BERT's tokenize_chinese_chars: every CJK ideograph (BERT's ranges) is a token.
 * Verified against pyonmttok 1.38.1 on all strings of up to 7 characters over letters,
 * digits, marks, symbols and spaces, and by tests/test_xlsum_core.py against the anchor.
 * "xlsum_basic" stops after step 2: the anchor's rougeLsum tokenizes each sentence with
 * BasicTokenizer alone (a quirk of the anchor).  "whitespace" splits on str.split()'s
 * whitespace and keeps the text as is: for text a Python word segmenter already tokenized.
 *
 * Unicode tables -- the choice.  Steps 1-2 follow the running interpreter, as the anchor
 * does: lower-casing calls str.lower() itself (with the GIL, before the GIL-free phase), and
 * the step-2 class of every code point comes from Py_UNICODE_ISSPACE / ISPRINTABLE / ISALPHA
 * plus unicodedata.category for the ~15,000 code points these cannot decide (P* versus M*,
 * N*, S*).  That table (one byte per code point, 1.1 MiB) is built once per process, at the
 * first xlsum_tokenize() or Engine(tokenizer="xlsum"...): 12-17 ms of CPU time measured
 * (Python 3.11, x86-64; benchmarks/bench_xlsum_tokenizer.py prints it).  Tables generated at
 * build time from the building interpreter were the alternative: they would be wrong for a
 * wheel used under another Python (another Unicode version), which this cost avoids.  Step 3's classes are pyonmttok's, i.e.
 * those of the ICU it bundles (ICU 73, Unicode 15.0), whatever the interpreter: they are
 * the range table below, generated from pyonmttok itself by tools/gen_xlsum_onmt_table.py.
 */

enum { XP_DROP = 0, XP_SPACE = 1, XP_PUNCT = 2, XP_KEEP = 3 };          /* step 2 */
enum { XO_OTHER = 0, XO_LETTER, XO_NUMBER, XO_MARK, XO_SEP, XO_SKIP, XO_NUL };  /* step 3 */
enum { TOK_PERL = 0, TOK_XLSUM, TOK_XLSUM_BASIC, TOK_WHITESPACE };
#define XL_CJK 0x20

/* BEGIN GENERATED XLSUM ONMT TABLE */
/* pyonmttok 1.38.1, generated by tools/gen_xlsum_onmt_table.py: (first code point << 3) | class */
static const uint32_t XL_ONMT_RANGES[1918] = {
    0x0000006u, 0x000000du, 0x0000104u, 0x0000108u, 0x0000182u, 0x00001d0u, 0x0000209u, 0x00002d8u,
    0x0000309u, 0x00003d8u, 0x0000504u, 0x0000508u, 0x0000551u, 0x0000558u, 0x0000592u, 0x00005a0u,
    0x00005a9u, 0x00005b0u, 0x00005cau, 0x00005d1u, 0x00005d8u, 0x00005e2u, 0x00005f8u, 0x0000601u,
    0x00006b8u, 0x00006c1u, 0x00007b8u, 0x00007c1u, 0x0001610u, 0x0001631u, 0x0001690u, 0x0001701u,
    0x0001728u, 0x0001761u, 0x0001768u, 0x0001771u, 0x0001778u, 0x0001803u, 0x0001b81u, 0x0001ba8u,
    0x0001bb1u, 0x0001bc0u, 0x0001bd1u, 0x0001bf0u, 0x0001bf9u, 0x0001c00u, 0x0001c31u, 0x0001c38u,
    0x0001c41u, 0x0001c58u, 0x0001c61u, 0x0001c68u, 0x0001c71u, 0x0001d10u, 0x0001d19u, 0x0001fb0u,
    0x0001fb9u, 0x0002410u, 0x000241bu, 0x0002451u, 0x0002980u, 0x0002989u, 0x0002ab8u, 0x0002ac9u,
    0x0002ad0u, 0x0002b01u, 0x0002c48u, 0x0002c8bu, 0x0002df0u, 0x0002dfbu, 0x0002e00u, 0x0002e0bu,
    0x0002e18u, 0x0002e23u, 0x0002e30u, 0x0002e3bu, 0x0002e40u, 0x0002e81u, 0x0002f58u, 0x0002f79u,
    0x0002f98u, 0x0003083u, 0x00030d8u, 0x0003101u, 0x000325bu, 0x0003302u, 0x0003350u, 0x0003371u,
    0x0003383u, 0x0003389u, 0x00036a0u, 0x00036a9u, 0x00036b3u, 0x00036e8u, 0x00036fbu, 0x0003729u,
    0x000373bu, 0x0003748u, 0x0003753u, 0x0003771u, 0x0003782u, 0x00037d1u, 0x00037e8u, 0x00037f9u,
    0x0003800u, 0x0003881u, 0x000388bu, 0x0003891u, 0x0003983u, 0x0003a58u, 0x0003a69u, 0x0003d33u,
    0x0003d89u, 0x0003d90u, 0x0003e02u, 0x0003e51u, 0x0003f5bu, 0x0003fa1u, 0x0003fb0u, 0x0003fd1u,
    0x0003fd8u, 0x0003febu, 0x0003ff0u, 0x0004001u, 0x00040b3u, 0x00040d1u, 0x00040dbu, 0x0004121u,
    0x000412bu, 0x0004141u, 0x000414bu, 0x0004170u, 0x0004201u, 0x00042cbu, 0x00042e0u, 0x0004301u,
    0x0004358u, 0x0004381u, 0x0004440u, 0x0004449u, 0x0004478u, 0x00044c3u, 0x0004501u, 0x0004653u,
    0x0004710u, 0x000471bu, 0x0004821u, 0x00049d3u, 0x00049e9u, 0x00049f3u, 0x0004a81u, 0x0004a8bu,
    0x0004ac1u, 0x0004b13u, 0x0004b20u, 0x0004b32u, 0x0004b80u, 0x0004b89u, 0x0004c0bu, 0x0004c20u,
    0x0004c29u, 0x0004c68u, 0x0004c79u, 0x0004c88u, 0x0004c99u, 0x0004d48u, 0x0004d51u, 0x0004d88u,
    0x0004d91u, 0x0004d98u, 0x0004db1u, 0x0004dd0u, 0x0004de3u, 0x0004de9u, 0x0004df3u, 0x0004e28u,
    0x0004e3bu, 0x0004e48u, 0x0004e5bu, 0x0004e71u, 0x0004e78u, 0x0004ebbu, 0x0004ec0u, 0x0004ee1u,
    0x0004ef0u, 0x0004ef9u, 0x0004f13u, 0x0004f20u, 0x0004f32u, 0x0004f81u, 0x0004f90u, 0x0004fa2u,
    0x0004fd0u, 0x0004fe1u, 0x0004fe8u, 0x0004ff3u, 0x0004ff8u, 0x000500bu, 0x0005020u, 0x0005029u,
    0x0005058u, 0x0005079u, 0x0005088u, 0x0005099u, 0x0005148u, 0x0005151u, 0x0005188u, 0x0005191u,
    0x00051a0u, 0x00051a9u, 0x00051b8u, 0x00051c1u, 0x00051d0u, 0x00051e3u, 0x00051e8u, 0x00051f3u,
    0x0005218u, 0x000523bu, 0x0005248u, 0x000525bu, 0x0005270u, 0x000528bu, 0x0005290u, 0x00052c9u,
    0x00052e8u, 0x00052f1u, 0x00052f8u, 0x0005332u, 0x0005383u, 0x0005391u, 0x00053abu, 0x00053b0u,
    0x000540bu, 0x0005420u, 0x0005429u, 0x0005470u, 0x0005479u, 0x0005490u, 0x0005499u, 0x0005548u,
    0x0005551u, 0x0005588u, 0x0005591u, 0x00055a0u, 0x00055a9u, 0x00055d0u, 0x00055e3u, 0x00055e9u,
    0x00055f3u, 0x0005630u, 0x000563bu, 0x0005650u, 0x000565bu, 0x0005670u, 0x0005681u, 0x0005688u,
    0x0005701u, 0x0005713u, 0x0005720u, 0x0005732u, 0x0005780u, 0x00057c9u, 0x00057d3u, 0x0005800u,
    0x000580bu, 0x0005820u, 0x0005829u, 0x0005868u, 0x0005879u, 0x0005888u, 0x0005899u, 0x0005948u,
    0x0005951u, 0x0005988u, 0x0005991u, 0x00059a0u, 0x00059a9u, 0x00059d0u, 0x00059e3u, 0x00059e9u,
    0x00059f3u, 0x0005a28u, 0x0005a3bu, 0x0005a48u, 0x0005a5bu, 0x0005a70u, 0x0005aabu, 0x0005ac0u,
    0x0005ae1u, 0x0005af0u, 0x0005af9u, 0x0005b13u, 0x0005b20u, 0x0005b32u, 0x0005b80u, 0x0005b89u,
    0x0005b92u, 0x0005bc0u, 0x0005c13u, 0x0005c19u, 0x0005c20u, 0x0005c29u, 0x0005c58u, 0x0005c71u,
    0x0005c88u, 0x0005c91u, 0x0005cb0u, 0x0005cc9u, 0x0005cd8u, 0x0005ce1u, 0x0005ce8u, 0x0005cf1u,
    0x0005d00u, 0x0005d19u, 0x0005d28u, 0x0005d41u, 0x0005d58u, 0x0005d71u, 0x0005dd0u, 0x0005df3u,
    0x0005e18u, 0x0005e33u, 0x0005e48u, 0x0005e53u, 0x0005e70u, 0x0005e81u, 0x0005e88u, 0x0005ebbu,
    0x0005ec0u, 0x0005f32u, 0x0005f98u, 0x0006003u, 0x0006029u, 0x0006068u, 0x0006071u, 0x0006088u,
    0x0006091u, 0x0006148u, 0x0006151u, 0x00061d0u, 0x00061e3u, 0x00061e9u, 0x00061f3u, 0x0006228u,
    0x0006233u, 0x0006248u, 0x0006253u, 0x0006270u, 0x00062abu, 0x00062b8u, 0x00062c1u, 0x00062d8u,
    0x00062e9u, 0x00062f0u, 0x0006301u, 0x0006313u, 0x0006320u, 0x0006332u, 0x0006380u, 0x00063c2u,
    0x00063f8u, 0x0006401u, 0x000640bu, 0x0006420u, 0x0006429u, 0x0006468u, 0x0006471u, 0x0006488u,
    0x0006491u, 0x0006548u, 0x0006551u, 0x00065a0u, 0x00065a9u, 0x00065d0u, 0x00065e3u, 0x00065e9u,
    0x00065f3u, 0x0006628u, 0x0006633u, 0x0006648u, 0x0006653u, 0x0006670u, 0x00066abu, 0x00066b8u,
    0x00066e9u, 0x00066f8u, 0x0006701u, 0x0006713u, 0x0006720u, 0x0006732u, 0x0006780u, 0x0006789u,
    0x000679bu, 0x00067a0u, 0x0006803u, 0x0006821u, 0x0006868u, 0x0006871u, 0x0006888u, 0x0006891u,
    0x00069dbu, 0x00069e9u, 0x00069f3u, 0x0006a28u, 0x0006a33u, 0x0006a48u, 0x0006a53u, 0x0006a71u,
    0x0006a78u, 0x0006aa1u, 0x0006abbu, 0x0006ac2u, 0x0006af9u, 0x0006b13u, 0x0006b20u, 0x0006b32u,
    0x0006bc8u, 0x0006bd1u, 0x0006c00u, 0x0006c0bu, 0x0006c20u, 0x0006c29u, 0x0006cb8u, 0x0006cd1u,
    0x0006d90u, 0x0006d99u, 0x0006de0u, 0x0006de9u, 0x0006df0u, 0x0006e01u, 0x0006e38u, 0x0006e53u,
    0x0006e58u, 0x0006e7bu, 0x0006ea8u, 0x0006eb3u, 0x0006eb8u, 0x0006ec3u, 0x0006f00u, 0x0006f32u,
    0x0006f80u, 0x0006f93u, 0x0006fa0u, 0x0007009u, 0x000718bu, 0x0007191u, 0x00071a3u, 0x00071d8u,
    0x0007201u, 0x000723bu, 0x0007278u, 0x0007282u, 0x00072d0u, 0x0007409u, 0x0007418u, 0x0007421u,
    0x0007428u, 0x0007431u, 0x0007458u, 0x0007461u, 0x0007520u, 0x0007529u, 0x0007530u, 0x0007539u,
    0x000758bu, 0x0007591u, 0x00075a3u, 0x00075e9u, 0x00075f0u, 0x0007601u, 0x0007628u, 0x0007631u,
    0x0007638u, 0x0007643u, 0x0007678u, 0x0007682u, 0x00076d0u, 0x00076e1u, 0x0007700u, 0x0007801u,
    0x0007808u, 0x00078c3u, 0x00078d0u, 0x0007902u, 0x00079a0u, 0x00079abu, 0x00079b0u, 0x00079bbu,
    0x00079c0u, 0x00079cbu, 0x00079d0u, 0x00079f3u, 0x0007a01u, 0x0007a40u, 0x0007a49u, 0x0007b68u,
    0x0007b8bu, 0x0007c28u, 0x0007c33u, 0x0007c41u, 0x0007c6bu, 0x0007cc0u, 0x0007ccbu, 0x0007de8u,
    0x0007e33u, 0x0007e38u, 0x0008001u, 0x000815bu, 0x00081f9u, 0x0008202u, 0x0008250u, 0x0008281u,
    0x00082b3u, 0x00082d1u, 0x00082f3u, 0x0008309u, 0x0008313u, 0x0008329u, 0x000833bu, 0x0008371u,
    0x000838bu, 0x00083a9u, 0x0008413u, 0x0008471u, 0x000847bu, 0x0008482u, 0x00084d3u, 0x00084f0u,
    0x0008501u, 0x0008630u, 0x0008639u, 0x0008640u, 0x0008669u, 0x0008670u, 0x0008681u, 0x00087d8u,
    0x00087e1u, 0x0009248u, 0x0009251u, 0x0009270u, 0x0009281u, 0x00092b8u, 0x00092c1u, 0x00092c8u,
    0x00092d1u, 0x00092f0u, 0x0009301u, 0x0009448u, 0x0009451u, 0x0009470u, 0x0009481u, 0x0009588u,
    0x0009591u, 0x00095b0u, 0x00095c1u, 0x00095f8u, 0x0009601u, 0x0009608u, 0x0009611u, 0x0009630u,
    0x0009641u, 0x00096b8u, 0x00096c1u, 0x0009888u, 0x0009891u, 0x00098b0u, 0x00098c1u, 0x0009ad8u,
    0x0009aebu, 0x0009b00u, 0x0009b4au, 0x0009be8u, 0x0009c01u, 0x0009c80u, 0x0009d01u, 0x0009fb0u,
    0x0009fc1u, 0x0009ff0u, 0x000a009u, 0x000b368u, 0x000b379u, 0x000b404u, 0x000b409u, 0x000b4d8u,
    0x000b501u, 0x000b758u, 0x000b772u, 0x000b789u, 0x000b7c8u, 0x000b801u, 0x000b893u, 0x000b8b0u,
    0x000b8f9u, 0x000b993u, 0x000b9a8u, 0x000ba01u, 0x000ba93u, 0x000baa0u, 0x000bb01u, 0x000bb68u,
    0x000bb71u, 0x000bb88u, 0x000bb93u, 0x000bba0u, 0x000bc01u, 0x000bda3u, 0x000bea0u, 0x000beb9u,
    0x000bec0u, 0x000bee1u, 0x000beebu, 0x000bef0u, 0x000bf02u, 0x000bf50u, 0x000bf82u, 0x000bfd0u,
    0x000c05bu, 0x000c070u, 0x000c07bu, 0x000c082u, 0x000c0d0u, 0x000c101u, 0x000c3c8u, 0x000c401u,
    0x000c42bu, 0x000c439u, 0x000c54bu, 0x000c551u, 0x000c558u, 0x000c581u, 0x000c7b0u, 0x000c801u,
    0x000c8f8u, 0x000c903u, 0x000c960u, 0x000c983u, 0x000c9e0u, 0x000ca32u, 0x000ca81u, 0x000cb70u,
    0x000cb81u, 0x000cba8u, 0x000cc01u, 0x000cd60u, 0x000cd81u, 0x000ce50u, 0x000ce82u, 0x000ced8u,
    0x000d001u, 0x000d0bbu, 0x000d0e0u, 0x000d101u, 0x000d2abu, 0x000d2f8u, 0x000d303u, 0x000d3e8u,
    0x000d3fbu, 0x000d402u, 0x000d450u, 0x000d482u, 0x000d4d0u, 0x000d539u, 0x000d540u, 0x000d583u,
    0x000d678u, 0x000d803u, 0x000d829u, 0x000d9a3u, 0x000da29u, 0x000da68u, 0x000da82u, 0x000dad0u,
    0x000db5bu, 0x000dba0u, 0x000dc03u, 0x000dc19u, 0x000dd0bu, 0x000dd71u, 0x000dd82u, 0x000ddd1u,
    0x000df33u, 0x000dfa0u, 0x000e001u, 0x000e123u, 0x000e1c0u, 0x000e202u, 0x000e250u, 0x000e269u,
    0x000e282u, 0x000e2d1u, 0x000e3f0u, 0x000e401u, 0x000e448u, 0x000e481u, 0x000e5d8u, 0x000e5e9u,
    0x000e600u, 0x000e683u, 0x000e698u, 0x000e6a3u, 0x000e749u, 0x000e76bu, 0x000e771u, 0x000e7a3u,
    0x000e7a9u, 0x000e7bbu, 0x000e7d1u, 0x000e7d8u, 0x000e801u, 0x000ee03u, 0x000f001u, 0x000f8b0u,
    0x000f8c1u, 0x000f8f0u, 0x000f901u, 0x000fa30u, 0x000fa41u, 0x000fa70u, 0x000fa81u, 0x000fac0u,
    0x000fac9u, 0x000fad0u, 0x000fad9u, 0x000fae0u, 0x000fae9u, 0x000faf0u, 0x000faf9u, 0x000fbf0u,
    0x000fc01u, 0x000fda8u, 0x000fdb1u, 0x000fde8u, 0x000fdf1u, 0x000fdf8u, 0x000fe11u, 0x000fe28u,
    0x000fe31u, 0x000fe68u, 0x000fe81u, 0x000fea0u, 0x000feb1u, 0x000fee0u, 0x000ff01u, 0x000ff68u,
    0x000ff91u, 0x000ffa8u, 0x000ffb1u, 0x000ffe8u, 0x0010004u, 0x0010058u, 0x0010144u, 0x0010150u,
    0x001017cu, 0x0010180u, 0x00102fcu, 0x0010300u, 0x0010382u, 0x0010389u, 0x0010390u, 0x00103a2u,
    0x00103d0u, 0x00103f9u, 0x0010402u, 0x0010450u, 0x0010481u, 0x00104e8u, 0x0010683u, 0x0010788u,
    0x0010811u, 0x0010818u, 0x0010839u, 0x0010840u, 0x0010851u, 0x00108a0u, 0x00108a9u, 0x00108b0u,
    0x00108c9u, 0x00108f0u, 0x0010921u, 0x0010928u, 0x0010931u, 0x0010938u, 0x0010941u, 0x0010948u,
    0x0010951u, 0x0010970u, 0x0010979u, 0x00109d0u, 0x00109e1u, 0x0010a00u, 0x0010a29u, 0x0010a50u,
    0x0010a71u, 0x0010a78u, 0x0010a82u, 0x0010c19u, 0x0010c2au, 0x0010c50u, 0x0012302u, 0x00124e0u,
    0x0012752u, 0x0012800u, 0x0013bb2u, 0x0013ca0u, 0x0016001u, 0x0016728u, 0x0016759u, 0x001677bu,
    0x0016791u, 0x00167a0u, 0x00167eau, 0x00167f0u, 0x0016801u, 0x0016930u, 0x0016939u, 0x0016940u,
    0x0016969u, 0x0016970u, 0x0016981u, 0x0016b40u, 0x0016b79u, 0x0016b80u, 0x0016bfbu, 0x0016c01u,
    0x0016cb8u, 0x0016d01u, 0x0016d38u, 0x0016d41u, 0x0016d78u, 0x0016d81u, 0x0016db8u, 0x0016dc1u,
    0x0016df8u, 0x0016e01u, 0x0016e38u, 0x0016e41u, 0x0016e78u, 0x0016e81u, 0x0016eb8u, 0x0016ec1u,
    0x0016ef8u, 0x0016f03u, 0x0017000u, 0x0017179u, 0x0017180u, 0x0018004u, 0x0018008u, 0x0018029u,
    0x001803au, 0x0018040u, 0x001810au, 0x0018153u, 0x0018180u, 0x0018189u, 0x00181b0u, 0x00181c2u,
    0x00181d9u, 0x00181e8u, 0x0018209u, 0x00184b8u, 0x00184cbu, 0x00184d8u, 0x00184e9u, 0x0018500u,
    0x0018509u, 0x00187d8u, 0x00187e1u, 0x0018800u, 0x0018829u, 0x0018980u, 0x0018989u, 0x0018c78u,
    0x0018c92u, 0x0018cb0u, 0x0018d01u, 0x0018e00u, 0x0018f81u, 0x0019000u, 0x0019102u, 0x0019150u,
    0x0019242u, 0x0019280u, 0x001928au, 0x0019300u, 0x0019402u, 0x0019450u, 0x001958au, 0x0019600u,
    0x001a001u, 0x0026e00u, 0x0027001u, 0x0052468u, 0x0052681u, 0x00527f0u, 0x0052801u, 0x0053068u,
    0x0053081u, 0x0053102u, 0x0053151u, 0x0053160u, 0x0053201u, 0x005337bu, 0x0053398u, 0x00533a3u,
    0x00533f0u, 0x00533f9u, 0x00534f3u, 0x0053501u, 0x0053732u, 0x0053783u, 0x0053790u, 0x00538b9u,
    0x0053900u, 0x0053911u, 0x0053c48u, 0x0053c59u, 0x0053e58u, 0x0053e81u, 0x0053e90u, 0x0053e99u,
    0x0053ea0u, 0x0053ea9u, 0x0053ed0u, 0x0053f91u, 0x0054013u, 0x0054019u, 0x0054033u, 0x0054039u,
    0x005405bu, 0x0054061u, 0x005411bu, 0x0054140u, 0x0054163u, 0x0054168u, 0x0054182u, 0x00541b0u,
    0x0054201u, 0x00543a0u, 0x0054403u, 0x0054411u, 0x00545a3u, 0x0054630u, 0x0054682u, 0x00546d0u,
    0x0054703u, 0x0054791u, 0x00547c0u, 0x00547d9u, 0x00547e0u, 0x00547e9u, 0x00547fbu, 0x0054802u,
    0x0054851u, 0x0054933u, 0x0054970u, 0x0054981u, 0x0054a3bu, 0x0054aa0u, 0x0054b01u, 0x0054be8u,
    0x0054c03u, 0x0054c21u, 0x0054d9bu, 0x0054e08u, 0x0054e79u, 0x0054e82u, 0x0054ed0u, 0x0054f01u,
    0x0054f2bu, 0x0054f31u, 0x0054f82u, 0x0054fd1u, 0x0054ff8u, 0x0055001u, 0x005514bu, 0x00551b8u,
    0x0055201u, 0x005521bu, 0x0055221u, 0x0055263u, 0x0055270u, 0x0055282u, 0x00552d0u, 0x0055301u,
    0x00553b8u, 0x00553d1u, 0x00553dbu, 0x00553f1u, 0x0055583u, 0x0055589u, 0x0055593u, 0x00555a9u,
    0x00555bbu, 0x00555c9u, 0x00555f3u, 0x0055601u, 0x005560bu, 0x0055611u, 0x0055618u, 0x00556d9u,
    0x00556f0u, 0x0055701u, 0x005575bu, 0x0055780u, 0x0055791u, 0x00557abu, 0x00557b8u, 0x0055809u,
    0x0055838u, 0x0055849u, 0x0055878u, 0x0055889u, 0x00558b8u, 0x0055901u, 0x0055938u, 0x0055941u,
    0x0055978u, 0x0055981u, 0x0055ad8u, 0x0055ae1u, 0x0055b50u, 0x0055b81u, 0x0055f1bu, 0x0055f58u,
    0x0055f63u, 0x0055f70u, 0x0055f82u, 0x0055fd0u, 0x0056001u, 0x006bd20u, 0x006bd81u, 0x006be38u,
    0x006be59u, 0x006bfe0u, 0x007c801u, 0x007d370u, 0x007d381u, 0x007d6d0u, 0x007d801u, 0x007d838u,
    0x007d899u, 0x007d8c0u, 0x007d8e9u, 0x007d8f3u, 0x007d8f9u, 0x007d948u, 0x007d951u, 0x007d9b8u,
    0x007d9c1u, 0x007d9e8u, 0x007d9f1u, 0x007d9f8u, 0x007da01u, 0x007da10u, 0x007da19u, 0x007da28u,
    0x007da31u, 0x007dd90u, 0x007de99u, 0x007e9f0u, 0x007ea81u, 0x007ec80u, 0x007ec91u, 0x007ee40u,
    0x007ef81u, 0x007efe0u, 0x007f003u, 0x007f080u, 0x007f103u, 0x007f180u, 0x007f381u, 0x007f3a8u,
    0x007f3b1u, 0x007f7e8u, 0x007f7fdu, 0x007f800u, 0x007f882u, 0x007f8d0u, 0x007f909u, 0x007f9d8u,
    0x007fa09u, 0x007fad8u, 0x007fb31u, 0x007fdf8u, 0x007fe11u, 0x007fe40u, 0x007fe51u, 0x007fe80u,
    0x007fe91u, 0x007fec0u, 0x007fed1u, 0x007fee8u, 0x0080001u, 0x0080060u, 0x0080069u, 0x0080138u,
    0x0080141u, 0x00801d8u, 0x00801e1u, 0x00801f0u, 0x00801f9u, 0x0080270u, 0x0080281u, 0x00802f0u,
    0x0080401u, 0x00807d8u, 0x008083au, 0x00809a0u, 0x0080a02u, 0x0080bc8u, 0x0080c52u, 0x0080c60u,
    0x0080febu, 0x0080ff0u, 0x0081401u, 0x00814e8u, 0x0081501u, 0x0081688u, 0x0081703u, 0x008170au,
    0x00817e0u, 0x0081801u, 0x0081902u, 0x0081920u, 0x0081969u, 0x0081a0au, 0x0081a11u, 0x0081a52u,
    0x0081a58u, 0x0081a81u, 0x0081bb3u, 0x0081bd8u, 0x0081c01u, 0x0081cf0u, 0x0081d01u, 0x0081e20u,
    0x0081e41u, 0x0081e80u, 0x0081e8au, 0x0081eb0u, 0x0082001u, 0x00824f0u, 0x0082502u, 0x0082550u,
    0x0082581u, 0x00826a0u, 0x00826c1u, 0x00827e0u, 0x0082801u, 0x0082940u, 0x0082981u, 0x0082b20u,
    0x0082b81u, 0x0082bd8u, 0x0082be1u, 0x0082c58u, 0x0082c61u, 0x0082c98u, 0x0082ca1u, 0x0082cb0u,
    0x0082cb9u, 0x0082d10u, 0x0082d19u, 0x0082d90u, 0x0082d99u, 0x0082dd0u, 0x0082dd9u, 0x0082de8u,
    0x0083001u, 0x00839b8u, 0x0083a01u, 0x0083ab0u, 0x0083b01u, 0x0083b40u, 0x0083c01u, 0x0083c30u,
    0x0083c39u, 0x0083d88u, 0x0083d91u, 0x0083dd8u, 0x0084001u, 0x0084030u, 0x0084041u, 0x0084048u,
    0x0084051u, 0x00841b0u, 0x00841b9u, 0x00841c8u, 0x00841e1u, 0x00841e8u, 0x00841f9u, 0x00842b0u,
    0x00842c2u, 0x0084301u, 0x00843b8u, 0x00843cau, 0x0084401u, 0x00844f8u, 0x008453au, 0x0084580u,
    0x0084701u, 0x0084798u, 0x00847a1u, 0x00847b0u, 0x00847dau, 0x0084801u, 0x00848b2u, 0x00848e0u,
    0x0084901u, 0x00849d0u, 0x0084c01u, 0x0084dc0u, 0x0084de2u, 0x0084df1u, 0x0084e02u, 0x0084e80u,
    0x0084e92u, 0x0085001u, 0x008500bu, 0x0085020u, 0x008502bu, 0x0085038u, 0x0085063u, 0x0085081u,
    0x00850a0u, 0x00850a9u, 0x00850c0u, 0x00850c9u, 0x00851b0u, 0x00851c3u, 0x00851d8u, 0x00851fbu,
    0x0085202u, 0x0085248u, 0x0085301u, 0x00853eau, 0x00853f8u, 0x0085401u, 0x00854eau, 0x0085500u,
    0x0085601u, 0x0085640u, 0x0085649u, 0x008572bu, 0x0085738u, 0x008575au, 0x0085780u, 0x0085801u,
    0x00859b0u, 0x0085a01u, 0x0085ab0u, 0x0085ac2u, 0x0085b01u, 0x0085b98u, 0x0085bc2u, 0x0085c01u,
    0x0085c90u, 0x0085d4au, 0x0085d80u, 0x0086001u, 0x0086248u, 0x0086401u, 0x0086598u, 0x0086601u,
    0x0086798u, 0x00867d2u, 0x0086801u, 0x0086923u, 0x0086940u, 0x0086982u, 0x00869d0u, 0x0087302u,
    0x00873f8u, 0x0087401u, 0x0087550u, 0x008755bu, 0x0087568u, 0x0087581u, 0x0087590u, 0x00877ebu,
    0x0087801u, 0x00878eau, 0x0087939u, 0x0087940u, 0x0087981u, 0x0087a33u, 0x0087a8au, 0x0087aa8u,
    0x0087b81u, 0x0087c13u, 0x0087c30u, 0x0087d81u, 0x0087e2au, 0x0087e60u, 0x0087f01u, 0x0087fb8u,
    0x0088003u, 0x0088019u, 0x00881c3u, 0x0088238u, 0x0088292u, 0x0088383u, 0x0088389u, 0x008839bu,
    0x00883a9u, 0x00883b0u, 0x00883fbu, 0x0088419u, 0x0088583u, 0x00885d8u, 0x0088613u, 0x0088618u,
    0x0088681u, 0x0088748u, 0x0088782u, 0x00887d0u, 0x0088803u, 0x0088819u, 0x008893bu, 0x00889a8u,
    0x00889b2u, 0x0088a00u, 0x0088a21u, 0x0088a2bu, 0x0088a39u, 0x0088a40u, 0x0088a81u, 0x0088b9bu,
    0x0088ba0u, 0x0088bb1u, 0x0088bb8u, 0x0088c03u, 0x0088c19u, 0x0088d9bu, 0x0088e09u, 0x0088e28u,
    0x0088e4bu, 0x0088e68u, 0x0088e73u, 0x0088e82u, 0x0088ed1u, 0x0088ed8u, 0x0088ee1u, 0x0088ee8u,
    0x0088f0au, 0x0088fa8u, 0x0089001u, 0x0089090u, 0x0089099u, 0x0089163u, 0x00891c0u, 0x00891f3u,
    0x00891f9u, 0x008920bu, 0x0089210u, 0x0089401u, 0x0089438u, 0x0089441u, 0x0089448u, 0x0089451u,
    0x0089470u, 0x0089479u, 0x00894f0u, 0x00894f9u, 0x0089548u, 0x0089581u, 0x00896fbu, 0x0089758u,
    0x0089782u, 0x00897d0u, 0x0089803u, 0x0089820u, 0x0089829u, 0x0089868u, 0x0089879u, 0x0089888u,
    0x0089899u, 0x0089948u, 0x0089951u, 0x0089988u, 0x0089991u, 0x00899a0u, 0x00899a9u, 0x00899d0u,
    0x00899dbu, 0x00899e9u, 0x00899f3u, 0x0089a28u, 0x0089a3bu, 0x0089a48u, 0x0089a5bu, 0x0089a70u,
    0x0089a81u, 0x0089a88u, 0x0089abbu, 0x0089ac0u, 0x0089ae9u, 0x0089b13u, 0x0089b20u, 0x0089b33u,
    0x0089b68u, 0x0089b83u, 0x0089ba8u, 0x008a001u, 0x008a1abu, 0x008a239u, 0x008a258u, 0x008a282u,
    0x008a2d0u, 0x008a2f3u, 0x008a2f9u, 0x008a310u, 0x008a401u, 0x008a583u, 0x008a621u, 0x008a630u,
    0x008a639u, 0x008a640u, 0x008a682u, 0x008a6d0u, 0x008ac01u, 0x008ad7bu, 0x008adb0u, 0x008adc3u,
    0x008ae08u, 0x008aec1u, 0x008aee3u, 0x008aef0u, 0x008b001u, 0x008b183u, 0x008b208u, 0x008b221u,
    0x008b228u, 0x008b282u, 0x008b2d0u, 0x008b401u, 0x008b55bu, 0x008b5c1u, 0x008b5c8u, 0x008b602u,
    0x008b650u, 0x008b801u, 0x008b8d8u, 0x008b8ebu, 0x008b960u, 0x008b982u, 0x008b9e0u, 0x008ba01u,
    0x008ba38u, 0x008c001u, 0x008c163u, 0x008c1d8u, 0x008c501u, 0x008c702u, 0x008c798u, 0x008c7f9u,
    0x008c838u, 0x008c849u, 0x008c850u, 0x008c861u, 0x008c8a0u, 0x008c8a9u, 0x008c8b8u, 0x008c8c1u,
    0x008c983u, 0x008c9b0u, 0x008c9bbu, 0x008c9c8u, 0x008c9dbu, 0x008c9f9u, 0x008ca03u, 0x008ca09u,
    0x008ca13u, 0x008ca20u, 0x008ca82u, 0x008cad0u, 0x008cd01u, 0x008cd40u, 0x008cd51u, 0x008ce8bu,
    0x008cec0u, 0x008ced3u, 0x008cf09u, 0x008cf10u, 0x008cf19u, 0x008cf23u, 0x008cf28u, 0x008d001u,
    0x008d00bu, 0x008d059u, 0x008d19bu, 0x008d1d1u, 0x008d1dbu, 0x008d1f8u, 0x008d23bu, 0x008d240u,
    0x008d281u, 0x008d28bu, 0x008d2e1u, 0x008d453u, 0x008d4d0u, 0x008d4e9u, 0x008d4f0u, 0x008d581u,
    0x008d7c8u, 0x008e001u, 0x008e048u, 0x008e051u, 0x008e17bu, 0x008e1b8u, 0x008e1c3u, 0x008e201u,
    0x008e208u, 0x008e282u, 0x008e368u, 0x008e391u, 0x008e480u, 0x008e493u, 0x008e540u, 0x008e54bu,
    0x008e5b8u, 0x008e801u, 0x008e838u, 0x008e841u, 0x008e850u, 0x008e859u, 0x008e98bu, 0x008e9b8u,
    0x008e9d3u, 0x008e9d8u, 0x008e9e3u, 0x008e9f0u, 0x008e9fbu, 0x008ea31u, 0x008ea3bu, 0x008ea40u,
    0x008ea82u, 0x008ead0u, 0x008eb01u, 0x008eb30u, 0x008eb39u, 0x008eb48u, 0x008eb51u, 0x008ec53u,
    0x008ec78u, 0x008ec83u, 0x008ec90u, 0x008ec9bu, 0x008ecc1u, 0x008ecc8u, 0x008ed02u, 0x008ed50u,
    0x008f701u, 0x008f79bu, 0x008f7b8u, 0x008f803u, 0x008f811u, 0x008f81bu, 0x008f821u, 0x008f888u,
    0x008f891u, 0x008f9a3u, 0x008f9d8u, 0x008f9f3u, 0x008fa18u, 0x008fa82u, 0x008fad0u, 0x008fd81u,
    0x008fd88u, 0x008fe02u, 0x008fea8u, 0x0090001u, 0x0091cd0u, 0x0092002u, 0x0092378u, 0x0092401u,
    0x0092a20u, 0x0097c81u, 0x0097f88u, 0x0098001u, 0x009a180u, 0x009a203u, 0x009a209u, 0x009a23bu,
    0x009a2b0u, 0x00a2001u, 0x00a3238u, 0x00b4001u, 0x00b51c8u, 0x00b5201u, 0x00b52f8u, 0x00b5302u,
    0x00b5350u, 0x00b5381u, 0x00b55f8u, 0x00b5602u, 0x00b5650u, 0x00b5681u, 0x00b5770u, 0x00b5783u,
    0x00b57a8u, 0x00b5801u, 0x00b5983u, 0x00b59b8u, 0x00b5a01u, 0x00b5a20u, 0x00b5a82u, 0x00b5ad0u,
    0x00b5adau, 0x00b5b10u, 0x00b5b19u, 0x00b5bc0u, 0x00b5be9u, 0x00b5c80u, 0x00b7201u, 0x00b7402u,
    0x00b74b8u, 0x00b7801u, 0x00b7a58u, 0x00b7a7bu, 0x00b7a81u, 0x00b7a8bu, 0x00b7c40u, 0x00b7c7bu,
    0x00b7c99u, 0x00b7d00u, 0x00b7f01u, 0x00b7f10u, 0x00b7f19u, 0x00b7f23u, 0x00b7f28u, 0x00b7f83u,
    0x00b7f90u, 0x00b8001u, 0x00c3fc0u, 0x00c4001u, 0x00c66b0u, 0x00c6801u, 0x00c6848u, 0x00d7f81u,
    0x00d7fa0u, 0x00d7fa9u, 0x00d7fe0u, 0x00d7fe9u, 0x00d7ff8u, 0x00d8001u, 0x00d8918u, 0x00d8991u,
    0x00d8998u, 0x00d8a81u, 0x00d8a98u, 0x00d8aa9u, 0x00d8ab0u, 0x00d8b21u, 0x00d8b40u, 0x00d8b81u,
    0x00d97e0u, 0x00de001u, 0x00de358u, 0x00de381u, 0x00de3e8u, 0x00de401u, 0x00de448u, 0x00de481u,
    0x00de4d0u, 0x00de4ebu, 0x00de4f8u, 0x00e7803u, 0x00e7970u, 0x00e7983u, 0x00e7a38u, 0x00e8b2bu,
    0x00e8b50u, 0x00e8b6bu, 0x00e8b98u, 0x00e8bdbu, 0x00e8c18u, 0x00e8c2bu, 0x00e8c60u, 0x00e8d53u,
    0x00e8d70u, 0x00e9213u, 0x00e9228u, 0x00e9602u, 0x00e96a0u, 0x00e9702u, 0x00e97a0u, 0x00e9b02u,
    0x00e9bc8u, 0x00ea001u, 0x00ea2a8u, 0x00ea2b1u, 0x00ea4e8u, 0x00ea4f1u, 0x00ea500u, 0x00ea511u,
    0x00ea518u, 0x00ea529u, 0x00ea538u, 0x00ea549u, 0x00ea568u, 0x00ea571u, 0x00ea5d0u, 0x00ea5d9u,
    0x00ea5e0u, 0x00ea5e9u, 0x00ea620u, 0x00ea629u, 0x00ea830u, 0x00ea839u, 0x00ea858u, 0x00ea869u,
    0x00ea8a8u, 0x00ea8b1u, 0x00ea8e8u, 0x00ea8f1u, 0x00ea9d0u, 0x00ea9d9u, 0x00ea9f8u, 0x00eaa01u,
    0x00eaa28u, 0x00eaa31u, 0x00eaa38u, 0x00eaa51u, 0x00eaa88u, 0x00eaa91u, 0x00eb530u, 0x00eb541u,
    0x00eb608u, 0x00eb611u, 0x00eb6d8u, 0x00eb6e1u, 0x00eb7d8u, 0x00eb7e1u, 0x00eb8a8u, 0x00eb8b1u,
    0x00eb9a8u, 0x00eb9b1u, 0x00eba78u, 0x00eba81u, 0x00ebb78u, 0x00ebb81u, 0x00ebc48u, 0x00ebc51u,
    0x00ebd48u, 0x00ebd51u, 0x00ebe18u, 0x00ebe21u, 0x00ebe60u, 0x00ebe72u, 0x00ec000u, 0x00ed003u,
    0x00ed1b8u, 0x00ed1dbu, 0x00ed368u, 0x00ed3abu, 0x00ed3b0u, 0x00ed423u, 0x00ed428u, 0x00ed4dbu,
    0x00ed500u, 0x00ed50bu, 0x00ed580u, 0x00ef801u, 0x00ef8f8u, 0x00ef929u, 0x00ef958u, 0x00f0003u,
    0x00f0038u, 0x00f0043u, 0x00f00c8u, 0x00f00dbu, 0x00f0110u, 0x00f011bu, 0x00f0128u, 0x00f0133u,
    0x00f0158u, 0x00f0181u, 0x00f0370u, 0x00f047bu, 0x00f0480u, 0x00f0801u, 0x00f0968u, 0x00f0983u,
    0x00f09b9u, 0x00f09f0u, 0x00f0a02u, 0x00f0a50u, 0x00f0a71u, 0x00f0a78u, 0x00f1481u, 0x00f1573u,
    0x00f1578u, 0x00f1601u, 0x00f1763u, 0x00f1782u, 0x00f17d0u, 0x00f2681u, 0x00f2763u, 0x00f2782u,
    0x00f27d0u, 0x00f3f01u, 0x00f3f38u, 0x00f3f41u, 0x00f3f60u, 0x00f3f69u, 0x00f3f78u, 0x00f3f81u,
    0x00f3ff8u, 0x00f4001u, 0x00f4628u, 0x00f463au, 0x00f4683u, 0x00f46b8u, 0x00f4801u, 0x00f4a23u,
    0x00f4a59u, 0x00f4a60u, 0x00f4a82u, 0x00f4ad0u, 0x00f638au, 0x00f6560u, 0x00f656au, 0x00f6580u,
    0x00f658au, 0x00f65a8u, 0x00f680au, 0x00f6970u, 0x00f697au, 0x00f69f0u, 0x00f7001u, 0x00f7020u,
    0x00f7029u, 0x00f7100u, 0x00f7109u, 0x00f7118u, 0x00f7121u, 0x00f7128u, 0x00f7139u, 0x00f7140u,
    0x00f7149u, 0x00f7198u, 0x00f71a1u, 0x00f71c0u, 0x00f71c9u, 0x00f71d0u, 0x00f71d9u, 0x00f71e0u,
    0x00f7211u, 0x00f7218u, 0x00f7239u, 0x00f7240u, 0x00f7249u, 0x00f7250u, 0x00f7259u, 0x00f7260u,
    0x00f7269u, 0x00f7280u, 0x00f7289u, 0x00f7298u, 0x00f72a1u, 0x00f72a8u, 0x00f72b9u, 0x00f72c0u,
    0x00f72c9u, 0x00f72d0u, 0x00f72d9u, 0x00f72e0u, 0x00f72e9u, 0x00f72f0u, 0x00f72f9u, 0x00f7300u,
    0x00f7309u, 0x00f7318u, 0x00f7321u, 0x00f7328u, 0x00f7339u, 0x00f7358u, 0x00f7361u, 0x00f7398u,
    0x00f73a1u, 0x00f73c0u, 0x00f73c9u, 0x00f73e8u, 0x00f73f1u, 0x00f73f8u, 0x00f7401u, 0x00f7450u,
    0x00f7459u, 0x00f74e0u, 0x00f7509u, 0x00f7520u, 0x00f7529u, 0x00f7550u, 0x00f7559u, 0x00f75e0u,
    0x00f8802u, 0x00f8868u, 0x00fdf82u, 0x00fdfd0u, 0x0100001u, 0x0153700u, 0x0153801u, 0x015b9d0u,
    0x015ba01u, 0x015c0f0u, 0x015c101u, 0x0167510u, 0x0167581u, 0x0175f08u, 0x017c001u, 0x017d0f0u,
    0x0180001u, 0x0189a58u, 0x0189a81u, 0x0191d80u, 0x0700803u, 0x0700f80u,
};
/* END GENERATED XLSUM ONMT TABLE */

/* per code point: step-2 class | step-3 class << 2 | XL_CJK; NULL until first use */
static unsigned char *XL_TABLE;

/* BasicTokenizer._is_chinese_char */
static int xl_is_cjk(uint32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
           (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

/* unicodedata.category(chr(cp))[0], or 0 with an exception set */
static char xl_major_category(PyObject *category, uint32_t cp) {
    PyObject *ch = PyUnicode_FromOrdinal((int)cp);
    if (!ch) return 0;
    PyObject *r = PyObject_CallOneArg(category, ch);
    Py_DECREF(ch);
    if (!r) return 0;
    const char *s = PyUnicode_AsUTF8(r);
    char k = s ? s[0] : 0;
    Py_DECREF(r);
    return k;
}

/* Build XL_TABLE (GIL held).  Step 2 per BERT's _clean_text, whitespace_tokenize and
 * _run_split_on_punc, in that order: deletion wins over whitespace, whitespace over
 * punctuation. */
static int xl_build_table(void) {
    if (XL_TABLE) return 0;
    unsigned char *t = (unsigned char *)malloc(0x110000);
    if (!t) { PyErr_NoMemory(); return -1; }
    PyObject *ud = PyImport_ImportModule("unicodedata");
    PyObject *category = ud ? PyObject_GetAttrString(ud, "category") : NULL;
    Py_XDECREF(ud);
    if (!category) { free(t); return -1; }
    const Py_ssize_t nr = (Py_ssize_t)(sizeof(XL_ONMT_RANGES) / sizeof(XL_ONMT_RANGES[0]));
    Py_ssize_t r = 0;
    for (uint32_t cp = 0; cp < 0x110000; cp++) {
        while (r + 1 < nr && (XL_ONMT_RANGES[r + 1] >> 3) <= cp) r++;
        int on = (int)(XL_ONMT_RANGES[r] & 7), py;
        if (cp == 0 || cp == 0xFFFD || (cp >= 0xD800 && cp <= 0xDFFF)) py = XP_DROP;
        else if (cp < 0x80) {
            if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r') py = XP_SPACE;
            else if (cp < 0x20 || cp == 0x7F) py = XP_DROP;
            else if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
                     (cp >= 123 && cp <= 126)) py = XP_PUNCT;
            else py = XP_KEEP;
        } else if (Py_UNICODE_ISSPACE(cp)) {
            /* Zs, Zl, Zp, or a control str.split() splits on (U+0085): the latter is deleted */
            char k = xl_major_category(category, cp);
            if (!k) goto fail;
            py = k == 'C' ? XP_DROP : XP_SPACE;
        } else if (!Py_UNICODE_ISPRINTABLE(cp)) py = XP_DROP;   /* C*: every Z* is isspace */
        else if (Py_UNICODE_ISALPHA(cp)) py = XP_KEEP;           /* L* */
        else {
            char k = xl_major_category(category, cp);
            if (!k) goto fail;
            py = k == 'P' ? XP_PUNCT : XP_KEEP;
        }
        t[cp] = (unsigned char)(py | on << 2 | (xl_is_cjk(cp) ? XL_CJK : 0));
    }
    Py_DECREF(category);
    XL_TABLE = t;
    return 0;
fail:
    Py_DECREF(category);
    free(t);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "unicodedata.category failed");
    return -1;
}

/* One code point of UTF-8 (as Python encodes str, surrogatepass included) at p < end. */
static inline uint32_t xl_next(const unsigned char *p, const unsigned char *end, int *len) {
    unsigned char b = p[0];
    if (b < 0x80) { *len = 1; return b; }
    if (b >= 0xF0) {
        if (p + 4 <= end) {
            uint32_t cp = (uint32_t)(b & 7) << 18 | (uint32_t)(p[1] & 63) << 12 | (uint32_t)(p[2] & 63) << 6 | (p[3] & 63);
            *len = 4;
            return cp <= 0x10FFFF ? cp : 0xFFFD;   /* XL_TABLE's bound */
        }
    } else if (b >= 0xE0) {
        if (p + 3 <= end) { *len = 3; return (uint32_t)(b & 15) << 12 | (uint32_t)(p[1] & 63) << 6 | (p[2] & 63); }
    } else if (b >= 0xC0) {
        if (p + 2 <= end) { *len = 2; return (uint32_t)(b & 31) << 6 | (p[1] & 63); }
    }
    *len = 1;   /* not produced by Python's encoder: an undecodable byte, deleted like U+FFFD */
    return 0xFFFD;
}

/* A token: its UTF-8 bytes, and its code points when cps is given (to build a str at once) */
typedef int (*xl_sink)(void *ctx, const char *s, Py_ssize_t n, const uint32_t *cps, Py_ssize_t ncp);

typedef struct {
    xl_sink sink; void *ctx;
    char *buf;            /* the token being built: room for the input's bytes + 16 */
    Py_ssize_t len;
    int cjk;              /* it holds a CJK ideograph */
    uint32_t *cps;        /* NULL, or its code points: room for the input's + 16 */
    Py_ssize_t ncp;
} XLTok;

/* Step 4 on a finished step-3 token, then the sink. */
static int xl_flush(XLTok *t) {
    if (!t->len) return 0;
    Py_ssize_t n = t->len, ncp = t->ncp;
    t->len = t->ncp = 0;
    if (!t->cjk) return t->sink(t->ctx, t->buf, n, t->cps, ncp);
    t->cjk = 0;
    const unsigned char *p = (const unsigned char *)t->buf, *end = p + n, *run = p;
    Py_ssize_t k = 0, krun = 0;   /* code point index of p and of run */
    const uint32_t *cps = t->cps;
    while (p < end) {
        int l;
        uint32_t cp = xl_next(p, end, &l);
        if (xl_is_cjk(cp)) {
            if (p > run && t->sink(t->ctx, (const char *)run, (Py_ssize_t)(p - run), cps ? cps + krun : NULL, k - krun))
                return -1;
            if (t->sink(t->ctx, (const char *)p, l, cps ? cps + k : NULL, 1)) return -1;
            run = p + l;
            krun = k + 1;
        }
        p += l;
        k++;
    }
    if (end > run && t->sink(t->ctx, (const char *)run, (Py_ssize_t)(end - run), cps ? cps + krun : NULL, k - krun))
        return -1;
    return 0;
}

static inline void xl_put(XLTok *t, const unsigned char *p, int l, uint32_t cp) {
    char *d = t->buf + t->len;   /* l <= 4: a loop, not a call to memcpy */
    for (int k = 0; k < l; k++) d[k] = (char)p[k];
    t->len += l;
    if (t->cps) t->cps[t->ncp++] = cp;
}

/* "％" and the code point in (at least) four lowercase hex digits: C's "%04x" */
static void xl_put_protected(XLTok *t, uint32_t cp) {
    static const char hex[] = "0123456789abcdef";
    char digits[8];
    int n = 0;
    do { digits[n++] = hex[cp & 15]; cp >>= 4; } while (cp || n < 4);
    xl_put(t, (const unsigned char *)"\xef\xbc\x85", 3, 0xFF05);
    while (n) {
        char d = digits[--n];
        xl_put(t, (const unsigned char *)&d, 1, (uint32_t)(unsigned char)d);
    }
}

/* pyonmttok's substitutes: *sub (UTF-8) and the code point returned, or 0 */
static uint32_t xl_substitute(uint32_t cp, const char **sub) {
    switch (cp) {
    case 0x2581: *sub = "_"; return '_';
    case 0xFFED: *sub = "\xe2\x96\xa0"; return 0x25A0;
    case 0xFFE8: *sub = "\xe2\x94\x82"; return 0x2502;
    case 0xFF05: *sub = "%"; return '%';
    case 0xFF03: *sub = "#"; return '#';
    case 0xFF1A: *sub = ":"; return ':';
    default: return 0;
    }
}

enum { XS_SPACE = 0, XS_LETTER, XS_NUMBER, XS_OTHER, XS_MARK };

/* Tokens of lowercased UTF-8 text p[0:n] under mode TOK_XLSUM or TOK_XLSUM_BASIC, to t->sink.
 * *seen: whether a word came before (texts tokenized line by line carry it across lines so
 * that the lines' tokens are the whole text's). */
static int xl_tokenize(const char *text, Py_ssize_t n, int mode, int *seen, XLTok *t) {
    const unsigned char *p = (const unsigned char *)text, *end = p + n;
    const unsigned char *tab = XL_TABLE;
    int in_word = 0, state = XS_SPACE;
    uint32_t prevsep = 0;
    t->len = t->ncp = 0;
    t->cjk = 0;
    while (p < end) {
        int l;
        uint32_t cp = xl_next(p, end, &l);
        unsigned b = tab[cp];
        const unsigned char *c = p;
        p += l;
        int py = b & 3;
        if (py == XP_DROP) continue;
        if (py != XP_KEEP) {                      /* whitespace, punctuation: a word ends */
            if (in_word && xl_flush(t)) return -1;
            in_word = 0;
            state = XS_SPACE;
            continue;
        }
        if (mode == TOK_XLSUM_BASIC) { xl_put(t, c, l, cp); in_word = 1; continue; }
        if (!in_word) {
            in_word = 1;
            prevsep = *seen ? 0x20 : 0;           /* the " " joining BasicTokenizer's words */
            *seen = 1;
            state = XS_SPACE;
        }
        switch ((b >> 2) & 7) {
        case XO_LETTER:
            if (state != XS_LETTER && xl_flush(t)) return -1;
            xl_put(t, c, l, cp);
            state = XS_LETTER;
            break;
        case XO_NUMBER:
            if (state != XS_NUMBER && xl_flush(t)) return -1;
            xl_put(t, c, l, cp);
            state = XS_NUMBER;
            break;
        case XO_MARK:
            if (state == XS_SPACE) {
                if (xl_flush(t)) return -1;
                if (prevsep) xl_put_protected(t, prevsep);
                state = XS_MARK;
            }
            xl_put(t, c, l, cp);
            break;
        case XO_SEP:      /* unreachable after step 2 (every Z* is whitespace); kept exact */
            if (xl_flush(t)) return -1;
            state = XS_SPACE;
            prevsep = cp;
            break;
        case XO_SKIP:     /* C0 controls and U+FEFF: deleted by step 2 already */
        case XO_NUL:
            break;
        default: {        /* other: a token of its own, which marks may continue */
            if (xl_flush(t)) return -1;
            const char *sub;
            uint32_t scp = xl_substitute(cp, &sub);
            if (scp) xl_put(t, (const unsigned char *)sub, (int)strlen(sub), scp);
            else xl_put(t, c, l, cp);
            state = XS_OTHER;
        }
        }
        if (b & XL_CJK) t->cjk = 1;
    }
    return xl_flush(t);
}

/* str.split() on UTF-8 text: maximal runs without Python whitespace, unchanged. */
static int ws_tokenize(const char *text, Py_ssize_t n, xl_sink sink, void *ctx) {
    const unsigned char *p = (const unsigned char *)text, *end = p + n, *start = NULL;
    while (p < end) {
        int l;
        uint32_t cp = xl_next(p, end, &l);
        if (Py_UNICODE_ISSPACE(cp)) {
            if (start && sink(ctx, (const char *)start, (Py_ssize_t)(p - start), NULL, 0)) return -1;
            start = NULL;
        } else if (!start) start = p;
        p += l;
    }
    if (start && sink(ctx, (const char *)start, (Py_ssize_t)(end - start), NULL, 0)) return -1;
    return 0;
}

typedef struct { Ctx *c; IVec *out; } XLEmit;

static int xl_emit_sink(void *ctx, const char *s, Py_ssize_t n, const uint32_t *cps, Py_ssize_t ncp) {
    XLEmit *e = (XLEmit *)ctx;
    return emit(e->c, s, n, head_of(s, n), e->out);
}

/* The Worker's reader for tokenizer != "perl": each line (see collect_lines) tokenized; in
 * flavor rouge_score the lines carry *seen, so the tokens are those of the whole text, as the
 * anchor tokenizes it; in rouge155 and paper each line is a text of its own. */
static int read_text_unicode(Ctx *c, const Src *s, const Span *items, TextBuf *tb) {
    WorkerObject *w = c->w;
    EngineObject *e = w->eng;
    int rs = e->flavor == FLAVOR_RS, seen = 0;
    tb->tok.n = tb->stok.n = tb->send.n = tb->ftok.n = 0;
    tb->stok_alias = tb->ftok_alias = 1;
    if (collect_lines(c, s, items, rs)) return -1;
    for (Py_ssize_t k = 0; k < w->nlines; k++) {
        const char *p = w->lines[k].p;
        Py_ssize_t n = w->lines[k].n;
        XLEmit em = {c, &tb->tok};
        /* at most one token per input byte */
        if (grow((void **)&tb->tok.v, &tb->tok.cap, tb->tok.n + n + 2, sizeof(int32_t))) goto nomem;
        if (e->tokenizer == TOK_WHITESPACE) {
            if (ws_tokenize(p, n, xl_emit_sink, &em)) return -1;
        } else {
            if (ensure_tbuf(c, n + 16)) return -1;
            XLTok t = {xl_emit_sink, &em, w->tbuf, 0, 0, NULL, 0};
            if (!rs) seen = 0;
            if (xl_tokenize(p, n, e->tokenizer, &seen, &t)) return -1;
        }
        if (e->needs_sentences && ivec_push(&tb->send, (int32_t)tb->tok.n)) goto nomem;
    }
    return 0;
nomem:
    c->err = ERR_NOMEM;
    return -1;
}

/* a str of code points, in its canonical (smallest) kind: no decoding, one allocation */
static int xl_list_sink(void *ctx, const char *s, Py_ssize_t n, const uint32_t *cps, Py_ssize_t ncp) {
    uint32_t mx = 0;
    for (Py_ssize_t k = 0; k < ncp; k++) mx = cps[k] > mx ? cps[k] : mx;
    PyObject *tok = PyUnicode_New(ncp, mx);
    if (!tok) return -1;
    int kind = PyUnicode_KIND(tok);
    void *data = PyUnicode_DATA(tok);
    if (kind == PyUnicode_1BYTE_KIND) for (Py_ssize_t k = 0; k < ncp; k++) ((Py_UCS1 *)data)[k] = (Py_UCS1)cps[k];
    else if (kind == PyUnicode_2BYTE_KIND) for (Py_ssize_t k = 0; k < ncp; k++) ((Py_UCS2 *)data)[k] = (Py_UCS2)cps[k];
    else for (Py_ssize_t k = 0; k < ncp; k++) ((Py_UCS4 *)data)[k] = cps[k];
    int rc = PyList_Append((PyObject *)ctx, tok);
    Py_DECREF(tok);
    return rc;
}

/* xlsum_tokenize(text, pretokenize=True) */
static PyObject *mod_xlsum_tokenize(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"text", "pretokenize", NULL};
    PyObject *text;
    int pretok = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "U|p:xlsum_tokenize", kwlist, &text, &pretok)) return NULL;
    if (xl_build_table()) return NULL;
    PyObject *low = PyObject_CallMethod(text, "lower", NULL);
    if (!low) return NULL;
    PyObject *bytes = PyUnicode_AsEncodedString(low, "utf-8", "surrogatepass");
    Py_DECREF(low);
    if (!bytes) return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(bytes);
    PyObject *out = PyList_New(0);
    char *buf = (char *)PyMem_Malloc((size_t)n + 16);
    uint32_t *cps = (uint32_t *)PyMem_Malloc(((size_t)n + 16) * sizeof(uint32_t));
    if (!out || !buf || !cps) {
        Py_XDECREF(out);
        Py_DECREF(bytes);
        PyMem_Free(buf);
        PyMem_Free(cps);
        return PyErr_NoMemory();
    }
    int seen = 0;
    XLTok t = {xl_list_sink, out, buf, 0, 0, cps, 0};
    if (xl_tokenize(PyBytes_AS_STRING(bytes), n, pretok ? TOK_XLSUM : TOK_XLSUM_BASIC, &seen, &t)) Py_CLEAR(out);
    PyMem_Free(buf);
    PyMem_Free(cps);
    Py_DECREF(bytes);
    return out;
}

/* Engine(..., tokenizer="perl" | "xlsum" | "xlsum_basic" | "whitespace"), keyword only.  "perl"
 * (the default) is the flavor's own byte tokenizer, unchanged (rouge_score's for flavor
 * rouge_score). */
static int engine_tokenizer(EngineObject *self, PyObject *kwds) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    self->tokenizer = TOK_PERL;
    while (kwds && PyDict_Next(kwds, &pos, &key, &value)) {
        if (!PyUnicode_Check(key) || PyUnicode_CompareWithASCIIString(key, "tokenizer")) {
            PyErr_Format(PyExc_TypeError, "Engine() got an unexpected keyword argument %R", key);
            return -1;
        }
        const char *v = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : NULL;
        if (!v) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "tokenizer must be a str, got %R", value);
            return -1;
        }
        if (!strcmp(v, "perl")) self->tokenizer = TOK_PERL;
        else if (!strcmp(v, "xlsum")) self->tokenizer = TOK_XLSUM;
        else if (!strcmp(v, "xlsum_basic")) self->tokenizer = TOK_XLSUM_BASIC;
        else if (!strcmp(v, "whitespace")) self->tokenizer = TOK_WHITESPACE;
        else {
            PyErr_Format(PyExc_ValueError,
                         "tokenizer must be 'perl', 'xlsum', 'xlsum_basic' or 'whitespace', got %R", value);
            return -1;
        }
    }
    if (self->tokenizer != TOK_PERL && (self->word_limit || self->byte_limit)) {
        PyErr_SetString(PyExc_ValueError, "tokenizer other than 'perl' with word_limit or byte_limit: "
                                          "not implemented in the compiled core");
        return -1;
    }
    if (self->tokenizer == TOK_XLSUM || self->tokenizer == TOK_XLSUM_BASIC) return xl_build_table();
    return 0;
}

/* Step 1 for the Worker: text.lower(), kept alive in keep; a borrowed reference or NULL. */
static PyObject *xl_lowered(PyObject *text, PyObject *keep) {
    PyObject *low = PyObject_CallMethod(text, "lower", NULL);
    if (!low) return NULL;
    int rc = PyList_Append(keep, low);
    Py_DECREF(low);
    return rc ? NULL : low;
}

/* end of the Unicode token pipelines                                                          */
/* ------------------------------------------------------------------------------------------ */

static int read_text(Ctx *c, const Src *s, const Span *items, TextBuf *tb) {
    if (c->w->eng->tokenizer != TOK_PERL) return read_text_unicode(c, s, items, tb);
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

/* ------------------------------------------------------------------------------------------ */
/* skip-bigrams of long texts: memory bounded whatever the gap and vocabulary                   */

/* Pair tables of the blocked path: int64 cells per table (2 tables: 8 MiB). */
#define BLOCK_CELLS ((Py_ssize_t)1 << 19)
/* The hash path stores each distinct prediction pair: past this many pairs (a table of up to
 * 96 MiB) the blocked path runs instead. */
#define HASH_PAIRS_MAX ((double)((Py_ssize_t)1 << 20))

/* Add the pair counts of tokens t[0..T) (prediction-local ids, -1: skipped but still a position)
 * whose second token b is in [b0, b0 + B) to rows (b - b0) * D of tab; *touched lists the rows
 * written (flag marks them).  win[a] counts id a among the positions within reach of the current
 * one (all earlier positions when gap < 0); it is zero on entry and on return. */
static void pair_rows(const int32_t *t, Py_ssize_t T, Py_ssize_t gap, Py_ssize_t D, Py_ssize_t b0,
                      Py_ssize_t B, int64_t *tab, int32_t *win, unsigned char *flag, int32_t *touched,
                      Py_ssize_t *ntouched) {
    Py_ssize_t hi = 0;   /* ids a >= hi have win[a] == 0 */
    for (Py_ssize_t j = 0; j < T; j++) {
        if (gap >= 0 && j - gap - 2 >= 0 && t[j - gap - 2] >= 0) win[t[j - gap - 2]]--;
        int32_t b = t[j];
        if (b < 0) continue;
        if (b >= b0 && b < b0 + B) {
            int64_t *row = tab + (Py_ssize_t)(b - b0) * D;
            if (!flag[b - b0]) { flag[b - b0] = 1; touched[(*ntouched)++] = b - (int32_t)b0; }
            for (Py_ssize_t a = 0; a < hi; a++) row[a] += win[a];
        }
        win[b]++;
        if (b >= hi) hi = b + 1;
    }
    memset(win, 0, (size_t)hi * sizeof(int32_t));
}

/* pair_part for long texts: the D x D pair tables (cell b * D + a: a before b, within the gap)
 * of the prediction and each reference are built and compared a block of rows at a time, so
 * memory stays at 2 x BLOCK_CELLS counts whatever the number of pairs, and time is
 * O((prediction + references) x D) adds per text plus one scan per block. */
static int pair_part_blocked(WorkerObject *w, Py_ssize_t M, Py_ssize_t D, Py_ssize_t gap, double *ph,
                             double *prc) {
    const int32_t *lp = w->lp.v;
    Py_ssize_t pn = w->lp.n;
    for (Py_ssize_t r = 0; r < M; r++) {
        ph[r] = 0.0;
        prc[r] = pair_count(w->lro[r + 1] - w->lro[r], gap);
    }
    if (D == 0) return 0;
    Py_ssize_t B = BLOCK_CELLS / D;
    if (B < 1) B = 1;
    if (B > D) B = D;
    int64_t *P = (int64_t *)calloc((size_t)(B * D), sizeof(int64_t));
    int64_t *R = (int64_t *)calloc((size_t)(B * D), sizeof(int64_t));
    int32_t *win = (int32_t *)calloc((size_t)D, sizeof(int32_t));
    int32_t *ptouched = (int32_t *)malloc((size_t)B * sizeof(int32_t));
    int32_t *rtouched = (int32_t *)malloc((size_t)B * sizeof(int32_t));
    unsigned char *pflag = (unsigned char *)calloc((size_t)B, 1), *rflag = (unsigned char *)calloc((size_t)B, 1);
    int rc = -1;
    if (!P || !R || !win || !ptouched || !rtouched || !pflag || !rflag) goto done;
    for (Py_ssize_t b0 = 0; b0 < D; b0 += B) {
        Py_ssize_t nb = D - b0 < B ? D - b0 : B, np = 0;
        pair_rows(lp, pn, gap, D, b0, nb, P, win, pflag, ptouched, &np);
        for (Py_ssize_t r = 0; r < M; r++) {
            Py_ssize_t nr = 0;
            pair_rows(w->lr.v + w->lro[r], w->lro[r + 1] - w->lro[r], gap, D, b0, nb, R, win, rflag,
                      rtouched, &nr);
            int64_t hits = 0;
            for (Py_ssize_t q = 0; q < nr; q++) {
                int64_t *y = R + (Py_ssize_t)rtouched[q] * D;
                if (pflag[rtouched[q]]) {
                    const int64_t *x = P + (Py_ssize_t)rtouched[q] * D;
                    for (Py_ssize_t a = 0; a < D; a++) hits += x[a] < y[a] ? x[a] : y[a];
                }
                memset(y, 0, (size_t)D * sizeof(int64_t));
                rflag[rtouched[q]] = 0;
            }
            ph[r] += (double)hits;
        }
        for (Py_ssize_t q = 0; q < np; q++) {
            memset(P + (Py_ssize_t)ptouched[q] * D, 0, (size_t)D * sizeof(int64_t));
            pflag[ptouched[q]] = 0;
        }
    }
    rc = 0;
done:
    free(P); free(R); free(win); free(ptouched); free(rtouched); free(pflag); free(rflag);
    return rc;
}

/* Closed-form pair count of T tokens within gap (an estimate for choosing a path; pair_count
 * is the exact sum the scores use). */
static double pair_estimate(Py_ssize_t T, Py_ssize_t gap) {
    double t = (double)T, k = gap < 0 || gap + 1 >= T ? t - 1 : (double)(gap + 1);
    return T < 2 ? 0.0 : k * (k + 1) / 2 + (t - 1 - k) * k;
}

/* Clipped matches of the skip-bigrams (gap 0: bigrams) of the prediction and each reference:
 * w->ph/prc[ti*M + r] and w->ppc[ti].  Keys are pairs of prediction-local ids, so up to
 * DENSE_MAX distinct prediction tokens a dense D x D table replaces hashing; a pair holding a
 * token the prediction lacks is skipped.  An earlier type with the same gap (rouge2 / rougeS0,
 * rougeS4 / rougeSU4) is reused. */
static int pair_part(WorkerObject *w, TextBuf *tbs, Py_ssize_t M, int ti, int gap, Py_ssize_t D) {
    EngineObject *e = w->eng;
    /* A gap reaching over the longest text is any gap (the same pairs); clamping it keeps the
     * spans and table bounds below from overflowing or growing with the gap. */
    Py_ssize_t longest = w->lp.n, sumT = 0;
    for (Py_ssize_t r = 0; r < M; r++) {
        Py_ssize_t T = w->lro[r + 1] - w->lro[r];
        sumT += T;
        if (T > longest) longest = T;
    }
    if (gap >= 0 && (Py_ssize_t)gap + 2 >= longest) gap = -1;
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
    /* int32 dense counts cannot overflow below 65536 tokens a text */
    int small = longest < 65536;
    if (small && D <= DENSE_MAX && gap < 0) return pair_part_any_gap(w, M, D, ph, prc);
    if (small && D <= DENSE_MAX) {
        /* cell (a + 1) * (D + 1) + b + 1: row 0 and column 0 (a token the prediction lacks) stay
         * 0, so a reference pair holding one consumes nothing, without a test.  The consumed
         * cells are logged for restore(), or, when the log could outgrow the table, the table
         * is restored from a copy. */
        Py_ssize_t npairs = (Py_ssize_t)w->ppc[ti], W = D + 1;
        int snap = npairs > W * W;
        if (grow_zero((void **)&w->dcnt, &w->dcap, W * W + 1, sizeof(int32_t)) ||
            grow((void **)&w->clog, &w->clogcap, (snap ? 0 : npairs) + 1, sizeof(int32_t)) ||
            (snap && grow((void **)&w->rtab, &w->rtabcap, W * W + 1, sizeof(int32_t)))) return -1;
        int32_t *cnt = w->dcnt, *log = w->clog;
        Py_ssize_t pspan = (Py_ssize_t)gap + 2;
        for (Py_ssize_t i = 0; i + 1 < pn; i++) {
            int32_t *row = cnt + (Py_ssize_t)(lp[i] + 1) * W + 1;
            Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
            for (Py_ssize_t j = i + 1; j < jend; j++) row[lp[j]]++;
        }
        if (snap) memcpy(w->rtab, cnt, (size_t)(W * W) * sizeof(int32_t));
        for (Py_ssize_t r = 0; r < M; r++) {
            const int32_t *lr = w->lr.v + w->lro[r];
            Py_ssize_t T = w->lro[r + 1] - w->lro[r], nlog = 0;
            for (Py_ssize_t i = 0; i + 1 < T; i++) {
                int32_t base = (lr[i] + 1) * (int32_t)W + 1;
                Py_ssize_t jend = i + pspan < T ? i + pspan : T;
                if (snap)
                    for (Py_ssize_t j = i + 1; j < jend; j++) {
                        int32_t *c = cnt + base + lr[j], h = *c > 0;
                        *c -= h;
                        nlog += h;
                    }
                else
                    for (Py_ssize_t j = i + 1; j < jend; j++) nlog = consume(cnt, base + lr[j], log, nlog);
            }
            ph[r] = (double)nlog;
            prc[r] = pair_count(T, gap);
            if (r + 1 < M) {
                if (snap) memcpy(cnt, w->rtab, (size_t)(W * W) * sizeof(int32_t));
                else restore(cnt, log, nlog);
            }
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
    /* Many distinct tokens or long texts: hash the (exact) pair keys when there are few pairs
     * (hash work ~ pairs), else compare dense tables a block of rows at a time (work ~ tokens x
     * D adds, memory fixed). */
    double pairs = pair_estimate(pn, gap);
    for (Py_ssize_t r = 0; r < M; r++) pairs += pair_estimate(w->lro[r + 1] - w->lro[r], gap);
    if (w->ppc[ti] > HASH_PAIRS_MAX || pairs * 8.0 > (double)(pn + sumT) * (double)D)
        return pair_part_blocked(w, M, D, gap, ph, prc);
    Py_ssize_t bound = (Py_ssize_t)w->ppc[ti];
    uint64_t mask;
    if (gt_init(w, bound + 1, &mask)) return -1;
    Py_ssize_t pspan = gap < 0 ? pn : (Py_ssize_t)gap + 2;
    for (Py_ssize_t i = 0; i + 1 < pn; i++) {
        uint64_t hi = (uint64_t)(uint32_t)lp[i] << 32;
        Py_ssize_t jend = i + pspan < pn ? i + pspan : pn;
        for (Py_ssize_t j = i + 1; j < jend; j++) gt_find(w, mask, hi | (uint32_t)lp[j], NULL, 1, NULL, 1, 0)->cnt++;
    }
    for (Py_ssize_t r = 0; r < M; r++) {
        const int32_t *lr = w->lr.v + w->lro[r];
        Py_ssize_t T = w->lro[r + 1] - w->lro[r], span = gap < 0 ? T : (Py_ssize_t)gap + 2;
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
                {
                    /* flavor paper clips as rouge155 does (P <= 1) and normalizes by the
                     * joined reader's length (scorer.py, _pair_stats) */
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
                    model_len = e->flavor == FLAVOR_PAPER ? (double)ref->tok.n : (double)nr;
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

/* F of an already computed (P, R) (scoring.py: _reported_f), for multi_ref "max_rp". */
static double f_of(EngineObject *e, double precision, double recall) {
    double alpha = e->alpha;
    if (e->rounded) {
        double den = (1.0 - alpha) * precision + alpha * recall;
        return round5(den > 0.0 ? (precision * recall) / den : 0.0);
    }
    if (e->rs_f) {
        double sum = precision + recall;
        return sum > 0.0 ? 2.0 * precision * recall / sum : 0.0;
    }
    double den = (1.0 - alpha) * precision + alpha * recall;
    return den > 0.0 ? (precision * recall) / den : 0.0;
}

/* by_recall: flavor paper's ROUGE-N picks the best recall (ties: the better F, then the first). */
static SC combine(EngineObject *e, const PS *s, Py_ssize_t M, double weight, int by_recall) {
    if (e->multi_ref == MR_MAX) {
        SC best = score_from_counts(e, s[0].h, s[0].rc, s[0].pc, weight);
        for (Py_ssize_t k = 1; k < M; k++) {
            SC c = score_from_counts(e, s[k].h, s[k].rc, s[k].pc, weight);
            if (by_recall ? (c.r > best.r || (c.r == best.r && c.f > best.f)) : c.f > best.f) best = c;
        }
        return best;
    }
    if (e->multi_ref == MR_MAX_RP) {   /* Lin & Och 2004 eqs. 7-9 */
        double r = 0.0, p = 0.0;
        for (Py_ssize_t k = 0; k < M; k++) {
            SC c = score_from_counts(e, s[k].h, s[k].rc, s[k].pc, weight);
            if (c.r > r) r = c.r;
            if (c.p > p) p = c.p;
        }
        SC out = {p, r, f_of(e, p, r)};
        return out;
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

static SC reduce_scores(EngineObject *e, const PS *s, Py_ssize_t M, double weight, PS *tmp, int by_recall) {
    if (!e->jackknife || M < 2) return combine(e, s, M, weight, by_recall);
    double p = 0.0, r = 0.0, f = 0.0;
    for (Py_ssize_t k = 0; k < M; k++) {
        Py_ssize_t q = 0;
        for (Py_ssize_t x = 0; x < M; x++) if (x != k) tmp[q++] = s[x];
        SC c = combine(e, tmp, M - 1, weight, by_recall);
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
 * native (see set_native) makes the core apply token_filter's stop words and stemmer itself.
 * Keyword tokenizer= (see engine_tokenizer): "perl" (default), "xlsum", "xlsum_basic", "whitespace". */
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
    else if (!strcmp(multi_ref, "max_rp")) self->multi_ref = MR_MAX_RP;
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
        /* the ranges of rouge_types.py (MAX_N, MIN/MAX_W_WEIGHT): beyond them counts and
         * weights overflow */
        if ((t->kind == K_N && n > 1000000) || (t->kind == K_W && !(weight >= 0.1 && weight <= 5.0)) ||
            (t->kind == K_S && maxgap < -1)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "rouge type %R: n, weight or gap out of range", name);
            return -1;
        }
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
    if (engine_tokenizer(self, kwds)) return -1;
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
/* Ctrl-C during a batch: the example loop runs without the GIL, where Python's signal handlers
 * cannot run; every SIGNAL_EVERY examples it reads a monotonic clock and, once SIGNAL_MS have
 * passed, takes the GIL to run them (KeyboardInterrupt then ends the batch). */

#define SIGNAL_EVERY 16
#define SIGNAL_MS 50

static int64_t monotonic_ms(void) {
#if defined(_WIN32)
    return (int64_t)clock() * 1000 / CLOCKS_PER_SEC;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
#endif
}

/* 0, or -1 with the signal handler's exception set and c->err = ERR_PY. */
static int poll_signals(Ctx *c, int64_t *last) {
    int64_t now = monotonic_ms();
    if (now - *last < SIGNAL_MS) return 0;
    *last = now;
    PyEval_RestoreThread(c->ts);
    int rc = PyErr_CheckSignals();
    c->ts = PyEval_SaveThread();
    if (rc) c->err = ERR_PY;
    return rc;
}

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
        Py_ssize_t soff = 0;
        int64_t last_poll = monotonic_ms();
        for (Py_ssize_t i = 0; i < count && !c.err; i++) {
            Py_ssize_t ntext = exoff[i + 1] - exoff[i], M = ntext - 1;
            if (i % SIGNAL_EVERY == SIGNAL_EVERY - 1 && poll_signals(&c, &last_poll)) break;
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
            if (grow((void **)&w->tmp, &w->tmpcap, M + 1, sizeof(PS))) { c.err = ERR_NOMEM; break; }
            for (int ti = 0; ti < e->ntypes; ti++) {
                double weight = e->types[ti].kind == K_W ? e->types[ti].weight : 0.0;
                int by_recall = e->flavor == FLAVOR_PAPER && e->types[ti].kind == K_N;
                w->scores[i * e->ntypes + ti] = reduce_scores(e, st + (Py_ssize_t)ti * M, M, weight, w->tmp,
                                                              by_recall);
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

/* ------------------------------------------------------------------------------------------ */
/* pairwise ROUGE (pairwise.py: score_matrix, filter_near_duplicates)                            */
/*
 * A pair corpus holds texts tokenized once by one Worker, so that all their ids share one
 * vocabulary.  Kernels then score any (prediction, reference) pair of its texts with the GIL
 * released and no Python object per pair:
 *   rougeL   the bit-parallel LCS length (Hyyro) of the two flat token lists, the bit masks built
 *            once per row text (one word when it has <= 64 tokens, else one mask per distinct
 *            token and 64 columns);
 *   rouge<N> the clipped overlap of n-gram ids interned once per corpus (n = 1: the tokens);
 *   others   (rougeLsum, rougeW, rougeS) example_stats on the two texts, i.e. what Worker.run
 *            computes for that example with that single reference.
 * The score is score_from_counts of those statistics, as Worker.run gives it for one reference
 * (with one reference every multi_ref rule and jackknifing reduce to it).
 * Any Worker of the corpus's Engine can run the kernels (one thread per Worker): only its
 * vocabulary-indexed scratch arrays are grown to the corpus's vocabulary.
 */

typedef struct {
    EngineObject *eng;      /* strong reference */
    Py_ssize_t n;           /* texts */
    TextBuf *tb;            /* each text's readers (owned copies of the IVecs) */
    int32_t *unit;          /* fast kernels: the units (tokens, n-gram ids) of every text, back to back */
    Py_ssize_t *uoff;       /* text i's units: unit[uoff[i]:uoff[i+1]] */
    Py_ssize_t vocab;       /* token ids are < vocab */
    Py_ssize_t nunits;      /* unit ids are < nunits */
    Py_ssize_t maxunits;    /* the longest text, in units */
    int kind, gram, fast;   /* the Engine's single rouge type; fast: rougeL or rouge<N> */
} PairCorpus;

#define PAIR_CAPSULE "rouge_full_metric._core.PairCorpus"

static void pair_corpus_free(PyObject *capsule) {
    PairCorpus *pc = (PairCorpus *)PyCapsule_GetPointer(capsule, PAIR_CAPSULE);
    if (!pc) return;
    if (pc->tb) for (Py_ssize_t i = 0; i < pc->n; i++) textbuf_free(&pc->tb[i]);
    free(pc->tb); free(pc->unit); free(pc->uoff);
    Py_XDECREF(pc->eng);
    free(pc);
}

static int ivec_copy(IVec *dst, const IVec *src) {
    dst->n = dst->cap = 0;
    dst->v = (int32_t *)malloc((size_t)(src->n + 1) * sizeof(int32_t));
    if (!dst->v) return -1;
    if (src->n) memcpy(dst->v, src->v, (size_t)src->n * sizeof(int32_t));
    dst->n = src->n;
    dst->cap = src->n + 1;
    return 0;
}

/* Intern the n-grams (n >= 2) of every text's joined tokens into dense ids (exact: keys are
 * compared token by token). */
static int pair_intern_grams(PairCorpus *pc, int n) {
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < pc->n; i++) {
        Py_ssize_t T = pc->tb[i].tok.n;
        pc->uoff[i] = total;
        total += T >= n ? T - n + 1 : 0;
    }
    pc->uoff[pc->n] = total;
    pc->unit = (int32_t *)malloc((size_t)(total + 1) * sizeof(int32_t));
    Py_ssize_t cap = 16;
    while (cap < 2 * total + 2) cap *= 2;
    /* an entry: the first occurrence (text, position) + 1, 0 when empty */
    typedef struct { uint64_t h; Py_ssize_t text, pos; int32_t id; } GramSlot;
    GramSlot *tab = (GramSlot *)calloc((size_t)cap, sizeof(GramSlot));
    if (!pc->unit || !tab) { free(tab); return -1; }
    int32_t next = 0;
    for (Py_ssize_t i = 0; i < pc->n; i++) {
        const int32_t *t = pc->tb[i].tok.v;
        Py_ssize_t W = pc->uoff[i + 1] - pc->uoff[i];
        for (Py_ssize_t p = 0; p < W; p++) {
            uint64_t h = 0x9E3779B97F4A7C15ULL;
            for (int k = 0; k < n; k++) h = mix64(h ^ (uint32_t)t[p + k]) + (uint64_t)k;
            Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(cap - 1));
            for (;;) {
                GramSlot *g = &tab[s];
                if (g->text == 0) {
                    g->h = h; g->text = i + 1; g->pos = p; g->id = next++;
                    pc->unit[pc->uoff[i] + p] = g->id;
                    break;
                }
                if (g->h == h && memcmp(pc->tb[g->text - 1].tok.v + g->pos, t + p, (size_t)n * sizeof(int32_t)) == 0) {
                    pc->unit[pc->uoff[i] + p] = g->id;
                    break;
                }
                s = (s + 1) & (cap - 1);
            }
        }
    }
    free(tab);
    pc->nunits = next;
    return 0;
}

/* pair_corpus(worker, texts_a, texts_b or None) -> corpus (a capsule): the texts of a, then
 * those of b, tokenized by worker (which should be fresh: its vocabulary must not be reset
 * while the corpus is read).  Errors as Worker.run's (TypeError, ValueError, UnicodeError). */
static PyObject *mod_pair_corpus(PyObject *self, PyObject *args) {
    PyObject *wo, *ta, *tb_ = Py_None;
    if (!PyArg_ParseTuple(args, "O!O|O", &WorkerType, &wo, &ta, &tb_)) return NULL;
    WorkerObject *w = (WorkerObject *)wo;
    EngineObject *e = w->eng;
    if (e->ntypes != 1) { PyErr_SetString(PyExc_ValueError, "pair_corpus needs an Engine with one rouge type"); return NULL; }
    if (w->busy) { PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)"); return NULL; }
    PyObject *sa = PySequence_Fast(ta, "texts must be a sequence");
    if (!sa) return NULL;
    PyObject *sb = NULL;
    if (tb_ != Py_None && !(sb = PySequence_Fast(tb_, "texts must be a sequence"))) { Py_DECREF(sa); return NULL; }
    Py_ssize_t na = PySequence_Fast_GET_SIZE(sa), nb = sb ? PySequence_Fast_GET_SIZE(sb) : 0;
    PyObject *keep = PyList_New(0), *capsule = NULL;
    Span *items = NULL;
    Py_ssize_t nitems = 0, itemcap = 0;
    PairCorpus *pc = (PairCorpus *)calloc(1, sizeof(PairCorpus));
    if (!keep || !pc) { PyErr_NoMemory(); goto fail; }
    pc->n = na + nb;
    Py_INCREF(e);
    pc->eng = e;
    pc->kind = e->types[0].kind;
    pc->gram = e->types[0].n;
    pc->fast = pc->kind == K_L || pc->kind == K_N;
    pc->tb = (TextBuf *)calloc((size_t)(pc->n + 1), sizeof(TextBuf));
    pc->uoff = (Py_ssize_t *)malloc((size_t)(pc->n + 1) * sizeof(Py_ssize_t));
    if (!pc->tb || !pc->uoff) { PyErr_NoMemory(); goto fail; }
    if (grow((void **)&w->tb, &w->tbcap, 1, sizeof(TextBuf))) { PyErr_NoMemory(); goto fail; }
    if (w->ntb < w->tbcap) { memset(w->tb + w->ntb, 0, (size_t)(w->tbcap - w->ntb) * sizeof(TextBuf)); w->ntb = w->tbcap; }
    w->busy = 1;
    for (Py_ssize_t i = 0; i < pc->n; i++) {
        PyObject *o = i < na ? PySequence_Fast_GET_ITEM(sa, i) : PySequence_Fast_GET_ITEM(sb, i - na);
        Src src;
        nitems = 0;
        if (PyList_SetSlice(keep, 0, PyList_GET_SIZE(keep), NULL)) { w->busy = 0; goto fail; }
        if (text_spans(e, o, &src, &items, &nitems, &itemcap, keep)) { w->busy = 0; goto fail; }
        Ctx c = {w, NULL, 0, 0};
        TextBuf *s = &w->tb[0];
        read_text(&c, &src, items, s);
        if (c.err) { w->busy = 0; if (c.err == ERR_NOMEM) PyErr_NoMemory(); goto fail; }
        TextBuf *d = &pc->tb[i];
        d->stok_alias = s->stok_alias;
        d->ftok_alias = s->ftok_alias;
        if (ivec_copy(&d->tok, &s->tok) || ivec_copy(&d->send, &s->send) ||
            (!s->stok_alias && ivec_copy(&d->stok, &s->stok)) || (!s->ftok_alias && ivec_copy(&d->ftok, &s->ftok))) {
            w->busy = 0;
            PyErr_NoMemory();
            goto fail;
        }
    }
    w->busy = 0;
    pc->vocab = w->in.nent;
    if (pc->kind == K_N && pc->gram >= 2) {
        if (pair_intern_grams(pc, pc->gram)) { PyErr_NoMemory(); goto fail; }
    } else {
        Py_ssize_t total = 0;
        for (Py_ssize_t i = 0; i < pc->n; i++) {
            pc->uoff[i] = total;
            total += pc->kind == K_L ? FLAT(&pc->tb[i])->n : pc->tb[i].tok.n;
        }
        pc->uoff[pc->n] = total;
        pc->unit = (int32_t *)malloc((size_t)(total + 1) * sizeof(int32_t));
        if (!pc->unit) { PyErr_NoMemory(); goto fail; }
        for (Py_ssize_t i = 0; i < pc->n; i++) {
            const IVec *v = pc->kind == K_L ? FLAT(&pc->tb[i]) : &pc->tb[i].tok;
            if (v->n) memcpy(pc->unit + pc->uoff[i], v->v, (size_t)v->n * sizeof(int32_t));
        }
        pc->nunits = pc->vocab;
    }
    for (Py_ssize_t i = 0; i < pc->n; i++)
        if (pc->uoff[i + 1] - pc->uoff[i] > pc->maxunits) pc->maxunits = pc->uoff[i + 1] - pc->uoff[i];
    capsule = PyCapsule_New(pc, PAIR_CAPSULE, pair_corpus_free);
    if (!capsule) goto fail;
    pc = NULL;
fail:
    if (pc) {
        if (pc->tb) for (Py_ssize_t i = 0; i < pc->n; i++) textbuf_free(&pc->tb[i]);
        free(pc->tb); free(pc->unit); free(pc->uoff);
        Py_XDECREF(pc->eng);
        free(pc);
    }
    Py_XDECREF(keep);
    free(items);
    Py_DECREF(sa);
    Py_XDECREF(sb);
    return capsule;
}

/* Kernel state of one call: scratch indexed by unit id (neutral between rows). */
typedef struct {
    const PairCorpus *pc;
    WorkerObject *w;
    EngineObject *e;
    uint64_t *mask;          /* rougeL, row of <= 64 units: columns of each unit (0 between rows) */
    int32_t *slot;           /* rougeL, longer row: unit -> mask index (-1 between rows) */
    uint64_t *mw; Py_ssize_t mwcap;
    uint64_t *V; Py_ssize_t Vcap;
    int32_t *cnt;            /* rouge<N> (and the rougeL overlap bound): row unit counts (0 between rows) */
    int32_t *log; Py_ssize_t logcap;
    Py_ssize_t row, rlen, words;
    int use_cnt;
    double weight;
    /* the chosen measure of (row length, other text's length, hits), memoized: the roles are
     * fixed per call, so this is all the score depends on */
    struct PairMemo { uint64_t key; double v; } *memo;   /* key + 1; 0: empty */
    int measure, row_is_pred;
    Py_ssize_t *order;       /* pair_matrix: columns by length, for the four-lane LCS */
    unsigned char *vm, *vmraw;  /* row groups: 32 bytes per unit, 32-byte aligned (0 between groups) */
    uint64_t *present;       /* row groups: a bit per unit that some row of the group holds */
} PairK;

#define PAIR_MEMO_BITS 11

static void pairk_free(PairK *k) {
    free(k->mask); free(k->slot); free(k->mw); free(k->V); free(k->cnt); free(k->log); free(k->memo); free(k->order); free(k->vmraw); free(k->present);
}

/* Grow a Worker's vocabulary-indexed arrays (slot, loc: -1 between uses) to n ids. */
static int pair_vocab(WorkerObject *w, Py_ssize_t n) {
    if (n <= w->vcap) return 0;
    Py_ssize_t c = w->vcap ? w->vcap : 4096;
    while (c < n) c *= 2;
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

static int pairk_init(PairK *k, const PairCorpus *pc, WorkerObject *w, int with_counts, int measure, int row_is_pred) {
    memset(k, 0, sizeof(*k));
    k->pc = pc;
    k->w = w;
    k->e = pc->eng;
    k->row = -1;
    k->measure = measure;
    k->row_is_pred = row_is_pred;
    if (!(k->memo = (struct PairMemo *)calloc((size_t)1 << PAIR_MEMO_BITS, sizeof(struct PairMemo)))) return -1;
    k->weight = pc->kind == K_W ? pc->eng->types[0].weight : 0.0;
    if (!pc->fast) return pair_vocab(w, pc->vocab);
    Py_ssize_t nu = pc->nunits + 1;
    k->use_cnt = pc->kind == K_N || with_counts;
    if (pc->kind == K_L) {
        k->mask = (uint64_t *)calloc((size_t)nu, sizeof(uint64_t));
        k->slot = (int32_t *)malloc((size_t)nu * sizeof(int32_t));
        if (!k->mask || !k->slot) return -1;
        for (Py_ssize_t i = 0; i < nu; i++) k->slot[i] = -1;
    }
    if (k->use_cnt && !(k->cnt = (int32_t *)calloc((size_t)nu, sizeof(int32_t)))) return -1;
    if (grow((void **)&k->log, &k->logcap, pc->maxunits + 1, sizeof(int32_t))) return -1;
    return 0;
}

static inline Py_ssize_t pair_units(const PairCorpus *pc, Py_ssize_t i) { return pc->uoff[i + 1] - pc->uoff[i]; }

/* Make text i the row: its masks and/or counts. */
static int pairk_set_row(PairK *k, Py_ssize_t i) {
    const PairCorpus *pc = k->pc;
    k->row = i;
    if (!pc->fast) return 0;
    const int32_t *u = pc->unit + pc->uoff[i];
    Py_ssize_t m = pair_units(pc, i);
    k->rlen = m;
    if (k->use_cnt) for (Py_ssize_t j = 0; j < m; j++) k->cnt[u[j]]++;
    if (pc->kind != K_L) return 0;
    if (m <= 64) {
        for (Py_ssize_t j = 0; j < m; j++) k->mask[u[j]] |= 1ULL << j;
        k->words = 1;
        return 0;
    }
    Py_ssize_t words = (m + 63) >> 6, nd = 0;
    k->words = words;
    if (grow((void **)&k->mw, &k->mwcap, (m + 1) * words, 8) || grow((void **)&k->V, &k->Vcap, words + 1, 8)) return -1;
    for (Py_ssize_t j = 0; j < m; j++) {
        int32_t t = u[j];
        if (k->slot[t] < 0) { k->slot[t] = (int32_t)nd; memset(k->mw + nd * words, 0, (size_t)words * 8); nd++; }
        k->mw[k->slot[t] * words + (j >> 6)] |= 1ULL << (j & 63);
    }
    return 0;
}

static void pairk_clear_row(PairK *k) {
    const PairCorpus *pc = k->pc;
    if (k->row < 0 || !pc->fast) { k->row = -1; return; }
    const int32_t *u = pc->unit + pc->uoff[k->row];
    Py_ssize_t m = k->rlen;
    if (k->use_cnt) for (Py_ssize_t j = 0; j < m; j++) k->cnt[u[j]] = 0;
    if (pc->kind == K_L) {
        if (m <= 64) for (Py_ssize_t j = 0; j < m; j++) k->mask[u[j]] = 0;
        else for (Py_ssize_t j = 0; j < m; j++) k->slot[u[j]] = -1;
    }
    k->row = -1;
}

/* Clipped overlap of text j's units with the row's (the counts are restored). */
static inline Py_ssize_t pairk_overlap(PairK *k, Py_ssize_t j) {
    const int32_t *u = k->pc->unit + k->pc->uoff[j];
    Py_ssize_t n = pair_units(k->pc, j), h = 0;
    int32_t *cnt = k->cnt, *log = k->log;
    for (Py_ssize_t q = 0; q < n; q++) {
        int32_t t = u[q];
        if (cnt[t] > 0) { cnt[t]--; log[h++] = t; }
    }
    for (Py_ssize_t q = 0; q < h; q++) cnt[log[q]]++;
    return h;
}

/* LCS length of text j's units against the row's. */
static inline Py_ssize_t pairk_lcs(PairK *k, Py_ssize_t j) {
    const int32_t *u = k->pc->unit + k->pc->uoff[j];
    Py_ssize_t n = pair_units(k->pc, j), m = k->rlen;
    if (m == 0 || n == 0) return 0;
    if (m <= 64) {
        const uint64_t *mask = k->mask;
        uint64_t V = ~0ULL;
        for (Py_ssize_t q = 0; q < n; q++) {
            uint64_t M = mask[u[q]], U = V & M;
            V = (V + U) | (V - U);
        }
        return popc64(~V & low_bits(m));
    }
    Py_ssize_t words = k->words;
    uint64_t *V = k->V;
    for (Py_ssize_t x = 0; x < words; x++) V[x] = ~0ULL;
    for (Py_ssize_t q = 0; q < n; q++) {
        int32_t s = k->slot[u[q]];
        if (s < 0) continue;
        const uint64_t *M = k->mw + (Py_ssize_t)s * words;
        uint64_t carry = 0;
        for (Py_ssize_t x = 0; x < words; x++) {
            uint64_t v = V[x], mm = M[x], U = v & mm;
            uint64_t sum = v + U, c1 = sum < v, s2 = sum + carry, c2 = s2 < sum;
            carry = c1 | c2;
            V[x] = s2 | (v & ~mm);
        }
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t x = 0; x < words; x++) {
        uint64_t valid = x + 1 < words || (m & 63) == 0 ? ~0ULL : (1ULL << (m & 63)) - 1;
        total += popc64(~V[x] & valid);
    }
    return total;
}

static inline double pick(SC s, int measure) { return measure == 0 ? s.p : measure == 1 ? s.r : s.f; }

/* The measure of the row against text j (fast kernels) given the hits h. */
static inline double pairk_value_len(PairK *k, Py_ssize_t rowlen, Py_ssize_t lj, Py_ssize_t h) {
    if (h == 0) return 0.0;   /* P = R = F = 0 in every flavor */
    struct PairMemo *m = NULL;
    uint64_t key = 0;
    if (rowlen < ((Py_ssize_t)1 << 21) && lj < ((Py_ssize_t)1 << 21)) {
        key = (((uint64_t)rowlen << 42) | ((uint64_t)lj << 21) | (uint64_t)h) + 1;
        m = &k->memo[((key * 0x9E3779B97F4A7C15ULL) >> (64 - PAIR_MEMO_BITS))];
        if (m->key == key) return m->v;
    }
    SC s = k->row_is_pred ? score_from_counts(k->e, (double)h, (double)lj, (double)rowlen, 0.0)
                          : score_from_counts(k->e, (double)h, (double)rowlen, (double)lj, 0.0);
    double v = pick(s, k->measure);
    if (m) { m->key = key; m->v = v; }
    return v;
}

static inline double pairk_value(PairK *k, Py_ssize_t j, Py_ssize_t h) {
    return pairk_value_len(k, k->rlen, pair_units(k->pc, j), h);
}

/* LCS lengths of four texts against a row of <= 64 units, interleaved (the four dependency
 * chains overlap); a text that has ended reads the sentinel unit nunits, whose mask is 0. */
static inline void pairk_lcs4(PairK *k, const Py_ssize_t *js, Py_ssize_t *h) {
    const PairCorpus *pc = k->pc;
    const uint64_t *mask = k->mask;
    const int32_t *u0 = pc->unit + pc->uoff[js[0]], *u1 = pc->unit + pc->uoff[js[1]];
    const int32_t *u2 = pc->unit + pc->uoff[js[2]], *u3 = pc->unit + pc->uoff[js[3]];
    Py_ssize_t n0 = pair_units(pc, js[0]), n1 = pair_units(pc, js[1]), n2 = pair_units(pc, js[2]), n3 = pair_units(pc, js[3]);
    Py_ssize_t n = n0, lo = n0;
    if (n1 > n) n = n1;
    if (n2 > n) n = n2;
    if (n3 > n) n = n3;
    if (n1 < lo) lo = n1;
    if (n2 < lo) lo = n2;
    if (n3 < lo) lo = n3;
    const int32_t sent = (int32_t)pc->nunits;
    uint64_t V0 = ~0ULL, V1 = ~0ULL, V2 = ~0ULL, V3 = ~0ULL;
#define LANE(V, M) { uint64_t M_ = (M), U_ = V & M_; V = (V + U_) | (V - U_); }
    Py_ssize_t q = 0;
    for (; q < lo; q++) {
        LANE(V0, mask[u0[q]]); LANE(V1, mask[u1[q]]); LANE(V2, mask[u2[q]]); LANE(V3, mask[u3[q]]);
    }
    for (; q < n; q++) {
        LANE(V0, mask[q < n0 ? u0[q] : sent]); LANE(V1, mask[q < n1 ? u1[q] : sent]);
        LANE(V2, mask[q < n2 ? u2[q] : sent]); LANE(V3, mask[q < n3 ? u3[q] : sent]);
    }
#undef LANE
    uint64_t valid = low_bits(k->rlen);
    h[0] = popc64(~V0 & valid); h[1] = popc64(~V1 & valid); h[2] = popc64(~V2 & valid); h[3] = popc64(~V3 & valid);
}

/* Row groups: up to 8 row texts of <= 32 units (32-bit lanes) or 4 of <= 64 (64-bit lanes) run
 * against one column text at once, their masks interleaved per unit (vm[t] holds row l's
 * columns of unit t in lane l), so that one load serves every lane and the lanes' LCS steps are
 * vector operations (GCC/Clang vector extensions: SSE2/AVX2/NEON as the target allows). */
typedef struct { Py_ssize_t text[8], len[8]; int n, wide; } PairGroup;

#if (defined(__GNUC__) || defined(__clang__)) && !defined(ROUGE_FULL_METRIC_NO_LANES)
#define PAIR_LANES 1
/* 16-byte vectors (SSE2, NEON): two per group, kept in registers */
typedef uint32_t pv32 __attribute__((vector_size(16), may_alias));
typedef uint64_t pv64 __attribute__((vector_size(16), may_alias));
#else
#define PAIR_LANES 0
#endif

static int pairk_vm(PairK *k) {
    if (k->vm) return 0;
    size_t size = (size_t)(k->pc->nunits + 1) * 32 + 32;
    k->vmraw = (unsigned char *)calloc(size, 1);
    k->present = (uint64_t *)calloc((size_t)(k->pc->nunits >> 6) + 2, 8);
    if (!k->vmraw || !k->present) return -1;
    k->vm = (unsigned char *)(((uintptr_t)k->vmraw + 31) & ~(uintptr_t)31);
    return 0;
}

static void group_set(PairK *k, const PairGroup *g) {
    const PairCorpus *pc = k->pc;
    for (int l = 0; l < g->n; l++) {
        const int32_t *u = pc->unit + pc->uoff[g->text[l]];
        for (Py_ssize_t j = 0; j < g->len[l]; j++) {
            unsigned char *cell = k->vm + (size_t)u[j] * 32;
            k->present[u[j] >> 6] |= 1ULL << (u[j] & 63);
            if (g->wide) { uint64_t x; memcpy(&x, cell + 8 * l, 8); x |= 1ULL << j; memcpy(cell + 8 * l, &x, 8); }
            else { uint32_t x; memcpy(&x, cell + 4 * l, 4); x |= 1U << j; memcpy(cell + 4 * l, &x, 4); }
        }
    }
}

static void group_clear(PairK *k, const PairGroup *g) {
    const PairCorpus *pc = k->pc;
    for (int l = 0; l < g->n; l++) {
        const int32_t *u = pc->unit + pc->uoff[g->text[l]];
        for (Py_ssize_t j = 0; j < g->len[l]; j++) {
            memset(k->vm + (size_t)u[j] * 32, 0, 32);
            k->present[u[j] >> 6] = 0;
        }
    }
}

#if PAIR_LANES
/* t if some row holds unit t, else the sentinel (branch-free: which one is unpredictable) */
static inline size_t group_unit(const uint64_t *present, int32_t t, int32_t sent) {
    uint64_t keep = 0 - ((present[t >> 6] >> (t & 63)) & 1);
    return (size_t)(((uint64_t)(uint32_t)t & keep) | ((uint64_t)(uint32_t)sent & ~keep));
}

/* LCS lengths of column text j against each row of the group. */
static inline void group_lcs(PairK *k, const PairGroup *g, Py_ssize_t j, Py_ssize_t *h) {
    const PairCorpus *pc = k->pc;
    const int32_t *u = pc->unit + pc->uoff[j];
    Py_ssize_t n = pair_units(pc, j);
    const uint64_t *present = k->present;
    const int32_t sent = (int32_t)pc->nunits;
    /* a unit no row holds reads the sentinel's zero mask (cached) rather than its own (a cache
     * miss for a rare unit) */
#define GROUP_UNIT(t) group_unit(present, (t), sent)
    uint64_t out[4];
    if (!g->wide) {
        const pv32 *vm = (const pv32 *)k->vm;
        pv32 A = ~(pv32){0, 0, 0, 0}, B = A;
        for (Py_ssize_t q = 0; q < n; q++) {
            const pv32 *M = vm + 2 * (size_t)GROUP_UNIT(u[q]);
            pv32 MA = M[0], MB = M[1], UA = A & MA, UB = B & MB;
            A = (A + UA) | (A - UA);
            B = (B + UB) | (B - UB);
        }
        pv32 res[2];   /* A and B themselves never have their address taken: registers */
        res[0] = A;
        res[1] = B;
        const uint32_t *lanes = (const uint32_t *)res;
        for (int l = 0; l < g->n; l++) {
            uint32_t valid = g->len[l] >= 32 ? 0xFFFFFFFFU : (1U << g->len[l]) - 1;
            h[l] = popc64((uint64_t)(~lanes[l] & valid));
        }
    } else {
        const pv64 *vm = (const pv64 *)k->vm;
        pv64 A = ~(pv64){0, 0}, B = A;
        for (Py_ssize_t q = 0; q < n; q++) {
            const pv64 *M = vm + 2 * (size_t)GROUP_UNIT(u[q]);
            pv64 MA = M[0], MB = M[1], UA = A & MA, UB = B & MB;
            A = (A + UA) | (A - UA);
            B = (B + UB) | (B - UB);
        }
        pv64 res[2];
        res[0] = A;
        res[1] = B;
        memcpy(out, res, 32);
        for (int l = 0; l < g->n; l++) h[l] = popc64(~out[l] & low_bits(g->len[l]));
    }
#undef GROUP_UNIT
}
#endif

/* Row texts (indices into pc) split into groups: those of <= 32 units by eights, of 33..64 by
 * fours (in the order given); the longer ones are left for the one-row kernels.  Returns the
 * number of groups written to gs (room: n / 4 + 2), the long rows to rest (*nrest). */
static Py_ssize_t make_groups(const PairCorpus *pc, const Py_ssize_t *rows, Py_ssize_t n, PairGroup *gs,
                              Py_ssize_t *rest, Py_ssize_t *nrest) {
    Py_ssize_t ng = 0;
    *nrest = 0;
    PairGroup cur[2];
    cur[0].n = cur[1].n = 0;
    cur[0].wide = 0;
    cur[1].wide = 1;
    for (Py_ssize_t x = 0; x < n; x++) {
        Py_ssize_t t = rows[x], len = pair_units(pc, t);
        if (len > 64 || !PAIR_LANES) { rest[(*nrest)++] = t; continue; }
        PairGroup *g = &cur[len > 32];
        g->text[g->n] = t;
        g->len[g->n] = len;
        if (++g->n == (g->wide ? 4 : 8)) { gs[ng++] = *g; g->n = 0; }
    }
    for (int w = 0; w < 2; w++) if (cur[w].n) gs[ng++] = cur[w];
    return ng;
}

/* The measure of prediction p against reference r, one of which is the row. */
static int pairk_score(PairK *k, Py_ssize_t p, Py_ssize_t r, double *out) {
    const PairCorpus *pc = k->pc;
    if (pc->fast) {
        Py_ssize_t other = p == k->row && k->row_is_pred ? r : p;
        *out = pairk_value(k, other, pc->kind == K_L ? pairk_lcs(k, other) : pairk_overlap(k, other));
        return 0;
    }
    TextBuf two[2];
    two[0] = pc->tb[p];
    two[1] = pc->tb[r];
    PS st[2];
    if (example_stats(k->w, two, 1, st)) return -1;
    /* one reference: every multi_ref rule and jackknifing reduce to the plain score */
    *out = pick(score_from_counts(k->e, st[0].h, st[0].rc, st[0].pc, k->weight), k->measure);
    return 0;
}

/* Does a pair with h <= hub (units: lr of the reference, lp of the prediction) possibly score
 * >= threshold?  The margin covers 5-decimal rounding and the last bits of the F formulas,
 * so a pair whose score reaches the threshold is never refused. */
static inline int pair_may_reach(EngineObject *e, double hub, Py_ssize_t lr, Py_ssize_t lp, int measure, double threshold) {
    SC s = score_from_counts(e, hub, (double)lr, (double)lp, 0.0);
    return pick(s, measure) >= threshold - 2e-5;
}

static int get_buf(PyObject *o, Py_buffer *view, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)) return -1;
    if (view->itemsize != 8 || view->len < need * 8) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: need a writable contiguous buffer of %zd 8-byte items", what, need);
        return -1;
    }
    return 0;
}

static PairCorpus *corpus_of(PyObject *capsule, WorkerObject *w) {
    PairCorpus *pc = (PairCorpus *)PyCapsule_GetPointer(capsule, PAIR_CAPSULE);
    if (pc && pc->eng != w->eng) {
        PyErr_SetString(PyExc_ValueError, "the Worker and the corpus belong to different Engines");
        return NULL;
    }
    return pc;
}

/* pair_matrix(worker, corpus, a_base, b_base, ncols, r0, r1, measure, out): for rows
 * r0 <= r < r1 and columns 0 <= c < ncols, out[r * ncols + c] = the score (0: precision,
 * 1: recall, 2: F) of prediction a_base + r against reference b_base + c. */
static PyObject *mod_pair_matrix(PyObject *self, PyObject *args) {
    PyObject *wo, *co, *outo;
    Py_ssize_t a_base, b_base, ncols, r0, r1;
    int measure;
    if (!PyArg_ParseTuple(args, "O!OnnnnniO", &WorkerType, &wo, &co, &a_base, &b_base, &ncols, &r0, &r1,
                          &measure, &outo)) return NULL;
    WorkerObject *w = (WorkerObject *)wo;
    PairCorpus *pc = corpus_of(co, w);
    if (!pc) return NULL;
    if (a_base < 0 || b_base < 0 || ncols < 0 || r0 < 0 || r1 < r0 || a_base + r1 > pc->n || b_base + ncols > pc->n ||
        measure < 0 || measure > 2) {
        PyErr_SetString(PyExc_ValueError, "pair_matrix: bounds out of range");
        return NULL;
    }
    if (w->busy) { PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)"); return NULL; }
    Py_buffer out;
    if (get_buf(outo, &out, r1 * ncols, "out")) return NULL;
    double *o = (double *)out.buf;
    PairK k;
    int err = 0;
    w->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    if (pairk_init(&k, pc, w, 0, measure, 1)) err = 1;
    int lanes = !err && pc->kind == K_L && ncols >= 4;
    if (lanes) {
        /* the columns by length (counting sort), so that four neighbours end together */
        Py_ssize_t *cnt = (Py_ssize_t *)calloc((size_t)pc->maxunits + 2, sizeof(Py_ssize_t));
        k.order = (Py_ssize_t *)malloc((size_t)ncols * sizeof(Py_ssize_t));
        if (!cnt || !k.order) { free(cnt); err = 1; }
        else {
            for (Py_ssize_t c = 0; c < ncols; c++) cnt[pair_units(pc, b_base + c) + 1]++;
            for (Py_ssize_t x = 1; x <= pc->maxunits + 1; x++) cnt[x] += cnt[x - 1];
            for (Py_ssize_t c = 0; c < ncols; c++) k.order[cnt[pair_units(pc, b_base + c)]++] = c;
            free(cnt);
        }
    }
    Py_ssize_t *rest = NULL, nrest = 0;
    PairGroup *gs = NULL;
    if (!err && PAIR_LANES && pc->kind == K_L && r1 > r0) {
        /* rows of <= 64 units in groups (one column pass serves 4 or 8 rows), the others below */
        Py_ssize_t nr = r1 - r0;
        Py_ssize_t *rows = (Py_ssize_t *)malloc((size_t)nr * sizeof(Py_ssize_t));
        rest = (Py_ssize_t *)malloc((size_t)nr * sizeof(Py_ssize_t));
        gs = (PairGroup *)malloc((size_t)(nr / 4 + 2) * sizeof(PairGroup));
        if (!rows || !rest || !gs || pairk_vm(&k)) err = 1;
        else {
            for (Py_ssize_t r = 0; r < nr; r++) rows[r] = a_base + r0 + r;
            Py_ssize_t ng = make_groups(pc, rows, nr, gs, rest, &nrest);
#if PAIR_LANES
            for (Py_ssize_t gi = 0; gi < ng; gi++) {
                PairGroup *g = &gs[gi];
                group_set(&k, g);
                for (Py_ssize_t c = 0; c < ncols; c++) {
                    Py_ssize_t h[8], j = b_base + c, lc = pair_units(pc, j);
                    group_lcs(&k, g, j, h);
                    for (int l = 0; l < g->n; l++)
                        o[(g->text[l] - a_base) * ncols + c] = pairk_value_len(&k, g->len[l], lc, h[l]);
                }
                group_clear(&k, g);
            }
#else
            (void)ng;
#endif
        }
        free(rows);
    }
    for (Py_ssize_t x = 0; !err && x < (rest ? nrest : r1 - r0); x++) {
        Py_ssize_t r = rest ? rest[x] - a_base : r0 + x;
        Py_ssize_t p = a_base + r;
        if (pairk_set_row(&k, p)) { err = 1; break; }
        double *row = o + r * ncols;
        Py_ssize_t c = 0;
        if (lanes && k.rlen <= 64) {
            for (; c + 4 <= ncols; c += 4) {
                Py_ssize_t js[4], h[4];
                for (int l = 0; l < 4; l++) js[l] = b_base + k.order[c + l];
                pairk_lcs4(&k, js, h);
                for (int l = 0; l < 4; l++) row[k.order[c + l]] = pairk_value(&k, js[l], h[l]);
            }
            for (; c < ncols; c++) {
                Py_ssize_t j = b_base + k.order[c];
                row[k.order[c]] = pairk_value(&k, j, pairk_lcs(&k, j));
            }
        }
        for (; c < ncols; c++)
            if (pairk_score(&k, p, b_base + c, &row[c])) { err = 1; break; }
        pairk_clear_row(&k);
    }
    free(rest);
    free(gs);
    pairk_free(&k);
    Py_END_ALLOW_THREADS
    w->busy = 0;
    PyBuffer_Release(&out);
    if (err) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* The lengths (units) lk of a kept text that may reach the threshold against a new text of lq
 * units: h <= min(lq, lk), a bound that rises with lk up to lq and falls after it, so they
 * form one interval [*lo, *hi] (empty: *lo > *hi), found by bisection. */
static void pair_interval(EngineObject *e, Py_ssize_t lq, Py_ssize_t maxunits, int measure, double threshold,
                          Py_ssize_t *lo, Py_ssize_t *hi) {
    if (!pair_may_reach(e, (double)lq, lq, lq, measure, threshold)) { *lo = 1; *hi = 0; return; }
    Py_ssize_t a = 0, b = lq;   /* the smallest lk <= lq that may reach */
    while (a < b) {
        Py_ssize_t mid = (a + b) / 2;
        if (pair_may_reach(e, (double)mid, lq, mid, measure, threshold)) b = mid; else a = mid + 1;
    }
    *lo = a;
    a = lq; b = maxunits > lq ? maxunits : lq;   /* the largest lk >= lq that may reach */
    while (a < b) {
        Py_ssize_t mid = a + (b - a + 1) / 2;
        if (pair_may_reach(e, (double)lq, lq, mid, measure, threshold)) a = mid; else b = mid - 1;
    }
    *hi = a;
}

/* The first kept[x] (scan_from <= x < nkept) whose score as the prediction against new text q
 * reaches the threshold: *found (-1: none) and its score. */
static int filter_query(PairK *k, Py_ssize_t q, const int64_t *kept, Py_ssize_t scan_from, Py_ssize_t nkept,
                        double threshold, Py_ssize_t *found, double *value) {
    const PairCorpus *pc = k->pc;
    EngineObject *e = pc->eng;
    int measure = k->measure, err = 0;
    *found = -1;
    *value = 0.0;
    if (pairk_set_row(k, q)) return -1;
    Py_ssize_t lq = pair_units(pc, q), minlen = 0, maxlen = pc->maxunits;
    if (pc->fast) pair_interval(e, lq, pc->maxunits, measure, threshold, &minlen, &maxlen);
    int overlap_bound = pc->kind == K_L && k->use_cnt && lq > 64;
    int lanes = pc->kind == K_L && lq <= 64;
    Py_ssize_t js[4], nl = 0;
    for (Py_ssize_t x = scan_from; x < nkept && *found < 0; x++) {
        Py_ssize_t kk = (Py_ssize_t)kept[x];
        if (pc->fast) {
            Py_ssize_t lk = pair_units(pc, kk);
            if (lk < minlen || lk > maxlen) continue;
            if (overlap_bound && !pair_may_reach(e, (double)pairk_overlap(k, kk), lq, lk, measure, threshold)) continue;
        }
        if (lanes) {
            /* four candidates at a time, checked in order */
            js[nl++] = kk;
            if (nl < 4) continue;
            Py_ssize_t h[4];
            pairk_lcs4(k, js, h);
            nl = 0;
            for (int l = 0; l < 4; l++) {
                double v = pairk_value(k, js[l], h[l]);
                if (v >= threshold) { *found = js[l]; *value = v; break; }
            }
            continue;
        }
        double v;
        if (pairk_score(k, kk, q, &v)) { err = 1; break; }
        if (v >= threshold) { *found = kk; *value = v; break; }
    }
    for (Py_ssize_t l = 0; l < nl && *found < 0; l++) {
        double v = pairk_value(k, js[l], pairk_lcs(k, js[l]));
        if (v >= threshold) { *found = js[l]; *value = v; }
    }
    pairk_clear_row(k);
    return err ? -1 : 0;
}

#if PAIR_LANES
/* filter_query for every new text of a row group at once (rougeL): one pass over the kept
 * texts, each lane stopping at its own first match. */
static void filter_group(PairK *k, const PairGroup *g, const int64_t *kept, Py_ssize_t scan_from, Py_ssize_t nkept,
                         double threshold, int64_t *match, double *score) {
    const PairCorpus *pc = k->pc;
    Py_ssize_t mn[8], mx[8], hull_lo = PY_SSIZE_T_MAX, hull_hi = -1;
    int live[8], nlive = 0;
    for (int l = 0; l < g->n; l++) {
        pair_interval(pc->eng, g->len[l], pc->maxunits, k->measure, threshold, &mn[l], &mx[l]);
        live[l] = mn[l] <= mx[l];
        if (!live[l]) continue;
        nlive++;
        if (mn[l] < hull_lo) hull_lo = mn[l];
        if (mx[l] > hull_hi) hull_hi = mx[l];
    }
    if (!nlive) return;
    group_set(k, g);
    for (Py_ssize_t x = scan_from; x < nkept && nlive; x++) {
        Py_ssize_t kk = (Py_ssize_t)kept[x], lk = pair_units(pc, kk);
        if (lk < hull_lo || lk > hull_hi) continue;
        Py_ssize_t h[8];
        group_lcs(k, g, kk, h);
        for (int l = 0; l < g->n; l++) {
            if (!live[l] || lk < mn[l] || lk > mx[l]) continue;
            double v = pairk_value_len(k, g->len[l], lk, h[l]);
            if (v >= threshold) {
                match[g->text[l]] = kk;
                score[g->text[l]] = v;
                live[l] = 0;
                nlive--;
            }
        }
    }
    group_clear(k, g);
}
#endif

/* pair_filter(worker, corpus, lo, hi, kept, nkept, scan_from, sequential, threshold, measure,
 *             match, score) -> nkept
 * For each text q in lo..hi-1 (the new text, scored as the reference against each kept text
 * k as the prediction, as Self-Instruct calls rouge_score), the first kept[x], scan_from <= x <
 * nkept, whose score reaches threshold goes to match[q] (its score to score[q]).  With
 * sequential, texts already matched (match[q] >= 0) are skipped and a text left unmatched is
 * appended to kept; otherwise kept is read only (several threads may scan one block). */
static PyObject *mod_pair_filter(PyObject *self, PyObject *args) {
    PyObject *wo, *co, *kepto, *matcho, *scoreo;
    Py_ssize_t lo, hi, nkept, scan_from;
    int sequential, measure;
    double threshold;
    if (!PyArg_ParseTuple(args, "O!OnnOnnpdiOO", &WorkerType, &wo, &co, &lo, &hi, &kepto, &nkept, &scan_from,
                          &sequential, &threshold, &measure, &matcho, &scoreo)) return NULL;
    WorkerObject *w = (WorkerObject *)wo;
    PairCorpus *pc = corpus_of(co, w);
    if (!pc) return NULL;
    if (lo < 0 || hi < lo || hi > pc->n || nkept < 0 || scan_from < 0 || measure < 0 || measure > 2) {
        PyErr_SetString(PyExc_ValueError, "pair_filter: bounds out of range");
        return NULL;
    }
    if (w->busy) { PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)"); return NULL; }
    Py_buffer kb, mb, sb;
    if (get_buf(kepto, &kb, pc->n, "kept")) return NULL;
    if (get_buf(matcho, &mb, pc->n, "match")) { PyBuffer_Release(&kb); return NULL; }
    if (get_buf(scoreo, &sb, pc->n, "score")) { PyBuffer_Release(&kb); PyBuffer_Release(&mb); return NULL; }
    int64_t *kept = (int64_t *)kb.buf, *match = (int64_t *)mb.buf;
    double *score = (double *)sb.buf;
    int bad = nkept > pc->n;
    for (Py_ssize_t x = 0; x < nkept && !bad; x++) bad = kept[x] < 0 || kept[x] >= pc->n;
    if (bad) {
        PyBuffer_Release(&kb); PyBuffer_Release(&mb); PyBuffer_Release(&sb);
        PyErr_SetString(PyExc_ValueError, "pair_filter: kept holds indices out of range");
        return NULL;
    }
    PairK k;
    int err = 0;
    w->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    /* rougeL rows longer than one word also get counts: the unigram overlap bounds the LCS */
    if (pairk_init(&k, pc, w, pc->kind == K_L && pc->maxunits > 64, measure, 0)) err = 1;
    Py_ssize_t *order = NULL, *rest = NULL, nrest = 0;
    PairGroup *gs = NULL;
    if (!err && !sequential && PAIR_LANES && pc->kind == K_L && hi > lo) {
        /* independent new texts: by length into row groups, each scanning the kept texts once */
        Py_ssize_t nq = hi - lo;
        Py_ssize_t *cnt = (Py_ssize_t *)calloc((size_t)pc->maxunits + 2, sizeof(Py_ssize_t));
        order = (Py_ssize_t *)malloc((size_t)nq * sizeof(Py_ssize_t));
        rest = (Py_ssize_t *)malloc((size_t)nq * sizeof(Py_ssize_t));
        gs = (PairGroup *)malloc((size_t)(nq / 4 + 2) * sizeof(PairGroup));
        if (!cnt || !order || !rest || !gs || pairk_vm(&k)) err = 1;
        else {
            for (Py_ssize_t q = lo; q < hi; q++) cnt[pair_units(pc, q) + 1]++;
            for (Py_ssize_t x = 1; x <= pc->maxunits + 1; x++) cnt[x] += cnt[x - 1];
            for (Py_ssize_t q = lo; q < hi; q++) order[cnt[pair_units(pc, q)]++] = q;
            Py_ssize_t ng = make_groups(pc, order, nq, gs, rest, &nrest);
#if PAIR_LANES
            for (Py_ssize_t gi = 0; gi < ng; gi++)
                filter_group(&k, &gs[gi], kept, scan_from, nkept, threshold, match, score);
#else
            (void)ng;
#endif
        }
        free(cnt);
    }
    for (Py_ssize_t x = 0; !err && x < (rest ? nrest : hi - lo); x++) {
        Py_ssize_t q = rest ? rest[x] : lo + x;
        if (sequential && match[q] >= 0) continue;
        Py_ssize_t found;
        double value;
        if (filter_query(&k, q, kept, scan_from, nkept, threshold, &found, &value)) { err = 1; break; }
        if (found >= 0) { match[q] = found; score[q] = value; }
        else if (sequential) kept[nkept++] = q;
    }
    free(order); free(rest); free(gs);
    pairk_free(&k);
    Py_END_ALLOW_THREADS
    w->busy = 0;
    PyBuffer_Release(&kb); PyBuffer_Release(&mb); PyBuffer_Release(&sb);
    if (err) return PyErr_NoMemory();
    return PyLong_FromSsize_t(nkept);
}

/* pair_info(corpus) -> {texts, vocabulary, units, total_units, fast}: sizes, for tests. */
static PyObject *mod_pair_info(PyObject *self, PyObject *co) {
    PairCorpus *pc = (PairCorpus *)PyCapsule_GetPointer(co, PAIR_CAPSULE);
    if (!pc) return NULL;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:i}", "texts", pc->n, "vocabulary", pc->vocab, "units", pc->nunits,
                         "total_units", pc->uoff[pc->n], "fast", pc->fast);
}

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

/* _set_intern_limits(entries, bytes) -> previous (entries, bytes): a Worker's token cache resets
 * between examples past either; tests shrink them to exercise the resets. */
static PyObject *mod_set_intern_limits(PyObject *self, PyObject *args) {
    Py_ssize_t ne, nb;
    if (!PyArg_ParseTuple(args, "nn", &ne, &nb)) return NULL;
    if (ne < 1 || nb < 1) { PyErr_SetString(PyExc_ValueError, "limits must be >= 1"); return NULL; }
    PyObject *old = Py_BuildValue("nn", INTERN_RESET_LIMIT, INTERN_RESET_BYTES);
    if (old) { INTERN_RESET_LIMIT = ne; INTERN_RESET_BYTES = nb; }
    return old;
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
    {"xlsum_tokenize", (PyCFunction)(void (*)(void))mod_xlsum_tokenize, METH_VARARGS | METH_KEYWORDS,
     "xlsum_tokenize(text, pretokenize=True) -> [str]: multilingual-rouge 0.0.1's unstemmed tokens of text\n"
     "for a language without a segmenter (and lang=None); pretokenize=False: BasicTokenizer alone\n"
     "(its rougeLsum).\n\n"
     ">>> xlsum_tokenize('Hello, World! 北京2024年')\n"
     "['hello', 'world', '北', '京', '2024', '年']"},
    {"_set_table_limit", mod_set_table_limit, METH_O, "Set the back-trace table budget (64-bit words); returns the old one."},
    {"pair_corpus", mod_pair_corpus, METH_VARARGS, "pair_corpus(worker, texts_a, texts_b=None) -> corpus: texts tokenized once (pairwise.py)."},
    {"pair_matrix", mod_pair_matrix, METH_VARARGS, "pair_matrix(worker, corpus, a_base, b_base, ncols, r0, r1, measure, out): rows of a score matrix."},
    {"pair_filter", mod_pair_filter, METH_VARARGS, "pair_filter(worker, corpus, lo, hi, kept, nkept, scan_from, sequential, threshold, measure, match, score) -> nkept."},
    {"pair_info", mod_pair_info, METH_O, "pair_info(corpus) -> sizes of a pair corpus (for tests)."},
    {"_set_intern_limits", mod_set_intern_limits, METH_VARARGS,
     "_set_intern_limits(entries, bytes) -> old (entries, bytes): a Worker's token-cache reset thresholds."},
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
    Py_INCREF(Py_True);   /* xlsum_tokenize and Engine(tokenizer=...) exist */
    if (PyModule_AddObject(m, "XLSUM_TOKENIZER", Py_True) < 0) { Py_DECREF(Py_True); Py_DECREF(m); return NULL; }
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) { Py_DECREF(&EngineType); Py_DECREF(m); return NULL; }
    Py_INCREF(&WorkerType);
    if (PyModule_AddObject(m, "Worker", (PyObject *)&WorkerType) < 0) { Py_DECREF(&WorkerType); Py_DECREF(m); return NULL; }
    return m;
}
