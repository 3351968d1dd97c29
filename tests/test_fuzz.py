"""Fuzzing: damaged trees, random answers, specs and play histories never end in a traceback.

Every property runs derandomized (the same examples on every run, no example
database), with a small number of examples in the default tier and many more under
``-m slow`` (:data:`EXAMPLES`). What each one holds is in docs/RELIABILITY.md.

* damaged trees (JSON mutations of valid trees, and byte mutations of their files)
  through the reader and ``verify``: only :class:`OptimalMMError` may come out, and
  a tree that is accepted must pass an independent brute-force replay written here;
* the strict JSON reader and writer: the iterative fallback agrees with the standard
  library on every document either can read;
* random text through the answer, code and spec parsers;
* random histories (answers, wrong answers, undo) through play's codebreaker state.
"""

import copy
import gzip
import json

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from optimal_mm import Game, strictjson  # noqa: E402
from optimal_mm.cli.tree_cmds import load_verified  # noqa: E402
from optimal_mm.errors import (InconsistentAnswersError, InvalidAnswerError,  # noqa: E402
                               OptimalMMError)
from optimal_mm.heuristics import build_strategy  # noqa: E402
from optimal_mm.player import Codebreaker  # noqa: E402
from optimal_mm.tree import Strategy  # noqa: E402

#: Examples per property: the default tier stays within a few seconds, -m slow digs.
EXAMPLES = [pytest.param(40, id="default"),
            pytest.param(2000, id="long", marks=pytest.mark.slow)]


def fuzz(test, examples):
    settings(max_examples=examples, derandomize=True, deadline=None, database=None,
             suppress_health_check=list(HealthCheck))(test)()


# ------------------------------------------------------------ valid trees
GAMES = ("p2c3", "p2c3b", "p3c3n")
TREES = {spec: build_strategy(Game.from_spec(spec), "knuth").to_dict() for spec in GAMES}
TREES["p2c3-consistent"] = build_strategy(Game.from_spec("p2c3"), "first-consistent").to_dict()


def brute_force_replay(doc) -> None:
    """Replay every secret through an accepted document, independently of the package.

    Raises AssertionError when the document should not have been accepted.
    """
    g = doc["game"]
    game = Game(g["pegs"], g["colours"], g["repeats"], g["scoring"], g["alphabet"])
    counts, visited = {}, set()
    nodes = [doc["root"]]
    for node in nodes:
        nodes.extend(node.get("next", {}).values())
    for secret in range(game.n_codes):
        node, depth, seen = doc["root"], 1, set()
        while True:
            visited.add(id(node))
            guess = node["guess"]
            assert game.code_str(game.code_index(guess)) == guess
            if doc["guesses"] == "consistent":
                seen_ok = all(game.score(t, guess) == a for t, a in seen)
                assert seen_ok, "inconsistent guess accepted"
            answer = game.score(guess, secret)
            if answer == game.win:
                counts[depth] = counts.get(depth, 0) + 1
                break
            seen.add((guess, answer))
            node = node["next"][game.answer_str(answer)]
            depth += 1
    assert visited == {id(n) for n in nodes}, "unreachable node accepted"
    depth_counts = [counts.get(d, 0) for d in range(1, max(counts) + 1)]
    stats = doc["stats"]
    assert stats["depth_counts"] == depth_counts
    assert stats["secrets"] == game.n_codes and stats["max"] == len(depth_counts)
    assert stats["total"] == sum((i + 1) * c for i, c in enumerate(depth_counts))
    if doc["max_guesses"] is not None:
        assert len(depth_counts) <= doc["max_guesses"]


def _paths(doc):
    """Every (container, key) pair in a document."""
    out, stack = [], [doc]
    while stack:
        value = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            out.append((value, key))
            if isinstance(child, (dict, list)):
                stack.append(child)
    return out


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=False, width=32),
    st.sampled_from(["", "11", "12", "21", "33", "123", "1B0W", "0B0W", "2B", "1B", "any",
                     "consistent", "black", "black-white", "123", "expected", "0B1W", "1B1W"]),
    st.text(max_size=6))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6)


@st.composite
def mutated_documents(draw):
    doc = copy.deepcopy(TREES[draw(st.sampled_from(sorted(TREES)))])
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        container, key = paths[draw(st.integers(0, len(paths) - 1))]
        kind = draw(st.sampled_from(["replace", "delete", "copy", "rename"]))
        if kind == "replace":
            container[key] = draw(JSON_VALUES)
        elif kind == "delete":
            del container[key]
        elif kind == "copy":  # another part of the document put here
            other, other_key = paths[draw(st.integers(0, len(paths) - 1))]
            if other_key in other:
                container[key] = copy.deepcopy(other[other_key])
        elif isinstance(container, dict):
            container[draw(SCALARS.map(str))] = container.pop(key)
    return doc


def _check_file(path):
    try:
        strategy, stats = load_verified(str(path))
    except OptimalMMError:
        return
    brute_force_replay(strictjson.loads(gzip.decompress(path.read_bytes()).decode()
                                        if path.name.endswith(".gz") else path.read_text()))


@pytest.mark.parametrize("examples", EXAMPLES)
def test_mutated_trees_are_refused_or_truly_valid(tmp_path, examples):
    @given(mutated_documents())
    def check(doc):
        path = tmp_path / "t.json"
        path.write_text(json.dumps(doc))
        _check_file(path)

    fuzz(check, examples)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_damaged_tree_files_are_refused_or_truly_valid(tmp_path, examples):
    @given(st.sampled_from(sorted(TREES)), st.booleans(),
           st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "cut"]),
                              st.integers(0, 10**6), st.integers(0, 255)),
                    min_size=1, max_size=4))
    def check(name, zipped, edits):
        data = bytearray(json.dumps(TREES[name]).encode())
        if zipped:
            data = bytearray(gzip.compress(bytes(data), mtime=0))
        for kind, where, byte in edits:
            i = where % max(1, len(data))
            if kind == "flip" and data:
                data[i] ^= byte or 1
            elif kind == "insert":
                data.insert(i, byte)
            elif kind == "delete" and data:
                del data[i]
            elif kind == "cut":
                del data[i:]
        path = tmp_path / ("t.json.gz" if zipped else "t.json")
        path.write_bytes(bytes(data))
        _check_file(path)

    fuzz(check, examples)


def test_every_valid_tree_passes_the_brute_force_replay():
    # The oracle itself accepts what it should (else the properties above prove nothing).
    for doc in TREES.values():
        brute_force_replay(doc)
        assert Strategy.from_dict(doc, strict=True).validate()


# ------------------------------------------------------------ strict JSON
@pytest.mark.parametrize("examples", EXAMPLES)
def test_the_iterative_json_path_agrees_with_the_standard_one(examples):
    values = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                  st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)),
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(st.text(max_size=4), inner, max_size=4)),
        max_leaves=20)

    @given(values, st.sampled_from([None, 2]), st.booleans())
    def check(value, indent, sort_keys):
        text = json.dumps(value, indent=indent, sort_keys=sort_keys, ensure_ascii=False,
                          separators=(",", ":") if indent is None else (",", ": "))
        assert strictjson._dumps_iterative(value, sort_keys, indent, False) == text
        assert strictjson._loads_iterative(text) == json.loads(text) == strictjson.loads(text)

    fuzz(check, examples)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_random_text_is_read_alike_by_both_json_paths(examples):
    @given(st.text(alphabet='{}[]",:0123456789.eE-+ truefalsn\\ab', max_size=30))
    def check(text):
        outcomes = []
        for read in (strictjson.loads, strictjson._loads_iterative):
            try:
                outcomes.append(("ok", read(text)))
            except ValueError:  # JSONDecodeError and JSONError are ValueErrors
                outcomes.append(("refused", None))
        assert outcomes[0] == outcomes[1], text

    fuzz(check, examples)


# ------------------------------------------------------------------ parsers
ANSWER_TEXT = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="0123456789BbWw ,/-٤１\t", max_size=8),
    st.integers(0, 10**12).map(str))


@pytest.mark.parametrize("examples", EXAMPLES)
def test_random_answers_parse_or_are_refused(examples):
    games = [Game.from_spec(s) for s in ("mastermind", "p3c5b", "p4c10n", "p10c2")]

    @given(st.sampled_from(games), ANSWER_TEXT)
    def check(game, text):
        try:
            answer = game.parse_answer(text)
        except InvalidAnswerError as exc:
            assert len(str(exc)) < 300
            return
        assert answer in game.possible_answers
        assert game.parse_answer(game.answer_str(answer)) == answer
        assert text.strip().isascii()

    fuzz(check, examples)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_random_specs_and_codes_parse_or_are_refused(examples):
    specs = st.one_of(
        st.text(max_size=10),
        st.builds(lambda p, c, n, b: f"p{p}c{c}{n}{b}", st.integers(0, 120), st.integers(0, 120),
                  st.sampled_from(["", "n"]), st.sampled_from(["", "b"])))

    @given(specs, st.text(max_size=12))
    def check(spec, code):
        try:
            game = Game.from_spec(spec)
        except OptimalMMError:
            return
        assert Game.from_spec(game.spec) == game
        try:
            colours = game.parse_code(code)
        except OptimalMMError:
            return
        assert len(colours) == game.pegs

    fuzz(check, examples)


# ------------------------------------------------------------ play's state
MASTERMIND = Game.from_spec("p3c4")


def _first_remaining(secrets, depth):
    return int(secrets[0])


@pytest.mark.parametrize("examples", EXAMPLES)
def test_random_histories_keep_plays_state_consistent(examples):
    game = MASTERMIND
    actions = st.lists(st.one_of(
        st.tuples(st.just("truth")),
        st.tuples(st.just("say"), ANSWER_TEXT),
        st.tuples(st.just("answer"), st.sampled_from(game.possible_answers)),
        st.tuples(st.just("undo"))), max_size=12)

    @given(st.integers(0, game.n_codes - 1), actions)
    def check(secret, steps):
        breaker = Codebreaker(game, chooser=_first_remaining)
        remaining_before = []
        for step in steps:
            if breaker.solved:
                break
            guess = breaker.next_guess()
            if step[0] == "undo":
                if breaker.history:
                    breaker.undo()
                    assert breaker.remaining == remaining_before.pop()
                continue
            answer = (game.score(guess, secret) if step[0] == "truth"
                      else step[1])
            before = breaker.remaining
            try:
                breaker.tell(answer)
            except (InvalidAnswerError, InconsistentAnswersError):
                assert breaker.remaining == before  # nothing recorded
                continue
            remaining_before.append(before)
            # What is left agrees with every answer given, and nothing else is.
            left = np.arange(game.n_codes)
            for turn in breaker.history:
                left = left[game.answers(game.code_index(turn.guess), left) == turn.answer]
            assert breaker.remaining == len(left) >= 1
            assert len(breaker.history) == breaker.guesses
        if breaker.solved:
            assert breaker.secret == breaker.history[-1].guess

    fuzz(check, examples)
