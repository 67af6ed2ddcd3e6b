"""The Space's compiled core: built at start-up from the C sources shipped next to app.py.

A Space installs what ``requirements.txt`` names, and this package is on no index, so the C core
cannot come from pip there.  ``card/build_space.py`` ships ``csrc/`` (the sources
``rouge_full_metric._core`` is built from) and this module compiles them once with setuptools and
the machine's C compiler into ``.core_build/<hash of the sources>/rouge_full_metric/``: a namespace
directory (no ``__init__.py``) whose only module is ``_core``.  The metric's ``compiled.py``, run
from evaluate's flat copy, looks for ``rouge_full_metric._core`` when its own folder has none, and
finds this one.  Without a compiler (or setuptools) nothing is built and the page says that the
pure-Python reference engine runs: the same numbers, more slowly.
"""
import hashlib
import importlib
import os
import sys
import tempfile

# setup.py's flags: -ffp-contract=off keeps ROUGE-W and F bit-identical with the Python engine.
UNIX_FLAGS = ["-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99", "-Wno-unused-parameter"]
MSVC_FLAGS = ["/O2", "/fp:precise"]
FORCE_PYTHON = "ROUGE_FULL_METRIC_PURE_PYTHON"


def _sources_hash(csrc):
    digest = hashlib.sha256()
    for name in sorted(os.listdir(csrc)):
        if name.endswith((".c", ".h")):
            digest.update(name.encode() + b"\0")
            with open(os.path.join(csrc, name), "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()[:16]


def _installed_core():
    """The already importable ``rouge_full_metric._core`` (an installed package), or None."""
    try:
        return importlib.import_module("rouge_full_metric._core")
    except ImportError:
        return None


def _writable_root(space_dir):
    root = os.path.join(space_dir, ".core_build")
    try:
        os.makedirs(root, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=root)
        probe.close()
        return root
    except OSError:  # a read-only checkout: build in the temporary directory instead
        return os.path.join(tempfile.gettempdir(), "rouge_full_metric_space_core")


def _compile(csrc, build_lib):
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    class _BuildExt(build_ext):
        def build_extension(self, ext):
            ext.extra_compile_args = MSVC_FLAGS if self.compiler.compiler_type == "msvc" else UNIX_FLAGS
            super().build_extension(ext)

    extension = Extension("rouge_full_metric._core", [os.path.join(csrc, "_core.c")],
                          depends=[os.path.join(csrc, n) for n in sorted(os.listdir(csrc))])
    dist = Distribution({"name": "rouge_full_metric_space_core", "ext_modules": [extension]})
    command = _BuildExt(dist)
    command.build_lib = build_lib
    command.build_temp = os.path.join(build_lib, "tmp")
    command.ensure_finalized()
    command.run()


def ensure_core(space_dir):
    """Make ``rouge_full_metric._core`` importable; return ``(how, detail)``.

    ``how`` is ``"installed"`` (a package provides it), ``"built"`` (compiled now or by an earlier
    start from the shipped ``csrc/``), ``"forced"`` (``ROUGE_FULL_METRIC_PURE_PYTHON`` is set) or
    ``"none"``; ``detail`` says where it is or why there is none.  Call it before the metric is
    loaded: the metric decides its engine when it is imported.

    >>> import tempfile
    >>> how, detail = ensure_core(tempfile.mkdtemp())   # no csrc/ there
    >>> how in ("installed", "none", "forced")
    True
    """
    if os.environ.get(FORCE_PYTHON, "").strip().lower() not in ("", "0", "false", "no"):
        return "forced", "%s is set" % FORCE_PYTHON
    core = _installed_core()
    if core is not None:
        return "installed", core.__file__
    csrc = os.path.join(space_dir, "csrc")
    if not os.path.isfile(os.path.join(csrc, "_core.c")):
        return "none", "no compiled core is installed and %s holds no C sources to build one" % space_dir
    build_lib = os.path.join(_writable_root(space_dir), _sources_hash(csrc))
    if not any(n.startswith("_core") for n in _listdir(os.path.join(build_lib, "rouge_full_metric"))):
        try:
            _compile(csrc, build_lib)
        except BaseException as error:  # no compiler, no setuptools, a failed compile: SystemExit too
            if isinstance(error, KeyboardInterrupt):
                raise
            message = (str(error).splitlines() or [""])[0]
            if len(message) > 160:  # a failed compile quotes its whole command line
                message = message[:157] + "..."
            return "none", "the C core could not be built here (%s: %s)" % (type(error).__name__, message)
    sys.path.insert(0, build_lib)
    importlib.invalidate_caches()
    core = _installed_core()
    if core is None:
        return "none", "the C core was built in %s but does not import" % build_lib
    return "built", core.__file__


def _listdir(path):
    try:
        return os.listdir(path)
    except OSError:
        return []
