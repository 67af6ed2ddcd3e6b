"""Issue 19: a flavor is one rules object in one module, the engine tests no flavor name."""
import os
import re

import pytest

import rouge_full_metric
from rouge_full_metric import RougeScorer, flavors
from rouge_full_metric.flavor_base import Flavor

# the package under test: the source tree's, or the installed wheel's (.ci/test_installed.py)
PACKAGE = os.path.dirname(os.path.abspath(rouge_full_metric.__file__))


def test_the_registry_holds_one_object_per_flavor_module():
    assert flavors.NAMES == ("rouge155", "paper", "rouge_score", "matlab", "xlsum")
    for name in flavors.NAMES:
        rules = flavors.get(name)
        assert isinstance(rules, Flavor) and rules.name == name
        assert os.path.exists(os.path.join(PACKAGE, "flavor_%s.py" % name))
        assert RougeScorer(["rouge1"], flavor=name).rules is rules
    with pytest.raises(ValueError, match="flavor must be one of rouge155, paper, rouge_score, matlab, xlsum"):
        flavors.get("rouge")


def test_the_engine_tests_no_flavor_name():
    for module in ("scorer.py", "corpus.py", "batch.py", "bootstrap_compiled.py", "pairwise.py"):
        with open(os.path.join(PACKAGE, module), encoding="utf-8") as f:
            source = f.read()
        assert not re.search(r"flavor\s*(==|!=|not in|in)\s", source), module
        # docstrings and comments may name them; the core's tokenizers "xlsum" and "xlsum_basic" are
        # tokenizers, not flavors
        code = re.sub(r'"""[\s\S]*?"""|#[^\n]*|tokenizer="xlsum', "", source)
        for name in ("paper", "matlab", "xlsum", "rouge_score"):
            assert '"%s"' % name not in code, (module, name)


@pytest.mark.parametrize("flavor", ["rouge_score", "xlsum"])
def test_option_errors_name_the_flavor_given(flavor):
    # xlsum used to be refused as "flavor 'rouge_score' computes ..."
    with pytest.raises(ValueError, match=r"^flavor '%s' computes rouge<N>, rougeL and rougeLsum only; for rougeW" % flavor):
        RougeScorer(["rouge1", "rougeW"], flavor=flavor)
    tool = "rouge_score" if flavor == "rouge_score" else "XL-Sum's scorer"
    with pytest.raises(ValueError, match="ROUGE-1.5.5 options that %s does not have" % tool):
        RougeScorer(["rouge1"], flavor=flavor, word_limit=10)
    with pytest.raises(ValueError, match="only defined in flavor 'paper', got flavor '%s'" % flavor):
        RougeScorer(["rouge1"], flavor=flavor, multi_ref="max_rp")


@pytest.mark.parametrize("name", flavors.NAMES)
def test_defaults_come_from_the_flavor(name):
    scorer = RougeScorer(["rouge1"], flavor=name)
    rules = flavors.get(name)
    assert (scorer.multi_ref, scorer.jackknife) == (rules.multi_ref, rules.jackknife)
    assert scorer.signature().startswith("flavor:%s|" % name)
