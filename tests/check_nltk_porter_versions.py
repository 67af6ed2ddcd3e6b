#!/usr/bin/env python3
"""Check the compiled NLTK Porter port against NLTK releases, to extend nltk_porter.VERIFIED.

For each release: ``pip install --no-deps --target`` it into a temporary folder, then, in a child
Python that imports it from there, compare ``rouge_full_metric._core.nltk_porter_stem`` (with the
release's pool rule) with the release's ``PorterStemmer().stem`` on the vocabulary of
tests/porter_vocabulary.py (real words, every string of up to 4 letters, suffix combinations,
random words) and on capitalized variants of a part of it.  Prints one line per release: words
compared, differences, the first differences.

Usage: python tests/check_nltk_porter_versions.py 3.10.4 3.9.4 ... [--generated 300000] [--shared]
       (without versions: every release in nltk_porter.VERIFIED)
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import os, random, sys, time, types
from importlib import metadata
sys.path.insert(0, %(tests)r)
# the release's nltk/stem/porter.py without nltk/__init__.py, which in 3.9 loads the WordNet
# corpus (LookupError offline) and in every release imports far more than the stemmer
for name, folder in (("nltk", "nltk"), ("nltk.stem", os.path.join("nltk", "stem"))):
    module = types.ModuleType(name)
    module.__path__ = [os.path.join(%(target)r, folder)]
    sys.modules[name] = module
from nltk.stem.porter import PorterStemmer
assert sys.modules["nltk.stem.porter"].__file__.startswith(%(target)r)
release = metadata.version("nltk")
from rouge_full_metric import _core, nltk_porter
import porter_vocabulary

words = porter_vocabulary.vocabulary(%(n)d, shared=%(shared)r, exhaustive=4)
rng = random.Random(5)
# capitals: the irregular forms' lookup changed in 3.10 (before lowercasing, then after)
cased = ["News", "NEWS", "Dying", "SKIES", "Proceed", "Howe", "İnning", "ßies", "KIES"]
cased += ["".join(c.upper() if rng.random() < 0.3 else c for c in w) for w in rng.sample(words, 20000)]
theirs = PorterStemmer().stem
lowered = nltk_porter._pool_lowercased(release)
t0 = time.perf_counter()
diffs = [w for w in words + cased if _core.nltk_porter_stem(w, pool_lowercased=lowered) != theirs(w)]
print("(%%s) %%d words, %%d differences%%s (%%.0f s)" %% (release, len(words) + len(cased), len(diffs),
      (", first: %%r" %% [(w, _core.nltk_porter_stem(w, pool_lowercased=lowered), theirs(w)) for w in diffs[:5]])
      if diffs else "", time.perf_counter() - t0))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*")
    parser.add_argument("--generated", type=int, default=300000, help="generated words besides the real ones")
    parser.add_argument("--shared", action="store_true", help="add the words of ../shared's texts")
    args = parser.parse_args()
    sys.path.insert(0, ROOT)
    from rouge_full_metric import nltk_porter

    for version in args.versions or nltk_porter.VERIFIED:
        with tempfile.TemporaryDirectory() as target:
            install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target,
                                      "nltk==%s" % version], capture_output=True, text=True)
            if install.returncode:
                print("nltk %s: not installable: %s" % (version, install.stderr.strip()[-200:]))
                continue
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([target, ROOT]))
            child = CHILD % {"tests": HERE, "target": target, "n": args.generated, "shared": args.shared}
            run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env, cwd=ROOT)
            out = run.stdout.strip() if run.returncode == 0 else "failed: " + run.stderr.strip().splitlines()[-1]
            print("nltk %s: %s" % (version, out), flush=True)


if __name__ == "__main__":
    main()
