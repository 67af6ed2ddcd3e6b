"""Every number the seed documents print, one test each, named after its source.

The documents (quoted in ../shared/paper-definitions.md): Lin 2004 "ROUGE: a package for automatic
evaluation of summaries" (ACL workshop), Lin & Och 2004 "Automatic evaluation of machine
translation quality using longest common subsequence and skip-bigram statistics" (ACL), the ROUGE
working note v1.4.2, and MATLAB's ``rougeEvaluationScore`` documentation.  Lin & Och 2004 reprint
Lin 2004's S1-S4 numbers; the tests below name the first source and say where else a number appears.
The working note's Figure 1 (0.1669) is not reproducible: docs/conformance.md, "Numbers from the seed
documents", says why.  Its table lists every test here with its number.

The papers print 3-4 decimals: expected values are the exact fractions behind them, and the printed
value is checked after rounding to the printed digits.
"""
import math
import os
import sys

import pytest

from rouge_full_metric import RougeScorer, rouge_evaluation_score
from rouge_full_metric.batch import score_one

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_texts import MATLAB1_CAND, MATLAB1_REFS, MATLAB2_CAND, MATLAB2_REFS, S1, S2, S3, S4, S5  # noqa: E402


def paper(types, **kw):
    return RougeScorer(list(types), flavor="paper", **kw)


def printed(value, digits, expected):
    """``value`` rounds to the printed ``expected`` at the printed number of digits."""
    return round(value, digits) == pytest.approx(expected, abs=1e-12)


# --------------------------------------------------------------------------------- Lin 2004 §3.1
# (also Lin & Och 2004 §3.1) reference S1; all texts have 4 words, so R = P = F (beta = 1).
def test_lin2004_rouge_l_s2_075():
    s = paper(["rougeL"]).score(S2, [S1])["rougeL"]
    assert s == pytest.approx((0.75, 0.75, 0.75), abs=1e-12)


def test_lin2004_rouge_l_s3_05():
    s = paper(["rougeL"]).score(S3, [S1])["rougeL"]
    assert s == pytest.approx((0.5, 0.5, 0.5), abs=1e-12)


def test_lin2004_rouge_l_s4_05():
    # S3 and S4 get the same ROUGE-L (0.5): LCS counts only the longest in-sequence match.
    s = paper(["rougeL"]).score(S4, [S1])["rougeL"]
    assert s == pytest.approx((0.5, 0.5, 0.5), abs=1e-12)


def test_lin2004_rouge2_s2_equals_s3():
    scorer = paper(["rouge2"])
    assert scorer.score(S2, [S1])["rouge2"] == scorer.score(S3, [S1])["rouge2"]
    assert scorer.score(S2, [S1])["rouge2"].recall == pytest.approx(1 / 3, abs=1e-12)


def test_lin2004_rouge2_s4_above_s3():
    scorer = paper(["rouge2"])
    assert scorer.score(S4, [S1])["rouge2"].recall > scorer.score(S3, [S1])["rouge2"].recall


# --------------------------------------------------------------------------------- Lin 2004 §3.2
def test_lin2004_union_lcs_4_of_5():
    # r = w1..w5; c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5: LCS∪ = {w1, w2, w3, w5}, R = 4/5.
    scorer = paper(["rougeLsum"])
    stats, scores = score_one(scorer, "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", ["w1 w2 w3 w4 w5"])
    assert (stats["rougeLsum"][0].hits, stats["rougeLsum"][0].reference_count) == (4, 5)
    assert scores["rougeLsum"].recall == pytest.approx(4 / 5, abs=1e-12)


# --------------------------------------------------------------------------------- Lin 2004 §4
# (also Lin & Och 2004 §3.3) f(k) = k^2, X = A..G; m = n = 7 so R = P = F.
def test_lin2004_rouge_w_y1_0571():
    s = paper(["rougeW-2"]).score("A B C D H I K", ["A B C D E F G"])["rougeW-2"]
    assert s.fmeasure == pytest.approx(math.sqrt(16 / 49), abs=1e-12)
    assert printed(s.fmeasure, 3, 0.571)


def test_lin2004_rouge_w_y2_0286():
    s = paper(["rougeW-2"]).score("A H B K C I D", ["A B C D E F G"])["rougeW-2"]
    assert s.fmeasure == pytest.approx(math.sqrt(4 / 49), abs=1e-12)
    assert printed(s.fmeasure, 3, 0.286)


# --------------------------------------------------------------------------------- Lin 2004 §5
# (also Lin & Och 2004 §4) skip-bigrams without a distance limit.
def test_lin2004_skip_bigrams_s1_has_6():
    stats, _ = score_one(paper(["rougeS*"]), S2, [S1])
    assert stats["rougeS*"][0].reference_count == 6   # C(4, 2)


@pytest.mark.parametrize("candidate, shared", [pytest.param(S2, 3, id="S2"), pytest.param(S3, 1, id="S3"),
                                               pytest.param(S4, 2, id="S4")])
def test_lin2004_skip_bigram_matches_3_1_2(candidate, shared):
    stats, _ = score_one(paper(["rougeS*"]), candidate, [S1])
    assert stats["rougeS*"][0].hits == shared


def test_lin2004_rouge_s_s2_05():
    assert paper(["rougeS*"]).score(S2, [S1])["rougeS*"].fmeasure == pytest.approx(0.5, abs=1e-12)


def test_lin2004_rouge_s_s3_0167():
    f = paper(["rougeS*"]).score(S3, [S1])["rougeS*"].fmeasure
    assert f == pytest.approx(1 / 6, abs=1e-12) and printed(f, 3, 0.167)


def test_lin2004_rouge_s_s4_0333():
    f = paper(["rougeS*"]).score(S4, [S1])["rougeS*"].fmeasure
    assert f == pytest.approx(1 / 3, abs=1e-12) and printed(f, 3, 0.333)


def test_lin2004_rouge_s_s5_0_but_su_positive():
    out = paper(["rougeS*", "rougeSU*"]).score(S5, [S1])
    assert out["rougeS*"].fmeasure == 0.0
    assert out["rougeSU*"].fmeasure == pytest.approx(0.4, abs=1e-12)   # 4 unigrams / (6 pairs + 4)


# --------------------------------------------------------------------------------- Lin 2004 §2.1
def test_lin2004_rouge_n_multi_is_argmax_of_recall():
    # ROUGE-N_multi = argmax_i ROUGE-N(r_i, s), a recall: "a b" is fully covered (R = 1) although
    # "a b c d e f" has the better F (0.8 against 0.667).
    s = paper(["rouge1"], jackknife=False).score("a b c d", ["a b", "a b c d e f"])["rouge1"]
    assert (s.recall, s.precision) == pytest.approx((1.0, 0.5), abs=1e-12)


def test_lin2004_jackknife_08333():
    # M = 2 references: the best score over each leave-one-out set ({r2}: 8/9, {r1}: 7/9), averaged.
    r = paper(["rouge1"]).score(MATLAB1_CAND, MATLAB1_REFS)["rouge1"].recall
    assert r == pytest.approx(15 / 18, abs=1e-12) and printed(r, 4, 0.8333)


def test_lin2004_human_ceiling_8_of_9():
    # A human reference scored against the other M-1 references, averaged over the references.
    r = paper(["rouge1"]).human_ceiling(MATLAB1_REFS)["rouge1"].recall
    assert r == pytest.approx(8 / 9, abs=1e-12)


# --------------------------------------------------------------------------------- Lin & Och 2004
def test_lin_och2004_eqs7_9_best_recall_and_best_precision_separately():
    # Eqs. 7-9: R = max_j R_j, P = max_j P_j, F from the two (here from different references).
    refs = ["a b", "a b c d e f"]   # ROUGE-L of "a b c d": (R, P) = (1, 1/2) and (2/3, 1)
    s = paper(["rougeL"], multi_ref="max_rp", jackknife=False).score("a b c d", refs)["rougeL"]
    assert (s.recall, s.precision, s.fmeasure) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)


# --------------------------------------------------------------------------------- MATLAB
def test_matlab_evaluate_similarity_08889():
    score = rouge_evaluation_score(MATLAB1_CAND, MATLAB1_REFS)
    assert score == pytest.approx(8 / 9, abs=1e-12) and printed(score, 4, 0.8889)


def test_matlab_specify_ngram_lengths_rouge1_1():
    assert rouge_evaluation_score(MATLAB2_CAND, MATLAB2_REFS) == 1.0


def test_matlab_specify_ngram_lengths_rouge2_05000():
    assert rouge_evaluation_score(MATLAB2_CAND, MATLAB2_REFS, ngram_length=2) == 0.5


@pytest.mark.parametrize("text, count", [
    pytest.param(MATLAB1_CAND, 9, id="candidate-9"), pytest.param(MATLAB1_REFS[0], 9, id="ref1-9"),
    pytest.param(MATLAB1_REFS[1], 9, id="ref2-9"), pytest.param(MATLAB2_CAND, 7, id="candidate-7"),
    pytest.param(MATLAB2_REFS[0], 3, id="ref1-3"), pytest.param(MATLAB2_REFS[1], 5, id="ref2-5")])
def test_matlab_tokenized_document_token_counts(text, count):
    # The examples print "tokenizedDocument: 9 tokens" etc.
    from rouge_full_metric.matlab import read_document
    assert len(read_document(text).tokens) == count


def test_matlab_nan_when_candidate_and_references_empty():
    assert math.isnan(rouge_evaluation_score("", ""))
    assert math.isnan(rouge_evaluation_score([], [[]]))


def test_matlab_nan_when_longest_reference_shorter_than_ngram_length():
    assert math.isnan(rouge_evaluation_score("a b c", ["a", "a b"], ngram_length=3))
    assert rouge_evaluation_score("a b c", ["a", "a b c"], ngram_length=3) == 1.0


def test_matlab_candidate_shorter_than_ngram_length_scores_0():
    assert rouge_evaluation_score("a", MATLAB2_REFS, ngram_length=2) == 0.0
