"""Flavor "xlsum" against XL-Sum's scorer itself (multilingual-rouge 0.0.1), on generated texts in
every XL-Sum language, unstemmed and stemmed: every rouge1, rouge2, rougeL, rougeLsum value equal.

Skipped when multilingual-rouge is not installed.  Two offline gaps of the anchor are closed for the
comparison (both documented in rouge_full_metric.multilingual_stemmers):
- its wheel lacks the Bengali stemmer's rules file: the anchor is given the same rules text;
- NLTK's stopwords corpus is a download: without it the anchor cannot build a Snowball stemmer with
  ignore_stopwords=True.  For the languages whose lists this package ships (snowball_stopwords) the
  anchor's NLTK reads the shipped lists as its corpus (tests/shipped_stopwords.py); for arabic, when
  the corpus is not installed, this package stems stop words too and the anchor is built with
  ignore_stopwords=False, which is what this package computes.
"""
import functools
import io
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shipped_stopwords  # noqa: E402
from anchor_compare import compare  # noqa: E402
import xlsum_texts  # noqa: E402

from rouge_full_metric import RougeScorer, languages, multilingual_stemmers, snowball_stopwords  # noqa: E402

anchor_scorer = pytest.importorskip("multilingual_rouge.rouge_scorer")
anchor_stemmers = pytest.importorskip("multilingual_rouge.stemmers")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PAIRS_PER_LANGUAGE = int(os.environ.get("XLSUM_PAIRS", "60"))


@pytest.fixture(scope="module", autouse=True)
def offline_anchor(tmp_path_factory):
    """Give the anchor what it cannot get offline (see the module docstring)."""
    from multilingual_rouge.bengali_stemmer import RafiStemmer

    saved = dict(anchor_stemmers.LANG2STEMMER)

    class Bengali:
        def __init__(self):
            self.stemmer = RafiStemmer(io.StringIO(multilingual_stemmers.BENGALI_RULES))

        def __call__(self, token):
            return self.stemmer.stem_word(token)

    anchor_stemmers.LANG2STEMMER["bengali"] = Bengali
    for lang in multilingual_stemmers.SNOWBALL:
        if lang not in snowball_stopwords.LANGUAGES and multilingual_stemmers._stopwords(lang) is None:
            anchor_stemmers.LANG2STEMMER[lang] = functools.partial(anchor_stemmers.NLTKStemmer, lang,
                                                                   ignore_stopwords=False)
    with pytest.MonkeyPatch.context() as patch:
        shipped_stopwords.point_nltk_at(shipped_stopwords.write_nltk_data(tmp_path_factory.mktemp("nltk")), patch)
        yield
    anchor_stemmers.LANG2STEMMER.clear()
    anchor_stemmers.LANG2STEMMER.update(saved)


def anchor_available(lang):
    """Whether the anchor's segmenter for ``lang`` can be imported here."""
    segmenter = languages.resolve(lang).segmenter if lang else None
    modules = {"jieba": ["jieba"], "fugashi": ["fugashi", "unidic_lite"], "newmm": ["pythainlp"]}
    for module in modules.get(segmenter, []):
        pytest.importorskip(module)



LANGS = [None] + languages.XLSUM_NAMES + ["bangla", "turkce", "mundo"]


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stemmed"])
@pytest.mark.parametrize("lang", LANGS, ids=[str(x) for x in LANGS])
def test_equals_anchor(lang, use_stemmer):
    anchor_available(lang)
    key = languages.resolve(lang).name if lang else "english"
    pairs = xlsum_texts.pairs(key, PAIRS_PER_LANGUAGE, seed=1 + use_stemmer)
    equal, first = compare(lang, use_stemmer, pairs)
    assert equal == len(pairs), first


def test_identical_texts_score_one_in_the_anchor_too():
    anchor_available("thai")
    text = "ภาษาไทย ง่าย นิดเดียว\nสวัสดีครับ"
    assert compare("thai", False, [(text, text)])[0] == 1
    assert RougeScorer(TYPES, flavor="xlsum", lang="th").score(text, text)["rougeLsum"].fmeasure == 1.0


def test_snowball_leaves_nltk_stopwords_unstemmed_when_the_corpus_is_there(monkeypatch):
    """With NLTK's stopwords corpus installed, the stems are the anchor's ignore_stopwords=True
    stems (the corpus is a download, so a small stand-in list plays it here, on both sides)."""
    import nltk.stem.snowball

    words = {"english": ["having", "being", "doing", "during"], "russian": ["которые", "этого"],
             "spanish": ["nosotros", "estaban"]}

    class Corpus:
        @staticmethod
        def words(lang):
            return words[lang]

    monkeypatch.setattr(nltk.stem.snowball, "stopwords", Corpus)
    monkeypatch.setattr(multilingual_stemmers, "_stopwords", lambda lang: words[lang])
    monkeypatch.setattr(multilingual_stemmers, "_cache", {})
    for lang, sample in (("english", "having runners being doing during generously"),
                         ("russian", "которые книгами этого говорили"), ("spanish", "nosotros corriendo estaban")):
        ours = multilingual_stemmers.get(lang, lang)
        theirs = anchor_stemmers.NLTKStemmer(lang, ignore_stopwords=True)
        assert [ours(w) for w in sample.split()] == [theirs(w) for w in sample.split()]
        assert ours(words[lang][0]) == words[lang][0]   # a stop word stays whole
    monkeypatch.setattr(multilingual_stemmers, "_cache", {})
