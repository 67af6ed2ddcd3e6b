"""Pairwise ROUGE: every text of one list against every text of another, and near-duplicate
filtering (Self-Instruct / Alpaca: drop a new text whose ROUGE-L against a kept one is high).

Conventions (what a cell means):

* ``score_matrix(a, b)[i, j]`` is ``scorer.score(a[i], [b[j]])[rouge_type]`` — ``a[i]`` is the
  *prediction*, ``b[j]`` the (single) *reference* — in every flavor, bit for bit (flavor
  ``rouge155``: rounded to 5 decimals, as ``score`` gives it).  In flavor ``rouge_score`` that is
  ``rouge_score.RougeScorer.score(target=b[j], prediction=a[i])``.  F (``alpha=0.5``) is
  symmetric for rouge<N> and rougeL; precision and recall swap with the roles.
* ``filter_near_duplicates`` scores each new text as the *reference* against each kept text as
  the *prediction*, as Self-Instruct calls ``rouge_score`` (``scorer.score(new, kept)``,
  target first).
* A text is a str, bytes or a list of sentences, as ``score`` takes a prediction: a list is
  always one text (its sentences), never several references.

How it runs: the texts are tokenized and interned once (the compiled core's readers, so the
tokens are those ``score`` sees); rougeL uses the bit-parallel LCS length (masks built once per
row text), rouge<N> clipped counts of n-gram ids interned once, other types the core's per-example
statistics; threads share the rows with the GIL released.  The filter skips a pair whose upper
bound — hits <= min(lengths), and for rougeL rows longer than 64 tokens the unigram overlap —
cannot reach the threshold.  Memory: O(total tokens + the matrix).  With ``lang`` or flavor
``xlsum`` each text goes through the language's (XL-Sum's) pipeline once -- in C where the core
has it, else in Python (segmenters, word limits), as ``score_batch`` hands texts over -- and the
same kernels score the token ids.  Flavor ``matlab`` (sums over reference sentences, NaN cells),
the other flavors, a custom ``tokenizer`` and a core-less install run the pure-Python engine; the
numbers are identical either way.

>>> from rouge_full_metric import RougeScorer
>>> scorer = RougeScorer(["rougeL"], flavor="rouge_score")
>>> score_matrix(scorer, ["the cat sat", "a dog ran"], ["the cat sat down"]).round(4).tolist()
[[0.8571], [0.0]]
>>> r = filter_near_duplicates(scorer, ["the cat sat", "a dog", "the cat sat down", "a dog!"], 0.7)
>>> r.kept, r.dropped, r.matched
([0, 1], [2, 3], [0, 1])
"""
import math
import threading
import weakref
from typing import List, NamedTuple, Optional, Sequence

from . import compiled
from .batch import _check_n_jobs, _run_chunks, compiled_scorer, corpus_texts, is_real, is_whole
from .rouge_types import parse_rouge_type

MEASURES = ("precision", "recall", "fmeasure")

# Rows per task when several threads share a matrix, texts per block of the threaded filter.
_ROW_CHUNK = 64
_FILTER_BLOCK = 1024
# A bound this far below the threshold still counts as reaching it (5-decimal rounding and the
# last bits of the F formulas); the compiled core uses the same margin.
_MARGIN = 2e-5

# The largest matrix score_matrix allocates unless its max_bytes says otherwise: 1 GiB of float64
# (134 million cells, about 11,585 x 11,585).  A bigger one is refused before anything is
# allocated, naming its size; a 20,000 x 20,000 matrix silently filled 3 GiB before.
MAX_MATRIX_BYTES = 1 << 30

# scorer -> {rouge_type: single-type RougeScorer}: the single-type scorers (and so their compiled
# Engines and Worker pools) live as long as the scorer.
_single_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_single_lock = threading.Lock()


class NearDuplicates(NamedTuple):
    """What :func:`filter_near_duplicates` returns: positions in the input, not texts.

    ``kept``: indices of the texts kept, ascending.  ``dropped``: indices of the texts dropped,
    ascending; ``matched[k]`` is the index of the kept text that ``dropped[k]`` matched (the
    first one, in input order, whose score reached the threshold) and ``scores[k]`` that score.
    ``kept_indices``, ``dropped_indices`` and ``matched_indices`` are the same lists under names
    that say so; :meth:`kept_texts` and :meth:`dropped_pairs` give the texts.

    >>> texts = ["a cat sat", "a cat sat", "a dog ran"]
    >>> r = NearDuplicates(kept=[0, 2], dropped=[1], matched=[0], scores=[1.0])
    >>> r.kept_indices, r.kept_texts(texts)
    ([0, 2], ['a cat sat', 'a dog ran'])
    >>> r.dropped_pairs(texts)
    [('a cat sat', 'a cat sat', 1.0)]
    """

    kept: List[int]
    dropped: List[int]
    matched: List[int]
    scores: List[float]

    @property
    def kept_indices(self) -> List[int]:
        """``kept``, by a name that says it holds indices."""
        return self.kept

    @property
    def dropped_indices(self) -> List[int]:
        """``dropped``, by a name that says it holds indices."""
        return self.dropped

    @property
    def matched_indices(self) -> List[int]:
        """``matched``, by a name that says it holds indices."""
        return self.matched

    def kept_texts(self, texts: Sequence) -> list:
        """The kept texts of ``texts`` (the sequence that was filtered), in order."""
        return [texts[i] for i in self.kept]

    def dropped_pairs(self, texts: Sequence) -> list:
        """``(dropped text, the kept text it matched, score)`` for each dropped text, in order."""
        return [(texts[q], texts[k], s) for q, k, s in zip(self.dropped, self.matched, self.scores)]


def _single_type_scorer(scorer, rouge_type: str):
    """A RougeScorer with ``scorer``'s options and the one type ``rouge_type`` (a scorer's options
    are fixed at construction, so one per scorer and type is enough)."""
    with _single_lock:
        single = _single_cache.setdefault(scorer, {}).get(rouge_type)
        if single is not None:
            return single
    from .scorer import RougeScorer

    # every option the scorer pickles (RougeScorer.__getstate__), so none is left behind
    single = RougeScorer(**dict(scorer.__getstate__(), rouge_types=[rouge_type]))
    with _single_lock:
        _single_cache.setdefault(scorer, {})[rouge_type] = single
    return single


def _check_measure(measure) -> int:
    if measure not in MEASURES:
        raise ValueError("measure must be one of %s, got %r" % (", ".join(MEASURES), measure))
    return MEASURES.index(measure)


def _resolve_type(scorer, rouge_type: Optional[str]) -> str:
    if rouge_type is None:
        if len(scorer.rouge_types) != 1:
            raise ValueError("this scorer has several rouge types (%s): pass rouge_type=... to say which one "
                             "the matrix holds" % ", ".join(scorer.rouge_types))
        return scorer.rouge_types[0]
    if not isinstance(rouge_type, str):
        raise TypeError("rouge_type must be a rouge type name such as 'rougeL', got %r" % (rouge_type,))
    return parse_rouge_type(rouge_type).name


def _pair_input(cs):
    """(the compiled scorer whose Engine reads the texts, a function giving what that Engine
    reads for one text), as the batch path hands texts over: with ``lang`` or flavor ``xlsum``
    the language's (XL-Sum's) pipeline tokenizes in Python when the core's own tokenizer cannot
    (segmenters, word limits), the Engine then reads lines of words."""
    from .batch import _PretokenizedScorer, _WholeAndSentencesScorer

    if isinstance(cs, _PretokenizedScorer):
        return cs, lambda text: cs._text(text, "text")
    if isinstance(cs, _WholeAndSentencesScorer):
        from .rouge_score_flavor import as_text

        # a matrix holds one type: one of the two engines is None
        if cs.whole is not None:
            return cs.whole, lambda text: cs.whole_input(as_text(text, "text"))
        return cs.sentences, lambda text: cs.sentence_input(as_text(text, "text"))
    return cs, None


def _corpus(single, texts_a, texts_b):
    """(compiled scorer, corpus) or None when the pure-Python engine must run."""
    if not single.rules.pair_kernels:
        return None   # e.g. matlab: its sums per reference sentence have no pair kernel
    cs = compiled_scorer(single)
    if cs is None or not hasattr(compiled.core, "pair_corpus"):
        return None
    try:
        cs, read = _pair_input(cs)
        if read is not None:   # each text through the language's pipeline once
            texts_a = [read(t) for t in texts_a]
            texts_b = None if texts_b is None else [read(t) for t in texts_b]
        # a fresh Worker: its vocabulary is never reset while the corpus is in use
        return cs, compiled.core.pair_corpus(cs.engine.worker(), texts_a, texts_b)
    except (TypeError, ValueError, UnicodeError):
        return None   # the Python path raises the canonical, indexed message (or scores)


# ----------------------------------------------------------------------------- pure Python
# Flavors with ``rules.pairwise_reads_once`` read their texts once by ``python_engine.prepare`` and
# score them by ``python_engine.pair_stats``; any other flavor is scored pair by pair through
# ``score`` itself.


class _Raw:
    """A text kept as given, for flavors scored through ``score``."""

    __slots__ = ("raw",)

    def __init__(self, raw):
        self.raw = raw


def _prepare(single, texts, argument):
    if not single.rules.pairwise_reads_once:
        # read each text once with the flavor's own reader, so that a bad one is named by its
        # place here ("texts_a[2]"), not by the place ``score`` gives it ("references[0]")
        for k, t in enumerate(texts):
            single.rules.check_text(t, "%s[%d]" % (argument, k))
        return [_Raw(t) for t in texts]
    from .python_engine import prepare

    return [prepare(single, t, "%s[%d]" % (argument, k)) for k, t in enumerate(texts)]


def _python_score(single, rtype, pred, ref, mi: int) -> float:
    if isinstance(pred, _Raw):
        return single.score(pred.raw, [ref.raw])[rtype.name][mi]
    from .python_engine import pair_stats, scores

    return scores(single, {rtype.name: [pair_stats(single, rtype, pred, ref)]})[rtype.name][mi]


def _units(single, rtype, text) -> Optional[int]:
    """Length in the units whose overlap bounds the hits (None: no bound for this type)."""
    if isinstance(text, _Raw):
        return None
    if rtype.kind == "L":
        from .python_engine import flat_tokens

        return len(flat_tokens(single, text))
    if rtype.kind == "N":
        return max(len(text.summary.tokens) - rtype.n + 1, 0)
    return None


def _may_reach(single, hub: int, ref_units: int, pred_units: int, mi: int, threshold: float) -> bool:
    from .scoring import score_from_counts

    s = score_from_counts(hub, ref_units, pred_units, single.alpha, 0.0, single._rounded, single._rouge_score_f)
    return s[mi] >= threshold - _MARGIN


# ----------------------------------------------------------------------------- public
def _check_size(na: int, nb: int, max_bytes) -> None:
    limit = MAX_MATRIX_BYTES if max_bytes is None else max_bytes
    if not is_whole(limit) or limit < 0:
        raise ValueError("max_bytes must be a whole number of bytes >= 0 (or None), got %r" % (max_bytes,))
    size = 8 * na * nb
    if size > limit:
        raise MemoryError("score_matrix: a %d x %d matrix of float64 takes %s, more than max_bytes=%d (the default "
                          "is rouge_full_metric.pairwise.MAX_MATRIX_BYTES, 1 GiB): pass max_bytes=%d or more to "
                          "allocate it, or score blocks of rows (texts_a[i:j]) one at a time"
                          % (na, nb, _human(size), limit, size))


def _human(size: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return "%.1f %s (%d bytes)" % (size / scale, unit, size)
    return "%d bytes" % size


def score_matrix(scorer, texts_a: Sequence, texts_b: Optional[Sequence] = None, measure: str = "fmeasure",
                 n_jobs: int = 1, rouge_type: Optional[str] = None, backend: Optional[str] = None,
                 max_bytes: Optional[int] = None):
    """The ``len(texts_a) x len(texts_b)`` numpy array of ``scorer.score(a, [b])[rouge_type].<measure>``.

    ``texts_b=None`` scores ``texts_a`` against itself.  ``rouge_type`` is needed when the scorer
    has several types (any type name the scorer's flavor supports may be given).  ``n_jobs``
    threads share the rows (-1: every CPU the process may use; never more threads than those
    CPUs).  ``backend="python"`` forces the pure-Python engine.
    A matrix larger than ``max_bytes`` (default :data:`MAX_MATRIX_BYTES`, 1 GiB: 8 bytes a cell)
    is refused with a ``MemoryError`` naming its size before anything is allocated.

    >>> from rouge_full_metric import RougeScorer
    >>> m = score_matrix(RougeScorer(["rouge1", "rougeL"]), ["a b c", "c b a"], rouge_type="rougeL")
    >>> m.tolist()
    [[1.0, 0.33333], [0.33333, 1.0]]
    """
    import numpy as np

    texts_a = corpus_texts(texts_a, "texts_a")
    same = texts_b is None
    texts_b = texts_a if same else corpus_texts(texts_b, "texts_b")
    mi = _check_measure(measure)
    jobs = _check_n_jobs(n_jobs)
    if backend not in (None, "compiled", "python"):
        raise ValueError("backend must be 'compiled', 'python' or None, got %r" % (backend,))
    single = _single_type_scorer(scorer, _resolve_type(scorer, rouge_type))
    na, nb = len(texts_a), len(texts_b)
    _check_size(na, nb, max_bytes)
    out = np.zeros((na, nb), dtype=np.float64)
    found = None if backend == "python" else _corpus(single, texts_a, None if same else texts_b)
    if backend == "compiled" and found is None:
        raise RuntimeError("the compiled core cannot score these texts with this scorer (backend: %s)"
                           % compiled.backend())
    if found is None:
        rtype = single.types[0]
        prepared_a = _prepare(single, texts_a, "texts_a")
        prepared_b = prepared_a if same else _prepare(single, texts_b, "texts_b")
        for i, pred in enumerate(prepared_a):
            for j, ref in enumerate(prepared_b):
                out[i, j] = _python_score(single, rtype, pred, ref, mi)
        return out
    cs, corpus = found
    if na == 0 or nb == 0:
        return out
    b_base = 0 if same else na
    core = compiled.core
    cancel = bytearray(1)   # set on Ctrl-C: the kernels still running in pool threads stop

    def rows(r0, r1):
        worker = cs.acquire()
        try:
            core.pair_matrix(worker, corpus, 0, b_base, nb, r0, r1, mi, out, cancel)
        finally:
            cs.release(worker)

    try:
        if jobs == 1 or na <= _ROW_CHUNK:
            rows(0, na)
        else:
            _run_chunks(jobs, rows, [(r, min(r + _ROW_CHUNK, na)) for r in range(0, na, _ROW_CHUNK)])
    except BaseException:
        cancel[0] = 1
        raise
    return out


def filter_near_duplicates(scorer, texts: Sequence, threshold: float, rouge_type: str = "rougeL",
                           measure: str = "fmeasure", n_jobs: int = 1,
                           backend: Optional[str] = None) -> NearDuplicates:
    """Keep texts in order, dropping one whose score against any kept text reaches ``threshold``.

    Each new text is scored as the reference against each kept text as the prediction (as
    Self-Instruct calls ``rouge_score``); it is dropped when a score is ``>= threshold``.
    Self-Instruct and Alpaca drop when ROUGE-L F ``> 0.7`` (keep ``max <= 0.7``): pass
    ``threshold=math.nextafter(0.7, 1)`` with ``RougeScorer(flavor="rouge_score")`` for exactly
    their rule.  Results are the same for every ``n_jobs`` (blocks of new texts are scanned
    against the kept ones, by ``n_jobs`` threads, then each block is settled in order).

    >>> from rouge_full_metric import RougeScorer
    >>> texts = ["Write a poem about the sea.", "Write a poem about the sea!", "List three prime numbers."]
    >>> filter_near_duplicates(RougeScorer("rougeL"), texts, 0.7)
    NearDuplicates(kept=[0, 2], dropped=[1], matched=[0], scores=[1.0])
    """
    import numpy as np

    texts = corpus_texts(texts, "texts")
    if not is_real(threshold) or math.isnan(threshold) or threshold <= 0:
        raise ValueError("threshold must be a number > 0 (a text is dropped when its score is >= threshold), "
                         "got %r" % (threshold,))
    threshold = float(threshold)
    mi = _check_measure(measure)
    jobs = _check_n_jobs(n_jobs)
    if backend not in (None, "compiled", "python"):
        raise ValueError("backend must be 'compiled', 'python' or None, got %r" % (backend,))
    if not isinstance(rouge_type, str):
        raise TypeError("rouge_type must be a rouge type name such as 'rougeL', got %r" % (rouge_type,))
    single = _single_type_scorer(scorer, parse_rouge_type(rouge_type).name)
    n = len(texts)
    found = None if backend == "python" else _corpus(single, texts, None)
    if backend == "compiled" and found is None:
        raise RuntimeError("the compiled core cannot score these texts with this scorer (backend: %s)"
                           % compiled.backend())
    match = np.full(max(n, 1), -1, dtype=np.int64)
    score = np.zeros(max(n, 1), dtype=np.float64)
    if found is None:
        kept = _python_filter(single, texts, threshold, mi, match, score)
    else:
        kept = _compiled_filter(found, n, threshold, mi, jobs, match, score)
    dropped = [q for q in range(n) if match[q] >= 0]
    return NearDuplicates(kept, dropped, [int(match[q]) for q in dropped], [float(score[q]) for q in dropped])


def _python_filter(single, texts, threshold, mi, match, score) -> List[int]:
    rtype = single.types[0]
    prepared = _prepare(single, texts, "texts")
    units = [_units(single, rtype, t) for t in prepared]
    reach = {}
    kept: List[int] = []
    for q, new in enumerate(prepared):
        for k in kept:
            if units[q] is not None:
                key = (units[q], units[k])
                ok = reach.get(key)
                if ok is None:
                    ok = reach[key] = _may_reach(single, min(key), units[q], units[k], mi, threshold)
                if not ok:
                    continue
            value = _python_score(single, rtype, prepared[k], new, mi)
            if value >= threshold:
                match[q] = k
                score[q] = value
                break
        else:
            kept.append(q)
    return kept


def _compiled_filter(found, n, threshold, mi, jobs, match, score) -> List[int]:
    import numpy as np

    cs, corpus = found
    core = compiled.core
    kept = np.zeros(max(n, 1), dtype=np.int64)
    cancel = bytearray(1)   # set on Ctrl-C: the kernels still running in pool threads stop

    def scan(lo, hi, nkept, scan_from, sequential):
        worker = cs.acquire()
        try:
            return core.pair_filter(worker, corpus, lo, hi, kept, nkept, scan_from, sequential, threshold, mi,
                                    match, score, cancel)
        finally:
            cs.release(worker)

    # Blocks of new texts: every text of the block against the texts kept before the block
    # (independent: the core runs them in row groups, and threads share the block), then, in
    # order, the block's unmatched texts against the block's own kept ones.
    nkept = 0
    try:
        for lo in range(0, n, _FILTER_BLOCK):
            hi = min(lo + _FILTER_BLOCK, n)
            if nkept:
                if jobs == 1:
                    scan(lo, hi, nkept, 0, False)
                else:
                    step = -(-(hi - lo) // jobs)
                    _run_chunks(jobs, lambda a, b: scan(a, b, nkept, 0, False),
                                [(a, min(a + step, hi)) for a in range(lo, hi, step)])
            nkept = scan(lo, hi, nkept, nkept, True)
    except BaseException:
        cancel[0] = 1
        raise
    return [int(x) for x in kept[:nkept]]


__all__ = ["MEASURES", "NearDuplicates", "score_matrix", "filter_near_duplicates"]
