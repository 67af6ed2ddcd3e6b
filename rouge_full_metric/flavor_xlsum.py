"""Flavor ``xlsum``: XL-Sum's multilingual scorer (``multilingual-rouge`` 0.0.1) with ``lang``.

Its rules are rouge_score's (:mod:`.flavor_rouge_score`: types, options, F, maximum over
references) on XL-Sum's tokens: :mod:`.lang_pipeline` builds the language's pipeline (``lang=None``:
no segmenter, the Porter stemmer), and rougeLsum's sentences are tokenized without the segmenter,
as the anchor does (:mod:`.xlsum_tokenizer` for its quirks).  Engines: the core's ``"rouge_score"``
rules fed by its own XL-Sum tokenizer or by Python's tokens (:func:`.batch._xlsum_engine`), or the
pure-Python one; the pairwise kernels do not run it.

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rougeW"], flavor="xlsum")
Traceback (most recent call last):
...
ValueError: flavor 'xlsum' computes rouge<N>, rougeL and rougeLsum only; for rougeW use flavor 'rouge155' or 'paper'
"""
from . import batch
from .flavor_base import TOKENIZER_WITH_LANG, lang_signature
from .tokenization import make_token_filter
from .flavor_rouge_score import RougeScore


class Xlsum(RougeScore):
    """XL-Sum's scorer: rouge_score's rules on a language pipeline's tokens."""

    name = "xlsum"
    tool = "XL-Sum's scorer"
    pairwise_reads_once = False
    lost_text_tokenizer = None   # the pipelines keep every letter
    lost_text_rouge_score = False
    splits_summaries = False   # XL-Sum's scorer has no split_summaries

    def check_reading(self, scorer) -> None:
        if scorer.tokenizer is not None:
            raise ValueError(TOKENIZER_WITH_LANG)
        self.check_options(scorer)

    def readers(self, scorer) -> dict:
        from .lang_pipeline import make

        tokenize, sentence_tokenize = make(scorer.language, scorer.use_stemmer)
        return {"token_filter": make_token_filter(scorer.use_stemmer, scorer.remove_stopwords),
                "rs_tokenize": tokenize, "rs_sentence_tokenize": sentence_tokenize}

    def compiled_engine(self, scorer, types):
        return batch._xlsum_engine(scorer, types)

    def signature(self, scorer):
        return lang_signature(scorer, "porter")


FLAVOR = Xlsum()
