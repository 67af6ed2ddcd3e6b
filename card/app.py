"""The Space's demo: score predictions against references with rouge_full_metric.

evaluate 0.4.6's ``launch_gradio_widget`` builds its form with ``gr.inputs``/``gr.outputs``, which
gradio removed in 4.0, so this app builds its own ``gr.Blocks``.  The metric is loaded from the
script next to this file (the Space's flat copy), never from the Hub, so the demo runs the code of
the Space it belongs to.  Before it is loaded, :mod:`space_core` builds the compiled core from the
shipped C sources when the machine has a compiler; the page says which engine scores.  Nothing
happens at import: ``python app.py`` (what Spaces run) launches.
"""
import html
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2",
               "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
FLAVORS = ["rouge155", "rouge_score", "paper", "matlab", "xlsum"]
NO_LANG = "none"
NO_LANG_LABEL = "none: the flavor's ASCII tokenizer"
FLAVOR_DEFAULT = "flavor default"
MULTI_REF = [FLAVOR_DEFAULT, "average", "best", "max", "max_rp"]
JACKKNIFE = [FLAVOR_DEFAULT, "yes", "no"]
SPLITTERS = ["newline", "punkt", "regex"]
REFERENCE_SEPARATOR = "|||"
MEASURES = (("precision", "_precision"), ("recall", "_recall"), ("F-measure", ""))

EXAMPLE_PREDICTIONS = "police kill the gunman\nthe cat sat on the mat"
EXAMPLE_REFERENCES = "police killed the gunman ||| the gunman was shot\na cat sat on the mat"
EXAMPLE_JSONL = "\n".join(json.dumps(row) for row in [
    {"prediction": "Police killed the gunman.\nThe siege lasted six hours.",
     "references": ["Police shot and killed the gunman.\nThe standoff lasted six hours.",
                    "The gunman was killed by police after a six-hour siege."]},
    {"prediction": "The central bank raised rates by a quarter point.",
     "references": ["The central bank raised interest rates by 0.25 percentage points."]},
])


def metric_script():
    """The metric script: the Space's flat copy, the package's in a checkout (card/app.py), or
    else an installed rouge_full_metric's."""
    script = os.path.join(HERE, "rouge_full_metric.py")
    if not os.path.isfile(script):
        script = os.path.join(os.path.dirname(HERE), "rouge_full_metric", "rouge_full_metric.py")
    if not os.path.isfile(script):
        import rouge_full_metric

        script = os.path.join(rouge_full_metric.EVALUATE_MODULE_DIR, "rouge_full_metric.py")
    return script


def load_metric():
    # The script's path, not its directory: evaluate takes a directory's basename as the script's
    # name, and a Space's directory is not called rouge_full_metric.
    import evaluate

    return evaluate.load(metric_script())


def _count(n, noun):
    return "%d %s%s" % (n, noun, "" if n == 1 else "s")


def parse_lines(predictions_text, references_text):
    """One example per line; several references of one example separated by ``|||``."""
    predictions = [line.strip() for line in predictions_text.splitlines() if line.strip()]
    reference_lines = [line for line in references_text.splitlines() if line.strip()]
    if len(predictions) != len(reference_lines):
        raise ValueError("%s but %s: give one line of references per prediction"
                         % (_count(len(predictions), "prediction"), _count(len(reference_lines), "reference line")))
    references = [[r.strip() for r in line.split(REFERENCE_SEPARATOR) if r.strip()] for line in reference_lines]
    for k, refs in enumerate(references):
        if not refs:
            raise ValueError("reference line %d has no reference" % (k + 1))
    return predictions, references


def parse_jsonl(text):
    """JSON Lines of {"prediction": str, "references": str or [str, ...]}: texts may hold newlines."""
    predictions, references = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError("line %d is not JSON: %s" % (number, error)) from None
        if not isinstance(row, dict) or "prediction" not in row or "references" not in row:
            raise ValueError('line %d: expected {"prediction": ..., "references": [...]}' % number)
        refs = row["references"]
        predictions.append(row["prediction"])
        references.append([refs] if isinstance(refs, str) else refs)
    return predictions, references


def options_from_form(rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                      split_sentences, use_aggregator, confidence_intervals, return_precision_recall=True,
                      lang=NO_LANG):
    """The metric's keyword arguments for the form's values ("flavor default" leaves them unset)."""
    options = dict(rouge_types=list(rouge_types or DEFAULT_TYPES), flavor=flavor, use_stemmer=bool(use_stemmer),
                   remove_stopwords=bool(remove_stopwords), split_sentences=split_sentences,
                   use_aggregator=bool(use_aggregator), confidence_intervals=bool(confidence_intervals))
    if not return_precision_recall:
        options["return_precision_recall"] = False
    if multi_ref and multi_ref != FLAVOR_DEFAULT:
        options["multi_ref"] = multi_ref
    if jackknife and jackknife != FLAVOR_DEFAULT:
        options["jackknife"] = jackknife == "yes"
    if lang and lang != NO_LANG:
        options["lang"] = lang
    return options


def _nan_to_none(value):
    if isinstance(value, list):
        return [_nan_to_none(v) for v in value]
    return None if isinstance(value, float) and value != value else value


def score(metric, predictions, references, options):
    """(result dict, signature) for the parsed examples."""
    if not predictions:
        raise ValueError("no examples: give at least one prediction and its references")
    result = metric.compute(predictions=predictions, references=references, **options)
    # flavor matlab reports NaN where MATLAB does; JSON has no NaN, so the form shows null
    result = {k: _nan_to_none(v) for k, v in result.items()}
    signature_options = {k: v for k, v in options.items()
                         if k not in ("use_aggregator", "confidence_intervals", "return_precision_recall")}
    return result, metric.signature(**signature_options)


def score_with_notes(metric, predictions, references, options):
    """(result dict, signature, notes): :func:`score` plus the messages of the warnings it raised
    (e.g. texts the ASCII tokenizer empties, with the lang to choose), each once, so the page
    shows them."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, signature = score(metric, predictions, references, options)
    notes = list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, UserWarning)))
    return result, signature, notes


# ----------------------------------------------------------------------------- languages
def _load_by_path(name, path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def languages_module():
    """The metric's ``languages.py`` (the one list of names, codes and aliases), loaded by path:
    the Space's flat copy, or the package's in a checkout."""
    return _load_by_path("rouge_space_languages", os.path.join(os.path.dirname(metric_script()), "languages.py"))


_LOWER_QUALIFIERS = ("simplified", "traditional")
_QUALIFIERS = _LOWER_QUALIFIERS + ("cyrillic", "latin")


def language_label(name, code):
    """What the lang menu shows for XL-Sum's ``name``: ``language_label("chinese_simplified", "zh")``
    is ``"Chinese (simplified) — zh"``."""
    words = name.split("_")
    if len(words) == 2 and words[1] in _QUALIFIERS:
        qualifier = words[1] if words[1] in _LOWER_QUALIFIERS else words[1].capitalize()
        text = "%s (%s)" % (words[0].capitalize(), qualifier)
    else:
        text = " ".join(w.capitalize() for w in words)
    return "%s — %s" % (text, code) if code else text


def lang_choices():
    """The lang menu: ``(label, value)`` pairs; the label names the language and its ISO 639-1
    code, the value is XL-Sum's name, which the metric takes."""
    languages = languages_module()
    return [(NO_LANG_LABEL, NO_LANG)] + [(language_label(name, languages.resolve(name).code), name)
                                         for name in languages.XLSUM_NAMES]


# ----------------------------------------------------------------------------- the page's HTML
_TABLE_STYLE = ("border-collapse:collapse;border:none;width:100%;font-variant-numeric:tabular-nums;font-size:15px;"
                "color:var(--body-text-color)")
# every border set here: gradio's own table style draws a grid
_CELL = ("padding:7px 14px;border:none;border-bottom:1px solid var(--border-color-primary);text-align:right;"
         "background:transparent")
_HEAD = ("padding:7px 14px;border:none;border-bottom:2px solid var(--border-color-primary);text-align:right;"
         "font-weight:600;background:var(--background-fill-secondary)")
_ROW_HEAD = _CELL.replace("text-align:right", "text-align:left") + ";font-weight:600"
_LEFT_HEAD = _HEAD.replace("text-align:right", "text-align:left")
_GROUP_HEAD = _HEAD.replace("text-align:right", "text-align:center").replace("2px solid", "1px solid")
_TR = '<tr style="border:none">'
_SUFFIXES = ("_precision", "_recall", "_low", "_high")


def _number(value):
    if value is None or (isinstance(value, float) and value != value):
        return "–"   # flavor matlab's NaN (nothing to count), shown as null in the JSON
    return "%.5f" % value


def _cell(value, rouge_type, measure, stat, example=None):
    attributes = 'data-type="%s" data-measure="%s" data-stat="%s"' % (html.escape(rouge_type), measure, stat)
    if example is not None:
        attributes += ' data-example="%d"' % example
    style = _CELL + (";color:var(--body-text-color-subdued);font-size:14px" if stat != "mid" else "")
    return '<td %s style="%s">%s</td>' % (attributes, style, _number(value))


def results_table(result):
    """The result dict of ``compute`` as an HTML table: a row per rouge type (per example and
    type without the aggregator), a column group per measure (precision, recall, F-measure, or F
    only), with low/high columns when the result holds confidence intervals."""
    if not result:
        return ""
    types = [key for key in result if not key.endswith(_SUFFIXES)]
    measures = [(label, suffix) for label, suffix in MEASURES if types[0] + suffix in result]
    with_ci = types[0] + "_low" in result
    per_example = isinstance(result[types[0]], list)
    stats = ("mid", "low", "high") if with_ci else ("mid",)
    key_names = {"mid": "", "low": "_low", "high": "_high"}
    lead = ["example", "rouge type"] if per_example else ["rouge type"]
    note = ("per example (use_aggregator is off)" if per_example else
            "corpus values, low–high: the bootstrap confidence interval" if with_ci else "corpus values")
    rows = ['<h3 style="margin:4px 2px 8px;font-size:18px">Scores <span style="font-weight:400;font-size:14px;'
            'color:var(--body-text-color-subdued)">%s</span></h3>' % note,
            '<table class="rfm-scores" style="%s">' % _TABLE_STYLE, "<thead>"]
    if with_ci:
        rows.append(_TR + "%s%s</tr>" % ("".join('<th rowspan="2" style="%s">%s</th>' % (_LEFT_HEAD, h) for h in lead),
                                        "".join('<th colspan="3" style="%s">%s</th>' % (_GROUP_HEAD, label)
                                                for label, _ in measures)))
        rows.append(_TR + "%s</tr>" % "".join('<th style="%s">%s</th>' % (_HEAD, s) for _ in measures
                                            for s in ("score", "low", "high")))
    else:
        rows.append(_TR + "%s%s</tr>" % ("".join('<th style="%s">%s</th>' % (_LEFT_HEAD, h) for h in lead),
                                        "".join('<th style="%s">%s</th>' % (_HEAD, label) for label, _ in measures)))
    rows.append("</thead><tbody>")
    examples = range(len(result[types[0]])) if per_example else [None]
    for example in examples:
        for rouge_type in types:
            cells = []
            if example is not None:
                cells.append('<td style="%s">%d</td>' % (_CELL, example + 1))
            cells.append('<th scope="row" style="%s">%s</th>' % (_ROW_HEAD, html.escape(rouge_type)))
            for label, suffix in measures:
                measure = suffix.lstrip("_") or "fmeasure"
                for stat in stats:
                    value = result[rouge_type + suffix + key_names[stat]]
                    cells.append(_cell(value[example] if example is not None else value, rouge_type, measure, stat,
                                       example))
            rows.append(_TR + "%s</tr>" % "".join(cells))
    rows.append("</tbody></table>")
    return "\n".join(rows)


_WARNING_STYLE = ("border:1px solid #e0a100;border-left:6px solid #e0a100;background:#fff7dc;color:#4d3800;"
                  "border-radius:8px;padding:10px 14px;margin:4px 0")


def _lang_hint(note, choices):
    # the metric's warnings name the fix as lang='zh'; say which entry of the menu that is
    labels = {}
    for label, value in choices:
        code = label.rsplit(" — ", 1)[1] if " — " in label else None
        for key in (value, code):
            if key:
                labels.setdefault(key, label)
    found = [labels[m] for m in re.findall(r"lang='([^']+)'", note) if m in labels]
    return " In the lang menu above: “%s”." % found[0] if found else ""


def warnings_html(notes, choices=()):
    """The warnings of a run as a warning box (empty when there are none)."""
    if not notes:
        return ""
    items = "".join('<li style="margin:4px 0">%s%s</li>' % (html.escape(n), html.escape(_lang_hint(n, choices)))
                    for n in notes)
    return ('<div class="rfm-warning" role="alert" style="%s"><strong>⚠ %s</strong>'
            '<ul style="margin:6px 0 0 18px;padding:0">%s</ul></div>'
            % (_WARNING_STYLE, "Warning" if len(notes) == 1 else "Warnings", items))


def engine_of(metric):
    """("compiled" or "python" or "unknown", why not compiled): the engine the loaded metric runs."""
    import sys

    module = sys.modules.get(type(metric).__module__)
    backend = getattr(module, "backend", None)
    if backend is None:
        return "unknown", ""
    compiled = sys.modules.get(module.__name__.rpartition(".")[0] + ".compiled")
    return backend(), (compiled.unavailable_reason() if compiled is not None else "")


def engine_html(engine, reason="", core=None):
    """One line under the title: which engine scores, and why the reference engine when it does."""
    style = "font-size:14px;margin:0 0 4px;color:var(--body-text-color)"
    if engine == "compiled":
        where = " (built at start-up from the shipped C sources)" if core and core[0] == "built" else ""
        return ('<p class="rfm-engine" style="%s"><span style="color:#1a9e55">●</span> Engine: the compiled C '
                'core%s.</p>' % (style, where))
    if engine == "python":
        why = (core[1] if core and core[0] != "installed" else "") or reason
        return ('<div class="rfm-engine" role="note" style="border:1px solid #7aa7e0;border-left:6px solid #3b7dd8;'
                'background:#eef5ff;color:#143a66;border-radius:8px;padding:8px 14px;margin:0 0 4px">'
                "<strong>This Space runs the pure-Python reference engine</strong>: the same numbers as the "
                "compiled core, more slowly.%s</div>" % (" " + html.escape(why) if why else ""))
    return ""


def card_markdown():
    """The metric card (README.md) without its YAML header, shown under the form."""
    path = os.path.join(HERE, "README.md")
    if not os.path.isfile(path):
        return ""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            text = text[end + 4:]
    return text.lstrip()


class Handlers:
    """What the form's buttons call.  Every argument is named (no ``*args``): gradio names the
    Space's API parameters after them (``view_api()``), so a client calls ``predictions=...``,
    ``flavor=...``, not ``param_2`` ... ``param_10``.  Each returns (scores table, signature,
    warnings, result dict)."""

    def __init__(self, metric, error=ValueError, choices=()):
        self.metric, self.error, self.choices = metric, error, choices

    def _run(self, parse, texts, form):
        try:
            predictions, references = parse(*texts)
            result, signature, notes = score_with_notes(self.metric, predictions, references,
                                                        options_from_form(*form))
        except (ValueError, TypeError, LookupError, ImportError) as error:
            # the metric's messages name the argument at fault (an ImportError names the extra to
            # install for a language): show them, not a stack trace
            raise self.error(str(error))
        return results_table(result), signature, warnings_html(notes, self.choices), result

    def score_lines(self, predictions, references, rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref,
                    jackknife, split_sentences, use_aggregator, confidence_intervals, return_precision_recall,
                    lang):
        """Score one example per line (several references separated by ``|||``)."""
        return self._run(parse_lines, (predictions, references),
                         (rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                          split_sentences, use_aggregator, confidence_intervals, return_precision_recall, lang))

    def score_jsonl(self, jsonl, rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                    split_sentences, use_aggregator, confidence_intervals, return_precision_recall, lang):
        """Score JSON Lines of {"prediction": ..., "references": [...]}."""
        return self._run(parse_jsonl, (jsonl,),
                         (rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                          split_sentences, use_aggregator, confidence_intervals, return_precision_recall, lang))


HEADER = ("# ROUGE Full Metric\n"
          "Every ROUGE variant — N, L, Lsum, W, S, SU, several references, jackknifing, bootstrap confidence "
          "intervals — bit-exact with `ROUGE-1.5.5.pl` by default (`flavor=\"rouge155\"`); "
          "`flavor=\"rouge_score\"` gives the numbers of `evaluate.load(\"rouge\")`, and `lang` scores 45 "
          "languages as XL-Sum does.")


def build_demo(metric=None):
    """The gr.Blocks app (not launched).  Without ``metric``, the compiled core is built when it
    can be (:mod:`space_core`) and the Space's metric script is loaded."""
    import gradio as gr

    core = None
    if metric is None:
        core = _load_by_path("rouge_space_core", os.path.join(HERE, "space_core.py")).ensure_core(HERE)
        metric = load_metric()
    choices = lang_choices()
    handlers = Handlers(metric, gr.Error, choices)
    engine, reason = engine_of(metric)
    form_defaults = (DEFAULT_TYPES, "rouge155", False, False, FLAVOR_DEFAULT, FLAVOR_DEFAULT, "newline", True,
                     False, True, NO_LANG)
    try:  # the page opens on the example's scores, not on an empty box
        first = handlers.score_lines(EXAMPLE_PREDICTIONS, EXAMPLE_REFERENCES, *form_defaults)
    except Exception:
        first = ("", "", "", None)

    with gr.Blocks(title="ROUGE Full Metric") as demo:
        gr.Markdown(HEADER)
        gr.HTML(engine_html(engine, reason, core))
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                with gr.Tab("One example per line"):
                    predictions = gr.Textbox(EXAMPLE_PREDICTIONS, lines=4, elem_id="predictions",
                                             label="predictions (one per line)")
                    references = gr.Textbox(EXAMPLE_REFERENCES, lines=4, elem_id="references",
                                            label="references (one line per prediction; several separated by |||)")
                    lines_button = gr.Button("Score", variant="primary", elem_id="score-lines")
                with gr.Tab("JSON Lines (multi-sentence texts)"):
                    jsonl = gr.Textbox(EXAMPLE_JSONL, lines=8, elem_id="jsonl",
                                       label='jsonl: {"prediction": "...", "references": ["...", ...]} per line; '
                                             'sentences separated by \\n')
                    jsonl_button = gr.Button("Score", variant="primary", elem_id="score-jsonl")
            with gr.Column(scale=2):
                flavor = gr.Dropdown(FLAVORS, value="rouge155", label="flavor (whose ROUGE)")
                rouge_types = gr.Dropdown(ROUGE_TYPES, value=DEFAULT_TYPES, multiselect=True, label="rouge_types")
                lang = gr.Dropdown(choices, value=NO_LANG, elem_id="lang", label="lang (the texts' language)")
                with gr.Row():
                    use_stemmer = gr.Checkbox(False, label="use_stemmer")
                    remove_stopwords = gr.Checkbox(False, label="remove_stopwords (rouge155, paper)")
                with gr.Row():
                    use_aggregator = gr.Checkbox(True, label="use_aggregator (corpus values)")
                    confidence_intervals = gr.Checkbox(False, elem_id="confidence-intervals",
                                                       label="confidence_intervals (bootstrap)")
                with gr.Row():
                    return_precision_recall = gr.Checkbox(True, label="return_precision_recall (off: F-measures only)")
                with gr.Accordion("Several references, sentences", open=False):
                    multi_ref = gr.Dropdown(MULTI_REF, value=FLAVOR_DEFAULT, label="multi_ref (several references)")
                    jackknife = gr.Dropdown(JACKKNIFE, value=FLAVOR_DEFAULT, label="jackknife")
                    split_sentences = gr.Dropdown(SPLITTERS, value="newline", label="split_sentences (rougeLsum)")
        form = [rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife, split_sentences,
                use_aggregator, confidence_intervals, return_precision_recall, lang]
        notes = gr.HTML(first[2], elem_id="warnings", label="warnings")
        table = gr.HTML(first[0], elem_id="scores", label="scores")
        signature = gr.Textbox(first[1], elem_id="signature", interactive=False, buttons=["copy"],
                               label="signature (report it with the numbers)")
        with gr.Accordion("The result as compute() returns it (JSON)", open=False):
            result = gr.JSON(first[3], label="result")
        outputs = [table, signature, notes, result]
        lines_button.click(handlers.score_lines, inputs=[predictions, references] + form, outputs=outputs,
                           api_name="score_lines")
        jsonl_button.click(handlers.score_jsonl, inputs=[jsonl] + form, outputs=outputs, api_name="score_jsonl")
        card = card_markdown()
        if card:
            with gr.Accordion("Metric card", open=False):
                gr.Markdown(card)
    return demo


if __name__ == "__main__":
    build_demo().launch()
