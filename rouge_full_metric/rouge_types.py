"""Names of the ROUGE variants (``rouge1``, ``rougeLsum``, ``rougeW-1.2``, ``rougeSU4``...).

One parsed :class:`RougeType` per requested name tells the scorer which statistic to compute.
"""
from __future__ import annotations

from collections import namedtuple

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

# Names parsed so far (a RougeType is immutable; building a scorer parses each of its names).
_PARSED: dict = {}
_PARSED_MAX = 512

FORMS = ("rouge<N> (N >= 1), rougeL, rougeLsum, rougeW, rougeW-<weight>, rougeS<d>, rougeSU<d>, "
         "rougeS*, rougeSU*")


class RougeType(namedtuple("RougeType", ["name", "kind", "n", "weight", "max_gap", "unigrams"],
                           defaults=(0, 0.0, None, False))):
    """A parsed rouge type.

    ``kind`` is one of ``"N"`` (n-grams), ``"L"`` (LCS of the whole texts), ``"Lsum"``
    (summary-level union LCS), ``"W"`` (weighted LCS), ``"S"`` (skip-bigrams, with unigrams when
    ``unigrams``); ``n`` is N of ROUGE-N, ``weight`` ROUGE-W's; ``max_gap`` is ``None`` for
    unlimited skips (and for gaps of 2^31 - 2 or more, which reach over any text).
    """

    # collections.namedtuple, not typing.NamedTuple: typing (with re, enum and functools) was over
    # half of what importing the package cost a new process (tests/test_startup.py).
    __slots__ = ()


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
    parsed = _PARSED.get(name)
    if parsed is None:
        parsed = _parse(name)
        if len(_PARSED) < _PARSED_MAX:   # a caller looping over generated names does not grow it
            _PARSED[name] = parsed
    return parsed


def _ascii_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _parse(name: str) -> RougeType:
    # Hand-written rather than regular expressions, so that scoring never imports re: the forms are
    # rouge([1-9][0-9]*), rougeW(-.+)? (no newline in the weight), rouge(SU|S)([0-9]+|\*), ASCII digits.
    if name == "rougeL":
        return RougeType(name, "L")
    if name == "rougeLsum":
        return RougeType(name, "Lsum")
    rest = name[5:] if name.startswith("rouge") else ""
    if _ascii_digits(rest) and rest[0] != "0":
        n = int(rest)
        if n > MAX_N:
            raise ValueError("rouge_types: %r asks for n = %d; n must be at most %d" % (name, n, MAX_N))
        return RougeType(name, "N", n=n)
    if rest == "W" or (rest.startswith("W-") and len(rest) > 2 and "\n" not in rest):
        weight = DEFAULT_W_WEIGHT
        if rest != "W":
            try:
                weight = float(rest[2:])
            except ValueError:
                weight = 0.0
            # NaN fails "> 0"; without math.isfinite, whose module a new process loads in 0.3 ms
            if not (weight > 0 and weight != float("inf")):
                raise ValueError("rouge_types: %r needs a positive weight after 'rougeW-', e.g. rougeW-1.2"
                                 % name)
            if not MIN_W_WEIGHT <= weight <= MAX_W_WEIGHT:
                raise ValueError("rouge_types: %r has weight %r; ROUGE-W weights must be between %g and %g "
                                 "(others overflow double precision)" % (name, weight, MIN_W_WEIGHT, MAX_W_WEIGHT))
        return RougeType(name, "W", weight=weight)
    unigrams = rest.startswith("SU")
    gap = rest[2:] if unigrams else rest[1:] if rest.startswith("S") else ""
    if gap == "*" or _ascii_digits(gap):
        max_gap = None if gap == "*" else int(gap)
        if max_gap is not None and max_gap >= ANY_GAP_FROM:
            max_gap = None
        return RougeType(name, "S", max_gap=max_gap, unigrams=unigrams)
    raise ValueError("rouge_types: unknown rouge type %r; expected one of %s" % (name, FORMS))
