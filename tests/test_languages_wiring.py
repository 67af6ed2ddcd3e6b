"""lang= through every entry point (evaluate metric, CLI, Space) and the no-silent-zeros warning."""
import importlib.util
import io
import warnings
from pathlib import Path

import pytest

from rouge_full_metric import RougeScorer
from rouge_full_metric.cli import main
from rouge_full_metric.lost_text import LostTextWarning, loses_letters

CARD = Path(__file__).resolve().parent.parent / "card"
ZH_P, ZH_R = "北京今天下雨了。", "今天北京下雨。"


def lost_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [w for w in caught if issubclass(w.category, LostTextWarning)]


# ------------------------------------------------------------------------- no silent zeros
@pytest.mark.parametrize("flavor", ["rouge155", "paper", "rouge_score"])
def test_every_ascii_flavor_warns_once_per_call_naming_the_fix(flavor):
    scorer = RougeScorer(["rouge1"], flavor=flavor)
    _, caught = lost_warnings(lambda: scorer.score_corpus([ZH_P, "Москва", "a b"], [ZH_R, "Москва", "a b"]))
    assert len(caught) == 1
    assert "lang='zh'" in str(caught[0].message) and "predictions[0]" in str(caught[0].message)
    _, caught = lost_warnings(lambda: scorer.score_batch(["a b", "a"], ["a b", "Москва сегодня"]))
    assert len(caught) == 1 and "lang='ru'" in str(caught[0].message) and "references[1] " in str(caught[0].message)
    _, caught = lost_warnings(lambda: scorer.score(ZH_P, [ZH_R]))
    assert len(caught) == 1


def test_no_warning_when_letters_survive():
    _, caught = lost_warnings(lambda: RougeScorer(["rouge1"]).score_batch(
        ["Café au lait, naïve résumé", "!!! ...", ""], ["a", "b", "c"]))
    assert not caught
    pytest.importorskip("jieba")
    for flavor in ("rouge155", "paper", "xlsum"):
        _, caught = lost_warnings(lambda: RougeScorer(["rouge1"], flavor=flavor, lang="zh").score(ZH_P, ZH_R))
        assert not caught


def test_loses_letters_threshold():
    assert loses_letters("北京今天 abc")      # 3 of 7 letters kept
    assert not loses_letters("北京 abc")      # 3 of 5 kept
    assert loses_letters(["ok", "Москва сегодня"]) and loses_letters("Москва".encode())


def _loses_letters_by_count(text, unicode_lower):
    """loses_letters without its bound: the two counts, as the docstring defines them."""
    import re

    head = text[:2000]
    total = len(re.findall(r"[^\W_]", head))
    kept = len(re.findall(r"[A-Za-z0-9]", head.lower() if unicode_lower else head))
    return total > 0 and 2 * kept < total


def test_loses_letters_bound_never_changes_the_answer():
    # the C-speed bound may only say "no" where the counts say "no": mixed scripts near the
    # threshold, punctuation-only non-ASCII, the Kelvin sign and U+0130, texts past the 2,000
    # characters looked at
    import random

    rng = random.Random(17)
    pieces = ["abc", "a", "7", " ", "“", "”", "—", "’", "é", "İ", "\u212a", "北京", "Москва", "ß", "_", "…", "١٢"]
    checked = lost = 0
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        if rng.random() < 0.01:
            text = text * 300
        for unicode_lower in (False, True):
            want = _loses_letters_by_count(text, unicode_lower)
            assert loses_letters(text, unicode_lower) == want, (text, unicode_lower)
            checked += 1
            lost += want
    assert checked == 40000 and 5000 < lost < 35000


# ---------------------------------------------------------------------------- evaluate metric
def test_evaluate_metric_takes_lang_at_load_and_compute():
    pytest.importorskip("evaluate")
    pytest.importorskip("jieba")
    from rouge_full_metric.rouge_full_metric import RougeFullMetric

    metric = RougeFullMetric(rouge_types=["rouge1"])
    result, caught = lost_warnings(lambda: metric.compute(predictions=[ZH_P], references=[ZH_R]))
    assert result["rouge1"] == 0.0 and len(caught) == 1
    assert metric.compute(predictions=[ZH_P], references=[ZH_R], lang="zh")["rouge1"] == 0.85714
    loaded = RougeFullMetric(rouge_types=["rouge1"], lang="chinese_simplified", flavor="xlsum")
    assert loaded.compute(predictions=[ZH_P], references=[ZH_R])["rouge1"] == pytest.approx(6 / 7, abs=1e-15)
    assert "|lang:chinese|pkgs:jieba-" in loaded.signature()
    with pytest.raises(ValueError, match="lang='xx'"):
        metric.compute(predictions=[ZH_P], references=[ZH_R], lang="xx")


# ------------------------------------------------------------------------------------------ CLI
def run_cli(tmp_path, *extra):
    (tmp_path / "p.txt").write_text(ZH_P + "\nthe cat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text(ZH_R + "\nthe cat sat\n", encoding="utf-8")
    out, err = io.BytesIO(), io.StringIO()
    status = main(["score", "-p", str(tmp_path / "p.txt"), "-r", str(tmp_path / "r.txt"), "--rouge-types",
                   "rouge1", "-q", "--format", "json"] + list(extra), stdout=out, stderr=err)
    return status, out.getvalue().decode(), err.getvalue()


def test_cli_warns_and_lang_fixes_it(tmp_path):
    status, out, err = run_cli(tmp_path)
    assert status == 0 and err.count("rouge-full: warning:") == 1 and "--lang 'zh'" in err
    pytest.importorskip("jieba")
    status, out, err = run_cli(tmp_path, "--lang", "zh")
    assert status == 0 and "warning" not in err and "lang:chinese" in out
    status, out, err = run_cli(tmp_path, "--lang", "klingon")
    assert status == 2 and "--lang='klingon' is not one of XL-Sum's 45 languages" in err


# ---------------------------------------------------------------------------------------- Space
def test_space_form_has_lang_and_shows_the_warning():
    pytest.importorskip("evaluate")
    spec = importlib.util.spec_from_file_location("rouge_space_app_lang", str(CARD / "app.py"))
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    assert len(app.lang_choices()) == 46 and "xlsum" in app.FLAVORS
    from rouge_full_metric.rouge_full_metric import RougeFullMetric

    metric = RougeFullMetric()
    options = app.options_from_form(["rouge1"], "rouge155", False, False, "flavor default", "flavor default",
                                    "newline", True, False, lang=app.NO_LANG)
    assert "lang" not in options
    result, signature, notes = app.score_with_notes(metric, [ZH_P], [ZH_R], options)
    assert result["rouge1"] == 0.0 and len(notes) == 1 and "lang='zh'" in notes[0]
    pytest.importorskip("jieba")
    options = app.options_from_form(["rouge1"], "rouge155", False, False, "flavor default", "flavor default",
                                    "newline", True, False, lang="chinese_simplified")
    result, signature, notes = app.score_with_notes(metric, [ZH_P], [ZH_R], options)
    assert result["rouge1"] == 0.85714 and notes == [] and "lang:chinese" in signature
