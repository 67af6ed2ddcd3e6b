#!/usr/bin/env python3
"""Speed per language: rouge_full_metric's flavor "xlsum" (and rouge155 with lang) against XL-Sum's
scorer, multilingual-rouge 0.0.1, in one process, on the same generated texts.

Texts come from tests/xlsum_texts.py: --pairs pairs per language of up to --max-words words a side
(default 120, ~60 on average: summary-sized), in the language's script with punctuation, numbers and
newlines.  Those words are random characters, which a dictionary segmenter (Chinese, Japanese,
Thai) cuts into single characters at its slowest; for those three the texts are instead words of
the segmenter's own dictionary drawn with their corpus frequencies (jieba's dict.txt, pythainlp's
Thai National Corpus list tnc_freq.txt; for Japanese the unidic-lite words that fugashi finds in
seeded kana/kanji strings, Zipf-weighted in the order found), written without spaces, 8-20 words a sentence, the
prediction a perturbed copy of the reference (--random-words restores the old texts).  Both sides compute rouge1, rouge2, rougeL and rougeLsum on every pair, segmenter time
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
import random
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


def dictionary_words(language, seed=11):
    """(words, weights) of the segmenter's dictionary for zh / ja / th, else None."""
    name = language.name
    if name.startswith("chinese"):
        import jieba
        words, weights = [], []
        with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and all("\u4e00" <= c <= "\u9fff" for c in parts[0]):
                    words.append(parts[0])
                    weights.append(float(parts[1]))
        return words, weights
    if name == "thai":
        import pythainlp
        words, weights = [], []
        path = os.path.join(os.path.dirname(pythainlp.__file__), "corpus", "tnc_freq.txt")
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2 and parts[0].strip() and all("\u0e00" <= c <= "\u0e7f" for c in parts[0]):
                    words.append(parts[0])
                    weights.append(float(parts[1]))
        return words, weights
    if name == "japanese":
        import fugashi
        tagger = fugashi.Tagger()
        rng = random.Random(seed)
        pool = [chr(c) for c in range(0x3041, 0x3097)] * 3 + [chr(c) for c in range(0x30A1, 0x30FB)] + \
            [chr(c) for c in range(0x4E00, 0x4FFF)]
        found = {}
        for _ in range(400):
            for word in tagger("".join(rng.choice(pool) for _ in range(200))):
                if not word.is_unk and len(word.surface) > 1:   # single kana are particles' job
                    found.setdefault(word.surface, len(found))
        # the particles and endings that make up a third of real Japanese tokens
        words = "の に は を た が で て と し れ さ も な い だ か".split() + sorted(found, key=found.get)
        return words, [1.0 / (k + 1) ** 1.07 for k in range(len(words))]
    return None


def dictionary_pairs(language, count, seed=3):
    """Seeded (prediction, reference) pairs of dictionary words, each side 3-5 sentences."""
    words, weights = dictionary_words(language)
    rng = random.Random(seed)
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    stop = "\u3002" if not language.name == "thai" else " "

    def sentences():
        return [rng.choices(words, cum_weights=cum, k=rng.randint(8, 20)) for _ in range(rng.randint(3, 5))]

    def perturb(sents):
        out = []
        for s in sents:
            s = list(s)
            for _ in range(max(1, len(s) // 4)):
                k = rng.randrange(len(s))
                if rng.random() < 0.5:
                    s[k] = rng.choices(words, cum_weights=cum)[0]
                elif len(s) > 2:
                    del s[k]
            out.append(s)
        return out

    def render(sents):
        return "\n".join("".join(s) + stop for s in sents)
    pairs = []
    for _ in range(count):
        ref = sentences()
        pairs.append((render(perturb(ref)), render(ref)))
    return pairs


def language_pairs(language, count, max_words=120, random_words=False):
    """(predictions, references) of a language: dictionary words for Chinese, Japanese and Thai
    (random-character words with random_words), tests/xlsum_texts.py's texts for the others."""
    segmented = language.name.startswith(("chinese", "japanese", "thai"))
    pairs = dictionary_pairs(language, count) if segmented and not random_words else \
        xlsum_texts.pairs(language.name, count, seed=3, max_words=max_words)
    return [p for p, _ in pairs], [r for _, r in pairs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--max-words", type=int, default=120)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--langs", default=",".join(sorted(languages.LANGUAGES)))
    parser.add_argument("--stem", action="store_true", help="use_stemmer=True on both sides")
    parser.add_argument("--random-words", action="store_true",
                        help="random-character words for zh/ja/th too (the segmenters' worst case)")
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
        predictions, references = language_pairs(language, args.pairs, args.max_words, args.random_words)
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
                anchor.score(references[0], predictions[0])
                fns.append(lambda: [anchor.score(r, p) for p, r in zip(predictions, references)])
            except Exception as error:   # e.g. its stemmers need downloads it cannot get offline
                print("%-18s anchor failed: %s" % (language.name, str(error).splitlines()[0][:80]))
        times = [t / len(predictions) * 1e6 for t in timed(fns, args.runs)]
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
