"""Charts (optimal_mm.plot, ``optimal-mm plot``, scripts/make_charts.py) and the
information of every next guess (``analyze --all``)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from optimal_mm.analysis import information_groups, remaining_after
from optimal_mm.cli import main

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"

# shared/seeds/001 (Ukrainian article on Bulls and Cows and information theory): the
# information of every second guess after 0123 scored 0 bulls 1 cow, as (bits, how
# many second guesses give it), and 4561 among the best (2.859 bits).
SEED_001_SECOND_GUESSES = [
    (0.000, 1), (0.650, 6), (0.811, 8), (0.918, 9), (1.899, 24), (2.104, 72), (2.258, 144),
    (2.268, 72), (2.365, 216), (2.372, 48), (2.530, 180), (2.624, 360), (2.664, 720),
    (2.756, 360), (2.766, 480), (2.767, 720), (2.774, 180), (2.859, 1440),
]


def run(monkeypatch, capsys, argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_information_groups_reproduce_the_seed(bulls):
    secrets = remaining_after(bulls, [("0123", "0B1W")])
    groups = information_groups(bulls, secrets)
    assert [(round(g.bits, 3), g.guesses) for g in groups] == SEED_001_SECOND_GUESSES
    assert sum(g.guesses for g in groups) == 5040  # "Разом 5040"
    # The seed's examples: 0132 gives 0.65 bits, 0148 2.53, 1045 2.774 (and cannot win),
    # the best group holds the guesses that may be the secret (4561 among them).
    by_example = {g.example: g for g in groups}
    assert round(by_example["0132"].bits, 2) == 0.65
    best = groups[-1]
    assert best.may_win == best.guesses == len(secrets)
    assert groups[-2].example == "1045" and groups[-2].may_win == 0


def test_information_groups_count_every_code(mastermind):
    secrets = remaining_after(mastermind, [("1123", "1B1W")])
    groups = information_groups(mastermind, secrets)
    assert sum(g.guesses for g in groups) == mastermind.n_codes
    assert sum(g.may_win for g in groups) == len(secrets)
    assert [g.bits for g in groups] == sorted(g.bits for g in groups)


def test_analyze_all_cli(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["analyze", "bulls-and-cows", "--after",
                                               "0123=0B1W", "--all"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "1440 of 5040 secrets remain after 0123=0B1W"
    rows = [line.split() for line in lines[3:-1]]
    assert [(float(r[0]), int(r[1])) for r in rows] == SEED_001_SECOND_GUESSES
    assert lines[-1].split() == ["total", "5040", "1440"]


def test_plot_cli_writes_a_png(monkeypatch, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out_file = tmp_path / "mm.png"
    tree = ROOT / "results" / "trees" / "mastermind-expected.json.gz"
    code, out, err = run(monkeypatch, capsys, ["plot", str(tree), "-o", str(out_file)])
    assert code == 0, err
    assert out.startswith(f"wrote {out_file} (secrets 1296, total 5625")
    assert out_file.read_bytes()[:8] == PNG
    assert [p.name for p in tmp_path.iterdir()] == ["mm.png"]  # no temporary left


def test_plot_cli_errors(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    tree = ROOT / "results" / "trees" / "mastermind-expected.json.gz"
    for argv, needle in ([["plot", str(tree), "-o", str(tmp_path / "x.txt")], "x.txt"],
                         [["plot", str(bad), "-o", str(tmp_path / "x.png")], "bad.json"]):
        code, out, err = run(monkeypatch, capsys, argv)
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_chart_functions(tmp_path):
    pytest.importorskip("matplotlib")
    from optimal_mm.plot import save_figure, table_figure

    entries = json.loads((ROOT / "results" / "optimal_table.json").read_text())["entries"]
    figure = table_figure(entries)
    axes = figure.get_axes()
    assert [ax.get_title() for ax in axes] == ["worst-case, any guesses", "expected, any guesses"]
    # One line per number of pegs with a solved pPcC entry.
    pegs = {e["spec"][1] for e in entries.values() if e["spec"].count("c") == 1
            and e["spec"][-1].isdigit() and e["guesses"] == "any" and e["status"] == "solved"
            and e["objective"] == "expected"}
    assert len(axes[1].get_lines()) == len(pegs)
    save_figure(figure, tmp_path / "table.svg")
    assert (tmp_path / "table.svg").read_text().lstrip().startswith("<?xml")


def test_make_charts_script(tmp_path):
    pytest.importorskip("matplotlib")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import make_charts
    finally:
        sys.path.pop(0)
    target = make_charts.depth_chart("mastermind", ROOT / "results" / "trees", tmp_path)
    assert target == tmp_path / "depths-mastermind.png"
    assert target.read_bytes()[:8] == PNG


def test_plot_without_matplotlib_says_what_to_install(monkeypatch, tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from optimal_mm.cli import main\n"
            f"sys.exit(main(['plot', {str(ROOT / 'results/trees/mastermind-expected.json.gz')!r},"
            f" '-o', {str(tmp_path / 'x.png')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'optimal_mm[plot]'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("script, argv", [
    ("make_charts.py", ["--results", "RESULTS"]),
])
def test_a_damaged_table_is_one_line_and_no_chart(tmp_path, script, argv):
    """An optimal table that parses but is not one ({}): one line naming the file,
    status 2, before any chart is drawn (before, a KeyError after two charts)."""
    (tmp_path / "optimal_table.json").write_text("{}")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / script),
                           *[str(tmp_path) if a == "RESULTS" else a for a in argv]],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert "optimal_table.json is not an optimal table" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["optimal_table.json"]
