"""Issue 12, new user 11: the helper module says what it is when run, and the examples' generation
settings do not make transformers warn at every batch."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
needs_trainer = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("transformers", "torch", "accelerate", "datasets")),
    reason="needs transformers, torch, accelerate and datasets (the [trainer] extra)")


def _python(code_or_script, *args, timeout=600):
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1",
               HF_UPDATE_DOWNLOAD_COUNTS="0", TRANSFORMERS_VERBOSITY="warning")
    argv = [sys.executable, *(["-c", code_or_script] if "\n" in code_or_script else [code_or_script]), *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(EXAMPLES.parent))


def test_the_helper_module_has_a_main():
    source = (EXAMPLES / "tiny_seq2seq.py").read_text(encoding="utf-8")
    assert 'if __name__ == "__main__":' in source


@needs_trainer
def test_the_helper_module_says_what_it_is_when_run():
    proc = _python(str(EXAMPLES / "tiny_seq2seq.py"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "not an example itself" in proc.stdout and "one-layer T5" in proc.stdout


@needs_trainer
def test_trainer_evaluations_generate_without_warnings(tmp_path):
    # two evaluations of 3 batches each: before the fix, 5 "Both max_new_tokens and max_length" warnings
    code = ("import sys\n"
            "sys.path.insert(0, %r)\n"
            "import trainer_seq2seq as t\n"
            "from tiny_seq2seq import model_and_tokenizer, summarization_rows\n"
            "rows = summarization_rows()\n"
            "model, tok = model_and_tokenizer(None, rows, 0)\n"
            "data = t.tokenized_datasets(rows, tok)\n"
            "for streaming in (False, True):\n"
            "    make = t.make_streaming_compute_metrics if streaming else t.make_compute_metrics\n"
            "    t.make_trainer(model, tok, data, data, make(tok), %r, streaming=streaming, epochs=0).evaluate()\n"
            "print('ok')\n" % (str(EXAMPLES), str(tmp_path)))
    proc = _python(code)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr[-3000:]
    assert "seem to have been set" not in proc.stderr, proc.stderr[-3000:]
    assert "[transformers]" not in proc.stderr, proc.stderr[-3000:]


@needs_trainer
def test_trainer_example_logs_f_only():
    proc = _python(str(EXAMPLES / "trainer_seq2seq.py"), "--epochs", "0", "--f-only")
    assert proc.returncode == 0, proc.stderr[-3000:]
    names = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("eval_rouge")]
    assert names == ["eval_rouge1", "eval_rouge2", "eval_rougeL", "eval_rougeLsum"]


@needs_trainer
def test_evaluator_example_generates_without_warnings():
    pytest.importorskip("scipy", reason="evaluate.evaluator needs scipy (evaluate[evaluator])")
    import transformers

    if int(transformers.__version__.split(".")[0]) >= 5:
        pytest.skip("evaluate.evaluator('summarization') needs transformers<5 (and so datasets<5)")
    proc = _python(str(EXAMPLES / "evaluator_summarization.py"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    # before: "Your max_length is set to 25, but your input_length is only 18 ..." once per document
    assert "max_length" not in proc.stderr and "seem to have been set" not in proc.stderr, proc.stderr[-3000:]
    assert "rouge1 " in proc.stdout
