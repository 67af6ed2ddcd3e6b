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
the standard library is used (``xml.dom.minidom``). A DOM keeps text, CDATA and comment nodes
apart, as the Perl's XML::DOM does, and the Perl's rules are stated in DOM terms.

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
import xml.dom.minidom
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple
from xml.dom import Node
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


def _perl_trim(text):
    """Strip leading and trailing whitespace as the Perl's ``s/^[\\n\\s]+//; s/[\\n\\s]+$//``.

    >>> _perl_trim("\\n  SL2003/systems \\n")
    'SL2003/systems'
    >>> _perl_trim("\\x1cx\\x1c")
    '\\x1cx\\x1c'
    """
    return _TRAILING_WS.sub("", _LEADING_WS.sub("", text))


def _name_is(node, name):
    # The Perl tests element names with /^NAME$/i: case-insensitive, the whole name.
    return node.nodeType == Node.ELEMENT_NODE and node.tagName.upper() == name


def _required_attribute(element, attribute):
    # The Perl calls getAttributeNode(NAME)->getValue, which dies when the attribute is absent.
    # The attribute name is case-sensitive there, so "id" does not stand in for "ID".
    attr = element.getAttributeNode(attribute)
    if attr is None:
        raise ValueError(
            "ROUGE config: <%s> element without a %s attribute" % (element.tagName, attribute)
        )
    return attr.value


def _text_runs(element):
    """The element's direct text, as runs of adjacent text/CDATA nodes.

    XML::DOM turns CDATA sections into text and merges them with neighbouring text. A comment,
    processing instruction or child element starts a new text node. The Perl assigns each
    direct text node in turn, so the last run wins.
    """
    runs = []
    current = None
    for child in element.childNodes:
        if child.nodeType in (Node.TEXT_NODE, Node.CDATA_SECTION_NODE):
            current = child.data if current is None else current + child.data
        else:
            if current is not None:
                runs.append(current)
            current = None
    if current is not None:
        runs.append(current)
    return runs


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
    try:
        document = xml.dom.minidom.parseString(source)
    except ExpatError as exc:
        raise ValueError("ROUGE config is not well-formed XML: %s" % exc) from None

    evals = {}  # eval ID -> _EvalState, in first-appearance order (dicts keep insertion order)
    peer_ids = {}  # every declared peer ID, in first-appearance order

    # Walk the tree in document order as the Perl's recursive readEvals does: a stack of
    # (node, current eval ID), so deep nesting cannot hit Python's recursion limit.
    stack = [(document, None)]
    while stack:
        node, eval_id = stack.pop()
        children_eval_id = eval_id
        descend = True
        if node.nodeType == Node.ELEMENT_NODE:
            if _name_is(node, "EVAL"):
                children_eval_id = _required_attribute(node, "ID")
                if children_eval_id not in evals:
                    evals[children_eval_id] = _EvalState(children_eval_id)
            elif _name_is(node, "INPUT-FORMAT"):
                descend = False
                value = _required_attribute(node, "TYPE")
                # Perl's /^(SEE|ISI|SPL|SIMPLE)$/i also accepts one trailing newline (from &#10;).
                m = re.fullmatch("(SEE|ISI|SPL|SIMPLE)\n?", value, re.IGNORECASE)
                if not m:
                    raise ValueError(
                        "ROUGE config: unknown input type %r (expected SEE, ISI, SPL or SIMPLE)"
                        % value
                    )
                _eval_for(evals, eval_id, node.tagName).input_format = m.group(1).upper()
            elif _name_is(node, "PEER-ROOT") or _name_is(node, "MODEL-ROOT"):
                descend = False
                for run in _text_runs(node):
                    state = _eval_for(evals, eval_id, node.tagName)
                    if _name_is(node, "PEER-ROOT"):
                        state.peer_root = _perl_trim(run)
                    else:
                        state.model_root = _perl_trim(run)
            elif _name_is(node, "PEERS"):
                descend = False
                for child in node.childNodes:
                    if not _name_is(child, "P"):
                        continue  # only direct <P> children count, as in the Perl
                    peer_id = _required_attribute(child, "ID")
                    peer_ids.setdefault(peer_id, None)
                    state = _eval_for(evals, eval_id, node.tagName)
                    for run in _text_runs(child):
                        state.peer_files[peer_id] = _perl_trim(run)
            elif _name_is(node, "MODELS"):
                descend = False
                for child in node.childNodes:
                    if not _name_is(child, "M"):
                        continue
                    model_id = _required_attribute(child, "ID")
                    state = _eval_for(evals, eval_id, node.tagName)
                    state.model_ids.append(model_id)
                    for run in _text_runs(child):
                        state.model_files[model_id] = _perl_trim(run)
        elif node.nodeType != Node.DOCUMENT_NODE:
            descend = False  # text, comments, ...: nothing to walk into
        if descend:
            stack.extend((child, children_eval_id) for child in reversed(node.childNodes))

    return Config([state.build() for state in evals.values()], list(peer_ids))


def read_xml_config(path):
    """Read and parse the XML config at ``path`` (see :func:`parse_xml_config`)."""
    with open(path, "rb") as f:
        data = f.read()
    return parse_xml_config(data)


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
    with open(path, "rb") as f:
        data = f.read()
    return parse_file_list(data, fmt, system_id)


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
