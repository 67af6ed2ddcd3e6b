"""Pairwise ROUGE (rouge_full_metric.pairwise): score_matrix and filter_near_duplicates.

Differential: compiled core == pure Python == RougeScorer.score cell by cell (every flavor,
rouge<N>, rougeL, rougeLsum and the other types), == the rouge_score package in flavor
rouge_score, and the filter == its definition written as a plain loop over ``score``.
"""
import math
import random
import zlib

import numpy as np
import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric import pairwise
from rouge_full_metric import scorer as scorer_module

needs_core = pytest.mark.skipif(not compiled.AVAILABLE or not hasattr(compiled.core, "pair_corpus"),
                                reason="compiled core not built")

WORDS = ("the a of cat cats dog dogs running runs ran sat on mat and is was Big big it's "
         "write poem about sea list three prime numbers give example explain why how").split()
PUNCT = ["", "", "", ",", ".", "!", "-", "'s"]


def _sentence(rng, lo, hi):
    return " ".join(rng.choice(WORDS) + rng.choice(PUNCT) for _ in range(rng.randint(lo, hi)))


def make_texts(seed, count, long_every=7, lines=True):
    """Short instruction-like texts, some multi-line, some longer than 64 tokens, some empty,
    plus near-copies of earlier ones (so filters drop something)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        r = rng.random()
        if out and r < 0.25:
            words = rng.choice(out).split(" ")
            if words and rng.random() < 0.7:
                words[rng.randrange(len(words))] = rng.choice(WORDS)
            out.append(" ".join(words))
        elif r < 0.3:
            out.append(rng.choice(["", "   ", "!!", "\n"]))
        elif k % long_every == 3:
            out.append(_sentence(rng, 60, 90))
        elif lines and r < 0.5:
            out.append("\n".join(_sentence(rng, 1, 8) for _ in range(rng.randint(2, 3))))
        else:
            out.append(_sentence(rng, 1, 14))
    return out


def _seed(*parts):
    return zlib.crc32(repr(parts).encode())


def score_reference(scorer, a, b, rouge_type, measure):
    # [y]: y is one reference (a list of sentences would otherwise be several references)
    return np.array([[getattr(scorer.score(x, [y])[rouge_type], measure) for y in b] for x in a])


FLAVOR_TYPES = [
    ("rouge155", "rouge1"), ("rouge155", "rouge2"), ("rouge155", "rouge3"), ("rouge155", "rougeL"),
    ("rouge155", "rougeLsum"), ("rouge155", "rougeW-1.2"), ("rouge155", "rougeSU4"),
    ("paper", "rouge1"), ("paper", "rouge2"), ("paper", "rougeL"), ("paper", "rougeLsum"), ("paper", "rougeS*"),
    ("rouge_score", "rouge1"), ("rouge_score", "rouge2"), ("rouge_score", "rouge4"), ("rouge_score", "rougeL"),
    ("rouge_score", "rougeLsum"),
]


@pytest.mark.parametrize("flavor,rouge_type", FLAVOR_TYPES)
def test_matrix_equals_score_both_engines(flavor, rouge_type):
    a = make_texts(_seed(flavor, rouge_type), 22)
    b = make_texts(_seed(rouge_type, flavor), 17)
    scorer = RougeScorer([rouge_type], flavor=flavor)
    for measure in pairwise.MEASURES:
        expected = score_reference(scorer, a, b, rouge_type, measure)
        python = scorer_matrix(scorer, a, b, measure, backend="python")
        assert np.array_equal(python, expected), (measure, np.argwhere(python != expected)[:5])
        if compiled.AVAILABLE and hasattr(compiled.core, "pair_corpus"):
            for jobs in (1, 2):
                got = scorer_matrix(scorer, a, b, measure, backend="compiled", n_jobs=jobs)
                assert np.array_equal(got, expected), (measure, jobs, np.argwhere(got != expected)[:5])


def scorer_matrix(scorer, a, b, measure, backend=None, n_jobs=1, rouge_type=None):
    return pairwise.score_matrix(scorer, a, b, measure=measure, n_jobs=n_jobs, rouge_type=rouge_type,
                                 backend=backend)


@pytest.mark.parametrize("options", [
    dict(use_stemmer=True), dict(remove_stopwords=True, use_stemmer=True), dict(word_limit=6),
    dict(byte_limit=30), dict(alpha=0.8), dict(multi_ref="best"), dict(flavor="paper", jackknife=True),
])
@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
def test_matrix_options(options, rouge_type):
    a = make_texts(11, 15)
    b = make_texts(12, 13)
    scorer = RougeScorer([rouge_type], **options)
    expected = score_reference(scorer, a, b, rouge_type, "fmeasure")
    assert np.array_equal(scorer_matrix(scorer, a, b, "fmeasure", backend="python"), expected)
    assert np.array_equal(scorer.score_matrix(a, b), expected)


@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
def test_rouge_score_flavor_equals_rouge_score_package(use_stemmer, rouge_type):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    a = make_texts(21, 40)
    b = make_texts(22, 30)
    reference = rouge_scorer.RougeScorer([rouge_type], use_stemmer=use_stemmer)
    scorer = RougeScorer([rouge_type], flavor="rouge_score", use_stemmer=use_stemmer)
    for measure in pairwise.MEASURES:
        expected = np.array([[getattr(reference.score(y, x)[rouge_type], measure) for y in b] for x in a])
        assert np.array_equal(scorer.score_matrix(a, b, measure=measure), expected), measure
        assert np.array_equal(scorer_matrix(scorer, a, b, measure, backend="python"), expected), measure


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
def test_custom_tokenizer_matches_score(rouge_type):
    # its tokens reach the pair kernels as pseudo-words, as they reach score_batch
    scorer = RougeScorer([rouge_type], flavor="rouge_score", tokenizer=lambda s: s.split())
    a, b = make_texts(31, 9), make_texts(32, 8)
    want = score_reference(scorer, a, b, rouge_type, "fmeasure")
    assert np.array_equal(scorer.score_matrix(a, b), want)
    assert np.array_equal(scorer_matrix(scorer, a, b, "fmeasure", backend="python"), want)


def test_self_matrix_and_shapes():
    scorer = RougeScorer(["rougeL"])
    a = make_texts(41, 30)
    m = scorer.score_matrix(a)
    assert m.shape == (30, 30)
    assert np.array_equal(m, scorer.score_matrix(a, list(a)))
    assert np.array_equal(m, scorer.score_matrix(tuple(a), a, n_jobs=2))
    assert scorer.score_matrix([], a).shape == (0, 30)
    assert scorer.score_matrix(a, []).shape == (30, 0)
    # F is symmetric, precision and recall swap with the roles
    assert np.array_equal(m, m.T)
    assert np.array_equal(scorer.score_matrix(a, measure="precision"), scorer.score_matrix(a, measure="recall").T)


@pytest.mark.parametrize("flavor", ["rouge_score", "rouge155"])
def test_every_length_and_row_group(flavor, monkeypatch):
    # 0..100 tokens: rows in groups of 8 (<= 32 tokens), of 4 (33..64) and alone (> 64)
    rng = random.Random(5)
    texts = [" ".join(rng.choice(WORDS[:12]) for _ in range(k)) for k in range(0, 101, 3)]
    texts += [" ".join(rng.choice(WORDS[:12]) for _ in range(k)) for k in (31, 32, 33, 63, 64, 65)]
    scorer = RougeScorer(["rougeL"], flavor=flavor)
    for measure in pairwise.MEASURES:
        expected = score_reference(scorer, texts, texts, "rougeL", measure)
        assert np.array_equal(scorer.score_matrix(texts, measure=measure), expected), measure
    for threshold in (0.2, 0.5, 0.8):
        expected = filter_reference(scorer, texts, threshold, "rougeL", "fmeasure")
        assert scorer.filter_near_duplicates(texts, threshold) == expected
        monkeypatch.setattr(pairwise, "_FILTER_BLOCK", 5)   # blocks scanned in row groups
        assert scorer.filter_near_duplicates(texts, threshold) == expected
        assert scorer.filter_near_duplicates(texts, threshold, n_jobs=2) == expected
        monkeypatch.undo()


@needs_core
def test_many_rows_threaded_equals_single_thread():
    scorer = RougeScorer(["rougeL"], flavor="rouge_score")
    a = make_texts(51, 300, long_every=40, lines=False)
    b = make_texts(52, 120, long_every=40, lines=False)
    one = scorer.score_matrix(a, b)
    assert np.array_equal(one, scorer.score_matrix(a, b, n_jobs=2))
    sample = [(i, j) for i in range(0, 300, 13) for j in range(0, 120, 7)]
    for i, j in sample:
        assert one[i, j] == scorer.score(a[i], b[j])["rougeL"].fmeasure


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score"])
def test_input_kinds(flavor):
    # bytes, lists of sentences, non-ASCII text, numpy arrays and generators, as score takes them
    texts = ["The İstanbul runners ran 3.5 miles", b"the runners ran\nmiles", ["The runners", "ran far"],
             "Kelvin \u212a runs", "caf\u00e9 au lait", ""]
    if flavor == "rouge_score":
        texts[2] = "The runners\nran far"
    scorer = RougeScorer(["rougeLsum"], flavor=flavor, use_stemmer=True)
    expected = score_reference(scorer, texts, texts, "rougeLsum", "fmeasure")
    assert np.array_equal(scorer.score_matrix(texts), expected)
    assert np.array_equal(pairwise.score_matrix(scorer, texts, backend="python"), expected)
    strings = [t for t in texts if isinstance(t, str)]
    m = scorer.score_matrix(np.array(strings), (t for t in strings))
    assert np.array_equal(m, score_reference(scorer, strings, strings, "rougeLsum", "fmeasure"))


@pytest.mark.parametrize("flavor", sorted(set(scorer_module.FLAVORS) - {"rouge155", "paper", "rouge_score"}))
def test_other_flavors_through_score(flavor):
    # flavors the pairwise engine has no kernel for are scored through score() itself
    a, b = make_texts(71, 9), make_texts(72, 7)
    for rouge_type in ("rouge1", "rougeL"):
        scorer = RougeScorer([rouge_type], flavor=flavor)
        expected = score_reference(scorer, a, b, rouge_type, "fmeasure")
        assert np.array_equal(scorer.score_matrix(a, b), expected, equal_nan=True)
        assert scorer.filter_near_duplicates(a, 0.5, rouge_type) == filter_reference(scorer, a, 0.5, rouge_type,
                                                                                     "fmeasure")


@pytest.mark.parametrize("flavor, lang", [("rouge155", "ru"), ("paper", "hi"), ("xlsum", "ar"), ("xlsum", None)])
def test_lang_scored_with_the_language_pipeline(flavor, lang):
    # the pair kernels read bytes with the Perl's tokenizer: with lang (or flavor xlsum) every cell
    # must still be what score() gives with the language's tokens
    words = {"ru": "мама мыла раму быстро кот спит дома".split(),
             "hi": "राम ने सेब खाया और फिर घर गया".split(),
             "ar": "ذهب الولد إلى المدرسة في الصباح الباكر".split()}[lang or "ar"]
    rng = random.Random(7)
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 9))) for _ in range(8)]
    scorer = RougeScorer(["rouge1", "rougeL"], flavor=flavor, lang=lang)
    for rouge_type in ("rouge1", "rougeL"):
        expected = score_reference(scorer, texts, texts[:5], rouge_type, "fmeasure")
        assert expected.max() > 0
        assert np.array_equal(scorer.score_matrix(texts, texts[:5], rouge_type=rouge_type), expected)


def test_errors_name_the_argument():
    two = RougeScorer(["rouge1", "rougeL"])
    with pytest.raises(ValueError, match="rouge_type"):
        two.score_matrix(["a"], ["b"])
    assert two.score_matrix(["a b"], ["b"], rouge_type="rouge1").shape == (1, 1)
    with pytest.raises(ValueError, match="measure"):
        two.score_matrix(["a"], ["b"], rouge_type="rouge1", measure="f1")
    with pytest.raises(TypeError, match="texts_a"):
        two.score_matrix("a b", rouge_type="rouge1")
    with pytest.raises(TypeError, match="texts_b"):
        two.score_matrix(["a"], "b", rouge_type="rouge1")
    with pytest.raises(ValueError, match="n_jobs"):
        two.score_matrix(["a"], rouge_type="rouge1", n_jobs=0)
    with pytest.raises(ValueError, match="rouge type"):
        two.score_matrix(["a"], rouge_type="rougeX")
    with pytest.raises(ValueError, match="flavor 'rouge_score'"):
        RougeScorer("rouge1", flavor="rouge_score").score_matrix(["a"], rouge_type="rougeSU4")
    with pytest.raises(ValueError, match="threshold"):
        two.filter_near_duplicates(["a"], 0)
    with pytest.raises(ValueError, match="threshold"):
        two.filter_near_duplicates(["a"], float("nan"))
    with pytest.raises(TypeError, match="texts"):
        two.filter_near_duplicates("a b", 0.5)
    with pytest.raises(TypeError, match=r"texts_a\[1\]"):
        two.score_matrix(["a", 3], rouge_type="rouge1")


# ----------------------------------------------------------------------------- the filter
def filter_reference(scorer, texts, threshold, rouge_type, measure):
    """The definition: in order; drop when a kept text (prediction) vs the new one (reference)
    reaches the threshold; matched = the first such kept text."""
    kept, dropped, matched, scores = [], [], [], []
    for q, text in enumerate(texts):
        for k in kept:
            value = getattr(scorer.score(texts[k], [text])[rouge_type], measure)
            if value >= threshold:
                dropped.append(q)
                matched.append(k)
                scores.append(value)
                break
        else:
            kept.append(q)
    return pairwise.NearDuplicates(kept, dropped, matched, scores)


@pytest.mark.parametrize("flavor,rouge_type,threshold,measure", [
    ("rouge_score", "rougeL", 0.7, "fmeasure"), ("rouge_score", "rougeL", 0.3, "fmeasure"),
    ("rouge155", "rougeL", 0.5, "fmeasure"), ("rouge155", "rougeL", 0.6, "precision"),
    ("rouge155", "rougeL", 0.6, "recall"), ("paper", "rouge2", 0.4, "fmeasure"),
    ("rouge_score", "rouge1", 0.8, "fmeasure"), ("rouge155", "rougeLsum", 0.5, "fmeasure"),
    ("rouge155", "rougeSU4", 0.5, "fmeasure"), ("rouge_score", "rougeL", 1.0, "fmeasure"),
    ("rouge155", "rougeL", 0.66667, "fmeasure"),
])
def test_filter_equals_definition(flavor, rouge_type, threshold, measure, monkeypatch):
    texts = make_texts(_seed(flavor, rouge_type, threshold), 70)
    scorer = RougeScorer([rouge_type], flavor=flavor)
    expected = filter_reference(scorer, texts, threshold, rouge_type, measure)
    assert expected.dropped, "the generated texts should hold near-duplicates"
    got = pairwise.filter_near_duplicates(scorer, texts, threshold, rouge_type, measure, backend="python")
    assert got == expected
    if compiled.AVAILABLE and hasattr(compiled.core, "pair_corpus"):
        assert pairwise.filter_near_duplicates(scorer, texts, threshold, rouge_type, measure,
                                               backend="compiled") == expected
        monkeypatch.setattr(pairwise, "_FILTER_BLOCK", 8)   # many blocks: the threaded scheme
        assert scorer.filter_near_duplicates(texts, threshold, rouge_type, measure, n_jobs=2) == expected


@needs_core
@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.7, 0.9])
def test_filter_long_texts_and_bounds(threshold, monkeypatch):
    # long texts (> 64 tokens: multi-word masks and the unigram-overlap bound) and many
    # near-copies at several thresholds, against the plain definition
    rng = random.Random(int(threshold * 100))
    base = [_sentence(rng, 50, 140) for _ in range(12)]
    texts = []
    for k in range(60):
        words = rng.choice(base).split(" ")
        for _ in range(rng.randint(0, 60)):
            words[rng.randrange(len(words))] = rng.choice(WORDS)
        texts.append(" ".join(words[:rng.randint(1, len(words))]))
    scorer = RougeScorer(["rougeL"], flavor="rouge_score")
    expected = filter_reference(scorer, texts, threshold, "rougeL", "fmeasure")
    assert scorer.filter_near_duplicates(texts, threshold) == expected
    monkeypatch.setattr(pairwise, "_FILTER_BLOCK", 16)
    assert scorer.filter_near_duplicates(texts, threshold, n_jobs=2) == expected


def test_self_instruct_rule_with_rouge_score():
    """Self-Instruct/Alpaca keep a new instruction when rouge_score's rougeL F against every
    kept one is <= 0.7: threshold = nextafter(0.7, 1) gives exactly that rule."""
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    reference = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    texts = make_texts(61, 90, lines=False)
    kept = []
    for q, text in enumerate(texts):
        if not kept or max(reference.score(text, texts[k])["rougeL"].fmeasure for k in kept) <= 0.7:
            kept.append(q)
    got = RougeScorer("rougeL", flavor="rouge_score").filter_near_duplicates(texts, math.nextafter(0.7, 1))
    assert got.kept == kept
    assert len(got.kept) + len(got.dropped) == len(texts)
    for q, k, s in zip(got.dropped, got.matched, got.scores):
        assert k < q and k in kept and s == reference.score(texts[q], texts[k])["rougeL"].fmeasure > 0.7


def test_filter_edge_cases():
    scorer = RougeScorer("rougeL")
    assert scorer.filter_near_duplicates([], 0.5) == pairwise.NearDuplicates([], [], [], [])
    # empty texts score 0 against everything: kept whatever the (positive) threshold
    assert scorer.filter_near_duplicates(["", "", "a"], 0.01).kept == [0, 1, 2]
    # a threshold above every possible score drops nothing
    assert scorer.filter_near_duplicates(["a b", "a b"], 1.5).kept == [0, 1]
    r = scorer.filter_near_duplicates(["a b", "x", "a b", "x"], 1.0, n_jobs=2)
    assert (r.kept, r.dropped, r.matched, r.scores) == ([0, 1], [2, 3], [0, 1], [1.0, 1.0])


@pytest.mark.parametrize("flavor", ["xlsum", "matlab"])
def test_pairwise_errors_name_the_pairwise_argument(flavor):
    # these flavors score pair by pair through score(): a bad text was called "references[0]"
    scorer = RougeScorer(["rouge1"], flavor=flavor)
    with pytest.raises(TypeError, match=r"^texts_a\[2\] must be a str"):
        scorer.score_matrix(["a", "b", 3])
    with pytest.raises(TypeError, match=r"^texts_b\[1\] must be a str"):
        scorer.score_matrix(["a"], ["b", None])
    with pytest.raises(TypeError, match=r"^texts\[1\] must be a str"):
        scorer.filter_near_duplicates(["a", 5], 0.5)


def test_huge_matrix_is_refused_before_allocating_naming_its_size_and_the_option():
    scorer = RougeScorer(["rouge1"])
    # first (on old code: a TypeError at once, not a 3 GiB matrix)
    with pytest.raises(MemoryError, match=r"a 3 x 2 matrix .*48 bytes"):
        scorer.score_matrix(["a", "b", "c"], ["a", "b"], max_bytes=40)
    with pytest.raises(MemoryError, match=r"a 20000 x 20000 matrix of float64 takes 3\.0 GiB \(3200000000 bytes\), "
                                          r"more than max_bytes=1073741824 .*pass max_bytes=3200000000"):
        scorer.score_matrix(["a b"] * 20_000)
    assert scorer.score_matrix(["a", "b", "c"], ["a", "b"], max_bytes=48).shape == (3, 2)
    with pytest.raises(ValueError, match="max_bytes must be a whole number"):
        scorer.score_matrix(["a"], max_bytes=-1)


LANG_CASES = [
    ("rouge155", "zh", {}), ("rouge155", "th", {}), ("paper", "ja", {}), ("rouge155", "hi", dict(use_stemmer=True)),
    ("rouge155", "hi", dict(word_limit=8)), ("paper", "zh", dict(word_limit=10, multi_ref="best")), ("xlsum", None, {}),
    ("xlsum", None, dict(use_stemmer=True)), ("xlsum", "zh", {}), ("xlsum", "th", {}),
    ("xlsum", "hi", dict(use_stemmer=True)), ("xlsum", "ja", {}),
]
_LANGUAGE = {"zh": "chinese", "th": "thai", "ja": "japanese", "hi": "hindi", None: "english"}


def lang_texts(lang, count, seed, vocabulary_seed=5):
    """Texts of one language over one shared vocabulary (so that many pairs overlap), some of
    them multi-line, some near-copies, two empty."""
    from xlsum_texts import text, word

    language = _LANGUAGE[lang]
    vocabulary = [word(random.Random(vocabulary_seed * 1000 + k), language) for k in range(25)]
    rng = random.Random(seed)
    out = [text(rng, language, vocabulary, 25) for _ in range(count)]
    for k in range(0, len(out), 5):
        out[k] = out[k] + "\n" + out[(k + 3) % len(out)]
    out += [out[rng.randrange(len(out))][:-3] for _ in range(count // 5)] + ["", "\n"]
    return out


@needs_core
@pytest.mark.parametrize("flavor, lang, options", LANG_CASES)
def test_lang_and_xlsum_matrices_compiled_equal_python(flavor, lang, options):
    """With lang or flavor xlsum the texts go through the language's pipeline once and the pair
    kernels score the token ids: every cell equals the pure-Python engine's (== score())."""
    if lang == "zh":
        pytest.importorskip("jieba")
    if lang == "th":
        pytest.importorskip("pythainlp")
    if lang == "ja":
        pytest.importorskip("fugashi")
    a = lang_texts(lang, 18, _seed(flavor, lang, 1))
    b = lang_texts(lang, 14, _seed(flavor, lang, 2))
    for rouge_type in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        scorer = RougeScorer([rouge_type], flavor=flavor, lang=lang, **options)
        for measure in (pairwise.MEASURES if rouge_type == "rougeL" else ("fmeasure",)):
            python = scorer_matrix(scorer, a, b, measure, backend="python")
            assert (python > 0).mean() > (0.1 if rouge_type in ("rouge1", "rougeL") else 0)
            for jobs in (1, 2):
                got = scorer_matrix(scorer, a, b, measure, backend="compiled", n_jobs=jobs)
                assert np.array_equal(got, python), (rouge_type, measure, jobs, np.argwhere(got != python)[:5])
        same = pairwise.score_matrix(scorer, a, backend="compiled")
        assert np.array_equal(same, pairwise.score_matrix(scorer, a, backend="python"))
        for threshold in (0.3, 0.6):
            compiled_result = pairwise.filter_near_duplicates(scorer, a + b, threshold, rouge_type, backend="compiled")
            assert compiled_result == pairwise.filter_near_duplicates(scorer, a + b, threshold, rouge_type,
                                                                      backend="python")


def test_matlab_matrix_stays_python():
    # MATLAB sums per reference sentence (LCS, clipped n-grams) and has NaN cells: no pair kernel
    scorer = RougeScorer(["rougeL"], flavor="matlab")
    with pytest.raises(RuntimeError, match="cannot score"):
        pairwise.score_matrix(scorer, ["a b"], ["a c"], backend="compiled")
