"""Sentence splitting for ``rougeLsum``, offline.

``rougeLsum`` compares sentence by sentence and reads sentences from the lines of a text.  Model
outputs usually come as one line, so the splitter chosen here puts each sentence on its own line
first.  Nothing is ever downloaded: ``"nltk"`` uses NLTK's punkt model only if its data is already
installed and says how to install it otherwise.

* ``None`` / ``"newline"``: the text's own lines (the default; what ROUGE-1.5.5 and rouge_score do).
* ``"punkt"``: NLTK's ``PunktSentenceTokenizer`` untrained, with common English abbreviations;
  needs no data file.
* ``"regex"``: split after ``.``, ``!`` or ``?`` (and closing quotes/brackets) before whitespace and
  an upper-case letter, digit or opening quote, except after a known abbreviation or an initial.
* ``"nltk"``: ``nltk.sent_tokenize`` (the trained punkt model; needs ``punkt_tab`` installed).
* any callable ``str -> list[str]``.
"""
import re
from typing import Callable, List, Optional, Union

ABBREVIATIONS = frozenset("""
mr mrs ms dr prof sr jr st mt ft gen gov sen rep rev col lt sgt capt cmdr adm maj pres supt
inc ltd co corp bros dept univ assn est vs etc al approx fig figs no nos vol vols ed eds p pp
jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
u.s u.k u.n e.g i.e a.m p.m d.c n.y l.a ph.d
""".split())

_BOUNDARY = re.compile(r"""([.!?]+["')\]]*)(\s+)(?=["'(\[]?[A-Z0-9])""")

Splitter = Union[None, str, Callable[[str], List[str]]]


def _regex_split(text: str) -> List[str]:
    sentences, start = [], 0
    for match in _BOUNDARY.finditer(text):
        end = match.end(1)
        words = text[start:end].split()
        last = words[-1].rstrip(".!?\"')]").lower() if words else ""
        # "Dr. Smith", "U.S. troops", "J. Smith": a period that ends an abbreviation or an initial
        if match.group(1).startswith(".") and (last in ABBREVIATIONS or (len(last) == 1 and last.isalpha())):
            continue
        sentences.append(text[start:end].strip())
        start = match.end()
    sentences.append(text[start:].strip())
    return [s for s in sentences if s]


def _punkt_split() -> Callable[[str], List[str]]:
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    params = PunktParameters()
    params.abbrev_types = set(ABBREVIATIONS)
    return PunktSentenceTokenizer(params).tokenize


def _nltk_split() -> Callable[[str], List[str]]:
    import nltk

    for resource in ("tokenizers/punkt_tab/english/", "tokenizers/punkt/english.pickle"):
        try:
            nltk.data.find(resource)
            return nltk.sent_tokenize
        except LookupError:
            continue
    raise LookupError("split_sentences='nltk' needs NLTK's punkt model, which is not installed and is "
                      "never downloaded at run time. Install it once with "
                      "`python -m nltk.downloader punkt_tab`, or use split_sentences='punkt' (NLTK's "
                      "untrained splitter, no data needed) or 'regex'.")


def get_splitter(split_sentences: Splitter) -> Optional[Callable[[str], List[str]]]:
    """The function that splits one line into sentences, or ``None`` to keep the text's lines.

    >>> get_splitter("regex")("Dr. Smith met U.S. troops. They left! 3 stayed.")
    ['Dr. Smith met U.S. troops.', 'They left!', '3 stayed.']
    """
    if split_sentences is None or split_sentences == "newline":
        return None
    if callable(split_sentences):
        return split_sentences
    if split_sentences == "regex":
        return _regex_split
    if split_sentences == "punkt":
        return _punkt_split()
    if split_sentences == "nltk":
        return _nltk_split()
    raise ValueError("split_sentences must be None, 'newline', 'punkt', 'regex', 'nltk' or a callable, got %r"
                     % (split_sentences,))


def split_text(text: str, splitter: Optional[Callable[[str], List[str]]]) -> str:
    """``text`` with one sentence per line (existing line breaks stay sentence boundaries).

    >>> split_text("First one. Second one.\\nThird", get_splitter("punkt"))
    'First one.\\nSecond one.\\nThird'
    """
    if splitter is None:
        return text
    out = []
    for line in text.split("\n"):
        pieces = splitter(line)
        if not isinstance(pieces, (list, tuple)) or not all(isinstance(p, str) for p in pieces):
            raise TypeError("split_sentences: the splitter must return a list of str, got %r" % (pieces,))
        out.extend(p.replace("\n", " ") for p in pieces)
    return "\n".join(out)
