"""``impartial solve|table|play``: impartial games by Sprague-Grundy values.

``optimal-mm impartial solve GAME [POSITION]``
    The value of the position, whether the player to move wins, and every
    winning move (``--json``: one object with the keys ``game``, ``position``,
    ``value``, ``wins``, ``winning_moves``); ``--graph OUT`` also writes the move
    graph (DOT or GraphML, by extension).

``optimal-mm impartial table GAME [POSITION]``
    The book-style table of values (heaps up to ``--up-to``, all dates, card
    totals for the cards left in POSITION, two Nim heaps); ``--json`` prints it
    as JSON and ``-o FILE`` writes that JSON atomically.

``optimal-mm impartial play GAME [POSITION]``
    A game against the computer, through plain lines (a terminal or a pipe).
    Malformed and illegal moves are refused with one line and asked again.
    Exit status: 0 when the game ends or on 'quit', 1 when the input ends
    first, 2 for bad arguments.

Everything is done by :mod:`optimal_mm.impartial`; this module reads
arguments and prints.
"""

from __future__ import annotations

import json
import random
import sys

from ..impartial import find_game, game_names, solve_position
from ..impartial.errors import IllegalMoveError, InvalidPositionError
from ..impartial.export import graph_format, move_graph, to_json, write_graph, write_json
from ..impartial.players import PLAYERS, Match, make_player
from ..impartial.tables import value_table
from .play_cmds import QUIT_WORDS, _read

NOTATION = ("Positions: subtraction 37; date 20.1 (or 'start'); nim 3,4,5; cards "
            "TOTAL:A,B,C,D,E,F (the total, then the cards left of each value 1..6; the start "
            "is 0:4,4,4,4,4,4); sum subtraction:9+nim:3,4")


def _game_arguments(p, position_help: str) -> None:
    p.add_argument("game", metavar="GAME", help=f"one of {', '.join(game_names())}")
    p.add_argument("position", metavar="POSITION", nargs="?", default=None, help=position_help)
    p.add_argument("--moves", metavar="SET", default=None,
                   help="subtraction: the numbers of matches a move may take, '1,3,4' or "
                        "'1-6' (default 1-6, the book's)")
    p.add_argument("--leap", action="store_true",
                   help="date: February has 29 days")
    p.add_argument("--misere", action="store_true",
                   help="misère play: the player who makes the last move loses")


def register(sub) -> None:
    """Add ``impartial`` with its ``solve``, ``table`` and ``play`` commands."""
    group = sub.add_parser(
        "impartial", help="impartial games: Sprague-Grundy values, tables, play",
        description="Impartial games solved by Sprague-Grundy values: the subtraction game "
                    "(take 1 to 6 matches), the date game (reach 31.12), the card game "
                    "(reach 50), Nim, and sums of them. " + NOTATION + ".")
    commands = group.add_subparsers(dest="impartial_command", metavar="COMMAND")
    commands.required = True

    p = commands.add_parser(
        "solve", help="value, outcome and winning moves of a position",
        description="Solve a position: its Sprague-Grundy value (misère value with "
                    "--misere), whether the player to move wins, and every winning move, "
                    "written as the position it reaches. " + NOTATION + ".")
    _game_arguments(p, "the position (default: the game's start)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: game, position, value, wins, winning_moves")
    p.add_argument("--graph", metavar="OUT", default=None,
                   help="also write the move graph from the position, with values (.dot, .gv "
                        "or .graphml; small games only), atomically")
    p.set_defaults(func=cmd_solve)

    p = commands.add_parser(
        "table", help="the book-style table of values",
        description="Print a table of values: subtraction, heaps 0..--up-to; date, every "
                    "day of the year; cards, the totals from POSITION's total to 50 with the "
                    "book's value (from the values left) beside the exact value (from the "
                    "counts left); nim, two heaps up to --up-to.")
    _game_arguments(p, "cards only: the cards left, TOTAL:A,B,C,D,E,F (default the start)")
    p.add_argument("--up-to", type=int, default=None, metavar="N",
                   help="subtraction and nim: the largest heap (default 20 and 7)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="write the table as JSON to FILE, atomically")
    p.set_defaults(func=cmd_table)

    p = commands.add_parser(
        "play", help="play against the computer",
        description="Play against the computer, one move a line. Subtraction: type how many "
                    "matches you take; cards: the value of the card you take; date: the date "
                    "you move to; nim and sums: the position after your move. 'quit' stops. "
                    "Works through a pipe.",
        epilog="Exit status: 0 when the game ends or on 'quit', 1 when the input ends first, "
               "2 for bad arguments.")
    _game_arguments(p, "where the game starts (default: the game's start)")
    p.add_argument("--first", choices=("human", "computer"), default="human",
                   help="who moves first (default human)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="seed for the computer's choice between equally good moves (default 0)")
    p.add_argument("--player", choices=PLAYERS, default="exact",
                   help="the computer's play: exact (perfect) or book (the book's approximate "
                        "card player; cards only)")
    p.set_defaults(func=cmd_play)


def _game(args):
    return find_game(args.game, moves=args.moves, leap=args.leap)


# ------------------------------------------------------------------ solve
def cmd_solve(args) -> int:
    game = _game(args)
    if args.graph:
        graph_format(args.graph)          # refuse a bad name before solving
    solution = solve_position(game, args.position, misere=args.misere)
    if args.graph:
        write_graph(move_graph(game, game.parse(solution.position), misere=args.misere),
                    args.graph)
    if args.json:
        print(json.dumps(solution.to_dict(), ensure_ascii=False))
    else:
        misere = "; played misère instead: the last mover loses" if args.misere else ""
        print(game.describe() + misere)
        for line in solution.lines():
            print(line)
    if args.graph:
        print(f"wrote {args.graph}", file=sys.stderr if args.json else sys.stdout)
    return 0


# ------------------------------------------------------------------ table
def cmd_table(args) -> int:
    game = _game(args)
    table = value_table(game, args.position, up_to=args.up_to, misere=args.misere)
    if args.output:
        write_json(table.to_dict(), args.output)
    if args.json:
        print(to_json(table.to_dict()), end="")
    else:
        print(table.render(), end="")
    if args.output:
        print(f"wrote {args.output}", file=sys.stderr if args.json else sys.stdout)
    return 0


# ------------------------------------------------------------------- play
def cmd_play(args) -> int:
    game = _game(args)
    position = game.start() if args.position is None else game.parse(args.position)
    computer = make_player(args.player, game, misere=args.misere, rng=random.Random(args.seed))
    match = Match(game, position, computer, human_first=args.first == "human",
                  misere=args.misere)
    rule = "the player who makes the last move loses" if args.misere else \
        "the player who cannot move loses"
    print(f"Playing {game.describe()}; {rule}.")
    print(f"Position: {game.format(position)}. You: {game.move_hint}; 'quit' to stop. "
          f"The computer plays {args.player}.")
    while not match.over:
        if match.to_move == "computer":
            before = match.position
            after = match.computer_move()
            print(f"I {game.describe_move(before, after)}.")
            continue
        while True:
            line = _read(f"{game.format(match.position)}> ")
            if line is None:
                print(f"optimal-mm impartial play: end of input at "
                      f"{game.format(match.position)}, your move", file=sys.stderr)
                return 1
            if line.lower() in QUIT_WORDS:
                print(f"Stopped at {game.format(match.position)}.")
                return 0
            if not line:
                continue
            try:
                before = match.position
                after = match.human_move(line)
            except (InvalidPositionError, IllegalMoveError) as exc:
                print(f"  {exc}; try again.")
                continue
            print(f"You {game.describe_move(before, after)}.")
            break
    loser_moves = "no move is left for " + ("me" if match.to_move == "computer" else "you")
    verdict = "You win" if match.winner == "human" else "I win"
    print(f"{verdict}: {loser_moves} at {game.format(match.position)} "
          f"({len(match.history)} moves).")
    return 0
