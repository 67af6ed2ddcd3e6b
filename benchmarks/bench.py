#!/usr/bin/env python3
"""Speed of rouge_full_metric against rouge_score and rouge-score-rs, in one process, same data.

Seeded workloads:
  news       11,490 pairs, 3-4 sentences, ~55-65 tokens a side, Zipf vocabulary, candidates
             perturbed from their references (CNN/DM-sized)
  long       2,000 pairs of 200-300 tokens in 8-12 sentences
  multi-ref  2,000 candidates x 4 references

Every timing is the median of --runs runs (default 3) after one warm-up run (which fills token and
stem caches in every library), on one thread; rouge-score-rs, ours and our Perl set run in turns
(one run of each, then the next round), rouge_score's slow series on its own before them.
rouge-score-rs runs with RAYON_NUM_THREADS=1, set
before it is imported.  The single-thread figures are CPU time (time.process_time), which stays
meaningful on a machine shared with other jobs; wall time is printed beside it, and is the
figure for the 2-thread row.  rouge_score (pure Python, ~2 ms a pair) is timed on the first
--slow-pairs pairs of each workload and reported per pair.

score_corpus is timed as RougeScorer.score_corpus, against batch.score_examples alone (its
scoring, without the bootstrap and the aggregation).

Usage: python benchmarks/bench.py [--runs 3] [--slow-pairs 500] [--only news,long,multi-ref]
       [--no-baselines] [--json out.json]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

os.environ["RAYON_NUM_THREADS"] = "1"   # before rouge_score_rs is imported

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qui", "dor", "men", "tal",
             "ber", "sun", "gar", "fel", "ton", "ish", "ing", "ed", "er", "ly", "tion", "ous", "al"]
FUNCTION = ["the", "of", "and", "to", "a", "in", "that", "is", "for", "on", "with", "as", "was", "he",
            "it", "by", "at", "said", "from", "his", "an", "be", "has", "have", "are", "were", "which"]


def make_vocabulary(rng, size=30000):
    words = list(FUNCTION)
    seen = set(words)
    while len(words) < size:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice([1, 2, 2, 3, 3, 4])))
        if w not in seen:
            seen.add(w)
            words.append(w)
    weights = [1.0 / (k + 1) ** 1.07 for k in range(size)]   # Zipf
    return words, weights


class TextMaker:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.words, self.weights = make_vocabulary(self.rng)
        self.cum = []
        total = 0.0
        for w in self.weights:
            total += w
            self.cum.append(total)

    def tokens(self, n):
        return self.rng.choices(self.words, cum_weights=self.cum, k=n)

    def sentence(self, toks):
        rng = self.rng
        out = []
        for k, t in enumerate(toks):
            if k == 0 or rng.random() < 0.08:
                t = t.capitalize()
            if rng.random() < 0.03:
                t = str(rng.randint(2, 2030))
            out.append(t)
            if rng.random() < 0.06 and k + 1 < len(toks):
                out[-1] += ","
        return " ".join(out) + rng.choice([".", ".", ".", "!", "?"])

    def document(self, nsent, ntok):
        # ntok tokens spread over nsent sentences
        cuts = sorted(self.rng.sample(range(1, ntok), nsent - 1)) if nsent > 1 else []
        bounds = [0] + cuts + [ntok]
        toks = self.tokens(ntok)
        return [toks[bounds[k]:bounds[k + 1]] for k in range(nsent)]

    def perturb(self, sents):
        rng = self.rng
        out = []
        for s in sents:
            s = list(s)
            for _ in range(max(1, len(s) // 3)):
                op = rng.random()
                if op < 0.45 and s:
                    s[rng.randrange(len(s))] = self.tokens(1)[0]
                elif op < 0.7 and len(s) > 1:
                    del s[rng.randrange(len(s))]
                elif op < 0.85:
                    s.insert(rng.randrange(len(s) + 1), self.tokens(1)[0])
                elif len(s) > 3:
                    i = rng.randrange(len(s) - 2)
                    s[i], s[i + 1] = s[i + 1], s[i]
            out.append(s)
        if rng.random() < 0.3 and len(out) > 1:
            i = rng.randrange(len(out) - 1)
            out[i], out[i + 1] = out[i + 1], out[i]
        return out

    def render(self, sents):
        return "\n".join(self.sentence(s) for s in sents if s)

    def pairs(self, count, nsent, ntok):
        """(predictions, references): ``count`` reference documents of ``nsent(rng)`` sentences and
        ``ntok(rng)`` tokens, each prediction a perturbed copy of its reference."""
        preds, refs = [], []
        for _ in range(count):
            ref = self.document(nsent(self.rng), ntok(self.rng))
            preds.append(self.render(self.perturb(ref)))
            refs.append(self.render(ref))
        return preds, refs


def workload(name, seed=2024):
    tm = TextMaker(seed)
    preds, refs = [], []
    if name == "news":
        preds, refs = tm.pairs(11490, lambda r: r.choice([3, 4]), lambda r: r.randint(55, 65))
    elif name == "long":
        preds, refs = tm.pairs(2000, lambda r: r.randint(8, 12), lambda r: r.randint(200, 300))
    elif name == "multi-ref":
        for _ in range(2000):
            base = tm.document(tm.rng.choice([3, 4]), tm.rng.randint(55, 65))
            preds.append(tm.render(tm.perturb(base)))
            refs.append([tm.render(tm.perturb(base) if k else base) for k in range(4)])
    else:
        raise ValueError(name)
    return preds, refs


def median_time(fn, runs, clock=time.process_time):
    fn()   # warm-up: caches of every library filled, as in any long evaluation
    times = []
    for _ in range(runs):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def alternating_walls(fn1, fn2, runs):
    """Wall seconds of fn1 and fn2, medians over runs of each taken in turns (fn1, fn2, fn2, fn1,
    ...) after one warm-up each: a ratio of the two then meets the machine in the same states,
    where two series back to back met it at different times (n_jobs=2 over 1 on news: 1.23-1.79x)."""
    fn1()
    fn2()
    one, two = [], []
    for k in range(runs):
        for which in ((0, 1) if k % 2 == 0 else (1, 0)):
            w0 = time.perf_counter()
            (fn1, fn2)[which]()
            (one, two)[which].append(time.perf_counter() - w0)
    return statistics.median(one), statistics.median(two)


def in_turns(fns, runs):
    """{name: (CPU seconds, wall seconds)}, medians over runs after one warm-up call each, every
    run calling each fn once in turn: the peers meet the machine in the same states, where series
    timed back to back met it at different times (all.py's run 30g timed our news set on its own
    at 6.24 us/pair, the stemmed set, which does more, at 5.25, and bench_types.py's turns at 4.3)."""
    for fn in fns.values():
        fn()
    cpu, wall = {name: [] for name in fns}, {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            cpu[name].append(time.process_time() - c0)
            wall[name].append(time.perf_counter() - w0)
    return {name: (statistics.median(cpu[name]), statistics.median(wall[name])) for name in fns}


def timings(fn, runs):
    """(CPU seconds, wall seconds), medians over runs after one warm-up."""
    return in_turns({"fn": fn}, runs)["fn"]


RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PERL_SET = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--slow-pairs", type=int, default=500)
    ap.add_argument("--only", default="news,long,multi-ref")
    ap.add_argument("--no-baselines", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()

    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import rouge_full_metric"],
                         capture_output=True, text=True, cwd=os.path.dirname(HERE))
    import_us = None
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() == "rouge_full_metric":
            import_us = int(parts[1])
    cold = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import rouge_full_metric"], cwd=os.path.dirname(HERE))
        cold.append(time.perf_counter() - t)
    base = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"])
        base.append(time.perf_counter() - t)

    from rouge_full_metric import RougeScorer, compiled
    from rouge_full_metric.batch import score_batch, score_examples

    rs_py = rs_rs = None
    if not a.no_baselines:
        try:
            from rouge_score import rouge_scorer as rs_py
        except ImportError:
            print("rouge_score not installed: pip install rouge-score")
        try:
            import rouge_score_rs as rs_rs
        except ImportError:
            print("rouge-score-rs not installed: pip install rouge-score-rs")

    print("backend: %s   python %s   runs: %d (median)" % (compiled.backend(), sys.version.split()[0], a.runs))
    print("import rouge_full_metric: %s (-X importtime, cumulative); a fresh interpreter running only the "
          "import takes %.3f s more than an empty one" % ("%.3f s" % (import_us / 1e6) if import_us else "?",
                                                         statistics.median(cold) - statistics.median(base)))
    results = {"backend": compiled.backend(), "rows": []}
    header = "%-10s %-36s %6s %10s %10s %10s %10s" % ("workload", "what", "pairs", "us/pair", "wall us", "x faster", "time vs")
    header2 = "%-10s %-36s %6s %10s %10s %10s %10s" % ("", "", "", "(CPU)", "", "rouge_sc.", "rs-rs")
    print(header)
    print(header2)
    print("-" * len(header))

    def row(wl, what, pairs, us, wall_us, py_us=None, rsrs_us=None):
        r = {"workload": wl, "what": what, "pairs": pairs, "us_per_pair_cpu": round(us, 2),
             "us_per_pair_wall": round(wall_us, 2)}
        ratio_py = ratio_rs = ""
        if py_us:
            r["speedup_vs_rouge_score"] = round(py_us / us, 1)
            ratio_py = "%.0fx" % (py_us / us)
        if rsrs_us:
            r["time_vs_rouge_score_rs"] = round(us / rsrs_us, 3)
            ratio_rs = "%.2f" % (us / rsrs_us)
        results["rows"].append(r)
        print("%-10s %-36s %6d %10.2f %10.2f %10s %10s" % (wl, what, pairs, us, wall_us, ratio_py, ratio_rs))
        sys.stdout.flush()
        return us

    for wl in a.only.split(","):
        preds, refs = workload(wl)
        n = len(preds)
        multi = isinstance(refs[0], list)
        unstemmed = {}
        for stem in (False, True):
            tag = " stem" if stem else ""
            py_us = rsrs_us = None
            if rs_py is not None:
                sc = rs_py.RougeScorer(RS_TYPES, use_stemmer=stem)
                m = min(a.slow_pairs, n)
                if multi:
                    fn = lambda: [sc.score_multi(refs[k], preds[k]) for k in range(m)]
                else:
                    fn = lambda: [sc.score(refs[k], preds[k]) for k in range(m)]
                cpu, wall = timings(fn, a.runs)
                py_us = row(wl, "rouge_score%s (first %d)" % (tag, m), m, cpu / m * 1e6, wall / m * 1e6)
            # rouge-score-rs, ours and our Perl set in turns; rouge_score (~2 ms a pair) apart, above
            fns = {}
            if rs_rs is not None:
                rs_sc = rs_rs.RougeScorer(RS_TYPES, use_stemmer=stem)
                if multi:   # rouge-score-rs has no multi-reference batch call
                    fns["rs"] = lambda: [rs_sc.score_multi(refs[k], preds[k]) for k in range(n)]
                else:
                    fns["rs"] = lambda: rs_sc.score_batch(refs, preds)
            ours = RougeScorer(RS_TYPES, flavor="rouge_score", use_stemmer=stem)
            perl = RougeScorer(PERL_SET, use_stemmer=stem)
            fns["ours"] = lambda: score_batch(ours, preds, refs)
            fns["perl"] = lambda: score_batch(perl, preds, refs)
            timed = in_turns(fns, a.runs)
            if "rs" in timed:
                cpu, wall = timed["rs"]
                rsrs_us = row(wl, "rouge-score-rs%s" % tag, n, cpu / n * 1e6, wall / n * 1e6, py_us)
            cpu, wall = timed["ours"]
            us = row(wl, "rfm flavor rouge_score%s" % tag, n, cpu / n * 1e6, wall / n * 1e6, py_us, rsrs_us)
            if not stem:
                unstemmed["rs"] = us
                wall1, wall2 = alternating_walls(lambda: score_batch(ours, preds, refs),
                                                 lambda: score_batch(ours, preds, refs, n_jobs=2), 2 * a.runs + 1)
                row(wl, "rfm flavor rouge_score, n_jobs=2", n, wall2 / n * 1e6, wall2 / n * 1e6, None, None)
                results["rows"][-1]["thread_speedup_wall"] = round(wall1 / wall2, 2)
                print("%-10s %-36s speed-up of 2 threads over 1 (wall, %d runs each in turns): %.2fx"
                      % (wl, "", 2 * a.runs + 1, wall1 / wall2))
            else:
                print("%-10s %-36s stemmed / unstemmed: %.2f" % (wl, "", us / unstemmed["rs"]))
            cpu, wall = timed["perl"]
            us = row(wl, "rfm rouge155 full Perl set%s" % tag, n, cpu / n * 1e6, wall / n * 1e6)
            if not stem:
                unstemmed["perl"] = us
            else:
                print("%-10s %-36s stemmed / unstemmed: %.2f" % (wl, "", us / unstemmed["perl"]))
        if wl == "news":
            perl = RougeScorer(PERL_SET)
            corpus = lambda: perl.score_corpus(preds, refs)
            how = "RougeScorer.score_corpus"
            t_score, _ = timings(lambda: score_examples(perl, preds, refs), a.runs)
            t_corpus, _ = timings(corpus, a.runs)
            print("score_corpus, Perl set, 1,000 replicates, %d pairs [%s]: %.3f s; scoring alone %.3f s; "
                  "beyond scoring (bootstrap, aggregation) %.3f s" % (n, how, t_corpus, t_score, t_corpus - t_score))
            results["score_corpus_s"] = round(t_corpus, 3)
            results["score_corpus_beyond_scoring_s"] = round(t_corpus - t_score, 3)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
