"""The pure-Python XL-Sum tokenizer against the code it reimplements: BERT's BasicTokenizer (as
multilingual-rouge ships it) and pyonmttok's aggressive mode, on random Unicode strings."""
import random

import pytest

from rouge_full_metric import xlsum_tokenizer as X
from rouge_full_metric.segmenters import burmese

POOL = ([chr(c) for c in list(range(0x20, 0x250)) + list(range(0x300, 0x370)) + list(range(0x900, 0x9FF))
         + list(range(0x1000, 0x10A0)) + list(range(0x2000, 0x2100)) + list(range(0x3000, 0x3100))
         + list(range(0x4E00, 0x4E40))]
        + [chr(c) for c in (0x2581, 0xFFE8, 0xFFED, 0xFF05, 0xFF5F, 0xFEFF, 0x200D, 0x200B, 0x85, 0x2028,
                            0xA0, 0, 0xFFFD, 0x1F600, 0x20001, 0xE000, 0x378, 0x1C, 0x0B)]
        + list("ab1 \n\t"))


def strings(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        if rng.random() < 0.3:
            s = "".join(chr(rng.randint(1, 0x10FFFF)) for _ in range(rng.randint(0, 6)))
            yield "".join(c for c in s if not 0xD800 <= ord(c) <= 0xDFFF)
        else:
            yield "".join(rng.choice(POOL) for _ in range(rng.randint(0, 14)))


def test_basic_tokens_equal_berts_basic_tokenizer():
    tokenizers = pytest.importorskip("multilingual_rouge.tokenizers")
    bert = tokenizers.BasicTokenizer()
    for s in strings(20000, 1):
        assert X.basic_tokens(s) == bert(s), repr(s)


def test_aggressive_equals_pyonmttok():
    pyonmttok = pytest.importorskip("pyonmttok")
    tok = pyonmttok.Tokenizer("aggressive")
    for s in strings(20000, 2):
        text = " ".join(X.basic_tokens(s))
        assert X.aggressive(text) == tok.tokenize(text)[0], repr(text)


def test_cjk_split_equals_bert():
    tokenizers = pytest.importorskip("multilingual_rouge.tokenizers")
    bert = tokenizers.BasicTokenizer()
    for s in strings(5000, 3):
        tokens = X.basic_tokens(s)
        assert X.split_cjk(tokens) == bert.tokenize_chinese_chars(" ".join(tokens)).split(), repr(s)


def test_burmese_equals_the_anchor():
    tokenizers = pytest.importorskip("multilingual_rouge.tokenizers")
    anchor = tokenizers.BurmeseTokenizer()
    rng = random.Random(4)
    chars = [chr(c) for c in range(0x1000, 0x10A0)] + list("ab \u200c")
    for _ in range(5000):
        s = "".join(rng.choice(chars) for _ in range(rng.randint(0, 15)))
        assert burmese(s) == anchor(s), repr(s)


def test_known_tokens():
    assert X.aggressive("a \u0301b") == ["a", "\uff050020\u0301", "b"]
    assert X.aggressive("\u0301x 3\u0301 °\u0301") == ["\u0301", "x", "3\u0301", "°\u0301"]
    assert X.make_tokenizer()("İstanbul'da 1.000 km²!") == ["i\u0307stanbul", "da", "1", "000", "km", "²"]
