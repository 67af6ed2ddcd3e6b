"""Bounded memos: a long-lived process that meets an open vocabulary must not grow without end.

Every Python memo of the package (the stemmers' per-token memos: the Perl token filter,
rouge_score's stemmed tokenizer, the XL-Sum tokenizers) is a :class:`Memo`: it counts the bytes it
holds (the key and value strings and a dict slot each) and starts afresh when they pass
:data:`MAX_BYTES`, or when its entries pass the cap its owner gives.  Starting afresh costs a
re-computation of the words that come back, nothing else: a memo only stores what a pure function
returned.  ``MAX_BYTES`` is read at every insertion, so a test may lower it (see docs/memory.md).

>>> memo = Memo()
>>> memo.put("running", "run")
'run'
>>> memo.get("running"), len(memo)
('run', 1)
"""
from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

__all__ = ["MAX_BYTES", "Memo"]

# Per memo.  4 MiB hold about 25,000 Devanagari words with their stems: far above the working
# vocabulary of a batch, so warm scoring keeps its hits, and a handful of memos per scorer stay
# well within the +64 MB a scorer may grow by (docs/memory.md).
MAX_BYTES = 4 << 20

# A dict slot per entry (hash, key and value pointers, index, the table's spare room).
_SLOT = 64


class Memo:
    """A dict that forgets everything once it holds more than :data:`MAX_BYTES` (or ``max_entries``).

    ``get`` is the dict's own ``get`` (the hot path costs nothing more); ``put`` stores, counting
    the bytes.  Never pickled with its owner: owners rebuild an empty one.
    """

    __slots__ = ("get", "_data", "_bytes", "_max_entries")

    def __init__(self, max_entries: Optional[int] = None):
        self._data = {}
        self.get = self._data.get
        self._bytes = 0
        self._max_entries = max_entries

    def __len__(self) -> int:
        return len(self._data)

    @property
    def nbytes(self) -> int:
        """The bytes counted for the entries held now."""
        return self._bytes

    def clear(self) -> None:
        self._data.clear()
        self._bytes = 0

    def put(self, key, value):
        """Store ``value`` under ``key`` and return it; first forget everything when full."""
        size = sys.getsizeof(key) + _SLOT
        if value is not None and value is not key:
            size += sys.getsizeof(value)
        if self._bytes + size > MAX_BYTES or (self._max_entries is not None and len(self._data) >= self._max_entries):
            self._data.clear()
            self._bytes = 0
        self._data[key] = value
        self._bytes += size
        return value
