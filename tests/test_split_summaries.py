"""RougeScorer(split_summaries=True): rouge_score's (and rouge-score-rs's) nltk.sent_tokenize before
rougeLsum, in flavor rouge_score, on the compiled engines and the pure-Python one.

NLTK's trained punkt model is a download, which neither this machine nor CI has: the tests put
NLTK's untrained ``PunktSentenceTokenizer`` (abbreviations given, no data needed) in the place of
``nltk.sent_tokenize``, where rouge_score, rouge-score-rs and this package all look it up."""
import copy
import pickle
import random

import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric.batch import compiled_scorer, score_examples

nltk = pytest.importorskip("nltk")
rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# sentence ends punkt must judge: abbreviations, initials, numbers, ellipses, quotes, brackets
WORDS = ("the a of police killed gunman running runs Runner's İstanbul café 3.5 U.S. Mr. Dr. J. "
         "e.g. etc. state-of-the-art caresses ponies agreed -- ... ( ) \" ' 中文").split()
ENDS = [".", ".", ".", "!", "?", "...", ".\"", ".)", "", "?!"]


@pytest.fixture
def punkt(monkeypatch):
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    params = PunktParameters()
    params.abbrev_types = {"mr", "dr", "e.g", "etc", "u.s"}
    monkeypatch.setattr(nltk, "sent_tokenize", PunktSentenceTokenizer(params).tokenize)


def _sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 10))]
    if words and rng.random() < 0.8:
        words[0] = words[0].capitalize()
    # a line break inside a sentence (rouge_score's split keeps it in the sentence)
    glue = "\n" if rng.random() < 0.15 else " "
    return glue.join(words) + rng.choice(ENDS)


def _text(rng):
    seps = [" ", " ", "  ", "\n", "\n\n", " \n"]
    text = "".join(_sentence(rng) + rng.choice(seps) for _ in range(rng.randint(1, 5)))
    return text if rng.random() < 0.7 else "  " + text.strip()


def _cases(seed, count):
    rng = random.Random(seed)
    return [(_text(rng), [_text(rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]) for _ in range(count)]


def _theirs(scorer, pred, refs):
    return scorer.score_multi(refs, pred) if len(refs) > 1 else scorer.score(refs[0], pred)


def _same(a, b):
    return {k: tuple(v) for k, v in a.items()} == {k: tuple(v) for k, v in b.items()}


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")  # CJK on purpose
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_identical_with_rouge_score(punkt, use_stemmer):
    rng = random.Random(5 + use_stemmer)
    checked = split_mattered = 0
    for k in range(12):
        types = rng.sample(TYPES, rng.randint(1, 4))
        if "rougeLsum" not in types:
            types.append("rougeLsum")
        rng.shuffle(types)
        theirs = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer, split_summaries=True)
        lines = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
        ours = RougeScorer(types, flavor="rouge_score", use_stemmer=use_stemmer, split_summaries=True)
        cases = _cases(100 * k + use_stemmer, 100)
        for pred, refs in cases:
            want = _theirs(theirs, pred, refs)
            assert _same(ours.score(pred, refs), want), (types, pred, refs)
            split_mattered += not _same(_theirs(lines, pred, refs), want)
        batch = ours.score_batch([p for p, _ in cases], [r for _, r in cases])
        assert all(_same(got, _theirs(theirs, p, r)) for got, (p, r) in zip(batch, cases))
        checked += len(cases)
    assert checked == 1200
    assert split_mattered > 300   # the split changes rougeLsum in a good share of the cases


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")
def test_compiled_identical_to_python_and_threads(punkt):
    rng = random.Random(11)
    cases = _cases(11, 300)
    preds, refs = [p for p, _ in cases], [r for _, r in cases]
    for k in range(6):
        types = rng.sample(TYPES, rng.randint(1, 4)) + ["rougeLsum"]
        scorer = RougeScorer(types, flavor="rouge_score", use_stemmer=rng.random() < 0.5, split_summaries=True,
                             multi_ref=rng.choice([None, "average", "best"]), jackknife=rng.random() < 0.3,
                             alpha=rng.choice([0.5, 0.2]))
        py = score_examples(scorer, preds, refs, backend="python")
        if compiled.AVAILABLE:
            assert compiled_scorer(scorer) is not None
            for n_jobs in (1, 2):
                got = score_examples(scorer, preds, refs, n_jobs=n_jobs, backend="compiled")
                assert repr(got) == repr(py), scorer


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")
def test_custom_tokenizer_identical_with_rouge_score(punkt):
    class Split:
        def tokenize(self, text):
            return text.replace(".", " . ").split()

    theirs = rouge_scorer.RougeScorer(["rougeLsum", "rouge1"], split_summaries=True, tokenizer=Split())
    ours = RougeScorer(["rougeLsum", "rouge1"], flavor="rouge_score", split_summaries=True, tokenizer=Split())
    cases = _cases(21, 300)
    for pred, refs in cases:
        assert _same(ours.score(pred, refs), _theirs(theirs, pred, refs)), (pred, refs)
    py = score_examples(ours, [p for p, _ in cases], [r for _, r in cases], backend="python")
    assert repr(score_examples(ours, [p for p, _ in cases], [r for _, r in cases])) == repr(py)


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")
def test_identical_with_rouge_score_rs(punkt):
    rs = pytest.importorskip("rouge_score_rs.rouge_scorer")
    theirs = rs.RougeScorer(TYPES, use_stemmer=True, split_summaries=True)
    ours = RougeScorer(TYPES, flavor="rouge_score", use_stemmer=True, split_summaries=True)
    for pred, refs in _cases(31, 300):
        assert _same(ours.score(pred, refs[0]), theirs.score(refs[0], pred)), (pred, refs)


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")
def test_matrix_is_score_of_each_pair(punkt):
    texts = [p for p, _ in _cases(41, 25)]
    for tokenizer in (None, str.split):
        scorer = RougeScorer(["rougeLsum"], flavor="rouge_score", split_summaries=True, tokenizer=tokenizer)
        matrix = scorer.score_matrix(texts, measure="fmeasure")
        for i in range(len(texts)):
            for j in range(len(texts)):
                assert matrix[i][j] == scorer.score(texts[i], texts[j])["rougeLsum"].fmeasure


def test_missing_punkt_model_fails_at_construction_with_the_install_line(monkeypatch):
    def missing(text, language="english"):
        raise LookupError("Resource punkt_tab not found.")

    monkeypatch.setattr(nltk, "sent_tokenize", missing)
    with pytest.raises(LookupError, match=r"split_summaries=True .*`python -m nltk.downloader punkt_tab`"):
        RougeScorer(["rouge1", "rougeLsum"], flavor="rouge_score", split_summaries=True)
    # without rougeLsum the option changes nothing and needs nothing (as in rouge_score)
    scorer = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score", split_summaries=True)
    assert scorer.score("a b. c", "a b. c")["rouge1"].fmeasure == 1.0


@pytest.mark.parametrize("flavor", ["rouge155", "paper", "matlab", "xlsum"])
def test_other_flavors_refuse_it(flavor):
    with pytest.raises(ValueError, match="split_summaries is an option of flavor 'rouge_score'.*%s" % flavor):
        RougeScorer(["rougeLsum"], flavor=flavor, split_summaries=True)
    assert not RougeScorer(["rougeLsum"], flavor=flavor, split_summaries=False).split_summaries


def test_must_be_a_bool():
    with pytest.raises(TypeError, match="split_summaries must be True or False, got 'yes'"):
        RougeScorer(["rougeLsum"], flavor="rouge_score", split_summaries="yes")


def test_travels_with_the_scorer_and_shows_in_its_signature(punkt):
    scorer = RougeScorer(["rougeLsum"], flavor="rouge_score", split_summaries=True)
    assert "|split:nltk|" in scorer.signature()
    assert "split:" not in RougeScorer(["rougeLsum"], flavor="rouge_score").signature()
    pred, ref = "A dog ran the cat sat", "The cat sat. A dog ran."
    want = scorer.score(pred, ref)
    assert want["rougeLsum"].fmeasure == 1.0
    assert RougeScorer(["rougeLsum"], flavor="rouge_score").score(pred, ref)["rougeLsum"].fmeasure < 1.0
    dill = pytest.importorskip("dill")
    for other in (pickle.loads(pickle.dumps(scorer)), copy.deepcopy(scorer), dill.loads(dill.dumps(scorer))):
        assert other.split_summaries and other.score(pred, ref) == want
    # the state of a scorer without it is the state from before the option came, and reads back
    state = RougeScorer(["rougeLsum"], flavor="rouge_score").__getstate__()
    assert "split_summaries" not in state
    old = RougeScorer.__new__(RougeScorer)
    old.__setstate__(state)
    assert old.split_summaries is False
