"""ROUGE-N and ROUGE-S/SU counting: clipped matches of n-grams and skip-bigrams (spec §6, §9).

Both work on the joined reader's token list of the whole summary, so n-grams and skip-bigrams
cross sentence boundaries, as in ROUGE-1.5.5.pl.
"""
from collections import Counter
from typing import Optional, Sequence


def ngram_counts(tokens: Sequence[str], n: int) -> Counter:
    """Counts of the n-grams (as tuples) of a token list.

    >>> sorted(ngram_counts(["a", "b", "a", "b"], 2).items())
    [(('a', 'b'), 2), (('b', 'a'), 1)]
    """
    if n == 1:
        return Counter(tokens)
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


def clipped_hits(model: Counter, peer: Counter) -> int:
    """Matches between two multisets, each key counted at most min(model, peer) times.

    >>> clipped_hits(Counter("aab"), Counter("abbb"))
    2
    """
    if len(peer) < len(model):
        model, peer = peer, model
    return sum(min(count, peer[key]) for key, count in model.items() if key in peer)
