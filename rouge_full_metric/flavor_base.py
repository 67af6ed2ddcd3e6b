"""What a flavor is: the rules one scoring convention fixes, gathered in one object.

``RougeScorer(flavor=...)`` looks its name up in :mod:`.flavors` and keeps the object as
``scorer.rules``.  The engine (:mod:`.scorer`, :mod:`.batch`, :mod:`.pairwise`) never tests a
flavor's name: it reads the attributes below and calls the methods.  Each flavor is a subclass in
its own module -- :mod:`.flavor_rouge155`, :mod:`.flavor_paper`, :mod:`.flavor_rouge_score`,
:mod:`.flavor_matlab`, :mod:`.flavor_xlsum` -- and ``docs/adding-a-flavor.md`` lists what a new one
touches.  A flavor object holds no state: everything it builds (tokenizers, compiled engines)
belongs to the scorer that asked, which rebuilds it from its options after pickling.

>>> from rouge_full_metric.flavors import get
>>> rules = get("paper")
>>> rules.multi_ref, rules.jackknife, rules.rounded
('max', True, False)
"""
from __future__ import annotations

from .tokenization import make_token_filter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Tuple

# The multi_ref values every flavor knows; a flavor may refuse some of them in check().
MULTI_REF = ("average", "best", "max", "max_rp")

# Refused by every flavor when lang is given (or implied): the language pipeline is the tokenizer.
TOKENIZER_WITH_LANG = ("tokenizer cannot be combined with lang or flavor 'xlsum', which tokenize "
                       "as XL-Sum's scorer does; use flavor 'rouge_score' for a custom tokenizer")


class Flavor:
    """The base of every flavor: its attributes are the engine's choices where a flavor says
    nothing (no rounding, F = 1/(alpha/P + (1-alpha)/R), mean as ``mid``)."""

    name = ""
    # What RougeScorer(multi_ref=None, jackknife=None) take.
    multi_ref = "max"
    jackknife = False
    # The rule set of the compiled core's Engine (csrc/engine.c) that implements the flavor; None:
    # pure Python only (batch.compiled_scorer returns None).
    core: Optional[str] = None
    # R and P rounded to 5 decimals, F from the rounded values (ROUGE-1.5.5.pl -d).
    rounded = False
    # F = 2PR/(P+R) in rouge_score's operation order when alpha is 0.5.
    rouge_score_f = False
    # multi_ref='max' picks ROUGE-N's reference by recall (Lin 2004 §2.1), the others by F.
    n_max_by_recall = False
    # ROUGE-SU counts every unigram (the papers), not every one but the last (the Perl, spec Q10).
    su_every_unigram = False
    # ROUGE-Lsum's union LCS clipped by the candidate's word counts, normalized by its tokens.
    lsum_clipped = False
    # ROUGE-W on the whole texts, f⁻¹-normalized (the papers), not the Perl's sentence blocks.
    w_whole_text = False
    # Corpus aggregates omit NaN per statistic (MATLAB's mean(..., "omitnan")).
    omit_nan = False
    # score_matrix / filter_near_duplicates: texts read once by python_engine.prepare (False: each
    # pair through score()), and the compiled pair kernels may run on the token ids the flavor's
    # compiled engine reads (False: pure Python, e.g. matlab's per-sentence sums).
    pairwise_reads_once = True
    pair_kernels = True
    # LostTextWarning: the tokenizer named in the warning (None: never warn), and whether it is
    # rouge_score's rule (lost_text.first_lost).
    lost_text_tokenizer: Optional[str] = "ROUGE-1.5.5.pl's tokenizer"
    lost_text_rouge_score = False
    # RougeScorer(split_summaries=True) (rouge_score's nltk.sent_tokenize before rougeLsum) is
    # an option of the flavor; the others read rougeLsum's sentences from the lines.
    splits_summaries = False

    def __repr__(self):
        return "<flavor %s>" % self.name

    def __reduce__(self):
        # one object per flavor and process: a pickled reference is its name
        from .flavors import get
        return (get, (self.name,))

    # ------------------------------------------------------------------------- options
    def check(self, scorer) -> None:
        """Refuse the rouge types and options the flavor does not define (called once the
        general options are validated: ``scorer.types``, ``multi_ref``, ``jackknife`` ... are set)."""
        if scorer.multi_ref == "max_rp":
            raise ValueError("multi_ref='max_rp' (Lin & Och 2004 eqs. 7-9) is only defined in flavor 'paper', "
                             "got flavor %r" % (self.name,))

    def check_reading(self, scorer) -> None:
        """Refuse what the flavor's reading of texts cannot take (``tokenizer``, ``lang`` ...)."""
        if scorer.tokenizer is not None:
            raise ValueError("tokenizer is only used by flavor 'rouge_score'; flavor %r does not take one"
                             % (self.name,))

    def readers(self, scorer) -> dict:
        """What reads a scorer's texts, built from its options (never pickled): ``token_filter``
        (the Perl's stop words and stemmer), and the flavor's own tokenizers (``rs_tokenize``,
        ``rs_sentence_tokenize``, ``lang_tokenize``), None where the flavor has none."""
        return {"token_filter": make_token_filter(scorer.use_stemmer, scorer.remove_stopwords)}

    # ------------------------------------------------------------------------- scoring
    # (statistics, scores) of one example when the flavor scores it itself (not through the
    # python_engine's prepare/pair_stats), else None.
    example = None

    def compiled_engine(self, scorer, types):
        """The compiled form of ``scorer`` (see :func:`.batch.compiled_scorer`), or None: the
        pure-Python engine runs."""
        return None

    def check_text(self, text, argument: str) -> None:
        """Raise the flavor's own error, naming ``argument``, for a text it cannot read (used
        where texts are scored through ``score`` and would be named by the place it gives them)."""

    # whether corpus_stat's ``mid`` reads the bootstrap (then a plain average still needs one).
    mid_from_bootstrap = False

    def corpus_stat(self, interval, mean: float) -> Tuple[float, float, float, float]:
        """(low, mid, high, mean) of one corpus statistic from its bootstrap interval and its
        plain mean: ``mid`` is the plain mean."""
        return (interval.low, mean, interval.high, mean)

    # ------------------------------------------------------------------------- signature
    def signature(self, scorer) -> List[str]:
        """What the flavor adds to the signature after the common options (with ``lang``: the
        language and the versions of the packages behind its pipeline)."""
        if scorer.language is None:
            return []
        return lang_signature(scorer, None)


def lang_signature(scorer, default_stemmer: Optional[str]) -> List[str]:
    """``lang:<name>`` and ``pkgs:<versions>`` of a scorer's language pipeline."""
    from . import lang_pipeline

    packages = lang_pipeline.versions(scorer.language, scorer.use_stemmer, default_stemmer)
    return ["lang:" + (scorer.lang or "none")] + (["pkgs:" + packages] if packages else [])
