"""Basic Elements scoring of ROUGE-1.5.5.pl (``-3 H|HM|HMR|HM1|HMR1|HMR2``, spec §10).

A Basic Element (BE) is a ``head|modifier|relation`` triple from a parser-based BE breaker (one per
line, the SIMPLE format, read by :func:`.summary_formats.read_basic_elements`).  Each mode turns
a file's BEs into a multiset of keys; peer and model multisets are then matched with clipped
counts exactly as ROUGE-N matches n-grams, so the result is a :class:`.scoring.PairStats` that the
usual ``-f A``/``-f B`` combination, rounding and bootstrap consume.

What the Perl does, and this module copies (spec §10):

* no length limits, stop words or tokenization: the fields are compared as (lowercased) strings;
* under ``-m`` a head or modifier longer than 3 bytes is split on whitespace and every piece that
  holds a letter or digit goes through ``MorphStem`` (exception table, then Porter-Lin) whatever
  its own length; the relation is never stemmed;
* ``nil`` is the lowercase literal: H keeps BEs whose *stemmed* modifier is ``nil``; HM those whose
  stemmed modifier is not; HMR those whose relation is not; HMR1 those whose *raw* modifier is
  not; HM1 and HMR2 keep every BE;
* a key spelled ``_cn_`` collides with the Perl's counter slot: it adds 2 to the count and can
  never match (kept only so that counts agree on such input).

>>> peer = [(b"pinochet", b"arrest", b"nn"), (b"london", b"nil", b"nil")]
>>> model = [(b"pinochet", b"arrest", b"nn"), (b"pinochet", b"general", b"nn")]
>>> be_pair_stats(be_counts(model, "HM"), be_counts(peer, "HM"))
PairStats(hits=1, reference_count=2, prediction_count=1, selection=0.5)
"""
import re
from collections import Counter
from typing import Iterable, List, NamedTuple, Sequence, Tuple

from ..scoring import PairStats, Score, combined_counts, round5, score_from_counts
from ..stemmer import stem

__all__ = ["BE_MODES", "BECounts", "stem_field", "be_counts", "be_pair_stats", "score_basic_elements"]

#: The modes the Perl knows.  Any other string is accepted by the Perl and counts nothing.
BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")

_NIL = b"nil"
_COUNTER_SLOT = b"_cn_"
# Perl's \s on byte strings; a leading empty field survives its split(/\s+/), trailing ones do not.
_PERL_WS = re.compile(rb"[ \t\n\r\f\x0b]+")
_ALNUM = re.compile(rb"[A-Za-z0-9]")

Element = Tuple[bytes, bytes, bytes]


class BECounts(NamedTuple):
    """The keys one file contributes under a mode, and the Perl's count of them."""

    keys: Counter
    count: int


def stem_field(field: bytes) -> bytes:
    """``MorphStemMulti`` of a head or modifier longer than 3 bytes (shorter ones stay as they are).

    >>> stem_field(b"arrested generals"), stem_field(b"was"), stem_field(b"geese")
    (b'arrest gener', b'was', b'goose')
    """
    if len(field) <= 3:
        return field
    pieces = _PERL_WS.split(field)
    while pieces and not pieces[-1]:
        pieces.pop()
    out = []
    for piece in pieces:
        if _ALNUM.search(piece):
            piece = stem(piece.decode("latin-1")).encode("latin-1")
        out.append(piece)
    return b" ".join(out)


def be_counts(elements: Iterable[Element], mode: str, use_stemmer: bool = False) -> BECounts:
    """Keys and count of a file's BEs (lowercased ``(head, modifier, relation)`` bytes) in ``mode``.

    >>> be_counts([(b"dog", b"nil", b"nil"), (b"dog", b"big", b"mod")], "H").keys
    Counter({b'dog': 1})
    >>> be_counts([(b"dog", b"nil", b"nil"), (b"dog", b"big", b"mod")], "HMR2").count
    2
    """
    keys: Counter = Counter()
    count = 0
    for head, modifier, relation in elements:
        raw_modifier = modifier
        if use_stemmer:
            head = stem_field(head)
            modifier = stem_field(modifier)
        if mode == "H":
            if modifier != _NIL:
                continue
            key = head
        elif mode == "HM":
            if modifier == _NIL:
                continue
            key = head + b"|" + modifier
        elif mode == "HMR":
            if relation == _NIL:
                continue
            key = head + b"|" + modifier + b"|" + relation
        elif mode == "HM1":
            key = head + b"|" + modifier
        elif mode == "HMR1":
            if raw_modifier == _NIL:
                continue
            key = head + b"|" + modifier + b"|" + relation
        elif mode == "HMR2":
            key = head + b"|" + modifier + b"|" + relation
        else:
            continue
        if key == _COUNTER_SLOT:
            count += 2
            continue
        keys[key] += 1
        count += 1
    return BECounts(keys, count)


def be_pair_stats(model: BECounts, peer: BECounts) -> PairStats:
    """Clipped BE matches of one (model, peer) pair; ``selection`` is the 5-decimal recall (``-f B``).

    >>> be_pair_stats(BECounts(Counter({b"a": 2}), 2), BECounts(Counter({b"a": 1}), 1))
    PairStats(hits=1, reference_count=2, prediction_count=1, selection=0.5)
    """
    hits = 0
    for key, n in model.keys.items():
        m = peer.keys.get(key)
        if m:
            hits += n if n < m else m
    selection = round5(hits / model.count) if model.count else 0.0
    return PairStats(hits, model.count, peer.count, selection)


def score_basic_elements(peer: Sequence[Element], models: Sequence[Sequence[Element]], mode: str = "HM",
                         use_stemmer: bool = False, multi_ref: str = "average", alpha: float = 0.5):
    """ROUGE-BE of one peer against its models, as ``ROUGE-1.5.5.pl -3 MODE -d`` prints it.

    Returns ``(Score, (HIT, CNT, PCNT))``: the 5-decimal per-summary score and the pooled counts
    that ``-t 1``/``-t 2`` use.  ``multi_ref`` is ``"average"`` (``-f A``) or ``"best"`` (``-f B``).

    >>> peer = [(b"pinochet", b"arrest", b"nn")]
    >>> models = [[(b"pinochet", b"arrest", b"nn"), (b"pinochet", b"general", b"nn")]]
    >>> score_basic_elements(peer, models, "HM")
    (Score(precision=1.0, recall=0.5, fmeasure=0.66667), (1.0, 2.0, 1.0))
    """
    if multi_ref not in ("average", "best"):
        raise ValueError("multi_ref must be 'average' or 'best' (the Perl's -f A / -f B), got %r" % (multi_ref,))
    peer_counts = be_counts(peer, mode, use_stemmer)
    stats: List[PairStats] = [be_pair_stats(be_counts(m, mode, use_stemmer), peer_counts) for m in models]
    if not stats:
        return Score(0.0, 0.0, 0.0), (0, 0, 0)
    counts = combined_counts(stats, multi_ref)
    return score_from_counts(*counts, alpha), counts
