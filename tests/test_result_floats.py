"""The core's result floats come from a cache on the compiled scorer (csrc/worker.c result_float:
256 slots by the value's bits until a build of 64 examples, then 8,192), so that equal scores share one float object instead of each
example allocating and later freeing its own; whole Score objects too (result_score: by their
three floats' bits, as many slots, from the big cache on), when the Score type is a plain tuple
subclass whose instances cannot be changed.  Sharing must never change a value: these tests compare every
float, bit for bit, with the pure-Python engine on batches with many more distinct values than
slots (every slot evicted again and again), on one thread and on two."""
import gc
import random
import struct

import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric.batch import score_examples

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled core is not built")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def varied_batch(n, seed, longest):
    """Pairs of 1..longest words sharing a random number of them: P, R and F over many
    denominators and numerators."""
    rng = random.Random(seed)
    preds, refs = [], []
    for _ in range(n):
        lp, lr = rng.randint(1, longest), rng.randint(1, longest)
        shared = rng.randint(0, min(lp, lr))
        pred = ["p%d" % k for k in range(lp)]
        ref = pred[:shared] + ["r%d" % k for k in range(lr - shared)]
        rng.shuffle(ref)
        cut = rng.randint(0, lr)
        preds.append(" ".join(pred))
        refs.append(" ".join(ref[:cut]) + "\n" + " ".join(ref[cut:]))
    return preds, refs


def bits(results):
    return [struct.pack("<3d", *score) for example in results for score in example.values()]


def pure_python(monkeypatch, scorer_args, scorer_kwargs, call):
    with monkeypatch.context() as m:
        m.setattr(compiled, "AVAILABLE", False)
        return call(RougeScorer(*scorer_args, **scorer_kwargs))


def test_more_distinct_values_than_slots(monkeypatch):
    preds, refs = varied_batch(5000, 1, 300)
    types = ["rouge1", "rouge2"]
    scorer = RougeScorer(types, flavor="rouge_score")
    one = scorer.score_batch(preds, refs)
    assert len({v for example in one for score in example.values() for v in score}) > 8192
    two = scorer.score_batch(preds, refs, n_jobs=2)
    again = scorer.score_batch(preds[::-1], refs[::-1])   # the cache full of the first batch's values
    expected = pure_python(monkeypatch, (types,), {"flavor": "rouge_score"},
                           lambda s: s.score_batch(preds, refs))
    assert bits(one) == bits(two) == bits(expected) == bits(again[::-1])


@pytest.mark.parametrize("flavor", ["rouge_score", "rouge155", "matlab", "paper"])
def test_every_flavors_floats_are_the_pure_python_engines(monkeypatch, flavor):
    preds, refs = varied_batch(300, 2, 40)
    scorer = RougeScorer(TYPES, flavor=flavor)
    got = [scorer.score_batch(preds, refs), scorer.score_batch(preds, refs, n_jobs=2)]
    expected = pure_python(monkeypatch, (TYPES,), {"flavor": flavor}, lambda s: s.score_batch(preds, refs))
    assert bits(got[0]) == bits(got[1]) == bits(expected)


def test_statistics_floats_too(monkeypatch):
    preds, refs = varied_batch(300, 3, 40)
    scorer = RougeScorer(["rouge1", "rougeW-1.2", "rougeL"], flavor="rouge155")
    got = score_examples(scorer, preds, refs, 1)
    expected = pure_python(monkeypatch, (["rouge1", "rougeW-1.2", "rougeL"],), {"flavor": "rouge155"},
                           lambda s: score_examples(s, preds, refs, 1))
    assert repr(got) == repr(expected)
    assert bits(got[0]) == bits(expected[0])


def test_equal_scores_share_one_float_and_outlive_the_scorer():
    scorer = RougeScorer(["rouge1"], flavor="rouge_score")
    first = scorer.score_batch(["a b c", "a b c", "x y"], ["a b d", "a b d", "x y z"])
    second = scorer.score_batch(["a b c"], ["a b d"])
    shared = first[0]["rouge1"].precision
    assert shared == 2 / 3
    assert first[1]["rouge1"].precision is shared and second[0]["rouge1"].recall is shared
    del scorer, second
    gc.collect()
    assert first[0]["rouge1"] == (2 / 3, 2 / 3, 2 / 3)   # the results hold their own references
    assert first[2]["rouge1"].precision == 1.0


def test_equal_scores_share_one_score_object_and_outlive_the_scorer():
    from rouge_full_metric.scoring import Score

    scorer = RougeScorer(["rouge1", "rougeL", "rouge2"], flavor="rouge_score")
    first = scorer.score_batch(["a b c", "a b c", "x y"] * 30, ["a b d", "a b d", "x y z"] * 30)   # the big cache
    second = scorer.score_batch(["a b c"], ["a b d"])   # one example: the big cache stays
    shared = first[0]["rouge1"]
    assert type(shared) is Score and shared == (2 / 3, 2 / 3, 2 / 3)
    assert first[0]["rougeL"] is shared and first[1]["rouge1"] is shared and first[-2]["rougeL"] is shared
    assert second[0]["rouge1"] == shared and second[0]["rouge1"] is second[0]["rougeL"]
    assert first[0]["rouge2"] == (0.5, 0.5, 0.5) and first[3]["rouge2"] is first[0]["rouge2"]
    del scorer, second
    gc.collect()
    assert first[0]["rouge1"] == (2 / 3, 2 / 3, 2 / 3) and first[2]["rouge1"] == (1.0, 2 / 3, 0.8)


def test_a_score_type_whose_instances_can_change_is_never_shared(monkeypatch):
    from rouge_full_metric import batch
    from rouge_full_metric.scoring import Score

    class Loose(Score):   # no __slots__: each instance has a __dict__
        pass

    monkeypatch.setattr(batch, "Score", Loose)
    got = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score").score_batch(["a b c"] * 100, ["a b d"] * 100)
    assert type(got[0]["rouge1"]) is Loose
    assert got[0]["rouge1"] == got[1]["rouge1"] == got[0]["rougeL"]
    assert got[0]["rouge1"] is not got[1]["rouge1"] and got[0]["rouge1"] is not got[0]["rougeL"]
    got[0]["rouge1"].note = "mine"
    assert not hasattr(got[1]["rouge1"], "note")
    assert got[0]["rouge1"].precision is got[1]["rouge1"].precision   # its floats are still shared


def test_the_cache_grows_between_calls(monkeypatch):
    # score() builds one example (the small cache), a batch of 300 makes the whole cache (the
    # small one's floats released while results still hold them), then single pairs again
    preds, refs = varied_batch(300, 4, 60)
    scorer = RougeScorer(TYPES, flavor="rouge_score")
    before = [scorer.score(p, r) for p, r in zip(preds[:40], refs[:40])]
    batch = scorer.score_batch(preds, refs)
    after = [scorer.score(p, r) for p, r in zip(preds, refs)]
    expected = pure_python(monkeypatch, (TYPES,), {"flavor": "rouge_score"}, lambda s: s.score_batch(preds, refs))
    assert bits(before) == bits(expected[:40])
    assert bits(batch) == bits(after) == bits(expected)
