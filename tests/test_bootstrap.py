"""The Perl's bootstrap: drand48 seeds 0..R-1, string-sorted keys, interpolation quirks (spec §12)."""
import pytest

from rouge_full_metric.bootstrap import drand48_sequence, interval, intervals, perl_bootstrap, replicate_sums

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


def test_intervals_of_all_columns_equal_interval_of_each():
    # intervals() sorts and sums every column at once; its running sum must add left to right as
    # interval()'s loop does (np.sum's pairwise sum differs in the last bits from 9 values on)
    import numpy as np

    rng = np.random.default_rng(7)
    for t in range(400):
        rows = int(rng.integers(1, 40)) if t % 2 else int(rng.integers(100, 2500))
        table = rng.random((rows, 1 + t % 13))
        if t % 4 == 1:
            table = np.round(table, 2)                          # ties
        if t % 4 == 3 and rows > 1:
            table[int(rng.integers(0, rows)), 0] = np.nan        # that column through interval()
        confidence = (95, 90, 50, 100, 0, 97.5)[t % 6]
        got = intervals(table, confidence)
        for k, iv in enumerate(got):
            assert all(type(x) is float for x in iv)
            assert repr(iv) == repr(interval(table[:, k], confidence)), (t, k)


# --- the compiled kernels (csrc/bootstrap.c scalar, csrc/bootstrap_simd.c AVX2 / AVX-512) ----
# Each level the CPU has runs against bootstrap.py bit for bit: the vector lanes must do the
# scalar operations in the same order, on every shape the blocking (8 replicates, 6 or 16
# columns, an 8-step prefetch ring, 256-row count chunks) cuts unevenly.

def _core():
    from rouge_full_metric import compiled

    if not compiled.AVAILABLE:
        pytest.skip(compiled.unavailable_reason())
    return compiled.core


@pytest.fixture
def simd_levels():
    """The kernel levels to compare (0 scalar, 1 AVX2, 2 AVX-512, 3 AVX-512 with IFMA, as far as
    the CPU goes); the hooks are restored afterwards."""
    core = _core()
    allowed, limit, supported, pack_min, _ = core._bootstrap_hooks(-1, -1)
    yield core, list(range(supported + 1))
    core._bootstrap_hooks(allowed, limit, pack_min)


def _compiled(core, name, values, n_bootstrap):
    import numpy as np

    values = np.ascontiguousarray(values, dtype=np.float64)
    out = np.full((n_bootstrap, values.shape[1]), -7.0)   # every cell must be written
    done = getattr(core, name)(values, values.shape[0], values.shape[1], out, n_bootstrap)
    return out, done


def _same_bits(a, b):
    import numpy as np

    return a.shape == b.shape and bool((np.isnan(a) == np.isnan(b)).all()) and \
        bool((a[~np.isnan(a)].view(np.int64) == b[~np.isnan(b)].view(np.int64)).all())


SHAPES = [(1, 1, 1), (1, 12, 1000), (2, 3, 9), (2, 12, 17), (3, 6, 8), (5, 1, 7), (7, 5, 33),
          (8, 16, 16), (9, 17, 3), (16, 4, 25), (31, 8, 9), (64, 12, 40), (255, 13, 10),
          (256, 7, 11), (257, 12, 24), (1000, 33, 9), (3001, 12, 19), (20000, 12, 16)]


@pytest.mark.parametrize("n, k, r", SHAPES)
def test_compiled_sums_equal_python_bit_for_bit_at_every_level(simd_levels, n, k, r):
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    rng = np.random.default_rng(n * 1000 + k * 10 + r)
    values = rng.random((n, k))
    values[:, ::3] = np.round(values[:, ::3], 5)          # the Perl's 5-decimal values
    values[:, 1::4] *= -1e3                               # signs and magnitudes
    exact, counted = bootstrap.replicate_sums(values, r), bootstrap.count_sums(values, r)
    for level in levels:
        core._bootstrap_hooks(level, -1)
        got, _ = _compiled(core, "replicate_sums", values, r)
        assert _same_bits(got, exact), (level, n, k, r)
        got, done = _compiled(core, "count_sums", values, r)
        assert done is True and _same_bits(got, counted), (level, n, k, r)


def test_compiled_sums_equal_python_on_random_shapes(simd_levels):
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    rng = np.random.default_rng(11)
    for _ in range(300):
        n, k, r = int(rng.integers(1, 600)), int(rng.integers(1, 21)), int(rng.integers(1, 41))
        values = rng.standard_normal((n, k)) * 10.0 ** rng.integers(-3, 4)
        exact, counted = bootstrap.replicate_sums(values, r), bootstrap.count_sums(values, r)
        for level in levels:
            core._bootstrap_hooks(level, -1)
            assert _same_bits(_compiled(core, "replicate_sums", values, r)[0], exact), (level, n, k, r)
            assert _same_bits(_compiled(core, "count_sums", values, r)[0], counted), (level, n, k, r)


def test_sums_at_every_width(simd_levels):
    # Every column count 1..40 (passes of 16 columns, then rows of 4, 8, 12 or 16; the AVX-512
    # kernel's 12-column rows as 8 + 4-column tables and as one table, near and far prefetches;
    # count_sums' AVX-512 tiles of 4, 8, 12 or 16 columns, several of them past 16) on few rows,
    # row counts that are no multiple of 8 (the counts' tail rows), replicate counts that are no
    # multiple of 8.
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    rng = np.random.default_rng(21)
    for n, r in ((1, 3), (9, 13), (37, 11), (300, 21)):
        values = rng.standard_normal((n, 40)) * 10.0 ** rng.integers(-3, 4, size=40)
        exact = bootstrap.replicate_sums(values, r)   # columns are summed independently
        counted = bootstrap.count_sums(values, r)
        for k in range(1, 41):
            for level in levels:
                core._bootstrap_hooks(level, -1)
                got = _compiled(core, "replicate_sums", values[:, :k], r)[0]
                assert _same_bits(got, exact[:, :k]), (level, n, k, r)
                got, done = _compiled(core, "count_sums", values[:, :k], r)
                assert done is True and _same_bits(got, counted[:, :k]), (level, n, k, r)


@pytest.mark.parametrize("n, widths", [
    (70001, (1, 4, 8, 12, 13, 16, 20, 24, 28, 40)),   # > 2**16 rows: split 12-column tables, huge pages
    (131073, (12, 28)),                               # a 4-column table past 4 MB: one 96-byte-row table
])
def test_sums_on_many_rows(simd_levels, n, widths):
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    values = np.random.default_rng(n).random((n, max(widths)))
    values[:, 1::3] *= -1e3
    exact, counted = bootstrap.replicate_sums(values, 11), bootstrap.count_sums(values, 11)
    for k in widths:
        for level in levels:
            core._bootstrap_hooks(level, -1)
            assert _same_bits(_compiled(core, "replicate_sums", values[:, :k], 11)[0], exact[:, :k]), (level, n, k)
            assert _same_bits(_compiled(core, "count_sums", values[:, :k], 11)[0], counted[:, :k]), (level, n, k)


def test_compiled_sums_of_a_range_of_replicates(simd_levels):
    # first: replicates first .. first + R - 1 (threads share the replicates out by ranges), at
    # every level, the packed kernel too, ranges that are no multiple of 8
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    rng = np.random.default_rng(41)
    for n, k, r in ((300, 12, 40), (1000, 7, 19), (997, 24, 33)):
        values = np.round(rng.random((n, k)), 5)
        exact, counted = bootstrap.replicate_sums(values, r), bootstrap.count_sums(values, r)
        for level in levels:
            core._bootstrap_hooks(level, -1, 0)
            for first in (1, 8, 13):
                out = np.full((r - first, k), -7.0)
                core.replicate_sums(values, n, k, out, r - first, first)
                assert _same_bits(out, exact[first:]), (level, n, k, first)
                out = np.full((r - first, k), -7.0)
                assert core.count_sums(values, n, k, out, r - first, first) is True
                assert _same_bits(out, counted[first:]), (level, n, k, first)
    for name in ("replicate_sums", "count_sums"):
        fn = getattr(core, name)
        values, out = bytearray(16), bytearray(8)   # 2 and 1 float64 values
        for first in (-1, 2 ** 31):
            with pytest.raises(ValueError, match="first must be 0"):
                fn(values, 2, 1, out, 1, first)
        with pytest.raises(ValueError, match="values must hold N"):
            fn(values, 3, 1, out, 1)
        with pytest.raises(ValueError, match="values must hold N"):
            fn(values, 2, 1, out, 2)
        # a rejected call holds no buffer: a bytearray whose buffer is held cannot be resized
        values.extend(bytes(8))
        out.extend(bytes(8))


def test_threads_share_the_replicates_bit_for_bit(simd_levels, monkeypatch):
    # n_jobs=2: ranges of replicates on two threads give the numbers of one thread; a range the
    # core declines (the count limit) hands the whole bootstrap to Python, as with one thread.
    import numpy as np

    from rouge_full_metric import RougeScorer, batch, bootstrap, bootstrap_compiled

    core, levels = simd_levels
    monkeypatch.setattr(bootstrap_compiled, "BOOTSTRAP_THREADS_MIN", 0)
    monkeypatch.setattr(batch, "_check_n_jobs", lambda n_jobs: n_jobs)   # two threads on any machine
    values = np.round(np.random.default_rng(42).random((500, 12)), 5)
    exact, counted = bootstrap.replicate_sums(values, 101), bootstrap.count_sums(values, 101)
    for level in levels:
        core._bootstrap_hooks(level, -1, 0)
        assert _same_bits(bootstrap_compiled.replicate_sums(values, 101, n_jobs=2), exact), level
        assert _same_bits(bootstrap_compiled.count_sums(values, 101, n_jobs=2), counted), level
        core._bootstrap_hooks(level, 1)   # every range declines: any row drawn twice
        assert _same_bits(bootstrap_compiled.count_sums(values, 101, n_jobs=2), counted), level
        core._bootstrap_hooks(level, 255)
    seen = []
    real = batch._run_chunks
    monkeypatch.setattr(batch, "_run_chunks", lambda *a, **k: seen.append(a[2]) or real(*a, **k))
    preds = ["a b c d %d" % (k % 7) for k in range(300)]
    refs = ["a c d %d e" % (k % 5) for k in range(300)]
    for flavor in ("rouge155", "rouge_score"):
        scorer = RougeScorer(["rouge1", "rougeL"], flavor=flavor)
        one = scorer.score_corpus(preds, refs, n_bootstrap=200)
        seen.clear()
        two = scorer.score_corpus(preds, refs, n_bootstrap=200, n_jobs=2)
        assert repr(two.aggregate) == repr(one.aggregate), flavor
        assert seen and seen[-1] == [(0, 56), (56, 112), (112, 168), (168, 200)], (flavor, seen)


def test_keys_sort_in_utf8_byte_order():
    # bootstrap.byte_order sorts the keys as strings: the same order as their UTF-8 bytes
    # (surrogatepass), ties in input order, on keys sharing prefixes and mixing every range.
    import random

    from rouge_full_metric.bootstrap import byte_order

    rng = random.Random(5)
    alphabet = ["a", "b", ".", "A", "0", "\x7f", "\x80", "\u00e9", "\u07ff", "\u0800", "\ud7ff", "\ud800",
                "\udbff", "\udc00", "\udfff", "\ue000", "\uffff", "\U00010000", "\U0001F600", "\U0010FFFF"]
    for _ in range(200):
        keys = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(0, 60))]
        expected = sorted(range(len(keys)), key=lambda i: keys[i].encode("utf-8", "surrogatepass"))
        assert byte_order(keys) == expected, keys


def _c_order(core, keys):
    import numpy as np

    out = np.full(len(keys), -1, dtype=np.intp)
    core.byte_order(keys, out)
    return out.tolist()


def test_compiled_byte_order_equals_python():
    # csrc/bootstrap.c's merge sort compares 8-code-point prefixes (code points from 255 up all
    # read as 255) before the keys: long shared prefixes, NULs against shorter keys, every range.
    import random

    from rouge_full_metric.bootstrap import byte_order

    core = _core()
    rng = random.Random(11)
    alphabets = [["a", "b", "\x00", "\xfe", "\xff", "\u0100", "\u0101", "\uffff", "\ud800", "\U0001F600"],
                 ["0", "1", "9", "."], ["x", "\xff", "\u0100"]]
    for trial in range(600):
        alphabet = alphabets[trial % 3]
        stem = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 6, 7, 8, 9, 12])))
        keys = [stem[:rng.randint(0, len(stem))] + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))
                for _ in range(rng.randint(0, 80))]
        assert _c_order(core, keys) == byte_order(keys), keys
    scorer_keys = ["%d.A" % (k + 1) for k in range(12345)]
    shuffled = scorer_keys[:]
    rng.shuffle(shuffled)
    for keys in (scorer_keys, shuffled, scorer_keys[::-1], ["same"] * 50, tuple(scorer_keys[:99])):
        assert _c_order(core, keys) == byte_order(keys)


def test_compiled_byte_order_errors():
    import numpy as np

    core = _core()
    with pytest.raises(TypeError, match="keys must be str, got int at position 1"):
        core.byte_order(["a", 3], np.empty(2, dtype=np.intp))
    with pytest.raises(ValueError, match="len\\(keys\\) intp"):
        core.byte_order(["a", "b"], np.empty(3, dtype=np.intp))
    with pytest.raises(ValueError, match="len\\(keys\\) intp"):
        core.byte_order(["a", "b"], np.empty(2, dtype=np.int32))
    with pytest.raises(TypeError, match="sequence of str"):
        core.byte_order(5, np.empty(0, dtype=np.intp))


def test_compiled_byte_order_without_the_core(monkeypatch):
    from rouge_full_metric import bootstrap_compiled, compiled

    monkeypatch.setattr(compiled, "AVAILABLE", False)
    assert bootstrap_compiled.byte_order(["b", "a", "c", "a"]).tolist() == [1, 3, 0, 2]
    assert bootstrap_compiled.byte_order([]).tolist() == []


def test_non_finite_values_stay_in_their_columns(simd_levels):
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    values = np.random.default_rng(3).random((500, 12))
    values[17, 2] = np.nan
    values[400, 7] = np.inf
    values[3, 11] = -np.inf
    with np.errstate(invalid="ignore"):   # 0 * inf: the count-sums of those columns are NaN
        exact, counted = bootstrap.replicate_sums(values, 50), bootstrap.count_sums(values, 50)
    assert np.isnan(counted[:, 2]).all() and not np.isnan(counted[:, [0, 1, 3, 4, 5, 6, 8, 9, 10]]).any()
    for level in levels:
        core._bootstrap_hooks(level, -1)
        assert _same_bits(_compiled(core, "replicate_sums", values, 50)[0], exact), level
        assert not np.isnan(_compiled(core, "replicate_sums", values, 50)[0][:, [0, 1, 3, 4, 5, 6, 8, 9, 10]]).any()
        assert _same_bits(_compiled(core, "count_sums", values, 50)[0], counted), level


def test_count_sums_declines_past_the_count_limit_and_python_takes_over(simd_levels):
    # A real count past 255 needs one row drawn 256 times (N >= 256 draws): the hook lowers the
    # limit so that the kernels' refusal and bootstrap_compiled.count_sums' fallback are exercised.
    import numpy as np

    from rouge_full_metric import bootstrap, bootstrap_compiled

    core, levels = simd_levels
    values = np.random.default_rng(4).random((40, 5))
    expected = bootstrap.count_sums(values, 30)
    most = max(max(np.bincount([int(u * 40) for u in drand48_sequence(seed, 40)])) for seed in range(30))
    assert most > 2
    for level in levels:
        core._bootstrap_hooks(level, 1)          # any row drawn twice in a replicate
        assert _compiled(core, "count_sums", values, 30)[1] is False, level
        assert _same_bits(bootstrap_compiled.count_sums(values, 30), expected), level
        core._bootstrap_hooks(level, most)       # the limit is inclusive
        assert _compiled(core, "count_sums", values, 30)[1] is True, level
        core._bootstrap_hooks(level, most - 1)
        assert _compiled(core, "count_sums", values, 30)[1] is False, level
        core._bootstrap_hooks(level, 255)
        got, done = _compiled(core, "count_sums", values, 30)
        assert done is True and _same_bits(got, expected), level


def test_bootstrap_hooks_name_their_ranges():
    core = _core()
    with pytest.raises(ValueError, match="simd must be -1..3, count_limit -1..255 and pack_min -1 or more"):
        core._bootstrap_hooks(4, -1)
    with pytest.raises(ValueError, match="count_limit"):
        core._bootstrap_hooks(-1, 256)
    with pytest.raises(ValueError, match="pack_min"):
        core._bootstrap_hooks(-1, -1, -2)


def _packed_blocks(core):
    return core._bootstrap_hooks(-1, -1)[4]


def _packs(level, width):
    """Whether a block of `width` columns of 5-decimal values packs at `level` (past the size):
    the AVX-512 kernels pack blocks of 9-16 columns, AVX2's 9-12."""
    return 9 <= width <= (16 if level >= 2 else 12 if level == 1 else 0)


def _five_decimals(rng, shape, top=1.0):
    """Random 5-decimal numbers in [0, top], as the Perl rounds its scores (k / 10**5 correctly
    rounded: the double nearest it)."""
    return rng.integers(0, int(top * 100000) + 1, size=shape) / 100000.0


def test_perl_order_sums_of_five_decimal_values_packed_bit_for_bit(simd_levels):
    # The vector kernels store 5-decimal values as 32-bit integers (csrc/bootstrap_simd.c's
    # bs_pack5: a 16-column row's all, a 12-column row's first 8) once the table is large; the
    # hook packs at any size here.  Every width 1..40 (column blocks of 9-16 pack with AVX-512,
    # of 9-12 with AVX2), row counts that are no multiple of 8, values up to 20.
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    rng = np.random.default_rng(31)
    for n, r, top in ((1, 3, 1.0), (37, 11, 1.0), (300, 21, 1.0), (1001, 9, 20.0)):
        values = _five_decimals(rng, (n, 40), top)
        values[0, 5] = 0.0
        values[-1, 6] = top
        exact = bootstrap.replicate_sums(values, r)
        for level in levels:
            for pack_min in (0, 1 << 40):
                core._bootstrap_hooks(level, -1, pack_min)
                before = _packed_blocks(core)
                for k in range(1, 41):
                    got = _compiled(core, "replicate_sums", values[:, :k], r)[0]
                    assert _same_bits(got, exact[:, :k]), (level, pack_min, n, k, r)
                # the blocks of 16 columns (the last one narrower) that pack at this level
                blocks = sum(1 for k in range(1, 41) for k0 in range(0, k, 16) if _packs(level, min(16, k - k0)))
                packed = _packed_blocks(core) - before
                assert packed == (blocks if pack_min == 0 else 0), (level, pack_min, n, packed)


def test_five_decimal_packing_declines_other_values(simd_levels):
    # One value that is not the double nearest k / 10**5 (0 <= k <= 2,000,000) in a column kept as
    # k keeps a block on the doubles' kernel; the sums stay the Python ones either way.
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    if 1 not in levels:
        pytest.skip("packing is in the vector kernels only")
    rng = np.random.default_rng(32)
    odds = (np.nextafter(0.12345, 1.0), np.nextafter(0.12345, 0.0), 20.00001, -0.00001, -0.0, np.nan, np.inf, 1e-6,
            0.5 + 2 ** -40)
    for level in [v for v in levels if v >= 1]:
        core._bootstrap_hooks(level, -1, 0)
        # 12 columns keep 0-7 as k (4 checked here, 7 the last); 16 keep all (15 the last)
        for width, column in [wc for wc in ((12, 4), (12, 7), (16, 4), (16, 15)) if _packs(level, wc[0])]:
            base = _five_decimals(rng, (200, width))
            for odd in odds:
                values = base.copy()
                values[123, column] = odd
                before = _packed_blocks(core)
                got = _compiled(core, "replicate_sums", values, 16)[0]
                assert _same_bits(got, bootstrap.replicate_sums(values, 16)), (level, width, column, odd)
                assert _packed_blocks(core) == before, (level, width, column, odd)
            before = _packed_blocks(core)
            values = base.copy()
            values[123, column] = 0.12345
            assert _same_bits(_compiled(core, "replicate_sums", values, 16)[0], bootstrap.replicate_sums(values, 16))
            assert _packed_blocks(core) == before + 1


def test_twelve_columns_pack_with_any_values_in_their_last_four(simd_levels):
    # A block of 9-12 columns keeps its columns 8-11 as doubles beside the others' k: any value
    # there (NaN, -0.0, unrounded) packs, and the sums are the Python ones bit for bit.
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    if 1 not in levels:
        pytest.skip("packing is in the vector kernels only")
    rng = np.random.default_rng(33)
    for level in [v for v in levels if v >= 1]:
        core._bootstrap_hooks(level, -1, 0)
        for width in (9, 12):
            values = _five_decimals(rng, (301, width))
            values[:, 8:] = rng.random((301, width - 8)) * 3 - 1
            values[5, 8] = np.nan
            values[6, width - 1] = -0.0
            values[7, width - 1] = np.inf
            before = _packed_blocks(core)
            got = _compiled(core, "replicate_sums", values, 19)[0]
            assert _packed_blocks(core) == before + 1, (level, width)
            assert _same_bits(got, bootstrap.replicate_sums(values, 19)), (level, width)


def test_every_five_decimal_value_up_to_20_unpacks_exactly(simd_levels):
    # k / 10**5 for every k in 0..2,000,000 (and 15 zeros: 125,001 rows of 16, every column kept
    # as k): the block packs, which the scalar check of every value allows only when bs_unpack5's
    # operations give that very double, and the vector unpacking, the same operations, sums as
    # Python does (8 replicates, which draw nearly every row).
    import numpy as np

    from rouge_full_metric import bootstrap

    core, levels = simd_levels
    if 1 not in levels:
        pytest.skip("packing is in the vector kernels only")
    k = np.concatenate([np.arange(2000001), np.zeros(15)])
    # AVX-512 packs rows of 16 (all k); AVX2 rows of 12 only, whose first 8 are k (the other 4:
    # zeros here)
    wide = k.reshape(-1, 16) / 100000.0
    twelve = np.concatenate([k.reshape(-1, 8), np.zeros((len(k) // 8, 4))], axis=1) / 100000.0
    for values in (wide, twelve):
        expected = bootstrap.replicate_sums(values, 8)
        for level in [v for v in levels if _packs(v, values.shape[1])]:
            core._bootstrap_hooks(level, -1, -1)   # the real thresholds: 125,001 x 16 and 250,002 x 12 are past them
            before = _packed_blocks(core)
            got = _compiled(core, "replicate_sums", values, 8)[0]
            assert _packed_blocks(core) == before + 1, (level, values.shape)
            assert _same_bits(got, expected), (level, values.shape)
