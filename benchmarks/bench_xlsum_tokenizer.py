#!/usr/bin/env python3
"""Speed of the compiled XL-Sum token pipeline against multilingual-rouge 0.0.1, same texts.

Per script (seeded texts of --words words, default 60: CNN/DailyMail-summary-sized, ~350
characters; --words 700 gives article-sized texts; words drawn from a Zipf vocabulary of
20,000 made-up words of the script, with digits and punctuation), one process,
single thread, CPU time (time.process_time), median of --runs runs after a warm-up:

  tokenize    rouge_full_metric._core.xlsum_tokenize(text) against the anchor's own
              tokenization of a text (tokenization_wrapper.tokenize with MultiTokenizer(None):
              the path of every language without a segmenter, and of lang=None), per text;
  pair        one (prediction, reference) pair scored for rouge1, rouge2 and rougeL:
              multilingual-rouge RougeScorer(..., lang=None).score against
              _core.Engine("rouge_score", ..., tokenizer="xlsum").worker().run, per pair
              (the pipeline the scorer wires in, tokenization included; stemming off).

The first line prints the one-off cost of the core's Unicode table (built at first use, in a
fresh interpreter).  Both sides tokenize the same texts and the script checks that their tokens
agree before timing.

Usage: python benchmarks/bench_xlsum_tokenizer.py [--runs 5] [--texts 200] [--words 60] [--only english,hindi]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

# (name, letter ranges, combining-mark ranges, digit ranges, spaced): words of 2-9 characters,
# a letter first, marks only after letters; Chinese has no spaces between its words.
SCRIPTS = [
    ("english", [(0x61, 0x7A)] * 5 + [(0x41, 0x5A)], [], [(0x30, 0x39)], True),
    ("french", [(0x61, 0x7A)] * 8 + [(0xE0, 0xFC)], [], [(0x30, 0x39)], True),
    ("russian", [(0x430, 0x44F)] * 5 + [(0x410, 0x42F)], [], [(0x30, 0x39)], True),
    ("greek", [(0x3B1, 0x3C9)] * 5 + [(0x391, 0x3A9)], [], [(0x30, 0x39)], True),
    ("arabic", [(0x621, 0x64A)], [(0x64B, 0x652)], [(0x660, 0x669), (0x30, 0x39)], True),
    ("hindi", [(0x915, 0x939)], [(0x93E, 0x94D)], [(0x966, 0x96F), (0x30, 0x39)], True),
    ("bengali", [(0x995, 0x9B9)], [(0x9BE, 0x9CD)], [(0x9E6, 0x9EF), (0x30, 0x39)], True),
    ("amharic", [(0x1200, 0x135A)], [], [(0x30, 0x39)], True),
    ("korean", [(0xAC00, 0xD7A3)], [], [(0x30, 0x39)], True),
    ("chinese", [(0x4E00, 0x9FFF)], [], [(0x30, 0x39)], False),
]
PUNCT = [",", ".", ",", ".", "!", "?", ":", ";", "\u201c", "\u201d", "(", ")", "-", "\u060c", "\u0964", "\u3002"]


def make_word(rng, letters, marks, spaced):
    chars = [chr(rng.randint(*rng.choice(letters)))]
    after_mark = False
    for _ in range(rng.randint(1, 8 if spaced else 1)):
        after_mark = bool(marks) and not after_mark and rng.random() < 0.4
        chars.append(chr(rng.randint(*rng.choice(marks if after_mark else letters))))
    return "".join(chars)


def make_text(rng, letters, marks, digits, spaced, words=60, vocabulary=None):
    """A text of ``words`` words drawn from ``vocabulary`` (a list of words and their Zipf
    weights, as real text repeats its words) or made up one by one."""
    out = []
    for k in range(words):
        if rng.random() < 0.04:
            lo, hi = rng.choice(digits)
            w = "".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 4)))
        elif vocabulary:
            w = rng.choices(vocabulary[0], cum_weights=vocabulary[1])[0]
        else:
            w = make_word(rng, letters, marks, spaced)
        out.append(w)
        if rng.random() < 0.12:
            out.append(rng.choice(PUNCT))
        if spaced:
            out.append(" ")
        if rng.random() < 0.01:
            out.append("\n")
    return "".join(out)


def make_vocabulary(rng, letters, marks, spaced, size=20000):
    words = [make_word(rng, letters, marks, spaced) for _ in range(size)]
    cum, total = [], 0.0
    for rank in range(1, size + 1):
        total += 1.0 / rank
        cum.append(total)
    return words, cum


def median_cpu(fn, items, runs):
    fn(items)   # warm-up
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn(items)
        times.append(time.process_time() - t)
    return statistics.median(times) / len(items)


def table_cost():
    code = ("import time; from rouge_full_metric import _core; t = time.process_time(); "
            "_core.xlsum_tokenize('a'); t1 = time.process_time(); _core.xlsum_tokenize('a'); "
            "t2 = time.process_time(); print((t1 - t) - (t2 - t1))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(HERE), check=True)
    return float(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--texts", type=int, default=200)
    ap.add_argument("--words", type=int, default=60)
    ap.add_argument("--only", default="")
    args = ap.parse_args()

    from rouge_full_metric import compiled
    if not compiled.AVAILABLE or not getattr(compiled.core, "XLSUM_TOKENIZER", False):
        sys.exit("the compiled core with the XL-Sum tokenizer is not built (python setup.py build_ext --inplace)")
    core = compiled.core
    from rouge_full_metric.scoring import PairStats, Score
    try:
        from multilingual_rouge import rouge_scorer, tokenization_wrapper
    except ImportError:
        sys.exit("pip install multilingual-rouge==0.0.1 pyonmttok  (the anchor)")

    print("Unicode table, first use in a fresh interpreter: %.1f ms CPU" % (1000 * table_cost()))
    multi = rouge_scorer.MultiTokenizer(None)

    def anchor_tokenize(text):
        return tokenization_wrapper.tokenize(text, None, multi)

    names = ["rouge1", "rouge2", "rougeL"]
    types = [("rouge1", "N", 1, 1.0, -1, False), ("rouge2", "N", 2, 1.0, -1, False), ("rougeL", "L", 0, 1.0, -1, False)]
    worker = core.Engine("rouge_score", types, 0, 0, "average", False, 0.5, None, Score, PairStats,
                         tokenizer="xlsum").worker()
    anchor_scorer = rouge_scorer.RougeScorer(names, lang=None)

    only = set(filter(None, args.only.split(",")))
    print("%-9s %6s | %12s %12s %7s | %12s %12s %7s" % ("script", "chars", "anchor µs", "core µs", "ratio",
                                                         "anchor µs", "core µs", "ratio"))
    print("%-9s %6s | %34s | %34s" % ("", "", "tokenize one text", "score one pair (rouge1/2/L)"))
    ratios = []
    for name, letters, marks, digits, spaced in SCRIPTS:
        if only and name not in only:
            continue
        rng = random.Random("bench-xlsum-" + name)
        vocabulary = make_vocabulary(rng, letters, marks, spaced)
        texts = [make_text(rng, letters, marks, digits, spaced, args.words, vocabulary) for _ in range(args.texts)]
        for t in texts:
            assert core.xlsum_tokenize(t) == anchor_tokenize(t), name
        pairs = [(texts[k], texts[k + 1]) for k in range(0, len(texts) - 1, 2)]
        preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
        got, _ = worker.run(preds, refs, 0, len(preds), False)
        for (p, r), g in zip(pairs, got):
            want = anchor_scorer.score(r, p)
            for n in names:
                assert tuple(g[n]) == tuple(want[n]), (name, n)
        a_tok = median_cpu(lambda ts: [anchor_tokenize(t) for t in ts], texts, args.runs)
        c_tok = median_cpu(lambda ts: [core.xlsum_tokenize(t) for t in ts], texts, args.runs)
        a_pair = median_cpu(lambda ps: [anchor_scorer.score(r, p) for p, r in ps], pairs, max(1, args.runs // 2))
        c_pair = median_cpu(lambda ps: worker.run([p for p, _ in ps], [r for _, r in ps], 0, len(ps), False),
                            pairs, args.runs)
        chars = statistics.mean(len(t) for t in texts)
        ratios.append((a_tok / c_tok, a_pair / c_pair))
        print("%-9s %6d | %12.1f %12.1f %6.0fx | %12.1f %12.1f %6.0fx" % (
            name, chars, 1e6 * a_tok, 1e6 * c_tok, a_tok / c_tok, 1e6 * a_pair, 1e6 * c_pair, a_pair / c_pair))
    if ratios:
        print("median ratio: tokenize %.0fx, pair %.0fx" % (statistics.median(r[0] for r in ratios),
                                                            statistics.median(r[1] for r in ratios)))


if __name__ == "__main__":
    main()
