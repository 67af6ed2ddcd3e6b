"""The languages of XL-Sum (Hasan et al., 2021) and the token pipeline each gets with ``lang=``.

A language is named by its XL-Sum name (``"chinese_simplified"``), one of the aliases XL-Sum's
scorer accepts (``"bangla"``, ``"turkce"``, ``"mundo"``, ``"chinese"``...), or its ISO 639-1 code
(``"zh"``); case, spaces and hyphens do not matter.  Each resolves to the pipeline XL-Sum's scorer
(``multilingual-rouge`` 0.0.1) runs for it: BasicTokenizer cleaning, then a word segmenter
(Chinese, Japanese, Thai, Burmese) or the aggressive pre-tokenizer, and, with ``use_stemmer``, a
stemmer (9 of the 45 languages have one; the others are not stemmed).
"""
from typing import Dict, List, NamedTuple, Optional


class Language(NamedTuple):
    """One language: ``name`` (the key XL-Sum's scorer uses), ``code`` (ISO 639-1, or "" when the
    language has none), ``segmenter`` and ``stemmer`` (None: none)."""

    name: str
    code: str
    segmenter: Optional[str]
    stemmer: Optional[str]


# XL-Sum's 45 languages.  Serbian (Cyrillic and Latin) share "sr"; Chinese (simplified and
# traditional) share "zh" and the jieba segmenter, as in XL-Sum's scorer.
_TABLE = [
    ("amharic", "am", None, None), ("arabic", "ar", None, "arabic"), ("azerbaijani", "az", None, None),
    ("bengali", "bn", None, "bengali"), ("burmese", "my", "burmese", None),
    ("chinese", "zh", "jieba", None), ("english", "en", None, "english"), ("french", "fr", None, "french"),
    ("gujarati", "gu", None, None), ("hausa", "ha", None, None), ("hindi", "hi", None, "hindi"),
    ("igbo", "ig", None, None), ("indonesian", "id", None, None), ("japanese", "ja", "fugashi", None),
    ("kirundi", "rn", None, None), ("korean", "ko", None, None), ("kyrgyz", "ky", None, None),
    ("marathi", "mr", None, None), ("nepali", "ne", None, None), ("oromo", "om", None, None),
    ("pashto", "ps", None, None), ("persian", "fa", None, None), ("pidgin", "", None, None),
    ("portuguese", "pt", None, "portuguese"), ("punjabi", "pa", None, None),
    ("russian", "ru", None, "russian"), ("scottish_gaelic", "gd", None, None),
    ("serbian_cyrillic", "sr", None, None), ("serbian_latin", "", None, None), ("sinhala", "si", None, None),
    ("somali", "so", None, None), ("spanish", "es", None, "spanish"), ("swahili", "sw", None, None),
    ("tamil", "ta", None, None), ("telugu", "te", None, None), ("thai", "th", "newmm", None),
    ("tigrinya", "ti", None, None), ("turkish", "tr", None, "turkish"), ("ukrainian", "uk", None, None),
    ("urdu", "ur", None, None), ("uzbek", "uz", None, None), ("vietnamese", "vi", None, None),
    ("welsh", "cy", None, None), ("yoruba", "yo", None, None),
]

LANGUAGES: Dict[str, Language] = {row[0]: Language(*row) for row in _TABLE}

# XL-Sum's names that its scorer maps to another key, plus its own aliases.
ALIASES = {"bangla": "bengali", "turkce": "turkish", "chinese_simplified": "chinese",
           "chinese_traditional": "chinese", "mundo": "spanish"}

# What the names XL-Sum's dataset uses resolve to (45 names: chinese_simplified/traditional
# instead of chinese).
XLSUM_NAMES = sorted([name for name in LANGUAGES if name != "chinese"]
                     + ["chinese_simplified", "chinese_traditional"])

_CODES = {}
for _lang in LANGUAGES.values():
    if _lang.code and _lang.code not in _CODES:
        _CODES[_lang.code] = _lang.name


def resolve(lang, argument: str = "lang") -> Optional[Language]:
    """The :class:`Language` for a name, alias or ISO 639-1 code; None for None.

    >>> resolve("zh").name, resolve("Chinese-Traditional").segmenter, resolve("bangla").stemmer
    ('chinese', 'jieba', 'bengali')
    >>> resolve("klingon")
    Traceback (most recent call last):
    ...
    ValueError: lang='klingon' is not one of XL-Sum's 45 languages; give a name (e.g. 'english', 'chinese_simplified'), an alias (bangla, chinese, mundo, turkce) or an ISO 639-1 code (e.g. 'en', 'zh')
    """
    if lang is None:
        return None
    if isinstance(lang, Language):
        return lang
    if not isinstance(lang, str):
        raise TypeError("%s must be a language name or ISO 639-1 code (str) or None, got %r" % (argument, lang))
    key = lang.strip().lower().replace("-", "_").replace(" ", "_")
    key = ALIASES.get(key, key)
    key = _CODES.get(key, key)
    found = LANGUAGES.get(key)
    if found is None:
        raise ValueError("%s=%r is not one of XL-Sum's 45 languages; give a name (e.g. 'english', "
                         "'chinese_simplified'), an alias (%s) or an ISO 639-1 code (e.g. 'en', 'zh')"
                         % (argument, lang, ", ".join(aliases())))
    return found


def aliases() -> List[str]:
    """The other names of XL-Sum's languages, as the docs list them in the language table's
    "(aliases)": the aliases XL-Sum's scorer accepts, and the scorer's key ``chinese`` (XL-Sum's
    dataset says ``chinese_simplified``/``chinese_traditional``, which are names, not aliases).

    >>> aliases()
    ['bangla', 'chinese', 'mundo', 'turkce']
    """
    return sorted((set(ALIASES) | set(LANGUAGES)) - set(XLSUM_NAMES))


def names() -> List[str]:
    """Every accepted spelling (names, aliases, codes), sorted.

    >>> "ja" in names() and "mundo" in names()
    True
    """
    return sorted(set(LANGUAGES) | set(ALIASES) | set(_CODES))
