"""Issue 17, item 5: the smaller frictions a new user met, each pinned by a test."""
import importlib.util
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_full_metric import RougeScorer, cli, languages
from rouge_full_metric.cli.compare import SMALL_SAMPLE
from rouge_full_metric.pairwise import NearDuplicates

REPO = Path(__file__).resolve().parent.parent
cli_main = sys.modules["rouge_full_metric.cli.main"]   # the module (the package's `main` is its function)


def run(argv):
    out, err = io.BytesIO(), io.StringIO()
    status = cli.main(argv, stdout=out, stderr=err)
    return status, out.getvalue().decode("utf-8"), err.getvalue()


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    return {"pred": _write(tmp_path / "pred.txt", ["a b", "c d", "e f"]),
            "ref": _write(tmp_path / "ref.txt", ["a b", "c d", "e g"]),
            "short": _write(tmp_path / "short.txt", ["a", "c"]),
            "one": _write(tmp_path / "one.txt", ["a b"]), "dir": tmp_path}


# ----------------------------------------------------------------------------- --lang without the extra
_BLOCKED = r"""
import sys
sys.modules["jieba"] = None   # the [multilingual] extra is not installed
from rouge_full_metric.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_lang_without_the_extra_is_one_line_with_a_checkout_install_line(files, tmp_path):
    zh_pred = _write(tmp_path / "zh_pred.txt", ["北京大学的学生"])
    zh_ref = _write(tmp_path / "zh_ref.txt", ["北京的大学生"])
    proc = subprocess.run([sys.executable, "-c", _BLOCKED, "score", "-p", zh_pred, "-r", zh_ref, "--lang", "zh",
                           "-q"], cwd=str(REPO), capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("rouge-full score: error: ") and "jieba" in lines[0]
    assert 'pip install ".[multilingual]"' in lines[0]


# ----------------------------------------------------------------------------- options after CONFIG
def test_options_after_config_are_named_on_stderr(tmp_path):
    config = tmp_path / "config.xml"
    config.write_text('<ROUGE_EVAL version="1.5.5">\n</ROUGE_EVAL>\n')
    out, err = io.BytesIO(), io.StringIO()
    status = cli.main([str(config), "-a", "-n", "2"], stdout=out, stderr=err)
    assert status == 0   # the Perl's parsing: -a is the system id, -n 2 is never read
    assert "options after CONFIG are not read" in err.getvalue()
    assert "'-a' is read as the SYSTEM id and '-n 2' is ignored" in err.getvalue()
    assert "rouge-full ... -a -n 2 %s" % config in err.getvalue()
    err = io.StringIO()
    cli.main([str(config), "sys", "-n", "2"], stdout=io.BytesIO(), stderr=err)
    assert "'-n 2' after SYSTEM is ignored" in err.getvalue()
    err = io.StringIO()
    cli.main(["-n", "2", str(config), "sys"], stdout=io.BytesIO(), stderr=err)
    assert err.getvalue() == ""


# ----------------------------------------------------------------------------- --help
@pytest.mark.parametrize("command", ["score", "compare"])
def test_subcommand_help_goes_to_stdout(command):
    status, out, err = run([command, "--help"])
    assert status == 0 and err == ""
    assert out.startswith("usage: rouge-full %s" % command) and "--references" in out


# ----------------------------------------------------------------------------- bad lang
def test_bad_lang_lists_the_aliases_the_docs_list():
    with pytest.raises(ValueError) as error:
        RougeScorer(["rouge1"], lang="klingon")
    listed = re.search(r"an alias \(([^)]*)\)", str(error.value)).group(1).split(", ")
    assert listed == languages.aliases() == ["bangla", "chinese", "mundo", "turkce"]
    for alias in listed:
        assert languages.resolve(alias) is not None
    # every page with the language table gives these aliases, and only these, in its "(aliases)"
    pages = [p for p in [REPO / "README.md", REPO / "card" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
             if "| language (aliases) |" in p.read_text(encoding="utf-8")]
    assert pages
    for page in pages:
        documented = re.findall(r"^\| `[a-z_]+` \(([^)]*)\) \|", page.read_text(encoding="utf-8"), flags=re.M)
        assert sorted(a.strip("`") for group in documented for a in group.split(", ")) == listed, page


# ----------------------------------------------------------------------------- NearDuplicates
def test_near_duplicates_says_indices_and_gives_texts():
    texts = ["Write a poem about the sea.", "Write a poem about the sea!", "List three prime numbers."]
    result = RougeScorer(["rougeL"]).filter_near_duplicates(texts, 0.7)
    assert result == NearDuplicates(kept=[0, 2], dropped=[1], matched=[0], scores=[1.0])   # unchanged
    assert (result.kept_indices, result.dropped_indices, result.matched_indices) == ([0, 2], [1], [0])
    assert result.kept_texts(texts) == [texts[0], texts[2]]
    assert result.dropped_pairs(texts) == [(texts[1], texts[0], 1.0)]
    assert "indices" in NearDuplicates.__doc__


# ----------------------------------------------------------------------------- compare names the short file
def test_compare_blames_the_short_baseline(files):
    status, _, err = run(["compare", "-b", files["short"], "-s", files["pred"], "-r", files["ref"], "-q"])
    assert status == 2
    assert "--baseline %s has 2 summaries but --references %s has 3" % (files["short"], files["ref"]) in err
    status, _, err = run(["score", "-p", files["one"], "-r", files["ref"], "-q"])
    assert "has 3 summaries for 1 prediction\n" in err


# ----------------------------------------------------------------------------- did you mean
def test_positional_files_get_a_did_you_mean(files):
    status, out, err = run(["score", files["pred"], files["ref"]])
    assert status == 2 and out == ""
    assert "did you mean `rouge-full score -p %s -r %s`?" % (files["pred"], files["ref"]) in err
    status, _, err = run(["score", files["pred"], files["ref"], "--use-stemmer"])
    assert "`rouge-full score -p %s -r %s --use-stemmer`" % (files["pred"], files["ref"]) in err
    status, _, err = run(["compare", files["short"], files["pred"], files["ref"]])
    assert status == 2
    assert "`rouge-full compare -b %s -s %s -r %s`" % (files["short"], files["pred"], files["ref"]) in err


# ----------------------------------------------------------------------------- pluralization
def test_one_example_is_singular(files):
    status, out, _ = run(["score", "-p", files["one"], "-r", files["one"], "-q"])
    assert status == 0 and "\n1 example; signature:" in out and "1 examples" not in out
    status, out, _ = run(["score", "-p", files["pred"], "-r", files["ref"], "-q"])
    assert "\n3 examples; signature:" in out
    status, out, _ = run(["compare", "-b", files["one"], "-s", files["one"], "-r", files["one"], "-q",
                          "--n-samples", "10"])
    assert status == 0 and "(1 example)" in out
    status, _, err = run(["compare", "-b", files["pred"], "-s", files["one"], "-r", files["ref"], "-q"])
    assert "has 1 summary where the baseline" in err


def _app():
    spec = importlib.util.spec_from_file_location("rouge_space_app_frictions", str(REPO / "card" / "app.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_space_counts_are_singular_too():
    with pytest.raises(ValueError, match="^1 prediction but 2 reference lines:"):
        _app().parse_lines("a", "a\nb")


# ----------------------------------------------------------------------------- progress ETA
class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_eta_waits_for_a_measured_rate(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(cli_main.time, "monotonic", clock)
    stream = io.StringIO()
    items = list(range(1000))
    bar = cli_main._Progress(items, stream, "scoring", True)
    clock.now += 0.6            # start-up before the first item (engine, dictionaries): not a rate
    bar[0]
    assert "eta --" in stream.getvalue() and "eta 599" not in stream.getvalue()
    for k in range(1, 200):      # 200 items in the next 0.54 s: still under a second of measuring
        clock.now += 0.0027
        bar[k]
    assert re.findall(r"eta (\S+)", stream.getvalue()) == ["--"] * len(re.findall(r"eta ", stream.getvalue()))
    for k in range(200, 400):    # past one second: the rate is the items' (0.0027 s each), not the start-up's
        clock.now += 0.0027
        bar[k]
    last = re.findall(r"eta (\S+)", stream.getvalue())[-1]
    assert last.endswith("s") and abs(float(last[:-1]) - 600 * 0.0027) <= 1, last
    bar[999]
    assert stream.getvalue().endswith("eta 0s \n")


# ----------------------------------------------------------------------------- small samples in compare
def test_compare_cautions_below_the_documented_sample_size(files, tmp_path):
    better = _write(tmp_path / "better.txt", ["a b", "c d", "e g"])
    status, out, _ = run(["compare", "-b", files["pred"], "-s", better, "-r", files["ref"], "-q"])
    assert status == 0 and "caution: only 3 examples: with fewer than %d" % SMALL_SAMPLE in out
    status, out, err = run(["compare", "-b", files["pred"], "-s", better, "-r", files["ref"], "-q", "-f", "json"])
    assert status == 0 and "caution:" not in out and "caution: only 3 examples" in err
    n = SMALL_SAMPLE
    many = [_write(tmp_path / ("%s.txt" % name), ["w%d x%d" % (k, k % 3) for k in range(n)])
            for name in ("a", "b", "r")]
    status, out, err = run(["compare", "-b", many[0], "-s", many[1], "-r", many[2], "-q", "--n-samples", "50"])
    assert status == 0 and "caution:" not in out + err


# ----------------------------------------------------------------------------- the examples say what they show
def test_quickstart_explains_the_ceiling_below_the_system():
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "quickstart.py")], cwd=str(REPO),
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    ceiling = [line for line in lines if "human ceiling" in line and "jackknifed" in line]
    system, human = (float(x) for x in re.findall(r"system ([\d.]+), human ceiling ([\d.]+)", ceiling[0])[0])
    assert system > human   # the sample's case, which the note explains
    assert "on real data systems score below it" in proc.stdout


def test_evaluator_example_says_the_default_model_is_untrained(monkeypatch, capsys):
    spec = importlib.util.spec_from_file_location("evaluator_example_frictions",
                                                  str(REPO / "examples" / "evaluator_summarization.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    monkeypatch.setattr(example, "run", lambda model=None: {"rouge1": 0.01})
    example.main([])
    out = capsys.readouterr().out
    assert out.index("UNTRAINED") < out.index("rouge1") and "near zero by design" in out
    example.main(["--model", "t5-small"])
    assert "UNTRAINED" not in capsys.readouterr().out


# ----------------------------------------------------------------------------- docs/inputs.md
def test_inputs_page_runs_and_the_docstring_says_it():
    text = (REPO / "docs" / "inputs.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, "docs/inputs.md", "exec"), namespace)
    assert namespace["two_references"] != namespace["one_reference_in_sentences"]
    assert "docs/inputs.md" in RougeScorer.score.__doc__ and '[["a b", "c d"]]' in RougeScorer.score.__doc__


def test_other_import_errors_keep_their_traceback(files, monkeypatch):
    def broken(args):
        raise ImportError("No module named 'rouge_full_metric._nothing'")

    monkeypatch.setattr(cli_main, "_make_scorer", broken)
    with pytest.raises(ImportError, match="_nothing"):
        run(["score", "-p", files["pred"], "-r", files["ref"], "-q"])
