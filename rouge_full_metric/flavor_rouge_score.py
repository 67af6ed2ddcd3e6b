"""Flavor ``rouge_score``: Google's rouge_score 0.1.2, as ``evaluate.load("rouge")`` runs it.

Its rules: rouge<N>, rougeL and rougeLsum only, no length limits or stop words, rouge_score's
tokenizer and NLTK stemmer (or the user's ``tokenizer``; :mod:`.rouge_score_flavor` holds the
tokenizer, the sentence split and the F formula), the maximum over references by F, F = 2PR/(P+R)
in rouge_score's operation order, no rounding, the plain mean as corpus ``mid``, no ``lang``
(flavor ``xlsum`` is XL-Sum's multilingual rouge_score).  Engines: the compiled core's
``"rouge_score"`` rules (rouge_score's tokenizer as its token filter), or the pure-Python one.

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rougeW"], flavor="rouge_score")
Traceback (most recent call last):
...
ValueError: flavor 'rouge_score' computes rouge<N>, rougeL and rougeLsum only; for rougeW use flavor 'rouge155' or 'paper'
"""
from . import batch, rouge_score_flavor
from .flavor_base import TOKENIZER_WITH_LANG, Flavor

# Types rouge_score can compute (it only knows rouge1..rouge9; any N is accepted here).
KINDS = ("N", "L", "Lsum")


class RougeScore(Flavor):
    """rouge_score's rules (flavor ``xlsum`` shares its types, options and F formula)."""

    name = "rouge_score"
    core = "rouge_score"
    rouge_score_f = True
    lost_text_tokenizer = "rouge_score's tokenizer"
    lost_text_rouge_score = True
    # how the error messages name the tool whose options these are
    tool = "rouge_score"
    splits_summaries = True

    def check_text(self, text, argument: str) -> None:
        rouge_score_flavor.as_text(text, argument)

    def check_reading(self, scorer) -> None:
        if scorer.language is not None:
            if scorer.tokenizer is not None:
                raise ValueError(TOKENIZER_WITH_LANG)
            raise ValueError("lang is not an option of flavor 'rouge_score' (Google's rouge_score has "
                             "none); use flavor='xlsum' for XL-Sum's multilingual rouge_score")
        self.check_options(scorer)

    def check_options(self, scorer) -> None:
        """Reject what rouge_score cannot compute rather than silently mixing definitions."""
        unsupported = [t.name for t in scorer.types if t.kind not in KINDS]
        if unsupported:
            raise ValueError("flavor %r computes rouge<N>, rougeL and rougeLsum only; "
                             "for %s use flavor 'rouge155' or 'paper'" % (self.name, ", ".join(unsupported)))
        if scorer.word_limit or scorer.byte_limit or scorer.remove_stopwords:
            raise ValueError("word_limit, byte_limit and remove_stopwords are ROUGE-1.5.5 options that "
                             "%s does not have; use flavor 'rouge155' for them" % self.tool)

    def readers(self, scorer) -> dict:
        out = super().readers(scorer)
        out["rs_tokenize"] = rouge_score_flavor.make_tokenizer(scorer.use_stemmer, scorer.tokenizer)
        if scorer.split_summaries and any(t.kind == "Lsum" for t in scorer.types):
            out["rs_split"] = rouge_score_flavor.make_sentence_splitter()
        return out

    def compiled_engine(self, scorer, types):
        return batch._tokenizer_engine(scorer, types)


FLAVOR = RougeScore()
