"""The shared conformance checker (ROUGE-1.5.5.pl outputs for 15 option profiles) at 100 %."""
import os
import subprocess
import sys


def test_check_conformance_all_profiles(shared_dir):
    tool = os.path.join(shared_dir, "tools", "check_conformance.py")
    out = subprocess.run([sys.executable, tool, "--show", "5"], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "(100.000%)" in out.stdout.splitlines()[-1], out.stdout
