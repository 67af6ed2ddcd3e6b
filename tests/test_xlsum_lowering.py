"""The XL-Sum tokenizers' step 1, ``text.lower()``, done by the core (``str_lower_utf8`` in
csrc/text_utf8.c) rather than by ``str.lower()``: the same UTF-8 for every code point and every
kind of str, and ``str.lower()`` itself where a code point needs it (U+03A3's final sigma, U+0130's
two code points, U+023A's wider lowering)."""
import random

import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric.batch import compiled_scorer, score_examples

pytestmark = pytest.mark.skipif(not getattr(compiled.core, "XLSUM_TOKENIZER", False),
                                reason="the compiled core with its XL-Sum tokenizer is not available")


def lowered(text):
    return compiled.core._xlsum_lower(text)


def want(text):
    return text.lower().encode("utf-8", "surrogatepass")


def test_every_code_point_alone():
    wrong, by_python = [], []
    for c in range(0x110000):
        got, python = lowered(chr(c))
        if got != want(chr(c)):
            wrong.append(hex(c))
        if python:
            by_python.append(c)
    assert wrong == []
    # str.lower() is called for the code points whose lowering is not one code point as wide in
    # UTF-8, and for U+03A3 (final sigma): U+0130, U+023A and U+023E are the others today (the
    # interpreter's Unicode tables could add more: then this list, not the bytes above, changes)
    def utf8_len(text):
        return len(text.encode("utf-8", "surrogatepass"))
    assert by_python == [c for c in range(0x110000) if c == 0x3A3 or len(chr(c).lower()) != 1
                         or utf8_len(chr(c).lower()) > utf8_len(chr(c))]
    assert {0x130, 0x23A, 0x23E, 0x3A3} <= set(by_python) and len(by_python) < 10


CASED = "AZaz09 .,\u00c4\u00e9\u00df\u0391\u03c9\u0414\u0436\u0531\u10a0\u1e9e\u2126\u212a\u2160\u24b6\uff21" \
        "\u0915\u0627\u4e2d\u201c\u2014\U00010400\U0001e900\U0001f600\ud800\udc00\u023a\u0130\u03a3"


@pytest.mark.parametrize("seed", range(4))
def test_mixed_texts_across_blocks(seed):
    """Texts of 0-70 code points of every kind of str (ASCII, Latin-1, two- and four-byte) with the
    non-ASCII ones at every place of the 16-unit blocks the ASCII runs are read in, and ASCII runs
    of every length after them (seeds 2 and 3: a non-ASCII code point in 20)."""
    rng = random.Random(seed)
    share = 0.3 if seed < 2 else 0.05
    pool = [CASED[:7], CASED[:10], CASED[:-3], CASED]
    served = 0
    for _ in range(4000):
        chars = rng.choice(pool)
        text = "".join(rng.choice(chars) if rng.random() < share else rng.choice("abcXYZ ")
                       for _ in range(rng.randrange(71)))
        got, python = lowered(text)
        assert got == want(text), text
        assert python == any(c in text for c in "\u023a\u0130\u03a3")
        served += not python
    assert served > 2000


def test_ascii_kept_or_lowered():
    for text in ["", "abc def", "The Cat, 42", "A" * 100, "x" * 15 + "Y"]:
        assert lowered(text) == (want(text), False)


def test_final_sigma_by_str_lower():
    assert lowered("ΟΔΟΣ ΟΔΟΣ.") == (want("ΟΔΟΣ ΟΔΟΣ."), True)
    assert want("ΟΔΟΣ ΟΔΟΣ.").decode().endswith("ς.")


@pytest.mark.parametrize("lang", [None, "english", "russian", "turkish"])
def test_scores_equal_the_pure_python_engine(lang):
    """Cased words of several scripts, rougeLsum's sentences included: the compiled engine against
    the pure-Python one, in flavor xlsum and in flavor rouge155 with a lang."""
    if lang == "turkish":
        pytest.importorskip("TurkishStemmer")
    rng = random.Random(7)
    words = ["Straße", "STRASSE", "ΟΔΟΣ", "Ωμέγα", "Київ", "КИЇВ", "İstanbul", "ISTANBUL", "𐐀𐐁", "𐐨𐐩", "北京",
             "Hello", "hello", "“Quoted”", "—", "K\u212a", "ǅungla", "ǆungla", "Ⅻ", "ⅻ"]
    preds = [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))) for _ in range(300)]
    refs = [". ".join(" ".join(rng.choice(words) for _ in range(rng.randrange(1, 8))) for _ in range(2))
            for _ in range(300)]
    for flavor in ("xlsum", "rouge155"):
        # flavor rouge155 reads with the XL-Sum tokenizer only with a lang
        scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], flavor=flavor,
                             lang=lang or "english" if flavor == "rouge155" else lang)
        assert compiled_scorer(scorer) is not None
        got = score_examples(scorer, preds, refs, backend="compiled")
        assert got == score_examples(scorer, preds, refs, backend="python")


def test_a_str_subclass_keeps_its_own_lower():
    class Shouting(str):
        def lower(self):
            return str.upper(self)

    assert lowered(Shouting("Mixed Case")) == (b"MIXED CASE", True)
    assert compiled.core.xlsum_tokenize(Shouting("Mixed Case")) == ["MIXED", "CASE"]


def test_shared_one_byte_objects_untouched():
    # CPython shares its one-byte bytes objects: lowering must write into a new one
    for c in "AZ":
        assert lowered(c) == (c.lower().encode(), False)
        assert c.encode() == bytes([ord(c)]) and bytes([ord(c)]).decode() == c
