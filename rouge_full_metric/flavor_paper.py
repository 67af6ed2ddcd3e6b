"""Flavor ``paper``: the ROUGE papers' definitions (Lin 2004; Lin & Och 2004), on the Perl's reading.

Where the papers and ROUGE-1.5.5.pl differ the papers win: maximum over references (by recall for
ROUGE-N, by F for the F-measures) with jackknifing by default, ``multi_ref="max_rp"`` (Lin & Och
2004 eqs. 7-9), ROUGE-W on the whole texts and f⁻¹-normalized with a weight > 1, ROUGE-SU with
every unigram, ROUGE-Lsum's union LCS clipped by the candidate's word counts (so P <= 1), no
rounding, the plain mean as corpus ``mid``.  Texts are read as in flavor ``rouge155``
(:mod:`.flavor_rouge155`), on the same engines (the core's ``"paper"`` rules).

>>> from rouge_full_metric import RougeScorer
>>> RougeScorer(["rouge1"], flavor="paper").jackknife
True
"""
from .flavor_base import Flavor
from .flavor_rouge155 import Rouge155


class Paper(Rouge155):
    """The papers' rules; the reading of texts is the Perl's (:class:`.flavor_rouge155.Rouge155`)."""

    name = "paper"
    multi_ref = "max"
    jackknife = True
    core = "paper"
    rounded = False
    n_max_by_recall = True
    su_every_unigram = True
    lsum_clipped = True
    w_whole_text = True
    corpus_stat = Flavor.corpus_stat
    mid_from_bootstrap = False

    def check(self, scorer) -> None:
        # max_rp is this flavor's own (no call to Flavor.check, which refuses it)
        for t in scorer.types:
            if t.kind == "W" and not t.weight > 1:
                raise ValueError("rouge_types: %r needs a weight > 1 in flavor 'paper' (the papers require "
                                 "f(x+y) > f(x)+f(y) for f(k) = k^w), e.g. rougeW-1.2" % t.name)


FLAVOR = Paper()
