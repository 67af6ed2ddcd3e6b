"""The shared conformance checker at 100 % on each engine: the compiled core and, forced with
ROUGE_FULL_METRIC_PURE_PYTHON=1, the pure-Python engine (~1.5 minutes)."""
import os
import subprocess
import sys

import pytest

from rouge_full_metric import compiled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "benchmarks", "conformance_compiled.py")


def _run(env_extra):
    env = dict(os.environ, **env_extra)
    out = subprocess.run([sys.executable, RUNNER, "--show", "5"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "(100.000%)" in out.stdout.splitlines()[-1], out.stdout
    return out.stdout


@pytest.mark.skipif(not compiled.AVAILABLE, reason="compiled core not built")
def test_conformance_on_the_compiled_core(shared_dir):
    assert "backend: compiled" in _run({compiled.ENV_FORCE_PYTHON: "0"})


def test_conformance_on_the_pure_python_engine(shared_dir):
    assert "backend: python" in _run({compiled.ENV_FORCE_PYTHON: "1"})
