#!/usr/bin/env python3
"""Issue 21's speed targets, judged from one run of ``all.py``: a table and a verdict per target,
and (``--figures``) the run's rows people meet first.

``all.py`` prints both tables at its end; this script reads a saved output again (or several), so
that the figures quoted in docs/speed.md come from one run, mechanically, and a target counts as
reached only when every row it covers is in the run and meets it.  A row the run lacks (a script
failed, or ran with --quick, whose sizes are not the targets') is "not measured", never "reached".

The targets (issue 21, "Targets"):
  news        rouge_score set, news, unstemmed warm: <= 4 us/pair, and <= 2x the tokenize + hash +
              intern floor (bench_floor.py)
  stemmed     cold stemmed at 500, 2,000 and 10,000 pairs: >= 2x faster than rouge-score-rs
              (bench_stemmed_cold.py, one reference and four)
  long        ~800-token pairs: every single type ahead of rouge-score-rs, rougeL >= 1.5x
              (bench_types.py)
  ahead       ahead of rouge-score-rs in every configuration a user meets: bench.py's workloads,
              bench_types.py's rows, every shape of bench_shapes.py and bench_startup.py's new
              processes (the import, the import with a few pairs scored, and with a CI; by the
              children's own clocks where the run has them)
  n_jobs      n_jobs=2 >= 1.9x of n_jobs=1 with the second core free, >= 0.97x with it busy
              (bench_njobs.py); the one-CPU rows, where both settings run the same code, give the
              spread of two measurements of one thing on the machine in hand
  compute     compute(flavor="rouge_score", aggregate="mean") <= 1.3x score_batch + evaluate's
              own cost; memory of compute <= 2x score_batch's beyond evaluate's own (bench_evaluate.py)
  bootstrap   the bootstrap <= 2 us/pair at 100,000 pairs, both orders (bench_evaluate.py)

Usage: python benchmarks/targets.py RESULTS.txt [RESULTS.txt ...] [--compare | --figures | --summary]
       (--compare: one table, a column per run: each target's deciding figure and verdict;
        --figures: after each run's targets, its rows people meet first, as docs/speed.md quotes them;
        --summary: a column per machine, how many of its runs reached each target and the deciding
        figures' range; a run's machine is the one all.py recorded, or the LABEL of the last
        "--group LABEL" before it on the command line, for runs that recorded none)
   or: python benchmarks/all.py   (runs everything, then prints the targets and the figures)

>>> rows = judge(parse(EXAMPLE))
>>> [(r.target, r.verdict) for r in rows if r.target.startswith("news")]
[('news: <= 4 us/pair', 'not measured'), ('news: <= 2 x its floor', 'not reached')]
"""
import os
import re
import sys
from typing import Dict, List, NamedTuple, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_startup import OWN_CLOCKS_MARK  # noqa: E402

# A piece of an all.py run, for the doctest above.
EXAMPLE = """\
$ python benchmarks/bench_floor.py --runs 9
backend: compiled   python 3.11.7   11490 news pairs, 1357461 tokens (118.1 a pair)   runs: 9, in turns
blocks: + intern               1.45       12.3       1.00
rfm rouge_score set            3.88       32.8       2.67
"""


class Row(NamedTuple):
    target: str     # the target, as the issue states it
    measured: str   # what the run gave
    verdict: str    # "reached", "not reached" or "not measured"
    worst: str = "-"   # the figure that decides it: the worst row the target covers


def sections(text: str) -> Dict[str, str]:
    """{script: its output} from all.py's output (each script's part starts with "$ python
    benchmarks/SCRIPT")."""
    out: Dict[str, str] = {}
    parts = re.split(r"^\$ python benchmarks/(\S+\.py)[^\n]*\n", text, flags=re.M)
    for k in range(1, len(parts) - 1, 2):
        out[parts[k]] = parts[k + 1]
    return out


def _num(pattern: str, text: str) -> Optional[float]:
    m = re.search(pattern, text, flags=re.M)
    return float(m.group(1).replace(",", "")) if m else None


def parse(text: str) -> dict:
    """The figures the targets need, from one all.py output; a figure the run lacks is left out."""
    s = sections(text)
    p: dict = {}
    bench = s.get("bench.py", "")
    for wl in ("news", "long", "multi-ref"):
        for stem in ("", " stem"):
            ours = _num(r"^%s\s+rfm flavor rouge_score%s\s+\d+\s+([\d.]+)" % (wl, stem), bench)
            rs = _num(r"^%s\s+rouge-score-rs%s\s+\d+\s+([\d.]+)" % (wl, stem), bench)
            if ours is not None and rs is not None:
                p.setdefault("bench", []).append(("%s%s" % (wl, ", stemmed" if stem else ""), ours, rs))
    floor = s.get("bench_floor.py", "")
    p["floor_pairs"] = _num(r"^backend: .*?\s(\d+) news pairs", floor)
    p["floor"] = _num(r"^blocks: \+ intern\s+([\d.]+)", floor)
    p["floor_ns"] = _num(r"^blocks: \+ intern\s+[\d.]+\s+([\d.]+)", floor)
    p["news"] = _num(r"^rfm rouge_score set\s+([\d.]+)", floor)
    p["news_floor"] = _num(r"^rfm rouge_score set\s+[\d.]+\s+[\d.]+\s+([\d.]+)", floor)   # of its unrounded times
    types = s.get("bench_types.py", "")
    for part in re.split(r"^(?=\S+: \d+ pairs)", types, flags=re.M):
        head = re.match(r"(\S+): (\d+) pairs", part)
        if head:
            # (types, ours, rs, rs/ours as the script prints it: of its unrounded times)
            p.setdefault("types", {})[head.group(1)] = [
                (m.group(1), float(m.group(2)), float(m.group(3)), float(m.group(4)))
                for m in re.finditer(r"^\s+(rouge\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x", part, flags=re.M)]
    cold = s.get("bench_stemmed_cold.py", "")
    # (pairs, references, ours, rs, rs/ours as the script prints it)
    p["cold"] = [(int(m.group(1)), int(m.group(2)), float(m.group(3)), float(m.group(4)), float(m.group(5)))
                 for m in re.finditer(r"^cold stemmed\s+(\d+) pairs, (\d+) refs?\s*:\s+rouge_full_metric ([\d.]+) "
                                      r".*?rouge-score-rs ([\d.]+)\s.*-> ([\d.]+)x faster than rouge-score-rs", cold, flags=re.M)]
    ev = s.get("bench_evaluate.py", "")
    p["evaluate_pairs"] = _num(r"^(\d+) pairs, CPU medians", ev)
    p["compute"] = _num(r"^compute mean / \(score_batch \+ evaluate alone\): ([\d.]+)", ev)
    p["memory"] = _num(r"\(compute mean - evaluate alone\) / score_batch: ([\d.]+)", ev)
    p["boot_exact"] = _num(r"^bootstrap exact, [^:]*: ([\d.]+) us/pair", ev)
    p["boot_counts"] = _num(r"^bootstrap counts, [^:]*: ([\d.]+) us/pair", ev)
    nj = s.get("bench_njobs.py", "")
    head = r"^(\S+) (warm|cold|first|process)\s+(free|busy|onecore)\s*\|"   # a row: workload, state, condition
    # each row's median of paired ratios and its 95 % interval (runs from 2026-11-30f on print them)
    p["njobs_paired"] = {(m.group(1), m.group(2), m.group(3)): tuple(float(m.group(k)) for k in (4, 5, 6))
                         for m in re.finditer(head + r".*\| paired ([\d.]+)x \[([\d.]+)-([\d.]+)\]", nj, flags=re.M)}
    p["njobs"] = [(m.group(1), m.group(2), m.group(3), float(m.group(4)), m.group(5) and float(m.group(5)))
                  for m in re.finditer(head + r"[^|]*\|[^|]*\|\s+([\d.]+)x\s+[\d.]+x(?:\s*\|\s+([\d.]+)x)?",
                                       nj, flags=re.M)]
    startup = s.get("bench_startup.py", "")
    # (what, ours, rs): ms of CPU by the children's own clocks where the run has them, else (runs
    # before 2026-11-30d) what a new process adds from outside (a few rounds on a noisy machine
    # can read under the empty interpreter's median: negative)
    startup = startup.split(OWN_CLOCKS_MARK)[-1]
    p["startup"] = [(m.group(1).strip(), float(m.group(2)), float(m.group(3)))
                    for m in re.finditer(r"^(import|\d+ pairs(?:, stemmed|, with a CI)?)\s+(-?[\d.]+) \(\s*-?[\d.]+\)"
                                         r"\s+(-?[\d.]+) \(", startup, flags=re.M)]
    shapes = s.get("bench_shapes.py", "")
    p["shapes"] = [(m.group(1).strip(), float(m.group(2)), float(m.group(3)))
                   for m in re.finditer(r"^(\S.*?)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s*$", shapes, flags=re.M)]
    return p


def _verdict(ok: Optional[bool]) -> str:
    return "not measured" if ok is None else ("reached" if ok else "not reached")


def _all(values, test) -> Optional[bool]:
    """Whether every value passes; None for no values at all."""
    values = list(values)
    return None if not values else all(test(v) for v in values)


def judge(p: dict) -> List[Row]:
    """One Row per target, strictest reading: every row a target covers must meet it."""
    rows = []
    news, floor = p.get("news"), p.get("floor")
    if p.get("floor_pairs") != 11490:   # the news workload whole (all.py --quick times 1,000 of its pairs)
        news = floor = None
    # both scripts time the same set on the same pairs: bench.py back to back, bench_floor.py in turns
    warm = [v for name, v, _ in p.get("bench", []) if name == "news"]
    both = [("bench.py", warm[0])] if warm else []
    both += [("bench_floor.py", news)] if news else []
    rows.append(Row("news: <= 4 us/pair", ", ".join("%s %.2f us/pair" % b for b in both) or "-",
                    _verdict(_all((v for _, v in both), lambda v: v <= 4.0) if len(both) == 2 else None),
                    "%.2f" % max(v for _, v in both) if both else "-"))
    ratio = p.get("news_floor") if news else None
    rows.append(Row("news: <= 2 x its floor", "%.2f x the floor (%.2f us/pair)" % (ratio, floor) if ratio else "-",
                    _verdict(None if ratio is None else ratio <= 2.0), "%.2f x" % ratio if ratio else "-"))
    cold = p.get("cold", [])
    rows.append(Row("cold stemmed, 500 / 2,000 / 10,000 pairs: >= 2 x rs",
                    ", ".join("%d x %d ref: %.2f x" % (n, r, x) for n, r, _, _, x in cold) or "-",
                    _verdict(_all((c[4] for c in cold), lambda x: x >= 2.0)
                             if {500, 2000, 10000} <= {c[0] for c in cold} else None),
                    "%.2f x" % min(c[4] for c in cold) if cold else "-"))
    long = p.get("types", {}).get("long800", [])
    single = [(t, ours, rs) for t, ours, rs, _ in long if "+" not in t]
    rows.append(Row("~800-token pairs: every single type ahead of rs",
                    ", ".join("%s %.2f x" % (t, rs / ours) for t, ours, rs in single) or "-",
                    _verdict(_all(single, lambda r: r[2] > r[1])),
                    "%.2f x" % min(rs / ours for _, ours, rs in single) if single else "-"))
    lcs = [rs / ours for t, ours, rs in single if t == "rougeL"]
    rows.append(Row("~800-token pairs: rougeL >= 1.5 x rs", "%.2f x" % lcs[0] if lcs else "-",
                    _verdict(lcs[0] >= 1.5 if lcs else None), "%.2f x" % lcs[0] if lcs else "-"))
    ahead = [("bench.py " + name, ours, rs) for name, ours, rs in p.get("bench", [])]
    for wl, trs in p.get("types", {}).items():
        ahead += [("bench_types.py %s %s" % (wl, t), ours, rs) for t, ours, rs, _ in trs]
    ahead += [("bench_shapes.py " + name, ours, rs) for name, ours, rs in p.get("shapes", [])]
    # (a row whose time reads at or under the empty interpreter's is noise, and has no ratio)
    ahead += [("bench_startup.py " + name, ours, rs) for name, ours, rs in p.get("startup", []) if ours > 0]
    lost = [name for name, ours, rs in ahead if rs <= ours]
    least = min(ahead, key=lambda r: r[2] / r[1]) if ahead else None
    rows.append(Row("ahead of rs in every configuration measured",
                    ("%d rows, %d lost; the closest: %s %.2f x" % (len(ahead), len(lost), least[0], least[2] / least[1])
                     + ("; lost: " + ", ".join(lost) if lost else "")) if least else "-",
                    _verdict(None if not ahead else not lost),
                    "%d lost, the closest %.2f x" % (len(lost), least[2] / least[1]) if least else "-"))
    nj = p.get("njobs", [])
    free = [r for r in nj if r[2] == "free"]
    busy = [r for r in nj if r[2] == "busy"]
    one = [r[3] for r in nj if r[2] == "onecore"]
    capped = [r for r in free if r[4] is not None and r[4] < 1.9]

    def every_row(rows):   # each workload in each state, or the target is not measured
        return {(w, st) for w, st, *_ in rows} >= {(w, st) for w in ("news", "long", "multi-ref")
                                                   for st in ("warm", "cold", "first", "process")}
    rows.append(Row("n_jobs=2, second core free: >= 1.9 x",
                    ("%d of %d rows (%.2f-%.2f); %d rows' two-process ceiling itself under 1.9"
                     % (sum(r[3] >= 1.9 for r in free), len(free), min(r[3] for r in free), max(r[3] for r in free),
                        len(capped))) if free else "-",
                    _verdict(_all((r[3] for r in free), lambda x: x >= 1.9) if every_row(free) else None),
                    "%d of %d rows" % (sum(r[3] >= 1.9 for r in free), len(free)) if free else "-"))
    paired = [v for (_, _, cond), v in p.get("njobs_paired", {}).items() if cond == "busy"]
    rows.append(Row("n_jobs=2, second core busy: >= 0.97 x",
                    ("%d of %d rows (%.2f-%.2f)%s%s" % (
                        sum(r[3] >= 0.97 for r in busy), len(busy), min(r[3] for r in busy), max(r[3] for r in busy),
                        "; the one-CPU rows (the same code twice): %.2f-%.2f" % (min(one), max(one)) if one else "",
                        "; paired ratios' 95 %% intervals: %d wholly under 0.97, %d holding it, %d wholly over"
                        % (sum(hi < 0.97 for _, _, hi in paired), sum(lo <= 0.97 <= hi for _, lo, hi in paired),
                           sum(lo > 0.97 for _, lo, _ in paired)) if paired else ""))
                    if busy else "-",
                    _verdict(_all((r[3] for r in busy), lambda x: x >= 0.97) if every_row(busy) else None),
                    "%d of %d rows" % (sum(r[3] >= 0.97 for r in busy), len(busy)) if busy else "-"))
    c, m = p.get("compute"), p.get("memory")
    if p.get("evaluate_pairs") != 100000:   # the targets are stated at 100,000 pairs (all.py --quick: 10,000)
        m = None
    rows.append(Row("compute(aggregate=\"mean\") <= 1.3 x (score_batch + evaluate)", "%.2f" % c if c else "-",
                    _verdict(None if c is None else c <= 1.3), "%.2f" % c if c else "-"))
    rows.append(Row("compute's memory beyond evaluate's own <= 2 x score_batch's", "%.2f" % m if m is not None else "-",
                    _verdict(None if m is None else m <= 2.0), "%.2f" % m if m is not None else "-"))
    for key, name in (("boot_exact", "the Perl's draw order"), ("boot_counts", "counts x values")):
        v = p.get(key) if p.get("evaluate_pairs") == 100000 else None
        rows.append(Row("bootstrap, %s, 100,000 pairs: <= 2 us/pair" % name, "%.2f us/pair" % v if v else "-",
                        _verdict(None if v is None else v <= 2.0), "%.2f" % v if v else "-"))
    return rows


def markdown(rows: List[Row]) -> str:
    """The rows as a markdown table, and a line that counts them."""
    lines = ["| target (issue 21) | this run | verdict |", "|---|---|---|"]
    lines += ["| %s | %s | %s |" % (r.target, r.measured, r.verdict) for r in rows]
    reached = sum(r.verdict == "reached" for r in rows)
    unmeasured = sum(r.verdict == "not measured" for r in rows)
    lines.append("")
    lines.append("%d of %d targets reached%s" % (reached, len(rows),
                                                  ", %d not measured in this run" % unmeasured if unmeasured else ""))
    return "\n".join(lines)


def _str(pattern: str, text: str, group: int = 1) -> Optional[str]:
    m = re.search(pattern, text, flags=re.M)
    return m.group(group) if m else None


def figures(text: str) -> str:
    """The run's rows people meet first, as a markdown table (what ours | peer | x); a row the run
    lacks is left out.  docs/speed.md quotes it under the targets."""
    s, p = sections(text), parse(text)
    rows = []

    def x(ours, peer):
        return "%.2f" % (float(peer) / float(ours))

    bench = {name: (ours, rs) for name, ours, rs in p.get("bench", [])}
    types = {wl: {t: (ours, rs, "%.2f" % x) for t, ours, rs, x in trs} for wl, trs in p.get("types", {}).items()}
    four = "rouge1+rouge2+rougeL+rougeLsum"
    singles = ("rouge1", "rouge2", "rougeL", "rougeLsum")
    if "news" in bench and four in types.get("news", {}):
        (o1, r1), (o2, r2, x2) = bench["news"], types["news"][four]
        rows.append(("news, rouge1/2/L/Lsum, warm (`bench.py` / `bench_types.py`, interleaved)",
                     "%s / %s us/pair" % (o1, o2), "rs %s / %s" % (r1, r2), "%s / %s" % (x(o1, r1), x2)))
    if p.get("floor") and p.get("news"):
        rows.append(("the same against its tokenize + hash + intern floor in plain C (`bench_floor.py`)", "%.2f" % p["news"],
                     "the floor %.2f (%.1f ns/token)" % (p["floor"], p["floor_ns"]), "%.2f x the floor" % p["news_floor"]))
    for wl, what in (("news", "news"), ("long800", "800-token pairs")):
        t = types.get(wl, {})
        if all(k in t for k in singles):
            rows.append(("%s, %s alone" % (what, " / ".join(singles)), " / ".join(str(t[k][0]) for k in singles),
                         "rs " + " / ".join(str(t[k][1]) for k in singles), " / ".join(t[k][2] for k in singles)))
    if "long" in bench and "multi-ref" in bench:
        (o1, r1), (o2, r2) = bench["long"], bench["multi-ref"]
        rows.append(("`bench.py` long / 4 references, rouge_score set", "%s / %s" % (o1, o2), "rs %s / %s" % (r1, r2),
                     "%s / %s" % (x(o1, r1), x(o2, r2))))
    if "news, stemmed" in bench:
        o, r = bench["news, stemmed"]
        rows.append(("news, stemmed, warm", str(o), "rs %s" % r, x(o, r)))
    cs = s.get("bench_stemmed_cold.py", "")
    for refs, what in ((1, "1 reference"), (4, "4 references")):
        got = [c for c in p.get("cold", []) if c[1] == refs]
        if got:
            rows.append(("cold stemmed (a new scorer, unseen words), %s pairs, %s"
                         % (" / ".join("{:,}".format(g[0]) for g in got), what), " / ".join(str(g[2]) for g in got),
                         "rs " + " / ".join(str(g[3]) for g in got), " / ".join("%.2f" % g[4] for g in got)))
    tr = re.search(r"rouge_full_metric compute ([\d.]+) ms\s+rouge-score-rs \+ BootstrapAggregator ([\d.]+) ms\s+"
                   r"rouge-score-rs \+ mean ([\d.]+) ms", cs)
    boot_x = _str(r"rouge-score-rs \+ BootstrapAggregator / rouge_full_metric compute: ([\d.]+)x", cs)
    mean_x = _str(r"rouge-score-rs \+ mean / rouge_full_metric compute: ([\d.]+)x", cs)
    if tr and boot_x and mean_x:
        rows.append(("Trainer-style `compute`, 500 pairs, unseen words, stemmed", "%s ms" % tr.group(1),
                     "rs + mean %s; rs + evaluate's BootstrapAggregator %s" % (tr.group(3), tr.group(2)),
                     "%s; %s" % (mean_x, boot_x)))
    ev = s.get("bench_evaluate.py", "")
    if p.get("compute") and p.get("evaluate_pairs"):
        rows.append(("`compute(aggregate=\"mean\")` / (`score_batch` + evaluate alone), {:,} pairs".format(int(p["evaluate_pairs"])),
                     "%.2f" % p["compute"], "", ""))
    scalar = re.findall(r"^bootstrap (?:exact|counts), [^:]*: [\d.]+ us/pair \(target <= 2\); scalar kernels ([\d.]+) \(([\d.]+)x\)",
                        ev, flags=re.M)
    if p.get("boot_exact") and p.get("boot_counts") and len(scalar) == 2:
        rows.append(("bootstrap, 1,000 replicates x 12 columns, {:,} pairs: the Perl's draw order / counts x values"
                     .format(int(p["evaluate_pairs"])), "%.2f / %.2f us/pair" % (p["boot_exact"], p["boot_counts"]),
                     "scalar kernels %s / %s" % (scalar[0][0], scalar[1][0]), "%s / %s" % (scalar[0][1], scalar[1][1])))
    shapes = p.get("shapes", [])
    if shapes:
        ratios = [rs / ours for _, ours, rs in shapes]
        lost = sum(r <= 1 for r in ratios)
        rows.append(("every shape of `bench_shapes.py`", "", "", "%.2f-%.1f in %d rows, %s" % (
            min(ratios), max(ratios), len(ratios), "%d lost" % lost if lost else "none lost")))
    startup = {name: (ours, rs) for name, ours, rs in p.get("startup", [])}
    sized = [name for name in startup if name.endswith(" pairs")]
    if "import" in startup and sized:
        names = ["import"] + sized
        rows.append(("a new process: %s (ms of CPU, `bench_startup.py`)" % " / ".join(names),
                     " / ".join("%.1f" % startup[n][0] for n in names), "rs " + " / ".join("%.1f" % startup[n][1] for n in names),
                     " / ".join(x(*startup[n]) if startup[n][0] > 0 else "-" for n in names)))
    for name in [name for name in startup if name.endswith(", with a CI")]:
        ours, rs = startup[name]
        rows.append(("a new process: %s (`bench_startup.py`)" % name, "%.1f" % ours, "rs %.1f" % rs,
                     x(ours, rs) if ours > 0 else "-"))
    pw = s.get("bench_pairwise.py", "")
    ours, peer = _str(r"^matrix rouge_score: ([\d.]+) ns/pair", pw), _str(r"^rapidfuzz cdist LCSseq: ([\d.]+) ns/pair", pw)
    if ours and peer:
        rows.append(("10,000 x 10,000 rougeL `score_matrix`", "%s ns/pair" % ours, "rapidfuzz LCS alone %s" % peer, x(ours, peer)))
    lang = {m.group(1): m.groups()[1:] for m in re.finditer(r"^(chinese|japanese|thai)\s+\S+\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+([\d.]+)x",
                                                          s.get("bench_languages.py", ""), flags=re.M)}
    if len(lang) == 3:
        ks = ("chinese", "japanese", "thai")
        rows.append(("Chinese / Japanese / Thai, flavor `xlsum`", " / ".join(lang[k][1] for k in ks) + " us/pair",
                     "multilingual-rouge " + " / ".join(lang[k][0] for k in ks), " / ".join(lang[k][2] for k in ks)))
    lines = ["| what | ours | peer | x |", "|---|---:|---:|---:|"]
    lines += ["| %s | %s | %s | %s |" % row for row in rows]
    return "\n".join(lines)


MACHINE = re.compile(r"^machine: (.*)$", flags=re.M)


def machine(text: str) -> Optional[str]:
    """The machine all.py recorded at the top of its output (runs up to 2026-11-30e recorded none)."""
    m = MACHINE.search(text)
    return m.group(1).strip() if m else None


def _span(figures: List[str]) -> str:
    """The range of a target's deciding figures over several runs, in their own words: "3.56-7.20",
    "2.04-3.00 x", "0-7 of 12 rows", "0-5 lost"; each number of the words takes its own range.

    >>> _span(["3.70", "4.04", "3.56"]), _span(["5 of 12 rows", "0 of 12 rows"]), _span(["-"])
    ('3.56-4.04', '0-5 of 12 rows', '-')
    >>> _span(["0 lost, the closest 1.22 x", "4 lost, the closest 0.14 x"]), _span(["2.60 x"])
    ('0-4 lost', '2.60 x')
    >>> _span(["2 of 4 rows", "7 of 12 rows"]), _span(["5 lost", "2 of 12 rows"])
    ('2-7 of 4-12 rows', '2-5 lost')
    """
    heads = [f.split(",")[0] for f in figures if f != "-"]
    if not heads:
        return "-"
    number = re.compile(r"-?\d+(?:\.\d+)?")

    def span(column):
        values = [float(v) for v in column]
        digits = len(column[0].split(".")[1]) if "." in column[0] else 0
        lo, hi = min(values), max(values)
        return "%.*f" % (digits, lo) if lo == hi else "%.*f-%.*f" % (digits, lo, digits, hi)

    if len({number.sub("#", h) for h in heads}) > 1:   # not one kind of figure: the first numbers' range
        return number.sub(lambda m: span([number.search(h).group() for h in heads]), heads[0], count=1)
    out = number.sub("#", heads[0])
    for column in zip(*(number.findall(h) for h in heads)):
        out = out.replace("#", span(column), 1)
    return out


def summary(groups: List[tuple]) -> str:
    """Several machines' runs, [(machine, [rows of each run])]: per target and machine, how many
    runs reached it and the range of the figure that decides it.

    >>> a, b = [Row("t", "", "reached", "1.50")], [Row("t", "", "not reached", "2.50")]
    >>> print(summary([("X", [a, b])]))
    | target (issue 21) | X (2 runs) |
    |---|---|
    | t | 1 of 2 (1.50-2.50) |
    | every target in one run | 1 of 2 |
    """
    heads = ["%s (%d run%s)" % (name, len(runs), "s" * (len(runs) != 1)) for name, runs in groups]
    lines = ["| target (issue 21) | %s |" % " | ".join(heads),
             "|---|" + "---|" * len(groups)]
    for k, row in enumerate(groups[0][1][0]):
        lines.append("| %s | %s |" % (row.target, " | ".join(
            "%d of %d (%s)" % (sum(rows[k].verdict == "reached" for rows in runs), len(runs),
                               _span([rows[k].worst for rows in runs])) for _, runs in groups)))
    lines.append("| every target in one run | %s |" % " | ".join(
        "%d of %d" % (sum(all(r.verdict == "reached" for r in rows) for rows in runs), len(runs))
        for _, runs in groups))
    return "\n".join(lines)


def compare(runs: List[tuple]) -> str:
    """Several runs side by side, [(name, rows)]: each target's deciding figure and verdict."""
    lines = ["| target (issue 21) | %s |" % " | ".join(name for name, _ in runs),
             "|---|" + "---|" * len(runs)]
    for k, row in enumerate(runs[0][1]):
        lines.append("| %s | %s |" % (row.target, " | ".join(
            "%s: %s" % (rows[k].worst, rows[k].verdict) for _, rows in runs)))
    lines.append("| targets reached | %s |" % " | ".join(
        "%d of %d" % (sum(r.verdict == "reached" for r in rows), len(rows)) for _, rows in runs))
    return "\n".join(lines)


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    side_by_side, with_figures, summed = "--compare" in args, "--figures" in args, "--summary" in args
    paths, labels, label = [], {}, None
    for k, a in enumerate(args):
        if a in ("--compare", "--figures", "--summary") or (k and args[k - 1] == "--group"):
            continue
        if a == "--group":
            if k + 1 == len(args):
                sys.exit("targets.py: --group needs a LABEL, then the runs it labels")
            label = args[k + 1]
            continue
        paths.append(a)
        labels[a] = label
    if not paths:
        sys.exit(__doc__.split("\n\n")[-2])
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not sections(text):
            sys.exit("targets.py: %s holds no all.py output (no '$ python benchmarks/...' line)" % path)
        runs.append((os.path.basename(path), judge(parse(text)), text, machine(text) or labels[path]
                     or "machine not recorded"))
    if summed:
        groups: Dict[str, list] = {}
        for _, rows, _, where in runs:
            groups.setdefault(where, []).append(rows)
        print(summary(list(groups.items())))
        return
    if side_by_side:
        print(compare([run[:2] for run in runs]))
        return
    for name, rows, text, _ in runs:
        print("%s:\n" % name)
        print(markdown(rows))
        print()
        if with_figures:
            print(figures(text))
            print()


if __name__ == "__main__":
    main()
