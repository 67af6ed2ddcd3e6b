"""The compiled segmenters against the packages they port, word for word: newmm (csrc/newmm.c)
against PyThaiNLP's word_tokenize(engine="newmm"), its cluster matcher against tcc_pos_array, and
jieba's cut (csrc/jieba.c) against jieba.cut."""
import re

import pytest

from rouge_full_metric import compiled, native_segmenters, segmenters

import xlsum_texts

needs_core = pytest.mark.skipif(compiled.core is None, reason="no compiled core")


@pytest.fixture(scope="module")
def thai():
    pytest.importorskip("pythainlp")
    from pythainlp.corpus.common import thai_words
    from pythainlp.tokenize import tcc_p, word_tokenize

    if compiled.core is None:
        pytest.skip("no compiled core")
    program = native_segmenters.tcc_program(tcc_p._PAT_TCC)
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
    segment = native_segmenters.newmm_segmenter()
    if segment is None:
        pytest.skip("the installed pythainlp is not in NEWMM_VERIFIED")
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
    assert native_segmenters.newmm_segmenter()(long) == word_tokenize(long, engine="newmm")


def test_tcc_program_refuses_what_the_matcher_lacks():
    """Anything else keeps PyThaiNLP's Python (None)."""
    assert native_segmenters.tcc_program(re.compile("a*")) is None            # unbounded repeat
    assert native_segmenters.tcc_program(re.compile("(?:a?)?b")) is None      # a body that matches nothing
    assert native_segmenters.tcc_program(re.compile("[^a]")) is None          # negated class
    assert native_segmenters.tcc_program(re.compile("(?<=a)b")) is None       # lookbehind
    assert native_segmenters.tcc_program(re.compile("a", re.IGNORECASE)) is None
    assert native_segmenters.tcc_program(re.compile("a.")) is None            # any character
    assert native_segmenters.tcc_program(re.compile("a(?=b|$)c?")) is not None


@needs_core
def test_tcc_matcher_follows_re_on_a_small_alphabet():
    """Alternation order, greedy repeats with backtracking, lookahead and "$" (also before a final
    newline), on every string of up to 5 characters over the alphabet."""
    import itertools

    pattern = re.compile("ab?c|a(?:bc?d)?(?=b|$)|b{1,3}c?|(?:ab|a)b\n?$|c")
    trie = compiled.core.newmm_dictionary([], native_segmenters.tcc_program(pattern))
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
        compiled.core.newmm_dictionary([b"x"], native_segmenters.tcc_program(re.compile("a")))


def test_unverified_release_keeps_word_tokenize(monkeypatch):
    pytest.importorskip("pythainlp")
    from pythainlp.tokenize import word_tokenize

    monkeypatch.setattr(native_segmenters, "NEWMM_VERIFIED", ())
    assert native_segmenters.newmm_segmenter() is None
    monkeypatch.setattr(segmenters, "_cache", {})
    segment = segmenters.get("newmm", "thai")
    text = "วันนี้ฝนตก 1,234.5 บาท"
    assert segment(text) == word_tokenize(text, engine="newmm")


@pytest.fixture(scope="module")
def chinese():
    jieba = pytest.importorskip("jieba")
    if compiled.core is None:
        pytest.skip("no compiled core")
    segmenters.get("jieba", "chinese")   # initializes jieba quietly
    segment = native_segmenters.jieba_segmenter()
    if segment is None:
        pytest.skip("the installed jieba is not in JIEBA_VERIFIED")
    words = sorted(w for w, f in jieba.dt.FREQ.items() if f)
    texts = xlsum_texts.chinese_segmenter_texts(2500, seed=13, dictionary=words[::5])
    texts += [p for pair in xlsum_texts.pairs("chinese", 300, seed=14, max_words=80) for p in pair]
    return jieba, segment, texts


@needs_core
def test_jieba_equals_jieba_cut(chinese):
    jieba, segment, texts = chinese
    diffs = [t for t in texts if segment(t) != list(jieba.cut(t))]
    assert len(texts) > 3000 and diffs == []


@needs_core
def test_jieba_known_answer_and_long_block(chinese):
    jieba, segment, _ = chinese
    assert segment("我来到北京清华大学") == ["我", "来到", "北京", "清华大学"]
    assert segment("他来到了网易杭研大厦") == list(jieba.cut("他来到了网易杭研大厦"))   # HMM: 杭研
    long = "我来到北京清华大学abc3.14%你好" * 5000   # one block of 100,000 characters
    assert segment(long) == list(jieba.cut(long))
    assert segment("") == []


@needs_core
def test_jieba_follows_dictionary_edits(chinese, monkeypatch):
    """add_word rebuilds the model; del_word (a force-split word) hands over to jieba; a jieba.cut
    that is not a Tokenizer's is called as it is."""
    jieba, segment, _ = chinese
    from jieba import finalseg

    tokenizer = jieba.Tokenizer()
    monkeypatch.setattr(jieba, "cut", tokenizer.cut)
    monkeypatch.setattr(finalseg, "Force_Split_Words", set())
    text = "我来到北京清华大学城东门"
    assert segment(text) == list(jieba.cut(text))
    tokenizer.add_word("清华大学城", 1000000)
    assert "清华大学城" in segment(text) and segment(text) == list(jieba.cut(text))
    tokenizer.del_word("北京")
    assert segment(text) == list(jieba.cut(text)) and "北京" not in segment(text)
    monkeypatch.setattr(jieba, "cut", lambda text: iter(text))
    assert segment("北京") == ["北", "京"]


@needs_core
def test_jieba_model_refuses_what_it_cannot_take():
    with pytest.raises(TypeError, match="str to int"):
        compiled.core.jieba_model({"a": 1.5}, 0.0, [0.0] * 4, [0.0] * 16, {}, -1e100)
    with pytest.raises(ValueError, match="negative"):
        compiled.core.jieba_model({"a": -1}, 0.0, [0.0] * 4, [0.0] * 16, {}, -1e100)
    with pytest.raises(ValueError, match="16 floats"):
        compiled.core.jieba_model({}, 0.0, [0.0] * 4, [0.0] * 3, {}, -1e100)
    with pytest.raises(TypeError, match="single characters"):
        compiled.core.jieba_model({}, 0.0, [0.0] * 4, [0.0] * 16, {"ab": [0.0] * 4}, -1e100)


def test_unverified_jieba_keeps_jieba(monkeypatch):
    pytest.importorskip("jieba")
    monkeypatch.setattr(native_segmenters, "JIEBA_VERIFIED", ())
    assert native_segmenters.jieba_segmenter() is None


def test_pure_python_engine_keeps_the_packages(monkeypatch):
    monkeypatch.setattr(compiled, "core", None)
    assert native_segmenters.jieba_segmenter() is None
    assert native_segmenters.newmm_segmenter() is None


@needs_core
def test_jieba_dictionary_edits_are_read_incrementally(chinese, monkeypatch):
    """add_word / suggest_freq / load_userdict of new words extend the native dictionary (no
    rebuild, the core keeps cutting); a changed frequency of an existing word hands over to jieba
    until JIEBA_REBUILD_CHARS characters later (one rebuild); del_word hands over to jieba.  The
    words equal jieba.cut's after every edit."""
    import io
    import random

    jieba, segment0, texts = chinese
    from jieba import finalseg

    tokenizer = jieba.Tokenizer()
    monkeypatch.setattr(jieba, "cut", tokenizer.cut)
    monkeypatch.setattr(finalseg, "Force_Split_Words", set())
    monkeypatch.setattr(native_segmenters, "JIEBA_REBUILD_CHARS", 3000)
    core = compiled.core
    calls = {"model": 0, "cut": 0}
    real_model, real_cut = core.jieba_model, core.jieba_cut_block

    def spy_model(*args):
        calls["model"] += 1
        return real_model(*args)

    def spy_cut(*args):
        calls["cut"] += 1
        return real_cut(*args)

    monkeypatch.setattr(core, "jieba_model", spy_model)
    monkeypatch.setattr(core, "jieba_cut_block", spy_cut)
    segment = native_segmenters.jieba_segmenter()
    rng = random.Random(18)
    sample = [t for t in texts if len(t) > 20][:400]
    han = sorted({c for t in sample for c in t if "\u4e00" <= c <= "\u9fd5"})

    def check(k=12):
        for t in rng.sample(sample, k):
            assert segment(t) == list(tokenizer.cut(t)), t

    check()
    assert calls["model"] == 1
    for step in range(300):   # new words, interleaved with cuts
        word = "".join(rng.choice(han) for _ in range(rng.randint(2, 5)))
        if word in tokenizer.FREQ:
            continue
        kind = step % 3
        if kind == 0:
            tokenizer.add_word(word, rng.choice([None, 1, 5, 50, 5000, 10 ** 6]))
        elif kind == 1:
            tokenizer.suggest_freq(word, True)
        else:
            tokenizer.load_userdict(io.BytesIO(("%s %d n\n" % (word, rng.randint(1, 10 ** 5))).encode()))
        # the words the texts contain get their chance too
        t = rng.choice(sample)
        check(2)
        segment(t[: rng.randint(2, len(t))] + word + t)
    assert calls["model"] == 1, "a new word must not rebuild the native dictionary"
    cuts = calls["cut"]
    # an existing word's frequency changes: jieba cuts, then one rebuild
    existing = rng.sample(sorted(w for w, f in tokenizer.FREQ.items() if f and len(w) > 1), 20)
    tokenizer.add_word(existing[0], 3)
    tokenizer.suggest_freq(existing[1], True)
    check(4)
    assert calls["cut"] == cuts and calls["model"] == 1   # jieba's own cut, no rebuild yet
    for _ in range(60):
        check(4)
    assert calls["model"] == 2 and calls["cut"] > cuts
    for w in existing[2:]:
        tokenizer.add_word(w, rng.randint(1, 10 ** 6))
        tokenizer.add_word(w + rng.choice(han), rng.randint(1, 10 ** 6))
    for _ in range(60):
        check(4)
    assert calls["model"] == 3
    tokenizer.suggest_freq(tuple(existing[3]), True)   # split it: frequency 0, a force-split word
    check(20)
    tokenizer.del_word(existing[4])
    check(20)


@needs_core
def test_jieba_many_new_words_cost_no_rebuild(chinese, monkeypatch):
    """1,000 add_word calls interleaved with cuts: one model build (before: one per call,
    60-190 ms each)."""
    import time

    jieba, _, texts = chinese
    from jieba import finalseg

    tokenizer = jieba.Tokenizer()
    monkeypatch.setattr(jieba, "cut", tokenizer.cut)
    monkeypatch.setattr(finalseg, "Force_Split_Words", set())
    segment = native_segmenters.jieba_segmenter()
    text = texts[0]
    segment(text)
    built = []
    real_model = compiled.core.jieba_model
    monkeypatch.setattr(compiled.core, "jieba_model", lambda *a: built.append(1) or real_model(*a))
    start = time.perf_counter()
    for k in range(1000):
        tokenizer.add_word("新词%d号" % k, 10 + k)
        assert segment("他说新词%d号很好" % k) == list(tokenizer.cut("他说新词%d号很好" % k))
    elapsed = time.perf_counter() - start
    assert built == []
    assert elapsed < 20   # about 0.1 s; the old bridge rebuilt 1,000 times (minutes)
