"""scripts/time_chain_rivals.py: an expected-case search with chains, stopped when
it begins the rival after the N-th. Its figures compare two checkouts on the same
work, so the work up to there must be the same from run to run, and the search
must be left as it was found."""

from __future__ import annotations

import pytest

from optimal_mm import search_tasks
from optimal_mm.errors import OptimalMMError
from script_loader import load_script

_script = load_script("time_chain_rivals")


def _run(rivals):
    return _script.run("mastermind", "any", rivals, 60, 60, 60_001)


def test_the_work_up_to_the_nth_rival_is_the_same_each_run():
    real = search_tasks._rival
    first, again = _run(40), _run(40)
    assert search_tasks._rival is real  # restored
    assert first["rivals"] == again["rivals"] == 40 and not first["ended"]
    assert (first["states"], first["guesses"]) == (again["states"], again["guesses"])
    whole = _run(10**9)
    assert whole["ended"] and whole["rivals"] > 40
    assert whole["states"] > first["states"] > 0


def test_it_prints_the_rivals_time_and_states(capsys):
    assert _script.main(["mastermind", "--chain-secrets", "60", "--split-secrets", "60",
                         "--rivals", "10", "--table-entries", "60001"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mastermind (any guesses): 10 rivals, stopped; ")
    assert "s of processor time" in out and "states" in out


def test_bad_input_is_refused():
    with pytest.raises(OptimalMMError, match="too many to search"):
        _script.main(["p4c99", "--rivals", "5"])
    with pytest.raises(SystemExit):
        _script.main(["mastermind", "--rivals", "0"])
