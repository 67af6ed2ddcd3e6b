"""Flavor ``rouge155`` (the default): bit-exact with ROUGE-1.5.5.pl (``ROUGE-1.5.5.pl -d``).

Its rules: the Perl's readers and Porter-Lin stemmer (:mod:`.tokenization`, :mod:`.stemmer`),
``multi_ref="average"`` (``-f A``, pooled counts) and no jackknifing by default, R and P rounded to
5 decimals as the Perl prints them (``-f B`` compares rounded recalls), the corpus ``mid`` the
Perl's bootstrap mean (``Average_X``), rounded too.  With ``lang`` each line is tokenized by the
language's XL-Sum pipeline (:mod:`.lang_pipeline`) and read as the Perl reads words.  Engines: the
compiled core's ``"rouge155"`` rules, or the pure-Python reference (:mod:`.scorer`).

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rouge1"]).rules.multi_ref
'average'
"""
from __future__ import annotations

from . import batch
from .flavor_base import TOKENIZER_WITH_LANG, Flavor

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Tuple


class Rouge155(Flavor):
    """ROUGE-1.5.5.pl's rules (flavor ``paper`` shares its reading of texts and its engines)."""

    name = "rouge155"
    multi_ref = "average"
    jackknife = False
    core = "rouge155"
    rounded = True
    mid_from_bootstrap = True

    def check_reading(self, scorer) -> None:
        if scorer.language is None:
            if scorer.tokenizer is not None:
                raise ValueError("tokenizer is only used by flavor 'rouge_score'; flavors 'rouge155' and "
                                 "'paper' tokenize as ROUGE-1.5.5.pl does")
            return
        if scorer.tokenizer is not None:
            raise ValueError(TOKENIZER_WITH_LANG)
        if scorer.remove_stopwords:
            raise ValueError("remove_stopwords is the Perl's English SMART list and is not defined with "
                             "lang=%r; leave it False" % scorer.lang)
        if scorer.byte_limit:
            raise ValueError("byte_limit counts the Perl's raw bytes and is not defined with lang=%r; "
                             "use word_limit, which counts tokens" % scorer.lang)

    def readers(self, scorer) -> dict:
        out = super().readers(scorer)
        if scorer.language is not None:
            from .lang_pipeline import perl_tokenizer

            out["lang_tokenize"] = perl_tokenizer(scorer.language, scorer.use_stemmer)
        return out

    def compiled_engine(self, scorer, types):
        return batch._perl_engine(scorer, types) if scorer.language is None else batch._lang_engine(scorer, types)

    def corpus_stat(self, interval, mean: float) -> Tuple[float, float, float, float]:
        from .scoring import round5

        return (round5(interval.low), round5(interval.mean), round5(interval.high), mean)

FLAVOR = Rouge155()
