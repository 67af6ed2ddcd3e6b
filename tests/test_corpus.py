"""corpus.py: corpus averages and their intervals, out of scorer.py since issue 21's import work.
Their numbers are tested where they were before (test_scorer_api, test_numpy_free, the Perl's
goldens); here, what the move must keep: the classes' old names, pickles that name them, and
warnings that point at the user's call, not at a frame the move added."""
import pickle
import warnings

import pytest

import rouge_full_metric
from rouge_full_metric import RougeScorer, corpus, scorer
from rouge_full_metric.lost_text import LostTextWarning
from rouge_full_metric.undefined import UndefinedScoreWarning


@pytest.mark.parametrize("name", ["Stat", "AggregateScore", "CorpusResult", "check_bootstrap_options"])
def test_the_old_names_are_the_corpus_module_s(name):
    assert getattr(scorer, name) is getattr(corpus, name)
    if name != "check_bootstrap_options":
        assert getattr(rouge_full_metric, name) is getattr(corpus, name)
        namespace = {}
        exec("from rouge_full_metric import %s" % name, namespace)
        assert namespace[name] is getattr(corpus, name)


def test_unknown_names_still_raise_attribute_error():
    with pytest.raises(AttributeError, match="rouge_full_metric.scorer.*'Stats'"):
        scorer.Stats
    with pytest.raises(AttributeError, match="'Stats'"):
        rouge_full_metric.Stats


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickles_that_name_scorer_load(protocol):
    # a CorpusResult pickled before the move names rouge_full_metric.scorer for its classes (the
    # two module names have the same length, so the payload stays well-formed)
    result = RougeScorer(["rouge1", "rougeL"]).score_corpus(["the cat sat", "a dog"], ["the cat", "a dog ran"])
    payload = pickle.dumps(result, protocol=protocol)
    assert b"rouge_full_metric.corpus" in payload
    old = payload.replace(b"rouge_full_metric.corpus", b"rouge_full_metric.scorer")
    assert b"rouge_full_metric.corpus" not in old
    back = pickle.loads(old)
    assert back == result and type(back) is corpus.CorpusResult
    assert type(back.aggregate["rouge1"]) is corpus.AggregateScore
    assert type(back.aggregate["rouge1"].recall) is corpus.Stat


def _caught(call, category):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w for w in caught if issubclass(w.category, category)]


def test_score_corpus_lost_text_warning_names_its_caller():
    found = _caught(lambda: RougeScorer(["rouge1"]).score_corpus(["这是一个测试句子"], ["这是另一个句子"]),
                    LostTextWarning)
    assert len(found) == 1 and found[0].filename == __file__, [(w.filename, w.lineno) for w in found]


def test_score_corpus_nan_warning_names_its_caller():
    # flavor matlab leaves NaN out of the averages and says so: rouge2 of a one-word reference
    found = _caught(lambda: RougeScorer(["rouge2"], flavor="matlab").score_corpus(["a b c", "a b"], ["a b", "c"]),
                    UndefinedScoreWarning)
    assert len(found) == 1 and found[0].filename == __file__, [(w.filename, w.lineno) for w in found]


@pytest.mark.parametrize("numpy_free", [False, True])
def test_plain_means_nan_warning_names_its_caller(monkeypatch, numpy_free):
    # corpus_means and mean_scores leave NaN out as score_corpus does, and say so as it does:
    # its message, this file's line (either table: numpy's, or array("d") without numpy)
    monkeypatch.setattr(corpus, "numpy_free", lambda replicates=0: numpy_free)
    s = RougeScorer(["rouge1", "rouge2"], flavor="matlab")
    preds, refs = ["a b c", "a b", ""], ["a b", "c", ""]
    message = ("undefined (NaN) scores left out of the corpus averages: rouge1: 1 of 3 examples (precision 1, "
               "recall 1, F 1); rouge2: 2 of 3 examples (precision 1, recall 2, F 2)")
    for call in (lambda: s.mean_scores(preds, refs), lambda: s.corpus_means(s.score_batch(preds, refs))):
        found = _caught(call, UndefinedScoreWarning)
        assert len(found) == 1 and found[0].filename == __file__, [(w.filename, w.lineno) for w in found]
        assert str(found[0].message).startswith(message), str(found[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # nothing left out, nothing said; other flavors never omit
        assert s.mean_scores(["a b"], ["a b"])["rouge2"].recall == 1.0
        assert RougeScorer(["rouge2"]).mean_scores(["a b"], ["c"])["rouge2"].recall == 0.0


def test_the_scorer_module_holds_none_of_the_corpus_names():
    # the point of the move (tests/test_startup.py checks the imports in new interpreters): a name
    # imported into scorer.py at its top would bring corpus.py back into every scoring process
    assert not {"Stat", "AggregateScore", "CorpusResult", "check_bootstrap_options"} & set(vars(scorer))
