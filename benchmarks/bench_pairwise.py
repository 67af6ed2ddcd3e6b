#!/usr/bin/env python3
"""Pairwise ROUGE-L: a 10,000 x 10,000 matrix and a 50,000-text near-duplicate filter, with
rouge_full_metric against rouge_score (in a loop, timed on a sample and extrapolated) and
rapidfuzz's process.cdist with LCSseq on token-id lists, in one process on the same data.

Texts: seeded instruction-like texts of 8-40 tokens (a verb, then words of a 30,000-word Zipf
vocabulary, some punctuation), 15 % of them near-copies (1-4 words edited) of an earlier text,
so that the filter has something to drop.

* matrix: RougeScorer.score_matrix(a, b) over two disjoint lists of --matrix texts, rougeL F,
  flavors rouge_score and rouge155; rapidfuzz gets the token-id lists ready-made (its time
  excludes tokenization; rouge_full_metric's includes it) and is timed for the LCS lengths
  alone and with the F-measure computed from them by numpy.
* rouge_score: RougeScorer(["rougeL"]).score(b_j, a_i) on --sample random pairs (what a loop
  over pairs does: it tokenizes both texts every call), and rouge_scorer._score_lcs on
  pre-tokenized texts (what Alpaca's generate_instruction.py does); every sampled cell of the
  matrix is checked equal to rouge_score's value.
* filter: filter_near_duplicates(texts, 0.7) over --filter texts (rougeL F, flavor rouge_score),
  n_jobs=1 and 2; the rouge_score estimate is the number of pairs the Self-Instruct rule scores
  (each new text against every kept one) times the pre-tokenized per-pair time.

Single-thread figures are CPU time (time.process_time: the machine is shared), wall time beside
them; the 2-thread rows are wall time.  Medians of --runs runs (the filter: one run each; the
rouge_score samples: --runs passes over the sample).
Memory: the process's peak RSS (ru_maxrss) after the filter (run first) and the matrix.

* lang: an n x n rougeL matrix with lang (zh, th, ja, hi), flavor xlsum (with and without lang)
  and flavor matlab, default backend against backend="python" (--lang-matrix n, --only-lang).

Usage: python benchmarks/bench_pairwise.py [--matrix 10000] [--filter 50000] [--sample 2000]
       [--runs 3] [--no-rapidfuzz] [--lang-matrix 150] [--only-lang] [--json out.json]
"""
import argparse
import json
import os
import random
import resource
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402

from rouge_full_metric import RougeScorer, compiled  # noqa: E402

VERBS = ["Write", "Explain", "List", "Give", "Describe", "Generate", "Summarize", "Classify", "Translate",
         "Create", "Find", "Suggest", "Rewrite", "Identify", "Compare", "Tell", "Make", "Name"]
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qui", "dor", "men", "tal",
             "ber", "sun", "gar", "fel", "ton", "ish", "ing", "ed", "er", "ly", "tion", "ous", "al"]
FUNCTION = ["the", "of", "and", "to", "a", "in", "that", "is", "for", "on", "with", "as", "about", "an",
            "it", "by", "at", "your", "from", "how", "what", "be", "has", "have", "are", "some", "which"]


def make_texts(count, seed=2025, dup_rate=0.15):
    rng = random.Random(seed)
    words, seen = list(FUNCTION), set(FUNCTION)
    while len(words) < 30000:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice([1, 2, 2, 3, 3, 4])))
        if w not in seen:
            seen.add(w)
            words.append(w)
    cum, total = [], 0.0
    for k in range(len(words)):
        total += 1.0 / (k + 1) ** 1.07
        cum.append(total)
    out, token_lists = [], []
    for _ in range(count):
        if token_lists and rng.random() < dup_rate:
            toks = list(rng.choice(token_lists[-5000:]))
            for _ in range(rng.randint(1, 4)):
                op = rng.random()
                if op < 0.5:
                    toks[rng.randrange(1, len(toks))] = rng.choices(words, cum_weights=cum)[0]
                elif op < 0.75 and len(toks) > 8:
                    del toks[rng.randrange(1, len(toks))]
                elif len(toks) < 40:
                    toks.insert(rng.randrange(1, len(toks) + 1), rng.choices(words, cum_weights=cum)[0])
        else:
            toks = [rng.choice(VERBS)] + rng.choices(words, cum_weights=cum, k=rng.randint(7, 39))
        token_lists.append(toks)
        text = " ".join(t + ("," if rng.random() < 0.05 else "") for t in toks)
        out.append(text + rng.choice([".", ".", ".", "?", ":"]))
    return out


def timed(fn, runs):
    cpu, wall, result = [], [], None
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), result


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# score_matrix with lang / flavor xlsum / matlab: (flavor, lang, xlsum_texts language)
LANG_CONFIGS = [("rouge155", "zh", "chinese"), ("rouge155", "th", "thai"), ("paper", "ja", "japanese"),
                ("rouge155", "hi", "hindi"), ("xlsum", None, "english"), ("xlsum", "zh", "chinese"),
                ("xlsum", "hi", "hindi"), ("matlab", None, "english")]


def lang_matrices(n, runs):
    """µs/pair of an n x n rougeL score_matrix per configuration, compiled (the default backend)
    and pure Python, the texts from tests/xlsum_texts.py (a shared vocabulary of 40 words); the
    first touch (segmenter dictionaries, Engines) runs before the timed calls."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    import xlsum_texts
    from rouge_full_metric import pairwise

    rows = []
    for flavor, lang, language in LANG_CONFIGS:
        rng = random.Random(11)
        vocabulary = [xlsum_texts.word(random.Random(k), language) for k in range(40)]
        texts = [xlsum_texts.text(rng, language, vocabulary, 30) for _ in range(2 * n)]
        a, b = texts[:n], texts[n:]
        sc = RougeScorer(["rougeL"], flavor=flavor, lang=lang)
        pairwise.score_matrix(sc, a[:3], b[:3])
        pairwise.score_matrix(sc, a[:3], b[:3], backend="python")
        c_cpu, _, m1 = timed(lambda: pairwise.score_matrix(sc, a, b), runs)
        p_cpu, _, m2 = timed(lambda: pairwise.score_matrix(sc, a, b, backend="python"), 1)
        assert np.array_equal(m1, m2, equal_nan=True)
        rows.append((flavor, lang, c_cpu / n / n * 1e6, p_cpu / n / n * 1e6))
    print()
    print("%d x %d rougeL score_matrix, CPU µs/pair (the texts' pipeline included)" % (n, n))
    print()
    print("| flavor | lang | default backend | pure Python | x |")
    print("|---|---|---:|---:|---:|")
    for flavor, lang, c, p in rows:
        print("| %s | %s | %.2f | %.1f | %.0f |" % (flavor, lang or "", c, p, p / c))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matrix", type=int, default=10000)
    ap.add_argument("--filter", type=int, default=50000)
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threshold", type=float, default=0.7)
    ap.add_argument("--no-rapidfuzz", action="store_true")
    ap.add_argument("--lang-matrix", type=int, default=150,
                    help="texts per side of the lang / xlsum / matlab matrices (0: skip)")
    ap.add_argument("--only-lang", action="store_true", help="only the lang / xlsum / matlab matrices")
    ap.add_argument("--json")
    args = ap.parse_args()
    if args.only_lang:
        lang_matrices(args.lang_matrix, args.runs)
        return
    if not compiled.AVAILABLE:
        print("warning: the compiled core is not built; timing the pure-Python engine", file=sys.stderr)

    from rouge_score import rouge_scorer, tokenize as rs_tokenize

    texts = make_texts(max(args.filter, 2 * args.matrix))
    rows = []   # (what, µs/pair or None, seconds, note)
    report = {"matrix": args.matrix, "filter": args.filter, "threshold": args.threshold}
    print("texts: %d, tokens per text %.1f on average" % (
        len(texts), statistics.mean(len(t.split()) for t in texts[:10000])))

    # ------------------------------------------------------------------ filter (first: peak RSS)
    rss0 = peak_rss_mib()
    scorer = RougeScorer(["rougeL"], flavor="rouge_score")
    ftexts = texts[:args.filter]
    c0, w0 = time.process_time(), time.perf_counter()
    result = scorer.filter_near_duplicates(ftexts, args.threshold)
    f1_cpu, f1_wall = time.process_time() - c0, time.perf_counter() - w0
    w0 = time.perf_counter()
    result2 = scorer.filter_near_duplicates(ftexts, args.threshold, n_jobs=2)
    f2_wall = time.perf_counter() - w0
    assert result2 == result, "n_jobs=2 must give the n_jobs=1 result"
    rss_filter = peak_rss_mib()
    kept = len(result.kept)
    # the pairs the Self-Instruct rule scores: each new text against every text kept before it
    kept_before, pairs_rule = 0, 0
    kept_set = set(result.kept)
    for q in range(len(ftexts)):
        pairs_rule += kept_before
        kept_before += q in kept_set
    print("filter: %d texts, %d kept, %d dropped; n_jobs=1 %.1f s CPU (%.1f s wall), n_jobs=2 %.1f s wall; "
          "peak RSS %.0f MiB (%.0f before)" % (len(ftexts), kept, len(result.dropped), f1_cpu, f1_wall, f2_wall,
                                               rss_filter, rss0))

    # ------------------------------------------------------------------ rouge_score on a sample
    a, b = texts[:args.matrix], texts[args.matrix:2 * args.matrix]
    rng = random.Random(7)
    sample = [(rng.randrange(len(a)), rng.randrange(len(b))) for _ in range(args.sample)]
    rs = rouge_scorer.RougeScorer(["rougeL"])
    rs.score(b[0], a[0])
    rs_cpu, _, rs_values = timed(lambda: [rs.score(b[j], a[i])["rougeL"].fmeasure for i, j in sample], args.runs)
    rs_pair = rs_cpu / len(sample)
    tok_a = {i: rs_tokenize.tokenize(a[i], None) for i, _ in sample}
    tok_b = {j: rs_tokenize.tokenize(b[j], None) for _, j in sample}
    rs_lcs_cpu, _, _ = timed(lambda: [rouge_scorer._score_lcs(tok_b[j], tok_a[i]) for i, j in sample], args.runs)
    rs_lcs_pair = rs_lcs_cpu / len(sample)
    print("rouge_score: score() %.1f µs/pair, _score_lcs on tokens %.1f µs/pair" % (rs_pair * 1e6, rs_lcs_pair * 1e6))

    # ------------------------------------------------------------------ matrix
    npairs = len(a) * len(b)
    matrix_rows = []

    def first_touch():
        # what every fresh result matrix pays before a cell is written: the kernel maps its pages
        # on first touch (glibc hands a block this big back to the system on free)
        x = np.empty((len(a), len(b)))
        x.reshape(-1)[::512] = 0.0   # one write per 4 KiB page
        return None
    touch_cpu, touch_wall, _ = timed(first_touch, args.runs)
    print("first touch of a %d x %d float64 matrix (%.0f MiB): %.1f ns/pair CPU (%.3f s); every "
          "score_matrix call below pays it, and the steady figures leave it out"
          % (len(a), len(b), npairs * 8 / 2 ** 20, touch_cpu / npairs * 1e9, touch_cpu))
    report["first_touch_s"] = round(touch_cpu, 3)
    for flavor in ("rouge_score", "rouge155"):
        sc = RougeScorer(["rougeL"], flavor=flavor)
        sc.score_matrix(a[:50], b[:50])   # warm: token caches, the engine
        cpu, wall, m = timed(lambda: sc.score_matrix(a, b), args.runs)
        if flavor == "rouge_score":
            got = [m[i, j] for i, j in sample]
            assert got == rs_values, "score_matrix must equal rouge_score on every sampled cell"
        del m
        _, wall2, m = timed(lambda: sc.score_matrix(a, b, n_jobs=2), args.runs)
        del m
        matrix_rows.append((flavor, cpu, wall, wall2))
        print("matrix %s: %.1f ns/pair CPU (%.2f s, wall %.2f s), steady (less the first touch) %.1f ns/pair; "
              "n_jobs=2 wall %.2f s" % (flavor, cpu / npairs * 1e9, cpu, wall, (cpu - touch_cpu) / npairs * 1e9, wall2))
    rss_matrix = peak_rss_mib()

    rf = None
    if not args.no_rapidfuzz:
        try:
            from rapidfuzz import process
            from rapidfuzz.distance import LCSseq
        except ImportError:
            print("rapidfuzz not installed (pip install rapidfuzz, or the [benchmark] extra): skipped")
        else:
            vocab = {}
            ids_a = [[vocab.setdefault(t, len(vocab)) for t in rs_tokenize.tokenize(x, None)] for x in a]
            ids_b = [[vocab.setdefault(t, len(vocab)) for t in rs_tokenize.tokenize(x, None)] for x in b]
            len_a = np.array([len(x) for x in ids_a], dtype=np.float64)[:, None]
            len_b = np.array([len(x) for x in ids_b], dtype=np.float64)[None, :]

            def lcs():
                return process.cdist(ids_a, ids_b, scorer=LCSseq.similarity, workers=1)

            def lcs_f():
                h = lcs().astype(np.float64)
                with np.errstate(invalid="ignore", divide="ignore"):
                    f = 2.0 * h / (len_a + len_b)
                return np.nan_to_num(f)

            rf_cpu, rf_wall, h = timed(lcs, args.runs)
            del h
            rff_cpu, rff_wall, f = timed(lcs_f, args.runs)
            # same LCS as rouge_score (F from it agrees but for the last bits of the formula)
            assert np.allclose([f[i, j] for i, j in sample], rs_values, rtol=0, atol=1e-12)
            del f
            _, rf2_wall, h = timed(lambda: process.cdist(ids_a, ids_b, scorer=LCSseq.similarity, workers=2),
                                   args.runs)
            del h
            rf = (rf_cpu, rf_wall, rff_cpu, rff_wall, rf2_wall)
            print("rapidfuzz cdist LCSseq: %.1f ns/pair CPU (LCS only), %.1f ns/pair with numpy F; workers=2 wall %.2f s"
                  % (rf_cpu / npairs * 1e9, rff_cpu / npairs * 1e9, rf2_wall))

    # ------------------------------------------------------------------ table
    rs_ns = rs_pair * 1e9
    rs_lcs_ns = rs_lcs_pair * 1e9
    print()
    print("%d x %d rougeL matrix (%s pairs), 1 thread, CPU time; x = times faster" % (len(a), len(b), format(npairs, ",")))
    print()
    print("| what | ns/pair | whole matrix | x rouge_score `score` | x rouge_score `_score_lcs` | vs rapidfuzz |")
    print("|---|---:|---:|---:|---:|---:|")
    print("| rouge_score `score()` loop (extrapolated from %d pairs) | %s | %s | 1 | | |"
          % (len(sample), format(round(rs_ns), ","), _dur(rs_pair * npairs)))
    print("| rouge_score `_score_lcs` on pre-tokenized texts (extrapolated) | %s | %s | | 1 | |"
          % (format(round(rs_lcs_ns), ","), _dur(rs_lcs_pair * npairs)))
    if rf:
        print("| rapidfuzz `cdist(LCSseq.similarity)` on token ids (LCS only) | %.1f | %.2f s | %s | %s | 1 |"
              % (rf[0] / npairs * 1e9, rf[0], _x(rs_ns, rf[0] / npairs * 1e9), _x(rs_lcs_ns, rf[0] / npairs * 1e9)))
        print("| rapidfuzz + numpy F | %.1f | %.2f s | %s | %s | |"
              % (rf[2] / npairs * 1e9, rf[2], _x(rs_ns, rf[2] / npairs * 1e9), _x(rs_lcs_ns, rf[2] / npairs * 1e9)))
    for flavor, cpu, wall, wall2 in matrix_rows:
        ns = cpu / npairs * 1e9
        vs = "%.2f× faster" % (rf[0] / cpu) if rf else ""
        print("| **rouge_full_metric `score_matrix`, flavor %s** (tokenization included) | **%.1f** (%.1f less the "
              "first touch) | %.2f s | **%s** | %s | %s |"
              % (flavor, ns, (cpu - touch_cpu) / npairs * 1e9, cpu, _x(rs_ns, ns), _x(rs_lcs_ns, ns), vs))
    print()
    print("2 threads, wall: " + ", ".join("score_matrix %s %.2f s" % (f, w2) for f, _, _, w2 in matrix_rows)
          + (", rapidfuzz workers=2 %.2f s" % rf[4] if rf else ""))
    est = pairs_rule * rs_lcs_pair
    print()
    print("filter_near_duplicates, %d texts, rougeL F >= %g (flavor rouge_score): %d kept, %d dropped; "
          "n_jobs=1 %.1f s CPU (%.1f s wall), n_jobs=2 %.1f s wall; the Self-Instruct loop scores %s pairs: "
          "%s with rouge_score `_score_lcs` on one core (%.0f× slower than n_jobs=1)"
          % (len(ftexts), args.threshold, kept, len(result.dropped), f1_cpu, f1_wall, f2_wall,
             format(pairs_rule, ","), _dur(est), est / f1_cpu))
    print("peak RSS: %.0f MiB before, %.0f MiB after the filter, %.0f MiB after the matrices "
          "(each matrix: %.0f MiB of float64)" % (rss0, rss_filter, rss_matrix, npairs * 8 / 2 ** 20))
    report.update({
        "rouge_score_score_us": rs_pair * 1e6, "rouge_score_lcs_us": rs_lcs_pair * 1e6,
        "matrix": [{"flavor": f, "cpu_s": c, "wall_s": w, "wall_2threads_s": w2, "ns_per_pair": c / npairs * 1e9,
                    "ns_per_pair_less_first_touch": (c - touch_cpu) / npairs * 1e9}
                   for f, c, w, w2 in matrix_rows],
        "rapidfuzz": None if not rf else {"cpu_s": rf[0], "wall_s": rf[1], "with_f_cpu_s": rf[2],
                                          "wall_2workers_s": rf[4]},
        "filter": {"texts": len(ftexts), "kept": kept, "dropped": len(result.dropped), "cpu_s": f1_cpu,
                   "wall_s": f1_wall, "wall_2threads_s": f2_wall, "rule_pairs": pairs_rule,
                   "rouge_score_estimate_s": est},
        "peak_rss_mib": {"start": rss0, "after_filter": rss_filter, "after_matrix": rss_matrix},
    })
    if args.lang_matrix:
        report["lang_matrices"] = [{"flavor": f, "lang": g, "us_per_pair": c, "python_us_per_pair": p}
                                   for f, g, c, p in lang_matrices(args.lang_matrix, args.runs)]
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1)


def _x(base, value):
    return format(round(base / value), ",") + "×"


def _dur(seconds):
    if seconds >= 3600:
        return "%.1f h" % (seconds / 3600)
    if seconds >= 60:
        return "%.1f min" % (seconds / 60)
    return "%.2f s" % seconds


if __name__ == "__main__":
    main()
