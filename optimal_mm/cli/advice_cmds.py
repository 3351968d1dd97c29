"""Sub-command ``hint``: the exact best next guess from any position, and grades.

``optimal-mm hint mastermind --history "1123=1B1W 3456=0B2W"`` prints how many
secrets remain, the best next guess and its value, proven by the exact search on
that position (at once where the shipped optimal tree reaches it); ``--grade``
also prints, for each guess of the history, the guesses it lost against the best
one (:mod:`optimal_mm.advice`); ``--rank`` values every guess instead, one per class
of guesses equivalent there, best first. An answer ``?`` is unknown; answers no
secret fits together are named (the smallest conflicting set) and the exit status
is 2.
"""

from __future__ import annotations

import json

from ..advice import (DEFAULT_TIME_LIMIT, FALLBACK_HEURISTICS, OBJECTIVES, Advice, Advisor,
                      Ranking)
from ..errors import InvalidOptionError, check_time_limit
from . import at_least
from ..game import Game
from ..history import check_history, parse_history, turn_text
from ..wording import remains


def register(sub) -> None:
    """Add ``hint`` to the parser."""
    p = sub.add_parser(
        "hint", help="the exact best next guess from any position",
        description="From the position after any guesses (yours, not only the tree's), "
                    "print the secrets left, the optimal next guess and its exact value, "
                    "proven by the search on that position (instantly where the shipped "
                    "optimal tree reaches it). When the time limit runs out first, a "
                    "heuristic's guess is given and marked unproven.",
        epilog="Exit status: 0 with an answer (proven or not), 2 for bad input or answers "
               "that contradict each other.")
    p.add_argument("game", metavar="GAME", help="preset or spec (mastermind, bulls-and-cows, p4c7)")
    p.add_argument("--history", default="", metavar="TURNS",
                   help="the guesses so far with their answers, e.g. '1123=1B1W 3456=0B2W'; "
                        "'?' for an unknown answer (default: none, the first guess)")
    p.add_argument("--objective", choices=OBJECTIVES, default="expected",
                   help="expected: least total (average) number of guesses; worst-case: "
                        "fewest guesses that always suffice (default expected)")
    p.add_argument("--guesses", choices=("any", "consistent"), default="any",
                   help="consistent: every guess must be a code still possible (hard mode)")
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="S",
                   help=f"seconds the search may take per position (default "
                        f"{DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--grade", action="store_true",
                   help="also grade every guess of the history: expected guesses (per "
                        "secret) and worst-case guesses lost against the best guess there")
    p.add_argument("--rank", action="store_true",
                   help="value every guess instead of naming the best: one per class of "
                        "guesses equivalent at the position (renamings of colours and "
                        "positions that keep the history), with the codes it holds, each "
                        "valued exactly, best first; the time limit is for the whole "
                        "ranking, the classes it leaves are listed as not valued")
    p.add_argument("--jobs", type=at_least(-1, 1024), metavar="N",
                   help="with --rank: processes that value the classes at once "
                        "(default, and -1 or 0 as for solve: one per core)")
    p.add_argument("--json", action="store_true",
                   help='print JSON: {"remaining", "guess", "objective", "value", "proven"} '
                        '(after a winning answer {"remaining": 1, "won": true, "secret", '
                        '"turns"}); with --grade, {"grades": [...], "hint": {...}}; with '
                        '--rank, {"remaining", "objective", "complete", "ranking": '
                        '[{"guess", "codes", "value"}, ...]}')
    p.set_defaults(func=cmd_hint)


def describe_advice(advice: Advice, time_limit: float | None) -> str:
    """The advice in words, saying what proves the value (or that nothing does)."""
    if advice.objective == "expected":
        value = (f"{advice.value} guesses in total over the {advice.remaining} secrets, "
                 f"{advice.average:.4f} on average, this one included")
    else:
        value = f"at most {advice.value} guesses, this one included"
    if advice.source == "heuristic":
        name = FALLBACK_HEURISTICS[advice.objective]
        return (f"best guess found: {advice.guess} (NOT proven: the time limit of "
                f"{time_limit:g} s ran out, so this is the {name} heuristic's guess; its own "
                f"play takes {value})")
    proof = "the shipped optimal tree" if advice.source == "tree" else "exact search"
    return f"best guess: {advice.guess}, {value} (proven by {proof})"


def describe_ranking(ranking: Ranking, time_limit: float | None) -> str:
    """The ranking as a table, one class of guesses a line, best first."""
    expected = ranking.objective == "expected"
    count = len(ranking.guesses)
    lines = [f"{count} class{'es' if count != 1 else ''} of equivalent guesses, each "
             + ("valued by the least total number of guesses over the "
                f"{ranking.remaining} secrets, this one included"
                if expected else "valued by the fewest guesses that always suffice, this "
                                 "one included")
             + ", then the best play:"]
    rows = [("guess", "codes", "total" if expected else "guesses")
            + (("average", "lost") if expected else ("lost",))]
    for r in ranking.guesses:
        lost = ranking.lost(r)
        if r.value is None:
            figures = ("not valued",) + (("", "") if expected else ("",))
        elif expected:
            figures = (str(r.value), f"{r.value / ranking.remaining:.4f}",
                       "best" if lost == 0 else f"+{lost:.4f}")
        else:
            figures = (str(r.value), "best" if lost == 0 else f"+{lost}")
        rows.append((r.guess, str(r.codes)) + figures)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines += ["  " + "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
              for row in rows]
    left = sum(r.value is None for r in ranking.guesses)
    if left == count:
        lines.append(f"none of the {count} classes valued: the time limit of "
                     f"{time_limit:g} s ran out (raise --time-limit)")
    elif left:
        lines.append(f"{left} of {count} classes not valued: the time limit of "
                     f"{time_limit:g} s ran out (raise --time-limit); the best above is "
                     f"the best of those valued, not proven best")
    return "\n".join(lines)


def cmd_hint(args) -> int:
    game = Game.from_spec(args.game)
    turns = parse_history(game, args.history)
    check_time_limit(args.time_limit)
    if args.rank and args.grade:
        raise InvalidOptionError("--rank and --grade: give one of them")
    if args.jobs is not None and not args.rank:
        raise InvalidOptionError("--jobs is for --rank: a hint is one search")
    advisor = Advisor(game, args.guesses, args.time_limit)
    grades = advisor.grade(turns) if args.grade else []
    if turns and turns[-1].answer == game.win:  # nothing left to advise
        return _won(game, turns, grades, args.json)
    if args.rank:
        return _rank(game, turns, advisor, args)
    advice = advisor.advise(turns, args.objective)
    if args.json:
        doc = advice.to_dict()
        if args.grade:
            doc = {"grades": [g.to_dict() for g in grades], "hint": doc}
        print(json.dumps(doc))
        return 0
    print(_position_line(game, turns, advice.remaining))
    for grade in grades:
        print(grade)
    print(describe_advice(advice, args.time_limit))
    return 0


def _position_line(game: Game, turns, remaining: int) -> str:
    if not turns:
        return f"{game.name}: {game.n_codes} secrets"
    return (f"{remaining} of {game.n_codes} secrets {remains(remaining)} after "
            + " ".join(turn_text(game, t) for t in turns))


def _rank(game: Game, turns, advisor: Advisor, args) -> int:
    jobs = None if args.jobs in (-1, 0) else args.jobs  # all cores, as solve reads them
    ranking = advisor.rank(turns, args.objective, jobs=jobs)
    if args.json:
        print(json.dumps(ranking.to_dict()))
        return 0
    print(_position_line(game, turns, ranking.remaining))
    print(describe_ranking(ranking, args.time_limit))
    return 0


def _won(game: Game, turns, grades, as_json: bool) -> int:
    """A history whose last answer is the win: the game is over, no guess to advise
    (the turns checked as any history is: the answers must fit together)."""
    check_history(game, turns)
    secret, count = turns[-1].guess, len(turns)
    if as_json:
        doc = {"remaining": 1, "won": True, "secret": secret, "turns": count}
        print(json.dumps({"grades": [g.to_dict() for g in grades], "hint": doc}
                         if grades else doc))
        return 0
    print(f"1 of {game.n_codes} secrets remains after "
          + " ".join(turn_text(game, t) for t in turns))
    for grade in grades:
        print(grade)
    print(f"the game is won: {secret} is the secret, found by guess #{count}; no guess "
          f"to advise")
    return 0
