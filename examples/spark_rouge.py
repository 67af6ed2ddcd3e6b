"""ROUGE columns and a corpus score for many pairs on Spark, next to single-process score_batch.

    pip install ".[spark]"                        # in the checkout: pyspark, pandas, pyarrow; Spark needs Java 17+
    python examples/spark_rouge.py                # 10^6 pairs on local[2]
    python examples/spark_rouge.py --pairs 20000 --master local[2]

The pairs are generated inside Spark (news-like summaries of 2-4 sentences, seeded by row id) and
cached, so the timings are those of scoring.  It prints the pairs per second of
``add_rouge_columns`` (every column computed, written to Spark's no-op sink), of ``corpus_score``
(the Perl-exact bootstrap on the driver, and the distributed Poisson one), and of single-process
``RougeScorer.score_batch`` on a sample of the same pairs, and checks that a sample of the Spark
rows equals ``score_batch``.
"""
import argparse
import os
import random
import sys
import time

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
OPTIONS = {"use_stemmer": True}
# A small Zipf-like vocabulary: frequent function words, then content words (weights 1/rank).
_WORDS = ("the a of to in and is was for on that with by as at from it its police said officials "
          "government minister president company market shares year people city report percent million "
          "court case attack killed election vote party leader workers strike talks deal country state "
          "health hospital school children water fire storm flood rescue team match win season player "
          "coach plans new former first last week month announced reported warned agreed rejected called "
          "expected").split()
_CUMULATIVE = []
for _rank in range(len(_WORDS)):
    _CUMULATIVE.append((_CUMULATIVE[-1] if _CUMULATIVE else 0.0) + 1.0 / (_rank + 1))


def make_pair(row_id: int, seed: int = 0):
    """One (prediction, reference) pair; the same for the same row id and seed, anywhere."""
    rnd = random.Random(seed * 1_000_003 + row_id)

    def sentence():
        return " ".join(rnd.choices(_WORDS, cum_weights=_CUMULATIVE, k=rnd.randint(6, 18)))

    reference = [sentence() for _ in range(rnd.randint(2, 4))]
    # the prediction copies some reference sentences with words dropped, and adds its own
    prediction = []
    for s in reference:
        if rnd.random() < 0.6:
            words = s.split()
            prediction.append(" ".join(w for w in words if rnd.random() < 0.8) or words[0])
    prediction.append(sentence())
    return "\n".join(prediction), "\n".join(reference)


def _generated(spark, pairs: int, seed: int, partitions: int):
    import pandas as pd

    if __name__ != "__main__":
        # imported (by the tests): executors cannot import this script, so ship its functions by value
        from pyspark import cloudpickle
        cloudpickle.register_pickle_by_value(sys.modules[__name__])

    def generate(batches):
        for batch in batches:
            made = [make_pair(int(i), seed) for i in batch["id"]]
            yield pd.DataFrame({"id": batch["id"], "prediction": [p for p, _ in made],
                                "reference": [r for _, r in made]})

    return (spark.range(0, pairs, numPartitions=partitions)
            .mapInPandas(generate, "id long, prediction string, reference string"))


def run(spark, pairs: int = 1_000_000, seed: int = 0, single_sample: int = 100_000, check_sample: int = 2000,
        partitions: int = 0, log=lambda *a: None):
    """Score ``pairs`` generated pairs on ``spark``; returns the measurements as a dict."""
    from rouge_full_metric import RougeScorer
    from rouge_full_metric.spark import add_rouge_columns, corpus_score

    partitions = partitions or max(spark.sparkContext.defaultParallelism, pairs // 50_000)
    df = _generated(spark, pairs, seed, partitions).cache()
    start = time.perf_counter()
    assert df.count() == pairs
    log("generated and cached %d pairs in %d partitions: %.1f s" % (pairs, partitions, time.perf_counter() - start))

    scored = add_rouge_columns(df, rouge_types=TYPES, **OPTIONS)
    start = time.perf_counter()
    scored.write.format("noop").mode("overwrite").save()
    columns_seconds = time.perf_counter() - start
    log("add_rouge_columns: %.1f s, %.0f pairs/s" % (columns_seconds, pairs / columns_seconds))

    start = time.perf_counter()
    perl = corpus_score(df, rouge_types=TYPES, method="perl", **OPTIONS)
    perl_seconds = time.perf_counter() - start
    log("corpus_score(method='perl'): %.1f s, %.0f pairs/s; rougeLsum F %s"
        % (perl_seconds, pairs / perl_seconds, perl.aggregate["rougeLsum"].fmeasure))
    start = time.perf_counter()
    poisson = corpus_score(df, rouge_types=TYPES, method="poisson", id_column="id", **OPTIONS)
    poisson_seconds = time.perf_counter() - start
    log("corpus_score(method='poisson'): %.1f s, %.0f pairs/s; rougeLsum F %s"
        % (poisson_seconds, pairs / poisson_seconds, poisson.aggregate["rougeLsum"].fmeasure))

    # single process, the same pairs (a sample of them when there are many)
    sample = min(pairs, single_sample)
    made = [make_pair(k, seed) for k in range(sample)]
    preds, refs = [p for p, _ in made], [r for _, r in made]
    scorer = RougeScorer(TYPES, **OPTIONS)
    scorer.score_batch(preds[:100], refs[:100])   # warm: the engine is compiled once per scorer
    timings = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        expected = scorer.score_batch(preds, refs, n_jobs=jobs)
        timings[jobs] = time.perf_counter() - start
        log("score_batch(n_jobs=%d) on %d pairs: %.1f s, %.0f pairs/s"
            % (jobs, sample, timings[jobs], sample / timings[jobs]))

    checked = min(check_sample, sample)
    rows = scored.where(scored["id"] < checked).collect()
    equal = len(rows) == checked and all(
        row[t + suffix] == getattr(expected[row["id"]][t], field)
        for row in rows for t in TYPES
        for suffix, field in (("", "fmeasure"), ("_precision", "precision"), ("_recall", "recall")))
    log("the Spark columns of %d rows equal score_batch: %s" % (checked, equal))
    df.unpersist()
    return {"pairs": pairs, "partitions": partitions, "equal": equal,
            "spark_pairs_per_second": pairs / columns_seconds,
            "perl_corpus_pairs_per_second": pairs / perl_seconds,
            "poisson_corpus_pairs_per_second": pairs / poisson_seconds,
            "single_pairs_per_second": sample / timings[1],
            "single_2_threads_pairs_per_second": sample / timings[2]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000, help="pairs to score (default 10^6)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument("--partitions", type=int, default=0, help="partitions (default: ~50,000 pairs each)")
    parser.add_argument("--single-sample", type=int, default=100_000,
                        help="pairs scored by single-process score_batch for its throughput (default 10^5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    # loopback only on a laptop; on a cluster the master URL and its network settings decide
    if args.master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(args.master).appName("rouge_full_metric example")
    if args.master.startswith("local"):
        builder = (builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                   .config("spark.driver.memory", "4g"))
    spark = builder.config("spark.ui.enabled", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        report = run(spark, args.pairs, args.seed, args.single_sample, partitions=args.partitions, log=print)
    finally:
        spark.stop()
    print("\npairs/s  add_rouge_columns (%s): %.0f | corpus_score perl: %.0f | corpus_score poisson: %.0f"
          % (args.master, report["spark_pairs_per_second"], report["perl_corpus_pairs_per_second"],
             report["poisson_corpus_pairs_per_second"]))
    print("pairs/s  score_batch one process: n_jobs=1 %.0f | n_jobs=2 %.0f"
          % (report["single_pairs_per_second"], report["single_2_threads_pairs_per_second"]))
    return 0 if report["equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
