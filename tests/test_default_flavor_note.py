"""Issue 17: swapping evaluate.load("rouge") for this metric changes the numbers under the same keys.
The first compute() that names no flavor says so once (DefaultFlavorNote) and how to get
evaluate's numbers; naming a flavor keeps it quiet."""
import json
import sys
import warnings
from pathlib import Path

import pytest

evaluate = pytest.importorskip("evaluate")
import rouge_full_metric  # noqa: E402

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "data" / "sample.jsonl"
P, R = ["police kill the gunman"], [["police killed the gunman"]]


def _load(**options):
    metric = evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR, **options)
    module = sys.modules[type(metric).__module__]
    module._noted.clear()   # "once per process": start each test as a fresh process would
    return metric, module


def _notes(caught, module):
    return [w for w in caught if issubclass(w.category, module.DefaultFlavorNote)]


def test_first_compute_with_the_default_flavor_notes_once():
    metric, module = _load()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        metric.compute(predictions=P, references=R)
        metric.compute(predictions=P, references=R)
        evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR).compute(predictions=P, references=R)   # another instance
    notes = _notes(caught, module)
    assert len(notes) == 1, [str(w.message) for w in caught]
    text = str(notes[0].message)
    assert "flavor='rouge_score'" in text and "flavor='rouge155'" in text and "once" in text
    assert "evaluate.load('rouge')" in text


@pytest.mark.parametrize("load, compute", [({"flavor": "rouge155"}, {}), ({}, {"flavor": "rouge155"}),
                                           ({}, {"flavor": "rouge_score"}), ({"flavor": "paper"}, {})])
def test_a_named_flavor_is_quiet(load, compute):
    metric, module = _load(**load)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        metric.compute(predictions=P, references=R, **compute)
    assert not _notes(caught, module)


def test_the_numbers_the_note_quotes_hold():
    if not SAMPLE.is_file():
        pytest.skip("examples/data/sample.jsonl is in the checkout only")
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    p, r = [x["prediction"] for x in rows], [x["references"] for x in rows]
    metric, module = _load()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = metric.compute(predictions=p, references=r)["rouge1"]
        theirs = metric.compute(predictions=p, references=r, flavor="rouge_score")["rouge1"]
    assert "rouge1 %.3f here, %.3f there" % (ours, theirs) in module.DEFAULT_FLAVOR_NOTE
