"""What ``RougeScorer(lang=...)`` tokenizes with: XL-Sum's token pipeline for a language, and the
Perl's readers (sentences, word limits) run on its tokens.

Flavor ``xlsum`` uses :func:`make` as XL-Sum's scorer does (``lang=None``: no segmenter, Porter
stemmer).  Flavors ``rouge155`` and ``paper`` with ``lang`` tokenize each line with the same
pipeline (stemmed by the language's own stemmer, if it has one) and then read the token lines as
ROUGE-1.5.5.pl reads the words of a text: :func:`read_tokens` is the Perl's joined and sentence
readers with ``word_limit`` counted in tokens.
"""
from typing import Callable, List, Optional, Tuple

from . import multilingual_stemmers, segmenters
from .languages import Language
from .languages import resolve as languages_resolve
from .tokenization import Summary
from .xlsum_tokenizer import make_sentence_tokenizer, make_tokenizer

Tokenizer = Callable[[str], List[str]]


def stemmer_name(language: Optional[Language], use_stemmer: bool, default: Optional[str]) -> Optional[str]:
    """The stemmer a pipeline uses (``default`` when ``language`` is None).

    >>> stemmer_name(None, True, "porter"), stemmer_name(None, False, "porter")
    ('porter', None)
    """
    if not use_stemmer:
        return None
    return default if language is None else language.stemmer


def make(language: Optional[Language], use_stemmer: bool, default_stemmer: Optional[str] = "porter"
         ) -> Tuple[Tokenizer, Tokenizer]:
    """``(tokenize, sentence_tokenize)``: XL-Sum's tokenizer for whole texts and its
    ``rougeLsum`` sentence tokenizer (no segmenter: the anchor's quirk).

    >>> tokenize, sentence_tokenize = make(None, True)
    >>> tokenize("The runners ran 3km."), sentence_tokenize("The runners ran 3km.")
    (['the', 'runner', 'ran', '3', 'km'], ['the', 'runner', 'ran', '3km'])
    """
    stem = stemmer(language, use_stemmer, default_stemmer)
    segmenter = None
    if language is not None and language.segmenter:
        segmenter = segmenters.get(language.segmenter, language.name)
    return make_tokenizer(segmenter, stem), make_sentence_tokenizer(stem)


def stemmer(language: Optional[Language], use_stemmer: bool, default: Optional[str] = "porter"):
    """The stemmer callable of a pipeline (tokens of any length), or None.

    >>> stemmer(None, True)("running"), stemmer(None, False)
    ('run', None)
    """
    name = stemmer_name(language, use_stemmer, default)
    return multilingual_stemmers.get(name, language.name if language else "None") if name else None


def perl_tokenizer(language: Language, use_stemmer: bool) -> Tokenizer:
    """Flavors rouge155/paper with ``lang``: XL-Sum's tokens of one line, stemmed by the language's
    own stemmer, without whitespace (jieba and newmm return the spaces between words as tokens;
    the Perl's words never hold whitespace).

    >>> perl_tokenizer(languages_resolve("my"), False)("မြန်မာ abc")
    ['မြန်', 'မာ', 'a', 'b', 'c']
    """
    tokenize = make(language, use_stemmer, None)[0]

    def tokens(line: str) -> List[str]:
        return " ".join(tokenize(line)).split()

    return tokens


def versions(language: Optional[Language], use_stemmer: bool, default_stemmer: Optional[str] = "porter") -> str:
    """The package versions behind a pipeline, for signatures (numbers from different jieba or
    stemmer versions are not comparable).

    >>> versions(None, False)
    ''
    """
    parts = []
    if language is not None and language.segmenter:
        parts.append(segmenters.versions(language.segmenter))
    name = stemmer_name(language, use_stemmer, default_stemmer)
    if name:
        parts.append(multilingual_stemmers.versions(name))
    return "+".join(p for p in parts if p)


def lines_of(text, argument: str) -> List[str]:
    """A text's non-empty lines (a list is taken as its lines; bytes are UTF-8).

    >>> lines_of("a\\n\\n b", "prediction"), lines_of([b"x", "y"], "prediction")
    (['a', ' b'], ['x', 'y'])
    """
    if isinstance(text, str):
        lines = text.split("\n")
    elif isinstance(text, (bytes, bytearray)):
        lines = bytes(text).decode("utf-8").split("\n")
    elif isinstance(text, (list, tuple)):
        lines = []
        for k, line in enumerate(text):
            if isinstance(line, str):
                lines.append(line)
            elif isinstance(line, (bytes, bytearray)):
                lines.append(bytes(line).decode("utf-8"))
            else:
                raise TypeError("%s: sentence %d must be str or bytes, got %s"
                                % (argument, k, type(line).__name__))
    else:
        raise TypeError("%s must be a str, bytes or a list of sentences (str), got %s"
                        % (argument, type(text).__name__))
    return [line for line in lines if line]


def read_tokens(lines: List[List[str]], word_limit: Optional[int], with_sentences: bool) -> Summary:
    """The Perl's two readers on token lines (spec §4.2), ``word_limit`` counted in tokens.

    Lines without tokens are dropped (as the Perl drops empty lines).  The joined reader keeps the
    first ``word_limit`` tokens; the sentence reader keeps whole lines while the running count
    stays below the limit, cuts the line that reaches it, and stops.

    >>> read_tokens([["a", "b", "c"], [], ["d", "e"]], 4, True)
    Summary(tokens=['a', 'b', 'c', 'd'], sentences=[['a', 'b', 'c'], ['d']])
    """
    lines = [line for line in lines if line]
    tokens = [t for line in lines for t in line]
    if word_limit:
        tokens = tokens[:word_limit]
    sentences = None
    if with_sentences:
        if not word_limit:
            sentences = lines
        else:
            sentences, used = [], 0
            for line in lines:
                if used + len(line) < word_limit:
                    sentences.append(line)
                    used += len(line)
                    continue
                sentences.append(line[:word_limit - used])
                break
    return Summary(tokens, sentences)
