"""ROUGE on Spark: per-row columns and corpus scores with the same numbers as one process.

Needs the ``[spark]`` extra (``pip install ".[spark]"`` in a checkout: pyspark, pandas,
pyarrow); pyspark is imported only here, when a function is called.

- :func:`add_rouge_columns` adds ``<type>`` (F), ``<type>_precision`` and ``<type>_recall`` per row,
  the evaluate metric's key names, each equal to ``RougeScorer(...).score_batch`` on that row.
- :func:`corpus_score` gives the system-level ``AggregateScore`` of every type.  ``method="perl"``
  collects the per-row P/R/F (3 floats per type per row) to the driver and runs the Perl's
  bootstrap there: equal, bit for bit, to ``RougeScorer.score_corpus`` on the same rows in the
  DataFrame's order.  ``method="poisson"`` never collects rows: each partition adds up a Poisson(1)
  bootstrap of its rows and the driver merges the sums (see :func:`corpus_score` for how it
  differs).  ``method="auto"`` picks "perl" up to ``max_driver_rows`` rows.

Scoring is Arrow-based (``mapInPandas`` / an iterator pandas UDF): each partition builds its
RougeScorer (and the compiled engine) once from the options and scores Arrow batches with
``score_batch``; the scorer itself is never pickled.

Missing text: a row whose prediction or reference is NULL gets NULL in every score column (SQL's
rule; the row is kept).  :func:`corpus_score` refuses such rows by default (``nulls="error"``,
naming one) or leaves them out (``nulls="skip"``: the result is that of the DataFrame with those
rows filtered out).  Anything else the scorer rejects — an empty array of references, an array
holding a NULL — fails the job with the scorer's error, naming the row by its id column when one
is given, else by partition and position.

>>> from rouge_full_metric.spark import add_rouge_columns, corpus_score      # doctest: +SKIP
>>> df = spark.createDataFrame([("the cat sat", "the cat sat down"), ("a dog", "dogs")],
...                            ["prediction", "reference"])                   # doctest: +SKIP
>>> add_rouge_columns(df, rouge_types=["rouge1"]).first()["rouge1_recall"]    # doctest: +SKIP
0.75
>>> corpus_score(df, rouge_types=["rouge1"]).aggregate["rouge1"].recall       # doctest: +SKIP
Stat(low=0.0, mid=0.375, high=0.75, mean=0.375)
"""
import hashlib
import math
import pickle
from typing import Dict, NamedTuple, Optional, Sequence

from .extras import install_line
from .columns import column_names, is_missing, score_columns
from .batch import is_whole
from .corpus import AggregateScore, aggregate_scores, aggregate_values, check_bootstrap_options
from .scorer import RougeScorer
from .undefined import omitted_counts, warn_omitted

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
# Rows up to which method="auto" collects per-row values and runs the Perl's bootstrap on the
# driver.  That bootstrap is sequential (N draws per replicate, 1,000 replicates) on one core:
# 100-120 s per 10^6 rows of 4 types on a loaded 2-core machine (collect included), ~30 s idle; the
# collected values take ~100 bytes per row.
MAX_DRIVER_ROWS = 2_000_000
_STRUCT = "__rouge_full_metric"


def _pyspark():
    try:
        from pyspark.sql import functions, types
    except ImportError as error:
        raise ImportError("rouge_full_metric.spark needs pyspark, pandas and pyarrow: "
                          + install_line("spark")) from error
    return functions, types


class SparkCorpusScore(NamedTuple):
    """What :func:`corpus_score` returns.

    ``aggregate``: {rouge_type: AggregateScore} as in ``RougeScorer.score_corpus``; ``count``: the
    rows scored; ``skipped``: rows left out for missing text (``nulls="skip"``); ``method``:
    "perl" or "poisson"; ``signature``: the scorer's signature (plus ``boot:poisson/<seed>``);
    ``omitted``: {rouge type: (precision, recall, F) counts of rows whose value is undefined (NaN,
    flavor matlab) and left out of that statistic}, only the types with one (see :mod:`.undefined`).
    """

    aggregate: Dict[str, AggregateScore]
    count: int
    skipped: int
    method: str
    signature: str
    omitted: Dict[str, tuple] = {}


# ----------------------------------------------------------------------------------- checks
def _make_scorer(rouge_types, scorer_options) -> RougeScorer:
    """Built on the driver first, so that a bad option fails before any job starts."""
    if rouge_types is None:
        rouge_types = list(DEFAULT_TYPES)
    return RougeScorer(rouge_types, **scorer_options)


def _check_columns(df, predictions, references, id_column=None):
    _, T = _pyspark()
    fields = {f.name: f.dataType for f in df.schema.fields}
    for argument, name in (("predictions", predictions), ("references", references), ("id_column", id_column)):
        if name is None and argument == "id_column":
            continue
        if not isinstance(name, str):
            raise TypeError("%s must be a column name (str), got %r" % (argument, name))
        if name not in fields:
            raise ValueError("%s=%r is not a column of the DataFrame (columns: %s)"
                             % (argument, name, ", ".join(fields)))
    if not isinstance(fields[predictions], T.StringType):
        raise TypeError("the predictions column %r must hold strings, it holds %s"
                        % (predictions, fields[predictions].simpleString()))
    ref_type = fields[references]
    if not (isinstance(ref_type, T.StringType) or
            (isinstance(ref_type, T.ArrayType) and isinstance(ref_type.elementType, T.StringType))):
        raise TypeError("the references column %r must hold strings or arrays of strings, it holds %s"
                        % (references, ref_type.simpleString()))


def _row_name(id_value, partition, position):
    if id_value is not None:
        return "row with id %r" % (id_value,)
    return "row %d of partition %d" % (position, partition)


def _double_column(values):
    """A float64 column for Arrow: plain numpy without missing values (fast), nullable otherwise."""
    import numpy as np
    import pandas as pd

    if any(v is None for v in values):
        return pd.array(values, dtype="Float64")
    return np.asarray(values, dtype=np.float64)


def _row_namer(ids, partition, start):
    return lambda k: _row_name(ids[k] if ids else None, partition, start + k)


def _partition_id() -> int:
    from pyspark import TaskContext

    context = TaskContext.get()
    return context.partitionId() if context is not None else 0


# ----------------------------------------------------------------------------------- columns
def add_rouge_columns(df, predictions: str = "prediction", references: str = "reference",
                      rouge_types: Optional[Sequence[str]] = None, id_column: Optional[str] = None,
                      **scorer_options):
    """``df`` with ``<type>``, ``<type>_precision``, ``<type>_recall`` (doubles) for every type.

    ``predictions`` names a string column, ``references`` a string or array<string> column (several
    references per row); ``scorer_options`` are :class:`RougeScorer`'s (flavor, use_stemmer,
    remove_stopwords, word_limit, multi_ref, jackknife, alpha, ...).  Each value equals
    ``RougeScorer(rouge_types, **scorer_options).score_batch`` on that row; NULL text gives NULL
    scores.  ``id_column`` only names rows in error messages.  Column names are the evaluate
    metric's keys, so ``rougeW-1.2``'s contain a dot: write them as ``df["`rougeW-1.2`"]`` in
    Spark expressions.  Existing columns of those names are an error.

    >>> add_rouge_columns(df, rouge_types=["rouge1", "rougeL"], use_stemmer=True)  # doctest: +SKIP
    DataFrame[prediction: string, reference: string, rouge1: double, rouge1_precision: double, ...]
    """
    F, T = _pyspark()
    scorer = _make_scorer(rouge_types, scorer_options)
    _check_columns(df, predictions, references, id_column)
    names = column_names(scorer.rouge_types)
    clash = sorted(set(names) & set(df.columns))
    if clash:
        raise ValueError("the DataFrame already has column(s) %s; rename or drop them first" % ", ".join(clash))
    schema = T.StructType([T.StructField(n, T.DoubleType(), True) for n in names])
    types, options = list(scorer.rouge_types), dict(scorer_options)

    import pandas as pd
    from typing import Iterator, Tuple

    def score_partition(batches: Iterator[Tuple[pd.Series, pd.Series, pd.Series]]) -> Iterator[pd.DataFrame]:
        partition = _partition_id()
        scorer = RougeScorer(types, **options)   # once per partition: the engine is compiled here
        position = 0
        for preds, refs, ids in batches:
            ids = ids.tolist()
            start = position
            position += len(preds)
            cols = score_columns(scorer, preds.tolist(), refs.tolist(), row_names=lambda k: _row_name(
                None if is_missing(ids[k]) else ids[k], partition, start + k))
            yield pd.DataFrame({n: _double_column(cols[n]) for n in names})

    udf = F.pandas_udf(score_partition, schema)
    id_input = F.col(id_column).cast("string") if id_column else F.lit(None).cast("string")
    scored = df.withColumn(_STRUCT, udf(F.col(predictions), F.col(references), id_input))
    return scored.select(*[scored[c] for c in df.columns],
                         *[scored[_STRUCT].getField(n).alias(n) for n in names])


# ----------------------------------------------------------------------------------- corpus
def _check_corpus_options(confidence, n_bootstrap, method, nulls, max_driver_rows, seed):
    check_bootstrap_options(confidence, n_bootstrap)   # as RougeScorer.score_corpus checks them
    if method not in ("auto", "perl", "poisson"):
        raise ValueError("method must be 'auto', 'perl' or 'poisson', got %r" % (method,))
    if nulls not in ("error", "skip"):
        raise ValueError("nulls must be 'error' or 'skip', got %r" % (nulls,))
    if not is_whole(max_driver_rows) or max_driver_rows < 0:
        raise ValueError("max_driver_rows must be a whole number >= 0, got %r" % (max_driver_rows,))
    if not is_whole(seed) or not 0 <= seed < 2 ** 63:
        raise ValueError("seed must be a whole number in [0, 2**63), got %r" % (seed,))


def _value_columns(rouge_types):
    # per type P, R, F: the order of RougeScorer._aggregate's value rows
    return ["%s|%d" % (t, k) for t in rouge_types for k in range(3)]


def _score_values(scorer, preds, refs, names):
    """(values (n, 3T) float64 with NaN rows for missing text, missing mask)."""
    import numpy as np

    cols = score_columns(scorer, preds, refs, row_names=names)
    missing = np.array([is_missing(p) or is_missing(r) for p, r in zip(preds, refs)], dtype=bool)
    values = np.empty((len(preds), 3 * len(scorer.rouge_types)), dtype=np.float64)
    for ti, t in enumerate(scorer.rouge_types):
        for k, suffix in enumerate(("_precision", "_recall", "")):
            column = cols[t + suffix]
            if missing.any():
                column = [np.nan if v is None else v for v in column]
            values[:, 3 * ti + k] = column
    return values, missing


def _scored_batches(batches, scorer, pcol, rcol, id_column, partition):
    """Per Arrow batch of a partition: (position of its first row, ids or None, the row namer,
    values, missing), the rows scored by ``scorer``."""
    position = 0
    for batch in batches:
        preds, refs = batch[pcol].tolist(), batch[rcol].tolist()
        ids = [None if is_missing(i) else str(i) for i in batch["__id"].tolist()] if id_column else None
        names = _row_namer(ids, partition, position)
        values, missing = _score_values(scorer, preds, refs, names)
        yield position, ids, names, values, missing
        position += len(preds)


def _perl_corpus(df, scorer, options, predictions, references, id_column, confidence, n_bootstrap,
                 system_id, nulls):
    import numpy as np

    F, T = _pyspark()
    types = list(scorer.rouge_types)
    value_names = _value_columns(types)
    fields = [T.StructField("partition", T.IntegerType(), False), T.StructField("position", T.LongType(), False),
              T.StructField("missing", T.BooleanType(), False)]
    if id_column:
        fields.append(T.StructField("id", T.StringType(), True))
    fields += [T.StructField(n, T.DoubleType(), True) for n in value_names]
    schema = T.StructType(fields)
    pcol, rcol = predictions, references

    def run(batches):
        import pandas as pd

        partition = _partition_id()
        scorer = RougeScorer(types, **options)
        for position, ids, _, values, missing in _scored_batches(batches, scorer, pcol, rcol, id_column, partition):
            out = {"partition": np.full(len(values), partition, dtype=np.int32),
                   "position": np.arange(position, position + len(values), dtype=np.int64), "missing": missing}
            if id_column:
                out["id"] = ids
            for j, n in enumerate(value_names):
                out[n] = values[:, j]
            yield pd.DataFrame(out)

    columns = [F.col(pcol), F.col(rcol)] + ([F.col(id_column).cast("string").alias("__id")] if id_column else [])
    scored = df.select(*columns).mapInPandas(run, schema)
    table = scored.toArrow() if hasattr(scored, "toArrow") else None
    if table is not None:
        frame = table.to_pandas()
    else:
        frame = scored.toPandas()
    frame = frame.sort_values(["partition", "position"], kind="stable")
    missing = frame["missing"].to_numpy(dtype=bool)
    skipped = int(missing.sum())
    if skipped and nulls == "error":
        first = frame[missing].iloc[0]
        where = _row_name(first["id"] if id_column else None, int(first["partition"]), int(first["position"]))
        raise ValueError("%d row(s) have a NULL prediction or reference (the first: %s); pass "
                         "nulls='skip' to leave them out" % (skipped, where))
    frame = frame[~missing]
    count = len(frame)
    if id_column:
        ids = frame["id"].tolist()
        if any(is_missing(i) for i in ids):
            raise ValueError("id_column %r holds NULL ids" % (id_column,))
        if len(set(ids)) != len(ids):
            raise ValueError("id_column %r holds duplicate ids; ids must be unique" % (id_column,))
    else:
        ids = [str(k + 1) for k in range(count)]
    values = frame[value_names].to_numpy(dtype=np.float64).reshape(count, len(value_names))
    # score_corpus's own last step, so that NaN rows (flavor matlab) are left out the same way
    aggregate = aggregate_values(scorer, values, ["%s.%s" % (i, system_id) for i in ids], confidence,
                                 int(n_bootstrap))
    return aggregate, count, skipped, omitted_counts(values.tolist(), types)


# Poisson(1) by inversion of 32 random bits: the CDF's thresholds P(X <= k) * 2**32 for
# k = 0..12 (P(X > 12) < 2**-32), and a table over the top 16 bits that answers directly except in
# the 13 buckets a threshold cuts.
def _poisson_tables():
    import numpy as np

    thresholds, cdf, term = [], 0.0, math.exp(-1.0)
    for k in range(13):
        cdf += term
        term /= k + 1
        thresholds.append(min(int(cdf * 2 ** 32), 2 ** 32 - 1))
    thresholds = np.array(thresholds, dtype=np.uint64)
    starts = np.arange(65536, dtype=np.uint64) << np.uint64(16)
    low = np.searchsorted(thresholds, starts, side="right")
    high = np.searchsorted(thresholds, starts + np.uint64(65535), side="right")
    return thresholds, low.astype(np.uint8), low != high


_TABLES = None


def _splitmix64(x):
    """SplitMix64's finalizer on a uint64 numpy array (wrapping arithmetic)."""
    import numpy as np

    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def poisson_weights(row_keys: Sequence[str], n_bootstrap: int, seed: int = 0):
    """The (rows, n_bootstrap) Poisson(1) bootstrap weights (float64) of rows named ``row_keys``.

    A weight depends only on (seed, row key, replicate), so the distributed bootstrap does not
    depend on how the rows are partitioned or ordered: each key is hashed once (BLAKE2b, keyed by
    the seed), mixed with a per-replicate constant, and the top 32 bits are inverted through
    Poisson(1)'s CDF.

    >>> w = poisson_weights(["1", "2", "3"], 4)
    >>> w.shape, bool((poisson_weights(["3"], 4) == w[2]).all())
    ((3, 4), True)
    >>> w = poisson_weights([str(k) for k in range(3000)], 100)
    >>> round(float(w.mean()), 1), round(float(w.var()), 1)
    (1.0, 1.0)
    """
    import numpy as np

    global _TABLES
    if _TABLES is None:
        _TABLES = _poisson_tables()
    thresholds, table, cut = _TABLES
    salt = seed.to_bytes(8, "little")
    hashes = np.array([int.from_bytes(hashlib.blake2b(k.encode("utf-8", "surrogatepass"), digest_size=8,
                                                      key=salt).digest(), "little") for k in row_keys],
                      dtype=np.uint64).reshape(-1, 1)
    with np.errstate(over="ignore"):
        constants = _splitmix64(np.arange(n_bootstrap, dtype=np.uint64)).reshape(1, -1)
        x = (hashes ^ constants) * np.uint64(0x9E3779B97F4A7C15)
        x ^= x >> np.uint64(32)
        x *= np.uint64(0xD6E8FEB86659FD93)
    bits = x >> np.uint64(32)
    bucket = (bits >> np.uint64(16)).astype(np.intp)
    weights = table[bucket]
    exact = cut[bucket]
    if exact.any():
        weights[exact] = np.searchsorted(thresholds, bits[exact], side="right")
    return weights.astype(np.float64)


def exact_sum_parts(values) -> list:
    """Floats whose exact sum is the exact sum of ``values``: ``math.fsum`` of the parts of many
    partitions is ``math.fsum`` of all their values, bit for bit.

    >>> parts = exact_sum_parts([0.1, 1e-20, 0.2])
    >>> math.fsum(parts + exact_sum_parts([0.3])) == math.fsum([0.1, 1e-20, 0.2, 0.3])
    True
    """
    values = [float(v) for v in values]
    parts = []
    while True:
        head = math.fsum(values + [-p for p in parts])
        if head == 0.0:
            return parts
        parts.append(head)
        if len(parts) > 64:   # cannot happen for finite floats (each part takes 53 more bits)
            raise ArithmeticError("exact_sum_parts did not converge")


def _poisson_corpus(df, scorer, options, predictions, references, id_column, confidence, n_bootstrap, nulls, seed):
    import numpy as np

    F, T = _pyspark()
    types = list(scorer.rouge_types)
    width = 3 * len(types)
    pcol, rcol = predictions, references
    chunk = max(1, 2_000_000 // max(1, n_bootstrap))   # rows per weight matrix (~16 MB)

    def run(batches):
        import pandas as pd

        partition = _partition_id()
        scorer = RougeScorer(types, **options)
        sums = np.zeros((n_bootstrap, width), dtype=np.float64)
        # per column: a NaN value (flavor matlab) is left out of its own column only
        weights = np.zeros((n_bootstrap, width), dtype=np.float64)
        defined = np.zeros(width, dtype=np.int64)
        columns = [[] for _ in range(width)]
        count = skipped = 0
        first_missing = None
        for position, ids, names, values, missing in _scored_batches(batches, scorer, pcol, rcol, id_column,
                                                                      partition):
            if missing.any():
                skipped += int(missing.sum())
                if first_missing is None:
                    first_missing = names(int(np.argmax(missing)))
            keep = ~missing
            if id_column:
                keys = [ids[k] for k in np.flatnonzero(keep)]
                if any(is_missing(k) for k in keys):
                    raise ValueError("id_column %r holds NULL ids" % (id_column,))
            else:
                keys = ["%d:%d" % (partition, position + k) for k in np.flatnonzero(keep)]
            values = values[keep]
            count += len(values)
            mask = ~np.isnan(values)
            defined += mask.sum(axis=0)
            for j in range(width):
                columns[j].extend(exact_sum_parts(values[mask[:, j], j].tolist()))
            values = np.where(mask, values, 0.0)
            for a in range(0, len(values), chunk):
                w = poisson_weights(keys[a:a + chunk], n_bootstrap, seed)
                sums += w.T @ values[a:a + chunk]
                weights += w.T @ mask[a:a + chunk].astype(np.float64)
            # keep the part lists short: re-split them into exact parts now and then
            for j in range(width):
                if len(columns[j]) > 256:
                    columns[j] = exact_sum_parts(columns[j])
        part = {"sums": sums, "weights": weights, "columns": [exact_sum_parts(c) for c in columns],
                "count": count, "defined": defined, "skipped": skipped, "first_missing": first_missing}
        yield pd.DataFrame({"blob": [pickle.dumps(part, protocol=4)]})

    def merge(a, b):
        return {"sums": a["sums"] + b["sums"], "weights": a["weights"] + b["weights"],
                "columns": [exact_sum_parts(x + y) for x, y in zip(a["columns"], b["columns"])],
                "count": a["count"] + b["count"], "defined": a["defined"] + b["defined"],
                "skipped": a["skipped"] + b["skipped"],
                "first_missing": a["first_missing"] or b["first_missing"]}

    columns = [F.col(pcol), F.col(rcol)] + ([F.col(id_column).cast("string").alias("__id")] if id_column else [])
    schema = T.StructType([T.StructField("blob", T.BinaryType(), False)])
    parts = df.select(*columns).mapInPandas(run, schema).rdd.map(lambda row: pickle.loads(row[0]))
    zero = {"sums": np.zeros((n_bootstrap, width)), "weights": np.zeros((n_bootstrap, width)),
            "columns": [[] for _ in range(width)], "count": 0, "defined": np.zeros(width, dtype=np.int64),
            "skipped": 0, "first_missing": None}
    total = parts.treeAggregate(zero, merge, merge, depth=2)
    if total["skipped"] and nulls == "error":
        raise ValueError("%d row(s) have a NULL prediction or reference (one: %s); pass nulls='skip' "
                         "to leave them out" % (total["skipped"], total["first_missing"]))
    count = total["count"]
    defined = [int(n) for n in total["defined"]]
    means = [math.fsum(c) / n if n else math.nan for c, n in zip(total["columns"], defined)]
    intervals = None
    if count:
        from .bootstrap import Interval, interval

        with np.errstate(divide="ignore", invalid="ignore"):
            replicate_means = np.where(total["weights"] > 0, total["sums"] / total["weights"], 0.0)
        # a statistic with no defined value at all is NaN, as in score_corpus
        intervals = [interval(replicate_means[:, j], confidence) if defined[j] else Interval(*[math.nan] * 3)
                     for j in range(width)]
    omitted = {t: tuple(count - defined[3 * ti + k] for k in range(3)) for ti, t in enumerate(types)}
    omitted = {t: c for t, c in omitted.items() if any(c)}
    warn_omitted(omitted, count, "the corpus averages", stacklevel=3)
    return aggregate_scores(scorer, intervals, means, count), count, total["skipped"], omitted


def corpus_score(df, predictions: str = "prediction", references: str = "reference",
                 rouge_types: Optional[Sequence[str]] = None, id_column: Optional[str] = None,
                 confidence: float = 95, n_bootstrap: int = 1000, system_id: str = "A",
                 method: str = "auto", max_driver_rows: int = MAX_DRIVER_ROWS, seed: int = 0,
                 nulls: str = "error", **scorer_options) -> SparkCorpusScore:
    """System-level scores of the rows of ``df``: ``RougeScorer.score_corpus``'s ``aggregate``.

    ``method="perl"``: each partition scores its rows; the driver collects 3 floats per type per
    row with (partition, position) and runs the Perl's bootstrap over the instance keys
    "<id>.<system_id>", ids "1".."N" in the DataFrame's order (partition by partition, as
    ``df.collect()`` returns the rows) or the ``id_column`` values.  The result equals
    ``score_corpus(predictions, references, confidence, n_bootstrap, ids, system_id).aggregate`` on
    the collected rows, bit for bit.  "The DataFrame's order" must be stable: a DataFrame read from
    files or built from a list keeps it; after a shuffle (join, repartition) give ``id_column``.

    ``method="poisson"`` (the distributed bootstrap) collects nothing per row.  Replicate r weights
    each row by a Poisson(1) count drawn from a hash of (seed, row id, r) — the row id is the
    ``id_column`` value, else its partition and position — and each partition adds up Σ w·x and
    Σ w per replicate; the driver merges them and takes replicate r's value as Σ w·x / Σ w.  It
    differs from the Perl's bootstrap in how replicates are drawn (independent Poisson weights
    instead of N draws with replacement from the string-sorted keys with Perl's drand48), so
    ``low``/``high`` and, in flavor rouge155, ``mid`` (the mean of the replicate means, which is what
    the Perl's Average_X is) agree with the Perl's only up to bootstrap noise — typically in the
    5th decimal or below for 10^5+ rows.  ``mean`` (the plain mean) is exact: every partition sends
    floats whose exact sum is its column sum, so ``mean`` equals ``score_corpus``'s bit for bit, and
    so does ``mid`` in flavors paper and rouge_score.  Results do not depend on the partitioning
    when ``id_column`` is given (up to float rounding in the sums).  Ids must be unique: "perl"
    checks it on the driver; "poisson" cannot without a shuffle, and a repeated id gives its rows
    the same weights.

    ``method="auto"`` counts the rows and uses "perl" up to ``max_driver_rows``.  ``nulls``: see
    the module docstring.  ``scorer_options`` are :class:`RougeScorer`'s.

    >>> r = corpus_score(df, rouge_types=["rouge1", "rougeL"], use_stemmer=True)   # doctest: +SKIP
    >>> r.aggregate["rougeL"].fmeasure.mid, r.method                              # doctest: +SKIP
    (0.7619, 'perl')
    """
    _check_corpus_options(confidence, n_bootstrap, method, nulls, max_driver_rows, seed)
    if not isinstance(system_id, str):
        raise TypeError("system_id must be a str, got %r" % (system_id,))
    scorer = _make_scorer(rouge_types, scorer_options)
    _check_columns(df, predictions, references, id_column)
    options = dict(scorer_options)
    if method == "auto":
        method = "perl" if df.count() <= max_driver_rows else "poisson"
    signature = scorer.signature(confidence, n_bootstrap)
    if method == "perl":
        aggregate, count, skipped, omitted = _perl_corpus(df, scorer, options, predictions, references, id_column,
                                                 confidence, n_bootstrap, system_id, nulls)
    else:
        aggregate, count, skipped, omitted = _poisson_corpus(df, scorer, options, predictions, references, id_column,
                                                    confidence, int(n_bootstrap), nulls, int(seed))
        signature += "|boot:poisson/%d" % seed
    return SparkCorpusScore(aggregate, count, skipped, method, signature, omitted)


__all__ = ["add_rouge_columns", "corpus_score", "SparkCorpusScore", "poisson_weights", "exact_sum_parts",
           "MAX_DRIVER_ROWS"]
