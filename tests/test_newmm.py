"""The compiled newmm (csrc/newmm.c) against PyThaiNLP's own word_tokenize(engine="newmm"), word
for word, and the cluster-pattern compiler (segmenters.tcc_program) against tcc_pos_array."""
import re

import pytest

from rouge_full_metric import compiled, segmenters

import xlsum_texts

pythainlp = pytest.importorskip("pythainlp")
needs_core = pytest.mark.skipif(compiled.core is None, reason="no compiled core")


@pytest.fixture(scope="module")
def thai():
    from pythainlp.corpus.common import thai_words
    from pythainlp.tokenize import tcc_p, word_tokenize

    if compiled.core is None:
        pytest.skip("no compiled core")
    program = segmenters.tcc_program(tcc_p._PAT_TCC)
    assert program is not None, "PyThaiNLP's cluster pattern uses something the core's matcher lacks"
    trie = compiled.core.newmm_dictionary(thai_words(), program)
    texts = xlsum_texts.thai_segmenter_texts(2500, seed=11, dictionary=sorted(thai_words()))
    texts += [p for pair in xlsum_texts.pairs("thai", 300, seed=12, max_words=80) for p in pair]
    return trie, texts, word_tokenize, tcc_p


@needs_core
def test_clusters_equal_tcc_pos_array(thai):
    trie, texts, _, tcc_p = thai
    texts = texts + ["".join(chr(c) for c in range(0x0E00, 0x0E80)), "เก็บ\n", "เกีย\n", "เกีย", "กั้ว\n", ""]
    diffs = [t for t in texts if compiled.core.newmm_clusters(trie, t) != bytes(tcc_p.tcc_pos_array(t))]
    assert diffs == []


@needs_core
def test_segments_equal_word_tokenize(thai):
    trie, texts, word_tokenize, _ = thai
    segment = segmenters._native_newmm()
    if segment is None:
        pytest.skip("pythainlp %s is not in NEWMM_VERIFIED" % pythainlp.__version__)
    diffs = [t for t in texts if segment(t) != word_tokenize(t, engine="newmm")]
    assert len(texts) > 3000 and diffs == []


@needs_core
def test_raw_segments_equal_newmm_segment(thai):
    """Without the version gate and without rejoin_formatted_num: the port itself."""
    from pythainlp.tokenize.newmm import segment

    trie, texts, _, _ = thai
    assert [t for t in texts if compiled.core.newmm_segment(trie, t) != segment(t)] == []


@needs_core
def test_long_text_and_known_answer(thai):
    trie, _, word_tokenize, _ = thai
    text = "โอเคบ่พวกเรารักภาษาบ้านเกิด"
    assert compiled.core.newmm_segment(trie, text) == ["โอเค", "บ่", "พวกเรา", "รัก", "ภาษา", "บ้านเกิด"]
    long = (text + " 12:30น ") * 2000   # 70,000 characters in one call
    assert segmenters._native_newmm()(long) == word_tokenize(long, engine="newmm")


def test_tcc_program_refuses_what_the_matcher_lacks():
    assert segmenters.tcc_program(re.compile("a*")) is None            # unbounded repeat
    assert segmenters.tcc_program(re.compile("(?:a?)?b")) is None      # a body that matches nothing
    assert segmenters.tcc_program(re.compile("[^a]")) is None          # negated class
    assert segmenters.tcc_program(re.compile("(?<=a)b")) is None       # lookbehind
    assert segmenters.tcc_program(re.compile("a", re.IGNORECASE)) is None
    assert segmenters.tcc_program(re.compile("a.")) is None            # any character
    assert segmenters.tcc_program(re.compile("a(?=b|$)c?")) is not None


@needs_core
def test_tcc_matcher_follows_re_on_a_small_alphabet():
    """Alternation order, greedy repeats with backtracking, lookahead and "$" (also before a final
    newline), on every string of up to 5 characters over the alphabet."""
    import itertools

    pattern = re.compile("ab?c|a(?:bc?d)?(?=b|$)|b{1,3}c?|(?:ab|a)b\n?$|c")
    trie = compiled.core.newmm_dictionary([], segmenters.tcc_program(pattern))
    for n in range(6):
        for chars in itertools.product("abcd\n", repeat=n):
            text = "".join(chars)
            expected, p = bytearray(n + 1), 0
            while p < n:
                m = pattern.match(text, p)
                p = m.end() if m and m.end() > p else p + 1
                expected[p] = 1
            assert compiled.core.newmm_clusters(trie, text) == bytes(expected), text


@needs_core
def test_malformed_program_is_refused():
    import array

    with pytest.raises(ValueError, match="tcc_program"):
        compiled.core.newmm_dictionary([], array.array("i", [1, 99, 0]).tobytes())
    with pytest.raises(ValueError, match="tcc_program"):
        compiled.core.newmm_dictionary([], b"\x00")
    with pytest.raises(TypeError, match="str"):
        compiled.core.newmm_dictionary([b"x"], segmenters.tcc_program(re.compile("a")))


def test_unverified_release_keeps_word_tokenize(monkeypatch):
    from pythainlp.tokenize import word_tokenize

    monkeypatch.setattr(segmenters, "NEWMM_VERIFIED", ())
    assert segmenters._native_newmm() is None
    monkeypatch.setattr(segmenters, "_cache", {})
    segment = segmenters.get("newmm", "thai")
    text = "วันนี้ฝนตก 1,234.5 บาท"
    assert segment(text) == word_tokenize(text, engine="newmm")
