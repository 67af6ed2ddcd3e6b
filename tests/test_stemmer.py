"""Tests of ``rouge_full_metric.stemmer`` against stems produced by ROUGE-1.5.5.pl itself.

``tests/data/stemmer_goldens.tsv.gz`` is made by ``tests/goldens/make_stemmer_goldens.py``
(which needs Perl and the ROUGE-1.5.5 release); these tests only read that file.
"""

import doctest
import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_full_metric import stemmer
from rouge_full_metric.stemmer import WORDNET_EXCEPTION_TABLE, porter_stem, stem

GOLDENS = Path(__file__).parent / "data" / "stemmer_goldens.tsv.gz"


def _load_goldens() -> list[tuple[str, str]]:
    with gzip.open(GOLDENS, "rt", encoding="ascii") as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f]


@pytest.fixture(scope="module")
def goldens() -> list[tuple[str, str]]:
    return _load_goldens()


def test_goldens_file_is_sane(goldens):
    words = [w for w, _ in goldens]
    assert len(goldens) > 90_000
    assert words == sorted(set(words)), "goldens must be sorted and unique"
    assert GOLDENS.stat().st_size < 1_000_000


def test_stem_matches_perl_on_all_goldens(goldens):
    mismatches = [(w, want, got) for w, want in goldens if (got := stem(w)) != want]
    shown = "; ".join(f"{w!r}: perl {want!r}, python {got!r}" for w, want, got in mismatches[:10])
    assert not mismatches, f"{len(mismatches)} of {len(goldens)} words differ from Perl: {shown}"


def test_porter_stem_matches_perl_outside_exception_table(goldens):
    mismatches = [
        (w, want, got)
        for w, want in goldens
        if w not in WORDNET_EXCEPTION_TABLE and (got := porter_stem(w)) != want
    ]
    assert not mismatches, f"{len(mismatches)} differ, first: {mismatches[:10]}"


def test_goldens_cover_every_exception_key(goldens):
    golden = dict(goldens)
    keys = [k for k in WORDNET_EXCEPTION_TABLE if k.isalnum()]
    assert all(k in golden for k in keys)
    assert all(golden[k] == WORDNET_EXCEPTION_TABLE[k] for k in keys)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        # Lin's step-4 cascade strips more than one suffix.
        ("agreement", "agreem"),
        ("argument", "argum"),
        ("commissioner", "commiss"),
        ("accidental", "accid"),
        ("fundamental", "fundam"),
        ("conditionally", "condit"),
        # Exception table first, verbatim, blocking Porter.
        ("geese", "goose"),
        ("goose", "goos"),
        ("best", "well"),
        ("better", "well"),
        ("attackers", "attack"),
        ("attacker", "attacker"),
        ("customer", "customer"),
        ("customers", "custom"),
        ("data", "datum"),
        ("went", "go"),
        ("comics", "comic_strip"),
        # Numbers are ordinary tokens.
        ("1990s", "1990"),
    ],
)
def test_spec_examples(word, expected):
    assert stem(word) == expected


def test_exception_table_is_the_official_mapping():
    assert len(WORDNET_EXCEPTION_TABLE) == 5930
    assert WORDNET_EXCEPTION_TABLE["is"] == "be"
    assert WORDNET_EXCEPTION_TABLE["testes"] == "testes"
    assert WORDNET_EXCEPTION_TABLE["offer"] == "offer"
    assert WORDNET_EXCEPTION_TABLE["involucra"] == "involucrum"
    # Keys that can ever reach the table through ROUGE: [a-z0-9]+ longer than 3 characters.
    reachable = {
        k: v for k, v in WORDNET_EXCEPTION_TABLE.items() if re.fullmatch("[a-z0-9]{4,}", k)
    }
    assert len(reachable) == 5593
    identity = [k for k, v in reachable.items() if k == v]
    assert len(identity) == 166
    # 48 of those identity entries stop Porter from changing the word.
    assert sum(porter_stem(k) != k for k in identity) == 48


def test_porter_stem_alone():
    assert porter_stem("attacker") == "attack"
    assert porter_stem("geese") == "gees"
    assert porter_stem("agreement") == "agreem"
    # Short words pass through untouched.
    assert porter_stem("is") == "is"
    assert porter_stem("as") == "as"
    # Initial y is a consonant and comes back lower-case.
    assert porter_stem("yielding") == "yield"
    assert porter_stem("yes") == "ye"
    assert porter_stem("yyyy") == "yyyi"


def test_stem_lowercases_ascii_like_perl():
    assert stem("Agreement") == "agreem"
    assert stem("GEESE") == "goose"


def test_doctests():
    result = doctest.testmod(stemmer)
    assert result.attempted >= 2 and result.failed == 0


def test_nltk_not_needed():
    # A fresh interpreter in which importing nltk fails must still stem.
    code = (
        "import sys; sys.modules['nltk'] = None\n"
        "from rouge_full_metric.stemmer import stem\n"
        "assert stem('agreement') == 'agreem'\n"
        "assert 'nltk' not in {m.split('.')[0] for m, v in sys.modules.items() if v is not None}\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1])
