"""lang=: the registry, known answers written by hand in nine languages, identical texts scoring 1
in every language and flavor, and the errors."""
import sys
import warnings

import pytest

from rouge_full_metric import RougeScorer, languages, segmenters
from rouge_full_metric.lang_pipeline import read_tokens


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def needs(*modules):
    for module in modules:
        pytest.importorskip(module)


# ------------------------------------------------------------------------------------ registry
def test_registry_has_xlsum_45_languages():
    assert len(languages.XLSUM_NAMES) == 45
    for name in languages.XLSUM_NAMES:
        assert languages.resolve(name) is not None


@pytest.mark.parametrize("spelling, name", [
    ("zh", "chinese"), ("chinese_simplified", "chinese"), ("Chinese-Traditional", "chinese"),
    ("bangla", "bengali"), ("bn", "bengali"), ("turkce", "turkish"), ("mundo", "spanish"), ("ES", "spanish"),
    ("ja", "japanese"), ("th", "thai"), ("my", "burmese"), ("scottish gaelic", "scottish_gaelic"),
    ("sr", "serbian_cyrillic"), ("serbian_latin", "serbian_latin"), ("pidgin", "pidgin")])
def test_names_aliases_and_codes(spelling, name):
    assert languages.resolve(spelling).name == name


def test_pipelines():
    assert [n for n, lang in languages.LANGUAGES.items() if lang.segmenter] == ["burmese", "chinese", "japanese", "thai"]
    assert sorted(n for n, lang in languages.LANGUAGES.items() if lang.stemmer) == [
        "arabic", "bengali", "english", "french", "hindi", "portuguese", "russian", "spanish", "turkish"]


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="lang='klingon' is not one of XL-Sum's 45 languages"):
        RougeScorer("rouge1", lang="klingon")
    with pytest.raises(TypeError, match="lang must be"):
        RougeScorer("rouge1", lang=3)
    with pytest.raises(ValueError, match="lang is not an option of flavor 'rouge_score'"):
        RougeScorer("rouge1", flavor="rouge_score", lang="en")
    with pytest.raises(ValueError, match="remove_stopwords"):
        RougeScorer("rouge1", lang="en", remove_stopwords=True)
    with pytest.raises(ValueError, match="byte_limit"):
        RougeScorer("rouge1", lang="en", byte_limit=10)
    with pytest.raises(ValueError, match="tokenizer cannot be combined"):
        RougeScorer("rouge1", flavor="xlsum", tokenizer=str.split)
    with pytest.raises(ValueError, match="rouge<N>, rougeL and rougeLsum only"):
        RougeScorer("rougeSU4", flavor="xlsum")


def test_missing_segmenter_names_extra_and_language(monkeypatch):
    monkeypatch.setitem(sys.modules, "jieba", None)
    monkeypatch.setattr(segmenters, "_cache", {})
    with pytest.raises(ImportError, match=r"lang='chinese'.*jieba.*rouge_full_metric\[multilingual\]"):
        RougeScorer("rouge1", flavor="xlsum", lang="zh")


# ------------------------------------------------------------------------------- known answers
# (prediction, reference, lang, use_stemmer, rouge1 (P, R), rougeL (P, R)), every number worked out
# by hand from the tokens named in the comment.
CASES = [
    # 北京|今天|下雨|了 vs 今天|北京|下雨: 3 common unigrams; LCS 2
    ("北京今天下雨了。", "今天北京下雨。", "zh", False, (3 / 4, 3 / 3), (2 / 4, 2 / 3)),
    # 東京|で|雨|が|降っ|た vs 東京|は|雨|でし|た: 東京 雨 た, in order
    ("東京で雨が降った。", "東京は雨でした。", "ja", False, (3 / 6, 3 / 5), (3 / 6, 3 / 5)),
    # วันนี้|ฝนตก|ที่|กรุงเทพ vs ฝนตก|ที่|กรุงเทพ|วันนี้: same words, LCS 3
    ("วันนี้ฝนตกที่กรุงเทพ", "ฝนตกที่กรุงเทพวันนี้", "th", False, (1.0, 1.0), (3 / 4, 3 / 4)),
    # stems लड़क|किताब|पढ़|हैं vs लड़क|ने|किताब|पढ़ (हैं has 3 characters: not stemmed)
    ("लड़कियाँ किताबें पढ़ती हैं।", "लड़कियों ने किताब पढ़ी।", "hi", True, (3 / 4, 3 / 4), (3 / 4, 3 / 4)),
    ("लड़कियाँ किताबें पढ़ती हैं।", "लड़कियों ने किताब पढ़ी।", "hi", False, (0.0, 0.0), (0.0, 0.0)),
    # stems তা|গান|গাই|গে vs তা|গান|গে (রা cut; য়েছিল is tried before েয়েছিল -> া)
    ("তারা গান গাইতে গেয়েছিল।", "তারা গান গেয়েছে।", "bn", True, (3 / 4, 3 / 3), (3 / 4, 3 / 3)),
    ("তারা গান গাইতে গেয়েছিল।", "তারা গান গেয়েছে।", "bn", False, (2 / 4, 2 / 3), (2 / 4, 2 / 3)),
    # stems ذهب|معلم|إلى|مدرس vs معلم|ذهب|إلى|مدارس: 3 common; LCS 2
    ("ذهب المعلمون إلى المدرسة.", "المعلم ذهب إلى المدارس.", "ar", True, (3 / 4, 3 / 4), (2 / 4, 2 / 4)),
    # stems красив|книг|лежа|на|стол vs красив|книг|леж|на|стол
    ("Красивые книги лежали на столе.", "Красивая книга лежит на столе.", "ru", True, (4 / 5, 4 / 5), (4 / 5, 4 / 5)),
    # syllables မြန်|မာ|နိုင်|ငံ vs မြန်|မာ|စာ
    ("မြန်မာနိုင်ငံ", "မြန်မာ စာ", "my", False, (2 / 4, 2 / 3), (2 / 4, 2 / 3)),
    # Snowball English: the|runner|were|run|fast vs a|runner|run|fast
    ("The runners were running fast.", "A runner runs fast!", "en", True, (3 / 5, 3 / 4), (3 / 5, 3 / 4)),
]
SEGMENTER_MODULES = {"zh": ["jieba"], "ja": ["fugashi", "unidic_lite"], "th": ["pythainlp"]}


def f1(p, r):
    return 2 * p * r / (p + r) if p + r else 0.0


@pytest.mark.parametrize("prediction, reference, lang, stem, r1, rl", CASES,
                         ids=["%s-%s" % (c[2], "stem" if c[3] else "plain") for c in CASES])
def test_known_answers(prediction, reference, lang, stem, r1, rl):
    needs(*SEGMENTER_MODULES.get(lang, []))
    got = RougeScorer(["rouge1", "rougeL"], flavor="xlsum", lang=lang, use_stemmer=stem).score(prediction, reference)
    for name, (p, r) in (("rouge1", r1), ("rougeL", rl)):
        assert got[name].precision == pytest.approx(p, abs=1e-12)
        assert got[name].recall == pytest.approx(r, abs=1e-12)
        assert got[name].fmeasure == pytest.approx(f1(p, r), abs=1e-12)
    # rouge155 on the same tokens: the Perl's numbers, printed to 5 decimals
    got = RougeScorer(["rouge1", "rougeL"], lang=lang, use_stemmer=stem).score(prediction, reference)
    for name, (p, r) in (("rouge1", r1), ("rougeL", rl)):
        assert got[name].precision == round(p, 5) and got[name].recall == round(r, 5)


def test_the_old_zero():
    default = RougeScorer(["rouge1"]).score("北京今天下雨了。", "今天北京下雨。")["rouge1"]
    assert default.fmeasure == 0.0   # the Perl's tokenizer keeps ASCII letters and digits only
    needs("jieba")
    assert RougeScorer(["rouge1"], lang="zh").score("北京今天下雨了。", "今天北京下雨。")["rouge1"].fmeasure == 0.85714


# --------------------------------------------------------------------------- identical texts
TEXTS = {
    "english": "The runners were running.\nThey ran fast!", "chinese": "北京今天下雨了。\n明天晴。",
    "japanese": "東京で雨が降った。\n明日は晴れ。", "thai": "วันนี้ฝนตกที่กรุงเทพ\nพรุ่งนี้แดดออก",
    "hindi": "लड़कियाँ किताबें पढ़ती हैं।\nवे खुश हैं।", "bengali": "তারা গান গেয়েছিল।\nআমরা শুনেছি।",
    "arabic": "ذهب المعلمون إلى المدرسة.\nكان الجو جميلا.", "russian": "Красивые книги лежали на столе.\nОни новые.",
    "burmese": "မြန်မာနိုင်ငံ\nရန်ကုန်မြို့", "korean": "서울에 비가 왔다.\n내일은 맑음.",
    "amharic": "ሰላም ለዓለም።\nእንደምን ነህ", "turkish": "İstanbul'da yağmur yağdı.\nYarın güneşli.",
    "vietnamese": "Hà Nội hôm nay mưa.\nNgày mai nắng.", "yoruba": "Ẹ kú àárọ̀.\nṢé dáadáa ni?",
}
ALL_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]


@pytest.mark.parametrize("lang", sorted(languages.LANGUAGES))
def test_identical_texts_score_one(lang):
    language = languages.resolve(lang)
    needs(*{"jieba": ["jieba"], "fugashi": ["fugashi", "unidic_lite"], "newmm": ["pythainlp"]}.get(
        language.segmenter, []))
    if language.stemmer == "turkish":
        needs("TurkishStemmer")
    text = TEXTS.get(lang, TEXTS["english"] if language.code in ("", "en") else None)
    if text is None:
        text = TEXTS.get({"gd": "english"}.get(language.code), None) or TEXTS["english"] + " " + TEXTS["hindi"]
    for stem in (False, True):
        for flavor, types in (("xlsum", ALL_TYPES[:4]), ("rouge155", ALL_TYPES), ("paper", ALL_TYPES)):
            scores = RougeScorer(types, flavor=flavor, lang=lang, use_stemmer=stem).score(text, text)
            for name, score in scores.items():
                if flavor == "rouge155" and name.startswith("rougeW"):
                    # the Perl's ROUGE-W of a text with itself is below 1 for several sentences
                    # (its normalizer is weighted twice): equal to the Perl's on pseudo-words
                    want = RougeScorer([name]).score(pseudo(text, lang, stem), pseudo(text, lang, stem))[name]
                    assert score == want, (stem, score, want)
                    continue
                assert tuple(score) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12), (flavor, stem, name, score)


def pseudo(text, lang, stem):
    """The text with each token replaced by an ASCII pseudo-word (lines kept)."""
    scorer = RougeScorer("rouge1", lang=lang, use_stemmer=stem)
    ids = {}
    lines = [scorer._lang_tokenize(line) for line in text.split("\n")]
    return "\n".join(" ".join("t%d" % ids.setdefault(t, len(ids)) for t in line) for line in lines if line)


# -------------------------------------------------------------------------- the Perl's readers
def test_word_limit_counts_tokens():
    assert read_tokens([["a", "b"], ["c", "d", "e"]], 3, True) == (["a", "b", "c"], [["a", "b"], ["c"]])
    assert read_tokens([["a", "b"], ["c"]], 3, True) == (["a", "b", "c"], [["a", "b"], ["c"]])
    assert read_tokens([[], ["a"]], None, True) == (["a"], [["a"]])
    needs("jieba")
    got = RougeScorer(["rouge1"], lang="zh", word_limit=2).score("北京今天下雨了。", "北京今天下雨。")["rouge1"]
    assert tuple(got) == (1.0, 1.0, 1.0)   # 北京|今天 on both sides


def test_signature_records_lang_and_versions():
    needs("jieba")
    sig = RougeScorer("rouge1", lang="chinese_simplified").signature()
    assert "|lang:chinese|pkgs:jieba-" in sig
    assert "lang:none|pkgs:nltk-" in RougeScorer("rouge1", flavor="xlsum", use_stemmer=True).signature()
    assert "lang" not in RougeScorer("rouge1").signature()
