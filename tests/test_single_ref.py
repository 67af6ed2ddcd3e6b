"""One reference, rouge1 / rouge2 / rougeL / rougeLsum: the compiled core scores such an example in
one pass over the reference (csrc/single_ref.c) when the prediction has at most 128 tokens and its
sentences pack into two words of lanes.  That path must give the general path's numbers and the
pure-Python engine's, bit for bit, on every mix of those types and around each of its limits
(64 / 128 tokens, 64 / 128 lane bits with a guard between sentences), and must serve the cases
it claims: the counter behind ``_single_ref_hook`` says how many examples it scored."""
import random

import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric.batch import score_examples
from test_compiled import assert_same

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="compiled core not built")

SET = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
MIXES = [[t for k, t in enumerate(SET) if mask >> k & 1] for mask in range(1, 16)]
SHARED = ["a", "b", "c", "d", "e", "f"]
WIDE = ["w%d" % k for k in range(60)]
OTHER = ["x%d" % k for k in range(30)]   # never in the prediction


@pytest.fixture(params=[1, 0], ids=["single_ref", "general"])
def path(request):
    old, _ = compiled.core._single_ref_hook(request.param)
    yield request.param
    compiled.core._single_ref_hook(old)


def _served():
    return compiled.core._single_ref_hook(-1)[1]


def _lengths(rng):
    """Sentence lengths of a prediction: around one and two words of lanes, or of LCS columns."""
    r = rng.random()
    if r < 0.45:
        k = rng.randint(1, 6)
        bits = rng.choice([62, 63, 64, 65, 66, 126, 127, 128, 129, 130])
        total = bits - (k - 1)
        cuts = sorted(rng.sample(range(1, total), k - 1)) if k > 1 and total > k else []
        return [b - a for a, b in zip([0] + cuts, cuts + [total])]
    if r < 0.6:   # one long sentence: 64 / 128 tokens of LCS columns
        return [rng.choice([63, 64, 65, 100, 127, 128, 129])]
    if r < 0.7:
        return [rng.choice([0, 1, 2])]
    return [rng.randint(0, 30) for _ in range(rng.randint(1, 6))]


def _case(rng):
    vocab = rng.choice([SHARED, WIDE, SHARED + WIDE])
    lines = [" ".join(rng.choice(vocab) for _ in range(n)) for n in _lengths(rng)]
    for _ in range(rng.choice([0, 0, 1, 2])):
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", " ", "--"]))
    pred = "\n".join(lines)
    refvocab = rng.choice([vocab, vocab, OTHER, vocab + OTHER])
    ref_lines = [" ".join(rng.choice(refvocab) for _ in range(rng.choice([0, rng.randint(1, 30), rng.randint(1, 90)])))
                 for _ in range(rng.randint(1, 5))]
    if rng.random() < 0.3:   # a reference sentence that repeats one of the prediction's
        ref_lines.insert(rng.randrange(len(ref_lines) + 1), rng.choice(lines))
    if rng.random() < 0.1:
        ref_lines.append("")   # a trailing newline
    return pred, "\n".join(ref_lines) if rng.random() < 0.8 else ["\n".join(ref_lines)]


CASES = [_case(random.Random(k)) for k in range(400)]


@pytest.mark.parametrize("flavor", ["rouge_score", "rouge155", "paper"])
def test_every_mix_of_the_four_types_identical(flavor, path):
    for k, types in enumerate(MIXES):
        assert_same(RougeScorer(types, flavor=flavor), CASES[k * 25:k * 25 + 120])


@pytest.mark.parametrize("options", [dict(multi_ref="max"), dict(multi_ref="average"), dict(multi_ref="best"),
                                     dict(jackknife=True), dict(alpha=0.2), dict(use_stemmer=True)])
def test_options_of_one_reference_identical(options, path):
    assert_same(RougeScorer(SET, flavor="rouge_score", **options), CASES[:150])
    assert_same(RougeScorer(SET, **options), CASES[150:300])


def test_max_rp_of_one_reference_identical(path):
    assert_same(RougeScorer(SET, flavor="paper", multi_ref="max_rp"), CASES[:200])


def test_other_types_and_readers_take_the_general_path():
    cases = CASES[:60]
    for scorer in (RougeScorer(SET + ["rouge3"], flavor="rouge_score"), RougeScorer(["rouge1", "rougeW"]),
                   RougeScorer(SET, word_limit=12), RougeScorer(SET, byte_limit=40),
                   RougeScorer(["rouge1", "rougeLsum"], byte_limit=40), RougeScorer(["rougeLsum"], word_limit=12),
                   RougeScorer(["rougeL"], byte_limit=40), RougeScorer(SET, remove_stopwords=True)):
        before = _served()
        assert_same(scorer, cases)
        if scorer.rouge_types == SET + ["rouge3"] or "rougeW" in scorer.rouge_types:
            assert _served() == before, scorer
    # several references: the general path, whatever the types
    before = _served()
    assert_same(RougeScorer(SET), [(p, [r, r + " a"] if isinstance(r, str) else r * 2) for p, r in cases])
    assert _served() == before


def test_the_path_serves_what_it_claims():
    scorer = RougeScorer(SET, flavor="rouge_score")
    short = ("the cat sat on the mat\nit was happy", "the cat sat\non the mat")
    before = _served()
    score_examples(scorer, [short[0]] * 10, [short[1]] * 10, backend="compiled")
    assert _served() - before == 10
    # 128 tokens in two sentences: two words of LCS columns and of lanes
    long_pred = " ".join(["a"] * 64) + "\n" + " ".join(["b"] * 64)
    before = _served()
    score_examples(scorer, [long_pred], ["a b"], backend="compiled")
    assert _served() - before == 1
    # past 128 tokens, or sentences that need a third word of lanes: the general path
    for pred in (" ".join(["a"] * 129), "\n".join(" ".join(["c"] * 40) for _ in range(4))):
        before = _served()
        score_examples(scorer, [pred], ["a b c"], backend="compiled")
        assert _served() == before, pred


def test_threads_count_and_agree():
    scorer = RougeScorer(SET, flavor="rouge_score")
    preds = [p for p, _ in CASES] * 5
    refs = [r for _, r in CASES] * 5
    one, _ = score_examples(scorer, preds, refs, backend="compiled")
    two, _ = score_examples(scorer, preds, refs, backend="compiled", n_jobs=2)
    assert repr(one) == repr(two)


def test_hook_rejects_bad_values():
    with pytest.raises(ValueError, match="on must be"):
        compiled.core._single_ref_hook(2)
