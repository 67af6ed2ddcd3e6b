#!/usr/bin/env python3
"""Run ../shared/tools/check_conformance.py with every example scored by the compiled core.

``RougeScorer._example`` (which ``score`` and ``score_corpus`` use) is routed through
``batch.score_one`` first, so the check covers the compiled path whether or not scorer.py
already dispatches to it; ``ROUGE_FULL_METRIC_PURE_PYTHON=1`` runs the same check on the
pure-Python engine.  Arguments are passed to the checker.

Usage: python benchmarks/conformance_compiled.py [--show 5]
"""
import os
import runpy
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rouge_full_metric import batch, compiled  # noqa: E402
from rouge_full_metric.scorer import RougeScorer  # noqa: E402

_python_example = RougeScorer._example


def _example(self, prediction, references, index=None):
    cs = batch.compiled_scorer(self)
    if cs is not None:
        try:
            scores, stats = cs.run([prediction], [references], 0, 1, True)
            return stats[0], scores[0]
        except (TypeError, ValueError, UnicodeError):
            pass
    return _python_example(self, prediction, references, index)


if compiled.AVAILABLE:
    RougeScorer._example = _example
print("backend:", compiled.backend())
tool = os.path.join(ROOT, "..", "shared", "tools", "check_conformance.py")
sys.argv = [tool] + sys.argv[1:]
runpy.run_path(tool, run_name="__main__")
