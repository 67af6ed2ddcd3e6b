#!/usr/bin/env python3
"""Check the compiled segmenters against other releases of the packages they port, to extend
native_segmenters.NEWMM_VERIFIED / JIEBA_VERIFIED.

For each release: ``pip install --no-deps --target`` it into a temporary folder, then, in a child
Python that imports it from there, compare the compiled port (its dictionary, tables and patterns
taken from that release, the version gate bypassed) with the release's own segmenter --
``word_tokenize(text, engine="newmm")`` or ``list(jieba.cut(text))`` -- on --texts generated texts
(tests/xlsum_texts.py).  Prints one line per release: texts compared, differences, first difference.

Usage: python tests/check_segmenter_versions.py pythainlp 5.4.0 5.3.8 ... [--texts 20000]
       python tests/check_segmenter_versions.py jieba 0.42.1 0.42 ...
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

COMMON = r"""
import sys
sys.path.insert(0, %(tests)r)
import xlsum_texts
from rouge_full_metric import compiled, native_segmenters
"""

CHILD = {
    "pythainlp": COMMON + r"""
import pythainlp
assert pythainlp.__file__.startswith(%(target)r), pythainlp.__file__
from pythainlp.corpus.common import thai_words
from pythainlp.tokenize import tcc_p, word_tokenize
native_segmenters.NEWMM_VERIFIED = (native_segmenters._release("pythainlp"),)
ours = native_segmenters.newmm_segmenter()
assert ours is not None, "cluster pattern not supported"
texts = xlsum_texts.thai_segmenter_texts(%(n)d, seed=21, dictionary=sorted(thai_words()))
texts += [p for pair in xlsum_texts.pairs("thai", %(n)d // 10, seed=22, max_words=80) for p in pair]
theirs = lambda text: word_tokenize(text, engine="newmm")
""",
    "jieba": COMMON + r"""
import jieba, logging
assert jieba.__file__.startswith(%(target)r), jieba.__file__
jieba.setLogLevel(logging.WARNING)
jieba.initialize()
native_segmenters.JIEBA_VERIFIED = (native_segmenters._release("jieba"),)
ours = native_segmenters.jieba_segmenter()
texts = xlsum_texts.chinese_segmenter_texts(%(n)d, seed=23, dictionary=sorted(w for w, f in jieba.dt.FREQ.items() if f)[::5])
texts += [p for pair in xlsum_texts.pairs("chinese", %(n)d // 10, seed=24, max_words=80) for p in pair]
theirs = lambda text: list(jieba.cut(text))
""",
}

REPORT = r"""
diffs = [t for t in texts if ours(t) != theirs(t)]
print("%%d texts, %%d differences%%s" %% (len(texts), len(diffs), (", first: %%r" %% diffs[0][:80]) if diffs else ""))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", choices=sorted(CHILD))
    parser.add_argument("versions", nargs="+")
    parser.add_argument("--texts", type=int, default=20000)
    args = parser.parse_args()
    for version in args.versions:
        with tempfile.TemporaryDirectory() as target:
            install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target,
                                      "%s==%s" % (args.package, version)], capture_output=True, text=True)
            if install.returncode:
                print("%s %s: not installable: %s" % (args.package, version, install.stderr.strip()[-200:]))
                continue
            env = dict(os.environ, PYTHONPATH=target)
            child = (CHILD[args.package] + REPORT) % {"tests": HERE, "target": target, "n": args.texts}
            run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env)
            out = run.stdout.strip() if run.returncode == 0 else "failed: " + run.stderr.strip().splitlines()[-1]
            print("%s %s: %s" % (args.package, version, out), flush=True)


if __name__ == "__main__":
    main()
