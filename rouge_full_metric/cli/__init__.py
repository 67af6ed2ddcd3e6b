"""The ``rouge-full`` command and what only it needs; the metric never imports this package.

- :mod:`.main`: the command line (``rouge-full score``, ``compare``, and the Perl-compatible mode);
- :mod:`.perl_cli`: ROUGE-1.5.5.pl's command, options and report, byte for byte;
- :mod:`.perl_config`: where the XML config (and ``-z`` file lists) is read;
- :mod:`.summary_formats`: the SEE/SPL/ISI/SIMPLE summary readers;
- :mod:`.basic_elements`: ROUGE-BE (``-3``);
- :mod:`.compare`: paired bootstrap and approximate randomization for ``rouge-full compare``.
- :mod:`.correlate`: ``rouge-full correlate``, ROUGE variants against human judgments (:mod:`..meta_eval`).
"""
from .main import main

__all__ = ["main"]
