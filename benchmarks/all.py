#!/usr/bin/env python3
"""Every speed figure of docs/speed.md in one command: runs the benchmark scripts one after the
other (each in its own interpreter, so that no cache or allocation of one flatters the next) and
prints what each prints — its ratios included.

  bench.py            news / long / multi-ref against rouge_score and rouge-score-rs, warm
  bench_floor.py      news against its tokenizing floor (tokenize + hash + intern in plain C)
  bench_types.py      each rouge type alone against rouge-score-rs, ~800-token texts and news
  bench_stemmed_cold.py  use_stemmer=True with a fresh scorer and unseen words (what a one-shot
                      evaluate call or a Trainer's compute_metrics pays) against rouge-score-rs
  bench_evaluate.py   RougeFullMetric.compute against score_batch + evaluate's own cost; bootstrap
  bench_languages.py  Chinese, Japanese, Thai (dictionary-word texts) and a few others against
                      multilingual-rouge
  bench_pairwise.py   score_matrix / filter_near_duplicates against rouge_score and rapidfuzz
  bench_njobs.py      score_batch n_jobs=2 against n_jobs=1, the second core free and busy
  bench_shapes.py     score() loops, small batches, several references, rouge3-rouge9 and custom
                      tokenizers against rouge-score-rs, and the rows where rs is faster
  bench_startup.py    new processes (the import; the import and 1 / 100 / 1,000 pairs scored;
                      100 with a CI; the command line) against rouge-score-rs and rouge_score

and, last, issue 21's targets judged from what they printed and the rows people meet first
(targets.py: two markdown tables, as docs/speed.md quotes them; `python benchmarks/targets.py
SAVED_OUTPUT --figures` prints them again).

Usage: python benchmarks/all.py [--quick]   (--quick: smaller inputs, fewer runs: a smoke run)
"""
import argparse
import os
import platform
import subprocess
import sys
import time

import targets   # beside this script (its folder heads sys.path)

HERE = os.path.dirname(os.path.abspath(__file__))

FULL = [
    ["bench.py", "--runs", "3"],
    ["bench_floor.py", "--runs", "9"],
    ["bench_types.py", "--runs", "5"],
    ["bench_stemmed_cold.py", "--runs", "5"],
    ["bench_evaluate.py", "--pairs", "100000", "--runs", "3"],
    ["bench_languages.py", "--langs", "chinese_simplified,japanese,thai,english,hindi,arabic", "--runs", "3"],
    ["bench_pairwise.py", "--runs", "3"],
    ["bench_njobs.py", "--runs", "9"],
    ["bench_shapes.py", "--runs", "7"],
    ["bench_startup.py", "--runs", "15"],
]
QUICK = [
    ["bench.py", "--runs", "1", "--only", "news", "--slow-pairs", "100"],
    ["bench_floor.py", "--runs", "1", "--pairs", "1000"],
    ["bench_types.py", "--runs", "3", "--pairs", "200", "--only", "long800"],
    ["bench_stemmed_cold.py", "--runs", "1", "--sizes", "500", "--no-rouge-score"],
    ["bench_evaluate.py", "--pairs", "10000", "--runs", "1", "--no-memory"],
    ["bench_languages.py", "--langs", "chinese_simplified,japanese,thai", "--pairs", "50", "--runs", "1"],
    ["bench_pairwise.py", "--matrix", "1000", "--filter", "2000", "--sample", "100", "--runs", "1", "--no-rapidfuzz"],
    ["bench_njobs.py", "--runs", "3", "--only", "long"],
    ["bench_shapes.py", "--runs", "1", "--only", "single,custom_tokenizer"],
    ["bench_startup.py", "--runs", "1", "--sizes", "1,100", "--no-rouge-score"],
]


# the instruction sets the core's kernels choose between at run time (csrc/*_simd.c, bitrev.c)
EXTENSIONS = ("avx2", "fma", "gfni", "avx512f", "avx512ifma")


def machine_lines(cpuinfo="/proc/cpuinfo"):
    """Two lines for the top of the output: the machine (targets.py --summary groups runs by it;
    the same code reads 2.60x its floor on one and 2.04x on another) and the code and Python.

    >>> m, c = machine_lines("/nonexistent")
    >>> m.startswith("machine: ") and c.startswith("code: ")
    True
    """
    model, flags = None, set()
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:   # the first CPU's lines (every CPU of these machines is the same)
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model is None:
                    model = " ".join(value.split())
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    model = model or platform.processor() or platform.machine() or "unknown CPU"
    has = [x for x in EXTENSIONS if x in flags]
    vector = (", ".join(has) if has else "none of " + " ".join(EXTENSIONS)) if flags else "extensions unknown"
    if flags and "avx512f" not in flags:
        vector += ", no avx512f"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True,
                                timeout=30).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                                 capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit, changed = "", ""
    code = "commit %s%s" % (commit, " with local changes" if changed else "") if commit else "not a git checkout"
    return ("machine: %s, %d CPUs, %s" % (model, os.cpu_count() or 0, vector),
            "code: %s, Python %s" % (code, platform.python_version()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    failed, printed = [], []

    def say(line):
        sys.stdout.write(line)
        sys.stdout.flush()
        printed.append(line)

    # each script unbuffered, so that its lines come as it prints them
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for line in machine_lines():
        say(line + "\n")
    for script, *args in (QUICK if a.quick else FULL):
        say("=" * 100 + "\n")
        say("$ python benchmarks/%s %s\n" % (script, " ".join(args)))
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, os.path.join(HERE, script), *args], cwd=os.path.dirname(HERE),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        for line in proc.stdout:
            say(line)
        code = proc.wait()
        say("(%s: %.0f s, exit %d)\n" % (script, time.perf_counter() - start, code))
        if code:
            failed.append(script)
    print("=" * 100)
    print("issue 21's targets, from this run (benchmarks/targets.py):\n")
    print(targets.markdown(targets.judge(targets.parse("".join(printed)))))
    print("\nthe rows people meet first, from this run:\n")
    print(targets.figures("".join(printed)))
    if failed:
        print("failed: " + ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
