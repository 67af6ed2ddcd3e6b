"""Scorers of the same options share their validated options, tokenizers, engine and a couple of
warm Workers (rouge_full_metric/shared_scorers.py).  What must hold: a shared scorer scores as a
process's first one would, validation is unchanged, nothing the caller can change is shared, and
the memory kept is bounded."""
import multiprocessing
import pickle
import threading

import pytest

from rouge_full_metric import RougeScorer, compiled, shared_scorers
from rouge_full_metric.batch import compiled_scorer
from test_spare_workers import texts   # random multi-line texts over a vocabulary of given size

CONFIGS = [
    ("rouge155", ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"], {"use_stemmer": True}),
    ("rouge155", ["rouge1", "rouge2"], {"remove_stopwords": True}),
    ("rouge_score", ["rouge1", "rouge2", "rougeL", "rougeLsum"], {}),
    ("rouge_score", ["rouge1", "rougeLsum"], {"use_stemmer": True}),
    ("xlsum", ["rouge1", "rouge2", "rougeL"], {"lang": "english"}),
    ("paper", ["rouge1", "rougeL", "rougeS*"], {}),
]


@pytest.fixture(autouse=True)
def fresh_records():
    shared_scorers.clear()
    yield
    shared_scorers.clear()


def make(config):
    flavor, types, options = config
    return RougeScorer(types, flavor=flavor, **options)


def test_same_options_share_one_record_and_engine():
    a, b = RougeScorer(["rouge1", "rougeL"]), RougeScorer(("rouge1", "rougeL"))
    c = RougeScorer(["rouge1", "rougeL"])
    assert a._shared is c._shared and a._shared is not b._shared   # a tuple of types is its own key
    if compiled.AVAILABLE:
        assert compiled_scorer(a).engine is compiled_scorer(c).engine
        assert compiled_scorer(a) is not compiled_scorer(c)   # each scorer its own pool
    assert RougeScorer(["rouge1", "rougeL"], use_stemmer=True)._shared is not a._shared
    assert RougeScorer(["rouge1", "rougeL"], alpha=0.25)._shared is not a._shared


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c[0] + "-" + "-".join(c[1][:2]))
def test_a_shared_scorer_scores_as_a_first_one(config):
    preds, refs = texts(1, 200, 300)
    expected = make(config).score_batch(preds, refs)
    shared_scorers.clear()
    # another vocabulary first, in the Workers the next scorer of these options inherits
    other_preds, other_refs = texts(2, 200, 3000)
    first = make(config)
    first.score_batch(other_preds, other_refs, n_jobs=2)
    first.score(other_preds[0], other_refs[0])
    del first
    second = make(config)
    assert second._shared is not None
    assert second.score_batch(preds, refs) == expected
    assert [second.score(p, r) for p, r in zip(preds[:50], refs[:50])] == expected[:50]
    assert second.score_batch(preds, refs, n_jobs=2) == expected


def test_validation_is_unchanged_by_a_record():
    RougeScorer(["rouge1"], use_stemmer=True)
    with pytest.raises(TypeError, match="use_stemmer must be True or False"):
        RougeScorer(["rouge1"], use_stemmer=1)
    RougeScorer(["rouge1"], word_limit=5)
    with pytest.raises(TypeError, match="word_limit must be a whole number"):
        RougeScorer(["rouge1"], word_limit=5.0)
    RougeScorer(["rouge1"], alpha=1)
    assert RougeScorer(["rouge1"], alpha=1).alpha == 1.0
    for _ in range(2):   # a refused option leaves no record behind that a second try could take
        with pytest.raises(ValueError, match="alpha"):
            RougeScorer(["rouge1"], alpha=float("nan"))


def test_zero_alpha_keeps_its_sign():
    assert str(RougeScorer(["rouge1"], alpha=0.0).alpha) == "0.0"
    assert str(RougeScorer(["rouge1"], alpha=-0.0).alpha) == "-0.0"


def test_what_the_caller_can_change_is_its_own():
    a = RougeScorer(["rouge1", "rouge2"])
    a.rouge_types.append("rougeL")
    a.types.pop()
    b = RougeScorer(["rouge1", "rouge2"])
    assert b.rouge_types == ["rouge1", "rouge2"] and [t.name for t in b.types] == ["rouge1", "rouge2"]
    with pytest.raises(AttributeError, match="fixed at construction"):
        b.flavor = "paper"


def test_not_shared_custom_tokenizer_subclass_or_unplain_options():
    assert "_shared" not in vars(RougeScorer(["rouge1"], flavor="rouge_score", tokenizer=str.split))

    class Mine(RougeScorer):
        pass

    assert "_shared" not in vars(Mine(["rouge1"]))
    assert "_shared" not in vars(RougeScorer([u for u in ["rouge1"]], flavor=type("S", (str,), {})("rouge155")))


def test_unpickled_and_copied_scorers_share_among_themselves():
    import copy

    a = RougeScorer(["rouge1", "rougeLsum"], flavor="rouge_score")
    text = ("a b c\nd", "a b\nd")
    data = pickle.dumps(a)
    clones = [pickle.loads(data), pickle.loads(data), copy.copy(a), copy.deepcopy(a)]
    # a pickled state holds the options as validated (multi_ref "max", not None): its own key
    assert all(clone._shared is clones[0]._shared for clone in clones) and clones[0]._shared is not a._shared
    for clone in clones:
        assert clone.score(*text) == a.score(*text) and clone.rouge_types == a.rouge_types
    assert len({id(clone.rouge_types) for clone in clones}) == len(clones)   # each its own list
    if compiled.AVAILABLE:
        assert compiled_scorer(clones[0]).engine is compiled_scorer(clones[1]).engine


def test_a_process_that_only_unpickles_shares_and_builds_readers_on_first_use():
    data = pickle.dumps(RougeScorer(["rouge1", "rougeLsum"], flavor="rouge_score", use_stemmer=True))
    shared_scorers.clear()   # as in a spawned worker: its scorers arrive pickled
    first, second = pickle.loads(data), pickle.loads(data)
    assert first._shared is second._shared and first._shared.state["_built"] is None
    assert first.score("runners running", "a runner runs") == second.score("runners running", "a runner runs")
    # the tokenizers the first of them built on first use are the record's from then on
    third = pickle.loads(data)
    assert third.__dict__["_built"] is first.__dict__["_built"] is first._shared.state["_built"]
    # a scorer built there with the options as validated takes the record, and has its
    # tokenizers at construction
    built = RougeScorer(["rouge1", "rougeLsum"], flavor="rouge_score", use_stemmer=True, multi_ref="max",
                        jackknife=False)
    assert built._shared is first._shared and built.__dict__["_built"] is not None
    # an old pickle without split_summaries, or a subclass, as before
    state = first.__getstate__()
    assert "split_summaries" not in state

    class Mine(RougeScorer):
        pass

    mine = Mine.__new__(Mine)
    mine.__setstate__(state)
    assert "_shared" not in vars(mine) and mine.score("a b", "a c") == first.score("a b", "a c")


def test_memory_kept_is_bounded():
    configs = [(["rouge1"], {"alpha": 0.1 * k + 0.05}) for k in range(shared_scorers.MAX_RECORDS + 3)]
    for types, options in configs:
        RougeScorer(types, **options).score_batch(*texts(3, 100, 50), n_jobs=2)
    assert len(shared_scorers._records) == shared_scorers.MAX_RECORDS
    if not compiled.AVAILABLE:
        return
    record = RougeScorer(["rouge1"], alpha=0.75)._shared
    for n_jobs in (4, 4, 1, 4, 1):
        scorer = RougeScorer(["rouge1"], alpha=0.75)
        scorer.score_batch(*texts(4, 300, 50), n_jobs=n_jobs)
        del scorer
        # (a helper thread may still hold the scorer's pool for a moment: at most, never more)
        assert len(record.spare) <= shared_scorers.SPARE_WORKERS
    assert len(record.spare) >= 1   # the last one, on the calling thread alone, gave its Worker


def test_clear_starts_cold():
    a = RougeScorer(["rouge1"])
    shared_scorers.clear()
    b = RougeScorer(["rouge1"])
    assert a._shared is not b._shared
    if compiled.AVAILABLE:
        assert compiled_scorer(a).engine is not compiled_scorer(b).engine


def test_threads_building_and_scoring_at_once():
    preds, refs = texts(5, 100, 200)
    config = CONFIGS[2]
    expected = make(config).score_batch(preds, refs)
    shared_scorers.clear()
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append(make(config).score_batch(preds, refs))
        except BaseException as error:   # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 80 and all(r == expected for r in results)


def _score_in_child(args):
    preds, refs = args
    return RougeScorer(["rouge1", "rougeL"]).score_batch(preds, refs, n_jobs=2)


def test_a_forked_child_builds_its_own_engine():
    preds, refs = texts(6, 200, 300)
    parent = RougeScorer(["rouge1", "rougeL"])
    expected = parent.score_batch(preds, refs, n_jobs=2)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map(_score_in_child, [(preds, refs)]) == [expected]
    assert parent.score_batch(preds, refs) == expected
