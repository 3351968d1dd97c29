"""Strategy-tree model, files, text view, graph exports and the JSON Schema."""

import doctest
import gzip
import json
import re

import networkx as nx
import numpy as np
import pytest

from optimal_mm import Game, InvalidTreeError, OptimalMMError, Stats, Strategy
from optimal_mm import export, render
from optimal_mm.export import (from_networkx, strategy_schema, to_dot, to_networkx,
                               write_dot, write_graphml)
from optimal_mm.render import iter_visits, render_text
from optimal_mm.tree import grow

SPECS = ["p3c3", "p2c4n", "p3c4b", "mastermind"]


def first_secret(secrets, depth):
    return int(secrets[0])


def simple(spec, **rules):
    game = Game.from_spec(spec)
    return Strategy(game, grow(game, first_secret), **rules)


@pytest.fixture(scope="module")
def trees():
    return {spec: simple(spec) for spec in SPECS}


@pytest.mark.parametrize("module", [render, export])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted and not result.failed


# ---------------------------------------------------------------- model
@pytest.mark.parametrize("spec", SPECS)
def test_dict_round_trip(trees, spec):
    strategy = trees[spec]
    stats = strategy.validate()
    doc = strategy.to_dict()
    assert doc["stats"] == stats.to_dict()
    back = Strategy.from_dict(json.loads(json.dumps(doc)))
    assert back.root == strategy.root
    assert back.game == strategy.game
    assert back.declared == stats
    assert back.validate() == stats
    assert back.to_dict() == doc


@pytest.mark.parametrize("meta", [[], "", 0, False, 5, [1]])
def test_meta_must_be_an_object(trees, meta):
    # Refused whether Python reads it as true or false; null is no meta to the
    # lenient reader (as "next": null is no branches) but not to verify's strict one.
    doc = {**trees["p3c3"].to_dict(), "meta": meta}
    for strict in (False, True):
        with pytest.raises(InvalidTreeError, match="^'meta' must be an object, got "):
            Strategy.from_dict(doc, strict=strict)
    doc["meta"] = None
    assert Strategy.from_dict(doc).meta == {}
    with pytest.raises(InvalidTreeError, match="^'meta' must be an object, got null$"):
        Strategy.from_dict(doc, strict=True)


def test_known_stats_p2c3():
    # Worked out by hand: play 11; on 0B0W play 22, then 33 or 23 (then 32);
    # on 1B0W play 12, then 31, 21 or 13. One secret at guess 1, two at 2, five at 3, one at 4.
    stats = simple("p2c3").validate()
    assert stats == Stats(9, 1 + 2 * 2 + 3 * 5 + 4 * 1, 4, (1, 2, 5, 1))
    assert stats == Stats.from_counts([1, 2, 5, 1, 0])


def test_node_count_equals_secrets_for_first_secret_trees(trees):
    # Each node of a "first remaining secret" tree is played as a secret exactly once.
    for strategy in trees.values():
        assert strategy.root.count() == strategy.game.n_codes


def test_path_for(trees):
    strategy = trees["mastermind"]
    game = strategy.game
    assert strategy.path_for("1111") == ["1111"]
    for secret in ("6543", "1234", "6666", 17):
        path = strategy.path_for(secret)
        assert path[-1] == (secret if isinstance(secret, str) else game.code_str(secret))
        assert len(set(path)) == len(path)
    lengths = [len(strategy.path_for(s)) for s in range(game.n_codes)]
    assert sum(lengths) == strategy.validate().total


def test_path_for_missing_branch():
    strategy = simple("p3c3")
    strategy.root.next.pop("0B0W")
    with pytest.raises(InvalidTreeError, match="no branch 0B0W"):
        strategy.path_for("222")


# ------------------------------------------------- replay: by depth and by node
def _both_replays(strategy):
    """What each replay makes of a tree: Stats, or the class of the error raised."""
    out = []
    for replay in (strategy._replay_levels, strategy._replay_walk):
        try:
            out.append(replay())
        except Exception as exc:  # noqa: BLE001 (the walk's own errors are compared)
            out.append(type(exc))
    return out


@pytest.mark.parametrize("spec", SPECS + ["p2c4n"])
@pytest.mark.parametrize("table", [False, True], ids=["scored", "table"])
def test_replay_by_depth_agrees_with_the_walk(spec, table):
    # Without the answer table the depth replay scores its pairs as whole arrays;
    # with it, it looks answers up: the same stats as the node-by-node walk either way.
    game = Game.from_spec(spec)
    if table:
        game.answer_table()
    for rules in ({}, {"guesses": "consistent"}):
        strategy = Strategy(game, grow(game, first_secret), **rules)
        levels, walk = _both_replays(strategy)
        assert isinstance(walk, Stats) and levels == walk == strategy.validate()
        assert walk.secrets == game.n_codes


@pytest.mark.parametrize("spec", ["p3c3", "p2c4n", "p3c4b", "p4c10nb", "p5c8", "p4c6"])
def test_replay_scores_pairs_as_the_game_does(spec):
    # The depth replay scores (guess, secret) pairs as whole arrays, a slice at a time:
    # the answers of Game.answers, one guess at a time, whatever the scoring.
    from optimal_mm.tree import _answers_of

    game = Game.from_spec(spec)
    rng = np.random.default_rng(3)
    guesses = rng.integers(0, game.n_codes, 70_000)  # more than one slice
    secrets = rng.integers(0, game.n_codes, len(guesses))
    expected = np.array([game.answers(g, [s])[0] for g, s in zip(guesses, secrets)])
    assert np.array_equal(_answers_of(game, None, guesses, secrets), expected)


def _mutations(strategy, rng, count):
    """``count`` copies of ``strategy``, each with one random node damaged."""
    game = strategy.game
    keys = [game.answer_str(a) for a in range(game.n_answer_slots)]
    doc = strategy.to_dict()
    for _ in range(count):
        damaged = Strategy.from_dict(doc)
        damaged.declared = None
        nodes = [node for _, node in damaged.root.iter_nodes()]
        node = nodes[rng.integers(len(nodes))]
        kind = rng.integers(6)
        if kind == 0:  # another guess, any code
            node.guess = game.code_str(int(rng.integers(game.n_codes)))
        elif kind == 1 and node.next:  # a branch dropped
            node.next.pop(sorted(node.next)[rng.integers(len(node.next))])
        elif kind == 2:  # a branch added, perhaps impossible or all black
            node.next.setdefault(keys[rng.integers(len(keys))],
                                 type(node)(game.code_str(int(rng.integers(game.n_codes)))))
        elif kind == 3 and node.next:  # a branch under another answer
            key = sorted(node.next)[rng.integers(len(node.next))]
            node.next.setdefault(keys[rng.integers(len(keys))], node.next.pop(key))
        elif kind == 4 and node.next:  # a copy of another subtree put in place of one
            key = sorted(node.next)[rng.integers(len(node.next))]
            node.next[key] = type(node).from_dict(nodes[rng.integers(len(nodes))].to_dict())
        elif kind == 5:  # a guess written loosely, or not a code
            node.guess = rng.choice([node.guess + " ", node.guess.lower(), node.guess[:-1],
                                     "9" * len(node.guess)])
        yield damaged


@pytest.mark.parametrize("spec", ["p3c3", "p2c4n", "p3c4b"])
@pytest.mark.parametrize("guesses", ["any", "consistent"])
def test_replay_by_depth_never_accepts_what_the_walk_refuses(spec, guesses):
    # Random damage (a guess changed, a branch dropped, added or moved, a subtree
    # copied elsewhere): the depth replay gives the walk's stats or gives up (None); then
    # validate() raises the walk's error, naming the first defect.
    game = Strategy(Game.from_spec(spec), grow(Game.from_spec(spec), first_secret),
                    guesses=guesses)
    rng = np.random.default_rng(14)
    refused = 0
    for damaged in _mutations(game, rng, 100):
        levels, walk = _both_replays(damaged)
        if isinstance(walk, Stats):
            assert levels == walk  # damage the rules allow (a guess as good)
        else:
            assert levels is None
            refused += 1
            with pytest.raises(walk):
                damaged.validate()
    assert refused > 30


def test_save_writes_a_validated_tree_once(tmp_path, trees, monkeypatch):
    # save() with the stats of a validation just made writes the same file without
    # replaying again; without them, it replays.
    strategy = trees["p3c3"]
    stats = strategy.validate()
    strategy.save(tmp_path / "a.json")
    calls = []
    monkeypatch.setattr(Strategy, "_replay", lambda self: calls.append(1) or stats)
    strategy.save(tmp_path / "b.json", stats=stats)
    assert calls == [] and (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    strategy.save(tmp_path / "c.json")
    assert calls == [1]


# ----------------------------------------------------------------- files
@pytest.mark.parametrize("name", ["t.json", "t.json.gz"])
@pytest.mark.parametrize("indent", [None, 2])
def test_save_load(tmp_path, trees, name, indent):
    strategy = trees["p3c4b"]
    path = tmp_path / name
    stats = strategy.save(path, indent=indent)
    raw = path.read_bytes()
    assert (raw[:2] == b"\x1f\x8b") == name.endswith(".gz")
    text = (gzip.decompress(raw) if name.endswith(".gz") else raw).decode("utf-8")
    doc = json.loads(text)
    assert list(doc) == sorted(doc)
    assert ("\n" in text) == bool(indent)
    loaded = Strategy.load(path)
    assert loaded.validate() == stats
    assert loaded.root == strategy.root
    assert not list(tmp_path.glob(".*.tmp"))


def test_save_refuses_broken_tree_and_keeps_good_file(tmp_path, trees):
    path = tmp_path / "t.json"
    good = trees["p3c3"]
    good.save(path)
    before = path.read_bytes()
    broken = Strategy.from_dict(good.to_dict())
    broken.declared = None
    del broken.root.next["0B0W"]
    with pytest.raises(InvalidTreeError, match="missing branch 0B0W"):
        broken.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json"]


# ---------------------------------------------------------------- render
def test_render_full(trees):
    strategy = trees["p3c3"]
    text = render_text(strategy)
    lines = text.splitlines()
    assert len(lines) == strategy.root.count()
    assert lines[0] == "111  (27 secrets)"
    assert "hidden" not in text
    for line in lines[1:]:
        assert re.fullmatch(r"( {2})+\dB\dW -> [123]{3}  \(\d+ secrets?\)", line), line
    # Leaves (a guess that is the last secret) are reached by exactly one secret.
    assert text.count("(1 secret)") == sum(1 for _, n in strategy.root.iter_nodes()
                                            if not n.next)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_render_depth(trees, depth):
    strategy = trees["mastermind"]
    text = render_text(strategy, depth=depth)
    shown = [ln for ln in text.splitlines() if "->" in ln or not ln.startswith(" ")][:-1]
    shown_count = sum(1 for d, _ in strategy.root.iter_nodes() if d <= depth)
    hidden = strategy.root.count() - shown_count
    assert len(shown) == shown_count
    assert text.splitlines()[-1] == f"({hidden} nodes hidden below depth {depth})"
    markers = [int(m) for m in re.findall(r"\.\.\. (\d+) nodes? hidden", text)]
    assert sum(markers) == hidden
    assert all(ln.startswith("  " * depth + "...") for ln in text.splitlines()
               if "..." in ln)


def test_render_deep_enough_is_full(trees):
    strategy = trees["p2c4n"]
    assert render_text(strategy, depth=50) == render_text(strategy)


@pytest.mark.parametrize("depth", [0, -1, 1.5, True, "2"])
def test_render_bad_depth(trees, depth):
    with pytest.raises(OptimalMMError, match="depth"):
        render_text(trees["p3c3"], depth=depth)


def test_visits_count_secrets(trees):
    strategy = trees["p3c4b"]
    visits = list(iter_visits(strategy))
    assert [v.id for v in visits] == list(range(len(visits)))
    assert visits[0].reached == strategy.game.n_codes
    by_id = {v.id: v for v in visits}
    for v in visits[1:]:
        assert by_id[v.parent].depth == v.depth - 1
    stats = strategy.validate()
    # Each secret is won at the node that plays it: leaves and inner nodes alike.
    assert sum(v.depth for v in visits) == stats.total


# --------------------------------------------------------------- networkx
@pytest.mark.parametrize("spec", SPECS)
def test_networkx_round_trip(trees, spec):
    strategy = trees[spec]
    graph = to_networkx(strategy)
    assert nx.is_arborescence(graph)
    assert graph.number_of_nodes() == strategy.root.count()
    assert graph.nodes[0]["secrets"] == strategy.game.n_codes
    assert graph.nodes[0]["depth"] == 1
    for u, v, data in graph.edges(data=True):
        assert graph.nodes[v]["depth"] == graph.nodes[u]["depth"] + 1
        assert re.fullmatch(r"\dB(\dW)?", data["answer"])
    back = from_networkx(graph)
    assert back.root == strategy.root
    assert back.game == strategy.game
    assert back.validate() == strategy.validate()
    # An explicit game and rules override the graph attributes.
    again = from_networkx(graph, strategy.game, objective="first")
    assert again.objective == "first" and again.root == strategy.root


def test_networkx_keeps_rules():
    strategy = simple("p3c3", guesses="consistent", objective="first", max_guesses=5)
    back = from_networkx(to_networkx(strategy))
    assert (back.guesses, back.objective, back.max_guesses, back.optimal) == (
        "consistent", "first", 5, False)


def test_from_networkx_refuses_non_trees(trees):
    graph = to_networkx(trees["p3c3"])
    two_roots = graph.copy()
    two_roots.add_node("x", guess="111")
    with pytest.raises(InvalidTreeError, match="exactly one root"):
        from_networkx(two_roots)
    two_parents = graph.copy()
    two_parents.add_edge(1, 5, answer="0B0W")
    with pytest.raises(InvalidTreeError, match="parents"):
        from_networkx(two_parents)
    no_guess = graph.copy()
    del no_guess.nodes[3]["guess"]
    with pytest.raises(InvalidTreeError, match="no string 'guess'"):
        from_networkx(no_guess)
    broken = graph.copy()
    broken.remove_node(max(broken.nodes))
    with pytest.raises(InvalidTreeError, match="missing branch"):
        from_networkx(broken)
    no_game = nx.DiGraph(graph)
    no_game.graph.clear()
    with pytest.raises(InvalidTreeError, match="no game given"):
        from_networkx(no_game)
    assert from_networkx(no_game, Game.from_spec("p3c3")).root == trees["p3c3"].root


def test_to_networkx_refuses_broken_tree():
    strategy = simple("p3c3")
    strategy.root.next["0B0W"].guess = "11"
    with pytest.raises(InvalidTreeError, match="illegal guess"):
        to_networkx(strategy)


# -------------------------------------------------------------- DOT, GraphML
def _dot_statements(text):
    """Split DOT text outside quoted strings (a small check of the quoting)."""
    out, cur, quoted, escaped = [], [], False, False
    for ch in text:
        if quoted:
            cur.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        if ch in ";{}":
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    assert not quoted, "unterminated string"
    return [s for s in out if s]


def test_dot(trees):
    strategy = trees["p3c3"]
    text = to_dot(strategy)
    assert text.startswith('digraph "strategy" {') and text.rstrip().endswith("}")
    assert text.count("{") == text.count("}") == 1
    statements = _dot_statements(text)
    nodes = [s for s in statements if re.fullmatch(r'"n\d+" \[label=".*"(, peripheries="2")?\]', s)]
    edges = [s for s in statements if re.fullmatch(r'"n\d+" -> "n\d+" \[label="\dB\dW"\]', s)]
    assert len(nodes) == strategy.root.count()
    assert len(edges) == strategy.root.count() - 1
    assert len(statements) == 1 + 3 + len(nodes) + len(edges)
    assert '"n0" [label="111\\n27 secrets"]' in text


def test_dot_quotes_awkward_alphabet():
    game = Game(2, 3, alphabet='"\\x')
    strategy = Strategy(game, grow(game, first_secret))
    text = to_dot(strategy)
    assert '[label="\\"\\"\\n9 secrets"]' in text      # guess "" (two quote marks)
    assert '\\\\' in text                              # the backslash colour, doubled
    assert len(_dot_statements(text)) == 4 + 2 * strategy.root.count() - 1


def test_write_dot_and_graphml(tmp_path, trees):
    strategy = trees["p2c4n"]
    dot = tmp_path / "t.dot"
    write_dot(strategy, dot)
    assert dot.read_text("utf-8") == to_dot(strategy)
    graphml = tmp_path / "t.graphml"
    write_graphml(strategy, graphml)
    graph = nx.read_graphml(graphml)
    assert graph.number_of_nodes() == strategy.root.count()
    assert graph.nodes["0"]["guess"] == strategy.root.guess
    back = from_networkx(graph)
    assert back.root == strategy.root and back.game == strategy.game
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.dot", "t.graphml"]


def test_write_keeps_old_file_on_failure(tmp_path):
    strategy = simple("p3c3")
    out = tmp_path / "t.dot"
    out.write_text("old")
    strategy.root.next.pop("1B0W")
    with pytest.raises(InvalidTreeError):
        write_dot(strategy, out)
    with pytest.raises(InvalidTreeError):
        write_graphml(strategy, out)
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["t.dot"]


# ----------------------------------------------------------------- schema
def test_schema_is_packaged():
    schema = strategy_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"game", "stats", "node-black-white", "node-black"} <= set(schema["$defs"])


@pytest.mark.parametrize("spec", SPECS)
def test_schema_accepts_good_documents(trees, spec):
    jsonschema = pytest.importorskip("jsonschema")
    schema = strategy_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = trees[spec].to_dict()
    doc["meta"] = {"solver": "test", "seconds": 0.5}
    jsonschema.Draft202012Validator(schema).validate(doc)


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(format="other"),
    lambda d: d.update(version=2),
    lambda d: d["game"].update(scoring="white"),
    lambda d: d["game"].pop("alphabet"),
    lambda d: d.update(guesses="some"),
    lambda d: d.update(max_guesses=0),
    lambda d: d["stats"].pop("total"),
    lambda d: d["root"].update(colour="red"),
    lambda d: d["root"]["next"].update({"1B": {"guess": "123"}}),   # black-only key
    lambda d: d["root"]["next"].update({"01B0W": {"guess": "123"}}),
    lambda d: d["root"].update(guess=111),
    lambda d: d.pop("root"),
])
def test_schema_rejects_bad_documents(trees, corrupt):
    jsonschema = pytest.importorskip("jsonschema")
    doc = trees["p3c3"].to_dict()
    corrupt(doc)
    assert list(jsonschema.Draft202012Validator(strategy_schema()).iter_errors(doc))


def test_schema_black_only_keys(trees):
    jsonschema = pytest.importorskip("jsonschema")
    doc = trees["p3c4b"].to_dict()
    doc["root"]["next"]["0B0W"] = doc["root"]["next"].pop("0B")
    assert list(jsonschema.Draft202012Validator(strategy_schema()).iter_errors(doc))


def test_consistent_first_secret_tree_is_consistent():
    # "first remaining secret" always plays a possible secret: valid in hard mode.
    strategy = simple("mastermind", guesses="consistent")
    assert strategy.validate().secrets == 1296
