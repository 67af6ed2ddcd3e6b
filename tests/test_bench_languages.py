"""benchmarks/bench_languages.py and bench_ab.py --lang run through (a smoke run of a few pairs:
their figures are benchmarks, not tests) and time the texts they say they time."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_full_metric import compiled

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled core is not built")


def test_bench_languages_prints_a_row_per_language():
    done = subprocess.run([sys.executable, str(BENCH / "bench_languages.py"), "--langs", "english,hindi",
                           "--pairs", "5", "--runs", "1"], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr + done.stdout
    for lang in ("english", "hindi"):
        assert re.search(r"^%s\s+-\s+(\S+)\s+\d+\.\d\s+\d+\.\d" % lang, done.stdout, re.M), done.stdout


def test_language_pairs_are_the_languages_texts():
    sys.path.insert(0, str(BENCH))
    try:
        from bench_languages import language_pairs
    finally:
        sys.path.remove(str(BENCH))
    from rouge_full_metric import languages

    predictions, references = language_pairs(languages.resolve("hindi"), 7)
    assert len(predictions) == len(references) == 7
    assert all(isinstance(t, str) and t for t in predictions + references)
    assert any("\u0900" <= ch <= "\u097f" for ch in references[0])   # Devanagari


def test_bench_ab_lang_times_both_checkouts():
    import rouge_full_metric

    # the folder holding the package this test imports (a checkout, or site-packages for the wheel)
    root = os.path.dirname(os.path.dirname(os.path.abspath(rouge_full_metric.__file__)))
    done = subprocess.run([sys.executable, str(BENCH / "bench_ab.py"), root, root, "--flavor", "xlsum",
                           "--lang", "hindi", "--pairs", "5", "--runs", "1"],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr + done.stdout
    assert "hindi texts, 5 pairs, flavor xlsum" in done.stdout
    assert len(re.findall(r"us/pair", done.stdout)) == 2


def test_bench_ab_processes_times_each_checkout_in_a_process_of_its_own():
    import rouge_full_metric

    root = os.path.dirname(os.path.dirname(os.path.abspath(rouge_full_metric.__file__)))
    done = subprocess.run([sys.executable, str(BENCH / "bench_ab.py"), root, root, "--flavor", "xlsum",
                           "--lang", "hindi", "--pairs", "5", "--runs", "2", "--calls", "1", "--processes"],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr + done.stdout
    assert "hindi texts, 5 pairs, flavor xlsum" in done.stdout
    assert "each checkout in a process of its own, the median of 1 calls" in done.stdout
    rows = re.findall(r"(\d+\.\d+) us/pair \(min (\d+\.\d+)\)", done.stdout)
    assert len(rows) == 2 and all(float(median) >= float(low) > 0 for median, low in rows)
