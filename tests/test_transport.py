"""Issue 18 (findings 1 and 4) and issue 19: a scorer is its options wherever it travels.

Every flavor, with and without ``lang`` (zh, th: compiled segmenters holding PyCapsules; ja, hi),
goes through pickle, dill (a lambda closing over the scorer, as ``multiprocess`` and
``datasets.map`` ship it), ``copy``, ``deepcopy``, spawn pools of ``multiprocess`` and
``multiprocessing``, a fork pool and ``datasets.Dataset.map(num_proc=2)``; the scores are those
of the scorer in this process, and no payload holds a function or a capsule.  The spawn pools are
the slow part: one pool of each kind scores every configuration.
"""
import copy
import importlib
import multiprocessing
import os
import pickle
import pickletools
import subprocess
import sys
import textwrap

import pytest

from rouge_full_metric import RougeScorer
from rouge_full_metric.batch import compiled_scorer

# the texts mix scripts on purpose: the ASCII tokenizers lose some of them
pytestmark = pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PAIRS = [
    ("police killed the gunman\nthe gunmen were running", ["police kill the gunman", "gunman ran away quickly"]),
    ("我们在北京大学学习中文。\n今天天气很好", ["我们在清华大学学习", "今天天气不错"]),
    ("สวัสดีครับ วันนี้อากาศดีมาก", ["สวัสดีค่ะ วันนี้อากาศดี"]),
    ("今日は東京で会議がありました。", ["東京で会議がありました", "今日は会議です"]),
    ("भारत एक विशाल देश है और लोग खेलते हैं", ["भारत विशाल देशों में है", "लोग खेल रहे हैं"]),
]

ALL_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]
RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
LANGS = [None, "zh", "th", "ja", "hi"]

# Every flavor with every lang it takes; the stemming / stop-word variants change the pipeline
# (the Perl's stemmer tables, NLTK's stemmer, a language's stemmer).
CONFIGS = (
    [dict(flavor="rouge155", rouge_types=ALL_TYPES, lang=lang) for lang in LANGS]
    + [dict(flavor="rouge155", rouge_types=ALL_TYPES, use_stemmer=True, remove_stopwords=True),
       dict(flavor="rouge155", rouge_types=ALL_TYPES, lang="hi", use_stemmer=True, word_limit=6)]
    + [dict(flavor="paper", rouge_types=ALL_TYPES, lang=lang) for lang in LANGS]
    + [dict(flavor="paper", rouge_types=ALL_TYPES, use_stemmer=True, multi_ref="max_rp")]
    + [dict(flavor="rouge_score", rouge_types=RS_TYPES),
       dict(flavor="rouge_score", rouge_types=RS_TYPES, use_stemmer=True)]
    + [dict(flavor="matlab", rouge_types=["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"])]
    + [dict(flavor="xlsum", rouge_types=RS_TYPES, lang=lang) for lang in LANGS]
    + [dict(flavor="xlsum", rouge_types=RS_TYPES, lang=lang, use_stemmer=True) for lang in (None, "hi")]
)


def _id(options):
    return "-".join(["%s" % k for k, v in options.items() if v is True] +
                    [str(options[k]) for k in ("flavor", "lang", "multi_ref", "word_limit") if options.get(k) is not None])


def _score_all(scorer):
    return [scorer.score(p, r) for p, r in PAIRS]


def _same(a, b) -> bool:
    """Equal bit for bit, NaN included (flavor matlab returns NaN; nan != nan): reprs of floats
    round-trip exactly."""
    return repr(a) == repr(b)


@pytest.fixture(scope="module")
def scorers():
    """(options, scorer, its in-process scores), the scorers used (engines built) before they travel."""
    out = []
    for options in CONFIGS:
        scorer = RougeScorer(**options)
        out.append((options, scorer, _score_all(scorer)))
        scorer.score_batch([p for p, _ in PAIRS], [r for _, r in PAIRS])   # the compiled engine too
    return out


def _globals(payload: bytes):
    """The (module, name) of every global a pickle payload refers to."""
    out, strings = [], []
    for op, arg, _ in pickletools.genops(payload):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(arg)
        elif op.name == "STACK_GLOBAL":
            out.append((strings[-2], strings[-1]))
        elif op.name == "GLOBAL":
            out.append(tuple(arg.split(" ", 1)))
    return out


def _assert_options_only(payload: bytes):
    assert b"PyCapsule" not in payload and b"capsule" not in payload.lower()
    for module, name in _globals(payload):
        obj = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
        assert isinstance(obj, type), "the payload refers to %s.%s, a %s" % (module, name, type(obj).__name__)


# ----------------------------------------------------------------------------- in this process


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[_id(o) for o in CONFIGS])
def test_pickle_copy_deepcopy_and_dill_rebuild_from_options(scorers, index):
    dill = pytest.importorskip("dill")
    options, scorer, expected = scorers[index]
    payload = pickle.dumps(scorer)
    _assert_options_only(payload)
    clones = [pickle.loads(payload), copy.copy(scorer), copy.deepcopy(scorer), dill.loads(dill.dumps(scorer))]
    # as multiprocess and datasets ship a function: dill by value, the scorer in its closure
    shipped = dill.loads(dill.dumps(lambda: _score_all(scorer)))
    assert b"PyCapsule" not in dill.dumps(lambda: _score_all(scorer))
    for clone in clones:
        assert clone is not scorer and clone.signature() == scorer.signature()
        assert clone.__getstate__() == scorer.__getstate__()
        assert _same(_score_all(clone), expected)
        assert _same(clone.score_batch([p for p, _ in PAIRS], [r for _, r in PAIRS]), expected)
        # nothing built is shared: each clone builds its own readers and engine
        assert clone._readers() is not scorer._readers()
        assert compiled_scorer(clone) is None or compiled_scorer(clone) is not compiled_scorer(scorer)
    assert _same(shipped(), expected)
    with pytest.raises(AttributeError):
        clones[0].flavor = "paper"   # still read-only after unpickling


def test_state_is_the_options():
    scorer = RougeScorer(["rouge1", "rougeW"], flavor="paper", lang="zh", use_stemmer=True)
    assert scorer.__getstate__() == dict(rouge_types=["rouge1", "rougeW"], flavor="paper", use_stemmer=True,
                                         remove_stopwords=False, word_limit=None, byte_limit=None,
                                         multi_ref="max", jackknife=True, alpha=0.5, tokenizer=None,
                                         lang="chinese")


def test_unpickling_revalidates():
    state = RougeScorer(["rouge1"], flavor="rouge_score").__getstate__()
    clone = RougeScorer.__new__(RougeScorer)
    with pytest.raises(ValueError, match="lang is not an option of flavor 'rouge_score'"):
        clone.__setstate__(dict(state, lang="zh"))


def test_compiled_objects_refuse_to_be_copied():
    from rouge_full_metric import compiled

    dill = pytest.importorskip("dill")
    if not compiled.AVAILABLE:
        pytest.skip("compiled core not built")
    cs = compiled_scorer(RougeScorer(["rouge1"], lang="th"))
    for obj in (cs.engine, cs.engine.worker()):
        for dumps in (pickle.dumps, dill.dumps, copy.copy, copy.deepcopy):
            with pytest.raises(TypeError, match="cannot pickle"):
                dumps(obj)


def test_compiled_segmenters_travel_as_their_name():
    from rouge_full_metric import native_segmenters, segmenters

    dill = pytest.importorskip("dill")
    for name, language, text in (("jieba", "chinese", "我们在北京大学学习"), ("newmm", "thai", "สวัสดีครับวันนี้")):
        segment = segmenters.get(name, language)
        if not isinstance(segment, native_segmenters.CompiledSegmenter):
            continue   # the package's own Python: nothing compiled to guard
        for payload in (pickle.dumps(segment), dill.dumps(segment)):
            assert b"PyCapsule" not in payload
            assert pickle.loads(payload) is segment          # rebuilt = this process's one
        assert copy.copy(segment) is segment and copy.deepcopy(segment) is segment
        assert dill.loads(dill.dumps(segment))(text) == segment(text)


# ----------------------------------------------------------------------------- other processes


def _child_scores(scorer):
    return _score_all(scorer)


def test_spawn_and_fork_pools(scorers):
    multiprocess = pytest.importorskip("multiprocess")
    expected = [e for _, _, e in scorers]
    every = [s for _, s, _ in scorers]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert _same(pool.map(_child_scores, every, chunksize=4), expected)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert _same(pool.map(_child_scores, every, chunksize=4), expected)
    # multiprocess ships the lambda (and the scorers in its closure) with dill
    with multiprocess.get_context("spawn").Pool(2) as pool:
        assert _same(pool.map(lambda k: _score_all(every[k]), range(len(every)), chunksize=4), expected)


def _batch_in_threads(scorer):
    predictions = [p for p, _ in PAIRS] * 60
    references = [r for _, r in PAIRS] * 60
    return scorer.score_batch(predictions, references, n_jobs=2)


def test_fork_after_threads():
    # A child forked after the parent scored with n_jobs=2 used to inherit the parent's thread
    # pool without its threads and wait forever.
    scorer = RougeScorer(["rouge1", "rougeL"])
    expected = _batch_in_threads(scorer)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        result = pool.map_async(_batch_in_threads, [scorer])
        try:
            got = result.get(timeout=60)
        except multiprocessing.TimeoutError:
            pool.terminate()
            pytest.fail("score_batch(n_jobs=2) hung in a forked child")
    assert got == [expected]


def test_datasets_map_with_num_proc(scorers):
    datasets = pytest.importorskip("datasets")
    chosen = [(o, s) for o, s, _ in scorers if o.get("lang") in ("zh", "th") or o["flavor"] == "xlsum"]
    data = datasets.Dataset.from_dict({"prediction": [p for p, _ in PAIRS] * 2,
                                       "references": [r for _, r in PAIRS] * 2})

    def add_scores(row):
        return {"f%d" % k: [s.score(p, r)["rouge1"].fmeasure for p, r in zip(row["prediction"], row["references"])]
                for k, (_, s) in enumerate(chosen)}

    datasets.disable_progress_bars()
    out = data.map(add_scores, batched=True, batch_size=2, num_proc=2, load_from_cache_file=False)
    for k, (_, scorer) in enumerate(chosen):
        assert _same(list(out["f%d" % k]), [scorer.score(p, r)["rouge1"].fmeasure for p, r in PAIRS] * 2)


_TEXT = "我们在北京大学学习。สวัสดีครับ วันนี้อากาศดี"
# (lang, flavor) whose pipelines hold the compiled segmenters (jieba, newmm)
_CAPSULE_CASES = [("zh", "rouge155"), ("th", "rouge155"), ("zh", "xlsum"), ("th", "paper")]

_DILL_SAME_PROCESS = textwrap.dedent("""
    import dill
    from rouge_full_metric import RougeScorer
    text = %r
    for lang, flavor in %r:
        scorer = RougeScorer(["rouge1", "rougeL"], flavor=flavor, lang=lang)
        expected = scorer.score(text, [text[:12]])
        clone = dill.loads(dill.dumps(scorer))
        assert clone.score(text, [text[:12]]) == expected
        del clone, scorer      # both copies freed: one C model, freed once
    print("ok")
""" % (_TEXT, _CAPSULE_CASES))

_DILL_PAYLOAD = textwrap.dedent("""
    import sys, dill
    from rouge_full_metric import RougeScorer
    text = %r

    def closure(scorer, text):   # the scorer travels in the lambda's closure cells
        scorer.score(text, [text[:12]])
        return lambda: scorer.score(text, [text[:12]])["rouge1"].fmeasure

    sys.stdout.buffer.write(dill.dumps([closure(RougeScorer(["rouge1"], flavor=flavor, lang=lang), text)
                                        for lang, flavor in %r]))
""" % (_TEXT, _CAPSULE_CASES))

_DILL_OTHER_PROCESS = textwrap.dedent("""
    import sys, dill
    print(repr([score() for score in dill.loads(sys.stdin.buffer.read())]))
""")


def test_dill_never_aliases_a_compiled_segmenter():
    # Before issue 19 the same process aborted (a double free, exit 134) once both copies were
    # freed, and another process crashed (SIGSEGV) on the first score: dill copied the compiled
    # segmenter's capsule pointer out of the scorer's tokenizer closures.
    pytest.importorskip("dill")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    same = subprocess.run([sys.executable, "-c", _DILL_SAME_PROCESS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert same.returncode == 0 and same.stdout.strip() == "ok", (same.returncode, same.stderr[-2000:])
    payload = subprocess.run([sys.executable, "-c", _DILL_PAYLOAD], cwd=ROOT, env=env, capture_output=True,
                             timeout=120)
    assert payload.returncode == 0, payload.stderr[-2000:]
    assert b"PyCapsule" not in payload.stdout
    other = subprocess.run([sys.executable, "-c", _DILL_OTHER_PROCESS], cwd=ROOT, env=env, input=payload.stdout,
                           capture_output=True, timeout=120)
    assert other.returncode == 0, (other.returncode, other.stderr[-2000:])
    expected = [RougeScorer(["rouge1"], flavor=flavor, lang=lang).score(_TEXT, [_TEXT[:12]])["rouge1"].fmeasure
                for lang, flavor in _CAPSULE_CASES]
    assert other.stdout.decode().strip() == repr(expected)
