"""Which ROUGE variant agrees with people?  Human judgments in, correlation tables out (Lin 2004 §6).

A data set is a list of **records**, one per (input document, system) summary::

    {"doc_id": "0", "system": "bart_out", "summary": "...", "references": ["..."],
     "scores": {"litepyramid_recall": 0.6, "published_rouge.rouge_1_recall": 0.73, ...}}

(``summary``/``references`` may be absent when only precomputed scores are correlated).
:func:`matrix` turns one score field into the systems x inputs matrix that
:mod:`.correlation` works on (NaN where a system has no summary of an input).

Readers: :func:`read_realsumm` (REALSumm's JSONL), :func:`read_summeval` (SummEval's
``model_annotations.aligned.jsonl``), :func:`read_records` (any JSONL/CSV: the texts and/or
precomputed score columns, e.g. the Fabbri files of Deutsch et al.; several files are merged on
(document, system)).  :func:`read_data` picks one from the file's first record.

Scoring: :func:`score_variants` scores every record with :class:`.RougeScorer` (``score_batch``),
once per setting, any flavor and option; :data:`LIN2004` is the seed paper's 17 variants and
:data:`LIN2004_SETTINGS` its three settings.  :func:`correlation_rows` correlates metric matrices
with a human field (rows as ``rouge-full correlate --format json`` writes them); :func:`lin2004_table`
lays them out as Lin's Tables 1-3.

>>> records = [{"doc_id": str(d), "system": s, "summary": summary, "references": [ref],
...             "scores": {"human": h}}
...            for d, ref in enumerate(["police killed the gunman", "the cat sat on the mat"])
...            for s, summary, h in [("a", ["police kill the gunman", "the cat sat"][d], [3, 2][d]),
...                                  ("b", ["the gunman was shot", "a mat"][d], [2, 1][d]),
...                                  ("c", ["gunman", "the cat sat on a mat"][d], [1, 3][d])]]
>>> metrics = score_variants(records, ["rouge1"], {"original": {}})
>>> sorted(metrics)
[('rouge1', 'original', 'fmeasure'), ('rouge1', 'original', 'precision'), ('rouge1', 'original', 'recall')]
>>> rows = correlation_rows(metrics, records, "human", levels=["summary"], coefficients=["kendall"],
...                         measures=["recall"], ci="none")
>>> rows[0]["variant"], rows[0]["level"], rows[0]["value"]
('rouge1', 'summary', 1.0)
"""
import csv
import io
import json
import math
import os
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import correlation

__all__ = ["LIN2004", "LIN2004_SETTINGS", "MEASURES", "read_realsumm", "read_summeval", "read_records",
           "read_data", "matrix", "score_variants", "correlation_rows", "lin2004_table", "format_table",
           "MetricKey"]

# Lin (2004) §6: ROUGE-1..9, L, W-1.2, S*, S4, S9, SU*, SU4, SU9.  ROUGE-L there is ROUGE-1.5.5.pl's
# summary-level (union) LCS over sentences, which this package calls rougeLsum.
LIN2004 = ("rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rouge6", "rouge7", "rouge8", "rouge9",
           "rougeLsum", "rougeW-1.2", "rougeS*", "rougeS4", "rougeS9", "rougeSU*", "rougeSU4", "rougeSU9")
LIN2004_LABELS = {"rougeLsum": "ROUGE-L", "rougeW-1.2": "ROUGE-W-1.2"}
# The paper's three columns: original text, Porter-stemmed, stemmed with the SMART stop words removed.
LIN2004_SETTINGS = {"original": {}, "stem": {"use_stemmer": True},
                    "stem+stop": {"use_stemmer": True, "remove_stopwords": True}}
MEASURES = ("recall", "precision", "fmeasure")

MetricKey = Tuple[str, str, str]  # (variant, setting, measure)


def label(variant: str) -> str:
    """The paper's name of a rouge type: ``rouge2`` -> ``ROUGE-2``, ``rougeLsum`` -> ``ROUGE-L``.

    >>> label("rougeSU4"), label("rougeLsum"), label("published_rouge.rouge_1_recall")
    ('ROUGE-SU4', 'ROUGE-L', 'published_rouge.rouge_1_recall')
    """
    if variant in LIN2004_LABELS:
        return LIN2004_LABELS[variant]
    if variant.startswith("rouge") and not variant.startswith("rouge_") and "." not in variant:
        return "ROUGE-" + variant[5:]
    return variant


# ----------------------------------------------------------------------------- readers


def _flatten(value, prefix: str, out: Dict[str, float]) -> None:
    """Numbers under ``prefix``; nested objects add ``.key``; a list of numbers is their mean (e.g.
    three experts' ratings), a list of objects the mean of each key."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        out[prefix] = float(value)
    elif isinstance(value, dict):
        for key, v in value.items():
            _flatten(v, prefix + "." + str(key) if prefix else str(key), out)
    elif isinstance(value, list) and value:
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            out[prefix] = float(np.mean(value))
        elif all(isinstance(v, dict) for v in value):
            parts: Dict[str, List[float]] = {}
            for v in value:
                one: Dict[str, float] = {}
                _flatten(v, prefix, one)
                for k, x in one.items():
                    parts.setdefault(k, []).append(x)
            out.update({k: float(np.mean(xs)) for k, xs in parts.items()})


def _iter_file(path: str, argument: str):
    """(line number, dict) of a JSONL or CSV file (CSV: by the extension)."""
    try:
        f = open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise ValueError("%s: cannot read %s (%s)" % (argument, path, exc.strerror or exc)) from None
    with f:
        if path.lower().endswith((".csv", ".tsv")):
            reader = csv.DictReader(f, delimiter="\t" if path.lower().endswith(".tsv") else ",")
            for line, row in enumerate(reader, 2):
                yield line, {k: _csv_value(v) for k, v in row.items() if k is not None}
            return
        for line, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError("%s: %s line %d is not JSON (%s)" % (argument, path, line, exc.msg)) from None
            if not isinstance(obj, dict):
                raise ValueError("%s: %s line %d: expected a JSON object, got %s"
                                 % (argument, path, line, type(obj).__name__))
            yield line, obj


def _csv_value(v):
    if v is None:
        return None
    try:
        return float(v) if v.strip() and v.strip().lower() not in ("nan", "inf", "-inf") else v
    except ValueError:
        return v


def _texts(value, field: str, where: str, many: bool):
    if isinstance(value, str):
        return [value] if many else value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value) if many else "\n".join(value)
    raise ValueError("%s: field %r must be a string or a list of strings" % (where, field))


def _first(obj: dict, names: Sequence[str]) -> Optional[str]:
    return next((n for n in names if n in obj), None)


DOC_FIELDS = ("doc_id", "instance_id", "id", "document_id", "input_id")
SYSTEM_FIELDS = ("system", "summarizer_id", "model_id", "system_id", "model")
SUMMARY_FIELDS = ("summary", "decoded", "prediction", "candidate")
REFERENCE_FIELDS = ("references", "reference", "refs", "ref")


def read_records(paths, doc_field: Optional[str] = None, system_field: Optional[str] = None,
                 summary_field: Optional[str] = None, reference_field: Optional[str] = None,
                 argument: str = "DATA") -> List[dict]:
    """Records from JSONL or CSV files; several files are merged on (document, system) (e.g.
    ``fabbri2020-rouge.jsonl`` + ``fabbri2020-relevance.jsonl``).  Fields left as None are found
    by name (:data:`DOC_FIELDS`, :data:`SYSTEM_FIELDS`, ...; texts are optional).  Every other
    numeric field is a score; nested objects become dotted names with a top-level ``metrics``
    object dropped (``metrics.rouge-1.recall`` -> ``rouge-1.recall``) and lists are averaged
    (``expert.relevance`` = the mean of the experts).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "s.csv")
    ...     _ = open(p, "w").write("doc,sys,r1,human\\n1,A,0.5,3\\n1,B,0.4,2\\n")
    ...     records = read_records([p], doc_field="doc", system_field="sys")
    >>> records[1]
    {'doc_id': '1', 'system': 'B', 'scores': {'r1': 0.4, 'human': 2.0}}
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    merged: Dict[Tuple[str, str], dict] = {}
    for path in paths:
        for line, obj in _iter_file(str(path), argument):
            where = "%s: %s line %d" % (argument, path, line)
            d = doc_field or _first(obj, DOC_FIELDS)
            s = system_field or _first(obj, SYSTEM_FIELDS)
            for name, opt, names in ((d, "--doc-field", DOC_FIELDS), (s, "--system-field", SYSTEM_FIELDS)):
                if name is None or name not in obj:
                    raise ValueError("%s: no %s field (tried %s; name it with %s)"
                                     % (where, opt[2:].replace("-", " "), name or ", ".join(names), opt))
            key = (_id(obj[d]), _id(obj[s]))
            rec = merged.setdefault(key, {"doc_id": key[0], "system": key[1], "scores": {}})
            sf = summary_field or _first(obj, SUMMARY_FIELDS)
            rf = reference_field or _first(obj, REFERENCE_FIELDS)
            for name, opt in ((summary_field, "--summary-field"), (reference_field, "--reference-field")):
                if name is not None and name not in obj:
                    raise ValueError("%s: no field %r (%s)" % (where, name, opt))
            if sf is not None:
                rec["summary"] = _texts(obj[sf], sf, where, many=False)
            if rf is not None:
                rec["references"] = _texts(obj[rf], rf, where, many=True)
            skip = {d, s, sf, rf}
            for k, v in obj.items():
                if k in skip:
                    continue
                _flatten(v, "" if k == "metrics" else k, rec["scores"])
    if not merged:
        raise ValueError("%s: no records in %s" % (argument, ", ".join(map(str, paths))))
    return list(merged.values())


def _id(v) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


def read_realsumm(path, duplicates: str = "ext") -> List[dict]:
    """REALSumm (Bhandari et al., EMNLP 2020) as in ``realsumm.jsonl``: 100 documents x 25 system
    summaries, human field ``litepyramid_recall``, REALSumm's own ROUGE as
    ``published_rouge.rouge_{1,2,l}_{recall,precision,f_score}``.

    ``bart_out`` is in both REALSumm files (abstractive and extractive; REALSumm issue #3); in
    ``realsumm.jsonl`` the two copies are identical, human scores included, so the choice decides
    whether bart_out counts once or twice.  ``duplicates``: ``"ext"`` (default, as sacrerouge: keep the
    extractive copy, 24 systems), ``"abs"`` (keep the abstractive copy), ``"both"`` (keep both as
    ``bart_out/abs`` and ``bart_out/ext``, 25 systems).
    """
    if duplicates not in ("ext", "abs", "both"):
        raise ValueError("duplicates: expected ext, abs or both, got %r" % (duplicates,))
    records = []
    for line, obj in _iter_file(str(path), "DATA"):
        records.append((obj.get("kind"), read_records_obj(obj, "DATA: %s line %d" % (path, line))))
    kinds: Dict[Tuple[str, str], set] = {}
    for kind, rec in records:
        kinds.setdefault((rec["doc_id"], rec["system"]), set()).add(kind)
    out = []
    for kind, rec in records:
        if len(kinds[rec["doc_id"], rec["system"]]) > 1:
            if duplicates == "both":
                rec["system"] = "%s/%s" % (rec["system"], kind)
            elif kind != duplicates:
                continue
        out.append(rec)
    return out


def read_records_obj(obj: dict, where: str) -> dict:
    """One record of the texts layout (``doc_id``, ``system``, ``summary``, ``reference`` or
    ``references``, numeric score fields)."""
    for field in ("doc_id", "system"):
        if field not in obj:
            raise ValueError("%s: no field %r" % (where, field))
    rec = {"doc_id": _id(obj["doc_id"]), "system": _id(obj["system"]), "scores": {}}
    rf = _first(obj, ("references", "reference"))
    if "summary" in obj:
        rec["summary"] = _texts(obj["summary"], "summary", where, many=False)
    if rf:
        rec["references"] = _texts(obj[rf], rf, where, many=True)
    for k, v in obj.items():
        if k not in ("doc_id", "system", "summary", rf, "kind"):
            _flatten(v, k, rec["scores"])
    return rec


def read_summeval(path, references: str = "all") -> List[dict]:
    """SummEval's ``model_annotations.aligned.jsonl`` (Fabbri et al., TACL 2021): ``id``,
    ``model_id``, ``decoded``, ``references`` (the CNN/DM highlight first, then 10 crowd-written
    ones), ``expert_annotations`` and ``turker_annotations`` (lists of {coherence, consistency,
    fluency, relevance}).  Human fields: ``expert.relevance`` etc. (the mean of the annotators, as
    SummEval and sacrerouge).  ``references``: ``all`` (multi-reference) or ``first`` (the
    original highlight only).
    """
    if references not in ("all", "first"):
        raise ValueError("references: expected all or first, got %r" % (references,))
    out = []
    for line, obj in _iter_file(str(path), "DATA"):
        where = "DATA: %s line %d" % (path, line)
        for field in ("id", "model_id", "decoded", "references"):
            if field not in obj:
                raise ValueError("%s: no field %r (SummEval's aligned layout)" % (where, field))
        refs = _texts(obj["references"], "references", where, many=True)
        rec = {"doc_id": _id(obj["id"]), "system": _id(obj["model_id"]),
               "summary": _texts(obj["decoded"], "decoded", where, many=False),
               "references": refs if references == "all" else refs[:1], "scores": {}}
        for group in ("expert", "turker"):
            if group + "_annotations" in obj:
                _flatten(obj[group + "_annotations"], group, rec["scores"])
        out.append(rec)
    return out


def read_data(paths, duplicates: str = "ext", **fields) -> List[dict]:
    """Records from ``paths`` by layout, told by the first file's first record: SummEval's
    aligned layout (``decoded`` + ``model_id``), REALSumm's (``kind`` + ``summary`` +
    ``reference``), else :func:`read_records` with ``fields`` (``doc_field`` ...).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    first = next((obj for _, obj in _iter_file(str(paths[0]), "DATA")), {})
    if len(paths) == 1 and not any(fields.values()):
        if "decoded" in first and "model_id" in first:
            return read_summeval(paths[0])
        if {"doc_id", "system", "summary", "kind"} <= set(first):
            return read_realsumm(paths[0], duplicates)
    return read_records(paths, **fields)


# ----------------------------------------------------------------------------- matrices


def _index(records):
    systems = sorted({r["system"] for r in records})
    docs = sorted({r["doc_id"] for r in records}, key=lambda d: (not d.isdigit(), int(d) if d.isdigit() else 0, d))
    return systems, docs


def matrix(records: Sequence[dict], field, systems=None, docs=None) -> np.ndarray:
    """The systems x inputs matrix of score ``field`` (a name in ``record["scores"]``, or a list of
    values parallel to ``records``); NaN where missing.  Systems and documents in sorted order
    (numeric document ids numerically) unless given.

    >>> recs = [{"doc_id": "1", "system": "a", "scores": {"h": 2.0}}, {"doc_id": "2", "system": "b", "scores": {"h": 1.0}}]
    >>> matrix(recs, "h")
    array([[ 2., nan],
           [nan,  1.]])
    """
    if systems is None or docs is None:
        systems, docs = _index(records)
    si = {s: i for i, s in enumerate(systems)}
    di = {d: j for j, d in enumerate(docs)}
    out = np.full((len(systems), len(docs)), np.nan)
    for k, r in enumerate(records):
        v = field[k] if not isinstance(field, str) else r["scores"].get(field, math.nan)
        out[si[r["system"]], di[r["doc_id"]]] = v
    return out


def fields(records: Sequence[dict]) -> List[str]:
    """Every score field of the records, sorted."""
    return sorted({k for r in records for k in r["scores"]})


# ----------------------------------------------------------------------------- scoring


def score_variants(records: Sequence[dict], variants: Sequence[str] = LIN2004,
                   settings: Optional[Dict[str, dict]] = None, rouge_options: Optional[dict] = None,
                   n_jobs: int = 1, progress: Optional[Callable[[int, int], None]] = None) -> Dict[MetricKey, np.ndarray]:
    """Score every record's summary against its references with each rouge type in ``variants``,
    once per setting: ``settings`` maps a name to :class:`.RougeScorer` options added to
    ``rouge_options`` (default :data:`LIN2004_SETTINGS` for the Lin 2004 variants, else one setting
    named after ``rouge_options``'s stemming and stop words).  Returns {(variant, setting, measure):
    systems x inputs matrix}.  ``progress(done, total)`` is called after each setting.
    """
    from .scorer import RougeScorer
    rouge_options = dict(rouge_options or {})
    if settings is None:
        settings = {setting_name(rouge_options): {}}
    missing = [i for i, r in enumerate(records) if "summary" not in r or "references" not in r]
    if missing:
        r = records[missing[0]]
        raise ValueError("records: %d have no summary or references (e.g. document %s, system %s); ROUGE "
                         "variants need texts, precomputed scores are correlated by field name"
                         % (len(missing), r["doc_id"], r["system"]))
    systems, docs = _index(records)
    predictions = [r["summary"] for r in records]
    references = [r["references"] for r in records]
    out: Dict[MetricKey, np.ndarray] = {}
    for done, (name, options) in enumerate(settings.items(), 1):
        scorer = RougeScorer(list(variants), **{**rouge_options, **options})
        scores = scorer.score_batch(predictions, references, n_jobs=n_jobs)
        for variant in scorer.rouge_types:
            for measure in MEASURES:
                out[variant, name, measure] = matrix(records, [getattr(s[variant], measure) for s in scores],
                                                     systems, docs)
        if progress is not None:
            progress(done, len(settings))
    return out


def setting_name(options: dict) -> str:
    """``original``, ``stem``, ``stop`` or ``stem+stop`` from a scorer's stemming and stop words."""
    stem, stop = options.get("use_stemmer"), options.get("remove_stopwords")
    return "+".join([n for n, on in (("stem", stem), ("stop", stop)) if on]) or "original"


def precomputed(records: Sequence[dict], names: Sequence[str]) -> Dict[MetricKey, np.ndarray]:
    """Score fields as metrics: {(field, "precomputed", "value"): matrix}."""
    have = set(fields(records))
    for n in names:
        if n not in have:
            raise ValueError("metric field %r is not in the data (fields: %s)" % (n, ", ".join(sorted(have))))
    systems, docs = _index(records)
    return {(n, "precomputed", "value"): matrix(records, n, systems, docs) for n in names}


# ----------------------------------------------------------------------------- correlating


def correlation_rows(metrics: Dict[MetricKey, np.ndarray], records: Sequence[dict], human: str,
                     levels: Sequence[str] = ("system",), coefficients: Sequence[str] = ("kendall",),
                     measures: Optional[Sequence[str]] = None, ci: str = "bootstrap-both",
                     confidence: float = 0.95, n_resamples: int = 1000, seed: int = 0,
                     progress: Optional[Callable[[int, int], None]] = None) -> List[dict]:
    """One row per (metric, level, coefficient): ``{"variant", "setting", "measure", "level",
    "coefficient", "value", "low", "high"}`` (``low``/``high`` None without an interval).
    ``measures`` filters the metrics' measures (None: all)."""
    if human not in fields(records):
        raise ValueError("human: no score field %r in the data (fields: %s)" % (human, ", ".join(fields(records))))
    systems, docs = _index(records)
    h = matrix(records, human, systems, docs)
    keys = [k for k in metrics if measures is None or k[2] in measures or k[1] == "precomputed"]
    total, done, rows = len(keys) * len(levels) * len(coefficients), 0, []
    for level in levels:
        for coefficient in coefficients:
            for key in keys:
                x = metrics[key]
                # a summary no human scored (or no metric scored) is not a pair
                x = np.where(np.isnan(h), np.nan, x)
                hh = np.where(np.isnan(x), np.nan, h)
                iv = correlation.confidence_interval(x, hh, level, coefficient, ci, confidence, n_resamples, seed)
                rows.append({"variant": key[0], "setting": key[1], "measure": key[2], "level": level,
                             "coefficient": coefficient, "value": _num(iv.value), "low": _num(iv.low),
                             "high": _num(iv.high)})
                done += 1
                if progress is not None:
                    progress(done, total)
    return rows


def _num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def compare_rows(a: np.ndarray, b: np.ndarray, records: Sequence[dict], human: str, names: Tuple[str, str],
                 levels=("system",), coefficients=("kendall",), method: str = "bootstrap-both",
                 alternative: str = "greater", n_resamples: int = 1000, seed: int = 0) -> List[dict]:
    """Paired tests of metric ``a`` against ``b`` (:func:`.correlation.compare`), one row per level
    and coefficient: the rows of :func:`correlation_rows` with ``variant`` = "A vs B", ``value`` =
    the difference of the correlations, ``p`` and ``method``."""
    h = matrix(records, human)
    rows = []
    for level in levels:
        for coefficient in coefficients:
            t = correlation.compare(a, b, h, level, coefficient, method, alternative, 0.95, n_resamples, seed)
            rows.append({"variant": "%s vs %s" % names, "setting": None, "measure": None, "level": level,
                         "coefficient": coefficient, "value": _num(t.delta), "low": _num(t.low),
                         "high": _num(t.high), "p": _num(t.p), "method": method, "alternative": alternative})
    return rows


class Table(NamedTuple):
    """A Lin 2004-style grid: ``rows`` (variants), ``columns`` (settings), ``cells[variant][setting]``
    = the row dict of :func:`correlation_rows` plus ``best`` and ``tied`` (not significantly
    different from the column's best)."""
    rows: List[str]
    columns: List[str]
    cells: Dict[str, Dict[str, dict]]
    level: str
    coefficient: str
    measure: str
    rule: str


def lin2004_table(rows: Sequence[dict], level: str = "system", coefficient: str = "pearson",
                  measure: str = "recall", rule: str = "overlap", metrics=None, records=None, human=None,
                  n_resamples: int = 1000, seed: int = 0) -> Table:
    """Lay :func:`correlation_rows` out as Lin (2004) Tables 1-3: variants down, settings across;
    in each column the best value is marked ``best``, and the cells not significantly different
    from it ``tied``.  ``rule``: ``overlap`` (as Lin: the cell's 95% interval reaches the best's
    lower bound) or ``paired`` (a one-sided paired bootstrap test of the best against the cell,
    p >= 0.05, over the same resampling; needs ``metrics``, ``records`` and ``human``).
    """
    if rule not in ("overlap", "paired"):
        raise ValueError("rule: expected overlap or paired, got %r" % (rule,))
    picked = [r for r in rows if r["level"] == level and r["coefficient"] == coefficient
              and (r["measure"] == measure or r["setting"] == "precomputed")]
    if not picked:
        raise ValueError("no rows at level %r, coefficient %r, measure %r" % (level, coefficient, measure))
    variants = list(dict.fromkeys(r["variant"] for r in picked))
    settings = list(dict.fromkeys(r["setting"] for r in picked))
    cells: Dict[str, Dict[str, dict]] = {v: {} for v in variants}
    for r in picked:
        cells[r["variant"]][r["setting"]] = dict(r, best=False, tied=False)
    for s in settings:
        column = [cells[v][s] for v in variants if s in cells[v] and cells[v][s]["value"] is not None]
        if not column:
            continue
        best = max(column, key=lambda c: c["value"])
        best["best"] = True
        for c in column:
            if c is best:
                continue
            if rule == "overlap":
                c["tied"] = c["high"] is not None and best["low"] is not None and c["high"] >= best["low"]
            else:
                h = matrix(records, human)
                t = correlation.compare(metrics[best["variant"], s, best["measure"]],
                                        metrics[c["variant"], s, c["measure"]], h, level, coefficient,
                                        "bootstrap-both", "greater", 0.95, n_resamples, seed)
                c["p"] = t.p
                c["tied"] = not t.p < 0.05
    return Table(variants, settings, cells, level, coefficient, measure, rule)


def format_table(table: Table, digits: int = 3) -> str:
    """The grid as text: ``value [low, high]``; ``*`` marks a column's best, ``+`` a value not
    significantly different from it."""
    head = ["%s correlation, %s level, %s" % (table.coefficient.capitalize(), table.level, table.measure)]
    width = 8 + 2 * (digits + 3) + 5
    first = max(len(label(v)) for v in table.rows) + 2
    lines = ["%-*s" % (first, "") + "".join("%-*s" % (width, s) for s in table.columns).rstrip()]
    for v in table.rows:
        parts = []
        for s in table.columns:
            c = table.cells[v].get(s)
            if c is None or c["value"] is None:
                parts.append("%-*s" % (width, "-"))
                continue
            mark = "*" if c["best"] else "+" if c["tied"] else " "
            ci = (" [%.*f, %.*f]" % (digits, c["low"], digits, c["high"])) if c["low"] is not None else ""
            parts.append("%-*s" % (width, "%.*f%s%s" % (digits, c["value"], mark, ci)))
        lines.append("%-*s" % (first, label(v)) + "".join(parts).rstrip())
    rule = ("overlapping 95% intervals, as Lin 2004" if table.rule == "overlap"
            else "paired bootstrap p >= 0.05")
    lines.append("* best in its column; + not significantly different from the best (%s)" % rule)
    return "\n".join([head[0]] + lines)
