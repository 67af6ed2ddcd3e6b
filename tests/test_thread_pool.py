"""rouge_full_metric.thread_pool: the helper threads of n_jobs > 1 (batch.py's callers)."""
import os
import subprocess
import sys
import threading
import time

import pytest

from rouge_full_metric import batch, thread_pool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_cancelled_task_never_runs():
    calls = []
    task = thread_pool.Task(lambda: calls.append(1))
    assert task.cancel() and task.cancelled() and task.done()
    task.run()
    assert calls == [] and task.wait(0)
    try:
        task.result()
    except RuntimeError as error:
        assert "cancelled" in str(error)
    else:
        raise AssertionError("result() of a cancelled task returned")


def test_a_started_task_cannot_be_cancelled_and_hands_over_its_error():
    started, go = threading.Event(), threading.Event()

    def work():
        started.set()
        go.wait(10)
        raise KeyError("from the pool")

    task, = thread_pool.submit(2, work, 1)
    assert started.wait(10)
    assert not task.cancel() and not task.done()
    go.set()
    assert task.wait(10) and task.done() and not task.cancelled()
    try:
        task.result()
    except KeyError as error:
        assert error.args == ("from the pool",)
    else:
        raise AssertionError("the task's error was lost")


def test_tasks_run_at_once_on_as_many_threads_as_asked():
    """Three tasks that wait for each other finish only if three threads run them together."""
    barrier = threading.Barrier(3, timeout=10)
    tasks = thread_pool.submit(3, barrier.wait, 3)
    assert all(task.wait(20) for task in tasks)
    assert sorted(task.result() for task in tasks) == [0, 1, 2]


def test_wait_gives_up_after_its_timeout():
    go = threading.Event()
    task, = thread_pool.submit(2, lambda: go.wait(10), 1)
    started = time.monotonic()
    assert not task.wait(0.2)
    assert 0.15 <= time.monotonic() - started < 5 and not task.done()
    go.set()
    assert task.wait(10) and task.result() is True


_FRESH = r"""
import os, sys, threading
from rouge_full_metric import RougeScorer, thread_pool
texts = ["the cat sat on the mat %d" % k for k in range(4000)]
for options in (dict(flavor="rouge_score"), {}):
    scorer = RougeScorer(["rouge1", "rougeL"], **options)
    want = scorer.score_batch(texts, texts[::-1])
    for _ in range(20):
        assert scorer.score_batch(texts, texts[::-1], n_jobs=2) == want
# one, or two when a helper was still on its way back (it needs the GIL) as the next call began
assert 1 <= thread_pool._threads <= 2, thread_pool._threads
if os.path.isdir("/proc/self/task"):   # the threads the system sees: these and the main one
    assert len(os.listdir("/proc/self/task")) == 1 + thread_pool._threads, os.listdir("/proc/self/task")
assert threading.active_count() == 1   # none of threading's: nothing for the interpreter to wait for at exit
print(" ".join(m for m in ("concurrent.futures", "importlib.metadata") if m in sys.modules) or "none")
"""


@pytest.mark.skipif(batch._available_cpus() < 2, reason="one CPU: n_jobs=2 starts no helper")
def test_a_process_scoring_with_two_jobs_keeps_its_helpers_and_imports_little():
    """A fresh interpreter's 40 calls with n_jobs=2: at most two helper threads for all of
    them, and neither concurrent.futures nor importlib.metadata imported (9-10 and ~20 ms of a
    first call)."""
    out = subprocess.run([sys.executable, "-c", _FRESH], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["none"]
