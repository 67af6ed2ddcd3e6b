#!/usr/bin/env python3
"""The evaluate path: time and peak memory of ``RougeFullMetric.compute`` against ``score_batch``.

Seeded news-like pairs (benchmarks/bench.py's generator).  Times, interleaved in one process
(CPU medians of --runs after a warm-up):
  score_batch        RougeScorer(flavor="rouge_score").score_batch, the scoring floor
  evaluate alone     a do-nothing evaluate.Metric with the same features: evaluate's own cost
                     (its Arrow write and read back of the inputs)
  compute mean       compute(flavor="rouge_score", aggregate="mean"): target <= 1.3 x score_batch
                     + evaluate alone
  compute CI         the same with confidence_intervals=True (the bootstrap, 1,000 replicates)
  bootstrap exact    bootstrap_compiled.perl_bootstrap over the 12 per-example columns alone, the Perl's draw
                     order (flavor rouge155), on 5-decimal values as that flavor's are
  bootstrap counts   the same draws summed as counts times values (the other flavors)
  ... scalar         the two above with the compiled core's scalar kernels (csrc/bootstrap.c,
                     what every CPU without AVX2 runs) instead of the AVX2 / AVX-512 ones
Then compute with n_jobs=2 against n_jobs=1 (flavor rouge_score with aggregate="mean", and flavor
rouge155's default, whose average is its bootstrap's): wall times, runs of each in turns.
Peak memory: each step runs in a fresh interpreter; the figure is the peak RSS (VmHWM, reset
through /proc/self/clear_refs once the texts are loaded) minus the RSS at that moment.

--kernels times the compiled kernels alone instead (core.replicate_sums / core.count_sums on
random 5-decimal values, interleaved): at each level the CPU has (scalar, AVX2, AVX-512), the
Perl-order sums on unrounded values (which the AVX-512 kernel cannot pack into 32-bit integers),
and on 4 and 8 columns (rows of one cache line).

Usage: python benchmarks/bench_evaluate.py [--pairs 100000] [--runs 3] [--no-memory] [--kernels]
"""
import argparse
import os
import gc
import pickle
import tempfile
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# csrc/bootstrap_simd.c's kernel levels (_bootstrap_hooks)
KERNEL_LEVELS = ("scalar", "AVX2", "AVX-512", "AVX-512 with IFMA")


def texts(pairs, seed=2024):
    from bench import TextMaker
    return TextMaker(seed).pairs(pairs, lambda r: r.choice([3, 4]), lambda r: r.randint(55, 65))


def null_metric():
    """An evaluate.Metric with rouge_full_metric's features whose _compute does nothing."""
    import datasets
    import evaluate

    class Null(evaluate.Metric):
        def _info(self):
            return evaluate.MetricInfo(description="", citation="", inputs_description="", features=[
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Sequence(datasets.Value("string", id="sequence"))}),
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Value("string", id="sequence")})])

        def _compute(self, predictions, references):
            return {"n": len(predictions)}
    return Null()


def steps(preds, refs):
    from rouge_full_metric import RougeScorer
    from rouge_full_metric.bootstrap_compiled import perl_bootstrap
    from rouge_full_metric.rouge_full_metric import RougeFullMetric
    import numpy as np

    scorer = RougeScorer(TYPES, flavor="rouge_score")
    metric = RougeFullMetric(flavor="rouge_score")
    null = null_metric()
    n = len(preds)
    # 5 decimals: the values flavor rouge155 bootstraps in the Perl's order (the Perl's rounding),
    # which its AVX-512 kernel packs; the count-based sums take any values at one speed
    values = np.round(np.random.default_rng(0).random((n, 3 * len(TYPES))), 5)
    keys = ["%d.A" % (k + 1) for k in range(n)]

    def scalar(fn):
        from rouge_full_metric import compiled
        if not compiled.AVAILABLE:
            return fn

        def run():
            previous = compiled.core._bootstrap_hooks(0, -1)[0]
            try:
                return fn()
            finally:
                compiled.core._bootstrap_hooks(previous, -1)
        return run
    exact = lambda: perl_bootstrap(values, keys, 1000, 95)   # noqa: E731
    counts = lambda: perl_bootstrap(values, keys, 1000, 95, exact=False)   # noqa: E731
    return {
        "score_batch": lambda: scorer.score_batch(preds, refs),
        "evaluate alone": lambda: null.compute(predictions=preds, references=refs),
        "compute mean": lambda: metric.compute(predictions=preds, references=refs, aggregate="mean"),
        "compute CI": lambda: metric.compute(predictions=preds, references=refs, aggregate="mean",
                                             confidence_intervals=True),
        "bootstrap exact": exact,
        "bootstrap counts": counts,
        "exact, scalar": scalar(exact),
        "counts, scalar": scalar(counts),
    }


def njobs_rows(preds, refs, runs):
    """compute(..., n_jobs=2) against n_jobs=1, wall time, in turns (bench.alternating_walls): the
    core's threads fill the table and share a large bootstrap; evaluate's own part stays on one."""
    from bench import alternating_walls
    from rouge_full_metric.batch import _available_cpus
    from rouge_full_metric.rouge_full_metric import RougeFullMetric

    print("compute with n_jobs=2 against n_jobs=1, wall, medians of %d runs each in turns (%d CPUs):"
          % (runs, _available_cpus()))
    for flavor, options in (("rouge_score", {"aggregate": "mean"}), ("rouge155", {})):
        metric = RougeFullMetric(flavor=flavor)
        one, two = alternating_walls(lambda: metric.compute(predictions=preds, references=refs, **options),
                                     lambda: metric.compute(predictions=preds, references=refs, n_jobs=2, **options),
                                     runs)
        print("  flavor %-11s %-20s %.3f s -> %.3f s: %.2fx" % (flavor, ", ".join("%s=%s" % kv for kv in options.items())
                                                                or "(defaults)", one, two, one / two))


def kernels(n, runs):
    import numpy as np

    from rouge_full_metric import compiled
    if not compiled.AVAILABLE:
        print("no compiled core")
        return
    core = compiled.core
    allowed, _, supported = core._bootstrap_hooks(-1, -1)[:3]
    raw = np.random.default_rng(0).random((n, 12))
    values = np.round(raw, 5)
    best = KERNEL_LEVELS[supported]
    cases = []
    for level in range(supported + 1):
        for name in ("replicate_sums", "count_sums"):
            cases.append(("%s %s" % (name, KERNEL_LEVELS[level]), name, level, values))
    cases.append(("replicate_sums %s, unrounded values" % best, "replicate_sums", supported, raw))
    for k in (4, 8):
        cases.append(("replicate_sums %d columns, %s" % (k, best),
                      "replicate_sums", supported, np.ascontiguousarray(values[:, :k])))
    times = {case[0]: [] for case in cases}
    try:
        for _ in range(runs):
            for label, name, level, v in cases:
                core._bootstrap_hooks(level, -1)
                out = np.zeros((1000, v.shape[1]))
                t0 = time.process_time()
                getattr(core, name)(v, n, v.shape[1], out, 1000)
                times[label].append(time.process_time() - t0)
    finally:
        core._bootstrap_hooks(allowed, -1)
    print("%d rows, 1,000 replicates, 12 columns unless said; CPU medians of %d interleaved runs" % (n, runs))
    for label, t in times.items():
        print("  %-40s %6.2f us/pair" % (label, statistics.median(t) / n * 1e6))


def status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def memory_child(name, path):
    with open(path, "rb") as f:
        preds, refs = pickle.load(f)
    fn = steps(preds, refs)[name]
    gc.collect()
    with open("/proc/self/clear_refs", "w") as f:   # 5: reset the peak RSS (VmHWM) to the current RSS
        f.write("5")
    base = status_kib("VmRSS")
    fn()
    print(max(0, status_kib("VmHWM") - base))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--memory-child")
    ap.add_argument("--texts")
    ap.add_argument("--kernels", action="store_true")
    a = ap.parse_args()
    if a.kernels:
        kernels(a.pairs, a.runs)
        return
    if a.memory_child:
        memory_child(a.memory_child, a.texts)
        return
    preds, refs = texts(a.pairs)
    fns = steps(preds, refs)
    for fn in fns.values():
        fn()   # warm-up: token caches filled, evaluate's cache directory created
    times = {name: [] for name in fns}
    for _ in range(a.runs):   # interleaved: a burst of load on the machine hits every step alike
        for name, fn in fns.items():
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
    med = {name: statistics.median(v) for name, v in times.items()}
    n = a.pairs
    print("%d pairs, CPU medians of %d interleaved runs" % (n, a.runs))
    for name, t in med.items():
        print("  %-16s %8.3f s  %7.2f us/pair" % (name, t, t / n * 1e6))
    floor = med["score_batch"] + med["evaluate alone"]
    print("compute mean / (score_batch + evaluate alone): %.2f  (target <= 1.3)" % (med["compute mean"] / floor))
    print("compute mean / score_batch: %.2f" % (med["compute mean"] / med["score_batch"]))
    for name, base in (("bootstrap exact", "exact, scalar"), ("bootstrap counts", "counts, scalar")):
        print("%s, 1,000 replicates x 12 columns: %.2f us/pair (target <= 2); scalar kernels %.2f (%.1fx)"
              % (name, med[name] / n * 1e6, med[base] / n * 1e6, med[base] / med[name]))
    from rouge_full_metric import compiled
    if compiled.AVAILABLE:
        print("bootstrap kernels: %s" % KERNEL_LEVELS[min(compiled.core._bootstrap_hooks(-1, -1)[0:3:2])])
    njobs_rows(preds, refs, max(3, a.runs))
    if a.no_memory:
        return
    print("peak RSS above the loaded texts (fresh interpreter per step):")
    mem = {}
    saved = tempfile.NamedTemporaryFile(suffix=".pickle", delete=False)
    with saved:
        pickle.dump((preds, refs), saved)
    for name in ("score_batch", "evaluate alone", "compute mean", "compute CI"):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--texts", saved.name, "--memory-child", name],
                             capture_output=True, text=True, cwd=os.path.dirname(HERE))
        if out.returncode:
            print(out.stderr)
            continue
        mem[name] = int(out.stdout.split()[-1]) / 1024
        print("  %-16s %+8.0f MiB" % (name, mem[name]))
    os.unlink(saved.name)
    if "score_batch" in mem and "compute mean" in mem:
        print("compute mean / score_batch peak: %.2f; (compute mean - evaluate alone) / score_batch: %.2f"
              % (mem["compute mean"] / mem["score_batch"],
                 (mem["compute mean"] - mem["evaluate alone"]) / mem["score_batch"]))


if __name__ == "__main__":
    main()
