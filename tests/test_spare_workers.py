"""Parked Workers (csrc/engine.c): a dropped scorer's Worker memory serves the next scorer's
Workers, its token cache emptied.  Whatever the previous scorer was (flavor, types, stemming,
vocabulary), the next one's scores must be those it gets with fresh memory."""
import gc
import random

import pytest

from rouge_full_metric import RougeScorer, compiled, shared_scorers
from rouge_full_metric.batch import compiled_scorer

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="compiled core not built")

WORDS = ["alpha", "beta", "gamma", "delta", "running", "runs", "ran", "the", "of", "and", "x1",
         "Kelvin", "caf\u00e9", "na\u00efve", "data-set", "U.S.", "it's", "1999", "a", "an"]

# (flavor, types, options): every Engine part a parked Worker must not carry over (types and
# their per-type arrays, the stemmer's and stop words' ids, the tokenizers)
CONFIGS = [
    ("rouge155", ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"], {"use_stemmer": True}),
    ("rouge155", ["rouge1", "rouge2"], {"remove_stopwords": True}),
    ("rouge_score", ["rouge1", "rouge2", "rougeL", "rougeLsum"], {}),
    ("rouge_score", ["rouge1", "rougeLsum"], {"use_stemmer": True}),
    ("xlsum", ["rouge1", "rouge2", "rougeL"], {}),
    ("paper", ["rouge1", "rougeL", "rougeS*"], {}),
]


def texts(seed, n, vocab):
    rng = random.Random(seed)
    words = WORDS + ["w%d" % k for k in range(vocab)]

    def text():
        return "\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
                         for _ in range(rng.randint(1, 4)))
    return [text() for _ in range(n)], [text() for _ in range(n)]


def scores(config, preds, refs, n_jobs=1):
    flavor, types, options = config
    return RougeScorer(types, flavor=flavor, **options).score_batch(preds, refs, n_jobs=n_jobs)


@pytest.fixture
def spare():
    old = compiled.core._spare_workers(2)
    yield
    compiled.core._spare_workers(old)


@pytest.fixture(autouse=True)
def nothing_shared(monkeypatch):
    """A dropped scorer's Workers park here only when no record of its options keeps them for
    the next scorer of the same options (tests/test_shared_scorers.py)."""
    shared_scorers.clear()
    monkeypatch.setattr(shared_scorers, "MAX_RECORDS", 0)
    yield
    shared_scorers.clear()


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c[0] + "-" + "-".join(c[1][:2]) + "-" + ",".join(c[2]))
def test_scores_after_any_parked_worker_equal_fresh_memory(config, spare):
    preds, refs = texts(1, 300, 400)
    compiled.core._spare_workers(0)
    expected = scores(config, preds, refs)
    compiled.core._spare_workers(2)
    for k, previous in enumerate(CONFIGS):
        # another vocabulary first (other ids for the same words), dropped: its Workers park.  A
        # large one (its interner's table past 2 MB: a front cache) has its whole front cache
        # cleared, a small one after it (in the same Workers, fewer tokens than a sixteenth of
        # the front cache's slots) only its tokens' slots.
        for size, pairs in ((20000, 800), (30, 5)):
            scores(previous, *texts(100 + k, pairs, size), n_jobs=2)
            gc.collect()
            assert scores(config, preds, refs) == expected, (previous, size)
            assert scores(config, preds, refs, n_jobs=2) == expected, (previous, size)


def test_a_worker_makes_its_front_cache_once_its_vocabulary_is_large(spare):
    """Every way a Worker tokenizes (scores, a pairwise corpus, the tokens of one text) makes the
    front cache once the interner's table reaches 2 MB (over 8,192 distinct tokens), at the next
    text: never for a few pairs, whose tokens the small table serves (a new process's first
    score() made its 384 KB before, ~0.27 ms).  A parked Worker keeps its memory."""
    compiled.core._spare_workers(0)
    engine = compiled_scorer(RougeScorer(["rouge1"], flavor="rouge_score")).engine
    scored, listed, corpus = engine.worker(), engine.worker(), engine.worker()
    assert scored.front_cache_bytes() == listed.front_cache_bytes() == corpus.front_cache_bytes() == 0
    assert scored.run(["a b"], ["a c"], 0, 1, False)[0][0]["rouge1"].fmeasure == 0.5
    assert listed.tokens("a b")[0] == ["a", "b"]
    compiled.core.pair_corpus(corpus, ["a b"], None)
    assert scored.front_cache_bytes() == listed.front_cache_bytes() == corpus.front_cache_bytes() == 0
    large = " ".join("w%d" % k for k in range(9000))
    scored.run([large, "a b"], ["a c", "a c"], 0, 2, False)
    listed.tokens(large)
    listed.tokens("a b")
    compiled.core.pair_corpus(corpus, [large, "a b"], None)
    assert min(w.vocabulary_size() for w in (scored, listed, corpus)) > 8192
    size = scored.front_cache_bytes()
    assert size > 0 and listed.front_cache_bytes() == corpus.front_cache_bytes() == size
    compiled.core._spare_workers(2)
    del scored
    assert engine.worker().front_cache_bytes() == size


def test_spare_workers_argument(spare):
    with pytest.raises(ValueError, match="n: 0-8"):
        compiled.core._spare_workers(9)
    with pytest.raises(ValueError, match="n: 0-8"):
        compiled.core._spare_workers(-1)
    assert compiled.core._spare_workers(1) == 2
    assert compiled.core._spare_workers(0) == 1
