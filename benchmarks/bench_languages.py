#!/usr/bin/env python3
"""Speed per language: rouge_full_metric's flavor "xlsum" (and rouge155 with lang) against XL-Sum's
scorer, multilingual-rouge 0.0.1, in one process, on the same generated texts.

Texts come from tests/xlsum_texts.py: --pairs pairs per language of up to --max-words words a side
(default 120, ~60 on average: summary-sized), in the language's script with punctuation, numbers and
newlines.  Both sides compute rouge1, rouge2, rougeL and rougeLsum on every pair, segmenter time
included; the anchor is called as documented, ``RougeScorer(types, lang=L).score(target, prediction)``
per pair, this package through ``score_batch``.  Timings are CPU time (time.process_time), the
median of --runs runs after one warm-up run (which fills the stem and segmenter caches on both
sides); within a run the three take turns, each repeating its batch until it lasts 0.2 s.  The
ratio is anchor / rouge_full_metric.

Usage: python benchmarks/bench_languages.py [--pairs 200] [--runs 3] [--langs english,chinese,...]
       [--stem] [--json out.json]
"""
import argparse
import json
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import xlsum_texts  # noqa: E402
from rouge_full_metric import RougeScorer, compiled, languages  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def timed(fns, runs, min_seconds=0.2):
    """Median CPU seconds of one call of each of fns.  The functions take turns within every run
    (a slow spell of a shared machine then slows all of them, not one), and a run repeats each
    until it lasts min_seconds, so that fast calls (a few ms for 100 pairs) are not lost in the
    clock's and the collector's noise."""
    repeats = []
    for fn in fns:   # the warm-up call, which also sizes the repeats
        start = time.process_time()
        fn()
        repeats.append(max(1, int(min_seconds / max(time.process_time() - start, 1e-6)) + 1))
    times = [[] for _ in fns]
    for _ in range(runs):
        for fn, repeat, out in zip(fns, repeats, times):
            start = time.process_time()
            for _ in range(repeat):
                fn()
            out.append((time.process_time() - start) / repeat)
    return [statistics.median(t) for t in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--max-words", type=int, default=120)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--langs", default=",".join(sorted(languages.LANGUAGES)))
    parser.add_argument("--stem", action="store_true", help="use_stemmer=True on both sides")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    try:
        from multilingual_rouge.rouge_scorer import RougeScorer as Anchor
    except ImportError:
        Anchor = None
        print("multilingual-rouge is not installed: timing rouge_full_metric only")
    print("engine: %s (XL-Sum tokenizer in the core: %s)" % (
        compiled.backend(), bool(getattr(compiled.core, "XLSUM_TOKENIZER", False))))
    print("%-18s %-9s %12s %12s %12s %8s" % ("language", "segmenter", "anchor µs", "xlsum µs", "rouge155 µs", "ratio"))
    rows = []
    for lang in args.langs.split(","):
        language = languages.resolve(lang)
        pairs = xlsum_texts.pairs(language.name, args.pairs, seed=3, max_words=args.max_words)
        predictions, references = [p for p, _ in pairs], [r for _, r in pairs]
        try:
            ours = RougeScorer(TYPES, flavor="xlsum", lang=language.name, use_stemmer=args.stem)
            perl = RougeScorer(TYPES, lang=language.name, use_stemmer=args.stem)
        except ImportError as error:
            print("%-18s skipped: %s" % (language.name, error))
            continue
        fns = [lambda: ours.score_batch(predictions, references), lambda: perl.score_batch(predictions, references)]
        if Anchor is not None:
            try:
                anchor = Anchor(TYPES, lang=language.name, use_stemmer=args.stem)
                anchor.score(*pairs[0])
                fns.append(lambda: [anchor.score(r, p) for p, r in pairs])
            except Exception as error:   # e.g. its stemmers need downloads it cannot get offline
                print("%-18s anchor failed: %s" % (language.name, str(error).splitlines()[0][:80]))
        times = [t / len(pairs) * 1e6 for t in timed(fns, args.runs)]
        t_ours, t_perl = times[:2]
        t_anchor = times[2] if len(times) > 2 else None
        ratio = t_anchor / t_ours if t_anchor else None
        rows.append(dict(language=language.name, segmenter=language.segmenter or "", anchor_us=t_anchor,
                         xlsum_us=t_ours, rouge155_us=t_perl, ratio=ratio))
        print("%-18s %-9s %12s %12.1f %12.1f %8s" % (
            language.name, language.segmenter or "-", "%.1f" % t_anchor if t_anchor else "-", t_ours, t_perl,
            "%.1fx" % ratio if ratio else "-"), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(pairs=args.pairs, max_words=args.max_words, stem=args.stem, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
