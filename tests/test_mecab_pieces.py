"""Japanese (MeCab through fugashi) on texts MeCab cannot take whole: segmenters.mecab_pieces.

MeCab ends the process with a segmentation fault on one input of a few MB; longer texts are parsed
in pieces of at most MECAB_PIECE_BYTES, so scoring them no longer crashes, and every shorter text
still goes to MeCab whole (the anchor's tokens).
"""
import random
import subprocess
import sys
import textwrap

import pytest

from rouge_full_metric import segmenters
from rouge_full_metric.segmenters import MECAB_PIECE_BYTES, mecab_pieces

ALPHABET = ["a", "b", " ", "\u3002", "\u6771", "\u4eac", "\u306e", "\U0001f600", "\u00e9"]


def test_pieces_cover_the_text_within_the_limit_and_cut_where_they_can():
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 120)))
        limit = rng.randint(4, 40)
        pieces = mecab_pieces(text, limit)
        assert "".join(pieces) == text
        assert all(len(p.encode("utf-8")) <= limit for p in pieces), (text, limit, pieces)
        assert all(pieces[:-1]), (text, limit, pieces)
        for piece, rest in zip(pieces, pieces[1:]):
            window = (piece + rest).encode("utf-8")[:limit].decode("utf-8", "ignore")
            if "\u3002" in window:
                assert piece.endswith("\u3002"), (text, limit, pieces)
            elif " " in window:
                assert piece.endswith(" "), (text, limit, pieces)
    assert mecab_pieces("x" * 100, 100) == ["x" * 100]
    assert mecab_pieces("") == [""]


def _japanese(size_bytes, seed=0):
    rng = random.Random(seed)
    words = ["\u6771\u4eac", "\u5927\u5b66", "\u306e", "\u5b66\u751f", "\u306f", "\u65b0\u3057\u3044",
             "\u672c", "\u3092", "\u8aad\u307f", "\u307e\u3057\u305f", "\u3002", "\u7d4c\u6e08"]
    out, size = [], 0
    while size < size_bytes:
        word = rng.choice(words)
        out.append(word)
        size += len(word.encode("utf-8"))
    return "".join(out)


def test_texts_below_the_limit_go_to_mecab_whole():
    fugashi = pytest.importorskip("fugashi")
    unidic_lite = pytest.importorskip("unidic_lite")
    import os

    dicdir = unidic_lite.DICDIR
    tagger = fugashi.Tagger('-r "%s" -d "%s" -O wakati -b 50000' % (os.path.join(dicdir, "mecabrc"), dicdir))
    segment = segmenters.get("fugashi", "ja")
    for k in range(5):
        text = " ".join(_japanese(3000, seed=k).split("\u3002"))
        assert segment(text) == tagger.parse(text).split()
    assert mecab_pieces(_japanese(MECAB_PIECE_BYTES - 64)) == [_japanese(MECAB_PIECE_BYTES - 64)]
    assert len(mecab_pieces(_japanese(MECAB_PIECE_BYTES + 64))) == 2


def test_a_japanese_text_of_three_megabytes_is_scored_without_crashing():
    # MeCab crashed (SIGSEGV) on this text given whole: 2.4 MB of it already did
    pytest.importorskip("fugashi")
    pytest.importorskip("unidic_lite")
    script = textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        from test_mecab_pieces import _japanese
        from rouge_full_metric import RougeScorer
        text = _japanese(3000000)
        score = RougeScorer(["rouge1"], lang="ja").score(text, text)["rouge1"]
        print(score.fmeasure)
    """ % (__file__.rsplit("/", 1)[0],))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert run.stdout.strip() == "1.0"
