"""The examples run, offline, and compute what they claim.

The transformers examples need ``transformers``, ``torch`` and ``accelerate`` (optional test
extras) and are skipped without them; their ``compute_metrics`` logic is also tested here with a
stand-in tokenizer, so the −100 masking is checked everywhere.  ``evaluate.evaluator`` needs
``transformers<5`` (its summarization pipeline is gone in 5) and ``scipy``.
"""
import importlib
import importlib.util
import os
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

evaluate = pytest.importorskip("evaluate")

import rouge_full_metric  # noqa: E402
from rouge_full_metric import RougeScorer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
SUBPROCESS_TIMEOUT = 300

EvalPrediction = namedtuple("EvalPrediction", ["predictions", "label_ids"])


def _example(name):
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))  # the examples import their helper tiny_seq2seq
    return importlib.import_module(name)


def _have(*modules):
    return all(importlib.util.find_spec(m) is not None for m in modules)


def _transformers_major():
    import transformers

    return int(transformers.__version__.split(".")[0])


needs_trainer = pytest.mark.skipif(not _have("transformers", "torch", "accelerate"),
                                   reason="needs transformers, torch and accelerate (optional test extras)")


def _run_example(name, tmp_path, *args):
    env = dict(os.environ, HF_HOME=str(tmp_path / "hf_home"), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_UPDATE_DOWNLOAD_COUNTS="0", HF_HUB_DISABLE_TELEMETRY="1")
    for var in ("HF_MODULES_CACHE", "HF_EVALUATE_CACHE"):
        env.pop(var, None)
    proc = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc.stdout


@pytest.fixture(scope="module")
def rouge():
    return evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR)


# ----------------------------------------------------------------------------------- plain examples
def test_quickstart_runs(tmp_path):
    out = _run_example("quickstart.py", tmp_path)
    assert "flavor:rouge155|stem:yes" in out and "human ceiling" in out


def test_multi_reference_example(tmp_path, rouge):
    out = _run_example("multi_reference.py", tmp_path)
    assert "human ceiling" in out and "max" in out
    mr = _example("multi_reference")
    predictions, references = mr.load_sample()
    assert all(len(refs) >= 2 for refs in references)
    options = {"use_stemmer": True, "multi_ref": "max"}
    # the ceiling through RougeScorer.human_ceiling and through the metric are the same number
    ceiling = mr.human_ceiling(references, **options)
    assert mr.human_ceiling_with_metric(rouge, references, **options) == pytest.approx(ceiling, abs=1e-12)
    # the jackknifed system score is the mean of the engine's jackknifed per-example F
    system = mr.jackknifed(rouge, predictions, references, **options)
    scorer = RougeScorer(mr.TYPES, jackknife=True, **options)
    per_example = [scorer.score(p, r) for p, r in zip(predictions, references)]
    for t in mr.TYPES:
        assert system[t] == pytest.approx(sum(s[t].fmeasure for s in per_example) / len(per_example), abs=1e-12)
    rules = mr.pooling_rules(rouge, predictions, references)
    assert set(rules) == {"average", "best", "max"} and rules["average"] != rules["max"]


# ----------------------------------------------------------------------------------- compute_metrics, no model
class FakeTokenizer:
    """Decodes ids like a transformers tokenizer: pad 0 and eos 1 are special; a negative id fails
    as it does in the real (Rust) tokenizers."""

    pad_token_id = 0
    words = ["<pad>", "</s>", "police", "killed", "the", "gunman", ".", "siege", "lasted", "six", "hours", "a",
             "cat", "sat", "on", "mat", "Police", "The", "ran"]

    def batch_decode(self, ids, skip_special_tokens=False):
        out = []
        for row in np.asarray(ids).tolist():
            if any(i < 0 for i in row):
                raise OverflowError("out of range integral type conversion attempted")
            words = [self.words[i] for i in row if not (skip_special_tokens and i in (0, 1))]
            out.append(" ".join(words).replace(" .", "."))
        return out


class FakeTensor:
    """What batch_eval_metrics hands over: a tensor to be moved to the CPU."""

    def __init__(self, array):
        self.array = np.asarray(array)

    def detach(self):
        return self

    def cpu(self):
        return self

    def numpy(self):
        return self.array


def _ids(sentences, width, pad):
    """Rows of ids (words of FakeTokenizer, then eos), padded with ``pad`` to ``width``."""
    index = {w: i for i, w in enumerate(FakeTokenizer.words)}
    rows = [[index[w] for w in s.split()] + [1] for s in sentences]
    return np.array([row + [pad] * (width - len(row)) for row in rows])


PRED_TEXTS = ["The siege lasted six hours . Police killed the gunman .", "a cat sat", "the cat ran on the mat .",
              "six hours"]
LABEL_TEXTS = ["Police killed the gunman . The siege lasted six hours .", "a cat sat on the mat .",
               "The cat sat on the mat .", "the siege lasted six hours ."]


def test_compute_metrics_masks_minus_100_in_predictions_and_labels(rouge):
    ts = _example("trainer_seq2seq")
    tok = FakeTokenizer()
    # the Trainer pads generated ids with -100 across batches, the collator pads labels with -100
    predictions, labels = _ids(PRED_TEXTS, 16, -100), _ids(LABEL_TEXTS, 14, -100)
    assert (predictions == -100).any() and (labels == -100).any()
    with pytest.raises(OverflowError):
        tok.batch_decode(predictions)
    got = ts.make_compute_metrics(tok, rouge)(EvalPrediction(predictions, labels))
    decoded_predictions = [t.replace(" .", ".") for t in PRED_TEXTS]
    decoded_labels = [t.replace(" .", ".") for t in LABEL_TEXTS]
    want = rouge.compute(predictions=decoded_predictions, references=decoded_labels, use_stemmer=True,
                         split_sentences="punkt")
    assert got == want
    # sentence splitting matters: one-line texts would give a different rougeLsum
    assert got["rougeLsum"] != rouge.compute(predictions=decoded_predictions, references=decoded_labels,
                                             use_stemmer=True)["rougeLsum"]
    # generated ids as a tuple (ids, extra model outputs) and logits (argmax) are handled too
    assert ts.make_compute_metrics(tok, rouge)(EvalPrediction((predictions, None), labels)) == want
    logits = np.eye(len(FakeTokenizer.words))[np.where(predictions == -100, 0, predictions)]
    assert ts.make_compute_metrics(tok, rouge)(EvalPrediction(logits, labels)) == want


def test_streaming_compute_metrics_equals_the_full_evaluation(rouge):
    ts = _example("trainer_seq2seq")
    tok = FakeTokenizer()
    full = ts.make_compute_metrics(tok, rouge)(EvalPrediction(_ids(PRED_TEXTS, 16, -100), _ids(LABEL_TEXTS, 14, -100)))
    streaming = ts.make_streaming_compute_metrics(tok, evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR))
    for _ in range(2):  # a second evaluation starts from an empty metric
        for start in (0, 2):
            # each batch is padded to its own width: pad id in generated ids, -100 in labels
            batch = EvalPrediction(FakeTensor(_ids(PRED_TEXTS[start:start + 2], 14, 0)),
                                   FakeTensor(_ids(LABEL_TEXTS[start:start + 2], 12, -100)))
            result = streaming(batch, compute_result=start == 2)
            assert result == ({} if start == 0 else full)


# ----------------------------------------------------------------------------------- transformers
@needs_trainer
def test_trainer_end_to_end_with_a_tiny_model(tmp_path):
    pytest.importorskip("datasets")
    ts = _example("trainer_seq2seq")
    tiny = _example("tiny_seq2seq")
    rows = tiny.summarization_rows()
    model, tokenizer = tiny.model_and_tokenizer(None, rows, seed=0)
    data = ts.tokenized_datasets(rows, tokenizer)
    rouge = evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR)
    trainer = ts.make_trainer(model, tokenizer, data, data, ts.make_compute_metrics(tokenizer, rouge),
                              str(tmp_path / "out"), epochs=12)
    trainer.train()
    full = trainer.evaluate()
    streaming = ts.make_trainer(model, tokenizer, data, data, ts.make_streaming_compute_metrics(tokenizer),
                                str(tmp_path / "out2"), streaming=True).evaluate()
    keys = ["eval_%s%s" % (t, s) for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")
            for s in ("", "_precision", "_recall")]
    for key in keys:
        assert isinstance(full[key], float) and 0.0 <= full[key] <= 1.0
        assert streaming[key] == full[key], key
    assert full["eval_rouge1"] > 0.0  # twelve epochs teach the tiny model some words
    # the metrics are ROUGE of the decoded generations; the labels hold -100 (the generations hold
    # it where batches generate to different lengths: the tiny model's max_length pads every batch
    # to 25, so here they do not; the stand-in tests above cover -100 in predictions)
    output = trainer.predict(data)
    assert (output.label_ids == -100).any()
    predictions, references = ts.decode(output.predictions, tokenizer), ts.decode(output.label_ids, tokenizer)
    assert references == [r["summary"].replace("\n", " ") for r in rows]
    direct = rouge.compute(predictions=predictions, references=references, use_stemmer=True, split_sentences="punkt")
    assert {"eval_" + k: v for k, v in direct.items()} == {k: full[k] for k in keys}


@needs_trainer
def test_evaluator_summarization_with_several_references():
    pytest.importorskip("scipy", reason="evaluate.evaluator needs scipy (evaluate[evaluator])")
    if _transformers_major() >= 5:
        pytest.skip("evaluate.evaluator('summarization') needs transformers<5 (and so datasets<5)")
    from transformers import pipeline

    ev = _example("evaluator_summarization")
    tiny = _example("tiny_seq2seq")
    rows = tiny.summarization_rows()
    model, tokenizer = tiny.model_and_tokenizer(None, rows, seed=0)
    pipe = pipeline("summarization", model=model, tokenizer=tokenizer, device=-1)
    data = ev.summarization_data(rows)
    rouge = ev.load_rouge()
    results = ev.evaluate_pipeline(pipe, data, rouge, max_new_tokens=8)
    for key in ("rouge1", "rouge1_low", "rouge1_high", "rougeLsum_recall", "total_time_in_seconds"):
        assert key in results, key
    # the evaluator passed the pipeline's summaries and the reference lists, and the load-time options held
    summaries = [out["summary_text"] for out in pipe(list(data["document"]), truncation=True, max_new_tokens=8)]
    direct = rouge.compute(predictions=summaries, references=[r["references"] for r in rows])
    assert {k: results[k] for k in direct} == direct
    assert rouge.signature().startswith("flavor:rouge155|stem:yes")
