"""Issue 17: never silently slow.

Python started in a checkout's root imports the checkout's ``rouge_full_metric/``, which has no
compiled core after a plain ``pip install .``: it must load the installed package's core, or warn
once (PurePythonEngineWarning) naming the reason and the fix.  Each case runs in a subprocess
started with ``-S`` from a temporary "checkout" (cwd first on sys.path, as ``python -c``, Jupyter and
Spark's workers have it) and a copy of site-packages without rouge_full_metric, so that whatever
this machine has installed does not decide the outcome.
"""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rouge_full_metric import compiled

PACKAGE = Path(compiled.__file__).resolve().parent    # the source tree, or an installed wheel under test
CORE = compiled.core.__file__ if compiled.AVAILABLE else None
needs_core = pytest.mark.skipif(not compiled.AVAILABLE, reason="no compiled core to install: %s"
                                % compiled.unavailable_reason())

PROBE = """
import sys, warnings
sys.path.extend(%r)
import {module} as c
print(c.backend())
print(c.core.__file__ if c.core is not None else "-")
print(c.unavailable_reason())
"""


def _site_without_package(tmp_path: Path) -> Path:
    """site-packages mirrored by symlinks, minus every rouge_full_metric (installed or editable)."""
    mirror = tmp_path / "site"
    mirror.mkdir()
    folders = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    folders |= {p for p in sys.path if os.path.basename(p) in ("site-packages", "dist-packages") and os.path.isdir(p)}
    for folder in sorted(folders):
        for entry in os.listdir(folder):
            if "rouge_full_metric" in entry or entry.endswith(".pth") or (mirror / entry).exists():
                continue
            (mirror / entry).symlink_to(os.path.join(folder, entry))
    return mirror


def _checkout(tmp_path: Path) -> Path:
    """A checkout after `pip install .`: the package's sources, no _core extension."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "rouge_full_metric",
                    ignore=lambda d, names: [n for n in names if n == "__pycache__" or
                                             (n.startswith("_core") and not n.endswith(".c"))])
    return root


def _installed(tmp_path: Path, api_ok: bool = True) -> Path:
    """Another rouge_full_metric on sys.path (site-packages) holding the compiled core."""
    site = tmp_path / "installed"
    (site / "rouge_full_metric").mkdir(parents=True)
    shutil.copy(CORE, site / "rouge_full_metric" / os.path.basename(CORE))
    return site


def _run(cwd: Path, paths, module="rouge_full_metric.compiled", env_extra=None, code=""):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", compiled.ENV_FORCE_PYTHON)}
    env.update(env_extra or {})
    env["PYTHONWARNINGS"] = "default"
    proc = subprocess.run([sys.executable, "-S", "-c", PROBE.format(module=module) % [str(p) for p in paths] + code],
                          cwd=str(cwd), capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    backend, core_file, reason = proc.stdout.splitlines()[:3]
    return backend, core_file, reason, proc.stderr, proc.stdout


@needs_core
def test_checkout_root_loads_the_installed_core_silently(tmp_path):
    root, site, installed = _checkout(tmp_path), _site_without_package(tmp_path), _installed(tmp_path)
    backend, core_file, reason, stderr, _ = _run(root, [site, installed])
    assert backend == "compiled" and core_file.startswith(str(installed)), (backend, core_file)
    assert reason == "" and "PurePythonEngineWarning" not in stderr, stderr


def test_checkout_root_without_any_core_warns_once_with_reason_and_fix(tmp_path):
    root, site = _checkout(tmp_path), _site_without_package(tmp_path)
    code = ("from rouge_full_metric import RougeScorer\n"
            "r = RougeScorer(['rouge1']).score_corpus(['a b'], ['a b'], n_bootstrap=10)\n"
            "RougeScorer(['rouge2']).score('a b', 'a b')\n"
            "import rouge_full_metric.compiled, rouge_full_metric.batch\n"
            "print(r.engine)\n")
    backend, core_file, reason, stderr, stdout = _run(root, [site], code=code)
    assert backend == "python" and core_file == "-"
    assert stdout.splitlines()[-1] == "python"      # CorpusResult.engine tells which engine ran
    # the old message (issue 12) stays: not Python's "circular import", but what to run
    assert reason.startswith("the source tree has no compiled core") and "circular" not in reason
    assert "pip install -e ." in reason and "build_ext --inplace" in reason
    warning = [line for line in stderr.splitlines() if "PurePythonEngineWarning" in line]
    assert len(warning) == 1, stderr   # once, however much is scored
    assert "pure-Python reference engine" in warning[0] and "480" in warning[0]
    assert "checkout" in warning[0] and "build_ext --inplace" in warning[0]
    assert compiled.ENV_FORCE_PYTHON + "=1" in warning[0]


def test_forced_pure_python_is_quiet(tmp_path):
    root, site = _checkout(tmp_path), _site_without_package(tmp_path)
    code = "from rouge_full_metric import RougeScorer\nRougeScorer(['rouge1']).score('a b', 'a b')\n"
    backend, _, reason, stderr, _ = _run(root, [site], env_extra={compiled.ENV_FORCE_PYTHON: "1"}, code=code)
    assert backend == "python" and "forced" in reason
    assert "Warning" not in stderr, stderr


def _evaluate_copy(tmp_path: Path) -> Path:
    """What evaluate.load (and a Hub Space) makes of the metric: the flat .py files, another package."""
    root = tmp_path / "modules"
    (root / "metric_copy").mkdir(parents=True)
    for name in os.listdir(PACKAGE):
        if name.endswith(".py"):
            shutil.copy(PACKAGE / name, root / "metric_copy" / name)
    return root


def test_evaluate_copy_without_a_core_says_it_runs_the_reference_engine(tmp_path):
    root, site = _evaluate_copy(tmp_path), _site_without_package(tmp_path)
    backend, _, _, stderr, _ = _run(root, [site], module="metric_copy.compiled")
    assert backend == "python"
    warning = [line for line in stderr.splitlines() if "PurePythonEngineWarning" in line]
    assert len(warning) == 1, stderr
    assert "this copy of the metric" in warning[0] and "480" in warning[0]


@needs_core
def test_evaluate_copy_uses_the_installed_core(tmp_path):
    root, site, installed = _evaluate_copy(tmp_path), _site_without_package(tmp_path), _installed(tmp_path)
    backend, core_file, _, stderr, _ = _run(root, [site, installed], module="metric_copy.compiled")
    assert backend == "compiled" and core_file.startswith(str(installed))
    assert "PurePythonEngineWarning" not in stderr, stderr


@needs_core
def test_a_core_with_another_api_is_not_loaded(tmp_path):
    # An installed core built for another interface would crash or miscount: it is skipped, loudly.
    root, site, installed = _checkout(tmp_path), _site_without_package(tmp_path), _installed(tmp_path)
    compiled_py = root / "rouge_full_metric" / "compiled.py"
    text = compiled_py.read_text(encoding="utf-8")
    compiled_py.write_text(text.replace("API_VERSION = %d " % compiled.API_VERSION, "API_VERSION = 999 ", 1),
                           encoding="utf-8")
    backend, _, _, stderr, _ = _run(root, [site, installed])
    assert backend == "python" and "PurePythonEngineWarning" in stderr


def test_the_result_says_which_engine_ran():
    from rouge_full_metric import RougeScorer

    result = RougeScorer(["rouge1"]).score_corpus(["a b"], ["a b"], n_bootstrap=10)
    assert result.engine == compiled.backend()
    assert RougeScorer(["rouge1"], flavor="matlab").score_corpus(["a b"], ["a b"], n_bootstrap=10).engine == "python"
