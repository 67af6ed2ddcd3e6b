"""The Perl's bootstrap: drand48 seeds 0..R-1, string-sorted keys, interpolation quirks (spec §12)."""
import pytest

from rouge_full_metric.bootstrap import drand48_sequence, interval, perl_bootstrap, replicate_sums

THREE = [[1.0], [0.0], [0.5]]          # X19: per-summary recall of 3 evals
KEYS = ["1.A", "2.A", "3.A"]


def test_drand48_first_draws_and_indices():
    assert drand48_sequence(0, 1)[0] == 0.17082803610628972
    assert [[int(u * 3) for u in drand48_sequence(s, 3)] for s in range(3)] == [[0, 2, 0], [0, 1, 2], [2, 0, 1]]


def test_vectorised_draws_equal_the_scalar_generator():
    values = [[float(k)] for k in range(7)]
    sums = replicate_sums(values, 5)
    for seed in range(5):
        expected = 0.0
        for u in drand48_sequence(seed, 7):
            expected += int(u * 7)
        assert sums[seed][0] == expected


@pytest.mark.parametrize("n_bootstrap, confidence, expected", [
    (1000, 95, (0.50067, 0.0, 1.0)),         # X19: not the plain mean 0.5
    (100, 95, (0.50333, 0.0, 0.91667)),      # X19b: phi = 0.5 interpolation
    (1, 95, (0.83333, 0.85417, 0.85417)),    # X-r1: a "CI" above the mean
    (1000, 0, (0.50067, 0.5, 0.5)),          # X-c0
    (1000, 100, (0.50067, 0.0, 1.0)),        # X-c100: s[R] reads as 0 with phi = 0
])
def test_perl_averages_and_bounds(n_bootstrap, confidence, expected):
    iv = perl_bootstrap(THREE, KEYS, n_bootstrap, confidence)[0]
    assert (round(iv.mean, 5), round(iv.low, 5), round(iv.high, 5)) == expected


def test_keys_are_sorted_as_strings():
    # The Perl resamples "1.A", "10.A", "11.A", "12.A", "2.A", ... in byte order.
    values = [[k / 10] for k in range(12)]
    keys = ["%d.A" % (k + 1) for k in range(12)]
    by_string = sorted(range(12), key=lambda k: keys[k])
    padded = ["%02d.A" % k for k in range(12)]          # string order == list order
    got = perl_bootstrap(values, keys, 50)[0]
    assert got == perl_bootstrap([values[k] for k in by_string], padded, 50)[0]
    assert got != perl_bootstrap(values, padded, 50)[0]   # numeric order gives other numbers


def test_bad_replicate_count():
    with pytest.raises(ValueError, match="n_bootstrap"):
        perl_bootstrap(THREE, KEYS, 0)


def test_interval_reads_past_the_end_as_zero():
    assert interval([0.5, 0.7], 100).high == 0.7
