"""Word segmenters of XL-Sum's scorer: jieba (Chinese), fugashi + UniDic-lite (Japanese), PyThaiNLP
newmm (Thai) and a rule-based Burmese syllable splitter.

Each takes the text as the anchor hands it over (lower-cased, cleaned by the BasicTokenizer, its
tokens joined by single spaces) and returns the anchor's tokens unchanged -- jieba and newmm return
the spaces between words as ``" "`` tokens, and XL-Sum's scorer counts them, so these do too.
The three packages are optional (``pip install "rouge_full_metric[multilingual]"``) and imported on
first use; Burmese needs nothing.  Thai runs newmm's word graph and cluster rules in the compiled
core (csrc/newmm.c, with PyThaiNLP's own dictionary and patterns) for the PyThaiNLP releases it
was proven equal on, ``word_tokenize`` otherwise.  Nothing is downloaded: Japanese uses the ``unidic-lite``
dictionary shipped inside its wheel (never the ``unidic`` package, whose dictionary is a download).
"""
import threading
from typing import Callable, Dict, List, Optional

EXTRA = 'pip install "rouge_full_metric[multilingual]"'

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

    def segment(text: str) -> List[str]:
        return list(jieba.cut(text))

    return segment


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
            return tagger.parse(text).split()

    return segment


# PyThaiNLP releases whose newmm the compiled port reproduces word for word: 24,000 generated
# texts each, 0 differences (tests/check_newmm_versions.py; tests/test_newmm.py checks the
# installed one).  5.0.1-5.2.0 differ on about 1 text in 4,000 -- their breadth-first search had
# no visited set, so it can reach the last position by another path -- and keep word_tokenize.
NEWMM_VERIFIED = ("5.3.0", "5.3.1", "5.3.2", "5.3.3", "5.3.4", "5.3.5", "5.3.7", "5.3.8", "5.4.0")


def _newmm(language: str):
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError as error:
        raise _missing("pythainlp", language, error) from error
    native = _native_newmm()
    if native is not None:
        return native

    def segment(text: str) -> List[str]:
        return word_tokenize(text, engine="newmm")

    return segment


def _native_newmm():
    """``word_tokenize(text, engine="newmm")`` run in the compiled core, or None.

    Only for the PyThaiNLP releases in NEWMM_VERIFIED: the port mirrors their algorithm step by
    step, and another release may break ties differently.  The dictionary, the cluster pattern
    (compiled by :func:`tcc_program`) and ``rejoin_formatted_num`` are PyThaiNLP's own.
    """
    from importlib import metadata

    from . import compiled

    if compiled.core is None or metadata.version("pythainlp") not in NEWMM_VERIFIED:
        return None
    from pythainlp.corpus.common import thai_words
    from pythainlp.tokenize import tcc_p
    from pythainlp.tokenize._utils import rejoin_formatted_num

    program = tcc_program(tcc_p._PAT_TCC)
    if program is None:
        return None
    core = compiled.core
    trie = core.newmm_dictionary(thai_words(), program)

    def segment(text: str) -> List[str]:
        return rejoin_formatted_num(core.newmm_segment(trie, text)) if text else []

    return segment


_TX = {"LITERAL": 1, "IN": 2, "AT": 3, "BRANCH": 4, "MAX_REPEAT": 5, "SUBPATTERN": 6, "ASSERT": 7}


def tcc_program(pattern) -> Optional[bytes]:
    """A compiled regular expression as the core's cluster matcher runs it (csrc/newmm.c), or
    None when it uses anything that matcher lacks (then tcc_pos_array stays in Python).

    The matcher knows literals, classes of literals and ranges, alternation, greedy repeats of at
    most 16 whose body cannot match nothing, groups, lookahead and "$" -- what PyThaiNLP's
    cluster rules use -- with re's semantics (first alternative that leads to a match wins).

    >>> import re
    >>> len(tcc_program(re.compile("a[b-c]?(?=d|$)"))) > 0, tcc_program(re.compile("a*"))
    (True, None)
    """
    import array
    import re

    try:
        from re import _parser as sre_parse   # Python 3.11+
    except ImportError:                      # pragma: no cover - older Pythons
        import sre_parse

    if pattern.flags & (re.IGNORECASE | re.MULTILINE):
        return None
    code = [0]

    def seq(items) -> int:
        nodes = [node(op, av) for op, av in items]
        if None in nodes:
            raise ValueError
        code.append(len(nodes))
        at = len(code) - 1
        code.extend(nodes)
        return at

    def node(op, av) -> Optional[int]:
        name = str(op)
        if name == "LITERAL":
            return emit(1, av)
        if name == "IN":
            ranges = []
            for kind, value in av:
                if str(kind) == "LITERAL":
                    ranges += [value, value]
                elif str(kind) == "RANGE":
                    ranges += list(value)
                else:
                    raise ValueError
            return emit(2, len(ranges) // 2, *ranges)
        if name == "AT" and str(av) == "AT_END":
            return emit(3)
        if name == "BRANCH":
            subs = [seq(items) for items in av[1]]
            return emit(4, len(subs), *subs)
        if name == "MAX_REPEAT":
            low, high, body = av
            if high > 16 or body.getwidth()[0] < 1:
                raise ValueError
            return emit(5, low, high, seq(body))
        if name == "SUBPATTERN" and not av[1] and not av[2]:
            return emit(6, seq(av[3]))
        if name == "ASSERT" and av[0] == 1:
            return emit(7, seq(av[1]))
        raise ValueError

    def emit(*values) -> int:
        code.extend(values)
        return len(code) - len(values)

    try:
        code[0] = seq(sre_parse.parse(pattern.pattern, pattern.flags))
    except (ValueError, TypeError, OverflowError):
        return None
    return array.array("i", code).tobytes()


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
