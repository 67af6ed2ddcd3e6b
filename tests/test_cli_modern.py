"""``rouge-full score``: plain files in, table/JSON/CSV out, the same numbers as the engine."""
import io
import json

import pytest

from rouge_full_metric import RougeScorer, cli

PREDICTIONS = ["police kill the gunman <n> he was shot", "the cat sat on the mat", "a b c d"]
REFERENCES = ["police killed the gunman <n> the gunman was shot", "the cat was on the mat", "a b x d"]
SECOND = ["the police shot the gunman", "a cat sat", "b c d e"]


def run(argv, stderr=None):
    out = io.BytesIO()
    err = stderr if stderr is not None else io.StringIO()
    status = cli.main(argv, stdout=out, stderr=err)
    return status, out.getvalue().decode("utf-8"), err.getvalue()


@pytest.fixture
def files(tmp_path):
    def write(name, lines):
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(path)
    return {"pred": write("pred.txt", PREDICTIONS), "ref": write("ref.txt", REFERENCES),
            "ref2": write("ref2.txt", SECOND), "dir": tmp_path}


def _printed(stat):
    """A Stat as the reports print it: 15 significant digits (no binary noise, issue 12)."""
    return {k: float("%.15g" % v) for k, v in stat._asdict().items()}


def engine(types, refs, **kw):
    preds = [p.replace(" <n> ", "\n") for p in PREDICTIONS]
    return RougeScorer(types, **kw).score_corpus(preds, refs)


def test_json_equals_engine(files):
    status, out, err = run(["score", "-p", files["pred"], "-r", files["ref"], files["ref2"], "--sentence-sep", " <n> ",
                            "--rouge-types", "rouge1,rouge2", "rougeLsum", "rougeSU4", "--use-stemmer",
                            "--format", "json", "--quiet"])
    assert status == 0, err
    report = json.loads(out)
    refs = [[r.replace(" <n> ", "\n"), s] for r, s in zip(REFERENCES, SECOND)]
    expected = engine(["rouge1", "rouge2", "rougeLsum", "rougeSU4"], refs, use_stemmer=True)
    assert report["signature"] == expected.signature
    assert report["n_examples"] == 3
    for name, agg in expected.aggregate.items():
        for measure in ("precision", "recall", "fmeasure"):
            assert report["scores"][name][measure] == _printed(getattr(agg, measure))


def test_engine_options_by_name(files):
    status, out, err = run(["score", "-p", files["pred"], "-r", files["ref"], files["ref2"], "--rouge-types", "rouge1",
                            "--flavor", "paper", "--multi-ref", "best", "--no-jackknife", "--alpha", "0.2",
                            "--word-limit", "4", "--remove-stopwords", "--confidence", "90", "--n-bootstrap", "50",
                            "--format", "json", "-q"])
    assert status == 0, err
    report = json.loads(out)
    expected = RougeScorer(["rouge1"], flavor="paper", multi_ref="best", jackknife=False, alpha=0.2, word_limit=4,
                           remove_stopwords=True).score_corpus(
        PREDICTIONS, [[r, s] for r, s in zip(REFERENCES, SECOND)], confidence=90, n_bootstrap=50)
    assert report["signature"] == expected.signature
    assert report["scores"]["rouge1"]["recall"] == _printed(expected.aggregate["rouge1"].recall)


def test_jsonl_and_directories(files, tmp_path):
    pj = tmp_path / "pred.jsonl"
    pj.write_text("\n".join(json.dumps({"id": k, "prediction": p.split(" <n> ")}) for k, p in enumerate(PREDICTIONS))
                  + "\n", encoding="utf-8")
    rj = tmp_path / "ref.jsonl"
    rj.write_text("\n".join(json.dumps([r.replace(" <n> ", "\n"), s]) for r, s in zip(REFERENCES, SECOND)) + "\n",
                  encoding="utf-8")
    status, out_jsonl, err = run(["score", "-p", str(pj), "-r", str(rj), "--rouge-types", "rougeLsum", "-f", "json", "-q"])
    assert status == 0, err
    for name, texts in [("p", PREDICTIONS), ("r", REFERENCES), ("s", SECOND)]:
        (tmp_path / name).mkdir()
        for k, t in enumerate(texts):
            (tmp_path / name / ("doc%02d.txt" % k)).write_bytes(t.replace(" <n> ", "\n").encode() + b"\n")
    status, out_dir, err = run(["score", "-p", str(tmp_path / "p"), "-r", str(tmp_path / "r"), str(tmp_path / "s"),
                                "--rouge-types", "rougeLsum", "-f", "json", "-q"])
    assert status == 0, err
    assert json.loads(out_jsonl) == json.loads(out_dir)
    (tmp_path / "s" / "doc01.txt").unlink()
    status, _, err = run(["score", "-p", str(tmp_path / "p"), "-r", str(tmp_path / "s"), "-q"])
    assert status == 2 and "--references" in err and "doc01.txt" in err


def test_table_csv_and_per_example_carry_the_signature(files, tmp_path):
    status, table, err = run(["score", "-p", files["pred"], "-r", files["ref"], "--rouge-types", "rouge1", "-q"])
    assert status == 0, err
    signature = RougeScorer(["rouge1"]).signature()
    assert "rouge1" in table and signature in table
    status, text, err = run(["score", "-p", files["pred"], "-r", files["ref"], "--rouge-types", "rouge1", "-f", "csv",
                             "--per-example", str(tmp_path / "pe.jsonl"), "-q"])
    assert status == 0, err
    rows = text.splitlines()
    assert rows[0] == "rouge_type,measure,low,mid,high,mean,signature"
    assert len(rows) == 4 and all(r.endswith(signature) for r in rows[1:])
    records = [json.loads(x) for x in (tmp_path / "pe.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == ["1", "2", "3"]
    assert all(r["signature"] == signature for r in records)
    expected = RougeScorer(["rouge1"]).score(PREDICTIONS[2], REFERENCES[2])["rouge1"]
    assert records[2]["rouge1"] == expected._asdict()
    status, _, err = run(["score", "-p", files["pred"], "-r", files["ref"], "--rouge-types", "rouge1",
                          "--per-example", str(tmp_path / "pe.csv"), "-o", str(tmp_path / "report.txt"), "-q"])
    assert status == 0, err
    assert (tmp_path / "pe.csv").read_text().splitlines()[0] == "id,rouge_type,precision,recall,fmeasure,signature"
    assert signature in (tmp_path / "report.txt").read_text()


@pytest.mark.parametrize("extra, named", [
    (["--word-limit", "-1"], "--word-limit"),
    (["--rouge-types", "rougeQ"], "--rouge-types"),
    (["--alpha", "2"], "--alpha"),
    (["--n-bootstrap", "0"], "--n-bootstrap"),
    (["--flavor", "nope"], "--flavor"),
])
def test_argument_errors_name_the_argument(files, extra, named):
    status, out, err = run(["score", "-p", files["pred"], "-r", files["ref"], "-q"] + extra)
    assert status == 2 and out == ""
    assert named in err


def test_mismatched_lengths_named(files, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("only one\n")
    status, _, err = run(["score", "-p", files["pred"], "-r", str(short), "-q"])
    assert status == 2 and "--references" in err and "1 summary for 3 predictions" in err


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_terminal(files):
    argv = ["score", "-p", files["pred"], "-r", files["ref"], "--rouge-types", "rouge1"]
    status, _, err = run(argv, stderr=FakeTerminal())
    assert status == 0 and "\r" in err and "3/3" in err
    status, _, err = run(argv + ["--quiet"], stderr=FakeTerminal())
    assert status == 0 and err == ""
    status, _, err = run(argv)
    assert status == 0 and err == ""


def test_top_level_help_and_perl_escape():
    status, out, _ = run(["--help"])
    assert status == 0 and "rouge-full score" in out and "rouge-full compare" in out
    status, out, err = run(["perl", "-h"])
    assert status != 0 and "ROUGE-eval-config-file" in err
    status, out, err = run(["score", "--help"])
    assert status == 0 and "--predictions" in err + out
