"""RSS growth of one long-lived scorer meeting an open vocabulary (issue 18, finding 5).

Each configuration (flavor x lang x stemming x engine) runs in a fresh interpreter: one scorer
scores batches of prediction/reference pairs in which every word is new (never seen before), until
``--words`` fresh words have gone through it.  The RSS after the first batch is the baseline; the
table prints the highest RSS seen afterwards minus that baseline.  A bounded scorer stays flat
(its memos and the compiled Worker's token cache start afresh at their byte bounds); an unbounded
one grows linearly with the words.  The target is +64 MB per scorer over 10^6 fresh words.

    python benchmarks/memory_open_vocabulary.py                 # every configuration, 10^6 words
    python benchmarks/memory_open_vocabulary.py --words 200000 --flavors rouge155 --langs hi

Run it from the repository root (it imports the checkout).  Takes several minutes: the
pure-Python engine and the segmenters (jieba, newmm) are slow on 10^6 words.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAVORS = ("rouge155", "paper", "rouge_score", "xlsum", "matlab")
LANGS = ("none", "hi", "zh", "th")
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# letters each language's fresh words are spelled with
ALPHABETS = {
    "none": "abcdefghijklmnopqrstuvwxyz",
    "hi": "कखगघचछजझटठडढतथदधनपफबभमयरलवशसह",
    "zh": "".join(chr(c) for c in range(0x4E00, 0x4E00 + 3000)),
    "th": "กขคงจฉชซญดตถทธนบปผพฟมยรลวศสหอฮ",
}
WORDS_PER_TEXT = 60
PAIRS_PER_BATCH = 400


def fresh_word(k: int, alphabet: str, width: int) -> str:
    """The k-th word of the alphabet's fixed-width numbering: never the same word twice."""
    letters = []
    for _ in range(width):
        k, r = divmod(k, len(alphabet))
        letters.append(alphabet[r])
    return "".join(letters)


def one(flavor: str, lang: str, stem: bool, n_words: int, max_seconds: float = 0.0) -> dict:
    sys.path.insert(0, ROOT)
    from rouge_full_metric import RougeScorer

    options = {"flavor": flavor, "use_stemmer": stem}
    if lang != "none":
        options["lang"] = lang
    try:
        scorer = RougeScorer(TYPES, **options)
    except (ValueError, TypeError, ImportError) as error:
        return {"skipped": str(error).split(";")[0][:70]}
    alphabet = ALPHABETS[lang]
    width = 2 if lang == "zh" else 6   # zh: two-character words, the segmenters' common case
    joiner = "" if lang in ("zh", "th") else " "
    counter = 0
    baseline = peak = None
    samples = []
    start = time.perf_counter()
    while counter < n_words and not (max_seconds and samples and time.perf_counter() - start > max_seconds):
        preds, refs = [], []
        for _ in range(PAIRS_PER_BATCH):
            words = [fresh_word(counter + i, alphabet, width) for i in range(WORDS_PER_TEXT)]
            counter += WORDS_PER_TEXT
            # half the prediction's words are the reference's: the LCS and n-gram paths do work
            half = WORDS_PER_TEXT // 2
            pred = words[:half] + [fresh_word(counter + i, alphabet, width) for i in range(half)]
            counter += half
            preds.append("\n".join(joiner.join(pred[i:i + 15]) for i in range(0, len(pred), 15)))
            refs.append("\n".join(joiner.join(words[i:i + 15]) for i in range(0, len(words), 15)))
        scorer.score_batch(preds, refs)
        rss = _rss()
        if baseline is None:
            baseline = peak = rss
        peak = max(peak, rss)
        samples.append((counter, rss))
    return {"words": counter, "baseline_mb": baseline / 2 ** 20, "growth_mb": (peak - baseline) / 2 ** 20,
            "slope_mb": _slope(samples[len(samples) // 2:]), "seconds": time.perf_counter() - start}


def _slope(samples: list) -> float:
    """Least-squares growth in MB per 10^5 words over the samples (words, RSS): ~0 when flat.

    Fitted over the second half of the run so that a memo filling up to its bound at the start
    does not read as growth; a bound that is never reached shows as a positive slope.
    """
    if len(samples) < 2:
        return float("nan")
    n = len(samples)
    mx = sum(w for w, _ in samples) / n
    my = sum(r for _, r in samples) / n
    sxx = sum((w - mx) ** 2 for w, _ in samples)
    sxy = sum((w - mx) * (r - my) for w, r in samples)
    return sxy / sxx * 1e5 / 2 ** 20 if sxx else float("nan")


def _rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status (Linux only)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--flavors", nargs="+", default=list(FLAVORS))
    parser.add_argument("--langs", nargs="+", default=list(LANGS))
    parser.add_argument("--engines", nargs="+", default=["compiled", "python"])
    parser.add_argument("--max-seconds", type=float, default=0.0,
                        help="stop a configuration after this long (0: never) and report the words reached")
    parser.add_argument("--one", nargs=3, metavar=("FLAVOR", "LANG", "STEM"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        flavor, lang, stem = args.one
        print(json.dumps(one(flavor, lang, stem == "1", args.words, args.max_seconds)))
        return
    print("%-12s %-5s %-5s %-9s %9s %12s %10s %14s %9s" % (
        "flavor", "lang", "stem", "engine", "words", "baseline MB", "growth MB", "MB/10^5 words", "seconds"),
        flush=True)
    for flavor in args.flavors:
        for lang in args.langs:
            for stem in (False, True):
                for engine in args.engines:
                    env = dict(os.environ)
                    env.pop("ROUGE_FULL_METRIC_PURE_PYTHON", None)
                    if engine == "python":
                        env["ROUGE_FULL_METRIC_PURE_PYTHON"] = "1"
                    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--words", str(args.words),
                                           "--max-seconds", str(args.max_seconds),
                                           "--one", flavor, lang, "1" if stem else "0"],
                                          cwd=ROOT, env=env, capture_output=True, text=True)
                    if proc.returncode:
                        row = {"skipped": "failed: " + proc.stderr.strip().splitlines()[-1][:60]}
                    else:
                        row = json.loads(proc.stdout.strip().splitlines()[-1])
                    if "skipped" in row:
                        print("%-12s %-5s %-5s %-9s  n/a: %s" % (flavor, lang, "yes" if stem else "no", engine,
                                                                row["skipped"]), flush=True)
                        continue
                    print("%-12s %-5s %-5s %-9s %9d %12.1f %10.1f %14.2f %9.1f" % (
                        flavor, lang, "yes" if stem else "no", engine, row["words"], row["baseline_mb"],
                        row["growth_mb"], row["slope_mb"], row["seconds"]), flush=True)


if __name__ == "__main__":
    main()
