#!/usr/bin/env python3
"""score_batch with n_jobs=2 against n_jobs=1, with the second core free and with it busy.

Workloads (bench.py's, seeded): news (11,490 pairs, ~60 tokens a side) and long (2,000 pairs of
200-300 tokens); type set rouge1, rouge2, rougeL, rougeLsum in flavor rouge_score (bench.py's
"rouge_score set"), warm (one untimed call first), cold (a new scorer each run: empty token
caches, each thread's Worker filling its own, in the memory the previous scorer's Workers left
parked: csrc/engine.c) and first (the same with no parked Worker, as a process's first scorer:
every page of the token caches faulted in).  n_jobs=1 and n_jobs=2 alternate run by run
(the order flips every run), and the medians of wall and CPU time (time.process_time: every thread
of this process) are printed with the ratio wall(n_jobs=1) / wall(n_jobs=2): above 1 is a gain.

"busy": another process spins on a core for the whole measurement (``python -c "while True:
pass"``, not pinned: the kernel places it, as it would a neighbour's job), so that n_jobs=2 has
one free core and a half, n_jobs=1 one.  "free": nothing started by this script; other jobs on the
machine are not controlled, so the load average is printed before each condition.  "onecore":
every thread of this process pinned to one CPU (Linux), so that n_jobs=2 has nothing more than
n_jobs=1: the cost of the threads alone, which the machine's other jobs change much less than
they change "free" and "busy" (n_jobs must never cost: the target is >= 0.97x there too).

"ceiling" (with the second core free): what two cores give this machine on this very job, as
opposed to what n_jobs=2 makes of them.  Two worker processes each score the batch with n_jobs=1,
alone and then both at once (started together at a barrier), interleaved with the n_jobs runs;
ceiling = 2 x wall(alone) / wall(both at once, the slower of the two).  Two processes share no GIL,
no caches but L3 and no work, so n_jobs=2 cannot beat it; on an idle machine with two real cores
it is close to 2.0, on a virtual machine whose two vCPUs share a physical core or are throttled by
the host it is less (1.6-1.85 on the one docs/speed.md reports).  "of ceiling" = speed-up /
ceiling: the share of the machine's second core n_jobs=2 turns into speed.

Usage: python benchmarks/bench_njobs.py [--runs 9] [--only news,long] [--conditions free,busy,onecore]
       [--types rouge1,rouge2,rougeL,rougeLsum] [--flavor rouge_score] [--states warm,cold,first]
       [--no-ceiling]
"""
import argparse
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
    """A new scorer for a "cold" run; for "first", with no parked Worker memory to start from."""
    from rouge_full_metric import RougeScorer, compiled
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


def measure(score, runs, ceiling=None):
    """{n_jobs: ([wall], [cpu])}, n_jobs 1 and 2 interleaved, the first of each pair alternating;
    with ceiling (a pair of functions: one process alone, two at once), also "alone" and "both"
    walls, measured in the same rounds."""
    times = {1: ([], []), 2: ([], []), "alone": ([], []), "both": ([], [])}
    for r in range(runs):
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            c0, w0 = time.process_time(), time.perf_counter()
            score(jobs)
            times[jobs][0].append(time.perf_counter() - w0)
            times[jobs][1].append(time.process_time() - c0)
        if ceiling is not None:
            times["alone"][0].append(ceiling[0]())
            times["both"][0].append(ceiling[1]())
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--only", default="news,long")
    ap.add_argument("--conditions", default="free,busy,onecore")
    ap.add_argument("--types", default=",".join(RS_TYPES))
    ap.add_argument("--flavor", default="rouge_score")
    ap.add_argument("--states", default="warm,cold,first")
    ap.add_argument("--no-ceiling", action="store_true",
                    help="skip the two-process ceiling measured with the second core free")
    a = ap.parse_args()

    from rouge_full_metric import RougeScorer, compiled

    print("backend: %s; %d cores; types %s, flavor %s; median of %d interleaved runs after a warm-up"
          % (compiled.backend(), os.cpu_count() or 1, a.types, a.flavor, a.runs))
    types = a.types.split(",")
    scorer = RougeScorer(types, flavor=a.flavor)
    data = {name: workload(name) for name in a.only.split(",")}
    ceiling = None
    if "free" in a.conditions.split(",") and not a.no_ceiling:
        ceiling = Ceiling(list(data), types, a.flavor)
    print("%-10s %-5s | %9s %9s | %9s %9s | %13s %11s | %8s %10s" % ("", "core", "wall 1", "wall 2", "CPU 1", "CPU 2",
                                                                  "speed-up 2/1", "CPU 2/1", "ceiling", "of ceiling"))
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
                        fresh = scorer if state == "warm" else new_scorer(types, a.flavor, state)
                        fresh.score_batch(preds, refs, n_jobs=jobs)
                    pair = None
                    if condition == "free" and ceiling is not None:
                        pair = (lambda: ceiling.alone(name, state), lambda: ceiling.both(name, state))
                    t = measure(score, a.runs, pair)
                    w1, c1 = statistics.median(t[1][0]), statistics.median(t[1][1])
                    w2, c2 = statistics.median(t[2][0]), statistics.median(t[2][1])
                    tail = ""
                    if pair is not None:
                        top = 2 * statistics.median(t["alone"][0]) / statistics.median(t["both"][0])
                        tail = " | %7.2fx %9.0f%%" % (top, 100 * (w1 / w2) / top)
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
