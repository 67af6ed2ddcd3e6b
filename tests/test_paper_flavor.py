"""Pin the numbers the ROUGE papers (Lin 2004; Lin & Och 2004) and MATLAB's rougeEvaluationScore print.

The ``paper`` flavor follows the published definitions where ROUGE-1.5.5.pl does not (the Perl side is
pinned in test_worked_examples.py): unclipped union LCS, f^-1-normalized WLCS, ROUGE-SU counting every
token's unigram, multi-reference = maximum over references, jackknifing on by default. Tokenization is
the Perl's. The papers print 3-4 decimals, so expected values are exact fractions compared with a
tolerance that also accepts 5-decimal rounding, or the printed value compared after rounding.
"""
import itertools

import pytest

from rouge_full_metric import RougeScorer

TOL = 1e-5   # accepts an engine that rounds to 5 decimals and one that does not

S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"
S4 = "the gunman police killed"
S5 = "gunman the killed police"

MATLAB1_CAND = "the fast brown fox jumped over the lazy dog"
MATLAB1_REFS = ["the quick brown animal jumped over the lazy dog",
                "the quick brown fox jumped over the lazy dog"]
MATLAB2_CAND = "a simple summary document containing some words"
MATLAB2_REFS = ["a simple document", "another document with some words"]


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
