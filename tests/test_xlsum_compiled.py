"""Compiled core == pure Python for flavors rouge155/paper with lang=, on generated texts.

Runs once the core has XL-Sum's tokenizer (``_core.XLSUM_TOKENIZER``); until then the engine
falls back to Python for lang (checked here too) and the differential part is skipped.
"""
import os
import sys
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xlsum_texts  # noqa: E402

from rouge_full_metric import RougeScorer, compiled  # noqa: E402
from rouge_full_metric.batch import compiled_scorer, score_examples  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
HAS_XLSUM = compiled.AVAILABLE and getattr(compiled.core, "XLSUM_TOKENIZER", False)


def test_lang_falls_back_to_python_without_the_core_tokenizer():
    scorer = RougeScorer(["rouge1"], lang="hi")
    if not HAS_XLSUM:
        assert compiled_scorer(scorer) is None


LANGS = ["english", "hindi", "bengali", "arabic", "russian", "korean", "amharic", "vietnamese", "yoruba",
         "burmese", "chinese", "japanese", "thai", "turkish"]
SEGMENTERS = {"chinese": "jieba", "japanese": "fugashi", "thai": "pythainlp", "turkish": "TurkishStemmer"}


@pytest.mark.skipif(not HAS_XLSUM, reason="the compiled core has no XL-Sum tokenizer yet")
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


@pytest.mark.skipif(not HAS_XLSUM, reason="the compiled core has no XL-Sum tokenizer yet")
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
        scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], flavor="xlsum", lang=lang,
                             use_stemmer=use_stemmer)
        assert compiled_scorer(scorer) is not None
        got = score_examples(scorer, predictions, references, backend="compiled")
        want = score_examples(scorer, predictions, references, backend="python")
    assert got == want
