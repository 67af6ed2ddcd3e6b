"""ROUGE-N and ROUGE-S/SU counting: clipped matches of n-grams and skip-bigrams (spec §6, §9).

Both work on the joined reader's token list of the whole summary, so n-grams and skip-bigrams
cross sentence boundaries, as in ROUGE-1.5.5.pl.
"""
from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Sequence


def ngram_counts(tokens: Sequence[str], n: int) -> Counter:
    """Counts of the n-grams (as tuples) of a token list.

    >>> sorted(ngram_counts(["a", "b", "a", "b"], 2).items())
    [(('a', 'b'), 2), (('b', 'a'), 1)]
    """
    if n == 1:
        return Counter(tokens)
    if n > len(tokens):   # none; and the n slices below would cost O(n) whatever the text
        return Counter()
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def skip_bigram_counts(tokens: Sequence[str], max_gap: Optional[int], with_unigrams: bool,
                       all_unigrams: bool = False) -> Counter:
    """Counts of the skip-bigrams (and, for SU, unigrams) of a token list.

    ``max_gap`` is the most words allowed *between* the two (0 = bigrams, ``None`` = unlimited).
    As in the Perl, SU adds the unigrams of every token but the last (spec Q10); the paper flavor
    passes ``all_unigrams=True`` to count every token.  Unigram keys are strings and pair keys
    tuples, so the two cannot collide.

    >>> c = skip_bigram_counts(["a", "b", "c"], None, with_unigrams=True)
    >>> sorted(c.items(), key=str)
    [('a', 1), ('b', 1), (('a', 'b'), 1), (('a', 'c'), 1), (('b', 'c'), 1)]
    >>> sum(skip_bigram_counts(list("abcdefg"), 4, with_unigrams=False).values())
    20
    """
    counts: Counter = Counter()
    size = len(tokens)
    span = size if max_gap is None else max_gap + 2  # j runs up to i + max_gap + 1
    for i in range(size - 1):
        first = tokens[i]
        if with_unigrams:
            counts[first] += 1
        for j in range(i + 1, min(size, i + span)):
            counts[(first, tokens[j])] += 1
    if with_unigrams and all_unigrams and size:
        counts[tokens[-1]] += 1
    return counts


def pair_total(size: int, max_gap: Optional[int]) -> int:
    """Number of skip-bigrams of ``size`` tokens with at most ``max_gap`` words between.

    >>> pair_total(7, 4), pair_total(7, None), pair_total(1, None)
    (20, 21, 0)
    """
    if size < 2:
        return 0
    k = size - 1 if max_gap is None else min(max_gap + 1, size - 1)   # longest distance
    return k * (k + 1) // 2 + (size - 1 - k) * k


def skip_bigram_stats(model: Sequence[str], peer: Sequence[str], max_gap: Optional[int],
                      with_unigrams: bool, all_unigrams: bool = False):
    """``(hits, model total, peer total)`` of :func:`skip_bigram_counts` of both texts, that is
    ``clipped_hits(model counts, peer counts)`` and the sums of the counts, without building the
    pair tables: pairs are counted one first token at a time, and only for first tokens both texts
    hold, so memory stays O(distinct tokens) however many pairs there are.

    >>> skip_bigram_stats(["a", "b", "c"], ["a", "c", "b"], None, with_unigrams=True)
    (3, 5, 5)
    >>> m, p = ["a", "b", "c"], ["a", "c", "b"]
    >>> clipped_hits(skip_bigram_counts(m, None, True), skip_bigram_counts(p, None, True))
    3
    """
    model_pos: Dict[str, List[int]] = {}
    peer_pos: Dict[str, List[int]] = {}
    for i, token in enumerate(model):
        model_pos.setdefault(token, []).append(i)
    for i, token in enumerate(peer):
        if token in model_pos:
            peer_pos.setdefault(token, []).append(i)
    hits = 0
    for first, positions in peer_pos.items():
        hits += clipped_hits(_followers(model, model_pos[first], max_gap),
                             _followers(peer, positions, max_gap))
    model_total, peer_total = pair_total(len(model), max_gap), pair_total(len(peer), max_gap)
    if with_unigrams:
        # every token but the last (spec Q10), or every token (paper flavor)
        model_uni = model if all_unigrams else model[:-1]
        peer_uni = peer if all_unigrams else peer[:-1]
        hits += clipped_hits(Counter(model_uni), Counter(peer_uni))
        model_total += len(model_uni)
        peer_total += len(peer_uni)
    return hits, model_total, peer_total


def _followers(tokens: Sequence[str], positions: List[int], max_gap: Optional[int]) -> Counter:
    """Counts of the second tokens of the skip-bigrams starting at ``positions``."""
    counts: Counter = Counter()
    size = len(tokens)
    for i in positions:
        counts.update(tokens[i + 1:size if max_gap is None else i + max_gap + 2])
    return counts


def clipped_hits(model: Counter, peer: Counter) -> int:
    """Matches between two multisets, each key counted at most min(model, peer) times.

    >>> clipped_hits(Counter("aab"), Counter("abbb"))
    2
    """
    if len(peer) < len(model):
        model, peer = peer, model
    return sum(min(count, peer[key]) for key, count in model.items() if key in peer)
