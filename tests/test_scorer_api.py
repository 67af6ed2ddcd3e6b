"""RougeScorer's contract: inputs, options, multi-reference modes, jackknifing, corpus results."""
import pytest

from rouge_full_metric import PairStats, RougeScorer, Score, __version__
from rouge_full_metric.scoring import combine, jackknife

ALL = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


def test_every_type_and_input_form_agree():
    scorer = RougeScorer(ALL)
    pred = "The cat sat on the mat.\nIt was happy."
    ref = "A cat sat on a mat.\nThe cat was happy."
    as_str = scorer.score(pred, ref)
    assert as_str == scorer.score(pred.encode(), [ref.encode()])
    assert as_str == scorer.score(pred.split("\n"), [ref.split("\n")])
    assert list(as_str) == ALL and all(isinstance(s, Score) for s in as_str.values())


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score"])
def test_corpus_calls_take_numpy_pandas_and_iterables(flavor):
    # what a DataFrame's columns or an array give: read once into lists, pandas' index ignored
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    scorer = RougeScorer(["rouge1", "rougeL"], flavor=flavor)
    preds = ["police killed the gunman", "the cat sat", "a b c d"]
    refs = [["police kill the gunman", "the gunman died"], ["a cat sat down", "the cat"], ["a b", "c d"]]
    want = scorer.score_batch(preds, refs)
    forms = [(pd.Series(preds, index=[7, 3, 5]), pd.Series(refs, index=[9, 1, 2])),
             (np.array(preds), np.array(refs)), (np.array(preds, dtype=object), pd.Series(refs)),
             # Dataset.to_pandas() gives a list column as numpy arrays, one per cell
             (pd.Series(preds), pd.Series([np.array(r, dtype=object) for r in refs])),
             ((p for p in preds), iter(refs))]
    for p, r in forms:
        assert scorer.score_batch(p, r) == want
    for p, r in forms[:4]:
        assert scorer.mean_scores(p, r) == scorer.mean_scores(preds, refs)
        assert scorer.score_corpus(p, r).aggregate == scorer.score_corpus(preds, refs).aggregate
    with pytest.raises(TypeError, match="predictions must be a list of texts, got str"):
        scorer.score_batch("police", refs)
    with pytest.raises(TypeError, match=r"references\[0\] must be a str or a list of str, got ndarray "
                                        r"\(a numpy array: pass its .tolist\(\)\)"):
        scorer.score_batch(preds, [np.array(r) for r in refs])
    with pytest.raises(ValueError, match="differ in length: 2 vs 3"):
        scorer.score_batch(np.array(preds[:2]), pd.Series(refs))


@pytest.mark.parametrize("flavor", ["rouge155", "rouge_score"])
def test_score_takes_numpy_strings_and_still_checks_them(flavor):
    # The elements of a numpy string array are numpy.str_, a str subclass: the same scores as
    # str, past the lost-text check's shortcut when they surely keep their letters (ASCII,
    # curly quotes), and through the check (the warning) when they do not.
    import warnings

    np = pytest.importorskip("numpy")
    from rouge_full_metric.lost_text import LostTextWarning

    scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"], flavor=flavor)
    pairs = [("police killed the gunman", "police kill the gunman"),
             ("the “cat” sat — there", "a cat’s seat"), ("a\nb c", "b c\nd")]
    for pred, ref in pairs:
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # no warning for these
            assert scorer.score(np.str_(pred), np.str_(ref)) == scorer.score(pred, ref)
        assert scorer.score(np.str_(pred), [np.str_(ref), ref]) == scorer.score(pred, [ref, ref])
    with pytest.warns(LostTextWarning):
        scorer.score(np.str_("今天天气很好，我们去公园散步"), np.str_("今天天气很好"))


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")  # CJK without lang: 0, as meant
@pytest.mark.parametrize("options", [dict(), dict(flavor="rouge_score", use_stemmer=True),
                                     dict(flavor="rouge155", lang="zh"), dict(flavor="paper", lang="ru"),
                                     dict(flavor="xlsum", lang="zh"), dict(flavor="xlsum")])
def test_score_is_score_batch_of_one(options):
    # score() takes its own short path to the core (Worker.score); the scorers that tokenize in
    # Python first (lang) must still do so there: the Perl's tokenizer alone gives these texts 0.
    scorer = RougeScorer(["rouge1", "rougeL"], **options)
    pairs = [("北京今天下雨了。\n天气很冷。", "北京今天下雪了。"), ("Москва большой город", "Москва город"),
             ("police killed the gunman", ["the gunman was shot by police", "police kill gunman"]),
             (["one line", "two lines"], "one line")]
    for prediction, references in pairs:
        assert scorer.score(prediction, references) == scorer.score_batch([prediction], [references])[0]
        assert scorer.score(prediction, references) == scorer._example(prediction, references)[1]
    assert scorer.score(*pairs[0])["rouge1"].fmeasure > 0 or options.get("lang") != "zh"


def test_rougeL_is_whole_text_and_rougeLsum_per_sentence():
    s = RougeScorer(["rougeL", "rougeLsum"]).score("b a\na", "a b")
    assert s["rougeL"].recall == 0.5                       # LCS("b a a", "a b") = 1
    assert s["rougeLsum"] == Score(0.33333, 0.5, 0.4)      # X7


def test_rougeW_default_weight_and_spellings():
    s = RougeScorer(["rougeW", "rougeW-1.2", "rougeW-2", "rougeW-2.0"]).score("a b", "a b")
    assert s["rougeW"] == s["rougeW-1.2"] == Score(1.0, 0.87055, 0.9308)   # X8
    assert s["rougeW-2"] == s["rougeW-2.0"]


def test_multi_ref_modes():
    pred, refs = "a b c d", ["a b x y z w", "a q"]
    assert RougeScorer(["rouge1"]).score(pred, refs)["rouge1"] == Score(0.375, 0.375, 0.375)            # X14
    assert RougeScorer(["rouge1"], multi_ref="best").score(pred, refs)["rouge1"] == Score(0.25, 0.5, 0.33333)  # X15
    # max: the reference with the best F (ref 1: R 2/6 P 2/4 F 0.4; ref 2: R 1/2 P 1/4 F 0.33333)
    assert RougeScorer(["rouge1"], multi_ref="max").score(pred, refs)["rouge1"] == Score(0.5, 0.33333, 0.4)


def test_jackknife_is_mean_over_leave_one_out_sets():
    scorer = RougeScorer(["rouge1", "rougeLsum"], jackknife=True)
    pred, refs = "a b c", ["a b c", "a", "d e f"]
    got = scorer.score(pred, refs)
    plain = RougeScorer(["rouge1", "rougeLsum"])
    subsets = [plain.score(pred, refs[:k] + refs[k + 1:]) for k in range(3)]
    for t in got:
        for field in range(3):
            assert got[t][field] == pytest.approx(sum(s[t][field] for s in subsets) / 3, abs=1e-12)
    # one reference: jackknifing has nothing to leave out
    assert scorer.score(pred, refs[:1]) == plain.score(pred, refs[:1])


def test_jackknife_on_statistics_never_rescoring():
    stats = [PairStats(2, 4, 3, 0.5), PairStats(1, 2, 3, 0.5), PairStats(0, 5, 3, 0.0)]
    expected = [combine(stats[1:], "average", 0.5), combine(stats[::2], "average", 0.5), combine(stats[:2], "average", 0.5)]
    got = jackknife(stats, "average", 0.5)
    assert got.recall == pytest.approx(sum(s.recall for s in expected) / 3)


def test_human_ceiling():
    scorer = RougeScorer(["rouge1"])
    refs = ["a b c", "a b d", "a c d"]
    got = scorer.human_ceiling(refs)["rouge1"]
    each = [scorer.score(refs[k], refs[:k] + refs[k + 1:])["rouge1"] for k in range(3)]
    assert got.fmeasure == pytest.approx(sum(s.fmeasure for s in each) / 3)
    with pytest.raises(ValueError, match="at least 2"):
        scorer.human_ceiling(["only one"])


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")  # "... 中文" is scored as the Perl would: 0
def test_empty_texts_score_zero():
    scorer = RougeScorer(ALL)
    zero = Score(0.0, 0.0, 0.0)
    assert set(scorer.score("", "a b").values()) == {zero}            # X46
    assert set(scorer.score("... 中文", "a b").values()) == {zero}


def test_empty_reference_under_rougeW_gives_zero_instead_of_perl_crash():
    # The Perl dies "Illegal division by zero" (X47); we score that reference 0.
    s = RougeScorer(["rouge1", "rougeW-1.2"]).score("a b", "...")
    assert s["rougeW-1.2"] == Score(0.0, 0.0, 0.0) and s["rouge1"] == Score(0.0, 0.0, 0.0)
    # with a second, real reference the empty one only adds to the pooled prediction count
    pooled = RougeScorer(["rougeW-1.2"]).score("a b", ["...", "a b"])["rougeW-1.2"]
    assert pooled.recall == 0.87055 and pooled.precision == pytest.approx(0.5 ** (1 / 1.2), abs=1e-5)


def test_corpus_result():
    scorer = RougeScorer(["rouge1"])
    preds, refs = ["a b", "c d", "a b c"], ["a b", "e f", "a b d e"]
    res = scorer.score_corpus(preds, refs)
    agg = res.aggregate["rouge1"]
    assert (agg.recall.mid, agg.recall.low, agg.recall.high) == (0.50067, 0.0, 1.0)     # X19
    assert (agg.precision.mid, agg.fmeasure.mid) == (0.55622, 0.52448)
    assert agg.recall.mean == pytest.approx(0.5)
    assert res.per_example[2]["rouge1"] == Score(0.66667, 0.5, 0.57143)
    assert res.statistics[2]["rouge1"] == [PairStats(2, 4, 3, 0.5)]
    assert res.signature.endswith("ci:95/1000|v:" + __version__)
    # ids change the resampling order ("10" sorts before "2") but not the per-example scores
    other = scorer.score_corpus(preds, refs, ids=["10", "2", "3"])
    assert other.per_example == res.per_example


def test_empty_corpus_gives_zeros():
    res = RougeScorer(["rouge1"]).score_corpus([], [])
    assert res.aggregate["rouge1"].recall.mid == 0.0 and res.per_example == []


def test_paper_flavor_corpus_mid_is_plain_mean():
    res = RougeScorer(["rouge1"], flavor="paper").score_corpus(["a b", "c d", "a b c"], ["a b", "e f", "a b d e"])
    assert res.aggregate["rouge1"].recall.mid == pytest.approx(0.5)


@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"rouge_types": ["rouge0"]}, ValueError, "rouge0"),
    ({"rouge_types": ["rougeW-0"]}, ValueError, "rougeW-0"),
    ({"rouge_types": ["rougeX"]}, ValueError, "rougeX"),
    ({"rouge_types": []}, ValueError, "rouge_types"),
    ({"rouge_types": 5}, TypeError, "rouge_types"),
    ({"flavor": "perl"}, ValueError, "flavor"),
    ({"multi_ref": "mean"}, ValueError, "multi_ref"),
    ({"alpha": 1.5}, ValueError, "alpha"),
    ({"alpha": "0.5"}, ValueError, "alpha"),
    ({"use_stemmer": "yes"}, TypeError, "use_stemmer"),
    ({"jackknife": 1}, TypeError, "jackknife"),
    ({"word_limit": 10, "byte_limit": 75}, ValueError, "word_limit and byte_limit"),
    ({"word_limit": -1}, ValueError, "word_limit"),
    ({"byte_limit": 7.5}, TypeError, "byte_limit"),
])
def test_bad_options(kwargs, error, pattern):
    kwargs.setdefault("rouge_types", ["rouge1"])
    with pytest.raises(error, match=pattern):
        RougeScorer(**kwargs)


@pytest.mark.parametrize("call, error, pattern", [
    (lambda s: s.score(5, "a"), TypeError, "prediction"),
    (lambda s: s.score("a", []), ValueError, "references is empty"),
    (lambda s: s.score("a", [None]), TypeError, r"references\[0\]"),
    (lambda s: s.score_corpus("abc", ["a"]), TypeError, "predictions"),
    (lambda s: s.score_corpus(["a"], ["a", "b"]), ValueError, "differ in length"),
    (lambda s: s.score_corpus(["a"], ["a"], n_bootstrap=0), ValueError, "n_bootstrap"),
    (lambda s: s.score_corpus(["a"], ["a"], confidence=101), ValueError, "confidence"),
    (lambda s: s.score_corpus(["a", "b"], ["a", "b"], ids=["1", "1"]), ValueError, "unique"),
    (lambda s: s.score_corpus(["a", "b"], ["a", []]), ValueError, r"references\[1\]"),
])
def test_bad_inputs(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call(RougeScorer(["rouge1"]))


def test_signature_records_options():
    sig = RougeScorer(["rouge1"], flavor="paper", remove_stopwords=True, byte_limit=75, alpha=0.2).signature(90, 100)
    assert sig == "flavor:paper|stem:no|stop:yes|limit:bytes:75|multi:max|jk:yes|alpha:0.2|ci:90/100|v:" + __version__
