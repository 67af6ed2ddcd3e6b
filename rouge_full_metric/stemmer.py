"""The stemmer of ROUGE-1.5.5.pl (``MorphStem``, used by its ``-m`` option).

``MorphStem`` looks a token up in the WordNet-2.0 exception table and, when the token is not
there, falls back to Martin Porter's reference Perl stemmer ("Release 1") as modified by
Chin-Yew Lin in 2004 (a step 4 that can strip up to three suffixes). See sections 4.4-4.6 of
the ROUGE-1.5.5 specification.

The Porter part is a literal port of the reference regexes. Python's ``re`` and Perl's regex
engine are both leftmost-first backtracking matchers, so the same patterns select the same
suffixes (e.g. the longest matching suffix of a step list) and ``$`` has the same meaning (end
of string, or before a final newline). ``tests/test_stemmer.py`` checks the result against the
Perl original on about 96,000 words.

No NLTK is needed: this module depends on the standard library and the package's own data only.
"""

from .lazy_re import Pattern
from .rouge155_data import WORDNET_EXCEPTIONS

__all__ = ["WORDNET_EXCEPTION_TABLE", "porter_stem", "stem"]


def _build_exception_table(text: str) -> dict[str, str]:
    # Pairing the fields of one flat split is about twice as fast as splitting line by line,
    # which matters for import time. dict() keeps the last value of a repeated key, as the
    # Berkeley-DB file was built (later lines overwrite earlier ones).
    fields = text.replace("\t", "\n").splitlines()
    if len(fields) != 2 * text.count("\t"):
        raise ValueError("WORDNET_EXCEPTIONS must be one 'inflected<TAB>base' pair per line")
    it = iter(fields)
    return dict(zip(it, it))


WORDNET_EXCEPTION_TABLE: dict[str, str] = _build_exception_table(WORDNET_EXCEPTIONS)

# The patterns compile at the first stem (lazy_re): what imports this module may never stem (the
# Perl-compatible CLI's Basic Elements without -m, the metric script), and compiling the 20 of
# them at import cost a new process ~2 ms.
# Porter's character classes. The upper-case Y that stands for an initial y falls into the
# consonant class, which is the reason for upper-casing it.
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = _c + "[^aeiouy]*"
_V = _v + "[aeiou]*"

_MGR0 = Pattern("^(" + _C + ")?" + _V + _C)  # m > 0
_MEQ1 = Pattern("^(" + _C + ")?" + _V + _C + "(" + _V + ")?$")  # m == 1
_MGR1 = Pattern("^(" + _C + ")?" + _V + _C + _V + _C)  # m > 1
_HAS_VOWEL = Pattern("^(" + _C + ")?" + _v)
# The "*o" condition of the paper: the stem ends consonant-vowel-consonant, the last one not
# w, x or y. The reference only tests it on whole short stems, hence the anchors.
_CVC = Pattern("^" + _C + _v + "[^aeiouwxy]$")

_STEP1A_SSES_IES = Pattern("(ss|i)es$")
_STEP1A_S = Pattern("([^s])s$")
_STEP1B_EED = Pattern("eed$")
_STEP1B_ED_ING = Pattern("(ed|ing)$")
_STEP1B_AT_BL_IZ = Pattern("(at|bl|iz)$")
_STEP1B_DOUBLE = Pattern(r"([^aeiouylsz])\1$")
_STEP1C_Y = Pattern("y$")

_STEP2_MAP = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}
# The alternation order is the reference's; with the leftmost-first rule it picks the longest
# matching suffix, and keeping the order makes that hold even where two could tie.
_STEP2 = Pattern(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism"
    "|iveness|fulness|ousness|aliti|iviti|biliti|logi)$"
)

_STEP3_MAP = {
    "icate": "ic",
    "ative": "",
    "alize": "al",
    "iciti": "ic",
    "ical": "ic",
    "ful": "",
    "ness": "",
}
_STEP3 = Pattern("(icate|ative|alize|iciti|ical|ful|ness)$")

# Lin's step 4: "ment" and "ent" were taken out of the first list and re-applied afterwards,
# each to the running result, so one word can lose up to three suffixes.
_STEP4_MAIN = Pattern("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_STEP4_MENT = Pattern("ment$")
_STEP4_ENT = Pattern("ent$")
_STEP4_ION = Pattern("(s|t)(ion)$")

_STEP5_E = Pattern("e$")
_STEP5_LL = Pattern("ll$")

# Perl's tr/A-Z/a-z/: ASCII letters only, unlike str.lower() (which also folds e.g. U+212A).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def porter_stem(word: str) -> str:
    """Stem ``word`` with the Porter stemmer as modified for ROUGE-1.5.5 (no exception table).

    Words shorter than 3 characters are returned unchanged.

    >>> porter_stem("agreement")
    'agreem'
    >>> porter_stem("conditionally")
    'condit'
    >>> porter_stem("yielding")
    'yield'
    >>> porter_stem("is")
    'is'
    """
    if len(word) < 3:
        return word
    w = word
    # An initial y is made a consonant for the whole run and restored at the end.
    initial_y = w[0] == "y"
    if initial_y:
        w = "Y" + w[1:]

    # Step 1a
    m = _STEP1A_SSES_IES.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)

    # Step 1b
    m = _STEP1B_EED.search(w)
    if m:
        if _MGR0.search(w[: m.start()]):
            w = w[:-1]
    else:
        m = _STEP1B_ED_ING.search(w)
        if m:
            stem_ = w[: m.start()]
            if _HAS_VOWEL.search(stem_):
                w = stem_
                if _STEP1B_AT_BL_IZ.search(w):
                    w += "e"
                elif _STEP1B_DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"

    # Step 1c
    m = _STEP1C_Y.search(w)
    if m:
        stem_ = w[: m.start()]
        if _HAS_VOWEL.search(stem_):
            w = stem_ + "i"

    # Step 2
    m = _STEP2.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR0.search(stem_):
            w = stem_ + _STEP2_MAP[m.group(1)]

    # Step 3
    m = _STEP3.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR0.search(stem_):
            w = stem_ + _STEP3_MAP[m.group(1)]

    # Step 4 (Lin's cascade): three independent tests, each on the result of the previous one.
    m = _STEP4_MAIN.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_):
            w = stem_
    m = _STEP4_MENT.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_):
            w = stem_
    m = _STEP4_ENT.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_):
            w = stem_
    else:
        m = _STEP4_ION.search(w)
        if m:
            # The s/t stays and is part of the stem whose measure is tested.
            stem_ = w[: m.start()] + m.group(1)
            if _MGR1.search(stem_):
                w = stem_

    # Step 5
    m = _STEP5_E.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_) or (_MEQ1.search(stem_) and not _CVC.search(stem_)):
            w = stem_
    if _STEP5_LL.search(w) and _MGR1.search(w):
        w = w[:-1]

    if initial_y:
        # Perl's lcfirst: whatever the first character now is, it is lower-cased.
        w = w[:1].lower() + w[1:]
    return w


def stem(token: str) -> str:
    """Stem ``token`` exactly as ROUGE-1.5.5's ``MorphStem`` does.

    The WordNet-2.0 exception table is consulted first and its base form is returned verbatim
    (it may even contain ``_``, as in ``comic_strip``); otherwise the token goes through
    :func:`porter_stem`. ASCII capitals are lower-cased first, as Perl does. The length > 3 rule
    of ROUGE's ``-m`` is the caller's business; this function stems any non-empty string (an
    empty one is returned as is, where Perl would return ``undef``).

    >>> stem("agreement")
    'agreem'
    >>> stem("geese"), stem("goose")
    ('goose', 'goos')
    >>> stem("attackers"), stem("attacker")
    ('attack', 'attacker')
    >>> stem("comics")
    'comic_strip'
    """
    if not token.islower() or not token.isascii():
        token = token.translate(_ASCII_LOWER)
    base = WORDNET_EXCEPTION_TABLE.get(token)
    if base is not None:
        return base
    return porter_stem(token)
