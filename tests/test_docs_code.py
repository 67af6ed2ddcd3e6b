"""Every ```python block of README.md and docs/*.md runs as written (issue 17).

Each file's blocks run top to bottom in one namespace, with the repository root as the current
directory, as a reader would paste them.  A block that needs an optional extra or a program says
so in an HTML comment on the line before it, which Markdown does not show::

    <!-- requires: spark -->
    ```python
    ...

Words after ``requires:`` are extras (``spark``, ``multilingual``, ``evaluate``), ``java``, or module
names; a block whose requirement is missing is not run, and the file's test then skips naming it
(after running every other block).  Blocks that are not meant to run are ```text or ```bash.
"""
import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = ([REPO / "README.md"] if (REPO / "README.md").is_file() else []) + sorted((REPO / "docs").glob("*.md"))
EXTRAS = {"spark": ["pyspark", "pandas", "pyarrow", "java"],
          "multilingual": ["jieba", "fugashi", "unidic_lite", "pythainlp", "TurkishStemmer"],
          "evaluate": ["evaluate", "datasets"]}
BLOCK = re.compile(r"(?:<!--\s*requires:([^>]*?)-->\s*\n)?^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def python_blocks(text):
    """[(first line number, requirements, code)] of a Markdown text's ```python blocks.

    >>> python_blocks("a\\n<!-- requires: spark -->\\n```python\\nx = 1\\n```\\n```python\\ny = 2\\n```\\n")
    [(4, ['spark'], 'x = 1\\n'), (7, [], 'y = 2\\n')]
    """
    return [(text.count("\n", 0, m.start(2)) + 1, (m.group(1) or "").split(), m.group(2))
            for m in BLOCK.finditer(text)]


def missing(requirements):
    """The requirements (extras expanded) that this machine lacks."""
    lacking = []
    for word in requirements:
        for need in EXTRAS.get(word, [word]):
            present = shutil.which(need) is not None if need == "java" else importlib.util.find_spec(need) is not None
            if not present:
                lacking.append(need)
    return lacking


@pytest.mark.skipif(not PAGES, reason="README.md and docs/ are not here (tests run outside the checkout)")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_python_blocks_run(page, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    # Spark's workers must run this interpreter (a reader's `python` on PATH is the same one)
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.setenv("PYSPARK_DRIVER_PYTHON", sys.executable)
    namespace = {"__name__": "__docs__"}
    skipped = []
    try:
        for line, requirements, code in python_blocks(page.read_text(encoding="utf-8")):
            lacking = missing(requirements)
            if lacking:
                skipped.append("line %d needs %s" % (line, ", ".join(lacking)))
                continue
            # leading blank lines keep the tracebacks' line numbers those of the page
            exec(compile("\n" * (line - 1) + code, str(page), "exec"), namespace)
    finally:
        spark = namespace.get("spark")
        if spark is not None and hasattr(spark, "stop"):
            spark.stop()
    if skipped:
        pytest.skip("%s: the other blocks ran; not run: %s" % (page.name, "; ".join(skipped)))


def test_every_docs_page_is_found():
    # the glob must see the pages this test exists for (a moved docs/ would make it vacuous)
    if not PAGES:
        pytest.skip("README.md and docs/ are not here (tests run outside the checkout)")
    assert REPO / "README.md" in PAGES and len(PAGES) >= 10
    assert sum(len(python_blocks(p.read_text(encoding="utf-8"))) for p in PAGES) >= 8
