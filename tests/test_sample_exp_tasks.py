"""The expected-case task sampler (scripts/sample_exp_tasks.py) on a small game.

Its figures estimate a long run, so its tasks must be the search's own: the values
it reports are checked against the total the search proves.
"""

import doctest
import json
from pathlib import Path

import pytest

from script_loader import load_script

ROOT = Path(__file__).resolve().parent.parent


_script = load_script


def test_forked_timing_doctest():
    result = doctest.testmod(_script("forked_timing"))
    assert result.attempted and not result.failed


def test_forked_timing_stops_a_task_at_its_limit():
    import time
    row = _script("forked_timing").time_forked(lambda: (time.sleep(30), [0] * 4), 0.2)
    assert row["finished"] is False and row["seconds_at_least"] >= 0.2


def test_sample_of_every_task_adds_up_to_the_proven_total(tmp_path):
    sampler = _script("sample_exp_tasks")
    out = tmp_path / "sample.json"
    assert sampler.main(["mastermind", "--guesses", "consistent", "--count", "100",
                         "--rivals", "276", "--rival-count", "100", "--exact-rivals",
                         "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["command"].startswith("python scripts/sample_exp_tasks.py mastermind")
    # The first guess tried first has the least probed bound, and every bound is one.
    ranking = doc["first_guesses"]
    assert doc["first_guess"] == ranking[0]["guess"]
    assert doc["root_lower_bound"] == min(r["probed_bound"] for r in ranking)
    assert all(r["balanced_bound"] <= r["probed_bound"] for r in ranking)
    # Mastermind's parts are all under SPLIT_SECRETS: one task per part, all timed.
    rows = doc["sample"]
    assert doc["phase_one"]["split_parts"] == []
    assert sorted(r["secrets"] for r in rows) == sorted(ranking[0]["parts"])
    assert all(r["finished"] for r in rows)
    # 5660 with consistent guesses only (Super Master Mind's optimal-strategy page,
    # REFERENCE.md), reached by 1123, the first guess the search tries first.
    assert doc["first_guess"] == "1123"
    assert 1296 + sum(r["result"] for r in rows) == 5660
    assert doc["root_lower_bound"] <= 5660
    # A part taken through the split with every rival: the part's own exact total.
    part = doc["rivals"]
    exact = next(r["result"] for r in rows if r["secrets"] == 276)
    assert part["incumbent"] >= exact and part["best"] == exact
    assert part["rivals"] and all(r["budget"] > r["bound"] for r in part["rivals"])
    # Each rival solved exactly agrees with its search against the budget: its total
    # when below the budget, a refutation otherwise.
    for r in part["rivals"]:
        assert r["exact"]["finished"] and r["exact"]["total"] >= exact
        if r["result"] is None:
            assert r["exact"]["total"] >= r["budget"]
        else:
            assert r["result"] == r["exact"]["total"] < r["budget"]


def test_rivals_against_a_given_budget(tmp_path):
    # --rival-budget skips the incumbent's tasks and searches the rivals against the
    # total given: against the part's exact optimum plus one, the best rival found
    # is the optimum itself or none beats it (when the first second guess is best).
    sampler = _script("sample_exp_tasks")
    exact_out, out = tmp_path / "exact.json", tmp_path / "budget.json"
    assert sampler.main(["mastermind", "--guesses", "consistent", "--count", "0",
                         "--rivals", "276", "--rival-count", "100", "-o",
                         str(exact_out)]) == 0
    exact = json.loads(exact_out.read_text())["rivals"]["best"]
    assert sampler.main(["mastermind", "--guesses", "consistent", "--count", "0",
                         "--rivals", "276", "--rival-count", "100", "--rival-budget",
                         str(exact + 1), "-o", str(out)]) == 0
    part = json.loads(out.read_text())["rivals"]
    assert part["tasks"] == [] and part["incumbent"] is None
    assert part["budget_given"] == exact + 1 and part["rivals"][0]["budget"] == exact + 1
    assert part["best"] in (exact, exact + 1)
    assert all(r["result"] is None or r["result"] >= exact for r in part["rivals"])
    # Bad input: a budget without --rivals is refused in one line.
    with pytest.raises(SystemExit) as exc:
        sampler.main(["mastermind", "--rival-budget", "100"])
    assert exc.value.code == 2


def test_estimate_doctest_and_range(tmp_path):
    estimator = _script("estimate_exp_run")
    result = doctest.testmod(estimator)
    assert result.attempted and not result.failed
    sampler = _script("sample_exp_tasks")
    out = tmp_path / "sample.json"
    assert sampler.main(["p3c5", "--guesses", "consistent", "--count", "100", "--rivals", "30",
                         "--rival-count", "100", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    figures, lines = estimator.estimate(doc, [doc])
    # No part of p3c5 is split: phase 1 is its batch, at least the tasks timed.
    assert doc["phase_one"]["split_parts"] == []
    timed = sum(r["seconds"] for r in doc["sample"])
    assert figures["low"]["phase_one_s"] >= round(timed) - 1
    assert figures["low"]["total_s"] <= figures["high"]["total_s"]
    assert lines[-1].startswith("high: phase 1 = ")


def test_worst_case_sampler_on_the_shared_timing(tmp_path):
    # sample_wc_tasks.py times its tasks with forked_timing too: within 10 guesses
    # every part of p3c4 is feasible, and each row says so as a bool.
    out = tmp_path / "wc.json"
    assert _script("sample_wc_tasks").main(["p3c4", "--first", "112", "--depth", "10",
                                            "--all", "-o", str(out)]) == 0
    rows = json.loads(out.read_text())["tasks"]
    assert rows and all(r["finished"] and r["feasible"] is True for r in rows)
    assert sum(r["secrets"] for r in rows) == 64 - 1


def test_worst_case_batch_probe_counts_its_sets(capsys):
    # --probe with --batch times the largest parts below a node in this process.
    # Mastermind within 5: after 1123 and 1234, 2 guesses are left for the parts of
    # each third guess, so only parts of at most 14 secrets are sampled.
    sampler = _script("sample_wc_tasks")
    assert sampler.main(["p4c6", "--first", "1123", "--depth", "5", "--probe", "1234",
                         "--batch", "6"]) == 0
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert row["sets"] == 6 and 0 <= row["feasible"] <= 6
    assert 2 <= row["secrets"][0] <= row["secrets"][1] <= 14
    # Within 4 no third guess leaves parts one guess can tell apart: one line, exit 2.
    assert sampler.main(["p4c6", "--first", "1123", "--depth", "4", "--probe", "1234",
                         "--batch", "6"]) == 2
    assert "no guess at that node" in capsys.readouterr().err


def test_sample_of_the_big_tasks_only(tmp_path, capsys):
    # --min-secrets keeps the sample to the tasks that decide an estimate: on
    # mastermind (first guess 1123, parts up to 276 secrets) only those of 100 or
    # more; above the largest part, one line and exit 2, nothing written.
    sampler = _script("sample_exp_tasks")
    out = tmp_path / "big.json"
    assert sampler.main(["mastermind", "--guesses", "consistent", "--count", "100",
                         "--min-secrets", "100", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    parts = doc["first_guesses"][0]["parts"]
    assert sorted(r["secrets"] for r in doc["sample"]) == sorted(p for p in parts if p >= 100)
    assert doc["min_secrets"] == 100
    none = tmp_path / "none.json"
    assert sampler.main(["mastermind", "--guesses", "consistent", "--min-secrets", "5000",
                         "-o", str(none)]) == 2
    assert "no task of 1123 has 5000 secrets or more" in capsys.readouterr().err
    assert not none.exists()
