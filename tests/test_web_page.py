"""The page in a real headless Chromium (Debian's chromium and chromedriver), by Selenium.

Every test drives the page served by :func:`optimal_mm.web.make_server` as a
person would (clicks, typing, the file input) and checks what it shows against
the Python library: the answers offered against the tree, the codes still
possible against the rules, scores against :meth:`Game.score`, error messages
against :meth:`Strategy.from_dict` and :meth:`Strategy.validate`.

A screenshot of each page state is kept in ``test-artifacts/browser/`` (the run
prints the directory) for a person to look at. The tests are marked ``browser``
and skip when chromium, chromedriver or selenium are missing.
"""

from __future__ import annotations

import json
import random
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from browser_artifacts import ARTIFACTS
from optimal_mm import Game
from optimal_mm.errors import InvalidTreeError
from optimal_mm.heuristics import build_strategy
from optimal_mm.tree import Strategy, read_json
from optimal_mm.web import make_server, page_url, site_files

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
DATA = Path(__file__).resolve().parents[1] / "optimal_mm" / "data"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                       reason="needs Debian's chromium and chromium-driver "
                              "(apt-get install chromium chromium-driver)"),
]
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--window-size=1300,1000")


@pytest.fixture(scope="module")
def url():
    files, skipped = site_files()
    assert not skipped
    server = make_server(files, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield page_url(server)
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    # An explicit driver path: Selenium Manager then downloads nothing.
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots():
    """``shots(driver, name)`` saves a screenshot; the run's summary names the directory
    (tests/conftest.py)."""
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    taken = []

    def shoot(driver, name):
        path = ARTIFACTS / f"{len(taken) + 1:02d}-{name}.png"
        driver.save_screenshot(str(path))
        taken.append(path)

    yield shoot


def open_page(driver, url, tree=None):
    driver.get(url + (f"?tree={tree}" if tree else ""))
    wait_ready(driver, tree)


def wait_ready(driver, tree=None, state="ready"):
    def ready(d):
        body = d.find_element(By.TAG_NAME, "body")
        return (body.get_attribute("data-state") == state
                and (tree is None or body.get_attribute("data-tree") == tree))
    WebDriverWait(driver, 20).until(ready)


def wait_refused(driver, name):
    """Wait until the page refuses the file ``name``: its state alone does not say
    which file, since the one before may have been refused too (the check once read
    the previous file's message, the new one not yet read)."""
    def refused(d):
        body = d.find_element(By.TAG_NAME, "body")
        return (body.get_attribute("data-state") == "error"
                and f"'{name}'" in d.find_element(By.ID, "error").text)
    WebDriverWait(driver, 20).until(refused)


def texts(driver, selector):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def attrs(driver, selector, name):
    return [e.get_attribute(name) for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def css(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def click_answer(driver, key: str) -> None:
    """Click the solver's button for the answer ``key`` (``"1B2W"``)."""
    css(driver, f'#solver-answers button[data-answer="{key}"]').click()


def hardest_secret(strategy: Strategy) -> str:
    """A secret the tree needs the most guesses for (the first such in code order).

    The nodes deepest in a valid tree are leaves, each winning with its own guess.
    """
    deepest = max(depth for depth, _ in strategy.root.iter_nodes())
    return min((node.guess for depth, node in strategy.root.iter_nodes() if depth == deepest),
               key=strategy.game.code_index)


def play_solver(driver, strategy: Strategy, secret: str, shots=None, label=""):
    """Answer the page's guesses for ``secret``; check each state against Python."""
    game = strategy.game
    node, history = strategy.root, []
    while True:
        shown = css(driver, "#solver-guess .code").get_attribute("data-code")
        assert shown == node.guess
        remaining = np.arange(game.n_codes)
        for g, a in history:
            remaining = remaining[game.answers(game.code_index(g), remaining) == a]
        remaining = remaining.tolist()
        assert driver.find_element(By.ID, "solver-count").text == str(len(remaining))
        if len(remaining) <= 40:
            assert texts(driver, "#solver-codes .possible") == [game.code_str(s) for s in remaining]
        offered = attrs(driver, "#solver-answers button", "data-answer")
        allowed = set(node.next) | ({game.answer_str(game.win)}
                                     if game.code_index(node.guess) in remaining else set())
        assert set(offered) == allowed
        answer = game.score(node.guess, secret)
        history.append((node.guess, answer))
        if shots and len(history) == 2:
            shots(driver, f"{label}-solver-after-1-answer")
        click_answer(driver, game.answer_str(answer))
        if answer == game.win:
            return history
        node = node.next[game.answer_str(answer)]


def test_scoring_matches_python(browser, url):
    open_page(browser, url)
    script = """
        const [specs, done] = [arguments[0], arguments[arguments.length - 1]];
        import("./rules.js").then(({Game}) => done(specs.map(([rules, pairs]) => {
            const game = new Game(rules);
            return pairs.map(([g, s]) =>
                game.answerKey(game.score(game.parseCode(g), game.parseCode(s))));
        })));
    """
    rng = random.Random(13)
    cases = []
    for spec in ("p3c4", "p3c5n", "p3c4b", "p2c7nb"):  # every pair
        game = Game.from_spec(spec)
        codes = [game.code_str(i) for i in range(game.n_codes)]
        cases.append((game, [(g, s) for g in codes for s in codes]))
    for spec in ("mastermind", "bulls-and-cows", "p6c9"):  # a sample
        game = Game.from_spec(spec)
        cases.append((game, [(game.code_str(rng.randrange(game.n_codes)),
                              game.code_str(rng.randrange(game.n_codes))) for _ in range(2000)]))
    got = browser.execute_async_script(script, [[g.to_dict(), pairs] for g, pairs in cases])
    for (game, pairs), keys in zip(cases, got):
        assert keys == [game.answer_str(game.score(g, s)) for g, s in pairs], game.spec


def test_full_game_mastermind_with_undo_and_chart(browser, url, shots):
    strategy = Strategy.load(DATA / "mastermind.json.gz")
    stats = strategy.validate()
    open_page(browser, url, "mastermind.json.gz")
    bars = browser.find_elements(By.CSS_SELECTOR, "#length-chart rect.bar")
    assert [int(b.get_attribute("data-count")) for b in bars] == list(stats.depth_counts)
    shots(browser, "mastermind-start")
    secret = hardest_secret(strategy)
    # One wrong answer, undone: the page must come back to the root's state.
    right = strategy.game.answer_str(strategy.game.score(strategy.root.guess, secret))
    first_wrong = sorted(k for k in strategy.root.next if k != right)[0]
    click_answer(browser, first_wrong)
    assert attrs(browser, "#solver-path li", "data-answer") == [first_wrong]
    browser.find_element(By.ID, "solver-undo").click()
    assert texts(browser, "#solver-path li") == []
    history = play_solver(browser, strategy, secret, shots, "mastermind")
    assert [g for g, _ in history] == strategy.path_for(secret)
    result = browser.find_element(By.ID, "solver-result").text
    assert f"your secret is {secret}, found with {len(history)} guesses" in result
    assert attrs(browser, "#solver-path li", "data-guess") == strategy.path_for(secret)
    current = browser.find_elements(By.CSS_SELECTOR, "#length-chart rect.bar.current")
    assert [b.get_attribute("data-guesses") for b in current] == [str(len(history))]
    shots(browser, "mastermind-solved")


def test_full_game_bulls_and_cows_picked_from_the_list(browser, url, shots):
    strategy = Strategy.load(DATA / "bulls-and-cows.json.gz")
    open_page(browser, url)
    Select(browser.find_element(By.ID, "tree-select")).select_by_value("bulls-and-cows.json.gz")
    wait_ready(browser, "bulls-and-cows.json.gz")
    assert "bulls-and-cows (p4c10n, 5040 codes)" in browser.find_element(By.ID, "tree-info").text
    secret = hardest_secret(strategy)
    history = play_solver(browser, strategy, secret, shots, "bulls")
    assert len(history) == strategy.validate().max
    assert f"your secret is {secret}" in browser.find_element(By.ID, "solver-result").text
    shots(browser, "bulls-solved")


def test_tree_file_loaded_through_the_file_input(browser, url, shots, tmp_path):
    strategy = build_strategy(Game.from_spec("p3c4b"), "knuth")
    stats = strategy.validate()
    plain, packed = tmp_path / "p3c4b-knuth.json", tmp_path / "p3c4b-knuth.json.gz"
    strategy.save(plain, indent=1)
    strategy.save(packed)
    open_page(browser, url)
    for path in (plain, packed):
        browser.find_element(By.ID, "tree-file").send_keys(str(path))
        wait_ready(browser, path.name)
        info = browser.find_element(By.ID, "tree-info").text
        assert "p3c4b (p3c4b, 64 codes) \u00b7 objective knuth" in info
        assert f"total {stats.total}" in info
        bars = browser.find_elements(By.CSS_SELECTOR, "#length-chart rect.bar")
        assert [int(b.get_attribute("data-count")) for b in bars] == list(stats.depth_counts)
    shots(browser, "p3c4b-loaded-from-file")
    # Dropped on the page: the drop handler gets the same file.
    open_page(browser, url)
    browser.execute_script("""
        const transfer = new DataTransfer();
        transfer.items.add(new File([arguments[0]], "dropped.json"));
        document.body.dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true}));
    """, plain.read_text())
    wait_ready(browser, "dropped.json")
    assert "objective knuth" in browser.find_element(By.ID, "tree-info").text
    play_solver(browser, strategy, "432")
    assert "your secret is 432" in browser.find_element(By.ID, "solver-result").text


def python_message(path: Path) -> str:
    """What the library says of a broken tree file (after the file name)."""
    with pytest.raises(InvalidTreeError) as caught:
        Strategy.from_dict(read_json(path)).validate()
    return str(caught.value)


def test_damaged_and_foreign_files_refused(browser, url, shots, tmp_path):
    good = read_json(DATA / "mastermind.json.gz")
    broken = json.loads(json.dumps(good))
    del broken["root"]["next"]["0B0W"]
    foreign = {"format": "chess-pgn", "moves": ["e4"]}
    wrong_guess = json.loads(json.dumps(good))
    wrong_guess["root"]["next"]["0B1W"]["guess"] = "1127"

    def changed(**fields):
        return json.dumps({**good, **fields})

    bad_key = json.loads(json.dumps(good))
    bad_key["root"]["next"]["00B0W"] = bad_key["root"]["next"].pop("0B0W")
    extra_field = json.loads(json.dumps(good))  # named by its path: root > 1122 0B1W
    extra_field["root"]["next"]["0B1W"]["colour"] = "red"
    files = {"missing-branch.json": json.dumps(broken), "foreign.json": json.dumps(foreign),
             "illegal-guess.json": json.dumps(wrong_guess), "answer-key.json": json.dumps(bad_key),
             "extra-field.json": json.dumps(extra_field),
             "version-2.json": changed(version=2),
             "no-pegs.json": changed(game={**good["game"], "pegs": 0}),
             "stats.json": changed(stats={**good["stats"], "total": 5624}),
             "no-root.json": json.dumps({k: v for k, v in good.items() if k != "root"}),
             "list.json": "[1, 2]", "cut-short.json": json.dumps(good)[:500]}
    open_page(browser, url, "mastermind.json.gz")
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        message = python_message(path)
        browser.find_element(By.ID, "tree-file").send_keys(str(path))
        wait_refused(browser, name)
        shown = browser.find_element(By.ID, "error").text
        if name == "cut-short.json":  # the JSON parsers word the cause differently
            assert shown.startswith(f"This file cannot be used: '{name}' is truncated JSON")
        else:
            assert shown == f"This file cannot be used: '{name}': {message}"
        # The tree in use stays.
        in_use = browser.find_element(By.TAG_NAME, "body").get_attribute("data-tree")
        assert in_use == "mastermind.json.gz"
        if name == "missing-branch.json":
            shots(browser, "refused-missing-branch")
    damaged = tmp_path / "damaged.json.gz"
    data = bytearray((DATA / "mastermind.json.gz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(InvalidTreeError, match="damaged gzip"):
        read_json(damaged)
    browser.find_element(By.ID, "tree-file").send_keys(str(damaged))
    wait_refused(browser, damaged.name)
    assert browser.find_element(By.ID, "error").text.startswith(
        "This file cannot be used: 'damaged.json.gz' is a damaged gzip file")
    shots(browser, "refused-damaged-gzip")


def test_challenge_won_by_following_the_tree(browser, url, shots):
    strategy = Strategy.load(DATA / "mastermind.json.gz")
    game = strategy.game
    open_page(browser, url, "mastermind.json.gz")
    browser.find_element(By.ID, "tab-challenge").click()
    field = browser.find_element(By.ID, "challenge-input")
    field.send_keys("12\n")
    assert (browser.find_element(By.ID, "challenge-error").text
            == "code '12' has 2 symbols; p4c6 codes have 4")
    field.clear()
    node, played = strategy.root, []
    while True:
        browser.find_element(By.ID, "challenge-hint").click()
        hint = css(browser, "#challenge-hint-text .code")
        assert hint.get_attribute("data-code") == node.guess
        field.send_keys(node.guess + "\n")
        rows = browser.find_elements(By.CSS_SELECTOR, "#challenge-history tbody tr")
        assert len(rows) == len(played) + 1
        answer = rows[-1].get_attribute("data-answer")
        played.append((node.guess, answer, int(rows[-1].find_element(By.CLASS_NAME, "left").text)))
        if len(played) == 1:
            shots(browser, "challenge-after-1-guess")
        if answer == game.answer_str(game.win):
            break
        node = node.next[answer]
    result = browser.find_element(By.ID, "challenge-result")
    secret = result.get_attribute("data-secret")
    assert secret == played[-1][0]
    assert result.text == (f"You found {secret} in {len(played)} guess{'es' * (len(played) > 1)}. "
                           f"The tree needs {len(strategy.path_for(secret))} guesses for it.")
    for i, (guess, answer, left) in enumerate(played):
        assert answer == game.answer_str(game.score(guess, secret))
        assert left == sum(all(game.score(g, s) == game.parse_answer(a)
                               for g, a, _ in played[:i + 1])
                           for s in range(game.n_codes))
    shots(browser, "challenge-won")
    browser.find_element(By.ID, "challenge-new").click()
    assert browser.find_elements(By.CSS_SELECTOR, "#challenge-history tbody tr") == []
    browser.find_element(By.ID, "challenge-reveal").click()
    secret = result.get_attribute("data-secret")
    needs = len(strategy.path_for(secret))
    assert result.text == (f"The secret was {secret}. "
                           f"The tree needs {needs} guess{'es' * (needs > 1)} for it.")


def test_tree_browser_from_root_and_current_position(browser, url, shots):
    strategy = Strategy.load(DATA / "mastermind.json.gz")
    game, root = strategy.game, strategy.root
    open_page(browser, url, "mastermind.json.gz")

    def rows():  # (answer key, guess) of every row shown, read in one call
        return [tuple(row) for row in browser.execute_script("""
            return [...document.querySelectorAll('#tree li.node')]
                .filter((li) => li.offsetParent !== null)
                .map((li) => {
                    const key = li.querySelector(':scope > .row .key');
                    return [key ? key.textContent.split(' ')[0] : null,
                            li.querySelector(':scope > .row .guess').textContent];
                });""")]

    def ordered(node):
        return sorted(node.next.items(), key=lambda kv: game.parse_answer(kv[0]))

    first_level = [(None, root.guess)] + [(k, child.guess) for k, child in ordered(root)]
    assert rows() == first_level
    key, child = ordered(root)[3]
    css(browser, '#tree li[data-node-id] > ul > li:nth-child(4) > .row').click()
    assert rows()[:5] == first_level[:5]
    assert rows()[5:5 + len(child.next)] == [(k, c.guess) for k, c in ordered(child)]
    browser.find_element(By.ID, "browse-collapse").click()
    assert rows() == first_level
    # Play two answers, then show the tree from there.
    secret = hardest_secret(strategy)
    for guess in strategy.path_for(secret)[:2]:
        answer = game.answer_str(game.score(guess, secret))
        click_answer(browser, answer)
    here = root.next[game.answer_str(game.score(root.guess, secret))]
    here = here.next[game.answer_str(game.score(here.guess, secret))]
    browser.find_element(By.ID, "browse-current").click()
    assert rows()[0][1] == here.guess
    assert rows()[1:] == [(k, c.guess) for k, c in ordered(here)]
    browser.find_element(By.ID, "browse-expand").click()
    assert len(rows()) == 1 + len(here.next) + sum(len(c.next) for c in here.next.values())
    assert "current" in css(browser, "#tree li.node").get_attribute("class")
    shots(browser, "tree-from-current-position")
    browser.find_element(By.ID, "browse-root").click()
    shown = rows()
    first_key = game.answer_str(game.score(root.guess, secret))
    path = [root, root.next[first_key], here]
    assert set(first_level) <= set(shown)
    at = shown.index((first_key, path[1].guess)) + 1  # the path played is open below it
    assert shown[at:at + len(path[1].next)] == [(k, c.guess) for k, c in ordered(path[1])]
    marked = browser.execute_script(
        "return [...document.querySelectorAll('#tree li.on-path > .row .guess')]"
        ".map((e) => e.textContent)")
    assert marked == [node.guess for node in path]
    assert css(browser, "#tree li.current > .row .guess").text == here.guess
    shots(browser, "tree-from-root-path-open")
