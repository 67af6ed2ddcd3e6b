"""Per-row ROUGE columns, named as the evaluate metric names its keys: what the Spark and
datasets helpers (:mod:`.spark`, :mod:`.hf_datasets`) add to a table.

``<type>`` holds the F-measure, ``<type>_precision`` and ``<type>_recall`` the other two, exactly
as ``evaluate.load(...).compute(..., use_aggregator=False)`` returns them.  A row whose prediction
or reference is missing (None / SQL NULL) gets None in every column: a table with holes keeps its
holes instead of failing a long job or inventing a score.  Anything else the scorer rejects (an
empty list of references, a list holding None, a number) raises its error, naming the row.

>>> from rouge_full_metric import RougeScorer
>>> column_names(["rouge1"])
['rouge1', 'rouge1_precision', 'rouge1_recall']
>>> score_columns(RougeScorer(["rouge1"]), ["a b", None], ["a b c", ["x"]])
{'rouge1': [0.8, None], 'rouge1_precision': [1.0, None], 'rouge1_recall': [0.66667, None]}
"""
from typing import Dict, List, Optional, Sequence

from .batch import score_batch

# (suffix, Score field) in the order the columns are added.
_SUFFIXES = (("", "fmeasure"), ("_precision", "precision"), ("_recall", "recall"))


def column_names(rouge_types: Sequence[str]) -> List[str]:
    """The columns added for ``rouge_types`` (names as ``RougeScorer.rouge_types`` spells them)."""
    return [t + suffix for t in rouge_types for suffix, _ in _SUFFIXES]


def is_missing(value) -> bool:
    """None, or a float NaN (how pandas may hand over a missing string)."""
    return value is None or (isinstance(value, float) and value != value)


def as_references(value):
    """One row's references as the scorer takes them: a str, or a list (an array from Arrow or
    numpy becomes a list)."""
    if isinstance(value, (str, bytes, list)):
        return value
    if hasattr(value, "tolist"):   # numpy array (pandas' form of an Arrow list)
        return value.tolist()
    if isinstance(value, tuple):
        return list(value)
    return value


def score_columns(scorer, predictions: Sequence, references: Sequence, n_jobs: int = 1,
                  row_names=None) -> Dict[str, list]:
    """{column: values} for one batch, None where the prediction or reference is missing.

    ``row_names(i)`` (a callable, or a sequence) says where row i comes from in an error message
    (default: "row i").
    """
    predictions = list(predictions)
    references = [None if is_missing(r) else as_references(r) for r in references]
    present = [k for k, (p, r) in enumerate(zip(predictions, references))
               if not is_missing(p) and r is not None]
    complete = len(present) == len(predictions)
    preds = predictions if complete else [predictions[k] for k in present]
    refs = references if complete else [references[k] for k in present]
    try:
        scores = score_batch(scorer, preds, refs, n_jobs)
    except (TypeError, ValueError) as error:
        # Find the offending row and name it (the batch error gives its index among the scored
        # rows only).
        for k in present:
            try:
                scorer.score(predictions[k], references[k])
            except (TypeError, ValueError) as row_error:
                if row_names is None:
                    where = "row %d" % k
                else:
                    where = row_names(k) if callable(row_names) else row_names[k]
                raise type(row_error)("%s: %s" % (where, row_error)) from None
        raise error
    count = len(predictions)
    out: Dict[str, list] = {}
    for t in scorer.rouge_types:
        for suffix, field in _SUFFIXES:
            index = ("precision", "recall", "fmeasure").index(field)
            values = [s[t][index] for s in scores]
            if not complete:
                column: list = [None] * count
                for k, v in zip(present, values):
                    column[k] = v
                values = column
            out[t + suffix] = values
    return out


__all__ = ["column_names", "score_columns", "is_missing", "as_references"]
