"""rouge_full_metric.meta_plots: figures render (PNG), and a missing matplotlib names the extra."""
import os
import sys

import numpy as np
import pytest

from rouge_full_metric import meta_eval as M

pytest.importorskip("matplotlib")
from rouge_full_metric import meta_plots  # noqa: E402


def _rows():
    rng = np.random.default_rng(0)
    human = rng.random((12, 20))
    metrics = {("rouge%d" % n, s, "recall"): human + n * (1.5 if s == "stem" else 1.0) * rng.random((12, 20))
               for n in (1, 2, 3) for s in ("original", "stem")}
    records = [{"doc_id": str(j), "system": "s%02d" % i, "scores": {"h": human[i, j]}}
               for i in range(12) for j in range(20)]
    return metrics, records, human


def _png(path):
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert os.path.getsize(path) > 10000


def test_forest_and_scatter_render(tmp_path):
    metrics, records, human = _rows()
    rows = M.correlation_rows(metrics, records, "h", ["system", "summary"], ["kendall"], n_resamples=100)
    meta_plots.forest(rows, str(tmp_path / "forest.png"), title="toy")
    _png(tmp_path / "forest.png")
    meta_plots.scatter(metrics["rouge1", "stem", "recall"], human, str(tmp_path / "scatter.png"),
                       metric_label="ROUGE-1 recall", human_label="human", systems=["s%02d" % i for i in range(12)])
    _png(tmp_path / "scatter.png")
    meta_plots.forest(rows, str(tmp_path / "forest.svg"))
    assert open(tmp_path / "forest.svg").read(200).lstrip().startswith("<?xml")


def test_cli_writes_both_figures(tmp_path):
    import io
    from rouge_full_metric.cli.main import main
    data = tmp_path / "d.jsonl"
    refs = ["police killed the gunman", "the cat sat on the mat", "stocks fell on monday"]
    outs = ["police kill the gunman", "a gunman", "the cat sat", "a mat", "stocks fell", "monday"]
    data.write_text("".join('{"doc_id": "%d", "system": "%s", "summary": "%s", "reference": "%s", "h": %d}\n'
                            % (d, s, outs[(2 * d + k) % 6], refs[d], (d + k) % 3)
                            for d in range(3) for k, s in enumerate("abc")))
    status = main(["correlate", str(data), "--human", "h", "--n-resamples", "50", "--plot",
                   str(tmp_path / "f.png"), "--scatter", str(tmp_path / "s.png"), "--plot-variant", "rouge2"],
                  stdout=io.BytesIO(), stderr=io.StringIO())
    assert status == 0
    _png(tmp_path / "f.png")
    _png(tmp_path / "s.png")


def test_missing_matplotlib_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    metrics, records, human = _rows()
    with pytest.raises(ImportError, match=r'pip install "\.\[plots\]"'):
        meta_plots.scatter(metrics["rouge1", "stem", "recall"], human, str(tmp_path / "x.png"))
    from rouge_full_metric.cli.main import main
    import io
    data = tmp_path / "d.csv"
    data.write_text("doc_id,system,m,h\n1,a,1,2\n1,b,2,3\n2,a,1,1\n2,b,3,2\n")
    err = io.StringIO()
    status = main(["correlate", str(data), "--human", "h", "--metrics", "m", "--plot", str(tmp_path / "f.png")],
                  stdout=io.BytesIO(), stderr=err)
    assert status == 2 and '--plot/--scatter: the plots need matplotlib: pip install ".[plots]"' in err.getvalue()
