"""scripts/within_trees.py: which entries it tries, the trees it keeps, its report."""

import importlib
import json

import pytest

from script_loader import load_script

within_trees = load_script("within_trees")


def entry(spec, guesses, status, codes, value=None, bound=None):
    return {"spec": spec, "guesses": guesses, "objective": "worst-case", "status": status,
            "codes": codes, "value": value, "bound": bound, "seconds": 1.0}


def table(*entries):
    return {"entries": {f"{e['spec']}/{e['guesses']}/worst-case": e for e in entries}}


def test_open_entries_take_the_best_proven_lower_bound():
    t = table(entry("p3c5b", "any", "solved", 125, value=7),
              entry("p3c5b", "consistent", "timeout", 125),  # implied by any: 7
              entry("p3c6b", "any", "timeout", 216, bound=8),
              entry("p2c3", "any", "timeout", 9))  # only the counting bound
    rows = within_trees.open_worst_cases(t)
    # p2c3's counting bound: 9 codes, at most 1 + 4 + ... answers a guess can tell apart.
    assert rows == [("p2c3", "any", 3), ("p3c5b", "consistent", 7), ("p3c6b", "any", 8)]


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A scratch folder for the outputs, and the script imported by name: an entry's
    spawned process imports it by name, as it does when the script runs."""
    monkeypatch.syspath_prepend(str(within_trees.ROOT / "scripts"))
    module = importlib.import_module("within_trees")
    monkeypatch.setattr(module, "TREES", tmp_path / "trees")
    monkeypatch.setattr(module, "OUT_JSON", tmp_path / "within.json")
    monkeypatch.setattr(module, "OUT_MD", tmp_path / "within.md")
    module.scratch = tmp_path
    return module


def test_a_tree_found_is_saved_verified_and_reported(scratch):
    within_trees = scratch
    record = within_trees.run_entry("p3c5b", "any", 7, 3, 20, 120)
    assert record["found"] and record["status"] == "done"
    assert within_trees.verified(record)
    assert record["tree_stats"]["max"] <= 7
    md = within_trees.render({"entries": {"p3c5b/any": record}})
    assert "**found: t\\* = 7**" in md and "p3c5b-any-within-7.json.gz" in md
    # A tree that does not replay within its depth is not counted.
    assert not within_trees.verified(dict(record, depth=6))


def test_an_entry_under_the_first_tree_rule_says_so(scratch):
    within_trees = scratch
    from optimal_mm.tree import Strategy

    record = within_trees.run_entry("p3c5b", "any", 7, 3, 20, 120, "first")
    assert record["found"] and record["wc_tree"] == "first"
    tree = Strategy.load(within_trees.ROOT / record["tree"])
    assert tree.meta["wc_tree"] == "first" and "--wc-tree first" in tree.meta["command"]
    assert within_trees.verified(record)
    # The default rule leaves the record as it was.
    assert "wc_tree" not in within_trees.run_entry("p3c5b", "any", 7, 3, 20, 120)


def test_an_unknown_tree_rule_is_refused(scratch, capsys):
    with pytest.raises(SystemExit) as exc:
        scratch.main(["--wc-tree", "bogus"])
    assert exc.value.code == 2 and "--wc-tree" in capsys.readouterr().err


@pytest.mark.parametrize("option, value, words", [
    ("--time-limit", "-5", "--time-limit must be a positive"),
    ("--time-limit", "nan", "--time-limit must be a positive"),
    ("--breadth", "0", "breadth must be an integer of at least 1"),
    ("--exact", "-1", "exact must be an integer of at least 0"),
])
def test_options_out_of_range_are_refused(scratch, capsys, option, value, words):
    with pytest.raises(SystemExit) as exc:
        scratch.main([option, value])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and words in err[-1]


def test_none_found_is_reported_and_keeps_no_file(scratch):
    within_trees = scratch
    record = within_trees.run_entry("p3c5b", "any", 6, 3, 200, 120)
    assert not record["found"] and record["status"] == "done"
    assert not (scratch.scratch / "trees" / "p3c5b-any-within-6.json.gz").exists()
    assert "none found" in within_trees.render({"entries": {"p3c5b/any": record}})


def test_the_time_limit_kills_the_entry(scratch):
    within_trees = scratch
    # Deciding p6c4 within 5 exactly takes seconds (a tree exists): far past the
    # limit. (Refutations of black-only games served here until states came to be
    # keyed by their normal form, which made them near instant.)
    record = within_trees.run_entry("p6c4", "any", 5, 3, 10**6, 0.2)
    assert record["status"] == "timeout" and not record["found"]
    assert "> 0.2" in within_trees.render({"entries": {"p6c4/any": record}})


def test_only_an_open_entry_is_accepted(scratch, monkeypatch, capsys):
    within_trees = scratch
    path = scratch.scratch / "table.json"
    path.write_text(json.dumps(table(entry("p3c5b", "any", "solved", 125, value=7))))
    monkeypatch.setattr(within_trees, "TABLE", path)
    assert within_trees.main(["--only", "p3c5b/any"]) == 2
    assert "not an open worst case" in capsys.readouterr().err
    assert not (scratch.scratch / "within.json").exists()


def test_a_tree_found_is_not_replaced_by_a_later_search_that_found_none(scratch,
                                                                       monkeypatch):
    within_trees = scratch
    path = scratch.scratch / "table.json"
    path.write_text(json.dumps(table(entry("p3c6b", "any", "timeout", 216, bound=8))))
    monkeypatch.setattr(within_trees, "TABLE", path)
    found = {"spec": "p3c6b", "guesses": "any", "depth": 8, "found": True,
             "status": "done", "breadth": 3, "exact": 150, "tree": "t.json.gz", "seconds": 1}
    none = dict(found, found=False, breadth=1, tree=None)
    within_trees.OUT_JSON.write_text(json.dumps({"entries": {"p3c6b/any": found}}))
    monkeypatch.setattr(within_trees, "verified", lambda record: record["found"])
    monkeypatch.setattr(within_trees, "run_entry", lambda *args: dict(none))
    assert within_trees.main(["--only", "p3c6b/any", "--redo"]) == 0
    assert json.loads(within_trees.OUT_JSON.read_text())["entries"]["p3c6b/any"] == found
    # A search that found none replaces a narrower one that found none before...
    within_trees.OUT_JSON.write_text(json.dumps({"entries": {"p3c6b/any": none}}))
    monkeypatch.setattr(within_trees, "run_entry", lambda *args: dict(none, breadth=2))
    assert within_trees.main(["--only", "p3c6b/any"]) == 0
    assert json.loads(within_trees.OUT_JSON.read_text())["entries"]["p3c6b/any"]["breadth"] == 2
    # ... but not a wider one (before, a rerun at the defaults replaced p5c8nb's
    # breadth 6, exact 300 with breadth 3, exact 150)
    wide = dict(none, breadth=6, exact=300)
    within_trees.OUT_JSON.write_text(json.dumps({"entries": {"p3c6b/any": wide}}))
    assert within_trees.main(["--only", "p3c6b/any", "--redo"]) == 0
    assert json.loads(within_trees.OUT_JSON.read_text())["entries"]["p3c6b/any"] == wide


def test_the_report_says_where_the_table_has_moved_on():
    none = {"spec": "p3c6b", "guesses": "any", "depth": 8, "found": False,
            "status": "done", "breadth": 3, "exact": 150, "tree": None, "seconds": 1}
    results = {"entries": {"p3c6b/any": none}}
    raised = table(entry("p3c6b", "any", "timeout", 216, bound=9))
    assert "L since raised to 9 (refuted by its search)" in within_trees.render(results, raised)
    solved = table(entry("p3c6b", "any", "solved", 216, value=9))
    assert "t\\* = 9 since proven by its search" in within_trees.render(results, solved)
    same = table(entry("p3c6b", "any", "timeout", 216, bound=8))
    assert "since" not in within_trees.render(results, same).splitlines()[-1]
    met = table(entry("p3c6b", "any", "timeout", 216, bound=8),
                entry("p3c6b", "consistent", "solved", 216, value=8))
    assert ("t\\* = 8 since the consistent optimum meets its bound"
            in within_trees.render(results, met))


def test_upper_looks_above_the_bound_for_the_shallowest_tree(scratch, monkeypatch):
    within_trees = scratch
    path = scratch.scratch / "table.json"
    # p3c5b (t* = 7 with any guesses): its counting bound, 6, is L; --upper 3 tries
    # 7, finds a tree there and stops.
    path.write_text(json.dumps(table(entry("p3c5b", "any", "timeout", 125, bound=5))))
    monkeypatch.setattr(within_trees, "TABLE", path)
    tried = []
    real = within_trees.run_entry
    monkeypatch.setattr(within_trees, "run_entry",
                        lambda spec, guesses, depth, *rest: tried.append(depth)
                        or real(spec, guesses, depth, *rest))
    assert within_trees.main(["--upper", "3", "--exact", "200", "--time-limit", "120"]) == 0
    assert tried == [7]
    results = json.loads(within_trees.OUT_JSON.read_text())
    assert results["entries"] == {} and results["upper"]["p3c5b/any"]["depth"] == 7
    assert within_trees.least_tree("p3c5b/any", results) == 7
    md = within_trees.OUT_MD.read_text()
    assert "found: t\\* ≤ 7" in md and "p3c5b-any-within-7.json.gz" in md
    # Nothing as deep as the tree found is tried again.
    tried.clear()
    assert within_trees.main(["--upper", "3", "--exact", "200", "--time-limit", "120"]) == 0
    assert tried == []
    with pytest.raises(SystemExit):
        within_trees.main(["--upper", "-1"])


def test_upper_tries_the_shallowest_first_and_keeps_the_first_found(scratch, monkeypatch):
    within_trees = scratch
    path = scratch.scratch / "table.json"
    path.write_text(json.dumps(table(entry("p3c6b", "any", "timeout", 216, bound=8))))
    monkeypatch.setattr(within_trees, "TABLE", path)
    monkeypatch.setattr(within_trees, "verified", lambda record: record["found"])
    tried = []

    def fake(spec, guesses, depth, breadth, exact, limit, wc_tree):
        tried.append(depth)
        return {"spec": spec, "guesses": guesses, "depth": depth, "found": depth >= 10,
                "status": "done", "breadth": breadth, "exact": exact, "seconds": 1,
                "tree": "t.json.gz" if depth >= 10 else None}
    monkeypatch.setattr(within_trees, "run_entry", fake)
    assert within_trees.main(["--upper", "4"]) == 0
    assert tried == [9, 10]
    results = json.loads(within_trees.OUT_JSON.read_text())
    assert results["upper"]["p3c6b/any"]["depth"] == 10


def test_a_consistent_tree_bounds_the_any_guess_entry(scratch, monkeypatch):
    within_trees = scratch
    monkeypatch.setattr(within_trees, "verified", lambda record: record["found"])
    found = {"depth": 10, "found": True}
    results = {"entries": {}, "upper": {"p5c8nb/consistent": found}}
    assert within_trees.least_tree("p5c8nb/any", results) == 10
    results["upper"]["p5c8nb/any"] = dict(found, depth=11)
    assert within_trees.least_tree("p5c8nb/any", results) == 10
    # Not the other way round: a tree with any guesses may guess outside the secrets.
    results = {"entries": {}, "upper": {"p5c8nb/any": found}}
    assert within_trees.least_tree("p5c8nb/consistent", results) is None
