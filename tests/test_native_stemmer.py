"""The compiled core's native token filter (stop words + the ROUGE-1.5.5 stemmer in C) against
the Python one it replaces in flavors ``rouge155`` and ``paper``.

The C stemmer is compared with :mod:`rouge_full_metric.stemmer` on every word of the Perl
goldens and on a seeded fuzz biased to the letters the Porter rules test; the filter is compared
with ``make_token_filter`` token by token and through whole scoring runs (``backend="compiled"``
vs ``"python"``).  Skipped when the extension is not built.
"""
import gzip
import random
from pathlib import Path

import pytest

from rouge_full_metric import RougeScorer, compiled, stemmer
from rouge_full_metric.batch import compiled_scorer
from rouge_full_metric.scoring import PairStats, Score
from rouge_full_metric.tokenization import STOPWORDS, make_token_filter, tokenize

from test_compiled import WORDS, _perturb, _text, assert_same

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason=compiled.unavailable_reason())

GOLDENS = Path(__file__).parent / "data" / "stemmer_goldens.tsv.gz"

FUZZ_SIZE = 200_000
# The letters the rules and their character classes single out, vowels and y weighted up.
TRICKY = "aeiouyslzwxtngdbmc" * 3 + "aeiouy" * 2 + "abcdefghijklmnopqrstuvwxyz" + "0123456789"


@pytest.fixture(scope="module")
def goldens():
    with gzip.open(GOLDENS, "rt", encoding="ascii") as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f]


@pytest.fixture(scope="module")
def engine():
    return compiled_scorer(RougeScorer(["rouge1"], use_stemmer=True)).engine


def _mismatches(pairs):
    bad = [(word, want, got) for word, want, got in pairs if got != want]
    return len(bad), bad[:10]


def test_c_stemmer_matches_perl_goldens(goldens, engine):
    assert len(goldens) > 90_000
    assert _mismatches((w, perl, engine.stem(w)) for w, perl in goldens) == (0, [])
    assert _mismatches((w, stemmer.porter_stem(w), compiled.core.porter_stem(w)) for w, _ in goldens) == (0, [])


def test_c_stemmer_matches_python_on_random_words(engine):
    rng = random.Random(20240611)
    words = ["".join(rng.choice(TRICKY) for _ in range(rng.randint(1, 15))) for _ in range(FUZZ_SIZE)]
    assert _mismatches((w, stemmer.porter_stem(w), compiled.core.porter_stem(w)) for w in words) == (0, [])
    assert _mismatches((w, stemmer.stem(w), engine.stem(w)) for w in words) == (0, [])


def test_c_stemmer_character_classes(engine):
    # Upper case (the Y of an initial y is a consonant; stem() lower-cases, porter_stem does not),
    # and the '-', '_' and "'" of some exception keys: the classes treat every such byte as a
    # consonant, as the regexes do.
    rng = random.Random(7)
    alphabet = TRICKY + "YYAZ-_'"
    words = [rng.choice(["y", "Y", ""]) + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 15)))
             for _ in range(50_000)]
    words += [k for k in stemmer.WORDNET_EXCEPTION_TABLE if k.isascii()]
    words += ["", "y", "ys", "yes", "yyy", "Yyy", "sky", "skies", "eed", "agreed", "feed", "hopping",
              "hoping", "filing", "sses", "ies", "is", "controll", "roll", "a" * 5000 + "ing"]
    assert _mismatches((w, stemmer.porter_stem(w), compiled.core.porter_stem(w)) for w in words) == (0, [])
    assert _mismatches((w, stemmer.stem(w), engine.stem(w)) for w in words) == (0, [])


def test_c_stemmer_rejects_what_it_does_not_handle(engine):
    for word in ["caf\u00e9", "two\nlines", "line\n"]:
        with pytest.raises(ValueError):
            compiled.core.porter_stem(word)
        with pytest.raises(ValueError):
            engine.stem(word)
    with pytest.raises(ValueError, match="no native stemmer"):
        compiled_scorer(RougeScorer(["rouge1"], remove_stopwords=True)).engine.stem("running")


@pytest.mark.parametrize("use_stemmer,remove_stopwords", [(True, False), (False, True), (True, True)])
def test_native_filter_never_calls_python(goldens, use_stemmer, remove_stopwords):
    calls = []

    def fallback(token):
        calls.append(token)
        return token

    reference = make_token_filter(use_stemmer, remove_stopwords)
    native = (use_stemmer, remove_stopwords, STOPWORDS, stemmer.WORDNET_EXCEPTION_TABLE)
    engine = compiled.core.Engine("rouge155", [("rouge1", "N", 1, 1.0, -1, False)], 0, 0, "average", False,
                                  0.5, fallback, Score, PairStats, native)
    worker = engine.worker()
    words = [w for w, _ in goldens[::7]] + sorted(STOPWORDS) + ["0", "12", "1990s", "a1b2", "x" * 300]
    text = " ".join(words)
    assert worker.tokens(text)[0] == reference(tokenize(text))
    assert worker.tokens(text.upper())[0] == reference(tokenize(text))
    assert calls == []


def _engine(exceptions, fallback=None):
    return compiled.core.Engine("rouge155", [("rouge1", "N", 1, 1.0, -1, False)], 0, 0, "average", False, 0.5,
                                fallback or (lambda token: token), Score, PairStats, (True, False, (), exceptions))


def test_the_exception_table_s_text_reads_as_the_dict():
    """The core reads the table's text itself (batch._native_filter passes rouge155_data's str):
    every key and base form stems as with the dict stemmer.py builds, and as stem() does."""
    from rouge_full_metric.rouge155_data import WORDNET_EXCEPTIONS

    from_text, from_dict = _engine(WORDNET_EXCEPTIONS), _engine(stemmer.WORDNET_EXCEPTION_TABLE)
    words = [w for pair in stemmer.WORDNET_EXCEPTION_TABLE.items() for w in pair if w.isascii()]
    assert len(words) > 11_000
    assert _mismatches((w, from_dict.stem(w), from_text.stem(w)) for w in words) == (0, [])
    assert _mismatches((w, stemmer.stem(w), from_text.stem(w)) for w in words) == (0, [])


def test_a_text_table_follows_the_dict_s_rules():
    """A later line wins; a non-ASCII key is left out; another text than rouge155_data's (built
    for its Engine alone, not shared) is read as well; a line without one tab is refused."""
    text = "geese\tgoose\nmice\tmouse\ngeese\tgander\ncaf\u00e9s\tcaf\u00e9\n"
    for engine in (_engine(text), _engine(text[:-1])):
        assert engine.stem("geese") == "gander" and engine.stem("mice") == "mouse"
        assert engine.stem("running") == "run"   # Porter for the rest
    assert _engine("aardwolves\taardwolf\n").stem("mice") == stemmer.porter_stem("mice")
    for bad in ["geese goose\n", "a\tb\tc\n", "a\tb\n\nc\td\n"]:
        with pytest.raises(ValueError, match="one 'inflected<TAB>base' pair per line"):
            _engine(bad)
    with pytest.raises(TypeError, match="must be a dict or its text"):
        _engine([("geese", "goose")])


def test_scorers_share_one_table_built_from_the_text():
    """Engines given rouge155_data's text share the table the first one built (it is read-only),
    and dropping them all leaves it whole."""
    import gc

    from rouge_full_metric import batch

    scorers = [RougeScorer(["rouge1"], use_stemmer=True, word_limit=k) for k in (3, 4, 5)]
    engines = [compiled_scorer(s).engine for s in scorers]
    assert len({id(e) for e in engines}) == 3
    assert batch._native_filter(scorers[0])[3] is batch._native_filter(scorers[1])[3]
    del scorers, engines
    gc.collect()
    assert compiled_scorer(RougeScorer(["rouge1"], use_stemmer=True, word_limit=6)).engine.stem("geese") == "goose"


def _cases(seed, count, vocab):
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        long = rng.random() < 0.05
        ref0 = _text(rng, vocab, long)
        pred = _perturb(rng, ref0, vocab) if rng.random() < 0.6 else _text(rng, vocab, long)
        refs = [ref0] + [_perturb(rng, ref0, vocab) for _ in range(rng.choice([0, 1, 2]))]
        cases.append((pred, refs if len(refs) > 1 or rng.random() < 0.5 else ref0))
    return cases


@pytest.mark.parametrize("flavor", ["rouge155", "paper"])
def test_scores_identical_with_native_filter(goldens, flavor):
    rng = random.Random(3 if flavor == "paper" else 2)
    vocab = [w for w, _ in rng.sample(goldens, 400)] + rng.sample(sorted(STOPWORDS), 100) + WORDS
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]
    total = 0
    for k, (use_stemmer, remove_stopwords) in enumerate([(False, False), (True, False), (False, True), (True, True)]):
        scorer = RougeScorer(types, flavor=flavor, use_stemmer=use_stemmer, remove_stopwords=remove_stopwords,
                             word_limit=rng.choice([None, None, 20]))
        total += assert_same(scorer, _cases(100 * k + len(flavor), 500, vocab))
    assert total == 2000


def test_options_cannot_change_under_the_engines():
    # An option changed after construction would reach one engine and not the other (the
    # compiled engine reads the options, the pure-Python one the token filter built from them):
    # options are read-only (issue 12, R7).
    for name, value in (("use_stemmer", False), ("remove_stopwords", True)):
        scorer = RougeScorer(["rouge1"], use_stemmer=True)
        with pytest.raises(AttributeError, match=name):
            setattr(scorer, name, value)
        assert_same(scorer, [("the cats were running", "a cat runs")])
