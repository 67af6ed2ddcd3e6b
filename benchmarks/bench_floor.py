#!/usr/bin/env python3
"""The news workload's tokenizing floor on the machine in hand, and how far the package is above it.

Issue 21 sets news at <= 4 us/pair, "<= 2x the tokenize+hash+intern floor": what a plain C loop
takes to turn both texts of a pair into interned token ids, and nothing else.  That floor moves
with the machine as the package does, so the ratio of the two, taken in one interleaved run, says
what an absolute target on another machine cannot.  The floor is `floor.c` beside this script,
compiled here with the C compiler Python was built with (`cc -O2`), fed the texts as one UTF-8
buffer made before any timing (the package reads them from Python str objects inside its timing).

Rows, CPU time (time.process_time), medians of --runs runs taken in turns after one warm-up each
(the floor's intern tables and the package's token caches warm, as in a long evaluation), for each
of floor.c's two ways (a byte at a time; 64 bytes at a time, as the package's tokenizer works):
  tokenize                 find the [A-Za-z0-9] runs, lowercase them
  + hash                   and hash each token
  + intern                 and look it up in one table of the distinct tokens, adding new ones:
                           the floor is the faster way's
  rfm rouge1               RougeScorer(["rouge1"], flavor="rouge_score"), score_batch
  rfm rouge_score set      the same with rouge1, rouge2, rougeL, rougeLsum (bench.py's news row)

Usage: python benchmarks/bench_floor.py [--runs 9] [--pairs 11490] [--cc gcc]
"""
import argparse
import ctypes
import os
import shlex
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def build_floor(cc, tmp):
    """floor.c compiled into tmp and loaded; the compiler's name comes from --cc or sysconfig."""
    cc = shlex.split(cc or sysconfig.get_config_var("CC") or "cc")
    so = os.path.join(tmp, "floor.so")
    cmd = cc + ["-O2", "-shared", "-fPIC", os.path.join(HERE, "floor.c"), "-o", so]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        sys.exit("bench_floor.py: %s failed:\n%s" % (" ".join(cmd), done.stderr))
    lib = ctypes.CDLL(so)
    lib.floor_distinct.restype = ctypes.c_int64
    lib.floor_distinct.argtypes = [ctypes.c_int]
    for run in (lib.floor_run, lib.floor_run_fast):
        run.restype = ctypes.c_int64
        run.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64), ctypes.c_int64, ctypes.c_int]
    if lib.floor_reset() or lib.floor_reset_fast():
        sys.exit("bench_floor.py: the floor's tables could not be allocated")
    return lib, " ".join(cmd)


def in_turns(fns, runs):
    """CPU seconds of each function, medians over runs taken in turns (the order rotated each
    run) after one warm-up call each."""
    for fn in fns.values():
        fn()
    names = list(fns)
    times = {k: [] for k in names}
    for r in range(runs):
        order = names[r % len(names):] + names[:r % len(names)]
        for k in order:
            c0 = time.process_time()
            fns[k]()
            times[k].append(time.process_time() - c0)
    return {k: statistics.median(v) for k, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--pairs", type=int, default=11490, help="the first N news pairs (default: all)")
    ap.add_argument("--cc", help="the C compiler for floor.c (default: the one Python was built with)")
    a = ap.parse_args()
    if a.runs < 1 or a.pairs < 1:
        ap.error("--runs and --pairs must be at least 1")

    from bench import workload
    from rouge_full_metric import RougeScorer, compiled
    from rouge_full_metric.batch import score_batch

    preds, refs = workload("news")
    preds, refs = preds[:a.pairs], refs[:a.pairs]
    n = len(preds)
    texts = [t.encode("utf-8") for pair in zip(preds, refs) for t in pair]
    offs = [0]
    for t in texts:
        offs.append(offs[-1] + len(t))
    buf = b"".join(texts)
    coffs = (ctypes.c_int64 * len(offs))(*offs)

    with tempfile.TemporaryDirectory() as tmp:
        lib, cmd = build_floor(a.cc, tmp)

        def run_floor(mode):
            """floor.c's mode (0-2: a byte at a time, 3-5: 64 bytes at a time) over every text: its
            checksum."""
            got = (lib.floor_run if mode < 3 else lib.floor_run_fast)(buf, coffs, len(texts), mode)
            if got < 0:
                raise MemoryError("floor.c")
            return got

        # Both ways must find the package's tokens (the rouge_score set's, counted here from its
        # own tokenizer) before their times mean anything: their mode 0 / 3 checksum is the sum of
        # each token's length and first byte, and both intern tables must hold its distinct tokens.
        from rouge_full_metric.rouge_score_flavor import make_tokenizer
        tokenize = make_tokenizer()
        tokens = [t for pair in zip(preds, refs) for text in pair for t in tokenize(text)]
        count, distinct = len(tokens), len(set(tokens))
        want = sum(len(t) + ord(t[0]) for t in tokens)
        for mode in (0, 3):
            got = run_floor(mode)
            if got != want:
                sys.exit("bench_floor.py: floor.c's way %d finds other tokens than the package (checksum %d, "
                         "the package's %d)" % (mode // 3, got, want))
        for fast in (0, 1):
            run_floor(5 if fast else 2)
            if lib.floor_distinct(fast) != distinct:
                sys.exit("bench_floor.py: floor.c's way %d interned %d distinct tokens, the package's tokenizer "
                         "finds %d" % (fast, lib.floor_distinct(fast), distinct))

        one = RougeScorer(["rouge1"], flavor="rouge_score")
        four = RougeScorer(RS_TYPES, flavor="rouge_score")
        fns = {
            "bytes: tokenize": lambda: run_floor(0),
            "bytes: + hash": lambda: run_floor(1),
            "bytes: + intern": lambda: run_floor(2),
            "blocks: tokenize": lambda: run_floor(3),
            "blocks: + hash": lambda: run_floor(4),
            "blocks: + intern": lambda: run_floor(5),
            "rfm rouge1": lambda: score_batch(one, preds, refs),
            "rfm rouge_score set": lambda: score_batch(four, preds, refs),
        }
        print("backend: %s   python %s   %d news pairs, %d tokens (%.1f a pair)   runs: %d, in turns"
              % (compiled.backend(), sys.version.split()[0], n, count, count / n, a.runs))
        print("floor: %s" % cmd)
        med = in_turns(fns, a.runs)

    fl = min(med["bytes: + intern"], med["blocks: + intern"])   # the floor: the faster way
    print("%-24s %10s %10s %10s" % ("what", "us/pair", "ns/token", "x floor"))
    for k, s in med.items():
        print("%-24s %10.2f %10.1f %10.2f" % (k, s / n * 1e6, s / count * 1e9, s / fl))
    ratio, us = med["rfm rouge_score set"] / fl, med["rfm rouge_score set"] / n * 1e6
    print("rouge_score set / floor: %.2f  (target <= 2: %s); the set itself %.2f us/pair (target <= 4: %s)"
          % (ratio, "reached" if ratio <= 2 else "not reached", us, "reached" if us <= 4 else "not reached"))


if __name__ == "__main__":
    main()
