"""Undefined (NaN) scores: the one rule every aggregate follows.

Only flavor ``matlab`` has undefined scores: MATLAB's ``rougeEvaluationScore`` returns NaN where a
reference has nothing to count (a reference shorter than n for ROUGE-N, every text empty).  Every
aggregate — ``score_corpus``, ``compare``, Spark's ``corpus_score`` (both methods), the CLI — leaves
such an example out of that statistic (MATLAB's ``mean(..., "omitnan")``) and says how many it left
out: an :class:`UndefinedScoreWarning`, and an ``omitted`` count where the result has one.  A
statistic with no defined value at all is NaN (``null`` in JSON).  Significance is never computed
on NaN: :mod:`.cli.compare` drops an example whose score is NaN in either system.

>>> import math
>>> omitted_counts([[0.5, math.nan, math.nan], [0.2, 0.4, 0.3]], ["rouge2"])
{'rouge2': (0, 1, 1)}
"""
from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, Sequence, Tuple

__all__ = ["UndefinedScoreWarning", "omitted_counts", "omitted_message", "warn_omitted", "json_safe"]


class UndefinedScoreWarning(UserWarning):
    """Some examples have an undefined (NaN) score and were left out of an aggregate."""


def omitted_counts(values, names: Sequence[str]) -> Dict[str, Tuple[int, int, int]]:
    """{rouge type: (precision, recall, F-measure) NaN counts} of value rows laid out type-major,
    then P/R/F (the rows ``score_corpus`` aggregates); only the types with a NaN.

    >>> omitted_counts([[1.0, 1.0, 1.0]], ["rouge1"])
    {}
    """
    out = {}
    for ti, name in enumerate(names):
        counts = tuple(sum(1 for row in values if math.isnan(row[3 * ti + k])) for k in range(3))
        if any(counts):
            out[name] = counts
    return out


def omitted_message(counts: Dict[str, Tuple[int, int, int]], total: int, where: str) -> str:
    """One sentence naming, per rouge type, how many of ``total`` examples ``where`` left out.

    >>> omitted_message({"rouge2": (0, 1, 1)}, 3, "the corpus averages")
    'undefined (NaN) scores left out of the corpus averages: rouge2: 1 of 3 examples (precision 0, recall 1, F 1); a MATLAB score is NaN where a reference has nothing to count (e.g. fewer words than n)'
    """
    parts = ["%s: %d of %d examples (precision %d, recall %d, F %d)" % (name, max(c), total, *c)
             for name, c in counts.items()]
    return ("undefined (NaN) scores left out of %s: %s; a MATLAB score is NaN where a reference has nothing "
            "to count (e.g. fewer words than n)" % (where, "; ".join(parts)))


def warn_omitted(counts, total: int, where: str, stacklevel: int = 3) -> None:
    """Issue an :class:`UndefinedScoreWarning` when ``counts`` is not empty."""
    if counts:
        import warnings

        warnings.warn(omitted_message(counts, total, where), UndefinedScoreWarning, stacklevel=stacklevel)


def json_safe(obj):
    """``obj`` with every NaN float replaced by ``None`` (JSON has no NaN: ``null``), recursively
    through dicts, lists and tuples.

    >>> json_safe({"a": [1.0, float("nan")], "b": (float("nan"),)})
    {'a': [1.0, None], 'b': [None]}
    """
    if isinstance(obj, float):
        return None if math.isnan(obj) else obj
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj
