"""``rouge-full``: the command line (also ``python -m rouge_full_metric``).

Three modes share the command:

* ``rouge-full [ROUGE-1.5.5.pl options] CONFIG [SYSTEM]`` — a drop-in for ROUGE-1.5.5.pl, stdout
  byte for byte (:mod:`.perl_cli`).  Any command line that does not start with ``score``,
  ``compare``, ``perl`` or ``--help`` is this mode (``rouge-full perl ...`` forces it, e.g. for a
  config file named ``score``).
* ``rouge-full score --predictions FILE --references FILE [FILE ...]`` — plain files in, a table,
  JSON or CSV out, every engine option by name.
* ``rouge-full compare --baseline FILE --systems FILE [...] --references FILE [...]`` — paired
  bootstrap and approximate randomization (:mod:`.compare`).

Inputs of ``score``/``compare`` (``--input-format`` or by the name):

* ``lines`` (default for files): one summary a line; ``--sentence-sep SEP`` splits a line into
  sentences (e.g. ``'<n>'`` or ``'<q>'``), which ``rougeLsum``/``rougeW`` use;
* ``jsonl`` (``*.jsonl``/``*.json``): one JSON value a line: a string, a list of sentences, or an
  object whose ``--field`` (default ``prediction``/``references``/``reference``/``summary``/``text``,
  the first present) holds one; for references a list of strings is several references;
* ``dir`` (a directory): one file a summary (one sentence a line), files matched by name across
  ``--predictions`` and every ``--references`` directory.

Every ``--references`` source adds one reference per example (JSONL lists add several).

>>> import io, os, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     _ = open(os.path.join(d, "pred.txt"), "w").write("police kill the gunman\\n")
...     _ = open(os.path.join(d, "ref.txt"), "w").write("police killed the gunman\\n")
...     out = io.BytesIO()
...     status = main(["score", "--predictions", os.path.join(d, "pred.txt"), "--references",
...                    os.path.join(d, "ref.txt"), "--rouge-types", "rouge1", "--format", "json",
...                    "--quiet"], stdout=out)
>>> import json; report = json.loads(out.getvalue())
>>> status, report["scores"]["rouge1"]["fmeasure"]["mid"], report["signature"][:15]
(0, 0.75, 'flavor:rouge155')
"""
from __future__ import annotations

import argparse
import collections.abc
import csv
import io
import json
import math
import os
import sys
import time
import warnings

from .input_files import read_file
from ..undefined import json_safe, omitted_counts

# annotations only: typing costs a new `rouge-full` process ~3 ms (argparse imports re anyway)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Sequence

__all__ = ["main", "load_texts", "load_references"]

SUBCOMMANDS = ("score", "compare", "correlate", "perl")

TOP_HELP = """usage: rouge-full [ROUGE-1.5.5.pl options] CONFIG [SYSTEM]
       rouge-full score --predictions FILE --references FILE [FILE ...] [options]
       rouge-full compare --baseline FILE --systems FILE [FILE ...] --references FILE [...] [options]
       rouge-full correlate DATA --human FIELD [--variants lin2004|rouge1,...] [options]

ROUGE bit-exact with ROUGE-1.5.5.pl.

  rouge-full -h               the ROUGE-1.5.5.pl options (Perl-compatible mode, stdout byte for byte)
  rouge-full score --help     score plain files (lines, JSONL, directories): table, JSON or CSV
  rouge-full compare --help   is system B better than A? paired bootstrap and approximate randomization
  rouge-full correlate --help which ROUGE agrees with human judgments? correlations, intervals, paired tests
  rouge-full perl ARGS        force the Perl-compatible mode (e.g. for a config file named 'score')
"""


class UsageError(Exception):
    """A bad argument of ``score``/``compare``; the message names the argument."""


# ----------------------------------------------------------------------------- inputs


def _count(n: int, noun: str) -> str:
    """``_count(1, "example")`` is "1 example", ``_count(2, "summary")`` "2 summaries"."""
    plural = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return "%d %s" % (n, noun if n == 1 else plural)


def _kind(path: str, input_format: str) -> str:
    if input_format != "auto":
        return input_format
    if os.path.isdir(path):
        return "dir"
    if path.endswith((".jsonl", ".json")):
        return "jsonl"
    return "lines"


def _split_sentences(text, sep):
    if sep is None:
        return text
    if isinstance(text, bytes):
        return text.replace(sep.encode("utf-8"), b"\n")
    return text.replace(sep, "\n")


_PREDICTION_FIELDS = ("prediction", "summary", "text")
_REFERENCE_FIELDS = ("references", "reference", "summary", "text")


def _json_value(obj, fields, argument, line, allow_many):
    if isinstance(obj, dict):
        for name in fields:
            if name in obj:
                obj = obj[name]
                break
        else:
            raise UsageError("%s line %d: none of the fields %s is present (use --field)"
                             % (argument, line, ", ".join(fields)))
    if isinstance(obj, str):
        return [obj] if allow_many else obj
    if isinstance(obj, list) and all(isinstance(x, str) for x in obj):
        # For references a list is several references; for a prediction it is its sentences.
        return list(obj) if allow_many else "\n".join(obj)
    raise UsageError("%s line %d: expected a string or a list of strings, got %s"
                     % (argument, line, type(obj).__name__))


def _read_input(path: str, argument: str, warn=None) -> bytes:
    """A file's bytes: regular files under the size cap (:mod:`.input_files`), UTF-8 (a UTF-8
    byte-order mark is dropped; UTF-16/32 is refused; other invalid UTF-8 is read as bytes, as
    ROUGE-1.5.5.pl reads everything, with a warning)."""
    try:
        data = read_file(path)
    except OSError as exc:
        raise UsageError("%s: cannot read %s (%s)" % (argument, path, exc.strerror or exc)) from None
    return _check_encoding(data, path, argument, warn)


_UTF16_32_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
                  (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def _check_encoding(data: bytes, path: str, argument: str, warn=None) -> bytes:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:]
    for bom, name in _UTF16_32_BOMS:
        if data.startswith(bom):
            raise UsageError("%s: %s is %s (it starts with a byte-order mark); rouge-full reads UTF-8: convert "
                             "it, e.g. iconv -f %s -t UTF-8 %s > %s.utf8" % (argument, path, name, name, path, path))
    if b"\x00" in data[:4096]:
        raise UsageError("%s: %s holds NUL bytes: it looks like UTF-16/UTF-32 or a binary file; rouge-full "
                         "reads UTF-8 text (convert it, e.g. with iconv -t UTF-8)" % (argument, path))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        if isinstance(warn, Utf8Only):
            raise UsageError("%s: %s is not valid UTF-8 (line %d, byte %d); %s reads UTF-8 text: convert the file "
                             "(e.g. iconv -f LATIN1 -t UTF-8 %s > %s.utf8)"
                             % (argument, path, line, exc.start, warn.reader, path, path)) from None
        (warn or sys.stderr.write)(
            "rouge-full: warning: %s: %s is not valid UTF-8 (line %d, byte %d): its bytes are read as they are, as "
            "ROUGE-1.5.5.pl does (--lang and the flavors rouge_score, xlsum and matlab need UTF-8)\n"
            % (argument, path, line, exc.start))
    return data


class Utf8Only:
    """A ``warn`` for the loaders when the scorer needs text (``--lang``, flavors rouge_score,
    xlsum, matlab): invalid UTF-8 is then an error naming the file, not a warning about bytes
    the scorer would refuse later; other warnings still go to ``write``."""

    def __init__(self, write, reader: str):
        self.write, self.reader = write, reader

    def __call__(self, message):
        self.write(message)


def _reads_bytes(args) -> bool:
    # ROUGE-1.5.5.pl's byte tokenizer (flavors rouge155 and paper, no --lang) reads any bytes
    return getattr(args, "lang", None) is None and args.flavor in ("rouge155", "paper")


def _warn(args, stderr):
    if _reads_bytes(args):
        return stderr.write
    return Utf8Only(stderr.write, "--lang %s" % args.lang if getattr(args, "lang", None) else
                    "--flavor %s" % args.flavor)


def _read_lines(path: str, argument: str, warn=None) -> List[bytes]:
    data = _read_input(path, argument, warn)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    # One final empty line is an editor's or a script's trailing newline, not an empty summary
    # (as line-oriented tools read it): "a\nb\n\n" holds 2 summaries.  Two or more count.
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _read_jsonl(path, argument, fields, allow_many, warn=None):
    values = []
    for number, raw in enumerate(_read_lines(path, argument, warn), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError as exc:
            raise UsageError("%s: %s line %d is not JSON (%s)" % (argument, path, number, exc)) from None
        values.append(_json_value(obj, fields, "%s: %s" % (argument, path), number, allow_many))
    return values


class _DirectoryTexts(collections.abc.Sequence):
    """The summaries of a directory, read lazily one file at a time (memory stays flat)."""

    def __init__(self, path: str, names: List[str], argument: str, sep, warn=None):
        self.path, self.names, self.argument, self.sep, self.warn = path, names, argument, sep, warn

    def __len__(self):
        return len(self.names)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        full = os.path.join(self.path, self.names[k])
        return _split_sentences(_read_input(full, self.argument, self.warn), self.sep)


def _directory_names(path: str, argument: str) -> List[str]:
    try:
        return sorted(n for n in os.listdir(path) if os.path.isfile(os.path.join(path, n)))
    except OSError as exc:
        raise UsageError("%s: cannot list %s (%s)" % (argument, path, exc.strerror or exc)) from None


def load_texts(path: str, argument: str = "--predictions", input_format: str = "auto",
               sentence_sep: Optional[str] = None, field: Optional[str] = None, warn=None):
    """The summaries of one source, and their ids: ``(texts, ids)``.

    One final empty line of a lines file is not a summary (a trailing newline); a UTF-8
    byte-order mark is dropped, UTF-16/32 files are refused, ``warn`` (default: stderr) is told
    about invalid UTF-8.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "sys.txt")
    ...     _ = open(p, "w").write("One. <n> Two.\\nThree.\\n")
    ...     texts, ids = load_texts(p, sentence_sep=" <n> ")
    >>> texts, ids
    ([b'One.\\nTwo.', b'Three.'], ['1', '2'])
    """
    kind = _kind(path, input_format)
    if kind == "dir":
        if not os.path.isdir(path):
            raise UsageError("%s: %s is not a directory" % (argument, path))
        names = _directory_names(path, argument)
        return _DirectoryTexts(path, names, argument, sentence_sep, warn), names
    if kind == "jsonl":
        fields = (field,) if field else _PREDICTION_FIELDS
        texts = [_split_sentences(t, sentence_sep) for t in _read_jsonl(path, argument, fields, False, warn)]
    elif kind == "lines":
        texts = [_split_sentences(t, sentence_sep) for t in _read_lines(path, argument, warn)]
    else:
        raise UsageError("--input-format must be auto, lines, jsonl or dir, got %r" % input_format)
    return texts, [str(k + 1) for k in range(len(texts))]


class _References(collections.abc.Sequence):
    """Per example, the list of its references gathered from every ``--references`` source."""

    def __init__(self, sources):
        self.sources = sources

    def __len__(self):
        return len(self.sources[0][1]) if self.sources else 0

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        refs = []
        for many, source in self.sources:
            value = source[k]
            refs.extend(value if many else [value])
        return refs


def load_references(paths: Sequence[str], ids: Sequence[str], input_format: str = "auto",
                    sentence_sep: Optional[str] = None, field: Optional[str] = None, warn=None,
                    against: Optional[str] = None):
    """Per prediction, the list of its references, from every source in ``paths``.

    ``against`` names the summaries the references are counted against in errors (e.g.
    ``"--baseline a.txt"``); by default "predictions".

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     a, b = os.path.join(d, "a.txt"), os.path.join(d, "b.jsonl")
    ...     _ = open(a, "w").write("ref one\\nref two\\n")
    ...     _ = open(b, "w").write('["x", "y"]\\n"z"\\n')
    ...     refs = load_references([a, b], ["1", "2"])
    ...     refs[0], refs[1]
    ([b'ref one', 'x', 'y'], [b'ref two', 'z'])
    """
    sources = []
    for path in paths:
        kind = _kind(path, input_format)
        if kind == "dir":
            if not os.path.isdir(path):
                raise UsageError("--references: %s is not a directory" % path)
            present = set(_directory_names(path, "--references"))
            missing = [n for n in ids if n not in present]
            if missing:
                raise UsageError("--references: %s has no file %s (files are matched by name with "
                                 "--predictions)" % (path, os.path.join(path, missing[0])))
            sources.append((False, _DirectoryTexts(path, list(ids), "--references", sentence_sep, warn)))
            continue
        if kind == "jsonl":
            fields = (field,) if field else _REFERENCE_FIELDS
            values = [[_split_sentences(t, sentence_sep) for t in v]
                      for v in _read_jsonl(path, "--references", fields, True, warn)]
            many = True
        else:
            values = [_split_sentences(t, sentence_sep) for t in _read_lines(path, "--references", warn)]
            many = False
        if len(values) != len(ids):
            if against is None:
                raise UsageError("--references: %s has %s for %s"
                                 % (path, _count(len(values), "summary"), _count(len(ids), "prediction")))
            # either file may be the short one: name both, the summaries' file first
            raise UsageError("%s has %s but --references %s has %d: every file holds one summary per example"
                             % (against, _count(len(ids), "summary"), path, len(values)))
        sources.append((many, values))
    return _References(sources)


# ----------------------------------------------------------------------------- progress


class _Progress(collections.abc.Sequence):
    """Wraps the predictions so that the engine's pass over them drives a bar on stderr."""

    # The ETA is the rate since the first item times what is left, shown once that rate has been
    # measured for ETA_AFTER seconds: the first item's wait (engine start-up, a segmenter's
    # dictionary) is no rate, and an estimate from it said 1174 s on a 2.7 s job (issue 17).
    ETA_AFTER = 1.0

    def __init__(self, items, stream, label, enabled):
        self.items, self.stream, self.label, self.enabled = items, stream, label, enabled
        self.start = time.monotonic()
        self.last = 0.0
        self.first = None   # (time, done) of the first item

    def __len__(self):
        return len(self.items)

    def __getitem__(self, k):
        if self.enabled and isinstance(k, int):
            now = time.monotonic()
            if now - self.last > 0.2 or k + 1 == len(self.items):
                self.last = now
                self._draw(k + 1, now - self.start)
        return self.items[k]

    def step(self, done, total):
        """Progress of work that is not a pass over ``items`` (compare's resampling)."""
        if self.enabled:
            self._draw(done, time.monotonic() - self.start, total)

    def _eta(self, done, elapsed, total) -> str:
        if self.first is None:
            self.first = (elapsed, done)
        since, done_since = elapsed - self.first[0], done - self.first[1]
        if done >= total:
            return "0s"
        if since < self.ETA_AFTER or done_since <= 0:
            return "--"
        return "%.0fs" % (since / done_since * (total - done))

    def _draw(self, done, elapsed, total=None):
        total = len(self.items) if total is None else total
        width = 30
        filled = width * done // total if total else width
        self.stream.write("\r%s [%s%s] %d/%d %.0fs eta %s " % (self.label, "#" * filled, "." * (width - filled),
                                                              done, total, elapsed, self._eta(done, elapsed, total)))
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _progress_enabled(args, stream) -> bool:
    if args.quiet:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# ----------------------------------------------------------------------------- score


def _add_engine_options(parser):
    from ..scorer import FLAVORS, MULTI_REF

    group = parser.add_argument_group("scoring (RougeScorer options)")
    group.add_argument("--rouge-types", nargs="+", default=["rouge1", "rouge2", "rougeL", "rougeLsum"],
                       metavar="TYPE", help="rouge1 ... rouge<N>, rougeL, rougeLsum, rougeW[-w], rougeS<d>, "
                       "rougeSU<d>, rougeS*, rougeSU* (commas also separate); default: %(default)s")
    group.add_argument("--flavor", choices=FLAVORS, default="rouge155",
                       help="rouge155 = ROUGE-1.5.5.pl bit for bit (default); paper = the ROUGE papers; "
                       "rouge_score = Google's rouge_score; matlab = MATLAB's rougeEvaluationScore")
    group.add_argument("--use-stemmer", action="store_true", help="Porter-Lin stemmer (Perl -m)")
    group.add_argument("--remove-stopwords", action="store_true", help="SMART stop words (Perl -s)")
    group.add_argument("--word-limit", type=int, metavar="N", help="truncate every text to N words (Perl -l)")
    group.add_argument("--byte-limit", type=int, metavar="N", help="truncate every text to N bytes (Perl -b)")
    group.add_argument("--multi-ref", choices=MULTI_REF, help="average (Perl -f A), best (-f B), max, "
                       "max_rp (flavor paper: Lin & Och 2004 eqs. 7-9); default: the flavor's")
    jk = group.add_mutually_exclusive_group()
    jk.add_argument("--jackknife", dest="jackknife", action="store_true", default=None,
                    help="mean over the leave-one-out reference sets")
    jk.add_argument("--no-jackknife", dest="jackknife", action="store_false")
    group.add_argument("--alpha", type=float, default=0.5, help="F = 1/(a/P + (1-a)/R) (Perl -p); default 0.5")
    group.add_argument("--confidence", type=float, default=95, help="confidence level in %% (default 95)")
    group.add_argument("--n-bootstrap", type=int, default=1000, help="bootstrap samples (default 1000)")
    group.add_argument("--lang", metavar="LANG", help="the texts' language (XL-Sum name, alias or ISO 639-1 "
                       "code, e.g. zh, ja, hi, ru): tokenize as XL-Sum's scorer does for it; default: "
                       "the flavor's ASCII tokenizer")


def _add_input_options(parser):
    group = parser.add_argument_group("inputs")
    group.add_argument("--references", "-r", nargs="+", required=True, metavar="FILE",
                       help="reference file(s) or directory(ies); each adds one reference per example")
    group.add_argument("--input-format", choices=("auto", "lines", "jsonl", "dir"), default="auto",
                       help="auto (default): a directory is dir, *.jsonl/*.json is jsonl, else lines")
    group.add_argument("--sentence-sep", metavar="SEP",
                       help="string that separates sentences inside a line (e.g. '<n>'); default: none")
    group.add_argument("--field", metavar="NAME", help="JSONL: the object field holding the text")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _rouge_types(values) -> List[str]:
    out = []
    for value in values:
        out.extend(t for t in value.replace(",", " ").split() if t)
    return out


def _make_scorer(args):
    from ..scorer import RougeScorer

    try:
        return RougeScorer(_rouge_types(args.rouge_types), flavor=args.flavor, use_stemmer=args.use_stemmer,
                           remove_stopwords=args.remove_stopwords, word_limit=args.word_limit,
                           byte_limit=args.byte_limit, multi_ref=args.multi_ref, jackknife=args.jackknife,
                           alpha=args.alpha, lang=getattr(args, "lang", None))
    except (TypeError, ValueError) as exc:
        raise UsageError(_option_name(str(exc))) from None


def _option_name(message: str) -> str:
    # The engine names its arguments (word_limit, rouge_types, ...); say the option instead.
    for name in ("rouge_types", "word_limit", "byte_limit", "multi_ref", "jackknife", "alpha", "flavor",
                 "confidence", "n_bootstrap"):
        message = message.replace(name, "--" + name.replace("_", "-"))
    return message.replace("lang=", "--lang=")


def _score(scorer, texts, references, ids, args, stderr, label):
    if len(texts) == 0:
        raise UsageError("%s: no summaries found" % label)
    progress = _Progress(texts, stderr, label, _progress_enabled(args, stderr))
    import warnings

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = scorer.score_corpus(progress, references, confidence=args.confidence,
                                         n_bootstrap=args.n_bootstrap, ids=list(ids))
    except (TypeError, ValueError) as exc:
        raise UsageError(_option_name(str(exc))) from None
    # e.g. LostTextWarning (texts the tokenizer empties): once per run, on stderr, naming --lang
    for w in caught:
        stderr.write("rouge-full: warning: %s\n" % str(w.message).replace("lang=", "--lang ")
                     .replace("flavor='xlsum'", "--flavor xlsum"))
    return result


def _table(result, n_examples, confidence) -> str:
    lines = ["%-12s  %-27s  %-27s  %-27s" % ("rouge type", "precision", "recall", "F-measure"),
             "%-12s  %-27s  %-27s  %-27s" % ("", *(["mid (%g%% CI)" % confidence] * 3))]
    for name, agg in result.aggregate.items():
        cells = ["%.5f (%.5f-%.5f)" % (s.mid, s.low, s.high) for s in (agg.precision, agg.recall, agg.fmeasure)]
        lines.append("%-12s  %-27s  %-27s  %-27s" % (name, *cells))
    lines.append("%s; signature: %s" % (_count(n_examples, "example"), result.signature))
    lines.append(_mid_note(result.signature))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _mid_note(signature: str) -> str:
    # `compare` and the JSON "mean" give the plain mean; in flavor rouge155 "mid" is the Perl's
    # Average_X, the mean of its bootstrap replicates: say so where both can be seen (issue 12).
    if signature.startswith("flavor:rouge155|"):
        return ("mid = ROUGE-1.5.5.pl's Average_X (mean of the bootstrap replicates); the plain mean of the "
                "per-example scores (what `compare` shows) is \"mean\" in --format json/csv")
    return "mid = the plain mean of the per-example scores (what `compare` shows)"


# Printed values keep 15 significant digits: means of 5-decimal values carry binary noise in the
# 16th and 17th (0.37764800000000004) that no one wants to read; 15 digits are what a double holds.
# NaN (an undefined flavor-matlab statistic) is null: JSON has no NaN.
def _printed(x):
    return None if x is None or math.isnan(x) else float("%.15g" % x)


def _stat_dict(stat):
    return {"low": _printed(stat.low), "mid": _printed(stat.mid), "high": _printed(stat.high),
            "mean": _printed(stat.mean)}


def _json_report(result, n_examples) -> str:
    names = list(result.aggregate)
    omitted = omitted_counts([[s[t][k] for t in names for k in range(3)] for s in result.per_example], names)
    report = {"signature": result.signature, "n_examples": n_examples, "scores": {
        name: {"precision": _stat_dict(agg.precision), "recall": _stat_dict(agg.recall),
               "fmeasure": _stat_dict(agg.fmeasure)} for name, agg in result.aggregate.items()},
        # flavor matlab: examples whose value is undefined (NaN) and left out of each statistic
        "n_omitted": {name: dict(zip(("precision", "recall", "fmeasure"), c)) for name, c in omitted.items()}}
    return json.dumps(report, indent=2, allow_nan=False) + "\n"


def _csv_report(result) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["rouge_type", "measure", "low", "mid", "high", "mean", "signature"])
    for name, agg in result.aggregate.items():
        for measure in ("precision", "recall", "fmeasure"):
            s = getattr(agg, measure)
            writer.writerow([name, measure, *(repr(_printed(x)) for x in (s.low, s.mid, s.high, s.mean)),
                             result.signature])
    return buf.getvalue()


def _write_per_example(path, result, ids):
    names = list(result.aggregate)
    try:
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            if path.endswith(".csv"):
                writer = csv.writer(f, lineterminator="\n")
                writer.writerow(["id", "rouge_type", "precision", "recall", "fmeasure", "signature"])
                for i, scores in zip(ids, result.per_example):
                    for name in names:
                        s = scores[name]
                        writer.writerow([i, name, repr(s.precision), repr(s.recall), repr(s.fmeasure),
                                         result.signature])
            else:
                for i, scores in zip(ids, result.per_example):
                    record = {"id": i, "signature": result.signature}
                    for name in names:
                        record[name] = json_safe(scores[name]._asdict())
                    f.write(json.dumps(record, allow_nan=False) + "\n")
    except OSError as exc:
        raise UsageError("--per-example: cannot write %s (%s)" % (path, exc.strerror or exc)) from None


def _emit(text: str, args, stdout):
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
                f.write(text)
        except OSError as exc:
            raise UsageError("--output: cannot write %s (%s)" % (args.output, exc.strerror or exc)) from None
    else:
        # paths from the command line may hold undecodable bytes (surrogate escapes): write them back
        stdout.write(text.encode("utf-8", "surrogateescape"))
        stdout.flush()


def _score_parser():
    parser = argparse.ArgumentParser(
        prog="rouge-full score", description="Score predictions against references (every ROUGE variant).",
        epilog="Example: rouge-full score --predictions sys.txt --references ref.txt --sentence-sep '<n>' "
               "--rouge-types rouge1 rouge2 rougeLsum --use-stemmer")
    parser.add_argument("--predictions", "-p", required=True, metavar="FILE",
                        help="the system's summaries: a file (lines or JSONL) or a directory")
    _add_input_options(parser)
    _add_engine_options(parser)
    out = parser.add_argument_group("output")
    out.add_argument("--format", "-f", choices=("table", "json", "csv"), default="table")
    out.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout")
    out.add_argument("--per-example", metavar="FILE", help="per-example scores: *.csv as CSV, else JSON lines")
    return parser


def _did_you_mean(argv, command, first_flags, flags):
    """``rouge-full score preds.txt refs.txt``: the files are given by option; say how."""
    if any(a.split("=")[0] in first_flags or a in ("-h", "--help") for a in argv):
        return
    bare = []
    for a in argv:
        if a.startswith("-"):
            break
        bare.append(a)
    if not bare:
        return
    if len(bare) < len(flags):
        guess = " ".join("%s %s" % (f, a) for f, a in zip(flags, bare))
    else:   # the last flag takes the rest (several references, several systems)
        guess = " ".join("%s %s" % (f, a) for f, a in zip(flags[:-1], bare))
        guess += " %s %s" % (flags[-1], " ".join(bare[len(flags) - 1:]))
    rest = argv[len(bare):]
    raise UsageError("files are given by option, not by position: did you mean `rouge-full %s %s%s`?"
                     % (command, guess, "".join(" " + a for a in rest)))


def _inputs(args, path, flag, stderr):
    """(texts, references, ids): the system summaries at ``path`` (named by ``flag`` in errors) and
    their references, read as the command's input options say (score, and compare's baseline)."""
    texts, ids = load_texts(path, flag, args.input_format, args.sentence_sep, args.field, _warn(args, stderr))
    references = load_references(args.references, ids, args.input_format, args.sentence_sep, args.field,
                                 _warn(args, stderr), against=None if flag == "--predictions" else "%s %s" % (flag, path))
    return texts, references, ids


def _run_score(argv, stdout, stderr) -> int:
    _did_you_mean(argv, "score", ("--predictions", "-p"), ("-p", "-r"))
    args = _parse(_score_parser(), argv, stderr, stdout)
    scorer = _make_scorer(args)
    texts, references, ids = _inputs(args, args.predictions, "--predictions", stderr)
    result = _score(scorer, texts, references, ids, args, stderr, "scoring")
    if args.format == "json":
        report = _json_report(result, len(ids))
    elif args.format == "csv":
        report = _csv_report(result)
    else:
        report = _table(result, len(ids), args.confidence)
    _emit(report, args, stdout)
    if args.per_example:
        _write_per_example(args.per_example, result, ids)
    return 0


# ----------------------------------------------------------------------------- compare


def _compare_parser():
    parser = argparse.ArgumentParser(
        prog="rouge-full compare",
        description="Is a system better than the baseline on the same references? Paired bootstrap "
                    "resampling and approximate randomization on the per-example scores, seeded.",
        epilog="Example: rouge-full compare --baseline a.txt --systems b.txt --references ref.txt "
               "--rouge-types rouge1 rouge2 rougeLsum")
    parser.add_argument("--baseline", "-b", required=True, metavar="FILE", help="system A (lines, JSONL or directory)")
    parser.add_argument("--systems", "-s", nargs="+", required=True, metavar="FILE",
                        help="system(s) B compared with the baseline, each on its own")
    _add_input_options(parser)
    _add_engine_options(parser)
    test = parser.add_argument_group("tests")
    test.add_argument("--method", choices=("bootstrap", "randomization", "both"), default="both")
    test.add_argument("--n-samples", type=int, default=1000, help="bootstrap samples / randomization trials")
    test.add_argument("--seed", type=int, default=12345)
    test.add_argument("--measure", choices=("fmeasure", "recall", "precision"), default="fmeasure")
    test.add_argument("--significance-level", type=float, default=0.05, help="p below this is significant")
    out = parser.add_argument_group("output")
    out.add_argument("--format", "-f", choices=("table", "json", "csv"), default="table")
    out.add_argument("--output", "-o", metavar="FILE", help="write the report here instead of stdout")
    return parser


def _run_compare(argv, stdout, stderr) -> int:
    from .compare import compare_systems, small_sample_caution

    _did_you_mean(argv, "compare", ("--baseline", "-b"), ("-b", "-s", "-r"))
    args = _parse(_compare_parser(), argv, stderr, stdout)
    if args.n_samples < 1:
        raise UsageError("--n-samples must be >= 1, got %d" % args.n_samples)
    if not 0 < args.significance_level < 1:
        raise UsageError("--significance-level must be in (0, 1), got %r" % args.significance_level)
    scorer = _make_scorer(args)
    texts, references, ids = _inputs(args, args.baseline, "--baseline", stderr)
    base = _score(scorer, texts, references, ids, args, stderr, "baseline")
    methods = ("bootstrap", "randomization") if args.method == "both" else (args.method,)
    results = []
    for path in args.systems:
        sys_texts, sys_ids = load_texts(path, "--systems", args.input_format, args.sentence_sep, args.field,
                                        _warn(args, stderr))
        if len(sys_ids) != len(ids):
            raise UsageError("--systems: %s has %s where the baseline %s has %d"
                             % (path, _count(len(sys_ids), "summary"), args.baseline, len(ids)))
        if list(sys_ids) != list(ids):
            first = next(k for k, (x, y) in enumerate(zip(sys_ids, ids)) if x != y)
            raise UsageError("--systems: the files of %s must have the names of the baseline's: %s has %s where "
                             "%s has %s" % (path, path, os.path.join(path, sys_ids[first]), args.baseline,
                                            os.path.join(args.baseline, ids[first])))
        res = _score(scorer, sys_texts, references, ids, args, stderr, os.path.basename(path))
        bar = _Progress([], stderr, "resampling %s" % os.path.basename(path), _progress_enabled(args, stderr))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rows = compare_systems(base.per_example, res.per_example, scorer.rouge_types, args.measure, methods,
                                   args.n_samples, args.seed, args.confidence, progress=bar.step)
        for w in caught:
            stderr.write("rouge-full: warning: %s: %s\n" % (path, w.message))
        results.append((path, rows))
    signature = "%s|test:%s/%d/seed%d|measure:%s" % (base.signature, "+".join(methods), args.n_samples,
                                                     args.seed, args.measure)
    level = args.significance_level
    if args.format == "json":
        report = json.dumps({"signature": signature, "baseline": args.baseline, "n_examples": len(ids),
                             "significance_level": level, "systems": [
                                 {"system": path, "comparisons": [_comparison_dict(r, level) for r in rows]}
                                 for path, rows in results]}, indent=2, allow_nan=False) + "\n"
    elif args.format == "csv":
        report = _compare_csv(args.baseline, results, level, signature)
    else:
        report = _compare_table(args.baseline, results, len(ids), level, args.confidence, signature)
    caution = small_sample_caution(len(ids))
    if caution and args.format == "table":
        report += caution + "\n"
    elif caution:
        stderr.write("rouge-full compare: %s\n" % caution)
    _emit(report, args, stdout)
    return 0


def _comparison_dict(row, level) -> dict:
    out = {k: (_printed(v) if isinstance(v, float) else v) for k, v in row._asdict().items()}
    out["significant"] = _significant(row, level)
    return out


_COMPARE_COLUMNS = ("rouge_type", "measure", "baseline", "system", "delta", "low", "high", "p_bootstrap",
                    "p_randomization", "n_omitted")


def _compare_csv(baseline, results, level, signature) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["baseline_file", "system_file", *_COMPARE_COLUMNS, "significant", "signature"])
    for path, rows in results:
        for r in rows:
            cells = _comparison_dict(r, level)
            writer.writerow([baseline, path, *("" if cells[c] is None else cells[c] for c in _COMPARE_COLUMNS),
                             "yes" if cells["significant"] else "no", signature])
    return buf.getvalue()


def _significant(row, level) -> bool:
    ps = [p for p in (row.p_bootstrap, row.p_randomization) if p is not None]
    return bool(ps) and max(ps) < level


def _compare_table(baseline, results, n_examples, level, confidence, signature) -> str:
    def num(x, fmt="%.5f"):
        return "-" if x is None else fmt % x

    lines = ["baseline: %s (%s); baseline/system = plain means of the per-example %s" % (
        baseline, _count(n_examples, "example"), results[0][1][0].measure if results and results[0][1] else "scores")]
    for path, rows in results:
        lines.append("")
        lines.append("system: %s" % path)
        lines.append("%-12s %-9s %9s %9s %9s  %-21s %8s %8s  %s" % (
            "rouge type", "measure", "baseline", "system", "delta", "%g%% CI of delta" % confidence,
            "p (bs)", "p (ar)", "significant"))
        for r in rows:
            ci = "-" if r.low is None else "[%+.5f, %+.5f]" % (r.low, r.high)
            lines.append("%-12s %-9s %9.5f %9.5f %+9.5f  %-21s %8s %8s  %s" % (
                r.rouge_type, r.measure, r.baseline, r.system, r.delta, ci, num(r.p_bootstrap, "%.4f"),
                num(r.p_randomization, "%.4f"), "yes" if _significant(r, level) else "no"))
        for r in rows:
            if r.n_omitted:
                lines.append("%s: %d example(s) left out (undefined, NaN, %s in either system)"
                             % (r.rouge_type, r.n_omitted, r.measure))
    lines.append("")
    lines.append("significant: every p < %g; signature: %s" % (level, signature))
    if signature.startswith("flavor:rouge155|"):
        lines.append("(`rouge-full score` prints ROUGE-1.5.5.pl's Average_X, the mean of its bootstrap "
                     "replicates, which differs slightly from these plain means)")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- entry point


class _ParserExit(Exception):
    def __init__(self, status):
        super().__init__(status)
        self.status = status


def _parse(parser, argv, stderr, stdout=None):
    # argparse prints to sys.stdout/sys.stderr and exits; route it to our streams instead.
    def error(message):
        parser.print_usage(stderr)
        stderr.write("%s: error: %s\n" % (parser.prog, message))
        raise _ParserExit(2)

    def exit_(status=0, message=None):
        if message:
            stderr.write(message)
        raise _ParserExit(status)

    def print_message(message, file=None):
        # --help is asked for: stdout, exit 0 (argparse passes sys.stdout for it, stderr for errors)
        if message:
            if (file is None or file is sys.stdout) and stdout is not None:
                stdout.write(message.encode("utf-8", "surrogateescape"))
                stdout.flush()
            else:
                (file or stderr).write(message)

    parser.error = error
    parser.exit = exit_
    parser._print_message = print_message
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None, stdout=None, stderr=None) -> int:
    """The ``rouge-full`` command; returns the exit status.

    ``stdout`` is a binary stream (default ``sys.stdout.buffer``) and ``stderr`` a text stream
    (default ``sys.stderr``), so tests can run it in-process.

    >>> import io
    >>> out = io.BytesIO()
    >>> main(["--version"], stdout=out), out.getvalue().startswith(b"rouge-full ")
    (0, True)
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in ("--help", "help"):
        _out(stdout).write(TOP_HELP.encode())
        return 0
    if argv and argv[0] == "--version":
        from ..scorer import __version__

        _out(stdout).write(("rouge-full %s\n" % __version__).encode())
        return 0
    if argv and argv[0].startswith("--") and len(argv[0]) > 2:
        # ROUGE-1.5.5.pl has no long options: this is `score` or `compare` without its name.
        mode = "compare" if argv[0].split("=")[0] in _long_options(_compare_parser()) - \
            _long_options(_score_parser()) else "score"
        (stderr if stderr is not None else sys.stderr).write(
            "rouge-full: error: %s is not a ROUGE-1.5.5.pl option (it has no long options); "
            "did you mean `rouge-full %s %s`? (`rouge-full --help` lists the modes)\n"
            % (argv[0].split("=")[0], mode, " ".join(argv)))
        return 2
    if not argv or argv[0] not in SUBCOMMANDS:
        return _perl_mode(argv, stdout, stderr)
    if argv[0] == "perl":
        return _perl_mode(argv[1:], stdout, stderr)
    if argv[0] == "correlate":
        from .correlate import run
        return run(argv[1:], _out(stdout), stderr)
    stdout = _out(stdout)
    stderr = stderr if stderr is not None else sys.stderr
    try:
        if argv[0] == "score":
            return _run_score(argv[1:], stdout, stderr)
        return _run_compare(argv[1:], stdout, stderr)
    except _ParserExit as exc:
        return exc.status
    except UsageError as exc:
        stderr.write("rouge-full %s: error: %s\n" % (argv[0], exc))
        return 2
    except ImportError as exc:
        # an optional package (e.g. --lang zh's segmenter) is missing: one line, as for other errors;
        # any other ImportError is a bug and keeps its traceback
        if "pip install" not in str(exc):
            raise
        stderr.write("rouge-full %s: error: %s\n" % (argv[0], _missing_extra_message(exc)))
        return 2
    except MemoryError:
        stderr.write("rouge-full %s: error: %s\n" % (argv[0], _MEMORY_MESSAGE))
        return 2
    except BrokenPipeError:
        return 141


CHECKOUT_EXTRA = 'pip install ".[multilingual]"'


def _missing_extra_message(exc: ImportError) -> str:
    """The ImportError's message on one line, with the install line that works in a checkout (the
    package is on no index yet, so installing the extra by the package's name finds nothing)."""
    message = " ".join(str(exc).split())
    if "[multilingual]" in message and CHECKOUT_EXTRA not in message:
        message += " (from a checkout of the repository: %s)" % CHECKOUT_EXTRA
    return message.replace("lang=", "--lang ")


_MEMORY_MESSAGE = ("out of memory while reading or scoring the inputs: split them into smaller files "
                   "(and check that every file is a text file of summaries)")


def __getattr__(name):
    # The Perl-compatible mode's modules (its config reader, Basic Elements, the Perl stemmer:
    # ~27 ms of imports) are imported by the command lines that use it, not by score/compare/correlate.
    if name == "perl_cli":
        from . import perl_cli
        return perl_cli
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def _perl_mode(argv, stdout, stderr):
    from . import perl_cli

    try:
        return perl_cli.run(argv, stdout, stderr)
    except MemoryError:
        (stderr if stderr is not None else sys.stderr).write("rouge-full: error: %s\n" % _MEMORY_MESSAGE)
        return 2


def _long_options(*parsers):
    return {opt for parser in parsers for action in parser._actions for opt in action.option_strings
            if opt.startswith("--")} - {"--help"}



def _out(stdout):
    if stdout is not None:
        return stdout
    sys.stdout.flush()
    return sys.stdout.buffer
