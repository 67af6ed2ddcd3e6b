#!/usr/bin/env python3
"""Each rouge type alone against rouge-score-rs, on long texts (~800 tokens a side) and news.

Seeded texts from benchmarks/bench.py's generator: "long800" is 500 pairs of 700-900 tokens in
25-35 sentences, candidates perturbed from their references; "news" its news workload.  Flavor
rouge_score, unstemmed, one thread (RAYON_NUM_THREADS=1 for rouge-score-rs), warm (one warm-up
call each).  Runs are interleaved (ours, rs, ours, rs, ...); CPU medians.

Usage: python benchmarks/bench_types.py [--runs 5] [--pairs 500] [--only long800,news]
"""
import argparse
import os
import sys

os.environ["RAYON_NUM_THREADS"] = "1"   # before rouge_score_rs is imported

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def long_texts(pairs, seed=800):
    from bench import TextMaker
    return TextMaker(seed).pairs(pairs, lambda r: r.randint(25, 35), lambda r: r.randint(700, 900))


def interleaved(fns, runs):
    """{name: CPU median} over runs, each run calling every fn once in turn."""
    from bench import in_turns
    return {name: cpu for name, (cpu, _) in in_turns(fns, runs).items()}


def compare(preds, refs, runs, types=TYPES):
    """[(type set, our us/pair, rs us/pair)], every single type then the whole set."""
    import rouge_score_rs
    from rouge_full_metric import RougeScorer
    n = len(preds)
    rows = []
    for group in [[t] for t in types] + [list(types)]:
        ours = RougeScorer(group, flavor="rouge_score")
        rs = rouge_score_rs.RougeScorer(group, use_stemmer=False)
        med = interleaved({"ours": lambda: ours.score_batch(preds, refs),
                           "rs": lambda: rs.score_batch(refs, preds)}, runs)
        rows.append(("+".join(group), med["ours"] / n * 1e6, med["rs"] / n * 1e6))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--only", default="long800,news")
    a = ap.parse_args()
    for wl in a.only.split(","):
        if wl == "long800":
            preds, refs = long_texts(a.pairs)
        else:
            from bench import workload
            preds, refs = workload(wl)
        print("%s: %d pairs, CPU medians of %d interleaved runs (us/pair)" % (wl, len(preds), a.runs))
        print("  %-32s %10s %10s %10s" % ("types", "ours", "rs", "rs/ours"))
        for name, ours, rs in compare(preds, refs, a.runs):
            print("  %-32s %10.1f %10.1f %9.2fx" % (name, ours, rs, rs / ours))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
