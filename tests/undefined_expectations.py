"""What the tests expect of flavor matlab's undefined-score warnings, shared by test_numpy_free.py
and test_mean_scores.py."""
import contextlib
import warnings

from rouge_full_metric.undefined import UndefinedScoreWarning


@contextlib.contextmanager
def said_alike(omitting):
    """The block computes the same averages two ways: when ``omitting`` (the table holds a NaN
    that the flavor leaves out) both warn of it in the same words, once each; otherwise neither
    does."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    said = [str(w.message) for w in caught if issubclass(w.category, UndefinedScoreWarning)]
    assert (len(said) == 2 and said[0] == said[1] and "left out" in said[0]) if omitting else not said, said
