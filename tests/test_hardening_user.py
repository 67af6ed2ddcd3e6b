"""Issue 12, hardening of the library: bounded memo caches, picklable scorers, read-only options,
keyword names that make a swapped prediction/target impossible to miss."""
import multiprocessing
import pickle

import pytest

from rouge_full_metric import RougeScorer, compiled, rouge_score_flavor, tokenization
from rouge_full_metric.batch import compiled_scorer

CASES = [("police kill the gunman\nthe gunman was running", ["police killed the gunman", "gunmen ran away"]),
         ("the cats were running quickly", "a cat runs quick"),
         ("", "nothing here")]


# ----------------------------------------------------------------------------- bounded caches


def test_token_filter_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(tokenization, "CACHE_LIMIT", 50)
    token_filter = tokenization.make_token_filter(use_stemmer=True, remove_stopwords=True)
    words = ["word%dings" % k for k in range(1000)]
    out = [token_filter([w])[0] for w in words]
    assert out == [tokenization.stem(w) for w in words]        # still the same answers
    assert 0 < token_filter.cache_size() <= 50


def test_rouge_score_stem_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(rouge_score_flavor, "CACHE_LIMIT", 50)
    tokenize = rouge_score_flavor.make_tokenizer(use_stemmer=True)
    for k in range(1000):
        assert tokenize("running%d runners" % k) == ["running%d" % k, "runner"]
    assert 0 < tokenize.cache_size() <= 50


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score"])
def test_scorer_caches_stay_bounded_through_scoring(monkeypatch, flavor):
    # The compiled engine calls the Python filter for tokens it does not resolve itself; either
    # engine's Python-side memo must stay under the bound however many new words pass.
    monkeypatch.setattr(tokenization, "CACHE_LIMIT", 64)
    monkeypatch.setattr(rouge_score_flavor, "CACHE_LIMIT", 64)
    scorer = RougeScorer(["rouge1"], flavor=flavor, use_stemmer=True)
    preds = ["alpha%dbetas gamma%ding" % (k, k) for k in range(600)]
    refs = ["alpha%dbetas gamma" % k for k in range(600)]
    batch = scorer.score_batch(preds, refs)
    python = [scorer._example(p, r)[1] for p, r in zip(preds, refs)]
    assert batch == python
    memo = scorer._rs_tokenize if flavor == "rouge_score" else scorer._token_filter
    assert memo.cache_size() <= 64


# ----------------------------------------------------------------------------- pickling

SCORERS = [
    dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4", "rougeS*"]),
    dict(rouge_types=["rouge1", "rougeLsum", "rougeW-1.2", "rougeSU4"], use_stemmer=True),
    dict(rouge_types=["rouge1", "rougeLsum", "rougeSU4"], use_stemmer=True, remove_stopwords=True,
         word_limit=5, multi_ref="best"),
    dict(rouge_types=["rouge2", "rougeL"], remove_stopwords=True, byte_limit=20, alpha=0.3),
    dict(rouge_types=["rouge1", "rougeW-1.5", "rougeSU*"], flavor="paper", use_stemmer=True),
    dict(rouge_types=["rouge1", "rougeLsum"], flavor="paper", jackknife=False, remove_stopwords=True),
    dict(rouge_types=["rouge1", "rouge2", "rougeLsum"], flavor="rouge_score"),
    dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"], flavor="rouge_score", use_stemmer=True),
]


@pytest.mark.parametrize("options", SCORERS, ids=lambda o: "-".join("%s=%s" % kv for kv in o.items())[:60])
def test_pickle_round_trip_gives_equal_scores(options):
    scorer = RougeScorer(**options)
    before = [scorer.score(p, r) for p, r in CASES]          # fills caches (and builds the engine)
    clone = pickle.loads(pickle.dumps(scorer))
    assert clone.signature() == scorer.signature() and clone.rouge_types == scorer.rouge_types
    assert [clone.score(p, r) for p, r in CASES] == before
    assert clone.score_batch([p for p, _ in CASES], [r for _, r in CASES]) == before
    # the compiled engine is rebuilt lazily on the unpickled side (it is never pickled)
    assert (compiled_scorer(clone) is not None) == compiled.AVAILABLE
    assert compiled_scorer(clone) is not compiled_scorer(scorer) or not compiled.AVAILABLE


def test_dill_round_trip_as_datasets_map_uses_it():
    dill = pytest.importorskip("dill")
    scorer = RougeScorer(**SCORERS[1])
    clone = dill.loads(dill.dumps(scorer))
    assert [clone.score(p, r) for p, r in CASES] == [scorer.score(p, r) for p, r in CASES]


def test_pickle_drops_the_memo_cache():
    scorer = RougeScorer(["rouge1"], use_stemmer=True)
    scorer._example("running runners " * 3, "runs")          # the pure-Python engine memoizes
    assert scorer._token_filter.cache_size() > 0
    assert pickle.loads(pickle.dumps(scorer))._token_filter.cache_size() == 0


def test_custom_tokenizer_pickles_when_it_is_picklable():
    scorer = RougeScorer(["rouge1"], flavor="rouge_score", tokenizer=str.split)
    clone = pickle.loads(pickle.dumps(scorer))
    assert clone.score("A b", "A c") == scorer.score("A b", "A c")


def _score_in_child(args):
    scorer, prediction, reference = args
    return scorer.score(prediction, reference)


def test_scorer_works_in_spawned_processes():
    scorers = [RougeScorer(**SCORERS[1]), RougeScorer(**SCORERS[7])]
    jobs = [(s, p, r) for s in scorers for p, r in CASES]
    expected = [s.score(p, r) for s, p, r in jobs]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert pool.map(_score_in_child, jobs) == expected


# ----------------------------------------------------------------------------- read-only options


@pytest.mark.parametrize("name, value", [("use_stemmer", True), ("flavor", "paper"), ("word_limit", -5),
                                          ("remove_stopwords", True), ("alpha", 0.2), ("rouge_types", ["rouge2"]),
                                          ("multi_ref", "best"), ("jackknife", True), ("tokenizer", str.split),
                                          ("types", []), ("_token_filter", None), ("new_option", 1)])
def test_options_are_read_only_after_construction(name, value):
    scorer = RougeScorer(["rouge1"])
    before = scorer.score("the cats were running", "a cat runs")
    with pytest.raises(AttributeError, match=r"%s.*RougeScorer\(" % name):
        setattr(scorer, name, value)
    with pytest.raises(AttributeError, match=name):
        delattr(scorer, name)
    assert scorer.score("the cats were running", "a cat runs") == before


def test_a_new_scorer_is_the_way_to_change_options():
    scorer = RougeScorer(["rouge1"])
    stemmed = RougeScorer(["rouge1"], use_stemmer=True)
    assert stemmed.score("cats running", "cat runs")["rouge1"].recall == 1.0
    assert scorer.score("cats running", "cat runs")["rouge1"].recall == 0.0


# ----------------------------------------------------------------------------- keyword names


def test_score_keywords_make_the_argument_order_explicit():
    scorer = RougeScorer(["rouge1"])
    expected = scorer.score("a b c d", "a b")                  # prediction first, then references
    assert expected["rouge1"].precision == 0.5 and expected["rouge1"].recall == 1.0
    assert scorer.score(prediction="a b c d", references="a b") == expected
    assert scorer.score(references="a b", prediction="a b c d") == expected
    assert scorer.score(target="a b", prediction="a b c d") == expected       # rouge_score's name
    assert scorer.score(prediction="a b c d", reference="a b") == expected
    assert scorer.score(target="a b", prediction="a b c d") == expected


@pytest.mark.parametrize("args, kwargs, message", [
    ((), {"prediction": "a"}, "references"),
    (("a",), {}, "references"),
    ((), {"target": "a", "references": "b", "prediction": "c"}, "target"),
    (("a", "b"), {"prediction": "c"}, "prediction"),
    (("a",), {"references": "b", "target": "c"}, "target"),
])
def test_score_keyword_errors_name_the_argument(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        RougeScorer(["rouge1"]).score(*args, **kwargs)


# ----------------------------------------------------------------------------- F-only metric


def rouge_full_metric_dir():
    """The imported package's metric folder (the source tree's, or an installed wheel's)."""
    import rouge_full_metric

    return rouge_full_metric.EVALUATE_MODULE_DIR


@pytest.fixture(scope="module")
def metric():
    evaluate = pytest.importorskip("evaluate")
    from pathlib import Path

    return evaluate.load(rouge_full_metric_dir())


PREDS = ["the cat sat on the mat", "police kill the gunman", ""]
REFS = [["a cat sat on the mat"], ["police killed the gunman", "the gunman was shot"], ["nothing"]]


def test_metric_f_only_gives_one_value_per_type(metric):
    full = metric.compute(predictions=PREDS, references=REFS)
    f_only = metric.compute(predictions=PREDS, references=REFS, return_precision_recall=False)
    assert sorted(f_only) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]           # a Trainer logs 4, not 12
    assert f_only == {k: full[k] for k in f_only}
    with_ci = metric.compute(predictions=PREDS, references=REFS, return_precision_recall=False,
                             confidence_intervals=True, rouge_types=["rouge1"])
    assert sorted(with_ci) == ["rouge1", "rouge1_high", "rouge1_low"]
    per_example = metric.compute(predictions=PREDS, references=REFS, return_precision_recall=False,
                                 use_aggregator=False, rouge_types=["rouge2"])
    assert list(per_example) == ["rouge2"] and len(per_example["rouge2"]) == 3
    assert metric.compute(predictions=[], references=[], return_precision_recall=False,
                          rouge_types=["rouge1"]) == {"rouge1": 0.0}


def test_metric_f_only_as_a_load_time_default():
    evaluate = pytest.importorskip("evaluate")
    from pathlib import Path

    module = rouge_full_metric_dir()
    rouge = evaluate.load(module, return_precision_recall=False)
    assert sorted(rouge.compute(predictions=PREDS, references=REFS)) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert len(rouge.compute(predictions=PREDS, references=REFS, return_precision_recall=True)) == 12
    with pytest.raises(TypeError, match="return_precision_recall"):
        rouge.compute(predictions=PREDS, references=REFS, return_precision_recall="no")


# ----------------------------------------------------------------------------- new user 1


# test_missing_core_message_says_what_to_run moved to tests/test_engine_warning.py (issue 17): a
# checkout without a core now loads an installed core first, so the test controls site-packages.


def test_readme_test_command_builds_the_core_in_place():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    test_line = next(line for line in readme.splitlines() if "pytest" in line and line.startswith("python3 -m venv"))
    # an editable install builds _core in the source tree, which is what pytest imports
    assert 'pip install -e ".[test]"' in test_line
