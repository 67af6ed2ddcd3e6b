"""score_batch / score_examples with n_jobs > 1 give exactly the n_jobs=1 results (issue 21).

The compiled core scores a batch on the calling thread and helpers sharing one Engine.batch
(csrc/parallel.c: chunks sized by bytes, taken from a shared counter); scorers that tokenize in
Python share chunks of examples through batch._run_chunks.  Either way the results are the
single-thread ones, in input order, statistics included, for every flavor, language path,
multi-reference layout and batch size around the chunking thresholds; errors come out of the
call whichever thread met them.
"""
import os
import random
import sys
import threading
import warnings

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xlsum_texts  # noqa: E402

from rouge_full_metric import RougeScorer, batch, compiled, thread_pool  # noqa: E402
from rouge_full_metric.batch import compiled_scorer, score_batch, score_examples, score_table, value_table  # noqa: E402

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled core is not built")


@pytest.fixture(autouse=True)
def many_cpus(monkeypatch):
    """n_jobs starts no more threads than the process has CPUs; these tests run 3-5 threads on
    whatever machine runs them (the paths of several helpers)."""
    monkeypatch.setattr(batch, "_available_cpus", lambda: 64)

VOCAB = ["w%d" % i for i in range(300)] + ["running", "runs", "the", "of", "Über", "naïve", "東京"]


def _text(rng, lo, hi):
    words = [rng.choice(VOCAB) for _ in range(rng.randint(lo, hi))]
    cuts = sorted(rng.sample(range(len(words) + 1), min(3, len(words) + 1)))
    return "\n".join(" ".join(words[a:b]) for a, b in zip([0] + cuts, cuts + [len(words)]) if b > a) or "x"


def _batch(seed, count, lo=1, hi=80):
    """Predictions and references: one text, a list of 2-3, or a tuple; a few long examples
    among short ones, so that byte-sized chunks differ from example-counted ones."""
    rng = random.Random(seed)
    preds, refs = [], []
    for k in range(count):
        top = hi * 40 if rng.random() < 0.02 else hi
        preds.append(_text(rng, lo, top))
        shape = rng.random()
        if shape < 0.5:
            refs.append(_text(rng, lo, top))
        elif shape < 0.8:
            refs.append([_text(rng, lo, top) for _ in range(rng.randint(2, 3))])
        else:
            refs.append(tuple(_text(rng, lo, top) for _ in range(2)))
    return preds, refs


def _same(scorer, preds, refs, jobs=(2, 3, -1)):
    want_scores, want_stats = score_examples(scorer, preds, refs, n_jobs=1)
    want_table = repr(value_table(scorer, want_scores).tolist())
    assert repr(score_table(scorer, preds, refs).tolist()) == want_table
    for n_jobs in jobs:
        got_scores, got_stats = score_examples(scorer, preds, refs, n_jobs=n_jobs)
        # repr: NaN == NaN there, and every digit counts
        assert repr(got_scores) == repr(want_scores), n_jobs
        assert repr(got_stats) == repr(want_stats), n_jobs
        assert repr(score_batch(scorer, preds, refs, n_jobs=n_jobs)) == repr(want_scores), n_jobs
        # the threads writing the scores into a table (the metric's and mean_scores' path)
        assert repr(score_table(scorer, preds, refs, n_jobs=n_jobs).tolist()) == want_table, n_jobs
    return want_scores


PERL = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
RS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

CONFIGS = {
    "rouge155": dict(rouge_types=PERL),
    "rouge155_stem_stop": dict(rouge_types=PERL, use_stemmer=True, remove_stopwords=True),
    "rouge155_limits_best_jackknife": dict(rouge_types=PERL, word_limit=30, multi_ref="best", jackknife=True),
    "rouge155_byte_limit_alpha": dict(rouge_types=PERL, byte_limit=150, alpha=0.2, multi_ref="max"),
    "paper": dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4"], flavor="paper",
                  multi_ref="max_rp"),
    "rouge_score": dict(rouge_types=RS, flavor="rouge_score"),
    "rouge_score_stem": dict(rouge_types=RS, flavor="rouge_score", use_stemmer=True),
    "xlsum": dict(rouge_types=RS, flavor="xlsum"),
    "xlsum_stem": dict(rouge_types=RS, flavor="xlsum", use_stemmer=True),
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_flavor_gives_the_single_thread_results(config):
    preds, refs = _batch(1, 700)
    scorer = RougeScorer(**CONFIGS[config])
    want = _same(scorer, preds, refs)
    assert len(want) == 700


LANGS = {"hindi": None, "russian": None, "chinese": "jieba", "thai": "pythainlp"}


@pytest.mark.parametrize("options", [dict(), dict(use_stemmer=True), dict(word_limit=9), dict(flavor="xlsum")],
                         ids=["plain", "stem", "word_limit", "xlsum"])
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_every_language_path_gives_the_single_thread_results(lang, options):
    if LANGS[lang]:
        pytest.importorskip(LANGS[lang])
    pairs = xlsum_texts.pairs(lang, 300, seed=5)
    preds = [p for p, _ in pairs]
    refs = [[r, p[::-1]] if k % 4 == 0 else r for k, (p, r) in enumerate(pairs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = RougeScorer(RS + ["rougeW-1.2"] if options.get("flavor") != "xlsum" else RS, lang=lang, **options)
        assert compiled_scorer(scorer) is not None
        _same(scorer, preds, refs, jobs=(2,))


@pytest.mark.parametrize("count", [0, 1, batch._PARALLEL_MIN - 1, batch._PARALLEL_MIN, batch._PARALLEL_MIN + 1,
                                   batch._CHUNK + 1, 3000])
def test_every_batch_size_in_input_order(count):
    preds, refs = _batch(count, count)
    scorer = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score")
    want = _same(scorer, preds, refs, jobs=(2, 5))
    # each example on its own: the order is the input's
    for k in range(0, count, max(1, count // 25)):
        assert want[k] == scorer.score(preds[k], refs[k])


def test_long_and_empty_examples_mixed():
    """A few examples hundreds of times bigger than the rest, empty texts and whitespace: chunks
    are cut by bytes, so one chunk may hold a single example."""
    rng = random.Random(4)
    preds, refs = _batch(3, 400)
    for k in rng.sample(range(400), 8):
        preds[k] = _text(rng, 20000, 30000)
    for k in rng.sample(range(400), 8):
        preds[k] = rng.choice(["", " ", "\n\n"])
        refs[k] = rng.choice(["", "w1", ["", "w2 w3"]])
    _same(RougeScorer(PERL), preds, refs)
    _same(RougeScorer(RS, flavor="rouge_score"), preds, refs)


@pytest.mark.parametrize("head", [None, 1], ids=["whole_batch_first", "one_example_first"])
def test_inputs_the_core_rejects_give_the_single_thread_answer(head):
    """The core refuses a batch it cannot read; the chunks then go through the Python path,
    which scores them or raises the indexed error n_jobs=1 raises.  With a one-example head,
    the texts are refused in the caller's run(), the helpers at work: they stop, and the
    scorer's Workers still serve the next call."""
    old = compiled.core._set_batch_head(head) if head else None
    try:
        preds, refs = _batch(6, 300, hi=20)
        scorer = RougeScorer(["rouge1", "rougeL"])
        preds_bytes = [p.encode("utf-8") if k % 7 == 0 else p for k, p in enumerate(preds)]
        _same(scorer, preds_bytes, refs)
        bad = list(preds)
        bad[250] = 17
        _same_error(TypeError, scorer, bad, refs)
        empty_refs = list(refs)
        empty_refs[100] = []
        _same_error(ValueError, scorer, preds, empty_refs)
        assert _same(scorer, preds, refs, jobs=(2,))
    finally:
        if old:
            compiled.core._set_batch_head(old)


@pytest.fixture
def small_head():
    """Engine.batch reads about one example before its helpers start (not 512 KiB of text per
    thread): the caller reads the rest after its first chunk, while helpers wait for it."""
    old = compiled.core._set_batch_head(1)
    yield
    compiled.core._set_batch_head(old)


@pytest.mark.parametrize("config", ["rouge155_stem_stop", "rouge_score", "xlsum"])
def test_the_texts_after_the_head_give_the_single_thread_results(config, small_head):
    preds, refs = _batch(11, 500)
    _same(RougeScorer(**CONFIGS[config]), preds, refs, jobs=(2, 4))


def test_a_helper_waits_for_the_texts_the_caller_has_not_read(small_head):
    """A helper that has taken the head waits for the rest, which only the caller reads (it
    needs the GIL); the caller, finding the head taken, reads the rest before its first chunk."""
    cs = compiled_scorer(RougeScorer(["rouge1", "rougeL"], flavor="rouge_score"))
    preds, refs = _batch(12, 400)
    bt = cs.engine.batch(preds, refs, 0, len(preds), True, 2)
    helper_worker = cs.acquire()
    assert bt.join(helper_worker)
    thread = threading.Thread(target=bt.work, args=(helper_worker,))
    thread.start()
    thread.join(0.3)
    assert thread.is_alive()   # the head scored, the rest unread: waiting
    got = bt.run(cs.acquire())
    thread.join(10)
    assert not thread.is_alive()
    assert bt.collect() == [helper_worker]
    want = score_examples(RougeScorer(["rouge1", "rougeL"], flavor="rouge_score"), preds, refs)
    assert repr(got) == repr(want)


def test_a_batch_gives_the_collector_nothing_of_its_texts_to_visit():
    """The texts a batch holds (and its snapshot tuples of reference lists) are untracked: alive
    until the call returns, they made its first young-generation collection visit every text."""
    import gc
    cs = compiled_scorer(RougeScorer(["rouge1"], flavor="rouge_score"))
    preds, refs = _batch(13, 300)
    listed = [k for k, r in enumerate(refs) if isinstance(r, list)]
    bt = cs.engine.batch(preds, refs, 0, len(preds), False, 2)
    for k in (0, 150, 299):
        assert gc.get_referrers(preds[k]) == [preds]
    for k in listed[:5]:
        assert [type(o) for o in gc.get_referrers(refs[k][0])] == [list]   # refs[k] itself
    assert len(bt.run(cs.acquire())[0]) == 300


def _same_error(error_type, scorer, preds, refs):
    """n_jobs=2 raises error_type with n_jobs=1's message."""
    for n_jobs in (1, 2):
        for call in (score_batch, score_table):
            with pytest.raises(error_type) as error:
                call(scorer, preds, refs, n_jobs=n_jobs)
            if n_jobs == 1 and call is score_batch:
                message = str(error.value)
            assert str(error.value) == message, (n_jobs, call)


def test_a_batch_with_a_table_checks_it_and_lets_it_go():
    """Engine.batch's table (score_table's path): float64, one row of types x 3 per example, no
    statistics; a refused table, and one whose batch is over, is not held (array.array refuses
    to grow while its buffer is)."""
    import array

    scorer = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score")
    cs = compiled_scorer(scorer)
    preds, refs = _batch(14, 100)
    table = array.array("d", bytes(8 * 6 * 100))
    with pytest.raises(ValueError, match="without statistics"):
        cs.engine.batch(preds, refs, 0, 100, True, 2, table)
    with pytest.raises(ValueError, match="table: 4800 bytes for 100 examples x 2 types x 3 float64, got 4792"):
        cs.engine.batch(preds, refs, 0, 100, False, 2, array.array("d", bytes(8 * 599)))
    with pytest.raises(ValueError, match="table: 480 bytes for 10 examples"):
        cs.engine.batch(preds, refs, 10, 20, False, 2, table)
    with pytest.raises(TypeError, match="float64"):
        cs.engine.batch(preds, refs, 0, 100, False, 2, array.array("f", bytes(4 * 600)))
    with pytest.raises(TypeError, match="float64"):
        cs.engine.batch(preds, refs, 0, 100, False, 2, bytearray(8 * 600))
    table.append(0.0)   # not held by a refused batch
    table.pop()
    bt = cs.engine.batch(preds, refs, 0, 100, False, 2, table)
    with pytest.raises(BufferError):
        table.append(0.0)   # held while the batch may write it
    assert bt.run(cs.acquire()) == (None, None)
    want = value_table(scorer, score_batch(scorer, preds, refs))
    assert list(table) == want.ravel().tolist()
    del bt
    table.append(0.0)
    # an empty batch's empty table: written by nobody, let go all the same
    empty = array.array("d")
    bt = cs.engine.batch(preds, refs, 0, 0, False, 2, empty)
    assert bt.run(cs.acquire()) == (None, None)
    del bt
    empty.append(0.0)   # let go with the batch
    empty.pop()
    assert cs.run(preds, refs, 0, 0, False, None, empty) is None
    empty.append(0.0)   # and by Worker.run


def _raising_engine(bad_token):
    """A compiled scorer whose Python token filter (called on a token's first sight) raises on
    one token: an error from inside phase 2, on whichever thread scores it."""
    from rouge_full_metric.scoring import PairStats, Score

    def token_filter(token):
        if token == bad_token:
            raise RuntimeError("filter failed on " + token)
        return token

    types = [("rouge1", "N", 1, 1.0, -1, False)]
    engine = compiled.core.Engine("rouge155", types, 0, 0, "average", False, 0.5, token_filter, Score, PairStats,
                                  None)
    return batch._CompiledScorer(engine)


def test_an_error_in_a_helper_thread_comes_out_of_the_call():
    cs = _raising_engine("boom")
    preds = ["w%d w%d" % (k, k + 1) for k in range(2000)]
    refs = ["w%d" % k for k in range(2000)]
    # deterministic: the helper alone takes every chunk (the last one holds the bad token)
    preds[-1] = "boom"
    bt = cs.engine.batch(preds, refs, 0, len(preds), False, 2)
    errors = []

    helper_worker = cs.acquire()

    def helper():
        assert bt.join(helper_worker)
        try:
            bt.work(helper_worker)
        except RuntimeError as exc:
            errors.append(str(exc))

    thread = threading.Thread(target=helper)
    thread.start()
    thread.join()
    assert errors == ["filter failed on boom"]
    assert bt.run(cs.acquire()) is None   # the caller then leaves the error to the helper's future
    assert bt.collect() == [helper_worker]   # which the caller gives back to the pool
    assert not bt.join(cs.acquire())         # no helper joins after that
    # through the pool: whichever thread meets it, the call raises it
    with pytest.raises(RuntimeError, match="filter failed on boom"):
        batch._parallel_range(_raising_engine("boom"), preds, refs, 0, len(preds), False, 2)
    preds[0] = "boom"
    with pytest.raises(RuntimeError, match="filter failed on boom"):
        batch._parallel_range(_raising_engine("boom"), preds, refs, 0, len(preds), True, 3)


def test_the_cancel_byte_stops_a_run():
    """Worker.run and Batch.work stop when another thread has set the cancel byte (the caller
    sets it when Ctrl-C or an error stops it)."""
    cs = compiled_scorer(RougeScorer(["rougeL"], flavor="rouge_score"))
    preds, refs = _batch(8, 100)
    worker = cs.acquire()
    with pytest.raises(KeyboardInterrupt):
        worker.run(preds, refs, 0, len(preds), False, bytearray(b"\x01"))
    assert worker.run(preds, refs, 0, len(preds), False, bytearray(1))[0] == \
        score_batch(RougeScorer(["rougeL"], flavor="rouge_score"), preds, refs)
    bt = cs.engine.batch(preds, refs, 0, len(preds), False, 2)
    assert bt.join(worker)
    assert bt.collect() == []   # a helper still out keeps its Worker (the caller's run() raised)
    bt.stop()
    assert bt.work(worker) is None   # a helper stopped by the caller is quiet: the caller raises
    assert not bt.join(cs.acquire())   # and a stopped batch takes no more helpers
    with pytest.raises(RuntimeError, match="join"):
        bt.work(worker)   # once
    with pytest.raises(ValueError, match="cancel"):
        worker.run(preds, refs, 0, 1, False, bytearray())


def test_a_batch_runs_once_with_its_own_engine_workers():
    cs = compiled_scorer(RougeScorer(["rouge1"]))
    other = compiled_scorer(RougeScorer(["rouge2"]))
    bt = cs.engine.batch(["a b"] * 40, ["a c"] * 40, 0, 40, False, 2)
    with pytest.raises(TypeError, match="worker"):
        bt.run(other.acquire())
    scores, stats = bt.run(cs.acquire())
    assert stats is None and len(scores) == 40
    with pytest.raises(RuntimeError, match="already"):
        bt.run(cs.acquire())
    with pytest.raises(ValueError, match="threads"):
        cs.engine.batch(["a"], ["a"], 0, 1, False, 0)
    # no more threads than chunks of the minimum size (16 KiB of text)
    assert cs.engine.batch(["a b"] * 40, ["a c"] * 40, 0, 40, False, 8).threads() == 1
    assert cs.engine.batch(["a b " * 5000] * 40, ["a c"] * 40, 0, 40, False, 8).threads() == 8
    assert cs.engine.batch(["a b " * 5000] * 40, ["a c"] * 40, 0, 40, False, 2).threads() == 2


def _pin_threads(cpus):
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:   # a thread that ended meanwhile
            pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the same-CPU check is Linux's sched_getcpu")
def test_a_helper_on_the_callers_cpu_leaves_the_work_to_the_caller():
    """With one CPU for the process (the other busy elsewhere), a helper would only take turns
    with the caller and evict its caches: it waits instead, and the caller scores everything.
    (The threads are pinned to one CPU here, and the fixture hides that from n_jobs, which would
    otherwise start no helper at all: the test after this one.)"""
    preds, refs = _batch(9, 3000)
    scorer = RougeScorer(RS, flavor="rouge_score")
    want = score_batch(RougeScorer(RS, flavor="rouge_score"), preds, refs)
    before = os.sched_getaffinity(0)
    spare = compiled.core._spare_workers(0)   # new Workers, not parked ones with their memory
    _pin_threads({min(before)})
    try:
        got = score_batch(scorer, preds, refs, n_jobs=2)
    finally:
        _pin_threads(before)
        compiled.core._spare_workers(spare)
    assert got == want
    cs = compiled_scorer(scorer)
    for _ in range(100):   # the helper returns its Worker once it finds the batch done
        if len(cs._free) == 2:
            break
        threading.Event().wait(0.01)
    sizes = sorted((worker.vocabulary_size(), worker.front_cache_bytes()) for worker in cs._free)
    # the idle helper read no token and made no front cache (384 KB, ~0.2 ms in a new interpreter)
    assert len(sizes) == 2 and sizes[0] == (0, 0) and sizes[1][0] > 0, sizes


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_a_process_on_one_cpu_starts_no_helper(monkeypatch):
    """n_jobs is capped by the CPUs the process may run on (taskset, a container's cpuset):
    pinned to one CPU, n_jobs=2 and -1 score as n_jobs=1, with no helper thread."""
    monkeypatch.undo()   # the real CPU count
    preds, refs = _batch(14, 600)
    scorer = RougeScorer(RS, flavor="rouge_score")
    want = score_batch(scorer, preds, refs)
    started = []
    monkeypatch.setattr(thread_pool, "submit", lambda *args: started.append(args) or [])
    monkeypatch.setattr(batch, "_run_chunks", lambda *args, **kw: started.append(args) or [])
    before = os.sched_getaffinity(0)
    _pin_threads({min(before)})
    try:
        assert batch._check_n_jobs(2) == batch._check_n_jobs(-1) == 1
        assert score_batch(scorer, preds, refs, n_jobs=2) == want
        assert score_batch(scorer, preds, refs, n_jobs=-1) == want
    finally:
        _pin_threads(before)
    assert started == []
    assert batch._check_n_jobs(-1) == len(before) and batch._check_n_jobs(1000) == len(before)


def test_a_helper_returns_only_after_the_callers_run():
    """A helper returns to Python (its thread pool's code, which needs the GIL) only once the
    caller's run() is over: earlier, the caller waited for it while building its last results,
    and the young-generation collection that code set off over the new results ran on the
    helper's core, whose caches hold none of them.  The wait is bounded (a caller that never
    comes) and skipped by a stopped batch."""
    import time

    cs = compiled_scorer(RougeScorer(RS, flavor="rouge_score"))
    preds, refs = _batch(10, 400)

    def helper_returns(bt):
        """When bt.work returns on another thread (the helper alone scores the whole batch)."""
        returned = []

        def helper():
            worker = cs.acquire()
            if bt.join(worker):
                bt.work(worker)   # the caller gives the Worker back (collect)
            else:
                cs.release(worker)
            returned.append(time.monotonic())
        thread = threading.Thread(target=helper)
        thread.start()
        return thread, returned

    bt = cs.engine.batch(preds, refs, 0, len(preds), False, 2)
    thread, returned = helper_returns(bt)
    time.sleep(0.3)   # the helper has scored everything and waits
    assert not returned
    scores, _ = bt.run(cs.acquire())
    run_ended = time.monotonic()
    thread.join()
    assert returned[0] >= run_ended and len(scores) == 400
    assert len(bt.collect()) == 1

    started = time.monotonic()
    thread, returned = helper_returns(cs.engine.batch(preds, refs, 0, len(preds), False, 2))
    thread.join()   # nobody runs this batch: the helper gives up waiting after about a second
    assert 0.9 <= returned[0] - started < 30

    bt = cs.engine.batch(preds, refs, 0, len(preds), False, 2)
    bt.stop()
    started = time.monotonic()
    thread, returned = helper_returns(bt)
    thread.join()
    assert returned[0] - started < 0.9


def test_batches_back_to_back_keep_to_two_workers():
    """A helper done with its chunks returns through Python only when it gets the GIL, and a caller
    that starts the next batch at once holds it (here for sure: a switch interval of a second).
    Its Worker goes back to the pool with the caller's (Batch.collect), so the next batch's helper,
    on another pool thread, finds it there instead of starting a Worker with a cold token cache."""
    scorer = RougeScorer(RS, flavor="rouge_score")
    cs = compiled_scorer(scorer)
    preds, refs = _batch(11, 600)
    want = score_batch(scorer, preds, refs)
    made = []

    def counting_acquire():
        try:
            return cs._free.pop()
        except IndexError:
            made.append(1)
            return cs.engine.worker()

    cs._free.clear()
    cs.acquire = counting_acquire
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1.0)
    try:
        for _ in range(6):
            assert score_batch(scorer, preds, refs, n_jobs=2) == want
    finally:
        sys.setswitchinterval(interval)
        del cs.acquire
    assert len(made) == 2 and len(cs._free) == 2
