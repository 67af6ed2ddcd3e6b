"""ROUGE in a transformers ``Seq2SeqTrainer``: ``compute_metrics`` and the streaming variant.

    python examples/trainer_seq2seq.py                  # tiny model built in-process, offline
    python examples/trainer_seq2seq.py --model t5-small # a Hub model (needs the network)
    python examples/trainer_seq2seq.py --f-only         # log the 4 F-measures only

Needs ``torch``, ``transformers>=4.46`` (4 or 5), ``accelerate`` (the Trainer's own requirement),
``evaluate`` and ``datasets``: ``pip install ".[trainer]"`` after a CPU torch (examples/README.md).
Two pitfalls
the functions below handle:

* ``predict_with_generate=True`` pads generated ids *and* labels with -100 (the Trainer pads
  predictions of different lengths across batches with -100, the collator pads labels with it);
  a tokenizer cannot decode -100, so both are replaced by the pad id before decoding.
* ``rougeLsum`` compares sentence by sentence, reading one sentence per line, and decoded text is
  one line: ``split_sentences="punkt"`` puts each sentence on its own line, offline.

``make_compute_metrics`` scores once over the whole evaluation set; ``make_streaming_compute_metrics``
is for ``batch_eval_metrics=True`` (the Trainer then calls it after every batch, with
``compute_result=True`` on the last), which keeps only the decoded texts instead of every batch's
ids.  Both give the same numbers.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# use_stemmer and split_sentences as load-time defaults would work too; spelling them out here
# keeps the call self-explanatory.
ROUGE_OPTIONS = {"use_stemmer": True, "split_sentences": "punkt"}


def load_rouge(**options):
    import evaluate
    import rouge_full_metric

    return evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR, **options)


def _to_numpy(array):
    # batch_eval_metrics hands over torch tensors (possibly on the GPU), the full evaluation numpy
    if hasattr(array, "detach"):
        array = array.detach().cpu().numpy()
    return np.asarray(array)


def decode(ids, tokenizer):
    """Token ids (a 2-D array, -100 where padded) to texts."""
    ids = _to_numpy(ids)
    if ids.ndim == 3:  # logits, when predict_with_generate is off: take the most likely tokens
        ids = ids.argmax(-1)
    ids = np.where(ids != -100, ids, tokenizer.pad_token_id)
    texts = tokenizer.batch_decode(ids, skip_special_tokens=True)
    return [t.strip() for t in texts]


def decode_pair(eval_pred, tokenizer):
    predictions, labels = eval_pred.predictions, eval_pred.label_ids
    if isinstance(predictions, tuple):  # some models return (ids, extra outputs)
        predictions = predictions[0]
    return decode(predictions, tokenizer), decode(labels, tokenizer)


def make_compute_metrics(tokenizer, rouge=None, **options):
    """``compute_metrics`` for ``Seq2SeqTrainer(..., compute_metrics=...)``."""
    rouge = rouge if rouge is not None else load_rouge()
    options = {**ROUGE_OPTIONS, **options}

    def compute_metrics(eval_pred):
        predictions, references = decode_pair(eval_pred, tokenizer)
        return rouge.compute(predictions=predictions, references=references, **options)

    return compute_metrics


def make_streaming_compute_metrics(tokenizer, rouge=None, **options):
    """``compute_metrics`` for ``batch_eval_metrics=True``: add each batch, compute at the end."""
    rouge = rouge if rouge is not None else load_rouge()
    options = {**ROUGE_OPTIONS, **options}

    def compute_metrics(eval_pred, compute_result=False):
        predictions, references = decode_pair(eval_pred, tokenizer)
        rouge.add_batch(predictions=predictions, references=references)
        if not compute_result:
            return {}
        # compute() also empties the metric for the next evaluation
        return rouge.compute(**options)

    return compute_metrics


def tokenized_datasets(rows, tokenizer, max_length=64):
    import datasets

    def encode(batch):
        inputs = tokenizer(batch["document"], max_length=max_length, truncation=True)
        inputs["labels"] = tokenizer(text_target=batch["summary"], max_length=max_length, truncation=True)["input_ids"]
        return inputs

    data = datasets.Dataset.from_list([{"document": r["document"], "summary": r["summary"]} for r in rows])
    return data.map(encode, batched=True, remove_columns=["document", "summary"])


def make_trainer(model, tokenizer, train, evaluation, compute_metrics, output_dir, streaming=False, epochs=12,
                 eval_batch_size=2, seed=0):
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    args = Seq2SeqTrainingArguments(
        output_dir=output_dir, per_device_train_batch_size=2, per_device_eval_batch_size=eval_batch_size,
        num_train_epochs=epochs, learning_rate=1e-2, predict_with_generate=True,
        batch_eval_metrics=streaming, save_strategy="no", report_to=[], logging_strategy="no",
        disable_tqdm=True, use_cpu=True, seed=seed, dataloader_num_workers=0)
    return Seq2SeqTrainer(model=model, args=args, train_dataset=train, eval_dataset=evaluation,
                          data_collator=DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100),
                          processing_class=tokenizer, compute_metrics=compute_metrics)


def run(model_name=None, epochs=12, output_dir=None, seed=0, options=None):
    """Train briefly, then evaluate with both ``compute_metrics`` variants; returns both results.
    ``options`` go to the metric (e.g. ``return_precision_recall=False`` for F-measures only)."""
    options = options or {}
    from tiny_seq2seq import model_and_tokenizer, summarization_rows

    rows = summarization_rows()
    model, tokenizer = model_and_tokenizer(model_name, rows, seed)
    data = tokenized_datasets(rows, tokenizer)
    with tempfile.TemporaryDirectory() as tmp:
        output_dir = output_dir or tmp
        trainer = make_trainer(model, tokenizer, data, data, make_compute_metrics(tokenizer, **options), output_dir,
                               epochs=epochs, seed=seed)
        if epochs:
            trainer.train()
        full = trainer.evaluate()
        streaming_trainer = make_trainer(model, tokenizer, data, data, make_streaming_compute_metrics(tokenizer, **options),
                                         output_dir, streaming=True, epochs=epochs, seed=seed)
        streamed = streaming_trainer.evaluate()
    return full, streamed


def main(argv=None):
    parser = argparse.ArgumentParser(description="ROUGE as Seq2SeqTrainer metrics")
    parser.add_argument("--model", help="a seq2seq model on the Hub (default: a tiny model built offline)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--f-only", action="store_true",
                        help="return_precision_recall=False: the Trainer logs the 4 F-measures, not 12 values")
    args = parser.parse_args(argv)
    options = {"return_precision_recall": False} if args.f_only else {}
    full, streamed = run(args.model, args.epochs, options=options)
    for name in sorted(k for k in full if k.startswith("eval_rouge")):
        print("%-24s %.5f   streaming: %.5f" % (name, full[name], streamed[name]))


if __name__ == "__main__":
    main()
