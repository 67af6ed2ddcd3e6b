"""rouge-full correlate: JSON/CSV/text rows, --compare, errors naming the argument, the subprocess."""
import csv
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from rouge_full_metric import correlation
from rouge_full_metric import meta_eval as M
from rouge_full_metric.cli.main import main

ROOT = os.path.join(os.path.dirname(__file__), "..")
REALSUMM = os.path.join(ROOT, "..", "shared", "meta-eval", "realsumm.jsonl")

TEXTS = [("1", "police killed the gunman in the city", [("a", "police kill the gunman", 3.0),
                                                         ("b", "the gunman was shot in a city", 2.5),
                                                         ("c", "gunman", 1.0), ("d", "police in the city", 2.0)]),
         ("2", "the cat sat on the mat all day", [("a", "the cat sat", 2.0), ("b", "a mat", 1.0),
                                                  ("c", "the cat sat on a mat all day", 3.5), ("d", "cats sit", 1.5)]),
         ("3", "stocks fell sharply on monday", [("a", "stocks fell on monday", 3.0), ("b", "stocks rose", 1.0),
                                                 ("c", "markets fell sharply monday", 2.0), ("d", "monday", 1.0)])]


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "judged.jsonl"
    with open(path, "w") as f:
        for doc, ref, outs in TEXTS:
            for system, summary, human in outs:
                f.write(json.dumps({"doc_id": doc, "system": system, "summary": summary, "reference": [ref],
                                    "human": human, "other": len(summary)}) + "\n")
    return str(path)


def _run(*argv):
    out, err = io.BytesIO(), io.StringIO()
    status = main(["correlate", *argv], stdout=out, stderr=err)
    return status, out.getvalue().decode(), err.getvalue()


def test_json_rows_as_the_issue_specifies(data):
    status, out, err = _run(data, "--human", "human", "--variants", "rouge1,rouge2", "--rouge-options",
                            "use_stemmer=true", "--level", "system", "summary", "--coefficient", "kendall",
                            "pearson", "--format", "json", "--n-resamples", "200")
    assert status == 0 and err == ""
    rows = json.loads(out)
    assert len(rows) == 2 * 2 * 2
    assert set(rows[0]) == {"variant", "setting", "measure", "level", "coefficient", "value", "low", "high"}
    row = next(r for r in rows if (r["variant"], r["level"], r["coefficient"]) == ("rouge2", "summary", "pearson"))
    assert (row["setting"], row["measure"]) == ("stem", "recall")
    records = M.read_data(data)
    metrics = M.score_variants(records, ["rouge2"], rouge_options={"use_stemmer": True})
    iv = correlation.confidence_interval(metrics["rouge2", "stem", "recall"], M.matrix(records, "human"),
                                         "summary", "pearson", "bootstrap-both", n_resamples=200)
    assert (row["value"], row["low"], row["high"]) == tuple(iv)


def test_csv_text_and_precomputed(data):
    status, out, _ = _run(data, "--human", "human", "--metrics", "other", "--format", "csv", "--ci", "fisher",
                          "--level", "global")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["variant"], r["setting"], r["measure"], r["level"]) for r in rows] == [
        ("other", "precomputed", "value", "global")]
    assert float(rows[0]["low"]) < float(rows[0]["value"]) < float(rows[0]["high"])
    status, out, _ = _run(data, "--human", "human", "--variants", "lin2004", "--n-resamples", "100")
    assert status == 0
    assert out.startswith("Kendall correlation, system level, recall\n")
    assert "ROUGE-SU9" in out and "stem+stop" in out and out.count("*") >= 3


def test_compare_rows_have_p(data):
    status, out, _ = _run(data, "--human", "human", "--compare", "rouge1", "other", "--format", "json",
                          "--level", "summary", "--test", "permutation-both", "--n-resamples", "300")
    assert status == 0
    (row,) = json.loads(out)
    assert row["variant"] == "rouge1 vs other" and row["setting"] == "original vs precomputed"
    assert 0 <= row["p"] <= 1 and row["method"] == "permutation-both"
    records = M.read_data(data)
    a = M.score_variants(records, ["rouge1"])["rouge1", "original", "recall"]
    t = correlation.compare(a, M.matrix(records, "other"), M.matrix(records, "human"), "summary", "kendall",
                            "permutation-both", n_resamples=300)
    assert (row["value"], row["p"]) == (t.delta, t.p)
    status, out, _ = _run(data, "--human", "human", "--compare", "rouge1", "rouge2", "--test", "williams")
    assert status == 0 and "williams test" in out and "rouge1 vs rouge2" in out


@pytest.mark.parametrize("argv,message", [
    (["--human", "nope"], "--human: no score field 'nope'"),
    (["--human", "human", "--variants", "rouge1,rougeX"], "--variants: rouge_types: unknown rouge type 'rougeX'"),
    (["--human", "human", "--rouge-options", "stem"], "--rouge-options: expected KEY=VALUE"),
    (["--human", "human", "--rouge-options", "flavour=paper"], "--rouge-options: "),
    (["--human", "human", "--variants", "lin2004", "--rouge-options", "use_stemmer=true"],
     "--rouge-options: use_stemmer is set by --variants lin2004"),
    (["--human", "human", "--metrics", "nope"], "--metrics: metric field 'nope'"),
    (["--human", "human", "--compare", "rouge1", "nope2"], "--variants: rouge_types: unknown rouge type 'nope2'"),
    (["--human", "human", "--n-resamples", "0"], "--n-resamples: expected a positive integer"),
    (["--human", "human", "--scatter", "/nonexistent/dir/x.png"], "--plot/--scatter: cannot write"),
])
def test_errors_are_one_line_naming_the_argument(data, argv, message):
    status, out, err = _run(data, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rouge-full correlate: error: ") and message in err, err


def test_missing_data_file_and_missing_texts(tmp_path):
    status, _, err = _run(str(tmp_path / "none.jsonl"), "--human", "h")
    assert status == 2 and "DATA: cannot read" in err
    path = tmp_path / "scores.csv"
    path.write_text("doc_id,system,m,h\n1,a,1,2\n1,b,2,3\n")
    status, _, err = _run(str(path), "--human", "h")
    assert status == 2 and "--metrics" in err and err.count("\n") == 1


def test_realsumm_needs_only_human(tmp_path):
    if not os.path.exists(REALSUMM):
        pytest.skip("needs ../shared/meta-eval")
    status, out, _ = _run(REALSUMM, "--human", "litepyramid_recall", "--format", "json", "--n-resamples", "100")
    rows = json.loads(out)
    assert status == 0 and [r["variant"] for r in rows] == ["rouge1", "rouge2", "rougeLsum"]
    assert all(r["setting"] == "original" and r["level"] == "system" for r in rows)


def test_the_installed_command_runs_with_a_progress_bar_only_on_a_terminal(data):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(ROOT))
    proc = subprocess.run([sys.executable, "-m", "rouge_full_metric", "correlate", data, "--human", "human",
                           "--format", "json", "--n-resamples", "50"], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    assert proc.returncode == 0 and proc.stderr == "" and len(json.loads(proc.stdout)) == 3
    proc = subprocess.run([sys.executable, "-m", "rouge_full_metric", "--help"], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    assert "rouge-full correlate" in proc.stdout


def test_progress_bar_draws_on_a_tty_stream(data):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    err = Tty()
    status = main(["correlate", data, "--human", "human", "--n-resamples", "50"], stdout=io.BytesIO(), stderr=err)
    assert status == 0 and "scoring [" in err.getvalue() and "correlating [" in err.getvalue()
