"""rouge_full_metric: every ROUGE variant, bit-exact with ROUGE-1.5.5.pl by default.

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rouge1"]).score("the cat sat", "the cat sat down")["rouge1"].recall
0.75

The ``evaluate`` metric lives in :mod:`rouge_full_metric.rouge_full_metric`;
``evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR)`` loads it from the installed package.
"""
import os

from .rouge_types import parse_rouge_type
from .scorer import RougeScorer, __version__
from .scoring import PairStats, Score

# The directory evaluate.load() takes: it holds the metric script rouge_full_metric.py.
EVALUATE_MODULE_DIR = os.path.dirname(os.path.abspath(__file__))

__all__ = ["RougeScorer", "Score", "Stat", "AggregateScore", "CorpusResult", "PairStats",
           "parse_rouge_type", "EVALUATE_MODULE_DIR", "RougeFullMetric", "rouge_evaluation_score", "__version__"]


def __getattr__(name):
    # The metric class needs evaluate and datasets, MATLAB's function its own module, the
    # corpus-level classes the corpus module; each is imported when it is asked for, so that a
    # process that only scores pays for none of them.
    if name in ("Stat", "AggregateScore", "CorpusResult"):
        from . import corpus

        return getattr(corpus, name)
    if name == "RougeFullMetric":
        from .rouge_full_metric import RougeFullMetric
        return RougeFullMetric
    if name == "rouge_evaluation_score":
        from .matlab import rouge_evaluation_score
        return rouge_evaluation_score
    raise AttributeError("module 'rouge_full_metric' has no attribute %r" % name)
