#!/usr/bin/env python3
"""Cold stemmed scoring: flavor rouge_score with use_stemmer=True, a fresh scorer and words it has
never seen, against rouge_score and rouge-score-rs, in one process, interleaved.

What a one-shot evaluation pays (an ``evaluate`` call, a Trainer's compute_metrics): every distinct
token is stemmed once.  Each timed trial builds a new scorer (inside the timed region; nothing
shared with earlier trials' scorers: ``shared_scorers.clear()`` before it) and scores texts
whose content words are new to the whole process: the vocabulary is ~100,000 real English
words (tests/data/stemmer_goldens.tsv.gz) behind a prefix (a consonant-vowel syllable pair) that no
other trial uses, so no cache of any library -- a scorer's, a process-wide one -- can have seen them;
the suffixes, which are what the stemmer works on, stay real.  Function words stay as they are.
Texts: news-like pairs (3-4 sentences, 55-65 tokens a side, Zipf vocabulary of 30,000 words,
candidates perturbed from their references), one reference or four.

Rows (median CPU µs per pair of --runs trials, peers interleaved in each round; rouge-score-rs with
RAYON_NUM_THREADS=1):
  cold stemmed, 500 / 2,000 / 10,000 pairs, 1 and 4 references:  rouge_full_metric's score_batch,
      the same with NLTK's Python stemmer (as before the C port), rouge-score-rs's score_batch (score_multi per pair with 4 references), rouge_score's score /
      score_multi (500 pairs only: it takes ~2 ms a pair);
  Trainer-style compute of 500 pairs: our evaluate metric's compute(flavor="rouge_score",
      use_stemmer=True, aggregate="mean") vs each peer's scorer + BootstrapAggregator (what
      evaluate's "rouge" runs) and rouge-score-rs's score_batch + a plain mean, fresh words each time.

Usage: python benchmarks/bench_stemmed_cold.py [--runs 5] [--sizes 500,2000,10000] [--no-rouge-score]
       (--sizes "": the compute rows only)
"""
import argparse
import gzip
import os
import random
import statistics
import sys
import time

os.environ["RAYON_NUM_THREADS"] = "1"   # before rouge_score_rs is imported

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
FUNCTION = ["the", "of", "and", "to", "a", "in", "that", "is", "for", "on", "with", "as", "was", "he",
            "it", "by", "at", "said", "from", "his", "an", "be", "has", "have", "are", "were", "which"]


def english_words():
    with gzip.open(os.path.join(ROOT, "tests", "data", "stemmer_goldens.tsv.gz"), "rt", encoding="utf-8") as f:
        words = {line.split("\t", 1)[0] for line in f}
    words = sorted(w for w in words if w.isalpha() and w.isascii() and len(w) > 1 and w not in FUNCTION)
    random.Random(3).shuffle(words)
    return words[:30000]


def prefixes():
    """Distinct pronounceable prefixes, one per trial."""
    cons, vows = "bdfgklmnprstvz", "aeiou"
    out = [a + b + c + d for a in cons for b in vows for c in cons for d in vows]
    random.Random(4).shuffle(out)
    return iter(out)


class Texts:
    """News-like pairs over FUNCTION words plus a prefixed real-word vocabulary (Zipf)."""

    def __init__(self, words, seed):
        self.rng = random.Random(seed)
        self.vocab = FUNCTION + words
        weights = [1.0 / (k + 1) ** 1.07 for k in range(len(self.vocab))]
        self.cum, total = [], 0.0
        for w in weights:
            total += w
            self.cum.append(total)

    def tokens(self, n, prefix):
        return [t if t in FUNCTION else prefix + t for t in self.rng.choices(self.vocab, cum_weights=self.cum, k=n)]

    def document(self, prefix):
        n, k = self.rng.randint(55, 65), self.rng.choice([3, 4])
        toks = self.tokens(n, prefix)
        cuts = [0] + sorted(self.rng.sample(range(1, n), k - 1)) + [n]
        return [toks[cuts[i]:cuts[i + 1]] for i in range(k)]

    def perturb(self, sents, prefix):
        rng, out = self.rng, []
        for s in sents:
            s = list(s)
            for _ in range(max(1, len(s) // 3)):
                op = rng.random()
                if op < 0.45 and s:
                    s[rng.randrange(len(s))] = self.tokens(1, prefix)[0]
                elif op < 0.7 and len(s) > 1:
                    del s[rng.randrange(len(s))]
                else:
                    s.insert(rng.randrange(len(s) + 1), self.tokens(1, prefix)[0])
            out.append(s)
        return out

    def render(self, sents):
        rng = self.rng
        return "\n".join(" ".join(t.capitalize() if k == 0 or rng.random() < 0.08 else t for k, t in enumerate(s))
                         + rng.choice([".", ".", "!", "?"]) for s in sents if s)

    def pairs(self, n, refs, prefix):
        preds, out = [], []
        for _ in range(n):
            base = self.document(prefix)
            preds.append(self.render(self.perturb(base, prefix)))
            texts = [self.render(base)] + [self.render(self.perturb(base, prefix)) for _ in range(refs - 1)]
            out.append(texts[0] if refs == 1 else texts)
        return preds, out


def forget_scorers():
    """A new scorer below starts as a process's first: nothing shared with the trials before
    (rouge_full_metric.shared_scorers), as in a one-shot evaluation."""
    from rouge_full_metric import shared_scorers

    shared_scorers.clear()


def ours_batch(preds, refs):
    from rouge_full_metric import RougeScorer
    from rouge_full_metric.batch import score_batch

    return score_batch(RougeScorer(TYPES, flavor="rouge_score", use_stemmer=True), preds, refs)


def ours_python_stemmer(preds, refs):
    """The same with NLTK's Python stemmer (the engine calls it per new token): before the port."""
    from rouge_full_metric import nltk_porter

    native = nltk_porter.native_available
    nltk_porter.native_available = lambda: False
    try:
        return ours_batch(preds, refs)
    finally:
        nltk_porter.native_available = native


def rsrs_batch(preds, refs):
    import rouge_score_rs

    scorer = rouge_score_rs.RougeScorer(TYPES, use_stemmer=True)
    if isinstance(refs[0], str):
        return scorer.score_batch(refs, preds)
    return [scorer.score_multi(r, p) for p, r in zip(preds, refs)]


def rouge_score_batch(preds, refs):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    if isinstance(refs[0], str):
        return [scorer.score(r, p) for p, r in zip(preds, refs)]
    return [scorer.score_multi(r, p) for p, r in zip(preds, refs)]


def aggregated(module):
    """What evaluate's "rouge" runs: a scorer, then a BootstrapAggregator's mid F (rouge-score-rs:
    its score_batch, its fastest path)."""
    def run(preds, refs):
        scorer = module.rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        agg = module.scoring.BootstrapAggregator()
        batch = getattr(scorer, "score_batch", None)
        for scores in batch(refs, preds) if batch else (scorer.score(r, p) for p, r in zip(preds, refs)):
            agg.add_scores(scores)
        result = agg.aggregate()
        return {k: v.mid.fmeasure for k, v in result.items()}
    return run


def mean_of(module):
    """A scorer's fmeasure averaged over the pairs: evaluate's "rouge" with use_aggregator=False,
    then a mean (no bootstrap)."""
    def run(preds, refs):
        scorer = module.rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        batch = getattr(scorer, "score_batch", None)
        scores = batch(refs, preds) if batch else [scorer.score(r, p) for p, r in zip(preds, refs)]
        return {t: statistics.fmean(s[t].fmeasure for s in scores) for t in TYPES}
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="500,2000,10000")
    parser.add_argument("--no-rouge-score", action="store_true", help="skip the pure-Python rouge_score")
    args = parser.parse_args()

    from rouge_full_metric import compiled, nltk_porter

    print("backend %s, NLTK %s, native Porter: %s" % (compiled.backend(), nltk_porter.nltk_release(),
                                                      nltk_porter.native_available()))
    peers = {"rouge_full_metric": ours_batch, "rfm, NLTK in Python": ours_python_stemmer}
    try:
        import rouge_score_rs
        peers["rouge-score-rs"] = rsrs_batch
        print("rouge-score-rs", rouge_score_rs.__version__)
    except ImportError:
        print("rouge-score-rs not installed (pip install rouge-score-rs)")
    try:
        import rouge_score  # noqa: F401
        have_rouge_score = not args.no_rouge_score
    except ImportError:
        have_rouge_score = False
    # everything imported and touched once (NLTK, the core, the rust module) outside the timings
    words = english_words()
    fresh = prefixes()
    warm = Texts(words, 0).pairs(20, 1, next(fresh))
    for fn in list(peers.values()) + ([rouge_score_batch] if have_rouge_score else []):
        fn(*warm)

    results = {}
    for size in [int(s) for s in args.sizes.split(",") if s]:
        for refs in (1, 4):
            row = dict(peers)
            if have_rouge_score and size <= 500:
                row["rouge_score"] = rouge_score_batch
            times = {name: [] for name in row}
            texts = Texts(words, size * 10 + refs)
            for _ in range(args.runs):
                for name, fn in row.items():
                    preds, rs = texts.pairs(size, refs, next(fresh))
                    forget_scorers()
                    t = time.process_time()
                    fn(preds, rs)
                    times[name].append((time.process_time() - t) / size * 1e6)
            results[(size, refs)] = {k: statistics.median(v) for k, v in times.items()}
            line = "cold stemmed %6d pairs, %d ref%s:" % (size, refs, "s" if refs > 1 else " ")
            for name, us in results[(size, refs)].items():
                line += "  %s %.1f" % (name, us)
            if "rouge-score-rs" in row:
                ratio = results[(size, refs)]["rouge-score-rs"] / results[(size, refs)]["rouge_full_metric"]
                line += "  -> %.2fx faster than rouge-score-rs" % ratio
            if "rouge_score" in row:
                line += ", %.0fx than rouge_score" % (results[(size, refs)]["rouge_score"] /
                                                     results[(size, refs)]["rouge_full_metric"])
            print(line + "  (µs/pair)", flush=True)

    # Trainer-style compute of 500 pairs
    import evaluate

    metric = evaluate.load(os.path.join(ROOT, "rouge_full_metric"))

    def ours_compute(preds, refs):
        return metric.compute(predictions=preds, references=refs, flavor="rouge_score", use_stemmer=True,
                              aggregate="mean")

    compute = {"rouge_full_metric compute": ours_compute}
    if "rouge-score-rs" in peers:
        import rouge_score_rs
        compute["rouge-score-rs + BootstrapAggregator"] = aggregated(rouge_score_rs)
        compute["rouge-score-rs + mean"] = mean_of(rouge_score_rs)
    if have_rouge_score:
        import rouge_score
        from rouge_score import rouge_scorer, scoring  # noqa: F401
        compute["rouge_score + BootstrapAggregator"] = aggregated(rouge_score)
    texts = Texts(words, 77)
    ours_compute(*texts.pairs(20, 1, next(fresh)))
    times = {name: [] for name in compute}
    for _ in range(args.runs):
        for name, fn in compute.items():
            preds, refs = texts.pairs(500, 1, next(fresh))
            t = time.process_time()
            fn(preds, refs)
            times[name].append((time.process_time() - t) * 1e3)
    med = {k: statistics.median(v) for k, v in times.items()}
    line = "Trainer-style compute, 500 pairs, unseen words:"
    for name, ms in med.items():
        line += "  %s %.1f ms" % (name, ms)
    print(line)
    for name, ms in med.items():
        if name != "rouge_full_metric compute":
            print("  %s / rouge_full_metric compute: %.2fx" % (name, ms / med["rouge_full_metric compute"]))


if __name__ == "__main__":
    main()
