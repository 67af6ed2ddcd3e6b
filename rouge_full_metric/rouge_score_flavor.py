"""Flavor ``rouge_score``: Google's ``rouge_score`` 0.1.2 as ``evaluate.load("rouge")`` runs it.

Its tokenizer differs from the Perl's: Python's Unicode ``str.lower()`` (so "İ" and the Kelvin
sign "K" become ASCII letters), every run outside ``[a-z0-9]`` becomes a space, and tokens longer
than 3 characters go through NLTK's ``PorterStemmer()`` in its default ``NLTK_EXTENSIONS`` mode
(not the Perl's Porter-Lin stemmer).  ``rougeLsum`` splits on ``"\\n"`` and drops empty lines
(with ``split_summaries=True``: on the sentences ``nltk.sent_tokenize`` finds).
F is 2PR/(P+R), written as rouge_score computes it, and several references keep the one with the
best F.  The LCS back-trace and the union-LCS clipping are the Perl's, so :mod:`.lcs` serves both.
"""
from __future__ import annotations

from .lazy_re import Pattern
from .memo import Memo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, List

_NON_ALPHANUMERIC = Pattern(r"[^a-z0-9]+")
_SPACES = Pattern(r"\s+")
_VALID = Pattern(r"^[a-z0-9]+$")


_NEEDS_NLTK = ("flavor='rouge_score' with use_stemmer=True needs NLTK's Porter stemmer (pip install nltk), "
               "as rouge_score itself does")


_nltk_found = False


def _check_nltk():
    """Fail at construction, not at the first token, when NLTK is missing (without importing it:
    the compiled engine may never need it, see :mod:`.nltk_porter`).  Looked up until found: the
    search costs ~40 us, three quarters of building a stemmed scorer."""
    global _nltk_found
    if _nltk_found:
        return
    from . import nltk_porter

    if nltk_porter.native_available():
        # NLTK's metadata names a release the core stems as, and the core will stem: NLTK is
        # installed, and importlib.util (with functools, contextlib, warnings) stays out
        _nltk_found = True
        return
    import importlib.util

    if importlib.util.find_spec("nltk") is None:  # pragma: no cover - depends on the environment
        raise ImportError(_NEEDS_NLTK)
    _nltk_found = True


def _nltk_porter():
    try:
        from nltk.stem import porter
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(_NEEDS_NLTK) from error
    return porter.PorterStemmer()


# Distinct tokens the stemmed tokenizer memoizes before it starts afresh (an open vocabulary
# must not grow a long-lived process without bound); read at call time, so tests can lower it.
# The memo's bytes are bounded too (memo.MAX_BYTES): that binds first, 2^19 entries swung RSS
# between 200 and 376 MB.
CACHE_LIMIT = 1 << 19


def _tokenize_plain(text: str) -> List[str]:
    return [t for t in _SPACES.split(_NON_ALPHANUMERIC.sub(" ", text.lower())) if _VALID.match(t)]


class StemmedTokenizer:
    """rouge_score's ``DefaultTokenizer(use_stemmer=True)``, memoizing NLTK's stems in a bounded
    cache.  A class rather than a closure so that a scorer pickles; the memo is not pickled.
    NLTK (the reference; importing it takes a second) is loaded at the first stem: the compiled
    engine stems in C and may never call this."""

    __slots__ = ("_stemmer", "_cache")

    def __init__(self):
        _check_nltk()
        self._stemmer = None
        self._cache = Memo()   # bounded in bytes too (memo.MAX_BYTES)

    def __reduce__(self):
        return (StemmedTokenizer, ())

    def cache_size(self) -> int:
        """How many tokens are memoized (at most ``CACHE_LIMIT``)."""
        return len(self._cache)

    def _stem(self, token: str) -> str:
        cache = self._cache
        result = cache.get(token)
        if result is None:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            if self._stemmer is None:
                self._stemmer = _nltk_porter()
            result = cache.put(token, self._stemmer.stem(token))
        return result

    def __call__(self, text: str) -> List[str]:
        tokens = _SPACES.split(_NON_ALPHANUMERIC.sub(" ", text.lower()))
        stem = self._stem
        return [t for t in (stem(x) if len(x) > 3 else x for x in tokens) if _VALID.match(t)]


def make_tokenizer(use_stemmer: bool = False, tokenizer=None) -> Callable[[str], List[str]]:
    """rouge_score's ``DefaultTokenizer`` (memoizing the stemmer), or a user's tokenizer.

    ``tokenizer`` may be a callable ``str -> list[str]`` (as ``evaluate``'s rouge takes) or an
    object with a ``tokenize`` method (as ``rouge_score`` takes); it replaces the default
    tokenizer and its stemmer entirely, as in rouge_score.

    >>> make_tokenizer(use_stemmer=True)("The Runners' 3.5-mile RUNS, İstanbul")
    ['the', 'runner', '3', '5', 'mile', 'run', 'i', 'stanbul']
    """
    if tokenizer is not None:
        if hasattr(tokenizer, "tokenize") and callable(tokenizer.tokenize):
            return tokenizer.tokenize
        if callable(tokenizer):
            return tokenizer
        raise TypeError("tokenizer must be a callable str -> list[str] or have a tokenize() method, got %r"
                        % (tokenizer,))
    if not use_stemmer:
        return _tokenize_plain
    return StemmedTokenizer()


def sentences_of(text: str) -> List[str]:
    """rouge_score's ``rougeLsum`` sentences: the non-empty ``"\\n"``-separated lines.

    >>> sentences_of("One.\\n\\nTwo.\\n")
    ['One.', 'Two.']
    """
    return [s for s in text.split("\n") if len(s)]


_NEEDS_PUNKT = ("split_summaries=True splits rougeLsum's texts with nltk.sent_tokenize, as rouge_score does, "
                "and that needs NLTK's punkt model, which is not installed and is never downloaded at run "
                "time. Install it once with `python -m nltk.downloader punkt_tab`, or put one sentence on "
                "each line yourself (rouge_full_metric.sentence_splitting.split_text has offline splitters) "
                "and keep split_summaries=False")


def make_sentence_splitter() -> Callable[[str], List[str]]:
    """rouge_score's ``split_summaries=True``: ``rougeLsum``'s sentences are the non-empty ones
    ``nltk.sent_tokenize`` finds in the whole text (a sentence may span lines).  Fails here, not at
    the first text, when NLTK's punkt model is missing.  ``nltk.sent_tokenize`` is looked up
    at each call, as rouge_score looks it up (a test may patch it in both).

    >>> import nltk
    >>> from nltk.tokenize.punkt import PunktSentenceTokenizer
    >>> saved, nltk.sent_tokenize = nltk.sent_tokenize, PunktSentenceTokenizer().tokenize
    >>> make_sentence_splitter()("One here. Two\\nthere.  ")
    ['One here.', 'Two\\nthere.']
    >>> nltk.sent_tokenize = saved
    """
    import nltk   # a dependency of the package

    try:
        nltk.sent_tokenize("One. Two.")
    except LookupError:
        raise LookupError(_NEEDS_PUNKT) from None

    def split(text: str) -> List[str]:
        return [s for s in nltk.sent_tokenize(text) if len(s)]
    return split


def sentence_lines(sentences: List[str]) -> str:
    """The text the core's rouge_score reader takes for ``sentences``: one a line, their own line
    breaks made spaces (rouge_score's tokenizer reads both as separators).

    >>> sentence_lines(['One here.', 'Two\\nthere.'])
    'One here.\\nTwo there.'
    """
    return "\n".join(s.replace("\n", " ") for s in sentences)


def as_text(text, argument: str) -> str:
    """A prediction or reference as the ``str`` rouge_score expects (sentence lists are joined by
    newlines, bytes decoded as UTF-8).

    >>> as_text(["One.", "Two."], "prediction")
    'One.\\nTwo.'
    """
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("utf-8")
    if isinstance(text, (list, tuple)):
        for k, sentence in enumerate(text):
            if not isinstance(sentence, str):
                raise TypeError("%s: sentence %d must be str, got %s" % (argument, k, type(sentence).__name__))
        return "\n".join(text)
    raise TypeError("%s must be a str or a list of sentences (str), got %s" % (argument, type(text).__name__))


def fmeasure(precision: float, recall: float) -> float:
    """rouge_score's F: 2PR/(P+R), in its operation order.

    >>> fmeasure(0.5, 1.0)
    0.6666666666666666
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0

