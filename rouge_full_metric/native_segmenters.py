"""jieba (Chinese) and PyThaiNLP's newmm (Thai) with their inner loops in the compiled core.

XL-Sum's scorer spends most of its time in these two segmenters, and so would this package: the
compiled ports (csrc/jieba.c, csrc/newmm.c) make Chinese and Thai several times faster.  They are
ports, not new segmenters: the dictionary, the HMM tables, the cluster rules and the regular
expressions that split blocks are read from the installed jieba / PyThaiNLP, and the ports follow
the releases they were proven equal on, word for word, on generated texts
(tests/test_native_segmenters.py for the installed release, tests/check_segmenter_versions.py across
PyThaiNLP releases).  Any other release, a jieba with words it must force-split, or a core-less
install keeps the packages' own Python (segmenters.py); the words are the same either way.
"""
import math
import threading
from importlib import metadata
from typing import Callable, List, Optional

from . import compiled

# PyThaiNLP releases whose newmm the port reproduces word for word: 24,000 generated texts each, 0
# differences (tests/check_segmenter_versions.py).  5.0.1-5.2.0 differ on about 1 text in 4,000 -- their
# breadth-first search had no visited set, so it can reach the last position by another path --
# and keep word_tokenize.
NEWMM_VERIFIED = ("5.3.0", "5.3.1", "5.3.2", "5.3.3", "5.3.4", "5.3.5", "5.3.7", "5.3.8", "5.4.0")
# jieba releases whose cut the port reproduces: 6,000 generated texts each, 0 differences
# (tests/check_segmenter_versions.py; 0.42.1 has been the current release since 2020).
JIEBA_VERIFIED = ("0.39", "0.40", "0.41", "0.42", "0.42.1")


class CompiledSegmenter:
    """A segmenter whose model lives in the compiled core (a PyCapsule), callable as the function
    it wraps.  Pickled, dill-ed or copied it travels as its name and is rebuilt where it lands
    (``segmenters.get``): a capsule is never copied -- dill would copy its raw pointer, a double
    free or a crash once both copies are used or freed (issue 18).

    >>> import pickle
    >>> segment = CompiledSegmenter("burmese", "burmese", str.split)
    >>> segment("a b"), pickle.loads(pickle.dumps(segment))("မြန်မာ")
    (['a', 'b'], ['မြန်', 'မာ'])
    """

    __slots__ = ("_name", "_language", "_segment")

    def __init__(self, name: str, language: str, segment: Callable[[str], List[str]]):
        self._name, self._language, self._segment = name, language, segment

    def __call__(self, text: str) -> List[str]:
        return self._segment(text)

    def __reduce__(self):
        from .segmenters import get

        return (get, (self._name, self._language))


def _release(package: str) -> Optional[str]:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def newmm_segmenter() -> Optional[Callable[[str], List[str]]]:
    """``word_tokenize(text, engine="newmm")`` run in the compiled core, or None.

    >>> segment = newmm_segmenter()
    >>> words = ['โอเค', 'บ่', 'พวกเรา', 'รัก', 'ภาษา', 'บ้านเกิด']
    >>> segment is None or segment("".join(words)) == words
    True
    """
    if compiled.core is None or _release("pythainlp") not in NEWMM_VERIFIED:
        return None
    from pythainlp.corpus.common import thai_words
    from pythainlp.tokenize import tcc_p
    from pythainlp.tokenize._utils import rejoin_formatted_num

    pattern = getattr(tcc_p, "_PAT_TCC", None)
    program = tcc_program(pattern) if pattern is not None else None
    if program is None:
        return None
    core = compiled.core
    trie = core.newmm_dictionary(thai_words(), program)

    def segment(text: str) -> List[str]:
        return rejoin_formatted_num(core.newmm_segment(trie, text)) if text else []

    return CompiledSegmenter("newmm", "thai", segment)


_LIT, _IN, _END, _BRANCH, _REPEAT, _GROUP, _ASSERT = range(1, 8)   # csrc/newmm.c's TX_* codes


def tcc_program(pattern) -> Optional[bytes]:
    """A compiled regular expression as the core's cluster matcher runs it (csrc/newmm.c), or
    None when it uses anything that matcher lacks.

    The matcher knows literals, classes of literals and ranges, alternation, greedy repeats of at
    most 16 whose body cannot match nothing, groups, lookahead and "$" -- what PyThaiNLP's
    cluster rules use -- with re's semantics (the first alternative that leads to a match wins).

    >>> import re
    >>> len(tcc_program(re.compile("a[b-c]?(?=d|$)"))) > 0, tcc_program(re.compile("a*"))
    (True, None)
    """
    import array
    import re

    try:
        from re import _parser as sre_parse   # Python 3.11+
    except ImportError:                      # pragma: no cover - older Pythons
        import sre_parse

    if pattern.flags & (re.IGNORECASE | re.MULTILINE):
        return None
    code = [0]

    def emit(*values) -> int:
        code.extend(values)
        return len(code) - len(values)

    def seq(items) -> int:
        nodes = [node(op, av) for op, av in items]
        return emit(len(nodes), *nodes)

    def node(op, av) -> int:
        name = str(op)
        if name == "LITERAL":
            return emit(_LIT, av)
        if name == "IN":
            ranges = []
            for kind, value in av:
                if str(kind) == "LITERAL":
                    ranges += [value, value]
                elif str(kind) == "RANGE":
                    ranges += list(value)
                else:
                    raise ValueError(kind)
            return emit(_IN, len(ranges) // 2, *ranges)
        if name == "AT" and str(av) == "AT_END":
            return emit(_END)
        if name == "BRANCH":
            subs = [seq(items) for items in av[1]]
            return emit(_BRANCH, len(subs), *subs)
        if name == "MAX_REPEAT":
            low, high, body = av
            if high > 16 or body.getwidth()[0] < 1:
                raise ValueError(name)
            return emit(_REPEAT, low, high, seq(body))
        if name == "SUBPATTERN" and not av[1] and not av[2]:
            return emit(_GROUP, seq(av[3]))
        if name == "ASSERT" and av[0] == 1:
            return emit(_ASSERT, seq(av[1]))
        raise ValueError(name)

    try:
        code[0] = seq(sre_parse.parse(pattern.pattern, pattern.flags))
    except (ValueError, TypeError, OverflowError):
        return None
    return array.array("i", code).tobytes()


# While the native dictionary lags behind jieba's (a word whose frequency changed), jieba cuts;
# the model is rebuilt once jieba has cut this many characters since (a rebuild costs 60-190 ms,
# about what jieba takes for 100,000 characters), so that a user who adjusts words between
# scores never pays a rebuild per score, and one who then scores a corpus pays one rebuild.
JIEBA_REBUILD_CHARS = 100_000


def jieba_segmenter() -> Optional[Callable[[str], List[str]]]:
    """``list(jieba.cut(text))`` with each block cut in the compiled core, or None.

    Like XL-Sum's scorer it follows ``jieba.cut`` as it is at each call.  Words that
    ``add_word`` / ``load_userdict`` / ``suggest_freq`` add are read into the native
    dictionary incrementally (only the new entries of ``FREQ``); a change of an existing word's
    frequency, ``set_dictionary``, or new HMM tables make jieba cut until the native model is
    rebuilt (after :data:`JIEBA_REBUILD_CHARS` characters).  jieba itself cuts while it holds
    words it must split again (``del_word``: ``finalseg.Force_Split_Words``) or when
    ``jieba.cut`` is not a Tokenizer's.

    >>> segment = jieba_segmenter()
    >>> segment is None or segment("我来到北京清华大学") == ['我', '来到', '北京', '清华大学']
    True
    """
    if compiled.core is None or _release("jieba") not in JIEBA_VERIFIED:
        return None
    import jieba
    from jieba import finalseg

    core = compiled.core
    lock = threading.Lock()
    # ident: the ids of what a model is built from, and held: those objects (so that no new object
    # takes one of the ids while they are followed); size: (len(FREQ), total) when the model was
    # last brought up to date; stale: characters jieba has cut since it fell behind (None: up to
    # date)
    built = {"ident": None, "held": None, "size": None, "model": None, "stale": None}

    def follow(dt, ident):
        built["ident"] = ident
        built["held"] = (dt, dt.FREQ, finalseg.start_P, finalseg.trans_P, finalseg.emit_P)

    def rebuild(dt, ident):
        built["model"] = _jieba_model(core, dt, finalseg)
        follow(dt, ident)
        built["size"], built["stale"] = (len(dt.FREQ), dt.total), None

    def model(dt):
        dt.check_initialized()
        ident = (id(dt), id(dt.FREQ), id(finalseg.start_P), id(finalseg.trans_P), id(finalseg.emit_P))
        size = (len(dt.FREQ), dt.total)
        if built["ident"] == ident and built["size"] == size:
            stale = built["stale"]
            if stale is None:
                return built["model"]
            if stale < JIEBA_REBUILD_CHARS:
                return None
        with lock:
            if built["ident"] != ident:
                if built["ident"] is None:
                    rebuild(dt, ident)   # the first model
                else:
                    follow(dt, ident)
                    built.update(size=size, stale=0)
            elif built["size"] != size:
                old_total = built["size"][1]
                built["size"] = size
                if built["stale"] is None:
                    added = -1
                    if built["model"] is not None and isinstance(dt.total, int) and dt.total > 0:
                        added = core.jieba_model_extend(built["model"], dt.FREQ, math.log(dt.total))
                    if added < 0 or added != dt.total - old_total:
                        built["stale"] = 0   # an existing word changed: jieba cuts until the rebuild
            if built["stale"] is not None and built["stale"] >= JIEBA_REBUILD_CHARS:
                rebuild(dt, ident)
        return built["model"] if built["stale"] is None else None

    def segment(text: str) -> List[str]:
        cut = jieba.cut   # what XL-Sum's scorer calls, looked up as it does: at each call
        dt = getattr(cut, "__self__", None)
        current = None
        if (not finalseg.Force_Split_Words and type(dt) is jieba.Tokenizer
                and getattr(cut, "__func__", None) is jieba.Tokenizer.cut):
            current = model(dt)
            if current is None and built["stale"] is not None:
                built["stale"] += len(text)
        if current is None:
            return list(cut(text))
        han, skip = jieba.re_han_default, jieba.re_skip_default
        out: List[str] = []
        for block in han.split(text):   # Tokenizer.cut's outer loop (cut_all=False, HMM=True)
            if not block:
                continue
            if han.match(block):
                out += core.jieba_cut_block(current, block)
            else:
                for piece in skip.split(block):
                    if skip.match(piece):
                        out.append(piece)
                    else:
                        out.extend(piece)
        return out

    return CompiledSegmenter("jieba", "chinese", segment)


def _jieba_model(core, dt, finalseg):
    """The core's copy of jieba's dictionary and HMM, or None when they hold what it cannot take
    (then jieba.cut runs)."""
    states = "BEMS"   # csrc/jieba.c's order (letter order: max() breaks ties by the letter)
    low = finalseg.MIN_FLOAT
    try:
        start = [float(finalseg.start_P[s]) for s in states]
        trans = [float(finalseg.trans_P.get(a, {}).get(b, low)) for a in states for b in states]
        chars = {c for s in states for c in finalseg.emit_P.get(s, {}) if isinstance(c, str) and len(c) == 1}
        emit = {c: [float(finalseg.emit_P.get(s, {}).get(c, low)) for s in states] for c in chars}
        return core.jieba_model(dt.FREQ, math.log(dt.total), start, trans, emit, float(low))
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
