"""Words to compare the compiled NLTK Porter port (rouge_full_metric.nltk_porter) with NLTK on.

Real words: the tokens of tests/data/stemmer_goldens.tsv.gz (~120,000 distinct English tokens
with digits), the WordNet exception table and the SMART stop words shipped in the package, the
words of the repository's tests and (``shared=True``) of ../shared's texts.  Generated words:
every lowercase string of up to ``exhaustive`` letters, stems followed by one to three of the
suffixes the rules test (so that every rule, and rules after rules, fire), and random strings of
1-20 characters drawn with English letter frequencies (digits and y-runs included).
"""
import glob
import gzip
import os
import random
import re
from itertools import product
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(os.path.dirname(HERE), "..", "shared")

_TOKEN = re.compile(r"[a-z0-9]+")

# every suffix a rule of NLTK's porter.py tests, and their pieces
SUFFIXES = ("s", "es", "ies", "sses", "ss", "ed", "ied", "eed", "ing", "at", "bl", "iz", "y", "ly", "ational",
            "tional", "enci", "anci", "izer", "bli", "abli", "alli", "entli", "eli", "ousli", "ization", "ation",
            "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "icate",
            "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant",
            "ement", "ment", "ent", "ion", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll",
            "l", "z", "d", "dd", "tt", "ings", "edly", "ies")

# English letter frequencies (per mille), for random words that look like words
_LETTERS = "etaoinshrdlcumwfgypbvkjxqz"
_WEIGHTS = (127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1)


def _tokens(text: str, into: set):
    into.update(_TOKEN.findall(text.lower()))


def real_words(shared: bool = False) -> List[str]:
    """Distinct [a-z0-9] tokens of the repository's (and with ``shared``, ../shared's) texts."""
    from rouge_full_metric import rouge155_data

    words: set = set()
    with gzip.open(os.path.join(HERE, "data", "stemmer_goldens.tsv.gz"), "rt", encoding="utf-8") as f:
        _tokens(f.read(), words)
    _tokens(rouge155_data.WORDNET_EXCEPTIONS, words)
    _tokens(rouge155_data.SMART_COMMON_WORDS, words)
    for path in glob.glob(os.path.join(HERE, "*.py")):
        with open(path, encoding="utf-8") as f:
            _tokens(f.read(), words)
    if shared and os.path.isdir(SHARED):
        for path in sorted(glob.glob(os.path.join(SHARED, "**", "*"), recursive=True)):
            if os.path.isfile(path) and os.path.getsize(path) < 50_000_000:
                with open(path, encoding="utf-8", errors="ignore") as f:
                    _tokens(f.read(), words)
    return sorted(words)


def exhaustive_words(length: int) -> List[str]:
    """Every lowercase string of 1..length letters."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(p) for k in range(1, length + 1) for p in product(letters, repeat=k)]


def random_word(rng: random.Random, max_len: int = 20) -> str:
    k = rng.randint(1, max_len)
    word = rng.choices(_LETTERS, _WEIGHTS, k=k)
    if rng.random() < 0.05:   # digits, as in "1980s" or "mp3"
        for _ in range(rng.randint(1, 3)):
            word[rng.randrange(k)] = rng.choice("0123456789")
    if rng.random() < 0.03:   # runs of y, which NLTK classifies by looking back
        i = rng.randrange(k)
        word[i:i] = ["y"] * rng.randint(2, 6)
    return "".join(word)


def suffixed_words(n: int, stems: List[str], rng: random.Random) -> List[str]:
    """n words: a stem (a real word cut short, or a random one) and one to three suffixes."""
    out = []
    for _ in range(n):
        if stems and rng.random() < 0.6:
            stem = rng.choice(stems)
            stem = stem[:rng.randint(1, len(stem))]
        else:
            stem = random_word(rng, 7)
        out.append(stem + "".join(rng.choice(SUFFIXES) for _ in range(rng.randint(1, 3))))
    return out


def vocabulary(n_generated: int, seed: int = 21, shared: bool = False, exhaustive: int = 3) -> List[str]:
    """Real words, every string of up to ``exhaustive`` letters, and n_generated generated words
    (half suffixed, half random), distinct and sorted."""
    rng = random.Random(seed)
    real = real_words(shared)
    words = set(real)
    words.update(exhaustive_words(exhaustive))
    alpha = [w for w in real if w.isalpha()]
    words.update(suffixed_words(n_generated // 2, alpha, rng))
    words.update(random_word(rng) for _ in range(n_generated - n_generated // 2))
    return sorted(words)
