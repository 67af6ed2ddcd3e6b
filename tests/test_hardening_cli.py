"""Issue 12, the command line: bad inputs end in a message (never a traceback or an endless
read), the modes are hard to confuse, and the reports say what their numbers are."""
import importlib
import io
import json
import os
import subprocess
import sys

import pytest

from rouge_full_metric import RougeScorer, cli
from rouge_full_metric.cli import input_files

cli_main = importlib.import_module("rouge_full_metric.cli.main")

PRED = ["a b c", "a b", "a", "x y z w"]
REF = ["a b", "a b c", "a c", "x y"]


def run(argv, stderr=None, env=None):
    out = io.BytesIO()
    err = stderr if stderr is not None else io.StringIO()
    status = cli.main(argv, stdout=out, stderr=err)
    return status, out.getvalue().decode("utf-8", "surrogateescape"), err.getvalue()


def write(path, data):
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(path)


@pytest.fixture
def lines(tmp_path):
    return {"pred": write(tmp_path / "pred.txt", "\n".join(PRED) + "\n"),
            "ref": write(tmp_path / "ref.txt", "\n".join(REF) + "\n"), "dir": tmp_path}


def config(tmp_path, model="m.txt", encoding="UTF-8", model_root=True):
    write(tmp_path / "p.txt", "police kill the gunman\n")
    write(tmp_path / "m.txt", "police killed the gunman\n")
    root = "<MODEL-ROOT>%s</MODEL-ROOT>" % tmp_path if model_root else ""
    return write(tmp_path / "config.xml", '<?xml version="1.0" encoding="%s"?>\n<ROUGE-EVAL version="1.0"><EVAL ID="1">'
                 '<PEER-ROOT>%s</PEER-ROOT>%s<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="1">p.txt</P></PEERS>'
                 '<MODELS><M ID="A">%s</M></MODELS></EVAL></ROUGE-EVAL>\n' % (encoding, tmp_path, root, model))


# ----------------------------------------------------------------------------- R10: bad inputs


def test_unknown_xml_encoding_is_a_message(tmp_path):
    status, out, err = run(["-a", "-n", "1", config(tmp_path, encoding="bogus-8")])
    assert status == 255 and out == ""
    assert "encoding" in err and "bogus-8" in err and "UTF-8" in err


def test_device_as_a_model_file_is_refused(tmp_path):
    # Under a 1.5 GB address-space cap the old reader died with MemoryError after reading
    # /dev/zero; now the file is refused before any read.
    path = config(tmp_path, model="/dev/zero", model_root=False)
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1500 << 20, 1500 << 20))\n"
            "from rouge_full_metric.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", code, "-a", "-n", "1", path], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_read_file_refuses_devices_and_fifos(tmp_path):
    with pytest.raises(input_files.InputFileError, match="not a regular file"):
        input_files.read_file("/dev/zero")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(input_files.InputFileError, match="not a regular file"):
        input_files.read_file(str(fifo))            # refused, not waited on


def test_file_size_cap_is_a_message_and_can_be_raised(tmp_path, lines, monkeypatch):
    path = config(tmp_path)
    monkeypatch.setenv(input_files.ENV_MAX_BYTES, "10")
    status, out, err = run(["-a", "-n", "1", path])
    assert status == 2 and "more than the limit of 10 bytes" in err and input_files.ENV_MAX_BYTES in err
    status, _, err = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q"])
    assert status == 2 and "--predictions" in err and "more than the limit of 10 bytes" in err
    monkeypatch.setenv(input_files.ENV_MAX_BYTES, "0")      # no limit
    assert run(["-a", "-n", "1", path])[0] == 0
    assert run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q"])[0] == 0
    monkeypatch.setenv(input_files.ENV_MAX_BYTES, "lots")
    status, _, err = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q"])
    assert status == 2 and "whole number of bytes" in err


def test_default_cap_is_documented_and_sane():
    assert input_files.DEFAULT_MAX_BYTES == 256 << 20
    assert input_files.max_bytes() in (input_files.DEFAULT_MAX_BYTES, None) or \
        input_files.ENV_MAX_BYTES in os.environ


@pytest.mark.parametrize("encoding, name", [("utf-16", "UTF-16"), ("utf-16-be", None), ("utf-32", "UTF-32")])
def test_utf16_and_utf32_inputs_are_refused(tmp_path, lines, encoding, name):
    path = write(tmp_path / "pred16.txt", ("\n".join(PRED) + "\n").encode(encoding))
    status, out, err = run(["score", "-p", path, "-r", lines["ref"], "-q"])
    assert status == 2 and out == ""
    assert (name in err) if name else ("NUL bytes" in err), err


def test_utf8_bom_is_dropped(tmp_path, lines):
    path = write(tmp_path / "bom.txt", b"\xef\xbb\xbf" + ("\n".join(PRED) + "\n").encode())
    with_bom = run(["score", "-p", path, "-r", lines["ref"], "-q", "--format", "json"])
    plain = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q", "--format", "json"])
    assert with_bom[0] == 0 and json.loads(with_bom[1])["scores"] == json.loads(plain[1])["scores"]


def test_invalid_utf8_warns_and_scores_the_bytes(tmp_path, lines):
    path = write(tmp_path / "latin1.txt", "caf\xe9 a b\nb\nc\nd\n".encode("latin-1"))
    status, out, err = run(["score", "-p", path, "-r", lines["ref"], "-q"])
    assert status == 0 and "not valid UTF-8 (line 1" in err and "latin1.txt" in err


@pytest.mark.parametrize("options, reader", [(["--lang", "zh"], "--lang zh"), (["--lang", "hi"], "--lang hi"),
                                             (["--flavor", "xlsum"], "--flavor xlsum"),
                                             (["--flavor", "rouge_score"], "--flavor rouge_score"),
                                             (["--flavor", "matlab"], "--flavor matlab")])
def test_invalid_utf8_is_one_error_naming_the_file_where_text_is_needed(tmp_path, lines, options, reader):
    # these read text, not bytes: no "read as they are" warning followed by a codec error naming no file
    path = write(tmp_path / "latin1.txt", "caf\xe9 a b\nb\nc\nd\n".encode("latin-1"))
    status, out, err = run(["score", "-p", path, "-r", lines["ref"], "-q"] + options)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "read as they are" not in err and "codec" not in err, err
    assert "--predictions: %s is not valid UTF-8 (line 1, byte 3); %s reads UTF-8 text" % (path, reader) in err


def test_out_of_memory_is_a_message(lines, monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli_main, "_score", exhausted)
    status, _, err = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q"])
    assert status == 2 and "out of memory" in err
    monkeypatch.setattr(cli_main.perl_cli, "_run", exhausted)
    status, _, err = run(["-a", "config.xml"])
    assert status == 2 and "out of memory" in err


def test_lone_surrogates_in_ids_and_system_id():
    scorer = RougeScorer(["rouge1"])
    expected = scorer.score_corpus(PRED, REF).aggregate
    assert scorer.score_corpus(PRED, REF, ids=["x\udc80", "\ud800", "b", "c"]).aggregate["rouge1"].fmeasure.mean == \
        expected["rouge1"].fmeasure.mean
    assert scorer.score_corpus(PRED, REF, system_id="\ud800\udfff") .aggregate == expected


def test_undecodable_file_names_in_directories(tmp_path):
    for folder, texts in (("sys", PRED[:2]), ("ref", REF[:2])):
        os.mkdir(tmp_path / folder)
        for name, text in zip((b"\x80.txt", b"b.txt"), texts):
            (tmp_path / folder / os.fsdecode(name)).write_text(text + "\n")
    per_example = tmp_path / "pe.csv"
    status, out, err = run(["score", "-p", str(tmp_path / "sys"), "-r", str(tmp_path / "ref"), "-q",
                            "--per-example", str(per_example)])
    assert status == 0, err
    assert b"\n\x80.txt,rouge1," in per_example.read_bytes()


# ----------------------------------------------------------------------------- new user 4


@pytest.mark.parametrize("argv, mode", [(["--predictions", "a.txt", "--references", "b.txt"], "score"),
                                        (["--references=b.txt"], "score"),
                                        (["--baseline", "a.txt", "--systems", "b.txt"], "compare")])
def test_forgotten_mode_name_says_did_you_mean(argv, mode):
    status, out, err = run(argv)
    assert status == 2 and out == ""
    assert "did you mean `rouge-full %s %s`" % (mode, " ".join(argv)) in err


def test_plain_text_config_says_did_you_mean(lines):
    status, out, err = run(["-a", lines["pred"]])
    assert status == 255 and out == ""
    assert "not well-formed XML" in err and "plain text" in err and "rouge-full score --predictions" in err
    status, _, err = run(["-a", config(lines["dir"], encoding="bogus-8")])
    assert "plain text" not in err


# ----------------------------------------------------------------------------- new user 5


def test_score_table_says_what_mid_is(lines):
    status, out, _ = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q"])
    assert status == 0 and "mid = ROUGE-1.5.5.pl's Average_X (mean of the bootstrap replicates)" in out
    status, out, _ = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q", "--flavor", "paper"])
    assert "mid = the plain mean of the per-example scores" in out


def test_compare_table_says_its_scores_are_plain_means(lines):
    status, out, err = run(["compare", "-b", lines["pred"], "-s", lines["ref"], "-r", lines["ref"], "-q",
                            "--n-samples", "20", "--rouge-types", "rouge1"])
    assert status == 0, err
    assert "plain means of the per-example fmeasure" in out and "Average_X" in out


def test_printed_means_carry_no_float_noise(lines):
    # the per-example F of this corpus sums to 2.9333400000000003 / 4 = 0.7333350000000001
    expected = RougeScorer(["rouge1"]).score_corpus(PRED, REF).aggregate["rouge1"]
    assert expected.fmeasure.mean != float("%.15g" % expected.fmeasure.mean)
    status, out, _ = run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q", "--format", "json",
                          "--rouge-types", "rouge1"])
    assert json.loads(out)["scores"]["rouge1"]["fmeasure"]["mean"] == 0.733335
    assert "0.733335," in run(["score", "-p", lines["pred"], "-r", lines["ref"], "-q", "--format", "csv",
                               "--rouge-types", "rouge1"])[1]
    status, out, _ = run(["compare", "-b", lines["pred"], "-s", lines["ref"], "-r", lines["ref"], "-q",
                          "--n-samples", "20", "--rouge-types", "rouge1", "--format", "json"])
    row = json.loads(out)["systems"][0]["comparisons"][0]
    assert row["baseline"] == 0.733335 and row["delta"] == float("%.15g" % (1 - 0.733335))


# ----------------------------------------------------------------------------- new user 9


def test_compare_writes_csv(lines):
    status, out, err = run(["compare", "-b", lines["pred"], "-s", lines["ref"], "-r", lines["ref"], "-q",
                            "--n-samples", "20", "--rouge-types", "rouge1", "rouge2", "--format", "csv"])
    assert status == 0, err
    rows = out.splitlines()
    assert rows[0] == ("baseline_file,system_file,rouge_type,measure,baseline,system,delta,low,high,"
                       "p_bootstrap,p_randomization,n_omitted,significant,signature")
    assert len(rows) == 3 and rows[1].startswith("%s,%s,rouge1,fmeasure,0.733335,1.0," % (lines["pred"], lines["ref"]))
    assert rows[1].split(",")[-1].startswith("flavor:rouge155|")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_compare_shows_resampling_progress(lines):
    err = _Terminal()
    status, _, _ = run(["compare", "-b", lines["pred"], "-s", lines["ref"], "-r", lines["ref"],
                        "--n-samples", "20", "--rouge-types", "rouge1", "rouge2"], stderr=err)
    assert status == 0
    assert "resampling ref.txt" in err.getvalue() and "4/4" in err.getvalue()


def test_compare_line_count_error_is_plain(tmp_path, lines):
    short = write(tmp_path / "short.txt", "a\nb\n")
    status, _, err = run(["compare", "-b", lines["pred"], "-s", short, "-r", lines["ref"], "-q"])
    assert status == 2
    assert "%s has 2 summaries where the baseline %s has 4" % (short, lines["pred"]) in err
    assert "or other file names" not in err


# ----------------------------------------------------------------------------- new user 10


@pytest.mark.parametrize("text, count", [("a\nb\n", 2), ("a\nb", 2), ("a\nb\n\n", 2), ("a\r\nb\r\n\r\n", 2),
                                         ("a\nb\n\n\n", 3), ("a\n\nb\n", 3)])
def test_one_final_empty_line_is_not_a_summary(tmp_path, text, count):
    texts, ids = cli_main.load_texts(write(tmp_path / "x.txt", text))
    assert len(texts) == count and ids[-1] == str(count)
