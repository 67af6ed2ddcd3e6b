"""ROUGE through ``evaluate.evaluator("summarization")``, several references per document.

    python examples/evaluator_summarization.py                       # tiny model, offline
    python examples/evaluator_summarization.py --model t5-small      # a Hub model (network)

The evaluator runs a ``transformers`` summarization pipeline, which transformers 5 no longer has:
this needs ``transformers<5``, and since transformers 4 needs ``huggingface_hub<1`` while datasets 5
needs ``huggingface_hub>=1``, also ``datasets<5``; e.g. in its own virtualenv:

    pip install "torch==2.13.0" "transformers>=4.46,<5" "datasets<5" "evaluate[evaluator]==0.4.6" accelerate .

(``evaluate[evaluator]`` brings scipy, which the evaluator imports.)

The evaluator calls ``metric.compute(predictions=..., references=...)`` with nothing else, so the
options are given to ``evaluate.load`` and become the metric's defaults.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# The default model is built offline with random weights: its summaries are noise, so its ROUGE is
# near zero by design; the numbers show the plumbing (keys, intervals, timings), not a model.
UNTRAINED_NOTE = ("note: the default model is a tiny UNTRAINED model (random weights, built offline), so the "
                  "scores below are near zero by design: they show what the evaluator returns, not a model's "
                  "quality; pass --model NAME for a real one")

ROUGE_OPTIONS = {"use_stemmer": True, "split_sentences": "punkt", "confidence_intervals": True}


def load_rouge(**options):
    import evaluate
    import rouge_full_metric

    return evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR, **{**ROUGE_OPTIONS, **options})


def summarization_data(rows):
    """A datasets.Dataset with a "document" column and a "references" column (lists of str)."""
    import datasets

    return datasets.Dataset.from_list([{"document": r["document"], "references": r["references"]} for r in rows])


def evaluate_pipeline(pipe, data, rouge=None, max_new_tokens=16):
    import evaluate

    rouge = rouge if rouge is not None else load_rouge()
    task_evaluator = evaluate.evaluator("summarization")
    # Said as max_length (the decoder's start token + the new tokens): the summarization pipeline
    # checks max_length, not max_new_tokens, against each input's length and warns once per
    # document when a summary may outgrow it (the sample's documents have 18-23 tokens).
    return task_evaluator.compute(model_or_pipeline=pipe, data=data, metric=rouge, input_column="document",
                                  label_column="references", generation_kwargs={"max_length": max_new_tokens + 1})


def run(model_name=None, seed=0):
    from transformers import pipeline

    from tiny_seq2seq import model_and_tokenizer, summarization_rows

    rows = summarization_rows()
    model, tokenizer = model_and_tokenizer(model_name, rows, seed)
    pipe = pipeline("summarization", model=model, tokenizer=tokenizer, device=-1)
    return evaluate_pipeline(pipe, summarization_data(rows))


def main(argv=None):
    parser = argparse.ArgumentParser(description="ROUGE with evaluate.evaluator('summarization')")
    parser.add_argument("--model", help="a seq2seq model on the Hub (default: a tiny untrained model, offline)")
    args = parser.parse_args(argv)
    if args.model is None:
        print(UNTRAINED_NOTE)
    for name, value in sorted(run(args.model).items()):
        print("%-26s %s" % (name, value))


if __name__ == "__main__":
    main()
