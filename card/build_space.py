"""Assemble the Hugging Face Space of the metric: ``python card/build_space.py OUTDIR``.

The Space is flat: the card (README.md with the Space's YAML header, app.py, space_core.py,
requirements.txt), a copy of every module of the package except ``__init__.py``, and the C sources
of the compiled core in ``csrc/``, which ``space_core.py`` builds when the Space starts (a Space
cannot pip install this package: it is on no index).  ``evaluate.load("<user>/<space>")``
downloads ``rouge_full_metric.py`` and the sibling modules its ``from .x import`` lines name, so the
Space works without the package installed.  The copies are byte-identical to the package's files
(tests/test_space.py checks this), so a Space built from a commit scores exactly as that commit.

OUTDIR may be a clone of the Space's git repository: nothing in it is deleted, files of the same
name are overwritten, and Python files that are no longer part of the Space are reported.
"""
import argparse
import os
import shutil
import sys

CARD_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(CARD_DIR)
PACKAGE_DIR = os.path.join(REPO, "rouge_full_metric")
CARD_FILES = ("README.md", "app.py", "space_core.py", "requirements.txt")
CSRC = "csrc"
# Only the package needs __init__.py; in a Space it would make the folder look like a package
# that nothing imports, and evaluate creates its own in its module cache.
EXCLUDED_MODULES = ("__init__.py",)


def space_files(package_dir=PACKAGE_DIR, card_dir=CARD_DIR):
    """{name in the Space: source path}, card files first, then the package modules sorted."""
    files = {name: os.path.join(card_dir, name) for name in CARD_FILES}
    for name in sorted(os.listdir(package_dir)):
        if name.endswith(".py") and name not in EXCLUDED_MODULES:
            if name in files:
                raise RuntimeError("package module %s would overwrite the card's %s" % (name, name))
            files[name] = os.path.join(package_dir, name)
    csrc = os.path.join(package_dir, CSRC)
    for name in sorted(os.listdir(csrc)) if os.path.isdir(csrc) else []:
        if name.endswith((".c", ".h")):
            files[CSRC + "/" + name] = os.path.join(csrc, name)
    if "rouge_full_metric.py" not in files:
        raise RuntimeError("%s has no rouge_full_metric.py: not the package directory" % package_dir)
    return files


def build_space(outdir, package_dir=PACKAGE_DIR, card_dir=CARD_DIR):
    """Write the Space into ``outdir`` (created if missing); return the names written."""
    files = space_files(package_dir, card_dir)
    os.makedirs(os.path.join(outdir, CSRC), exist_ok=True)
    for name, source in files.items():
        # copyfile, not copy2: the bytes are what matters, and a Space repo needs no mode bits.
        shutil.copyfile(source, os.path.join(outdir, name))
    stale = sorted(n for n in os.listdir(outdir) if n.endswith(".py") and n not in files)
    stale += sorted(CSRC + "/" + n for n in os.listdir(os.path.join(outdir, CSRC))
                    if n.endswith((".c", ".h")) and CSRC + "/" + n not in files)
    if stale:
        sys.stderr.write("note: %s also holds %s, which the package no longer has; remove them from "
                         "the Space unless you added them on purpose\n" % (outdir, ", ".join(stale)))
    return list(files)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", help="directory to write the Space into (e.g. a clone of the Space repo)")
    args = parser.parse_args(argv)
    names = build_space(args.outdir)
    shown = [n for n in names if not n.startswith(CSRC + "/")]
    print("wrote %d files to %s: %s and %d C sources in %s/" % (len(names), os.path.abspath(args.outdir),
                                                                " ".join(shown), len(names) - len(shown), CSRC))
    return 0


if __name__ == "__main__":
    sys.exit(main())
