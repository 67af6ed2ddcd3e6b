#!/usr/bin/env python3
"""Check the compiled newmm against other PyThaiNLP releases, to extend segmenters.NEWMM_VERIFIED.

For each release: ``pip install --no-deps --target`` it into a temporary folder, then, in a child
Python that imports it from there, compare the compiled port (dictionary and cluster pattern taken
from that release) with the release's ``word_tokenize(text, engine="newmm")`` on --texts generated
texts (tests/xlsum_texts.py).  Prints one line per release: texts compared, differences, first
difference.

Usage: python tests/check_newmm_versions.py 5.4.0 5.3.8 5.2.0 ... [--texts 20000]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import sys
sys.path.insert(0, %(tests)r)
import pythainlp, xlsum_texts
from pythainlp.corpus.common import thai_words
from pythainlp.tokenize import tcc_p, word_tokenize
from pythainlp.tokenize._utils import rejoin_formatted_num
from rouge_full_metric import compiled, native_segmenters, segmenters
assert pythainlp.__file__.startswith(%(target)r), pythainlp.__file__
program = native_segmenters.tcc_program(tcc_p._PAT_TCC)
assert program is not None, "cluster pattern not supported"
trie = compiled.core.newmm_dictionary(thai_words(), program)
texts = xlsum_texts.thai_segmenter_texts(%(n)d, seed=21, dictionary=sorted(thai_words()))
texts += [p for pair in xlsum_texts.pairs("thai", %(n)d // 10, seed=22, max_words=80) for p in pair]
diffs = [t for t in texts if rejoin_formatted_num(compiled.core.newmm_segment(trie, t)) != word_tokenize(t, engine="newmm")]
print("%%d texts, %%d differences%%s" %% (len(texts), len(diffs), (", first: %%r" %% diffs[0][:80]) if diffs else ""))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="+")
    parser.add_argument("--texts", type=int, default=20000)
    args = parser.parse_args()
    for version in args.versions:
        with tempfile.TemporaryDirectory() as target:
            install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target,
                                      "pythainlp==" + version], capture_output=True, text=True)
            if install.returncode:
                print("pythainlp %s: not installable: %s" % (version, install.stderr.strip()[-200:]))
                continue
            env = dict(os.environ, PYTHONPATH=target)
            child = CHILD % {"tests": HERE, "target": target, "n": args.texts}
            run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env)
            out = run.stdout.strip() if run.returncode == 0 else "failed: " + run.stderr.strip().splitlines()[-1]
            print("pythainlp %s: %s" % (version, out), flush=True)


if __name__ == "__main__":
    main()
