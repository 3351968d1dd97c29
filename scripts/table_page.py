"""The optimal table's Markdown page (``results/optimal_table.md``), made from its entries.

One row per game and guess rule, one column pair (value, seconds) per objective:
:func:`markdown`. A solved cell shows its value; an open one what its searches
proved and what other cells imply about it (:func:`open_cell`), each kind of
inference with its own mark and a note below the table that says why it holds:

* ``*`` the other guess rule (:func:`bounds_text`): a strategy of consistent
  guesses is one of any guesses;
* ``§`` the same game under the other scoring (:func:`same_game`): a permutation
  game tells as much with black pegs only;
* ``‡`` a tree of ``scripts/within_trees.py`` that closes an open worst case
  (:func:`closed_by_tree`);
* ``°`` a best that is the tree the search started from, not one it built.

Every mark is earned by a rule that holds for any entries; the page says nothing the
JSON does not hold. The page is rewritten with the JSON (:mod:`table_store`).
"""

from __future__ import annotations

import re

from table_entries import OBJECTIVES, eligible, games, same_worst_case
# The trees that close open worst cases (their own script, results/within.json).
from within_trees import least_tree


def bounds_text(entry, twin=None, marks=("", ""), same_cap: bool = False) -> str:
    """A cell of an entry that is not solved: ``(timeout)``, and what its searches
    had proven when stopped (``(timeout) ≥ 18402, ≤ 18763``).

    ``twin``, the same game and objective under the other guess rule, adds what it
    implies, marked ``*``: a strategy of consistent guesses is also one of any
    guesses, so the optimum with any guesses is at most the consistent one (at most
    its value if solved, else its best tree), and the consistent one at least the
    optimum with any guesses (at least its value, else its proven bound)
    (``(timeout) ≥ 8, ≤ 9*``). For the capped objectives (``fewest-at-worst``,
    ``worst-then-expected``) this holds only where both rules have the same optimal
    worst case, the cap of both searches (``same_cap``): then the consistent trees
    within the cap are some of the any-guess ones. A capped cell never collapses to
    a lone value, since its tie-break (the total) stays unproven.
    """
    text = f"({entry['status']})"
    low, high = entry.get("bound"), entry.get("best")
    low_text = high_text = ""
    if low is not None:
        low_text = f"≥ {low}{marks[0]}"
    if high is not None:
        high_text = f"≤ {high}{marks[1]}"
        if _from_ceiling(entry):
            high_text += "°"
    capped = entry.get("objective") in ("fewest-at-worst", "worst-then-expected")
    if (twin and entry.get("status") == "timeout"
            and (entry["objective"] in ("worst-case", "expected") or capped and same_cap)):
        solved = twin.get("status") == "solved"
        if entry["guesses"] == "any":
            value = twin["value"] if solved else twin.get("best")
            if value is not None and (high is None or value < high):
                high, high_text = value, f"≤ {value}*"
        else:
            value = twin["value"] if solved else twin.get("bound")
            if value is not None and (low is None or value > low):
                low_text = f"≥ {value}*"
    if entry.get("status") == "timeout" and entry.get("objective") == "worst-case":
        proven = max([v for v in (low, _implied_low(entry, twin)) if v is not None],
                     default=None)
        tree = closed_by_tree(entry["spec"], entry["guesses"])
        if proven is not None and tree == proven:
            return f"{tree}‡"
        if tree is not None and (high is None or tree < high):
            high, high_text = tree, f"≤ {tree}‡"
    if (entry.get("status") == "timeout" and low is not None and high_text == f"≤ {low}*"
            and not capped):
        return f"{low}*"  # its own bound meets what the other rule's optimum implies
    known = [t for t in (low_text, high_text) if t]
    return text + (" " + ", ".join(known) if known else "")


def same_game(spec: str):
    """The spec of the same game under the other scoring, for a permutation game (as
    many colours as pegs, no repeats: every code has every colour, so whites are
    ``P - blacks`` and black-only scoring tells exactly as much), else None.

    >>> same_game("p7c7n"), same_game("p7c7nb"), same_game("p6c7n")
    ('p7c7nb', 'p7c7n', None)
    """
    m = re.fullmatch(r"p(\d+)c(\d+)n(b?)", spec)
    if not m or m.group(1) != m.group(2):
        return None
    return spec[:-1] if m.group(3) else spec + "b"


def with_same_game(entry, same):
    """An open ``entry`` with the bounds of its twin under the other scoring
    (:func:`same_game`) where they are better, and the marks of :func:`bounds_text`
    (``§`` on what the twin gives)."""
    low, high = entry.get("bound"), entry.get("best")
    other_low, other_high = (same or {}).get("bound"), (same or {}).get("best")
    merged, marks = dict(entry), ["", ""]
    if other_low is not None and (low is None or other_low > low):
        merged["bound"], marks[0] = other_low, "§"
    if other_high is not None and (high is None or other_high < high):
        merged["best"], marks[1] = other_high, "§"
    return merged, tuple(marks)


def same_game_text(entry, same) -> str | None:
    """The cell of an open entry of a permutation game whose twin under the other
    scoring (:func:`same_game`, same guess rule and objective) knows more: its value
    (``3924§``), or both entries' bounds combined (``(timeout) ≥ 29423§, ≤ 33389``,
    ``§`` on what the twin gives); None where the twin adds nothing."""
    if not same or entry.get("status") == "solved":
        return None
    if same.get("status") == "solved":
        return f"{same['value']}§"
    merged, marks = with_same_game(entry, same)
    return bounds_text(merged, None, marks) if marks != ("", "") else None


def open_cell(entries, entry) -> str:
    """The cell of an open entry: what its searches proved (:func:`bounds_text`), with
    what the other guess rule's entry implies (``*``; that entry's value may come from
    the same game under the other scoring) and the twin under the other scoring's
    bounds (``§``), or the twin's value where it is solved."""
    spec, guesses, objective = entry["spec"], entry["guesses"], entry["objective"]
    other = "consistent" if guesses == "any" else "any"
    twin = entries.get(f"{spec}/{other}/{objective}")
    same_spec = same_game(spec)
    same = entries.get(f"{same_spec}/{guesses}/{objective}") if same_spec else None
    if same and same.get("status") == "solved":
        return same_game_text(entry, same)
    twin_same = entries.get(f"{same_spec}/{other}/{objective}") if same_spec else None
    if twin_same and twin_same.get("status") == "solved" and (
            not twin or twin.get("status") != "solved"):
        twin = twin_same  # the other rule's optimum, known through the same game
    merged, marks = with_same_game(entry, same)
    if objective == "worst-then-expected":
        # A tree within t* is a tree: its total is at least the optimum without a cap.
        total = entries.get(f"{spec}/{guesses}/expected", {})
        if total.get("status") == "solved" and (merged.get("bound") is None
                                                or total["value"] > merged["bound"]):
            merged["bound"], marks = total["value"], ("", marks[1])
    return bounds_text(merged, twin, marks, same_cap=twin is not None and same_worst_case(
        entries, entry, twin))


SAME_GAME_NOTE = ("§ from the same game under the other scoring: in a permutation game "
                  "(pPcPn, as many colours as pegs, no repeats) every code has every "
                  "colour, so the whites are P minus the blacks and pPcPn and pPcPnb "
                  "tell the same; their solved entries above agree row for row.")


def _from_ceiling(entry) -> bool:
    """Whether a timed-out entry's best is the tree its search started from
    (:func:`table_entries.ceiling_for`), not one it built: marked ``°``.

    >>> _from_ceiling({"status": "timeout", "best": 7, "ceiling": {"value": 7}})
    True
    >>> _from_ceiling({"status": "timeout", "best": 6, "ceiling": {"value": 7}})
    False
    """
    ceiling = entry.get("ceiling")
    return (entry.get("status") == "timeout" and ceiling is not None
            and entry.get("best") == ceiling["value"])


def _ceiling_note(entries) -> str:
    """The legend of ``°``: each entry whose cell shows it, and its tree (not those
    whose cell shows a better bound that the other guess rule implies)."""
    cells = [f"{k} (`{e['ceiling']['tree']}`)" for k, e in sorted(entries.items())
             if _from_ceiling(e) and "°" in open_cell(entries, e)]
    return ("° the best tree known is one of `results/trees/` that the entry's search "
            "started from (`optimal_mm.search.UpperBound`: a tree of its guess rule "
            "within its cap, such as the worst case's own or an earlier run's best, "
            "replayed), not one it built: " + "; ".join(cells) + ".")


def _implied_low(entry, twin):
    """The lower bound a consistent entry takes from its any-guess twin, or None."""
    if not twin or entry.get("guesses") != "consistent":
        return None
    return twin["value"] if twin.get("status") == "solved" else twin.get("bound")


def closed_by_tree(spec: str, guesses: str):
    """The fewest guesses of a tree ``scripts/within_trees.py`` found for this open
    worst case, replayed for every secret (results/within.json), or None."""
    return least_tree(f"{spec}/{guesses}")


CLOSED_NOTE = ("‡ a tree of this many guesses found by the bounded search of "
               "`optimal-mm within`, replayed for every secret (`python "
               "scripts/within_trees.py`, results/within.md): alone (*8‡*) it closes the "
               "entry, the entry's search (or, for consistent guesses, the any-guess "
               "entry) having proved that one guess fewer does not suffice; after *≤* it "
               "is an upper bound. A tree of consistent guesses counts for the any-guess "
               "entry too.")

IMPLIED_NOTE = ("* implied by the entry of the other guess rule (its value, or what its "
                "search had proven): a strategy of consistent guesses is also one of any "
                "guesses, so the optimum with any guesses is at most the consistent one "
                "(in the columns *at t\\** and *total ≤ t\\**, where both rules have the "
                "same t\\*). Alone (*11\\**), the entry's own proven lower bound meets "
                "that upper bound: the optimum.")


def markdown(entries, meta) -> str:
    lines = [
        "# Proven optima of small Mastermind-family games",
        "",
        "Every value below was proven by this project's exact search "
        "(`python scripts/optimal_tables.py`), on " + meta["machine"] + ", one process per "
        f"entry (jobs 1; {meta.get('parallel', 1)} entries at a time), time limit "
        f"{meta['time_limit']} s each; *s* is the search time in "
        "seconds, tree replay excluded. Spec: `pPcC`, suffix `n` = no "
        "repeated colours, `b` = black-only scoring. *t\\** = fewest guesses that always "
        "suffice; *total* = least number of guesses summed over all secrets (final guess "
        "included); *at t\\** = fewest secrets that need all t\\* guesses, over the trees "
        "with the optimal worst case (`--objective fewest-at-worst`; the least total among "
        "those trees follows the slash; runs since 2026-12-01 take the worst-case entry's "
        "t\\* as their cap, `--max-guesses`, and prove it again: one secret or more at "
        "t\\* in the best tree within t\\* means that none keeps within t\\* - 1); "
        "*total ≤ t\\** = least total within t\\* guesses "
        "(`--objective worst-then-expected`), run where the optimal expected tree needs "
        "more than t\\* guesses (blank elsewhere: there it equals *total*; *(not run)* "
        "where it is needed but has not been run yet). An entry "
        "that timed out shows what its search had proven when stopped (worst case and "
        "expected, runs since 2026-11-25; at t\\*, runs from the day's later commits; "
        "total ≤ t\\*, runs from 2026-11-27): "
        "≥ its lower bound (a total within t\\*, at least the total without the cap), "
        "≤ the best complete tree it had found (its total, or its "
        "secrets at t\\*; for some, that tree is in `results/upper_trees.md`, "
        "replayed for every secret; runs since 2026-12-04 start from the best tree of "
        "`results/trees/` that fits the entry's cap and guess rule, named in the JSON "
        "as its `ceiling`); `*` marks what the other guess rule's entry "
        "implies. "
        "`results/black_only.md` brackets the open entries further. Agreement with "
        "a published value is marked: = agrees, ≠ DISAGREES. The runs that made the "
        "table, each with its command, follow it (\"The runs, oldest first\").",
        "",
        "| game | codes | guesses | t* | s | total | average | s | at t* | s | total ≤ t* "
        "| s | published |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    by_key = {}
    for e in entries.values():
        by_key.setdefault((e["codes"], e["spec"], e["guesses"]), {})[e["objective"]] = e
    for (codes, spec, guesses), objs in sorted(by_key.items()):
        wc, ex = objs.get("worst-case", {}), objs.get("expected", {})
        fa, we = objs.get("fewest-at-worst", {}), objs.get("worst-then-expected", {})

        def cell(e, key):
            if not e:
                return "", ""
            if e["status"] != "solved":
                return (open_cell(entries, e),
                        f"> {e['seconds']}" if e["status"] == "timeout" else "")
            resumed = "†" if e.get("resumed_tasks") else ""
            return str(e[key]), f"{e['seconds']:.2f}{resumed}"

        t, ts = cell(wc, "value")
        tot, es = cell(ex, "value")
        at_worst, fs = cell(fa, "value")
        if fa.get("status") == "solved":
            at_worst += f" / {fa['tree_total']}"
        capped, ws = cell(we, "value")
        if not we and eligible(entries, spec, guesses, "worst-then-expected"):
            capped = "(not run)"  # needed (the optimal tree is deeper than t*), not yet run
        avg = f"{ex['value'] / codes:.4f}" if ex.get("status") == "solved" else ""
        notes = []
        for e in (wc, ex, we):
            if e and e.get("published") is not None:
                mark = "=" if e.get("value") == e["published"] else (
                    "?" if e["status"] != "solved" else "≠")
                notes.append(f"{e['published']} {mark} ({e['source']})")
        lines.append(f"| {spec} | {codes} | {guesses} | {t} | {ts} | {tot} | {avg} | {es} | "
                     f"{at_worst} | {fs} | {capped} | {ws} | {'; '.join(notes)} |")
    if any("*" in line for line in lines[-len(by_key):]):
        lines += ["", IMPLIED_NOTE]
    if any("§" in line for line in lines[-len(by_key):]):
        lines += ["", SAME_GAME_NOTE]
    if any("‡" in line for line in lines[-len(by_key):]):
        lines += ["", CLOSED_NOTE]
    if any("°" in line for line in lines[-len(by_key):]):
        lines += ["", _ceiling_note(entries)]
    floored = sorted(k for k, e in entries.items()
                     if e.get("status") == "solved" and e.get("floor"))
    if floored:
        lines += ["", "Solved with another entry's optimum as a lower bound "
                  "(`optimal_mm.search.LowerBound`: the search stops where its tree meets "
                  "it, the rivals left unsearched; the two proofs together prove the "
                  "entry): " + "; ".join(_floor_text(k, entries[k]) for k in floored) + "."]
    if any(e.get("resumed_tasks") for e in entries.values()):
        lines += ["", "† the last sitting of an entry solved over several "
                  "(`--checkpoint`): it read the tasks finished before from its checkpoint; "
                  "the runs below give the whole time."]
    missing = [f"{spec}/{guesses}/{objective}" for spec in games(meta.get("max_codes", 5000))
               for guesses in ("any", "consistent") for objective in OBJECTIVES
               if f"{spec}/{guesses}/{objective}" not in entries
               and eligible(entries, spec, guesses, objective)]
    if missing:
        lines += ["", f"Not run yet ({len(missing)}; a rerun of the command resumes with "
                  "them): " + ", ".join(missing) + "."]
    runs = [*([meta["note"]] if meta.get("note") else []),
            *(_run_text(run) for run in meta.get("runs", []))]
    if runs:
        lines += ["", "## The runs, oldest first", ""] + "\n\n".join(runs).split("\n")
    return "\n".join(lines) + "\n"


def _floor_text(key: str, entry: dict) -> str:
    """An entry solved with a floor, for the table's note: which entry's optimum,
    its tree where its subtrees bounded the parts on its path too, and why it bounds."""
    floor = entry["floor"]
    tree = (f" and its tree's subtrees (`{floor['tree']}`)"
            if floor.get("tree") else "")
    return (f"{key} ({floor['entry']}'s {floor['value']}{tree}: "
            f"{_floor_why(key, floor['entry'])})")


def _floor_why(key: str, source: str) -> str:
    """Why the solved entry ``source`` bounds the entry ``key`` from below
    (:func:`table_entries.floor_for`): an uncapped optimum bounds a capped one, an any-guess
    optimum a consistent one."""
    if source.rsplit("/", 1)[1] != key.rsplit("/", 1)[1]:
        return "a tree within t\\* is a tree"
    return "consistent guesses are guesses"


def _run_text(run) -> str:
    """The paragraph on a run after the first (its own command, limit, when it began
    where recorded, and remark)."""
    began = f" (begun {run['started']})" if run.get("started") else ""
    text = (f"Then `{run['command']}`{began}: one process per entry (jobs "
            f"{run.get('jobs', 1)}; {run['parallel']} at a time), time limit "
            f"{run['time_limit']} s each.")
    return text + (f" {run['note']}" if run.get("note") else "")
