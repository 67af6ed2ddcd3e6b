"""XL-Sum's multilingual tokenizer (``multilingual-rouge`` 0.0.1), in pure Python, no optional package.

The anchor tokenizes a text in this order (each step reimplemented here exactly):

1. ``text.lower()`` (Python's Unicode lower-casing; "İ" becomes "i" + U+0307).
2. BERT's ``BasicTokenizer`` (:func:`basic_tokens`): NUL, U+FFFD and every category-C character
   but ``\\t\\n\\r`` are dropped; the text is split on Python whitespace and on punctuation, and
   the punctuation is dropped.  Punctuation is Unicode category P* plus every ASCII symbol
   (``$ + < = > ^ ` | ~``); other symbols (``€ ° ©``, emoji) and marks stay.
3. The language's segmenter, if it has one (:mod:`.segmenters`), on those tokens joined by spaces;
   its tokens are final (jieba and newmm keep the spaces between words as ``" "`` tokens).
4. Otherwise -- or when the segmenter returns nothing -- OpenNMT Tokenizer's ``aggressive`` mode
   (:func:`aggressive`, what ``pyonmttok`` computes): a run of letters is one token, a run of
   digits/numbers is one token, letters and numbers split from each other, combining marks continue
   the token before them (marks after a space form a token that starts with the space written
   ``％0020``, a mark at the very start one of their own), every other character is a token of its
   own, and three characters are substituted (U+2581 -> ``_``, U+FFE8 -> U+2502, U+FFED -> U+25A0).
5. One token per CJK ideograph (BERT's ``tokenize_chinese_chars``).
6. With a stemmer, tokens longer than 3 characters are stemmed (:mod:`.multilingual_stemmers`);
   empty tokens are dropped.

``rougeLsum`` tokenizes each sentence with steps 1, 2 and 6 only (:func:`sentence_tokens`): the
anchor passes no tokenizer there, so neither the segmenter nor the aggressive split nor the
CJK split runs -- a quirk kept in flavor ``xlsum``.
"""
import bisect
import re
import unicodedata
from typing import Callable, List, Optional

from . import xlsum_unicode
from .memo import Memo

# The three substitutions pyonmttok makes on tokens (its others are for characters the
# BasicTokenizer already removed as punctuation).
_SUBSTITUTES = str.maketrans({"\u2581": "_", "\uffe8": "\u2502", "\uffed": "\u25a0"})
_PROTECTED_SPACE = "\uff050020"

# BERT's "Chinese character" blocks (tokenize_chinese_chars).
_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
               (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))

# Per-character decisions, made once per distinct character and kept in str.translate tables:
# a character class with hundreds of ranges makes Python's re slow, a dict lookup does not.
_BASIC_SEEN = set()
_BASIC_TABLE = {}      # ord -> None (dropped: NUL, U+FFFD, category C but \t\n\r) or " " (punctuation)
_RANGES = {}
_CJK = re.compile("[%s]" % "".join("%s-%s" % (re.escape(chr(a)), re.escape(chr(b))) for a, b in _CJK_RANGES))


def _parse(spec) -> tuple:
    pairs = [tuple(int(x, 16) for x in item.split("-")) for item in "".join(spec).split()]
    return [a for a, _ in pairs], [b for _, b in pairs]


def _in(cp: int, ranges) -> bool:
    starts, ends = ranges
    k = bisect.bisect_right(starts, cp) - 1
    return k >= 0 and cp <= ends[k]


def _basic_kind(c: str):
    cp = ord(c)
    cat = unicodedata.category(c)
    if cp == 0 or cp == 0xFFFD or (cat[0] == "C" and c not in "\t\n\r"):
        return None
    if cat[0] == "P" or 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return " "
    return False


def _aggressive_kind(c: str) -> str:
    if not _RANGES:
        _RANGES.update(L=_parse(xlsum_unicode.LETTERS), N=_parse(xlsum_unicode.NUMBERS),
                       M=_parse(xlsum_unicode.MARKS))
    if c == " ":
        return " "
    cp = ord(c)
    for kind in "LNM":
        if _in(cp, _RANGES[kind]):
            return kind
    return "O"


def basic_tokens(text: str) -> List[str]:
    """BERT's ``BasicTokenizer`` as the anchor uses it (no lower-casing, no CJK split).

    >>> basic_tokens("Hello, wörld! $5.20 (l'été) 北京，今天")
    ['Hello', 'wörld', '5', '20', 'l', 'été', '北京', '今天']
    """
    new = set(text).difference(_BASIC_SEEN)
    if new:
        for c in new:
            kind = _basic_kind(c)
            if kind is not False:
                _BASIC_TABLE[ord(c)] = kind
        _BASIC_SEEN.update(new)
    # Python's str.split() is the BasicTokenizer's whitespace split (its \x1c-\x1f and \x85 are
    # category C and already gone).
    return text.translate(_BASIC_TABLE).split()


# The aggressive split runs in C: each character is written behind a marker of its class (a
# control character, which the BasicTokenizer has removed from the text), one regular expression
# over the markers finds the tokens, and the markers are deleted.
_MARK = {"L": "\x01", "N": "\x02", "M": "\x03", "O": "\x04"}
_PAIR_TABLE = {ord(" "): " "}    # ord -> marker + character (substituted where pyonmttok does)
_TOKENS = re.compile("\x01.(?:[\x01\x03].)*|\x02.(?:[\x02\x03].)*|(?:\uff050020)?(?:\x03.)+|\x04.(?:\x03.)*",
                     re.DOTALL)
_UNMARK = {ord(m): None for m in _MARK.values()}


_KIND_TABLE = {ord(" "): " "}    # ord -> its class letter: L, N, M or O
# A word that the aggressive mode leaves whole: one run of letters or of numbers (marks included).
_COMPLEX_WORD = re.compile(r"(?<!\S)(?!(?:L[LM]*|N[NM]*)(?!\S))\S+")


def aggressive(text: str) -> List[str]:
    """OpenNMT Tokenizer's ``aggressive`` mode (``pyonmttok.Tokenizer("aggressive")``) on a
    text that went through :func:`basic_tokens` (so it holds no control character and no
    whitespace but spaces).

    >>> aggressive("abc123def 3x ° ५५ नमस्ते ▁")
    ['abc', '123', 'def', '3', 'x', '°', '५५', 'नमस्ते', '_']
    """
    kinds, pairs = _KIND_TABLE, _PAIR_TABLE
    for c in set(text):
        if ord(c) not in kinds:
            kind = _aggressive_kind(c)
            kinds[ord(c)] = kind
            pairs[ord(c)] = _MARK[kind] + c.translate(_SUBSTITUTES)
    # Most words are one run of letters or digits: only the others go through the split.
    complex_words = [m.span() for m in _COMPLEX_WORD.finditer(text.translate(kinds))]
    if not complex_words:
        return text.split()
    parts, last = [], 0
    for a, b in complex_words:
        parts.append(text[last:a])
        marked = text[a:b].translate(pairs)
        if a and marked[0] == "\x03":
            # Marks after a space: pyonmttok keeps the space, protected as "％0020", in the token.
            marked = _PROTECTED_SPACE + marked
        parts.append(" ".join(_TOKENS.findall(marked)).translate(_UNMARK))
        last = b
    parts.append(text[last:])
    return " ".join(parts).split()


def split_cjk(tokens: List[str]) -> List[str]:
    """One token per CJK ideograph, the rest of each token kept together.

    >>> split_cjk(["北京abc", "x"])
    ['北', '京', 'abc', 'x']
    """
    text = " ".join(tokens)
    if _CJK.search(text) is None:
        return tokens
    return _CJK.sub(r" \g<0> ", text).split()


def default_tokens(sanitized: str) -> List[str]:
    """The anchor's tokenizer for a language without a segmenter (steps 4-5)."""
    return split_cjk(aggressive(sanitized))


def make_tokenizer(segmenter: Optional[Callable[[str], List[str]]] = None,
                   stemmer: Optional[Callable[[str], str]] = None) -> Callable[[str], List[str]]:
    """The anchor's ``tokenize(text, stemmer, MultiTokenizer(lang))`` for the whole text.

    >>> make_tokenizer()("Le 3ème match, à Zürich: 2-1!")
    ['le', '3', 'ème', 'match', 'à', 'zürich', '2', '1']
    """
    cache = Memo()   # bounded in bytes (memo.MAX_BYTES): an open vocabulary must not grow it forever

    def stem(token: str) -> str:
        result = cache.get(token)
        if result is None:
            result = cache.put(token, stemmer(token) if len(token) > 3 else token)
        return result

    def tokenize(text: str) -> List[str]:
        sanitized = " ".join(basic_tokens(text.lower()))
        tokens = segmenter(sanitized) if segmenter is not None else []
        if not tokens and sanitized:
            tokens = default_tokens(sanitized)
        if stemmer is not None:
            tokens = [stem(t) for t in tokens]
        return [t for t in tokens if t]

    return tokenize


def make_sentence_tokenizer(stemmer: Optional[Callable[[str], str]] = None) -> Callable[[str], List[str]]:
    """The anchor's ``rougeLsum`` sentence tokenizer: lower-case, BasicTokenizer, stem -- no
    segmenter, no aggressive split, no CJK split (its quirk).

    >>> make_sentence_tokenizer()("北京今天下雨了。abc123")
    ['北京今天下雨了', 'abc123']
    """
    cache = Memo()   # bounded in bytes (memo.MAX_BYTES)

    def tokenize(text: str) -> List[str]:
        tokens = basic_tokens(text.lower())
        if stemmer is not None:
            out = []
            for t in tokens:
                result = cache.get(t)
                if result is None:
                    result = cache.put(t, stemmer(t) if len(t) > 3 else t)
                out.append(result)
            tokens = out
        return [t for t in tokens if t]

    return tokenize
