"""Flavor rouge155 with lang= equals the real ROUGE-1.5.5.pl on the same tokens.

``tests/data/lang_goldens_perl.json.gz`` is written by ``tests/goldens/make_lang_goldens.py``: cases
in every XL-Sum language (unstemmed and stemmed), each line tokenized by the language's pipeline, each
distinct token mapped to an ASCII pseudo-word, the pseudo-word texts scored by the real Perl under
several profiles.  Here the *original* texts go through ``RougeScorer(lang=L, use_stemmer=S, ...)``
and every per-case R, P, F (and, for the plain profiles, the system averages and confidence
intervals) must equal the Perl's printed numbers.  The stored pseudo-word texts are also checked
against today's tokenizer, so a tokenizer change cannot hide behind stale goldens.
"""
import functools
import gzip
import json
import os
import sys
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_perl_goldens import TOL, close, parse_options  # noqa: E402

from rouge_full_metric import RougeScorer, languages  # noqa: E402

GOLDENS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lang_goldens_perl.json.gz")
PROFILES = ["base", "best", "wlimit", "jackA", "flat", "skip9"]
MODULES = {"jieba": ["jieba"], "fugashi": ["fugashi", "unidic_lite"], "newmm": ["pythainlp"]}


@functools.lru_cache(maxsize=1)
def goldens():
    with gzip.open(GOLDENS, "rt", encoding="utf-8") as f:
        return json.load(f)


def available(lang):
    language = languages.resolve(lang)
    for module in MODULES.get(language.segmenter, []) + (["TurkishStemmer"] if language.stemmer == "turkish" else []):
        try:
            __import__(module)
        except ImportError:
            return False
    return True


def scorer_for(profile, lang, stem):
    gold = goldens()["profiles"][profile]
    kwargs, tags, _, _ = parse_options(gold["options"])
    if gold["flat"]:
        tags = {t: ("rougeL" if t == "ROUGE-L" else v) for t, v in tags.items()}
    # Stemming is ours, before the mapping; the Perl's -m (profile flat) leaves the pseudo-words
    # t<k> alone (no vowel for Porter; none is in the WordNet exceptions).
    assert not kwargs["remove_stopwords"]
    kwargs["use_stemmer"] = stem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = RougeScorer(sorted(set(tags.values())), lang=lang, jackknife=gold["jackknife"], **kwargs)
    return scorer, tags


def test_goldens_cover_every_language_and_profile():
    doc = goldens()
    assert sorted(doc["profiles"]) == sorted(PROFILES)
    langs = {c["lang"] for c in doc["cases"]}
    assert langs == set(languages.LANGUAGES), sorted(set(languages.LANGUAGES) - langs)
    assert sum(c["use_stemmer"] for c in doc["cases"]) > 300 and len(doc["cases"]) > 700
    for name, gold in doc["profiles"].items():
        assert len(gold["cases"]) >= 0.9 * len(doc["cases"]), name


def test_pseudo_words_match_todays_tokens():
    from goldens.make_lang_goldens import pseudo, tokenizer
    cases = [c for c in goldens()["cases"] if available(c["lang"])]
    assert cases
    for c in cases:
        mapped = pseudo([c["candidate"]] + c["references"], tokenizer(c["lang"], c["use_stemmer"]))
        assert mapped == [c["mapped_candidate"]] + c["mapped_references"], c["id"]


@pytest.mark.parametrize("profile", PROFILES)
def test_per_case_scores_match_perl(profile):
    gold = goldens()["profiles"][profile]
    by_id = {c["id"]: c for c in goldens()["cases"]}
    bad, total, scorers = [], 0, {}
    for cid, want in gold["cases"].items():
        case = by_id[cid]
        if not available(case["lang"]):
            continue
        key = (case["lang"], case["use_stemmer"])
        if key not in scorers:
            scorers[key] = scorer_for(profile, *key)
        scorer, tags = scorers[key]
        got = scorer.score(case["candidate"], case["references"])
        for tag, triple in want.items():
            total += 1
            s = got[tags[tag]]
            if not all(close(g, w) for g, w in zip((s.recall, s.precision, s.fmeasure), triple)):
                bad.append("%s %s perl=%s got=%s" % (cid, tag, triple, (s.recall, s.precision, s.fmeasure)))
    assert total > 1000
    assert not bad, "%d of %d differ (tolerance %g):\n%s" % (len(bad), total, TOL, "\n".join(bad[:5]))


@pytest.mark.parametrize("profile", ["base", "wlimit"])
def test_system_scores_match_perl(profile):
    """The Perl saw the cases it scored as EVAL IDs 1..N in file order: score_corpus on the same."""
    gold = goldens()["profiles"][profile]
    cases = [c for c in goldens()["cases"] if c["id"] in gold["cases"]]
    if not all(available(c["lang"]) for c in cases):
        pytest.skip("a segmenter is not installed")
    # one scorer per (lang, stem) cannot score one corpus: score per example, aggregate once
    from rouge_full_metric.corpus import examples_aggregate

    per_example = []
    for c in cases:
        scorer, tags = scorer_for(profile, c["lang"], c["use_stemmer"])
        per_example.append(scorer.score(c["candidate"], c["references"]))
    scorer, tags = scorer_for(profile, "english", False)
    keys = ["%d.s" % (k + 1) for k in range(len(cases))]
    aggregate = examples_aggregate(scorer, per_example, keys, 95, 1000)
    for tag, want in gold["system"].items():
        agg = aggregate[tags[tag]]
        for key, stat in (("R", agg.recall), ("P", agg.precision), ("F", agg.fmeasure)):
            assert abs(stat.mid - want[key]) <= TOL, (tag, key, stat, want)
            assert abs(stat.low - want[key + "_ci"][0]) <= TOL and abs(stat.high - want[key + "_ci"][1]) <= TOL
