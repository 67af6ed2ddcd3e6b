"""The evaluate metric: every load path, the compute() contract, distributed use, pickling.

All offline: local loads only (the Hub path is tests/test_space.py's, against a local server).
Subprocesses get their own HF_HOME, so evaluate's module cache starts empty there.
"""
import contextlib
import doctest
import inspect
import json
import math
import os
import pickle
import random
import subprocess
import sys
import uuid
import warnings
from pathlib import Path

import pytest

evaluate = pytest.importorskip("evaluate")
pytest.importorskip("datasets")

import rouge_full_metric  # noqa: E402
from rouge_full_metric import RougeScorer  # noqa: E402
from rouge_full_metric import rouge_full_metric as metric_module  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
# the source tree's metric folder; when the tests run against an installed wheel (.ci/test_installed.py:
# a checkout copy without the package), the installed one
CHECKOUT_MODULE = (REPO / "rouge_full_metric" if (REPO / "rouge_full_metric").is_dir()
                   else Path(rouge_full_metric.EVALUATE_MODULE_DIR))
SUBPROCESS_TIMEOUT = 240

PREDICTIONS = ["the cat sat on the mat", "police kill the gunman", "a b c d",
               "Running dogs ran.\nThey stopped.", "", "the quick brown fox"]
REFERENCES = [["a cat sat on the mat", "the cat was on the mat"], ["police killed the gunman", "the gunman was shot"],
              ["a b x", "b c"], ["The dog runs.\nIt stops.", "Dogs were running."], ["nothing here", "empty"],
              ["the quick brown dog", "a quick brown fox"]]


def _corpus(n=24, seed=3):
    """Deterministic multi-reference data, large enough for the bootstrap to matter."""
    rnd = random.Random(seed)
    words = "the a police killed gunman cat sat mat quick brown fox runs ran running dog of".split()

    def text():
        return "\n".join(" ".join(rnd.choice(words) for _ in range(rnd.randint(1, 9)))
                         for _ in range(rnd.randint(1, 3)))

    return [text() for _ in range(n)], [[text() for _ in range(rnd.randint(1, 3))] for _ in range(n)]


def _clean_env(tmp_path):
    env = dict(os.environ)
    for name in ("HF_MODULES_CACHE", "HF_EVALUATE_CACHE", "HF_METRICS_CACHE", "HF_DATASETS_CACHE", "XDG_CACHE_HOME",
                 "PYTHONPATH", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        env.pop(name, None)
    env.update(HF_HOME=str(tmp_path / "hf_home"), HF_EVALUATE_OFFLINE="1", HF_UPDATE_DOWNLOAD_COUNTS="0",
               HF_HUB_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def _run(args, tmp_path, **kwargs):
    proc = subprocess.run([sys.executable, *args], cwd=str(tmp_path), env=_clean_env(tmp_path), capture_output=True,
                          text=True, timeout=SUBPROCESS_TIMEOUT, **kwargs)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc


@pytest.fixture(scope="module")
def rouge():
    return evaluate.load(str(CHECKOUT_MODULE))


def _expected(predictions, references, options=None, confidence_intervals=False):
    """What the metric must return, straight from the engine."""
    options = dict(options or {})
    aggregate = options.pop("aggregate", "bootstrap")
    scorer = RougeScorer(options.pop("rouge_types", ["rouge1", "rouge2", "rougeL", "rougeLsum"]), **options)
    result = scorer.score_corpus(predictions, references)
    out = {}
    for t, agg in result.aggregate.items():
        for suffix, stat in (("", agg.fmeasure), ("_precision", agg.precision), ("_recall", agg.recall)):
            out[t + suffix] = stat.mean if aggregate == "mean" else stat.mid
            if confidence_intervals:
                out[t + suffix + "_low"], out[t + suffix + "_high"] = stat.low, stat.high
    return out


@contextlib.contextmanager
def _nan_warnings(flavor):
    """Flavor matlab's undefined (NaN) scores warn, as UndefinedScoreWarning of whichever copy of
    the class the metric came with (evaluate's module cache holds its own), and no other flavor's
    do here; caught, so that none leaks into pytest's summary."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    nan = [w for w in caught if "undefined (NaN) scores" in str(w.message)]
    assert bool(nan) == (flavor == "matlab"), [str(w.message) for w in caught]


# ----------------------------------------------------------------------------------- load paths
def test_load_from_checkout(rouge):
    assert isinstance(rouge, evaluate.EvaluationModule)
    assert rouge.name == "rouge_full_metric"
    # evaluate imports its own copy from the module cache, not the package
    assert type(rouge).__module__ != metric_module.__name__
    assert rouge.compute(predictions=PREDICTIONS, references=REFERENCES) == _expected(PREDICTIONS, REFERENCES)


def test_load_from_installed_package(rouge):
    installed = evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR)
    by_script = evaluate.load(os.path.join(rouge_full_metric.EVALUATE_MODULE_DIR, "rouge_full_metric.py"))
    for metric in (installed, by_script):
        assert metric.compute(predictions=PREDICTIONS, references=REFERENCES, confidence_intervals=True) == \
            rouge.compute(predictions=PREDICTIONS, references=REFERENCES, confidence_intervals=True)


def test_installed_package_loads_in_a_fresh_interpreter_with_an_empty_cache(tmp_path):
    script = ("import json, evaluate, rouge_full_metric\n"
              "m = evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR, use_stemmer=True)\n"
              "print(json.dumps(m.compute(predictions=%r, references=%r)))\n" % (PREDICTIONS, REFERENCES))
    proc = _run(["-c", script], tmp_path)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got == _expected(PREDICTIONS, REFERENCES, {"use_stemmer": True})
    # the module was copied into this interpreter's own (fresh) cache
    cached = list((tmp_path / "hf_home" / "modules" / "evaluate_modules").rglob("scorer.py"))
    assert cached, "evaluate did not copy the sibling modules into its cache"


# ----------------------------------------------------------------------------------- compute contract
def test_compute_has_no_var_keyword_and_takes_every_option():
    for cls in (metric_module.RougeFullMetric, rouge_full_metric.RougeFullMetric):
        params = inspect.signature(cls._compute).parameters
        assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        # evaluate routes compute(**kwargs) to _compute by name: every option must be a parameter
        assert set(params) == {"self", "predictions", "references"} | set(metric_module.DEFAULTS)
    init = inspect.signature(metric_module.RougeFullMetric.__init__).parameters
    assert set(metric_module.DEFAULTS) <= set(init)


def test_docstring_examples_run_as_doctests():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    attempted = 0
    for test in finder.find(metric_module, globs=vars(metric_module).copy()):
        result = runner.run(test, out=lambda s: None)
        assert result.failed == 0, "doctest %s failed" % test.name
        attempted += result.attempted
    assert attempted >= 5
    # the examples are also what evaluate shows as the metric's usage
    assert ">>> rouge = RougeFullMetric()" in metric_module.RougeFullMetric.__doc__


@pytest.mark.parametrize("options", [
    {},
    {"aggregate": "mean"},
    {"use_stemmer": True, "remove_stopwords": True, "rouge_types": ["rouge1", "rougeW-1.2", "rougeSU4", "rougeS*"]},
    {"multi_ref": "best", "word_limit": 3},
    {"jackknife": True, "multi_ref": "max", "alpha": 0.8},
    {"flavor": "paper"},
    {"flavor": "rouge_score", "use_stemmer": True},
    {"flavor": "matlab"},
    {"flavor": "xlsum"},
], ids=lambda o: ",".join("%s=%s" % kv for kv in o.items()) or "defaults")
def test_corpus_values_are_the_engines(rouge, options):
    got = rouge.compute(predictions=PREDICTIONS, references=REFERENCES, confidence_intervals=True, **options)
    assert got == _expected(PREDICTIONS, REFERENCES, options, confidence_intervals=True)
    assert all(type(v) is float for v in got.values())


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score", "matlab", "paper", "xlsum"])
def test_corpus_values_are_the_engines_on_generated_texts(rouge, flavor):
    # The aggregate reads the per-example values from a table the core fills (score_table), not
    # from score_batch's results: the same floats on 300 generated pairs with 1-3 references,
    # empty texts (undefined scores: NaN in flavor matlab) and repeated words.
    import random

    rng = random.Random(flavor)
    words = "the a cat dog sat on mat ran fast police gunman killed".split()

    def text():
        return " ".join(rng.choice(words) for _ in range(rng.choice([0, 1, 3, 8, 15])))

    predictions = [text() for _ in range(300)]
    references = [[text() for _ in range(rng.randint(1, 3))] for _ in range(300)]   # evaluate takes lists only, if any
    options = {"flavor": flavor}
    with _nan_warnings(flavor):
        got = rouge.compute(predictions=predictions, references=references, confidence_intervals=True, **options)
        expected = _expected(predictions, references, options, confidence_intervals=True)
    assert got.keys() == expected.keys()
    for key in got:   # NaN == NaN where the flavor's average is undefined
        assert got[key] == expected[key] or (math.isnan(got[key]) and math.isnan(expected[key])), key
    # use_aggregator=False: the per-example values, from the same table
    got = rouge.compute(predictions=predictions, references=references, use_aggregator=False,
                        return_precision_recall=True, **options)
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], **options)
    want = scorer.score_batch(predictions, references)
    for t in scorer.rouge_types:
        for suffix, field in (("", "fmeasure"), ("_precision", "precision"), ("_recall", "recall")):
            values = [getattr(s[t], field) for s in want]
            assert len(got[t + suffix]) == len(values)
            assert all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(got[t + suffix], values)), t + suffix
            assert all(type(v) is float for v in got[t + suffix])


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score", "matlab", "paper", "xlsum"])
def test_n_jobs_gives_the_numbers_of_one_thread_on_every_path(flavor, monkeypatch):
    # compute(n_jobs=2): the core's threads write the table (batch._parallel_range with a table;
    # flavor xlsum's scorer takes score_batch's chunks of 256 examples, matlab's Python one
    # thread) and share the bootstrap's replicates (bootstrap_compiled._core_sums' ranges, forced here
    # at any size; matlab's average, which leaves NaN out, bootstraps each of its 12 columns).
    # Every figure is n_jobs=1's in each of compute's four paths, n_jobs given at compute or at
    # load.
    from rouge_full_metric import batch, bootstrap_compiled

    monkeypatch.setattr(batch, "_available_cpus", lambda: 4)
    monkeypatch.setattr(bootstrap_compiled, "BOOTSTRAP_THREADS_MIN", 0)
    tables, ranges = [], []
    real_parallel, real_chunks = batch._parallel_range, batch._run_chunks
    monkeypatch.setattr(batch, "_parallel_range", lambda *a: tables.append(len(a) == 8) or real_parallel(*a))
    monkeypatch.setattr(batch, "_run_chunks", lambda jobs, fn, bounds, *a: ranges.append(len(bounds)) or
                        real_chunks(jobs, fn, bounds, *a))
    rng = random.Random(flavor)
    words = "the a cat dog sat on mat ran fast police gunman killed".split()

    def text():
        return " ".join(rng.choice(words) for _ in range(rng.choice([0, 1, 3, 8, 15])))

    predictions = [text() for _ in range(300)]
    references = [[text() for _ in range(rng.randint(1, 3))] for _ in range(300)]
    one, two = metric_module.RougeFullMetric(flavor=flavor), metric_module.RougeFullMetric(flavor=flavor, n_jobs=2)
    for options in ({}, {"aggregate": "mean"}, {"confidence_intervals": True}, {"use_aggregator": False}):
        with _nan_warnings(flavor if "use_aggregator" not in options else None):   # per example: no average
            want = repr(one.compute(predictions=predictions, references=references, **options))   # NaN: equal reprs
            assert tables == [] and ranges == []
            assert repr(one.compute(predictions=predictions, references=references, n_jobs=2, **options)) == want
            assert repr(two.compute(predictions=predictions, references=references, **options)) == want
        compiled = rouge_full_metric.compiled.AVAILABLE
        assert tables == ([True, True] if compiled and flavor in ("rouge155", "rouge_score", "paper") else []), options
        bootstrap = options.get("confidence_intervals") or (flavor == "rouge155" and not options)
        per_call = ([2] if flavor == "xlsum" else []) + ([4] * (12 if flavor == "matlab" else 1) if bootstrap else [])
        assert ranges == (2 * per_call if compiled else []), options   # 2 ranges a thread; pure Python: one thread
        del tables[:], ranges[:]


def test_n_jobs_is_checked_at_load_and_at_compute(rouge):
    for bad in (0, -2, 1.5, "2", True):
        with pytest.raises(ValueError, match="n_jobs must be"):
            rouge.compute(predictions=["a b"], references=["a b"], n_jobs=bad)
        with pytest.raises(ValueError, match="n_jobs must be"):
            metric_module.RougeFullMetric(n_jobs=bad)
    assert rouge.compute(predictions=["a b"], references=["a b"], n_jobs=-1)["rouge1"] == 1.0
    # how the numbers are computed, not which: the signature leaves it out
    assert metric_module.RougeFullMetric(n_jobs=2).signature() == metric_module.RougeFullMetric().signature()


@pytest.mark.parametrize("options", [{}, {"aggregate": "mean"}, {"use_aggregator": False},
                                     {"confidence_intervals": True, "flavor": "rouge_score"}],
                         ids=lambda o: ",".join("%s=%s" % kv for kv in o.items()) or "defaults")
def test_lost_text_warning_points_at_the_metric(rouge, options):
    # Each path of compute reaches the scorer's lost-text check at the same depth: the warning
    # names the metric's compute, not a scorer method inside it.
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rouge.compute(predictions=["今天天气很好，我们去公园散步"], references=["今天天气很好"], **options)
    # by name: evaluate's copy of the metric imports its own copy of the class
    lost = [w for w in caught if w.category.__name__ == "LostTextWarning"]
    assert len(lost) == 1 and os.path.basename(lost[0].filename) == "rouge_full_metric.py", \
        [(w.filename, w.lineno) for w in lost]


def test_per_example_values_are_the_engines(rouge):
    got = rouge.compute(predictions=PREDICTIONS, references=REFERENCES, use_aggregator=False, use_stemmer=True)
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    want = [scorer.score(p, r) for p, r in zip(PREDICTIONS, REFERENCES)]
    for t in scorer.rouge_types:
        assert got[t] == [s[t].fmeasure for s in want]
        assert got[t + "_recall"] == [s[t].recall for s in want]
        assert all(type(v) is float for v in got[t])


def test_default_aggregate_is_the_perls_average_not_the_mean(rouge):
    # ROUGE-1.5.5.pl -n 1 -x -d on these three summaries prints Average_R 0.50067, P 0.55622,
    # F 0.52448 (spec X19); the plain means are 0.5 / 0.55556 / 0.52381
    p, r = ["a b", "c d", "a b c"], ["a b", "e f", "a b d e"]
    perl = rouge.compute(predictions=p, references=r, rouge_types=["rouge1"])
    assert (perl["rouge1_recall"], perl["rouge1_precision"], perl["rouge1"]) == (0.50067, 0.55622, 0.52448)
    mean = rouge.compute(predictions=p, references=r, rouge_types=["rouge1"], aggregate="mean")
    assert (mean["rouge1_recall"], mean["rouge1"]) == (0.5, pytest.approx(0.52381, abs=1e-12))
    # rouge_score and paper report the plain mean whatever the aggregate
    for flavor in ("rouge_score", "paper"):
        a = rouge.compute(predictions=p, references=r, rouge_types=["rouge1"], flavor=flavor)
        b = rouge.compute(predictions=p, references=r, rouge_types=["rouge1"], flavor=flavor, aggregate="mean")
        assert a == b and a["rouge1_recall"] == 0.5


def _evaluate_rouge(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False,
                    tokenizer=None):
    """evaluate-metric/rouge's _compute (evaluate 0.4.x), which cannot be loaded offline."""
    from rouge_score import rouge_scorer, scoring

    rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    wrapped = None
    if tokenizer is not None:
        class Tokenizer:  # evaluate's wrapper: rouge_score wants an object with tokenize()
            def tokenize(self, text):
                return tokenizer(text)
        wrapped = Tokenizer()
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=wrapped)
    aggregator = scoring.BootstrapAggregator()
    scores = []
    for ref, pred in zip(references, predictions):
        score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        aggregator.add_scores(score)
        scores.append(score)
    if use_aggregator:
        return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
    return {key: [s[key].fmeasure for s in scores] for key in scores[0]}


@pytest.mark.parametrize("kwargs", [{}, {"use_stemmer": True}, {"rouge_types": ["rouge1", "rouge3", "rougeLsum"]},
                                    {"tokenizer": str.split}], ids=["plain", "stem", "types", "tokenizer"])
@pytest.mark.parametrize("multi", [False, True], ids=["single-ref", "multi-ref"])
def test_migration_from_evaluate_rouge(rouge, kwargs, multi):
    pytest.importorskip("rouge_score")
    predictions, references = _corpus(30, seed=11)
    if not multi:
        references = [refs[0] for refs in references]
    ours = rouge.compute(predictions=predictions, references=references, flavor="rouge_score",
                         use_aggregator=False, **kwargs)
    theirs = _evaluate_rouge(predictions, references, use_aggregator=False, **kwargs)
    assert {k: ours[k] for k in theirs} == theirs  # float for float
    corpus = rouge.compute(predictions=predictions, references=references, flavor="rouge_score", **kwargs)
    for key, values in theirs.items():
        assert corpus[key] == math.fsum(values) / len(values)
        # evaluate's unseeded bootstrap median only approximates that mean
        assert _evaluate_rouge(predictions, references, **kwargs)[key] == pytest.approx(corpus[key], abs=0.05)


def test_load_time_options_are_defaults_and_compute_overrides_them():
    stemmed = evaluate.load(str(CHECKOUT_MODULE), use_stemmer=True, rouge_types=["rouge1"])
    assert stemmed.compute(predictions=["police killed"], references=["police kill"]) == \
        {"rouge1": 1.0, "rouge1_precision": 1.0, "rouge1_recall": 1.0}
    unstemmed = stemmed.compute(predictions=["police killed"], references=["police kill"], use_stemmer=False)
    assert unstemmed["rouge1"] == 0.5
    assert stemmed.signature().startswith("flavor:rouge155|stem:yes")
    with pytest.raises(TypeError, match="use_stemer"):
        evaluate.load(str(CHECKOUT_MODULE), use_stemer=True)
    with pytest.raises(ValueError, match="flavor"):
        evaluate.load(str(CHECKOUT_MODULE), flavor="rouge156")


def test_misspelt_compute_option_raises(rouge):
    with pytest.raises(TypeError, match="use_stemer"):
        rouge.compute(predictions=["a"], references=["a"], use_stemer=True)


def test_a_bad_compute_option_keeps_the_pending_examples():
    metric = evaluate.load(str(CHECKOUT_MODULE))
    metric.add_batch(predictions=["a b", "c d"], references=["a c", "c d"])
    with pytest.raises(TypeError, match="unknown option.*use_stemer"):
        metric.compute(use_stemer=True)
    with pytest.raises(ValueError, match="flavor"):
        metric.compute(flavor="rouge156")
    # the typo must not cost the examples added so far (a whole evaluation, in a Trainer)
    assert metric.compute(rouge_types=["rouge1"])["rouge1_recall"] == 0.75


def test_add_and_add_batch_then_compute_equals_one_call(rouge):
    predictions, references = _corpus(12, seed=5)
    for p, r in zip(predictions[:5], references[:5]):
        rouge.add(prediction=p, reference=r)
    rouge.add_batch(predictions=predictions[5:], references=references[5:])
    streamed = rouge.compute(confidence_intervals=True, use_stemmer=True)
    assert streamed == rouge.compute(predictions=predictions, references=references, confidence_intervals=True,
                                     use_stemmer=True)


def test_input_errors_and_empty_inputs(rouge):
    with pytest.raises(TypeError, match="mixes single strings and lists"):
        rouge.compute(predictions=["a", "b"], references=["a", ["b"]])
    with pytest.raises(ValueError, match="differ in length"):
        rouge.compute(predictions=["a", "b"], references=["a"])
    assert rouge.compute(predictions=[], references=[], rouge_types=["rouge1"]) == \
        {"rouge1": 0.0, "rouge1_precision": 0.0, "rouge1_recall": 0.0}
    assert rouge.compute(predictions=[], references=[], rouge_types=["rouge1"], use_aggregator=False) == \
        {"rouge1": [], "rouge1_precision": [], "rouge1_recall": []}
    # the metric still works after the errors
    assert rouge.compute(predictions=["a b"], references=["a b"], rouge_types=["rouge1"])["rouge1"] == 1.0


def test_input_check_shortcut_answers_as_the_loops():
    # _plain_inputs accepts in C-level loops what _check_inputs' Python loops accept; anything else
    # goes through those loops, which name the entry (or accept a str subclass).
    import numpy as np

    from rouge_full_metric.rouge_full_metric import _check_inputs, _plain_inputs

    accepted = [(["a", "b"], ["c", "d"]), (["a"], [["c", "d"]]), (["a", "b"], [("c",), ["d", "e"]]), ([], []),
                ([np.str_("a")], ["b"]), (["a"], [[np.str_("b")]]), ([np.str_("a")], [np.str_("b")])]
    for predictions, references in accepted:
        _check_inputs(predictions, references)
        assert _plain_inputs(predictions, references) == all(
            type(x) is str for x in list(predictions) + [y for r in references for y in ([r] if isinstance(r, str) else r)])
    rejected = [
        (["a", 1], ["b", "c"], TypeError, r"predictions\[1\] must be a str, got int"),
        (["a", b"b"], ["b", "c"], TypeError, r"predictions\[1\] must be a str, got bytes"),
        (["a", "b"], [["c"], []], ValueError, r"references\[1\] is an empty list"),
        (["a", "b"], [["c"], ("d", 2)], TypeError, r"references\[1\] must be a list of str"),
        (["a", "b"], ["c", None], TypeError, r"references\[1\] must be a str or a list of str, got NoneType"),
        (["a", "b"], [("c",), "d"], TypeError, "mixes single strings and lists"),
        (["a"], [{"c"}], TypeError, r"references\[0\] must be a str or a list of str, got set"),
    ]
    for predictions, references, error, message in rejected:
        assert not _plain_inputs(predictions, references)
        with pytest.raises(error, match=message):
            _check_inputs(predictions, references)


# ----------------------------------------------------------------------------------- distributed
_WORKER = r"""
import json, sys
import evaluate
path, process_id, experiment_id, cache_dir, data_file, out_file = sys.argv[1:]
process_id = int(process_id)
with open(data_file) as f:
    predictions, references = json.load(f)
half = len(predictions) // 2
part = slice(0, half) if process_id == 0 else slice(half, None)
metric = evaluate.load(path, num_process=2, process_id=process_id, experiment_id=experiment_id,
                       cache_dir=cache_dir, use_stemmer=True, timeout=120)
metric.add_batch(predictions=predictions[part], references=references[part])
result = metric.compute(confidence_intervals=True)
with open(out_file, "w") as f:
    json.dump(result, f)
"""


def test_two_processes_equal_a_single_process(rouge, tmp_path):
    predictions, references = _corpus(40, seed=9)
    data_file = tmp_path / "data.json"
    data_file.write_text(json.dumps([predictions, references]))
    worker = tmp_path / "worker.py"
    worker.write_text(_WORKER)
    cache_dir = tmp_path / "metric_cache"
    cache_dir.mkdir()
    experiment_id = "rfm-test-%s" % uuid.uuid4().hex
    env = _clean_env(tmp_path)
    procs = [subprocess.Popen([sys.executable, str(worker), str(CHECKOUT_MODULE), str(pid), experiment_id,
                               str(cache_dir), str(data_file), str(tmp_path / ("out%d.json" % pid))],
                              cwd=str(tmp_path), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for pid in (0, 1)]
    try:
        outputs = [p.communicate(timeout=SUBPROCESS_TIMEOUT) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, (_, err) in zip(procs, outputs):
        assert p.returncode == 0, err[-4000:]
    gathered = json.loads((tmp_path / "out0.json").read_text())
    assert json.loads((tmp_path / "out1.json").read_text()) is None  # only process 0 computes
    # process 0 gathers its half then process 1's, so the examples keep their order (and the
    # Perl's bootstrap, which depends on it, its numbers)
    assert gathered == rouge.compute(predictions=predictions, references=references, use_stemmer=True,
                                     confidence_intervals=True)


# ----------------------------------------------------------------------------------- pickling
def test_pickle_and_dill_round_trip(rouge):
    dill = pytest.importorskip("dill")
    options = dict(predictions=PREDICTIONS, references=REFERENCES, confidence_intervals=True)
    want = rouge.compute(**options)  # the instance has now been through a compute (file locks)
    stemmed = evaluate.load(str(CHECKOUT_MODULE), use_stemmer=True)
    stemmed.add_batch(predictions=PREDICTIONS[:2], references=REFERENCES[:2])
    stemmed.compute()
    for dumps, loads in ((pickle.dumps, pickle.loads), (dill.dumps, dill.loads)):
        copy = loads(dumps(rouge))
        assert copy.compute(**options) == want
        stemmed_copy = loads(dumps(stemmed))
        assert stemmed_copy.signature().startswith("flavor:rouge155|stem:yes")
        assert stemmed_copy.compute(**options) == stemmed.compute(**options)


def test_unpickles_in_another_process(tmp_path):
    metric = rouge_full_metric.RougeFullMetric(use_stemmer=True, rouge_types=["rouge1", "rougeSU4"])
    want = metric.compute(predictions=PREDICTIONS, references=REFERENCES)
    blob = tmp_path / "metric.pkl"
    blob.write_bytes(pickle.dumps(metric))
    script = ("import json, pickle, sys\n"
              "m = pickle.load(open(sys.argv[1], 'rb'))\n"
              "print(json.dumps(m.compute(predictions=%r, references=%r)))\n" % (PREDICTIONS, REFERENCES))
    proc = _run(["-c", script, str(blob)], tmp_path)
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == want


def test_compute_runs_the_bootstrap_only_when_a_figure_needs_it(monkeypatch):
    import rouge_full_metric.corpus as corpus_module

    preds, refs = ["the cat sat on the mat", "a dog"], ["a cat sat on a mat", "the dog barked"]
    cases = ({"aggregate": "mean"}, {"flavor": "rouge_score"}, {"flavor": "paper", "aggregate": "bootstrap"})
    wants = [RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"],
                         **{k: v for k, v in options.items() if k != "aggregate"}).score_corpus(preds, refs)
             for options in cases]
    calls = []
    real = corpus_module.perl_bootstrap
    monkeypatch.setattr(corpus_module, "perl_bootstrap", lambda *a, **k: calls.append(k) or real(*a, **k))
    metric = metric_module.RougeFullMetric()
    for options, want in zip(cases, wants):
        out = metric.compute(predictions=preds, references=refs, **options)
        assert out["rougeL"] == want.aggregate["rougeL"].fmeasure.mean
    assert calls == []
    # flavor rouge155's Average_X and every confidence interval do need it; the Perl's exact draw
    # order only where the figure is printed by the Perl (flavor rouge155)
    metric.compute(predictions=preds, references=refs)
    metric.compute(predictions=preds, references=refs, flavor="rouge_score", confidence_intervals=True)
    assert [k["exact"] for k in calls] == [True, False]
