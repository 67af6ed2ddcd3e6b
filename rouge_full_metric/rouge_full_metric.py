"""The ``evaluate`` metric: ``evaluate.load("<path>/rouge_full_metric")`` or a Hub Space.

evaluate copies this script and the sibling modules named in its top-level ``from .x import``
lines into its module cache; every module the engine uses, even indirectly, is therefore named
below, one per line, and none is imported by the package's absolute name (in a Space this script
itself is ``rouge_full_metric``).
"""
import inspect
import warnings
from itertools import chain

import datasets
import evaluate

from .batch import _check_n_jobs, score_batch
from .bootstrap import perl_bootstrap
from .bootstrap_compiled import count_sums
from .compiled import backend
from .corpus import batch_table, check_bootstrap_options, table_aggregate
from .extras import install_line
from .flavor_base import Flavor
from .flavor_matlab import Matlab
from .flavor_paper import Paper
from .flavor_rouge155 import Rouge155
from .flavor_rouge_score import RougeScore
from .flavor_xlsum import Xlsum
from .flavors import NAMES as FLAVOR_NAMES
from .lang_pipeline import read_tokens
from .languages import resolve as resolve_language
from .lazy_re import Pattern as LazyPattern
from .lcs import lcs_length
from .lost_text import LostTextWarning
from .matlab import rouge_evaluation_score
from .memo import Memo
from .multilingual_stemmers import hindi as hindi_stem
from .ngrams import ngram_counts
from .nltk_porter import stem as nltk_porter_stem
from .pairwise import score_matrix
from .python_engine import example as python_example
from .rouge155_data import SMART_COMMON_WORDS
from .rouge_score_flavor import make_tokenizer
from .rouge_types import parse_rouge_type
from .scorer import RougeScorer, __version__
from .scoring import Score
from .shared_scorers import Record as SharedScorerRecord
from .sentence_splitting import get_splitter, split_text
from .stemmer import stem
from .native_segmenters import jieba_segmenter
from .segmenters import burmese as burmese_segment
from .snowball_stopwords import VERSION as SNOWBALL_STOPWORDS_VERSION
from .tokenization import raw_sentences
from .thread_pool import Task as ThreadPoolTask
from .undefined import UndefinedScoreWarning
from .xlsum_tokenizer import basic_tokens
from .xlsum_unicode import PYONMTTOK_VERSION

# Names pulled in above only so that evaluate copies their modules.
_SIBLINGS = (score_batch, backend, perl_bootstrap, lcs_length, ngram_counts, SMART_COMMON_WORDS, make_tokenizer, parse_rouge_type,
             Score, stem, raw_sentences, rouge_evaluation_score, score_matrix, read_tokens, resolve_language,
             LostTextWarning, hindi_stem, burmese_segment, basic_tokens, PYONMTTOK_VERSION,
             SNOWBALL_STOPWORDS_VERSION, jieba_segmenter, install_line, nltk_porter_stem, Memo,
             UndefinedScoreWarning, Flavor, Matlab, Paper, Rouge155, RougeScore, Xlsum, FLAVOR_NAMES, ThreadPoolTask,
             SharedScorerRecord, LazyPattern, python_example, count_sums)

_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    address = "Barcelona, Spain",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W04-1013",
    pages = "74--81",
}
"""

_DESCRIPTION = """\
ROUGE that reproduces ROUGE-1.5.5.pl to the printed digit by default (flavor "rouge155"): ROUGE-N,
ROUGE-L (rougeL: whole texts; rougeLsum: summary-level union LCS over sentences, one per line),
ROUGE-W, ROUGE-S and ROUGE-SU, several references (pooled as the Perl's -f A, or -f B, or the maximum),
jackknifing and the Perl's seeded bootstrap confidence intervals. Flavor "rouge_score" reproduces
Google's rouge_score (what evaluate.load("rouge") runs) exactly; flavor "paper" the ROUGE papers;
flavor "matlab" MATLAB's rougeEvaluationScore as its documentation defines it; flavor "xlsum" XL-Sum's
multilingual ROUGE (multilingual-rouge 0.0.1). lang="zh" (any of XL-Sum's 45 languages) tokenizes the
texts of flavors rouge155, paper and xlsum as XL-Sum's scorer does for that language.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predictions to score (str; sentences separated by newlines for rougeLsum).
    references: list of references, one per prediction: a str, or a list of str for several references.
    rouge_types: list of types: "rouge1".."rouge<N>", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4",
        "rougeSU4", "rougeS*", "rougeSU*"; default rouge1, rouge2, rougeL, rougeLsum.
    flavor: "rouge155" (default, ROUGE-1.5.5.pl; the first compute() that names no flavor notes once,
        as a DefaultFlavorNote warning, that evaluate's rouge gives other numbers), "rouge_score" (evaluate's rouge), "paper" (the ROUGE
        papers), "matlab" (MATLAB's rougeEvaluationScore: maximum over references, per reference
        sentence, NaN where MATLAB gives NaN — aggregates omit NaN; case-sensitive tokens) or "xlsum"
        (XL-Sum's multilingual rouge_score).
    lang: the texts' language (XL-Sum name such as "chinese_simplified", alias, or ISO 639-1 code
        such as "zh"): XL-Sum's segmenter/stemmer pipeline; None: the flavor's own (ASCII) tokenizer.
    use_stemmer: stem (Perl -m in rouge155/paper; NLTK Porter in rouge_score). Default False.
    remove_stopwords: Perl -s. word_limit / byte_limit: Perl -l / -b (prediction and references).
    multi_ref: "average" (Perl -f A), "best" (-f B), "max" (best F; flavor paper: best recall for
        ROUGE-N) or "max_rp" (flavor paper: best R and best P separately, Lin & Och 2004); default per flavor.
    jackknife: mean over leave-one-out reference sets; default per flavor (on for "paper").
    alpha: F = 1/(alpha/P + (1-alpha)/R), Perl -p (alpha = 1/(1+beta^2)). Default 0.5.
    tokenizer: flavor rouge_score only: a callable str -> list[str].
    split_sentences: how rougeLsum finds sentences: None/"newline" (default), "punkt" or "regex"
        (offline), "nltk" (installed punkt data), or a callable str -> list[str].
    use_aggregator: True (default) for corpus values, False for per-example lists.
    aggregate: "bootstrap" (default: in flavor rouge155 the Perl's printed Average_X, the mean of its
        seeded bootstrap replicates) or "mean" (the plain mean; flavors rouge_score and paper always
        report the plain mean).
    confidence_intervals: also return "<type>_low"/"<type>_high" (and _precision_/_recall_ bounds).
    return_precision_recall: True (default) returns "<type>_precision" and "<type>_recall" too; False
        returns the F-measures only (one value per rouge type: a Trainer then logs 4 metrics, not 12).
    confidence: CI level in percent (Perl -c), default 95. n_bootstrap: replicates (Perl -r), default 1000.
    n_jobs: threads that score the batch and share a large bootstrap's replicates (-1: every CPU the
        process may use); default 1. The numbers are the same for every n_jobs.
Returns:
    A flat dict of floats: "<type>" (F-measure), "<type>_precision", "<type>_recall" (and bounds;
    the F-measures alone with return_precision_recall=False);
    with use_aggregator=False the same keys hold per-example lists. Empty inputs give 0.0 (lists: []).
Examples:
    >>> import os, evaluate
    >>> rouge = evaluate.load(os.path.abspath(__file__))  # doctest: +SKIP
    >>> rouge = RougeFullMetric()
    >>> results = rouge.compute(predictions=["the cat sat on the mat"], references=["a cat sat on the mat"])
    >>> results["rouge1"], results["rouge1_recall"]
    (0.83333, 0.83333)
    >>> # paper flavor: jackknifed maximum over references, (6/10 + 3/10) / 2
    >>> result = rouge.compute(predictions=["police kill the gunman"], rouge_types=["rougeSU4"], flavor="paper",
    ...                        references=[["police killed the gunman", "the gunman was shot"]])
    >>> round(result["rougeSU4"], 5)
    0.45
    >>> rouge.compute(predictions=["the cat sat"], references=["a cat sat"], rouge_types=["rouge1", "rouge2"],
    ...               return_precision_recall=False)
    {'rouge1': 0.66667, 'rouge2': 0.5}
"""

# Engine options and their defaults; accepted at evaluate.load(...) and at compute(...).
DEFAULTS = {
    "rouge_types": None, "flavor": "rouge155", "use_stemmer": False, "remove_stopwords": False,
    "word_limit": None, "byte_limit": None, "multi_ref": None, "jackknife": None, "alpha": 0.5,
    "tokenizer": None, "split_sentences": None, "use_aggregator": True, "aggregate": "bootstrap",
    "confidence_intervals": False, "confidence": 95, "n_bootstrap": 1000, "lang": None,
}
# How many threads do the work (not what is computed).
DEFAULTS["n_jobs"] = 1
# Report options (they change which keys are returned, not the scores).
DEFAULTS["return_precision_recall"] = True
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# The options that shape the RougeScorer itself (the rest only change the report).
_SCORER_OPTIONS = ("rouge_types", "flavor", "use_stemmer", "remove_stopwords", "word_limit", "byte_limit",
                   "multi_ref", "jackknife", "alpha", "tokenizer", "lang")
_UNSET = object()


class DefaultFlavorNote(UserWarning):
    """The metric ran with flavor "rouge155" without being asked to: its numbers differ from
    ``evaluate.load("rouge")``'s under the same keys.  Shown once per process; silenced by naming a
    flavor (``flavor="rouge155"`` at load or compute time) or by
    ``warnings.filterwarnings("ignore", category=DefaultFlavorNote)``."""


DEFAULT_FLAVOR_NOTE = (
    "rouge_full_metric scores as ROUGE-1.5.5.pl by default (flavor='rouge155': the Perl's tokenizer, "
    "stemmer, multi-reference pooling and bootstrap), not as evaluate.load('rouge') (rouge_score): the "
    "same keys hold other numbers (rouge1 0.621 here, 0.716 there, on examples/data/sample.jsonl). Pass "
    "flavor='rouge_score' for evaluate's numbers; pass flavor='rouge155' (at load or compute) to keep "
    "these and silence this note, shown once.")
_noted = []   # the note is shown once per process (per copy of this module)


def _note_default_flavor(given: dict, defaults_given: bool) -> None:
    if _noted or defaults_given or given.get("flavor", _UNSET) is not _UNSET:
        return
    _noted.append(True)
    warnings.warn(DEFAULT_FLAVOR_NOTE, DefaultFlavorNote, stacklevel=3)
_EVALUATE_INIT = set(inspect.signature(evaluate.EvaluationModule.__init__).parameters) - {"self", "kwargs"}


def _plain_inputs(predictions, references) -> bool:
    """Whether every prediction is a ``str`` and the references are all ``str`` or all non-empty
    lists (or tuples) of ``str``: inputs ``_check_inputs`` accepts, found in loops that run in C
    (``compute`` checks its inputs twice, once more in ``add_batch``: 100,000 pairs with list
    references took 0.55 µs/pair a check in the Python loops).  False sends the inputs through
    those loops, which name the first bad entry (or accept ``str`` subclasses).

    >>> _plain_inputs(["a"], [["b", "c"]]), _plain_inputs(["a"], [[]]), _plain_inputs(["a"], [["b"], "c"])
    (True, False, False)
    """
    if set(map(type, predictions)) - {str}:
        return False
    kinds = set(map(type, references))
    if kinds <= {str}:
        return True
    return kinds <= {list, tuple} and all(references) and not set(map(type, chain.from_iterable(references))) - {str}


def _check_inputs(predictions, references):
    """Reject inputs evaluate would silently mangle (mixed str / list references)."""
    if predictions is None and references is None:
        return
    for name, values in (("predictions", predictions), ("references", references)):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise TypeError("%s must be a list (one entry per example), got %s" % (name, type(values).__name__))
    if len(predictions) != len(references):
        raise ValueError("predictions and references differ in length: %d vs %d" % (len(predictions), len(references)))
    if _plain_inputs(predictions, references):
        return
    for k, p in enumerate(predictions):
        if not isinstance(p, str):
            raise TypeError("predictions[%d] must be a str, got %s" % (k, type(p).__name__))
    kinds = set()
    for k, r in enumerate(references):
        if isinstance(r, str):
            kinds.add("str")
        elif isinstance(r, (list, tuple)):
            if not r:
                raise ValueError("references[%d] is an empty list: give at least one reference" % k)
            if not all(isinstance(x, str) for x in r):
                raise TypeError("references[%d] must be a list of str" % k)
            kinds.add("list")
        else:
            raise TypeError("references[%d] must be a str or a list of str, got %s" % (k, type(r).__name__))
    if len(kinds) > 1:
        raise TypeError("references mixes single strings and lists of strings; evaluate cannot store both "
                        "in one call. Wrap every single reference in a list: [[ref], [ref1, ref2], ...]")


def _check_flag(name, value):
    if not isinstance(value, bool):
        raise TypeError("%s must be True or False, got %r" % (name, value))
    return value


def _f_only(out, rouge_types):
    """The F-measure keys of a result (with their bounds), for return_precision_recall=False."""
    keep = set(rouge_types) | {t + b for t in rouge_types for b in ("_low", "_high")}
    return {k: v for k, v in out.items() if k in keep}


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RougeFullMetric(evaluate.Metric):
    """evaluate.Metric for every ROUGE variant; options given at load time become defaults."""

    def __init__(self, rouge_types=None, flavor=None, use_stemmer=False, remove_stopwords=False,
                 word_limit=None, byte_limit=None, multi_ref=None, jackknife=None, alpha=0.5, tokenizer=None,
                 split_sentences=None, use_aggregator=True, aggregate="bootstrap", confidence_intervals=False,
                 confidence=95, n_bootstrap=1000, lang=None, return_precision_recall=True, n_jobs=1, **kwargs):
        # evaluate.load() forwards unknown keyword arguments here and the base class would drop
        # them silently; a misspelt option must not quietly change nothing.
        unknown = sorted(set(kwargs) - _EVALUATE_INIT)
        if unknown:
            raise TypeError("unknown option(s) %s; rouge_full_metric options are %s"
                            % (", ".join(unknown), ", ".join(sorted(DEFAULTS))))
        # flavor=None is "rouge155", the default; only an unnamed flavor earns the DefaultFlavorNote.
        self._flavor_named = flavor is not None
        self._defaults = dict(rouge_types=rouge_types, flavor=flavor or "rouge155", use_stemmer=use_stemmer,
                              remove_stopwords=remove_stopwords, word_limit=word_limit, byte_limit=byte_limit,
                              multi_ref=multi_ref, jackknife=jackknife, alpha=alpha, tokenizer=tokenizer,
                              split_sentences=split_sentences, use_aggregator=use_aggregator, aggregate=aggregate,
                              confidence_intervals=confidence_intervals, confidence=confidence,
                              n_bootstrap=n_bootstrap, lang=lang)
        self._defaults["return_precision_recall"] = _check_flag("return_precision_recall", return_precision_recall)
        _check_n_jobs(n_jobs)
        self._defaults["n_jobs"] = n_jobs
        # Fail at load time, not at the end of a training run.
        self._scorer(self._defaults)
        super().__init__(**kwargs)

    def __getstate__(self):
        # evaluate keeps the file locks of the last compute() on the instance; they hold thread
        # locks that cannot be pickled and mean nothing in another process.
        state = self.__dict__.copy()
        state.pop("_cached_scorer", None)   # rebuilt on demand (a scorer pickles, but its engine would not travel)
        state["filelocks"] = []
        for name in ("filelock", "rendez_vous_lock"):
            if name in state:
                state[name] = None
        return state

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Sequence(datasets.Value("string", id="sequence"))}),
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Value("string", id="sequence")}),
            ],
            codebase_urls=["https://aclanthology.org/W04-1013"],
            reference_urls=["https://aclanthology.org/W04-1013", "https://github.com/google-research/google-research/tree/master/rouge"],
        )

    def _download_and_prepare(self, dl_manager):
        """Nothing to download: the stop words and the exception table ship with the code."""

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one (prediction, reference) pair to the pending examples (checked first)."""
        if prediction is not None or reference is not None:
            _check_inputs([prediction], [reference])
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of examples (checked first: evaluate would silently mangle mixed references)."""
        _check_inputs(predictions, references)
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score ``predictions`` against ``references`` (see the arguments below); empty lists give
        the documented zero result instead of evaluate's error on an empty batch."""
        _check_inputs(predictions, references)
        # Check the options now: once evaluate's compute() starts, the examples added with
        # add()/add_batch() are consumed, and a misspelt option would lose a whole evaluation.
        self._scorer(self._options(kwargs))
        if predictions is not None and len(predictions) == 0 and getattr(self, "writer", None) is None:
            # evaluate cannot store an empty batch; the documented answer needs no data.
            options = self._options(kwargs)
            return self._empty_result(options)
        result = super().compute(predictions=predictions, references=references, **kwargs)
        _note_default_flavor(kwargs, self.__dict__.get("_flavor_named", True))
        return result

    def _options(self, given):
        options = dict(self._defaults)
        unknown = sorted(set(given) - set(DEFAULTS))
        if unknown:
            raise TypeError("unknown option(s) %s; rouge_full_metric options are %s"
                            % (", ".join(unknown), ", ".join(sorted(DEFAULTS))))
        options.update({k: v for k, v in given.items() if v is not _UNSET})
        if options["rouge_types"] is None:
            options["rouge_types"] = list(DEFAULT_TYPES)
        _check_flag("return_precision_recall", options["return_precision_recall"])
        if options["aggregate"] not in ("bootstrap", "mean"):
            raise ValueError("aggregate must be 'bootstrap' or 'mean', got %r" % (options["aggregate"],))
        check_bootstrap_options(options["confidence"], options["n_bootstrap"])
        _check_n_jobs(options["n_jobs"])
        return options

    def _scorer(self, options):
        """The RougeScorer for these options, reused while they stay the same: compute() checks
        the options with it and _compute() scores with it, and its stem cache stays warm across the
        evaluations of a training run."""
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(options.items())
                    if k in _SCORER_OPTIONS)
        try:
            hash(key)
        except TypeError:  # e.g. an unhashable tokenizer object: build afresh
            key = None
        cached = self.__dict__.get("_cached_scorer")
        if key is not None and cached is not None and cached[0] == key:
            return cached[1]
        scorer = RougeScorer(options["rouge_types"] or DEFAULT_TYPES, flavor=options["flavor"],
                             use_stemmer=options["use_stemmer"], remove_stopwords=options["remove_stopwords"],
                             word_limit=options["word_limit"], byte_limit=options["byte_limit"],
                             multi_ref=options["multi_ref"], jackknife=options["jackknife"], alpha=options["alpha"],
                             tokenizer=options["tokenizer"], lang=options["lang"])
        if key is not None:
            self._cached_scorer = (key, scorer)
        return scorer

    def _empty_result(self, options):
        scorer = self._scorer(options)
        empty = [] if not options["use_aggregator"] else 0.0
        out = {}
        for t in scorer.rouge_types:
            out[t] = out[t + "_precision"] = out[t + "_recall"] = empty
            if options["use_aggregator"] and options["confidence_intervals"]:
                for stat in ("", "_precision", "_recall"):
                    out[t + stat + "_low"] = out[t + stat + "_high"] = 0.0
        return _f_only(out, scorer.rouge_types) if not options["return_precision_recall"] else out

    def _compute(self, predictions, references, rouge_types=_UNSET, flavor=_UNSET, use_stemmer=_UNSET,
                 remove_stopwords=_UNSET, word_limit=_UNSET, byte_limit=_UNSET, multi_ref=_UNSET, jackknife=_UNSET,
                 alpha=_UNSET, tokenizer=_UNSET, split_sentences=_UNSET, use_aggregator=_UNSET, aggregate=_UNSET,
                 confidence_intervals=_UNSET, confidence=_UNSET, n_bootstrap=_UNSET, lang=_UNSET,
                 return_precision_recall=_UNSET, n_jobs=_UNSET):
        options = self._options(dict(
            rouge_types=rouge_types, flavor=flavor, use_stemmer=use_stemmer, remove_stopwords=remove_stopwords,
            word_limit=word_limit, byte_limit=byte_limit, multi_ref=multi_ref, jackknife=jackknife, alpha=alpha,
            tokenizer=tokenizer, split_sentences=split_sentences, use_aggregator=use_aggregator,
            aggregate=aggregate, confidence_intervals=confidence_intervals, confidence=confidence,
            n_bootstrap=n_bootstrap, lang=lang, return_precision_recall=return_precision_recall, n_jobs=n_jobs))
        if not predictions:
            return self._empty_result(options)
        scorer = self._scorer(options)
        splitter = get_splitter(options["split_sentences"])
        if splitter is not None:
            predictions = [split_text(p, splitter) for p in predictions]
            references = [split_text(r, splitter) if isinstance(r, str) else [split_text(x, splitter) for x in r]
                          for r in references]
        if not set(map(type, references)) <= {str, list}:   # evaluate hands back lists: no copy then (0.35 us/pair)
            references = [r if isinstance(r, str) else list(r) for r in references]
        out = {}
        if not options["use_aggregator"]:
            table = batch_table(scorer, predictions, references, n_jobs=options["n_jobs"])   # each type's P, R, F
            for ti, t in enumerate(scorer.rouge_types):
                out[t] = table[:, 3 * ti + 2].tolist()
                out[t + "_precision"] = table[:, 3 * ti].tolist()
                out[t + "_recall"] = table[:, 3 * ti + 1].tolist()
            return _f_only(out, scorer.rouge_types) if not options["return_precision_recall"] else out
        if not options["confidence_intervals"] and (options["aggregate"] == "mean" or not scorer.rules.mid_from_bootstrap):
            # Nothing asked for needs the bootstrap: unless the flavor's mid is the bootstrap's
            # (rouge155: the Perl's Average_X), the reported average is the plain mean (mean_scores:
            # corpus_means of score_batch's result, without its Python objects).
            for t, score in scorer.mean_scores(predictions, references, options["n_jobs"]).items():
                out[t], out[t + "_precision"], out[t + "_recall"] = (float(score.fmeasure), float(score.precision),
                                                                     float(score.recall))
            return _f_only(out, scorer.rouge_types) if not options["return_precision_recall"] else out
        # score_corpus's aggregate, without the per-example results and statistics it also returns
        jobs = options["n_jobs"]
        aggregate = table_aggregate(scorer, batch_table(scorer, predictions, references, n_jobs=jobs),
                                    options["confidence"], int(options["n_bootstrap"]), jobs)
        pick = "mean" if options["aggregate"] == "mean" else "mid"
        for t, agg in aggregate.items():
            for suffix, stat in (("", agg.fmeasure), ("_precision", agg.precision), ("_recall", agg.recall)):
                out[t + suffix] = float(getattr(stat, pick))
                if options["confidence_intervals"]:
                    out[t + suffix + "_low"] = float(stat.low)
                    out[t + suffix + "_high"] = float(stat.high)
        return _f_only(out, scorer.rouge_types) if not options["return_precision_recall"] else out

    def signature(self, **options) -> str:
        """The engine's signature for these options (defaults from load time).

        >>> RougeFullMetric(use_stemmer=True).signature()
        'flavor:rouge155|stem:yes|stop:no|limit:none|multi:average|jk:no|alpha:0.5|ci:95/1000|v:0.1.0'
        """
        opts = self._options(options)
        return self._scorer(opts).signature(opts["confidence"], opts["n_bootstrap"])


__all__ = ["RougeFullMetric", "__version__"]
