"""ROUGE-1.5.5 evaluation configs: the XML config file and the ``-z FMT`` file list (spec §3.1, §3.2).

ROUGE-1.5.5.pl learns which peer (system) and model (reference) files to compare from one of two
inputs:

* an **XML file**: ``<EVAL ID="...">`` elements, each with ``<PEER-ROOT>``, ``<MODEL-ROOT>``,
  ``<INPUT-FORMAT TYPE="...">``, ``<PEERS><P ID="sys">file</P>...</PEERS>`` and
  ``<MODELS><M ID="ref">file</M>...</MODELS>``;
* a **file list** (Perl option ``-z FMT``): one ``peer model1 model2 ...`` line per evaluation.

Both parsers return a :class:`Config` of plain :class:`Eval` records with the paths resolved as the
Perl resolves them. Paths are relative to the working directory, since the Perl opens them as
written. A caller that runs from elsewhere joins them with the config's directory itself. Only
the standard library is used (``xml.parsers.expat``; the compiled core scans canonical configs
when it is built). The Perl builds an XML::DOM tree and walks it, and its rules are stated in DOM
terms below; the XML reader here applies them in one streaming pass, so memory does not grow with
a DOM (a 100 MB tree for 11,490 evaluations).

Rules copied from the Perl, which matter for parity:

* Element names match case-insensitively at any depth. The root element's name is irrelevant.
  Attribute names (``ID``, ``TYPE``) are case-sensitive, since the Perl asks for exactly those.
* ``PEER-ROOT``/``MODEL-ROOT`` text is stripped of surrounding whitespace. A missing root gives
  the path ``"/" + file``, because the Perl joins an undefined root with ``"/"``.
* ``<P>``/``<M>`` must be direct children of ``<PEERS>``/``<MODELS>``. Models keep document order,
  which matters for ``-f B`` ties and W's float sums.
* Duplicate EVAL IDs merge into one evaluation. A later root or file name for the same key
  replaces the earlier one, for all files of that evaluation.
* A ``<P ID="x">`` without text declares the peer (``-a`` still runs it) but gives it no file in
  that evaluation, so the evaluation is skipped for it.

>>> cfg = parse_xml_config('''<ROUGE-EVAL version="1.0">
...   <EVAL ID="1">
...     <PEER-ROOT> systems </PEER-ROOT> <MODEL-ROOT>models</MODEL-ROOT>
...     <INPUT-FORMAT TYPE="see"/>
...     <PEERS><P ID="11">p11.html</P></PEERS>
...     <MODELS><M ID="B">b.html</M><M ID="A">a.html</M></MODELS>
...   </EVAL>
... </ROUGE-EVAL>''')
>>> cfg.evals[0]
Eval(id='1', input_format='SEE', peers={'11': 'systems/p11.html'}, models=[('B', 'models/b.html'), ('A', 'models/a.html')])
>>> parse_file_list(b"# comment\\npeer.spl m1.spl m2.spl\\n", "SPL").evals
[Eval(id='1', input_format='SPL', peers={'X': 'peer.spl'}, models=[('M.1', 'm1.spl'), ('M.2', 'm2.spl')])]
"""

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple
from xml.parsers import expat

from .. import compiled
from .input_files import read_file
from xml.parsers.expat import ExpatError

__all__ = [
    "Eval",
    "Config",
    "INPUT_FORMATS",
    "parse_xml_config",
    "read_xml_config",
    "parse_file_list",
    "read_file_list",
    "read_config",
]

#: The INPUT-FORMAT TYPE values the Perl accepts (matched case-insensitively).
INPUT_FORMATS = ("SEE", "ISI", "SPL", "SIMPLE")


@dataclass
class Eval:
    """One evaluation (one ``<EVAL>``, or one file-list line).

    ``input_format`` is ``"SEE"``, ``"SPL"``, ``"ISI"`` or ``"SIMPLE"``, or ``None`` when the
    ``<EVAL>`` had no ``<INPUT-FORMAT>``. The Perl accepts that config and dies only when it reads
    a file ("Unknown input format"). ``peers`` maps peer ID to path, in first-listed order.
    ``models`` holds ``(model_id, path)`` pairs in document order.
    """

    id: str
    input_format: Optional[str]
    peers: Dict[str, str] = field(default_factory=dict)
    models: List[Tuple[str, str]] = field(default_factory=list)


@dataclass
class Config:
    """A parsed config: its evaluations, in first-appearance order of their IDs, and its peers.

    ``peer_ids`` lists every peer ID the config declares, in first-appearance order. It also
    holds peers that no evaluation gives a file, and for a file list it is just the system ID.
    The Perl's ``-a`` runs ``sorted(peer_ids)``: plain string order, so ``"10" < "9"``.
    """

    evals: List[Eval] = field(default_factory=list)
    peer_ids: List[str] = field(default_factory=list)

    def sorted_peer_ids(self):
        """The peers in the order ``-a`` evaluates them: sorted as strings.

        >>> Config(peer_ids=["9", "10", "B", "A"]).sorted_peer_ids()
        ['10', '9', 'A', 'B']
        """
        return sorted(self.peer_ids)

    def evals_for_peer(self, peer_id):
        """The evaluations that give ``peer_id`` a file, in config order.

        The Perl skips the other evaluations for this peer (with a warning). It does not score
        them as zero.
        """
        return [ev for ev in self.evals if peer_id in ev.peers]


# Perl's ``\s`` on the Unicode strings XML::Parser returns: ASCII whitespace, VT, NEL, NBSP and
# the Unicode spaces. Python's ``str.strip()`` would also remove \x1c-\x1f, which Perl keeps.
_PERL_UNICODE_WS = "[\t\n\x0b\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
_LEADING_WS = re.compile("\\A" + _PERL_UNICODE_WS + "+")
_TRAILING_WS = re.compile(_PERL_UNICODE_WS + "+\\Z")
_PERL_WS_SET = frozenset("\t\n\x0b\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
                         + "".join(map(chr, range(0x2000, 0x200B))))


def _perl_trim(text):
    """Strip leading and trailing whitespace as the Perl's ``s/^[\\n\\s]+//; s/[\\n\\s]+$//``.

    >>> _perl_trim("\\n  SL2003/systems \\n")
    'SL2003/systems'
    >>> _perl_trim("\\x1cx\\x1c")
    '\\x1cx\\x1c'
    """
    if text and text[0] not in _PERL_WS_SET and text[-1] not in _PERL_WS_SET:
        return text  # the usual case, without two regex calls
    return _TRAILING_WS.sub("", _LEADING_WS.sub("", text))


class _EvalState:
    """What the Perl stores per EVAL ID. Paths are built only at the end, as the Perl does at
    scoring time, so that a merged duplicate EVAL's later root applies to all its files."""

    def __init__(self, eval_id):
        self.id = eval_id
        self.input_format = None
        self.peer_root = None
        self.model_root = None
        self.peer_files = {}  # peer ID -> file; a repeated ID keeps its place, the last file wins
        self.model_ids = []  # document order; a repeated ID is listed again
        self.model_files = {}  # model ID -> file; the last one wins for every listing of the ID

    def build(self):
        # An undefined root joins as "" + "/" + file, i.e. "/file", exactly like the Perl.
        peer_root = self.peer_root if self.peer_root is not None else ""
        model_root = self.model_root if self.model_root is not None else ""
        peers = {pid: peer_root + "/" + f for pid, f in self.peer_files.items()}
        # An <M> without text leaves its file undefined. The Perl then builds "root/" (and later
        # dies when it does not exist or reads nothing). Keep that path instead of guessing.
        models = [(mid, model_root + "/" + self.model_files.get(mid, "")) for mid in self.model_ids]
        return Eval(self.id, self.input_format, peers, models)


def _eval_for(evals, eval_id, what):
    # Outside any <EVAL> the Perl's eval ID is undef, which as a hash key is "". So such
    # elements attach to an <EVAL ID=""> if there is one, and otherwise the Perl dies.
    key = "" if eval_id is None else eval_id
    if key not in evals:
        raise ValueError(
            "ROUGE config: <%s> outside of any <EVAL> (no evaluation with ID %r)" % (what, key)
        )
    return evals[key]


# What an open element does with what it contains (see parse_xml_config).
_NORMAL, _IGNORE, _ROOT, _LIST, _ITEM = range(5)
_UPPER_CACHE_LIMIT = 4096


def parse_xml_config(source):
    """Parse the text (``str`` or ``bytes``) of a ROUGE-1.5.5 XML config into a :class:`Config`.

    Raises :class:`ValueError` for XML that does not parse, a missing ``ID``/``TYPE``
    attribute, an unknown input format, or ``PEERS``/``MODELS``/roots outside an ``<EVAL>``.

    >>> cfg = parse_xml_config('''<root><group>
    ...   <eval ID="2"><input-format TYPE="Spl"/><peers><p ID="s">a.txt</p></peers></eval>
    ...   <EVAL ID="2"><MODELS><M ID="m">r.txt</M></MODELS><PEER-ROOT>p</PEER-ROOT></EVAL>
    ... </group></root>''')
    >>> cfg.evals
    [Eval(id='2', input_format='SPL', peers={'s': 'p/a.txt'}, models=[('m', '/r.txt')])]
    >>> parse_xml_config('<R><EVAL ID="1"><INPUT-FORMAT TYPE="HTML"/></EVAL></R>')
    Traceback (most recent call last):
    ...
    ValueError: ROUGE config: unknown input type 'HTML' (expected SEE, ISI, SPL or SIMPLE)
    """
    # Programs write configs in one shape, which regular expressions read fast; anything else
    # goes through expat.
    config = _read_canonical(source)
    if config is not None:
        return config
    return _read_streaming(source)


def _read_streaming(source):
    # One streaming pass over expat's events, holding only the open elements: the Perl builds an
    # XML::DOM tree and walks it (readEvals), and the rules below are that walk restated per
    # event.  The walk visits elements in document order and does not descend into
    # INPUT-FORMAT, the roots, PEERS or MODELS, so everything inside those is either read
    # right there (direct <P>/<M> children, direct text) or ignored.
    #
    # Each open element is a frame [kind, eval ID of its content, ...]:
    #   _NORMAL  descend; EVAL sets the eval ID of its content
    #   _IGNORE  nothing inside counts
    #   _ROOT    [.., tag, is_peer_root, current run, last run]: PEER-ROOT / MODEL-ROOT text
    #   _LIST    [.., tag, "P" or "M"]: PEERS / MODELS, only direct <P>/<M> children count
    #   _ITEM    [.., tag, state, is_peer, ID, current run, last run]: a <P> or <M>
    # A text run is adjacent character data (CDATA included); a child element, a comment or
    # a processing instruction ends it, as they start a new node in the DOM.  The last run wins.
    #
    # The Perl parses the whole document before it walks it, so a malformed document fails as
    # such even after a semantic error: the first semantic error is kept until the end.
    evals = {}  # eval ID -> _EvalState, in first-appearance order (dicts keep insertion order)
    peer_ids = {}  # every declared peer ID, in first-appearance order
    stack = [[_NORMAL, None]]
    upper = {}  # tag -> tag.upper(): tags repeat, upper() per element would dominate
    failed = []

    def fail(error):
        failed.append(error)
        parser.StartElementHandler = parser.EndElementHandler = None
        parser.CharacterDataHandler = parser.CommentHandler = None
        parser.ProcessingInstructionHandler = None

    def end_run(frame):
        if frame[-2] is not None:
            frame[-1] = frame[-2]
            frame[-2] = None

    def start(name, attributes):
        top = stack[-1]
        kind = top[0]
        if kind == _IGNORE:
            stack.append(top)  # the same immutable-in-effect frame: nothing inside counts
            return
        if kind == _ROOT or kind == _ITEM:
            end_run(top)
            stack.append(_IGNORED)
            return
        tag = upper.get(name)
        if tag is None:
            tag = name.upper()
            if len(upper) < _UPPER_CACHE_LIMIT:
                upper[name] = tag
        eval_id = top[1]
        try:
            if kind == _LIST:
                if tag != top[3]:
                    stack.append(_IGNORED)
                    return
                item_id = _required_attribute(name, attributes, "ID")
                is_peer = tag == "P"
                if is_peer:
                    peer_ids.setdefault(item_id, None)
                state = _eval_for(evals, eval_id, top[2])
                if not is_peer:
                    state.model_ids.append(item_id)
                stack.append([_ITEM, eval_id, name, state, is_peer, item_id, None, None])
            elif tag == "EVAL":
                child_id = _required_attribute(name, attributes, "ID")
                if child_id not in evals:
                    evals[child_id] = _EvalState(child_id)
                stack.append([_NORMAL, child_id])
            elif tag == "INPUT-FORMAT":
                value = _required_attribute(name, attributes, "TYPE")
                # Perl's /^(SEE|ISI|SPL|SIMPLE)$/i also accepts one trailing newline (from &#10;).
                m = _INPUT_TYPE.fullmatch(value)
                if not m:
                    raise ValueError("ROUGE config: unknown input type %r (expected SEE, ISI, SPL or SIMPLE)"
                                     % value)
                _eval_for(evals, eval_id, name).input_format = m.group(1).upper()
                stack.append(_IGNORED)
            elif tag == "PEERS" or tag == "MODELS":
                stack.append([_LIST, eval_id, name, tag[0]])
            elif tag == "PEER-ROOT" or tag == "MODEL-ROOT":
                stack.append([_ROOT, eval_id, name, tag == "PEER-ROOT", None, None])
            else:
                stack.append(top)  # any other element: its content is read like its parent's
        except ValueError as error:
            fail(error)

    def end(name):
        frame = stack.pop()
        kind = frame[0]
        if kind != _ROOT and kind != _ITEM:
            return
        run = frame[-2] if frame[-2] is not None else frame[-1]
        if run is None:
            return
        try:
            if kind == _ITEM:
                files = frame[3].peer_files if frame[4] else frame[3].model_files
                files[frame[5]] = _perl_trim(run)
            else:
                state = _eval_for(evals, frame[1], frame[2])
                if frame[3]:
                    state.peer_root = _perl_trim(run)
                else:
                    state.model_root = _perl_trim(run)
        except ValueError as error:
            fail(error)

    def text(data):
        top = stack[-1]
        if top[0] == _ROOT or top[0] == _ITEM:
            top[-2] = data if top[-2] is None else top[-2] + data

    def other(*_):
        top = stack[-1]
        if top[0] == _ROOT or top[0] == _ITEM:
            end_run(top)

    parser = expat.ParserCreate()
    # As xml.dom.minidom and XML::Parser: whole text chunks, attributes as written (no DTD
    # defaults), comments and processing instructions seen.
    parser.buffer_text = True
    parser.buffer_size = 1 << 16
    parser.specified_attributes = True
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.CommentHandler = other
    parser.ProcessingInstructionHandler = other
    try:
        parser.Parse(source, True)
    except ExpatError as exc:
        raise ValueError("ROUGE config is not well-formed XML: %s" % exc) from None
    except LookupError as exc:
        # expat asks Python's codecs for an encoding it does not know itself (issue 12)
        raise ValueError("ROUGE config: the XML declaration names an encoding this machine does not know "
                         "(%s); write the config in UTF-8 (encoding=\"UTF-8\")" % exc) from None
    if failed:
        raise failed[0]
    return Config([state.build() for state in evals.values()], list(peer_ids))


_IGNORED = [_IGNORE, None]
_INPUT_TYPE = re.compile("(SEE|ISI|SPL|SIMPLE)\n?", re.IGNORECASE)


def _required_attribute(tag, attributes, attribute):
    # The Perl calls getAttributeNode(NAME)->getValue, which dies when the attribute is absent.
    # The attribute name is case-sensitive there, so "id" does not stand in for "ID".
    value = attributes.get(attribute)
    if value is None:
        raise ValueError("ROUGE config: <%s> element without a %s attribute" % (tag, attribute))
    return value


# ----------------------------------------------------------------------------- canonical configs
# Nearly every config in use is written by a program (pyrouge, files2rouge, sacrerouge, ...) in
# one shape: a root element holding <EVAL ID="..."> elements whose children are the five known
# elements in upper case, attributes in double quotes, no comments, CDATA, entities, DOCTYPE or
# carriage returns.  For such a document the XML events are fully determined by a few regular
# expressions (or the compiled core's scan_config, the same grammar), so _read_canonical reads it
# without a handler call per XML event: for 11,490 evaluations about 0.27 s with the regular
# expressions and 0.13 s with the core, against 0.5 s for the expat pass.  Anything else, down
# to a single unusual byte, returns None and goes through expat.  tests/test_xml_config_stream.py
# checks the paths against each other and against a DOM reader on generated documents.
_XML_S = "[ \t\n]"
_ATTR_VALUE = '"[^"<\t\n]*"'  # no tab/newline: XML would normalise them to spaces
_CANONICAL_DECL = re.compile(
    "<\\?xml%(s)s+version%(s)s*=%(s)s*([\"'])1\\.0\\1"
    "(?:%(s)s+encoding%(s)s*=%(s)s*([\"'])(?i:utf-8)\\2)?"
    "(?:%(s)s+standalone%(s)s*=%(s)s*([\"'])(?:yes|no)\\3)?%(s)s*\\?>" % {"s": _XML_S})
_CANONICAL_ROOT = re.compile(
    "%(s)s*<([A-Za-z_][-A-Za-z0-9._]*)((?:%(s)s+[A-Za-z_][-A-Za-z0-9._]*%(s)s*=%(s)s*%(v)s)*)%(s)s*>"
    % {"s": _XML_S, "v": _ATTR_VALUE})
_SPECIAL_TAGS = frozenset(("EVAL", "INPUT-FORMAT", "PEER-ROOT", "MODEL-ROOT", "PEERS", "MODELS"))
_CANONICAL_ATTR_NAME = re.compile("([A-Za-z_][-A-Za-z0-9._]*)%s*=" % _XML_S)
_CANONICAL_BODY = re.compile(
    '(?:[^<]*<EVAL%(s)s+ID%(s)s*=%(s)s*%(v)s%(s)s*>(?:[^<]*<(?:'
    "PEER-ROOT>[^<]*</PEER-ROOT|MODEL-ROOT>[^<]*</MODEL-ROOT"
    "|INPUT-FORMAT%(s)s+TYPE%(s)s*=%(s)s*%(v)s%(s)s*(?:/|>[^<]*</INPUT-FORMAT)"
    "|PEERS>(?:[^<]*<P%(s)s+ID%(s)s*=%(s)s*%(v)s%(s)s*>[^<]*</P>)*[^<]*</PEERS"
    "|MODELS>(?:[^<]*<M%(s)s+ID%(s)s*=%(s)s*%(v)s%(s)s*>[^<]*</M>)*[^<]*</MODELS"
    ")>)*[^<]*</EVAL>)*[^<]*</([A-Za-z_][-A-Za-z0-9._]*)%(s)s*>%(s)s*" % {"s": _XML_S, "v": _ATTR_VALUE})
# In a document _CANONICAL_BODY matched, every "<" opens one of its tags, so these are exactly
# the elements that carry data, in document order.
_CANONICAL_ELEMENTS = re.compile(
    '<(?:(P|M)%(s)s+ID%(s)s*=%(s)s*"([^"]*)"%(s)s*>([^<]*)|(EVAL)%(s)s+ID%(s)s*=%(s)s*"([^"]*)"'
    '|(PEER-ROOT|MODEL-ROOT)>([^<]*)|(INPUT-FORMAT)%(s)s+TYPE%(s)s*=%(s)s*"([^"]*)")' % {"s": _XML_S})
# Bytes that make a document non-canonical: ones XML forbids or rewrites (\r), and "&" (entity
# and character references); "]]>" is not allowed in text either.  Markup other than elements
# (<!-- -->, <![CDATA[, <!DOCTYPE, <?pi) fails _CANONICAL_BODY.
_NON_CANONICAL_BYTES = bytes(range(0, 9)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20)) + b"\r&"


def _scan_regex(data):
    """The data-carrying elements of a canonical config (bytes) as ``_CANONICAL_ELEMENTS.findall``
    tuples, in document order, or None when the document is not canonical."""
    if (not isinstance(data, bytes) or data[:3] == b"\xef\xbb\xbf"
            or len(data.translate(None, _NON_CANONICAL_BYTES)) != len(data)
            or b"\xef\xbf\xbe" in data or b"\xef\xbf\xbf" in data or b"]]>" in data):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    start = 0
    if text.startswith("<?"):
        declaration = _CANONICAL_DECL.match(text)
        if declaration is None:
            return None
        start = declaration.end()
    root = _CANONICAL_ROOT.match(text, start)
    if root is None or root.group(1).upper() in _SPECIAL_TAGS:
        return None
    names = _CANONICAL_ATTR_NAME.findall(root.group(2))
    if len(set(names)) != len(names):
        return None  # a repeated attribute: not well-formed
    body = _CANONICAL_BODY.fullmatch(text, root.end())
    if body is None or body.group(1) != root.group(1):
        return None
    return _CANONICAL_ELEMENTS.findall(text, root.end())


def _scan(data):
    """:func:`_scan_regex` in chunks of elements (one chunk: the whole list), in C when the core
    is built; yields None where the document turns out not to be canonical."""
    scan = getattr(compiled.core, "scan_config", None) if compiled.AVAILABLE else None
    if scan is None:
        yield _scan_regex(data)
        return
    position = 0
    while position >= 0:
        chunk = scan(data, position)
        if chunk is None:
            yield None
            return
        elements, position = chunk
        yield elements


def _read_canonical(data):
    """The Config of a canonical config document (bytes), or None when it is not one."""
    evals, peer_ids, formats = {}, {}, {}
    state = None
    for elements in _scan(data):
        if elements is None:
            return None
        for item, item_id, item_text, is_eval, eval_id, root_tag, root_text, _, input_type in elements:
            if item == "P":
                peer_ids.setdefault(item_id, None)
                if item_text:  # no text: no text node, nothing is assigned
                    state.peer_files[item_id] = _perl_trim(item_text)
            elif item:
                state.model_ids.append(item_id)
                if item_text:
                    state.model_files[item_id] = _perl_trim(item_text)
            elif is_eval:
                state = evals.get(eval_id)
                if state is None:
                    state = evals[eval_id] = _EvalState(eval_id)
            elif root_tag:
                if root_text:
                    if root_tag == "PEER-ROOT":
                        state.peer_root = _perl_trim(root_text)
                    else:
                        state.model_root = _perl_trim(root_text)
            else:
                input_format = formats.get(input_type)
                if input_format is None:
                    found = _INPUT_TYPE.fullmatch(input_type)
                    if not found:
                        return None  # the expat pass raises the error
                    input_format = formats[input_type] = found.group(1).upper()
                state.input_format = input_format
    return Config([state.build() for state in evals.values()], list(peer_ids))


def read_xml_config(path):
    """Read and parse the XML config at ``path`` (see :func:`parse_xml_config`)."""
    return parse_xml_config(read_file(path))


def parse_file_list(data, fmt, system_id="X"):
    """Parse a ``-z FMT`` file list (spec §3.2) into a :class:`Config`.

    Each line is ``peer model1 model2 ...``, separated by whitespace. Lines starting with ``#``
    (in the first column) and whitespace-only lines are skipped. A line with fewer than two
    fields raises :class:`ValueError`. Eval IDs are ``"1"``, ``"2"``, ... over the valid lines.
    Model IDs are ``"M.1"``, ``"M.2"``, ... within a line. Paths are used as written, with no
    roots. The peer ID is ``system_id`` (the Perl's second argument, default ``"X"``).

    ``fmt`` applies to every evaluation. As in the Perl, it is only checked when files are
    read. A known name is stored upper-cased.

    ``data`` is bytes (or ``str``). Lines split on ``\\n`` only, and whitespace is ASCII
    whitespace, as for the Perl's byte strings. Paths are decoded with :func:`os.fsdecode`, so
    opening them reaches the same bytes.

    >>> cfg = parse_file_list(b"p1 m1 m2\\n\\n  \\n#p2 m3\\n p3\\tm4 \\n", "spl", "26")
    >>> [(e.id, e.peers, e.models) for e in cfg.evals]
    [('1', {'26': 'p1'}, [('M.1', 'm1'), ('M.2', 'm2')]), ('2', {'26': 'p3'}, [('M.1', 'm4')])]
    >>> cfg.peer_ids
    ['26']
    >>> parse_file_list(b"lonely-peer\\n", "SPL")
    Traceback (most recent call last):
    ...
    ValueError: file list line 1: at least 2 file names are needed (peer model1 ... modelN), got b'lonely-peer'
    """
    if isinstance(data, str):
        data = os.fsencode(data)
    input_format = fmt.upper() if isinstance(fmt, str) and fmt.upper() in INPUT_FORMATS else fmt
    evals = []
    pieces = data.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()  # nothing follows a final newline
    for number, line in enumerate(pieces, 1):
        # The comment test looks at the raw line, so " # x" is not a comment. bytes.split()
        # and strip() use ASCII whitespace, the same set as Perl's \s on bytes.
        if line.startswith(b"#") or not line.strip():
            continue
        files = line.split()
        if len(files) < 2:
            raise ValueError(
                "file list line %d: at least 2 file names are needed (peer model1 ... modelN), "
                "got %r" % (number, line)
            )
        peer, models = files[0], files[1:]
        evals.append(
            Eval(
                id=str(len(evals) + 1),
                input_format=input_format,
                peers={system_id: os.fsdecode(peer)},
                models=[("M.%d" % i, os.fsdecode(m)) for i, m in enumerate(models, 1)],
            )
        )
    # The Perl registers the system ID before reading any line, so it is a peer even when the
    # list is empty.
    return Config(evals, [system_id])


def read_file_list(path, fmt, system_id="X"):
    """Read and parse the ``-z FMT`` file list at ``path`` (see :func:`parse_file_list`)."""
    return parse_file_list(read_file(path), fmt, system_id)


def read_config(path, file_list_format=None, system_id=None):
    """Read a config as the Perl command line does.

    With ``file_list_format`` (the ``-z FMT`` value), ``path`` is a file list and the peer ID is
    ``system_id``, or ``"X"``. Otherwise ``path`` is an XML config, and ``system_id`` is not used
    here: with it the Perl scores that one peer, without it every peer in
    :meth:`Config.sorted_peer_ids`.
    """
    if file_list_format is not None:
        return read_file_list(path, file_list_format, "X" if system_id is None else system_id)
    return read_xml_config(path)
