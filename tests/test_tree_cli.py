"""The ``verify``, ``show`` and ``export`` commands, through ``optimal_mm.cli.main``."""

import copy
import gzip
import json

import networkx as nx
import pytest

from optimal_mm import Game, Strategy
from optimal_mm.cli import main
from optimal_mm.tree import grow


def first_secret(secrets, depth):
    return int(secrets[0])


@pytest.fixture(scope="module")
def docs():
    """Valid documents of small trees, keyed by spec (and "consistent" for hard mode)."""
    out = {}
    for spec in ("p3c3", "p2c4n", "p3c4b", "mastermind"):
        game = Game.from_spec(spec)
        out[spec] = Strategy(game, grow(game, first_secret), objective="first").to_dict()
    game = Game.from_spec("p3c3")
    out["consistent"] = Strategy(game, grow(game, first_secret), guesses="consistent",
                                 objective="first").to_dict()
    return out


def write(tmp_path, doc, name="tree.json"):
    path = tmp_path / name
    data = json.dumps(doc).encode("utf-8")
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def leaf(node):
    """Some node without branches (its guess is the last remaining secret)."""
    while node.get("next"):
        node = node["next"][sorted(node["next"])[0]]
    return node


# ------------------------------------------------------------------ verify
@pytest.mark.parametrize("spec", ["p3c3", "p2c4n", "p3c4b", "mastermind", "consistent"])
@pytest.mark.parametrize("name", ["tree.json", "tree.json.gz"])
def test_verify_accepts_valid(tmp_path, capsys, docs, spec, name):
    path = write(tmp_path, docs[spec], name)
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    assert err == ""
    game = Game.from_dict(docs[spec]["game"])
    assert f"game: {game.name} (" in out
    assert "objective: first" in out
    assert f"secrets {game.n_codes}," in out
    assert "OK:" in out


def test_verify_accepts_saved_tree(tmp_path, capsys):
    game = Game.from_spec("p2c4n")
    path = tmp_path / "t.json.gz"
    Strategy(game, grow(game, first_secret)).save(path, indent=1)
    assert run(capsys, "verify", str(path))[0] == 0


def _set(path, value):
    """A corruption that sets doc[path...] = value."""
    def corrupt(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return corrupt


def _missing_branch(doc):
    del doc["root"]["next"][sorted(doc["root"]["next"])[0]]


def _unreachable_branch(doc):
    leaf(doc["root"])["next"] = {"0B0W": {"guess": "111"}}


def _winning_branch(doc):
    leaf(doc["root"])["next"] = {"3B0W": {"guess": "111"}}


def _deep_guess(value):
    def corrupt(doc):
        node = doc["root"]["next"][sorted(doc["root"]["next"])[0]]
        node["guess"] = value
    return corrupt


def _drop(key):
    def corrupt(doc):
        del doc[key]
    return corrupt


def _stats_total(doc):
    doc["stats"]["total"] += 1


def _stats_counts(doc):
    doc["stats"]["depth_counts"][-1] += 1


# (document, corruption, words the one-line message must contain)
CORRUPTIONS = {
    "missing branch": ("p3c3", _missing_branch, "missing branch"),
    "unreachable branch": ("p3c3", _unreachable_branch, "unreachable branch 0B0W"),
    "winning branch": ("p3c3", _winning_branch, "winning answer 3B0W"),
    "guess too short": ("p3c3", _deep_guess("22"), "illegal guess: code '22' has 2 symbols"),
    "guess too long": ("p3c3", _set(["root", "guess"], "1111"), "illegal guess"),
    "guess bad symbol": ("p3c3", _deep_guess("224"), "symbol '4' outside the alphabet"),
    "guess with space": ("p3c3", _deep_guess("222 "), "not written exactly"),
    "guess repeats": ("p2c4n", _set(["root", "guess"], "11"), "repeats a colour"),
    "guess not a string": ("p3c3", _set(["root", "guess"], 111), "no string 'guess'"),
    "inconsistent guess": ("consistent", _deep_guess("123"), "inconsistent"),
    "stats total": ("p3c3", _stats_total, "stats mismatch"),
    "stats depth counts": ("mastermind", _stats_counts, "stats mismatch"),
    "stats missing": ("p3c3", _drop("stats"), "declares no 'stats'"),
    "stats bad": ("p3c3", _set(["stats"], [1, 2]), "'stats' must"),
    "cap exceeded": ("p3c3", _set(["max_guesses"], 3), "declares max_guesses 3"),
    "wrong format": ("p3c3", _set(["format"], "chess-pgn"), "wrong format 'chess-pgn'"),
    "no format": ("p3c3", _drop("format"), "wrong format None"),
    "wrong version": ("p3c3", _set(["version"], 2), "unsupported version 2"),
    "bad guesses rule": ("p3c3", _set(["guesses"], "hard"), "'guesses' must be"),
    "no root": ("p3c3", _drop("root"), "missing the field 'root'"),
    "unknown node field": ("p3c3", _set(["root", "colour"], "red"), "unknown node field"),
    "malformed key": ("p3c3", lambda d: d["root"]["next"].update({"1b": {"guess": "222"}}),
                      "malformed answer key '1b'"),
    "key with leading zero": ("p3c3",
                              lambda d: d["root"]["next"].update({"00B0W": {"guess": "222"}}),
                              "malformed answer key '00B0W'"),
    "another game p4c7": ("mastermind", _set(["game"], {"pegs": 4, "colours": 7,
                                                        "repeats": True,
                                                        "scoring": "black-white",
                                                        "alphabet": "1234567"}),
                          "missing branch"),
    "black-only tree read as black-white": ("p3c4b", _set(["game", "scoring"], "black-white"),
                                            "malformed answer key"),
    "no-repeat game read as repeats": ("p2c4n", _set(["game", "repeats"], True),
                                       "missing branch"),
    "bad game": ("p3c3", _set(["game", "pegs"], 0), "bad game: pegs must be"),
    "bad alphabet type": ("p3c3", _set(["game", "alphabet"], 123), "alphabet must"),
    "pegs as boolean": ("p3c3", _set(["game", "pegs"], True), "pegs must be"),
    "not an object": ("p3c3", lambda d: [d], "must be a JSON object"),
    # Every meta that is not an object, those that Python reads as false included.
    "meta a number": ("p3c3", _set(["meta"], 5), "'meta' must be an object, got 5"),
    "meta a list": ("p3c3", _set(["meta"], [1]), "'meta' must be an object, got [1]"),
    "meta an empty list": ("p3c3", _set(["meta"], []), "'meta' must be an object, got []"),
    "meta an empty string": ("p3c3", _set(["meta"], ""), "'meta' must be an object, got ''"),
    "meta zero": ("p3c3", _set(["meta"], 0), "'meta' must be an object, got 0"),
    "meta false": ("p3c3", _set(["meta"], False), "'meta' must be an object, got false"),
    "meta null": ("p3c3", _set(["meta"], None), "'meta' must be an object, got null"),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_verify_rejects_corrupted(tmp_path, capsys, docs, case):
    spec, corrupt, words = CORRUPTIONS[case]
    doc = copy.deepcopy(docs[spec])
    doc = corrupt(doc) or doc   # a corruption may return a new document
    path = write(tmp_path, doc)
    code, out, err = run(capsys, "verify", path)
    assert code == 2
    assert out == ""
    assert err.startswith("optimal-mm verify: error: ")
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    assert words is None or words in err, err
    assert "tree.json" in err


#: (corruption, the whole message after the file name): a node's shape is named by its
#: path as replay names it, ``root > GUESS ANSWER > ...`` (docs/FORMAT.md).
NODE_SHAPE_PATHS = {
    "extra field": (_set(["root", "next", "0B0W", "next", "1B0W", "colour"], "red"),
                    "root > 111 0B0W > 222 1B0W: unknown node field(s) ['colour']"),
    "next not an object": (_set(["root", "next", "0B0W", "next"], [1]),
                           "root > 111 0B0W: 'next' must be an object, got [1]"),
    "node not an object": (_set(["root", "next", "0B0W", "next", "1B0W"], "x"),
                           "root > 111 0B0W > 222 1B0W: a node must be an object, got 'x'"),
    "extra field at the root": (_set(["root", "colour"], "red"),
                                "root: unknown node field(s) ['colour']"),
}


@pytest.mark.parametrize("case", sorted(NODE_SHAPE_PATHS))
def test_verify_names_a_node_by_its_guesses_and_answers(tmp_path, capsys, docs, case):
    corrupt, message = NODE_SHAPE_PATHS[case]
    doc = copy.deepcopy(docs["p3c3"])
    corrupt(doc)
    path = write(tmp_path, doc)
    code, out, err = run(capsys, "verify", path)
    assert (code, out, err) == (2, "", f"optimal-mm verify: error: {path!r}: {message}\n")


def _good_bytes(doc):
    return json.dumps(doc).encode("utf-8")


FILE_DEFECTS = {
    "truncated JSON": (lambda raw: raw[: len(raw) // 2], "truncated JSON"),
    "malformed JSON": (lambda raw: raw.replace(b":", b"=", 1), "malformed JSON"),
    "empty file": (lambda raw: b"", "JSON"),
    "not UTF-8": (lambda raw: b"\xff\xfe" + raw, "not UTF-8"),
    "gzip damaged": (lambda raw: (lambda z: z[:20] + bytes(b ^ 0x55 for b in z[20:60])
                                  + z[60:])(gzip.compress(raw)), "damaged gzip"),
    "gzip truncated": (lambda raw: gzip.compress(raw)[:-30], "damaged gzip"),
    "gzip bad checksum": (lambda raw: (lambda z: z[:-8] + bytes(4) + z[-4:])(gzip.compress(raw)),
                          "damaged gzip"),
}


@pytest.mark.parametrize("case", sorted(FILE_DEFECTS))
def test_verify_rejects_damaged_files(tmp_path, capsys, docs, case):
    damage, words = FILE_DEFECTS[case]
    path = tmp_path / "tree.json.gz"
    path.write_bytes(damage(_good_bytes(docs["p3c3"])))
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in err, err


@pytest.mark.parametrize("where", ["missing.json", "."])
def test_verify_rejects_missing_file(tmp_path, capsys, where):
    code, out, err = run(capsys, "verify", str(tmp_path / where))
    assert code == 2 and out == ""
    assert err.startswith("optimal-mm verify: error: cannot read")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["verify", "show", "export"])
def test_help(capsys, command):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "FILE" in out and len(out.splitlines()) > 5


# -------------------------------------------------------------------- show
def test_show(tmp_path, capsys, docs):
    path = write(tmp_path, docs["p3c3"])
    code, out, err = run(capsys, "show", path)
    assert code == 0 and err == ""
    assert "game: p3c3" in out
    assert "\n111  (27 secrets)\n" in out
    assert "  0B0W -> 222  (8 secrets)\n" in out
    assert "hidden" not in out


def test_show_depth(tmp_path, capsys, docs):
    path = write(tmp_path, docs["mastermind"], "t.json.gz")
    code, out, err = run(capsys, "show", path, "--depth", "2")
    assert code == 0
    tree = out.split("\n\n", 1)[1].splitlines()
    assert tree[0] == "1111  (1296 secrets)"
    assert tree[-1] == "(1291 nodes hidden below depth 2)"
    assert "    ... 624 nodes hidden" in tree


@pytest.mark.parametrize("depth", ["0", "-2", "x"])
def test_show_bad_depth(tmp_path, capsys, docs, depth):
    with pytest.raises(SystemExit) as info:
        main(["show", write(tmp_path, docs["p3c3"]), "--depth", depth])
    assert info.value.code == 2
    assert "--depth" in capsys.readouterr().err


def test_show_rejects_broken(tmp_path, capsys, docs):
    doc = copy.deepcopy(docs["p3c3"])
    _missing_branch(doc)
    code, out, err = run(capsys, "show", write(tmp_path, doc))
    assert code == 2 and out == "" and "missing branch" in err and err.count("\n") == 1


# ------------------------------------------------------------------ export
@pytest.mark.parametrize("args, name", [
    (["--to", "dot"], "out.txt"), ([], "out.gv"), ([], "out.DOT"),
])
def test_export_dot(tmp_path, capsys, docs, args, name):
    out_path = tmp_path / name
    code, out, err = run(capsys, "export", write(tmp_path, docs["p3c3"]), *args, "-o",
                         str(out_path))
    assert code == 0, err
    text = out_path.read_text("utf-8")
    assert text.startswith('digraph "strategy" {') and text.endswith("}\n")
    assert text.count(" -> ") == 26
    assert "wrote" in out


def test_export_graphml(tmp_path, capsys, docs):
    out_path = tmp_path / "out.graphml"
    code, out, err = run(capsys, "export", write(tmp_path, docs["p3c4b"], "t.json.gz"),
                         "-o", str(out_path))
    assert code == 0, err
    graph = nx.read_graphml(out_path)
    assert graph.number_of_nodes() == 64
    assert graph.graph["scoring"] == "black"


def test_export_refuses_bad_input_and_keeps_output(tmp_path, capsys, docs):
    doc = copy.deepcopy(docs["p3c3"])
    _stats_total(doc)
    src = write(tmp_path, doc)
    fresh = tmp_path / "fresh.dot"
    code, _, err = run(capsys, "export", src, "-o", str(fresh))
    assert code == 2 and "stats mismatch" in err and err.count("\n") == 1
    assert not fresh.exists()
    old = tmp_path / "old.graphml"
    old.write_text("keep me")
    code, _, err = run(capsys, "export", src, "-o", str(old))
    assert code == 2
    assert old.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.graphml", "tree.json"]


@pytest.mark.parametrize("target, words", [
    ("out.png", "cannot tell the format"),
    ("nowhere/out.dot", "does not exist"),
    (".", "is a directory"),
])
def test_export_refuses_bad_output(tmp_path, capsys, docs, target, words):
    src = write(tmp_path, docs["p3c3"])
    argv = ["export", src, "-o", str(tmp_path / target)]
    if target == ".":
        argv[2:2] = ["--to", "dot"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_export_refuses_overwriting_input(tmp_path, capsys, docs):
    src = tmp_path / "tree.dot"
    src.write_text(json.dumps(docs["p3c3"]))
    code, _, err = run(capsys, "export", str(src), "-o", str(src))
    assert code == 2 and "overwrite the input" in err
    assert json.loads(src.read_text()) == docs["p3c3"]
