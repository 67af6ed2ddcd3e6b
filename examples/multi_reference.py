"""Several references per summary: pooling rules, jackknifing, and the human ceiling.

    python examples/multi_reference.py

With M references per document, ROUGE can pool the counts over them (the Perl's ``-f A``, the
default here), take the best reference (``"best"``: best recall, the Perl's ``-f B``; ``"max"``:
best F, the papers' rule), or jackknife: score against each of the M sets of M-1 references and
average.  Jackknifed system scores are what the human ceiling is measured on: each reference
scored against the other M-1, averaged (Lin 2004, section 2.1).  A system close to the ceiling
agrees with the references about as well as they agree with each other.
"""
import json
import os

import evaluate

import rouge_full_metric
from rouge_full_metric import RougeScorer

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ["rouge1", "rouge2", "rougeLsum"]


def load_sample(path=os.path.join(HERE, "data", "sample.jsonl")):
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [r["prediction"] for r in rows], [r["references"] for r in rows]


def pooling_rules(rouge, predictions, references):
    """{multi_ref rule: corpus F per type}."""
    return {rule: {t: rouge.compute(predictions=predictions, references=references, rouge_types=TYPES,
                                    multi_ref=rule)[t] for t in TYPES}
            for rule in ("average", "best", "max")}


def jackknifed(rouge, predictions, references, **options):
    """The system's jackknifed corpus F per type (the plain mean, as the ceiling below)."""
    result = rouge.compute(predictions=predictions, references=references, rouge_types=TYPES, jackknife=True,
                           aggregate="mean", **options)
    return {t: result[t] for t in TYPES}


def human_ceiling(references, **options):
    """Each reference against the other M-1, averaged per document, then over documents."""
    scorer = RougeScorer(TYPES, **options)
    per_document = [scorer.human_ceiling(refs) for refs in references]
    return {t: sum(s[t].fmeasure for s in per_document) / len(per_document) for t in TYPES}


def human_ceiling_with_metric(rouge, references, **options):
    """The same ceiling through the evaluate metric: every reference becomes a prediction."""
    predictions, others, document = [], [], []
    for k, refs in enumerate(references):
        for i, ref in enumerate(refs):
            predictions.append(ref)
            others.append(refs[:i] + refs[i + 1:])
            document.append(k)
    per_pair = rouge.compute(predictions=predictions, references=others, rouge_types=TYPES, use_aggregator=False,
                             jackknife=False, **options)
    out = {}
    for t in TYPES:
        sums, counts = {}, {}
        for k, value in zip(document, per_pair[t]):
            sums[k] = sums.get(k, 0.0) + value
            counts[k] = counts.get(k, 0) + 1
        out[t] = sum(sums[k] / counts[k] for k in sums) / len(sums)
    return out


def main():
    predictions, references = load_sample()
    rouge = evaluate.load(rouge_full_metric.EVALUATE_MODULE_DIR, use_stemmer=True)
    print("corpus F by pooling rule (flavor rouge155, stemmed)")
    rules = pooling_rules(rouge, predictions, references)
    print("%-10s %s" % ("multi_ref", " ".join("%9s" % t for t in TYPES)))
    for rule, values in rules.items():
        print("%-10s %s" % (rule, " ".join("%9.5f" % values[t] for t in TYPES)))

    print("\njackknifed system vs human ceiling (F, best reference of each M-1 set)")
    system = jackknifed(rouge, predictions, references, multi_ref="max")
    ceiling = human_ceiling(references, use_stemmer=True, multi_ref="max")
    for t in TYPES:
        print("%-10s system %.5f   human ceiling %.5f" % (t, system[t], ceiling[t]))


if __name__ == "__main__":
    main()
