"""Word segmenters of XL-Sum's scorer: jieba (Chinese), fugashi + UniDic-lite (Japanese), PyThaiNLP
newmm (Thai) and a rule-based Burmese syllable splitter.

Each takes the text as the anchor hands it over (lower-cased, cleaned by the BasicTokenizer, its
tokens joined by single spaces) and returns the anchor's tokens unchanged -- jieba and newmm return
the spaces between words as ``" "`` tokens, and XL-Sum's scorer counts them, so these do too.
The three packages are optional (the ``[multilingual]`` extra: ``pip install ".[multilingual]"`` in a checkout) and imported on
first use; Burmese needs nothing.  jieba and newmm run in the compiled core when it is there and the
installed release is one the port was proven equal on (:mod:`.native_segmenters`).  Nothing is
downloaded: Japanese uses the ``unidic-lite`` dictionary shipped inside its wheel (never the
``unidic`` package, whose dictionary is a download).
"""
import threading
from typing import Callable, Dict, List

from .extras import install_line

EXTRA = install_line("multilingual")

_cache: Dict[str, Callable[[str], List[str]]] = {}


def _missing(package: str, language: str, error: Exception) -> ImportError:
    return ImportError("lang=%r needs the %s package to segment words, as XL-Sum's scorer does: %s"
                       % (language, package, EXTRA))


def _jieba(language: str):
    try:
        import jieba
    except ImportError as error:
        raise _missing("jieba", language, error) from error
    import logging

    jieba.setLogLevel(logging.WARNING)  # its "Building prefix dict" chatter on stderr
    jieba.initialize()
    from .native_segmenters import jieba_segmenter

    native = jieba_segmenter()
    if native is not None:
        return native

    def segment(text: str) -> List[str]:
        return list(jieba.cut(text))

    return segment


# MeCab (through fugashi 1.5.2, unidic-lite 1.0.8) crashes the process with a segmentation fault
# on one input of a few MB (2.4 MB of generated news-like Japanese, 3.8 MB of another text).  A
# text longer than this many UTF-8 bytes is therefore parsed in pieces, cut after a sentence end
# (U+3002), else at a space, else between two characters; shorter texts -- every summary -- go to
# MeCab whole, as XL-Sum's scorer sends them, so their tokens are the anchor's.  A cut may change
# the segmentation next to it (MeCab's costs connect the words on either side), where the
# anchor itself would have crashed.
MECAB_PIECE_BYTES = 1 << 19


def mecab_pieces(text: str, limit: int = MECAB_PIECE_BYTES) -> List[str]:
    """``text`` in pieces of at most ``limit`` UTF-8 bytes (the whole text when it fits), cut
    after a sentence end (。), else at a space, else between two characters.

    >>> mecab_pieces("ab。cd ef", limit=6)
    ['ab。', 'cd ef']
    >>> mecab_pieces("ab。cd ef", limit=4)
    ['ab', '。', 'cd ', 'ef']
    >>> mecab_pieces("short")
    ['short']
    """
    if len(text) * 4 <= limit:
        return [text]
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return [text]
    pieces, start = [], 0
    while len(data) - start > limit:
        window = data[start:start + limit]
        cut = window.rfind("\u3002".encode("utf-8"))
        if cut >= 0:
            cut += 3
        else:
            cut = window.rfind(b" ") + 1
            if cut <= 0:
                cut = limit
                while cut > 1 and (data[start + cut] & 0xC0) == 0x80:   # not inside a character
                    cut -= 1
        pieces.append(data[start:start + cut].decode("utf-8", "surrogatepass"))
        start += cut
    pieces.append(data[start:].decode("utf-8", "surrogatepass"))
    return pieces


def _fugashi(language: str):
    try:
        import fugashi
        import unidic_lite
    except ImportError as error:
        raise _missing("fugashi and unidic-lite", language, error) from error
    import os

    # Name the dictionary: fugashi would otherwise prefer an installed `unidic`, whose dictionary
    # is a separate download and fails offline.
    dicdir = unidic_lite.DICDIR
    tagger = fugashi.Tagger('-r "%s" -d "%s" -O wakati -b 50000' % (os.path.join(dicdir, "mecabrc"), dicdir))

    lock = threading.Lock()   # one MeCab tagger: never parse with it from two threads at once

    def segment(text: str) -> List[str]:
        with lock:
            return [token for piece in mecab_pieces(text) for token in tagger.parse(piece).split()]

    return segment


def _newmm(language: str):
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError as error:
        raise _missing("pythainlp", language, error) from error
    from .native_segmenters import newmm_segmenter

    native = newmm_segmenter()
    if native is not None:
        return native

    def segment(text: str) -> List[str]:
        return word_tokenize(text, engine="newmm")

    return segment


_ASAT, _DOT_BELOW, _VIRAMA = "\u103a", "\u1037", "\u1039"
# Dependent signs: they attach to the unit before them.
_DEPENDENT = frozenset([chr(0x102B + x) for x in range(8)] + [chr(0x1036 + x) for x in range(3)]
                       + [chr(0x103B + x) for x in range(4)] + [_ASAT])


def burmese(text: str) -> List[str]:
    """XL-Sum's rule-based Burmese splitter (after https://dl.acm.org/doi/fullHtml/10.1145/3325885).

    Whitespace is removed first, so words written in other scripts fall apart into characters
    (a quirk of the anchor, kept).

    >>> burmese("မြန်မာ ab")
    ['မြန်', 'မာ', 'a', 'b']
    """
    text = text.replace("\u200c", " ").replace(_DOT_BELOW + _ASAT, _ASAT + _DOT_BELOW)
    units = list("".join(text.lower().strip().split()))
    # basic units: a dependent sign joins the unit before it (scanning from the end)
    units.reverse()
    for i in range(len(units) - 1):
        if units[i][0] in _DEPENDENT:
            units[i + 1] += units[i]
            units[i] = ""
    units.reverse()
    # a short unit with an asat joins the unit before it (fewer than 4 characters, to spare "au")
    units = " ".join(units).split()
    for i in range(1, len(units)):
        if _ASAT in units[i] and len(units[i]) < 4:
            units[i - 1] += units[i]
            units[i] = ""
    # stacked consonants glue together
    joined = " ".join(" ".join(units).split()).replace(" " + _VIRAMA + " ", _VIRAMA)
    return joined.split()


def _burmese(language: str):
    return burmese


_FACTORIES = {"jieba": _jieba, "fugashi": _fugashi, "newmm": _newmm, "burmese": _burmese}


def get(name: str, language: str) -> Callable[[str], List[str]]:
    """The segmenter called ``name`` ("jieba", "fugashi", "newmm", "burmese"), built once.

    ``language`` only names the language in the ImportError of a missing package.

    >>> get("burmese", "burmese")("မြန်မာ")
    ['မြန်', 'မာ']
    """
    segmenter = _cache.get(name)
    if segmenter is None:
        segmenter = _cache[name] = _FACTORIES[name](language)
    return segmenter


_PACKAGES = {"jieba": ("jieba",), "fugashi": ("fugashi", "unidic-lite"), "newmm": ("pythainlp",), "burmese": ()}


def versions(name: str) -> str:
    """The installed versions of the packages behind segmenter ``name`` (for signatures).

    >>> versions("burmese")
    ''
    """
    from importlib import metadata

    out = []
    for package in _PACKAGES[name]:
        try:
            out.append("%s-%s" % (package, metadata.version(package)))
        except metadata.PackageNotFoundError:
            out.append("%s-missing" % package)
    return "+".join(out)
