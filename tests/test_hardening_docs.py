"""Issue 12, what a new user reads first: the README, the docs/ pages it links (issue 17 moved the
reference material there), examples/README.md and the extras."""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
DOCS = {p.name: p.read_text(encoding="utf-8") for p in sorted((REPO / "docs").glob("*.md"))}
ALL_DOCS = README + "".join(DOCS.values())
EXAMPLES_README = (REPO / "examples" / "README.md").read_text(encoding="utf-8")
HELPERS = {"tiny_seq2seq.py"}   # imported by the examples, not one of them


def _tables(text):
    """Each Markdown table as its list of rows (a blank line ends a table)."""
    tables, current = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables + ([current] if current else [])


def test_flavors_table_is_one_table():
    from rouge_full_metric.scorer import FLAVORS

    flavors = [t for t in _tables(DOCS["rouge-types-and-flavors.md"]) if t[0].startswith("| flavor | what it reproduces |")]
    assert len(flavors) == 1
    rows = [row.split("|")[1].strip().split()[0].strip("`") for row in flavors[0][2:]]
    assert sorted(rows) == sorted(FLAVORS), rows     # every flavor, in one table (no blank line)


def test_readme_tells_users_to_run_only_what_they_have():
    # ../shared is the maintainers' folder, not distributed: no instruction may run a file from it
    assert not re.search(r"`python \.\./shared", ALL_DOCS)
    assert "tests/test_perl_goldens.py" in DOCS["conformance.md"]


def test_readme_explains_the_space():
    space = DOCS["install.md"]
    assert "python card/build_space.py DIR" in space and "`card/`" in space
    assert "rouge_full_metric.py" in space and "<user>/rouge_full_metric" in space


def test_readme_warns_about_the_argument_order():
    section = DOCS["evaluate.md"][DOCS["evaluate.md"].index("## Migrating from"):]
    assert "score(target, prediction)" in section and "score(target=ref, prediction=pred)" in section
    assert "`rouge10` and higher" in section


def test_every_example_has_a_copy_paste_line():
    scripts = sorted(p.name for p in (REPO / "examples").glob("*.py") if p.name not in HELPERS)
    for script in scripts:
        rows = [row for row in EXAMPLES_README.splitlines() if row.startswith("| `%s`" % script)]
        assert len(rows) == 1, script
        assert re.search(r"`python3 -m venv \S+ && \. \S+/bin/activate && .*pip install .* && python examples/%s`"
                         % re.escape(script), rows[0]), rows[0]
    assert "tiny_seq2seq.py` is not an example" in EXAMPLES_README
    assert "download.pytorch.org/whl/cpu" in DOCS["install.md"] and "download.pytorch.org/whl/cpu" in EXAMPLES_README


def test_extras_hold_what_the_examples_import():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import pytest

        tomllib = pytest.importorskip("tomli")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]

    def names(extra):
        return {re.split(r"[<>=\[ ]", req)[0].lower() for req in extras[extra]}

    assert {"torch", "transformers", "accelerate", "evaluate", "datasets"} <= names("trainer")
    assert {"torch", "transformers", "accelerate", "evaluate", "datasets"} <= names("evaluator")
    assert {"evaluate", "datasets"} <= names("evaluate")
    assert any(req.startswith("transformers") and "<5" in req for req in extras["evaluator"])


def test_readme_links_every_docs_page():
    # the README is the front door: a page it does not link is a page nobody finds
    for name in DOCS:
        assert "(docs/%s" % name in README, name
