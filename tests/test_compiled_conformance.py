"""The shared conformance checker (ROUGE-1.5.5.pl outputs for 15 option profiles) at 100 % on each
engine: the compiled core, and the pure-Python one forced with ROUGE_FULL_METRIC_PURE_PYTHON=1."""
import os
import subprocess
import sys

import pytest

from rouge_full_metric import compiled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(shared_dir, force_python):
    env = dict(os.environ, **{compiled.ENV_FORCE_PYTHON: "1" if force_python else "0"})
    backend = subprocess.run([sys.executable, "-c", "from rouge_full_metric import compiled; print(compiled.backend())"],
                             capture_output=True, text=True, cwd=ROOT, env=env).stdout.strip()
    tool = os.path.join(shared_dir, "tools", "check_conformance.py")
    out = subprocess.run([sys.executable, tool, "--show", "5"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "(100.000%)" in out.stdout.splitlines()[-1], out.stdout
    return backend


@pytest.mark.skipif(not compiled.AVAILABLE, reason=compiled.unavailable_reason())
def test_conformance_on_the_compiled_core(shared_dir):
    assert _run(shared_dir, force_python=False) == "compiled"


def test_conformance_on_the_pure_python_engine(shared_dir):
    assert _run(shared_dir, force_python=True) == "python"
