"""Differential tests: the compiled core and the pure-Python engine give identical statistics.

Thousands of seeded random cases per flavor (tiny vocabularies with repeats, punctuation,
capitals, hyphens, digits, non-ASCII, CR/tabs/blank lines, stop words and stemmable words,
empty texts, several references, long texts) are scored by both engines under random options,
and every PairStats and Score must be equal to the last bit (compared through ``repr``, so an
``int`` count is not confused with a ``float``).  Skipped when the extension is not built.
"""
import os
import random
import subprocess
import sys

import pytest

from rouge_full_metric import RougeScorer, compiled
from rouge_full_metric.batch import compiled_scorer, score_batch, score_examples
from rouge_full_metric.bootstrap_compiled import count_sums, perl_bootstrap, replicate_sums

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason=compiled.unavailable_reason())

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PERL_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2", "rougeW-2",
              "rougeW-0.5", "rougeS0", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]
RS_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
PAPER_TYPES = [t for t in PERL_TYPES if t != "rougeW-0.5"]   # flavor paper requires w > 1

TINY = ["a", "b", "c", "d", "A", "B"]
WORDS = ["the", "cat", "sat", "on", "mat", "police", "killed", "gunman", "running", "runs", "geese",
         "goose", "wanted", "want", "agreement", "agreed", "best", "well", "data", "U.S.", "don't",
         "e-mail", "state-of-the-art", "3.5", "1,000", "$5", "A+B", "caf\u00e9", "na\u00efve", "\u4e2d\u6587",
         "\u0130stanbul", "\u212aelvin", "1990s", "said", "new", "it's", "customers", "attacker"]
PUNCT = [",", ".", "--", "-", "!", "...", "'", "\"", "(", ")", ";", "\t", "\r", "  "]


def _sentence(rng, vocab, size):
    out = []
    for _ in range(size):
        w = rng.choice(vocab)
        if rng.random() < 0.1:
            w = w.upper() if rng.random() < 0.5 else w.capitalize()
        out.append(w)
        if rng.random() < 0.12:
            out.append(rng.choice(PUNCT))
    sep = " " if rng.random() < 0.9 else rng.choice(["  ", "\t", " - "])
    text = sep.join(out)
    if rng.random() < 0.05:
        text = " " + text
    return text


def _text(rng, vocab, long=False):
    r = rng.random()
    if r < 0.04:
        return rng.choice(["", " ", "\n", "...", "\u4e2d\u6587", "--", "\n\n", " \n\t"])
    if long:
        nsent, lo, hi = rng.randint(1, 12), 10, 40
    else:
        nsent, lo, hi = rng.randint(1, 4), 0, 9
    lines = [_sentence(rng, vocab, rng.randint(lo, hi)) for _ in range(nsent)]
    if rng.random() < 0.1:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", "  ", "\r"]))
    return "\n".join(lines)


def _perturb(rng, text, vocab):
    tokens = text.split(" ")
    for _ in range(rng.randint(0, 4)):
        op = rng.random()
        if op < 0.4 and tokens:
            tokens[rng.randrange(len(tokens))] = rng.choice(vocab)
        elif op < 0.7 and tokens:
            del tokens[rng.randrange(len(tokens))]
        else:
            tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(vocab))
    return " ".join(tokens)


def make_cases(seed, count, rs=False):
    """Seeded (prediction, references) pairs; some as bytes or sentence lists."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        vocab = TINY if rng.random() < 0.4 else WORDS
        long = rng.random() < 0.06
        ref0 = _text(rng, vocab, long)
        pred = _perturb(rng, ref0, vocab) if rng.random() < 0.6 else _text(rng, vocab, long)
        refs = [ref0] + [_text(rng, vocab, long) if rng.random() < 0.5 else _perturb(rng, ref0, vocab)
                         for _ in range(rng.choice([0, 0, 0, 1, 2, 3, 4]))]
        form = rng.random()
        if form < 0.05:
            pred = pred.split("\n")
        elif form < 0.08 and not rs:
            pred = pred.encode("utf-8")
        if len(refs) == 1 and rng.random() < 0.5:
            refs = refs[0]
        cases.append((pred, refs))
    return cases


def random_scorer(rng, flavor):
    if flavor == "rouge_score":
        types = rng.sample(RS_TYPES, rng.randint(1, len(RS_TYPES)))
        return RougeScorer(types, flavor=flavor, use_stemmer=rng.random() < 0.5,
                           multi_ref=rng.choice([None, "max", "average", "best"]),
                           jackknife=rng.random() < 0.2, alpha=rng.choice([0.5, 0.5, 0.2, 1.0]))
    types = rng.sample(PAPER_TYPES if flavor == "paper" else PERL_TYPES, rng.randint(1, 6))
    limit = rng.random()
    return RougeScorer(types, flavor=flavor, use_stemmer=rng.random() < 0.4,
                       remove_stopwords=rng.random() < 0.3,
                       word_limit=rng.randint(1, 30) if limit < 0.2 else None,
                       byte_limit=rng.randint(1, 120) if 0.2 <= limit < 0.4 else None,
                       multi_ref=rng.choice([None, "average", "best", "max"] + (["max_rp"] if flavor == "paper" else [])),
                       jackknife=rng.choice([None, False, True]),
                       alpha=rng.choice([0.5, 0.5, 0.0, 0.2, 1.0]))


def assert_same(scorer, cases, n_jobs=1):
    preds = [p for p, _ in cases]
    refs = [r for _, r in cases]
    py_scores, py_stats = score_examples(scorer, preds, refs, backend="python")
    c_scores, c_stats = score_examples(scorer, preds, refs, n_jobs=n_jobs, backend="compiled")
    assert len(c_scores) == len(py_scores)
    for k, case in enumerate(cases):
        assert repr(c_stats[k]) == repr(py_stats[k]), (scorer, case)
        assert repr(c_scores[k]) == repr(py_scores[k]), (scorer, case)
    return len(cases)


def _fuzz(flavor, seed, scorers, per_scorer):
    rng = random.Random(seed)
    total = 0
    for k in range(scorers):
        scorer = random_scorer(rng, flavor)
        total += assert_same(scorer, make_cases(seed * 1000 + k, per_scorer, flavor == "rouge_score"))
    return total


@pytest.mark.parametrize("flavor", ["rouge155", "paper", "rouge_score"])
def test_random_cases_identical(flavor):
    assert _fuzz(flavor, {"rouge155": 1, "paper": 2, "rouge_score": 3}[flavor], 40, 100) == 4000


def test_every_type_with_default_options_identical():
    cases = make_cases(7, 600)
    assert_same(RougeScorer(PERL_TYPES), cases)
    assert_same(RougeScorer(PERL_TYPES, use_stemmer=True, remove_stopwords=True), cases)
    assert_same(RougeScorer(PAPER_TYPES, flavor="paper"), cases)


@pytest.mark.parametrize("flavor", ["rouge155", "paper", "rouge_score"])
def test_long_ngrams_identical(flavor):
    # Levels serve n <= 4 and a larger n is hashed with rolled keys: n on both sides of that line
    # in one scorer, texts shorter than n, two-letter vocabularies (many equal windows) and
    # reference tokens the prediction lacks (windows a rolled key must skip).
    cases = make_cases(23, 500, flavor == "rouge_score")
    rng = random.Random(23)
    for _ in range(60):
        ref = " ".join(rng.choice("ab") for _ in range(rng.randint(0, 60)))
        cases.append((_perturb(rng, ref, ["a", "b", "c"]), [ref, _perturb(rng, ref, ["a", "b", "z"])]))
    for types in (["rouge5"], ["rouge9"], ["rouge1", "rouge4", "rouge5", "rouge7"], ["rouge3", "rouge6", "rouge12"]):
        assert assert_same(RougeScorer(types, flavor=flavor), cases) == 560


def test_threads_give_the_same_results():
    cases = make_cases(11, 1200)
    scorer = RougeScorer(["rouge1", "rouge2", "rougeLsum", "rougeW-1.2", "rougeSU4"], use_stemmer=True)
    assert_same(scorer, cases, n_jobs=2)
    assert score_batch(scorer, [p for p, _ in cases], [r for _, r in cases], n_jobs=2) == \
        score_batch(scorer, [p for p, _ in cases], [r for _, r in cases], backend="python")


def test_long_single_sentences_use_bounded_memory():
    # One 50,000-token sentence each side: LCS rows are bits, the union back-trace keeps only
    # checkpoint rows past 32 MiB, and ROUGE-L (length only) needs O(m) memory.
    rng = random.Random(5)
    vocab = ["w%d" % k for k in range(3000)]
    ref = " ".join(rng.choice(vocab) for _ in range(50000))
    pred = " ".join(rng.choice(vocab) for _ in range(50000))
    scorer = RougeScorer(["rouge1", "rougeL", "rougeLsum"])
    _, (stats,) = score_examples(scorer, [pred], [ref], backend="compiled")
    assert stats["rougeL"][0].hits == stats["rougeLsum"][0].hits <= stats["rouge1"][0].hits
    ref, pred = " ".join(rng.choice(vocab[:40]) for _ in range(1500)), " ".join(rng.choice(vocab[:40]) for _ in range(1500))
    assert_same(RougeScorer(["rougeL", "rougeLsum", "rougeW-1.2"]), [(pred, ref)])


@pytest.mark.parametrize("limit", [1, 3, 40])
def test_checkpointed_back_traces_identical(limit):
    # Shrinking the table budget forces the block-recomputing back-traces of long sentences.
    rng = random.Random(limit)
    cases = []
    for _ in range(30):
        vocab = TINY if rng.random() < 0.5 else WORDS
        ref = "\n".join(_sentence(rng, vocab, rng.randint(0, 150)) for _ in range(rng.randint(1, 3)))
        pred = "\n".join(_sentence(rng, vocab, rng.randint(0, 150)) for _ in range(rng.randint(1, 3)))
        cases.append((pred, [ref, _perturb(rng, ref, vocab)]))
    old = compiled.core._set_table_limit(limit)
    try:
        assert_same(RougeScorer(["rougeLsum", "rougeW-1.2", "rougeW-2"]), cases)
        assert_same(RougeScorer(["rougeLsum", "rougeW-1.2"], flavor="paper"), cases)
    finally:
        compiled.core._set_table_limit(old)


def test_sentences_around_the_one_word_back_traces_identical():
    # The union LCS (WLCS) back-traces take a bit-parallel path when the prediction's sentence
    # has at most 64 (63) tokens: lengths on both sides of the limit, few words, many matches.
    rng = random.Random(17)
    cases = []
    for _ in range(80):
        vocab = TINY if rng.random() < 0.5 else WORDS[:12]   # one token per word

        def sentence(n):
            return " ".join(rng.choice(vocab) for _ in range(n))

        size = rng.choice([1, 2, 62, 63, 64, 65, 66, 127, 128, 129])
        pred = "\n".join(sentence(rng.choice([size, size, rng.randint(1, 70)])) for _ in range(rng.randint(1, 3)))
        ref = "\n".join(sentence(rng.randint(1, 130)) for _ in range(rng.randint(1, 3)))
        cases.append((pred, [ref, _perturb(rng, ref, vocab)] if rng.random() < 0.3 else ref))
    assert_same(RougeScorer(["rougeLsum", "rougeW-1.2", "rougeW-2"]), cases)
    assert_same(RougeScorer(["rougeLsum", "rougeW-1.2"], flavor="paper"), cases)
    assert_same(RougeScorer(["rougeLsum"], flavor="rouge_score"), cases)


def test_many_distinct_tokens_take_the_hashed_paths_identically():
    # n-grams use dense id tables while prediction length x distinct tokens <= 2^20, skip-bigrams
    # dense count tables up to 724 distinct tokens; past either, keys are hashed.  A few frequent
    # words make repeated n-grams, so clipping counts.
    rng = random.Random(23)
    rare = ["w%d" % k for k in range(100000)]
    frequent = ["the", "of", "cat", "sat", "mat", "a", "on", "in", "and", "to"]

    def cases(size, share):
        words = [rng.choice(frequent) if rng.random() < share else rng.choice(rare) for _ in range(size)]
        ref = " ".join(words)
        pred = " ".join(w if rng.random() < 0.9 else rng.choice(frequent) for w in words if rng.random() < 0.8)
        return [(pred, [ref, _perturb(rng, ref, frequent)]), (pred.replace(" the ", "\n"), ref)]

    ngrams = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rougeS4", "rougeSU4"]
    assert_same(RougeScorer(ngrams), cases(2000, 0.5))
    assert_same(RougeScorer(ngrams + ["rougeS*", "rougeSU*"]), cases(950, 0.15) + cases(700, 1.0) + cases(300, 0.3))
    assert_same(RougeScorer(["rouge1", "rouge2", "rouge3"], flavor="rouge_score"), cases(2000, 0.5))


def test_tokens_of_every_length_and_shared_prefixes_identical():
    # The scanner reads a token's first 16 bytes as two words and its length without branches,
    # the interner compares those words (memcmp only past 16) and hashes them with the length:
    # tokens of 1-40 bytes that share their first 8, 16 or 24 bytes, next to U+0130 / U+212A
    # (whose lowercase is ASCII in flavor rouge_score) and other non-ASCII, must tokenize and
    # match exactly as in Python.
    rng = random.Random(31)
    stems = ["".join(rng.choice("abAB01") for _ in range(24)) for _ in range(3)]
    vocab = [s[:n] + tail for s in stems for n in (0, 7, 8, 9, 15, 16, 17, 24)
             for tail in ("", "x", "xy", "a" * 9, "b" * 17)]
    vocab += ["\u0130", "\u212a", "\u2126", "\u2019", "\u00e9", "-", ".", "\u0130stanbul" + "k" * 20, "\u212a" * 3]

    def text():
        sentences = []
        for _ in range(rng.randint(1, 4)):
            joins = [rng.choice(["", " ", " ", " ", "-", "\u2019"]) for _ in range(12)]
            words = [rng.choice(vocab) for _ in range(12)]
            sentences.append("".join(w + j for w, j in zip(words, joins)))
        return "\n".join(sentences)

    cases = [(text(), [text(), text()] if rng.random() < 0.3 else text()) for _ in range(400)]
    cases += [(ref, pred) for pred, ref in cases[:100] if isinstance(ref, str)]
    for flavor in ("rouge155", "rouge_score"):
        assert_same(RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], flavor=flavor), cases)
    assert_same(RougeScorer(["rouge1", "rougeL"], flavor="rouge_score", use_stemmer=True), cases)


def test_round5_matches_python_formatting():
    rng = random.Random(3)
    values = [rng.random() for _ in range(20000)] + [k / 200000 for k in range(0, 200001, 7)]
    values += [k / 64 for k in range(65)] + [0.0, 1.0, 2 / 7, 1 / 3, 0.123455, 0.000005, 0.999995]
    for x in values:
        assert compiled.core.round5(x) == float("%.5f" % x), x


def test_bootstrap_sums_identical():
    import numpy as np

    from rouge_full_metric import bootstrap

    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 17, 500):
        values = np.round(rng.random((n, 6)), 5)
        assert (replicate_sums(values, 300) == bootstrap.replicate_sums(values, 300)).all()
    keys = ["%d.A" % (k + 1) for k in range(40)]
    values = np.round(rng.random((40, 3)), 5)
    assert perl_bootstrap(values, keys, 1000, 95) == bootstrap.perl_bootstrap(values, keys, 1000, 95)


def test_count_sums_identical_and_close_to_the_draw_order_sums():
    import numpy as np

    from rouge_full_metric import bootstrap

    rng = np.random.default_rng(2)
    # R and K off the C kernel's blocks of 8 replicates and 6 columns; N across 1, 2, small, large
    for n, k, r in ((1, 3, 10), (2, 1, 9), (3, 6, 8), (17, 7, 17), (500, 12, 300), (1000, 13, 33)):
        values = rng.random((n, k))
        got = count_sums(values, r)
        assert (got == bootstrap.count_sums(values, r)).all()
        assert np.allclose(got, replicate_sums(values, r), rtol=1e-13, atol=0)
    keys = ["%d.A" % (j + 1) for j in range(40)]
    values = rng.random((40, 3))
    assert perl_bootstrap(values, keys, 1000, 95, exact=False) == \
        bootstrap.perl_bootstrap(values, keys, 1000, 95, exact=False)


def _lcs_texts(rng, size, vocab):
    return " ".join(rng.choice(vocab) for _ in range(size))


@pytest.mark.parametrize("limit", [None, 3])
@pytest.mark.parametrize("flavor, types", [("rouge_score", ["rougeL", "rougeLsum"]),
                                           ("rouge155", ["rougeL", "rougeLsum", "rougeW-1.2"])])
def test_lcs_across_word_boundaries_identical(flavor, types, limit):
    # the bit-parallel LCS holds the shorter text in 64-bit words: lengths on both sides of each
    # word boundary, either side the shorter, few distinct tokens (long runs of repeats); a tiny
    # table budget sends rougeL to the column-block fallback
    rng = random.Random(64)
    lengths = [1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 256, 257]
    preds, refs = [], []
    for m in lengths:
        for n in rng.sample(lengths, 5) + [m]:
            vocab = rng.choice([TINY, WORDS[:12], WORDS])   # WORDS: reference tokens the prediction lacks
            preds.append(_lcs_texts(rng, m, vocab))
            refs.append(_lcs_texts(rng, n, vocab))
    scorer = RougeScorer(types, flavor=flavor)
    old = compiled.core._set_table_limit(limit) if limit else None
    try:
        compiled_out, _ = score_examples(scorer, preds, refs, with_statistics=False, backend="compiled")
    finally:
        if old is not None:
            compiled.core._set_table_limit(old)
    python_out, _ = score_examples(scorer, preds, refs, with_statistics=False, backend="python")
    assert repr(compiled_out) == repr(python_out)


def test_engine_is_cached_and_follows_option_changes():
    import copy

    scorer = RougeScorer(["rouge1"])
    first = compiled_scorer(scorer)
    assert compiled_scorer(scorer) is first
    clone = copy.deepcopy(scorer)                     # a copy takes the options alone (__getstate__)
    assert "_compiled" not in vars(clone) and compiled_scorer(clone) is not first
    with pytest.raises(AttributeError, match="use_stemmer"):   # options are read-only (issue 12, R7)
        scorer.use_stemmer = True
    assert compiled_scorer(scorer) is first
    # a custom tokenizer's tokens reach the core as pseudo-words
    assert compiled_scorer(RougeScorer(["rouge1"], flavor="rouge_score", tokenizer=str.split)) is not None


def test_pseudo_words_are_the_python_expression():
    rng = random.Random(5)
    planes = [(32, 126), (0x80, 0x7FF), (0x800, 0xFFFF), (0xD800, 0xDFFF), (0x10000, 0x10FFFF)]
    for _ in range(5000):
        tokens = ["".join(chr(rng.randint(*rng.choice(planes))) for _ in range(rng.randint(0, 5)))
                  for _ in range(rng.randint(0, 6))]
        want = " ".join("t" + t.encode("utf-8", "surrogatepass").hex() for t in tokens)
        assert compiled.core.pseudo_words(tokens) == want, tokens
    with pytest.raises(TypeError, match="tokens must be str, got int"):
        compiled.core.pseudo_words(["a", 1])


def test_utf8_is_pythons_surrogatepass_encoding():
    # every kind of str (1, 2, 4 bytes a character), ASCII runs across the 8-character blocks,
    # lone surrogates; texts that are not all ASCII reach the readers through it
    rng = random.Random(43)
    planes = [(0, 127)] * 6 + [(0x80, 0xFF), (0x100, 0x7FF), (0x800, 0xFFFF), (0xD800, 0xDFFF), (0x10000, 0x10FFFF)]
    for _ in range(20000):
        kinds = planes[:rng.randint(1, len(planes))]
        text = "".join(chr(rng.randint(*rng.choice(kinds))) for _ in range(rng.randint(0, 40)))
        assert compiled.core.utf8(text) == text.encode("utf-8", "surrogatepass"), repr(text)
    with pytest.raises(TypeError, match="utf8\\(\\) takes a str"):
        compiled.core.utf8(b"x")


def test_ascii_majority_is_the_python_bound():
    from rouge_full_metric.lost_text import ascii_majority

    rng = random.Random(44)
    pieces = ["ab", "7", " ", "_", "“", "—", "é", "İ", "\u212a", "北", "\U0001F600", "\udc80", "ǅ"]
    agree = [0, 0]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        limit = rng.choice([0, 1, 5, 17, 2000])
        want = ascii_majority(text, limit)
        assert compiled.core.ascii_majority(text, limit) is want, (text, limit)
        agree[want] += 1
    assert min(agree) > 2000
    with pytest.raises(ValueError):
        compiled.core.ascii_majority("a", -1)


class _ObjectTokenizer:
    def tokenize(self, text):
        return [w for w in text.replace(".", " . ").split()]


# What users hand to flavor rouge_score: evaluate's str.split idiom, characters (CJK), tokens with
# spaces and empty ones (split(" ")), case kept, word pairs, a tuple, rouge_score's object form.
CUSTOM_TOKENIZERS = [str.split, lambda t: [c for c in t if not c.isspace()], lambda t: t.split(" "),
                     lambda t: t.replace("\n", " ").split(" "), lambda t: [a + " " + b for a, b in zip(t.split(), t.split()[1:])],
                     lambda t: tuple(t.lower().split()), _ObjectTokenizer()]


@pytest.mark.filterwarnings("ignore::rouge_full_metric.lost_text.LostTextWarning")
def test_custom_tokenizers_identical():
    # A custom tokenizer's tokens go to the core as pseudo-words, tokenized whole for rouge<N> and
    # rougeL and line by line for rougeLsum, as rouge_score calls it; rougeLsum anywhere in the
    # types, every multi-reference mode.
    rng = random.Random(41)
    total = 0
    for k, tokenizer in enumerate(CUSTOM_TOKENIZERS):
        for j in range(4):
            types = rng.sample(RS_TYPES + ["rouge4", "rouge6"], rng.randint(1, 5))
            scorer = RougeScorer(types, flavor="rouge_score", tokenizer=tokenizer,
                                 multi_ref=rng.choice([None, "max", "average", "best"]),
                                 jackknife=rng.random() < 0.2, alpha=rng.choice([0.5, 0.2, 1.0]))
            assert compiled_scorer(scorer) is not None
            total += assert_same(scorer, make_cases(100 * k + j, 150, True))
    assert total == len(CUSTOM_TOKENIZERS) * 4 * 150


def test_custom_tokenizer_of_other_tokens_scores_in_python():
    # ints (a model tokenizer's ids) cannot be pseudo-words: the batch and score() fall back
    scorer = RougeScorer(["rouge1", "rougeLsum", "rougeL"], flavor="rouge_score",
                         tokenizer=lambda t: [len(w) for w in t.split()])
    cases = make_cases(9, 50, True)
    assert assert_same(scorer, cases) == 50
    pred, refs = cases[3]
    assert scorer.score(pred, refs) == scorer._example(pred, refs)[1]


def test_bad_inputs_raise_the_python_errors():
    scorer = RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        score_batch(scorer, ["a", 3], ["a", "b"])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        score_batch(scorer, ["a"], [[]])
    with pytest.raises(ValueError, match="differ in length"):
        score_batch(scorer, ["a"], ["a", "b"])


def test_forcing_the_pure_python_engine():
    code = "from rouge_full_metric import compiled; print(compiled.backend())"
    env = dict(os.environ, ROUGE_FULL_METRIC_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "python", out.stderr
    env.pop("ROUGE_FULL_METRIC_PURE_PYTHON")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "compiled", out.stderr


def test_read_files_reads_whole_files_and_marks_failures(tmp_path):
    big = bytes(range(256)) * 1000  # past the first 64 KiB buffer
    (tmp_path / "big").write_bytes(big)
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "café.spl").write_bytes(b"a\nb")
    paths = [str(tmp_path / "big"), str(tmp_path / "empty"), str(tmp_path / "missing"), str(tmp_path),
             os.fsencode(str(tmp_path / "café.spl"))]
    assert compiled.core.read_files(paths) == [big, b"", None, None, b"a\nb"]
    with pytest.raises(TypeError):
        compiled.core.read_files([1])


def test_scanner_finds_tokens_across_its_64_byte_blocks():
    # tok_perl finds tokens from 64-byte masks of nonzero bytes; a token may start or end at any
    # offset of a block, span one or more block boundaries, or end exactly at a block's end.
    from rouge_full_metric.rouge_score_flavor import _tokenize_plain
    from rouge_full_metric.tokenization import tokenize

    workers = {flavor: compiled_scorer(RougeScorer(["rouge1"], flavor=flavor)).engine.worker()
               for flavor in ("rouge155", "rouge_score")}
    letters = "aBc0Z9xY"
    sizes = list(range(1, 20)) + list(range(55, 75)) + list(range(120, 135))
    checked = 0
    for off in range(0, 70):
        for size in sizes:
            token = "".join(letters[(k * 7 + size) % len(letters)] for k in range(size))
            prefix = "".join("- "[(k * 5 + off) % 2] for k in range(off))
            for text in (prefix + token, prefix + token + " z", prefix + token + "." + token[::-1] + " q"):
                assert workers["rouge155"].tokens(text)[0] == tokenize(text.lower()), (off, size, text)
                assert workers["rouge_score"].tokens(text)[0] == _tokenize_plain(text), (off, size, text)
                checked += 1
    assert checked == 70 * len(sizes) * 3


@pytest.mark.parametrize("level", [0, 1])
def test_lowering_levels_give_the_python_tokens(level):
    # tok_perl's lowering pass has an AVX2 version and a word-at-a-time one; each must keep exactly
    # [A-Za-z0-9] (every byte of a UTF-8 sequence is a separator) at every offset of a block.
    from rouge_full_metric.rouge_score_flavor import _tokenize_plain
    from rouge_full_metric.tokenization import raw_sentences, tokenize

    previous, supported = compiled.core._tokenizer_simd(-1)
    if level > supported:
        pytest.skip("the CPU has no AVX2")
    compiled.core._tokenizer_simd(level)
    try:
        workers = {flavor: compiled_scorer(RougeScorer(["rouge1"], flavor=flavor)).engine.worker()
                   for flavor in ("rouge155", "rouge_score")}
        every = "".join(chr(c) for c in range(1, 0x80)) + "\u00e9\u00c9\u00df\u4e2d\U0001f600\u0130\u212a"
        rng = random.Random(level)
        texts = [every, every[::-1]]
        for _ in range(1500):
            n = rng.choice([rng.randrange(0, 70), rng.randrange(60, 400)])
            texts.append("".join(rng.choice(every) if rng.random() < 0.3 else rng.choice("aZ09 ") for _ in range(n)))
        for text in texts:
            perl = [t for line in raw_sentences(text) for t in tokenize(line)]
            assert workers["rouge155"].tokens(text)[0] == perl, text
            assert workers["rouge_score"].tokens(text)[0] == _tokenize_plain(text), text
    finally:
        compiled.core._tokenizer_simd(previous)


def test_result_dicts_stay_out_of_the_collector_until_they_hold_a_container():
    import gc

    scores = RougeScorer(["rouge1", "rougeL"], flavor="rouge_score").score_batch(["a b c"] * 3, ["a b d"] * 3)
    if compiled.AVAILABLE:
        assert not gc.is_tracked(scores[0]) and not gc.is_tracked(scores[0]["rouge1"])
    scores[0]["note"] = []
    assert gc.is_tracked(scores[0])


@pytest.mark.parametrize("level", [0, 1])
def test_sentence_ends_of_the_one_pass_line_reader(level):
    # A whole text is tokenized in one pass, its lines found from "\n" masks: the tokens and the
    # token count at the end of each non-empty line must be those of reading line by line, for
    # newlines at every offset of a block, empty lines, lines without tokens, and lists.
    from rouge_full_metric.rouge_score_flavor import _tokenize_plain
    from rouge_full_metric.tokenization import tokenize

    previous, supported = compiled.core._tokenizer_simd(-1)
    if level > supported:
        pytest.skip("the CPU has no AVX2")

    def by_lines(texts, tok):
        tokens, ends = [], []
        for text in texts:
            for line in text.split("\n"):
                if line:
                    tokens += tok(line)
                    ends.append(len(tokens))
        return tokens, ends

    toks = {"rouge_score": _tokenize_plain,
            "rouge155": lambda line: tokenize(line.encode().lower().decode("latin-1"))}
    compiled.core._tokenizer_simd(level)
    try:
        workers = {flavor: compiled_scorer(RougeScorer(["rouge1", "rougeLsum"], flavor=flavor)).engine.worker()
                   for flavor in toks}
        rng = random.Random(7 + level)
        alphabet = ["ab", "Cd", "9", " ", "\n", "\n\n", ".", "-", "\u00e9", "\u0130", " \n "]
        texts = ["\n" * k + "ab" for k in range(3)] + ["ab" + "\n" * k for k in range(3)] + ["", "\n", "...\n,"]
        texts += [("x" * off) + "\n" + "y" * (130 - off) for off in range(0, 130)]
        texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 160))) for _ in range(1500)]
        for text in texts:
            for flavor, tok in toks.items():
                got = workers[flavor].tokens(text)
                assert (got[0], got[1]) == by_lines([text], tok), (flavor, text)
        for _ in range(300):
            items = [rng.choice(texts) for _ in range(rng.randrange(1, 4))]
            got = workers["rouge_score"].tokens(items)
            assert (got[0], got[1]) == by_lines(items, _tokenize_plain), items
    finally:
        compiled.core._tokenizer_simd(previous)
