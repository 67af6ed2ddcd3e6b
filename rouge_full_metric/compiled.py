"""Which engine scores: the compiled core (``rouge_full_metric._core``) or the pure-Python one.

The compiled core is optional.  When it was not built (no C compiler, a Hub Space that copies
only ``.py`` files) the pure-Python engine runs and gives identical results, more slowly, and a
:class:`PurePythonEngineWarning` says so once.  A package without a core of its own (a checkout
imported from its root after ``pip install .``, evaluate's copy of the metric script) first looks
for the core of an installed ``rouge_full_metric`` on ``sys.path``.  Setting the
environment variable ``ROUGE_FULL_METRIC_PURE_PYTHON=1`` before the first import forces the
pure-Python engine, e.g. to run the conformance checker on it.

>>> from rouge_full_metric import compiled
>>> compiled.backend() in ("compiled", "python")
True
>>> compiled.AVAILABLE == (compiled.backend() == "compiled")
True
"""
import os
import sys

ENV_FORCE_PYTHON = "ROUGE_FULL_METRIC_PURE_PYTHON"
API_VERSION = 3   # the _core interface this module drives (2: Engine takes a native token filter;
                  # 3: Engine.batch, Worker.run's cancel byte)

FORCED_PYTHON = os.environ.get(ENV_FORCE_PYTHON, "").strip().lower() not in ("", "0", "false", "no")

BUILD_HINT = ("run `pip install -e .` (it builds the core in place) or `python setup.py build_ext --inplace` "
              "in the checkout (with setuptools >= 77)")


def _missing_core_error(error: ImportError) -> ImportError:
    """Python reports a module that was never built, imported from a package being initialized,
    as a "circular import"; say what it is instead, when no compiled file is there at all."""
    import importlib.machinery

    folder = os.path.dirname(os.path.abspath(__file__))
    names = os.listdir(folder) if os.path.isdir(folder) else []
    if any(n.startswith("_core") and n.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for n in names):
        return error   # a core is there but does not load (another Python, a broken build): keep the reason
    where = "the source tree" if os.path.isdir(os.path.join(folder, "csrc")) else "this copy of the package"
    missing = ImportError("%s has no compiled core (%s has no _core extension module), so the pure-Python "
                          "engine runs; to build it %s" % (where, folder, BUILD_HINT))
    missing.__cause__ = error
    return missing


class PurePythonEngineWarning(UserWarning):
    """The compiled core could not be loaded, so the pure-Python reference engine scores: the
    numbers are identical, the speed is not (~480 µs per pair instead of ~15-60).  Shown once per
    process; ``ROUGE_FULL_METRIC_PURE_PYTHON=1`` (choosing that engine) silences it, as does
    ``warnings.filterwarnings("ignore", category=PurePythonEngineWarning)``."""


def _load_extension(path: str):
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.ExtensionFileLoader("rouge_full_metric._core", path)
    spec = importlib.util.spec_from_file_location("rouge_full_metric._core", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _core_elsewhere():
    """The ``_core`` of another ``rouge_full_metric`` on sys.path with this module's API, or None.

    Python started in a checkout's root (``python -c``, Jupyter, Spark's workers: sys.path starts
    with the current directory) imports the checkout's package, which has no core after a plain
    ``pip install .``; the installed copy in site-packages has one, built from the same C code
    whenever its API_VERSION matches.  evaluate's copy of the metric script (only the ``.py``
    files) finds the installed core the same way."""
    import importlib.machinery

    here = os.path.dirname(os.path.abspath(__file__))
    for entry in list(sys.path):
        folder = os.path.join(os.path.abspath(entry or os.curdir), "rouge_full_metric")
        if not os.path.isdir(folder) or os.path.normcase(os.path.realpath(folder)) == \
                os.path.normcase(os.path.realpath(here)):
            continue
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_core" + suffix)
            if not os.path.isfile(path):
                continue
            try:
                module = _load_extension(path)
            except ImportError:
                continue
            if getattr(module, "API_VERSION", None) == API_VERSION:
                return module
    return None


def _slow_engine_message(error: ImportError) -> str:
    if __package__ != "rouge_full_metric":
        return ("rouge_full_metric: this copy of the metric (evaluate.load and Hub Spaces copy only the .py files) "
                "has no compiled core and no installed rouge_full_metric provides one, so the pure-Python "
                "reference engine runs: identical numbers, ~480 µs per pair (about 30x slower). For speed install "
                "the package where this runs (a wheel, or `pip install .` in a checkout); to choose the reference "
                "engine and silence this, set %s=1." % ENV_FORCE_PYTHON)
    return ("rouge_full_metric: the compiled core is not available (%s), so the pure-Python reference engine "
            "runs: identical numbers, ~480 µs per pair (about 30x slower). If Python was started in a checkout's "
            "root, it imports the checkout's package, not the installed one: start it elsewhere, or build the "
            "core in the checkout (%s); to choose the reference engine and silence this, set %s=1."
            % (error, BUILD_HINT, ENV_FORCE_PYTHON))


core = None
IMPORT_ERROR = None
if not FORCED_PYTHON:
    try:
        from . import _core as core  # a small C module: importing it costs well under a millisecond
    except ImportError as error:  # not built here: an installed copy's core, else the pure-Python engine
        IMPORT_ERROR = _missing_core_error(error)
        if __package__ != "rouge_full_metric":
            try:   # evaluate's copy of the .py files: the installed package's core (an editable one too)
                from rouge_full_metric import _core as core
            except ImportError:
                core = None
        if core is None:
            core = _core_elsewhere()
    if core is not None and getattr(core, "API_VERSION", None) != API_VERSION:
        IMPORT_ERROR = ImportError("rouge_full_metric._core has API %r, this module needs %r"
                                   % (getattr(core, "API_VERSION", None), API_VERSION))
        core = _core_elsewhere()
    if core is None:
        import warnings

        warnings.warn(_slow_engine_message(IMPORT_ERROR), PurePythonEngineWarning, stacklevel=2)

AVAILABLE = core is not None


def unavailable_reason() -> str:
    """Why the compiled core does not run ("" when it does), e.g. for test skip reasons.

    >>> unavailable_reason() == "" if AVAILABLE else unavailable_reason() != ""
    True
    """
    if AVAILABLE:
        return ""
    if FORCED_PYTHON:
        return "the pure-Python engine is forced by %s" % ENV_FORCE_PYTHON
    return str(IMPORT_ERROR)


def backend() -> str:
    """``"compiled"`` when the C core scores, ``"python"`` otherwise.  ``core.__file__`` says
    which core: the package's own, or (Python started in a checkout without one, or evaluate's
    copy of the metric) the installed package's.

    >>> backend() in ("compiled", "python")
    True
    """
    return "compiled" if AVAILABLE else "python"


__all__ = ["AVAILABLE", "backend", "core", "ENV_FORCE_PYTHON", "FORCED_PYTHON", "PurePythonEngineWarning",
           "unavailable_reason"]
