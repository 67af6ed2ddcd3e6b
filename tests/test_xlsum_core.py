"""The compiled XL-Sum token pipeline (_core.xlsum_tokenize, Engine(tokenizer=...)) against
multilingual-rouge 0.0.1 itself, on generated text in many scripts.

The anchor is a test dependency (``pip install multilingual-rouge==0.0.1 pyonmttok``); the
tests that need it skip without it.
"""
import random
import unicodedata

import pytest

from rouge_full_metric import compiled

core = compiled.core if compiled.AVAILABLE else None
pytestmark = pytest.mark.skipif(core is None or not getattr(core, "XLSUM_TOKENIZER", False),
                                reason="compiled core with the XL-Sum tokenizer not built")

# Code point pools, by script.
SCRIPTS = {
    "latin": [(0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF)],
    "cyrillic": [(0x400, 0x4FF)],
    "greek": [(0x370, 0x3FF), (0x1F00, 0x1FFF)],
    "arabic": [(0x600, 0x6FF), (0x750, 0x77F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)],
    "hebrew": [(0x590, 0x5FF)],
    "devanagari": [(0x900, 0x97F)],
    "bengali": [(0x980, 0x9FF)],
    "tamil_telugu": [(0xB80, 0xC7F)],
    "ethiopic": [(0x1200, 0x139F)],
    "cjk": [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x3040, 0x30FF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF),
            (0x2F800, 0x2FA1F), (0xFF00, 0xFFEF), (0x3000, 0x303F)],
    "hangul": [(0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F)],
    "myanmar_thai": [(0x1000, 0x109F), (0xE00, 0xE7F)],
    "emoji_symbols": [(0x1F300, 0x1FAFF), (0x2190, 0x2BFF), (0x20A0, 0x20CF), (0x2500, 0x259F)],
    "marks": [(0x300, 0x36F), (0x1AB0, 0x1AFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F)],
    "digits": [(0x30, 0x39), (0x660, 0x669), (0x6F0, 0x6F9), (0x966, 0x96F), (0x9E6, 0x9EF), (0xFF10, 0xFF19),
               (0x2150, 0x218B), (0x2460, 0x24FF), (0xB2, 0xB3), (0xBC, 0xBE)],
}
PUNCT = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)).startswith("P")]
ASCII_SYMBOLS = [chr(c) for c in range(33, 127) if not chr(c).isalnum()]
SPACES = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u1680", "\u2000", "\u2007", "\u2028",
          "\u2029", "\u202f", "\u3000"]
INVISIBLE = ["\x00", "\x01", "\x7f", "\x9f", "\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\ufffd",
             "\U000e0001", "\ue000", "\U000f0000", "\ud800", "\udfff"]
SPECIAL = ["\u2581", "\uffed", "\uffe8", "\uff05", "\uff03", "\uff1a", "\uff5f", "\uff60", "\u0130", "\u03a3",
           "\u1e9e", "\u212a", "\u2126", "\ufb00", "\u0345", "\u0307", "\u0149"]


def _char(rng, pools):
    lo, hi = rng.choice(pools)
    return chr(rng.randint(lo, hi))


def _random_code_point(rng):
    while True:
        c = rng.randint(0, 0x10FFFF)
        if not 0xD800 <= c <= 0xDFFF:
            return chr(c)


def gen_text(rng, script, length=None):
    """A text mostly in script, with runs (words) separated by spaces and punctuation, and
    everything the pipeline distinguishes mixed in."""
    pools = SCRIPTS[script]
    out = []
    n = length if length is not None else rng.randint(0, 60)
    for _ in range(n):
        r = rng.random()
        if r < 0.55:
            out.append(_char(rng, pools))
        elif r < 0.65:
            out.append(rng.choice(SPACES[:1] * 6 + SPACES))
        elif r < 0.71:
            out.append(_char(rng, SCRIPTS["marks"]))
        elif r < 0.76:
            out.append(_char(rng, SCRIPTS["digits"]))
        elif r < 0.81:
            out.append(rng.choice(PUNCT + ASCII_SYMBOLS))
        elif r < 0.84:
            out.append(rng.choice(INVISIBLE))
        elif r < 0.87:
            out.append(rng.choice(SPECIAL))
        elif r < 0.91:
            out.append(_char(rng, SCRIPTS[rng.choice(sorted(SCRIPTS))]))
        elif r < 0.94:
            out.append(_random_code_point(rng))
        else:
            out.append(_char(rng, SCRIPTS["latin"]))
    return "".join(out)


def multiline_pairs(seed, count):
    """count (prediction, reference) texts of 1-3 lines in one script each, the reference sharing
    about half of the prediction's lines."""
    rng = random.Random(seed)
    preds, refs = [], []
    for _ in range(count):
        script = rng.choice(sorted(SCRIPTS))
        base = [gen_text(rng, script, rng.randint(3, 30)) for _ in range(rng.randint(1, 3))]
        other = [s if rng.random() < 0.5 else gen_text(rng, script, rng.randint(3, 30)) for s in base]
        preds.append("\n".join(base))
        refs.append("\n".join(other))
    return preds, refs


@pytest.fixture(scope="module")
def anchor():
    pytest.importorskip("pyonmttok")
    rs = pytest.importorskip("multilingual_rouge.rouge_scorer")
    from multilingual_rouge import tokenization_wrapper

    full = rs.MultiTokenizer(None)

    def tokenize(text, pretokenize=True):
        if pretokenize:
            return tokenization_wrapper.tokenize(text, None, full)
        return tokenization_wrapper.tokenize(text, None)   # BasicTokenizer alone (its rougeLsum)

    return tokenize


KNOWN = [
    ("Hello, World! 北京2024年", ["hello", "world", "北", "京", "2024", "年"]),
    ("The U.S.-based co. earned $3,500.75", ["the", "u", "s", "based", "co", "earned", "3", "500", "75"]),
    ("abc123def ١٢٣abc", ["abc", "123", "def", "١٢٣", "abc"]),
    ("zero\u200bwidth soft\u00adhyphen", ["zerowidth", "softhyphen"]),
    ("a \u0301b", ["a", "\uff050020\u0301", "b"]),         # a word-initial mark: pyonmttok's quirk
    ("\u0301b", ["\u0301", "b"]),
    ("x\u2581y \uffedz", ["x", "_", "y", "\u25a0", "z"]),   # pyonmttok's substitutions
    ("İSTANBUL ΣΟΦΟΣ", ["i\u0307stanbul", "σοφος"]),        # str.lower(): İ -> i + U+0307, final sigma
    ("हिन्दी বাংলা ④x½", ["हिन्दी", "বাংলা", "④", "x", "½"]),
    ("🙂🙂 a🙂b", ["🙂", "🙂", "a", "🙂", "b"]),
    ("", []),
    (" \t\n ", []),
]


@pytest.mark.parametrize("text,expected", KNOWN)
def test_known_answers(text, expected):
    assert core.xlsum_tokenize(text) == expected


def test_known_answers_agree_with_anchor(anchor):
    for text, expected in KNOWN:
        assert anchor(text) == expected, text


def test_basic_mode():
    assert core.xlsum_tokenize("Hello, World! 北京2024年", pretokenize=False) == ["hello", "world", "北京2024年"]
    assert core.xlsum_tokenize("a \u0301b x\u2581y", pretokenize=False) == ["a", "\u0301b", "x\u2581y"]


def test_argument_errors():
    with pytest.raises(TypeError):
        core.xlsum_tokenize(b"bytes")
    with pytest.raises(TypeError):
        core.xlsum_tokenize()


@pytest.mark.parametrize("script", sorted(SCRIPTS) + ["mixed"])
def test_equals_anchor_per_script(anchor, script):
    rng = random.Random("xlsum-%s" % script)
    n = 0
    for i in range(1500):
        s = rng.choice(sorted(SCRIPTS)) if script == "mixed" else script
        text = gen_text(rng, s)   # lone surrogates included: BasicTokenizer deletes them (Cs)
        for pretok in (True, False):
            got = core.xlsum_tokenize(text, pretokenize=pretok)
            assert got == anchor(text, pretok), (script, pretok, ascii(text))
            n += 1
    assert n == 3000


def test_every_assigned_code_point(anchor):
    """Every assigned code point (and 2 % of the unassigned, private-use and surrogate ones)
    between letters, between digits and starting a word after a space: pyonmttok's and BERT's
    class of every character and the lower-casing, at once.  Many code points go into one text
    (the contexts are separated by spaces, which reset both tokenizers), so the anchor runs a
    few thousand times."""
    rng = random.Random("every-code-point")
    cps = [cp for cp in range(0x110000)
           if unicodedata.category(chr(cp)) not in ("Cn", "Co", "Cs") or rng.random() < 0.02]
    checked = 0
    for k in range(0, len(cps), 64):
        chunk = cps[k:k + 64]
        text = " ".join("ab%scd 12%s34 x %sy" % (chr(c), chr(c), chr(c)) for c in chunk)
        got, want = core.xlsum_tokenize(text), anchor(text)
        if got != want:   # find the culprit
            for c in chunk:
                t = "ab%scd 12%s34 x %sy" % (chr(c), chr(c), chr(c))
                assert core.xlsum_tokenize(t) == anchor(t), hex(c)
            assert got == want
        checked += len(chunk)
    assert checked > 150000


def test_lone_surrogates_are_deleted():
    assert core.xlsum_tokenize("ab\ud800cd \udfff") == ["abcd"]


@pytest.mark.parametrize("tokenizer", ["xlsum", "whitespace", "xlsum_basic"])
def test_engine_tokens(tokenizer, anchor):
    """Worker.tokens() under each tokenizer: the joined tokens are the anchor's for the whole
    text (flavor rouge_score carries the context across lines)."""
    from rouge_full_metric.scoring import PairStats, Score

    types = [("rouge1", "N", 1, 1.0, -1, False)]
    eng = core.Engine("rouge_score", types, 0, 0, "average", False, 0.5, None, Score, PairStats,
                      tokenizer=tokenizer)
    w = eng.worker()
    rng = random.Random("engine-tokens-" + tokenizer)
    for i in range(600):
        text = ("\n".join(gen_text(rng, rng.choice(sorted(SCRIPTS)), rng.randint(0, 25))
                                           for _ in range(rng.randint(1, 4))))
        joined = w.tokens(text)[0]
        if tokenizer == "whitespace":
            assert joined == text.split()
        elif tokenizer == "xlsum":
            assert joined == anchor(text)
        else:
            assert joined == [t for line in text.split("\n") for t in anchor(line, False)]


def _anchor_scores(texts, anchor_scorer):
    return [anchor_scorer.score(r, p) for p, r in texts]


def test_engine_scores_equal_anchor_tokens(anchor):
    """Scoring with tokenizer="xlsum" equals scoring the anchor's tokens (flavor rouge_score with
    the anchor's tokenize as tokenizer=, the pure-Python engine) for rouge1, rouge2, rougeL and
    rougeLsum.  The core's rougeLsum sentences are the whole text's tokens cut at the lines,
    the Python's tokenize each line alone: they differ only when a line's first word starts
    with a combining mark (pyonmttok's "％0020" prefix), so rougeLsum is compared where they
    agree."""
    from rouge_full_metric import RougeScorer
    from rouge_full_metric.scoring import PairStats, Score

    names = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    kinds = {"rouge1": ("N", 1), "rouge2": ("N", 2), "rougeL": ("L", 0), "rougeLsum": ("Lsum", 0)}
    types = [(n, kinds[n][0], kinds[n][1], 1.0, -1, False) for n in names]
    eng = core.Engine("rouge_score", types, 0, 0, "average", False, 0.5, None, Score, PairStats,
                      tokenizer="xlsum")
    w = eng.worker()
    ref_scorer = RougeScorer(names, flavor="rouge_score", tokenizer=lambda text: anchor(text))
    preds, refs = multiline_pairs("engine-scores", 400)
    got, _ = w.run(preds, refs, 0, len(preds), False)

    def lines_agree(text):
        return anchor(text) == [t for line in text.split("\n") for t in anchor(line)]

    lsum_compared = 0
    for p, r, g in zip(preds, refs, got):
        want = ref_scorer.score(p, r)
        for n in names[:3]:
            assert tuple(g[n]) == tuple(want[n]), (n, ascii(p), ascii(r))
        if lines_agree(p) and lines_agree(r):
            assert tuple(g["rougeLsum"]) == tuple(want["rougeLsum"]), (ascii(p), ascii(r))
            lsum_compared += 1
    assert lsum_compared > 300


def test_engine_keyword_errors():
    from rouge_full_metric.scoring import PairStats, Score

    types = [("rouge1", "N", 1, 1.0, -1, False)]
    args = ("rouge155", types, 0, 0, "average", False, 0.5, None, Score, PairStats)
    with pytest.raises(ValueError, match="tokenizer must be"):
        core.Engine(*args, tokenizer="bert")
    with pytest.raises(TypeError, match="unexpected keyword"):
        core.Engine(*args, tokeniser="xlsum")
    with pytest.raises(ValueError, match="word_limit"):
        core.Engine("rouge155", types, 10, 0, "average", False, 0.5, None, Score, PairStats, tokenizer="xlsum")
    eng = core.Engine(*args, tokenizer="xlsum")
    with pytest.raises(TypeError, match="str texts"):
        eng.worker().run([b"bytes"], ["ref"], 0, 1, False)


def test_perl_tokenizer_unchanged():
    from rouge_full_metric.scoring import PairStats, Score

    types = [("rouge1", "N", 1, 1.0, -1, False)]
    args = ("rouge155", types, 0, 0, "average", False, 0.5, None, Score, PairStats)
    text = "The U.S.-based Ünïcode co. earned 3,500 北京"
    assert core.Engine(*args).worker().tokens(text) == core.Engine(*args, tokenizer="perl").worker().tokens(text)
    assert core.Engine(*args).worker().tokens(text)[0] == ["the", "u", "s", "based", "n", "code", "co", "earned",
                                                             "3", "500"]


@pytest.mark.parametrize("flavor", ["rouge155", "paper"])
def test_engine_lines_are_texts_in_perl_flavors(flavor, anchor):
    """Flavors rouge155 and paper tokenize each line as a text of its own (as flavor xlsum
    would tokenize that line); a list of sentences gives one line per item."""
    from rouge_full_metric.scoring import PairStats, Score

    types = [("rougeLsum", "Lsum", 0, 1.0, -1, False)]
    rng = random.Random("lines-" + flavor)
    for tokenizer in ("xlsum", "xlsum_basic"):
        w = core.Engine(flavor, types, 0, 0, "average", False, 0.5, None, Score, PairStats,
                        tokenizer=tokenizer).worker()
        for i in range(300):
            lines = [(gen_text(rng, rng.choice(sorted(SCRIPTS)), rng.randint(0, 20)))
                     for _ in range(rng.randint(1, 4))]
            lines = [l.replace("\n", " ") for l in lines]
            want = [anchor(l, tokenizer == "xlsum") for l in lines if l]
            joined, ends, sent_tokens, _ = w.tokens("\n".join(lines))
            assert joined == [t for s in want for t in s]
            assert ends == [sum(len(s) for s in want[:k + 1]) for k in range(len(want))]
            as_list = w.tokens([l for l in lines if l])
            assert as_list[0] == joined and as_list[1] == ends


def test_engine_python_filter_gets_unicode_tokens(anchor):
    """The token filter is called once per distinct token with the token as a str (UTF-8
    decoded), and its answer replaces the token (None drops it)."""
    from rouge_full_metric.scoring import PairStats, Score

    seen = []

    def token_filter(token):
        seen.append(token)
        return None if len(token) <= 2 else token[::-1]

    types = [("rouge1", "N", 1, 1.0, -1, False)]
    w = core.Engine("rouge155", types, 0, 0, "average", False, 0.5, token_filter, Score, PairStats,
                    tokenizer="xlsum").worker()
    text = "Москва — столица России; Москва 2024 हिन्दी नहीं 北京 naïve naïve"
    want = [t[::-1] for t in anchor(text) if len(t) > 2]
    assert w.tokens(text)[0] == want
    assert sorted(seen) == sorted(set(anchor(text)))


def test_engine_threads_agree():
    """Workers on several threads (the GIL released while tokenizing) give the same scores."""
    from concurrent.futures import ThreadPoolExecutor

    from rouge_full_metric.scoring import PairStats, Score

    types = [("rouge1", "N", 1, 1.0, -1, False), ("rougeL", "L", 0, 1.0, -1, False)]
    eng = core.Engine("rouge_score", types, 0, 0, "average", False, 0.5, None, Score, PairStats, tokenizer="xlsum")
    rng = random.Random("threads")
    preds = [gen_text(rng, rng.choice(sorted(SCRIPTS)), 40) for _ in range(400)]
    refs = [gen_text(rng, rng.choice(sorted(SCRIPTS)), 40) for _ in range(400)]
    one = eng.worker().run(preds, refs, 0, 400, False)[0]
    with ThreadPoolExecutor(4) as ex:
        parts = list(ex.map(lambda k: eng.worker().run(preds, refs, k, k + 100, False)[0], range(0, 400, 100)))
    assert [s for p in parts for s in p] == one


def test_engine_equals_anchor_scorer(anchor):
    """multilingual-rouge's own RougeScorer (lang=None, no stemmer): rouge1, rouge2 and rougeL
    from an Engine with tokenizer="xlsum", rougeLsum from one with tokenizer="xlsum_basic" (the
    anchor's rougeLsum tokenizes its sentences with BasicTokenizer alone)."""
    from multilingual_rouge import rouge_scorer

    from rouge_full_metric.scoring import PairStats, Score

    kinds = {"rouge1": ("N", 1), "rouge2": ("N", 2), "rougeL": ("L", 0), "rougeLsum": ("Lsum", 0)}
    main_types = [(n, kinds[n][0], kinds[n][1], 1.0, -1, False) for n in ("rouge1", "rouge2", "rougeL")]
    main = core.Engine("rouge_score", main_types, 0, 0, "average", False, 0.5, None, Score, PairStats,
                       tokenizer="xlsum").worker()
    lsum = core.Engine("rouge_score", [("rougeLsum", "Lsum", 0, 1.0, -1, False)], 0, 0, "average", False, 0.5,
                       None, Score, PairStats, tokenizer="xlsum_basic").worker()
    scorer = rouge_scorer.RougeScorer(list(kinds), lang=None)
    preds, refs = multiline_pairs("anchor-scorer", 300)
    got_main, _ = main.run(preds, refs, 0, len(preds), False)
    got_lsum, _ = lsum.run(preds, refs, 0, len(preds), False)
    for p, r, g, gl in zip(preds, refs, got_main, got_lsum):
        want = scorer.score(r, p)
        for n in ("rouge1", "rouge2", "rougeL"):
            assert tuple(g[n]) == tuple(want[n]), (n, ascii(p), ascii(r))
        assert tuple(gl["rougeLsum"]) == tuple(want["rougeLsum"]), (ascii(p), ascii(r))
