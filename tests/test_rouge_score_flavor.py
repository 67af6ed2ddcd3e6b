"""Flavor rouge_score: identical to Google's rouge_score 0.1.2 (installed as a test dependency)."""
import random

import pytest

from rouge_full_metric import RougeScorer

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
WORDS = ("the a of police killed gunman running runs ran Runner's İstanbul Kelvin \u212a 3.5 "
         "state-of-the-art U.S. e-mail caresses ponies agreed generously café 中文 -- ...").split()


def _text(rnd):
    return "\n".join(" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 12)))
                     for _ in range(rnd.randint(1, 4)))


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")  # random texts include CJK on purpose
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_identical_on_random_multi_reference_cases(use_stemmer):
    rnd = random.Random(7 + use_stemmer)
    theirs = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    ours = RougeScorer(TYPES, flavor="rouge_score", use_stemmer=use_stemmer)
    mismatches = []
    for _ in range(1500):
        pred, refs = _text(rnd), [_text(rnd) for _ in range(rnd.randint(1, 3))]
        want = theirs.score_multi(refs, pred) if len(refs) > 1 else theirs.score(refs[0], pred)
        got = ours.score(pred, refs)
        mismatches += [(t, want[t], got[t], pred, refs) for t in TYPES if tuple(want[t]) != tuple(got[t])]
    assert not mismatches, mismatches[:3]


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")
def test_score_multi_in_their_argument_order():
    # code ported from rouge_score or rouge-score-rs calls score_multi(targets, prediction)
    rnd = random.Random(19)
    theirs = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    ours = RougeScorer(TYPES, flavor="rouge_score", use_stemmer=True)
    rs = None
    try:
        from rouge_score_rs import rouge_scorer as rs_scorer
        rs = rs_scorer.RougeScorer(TYPES, use_stemmer=True)
    except ImportError:
        pass
    for _ in range(300):
        pred, refs = _text(rnd), [_text(rnd) for _ in range(rnd.randint(1, 4))]
        got = ours.score_multi(refs, pred)
        assert {t: tuple(got[t]) for t in TYPES} == {t: tuple(v) for t, v in theirs.score_multi(refs, pred).items()}
        assert got == ours.score(pred, refs)
        if rs is not None:
            assert {t: tuple(got[t]) for t in TYPES} == {t: tuple(v) for t, v in rs.score_multi(refs, pred).items()}
    with pytest.raises(TypeError, match="targets must be a list of reference texts"):
        ours.score_multi("one reference", "a prediction")


def test_custom_tokenizer_callable_and_object():
    def split_chars(text):
        return [c for c in text if not c.isspace()]

    class Obj:
        def tokenize(self, text):
            return split_chars(text)

    theirs = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], tokenizer=Obj())
    for tok in (split_chars, Obj()):
        ours = RougeScorer(["rouge1", "rougeLsum"], flavor="rouge_score", tokenizer=tok)
        got = ours.score("中文测试\n好", "中文\n测试好")
        want = theirs.score("中文\n测试好", "中文测试\n好")
        assert {k: tuple(v) for k, v in got.items()} == {k: tuple(v) for k, v in want.items()}
    assert "tok:custom" in ours.signature()


def test_rejects_what_rouge_score_cannot_compute():
    with pytest.raises(ValueError, match="rougeW-1.2"):
        RougeScorer(["rouge1", "rougeW-1.2"], flavor="rouge_score")
    with pytest.raises(ValueError, match="word_limit"):
        RougeScorer(["rouge1"], flavor="rouge_score", word_limit=10)
    with pytest.raises(ValueError, match="tokenizer is only used"):
        RougeScorer(["rouge1"], tokenizer=str.split)
    with pytest.raises(TypeError, match="tokenizer"):
        RougeScorer(["rouge1"], flavor="rouge_score", tokenizer=5)


def test_corpus_mid_is_the_plain_mean():
    preds, refs = ["a b", "c d", "a b c"], ["a b", "e f", "a b d e"]
    res = RougeScorer(["rouge1"], flavor="rouge_score").score_corpus(preds, refs)
    assert res.aggregate["rouge1"].fmeasure.mid == pytest.approx((1 + 0 + 4 / 7) / 3)
