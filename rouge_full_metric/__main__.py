"""``python -m rouge_full_metric``: the ``rouge-full`` command (see :mod:`rouge_full_metric.cli`)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
