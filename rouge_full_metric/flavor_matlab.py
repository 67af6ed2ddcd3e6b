"""Flavor ``matlab``: MATLAB's ``rougeEvaluationScore`` as its documentation defines it.

Its rules, all in :mod:`.matlab` (tokenizer, per-sentence counting, NaN, the reported number):
the options MATLAB has no counterpart for are refused (:func:`.matlab.check_options`), each
example is scored by :func:`.matlab.example` (a list of words is one document), the maximum over
references omitting NaN, and corpus aggregates omit NaN per statistic (MATLAB's
``mean(..., "omitnan")``).  No ``lang`` and no compiled engine: pure Python.

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rouge1"], flavor="matlab").score("the cat", ["the dog", "a cat"])["rouge1"].recall
0.5
"""
from . import matlab
from .flavor_base import Flavor


class Matlab(Flavor):
    """rougeEvaluationScore's rules (:mod:`.matlab`)."""

    name = "matlab"
    omit_nan = True
    pairwise_reads_once = False
    pair_kernels = False

    def check(self, scorer) -> None:
        super().check(scorer)
        matlab.check_options(scorer.types, scorer.use_stemmer, scorer.remove_stopwords, scorer.word_limit,
                             scorer.byte_limit, scorer.multi_ref, scorer.jackknife, scorer.tokenizer)

    def check_text(self, text, argument: str) -> None:
        matlab.read_document(text, argument)

    def check_reading(self, scorer) -> None:
        if scorer.language is not None:
            raise ValueError("lang is not an option of flavor 'matlab' (it tokenizes as MATLAB's "
                             "tokenizedDocument, see rouge_full_metric.matlab); give it lists of words")

    def example(self, scorer, prediction, references, where: str = ""):
        """(statistics, scores) of one example, as ``python_engine.example`` returns them."""
        return matlab.example(scorer.types, scorer.alpha, prediction, references, where)


FLAVOR = Matlab()
