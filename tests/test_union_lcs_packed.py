"""rougeLsum's union back-trace packs consecutive prediction sentences into 64-bit words (one guard
bit between sentences, every walk at once on reversed bits): compiled == pure Python around every
packing boundary, with shared and disjoint vocabularies, sentences past 64 tokens, empty lines and
several references; the walks' bit reversal both plain and with GFNI (where the processor has it)."""
import random

import pytest

from rouge_full_metric import RougeScorer, compiled
from test_compiled import assert_same

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="compiled core not built")

SHARED = ["a", "b", "c", "d", "e"]
WIDE = ["w%d" % k for k in range(40)]
OTHER = ["x%d" % k for k in range(40)]   # never in the prediction


def _parts(rng, total, k):
    """k positive sentence lengths summing to total."""
    cuts = sorted(rng.sample(range(1, total), k - 1)) if k > 1 else []
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


def _pred_lengths(rng):
    r = rng.random()
    if r < 0.5:   # sentences + guards right around one or two words
        k = rng.randint(1, 6)
        bits = rng.choice([62, 63, 64, 65, 66, 127, 128, 129])
        total = bits - (k - 1)
        return _parts(rng, total, k) if total >= k else [bits]
    if r < 0.7:   # long sentences between short ones
        return [rng.choice([1, 5, 63, 64, 65, 100, 130]) for _ in range(rng.randint(1, 4))]
    return [rng.randint(0, 40) for _ in range(rng.randint(1, 8))]


def _sentence(rng, vocab, n):
    return " ".join(rng.choice(vocab) for _ in range(n))


def _case(rng):
    vocab = rng.choice([SHARED, WIDE, SHARED + WIDE])
    lengths = _pred_lengths(rng)
    lines = [_sentence(rng, vocab, n) for n in lengths]
    for _ in range(rng.choice([0, 0, 1, 2])):   # empty lines
        lines.insert(rng.randrange(len(lines) + 1), "")
    pred = "\n".join(lines)

    def reference():
        refvocab = rng.choice([vocab, vocab, OTHER, vocab + OTHER])
        out = []
        for _ in range(rng.randint(1, 5)):
            out.append(_sentence(rng, refvocab, rng.choice([0, rng.randint(1, 30), rng.randint(1, 90)])))
        if rng.random() < 0.3:   # a reference sentence that repeats one of the prediction's
            out.insert(rng.randrange(len(out) + 1), rng.choice(lines))
        return "\n".join(out)

    refs = [reference() for _ in range(rng.choice([1, 1, 2, 3]))]
    return pred, refs if len(refs) > 1 or rng.random() < 0.5 else refs[0]


@pytest.fixture(params=[0, 1, 2], ids=["plain", "avx2", "gfni"])
def bit_reversal(request):
    old, supported = compiled.core._bitrev_hooks(request.param)
    if request.param > supported:
        compiled.core._bitrev_hooks(old)
        pytest.skip("no %s here" % ["", "AVX2", "GFNI + AVX2"][request.param])
    yield
    compiled.core._bitrev_hooks(old)


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score", "paper"])
def test_packed_union_back_traces_identical(flavor, bit_reversal):
    rng = random.Random({"rouge155": 1, "rouge_score": 2, "paper": 3}[flavor])
    cases = [_case(rng) for _ in range(700)]
    assert_same(RougeScorer(["rougeLsum"], flavor=flavor), cases)
    if flavor == "rouge155":
        assert_same(RougeScorer(["rougeLsum"], flavor=flavor, multi_ref="best"), cases[:200])


def test_bit_reversal_hook_rejects_bad_values():
    with pytest.raises(ValueError, match="level must be -1..2"):
        compiled.core._bitrev_hooks(3)


def test_packed_and_multiword_paths_agree_under_a_tiny_table_budget():
    # A table budget below the reference's length sends every sentence to the multi-word path.
    rng = random.Random(4)
    cases = [_case(rng) for _ in range(150)]
    old = compiled.core._set_table_limit(5)
    try:
        assert_same(RougeScorer(["rougeLsum"]), cases)
    finally:
        compiled.core._set_table_limit(old)
