"""ROUGE-1.5.5.pl's system-level averages: a seeded bootstrap, bit for bit (spec §12).

The Perl does not print the mean of the per-summary scores: for replicate r = 0..R-1 it seeds its
``drand48`` generator with r, draws N instance indices into the *string-sorted* list of
"evalID.peerID" keys, and averages the drawn (5-decimal) values; ``Average_X`` is the mean of the
R replicate means and the confidence bounds are interpolated order statistics of the replicates.
Everything below reproduces that, including the float operation order.
"""
from __future__ import annotations

from collections import namedtuple

# typing only for type checkers: score_corpus in a new process imported it (with re, enum and
# functools) for this module alone (tests/test_startup.py keeps them out)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Sequence

_MULTIPLIER = 0x5DEECE66D
_INCREMENT = 0xB
_MASK = (1 << 48) - 1


def drand48_sequence(seed: int, count: int) -> List[float]:
    """The first ``count`` values of Perl's ``rand()`` after ``srand(seed)`` (Perl >= 5.20).

    >>> drand48_sequence(0, 1)[0], drand48_sequence(1, 1)[0], drand48_sequence(2, 1)[0]
    (0.17082803610628972, 0.041630344771878214, 0.9124326534374667)
    """
    state = ((seed << 16) + 0x330E) & _MASK
    out = []
    for _ in range(count):
        state = (_MULTIPLIER * state + _INCREMENT) & _MASK
        out.append(state / 281474976710656.0)  # 2**48: exact, as the Perl's ldexp(x, -48)
    return out


def replicate_sums(values, n_bootstrap: int):
    """Per replicate, the sequential sum of the values at the Perl's N drawn indices.

    ``values`` is an (N, K) array of the per-instance values in *sorted key* order; returns an
    (n_bootstrap, K) array.  The additions happen in draw order, one replicate per row, as the
    Perl's loop does (numpy's pairwise ``sum`` would change the last bits).
    """
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    size = values.shape[0]
    sums = np.zeros((n_bootstrap, values.shape[1]), dtype=np.float64)
    if size == 0:
        return sums
    # One 48-bit LCG state per replicate; uint64 products wrap mod 2**64, a multiple of 2**48.
    state = (np.arange(n_bootstrap, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    multiplier, increment, mask = np.uint64(_MULTIPLIER), np.uint64(_INCREMENT), np.uint64(_MASK)
    scale = 1.0 / 281474976710656.0
    for _ in range(size):
        state = (state * multiplier + increment) & mask
        index = (state.astype(np.float64) * scale * size).astype(np.int64)
        sums += values[index]
    return sums


def count_sums(values, n_bootstrap: int):
    """Per replicate, ``sum_i c[r, i] * values[i]`` in row order, ``c[r, i]`` being how often the
    Perl's draws of replicate r (:func:`replicate_sums`'s) hit row i.

    The counts are what a replicate's mean depends on; summing count times value row by row reads
    the values in order instead of at random, which is what makes the compiled version fast.
    The terms are those of :func:`replicate_sums` added in another order, so the sums differ from
    it in the last bits: for flavors whose bootstrap need not be the Perl's bit for bit.

    >>> import numpy as np
    >>> v = np.random.default_rng(0).random((50, 3))
    >>> bool(np.allclose(count_sums(v, 20), replicate_sums(v, 20), rtol=0, atol=1e-12))
    True
    """
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    size = values.shape[0]
    sums = np.zeros((n_bootstrap, values.shape[1]), dtype=np.float64)
    if size == 0:
        return sums
    multiplier, increment, mask = np.uint64(_MULTIPLIER), np.uint64(_INCREMENT), np.uint64(_MASK)
    scale = 1.0 / 281474976710656.0
    block = 256   # replicates at a time; a count is at most size, hence its type
    kind = np.uint16 if size < 65536 else np.uint32
    for r0 in range(0, n_bootstrap, block):
        rows = np.arange(min(block, n_bootstrap - r0))
        counts = np.zeros((len(rows), size), dtype=kind)
        state = ((rows + r0).astype(np.uint64) << np.uint64(16)) + np.uint64(0x330E)
        for _ in range(size):
            state = (state * multiplier + increment) & mask
            counts[rows, (state.astype(np.float64) * scale * size).astype(np.int64)] += 1
        for a in range(0, len(rows), 16):
            part = counts[a:a + 16].astype(np.float64)
            for k in range(values.shape[1]):
                # accumulate adds in row order, one product per term, as the C loop does
                sums[r0 + a:r0 + a + len(part), k] = np.add.accumulate(part * values[:, k], axis=1)[:, -1]
    return sums


class Interval(namedtuple("Interval", ["mean", "low", "high"])):
    """The Perl's printed average and confidence bounds for one statistic (unrounded floats).

    >>> Interval(0.5, 0.25, 0.75).low
    0.25
    """

    __slots__ = ()


def interval(replicates: Sequence[float], confidence: float) -> Interval:
    """Average and CI bounds of one statistic over the replicate values (spec §12, quirk Q18).

    The interpolation weight comes from the upper index and is reused for the lower one, and an
    index past the end reads as 0 (Perl's undef), as the Perl does.

    >>> interval([0.1, 0.2, 0.3, 0.4], 50)
    Interval(mean=0.25, low=0.2, high=0.3)
    """
    ordered = sorted(float(x) for x in replicates)
    count = len(ordered)
    total = 0.0
    for x in ordered:  # ascending and sequential, as the Perl sums them (not math.fsum)
        total += x
    low, high = _bounds(ordered, count, confidence, 0.0)
    return Interval(total / count, low, high)


def _bounds(ordered, count: int, confidence: float, zero):
    """(low, high): the Perl's interpolated bounds of ``count`` ascending replicate values (floats,
    or rows of one value per column, with ``zero`` of the same shape for an index past the end)."""
    delta = count * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(count - delta - 1)
    lower_a = int(delta)
    phi = count - delta - 1 - upper_a

    def at(k: int):
        return ordered[k] if 0 <= k < count else zero

    return (at(lower_a) + (at(lower_a + 1) - at(lower_a)) * phi,
            at(upper_a) + (at(upper_a + 1) - at(upper_a)) * phi)


def intervals(replicates, confidence: float) -> List[Interval]:
    """:func:`interval` of each column of ``replicates`` (replicates x columns), identical to it.

    One sort and one running sum for all columns: ``np.add.accumulate`` adds left to right as
    :func:`interval`'s loop does (``np.sum`` would add pairwise and change the last bits).  A
    column holding a NaN goes through :func:`interval` itself (``sorted`` and ``np.sort`` place
    NaNs differently).

    >>> intervals([[0.1, 1.0], [0.2, 0.0], [0.3, 0.5], [0.4, 0.5]], 50)[1]
    Interval(mean=0.5, low=0.5, high=0.5)
    """
    import numpy as np

    table = np.asarray(replicates, dtype=np.float64)
    count, columns = table.shape
    if count == 0:   # interval()'s error
        return [interval([], confidence) for _ in range(columns)]
    ordered = np.sort(table, axis=0)
    means = np.add.accumulate(ordered, axis=0)[-1] / count
    low, high = _bounds(ordered, count, confidence, np.zeros(columns))
    nan = np.isnan(table).any(axis=0)
    return [interval(table[:, k], confidence) if nan[k] else Interval(float(means[k]), float(low[k]), float(high[k]))
            for k in range(columns)]


def byte_order(keys: Sequence[str]):
    """The positions of ``keys`` in the order of their UTF-8 bytes (surrogates as the 3 bytes
    "surrogatepass" writes), ties in input order: the Perl's ``sort`` of the instance keys.

    Sorted as strings: UTF-8 orders byte strings as it orders their code points, surrogates
    included, so comparing code points gives the same order without encoding each key (100,000
    keys: 6 against 16 ms; tests/test_bootstrap.py checks the two orders agree).

    >>> byte_order(["b", "\u00e9", "a", "\U0001F600", "\uffff", "a"])
    [2, 5, 0, 1, 4, 3]
    """
    return sorted(range(len(keys)), key=keys.__getitem__)


def perl_bootstrap(values, keys: Sequence[str], n_bootstrap: int = 1000, confidence: float = 95,
                   replicate=None, exact: bool = True, sort=None):
    """Average and CI of each column of per-instance ``values`` (-t 0), as ROUGE-1.5.5.pl prints.

    ``values[i]`` belongs to instance key ``keys[i]`` ("evalID.peerID"); the Perl resamples the
    keys in byte-string order.  Returns one :class:`Interval` per column, unrounded.
    ``replicate`` replaces :func:`replicate_sums` by an implementation with the same results
    (the compiled one).  ``exact=False`` sums the same draws with :func:`count_sums` (the last
    bits differ from the Perl's); ``replicate`` then replaces that one.  ``sort`` replaces
    :func:`byte_order` likewise.

    >>> [round(x, 5) for x in perl_bootstrap([[1.0], [0.0], [0.5]], ["1.A", "2.A", "3.A"])[0]]
    [0.50067, 0.0, 1.0]
    """
    import numpy as np

    if n_bootstrap < 1:
        raise ValueError("n_bootstrap must be at least 1, got %r" % (n_bootstrap,))
    values = np.asarray(values, dtype=np.float64).reshape(len(keys), -1)
    order = (sort or byte_order)(keys)
    size = len(keys)
    sums = (replicate or (replicate_sums if exact else count_sums))(values.take(order, axis=0), n_bootstrap)
    means = sums / size if size else sums
    return intervals(means, confidence)


def perl_bootstrap_counts(values, keys: Sequence[str], n_bootstrap: int = 1000, confidence: float = 95,
                          alpha: float = 0.5, replicate=None, sort=None):
    """Average and CI under ``-t 1`` (corpus level): the bootstrap resamples raw counts (spec §12).

    Each group of three columns of ``values`` holds one metric's per-instance ``(CNT, PCNT, HIT)``
    (model count, peer count, hits; ROUGE-W's weighted, without f⁻¹).  Every replicate sums the
    drawn counts and turns them into R = HIT/CNT, P = HIT/PCNT and F (0 where undefined), unrounded;
    the draws are the same as :func:`perl_bootstrap`'s.  Returns ``[R, P, F]`` :class:`Interval`
    triples, one per metric, in column order.  ``replicate`` replaces :func:`replicate_sums` and
    ``sort`` :func:`byte_order` by implementations with the same results (e.g. compiled ones).

    >>> r, p, f = perl_bootstrap_counts([[2, 2, 2], [2, 2, 0], [4, 3, 2]], ["1.A", "2.A", "3.A"])[0]
    >>> round(r.mean, 5), round(p.mean, 5), round(f.mean, 5)
    (0.50008, 0.5663, 0.53017)
    """
    import numpy as np

    if n_bootstrap < 1:
        raise ValueError("n_bootstrap must be at least 1, got %r" % (n_bootstrap,))
    values = np.asarray(values, dtype=np.float64).reshape(len(keys), -1)
    if values.shape[1] % 3:
        raise ValueError("values must hold (CNT, PCNT, HIT) triples, got %d columns" % values.shape[1])
    order = (sort or byte_order)(keys)
    sums = (replicate or replicate_sums)(values.take(order, axis=0), n_bootstrap)
    out = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(0, values.shape[1], 3):
            cnt, pcnt, hit = sums[:, k], sums[:, k + 1], sums[:, k + 2]
            recall = np.where(cnt > 0, hit / cnt, 0.0)
            precision = np.where(pcnt > 0, hit / pcnt, 0.0)
            denominator = (1 - alpha) * precision + alpha * recall
            fscore = np.where(denominator > 0, (recall * precision) / denominator, 0.0)
            out.append(intervals(np.column_stack([recall, precision, fscore]), confidence))
    return out
