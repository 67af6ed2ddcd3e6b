"""Issue 17: every install line works from where the reader stands.

The package is not on PyPI, so ``pip install rouge_full_metric[...]`` fails; the docs, the card, the
examples and the error messages say ``pip install ".[extra]"`` (a checkout), name the wheel, or mark
the index name "once published"."""
import re
from pathlib import Path

import pytest

import rouge_full_metric
from rouge_full_metric.extras import install_line

REPO = Path(__file__).resolve().parent.parent
PACKAGE = Path(rouge_full_metric.__file__).resolve().parent      # the source tree, or an installed wheel
# pip install rouge_full_metric, "rouge_full_metric[spark]", 'rouge-full-metric[x]' -- not a wheel file name
BAD = re.compile(r"""pip install\s+(?:-\S+\s+)*["']?rouge[_-]full[_-]metric(?:\[[^\]]*\])?["']?(?![-\w.])""")


def _files():
    files = [REPO / "README.md", REPO / "card" / "README.md", REPO / "examples" / "README.md",
             REPO / "benchmarks" / "README.md", REPO / "pyproject.toml"]
    files += sorted((REPO / "docs").glob("*.md")) + sorted((REPO / "examples").glob("*.py"))
    files += sorted(REPO.joinpath("card").glob("*.py")) + sorted(PACKAGE.rglob("*.py"))
    return [f for f in files if f.is_file()]


def bad_lines(text):
    """The lines of ``text`` with an install line that fails while the package is not published.

    >>> bad_lines('pip install "rouge_full_metric[spark]"\\npip install ".[spark]"\\n'
    ...           'pip install rouge_full_metric  # once published\\npip install "rouge_full_metric-0.1.0-x.whl[a]"')
    ['pip install "rouge_full_metric[spark]"']
    """
    return [line.strip() for line in text.splitlines() if BAD.search(line) and "once published" not in line]


def test_no_install_line_names_an_unpublished_package():
    files = _files()
    assert len(files) > 30, files     # the package's modules were found
    found = {str(f): bad_lines(f.read_text(encoding="utf-8")) for f in files}
    assert not {k: v for k, v in found.items() if v}


def test_import_errors_name_a_line_that_works():
    from rouge_full_metric import multilingual_stemmers, segmenters

    for extra in ("multilingual", "spark", "evaluate"):
        line = install_line(extra)
        assert line.startswith('pip install ".[%s]" in a checkout' % extra) and not bad_lines(line)
    assert segmenters.EXTRA == multilingual_stemmers.EXTRA == install_line("multilingual")


def test_the_spark_import_error_names_the_checkout_line(monkeypatch):
    import builtins

    from rouge_full_metric import spark

    real_import = builtins.__import__

    def no_pyspark(name, *args, **kwargs):
        if name.startswith("pyspark"):
            raise ImportError("No module named 'pyspark'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspark)
    with pytest.raises(ImportError, match=re.escape('pip install ".[spark]" in a checkout')):
        spark._pyspark()
