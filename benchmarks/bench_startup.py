#!/usr/bin/env python3
"""A new process that scores a few pairs and exits: a script, a ``rouge-full`` call, a spawn pool's
or Spark's worker.  There the import is part of the price, and rouge-score-rs imports in a few
milliseconds.

Each row is a fresh interpreter running one small script, timed from outside (wall time of
``subprocess.run``, and the child's CPU from ``resource.getrusage(RUSAGE_CHILDREN)``), less the
same interpreter running ``pass``: what the tool adds to a process.  A second table gives each
child's own clocks from its first line to its exit handlers: the interpreter's start and
teardown, which move by several ms from one process to the next (the first table's small rows
read below zero at times), left out; benchmarks/targets.py reads that one.  The rows run in turns
(ours, rs, rouge_score, the empty one, ...), ``--runs`` rounds after one untimed round; medians.
Before timing, each script runs once with bytecode writing on, so that every module is imported
from its ``.pyc`` as after a ``pip install`` (``PYTHONDONTWRITEBYTECODE`` is dropped for the
children; with it set and no cache, Python would compile our sources in every process).

Rows (flavor rouge_score's set rouge1/rouge2/rougeL/rougeLsum; news pairs of bench.py; each tool's
``RougeScorer(...).score()`` in a loop, as rouge_score's README has it):
  import                  the import alone
  N pairs                 import, a scorer, N pairs scored (N from --sizes)
  N pairs, stemmed        the same with use_stemmer=True: a cold stemmer, as a one-shot call meets it
  N pairs, with a CI      N pairs scored and a 95 % interval of 1,000 bootstrap replicates: ours
                          score_corpus, the others their README's BootstrapAggregator (which imports
                          numpy in both)
  CLI, N pairs            two files of N lines scored into a CSV of means and intervals: `rouge-full
                          score --flavor rouge_score` against rouge_score's `rouge` (absl); rs has
                          no command line
(N of the last three: the second of --sizes, or the only one.)  The child's CPU is the figure
compared; "x" is rs's time over ours (> 1: we are faster).  --preload json,argparse has every
child (the empty one too) import those modules before its clocks start: a script that reads JSON
or parses its arguments has paid for re, enum, functools and collections before it imports us.

Usage: python benchmarks/bench_startup.py [--runs 15] [--sizes 1,100,1000] [--no-rouge-score]
                                          [--preload MODULE,...]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

SET = '["rouge1", "rouge2", "rougeL", "rougeLsum"]'

# What each tool's script does after reading the texts (P: predictions, R: references)
OURS = ("from rouge_full_metric import RougeScorer\n"
        "s = RougeScorer(%s, flavor='rouge_score', use_stemmer=%%s)\n"
        "for p, r in zip(P, R): s.score(p, r)\n" % SET)
RS = ("from rouge_score_rs import rouge_scorer\n"
      "s = rouge_scorer.RougeScorer(%s, use_stemmer=%%s)\n"
      "for p, r in zip(P, R): s.score(r, p)\n" % SET)
RSPY = ("from rouge_score import rouge_scorer\n"
        "s = rouge_scorer.RougeScorer(%s, use_stemmer=%%s)\n"
        "for p, r in zip(P, R): s.score(r, p)\n" % SET)
IMPORT = {"ours": "import rouge_full_metric\n", "rs": "import rouge_score_rs\n", "rouge_score": "import rouge_score.rouge_scorer\n"}
AGGREGATOR = ("from %s import rouge_scorer, scoring\n"
              "s = rouge_scorer.RougeScorer(" + SET + ")\na = scoring.BootstrapAggregator()\n"
              "for p, r in zip(P, R): a.add_scores(s.score(r, p))\na.aggregate()\n")
CI = {"ours": ("from rouge_full_metric import RougeScorer\n"
               "RougeScorer(%s, flavor='rouge_score').score_corpus(P, R)\n" % SET),
      "rs": AGGREGATOR % "rouge_score_rs", "rouge_score": AGGREGATOR % "rouge_score"}
# the command lines as their console scripts run them (P and R: files of one text a line)
CLI = {"ours": ("import sys\nsys.argv = ['rouge-full', 'score', '--predictions', %r, '--references', %r, "
                "'--flavor', 'rouge_score', '--rouge-types', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', "
                "'--format', 'csv', '--output', %r, '--quiet']\n"
                "from rouge_full_metric.cli import main\nsys.exit(main())\n"),
       "rouge_score": ("import sys\nsys.argv = ['rouge', '--prediction_filepattern=' + %r, "
                       "'--target_filepattern=' + %r, '--rouge_types=rouge1,rouge2,rougeL,rougeLsum', "
                       "'--output_filename=' + %r]\n"
                       "from absl import app, logging\nlogging.set_verbosity(logging.WARNING)\n"
                       "from rouge_score import rouge\napp.run(rouge.main)\n")}


def texts_file(tmp, preds, refs, n):
    """The first n pairs in one file, NUL-separated (the children read it without an import)."""
    path = os.path.join(tmp, "pairs%d.txt" % n)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\0".join(preds[:n] + refs[:n]))
    return path


def lines_files(tmp, preds, refs, n):
    """The first n pairs as two files of one text a line (a text's own line breaks as spaces)."""
    paths = []
    for name, texts in (("predictions", preds), ("references", refs)):
        paths.append(os.path.join(tmp, "%s%d.txt" % (name, n)))
        with open(paths[-1], "w", encoding="utf-8") as f:
            f.write("".join(" ".join(t.split("\n")) + "\n" for t in texts[:n]))
    return paths


def script(body, path, n):
    read = ("T = open(%r, encoding='utf-8').read().split('\\0')\nP, R = T[:%d], T[%d:]\n" % (path, n, n)) if path else ""
    return read + body


def preload_code(ap, value):
    """(modules, the line that imports them) of a --preload value ("json,argparse"); a name that
    is not a module's is refused through ``ap.error``, naming the argument."""
    modules = [m for m in value.split(",") if m]
    bad = [m for m in modules if not all(part.isidentifier() for part in m.split("."))]
    if bad:
        ap.error("--preload takes module names separated by commas, not %s" % ", ".join(map(repr, bad)))
    return modules, "import %s\n" % ", ".join(modules) if modules else ""


def child_env():
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


# Put before each child's code: its own clocks from its first line to its exit handlers, printed
# to stderr (time, atexit and sys are built into the interpreter: importing them reads no file)
CLOCKS = ("import time as _clock, atexit as _atexit, sys as _sys\n"
          "_c0, _w0 = _clock.process_time(), _clock.perf_counter()\n"
          "_atexit.register(lambda: _sys.stderr.write('\\n@@clocks %r %r\\n' % "
          "(_clock.process_time() - _c0, _clock.perf_counter() - _w0)))\n")
# the line before the table of the children's own clocks, after which benchmarks/targets.py reads
OWN_CLOCKS_MARK = "(the children's own clocks)"


def run_once(code, env, preload="", cwd=ROOT):
    """(wall s, child CPU s, the child's own CPU s, its own wall s) of one fresh interpreter
    running code in ``cwd`` (the repository's root: its package, where it holds a built core,
    comes before an installed one): from outside, and by the child's clocks (CLOCKS), which start
    after the preload's imports."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", preload + CLOCKS + code], cwd=cwd, env=env, capture_output=True,
                          text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError("a child failed:\n%s\n%s" % (code, done.stderr[-2000:]))
    own = [line.split()[1:] for line in done.stderr.splitlines() if line.startswith("@@clocks ")][-1]
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), float(own[0]), float(own[1])


def imported_from(env, cwd=ROOT):
    """[the file of rouge_full_metric.compiled, the file of its compiled core] as a child in
    ``cwd`` with ``env`` imports them; RuntimeError with the child's error when it cannot."""
    done = subprocess.run([sys.executable, "-c", "from rouge_full_metric import compiled\n"
                           "print(compiled.__file__)\nprint(compiled.core.__file__)"],
                          env=env, cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError((done.stderr.strip().splitlines() or ["the child failed"])[-1])
    return done.stdout.split()


def available(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sizes", default="1,100,1000")
    ap.add_argument("--no-rouge-score", action="store_true", help="leave rouge_score out (its import takes NLTK's ~1 s)")
    ap.add_argument("--no-ci", action="store_true", help="leave out the rows with a CI and the command lines")
    ap.add_argument("--preload", default="",
                    help="modules every child imports before its clocks start, e.g. json,argparse")
    a = ap.parse_args(argv)
    sizes = [int(x) for x in a.sizes.split(",")]
    modules, preload = preload_code(ap, a.preload)
    tools = ["ours"]
    if available("rouge_score_rs"):
        tools.append("rs")
    else:
        print("rouge-score-rs not installed: pip install rouge-score-rs==0.2.1")
    if not a.no_rouge_score and available("rouge_score"):
        tools.append("rouge_score")
    body = {"ours": OURS, "rs": RS, "rouge_score": RSPY}
    env = child_env()
    from bench import workload
    preds, refs = workload("news")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [("import", None, 0, None)]
        for n in sizes:
            rows.append(("%d pairs" % n, texts_file(tmp, preds, refs, n), n, "False"))
        _, path, n, _ = rows[min(2, len(sizes))]   # the stemmed row: the second size's texts (or the only one's)
        rows.append(("%d pairs, stemmed" % n, path, n, "True"))
        codes = {}
        for name, path, n, stem in rows:
            for tool in tools:
                codes[name, tool] = IMPORT[tool] if stem is None else script(body[tool] % stem, path, n)
        if not a.no_ci:
            rows.append(("%d pairs, with a CI" % n, path, n, None))
            rows.append(("CLI, %d pairs" % n, None, n, None))
            files = lines_files(tmp, preds, refs, n) + [os.path.join(tmp, "out.csv")]
            for tool in tools:
                codes[rows[-2][0], tool] = script(CI[tool], path, n)
                if tool in CLI and (tool != "rouge_score" or available("absl")):
                    codes[rows[-1][0], tool] = CLI[tool] % tuple(files)
        codes["empty"] = "pass"
        # once each, untimed, with bytecode written (the .pyc files a pip install leaves)
        for code in codes.values():
            run_once(code, env, preload)
        times = {key: ([], [], [], []) for key in codes}
        keys = list(codes)
        for r in range(a.runs):
            for key in keys[r % len(keys):] + keys[:r % len(keys)]:   # a rotating order
                for kept, value in zip(times[key], run_once(codes[key], env, preload)):
                    kept.append(value)
    empty_wall, empty_cpu = (statistics.median(v) for v in times["empty"][:2])
    from rouge_full_metric import compiled
    print("backend: %s   python %s   runs: %d, in turns   an empty interpreter: %.1f ms CPU, %.1f ms wall"
          % (compiled.backend(), sys.version.split()[0], a.runs, empty_cpu * 1e3, empty_wall * 1e3))
    if modules:
        print("every child, the empty one too, imported %s before its clocks started" % ", ".join(modules))
    if compiled.AVAILABLE:
        package, core = (os.path.dirname(f) for f in imported_from(env))
        print("the children's rouge_full_metric: %s%s" % (package, "" if core == package else " (its core: %s)" % core))
    # What site (.pth files, sitecustomize) imports is free for every tool here; typing and re
    # were what the package's import paid most for (~6-10 ms) until it stopped importing them
    # (docs/speed-cold-start.md, "A lean import"); rs imports neither
    done = subprocess.run([sys.executable, "-c", preload + "import sys; print(len(sys.modules), "
                           "'typing' in sys.modules, 're' in sys.modules)"], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    count, typing_in, re_in = done.stdout.split()
    print("the empty interpreter's own modules: %s (typing %s, re %s already imported)"
          % (count, "is" if typing_in == "True" else "not", "is" if re_in == "True" else "not"))
    print("ms added to a new process (CPU; wall in brackets), from outside: less the empty interpreter's")
    table(rows, times, lambda cpu, wall, _c, _w: (cpu - empty_cpu, wall - empty_wall))
    # The interpreter's start and exit vary by several ms from one process to the next, which the
    # table above keeps; this one reads each child's own clocks and leaves both out
    print("\nms of the child's own clocks, its first line to its exit handlers (CPU; wall in brackets):"
          " the interpreter's start and its teardown left out")
    print(OWN_CLOCKS_MARK)
    table(rows, times, lambda _c, _w, cpu, wall: (cpu, wall))


def table(rows, times, figures):
    """One line per row: each tool's figures, (CPU, wall) = figures(CPU, wall, own CPU, own wall)
    of the medians, and rs's CPU over ours."""
    head = "%-22s %16s %16s %16s %8s" % ("what", "ours", "rs", "rouge_score", "x rs")
    print(head)
    print("-" * len(head))
    for name, _path, _n, _stem in rows:
        cells, ours_cpu, rs_cpu = [], None, None
        for tool in ("ours", "rs", "rouge_score"):
            if (name, tool) not in times:
                cells.append("%16s" % "-")
                continue
            wall, cpu, own_cpu, own_wall = (statistics.median(v) for v in times[name, tool])
            cpu, wall = figures(cpu, wall, own_cpu, own_wall)
            cells.append("%7.1f (%6.1f)" % (cpu * 1e3, wall * 1e3))
            if tool == "ours":
                ours_cpu = cpu
            elif tool == "rs":
                rs_cpu = cpu
        ratio = "%7.2fx" % (rs_cpu / ours_cpu) if ours_cpu and rs_cpu is not None and ours_cpu > 0 else "%8s" % "-"
        print("%-22s %s %s" % (name, " ".join(cells), ratio))


if __name__ == "__main__":
    main()
