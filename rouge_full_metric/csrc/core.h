/* Shared types, constants and includes of the compiled core (see _core.c for the map).
 */
#ifndef ROUGE_FULL_METRIC_CORE_H
#define ROUGE_FULL_METRIC_CORE_H

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
/* A function whose hot loops must keep their own registers: inlined into a big caller, GCC's
 * allocation for the caller's many live values slowed them (see ngram_levels). */
#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define NOINLINE __declspec(noinline)
#else
#define NOINLINE
#endif
/* A small function whose result should stay in registers at its hot call sites: called, its
 * returned struct went through the stack and its divisions could not overlap the next call's. */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ALWAYS_INLINE __forceinline
#else
#define ALWAYS_INLINE inline
#endif
#include <time.h>

#if PY_VERSION_HEX < 0x030A0000
/* PyGC_Disable and PyGC_Enable came with Python 3.10.  Before it, the gc module's functions (the
 * GIL held; looked up once): without this the core built on 3.9 with an implicit declaration and
 * failed to import (undefined symbol), and the package ran its pure-Python engine.  An exception
 * already set (build_range re-enables on its error path) is kept across the calls. */
static PyObject *gc_funcs[3];   /* gc.isenabled, gc.disable, gc.enable */

static int gc_compat_call(int which) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    static const char *const names[3] = {"isenabled", "disable", "enable"};
    int out = 0;
    if (!gc_funcs[which]) {
        PyObject *gc = PyImport_ImportModule("gc");
        if (gc) {
            gc_funcs[which] = PyObject_GetAttrString(gc, names[which]);
            Py_DECREF(gc);
        }
    }
    PyObject *r = gc_funcs[which] ? PyObject_CallNoArgs(gc_funcs[which]) : NULL;
    if (r) out = r == Py_True;
    Py_XDECREF(r);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
    return out;
}

/* Both return whether the collector was enabled before, as the 3.10 functions do. */
static int PyGC_Disable(void) {
    int was = gc_compat_call(0);
    if (was) gc_compat_call(1);
    return was;
}

static int PyGC_Enable(void) {
    int was = gc_compat_call(0);
    if (!was) gc_compat_call(2);
    return was;
}
#endif

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
 * them (_set_intern_limits) to exercise the resets without gigabytes of tokens.  An entry costs
 * 60-140 bytes across the per-vocabulary arrays (more with the XL-Sum tokenizer's stems), so
 * 2^17 entries and an 8 MiB arena keep a Worker under ~25 MB (docs/memory.md); 2^22 entries let
 * an xlsum scorer reach ~640 MB.  A batch's working vocabulary is far below 2^17 distinct
 * tokens: warm scoring never resets. */
static Py_ssize_t INTERN_RESET_LIMIT = (Py_ssize_t)1 << 17;
static Py_ssize_t INTERN_RESET_BYTES = (Py_ssize_t)1 << 23;

#define ERR_NOMEM 1
#define ERR_PY 2

typedef struct { int32_t *v; Py_ssize_t n, cap; } IVec;

/* off is 64 bits: a long-lived Worker's arena may pass 4 GiB between resets.  head and head2
 * are the token's bytes 0-7 and 8-15 (zero-padded; head2 is 0 for tokens of <= 8 bytes): a token
 * of <= 16 bytes compares in two words without reading the arena. */
typedef struct { uint64_t h; uint64_t head, head2; uint64_t off; uint32_t len; int32_t fin; } Entry;

/* A slot of the interner's table, 32 bytes, aligned so that it is one cache line: a token of up
 * to 16 bytes is found, with its final id, in the slot its hash names (prefetched by the scanner)
 * without a dependent read of its entry.  tag: the hash's high 32 bits; idx1: entry index + 1
 * (0: empty); fin: the entry's fin, kept equal to it (interner_set_fin). */
typedef struct { uint64_t head, head2; uint32_t tag, len, idx1; int32_t fin; } Slot;

typedef struct {
    Entry *ent; Py_ssize_t nent, capent;
    Slot *tab; Py_ssize_t tabcap;   /* power of two */
    void *tabmem;                   /* tab's allocation (huge_alloc's raw block) */
    size_t tabmapped;               /* its huge_alloc mapping (0: malloc'd) */
    char *arena; Py_ssize_t alen, acap;
} Interner;

/* Direct-mapped cache of final ids for tokens of up to 16 bytes: frequent (Zipf) tokens then cost
 * a probe of a table that mostly stays in L2 instead of a miss in the interner's bigger one
 * (without it: 7 % slower on news).  Made once that table reaches 2 MB (worker_front).  A hit is
 * exact: the whole token (head and head2: bytes 0-7 and 8-15, zero-padded) and its length are
 * compared. */
#define FRONT_BITS 14
typedef struct { uint64_t head, head2; uint32_t tag; int32_t fin; } Front;

typedef struct { int kind; int n; double weight; int max_gap; int unigrams; PyObject *name; } TSpec;

/* A direct-mapped cache of result floats by their bits (worker.c's result_float).  ROUGE scores
 * are ratios of small counts, so a batch repeats few values (11,490 news pairs x 4 types: 137,880
 * scores, 2,109 distinct), and an object shared is one not allocated, nor later freed, by the
 * thread that builds every result. */
#define FLOAT_CACHE_BITS 13
#define FLOAT_CACHE_SMALL_BITS 8   /* until a build of FLOAT_CACHE_GROW_FROM examples (worker.c) */
typedef struct { uint64_t bits; PyObject *obj; } FloatSlot;

/* The same for whole Score objects, by the bits of their three floats (worker.c's result_score):
 * news repeats 4,780 distinct (precision, recall, F) of its 45,960.  Only for a plain Score type
 * (score_plain), whose instances are immutable, so that sharing one between results shows in
 * nothing but its identity.  Sized with the float cache. */
typedef struct { uint64_t p, r, f; PyObject *obj; } ScoreSlot;

typedef struct {
    PyObject_HEAD
    int flavor;
    int ntypes;
    TSpec *types;
    Py_ssize_t word_limit, byte_limit;
    int needs_sentences, needs_flat;
    int single_ref_kinds;   /* single_ref.c's SR_* set of the types, 0 when that path never serves */
    int multi_ref, jackknife, rounded, rs_f;
    double alpha;
    PyObject *filter;       /* callable(str) -> str | None, or NULL */
    /* tokenization.make_token_filter in C for [a-z0-9] tokens (filter stays the fallback):
     * stops holds the stop words, exc the exception table (a key's fin: its base form's entry;
     * a base form that is no key has fin -1).  Read-only once built, so Workers share it. */
    int native, stem, drop_stop;
    int nltk_stem;          /* flavor rouge_score: NLTK's Porter (nltk_porter.c) on tokens of > 3 bytes */
    Interner stops, exc;
    int exc_shared;         /* exc is text_exc (engine.c), shared by every Engine: not freed */
    PyObject *score_type, *stats_type;
    /* each a plain tuple subclass (a namedtuple: no __dict__, no weak references), whose
     * instances worker.c's make_tuple creates untracked (tuple_plain) */
    int score_plain, stats_plain;
    int tokenizer;          /* TOK_*: see the Unicode token pipelines section */
    FloatSlot *floats;      /* 1 << float_bits slots or NULL; the one part written after init,
                             * only with the GIL (result building) */
    int float_bits;
    ScoreSlot *scores;      /* 1 << float_bits slots or NULL (also when not score_plain), as floats */
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

struct Ctx;

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
    uint32_t *nbuf; Py_ssize_t nbufcap; /* the same, as code points (nltk_porter.c) */
    Span *lines; Py_ssize_t nlines, linescap;
    char *flat; Py_ssize_t flatcap;
    IVec pdist;                         /* distinct tokens of the prediction */
    IVec red;                           /* a peer sentence reduced for one WLCS */
    /* union LCS/WLCS work in prediction-local ids: these D-sized arrays stay in L1 */
    int32_t *lslot, *lbm, *lbp; uint32_t *lustamp, *lpstamp;
    Py_ssize_t lslotcap, lbmcap, lbpcap, lustampcap, lpstampcap;
    /* rougeL's slots in prediction-local ids, from index -1 (a reference token the prediction
     * lacks): -1 between uses */
    int32_t *lslot1; Py_ssize_t lslot1cap;
    /* a sentence of <= 64 tokens, or a word of packed sentences: its columns per token (through
     * LMASK), and for the packed union back-trace the same bits reversed (LMASKR); zero between uses */
    uint64_t *lmask; Py_ssize_t lmaskcap;
    uint64_t *lmaskr; Py_ssize_t lmaskrcap;
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
    uint8_t *carry; Py_ssize_t carrycap;   /* lcs_length_blocks: one carry bit per row */
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
    /* Ctrl-C inside one long computation (interrupts.c): the running call's context (NULL: none),
     * work done since the last clock read, that read, a caller's cancel byte (another thread
     * sets it), and stop: set once the call must end (its kernels then return at once) */
    struct Ctx *ctx;
    int64_t poll_work, poll_last;
    const volatile unsigned char *cancel;
    int stop;
} WorkerObject;

/* The Worker's growable arrays as (array, its capacity in elements), beside the struct so that a
 * new one is added here: worker_free_buffers frees them and worker_bytes counts their bytes (the
 * token cache, the front cache and the text buffers' own arrays are handled apart). */
#define WORKER_ARRAYS(X) \
    X(slot, vcap) X(loc, vcap) X(tb, tbcap) X(tbuf, tbcap_chars) X(sbuf, sbufcap) X(nbuf, nbufcap) \
    X(lines, linescap) X(flat, flatcap) X(pdist.v, pdist.cap) X(red.v, red.cap) X(lslot, lslotcap) \
    X(lbm, lbmcap) X(lbp, lbpcap) X(lustamp, lustampcap) X(lpstamp, lpstampcap) X(lslot1, lslot1cap) \
    X(lmask, lmaskcap) X(lmaskr, lmaskrcap) X(lps.v, lps.cap) X(lrs.v, lrs.cap) X(lrso, lrsocap) \
    X(masks, maskcap) X(rows, rowcap) X(wrow, wrowcap) X(ck, ckcap) X(wc, wccap) X(wr, wrcap) \
    X(zeros, zeroscap) X(wck, wckcap) X(wckr, wckrcap) X(mark, markcap) X(carry, carrycap) X(gt, gtcap) \
    X(stats, statscap) X(scores, scorescap) X(tmp, tmpcap) X(lp.v, lp.cap) X(lr.v, lr.cap) \
    X(lro, lrocap) X(dcnt, dcap) X(rtab, rtabcap) X(pre, precap) X(rflag, rflagcap) X(lcnt, lcntcap) \
    X(ucnt, ucap) X(ph, phcap) X(prc, phcap) X(pid, pidcap) X(rid, ridcap) X(cell, cellcap) \
    X(gcnt, gcntcap) X(clog, clogcap) X(ltab, ltabcap) X(nh, nhcap)

/* helper: a thread that is not the caller's; it leaves Python's signal handlers (which only the
 * main thread runs) to the caller and learns of Ctrl-C by the cancel byte */
/* high: set by tok_perl when its span held a byte >= 0x80 (read_text's check for rouge_score's
 * two non-ASCII lowercasings then runs only on such texts) */
typedef struct Ctx { WorkerObject *w; PyThreadState *ts; int nogil; int err; int helper; int high; } Ctx;

static PyTypeObject EngineType;
static PyTypeObject WorkerType;

#endif /* ROUGE_FULL_METRIC_CORE_H */
