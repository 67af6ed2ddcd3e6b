#!/usr/bin/env python3
"""The shapes of call a user meets, against rouge-score-rs: a ``score()`` loop (rouge_score's own
README usage), small batches called over and over, several references, rouge3-rouge9, a custom
tokenizer (evaluate's ``tokenizer=`` idiom), a new scorer for every pair, ``split_summaries``
(texts on one line, split by ``nltk.sent_tokenize`` before rougeLsum), and English with the
characters news carries outside ASCII (curly quotes, dashes, accented names), and a ``score()``
loop over numpy string arrays (numpy.str_ elements), on texts of 10 to 5,000 tokens.  Without NLTK's punkt model installed, ``split_summaries`` rows put NLTK's untrained
``PunktSentenceTokenizer`` in the place of ``nltk.sent_tokenize`` for both tools (said in the output).

Flavor ``rouge_score``; rouge-score-rs 0.2.1 with one rayon thread (RAYON_NUM_THREADS=1); both
warm (one untimed call each first).  Seeded texts from benchmarks/bench.py's generator, candidates
perturbed from their references.  Each row calls ours and rs in turn, ``--runs`` times; the figure
is the CPU median per pair.  The last line lists every row where rs is faster ("losses").

Usage: python benchmarks/bench_shapes.py [--runs 7] [--only single,small_batches,multi,ngrams,custom_tokenizer,new_scorer,split_summaries,unicode,numpy]
"""
import argparse
import os
import statistics
import sys
import time

os.environ["RAYON_NUM_THREADS"] = "1"   # before rouge_score_rs is imported

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

SET = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
GROUPS = ["single", "small_batches", "multi", "ngrams", "custom_tokenizer", "new_scorer", "split_summaries",
          "unicode", "numpy"]


def interleaved(ours, rs, runs):
    """(our CPU median, rs's CPU median) over runs, the two called in turn after a warm-up each."""
    ours()
    rs()
    times = ([], [])
    for _ in range(runs):
        for k, fn in enumerate((ours, rs)):
            t0 = time.process_time()
            fn()
            times[k].append(time.process_time() - t0)
    return statistics.median(times[0]), statistics.median(times[1])


class Table:
    def __init__(self, runs):
        self.runs = runs
        self.losses = []

    def row(self, name, ours, rs, pairs):
        o, r = interleaved(ours, rs, self.runs)
        ratio = r / o
        if ratio < 1.0:
            self.losses.append("%s (%.2f)" % (name, ratio))
        print("%-86s %10.2f %10.2f %8.2f" % (name, o / pairs * 1e6, r / pairs * 1e6, ratio), flush=True)


def news_characters(text, rng):
    """``text`` as news is typed: “curly” quotes, ’s, dashes — and an accented name here and there
    (a word in 25 changed; the tokens rouge_score keeps stay nearly the same)."""
    out = []
    for word in text.split(" "):
        r = rng.random()
        if r < 0.01:
            word = "“" + word + "”"
        elif r < 0.02:
            word += "’s"
        elif r < 0.03:
            word += " —"
        elif r < 0.04:
            word = word.replace("e", "é")
        out.append(word)
    return " ".join(out)


def make_pairs(maker, count, tokens):
    return maker.pairs(count, lambda r: max(1, tokens // 20), lambda r: max(1, int(tokens * r.uniform(0.9, 1.1))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", default=",".join(GROUPS))
    a = ap.parse_args()
    only = a.only.split(",")
    unknown = sorted(set(only) - set(GROUPS))
    if unknown:
        ap.error("--only: unknown group(s) %s; choose from %s" % (", ".join(unknown), ",".join(GROUPS)))

    import rouge_score_rs
    from bench import TextMaker
    from rouge_full_metric import RougeScorer, compiled

    print("engine: %s; CPU us per pair, medians of %d interleaved runs; rs/ours > 1: we are faster"
          % (compiled.backend(), a.runs))
    print("%-86s %10s %10s %8s" % ("shape", "ours", "rs", "rs/ours"))
    table = Table(a.runs)
    maker = TextMaker(7)

    if "single" in only:
        for tokens, count in ((10, 2000), (60, 1000), (800, 100)):
            preds, refs = make_pairs(maker, count, tokens)
            for types in (["rouge1"], ["rougeL"], SET):
                for stem in (False, True):
                    ours = RougeScorer(types, flavor="rouge_score", use_stemmer=stem)
                    rs = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
                    table.row("score() loop, %d tokens, %s%s" % (tokens, "+".join(types), ", stemmed" if stem else ""),
                              lambda: [ours.score(p, r) for p, r in zip(preds, refs)],
                              lambda: [rs.score(r, p) for p, r in zip(preds, refs)], count)

    if "small_batches" in only:
        ours = RougeScorer(["rouge1", "rouge2", "rougeL"], flavor="rouge_score")
        rs = rouge_score_rs.RougeScorer(["rouge1", "rouge2", "rougeL"])
        for size in (1, 5, 20):
            preds, refs = make_pairs(maker, size, 60)
            calls = 2000 // size
            table.row("score_batch of %d pairs, %d calls, 60 tokens, rouge1+2+L" % (size, calls),
                      lambda: [ours.score_batch(preds, refs) for _ in range(calls)],
                      lambda: [rs.score_batch(refs, preds) for _ in range(calls)], size * calls)

    if "multi" in only:
        for k in (2, 4, 16):
            for tokens, count in ((60, 300), (800, 30)):
                preds, refs = make_pairs(maker, count, tokens)
                others = make_pairs(maker, count * (k - 1), tokens)[1]
                many = [[refs[i]] + others[i * (k - 1):(i + 1) * (k - 1)] for i in range(count)]
                for types in (["rouge1"], SET):
                    ours = RougeScorer(types, flavor="rouge_score")
                    rs = rouge_score_rs.RougeScorer(types)
                    name = "%d references, %d tokens, %s" % (k, tokens, "+".join(types))
                    table.row("score() loop / score_multi, " + name,
                              lambda: [ours.score(p, r) for p, r in zip(preds, many)],
                              lambda: [rs.score_multi(r, p) for p, r in zip(preds, many)], count)
                    table.row("score_batch / score_multi, " + name, lambda: ours.score_batch(preds, many),
                              lambda: [rs.score_multi(r, p) for p, r in zip(preds, many)], count)

    if "ngrams" in only:
        for tokens, count in ((60, 1000), (300, 200), (800, 100), (5000, 10)):
            preds, refs = make_pairs(maker, count, tokens)
            for n in (3, 4, 5, 6, 9):
                ours = RougeScorer(["rouge%d" % n], flavor="rouge_score")
                rs = rouge_score_rs.RougeScorer(["rouge%d" % n])
                table.row("score_batch, %d tokens, rouge%d" % (tokens, n), lambda: ours.score_batch(preds, refs),
                          lambda: rs.score_batch(refs, preds), count)

    if "custom_tokenizer" in only:
        class Lowered:   # rouge_score's tokenizer object form; evaluate passes a callable
            def tokenize(self, text):
                return text.lower().split()

        for tokens, count in ((60, 1000), (800, 50)):
            preds, refs = make_pairs(maker, count, tokens)
            for types in (["rouge1"], ["rougeL"], SET):
                ours = RougeScorer(types, flavor="rouge_score", tokenizer=Lowered())
                rs = rouge_score_rs.RougeScorer(types, tokenizer=Lowered())
                table.row("score_batch, custom tokenizer, %d tokens, %s" % (tokens, "+".join(types)),
                          lambda: ours.score_batch(preds, refs), lambda: rs.score_batch(refs, preds), count)

    if "new_scorer" in only:
        # a scorer built for each pair (a helper that builds one per call): construction and the
        # first call's engine and caches, every time
        preds, refs = make_pairs(maker, 300, 60)
        for stem in (False, True):
            table.row("new scorer + score() per pair, 60 tokens, rouge1+2+L+Lsum%s" % (", stemmed" if stem else ""),
                      lambda: [RougeScorer(SET, flavor="rouge_score", use_stemmer=stem).score(p, r)
                               for p, r in zip(preds, refs)],
                      lambda: [rouge_score_rs.RougeScorer(SET, use_stemmer=stem).score(r, p)
                               for p, r in zip(preds, refs)], len(preds))

    if "split_summaries" in only:
        import nltk

        try:
            nltk.sent_tokenize("One. Two.")
            splitter = "nltk.sent_tokenize (punkt model)"
        except LookupError:
            from nltk.tokenize.punkt import PunktSentenceTokenizer

            nltk.sent_tokenize = PunktSentenceTokenizer().tokenize   # both tools look it up per call
            splitter = "untrained PunktSentenceTokenizer (no punkt model installed)"
        print("split_summaries: %s" % splitter)
        for tokens, count in ((60, 500), (800, 50)):
            preds, refs = make_pairs(maker, count, tokens)
            preds, refs = [p.replace("\n", " ") for p in preds], [r.replace("\n", " ") for r in refs]
            for types in (["rougeLsum"], SET):
                for stem in (False, True):
                    ours = RougeScorer(types, flavor="rouge_score", use_stemmer=stem, split_summaries=True)
                    rs = rouge_score_rs.RougeScorer(types, use_stemmer=stem, split_summaries=True)
                    name = "split_summaries, %d tokens, %s%s" % (tokens, "+".join(types), ", stemmed" if stem else "")
                    table.row("score_batch, " + name, lambda: ours.score_batch(preds, refs),
                              lambda: rs.score_batch(refs, preds), count)
                    table.row("score() loop, " + name, lambda: [ours.score(p, r) for p, r in zip(preds, refs)],
                              lambda: [rs.score(r, p) for p, r in zip(preds, refs)], count)

    if "numpy" in only:
        # a score() loop over numpy string arrays: their elements are numpy.str_, a str subclass
        import random

        import numpy as np

        rng = random.Random(13)
        preds, refs = make_pairs(maker, 1000, 60)
        for label, (p_list, r_list) in (("ASCII", (preds, refs)),
                                        ("curly quotes", ([news_characters(p, rng) for p in preds],
                                                          [news_characters(r, rng) for r in refs]))):
            p_arr, r_arr = np.array(p_list), np.array(r_list)
            for types in (["rouge1"], SET):
                ours = RougeScorer(types, flavor="rouge_score")
                rs = rouge_score_rs.RougeScorer(types)
                table.row("score() loop over numpy string arrays, 60 tokens, %s, %s" % (label, "+".join(types)),
                          lambda: [ours.score(p, r) for p, r in zip(p_arr, r_arr)],
                          lambda: [rs.score(r, p) for p, r in zip(p_arr, r_arr)], len(p_list))

    if "unicode" in only:
        import random
        import warnings

        rng = random.Random(11)
        for tokens, count in ((60, 1000), (800, 60)):
            preds, refs = make_pairs(maker, count, tokens)
            preds, refs = [news_characters(p, rng) for p in preds], [news_characters(r, rng) for r in refs]
            for types in (["rouge1"], ["rougeL"], SET):
                for stem in (False, True):
                    ours = RougeScorer(types, flavor="rouge_score", use_stemmer=stem)
                    rs = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
                    name = "curly quotes, dashes, accents, %d tokens, %s%s" % (tokens, "+".join(types),
                                                                                ", stemmed" if stem else "")
                    with warnings.catch_warnings():
                        warnings.simplefilter("error")   # no LostTextWarning: these texts keep their letters
                        table.row("score_batch, " + name, lambda: ours.score_batch(preds, refs),
                                  lambda: rs.score_batch(refs, preds), count)
                        table.row("score() loop, " + name, lambda: [ours.score(p, r) for p, r in zip(preds, refs)],
                                  lambda: [rs.score(r, p) for p, r in zip(preds, refs)], count)

    print("losses: " + ("; ".join(table.losses) if table.losses else "none"))


if __name__ == "__main__":
    main()
