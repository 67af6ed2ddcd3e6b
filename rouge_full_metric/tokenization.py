"""Text pipeline of ROUGE-1.5.5.pl: sentences -> length limits -> cleaning -> tokens (spec §3.3, §4).

The Perl works on bytes, so everything here does too: a ``str`` is encoded to UTF-8 and each byte is
handled as one latin-1 character.  That makes "café" tokenize to ``caf`` and CJK vanish, exactly as
in the Perl, and keeps Python's Unicode-aware ``lower()``/``split()`` out of the way (they would
treat U+212A, ``\\x85``, ``\\xa0``... differently).

Each summary is read twice, as in the Perl: a *joined* reader (one token list for the whole
summary: ROUGE-N, S/SU and the unigram budgets of L/W) and a *sentence* reader (a token list per
sentence: the LCS/WLCS programs).  They only differ under ``word_limit``/``byte_limit``, where the
Perl's sentence reader has a bug under ``-b`` that parity requires us to keep (spec Q3).
"""
from __future__ import annotations

from collections import namedtuple

from .lazy_re import Pattern
from .memo import Memo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, List, Optional, Sequence, Union

    Text = Union[str, bytes, Sequence[Union[str, bytes]]]

# Perl's \s on byte strings; Python's str.split() would also split on \x1c-\x1f, \x85, \xa0.
_PERL_WHITESPACE = Pattern(r"[ \t\n\r\f\x0b]+")
# After the Perl's cleaning (every byte outside [A-Za-z0-9-] becomes a space, '-' becomes its own
# token and is then dropped) the surviving tokens are exactly the maximal [a-z0-9] runs.
_TOKEN = Pattern(r"[a-z0-9]+")

_stopwords = []   # [the SMART stop words], made on first use (see __getattr__)


def _stopword_set() -> frozenset:
    if not _stopwords:
        from .rouge155_data import SMART_COMMON_WORDS
        _stopwords.append(frozenset(line for line in SMART_COMMON_WORDS.split("\n") if line))
    return _stopwords[0]


def __getattr__(name):
    # STOPWORDS and stem are made or imported on first use: the stop words' table and the Perl
    # stemmer's module (its WordNet exception table, its regexes) cost a new process ~4 ms of
    # import, which only scorers with remove_stopwords or use_stemmer need
    if name == "STOPWORDS":
        return _stopword_set()
    if name == "stem":
        from .stemmer import stem
        return stem
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


class Summary(namedtuple("Summary", ["tokens", "sentences"])):
    """A summary as the Perl's two readers see it.

    ``tokens`` is the joined reader's token list, ``sentences`` the sentence reader's token lists
    (``None`` when no LCS-based type asked for them).
    """

    __slots__ = ()


def raw_sentences(text: Text, argument: str = "text") -> List[str]:
    """Split a summary into its raw, ASCII-lowercased sentences, one latin-1 char per byte.

    A ``str``/``bytes`` is split on ``\\n`` and empty lines are dropped (whitespace-only lines stay,
    as in the Perl's SPL reader); a list or tuple is taken as already-split sentences.

    >>> raw_sentences("The Cat.\\n\\n  \\nCafé")
    ['the cat.', '  ', 'caf\xc3\xa9']
    >>> raw_sentences(["One.", b"TWO"])
    ['one.', 'two']
    """
    if isinstance(text, str):
        lines = text.encode("utf-8", "surrogatepass").split(b"\n")
    elif isinstance(text, (bytes, bytearray)):
        lines = bytes(text).split(b"\n")
    elif isinstance(text, (list, tuple)):
        lines = []
        for k, sentence in enumerate(text):
            if isinstance(sentence, str):
                lines.append(sentence.encode("utf-8", "surrogatepass"))
            elif isinstance(sentence, (bytes, bytearray)):
                lines.append(bytes(sentence))
            else:
                raise TypeError("%s: sentence %d must be str or bytes, got %s"
                                % (argument, k, type(sentence).__name__))
    else:
        raise TypeError("%s must be a str, bytes or a list of sentences (str), got %s"
                        % (argument, type(text).__name__))
    # bytes.lower() is ASCII-only, which is what the Perl's lc does on byte strings.
    return [line.lower().decode("latin-1") for line in lines if line]


def perl_words(sentence: str) -> List[str]:
    """The Perl's ``split(/\\s+/, $s)``: a leading empty field counts, trailing ones do not.

    >>> perl_words(" a b,  --")
    ['', 'a', 'b,', '--']
    >>> perl_words("   ")
    []
    """
    fields = _PERL_WHITESPACE.split(sentence)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def limit_joined(sentences: List[str], word_limit: Optional[int], byte_limit: Optional[int]) -> str:
    """The joined reader's text after ``-l``/``-b`` (spec §4.2): one string for the summary.

    >>> limit_joined(["a b, c.", "d e f"], 4, None)
    'a b, c. d'
    >>> limit_joined(["abc", "defgh"], None, 6)
    'abc def'
    """
    if not word_limit and not byte_limit:
        return " ".join(sentences)
    limit = word_limit or byte_limit
    parts: List[str] = []
    used = 0
    for sentence in sentences:
        if word_limit:
            words = perl_words(sentence)
            size = len(words)
        else:
            size = len(sentence)  # raw bytes, the joining spaces are not counted
        if used + size < limit:
            parts.append(sentence)
            used += size
        else:
            cut = " ".join(words[:limit - used]) if word_limit else sentence[:limit - used]
            parts.append(cut)
            break
    # Joining with single spaces equals the Perl's "space before a sentence when used != 0":
    # a sentence appended while used == 0 is whitespace-only, so a missing space changes no token.
    return " ".join(parts)


def limit_sentences(sentences: List[str], word_limit: Optional[int],
                    byte_limit: Optional[int]) -> List[str]:
    """The sentence reader's sentences after ``-l``/``-b`` (spec §4.2, quirk Q3).

    Under ``byte_limit`` the Perl never advances its byte counter here, so every sentence shorter
    than the limit is kept whole and the first one at least as long is cut and ends the text.

    >>> limit_sentences(["bb aa", "aa bb"], None, 6)
    ['bb aa', 'aa bb']
    >>> limit_sentences(["a b c", "d e"], 4, None)
    ['a b c', 'd']
    """
    if not word_limit and not byte_limit:
        return sentences
    kept: List[str] = []
    used = 0
    for sentence in sentences:
        if word_limit:
            words = perl_words(sentence)
            if used + len(words) < word_limit:
                kept.append(sentence)
                used += len(words)
                continue
            kept.append(" ".join(words[:word_limit - used]))
            break
        if len(sentence) < byte_limit:
            kept.append(sentence)
            continue
        kept.append(sentence[:byte_limit])
        break
    return kept


# Distinct surface forms a token filter memoizes before it starts afresh: a long-lived process
# meeting an open vocabulary (names, numbers, typos) must not grow without bound.  Read at call
# time, so tests can lower it; the memo's bytes are bounded too (memo.MAX_BYTES), which is what
# binds first (about 100 MB at this many entries).
CACHE_LIMIT = 1 << 19


class TokenFilter:
    """Per-token stop-word removal then stemming, memoized per surface form (a bounded cache).

    A class rather than a closure so that a :class:`~rouge_full_metric.RougeScorer` pickles
    (multiprocessing, ``datasets.map(num_proc=...)``, Spark); the memo is not pickled.
    ``settings`` says what it does, for the compiled core, which applies it natively (batch.py).
    """

    __slots__ = ("settings", "_cache")

    def __init__(self, use_stemmer: bool, remove_stopwords: bool):
        self.settings = (bool(use_stemmer), bool(remove_stopwords))
        self._cache = Memo()   # bounded in bytes too (memo.MAX_BYTES)

    def __reduce__(self):
        return (TokenFilter, self.settings)

    def cache_size(self) -> int:
        """How many surface forms are memoized (at most ``CACHE_LIMIT``)."""
        return len(self._cache)

    def _process(self, token: str) -> Optional[str]:
        use_stemmer, remove_stopwords = self.settings
        if remove_stopwords and token in _stopword_set():
            result = None
        elif use_stemmer and len(token) > 3:
            from .stemmer import stem
            result = stem(token)
        else:
            result = token
        cache = self._cache
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        return cache.put(token, result)

    def __call__(self, tokens: List[str]) -> List[str]:
        if self.settings == (False, False):
            return tokens
        get = self._cache.get
        out = []
        for token in tokens:
            result = get(token, 0)
            if result == 0:
                result = self._process(token)
            if result is not None:
                out.append(result)
        return out


def make_token_filter(use_stemmer: bool, remove_stopwords: bool) -> TokenFilter:
    """Per-token stop-word removal then stemming (spec §4.1 step 5), memoized per surface form.

    Stop words are tested on the surface form, before stemming; only tokens longer than 3
    characters are stemmed (not even looked up in the exception table otherwise).

    >>> f = make_token_filter(use_stemmer=True, remove_stopwords=True)
    >>> f(["want", "wanted", "ran", "geese"])
    ['want', 'ran', 'goose']
    """
    return TokenFilter(use_stemmer, remove_stopwords)


def tokenize(text: str) -> List[str]:
    """Clean one (lowercased, latin-1) string and split it into raw tokens.

    >>> tokenize("u.s. e-mail don't $5 3.5 caf\\xc3\\xa9")
    ['u', 's', 'e', 'mail', 'don', 't', '5', '3', '5', 'caf']
    """
    return _TOKEN.findall(text)


def read_summary(sentences: List[str], token_filter, word_limit: Optional[int] = None,
                 byte_limit: Optional[int] = None, with_sentences: bool = True) -> Summary:
    """Run both readers on a summary's raw sentences (from :func:`raw_sentences`).

    >>> read_summary(["a b, c.", "d e f"], make_token_filter(False, False), word_limit=4)
    Summary(tokens=['a', 'b', 'c', 'd'], sentences=[['a', 'b', 'c'], ['d']])
    """
    if not word_limit and not byte_limit:
        per_sentence = [token_filter(_TOKEN.findall(s)) for s in sentences] if with_sentences else None
        if per_sentence is not None:
            tokens = [t for s in per_sentence for t in s]
        else:
            tokens = token_filter(_TOKEN.findall(" ".join(sentences)))
        return Summary(tokens, per_sentence)
    tokens = token_filter(_TOKEN.findall(limit_joined(sentences, word_limit, byte_limit)))
    per_sentence = None
    if with_sentences:
        per_sentence = [token_filter(_TOKEN.findall(s))
                        for s in limit_sentences(sentences, word_limit, byte_limit)]
    return Summary(tokens, per_sentence)
