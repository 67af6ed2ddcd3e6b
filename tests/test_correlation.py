"""rouge_full_metric.correlation against nlpstats (Deutsch et al.'s reference) and known answers."""
import json
import os
import warnings

import numpy as np
import pytest

from rouge_full_metric import correlation as C

nlpstats = pytest.importorskip("nlpstats.correlations")

META = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "meta-eval")
NL_LEVEL = {"summary": "input", "system": "system", "global": "global"}


def _matrices(rng, trial):
    """Systems x inputs pairs with NaNs (same cells in both), ties, constant rows and columns."""
    m, n = int(rng.integers(2, 12)), int(rng.integers(2, 15))
    if trial % 2:
        x = rng.integers(0, 5, (m, n)).astype(float)
    else:
        x = rng.random((m, n))
    z = rng.integers(0, 4, (m, n)).astype(float) if trial % 4 < 2 else rng.random((m, n))
    if trial % 3 == 0:
        z[0] = 2.0  # a constant row
    if trial % 5 == 0:
        x[:, 0] = 0.5  # a constant column: its summary-level correlation is undefined, skipped
    missing = rng.random((m, n)) < 0.15
    x[missing] = np.nan
    z[missing] = np.nan
    return x, z


def _nlp(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kw)
        except ValueError:  # nlpstats refuses (e.g. an all-NaN column); not a comparison
            return None


def test_coefficients_equal_nlpstats_at_every_level():
    rng = np.random.default_rng(20)
    compared, worst, undefined = 0, 0.0, 0
    for trial in range(250):
        x, z = _matrices(rng, trial)
        for level in C.LEVELS:
            for coefficient in ("pearson", "spearman", "kendall"):
                ref = _nlp(nlpstats.correlate, x, z, NL_LEVEL[level], coefficient)
                if ref is None:
                    continue
                got = C.correlate(x, z, level, coefficient)
                assert np.isnan(got) == np.isnan(ref), (trial, level, coefficient, got, ref)
                if np.isnan(ref):
                    undefined += 1
                    continue
                worst = max(worst, abs(got - ref))
                compared += 1
    assert worst <= 1e-12 and compared > 2000 and undefined > 10, (worst, compared, undefined)


def test_kendall_c_equals_scipy():
    from scipy.stats import kendalltau
    rng = np.random.default_rng(3)
    for trial in range(200):
        x, z = _matrices(rng, trial)
        v = ~np.isnan(x) & ~np.isnan(z)
        ref = kendalltau(x[v], z[v], variant="c")[0]
        got = C.correlate(x, z, "global", "kendall-c")
        assert (np.isnan(ref) and np.isnan(got)) or abs(got - ref) <= 1e-12
        xs, zs = np.nanmean(x, 1), np.nanmean(z, 1)
        ref = kendalltau(xs, zs, variant="c")[0]
        got = C.correlate(x, z, "system", "kendall-c")
        assert (np.isnan(ref) and np.isnan(got)) or abs(got - ref) <= 1e-12


def test_long_vectors_take_the_sorted_kendall_path():
    from scipy.stats import kendalltau
    rng = np.random.default_rng(4)
    x, z = rng.integers(0, 9, (20, 30)).astype(float), rng.random((20, 30))
    assert x.size > C._PAIRWISE_MAX
    assert abs(C.correlate(x, z, "global") - kendalltau(x.ravel(), z.ravel())[0]) <= 1e-12


@pytest.mark.parametrize("level", C.LEVELS)
@pytest.mark.parametrize("coefficient", ("pearson", "spearman", "kendall", "kendall-c"))
@pytest.mark.parametrize("scheme", ("systems", "inputs", "both"))
def test_vectorized_resamples_equal_the_resampled_matrices(level, coefficient, scheme):
    """Every fast path (chunked gathers, the weighted summary-level Kendall/Spearman) gives what
    correlate() gives on each explicitly resampled matrix."""
    rng = np.random.default_rng(5)
    x, z = rng.random((9, 12)), np.round(rng.random((9, 12)), 1)
    x[2, 3] = z[2, 3] = np.nan
    z[:, 4] = 0.3
    got = C._bootstrap_samples([x, z], level, coefficient, scheme, 60, 11)[0]
    rows, cols = C._bootstrap_indices(np.random.default_rng(11), scheme, 9, 12, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.array([C.correlate(x[r][:, c], z[r][:, c], level, coefficient) for r, c in zip(rows, cols)])
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.nanmax(np.abs(got - want)) <= 1e-12


def _data(seed, m=8, n=12):
    rng = np.random.default_rng(seed)
    z = rng.random((m, n))
    return z + 0.8 * rng.random((m, n)), z + 1.2 * rng.random((m, n)), z


@pytest.mark.parametrize("level,scheme", [("system", "systems"), ("system", "both"), ("summary", "inputs"),
                                          ("summary", "both"), ("global", "both")])
def test_bootstrap_interval_agrees_with_nlpstats_within_monte_carlo_error(level, scheme):
    x, _, z = _data(1)
    np.random.seed(0)
    ref = _nlp(nlpstats.bootstrap, x, z, NL_LEVEL[level], "kendall", scheme, n_resamples=400)
    ours = C._bootstrap_samples([x, z], level, "kendall", scheme, 4000, 0)[0]
    ci = C.confidence_interval(x, z, level, "kendall", "bootstrap-" + scheme, n_resamples=4000)
    sd = np.nanstd(ours)
    # the 2.5th/97.5th percentiles of 400 draws have a standard error of about 0.13 sd (normal
    # approximation), 4,000 draws 0.04 sd: 4 standard errors; the mean's error is sd / 20
    assert abs(ci.low - ref.lower) < 0.55 * sd and abs(ci.high - ref.upper) < 0.55 * sd, (ci, ref, sd)
    assert abs(np.nanmean(ours) - np.mean(ref.samples)) < 0.2 * sd


@pytest.mark.parametrize("level,scheme", [("system", "systems"), ("summary", "inputs"), ("summary", "both"),
                                          ("global", "both")])
def test_permutation_p_agrees_with_nlpstats_within_monte_carlo_error(level, scheme):
    rng = np.random.default_rng(2)
    z = rng.random((10, 6))
    x, y = z + rng.random((10, 6)), z + 1.3 * rng.random((10, 6))
    np.random.seed(0)
    ref = _nlp(nlpstats.permutation_test, x, y, z, NL_LEVEL[level], "kendall", scheme,
               alternative="greater", n_resamples=400)
    got = C.compare(x, y, z, level, "kendall", "permutation-" + scheme, n_resamples=4000)
    # binomial standard errors of both estimates, five of them
    se = np.sqrt(ref.pvalue * (1 - ref.pvalue) / 400 + got.p * (1 - got.p) / 4000) + 1e-3
    assert abs(got.p - ref.pvalue) < 5 * se, (got, ref.pvalue)
    assert 0.02 < ref.pvalue < 0.98  # a test the data does not decide trivially


@pytest.mark.parametrize("level", C.LEVELS)
@pytest.mark.parametrize("coefficient", ("pearson", "spearman", "kendall"))
def test_fisher_and_williams_equal_nlpstats(level, coefficient):
    x, y, z = _data(3, 12, 9)
    x[1, 2] = y[1, 2] = z[1, 2] = np.nan
    ref = _nlp(nlpstats.fisher, x, z, NL_LEVEL[level], coefficient)
    got = C.confidence_interval(x, z, level, coefficient, "fisher")
    assert abs(got.low - ref.lower) <= 1e-12 and abs(got.high - ref.upper) <= 1e-12
    for alternative in ("greater", "less", "two-sided"):
        ref = _nlp(nlpstats.williams_test, x, y, z, NL_LEVEL[level], coefficient, alternative)
        got = C.compare(x, y, z, level, coefficient, "williams", alternative)
        assert abs(got.p - ref.pvalue) <= 1e-12


def test_paired_bootstrap_finds_the_better_metric_and_is_seeded():
    x, y, z = _data(4, 20, 30)
    a = C.compare(x, y, z, "summary", "kendall", "bootstrap-both", seed=7)
    assert a.delta > 0 and a.p < 0.01 and a.low < a.delta < a.high
    assert C.compare(x, y, z, "summary", "kendall", "bootstrap-both", seed=7) == a
    assert C.compare(x, y, z, "summary", "kendall", "bootstrap-both", seed=8) != a
    reverse = C.compare(y, x, z, "summary", "kendall", "bootstrap-both", seed=7)
    assert reverse.p > 0.99 and abs(reverse.delta + a.delta) < 1e-12
    two = C.compare(x, y, z, "summary", "kendall", "bootstrap-both", "two-sided", seed=7)
    assert two.p == min(1.0, 2 * a.p)


def test_resample_count_and_determinism():
    x, _, z = _data(5, 20, 30)
    a = C.confidence_interval(x, z, "system", "kendall", "bootstrap-both", n_resamples=9999, seed=1)
    assert a == C.confidence_interval(x, z, "system", "kendall", "bootstrap-both", n_resamples=9999, seed=1)
    assert a != C.confidence_interval(x, z, "system", "kendall", "bootstrap-both", n_resamples=9999, seed=2)
    # chunking does not change the numbers
    old = C._CHUNK_CELLS
    try:
        C._CHUNK_CELLS = 500
        assert a == C.confidence_interval(x, z, "system", "kendall", "bootstrap-both", n_resamples=9999, seed=1)
    finally:
        C._CHUNK_CELLS = old


@pytest.mark.parametrize("call,message", [
    (lambda x: C.correlate(x, x, "document"), "level: expected"),
    (lambda x: C.correlate(x, x, "system", "tau"), "coefficient: expected"),
    (lambda x: C.correlate(x, x[:, :3], "summary"), "different numbers of inputs"),
    (lambda x: C.correlate(x[:2], x, "system"), "different numbers of systems"),
    (lambda x: C.confidence_interval(x, x, method="jackknife"), "method: expected"),
    (lambda x: C.confidence_interval(x, x, n_resamples=0), "n_resamples: expected"),
    (lambda x: C.confidence_interval(x, x, confidence=95), "confidence: expected"),
    (lambda x: C.compare(x, x, x, alternative="bigger"), "alternative: expected"),
    (lambda x: C.compare(x, x[:, :2], x), "metric_b: shape"),
    (lambda x: C.correlate(x * np.inf, x), "metric: infinite"),
])
def test_errors_name_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call(np.arange(20.0).reshape(4, 5) + 1)


def _fabbri():
    rows = {}
    for name in ("fabbri2020-rouge.jsonl", "fabbri2020-relevance.jsonl"):
        path = os.path.join(META, name)
        if not os.path.exists(path):
            pytest.skip("needs ../shared/meta-eval")
        with open(path) as f:
            for line in f:
                d = json.loads(line)
                cell = rows.setdefault((d["summarizer_id"], d["instance_id"]), {})
                for group, values in d["metrics"].items():
                    for key, v in values.items():
                        cell[group + "." + key] = np.mean(v)
    systems, inputs = sorted({s for s, _ in rows}), sorted({i for _, i in rows})
    return lambda f: np.array([[rows[s, i][f] for i in inputs] for s in systems])


# sacrerouge doc/datasets/fabbri2020.md: summary r/p/k, system r/p/k
FABBRI = {
    "rouge-1.precision": (.13, .12, .09, .29, .15, .03),
    "rouge-1.recall": (.31, .28, .23, .55, .56, .42),
    "rouge-1.f1": (.28, .26, .20, .61, .62, .50),
    "rouge-2.precision": (.15, .13, .09, .49, .41, .25),
    "rouge-2.recall": (.26, .23, .18, .65, .78, .57),
    "rouge-2.f1": (.23, .19, .14, .64, .60, .43),
}


def test_fabbri_known_answers():
    matrix = _fabbri()
    human = matrix("expert.relevance")
    assert human.shape == (16, 100)
    for field, expected in FABBRI.items():
        got = tuple(round(C.correlate(matrix(field), human, level, coefficient), 2)
                    for level in ("summary", "system") for coefficient in ("pearson", "spearman", "kendall"))
        assert got == expected, field


def test_permutation_fast_summary_kendall_equals_the_permuted_matrices():
    rng = np.random.default_rng(6)
    z = np.round(rng.random((11, 14)), 1)
    a, b = np.round(z + rng.random((11, 14)), 1), z + 1.3 * rng.random((11, 14))
    z[:, 5] = 1.0  # an undefined input
    a[2, 3] = b[2, 3] = z[2, 3] = np.nan
    A, B, Z = C._standardize(a), C._standardize(b), C._standardize(z)
    g = np.random.default_rng(3)
    rows, cols = g.random((200, 11)) < 0.5, g.random((200, 14)) < 0.5
    fast = C._permuted_summary_kendall(A, B, Z, rows, cols)
    slow = C._permuted(A, B, Z, rows, cols, "summary", "kendall")
    assert np.array_equal(np.isnan(fast), np.isnan(slow)) and np.nanmax(np.abs(fast - slow)) <= 1e-12


@pytest.mark.parametrize("coefficient", ("pearson", "spearman", "kendall", "kendall-c"))
def test_permutation_fast_system_level_equals_the_permuted_matrices(coefficient):
    rng = np.random.default_rng(7)
    z = rng.random((11, 14))
    a, b = z + rng.random((11, 14)), z + 1.3 * rng.random((11, 14))
    a[2, 3] = b[2, 3] = z[2, 3] = np.nan
    A, B, Z = C._standardize(a), C._standardize(b), C._standardize(z)
    g = np.random.default_rng(3)
    rows, cols = g.random((200, 11)) < 0.5, g.random((200, 14)) < 0.5
    fast = C._permuted_system(A, B, Z, rows, cols, coefficient)
    slow = C._permuted(A, B, Z, rows, cols, "system", coefficient)
    assert np.nanmax(np.abs(fast - slow)) <= 1e-12
