#!/usr/bin/env python3
"""A long differential run of the one-reference path (csrc/single_ref.c), by hand, for changes to it:
tests/test_single_ref.py runs a few hundred cases in CI; this runs as many as asked.

Two comparisons, on seeded cases (test_single_ref's, around the path's limits, and test_compiled's
general ones, half with several references), each asserting equal scores and statistics:
  1. the path against the general path (``_core._single_ref_hook(0)``): every mix of rouge1 /
     rouge2 / rougeL / rougeLsum, flavors rouge_score, rouge155 and paper, stemmed and not;
  2. the compiled engine against the pure-Python engine on three mixes (slower: ~0.5 ms a pair).

Usage: python tests/fuzz_single_ref.py [--cases 4000] [--python-cases 5000] [--seed 1]
(2026-11-29, defaults: 720,000 scorings against the general path, 434,734 of them on the one-pass
path, 29 s; 45,000 against the pure-Python engine, 26,088 on the one-pass path, 43 s; all equal.)
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rouge_full_metric import RougeScorer, compiled   # noqa: E402
from rouge_full_metric.batch import score_examples   # noqa: E402
import test_compiled   # noqa: E402
import test_single_ref   # noqa: E402

FLAVORS = ["rouge_score", "rouge155", "paper"]


def cases(seed, count):
    """count seeded cases: odd ones around the one-pass path's limits, even ones general."""
    return [test_single_ref._case(random.Random(seed * 1000003 + k)) if k % 2 else
            test_compiled.make_cases(seed * 1000003 + k, 1, rs=True)[0] for k in range(count)]


def served():
    return compiled.core._single_ref_hook(-1)[1]


def against_general(seed, count):
    total = on_path = 0
    for k, flavor in enumerate(FLAVORS * 2):
        batch = cases(seed + k, count)
        preds, refs = [p for p, _ in batch], [r for _, r in batch]
        for mix in test_single_ref.MIXES:
            for options in ({}, {"use_stemmer": True}):
                scorer = RougeScorer(mix, flavor=flavor, **options)
                before = served()
                on = score_examples(scorer, preds, refs, backend="compiled")
                on_path += served() - before
                old, _ = compiled.core._single_ref_hook(0)
                try:
                    off = score_examples(scorer, preds, refs, backend="compiled")
                finally:
                    compiled.core._single_ref_hook(old)
                assert repr(on) == repr(off), (flavor, mix, options)
                total += count
    return total, on_path


def against_python(seed, count):
    total = on_path = 0
    for k, flavor in enumerate(FLAVORS):
        batch = cases(seed + 100 + k, count)
        preds, refs = [p for p, _ in batch], [r for _, r in batch]
        for mix in (test_single_ref.SET, ["rouge2", "rougeLsum"], ["rouge1", "rougeL"]):
            scorer = RougeScorer(mix, flavor=flavor)
            before = served()
            ours = score_examples(scorer, preds, refs, backend="compiled")
            on_path += served() - before
            assert repr(ours) == repr(score_examples(scorer, preds, refs, backend="python")), (flavor, mix)
            total += count
    return total, on_path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=4000, help="cases per flavor against the general path")
    ap.add_argument("--python-cases", type=int, default=5000, help="cases per flavor against pure Python")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not compiled.AVAILABLE:
        sys.exit("the compiled core is not built: pip install -e . (or python setup.py build_ext --inplace)")
    t0 = time.time()
    total, on_path = against_general(a.seed, a.cases)
    print("against the general path: %d scorings equal, %d of them on the one-pass path (%.0f s)"
          % (total, on_path, time.time() - t0))
    t0 = time.time()
    total, on_path = against_python(a.seed, a.python_cases)
    print("against the pure-Python engine: %d scorings equal, %d of them on the one-pass path (%.0f s)"
          % (total, on_path, time.time() - t0))


if __name__ == "__main__":
    main()
