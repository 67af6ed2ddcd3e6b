"""Flavor ``matlab``: MATLAB Text Analytics Toolbox's ``rougeEvaluationScore``, from its documentation.

MATLAB's documentation ("ROUGE Score", and the examples of ``rougeEvaluationScore``) defines the
score differently from ROUGE-1.5.5.pl and from the papers on several points, all followed here:

* **One number per call**: ROUGE-N is a recall; the LCS, weighted-LCS, skip-bigram and
  skip-bigram-plus-unigram methods are F-measures.  With several references the score is the
  **maximum over the references** of that reported number (no jackknifing, no pooling).
* **Per-sentence counting**: a reference is a list of sentences r_i; n-grams and skip-bigrams
  are counted *within* each r_i (never across a sentence end), matches are clipped per sentence
  (min of the count in r_i and in the candidate), and numerators and denominators are summed over
  the r_i.  The candidate is one sequence: its n-grams and skip-bigrams run over its whole token
  list, and the LCS methods take the LCS of the *whole candidate* with each r_i.
* **ROUGE-SU through start tokens**: a start token is put in front of every reference sentence and
  in front of the candidate, and skip-bigrams are counted on the result (Lin 2004 §5.1's
  formulation).  With a skip distance d only the first d + 1 words of a sentence pair with its
  start token, so unigrams further in get no credit of their own — the consequence of the
  definition, kept as it is.
* **NaN**: a reference with nothing to count (fewer words than the n-gram length in every
  sentence, no word, no skip-bigram) has an undefined recall, NaN.  The maximum over references
  omits NaN (as MATLAB's ``max``); the score is NaN when every reference is NaN — in particular when
  the longest reference is shorter than the n-gram length and when candidate and references are
  all empty.  A candidate with nothing to count (shorter than n, empty) has precision 0 and scores
  0 against a non-empty reference.

Where the documentation is silent this module chooses, and says so:

* **beta** of the F-measures: 1 (F1).  ``RougeScorer(alpha=...)`` / ``rouge_evaluation_score(beta=...)``
  change it (alpha = 1 / (1 + beta²)).
* **ROUGE-W's weighting**: f(k) = k^w with w = 1.2 (the package's and ROUGE-1.5.5's default; the
  papers require w > 1).  Over reference sentences R = f⁻¹(Σ_i WLCS(r_i, C) / Σ_i f(|r_i|)) and
  P = f⁻¹(Σ_i WLCS(r_i, C) / f(|C|)), the weighted analogue of the LCS method.
* **Skip distance** d: at most d words *between* the two words of a pair (d = 0: bigrams), as
  ``rougeS<d>`` everywhere in this package; ``None`` or ``math.inf``: no limit.
* The LCS precision Σ_i LCS(r_i, C) / |C| follows the documented formula literally, so a
  candidate matched by several reference sentences can have P (and F) above 1, as in MATLAB.

Tokenization (a str): MATLAB's ``tokenizedDocument`` is not public code, so the rule used is stated
here instead.  Lines are split at ``\\n``/``\\r``; a token is a run of letters, digits, marks and
underscores (Python's ``\\w``) that may continue across one apostrophe, ``.``, ``:`` or ``·`` between
two such runs ("don't", "U.S", "e.g") or across ``,``/``;`` between two digits ("1,000"); every other
non-space character is a token of its own (punctuation is kept, as ``tokenizedDocument`` keeps it);
case is kept (MATLAB compares tokens exactly: lower-case the texts first to ignore case).  This is
the Unicode word-boundary idea (UAX #29) without its special cases; MATLAB's detection of e-mail
addresses, URLs, hashtags, emoticons and its language-specific rules are not reproduced.  A
sentence ends at a line break and after a run of ``.``, ``!``, ``?`` tokens (MATLAB's
``addSentenceDetails`` splits at sentence-final punctuation; abbreviations such as "U.S." are not
recognized here, so put one sentence per line when that matters).  A list of words is one document
already tokenized (MATLAB's string-array form), split into sentences at the same tokens.

The compiled core does not implement this flavor: it is scored in pure Python
(``batch.compiled_scorer`` returns None for it), so compiled and Python results are the same
trivially.  ``RougeScorer(flavor="matlab")`` reaches this module through its rules object,
:mod:`.flavor_matlab`.

>>> rouge_evaluation_score("the fast brown fox jumped over the lazy dog",
...                        ["the quick brown animal jumped over the lazy dog",
...                         "the quick brown fox jumped over the lazy dog"])   # 8/9, MATLAB: 0.8889
0.8888888888888888
"""
import math
import re
from collections import Counter
from typing import List, NamedTuple, Optional, Sequence

from .batch import is_real, is_whole
from .lcs import lcs_length, wlcs_value, weight_table
from .ngrams import clipped_hits, ngram_counts
from .rouge_types import RougeType, parse_rouge_type
from .scoring import PairStats, Score

__all__ = ["rouge_evaluation_score", "tokenize", "split_sentences", "read_document", "ROUGE_METHODS",
           "DEFAULT_BETA", "DEFAULT_WLCS_WEIGHT"]

DEFAULT_BETA = 1.0
DEFAULT_WLCS_WEIGHT = 1.2

# MATLAB's RougeMethod values -> this package's rouge type (filled in with n / d / w).
ROUGE_METHODS = {
    "n-grams": "rouge%(n)d",
    "longest-common-subsequences": "rougeL",
    "weighted-longest-common-subsequences": "rougeW-%(w)r",
    "skip-bigrams": "rougeS%(d)s",
    "skip-bigrams-and-unigrams": "rougeSU%(d)s",
}

_TOKEN = re.compile(r"\w+(?:(?:['\u2019.:\u00b7]|(?<=\d)[,;](?=\d))\w+)*|\S")
_LINES = re.compile(r"\r\n|\r|\n")
_TERMINATORS = frozenset((".", "!", "?"))


class _Start:
    """The start token of ROUGE-SU: equal only to itself, so no word can match it."""

    __slots__ = ()

    def __repr__(self):
        return "<s>"


START = _Start()


class Document(NamedTuple):
    """A document as the MATLAB flavor reads it: its sentences and all its tokens in order."""

    sentences: List[List[str]]
    tokens: List[str]


def tokenize(text: str) -> List[str]:
    """The tokens of one line of text (see the module's docstring for the rule).

    >>> tokenize("Don't stop: 1,000 U.S. e-mails (approx.)!")
    ["Don't", 'stop', ':', '1,000', 'U.S', '.', 'e', '-', 'mails', '(', 'approx', '.', ')', '!']
    """
    return _TOKEN.findall(text)


def split_sentences(tokens: Sequence[str]) -> List[List[str]]:
    """Sentences of a token list: each ends after its run of ``.``/``!``/``?`` tokens.

    >>> split_sentences(["It", "rained", ".", "Why", "?", "!", "No"])
    [['It', 'rained', '.'], ['Why', '?', '!'], ['No']]
    """
    sentences: List[List[str]] = []
    current: List[str] = []
    for k, token in enumerate(tokens):
        current.append(token)
        if token in _TERMINATORS and (k + 1 == len(tokens) or tokens[k + 1] not in _TERMINATORS):
            sentences.append(current)
            current = []
    if current:
        sentences.append(current)
    return sentences


def read_document(document, argument: str = "document") -> Document:
    """A str (tokenized as the module says), bytes (UTF-8) or a list of words (one document).

    >>> read_document("the cat sat. it purred\\nthen slept").sentences
    [['the', 'cat', 'sat', '.'], ['it', 'purred'], ['then', 'slept']]
    >>> read_document(["a", "simple", "document"]).tokens
    ['a', 'simple', 'document']
    """
    if isinstance(document, (bytes, bytearray)):
        document = bytes(document).decode("utf-8")
    if isinstance(document, str):
        sentences = []
        for line in _LINES.split(document):
            sentences.extend(split_sentences(tokenize(line)))
    elif isinstance(document, (list, tuple)):
        for k, word in enumerate(document):
            if not isinstance(word, str):
                raise TypeError("%s[%d]: flavor 'matlab' reads a list as the words of one document, so "
                                "each entry must be a str, got %s" % (argument, k, type(word).__name__))
        sentences = split_sentences(list(document))
    else:
        raise TypeError("%s must be a str or a list of words (one document), got %s"
                        % (argument, type(document).__name__))
    return Document(sentences, [t for s in sentences for t in s])


def _pairs(tokens: Sequence, max_gap: Optional[int]) -> Counter:
    """Skip-bigram counts of one sequence, at most ``max_gap`` words between the two."""
    counts: Counter = Counter()
    size = len(tokens)
    span = size if max_gap is None else max_gap + 2
    for i in range(size - 1):
        first = tokens[i]
        for j in range(i + 1, min(size, i + span)):
            counts[(first, tokens[j])] += 1
    return counts


def pair_stats(rtype: RougeType, candidate: Document, reference: Document, alpha: float = 0.5) -> PairStats:
    """Σ over the reference's sentences of the matches, the reference count and the candidate's
    count (ROUGE-W: the weighted sums); ``selection`` is the score MATLAB reports (R for
    ROUGE-N, F with ``alpha`` otherwise).

    >>> c, r = read_document("a simple summary document"), read_document("a simple document")
    >>> pair_stats(parse_rouge_type("rouge2"), c, r)
    PairStats(hits=1, reference_count=2, prediction_count=3, selection=0.5)
    """
    kind = rtype.kind
    cand = candidate.tokens
    if kind == "N":
        n = rtype.n
        pc_counts = ngram_counts(cand, n)
        hits = sum(clipped_hits(ngram_counts(s, n), pc_counts) for s in reference.sentences)
        rc = sum(max(len(s) - n + 1, 0) for s in reference.sentences)
        pc = max(len(cand) - n + 1, 0)
    elif kind in ("L", "Lsum"):
        hits = sum(lcs_length(s, cand) for s in reference.sentences)
        rc, pc = len(reference.tokens), len(cand)
    elif kind == "W":
        longest = max([len(cand)] + [len(s) for s in reference.sentences])
        f = weight_table(rtype.weight, longest + 1)
        hits = math.fsum(wlcs_value(s, cand, f) for s in reference.sentences)
        rc, pc = math.fsum(f[len(s)] for s in reference.sentences), f[len(cand)]
    elif kind == "S":
        if rtype.unigrams:
            cand_seq = [START] + list(cand)
            ref_seqs = [[START] + list(s) for s in reference.sentences]
        else:
            cand_seq, ref_seqs = cand, reference.sentences
        pc_counts = _pairs(cand_seq, rtype.max_gap)
        ref_counts = [_pairs(s, rtype.max_gap) for s in ref_seqs]
        hits = sum(clipped_hits(rc_, pc_counts) for rc_ in ref_counts)
        rc = sum(sum(c.values()) for c in ref_counts)
        pc = sum(pc_counts.values())
    else:  # pragma: no cover - parse_rouge_type knows no other kind
        raise AssertionError(kind)
    provisional = PairStats(hits, rc, pc, 0.0)
    return provisional._replace(selection=reported(rtype, score(rtype, provisional, alpha)))


def score(rtype: RougeType, stats: PairStats, alpha: float) -> Score:
    """P, R and F of one reference, with MATLAB's NaN for a reference with nothing to count.

    F = 1 / (alpha/P + (1-alpha)/R) (beta = 1 is alpha = 0.5); 0 when P or R is 0.

    >>> score(parse_rouge_type("rouge2"), PairStats(0, 0, 3, 0.0), 0.5)
    Score(precision=0.0, recall=nan, fmeasure=nan)
    """
    hits, rc, pc = stats.hits, stats.reference_count, stats.prediction_count
    recall = hits / rc if rc else math.nan
    precision = hits / pc if pc else (math.nan if not rc else 0.0)
    if rtype.kind == "W":
        recall, precision = recall ** (1 / rtype.weight), precision ** (1 / rtype.weight)
    if math.isnan(recall) or math.isnan(precision):
        return Score(precision, recall, math.nan)
    denominator = (1 - alpha) * precision + alpha * recall
    return Score(precision, recall, precision * recall / denominator if denominator > 0 else 0.0)


def reported(rtype: RougeType, value: Score) -> float:
    """The one number ``rougeEvaluationScore`` returns: recall for ROUGE-N, F otherwise."""
    return value.recall if rtype.kind == "N" else value.fmeasure


def combine(rtype: RougeType, stats: Sequence[PairStats], alpha: float) -> Score:
    """The Score of the reference whose reported number is highest (NaN omitted, first on ties);
    all NaN: the first reference's (NaN) Score.

    >>> t = parse_rouge_type("rouge1")
    >>> combine(t, [PairStats(7, 9, 9, 7 / 9), PairStats(8, 9, 9, 8 / 9)], 0.5).recall
    0.8888888888888888
    """
    best, best_value = None, math.nan
    for s in stats:
        value = score(rtype, s, alpha)
        v = reported(rtype, value)
        if best is None or (not math.isnan(v) and (math.isnan(best_value) or v > best_value)):
            best, best_value = value, v
    return best


def check_options(types: Sequence[RougeType], use_stemmer, remove_stopwords, word_limit, byte_limit,
                  multi_ref, jackknife, tokenizer) -> None:
    """Refuse the options MATLAB's function has no counterpart for, naming them."""
    for t in types:
        if t.kind == "W" and not t.weight > 1:
            raise ValueError("rouge_types: %r needs a weight > 1 in flavor 'matlab' (f(k) = k^w must "
                             "satisfy f(x+y) > f(x)+f(y)), e.g. rougeW-1.2" % t.name)
    for name, value in (("use_stemmer", use_stemmer), ("remove_stopwords", remove_stopwords)):
        if value:
            raise ValueError("%s is not available in flavor 'matlab' (rougeEvaluationScore compares the "
                             "tokens it is given; preprocess the texts first)" % name)
    for name, value in (("word_limit", word_limit), ("byte_limit", byte_limit)):
        if value:
            raise ValueError("%s is not available in flavor 'matlab' (rougeEvaluationScore has no "
                             "length limit)" % name)
    if multi_ref not in (None, "max"):
        raise ValueError("multi_ref must be 'max' (or None) in flavor 'matlab': rougeEvaluationScore takes "
                         "the maximum over the references, got %r" % (multi_ref,))
    if jackknife:
        raise ValueError("jackknife is not available in flavor 'matlab' (rougeEvaluationScore takes the "
                         "maximum over the references); use flavor 'paper' for jackknifing")
    if tokenizer is not None:
        raise ValueError("tokenizer is only used by flavor 'rouge_score'; flavor 'matlab' tokenizes as "
                         "described in rouge_full_metric.matlab (or give each text as a list of words)")


def example(types: Sequence[RougeType], alpha: float, prediction, references, where: str = ""):
    """(statistics, scores) of one example, as ``python_engine.example`` returns them."""
    if isinstance(references, (str, bytes, bytearray)):
        refs = [references]
    elif isinstance(references, (list, tuple)):
        if not references:
            raise ValueError("references%s is empty: give at least one reference" % where)
        refs = list(references)
    else:
        raise TypeError("references%s must be a str or a list of references, got %s"
                        % (where, type(references).__name__))
    cand = read_document(prediction, "predictions" + where if where else "prediction")
    docs = [read_document(r, "references%s[%d]" % (where, k)) for k, r in enumerate(refs)]
    stats = {t.name: [pair_stats(t, cand, d, alpha) for d in docs] for t in types}
    return stats, {t.name: combine(t, stats[t.name], alpha) for t in types}


def _check_beta(beta) -> float:
    if not is_real(beta) or not beta >= 0 or math.isnan(beta):
        raise ValueError("beta must be a number >= 0 (F-measure weight; math.inf gives recall), got %r" % (beta,))
    return float(beta)


def method_type(rouge_method: str = "n-grams", ngram_length: int = 1, skip_distance=4,
                wlcs_weight: float = DEFAULT_WLCS_WEIGHT) -> str:
    """The rouge type name of one of MATLAB's RougeMethod values.

    >>> method_type("skip-bigrams-and-unigrams"), method_type("n-grams", ngram_length=2)
    ('rougeSU4', 'rouge2')
    """
    if rouge_method not in ROUGE_METHODS:
        raise ValueError("rouge_method must be one of %s, got %r" % (", ".join(ROUGE_METHODS), rouge_method))
    if not is_whole(ngram_length) or ngram_length < 1:
        raise ValueError("ngram_length must be a whole number >= 1, got %r" % (ngram_length,))
    if skip_distance is None or (isinstance(skip_distance, float) and math.isinf(skip_distance)):
        gap = "*"
    elif not is_whole(skip_distance) or skip_distance < 0:
        raise ValueError("skip_distance must be a whole number >= 0, or None / math.inf for no limit, got %r"
                         % (skip_distance,))
    else:
        gap = str(int(skip_distance))
    if not is_real(wlcs_weight) or not wlcs_weight > 1 or math.isinf(wlcs_weight):
        raise ValueError("wlcs_weight must be a number > 1 (f(k) = k^w), got %r" % (wlcs_weight,))
    return ROUGE_METHODS[rouge_method] % {"n": int(ngram_length), "d": gap, "w": float(wlcs_weight)}


def rouge_evaluation_score(candidate, references, rouge_method: str = "n-grams", ngram_length: int = 1,
                           skip_distance=4, beta: float = DEFAULT_BETA,
                           wlcs_weight: float = DEFAULT_WLCS_WEIGHT) -> float:
    """MATLAB's ``rougeEvaluationScore(candidate, references, Name, Value)`` for people porting code.

    ``candidate``: a str or a list of words (one document); ``references``: a str (one reference)
    or a list of references, each a str or a list of words.  ``rouge_method`` takes MATLAB's
    values: ``"n-grams"`` (ROUGE-N recall, ``ngram_length``), ``"longest-common-subsequences"``,
    ``"weighted-longest-common-subsequences"`` (``wlcs_weight``), ``"skip-bigrams"`` and
    ``"skip-bigrams-and-unigrams"`` (``skip_distance``) — the last four F-measures with ``beta``.
    Returns the maximum over the references, NaN where MATLAB returns NaN (see the module).

    >>> c = "a simple summary document containing some words"
    >>> refs = ["a simple document", "another document with some words"]
    >>> rouge_evaluation_score(c, refs), rouge_evaluation_score(c, refs, ngram_length=2)   # MATLAB: 1, 0.5000
    (1.0, 0.5)
    >>> rouge_evaluation_score("", "")   # both empty: NaN
    nan
    """
    beta = _check_beta(beta)
    rtype = parse_rouge_type(method_type(rouge_method, ngram_length, skip_distance, wlcs_weight))
    alpha = 0.0 if math.isinf(beta) else 1 / (1 + beta * beta)
    _, scores = example([rtype], alpha, candidate, references)
    return reported(rtype, scores[rtype.name])
