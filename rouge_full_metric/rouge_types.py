"""Names of the ROUGE variants (``rouge1``, ``rougeLsum``, ``rougeW-1.2``, ``rougeSU4``...).

One parsed :class:`RougeType` per requested name tells the scorer which statistic to compute.
"""
from __future__ import annotations

import functools
import math
import re
from typing import NamedTuple, Optional

DEFAULT_W_WEIGHT = 1.2
# ROUGE-W weights outside [MIN_W_WEIGHT, MAX_W_WEIGHT] overflow double precision on long texts:
# the recall normalizer (Σ len^w)^w stays finite for w <= 5 up to 2^31 tokens, and (hits / norm)^(1/w)
# (which exceeds 1 when w < 1) for w >= 0.1.
MIN_W_WEIGHT = 0.1
MAX_W_WEIGHT = 5.0
# rouge<N>: an n above this only matches texts of over a million tokens; both engines keep n in a
# C int.
MAX_N = 1_000_000
# A skip-bigram gap this large reaches over every text (token positions are 32-bit), so it means
# "any gap" (max_gap None), as does a gap of at least the text's length.
ANY_GAP_FROM = 2 ** 31 - 2

_N = re.compile(r"rouge([1-9][0-9]*)\Z")
_W = re.compile(r"rougeW(?:-(.+))?\Z")
_S = re.compile(r"rouge(SU|S)([0-9]+|\*)\Z")

FORMS = ("rouge<N> (N >= 1), rougeL, rougeLsum, rougeW, rougeW-<weight>, rougeS<d>, rougeSU<d>, "
         "rougeS*, rougeSU*")


class RougeType(NamedTuple):
    """A parsed rouge type.

    ``kind`` is one of ``"N"`` (n-grams), ``"L"`` (LCS of the whole texts), ``"Lsum"``
    (summary-level union LCS), ``"W"`` (weighted LCS), ``"S"`` (skip-bigrams, with unigrams when
    ``unigrams``); ``max_gap`` is ``None`` for unlimited skips (and for gaps of 2^31 - 2 or more,
    which reach over any text).
    """

    name: str
    kind: str
    n: int = 0
    weight: float = 0.0
    max_gap: Optional[int] = None
    unigrams: bool = False


def parse_rouge_type(name: str) -> RougeType:
    """Parse one rouge type name; raise ``ValueError`` naming the bad one.

    >>> parse_rouge_type("rougeSU4")
    RougeType(name='rougeSU4', kind='S', n=0, weight=0.0, max_gap=4, unigrams=True)
    >>> parse_rouge_type("rougeW").weight
    1.2
    >>> parse_rouge_type("rougeS4294967296").max_gap is None
    True
    """
    if not isinstance(name, str):
        raise TypeError("rouge_types: each type must be a str, got %r" % (name,))
    return _parse(name)


@functools.lru_cache(maxsize=512)   # a RougeType is immutable; building a scorer parses each name
def _parse(name: str) -> RougeType:
    if name == "rougeL":
        return RougeType(name, "L")
    if name == "rougeLsum":
        return RougeType(name, "Lsum")
    match = _N.match(name)
    if match:
        n = int(match.group(1))
        if n > MAX_N:
            raise ValueError("rouge_types: %r asks for n = %d; n must be at most %d" % (name, n, MAX_N))
        return RougeType(name, "N", n=n)
    match = _W.match(name)
    if match:
        weight = DEFAULT_W_WEIGHT
        if match.group(1) is not None:
            try:
                weight = float(match.group(1))
            except ValueError:
                weight = math.nan
            if not (weight > 0 and math.isfinite(weight)):
                raise ValueError("rouge_types: %r needs a positive weight after 'rougeW-', e.g. rougeW-1.2"
                                 % name)
            if not MIN_W_WEIGHT <= weight <= MAX_W_WEIGHT:
                raise ValueError("rouge_types: %r has weight %r; ROUGE-W weights must be between %g and %g "
                                 "(others overflow double precision)" % (name, weight, MIN_W_WEIGHT, MAX_W_WEIGHT))
        return RougeType(name, "W", weight=weight)
    match = _S.match(name)
    if match:
        gap = None if match.group(2) == "*" else int(match.group(2))
        if gap is not None and gap >= ANY_GAP_FROM:
            gap = None
        return RougeType(name, "S", max_gap=gap, unigrams=match.group(1) == "SU")
    raise ValueError("rouge_types: unknown rouge type %r; expected one of %s" % (name, FORMS))
