#!/usr/bin/env python3
"""Where a new process's import of the package goes: what folding modules together, or loading
less code, could save against rouge-score-rs's import (docs/speed-cold-start.md).

New interpreters in turns, each timing one thing by its own CPU clock (``time.process_time``),
after importing --preload's modules (default json,argparse: what a script that reads JSON or parses
its arguments has paid for before it imports either package); medians of --runs rounds after one
untimed round that writes the ``.pyc`` files.  Rows:
  ours: import, scorer, 1 pair   RougeScorer(rouge1/2/L/Lsum, flavor rouge_score).score() once
  the same, collector off        gc.disable() first: what the garbage collector's passes cost
  rs: import, scorer, 1 pair     rouge-score-rs the same way (if installed)
  the standard modules it adds   those of the first row that are not the package's, alone (if any)
  the core's extension           rouge_full_metric._core loaded alone
  N empty modules                as many empty modules as the first row imports of ours: what
                                 finding, reading and running a module costs, its code aside
  the N .pyc read, unmarshalled  their files read and their code objects made, nothing run
What is left of the first row after the others is running the modules' bodies (classes,
functions, named tuples), the scorer and the pair.

Usage: python benchmarks/bench_import_parts.py [--runs 31] [--preload json,argparse]
"""
import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile

from bench_startup import child_env, preload_code   # beside this script (its folder heads sys.path)

SCORE = ("from rouge_full_metric import RougeScorer\n"
         "s = RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], flavor='rouge_score')\n"
         "s.score('the cat sat on the mat', 'the cat was on a mat')\n")
RS = ("from rouge_score_rs import rouge_scorer\n"
      "s = rouge_scorer.RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'])\n"
      "s.score('the cat was on a mat', 'the cat sat on the mat')\n")
START = "import time as _time\n_c = _time.process_time()\n"
STOP = "print((_time.process_time() - _c) * 1e3)\n"


def child(env, preload, row):
    """The ms of CPU one new interpreter took by its own clock for a row's (setup, timed code):
    the preload and the setup run before the clock starts."""
    setup, code = row
    done = subprocess.run([sys.executable, "-c", preload + setup + START + code + STOP], env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError("a child failed:\n%s\n%s" % (code, done.stderr[-2000:]))
    return float(done.stdout.split()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=31)
    ap.add_argument("--preload", default="json,argparse", help="modules imported before each child's clock starts")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    modules, preload = preload_code(ap, a.preload)
    env = child_env()   # .pyc files read as after a pip install; rs on one thread
    # the modules the first row adds, each with its file ("-" for a built-in one)
    listing = subprocess.run([sys.executable, "-c", preload + "import sys\nbefore = set(sys.modules)\n" + SCORE
                              + "for m in [m for m in sys.modules if m not in before]:\n"
                              "    print(m, getattr(sys.modules[m], '__file__', None) or '-')"],
                             env=env, capture_output=True, text=True, check=True).stdout.split("\n")
    added = dict(line.split(" ", 1) for line in listing if line)
    core = added.pop("rouge_full_metric._core")
    ours = [m for m in added if m.split(".")[0] == "rouge_full_metric"]
    others = [m for m in added if m.split(".")[0] != "rouge_full_metric"]
    pycs = [importlib.util.cache_from_source(added[m]) for m in ours]
    with tempfile.TemporaryDirectory() as empty:
        for k in range(len(ours)):
            open(os.path.join(empty, "_empty_module_%d.py" % k), "w").close()
        rows = {   # name: (setup, before the clock; what the clock times)
            "ours: import, scorer, 1 pair": ("", SCORE),
            "the same, collector off": ("import gc\ngc.disable()\n", SCORE),
        }
        if others:
            rows["the standard modules it adds (%d)" % len(others)] = ("", "import %s\n" % ", ".join(others))
        rows.update({
            "the core's extension": ("import importlib.util\n",
                                     "spec = importlib.util.spec_from_file_location('rouge_full_metric._core', %r)\n"
                                     "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n" % core),
            "%d empty modules" % len(ours): ("import sys\nsys.path.insert(0, %r)\n" % empty,
                                             "".join("import _empty_module_%d\n" % k for k in range(len(ours)))),
            "the %d .pyc read, unmarshalled" % len(ours): ("import marshal\n", "".join(
                "with open(%r, 'rb') as f: marshal.loads(f.read()[16:])\n" % p for p in pycs)),
        })
        if importlib.util.find_spec("rouge_score_rs"):
            rows["rs: import, scorer, 1 pair"] = ("", RS)
        else:
            print("rouge-score-rs not installed: pip install rouge-score-rs==0.2.1")
        for row in rows.values():
            child(env, preload, row)
        times = {name: [] for name in rows}
        names = list(rows)
        for r in range(a.runs):
            for name in names[r % len(names):] + names[:r % len(names)]:   # a rotating order
                times[name].append(child(env, preload, rows[name]))
    print("python %s   runs: %d, in turns   imported before each child's clock: %s"
          % (sys.version.split()[0], a.runs, ", ".join(modules) or "nothing"))
    print("our modules: %d, %d bytes of .pyc; the standard ones they add: %s"
          % (len(ours), sum(os.path.getsize(p) for p in pycs), ", ".join(others) or "none"))
    for name in names:
        print("%-42s %7.2f ms CPU" % (name, statistics.median(times[name])))


if __name__ == "__main__":
    main()
