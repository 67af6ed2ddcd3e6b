"""Ctrl-C stops any call within a second (issue 18, finding 6).

Each case runs one long call in a child process (the source tree, compiled core), sends it SIGINT
half a second into the call and checks that KeyboardInterrupt comes out of that very call within
a second of the signal, and that the process then exits.  The inputs are sized so that the call
takes several seconds when nothing stops it: a call that ends before the signal fails the test
("finished"), as does one that holds the signal until it returns (the core before the periodic
signal checks: 3-10 s here).  Run with -s to see the latencies.
"""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from rouge_full_metric import compiled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = [
    pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled core is not built"),
    pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process"),
]

PRELUDE = r'''
import os, random, sys, time
sys.path.insert(0, os.getcwd())
from rouge_full_metric import RougeScorer, compiled
assert compiled.AVAILABLE
rng = random.Random(7)
VOCAB = ["w%d" % i for i in range(50)]
BIG = ["v%d" % i for i in range(100000)]   # past DENSE_MAX distinct tokens: blocked or hashed skip-bigrams
MID = BIG[:700]                            # up to DENSE_MAX: the dense skip-bigram tables
def text(n, vocab=VOCAB):
    return " ".join(rng.choice(vocab) for _ in range(n))
def one_example(scorer, a, refs):
    """call: the scorer on one example (small: its first 999 characters)."""
    global call
    def call(small):
        scorer.score(a[:999], [refs[0][:999]]) if small else scorer.score(a, refs)
'''

RUN = r'''
call(small=True)   # first touch (dictionaries, Engines) outside the timed call
print("ready", flush=True)
t0 = time.time()
try:
    call(small=False)
except KeyboardInterrupt:
    print("interrupted %.6f" % time.time(), flush=True)
    sys.exit(3)
print("finished after %.2f s" % (time.time() - t0), flush=True)
'''

TWO_HUGE = r'''
scorer = RougeScorer(["rougeL"], flavor="%s")
preds, refs = ["a b c"] * 300, ["a b d"] * 300
preds[0], refs[0], preds[256], refs[256] = text(600000), text(600000), text(600000), text(600000)
def call(small):
    scorer.score_batch(["a b c"] * 300 if small else preds, ["a b d"] * 300 if small else refs, n_jobs=2)
'''

CASES = {
    # one example, one sentence: the union LCS's back-trace table (lcs_marks, checkpointed)
    "rougeL_rouge155_one_example": r'''
scorer = RougeScorer(["rougeL"])
a, b = text(600000), text(600000)
one_example(scorer, a, [b])
''',
    # flavor rouge_score: the bit-parallel LCS length (lcs_length)
    "rougeL_rouge_score_one_example": r'''
scorer = RougeScorer(["rougeL"], flavor="rouge_score")
a, b = text(600000), text(600000)
one_example(scorer, a, [b])
''',
    # the weighted LCS, cell by cell (wlcs_marks)
    "rougeW_one_example": r'''
scorer = RougeScorer(["rougeW"])
a, b = text(25000), text(25000)
one_example(scorer, a, [b])
''',
    # a batch whose one example is long (the batch loop's own check runs between examples)
    "rougeL_batch_n_jobs_1": r'''
scorer = RougeScorer(["rougeL"], flavor="rouge_score")
preds = ["a b c"] * 10 + [text(600000)]
refs = ["a b d"] * 10 + [text(600000)]
def call(small):
    scorer.score_batch(preds[:2], refs[:2]) if small else scorer.score_batch(preds, refs)
''',
    # n_jobs=2: two huge examples 256 apart (a chunk each, however the batch is cut), so that
    # both threads are inside one when the signal comes; the one not running Python's signal
    # handlers stops by the batch's cancel byte, else it would score on (seconds) and hold the exit
    "rougeL_batch_n_jobs_2": TWO_HUGE % "rouge_score",
    # the same through Python's chunks (flavor xlsum: batch._run_chunks, Worker.run's cancel byte)
    "rougeL_xlsum_batch_n_jobs_2": TWO_HUGE % "xlsum",
    # score_matrix: one C call for the whole matrix
    "score_matrix_n_jobs_1": r'''
scorer = RougeScorer(["rougeL"], flavor="rouge_score")
texts = [text(rng.randint(8, 40)) for _ in range(7000)]
def call(small):
    scorer.score_matrix(texts[:10] if small else texts)
''',
    # threads: the main thread raises, the kernels in the pool threads see the cancel byte (a
    # chunk of 64 long rows takes seconds: a thread that finished its chunk would hold the exit)
    "score_matrix_n_jobs_2": r'''
scorer = RougeScorer(["rougeL"], flavor="rouge_score")
texts = [text(3000) for _ in range(200)]
def call(small):
    scorer.score_matrix(texts[:2] if small else texts, n_jobs=2)
''',
    # rouge2 (clipped n-gram overlaps) and rougeLsum (per-pair statistics) kernels
    "score_matrix_rouge2": r'''
scorer = RougeScorer(["rouge2"], flavor="rouge_score")
texts = [text(rng.randint(8, 40)) for _ in range(9000)]
def call(small):
    scorer.score_matrix(texts[:10] if small else texts)
''',
    "score_matrix_rougeLsum": r'''
scorer = RougeScorer(["rougeLsum"], flavor="rouge_score")
texts = [text(rng.randint(8, 40)) for _ in range(2500)]
def call(small):
    scorer.score_matrix(texts[:10] if small else texts)
''',
    # the filter: equal lengths, shared words and a threshold no pair reaches, so that every pair
    # is scored (a block of 1,024 new texts is one call)
    "filter_near_duplicates": r'''
scorer = RougeScorer(["rougeL"], flavor="rouge_score")
texts = [text(600) for _ in range(3000)]
def call(small):
    scorer.filter_near_duplicates(texts[:10] if small else texts, 0.9)
''',
    "filter_near_duplicates_n_jobs_2": r'''
scorer = RougeScorer(["rougeL"], flavor="rouge_score")
texts = [text(600) for _ in range(3000)]
def call(small):
    scorer.filter_near_duplicates(texts[:10] if small else texts, 0.9, n_jobs=2)
''',
    # skip-bigrams of one long example (csrc/skip_bigrams.c, pair_stats.c's pair_part): each
    # table path of the kernel, every one several seconds uncut
    # any gap, 100,000 distinct words: blocked tables, a pass over both texts per block (~20 s)
    "rougeS_any_gap_blocked": r'''
scorer = RougeScorer(["rougeS*"])
a, b = text(100000, BIG), text(100000, BIG)
one_example(scorer, a, [b])
''',
    # a gap of 100 with a large vocabulary: the hash table, a range of first tokens at a time
    # (~4 s; 150,000 words, which took the blocked tables ~45 s before, now take 0.7)
    "rougeSU100_hashed_ranges": r'''
scorer = RougeScorer(["rougeSU100"])
a, b = text(600000, BIG), text(600000, BIG)
one_example(scorer, a, [b])
''',
    # a gap near the length with 700 distinct words: the dense table, gap cells a position (~6 s)
    "rougeS_long_gap_dense": r'''
scorer = RougeScorer(["rougeS60000"])
a, b = text(65000, MID), text(65000, MID)
one_example(scorer, a, [b])
''',
    # a short prediction's pairs hashed, a 10-million-word reference looked up pair by pair (~7 s)
    "rougeS_hashed_long_reference": r'''
scorer = RougeScorer(["rougeS50"])
a, b = text(1000, MID), " ".join([text(100000, MID)] * 100)
one_example(scorer, a, [b])
''',
    # any gap, 700 distinct words: dense tables, ~15 ms a reference, 250 references (~4 s)
    "rougeS_any_gap_dense_many_references": r'''
scorer = RougeScorer(["rougeS*"])
a, refs = text(60000, MID), [text(60000, MID)] * 250
one_example(scorer, a, refs)
''',
    # the Perl bootstrap's replicate sums over a large corpus (csrc/bootstrap.c): 10^6 examples x
    # 12 values x 1000 replicates, ~20 s uncut in draw order, ~5 s by counts
    "bootstrap_replicate_sums": r'''
import numpy as np
from rouge_full_metric import bootstrap_compiled
values = np.random.default_rng(0).random((1000000, 12))
def call(small):
    bootstrap_compiled.replicate_sums(values[:100] if small else values, 1000)
''',
    "bootstrap_count_sums": r'''
import numpy as np
from rouge_full_metric import bootstrap_compiled
values = np.random.default_rng(0).random((1000000, 12))
def call(small):
    bootstrap_compiled.count_sums(values[:100] if small else values, 1000)
''',
    # a Chinese text that is one block of Han characters (csrc/jieba.c)
    "jieba_one_block": r'''
from rouge_full_metric import native_segmenters
segment = native_segmenters.jieba_segmenter()
assert segment is not None
chars = "我来到北京清华大学他说的确实在理今天天气很好我们一起去公园散步吧"
# 12 million characters: ~3 s uncut (5 million took ~1 s: the uncut call ended within a second of
# the signal and passed on the core before jieba.c polled)
block = "".join(rng.choice(chars) for _ in range(1000000)) * 12
def call(small):
    segment(block[:99] if small else block)
''',
    # a Thai text without spaces (csrc/newmm.c)
    "newmm_one_text": r'''
from rouge_full_metric import native_segmenters
segment = native_segmenters.newmm_segmenter()
assert segment is not None
words = ["โอเค", "บ่", "พวกเรา", "รัก", "ภาษา", "บ้านเกิด", "สวัสดี", "ครับ"]
block = "".join(rng.choice(words) for _ in range(2500000))
def call(small):
    segment(block[:99] if small else block)
''',
}

NEEDS = {"jieba_one_block": "jieba", "newmm_one_text": "pythainlp"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_stops_the_call_within_a_second(case):
    if case in NEEDS:
        pytest.importorskip(NEEDS[case])
    code = PRELUDE + CASES[case] + RUN
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("ROUGE_FULL_METRIC_PURE_PYTHON", None)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == "ready", (line, proc.stderr.read() if proc.poll() is not None else "")
        time.sleep(0.5)
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        line = proc.stdout.readline()
        assert line.startswith("interrupted"), (line, proc.stderr.read() if proc.poll() is not None else "")
        latency = float(line.split()[1]) - sent
        assert latency < 1.0, "KeyboardInterrupt came %.2f s after the signal" % latency
        assert proc.wait(timeout=10) == 3
        exited = time.time() - sent   # pool threads still in a kernel would hold the exit
        print("\n%s: KeyboardInterrupt %.3f s, exit %.3f s after SIGINT" % (case, latency, exited))
        assert exited < 1.0, "the process exited %.2f s after the signal" % exited
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_scorer_exact_after_an_interrupted_call():
    """A kernel cut short leaves its Worker's scratch state neutral: the same scorer (its pooled
    Workers) then scores exactly as a fresh one.  The handler's own exception comes out."""
    import random

    from rouge_full_metric import RougeScorer

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    rng = random.Random(3)
    vocab = ["w%d" % i for i in range(50)]

    def text(n, words=vocab):
        return " ".join(rng.choice(words) for _ in range(n))

    small_a = [text(rng.randint(1, 300)) + "\n" + text(rng.randint(1, 80)) for _ in range(30)]
    small_b = [text(rng.randint(1, 300)) for _ in range(30)]
    long_a, long_b = text(60000), text(60000)
    # the bit-parallel LCS length takes a whole-text rougeL of 60,000 words in ~0.05 s (with
    # rougeLsum ~0.3 s): longer ones, so that the 0.3 s alarm lands inside the call
    huge_a, huge_b = text(600000), text(600000)
    matrix_texts = [text(rng.randint(100, 200)) for _ in range(4000)]
    # skip-bigrams: the dense tables (a gap near the length; any gap over many references) live in
    # the Worker and must be cleared when cut short; the blocked ones are the call's own
    mid, big = vocab + ["m%d" % i for i in range(650)], ["b%d" % i for i in range(100000)]
    dense_a, dense_b = text(65000, mid), text(65000, mid)
    many_a, many_refs = text(60000, mid), [text(60000, mid)] * 250
    blocked_a, blocked_b = text(100000, big), text(100000, big)
    cases = [
        (dict(rouge_types=["rougeL", "rougeLsum"]), lambda s: s.score(huge_a, [huge_b])),
        (dict(rouge_types=["rougeL"], flavor="rouge_score"), lambda s: s.score_batch([huge_a], [huge_b])),
        # 60,000 words: ~15 s uncut (the first 60,000 characters took 0.4 s, too close to the alarm)
        (dict(rouge_types=["rougeW"]), lambda s: s.score(long_a, [long_b])),
        # rows over 64 tokens: ~1 s for this matrix (short rows took 0.2-0.5 s, too close to the alarm)
        (dict(rouge_types=["rougeL"], flavor="rouge_score"),
         lambda s: s.score_matrix(matrix_texts)),
        (dict(rouge_types=["rougeS60000", "rougeS4", "rougeS*"]), lambda s: s.score(dense_a, [dense_b])),
        (dict(rouge_types=["rougeS*", "rougeSU4"]), lambda s: s.score(many_a, many_refs)),
        (dict(rouge_types=["rougeS*", "rougeS4"]), lambda s: s.score(blocked_a, [blocked_b])),
    ]
    old = signal.signal(signal.SIGALRM, handler)
    try:
        for options, call in cases:
            scorer = RougeScorer(**options)
            scorer.score_batch(small_a[:2], small_b[:2])
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            start = time.perf_counter()
            with pytest.raises(Stop):   # a call that ends first fails inside, naming its options
                call(scorer)
                pytest.fail("the call ended before the alarm: %r" % (options,))
            assert time.perf_counter() - start < 1.3
            signal.setitimer(signal.ITIMER_REAL, 0)
            fresh = RougeScorer(**options)
            assert scorer.score_batch(small_a, small_b) == fresh.score_batch(small_a, small_b), options
            if options["rouge_types"] == ["rougeL"]:
                assert np.array_equal(scorer.score_matrix(small_a, small_b), fresh.score_matrix(small_a, small_b))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
