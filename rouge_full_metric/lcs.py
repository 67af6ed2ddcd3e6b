"""ROUGE-L and ROUGE-W: LCS / weighted LCS with ROUGE-1.5.5.pl's back-trace (spec §7, §8).

Which LCS is chosen matters for the summary-level *union* LCS, so the back-trace is the Perl's
exactly: from the ends, match equal tokens; otherwise drop the model token unless that shortens
the LCS (ties go "up").  Hits are then counted on the union of the marked model positions, clipped
by unigram budgets of model and peer that persist across the model's sentences.
"""
from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, Iterator, List, Sequence, Set


def _lcs_rows(model: Sequence[str], peer: Sequence[str]) -> Iterator[List[int]]:
    """The rows of the LCS length table, model tokens as rows (row 0, all zeros, first)."""
    width = len(peer)
    prev = [0] * (width + 1)
    yield prev
    for token in model:
        cur = [0] * (width + 1)
        left = 0
        for j in range(width):
            if token == peer[j]:
                left = prev[j] + 1
            else:
                up = prev[j + 1]
                if up >= left:
                    left = up
            cur[j + 1] = left
        yield cur
        prev = cur


def lcs_table(model: Sequence[str], peer: Sequence[str]) -> List[List[int]]:
    """The LCS length table, model tokens as rows (row 0 and column 0 are zeros)."""
    return list(_lcs_rows(model, peer))


def lcs_length(model: Sequence[str], peer: Sequence[str]) -> int:
    """Length of the longest common subsequence (linear memory: only one row is kept).

    >>> lcs_length("abcbdab", "bdcaba")
    4
    """
    for row in _lcs_rows(model, peer):
        pass
    return row[-1]


def _backtrace(model: Sequence[str], peer: Sequence[str], rows) -> List[int]:
    """Model positions matched by the Perl's back-trace through a filled table (descending)."""
    i, j = len(model), len(peer)
    marks = []
    while i > 0 and j > 0:
        if model[i - 1] == peer[j - 1]:
            i -= 1
            j -= 1
            marks.append(i)
        elif rows[i - 1][j] >= rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return marks


def lcs_marks(model: Sequence[str], peer: Sequence[str]) -> List[int]:
    """Model positions on the LCS the Perl picks; repeated words match their last occurrences.

    >>> sorted(lcs_marks("abab", "ab"))
    [2, 3]
    >>> lcs_marks("ab", "ba")
    [0]
    """
    if not model or not peer:
        return []
    return _backtrace(model, peer, lcs_table(model, peer))


def wlcs_table(model: Sequence[str], peer: Sequence[str], f: List[float]) -> List[List[float]]:
    """The weighted-LCS table of the Perl (runs of consecutive matches weighted by ``f``).

    Like the Perl, a match always takes the diagonal, even where that is not optimal for WLCS
    (spec Q8), and the run length restarts at 0 off the diagonal.
    """
    width = len(peer)
    prev = [0.0] * (width + 1)
    prev_run = [0] * (width + 1)
    rows = [prev]
    for token in model:
        cur = [0.0] * (width + 1)
        run = [0] * (width + 1)
        for j in range(width):
            if token == peer[j]:
                k = prev_run[j]
                cur[j + 1] = prev[j] + f[k + 1] - f[k]
                run[j + 1] = k + 1
            else:
                up, left = prev[j + 1], cur[j]
                cur[j + 1] = up if up >= left else left
        rows.append(cur)
        prev, prev_run = cur, run
    return rows


def wlcs_marks(model: Sequence[str], peer: Sequence[str], f: List[float]) -> List[int]:
    """Model positions on the weighted LCS the Perl picks (same back-trace rule as LCS)."""
    if not model or not peer:
        return []
    return _backtrace(model, peer, wlcs_table(model, peer, f))


def wlcs_value(model: Sequence[str], peer: Sequence[str], f: List[float]) -> float:
    """WLCS(X, Y) of the papers: the final cell of the weighted table.

    >>> f = [k ** 2.0 for k in range(8)]
    >>> wlcs_value("ABCDEFG", "ABCDHIK", f), wlcs_value("ABCDEFG", "AHBKCID", f)
    (16.0, 4.0)
    """
    if not model or not peer:
        return 0.0
    # The papers' recurrence c = c_diag + f(k+1) - f(k) telescopes in exact arithmetic only: in
    # floats a text against itself sums to f(n) plus rounding (R = 1.0000000000000002).  Each cell
    # keeps instead its value before the current run (``base``) and reads base + f(k): the same
    # numbers in exact arithmetic, f(n) exactly for a full match.  (Flavor rouge155 keeps the
    # Perl's order in wlcs_table: its bits are the Perl's.)
    width = len(peer)
    prev_base, prev_run, prev = [0.0] * (width + 1), [0] * (width + 1), [0.0] * (width + 1)
    for token in model:
        base, run, cur = [0.0] * (width + 1), [0] * (width + 1), [0.0] * (width + 1)
        for j in range(width):
            if token == peer[j]:
                k = prev_run[j] + 1
                base[j + 1], run[j + 1] = prev_base[j], k
                cur[j + 1] = prev_base[j] + f[k]
            else:
                up, left = prev[j + 1], cur[j]
                cur[j + 1] = base[j + 1] = up if up >= left else left
        prev_base, prev_run, prev = base, run, cur
    return prev[-1]


def _union_marks(model_sentence: Sequence[str], peer_sentences: Sequence[Sequence[str]],
                 marker) -> Set[int]:
    marked: Set[int] = set()
    for peer_sentence in peer_sentences:
        marked.update(marker(model_sentence, peer_sentence))
    return marked


def union_lcs_hits(model_sentences: Sequence[Sequence[str]], peer_sentences: Sequence[Sequence[str]],
                   model_unigrams: Counter, peer_unigrams: Counter) -> int:
    """Summary-level union-LCS hits, clipped by unigram budgets as in ROUGE-1.5.5.pl.

    The budgets persist across model sentences, so earlier model sentences consume a peer word
    first and ROUGE-L hits never exceed ROUGE-1 hits (spec §7, X9).

    >>> union_lcs_hits([["a", "b"], ["a", "c"]], [["a", "b", "c"]], Counter("abac"), Counter("abc"))
    3
    """
    budget_model: Dict[str, int] = dict(model_unigrams)
    budget_peer: Dict[str, int] = dict(peer_unigrams)
    hits = 0
    for sentence in model_sentences:
        for k in sorted(_union_marks(sentence, peer_sentences, lcs_marks)):
            token = sentence[k]
            if budget_model.get(token, 0) > 0 and budget_peer.get(token, 0) > 0:
                hits += 1
                budget_model[token] -= 1
                budget_peer[token] -= 1
    return hits


def union_lcs_hits_unclipped(model_sentences: Sequence[Sequence[str]],
                             peer_sentences: Sequence[Sequence[str]]) -> int:
    """The papers' summary-level LCS: Σ over model sentences of |union of their LCS marks|.

    >>> union_lcs_hits_unclipped([["w1", "w2", "w3", "w4", "w5"]],
    ...                          [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]])
    4
    """
    return sum(len(_union_marks(s, peer_sentences, lcs_marks)) for s in model_sentences)


def union_wlcs_hits(model_sentences: Sequence[Sequence[str]], peer_sentences: Sequence[Sequence[str]],
                    model_unigrams: Counter, peer_unigrams: Counter, f: List[float]) -> float:
    """ROUGE-W hits of the Perl: f(run) summed over runs of the clipped union mask (spec §8).

    Runs are contiguous in the *model* only; a marked position that fails the budget neither
    extends nor ends a run, and a run still pending at the end of a sentence is lost (X12, X13).

    >>> f = [k ** 2.0 for k in range(5)]
    >>> union_wlcs_hits([["b"], ["a", "b", "c"]], [["a", "b", "c"]], Counter("babc"), Counter("abc"), f)
    5.0
    """
    budget_model: Dict[str, int] = dict(model_unigrams)
    budget_peer: Dict[str, int] = dict(peer_unigrams)
    hits = 0.0
    for sentence in model_sentences:
        marked = _union_marks(sentence, peer_sentences, lambda m, p: wlcs_marks(m, p, f))
        size = len(sentence)
        run = 0
        for k in sorted(marked):
            token = sentence[k]
            if budget_model.get(token, 0) > 0 and budget_peer.get(token, 0) > 0:
                run += 1
                budget_model[token] -= 1
                budget_peer[token] -= 1
                if k + 1 == size or (k + 1) not in marked:
                    hits += f[run]
                    run = 0
    return hits


def weight_table(weight: float, size: int) -> List[float]:
    """``f(k) = k ** weight`` for k = 0..size (C ``pow``, as the Perl's ``**``).

    >>> weight_table(2.0, 3)
    [0.0, 1.0, 4.0, 9.0]
    """
    return [k ** weight for k in range(size + 1)]


def sentence_weight_sum(sentences: Sequence[Sequence[str]], f: List[float]) -> float:
    """Σ_s f(len(s)) in sentence order (the Perl's ROUGE-W model normalizer before re-weighting)."""
    total = 0.0
    for sentence in sentences:
        total += f[len(sentence)]
    return total


__all__ = ["lcs_length", "lcs_marks", "wlcs_marks", "wlcs_value", "union_lcs_hits",
           "union_lcs_hits_unclipped", "union_wlcs_hits", "weight_table", "sentence_weight_sum"]
