"""The Perl's bootstrap on the compiled core: :mod:`.bootstrap`'s numbers, bit for bit.

:mod:`.bootstrap` is the reference, in Python and numpy, as spec §12 describes the Perl's seeded
replicates.  Here the core sums the replicates in C (``csrc``), on up to ``n_jobs`` threads for a
large bootstrap, and sorts the instance keys; while numpy is not imported, a small bootstrap takes
a numpy-free way (:func:`numpy_free`: numpy's import would cost a short process more than the
bootstrap).  Without the core every function falls back to :mod:`.bootstrap`.  Corpus scores
(:mod:`.corpus`) and ``rouge-full perl`` call these.

>>> [round(x, 5) for x in perl_bootstrap([[1.0], [0.0], [0.5]], ["1.A", "2.A", "3.A"])[0]]
[0.50067, 0.0, 1.0]
"""
from __future__ import annotations

import sys

# batch's thread helpers through the module: tests count the ranges its _run_chunks is given
from . import batch, compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence


# The bootstrap's replicates are independent (replicate r draws from drand48 seeded with r), so
# n_jobs threads can share them out, each running the core on a range of replicates with the GIL
# released.  Each range builds its own copy of the table (100,000 x 12: ~4 ms), so a range holds
# many replicates, and below BOOTSTRAP_THREADS_MIN draws in all one thread does everything.
BOOTSTRAP_THREADS_MIN = 10_000_000
RANGES_PER_THREAD = 2   # the caller takes over a range a helper the kernel left waiting has not started


def _compiled_sums(name: str, values, n_bootstrap: int, n_jobs: int = 1):
    """``bootstrap.<name>(values, n_bootstrap)`` by the core's function of that name when it is
    built and accepts the input (it returns False when it does not), on up to ``n_jobs`` threads
    for a large bootstrap (the same numbers: each replicate is summed by one thread as by one)."""
    import numpy as np

    from . import bootstrap
    python_sums = getattr(bootstrap, name)
    if not compiled.AVAILABLE:
        return python_sums(values, n_bootstrap)
    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.ndim != 2:
        values = values.reshape(values.shape[0], -1)
    rows, columns = values.shape
    out = np.zeros((n_bootstrap, columns), dtype=np.float64)
    done = _core_sums(name, values, rows, columns, memoryview(out).cast("B").cast("d"), n_bootstrap, n_jobs)
    return out if done else python_sums(values, n_bootstrap)


def _core_sums(name: str, values, rows: int, columns: int, out, n_bootstrap: int, n_jobs: int) -> bool:
    """The core's ``name`` (replicate_sums or count_sums) of ``values``, a C-contiguous float64
    buffer of rows x columns, into ``out``, a flat writable float64 memoryview of n_bootstrap x
    columns; on up to ``n_jobs`` threads for a large bootstrap.  False when the kernel declines."""
    kernel = getattr(compiled.core, name)
    jobs = batch._check_n_jobs(n_jobs)
    if jobs == 1 or rows * n_bootstrap < BOOTSTRAP_THREADS_MIN:
        return kernel(values, rows, columns, out, n_bootstrap) is not False
    # ranges of whole blocks of 8 replicates (the kernels draw 8 at a time)
    step = -(-n_bootstrap // (8 * jobs * RANGES_PER_THREAD)) * 8
    bounds = [(a, min(a + step, n_bootstrap)) for a in range(0, n_bootstrap, step)]
    parts = batch._run_chunks(jobs, lambda a, b: kernel(values, rows, columns, out[a * columns:b * columns], b - a, a),
                              bounds)
    return all(part is not False for part in parts)


def replicate_sums(values, n_bootstrap: int, n_jobs: int = 1):
    """:func:`.bootstrap.replicate_sums` (same numbers, bit for bit), in C when it is built;
    ``n_jobs`` threads share a large bootstrap's replicates.

    >>> import numpy as np
    >>> from rouge_full_metric import bootstrap
    >>> v = np.random.default_rng(0).random((50, 3))
    >>> bool((replicate_sums(v, 20) == bootstrap.replicate_sums(v, 20)).all())
    True
    """
    return _compiled_sums("replicate_sums", values, n_bootstrap, n_jobs)


def count_sums(values, n_bootstrap: int, n_jobs: int = 1):
    """:func:`.bootstrap.count_sums` (same numbers, bit for bit), in C when it is built (which
    declines, and Python takes over, when a row is drawn more than 255 times in a replicate);
    ``n_jobs`` as in :func:`replicate_sums`.

    >>> import numpy as np
    >>> from rouge_full_metric import bootstrap
    >>> v = np.random.default_rng(0).random((50, 3))
    >>> bool((count_sums(v, 20) == bootstrap.count_sums(v, 20)).all())
    True
    """
    return _compiled_sums("count_sums", values, n_bootstrap, n_jobs)


def byte_order(keys: Sequence[str]):
    """:func:`.bootstrap.byte_order` (the same positions) as an intp array, sorted in C when it is
    built: 100,000 of the scorer's keys in about 1.5 ms against 5.6 (the key calls of
    ``sorted``), which is 3 % of a 1,000-replicate bootstrap of 12 columns.

    >>> byte_order(["b", "\u00e9", "a", "\U0001F600", "\uffff", "a"]).tolist()
    [2, 5, 0, 1, 4, 3]
    """
    import numpy as np

    return np.asarray(key_order(keys), dtype=np.intp).reshape(-1)


_INTP = "q" if sys.maxsize > 2 ** 32 else "i"   # the array typecode of Py_ssize_t


# numpy's import against Python's sorts and sums of the replicates: a new process's `rouge-full
# score` of 100 pairs (12 columns) took 227 ms of CPU numpy-free and 342 with numpy at 33,333
# replicates, 605 and 395 at 100,000 (~0.45 us a value more, numpy's import ~0.25 s): they cross
# near 650,000 values, and the numpy-free way stops short of that, at this many (n_bootstrap x
# columns)
NUMPY_FREE_MAX_REPLICATES = 400_000


def numpy_free(replicates: int = 0) -> bool:
    """Whether the bootstrap and the corpus means take their numpy-free way
    (:func:`ordered_bootstrap`, :func:`.batch.float_table`): with the compiled core, while numpy is not
    imported, for a bootstrap of at most ``NUMPY_FREE_MAX_REPLICATES`` values (``replicates``:
    n_bootstrap x columns).  numpy's import alone costs a new process 0.1-0.2 s of CPU, most of a
    small ``rouge-full score`` run; once it is imported its way is the faster (by 3-4 ms a call
    of 1,000 replicates, the intervals' sorts and sums in Python; 25 ms at 100,000 pairs).  Both
    give the same floats."""
    return compiled.AVAILABLE and "numpy" not in sys.modules and replicates <= NUMPY_FREE_MAX_REPLICATES


def key_order(keys: Sequence[str]):
    """:func:`byte_order` without numpy: the positions as an ``array`` of intp, sorted by the core
    (a list, :func:`.bootstrap.byte_order`'s, without it).

    >>> list(key_order(["b", "\u00e9", "a", "\U0001F600", "\uffff", "a"]))
    [2, 5, 0, 1, 4, 3]
    """
    from .bootstrap import byte_order as python_order
    if not compiled.AVAILABLE:
        return python_order(keys)
    from array import array

    out = array(_INTP, bytes(len(keys) * array(_INTP).itemsize))
    compiled.core.byte_order(keys, out)
    return out


def ordered_bootstrap(table, count: int, width: int, n_bootstrap: int = 1000, confidence: float = 95,
                      exact: bool = True, n_jobs: int = 1):
    """:func:`perl_bootstrap`'s intervals from a flat table, without numpy: ``table`` holds
    ``count`` >= 1 rows of ``width`` float64 values (an ``array("d")`` or any such buffer),
    row-major, the rows already in the keys' byte order (:func:`key_order`).  With the compiled
    core only; None when its count_sums declines (a row drawn over 255 times in one replicate),
    where numpy's Python kernel takes over.  The sums are the core's, as with numpy, and the
    intervals :func:`.bootstrap.interval`'s, which :func:`.bootstrap.intervals` equals.

    >>> from array import array
    >>> [round(x, 5) for x in ordered_bootstrap(array("d", [1.0, 0.0, 0.5]), 3, 1)[0]]
    [0.50067, 0.0, 1.0]
    """
    from array import array

    from .bootstrap import interval
    out = array("d", bytes(8 * n_bootstrap * width))
    if not _core_sums("replicate_sums" if exact else "count_sums", table, count, width, memoryview(out), n_bootstrap,
                      n_jobs):
        return None
    # means = sums / count, as perl_bootstrap divides them
    return [interval([x / count for x in out[k::width]], confidence) for k in range(width)]


def _rows_bootstrap(rows, keys, n_bootstrap, confidence, exact, n_jobs):
    """:func:`perl_bootstrap` of a list of rows of numbers, all of one width, the numpy-free way
    where :func:`numpy_free` allows; None otherwise (numpy's way then takes them, or names what
    is wrong with them)."""
    from itertools import chain

    try:
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            return None
    except TypeError:   # not rows: numpy's way reads a flat list as one column
        return None
    if not numpy_free(n_bootstrap * width):
        return None
    try:
        table = batch.float_table(chain.from_iterable(map(rows.__getitem__, key_order(keys))))
    except TypeError:   # not numbers, or not str keys
        return None
    return ordered_bootstrap(table, len(rows), width, n_bootstrap, confidence, exact, n_jobs)


def perl_bootstrap(values, keys: Sequence[str], n_bootstrap: int = 1000, confidence: float = 95,
                   exact: bool = True, n_jobs: int = 1):
    """:func:`.bootstrap.perl_bootstrap` with the compiled replicate sums (identical results), on
    up to ``n_jobs`` threads when the bootstrap is large (:func:`replicate_sums`).  ``values`` as a
    list of rows goes the numpy-free way while numpy is not imported (:func:`numpy_free`).

    >>> [round(x, 5) for x in perl_bootstrap([[1.0], [0.0], [0.5]], ["1.A", "2.A", "3.A"])[0]]
    [0.50067, 0.0, 1.0]
    >>> [round(x, 5) for x in perl_bootstrap([[1.0], [0.0], [0.5]], ["1.A", "2.A", "3.A"], exact=False)[0]]
    [0.50067, 0.0, 1.0]
    """
    from .bootstrap import perl_bootstrap as python_bootstrap

    if type(values) is list and values and len(values) == len(keys) and n_bootstrap >= 1:
        found = _rows_bootstrap(values, keys, n_bootstrap, confidence, exact, n_jobs)
        if found is not None:
            return found
    sums = replicate_sums if exact else count_sums
    return python_bootstrap(values, keys, n_bootstrap, confidence, replicate=lambda v, r: sums(v, r, n_jobs),
                            exact=exact, sort=byte_order)


__all__ = ["replicate_sums", "count_sums", "byte_order", "key_order", "numpy_free", "ordered_bootstrap",
           "perl_bootstrap"]
