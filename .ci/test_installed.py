"""Run the test suite against the installed rouge_full_metric (a wheel), not the source tree.

    python .ci/test_installed.py CHECKOUT [pytest arguments...]

The checkout is copied without its ``rouge_full_metric/`` package (and setup.py) into a temporary
folder, next to a link to the checkout's ``../shared`` when there is one, and pytest runs there:
``python -m pytest`` puts the current directory first on sys.path, so a copy that kept the package
would shadow the installed one.  Before the tests, it proves what the wheel must carry: the
compiled core, the data modules and the evaluate metric script.  Then it runs the doctests of the
installed modules (``--pyargs``).  Used by .ci/run and by cibuildwheel's test-command.
"""
import os
import shutil
import subprocess
import sys
import tempfile

KEEP_OUT = {"rouge_full_metric", "setup.py", ".git", "build", "dist"}


def check_installed(checkout: str) -> None:
    import rouge_full_metric
    from rouge_full_metric import compiled

    where = os.path.dirname(os.path.abspath(rouge_full_metric.__file__))
    # a venv may live inside the checkout (.ci/run's .venv-ci): only the checkout's own package counts
    if where == os.path.join(os.path.abspath(checkout), "rouge_full_metric"):
        raise SystemExit("rouge_full_metric is imported from the checkout (%s), not the installed wheel" % where)
    if compiled.backend() != "compiled" or os.path.dirname(compiled.core.__file__) != where:
        raise SystemExit("the installed package has no compiled core of its own: %s" % compiled.unavailable_reason())
    for name in ("rouge_full_metric.py", "rouge155_data.py", "snowball_stopwords.py", "multilingual_stemmers.py"):
        if not os.path.isfile(os.path.join(where, name)):
            raise SystemExit("the installed package lacks %s" % name)
    print("installed package: %s (engine: compiled, %s)" % (where, os.path.basename(compiled.core.__file__)))


def main(argv) -> int:
    checkout = os.path.abspath(argv[0])
    pytest_args = argv[1:] or ["-q"]
    with tempfile.TemporaryDirectory(prefix="rouge-wheel-test-") as tmp:
        copy = os.path.join(tmp, "checkout")
        shutil.copytree(checkout, copy, ignore=lambda d, names: [n for n in names if n == "__pycache__" or n.startswith(".venv")
                                                                 or (d == checkout and n in KEEP_OUT)])
        shared = os.path.join(os.path.dirname(checkout), "shared")
        if os.path.isdir(shared):
            os.symlink(shared, os.path.join(tmp, "shared"), target_is_directory=True)
        os.chdir(copy)
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != checkout]
        check_installed(checkout)
        base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
        status = subprocess.call(base + pytest_args + ["tests"])
        # the installed modules' docstring examples (the copy has no package to collect them from)
        doctests = subprocess.call(base + ["-q", "--doctest-modules", "--pyargs", "rouge_full_metric",
                                           "--ignore-glob=*/cli/*"])
        return status or doctests


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
