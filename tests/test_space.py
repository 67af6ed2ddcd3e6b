"""The Hugging Face Space: card/build_space.py's output, the metric card, app.py, and loading the
Space the way evaluate does it from the Hub — against a local server, fully offline.

evaluate 0.4.6 resolves ``evaluate.load("<user>/<space>")`` with plain HTTP on ``HF_ENDPOINT``:
HEAD then GET ``{endpoint}/spaces/<user>/<space>/resolve/<revision>/<file>`` for the script and each
sibling module it imports, trying the revision ``v<evaluate version>`` first and ``main`` when that
is missing.  The server below answers those (and the repo-info API, which other clients ask first)
from the built Space directory; the loading interpreter refuses every other connection and cannot
import the installed package, so the Space must work on its own.
"""
import doctest
import filecmp
import hashlib
import http.server
import importlib.util
import json
import os
import py_compile
import re
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest

evaluate = pytest.importorskip("evaluate")

REPO = Path(__file__).resolve().parent.parent
CARD = REPO / "card"
PACKAGE = REPO / "rouge_full_metric"
pytestmark = pytest.mark.skipif(not PACKAGE.is_dir(), reason="the Space is built from the source tree, "
                                "which is not here (tests run against an installed wheel)")
BUILD = CARD / "build_space.py"
SPACE_ID = "rouge-user/rouge_full_metric"
SUBPROCESS_TIMEOUT = 240
PREDICTIONS = ["the cat sat on the mat", "police kill the gunman\nthe siege ended"]
REFERENCES = [["a cat sat on the mat", "the cat was on the mat"], ["police killed the gunman", "the gunman was shot"]]
OPTIONS = {"use_stemmer": True, "rouge_types": ["rouge1", "rouge2", "rougeLsum", "rougeW-1.2", "rougeSU4"],
           "confidence_intervals": True}
TEMPLATE_SECTIONS = ["## Metric Description", "## How to Use", "### Inputs", "### Output Values",
                     "#### Values from Popular Papers", "### Examples", "## Limitations and Bias", "## Citation",
                     "## Further References"]


def build(outdir):
    proc = subprocess.run([sys.executable, str(BUILD), str(outdir)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def space(tmp_path_factory):
    # named like the script, so that the directory itself is a valid evaluate.load() path too
    outdir = tmp_path_factory.mktemp("space") / "rouge_full_metric"
    build(outdir)
    return outdir


@pytest.fixture(scope="module")
def checkout_rouge():
    return evaluate.load(str(PACKAGE))


def _expected(checkout_rouge):
    return checkout_rouge.compute(predictions=PREDICTIONS, references=REFERENCES, **OPTIONS)


# ----------------------------------------------------------------------------------- build_space.py
def test_space_holds_the_card_and_identical_copies_of_every_module(space):
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert "rouge_full_metric.py" in modules and "scorer.py" in modules
    card_files = ["README.md", "app.py", "space_core.py", "requirements.txt"]
    assert sorted(p.name for p in space.iterdir()) == sorted(modules + card_files + ["csrc"])
    for name in modules:
        assert (space / name).read_bytes() == (PACKAGE / name).read_bytes(), name
    for name in card_files:
        assert filecmp.cmp(space / name, CARD / name, shallow=False), name
    # the C sources the Space builds its core from (space_core.py), all of them, unchanged
    sources = sorted(p.name for p in (PACKAGE / "csrc").iterdir() if p.suffix in (".c", ".h"))
    assert "_core.c" in sources and sorted(p.name for p in (space / "csrc").iterdir()) == sources
    for name in sources:
        assert (space / "csrc" / name).read_bytes() == (PACKAGE / "csrc" / name).read_bytes(), name


def test_every_module_the_metric_needs_is_named_in_its_script(space):
    # evaluate copies only the modules the script itself imports ("from .x import"); a module that
    # only another sibling imports would be missing from its cache and break every Hub load
    script = (space / "rouge_full_metric.py").read_text(encoding="utf-8")
    named = set(re.findall(r"^from \.(\w+) import", script, flags=re.M))
    needed, todo = set(), list(named)
    while todo:
        name = todo.pop()
        if name in needed or not (space / (name + ".py")).is_file():
            continue  # seen, or a compiled extension (optional by design: the engine falls back)
        needed.add(name)
        source = (space / (name + ".py")).read_text(encoding="utf-8")
        todo += re.findall(r"^\s*from \.(\w+) import", source, flags=re.M)
        todo += [m for group in re.findall(r"^\s*from \. import ([\w, ]+)", source, flags=re.M)
                 for m in re.split(r"\s*,\s*", group.strip())]
    assert needed <= named, "imported by siblings but not named in rouge_full_metric.py: %s" % sorted(needed - named)


def test_build_into_an_existing_clone_keeps_its_files(tmp_path):
    clone = tmp_path / "space-clone"
    (clone / ".git").mkdir(parents=True)
    (clone / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (clone / "obsolete_module.py").write_text("# from an older build\n")
    (clone / "README.md").write_text("old card\n")
    proc = build(clone)
    assert (clone / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert (clone / "obsolete_module.py").exists()
    assert "obsolete_module.py" in proc.stderr
    assert (clone / "README.md").read_bytes() == (CARD / "README.md").read_bytes()
    assert "wrote" in proc.stdout


# ----------------------------------------------------------------------------------- the card
def _card_header_and_body():
    text = (CARD / "README.md").read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n(.*)", text, flags=re.S)
    assert match, "README.md must start with a YAML header between --- lines"
    return match.group(1), match.group(2)


def test_card_yaml_header_has_the_keys_evaluate_spaces_use():
    yaml = pytest.importorskip("yaml")
    header = yaml.safe_load(_card_header_and_body()[0])
    for key in ("title", "emoji", "colorFrom", "colorTo", "sdk", "sdk_version", "app_file", "pinned", "tags",
                "description"):
        assert key in header, key
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", str(header["sdk_version"]))
    assert {"evaluate", "metric"} <= set(header["tags"])
    assert header["pinned"] is False
    assert "ROUGE-1.5.5.pl" in header["description"]


def test_card_has_the_template_sections_in_order():
    body = _card_header_and_body()[1]
    headings = [line.strip() for line in body.splitlines() if line.startswith("#")]
    positions = [headings.index(section) for section in TEMPLATE_SECTIONS]
    assert positions == sorted(positions)


def test_card_explains_the_aggregate_and_has_the_migration_and_flavor_tables():
    body = _card_header_and_body()[1]
    assert "Average_F" in body and "median" in body and "plain mean" in body
    assert "### Migrating from `evaluate.load(\"rouge\")`" in body
    assert '`flavor="rouge_score"`' in body or 'flavor="rouge_score"' in body
    for flavor in ('`"rouge155"` (default)', '`"rouge_score"`', '`"paper"`', '`"matlab"`', '`"xlsum"`'):
        assert "| %s |" % flavor in body, flavor
    # as many ways as the metric has flavors (issue 17: it said "four ways" with five)
    from rouge_full_metric.scorer import FLAVORS

    assert len(FLAVORS) == 5 and "every variant five ways" in body
    assert "transformers<5" in body and "datasets<5" in body


def test_card_values_from_papers_are_in_the_shared_sources(shared_dir):
    # never invent benchmark numbers: each one the card quotes is in the spec or the papers' page
    body = _card_header_and_body()[1]
    section = body[body.index("#### Values from Popular Papers"):body.index("### Examples")]
    with open(os.path.join(shared_dir, "ROUGE-1.5.5-spec.md"), encoding="utf-8") as f:
        spec = f.read()
    with open(os.path.join(shared_dir, "paper-definitions.md"), encoding="utf-8") as f:
        papers = f.read()
    assert "11 ROUGE-1 Average_R: 0.19191 (95%-conf.int. 0.15097 - 0.23346)" in section
    assert "11 ROUGE-1 Average_R: 0.19191 (95%-conf.int. 0.15097 - 0.23346)" in spec
    for number in ("0.571", "0.286", "0.8889", "0.167", "0.333", "0.75"):
        assert number in section and number in papers, number
    assert "Average_R: 0.50067" in body and "Average_R: 0.50067" in spec


# the card shows what happens to Cyrillic without lang=: the LostTextWarning is its point
@pytest.mark.filterwarnings("ignore:.*lost most of its letters")
def test_card_examples_run_as_doctests(space, monkeypatch):
    # "<user>/rouge_full_metric" stands for wherever the Space is published: load the built one
    real_load = evaluate.load

    def load(path, *args, **kwargs):
        if path == "<user>/rouge_full_metric":
            path = str(space / "rouge_full_metric.py")
        return real_load(path, *args, **kwargs)

    monkeypatch.setattr(evaluate, "load", load)
    text = re.sub(r"^```.*$", "", (CARD / "README.md").read_text(encoding="utf-8"), flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, "card/README.md", str(CARD / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = []
    result = runner.run(test, out=report.append)
    assert result.failed == 0, "".join(report)
    assert result.attempted >= 30


def test_requirements_name_what_the_space_imports():
    lines = [line.strip() for line in (CARD / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    names = {re.split(r"[<>=!~\[ ;]", line, 1)[0].lower() for line in lines}
    assert {"evaluate", "datasets", "numpy", "nltk", "gradio"} <= names


# ----------------------------------------------------------------------------------- app.py
def _import_app(space):
    spec = importlib.util.spec_from_file_location("rouge_space_app", str(space / "app.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_app_compiles_and_scores_without_gradio(space, checkout_rouge, tmp_path):
    py_compile.compile(str(CARD / "app.py"), cfile=str(tmp_path / "app.pyc"), doraise=True)
    had_gradio = "gradio" in sys.modules
    app = _import_app(space)
    assert had_gradio or "gradio" not in sys.modules, "app.py must not import gradio at import time"
    assert app.metric_script() == str(space / "rouge_full_metric.py")
    metric = app.load_metric()
    predictions, references = app.parse_lines("police kill the gunman\nthe cat sat",
                                              "police killed the gunman ||| the gunman was shot\na cat sat")
    assert references == [["police killed the gunman", "the gunman was shot"], ["a cat sat"]]
    options = app.options_from_form(["rouge1", "rougeSU4"], "rouge155", True, False, "max", "flavor default",
                                    "newline", True, True)
    assert options == {"rouge_types": ["rouge1", "rougeSU4"], "flavor": "rouge155", "use_stemmer": True,
                       "remove_stopwords": False, "split_sentences": "newline", "use_aggregator": True,
                       "confidence_intervals": True, "multi_ref": "max"}
    result, signature = app.score(metric, predictions, references, options)
    assert result == checkout_rouge.compute(predictions=predictions, references=references, **options)
    # the page's table: every value of the result in its cell, 5 decimals; low/high columns with CIs
    table = app.results_table(result)
    for name in ("rouge1", "rougeSU4"):
        for measure, suffix in (("precision", "_precision"), ("recall", "_recall"), ("fmeasure", "")):
            for stat, key in (("mid", ""), ("low", "_low"), ("high", "_high")):
                cell = 'data-type="%s" data-measure="%s" data-stat="%s" style="[^"]*">%.5f</td>' % (
                    name, measure, stat, result[name + suffix + key])
                assert re.search(cell, table), cell
    assert table.count("<tr ") == 2 + 2 and ">low</th>" in table
    assert signature.startswith("flavor:rouge155|stem:yes|stop:no|limit:none|multi:max")
    jsonl_predictions, jsonl_references = app.parse_jsonl(app.EXAMPLE_JSONL)
    assert "\n" in jsonl_predictions[0] and len(jsonl_references[0]) == 2
    with pytest.raises(ValueError, match="2 predictions but 1 reference"):
        app.parse_lines("a\nb", "a")
    with pytest.raises(ValueError, match="line 1 is not JSON"):
        app.parse_jsonl("{oops")
    assert app.card_markdown().startswith("# Metric Card")


def test_app_in_a_checkout_uses_the_package_script():
    app = _import_app(CARD)
    assert Path(app.metric_script()) == PACKAGE / "rouge_full_metric.py"


def test_app_builds_the_gradio_blocks(space, checkout_rouge):
    gr = pytest.importorskip("gradio")
    app = _import_app(space)
    demo = app.build_demo(checkout_rouge)
    assert isinstance(demo, gr.Blocks)


# ----------------------------------------------------------------------------------- simulated Hub
class _HubHandler(http.server.BaseHTTPRequestHandler):
    """The two kinds of Hub URL a Space load uses, served from the built Space directory."""

    timeout = 30  # a stuck client cannot hold a handler thread for ever

    def log_message(self, *args):  # keep the test output clean; requests are recorded instead
        pass

    def do_HEAD(self):
        self._answer(send_body=False)

    def do_GET(self):
        self._answer(send_body=True)

    def _answer(self, send_body):
        server = self.server
        path = urllib.parse.unquote(urllib.parse.urlparse(self.path).path)
        with server.lock:
            server.requests.append((self.command, path))
        resolve = re.fullmatch(r"/spaces/([^/]+/[^/]+)/resolve/([^/]+)/([^/]+)", path)
        api = re.fullmatch(r"/api/spaces/([^/]+/[^/]+)(?:/revision/([^/]+))?", path)
        if resolve and resolve.group(1) == server.space_id and resolve.group(2) in server.revisions:
            file = server.space_dir / resolve.group(3)
            if file.is_file():
                body = file.read_bytes()
                return self._send(200, body, "text/plain; charset=utf-8", send_body,
                                  {"ETag": '"%s"' % hashlib.sha256(body).hexdigest()})
        elif api and api.group(1) == server.space_id and (api.group(2) in (None, *server.revisions)):
            info = {"id": server.space_id, "sha": "0" * 40, "sdk": "gradio", "private": False,
                    "siblings": [{"rfilename": p.name} for p in sorted(server.space_dir.iterdir())]}
            return self._send(200, json.dumps(info).encode(), "application/json", send_body)
        self._send(404, b"Entry not found", "text/plain", send_body, {"X-Error-Code": "EntryNotFound"})

    def _send(self, status, body, content_type, send_body, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(body)


@pytest.fixture
def hub(space):
    """A local Hub on 127.0.0.1 (free port) serving the Space; stopped after the test."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _HubHandler)
    server.daemon_threads = True
    server.space_dir, server.space_id, server.revisions = space, SPACE_ID, ("main",)
    server.requests, server.lock = [], threading.Lock()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    server.endpoint = "http://127.0.0.1:%d" % server.server_address[1]
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# Runs in a fresh interpreter: HF_ENDPOINT is read when evaluate and huggingface_hub are imported.
_LOADER = r"""
import importlib.abc, json, os, socket, sys

# The installed package must not be used: the Space has to work without it.
class _NoPackage(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "rouge_full_metric" or name.startswith("rouge_full_metric."):
            raise ImportError("the package is hidden in this test: %s" % name)
        return None

sys.meta_path.insert(0, _NoPackage())

# Offline but for the local Hub: record (and refuse) any other connection or name lookup.
LOCAL = ("127.0.0.1", "::1", "localhost")
refused = []
_connect, _getaddrinfo = socket.socket.connect, socket.getaddrinfo

def connect(self, address):
    if isinstance(address, tuple) and address[0] not in LOCAL:
        refused.append(repr(address))
        raise OSError("network access refused by the test: %r" % (address,))
    return _connect(self, address)

def getaddrinfo(host, *args, **kwargs):
    if host not in LOCAL and host is not None:
        refused.append(str(host))
        raise OSError("name lookup refused by the test: %r" % (host,))
    return _getaddrinfo(host, *args, **kwargs)

socket.socket.connect, socket.getaddrinfo = connect, getaddrinfo

import evaluate

path, predictions, references, options = sys.argv[1], *json.loads(sys.argv[2])
metric = evaluate.load(path)
result = metric.compute(predictions=predictions, references=references, **options)
print(json.dumps({"result": result, "module": sys.modules[type(metric).__module__].__file__,
                  "refused": refused, "package_imported": "rouge_full_metric" in sys.modules}))
"""


def _hub_env(tmp_path, endpoint):
    env = dict(os.environ)
    for name in ("HF_MODULES_CACHE", "HF_EVALUATE_CACHE", "HF_METRICS_CACHE", "HF_DATASETS_CACHE", "XDG_CACHE_HOME",
                 "PYTHONPATH", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_EVALUATE_OFFLINE", "HF_HUB_OFFLINE",
                 "HF_SCRIPTS_VERSION", "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY",
                 "all_proxy"):
        env.pop(name, None)
    env.update(HF_ENDPOINT=endpoint, HF_HOME=str(tmp_path / "hf_home"), HF_UPDATE_DOWNLOAD_COUNTS="0",
               HF_HUB_DISABLE_TELEMETRY="1", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
               PYTHONDONTWRITEBYTECODE="1")
    return env


def _load_in_subprocess(path, env, cwd):
    argument = json.dumps([PREDICTIONS, REFERENCES, OPTIONS])
    proc = subprocess.run([sys.executable, "-c", _LOADER, path, argument], cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["refused"] == [], "the load tried to reach the network: %s" % out["refused"]
    assert not out["package_imported"]
    return out, proc


def test_load_from_the_simulated_hub(hub, space, checkout_rouge, tmp_path):
    workdir = tmp_path / "work"
    workdir.mkdir()
    out, _ = _load_in_subprocess(SPACE_ID, _hub_env(tmp_path, hub.endpoint), workdir)
    assert out["result"] == _expected(checkout_rouge)
    # evaluate asked for its own version's tag first, was told there is none, and took main
    resolved = [(method, path) for method, path in hub.requests if "/resolve/" in path]
    base = "/spaces/%s/resolve/" % SPACE_ID
    assert ("GET", base + "main/rouge_full_metric.py") in resolved
    assert any(path.startswith(base + "v") and path.endswith("/rouge_full_metric.py") for _, path in resolved)
    fetched = {path.rsplit("/", 1)[1] for method, path in resolved if method == "GET" and "/main/" in path}
    script = (space / "rouge_full_metric.py").read_text(encoding="utf-8")
    siblings = {name + ".py" for name in re.findall(r"^from \.(\w+) import", script, flags=re.M)}
    assert fetched == siblings | {"rouge_full_metric.py"}
    # the module evaluate imported lives in the fresh cache, next to byte-identical siblings
    module_dir = Path(out["module"]).parent
    assert (tmp_path / "hf_home") in module_dir.parents
    assert "rouge-user--rouge_full_metric" in str(module_dir)
    for name in fetched:
        assert (module_dir / name).read_bytes() == (PACKAGE / name).read_bytes(), name


def test_hub_load_falls_back_to_the_cache_when_the_hub_is_gone(hub, checkout_rouge, tmp_path):
    env = _hub_env(tmp_path, hub.endpoint)
    first, _ = _load_in_subprocess(SPACE_ID, env, tmp_path)
    hub.shutdown()
    hub.server_close()
    second, proc = _load_in_subprocess(SPACE_ID, env, tmp_path)
    assert second["result"] == first["result"] == _expected(checkout_rouge)
    assert second["module"] == first["module"]
    assert "cached version" in proc.stderr


@pytest.mark.parametrize("how", ["script", "directory"])
def test_load_with_the_working_directory_inside_the_space(space, checkout_rouge, tmp_path, how):
    # no endpoint at all: a local load must not touch the network
    env = _hub_env(tmp_path, "http://127.0.0.1:9")
    path = "rouge_full_metric.py" if how == "script" else str(space)
    out, _ = _load_in_subprocess(path, env, space)
    assert out["result"] == _expected(checkout_rouge)
    assert (tmp_path / "hf_home") in Path(out["module"]).parents


def test_app_loads_the_metric_from_inside_the_space(space, checkout_rouge, tmp_path):
    env = _hub_env(tmp_path, "http://127.0.0.1:9")
    script = ("import json, sys\n"
              "sys.meta_path.insert(0, type('B', (), {'find_spec': staticmethod(lambda n, p=None, t=None: "
              "(_ for _ in ()).throw(ImportError(n)) if n.split('.')[0] == 'rouge_full_metric' else None)})())\n"
              "import app\n"
              "m = app.load_metric()\n"
              "p, r, o = json.loads(sys.argv[1])\n"
              "print(json.dumps([m.compute(predictions=p, references=r, **o), 'gradio' in sys.modules]))\n")
    proc = subprocess.run([sys.executable, "-c", script, json.dumps([PREDICTIONS, REFERENCES, OPTIONS])],
                          cwd=str(space), env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    result, gradio_imported = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result == _expected(checkout_rouge)
    assert not gradio_imported


# ----------------------------------------------------------------------------------- the page's parts
def test_lang_menu_names_every_language_with_its_code():
    from rouge_full_metric import languages

    app = _import_app(CARD)
    choices = app.lang_choices()
    assert choices[0] == (app.NO_LANG_LABEL, app.NO_LANG)
    values = [value for _, value in choices[1:]]
    assert values == languages.XLSUM_NAMES and len(values) == 45
    labels = dict((value, label) for label, value in choices)
    assert labels["chinese_simplified"] == "Chinese (simplified) — zh"
    assert labels["chinese_traditional"] == "Chinese (traditional) — zh"
    assert labels["serbian_cyrillic"] == "Serbian (Cyrillic) — sr" and labels["serbian_latin"] == "Serbian (Latin)"
    assert labels["scottish_gaelic"] == "Scottish Gaelic — gd" and labels["pidgin"] == "Pidgin"
    for value, label in labels.items():
        if value != app.NO_LANG:
            # the value is what the metric takes; the code shown is the one its warnings name
            code = languages.resolve(value).code
            assert label.endswith(" — " + code) if code else " — " not in label
    assert app.options_from_form(["rouge1"], "rouge155", False, False, "max", "no", "newline", True, False, True,
                                 "chinese_simplified")["lang"] == "chinese_simplified"
    assert "lang" not in app.options_from_form(["rouge1"], "rouge155", False, False, "max", "no", "newline", True,
                                               False, True, app.NO_LANG)


def test_results_table_shapes():
    app = _import_app(CARD)
    f_only = app.results_table({"rouge1": 0.5, "rougeL": 0.25})
    assert ">F-measure</th>" in f_only and ">precision</th>" not in f_only
    assert 'data-type="rougeL" data-measure="fmeasure" data-stat="mid" style="' in f_only and ">0.25000<" in f_only
    per_example = app.results_table({"rouge1": [0.5, float("nan")], "rouge1_precision": [1.0, None],
                                     "rouge1_recall": [0.25, None]})
    assert per_example.count('data-example="1"') == 3 and per_example.count(">–</td>") == 3
    assert ">example</th>" in per_example
    assert app.results_table({}) == ""


def test_warnings_are_a_warning_box_naming_the_menu_entry():
    app = _import_app(CARD)
    assert app.warnings_html([]) == ""
    box = app.warnings_html(["texts lost letters: give lang='zh' <or flavor='xlsum'>"], app.lang_choices())
    assert box.startswith('<div class="rfm-warning" role="alert"') and "border-left:6px solid" in box
    assert "&lt;or flavor=&#x27;xlsum&#x27;&gt;" in box   # the message is text, not markup
    assert "In the lang menu above: “Chinese (simplified) — zh”" in box
    assert "Warnings" in app.warnings_html(["a", "b"])


def test_engine_line_says_which_engine_scores(checkout_rouge):
    app = _import_app(CARD)
    assert "compiled C core" in app.engine_html("compiled") and "start-up" not in app.engine_html("compiled")
    assert "built at start-up" in app.engine_html("compiled", core=("built", "/x/_core.so"))
    note = app.engine_html("python", "no compiler")
    assert "pure-Python reference engine" in note and "no compiler" in note
    assert app.engine_html("unknown") == ""
    engine, reason = app.engine_of(checkout_rouge)
    from rouge_full_metric import compiled

    assert engine == compiled.backend() and (reason == "") == compiled.AVAILABLE


_NO_COMPILER = r"""
import importlib.abc, json, sys
class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "rouge_full_metric":
            raise ImportError("hidden")
sys.meta_path.insert(0, _Hide())
import space_core
print(json.dumps(space_core.ensure_core(sys.argv[1])))
"""


def test_space_without_a_compiler_says_why(space, tmp_path):
    # a copy of the Space whose compiler fails: nothing is built, the reason is what the page shows
    copy = tmp_path / "space"
    copy.mkdir()
    for name in ("space_core.py",):
        (copy / name).write_bytes((space / name).read_bytes())
    (copy / "csrc").mkdir()
    (copy / "csrc" / "_core.c").write_text("#error this machine has no working compiler\n")
    env = dict(os.environ, CC="/bin/false", PYTHONDONTWRITEBYTECODE="1")
    env.pop("ROUGE_FULL_METRIC_PURE_PYTHON", None)
    proc = subprocess.run([sys.executable, "-c", _NO_COMPILER, str(copy)], cwd=str(copy), env=env,
                          capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    how, detail = json.loads(proc.stdout.strip().splitlines()[-1])
    assert how == "none" and detail.startswith("the C core could not be built here"), detail
    app = _import_app(space)
    assert len(detail) < 250
    import html

    assert html.escape(detail) in app.engine_html("python", "", (how, detail))
