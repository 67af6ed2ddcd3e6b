#!/usr/bin/env python3
"""Before/after of a new process: two trees' import, scorer and first pairs, new interpreters in turns.

bench_startup.py times our package against rouge-score-rs; this times two versions of ours against
each other, which a change of the import path needs: this machine drifts by several ms between
runs (an empty interpreter's start moved from 17 to 13 ms of CPU within a day), so only rounds
that alternate the two trees can tell a change of a few tenths of a ms.

Each TREE is a folder holding a ``rouge_full_metric`` package with its built core: an unpacked
wheel (``python -m build -w -o /tmp/w . && unzip /tmp/w/*.whl -d /tmp/after``) or a checkout built
in place (``python setup.py build_ext --inplace``).  The children run in an empty folder with
``PYTHONPATH=TREE``, read ``.pyc`` files (one untimed round writes them), and each first checks
that it imported the package from its tree.  Times are each child's own CPU clock
(bench_startup.py's), from after ``--preload``'s imports to its exit handlers.  Rows:
  import          import rouge_full_metric
  1 pair          import, RougeScorer (flavor rouge_score, rouge1/2/L/Lsum), one score()
  corpus of 20    import, RougeScorer (rouge155's defaults), score_corpus of 20 pairs: averages
                  and a 95 % interval of 1,000 bootstrap replicates
Each row prints both trees' medians and the median of the rounds' paired ratios BEFORE / AFTER
(> 1: AFTER is faster) with its distribution-free 95 % interval (bench_njobs.median_interval).

Usage: python benchmarks/bench_startup_ab.py BEFORE_TREE AFTER_TREE [--runs 31] [--preload json,argparse]
"""
import argparse
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_njobs import median_interval  # noqa: E402
from bench_startup import child_env, imported_from, preload_code, run_once  # noqa: E402

PAIR = "'the cat sat on the mat', 'the cat was on a mat'"
ROWS = {
    "import": "import rouge_full_metric\n",
    "1 pair": ("from rouge_full_metric import RougeScorer\n"
               "RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], flavor='rouge_score').score(%s)\n" % PAIR),
    "corpus of 20": ("from rouge_full_metric import RougeScorer\n"
                     "p, r = %s\n"
                     "RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum']).score_corpus([p] * 20, [r] * 20)\n"
                     % PAIR),
}


def check_tree(tree, env, cwd):
    """SystemExit unless a child with PYTHONPATH=tree imports rouge_full_metric and its compiled
    core from tree (a package without a core of its own would borrow an installed one)."""
    try:
        found = imported_from(dict(env, PYTHONPATH=tree), cwd)
    except RuntimeError as e:
        found = [str(e)]
    want = os.path.join(os.path.realpath(tree), "rouge_full_metric")
    if len(found) != 2 or any(os.path.dirname(os.path.realpath(f)) != want for f in found):
        raise SystemExit("%s: a child did not import rouge_full_metric and its compiled core from there (%s)"
                         % (tree, " and ".join(found)))


def own_cpu(tree, code, env, cwd, preload):
    """The child's own CPU ms (bench_startup's run_once) running code with PYTHONPATH=tree."""
    return run_once(code, dict(env, PYTHONPATH=tree), preload, cwd)[2] * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", help="a folder holding the first rouge_full_metric package (built)")
    ap.add_argument("after", help="a folder holding the second")
    ap.add_argument("--runs", type=int, default=31)
    ap.add_argument("--preload", default="json,argparse", help="modules imported before each child's clock starts")
    a = ap.parse_args(argv)
    if a.runs < 6:
        ap.error("--runs must be at least 6 (fewer give no 95 %% interval of the median), got %d" % a.runs)
    modules, preload = preload_code(ap, a.preload)
    env = child_env()
    trees = [("before", a.before), ("after", a.after)]
    with tempfile.TemporaryDirectory() as cwd:
        for _, tree in trees:
            check_tree(tree, env, cwd)
        jobs = [(row, name, tree) for row in ROWS for name, tree in trees]
        for row, _, tree in jobs:   # writes the .pyc files
            own_cpu(tree, ROWS[row], env, cwd, preload)
        times = {(row, name): [] for row, name, _ in jobs}
        for r in range(a.runs):
            for row, name, tree in jobs[r % len(jobs):] + jobs[:r % len(jobs)]:   # a rotating order
                times[row, name].append(own_cpu(tree, ROWS[row], env, cwd, preload))
    print("python %s   runs: %d, in turns   imported before each child's clock: %s"
          % (sys.version.split()[0], a.runs, ", ".join(modules) or "nothing"))
    print("before: %s\nafter:  %s" % (a.before, a.after))
    print("%-14s %10s %10s   %s" % ("ms of CPU", "before", "after", "before / after, paired [95 % interval]"))
    for row in ROWS:
        before, after = times[row, "before"], times[row, "after"]
        mid, lo, hi = median_interval([b / x for b, x in zip(before, after)])
        print("%-14s %10.2f %10.2f   %.3f [%.3f-%.3f]"
              % (row, statistics.median(before), statistics.median(after), mid, lo, hi))


if __name__ == "__main__":
    main()
