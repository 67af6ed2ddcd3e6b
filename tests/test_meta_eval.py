"""rouge_full_metric.meta_eval: readers, scoring variants, the Lin 2004 grid; REALSumm and Fabbri."""
import json
import os
import time

import numpy as np
import pytest

from rouge_full_metric import correlation
from rouge_full_metric import meta_eval as M

META = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "meta-eval")
REALSUMM = os.path.join(META, "realsumm.jsonl")


def _need(path):
    if not os.path.exists(path):
        pytest.skip("needs ../shared/meta-eval")
    return path


def test_realsumm_reader_and_the_bart_out_duplicate():
    records = M.read_data(_need(REALSUMM))
    assert len(records) == 2400
    assert len({r["system"] for r in records}) == 24 and len({r["doc_id"] for r in records}) == 100
    ext = [r for r in records if r["system"] == "bart_out"]
    both = M.read_realsumm(REALSUMM, duplicates="both")
    assert len(both) == 2500 and {"bart_out/abs", "bart_out/ext"} <= {r["system"] for r in both}
    raw = [json.loads(line) for line in open(REALSUMM)]
    want = {d["doc_id"]: d["litepyramid_recall"] for d in raw if d["system"] == "bart_out" and d["kind"] == "ext"}
    assert {r["doc_id"]: r["scores"]["litepyramid_recall"] for r in ext} == want
    # in this copy of REALSumm the two bart_out copies are identical, human scores included (its
    # README says otherwise): the choice only decides whether bart_out counts once or twice
    abs_ = M.read_realsumm(REALSUMM, duplicates="abs")
    assert [r for r in abs_ if r["system"] == "bart_out"] == ext
    assert len(abs_) == 2400 and [r["system"] for r in abs_] != [r["system"] for r in records]
    assert isinstance(ext[0]["references"], list) and "\n" in ext[0]["summary"]
    h = M.matrix(records, "litepyramid_recall")
    assert h.shape == (24, 100) and not np.isnan(h).any()
    with pytest.raises(ValueError, match="duplicates: expected"):
        M.read_realsumm(REALSUMM, duplicates="first")


def test_scoring_the_realsumm_texts_reproduces_19605_published_values():
    """The issue's known answer: flavor rouge155, stemmed, rouge1/2/Lsum against REALSumm's
    published per-summary ROUGE (5 decimals): 19,605 of 22,500 values."""
    records = M.read_realsumm(_need(REALSUMM), duplicates="both")
    metrics = M.score_variants(records, ["rouge1", "rouge2", "rougeLsum"], rouge_options={"use_stemmer": True})
    assert {k[1] for k in metrics} == {"stem"}
    names = {"rouge1": "rouge_1", "rouge2": "rouge_2", "rougeLsum": "rouge_l"}
    measures = {"recall": "recall", "precision": "precision", "fmeasure": "f_score"}
    equal, summaries_missed = 0, {}
    for variant in names:
        bad = np.zeros((25, 100), bool)
        for measure in measures:
            published = M.matrix(records, "published_rouge.%s_%s" % (names[variant], measures[measure]))
            same = np.round(metrics[variant, "stem", measure], 5) == published
            equal += same.sum()
            bad |= ~same
        summaries_missed[variant] = int(bad.sum())
    assert equal == 19605
    assert summaries_missed == {"rouge1": 265, "rouge2": 261, "rougeLsum": 611}


def test_lin2004_grid_on_realsumm_runs_in_seconds():
    records = M.read_data(_need(REALSUMM))
    start = time.perf_counter()
    metrics = M.score_variants(records, M.LIN2004, M.LIN2004_SETTINGS)
    rows = M.correlation_rows(metrics, records, "litepyramid_recall", ["system"], ["pearson"], ["recall"])
    elapsed = time.perf_counter() - start
    table = M.lin2004_table(rows, "system", "pearson", "recall")
    assert table.rows == list(M.LIN2004) and table.columns == ["original", "stem", "stem+stop"]
    assert len(rows) == 51 and all(r["low"] <= r["value"] <= r["high"] for r in rows)
    for s in table.columns:
        column = [table.cells[v][s] for v in table.rows]
        best = [c for c in column if c["best"]]
        assert len(best) == 1 and best[0]["value"] == max(c["value"] for c in column)
        assert all(c["tied"] == (c["high"] >= best[0]["low"]) for c in column if not c["best"])
    text = M.format_table(table)
    assert "ROUGE-SU4" in text and "ROUGE-L " in text and "*" in text
    # a cell is correlation.confidence_interval on the matrices
    cell = table.cells["rouge2"]["stem"]
    iv = correlation.confidence_interval(metrics["rouge2", "stem", "recall"], M.matrix(records, "litepyramid_recall"),
                                         "system", "pearson", "bootstrap-both")
    assert (cell["value"], cell["low"], cell["high"]) == tuple(iv)
    assert elapsed < 60, elapsed  # seconds on an idle machine (the report gives the timing)


def test_published_columns_as_precomputed_metrics():
    records = M.read_data(_need(REALSUMM))
    metrics = M.precomputed(records, ["published_rouge.rouge_2_recall", "published_rouge.rouge_1_recall"])
    rows = M.correlation_rows(metrics, records, "litepyramid_recall", ["summary", "system"], ["kendall"], ci="none")
    assert [(r["variant"], r["setting"], r["measure"], r["level"]) for r in rows][:2] == [
        ("published_rouge.rouge_2_recall", "precomputed", "value", "summary"),
        ("published_rouge.rouge_1_recall", "precomputed", "value", "summary")]
    h = M.matrix(records, "litepyramid_recall")
    assert rows[0]["value"] == correlation.correlate(M.matrix(records, "published_rouge.rouge_2_recall"), h,
                                                     "summary", "kendall")
    with pytest.raises(ValueError, match="metric field 'rouge9' is not in the data"):
        M.precomputed(records, ["rouge9"])


FABBRI = {  # sacrerouge's table: summary r/p/k, system r/p/k
    "rouge-1.recall": (.31, .28, .23, .55, .56, .42),
    "rouge-2.f1": (.23, .19, .14, .64, .60, .43),
    "rouge-1.precision": (.13, .12, .09, .29, .15, .03),
}


def test_fabbri_files_through_the_generic_reader():
    paths = [_need(os.path.join(META, "fabbri2020-rouge.jsonl")), os.path.join(META, "fabbri2020-relevance.jsonl")]
    records = M.read_data(paths)
    assert len(records) == 1600 and "expert.relevance" in M.fields(records)
    metrics = M.precomputed(records, list(FABBRI))
    rows = M.correlation_rows(metrics, records, "expert.relevance", ["summary", "system"],
                              ["pearson", "spearman", "kendall"], ci="none")
    for field, expected in FABBRI.items():
        got = tuple(round(r["value"], 2) for r in rows if r["variant"] == field)
        assert got == expected, field


def _summeval_line(doc, model, decoded, refs, expert, turker):
    keys = ("coherence", "consistency", "fluency", "relevance")
    return json.dumps({"id": doc, "decoded": decoded, "references": refs, "model_id": model,
                       "filepath": "cnndm/cnn/stories/%s.story" % doc, "text": "source text",
                       "expert_annotations": [dict(zip(keys, e)) for e in expert],
                       "turker_annotations": [dict(zip(keys, t)) for t in turker]})


def test_summeval_aligned_layout(tmp_path):
    refs = {"d1": ["police killed the gunman", "the gunman was shot by police"],
            "d2": ["the cat sat on the mat", "a cat was sitting on a mat"]}
    outs = {("d1", "M0"): "police kill the gunman", ("d1", "M1"): "a gunman", ("d1", "M2"): "police shot him",
            ("d2", "M0"): "the cat sat", ("d2", "M1"): "the mat", ("d2", "M2"): "a cat sat on a mat"}
    rel = {("d1", "M0"): (5, 4, 5), ("d1", "M1"): (2, 1, 2), ("d1", "M2"): (3, 3, 4),
           ("d2", "M0"): (4, 4, 3), ("d2", "M1"): (1, 2, 1), ("d2", "M2"): (5, 5, 4)}
    path = tmp_path / "model_annotations.aligned.jsonl"
    path.write_text("\n".join(_summeval_line(d, m, text, refs[d], [(3, 4, 5, r) for r in rel[d, m]],
                                             [(2, 2, 2, 3)] * 5) for (d, m), text in outs.items()) + "\n")
    records = M.read_data(str(path))
    assert len(records) == 6 and records[0]["references"] == refs["d1"]
    assert records[0]["scores"]["expert.relevance"] == pytest.approx(14 / 3)
    assert records[0]["scores"]["turker.relevance"] == 3.0
    assert M.read_summeval(str(path), references="first")[0]["references"] == refs["d1"][:1]
    metrics = M.score_variants(records, ["rouge1", "rougeSU4"], rouge_options={"use_stemmer": True})
    rows = M.correlation_rows(metrics, records, "expert.relevance", ["summary"], ["kendall"], ["recall"], ci="none")
    assert [r["variant"] for r in rows] == ["rouge1", "rougeSU4"]
    # the same as scoring by hand with RougeScorer
    from rouge_full_metric import RougeScorer
    scorer = RougeScorer(["rouge1"], use_stemmer=True)
    hand = M.matrix(records, [scorer.score(r["summary"], r["references"])["rouge1"].recall for r in records])
    assert np.array_equal(hand, metrics["rouge1", "stem", "recall"])
    assert rows[0]["value"] == correlation.correlate(hand, M.matrix(records, "expert.relevance"), "summary")


def test_generic_csv_with_column_options(tmp_path):
    path = tmp_path / "judged.csv"
    path.write_text("article,model,output,gold,score\n"
                    "1,A,police kill the gunman,police killed the gunman,4\n"
                    "1,B,the gunman,police killed the gunman,2\n"
                    "2,A,a cat sat,the cat sat on the mat,3\n"
                    "2,B,the cat sat on a mat,the cat sat on the mat,5\n")
    with pytest.raises(ValueError, match="--doc-field"):
        M.read_data(str(path))
    records = M.read_data(str(path), doc_field="article", system_field="model", summary_field="output",
                          reference_field="gold")
    assert records[0] == {"doc_id": "1", "system": "A", "summary": "police kill the gunman",
                          "references": ["police killed the gunman"], "scores": {"score": 4.0}}
    metrics = M.score_variants(records, ["rouge2"], rouge_options={"flavor": "rouge_score"})
    assert list(metrics)[0] == ("rouge2", "original", "recall")
    with pytest.raises(ValueError, match="no field 'text' \\(--summary-field\\)"):
        M.read_data(str(path), doc_field="article", system_field="model", summary_field="text")


def test_records_without_texts_cannot_be_scored():
    records = [{"doc_id": "1", "system": "a", "scores": {"h": 1.0}}]
    with pytest.raises(ValueError, match="no summary or references"):
        M.score_variants(records, ["rouge1"])
    with pytest.raises(ValueError, match="human: no score field 'x'"):
        M.correlation_rows({}, records, "x")


def test_docs_page_python_blocks_run(capsys):
    """docs/meta-evaluation.md's python blocks, top to bottom in one namespace, from the repo root."""
    import re
    root = os.path.join(os.path.dirname(__file__), "..")
    text = open(os.path.join(root, "docs", "meta-evaluation.md"), encoding="utf-8").read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    namespace = {}
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for block in blocks:
            exec(compile(block, "docs/meta-evaluation.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "0.7777" in out and "ROUGE-SU9" in out
