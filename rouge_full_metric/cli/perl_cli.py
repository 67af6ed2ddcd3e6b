"""The ROUGE-1.5.5.pl command line, byte for byte on stdout (``rouge-full [perl options] CONFIG [SYSTEM]``).

This is the Perl-compatible mode of ``rouge-full``: the same options, the same config files, the same
stdout.  The Perl script is only emulated at its edges — option parsing (Getopt::Std), the config
(:mod:`.perl_config`), the summary readers (:mod:`.summary_formats`), the order of its blocks, its
warnings and its fatal errors — while every number comes from the engine
(:class:`.scorer.RougeScorer`, one per run; Basic Elements from :mod:`.basic_elements`) and the
Perl's bootstrap (:mod:`.bootstrap`).

How a run streams: for each peer (system), the evals are read one at a time and scored in batches
of 256 by the engine's batch scorer (:mod:`.batch`: the compiled core when it is built, else the
pure-Python engine, with identical results), keeping only each eval's three numbers per metric
(what the Perl keeps too); texts are dropped as soon as they are scored, so the texts never pile up.  Unlike the Perl,
which re-reads every file once per metric, each file is read once per peer.

Where the Perl dies, :func:`run` writes what the Perl would have printed up to that point, then a
message on stderr and returns a non-zero status.  Deliberate differences (all documented in the
``rouge-full`` docs): ``-e`` and ``$ROUGE_EVAL_HOME`` are accepted and ignored (the official data
ships with the package); ``-v`` (debug dump) and ``-M`` (half-implemented in the Perl) are refused;
``-l``, ``-b`` and ``-r`` must be whole numbers (``-l``/``-b`` >= 0); ``-d`` lines of eval IDs
with the same leading number are ordered as strings (the Perl's order is random there).

>>> import io
>>> out, err = io.BytesIO(), io.StringIO()
>>> run(["-h"], out, err), err.getvalue().splitlines()[0]
(255, 'rouge-full')
"""
import math
import os
import re
import sys
from array import array
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from .. import compiled
from . import input_files, perl_config, summary_formats
from .basic_elements import be_counts, be_pair_stats
from ..batch import score_examples
from ..bootstrap_compiled import numpy_free, ordered_bootstrap, perl_bootstrap, replicate_sums
from ..bootstrap import Interval, perl_bootstrap_counts
from ..scoring import combined_counts, score_from_counts

__all__ = ["PerlDie", "getopts", "perl_number", "run", "OPTION_SPEC", "USAGE"]

#: Getopt::Std's spec string of ROUGE-1.5.5.pl: letters, ``:`` after those that take a value.
OPTION_SPEC = "ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:"

USAGE = """rouge-full
         [-a (evaluate all systems)]
         [-c cf]
         [-d (print per evaluation scores)]
         [-e ROUGE_EVAL_HOME (accepted and ignored: the data ships with rouge-full)]
         [-h (usage)]
         [-H (detailed usage)]
         [-b n-bytes|-l n-words]
         [-m (use Porter stemmer)]
         [-n max-ngram]
         [-s (remove stopwords)]
         [-r number-of-samples (for resampling)]
         [-2 max-gap-length (if < 0 then no gap length limit)]
         [-3 <H|HM|HMR|HM1|HMR1|HMR2> (for scoring based on BE)]
         [-u (include unigram in skip-bigram) default no)]
         [-U (same as -u but also compute regular skip-bigram)]
         [-w weight (weighting factor for WLCS)]
         [-x (do not calculate ROUGE-L)]
         [-f A|B (scoring formula)]
         [-p alpha (0 <= alpha <=1)]
         [-t 0|1|2 (count by token instead of sentence)]
         [-z <SEE|SPL|ISI|SIMPLE>]
         <ROUGE-eval-config-file> [<systemID>]
(rouge-full --help: the 'score' and 'compare' modes)
"""

USAGE_FULL = USAGE + """
The command line of ROUGE-1.5.5.pl; stdout is byte-identical to the Perl's.  See also
`rouge-full score --help` (plain files, JSON/CSV output) and `rouge-full compare --help`
(significance tests).
Options:
  -2: skip-bigrams (ROUGE-S) with at most this many words between the two (< 0: no limit)
  -u: skip-bigrams plus unigrams (ROUGE-SU); -2 has to be given
  -U: ROUGE-S and then ROUGE-SU (-u wins when both are given)
  -3: Basic Elements (SIMPLE input): H, HM, HMR, HM1, HMR1, HMR2; switches ROUGE-L off
  -a: evaluate every system of the config (in string order of their IDs)
  -c: confidence level CF (0 <= CF <= 100) of the bootstrap interval, default 95
  -d: also print every evaluation's score
  -f: A = pool the models (default), B = the model with the best recall
  -b/-l: truncate peers AND models to n bytes / n words
  -m: stem (Porter with Lin's step 4, WordNet-2.0 exceptions); -s: drop SMART stop words
  -n: ROUGE-1 ... ROUGE-n
  -p: F = 1/(alpha/P + (1-alpha)/R), default 0.5
  -t: 0 = average per-summary scores, 1 = corpus-level counts, 2 = print raw counts
  -r: number of bootstrap samples, default 1000
  -w: ROUGE-W with this weight (> 0)
  -x: do not compute ROUGE-L
  -z: the config is a file list (peer model1 model2 ... per line) in this format
"""

_DASHES = b"-" * 45
_DOTS = b"." * 45


class PerlDie(Exception):
    """A fatal error where ROUGE-1.5.5.pl dies: ``message`` for stderr, ``status`` to exit with."""

    def __init__(self, message: str, status: int = 255):
        super().__init__(message)
        self.message = message
        self.status = status


# ----------------------------------------------------------------------------- command line


def getopts(argv: Sequence[str], spec: str = OPTION_SPEC):
    """Getopt::Std's ``getopts(spec)``: returns ``(options, remaining_args, warnings)``.

    Clustering (``-ms``) and attached values (``-n4``, ``-2-1``) work; parsing stops at the first
    argument that is not an option (or after ``--``); unknown letters give a warning and are
    skipped.  A value option at the very end without its value stays undefined (``None``).

    >>> getopts(["-ms", "-n4", "-2-1", "-q", "cfg.xml", "-a"])
    ({'m': True, 's': True, 'n': '4', '2': '-1'}, ['cfg.xml', '-a'], ['Unknown option: q'])
    """
    args = list(argv)
    options: Dict[str, object] = {}
    warnings: List[str] = []
    while args:
        match = re.match(r"-(.)(.*)\Z", args[0], re.S)
        if not match:
            break
        first, rest = match.group(1), match.group(2)
        if args[0] == "--":
            args.pop(0)
            break
        pos = spec.find(first)
        if pos >= 0:
            if spec[pos + 1:pos + 2] == ":":
                args.pop(0)
                if rest == "":
                    rest = args.pop(0) if args else None
                options[first] = rest
            else:
                options[first] = True
                if rest == "":
                    args.pop(0)
                else:
                    args[0] = "-" + rest
        else:
            warnings.append("Unknown option: %s" % first)
            if rest != "":
                args[0] = "-" + rest
            else:
                args.pop(0)
    return {k: v for k, v in options.items() if v is not None}, args, warnings


_PERL_NUMBER = re.compile(r"[ \t\n\r\f\x0b]*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_PERL_SPECIAL = re.compile(r"[ \t\n\r\f\x0b]*([+-]?)(inf(?:inity)?|nan)", re.I)


def perl_number(text) -> float:
    """The number Perl sees in a string: its leading decimal number, else 0 (``"4x"`` is 4).

    >>> perl_number("1.2"), perl_number(" 95"), perl_number("abc"), perl_number("-1"), perl_number("2e1")
    (1.2, 95.0, 0.0, -1.0, 20.0)
    """
    if text is None or text is True:
        return 1.0 if text is True else 0.0
    match = _PERL_NUMBER.match(text)
    if match:
        return float(match.group(1))
    match = _PERL_SPECIAL.match(text)
    if match:
        return float(match.group(1) + match.group(2))
    return 0.0


def _argv_text(arg: str) -> str:
    """An argument as the Perl sees it: its bytes, one char per byte (printed back unchanged)."""
    return os.fsencode(arg).decode("latin-1")


def _perl_bytes(text: str) -> bytes:
    """What Perl's ``print`` writes for a string: its bytes, or UTF-8 if it holds wide characters."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape")


def _whole(name: str, value: float, minimum: int) -> int:
    if not (math.isfinite(value) and value == int(value) and value >= minimum):
        raise PerlDie("rouge-full: option -%s must be a whole number >= %d, got %r (ROUGE-1.5.5.pl's "
                      "behaviour for other values is not reproduced)" % (name, minimum, value))
    return int(value)


class Metric(NamedTuple):
    """One output block: its tag, what computes it (``family`` "text" or "be"), and the engine
    rouge type (text) or BE mode."""

    tag: str
    family: str
    name: str
    weighted: bool = False


class Settings(NamedTuple):
    """Everything a run needs, decoded from the Perl options."""

    metrics: List[Metric]
    mode: int                 # -t: 0, 1 or 2
    confidence: float
    confidence_text: str      # printed as typed
    resamples: int
    alpha: float
    multi_ref: str
    use_stemmer: bool
    remove_stopwords: bool
    word_limit: int
    byte_limit: int
    per_eval: bool


def parse_settings(options: Dict[str, object]) -> Settings:
    """Decode the options the way ROUGE-1.5.5.pl does, dying where it dies (spec §2).

    >>> s = parse_settings({"n": "2", "w": "1.2", "2": "4", "U": True})
    >>> [m.tag for m in s.metrics]
    ['ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-S4', 'ROUGE-SU4']
    """
    opt = {k: (_argv_text(v) if isinstance(v, str) else v) for k, v in options.items()}
    if "v" in opt:
        raise PerlDie("rouge-full: option -v (the Perl's debug dump on stdout) is not supported")
    if "M" in opt:
        raise PerlDie("rouge-full: option -M (the Perl's half-implemented 'stem models only') is not "
                      "supported; use -m")
    if "l" in opt and "b" in opt:
        raise PerlDie("Please specify length limit in words or bytes but not both.")
    word_limit = _whole("l", perl_number(opt["l"]), 0) if "l" in opt else 0
    byte_limit = _whole("b", perl_number(opt["b"]), 0) if "b" in opt else 0
    confidence, confidence_text = 95.0, "95"
    if "c" in opt:
        confidence, confidence_text = perl_number(opt["c"]), opt["c"]
        if confidence < 0 or confidence > 100:
            raise PerlDie("Confidence interval should be within 0 and 100. Use option -h for more details.")
    weight = None
    if "w" in opt:
        weight = perl_number(opt["w"])
        if not weight > 0:
            raise PerlDie("ROUGE-W weight factor must greater than 0.")
    resamples_value = perl_number(opt["r"]) if "r" in opt else 1000.0
    alpha = 0.5
    if "p" in opt:
        alpha = perl_number(opt["p"])
        if alpha < 0 or alpha > 1:
            raise PerlDie("Relative importance of ROUGE recall and precision has to be between 0 and 1 inclusively.")
    mode = 0
    if "t" in opt:
        t = perl_number(opt["t"])
        mode = 1 if t == 1 else 2 if t == 2 else 0

    # absolute: this module may live in the cli/ subpackage
    from rouge_full_metric.rouge_types import MAX_N, MAX_W_WEIGHT, MIN_W_WEIGHT

    metrics: List[Metric] = []
    if "n" in opt:
        top = perl_number(opt["n"])
        if not math.isfinite(top):
            raise PerlDie("rouge-full: option -n must be a finite number, got %r" % opt["n"])
        if top > MAX_N:
            raise PerlDie("rouge-full: option -n must be at most %d, got %r" % (MAX_N, opt["n"]))
        for n in range(1, int(math.floor(top)) + 1):
            metrics.append(Metric("ROUGE-%d" % n, "text", "rouge%d" % n))
    if "x" not in opt and "3" not in opt:
        metrics.append(Metric("ROUGE-L", "text", "rougeLsum"))
    if weight is not None:
        if not math.isfinite(weight):
            raise PerlDie("rouge-full: option -w must be a finite number, got %r" % opt["w"])
        if not MIN_W_WEIGHT <= weight <= MAX_W_WEIGHT:
            raise PerlDie("rouge-full: option -w must be between %g and %g (others overflow), got %r"
                          % (MIN_W_WEIGHT, MAX_W_WEIGHT, opt["w"]))
        metrics.append(Metric("ROUGE-W-" + opt["w"], "text", "rougeW-%r" % weight, weighted=True))
    if "2" in opt:
        distance = perl_number(opt["2"])
        if distance < 0:
            suffix, gap = "*", "*"
        elif math.isfinite(distance):
            suffix, gap = opt["2"], "%d" % math.floor(distance)
        else:
            raise PerlDie("rouge-full: option -2 must be a finite number, got %r" % opt["2"])
        if "u" in opt:
            metrics.append(Metric("ROUGE-SU" + suffix, "text", "rougeSU" + gap))
        else:
            metrics.append(Metric("ROUGE-S" + suffix, "text", "rougeS" + gap))
            if "U" in opt:
                metrics.append(Metric("ROUGE-SU" + suffix, "text", "rougeSU" + gap))
    if "3" in opt:
        metrics.append(Metric("ROUGE-BE-" + opt["3"], "be", opt["3"]))
    resamples = 0
    if metrics and mode != 2:  # only the bootstrap reads -r
        if resamples_value < 1:
            raise PerlDie("Illegal division by zero: -r %s leaves no bootstrap sample (ROUGE-1.5.5.pl dies "
                          "here too; -r must be at least 1)" % opt["r"])
        resamples = _whole("r", resamples_value, 1)
    return Settings(metrics, mode, confidence, confidence_text, resamples, alpha,
                    "best" if opt.get("f") == "B" else "average", "m" in opt, "s" in opt,
                    word_limit, byte_limit, "d" in opt)


# ----------------------------------------------------------------------------- reading


def _read_bytes(path: str) -> bytes:
    try:
        return _read_file(path)
    except IsADirectoryError:
        return b""  # Perl's open() succeeds on a directory and reading it yields nothing
    except OSError as exc:
        raise PerlDie("Cannot open %s (%s)" % (path, exc.strerror or exc), 2) from None


def _read_files(paths: List[str]) -> List[Optional[bytes]]:
    """Each file's bytes, None where it cannot be read (in C when the core is built)."""
    if _core_read_files is not None:
        return _core_read_files(paths)
    contents = []
    for path in paths:
        try:
            contents.append(_read_file(path))
        except OSError:
            contents.append(None)
    return contents


_core_read_files = getattr(compiled.core, "read_files", None) if compiled.AVAILABLE else None


def _read_file(path: str) -> bytes:
    # Regular files only, under the size cap (input_files); a third of open().read()'s cost.
    return input_files.read_file(path)


def _check_models(ev: perl_config.Eval):
    for _, path in ev.models:
        if not os.path.exists(path):
            raise PerlDie("Cannot find model summary: %s" % path, 2)


def _format_name(fmt) -> str:
    return "" if fmt is None else str(fmt)


def _read_text_eval(ev: perl_config.Eval, peer_path: str):
    """Peer and model sentences for the text metrics, failing where the Perl's readText dies."""
    if ev.input_format == "SPL":
        # SPL files go to the engine whole: it splits them on newlines and drops empty lines,
        # exactly the SPL reader.  When a file cannot be read, the checks below run in the
        # Perl's order to raise its error.
        paths = [peer_path]
        paths += [path for _, path in ev.models]
        contents = _read_files(paths)
        if None not in contents:
            return contents[0], contents[1:]
    _check_models(ev)
    fmt = _format_name(ev.input_format)
    peer_data = _read_bytes(peer_path)
    if fmt.upper() not in summary_formats.SENTENCE_FORMATS:
        raise PerlDie("Unknown input format: %s" % fmt)
    prediction = summary_formats.read_sentences(peer_data, fmt)
    references = [summary_formats.read_sentences(_read_bytes(path), fmt) for _, path in ev.models]
    return prediction, references


def _read_be_file(path: str, fmt: str, stderr):
    data = _read_bytes(path)
    kind = fmt.upper()
    if kind == "SIMPLE":
        try:
            elements = summary_formats.read_basic_elements(data)
        except ValueError as exc:
            raise PerlDie("Basic Element (BE) input file is invalid: %s: %s\nA BE file has to be in this "
                          "format per line: HEAD|MODIFIER|RELATION" % (path, exc)) from None
        empty = not data
    elif kind == "ISI":
        elements, empty = [], True  # the Perl's ISI BE reader is an empty placeholder
    else:
        raise PerlDie("Unknown input format: %s" % fmt)
    if empty:
        stderr.write("readBE: %s -> empty text\n" % path)
    return elements


# ----------------------------------------------------------------------------- scoring


def _raw_number(value, weighted: bool) -> str:
    """A raw count as Perl prints it: integers as integers, ROUGE-W's floats as ``%.15g``."""
    if not weighted:
        return "%d" % value
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Inf" if value > 0 else "-Inf"
    return "%.15g" % value


def _eval_order(key: str):
    # The Perl's by_evalID: leading digits compare numerically when both keys have them, else the
    # keys compare as strings.  Digit-led keys all sort inside the block of ASCII digits, so this
    # comparator is a total order; ties (same number) are random in the Perl, strings here.
    match = re.match(r"[0-9]+", key)
    if match:
        digits = match.group(0)
        number = int(digits)
        if number >= 1 << 64:
            number = float(digits)  # the Perl compares such numbers as doubles
        return (1, number, key)
    return (0 if key < "0" else 2, 0, key)


class _PeerRun:
    """The per-eval numbers of one peer for every metric, filled eval by eval.

    One flat array of doubles, a row per eval with three per metric (R, P, F under -t 0; CNT,
    PCNT, HIT under -t 1/2): 24 bytes an eval and metric is all that grows with the corpus, and
    the rows are the bootstrap's table as they stand.
    """

    def __init__(self, settings: Settings, metrics: List[Metric]):
        self.settings = settings
        self.metrics = metrics
        self.width = 3 * len(metrics)
        self.keys: List[str] = []
        self.values = array("d")
        self.errors: Dict[int, Tuple[int, PerlDie]] = {}

    def fail(self, indices, position: int, error: PerlDie):
        for i in indices:
            if i not in self.errors or position < self.errors[i][0]:
                self.errors[i] = (position, error)

    def all_failed(self) -> bool:
        return len(self.errors) == len(self.metrics)

    def new_slot(self, key: str) -> int:
        self.keys.append(key)
        return len(self.keys) - 1

    def reserve(self):
        """Give every slot its row (NaN until written): the array grows in bulk, not per eval."""
        missing = self.width * len(self.keys) - len(self.values)
        if missing > 0:
            self.values.extend(array("d", [math.nan]) * missing)

    def put(self, index: int, slot: int, hit, cnt, pcnt, score=None):
        values, at = self.values, slot * self.width + 3 * index
        if len(values) <= at:
            self.reserve()
        if self.settings.mode == 0:
            values[at], values[at + 1], values[at + 2] = score.recall, score.precision, score.fmeasure
        else:
            values[at], values[at + 1], values[at + 2] = cnt, pcnt, hit

    def get(self, index: int, slot: int):
        at = slot * self.width + 3 * index
        return self.values[at:at + 3]


class _TextBatch:
    """Evals waiting to be scored by the engine, flushed in batches (memory stays flat)."""

    SIZE = 256

    def __init__(self, scorer, run: _PeerRun, text_indices: List[int], peer_id: str):
        self.scorer = scorer
        self.run = run
        self.text_indices = text_indices
        self.peer_id = peer_id
        self.items = []

    def add(self, slot, position, prediction, references, ev):
        self.items.append((slot, position, prediction, references, ev))
        if len(self.items) >= self.SIZE:
            self.flush()

    def flush(self):
        if not self.items:
            return
        items, self.items = self.items, []
        run, settings = self.run, self.run.settings
        values, width, mode = run.values, run.width, settings.mode
        metrics = [(i, run.metrics[i]) for i in self.text_indices]
        weighted = [(i, metric) for i, metric in metrics if metric.weighted]
        # Statistics are needed for the counts of -t 1/2 and, under -t 0, only to find a model
        # without tokens for ROUGE-W (where the Perl dies); building them costs time per eval.
        with_stats = mode != 0 or bool(weighted)
        per_example, statistics = score_examples(self.scorer, [it[2] for it in items], [it[3] for it in items],
                                                 with_statistics=with_stats)
        run.reserve()
        for k, (slot, position, _, _, ev) in enumerate(items):
            failed = ()
            for i, metric in weighted:
                pairs = statistics[k][metric.name]
                empty = [n for n, s in enumerate(pairs) if s.reference_count == 0]
                if empty:
                    failed += (i,)
                    run.fail([i], position, PerlDie(
                        "Illegal division by zero in %s: model summary %s has no tokens "
                        "(ROUGE-1.5.5.pl dies here too)" % (metric.tag, ev.models[empty[0]][1])))
            row = slot * width
            if mode == 0:
                scores = per_example[k]
                for i, metric in metrics:
                    if i not in failed:
                        at = row + 3 * i
                        precision, recall, fmeasure = scores[metric.name]
                        values[at], values[at + 1], values[at + 2] = recall, precision, fmeasure
            else:
                for i, metric in metrics:
                    if i not in failed:
                        at = row + 3 * i
                        hit, cnt, pcnt = combined_counts(statistics[k][metric.name], settings.multi_ref)
                        values[at], values[at + 1], values[at + 2] = cnt, pcnt, hit


def _score_be(ev, peer_path, mode, settings: Settings, stderr):
    """(Score, (HIT, CNT, PCNT)) of one eval for ROUGE-BE, reading files in the Perl's order."""
    _check_models(ev)
    fmt = _format_name(ev.input_format)
    peer_counts = be_counts(_read_be_file(peer_path, fmt, stderr), mode, settings.use_stemmer)
    stats = [be_pair_stats(be_counts(_read_be_file(path, fmt, stderr), mode, settings.use_stemmer), peer_counts)
             for _, path in ev.models]
    if not stats:
        return score_from_counts(0, 0, 0, settings.alpha), (0, 0, 0)
    counts = combined_counts(stats, settings.multi_ref)
    return score_from_counts(*counts, settings.alpha), counts


def _make_scorer(settings: Settings):
    names = []
    for metric in settings.metrics:
        if metric.family == "text" and metric.name not in names:
            names.append(metric.name)
    if not names:
        return None
    from ..scorer import RougeScorer

    return RougeScorer(names, flavor="rouge155", use_stemmer=settings.use_stemmer,
                       remove_stopwords=settings.remove_stopwords, word_limit=settings.word_limit or None,
                       byte_limit=settings.byte_limit or None, multi_ref=settings.multi_ref,
                       jackknife=False, alpha=settings.alpha)


def _score_peer(config, peer_id: str, settings: Settings, scorer, stderr, warned) -> _PeerRun:
    metrics = settings.metrics
    run = _PeerRun(settings, metrics)
    text_indices = [i for i, m in enumerate(metrics) if m.family == "text"]
    be_indices = [i for i, m in enumerate(metrics) if m.family == "be"]
    batch = _TextBatch(scorer, run, text_indices, peer_id) if text_indices else None
    for position, ev in enumerate(config.evals):
        if peer_id not in ev.peers:
            if (ev.id, peer_id) not in warned:
                warned.add((ev.id, peer_id))
                stderr.write("*ROUGE Warning: test instance for peer %s does not exist for evaluation %s\n"
                             % (peer_id, ev.id))
            continue
        slot = run.new_slot(ev.id + "." + peer_id)
        if run.all_failed():
            continue
        peer_path = ev.peers[peer_id]
        if text_indices:
            try:
                prediction, references = _read_text_eval(ev, peer_path)
            except PerlDie as error:
                run.fail(text_indices, position, error)
            else:
                if references:
                    batch.add(slot, position, prediction, references, ev)
                else:
                    # An EVAL without models scores 0 and still counts as an instance.
                    zero = score_from_counts(0, 0, 0, settings.alpha)
                    for i in text_indices:
                        run.put(i, slot, 0, 0, 0, zero)
        for i in be_indices:
            try:
                score, (hit, cnt, pcnt) = _score_be(ev, peer_path, metrics[i].name, settings, stderr)
            except PerlDie as error:
                run.fail([i], position, error)
            else:
                run.put(i, slot, hit, cnt, pcnt, score)
    if batch is not None:
        batch.flush()
    return run


# ----------------------------------------------------------------------------- printing


def _bootstrap_means(run: _PeerRun, sorted_slots: List[int], columns: List[int], settings: Settings):
    """:func:`.bootstrap.perl_bootstrap` of the given columns of the run's rows (-t 0).

    Bit-identical to it.  Where :func:`.bootstrap_compiled.numpy_free` allows (the compiled core, numpy not
    imported, -r not huge) the table goes to the core's replicate sums as bytes, without numpy,
    whose import alone costs a tenth of a second per run.
    """
    if not numpy_free(settings.resamples * run.width):
        import numpy as np

        table = np.frombuffer(run.values, dtype=np.float64).reshape(len(run.keys), run.width)
        return perl_bootstrap(table[:, columns], run.keys, settings.resamples, settings.confidence)
    rows = memoryview(run.values).cast("B")
    size = 8 * run.width
    table = b"".join([rows[size * s:size * s + size] for s in sorted_slots])
    found = ordered_bootstrap(table, len(sorted_slots), run.width, settings.resamples, settings.confidence)
    return [found[k] for k in columns]


def _fmt5(x: float) -> str:
    return "%7.5f" % x


def _write_peer(out, peer_id: str, run: _PeerRun, settings: Settings):
    """Print the peer's blocks in the Perl's order; raise the first metric's fatal error."""
    run.reserve()
    metrics = run.metrics
    failed = min([i for i in run.errors], default=len(metrics))
    printable = list(range(failed))
    keys = run.keys
    count = len(keys)
    intervals: Dict[int, List[Interval]] = {}
    sorted_slots = sorted(range(count), key=lambda s: keys[s].encode("utf-8"))  # the Perl's order
    if printable and settings.mode != 2:
        if count == 0:
            zero = Interval(0.0, 0.0, 0.0)
            intervals = {i: [zero, zero, zero] for i in printable}
        elif settings.mode == 0:
            columns = [3 * i + k for i in printable for k in range(3)]
            flat = _bootstrap_means(run, sorted_slots, columns, settings)
            intervals = {i: flat[3 * k:3 * k + 3] for k, i in enumerate(printable)}
        else:
            import numpy as np

            table = np.frombuffer(run.values, dtype=np.float64).reshape(count, run.width)
            table = table[:, [3 * i + k for i in printable for k in range(3)]]
            grouped = perl_bootstrap_counts(table, keys, settings.resamples, settings.confidence,
                                            settings.alpha, replicate_sums,
                                            lambda _: sorted_slots)   # the keys' byte order, sorted above
            intervals = {i: grouped[k] for k, i in enumerate(printable)}
    eval_slots = sorted(range(count), key=lambda s: _eval_order(keys[s])) if settings.per_eval else []
    conf = _perl_bytes(settings.confidence_text)
    for i in printable:
        metric = metrics[i]
        head = "%s %s" % (peer_id, metric.tag)
        lines = [_DASHES + b"\n"]
        if settings.mode != 2:
            for label, iv in zip("RPF", intervals[i]):
                lines.append(_perl_bytes("%s Average_%s: %s " % (head, label, _fmt5(iv.mean))))
                lines.append(b"(" + conf + ("%%-conf.int. %s - %s)\n" % (_fmt5(iv.low), _fmt5(iv.high))).encode())
        else:
            totals = [0, 0, 0]
            for slot in sorted_slots:
                v = run.get(i, slot)
                for k in range(3):
                    totals[k] += v[k]
            lines.append(_perl_bytes("%s M_count: " % head))
            lines.append(("%d P_count: %d H_count: %d\n" % tuple(int(t) for t in totals)).encode())
        if settings.per_eval:
            lines.append(_DOTS + b"\n")
            for slot in eval_slots:
                v = run.get(i, slot)
                if settings.mode == 0:
                    text = (_fmt5(v[0]), _fmt5(v[1]), _fmt5(v[2]))
                else:
                    text = tuple(_raw_number(x, metric.weighted) for x in v)
                lines.append(_perl_bytes("%s Eval %s R:%s P:%s F:%s\n" % ((head, keys[slot]) + text)))
        out.write(b"".join(lines))
    if failed < len(metrics):
        raise run.errors[failed][1]


# ----------------------------------------------------------------------------- entry point


def run(argv: Sequence[str], stdout=None, stderr=None) -> int:
    """Run the ROUGE-1.5.5.pl command line; returns the exit status.

    ``stdout`` is a binary stream (default ``sys.stdout.buffer``), ``stderr`` a text stream.

    >>> import io, os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for name, text in [("peer", b"police kill the gunman\\n"), ("model", b"police killed the gunman\\n")]:
    ...         _ = open(os.path.join(d, name), "wb").write(text)
    ...     _ = open(os.path.join(d, "list"), "w").write("%s/peer %s/model\\n" % (d, d))
    ...     out = io.BytesIO()
    ...     status = run(["-n", "1", "-z", "SPL", os.path.join(d, "list"), "sys"], out, io.StringIO())
    >>> print(status, out.getvalue().decode().splitlines()[1])
    0 sys ROUGE-1 Average_R: 0.75000 (95%-conf.int. 0.75000 - 0.75000)
    """
    if stdout is None:
        sys.stdout.flush()
        stdout = sys.stdout.buffer
    if stderr is None:
        stderr = sys.stderr
    try:
        return _run(list(argv), stdout, stderr)
    except PerlDie as error:
        stdout.flush()
        stderr.write(error.message.rstrip("\n") + "\n")
        return error.status
    except BrokenPipeError:
        return 141


def _plain_text_hint(config_path: str) -> str:
    """When the "config" is not XML at all but a plain text file, the user most likely meant
    ``rouge-full score`` (issue 12): say so after the XML error."""
    try:
        with open(config_path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return ""
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") or not head:
        return ""
    return ("\n%s is plain text, not a ROUGE-1.5.5.pl XML config; to score files of summaries (one a line) use "
            "`rouge-full score --predictions %s --references REFERENCES` (`rouge-full --help` lists the modes)"
            % (config_path, config_path))


def _warn_unread_options(args: List[str], stderr) -> None:
    """ROUGE-1.5.5.pl (Getopt::Std) stops reading options at CONFIG: ``config.xml -a -n 2`` takes
    ``-a`` as the system id and never reads ``-n 2``.  The parsing stays the Perl's (stdout must be
    its bytes); stderr says which options were not read.

    >>> import io; err = io.StringIO(); _warn_unread_options(["c.xml", "-a", "-n", "2"], err); print(err.getvalue())
    rouge-full: warning: options after CONFIG are not read, as in ROUGE-1.5.5.pl: '-a' is read as the SYSTEM id and '-n 2' is ignored; put the options before CONFIG: rouge-full ... -a -n 2 c.xml
    <BLANKLINE>
    """
    after = [_argv_text(a) for a in args[1:]]
    if not any(a.startswith("-") and a != "-" for a in after):
        return
    config = _argv_text(args[0])
    if after[0].startswith("-"):
        said = "%r is read as the SYSTEM id" % after[0] + (" and %r is ignored" % " ".join(after[1:]) if after[1:] else "")
        fixed = "%s %s" % (" ".join(after), config)
    else:
        said = "%r after SYSTEM is ignored" % " ".join(after[1:])
        fixed = "%s %s %s" % (" ".join(after[1:]), config, after[0])
    stderr.write("rouge-full: warning: options after CONFIG are not read, as in ROUGE-1.5.5.pl: %s; put the options "
                 "before CONFIG: rouge-full ... %s\n" % (said, fixed))


def _run(argv: List[str], stdout, stderr) -> int:
    options, args, warnings = getopts(argv)
    for warning in warnings:
        stderr.write(warning + "\n")
    if "H" in options:
        raise PerlDie(USAGE_FULL)
    if "h" in options or not args:
        raise PerlDie(USAGE)
    file_list = options.get("z")
    if len(args) == 1 and file_list is None and "a" not in options:
        raise PerlDie("Please specify a system ID to evaluate or use option '-a' to evaluate all systems. "
                      "For more information, use option '-h'.")
    settings = parse_settings(options)
    config_path = args[0]
    _warn_unread_options(args, stderr)
    system_id = _argv_text(args[1]) if len(args) > 1 else None
    try:
        if file_list is not None:
            if not os.path.isfile(config_path):
                raise PerlDie("Cannot open %s" % config_path, 2)
            config = perl_config.read_file_list(config_path, _argv_text(file_list),
                                                "X" if system_id is None else system_id)
            peers = config.peer_ids[:1]
        else:
            if not os.path.isfile(config_path):
                raise PerlDie("Couldn't open %s: No such file" % config_path, 2)
            config = perl_config.read_xml_config(config_path)
            peers = config.sorted_peer_ids() if "a" in options else [system_id]
    except ValueError as exc:
        raise PerlDie(str(exc) + (_plain_text_hint(config_path) if file_list is None else "")) from None
    except OSError as exc:
        raise PerlDie("Cannot open %s (%s)" % (config_path, exc.strerror or exc), 2) from None
    scorer = _make_scorer(settings)
    warned = set()
    for peer_id in peers:
        result = _score_peer(config, peer_id, settings, scorer, stderr, warned)
        _write_peer(stdout, peer_id, result, settings)
    stdout.flush()
    return 0
