"""Errors raised by optimal_mm.

Every error a user can provoke with bad input is a small subclass of
:class:`ValueError` whose message quotes the offending input, so the command-line
interface can print it on one line and exit non-zero without a traceback.
"""


class OptimalMMError(ValueError):
    """Base class of every user-facing error of the package."""


class InvalidGameError(OptimalMMError):
    """A game spec or size that the package does not support."""


class InvalidCodeError(OptimalMMError):
    """A code of the wrong length, with a symbol outside the alphabet, or with a repeat."""


class InvalidAnswerError(OptimalMMError):
    """An answer that cannot be parsed or can never occur in the game."""


class InvalidTreeError(OptimalMMError):
    """A strategy tree that is malformed, for another game, or fails replay."""


class InfeasibleError(OptimalMMError):
    """A search that was asked for something impossible (a cap that cannot be met)."""


class FloorError(OptimalMMError):
    """A lower bound given to a search that its own tree beats: the bound is wrong."""


class TooLargeError(OptimalMMError):
    """A game or search too large for the requested operation."""


class InconsistentAnswersError(OptimalMMError):
    """Answers that no secret satisfies all together (some answer must be wrong)."""


class UnknownHeuristicError(OptimalMMError):
    """A heuristic name that :mod:`optimal_mm.heuristics` does not know."""


class InvalidOptionError(OptimalMMError):
    """An option value that cannot be parsed or does not fit the others (a size, a
    scheduler without the dask backend)."""


class MissingDependencyError(OptimalMMError):
    """An optional dependency that the requested feature needs is not installed; the
    message says what to install."""


class OutputError(OptimalMMError):
    """An output path that cannot take the output: a directory, a missing or
    unwritable folder, a device that is not a stream (see :mod:`optimal_mm.outputs`)."""


class WorkerLostError(OptimalMMError):
    """A worker process died or its pipe broke during a parallel run; the message says
    what happened and how to resume from the checkpoint."""


class TimeLimitReached(KeyboardInterrupt):
    """Not an error but an interruption: the time limit of a run has passed
    (:class:`optimal_mm.stopping.time_limit`). A kind of :class:`KeyboardInterrupt`, so
    that a run stops and cleans up exactly as on Ctrl-C (workers ended, finished
    tasks kept in the checkpoint); the command line exits with status 124."""

    def __init__(self, seconds: float):
        super().__init__(f"time limit of {seconds:g} s reached")
        self.seconds = seconds

    def __reduce__(self):  # pickled with its seconds, not its message
        return type(self), (self.seconds,)


#: The longest time limit taken, in seconds (about 11.6 days). The clocks that enforce a
#: limit refuse much more: the interval timer of :class:`optimal_mm.stopping.time_limit`
#: overflows from about 9.3e9 s, and a wait on a child's pipe, counted in milliseconds
#: in a C int, from about 2.1e6 s. A longer run keeps its work with ``--checkpoint`` and
#: resumes.
MAX_TIME_LIMIT = 1_000_000.0


def check_time_limit(seconds, name: str = "--time-limit") -> None:
    """Refuse a time limit that is not a number of seconds above 0 and at most
    :data:`MAX_TIME_LIMIT` (``nan`` and infinity included); ``None`` is no limit.

    >>> check_time_limit(None), check_time_limit(2.5)
    (None, None)
    >>> check_time_limit(float("inf"))
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --time-limit must be a positive number of seconds, at most 1,000,000 (about 11.6 days), got inf
    """  # noqa: E501 (a doctest's output line)
    if seconds is None:
        return
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise InvalidOptionError(f"{name} must be a number of seconds, got {quoted(seconds)}")
    if not 0 < seconds <= MAX_TIME_LIMIT:  # nan too
        raise InvalidOptionError(f"{name} must be a positive number of seconds, at most "
                                 f"{MAX_TIME_LIMIT:,.0f} (about 11.6 days), got {seconds:g}")


def quoted(value, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters: how messages quote user input.

    ``repr`` escapes control characters, so a quoted input cannot drive a terminal.

    >>> quoted("2B1W"), quoted("1" * 100, 12)
    ("'2B1W'", "'1111111111'... (100 characters)")
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:max(1, limit - 2)]!r}... ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 20 else text[:limit] + "..."
