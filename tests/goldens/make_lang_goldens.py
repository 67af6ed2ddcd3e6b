#!/usr/bin/env python3
"""Generate ``tests/data/lang_goldens_perl.json.gz``: flavor rouge155 with ``lang=`` against the real
ROUGE-1.5.5.pl on pseudo-words.

For each generated case (tests/xlsum_texts.py, in every XL-Sum language whose pipeline runs here,
unstemmed and stemmed) every line of the candidate and of its 1-3 references is tokenized by the
language's pipeline (``RougeScorer(lang=L, use_stemmer=S)``'s tokenizer), each distinct token of the
case becomes an ASCII pseudo-word ``t<k>``, and the pseudo-word texts (one line per line that has
tokens) are scored by ROUGE-1.5.5.pl through /work/shared/tools/perl_oracle.py under several
profiles: the Perl then computes every variant on exactly our tokens.  ``tests/test_lang_goldens.py``
replays the original texts through ``RougeScorer(lang=L, use_stemmer=S, <profile options>)``.

Run from the project root with the package's venv (segmenters installed) after setting up the oracle
once (``bash /work/shared/tools/setup-perl-oracle.sh /work/venv-oracle``)::

    python tests/goldens/make_lang_goldens.py --oracle-python /work/venv-oracle/bin/python
"""
import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import xlsum_texts  # noqa: E402
from rouge_full_metric import RougeScorer, languages  # noqa: E402

ORACLE = os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", "perl_oracle.py"))
OUT = os.path.join(ROOT, "tests", "data", "lang_goldens_perl.json.gz")
PROFILES = ["base", "best", "wlimit", "jackA", "flat", "skip9"]
SEED = 20261125
CASES_PER_LANGUAGE = 10


def tokenizer(lang, stem):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RougeScorer("rouge1", lang=lang, use_stemmer=stem)._lang_tokenize


def pseudo(texts, tokenize):
    """The texts with every distinct token replaced by t<k> (shared numbering), one line per line
    that has tokens."""
    ids = {}
    out = []
    for text in texts:
        lines = [tokenize(line) for line in text.split("\n") if line]
        out.append("\n".join(" ".join("t%d" % ids.setdefault(t, len(ids)) for t in line)
                             for line in lines if line))
    return out


def make_cases():
    rng = random.Random(SEED)
    cases = []
    for lang in sorted(languages.LANGUAGES):
        try:
            tokenize = {stem: tokenizer(lang, stem) for stem in (False, True)}
        except ImportError as error:
            print("skipping %s: %s" % (lang, error), file=sys.stderr)
            continue
        for k, (candidate, reference) in enumerate(xlsum_texts.pairs(lang, CASES_PER_LANGUAGE, seed=SEED, max_words=40)):
            references = [reference] + [xlsum_texts.pairs(lang, 1, seed=rng.randrange(10 ** 9))[0][0]
                                        for _ in range(rng.choice([0, 0, 1, 2]))]
            for stem in (False, True):
                mapped = pseudo([candidate] + references, tokenize[stem])
                if not all(mapped[1:]):
                    continue   # the Perl dies on a reference without tokens
                cases.append({"id": "%s-%d-%s" % (lang, k, "stem" if stem else "plain"), "lang": lang,
                              "use_stemmer": stem, "candidate": candidate, "references": references,
                              "mapped_candidate": mapped[0], "mapped_references": mapped[1:]})
    return cases


def run_oracle(python, cases, profile):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for c in cases:
                f.write(json.dumps({"id": c["id"], "candidate": c["mapped_candidate"],
                                    "references": c["mapped_references"]}) + "\n")
        out = os.path.join(tmp, "out.json")
        subprocess.run([python, ORACLE, path, profile, out], check=True)
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle-python", required=True, help="the venv python that has the Perl oracle")
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args()
    cases = make_cases()
    profiles = {}
    for profile in PROFILES:
        res = run_oracle(args.oracle_python, cases, profile)
        profiles[profile] = {"options": res["options"], "flat": bool(res.get("flat")),
                             "jackknife": bool(res.get("jackknife")), "cases": res["cases"],
                             "perl_errors": sorted(res["perl_errors"]), "system": res.get("system") or {}}
    doc = {"format": 1, "seed": SEED, "cases": cases, "profiles": profiles}
    with gzip.open(args.out, "wt", encoding="utf-8") as f:
        json.dump(doc, f, sort_keys=True, ensure_ascii=False)
    print("%d cases, profiles %s -> %s" % (len(cases), ", ".join(PROFILES), args.out))


if __name__ == "__main__":
    main()
