"""Which engine scores: the compiled core (``rouge_full_metric._core``) or the pure-Python one.

The compiled core is optional.  When it was not built (no C compiler, a Hub Space that copies
only ``.py`` files) the pure-Python engine runs and gives identical results.  Setting the
environment variable ``ROUGE_FULL_METRIC_PURE_PYTHON=1`` before the first import forces the
pure-Python engine, e.g. to run the conformance checker on it.

>>> from rouge_full_metric import compiled
>>> compiled.backend() in ("compiled", "python")
True
>>> compiled.AVAILABLE == (compiled.backend() == "compiled")
True
"""
import os

ENV_FORCE_PYTHON = "ROUGE_FULL_METRIC_PURE_PYTHON"
API_VERSION = 2   # the _core interface this module drives (2: Engine takes a native token filter)

FORCED_PYTHON = os.environ.get(ENV_FORCE_PYTHON, "").strip().lower() not in ("", "0", "false", "no")

BUILD_HINT = ("run `pip install -e .` (it builds the core in place) or `python setup.py build_ext --inplace` "
              "in the checkout")


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


core = None
IMPORT_ERROR = None
if not FORCED_PYTHON:
    try:
        from . import _core as core  # a small C module: importing it costs well under a millisecond
    except ImportError as error:  # not built: the pure-Python engine takes over
        IMPORT_ERROR = _missing_core_error(error)
        if __package__ != "rouge_full_metric":
            # This file is a copy (evaluate.load copies the .py modules only): use the core of an
            # installed rouge_full_metric when there is one.
            try:
                from rouge_full_metric import _core as core
            except ImportError:
                core = None
    if core is not None and getattr(core, "API_VERSION", None) != API_VERSION:
        IMPORT_ERROR = ImportError("rouge_full_metric._core has API %r, this module needs %r"
                                   % (getattr(core, "API_VERSION", None), API_VERSION))
        core = None

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
    """``"compiled"`` when the C core scores, ``"python"`` otherwise.

    >>> backend() in ("compiled", "python")
    True
    """
    return "compiled" if AVAILABLE else "python"


__all__ = ["AVAILABLE", "backend", "core", "ENV_FORCE_PYTHON", "FORCED_PYTHON", "unavailable_reason"]
