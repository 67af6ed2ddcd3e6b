"""The pure-Python engine: one example read as the flavor reads it and scored type by type.

It is the reference the compiled core is tested against (``ROUGE_FULL_METRIC_PURE_PYTHON=1`` runs
it everywhere), and it scores what the core does not take: a flavor or tokenizer without a
compiled engine, input the core declines.  The flow is sacreBLEU's: :func:`prepare` reads a text
(the Perl's two readers of :mod:`.tokenization`, rouge_score's tokenizer, or a language's
pipeline), :func:`pair_stats` gives one reference's sufficient statistics for a rouge type
(:mod:`.ngrams` for ROUGE-N and S/SU, :mod:`.lcs` for L, Lsum and W), and :func:`scores` combines
the references (:mod:`.scoring`).

Imported when first needed, not with the package: a process on the compiled core never reads
this module, :mod:`.lcs` or :mod:`.ngrams` (tests/test_startup.py).

>>> from rouge_full_metric import RougeScorer
>>> stats, scores = example(RougeScorer(["rouge2"]), "a b c d", ["a b x", "b c"])
>>> stats["rouge2"][1]
PairStats(hits=1, reference_count=1, prediction_count=3, selection=1.0)
>>> scores["rouge2"]
Score(precision=0.33333, recall=0.66667, fmeasure=0.44444)
"""
from __future__ import annotations

from collections import Counter

from . import rouge_score_flavor
from .lcs import lcs_length, sentence_weight_sum, union_lcs_hits, union_wlcs_hits, wlcs_value, weight_table
from .ngrams import clipped_hits, ngram_counts, skip_bigram_stats
from .scoring import PairStats, combine, jackknife, round5
from .tokenization import Summary, raw_sentences, read_summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, List, Optional

    from .rouge_types import RougeType
    from .scoring import Score
    from .tokenization import Text


class Prepared:
    """One summary read once: its raw sentences and, lazily, what each rouge type counts of it."""

    __slots__ = ("raw", "sentences", "summary", "_flat", "cache")

    def __init__(self, raw: Text, sentences: List[str], summary: Summary):
        self.raw = raw
        self.sentences = sentences
        self.summary = summary
        self._flat: Optional[Summary] = None
        self.cache: Dict[object, object] = {}

    def counts(self, key, build):
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = build()
        return value


def reference_list(references, argument: str) -> list:
    """One example's references as a list of texts (``argument`` names them in errors).

    >>> reference_list("a b", "references"), reference_list(("a", "b"), "references")
    (['a b'], ['a', 'b'])
    """
    if isinstance(references, (str, bytes, bytearray)):
        return [references]
    if isinstance(references, (list, tuple)):
        if not references:
            raise ValueError("%s is empty: give at least one reference" % argument)
        return list(references)
    hint = " (a numpy array: pass its .tolist())" if hasattr(references, "tolist") else ""
    raise TypeError("%s must be a str or a list of str, got %s%s" % (argument, type(references).__name__, hint))


def prepare(scorer, text: Text, argument: str) -> Prepared:
    """``text`` read by ``scorer``'s readers (``argument`` names it in errors).

    >>> from rouge_full_metric import RougeScorer
    >>> prepare(RougeScorer(["rougeLsum"]), "The cat sat.\\nIt ran!", "prediction").summary.sentences
    [['the', 'cat', 'sat'], ['it', 'ran']]
    """
    if scorer._rs_tokenize is not None:
        text = rouge_score_flavor.as_text(text, argument)
        tokenize = scorer._rs_tokenize
        per_sentence = None
        if scorer._needs_sentences:
            # flavor xlsum: the anchor tokenizes rougeLsum's sentences without the segmenter
            sentence_tokenize = scorer._rs_sentence_tokenize or tokenize
            sentences_of = scorer._rs_split or rouge_score_flavor.sentences_of
            per_sentence = [sentence_tokenize(s) for s in sentences_of(text)]
        return Prepared(text, [], Summary(tokenize(text), per_sentence))
    if scorer._lang_tokenize is not None:
        from . import lang_pipeline
        lines = lang_pipeline.lines_of(text, argument)
        summary = lang_pipeline.read_tokens([scorer._lang_tokenize(line) for line in lines],
                                            scorer.word_limit, scorer._needs_sentences)
        return Prepared(text, lines, summary)
    sentences = raw_sentences(text, argument)
    summary = read_summary(sentences, scorer._token_filter, scorer.word_limit, scorer.byte_limit,
                           with_sentences=scorer._needs_sentences)
    return Prepared(text, sentences, summary)


def flat_tokens(scorer, text: Prepared) -> List[str]:
    """Tokens of the whole text given as one line (what ``rougeL`` compares).

    Without a length limit these are the joined reader's tokens; with one, the limit applies
    to the single line, spaces between the former sentences included (the ``flat`` profile).

    >>> from rouge_full_metric import RougeScorer
    >>> scorer = RougeScorer(["rougeL"], word_limit=3)
    >>> flat_tokens(scorer, prepare(scorer, "a b\\nc d", "prediction"))
    ['a', 'b', 'c']
    """
    if not (scorer.word_limit or scorer.byte_limit) or scorer._lang_tokenize is not None:
        # with lang the whole text's tokens are its lines' tokens, limited in tokens
        return text.summary.tokens
    if text._flat is None:
        raw = text.raw
        if isinstance(raw, str):
            raw = raw.replace("\n", " ")
        elif isinstance(raw, (bytes, bytearray)):
            raw = bytes(raw).replace(b"\n", b" ")
        else:  # already-split sentences (validated by prepare): join their bytes
            raw = b" ".join(x.encode("utf-8", "surrogatepass") if isinstance(x, str) else bytes(x)
                            for x in raw)
        text._flat = read_summary(raw_sentences(raw), scorer._token_filter, scorer.word_limit,
                                  scorer.byte_limit, with_sentences=False)
    return text._flat.tokens


def pair_stats(scorer, rtype: RougeType, pred: Prepared, ref: Prepared) -> PairStats:
    """The sufficient statistics of one prediction against one reference for one rouge type.

    >>> from rouge_full_metric import RougeScorer
    >>> scorer = RougeScorer(["rougeL"])
    >>> pair_stats(scorer, scorer.types[0], prepare(scorer, "a b c", "p"), prepare(scorer, "a c", "r"))
    PairStats(hits=2, reference_count=2, prediction_count=3, selection=1.0)
    """
    kind = rtype.kind
    rules = scorer.rules
    if kind == "N":
        n = rtype.n
        pc = pred.counts(("N", n), lambda: ngram_counts(pred.summary.tokens, n))
        rc = ref.counts(("N", n), lambda: ngram_counts(ref.summary.tokens, n))
        return _count_stats(scorer, clipped_hits(rc, pc), sum(rc.values()), sum(pc.values()))
    if kind == "S":
        # one pair at a time: the texts' pair tables would take memory ~ their pairs
        hits, rcount, pcount = skip_bigram_stats(ref.summary.tokens, pred.summary.tokens, rtype.max_gap,
                                                 rtype.unigrams, rules.su_every_unigram)
        return _count_stats(scorer, hits, rcount, pcount)
    if kind == "L":
        model, peer = flat_tokens(scorer, ref), flat_tokens(scorer, pred)
        hits = lcs_length(model, peer)
        return PairStats(hits, len(model), len(peer), hits / len(model) if model else 0.0)
    if kind == "Lsum":
        model_sents, peer_sents = ref.summary.sentences, pred.summary.sentences
        peer_len = len(pred.summary.tokens)
        if rules.lsum_clipped:
            # Lin's eq. 6 clipped as ROUGE >= 1.4.1 clips it: a word is credited at most as many
            # times as it occurs in the candidate (and the reference), so P and F stay <= 1.
            hits = union_lcs_hits(model_sents, peer_sents, _unigrams(ref), _unigrams(pred))
            model_len = len(ref.summary.tokens)
        elif scorer._rs_tokenize is not None:
            # rouge_score budgets and normalizes with the sentences' tokens (which can differ
            # from the whole text's under a custom tokenizer)
            hits = union_lcs_hits(model_sents, peer_sents, _sentence_unigrams(model_sents),
                                  _sentence_unigrams(peer_sents))
            model_len, peer_len = sum(map(len, model_sents)), sum(map(len, peer_sents))
        else:
            hits = union_lcs_hits(model_sents, peer_sents, _unigrams(ref), _unigrams(pred))
            model_len = sum(len(s) for s in model_sents)
        return PairStats(hits, model_len, peer_len, hits / model_len if model_len else 0.0)
    if kind == "W":
        return _wlcs_stats(scorer, rtype.weight, pred, ref)
    raise AssertionError(kind)


def _count_stats(scorer, hits: int, ref_count: int, pred_count: int) -> PairStats:
    recall = hits / ref_count if ref_count else 0.0
    # -f B compares n-gram/skip-bigram recalls as printed, i.e. rounded to 5 decimals (Q12).
    return PairStats(hits, ref_count, pred_count, round5(recall) if scorer._rounded else recall)


def _unigrams(text: Prepared):
    return text.counts(("N", 1), lambda: ngram_counts(text.summary.tokens, 1))


def _sentence_unigrams(sentences) -> Counter:
    counts: Counter = Counter()
    for sentence in sentences:
        counts.update(sentence)
    return counts


def _wlcs_stats(scorer, weight: float, pred: Prepared, ref: Prepared) -> PairStats:
    if scorer.rules.w_whole_text:
        # The papers define ROUGE-W on one sequence: the whole texts, f⁻¹-normalized.
        model, peer = flat_tokens(scorer, ref), flat_tokens(scorer, pred)
        f = weight_table(weight, max(len(model), len(peer)) + 1)
        hits = wlcs_value(model, peer, f)
        ref_norm = len(model) ** weight
        return PairStats(hits, ref_norm, len(peer) ** weight,
                         (hits / ref_norm) ** (1 / weight) if ref_norm else 0.0)
    model_sents, peer_sents = ref.summary.sentences, pred.summary.sentences
    longest = max([len(s) for s in model_sents] + [len(s) for s in peer_sents] + [0])
    f = weight_table(weight, longest + 1)
    hits = union_wlcs_hits(model_sents, peer_sents, _unigrams(ref), _unigrams(pred), f)
    # The Perl's recall normalizer is weighted twice, (Σ_s len_s^w)^w, and it selects -f B on a
    # single weighting (spec §8, Q6).  A reference with no tokens makes the Perl die; here it
    # contributes 0 hits and 0 count.
    block = sentence_weight_sum(model_sents, f)
    selection = (hits / block) ** (1 / weight) if block else 0.0
    return PairStats(hits, block ** weight, len(pred.summary.tokens) ** weight, selection)


def scores(scorer, stats: Dict[str, List[PairStats]]) -> Dict[str, Score]:
    """One Score per rouge type from its per-reference statistics (the flavor's multi-reference
    rule, or jackknifing)."""
    reduce = jackknife if scorer.jackknife else combine
    out = {}
    for t in scorer.types:
        out[t.name] = reduce(stats[t.name], scorer.multi_ref, scorer.alpha,
                             t.weight if t.kind == "W" else 0.0, scorer._rounded, scorer._rouge_score_f,
                             scorer.rules.n_max_by_recall and t.kind == "N")
    return out


def example(scorer, prediction: Text, references, index: Optional[int] = None):
    """``(statistics, scores)`` of one example: ``{type: [PairStats per reference]}`` and
    ``{type: Score}`` (``index``: the example's place in a batch, for error messages).  A flavor
    that reads and scores examples itself (``rules.example``: matlab) does so here."""
    where = "" if index is None else "[%d]" % index
    if scorer.rules.example is not None:
        return scorer.rules.example(scorer, prediction, references, where)
    refs = reference_list(references, "references" + where)
    pred = prepare(scorer, prediction, "predictions" + where if index is not None else "prediction")
    prepared = [prepare(scorer, r, "references%s[%d]" % (where, k)) for k, r in enumerate(refs)]
    stats = {t.name: [pair_stats(scorer, t, pred, ref) for ref in prepared] for t in scorer.types}
    return stats, scores(scorer, stats)
