"""A new process pays for what it imports: a script that scores with one flavor imports that
flavor's modules and nothing of the others (benchmarks/bench_startup.py times it against
rouge-score-rs).  Each case runs a fresh interpreter and reads its sys.modules."""
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"

# Imported only by the options that need them
HEAVY = ["rouge_full_metric.matlab", "rouge_full_metric.flavor_matlab", "rouge_full_metric.xlsum_tokenizer",
         "rouge_full_metric.lang_pipeline", "rouge_full_metric.languages", "rouge_full_metric.segmenters",
         "rouge_full_metric.multilingual_stemmers", "rouge_full_metric.stemmer", "rouge_full_metric.rouge155_data",
         "rouge_full_metric.flavor_xlsum", "rouge_full_metric.rouge_full_metric", "importlib.metadata", "numpy",
         "nltk", "evaluate", "datasets"]


def modules_after(code):
    """The modules a fresh interpreter holds after running code (from the repository's root, as
    the tests import the package)."""
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_scoring_imports_only_the_flavor_in_use():
    found = modules_after("from rouge_full_metric import RougeScorer\n"
                          "s = RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], flavor='rouge_score')\n"
                          "s.score('the cat sat\\non the mat', 'a cat was on the mat')")
    assert "rouge_full_metric.flavor_rouge_score" in found
    assert not {"rouge_full_metric.flavor_rouge155", "rouge_full_metric.flavor_paper"} & found
    assert not set(HEAVY) & found, sorted(set(HEAVY) & found)


# Standard modules the scoring path does without (typing, with re, enum and functools, which it
# imports, was ~60 % of a bare import's cost): what lazy_re, _thread and collections.namedtuple
# are for, and why the checks of numbers import numbers only for non-int arguments
STDLIB_LEFT_OUT = {"typing", "re", "enum", "functools", "threading", "numbers", "warnings", "contextlib", "queue",
                   "unicodedata", "importlib.util", "importlib.metadata", "inspect", "weakref"}


def stdlib_after(code):
    """The modules a fresh interpreter without site (nothing a .pth file or sitecustomize
    imports) adds while running code, with the package's and NLTK's directories on its path."""
    import importlib.util

    import rouge_full_metric

    path = [str(Path(rouge_full_metric.__file__).resolve().parent.parent)]
    nltk = importlib.util.find_spec("nltk")
    if nltk is not None:
        path.append(str(Path(nltk.origin).resolve().parent.parent))
    child = ("import sys\nsys.path[:0] = %r\nbefore = set(sys.modules)\n%s\n"
             "added = sorted(set(sys.modules) - before)\nprint(repr(added))" % (path, code))
    done = subprocess.run([sys.executable, "-S", "-c", child], cwd="/", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(ast.literal_eval(done.stdout.splitlines()[-1]))


SCORING = {
    "bare import": "import rouge_full_metric",
    "rouge_score, unstemmed": "from rouge_full_metric import RougeScorer\n"
                              "s = RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], flavor='rouge_score')\n"
                              "s.score('the cat sat\\non the mat', 'a cat was on the mat')\n"
                              "s.score_batch(['the cat sat'] * 3, [['a cat', 'the mat']] * 3)",
    "rouge_score, stemmed": "from rouge_full_metric import RougeScorer\n"
                            "RougeScorer(['rouge1', 'rougeLsum'], flavor='rouge_score', use_stemmer=True)"
                            ".score('the cats sat\\non mats', 'a cat was sitting')",
    "rouge155, every variant": "from rouge_full_metric import RougeScorer\n"
                               "RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'rougeW-1.2', 'rougeS4', 'rougeSU*'],"
                               " word_limit=100, alpha=0.5).score('the cat sat\\non the mat', ['a cat was on the mat', 'b'])",
    "rouge155, stemmed, stop words": "from rouge_full_metric import RougeScorer\n"
                                     "RougeScorer(['rouge1', 'rougeL'], use_stemmer=True, remove_stopwords=True)"
                                     ".score('the cats were sitting', 'a cat sat')",
    "paper": "from rouge_full_metric import RougeScorer\n"
             "RougeScorer(['rouge2', 'rougeSU4'], flavor='paper').score('the cat sat on it', ['a cat sat', 'the mat'])",
    # averages and a CI: without numpy too (not on this interpreter's path: importing it would fail)
    "corpus averages": "from rouge_full_metric import RougeScorer\n"
                       "for flavor in ('rouge155', 'rouge_score'):\n"
                       "    s = RougeScorer(['rouge1', 'rougeL'], flavor=flavor)\n"
                       "    r = s.score_corpus(['the cat sat', 'a dog'], ['a cat sat', 'the dog ran'])\n"
                       "    s.corpus_means(r.per_example)\n"
                       "    s.mean_scores(['the cat sat'], ['a cat'])",
    # the helper threads' pool: _thread and _queue, not threading, queue and typing (~7 ms of a
    # new process's first n_jobs=2 call)
    "n_jobs=2": "from rouge_full_metric import RougeScorer\n"
                "s = RougeScorer(['rouge1', 'rougeL'], flavor='rouge_score')\n"
                "s.score_batch(['the cat sat on the mat'] * 3000, ['a cat was on the mat'] * 3000, n_jobs=2)",
}


# What only corpus averages and their intervals import
CORPUS_ONLY = {"rouge_full_metric.corpus", "rouge_full_metric.bootstrap_compiled", "math", "collections.abc"}

# The pure-Python engine's modules, and the NaN rule's: the compiled core's scorers never run them
PYTHON_ENGINE = {"rouge_full_metric.python_engine", "rouge_full_metric.lcs", "rouge_full_metric.ngrams",
                 "rouge_full_metric.undefined"}


@pytest.mark.parametrize("case", sorted(SCORING))
def test_scoring_on_the_core_leaves_typing_and_re_out(case):
    from rouge_full_metric import compiled, nltk_porter

    if not compiled.AVAILABLE:
        pytest.skip("the pure-Python engine tokenizes with re")
    if case == "rouge_score, stemmed" and not nltk_porter.native_available():
        pytest.skip("NLTK's own stemmer stems here (not a release the core reproduces, or no NLTK)")
    found = stdlib_after(SCORING[case])
    assert "rouge_full_metric._core" in found or case == "bare import"
    assert not STDLIB_LEFT_OUT & found, sorted(STDLIB_LEFT_OUT & found)
    assert not PYTHON_ENGINE & found, sorted(PYTHON_ENGINE & found)
    if "score_batch" not in SCORING[case] and "score_corpus" not in SCORING[case]:
        # score() checks an ASCII pair for lost letters without the check's module
        assert "rouge_full_metric.lost_text" not in found
    if "score_corpus" not in SCORING[case]:
        # corpus averages' classes and the bootstrap load with score_corpus; math (a shared
        # library) and collections.abc cost 0.3 and 0.25 ms of a new process that only scores
        assert not CORPUS_ONLY & found, sorted(CORPUS_ONLY & found)


def test_what_is_left_out_still_serves_where_it_is_needed():
    """The lazy parts load when used: a non-ASCII text's check (re, unicodedata and warnings for
    the LostTextWarning), n_jobs=2's pool (where a second CPU lets a helper start), an argument
    that is not an int (numbers), the Python stemmer's patterns."""
    from rouge_full_metric import batch

    found = stdlib_after("import warnings\nwarnings.simplefilter('ignore')\n"
                         "from rouge_full_metric import RougeScorer\n"
                         "try:\n    RougeScorer(['rouge1'], word_limit='3')\nexcept TypeError:\n    pass\n"
                         "s = RougeScorer(['rouge1'])\ns.score('北京今天下雨了', 'a b')\n"
                         "s.score_batch(['a b c'] * 300, ['a b'] * 300, n_jobs=2)\n"
                         "from rouge_full_metric.stemmer import stem\nassert stem('generalizations') == 'gener'")
    assert {"re", "unicodedata", "numbers"} <= found
    if batch._available_cpus() >= 2:
        assert {"rouge_full_metric.thread_pool", "_queue"} <= found


def test_the_python_engine_loads_where_it_runs():
    """The pure-Python engine (forced here, as the differential tests force it) imports its
    modules on first use."""
    found = stdlib_after("from rouge_full_metric import RougeScorer\n"
                         "s = RougeScorer(['rouge1', 'rougeL'], flavor='rouge155')\n"
                         "from rouge_full_metric import batch\n"
                         "per_example, stats = batch.score_examples(s, ['a b c'], [['a c']], backend='python')\n"
                         "assert per_example[0]['rougeL'].recall == 1.0, per_example")
    assert {"rouge_full_metric.python_engine", "rouge_full_metric.lcs", "rouge_full_metric.ngrams"} <= found


def test_the_default_flavor_needs_neither_stop_words_nor_stemmer_unless_asked():
    plain = modules_after("from rouge_full_metric import RougeScorer\n"
                          "RougeScorer(['rouge1', 'rougeL']).score('the cats sat', 'a cat sat')")
    assert not set(HEAVY) & plain, sorted(set(HEAVY) & plain)
    stemmed = modules_after("from rouge_full_metric import RougeScorer\n"
                            "RougeScorer(['rouge1'], use_stemmer=True, remove_stopwords=True).score('the cats sat', 'a cat')")
    assert "rouge_full_metric.rouge155_data" in stemmed
    from rouge_full_metric import compiled

    # the core reads the exception table's text itself: stemmer.py (its dict, its patterns) is
    # the pure-Python engine's
    assert ("rouge_full_metric.stemmer" in stemmed) == (not compiled.AVAILABLE)


def test_a_stemmed_rouge_score_scorer_reads_nltk_s_version_without_importlib_metadata():
    from rouge_full_metric import nltk_porter

    if not nltk_porter._release_on_path()[0]:
        pytest.skip("NLTK's metadata is not in a directory this reads (importlib.metadata decides)")
    found = modules_after("from rouge_full_metric import RougeScorer, nltk_porter\n"
                          "RougeScorer(['rouge1'], flavor='rouge_score', use_stemmer=True).score('cats ran', 'a cat runs')\n"
                          "assert nltk_porter.nltk_release()")
    assert "importlib.metadata" not in found


def test_the_lazy_names_still_resolve():
    import rouge_full_metric
    from rouge_full_metric import flavors, tokenization

    assert rouge_full_metric.rouge_evaluation_score.__module__ == "rouge_full_metric.matlab"
    assert "rouge_evaluation_score" in rouge_full_metric.__all__
    assert "the" in tokenization.STOPWORDS and len(tokenization.STOPWORDS) == 596
    assert tokenization.stem("generalizations") == "gener"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        tokenization.nothing
    assert [flavors.get(name).name for name in flavors.NAMES] == list(flavors.NAMES)
    with pytest.raises(ValueError, match="flavor must be one of rouge155, paper, rouge_score, matlab, xlsum"):
        flavors.get("rouge")


def test_the_benchmark_s_output_is_read():
    """bench_startup.py as it prints today (three rounds, one size): targets.py takes its rows into
    the "ahead of rs" target, those under the empty interpreter's time (negative) included."""
    done = subprocess.run([sys.executable, str(BENCH / "bench_startup.py"), "--runs", "3", "--sizes", "1",
                           "--no-rouge-score"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(BENCH))
    import targets

    p = targets.parse("$ python benchmarks/bench_startup.py\n" + done.stdout)
    names = [name for name, _, _ in p["startup"]]
    if "rouge-score-rs not installed" in done.stdout:
        assert names == []
        return
    assert names == ["import", "1 pairs", "1 pairs, stemmed", "1 pairs, with a CI"]   # not the CLI: rs has none
    assert re.search(r"^CLI, 1 pairs\s+-?[\d.]+ \(", done.stdout, flags=re.M)
    negative = re.sub(r"^(import\s+)\S+ \(\s*\S+\)\s+\S+ \(", r"\g<1>-0.4 (  -0.5)     -1.2 (", done.stdout, flags=re.M)
    assert negative != done.stdout
    assert targets.parse("$ python benchmarks/bench_startup.py\n" + negative)["startup"][0] == ("import", -0.4, -1.2)


def test_the_benchmark_s_preload_comes_before_the_child_s_clocks():
    """bench_startup.py --preload: the modules a script has imported before ours (json, argparse)
    are outside each child's own clocks, and a name that is not a module's is refused."""
    sys.path.insert(0, str(BENCH))
    import bench_startup

    wall, _cpu, _own_cpu, own_wall = bench_startup.run_once("pass", bench_startup.child_env(),
                                                            "import time\ntime.sleep(0.3)\n")
    assert wall >= 0.3 and own_wall < 0.2
    done = subprocess.run([sys.executable, str(BENCH / "bench_startup.py"), "--preload", "json,os.path;x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--preload takes module names" in done.stderr and "'os.path;x'" in done.stderr


def test_the_import_s_parts_are_timed():
    """bench_import_parts.py, one round: each part of the import it names gets a time, and the
    module count it reports is the scoring path's."""
    done = subprocess.run([sys.executable, str(BENCH / "bench_import_parts.py"), "--runs", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = dict(re.findall(r"^(\S.*?)\s+([\d.]+) ms CPU$", done.stdout, flags=re.M))
    count = int(re.search(r"^our modules: (\d+), \d+ bytes of \.pyc", done.stdout, flags=re.M).group(1))
    assert 5 <= count <= 30
    assert {"ours: import, scorer, 1 pair", "the same, collector off", "the core's extension",
            "%d empty modules" % count, "the %d .pyc read, unmarshalled" % count} <= set(rows)
    assert all(float(v) > 0 for v in rows.values())
    done = subprocess.run([sys.executable, str(BENCH / "bench_import_parts.py"), "--runs", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--runs must be at least 1" in done.stderr


def test_two_trees_are_timed_in_turns():
    """bench_startup_ab.py, the smallest run: both trees (here the same one, the folder of the
    package whose core this process loaded) get each row's times and a paired ratio; a folder
    without the package, or too few rounds, is refused."""
    from rouge_full_metric import compiled

    if not compiled.AVAILABLE:
        pytest.skip("the trees compared are built ones")
    tree = str(Path(compiled.core.__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, str(BENCH / "bench_startup_ab.py"), tree, tree, "--runs", "6"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^(import|1 pair|corpus of 20) +([\d.]+) +([\d.]+) +([\d.]+) \[([\d.]+)-([\d.]+)\]$",
                      done.stdout, flags=re.M)
    assert [r[0] for r in rows] == ["import", "1 pair", "corpus of 20"], done.stdout
    for _, before, after, ratio, lo, hi in rows:
        assert float(before) > 0 and float(after) > 0 and float(lo) <= float(ratio) <= float(hi)
    done = subprocess.run([sys.executable, str(BENCH / "bench_startup_ab.py"), str(BENCH), tree, "--runs", "6"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and str(BENCH) in done.stderr and "did not import" in done.stderr
    done = subprocess.run([sys.executable, str(BENCH / "bench_startup_ab.py"), tree, tree, "--runs", "5"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--runs must be at least 6" in done.stderr
