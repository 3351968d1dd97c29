#!/usr/bin/env python3
"""Extrapolate an expected-case run from the samples of sample_exp_tasks.py.

The run's work, in the terms of :class:`optimal_mm.search.Solver`:

* the *batch* of phase (1): every task of the first guess tried first (the parts
  under SPLIT_SECRETS secrets, and the parts of the first second guess of each
  bigger part). Each task's time is the time measured for a task of that size when
  one was timed, else the power law ``seconds = a * secrets**k`` fitted (least
  squares on logarithms) to the timed tasks of 200 secrets or more (the big tasks, which dominate);
* the *rivals* of phase (1): for each big part ``P``, its ``R_P`` other second
  guesses (every one whose bound is below the incumbent, at most all of them), each
  costing a fraction ``f`` of its incumbent's tasks ``C_P``; ``f`` is read from the
  rivals timed with ``--rivals`` (their states over the incumbent's states; a rival
  that did not finish gives a lower bound, its time over ``C_P``);
* phase (2): the other first-guess classes whose probed bound is below the value
  of (1), each one task of about the cost of (1) times the same ``f``.

It prints the arithmetic and a range: *low* with ``f`` the mean over the rivals
that finished (in states) and every class but one searched in phase (2); *high*
with ``f`` the largest of the lower bounds that unfinished rivals give (in
seconds) and of the costs of the rivals solved exactly (``--exact-rivals``, in
states), and every class searched. The caveat goes with it: the samples ran under load, with cold
tables, few rivals were timed, and a rival's cost depends on how soon its parts
exceed the budget.

Usage::

    python scripts/estimate_exp_run.py results/p5c8-exp-consistent-sample.json \\
        results/p5c8-exp-consistent-rivals-1024.json results/p5c8-exp-consistent-rivals-7051.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys


def timed_tasks(docs):
    """``(secrets, seconds)`` of every finished task in the sample files (processor
    time where it was recorded, else wall time)."""
    rows = []
    for doc in docs:
        rows += doc.get("sample", [])
        rows += doc.get("rivals", {}).get("tasks", [])
        for rival in doc.get("rivals", {}).get("rivals", []):
            rows += rival.get("exact", {}).get("tasks", [])
    return [(r["secrets"], _seconds(r)) for r in rows if r.get("finished")]


def _seconds(row):
    """A timed row's processor time where recorded, else its wall time; for an
    unfinished row, the least it would have taken."""
    if row.get("finished"):
        return row.get("cpu_seconds", row["seconds"])
    return row.get("cpu_seconds_at_least", row["seconds_at_least"])


def fit_power_law(points, least=200):
    """``(a, k)`` with ``seconds ~ a * secrets**k``, least squares on logarithms
    over the tasks of ``least`` secrets or more (all of them if fewer than two
    sizes are that big).

    >>> a, k = fit_power_law([(100, 1.0), (200, 8.0), (400, 64.0)])
    >>> round(a * 100 ** k, 6), round(k, 6)
    (1.0, 3.0)
    """
    pts = [(math.log(n), math.log(s)) for n, s in points if n >= least and s > 0]
    if len({x for x, _ in pts}) < 2:  # too few big tasks: every task
        pts = [(math.log(n), math.log(s)) for n, s in points if n >= 2 and s > 0]
    if len({x for x, _ in pts}) < 2:
        raise ValueError(f"the samples hold {len(pts)} timed tasks of 2 secrets or more, "
                         f"of fewer than two sizes: nothing to fit")
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    k = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return math.exp(my - k * mx), k


def task_seconds(sizes, measured, a, k):
    """Seconds of tasks of these ``sizes``: measured where a task of that size was
    timed (the mean), the power law elsewhere."""
    return sum(sum(measured[n]) / len(measured[n]) if n in measured else a * n ** k
               for n in sizes)


def estimate(sample, rival_docs):
    """The estimate as a dict of named figures (seconds) and the lines that show how."""
    points = timed_tasks([sample, *rival_docs])
    measured = {}
    for n, s in points:
        measured.setdefault(n, []).append(s)
    a, k = fit_power_law(points)
    lines = [f"fit on {sum(1 for n, _ in points if n >= 200)} timed tasks of 200+ secrets: "
             f"seconds = {a:.3g} * secrets^{k:.2f}"]
    phase_one = sample["phase_one"]
    batch = task_seconds(phase_one["task_sizes"], measured, a, k)
    lines.append(f"batch of phase 1: {phase_one['tasks']} tasks, {batch:.0f} s")
    fractions, lower, exact = [], [], []
    for doc in rival_docs:
        part = doc["rivals"]
        incumbent_states = sum(t["states"] for t in part["tasks"])
        incumbent_seconds = sum(_seconds(t) for t in part["tasks"])
        for r in part["rivals"]:
            if r.get("finished"):
                fractions.append(r["states"] / max(incumbent_states, 1))
            else:
                lower.append(_seconds(r) / incumbent_seconds)
            if r.get("exact", {}).get("finished"):
                exact.append(sum(t["states"] for t in r["exact"]["tasks"])
                             / max(incumbent_states, 1))
    f_low = sum(fractions) / len(fractions) if fractions else max(lower, default=0.0)
    f_high = max([f_low, *lower, *exact])
    lines.append(f"rival / incumbent: {len(fractions)} finished rivals, mean {f_low:.2f} "
                 f"(states); unfinished rivals at least "
                 f"{', '.join(f'{x:.2f}' for x in lower) or 'none'} (seconds); rivals "
                 f"solved exactly {', '.join(f'{x:.2f}' for x in exact) or 'none'} (states)")
    rivals = {}
    for part in phase_one["split_parts"]:
        c = task_seconds(part["parts"], measured, a, k)
        rivals[part["secrets"]] = (part["second_guesses"] - 1, c)
        lines.append(f"  part of {part['secrets']}: incumbent {c:.0f} s, "
                     f"{part['second_guesses'] - 1} rivals")
    rival_seconds = sum(r * c for r, c in rivals.values())
    lines.append(f"rivals of phase 1: sum of R_P * C_P = {rival_seconds:.0f} s, times f")
    classes = len(sample["first_guesses"]) - 1
    out = {}
    for name, f, k2 in (("low", f_low, classes - 1), ("high", f_high, classes)):
        one = batch + f * rival_seconds
        total = one * (1 + f * k2)
        out[name] = {"f": round(f, 2), "phase_one_s": round(one), "rival_classes": k2,
                     "total_s": round(total)}
        lines.append(f"{name}: phase 1 = {batch:.0f} + {f:.2f} * {rival_seconds:.0f} = "
                     f"{one:.0f} s; whole run = {one:.0f} * (1 + {f:.2f} * {k2}) = "
                     f"{total:.0f} s = {total / 3600:.1f} h on one core")
    return out, lines


def _load(path, keys) -> dict:
    """The JSON object of a sample file, refused in one line (a ``ValueError``) unless
    it has ``keys``, as the files of sample_exp_tasks.py do."""
    with open(path) as fh:
        doc = json.load(fh)
    missing = [k for k in keys if not isinstance(doc, dict) or k not in doc]
    if missing:
        raise ValueError(f"{path}: not a file of sample_exp_tasks.py of this kind (no "
                         f"{', '.join(repr(k) for k in missing)})")
    return doc


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", help="a file of sample_exp_tasks.py (its phase-one sample)")
    parser.add_argument("rivals", nargs="+", help="files of sample_exp_tasks.py --rivals")
    args = parser.parse_args(argv)
    sample = _load(args.sample, ("sample", "phase_one", "first_guesses"))
    rival_docs = [_load(path, ("rivals",)) for path in args.rivals]
    _, lines = estimate(sample, rival_docs)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("estimate_exp_run.py", main))
