"""Correlation statistics: rouge_full_metric.correlation vs nlpstats, same data, same resample counts.

    python benchmarks/bench_correlation.py [--resamples 1000] [--nlpstats-resamples 50] [--repeats 3]

24 systems x 100 inputs (REALSumm's shape): human scores, a metric that tracks them with noise,
ties from rounding to 2 decimals as ROUGE-1.5.5's 5-decimal scores and integer ratings have.
For each level x coefficient: a bootstrap-both interval and a permutation-both paired test, median
of --repeats runs, interleaved with nlpstats.  nlpstats loops in Python over resamples, so it runs
--nlpstats-resamples and its time is scaled to --resamples (per-resample cost is constant; say so
when reading the ratio).  Cold = the first call in the process.
"""
import argparse
import statistics
import time
import warnings

import numpy as np

from rouge_full_metric import correlation as C


def _time(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--nlpstats-resamples", type=int, default=50)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    human = np.round(rng.random((24, 100)), 2)
    a = np.round(human + rng.random((24, 100)), 2)
    b = np.round(human + 1.3 * rng.random((24, 100)), 2)
    try:
        import nlpstats.correlations as nl
    except ImportError:
        nl = None
    warnings.simplefilter("ignore")
    names = {"summary": "input", "system": "system", "global": "global"}
    cold = _time(lambda: C.confidence_interval(a, human, "summary", "kendall", "bootstrap-both",
                                               n_resamples=args.resamples))
    print("cold (first call): summary kendall bootstrap-both %.3f s" % cold)
    print("%-8s %-9s %12s %12s %8s   %12s %12s %8s" % ("level", "coef", "ours CI s", "nlpstats s", "ratio",
                                                    "ours perm s", "nlpstats s", "ratio"))
    for level in ("system", "summary", "global"):
        for coefficient in ("pearson", "spearman", "kendall"):
            ours_ci, ours_p, ref_ci, ref_p = [], [], [], []
            scale = args.resamples / args.nlpstats_resamples
            for _ in range(args.repeats):
                ours_ci.append(_time(lambda: C.confidence_interval(a, human, level, coefficient, "bootstrap-both",
                                                                   n_resamples=args.resamples)))
                if nl is not None:
                    ref_ci.append(scale * _time(lambda: nl.bootstrap(a, human, names[level], coefficient, "both",
                                                                     n_resamples=args.nlpstats_resamples)))
                ours_p.append(_time(lambda: C.compare(a, b, human, level, coefficient, "permutation-both",
                                                      n_resamples=args.resamples)))
                if nl is not None:
                    ref_p.append(scale * _time(lambda: nl.permutation_test(a, b, human, names[level], coefficient,
                                                                           "both", n_resamples=args.nlpstats_resamples)))
            m = statistics.median
            row = [m(ours_ci), m(ref_ci) if ref_ci else float("nan"), m(ours_p), m(ref_p) if ref_p else float("nan")]
            print("%-8s %-9s %12.3f %12.2f %7.0fx   %12.3f %12.2f %7.0fx" % (
                level, coefficient, row[0], row[1], row[1] / row[0], row[2], row[3], row[3] / row[2]))


if __name__ == "__main__":
    main()
