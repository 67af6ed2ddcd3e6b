"""Scoring many examples per call: the compiled core when it is built, the pure-Python engine
(:mod:`.python_engine`) otherwise, with identical results either way.

The compiled core tokenizes, counts and matches a whole batch with the GIL released; with
``n_jobs`` > 1 the calling thread and up to ``n_jobs - 1`` pool threads, each driving its own core
``Worker`` (token cache and scratch buffers), take chunks of one shared batch (``csrc/parallel.c``;
only the calling thread builds Python objects, so the others never wait for the GIL).  A Worker resolves each distinct token it meets once and caches the answer: in flavors
``rouge155`` and ``paper`` the core applies the stop words and the ROUGE-1.5.5 stemmer itself
(:mod:`.tokenization`, :mod:`.stemmer` ported to C, same tables), in flavor ``rouge_score`` NLTK's
Porter stemmer (:mod:`.nltk_porter`), otherwise, and for any token not made of ``[a-z0-9]``, it
calls the Python token filter (or rouge_score's tokenizer).

>>> from rouge_full_metric import RougeScorer
>>> from rouge_full_metric.batch import score_batch
>>> scores = score_batch(RougeScorer(["rouge1", "rougeL"]), ["the cat sat", "a dog"], ["the cat sat down", ["a dog", "dogs"]])
>>> scores[0]["rouge1"]
Score(precision=1.0, recall=0.75, fmeasure=0.85714)
>>> scores[1]["rougeL"].recall
0.66667
"""
from __future__ import annotations

import _thread
import os

from . import compiled, shared_scorers
from .lazy_re import Pattern
from .scoring import PairStats, Score

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Sequence, Tuple

# Examples per task when several threads share a batch through Python (a scorer that tokenizes
# in Python, pairwise rows use their own): big enough that the per-call overhead vanishes, small
# enough that the threads finish together.  The core's own batches (Engine.batch) size their
# chunks by bytes, shrinking as the batch drains.
_CHUNK = 256
# Fewer examples than this are scored on the calling thread alone: starting a helper costs more.
_PARALLEL_MIN = 32

# A scorer's compiled form is kept in its __dict__ as (_generation, _CompiledScorer or None): its
# options are fixed at construction (RougeScorer refuses changes), and pickling or copying one
# takes its options alone (RougeScorer.__getstate__), never the core objects.  A dict lookup, where
# the WeakKeyDictionary before it cost 0.19 us a call, an eighth of a short pair's score().
_generation = 0


def _after_fork_in_child():
    """A forked child has none of its parent's threads (thread_pool starts a pool of its own), and
    a Worker a parent thread was running stays busy: the child rebuilds its compiled scorers from
    their options."""
    global _generation
    _generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def backend() -> str:
    """The engine that scores: ``"compiled"`` or ``"python"`` (see :mod:`.compiled`).

    >>> backend() in ("compiled", "python")
    True
    """
    return compiled.backend()


class _CompiledScorer:
    """A RougeScorer's options compiled into a core Engine, plus a pool of Workers."""

    def __init__(self, engine, spare: Optional[List[object]] = None):
        self.engine = engine
        self._free: List[object] = []
        # idle Workers shared with the other scorers of the same options (shared_scorers)
        self.spare = spare

    # list.pop and list.append are atomic (under the GIL, and under free threading's per-object
    # locks), so the pool needs no lock of its own: one cost 0.5 us a call, a third of a short
    # pair's whole score().
    def acquire(self):
        try:
            return self._free.pop()
        except IndexError:
            pass
        if self.spare:
            try:
                return self.spare.pop()
            except IndexError:   # another thread took the last one
                pass
        return self.engine.worker()

    def __del__(self):
        # a dropped scorer's Workers, their token caches warm, for the next scorer of its options
        try:
            spare, free = self.spare, self._free
            while spare is not None and free and len(spare) < shared_scorers.SPARE_WORKERS:
                spare.append(free.pop())
        except Exception:   # noqa: BLE001 - at interpreter exit the module may be gone already
            pass

    def release(self, worker):
        self._free.append(worker)

    def scores_of(self, prediction, references) -> Dict[str, Score]:
        """The scores of one example (``RougeScorer.score``'s path: no statistics, no slices)."""
        worker = self.acquire()
        try:
            return worker.score(prediction, references)
        finally:
            self.release(worker)

    def run(self, predictions, references, start, stop, with_stats, cancel=None, table=None):
        """The core's results for examples start..stop-1; ``cancel``: a one-byte bytearray
        another thread sets to stop the run (KeyboardInterrupt); ``table``: a float64 array the
        scores go to instead (see :func:`score_table`)."""
        worker = self.acquire()
        try:
            return worker.run(predictions, references, start, stop, with_stats, cancel, table)
        finally:
            self.release(worker)


_SPACE = Pattern(r"\s")


class _Words:
    """How Python hands tokens to the core, one line of words per line of text.

    With the core's XL-Sum support (``tokenizer="whitespace"``) the tokens themselves, split on
    spaces (the space tokens jieba and newmm return -- counted by XL-Sum's scorer -- travel as
    private-use characters, which the BasicTokenizer removes from real text).  Without it, ASCII
    pseudo-words ``t<hex of the token's UTF-8>``: the core's own tokenizer keeps them whole and the
    scores depend only on which tokens are equal (the check ROUGE-1.5.5.pl's goldens use).  The
    pseudo-word is a function of the token alone, so nothing is remembered: a numbering of the
    distinct tokens grew with an open vocabulary and could never be forgotten mid-batch."""

    def __init__(self, pseudo: bool):
        self.pseudo = pseudo

    def line(self, tokens) -> str:
        if not self.pseudo:
            # whitespace inside a token (a space token, or a dictionary word such as newmm's
            # "ไร ๆ") must not split it in the core
            return " ".join(t if not _SPACE.search(t) else "".join("\ue000" if c.isspace() else c for c in t)
                            for t in tokens)
        # TypeError for a token that is not a str (a user's tokenizer may give ints): the caller's
        # fallback then scores in Python
        return compiled.core.pseudo_words(tokens)


class _PretokenizedScorer(_CompiledScorer):
    """Flavors rouge155/paper with ``lang``: Python tokenizes each line (the segmenters are Python
    packages), the core scores the lines of words (:class:`_Words`), so that the Perl's word limit
    counts tokens."""

    def __init__(self, engine, tokenize, words: _Words):
        super().__init__(engine)
        self.tokenize = tokenize
        self.words = words

    def _text(self, text, argument):
        from .lang_pipeline import lines_of

        # lines without tokens are dropped, as RougeScorer does with lang (an empty first line
        # would otherwise count as a word under the Perl's word limit of the whole text)
        return [self.words.line(tokens) for tokens in map(self.tokenize, lines_of(text, argument)) if tokens]

    def run(self, predictions, references, start, stop, with_stats, cancel=None):
        preds, refs = [], []
        for k in range(start, stop):
            preds.append(self._text(predictions[k], "predictions[%d]" % k))
            r = references[k]
            if isinstance(r, (list, tuple)):
                refs.append([self._text(x, "references[%d][%d]" % (k, j)) for j, x in enumerate(r)])
            else:
                refs.append([self._text(r, "references[%d]" % k)])
        return super().run(preds, refs, 0, stop - start, with_stats, cancel)

    def scores_of(self, prediction, references) -> Dict[str, Score]:
        return self.run([prediction], [references], 0, 1, False)[0][0]   # through the tokenizing run


class _WholeAndSentencesScorer:
    """rouge_score's rules (``"rouge_score"`` engines) on texts tokenized whole for rouge<N> and
    rougeL, and sentence by sentence for rougeLsum, as rouge_score calls its tokenizer: flavor
    ``xlsum`` (whose scorer tokenizes rougeLsum's sentences differently from the whole text),
    flavor ``rouge_score`` with a custom tokenizer, and with ``split_summaries`` (rougeLsum's
    sentences from ``nltk.sent_tokenize``).  Two engines: one reads each text whole (rouge<N>,
    rougeL), the other each sentence as a line (rougeLsum); Python's tokens travel as the lines of
    words of :class:`_Words`."""

    def __init__(self, whole, sentences, tokenize, sentence_tokenize, words: Optional[_Words], order=None,
                 split=None):
        self.whole = _CompiledScorer(whole) if whole is not None else None
        self.sentences = _CompiledScorer(sentences) if sentences is not None else None
        self.tokenize = tokenize
        self.sentence_tokenize = sentence_tokenize
        self.words = words   # None: the engines tokenize the texts themselves
        # the scorer's type names when a rougeLsum comes before another type: the merged results
        # follow them, as the Python engine's do (None: the whole engine's types, then rougeLsum's)
        self.order = order
        self.split = split   # a text's rougeLsum sentences (None: rouge_score_flavor.sentences_of)

    def whole_input(self, text: str):
        """What the whole-text engine reads for ``text``."""
        if self.words is None:
            return text
        return [self.words.line(self.tokenize(text))]

    def sentence_input(self, text: str):
        """What the rougeLsum engine reads for ``text``: its sentences as lines."""
        from .rouge_score_flavor import sentence_lines, sentences_of

        if self.words is None:
            return text if self.split is None else sentence_lines(self.split(text))
        line, tokenize = self.words.line, self.sentence_tokenize
        return [line(tokenize(x)) for x in (self.split or sentences_of)(text)]

    @staticmethod
    def _convert(predictions, references, start, stop, convert):
        from .rouge_score_flavor import as_text

        preds = [convert(as_text(predictions[k], "predictions[%d]" % k)) for k in range(start, stop)]
        refs = []
        for k in range(start, stop):
            texts = references[k] if isinstance(references[k], (list, tuple)) else [references[k]]
            refs.append([convert(as_text(x, "references[%d]" % k)) for x in texts])
        return preds, refs

    def run(self, predictions, references, start, stop, with_stats, cancel=None):
        parts = []
        same = self.words is None and self.split is None   # both engines read the raw texts
        # str texts as they are, where _convert would only copy them (XL-Sum's English: 2.3 us a pair)
        inputs = (predictions, references, start, stop) if same and _plain_texts(
            predictions, references, start, stop) else None
        for engine, convert in ((self.whole, self.whole_input), (self.sentences, self.sentence_input)):
            if engine is not None:
                if inputs is None or not same:
                    preds, refs = self._convert(predictions, references, start, stop, convert)
                    inputs = (preds, refs, 0, stop - start)
                parts.append(engine.run(*inputs, with_stats, cancel))
        return self._merge(parts, with_stats, self.order)

    def scores_of(self, prediction, references) -> Dict[str, Score]:
        return self.run([prediction], [references], 0, 1, False)[0][0]

    @staticmethod
    def _merge(parts, with_stats, order):
        scores, stats = parts[0]
        for more_scores, more_stats in parts[1:]:
            for k in range(len(scores)):
                scores[k].update(more_scores[k])
                if with_stats:
                    stats[k].update(more_stats[k])
        if order is not None and len(parts) > 1:
            scores = [{name: d[name] for name in order} for d in scores]
            if with_stats:
                stats = [{name: d[name] for name in order} for d in stats]
        return scores, stats


def _plain_texts(predictions, references, start, stop) -> bool:
    """Whether examples start..stop-1 hold str predictions and str references or lists / tuples of
    them, which the core reads as :meth:`_WholeAndSentencesScorer._convert` would hand them over.

    >>> _plain_texts(["a b"], [["a", "b c"]], 0, 1), _plain_texts([b"a b"], ["a"], 0, 1)
    (True, False)
    """
    for k in range(start, stop):
        if type(predictions[k]) is not str:
            return False
        r = references[k]
        if type(r) is not str and (type(r) not in (list, tuple) or any(type(x) is not str for x in r)):
            return False
    return True


def _type_order(types):
    """The type names when a rougeLsum precedes another type (see _WholeAndSentencesScorer.order)."""
    names = [t[0] for t in types]
    kinds = [t[1] == "Lsum" for t in types]
    return names if kinds != sorted(kinds) else None


def _engine_pair(scorer, types, token_filter=None, tokenizer=None, sentence_tokenizer=None, native=None):
    """The two engines of :class:`_WholeAndSentencesScorer`: (rouge<N> and rougeL's, rougeLsum's),
    None where no type needs one; ``tokenizer`` is the core's tokenizer of the first (None: its
    default), ``sentence_tokenizer`` of the second (None: the same)."""
    parts = ([t for t in types if t[1] != "Lsum"], [t for t in types if t[1] == "Lsum"])
    tokenizers = (tokenizer, sentence_tokenizer or tokenizer)
    return tuple(_engine(scorer.rules.core, part, 0, scorer, token_filter, tok, native) if part else None
                 for part, tok in zip(parts, tokenizers))


def _engine(flavor, types, word_limit, scorer, token_filter=None, tokenizer=None, native=None):
    args = (flavor, types, word_limit or 0, 0, scorer.multi_ref, bool(scorer.jackknife), float(scorer.alpha),
            token_filter, Score, PairStats, native)
    if tokenizer is None:
        return compiled.core.Engine(*args)
    return compiled.core.Engine(*args, tokenizer=tokenizer)


def _has_xlsum_tokenizer() -> bool:
    return bool(getattr(compiled.core, "XLSUM_TOKENIZER", False))


def _stem_filter(language, use_stemmer, default):
    """The core's token filter for a language's stemmer (tokens longer than 3 characters), or None."""
    from .lang_pipeline import stemmer as lang_stemmer

    stem = lang_stemmer(language, use_stemmer, default)
    if stem is None:
        return None
    return lambda token: (stem(token) if len(token) > 3 else token) or None


def _xlsum_engine(scorer, types):
    """Flavor ``xlsum`` on the core.  With the core's XL-Sum tokenizer and no segmenter the core
    tokenizes ("xlsum" for the whole text, "xlsum_basic" for rougeLsum's sentences, the stemmer as
    token filter); otherwise Python's tokens are handed over as words (see :class:`_Words`)."""
    native = _has_xlsum_tokenizer()
    if native and (scorer.language is None or not scorer.language.segmenter):
        from .lang_pipeline import stemmer_name
        from .nltk_porter import native_available

        stem = _stem_filter(scorer.language, scorer.use_stemmer, "porter")
        # NLTK's Porter (the default, lang=None): in C for [a-z0-9] tokens, as in flavor rouge_score
        porter = ("nltk_porter" if stemmer_name(scorer.language, scorer.use_stemmer, "porter") == "porter"
                  and native_available() else None)
        whole, sentences = _engine_pair(scorer, types, stem, tokenizer="xlsum", sentence_tokenizer="xlsum_basic",
                                        native=porter)
        return _WholeAndSentencesScorer(whole, sentences, None, None, None, _type_order(types))
    whole, sentences = _engine_pair(scorer, types, tokenizer="whitespace" if native else None)
    return _WholeAndSentencesScorer(whole, sentences, scorer._rs_tokenize, scorer._rs_sentence_tokenize,
                                    _Words(not native), _type_order(types))


def _lang_engine(scorer, types):
    """Flavors rouge155/paper with ``lang`` on the core.  With the core's XL-Sum tokenizer, an
    unsegmented language without a word limit is tokenized in C (``tokenizer="xlsum"``, the
    language's stemmer as the token filter); otherwise Python tokenizes and hands words over."""
    language = scorer.language
    # The core's own tokenizers take no word limit: pseudo-words through its Perl reader then.
    if not _has_xlsum_tokenizer() or scorer.word_limit:
        return _PretokenizedScorer(_engine(scorer.rules.core, types, scorer.word_limit, scorer),
                                   scorer._lang_tokenize, _Words(True))
    if language.segmenter:
        engine = _engine(scorer.rules.core, types, 0, scorer, tokenizer="whitespace")
        return _PretokenizedScorer(engine, scorer._lang_tokenize, _Words(False))
    stem = _stem_filter(language, scorer.use_stemmer, None)
    return _CompiledScorer(_engine(scorer.rules.core, types, 0, scorer, stem, tokenizer="xlsum"))


def _first_or_none(tokens):
    return tokens[0] if tokens else None


def _tokenizer_filter(scorer):
    """rouge_score's tokenizer as the per-token callable the core calls on a token's first sight
    (None: keep every token)."""
    if not scorer.use_stemmer:
        return None
    # rouge_score's own tokenizer applied to one clean token gives [stem] or [] (invalid).
    tokenize = scorer._rs_tokenize
    return lambda token: _first_or_none(tokenize(token))


def _token_filter(scorer):
    """The Perl's stop words and stemmer as the per-token callable the core calls on a token's
    first sight (None: keep every token)."""
    token_filter = scorer._token_filter   # stop words, then the Perl stemmer, memoized
    if getattr(token_filter, "settings", None) == (False, False):
        return None
    return lambda token: _first_or_none(token_filter([token]))


def _native_filter(scorer):
    """The settings and tables with which the core applies ``scorer._token_filter`` itself
    (taken from the filter, which is what the pure-Python engine runs), or None."""
    settings = getattr(scorer._token_filter, "settings", None)
    if settings is None or settings == (False, False):
        return None
    from . import tokenization

    use_stemmer, remove_stopwords = settings
    exceptions = {}
    if use_stemmer:
        # The table's text: the core parses it once per process (as stemmer.py's dict reads it,
        # a later line winning) and every Engine shares that, where the dict cost stemmer.py's
        # import 2.5 ms and each Engine 1.4-2.4 ms more
        from .rouge155_data import WORDNET_EXCEPTIONS as exceptions
    return (use_stemmer, remove_stopwords, tokenization.STOPWORDS if remove_stopwords else (), exceptions)


def _plain_engine(scorer, types, token_filter, native_filter):
    return _CompiledScorer(compiled.core.Engine(scorer.rules.core, types, scorer.word_limit or 0,
                                                scorer.byte_limit or 0, scorer.multi_ref, bool(scorer.jackknife),
                                                float(scorer.alpha), token_filter, Score, PairStats, native_filter))


def _perl_engine(scorer, types):
    """Flavors reading texts as the Perl does (rules rouge155, paper), without ``lang``: the core's
    reader, stop words and stemmer."""
    return _plain_engine(scorer, types, _token_filter(scorer), _native_filter(scorer))


def _nltk_porter_filter(scorer):
    """"nltk_porter" (NLTK's Porter in C, :mod:`.nltk_porter`) when the scorer stems and the
    installed NLTK is a verified release, else None (the core calls rouge_score's stemmer)."""
    if not scorer.use_stemmer:
        return None
    from .nltk_porter import native_available

    return "nltk_porter" if native_available() else None


def _tokenizer_engine(scorer, types):
    """Flavor rouge_score: the core's rouge_score reader and NLTK's Porter in C (rouge_score's
    stemmer called per token for the tokens the C port leaves to it, or for an unverified NLTK);
    with the user's tokenizer, its tokens (of each whole text, and of each of rougeLsum's
    sentences, as rouge_score calls it) as pseudo-words (see :class:`_Words`); with
    ``split_summaries``, rougeLsum's engine reads the sentences ``nltk.sent_tokenize`` finds."""
    split = scorer._rs_split   # None unless split_summaries and a rougeLsum
    if scorer.tokenizer is None and split is None:
        return _plain_engine(scorer, types, _tokenizer_filter(scorer), _nltk_porter_filter(scorer))
    if scorer.tokenizer is None:   # split_summaries: the core's reader on the split text
        whole, sentences = _engine_pair(scorer, types, _tokenizer_filter(scorer), native=_nltk_porter_filter(scorer))
        return _WholeAndSentencesScorer(whole, sentences, None, None, None, _type_order(types), split)
    whole, sentences = _engine_pair(scorer, types)
    return _WholeAndSentencesScorer(whole, sentences, scorer._rs_tokenize, scorer._rs_tokenize, _Words(True),
                                    _type_order(types), split)


def compiled_scorer(scorer) -> Optional[_CompiledScorer]:
    """The compiled form of ``scorer``'s options, or None when the pure-Python engine must run
    (core not built or disabled, or a flavor without one: see ``rules.compiled_engine``).  Built
    once per scorer (and again in a forked child); a pickled or copied scorer builds its own.

    >>> from rouge_full_metric import RougeScorer
    >>> (compiled_scorer(RougeScorer(["rouge1"])) is not None) == compiled.AVAILABLE
    True
    """
    if not compiled.AVAILABLE:
        return None
    cached = scorer.__dict__.get("_compiled")
    if cached is not None and cached[0] == _generation:
        return cached[1]
    record = scorer.__dict__.get("_shared")   # a shared_scorers.Record, or None
    engine, spare = record.compiled_parts(_generation) if record is not None else (None, None)
    if engine is not None:
        result = _CompiledScorer(engine, spare)
    else:
        types = [(t.name, t.kind, t.n, float(t.weight), -1 if t.max_gap is None else int(t.max_gap),
                  bool(t.unigrams)) for t in scorer.types]
        result = scorer.rules.compiled_engine(scorer, types)
        # one Engine's scorers only: the others (two engines, Python tokenizers) keep their own
        if record is not None and type(result) is _CompiledScorer:
            record.engine = result.engine
            result.spare = spare
    scorer.__dict__["_compiled"] = (_generation, result)
    return result


def _available_cpus() -> int:
    """The CPUs this process may run on: its affinity where the system has one (``taskset``, a
    container's cpuset), else every core."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def is_whole(value) -> bool:
    """Whether ``value`` is a whole number: an int or numpy's integers (``numbers.Integral``), not a bool.

    >>> is_whole(3), is_whole(3.0), is_whole(True)
    (True, False, False)
    """
    if type(value) is int:
        return True
    import numbers   # only for other types: a process that passes ints never imports it

    return not isinstance(value, bool) and isinstance(value, numbers.Integral)


def is_real(value) -> bool:
    """Whether ``value`` is a real number (``numbers.Real``: numpy's floats too), not a bool.

    >>> is_real(0.5), is_real(1), is_real("0.5"), is_real(False)
    (True, True, False, False)
    """
    if type(value) is float or type(value) is int:
        return True
    import numbers

    return not isinstance(value, bool) and isinstance(value, numbers.Real)


def _check_n_jobs(n_jobs) -> int:
    """The threads for ``n_jobs``: -1 is every CPU this process may use, and never more threads
    than those CPUs (more would only take turns, each evicting the others' token caches: pinned
    to one CPU, a new interpreter's first ``n_jobs=2`` call ran at 0.85-0.99x the speed of
    ``n_jobs=1``, paying for the helper's thread and Worker).

    >>> _check_n_jobs(1), _check_n_jobs(None), _check_n_jobs(-1) == _available_cpus()
    (1, 1, True)
    """
    if n_jobs is None or (type(n_jobs) is int and n_jobs == 1):   # before the ABC check below (0.3 us)
        return 1
    if not is_whole(n_jobs) or (n_jobs < 1 and n_jobs != -1):
        raise ValueError("n_jobs must be a whole number >= 1, or -1 for every CPU this process may use, got %r" % (n_jobs,))
    if n_jobs == 1:   # no need to ask the system (a syscall: 1 us of a one-pair call's 6)
        return 1
    cpus = _available_cpus()
    return cpus if n_jobs == -1 else min(int(n_jobs), cpus)


def _wait_helpers(tasks):
    """Wait for the helpers that started (one not yet started never will take work: its task
    is cancelled, so a helper the kernel has not scheduled yet holds nobody back), re-raising
    the first one's error."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        if not task.cancelled():
            task.result()


def _run_chunks(n_jobs: int, task, bounds, cancel=None):
    """``[task(a, b) for a, b in bounds]`` on the calling thread and at most ``n_jobs - 1`` pool
    threads (the pool may be bigger: other callers' n_jobs), each taking the next chunk as it
    frees up.  The caller works too: waiting for a pool thread the kernel has descheduled (the
    other core busy) made n_jobs=2 slower than n_jobs=1.  ``cancel`` (a one-byte bytearray
    the tasks' kernels poll) is set when the caller stops, so pool threads stop too."""
    results = [None] * len(bounds)
    order = iter(range(len(bounds)))
    take = _thread.allocate_lock()
    stop = []   # non-empty: a runner failed or the caller gave up (Ctrl-C); take no more chunks

    def runner():
        while not stop:
            with take:
                k = next(order, None)
            if k is None:
                return
            try:
                results[k] = task(*bounds[k])
            except BaseException:
                stop.append(True)
                raise

    from . import thread_pool   # the pool's module (and threading) only where a helper may start

    tasks = []
    try:
        tasks = thread_pool.submit(n_jobs, runner, min(n_jobs, len(bounds)) - 1)
        runner()
        _wait_helpers(tasks)
    except BaseException:
        stop.append(True)
        if cancel is not None:
            cancel[0] = 1
        raise
    return results


def _parallel_range(cs, predictions, references, start, stop, with_stats, n_jobs, table=None):
    """Examples start..stop-1 by the core on the calling thread and up to ``n_jobs - 1`` helpers
    sharing one Engine.batch (see csrc/parallel.c); results identical to one Worker.run, with a
    ``table`` as its: the scores go there, and the result is (None, None)."""
    batch = cs.engine.batch(predictions, references, start, stop, with_stats, n_jobs, table)

    def helper():
        worker = cs.acquire()
        if batch.join(worker):   # the caller gives the Worker back (collect), as soon as run() is over
            batch.work(worker)
        else:                    # the batch needed no more help
            cs.release(worker)

    from . import thread_pool

    tasks = []
    worker = cs.acquire()
    try:
        tasks = thread_pool.submit(n_jobs, helper, batch.threads() - 1)
        out = batch.run(worker)
        if out is None:
            _wait_helpers(tasks)   # re-raises the helper's error
        for task in tasks:
            task.cancel()   # not started: nothing left for it
    except BaseException:
        batch.stop()
        raise
    finally:
        for helper_worker in batch.collect():
            cs.release(helper_worker)
        cs.release(worker)   # last: the next call's caller takes it, whose caches hold it
    if out is None:   # a helper failed and its error did not come out of its task: cannot happen
        raise RuntimeError("a scoring thread stopped without an error")
    return out


def _python_range(scorer, predictions, references, start, stop, with_stats, offset=0):
    from .python_engine import example

    scores, stats = [], []
    for k in range(start, stop):
        s, sc = example(scorer, predictions[k], references[k], k + offset)
        stats.append(s)
        scores.append(sc)
    return scores, (stats if with_stats else None)


def _compiled_range(scorer, cs, predictions, references, start, stop, with_stats, cancel=None):
    try:
        return cs.run(predictions, references, start, stop, with_stats, cancel)
    except (TypeError, ValueError, UnicodeError):
        # Inputs the core rejects: the Python path either scores them or raises the canonical,
        # indexed error message.
        return _python_range(scorer, predictions, references, start, stop, with_stats)


def corpus_texts(texts, argument: str, what: str = "a list of texts"):
    """``texts`` as the corpus entry points index them: a list, a tuple or another sequence as
    given; a numpy array, a pandas Series or another iterable read into a list once (through
    ``tolist()`` where there is one: numpy's and pandas' elements as Python objects, the rows of a
    2-D array of references and the array cells of a DataFrame as lists).

    >>> import numpy as np
    >>> corpus_texts(np.array([["a b", "c"], ["d", "e"]]), "references")
    [['a b', 'c'], ['d', 'e']]
    """
    if type(texts) in (list, tuple):
        return texts
    if isinstance(texts, (str, bytes, bytearray)) or not hasattr(texts, "__iter__"):
        raise TypeError("%s must be %s, got %s" % (argument, what, type(texts).__name__))
    # isinstance against collections.abc.Sequence costs ~1 us a call: lists and tuples are settled
    # above; and importing it here keeps collections.abc (0.25 ms) out of a process that scores pairs
    from collections.abc import Sequence

    if isinstance(texts, Sequence):
        return texts
    tolist = getattr(texts, "tolist", None)
    texts = tolist() if callable(tolist) else list(texts)
    # a DataFrame from Dataset.to_pandas() holds each list cell as a numpy array
    return [t.tolist() if hasattr(t, "tolist") and not isinstance(t, (str, bytes)) else t for t in texts]


def check_corpus_inputs(predictions, references):
    """The checks every corpus-level entry point makes: two lists of the same length (numpy
    arrays, pandas Series and other iterables read into lists: :func:`corpus_texts`).  Returns
    the two as the entry point should index them."""
    # lists and tuples without a call: a batch of one pair is called thousands of times
    if type(predictions) not in (list, tuple):
        predictions = corpus_texts(predictions, "predictions")
    if type(references) not in (list, tuple):
        references = corpus_texts(references, "references", "a list (one entry per prediction)")
    if len(predictions) != len(references):
        raise ValueError("predictions and references differ in length: %d vs %d"
                         % (len(predictions), len(references)))
    return predictions, references


def score_examples(scorer, predictions: Sequence, references: Sequence, n_jobs: int = 1,
                   with_statistics: bool = True, backend: Optional[str] = None
                   ) -> Tuple[List[Dict[str, Score]], Optional[List[Dict[str, List[PairStats]]]]]:
    """Per-example scores and (``with_statistics``) per-reference statistics of a batch.

    Returns ``(per_example, statistics)`` exactly as ``[python_engine.example(scorer, p, r, k) ...]`` would
    give them (``statistics`` is None without ``with_statistics``).  ``backend="python"`` forces
    the pure-Python engine (for differential tests).

    >>> from rouge_full_metric import RougeScorer
    >>> per_example, stats = score_examples(RougeScorer(["rouge2"]), ["a b c d"], [["a b x", "b c"]])
    >>> per_example[0]["rouge2"], stats[0]["rouge2"][1]
    (Score(precision=0.33333, recall=0.66667, fmeasure=0.44444), PairStats(hits=1, reference_count=1, prediction_count=3, selection=1.0))
    """
    predictions, references = check_corpus_inputs(predictions, references)
    jobs = _check_n_jobs(n_jobs)
    if backend not in (None, "compiled", "python"):
        raise ValueError("backend must be 'compiled', 'python' or None, got %r" % (backend,))
    count = len(predictions)
    cs = None if backend == "python" else compiled_scorer(scorer)
    if backend == "compiled" and cs is None:
        raise RuntimeError("the compiled core is not available for this scorer (backend: %s)" % compiled.backend())
    if cs is None:
        return _python_range(scorer, predictions, references, 0, count, with_statistics)
    if not isinstance(predictions, (list, tuple)):
        predictions = list(predictions)
    if not isinstance(references, (list, tuple)):
        references = list(references)
    if jobs == 1 or count < _PARALLEL_MIN:
        return _compiled_range(scorer, cs, predictions, references, 0, count, with_statistics)
    if type(cs) is _CompiledScorer:
        try:
            return _parallel_range(cs, predictions, references, 0, count, with_statistics, jobs)
        except (TypeError, ValueError, UnicodeError):
            pass   # chunk by chunk below: the Python path scores a chunk the core rejects, or names the error
    if count <= _CHUNK:
        return _compiled_range(scorer, cs, predictions, references, 0, count, with_statistics)
    bounds = [(k, min(k + _CHUNK, count)) for k in range(0, count, _CHUNK)]
    cancel = bytearray(1)   # set when the caller stops: the chunks running in pool threads stop
    parts = _run_chunks(jobs, lambda a, b: _compiled_range(scorer, cs, predictions, references, a, b,
                                                           with_statistics, cancel), bounds, cancel)
    scores: List[Dict[str, Score]] = []
    stats: Optional[List] = [] if with_statistics else None
    for part_scores, part_stats in parts:
        scores.extend(part_scores)
        if with_statistics:
            stats.extend(part_stats)
    return scores, stats


def score_table(scorer, predictions: Sequence, references: Sequence, n_jobs: int = 1, flat: bool = False):
    """Every example's scores as a float64 array (examples x 3 * types: each type's precision,
    recall and F in ``scorer.rouge_types`` order): ``value_table(scorer, score_batch(...))``,
    without a Python object per example where the core scores the batch (for averages);
    ``n_jobs`` as in :func:`score_batch`.  ``flat``: the rows one after the other in an
    ``array("d")``, without numpy.

    >>> from rouge_full_metric import RougeScorer
    >>> score_table(RougeScorer(["rouge1"]), ["a b", "c d"], ["a b", "c e"]).tolist()
    [[1.0, 1.0, 1.0], [0.5, 0.5, 0.5]]
    >>> score_table(RougeScorer(["rouge1"]), ["a b", "c d"] * 50, ["a b", "c e"] * 50, n_jobs=2)[-1].tolist()
    [0.5, 0.5, 0.5]
    >>> score_table(RougeScorer(["rouge1"]), ["a b", "c d"], ["a b", "c e"], flat=True).tolist()
    [1.0, 1.0, 1.0, 0.5, 0.5, 0.5]
    """
    predictions, references = check_corpus_inputs(predictions, references)
    jobs = _check_n_jobs(n_jobs)
    cs = compiled_scorer(scorer)
    count = len(predictions)
    if type(cs) is _CompiledScorer and count:
        if not isinstance(predictions, (list, tuple)):
            predictions = list(predictions)
        if not isinstance(references, (list, tuple)):
            references = list(references)
        if flat:
            from array import array

            table = array("d", bytes(8 * count * 3 * len(scorer.rouge_types)))
        else:
            import numpy as np

            table = np.empty((count, 3 * len(scorer.rouge_types)), dtype=np.float64)
        try:
            if jobs == 1 or count < _PARALLEL_MIN:
                cs.run(predictions, references, 0, count, False, None, table)
            else:   # the threads write the table's rows as they score them
                _parallel_range(cs, predictions, references, 0, count, False, jobs, table)
            return table
        except (TypeError, ValueError, UnicodeError):
            pass   # inputs the core rejects: the path below scores them or names the error
    per_example = score_batch(scorer, predictions, references, jobs)
    return float_table(value_floats(scorer, per_example)) if flat else value_table(scorer, per_example)


def score_batch(scorer, predictions: Sequence, references: Sequence, n_jobs: int = 1,
                backend: Optional[str] = None) -> List[Dict[str, Score]]:
    """``[scorer.score(p, r) for p, r in zip(predictions, references)]``, many pairs per call.

    ``references[i]`` is one text or a list of texts.  ``n_jobs`` threads score in parallel
    (the compiled core releases the GIL; ``-1`` uses every CPU the process may run on, and
    no more threads than those CPUs are started).

    >>> from rouge_full_metric import RougeScorer
    >>> score_batch(RougeScorer(["rouge1"]), ["a b", "c"], ["a b c", ["c", "d"]], n_jobs=2)[1]["rouge1"]
    Score(precision=0.5, recall=0.5, fmeasure=0.5)
    """
    return score_examples(scorer, predictions, references, n_jobs, False, backend)[0]


def score_one(scorer, prediction, references, backend: Optional[str] = None):
    """``(statistics, scores)`` of one example, as the pure-Python engine gives them
    (:func:`.python_engine.example`).

    >>> from rouge_full_metric import RougeScorer
    >>> score_one(RougeScorer(["rouge1"]), "a b", "a b c")[1]["rouge1"]
    Score(precision=1.0, recall=0.66667, fmeasure=0.8)
    """
    cs = None if backend == "python" else compiled_scorer(scorer)
    if cs is not None:
        try:
            scores, stats = cs.run([prediction], [references], 0, 1, True)
            return stats[0], scores[0]
        except (TypeError, ValueError, UnicodeError):
            pass
    from .python_engine import example

    return example(scorer, prediction, references)


def value_table(scorer, per_example):
    """The per-example values as a float64 (N, 3 * types) array: type-major, then P/R/F.

    >>> from rouge_full_metric import RougeScorer
    >>> s = RougeScorer(["rouge1"])
    >>> value_table(s, s.score_batch(["a b", "c d"], ["a b", "c e"])).tolist()
    [[1.0, 1.0, 1.0], [0.5, 0.5, 0.5]]
    """
    import numpy as np

    width = 3 * len(scorer.rouge_types)
    return np.fromiter(value_floats(scorer, per_example), dtype=np.float64, count=width * len(per_example)).reshape(
        len(per_example), width)


def value_floats(scorer, per_example):
    """The per-example values one float after the other: example by example, type-major, then
    P/R/F.

    >>> from rouge_full_metric import RougeScorer
    >>> s = RougeScorer(["rouge1", "rouge2"])
    >>> list(value_floats(s, s.score_batch(["a b"], ["a c"])))
    [0.5, 0.5, 0.5, 0.0, 0.0, 0.0]
    """
    from itertools import chain
    from operator import itemgetter

    names = scorer.rouge_types
    # one itemgetter call an example instead of a generator (8 types, 11,490 examples: 11 against
    # 16 ms); with one name it gives the Score itself, not a tuple of one
    scores = map(itemgetter(*names), per_example)
    return chain.from_iterable(scores if len(names) == 1 else chain.from_iterable(scores))


def float_table(floats):
    """``array("d", floats)``, a third faster (the array is filled from a list, not an item at a time).

    >>> float_table([1, 0.5, 0.25]).tolist()
    [1.0, 0.5, 0.25]
    """
    from array import array

    table = array("d")
    table.fromlist(list(floats))
    return table


__all__ = ["backend", "compiled_scorer", "score_batch", "score_examples", "score_one", "score_table", "value_table",
           "value_floats", "float_table"]
