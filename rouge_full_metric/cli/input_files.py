"""Reading the command's input files safely: regular files only, under a size cap.

A config may name ``/dev/zero`` (it never ends), a FIFO (it blocks) or a file of many gigabytes;
every file ``rouge-full`` reads (XML configs, file lists, summaries, ``score``/``compare``
inputs) goes through :func:`read_file`, which refuses those with a message instead of reading
until memory runs out.  The cap is :data:`DEFAULT_MAX_BYTES` (256 MiB a file: the largest public
summarization test sets are a few tens of MB); the environment variable
``ROUGE_FULL_MAX_FILE_BYTES`` changes it (``0`` or ``none``: no cap), in every mode, since the
ROUGE-1.5.5.pl command line has no option letter to spare.

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     p = os.path.join(d, "a.txt")
...     _ = open(p, "wb").write(b"one\\ntwo\\n")
...     read_file(p)
b'one\\ntwo\\n'
>>> read_file("/dev/null")
Traceback (most recent call last):
...
rouge_full_metric.cli.input_files.InputFileError: [Errno 22] not a regular file (a device, FIFO or socket): give a file
"""
from __future__ import annotations

import errno
import os
import stat

# annotations only: typing costs a new `rouge-full` process ~3 ms (argparse imports re anyway)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

ENV_MAX_BYTES = "ROUGE_FULL_MAX_FILE_BYTES"
DEFAULT_MAX_BYTES = 256 << 20


class InputFileError(OSError):
    """A file the command refuses to read; ``strerror`` says why and how to proceed."""


def max_bytes() -> Optional[int]:
    """The size cap in bytes (None: no cap), from ``ROUGE_FULL_MAX_FILE_BYTES`` or the default.

    >>> max_bytes() == DEFAULT_MAX_BYTES or ENV_MAX_BYTES in os.environ
    True
    """
    value = os.environ.get(ENV_MAX_BYTES, "").strip().lower()
    if not value:
        return DEFAULT_MAX_BYTES
    if value in ("0", "none", "unlimited"):
        return None
    try:
        limit = int(value)
    except ValueError:
        limit = -1
    if limit < 0:
        raise InputFileError(errno.EINVAL, "%s must be a whole number of bytes (0 or 'none': no limit), got %r"
                             % (ENV_MAX_BYTES, value))
    return limit


def check_open_file(fd: int, path: str) -> int:
    """The size of the open file ``fd``, after checking that it may be read (a directory raises
    IsADirectoryError, which callers handle as they always did)."""
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
    if not stat.S_ISREG(info.st_mode):
        raise InputFileError(errno.EINVAL, "not a regular file (a device, FIFO or socket): give a file")
    limit = max_bytes()
    if limit is not None and info.st_size > limit:
        raise InputFileError(errno.EFBIG, "%d bytes, more than the limit of %d bytes a file; split it, "
                             "or set %s=N (bytes; 0: no limit) to read it anyway"
                             % (info.st_size, limit, ENV_MAX_BYTES))
    return info.st_size


def read_file(path: str) -> bytes:
    """The bytes of the regular file ``path`` (see the module's docstring for what is refused).

    os.open/os.read: a third of the cost of open().read(), which builds a buffered file object; a
    config of 10,000 evaluations reads 20,000 small files.  A FIFO is opened non-blocking, so
    that it is refused rather than waited on.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        size = check_open_file(fd, path)
        data = os.read(fd, size + 1)
        if len(data) > size:  # the file grew since fstat: read to the end, under the cap
            parts, total, limit = [data], len(data), max_bytes()
            while data:
                data = os.read(fd, 1 << 16)
                parts.append(data)
                total += len(data)
                if limit is not None and total > limit:
                    raise InputFileError(errno.EFBIG, "grew past the limit of %d bytes a file while "
                                         "being read (set %s)" % (limit, ENV_MAX_BYTES))
            data = b"".join(parts)
        return data
    finally:
        os.close(fd)
