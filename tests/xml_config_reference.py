"""The DOM-walking ROUGE config reader that ``perl_config.parse_xml_config`` replaced.

It builds a ``xml.dom.minidom`` tree (about 9 kB of Python objects per <EVAL>) and walks it in
document order exactly as the Perl's recursive ``readEvals`` walks its XML::DOM tree.  The
package now reads configs in one streaming pass; ``tests/test_xml_config_stream.py`` checks the
two agree on thousands of generated documents.  The only intended difference: this reader parses
with namespace processing (minidom's default), so an undeclared prefix such as ``<x:EVAL>``
fails here, while the streaming reader, like the Perl's XML::Parser, accepts it.
"""
import re
import xml.dom.minidom
from xml.dom import Node
from xml.parsers.expat import ExpatError

from rouge_full_metric.cli.perl_config import Config, _EvalState, _eval_for, _perl_trim


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


def parse_xml_config_dom(source):
    """The config as ``perl_config.parse_xml_config`` reads it, via a minidom tree."""
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
