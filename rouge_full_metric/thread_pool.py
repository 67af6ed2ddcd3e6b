"""The threads that help a caller score with ``n_jobs > 1`` (see :mod:`.batch`).

A small pool of threads instead of ``concurrent.futures.ThreadPoolExecutor``: a process's first
``n_jobs=2`` call spent 9-10 ms importing ``concurrent.futures`` and building the executor before
its helper could start, a fifth of a news batch of 11,490 pairs, during which the caller waited
too.  The threads are started with ``_thread.start_new_thread``, which returns at once:
``threading.Thread.start`` waits for the new thread to run, and the new thread, once it has the
GIL, went on to take its task and make its Worker (0.4-0.6 ms of a new interpreter's first call,
the caller waiting).  Like daemon threads, the interpreter does not wait for them at exit (a
helper works only while its caller waits for it, so there is nothing left to finish by then).

A task is a call ``fn()`` with the methods of a ``Future`` that the callers use,
:meth:`Task.cancel` (a task not started never runs), :meth:`Task.cancelled` and :meth:`Task.result`
(which re-raises the call's exception in the caller), and :meth:`Task.done` and :meth:`Task.wait`,
which the tests use to watch a task.

The module imports only the interpreter's built-in ``_thread`` and ``_queue`` (and ``os``, which
every process has): importing ``threading``, ``queue`` and ``typing`` took 5.4-9.8 ms (median
6.9 of 15 new processes) of a new process's first ``n_jobs=2`` call, a fifth of a news batch
scored on two cores; this module's import now takes ~0.5 ms.  A task's end is a lock held from
the start and released once (:class:`_Gate`), as ``threading.Event`` would be, without its
``Condition``.

>>> tasks = submit(2, lambda: 6 * 7, 1)
>>> tasks[0].result(), tasks[0].done(), tasks[0].cancelled()
(42, True, False)
"""
from __future__ import annotations

import _thread
import os
from _queue import SimpleQueue   # queue.SimpleQueue itself, without queue's import of heapq

TYPE_CHECKING = False
if TYPE_CHECKING:   # annotations only (typing is ~4 ms of a new process's import)
    from typing import Callable, List

_PENDING, _RUNNING, _FINISHED, _CANCELLED = range(4)


class _Gate:
    """Closed when made, opened once by :meth:`open`; :meth:`wait` passes once it is open.

    >>> gate = _Gate()
    >>> gate.wait(0), gate.open(), gate.wait(0), gate.wait(None)
    (False, None, True, True)
    """

    __slots__ = ("lock",)

    def __init__(self):
        self.lock = _thread.allocate_lock()
        self.lock.acquire()

    def open(self):
        self.lock.release()   # a Task opens its gate once: when its call ends, or when it is cancelled

    def wait(self, timeout=None) -> bool:
        if not self.lock.acquire(True, -1 if timeout is None else max(timeout, 0)):
            return False
        self.lock.release()   # and the next waiter passes too
        return True


class Task:
    """One call of ``fn()`` on a pool thread, and how it ended."""

    __slots__ = ("fn", "state", "value", "error", "ended")

    def __init__(self, fn: Callable[[], object]):
        self.fn = fn
        self.state = _PENDING
        self.value = self.error = None
        self.ended = _Gate()

    def run(self):
        with _lock:
            if self.state != _PENDING:
                return
            self.state = _RUNNING
        try:
            self.value = self.fn()
        except BaseException as error:  # noqa: BLE001 - handed to the caller by result()
            self.error = error
        finally:
            self.fn = None
            self.state = _FINISHED
            self.ended.open()

    def cancel(self) -> bool:
        """Keep the call from starting; False when it has started already."""
        with _lock:
            if self.state == _PENDING:
                self.state = _CANCELLED
                self.fn = None
                self.ended.open()
            return self.state == _CANCELLED

    def cancelled(self) -> bool:
        return self.state == _CANCELLED

    def done(self) -> bool:
        return self.state in (_FINISHED, _CANCELLED)

    def wait(self, timeout=None) -> bool:
        """Whether the task ended (ran or was cancelled) within ``timeout`` seconds (the GIL is
        released meanwhile)."""
        return self.ended.wait(timeout)

    def result(self):
        """The call's return value, once it has ended; its exception is raised here.

        >>> submit(2, lambda: 1 // 0, 1)[0].result()
        Traceback (most recent call last):
        ...
        ZeroDivisionError: integer division or modulo by zero
        """
        self.ended.wait()
        if self.state == _CANCELLED:
            raise RuntimeError("the task was cancelled before it started")
        if self.error is not None:
            raise self.error
        return self.value


_lock = _thread.allocate_lock()   # guards the pool's counts and every task's state
_queue: "SimpleQueue[Task]" = SimpleQueue()
_threads = 0               # started in this process
_idle = 0                  # waiting for a task
_queued = 0                # put in the queue, not taken yet


def _serve(queue):
    global _idle, _queued
    while True:
        with _lock:
            _idle += 1
        task = queue.get()
        with _lock:
            _idle -= 1
            _queued -= 1
        task.run()
        del task   # nothing of a finished call is kept alive by an idle thread


def submit(n_jobs: int, fn: Callable[[], object], count: int) -> List[Task]:
    """``count`` tasks of ``fn()``, queued for the pool, which grows to as many threads as they
    need (not above ``n_jobs`` threads for this call's sake: the callers count themselves in
    ``n_jobs`` and submit at most ``n_jobs - 1`` tasks).

    >>> [task.result() for task in submit(3, lambda: "ok", 2)]
    ['ok', 'ok']
    """
    global _threads, _queued
    if count <= 0:
        return []
    tasks = [Task(fn) for _ in range(count)]
    with _lock:
        free = max(_idle - _queued, 0)   # idle threads no queued task will wake
        start = max(min(count - free, n_jobs - _threads), 0)
        _threads += start
        _queued += count
        for task in tasks:
            _queue.put(task)
    for k in range(start):
        try:
            _thread.start_new_thread(_serve, (_queue,))
        except RuntimeError:   # no more threads (a limit of the system): the callers work alone
            with _lock:
                _threads -= start - k
            break
    return tasks


def _after_fork_in_child():
    """A forked child has none of its parent's threads: it starts a pool of its own (the parent's
    queue and counts, and a lock a parent thread may have held, are left behind)."""
    global _lock, _queue, _threads, _idle, _queued
    _lock, _queue, _threads, _idle, _queued = _thread.allocate_lock(), SimpleQueue(), 0, 0, 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
