"""The registry of flavors: a flavor's name -> its rules object (one module per flavor).

``RougeScorer(flavor=name)`` keeps ``get(name)`` as ``scorer.rules``; the engine reads only that
object (see :mod:`.flavor_base` for what a flavor defines, ``docs/adding-a-flavor.md`` to add one).

>>> NAMES
('rouge155', 'paper', 'rouge_score', 'matlab', 'xlsum')
>>> get("rouge_score").core
'rouge_score'
"""
from . import flavor_matlab, flavor_paper, flavor_rouge155, flavor_rouge_score, flavor_xlsum
from .flavor_base import Flavor

_REGISTRY = {f.name: f for f in (flavor_rouge155.FLAVOR, flavor_paper.FLAVOR, flavor_rouge_score.FLAVOR,
                                 flavor_matlab.FLAVOR, flavor_xlsum.FLAVOR)}

NAMES = tuple(_REGISTRY)


def get(name) -> Flavor:
    """The rules of flavor ``name``; ValueError naming the flavors otherwise.

    >>> get("matlab").omit_nan
    True
    """
    flavor = _REGISTRY.get(name) if isinstance(name, str) else None
    if flavor is None:
        raise ValueError("flavor must be one of %s, got %r" % (", ".join(NAMES), name))
    return flavor
