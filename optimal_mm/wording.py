"""Counts in words: ``1 secret``, ``2 secrets``, ``1 secret remains``.

The reports say how many secrets, guesses, nodes are left; a count of one reads
in the singular. One helper, so that every command says it the same way.

>>> plural(1, "secret"), plural(2, "guess"), plural(0, "class")
('1 secret', '2 guesses', '0 classes')
>>> remain(1, "secret"), remain(5, "secret"), f"1 of 1296 secrets {remains(1)}"
('1 secret remains', '5 secrets remain', '1 of 1296 secrets remains')
"""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1 (``-es`` after s, x, ch)."""
    if n == 1:
        return f"{n} {word}"
    ending = "es" if word.endswith(("s", "x", "ch", "sh")) else "s"
    return f"{n} {word}{ending}"


def remains(n: int) -> str:
    """The verb for ``n`` things left: ``remains`` for one, ``remain`` else."""
    return "remains" if n == 1 else "remain"


def remain(n: int, word: str) -> str:
    """``n word(s) remain(s)``, the verb agreeing with the count."""
    return f"{plural(n, word)} {remains(n)}"
