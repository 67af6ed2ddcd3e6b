"""No silent zeros: warn when the tokenizer throws away most of a text's letters.

ROUGE-1.5.5.pl's tokenizer (flavors ``rouge155`` and ``paper`` without ``lang``) and rouge_score's
default tokenizer keep ASCII letters and digits only, so Chinese, Russian or Hindi texts give no
tokens and every score is 0 -- silently, in the Perl and in ``evaluate``'s rouge.  Here each
``score``/``score_batch``/``score_corpus`` call (so each ``compute`` and each CLI run) checks its
texts and warns once with :class:`LostTextWarning`, naming the fix (``lang=...``).

Cheap on the hot path: only the first 200 examples are looked at (a corpus is in one language;
lazy inputs such as the CLI's file readers are not read twice), an ASCII text is never checked
further (``str.isascii`` runs in C), another text only in its first 2,000 characters, and checking
stops at the first hit.
"""
from __future__ import annotations

import itertools

from .lazy_re import Pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Optional

_ALNUM = Pattern(r"[^\W_]")
_ASCII_ALNUM = Pattern(r"[A-Za-z0-9]")
_ASCII_NOT_ALNUM = bytes(b for b in range(128) if not chr(b).isalnum())
_PREFIX = 2000
_EXAMPLES = 200

# The first letter's script -> the ISO 639-1 code suggested in the warning.
_SCRIPTS = (("CJK", "zh"), ("HIRAGANA", "ja"), ("KATAKANA", "ja"), ("THAI", "th"), ("MYANMAR", "my"),
            ("DEVANAGARI", "hi"), ("BENGALI", "bn"), ("ARABIC", "ar"), ("CYRILLIC", "ru"), ("HANGUL", "ko"),
            ("ETHIOPIC", "am"), ("GUJARATI", "gu"), ("GURMUKHI", "pa"), ("TAMIL", "ta"), ("TELUGU", "te"),
            ("SINHALA", "si"), ("GREEK", None))


class LostTextWarning(UserWarning):
    """A non-empty prediction or reference lost most of its letters to the tokenizer (its ROUGE
    scores are near or at 0 for a reason that has nothing to do with the summary)."""


def _as_str(text) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray)):
        return bytes(text[:4 * _PREFIX]).decode("utf-8", "replace")
    if isinstance(text, (list, tuple)):
        return "\n".join(_as_str(x) for x in text[:50])
    return ""


def ascii_majority(text: str, limit: int) -> bool:
    """Whether ``text[:limit]`` has at least as many ASCII letters and digits as non-ASCII
    characters (the core's ``ascii_majority`` computes the same without copying the text).

    >>> ascii_majority("“Café” au lait", 2000), ascii_majority("北京 ab", 2000), ascii_majority("北京今天 abc", 2000)
    (True, True, False)
    """
    text = text[:limit]
    ascii = text.encode("ascii", "ignore")
    return len(ascii.translate(None, _ASCII_NOT_ALNUM)) >= len(text) - len(ascii)


_ascii_majority = None   # the core's, or this module's: chosen at the first non-ASCII text


def _bound():
    global _ascii_majority
    from . import compiled

    _ascii_majority = getattr(compiled.core, "ascii_majority", None) if compiled.AVAILABLE else None
    _ascii_majority = _ascii_majority or ascii_majority
    return _ascii_majority


def keeps_letters(text: str) -> bool:
    """A str that surely keeps most of its letters (:func:`loses_letters` is False): ASCII, or
    at least as many ASCII letters and digits as non-ASCII characters where it is looked at.  At
    most every non-ASCII character is a lost letter, and lowering never makes an ASCII letter or
    digit non-ASCII, so then 2 * kept >= total.  English with curly quotes or dashes paid two
    regex scans before (50-250 us a text).

    >>> keeps_letters("“Quoted” — and dashed"), keeps_letters("北京今天 abc")
    (True, False)
    """
    return text.isascii() or (_ascii_majority or _bound())(text, _PREFIX)


def loses_letters(text, unicode_lower: bool = False) -> bool:
    """Whether most letters and digits of ``text`` are outside ASCII (lost to the Perl's tokenizer;
    ``unicode_lower``: to rouge_score's, which lower-cases first, so "K" (Kelvin) becomes "k").

    >>> loses_letters("北京今天下雨了。"), loses_letters("Café au lait"), loses_letters("")
    (True, False, False)
    >>> loses_letters("\u212a"), loses_letters("\u212a", unicode_lower=True)
    (True, False)
    """
    text = _as_str(text)
    if text.isascii() or keeps_letters(text):   # isascii first: a call saved on nearly every text
        return False
    head = text[:_PREFIX]
    total = len(_ALNUM.findall(head))
    kept = len(_ASCII_ALNUM.findall(head.lower() if unicode_lower else head))
    return total > 0 and 2 * kept < total


def suggest(text) -> str:
    """The ``lang`` to suggest for ``text``, from the script of its first non-ASCII letter.

    >>> suggest("北京"), suggest("Москва"), suggest("ǅ")
    ("'zh'", "'ru'", 'the language of the texts')
    """
    import unicodedata

    for c in _as_str(text)[:_PREFIX]:
        if c.isalpha() and not c.isascii():
            name = unicodedata.name(c, "")
            for script, code in _SCRIPTS:
                if name.startswith(script):
                    return repr(code) if code else "the language of the texts"
            return "the language of the texts"
    return "the language of the texts"


def first_lost(predictions: Iterable, references: Iterable, single: bool = False,
               unicode_lower: bool = False) -> Optional[tuple]:
    """``(where, text)`` of the first text that loses most of its letters, or None (``single``:
    one example, as ``RougeScorer.score`` takes it).

    >>> first_lost(["a b", "北京"], [["a"], ["c"]])
    ('predictions[1]', '北京')
    >>> first_lost(["a"], [["b", "北京"]], single=True)
    ('references[1]', '北京')
    """
    # ASCII strs (nearly every text) are passed over without a call: a batch of one pair spent
    # 0.6 us here
    for k, text in enumerate(itertools.islice(predictions, _EXAMPLES)):
        if not (type(text) is str and text.isascii()) and loses_letters(text, unicode_lower):
            return ("prediction" if single else "predictions[%d]" % k, text)
    for k, refs in enumerate(itertools.islice(references, _EXAMPLES)):
        if type(refs) is str and (refs.isascii() or keeps_letters(refs)):
            continue
        many = not isinstance(refs, (str, bytes, bytearray))
        for j, ref in enumerate(refs if many else [refs]):
            if loses_letters(ref, unicode_lower):
                where = "references" + ("[%d]" % j if many else "") if single else \
                    "references[%d]" % k + ("[%d]" % j if many else "")
                return (where, ref)
    return None


def warn(found: tuple, tokenizer: str, stacklevel: int = 3) -> None:
    """Issue the :class:`LostTextWarning` for ``first_lost``'s answer."""
    import warnings

    where, text = found
    sample = _as_str(text)[:40].replace("\n", " ")
    code = suggest(text)
    warnings.warn(
        "%s (%r...) lost most of its letters to %s, which keeps ASCII letters and digits only, "
        "so its ROUGE scores say nothing about the summary (often 0).  Give the texts' language: "
        "lang=%s (XL-Sum's 45 languages by name or ISO 639-1 code; CLI: --lang), or "
        "flavor='xlsum' to score as XL-Sum's multilingual ROUGE."
        % (where, sample, tokenizer, code if code.startswith("'") else "<%s>" % code),
        LostTextWarning, stacklevel=stacklevel)
