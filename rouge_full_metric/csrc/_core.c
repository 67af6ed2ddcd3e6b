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
 * result objects (with n_jobs > 1 only the calling thread builds them: parallel.c).
 */

/*
 * Layout: one file a section, all compiled as this one translation unit (the sections are
 * included below, in dependency order), so that the compiler sees and inlines across them
 * exactly as it did when they were one file.  core.h holds the shared types and constants.
 * Each file mirrors the Python module that is its reference:
 *   tokenization.c  <- tokenization.py (the Perl's byte tokenizer, the readers)
 *   xlsum_tokenizer.c <- xlsum_tokenizer.py (XL-Sum's Unicode pipeline: cleaning, pyonmttok's
 *                     aggressive mode, CJK split; Engine(tokenizer="xlsum"|"xlsum_basic"|"whitespace"))
 *   char_trie.c       a character trie (the segmenters' dictionaries; no Python counterpart)
 *   newmm.c         <- PyThaiNLP's newmm and tcc_p (Thai words; native_segmenters.py compiles the cluster pattern)
 *   jieba.c         <- jieba's cut of one block, with its dictionary and HMM (Chinese words)
 *   stemmer.c       <- stemmer.py (Porter with Lin's changes, WordNet exceptions)
 *   nltk_porter.c   <- nltk/stem/porter.py (NLTK's PorterStemmer, flavor rouge_score; nltk_porter.py gates it)
 *   interner.c        token interning (ids for tokens; no Python counterpart)
 *   ngrams.c        <- ngrams.py (n-grams, skip-bigrams, clipped matches)
 *   skip_bigrams.c  <- ngrams.py's skip_bigram_stats (long texts: memory bounded by the pairs)
 *   lcs.c, wlcs.c, union_lcs.c <- lcs.py (LCS, WLCS, the union back-traces)
 *   bitrev.c          bit reversal of 64-bit words (plain, or AVX2 / GFNI chosen at run time)
 *   pair_stats.c    <- scorer.py's _pair_stats (per rouge type, per reference)
 *   scoring.c, rounding.c <- scoring.py (multi-reference combination, jackknife, round5)
 *   engine.c, worker.c <- batch.py (the options compiled; a thread's buffers and batch loop,
 *                     Ctrl-C between examples)
 *   interrupts.c      Ctrl-C inside one long call (no Python counterpart: Python checks between bytecodes)
 *   pairwise.c      <- pairwise.py (score_matrix, filter_near_duplicates)
 *   bootstrap.c     <- bootstrap.py (the Perl bootstrap's replicate sums)
 *   bootstrap_simd.c  the same sums in AVX2 / AVX-512 vectors, chosen at run time (x86-64);
 *                     it includes bootstrap_avx512.h twice (AVX-512 with DQ, and with IFMA)
 *   perl_config.c   <- cli/perl_config.py (the canonical XML config scanner)
 *   perl_cli.c      <- cli/perl_cli.py (whole-file reads)
 *   text_utf8.c       a str's UTF-8 for the readers, and lost_text.py's bound (ASCII runs 16 at a time)
 */
#include "core.h"

#include "buffers.c"
#include "interrupts.c"
#include "rounding.c"
#include "interner.c"
#include "stemmer.c"
#include "nltk_porter.c"
#include "tokenization.c"
#include "pseudo_words.c"
#include "xlsum_tokenizer.c"
#include "char_trie.c"
#include "newmm.c"
#include "jieba.c"
#include "ngrams.c"
#include "lcs.c"
#include "wlcs.c"
#include "bitrev.c"
#include "union_lcs.c"
#include "skip_bigrams.c"
#include "pair_stats.c"
#include "single_ref.c"
#include "scoring.c"
#include "engine.c"
#include "worker.c"
#include "parallel.c"
#include "text_utf8.c"
#include "pairwise.c"
#include "bootstrap_simd.c"
#include "bootstrap.c"
#include "perl_cli.c"
#include "perl_config.c"

/* ------------------------------------------------------------------------------------------ */
/* the module: test hooks, method table, initialization                                         */

/* A test hook's swap: *setting = arg (a whole number >= 1, else ValueError "<what> must be >= 1"),
 * returning the previous value. */
static PyObject *swap_setting(Py_ssize_t *setting, PyObject *arg, const char *what) {
    Py_ssize_t v = PyLong_AsSsize_t(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < 1) return PyErr_Format(PyExc_ValueError, "%s must be >= 1", what);
    Py_ssize_t old = *setting;
    *setting = v;
    return PyLong_FromSsize_t(old);
}

/* _set_table_limit(words) -> previous: tests shrink it to exercise the checkpointed back-traces. */
static PyObject *mod_set_table_limit(PyObject *self, PyObject *arg) {
    return swap_setting(&TABLE_WORDS_LIMIT, arg, "limit");
}

/* _set_batch_head(bytes) -> previous: text an n_jobs batch reads per thread before its helpers
 * start; tests shrink it so that the helpers find the rest unread. */
static PyObject *mod_set_batch_head(PyObject *self, PyObject *arg) {
    return swap_setting(&HEAD_BYTES_PER_THREAD, arg, "bytes");
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
    {"nltk_porter_stem", (PyCFunction)(void (*)(void))mod_nltk_porter_stem, METH_VARARGS | METH_KEYWORDS,
     "nltk_porter_stem(word, pool_lowercased=True) -> nltk.stem.PorterStemmer().stem(word), in C (any str).\n"
     "pool_lowercased=False: NLTK before 3.10 (the irregular forms looked up before lowercasing).\n\n"
     ">>> nltk_porter_stem('generalizations'), nltk_porter_stem('dying')\n"
     "('gener', 'die')"},
    {"replicate_sums", mod_replicate_sums, METH_VARARGS,
     "replicate_sums(values, N, K, out, R, first=0): the Perl bootstrap's sequential sums of replicates first..first+R-1."},
    {"byte_order", mod_byte_order, METH_VARARGS,
     "byte_order(keys, out): out (intp, len(keys)) = bootstrap.byte_order(keys), the keys' code-point order, ties in input order."},
    {"count_sums", mod_count_sums, METH_VARARGS,
     "count_sums(values, N, K, out, R, first=0): the Perl bootstrap's sums of replicates first..first+R-1 as draw counts times values, in row order; False when a count passes 255."},
    {"_tokenizer_simd", mod_tokenizer_simd, METH_O,
     "_tokenizer_simd(level) -> (previous, supported): the Perl tokenizer's lowering, 0 word at a time, 1 AVX2 (tests)."},
    {"_bootstrap_hooks", mod_bootstrap_hooks, METH_VARARGS,
     "_bootstrap_hooks(simd, count_limit[, pack_min]) -> previous (simd, count_limit, supported simd, pack_min), packed blocks; -1 keeps a setting (tests)."},
    {"_single_ref_hook", mod_single_ref_hook, METH_O,
     "_single_ref_hook(on) -> previous (allowed, served since its first call): 0 sends one-reference examples the general way, -1 keeps it (tests)."},
    {"_bitrev_hooks", mod_bitrev_hooks, METH_O,
     "_bitrev_hooks(level) -> previous (allowed, supported): 0 forces the plain bit reversal, 1 allows AVX2, "
     "2 GFNI, -1 keeps it (tests)."},
    {"round5", mod_round5, METH_O, "float('%.5f' % x), computed in C."},
    {"utf8", mod_utf8, METH_O,
     "utf8(text) -> text.encode('utf-8', 'surrogatepass'), as the core's readers take a str (for tests)."},
    {"ascii_majority", (PyCFunction)(void (*)(void))mod_ascii_majority, METH_FASTCALL,
     "ascii_majority(text, limit) -> whether text[:limit] has at least as many ASCII letters and digits\n"
     "as non-ASCII characters (lost_text.loses_letters's bound)."},
    {"pseudo_words", mod_pseudo_words, METH_O,
     "pseudo_words(tokens) -> ' '.join('t' + t.encode('utf-8', 'surrogatepass').hex() for t in tokens);\n"
     "TypeError for a token that is not a str."},
    {"xlsum_tokenize", (PyCFunction)(void (*)(void))mod_xlsum_tokenize, METH_VARARGS | METH_KEYWORDS,
     "xlsum_tokenize(text, pretokenize=True) -> [str]: multilingual-rouge 0.0.1's unstemmed tokens of text\n"
     "for a language without a segmenter (and lang=None); pretokenize=False: BasicTokenizer alone\n"
     "(its rougeLsum).\n\n"
     ">>> xlsum_tokenize('Hello, World! 北京2024年')\n"
     "['hello', 'world', '北', '京', '2024', '年']"},
    {"_xlsum_lower", mod_xlsum_lower, METH_O,
     "_xlsum_lower(text) -> (bytes, by_str_lower): text.lower() as the XL-Sum tokenizers read it (UTF-8,\n"
     "'surrogatepass'), and whether str.lower() made it rather than the core (tests)."},
    {"newmm_dictionary", mod_newmm_dictionary, METH_VARARGS,
     "newmm_dictionary(words, tcc_program) -> trie: PyThaiNLP's Trie(words) and its cluster pattern, compiled\n(native_segmenters.tcc_program), for newmm_segment."},
    {"newmm_segment", mod_newmm_segment, METH_VARARGS,
     "newmm_segment(trie, text) -> [str]: pythainlp.tokenize.newmm.segment(text) with that dictionary."},
    {"newmm_clusters", mod_newmm_clusters, METH_VARARGS,
     "newmm_clusters(trie, text) -> bytes: pythainlp.tokenize.tcc_p.tcc_pos_array(text) (for tests)."},
    {"jieba_model", mod_jieba_model, METH_VARARGS,
     "jieba_model(freq, logtotal, start, trans, emit, min_float) -> model: jieba's dictionary and HMM\n"
     "(native_segmenters.jieba_segmenter builds it), for jieba_cut_block."},
    {"jieba_model_extend", mod_jieba_model_extend, METH_VARARGS,
     "jieba_model_extend(model, freq, logtotal) -> int: read FREQ's entries added since the model was\n"
     "built or last extended; the sum of their frequencies, or -1 (rebuild the model)."},
    {"jieba_cut_block", mod_jieba_cut_block, METH_VARARGS,
     "jieba_cut_block(model, block) -> [str]: jieba's words of one re_han_default block (HMM on)."},
    {"_set_table_limit", mod_set_table_limit, METH_O, "Set the back-trace table budget (64-bit words); returns the old one."},
    {"pair_corpus", mod_pair_corpus, METH_VARARGS, "pair_corpus(worker, texts_a, texts_b=None) -> corpus: texts tokenized once (pairwise.py)."},
    {"pair_matrix", mod_pair_matrix, METH_VARARGS, "pair_matrix(worker, corpus, a_base, b_base, ncols, r0, r1, measure, out): rows of a score matrix."},
    {"pair_filter", mod_pair_filter, METH_VARARGS, "pair_filter(worker, corpus, lo, hi, kept, nkept, scan_from, sequential, threshold, measure, match, score) -> nkept."},
    {"pair_info", mod_pair_info, METH_O, "pair_info(corpus) -> sizes of a pair corpus (for tests)."},
    {"_spare_workers", mod_spare_workers, METH_O,
     "_spare_workers(n) -> old n: how many dropped Workers' buffers are kept for new ones (0 frees them)."},
    {"_set_batch_head", mod_set_batch_head, METH_O,
     "_set_batch_head(bytes) -> old: text an n_jobs batch reads per thread before its helpers start."},
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
    if (PyType_Ready(&EngineType) < 0 || PyType_Ready(&WorkerType) < 0 ||
        PyType_Ready(&BatchType) < 0) return NULL;
    bitrev_level();   /* before any worker thread reads it */
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    /* compiled.py checks it before using a core built from another copy of the package */
    if (PyModule_AddIntConstant(m, "API_VERSION", 3) < 0) { Py_DECREF(m); return NULL; }
    Py_INCREF(Py_True);   /* xlsum_tokenize and Engine(tokenizer=...) exist */
    if (PyModule_AddObject(m, "XLSUM_TOKENIZER", Py_True) < 0) { Py_DECREF(Py_True); Py_DECREF(m); return NULL; }
    Py_INCREF(Py_True);   /* nltk_porter_stem and Engine(flavor "rouge_score", native="nltk_porter") exist */
    if (PyModule_AddObject(m, "NLTK_PORTER", Py_True) < 0) { Py_DECREF(Py_True); Py_DECREF(m); return NULL; }
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) { Py_DECREF(&EngineType); Py_DECREF(m); return NULL; }
    Py_INCREF(&WorkerType);
    if (PyModule_AddObject(m, "Worker", (PyObject *)&WorkerType) < 0) { Py_DECREF(&WorkerType); Py_DECREF(m); return NULL; }
    return m;
}
