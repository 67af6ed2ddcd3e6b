"""Issue 12, new user 7: every input of the Space's API has a name (gradio names the API's
parameters after the handler's arguments; ``*args`` gave ``param_2`` ... ``param_10``).

gradio is not a test dependency: a stand-in module records the components the app builds and the
handlers its buttons call, which is what gradio's ``view_api()`` is made from."""
import inspect
import sys
import types
from pathlib import Path

import pytest

from test_space import _import_app

CARD = Path(__file__).resolve().parent.parent / "card"


class _Component:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _Button(_Component):
    clicks = []

    def click(self, fn, inputs=None, outputs=None, api_name=None):
        _Button.clicks.append((fn, list(inputs or []), api_name))


def _fake_gradio():
    gr = types.ModuleType("gradio")
    for name in ("Blocks", "Row", "Column", "Tab", "Accordion", "Markdown", "HTML", "Dropdown", "Checkbox", "Textbox",
                 "JSON"):
        setattr(gr, name, type(name, (_Component,), {}))
    gr.Button = _Button
    gr.Error = type("Error", (Exception,), {})
    return gr


class _Metric:
    def compute(self, **kwargs):
        return {"rouge1": 1.0}

    def signature(self, **kwargs):
        return "flavor:rouge155"


def test_every_api_parameter_is_named_after_its_input(monkeypatch):
    monkeypatch.setitem(sys.modules, "gradio", _fake_gradio())
    _Button.clicks.clear()
    app = _import_app(CARD)
    app.build_demo(_Metric())
    assert sorted(api for _, _, api in _Button.clicks) == ["score_jsonl", "score_lines"]
    for fn, inputs, api_name in _Button.clicks:
        params = list(inspect.signature(fn).parameters.values())
        assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params), api_name
        assert len(params) == len(inputs), api_name
        for param, component in zip(params, inputs):
            label = component.kwargs.get("label", "")
            # each input is labelled, and the label starts with the parameter's name
            assert label.split(" ")[0].rstrip(":") == param.name, (api_name, param.name, label)
        names = [p.name for p in params]
        assert "return_precision_recall" in names and "flavor" in names
        table, signature, warnings, result = fn(*[c.kwargs.get("value", c.args[0] if c.args else None)
                                                  for c in inputs])
        assert 'data-type="rouge1" data-measure="fmeasure"' in table and ">1.00000<" in table
        assert (signature, warnings, result) == ("flavor:rouge155", "", {"rouge1": 1.0})


def test_f_only_from_the_form():
    app = _import_app(CARD)
    options = app.options_from_form(["rouge1"], "rouge155", False, False, "flavor default", "flavor default",
                                    "newline", True, False, False)
    assert options["return_precision_recall"] is False
    assert "return_precision_recall" not in app.options_from_form(["rouge1"], "rouge155", False, False, "max",
                                                                  "no", "newline", True, False)
