"""``play`` and ``challenge``: games between the computer and a person.

``optimal-mm play GAME``
    The person thinks of a secret and the computer guesses it. Guesses come from
    a strategy tree (``--tree FILE``, else the tree shipped for the game in
    ``optimal_mm/data`` when there is one) or from a heuristic (``--heuristic``,
    else :data:`~optimal_mm.player.DEFAULT_HEURISTIC`). Each answer is one line:
    ``2 1``, ``2B1W`` or ``21`` (one number for black-only games). Impossible or
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

from ..errors import (InconsistentAnswersError, InvalidAnswerError, InvalidCodeError,
                      OptimalMMError)
from ..game import Game
from ..heuristics import check_move_time
from ..player import (DEFAULT_HEURISTIC, Codebreaker, Codemaker, check_strategy_game,
                      default_chooser, describe_answer, load_shipped_strategy)
from ..render import escape_control
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
    p.add_argument("game", help="game name or spec (mastermind, bulls-and-cows, p4c6, p3c5b, ...)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--tree", metavar="FILE",
                        help="strategy tree to follow (.json or .json.gz) for this game")
    source.add_argument("--heuristic", metavar="H",
                        help=f"heuristic to guess with (default: the shipped tree if any, "
                             f"else {DEFAULT_HEURISTIC})")
    p.add_argument("--secret", metavar="CODE",
                   help="play against this secret without reading input; print each guess "
                        "with its answer, then the total")
    p.add_argument("--move-time", type=float, default=60.0, metavar="S",
                   help="time limit per guess for heuristics, in seconds (default 60)")
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
    return (f"{game.name}: {game.pegs} pegs, {game.colours} colours ({game.alphabet}), "
            f"{rule}, {'black' if game.black_only else 'black and white'} answers")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('ss') else 's'}"


def _heuristic_chooser(game: Game, name: str, seed: int, move_time: float):
    try:
        from .. import heuristics
    except ImportError as exc:  # pragma: no cover - only while heuristics is missing
        raise OptimalMMError(f"heuristics are not available ({exc}); use --tree FILE") from None
    if name not in heuristics.HEURISTICS:
        raise OptimalMMError(
            f"unknown heuristic {name!r}: choose from {', '.join(heuristics.HEURISTICS)}")
    return default_chooser(game, name, seed=seed, move_time=move_time)


def _tree_summary(strategy: Strategy) -> str:
    stats = strategy.validate()
    proof = ", proved optimal" if strategy.optimal else ""
    return (f"{escape_control(strategy.objective)}{proof}: average {stats.average:.4f}, "
            f"at most {stats.max} guesses")


def _codebreaker(args, game: Game) -> tuple[Codebreaker, str]:
    """The codebreaker the arguments ask for, and a line saying what it follows."""
    if args.tree:
        strategy = Strategy.load(args.tree)
        check_strategy_game(strategy, game, where=f"tree {args.tree!r}")
        return Codebreaker(game, strategy), f"tree {args.tree} ({_tree_summary(strategy)})"
    if not args.heuristic:
        strategy = load_shipped_strategy(game)
        if strategy is not None:
            check_strategy_game(strategy, game, where=f"the shipped tree for {game.name}")
            return (Codebreaker(game, strategy),
                    f"the shipped tree for {game.name} ({_tree_summary(strategy)})")
    name = args.heuristic or DEFAULT_HEURISTIC
    chooser = _heuristic_chooser(game, name, args.seed, args.move_time)
    why = "" if args.heuristic else f"; no tree is shipped for {game.name}"
    return Codebreaker(game, chooser=chooser), f"the {name} heuristic{why}"


# -------------------------------------------------------------------- play
def cmd_play(args) -> int:
    game = Game.from_spec(args.game)
    check_move_time(args.move_time)
    secret = None
    if args.secret is not None:
        secret = game.code_str(game.code_index(args.secret))
    breaker, source = _codebreaker(args, game)
    if secret is not None:
        return _play_secret(breaker, secret, source)
    return _play_interactive(breaker, source)


def _play_secret(breaker: Codebreaker, secret: str, source: str) -> int:
    game = breaker.game
    print(f"Strategy: {source}")
    while not breaker.solved:
        guess = breaker.next_guess()
        answer = game.score(guess, secret)
        breaker.tell(answer)
        print(f"Guess {breaker.guesses}: {guess}  {game.answer_str(answer)}")
    print(f"Found {secret} in {_plural(breaker.guesses, 'guess')}.")
    return 0


def _answer_hint(game: Game) -> str:
    if game.black_only:
        return "Answer each guess with the number of black pegs (e.g. '2' or '2B')."
    return "Answer each guess with black and white pegs: '2 1', '2B1W' or '21'."


def _play_interactive(breaker: Codebreaker, source: str) -> int:
    game = breaker.game
    print(f"Playing {_game_line(game)}.")
    print("Think of a secret code; I will guess it. " + _answer_hint(game))
    print("Type 'undo' to take back your last answer, 'quit' to stop.")
    print(f"Strategy: {source}")
    while not breaker.solved:
        guess = breaker.next_guess()
        note = "  (the only code left: it must be your secret)" if breaker.remaining == 1 else ""
        print(f"Guess {breaker.guesses + 1}: {guess}{note}")
        while True:
            line = _read("Your answer> ")
            if line is None:
                print(f"optimal-mm play: end of input before the secret was found "
                      f"({_plural(breaker.guesses, 'guess')} answered)", file=sys.stderr)
                return 1
            word = line.lower()
            if word in QUIT_WORDS:
                print(f"Stopped after {_plural(breaker.guesses, 'guess')}; "
                      f"{_plural(breaker.remaining, 'code')} still possible.")
                return 0
            if word == "undo":
                if not breaker.history:
                    print("  Nothing to take back yet.")
                    continue
                turn = breaker.undo()
                print(f"  Took back {game.answer_str(turn.answer)} to {turn.guess}.")
                break
            if not line:
                continue
            try:
                breaker.tell(line)
            except InvalidAnswerError as exc:
                print(f"  {exc}; try again.")
                continue
            except InconsistentAnswersError as exc:
                print(f"  Your answers contradict each other: {exc}.")
                print(f"  Enter your answer to {guess} again, or 'undo' to change an "
                      f"earlier one.")
                continue
            if not breaker.solved:
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
    print(f"I have chosen a secret of {game.pegs} symbols from {game.alphabet} ({rule}). "
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
