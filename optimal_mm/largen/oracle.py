"""The black-peg answer model for games too big to enumerate.

A code of ``n`` pegs is a numpy array of ``n`` colour numbers (0-based); the
answer to a question is the number of pegs right in colour and place, counted
directly in ``O(n)``. Nothing here lists codes, so ``n`` may be in the
thousands.

>>> oracle = BlackPegOracle([0, 1, 1, 0])
>>> oracle.ask([0, 0, 1, 1]), oracle.ask([0, 1, 1, 0]), oracle.questions
(2, 4, 2)
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidCodeError


def as_code(colours, pegs: int | None = None, n_colours: int | None = None) -> np.ndarray:
    """A code as an int32 array, checking its length and colour range when given."""
    code = np.asarray(colours, dtype=np.int32)
    if code.ndim != 1 or (pegs is not None and len(code) != pegs):
        raise InvalidCodeError(f"code {colours!r} must have {pegs} pegs")
    if n_colours is not None and len(code) and (code.min() < 0 or code.max() >= n_colours):
        raise InvalidCodeError(f"code {colours!r} has a colour outside 0..{n_colours - 1}")
    return code


def black_pegs(question, secret) -> int:
    """Pegs of ``question`` equal to ``secret`` in the same place."""
    return int(np.count_nonzero(np.asarray(question) == np.asarray(secret)))


class BlackPegOracle:
    """A codemaker holding ``secret`` who answers black pegs and counts questions."""

    def __init__(self, secret):
        self.secret = as_code(secret)
        self.questions = 0

    def ask(self, question) -> int:
        """The black pegs of ``question``; counts one question."""
        question = np.asarray(question)
        if question.shape != self.secret.shape:
            raise InvalidCodeError(f"a question of {question.size} pegs for a secret of "
                                   f"{self.secret.size}")
        self.questions += 1
        return black_pegs(question, self.secret)
