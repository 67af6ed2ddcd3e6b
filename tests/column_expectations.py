"""What the per-row ROUGE columns must hold (Spark's and datasets' ``add_rouge_columns``), written
independently of rouge_full_metric.columns: ``score_batch``'s scores under the evaluate metric's
key names (``rouge1`` = F, ``rouge1_precision``, ``rouge1_recall``)."""


def expected_columns(scorer, preds, refs):
    out = {}
    for s in scorer.score_batch(preds, refs):
        for t in scorer.rouge_types:
            for suffix, field in (("", "fmeasure"), ("_precision", "precision"), ("_recall", "recall")):
                out.setdefault(t + suffix, []).append(getattr(s[t], field))
    return out
