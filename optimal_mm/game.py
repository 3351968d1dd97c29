"""The rules of Mastermind-family games: codes, answers and scoring.

A game is fixed by four things: the number of pegs ``P``, the number of colours
``C``, whether a code may repeat a colour, and how a guess is scored. The
codemaker hides a *secret*; the codebreaker plays *guesses*; each guess gets an
*answer*:

* **black-white** scoring (Mastermind, Bulls and Cows): ``black`` pegs are right
  in colour and place; ``white`` pegs count the remaining colour matches, colours
  counted with multiplicity. Guess ``1123`` against secret ``4221`` scores one
  black (the ``2`` in third place) and one white (a ``1``).
* **black** scoring: only the black count is told.

Codes are strings over the game's alphabet (``"1123"``); internally every code is
also an *index* into :attr:`Game.codes`, the array of all legal codes in
lexicographic order, and every answer is a small integer
(``black * (P + 1) + white``, or ``black`` for black-only games) so that whole
partitions can be computed with vectorised kernels.

Games of any size
-----------------
Pegs and colours go up to 1024 each. The rules of such a game (parsing,
formatting and scoring codes given as colour tuples, answers) never list its
codes: only :attr:`Game.codes`, the answer table and what grows with them need
the game to be *enumerable* (:attr:`Game.is_enumerable`: at most
:data:`MAX_ENUMERATED_CODES` codes, colour numbers and answer ids that fit the
kernels' uint8 arrays), and they raise :class:`TooLargeError` otherwise. Games of
more than 36 colours have no one-character alphabet: their codes are written as
colour numbers ``1..C`` separated by commas (``"3,1,256"``).

Spec strings name games compactly: ``p4c6`` is 4 pegs and 6 colours with repeats,
a trailing ``n`` forbids repeats (``p4c10n`` is Bulls and Cows) and a trailing
``b`` selects black-only scoring (``p3c5b``, ``p4c8nb``). A few presets have
names: ``mastermind``, ``bulls-and-cows``, ``logik``.

Memory: the full answer table of a game with ``N`` codes is ``N * N`` bytes
(mastermind 1.7 MB, p4c7 5.8 MB, Bulls and Cows 25 MB, p4c8 17 MB, p5c8 1.1 GB).
:meth:`Game.answer_table` builds it when it fits under a limit
(:data:`TABLE_BYTES_LIMIT`, 512 MB by default); beyond that, answers are computed
on the fly from the codes, except in exact search, which builds the table whatever
its size once its memory plan fits (:func:`optimal_mm.search.check_feasible`).

>>> g = Game.from_spec("mastermind")
>>> g.answer_str(g.score("1123", "4221"))
'1B1W'
>>> g.n_codes
1296
>>> Game.from_spec("p4c10n").alphabet
'0123456789'
>>> big = Game.from_spec("p3c300b")
>>> big.format_code(big.parse_code("3, 1,300")), big.is_enumerable
('3,1,300', False)
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .errors import InvalidAnswerError, InvalidCodeError, InvalidGameError, TooLargeError, quoted
from .wording import plural

if TYPE_CHECKING:  # a command that draws no code need not import random
    import random

MIN_PEGS, MAX_PEGS = 1, 1024
MIN_COLOURS, MAX_COLOURS = 2, 1024
#: Games with more codes than this are never enumerated.
MAX_ENUMERATED_CODES = 20_000_000
#: The kernels store colour numbers and answer ids in uint8: at most this many values.
UINT8_VALUES = 256
#: Games of at most this many codes keep every code's string (:meth:`Game.code_str`).
CODE_STRINGS_LIMIT = 50_000
#: The full answer table is built only below this many bytes.
TABLE_BYTES_LIMIT = 512 * 1024 * 1024

SCORINGS = ("black-white", "black")
_SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Games with more colours than this write codes as comma-separated colour numbers.
MAX_ALPHABET_COLOURS = len(_SYMBOLS)

PRESETS = {
    "mastermind": ("p4c6", "123456"),
    "bulls-and-cows": ("p4c10n", "0123456789"),
    "logik": ("p5c8", None),
}
_ALIASES = {
    "mm": "mastermind",
    "bulls_and_cows": "bulls-and-cows",
    "bullsandcows": "bulls-and-cows",
    "bulls": "bulls-and-cows",
    "cows-and-bulls": "bulls-and-cows",
    "ab": "bulls-and-cows",
}
# ASCII digits only (``\d`` would take "p٤c٦"), and few of them: int() of thousands
# of digits is slow, then refused with a message about Python's own limit.
_SPEC_RE = re.compile(r"p([0-9]{1,4})c([0-9]{1,4})(n?)(b?)")
_ANSWER_KEYED = re.compile(r"(?:([0-9]+)\s*B)?\s*[,/-]?\s*(?:([0-9]+)\s*W)?",
                           re.ASCII | re.IGNORECASE)
_ANSWER_PAIR = re.compile(r"([0-9]+)\s*[\s,/-]\s*([0-9]+)", re.ASCII)
_ANSWER_ONE = re.compile(r"([0-9]+)B?", re.ASCII | re.IGNORECASE)


def default_alphabet(colours: int) -> str | None:
    """The conventional alphabet: ``1..k`` for k <= 9, else ``0..9A..Z``.

    None above :data:`MAX_ALPHABET_COLOURS` colours, whose codes are written as
    comma-separated colour numbers instead.

    >>> default_alphabet(6), default_alphabet(10), default_alphabet(37)
    ('123456', '0123456789', None)
    """
    if colours <= 9:
        return "123456789"[:colours]
    if colours > MAX_ALPHABET_COLOURS:
        return None
    return _SYMBOLS[:colours]


def _count_str(n: int) -> str:
    """A count for a message: exact with separators, or its power of ten when huge."""
    if n < 10**24:
        return f"{n:,}"
    return f"about 10^{len(str(n)) - 1}"


def count_codes(pegs: int, colours: int, repeats: bool) -> int:
    """Number of legal codes: ``C**P`` with repeats, ``C!/(C-P)!`` without."""
    if repeats:
        return colours**pegs
    if pegs > colours:
        return 0
    return math.perm(colours, pegs)


@dataclass(frozen=True)
class Game:
    """An immutable Mastermind-family game.

    Parameters
    ----------
    pegs, colours : int
        Code length (1..1024) and number of colours (2..1024).
    repeats : bool
        Whether codes (secrets and guesses alike) may repeat a colour.
    scoring : {"black-white", "black"}
        Whether answers tell black and white pegs or black pegs only.
    alphabet : str, optional
        One distinct character per colour; defaults to :func:`default_alphabet`.
        Games of more than 36 colours have none (None): their codes are
        comma-separated colour numbers.

    Raises
    ------
    InvalidGameError
        For sizes out of range, an unknown scoring or a bad alphabet.
    """

    pegs: int
    colours: int
    repeats: bool = True
    scoring: str = "black-white"
    alphabet: str = field(default=None)  # type: ignore[assignment]

    def __post_init__(self):
        if (not isinstance(self.pegs, int) or isinstance(self.pegs, bool)
                or not MIN_PEGS <= self.pegs <= MAX_PEGS):
            raise InvalidGameError(f"pegs must be {MIN_PEGS}..{MAX_PEGS}, got {self.pegs!r}")
        if (not isinstance(self.colours, int) or isinstance(self.colours, bool)
                or not MIN_COLOURS <= self.colours <= MAX_COLOURS):
            raise InvalidGameError(
                f"colours must be {MIN_COLOURS}..{MAX_COLOURS}, got {self.colours!r}"
            )
        if self.scoring not in SCORINGS:
            raise InvalidGameError(f"scoring must be one of {SCORINGS}, got {self.scoring!r}")
        if not self.repeats and self.pegs > self.colours:
            raise InvalidGameError(
                f"a game without repeats needs at least as many colours as pegs "
                f"(got {self.pegs} pegs, {self.colours} colours)"
            )
        if self.colours > MAX_ALPHABET_COLOURS:
            if self.alphabet:
                raise InvalidGameError(
                    f"a game of more than {MAX_ALPHABET_COLOURS} colours writes codes as "
                    f"colour numbers and takes no alphabet, got {self.alphabet!r}")
            object.__setattr__(self, "alphabet", None)
            return
        alphabet = self.alphabet or default_alphabet(self.colours)
        if (not isinstance(alphabet, str) or len(alphabet) != self.colours
                or len(set(alphabet)) != self.colours):
            raise InvalidGameError(
                f"alphabet must have {self.colours} distinct characters, got {alphabet!r}"
            )
        if any(ch.isspace() for ch in alphabet):
            raise InvalidGameError(f"alphabet may not contain white space: {alphabet!r}")
        object.__setattr__(self, "alphabet", alphabet)

    def __reduce__(self):
        # Pickle the rules only, not the cached codes and answer table; unpickled
        # through :func:`_unpickled`, which gives back one instance per process.
        return (_unpickled, (self.pegs, self.colours, self.repeats, self.scoring,
                             self.alphabet))

    # ------------------------------------------------------------------ naming
    @classmethod
    def from_spec(cls, spec: str, alphabet: str | None = None) -> "Game":
        """Find a game by preset name or spec string.

        >>> Game.from_spec("p3c5b")
        Game(pegs=3, colours=5, repeats=True, scoring='black', alphabet='12345')
        >>> Game.from_spec("p0c3")
        Traceback (most recent call last):
        ...
        optimal_mm.errors.InvalidGameError: pegs must be 1..1024, got 0
        """
        if not isinstance(spec, str):
            raise InvalidGameError(f"game spec must be a string, got {spec!r}")
        key = spec.strip().lower()
        key = _ALIASES.get(key, key)
        if key in PRESETS:
            base, preset_alphabet = PRESETS[key]
            return cls.from_spec(base, alphabet or preset_alphabet)
        m = _SPEC_RE.fullmatch(key)
        if not m:
            names = ", ".join(PRESETS)
            raise InvalidGameError(
                f"unknown game {quoted(spec)}: use a preset ({names}) or a spec like "
                f"p4c6, p4c10n (no repeats), p3c5b (black-only)"
            )
        pegs, colours = int(m.group(1)), int(m.group(2))
        return cls(pegs, colours, repeats=not m.group(3),
                   scoring="black" if m.group(4) else "black-white", alphabet=alphabet)

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``p4c10n`` or ``p3c5b``."""
        return (f"p{self.pegs}c{self.colours}" + ("" if self.repeats else "n")
                + ("b" if self.scoring == "black" else ""))

    @property
    def name(self) -> str:
        """The preset name when the game is a preset with its usual alphabet, else the spec."""
        for name, (base, alpha) in PRESETS.items():
            if base == self.spec and self.alphabet == (alpha or default_alphabet(self.colours)):
                return name
        return self.spec

    def to_dict(self) -> dict:
        """The ``game`` object of the strategy-tree format."""
        return {"pegs": self.pegs, "colours": self.colours, "repeats": self.repeats,
                "scoring": self.scoring, "alphabet": self.alphabet}

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """Inverse of :meth:`to_dict`; raises :class:`InvalidGameError` on bad fields."""
        if not isinstance(data, dict):
            raise InvalidGameError(f"game must be an object, got {data!r}")
        try:
            pegs, colours = data["pegs"], data["colours"]
            repeats, scoring = data["repeats"], data["scoring"]
        except KeyError as exc:
            raise InvalidGameError(f"game is missing the field {exc.args[0]!r}") from None
        if not isinstance(repeats, bool):
            raise InvalidGameError(f"game.repeats must be true or false, got {repeats!r}")
        return cls(pegs, colours, repeats, scoring, data.get("alphabet"))

    # ------------------------------------------------------------------- codes
    @property
    def n_codes(self) -> int:
        """Number of legal codes (possible secrets, and possible guesses)."""
        return count_codes(self.pegs, self.colours, self.repeats)

    @property
    def is_enumerable(self) -> bool:
        """Whether the codes can be listed: :attr:`codes`, the answer table and the
        kernels over them need at most :data:`MAX_ENUMERATED_CODES` codes, and colour
        numbers and answer ids that fit in uint8.

        >>> Game.from_spec("p8c8").is_enumerable, Game.from_spec("p9c9").is_enumerable
        (True, False)
        >>> Game.from_spec("p16c2").is_enumerable  # 65,536 codes, but answer ids to 272
        False
        """
        return self._not_enumerable_reason("enumerate") is None

    def check_enumerable(self, purpose: str = "enumerate") -> None:
        """Refuse, before any array is built, a game whose codes cannot be listed.

        Everything that holds one entry per code (the secrets still possible, the
        candidate guesses) needs the game to be :attr:`is_enumerable`; ``p10c36``
        would need petabytes.

        >>> Game.from_spec("p10c36").check_enumerable("analyse")
        Traceback (most recent call last):
        ...
        optimal_mm.errors.TooLargeError: p10c36 has 3,656,158,440,062,976 codes, too many to analyse (at most 20,000,000)
        """  # noqa: E501 (a doctest's output line)
        reason = self._not_enumerable_reason(purpose)
        if reason is not None:
            raise TooLargeError(reason)

    def _not_enumerable_reason(self, purpose: str) -> str | None:
        n = self.n_codes
        if n > MAX_ENUMERATED_CODES:
            return (f"{self.spec} has {_count_str(n)} codes, too many to {purpose} "
                    f"(at most {MAX_ENUMERATED_CODES:,})")
        if self.colours > UINT8_VALUES:
            return (f"{self.spec} has {self.colours} colours, too many to {purpose} "
                    f"(the code arrays hold at most {UINT8_VALUES})")
        if self.n_answer_slots > UINT8_VALUES:
            return (f"{self.spec} has answer ids up to {self.n_answer_slots - 1}, too many to "
                    f"{purpose} (the answer arrays hold 0..{UINT8_VALUES - 1})")
        return None

    @cached_property
    def codes(self) -> np.ndarray:
        """All legal codes as an ``(N, P)`` uint8 array of colour numbers, lexicographic.

        Row ``i`` is the code with index ``i``. Raises :class:`TooLargeError` unless
        the game :attr:`is_enumerable`.
        """
        self.check_enumerable()
        n = self.n_codes
        if self.repeats:
            idx = np.arange(n, dtype=np.int64)
            out = np.empty((n, self.pegs), dtype=np.uint8)
            for pos in range(self.pegs - 1, -1, -1):
                out[:, pos] = idx % self.colours
                idx //= self.colours
            return out
        rows = itertools.permutations(range(self.colours), self.pegs)
        return np.fromiter(itertools.chain.from_iterable(rows), dtype=np.uint8,
                           count=n * self.pegs).reshape(n, self.pegs)

    @cached_property
    def _index_of(self) -> dict | None:
        if self.repeats:
            return None
        return {bytes(row): i for i, row in enumerate(self.codes)}

    def index_of_colours(self, colours) -> int:
        """Index of the code given as a sequence of colour numbers (assumed legal)."""
        if self.repeats:
            idx = 0
            for c in colours:
                idx = idx * self.colours + int(c)
            return idx
        return self._index_of[bytes(bytearray(int(c) for c in colours))]

    def parse_code(self, text: str) -> tuple[int, ...]:
        """Colour numbers (0-based) of a code string, checking length, symbols and repeats.

        A code is a string over the alphabet (``"1123"``), or, in a game of more than
        36 colours, the colour numbers ``1..C`` separated by commas (``"3,1,256"``,
        spaces after the commas allowed). The inverse is :meth:`format_code`; neither
        lists the game's codes.

        >>> Game.from_spec("mastermind").parse_code("1123")
        (0, 0, 1, 2)
        >>> Game.from_spec("p3c100").parse_code("3, 1,100")
        (2, 0, 99)
        >>> Game.from_spec("bulls-and-cows").parse_code("1123")
        Traceback (most recent call last):
        ...
        optimal_mm.errors.InvalidCodeError: code '1123' repeats a colour, which p4c10n forbids
        """
        if not isinstance(text, str):
            raise InvalidCodeError(f"code must be a string, got {text!r}")
        if self.alphabet is None:
            colours = self._parse_numbers(text)
        else:
            colours = self._parse_symbols(text)
        if not self.repeats and len(set(colours)) != len(colours):
            raise InvalidCodeError(f"code {text!r} repeats a colour, which {self.spec} forbids")
        return tuple(colours)

    def _parse_symbols(self, text: str) -> list[int]:
        code = text.strip()
        if len(code) != self.pegs:
            raise InvalidCodeError(
                f"code {quoted(text)} has {plural(len(code), 'symbol')}; {self.spec} codes have "
                f"{self.pegs}")
        colours = []
        for ch in code:
            c = self.alphabet.find(ch)
            if c < 0:
                c = self.alphabet.find(ch.upper()) if ch.upper() != ch else -1
            if c < 0:
                raise InvalidCodeError(
                    f"code {text!r} has symbol {ch!r} outside the alphabet {self.alphabet!r}"
                )
            colours.append(c)
        return colours

    def _parse_numbers(self, text: str) -> list[int]:
        fields = [f.strip() for f in text.strip().split(",")]
        if len(fields) != self.pegs:
            raise InvalidCodeError(
                f"code {text!r} has {len(fields)} colour numbers; {self.spec} codes have "
                f"{self.pegs}, separated by commas")
        colours = []
        for f in fields:
            if not f.isdigit() or not 1 <= int(f) <= self.colours:
                raise InvalidCodeError(
                    f"code {text!r} has {f!r}, not a colour number 1..{self.colours}")
            colours.append(int(f) - 1)
        return colours

    def format_code(self, colours) -> str:
        """The string of a code given as colour numbers (0-based): inverse of :meth:`parse_code`.

        >>> Game.from_spec("mastermind").format_code((0, 0, 1, 2))
        '1123'
        >>> Game.from_spec("p3c100").format_code((2, 0, 99))
        '3,1,100'
        """
        if self.alphabet is None:
            return ",".join(str(int(c) + 1) for c in colours)
        return "".join(self.alphabet[c] for c in colours)

    def code_index(self, code: "str | int") -> int:
        """Index of a code given as a string (validated) or already as an index."""
        if isinstance(code, (int, np.integer)):
            i = int(code)
            if not 0 <= i < self.n_codes:
                raise InvalidCodeError(f"code index {i} out of range 0..{self.n_codes - 1}")
            return i
        return self.index_of_colours(self.parse_code(code))

    def code_str(self, index: int) -> str:
        """The string of the code with the given index."""
        strings = self._code_strings
        if strings is not None:
            return strings[int(index)]
        return self.format_code(self.code_colours(index))

    @cached_property
    def _code_strings(self) -> list[str] | None:
        """Every code's string, made at once (a tree names each of its nodes' guesses:
        one lookup instead of decoding the index), for games of at most
        :data:`CODE_STRINGS_LIMIT` codes over an ASCII alphabet."""
        if (self.n_codes > CODE_STRINGS_LIMIT or self.alphabet is None
                or not self.alphabet.isascii()):
            return None
        letters = np.frombuffer(self.alphabet.encode("ascii"), dtype=np.uint8)
        text = letters[self.codes].tobytes().decode("ascii")
        p = self.pegs
        return [text[i:i + p] for i in range(0, len(text), p)]

    def code_colours(self, index: int) -> tuple[int, ...]:
        """Colour numbers of the code with the given index."""
        if self.repeats:
            out = []
            i = int(index)
            for _ in range(self.pegs):
                out.append(i % self.colours)
                i //= self.colours
            return tuple(reversed(out))
        return tuple(int(c) for c in self.codes[int(index)])

    # ----------------------------------------------------------------- answers
    @property
    def black_only(self) -> bool:
        return self.scoring == "black"

    @property
    def n_answer_slots(self) -> int:
        """Size of the integer range that answer ids occupy."""
        return self.pegs + 1 if self.black_only else (self.pegs + 1) ** 2

    @property
    def win(self) -> int:
        """Answer id of the all-black answer, which ends the game."""
        return self.encode_answer(self.pegs, 0)

    def encode_answer(self, black: int, white: int = 0) -> int:
        """Answer id of (black, white); white is ignored for black-only games. Numpy
        arrays of counts give an array of ids, element by element: the one place the
        ids' layout is written (:meth:`decode_answers` reads it back)."""
        return black if self.black_only else black * (self.pegs + 1) + white

    def decode_answer(self, answer: int) -> tuple[int, int]:
        """(black, white) of an answer id (white is 0 for black-only games)."""
        if self.black_only:
            return int(answer), 0
        return divmod(int(answer), self.pegs + 1)

    def decode_answers(self, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`decode_answer` of an array of ids: arrays of blacks and whites.

        >>> g = Game.from_spec("mastermind")
        >>> black, white = g.decode_answers(np.array([g.parse_answer("1B2W"), g.win]))
        >>> black.tolist(), white.tolist()
        ([1, 4], [2, 0])
        """
        answers = np.asarray(answers)
        if self.black_only:
            return answers, np.zeros_like(answers)
        return np.divmod(answers, self.pegs + 1)

    @property
    def _answers_exact(self) -> bool:
        # Small games read their possible answers off the answer table.
        return self.n_codes <= 4096 and self.is_enumerable

    @cached_property
    def possible_answers(self) -> tuple[int, ...]:
        """Answer ids that some guess/secret pair produces, in increasing order.

        Exact (read off the answer table) for enumerable games of at most 4096
        codes; for bigger games from counting arguments (see
        :meth:`_counting_allows`: a superset by proof, and the exact set in every
        game small enough to compare, which a test checks). Its length grows as
        ``P**2``: for big games ask :meth:`is_possible_answer` instead.

        The search's lower bounds count the answers a guess can give, so a superset
        costs only speed, but it can cost much: p7c7nb's counted 8 answers for its 7
        made two parts of it search 2.7 times (103 secrets) and 80 times (248) the
        states of the same parts of p7c7n, the same game under the other scoring.
        """
        if self._answers_exact:
            # One compiled pass over the table (np.unique copies and sorts it: 30x dearer).
            everything = np.arange(self.n_codes, dtype=np.int64)
            found = partition_counts(self, everything, everything).any(axis=0)
            return tuple(int(a) for a in np.flatnonzero(found))
        p = self.pegs
        if self.black_only:  # at most P + 1 answers: no pass over the whites
            return tuple(b for b in range(p + 1) if self._counting_allows(b, 0))
        return tuple(self.encode_answer(b, w) for b in range(p + 1) for w in range(p + 1 - b)
                     if self._counting_allows(b, w))

    def _counting_allows(self, black: int, white: int) -> bool:
        """Whether counting arguments allow ``black`` blacks and ``white`` whites:

        * ``b + w <= P``;
        * never ``P - 1`` blacks with 1 white (the misplaced peg's colour would be
          the one the last place needs);
        * without repeats, ``b + w >= 2P - C`` (two codes of P distinct colours out
          of C share at least that many);
        * with two colours, an even number of whites (where the guess has colour 1
          and the secret colour 2 at ``x`` places, and the other way round at ``y``,
          the whites are ``2 min(x, y)``);
        * black-only scoring: no whites, and with no repeats and as many colours as
          pegs (the codes are permutations) never ``P - 1`` blacks (two
          permutations that agree at all places but one agree at that one too).

        >>> [Game.from_spec("p7c7nb")._counting_allows(b, 0) for b in (5, 6, 7)]
        [True, False, True]
        """
        p = self.pegs
        if black < 0 or white < 0 or black + white > p:
            return False
        if self.black_only:
            permutations = not self.repeats and self.colours == p
            return white == 0 and not (permutations and black == p - 1)
        if black == p - 1 and white == 1:
            return False
        if self.colours == 2 and white % 2:
            return False
        return self.repeats or black + white >= 2 * p - self.colours

    def is_possible_answer(self, answer: int) -> bool:
        """Whether some guess/secret pair gives ``answer`` (for big games, a superset:
        see :meth:`possible_answers`); never lists the codes of a big game."""
        if self._answers_exact:
            return answer in self.possible_answers
        if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)):
            return False
        if answer < 0 or answer >= self.n_answer_slots:
            return False
        return self._counting_allows(*self.decode_answer(answer))

    def answer_str(self, answer: int) -> str:
        """The format's answer key: ``"1B2W"``, or ``"2B"`` for black-only games."""
        b, w = self.decode_answer(answer)
        return f"{b}B" if self.black_only else f"{b}B{w}W"

    def parse_answer(self, text: str) -> int:
        """Answer id from user text.

        Accepted forms: the format's keys (``"1B2W"``, ``"2B"``, ``"3W"``, letters in
        either case, spaces or one of ``, / -`` between the parts), two numbers
        (``"2 1"``, ``"2,1"``, ``"2-1"``), two digits (``"21"``), or one number for
        black-only games. Digits are ASCII only (``"١B٢W"`` is refused, as in specs
        and codes), and a count has at most as many digits as the number of pegs.
        Answers that can never occur (3 black 1 white on 4 pegs) are refused; every
        message quotes the answer as typed.

        >>> g = Game.from_spec("mastermind")
        >>> [g.answer_str(g.parse_answer(t)) for t in ("2 1", "2B1W", "21", "0b")]
        ['2B1W', '2B1W', '2B1W', '0B0W']
        """
        if not isinstance(text, str):
            raise InvalidAnswerError(f"answer must be text, got {text!r}")
        raw = text.strip()
        keyed = _ANSWER_KEYED.fullmatch(raw)
        pair = _ANSWER_PAIR.fullmatch(raw)
        single = _ANSWER_ONE.fullmatch(raw)
        if keyed and (keyed.group(1) or keyed.group(2)):
            numbers = [keyed.group(1) or "0", keyed.group(2) or "0"]
        elif pair:
            numbers = [pair.group(1), pair.group(2)]
        elif (single and len(single.group(1)) == 2 and not self.black_only
              and self.pegs <= 9):
            numbers = list(single.group(1))  # "21": 2 black, 1 white (unambiguous below 10 pegs)
        elif single and self.black_only:
            numbers = [single.group(1), "0"]
        else:
            raise InvalidAnswerError(self._answer_help(raw))
        # A count is at most the number of pegs: more digits than that has is no answer
        # (and int() would refuse 4301 digits with a message about its own limit).
        if any(len(n) > len(str(self.pegs)) for n in numbers):
            raise InvalidAnswerError(self._answer_help(raw))
        black, white = int(numbers[0]), int(numbers[1])
        if self.black_only and white:
            raise InvalidAnswerError(
                f"answer {raw!r} gives white pegs, but {self.spec} scores black pegs only"
            )
        if black + white > self.pegs:
            raise InvalidAnswerError(
                f"answer {raw!r} is impossible: {black} black + {white} white exceeds "
                f"{self.pegs} pegs"
            )
        answer = self.encode_answer(black, white)
        if not self.is_possible_answer(answer):
            raise InvalidAnswerError(f"answer {raw!r} can never occur in {self.spec}")
        return answer

    def _answer_help(self, raw: str) -> str:
        if self.black_only:
            return f"malformed answer {quoted(raw)}: give the number of black pegs, e.g. 2 or 2B"
        return f"malformed answer {quoted(raw)}: give black and white, e.g. '2 1', '2B1W' or '21'"

    # ----------------------------------------------------------------- scoring
    def score(self, guess: "str | int", secret: "str | int") -> int:
        """Answer id for a guess against a secret (codes as strings or indices)."""
        return self.score_colours(self._colours_of(guess), self._colours_of(secret))

    def score_colours(self, guess, secret) -> int:
        """Answer id for a guess against a secret, both given as colour numbers.

        Works for games of any size (nothing is enumerated); costs ``O(P)``.

        >>> g = Game.from_spec("mastermind")
        >>> g.answer_str(g.score_colours((0, 0, 1, 2), (3, 1, 1, 0)))
        '1B1W'
        >>> Game.from_spec("p1024c2b").score_colours((0,) * 1024, (0, 1) * 512)
        512
        """
        if len(guess) != self.pegs or len(secret) != self.pegs:
            raise InvalidCodeError(
                f"codes of {self.spec} have {self.pegs} colours, got {len(guess)} and "
                f"{len(secret)}")
        black = sum(a == b for a, b in zip(guess, secret))
        if self.black_only:
            return black
        secret_counts = Counter(secret)
        common = sum(min(n, secret_counts[c]) for c, n in Counter(guess).items())
        return self.encode_answer(black, common - black)

    def _colours_of(self, code) -> tuple[int, ...]:
        if isinstance(code, (int, np.integer)):
            return self.code_colours(self.code_index(code))
        return self.parse_code(code)

    def answers(self, guess: int, secrets: "np.ndarray | None" = None) -> np.ndarray:
        """Answer ids of one guess (an index) against many secrets (indices; all by default)."""
        from . import kernels

        codes = self.codes
        sec = codes if secrets is None else codes[np.asarray(secrets, dtype=np.int64)]
        return kernels.score_rows(codes[int(guess)], sec, self.colours, self.black_only)

    def table_bytes(self) -> int:
        """Bytes the full answer table would need (``N * N``)."""
        return self.n_codes * self.n_codes

    def answer_table(self, limit_bytes: int = TABLE_BYTES_LIMIT) -> np.ndarray:
        """The ``(N, N)`` uint8 table of answer ids, ``table[guess, secret]``.

        Cached on the game once built. Raises :class:`TooLargeError` above
        ``limit_bytes``.
        """
        cached = self.__dict__.get("_answer_table")
        if cached is not None:
            return cached
        self.check_enumerable()
        if self.table_bytes() > limit_bytes:
            raise TooLargeError(
                f"the answer table of {self.spec} needs {self.table_bytes() / 2**20:,.0f} MiB, "
                f"over the limit of {limit_bytes / 2**20:,.0f} MiB"
            )
        from . import kernels

        table = kernels.score_table(self.codes, self.colours, self.black_only)
        self.__dict__["_answer_table"] = table
        return table

    def has_table(self, limit_bytes: int = TABLE_BYTES_LIMIT) -> bool:
        """Whether the full answer table is built, or fits under ``limit_bytes``."""
        if "_answer_table" in self.__dict__:
            return True
        return self.is_enumerable and self.table_bytes() <= limit_bytes

    def __str__(self) -> str:
        return self.name


#: The game :func:`_unpickled` last gave back, with whatever it has cached since.
_LAST_UNPICKLED: list = []


def _unpickled(pegs, colours, repeats, scoring, alphabet) -> Game:
    """The game a pickle holds, the same instance each time the same rules arrive.

    A worker process receives its game with every task, and a game's caches (its
    codes, answer table and symmetry groups, built in Python) live on the instance:
    a fresh instance per task built them again for each. p6c7nb's race spent about a
    sixth of a worker's time so (``py-spy``; its ``Game.codes`` alone 5.5 %). Only
    the last game is kept, as a worker works on one game at a time.

    >>> import pickle
    >>> g = Game.from_spec("p3c4")
    >>> pickle.loads(pickle.dumps(g)) is pickle.loads(pickle.dumps(g))
    True
    """
    game = Game(pegs, colours, repeats, scoring, alphabet)
    if _LAST_UNPICKLED and _LAST_UNPICKLED[0] == game:
        return _LAST_UNPICKLED[0]
    _LAST_UNPICKLED[:] = [game]
    return game


def random_code(game: Game, rng: random.Random) -> tuple[int, ...]:
    """A code drawn colour by colour with ``rng`` (so games of any size can draw one).

    >>> import random
    >>> random_code(Game.from_spec("p3c1000n"), random.Random(1))
    (137, 582, 867)
    """
    if game.repeats:
        return tuple(rng.randrange(game.colours) for _ in range(game.pegs))
    return tuple(rng.sample(range(game.colours), game.pegs))


def as_game(game) -> Game:
    """``game`` itself, or the game a spec or preset name names (for the public API).

    >>> as_game("p3c3").spec, as_game(Game(2, 3)).spec
    ('p3c3', 'p2c3')
    >>> as_game(None)
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidGameError: expected a Game or a game spec such as 'p4c6', got None
    """
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return Game.from_spec(game)
    raise InvalidGameError(f"expected a Game or a game spec such as 'p4c6', got {game!r}")


def partition_counts(game: Game, guesses, secrets) -> np.ndarray:
    """``(G, A)`` int32 part sizes of ``secrets`` under each of ``guesses`` (indices).

    Uses the answer table when it fits, else scores on the fly.
    """
    from . import kernels

    guesses = np.ascontiguousarray(guesses, dtype=np.int64)
    secrets = np.ascontiguousarray(secrets, dtype=np.int64)
    if game.has_table():
        return kernels.partition_counts(game.answer_table(), guesses, secrets,
                                        game.n_answer_slots)
    return kernels.partition_counts_codes(game.codes, guesses, secrets, game.colours,
                                          game.black_only, game.n_answer_slots)
