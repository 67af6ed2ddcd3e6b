"""``rouge-full compare``: paired bootstrap and approximate randomization, checked three ways:
against a plain-Python re-computation (bit for bit), on systems that differ only by noise (no
significance), and on a clearly better system (significant)."""
import io
import json
import math
import random

import pytest

from rouge_full_metric import cli
from rouge_full_metric.bootstrap import drand48_sequence
from rouge_full_metric.cli.compare import (approximate_randomization, compare_systems, paired_bootstrap,
                                       sample_seed)


def plain_bootstrap(a, b, n_samples, seed, confidence):
    """The paired bootstrap of rouge_full_metric.cli.compare, written as plain loops."""
    d = [y - x for x, y in zip(a, b)]
    n = len(d)
    total = 0.0
    for x in d:
        total += x
    delta = total / n
    means = []
    for r in range(n_samples):
        s = 0.0
        for u in drand48_sequence(sample_seed(seed, r), n):
            s += d[int(u * n)]
        means.append(s / n)
    centre = 0.0
    for m in means:
        centre += m
    centre /= n_samples
    extreme = sum(1 for m in means if abs(m - centre) >= abs(delta))
    ordered = sorted(means)
    k = min(int(math.floor(n_samples * (100 - confidence) / 200.0)), n_samples - 1)
    return delta, ordered[k], ordered[n_samples - 1 - k], (1 + extreme) / (n_samples + 1)


def plain_randomization(a, b, n_trials, seed):
    d = [y - x for x, y in zip(a, b)]
    n = len(d)
    total = 0.0
    for x in d:
        total += x
    delta = total / n
    extreme = 0
    for t in range(n_trials):
        s = 0.0
        for x, u in zip(d, drand48_sequence(sample_seed(seed, t), n)):
            s += -x if u < 0.5 else x
        if abs(s / n) >= abs(delta):
            extreme += 1
    return (1 + extreme) / (n_trials + 1)


@pytest.mark.parametrize("seed, n_samples, confidence", [(12345, 300, 95), (7, 101, 90), (0, 50, 99)])
def test_matches_plain_python(seed, n_samples, confidence):
    rng = random.Random(seed)
    a = [round(rng.random(), 5) for _ in range(57)]
    b = [round(min(1.0, x + rng.gauss(0.01, 0.05)), 5) for x in a]
    res = paired_bootstrap(a, b, n_samples, seed, confidence)
    assert tuple(res) == plain_bootstrap(a, b, n_samples, seed, confidence)
    assert approximate_randomization(a, b, n_samples, seed) == plain_randomization(a, b, n_samples, seed)


def test_deterministic_and_seeded():
    rng = random.Random(3)
    a = [rng.random() for _ in range(40)]
    b = [x + rng.gauss(0, 0.1) for x in a]
    assert paired_bootstrap(a, b, 200, 1) == paired_bootstrap(a, b, 200, 1)
    assert paired_bootstrap(a, b, 200, 1) != paired_bootstrap(a, b, 200, 2)


def test_argument_errors():
    with pytest.raises(ValueError, match="same examples"):
        paired_bootstrap([0.1], [0.1, 0.2])
    with pytest.raises(ValueError, match="n_trials"):
        approximate_randomization([0.1], [0.2], n_trials=0)
    with pytest.raises(ValueError, match="measure"):
        compare_systems([], [], ["rouge1"], measure="accuracy")


# ------------------------------------------------------------------ end to end on texts

WORDS = ("the police killed gunman arrested court judge ruled election vote market price rose fell "
         "year minister said new government economy spain london general extradition").split()


@pytest.fixture(scope="module")
def systems(tmp_path_factory):
    rng = random.Random(2024)
    root = tmp_path_factory.mktemp("compare")
    refs, noise_a, noise_b, better = [], [], [], []
    for _ in range(200):
        ref = [rng.choice(WORDS) for _ in range(rng.randint(12, 25))]
        refs.append(" ".join(ref))

        def noisy(keep):
            return " ".join(w if rng.random() < keep else rng.choice(WORDS) for w in ref)
        noise_a.append(noisy(0.6))
        noise_b.append(noisy(0.6))
        better.append(noisy(0.75))
    paths = {}
    for name, lines in [("ref", refs), ("a", noise_a), ("b", noise_b), ("better", better)]:
        paths[name] = root / (name + ".txt")
        paths[name].write_text("\n".join(lines) + "\n")
    return {k: str(v) for k, v in paths.items()}


def run_compare(systems, *extra):
    out, err = io.BytesIO(), io.StringIO()
    status = cli.main(["compare", "--baseline", systems["a"], "--systems", systems["b"], systems["better"],
                       "--references", systems["ref"], "--rouge-types", "rouge1", "rouge2", "rougeLsum",
                       "--format", "json", "--quiet"] + list(extra), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_noise_is_not_significant_and_better_is(systems):
    report = run_compare(systems)
    noise, better = report["systems"]
    assert noise["system"] == systems["b"] and better["system"] == systems["better"]
    for row in noise["comparisons"]:
        assert not row["significant"], row
        assert row["p_bootstrap"] > 0.05 and row["p_randomization"] > 0.05
        assert row["low"] < 0 < row["high"]
    for row in better["comparisons"]:
        assert row["significant"], row
        assert row["delta"] > 0.05 and row["low"] > 0
        assert row["p_bootstrap"] < 0.01 and row["p_randomization"] < 0.01
    assert "test:bootstrap+randomization/1000/seed12345" in report["signature"]


def test_cli_numbers_are_the_library_numbers(systems):
    from rouge_full_metric import RougeScorer

    report = run_compare(systems, "--n-samples", "200", "--seed", "9", "--measure", "recall")
    scorer = RougeScorer(["rouge1", "rouge2", "rougeLsum"])
    lines = {k: open(systems[k]).read().splitlines() for k in ("ref", "a", "better")}
    base = scorer.score_corpus(lines["a"], lines["ref"]).per_example
    other = scorer.score_corpus(lines["better"], lines["ref"]).per_example
    rows = compare_systems(base, other, scorer.rouge_types, "recall", n_samples=200, seed=9)
    got = report["systems"][1]["comparisons"]
    for row, want in zip(got, rows):
        row.pop("significant")
        # reports print 15 significant digits (no binary noise, issue 12)
        assert row == {k: float("%.15g" % v) if isinstance(v, float) else v for k, v in want._asdict().items()}


def test_table_and_determinism(systems):
    def table():
        out, err = io.BytesIO(), io.StringIO()
        status = cli.main(["compare", "-b", systems["a"], "-s", systems["better"], "-r", systems["ref"],
                           "--rouge-types", "rouge1", "--method", "randomization", "--n-samples", "99", "-q"],
                          stdout=out, stderr=err)
        assert status == 0, err.getvalue()
        return out.getvalue().decode()
    first = table()
    assert first == table()
    assert "rouge1" in first and "yes" in first and "signature: flavor:rouge155" in first
    assert "test:randomization/99/seed12345" in first


def test_mismatched_system_named(systems, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one line\n")
    err = io.StringIO()
    status = cli.main(["compare", "-b", systems["a"], "-s", str(short), "-r", systems["ref"], "-q"],
                      stdout=io.BytesIO(), stderr=err)
    assert status == 2 and "--systems" in err.getvalue()


# ------------------------------------------------------------------ undefined (NaN) scores, flavor matlab

def _no_nan(constant):
    raise AssertionError("bare %s in JSON output" % constant)


@pytest.fixture(scope="module")
def matlab_systems(tmp_path_factory):
    # example 3's reference has one word: its MATLAB ROUGE-2 is NaN (nothing to count)
    rng = random.Random(8)
    root = tmp_path_factory.mktemp("matlab_nan")
    refs = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 15))) for _ in range(30)]
    refs[3] = "election"
    base = [" ".join(w if rng.random() < 0.6 else rng.choice(WORDS) for w in r.split()) for r in refs]
    paths = {}
    for name, lines in [("ref", refs), ("a", base), ("same", base)]:
        paths[name] = root / (name + ".txt")
        paths[name].write_text("\n".join(lines) + "\n")
    return {k: str(v) for k, v in paths.items()}


def test_nan_example_is_omitted_and_identical_system_is_not_significant(matlab_systems):
    from rouge_full_metric import RougeScorer
    from rouge_full_metric.undefined import UndefinedScoreWarning

    lines = {k: open(matlab_systems[k]).read().splitlines() for k in ("ref", "a")}
    scorer = RougeScorer(["rouge1", "rouge2"], flavor="matlab")
    with pytest.warns(UndefinedScoreWarning):
        per = scorer.score_corpus(lines["a"], lines["ref"]).per_example
    assert math.isnan(per[3]["rouge2"].fmeasure)
    with pytest.warns(UndefinedScoreWarning, match="rouge2: 1 of 30 examples"):
        rows = compare_systems(per, per, scorer.rouge_types, n_samples=200)
    for row in rows:
        assert row.delta == 0.0 and row.p_bootstrap == 1.0 and row.p_randomization == 1.0, row
        assert not math.isnan(row.baseline)
    assert [r.n_omitted for r in rows] == [0, 1]
    # the omitted example does not change the other examples' comparison
    kept = [p for k, p in enumerate(per) if k != 3]
    assert compare_systems(kept, kept, ["rouge2"], n_samples=200)[0][:9] == rows[1][:9]
    # the low-level tests refuse NaN rather than print a false p-value
    with pytest.raises(ValueError, match=r"a\[1\] is NaN"):
        paired_bootstrap([0.1, math.nan], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"b\[0\] is NaN"):
        approximate_randomization([0.1, 0.2], [math.nan, 0.2])


def test_every_example_nan_gives_no_test():
    from rouge_full_metric.scoring import Score

    from rouge_full_metric.undefined import UndefinedScoreWarning

    nan = Score(math.nan, math.nan, math.nan)
    with pytest.warns(UndefinedScoreWarning, match="rouge2: 1 of 1 examples"):
        row = compare_systems([{"rouge2": nan}], [{"rouge2": nan}], ["rouge2"], n_samples=10)[0]
    assert math.isnan(row.delta) and row.p_bootstrap is None and row.p_randomization is None
    assert row.n_omitted == 1


def test_cli_compare_matlab_nan_is_not_significant_and_json_is_valid(matlab_systems):
    out, err = io.BytesIO(), io.StringIO()
    status = cli.main(["compare", "-b", matlab_systems["a"], "-s", matlab_systems["same"], "-r", matlab_systems["ref"],
                       "--flavor", "matlab", "--rouge-types", "rouge1", "rouge2", "--n-samples", "200",
                       "--format", "json", "-q"], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    report = json.loads(out.getvalue(), parse_constant=_no_nan)
    rows = report["systems"][0]["comparisons"]
    assert [r["significant"] for r in rows] == [False, False]
    assert [r["n_omitted"] for r in rows] == [0, 1]
    assert "rouge2: 1 of 30 examples" in err.getvalue()
    out = io.BytesIO()
    assert cli.main(["compare", "-b", matlab_systems["a"], "-s", matlab_systems["same"], "-r", matlab_systems["ref"],
                     "--flavor", "matlab", "--rouge-types", "rouge2", "--n-samples", "50", "-q"],
                    stdout=out, stderr=io.StringIO()) == 0
    table = out.getvalue().decode()
    assert "rouge2: 1 example(s) left out" in table and " yes" not in table


def test_cli_score_json_and_per_example_have_null_not_nan(matlab_systems, tmp_path):
    per_example = tmp_path / "per.jsonl"
    out, err = io.BytesIO(), io.StringIO()
    status = cli.main(["score", "-p", matlab_systems["a"], "-r", matlab_systems["ref"], "--flavor", "matlab",
                       "--rouge-types", "rouge2", "--format", "json", "--per-example", str(per_example), "-q"],
                      stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    report = json.loads(out.getvalue(), parse_constant=_no_nan)
    assert report["n_omitted"] == {"rouge2": {"precision": 1, "recall": 1, "fmeasure": 1}}
    assert report["scores"]["rouge2"]["recall"]["mean"] is not None
    assert "rouge2: 1 of 30 examples" in err.getvalue()
    records = [json.loads(line, parse_constant=_no_nan) for line in per_example.read_text().splitlines()]
    assert records[3]["rouge2"]["recall"] is None and records[2]["rouge2"]["recall"] is not None
    # a statistic with no defined value at all is null in the report
    only = tmp_path / "one.txt"
    only.write_text("a b\n")
    out = io.BytesIO()
    assert cli.main(["score", "-p", str(only), "-r", str(only), "--flavor", "matlab", "--rouge-types", "rouge3",
                     "--format", "json", "-q"], stdout=out, stderr=io.StringIO()) == 0
    report = json.loads(out.getvalue(), parse_constant=_no_nan)
    assert report["scores"]["rouge3"]["recall"] == {"low": None, "mid": None, "high": None, "mean": None}
