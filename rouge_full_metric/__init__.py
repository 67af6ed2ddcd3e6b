"""rouge_full_metric: every ROUGE variant, bit-exact with ROUGE-1.5.5.pl by default.

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rouge1"]).score("the cat sat", "the cat sat down")["rouge1"].recall
0.75
"""
from .rouge_types import parse_rouge_type
from .scorer import (AggregateScore, CorpusResult, RougeScorer, Stat, __version__)
from .scoring import PairStats, Score

__all__ = ["RougeScorer", "Score", "Stat", "AggregateScore", "CorpusResult", "PairStats",
           "parse_rouge_type", "__version__"]
