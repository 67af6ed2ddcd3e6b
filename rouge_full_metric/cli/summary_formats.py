"""Sentence extraction from the summary file formats of ROUGE-1.5.5 (SEE, SPL, ISI, SIMPLE).

ROUGE-1.5.5.pl reads every peer and model file itself and keeps only the parts its line patterns
recognise. To reproduce its scores, the same bytes must reach the scoring engine, so this module
copies those patterns to the letter (spec §3.3 and §10):

* Files are **bytes**. Nothing is decoded: the Perl works on bytes without a locale, and every
  non-ASCII byte later becomes a word separator. Decoding first could merge, drop or
  reinterpret bytes.
* Lines are split on ``\\n`` only, the Perl's input record separator. ``\\r`` is an ordinary
  byte that stays in the text, and so do form feeds, ``\\x85`` and ``\\u2028``, which
  :meth:`bytes.splitlines` would treat as line breaks.
* :func:`read_sentences` does **not** lowercase. The engine lowercases (ASCII only) as its first
  step. Here we return exactly what the Perl captured, so that byte counts (``-b``) and word
  counts (``-l``) come out the same.
* For SEE, the captured text runs up to the first ``<`` *or the end of the line including its*
  ``\\n``. The Perl keeps that newline in the sentence, and it counts as one byte under ``-b``.

The SIMPLE format holds Basic Elements, not sentences, so it has its own reader,
:func:`read_basic_elements`.

>>> read_sentences(b'<a name="1">[1]</a> <a href="#1" id=1>Poor nations.</a>\\n', "see")
[b'Poor nations.']
>>> read_sentences(b"First line\\n\\n  \\nLast line", "SPL")
[b'First line', b'  ', b'Last line']
"""

import re

from .input_files import read_file as _read_regular_file

__all__ = [
    "SENTENCE_FORMATS",
    "read_sentences",
    "read_file",
    "read_basic_elements",
    "read_be_file",
]

#: The formats :func:`read_sentences` understands (upper case; lookups ignore case).
SENTENCE_FORMATS = ("SEE", "SPL", "ISI")

# Perl's ``\s`` on a byte string (Perl >= 5.18): space, \t, \n, \x0b (VT), \f, \r. No other
# bytes. Python's bytes ``\s`` happens to match the same set, but it is spelled out here so that
# nobody "fixes" it into a str pattern, where \s also matches \x1c-\x1f, \x85 and \xa0.
_PERL_WS = rb"[ \t\n\x0b\f\r]"

# SEE (the HTML that DUC's SEE tool writes). The Perl accepts two line shapes:
#   <a size="N" name="N">[N]</a> <a href="#N" id=N>TEXT
#   <a name="N">[N]</a> <a href="#N" id=N>TEXT
# They differ only by the optional ``size`` attribute, so one pattern with an optional group
# accepts the same lines. Details that matter for parity:
# * It is anchored at the start of the line (``re.match``), with no leading whitespace allowed.
# * ``id=N`` is unquoted. A line with ``id="1"`` does not match and is silently dropped.
# * TEXT is ``[^<]+``: at least one byte, stopping at the first ``<``. A negated class also
#   matches ``\n``, so TEXT that runs to the end of the line keeps the line's ``\n``, as in Perl.
#   A sentence continued on the next line loses the continuation; the Perl does the same.
# * Everything is case-sensitive (``<A NAME=`` does not match), and entities are not decoded.
_SEE_LINE = re.compile(
    rb'<a (?:size="[0-9]+" )?name="[0-9]+">\[[0-9]+\]</a>'
    + _PERL_WS
    + rb'+<a href="#[0-9]+" id=[0-9]+>([^<]+)'
)

# ISI: ``<S SNTNO="...">TEXT</S>`` with TEXT free of ``<`` and the closing tag on the same line.
# Case-sensitive, anchored at the start of the line. Nothing after ``</S>`` is looked at.
_ISI_LINE = re.compile(rb'<S SNTNO="[0-9a-z,]+">([^<]+)</S>')


def _perl_lines(data):
    """Split ``data`` the way Perl's ``<FH>`` does with ``$/ = "\\n"``.

    Every line keeps its terminating ``\\n``. A final piece without a newline is still a line;
    nothing follows a trailing newline (so ``b""`` has no lines at all).

    >>> _perl_lines(b"a\\r\\nb\\n\\nc")
    [b'a\\r\\n', b'b\\n', b'\\n', b'c']
    >>> _perl_lines(b"a\\n")
    [b'a\\n']
    """
    pieces = data.split(b"\n")
    # After the last "\n" comes either b"" (the data ended with a newline: no further line) or
    # an unterminated last line, which Perl still returns.
    last = pieces.pop()
    lines = [piece + b"\n" for piece in pieces]
    if last:
        lines.append(last)
    return lines


def _chomp(line):
    """Remove one trailing ``\\n`` (Perl ``chomp``): a ``\\r`` before it stays.

    >>> _chomp(b"x\\r\\n")
    b'x\\r'
    """
    return line[:-1] if line.endswith(b"\n") else line


def _check_bytes(data):
    # A str would silently "work" via a different code path. Refusing it keeps callers honest
    # about the encoding question: they must hand over the file's bytes.
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("expected the file content as bytes, got %s" % type(data).__name__)
    return bytes(data)


def _normalise_format(fmt):
    # The Perl compares the format case-insensitively (``/^SEE$/i``), so ``see`` and ``Spl``
    # are accepted too.
    if not isinstance(fmt, str):
        raise ValueError("Unknown input format: %r" % (fmt,))
    return fmt.upper()


def read_sentences(data, fmt):
    """Return the raw sentences ROUGE-1.5.5.pl extracts from a summary file in format ``fmt``.

    ``data`` is the file content as bytes. ``fmt`` is ``"SEE"``, ``"SPL"`` or ``"ISI"``, in any
    case. The result is a list of ``bytes``, neither lowercased nor decoded. The engine applies
    the Perl's ASCII lowercasing and tokenization itself.

    Any other format raises :class:`ValueError` naming it, as the Perl dies with "Unknown input
    format". ``SIMPLE`` (Basic Elements) also raises here: use :func:`read_basic_elements`.

    **SEE** keeps only lines starting with ``<a name="N">[N]</a>`` (or
    ``<a size="N" name="N">[N]</a>``), then whitespace, then ``<a href="#N" id=N>`` with an
    *unquoted* ``N``. The sentence is the text after that tag, up to the first ``<`` or the end
    of the line, where it keeps the ``\\n``. Entities such as ``&amp;`` are not decoded.

    >>> see = (b'<html><body bgcolor="white">\\n'
    ...        b'<a name="1">[1]</a> <a href="#1" id=1>Tom &amp; Jerry.</a>\\n'
    ...        b'<a name="2">[2]</a> <a href="#2" id="2">Quoted id: ignored.</a>\\n'
    ...        b'<a size="9" name="3">[3]</a>\\t<a href="#3" id=3>Runs to the end\\n'
    ...        b'and this continuation is lost.</a>\\n')
    >>> read_sentences(see, "SEE")
    [b'Tom &amp; Jerry.', b'Runs to the end\\n']

    **SPL** (one sentence per line): every line without its ``\\n``. Empty lines are skipped,
    while whitespace-only lines and a lone ``\\r`` are kept. CR is not stripped. A last line
    without a newline is still read.

    >>> read_sentences(b"One.\\r\\n\\n \\nTwo", "spl")
    [b'One.\\r', b' ', b'Two']

    **ISI**: lines starting with ``<S SNTNO="...">``, holding text without ``<``, closed by
    ``</S>`` on the same line.

    >>> read_sentences(b'<S SNTNO="1">A b.</S>\\n<S SNTNO="2">x <i>y</i></S>\\n', "ISI")
    [b'A b.']
    """
    data = _check_bytes(data)
    kind = _normalise_format(fmt)
    if kind == "SEE":
        sentences = []
        for line in _perl_lines(data):
            m = _SEE_LINE.match(line)
            if m:
                sentences.append(m.group(1))
        return sentences
    if kind == "ISI":
        sentences = []
        for line in _perl_lines(data):
            m = _ISI_LINE.match(line)
            if m:
                sentences.append(m.group(1))
        return sentences
    if kind == "SPL":
        # "length > 0" after chomp: only truly empty lines go, so " " and "\r" stay as
        # (empty) sentences. They matter for -b byte counts and, with a leading space, for -l.
        return [s for s in (_chomp(line) for line in _perl_lines(data)) if len(s) > 0]
    if kind == "SIMPLE":
        raise ValueError(
            "Unknown input format: %s (SIMPLE holds Basic Elements, not sentences: "
            "use read_basic_elements)" % fmt
        )
    raise ValueError("Unknown input format: %s (expected SEE, SPL or ISI)" % fmt)


def read_file(path, fmt):
    """Read the file at ``path`` as bytes and return :func:`read_sentences` of it.

    Raises :class:`OSError` if the file cannot be opened, as the Perl dies with "Cannot open".

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "peer.spl")
    ...     with open(p, "wb") as f:
    ...         _ = f.write(b"Hello world.\\nBye.\\n")
    ...     read_file(p, "SPL")
    [b'Hello world.', b'Bye.']
    """
    data = _read_regular_file(path)
    return read_sentences(data, fmt)


def read_basic_elements(data):
    """Return the Basic Elements of a SIMPLE-format file as ``(head, modifier, relation)`` bytes.

    Each line (split on ``\\n``, with only the ``\\n`` removed) is one BE, ``head|modifier|relation``.
    Like the Perl (spec §10), the whole line is lowercased, ASCII only, and split on ``|``.
    Trailing empty fields are dropped, as Perl's ``split`` does. Exactly three fields must
    remain, otherwise :class:`ValueError`. So ``a|b|`` is invalid (the empty relation counts as
    missing), ``a|b|c|`` is valid, and an empty line is invalid. A leading or middle empty field
    is kept. ``\\r`` is not stripped: on a CRLF file it stays on the relation.

    >>> read_basic_elements(b"Pinochet|arrest|nn\\nLondon|nil|\\tnil\\n")
    [(b'pinochet', b'arrest', b'nn'), (b'london', b'nil', b'\\tnil')]
    >>> read_basic_elements(b"a|b|c|\\n")
    [(b'a', b'b', b'c')]
    >>> read_basic_elements(b"a|b|\\n")
    Traceback (most recent call last):
    ...
    ValueError: invalid Basic Element on line 1: b'a|b|' (expected HEAD|MODIFIER|RELATION)
    """
    data = _check_bytes(data)
    elements = []
    for number, line in enumerate(_perl_lines(data), 1):
        # bytes.lower() touches A-Z only, which is exactly Perl's tr/A-Z/a-z/.
        be = _chomp(line).lower()
        fields = be.split(b"|")
        # Perl's split drops trailing empty fields. That makes "a|b|" two fields (an error)
        # and "a|b|c|" three (accepted).
        while fields and not fields[-1]:
            fields.pop()
        if len(fields) != 3:
            raise ValueError(
                "invalid Basic Element on line %d: %r (expected HEAD|MODIFIER|RELATION)"
                % (number, be)
            )
        elements.append((fields[0], fields[1], fields[2]))
    return elements


def read_be_file(path):
    """Read the SIMPLE-format file at ``path`` and return :func:`read_basic_elements` of it."""
    data = _read_regular_file(path)
    return read_basic_elements(data)
