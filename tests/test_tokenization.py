"""The Perl's text pipeline: bytes, whitespace, limits on raw sentences, stop words then stems."""
import pytest

from rouge_full_metric.tokenization import (limit_joined, limit_sentences, make_token_filter, perl_words,
                                            raw_sentences, read_summary, tokenize)

plain = make_token_filter(False, False)


def tokens(text, **limits):
    return read_summary(raw_sentences(text), plain, **limits).tokens


@pytest.mark.parametrize("text, expected", [
    ("U.S. e-mail don't $5 3.5 1,000 A+B foo_bar", "u s e mail don t 5 3 5 1 000 a b foo bar"),
    ("state-of-the-art -- ... !!!", "state of the art"),
    ("café naïve 中文", "caf na ve"),          # every non-ASCII byte is a separator
    ("KELVIN \u212a", "kelvin"),               # Python's lower() would map U+212A to "k"
    ("1990s", "1990s"),
])
def test_cleaning(text, expected):
    assert tokens(text) == expected.split()


def test_sentences_from_str_bytes_and_lists_agree():
    text = "One two.\n\n  \nThree\r\nfour"
    as_list = ["One two.", "  ", "Three\r", "four"]
    assert raw_sentences(text) == raw_sentences(text.encode()) == raw_sentences(as_list)
    # blank lines are dropped, whitespace-only lines and CR stay (the Perl's SPL reader)
    assert raw_sentences(text) == ["one two.", "  ", "three\r", "four"]


def test_type_errors_name_the_argument():
    with pytest.raises(TypeError, match="prediction"):
        raw_sentences(5, "prediction")
    with pytest.raises(TypeError, match="sentence 1"):
        raw_sentences(["ok", 3], "references[0]")


def test_perl_whitespace_only():
    # \x1c and \xa0 are not Perl whitespace on byte strings: they separate tokens (as any
    # non-alphanumeric byte) but do not split -l words
    assert perl_words("a\x1cb c") == ["a\x1cb", "c"]
    assert perl_words("\ta b\x0b") == ["", "a", "b"]


def test_word_limit_counts_raw_words_and_leading_space():
    assert limit_joined([" a b c"], 2, None) == " a"           # X42: the leading empty field is a word
    assert limit_joined(["a -- b c d"], 3, None) == "a -- b"    # X40: "--" is a word
    assert limit_joined(["a b", "c d e"], 2, None) == "a b"     # exactly at the limit: stop
    assert limit_sentences(["a b", "c d e"], 3, None) == ["a b", "c"]


def test_byte_limit_and_the_sentence_reader_bug():
    assert limit_joined(["abc", "defgh"], None, 6) == "abc def"     # joining spaces not counted
    # the sentence reader never advances its byte count (Q3): short sentences all survive
    assert limit_sentences(["abc", "defgh", "ij"], None, 6) == ["abc", "defgh", "ij"]
    assert limit_sentences(["abc", "defghij", "k"], None, 6) == ["abc", "defghi"]


def test_limits_apply_before_cleaning():
    s = read_summary(raw_sentences("A b, c.\nd e f"), plain, word_limit=4)
    assert s.tokens == ["a", "b", "c", "d"] and s.sentences == [["a", "b", "c"], ["d"]]


def test_stopwords_before_stemming():
    f = make_token_filter(use_stemmer=True, remove_stopwords=True)
    assert f(tokenize("want wanted wanting u.s. ran running")) == ["want", "want", "ran", "run"]


def test_empty_text():
    assert read_summary(raw_sentences(""), plain) == ([], [])
    assert read_summary(raw_sentences(" a"), plain, word_limit=1) == ([], [[]])
