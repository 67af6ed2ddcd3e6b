"""rouge_full_metric.hf_datasets: ROUGE columns through Dataset.map, equal to score_batch."""
import os
import random
import sys

import pytest

datasets = pytest.importorskip("datasets")

from rouge_full_metric import RougeScorer  # noqa: E402
from rouge_full_metric.hf_datasets import add_rouge_columns  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from column_expectations import expected_columns  # noqa: E402

WORDS = "the a police killed kill gunman cat cats sat mat on of quick brown fox runs ran dog dogs was".split()
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]


def _corpus(n, seed, multi=True):
    rnd = random.Random(seed)

    def text():
        return "\n".join(" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 12)))
                         for _ in range(rnd.randint(1, 3)))

    return [text() for _ in range(n)], [[text() for _ in range(rnd.randint(1, 3))] if multi else text()
                                        for _ in range(n)]


@pytest.mark.parametrize("multi,options", [
    (True, {"use_stemmer": True, "remove_stopwords": True}),
    (False, {"flavor": "rouge_score", "use_stemmer": True}),
], ids=["multi-ref-stem-stop", "single-ref-rouge_score"])
def test_two_processes_equal_score_batch(multi, options):
    preds, refs = _corpus(2000, seed=4, multi=multi)
    types = TYPES if options.get("flavor") != "rouge_score" else ["rouge1", "rougeL", "rougeLsum"]
    ds = datasets.Dataset.from_dict({"id": list(range(len(preds))), "prediction": preds, "reference": refs})
    scored = add_rouge_columns(ds, rouge_types=types, num_proc=2, batch_size=300, **options)
    want = expected_columns(RougeScorer(types, **options), preds, refs)
    assert scored.column_names == ["id", "prediction", "reference"] + list(want)
    assert list(scored["id"]) == list(range(len(preds)))
    for name, values in want.items():
        assert scored.features[name] == datasets.Value("float64")
        assert list(scored[name]) == values, name


def test_options_change_the_numbers():
    ds = datasets.Dataset.from_dict({"prediction": ["the cats were running"], "reference": ["a cat runs"]})
    plain = add_rouge_columns(ds, rouge_types=["rouge1"])[0]["rouge1"]
    stemmed = add_rouge_columns(ds, rouge_types=["rouge1"], use_stemmer=True)[0]["rouge1"]
    assert (plain, stemmed) == (0.0, RougeScorer(["rouge1"], use_stemmer=True).score(
        "the cats were running", "a cat runs")["rouge1"].fmeasure) and stemmed > 0


def test_missing_text_gives_none_and_bad_rows_are_named():
    ds = datasets.Dataset.from_dict({"prediction": ["a b", None, "a"], "reference": [["a b c"], ["a"], None]})
    scored = add_rouge_columns(ds, rouge_types=["rouge1"], num_proc=2, batch_size=1)
    assert list(scored["rouge1_recall"]) == [0.66667, None, None]
    bad = datasets.Dataset.from_dict({"prediction": ["a", "b", "c"], "reference": [["a"], ["b"], []]})
    with pytest.raises(ValueError, match=r"row 2: references.*empty"):
        add_rouge_columns(bad, rouge_types=["rouge1"], batch_size=2)


def test_arguments_are_checked():
    ds = datasets.Dataset.from_dict({"prediction": ["a"], "reference": ["a"], "rouge1": [0.0]})
    with pytest.raises(ValueError, match="references='refs' is not a column"):
        add_rouge_columns(ds, references="refs")
    with pytest.raises(ValueError, match="already has column"):
        add_rouge_columns(ds, rouge_types=["rouge1"])
    with pytest.raises(ValueError, match="multi_ref must be one of"):
        add_rouge_columns(ds, rouge_types=["rouge2"], multi_ref="all")


def test_iterable_dataset():
    preds, refs = _corpus(50, seed=8)
    ds = datasets.Dataset.from_dict({"prediction": preds, "reference": refs}).to_iterable_dataset()
    rows = list(add_rouge_columns(ds, rouge_types=["rougeLsum"], batch_size=16))
    want = expected_columns(RougeScorer(["rougeLsum"]), preds, refs)
    assert [r["rougeLsum"] for r in rows] == want["rougeLsum"]
    with pytest.raises(ValueError, match="num_proc applies to a datasets.Dataset"):
        add_rouge_columns(ds, num_proc=2)
