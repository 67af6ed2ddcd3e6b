#!/usr/bin/env python3
"""Before/after: two checkouts' engines side by side in one process, interleaved.

Each checkout's ``rouge_full_metric`` (with its built ``_core``) is copied under another package
name (``rfm_a``, ``rfm_b``, ...) into a scratch folder, so both load at once: the package imports
itself relatively and the core's init function is named after the module's last component, so the
copies do not collide.  Every round times each engine once on the same texts (``score_batch``, CPU
time); the script prints medians, minima and the median of the per-round ratios to the first
checkout.  On a shared machine this is steadier than comparing two separate runs: both engines
meet the same load in every round.  --workload bootstrap times ``bootstrap_compiled.perl_bootstrap``
(``batch.perl_bootstrap`` in checkouts from before it moved) instead
(the Perl's draw order, 1,000 replicates, on --pairs rows of 12 random 5-decimal columns, as
bench_evaluate.py's "bootstrap exact"; --counts: the count-based sums, on unrounded values).
--workload compute times each checkout's ``RougeFullMetric(flavor=...).compute`` (its defaults,
--ci, --per-example) on the news pairs, or on --pairs of bench_evaluate.py's generated pairs.
--lang L scores bench_languages.py's texts of language L with ``lang=L`` (e.g. --flavor xlsum).
--processes times each checkout in a process of its own every round (the order turned each round;
--calls calls after a warm-up, their median the round's figure): in one process the engines'
tables (front caches, interners) evict each other between turns, which moves figures that hang on
the caches by several per cent either way (2026-11-30, the EPYC: rougeL alone read 0.95x in one
run in one process where perf had its loop 1.14x as fast).  Whole calls in processes swing too (two
copies of the same code: 1.085 in 11 rounds), so small differences still need many rounds.

Usage: python benchmarks/bench_ab.py BEFORE_CHECKOUT AFTER_CHECKOUT [--types rouge1,rougeL]
           [--workload news|long|multi-ref|bootstrap|compute] [--flavor rouge_score] [--runs 11]
           [--pairs N] [--counts] [--simd 1] [--ci] [--per-example] [--jobs 2] [--lang hindi]
           [--processes [--calls 5]]

    e.g. git worktree add /tmp/before HEAD~3 && (cd /tmp/before && python setup.py build_ext --inplace)
         python benchmarks/bench_ab.py /tmp/before .
"""
import argparse
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def copy_name(k):
    """The name of checkout k's copy of the package (and of its rows in the report): rfm_a, rfm_b, ..."""
    return "rfm_" + "abcdefgh"[k]


def load_copies(checkouts, folder):
    """{name: module} for each checkout's package copied into folder as copy_name(k)."""
    modules = {}
    sys.path.insert(0, folder)
    for k, checkout in enumerate(checkouts):
        name = copy_name(k)
        source = os.path.join(os.path.abspath(checkout), "rouge_full_metric")
        shutil.copytree(source, os.path.join(folder, name), ignore=shutil.ignore_patterns("__pycache__"))
        module = importlib.import_module(name)
        if not module.compiled.AVAILABLE:
            raise SystemExit("%s has no built core: run python setup.py build_ext --inplace there" % checkout)
        modules[name] = module
    return modules


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkouts", nargs="+")
    ap.add_argument("--types", default="rouge1,rouge2,rougeL,rougeLsum")
    ap.add_argument("--workload", default="news", choices=["news", "long", "multi-ref", "bootstrap", "compute"])
    ap.add_argument("--flavor", default="rouge_score")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--pairs", type=int, help="rows of the bootstrap workload (default 100,000); compute "
                    "workload: that many of bench_evaluate.py's generated pairs instead of the news pairs; "
                    "--lang: that many texts (default 200)")
    ap.add_argument("--counts", action="store_true", help="bootstrap workload: the count-based sums")
    ap.add_argument("--simd", type=int, choices=[0, 1, 2, 3], help="bootstrap workload: force this kernel level "
                    "(0 scalar, 1 AVX2, 2 AVX-512, 3 AVX-512 with IFMA; capped at what the CPU has)")
    ap.add_argument("--ci", action="store_true", help="compute workload: with confidence_intervals=True")
    ap.add_argument("--per-example", action="store_true", help="compute workload: use_aggregator=False")
    ap.add_argument("--jobs", type=int, default=1, help="score_batch's n_jobs (above 1: wall time, not CPU)")
    ap.add_argument("--lang", help="scorers with lang=LANG on bench_languages.py's texts of it (--pairs of "
                                   "them, default 200) instead of --workload's, e.g. --flavor xlsum --lang hindi")
    ap.add_argument("--processes", action="store_true", help="news, long, multi-ref and --lang: each checkout in "
                    "a new process of its own every round")
    ap.add_argument("--calls", type=int, default=5, help="--processes: timed calls in each process (default 5)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)   # one --processes process
    a = ap.parse_args()
    if a.runs < 1 or a.calls < 1:
        ap.error("--runs and --calls must be at least 1")
    if a.workload == "bootstrap":
        return bootstrap(a)
    if a.workload == "compute":
        return compute(a)
    if a.processes and not a.child:
        times, n = in_processes(a)
        return report_scoring(a, times, n, "; each checkout in a process of its own, the median of %d calls" % a.calls)
    if a.lang:
        from bench_languages import language_pairs
        from rouge_full_metric import languages
        preds, refs = language_pairs(languages.resolve(a.lang), a.pairs or 200)
    elif a.workload in ("news", "multi-ref"):
        from bench import workload
        preds, refs = workload(a.workload)
    else:
        from bench_types import long_texts
        preds, refs = long_texts(500)
    types = a.types.split(",")
    clock = time.process_time if a.jobs == 1 else time.perf_counter
    with tempfile.TemporaryDirectory() as folder:
        modules = load_copies(a.checkouts, folder)
        options = {"lang": a.lang} if a.lang else {}
        scorers = {name: m.RougeScorer(types, flavor=a.flavor, **options) for name, m in modules.items()}
        for scorer in scorers.values():
            scorer.score_batch(preds, refs, n_jobs=a.jobs)   # warm-up
        # the results are freed in the timing too
        fns = {name: (lambda s=scorer: s.score_batch(preds, refs, n_jobs=a.jobs)) for name, scorer in scorers.items()}
        if a.child:   # one checkout: its pairs and the median of its calls, for in_processes
            print(len(preds), repr(statistics.median(interleaved(a.calls, fns, clock)[next(iter(fns))])))
            return
        times = interleaved(a.runs, fns, clock)
    report_scoring(a, times, len(preds))


def report_scoring(a, times, n, how=""):
    """report() of the scoring workloads (news, long, multi-ref, --lang), n pairs; how: how they were timed."""
    report(times, a.checkouts, n, "%s, %d pairs, flavor %s, %s%s%s"
           % ("%s texts" % a.lang if a.lang else a.workload, n, a.flavor, a.types,
              ", n_jobs=%d" % a.jobs if a.jobs != 1 else "", how), a.runs, "CPU" if a.jobs == 1 else "wall")


def in_processes(a):
    """--processes: every round, each checkout (in an order turned by one each round) in a new
    process of this script with --child, which loads that checkout alone, warms it up and prints
    its pairs and the median of its --calls timed calls.  Returns ({name: [seconds of each round]},
    pairs)."""
    options = ["--types", a.types, "--workload", a.workload, "--flavor", a.flavor, "--jobs", str(a.jobs),
               "--calls", str(a.calls), "--child"]
    options += ["--lang", a.lang] if a.lang else []
    options += ["--pairs", str(a.pairs)] if a.pairs is not None else []
    names = [copy_name(k) for k in range(len(a.checkouts))]
    times = {name: [] for name in names}
    for r in range(a.runs):
        order = list(range(len(names)))
        order = order[r % len(order):] + order[:r % len(order)]
        for k in order:
            done = subprocess.run([sys.executable, os.path.abspath(__file__), a.checkouts[k]] + options,
                                  capture_output=True, text=True)
            if done.returncode:
                raise SystemExit("bench_ab.py: the process of %s failed:\n%s" % (a.checkouts[k], done.stderr))
            n, seconds = done.stdout.split()[-2:]
            times[names[k]].append(float(seconds))
    return times, int(n)


def bootstrap_module(package):
    """A loaded checkout's module of the compiled bootstrap: ``bootstrap_compiled``, or ``batch``
    in checkouts from before the bootstrap moved out of it."""
    try:
        return importlib.import_module(package + ".bootstrap_compiled")
    except ModuleNotFoundError as e:
        if e.name != package + ".bootstrap_compiled":
            raise
        return importlib.import_module(package + ".batch")


def bootstrap(a):
    """The bootstrap workload: each checkout's perl_bootstrap (bootstrap_module's) on the same values."""
    import numpy as np

    if a.pairs is None:
        a.pairs = 100000
    values = np.random.default_rng(0).random((a.pairs, 12))
    if not a.counts:   # the Perl-order sums serve flavor rouge155, whose values have 5 decimals
        values = np.round(values, 5)
    keys = ["%d.A" % (k + 1) for k in range(a.pairs)]
    with tempfile.TemporaryDirectory() as folder:
        modules = load_copies(a.checkouts, folder)
        batches = {name: bootstrap_module(name) for name in modules}
        if a.simd is not None:
            for module in modules.values():
                module.compiled.core._bootstrap_hooks(a.simd, -1)
        runs = {name: (lambda b=b: b.perl_bootstrap(values, keys, 1000, 95, exact=not a.counts))
                for name, b in batches.items()}
        results = [run() for run in runs.values()]   # warm-up, and the same figures from each
        if any(r != results[0] for r in results):
            raise SystemExit("the checkouts' bootstraps differ")
        times = interleaved(a.runs, runs)
    report(times, a.checkouts, a.pairs, "bootstrap %s, %d rows x 12 columns, 1,000 replicates%s"
           % ("by counts" if a.counts else "in the Perl's draw order", a.pairs,
              "" if a.simd is None else ", kernels of level %d" % a.simd), a.runs)


def compute(a):
    """The compute workload: each checkout's evaluate metric on the news pairs (or --pairs generated
    ones), its defaults."""
    from bench import workload
    from bench_evaluate import texts

    preds, refs = workload("news") if a.pairs is None else texts(a.pairs)
    with tempfile.TemporaryDirectory() as folder:
        modules = load_copies(a.checkouts, folder)
        metrics = {name: importlib.import_module(name + ".rouge_full_metric").RougeFullMetric(flavor=a.flavor)
                   for name in modules}
        options = dict({"confidence_intervals": True} if a.ci else {}, **({"use_aggregator": False} if a.per_example else {}))
        results = [m.compute(predictions=preds, references=refs, **options) for m in metrics.values()]   # warm-up
        if any(r != results[0] for r in results):
            raise SystemExit("the checkouts' metrics differ")
        times = interleaved(a.runs, {name: (lambda m=metric: m.compute(predictions=preds, references=refs, **options))
                                     for name, metric in metrics.items()})
    report(times, a.checkouts, len(preds), "evaluate metric compute, %d pairs, flavor %s, %s"
           % (len(preds), a.flavor, ", ".join("%s=%s" % kv for kv in options.items()) or "defaults"), a.runs)


def interleaved(runs, fns, clock=time.process_time):
    """{name: [seconds of each round]}: every function once a round, in turn, for ``runs`` rounds."""
    times = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            t0 = clock()
            fn()
            times[name].append(clock() - t0)
    return times


def report(times, checkouts, n, what, runs, clock="CPU"):
    first = next(iter(times))
    print("%s; %s, %d interleaved rounds, load average %.1f" % (what, clock, runs, os.getloadavg()[0]))
    for name, checkout in zip(times, checkouts):
        ratio = statistics.median(x / y for x, y in zip(times[first], times[name]))
        print("  %-6s %-40s %9.2f us/pair (min %.2f)   %s/this: %.3f"
              % (name, checkout, statistics.median(times[name]) / n * 1e6, min(times[name]) / n * 1e6, first, ratio))


if __name__ == "__main__":
    main()
