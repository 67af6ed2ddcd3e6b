"""Flavor rouge_score against rouge_score 0.1.2 itself on a seeded CNN/DM-shaped workload.

5,000 pairs of 3-4 sentence news-like summaries (~55-65 tokens a side, Zipf vocabulary with inflected
forms, capitals, numbers, punctuation, hyphens, a little non-ASCII), candidates perturbed from their
references, every tenth pair with 2-4 references; every per-example P, R and F must be identical.
"""
import random

import pytest

from rouge_full_metric import RougeScorer

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PAIRS = 5000
STEMS = ("report", "govern", "elect", "market", "rais", "polic", "investig", "announc", "compan",
         "percent", "minist", "vote", "court", "rule", "attack", "kill", "agree", "develop", "nation",
         "run", "econom", "bank", "trade", "health", "offici", "militar", "presid", "leader", "talk")
SUFFIXES = ("", "s", "ed", "ing", "er", "ers", "ment", "ments", "ation", "al", "ly", "ies", "ness")
FUNCTION = ("the", "a", "of", "to", "in", "and", "on", "for", "with", "that", "was", "is", "by", "at")


def _vocabulary(rng):
    words = list(FUNCTION) + [s + x for s in STEMS for x in SUFFIXES]
    words += ["%d" % rng.randint(0, 3000) for _ in range(40)] + ["U.S.", "state-of-the-art", "café", "e-mail"]
    weights = [1.0 / (rank + 1) ** 1.1 for rank in range(len(words))]   # Zipf-like
    return words, weights


def _sentence(rng, words, weights, size):
    tokens = rng.choices(words, weights, k=size)
    tokens[0] = tokens[0].capitalize()
    if rng.random() < 0.3:
        tokens[rng.randrange(size)] += ","
    return " ".join(tokens) + rng.choice([".", ".", ".", "!", "?", '."'])


def _summary(rng, words, weights):
    total = rng.randint(55, 65)
    count = rng.randint(3, 4)
    cuts = sorted(rng.sample(range(4, total - 3), count - 1))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    return "\n".join(_sentence(rng, words, weights, max(size, 3)) for size in sizes)


def _perturb(rng, text, words, weights):
    out = []
    for sentence in text.split("\n"):
        tokens = sentence.split()
        for _ in range(rng.randint(2, 8)):
            k = rng.randrange(len(tokens))
            action = rng.random()
            if action < 0.4:
                tokens[k] = rng.choices(words, weights)[0]
            elif action < 0.7 and len(tokens) > 3:
                del tokens[k]
            else:
                tokens.insert(k, rng.choices(words, weights)[0])
        if rng.random() < 0.2:
            tokens.reverse()
        out.append(" ".join(tokens))
    if rng.random() < 0.3:
        rng.shuffle(out)
    return "\n".join(out)


def workload(seed=2024, pairs=PAIRS):
    """Seeded (prediction, references) pairs shaped like CNN/DailyMail highlights."""
    rng = random.Random(seed)
    words, weights = _vocabulary(rng)
    data = []
    for k in range(pairs):
        refs = [_summary(rng, words, weights) for _ in range(rng.randint(2, 4) if k % 10 == 0 else 1)]
        data.append((_perturb(rng, refs[0], words, weights), refs))
    return data


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_per_example_identical_to_rouge_score(use_stemmer):
    theirs = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    ours = RougeScorer(TYPES, flavor="rouge_score", use_stemmer=use_stemmer)
    pairs = workload()
    assert len(pairs) >= 5000
    max_difference, mismatches = 0.0, []
    for pred, refs in pairs:
        want = theirs.score_multi(refs, pred) if len(refs) > 1 else theirs.score(refs[0], pred)
        got = ours.score(pred, refs)
        for t in TYPES:
            diff = max(abs(a - b) for a, b in zip(want[t], got[t]))
            max_difference = max(max_difference, diff)
            if tuple(want[t]) != tuple(got[t]):
                mismatches.append((t, want[t], got[t]))
    assert not mismatches, "%d mismatches (max difference %g), first: %r" % (len(mismatches), max_difference,
                                                                             mismatches[:3])
    assert max_difference == 0.0
