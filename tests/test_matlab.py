"""Flavor ``matlab`` and ``rouge_evaluation_score``: MATLAB's documented rules, one at a time.

MATLAB's printed examples are in test_seed_examples.py; here each documented rule (per-sentence
counting, LCS with the whole candidate, start tokens, NaN, maximum of the reported score) and
each choice made where the documentation is silent (beta, ROUGE-W weighting, tokenization) is
pinned on a small hand-computed case.
"""
import io
import json
import math

import pytest

from rouge_full_metric import RougeScorer, rouge_evaluation_score
from rouge_full_metric.batch import compiled_scorer, score_one
from rouge_full_metric.matlab import read_document, tokenize
from rouge_full_metric.undefined import UndefinedScoreWarning

ALL = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


def matlab(types, **kw):
    return RougeScorer(list(types), flavor="matlab", **kw)


# ------------------------------------------------------------------------------ per-sentence counting
def test_ngrams_do_not_cross_reference_sentences():
    # "b c" spans the reference's sentence end: MATLAB counts bigrams within r_i only (paper: 1/3).
    stats, scores = score_one(matlab(["rouge2"]), "b c", ["a b\nc d"])
    assert stats["rouge2"][0][:3] == (0, 2, 1)
    assert scores["rouge2"].recall == 0.0
    assert RougeScorer(["rouge2"], flavor="paper").score("b c", ["a b\nc d"])["rouge2"].recall == pytest.approx(1 / 3)


def test_ngram_matches_clipped_per_reference_sentence():
    # Each sentence "a" is clipped against the candidate's one "a" separately: 1 + 1 hits of 2.
    assert rouge_evaluation_score("a", "a\na") == 1.0


def test_sentences_end_at_terminators_and_line_breaks():
    doc = read_document("The cat sat. It purred!\nThen it slept")
    assert doc.sentences == [["The", "cat", "sat", "."], ["It", "purred", "!"], ["Then", "it", "slept"]]


def test_lcs_of_whole_candidate_with_each_reference_sentence():
    # LCS("c", "a b c") + LCS("a b", "a b c") = 1 + 2 over m = 3 reference words, n = 3.
    s = matlab(["rougeL"]).score("a b c", ["c\na b"])["rougeL"]
    assert (s.recall, s.precision, s.fmeasure) == (1.0, 1.0, 1.0)


def test_lcs_precision_follows_the_formula_above_1():
    # Documented: Σ_i LCS(r_i, C) / |C| = 2 / 1 (MATLAB's formula, not clipped).
    s = matlab(["rougeL"]).score("a", ["a\na"])["rougeL"]
    assert (s.recall, s.precision) == (1.0, 2.0)
    assert s.fmeasure == pytest.approx(4 / 3)


def test_rougel_and_rougelsum_are_the_same_measure():
    out = matlab(["rougeL", "rougeLsum"]).score("the cat sat\non the mat", ["a cat sat on\nthe mat"])
    assert out["rougeL"] == out["rougeLsum"]


# ------------------------------------------------------------------------------ skip-bigrams, SU
def test_skip_bigrams_within_sentences_and_distance():
    # Reference "a b c d" (one sentence), distance 0 = bigrams: ab bc cd; candidate "a c d": cd.
    assert rouge_evaluation_score("a c d", "a b c d", "skip-bigrams", skip_distance=0) == pytest.approx(
        2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    # distance 1 adds ac, bd: candidate pairs ac ad cd (ad is 2 apart) -> matches ac, cd.
    s = matlab(["rougeS1"]).score("a c d", "a b c d")["rougeS1"]
    assert (s.recall, s.precision) == pytest.approx((2 / 5, 2 / 3))


def test_su_through_start_tokens():
    # "<s> a b" vs "<s> b a": (<s>,a) and (<s>,b) match, (a,b) does not: R = P = 2/3.
    s = matlab(["rougeSU4"]).score("b a", "a b")["rougeSU4"]
    assert (s.recall, s.precision) == pytest.approx((2 / 3, 2 / 3))
    assert matlab(["rougeS4"]).score("b a", "a b")["rougeS4"].fmeasure == 0.0


def test_su_start_token_pairs_only_within_the_skip_distance():
    # With d = 0 the start token pairs with the first word only: SU0 of "x a" vs "y a" shares nothing
    # but "a" is shared, which the start-token definition does not credit past the distance.
    assert matlab(["rougeSU0"]).score("x a", "y a")["rougeSU0"].fmeasure == 0.0
    assert matlab(["rougeSU*"]).score("x a", "y a")["rougeSU*"].fmeasure > 0


def test_su_single_word_sentences_get_credit():
    assert matlab(["rougeSU4"]).score("a", "a")["rougeSU4"].fmeasure == 1.0


# ------------------------------------------------------------------------------ NaN and the maximum
def test_nan_references_are_omitted_from_the_maximum():
    assert rouge_evaluation_score("a b", ["", "a b c"]) == pytest.approx(2 / 3)
    assert rouge_evaluation_score("a b", ["a b c", ""]) == pytest.approx(2 / 3)


@pytest.mark.parametrize("rouge_type", ALL)
def test_everything_empty_is_nan_for_every_type(rouge_type):
    s = matlab([rouge_type]).score("", [""])[rouge_type]
    assert math.isnan(s.recall) and math.isnan(s.fmeasure)


@pytest.mark.parametrize("rouge_type", ALL)
def test_empty_candidate_scores_0_against_a_reference(rouge_type):
    s = matlab([rouge_type]).score("", ["a b c"])[rouge_type]
    assert (s.precision, s.recall, s.fmeasure) == (0.0, 0.0, 0.0)


def test_reference_with_sentences_shorter_than_n_is_nan():
    # 2 words in all, but no sentence has 2: no bigram to count.
    assert math.isnan(rouge_evaluation_score("a b", "a\nb", ngram_length=2))


def test_maximum_of_the_reported_score():
    # ROUGE-N reports recall: "a b" (R = 1, F = 0.667) beats "a b c d e f" (R = 0.667, F = 0.8).
    s = matlab(["rouge1"]).score("a b c d", ["a b", "a b c d e f"])["rouge1"]
    assert (s.recall, s.precision) == (1.0, 0.5)
    # ROUGE-L reports F: the second reference wins.
    s = matlab(["rougeL"]).score("a b c d", ["a b", "a b c d e f"])["rougeL"]
    assert (s.recall, s.precision) == pytest.approx((2 / 3, 1.0))


def test_statistics_selection_is_the_reported_score():
    stats, _ = score_one(matlab(["rouge1", "rougeL"]), "a b c d", ["a b", "a b c d e f"])
    assert [s.selection for s in stats["rouge1"]] == pytest.approx([1.0, 2 / 3])
    assert [s.selection for s in stats["rougeL"]] == pytest.approx([2 / 3, 0.8])


# ------------------------------------------------------------------------------ choices: beta, W
def test_beta_choice_and_alpha_equivalence():
    c, r = "a b c d", "a b"   # R = 1, P = 1/2
    assert rouge_evaluation_score(c, r, "longest-common-subsequences") == pytest.approx(2 / 3)
    assert rouge_evaluation_score(c, r, "longest-common-subsequences", beta=math.inf) == 1.0
    f2 = rouge_evaluation_score(c, r, "longest-common-subsequences", beta=2.0)
    assert f2 == pytest.approx(5 * 0.5 * 1 / (4 * 0.5 + 1))
    s = matlab(["rougeL"], alpha=1 / 5).score(c, r)["rougeL"]
    assert s.fmeasure == pytest.approx(f2)


def test_weighted_lcs_default_weight_and_formula():
    # One reference sentence "A B C D E F G", candidate "A B C D H I K": WLCS = 4^w.
    w = 1.2
    got = rouge_evaluation_score("A B C D H I K", "A B C D E F G", "weighted-longest-common-subsequences")
    r = p = (4 ** w / 7 ** w) ** (1 / w)
    assert got == pytest.approx(2 * r * p / (r + p))
    assert rouge_evaluation_score("A B C D H I K", "A B C D E F G", "weighted-longest-common-subsequences",
                                  wlcs_weight=2) == pytest.approx(4 / 7)


def test_method_names_map_to_rouge_types():
    c, refs = "the cat sat on the mat", ["a cat sat on a mat", "the cat is on the mat"]
    out = matlab(["rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU*"]).score(c, refs)
    assert rouge_evaluation_score(c, refs, ngram_length=2) == out["rouge2"].recall
    assert rouge_evaluation_score(c, refs, "longest-common-subsequences") == out["rougeL"].fmeasure
    assert rouge_evaluation_score(c, refs, "weighted-longest-common-subsequences") == out["rougeW-1.2"].fmeasure
    assert rouge_evaluation_score(c, refs, "skip-bigrams") == out["rougeS4"].fmeasure
    assert rouge_evaluation_score(c, refs, "skip-bigrams-and-unigrams", skip_distance=None) == out["rougeSU*"].fmeasure


# ------------------------------------------------------------------------------ inputs, tokens
def test_tokenization_rule():
    assert tokenize("Don't stop: 1,000 U.S. e-mails!") == ["Don't", "stop", ":", "1,000", "U.S", ".", "e", "-",
                                                          "mails", "!"]
    assert tokenize("caf\u00e9 na\u00efve \u4e2d\u6587") == ["caf\u00e9", "na\u00efve", "\u4e2d\u6587"]


def test_case_is_kept():
    assert rouge_evaluation_score("The Cat", "the cat") == 0.0
    assert rouge_evaluation_score("The Cat".lower(), "the cat") == 1.0


def test_list_of_words_is_one_document():
    words = ["a", "simple", "summary", "document", "containing", "some", "words"]
    refs = [["a", "simple", "document"], ["another", "document", "with", "some", "words"]]
    assert rouge_evaluation_score(words, refs) == 1.0
    assert rouge_evaluation_score(words, refs, ngram_length=2) == 0.5
    # in the scorer too: a list prediction is words, not sentences
    assert matlab(["rouge2"]).score(words, refs)["rouge2"].recall == 0.5


def test_bytes_are_utf8():
    assert rouge_evaluation_score("caf\u00e9".encode("utf-8"), "caf\u00e9") == 1.0


@pytest.mark.parametrize("kwargs, named", [
    ({"rouge_method": "ngrams"}, "rouge_method"),
    ({"ngram_length": 0}, "ngram_length"),
    ({"skip_distance": -1}, "skip_distance"),
    ({"beta": -1}, "beta"),
    ({"wlcs_weight": 1}, "wlcs_weight"),
])
def test_function_argument_errors_name_the_argument(kwargs, named):
    with pytest.raises(ValueError, match=named):
        rouge_evaluation_score("a", "a", **kwargs)


@pytest.mark.parametrize("kwargs, named", [
    ({"use_stemmer": True}, "use_stemmer"),
    ({"remove_stopwords": True}, "remove_stopwords"),
    ({"word_limit": 3}, "word_limit"),
    ({"byte_limit": 3}, "byte_limit"),
    ({"jackknife": True}, "jackknife"),
    ({"multi_ref": "average"}, "multi_ref"),
    ({"multi_ref": "max_rp"}, "multi_ref"),
    ({"tokenizer": str.split}, "tokenizer"),
    ({"rouge_types": ["rougeW-1"]}, "rouge_types"),
])
def test_scorer_refuses_options_matlab_has_not(kwargs, named):
    kw = {"rouge_types": ["rouge1"], **kwargs}
    with pytest.raises(ValueError, match=named):
        RougeScorer(flavor="matlab", **kw)


def test_non_str_word_is_a_type_error():
    with pytest.raises(TypeError, match=r"prediction\[1\]"):
        matlab(["rouge1"]).score(["a", 3], "a")


# ------------------------------------------------------------------------------ engine, corpus
def test_pure_python_only():
    assert compiled_scorer(matlab(["rouge1"])) is None


def test_corpus_mean_omits_nan():
    with pytest.warns(UndefinedScoreWarning, match=r"rouge1: 1 of 3 examples"):
        r = matlab(["rouge1"]).score_corpus(["a b", "", "c"], ["a b c", "", "c d"])
    agg = r.aggregate["rouge1"].recall
    assert agg.mid == agg.mean == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert math.isnan(r.per_example[1]["rouge1"].recall)
    assert "flavor:matlab" in r.signature


def test_corpus_all_nan_is_nan():
    with pytest.warns(UndefinedScoreWarning, match=r"rouge1: 2 of 2 examples"):
        r = matlab(["rouge1"]).score_corpus(["", ""], ["", ""])
    assert all(math.isnan(x) for x in r.aggregate["rouge1"].recall)


def test_batch_equals_score():
    preds = ["the cat sat", "a b. c d", ""]
    refs = [["the cat sat down", "a cat"], "a b c d", ["", "x"]]
    s = matlab(ALL)
    batch = s.score_batch(preds, refs)
    for p, r, b in zip(preds, refs, batch):
        one = s.score(p, r)
        assert repr(one) == repr(b)


# ------------------------------------------------------------------------------ metric, CLI
def test_evaluate_metric_accepts_flavor_matlab():
    pytest.importorskip("evaluate")
    from rouge_full_metric.rouge_full_metric import RougeFullMetric

    out = RougeFullMetric().compute(predictions=["a simple summary document containing some words"],
                                    references=[["a simple document", "another document with some words"]],
                                    flavor="matlab", rouge_types=["rouge1", "rouge2"])
    assert (out["rouge1_recall"], out["rouge2_recall"]) == (1.0, 0.5)


def test_cli_score_flavor_matlab(tmp_path):
    from rouge_full_metric import cli

    (tmp_path / "p.txt").write_text("a simple summary document containing some words\n", encoding="utf-8")
    (tmp_path / "r1.txt").write_text("a simple document\n", encoding="utf-8")
    (tmp_path / "r2.txt").write_text("another document with some words\n", encoding="utf-8")
    out, err = io.BytesIO(), io.StringIO()
    status = cli.main(["score", "-p", str(tmp_path / "p.txt"), "-r", str(tmp_path / "r1.txt"),
                       str(tmp_path / "r2.txt"), "--flavor", "matlab", "--rouge-types", "rouge1", "rouge2",
                       "--format", "json", "--quiet"], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    report = json.loads(out.getvalue().decode("utf-8"))
    assert report["scores"]["rouge1"]["recall"]["mid"] == 1.0
    assert report["scores"]["rouge2"]["recall"]["mid"] == 0.5
    assert report["signature"].startswith("flavor:matlab|")


def test_space_form_offers_matlab_and_shows_nan_as_null():
    pytest.importorskip("evaluate")
    import importlib.util
    from pathlib import Path

    from rouge_full_metric.rouge_full_metric import RougeFullMetric

    spec = importlib.util.spec_from_file_location(
        "rouge_space_app_matlab", str(Path(__file__).resolve().parent.parent / "card" / "app.py"))
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    assert "matlab" in app.FLAVORS and "max_rp" in app.MULTI_REF
    options = app.options_from_form(["rouge1"], "matlab", False, False, "flavor default", "flavor default",
                                    "newline", False, False)
    result, signature = app.score(RougeFullMetric(), ["a b", "c"], [[""], ["c d"]], options)
    assert result["rouge1_recall"] == [None, 0.5]   # NaN (empty reference) shown as null
    assert signature.startswith("flavor:matlab|")


def test_lang_is_refused_in_flavor_matlab():
    # MATLAB tokenizes with tokenizedDocument; XL-Sum's pipelines are for the other flavors
    with pytest.raises(ValueError, match="lang is not an option of flavor 'matlab'"):
        RougeScorer(["rouge1"], flavor="matlab", lang="zh")
