"""Compiled core == pure Python for flavor xlsum and flavors rouge155/paper with lang=, on
generated texts.  With the core's XL-Sum tokenizer (``_core.XLSUM_TOKENIZER``) the core tokenizes
(or reads Python's tokens split on spaces); without it Python's tokens reach the core as ASCII
pseudo-words.  Either way the numbers must equal the pure-Python engine's."""
import os
import sys
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xlsum_texts  # noqa: E402

from rouge_full_metric import RougeScorer, compiled  # noqa: E402
from rouge_full_metric.batch import compiled_scorer, score_examples  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
HAS_CORE = compiled.AVAILABLE


LANGS = ["english", "hindi", "bengali", "arabic", "russian", "korean", "amharic", "vietnamese", "yoruba",
         "burmese", "chinese", "japanese", "thai", "turkish"]
SEGMENTERS = {"chinese": "jieba", "japanese": "fugashi", "thai": "pythainlp", "turkish": "TurkishStemmer"}


@pytest.mark.skipif(not HAS_CORE, reason="the compiled core is not built")
@pytest.mark.parametrize("options", [dict(), dict(use_stemmer=True), dict(word_limit=7),
                                     dict(flavor="paper", use_stemmer=True), dict(multi_ref="best")],
                         ids=["plain", "stem", "wlimit", "paper", "best"])
@pytest.mark.parametrize("lang", LANGS)
def test_compiled_equals_python(lang, options):
    if lang in SEGMENTERS:
        pytest.importorskip(SEGMENTERS[lang])
    pairs = xlsum_texts.pairs(lang, 80, seed=7)
    predictions = [p for p, _ in pairs]
    references = [[r, p[::-1]] if k % 3 == 0 else r for k, (p, r) in enumerate(pairs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = RougeScorer(TYPES, lang=lang, **options)
        assert compiled_scorer(scorer) is not None
        got = score_examples(scorer, predictions, references, backend="compiled")
        want = score_examples(scorer, predictions, references, backend="python")
    assert got == want


@pytest.mark.skipif(not HAS_CORE, reason="the compiled core is not built")
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("lang", [None] + LANGS)
def test_compiled_equals_python_flavor_xlsum(lang, use_stemmer):
    if lang in SEGMENTERS:
        pytest.importorskip(SEGMENTERS[lang])
    pairs = xlsum_texts.pairs(lang or "english", 80, seed=8)
    predictions = [p for p, _ in pairs]
    references = [[r, p[::-1]] if k % 3 == 0 else r for k, (p, r) in enumerate(pairs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # rougeLsum before other types: its engine's results are merged back in the scorer's order
        scorer = RougeScorer(["rouge1", "rougeLsum", "rouge2", "rougeL"], flavor="xlsum", lang=lang,
                             use_stemmer=use_stemmer)
        assert compiled_scorer(scorer) is not None
        got = score_examples(scorer, predictions, references, backend="compiled")
        want = score_examples(scorer, predictions, references, backend="python")
    assert repr(got) == repr(want)


@pytest.mark.skipif(not HAS_CORE, reason="the compiled core is not built")
@pytest.mark.parametrize("flavor", ["rouge155", "xlsum"])
def test_threads_share_the_pseudo_words(flavor):
    pytest.importorskip("jieba")
    pairs = xlsum_texts.pairs("chinese", 600, seed=9, max_words=12)
    predictions, references = [p for p, _ in pairs], [r for _, r in pairs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"], flavor=flavor, lang="zh")
        got = scorer.score_batch(predictions, references, n_jobs=2)
        want = score_examples(scorer, predictions, references, with_statistics=False, backend="python")[0]
    assert got == want


def _dictionary_texts(lang):
    """Texts of the segmenter's own dictionary words, those with a space inside first (newmm's
    "ไร ๆ" is one token; the core must not split it)."""
    if lang == "thai":
        from pythainlp.corpus.common import thai_words
        words = sorted(thai_words())
        return xlsum_texts.thai_segmenter_texts(160, seed=9, dictionary=[w for w in words if " " in w] + words[::50])
    import jieba
    from rouge_full_metric import segmenters
    segmenters.get("jieba", "chinese")   # loads jieba's dictionary, quietly
    words = sorted(w for w, f in jieba.dt.FREQ.items() if f)
    return xlsum_texts.chinese_segmenter_texts(160, seed=9, dictionary=[w for w in words if " " in w] + words[::50])


@pytest.mark.skipif(not HAS_CORE, reason="the compiled core is not built")
@pytest.mark.parametrize("flavor", ["xlsum", "rouge155"])
@pytest.mark.parametrize("lang", ["thai", "chinese"])
def test_compiled_equals_python_on_dictionary_words(lang, flavor):
    pytest.importorskip(SEGMENTERS[lang])
    texts = _dictionary_texts(lang)
    predictions, references = texts[::2], texts[1::2]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"] + (TYPES[4:] if flavor == "rouge155" else [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = RougeScorer(types, flavor=flavor, lang=lang)
        got = score_examples(scorer, predictions, references, backend="compiled")
        want = score_examples(scorer, predictions, references, backend="python")
    assert got == want


@pytest.mark.skipif(not HAS_CORE, reason="the compiled core is not built")
def test_plain_texts_skip_the_copy_and_others_take_it(monkeypatch):
    """Flavor xlsum's two engines read str texts (references as str or lists / tuples of str) as
    they are; bytes, sentence lists and str subclasses are converted first, as before.  Both ways
    equal the pure-Python engine, and the plain way does not convert."""
    from rouge_full_metric import batch

    pairs = xlsum_texts.pairs("english", 40, seed=9)
    preds = [p for p, _ in pairs]
    refs = [(r, p[::-1]) if k % 4 == 0 else [r] if k % 4 == 1 else r for k, (p, r) in enumerate(pairs)]

    class Text(str):
        pass

    mixed_preds = [p.encode() if k % 5 == 0 else p.split(". ") if k % 5 == 1 else Text(p) if k % 5 == 2 else p
                   for k, p in enumerate(preds)]
    scorer = RougeScorer(["rougeLsum", "rouge1", "rouge2", "rougeL"], flavor="xlsum")
    want_plain = score_examples(scorer, preds, refs, backend="python")
    want_mixed = score_examples(scorer, mixed_preds, refs, backend="python")
    assert score_examples(scorer, mixed_preds, refs, backend="compiled") == want_mixed
    converted = []
    original = batch._WholeAndSentencesScorer._convert
    monkeypatch.setattr(batch._WholeAndSentencesScorer, "_convert",
                        staticmethod(lambda *args: converted.append(1) or original(*args)))
    assert score_examples(scorer, preds, refs, backend="compiled") == want_plain
    assert converted == []
    assert score_examples(scorer, mixed_preds, refs, backend="compiled") == want_mixed
    assert converted
