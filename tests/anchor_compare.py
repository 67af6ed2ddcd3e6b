"""Score pairs with flavor ``xlsum`` and with XL-Sum's scorer (multilingual-rouge), side by side."""
import warnings

from rouge_full_metric import RougeScorer

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def compare(lang, use_stemmer, pairs):
    """Count the pairs whose four scores are identical; return (equal, first mismatch)."""
    from multilingual_rouge import rouge_scorer as anchor_scorer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = RougeScorer(TYPES, flavor="xlsum", lang=lang, use_stemmer=use_stemmer)
        anchor = anchor_scorer.RougeScorer(TYPES, lang=lang, use_stemmer=use_stemmer)
        equal, first = 0, None
        for prediction, reference in pairs:
            got = ours.score(prediction, reference)
            want = anchor.score(reference, prediction)   # the anchor takes (target, prediction)
            same = all(tuple(got[t]) == tuple(want[t]) for t in TYPES)
            equal += same
            if not same and first is None:
                first = (prediction, reference, got, want)
    return equal, first
