"""The compiled port of NLTK's Porter stemmer (csrc/nltk_porter.c, rouge_full_metric.nltk_porter)
against NLTK itself, and the compiled rouge_score engine that stems with it against the
pure-Python engine (NLTK).  tests/check_nltk_porter_versions.py runs the vocabulary comparison
against every NLTK release in nltk_porter.VERIFIED."""
import random
import sys

import pytest

import porter_vocabulary
from rouge_full_metric import RougeScorer, compiled, nltk_porter
from rouge_full_metric.batch import compiled_scorer, score_examples

nltk_stem = pytest.importorskip("nltk.stem.porter").PorterStemmer().stem
needs_core = pytest.mark.skipif(not compiled.AVAILABLE or not getattr(compiled.core, "NLTK_PORTER", False),
                                reason=compiled.unavailable_reason() or "core without nltk_porter_stem")


def _c_stem():
    lowered = nltk_porter._pool_lowercased(nltk_porter.nltk_release())
    return lambda word: compiled.core.nltk_porter_stem(word, pool_lowercased=lowered)


def _differences(words, ours):
    return [(w, ours(w), nltk_stem(w)) for w in words if ours(w) != nltk_stem(w)]


@needs_core
def test_equals_nltk_on_a_large_vocabulary():
    """Real words (a third of the repository's ~120,000), every string of up to 3 letters,
    suffix chains that fire every rule, random English-like words: >= 50,000 words."""
    real = porter_vocabulary.real_words()[::3]
    rng = random.Random(21)
    words = set(real)
    words.update(porter_vocabulary.exhaustive_words(3))
    words.update(porter_vocabulary.suffixed_words(15000, [w for w in real if w.isalpha()], rng))
    words.update(porter_vocabulary.random_word(rng) for _ in range(10000))
    words = sorted(words)
    assert len(words) >= 50000
    assert _differences(words, _c_stem()) == []


@needs_core
def test_every_special_case():
    """The irregular forms, the 4-letter ies/ied words, the two-letter cvc, alli then step 2
    again, logi, the y rules, NLTK's literal "*d" rule."""
    words = ["sky", "skies", "dying", "lying", "tying", "news", "innings", "inning", "outings", "outing",
             "cannings", "canning", "howe", "proceed", "exceed", "succeed", "dies", "ties", "flies", "died",
             "tied", "spied", "agreed", "feed", "bleed", "hopping", "falling", "hissing", "fizzed", "failing",
             "filing", "oping", "happy", "enjoy", "spy", "yyyy", "ayyy", "byyy", "rationalli", "radicalli",
             "geology", "theology", "archaeology", "hopefulli", "vietnamization", "relational", "conditional",
             "triplicate", "electrical", "adoption", "replacement", "adjustment", "dependent", "controlling",
             "rolling", "probate", "rate", "cease", "x*ded", "a*ding", "*d", "", "a", "ab", "abc", "ed", "ing"]
    words += [c + "ies" for c in "abcdefghijklmnopqrstuvwxyz"] + [c + "ied" for c in "abcdefghijklmnopqrstuvwxyz"]
    assert _differences(words, _c_stem()) == []


@needs_core
def test_fuzz_any_str():
    """Any str gives NLTK's answer: capitals (the pool's lookup rule is the release's), non-ASCII
    letters whose lower() changes the length, punctuation, NUL, surrogates."""
    rng = random.Random(7)
    alphabet = "aeiouyAEIOUYbcdlmnrstzBLSZ*-'. \x00\n\u0130\u212a\u00df\u00e9\u0131\ud800\U0001f600ies"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(20000)]
    words += [bytes(rng.randrange(256) for _ in range(rng.randint(0, 12))).decode("latin-1") for _ in range(5000)]
    words += ["News", "NEWS", "Dying", "SKIES", "Proceed"]
    assert _differences(words, _c_stem()) == []
    assert _differences(words, nltk_porter.stemmer()) == []
    with pytest.raises(TypeError):
        compiled.core.nltk_porter_stem(b"runs")

    class Odd(str):
        def lower(self):
            return 5

    with pytest.raises(TypeError, match="lower"):
        compiled.core.nltk_porter_stem(Odd("runs"))


@needs_core
def test_long_runs_of_y():
    """Linear in C; NLTK >= 3.10 walks back iteratively too (older releases recurse)."""
    ours = _c_stem()
    # ing goes (the y before it is a vowel), then the last y (after a consonant y) becomes i
    assert ours("y" * 200000 + "ing") == "y" * 199999 + "i"
    if nltk_porter._pool_lowercased(nltk_porter.nltk_release()):
        words = ["y" * k + s for k in (63, 64, 65, 3000) for s in ("", "s", "ing", "ed", "b", "aby")]
        assert _differences(words, ours) == []


TEXTS = [
    "The Runners' 3.5-mile RUNS were generalizations of relational conditionalli activities.",
    "Dying skies, lying news: innings and outings proceed, exceed, succeed; flies died, spied.",
    "yyyy " + "y" * 70 + "ing " + "a" + "y" * 80 + "s happily hopping",
    "İstanbul's Kelvin Kilns KILNED 1980s mp3s hopefulli geology",
]


def _fresh_words(n, seed):
    rng = random.Random(seed)
    return [" ".join(porter_vocabulary.random_word(rng, 12) if rng.random() < 0.5 else
                     porter_vocabulary.suffixed_words(1, ["gener", "relat", "condit", "hop", "fli"], rng)[0]
                     for _ in range(rng.randint(0, 40))) for _ in range(n)]


@needs_core
@pytest.mark.parametrize("types", [["rouge1", "rouge2", "rougeL", "rougeLsum"], ["rouge3"]])
def test_compiled_engine_equals_python_engine(types):
    """The compiled engine (NLTK's Porter in C) scores as the pure-Python engine (NLTK) does."""
    preds = TEXTS + _fresh_words(300, 1)
    refs = TEXTS[::-1] + [[a, b] for a, b in zip(_fresh_words(300, 2), _fresh_words(300, 3))]
    scorer = RougeScorer(types, flavor="rouge_score", use_stemmer=True)
    assert compiled_scorer(scorer) is not None
    compiled_result = score_examples(scorer, preds, refs, backend="compiled")
    python_result = score_examples(RougeScorer(types, flavor="rouge_score", use_stemmer=True), preds, refs,
                                   backend="python")
    assert compiled_result == python_result
    # two threads, each Worker stemming into its own buffers
    threaded = score_examples(RougeScorer(types, flavor="rouge_score", use_stemmer=True), preds, refs, n_jobs=2,
                              backend="compiled")
    assert threaded == python_result


@needs_core
def test_engine_stems_without_python():
    """A verified NLTK: the engine never calls rouge_score's Python tokenizer for [a-z0-9] tokens
    (its memo stays empty) except for tokens with a long run of y (NLTK < 3.10 recurses there)."""
    assert nltk_porter.native_available()
    scorer = RougeScorer(["rouge1"], flavor="rouge_score", use_stemmer=True)
    score_examples(scorer, ["generalizations of running dogs " * 3], ["relational runners"], backend="compiled")
    assert scorer._rs_tokenize.cache_size() == 0
    score_examples(scorer, ["runs " + "y" * 70], ["y" * 70], backend="compiled")
    assert scorer._rs_tokenize.cache_size() == 1


@needs_core
def test_unverified_release_falls_back_to_nltk(monkeypatch):
    monkeypatch.setattr(nltk_porter, "_release_cache", ["99.0"])
    assert not nltk_porter.native_available()
    scorer = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score", use_stemmer=True)
    fallback = score_examples(scorer, TEXTS, TEXTS[::-1], backend="compiled")
    assert scorer._rs_tokenize.cache_size() > 0
    monkeypatch.setattr(nltk_porter, "_release_cache", [])
    native = score_examples(RougeScorer(["rouge1", "rougeL"], flavor="rouge_score", use_stemmer=True), TEXTS,
                            TEXTS[::-1], backend="compiled")
    assert fallback == native


def test_stemmer_without_core_is_nltk(monkeypatch):
    monkeypatch.setattr(nltk_porter, "native_available", lambda: False)
    stem = nltk_porter.stemmer()
    assert stem.__self__.__class__.__name__ == "PorterStemmer"
    assert stem("generalizations") == "gener"


@needs_core
def test_xlsum_flavor_stems_ascii_tokens_in_c(monkeypatch):
    """Flavor xlsum without lang stems with NLTK's Porter too: the core does it for [a-z0-9]
    tokens (the Python stemmer sees the others), with the Python engine's results."""
    from rouge_full_metric import multilingual_stemmers

    seen = []
    porter = multilingual_stemmers.get("porter", "None")

    def counting(token):
        seen.append(token)
        return porter(token)

    monkeypatch.setitem(multilingual_stemmers._cache, "porter", counting)
    texts = TEXTS + ["Générations über naïve runners, żółwie 2024ers"] + _fresh_words(100, 4)
    scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"], flavor="xlsum", use_stemmer=True)
    compiled_result = score_examples(scorer, texts, texts[::-1], backend="compiled")
    # only non-ASCII tokens, and those with a long run of y (see test_engine_stems_without_python)
    native = [t for t in seen if t.isascii() and t.isalnum() and t.islower() and "y" * 64 not in t]
    assert seen and not native, native[:5]
    python_result = score_examples(RougeScorer(["rouge1", "rougeL", "rougeLsum"], flavor="xlsum", use_stemmer=True),
                                   texts, texts[::-1], backend="python")
    assert compiled_result == python_result


def test_release_read_from_the_path_is_importlib_metadatas():
    """nltk_release() reads NLTK's metadata directory itself (importlib.metadata's imports cost a
    short script ~20 ms); where it finds one, it must give importlib.metadata's answer."""
    from importlib import metadata

    found, version = nltk_porter._release_on_path()
    try:
        expected = metadata.version("nltk")
    except metadata.PackageNotFoundError:
        expected = None
    if found:
        assert version == expected
    assert nltk_porter.nltk_release() == expected


@pytest.mark.parametrize("layout, expected", [
    ({"nltk-3.9.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: nltk\nVersion: 3.9.1\n\nVersion: 0\n"},
     (True, "3.9.1")),
    ({"NLTK-3.8.egg-info/PKG-INFO": "Metadata-Version: 1.1\nName: nltk\nVersion: 3.8\n"}, (True, "3.8")),
    ({"nltk-3.9.1.dist-info/METADATA": "Version: 3.9.1\n", "nltk-3.8.dist-info/METADATA": "Version: 3.8\n"},
     (False, None)),
    ({"nltk-3.9.1.dist-info/METADATA": "Name: nltk\n\nVersion: 3.9.1\n"}, (False, None)),
    ({"nltk_contrib-1.0.dist-info/METADATA": "Version: 1.0\n", "nltk-3.7.dist-info/METADATA": "Version: 3.7\n"},
     (True, "3.7")),
])
def test_release_on_path_layouts(tmp_path, monkeypatch, layout, expected):
    for rel, text in layout.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(tmp_path)] + sys.path)
    assert nltk_porter._release_on_path() == expected


def test_release_on_path_defers_to_importlib_metadata_for_a_zip(tmp_path, monkeypatch):
    archive = tmp_path / "packages.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    monkeypatch.setattr(sys, "path", [str(archive)] + sys.path)
    assert nltk_porter._release_on_path() == (False, None)
