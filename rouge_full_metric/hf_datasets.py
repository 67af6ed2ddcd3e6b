"""ROUGE columns for a Hugging Face ``datasets.Dataset``: ``Dataset.map(batched=True, num_proc=N)``.

:func:`add_rouge_columns` adds ``<type>`` (F), ``<type>_precision`` and ``<type>_recall`` (float64)
per row, the evaluate metric's key names, each equal to ``RougeScorer(...).score_batch`` on that
row.  Each worker process builds its RougeScorer (and compiled engine) once from the options; the
scorer itself is never pickled.  A row whose prediction or reference is None gets None in every
column; anything else the scorer rejects (an empty list of references) raises, naming the row.

>>> import datasets
>>> ds = datasets.Dataset.from_dict({"prediction": ["the cat sat", "a dog"],
...                                  "reference": [["the cat sat down"], ["dogs", "a dog"]]})
>>> scored = add_rouge_columns(ds, rouge_types=["rouge1"])
>>> scored.column_names
['prediction', 'reference', 'rouge1', 'rouge1_precision', 'rouge1_recall']
>>> list(scored["rouge1_recall"])
[0.75, 0.66667]
"""
from typing import Optional, Sequence

from .extras import install_line
from .columns import column_names, score_columns
from .scorer import RougeScorer

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

# The scorer of the last options seen in this process: datasets calls the map function once per
# batch, in one or several worker processes.
_cached = None


def _scorer_for(rouge_types, options) -> RougeScorer:
    global _cached
    key = (tuple(rouge_types), sorted(options.items(), key=lambda kv: kv[0]))
    if _cached is not None:
        try:
            if _cached[0] == key:
                return _cached[1]
        except Exception:  # options whose == fails (e.g. arrays): build afresh
            pass
    scorer = RougeScorer(list(rouge_types), **options)
    _cached = (key, scorer)
    return scorer


def _score_batch(batch, indices, predictions, references, rouge_types, options, n_jobs):
    scorer = _scorer_for(rouge_types, options)
    return score_columns(scorer, batch[predictions], batch[references], n_jobs,
                         row_names=["row %d" % i for i in indices])


def add_rouge_columns(dataset, predictions: str = "prediction", references: str = "reference",
                      rouge_types: Optional[Sequence[str]] = None, num_proc: Optional[int] = None,
                      batch_size: int = 1000, n_jobs: int = 1, **scorer_options):
    """``dataset`` with ROUGE columns, computed by ``dataset.map(batched=True, num_proc=num_proc)``.

    ``predictions`` names a string column, ``references`` a string column or a sequence of strings
    (several references per row); ``scorer_options`` are :class:`RougeScorer`'s.  ``num_proc``
    worker processes each score batches of ``batch_size`` rows; ``n_jobs`` threads share each
    batch (the compiled core releases the GIL).  An ``IterableDataset`` is mapped lazily
    (``num_proc`` does not apply to it).

    >>> import datasets
    >>> ds = datasets.Dataset.from_dict({"prediction": ["police kill the gunman"],
    ...                                  "reference": ["police killed the gunman"]})
    >>> add_rouge_columns(ds, rouge_types=["rouge2"], use_stemmer=True)[0]["rouge2"]
    1.0
    """
    try:
        import datasets
    except ImportError as error:  # pragma: no cover - datasets is a core dependency of the metric
        raise ImportError("rouge_full_metric.hf_datasets needs datasets: " + install_line("evaluate")) \
            from error
    scorer = RougeScorer(list(DEFAULT_TYPES) if rouge_types is None else rouge_types,
                         **scorer_options)   # a bad option fails here, not in a worker
    # an IterableDataset may not know its columns before it is read
    existing = list(dataset.column_names) if dataset.column_names is not None else None
    for argument, name in (("predictions", predictions), ("references", references)):
        if not isinstance(name, str):
            raise TypeError("%s must be a column name (str), got %r" % (argument, name))
        if existing is not None and name not in existing:
            raise ValueError("%s=%r is not a column of the dataset (columns: %s)"
                             % (argument, name, ", ".join(existing)))
    names = column_names(scorer.rouge_types)
    clash = sorted(set(names) & set(existing or []))
    if clash:
        raise ValueError("the dataset already has column(s) %s; rename or remove them first" % ", ".join(clash))
    features = None
    if dataset.features is not None:
        features = dataset.features.copy()
        for name in names:
            features[name] = datasets.Value("float64")
    kwargs = dict(batched=True, batch_size=batch_size, with_indices=True, features=features,
                  fn_kwargs={"predictions": predictions, "references": references,
                             "rouge_types": list(scorer.rouge_types), "options": dict(scorer_options),
                             "n_jobs": n_jobs})
    if isinstance(dataset, datasets.Dataset):
        kwargs.update(num_proc=num_proc, desc="ROUGE")
    elif num_proc not in (None, 1):
        raise ValueError("num_proc applies to a datasets.Dataset, not to a %s" % type(dataset).__name__)
    return dataset.map(_score_batch, **kwargs)


__all__ = ["add_rouge_columns"]
