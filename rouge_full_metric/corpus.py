"""A system's corpus-level results: per-type averages and their bootstrap intervals.

:meth:`.RougeScorer.score_corpus`, :meth:`~.RougeScorer.mean_scores` and
:meth:`~.RougeScorer.corpus_means` call the functions here, as do the ``evaluate`` metric and
Spark's corpus score.  Per-example scores (:mod:`.batch`) become a float64 table, one row per
example and, for each rouge type in ``scorer.rouge_types`` order, its precision, recall and F;
each column gets its exact mean (``math.fsum``) and the Perl's seeded bootstrap interval
(:mod:`.bootstrap_compiled`, :mod:`.bootstrap`); the flavor turns the two into ``mid``
(``rules.corpus_stat``).  A scorer and its first pair never import this module: a process that
scores pairs does without its classes and the bootstrap's code.

>>> from rouge_full_metric import RougeScorer
>>> score_corpus(RougeScorer(["rouge1"]), ["a b", "c d"], ["a b", "e f"]).aggregate["rouge1"].fmeasure
Stat(low=0.0, mid=0.5, high=1.0, mean=0.5)
"""
from __future__ import annotations

import math
from collections import namedtuple

from .batch import (check_corpus_inputs, compiled_scorer, float_table, is_real, is_whole, score_examples, score_table,
                    value_floats, value_table)
from .bootstrap_compiled import key_order, numpy_free, ordered_bootstrap, perl_bootstrap
from .scoring import Score

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Sequence


class Stat(namedtuple("Stat", ["low", "mid", "high", "mean"])):
    """A corpus-level statistic: ``mid`` (what ROUGE-1.5.5.pl prints as ``Average_X`` in flavor
    ``rouge155``; the plain mean in flavor ``paper``), bootstrap ``low``/``high`` bounds, and
    ``mean``, the plain arithmetic mean of the per-example values (floats)."""

    __slots__ = ()


class AggregateScore(namedtuple("AggregateScore", ["precision", "recall", "fmeasure"])):
    """Corpus-level precision, recall and F-measure of one rouge type (each a :class:`Stat`)."""

    __slots__ = ()


class CorpusResult(namedtuple("CorpusResult", ["aggregate", "per_example", "statistics", "signature", "engine"],
                              defaults=("python",))):
    """What :meth:`.RougeScorer.score_corpus` returns.

    ``aggregate``: {rouge_type: AggregateScore}; ``per_example``: [{rouge_type: Score}] in input
    order; ``statistics``: [{rouge_type: [PairStats per reference]}], the sufficient statistics;
    ``signature``: every option that produced the numbers; ``engine``: which engine computed them,
    ``"compiled"`` (the C core) or ``"python"`` (the reference engine: same numbers, slower).
    """

    __slots__ = ()


def check_bootstrap_options(confidence, n_bootstrap) -> None:
    """Raise ValueError unless ``confidence`` is a percentage and ``n_bootstrap`` a count >= 1.

    >>> check_bootstrap_options(95, 0)
    Traceback (most recent call last):
    ValueError: n_bootstrap must be a whole number >= 1 (the Perl dies on -r 0), got 0
    """
    if not is_real(confidence) or not 0 <= confidence <= 100:
        raise ValueError("confidence must be a percentage in [0, 100], got %r" % (confidence,))
    if not is_whole(n_bootstrap) or n_bootstrap < 1:
        raise ValueError("n_bootstrap must be a whole number >= 1 (the Perl dies on -r 0), got %r"
                         % (n_bootstrap,))


def score_corpus(scorer, predictions: Sequence, references: Sequence, confidence: float = 95,
                 n_bootstrap: int = 1000, ids: Optional[Sequence] = None, system_id: str = "A",
                 n_jobs: int = 1) -> CorpusResult:
    """:meth:`.RougeScorer.score_corpus` (which documents it), called by it: a
    ``LostTextWarning`` names the code that called the method.

    >>> from rouge_full_metric import RougeScorer
    >>> score_corpus(RougeScorer(["rouge1"]), ["a b"], ["a c"], ids=["d1"]).per_example[0]["rouge1"].recall
    0.5
    """
    predictions, references = check_corpus_inputs(predictions, references)
    check_bootstrap_options(confidence, n_bootstrap)
    if ids is None:
        ids = [str(k + 1) for k in range(len(predictions))]
    else:
        ids = [str(i) for i in ids]
        if len(ids) != len(predictions):
            raise ValueError("ids has %d entries for %d predictions" % (len(ids), len(predictions)))
        if len(set(ids)) != len(ids):
            raise ValueError("ids must be unique")
    scorer._check_lost(predictions, references, stacklevel=5)
    per_example, statistics = score_examples(scorer, predictions, references, n_jobs)
    aggregate = examples_aggregate(scorer, per_example, ["%s.%s" % (i, system_id) for i in ids], confidence,
                                   int(n_bootstrap), n_jobs, stacklevel=6)
    engine = "python" if compiled_scorer(scorer) is None else "compiled"
    return CorpusResult(aggregate, per_example, statistics, scorer.signature(confidence, n_bootstrap), engine)


def examples_aggregate(scorer, per_example, keys, confidence, n_bootstrap, n_jobs=1,
                       stacklevel: int = 5) -> Dict[str, AggregateScore]:
    """{type: AggregateScore} of per-example scores (``score_batch``'s), the bootstrap drawing
    over ``keys`` ("<id>.<system>", one per example) in their byte order.  One bootstrap takes
    every type and P/R/F at once: the Perl reuses the same draws for all.  ``stacklevel``: what
    :func:`aggregate_values` takes (5 names this function's caller's caller).

    >>> from rouge_full_metric import RougeScorer
    >>> s = RougeScorer(["rouge1"])
    >>> examples_aggregate(s, s.score_batch(["a b"], ["a c"]), ["1.A"], 95, 1000)["rouge1"].recall
    Stat(low=0.5, mid=0.5, high=0.5, mean=0.5)
    """
    if numpy_free(n_bootstrap * 3 * len(scorer.rouge_types)):
        # the table in the keys' byte order, as the bootstrap reads it; the means are exact
        # (fsum), so in any order
        if not per_example:
            return aggregate_scores(scorer, None, None, 0)
        count, width = len(per_example), 3 * len(scorer.rouge_types)
        table = float_table(value_floats(scorer, [per_example[i] for i in key_order(keys)]))
        if not (scorer.rules.omit_nan and math.isnan(sum(table))):   # else the NaN-omitting way below
            intervals = ordered_bootstrap(table, count, width, n_bootstrap, confidence, exact=scorer._rounded,
                                          n_jobs=n_jobs)
            if intervals is not None:
                return aggregate_scores(scorer, intervals, column_means(scorer, table), count)
    return aggregate_values(scorer, value_table(scorer, per_example), keys, confidence, n_bootstrap, n_jobs,
                            stacklevel=stacklevel)


def batch_table(scorer, predictions, references, stacklevel: int = 4, n_jobs: int = 1, flat: bool = False):
    """``value_table(scorer, score_batch(predictions, references, n_jobs))``, the same floats,
    for the evaluate metric and :func:`mean_scores`: the core writes them into the array
    (:func:`.batch.score_table`; ``flat``: an ``array("d")`` of the rows one after the other)
    without a Python result per example.  A ``LostTextWarning`` names this function's caller
    (``stacklevel`` 4), or the code one frame further out for each more.

    >>> from rouge_full_metric import RougeScorer
    >>> batch_table(RougeScorer(["rouge1"]), ["a b", "c d"], ["a b", "c e"], flat=True).tolist()
    [1.0, 1.0, 1.0, 0.5, 0.5, 0.5]
    """
    predictions, references = check_corpus_inputs(predictions, references)
    scorer._check_lost(predictions, references, stacklevel=stacklevel)
    return score_table(scorer, predictions, references, n_jobs, flat)


def table_aggregate(scorer, values, confidence, n_bootstrap, n_jobs: int = 1) -> Dict[str, AggregateScore]:
    """``score_corpus(scorer, predictions, references, n_jobs=n_jobs).aggregate`` (ids 1..N,
    system "A"), the same floats, from ``values = batch_table(scorer, predictions, references)``:
    without the per-example results and per-reference statistics (the metric's).

    >>> from rouge_full_metric import RougeScorer
    >>> s = RougeScorer(["rouge1"])
    >>> table_aggregate(s, batch_table(s, ["a b", "c d"], ["a b", "e f"]), 95, 1000)["rouge1"].recall
    Stat(low=0.0, mid=0.5, high=1.0, mean=0.5)
    """
    keys = ["%d.A" % (k + 1) for k in range(len(values))]
    return aggregate_values(scorer, values, keys, confidence, n_bootstrap, n_jobs)


def aggregate_values(scorer, values, keys, confidence, n_bootstrap, n_jobs=1,
                     stacklevel: int = 5) -> Dict[str, AggregateScore]:
    """The aggregate of a float64 (N, 3 * types) value table (type-major, then P/R/F); also
    Spark's "perl" corpus score.  ``n_jobs`` threads share a large bootstrap's replicates.  Where
    the flavor omits NaN and some value is NaN, a warning counts the omitted values; it names this
    function's caller's caller's caller (``stacklevel`` 5), or the code one frame further out for
    each more.

    >>> import numpy as np
    >>> from rouge_full_metric import RougeScorer
    >>> aggregate_values(RougeScorer(["rouge1"]), np.ones((2, 3)), ["1.A", "2.A"], 95, 1000)["rouge1"].fmeasure
    Stat(low=1.0, mid=1.0, high=1.0, mean=1.0)
    """
    count = len(values)
    rows = _omitted_rows(scorer, values, stacklevel)
    if rows is not None:
        return _aggregate_omitting_nan(scorer, rows, keys, confidence, n_bootstrap, n_jobs)
    if not count:
        return aggregate_scores(scorer, None, None, 0)
    # Only flavor rouge155 reports a bootstrap figure (mid) that must be the Perl's to the last
    # bit; the others use the same draws summed in row order, several times faster.
    intervals = perl_bootstrap(values, keys, n_bootstrap, confidence, exact=scorer._rounded, n_jobs=n_jobs)
    return aggregate_scores(scorer, intervals, column_means(scorer, values), count)


def column_means(scorer, values) -> List[float]:
    """Each column's exact mean (math.fsum), NaN entries left out where the flavor omits NaN
    (matlab; NaN when the whole column is).  ``values``: a float64 (N, 3 * types) numpy array,
    or its rows one after the other in an ``array("d")`` (the numpy-free way).

    >>> from array import array
    >>> from rouge_full_metric import RougeScorer
    >>> column_means(RougeScorer(["rouge1"]), array("d", [1.0, 0.5, 0.0, 0.0, 0.5, 1.0]))
    [0.5, 0.5, 0.5]
    """
    # one column at a time (generators): a copy of each column, not of the table
    if not hasattr(values, "shape"):   # an array("d")
        width = 3 * len(scorer.rouge_types)
        columns = (values[k::width] for k in range(width))
        if scorer.rules.omit_nan:
            columns = ([x for x in column if x == x] for column in columns)
    else:
        import numpy as np

        columns = (np.ascontiguousarray(values[:, k], dtype=np.float64) for k in range(values.shape[1]))
        if scorer.rules.omit_nan:
            columns = (column[~np.isnan(column)] for column in columns)
        # fsum over a memoryview takes one float at a time instead of a list of the whole
        # table (100,000 x 12: 26 against 77 ms; the same floats, so the same sums)
        columns = (memoryview(column) for column in columns)
    return [math.fsum(column) / len(column) if len(column) else math.nan for column in columns]


def _omitted_rows(scorer, values, stacklevel: int):
    """None, or where the flavor omits NaN and the table ``values`` (column_means's: numpy's, or
    an ``array("d")``) holds one, its rows as lists, after an UndefinedScoreWarning that counts
    each type's P, R and F the averages leave out.  ``stacklevel`` counts as for
    :func:`.undefined.warn_omitted` called in this function's place: 2 names its caller."""
    if not scorer.rules.omit_nan or not len(values):
        return None
    numpy_table = hasattr(values, "shape")
    if not math.isnan(values.sum() if numpy_table else sum(values)):
        return None
    from . import undefined

    width = 3 * len(scorer.rouge_types)
    rows = values.tolist() if numpy_table else [values[k:k + width] for k in range(0, len(values), width)]
    undefined.warn_omitted(undefined.omitted_counts(rows, scorer.rouge_types), len(rows), "the corpus averages",
                           stacklevel=stacklevel + 1)
    return rows


def corpus_means(scorer, per_example) -> Dict[str, Score]:
    """:meth:`.RougeScorer.corpus_means`, which documents it.

    >>> from rouge_full_metric import RougeScorer
    >>> s = RougeScorer(["rouge1"])
    >>> corpus_means(s, s.score_batch(["a b", "c d"], ["a b", "e f"]))["rouge1"]
    Score(precision=0.5, recall=0.5, fmeasure=0.5)
    """
    if not per_example:
        return {t: Score(0.0, 0.0, 0.0) for t in scorer.rouge_types}
    table = float_table(value_floats(scorer, per_example)) if numpy_free() else value_table(scorer, per_example)
    _omitted_rows(scorer, table, 4)   # the warning names the code that called RougeScorer.corpus_means
    means = column_means(scorer, table)
    return {t: Score(*means[3 * ti:3 * ti + 3]) for ti, t in enumerate(scorer.rouge_types)}


def mean_scores(scorer, predictions: Sequence, references: Sequence, n_jobs: int = 1) -> Dict[str, Score]:
    """:meth:`.RougeScorer.mean_scores` (which documents it), called by it: a
    ``LostTextWarning`` names the code that called the method.

    >>> from rouge_full_metric import RougeScorer
    >>> mean_scores(RougeScorer(["rouge1"]), ["a b", "c d"], ["a b", "e f"])["rouge1"]
    Score(precision=0.5, recall=0.5, fmeasure=0.5)
    """
    table = batch_table(scorer, predictions, references, stacklevel=6, n_jobs=n_jobs, flat=numpy_free())
    if not len(table):
        return corpus_means(scorer, [])
    _omitted_rows(scorer, table, 4)   # the warning names the code that called RougeScorer.mean_scores
    means = column_means(scorer, table)
    return {t: Score(*means[3 * ti:3 * ti + 3]) for ti, t in enumerate(scorer.rouge_types)}


def aggregate_scores(scorer, intervals, means, count) -> Dict[str, AggregateScore]:
    """{type: AggregateScore} from one bootstrap Interval and one mean per column (type-major,
    then P/R/F); zeros without examples; ``mid`` as the flavor takes it (``rules.corpus_stat``).
    Also the Spark corpus score's last step (spark.py).

    >>> from rouge_full_metric import RougeScorer
    >>> aggregate_scores(RougeScorer(["rouge1"]), None, None, 0)["rouge1"].recall
    Stat(low=0.0, mid=0.0, high=0.0, mean=0.0)
    """
    out = {}
    for ti, name in enumerate(scorer.rouge_types):
        stats = []
        for k in range(3):
            if not count:
                stats.append(Stat(0.0, 0.0, 0.0, 0.0))
                continue
            stats.append(Stat(*scorer.rules.corpus_stat(intervals[3 * ti + k], means[3 * ti + k])))
        out[name] = AggregateScore(*stats)
    return out


def _aggregate_omitting_nan(scorer, values, keys, confidence, n_bootstrap, n_jobs=1) -> Dict[str, AggregateScore]:
    """Flavors with ``omit_nan`` (matlab): each statistic over the examples where it is defined
    (MATLAB's ``mean(..., "omitnan")``), its bootstrap over those examples (``n_jobs`` threads
    sharing a large one's replicates); NaN when none is."""
    out = {}
    for ti, name in enumerate(scorer.rouge_types):
        stats = []
        for k in range(3):
            rows = [(row[3 * ti + k], key) for row, key in zip(values, keys) if not math.isnan(row[3 * ti + k])]
            if not rows:
                stats.append(Stat(math.nan, math.nan, math.nan, math.nan))
                continue
            mean = math.fsum(v for v, _ in rows) / len(rows)
            iv = perl_bootstrap([[v] for v, _ in rows], [key for _, key in rows], n_bootstrap, confidence,
                                exact=False, n_jobs=n_jobs)[0]
            stats.append(Stat(iv.low, mean, iv.high, mean))
        out[name] = AggregateScore(*stats)
    return out


__all__ = ["Stat", "AggregateScore", "CorpusResult", "check_bootstrap_options", "score_corpus", "examples_aggregate",
           "batch_table", "table_aggregate", "aggregate_values", "column_means", "corpus_means", "mean_scores",
           "aggregate_scores"]
