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
    other are reported with the smallest set of them that conflict, and the last
    one may be entered again, an earlier one corrected (``fix N ANSWER``) or taken
    back (``undo``). With ``--secret CODE`` the computer plays against that
    secret by itself and prints every guess with its answer (for scripts).

``optimal-mm challenge GAME``
    The computer draws a secret (``--seed`` makes the draw repeatable) and answers
    the person's guesses until one is right; ``quit`` reveals the secret.

``optimal-mm match GAME``
    The person and the computer each hide a code and guess the other's in turns
    (the person first); whoever needs fewer guesses wins (``--seed`` replays the
    computer's secret). The computer guesses as in ``play``.

``--coach`` (``play`` and ``challenge``)
    Grades each guess as it is made: the expected guesses (per secret) and the
    worst-case guesses it loses against the best guess at that point, proven by
    the exact search (:class:`~optimal_mm.advice.Advisor`, ``--time-limit`` per
    guess).

Both read plain lines with ``sys.stdin.readline`` and write prompts to stdout, so
they work in a terminal and through a pipe (input read from a pipe is echoed,
so the transcript reads like a session). Exit status: 0 when the game is won or
the person types ``quit``; 1 when the input ends first (a one-line message on
stderr, no traceback); 2 for bad arguments (unknown game, bad code, unreadable
tree or a tree for another game).

``--heuristic coin-weighing`` (pNc2b) and ``--heuristic blocks`` (pNcNb) play the
large-game strategies of :mod:`optimal_mm.largen`, for games of any size, through
:class:`~optimal_mm.largen.LargeCodebreaker`: answers that contradict each other
are refused and asked again, and ``undo`` and ``fix N ANSWER`` work, as above.
"""

from __future__ import annotations

import argparse
import random
import sys

from .. import notation
from ..errors import (InconsistentAnswersError, InvalidAnswerError, InvalidCodeError,
                      InvalidGameError, InvalidOptionError, check_time_limit)
from ..game import Game
from ..heuristics import check_move_time
from ..largen import STRATEGIES as THEORY_STRATEGIES
from ..largen import default_strategy
from ..largen.strategy import describe_guesses
from ..player import (CONSISTENT_PLAYER, DEFAULT_HEURISTIC, Codebreaker, Codemaker, Match,
                      check_strategy_game, describe_answer, heuristic_codebreaker,
                      load_shipped_strategy)
from ..render import escape_control
from ..tree import Strategy, load_verified
from ..wording import plural

QUIT_WORDS = ("quit", "q", "exit")
#: Seconds the coach searches one position before it gives up grading that guess.
COACH_TIME_LIMIT = 10.0


def register(sub) -> None:
    """Add ``play`` and ``challenge`` to the parser."""
    p = sub.add_parser(
        "play", help="the computer guesses your secret",
        description="You think of a secret code; the computer guesses it. Answer each guess "
                    "with black and white pegs ('2 1', '2B1W' or '21'; one number for "
                    "black-only games). Type 'undo' to take back your last answer, "
                    "'fix N ANSWER' to correct answer N, 'quit' to stop.",
        epilog="Exit status: 0 when the secret is found or on 'quit', 1 when the input "
               "ends first, 2 for bad arguments.")
    p.add_argument("game", nargs="?",
                   help="game name or spec (mastermind, bulls-and-cows, p4c6, p3c5b, p12c12, "
                        "...); without it, the number of positions and colours are asked for")
    _codebreaker_options(p)
    p.add_argument("--secret", metavar="CODE",
                   help="play against this secret without reading input; print each guess "
                        "with its answer, then the total")
    p.add_argument("--answers", choices=notation.ANSWER_ORDERS, default="black-white",
                   help="how answers are written: black-white ('2 1': in place, then right "
                        "colour elsewhere; the default) or total-exact ('3 1': colours right "
                        "in total, then those in place)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="seed for randomised heuristics (default 0)")
    _coach_options(p)
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
    _coach_options(c)
    c.set_defaults(func=cmd_challenge)

    m = sub.add_parser(
        "match", help="you and the computer each guess the other's secret",
        description="You and the computer each hide a secret code and guess the other's "
                    "in turns, you first: type your guess, then answer the computer's "
                    "('2 1', '2B1W' or '21'). Whoever needs fewer guesses wins; both in the "
                    "same round is a draw. 'fix N ANSWER' corrects your answer to the "
                    "computer's guess N, 'quit' stops.",
        epilog="Exit status: 0 when the match ends or on 'quit', 1 when the input ends "
               "first, 2 for bad arguments.")
    m.add_argument("game", help="game name or spec (mastermind, bulls-and-cows, p4c6, ...)")
    _codebreaker_options(m)
    m.add_argument("--seed", type=int, default=None, metavar="N",
                   help="seed for the computer's secret and randomised heuristics, to replay "
                        "a match (default: a fresh secret)")
    m.set_defaults(func=cmd_match)


def _named(text: str) -> str:
    """An argparse ``type``: a name or a path, never empty (an empty ``--tree`` or
    ``--heuristic`` had quietly meant the default player)."""
    if not text:
        raise argparse.ArgumentTypeError("needs a name, got ''")
    return text


def _codebreaker_options(parser) -> None:
    """What the computer guesses with: ``--tree`` or ``--heuristic``, ``--move-time``."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--tree", metavar="FILE", type=_named,
                        help="strategy tree the computer follows (.json or .json.gz) for "
                             "this game")
    source.add_argument("--heuristic", metavar="H", type=_named,
                        help=f"heuristic the computer guesses with, or {CONSISTENT_PLAYER} for "
                             f"consistent guesses found by a constraint solver (default: the "
                             f"shipped tree if any, else {DEFAULT_HEURISTIC}; {CONSISTENT_PLAYER} "
                             f"for games too big to list their codes); for black-peg games of "
                             f"any size also {' and '.join(THEORY_STRATEGIES)}")
    parser.add_argument("--move-time", type=float, default=60.0, metavar="S",
                        help="time limit per guess for heuristics, in seconds (default 60); the "
                             "best guess scored so far is played when it runs out")


def _coach_options(parser) -> None:
    parser.add_argument("--coach", action="store_true",
                        help="grade each guess: expected and worst-case guesses lost against "
                             "the best guess there, proven by exact search")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help=f"with --coach: seconds the coach may search per guess "
                             f"(default {COACH_TIME_LIMIT:g})")


def _check_coach(args, theory: str | None = None) -> None:
    """Refuse the coach's options where no coach runs, rather than ignore them: a
    ``--time-limit`` (only the coach uses it) without ``--coach``, and ``--coach``
    beside a large-game strategy ``theory`` (it grades by exact search)."""
    if args.time_limit is not None and not args.coach:
        raise InvalidOptionError("--time-limit is for --coach: the seconds the coach may "
                                 "search per guess")
    if args.coach and theory is not None:
        raise InvalidOptionError(f"--coach grades by exact search, which the {theory} "
                                 f"strategy's games are beyond")


def _coach(args, game: Game):
    """The coach's :class:`Advisor`, or None without ``--coach``."""
    if not args.coach:
        return None
    from ..advice import Advisor

    limit = COACH_TIME_LIMIT if args.time_limit is None else args.time_limit
    check_time_limit(limit)
    return Advisor(game, time_limit=limit)


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
        if len(numbers) == 1 and not numbers[0].isdigit():  # asked again at once
            print(f"  Give the number of positions as a whole number, not {line!r}.")
            continue
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


def _tree_summary(strategy: Strategy) -> str:
    stats = strategy.validate()
    rule = " with consistent guesses only" if strategy.guesses == "consistent" else ""
    proof = ", proved optimal" if strategy.optimal else ""
    return (f"{escape_control(strategy.objective)}{rule}{proof}: average {stats.average:.4f}, "
            f"at most {stats.max} guesses")


def _codebreaker(args, game: Game, tree: Strategy | None = None) -> tuple[Codebreaker, str]:
    """The codebreaker the arguments ask for, and a line saying what it follows;
    ``tree``: the ``--tree`` file if already loaded; it is loaded and replayed else."""
    if args.tree:
        strategy = tree if tree is not None else load_verified(args.tree)[0]
        check_strategy_game(strategy, game, where=f"tree {args.tree!r}")
        return Codebreaker(game, strategy), f"tree {args.tree} ({_tree_summary(strategy)})"
    if not args.heuristic and game.is_enumerable:
        strategy = load_shipped_strategy(game)
        if strategy is not None:
            check_strategy_game(strategy, game, where=f"the shipped tree for {game.name}")
            return (Codebreaker(game, strategy),
                    f"the shipped tree for {game.name} ({_tree_summary(strategy)})")
    breaker = heuristic_codebreaker(game, args.heuristic, seed=args.seed or 0,
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
    # A tree is replayed before the game starts (one that loses a secret would
    # fail mid-game), and names its game when none is given.
    tree = load_verified(args.tree)[0] if args.tree else None
    if args.game is None and tree is not None:
        game = tree.game
    elif args.game is None:
        game = _ask_game()
        if game is None:
            print("optimal-mm play: end of input before the game was chosen", file=sys.stderr)
            return 1
    else:
        game = Game.from_spec(args.game)
    check_move_time(args.move_time)
    theory = args.heuristic if args.heuristic in THEORY_STRATEGIES else None
    if args.heuristic is None and args.tree is None and not game.is_enumerable:
        theory = default_strategy(game.pegs, game.colours, game.repeats, game.black_only)
    _check_coach(args, theory)
    if theory is not None:
        return _play_theory(args, game, theory)
    secret = None
    if args.secret is not None:
        secret = game.format_code(game.parse_code(args.secret))
    breaker, source = _codebreaker(args, game, tree)
    coach = _coach(args, game)
    if secret is not None:
        return _play_secret(breaker, secret, source, args.answers, coach)
    return _play_interactive(breaker, source, args.answers, coach)


def _coach_line(coach, history, guess: str) -> str:
    """``"  coach: guess 2 5611 (312 left): lost ..."`` for the guess after ``history``."""
    return f"  coach: {coach.grade_turn(history, guess)}"


def _cut_note(breaker) -> str:
    """A note when the clock cut the last move short."""
    move = getattr(breaker, "last_move", None)
    return f"  ({move.describe()})" if move is not None and move.cut_short else ""


def _play_secret(breaker, secret: str, source: str, order: str, coach=None) -> int:
    game = breaker.game
    print(f"Strategy: {source}")
    while not breaker.solved:
        guess = breaker.next_guess()
        note = _cut_note(breaker)
        answer = game.score(guess, secret)
        grade = _coach_line(coach, breaker.history, guess) if coach else None
        breaker.tell(answer)
        print(f"Guess {breaker.guesses}: {guess}  "
              f"{notation.format_answer(game, answer, order)}{note}", flush=True)
        if grade:
            print(grade)
    print(f"Found {secret} in {plural(breaker.guesses, 'guess')}.")
    return 0


def _play_theory(args, game: Game, name: str) -> int:
    """Play the strategy ``name`` of :mod:`optimal_mm.largen` against ``--secret`` or a
    person."""
    from .. import largen

    strategy = largen.strategy_for(name, game.pegs, game.colours, game.repeats,
                                   game.black_only)
    why = "" if args.heuristic else f"; {game.spec} is too big to list its codes"
    print(f"Strategy: the {name} strategy ({strategy.summary}){why}")
    if args.secret is None:
        return _play_theory_interactive(game, largen.LargeCodebreaker(strategy))
    oracle = largen.BlackPegOracle(game.parse_code(args.secret))

    def show(number, question, answer):
        print(f"Guess {number}: {game.format_code(question)}  {game.answer_str(answer)}")

    record = largen.play(strategy, oracle.ask, on_answer=show)
    print(f"Found {game.format_code(record.secret)} in {plural(record.guesses, 'guess')} "
          f"(known after {plural(record.known_after, 'question')}).")
    return 0


def _play_theory_interactive(game: Game, breaker) -> int:
    """The person answers the questions of a :class:`~optimal_mm.largen.LargeCodebreaker`
    with black pegs, as :func:`_play_interactive` reads answers (``undo``, ``fix``)."""
    print(f"Playing {_game_line(game)}.")
    print("Think of a secret code; I will guess it. "
          + notation.answer_hint(game, "black-white"))
    print("Type 'undo' to take back your last answer, 'fix N ANSWER' to correct answer N, "
          "'quit' to stop.")
    while not breaker.solved:
        guess = game.format_code(breaker.next_guess())
        note = ("  (the only code left: it must be your secret)"
                if breaker.secret is not None else "")
        print(f"Guess {breaker.guesses + 1}: {guess}{note}")
        while True:
            line = _read("Your answer> ")
            if line is None:
                _input_ended(breaker.guesses)
                return 1
            word = line.lower()
            if word in QUIT_WORDS:
                print(f"Stopped after {plural(breaker.guesses, 'guess')}.")
                return 0
            if word == "undo":
                if not breaker.answers:
                    print("  Nothing to take back yet.")
                    continue
                question = game.format_code(breaker.questions[-1])
                print(f"  Took back {game.answer_str(breaker.undo())} to {question}.")
                break
            if not line:
                continue
            if word.startswith("fix"):
                if _fix_theory(game, breaker, line):
                    break
                continue
            try:
                breaker.tell(game.parse_answer(line))
            except InvalidAnswerError as exc:
                print(f"  {exc}; try again.")
                continue
            except InconsistentAnswersError as exc:
                _say_contradiction(exc, guess, breaker.guesses)
                continue
            break
    print(f"Found {game.format_code(breaker.secret)} in {plural(breaker.guesses, 'guess')} "
          f"(known after {plural(breaker.known_after, 'question')}).")
    return 0


def _say_contradiction(exc: InconsistentAnswersError, guess: str, answered: int) -> None:
    """Report answers that contradict each other in one line, then say how to go on."""
    message = str(exc)
    print(f"  {message[:1].upper()}{message[1:]}.")
    earlier = [i for i in getattr(exc, "conflict", ()) if i < answered]
    if len(earlier) == 1:
        fix = f", 'fix {earlier[0] + 1} ANSWER' to correct your answer to guess {earlier[0] + 1}"
    elif earlier:
        fix = f", 'fix N ANSWER' to correct your answer to one of {describe_guesses(earlier)}"
    else:
        fix = ", 'fix N ANSWER' to correct an earlier answer" if answered else ""
    undo = ", or 'undo' to take back the last one" if answered else ""
    print(f"  Enter your answer to {guess} again{fix}{undo}.")


def _fix_theory(game: Game, breaker, line: str) -> bool:
    """Apply ``fix N ANSWER`` to a large-game codebreaker; True when it was corrected."""
    _, _, rest = line.partition(" ")
    number, _, answer = rest.strip().partition(" ")
    if not number.isdigit() or not answer.strip():
        print("  Write 'fix N ANSWER', e.g. 'fix 1 2', to correct your answer to guess N.")
        return False
    try:
        dropped = breaker.correct(int(number) - 1, game.parse_answer(answer.strip()))
    except (IndexError, InvalidAnswerError, InconsistentAnswersError) as exc:
        print(f"  {str(exc).rstrip('.')}; nothing changed.")
        return False
    index = int(number) - 1
    changed = (f"; the guesses after it change, so your {plural(dropped, 'answer')} to "
               f"them {'was' if dropped == 1 else 'were'} taken back" if dropped else "")
    print(f"  Corrected: {game.format_code(breaker.questions[index])} "
          f"{game.answer_str(breaker.answers[index])}{changed}.")
    return True


def _input_ended(answered: int) -> None:
    print(f"optimal-mm play: end of input before the secret was found "
          f"({plural(answered, 'guess')} answered)", file=sys.stderr)


def _play_interactive(breaker, source: str, order: str, coach=None) -> int:
    game = breaker.game
    print(f"Playing {_game_line(game)}.")
    print("Think of a secret code; I will guess it. " + notation.answer_hint(game, order))
    print("Type 'undo' to take back your last answer, 'fix N ANSWER' to correct answer N, "
          "'quit' to stop.")
    print(f"Strategy: {source}")
    while not breaker.solved:
        guess = breaker.next_guess()
        note = "  (the only code left: it must be your secret)" if breaker.remaining == 1 else ""
        print(f"Guess {breaker.guesses + 1}: {guess}{note}{_cut_note(breaker)}")
        if coach is not None:
            print(_coach_line(coach, breaker.history, guess))
        while True:
            line = _read("Your answer> ")
            if line is None:
                _input_ended(breaker.guesses)
                return 1
            word = line.lower()
            if word in QUIT_WORDS:
                left = ("" if breaker.remaining is None
                        else f"; {plural(breaker.remaining, 'code')} still possible")
                print(f"Stopped after {plural(breaker.guesses, 'guess')}{left}.")
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
            if word.startswith("fix"):
                if _fix(breaker, line):
                    break
                continue
            try:
                breaker.tell(notation.parse_answer(game, line, order))
            except InvalidAnswerError as exc:
                print(f"  {exc}; try again.")
                continue
            except InconsistentAnswersError as exc:
                print(f"  Your answers contradict each other: {exc}.")
                earlier = [i + 1 for i in getattr(exc, "conflict", ()) if i < breaker.guesses]
                fix = (f", 'fix N ANSWER' to correct answer {' or '.join(map(str, earlier))}"
                       if earlier else "")
                print(f"  Enter your answer to {guess} again{fix}, or 'undo' to take back "
                      f"the last one.")
                continue
            if not breaker.solved and breaker.remaining is not None:
                print(f"  {plural(breaker.remaining, 'code')} still possible.")
            break
    print(f"Solved: your secret is {breaker.secret}, found in "
          f"{plural(breaker.guesses, 'guess')}.")
    return 0


def _fix(breaker: Codebreaker, line: str) -> bool:
    """Apply ``fix N ANSWER``; True when the answer was corrected."""
    game = breaker.game
    _, _, rest = line.partition(" ")
    number, _, answer = rest.strip().partition(" ")
    if not number.isdigit() or not answer.strip():
        print("  Write 'fix N ANSWER', e.g. 'fix 1 1B1W', to correct your answer to guess N.")
        return False
    try:
        breaker.correct(int(number) - 1, answer.strip())
    except (IndexError, InvalidAnswerError, InconsistentAnswersError) as exc:
        print(f"  {str(exc).rstrip('.')}; nothing changed.")
        return False
    turn = breaker.history[int(number) - 1]
    print(f"  Corrected: {turn.guess} {game.answer_str(turn.answer)}; "
          f"{plural(breaker.remaining, 'code')} still possible.")
    return True


# --------------------------------------------------------------- challenge
def cmd_challenge(args) -> int:
    game = Game.from_spec(args.game)
    maker = Codemaker(game, random.Random(args.seed))
    _check_coach(args)
    coach = _coach(args, game)
    rule = "colours may repeat" if game.repeats else "all different"
    print(f"Playing {_game_line(game)}.")
    print(f"I have chosen a secret of {game.pegs} symbols from {_symbols(game)} ({rule}). "
          f"Type your guesses; 'quit' reveals the secret.")
    while True:
        line = _read(f"Guess {maker.guesses + 1}> ")
        if line is None:
            print(f"optimal-mm challenge: end of input after "
                  f"{plural(maker.guesses, 'guess')}; the secret was {maker.reveal()}",
                  file=sys.stderr)
            return 1
        if line.lower() in QUIT_WORDS:
            print(f"The secret was {maker.reveal()} "
                  f"(you made {plural(maker.guesses, 'guess')}).")
            return 0
        if not line:
            continue
        try:
            before = list(maker.history)
            answer = maker.guess(line)
        except InvalidCodeError as exc:
            print(f"  {exc}; try again.")
            continue
        print(f"  {game.answer_str(answer)}  ({describe_answer(game, answer)})")
        if coach is not None:
            print(_coach_line(coach, before, maker.history[-1].guess))
        if maker.solved:
            print(f"Solved in {plural(maker.guesses, 'guess')}: the secret was "
                  f"{maker.reveal()}.")
            return 0


# ------------------------------------------------------------------- match
def cmd_match(args) -> int:
    game = Game.from_spec(args.game)
    breaker, source = _codebreaker(args, game)
    match = Match(game, random.Random(args.seed), breaker)
    print(f"Playing {_game_line(game)}.")
    print("We each hide a secret code and guess the other's in turns, you first; whoever "
          "needs fewer guesses wins.")
    print("Think of your secret now. " + notation.answer_hint(game, "black-white"))
    print("Type 'fix N ANSWER' to correct your answer to my guess N, 'quit' to stop.")
    print(f"My guesses: {source}")
    while match.result is None:
        if match.person_to_play:
            line = _read(f"Round {match.round}, your guess> ")
            if line is None:
                return _match_input_ended(match)
            if line.lower() in QUIT_WORDS:
                print(f"Stopped in round {match.round}; my secret was {match.maker.reveal()}.")
                return 0
            if not line:
                continue
            try:
                answer = match.person_guess(line)
            except InvalidCodeError as exc:
                print(f"  {exc}; try again.")
                continue
            print(f"  {game.answer_str(answer)}  ({describe_answer(game, answer)})")
            if match.maker.solved:
                print(f"  You found my secret in {plural(match.person_guesses, 'guess')}.")
            continue
        guess = match.computer_guess()
        print(f"Round {match.round}, my guess: {guess}")
        line = _read("Your answer> ")
        if line is None:
            return _match_input_ended(match)
        if line.lower() in QUIT_WORDS:
            print(f"Stopped in round {match.round}; my secret was {match.maker.reveal()}.")
            return 0
        if line.lower().startswith("fix"):
            _fix(breaker, line)
            continue
        try:
            match.tell(line)
        except InvalidAnswerError as exc:
            print(f"  {exc}; try again.")
        except InconsistentAnswersError as exc:
            print(f"  Your answers contradict each other: {exc}.")
            print(f"  Enter your answer to {guess} again, or 'fix N ANSWER' to correct an "
                  f"earlier one.")
        else:
            if breaker.solved:
                print(f"  I found your secret {breaker.secret} in "
                      f"{plural(breaker.guesses, 'guess')}.")
            else:
                print(f"  {plural(breaker.remaining, 'code')} still possible for your secret.")
    person, computer = match.person_guesses, match.computer_guesses
    if match.result == "draw":
        print(f"Draw: we both needed {plural(person, 'guess')}.")
    elif match.result == "person":
        print(f"You win: you found {match.maker.reveal()} in {plural(person, 'guess')}; "
              f"I had not found yours after {plural(computer, 'guess')}.")
    else:
        print(f"I win: I found {breaker.secret} in {plural(computer, 'guess')}; you had not "
              f"found my secret {match.maker.reveal()} after {plural(person, 'guess')}.")
    return 0


def _match_input_ended(match: Match) -> int:
    print(f"optimal-mm match: end of input in round {match.round}; my secret was "
          f"{match.maker.reveal()}", file=sys.stderr)
    return 1
