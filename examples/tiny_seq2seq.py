"""A tiny seq2seq model and tokenizer built in-process, so the transformers examples run offline.

The Trainer and evaluator examples take a Hub model name when you have one (``--model t5-small``);
without it they use this: a one-layer T5 with a word-level vocabulary learnt from the bundled
sample.  Its summaries are poor, but every step — generation, −100 padding, decoding, sentence
splitting, scoring — is the real one.  Needs ``transformers`` and ``torch``.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "data", "sample.jsonl")


def load_rows(path=SAMPLE):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summarization_rows(path=SAMPLE):
    """(document, summary, references) per row of the sample: the prediction plays the summary to
    learn and the references, joined, the document; ``references`` keeps them for multi-reference
    scoring."""
    return [{"document": " ".join(r["references"]).replace("\n", " "), "summary": r["prediction"],
             "references": r["references"]} for r in load_rows(path)]


def build_tokenizer(texts, model_max_length=64):
    """A word-level fast tokenizer trained on ``texts`` (no download), T5's special tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    # pad = 0 and eos = 1, as T5 numbers them, so the config's defaults fit
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<pad>", "</s>", "<unk>"]))
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tok.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="</s>", unk_token="<unk>",
                                   model_max_length=model_max_length)


def build_model(vocab_size, seed=0):
    """A one-layer T5 (a few thousand weights): trains and generates in seconds on a CPU."""
    import torch
    from transformers import T5Config, T5ForConditionalGeneration

    torch.manual_seed(seed)
    config = T5Config(vocab_size=vocab_size, d_model=32, d_kv=8, d_ff=64, num_layers=1, num_decoder_layers=1,
                      num_heads=2, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0,
                      dropout_rate=0.0)
    model = T5ForConditionalGeneration(config)
    # At most 24 new tokens, said as max_length (the decoder's start token + 24): Seq2SeqTrainer
    # fills in a default max_length after its first generate(), and max_new_tokens next to it
    # made transformers warn "Both max_new_tokens and max_length" at every later batch.
    model.generation_config.max_length = 25
    return model


def tiny_model_and_tokenizer(rows=None, seed=0):
    rows = rows if rows is not None else summarization_rows()
    tokenizer = build_tokenizer([r["document"] for r in rows] + [r["summary"] for r in rows])
    return build_model(len(tokenizer), seed), tokenizer


def model_and_tokenizer(name=None, rows=None, seed=0):
    """``name`` from the Hub (needs the network), or the tiny in-process model."""
    if name is None:
        return tiny_model_and_tokenizer(rows, seed)
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    return AutoModelForSeq2SeqLM.from_pretrained(name), AutoTokenizer.from_pretrained(name)


def main():
    """``python examples/tiny_seq2seq.py``: what the helper builds, and one summary it writes."""
    try:
        model, tokenizer = tiny_model_and_tokenizer()
    except ImportError as error:
        raise SystemExit("tiny_seq2seq.py is the helper of the transformers examples and needs torch and "
                         "transformers: pip install \".[trainer]\" (%s)" % error)
    rows = summarization_rows()
    print("tiny_seq2seq.py: the helper that trainer_seq2seq.py and evaluator_summarization.py import "
          "(not an example itself; see examples/README.md)")
    print("built offline: a one-layer T5 with %d weights and a word-level tokenizer of %d words"
          % (sum(p.numel() for p in model.parameters()), len(tokenizer)))
    inputs = tokenizer([rows[0]["document"]], return_tensors="pt", truncation=True)
    generated = model.generate(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"])
    summary = tokenizer.batch_decode(generated, skip_special_tokens=True)[0]
    print("its summary of the first sample document, untrained: %r (trainer_seq2seq.py trains it first)" % summary)


if __name__ == "__main__":
    main()
