"""rouge_types' parser of type names, hand-written so that scoring never imports re, against the
regular expressions it replaced (the forms the docs give), on generated names."""
import itertools
import math
import pickle
import random
import re

import pytest

from rouge_full_metric import rouge_types
from rouge_full_metric.rouge_types import RougeType, parse_rouge_type

# The parser up to 0.1.0's fifteenth round, kept here as the oracle
_N = re.compile(r"rouge([1-9][0-9]*)\Z")
_W = re.compile(r"rougeW(?:-(.+))?\Z")
_S = re.compile(r"rouge(SU|S)([0-9]+|\*)\Z")


def regex_parse(name):
    if name == "rougeL":
        return RougeType(name, "L")
    if name == "rougeLsum":
        return RougeType(name, "Lsum")
    match = _N.match(name)
    if match:
        n = int(match.group(1))
        if n > rouge_types.MAX_N:
            raise ValueError("n too large")
        return RougeType(name, "N", n=n)
    match = _W.match(name)
    if match:
        weight = rouge_types.DEFAULT_W_WEIGHT
        if match.group(1) is not None:
            try:
                weight = float(match.group(1))
            except ValueError:
                weight = math.nan
            if not (weight > 0 and math.isfinite(weight)):
                raise ValueError("bad weight")
            if not rouge_types.MIN_W_WEIGHT <= weight <= rouge_types.MAX_W_WEIGHT:
                raise ValueError("weight out of range")
        return RougeType(name, "W", weight=weight)
    match = _S.match(name)
    if match:
        gap = None if match.group(2) == "*" else int(match.group(2))
        if gap is not None and gap >= rouge_types.ANY_GAP_FROM:
            gap = None
        return RougeType(name, "S", max_gap=gap, unigrams=match.group(1) == "SU")
    raise ValueError("unknown")


def outcome(parse, name):
    try:
        return parse(name)
    except ValueError as e:
        return ("ValueError", "unknown" if "unknown rouge type" in str(e) or str(e) == "unknown" else "rejected")


# Pieces that sit near each form's edges: ASCII and other digits, '*', signs, exponents, spaces,
# a newline (which the old '.+' did not match), underscores (float() takes them)
PREFIXES = ["rouge", "rougeW", "rougeW-", "rougeS", "rougeSU", "rougeL", "rougeLsum", "Rouge", "rouge-", ""]
PIECES = ["0", "1", "2", "4", "9", "12", "1000000", "1000001", "2147483646", "4294967296", "*", "-", "+", ".",
          "e", "E", "5", "_", " ", "\n", "\r", "\t", "٣", "²", "١٢", "U", "S", "W", "L", "sum", "nan", "inf",
          "0.1", "1.2", "5.0", "5.000001", "0.0999", "x"]


def generated_names(count, seed):
    rng = random.Random(seed)
    names = [p + s for p in PREFIXES for s in [""] + PIECES]
    names += [p + a + b for p in PREFIXES for a, b in itertools.product(PIECES, repeat=2)]
    while len(names) < count:
        names.append(rng.choice(PREFIXES) + "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 4))))
    return names


def test_the_parser_equals_the_regular_expressions_on_generated_names():
    names = generated_names(20000, 7)
    accepted = rejected = 0
    for name in names:
        expected = outcome(regex_parse, name)
        assert outcome(parse_rouge_type, name) == expected, repr(name)
        assert outcome(rouge_types._parse, name) == expected, repr(name)   # the cache aside
        accepted += isinstance(expected, RougeType)
        rejected += expected == ("ValueError", "rejected")
    # every side of the forms' edges is exercised: accepted, out of range, unknown
    assert len(names) >= 20000 and accepted > 500 and rejected > 100 and len(names) - accepted - rejected > 10000


def test_each_form():
    assert parse_rouge_type("rouge12") == RougeType("rouge12", "N", n=12)
    assert parse_rouge_type("rougeW-2") == RougeType("rougeW-2", "W", weight=2.0)
    assert parse_rouge_type("rougeSU*") == RougeType("rougeSU*", "S", max_gap=None, unigrams=True)
    assert parse_rouge_type("rougeS0") == RougeType("rougeS0", "S", max_gap=0)
    for bad in ["rouge0", "rouge01", "rouge١", "rougeS", "rougeSU", "rougeW-", "rougeW-1\n", "rougeS4 ", "ROUGE1"]:
        with pytest.raises(ValueError, match="unknown rouge type"):
            parse_rouge_type(bad)
    with pytest.raises(ValueError, match="n must be at most 1000000"):
        parse_rouge_type("rouge1000001")
    with pytest.raises(ValueError, match="needs a positive weight"):
        parse_rouge_type("rougeW-x")
    with pytest.raises(ValueError, match="between 0.1 and 5"):
        parse_rouge_type("rougeW-6")
    with pytest.raises(TypeError, match="must be a str"):
        parse_rouge_type(1)


def test_a_rouge_type_is_a_named_tuple_that_pickles():
    t = parse_rouge_type("rougeSU4")
    assert t._fields == ("name", "kind", "n", "weight", "max_gap", "unigrams")
    assert t._asdict()["max_gap"] == 4 and t._replace(max_gap=2).max_gap == 2
    assert pickle.loads(pickle.dumps(t)) == t and type(pickle.loads(pickle.dumps(t))) is RougeType
    assert tuple(t) == ("rougeSU4", "S", 0, 0.0, 4, True)
    with pytest.raises(AttributeError):
        t.extra = 1   # __slots__ = (): no instance dict, as typing.NamedTuple had none


def test_the_cache_is_bounded():
    for k in range(rouge_types._PARSED_MAX + 100):
        parse_rouge_type("rouge%d" % (k + 1))
    assert len(rouge_types._PARSED) <= rouge_types._PARSED_MAX
    assert parse_rouge_type("rouge%d" % (rouge_types._PARSED_MAX + 50)).n == rouge_types._PARSED_MAX + 50
