"""The shipped stop-word list and exception table are verbatim copies of the Perl's data."""
import os

from rouge_full_metric import rouge155_data
from rouge_full_metric.tokenization import STOPWORDS


def test_stopword_list_shape():
    lines = rouge155_data.SMART_COMMON_WORDS.split("\n")
    assert len([x for x in lines if x]) == 598
    # 596 distinct entries, of which the 53 with "'" or "." can never match a cleaned token:
    # 543 usable ones, as the spec counts
    dead = {w for w in STOPWORDS if "'" in w or "." in w}
    assert (len(STOPWORDS), len(dead)) == (596, 53)
    assert {"said", "reuters", "a", "z", "want", "new"} <= STOPWORDS


def test_exception_table_shape():
    lines = [x for x in rouge155_data.WORDNET_EXCEPTIONS.split("\n") if x]
    assert len(lines) == 5930
    assert all(line.count("\t") == 1 for line in lines)


def test_verbatim_against_shared(shared_dir):
    with open(os.path.join(shared_dir, "data", "smart_common_words.txt"), encoding="ascii") as f:
        assert rouge155_data.SMART_COMMON_WORDS == f.read()
    with open(os.path.join(shared_dir, "data", "wordnet-2.0-exceptions.tsv"), encoding="ascii") as f:
        assert rouge155_data.WORDNET_EXCEPTIONS == f.read()
