"""How people write answers: black and white pegs, or total and exact.

The rules (:mod:`optimal_mm.game`) know an answer as black and white pegs. People
write it in one of two orders:

``black-white`` (the default)
    Right in place, then right colour in the wrong place: ``2 1``, ``2B1W``, ``21``
    (:meth:`Game.parse_answer`).
``total-exact``
    Colours right in total (with multiplicity, in place or not), then colours right
    in place, as the Slovak Logik program (seed 002) asks: black ``b`` and white
    ``w`` are written ``b + w`` then ``b``. ``3 1`` means one black and two whites;
    the secret is found at ``P P``.

Black-only games have a single number either way (the pegs in place).

>>> from optimal_mm import Game
>>> g = Game.from_spec("p4c6")
>>> g.answer_str(parse_answer(g, "3 1", "total-exact"))
'1B2W'
>>> format_answer(g, g.parse_answer("1B2W"), "total-exact")
'3 1'
"""

from __future__ import annotations

import re

from .errors import InvalidAnswerError, InvalidOptionError
from .game import Game

#: The answer orders the player reads and writes.
ANSWER_ORDERS = ("black-white", "total-exact")


def check_order(order: str) -> str:
    """Return ``order`` if it is one of :data:`ANSWER_ORDERS`, else raise
    :class:`InvalidOptionError` quoting it."""
    if order not in ANSWER_ORDERS:
        raise InvalidOptionError(
            f"unknown answer order {order!r}: choose one of {', '.join(ANSWER_ORDERS)}")
    return order


def parse_answer(game: Game, text: str, order: str = "black-white") -> int:
    """The answer id of ``text`` written in ``order``.

    ``total-exact`` takes two numbers separated by space, comma or slash (or two
    digits run together, in games of at most 9 pegs).

    Raises
    ------
    InvalidAnswerError
        Quoting the text, for a malformed answer or one that can never occur.

    >>> g = Game.from_spec("p6c7")
    >>> g.decode_answer(parse_answer(g, "6,6", "total-exact"))
    (6, 0)
    >>> parse_answer(g, "1 2", "total-exact")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidAnswerError: answer '1 2' is impossible: 2 colours in place ...
    """
    check_order(order)
    if order == "black-white" or game.black_only:
        return game.parse_answer(text)
    raw = text.strip() if isinstance(text, str) else text
    if not isinstance(raw, str):
        raise InvalidAnswerError(f"answer must be text, got {text!r}")
    parts = [p for p in re.split(r"[\s,/;]+", raw) if p]
    if len(parts) == 1 and len(parts[0]) == 2 and parts[0].isdigit() and game.pegs <= 9:
        parts = list(parts[0])
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise InvalidAnswerError(
            f"malformed answer {raw!r}: give the colours right in total, then those in "
            f"place, e.g. '3 1'")
    total, exact = int(parts[0]), int(parts[1])
    if exact > total:
        raise InvalidAnswerError(
            f"answer {raw!r} is impossible: {exact} colours in place but only {total} "
            f"right in total")
    if total > game.pegs:
        raise InvalidAnswerError(
            f"answer {raw!r} is impossible: {total} colours right exceeds {game.pegs} pegs")
    answer = game.encode_answer(exact, total - exact)
    if not game.is_possible_answer(answer):
        raise InvalidAnswerError(f"answer {raw!r} can never occur in {game.spec}")
    return answer


def format_answer(game: Game, answer: int, order: str = "black-white") -> str:
    """``answer`` written in ``order``: ``"1B2W"`` or ``"3 1"``; the inverse of
    :func:`parse_answer`."""
    check_order(order)
    if order == "black-white" or game.black_only:
        return game.answer_str(answer)
    black, white = game.decode_answer(answer)
    return f"{black + white} {black}"


def answer_hint(game: Game, order: str = "black-white") -> str:
    """One sentence telling the player how to answer a guess."""
    check_order(order)
    if game.black_only:
        return "Answer each guess with the number of black pegs (e.g. '2' or '2B')."
    if order == "total-exact":
        return ("Answer each guess with two numbers: the colours right in total, then "
                "those also in the right place (e.g. '3 1').")
    return "Answer each guess with black and white pegs: '2 1', '2B1W' or '21'."
