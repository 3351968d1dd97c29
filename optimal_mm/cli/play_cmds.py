"""``play`` and ``challenge``: games between the computer and a person.

``optimal-mm play [GAME]``
    The person thinks of a secret and the computer guesses it. Without GAME it
    first asks for the number of positions and colours, as the Logik program of
    seed 002 does. Guesses come from a strategy tree (``--tree FILE``, else the
    tree shipped for the game in ``optimal_mm/data`` when there is one) or from a
    heuristic (``--heuristic``, else :data:`~optimal_mm.player.DEFAULT_HEURISTIC`;
    games too big to list their codes, and ``--heuristic cp-sat``, get the
    consistent-guess player of :mod:`optimal_mm.consistent`). Each move keeps to
    ``--move-time`` and says so when the clock cut it short. Each answer is one
    line: ``2 1``, ``2B1W`` or ``21`` (one number for black-only games), or with
    ``--answers total-exact`` the colours right in total then those in place
    (:mod:`optimal_mm.notation`). Impossible or
    malformed answers are refused and asked again; answers that contradict each
    other are reported and the last one may be entered again (``undo`` takes back
    an earlier one). With ``--secret CODE`` the computer plays against that
    secret by itself and prints every guess with its answer (for scripts).

``optimal-mm challenge GAME``
    The computer draws a secret (``--seed`` makes the draw repeatable) and answers
    the person's guesses until one is right; ``quit`` reveals the secret.

Both read plain lines with ``sys.stdin.readline`` and write prompts to stdout, so
they work in a terminal and through a pipe (input read from a pipe is echoed,
so the transcript reads like a session). Exit status: 0 when the game is won or
the person types ``quit``; 1 when the input ends first (a one-line message on
stderr, no traceback); 2 for bad arguments (unknown game, bad code, unreadable
tree or a tree for another game).
"""

from __future__ import annotations

import random
import sys

from .. import notation
from ..errors import (InconsistentAnswersError, InvalidAnswerError, InvalidCodeError,
                      InvalidGameError)
from ..game import Game
from ..player import (CONSISTENT_PLAYER, DEFAULT_HEURISTIC, Codebreaker, Codemaker,
                      check_strategy_game, describe_answer, heuristic_codebreaker,
                      load_shipped_strategy)
from ..tree import Strategy

QUIT_WORDS = ("quit", "q", "exit")


def register(sub) -> None:
    """Add ``play`` and ``challenge`` to the parser."""
    p = sub.add_parser(
        "play", help="the computer guesses your secret",
        description="You think of a secret code; the computer guesses it. Answer each guess "
                    "with black and white pegs ('2 1', '2B1W' or '21'; one number for "
                    "black-only games). Type 'undo' to take back your last answer, 'quit' "
                    "to stop.",
        epilog="Exit status: 0 when the secret is found or on 'quit', 1 when the input "
               "ends first, 2 for bad arguments.")
    p.add_argument("game", nargs="?",
                   help="game name or spec (mastermind, bulls-and-cows, p4c6, p3c5b, p12c12, "
                        "...); without it, the number of positions and colours are asked for")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--tree", metavar="FILE",
                        help="strategy tree to follow (.json or .json.gz) for this game")
    source.add_argument("--heuristic", metavar="H",
                        help=f"heuristic to guess with, or {CONSISTENT_PLAYER} for consistent "
                             f"guesses found by a constraint solver (default: the shipped tree "
                             f"if any, else {DEFAULT_HEURISTIC}; {CONSISTENT_PLAYER} for games "
                             f"too big to list their codes)")
    p.add_argument("--secret", metavar="CODE",
                   help="play against this secret without reading input; print each guess "
                        "with its answer, then the total")
    p.add_argument("--move-time", type=float, default=60.0, metavar="S",
                   help="time limit per guess for heuristics, in seconds (default 60); the "
                        "best guess scored so far is played when it runs out")
    p.add_argument("--answers", choices=notation.ANSWER_ORDERS, default="black-white",
                   help="how answers are written: black-white ('2 1': in place, then right "
                        "colour elsewhere; the default) or total-exact ('3 1': colours right "
                        "in total, then those in place)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="seed for randomised heuristics (default 0)")
    p.set_defaults(func=cmd_play)

    c = sub.add_parser(
        "challenge", help="you guess the computer's secret",
        description="The computer hides a secret code; type guesses until you find it. "
                    "Each guess is answered with black pegs (right colour, right place) and "
                    "white pegs (right colour, wrong place). 'quit' reveals the secret.",
        epilog="Exit status: 0 when solved or on 'quit', 1 when the input ends first, "
               "2 for bad arguments.")
    c.add_argument("game", help="game name or spec (mastermind, bulls-and-cows, p4c6, ...)")
    c.add_argument("--seed", type=int, default=None, metavar="N",
                   help="seed for the secret, to replay a game (default: a fresh secret)")
    c.set_defaults(func=cmd_challenge)


# ----------------------------------------------------------------- helpers
def _read(prompt: str) -> str | None:
    """Prompt, then read one line; None at end of input."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        print(flush=True)
        return None
    isatty = getattr(sys.stdin, "isatty", None)
    if not (isatty and isatty()):
        print(line.rstrip("\r\n"), flush=True)
    return line.strip()


def _game_line(game: Game) -> str:
    rule = "colours may repeat" if game.repeats else "all colours different"
    return (f"{game.name}: {game.pegs} pegs, {game.colours} colours ({_symbols(game)}), "
            f"{rule}, {'black' if game.black_only else 'black and white'} answers")


def _symbols(game: Game) -> str:
    if game.alphabet is None:
        return f"numbers 1..{game.colours}, separated by commas"
    return game.alphabet


def _ask_game() -> Game | None:
    """Ask for the number of positions and colours until they make a game; None at EOF."""
    while True:
        line = _read("Number of positions (or positions and colours)> ")
        if line is None:
            return None
        numbers = line.replace(",", " ").split()
        if len(numbers) == 1:
            more = _read("Number of colours> ")
            if more is None:
                return None
            numbers += more.replace(",", " ").split()
        if len(numbers) != 2 or not all(n.isdigit() for n in numbers):
            print(f"  Give two whole numbers (positions, colours), not {line!r}.")
            continue
        try:
            return Game(int(numbers[0]), int(numbers[1]))
        except InvalidGameError as exc:
            print(f"  {exc}; try again.")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('ss') else 's'}"


def _tree_summary(strategy: Strategy) -> str:
    stats = strategy.validate()
    proof = ", proved optimal" if strategy.optimal else ""
    return (f"{strategy.objective}{proof}: average {stats.average:.4f}, "
            f"at most {stats.max} guesses")


def _codebreaker(args, game: Game) -> tuple[Codebreaker, str]:
    """The codebreaker the arguments ask for, and a line saying what it follows."""
    if args.tree:
        strategy = Strategy.load(args.tree)
        check_strategy_game(strategy, game, where=f"tree {args.tree!r}")
        return Codebreaker(game, strategy), f"tree {args.tree} ({_tree_summary(strategy)})"
    if not args.heuristic and game.is_enumerable:
        strategy = load_shipped_strategy(game)
        if strategy is not None:
            check_strategy_game(strategy, game, where=f"the shipped tree for {game.name}")
            return (Codebreaker(game, strategy),
                    f"the shipped tree for {game.name} ({_tree_summary(strategy)})")
    breaker = heuristic_codebreaker(game, args.heuristic, seed=args.seed,
                                    move_time=args.move_time)
    if isinstance(breaker, Codebreaker):
        name = args.heuristic or DEFAULT_HEURISTIC
        why = "" if args.heuristic else f"; no tree is shipped for {game.name}"
        return breaker, f"the {name} heuristic{why}, at most {args.move_time:g} s a move"
    why = "" if args.heuristic else f"; {game.spec} is too big to list its codes"
    return breaker, (f"consistent guesses found by CP-SAT (OR-Tools){why}, at most "
                     f"{args.move_time:g} s a move")


# -------------------------------------------------------------------- play
def cmd_play(args) -> int:
    if args.game is None:
        game = _ask_game()
        if game is None:
            print("optimal-mm play: end of input before the game was chosen", file=sys.stderr)
            return 1
    else:
        game = Game.from_spec(args.game)
    secret = None
    if args.secret is not None:
        secret = game.format_code(game.parse_code(args.secret))
    breaker, source = _codebreaker(args, game)
    if secret is not None:
        return _play_secret(breaker, secret, source, args.answers)
    return _play_interactive(breaker, source, args.answers)


def _cut_note(breaker) -> str:
    """A note when the clock cut the last move short."""
    move = getattr(breaker, "last_move", None)
    return f"  ({move.describe()})" if move is not None and move.cut_short else ""


def _play_secret(breaker, secret: str, source: str, order: str) -> int:
    game = breaker.game
    print(f"Strategy: {source}")
    while not breaker.solved:
        guess = breaker.next_guess()
        note = _cut_note(breaker)
        answer = game.score(guess, secret)
        breaker.tell(answer)
        print(f"Guess {breaker.guesses}: {guess}  "
              f"{notation.format_answer(game, answer, order)}{note}", flush=True)
    print(f"Found {secret} in {_plural(breaker.guesses, 'guess')}.")
    return 0


def _play_interactive(breaker, source: str, order: str) -> int:
    game = breaker.game
    print(f"Playing {_game_line(game)}.")
    print("Think of a secret code; I will guess it. " + notation.answer_hint(game, order))
    print("Type 'undo' to take back your last answer, 'quit' to stop.")
    print(f"Strategy: {source}")
    while not breaker.solved:
        guess = breaker.next_guess()
        note = "  (the only code left: it must be your secret)" if breaker.remaining == 1 else ""
        print(f"Guess {breaker.guesses + 1}: {guess}{note}{_cut_note(breaker)}")
        while True:
            line = _read("Your answer> ")
            if line is None:
                print(f"optimal-mm play: end of input before the secret was found "
                      f"({_plural(breaker.guesses, 'guess')} answered)", file=sys.stderr)
                return 1
            word = line.lower()
            if word in QUIT_WORDS:
                left = ("" if breaker.remaining is None
                        else f"; {_plural(breaker.remaining, 'code')} still possible")
                print(f"Stopped after {_plural(breaker.guesses, 'guess')}{left}.")
                return 0
            if word == "undo":
                if not breaker.history:
                    print("  Nothing to take back yet.")
                    continue
                turn = breaker.undo()
                print(f"  Took back {notation.format_answer(game, turn.answer, order)} "
                      f"to {turn.guess}.")
                break
            if not line:
                continue
            try:
                breaker.tell(notation.parse_answer(game, line, order))
            except InvalidAnswerError as exc:
                print(f"  {exc}; try again.")
                continue
            except InconsistentAnswersError as exc:
                print(f"  Your answers contradict each other: {exc}.")
                print(f"  Enter your answer to {guess} again, or 'undo' to change an "
                      f"earlier one.")
                continue
            if not breaker.solved and breaker.remaining is not None:
                print(f"  {_plural(breaker.remaining, 'code')} still possible.")
            break
    print(f"Solved: your secret is {breaker.secret}, found in "
          f"{_plural(breaker.guesses, 'guess')}.")
    return 0


# --------------------------------------------------------------- challenge
def cmd_challenge(args) -> int:
    game = Game.from_spec(args.game)
    maker = Codemaker(game, random.Random(args.seed))
    rule = "colours may repeat" if game.repeats else "all different"
    print(f"Playing {_game_line(game)}.")
    print(f"I have chosen a secret of {game.pegs} symbols from {_symbols(game)} ({rule}). "
          f"Type your guesses; 'quit' reveals the secret.")
    while True:
        line = _read(f"Guess {maker.guesses + 1}> ")
        if line is None:
            print(f"optimal-mm challenge: end of input after "
                  f"{_plural(maker.guesses, 'guess')}; the secret was {maker.reveal()}",
                  file=sys.stderr)
            return 1
        if line.lower() in QUIT_WORDS:
            print(f"The secret was {maker.reveal()} "
                  f"(you made {_plural(maker.guesses, 'guess')}).")
            return 0
        if not line:
            continue
        try:
            answer = maker.guess(line)
        except InvalidCodeError as exc:
            print(f"  {exc}; try again.")
            continue
        print(f"  {game.answer_str(answer)}  ({describe_answer(game, answer)})")
        if maker.solved:
            print(f"Solved in {_plural(maker.guesses, 'guess')}: the secret was "
                  f"{maker.reveal()}.")
            return 0
