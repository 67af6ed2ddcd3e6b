"""Quickstart: score the bundled sample with the official ROUGE-1.5.5 numbers.

Run from the repository root:  python examples/quickstart.py
"""
import json
import os

from rouge_full_metric import RougeScorer

HERE = os.path.dirname(os.path.abspath(__file__))
CEILING_NOTE = ("(the human ceiling scores each reference against the other one; the sample's predictions were "
                "written from the wording of both references, which paraphrase each other freely, so the system is "
                "above the ceiling here; on real data systems score below it)")


def main():
    with open(os.path.join(HERE, "data", "sample.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    predictions = [r["prediction"] for r in rows]
    references = [r["references"] for r in rows]

    # The classic ROUGE-1.5.5.pl command line "-c 95 -2 4 -U -r 1000 -n 2 -w 1.2 -a -m".
    scorer = RougeScorer(["rouge1", "rouge2", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"],
                         use_stemmer=True)
    result = scorer.score_corpus(predictions, references, confidence=95, n_bootstrap=1000)
    print(result.signature)
    print("%-11s %-30s %-30s %-30s" % ("type", "Average_R (95% CI)", "Average_P (95% CI)", "Average_F (95% CI)"))
    for name, agg in result.aggregate.items():
        cells = ["%.5f (%.5f - %.5f)" % (s.mid, s.low, s.high) for s in (agg.recall, agg.precision, agg.fmeasure)]
        print("%-11s %-30s %-30s %-30s" % (name, *cells))

    # Jackknifing and the human ceiling it is meant to be compared with: each reference scored
    # against the others, as a system is.  On real data systems stay below it; this toy sample's
    # predictions were written from the wording of both references, while its two references
    # paraphrase each other freely, so here the "system" is far above it.
    jack = RougeScorer(["rouge1", "rouge2"], use_stemmer=True, jackknife=True)
    system = jack.score_corpus(predictions, references).aggregate
    ceiling = [jack.human_ceiling(refs) for refs in references]
    for name in ("rouge1", "rouge2"):
        human = sum(c[name].fmeasure for c in ceiling) / len(ceiling)
        print("%s jackknifed F: system %.5f, human ceiling %.5f" % (name, system[name].fmeasure.mid, human))
    print(CEILING_NOTE)


if __name__ == "__main__":
    main()
