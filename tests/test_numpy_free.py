"""The numpy-free way (bootstrap_compiled.numpy_free): score_corpus, mean_scores, corpus_means
and bootstrap_compiled.perl_bootstrap on a list of rows without numpy, whose import alone was most
of a small `rouge-full score` run (the Perl CLI's -t 0 shares bootstrap_compiled.ordered_bootstrap:
test_cli_perl.py's goldens).  Taken only while numpy is not imported; here it is forced off and on in one process and
must give the numpy way's floats, bit for bit."""
import math
import os
import random
import subprocess
import sys

import pytest

from rouge_full_metric import RougeScorer, batch, bootstrap_compiled, compiled
from rouge_full_metric import corpus as corpus_module
from rouge_full_metric.cli import perl_cli

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from undefined_expectations import said_alike  # noqa: E402

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="the numpy-free way needs the compiled core")


@pytest.fixture
def way(monkeypatch):
    """way(True) forces the numpy-free way on, way(False) off (each module's name for it)."""
    def force(on):
        for module in (bootstrap_compiled, corpus_module, perl_cli):
            monkeypatch.setattr(module, "numpy_free", lambda replicates=0: on)
    return force


WORDS = "the a cat dog sat ran on under mat rug big small red and of to in".split()


def corpus(rng, n):
    """n random (prediction, references) pairs, some predictions empty, some with two references
    (each of 2 words at least: no NaN in flavor matlab)."""
    def text(lengths):
        return " ".join(rng.choice(WORDS) for _ in range(rng.choice(lengths)))
    preds = [text([0, 1, 3, 6, 12, 20]) for _ in range(n)]
    refs = [text([2, 3, 6, 12, 20]) if rng.random() < 0.7 else [text([2, 5]), text([3, 9])] for _ in range(n)]
    return preds, refs


def both(way, fn):
    """fn()'s result the numpy way, then the numpy-free way."""
    way(False)
    with_numpy = fn()
    way(True)
    return with_numpy, fn()


def test_the_fixture_switches_the_way(way, monkeypatch):
    calls = []
    real = bootstrap_compiled.ordered_bootstrap
    monkeypatch.setattr(corpus_module, "ordered_bootstrap", lambda *a, **k: calls.append(1) or real(*a, **k))
    s = RougeScorer(["rouge1"])
    way(False)
    s.score_corpus(["a b"], ["a c"])
    assert calls == []
    way(True)
    s.score_corpus(["a b"], ["a c"])
    assert calls == [1]


@pytest.mark.parametrize("flavor", ["rouge155", "paper", "rouge_score", "matlab"])
def test_score_corpus_gives_the_numpy_way_s_floats(way, flavor, monkeypatch):
    served = []
    real = bootstrap_compiled.ordered_bootstrap
    monkeypatch.setattr(corpus_module, "ordered_bootstrap", lambda *a, **k: served.append(1) or real(*a, **k))
    rng = random.Random(flavor)
    types = {"rouge155": ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"],
             "paper": ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4"],
             "rouge_score": ["rouge1", "rouge2", "rougeL", "rougeLsum"],
             "matlab": ["rouge1", "rouge2", "rougeL", "rougeW-1.2"]}[flavor]
    s = RougeScorer(types, flavor=flavor)
    cases = 0
    for n in [1, 2, 3, 7, 40, 150, 400]:
        preds, refs = corpus(rng, n)
        ids = None if rng.random() < 0.5 else \
            [rng.choice(["x", "é", "\U0001F600", "10", "2"]) + str(k) for k in range(n)]
        confidence = rng.choice([95, 90, 0, 100, 99.5])
        n_bootstrap = rng.choice([1, 7, 100, 1000])
        with_numpy, without = both(way, lambda: s.score_corpus(preds, refs, confidence, n_bootstrap, ids=ids).aggregate)
        assert repr(without) == repr(with_numpy), (n, confidence, n_bootstrap)
        cases += 1
    assert cases == len(served) == 7


def test_matlab_s_undefined_scores_are_left_out_alike(way):
    # references with fewer words than n: NaN rouge2, left out of MATLAB's means (and a warning)
    s = RougeScorer(["rouge1", "rouge2"], flavor="matlab")
    preds, refs = ["a b c", "a", "b c"], ["a b", "a", "c"]
    with pytest.warns(Warning, match="left out"):
        with_numpy, without = both(way, lambda: s.score_corpus(preds, refs).aggregate)
    assert repr(without) == repr(with_numpy)
    assert not math.isnan(without["rouge2"].recall.mid)


def test_an_empty_corpus_gives_zeros_both_ways(way):
    with_numpy, without = both(way, lambda: RougeScorer(["rouge1", "rougeL"]).score_corpus([], []).aggregate)
    assert without == with_numpy
    assert without["rouge1"].fmeasure.mid == 0.0


@pytest.mark.parametrize("exact", [True, False])
def test_perl_bootstrap_on_rows_gives_the_numpy_way_s_floats(way, exact):
    rng = random.Random(exact)
    for trial in range(60):
        n, width = rng.choice([1, 2, 5, 33, 300]), rng.choice([1, 3, 12])
        rows = [[round(rng.random(), 5) if exact else rng.random() for _ in range(width)] for _ in range(n)]
        if trial % 7 == 3:
            rows[0][0] = math.nan
        keys = ["%d.%s" % (rng.randrange(50), rng.choice("AbÉ")) for _ in range(n)]
        args = (rng.choice([1, 10, 200]), rng.choice([95, 50, 100]))
        with_numpy, without = both(way, lambda: bootstrap_compiled.perl_bootstrap(rows, keys, *args, exact=exact))
        assert repr(without) == repr(with_numpy), trial


def test_threads_share_a_large_bootstrap_alike(way, monkeypatch):
    monkeypatch.setattr(bootstrap_compiled, "BOOTSTRAP_THREADS_MIN", 1)
    rng = random.Random(5)
    rows = [[round(rng.random(), 5) for _ in range(6)] for _ in range(250)]
    keys = ["%d.A" % k for k in range(250)]
    for exact in (True, False):
        one = bootstrap_compiled.perl_bootstrap(rows, keys, 203, 95, exact=exact, n_jobs=1)
        with_numpy, without = both(way, lambda: bootstrap_compiled.perl_bootstrap(rows, keys, 203, 95, exact=exact,
                                                                                  n_jobs=2))
        assert repr(without) == repr(with_numpy) == repr(one)


def test_count_sums_declining_falls_back_to_numpy(way):
    core = compiled.core
    allowed, limit, supported, pack_min, _ = core._bootstrap_hooks(-1, -1)
    core._bootstrap_hooks(-1, 1)   # every count over 1 declines
    try:
        from array import array

        assert bootstrap_compiled.ordered_bootstrap(array("d", [0.5, 0.25, 1.0]), 3, 1, 50, exact=False) is None
        rows = [[0.5], [0.25], [1.0]]
        with_numpy, without = both(way, lambda: bootstrap_compiled.perl_bootstrap(rows, ["1.A", "2.A", "3.A"], 50,
                                                                                  exact=False))
        s = RougeScorer(["rouge1"], flavor="rouge_score")
        preds, refs = ["a b", "a", "b c"], ["a", "a c", "c"]
        corpus_with, corpus_without = both(way, lambda: s.score_corpus(preds, refs, n_bootstrap=50))
    finally:
        core._bootstrap_hooks(allowed, limit, pack_min)
    assert repr(without) == repr(with_numpy)
    assert repr(corpus_without.aggregate) == repr(corpus_with.aggregate)


def test_a_flat_list_is_one_column_both_ways(way):
    with_numpy, without = both(way, lambda: bootstrap_compiled.perl_bootstrap([1.0, 0.0, 0.5], ["1.A", "2.A", "3.A"],
                                                                              100))
    assert repr(without) == repr(with_numpy)
    assert with_numpy == bootstrap_compiled.perl_bootstrap([[1.0], [0.0], [0.5]], ["1.A", "2.A", "3.A"], 100)


@pytest.mark.parametrize("rows, error", [
    ([[0.5, 0.25], [1.0]], ValueError),          # ragged
    ([["x"], [0.5]], ValueError),                 # not numbers
])
def test_bad_rows_meet_numpy_s_errors(way, rows, error):
    way(True)
    with pytest.raises(error):
        bootstrap_compiled.perl_bootstrap(rows, ["1.A", "2.A"], 10)


def test_bad_replicate_count_and_keys_fail_as_before(way):
    way(True)
    with pytest.raises(ValueError, match="n_bootstrap must be at least 1"):
        bootstrap_compiled.perl_bootstrap([[0.5]], ["1.A"], 0)
    with pytest.raises(TypeError, match="keys must be str"):
        bootstrap_compiled.perl_bootstrap([[0.5], [0.25]], ["1.A", 2], 10)


def test_key_order_is_byte_order():
    rng = random.Random(9)
    alphabet = ["a", "b", "1", ".", "é", "\uffff", "\U0001F600", "\ud800"]
    for _ in range(200):
        keys = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(4))) for _ in range(rng.randrange(30))]
        assert list(bootstrap_compiled.key_order(keys)) == list(bootstrap_compiled.byte_order(keys))


def _cli(args, pre=""):
    code = (pre + "import sys\nfrom rouge_full_metric.cli.main import main\nrc = main(%r)\n"
            "print('NUMPY' if 'numpy' in sys.modules else 'NO NUMPY')\nsys.exit(rc)" % (args,))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score"])
def test_rouge_full_score_runs_without_numpy_and_prints_the_same(tmp_path, flavor):
    rng = random.Random(flavor)
    preds, refs = corpus(rng, 30)
    (tmp_path / "p.txt").write_text("\n".join(p or "the" for p in preds) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(r if isinstance(r, str) else r[0] for r in refs) + "\n", encoding="utf-8")
    args = ["score", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"),
            "--flavor", flavor, "--format", "json", "--quiet"]
    lean = _cli(args)
    with_numpy = _cli(args, "import numpy\n")
    assert lean.splitlines()[-1] == "NO NUMPY"
    assert with_numpy.splitlines()[-1] == "NUMPY"
    assert lean.splitlines()[:-1] == with_numpy.splitlines()[:-1]


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score", "matlab"])
def test_mean_scores_and_corpus_means_give_the_numpy_way_s_floats(way, flavor):
    rng = random.Random("means" + flavor)
    s = RougeScorer(["rouge1", "rouge2", "rougeL"], flavor=flavor)
    custom = RougeScorer(["rouge1"], flavor="rouge_score", tokenizer=str.split)   # scored by Python: no core table
    for n in [1, 5, 300]:
        preds, refs = corpus(rng, n)
        if flavor == "matlab":
            refs[0] = "a"   # a NaN rouge2, left out of the mean
        for jobs in (1, 2):
            with said_alike(flavor == "matlab"):
                with_numpy, without = both(way, lambda: s.mean_scores(preds, refs, n_jobs=jobs))
            assert repr(without) == repr(with_numpy), (n, jobs)
        per_example = s.score_batch(preds, refs)
        with said_alike(flavor == "matlab"):
            with_numpy, without = both(way, lambda: s.corpus_means(per_example))
        assert repr(without) == repr(with_numpy)
        with_numpy, without = both(way, lambda: custom.mean_scores(preds, refs))
        assert repr(without) == repr(with_numpy)


def test_score_table_flat_holds_the_numpy_table_s_rows():
    rng = random.Random(3)
    preds, refs = corpus(rng, 257)
    s = RougeScorer(["rouge1", "rougeLsum", "rouge2"], flavor="rouge_score")
    for jobs in (1, 2):
        table = batch.score_table(s, preds, refs, jobs)
        flat = batch.score_table(s, preds, refs, jobs, flat=True)
        assert flat.typecode == "d"
        assert flat.tolist() == table.reshape(-1).tolist()


def test_a_new_process_averages_without_importing_numpy():
    code = ("import sys\nfrom rouge_full_metric import RougeScorer\n"
            "s = RougeScorer(['rouge1', 'rougeL'])\n"
            "r = s.score_corpus(['a b c', 'a d'], ['a b', 'a c d'])\n"
            "s.mean_scores(['a b c'], ['a b'])\ns.corpus_means(r.per_example)\n"
            "RougeScorer(['rouge1'], flavor='matlab').score_corpus(['a b'], ['a'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy'))")
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]"]


@pytest.mark.parametrize("on", [True, False])
def test_the_perl_command_line_prints_the_perl_s_bytes_both_ways(way, on):
    """Every golden of test_cli_perl.py (the real ROUGE-1.5.5.pl's stdout) in both ways: -t 0's
    bootstrap is numpy-free unless numpy is imported or -r is huge."""
    import test_cli_perl as goldens

    way(on)
    assert len(goldens.CASES) > 20
    for case in goldens.CASES:
        status, out, err = goldens.run_cli(goldens.NOWHERE + case["args"], goldens.DATA)
        assert out == (goldens.DATA / case["stdout"]).read_bytes(), (case["name"], err)


def test_the_bound_on_replicates():
    code = ("import sys\nfrom rouge_full_metric import bootstrap_compiled as bc\n"
            "print(bc.numpy_free(), bc.numpy_free(bc.NUMPY_FREE_MAX_REPLICATES),"
            " bc.numpy_free(bc.NUMPY_FREE_MAX_REPLICATES + 1))\n"
            "from rouge_full_metric import RougeScorer\n"
            "RougeScorer(['rouge1']).score_corpus(['a b'], ['a c'], n_bootstrap=10)\n"
            "print('numpy' in sys.modules)\n"
            "RougeScorer(['rouge1']).score_corpus(['a b'], ['a c'], n_bootstrap=bc.NUMPY_FREE_MAX_REPLICATES)\n"
            "print('numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False", "False", "True"]
