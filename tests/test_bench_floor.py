"""benchmarks/bench_floor.py: the tokenizing floor it times finds the package's own tokens (the
script stops before timing anything when either of floor.c's two ways finds other tokens or
other distinct tokens), and it prints the ratio issue 21's news target is stated in."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_floor.py"


def _compiler():
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    return cc and shutil.which(cc[0])


@pytest.mark.skipif(not _compiler(), reason="no C compiler for benchmarks/floor.c")
def test_the_floor_finds_the_packages_tokens_and_prints_the_ratio():
    done = subprocess.run([sys.executable, str(SCRIPT), "--pairs", "200", "--runs", "1"],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr + done.stdout
    rows = dict(re.findall(r"^(\S.*?)\s{2,}(\d+\.\d+)\s+\d+\.\d\s+\d+\.\d\d$", done.stdout, re.M))
    assert set(rows) == {"bytes: tokenize", "bytes: + hash", "bytes: + intern", "blocks: tokenize",
                         "blocks: + hash", "blocks: + intern", "rfm rouge1", "rfm rouge_score set"}
    assert all(float(v) > 0 for v in rows.values())
    assert re.search(r"^rouge_score set / floor: \d+\.\d\d  \(target <= 2: (not )?reached\)", done.stdout, re.M)


def test_bad_arguments_are_refused_by_name():
    done = subprocess.run([sys.executable, str(SCRIPT), "--runs", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--runs" in done.stderr
