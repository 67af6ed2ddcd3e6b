"""Install lines for the optional extras that work from where the reader stands.

The package is not on PyPI: installing it by its name fails today.  Error messages
name the line for a checkout, for a built wheel, and the index name marked "once published".

>>> install_line("multilingual")
'pip install ".[multilingual]" in a checkout of the repository (or pip install "rouge_full_metric-<version>-<tags>.whl[multilingual]" for a built wheel; pip install "rouge_full_metric[multilingual]" once published on PyPI)'
"""


def install_line(extra: str) -> str:
    """How to install ``extra``, e.g. in an ImportError (see the module's example)."""
    return ('pip install ".[%s]" in a checkout of the repository (or pip install '
            '"rouge_full_metric-<version>-<tags>.whl[%s]" for a built wheel; pip install '
            '"rouge_full_metric[%s]" once published on PyPI)' % (extra, extra, extra))


__all__ = ["install_line"]
