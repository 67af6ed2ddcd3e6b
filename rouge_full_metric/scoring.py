"""Per-reference sufficient statistics and how they become R, P, F (spec §5).

For one rouge type, one prediction and one reference the engine keeps a :class:`PairStats`
(hits, reference count, prediction count, and the score ROUGE-1.5.5.pl's ``-f B`` selects on).
Everything downstream — several references, jackknifing, corpus averages, the bootstrap — is
recomputed from these numbers without touching the text again.
"""
from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Sequence, Tuple


class Score(namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F-measure of one rouge type (floats; field order as in ``rouge_score``).

    >>> Score(precision=0.5, recall=1.0, fmeasure=0.66667).recall
    1.0
    """

    __slots__ = ()


class PairStats(namedtuple("PairStats", ["hits", "reference_count", "prediction_count", "selection"])):
    """Sufficient statistics of one (prediction, reference) pair for one rouge type (floats).

    ``hits`` is a weighted sum for ROUGE-W; ``reference_count``/``prediction_count`` are the
    recall/precision denominators (ROUGE-W: already weighted); ``selection`` is the per-reference
    score that ``multi_ref="best"`` (Perl ``-f B``) compares.
    """

    __slots__ = ()


def round5(x: float) -> float:
    """The Perl's ``sprintf("%7.5f")`` as a float (correctly rounded, exact binary ties to even).

    >>> round5(1 / 64), round5(2 / 7)
    (0.01562, 0.28571)
    """
    return float("%.5f" % x)


def sequential_sum(values) -> float:
    """Left-to-right float sum, as the Perl adds (Python >= 3.12's ``sum`` compensates).

    >>> sequential_sum([0.1, 0.2, 0.3])
    0.6000000000000001
    """
    total = 0.0
    for value in values:
        total += value
    return total


def fmeasure(precision: float, recall: float, alpha: float) -> float:
    """F = 1 / (alpha/P + (1-alpha)/R), written as the Perl computes it; 0 when undefined.

    >>> fmeasure(0.5, 1.0, 0.5)
    0.6666666666666666
    """
    denominator = (1 - alpha) * precision + alpha * recall
    return (precision * recall) / denominator if denominator > 0 else 0.0


def _reported_f(precision: float, recall: float, alpha: float, rounded: bool, rouge_score_f: bool) -> float:
    """F of an already computed (P, R), written as :func:`score_from_counts` writes it."""
    if rounded:
        return round5(fmeasure(precision, recall, alpha))
    if rouge_score_f:
        return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return fmeasure(precision, recall, alpha)


def score_from_counts(hits: float, reference_count: float, prediction_count: float, alpha: float,
                      weight: float = 0.0, rounded: bool = True, rouge_score_f: bool = False) -> Score:
    """R, P, F from pooled counts (spec §5.3); ROUGE-W passes its ``weight`` to undo f.

    With ``rounded`` (flavor ``rouge155``) R and P are rounded to 5 decimals first and F is
    computed from the rounded values, as the Perl does (quirk Q2).  ``rouge_score_f`` computes F
    as ``rouge_score`` writes it, 2PR/(P+R), whose last bit can differ from the Perl's form.

    >>> score_from_counts(1, 1, 6, 0.5)
    Score(precision=0.16667, recall=1.0, fmeasure=0.28572)
    """
    recall = hits / reference_count if reference_count != 0 else 0.0
    precision = hits / prediction_count if prediction_count != 0 else 0.0
    if weight:
        recall = recall ** (1 / weight)
        precision = precision ** (1 / weight)
    if rounded:
        recall, precision = round5(recall), round5(precision)
        return Score(precision, recall, round5(fmeasure(precision, recall, alpha)))
    if rouge_score_f:
        f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        return Score(precision, recall, f)
    return Score(precision, recall, fmeasure(precision, recall, alpha))


def combined_counts(stats: Sequence[PairStats], multi_ref: str) -> Tuple[float, float, float]:
    """(HIT, CNT, PCNT) after combining references the Perl's way (``-t 1``/``-t 2`` use these).

    ``"average"`` (Perl ``-f A``) pools over the references, adding the prediction's count once per
    reference; ``"best"`` (``-f B``) keeps the first reference with the strictly highest selection
    score.

    >>> a, b = PairStats(3, 6, 4, 0.5), PairStats(1, 2, 4, 0.5)
    >>> combined_counts([a, b], "average"), combined_counts([a, b], "best")
    ((4.0, 8.0, 8.0), (3, 6, 4))
    """
    if multi_ref == "average":
        return (sequential_sum(s.hits for s in stats), sequential_sum(s.reference_count for s in stats),
                sequential_sum(s.prediction_count for s in stats))
    if multi_ref == "best":
        best, chosen = -1.0, stats[0]
        for s in stats:
            if s.selection > best:
                best, chosen = s.selection, s
        return chosen.hits, chosen.reference_count, chosen.prediction_count
    raise ValueError("multi_ref must be 'average' or 'best' for pooled counts, got %r" % (multi_ref,))


def combine(stats: Sequence[PairStats], multi_ref: str, alpha: float, weight: float = 0.0,
            rounded: bool = True, rouge_score_f: bool = False, by_recall: bool = False) -> Score:
    """One Score from the per-reference statistics of a prediction.

    * ``"average"`` (Perl ``-f A``): pool hits and counts over the references; the prediction's
      count is added once per reference, so P = Σhits / (M · prediction count).
    * ``"best"`` (Perl ``-f B``): the first reference with the strictly highest selection score.
    * ``"max"`` (the papers, MATLAB): the reference whose own F is highest (the first on ties),
      with its P and R; with ``by_recall`` (flavor ``paper``'s ROUGE-N, Lin 2004 §2.1) the
      reference whose recall is highest, ties going to the higher F, then to the first.
    * ``"max_rp"`` (Lin & Och 2004 eqs. 7-9): the best recall and the best precision over the
      references, taken separately (possibly from different references), and F from those two.

    >>> a, b = PairStats(3, 6, 4, 0.5), PairStats(1, 2, 4, 0.5)
    >>> combine([a, b], "average", 0.5), combine([a, b], "best", 0.5)
    (Score(precision=0.5, recall=0.5, fmeasure=0.5), Score(precision=0.75, recall=0.5, fmeasure=0.6))
    >>> c, d = PairStats(2, 2, 4, 1.0), PairStats(4, 6, 4, 2 / 3)   # ROUGE-1 of "a b c d": "a b", "a b c d e f"
    >>> combine([c, d], "max", 0.5, rounded=False)
    Score(precision=1.0, recall=0.6666666666666666, fmeasure=0.8)
    >>> combine([c, d], "max", 0.5, rounded=False, by_recall=True)
    Score(precision=0.5, recall=1.0, fmeasure=0.6666666666666666)
    >>> combine([a, b], "max_rp", 0.5, rounded=False)
    Score(precision=0.75, recall=0.5, fmeasure=0.6)
    """
    if multi_ref == "max":
        best_score = None
        for s in stats:
            score = score_from_counts(s.hits, s.reference_count, s.prediction_count, alpha, weight, rounded,
                                      rouge_score_f)
            if best_score is None:
                best_score = score
            elif by_recall:
                if score.recall > best_score.recall or (score.recall == best_score.recall
                                                        and score.fmeasure > best_score.fmeasure):
                    best_score = score
            elif score.fmeasure > best_score.fmeasure:
                best_score = score
        return best_score
    if multi_ref == "max_rp":
        recall = precision = 0.0
        for s in stats:
            score = score_from_counts(s.hits, s.reference_count, s.prediction_count, alpha, weight, rounded,
                                      rouge_score_f)
            recall = max(recall, score.recall)
            precision = max(precision, score.precision)
        return Score(precision, recall, _reported_f(precision, recall, alpha, rounded, rouge_score_f))
    if multi_ref not in ("average", "best"):
        raise ValueError("multi_ref must be 'average', 'best', 'max' or 'max_rp', got %r" % (multi_ref,))
    return score_from_counts(*combined_counts(stats, multi_ref), alpha, weight, rounded, rouge_score_f)


def mean_score(scores: Sequence[Score]) -> Score:
    """Average P, R and F separately (how jackknifed and human-ceiling scores are combined).

    >>> mean_score([Score(1.0, 0.5, 0.6), Score(0.0, 0.5, 0.2)])
    Score(precision=0.5, recall=0.5, fmeasure=0.4)
    """
    count = len(scores)
    return Score(sequential_sum(s.precision for s in scores) / count,
                 sequential_sum(s.recall for s in scores) / count,
                 sequential_sum(s.fmeasure for s in scores) / count)


def jackknife(stats: Sequence[PairStats], multi_ref: str, alpha: float, weight: float = 0.0,
              rounded: bool = True, rouge_score_f: bool = False, by_recall: bool = False) -> Score:
    """Mean of the scores against each of the M leave-one-out reference sets (M >= 2).

    With one reference there is nothing to leave out and the plain score is returned.

    >>> s = [PairStats(1, 1, 1, 1.0), PairStats(0, 1, 1, 0.0), PairStats(1, 1, 1, 1.0)]
    >>> jackknife(s, "max", 0.5)
    Score(precision=1.0, recall=1.0, fmeasure=1.0)
    """
    if len(stats) < 2:
        return combine(stats, multi_ref, alpha, weight, rounded, rouge_score_f, by_recall)
    subsets: List[Score] = []
    for k in range(len(stats)):
        subsets.append(combine(list(stats[:k]) + list(stats[k + 1:]), multi_ref, alpha, weight, rounded,
                               rouge_score_f, by_recall))
    return mean_score(subsets)
