"""Generated texts in XL-Sum's languages, for the differential tests, the Perl goldens and the
language benchmark.

Each language draws words from its script (and, for the languages with a stemmer, from a few real
words with inflectional suffixes so that stemming rules fire), then mixes in what trips tokenizers:
upper case, punctuation of several scripts, ASCII symbols, digits and decimal numbers, symbols that
are not punctuation (° € ©, emoji), combining marks, U+2581, Unicode spaces, zero-width and control
characters, CJK ideographs in other scripts, and newlines (sentences for rougeLsum).
"""
import random
from typing import List, Tuple

_LATIN = "abcdefghijklmnopqrstuvwxyz"
_SCRIPTS = {
    "amharic": [(0x1200, 0x1357)], "tigrinya": [(0x1200, 0x1357)],
    "arabic": [(0x0621, 0x064A), (0x064B, 0x0652)], "persian": [(0x0621, 0x064A)], "pashto": [(0x0621, 0x064A)],
    "urdu": [(0x0621, 0x064A), (0x0679, 0x06D3)],
    "bengali": [(0x0985, 0x09B9), (0x09BE, 0x09CD)], "burmese": [(0x1000, 0x103F), (0x1040, 0x1049)],
    "chinese": [(0x4E00, 0x4FFF), (0x5000, 0x5FFF)], "gujarati": [(0x0A85, 0x0AB9), (0x0ABE, 0x0ACD)],
    "hindi": [(0x0905, 0x0939), (0x093E, 0x094D)], "marathi": [(0x0905, 0x0939), (0x093E, 0x094D)],
    "nepali": [(0x0905, 0x0939), (0x093E, 0x094D), (0x0966, 0x096F)],
    "japanese": [(0x3041, 0x3096), (0x30A1, 0x30FA), (0x4E00, 0x4FFF)], "korean": [(0xAC00, 0xAD00)],
    "kyrgyz": [(0x0430, 0x044F)], "russian": [(0x0430, 0x044F)], "ukrainian": [(0x0430, 0x044F), (0x0454, 0x0457)],
    "serbian_cyrillic": [(0x0430, 0x045F)], "punjabi": [(0x0A05, 0x0A39), (0x0A3E, 0x0A4D)],
    "sinhala": [(0x0D85, 0x0DC6), (0x0DCF, 0x0DDF)], "tamil": [(0x0B85, 0x0BB9), (0x0BBE, 0x0BCD)],
    "telugu": [(0x0C05, 0x0C39), (0x0C3E, 0x0C4D)], "thai": [(0x0E01, 0x0E3A), (0x0E40, 0x0E4E)],
}
_LATIN_EXTRA = {
    "azerbaijani": "əğıöşüç", "english": "", "french": "éèàùâêîôûçëïü", "hausa": "ɓɗƙ", "igbo": "ịọụṅ",
    "indonesian": "", "kirundi": "", "oromo": "", "pidgin": "", "portuguese": "ãõáéíóúâêôçà",
    "scottish_gaelic": "àèìòù", "serbian_latin": "čćđšž", "somali": "", "spanish": "ñáéíóúü", "swahili": "",
    "turkish": "çğıöşü", "uzbek": "ʻ", "vietnamese": "ăâđêôơưạảấầẩẫậ", "welsh": "ŵŷ", "yoruba": "ẹọṣ\u0300\u0301",
}
# Real words with suffixes their stemmers strip.
_WORDS = {
    "english": "running runners generously happiness connected organizations the was were being having "
               "about above again against would should could doing during".split(),
    "french": "nationales continuellement heureusement chanteuse mangeaient avec nous vous était "
              "étaient aurions seraient".split(),
    "spanish": "corriendo rápidamente nacionales cantaban estaban nosotros vuestra habían fueron "
               "tuvieron".split(),
    "portuguese": "correndo rapidamente nacionais cantavam estavam nossos vocês haviam foram tiveram".split(),
    "russian": "бегающий книгами красивого говорили которые этого между всегда".split(),
    "arabic": "والمعلمون بالكتاب المدرسة يكتبون الذين هؤلاء عندما".split(),
    "hindi": "लड़कियों किताबें जाएंगे करेंगी खेलता बच्चों पढ़ाई".split(),
    "bengali": "করেছিলেন করছ খাচ্ছি রহিমদের একটির এগুলোর হেসে গেয়ে যাওয়া করবেন".split(),
    "turkish": "kitaplardan evlerimizde gidiyorum güzelleştirmek çocukların İstanbul'da".split(),
}
_NOISE = [",", ".", "!", "?", ";", ":", "'", '"', "(", ")", "-", "—", "«", "»", "،", "।", "॥", "。", "，",
          "、", "「", "」", "$", "+", "<", "=", ">", "^", "`", "|", "~", "%", "&", "#", "@", "_", "/", "\\",
          "°", "€", "©", "™", "½", "²", "😀", "👍🏽", "\u2581", "\uffed", "\u0301", "\u093c", "\u00a0", "\u3000",
          "\u2009", "\u200b", "\u200d", "\ufeff", "\t", "\x85", "\u2028", "3.5", "1,000", "2024", "٣٤", "१२",
          "https://x.org/a?b=1", "COVID-19", "中文", "AbC", "İ", "ǅ"]


def _char(rng: random.Random, language: str) -> str:
    if language in _SCRIPTS:
        lo, hi = rng.choice(_SCRIPTS[language])
        return chr(rng.randint(lo, hi))
    extra = _LATIN_EXTRA.get(language, "")
    return rng.choice(_LATIN + extra) if not extra or rng.random() < 0.8 else rng.choice(extra)


def word(rng: random.Random, language: str) -> str:
    """One word of ``language`` (real or made of its script's characters)."""
    if language in _WORDS and rng.random() < 0.4:
        w = rng.choice(_WORDS[language])
    else:
        w = "".join(_char(rng, language) for _ in range(rng.randint(1, 8)))
    r = rng.random()
    if r < 0.1:
        w = w.upper()
    elif r < 0.2:
        w = w.capitalize()
    return w


def text(rng: random.Random, language: str, vocabulary: List[str], max_words: int = 30) -> str:
    """A text of up to ``max_words`` words, mostly from ``vocabulary`` (so pairs overlap)."""
    parts = []
    for _ in range(rng.randint(0, max_words)):
        r = rng.random()
        if r < 0.12:
            parts.append(rng.choice(_NOISE))
        elif r < 0.7 and vocabulary:
            parts.append(rng.choice(vocabulary))
        else:
            parts.append(word(rng, language))
        s = rng.random()
        parts.append(" " if s < 0.75 else "" if s < 0.85 else "\n" if s < 0.95 else rng.choice(["  ", "\n\n", " \n"]))
    return "".join(parts)


def pairs(language: str, count: int, seed: int = 0, max_words: int = 30) -> List[Tuple[str, str]]:
    """``count`` (prediction, reference) pairs in ``language`` that share words.

    >>> len(pairs("thai", 3))
    3
    """
    rng = random.Random("%s/%d" % (language, seed))
    out = []
    for _ in range(count):
        vocabulary = [word(rng, language) for _ in range(rng.randint(1, 12))]
        out.append((text(rng, language, vocabulary, max_words), text(rng, language, vocabulary, max_words)))
    return out


def _mixed_texts(count: int, seed: int, pieces) -> List[str]:
    """count texts of 0-50 pieces each; pieces: (probability, rng -> str) pairs, tried in order."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(0, 50)):
            r = rng.random()
            for probability, piece in pieces:
                if r < probability:
                    break
                r -= probability
            parts.append(piece(rng))
        out.append("".join(parts))
    return out


def thai_segmenter_texts(count: int, seed: int, dictionary: List[str]) -> List[str]:
    """Texts that exercise every branch of PyThaiNLP's newmm: runs of dictionary words (ambiguous
    joins, words with spaces inside), spaces, tabs and newlines (also a lone CR), numbers with
    separators (its rejoin_formatted_num), Latin words and hyphens, Thai digits, random Thai
    characters (out-of-dictionary skips, two-consonant words) and other scripts."""
    odd = ["abc", "-x", "A-b", "é", "ๆ", "๑๒๓", "北京", "\u200b", "ฯ", "ํ", "\U0001F600"]
    return _mixed_texts(count, seed, [
        (0.55, lambda rng: rng.choice(dictionary)),
        (0.1, lambda rng: rng.choice([" ", "  ", "\n", "\r\n", "\t", "\r", " \n"])),
        (0.1, lambda rng: str(rng.randint(0, 10 ** 6)) + rng.choice(["", ".5", ",000", ":30", ".", ","])),
        (0.15, lambda rng: "".join(chr(rng.randint(0x0E00, 0x0E7F)) for _ in range(rng.randint(1, 6)))),
        (1.0, lambda rng: rng.choice(odd)),
    ])


def chinese_segmenter_texts(count: int, seed: int, dictionary: List[str]) -> List[str]:
    """Texts that exercise jieba's cut: dictionary words (DAG and route), runs of unknown Han
    characters (the HMM), ASCII words, decimals and percentages inside blocks (finalseg's
    re_skip), the block characters + # & . % -, spaces, CR LF, full-width punctuation and digits
    of other scripts."""
    odd = ["abc", "3.14", "50%", "a1.5%", "C++", "#tag", "x-y", "v2.0.1", "\u0661\u0662", "3.", ".5", "&", "ＡＢ"]
    return _mixed_texts(count, seed, [
        (0.55, lambda rng: rng.choice(dictionary)),
        (0.1, lambda rng: rng.choice([" ", "\n", "\r\n", "\t", "，", "。", "  ", "\u3000"])),
        (0.1, lambda rng: rng.choice(odd)),
        (1.0, lambda rng: "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(rng.randint(1, 6)))),
    ])
