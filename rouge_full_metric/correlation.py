"""How well a metric agrees with human judgments: correlations, confidence intervals, paired tests.

Scores are **systems x inputs matrices** (one row a system, one column an input document; ``NaN`` =
no score).  The three levels are those of Deutsch, Dror & Roth (TACL 2021) and their ``nlpstats``:

* ``summary`` (also ``input``): for each input, the correlation across the systems' summaries of it
  (pairs where both scores exist); an input whose correlation is undefined (constant scores, fewer
  than two systems) is skipped; the mean of the rest;
* ``system``: the correlation of the systems' mean scores (each matrix's row ``nanmean``);
* ``global``: the correlation of all (system, input) pairs where both scores exist.

Coefficients: ``pearson``, ``spearman``, ``kendall`` (tau-b, the default; ``kendall-b`` too) and
``kendall-c`` (tau-c), the values of :mod:`scipy.stats` to rounding.

Uncertainty (all seeded: the same arguments give the same numbers):

* :func:`confidence_interval`: percentile bootstrap resampling ``systems``, ``inputs`` or ``both``
  (systems, then inputs, as Deutsch et al.; resamples whose correlation is undefined are dropped),
  or ``fisher`` (Bonett & Wright's variances for Spearman and Kendall);
* :func:`compare`: is metric A's correlation higher than metric B's?  Paired ``bootstrap-*`` (the
  share of resamples in which A does not beat B, Koehn 2004 / Deutsch et al. 2021's BOOT test),
  ``permutation-*`` (swap A's and B's standardized scores per system, input or both; p = the share
  of permuted differences at least as extreme, as nlpstats) and ``williams`` (Williams' t-test for
  dependent correlations, as WMT and nlpstats).

Every resampling method draws all its indices first and evaluates them in bounded-size chunks,
vectorized over resamples.

>>> import numpy as np
>>> human = np.array([[1., 2., 3.], [2., 3., 5.], [4., 4., 6.]])
>>> metric = np.array([[.1, .3, .2], [.4, .35, .5], [.3, .4, .6]])
>>> round(correlate(metric, human, "system", "pearson"), 4)
0.8963
>>> correlate(metric, human, "summary", "kendall")
0.7777777777777778
"""
import math
from typing import NamedTuple, Optional

import numpy as np

__all__ = ["correlate", "confidence_interval", "compare", "Interval", "PairedTest",
           "LEVELS", "COEFFICIENTS", "CI_METHODS", "TEST_METHODS"]

LEVELS = ("summary", "system", "global")
COEFFICIENTS = ("pearson", "spearman", "kendall", "kendall-c")
CI_METHODS = ("bootstrap-systems", "bootstrap-inputs", "bootstrap-both", "fisher", "none")
TEST_METHODS = ("bootstrap-systems", "bootstrap-inputs", "bootstrap-both",
                "permutation-systems", "permutation-inputs", "permutation-both", "williams")

# Largest number of float64 cells one chunk of resampled matrices may hold (about 64 MB over the
# few arrays alive at once): bounds memory whatever the resample count.
_CHUNK_CELLS = 2_000_000
# Pairwise Kendall needs k*(k-1)/2 pairs a vector; above this length a sort-based scipy call per
# vector is cheaper (only the global level gets there).
_PAIRWISE_MAX = 100


class Interval(NamedTuple):
    """A correlation and its confidence interval (``nan`` where undefined)."""
    value: float
    low: float
    high: float


class PairedTest(NamedTuple):
    """``delta`` = corr(A) - corr(B); ``p`` for the alternative; ``low``/``high`` a bootstrap
    interval of ``delta`` (``nan`` for permutation and Williams)."""
    delta: float
    p: float
    low: float
    high: float


def _level(level: str) -> str:
    if level == "input":
        return "summary"
    if level not in LEVELS:
        raise ValueError("level: expected one of %s, got %r" % (", ".join(LEVELS), level))
    return level


def _coefficient(coefficient: str) -> str:
    if coefficient == "kendall-b":
        return "kendall"
    if coefficient not in COEFFICIENTS:
        raise ValueError("coefficient: expected one of %s (or kendall-b), got %r"
                         % (", ".join(COEFFICIENTS), coefficient))
    return coefficient


def _matrix(x, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2 or a.size == 0:
        raise ValueError("%s: expected a non-empty systems x inputs matrix, got shape %s" % (name, a.shape))
    if np.isinf(a).any():
        raise ValueError("%s: infinite scores (use NaN for a missing score)" % name)
    return a


def _same_shape(*named):
    shape = named[0][1].shape
    for name, a in named[1:]:
        if a.shape != shape:
            raise ValueError("%s: shape %s differs from %s's %s" % (name, a.shape, named[0][0], shape))


# ----------------------------------------------------------------------------- coefficients
# Each takes x, y of shape (..., k) and a validity mask; returns shape (...) with NaN where
# scipy.stats returns NaN (fewer than 2 valid pairs, a constant side).


def _constant(x, valid):
    hi = np.where(valid, x, -np.inf).max(axis=-1)
    lo = np.where(valid, x, np.inf).min(axis=-1)
    return hi == lo


def _pearson(x, y, valid):
    n = valid.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        xm = np.where(valid, x, 0.0).sum(axis=-1) / n
        ym = np.where(valid, y, 0.0).sum(axis=-1) / n
        dx = np.where(valid, x - xm[..., None], 0.0)
        dy = np.where(valid, y - ym[..., None], 0.0)
        # scipy normalizes each side before the dot product; the same order keeps us within 1e-15
        dx = dx / np.sqrt((dx * dx).sum(axis=-1))[..., None]
        dy = dy / np.sqrt((dy * dy).sum(axis=-1))[..., None]
        r = np.clip((dx * dy).sum(axis=-1), -1.0, 1.0)
    bad = (n < 2) | _constant(x, valid) | _constant(y, valid)
    return np.where(bad, np.nan, r)


def _ranks(x, valid):
    from scipy.stats import rankdata
    # invalid cells rank after every valid one, so valid ranks are 1..n_valid as if alone
    return rankdata(np.where(valid, x, np.inf), method="average", axis=-1)


def _spearman(x, y, valid):
    return _pearson(_ranks(x, valid), _ranks(y, valid), valid)


def _distinct(x, valid):
    s = np.sort(np.where(valid, x, np.inf), axis=-1)
    new = np.concatenate([np.ones(s.shape[:-1] + (1,), bool), s[..., 1:] != s[..., :-1]], axis=-1)
    return (new & np.isfinite(s)).sum(axis=-1)


def _kendall_pairwise(x, y, valid, variant):
    k = x.shape[-1]
    i, j = np.triu_indices(k, 1)
    pv = valid[..., i] & valid[..., j]
    sx = np.sign(x[..., i] - x[..., j])
    sy = np.sign(y[..., i] - y[..., j])
    sx = np.where(pv, sx, 0.0)
    sy = np.where(pv, sy, 0.0)
    s = (sx * sy).sum(axis=-1)
    n = valid.sum(axis=-1)
    tot = n * (n - 1) // 2
    xtie = tot - np.count_nonzero(sx, axis=-1)
    ytie = tot - np.count_nonzero(sy, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            tau = s / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
        else:
            mc = np.minimum(_distinct(x, valid), _distinct(y, valid))
            tau = 2 * s / (n.astype(float) ** 2 * (mc - 1) / mc)
    tau = np.clip(tau, -1.0, 1.0)
    return np.where((n < 2) | (xtie == tot) | (ytie == tot), np.nan, tau)


def _kendall_sorted(x, y, valid, variant):
    from scipy.stats import kendalltau
    out = np.empty(x.shape[:-1])
    for idx in np.ndindex(out.shape):
        v = valid[idx]
        out[idx] = np.nan if v.sum() < 2 else kendalltau(x[idx][v], y[idx][v], variant=variant,
                                                           method="asymptotic")[0]
    return out


def _coef(x, y, valid, coefficient):
    if coefficient == "pearson":
        return _pearson(x, y, valid)
    if coefficient == "spearman":
        return _spearman(x, y, valid)
    variant = "c" if coefficient == "kendall-c" else "b"
    if x.shape[-1] <= _PAIRWISE_MAX:
        return _kendall_pairwise(x, y, valid, variant)
    return _kendall_sorted(x, y, valid, variant)


def _nanmean(a, axis):
    n = (~np.isnan(a)).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, np.nansum(a, axis=axis) / np.maximum(n, 1), np.nan)


def _row_means(a):
    """Each system's mean over its scored inputs, summed one by one in sorted order: rows holding
    the same multiset of scores get bit-identical means (a tie for the rank coefficients) whatever
    the order or the array shape (numpy's own reductions change summation order with the shape)."""
    s = np.sort(a, axis=-1)  # NaN last
    n = (~np.isnan(s)).sum(axis=-1)
    total = np.cumsum(np.where(np.isnan(s), 0.0, s), axis=-1)[..., -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, total / np.maximum(n, 1), np.nan)


def _snap(x):
    """``x`` rounded to 12 significant digits: means that differ only by summation order (a
    resample's inputs come in another order) stay ties for the rank coefficients."""
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = 10.0 ** (11 - np.floor(np.log10(np.where(x == 0, 1.0, np.abs(x)))))
        return np.where(np.isfinite(x), np.round(x * scale) / scale, x)


def _system_coef(x, z, coefficient):
    if coefficient != "pearson":
        x, z = _snap(x), _snap(z)
    return _coef(x, z, ~np.isnan(x) & ~np.isnan(z), coefficient)


def _levels(X, Z, level, coefficient):
    """Correlation of batches of matrices X, Z of shape (B, systems, inputs) -> shape (B,)."""
    if level == "system":
        return _system_coef(_row_means(X), _row_means(Z), coefficient)
    valid = ~np.isnan(X) & ~np.isnan(Z)
    if level == "summary":
        xt, zt, vt = (np.swapaxes(a, 1, 2) for a in (X, Z, valid))
        return _nanmean(_coef(xt, zt, vt, coefficient), 1)
    b = X.shape[0]
    return _coef(X.reshape(b, -1), Z.reshape(b, -1), valid.reshape(b, -1), coefficient)


def correlate(metric, human, level: str = "system", coefficient: str = "kendall") -> float:
    """The correlation of ``metric`` with ``human`` (systems x inputs matrices, NaN = missing) at
    ``level`` (``summary``, ``system``, ``global``) with ``coefficient`` (``pearson``,
    ``spearman``, ``kendall`` = tau-b, ``kendall-c``); ``nan`` where undefined.

    >>> correlate([[1, 2], [2, 4], [3, 3]], [[1, 1], [2, 3], [4, 2]], "global", "spearman")
    0.8030303030303029
    """
    level, coefficient = _level(level), _coefficient(coefficient)
    X, Z = _matrix(metric, "metric"), _matrix(human, "human")
    _check(X, Z, level)
    return float(_levels(X[None], Z[None], level, coefficient)[0])


def _check(X, Z, level):
    if X.shape[0] != Z.shape[0]:
        raise ValueError("metric and human: different numbers of systems (%d, %d)" % (X.shape[0], Z.shape[0]))
    if level != "system" and X.shape[1] != Z.shape[1]:
        raise ValueError("metric and human: different numbers of inputs (%d, %d)" % (X.shape[1], Z.shape[1]))


# ----------------------------------------------------------------------------- resampling


def _scheme(method: str, prefix: str) -> str:
    scheme = method[len(prefix):]
    if not method.startswith(prefix) or scheme not in ("systems", "inputs", "both"):
        raise ValueError("method: expected %ssystems, %sinputs or %sboth, got %r" % (prefix, prefix, prefix, method))
    return scheme


def _rng(seed):
    return np.random.default_rng(seed)


def _bootstrap_indices(rng, scheme, m, n, b):
    rows = rng.integers(0, m, (b, m)) if scheme in ("systems", "both") else np.broadcast_to(np.arange(m), (b, m))
    cols = rng.integers(0, n, (b, n)) if scheme in ("inputs", "both") else np.broadcast_to(np.arange(n), (b, n))
    return rows, cols


def _multiplicities(indices, k):
    """How often each of 0..k-1 was drawn in each resample: (B, draws) -> (B, k) floats."""
    b = len(indices)
    flat = (np.arange(b)[:, None] * k + indices).ravel()
    return np.bincount(flat, minlength=b * k).reshape(b, k).astype(np.float64)


def _chunks(b, m, n):
    step = max(1, _CHUNK_CELLS // max(1, m * n))
    for start in range(0, b, step):
        yield slice(start, min(b, start + step))


def _bootstrap_samples(matrices, level, coefficient, scheme, n_resamples, seed):
    """Per matrix pair (metric, human) in ``matrices[:-1]`` x ``matrices[-1]``: correlations on the
    same resamples, shape (len(matrices) - 1, n_resamples)."""
    m, n = matrices[0].shape
    rows, cols = _bootstrap_indices(_rng(seed), scheme, m, n, n_resamples)
    out = np.empty((len(matrices) - 1, n_resamples))
    if level == "system":
        # a resample's system means are count-weighted sums of the original columns: one matrix
        # product per matrix instead of materializing B resampled matrices
        counts = _multiplicities(cols, n)
        take = np.arange(n_resamples)[:, None], rows
        means = []
        for X in matrices:
            valid = ~np.isnan(X)
            with np.errstate(invalid="ignore", divide="ignore"):
                means.append(((counts @ np.where(valid, X, 0.0).T) / (counts @ valid.T))[take])
        for i in range(len(matrices) - 1):
            out[i] = _system_coef(means[i], means[-1], coefficient)
        return out
    if level == "summary" and coefficient in ("kendall", "spearman"):
        weights = _multiplicities(rows, m)
        for i, X in enumerate(matrices[:-1]):
            out[i] = _summary_weighted(X, matrices[-1], weights, cols, coefficient)
        return out
    for sl in _chunks(n_resamples, m, n):
        r, c = rows[sl][:, :, None], cols[sl][:, None, :]
        Z = matrices[-1][r, c]
        for i, X in enumerate(matrices[:-1]):
            out[i, sl] = _levels(X[r, c], Z, level, coefficient)
    return out


def _quadratic(w, mats):
    """w_b^T M_c w_b for every resample b and input c: w (B, m), mats (n, m, m) -> (B, n)."""
    n, m, _ = mats.shape
    t = (w @ mats.reshape(n * m, m).T).reshape(len(w), n, m)
    return (t * w[:, None, :]).sum(axis=-1)


def _summary_weighted(X, Z, weights, cols, coefficient):
    """Summary-level Kendall tau-b or Spearman of bootstrap resamples without materializing them.

    A resample of systems is a multiplicity vector w over the original systems, and every rank
    statistic of a column is a quadratic (Kendall: pair counts) or linear (Spearman: average ranks)
    form in w of that column's pairwise comparisons: the same numbers as duplicating the rows, in
    O(m^2) per column instead of a sort or O(m^2) pairs per resampled column."""
    m, n = X.shape
    valid = ~np.isnan(X) & ~np.isnan(Z)
    xs, zs = np.where(valid, X, 0.0).T, np.where(valid, Z, 0.0).T  # (n, m)
    pair = (valid.T[:, :, None] & valid.T[:, None, :]).astype(np.float64)  # (n, m, m)
    sx = np.sign(xs[:, :, None] - xs[:, None, :]) * pair
    sz = np.sign(zs[:, :, None] - zs[:, None, :]) * pair
    ax, az = np.abs(sx), np.abs(sz)
    if coefficient == "spearman":
        # rank of system a among the resample's valid copies: below + (tied + 1) / 2
        lx = pair * ((sx > 0) + 0.5 * (sx == 0))
        lz = pair * ((sz > 0) + 0.5 * (sz == 0))
    b = len(weights)
    values = np.empty((b, n))
    step = max(1, _CHUNK_CELLS // max(1, n * m))
    for start in range(0, b, step):
        w = weights[start:start + step]
        nzx, nzz = _quadratic(w, ax), _quadratic(w, az)
        with np.errstate(invalid="ignore", divide="ignore"):
            if coefficient == "kendall":
                r = np.clip(_quadratic(w, sx * sz) / np.sqrt(nzx) / np.sqrt(nzz), -1.0, 1.0)
            else:
                wv = w[:, None, :] * valid.T[None]  # (B, n, m) weights of the valid cells
                rx = (w @ lx.reshape(n * m, m).T).reshape(len(w), n, m) + 0.5
                rz = (w @ lz.reshape(n * m, m).T).reshape(len(w), n, m) + 0.5
                tot = wv.sum(axis=-1, keepdims=True)
                dx = rx - (wv * rx).sum(axis=-1, keepdims=True) / tot
                dz = rz - (wv * rz).sum(axis=-1, keepdims=True) / tot
                r = np.clip((wv * dx * dz).sum(-1) / np.sqrt((wv * dx * dx).sum(-1) * (wv * dz * dz).sum(-1)),
                            -1.0, 1.0)
        values[start:start + step] = np.where((nzx == 0) | (nzz == 0), np.nan, r)
    # the resample's inputs: columns drawn (with repetition) from the per-column values
    return _nanmean(np.take_along_axis(values, cols, axis=1), 1)


def _resamples(n_resamples):
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError("n_resamples: expected a positive integer, got %r" % (n_resamples,))
    return int(n_resamples)


def _confidence(confidence):
    if not 0 < confidence < 1:
        raise ValueError("confidence: expected a number between 0 and 1 (exclusive), got %r" % (confidence,))
    return confidence


def _percentiles(samples, confidence):
    s = samples[~np.isnan(samples)]
    if s.size == 0:
        return math.nan, math.nan
    alpha = (1 - confidence) / 2 * 100
    return float(np.percentile(s, alpha)), float(np.percentile(s, 100 - alpha))


def _sample_size(X, level):
    """n of Fisher's and Williams' formulas, as nlpstats: systems; the most systems any input has;
    the scored cells."""
    if level == "system":
        return X.shape[0]
    if level == "summary":
        return int((~np.isnan(X)).sum(axis=0).max())
    return int((~np.isnan(X)).sum())


def confidence_interval(metric, human, level: str = "system", coefficient: str = "kendall",
                        method: str = "bootstrap-both", confidence: float = 0.95,
                        n_resamples: int = 1000, seed: int = 0) -> Interval:
    """The correlation (as :func:`correlate`) and its ``confidence`` interval by ``method``:
    ``bootstrap-systems``, ``bootstrap-inputs``, ``bootstrap-both`` (percentile intervals over
    ``n_resamples`` resamples drawn with ``seed``), ``fisher`` or ``none`` (``low``/``high`` nan).

    >>> rng = np.random.default_rng(1)
    >>> human = rng.random((10, 20)); metric = human + rng.random((10, 20))
    >>> ci = confidence_interval(metric, human, "system", "pearson", "bootstrap-both", n_resamples=200)
    >>> round(ci.value, 3), ci.low < ci.value < ci.high
    (0.372, True)
    """
    level, coefficient = _level(level), _coefficient(coefficient)
    X, Z = _matrix(metric, "metric"), _matrix(human, "human")
    _check(X, Z, level)
    confidence = _confidence(confidence)
    value = float(_levels(X[None], Z[None], level, coefficient)[0])
    if method == "none":
        return Interval(value, math.nan, math.nan)
    if method == "fisher":
        return Interval(value, *_fisher(value, _sample_size(X, level), coefficient, confidence))
    scheme = _scheme(method, "bootstrap-")
    # resamples pair the metric's and the humans' cells: the same systems x inputs
    _same_shape(("metric", X), ("human", Z))
    samples = _bootstrap_samples([X, Z], level, coefficient, scheme, _resamples(n_resamples), seed)[0]
    return Interval(value, *_percentiles(samples, confidence))


def _fisher(r, n, coefficient, confidence):
    from scipy.stats import norm
    # Bonett & Wright (2000): the variance of atanh(r) for each coefficient
    if coefficient == "pearson":
        b, c = 3, 1.0
    elif coefficient == "spearman":
        b, c = 3, math.sqrt(1 + r * r / 2)
    else:
        b, c = 4, math.sqrt(0.437)
    if n <= b or math.isnan(r):
        return math.nan, math.nan
    z = norm.ppf(1 - (1 - confidence) / 2)
    with np.errstate(divide="ignore"):
        zr = np.arctanh(r)
    return float(np.tanh(zr - z * c / math.sqrt(n - b))), float(np.tanh(zr + z * c / math.sqrt(n - b)))


# ----------------------------------------------------------------------------- paired tests


def _p_from(samples, observed, alternative):
    if alternative == "two-sided":
        return float(np.mean(np.abs(samples) >= abs(observed)))
    if alternative == "greater":
        return float(np.mean(samples >= observed))
    return float(np.mean(samples <= observed))


def _standardize(a):
    return (a - np.nanmean(a)) / np.nanstd(a)


def compare(metric_a, metric_b, human, level: str = "system", coefficient: str = "kendall",
            method: str = "bootstrap-both", alternative: str = "greater", confidence: float = 0.95,
            n_resamples: int = 1000, seed: int = 0) -> PairedTest:
    """Does ``metric_a`` correlate with ``human`` better than ``metric_b``?  ``alternative``
    ``greater`` (A better), ``less`` or ``two-sided``; ``method`` one of :data:`TEST_METHODS`.

    ``bootstrap-*``: ``delta`` is resampled with systems/inputs/both; p (``greater``) = the share
    of resamples with delta <= 0 (``less``: >= 0; two-sided: twice the smaller, at most 1);
    ``low``/``high`` the percentile interval of delta.  ``permutation-*``: A's and B's scores
    (standardized) are swapped per system/input/both; p = the share of permuted deltas at least as
    extreme as the observed one.  ``williams``: Williams' t-test (nlpstats' formula).

    >>> rng = np.random.default_rng(0)
    >>> human = rng.random((12, 30))
    >>> good, bad = human + rng.random((12, 30)), human + 4 * rng.random((12, 30))
    >>> compare(good, bad, human, "summary", "kendall", "permutation-both", n_resamples=200).p
    0.0
    """
    level, coefficient = _level(level), _coefficient(coefficient)
    if alternative not in ("greater", "less", "two-sided"):
        raise ValueError("alternative: expected greater, less or two-sided, got %r" % (alternative,))
    A, B, Z = _matrix(metric_a, "metric_a"), _matrix(metric_b, "metric_b"), _matrix(human, "human")
    _check(A, Z, level)
    _same_shape(("metric_a", A), ("metric_b", B))
    ra = float(_levels(A[None], Z[None], level, coefficient)[0])
    rb = float(_levels(B[None], Z[None], level, coefficient)[0])
    delta = ra - rb
    if method == "williams":
        return PairedTest(delta, _williams(A, B, Z, level, coefficient, alternative), math.nan, math.nan)
    n_resamples = _resamples(n_resamples)
    if method.startswith("permutation-"):
        scheme = _scheme(method, "permutation-")
        _same_shape(("metric_a", A), ("human", Z))
        return PairedTest(delta, _permutation_p(A, B, Z, level, coefficient, scheme, alternative,
                                                n_resamples, seed), math.nan, math.nan)
    scheme = _scheme(method, "bootstrap-")
    _same_shape(("metric_a", A), ("human", Z))
    s = _bootstrap_samples([A, B, Z], level, coefficient, scheme, n_resamples, seed)
    d = s[0] - s[1]
    d = d[~np.isnan(d)]
    if d.size == 0:
        return PairedTest(delta, math.nan, math.nan, math.nan)
    lower, upper = float(np.mean(d <= 0)), float(np.mean(d >= 0))
    p = {"greater": lower, "less": upper, "two-sided": min(1.0, 2 * min(lower, upper))}[alternative]
    return PairedTest(delta, p, *_percentiles(d, _confidence(confidence)))


def _permutation_p(A, B, Z, level, coefficient, scheme, alternative, n_resamples, seed):
    # Standardized so that swapping cells between metrics on different scales is meaningful
    A, B, Z = _standardize(A), _standardize(B), _standardize(Z)
    observed = _levels(A[None], Z[None], level, coefficient)[0] - _levels(B[None], Z[None], level, coefficient)[0]
    m, n = A.shape
    rng = _rng(seed)
    rows = rng.random((n_resamples, m)) < 0.5 if scheme in ("systems", "both") else np.zeros((n_resamples, m), bool)
    cols = rng.random((n_resamples, n)) < 0.5 if scheme in ("inputs", "both") else np.zeros((n_resamples, n), bool)
    same_nan = np.array_equal(np.isnan(A), np.isnan(B))
    if level == "system" and same_nan:
        samples = _permuted_system(A, B, Z, rows, cols, coefficient)
    elif level == "summary" and coefficient == "kendall" and same_nan:
        samples = _permuted_summary_kendall(A, B, Z, rows, cols)
    else:
        samples = _permuted(A, B, Z, rows, cols, level, coefficient)
    if math.isnan(observed):
        return math.nan
    return _p_from(samples, observed, alternative)


def _permuted(A, B, Z, rows, cols, level, coefficient):
    """corr(A', Z) - corr(B', Z) of each permutation (swap masks ``rows`` x ``cols``)."""
    m, n = A.shape
    samples = np.empty(len(rows))
    for sl in _chunks(len(rows), m, n):
        # swapping by systems then by inputs swaps a cell iff exactly one of the two chose it
        swap = rows[sl][:, :, None] ^ cols[sl][:, None, :]
        Ap, Bp = np.where(swap, B, A), np.where(swap, A, B)
        Zb = np.broadcast_to(Z, Ap.shape)
        samples[sl] = _levels(Ap, Zb, level, coefficient) - _levels(Bp, Zb, level, coefficient)
    return samples


def _permuted_system(A, B, Z, rows, cols, coefficient):
    """:func:`_permuted` at the system level from row sums: with input flips f, system a's
    permuted sum is sum(A_a) + f . (B_a - A_a) if a is not swapped, else sum(B_a) - f . (B_a - A_a)."""
    valid = ~np.isnan(A)
    a, b = np.where(valid, A, 0.0), np.where(valid, B, 0.0)
    n_valid = valid.sum(axis=1)
    moved = cols.astype(np.float64) @ (b - a).T  # (P, m)
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = np.where(rows, b.sum(axis=1) - moved, a.sum(axis=1) + moved) / n_valid
        bp = np.where(rows, a.sum(axis=1) + moved, b.sum(axis=1) - moved) / n_valid
    z = np.ascontiguousarray(np.broadcast_to(_row_means(Z), ap.shape))
    return _system_coef(ap, z, coefficient) - _system_coef(bp, z, coefficient)


def _bilinear(u, mats, v):
    """u_b^T M_c v_b for every permutation b and input c: u, v (B, m), mats (n, m, m) -> (B, n)."""
    n, m, _ = mats.shape
    t = (v @ mats.reshape(n * m, m).T).reshape(len(v), n, m)
    return (t * u[:, None, :]).sum(axis=-1)


def _permuted_summary_kendall(A, B, Z, rows, cols):
    """:func:`_permuted` for summary-level Kendall tau-b without building the permuted matrices.

    In input c a system-swap mask s takes system a's score from A (u_a = 1 - s_a) or B (v_a = s_a);
    the pair (a, d)'s sign is then sign(X_a - Y_d) for the sources X, Y of a and d, so tau's
    numerator and tie counts are sums of four bilinear forms (AA, AB, BA, BB) in u and v.  An input
    flip only exchanges the two permuted metrics' correlations of that input."""
    m, n = A.shape
    valid = (~np.isnan(A) & ~np.isnan(Z)).T  # (n, m)
    pair = (valid[:, :, None] & valid[:, None, :]).astype(np.float64)
    a, b, z = (np.where(valid, x.T, 0.0) for x in (A, B, Z))

    def signs(x, y):
        return np.sign(x[:, :, None] - y[:, None, :]) * pair

    sz = signs(z, z)
    nzz = 0.5 * np.abs(sz).sum(axis=(1, 2))  # (n,)
    blocks = {k: signs(x, y) for k, (x, y) in {"AA": (a, a), "AB": (a, b), "BA": (b, a), "BB": (b, b)}.items()}
    num = {k: s * sz for k, s in blocks.items()}
    ties = {k: np.abs(s) for k, s in blocks.items()}
    samples = np.empty(len(rows))
    step = max(1, _CHUNK_CELLS // max(1, n * m))
    for start in range(0, len(rows), step):
        v = rows[start:start + step].astype(np.float64)
        u = 1.0 - v
        flip = cols[start:start + step]
        forms = {}
        for name, mats in (("num", num), ("nz", ties)):
            for k, M in mats.items():
                forms[name, k, "uu"] = _bilinear(u, M, u)
                forms[name, k, "uv"] = _bilinear(u, M, v)
                forms[name, k, "vu"] = _bilinear(v, M, u)
                forms[name, k, "vv"] = _bilinear(v, M, v)

        def tau(first, second):
            # A' takes `first` where u = 1 and `second` where v = 1
            pick = {"uu": first + first, "uv": first + second, "vu": second + first, "vv": second + second}
            s = 0.5 * sum(forms["num", k, uv] for uv, k in pick.items())
            nzx = 0.5 * sum(forms["nz", k, uv] for uv, k in pick.items())
            with np.errstate(invalid="ignore", divide="ignore"):
                r = np.clip(s / np.sqrt(nzx) / np.sqrt(nzz), -1.0, 1.0)
            return np.where((nzx == 0) | (nzz == 0), np.nan, r)

        ra, rb = tau("A", "B"), tau("B", "A")
        pa, pb = np.where(flip, rb, ra), np.where(flip, ra, rb)
        samples[start:start + step] = _nanmean(pa, 1) - _nanmean(pb, 1)
    return samples


def _williams(A, B, Z, level, coefficient, alternative):
    from scipy.stats import t
    # as WMT's scripts and nlpstats: the absolute correlations (the sign of agreement is irrelevant)
    r12 = abs(_levels(A[None], Z[None], level, coefficient)[0])
    r13 = abs(_levels(B[None], Z[None], level, coefficient)[0])
    r23 = abs(_levels(A[None], B[None], level, coefficient)[0])
    n = _sample_size(A, level)
    if n <= 3:
        return math.nan
    det = 1 - r12 ** 2 - r23 ** 2 - r13 ** 2 + 2 * r12 * r23 * r13
    av = (r12 + r13) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        t2 = (r12 - r13) * np.sqrt((n - 1) * (1 + r23) / ((2 * (n - 1) / (n - 3)) * det + av ** 2 * (1 - r23) ** 3))
    if alternative == "two-sided":
        return float(t.sf(abs(t2), n - 3) * 2)
    return float(t.sf(t2 if alternative == "greater" else -t2, n - 3))
