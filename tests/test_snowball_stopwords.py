"""The stop-word lists shipped for Snowball's ``ignore_stopwords`` (rouge_full_metric.snowball_stopwords).

- the lists equal their sources where those are installed: PostgreSQL's Snowball ``*.stop`` files
  (Debian postgresql-NN) and the lists in Spark's ``spark-mllib`` jar (pyspark);
- flavor "xlsum" with ``use_stemmer=True`` equals XL-Sum's scorer (multilingual-rouge 0.0.1) whose
  NLTK reads the shipped lists as its ``stopwords`` corpus, on generated pairs seeded with stop words
  that Snowball would change -- and the same comparison fails when our side drops the lists;
- known answers: stop words stay unstemmed in every shipped language, offline, whatever is installed.
"""
import glob
import importlib.util
import os
import random
import sys
import warnings
import zipfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shipped_stopwords  # noqa: E402
from anchor_compare import compare  # noqa: E402
import xlsum_texts  # noqa: E402

from rouge_full_metric import RougeScorer, multilingual_stemmers, snowball_stopwords  # noqa: E402

PAIRS_PER_LANGUAGE = int(os.environ.get("SNOWBALL_STOPWORDS_PAIRS", "500"))
SHIPPED = list(snowball_stopwords.LANGUAGES)


def test_the_shipped_languages_are_the_xlsum_snowball_languages_but_arabic():
    from rouge_full_metric import languages

    snowball = sorted(lang.name for lang in languages.LANGUAGES.values()
                      if lang.stemmer in multilingual_stemmers.SNOWBALL)
    assert snowball == ["arabic", "english", "french", "portuguese", "russian", "spanish"]
    assert sorted(SHIPPED) == [name for name in snowball if name != "arabic"]


@pytest.mark.parametrize("language", SHIPPED)
def test_lists_match_their_check_values_and_counts(language):
    listed = snowball_stopwords.word_list(language)
    assert len(set(listed)) == len(listed)
    assert snowball_stopwords.checksum(listed) == snowball_stopwords.SHA256[language]
    counts = {"english": 198, "french": 157, "portuguese": 207, "russian": 151, "spanish": 313}
    assert len(listed) == counts[language]
    assert snowball_stopwords.words(language) == frozenset(listed)


def test_nltks_changes_to_the_postgresql_lists():
    """What NLTK's current corpus changes (the differences from the PostgreSQL lists), word by word."""
    def changed(language):
        base, listed = set(snowball_stopwords.POSTGRESQL[language].split()), set(snowball_stopwords.word_list(language))
        return sorted(listed - base), sorted(base - listed)

    assert changed("french") == (["ils", "les"], [])
    assert changed("portuguese") == (["estar", "haver", "ser", "é"], [])
    assert changed("russian") == ([], [])
    assert changed("spanish") == (["vosotras", "vosotros"], ["vosostras", "vosostros"])
    added, removed = changed("english")
    assert removed == [] and len(added) == 52 + 19 and {"doesn", "mightn", "they've", "i'm"} <= set(added)


# ----------------------------------------------------------------------------------- the sources
def _lines(text):
    return [line for line in text.split("\n") if line]


@pytest.mark.parametrize("language", SHIPPED)
def test_postgresql_part_equals_postgresqls_snowball_file(language):
    files = sorted(glob.glob("/usr/share/postgresql/*/tsearch_data/%s.stop" % language))
    if not files:
        pytest.skip("PostgreSQL's tsearch_data (Debian postgresql-NN) is not installed")
    for path in files:
        with open(path, encoding="utf-8") as handle:
            assert _lines(handle.read()) == snowball_stopwords.POSTGRESQL[language].split(), path


def _spark_lists():
    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("pyspark is not installed")
    jars = [jar for location in spec.submodule_search_locations
            for jar in glob.glob(os.path.join(location, "jars", "spark-mllib_*.jar"))]
    if not jars:
        pytest.skip("pyspark has no spark-mllib jar")
    with zipfile.ZipFile(jars[0]) as jar:
        prefix = "org/apache/spark/ml/feature/stopwords/"
        readme = jar.read(prefix + "README").decode("utf-8")
        lists = {language: _lines(jar.read(prefix + language + ".txt").decode("utf-8"))
                 for language in SHIPPED}
    return readme, lists


def test_spark_jar_holds_the_same_lists():
    readme, spark = _spark_lists()
    assert "snowball/stopwords" in readme      # Spark's copy of NLTK's corpus README
    for language in ("portuguese", "russian", "spanish"):
        assert spark[language] == snowball_stopwords.POSTGRESQL[language].split(), language
    # French: the PostgreSQL list with "les" inserted after "le" (NLTK's also has "ils" after "il")
    assert sorted(spark["french"]) == sorted(set(snowball_stopwords.word_list("french")) - {"ils"})
    # Spark's English list is its own (181 words): every PostgreSQL word, not NLTK's additions
    assert set(snowball_stopwords.POSTGRESQL["english"].split()) <= set(spark["english"])
    assert len(spark["english"]) == 181


# ------------------------------------------------------------------------- against the anchor
@pytest.fixture
def anchor_with_shipped_lists(tmp_path, monkeypatch):
    pytest.importorskip("multilingual_rouge.rouge_scorer")
    shipped_stopwords.point_nltk_at(shipped_stopwords.write_nltk_data(tmp_path), monkeypatch)


def _sensitive(language):
    """(stop word, its plain Snowball stem) for the stop words longer than 3 characters that Snowball
    changes when it is not told they are stop words, keeping those whose stem survives the stemmer
    unchanged: a text with the stop word and one with the stem match only when the list is missing."""
    from nltk.stem.snowball import SnowballStemmer

    stem = SnowballStemmer(language).stem
    stops = snowball_stopwords.words(language)
    out = []
    for word in snowball_stopwords.word_list(language):
        plain = stem(word) if len(word) > 3 else word
        if plain != word and (plain in stops or len(plain) <= 3 or stem(plain) == plain):
            out.append((word, plain))
    return out


def seeded_pairs(language, count, seed):
    """xlsum_texts pairs with stop words inserted (some capitalised): a stop word on one side and its
    plain stem on the other, plus stop words anywhere."""
    rng = random.Random("stopwords/%s/%d" % (language, seed))
    sensitive = _sensitive(language)
    everyday = [w for w in snowball_stopwords.word_list(language) if "'" not in w]
    out = []
    for prediction, reference in xlsum_texts.pairs(language, count, seed=seed):
        sides = [prediction.split(" "), reference.split(" ")]
        for _ in range(rng.randint(1, 3)):
            word, plain = rng.choice(sensitive)
            first = rng.randint(0, 1)
            for side, token in ((sides[first], word), (sides[1 - first], rng.choice([plain, word]))):
                side.insert(rng.randint(0, len(side)), token.capitalize() if rng.random() < 0.2 else token)
        for side in sides:
            for _ in range(rng.randint(0, 3)):
                side.insert(rng.randint(0, len(side)), rng.choice(everyday))
        out.append((" ".join(sides[0]), " ".join(sides[1])))
    return out



@pytest.mark.parametrize("language", SHIPPED)
def test_xlsum_stemmed_equals_the_anchor_reading_the_shipped_lists(language, anchor_with_shipped_lists):
    pairs = seeded_pairs(language, PAIRS_PER_LANGUAGE, seed=7)
    equal, first = compare(language, True, pairs)
    assert equal == len(pairs), first


@pytest.mark.parametrize("language", SHIPPED)
def test_the_comparison_fails_when_our_side_drops_the_list(language, anchor_with_shipped_lists, monkeypatch):
    monkeypatch.setattr(multilingual_stemmers, "_stopwords", lambda lang: None)
    monkeypatch.setattr(multilingual_stemmers, "_cache", {})
    pairs = seeded_pairs(language, 40, seed=8)
    equal, _ = compare(language, True, pairs)
    assert equal < len(pairs) // 2
    monkeypatch.setattr(multilingual_stemmers, "_cache", {})


# ---------------------------------------------------------------------------- known answers
KNOWN = {   # (a stop word Snowball would change, what Snowball makes of it, a word that is stemmed)
    "english": ("having", "have", ("running", "run")),
    "french": ("étaient", "étaient", ("nationales", "national")),
    "portuguese": ("haver", "hav", ("correndo", "corr")),
    "russian": ("теперь", "тепер", ("книгами", "книг")),
    "spanish": ("vosotros", "vosotr", ("corriendo", "corr")),
}


@pytest.mark.parametrize("language", SHIPPED)
def test_stop_words_stay_unstemmed(language, monkeypatch):
    from nltk.stem.snowball import SnowballStemmer

    stop, plain_stem, (word, stem) = KNOWN[language]
    assert stop in snowball_stopwords.words(language)
    if language != "french":       # "étaient" is one of the words Snowball's French rules keep
        assert SnowballStemmer(language).stem(stop) == plain_stem != stop
    monkeypatch.setattr(multilingual_stemmers, "_cache", {})
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no StopwordsMissingWarning: the list is shipped
        stemmer = multilingual_stemmers.get(language, language)
    assert (stemmer(stop), stemmer(word)) == (stop, stem)
    assert multilingual_stemmers.versions(language).endswith("+" + snowball_stopwords.VERSION)
    scorer = RougeScorer(["rouge1"], flavor="xlsum", lang=language, use_stemmer=True)
    # the stop word is not reduced to its stem, so it does not match the stem's own spelling
    if plain_stem != stop:
        assert scorer.score(stop + " " + word, plain_stem + " " + stem)["rouge1"].fmeasure == 0.5
    assert scorer.score(stop.upper() + " " + word, stop + " " + stem)["rouge1"].fmeasure == 1.0
    monkeypatch.setattr(multilingual_stemmers, "_cache", {})


def test_signature_records_the_stopword_data_version():
    scorer = RougeScorer(["rouge1"], flavor="xlsum", lang="es", use_stemmer=True)
    assert snowball_stopwords.VERSION in scorer.signature(1, 1)
