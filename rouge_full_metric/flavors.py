"""The registry of flavors: a flavor's name -> its rules object (one module per flavor).

``RougeScorer(flavor=name)`` keeps ``get(name)`` as ``scorer.rules``; the engine reads only that
object (see :mod:`.flavor_base` for what a flavor defines, ``docs/adding-a-flavor.md`` to add one).

>>> NAMES
('rouge155', 'paper', 'rouge_score', 'matlab', 'xlsum')
>>> get("rouge_score").core
'rouge_score'
"""
from .flavor_base import Flavor

# name -> the module that defines it (its FLAVOR), imported on first use: a process that scores
# with one flavor does not import the others (flavor matlab's module, for one, and xlsum's
# tokenizer tables), which is most of what a short script would otherwise pay for the import
_MODULES = {"rouge155": "flavor_rouge155", "paper": "flavor_paper", "rouge_score": "flavor_rouge_score",
            "matlab": "flavor_matlab", "xlsum": "flavor_xlsum"}
_REGISTRY = {}

NAMES = tuple(_MODULES)


def get(name) -> Flavor:
    """The rules of flavor ``name``; ValueError naming the flavors otherwise.

    >>> get("matlab").omit_nan
    True
    """
    if not isinstance(name, str) or name not in _MODULES:
        raise ValueError("flavor must be one of %s, got %r" % (", ".join(NAMES), name))
    flavor = _REGISTRY.get(name)
    if flavor is None:
        # "from .<module> import FLAVOR" (importlib.import_module would import importlib, and
        # with it warnings, into a process that otherwise needs neither)
        flavor = _REGISTRY[name] = __import__(_MODULES[name], globals(), None, ["FLAVOR"], 1).FLAVOR
    return flavor
