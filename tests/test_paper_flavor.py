"""Pin the numbers the ROUGE papers (Lin 2004; Lin & Och 2004) and MATLAB's rougeEvaluationScore print.

The ``paper`` flavor follows the published definitions where ROUGE-1.5.5.pl does not (the Perl side is
pinned in test_worked_examples.py): f^-1-normalized WLCS (w > 1), ROUGE-SU counting every token's
unigram, multi-reference = maximum over references (by recall for ROUGE-N, by F for the F-measures; or
Lin & Och 2004's separate maxima, multi_ref="max_rp"), jackknifing on by default, and a union LCS
clipped by the candidate's word counts so that P and F stay <= 1 (the one departure from eq. 6 read
literally). Tokenization is the Perl's. The papers print 3-4 decimals, so expected values are exact fractions compared with a
tolerance that also accepts 5-decimal rounding, or the printed value compared after rounding.
"""
import itertools
import os
import sys

import pytest

from rouge_full_metric import RougeScorer

TOL = 1e-5   # accepts an engine that rounds to 5 decimals and one that does not

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_texts import MATLAB1_CAND, MATLAB1_REFS, MATLAB2_CAND, MATLAB2_REFS, S1, S2, S3, S4, S5  # noqa: E402


def _paper(types, **kw):
    return RougeScorer(rouge_types=list(types), flavor="paper", **kw)


def _rpf(score):
    return (score.recall, score.precision, score.fmeasure)


# ---------------------------------------------------------------------------------------------
# Lin 2004's S1-S5 example (reference S1; every text has 4 tokens, so R = P = F and beta = 1 F is the
# common value). ROUGE-L: S2 = 0.75, S3 = S4 = 0.5 -- LCS credits in-sequence matches only.
# ROUGE-S with no distance limit: S2 = 3/6, S3 = 1/6, S4 = 2/6 -- S4 beats S3, which ROUGE-L cannot see.
@pytest.mark.parametrize("rouge_type", ["rougeL", "rougeLsum"])
@pytest.mark.parametrize("candidate, expected", [
    pytest.param(S2, 0.75, id="S2"),
    pytest.param(S3, 0.5, id="S3"),
    pytest.param(S4, 0.5, id="S4"),
])
def test_lcs_paper_example(candidate, expected, rouge_type):
    out = _paper([rouge_type]).score(candidate, [S1])
    assert _rpf(out[rouge_type]) == pytest.approx((expected,) * 3, abs=TOL)


@pytest.mark.parametrize("candidate, expected", [
    pytest.param(S2, 1 / 2, id="S2"),
    pytest.param(S3, 1 / 6, id="S3"),    # the paper prints 0.167
    pytest.param(S4, 1 / 3, id="S4"),    # the paper prints 0.333
    pytest.param(S5, 0.0, id="S5"),
])
def test_skip_bigram_paper_example(candidate, expected):
    out = _paper(["rougeS*"]).score(candidate, [S1])
    assert _rpf(out["rougeS*"]) == pytest.approx((expected,) * 3, abs=TOL)


def test_rouge2_paper_relations():
    # The paper's point: ROUGE-2 cannot tell S2 from S3 (one shared bigram each), but ranks S4 higher.
    s = _paper(["rouge2"])
    r2, r3, r4 = (_rpf(s.score(c, [S1])["rouge2"]) for c in (S2, S3, S4))
    assert r2 == pytest.approx(r3, abs=1e-12)
    assert r2 == pytest.approx((1 / 3,) * 3, abs=TOL)
    assert r4 == pytest.approx((2 / 3,) * 3, abs=TOL)
    assert all(b > a for a, b in zip(r3, r4))


# ROUGE-SU exists so that a candidate with no skip-bigram in common (S5, the reverse of S1) still gets
# credit for its words. The Perl drops the last token's unigram (S5 gets 2/9 there, "a b" vs "b a" 0);
# the paper flavor counts every token's unigram: S5 = 4 unigram hits / (6 pairs + 4 unigrams) = 0.4,
# the same value as the paper's begin-of-sentence-marker formulation.
def test_su_gives_credit_where_s_is_zero():
    out = _paper(["rougeS*", "rougeSU*"]).score(S5, [S1])
    assert _rpf(out["rougeS*"]) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert all(x > 0 for x in _rpf(out["rougeSU*"]))


def test_su_counts_every_unigram_s5_value():
    out = _paper(["rougeSU*"]).score(S5, [S1])
    assert _rpf(out["rougeSU*"]) == pytest.approx((0.4, 0.4, 0.4), abs=TOL)


def test_su_counts_last_token_unigram():
    # "a b" vs "b a": no skip-bigram in common, but both unigrams are (Perl: SU* = 0, spec X26).
    out = _paper(["rougeSU*"]).score("a b", ["b a"])
    assert all(x > 0 for x in _rpf(out["rougeSU*"]))


# ---------------------------------------------------------------------------------------------
# Summary-level union LCS (Lin 2004 §3.2): r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5.
# LCS(r, c1) = w1 w2, LCS(r, c2) = w1 w3 w5, union = {w1, w2, w3, w5} -> R = 4/5, P = 4/10.
def test_union_lcs_paper_example():
    out = _paper(["rougeLsum"]).score("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", ["w1 w2 w3 w4 w5"])
    assert out["rougeLsum"].recall == pytest.approx(0.8, abs=TOL)
    assert out["rougeLsum"].precision == pytest.approx(0.4, abs=TOL)


# ---------------------------------------------------------------------------------------------
# ROUGE-W with f(k) = k^2 (Lin 2004 §4): X = A..G is the reference. Y1 keeps A B C D consecutive
# (WLCS = 16, sqrt(16/49) = 0.571), Y2 interleaves them (WLCS = 4, sqrt(4/49) = 0.286). The Perl scores
# Y1 and Y2 identically; the whole point of the weighted LCS is that the paper flavor does not.
# m = n = 7, so R = P = F.
@pytest.mark.parametrize("rouge_type", ["rougeW-2", "rougeW-2.0"])
@pytest.mark.parametrize("candidate, expected", [
    pytest.param("A B C D H I K", 0.571, id="Y1"),
    pytest.param("A H B K C I D", 0.286, id="Y2"),
])
def test_rouge_w_paper_example(candidate, expected, rouge_type):
    out = _paper([rouge_type]).score(candidate, ["A B C D E F G"])
    got = tuple(round(x, 3) for x in _rpf(out[rouge_type]))
    assert got == pytest.approx((expected,) * 3, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# MATLAB rougeEvaluationScore: ROUGE-N with several references is the MAXIMUM over references, not the
# Perl's pooled counts (pooled would give 0.75 for ROUGE-1 of example 2). MATLAB does not jackknife,
# so these are scored with jackknife=False and the flavor's default multi_ref (max).
def test_matlab_example1_rouge1_recall_max_over_references():
    out = _paper(["rouge1"], jackknife=False).score(MATLAB1_CAND, MATLAB1_REFS)
    assert round(out["rouge1"].recall, 4) == pytest.approx(0.8889, abs=1e-9)
    assert out["rouge1"].recall == pytest.approx(8 / 9, abs=TOL)


def test_matlab_example2_rouge1_and_rouge2():
    out = _paper(["rouge1", "rouge2"], jackknife=False).score(MATLAB2_CAND, MATLAB2_REFS)
    assert out["rouge1"].recall == pytest.approx(1.0, abs=TOL)
    assert out["rouge2"].recall == pytest.approx(0.5, abs=TOL)


def test_matlab_example2_explicit_max():
    out = _paper(["rouge1", "rouge2"], multi_ref="max", jackknife=False).score(MATLAB2_CAND, MATLAB2_REFS)
    assert (out["rouge1"].recall, out["rouge2"].recall) == pytest.approx((1.0, 0.5), abs=TOL)


# A candidate shorter than n has no n-gram: score 0, not an error or NaN (MATLAB; Perl does the same).
@pytest.mark.parametrize("candidate, rouge_type", [
    pytest.param("a", "rouge2", id="1-token-rouge2"),
    pytest.param("a b", "rouge3", id="2-token-rouge3"),
])
def test_candidate_shorter_than_n_scores_zero(candidate, rouge_type):
    out = _paper([rouge_type]).score(candidate, ["a b c d"])
    assert _rpf(out[rouge_type]) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Jackknifing is ON by default in the paper flavor (Lin 2004 §2.1): with M >= 2 references the score
# is the mean over the M leave-one-out sets of the maximum over that set. This is what makes system
# scores comparable with the human ceiling (a human is scored against the other M-1 references).
def test_jackknife_default_two_references():
    # Leave-one-out sets {ref2} -> 8/9 and {ref1} -> 7/9; mean 15/18 (MATLAB's max would be 8/9).
    out = _paper(["rouge1"]).score(MATLAB1_CAND, MATLAB1_REFS)
    assert _rpf(out["rouge1"]) == pytest.approx((15 / 18,) * 3, abs=TOL)


def test_jackknife_default_matlab_example2():
    # Single-reference scores: ROUGE-1 R = 1 and 3/5, ROUGE-2 R = 1/2 and 1/4 -> means 0.8 and 0.375.
    out = _paper(["rouge1", "rouge2"]).score(MATLAB2_CAND, MATLAB2_REFS)
    assert out["rouge1"].recall == pytest.approx(0.8, abs=TOL)
    assert out["rouge2"].recall == pytest.approx(0.375, abs=TOL)


def test_jackknife_default_three_references():
    # All texts have 4 tokens, so each reference has R = P = F: 1, 1/2, 1/4. Leave-one-out maxima:
    # {r2, r3} -> 1/2, {r1, r3} -> 1, {r1, r2} -> 1; mean 5/6. (Max = 1, Perl pooled = 7/12.)
    refs = ["a b c d", "a b x y", "a x y z"]
    out = _paper(["rouge1"]).score("a b c d", refs)
    assert _rpf(out["rouge1"]) == pytest.approx((5 / 6,) * 3, abs=TOL)
    plain = _paper(["rouge1"], jackknife=False).score("a b c d", refs)
    assert _rpf(plain["rouge1"]) == pytest.approx((1.0, 1.0, 1.0), abs=TOL)


JK_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4"]
JK_CAND = "the cat sat on the mat\nit was happy"
JK_REFS = ["a cat sat on a mat", "the cat was on the mat\nthe cat was happy", "a happy cat sat there",
           "on the mat sat the cat"]


@pytest.mark.parametrize("n_refs", [2, 3, 4])
def test_jackknife_equals_mean_of_leave_one_out_max(n_refs):
    # Definition check on texts where R, P and F disagree: the jackknifed score equals the plain (max)
    # score of every leave-one-out subset, averaged over the subsets, each of R, P, F separately.
    refs = JK_REFS[:n_refs]
    got = _paper(JK_TYPES).score(JK_CAND, refs)
    plain = _paper(JK_TYPES, jackknife=False)
    subsets = [list(c) for c in itertools.combinations(refs, n_refs - 1)]
    for t in JK_TYPES:
        per = [_rpf(plain.score(JK_CAND, sub)[t]) for sub in subsets]
        want = tuple(sum(p[i] for p in per) / len(per) for i in range(3))
        assert _rpf(got[t]) == pytest.approx(want, abs=2 * TOL), t


def test_jackknife_single_reference_is_plain_score():
    # With M = 1 there is nothing to leave out: the plain score is used.
    a = _paper(["rouge1", "rougeL"]).score(S2, [S1])
    b = _paper(["rouge1", "rougeL"], jackknife=False).score(S2, [S1])
    assert {t: _rpf(a[t]) for t in a} == {t: pytest.approx(_rpf(b[t]), abs=1e-12) for t in b}


def test_jackknife_default_is_explicit_true():
    a = _paper(["rouge1", "rouge2"]).score(MATLAB2_CAND, MATLAB2_REFS)
    b = _paper(["rouge1", "rouge2"], multi_ref="max", jackknife=True).score(MATLAB2_CAND, MATLAB2_REFS)
    assert {t: _rpf(a[t]) for t in a} == {t: pytest.approx(_rpf(b[t]), abs=1e-12) for t in b}


# ---------------------------------------------------------------------------------------------
# Multi-reference maximum: Lin 2004 §2.1 defines ROUGE-N_multi as the argmax of ROUGE-N, a recall;
# the F-measures (L, Lsum, W, S, SU) are maximized by their reported F.
REFS_RF = ["a b", "a b c d e f"]   # against "a b c d": ROUGE-1 (R, P) = (1, 1/2) and (2/3, 1)


def test_rouge_n_max_is_by_recall():
    s = _paper(["rouge1"], jackknife=False).score("a b c d", REFS_RF)["rouge1"]
    assert _rpf(s) == pytest.approx((1.0, 0.5, 2 / 3), abs=1e-12)


@pytest.mark.parametrize("rouge_type", ["rougeL", "rougeLsum", "rougeW-1.2", "rougeS*", "rougeSU*"])
def test_f_measures_max_is_by_f(rouge_type):
    scorer = _paper([rouge_type], jackknife=False)
    got = scorer.score("a b c d", REFS_RF)[rouge_type]
    each = [scorer.score("a b c d", [r])[rouge_type] for r in REFS_RF]
    assert got == max(each, key=lambda x: x.fmeasure)
    assert got.fmeasure == max(x.fmeasure for x in each)


def test_rouge_n_recall_tie_goes_to_better_f_then_first():
    # "a" and "a b" both have R = 1 against "a b"; F decides ("a b": P = 1, F = 1 against F = 2/3).
    # Equal scores: the first reference's (the same numbers either way).
    s = _paper(["rouge1"], jackknife=False).score("a b", ["a", "a b"])["rouge1"]
    assert _rpf(s) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)
    s = _paper(["rouge1"], jackknife=False).score("a b", ["a b", "b a"])["rouge1"]
    assert _rpf(s) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)


def test_rouge_n_max_by_recall_under_jackknife():
    # Leave-one-out sets of three references; each set's maximum by recall, averaged.
    refs = ["a b", "a b c d e f", "a x"]
    got = _paper(["rouge1"]).score("a b c d", refs)["rouge1"]
    plain = _paper(["rouge1"], jackknife=False)
    subsets = [refs[1:], [refs[0], refs[2]], refs[:2]]
    per = [_rpf(plain.score("a b c d", sub)["rouge1"]) for sub in subsets]
    assert _rpf(got) == pytest.approx(tuple(sum(p[i] for p in per) / 3 for i in range(3)), abs=1e-12)
    assert [p[0] for p in per] == pytest.approx([2 / 3, 1.0, 1.0])


# Lin & Och 2004 eqs. 7-9: R = max_j R_j, P = max_j P_j, F from them.
@pytest.mark.parametrize("rouge_type, r, p", [
    pytest.param("rouge1", 1.0, 1.0, id="rouge1"),
    pytest.param("rougeL", 1.0, 1.0, id="rougeL"),
    pytest.param("rouge2", 1.0, 1.0, id="rouge2"),          # "a b" R = 1; "a b c d e f" P = 3/3
])
def test_max_rp_takes_recall_and_precision_separately(rouge_type, r, p):
    s = _paper([rouge_type], multi_ref="max_rp", jackknife=False).score("a b c d", REFS_RF)[rouge_type]
    assert (s.recall, s.precision) == pytest.approx((r, p), abs=1e-12)
    assert s.fmeasure == pytest.approx(2 * r * p / (r + p), abs=1e-12)


def test_max_rp_alpha_weights_f():
    s = _paper(["rouge1"], multi_ref="max_rp", jackknife=False, alpha=0.2).score("a b c x", REFS_RF)["rouge1"]
    # R = max(1, 1/2) = 1, P = max(1/2, 3/4) = 3/4; F = 1 / (0.2/P + 0.8/R)
    assert _rpf(s) == pytest.approx((1.0, 0.75, 1 / (0.2 / 0.75 + 0.8)), abs=1e-12)


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score", "matlab"])
def test_max_rp_only_in_flavor_paper(flavor):
    with pytest.raises(ValueError, match="multi_ref"):
        RougeScorer(["rouge1"], flavor=flavor, multi_ref="max_rp")


# ---------------------------------------------------------------------------------------------
# The union LCS is clipped by the candidate's word counts (ROUGE >= 1.4.1's rule): Lin's eq. 6 read
# literally gives P = 2, F = 4/3 for "a" against "a\na".
def test_union_lcs_clipped_keeps_precision_at_most_1():
    s = _paper(["rougeLsum"]).score("a", ["a\na"])["rougeLsum"]
    assert _rpf(s) == pytest.approx((0.5, 1.0, 2 / 3), abs=1e-12)


def test_union_lcs_clipped_counts_each_candidate_word_once():
    s = _paper(["rougeLsum"]).score("a b", ["a\na"])["rougeLsum"]
    assert _rpf(s) == pytest.approx((0.5, 0.5, 0.5), abs=1e-12)


def test_union_lcs_clipping_keeps_the_paper_example():
    out = _paper(["rougeLsum"]).score("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", ["w1 w2 w3 w4 w5"])
    assert (out["rougeLsum"].recall, out["rougeLsum"].precision) == pytest.approx((0.8, 0.4), abs=1e-12)


def _random_cases(seed, count):
    import random

    rng = random.Random(seed)
    vocab = ["a", "b", "c", "d", "e"]

    def text():
        return "\n".join(" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 6)))
                         for _ in range(rng.randint(1, 3)))
    return [(text(), [text() for _ in range(rng.randint(1, 4))]) for _ in range(count)]


PAPER_ALL = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW-1.2", "rougeW-2", "rougeS0", "rougeS4",
             "rougeSU4", "rougeS*", "rougeSU*"]


@pytest.mark.parametrize("multi_ref", ["max", "max_rp", "average", "best"])
def test_every_paper_value_lies_in_unit_interval(multi_ref):
    scorer = _paper(PAPER_ALL, multi_ref=multi_ref)
    for pred, refs in _random_cases(31, 300):
        for t, s in scorer.score(pred, refs).items():
            assert all(0.0 <= x <= 1.0 for x in s), (t, pred, refs, s)


@pytest.mark.parametrize("rouge_type", ["rougeW-0.5", "rougeW-1", "rougeW-1.0"])
def test_rouge_w_weight_at_most_1_rejected(rouge_type):
    with pytest.raises(ValueError, match=r"rouge_types: '%s' needs a weight > 1" % rouge_type.replace(".", r"\.")):
        _paper([rouge_type])
    RougeScorer([rouge_type])   # the Perl accepts any positive weight; flavor rouge155 keeps it


# ---------------------------------------------------------------------------------------------
# The compiled core implements flavor paper: identical statistics and scores, last bit included,
# for the new selection rules (tests/test_compiled.py covers the rest).
@pytest.mark.parametrize("multi_ref", ["max", "max_rp"])
@pytest.mark.parametrize("jackknife", [False, True])
@pytest.mark.parametrize("alpha", [0.5, 0.0, 0.2, 1.0])
def test_compiled_equals_python_for_paper_selection(multi_ref, jackknife, alpha):
    from rouge_full_metric import compiled
    from rouge_full_metric.batch import score_examples

    if not compiled.AVAILABLE:
        pytest.skip("compiled core not built")
    scorer = _paper(PAPER_ALL, multi_ref=multi_ref, jackknife=jackknife, alpha=alpha)
    cases = _random_cases(int(alpha * 10) + 7 * jackknife + (multi_ref == "max_rp"), 250)
    preds, refs = [p for p, _ in cases], [r for _, r in cases]
    py_scores, py_stats = score_examples(scorer, preds, refs, backend="python")
    c_scores, c_stats = score_examples(scorer, preds, refs, backend="compiled")
    assert repr(c_stats) == repr(py_stats)
    assert repr(c_scores) == repr(py_scores)


@pytest.mark.parametrize("flavor", ["paper", "matlab"])
def test_rouge_w_of_a_text_against_itself_is_exactly_one(flavor):
    # the papers' recurrence c + f(k+1) - f(k) telescopes only in exact arithmetic: a full match
    # summed to f(n) plus rounding, R = P = F = 1.0000000000000002
    import random

    from rouge_full_metric import RougeScorer, batch, compiled

    rnd = random.Random(4)
    texts = [" ".join(rnd.choice("a b c d e f g h".split()) for _ in range(rnd.randint(1, 80))) for _ in range(200)]
    texts.append("d a e b e c g f b e b h h c d a a")
    scorer = RougeScorer(["rougeW-1.2", "rougeW-2.5"], flavor=flavor, jackknife=False)
    engines = ["python"] + (["compiled"] if flavor == "paper" and compiled.AVAILABLE else [])  # matlab: Python only
    for engine in engines:
        per_example, _ = batch.score_examples(scorer, texts, [[t] for t in texts], backend=engine)
        for scores in per_example:
            for s in scores.values():
                assert (s.precision, s.recall, s.fmeasure) == (1.0, 1.0, 1.0), (engine, s)
