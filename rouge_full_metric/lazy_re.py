"""Regular expressions compiled on first use.

A process that scores on the compiled core never runs the Python tokenizers, and ``re`` (with
``enum`` and ``functools``, which it imports) is a third of what importing the package would
otherwise cost it (tests/test_startup.py checks that it stays out).
"""


class Pattern:
    """A pattern that imports ``re`` and compiles itself the first time one of its methods is read;
    from then on its methods are the compiled pattern's, kept as this object's own attributes.

    >>> words = Pattern(r"[a-z]+")
    >>> words.findall("a cat, 2 dogs")
    ['a', 'cat', 'dogs']
    >>> words.pattern
    '[a-z]+'
    """

    def __init__(self, pattern: str):
        self.pattern = pattern

    def __getattr__(self, name: str):
        # Only reached while the methods are not yet attributes (and for names a pattern lacks);
        # probes such as inspect's __wrapped__ or copy's __deepcopy__ do not compile it.
        if name.startswith("__"):
            raise AttributeError(name)
        import re

        compiled = re.compile(self.pattern)
        for method in ("match", "fullmatch", "search", "findall", "finditer", "split", "sub", "subn"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self):
        return "Pattern(%r)" % (self.pattern,)
