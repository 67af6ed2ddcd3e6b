"""NLTK's Porter stemmer in the compiled core, for flavor ``rouge_score`` with ``use_stemmer=True``.

rouge_score stems every token longer than 3 characters with ``nltk.stem.porter.PorterStemmer()``
(mode ``NLTK_EXTENSIONS``), which runs in Python at about 10 µs per distinct token: a one-shot
``evaluate`` call with a fresh vocabulary spends most of its time there.  ``csrc/nltk_porter.c``
transcribes NLTK's ``porter.py`` (its irregular forms, its two-letter and ``ies``/``ied`` special
cases, every ``NLTK_EXTENSIONS`` branch) and the compiled engine stems with it -- only for the NLTK
releases it was checked against (:data:`VERIFIED`: hundreds of thousands of words each, see
``tests/check_nltk_porter_versions.py``); with any other release, or without the compiled core, or
with ``ROUGE_FULL_METRIC_PURE_PYTHON=1``, NLTK's own Python stems, as before.

>>> stem("generalizations"), stem("dying"), stem("flies")
('gener', 'die', 'fli')
"""
from __future__ import annotations

import os
import sys

from . import compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Optional, Tuple

# NLTK releases whose PorterStemmer().stem the C port reproduces: 3.6 to 3.10.4, every release
# on PyPI in the supported range (pyproject: nltk>=3.6), ~900,000 words each (real, exhaustive up
# to 4 letters, generated), 0 differences (tests/check_nltk_porter_versions.py --shared).  Before 3.10 NLTK looked the irregular forms up before
# lowercasing (a difference for words with capitals only, which rouge_score never passes) and
# classified a run of y's by recursion (RecursionError past ~1,000 of them: the compiled engine
# hands tokens with long y runs to NLTK itself, so that it fails as rouge_score does).
VERIFIED = ("3.6", "3.6.1", "3.6.2", "3.6.3", "3.6.5", "3.6.6", "3.6.7", "3.7", "3.8", "3.8.1",
            "3.9", "3.9.1", "3.9.2", "3.9.3", "3.9.4", "3.10.0", "3.10.1", "3.10.2", "3.10.3", "3.10.4")

_release_cache = []


def _metadata_version(entry: str) -> Optional[str]:
    """The ``Version:`` of a .dist-info or .egg-info directory's metadata, or None."""
    for name in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(entry, name), encoding="utf-8") as f:
                for line in f:
                    if line.startswith("Version:"):
                        return line[len("Version:"):].strip()
                    if not line.strip():
                        break   # the headers end at the first blank line
        except OSError:
            continue
    return None


def _release_on_path() -> Tuple[bool, Optional[str]]:
    """(True, version) of the first ``nltk-*.dist-info`` or ``nltk-*.egg-info`` directory on
    ``sys.path``, read as importlib.metadata reads it; (False, None) when there is none, or the path
    holds something this does not read (a zip, an egg-info file, two candidates in one directory,
    metadata without a version): importlib.metadata decides those."""
    for entry in sys.path:
        if not isinstance(entry, str):
            return False, None
        entry = entry or "."
        if not os.path.isdir(entry):
            if os.path.exists(entry):
                return False, None   # a zip importlib.metadata would look into
            continue
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        found = [name for name in names
                 if name.lower().startswith("nltk-") and name.lower().endswith((".dist-info", ".egg-info"))]
        if len(found) > 1:
            return False, None   # which one comes first is importlib.metadata's business
        if found:
            path = os.path.join(entry, found[0])
            version = _metadata_version(path) if os.path.isdir(path) else None
            return (True, version) if version else (False, None)
    return False, None


def nltk_release() -> Optional[str]:
    """The installed NLTK's version (from its metadata: NLTK itself is not imported), or None.

    >>> nltk_release() is None or nltk_release()[0].isdigit()
    True
    """
    if not _release_cache:
        # The metadata directory is read directly: importlib.metadata costs ~20 ms of imports
        # (email's parsers), which a short script that stems would pay on its first score; it
        # decides only where the path holds what this does not read.
        found, version = _release_on_path()
        if not found:
            from importlib import metadata

            try:
                version = metadata.version("nltk")
            except metadata.PackageNotFoundError:
                version = None
        _release_cache.append(version)
    return _release_cache[0]


def native_available() -> bool:
    """Whether the compiled core stems as the installed NLTK does (a verified release).

    >>> native_available() == (compiled.AVAILABLE and nltk_release() in VERIFIED)
    True
    """
    return (compiled.AVAILABLE and bool(getattr(compiled.core, "NLTK_PORTER", False))
            and nltk_release() in VERIFIED)


def _pool_lowercased(release: Optional[str]) -> bool:
    parts = tuple(int(p) if p.isdigit() else 0 for p in (release or "0").split(".")[:2])
    return parts >= (3, 10)


def stemmer() -> Callable[[str], str]:
    """``PorterStemmer().stem``: the compiled port when :func:`native_available`, else NLTK's.

    >>> stemmer()("Relational")
    'relat'
    """
    if native_available():
        core_stem = compiled.core.nltk_porter_stem
        if _pool_lowercased(nltk_release()):
            return core_stem
        return lambda word: core_stem(word, pool_lowercased=False)
    try:
        from nltk.stem import porter
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("NLTK's Porter stemmer needs nltk (pip install nltk)") from error
    return porter.PorterStemmer().stem


def stem(word: str) -> str:
    """``nltk.stem.porter.PorterStemmer().stem(word)`` (see :func:`stemmer`).

    >>> stem("caresses"), stem("news"), stem("yyyy")
    ('caress', 'news', 'yyyi')
    """
    if not _stem_cache:
        _stem_cache.append(stemmer())
    return _stem_cache[0](word)


_stem_cache = []
