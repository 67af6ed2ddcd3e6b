"""Stemmers of XL-Sum's scorer, one per language that has one (tokens longer than 3 characters only).

* Snowball (NLTK's ``SnowballStemmer(lang, ignore_stopwords=True)``): arabic, english, french,
  portuguese, russian, spanish.  ``ignore_stopwords`` leaves the words of NLTK's ``stopwords`` corpus
  unstemmed.  That corpus is a download (``nltk.download("stopwords")``), not part of the nltk
  package; XL-Sum's scorer cannot stem these languages without it.  For english, french, portuguese,
  russian and spanish the lists ship with this package (:mod:`snowball_stopwords`: NLTK's corpus
  as downloaded since 2025-02-20, from PostgreSQL's Snowball lists plus NLTK's additions) and are
  always used, whatever is installed, so the stems equal the anchor's with that corpus.  Arabic has
  no shipped list (no licensed source here): NLTK's corpus is used when it is installed; when it is
  not, the stop words are stemmed like every other word and :class:`StopwordsMissingWarning` says so
  once -- the stems differ from the anchor's only on stop words longer than 3 characters that
  Snowball would change.
* ``porter`` (the anchor's default path, ``lang=None``): NLTK's ``PorterStemmer()``
  (NLTK_EXTENSIONS mode), the same stemmer as rouge_score's.
* hindi: the suffix stripper of Ramanathan & Rao (2003) as XL-Sum implements it.
* bengali: Rafi Kamal's rule-based stemmer with the ``common.rules`` file that XL-Sum uses, shipped
  here (the ``multilingual-rouge`` wheel lacks it, so the anchor cannot stem Bengali as installed).
  Origin: github.com/banglakit/bengali-stemmer (MIT licence, (c) 2017 BanglaKit Project
  Contributors), as copied into XL-Sum's scorer; see docs/languages.md.
* turkish: the ``TurkishStemmer`` package (optional extra).
"""
import warnings
from typing import Callable, Dict, List, Tuple

from .extras import install_line

EXTRA = install_line("multilingual")

SNOWBALL = ("arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian",
            "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish")


class StopwordsMissingWarning(UserWarning):
    """No stop-word list for a Snowball language (arabic without NLTK's ``stopwords`` corpus
    installed): Snowball stems the stop words too."""


# Rafi Kamal's Bengali suffix rules (common.rules) as XL-Sum's scorer uses them.  Each {...} block
# is a group tried in order; the first suffix of a group that ends the word applies; "a -> b"
# rewrites the suffix (a "." in b keeps the character), otherwise the suffix is cut when what
# remains has a letter that is not a vowel sign.  Whitespace and "#" comments are ignored.
BENGALI_RULES = '{\n\tই\t\t\t# এটাই, সেটাই\n\tও\t\t\t# এটাও, সেটাও\n\tতো\t\t\t# হয়তো, করলতো\n}\n\n{\n\tকে\t\t\t# এটাকে, আমাকে\n\tতে\t\t\t# হাসতে, গাইতে\n\tরা\t\t\t# রহিমরা, করিমরা\n}\n\n{\n\tচ্ছি\t\t\t# খাচ্ছি, যাচ্ছি\n\tচ্ছিল\t\t\t# হচ্ছিল\n\tচ্ছে\t\t\t# হচ্ছে, যাচ্ছে\n\tচ্ছিস\t\t\t# যাচ্ছিস, খাচ্ছিস\n\tচ্ছিলেন\t\t\t# যাচ্ছিলেন, খাচ্ছিলেন\n\tচ্ছ\t\t\t# যাচ্ছ, খাচ্ছ\n\t\n\tয়েছে\t\t\t# হয়েছে, খেয়েছে\n\tেছ\t\t\t# দেখেছ, পেরেছ\n\tেছে\t\t\t# করেছে, পেরেছে\n\tেছেন\t\t\t# করেছেন, পেরেছেন\n\t\n\tরছ -> র\t\t\t# করছ, পারছ\n\tরব -> র\t\t\t# করব, পারব\n\t\n\tেল \t\t\t# গেল, পেল\n\tেলো\t\t\t# খেলো \n\tওয়া\t\t\t# যাওয়া, খাওয়া \n\tেয়ে  -> া\t\t# গেয়ে, পেয়ে\n\tয়\t\t\t# হয়, খায়\n\tয়ে\t\t\t# হয়ে, ধুয়ে\n\t\n\tয়েছিল\t\t\t# হয়েছিল\t\t\t\n\tেয়েছিল  -> া\t\t# পেয়েছিল, গেয়েছিল\t\n\tেছিল\t\t\t# করেছিল, বলেছিল\n\t\n\tেয়েছিলেন -> া\t\t# পেয়েছিলেন, গেয়েছিলেন \t\n\tে.েছিলেন ->  া.\t\t# হেসেছিলেন, নেচেছিলেন\n\tেছিলেন\t\t\t# করেছিলেন, বলেছিলেন\n\tলেন\t\t\t# করলেন, বললেন\n\t\n\tদের\t\t\t# রহিমদের, করিমদের \n\tে.ে -> া.\t\t# হেসে, নেচে, রেখে\t\n\tের\t\t\t# রহিমের, করিমের\n\tার\t\t\t# চলার, বলার\n\t\n\tেন\t\t\t# দেখেন, করেন\n\tবেন\t\t\t# দেখবেন, করবেন\n\t\n\tিস\t\t\t# দেখিস, করিস\n\tছিস\t\t\t# দেখছিস, করছিস\n\tছিলি\t\t\t# দেখছিলি, করছিলি\n\tছি\t\t\t# করছি, ভাবছি\n\tছে\t\t\t# করছে, পারছে\n\tলি\t\t\t# দেখলি, করলি\n\tবি\t\t\t# দেখবি, করবি\n\t\n\tে\t\t\t# বলে, বসে\n}\n\n{\n\tটি\t\t\t# একটি, দশটি\n\tটির\t\t\t# একটির, দশটির \n\tেরটা\t\t\t# রহিমেরটা, করিমেরটা \n\tেরটার \t\t\t# রহিমেরটার, করিমেরটার \n\tটা\t\t\t# এটা, ওটা \n\tটার\t\t\t# এটার, ওটার \n\tগুলো\t\t\t# এগুলো, তারগুলো\n\tগুলোর \t\t\t# এগুলোর, তারগুলোর \n\tেরগুলো\t\t\t# রহিমেরগুলো, করিমেরগুলো\n\tেরগুলোর\t\t\t# রহিমেরগুলোর, করিমেরগুলোর \n}'

# Hindi suffixes by length (Ramanathan & Rao 2003, "A Lightweight Stemmer for Hindi"), longest first.
HINDI_SUFFIXES = {
    1: ('ो', 'े', 'ू', 'ु', 'ी', 'ि', 'ा'),
    2: ('कर', 'ाओ', 'िए', 'ाई', 'ाए', 'ने', 'नी', 'ना', 'ते', 'ीं', 'ती', 'ता', 'ाँ', 'ां', 'ों', 'ें'),
    3: ('ाकर', 'ाइए', 'ाईं', 'ाया', 'ेगी', 'ेगा', 'ोगी', 'ोगे', 'ाने', 'ाना', 'ाते', 'ाती', 'ाता', 'तीं', 'ाओं', 'ाएं', 'ुओं', 'ुएं', 'ुआं'),
    4: ('ाएगी', 'ाएगा', 'ाओगी', 'ाओगे', 'एंगी', 'ेंगी', 'एंगे', 'ेंगे', 'ूंगी', 'ूंगा', 'ातीं', 'नाओं', 'नाएं', 'ताओं', 'ताएं', 'ियाँ', 'ियों', 'ियां'),
    5: ('ाएंगी', 'ाएंगे', 'ाऊंगी', 'ाऊंगा', 'ाइयाँ', 'ाइयों', 'ाइयां'),
}


def hindi(token: str) -> str:
    """Strip the longest listed suffix that leaves at least 2 characters.

    >>> hindi("लड़कियों")
    'लड़क'
    """
    for length in (5, 4, 3, 2, 1):
        if len(token) > length + 1:
            for suffix in HINDI_SUFFIXES[length]:
                if token.endswith(suffix):
                    return token[:-length]
    return token


def _parse_rules(text: str) -> Tuple[List[List[str]], Dict[str, str]]:
    """(groups, replacements) of a Rafi-stemmer rules text, as the anchor's parser reads it."""
    import re

    lines, replace = [], {}
    for raw in text.splitlines():
        line = re.sub(r"#.*", "", re.sub(r"\s*", "", raw.strip()))
        if not line:
            continue
        rule = None
        if re.fullmatch(r".*->.*", line):
            rule = line.split("->")[1]
        line = re.sub(r"->.*", "", line)
        lines.append(line)
        if rule:
            replace[line] = rule
    groups: List[List[str]] = []
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            groups.append([])
            i += 1
            while i < len(lines) and lines[i] != "}":
                groups[-1].append(lines[i])
                i += 1
        i += 1
    return groups, replace


_BENGALI = []
_VOWEL_SIGNS = frozenset("\u09be\u09bf\u09c0\u09c7\u09c1\u09c2\u09cb")


def bengali(word: str) -> str:
    """Rafi Kamal's Bengali stemmer with XL-Sum's rules.

    >>> bengali("করেছিলেন"), bengali("করছ")
    ('কর', 'কর')
    """
    if not _BENGALI:
        _BENGALI.extend(_parse_rules(BENGALI_RULES))
    groups, replace = _BENGALI
    for group in groups:
        for suffix in group:
            if not word.endswith(suffix):
                continue
            index = len(word) - len(suffix)
            if suffix in replace:
                new = replace[suffix]
                chars = list(word)
                for k, c in enumerate(new):
                    if c != ".":
                        chars[index + k] = c
                word = "".join(chars[:index + len(new)])
            elif any(c not in _VOWEL_SIGNS for c in word[:index]):
                word = word[:index]
            break
    return word


def _turkish(language: str) -> Callable[[str], str]:
    try:
        from TurkishStemmer import TurkishStemmer
    except ImportError as error:
        raise ImportError("lang=%r with use_stemmer=True needs the TurkishStemmer package, as XL-Sum's "
                          "scorer does: %s" % (language, EXTRA)) from error
    return TurkishStemmer().stem


def _stopwords(language: str):
    """The stop words ``ignore_stopwords`` leaves unstemmed for ``language``: the shipped list
    (:mod:`snowball_stopwords`) when there is one, else NLTK's corpus when it is installed (never
    downloaded), else None."""
    from . import snowball_stopwords

    shipped = snowball_stopwords.words(language)
    if shipped is not None:
        return shipped
    try:
        from nltk.corpus import stopwords
        return stopwords.words(language)
    except (LookupError, OSError):
        return None


def _snowball(language: str) -> Callable[[str], str]:
    from nltk.stem.snowball import SnowballStemmer

    stemmer = SnowballStemmer(language)
    words = _stopwords(language)
    if words is None:
        warnings.warn("no stop-word list for %s: NLTK's 'stopwords' corpus is not installed and none is "
                      "shipped for it, so the Snowball stemmer also stems stop words (XL-Sum's scorer "
                      "leaves them unstemmed and cannot run without the corpus); install it once with "
                      "python -m nltk.downloader stopwords for stems identical to XL-Sum's"
                      % language, StopwordsMissingWarning, stacklevel=4)
    else:
        stemmer.stemmer.stopwords.update(words)   # what ignore_stopwords=True loads
    return stemmer.stem


def _porter(language: str) -> Callable[[str], str]:
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer().stem


_cache: Dict[str, Callable[[str], str]] = {}


def get(name: str, language: str) -> Callable[[str], str]:
    """The stemmer ``name`` (a Snowball language, "porter", "hindi", "bengali", "turkish"), built once.

    >>> get("hindi", "hindi")("किताबें")
    'किताब'
    """
    stemmer = _cache.get(name)
    if stemmer is None:
        if name == "hindi":
            stemmer = hindi
        elif name == "bengali":
            stemmer = bengali
        elif name == "turkish":
            stemmer = _turkish(language)
        elif name == "porter":
            stemmer = _porter(language)
        elif name in SNOWBALL:
            stemmer = _snowball(language)
        else:
            raise ValueError("no stemmer called %r" % (name,))
        _cache[name] = stemmer
    return stemmer


def versions(name: str) -> str:
    """The packages (and data) behind stemmer ``name``, for signatures.

    >>> versions("hindi")
    'builtin'
    """
    from importlib import metadata

    def version(package):
        try:
            return "%s-%s" % (package, metadata.version(package))
        except metadata.PackageNotFoundError:
            return "%s-missing" % package

    if name in ("hindi", "bengali"):
        return "builtin"
    if name == "turkish":
        return version("TurkishStemmer")
    if name == "porter":
        return version("nltk")
    from . import snowball_stopwords

    if name in snowball_stopwords.LANGUAGES:
        return version("nltk") + "+" + snowball_stopwords.VERSION
    return version("nltk") + ("+stopwords" if _stopwords(name) is not None else "+nostopwords")
