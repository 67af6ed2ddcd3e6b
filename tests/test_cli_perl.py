"""``rouge-full`` in Perl-compatible mode: stdout byte for byte against ROUGE-1.5.5.pl.

Two sources of expected output:

* ``tests/data/cli/``: our own inputs, configs and the real Perl's stdout on them, written by
  ``tests/goldens/make_cli_goldens.py`` (see its docstring): ``-t 1/2``, ``-f B``, ``-p``, ``-d``,
  ``-x``, ``-u``/``-U``, ``-z SEE|ISI|SPL|SIMPLE``, SEE/ISI/SPL input, Basic Elements in every mode,
  odd XML, missing peers, option clustering, and the cases where the Perl dies (stdout is then what
  it printed before dying, and the exit status must be non-zero);
* the official 2005 suite in ``../shared/rouge155-official`` (17 files; skipped when absent).
"""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_full_metric import cli

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "cli"
OFFICIAL = REPO.parent / "shared" / "rouge155-official"

with open(DATA / "cases.json", encoding="utf-8") as f:
    CASES = json.load(f)["cases"]

# -e may point anywhere: the data ships with the package.
NOWHERE = ["-e", "/nonexistent/ROUGE-data"]


def run_cli(argv, cwd):
    out, err = io.BytesIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        status = cli.main(argv, stdout=out, stderr=err)
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perl_golden(case):
    status, out, err = run_cli(NOWHERE + case["args"], DATA)
    expected = (DATA / case["stdout"]).read_bytes()
    assert out == expected, "stdout differs from ROUGE-1.5.5.pl's; stderr:\n" + err
    if case["perl_died"]:
        assert status != 0 and err.strip(), "the Perl dies here: rouge-full must fail with a message"
    else:
        assert status == 0, err


def test_subprocess_python_m():
    """Once through a real process: ``python -m rouge_full_metric`` writes the same bytes."""
    case = next(c for c in CASES if c["name"] == "spl-official-options")
    proc = subprocess.run([sys.executable, "-m", "rouge_full_metric"] + NOWHERE + case["args"],
                          cwd=DATA, capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (DATA / case["stdout"]).read_bytes()


def test_subprocess_failure_status():
    proc = subprocess.run([sys.executable, "-m", "rouge_full_metric", "-n", "1", "-a", "missing-model.xml"],
                          cwd=DATA, capture_output=True)
    assert proc.returncode != 0
    assert b"Cannot find model summary: inputs/bad/no-such-model.spl" in proc.stderr


def test_missing_peer_warning_on_stderr():
    status, out, err = run_cli(["-n", "1", "-a", "spl-odd.xml"], DATA)
    assert status == 0
    assert "*ROUGE Warning: test instance for peer Z does not exist for evaluation 1" in err
    assert b"Warning" not in out


@pytest.mark.parametrize("argv, message", [
    (["-v", "-a", "spl.xml"], "-v"),
    (["-M", "-a", "spl.xml"], "-M"),
    (["-l", "2.5", "-a", "spl.xml"], "-l"),
    (["-b", "-3", "-a", "spl.xml"], "-b"),
    (["-r", "1.5", "-a", "spl.xml"], "-r"),
    (["-a", "no-such-config.xml"], "no-such-config.xml"),
    (["-z", "SPL", "no-such-list.lst"], "no-such-list.lst"),
])
def test_refused_arguments_are_named(argv, message):
    status, out, err = run_cli(argv, DATA)
    assert status != 0 and out == b""
    assert message in err


# ------------------------------------------------------------------- the official 2005 suite

OFFICIAL_OPTS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2"
OFFICIAL_COMMANDS = {
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out": OFFICIAL_OPTS + " -a ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out": OFFICIAL_OPTS + " -a -m ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out": OFFICIAL_OPTS + " -a -m -s ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out": OFFICIAL_OPTS + " -l 10 -a ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out": OFFICIAL_OPTS + " -l 10 -a -m ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out": OFFICIAL_OPTS + " -l 10 -a -m -s ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out": OFFICIAL_OPTS + " -b 75 -a ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out": OFFICIAL_OPTS + " -b 75 -a -m ROUGE-test.xml",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": OFFICIAL_OPTS + " -b 75 -a -m -s ROUGE-test.xml",
    "verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": OFFICIAL_OPTS + " -b 75 -a -m -s verify.xml",
    "verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": OFFICIAL_OPTS + " -b 75 -a -m -s verify-spl.xml",
    "DUC2002-ROUGE.in.26.spl.out": "-n 4 DUC2002-ROUGE.in.26.spl.xml 26",
    "DUC2002-ROUGE.in.26.spl.lst.out": "-n 4 -z SPL DUC2002-ROUGE.in.26.spl.lst 26",
    "DUC2002-BE-F.in.26.simple.out": "-3 HM DUC2002-BE-F.in.26.simple.xml 26",
    "DUC2002-BE-L.in.26.simple.out": "-3 HM DUC2002-BE-L.in.26.simple.xml 26",
    "DUC2002-BE-F.in.26.lst.out": "-3 HM -z SIMPLE DUC2002-BE-F.in.26.lst 26",
    "DUC2002-BE-L.in.26.lst.out": "-3 HM -z SIMPLE DUC2002-BE-L.in.26.lst 26",
}


def test_official_command_table_is_complete():
    if not OFFICIAL.is_dir():
        pytest.skip("official ROUGE-1.5.5 sample data not found at %s" % OFFICIAL)
    assert sorted(p.name for p in (OFFICIAL / "sample-output").iterdir()) == sorted(OFFICIAL_COMMANDS)


@pytest.mark.parametrize("name", sorted(OFFICIAL_COMMANDS))
def test_official_output_byte_for_byte(name):
    if not OFFICIAL.is_dir():
        pytest.skip("official ROUGE-1.5.5 sample data not found at %s" % OFFICIAL)
    argv = ["-e", "../data"] + OFFICIAL_COMMANDS[name].split()
    status, out, err = run_cli(argv, OFFICIAL / "sample-test")
    assert status == 0, err
    assert out == (OFFICIAL / "sample-output" / name).read_bytes()


@pytest.mark.parametrize("name", ["spl-official-options", "spl-t1", "spl-fB-t2", "see", "die-empty-model-w"])
def test_on_the_pure_python_engine(monkeypatch, name):
    """The same bytes when the compiled core is absent and the pure-Python engine scores."""
    from rouge_full_metric import compiled

    monkeypatch.setattr(compiled, "AVAILABLE", False)
    case = next(c for c in CASES if c["name"] == name)
    status, out, err = run_cli(NOWHERE + case["args"], DATA)
    assert out == (DATA / case["stdout"]).read_bytes(), err
    assert (status != 0) == case["perl_died"]
