"""Regenerate this folder's REALSumm tables and figures (docs/meta-evaluation.md shows them).

    python examples/meta_eval/make_realsumm.py [path/to/realsumm.jsonl]

REALSumm (Bhandari et al., EMNLP 2020; CC-BY-4.0, github.com/neulab/REALSumm): 100 CNN/DM
documents x 24 systems (bart_out's duplicate dropped, as sacrerouge), human score = LitePyramid
recall.  Writes:

* ``realsumm_lin2004.txt``: Lin 2004's grid (17 variants x original / stem / stem+stop, recall),
  system-level Pearson (as Lin) and summary-level Kendall tau-b, 95% bootstrap-both intervals;
* ``realsumm_ours_vs_published.txt``: ROUGE-1/2/L scored here from the texts next to REALSumm's
  published per-summary ROUGE used as precomputed metrics;
* ``realsumm_forest.png`` (every variant's correlation) and ``realsumm_scatter.png`` (ROUGE-2
  against LitePyramid recall, system level).
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))

from rouge_full_metric import correlation, meta_eval, meta_plots  # noqa: E402

DEFAULT = os.path.join(HERE, "..", "..", "..", "shared", "meta-eval", "realsumm.jsonl")
HUMAN = "litepyramid_recall"


def main(path=DEFAULT):
    records = meta_eval.read_data(path)
    start = time.perf_counter()
    metrics = meta_eval.score_variants(records, meta_eval.LIN2004, meta_eval.LIN2004_SETTINGS)
    scored = time.perf_counter() - start
    rows = meta_eval.correlation_rows(metrics, records, HUMAN, ["system", "summary"], ["pearson", "kendall"],
                                      ["recall"])
    elapsed = time.perf_counter() - start
    tables = [meta_eval.format_table(meta_eval.lin2004_table(rows, level, coefficient, "recall"))
              for level, coefficient in (("system", "pearson"), ("summary", "kendall"))]
    header = ("REALSumm: %d systems x %d documents, human = LitePyramid recall; ROUGE recall scored with "
              "rouge_full_metric (flavor rouge155); 95%% bootstrap-both intervals, 1,000 resamples, seed 0.\n\n"
              % (len({r['system'] for r in records}), len({r['doc_id'] for r in records})))
    _write("realsumm_lin2004.txt", header + "\n\n".join(tables) + "\n")
    print("17 variants x 3 settings scored in %.1f s; scored and correlated (204 cells) in %.1f s"
          % (scored, elapsed))

    ours = meta_eval.score_variants(records, ["rouge1", "rouge2", "rougeLsum"],
                                    rouge_options={"use_stemmer": True})
    published = {"rouge1": "rouge_1", "rouge2": "rouge_2", "rougeLsum": "rouge_l"}
    lines = ["REALSumm, ours (flavor rouge155, stemmed, from the texts) vs published (REALSumm's per-summary "
             "ROUGE-1.5.5 -c 95 -n 2 -a -r 1000 -m)", "human = LitePyramid recall; 95% bootstrap-both intervals",
             ""]
    cols = [("summary", "kendall"), ("system", "kendall"), ("system", "pearson")]
    lines.append(("%-16s" % "" + "".join("%-38s" % ("%s %s: ours | published" % (lv, co)) for lv, co in cols)).rstrip())
    h = meta_eval.matrix(records, HUMAN)
    for variant, name in published.items():
        for measure, suffix in (("recall", "recall"), ("fmeasure", "f_score")):
            x = ours[variant, "stem", measure]
            p = meta_eval.matrix(records, "published_rouge.%s_%s" % (name, suffix))
            cells = []
            for level, coefficient in cols:
                a = correlation.confidence_interval(x, h, level, coefficient)
                b = correlation.confidence_interval(p, h, level, coefficient)
                cells.append("%.3f [%.2f,%.2f] | %.3f" % (a.value, a.low, a.high, b.value))
            lines.append("%-16s" % ("%s %s" % (meta_eval.label(variant), {"recall": "R", "fmeasure": "F"}[measure]))
                         + "".join("%-38s" % c for c in cells).rstrip())
    _write("realsumm_ours_vs_published.txt", "\n".join(lines) + "\n")

    meta_plots.forest(rows, os.path.join(HERE, "realsumm_forest.png"),
                      title="REALSumm: ROUGE recall vs LitePyramid recall (Lin 2004's variants)")
    meta_plots.scatter(metrics["rouge2", "stem", "recall"], h, os.path.join(HERE, "realsumm_scatter.png"),
                       metric_label="ROUGE-2 recall (stemmed)", human_label="LitePyramid recall",
                       coefficient="kendall")


def _write(name, text):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(*sys.argv[1:])
