"""Is system B better than system A on the same references?  Paired significance tests for ROUGE.

Both tests work on the per-example scores of the two systems (the same examples, the same
references), as sacreBLEU's ``--paired-bs`` and ``--paired-ar`` do for BLEU.  A system's score is the
plain mean of its per-example values (precision, recall or F-measure of one rouge type), and the
observed difference is δ = mean(B) − mean(A) = mean(d) with d_i = B_i − A_i.

* **Paired bootstrap resampling** (Koehn 2004; the null shift of Berg-Kirkpatrick et al. 2012):
  sample r draws N example indices with replacement and computes δ_r = mean(d at those indices).
  The confidence interval of δ is the percentile interval of the δ_r.  The two-sided p-value is
  (1 + #{r : |δ_r − δ̄| ≥ |δ|}) / (R + 1), δ̄ being the mean of the δ_r (shifting the bootstrap
  distribution to mean 0 approximates the distribution under "no difference").
* **Approximate randomization** (Noreen 1989; Riezler & Maxwell 2005): trial t swaps the two
  systems' outputs of each example with probability 1/2, i.e. flips the sign of d_i, and
  computes δ_t.  p = (1 + #{t : |δ_t| ≥ |δ|}) / (T + 1).

Randomness is seeded and platform independent: sample r (or trial t) uses its own drand48 stream
(the generator ROUGE-1.5.5.pl's bootstrap uses, :func:`.bootstrap.drand48_sequence`) seeded with
:func:`sample_seed` ``(seed, r)``; an index is ``trunc(u * N)`` and a swap is ``u < 0.5``.  Sums run
in draw order, so a plain-Python loop over :func:`.bootstrap.drand48_sequence` gives the same
numbers bit for bit (``tests/test_cli_compare.py`` checks this).

>>> a = [0.2, 0.3, 0.25, 0.4, 0.35, 0.3, 0.2, 0.5]
>>> b = [x + 0.1 for x in a]
>>> r = paired_bootstrap(a, b, n_samples=200)
>>> round(r.delta, 5), r.p_value < 0.05
(0.1, True)
"""
import math
import warnings
from typing import Dict, List, NamedTuple, Optional, Sequence

from ..undefined import UndefinedScoreWarning

__all__ = ["sample_seed", "BootstrapResult", "paired_bootstrap", "approximate_randomization",
           "Comparison", "compare_systems", "METHODS", "SMALL_SAMPLE", "small_sample_caution"]

METHODS = ("bootstrap", "randomization")

# Below this many examples `rouge-full compare` prints a caution with its p-values.  Resampling
# tests need enough examples to resample: with n examples approximate randomization has only 2^n
# distinct sign patterns (8 for n = 3), and when every d_i is the same the bootstrap's replicates
# all equal δ, so its p is 1/(R+1) (0.001 with R = 1000) whatever the size of δ.  30 is the usual
# floor for a mean's sampling distribution to be near normal (Koehn 2004 resamples test sets of
# hundreds of sentences).
SMALL_SAMPLE = 30


def small_sample_caution(n: int) -> str:
    """The caution printed with p-values of fewer than :data:`SMALL_SAMPLE` examples ("" above).

    >>> small_sample_caution(3)[:41]
    'caution: only 3 examples: with fewer than'
    >>> small_sample_caution(30)
    ''
    """
    if n >= SMALL_SAMPLE:
        return ""
    return ("caution: only %d example%s: with fewer than %d the bootstrap and randomization p-values are "
            "not reliable (few distinct resamples; identical per-example differences give the bootstrap "
            "p = 1/(samples+1) whatever their size): read them as descriptive, and compare on more examples"
            % (n, "" if n == 1 else "s", SMALL_SAMPLE))

_MULTIPLIER = 0x5DEECE66D
_INCREMENT = 0xB
_MASK = (1 << 48) - 1
_SCALE = 1.0 / 281474976710656.0


def sample_seed(seed: int, r: int) -> int:
    """The 32-bit drand48 seed of sample (or trial) ``r`` under the user's ``seed``.

    Mixing both numbers keeps the streams of nearby seeds apart (seed 1 is not seed 0 shifted).

    >>> sample_seed(12345, 0), sample_seed(12345, 1)
    (3078729754, 1030584977)
    """
    return (seed * 0x9E3779B1 + r * 0x85EBCA77 + 0x165667B1) & 0xFFFFFFFF


def _check(a: Sequence[float], b: Sequence[float], count: int, count_name: str, seed):
    if len(a) != len(b):
        raise ValueError("the two systems must be scored on the same examples: %d vs %d scores"
                         % (len(a), len(b)))
    if not len(a):
        raise ValueError("no examples to compare")
    # a NaN difference makes every |d| >= |delta| false: p would be 1/(R+1), "significant"
    for name, values in (("a", a), ("b", b)):
        bad = next((k for k, x in enumerate(values) if math.isnan(x)), None)
        if bad is not None:
            raise ValueError("%s[%d] is NaN (an undefined score): significance cannot be computed on it; leave "
                             "the example out (compare_systems does)" % (name, bad))
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError("%s must be a whole number >= 1, got %r" % (count_name, count))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be a whole number, got %r" % (seed,))


def _streams(seed: int, count: int):
    import numpy as np

    seeds = np.array([sample_seed(seed, r) for r in range(count)], dtype=np.uint64)
    return (seeds << np.uint64(16)) + np.uint64(0x330E)


def _next(state):
    import numpy as np

    state = (state * np.uint64(_MULTIPLIER) + np.uint64(_INCREMENT)) & np.uint64(_MASK)
    return state, state.astype(np.float64) * _SCALE


def _sequential_mean(values: Sequence[float]) -> float:
    total = 0.0
    for x in values:
        total += x
    return total / len(values)


class BootstrapResult(NamedTuple):
    """Observed difference (B − A), its confidence interval and the two-sided p-value."""

    delta: float
    low: float
    high: float
    p_value: float


def paired_bootstrap(a: Sequence[float], b: Sequence[float], n_samples: int = 1000, seed: int = 12345,
                     confidence: float = 95) -> BootstrapResult:
    """Paired bootstrap test of mean(b) − mean(a) over the same examples (see the module docs).

    The interval holds the middle ``confidence`` percent of the resampled differences: with R
    samples sorted ascending, ``low`` is the k-th and ``high`` the (R−1−k)-th, k = ⌊R(100−c)/200⌋.

    >>> paired_bootstrap([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], n_samples=10).p_value
    1.0
    """
    import numpy as np

    _check(a, b, n_samples, "n_samples", seed)
    if not 0 <= confidence <= 100:
        raise ValueError("confidence must be a percentage in [0, 100], got %r" % (confidence,))
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    size = len(d)
    delta = _sequential_mean(d.tolist())
    state = _streams(seed, n_samples)
    sums = np.zeros(n_samples, dtype=np.float64)
    for _ in range(size):
        state, u = _next(state)
        sums += d[(u * size).astype(np.int64)]
    means = sums / size
    centre = _sequential_mean(means.tolist())
    extreme = int(np.count_nonzero(np.abs(means - centre) >= abs(delta)))
    ordered = np.sort(means)
    k = min(int(math.floor(n_samples * (100 - confidence) / 200.0)), n_samples - 1)
    return BootstrapResult(delta, float(ordered[k]), float(ordered[n_samples - 1 - k]),
                           (1 + extreme) / (n_samples + 1))


def approximate_randomization(a: Sequence[float], b: Sequence[float], n_trials: int = 1000,
                              seed: int = 12345) -> float:
    """Two-sided p-value of mean(b) − mean(a) by approximate randomization (see the module docs).

    >>> approximate_randomization([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], n_trials=10)
    1.0
    """
    import numpy as np

    _check(a, b, n_trials, "n_trials", seed)
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    size = len(d)
    delta = _sequential_mean(d.tolist())
    state = _streams(seed, n_trials)
    sums = np.zeros(n_trials, dtype=np.float64)
    for i in range(size):
        state, u = _next(state)
        sums += np.where(u < 0.5, -d[i], d[i])
    extreme = int(np.count_nonzero(np.abs(sums / size) >= abs(delta)))
    return (1 + extreme) / (n_trials + 1)


class Comparison(NamedTuple):
    """One rouge type and measure of a system against the baseline.

    ``n_omitted``: examples left out because their score is undefined (NaN, flavor matlab) in
    either system; ``baseline``, ``system``, ``delta`` and the tests use the others only.  With no
    example left the means are NaN and the tests are not run (``None``).
    """

    rouge_type: str
    measure: str
    baseline: float
    system: float
    delta: float
    low: Optional[float]
    high: Optional[float]
    p_bootstrap: Optional[float]
    p_randomization: Optional[float]
    n_omitted: int = 0


def compare_systems(baseline: Sequence[Dict[str, object]], system: Sequence[Dict[str, object]],
                    rouge_types: Sequence[str], measure: str = "fmeasure", methods=METHODS,
                    n_samples: int = 1000, seed: int = 12345, confidence: float = 95,
                    progress=None) -> List[Comparison]:
    """Compare two systems' per-example scores (``CorpusResult.per_example`` of each), type by type.

    ``measure`` is ``"fmeasure"``, ``"recall"`` or ``"precision"``; ``methods`` any of
    ``"bootstrap"`` and ``"randomization"`` (a skipped one gives ``None`` fields).  ``progress``,
    if given, is called as ``progress(done, total)`` after each test of each rouge type.  An example
    whose score is NaN in either system is left out of that type's comparison (``n_omitted``, and an
    :class:`..undefined.UndefinedScoreWarning`): significance is never computed on NaN.

    >>> from rouge_full_metric.scoring import Score
    >>> a = [{"rouge1": Score(0.5, 0.5, 0.5)}, {"rouge1": Score(0.2, 0.2, 0.2)}]
    >>> b = [{"rouge1": Score(0.6, 0.6, 0.6)}, {"rouge1": Score(0.3, 0.3, 0.3)}]
    >>> c = compare_systems(a, b, ["rouge1"], n_samples=50)[0]
    >>> round(c.delta, 5), c.p_randomization
    (0.1, 0.6078431372549019)
    """
    if measure not in ("fmeasure", "recall", "precision"):
        raise ValueError("measure must be 'fmeasure', 'recall' or 'precision', got %r" % (measure,))
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError("methods: unknown %s; expected any of %s" % (", ".join(map(repr, unknown)), ", ".join(METHODS)))
    out = []
    total, done = len(rouge_types) * len(methods), 0
    omitted = {}
    for name in rouge_types:
        a = [getattr(s[name], measure) for s in baseline]
        b = [getattr(s[name], measure) for s in system]
        if len(a) != len(b):
            raise ValueError("the two systems must be scored on the same examples: %d vs %d scores"
                             % (len(a), len(b)))
        pairs = [(x, y) for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
        n_omitted = len(a) - len(pairs)
        if n_omitted:
            omitted[name] = n_omitted
            a, b = [x for x, _ in pairs], [y for _, y in pairs]
        low = high = p_bs = p_ar = None
        if not pairs and n_omitted:
            done += len(methods)
            if progress is not None:
                progress(done, total)
            out.append(Comparison(name, measure, math.nan, math.nan, math.nan, None, None, None, None, n_omitted))
            continue
        if "bootstrap" in methods:
            res = paired_bootstrap(a, b, n_samples, seed, confidence)
            low, high, p_bs = res.low, res.high, res.p_value
            done += 1
            if progress is not None:
                progress(done, total)
        if "randomization" in methods:
            p_ar = approximate_randomization(a, b, n_samples, seed)
            done += 1
            if progress is not None:
                progress(done, total)
        mean_a, mean_b = _sequential_mean(a), _sequential_mean(b)
        out.append(Comparison(name, measure, mean_a, mean_b, _sequential_mean([y - x for x, y in zip(a, b)]),
                              low, high, p_bs, p_ar, n_omitted))
    if omitted:
        warnings.warn("undefined (NaN) %s left out of the comparison: %s; a MATLAB score is NaN where a reference "
                      "has nothing to count (e.g. fewer words than n)"
                      % (measure, "; ".join("%s: %d of %d examples" % (t, n, len(baseline)) for t, n in omitted.items())),
                      UndefinedScoreWarning, stacklevel=2)
    return out
