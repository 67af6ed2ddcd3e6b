"""``RougeScorer``: every ROUGE variant, per example and per corpus.

Flow (as sacreBLEU's): text -> the Perl's two readers (:mod:`.tokenization`) -> per-reference
sufficient statistics for each rouge type (:class:`.scoring.PairStats`) -> a Score per example
(``multi_ref``, ``jackknife``) -> corpus aggregate (:mod:`.corpus`, the Perl's bootstrap).  The
compiled core runs the first three steps (:mod:`.batch`); :mod:`.python_engine` is the same in
Python, the reference the core is tested against.

A flavor's rules (defaults, accepted options, tokenizers, rounding, F, multi-reference and NaN
rules, corpus ``mid``, engines) live in its own module, ``flavor_<name>.py``, found through
:mod:`.flavors`; this module reads them from ``self.rules`` and never tests a flavor's name.
A scorer *is* its options: pickling, ``copy`` and dill carry the options only, and the
tokenizers and compiled engines built from them are rebuilt on first use (never serialized).
"""
from __future__ import annotations

import _thread
import sys

from .batch import check_corpus_inputs, compiled_scorer, is_real, is_whole, score_batch
from . import flavors, shared_scorers
from .flavor_base import MULTI_REF
from .rouge_types import parse_rouge_type
from .scoring import Score, mean_score

# typing only for type checkers: with re, enum and functools, which it imports, it was over half
# of what importing the package cost a new process (tests/test_startup.py keeps them out)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Sequence, Union

    from .corpus import CorpusResult

    Text = Union[str, bytes, Sequence[Union[str, bytes]]]

__version__ = "0.1.0"

FLAVORS = flavors.NAMES


def _check_bool(name: str, value, allow_none: bool = False):
    if value is None and allow_none:
        return value
    if not isinstance(value, bool):
        raise TypeError("%s must be True or False%s, got %r"
                        % (name, " (or None for the flavor's default)" if allow_none else "", value))
    return value


def _check_limit(name: str, value) -> Optional[int]:
    if value is None:
        return None
    if not is_whole(value):
        raise TypeError("%s must be a whole number or None, got %r" % (name, value))
    if value < 0:
        raise ValueError("%s must be >= 0 (0 or None means no limit), got %r" % (name, value))
    if value > sys.maxsize:   # the compiled core counts in a C ssize_t
        raise ValueError("%s must be at most %d (sys.maxsize), got %r" % (name, sys.maxsize, value))
    return int(value) or None


# Options are read once, into the token filter, the tokenizer and the compiled engine: an option
# changed afterwards would be half-applied (issue 12, R7), so they are read-only.
_READ_ONLY_MESSAGE = ("RougeScorer options are fixed at construction: cannot change %r afterwards "
                      "(it would be applied by one engine and not the other); build a new "
                      "RougeScorer(..., %s=...) instead")


def _read_only_after(init):
    """Wrap ``RougeScorer.__init__``: once it returns, setting or deleting an attribute raises
    AttributeError (``__setstate__`` sets the read-only mark itself)."""
    def wrapper(self, *args, **kwargs):
        init(self, *args, **kwargs)
        object.__setattr__(self, "_read_only", True)

    wrapper.__doc__, wrapper.__name__, wrapper.__qualname__ = init.__doc__, init.__name__, init.__qualname__
    wrapper.__wrapped__ = init
    return wrapper


_MISSING = object()

# The options shared_scorers keys on besides rouge_types and alpha, in this order.
_KEYED = ("flavor", "use_stemmer", "remove_stopwords", "word_limit", "byte_limit", "multi_ref", "jackknife",
          "tokenizer", "lang", "split_summaries")

# What a scorer pickles (its whole state): the options as validated, in RougeScorer's order.
_OPTIONS = ("rouge_types", "flavor", "use_stemmer", "remove_stopwords", "word_limit", "byte_limit",
            "multi_ref", "jackknife", "alpha", "tokenizer", "lang", "split_summaries")

# Serializes the first build of a scorer's readers (two threads would build the same thing twice).
_build_lock = _thread.allocate_lock()   # threading's Lock, without importing threading


def _reader(key: str, doc: str):
    """A read-only attribute built from the options on first use (``RougeScorer._readers``)."""
    def get(self):
        return self._readers().get(key)
    return property(get, doc=doc)


class RougeScorer:
    """Score predictions against references with any ROUGE variant.

    Args:
        rouge_types: names such as ``"rouge1"``, ``"rouge2"``, ``"rougeL"`` (LCS of the whole texts),
            ``"rougeLsum"`` (summary-level union LCS over sentences, the Perl's ROUGE-L),
            ``"rougeW-1.2"``, ``"rougeS4"``, ``"rougeSU4"``, ``"rougeS*"``.
        flavor: ``"rouge155"`` (default): bit-exact with ROUGE-1.5.5.pl; ``"paper"``: the ROUGE
            papers' definitions (maximum over references — by recall for ROUGE-N, by F for the
            F-measures —, jackknifing, f⁻¹-normalized ROUGE-W with w > 1, SU with every unigram,
            union LCS clipped by the candidate's word counts so that P <= 1); ``"rouge_score"``:
            Google's rouge_score 0.1.2 as ``evaluate.load("rouge")`` uses it (rouge<N>, rougeL,
            rougeLsum only); ``"matlab"``: MATLAB's ``rougeEvaluationScore`` as its documentation
            defines it (see :mod:`.matlab`; a list of words is one document there, NaN where
            MATLAB returns NaN, pure Python); ``"xlsum"``: XL-Sum's multilingual scorer
            (``multilingual-rouge`` 0.0.1) with ``lang`` (rouge<N>, rougeL, rougeLsum only; see
            :mod:`.xlsum_tokenizer` for its quirks).
        use_stemmer: Perl ``-m`` (Porter with Lin's step 4 plus the WordNet-2.0 exceptions).
        remove_stopwords: Perl ``-s`` (the SMART list, tested before stemming).
        word_limit / byte_limit: Perl ``-l`` / ``-b``, applied to the prediction *and* the references.
        multi_ref: ``"average"`` (Perl ``-f A``, pooled counts), ``"best"`` (Perl ``-f B``, the
            reference with the best recall), ``"max"`` (the reference with the best F; in flavor
            paper the best recall for ROUGE-N), ``"max_rp"`` (flavor paper only: Lin & Och 2004
            eqs. 7-9, the best recall and the best precision taken separately, then F); ``None``
            takes the flavor's default (``average`` for rouge155, ``max`` otherwise).
        jackknife: average over the M leave-one-out reference sets (M >= 2); ``None`` takes the
            flavor's default (off for rouge155, on for paper).
        alpha: Perl ``-p``: F = 1 / (alpha/P + (1-alpha)/R); 0.5 is the harmonic mean.
        tokenizer: flavor ``rouge_score`` only: a callable ``str -> list[str]`` (or an object with
            ``tokenize``) replacing rouge_score's default tokenizer and stemmer.
        lang: one of XL-Sum's 45 languages (name, alias or ISO 639-1 code, see :mod:`.languages`).
            Flavor ``xlsum`` tokenizes as XL-Sum's scorer does for it (None: its default path);
            flavors ``rouge155`` and ``paper`` tokenize each line with that pipeline (stemmed by
            the language's stemmer with ``use_stemmer``) and compute every variant on those
            tokens, ``word_limit`` counting tokens; None keeps the Perl's byte tokenizer.
        split_summaries: flavor ``rouge_score`` only, as in rouge_score: ``rougeLsum``'s sentences
            are those ``nltk.sent_tokenize`` finds in each text, not its lines (needs NLTK's punkt
            model installed; it is never downloaded). Other types read the texts as before.

    >>> scorer = RougeScorer(["rouge1", "rougeLsum"])
    >>> scorer.score("police kill the gunman", "police killed the gunman")["rougeLsum"]
    Score(precision=0.75, recall=0.75, fmeasure=0.75)
    """

    @_read_only_after
    def __init__(self, rouge_types: Union[str, Sequence[str]] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
                 flavor: str = "rouge155", use_stemmer: bool = False, remove_stopwords: bool = False,
                 word_limit: Optional[int] = None, byte_limit: Optional[int] = None,
                 multi_ref: Optional[str] = None, jackknife: Optional[bool] = None, alpha: float = 0.5,
                 tokenizer=None, lang=None, split_summaries: bool = False):
        # what the last scorer of these very options built (see shared_scorers); the options
        # besides rouge_types and alpha in _KEYED's order, as _state_key puts a pickled state's
        key = shared_scorers.key_of(rouge_types, alpha, (flavor, use_stemmer, remove_stopwords, word_limit, byte_limit,
                                                         multi_ref, jackknife, tokenizer, lang, split_summaries)
                                    ) if type(self) is RougeScorer else None
        if self._share(key):
            if self.__dict__["_built"] is None:   # a record an unpickled scorer made: see below
                self._readers()
            return
        self._configure(dict(rouge_types=rouge_types, flavor=flavor, use_stemmer=use_stemmer,
                             remove_stopwords=remove_stopwords, word_limit=word_limit, byte_limit=byte_limit,
                             multi_ref=multi_ref, jackknife=jackknife, alpha=alpha, tokenizer=tokenizer,
                             lang=lang, split_summaries=split_summaries))
        # Built now so that a missing package or a bad tokenizer fails here, not at the first score
        # (after pickling they are rebuilt on first use).
        self._readers()
        self._remember(key)

    # ----------------------------------------------------------------------------- shared parts
    def _state_key(self, state: dict) -> Optional[tuple]:
        """The shared_scorers key of a pickled state (None: this scorer shares nothing; a
        subclass never does, as it may build differently)."""
        if type(self) is not RougeScorer:
            return None
        try:
            return shared_scorers.key_of(state["rouge_types"], state["alpha"], tuple(
                state.get(name, False) if name == "split_summaries" else state[name] for name in _KEYED))
        except KeyError:   # a state without an option: _configure says which
            return None

    def _share(self, key: Optional[tuple]) -> bool:
        """Take what the last scorer of these options built (its record's state), if there is one."""
        record = shared_scorers.find(key)
        if record is None:
            return False
        a = self.__dict__
        a.update(record.state)
        a["types"], a["rouge_types"] = list(a["types"]), list(a["rouge_types"])   # the caller's to change
        a["_shared"] = record
        return True

    def _remember(self, key: Optional[tuple]) -> None:
        """Make this scorer's state the record of ``key`` for the next scorers of its options."""
        if key is not None:
            a = self.__dict__
            a["_shared"] = shared_scorers.remember(key, dict(a, types=list(a["types"]),
                                                                rouge_types=list(a["rouge_types"])))

    def _configure(self, options: dict) -> None:
        """Validate ``options`` into this scorer's attributes (construction and unpickling)."""
        rouge_types, flavor, multi_ref, jackknife, alpha, tokenizer, lang = (
            options["rouge_types"], options["flavor"], options["multi_ref"], options["jackknife"],
            options["alpha"], options["tokenizer"], options["lang"])
        if isinstance(rouge_types, str):
            rouge_types = [rouge_types]
        if not isinstance(rouge_types, (list, tuple)):
            raise TypeError("rouge_types must be a list of rouge type names, got %r" % (rouge_types,))
        if not rouge_types:
            raise ValueError("rouge_types is empty: name at least one type, e.g. ['rouge1']")
        # Written into __dict__ directly: the read-only __setattr__ is not armed yet, and going
        # through it cost 17 Python calls, a fifth of building a scorer.
        a = self.__dict__
        types = [parse_rouge_type(t) for t in rouge_types]
        a["types"] = list({t.name: t for t in types}.values())
        a["rouge_types"] = [t.name for t in self.types]
        rules = a["rules"] = flavors.get(flavor)
        a["flavor"] = flavor
        a["use_stemmer"] = _check_bool("use_stemmer", options["use_stemmer"])
        a["remove_stopwords"] = _check_bool("remove_stopwords", options["remove_stopwords"])
        a["word_limit"] = _check_limit("word_limit", options["word_limit"])
        a["byte_limit"] = _check_limit("byte_limit", options["byte_limit"])
        if self.word_limit and self.byte_limit:
            raise ValueError("word_limit and byte_limit cannot both be set (the Perl's -l and -b "
                             "exclude each other), got %r and %r" % (options["word_limit"], options["byte_limit"]))
        if multi_ref is None:
            multi_ref = rules.multi_ref
        if multi_ref not in MULTI_REF:
            raise ValueError("multi_ref must be one of %s, got %r" % (", ".join(MULTI_REF), multi_ref))
        a["multi_ref"] = multi_ref
        jackknife = _check_bool("jackknife", jackknife, allow_none=True)
        a["jackknife"] = rules.jackknife if jackknife is None else jackknife
        a["tokenizer"] = tokenizer
        # .get: a scorer pickled before the option existed has none
        a["split_summaries"] = _check_bool("split_summaries", options.get("split_summaries", False))
        if self.split_summaries and not rules.splits_summaries:
            raise ValueError("split_summaries is an option of flavor 'rouge_score' (rouge_score's "
                             "nltk.sent_tokenize before rougeLsum); flavor %r reads rougeLsum's sentences "
                             "from the lines of a text: put one sentence on each line (see "
                             "rouge_full_metric.sentence_splitting)" % (flavor,))
        rules.check(self)
        if not is_real(alpha) or not 0 <= alpha <= 1:
            raise ValueError("alpha must be a number in [0, 1] (0 = recall, 1 = precision), got %r" % (alpha,))
        a["alpha"] = float(alpha)
        a["_rounded"] = rules.rounded
        a["_rouge_score_f"] = rules.rouge_score_f and self.alpha == 0.5
        a["_needs_sentences"] = any(t.kind in ("Lsum", "W") for t in self.types)
        if lang is None:
            a["language"] = None
        else:
            # imported here: languages and their pipelines (segmenters, stemmers, XL-Sum's
            # tokenizer tables) are for scorers with lang= only
            from . import languages
            a["language"] = languages.resolve(lang)
        a["lang"] = self.language.name if self.language is not None else None
        rules.check_reading(self)
        a["_built"] = None   # the readers, built by _readers() on first use

    def _readers(self) -> dict:
        """The tokenizers and token filter of the options (``self.rules.readers``), built once
        per scorer and process, or once per shared_scorers record (a record an unpickled scorer
        made holds none until one of its scorers builds them): never pickled, never shared with
        a copy."""
        built = self.__dict__["_built"]
        if built is None:
            with _build_lock:
                built = self.__dict__["_built"]
                if built is None:
                    built = self.__dict__["_built"] = self.rules.readers(self)
                    record = self.__dict__.get("_shared")
                    if record is not None and record.state["_built"] is None:
                        record.state["_built"] = built
        return built

    _token_filter = _reader("token_filter", "The Perl's stop words and stemmer, memoized (:mod:`.tokenization`).")
    _rs_tokenize = _reader("rs_tokenize", "rouge_score's (or XL-Sum's) tokenizer of a whole text, or None.")
    _rs_sentence_tokenize = _reader("rs_sentence_tokenize", "XL-Sum's rougeLsum sentence tokenizer, or None.")
    _lang_tokenize = _reader("lang_tokenize", "A language's tokens of one line (rouge155/paper with lang), or None.")
    _rs_split = _reader("rs_split", "rougeLsum's sentences of a text with split_summaries (nltk.sent_tokenize), or None.")

    # ----------------------------------------------------------------------------- pickling, copy
    def __getstate__(self) -> dict:
        """The options only: what was built from them (tokenizers, segmenters holding C objects,
        compiled engines) is rebuilt on first use wherever the scorer arrives.  ``split_summaries``
        only when set: other scorers pickle the state they did before the option came."""
        state = {name: getattr(self, name) for name in _OPTIONS}
        if not state["split_summaries"]:
            del state["split_summaries"]
        return state

    def __setstate__(self, state: dict) -> None:
        # a scorer arriving in a process (a spawn pool's task, a Spark task) shares with the ones
        # of its options that came before it; its tokenizers are still built on first use
        key = self._state_key(state)
        if not self._share(key):
            self._configure(state)
            self._remember(key)
        object.__setattr__(self, "_read_only", True)

    # ----------------------------------------------------------------------------- read-only options
    def __setattr__(self, name, value):
        if self.__dict__.get("_read_only"):
            raise AttributeError(_READ_ONLY_MESSAGE % (name, name))
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if self.__dict__.get("_read_only"):
            raise AttributeError(_READ_ONLY_MESSAGE % (name, name))
        object.__delattr__(self, name)

    # ----------------------------------------------------------------------------- signature
    def signature(self, confidence: float = 95, n_bootstrap: int = 1000) -> str:
        """Every option behind the numbers, for reports (as sacreBLEU's signatures).

        >>> RougeScorer("rouge1", use_stemmer=True).signature()
        'flavor:rouge155|stem:yes|stop:no|limit:none|multi:average|jk:no|alpha:0.5|ci:95/1000|v:0.1.0'
        """
        limit = ("words:%d" % self.word_limit if self.word_limit else
                 "bytes:%d" % self.byte_limit if self.byte_limit else "none")
        return "|".join([
            "flavor:" + self.flavor, "stem:" + ("yes" if self.use_stemmer else "no"),
            "stop:" + ("yes" if self.remove_stopwords else "no"), "limit:" + limit,
            "multi:" + self.multi_ref, "jk:" + ("yes" if self.jackknife else "no"),
            "alpha:%g" % self.alpha, "ci:%g/%d" % (confidence, n_bootstrap)]
            + (["tok:custom"] if self.tokenizer is not None else [])
            + (["split:nltk"] if self.split_summaries else []) + self.rules.signature(self)
            + ["v:" + __version__])

    def __repr__(self):
        return "RougeScorer(rouge_types=%r, %s)" % (self.rouge_types, self.signature())

    # ----------------------------------------------------------------------------- the Python engine
    def _example(self, prediction: Text, references, index: Optional[int] = None):
        """``(statistics, scores)`` of one example by the pure-Python engine (:mod:`.python_engine`,
        imported on first use: the compiled core's scorers never need it)."""
        from .python_engine import example

        return example(self, prediction, references, index)

    # ----------------------------------------------------------------------------- public API
    def score(self, prediction: Text = _MISSING, references=_MISSING, *, target=_MISSING,
              reference=_MISSING) -> Dict[str, Score]:
        """Score one prediction against one or more references.

        ``prediction`` is a str (sentences separated by ``\\n``), bytes, or a list of sentences;
        ``references`` is one str/bytes text or a list of texts (so a single reference given as
        a list of sentences is written ``[["sentence 1", "sentence 2"]]``).  Returns {rouge_type: Score}; in flavor
        ``rouge155`` the values are those ``ROUGE-1.5.5.pl -d`` prints (5 decimals).

        The order is the **reverse** of rouge_score's ``score(target, prediction)``: code ported
        from it should name both, ``score(target=..., prediction=...)`` (``target=`` and
        ``reference=`` are accepted as names of ``references``), which reads the same in both.

        >>> RougeScorer(["rouge2"]).score("a b c d", ["a b x", "b c"])["rouge2"]
        Score(precision=0.33333, recall=0.66667, fmeasure=0.44444)
        >>> RougeScorer(["rouge2"]).score(target=["a b x", "b c"], prediction="a b c d")["rouge2"]
        Score(precision=0.33333, recall=0.66667, fmeasure=0.44444)

        A flat list is several references; one reference in sentences is a list inside the list
        (or one text with ``\\n`` between its sentences).  The two differ (docs/inputs.md):

        >>> scorer = RougeScorer(["rouge1"])
        >>> scorer.score("a b", ["a b", "c d"])["rouge1"]     # two references, pooled (Perl -f A)
        Score(precision=0.5, recall=0.5, fmeasure=0.5)
        >>> scorer.score("a b", [["a b", "c d"]])["rouge1"]   # one reference of two sentences
        Score(precision=1.0, recall=0.5, fmeasure=0.66667)
        >>> scorer.score("a b", ["a b\\nc d"])["rouge1"]      # the same reference as one text
        Score(precision=1.0, recall=0.5, fmeasure=0.66667)
        """
        if target is _MISSING and reference is _MISSING and references is not _MISSING and prediction is not _MISSING:
            refs = references   # the usual call, without building the list below (short pairs feel it)
        else:
            given = [(name, value) for name, value in (("references", references), ("target", target),
                                                        ("reference", reference)) if value is not _MISSING]
            if len(given) > 1:
                raise TypeError("score() got %s: they name the same argument (target= is rouge_score's name "
                                "for the references); give one" % " and ".join("%s=" % n for n, _ in given))
            if prediction is _MISSING or not given:
                raise TypeError("score() needs the prediction and the references: score(prediction, references), "
                                "or by name score(prediction=..., references=...) (target= also names the "
                                "references)")
            refs = given[0][1]
        # texts that surely keep their letters (ASCII ones, English with curly quotes) skip the
        # check's machinery; str subclasses too (numpy's str_, the elements of a string array).
        # ASCII texts do without even importing it (lost_text)
        if not (isinstance(prediction, str) and prediction.isascii()
                and (refs.isascii() if isinstance(refs, str) else _ascii_list(refs))):
            from .lost_text import keeps_letters

            if not (isinstance(prediction, str) and isinstance(refs, str)
                    and keeps_letters(prediction) and keeps_letters(refs)):
                self._check_lost([prediction], [refs], single=True)
        cs = compiled_scorer(self)
        if cs is not None:
            try:
                return cs.scores_of(prediction, refs)
            except (TypeError, ValueError, UnicodeError):
                pass   # input the core does not take: the Python engine scores it or names the error
        return self._example(prediction, refs)[1]

    def score_multi(self, targets: Sequence[Text], prediction: Text) -> Dict[str, Score]:
        """rouge_score's (and rouge-score-rs's) ``score_multi(targets, prediction)``, in their
        argument order, for code ported from them: ``score(prediction, list(targets))``.  In flavor
        ``rouge_score`` that is their rule, the reference with the best F for each type; other
        flavors combine references by their ``multi_ref``.

        >>> scorer = RougeScorer(["rouge1"], flavor="rouge_score")
        >>> scorer.score_multi(["police killed the gunman", "the gunman died"], "police kill the gunman")["rouge1"]
        Score(precision=0.75, recall=0.75, fmeasure=0.75)
        """
        if isinstance(targets, (str, bytes, bytearray)):
            raise TypeError("score_multi(targets, prediction): targets must be a list of reference texts, got "
                            "one text (score(prediction, reference) scores a single reference)")
        return self.score(prediction, list(targets))

    def score_batch(self, predictions: Sequence[Text], references: Sequence, n_jobs: int = 1) -> List[Dict[str, Score]]:
        """``[self.score(p, r) for p, r in zip(predictions, references)]``, many pairs per call.

        With the compiled core (``rouge_full_metric.compiled.backend() == "compiled"``) the batch is
        scored in C with the GIL released, ``n_jobs`` threads sharing it (-1: every CPU the process
        may use; never more threads than those CPUs); without it the pure-Python engine gives
        identical results.

        >>> RougeScorer(["rouge1"]).score_batch(["a b", "c"], ["a b c", ["c", "d"]])[1]["rouge1"]
        Score(precision=0.5, recall=0.5, fmeasure=0.5)
        """
        if type(predictions) not in (list, tuple) or type(references) not in (list, tuple):
            # e.g. a pandas Series, read once (and not consumed by _check_lost, if a generator)
            predictions, references = check_corpus_inputs(predictions, references)
        self._check_lost(predictions, references)
        return score_batch(self, predictions, references, n_jobs)

    def score_matrix(self, texts_a: Sequence[Text], texts_b: Optional[Sequence[Text]] = None,
                     measure: str = "fmeasure", n_jobs: int = 1, rouge_type: Optional[str] = None,
                     max_bytes: Optional[int] = None):
        """numpy array ``M[i, j] = self.score(texts_a[i], [texts_b[j]])[rouge_type].<measure>``.

        ``texts_a[i]`` is the prediction, ``texts_b[j]`` the reference (flavor ``rouge_score``:
        ``rouge_score``'s ``score(target=texts_b[j], prediction=texts_a[i])``); ``texts_b=None``
        scores ``texts_a`` against itself; a text given as a list of sentences is one text.
        ``measure``: ``"fmeasure"``, ``"precision"`` or
        ``"recall"``; ``rouge_type`` is required when the scorer has several types.  See
        :mod:`.pairwise` for the algorithms (compiled core, ``n_jobs`` threads).  A matrix over
        ``max_bytes`` (default ``pairwise.MAX_MATRIX_BYTES``, 1 GiB) is refused before allocation.

        >>> RougeScorer(["rougeL"]).score_matrix(["a b c", "c b a"]).tolist()
        [[1.0, 0.33333], [0.33333, 1.0]]
        """
        from .pairwise import score_matrix
        return score_matrix(self, texts_a, texts_b, measure, n_jobs, rouge_type, max_bytes=max_bytes)

    def filter_near_duplicates(self, texts: Sequence[Text], threshold: float, rouge_type: str = "rougeL",
                               measure: str = "fmeasure", n_jobs: int = 1):
        """Near-duplicate filtering as in Self-Instruct: texts are taken in order and one is
        dropped when its ``rouge_type`` score against a kept text is ``>= threshold`` (the new text
        is the reference, the kept one the prediction).  Returns a
        :class:`.pairwise.NearDuplicates` (``kept``, ``dropped``, ``matched``, ``scores``).

        >>> r = RougeScorer("rougeL").filter_near_duplicates(["a b c d", "a b c e", "x y"], 0.7)
        >>> r.kept, r.dropped, r.matched, r.scores
        ([0, 2], [1], [0], [0.75])
        """
        from .pairwise import filter_near_duplicates
        return filter_near_duplicates(self, texts, threshold, rouge_type, measure, n_jobs)

    def human_ceiling(self, references) -> Dict[str, Score]:
        """How well humans agree: each reference scored against the other M-1, averaged.

        This is the number jackknifed system scores are compared with (Lin 2004 §2.1).  It needs
        at least two references.

        >>> RougeScorer(["rouge1"]).human_ceiling(["a b c", "a b d", "a c d"])["rouge1"]
        Score(precision=0.66667, recall=0.66667, fmeasure=0.66667)
        """
        from .python_engine import reference_list

        refs = reference_list(references, "references")
        if len(refs) < 2:
            raise ValueError("human_ceiling needs at least 2 references, got %d" % len(refs))
        plain = RougeScorer(self.rouge_types, flavor=self.flavor, use_stemmer=self.use_stemmer,
                            remove_stopwords=self.remove_stopwords, word_limit=self.word_limit,
                            byte_limit=self.byte_limit, multi_ref=self.multi_ref, jackknife=False,
                            alpha=self.alpha, tokenizer=self.tokenizer, lang=self.lang)
        per_ref = [plain.score(refs[k], refs[:k] + refs[k + 1:]) for k in range(len(refs))]
        return {t: mean_score([s[t] for s in per_ref]) for t in self.rouge_types}

    def score_corpus(self, predictions: Sequence[Text], references: Sequence, confidence: float = 95,
                     n_bootstrap: int = 1000, ids: Optional[Sequence] = None,
                     system_id: str = "A", n_jobs: int = 1) -> CorpusResult:
        """Score a whole system: per-example scores plus the system-level average and its CI.

        In flavor ``rouge155`` ``mid``/``low``/``high`` are exactly ROUGE-1.5.5.pl's ``Average_X``
        and confidence bounds: the bootstrap mean over ``n_bootstrap`` replicates drawn with the
        Perl's seeded generator over the instance keys "<id>.<system_id>" sorted as strings, where
        the ids are "1".."N" in input order unless ``ids`` gives the EVAL IDs.  ``mean`` is the
        plain mean.  In flavors ``paper`` and ``rouge_score`` ``mid`` is the plain mean.  An empty
        corpus gives zeros, as the Perl prints for a system with no instances.  ``n_jobs`` as in
        :meth:`score_batch`; a large bootstrap (examples x ``n_bootstrap`` from 10 million) shares
        its replicates between the threads too.

        >>> r = RougeScorer(["rouge1"]).score_corpus(["a b", "c d", "a b c"], ["a b", "e f", "a b d e"])
        >>> r.aggregate["rouge1"].recall
        Stat(low=0.0, mid=0.50067, high=1.0, mean=0.5)
        >>> r.engine in ("compiled", "python")
        True
        """
        from .corpus import score_corpus

        return score_corpus(self, predictions, references, confidence, n_bootstrap, ids, system_id, n_jobs)

    def _check_lost(self, predictions, references, single: bool = False, stacklevel: int = 4) -> None:
        """Warn (:class:`.lost_text.LostTextWarning`) when an ASCII-only tokenizer drops most of a
        text's letters; ``lang`` pipelines and custom tokenizers keep every letter.  ``stacklevel``
        as ``warnings.warn`` counts it from :func:`.lost_text.warn`: 4 names the code that called
        this method's caller."""
        rules = self.rules
        if self.language is not None or rules.lost_text_tokenizer is None or self.tokenizer is not None:
            return
        from . import lost_text

        try:
            found = lost_text.first_lost(predictions, references, single, rules.lost_text_rouge_score)
        except TypeError:   # malformed input: the scoring code raises the precise error
            return
        if found is not None:
            lost_text.warn(found, rules.lost_text_tokenizer, stacklevel=stacklevel)

    def corpus_means(self, per_example) -> Dict[str, Score]:
        """The plain mean of per-example scores (``score_batch``'s result) per type: what
        :meth:`score_corpus` reports as ``mean``, without its bootstrap; flavor matlab leaves NaN
        out.

        >>> s = RougeScorer(["rouge1"])
        >>> s.corpus_means(s.score_batch(["a b", "c d"], ["a b", "e f"]))["rouge1"]
        Score(precision=0.5, recall=0.5, fmeasure=0.5)
        """
        from .corpus import corpus_means

        return corpus_means(self, per_example)

    def mean_scores(self, predictions: Sequence[Text], references: Sequence, n_jobs: int = 1) -> Dict[str, Score]:
        """``corpus_means(score_batch(predictions, references, n_jobs))``, the same floats, without
        building a Python result per example where the compiled core scores the batch; ``n_jobs``
        as in :meth:`score_batch`.

        >>> RougeScorer(["rouge1"]).mean_scores(["a b", "c d"], ["a b", "e f"])["rouge1"]
        Score(precision=0.5, recall=0.5, fmeasure=0.5)
        """
        from .corpus import mean_scores

        return mean_scores(self, predictions, references, n_jobs)


def _ascii_list(references) -> bool:
    """Whether ``references`` is a list (or tuple) of ASCII str."""
    return type(references) in (list, tuple) and all(isinstance(r, str) and r.isascii() for r in references)


def __getattr__(name):
    # The corpus-level classes and the bootstrap's option check live in .corpus, imported when
    # asked for (a scorer and its pairs never need them); scorer.Stat and the others were their
    # names before, and pickles made then name them so.
    if name in ("Stat", "AggregateScore", "CorpusResult", "check_bootstrap_options"):
        from . import corpus

        return getattr(corpus, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
