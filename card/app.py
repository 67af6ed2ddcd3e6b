"""The Space's demo: score predictions against references with rouge_full_metric.

evaluate 0.4.6's ``launch_gradio_widget`` builds its form with ``gr.inputs``/``gr.outputs``, which
gradio removed in 4.0, so this app builds its own ``gr.Blocks``.  The metric is loaded from the
script next to this file (the Space's flat copy), never from the Hub, so the demo runs the code of
the Space it belongs to.  Nothing happens at import: ``python app.py`` (what Spaces run) launches.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2",
               "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
FLAVORS = ["rouge155", "rouge_score", "paper", "matlab", "xlsum"]
NO_LANG = "none (ASCII tokenizer)"
# XL-Sum's 45 languages (the metric also takes aliases and ISO 639-1 codes).
LANGS = [NO_LANG] + """amharic arabic azerbaijani bengali burmese chinese_simplified chinese_traditional english
    french gujarati hausa hindi igbo indonesian japanese kirundi korean kyrgyz marathi nepali oromo pashto persian
    pidgin portuguese punjabi russian scottish_gaelic serbian_cyrillic serbian_latin sinhala somali spanish
    swahili tamil telugu thai tigrinya turkish ukrainian urdu uzbek vietnamese welsh yoruba""".split()
FLAVOR_DEFAULT = "flavor default"
MULTI_REF = [FLAVOR_DEFAULT, "average", "best", "max", "max_rp"]
JACKKNIFE = [FLAVOR_DEFAULT, "yes", "no"]
SPLITTERS = ["newline", "punkt", "regex"]
REFERENCE_SEPARATOR = "|||"

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
    """The metric script: the Space's flat copy, or the package's in a checkout (card/app.py)."""
    script = os.path.join(HERE, "rouge_full_metric.py")
    if not os.path.isfile(script):
        script = os.path.join(os.path.dirname(HERE), "rouge_full_metric", "rouge_full_metric.py")
    return script


def load_metric():
    # The script's path, not its directory: evaluate takes a directory's basename as the script's
    # name, and a Space's directory is not called rouge_full_metric.
    import evaluate

    return evaluate.load(metric_script())


def parse_lines(predictions_text, references_text):
    """One example per line; several references of one example separated by ``|||``."""
    predictions = [line.strip() for line in predictions_text.splitlines() if line.strip()]
    reference_lines = [line for line in references_text.splitlines() if line.strip()]
    if len(predictions) != len(reference_lines):
        raise ValueError("%d predictions but %d reference lines: give one line of references per "
                         "prediction" % (len(predictions), len(reference_lines)))
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
    """(result dict, signature, notes): :func:`score` plus the warnings it raised (e.g. texts the
    ASCII tokenizer empties, with the lang to choose), so the page shows them."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, signature = score(metric, predictions, references, options)
    notes = "\n".join(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, UserWarning)))
    return result, signature, notes


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
    ``flavor=...``, not ``param_2`` ... ``param_10``."""

    def __init__(self, metric, error=ValueError):
        self.metric, self.error = metric, error

    def _run(self, parse, texts, form):
        try:
            predictions, references = parse(*texts)
            return score_with_notes(self.metric, predictions, references, options_from_form(*form))
        except (ValueError, TypeError, LookupError, ImportError) as error:
            # the metric's messages name the argument at fault (an ImportError names the extra to
            # install for a language): show them, not a stack trace
            raise self.error(str(error))

    def score_lines(self, predictions, references, rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref,
                    jackknife, split_sentences, use_aggregator, confidence_intervals, return_precision_recall,
                    lang):
        """Score one example per line (several references separated by ``|||``): (result,
        signature, warnings)."""
        return self._run(parse_lines, (predictions, references),
                         (rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                          split_sentences, use_aggregator, confidence_intervals, return_precision_recall, lang))

    def score_jsonl(self, jsonl, rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                    split_sentences, use_aggregator, confidence_intervals, return_precision_recall, lang):
        """Score JSON Lines of {"prediction": ..., "references": [...]}: (result, signature, warnings)."""
        return self._run(parse_jsonl, (jsonl,),
                         (rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife,
                          split_sentences, use_aggregator, confidence_intervals, return_precision_recall, lang))


def build_demo(metric=None):
    """The gr.Blocks app (not launched)."""
    import gradio as gr

    metric = metric if metric is not None else load_metric()
    handlers = Handlers(metric, gr.Error)

    with gr.Blocks(title="rouge_full_metric") as demo:
        gr.Markdown("# rouge_full_metric\nEvery ROUGE variant, bit-exact with ROUGE-1.5.5.pl by default "
                    "(`flavor=\"rouge155\"`); `flavor=\"rouge_score\"` gives the numbers of "
                    "`evaluate.load(\"rouge\")`.")
        with gr.Row():
            rouge_types = gr.Dropdown(ROUGE_TYPES, value=DEFAULT_TYPES, multiselect=True, label="rouge_types")
            flavor = gr.Dropdown(FLAVORS, value="rouge155", label="flavor")
            multi_ref = gr.Dropdown(MULTI_REF, value=FLAVOR_DEFAULT, label="multi_ref (several references)")
            jackknife = gr.Dropdown(JACKKNIFE, value=FLAVOR_DEFAULT, label="jackknife")
            split_sentences = gr.Dropdown(SPLITTERS, value="newline", label="split_sentences (rougeLsum)")
            lang = gr.Dropdown(LANGS, value=NO_LANG, label="lang (the texts' language)")
        with gr.Row():
            use_stemmer = gr.Checkbox(False, label="use_stemmer")
            remove_stopwords = gr.Checkbox(False, label="remove_stopwords (flavors rouge155, paper)")
            use_aggregator = gr.Checkbox(True, label="use_aggregator (corpus values)")
            confidence_intervals = gr.Checkbox(False, label="confidence_intervals")
            return_precision_recall = gr.Checkbox(True, label="return_precision_recall (off: F-measures only)")
        form = [rouge_types, flavor, use_stemmer, remove_stopwords, multi_ref, jackknife, split_sentences,
                use_aggregator, confidence_intervals, return_precision_recall, lang]
        with gr.Tab("One example per line"):
            predictions = gr.Textbox(EXAMPLE_PREDICTIONS, lines=5, label="predictions (one per line)")
            references = gr.Textbox(EXAMPLE_REFERENCES, lines=5,
                                    label="references (one line per prediction; several separated by |||)")
            lines_button = gr.Button("Compute", variant="primary")
        with gr.Tab("JSON Lines (multi-sentence texts)"):
            jsonl = gr.Textbox(EXAMPLE_JSONL, lines=8,
                               label='jsonl: {"prediction": "...", "references": ["...", ...]} per line; '
                                     'sentences separated by \\n')
            jsonl_button = gr.Button("Compute", variant="primary")
        result = gr.JSON(label="result")
        signature = gr.Textbox(label="signature (report it with the numbers)")
        notes = gr.Textbox(label="warnings (e.g. texts the tokenizer emptied: choose their lang)")
        lines_button.click(handlers.score_lines, inputs=[predictions, references] + form,
                           outputs=[result, signature, notes], api_name="score_lines")
        jsonl_button.click(handlers.score_jsonl, inputs=[jsonl] + form, outputs=[result, signature, notes],
                           api_name="score_jsonl")
        card = card_markdown()
        if card:
            with gr.Accordion("Metric card", open=False):
                gr.Markdown(card)
    return demo


if __name__ == "__main__":
    build_demo().launch()
