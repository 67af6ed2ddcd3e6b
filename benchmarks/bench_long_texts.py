"""Bigrams and skip-bigrams of one long example, on both sides of the hash table's bound.

The compiled core counts a prediction's pairs in a hash table of at most 2^20 of them; past that
it used to switch to dense tables compared a block of rows at a time, whose scans grow with the
square of the vocabulary (rouge2 of 1.1 million words by 100,000 distinct ones: 213 s).  It now
hashes a range of first words at a time, or takes the blocked tables only where they cost less.
This script times one example per row (a book-length prediction and a perturbed copy as its
reference, the Zipf vocabulary of ``bench.py``'s texts, or a uniform one of --vocabulary words)
against rouge-score-rs (one rayon thread) and rouge_score where they have the type, interleaved in
one process; CPU seconds, the median of --runs after a warm-up.

    python benchmarks/bench_long_texts.py [--runs 3] [--no-rouge-score] [--rows 1,2]

Run it from the repository root (it imports the checkout).
"""
import argparse
import os
import random
import statistics
import sys
import time

os.environ["RAYON_NUM_THREADS"] = "1"   # before rouge_score_rs is imported
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from bench import TextMaker  # noqa: E402
from rouge_full_metric import RougeScorer  # noqa: E402

# (rouge type, flavor, words, vocabulary: "zipf" or a number of uniformly drawn words)
ROWS = [
    ("rouge2", "rouge_score", 900_000, 100_000),
    ("rouge2", "rouge_score", 1_100_000, 100_000),
    ("rouge2", "rouge_score", 1_100_000, "zipf"),
    ("rougeS4", "rouge155", 200_000, 20_000),
    ("rougeS4", "rouge155", 220_000, 20_000),
    ("rougeSU4", "rouge155", 400_000, "zipf"),
    ("rougeSU100", "rouge155", 150_000, 100_000),
]


def texts(words, vocabulary, seed=1):
    """A prediction of `words` words and its reference (a third of the words replaced)."""
    rng = random.Random(seed)
    if vocabulary == "zipf":
        maker = TextMaker(seed)
        prediction = maker.tokens(words)
        pool = maker.tokens(words // 3 + 1)
    else:
        pool_words = ["w%d" % i for i in range(vocabulary)]
        prediction = [rng.choice(pool_words) for _ in range(words)]
        pool = [rng.choice(pool_words) for _ in range(words // 3 + 1)]
    reference = list(prediction)
    for k, position in enumerate(rng.sample(range(words), words // 3)):
        reference[position] = pool[k]
    # sentences of 20 words, so that rougeLsum-style splitting has lines to see
    lines = lambda toks: "\n".join(" ".join(toks[i:i + 20]) for i in range(0, len(toks), 20))
    return lines(prediction), lines(reference)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-rouge-score", action="store_true", help="skip rouge_score (pure Python)")
    parser.add_argument("--rows", default="", help="comma-separated row numbers (from 1) to run; all by default")
    args = parser.parse_args()
    try:
        import rouge_score_rs
    except ImportError:
        rouge_score_rs = None
    rouge_scorer = None
    if not args.no_rouge_score:
        try:
            from rouge_score import rouge_scorer
        except ImportError:
            pass
    print("%-11s %-11s %9s %7s | %10s %10s %10s | %8s" % ("type", "flavor", "words", "vocab", "ours s",
                                                         "rs s", "rouge_score", "rs/ours"))
    picked = {int(k) for k in args.rows.split(",") if k}
    for number, (rouge_type, flavor, words, vocabulary) in enumerate(ROWS, 1):
        if picked and number not in picked:
            continue
        prediction, reference = texts(words, vocabulary)
        ours = RougeScorer([rouge_type], flavor=flavor)
        calls = {"ours": lambda: ours.score(reference, prediction) if flavor == "rouge_score"
                 else ours.score(prediction, [reference])}
        if rouge_type == "rouge2" and rouge_score_rs is not None:
            rs = rouge_score_rs.RougeScorer([rouge_type], use_stemmer=False)
            calls["rs"] = lambda: rs.score(reference, prediction)
        if rouge_type == "rouge2" and rouge_scorer is not None:
            google = rouge_scorer.RougeScorer([rouge_type], use_stemmer=False)
            calls["rouge_score"] = lambda: google.score(reference, prediction)
        times = {name: [] for name in calls}
        results = {}
        for run in range(args.runs + 1):
            for name, call in (calls.items() if run % 2 else reversed(list(calls.items()))):
                start = time.process_time()
                results[name] = call()
                if run:   # the first run is the warm-up
                    times[name].append(time.process_time() - start)
        if "rs" in results:   # the same numbers, or the row means nothing
            ours_f, rs_f = results["ours"][rouge_type].fmeasure, results["rs"][rouge_type].fmeasure
            assert abs(ours_f - rs_f) < 1e-9, (ours_f, rs_f)
        med = {name: statistics.median(ts) for name, ts in times.items()}
        cell = lambda name: "%10.3f" % med[name] if name in med else "%10s" % "-"
        ratio = "%8.2f" % (med["rs"] / med["ours"]) if "rs" in med else "%8s" % "-"
        print("%-11s %-11s %9d %7s | %s %s %s | %s" % (rouge_type, flavor, words, vocabulary, cell("ours"),
                                                     cell("rs"), cell("rouge_score"), ratio), flush=True)


if __name__ == "__main__":
    main()
