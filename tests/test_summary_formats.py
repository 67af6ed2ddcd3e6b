"""Unit tests for the ROUGE-1.5.5 input readers: summary formats and configs (spec §3, §10).

Self-contained: no file from /work/shared is needed.
"""

import doctest
import os

import pytest

from rouge_full_metric.cli import perl_config, summary_formats
from rouge_full_metric.cli.perl_config import Config, Eval, parse_file_list, parse_xml_config
from rouge_full_metric.cli.summary_formats import read_basic_elements, read_sentences


def see_line(n, text, id_attr=None, size=False, sep=b" "):
    """One SEE sentence line as the SEE tool writes it (``id_attr`` overrides ``id=N``)."""
    num = str(n).encode()
    head = b'<a size="%s" name="%s">' % (num, num) if size else b'<a name="%s">' % num
    id_part = id_attr if id_attr is not None else b"id=" + num
    return head + b"[" + num + b"]</a>" + sep + b'<a href="#' + num + b'" ' + id_part + b">" + text


SEE_HEADER = b'<html>\n<head>\n<title>X</title>\n</head>\n<body bgcolor="white">\n'
SEE_FOOTER = b"</body>\n</html>\n"


# --------------------------------------------------------------------------------------- doctests


@pytest.mark.parametrize("module", [summary_formats, perl_config])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


# -------------------------------------------------------------------------------------------- SEE


def test_see_basic_sentences():
    data = (
        SEE_HEADER
        + see_line(1, b"Poor nations demand trade subsidies.</a>\n")
        + see_line(2, b"Second sentence.</a>\n")
        + SEE_FOOTER
    )
    assert read_sentences(data, "SEE") == [b"Poor nations demand trade subsidies.", b"Second sentence."]


def test_see_unquoted_id_only():
    data = see_line(1, b"kept</a>\n") + see_line(2, b"dropped</a>\n", id_attr=b'id="2"')
    assert read_sentences(data, "SEE") == [b"kept"]


def test_see_size_variant():
    data = see_line(1, b"sized</a>\n", size=True) + see_line(2, b"plain</a>\n")
    assert read_sentences(data, "SEE") == [b"sized", b"plain"]


def test_see_text_up_to_first_lt():
    data = see_line(1, b"before <b>bold</b> after</a>\n")
    assert read_sentences(data, "SEE") == [b"before "]


def test_see_text_to_end_of_line_keeps_newline_and_loses_continuation():
    # The Perl's [^<]+ also eats the line's "\n" (one byte under -b). The next line does not
    # start with the anchor, so the continuation is lost.
    data = see_line(1, b"The/ Officers it/ The discussion\n") + b"continued here</a>\n"
    assert read_sentences(data, "SEE") == [b"The/ Officers it/ The discussion\n"]


def test_see_crlf_kept():
    data = see_line(1, b"no closing tag\r\n") + see_line(2, b"closed\r</a>\r\n")
    assert read_sentences(data, "SEE") == [b"no closing tag\r\n", b"closed\r"]


def test_see_last_line_without_newline():
    assert read_sentences(see_line(1, b"tail"), "SEE") == [b"tail"]


def test_see_entities_not_decoded():
    data = see_line(1, b"Tom &amp; Jerry &quot;x&quot;</a>\n")
    assert read_sentences(data, "SEE") == [b"Tom &amp; Jerry &quot;x&quot;"]


def test_see_non_ascii_bytes_untouched():
    data = see_line(1, "Café Ærø 東京".encode("utf-8") + b"\xff</a>\n")
    assert read_sentences(data, "SEE") == ["Café Ærø 東京".encode("utf-8") + b"\xff"]


def test_see_no_lowercasing():
    assert read_sentences(see_line(1, b"MiXeD Case</a>\n"), "see") == [b"MiXeD Case"]


def test_see_whitespace_between_tags():
    # \s+ between the two anchors: tabs and several spaces are fine, nothing is not.
    data = (
        see_line(1, b"tab</a>\n", sep=b"\t")
        + see_line(2, b"spaces</a>\n", sep=b"   ")
        + see_line(3, b"none</a>\n", sep=b"")
    )
    assert read_sentences(data, "SEE") == [b"tab", b"spaces"]


def test_see_must_start_the_line():
    data = b" " + see_line(1, b"indented</a>\n") + b"x" + see_line(2, b"prefixed</a>\n")
    assert read_sentences(data, "SEE") == []


def test_see_case_sensitive_tags():
    data = see_line(1, b"ok</a>\n") + b'<A NAME="2">[2]</A> <A HREF="#2" ID=2>upper</A>\n'
    assert read_sentences(data, "SEE") == [b"ok"]


def test_see_empty_text_is_no_sentence_but_lone_newline_is():
    # [^<]+ needs at least one byte: "<a ...id=1></a>" gives nothing, "id=1>\n" gives "\n".
    data = see_line(1, b"</a>\n") + see_line(2, b"\n")
    assert read_sentences(data, "SEE") == [b"\n"]


def test_see_split_on_newline_only():
    # Form feed, VT, NEL and U+2028 are not line breaks for the Perl.
    data = see_line(1, b"a\x0cb\x0bc\xc2\x85d\xe2\x80\xa8e</a>\n")
    assert read_sentences(data, "SEE") == [b"a\x0cb\x0bc\xc2\x85d\xe2\x80\xa8e"]


def test_see_non_numeric_ids_do_not_match():
    data = b'<a name="x">[1]</a> <a href="#1" id=1>bad name</a>\n'
    data += b'<a name="1">[1]</a> <a href="#a" id=1>bad href</a>\n'
    data += b'<a name="1">[1]</a> <a href="#1" id=a>bad id</a>\n'
    assert read_sentences(data, "SEE") == []


# -------------------------------------------------------------------------------------------- SPL


def test_spl_whitespace_only_lines_kept_empty_lines_skipped():
    data = b"First.\n\n   \n\t\nSecond.\n"
    assert read_sentences(data, "SPL") == [b"First.", b"   ", b"\t", b"Second."]


def test_spl_cr_kept():
    data = b"One.\r\n\r\nTwo.\r\n"
    assert read_sentences(data, "SPL") == [b"One.\r", b"\r", b"Two.\r"]


def test_spl_last_line_without_newline():
    assert read_sentences(b"a\nb", "SPL") == [b"a", b"b"]
    assert read_sentences(b"only", "spl") == [b"only"]


def test_spl_empty_file():
    assert read_sentences(b"", "SPL") == []
    assert read_sentences(b"\n\n", "SPL") == []


def test_spl_keeps_markup_and_case():
    data = b"<b>Not HTML-aware</b> &amp;\n"
    assert read_sentences(data, "SPL") == [b"<b>Not HTML-aware</b> &amp;"]


def test_spl_split_on_newline_only():
    data = b"a\rb\x0cc\xe2\x80\xa8d\nnext"
    assert read_sentences(data, "SPL") == [b"a\rb\x0cc\xe2\x80\xa8d", b"next"]


# -------------------------------------------------------------------------------------------- ISI


def test_isi_sentences():
    data = (
        b"<DOC>\n"
        b'<S SNTNO="1">First sentence.</S>\n'
        b'<S SNTNO="2a,b">Second, with &amp; kept.</S> trailing junk\n'
        b'<S SNTNO="3">Has <i>markup</i> inside.</S>\n'
        b'<S SNTNO="4">Not closed on this line\n'
        b"</S>\n"
        b'<s sntno="5">lower-case tag</s>\n'
        b'<S SNTNO="X">upper-case number</S>\n'
        b' <S SNTNO="7">indented</S>\n'
        b'<S SNTNO="8">CR inside\r</S>\r\n'
        b"</DOC>\n"
    )
    assert read_sentences(data, "ISI") == [
        b"First sentence.",
        b"Second, with &amp; kept.",
        b"CR inside\r",
    ]


def test_isi_last_line_without_newline():
    assert read_sentences(b'<S SNTNO="1">End</S>', "isi") == [b"End"]


# ------------------------------------------------------------------------------ format handling


@pytest.mark.parametrize("fmt", ["SEE", "see", "Spl", "iSi"])
def test_format_case_insensitive(fmt):
    assert isinstance(read_sentences(b"", fmt), list)


@pytest.mark.parametrize("fmt", ["HTML", "", "SEE ", "SIMPLE", "simple"])
def test_unknown_format(fmt):
    with pytest.raises(ValueError, match="Unknown input format"):
        read_sentences(b"x\n", fmt)


def test_unknown_format_is_named():
    with pytest.raises(ValueError, match="HTML"):
        read_sentences(b"x\n", "HTML")


def test_str_input_refused():
    with pytest.raises(TypeError):
        read_sentences("text\n", "SPL")


def test_read_file(tmp_path):
    p = tmp_path / "s.html"
    p.write_bytes(see_line(1, b"From a file.</a>\n"))
    assert summary_formats.read_file(str(p), "SEE") == [b"From a file."]
    assert summary_formats.read_file(p, "SPL") == [see_line(1, b"From a file.</a>")]
    with pytest.raises(OSError):
        summary_formats.read_file(str(tmp_path / "missing"), "SPL")


# ----------------------------------------------------------------------------- Basic Elements


def test_be_lines_lowercased_and_split():
    data = b"Pinochet|ARREST|nn\nLondon|nil|nil\n"
    assert read_basic_elements(data) == [(b"pinochet", b"arrest", b"nn"), (b"london", b"nil", b"nil")]


def test_be_lowercase_is_ascii_only():
    # Like Perl's tr/A-Z/a-z/: the UTF-8 bytes of É and Ä are left alone.
    assert read_basic_elements("ÉCOLE|Ä|X\n".encode("utf-8")) == [("É".encode() + b"cole", "Ä".encode(), b"x")]


def test_be_trailing_empty_field_counts_as_missing():
    with pytest.raises(ValueError):
        read_basic_elements(b"head|mod|\n")
    with pytest.raises(ValueError):
        read_basic_elements(b"head||\n")


def test_be_extra_trailing_separator_is_dropped():
    # Perl's split drops trailing empty fields, so a fourth, empty field is harmless.
    assert read_basic_elements(b"h|m|r|\n") == [(b"h", b"m", b"r")]
    assert read_basic_elements(b"h|m|r||\n") == [(b"h", b"m", b"r")]


def test_be_leading_and_middle_empty_fields_kept():
    assert read_basic_elements(b"|m|r\nh||r\n") == [(b"", b"m", b"r"), (b"h", b"", b"r")]


@pytest.mark.parametrize("line", [b"h|m", b"h|m|r|x", b"h", b"", b"||", b"h m r"])
def test_be_wrong_field_count(line):
    with pytest.raises(ValueError, match="line 2"):
        read_basic_elements(b"ok|ok|ok\n" + line + b"\n")


def test_be_blank_line_is_an_error():
    with pytest.raises(ValueError):
        read_basic_elements(b"a|b|c\n\nd|e|f\n")


def test_be_cr_kept_and_last_line_without_newline():
    assert read_basic_elements(b"a|b|c\r\nd|e|f") == [(b"a", b"b", b"c\r"), (b"d", b"e", b"f")]


def test_be_empty_file():
    assert read_basic_elements(b"") == []


def test_be_file(tmp_path):
    p = tmp_path / "x.be"
    p.write_bytes(b"A|B|C\n")
    assert summary_formats.read_be_file(p) == [(b"a", b"b", b"c")]


# --------------------------------------------------------------------------------- XML config

OFFICIAL_LIKE = """<ROUGE-EVAL version="1.0">
<EVAL ID="1">
<PEER-ROOT>
SL2003/systems
</PEER-ROOT>
<MODEL-ROOT>
SL2003/models
</MODEL-ROOT>
<INPUT-FORMAT TYPE="SEE">
</INPUT-FORMAT>
<PEERS>
<P ID="11">p11-01.html</P>
<P ID="2">p2-01.html</P>
</PEERS>
<MODELS>
<M ID="C">c-01.html</M>
<M ID="A">a-01.html</M>
</MODELS>
</EVAL>
<EVAL ID="2">
<PEER-ROOT>SL2003/systems</PEER-ROOT>
<MODEL-ROOT>SL2003/models</MODEL-ROOT>
<INPUT-FORMAT TYPE="SEE"/>
<PEERS>
<P ID="11">p11-02.html</P>
</PEERS>
<MODELS>
<M ID="A">a-02.html</M>
</MODELS>
</EVAL>
</ROUGE-EVAL>
"""


def test_xml_official_shape():
    cfg = parse_xml_config(OFFICIAL_LIKE)
    assert cfg.evals == [
        Eval(
            "1",
            "SEE",
            {"11": "SL2003/systems/p11-01.html", "2": "SL2003/systems/p2-01.html"},
            [("C", "SL2003/models/c-01.html"), ("A", "SL2003/models/a-01.html")],
        ),
        Eval("2", "SEE", {"11": "SL2003/systems/p11-02.html"}, [("A", "SL2003/models/a-02.html")]),
    ]
    assert cfg.peer_ids == ["11", "2"]
    assert cfg.sorted_peer_ids() == ["11", "2"]  # string order, as the Perl's -a
    assert [e.id for e in cfg.evals_for_peer("2")] == ["1"]
    assert [e.id for e in cfg.evals_for_peer("11")] == ["1", "2"]


def test_xml_bytes_input_and_file(tmp_path):
    p = tmp_path / "c.xml"
    p.write_bytes(OFFICIAL_LIKE.encode())
    assert perl_config.read_xml_config(str(p)) == parse_xml_config(OFFICIAL_LIKE.encode())
    assert perl_config.read_config(p) == parse_xml_config(OFFICIAL_LIKE)


def test_xml_any_nesting_and_case_insensitive_names():
    cfg = parse_xml_config(
        """<anything><wrapper><Group>
        <eval ID="a">
          <Section><peer-root> p </peer-root><Model-Root>m</Model-Root></Section>
          <deeper><Input-Format TYPE="spl"/></deeper>
          <x><Peers><p ID="s1">f1</p></Peers></x>
          <y><z><models><m ID="r">g1</m></models></z></y>
        </eval>
        </Group></wrapper></anything>"""
    )
    assert cfg.evals == [Eval("a", "SPL", {"s1": "p/f1"}, [("r", "m/g1")])]


def test_xml_attribute_names_are_case_sensitive():
    with pytest.raises(ValueError, match="ID"):
        parse_xml_config('<R><EVAL id="1"/></R>')
    with pytest.raises(ValueError, match="TYPE"):
        parse_xml_config('<R><EVAL ID="1"><INPUT-FORMAT type="SEE"/></EVAL></R>')
    with pytest.raises(ValueError, match="ID"):
        parse_xml_config('<R><EVAL ID="1"><PEERS><P>f</P></PEERS></EVAL></R>')
    with pytest.raises(ValueError, match="ID"):
        parse_xml_config('<R><EVAL ID="1"><MODELS><M>f</M></MODELS></EVAL></R>')


@pytest.mark.parametrize("value,expected", [("SEE", "SEE"), ("spl", "SPL"), ("Isi", "ISI"), ("simple", "SIMPLE")])
def test_xml_input_format_values(value, expected):
    cfg = parse_xml_config('<R><EVAL ID="1"><INPUT-FORMAT TYPE="%s"/></EVAL></R>' % value)
    assert cfg.evals[0].input_format == expected


@pytest.mark.parametrize("value", ["HTML", "", " SEE", "SEE SPL"])
def test_xml_unknown_input_format(value):
    with pytest.raises(ValueError, match="unknown input type"):
        parse_xml_config('<R><EVAL ID="1"><INPUT-FORMAT TYPE="%s"/></EVAL></R>' % value)


def test_xml_missing_input_format_is_none():
    cfg = parse_xml_config('<R><EVAL ID="1"><PEERS><P ID="s">f</P></PEERS></EVAL></R>')
    assert cfg.evals[0].input_format is None


def test_xml_missing_roots_give_slash_paths():
    cfg = parse_xml_config(
        '<R><EVAL ID="1"><INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="s">p.txt</P></PEERS>'
        '<MODELS><M ID="m">m.txt</M></MODELS></EVAL></R>'
    )
    assert cfg.evals[0].peers == {"s": "/p.txt"}
    assert cfg.evals[0].models == [("m", "/m.txt")]


def test_xml_text_is_trimmed():
    cfg = parse_xml_config(
        '<R><EVAL ID="1"><PEER-ROOT>\n\t  dir with space \n</PEER-ROOT>'
        '<PEERS><P ID="s">\n  f.txt \n</P></PEERS></EVAL></R>'
    )
    assert cfg.evals[0].peers == {"s": "dir with space/f.txt"}


def test_xml_duplicate_eval_ids_merge():
    cfg = parse_xml_config(
        """<R>
        <EVAL ID="7"><PEER-ROOT>old</PEER-ROOT><PEERS><P ID="a">a1</P></PEERS>
                     <MODELS><M ID="m1">x</M></MODELS></EVAL>
        <EVAL ID="8"><INPUT-FORMAT TYPE="SEE"/><PEERS><P ID="a">a8</P></PEERS></EVAL>
        <EVAL ID="7"><PEER-ROOT>new</PEER-ROOT><INPUT-FORMAT TYPE="SPL"/>
                     <PEERS><P ID="b">b1</P></PEERS><MODELS><M ID="m2">y</M></MODELS></EVAL>
        </R>"""
    )
    assert [e.id for e in cfg.evals] == ["7", "8"]  # first-appearance order
    seven = cfg.evals[0]
    assert seven.input_format == "SPL"
    # The later root applies to every peer of the merged evaluation, as in the Perl.
    assert seven.peers == {"a": "new/a1", "b": "new/b1"}
    assert seven.models == [("m1", "/x"), ("m2", "/y")]
    assert cfg.peer_ids == ["a", "b"]


def test_xml_repeated_model_id_uses_last_file():
    cfg = parse_xml_config(
        '<R><EVAL ID="1"><MODEL-ROOT>r</MODEL-ROOT><MODELS><M ID="A">first</M>'
        '<M ID="B">b</M><M ID="A">second</M></MODELS></EVAL></R>'
    )
    assert cfg.evals[0].models == [("A", "r/second"), ("B", "r/b"), ("A", "r/second")]


def test_xml_model_order_is_document_order():
    models = "".join('<M ID="%s">%s.txt</M>' % (m, m) for m in "DBCA")
    cfg = parse_xml_config('<R><EVAL ID="1"><MODEL-ROOT>r</MODEL-ROOT><MODELS>%s</MODELS></EVAL></R>' % models)
    assert [m for m, _ in cfg.evals[0].models] == list("DBCA")


def test_xml_peer_without_text_declared_but_absent():
    cfg = parse_xml_config(
        '<R><EVAL ID="1"><PEERS><P ID="ghost"/><P ID="s">f</P></PEERS></EVAL>'
        '<EVAL ID="2"><PEERS><P ID="ghost">g</P></PEERS></EVAL></R>'
    )
    assert cfg.peer_ids == ["ghost", "s"]
    assert cfg.evals[0].peers == {"s": "/f"}
    assert [e.id for e in cfg.evals_for_peer("ghost")] == ["2"]


def test_xml_only_direct_p_and_m_children():
    cfg = parse_xml_config(
        '<R><EVAL ID="1"><PEERS><group><P ID="s">f</P></group></PEERS>'
        '<MODELS><group><M ID="m">g</M></group></MODELS></EVAL></R>'
    )
    assert cfg.evals[0].peers == {}
    assert cfg.evals[0].models == []
    assert cfg.peer_ids == []


def test_xml_eval_without_models():
    cfg = parse_xml_config('<R><EVAL ID="1"><PEERS><P ID="s">f</P></PEERS></EVAL></R>')
    assert cfg.evals[0].models == []


def test_xml_cdata_and_comments():
    # CDATA merges with neighbouring text (XML::DOM's default); a comment splits the text and
    # the last run wins, as each direct text node is assigned in turn.
    cfg = parse_xml_config(
        '<R><EVAL ID="1"><PEER-ROOT>ab<![CDATA[cd]]>ef</PEER-ROOT>'
        "<MODEL-ROOT>first<!-- c -->second</MODEL-ROOT>"
        '<PEERS><P ID="s">f</P></PEERS><MODELS><M ID="m">g</M></MODELS></EVAL></R>'
    )
    assert cfg.evals[0].peers == {"s": "abcdef/f"}
    assert cfg.evals[0].models == [("m", "second/g")]


def test_xml_entities_decoded_in_paths():
    cfg = parse_xml_config('<R><EVAL ID="1"><PEERS><P ID="a&amp;b">x&lt;y</P></PEERS></EVAL></R>')
    assert cfg.evals[0].peers == {"a&b": "/x<y"}


def test_xml_non_ascii_paths():
    text = '<?xml version="1.0" encoding="UTF-8"?><R><EVAL ID="é"><PEER-ROOT>dé</PEER-ROOT><PEERS><P ID="s">ü.txt</P></PEERS></EVAL></R>'
    cfg = parse_xml_config(text.encode("utf-8"))
    assert cfg.evals[0] == Eval("é", None, {"s": "dé/ü.txt"}, [])


@pytest.mark.parametrize(
    "body",
    [
        "<PEERS><P ID='s'>f</P></PEERS>",
        "<MODELS><M ID='m'>f</M></MODELS>",
        "<PEER-ROOT>d</PEER-ROOT>",
        "<MODEL-ROOT>d</MODEL-ROOT>",
        "<INPUT-FORMAT TYPE='SEE'/>",
    ],
)
def test_xml_elements_outside_eval(body):
    with pytest.raises(ValueError, match="outside"):
        parse_xml_config("<R>%s</R>" % body)


def test_xml_outside_eval_harmless_when_empty():
    # The Perl dies only when it has something to store: an empty PEERS outside EVAL is fine.
    cfg = parse_xml_config('<R><PEERS/><PEER-ROOT/><EVAL ID="1"/></R>')
    assert cfg.evals == [Eval("1", None, {}, [])]


@pytest.mark.parametrize("text", ["", "<R>", "<R><EVAL ID='1'></R>", "not xml at all", "<a></b>"])
def test_xml_malformed(text):
    with pytest.raises(ValueError, match="XML"):
        parse_xml_config(text)


def test_xml_nested_eval_scopes():
    cfg = parse_xml_config(
        '<R><EVAL ID="outer"><EVAL ID="inner"><PEERS><P ID="s">i</P></PEERS></EVAL>'
        '<PEERS><P ID="s">o</P></PEERS></EVAL></R>'
    )
    assert [(e.id, e.peers) for e in cfg.evals] == [("outer", {"s": "/o"}), ("inner", {"s": "/i"})]


# ---------------------------------------------------------------------------------- -z file lists


def test_file_list_basic():
    data = b"peer1.spl model1.spl model2.spl\npeer2.spl\tmodelA.spl\n"
    cfg = parse_file_list(data, "SPL", "26")
    assert cfg == Config(
        [
            Eval("1", "SPL", {"26": "peer1.spl"}, [("M.1", "model1.spl"), ("M.2", "model2.spl")]),
            Eval("2", "SPL", {"26": "peer2.spl"}, [("M.1", "modelA.spl")]),
        ],
        ["26"],
    )


def test_file_list_comments_and_blank_lines():
    data = (
        b"# header comment\n"
        b"\n"
        b"   \t \n"
        b"p1 m1\n"
        b"#p2 m2 commented out\n"
        b"\r\n"
        b"  p3   m3  m4  \r\n"
        b"p4 m5"  # no final newline
    )
    cfg = parse_file_list(data, "spl")
    assert [(e.id, e.peers, e.models) for e in cfg.evals] == [
        ("1", {"X": "p1"}, [("M.1", "m1")]),
        ("2", {"X": "p3"}, [("M.1", "m3"), ("M.2", "m4")]),
        ("3", {"X": "p4"}, [("M.1", "m5")]),
    ]
    assert all(e.input_format == "SPL" for e in cfg.evals)
    assert cfg.peer_ids == ["X"]


def test_file_list_indented_hash_is_not_a_comment():
    cfg = parse_file_list(b"  #p m\n", "SEE")
    assert cfg.evals[0].peers == {"X": "#p"}


@pytest.mark.parametrize("line", [b"onlypeer", b"  onlypeer  ", b"onlypeer\r"])
def test_file_list_too_few_fields(line):
    with pytest.raises(ValueError, match="line 2.*at least 2"):
        parse_file_list(b"p m\n" + line + b"\n", "SPL")


def test_file_list_empty():
    assert parse_file_list(b"", "SIMPLE", "26") == Config([], ["26"])


def test_file_list_format_checked_only_when_reading():
    # The Perl accepts any -z value here and dies when it reads a file.
    cfg = parse_file_list(b"p m\n", "html")
    assert cfg.evals[0].input_format == "html"
    with pytest.raises(ValueError, match="Unknown input format"):
        read_sentences(b"", cfg.evals[0].input_format)


def test_file_list_str_and_non_ascii_paths():
    cfg = parse_file_list("p\u00e9 m\u00fc\n", "SPL")
    assert cfg.evals[0].peers == {"X": "p\u00e9"}
    raw = parse_file_list(b"p\xff m\n", "SPL").evals[0].peers["X"]
    assert os.fsencode(raw) == b"p\xff"


def test_read_config_file_list(tmp_path):
    p = tmp_path / "list.lst"
    p.write_bytes(b"a b\n")
    assert perl_config.read_config(p, file_list_format="SPL", system_id="26").evals == [
        Eval("1", "SPL", {"26": "a"}, [("M.1", "b")])
    ]
    assert perl_config.read_config(p, file_list_format="SPL").peer_ids == ["X"]
    assert perl_config.read_file_list(str(p), "SEE").evals[0].input_format == "SEE"
