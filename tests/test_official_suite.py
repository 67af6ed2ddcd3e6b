"""The official ROUGE-1.5.5 regression suite: reproduce the 9 ``ROUGE-test-*.out`` files exactly.

ROUGE-1.5.5 was distributed in 2005 with ``sample-test/`` (inputs) and ``sample-output/`` (the
Perl's outputs). ``ROUGE-test.xml`` is 25 topics x 8 systems x 4 models in SEE format. Each
``ROUGE-test-*.out`` file was made with
``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 [-l 10 | -b 75] -a [-m [-s]] ROUGE-test.xml``
(see ``rouge155-official/README.md``). For every system and metric it prints
``Average_R/P/F`` and its 95% confidence interval at 5 decimals. All 9 printed numbers per
(system, metric) must come out identical.

The data is not part of this repository. It is read from ``<repo>/../shared/rouge155-official``,
and the whole module is skipped when that directory is absent.

This is slow in pure Python: 9 option sets x 8 systems x 25 evals x 8 metrics, 1000 bootstrap
replicates each.
"""

import functools
import re
from pathlib import Path

import pytest

from rouge_full_metric.cli import perl_config, summary_formats

REPO = Path(__file__).resolve().parent.parent
OFFICIAL = REPO.parent / "shared" / "rouge155-official"
SAMPLE_TEST = OFFICIAL / "sample-test"
SAMPLE_OUTPUT = OFFICIAL / "sample-output"

if not OFFICIAL.is_dir():
    pytest.skip("official ROUGE-1.5.5 sample data not found at %s" % OFFICIAL, allow_module_level=True)

# The 9 expected outputs of ROUGE-test.xml, one per option set (docs/conformance.md's table).
OUT_FILES = [
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out",
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out",
]

# Perl tag -> the engine's rouge type. ROUGE-L is the summary-level (union LCS) score: rougeLsum.
TAG_TO_TYPE = {
    "ROUGE-1": "rouge1",
    "ROUGE-2": "rouge2",
    "ROUGE-3": "rouge3",
    "ROUGE-4": "rouge4",
    "ROUGE-L": "rougeLsum",
    "ROUGE-W-1.2": "rougeW-1.2",
    "ROUGE-S*": "rougeS*",
    "ROUGE-SU*": "rougeSU*",
}
ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum", "rougeW-1.2", "rougeS*", "rougeSU*"]
COMPONENTS = {"R": "recall", "P": "precision", "F": "fmeasure"}

# The option set is encoded in the file name, e.g. ...-w1.2-b75-a-m-s.out is
# -c 95 ... -r 1000 ... -b 75 -a -m -s.
_NAME = re.compile(
    r"ROUGE-test-c(?P<c>\d+)-2-1-U-r(?P<r>\d+)-n4-w1\.2"
    r"(?:-l(?P<l>\d+))?(?:-b(?P<b>\d+))?-a(?P<m>-m)?(?P<s>-s)?\.out\Z"
)

# One printed line: "<sys> <TAG> Average_R: 0.19191 (95%-conf.int. 0.15097 - 0.23346)".
_LINE = re.compile(
    r"(?P<sys>\S+) (?P<tag>ROUGE-\S+) Average_(?P<x>[RPF]): (?P<avg>\d+\.\d{5}) "
    r"\((?P<conf>\S+)%-conf\.int\. (?P<lo>\d+\.\d{5}) - (?P<hi>\d+\.\d{5})\)\Z"
)


def options_for(name):
    """The Perl options behind an expected-output file name, as RougeScorer/score_corpus arguments."""
    m = _NAME.match(name)
    assert m, "unexpected output file name: %s" % name
    return {
        "use_stemmer": bool(m.group("m")),
        "remove_stopwords": bool(m.group("s")),
        "word_limit": int(m.group("l")) if m.group("l") else None,
        "byte_limit": int(m.group("b")) if m.group("b") else None,
        "confidence": int(m.group("c")),
        "n_bootstrap": int(m.group("r")),
    }


def parse_expected(path):
    """{(system, rouge_type): {"R": (avg, low, high), "P": ..., "F": ...}} with the printed strings."""
    expected = {}
    with open(path, encoding="ascii") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or set(line) == {"-"}:
                continue  # the 45-dash block separators
            m = _LINE.match(line)
            assert m, "unparsed line in %s: %r" % (path.name, line)
            key = (m.group("sys"), TAG_TO_TYPE[m.group("tag")])
            expected.setdefault(key, {})[m.group("x")] = (m.group("avg"), m.group("lo"), m.group("hi"))
    return expected


@functools.lru_cache(maxsize=None)
def config():
    return perl_config.read_xml_config(SAMPLE_TEST / "ROUGE-test.xml")


@functools.lru_cache(maxsize=None)
def sentences(relative_path, fmt):
    # Config paths are relative to sample-test/, where the Perl was run.
    return tuple(summary_formats.read_file(SAMPLE_TEST / relative_path, fmt))


def system_inputs(peer_id):
    """The engine's inputs for one peer: eval IDs, predictions, references.

    Only the evals that list the peer are used, as the Perl skips the others.
    """
    ids, predictions, references = [], [], []
    for ev in config().evals_for_peer(peer_id):
        ids.append(ev.id)
        predictions.append(list(sentences(ev.peers[peer_id], ev.input_format)))
        references.append([list(sentences(path, ev.input_format)) for _, path in ev.models])
    return ids, predictions, references


def fmt5(value):
    # The Perl prints every number with %7.5f.
    return "%7.5f" % value


# ------------------------------------------------------------------------------ cheap checks


def test_expected_files_present():
    assert sorted(p.name for p in SAMPLE_OUTPUT.glob("ROUGE-test-*.out")) == sorted(OUT_FILES)


def test_inputs_readable():
    cfg = config()
    assert len(cfg.evals) == 25
    assert cfg.sorted_peer_ids() == ["11", "12", "13", "14", "21", "22", "23", "24"]
    for ev in cfg.evals:
        assert ev.input_format == "SEE"
        assert sorted(ev.peers) == cfg.sorted_peer_ids()
        assert [m for m, _ in ev.models] == ["A", "B", "C", "D"]
        for path in list(ev.peers.values()) + [p for _, p in ev.models]:
            assert sentences(path, "SEE"), "no SEE sentence extracted from %s" % path


@pytest.mark.parametrize("name", OUT_FILES)
def test_expected_output_parses(name):
    expected = parse_expected(SAMPLE_OUTPUT / name)
    assert len(expected) == 8 * len(ROUGE_TYPES)
    assert all(sorted(v) == ["F", "P", "R"] for v in expected.values())
    assert {s for s, _ in expected} == set(config().sorted_peer_ids())


# ------------------------------------------------------------------------- the real comparison


@pytest.mark.parametrize("name", OUT_FILES)
def test_official_output(name):
    from rouge_full_metric import RougeScorer

    opts = options_for(name)
    expected = parse_expected(SAMPLE_OUTPUT / name)
    scorer = RougeScorer(
        rouge_types=ROUGE_TYPES,
        use_stemmer=opts["use_stemmer"],
        remove_stopwords=opts["remove_stopwords"],
        word_limit=opts["word_limit"],
        byte_limit=opts["byte_limit"],
        multi_ref="average",
    )
    mismatches = []
    for peer_id in sorted({s for s, _ in expected}):
        ids, predictions, references = system_inputs(peer_id)
        res = scorer.score_corpus(
            predictions,
            references,
            confidence=opts["confidence"],
            n_bootstrap=opts["n_bootstrap"],
            ids=ids,
            system_id=peer_id,
        )
        for rouge_type in ROUGE_TYPES:
            for x, attr in COMPONENTS.items():
                want = expected[(peer_id, rouge_type)][x]
                score = getattr(res.aggregate[rouge_type], attr)
                got = (fmt5(score.mid), fmt5(score.low), fmt5(score.high))
                if got != want:
                    mismatches.append(
                        "%s %s %s: expected avg %s CI %s-%s, got avg %s CI %s-%s"
                        % ((peer_id, rouge_type, x) + want + got)
                    )
    total = 8 * len(ROUGE_TYPES) * 3
    assert not mismatches, "%s: %d of %d (system, metric, R/P/F) triples differ:\n%s" % (
        name,
        len(mismatches),
        total,
        "\n".join(mismatches),
    )
