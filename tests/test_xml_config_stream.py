"""The streaming config reader (and its fast path for canonical documents) against the DOM walk.

``perl_config.parse_xml_config`` reads a ROUGE config in one pass: regular expressions for the
canonical shape programs write, expat events otherwise.  ``tests/xml_config_reference.py`` keeps
the DOM-walking reader it replaced, whose rules the Perl goldens pinned down.  Here thousands of
generated documents, canonical ones and every oddity the rules talk about (case, nesting, text
runs split by comments, CDATA, entities, duplicate IDs, missing attributes, malformed XML), must
give the same Config or the same error from all readers.
"""
import random

import pytest

from rouge_full_metric import compiled
from rouge_full_metric.cli import perl_config
from rouge_full_metric.cli.perl_config import _read_canonical, _read_streaming, _scan_regex, parse_xml_config

from xml_config_reference import parse_xml_config_dom

IDS = ["1", "2", "10", "a", "", "D30001.M.100.T.A", " x ", "1", "2"]
FILES = ["f.spl", " f.spl ", "\n  dir/f.html\n", "", "café.txt", "a&amp;b", "a > b", "  ", "x\ty",
         "a]]>b", "a]]b"]
DECLARATIONS = ['<?xml version="1.0" encoding="UTF-8"?>', "<?xml version='1.0' standalone='yes'?>",
                '<?xml version="1.0" encoding="utf-8" standalone="no" ?>', '<?xml version="1.0"?>',
                '<?xml  version = "1.0"\tencoding=\'Utf-8\'?>', '<?xml version="1.1"?>',
                '<?xml version="1.0"encoding="utf-8"?>', '<?xml version="1.0" standalone="maybe"?>',
                '<?xml version="1.0" encoding="utf-8\'?>', '<?xmlversion="1.0"?>']
TYPES = ["SPL", "spl", "SEE", "Isi", "SIMPLE", "HTML", "SPL&#10;", " SPL", ""]


def _attr(rng, name, values):
    if rng.random() < 0.05:
        return ""  # missing
    value = rng.choice(values)
    if rng.random() < 0.03:
        name = name.lower()  # the Perl asks for ID / TYPE exactly
    quote = "'" if rng.random() < 0.05 else '"'
    return " %s=%s%s%s" % (name, quote, _escape(value), quote)


def _escape(text):
    """Escape "&" unless the text already holds an entity or character reference."""
    return text if "&amp;" in text or "&#" in text else text.replace("&", "&amp;")


def _text(rng, odd):
    text = rng.choice(FILES)
    if odd:
        r = rng.random()
        if r < 0.15:
            text = text + "<!-- c -->" + rng.choice(FILES)
        elif r < 0.25:
            text = "<![CDATA[" + rng.choice(["x.spl", "a<b", ""]) + "]]>" + text
        elif r < 0.32:
            text = text + "<b>inner</b>" + rng.choice(FILES)
        elif r < 0.37:
            text = text + "<?pi data?>" + rng.choice(FILES)
        elif r < 0.42:
            text = text.replace(".", "&#46;")
    return _escape(text)


def _tag(rng, name, odd):
    if odd and rng.random() < 0.2:
        return rng.choice([name.lower(), name.capitalize(), name])
    return name


def _element(rng, name, attrs, content, odd):
    tag = _tag(rng, name, odd)
    if not content and rng.random() < 0.3:
        return "<%s%s/>" % (tag, attrs)
    return "<%s%s>%s</%s>" % (tag, attrs, content, tag)


def _items(rng, kind, odd):
    parts = []
    for _ in range(rng.randint(0, 3)):
        ws = rng.choice(["", "\n", " "])
        if odd and rng.random() < 0.1:
            parts.append(ws + "<X%s>%s</X>" % (_attr(rng, "ID", IDS), _text(rng, odd)))
        else:
            parts.append(ws + _element(rng, kind, _attr(rng, "ID", IDS), _text(rng, odd), odd))
    if odd and rng.random() < 0.1:
        parts.append("<!-- between -->stray text")
    return "".join(parts) + rng.choice(["", "\n"])


def _eval(rng, odd, depth=0):
    children = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        ws = rng.choice(["", "\n", "\n  "])
        if r < 0.18:
            children.append(ws + _element(rng, "PEER-ROOT", "", _text(rng, odd), odd))
        elif r < 0.36:
            children.append(ws + _element(rng, "MODEL-ROOT", "", _text(rng, odd), odd))
        elif r < 0.52:
            children.append(ws + _element(rng, "INPUT-FORMAT", _attr(rng, "TYPE", TYPES),
                                          rng.choice(["", "\n", "ignored"]), odd))
        elif r < 0.72:
            children.append(ws + _element(rng, "PEERS", "", _items(rng, "P", odd), odd))
        elif r < 0.92:
            children.append(ws + _element(rng, "MODELS", "", _items(rng, "M", odd), odd))
        elif odd and depth < 2:
            children.append(ws + _eval(rng, odd, depth + 1))
        elif odd:
            children.append(ws + "<!-- comment -->")
    return _element(rng, "EVAL", _attr(rng, "ID", IDS), "".join(children) + rng.choice(["", "\n"]), odd)


def _document(rng, odd):
    evals = [rng.choice(["", "\n"]) + _eval(rng, odd) for _ in range(rng.randint(0, 5))]
    body = "".join(evals) + "\n"
    if odd and rng.random() < 0.2:
        body = "<GROUP>" + body + "</GROUP>"
    if odd and rng.random() < 0.1:
        body = "<P ID='s'>outside</P><PEERS><P ID='z'>f</P></PEERS>" + body
    root = rng.choice(["ROUGE-EVAL", "ROUGE_EVAL", "root"])
    attrs = rng.choice(["", ' version="1.0"', ' version="1.0" a="b"'])
    doc = "<%s%s>%s</%s>\n" % (root, attrs, body, root)
    r = rng.random()
    if r < 0.3:
        doc = rng.choice(DECLARATIONS) + rng.choice(["\n", "", " "]) + doc
    elif r < 0.35:
        doc = '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + doc
    elif odd and r < 0.4:
        doc = '<!DOCTYPE r [<!ENTITY e "ent.spl">]>' + doc.replace("f.spl", "&e;")
    if odd:
        r = rng.random()
        if r < 0.05:
            doc = doc.replace("\n", "\r\n")
        elif r < 0.1:
            doc = doc[: rng.randint(0, len(doc))]  # truncated: not well-formed
        elif r < 0.12:
            doc = "\ufeff" + doc
    encoding = "latin-1" if 'encoding="ISO-8859-1"' in doc else "utf-8"
    return doc.encode(encoding, "replace")


def _scan_compiled(data, max_evals):
    """All elements from the C scanner's chunks of max_evals EVALs (None: not canonical)."""
    elements, position = [], 0
    while position >= 0:
        chunk = compiled.core.scan_config(data, position, max_evals)
        if chunk is None:
            return None
        elements += chunk[0]
        position = chunk[1]
    return elements


def _outcome(read, data):
    try:
        return read(data)
    except ValueError as exc:
        return "ValueError: %s" % exc


@pytest.mark.parametrize("odd", [False, True], ids=["canonical-shapes", "odd-documents"])
def test_streaming_reader_equals_dom_walk(odd):
    rng = random.Random(20261122 + odd)
    canonical = 0
    for _ in range(3000):
        data = _document(rng, odd)
        expected = _outcome(parse_xml_config_dom, data)
        assert _outcome(_read_streaming, data) == expected, data
        assert _outcome(parse_xml_config, data) == expected, data
        if compiled.AVAILABLE:  # the C scanner and the regular expressions accept the same documents
            assert _scan_compiled(data, rng.randint(1, 3)) == _scan_regex(data), data
        fast = _read_canonical(data)
        if fast is not None:
            canonical += 1
            assert fast == expected, data
    # Both kinds of document must actually occur, or the comparison proves little.
    assert canonical > (600 if not odd else 100)


def test_canonical_path_takes_program_written_configs():
    data = (b'<?xml version="1.0" encoding="utf-8"?>\n<ROUGE-EVAL version="1.0">\n'
            + b"".join(b'<EVAL ID="%d">\n<MODEL-ROOT>m</MODEL-ROOT>\n<PEER-ROOT>p</PEER-ROOT>\n'
                       b'<INPUT-FORMAT TYPE="SEE">\n</INPUT-FORMAT>\n<PEERS>\n<P ID="1">%d.html</P>\n</PEERS>\n'
                       b'<MODELS>\n<M ID="A">%d.A.html</M>\n<M ID="B">%d.B.html</M>\n</MODELS>\n</EVAL>\n'
                       % (k, k, k, k) for k in range(1, 4))
            + b"</ROUGE-EVAL>\n")
    config = _read_canonical(data)
    assert config is not None and config == parse_xml_config_dom(data)
    assert config.evals[2] == perl_config.Eval("3", "SEE", {"1": "p/3.html"},
                                               [("A", "m/3.A.html"), ("B", "m/3.B.html")])


@pytest.mark.parametrize("data", [
    b'<R><EVAL ID="1"><!-- c --></EVAL></R>',
    b'<R><EVAL ID="1"><PEERS><P ID="s">a&amp;b</P></PEERS></EVAL></R>',
    b'<R><eval ID="1"></eval></R>',
    b'<R>\r\n<EVAL ID="1"></EVAL></R>',
    b'<R a="1" a="2"><EVAL ID="1"></EVAL></R>',
    b'<EVAL ID="1"></EVAL>',
    b'<R><EVAL ID="1"><INPUT-FORMAT TYPE="HTML"/></EVAL></R>',
    b'\xef\xbb\xbf<R></R>',
    b'<R><EVAL ID="1"></EVAL></R><!-- after -->',
    b'<R><EVAL ID="1"></EVAL>',
    b'<R><EVAL ID="1"><PEERS><P ID="s">a]]>b</P></PEERS></EVAL></R>',
])
def test_anything_unusual_leaves_the_canonical_path(data):
    assert _read_canonical(data) is None
    assert _outcome(parse_xml_config, data) == _outcome(parse_xml_config_dom, data)


def test_semantic_error_waits_for_well_formedness():
    # The Perl parses the whole document before it walks it: a malformed document is reported
    # as such even when an element before the damage is already wrong.
    with pytest.raises(ValueError, match="not well-formed"):
        parse_xml_config(b'<R><EVAL ID="1"><INPUT-FORMAT TYPE="HTML"/></EVAL><oops></R>')
    with pytest.raises(ValueError, match="unknown input type 'HTML'"):
        parse_xml_config(b'<R><EVAL ID="1"><INPUT-FORMAT TYPE="HTML"/></EVAL><EVAL/></R>')


def test_undeclared_prefix_is_a_plain_name_as_for_xml_parser():
    # XML::Parser (no namespace processing) reads <x:EVAL> as an element named "x:EVAL": not an
    # EVAL, and no error.  (The DOM reference parses with namespaces and refuses it.)
    config = parse_xml_config(b'<R><x:EVAL ID="1"/><EVAL ID="2"><x:PEERS/></EVAL></R>')
    assert config.evals == [perl_config.Eval("2", None, {}, [])] and config.peer_ids == []
