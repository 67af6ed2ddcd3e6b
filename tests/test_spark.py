"""rouge_full_metric.spark on a local[2] Spark: the same numbers as one process.

One SparkSession for the module, bound to loopback; skipped when pyspark or java is missing.
"""
import doctest
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

from rouge_full_metric import RougeScorer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from column_expectations import expected_columns  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORDS = ("the a police killed kill gunman cat cats sat sitting mat on of quick brown fox runs ran running "
         "dog dogs was were shot and it is").split()
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]


def _text(rnd):
    return "\n".join(" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0 if rnd.random() < 0.02 else 1, 14)))
                     for _ in range(rnd.randint(1, 3)))


def _corpus(n, seed, multi=True):
    rnd = random.Random(seed)
    preds = [_text(rnd) for _ in range(n)]
    refs = [[_text(rnd) for _ in range(rnd.randint(1, 3))] if multi else _text(rnd) for _ in range(n)]
    return preds, refs


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark")
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    if not shutil.which("java") and not os.environ.get("JAVA_HOME"):
        pytest.skip("java is not installed (pyspark needs a JVM)")
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("rouge_full_metric-tests")
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
               .config("spark.default.parallelism", "4").config("spark.task.maxFailures", "1")
               .config("spark.sql.execution.arrow.maxRecordsPerBatch", "700")   # several batches per partition
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def data():
    preds, refs = _corpus(3000, seed=11)
    return preds, refs


@pytest.fixture(scope="module")
def df(spark, data):
    preds, refs = data
    rows = [(k, p, r) for k, (p, r) in enumerate(zip(preds, refs))]
    # 4 partitions (spark.default.parallelism), in a stable order: no shuffle, whose output order
    # may change from one job to the next
    return spark.createDataFrame(rows, "id long, prediction string, reference array<string>")


def _rows_in_order(df, columns=("prediction", "reference")):
    rows = df.select(*columns).collect()
    return [[row[c] for row in rows] for c in columns]


# ----------------------------------------------------------------------------------- columns
@pytest.mark.parametrize("options", [
    {"use_stemmer": True, "remove_stopwords": True},
    {"flavor": "paper", "word_limit": 6, "alpha": 0.8},
], ids=["stem-stop", "paper-limit-alpha"])
def test_columns_equal_score_batch_with_several_references(spark, df, options):
    from rouge_full_metric.spark import add_rouge_columns

    scored = add_rouge_columns(df, rouge_types=TYPES, **options)
    names = [t + s for t in TYPES for s in ("", "_precision", "_recall")]
    assert scored.columns == df.columns + names
    rows = scored.collect()   # one job: the texts and the scores come back together
    preds, refs = [r["prediction"] for r in rows], [list(r["reference"]) for r in rows]
    want = expected_columns(RougeScorer(TYPES, **options), preds, refs)
    assert len(rows) == 3000
    for name in names:
        assert [r[name] for r in rows] == want[name], name


def test_columns_with_single_string_references_and_flavor_rouge_score(spark):
    from rouge_full_metric.spark import add_rouge_columns

    preds, refs = _corpus(1500, seed=5, multi=False)
    frame = spark.createDataFrame(list(zip(preds, refs)), "pred string, ref string").repartition(2)
    options = {"flavor": "rouge_score", "use_stemmer": True}
    scored = add_rouge_columns(frame, predictions="pred", references="ref",
                               rouge_types=["rouge1", "rougeL", "rougeLsum"], **options).collect()
    want = expected_columns(RougeScorer(["rouge1", "rougeL", "rougeLsum"], **options),
                             [r["pred"] for r in scored], [r["ref"] for r in scored])
    for name, values in want.items():
        assert [r[name] for r in scored] == values, name


def test_null_text_gives_null_scores_and_keeps_the_row(spark):
    from rouge_full_metric.spark import add_rouge_columns

    rows = [("a b c", ["a b"]), (None, ["a b"]), ("a b", None), ("x y", ["x", "y z"])]
    frame = spark.createDataFrame(rows, "prediction string, reference array<string>").coalesce(1)
    got = add_rouge_columns(frame, rouge_types=["rouge1"]).collect()
    assert [r["prediction"] for r in got] == [r[0] for r in rows]
    want = RougeScorer(["rouge1"]).score_batch(["a b c", "x y"], [["a b"], ["x", "y z"]])
    assert got[0]["rouge1"] == want[0]["rouge1"].fmeasure and got[3]["rouge1_recall"] == want[1]["rouge1"].recall
    for r in got[1:3]:
        assert r["rouge1"] is None and r["rouge1_precision"] is None and r["rouge1_recall"] is None


def test_bad_rows_fail_the_job_naming_the_row(spark):
    from rouge_full_metric.spark import add_rouge_columns

    frame = spark.createDataFrame([("r1", "a b", ["a"]), ("r2", "a b", [])],
                                  "key string, prediction string, reference array<string>").coalesce(1)
    with pytest.raises(Exception, match=r"row with id 'r2'.*references.*empty"):
        add_rouge_columns(frame, rouge_types=["rouge1"], id_column="key").collect()
    # without an id column the row is named by partition and position
    with pytest.raises(Exception, match=r"row 1 of partition 0.*references.*empty"):
        add_rouge_columns(frame, rouge_types=["rouge1"]).collect()


def test_arguments_are_checked_before_any_job(spark, df):
    from rouge_full_metric.spark import add_rouge_columns, corpus_score

    with pytest.raises(ValueError, match="predictions='pred' is not a column"):
        add_rouge_columns(df, predictions="pred")
    with pytest.raises(TypeError, match="references column 'id' must hold strings or arrays of strings"):
        add_rouge_columns(df, references="id")
    with pytest.raises(ValueError, match="flavor must be one of"):
        add_rouge_columns(df, flavor="perl")
    with pytest.raises(TypeError, match="unexpected keyword"):
        add_rouge_columns(df, stemmer=True)
    with pytest.raises(ValueError, match="already has column"):
        add_rouge_columns(add_rouge_columns(df, rouge_types=["rouge1"]), rouge_types=["rouge1"])
    with pytest.raises(ValueError, match="n_bootstrap must be a whole number"):
        corpus_score(df, n_bootstrap=0)
    with pytest.raises(ValueError, match="method must be"):
        corpus_score(df, method="exact")


# ----------------------------------------------------------------------------------- corpus
@pytest.mark.parametrize("options", [
    {},
    {"rouge_types": ["rouge1", "rougeW-1.2", "rougeSU4"], "use_stemmer": True, "multi_ref": "best",
     "confidence": 90, "n_bootstrap": 300, "system_id": "sys7"},
    {"rouge_types": ["rouge2", "rougeLsum"], "flavor": "paper"},
], ids=["defaults", "stem-best-ci90", "paper"])
def test_perl_corpus_score_equals_score_corpus(spark, df, options):
    from rouge_full_metric.spark import corpus_score

    options = dict(options)
    corpus = {k: options.pop(k) for k in ("confidence", "n_bootstrap", "system_id") if k in options}
    got = corpus_score(df, method="auto", **corpus, **options)
    assert got.method == "perl" and got.count == 3000 and got.skipped == 0
    preds, refs = _rows_in_order(df)   # the DataFrame's order: ids "1".."N"
    scorer = RougeScorer(options.pop("rouge_types", ["rouge1", "rouge2", "rougeL", "rougeLsum"]), **options)
    want = scorer.score_corpus(preds, [list(r) for r in refs], **corpus)
    assert got.aggregate == want.aggregate
    assert got.signature == want.signature


def test_perl_corpus_score_with_an_id_column_equals_score_corpus_with_ids(spark, df):
    from rouge_full_metric.spark import corpus_score

    shuffled = df.repartition(4, "prediction")   # the order changes; the ids carry the instance keys
    got = corpus_score(shuffled, rouge_types=["rouge1", "rougeL"], id_column="id", method="perl")
    ids, preds, refs = _rows_in_order(df, ("id", "prediction", "reference"))
    want = RougeScorer(["rouge1", "rougeL"]).score_corpus(preds, [list(r) for r in refs], ids=ids)
    assert got.aggregate == want.aggregate


def test_poisson_bootstrap_is_exact_on_the_mean_and_close_on_the_interval(spark, df):
    from rouge_full_metric.spark import corpus_score

    types = ["rouge1", "rougeL"]
    got = corpus_score(df, rouge_types=types, method="poisson", n_bootstrap=400)
    assert got.method == "poisson" and got.count == 3000 and got.signature.endswith("|boot:poisson/0")
    preds, refs = _rows_in_order(df)
    want = RougeScorer(types).score_corpus(preds, [list(r) for r in refs], n_bootstrap=400)
    for t in types:
        for g, w in zip(got.aggregate[t], want.aggregate[t]):
            assert g.mean == w.mean                     # exact sums, whatever the partitioning
            assert abs(g.mid - w.mid) < 2e-3            # both bootstrap means of the same mean
            assert abs(g.low - w.low) < 5e-3 and abs(g.high - w.high) < 5e-3
            assert g.low < g.mid < g.high
    # keyed by the id column, the replicates do not depend on the partitioning
    a = corpus_score(df, rouge_types=["rouge1"], id_column="id", method="poisson", n_bootstrap=200, seed=3)
    b = corpus_score(df.repartition(5), rouge_types=["rouge1"], id_column="id", method="poisson",
                     n_bootstrap=200, seed=3)
    for g, w in zip(a.aggregate["rouge1"], b.aggregate["rouge1"]):
        assert g.mean == w.mean and g.mid == w.mid and g.low == w.low and g.high == w.high
    # flavor paper reports the plain mean as mid: exact too
    paper = corpus_score(df, rouge_types=["rouge1"], method="poisson", n_bootstrap=50, flavor="paper")
    exact = RougeScorer(["rouge1"], flavor="paper").score_corpus(preds, [list(r) for r in refs], n_bootstrap=50)
    assert [s.mid for s in paper.aggregate["rouge1"]] == [s.mid for s in exact.aggregate["rouge1"]]


def test_corpus_score_null_rows_error_or_skip(spark):
    from rouge_full_metric.spark import corpus_score

    preds, refs = _corpus(200, seed=2, multi=False)
    rows = [(p if k % 37 else None, r) for k, (p, r) in enumerate(zip(preds, refs))]
    frame = spark.createDataFrame(rows, "prediction string, reference string").coalesce(2)
    for method in ("perl", "poisson"):
        with pytest.raises(ValueError, match=r"6 row\(s\) have a NULL prediction or reference .*nulls='skip'"):
            corpus_score(frame, rouge_types=["rouge1"], method=method, n_bootstrap=20)
    got = corpus_score(frame, rouge_types=["rouge1"], nulls="skip", method="perl")
    kept = [(p, r) for p, r in rows if p is not None]
    want = RougeScorer(["rouge1"]).score_corpus([p for p, _ in kept], [r for _, r in kept])
    assert (got.count, got.skipped) == (194, 6) and got.aggregate == want.aggregate
    poisson = corpus_score(frame, rouge_types=["rouge1"], nulls="skip", method="poisson", n_bootstrap=20)
    assert (poisson.count, poisson.skipped) == (194, 6)
    assert [s.mean for s in poisson.aggregate["rouge1"]] == [s.mean for s in want.aggregate["rouge1"]]


def _matlab_rows_with_nan(n=300):
    # references of one word make ROUGE-2 undefined (NaN) in flavor matlab: 67 rows of 300
    preds, refs = _corpus(n, seed=5, multi=False)
    return [(p, "cat" if k % 5 == 2 else r) for k, (p, r) in enumerate(zip(preds, refs))]


def test_matlab_nan_rows_perl_method_equals_score_corpus_bit_for_bit(spark):
    from rouge_full_metric.spark import corpus_score
    from rouge_full_metric.undefined import UndefinedScoreWarning

    rows = _matlab_rows_with_nan()
    frame = spark.createDataFrame(rows, "prediction string, reference string").coalesce(3)
    types = ["rouge1", "rouge2", "rougeL"]
    with pytest.warns(UndefinedScoreWarning, match=r"rouge2: 67 of 300 examples"):
        want = RougeScorer(types, flavor="matlab").score_corpus([p for p, _ in rows], [r for _, r in rows])
    with pytest.warns(UndefinedScoreWarning):
        got = corpus_score(frame, rouge_types=types, flavor="matlab", method="perl")
    assert repr(got.aggregate) == repr(want.aggregate)   # repr: bit for bit, and no NaN anywhere
    assert "nan" not in repr(got.aggregate)
    assert got.omitted == {"rouge2": (3, 67, 67)}


def test_matlab_nan_rows_poisson_method_omits_them(spark):
    import math

    from rouge_full_metric.spark import corpus_score
    from rouge_full_metric.undefined import UndefinedScoreWarning

    rows = _matlab_rows_with_nan()
    frame = spark.createDataFrame(rows, "prediction string, reference string").coalesce(3)
    types = ["rouge1", "rouge2"]
    with pytest.warns(UndefinedScoreWarning, match=r"rouge2: 67 of 300 examples"):
        want = RougeScorer(types, flavor="matlab").score_corpus([p for p, _ in rows], [r for _, r in rows],
                                                                n_bootstrap=200)
    with pytest.warns(UndefinedScoreWarning):
        got = corpus_score(frame, rouge_types=types, flavor="matlab", method="poisson", n_bootstrap=200)
    assert got.omitted == {"rouge2": (3, 67, 67)}
    for t in types:
        for g, w in zip(got.aggregate[t], want.aggregate[t]):
            assert g.mean == w.mean and g.mid == w.mid          # exact means over the defined rows
            assert not math.isnan(g.low) and abs(g.low - w.low) < 0.03 and abs(g.high - w.high) < 0.03
    # a statistic with no defined row at all is NaN, as in score_corpus
    only = spark.createDataFrame([("a b", "a"), ("c", "c")], "prediction string, reference string")
    with pytest.warns(UndefinedScoreWarning):
        got = corpus_score(only, rouge_types=["rouge2"], flavor="matlab", method="poisson", n_bootstrap=20)
    assert math.isnan(got.aggregate["rouge2"].recall.mid) and got.omitted == {"rouge2": (1, 2, 2)}


def test_duplicate_ids_are_refused_by_the_perl_path(spark):
    from rouge_full_metric.spark import corpus_score

    frame = spark.createDataFrame([("a", "a b", "a"), ("b", "b", "b c"), ("a", "c", "c")],
                                  "key string, prediction string, reference string").coalesce(1)
    with pytest.raises(ValueError, match="id_column 'key' holds duplicate ids"):
        corpus_score(frame, rouge_types=["rouge1"], id_column="key", method="perl")


def test_empty_dataframe_gives_zeros(spark):
    from rouge_full_metric.spark import corpus_score

    frame = spark.createDataFrame([], "prediction string, reference string")
    want = RougeScorer(["rouge1"]).score_corpus([], [])
    for method in ("perl", "poisson"):
        got = corpus_score(frame, rouge_types=["rouge1"], method=method, n_bootstrap=10)
        assert got.count == 0 and got.aggregate == want.aggregate


# ----------------------------------------------------------------------------------- docs, example
def test_module_docstring_example_runs(spark):
    import rouge_full_metric.spark as module

    test = doctest.DocTestParser().get_doctest(module.__doc__, {"spark": spark}, "spark", None, 0)
    for example in test.examples:
        example.options.clear()   # the +SKIP is for the doctest run without a SparkSession
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=lambda s: None)
    assert result.failed == 0 and result.attempted == 4


def test_example_script_at_small_size(spark, capsys):
    sys.path.insert(0, str(REPO / "examples"))
    try:
        import spark_rouge
    finally:
        sys.path.pop(0)
    report = spark_rouge.run(spark, pairs=2000, seed=1)
    assert report["equal"] and report["pairs"] == 2000
    assert report["spark_pairs_per_second"] > 0 and report["single_pairs_per_second"] > 0


def test_import_error_names_the_extra(monkeypatch):
    import rouge_full_metric.spark as module

    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    with pytest.raises(ImportError, match=r"rouge_full_metric\[spark\]"):
        module._pyspark()
