"""``optimal-mm serve`` and ``optimal-mm site`` without a browser.

The page's behaviour is tested in headless Chromium (tests/test_web_page.py);
here: the files the page needs are all there (the static page, every shipped
tree, the catalogue), the server answers them over loopback and nothing else,
and the site is written whole or refused.
"""

from __future__ import annotations

import doctest
import gzip
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from optimal_mm.cli import main
from optimal_mm import Game
from optimal_mm.tree import Strategy, grow
from optimal_mm.web import make_server, page_url, site_files, tree_catalogue, write_site
from optimal_mm.web.site import SOURCE_TREES, static_files

PACKAGE = Path(__file__).resolve().parents[1] / "optimal_mm"
SHIPPED = sorted(p.name for p in (PACKAGE / "data").glob("*.json*"))
RESULTS = sorted(p.name for p in SOURCE_TREES.glob("*.json*"))
PAGE = ("index.html", "app.js", "rules.js", "format.js", "style.css")


@pytest.fixture(scope="module")
def files():
    files, skipped = site_files()
    assert skipped == []
    return files


@pytest.fixture(scope="module")
def server(files):
    server = make_server(files, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def get(url: str, method: str = "GET"):
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_doctests():
    from optimal_mm.web import server

    result = doctest.testmod(server)
    assert result.attempted and not result.failed


def test_site_holds_the_page_every_tree_and_their_catalogue(files):
    assert set(PAGE) <= set(files)
    assert RESULTS, "a source checkout has results/trees"
    trees = {name[len("trees/"):] for name in files if name.startswith("trees/")}
    assert trees == set(SHIPPED) | set(RESULTS) | {"index.json"}
    index = json.loads(files["trees/index.json"])
    assert [entry["file"] for entry in index["trees"]] == SHIPPED + RESULTS
    for entry in index["trees"]:
        folder = PACKAGE / "data" if entry["file"] in SHIPPED else SOURCE_TREES
        strategy = Strategy.load(folder / entry["file"])
        assert files[f"trees/{entry['file']}"] == (folder / entry["file"]).read_bytes()
        assert (entry["game"], entry["objective"], entry["optimal"], entry["stats"]) == (
            strategy.game.name, strategy.objective, strategy.optimal, strategy.declared.to_dict())


def test_page_loads_nothing_from_the_network():
    for name, data in static_files().items():
        text = data.decode("utf-8")
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", ""), name
        assert "https://" not in text and "//cdn" not in text, name


def test_catalogue_leaves_out_foreign_files_and_repeated_names(tmp_path):
    (tmp_path / "notes.json").write_text('{"format": "chess-pgn"}')
    (tmp_path / "README.txt").write_text("not a tree")
    (tmp_path / SHIPPED[0]).write_bytes((PACKAGE / "data" / SHIPPED[0]).read_bytes())
    entries, skipped = tree_catalogue([PACKAGE / "data", tmp_path])
    assert [e.name for e in entries] == SHIPPED
    assert skipped == [
        (f"{tmp_path}/{SHIPPED[0]}", f"a tree named {SHIPPED[0]!r} is already in the catalogue"),
        (f"{tmp_path}/notes.json", "wrong format 'chess-pgn': expected 'optimal-mm-strategy'"),
    ]


def _small_tree_doc() -> dict:
    game = Game.from_spec("p3c3")
    return Strategy(game, grow(game, lambda secrets, depth: int(secrets[0])),
                    objective="first").to_dict()


def _bad_stats(doc):
    doc["stats"]["total"] = 1


def _missing_branch(doc):
    del doc["root"]["next"][sorted(doc["root"]["next"])[0]]


def _wrong_game(doc):
    doc["game"] = {**doc["game"], "colours": 4, "alphabet": "1234"}


#: (file, damage, the defect its skip names): what ``verify`` refuses beyond the shape.
REFUSED_BY_REPLAY = [
    ("bad-stats.json", _bad_stats, "stats mismatch: file declares {'secrets': 27, 'total': 1"),
    ("missing-branch.json", _missing_branch, "root: missing branch 0B0W after guess 111"),
    ("wrong-game.json.gz", _wrong_game, "root > 111 0B0W > 222 0B0W: missing branch 0B0W "
                                        "after guess 333 (secret 444 reaches it)"),
]


def test_site_publishes_only_trees_that_verify_accepts(tmp_path, capsys):
    """A tree whose replay refutes it (stats, a missing branch, another game's codes)
    stays out of the site and its catalogue, with one line saying why, as verify would."""
    trees = tmp_path / "trees"
    trees.mkdir()
    (trees / "good.json").write_text(json.dumps(_small_tree_doc()))
    for name, damage, _ in REFUSED_BY_REPLAY:
        doc = _small_tree_doc()
        damage(doc)
        data = json.dumps(doc).encode("utf-8")
        (trees / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    out = tmp_path / "site"
    assert main(["site", "-o", str(out), "--trees", str(trees)]) == 0
    index = json.loads((out / "trees" / "index.json").read_text())
    listed = [entry["file"] for entry in index["trees"]]
    assert listed == SHIPPED + RESULTS + ["good.json"]
    assert {p.name for p in (out / "trees").iterdir()} == set(listed) | {"index.json"}
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(REFUSED_BY_REPLAY)
    for line, (name, _, defect) in zip(sorted(err), sorted(REFUSED_BY_REPLAY)):
        assert line.startswith(f"skipped {trees}/{name}: {defect}"), line


def test_server_answers_the_page_and_the_trees_over_loopback(server, files):
    url = page_url(server)
    assert url.startswith("http://127.0.0.1:")
    status, headers, body = get(url)
    assert (status, headers["Content-Type"], body) == (200, "text/html; charset=utf-8",
                                                       files["index.html"])
    status, headers, body = get(url + "app.js")
    assert (status, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    status, headers, body = get(url + "trees/mastermind.json.gz")
    assert status == 200 and "Content-Encoding" not in headers  # the page gunzips it
    assert body == (PACKAGE / "data" / "mastermind.json.gz").read_bytes()
    status, headers, body = get(url + "trees/index.json", method="HEAD")
    assert (status, body) == (200, b"")
    assert int(headers["Content-Length"]) == len(files["trees/index.json"])


@pytest.mark.parametrize("path", ["../pyproject.toml", "%2e%2e/pyproject.toml", "trees/",
                                  "optimal_mm/data/mastermind.json.gz", "/etc/passwd"])
def test_server_serves_nothing_else(server, path):
    assert get(page_url(server) + path)[0] == 404


def test_server_refuses_writing(server):
    assert get(page_url(server) + "index.html", method="PUT")[0] == 501
    assert get(page_url(server) + "index.html", method="POST")[0] == 501


def test_serve_command_prints_its_address_and_stops_on_ctrl_c():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "optimal_mm", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith("serving the page with ") and "http://127.0.0.1:" in line
        url = line.split(" at ")[1].split()[0]
        status, _, body = get(url)
        assert status == 200 and b"<title>optimal_mm" in body
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:  # say what kept it (it has failed so, rarely)
            status = Path(f"/proc/{process.pid}/status")
            masks = ([ln for ln in status.read_text().splitlines() if ln.startswith("Sig")]
                     if status.exists() else [])
            pytest.fail(f"serve did not stop within 20 s of SIGINT; its signal masks: {masks}")
    finally:
        if process.poll() is None:
            process.kill()
    assert (process.returncode, out.strip(), err) == (0, "stopped", "")


def test_site_command_writes_the_site(tmp_path, files, capsys):
    out = tmp_path / "site"
    assert main(["site", "-o", str(out)]) == 0
    written = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert written == set(files)
    assert all((out / name).read_bytes() == data for name, data in files.items())
    trees = len(SHIPPED) + len(RESULTS)
    assert f"wrote {out}: the page and {trees} trees" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no temporary left


def test_site_command_refuses_a_non_empty_directory_unless_forced(tmp_path, capsys):
    out = tmp_path / "site"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    assert main(["site", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"optimal-mm site: error: output directory {str(out)!r} is not empty: "
                   f"pass --force to replace it\n")
    assert [p.name for p in out.iterdir()] == ["mine.txt"]
    assert main(["site", "-o", str(out), "--force"]) == 0
    assert not (out / "mine.txt").exists() and (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_site_refuses_a_file_and_a_missing_parent(tmp_path):
    target = tmp_path / "taken"
    target.write_text("a file")
    with pytest.raises(ValueError, match="exists and is not a directory"):
        write_site(target, {"index.html": b"x"})
    with pytest.raises(ValueError, match="does not exist"):
        write_site(tmp_path / "no" / "site", {"index.html": b"x"})
    empty = tmp_path / "empty"
    empty.mkdir()
    write_site(empty, {"index.html": b"x", "trees/index.json": b"{}"})
    assert (empty / "trees" / "index.json").read_bytes() == b"{}"


def test_site_keeps_the_old_directory_when_writing_fails(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "old.txt").write_text("old")
    with pytest.raises(OSError):
        write_site(out, {"index.html": b"x", "index.html/inside": b"y"}, force=True)
    assert [p.name for p in out.iterdir()] == ["old.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_commands_refuse_a_missing_tree_directory_and_a_taken_port(tmp_path, capsys, server):
    assert main(["site", "-o", str(tmp_path / "site"), "--trees", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == (f"optimal-mm site: error: tree directory "
                                       f"{str(tmp_path / 'none')!r} does not exist\n")
    assert not (tmp_path / "site").exists()
    port = server.server_address[1]
    assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("optimal-mm serve: error: ") and err.count("\n") == 1


def test_a_taken_port_and_a_wrong_directory_are_refused_before_the_trees_are_read(
        tmp_path, capsys, server, monkeypatch):
    """Reading the trees replays every one of them (a second or more): ``serve`` binds
    its address and ``site`` checks its directory first, so a mistake is said at once."""
    import optimal_mm.cli.web_cmds as web_cmds

    def never(*args, **kwargs):
        raise AssertionError("the trees were read before the mistake was found")

    monkeypatch.setattr(web_cmds, "site_files", never)
    port = server.server_address[1]
    assert main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"optimal-mm serve: error: cannot listen on "
                                       f"127.0.0.1 port {port}: Address already in use\n")
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine.txt").write_text("keep me")
    for out in (taken, tmp_path / "no" / "site", taken / "mine.txt"):
        assert main(["site", "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("optimal-mm site: error: ") and err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]
    assert [p.name for p in taken.iterdir()] == ["mine.txt"]
