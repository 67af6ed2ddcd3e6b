#!/usr/bin/env python3
"""score_batch with n_jobs=2 against n_jobs=1, with the second core free and with it busy.

Workloads (bench.py's, seeded): news (11,490 pairs, ~60 tokens a side), long (2,000 pairs of
200-300 tokens) and multi-ref (2,000 predictions, four references each); type set rouge1, rouge2,
rougeL, rougeLsum in flavor rouge_score (bench.py's "rouge_score set").  States:
- warm: one untimed call first;
- cold: a new scorer each run (empty token caches, each thread's Worker filling its own, in the
  memory the previous scorer's Workers left parked: csrc/engine.c);
- first: the same with no parked Worker;
- process: each run a new interpreter timing its first call, what a one-shot script or
  `rouge-full` meets (the scorer compiled, the helper thread started, every page the call uses
  faulted in; its modules read from their .pyc, as after a pip install: one untimed child of
  each kind writes them).  "first" keeps this process's allocator, threads and modules warm, and
  flattered n_jobs=2: news 1.43-1.81 there, 0.88-1.00 in new interpreters, before thread_pool.py.
n_jobs=1 and n_jobs=2 alternate run by run (the order flips every run), and the medians of wall
and CPU time (time.process_time: every thread of the process) are printed with the ratio
wall(n_jobs=1) / wall(n_jobs=2): above 1 is a gain.

"busy": another process spins on a core for the whole measurement (``python -c "while True:
pass"``, not pinned: the kernel places it, as it would a neighbour's job), so that n_jobs=2 has
one free core and a half, n_jobs=1 one.  "free": nothing started by this script; other jobs on the
machine are not controlled, so the load average is printed before each condition.  "onecore":
every thread of this process pinned to one CPU (Linux), so that n_jobs=2 has nothing more than
n_jobs=1 (n_jobs must never cost: the target is >= 0.97x there too).  Since n_jobs is capped by
the CPUs the process may run on, n_jobs=2 starts no helper there; before, this row measured the
threads taking turns on one CPU (0.85-0.99x for a new interpreter's first call), which "busy"
still does when the kernel puts the helper on the caller's CPU.

"ceiling" (with the second core free): what two cores give this machine on this very job, as
opposed to what n_jobs=2 makes of them.  Two worker processes each score the batch with n_jobs=1,
alone and then both at once (started together at a barrier), interleaved with the n_jobs runs;
ceiling = 2 x wall(alone) / wall(both at once, the slower of the two).  Two processes share no GIL,
no caches but L3 and no work, so n_jobs=2 cannot beat it; on an idle machine with two real cores
it is close to 2.0, on a virtual machine whose two vCPUs share a physical core or are throttled by
the host it is less (1.6-1.85 on the one docs/speed.md reports).  For "process", two new
interpreters time their first call together (from one clock time, once both are set up).
"of ceiling" = speed-up / ceiling: the share of the machine's second core n_jobs=2 turns into
speed.  "paired": the median of the runs' own ratios wall(n_jobs=1) / wall(n_jobs=2), each run's
two calls taken back to back, with a distribution-free 95 % interval for that median (order
statistics of the runs' ratios): where the interval holds 0.97 and 1.00 alike, the run cannot
tell them apart (the one-CPU rows, the same code twice, show how wide that is on the machine).

Usage: python benchmarks/bench_njobs.py [--runs 9] [--only news,long,multi-ref] [--conditions free,busy,onecore]
       [--types rouge1,rouge2,rougeL,rougeLsum] [--flavor rouge_score] [--states warm,cold,first,process]
       [--no-ceiling]
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from bench import RS_TYPES, workload  # noqa: E402


def load():
    return "load average %.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else "load average n/a"


def pin_threads(cpus):
    """Every thread of this process (the pool's too) on ``cpus``; threads started later inherit
    the calling thread's set."""
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:   # a thread that ended meanwhile
            pass


def new_scorer(types, flavor, state):
    """A new scorer for a "cold" run (nothing shared with the scorers before it:
    shared_scorers.clear()); for "first", with no parked Worker memory to start from either."""
    from rouge_full_metric import RougeScorer, compiled, shared_scorers
    shared_scorers.clear()
    if state == "first" and compiled.AVAILABLE:
        compiled.core._spare_workers(compiled.core._spare_workers(0))   # frees the parked ones
    return RougeScorer(types, flavor=flavor)


def _ceiling_child(conn, barrier, names, types, flavor):
    """A worker process of the ceiling measurement: scores a workload with n_jobs=1 on command
    ("name", state, together) and sends back the wall time; "together" waits at the barrier."""
    from rouge_full_metric import RougeScorer
    data = {name: workload(name) for name in names}
    scorer = RougeScorer(types, flavor=flavor)
    for preds, refs in data.values():
        scorer.score_batch(preds, refs)   # warm
    conn.send("ready")
    while True:
        msg = conn.recv()
        if msg is None:
            return
        name, state, together = msg
        preds, refs = data[name]
        fresh = scorer if state == "warm" else new_scorer(types, flavor, state)
        if together:
            barrier.wait()
        w0 = time.perf_counter()
        fresh.score_batch(preds, refs)
        conn.send(time.perf_counter() - w0)


# A new interpreter timing its first score_batch: argv root, workload, n_jobs, types, flavor, and
# the clock time to start at (0: at once); prints wall, CPU, setup seconds and whether it was late.
_PROCESS_CHILD = r"""
import sys, time
t0 = time.time()
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench import workload
from rouge_full_metric import RougeScorer
name, jobs, types, flavor, start_at = sys.argv[2], int(sys.argv[3]), sys.argv[4].split(","), sys.argv[5], float(sys.argv[6])
preds, refs = workload(name)
scorer = RougeScorer(types, flavor=flavor)
setup, late = time.time() - t0, time.time() > start_at > 0
while time.time() < start_at:
    time.sleep(0.0005)
w0, c0 = time.perf_counter(), time.process_time()
scorer.score_batch(preds, refs, n_jobs=jobs)
print(time.perf_counter() - w0, time.process_time() - c0, setup, int(late))
"""


class FreshProcesses:
    """The "process" state: each run a new interpreter (see _PROCESS_CHILD)."""

    def __init__(self, types, flavor):
        self.types, self.flavor = ",".join(types), flavor
        self.margin = 3.0   # seconds between the start of two children and their common start
        # Every module from its .pyc, as after a pip install: with PYTHONDONTWRITEBYTECODE set
        # (as in the dev venv) and no cache, a child compiled the modules it imports from source,
        # and n_jobs=2's children paid for thread_pool.py's alone (its .pyc is written by the
        # untimed first run of each kind, see run).
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.warmed = set()

    def _start(self, name, jobs, start_at):
        return subprocess.Popen([sys.executable, "-c", _PROCESS_CHILD, os.path.dirname(HERE), name, str(jobs),
                                 self.types, self.flavor, repr(start_at)], stdout=subprocess.PIPE, text=True,
                                env=self.env)

    @staticmethod
    def _result(proc):
        out, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit("a fresh process failed (rc %d)" % proc.returncode)
        wall, cpu, setup, late = out.split()
        return float(wall), float(cpu), float(setup), late == "1"

    def run(self, name, jobs):
        if (name, jobs) not in self.warmed:   # untimed: writes the bytecode this kind of child imports
            self._result(self._start(name, jobs, 0))
            self.warmed.add((name, jobs))
        wall, cpu, _, _ = self._result(self._start(name, jobs, 0))
        return wall, cpu

    def both(self, name):
        """The slower wall of two fresh processes timing n_jobs=1 from one clock time."""
        for _ in range(5):
            start_at = time.time() + self.margin
            procs = [self._start(name, 1, start_at) for _ in range(2)]
            results = [self._result(proc) for proc in procs]
            self.margin = max(1.0, 1.5 * max(r[2] for r in results) + 0.3)
            if not any(r[3] for r in results):
                return max(r[0] for r in results)
        raise SystemExit("fresh processes kept starting late")


class Ceiling:
    """Two spawned processes running the n_jobs=1 job alone and both at once (see the docstring)."""

    def __init__(self, names, types, flavor):
        import multiprocessing as mp
        ctx = mp.get_context("spawn")
        self.barrier = ctx.Barrier(2)
        self.conns, self.procs = [], []
        for _ in range(2):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_ceiling_child, args=(child, self.barrier, names, types, flavor), daemon=True)
            proc.start()
            self.conns.append(parent)
            self.procs.append(proc)
        for conn in self.conns:
            conn.recv()

    def alone(self, name, state):
        self.conns[0].send((name, state, False))
        return self.conns[0].recv()

    def both(self, name, state):
        for conn in self.conns:
            conn.send((name, state, True))
        return max(conn.recv() for conn in self.conns)

    def close(self):
        for conn, proc in zip(self.conns, self.procs):
            conn.send(None)
            proc.join(10)


def median_interval(values, confidence=0.95):
    """(median, low, high): the median of values and a distribution-free interval that holds the
    true median with at least ``confidence`` (order statistics: the number of values under the
    median is binomial(n, 1/2)); with too few values for that (n < 6 at 95 %), the extremes,
    which hold it less often.

    >>> median_interval([1.0, 0.9, 1.1, 0.95, 1.05, 0.97, 1.02, 0.99, 1.01])
    (1.0, 0.95, 1.05)
    >>> median_interval([0.5, 1.5])
    (1.0, 0.5, 1.5)
    """
    xs = sorted(values)
    n = len(xs)
    # the largest k with P(binomial(n, 1/2) < k) <= (1 - confidence) / 2: [x_k, x_(n+1-k)], 1-based
    k, below = 0, 0.0
    while True:
        nxt = below + _binomial_half(n, k)
        if nxt > (1 - confidence) / 2:
            break
        below, k = nxt, k + 1
    lo, hi = (xs[k - 1], xs[n - k]) if k >= 1 else (xs[0], xs[-1])
    return statistics.median(xs), lo, hi


def _binomial_half(n, k):
    """P(binomial(n, 1/2) == k)."""
    return math.comb(n, k) / 2.0 ** n


def measure(score, runs, ceiling=None):
    """{n_jobs: ([wall], [cpu])}, n_jobs 1 and 2 interleaved, the first of each pair alternating;
    with ceiling (a pair of functions: one process alone, two at once), also "alone" and "both"
    walls, measured in the same rounds."""
    times = {1: ([], []), 2: ([], []), "alone": ([], []), "both": ([], [])}
    for r in range(runs):
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            c0, w0 = time.process_time(), time.perf_counter()
            timed = score(jobs)   # (wall, CPU) when it timed itself elsewhere (a fresh process)
            wall, cpu = timed if timed is not None else (time.perf_counter() - w0, time.process_time() - c0)
            times[jobs][0].append(wall)
            times[jobs][1].append(cpu)
        if ceiling is not None:
            times["alone"][0].append(ceiling[0]())
            times["both"][0].append(ceiling[1]())
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--only", default="news,long,multi-ref")
    ap.add_argument("--conditions", default="free,busy,onecore")
    ap.add_argument("--types", default=",".join(RS_TYPES))
    ap.add_argument("--flavor", default="rouge_score")
    ap.add_argument("--states", default="warm,cold,first,process")
    ap.add_argument("--no-ceiling", action="store_true",
                    help="skip the two-process ceiling measured with the second core free")
    a = ap.parse_args()

    from rouge_full_metric import RougeScorer, compiled

    print("backend: %s; %d cores; types %s, flavor %s; median of %d interleaved runs after a warm-up"
          % (compiled.backend(), os.cpu_count() or 1, a.types, a.flavor, a.runs))
    types = a.types.split(",")
    scorer = RougeScorer(types, flavor=a.flavor)
    data = {name: workload(name) for name in a.only.split(",")}
    processes = FreshProcesses(types, a.flavor)
    ceiling = None
    if "free" in a.conditions.split(",") and not a.no_ceiling:
        ceiling = Ceiling(list(data), types, a.flavor)
    print("%-10s %-5s | %9s %9s | %9s %9s | %13s %11s | %8s %10s | %s" % (
        "", "core", "wall 1", "wall 2", "CPU 1", "CPU 2", "speed-up 2/1", "CPU 2/1", "ceiling", "of ceiling",
        "paired [95 %]"))
    for condition in a.conditions.split(","):
        spinner = None
        pinned = None
        if condition == "onecore":
            if not hasattr(os, "sched_setaffinity"):
                print("-- onecore: no sched_setaffinity here, skipped")
                continue
            pinned = os.sched_getaffinity(0)
            pin_threads({min(pinned)})
        elif condition == "busy":
            spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            time.sleep(0.5)   # running before the first timing
        elif condition != "free":
            raise SystemExit("conditions: free, busy, onecore")
        try:
            what = {"free": "second core free (nothing started by this script)",
                    "busy": "second core busy (a spinning process started by this script)",
                    "onecore": "all threads pinned to one CPU"}[condition]
            print("-- %s; %s" % (what, load()), flush=True)
            for name, (preds, refs) in data.items():
                if scorer.score_batch(preds, refs, n_jobs=2) != scorer.score_batch(preds, refs):
                    raise SystemExit("n_jobs=2 differs from n_jobs=1 on %s" % name)
                for state in a.states.split(","):
                    def score(jobs):
                        if state == "process":
                            return processes.run(name, jobs)
                        fresh = scorer if state == "warm" else new_scorer(types, a.flavor, state)
                        fresh.score_batch(preds, refs, n_jobs=jobs)
                    pair = None
                    if condition == "free" and ceiling is not None and state == "process":
                        pair = (lambda: processes.run(name, 1)[0], lambda: processes.both(name))
                    elif condition == "free" and ceiling is not None:
                        pair = (lambda: ceiling.alone(name, state), lambda: ceiling.both(name, state))
                    t = measure(score, a.runs, pair)
                    w1, c1 = statistics.median(t[1][0]), statistics.median(t[1][1])
                    w2, c2 = statistics.median(t[2][0]), statistics.median(t[2][1])
                    tail = ""
                    if pair is not None:
                        top = 2 * statistics.median(t["alone"][0]) / statistics.median(t["both"][0])
                        tail = " | %7.2fx %9.0f%%" % (top, 100 * (w1 / w2) / top)
                    tail += " | paired %.2fx [%.2f-%.2f]" % median_interval([one / two for one, two in
                                                                             zip(t[1][0], t[2][0])])
                    print("%-10s %-5s | %8.3fs %8.3fs | %8.3fs %8.3fs | %12.2fx %10.2fx%s"
                          % (name + " " + state, condition, w1, w2, c1, c2, w1 / w2, c2 / c1, tail), flush=True)
        finally:
            if spinner is not None:
                spinner.kill()
                spinner.wait()
            if pinned is not None:
                pin_threads(pinned)
    if ceiling is not None:
        ceiling.close()
    print("after: %s" % load())


if __name__ == "__main__":
    main()
