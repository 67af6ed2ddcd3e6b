"""``rouge-full correlate``: how well ROUGE variants agree with human judgments (:mod:`..meta_eval`).

>>> import io, json, os, tempfile
>>> rows = [{"doc_id": d, "system": s, "summary": summ, "reference": ref, "human": h}
...         for d, ref, outs in [("1", "police killed the gunman", [("a", "police kill the gunman", 3),
...                                  ("b", "the gunman was shot", 2), ("c", "gunman", 1)]),
...                              ("2", "the cat sat on the mat", [("a", "the cat sat", 2),
...                                  ("b", "a mat", 1), ("c", "the cat sat on a mat", 3)])]
...         for s, summ, h in outs]
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "judged.jsonl")
...     _ = open(path, "w").write("".join(json.dumps(r) + "\\n" for r in rows))
...     out = io.BytesIO()
...     status = run([path, "--human", "human", "--variants", "rouge1", "--level", "summary",
...                   "--ci", "none", "--format", "json"], out, io.StringIO())
>>> status, json.loads(out.getvalue())[0]
(0, {'variant': 'rouge1', 'setting': 'original', 'measure': 'recall', 'level': 'summary', 'coefficient': 'kendall', 'value': 1.0, 'low': None, 'high': None})
"""
import argparse
import csv
import io
import json
import os
import sys

from .. import correlation, meta_eval
from .main import UsageError, _emit, _parse, _ParserExit, _Progress, _progress_enabled

__all__ = ["run"]


def _parser():
    p = argparse.ArgumentParser(
        prog="rouge-full correlate",
        description="Correlate ROUGE variants (scored here from the texts) or precomputed metric columns with "
                    "human judgments: summary, system and global level, bootstrap or Fisher intervals, paired "
                    "tests (Deutsch, Dror & Roth 2021; Lin 2004 §6 with --variants lin2004).")
    p.add_argument("data", nargs="+", metavar="DATA",
                   help="JSONL or CSV: REALSumm's layout (doc_id, system, summary, reference(s), human fields), "
                        "SummEval's model_annotations.aligned.jsonl, or any file with the columns named below; "
                        "several files are merged on (document, system)")
    p.add_argument("--human", required=True, metavar="FIELD",
                   help="the human score field (e.g. litepyramid_recall, expert.relevance)")
    what = p.add_argument_group("what to correlate")
    what.add_argument("--variants", metavar="LIST",
                      help="lin2004 (the 17 variants of Lin 2004 x original/stem/stem+stop) or rouge types, comma "
                           "separated (e.g. rouge1,rouge2,rougeLsum,rougeSU4); default: rouge1,rouge2,rougeLsum "
                           "when the data has texts and no --metrics")
    what.add_argument("--metrics", nargs="+", metavar="FIELD", default=[],
                      help="precomputed metric fields of the data (e.g. published_rouge.rouge_2_recall)")
    what.add_argument("--measure", nargs="+", choices=meta_eval.MEASURES, default=["recall"],
                      help="which of each variant's scores (default: recall)")
    what.add_argument("--rouge-options", nargs="+", metavar="KEY=VALUE", default=[],
                      help="RougeScorer options, e.g. flavor=paper use_stemmer=true lang=de multi_ref=max "
                           "(default: RougeScorer's: flavor rouge155, no stemming)")
    what.add_argument("--jobs", type=int, default=1, metavar="N", help="scoring threads (-1: every CPU this process may use)")
    stats = p.add_argument_group("statistics")
    stats.add_argument("--level", nargs="+", default=["system"], choices=("summary", "system", "global", "input"),
                       help="default: system")
    stats.add_argument("--coefficient", nargs="+", default=["kendall"], choices=correlation.COEFFICIENTS + ("kendall-b",),
                       help="kendall = tau-b (default), kendall-c = tau-c, pearson, spearman")
    stats.add_argument("--ci", default="bootstrap-both", choices=correlation.CI_METHODS,
                       help="confidence intervals (default: bootstrap-both)")
    stats.add_argument("--confidence", type=float, default=0.95, help="default 0.95")
    stats.add_argument("--n-resamples", type=int, default=1000, metavar="N", help="default 1000 (nlpstats: 9999)")
    stats.add_argument("--seed", type=int, default=0)
    stats.add_argument("--rule", choices=("overlap", "paired"), default="overlap",
                       help="text tables: 'not significantly different from the best' by overlapping intervals "
                            "(Lin 2004, default) or a paired bootstrap test")
    stats.add_argument("--compare", nargs=2, metavar=("A", "B"),
                       help="paired test: does A correlate better than B? (rouge types or metric fields)")
    stats.add_argument("--test", default="bootstrap-both", choices=correlation.TEST_METHODS,
                       help="--compare's test (default bootstrap-both)")
    stats.add_argument("--alternative", default="greater", choices=("greater", "less", "two-sided"))
    data = p.add_argument_group("data layout (generic JSONL/CSV; found by name when not given)")
    data.add_argument("--doc-field", metavar="NAME")
    data.add_argument("--system-field", metavar="NAME")
    data.add_argument("--summary-field", metavar="NAME")
    data.add_argument("--reference-field", metavar="NAME")
    data.add_argument("--duplicates", choices=("ext", "abs", "both"), default="ext",
                      help="REALSumm's bart_out, in both its files: keep the extractive copy (default, as "
                           "sacrerouge: 24 systems), the abstractive one, or both (25 systems)")
    out = p.add_argument_group("output")
    out.add_argument("--format", "-f", choices=("text", "json", "csv"), default="text")
    out.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout")
    out.add_argument("--plot", metavar="FILE", help="PNG/PDF/SVG: a forest plot of every correlation with its "
                                                    "interval (needs the [plots] extra)")
    out.add_argument("--scatter", metavar="FILE", help="PNG/PDF/SVG: system-level scatter of --plot-variant "
                                                       "against the human score (needs the [plots] extra)")
    out.add_argument("--plot-variant", metavar="NAME", help="the scatter's metric (default: the first)")
    out.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return p


def _value(text):
    low = text.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low == "none":
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def _rouge_options(items):
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError("--rouge-options: expected KEY=VALUE, got %r" % item)
        options[key.replace("-", "_")] = _value(value)
    return options


def _metrics(args, records, bar):
    """{(variant, setting, measure): matrix} of the requested variants and metric fields."""
    have_texts = all("summary" in r and "references" in r for r in records)
    variants = args.variants
    if variants is None and not args.metrics:
        if not have_texts:
            raise UsageError("DATA has no texts (summary and reference fields): name precomputed metric fields "
                             "with --metrics (fields: %s)" % ", ".join(meta_eval.fields(records)))
        variants = "rouge1,rouge2,rougeLsum"
    options = _rouge_options(args.rouge_options)
    metrics = {}
    if variants:
        if variants == "lin2004":
            types, settings = list(meta_eval.LIN2004), meta_eval.LIN2004_SETTINGS
            clash = sorted(set(options) & {"use_stemmer", "remove_stopwords"})
            if clash:
                raise UsageError("--rouge-options: %s is set by --variants lin2004 (its three settings)" % clash[0])
        else:
            types, settings = [t for t in variants.split(",") if t], None
        try:
            metrics.update(meta_eval.score_variants(records, types, settings, options, args.jobs,
                                                    progress=bar("scoring") if bar else None))
        except TypeError as exc:
            raise UsageError("--rouge-options: %s" % exc) from None
        except ValueError as exc:
            message = str(exc)
            raise UsageError(("--variants: " if message.startswith("rouge_types") else
                              "DATA: " if message.startswith("records") else "--rouge-options: ") + message) from None
    if args.metrics:
        try:
            metrics.update(meta_eval.precomputed(records, args.metrics))
        except ValueError as exc:
            raise UsageError("--metrics: %s" % exc) from None
    return metrics


def _find(metrics, name, measure, argument):
    for key in metrics:
        if key[0] == name and (key[2] == measure or key[1] == "precomputed"):
            return key
    raise UsageError("%s: %r is neither a scored variant (--variants) nor a metric field (--metrics)" % (argument, name))


def _csv(rows):
    buf = io.StringIO()
    keys = list(dict.fromkeys(k for r in rows for k in r))
    writer = csv.DictWriter(buf, keys, lineterminator="\n")
    writer.writeheader()
    writer.writerows([{k: ("" if r.get(k) is None else r.get(k)) for k in keys} for r in rows])
    return buf.getvalue()


def _text(rows, args, metrics, records):
    parts = []
    measures = [m for m in args.measure if any(k[2] == m for k in metrics)] or ["value"]
    for level in dict.fromkeys(r["level"] for r in rows):
        for coefficient in dict.fromkeys(r["coefficient"] for r in rows):
            for measure in measures:
                table = meta_eval.lin2004_table(rows, level, coefficient, measure, args.rule, metrics, records,
                                                args.human, args.n_resamples, args.seed)
                parts.append(meta_eval.format_table(table))
    return "\n\n".join(parts)


def _compare_text(rows):
    lines = ["%-32s %-8s %-9s %9s  %-19s %8s" % ("A vs B", "level", "coef", "delta", "interval", "p")]
    for r in rows:
        ci = "-" if r["low"] is None else "[%+.3f, %+.3f]" % (r["low"], r["high"])
        p = "-" if r["p"] is None else "%.4f" % r["p"]
        lines.append("%-32s %-8s %-9s %+9.4f  %-19s %8s" % (r["variant"], r["level"], r["coefficient"],
                                                            r["value"], ci, p))
    lines.append("p: %s test, H1: A %s B" % (rows[0]["method"], {"greater": "correlates better than",
                                                                   "less": "correlates worse than",
                                                                   "two-sided": "differs from"}[rows[0]["alternative"]]))
    return "\n".join(lines)


def _execute(args, stdout, stderr):
    enabled = _progress_enabled(args, stderr)

    def bar(label):
        return _Progress([], stderr, label, enabled).step

    fields = {"doc_field": args.doc_field, "system_field": args.system_field,
              "summary_field": args.summary_field, "reference_field": args.reference_field}
    try:
        records = meta_eval.read_data(args.data, args.duplicates, **fields)
    except ValueError as exc:
        raise UsageError(str(exc) if str(exc).startswith("DATA") else "DATA: %s" % exc) from None
    if args.human not in meta_eval.fields(records):
        raise UsageError("--human: no score field %r in DATA (fields: %s)"
                         % (args.human, ", ".join(meta_eval.fields(records))))
    if args.n_resamples < 1:
        raise UsageError("--n-resamples: expected a positive integer, got %d" % args.n_resamples)
    if not 0 < args.confidence < 1:
        raise UsageError("--confidence: expected a number between 0 and 1, got %g" % args.confidence)
    if args.compare:
        if args.variants is None:
            args.variants = ",".join(n for n in args.compare if n not in meta_eval.fields(records)) or ""
            args.metrics = list(args.metrics) + [n for n in args.compare if n in meta_eval.fields(records)]
    _check_plots(args)
    metrics = _metrics(args, records, bar)
    try:
        if args.compare:
            keys = [_find(metrics, name, args.measure[0], "--compare") for name in args.compare]
            rows = meta_eval.compare_rows(metrics[keys[0]], metrics[keys[1]], records, args.human,
                                          tuple(args.compare), args.level, args.coefficient, args.test,
                                          args.alternative, args.n_resamples, args.seed)
            for r in rows:
                r["setting"] = keys[0][1] if keys[0][1] == keys[1][1] else "%s vs %s" % (keys[0][1], keys[1][1])
                r["measure"] = keys[0][2] if keys[0][2] == keys[1][2] else "%s vs %s" % (keys[0][2], keys[1][2])
            report = _compare_text(rows) if args.format == "text" else None
        else:
            rows = meta_eval.correlation_rows(metrics, records, args.human, args.level, args.coefficient,
                                              args.measure, args.ci, args.confidence, args.n_resamples, args.seed,
                                              progress=bar("correlating"))
            report = _text(rows, args, metrics, records) if args.format == "text" else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if report is None:
        report = json.dumps(rows, indent=1) if args.format == "json" else _csv(rows)
    _emit(report.rstrip("\n") + "\n", args, stdout)
    if args.plot or args.scatter:
        _plots(args, rows, metrics, records)
    return 0


def _check_plots(args):
    """Fail before the work, not after it: matplotlib present, the figures' folders exist."""
    for path in filter(None, (args.plot, args.scatter)):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise UsageError("--plot/--scatter: cannot write %s (no folder %s)" % (path, folder))
    if args.plot or args.scatter:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            from ..meta_plots import _INSTALL
            raise UsageError("--plot/--scatter: %s" % _INSTALL) from None


def _plots(args, rows, metrics, records):
    from .. import meta_plots

    try:
        if args.plot:
            meta_plots.forest(rows, args.plot, title="Correlation with %s" % args.human)
        if args.scatter:
            key = (_find(metrics, args.plot_variant, args.measure[0], "--plot-variant") if args.plot_variant
                   else next(iter(metrics)))
            meta_plots.scatter(metrics[key], meta_eval.matrix(records, args.human), args.scatter,
                               metric_label=meta_plots.metric_label(key), human_label=args.human,
                               coefficient=args.coefficient[0])
    except ImportError as exc:
        raise UsageError("--plot/--scatter: %s" % exc) from None
    except OSError as exc:
        raise UsageError("--plot/--scatter: cannot write the figure (%s)" % (exc.strerror or exc)) from None


def run(argv, stdout=None, stderr=None) -> int:
    """``rouge-full correlate ARGS``; returns the exit status (errors: one line naming the argument)."""
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stderr = stderr if stderr is not None else sys.stderr
    try:
        return _execute(_parse(_parser(), argv, stderr), stdout, stderr)
    except _ParserExit as exc:
        return exc.status
    except UsageError as exc:
        stderr.write("rouge-full correlate: error: %s\n" % exc)
        return 2
    except BrokenPipeError:
        return 141
