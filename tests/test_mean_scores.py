"""RougeScorer.mean_scores / batch.score_table: the averages the metric reports with
aggregate="mean", from a float64 table the core fills instead of Python objects per example.
They must be corpus_means(score_batch(...)) to the last bit, on every path (the core's table, the
wrappers that fall back to score_batch, the pure-Python engine)."""
import os
import random
import sys
import warnings

import numpy as np
import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric.batch import compiled_scorer, score_table, value_table
from rouge_full_metric.corpus import column_means
from rouge_full_metric.lost_text import LostTextWarning

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from undefined_expectations import said_alike  # noqa: E402

WORDS = ["alpha", "beta", "gamma", "delta", "running", "runs", "the", "of", "x1", "caf\u00e9", "U.S.", "1999"]

CONFIGS = [
    ("rouge155", ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"], {"use_stemmer": True}),
    ("rouge155", ["rouge1", "rougeL"], {"multi_ref": "best", "remove_stopwords": True}),
    ("rouge155", ["rouge2"], {"jackknife": True}),
    ("rouge_score", ["rouge1", "rouge2", "rougeL", "rougeLsum"], {}),
    ("rouge_score", ["rougeLsum", "rouge1"], {"use_stemmer": True}),
    ("xlsum", ["rouge1", "rougeL", "rougeLsum"], {}),                 # the core through a wrapper
    ("paper", ["rouge1", "rougeS*"], {}),
    ("matlab", ["rouge1", "rougeL"], {}),
    ("rouge155", ["rouge1", "rougeL"], {"lang": "zh"}),                # a segmenter in Python
]


def batch(seed, n, multi):
    rng = random.Random(seed)

    def text():
        return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9)))
                         for _ in range(rng.randint(1, 3)))
    preds = [text() for _ in range(n)]
    refs = [[text() for _ in range(rng.randint(1, 3))] if multi else text() for _ in range(n)]
    return preds, refs


def ids(config):
    return "-".join([config[0]] + config[1][:2] + ["%s=%s" % kv for kv in config[2].items()])


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
@pytest.mark.parametrize("multi", [False, True])
def test_mean_scores_equal_corpus_means_of_score_batch(config, multi):
    flavor, types, options = config
    if "lang" in options:
        pytest.importorskip("jieba")
    scorer = RougeScorer(types, flavor=flavor, **options)
    for seed in range(3):
        preds, refs = batch(seed, 150, multi)
        table = score_table(scorer, preds, refs)
        # matlab's means leave NaN out, and both say how many in the same words
        with said_alike(flavor == "matlab" and bool(np.isnan(table).any())):
            expected = scorer.corpus_means(scorer.score_batch(preds, refs))
            got = scorer.mean_scores(preds, refs)
        assert list(got) == list(expected)
        assert repr(got) == repr(expected)   # the same floats, NaN included (matlab)
        assert table.shape == (150, 3 * len(types))
        assert table.tobytes() == value_table(scorer, scorer.score_batch(preds, refs)).tobytes()


def test_the_core_fills_the_table_itself():
    # the plain compiled path: no Python result per example (a wrapper would build them)
    scorer = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score")
    if not compiled.AVAILABLE:
        pytest.skip("compiled core not built")
    cs = compiled_scorer(scorer)
    worker = cs.acquire()
    try:
        table = np.zeros((2, 6))
        assert worker.run(["a b", "c d"], ["a b", "c e"], 0, 2, False, None, table) is None
        assert table.tolist() == [[1.0] * 6, [0.5] * 6]
        with pytest.raises(ValueError, match="table: 96 bytes for 2 examples x 2 types x 3 float64, got 48"):
            worker.run(["a b", "c d"], ["a b", "c e"], 0, 2, False, None, np.zeros((1, 6)))
        with pytest.raises(TypeError, match="table: a float64 buffer, got format f"):
            worker.run(["a b", "c d"], ["a b", "c e"], 0, 2, False, None, np.zeros((2, 12), dtype=np.float32))
        with pytest.raises(BufferError, match="not writable"):
            worker.run(["a"], ["a"], 0, 1, False, None, b"\0" * 24)
        with pytest.raises(ValueError, match="cancel"):
            worker.run(["a"], ["a"], 0, 1, False, bytearray(0))
    finally:
        cs.release(worker)


def test_inputs_the_core_rejects_get_score_batchs_errors():
    scorer = RougeScorer(["rouge1"], flavor="rouge_score")
    with pytest.raises(ValueError, match="differ in length"):
        scorer.mean_scores(["a"], ["a", "b"])
    with pytest.raises(TypeError) as table_error:
        scorer.mean_scores(["a", 3], ["a", "b"])
    with pytest.raises(TypeError) as batch_error:
        scorer.score_batch(["a", 3], ["a", "b"])
    assert str(table_error.value) == str(batch_error.value)
    assert scorer.mean_scores([], []) == scorer.corpus_means([])


def test_mean_scores_warns_of_lost_text_as_score_batch_does():
    scorer = RougeScorer(["rouge1"], flavor="rouge_score")
    preds, refs = ["\u4eca\u5929\u5929\u6c14\u5f88\u597d"] * 3, ["\u4eca\u5929\u5929\u6c14\u4e0d\u9519"] * 3
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        scorer.score_batch(preds, refs)
    with warnings.catch_warnings(record=True) as seen_means:
        warnings.simplefilter("always")
        scorer.mean_scores(preds, refs)
    assert [w.category for w in seen_means if issubclass(w.category, LostTextWarning)] == \
        [w.category for w in seen if issubclass(w.category, LostTextWarning)] != []


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score", "matlab"])
def test_column_means_are_each_columns_fsum(flavor):
    # column_means sums each column with math.fsum (over a memoryview of it, not a list); the
    # means must be those of math.fsum over the column's floats, NaN left out in flavor matlab
    import math

    import numpy as np

    scorer = RougeScorer(["rouge1", "rougeL"], flavor=flavor)
    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 17, 300):
        values = rng.random((n, 6)) * 10.0 ** rng.integers(-20, 20, size=(n, 6))
        values[:, 1] = [1e16, 1.0, -1e16, 1e-16] * (n // 4) + [0.1] * (n % 4)   # cancellation
        if flavor == "matlab":
            values[rng.random((n, 6)) < 0.3] = np.nan
            values[:, 5] = np.nan                                           # a column of NaN only
        expected = []
        for column in values.T.tolist():
            kept = [x for x in column if not math.isnan(x)] if flavor == "matlab" else column
            expected.append(math.fsum(kept) / len(kept) if kept else math.nan)
        assert repr(column_means(scorer, values)) == repr(expected), (flavor, n)
        assert repr(column_means(scorer, values[:, ::-1])) == repr(expected[::-1]), (flavor, n)   # strided


def test_mean_scores_lost_text_warning_names_its_caller():
    # mean_scores reaches the lost-text check through corpus.mean_scores and corpus.batch_table, two
    # frames deeper than the metric's path: the warning must still point at the code that called
    # mean_scores
    import warnings

    from rouge_full_metric.lost_text import LostTextWarning

    scorer = RougeScorer(["rouge1"], flavor="rouge_score")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scorer.mean_scores(["这是一个测试句子"], ["这是另一个句子"])
    lost = [w for w in caught if issubclass(w.category, LostTextWarning)]
    assert len(lost) == 1 and lost[0].filename == __file__, [(w.filename, w.lineno) for w in lost]
