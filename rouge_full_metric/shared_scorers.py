"""What scorers built with the same options share: their validated options, their tokenizers and
compiled engine, and a couple of Workers with warm token caches.

A new ``RougeScorer`` for every call is a common pattern (evaluate's canonical ``rouge.py`` builds
one in every ``compute``, scripts build one per pair).  Each paid for validating its options,
building its tokenizers and compiled engine, and a Worker whose token cache (the interned tokens,
their stems) started empty: on a 60-token pair with rouge1/2/L/Lsum, 23 us against 5 for a
``score()`` on a scorer already used, and rouge-score-rs's 21.  A scorer whose options are all
plain values (str, bool, int, float, None; no custom ``tokenizer``) now starts from the record of
the last scorer built or unpickled with those very options (a spawn pool's or a Spark task's
scorer arrives pickled): nothing is computed again, the engine is the same
object, and the first Workers it takes are the ones earlier scorers left (at most
``SPARE_WORKERS`` a record, given back when a scorer's compiled form is dropped).  Results cannot
differ: the engine is a function of the options, and a token cache only remembers what the
options make of a token.

The key is the options as given: a scorer built with ``multi_ref=None`` and one unpickled (whose
state holds the options as validated, ``multi_ref="max"``) have records of their own, each shared
with the scorers given or unpickled with the same values.

Memory: at most ``MAX_RECORDS`` records (the oldest is forgotten first), each holding its engine
and at most ``SPARE_WORKERS`` idle Workers (a Worker's token cache is bounded: docs/memory.md).
:func:`clear` forgets them all (benchmarks of a first call use it).

>>> from rouge_full_metric import RougeScorer
>>> a, b = RougeScorer(["rouge1"]), RougeScorer(["rouge1"])
>>> a._shared is b._shared, a.rouge_types is b.rouge_types   # one record; lists of their own
(True, False)
>>> clear()
"""
from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional, Tuple

MAX_RECORDS = 4
SPARE_WORKERS = 2

_PLAIN = frozenset((str, bool, int, float, type(None)))
_lock = _thread.allocate_lock()   # (threading's Lock) guards the writes to _records (reads are single dict lookups)
_records: Dict[tuple, "Record"] = {}


class Record:
    """One configuration's shared parts: the validated ``state`` (a scorer's ``__dict__`` after
    construction), and for the process ``generation`` (batch.py's; a forked child starts afresh)
    the compiled ``engine`` once built and the idle Workers (``spare``)."""

    __slots__ = ("state", "generation", "engine", "spare")

    def __init__(self, state: dict):
        self.state = state
        self.generation = None
        self.engine = None
        self.spare: List[object] = []

    def compiled_parts(self, generation: int) -> Tuple[Optional[object], List[object]]:
        """``(engine or None, idle Workers)`` of this process generation (none after a fork)."""
        if self.generation != generation:
            self.generation, self.engine, self.spare = generation, None, []
        return self.engine, self.spare


def key_of(rouge_types, alpha, others: tuple) -> Optional[tuple]:
    """A key for RougeScorer's options (``others``: every option but ``rouge_types`` and
    ``alpha``, in a fixed order), or None when they are not all plain values.  Each value counts
    with its type, so that ``use_stemmer=1`` is not mistaken for ``True`` (validation tells them
    apart); a zero ``alpha`` is never shared (``-0.0 == 0.0``, but the scorers' ``alpha`` differ).

    >>> key_of(["rouge1"], 0.5, (False, None)) == key_of(("rouge1",), 0.5, (False, None))
    False
    >>> key_of(["rouge1"], 0.5, (False, None)) == key_of(["rouge1"], 0.5, (0, None))
    False
    >>> key_of(["rouge1"], 0.5, (str.split,)) is None
    True
    """
    kinds = tuple(map(type, others))
    if not _PLAIN.issuperset(kinds) or type(alpha) not in _PLAIN or (type(alpha) is float and alpha == 0):
        return None
    kind = type(rouge_types)
    if kind is list or kind is tuple:
        if not all(type(t) is str for t in rouge_types):
            return None
        rouge_types = tuple(rouge_types)
    elif kind is not str:
        return None
    return kind, rouge_types, type(alpha), alpha, kinds, others


def find(key: Optional[tuple]) -> Optional[Record]:
    """The record of ``key``, or None."""
    return _records.get(key) if key is not None else None


def remember(key: tuple, state: dict) -> Record:
    """A record of ``state`` under ``key`` (the one already there, if another thread made it
    first), forgetting the oldest record past ``MAX_RECORDS``."""
    with _lock:
        record = _records.get(key)
        if record is None:
            record = Record(state)
            while _records and len(_records) >= MAX_RECORDS:
                del _records[next(iter(_records))]
            if MAX_RECORDS > 0:
                _records[key] = record
        return record


def clear() -> None:
    """Forget every record: the next scorer of any options starts cold, as a process's first.

    >>> clear()
    """
    with _lock:
        _records.clear()
