"""The HTML guide in a real browser: headless Chromium driven by Playwright.

Skipped, with the reason, when Playwright or Chromium is missing.  Chromium is
Debian's ``chromium`` package (``/usr/bin/chromium``), never a browser that
Playwright downloads.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

import strategytree as st
from strategytree.export import to_html
from strategytree.formats.lookup import lookup_rows
from strategytree.guide import GuideTree

import naive

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

DATA = Path(__file__).parent / "data"
CHROMIUM = (os.environ.get("STRATEGYTREE_CHROMIUM") or shutil.which("chromium")
            or "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: the issue's budget for opening the whole MM(5,8) guide, and for each click
BUDGET = 2.0

if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium is not installed ({CHROMIUM} is missing; apt-get install chromium)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        try:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except sync_api.Error as problem:  # a broken install: say why, do not fail the suite
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {problem}")
        yield chromium
        chromium.close()


def open_guide(browser, path: Path):
    page = browser.new_page()
    page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:")
               else route.continue_())  # the page must need no network
    started = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    return page, time.perf_counter() - started


def play(page, secret: str, pegs: int) -> int:
    """Click through a game against ``secret``; return the guess count the page shows."""
    for _ in range(50):
        guess = page.inner_text("#guess").replace("\n", "").replace(" ", "")
        b, w = naive.feedback(guess, secret)
        step = page.inner_text("#step")
        page.click(f"#replies button[data-reply='{b}{w}']")
        if b == pegs:
            page.wait_for_selector("#result[data-guesses]")
            assert secret in page.inner_text("#result")
            return int(page.get_attribute("#result", "data-guesses"))
        page.wait_for_function(
            "s => document.getElementById('step').textContent !== s", arg=step
        )
    raise AssertionError(f"no win for {secret} in 50 guesses")


def test_play_games_by_clicking(browser, tmp_path: Path) -> None:
    strategy, game = st.load(DATA / "arfst-4-6-6.txt"), st.mastermind(4, 6)
    tree = GuideTree.build(strategy, game)
    path = tmp_path / "guide.html"
    path.write_text(to_html(tree, title="arfst-4-6-6"), encoding="utf-8")
    page, _ = open_guide(browser, path)
    assert page.inner_text("#step") == "Guess 1:"
    want = {r.secret: r.guesses for r in lookup_rows(tree)}
    for secret in ("AABB", "FEDC", "CAFE"):
        page.click("#restart")
        assert play(page, secret, 4) == want[secret]
        assert page.locator("#path li").count() == want[secret]
    # back undoes the win, then the last reply; restart goes to the first guess
    page.click("#back")
    assert page.get_attribute("#result", "data-guesses") is None
    assert page.locator("#replies button").count() > 0
    page.click("#back")
    assert page.inner_text("#step") == f"Guess {want['CAFE'] - 1}:"
    page.click("#restart")
    assert page.inner_text("#step") == "Guess 1:" and page.locator("#path li").count() == 0
    # each reply button says how many secrets remain behind it
    labels = page.locator("#replies button .n").all_inner_texts()
    counts = [int(t.split()[0].replace(",", "")) for t in labels if "left" in t]
    assert sum(counts) + ("that is the secret" in labels) == 1296


def test_play_after_a_path(browser, tmp_path: Path) -> None:
    tree = GuideTree.build(
        st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}"),
        st.mastermind(2, 3))
    path = tmp_path / "sub.html"
    path.write_text(to_html(tree, tree.locate("AB 10")), encoding="utf-8")
    page, _ = open_guide(browser, path)
    assert page.inner_text("#step") == "Guess 2:"
    assert play(page, "CB", 2) == 3


@pytest.fixture(scope="session")
def mm58_strategy(request, tmp_path_factory) -> Path:
    """An MM(5,8) entropy strategy, built once (and kept in pytest's cache between runs)."""
    name = f"mm58-entropy-{st.__version__}.txt"
    try:
        folder = Path(request.config.cache.mkdir("strategytree"))
    except (AttributeError, OSError):  # no cache (-p no:cacheprovider, read-only checkout)
        folder = tmp_path_factory.mktemp("mm58")
    path = folder / name
    if not path.exists():
        from strategytree.builders import build_greedy

        st.dump(build_greedy(st.mastermind(5, 8), rule="entropy"), path)
    return path


def test_the_mm58_guide_opens_and_responds_in_time(browser, mm58_strategy: Path,
                                                   tmp_path: Path) -> None:
    tree = GuideTree.build(st.load(mm58_strategy), st.mastermind(5, 8))
    path = tmp_path / "mm58.html"
    path.write_text(to_html(tree, title="MM(5,8)"), encoding="utf-8")
    page, opened = open_guide(browser, path)
    # navigation to first render
    in_page = float(page.get_attribute("body", "data-ready-ms")) / 1000
    print(f"MM(5,8) guide: opened in {opened:.3f} s ({in_page:.3f} s in the page)")
    assert opened < BUDGET, f"opening took {opened:.2f} s"
    assert "32,768 secrets" in page.inner_text("#left")
    started = time.perf_counter()
    guesses = play(page, "HGFED", 5)
    per_click = (time.perf_counter() - started) / guesses
    render = float(page.get_attribute("body", "data-render-ms"))
    print(f"MM(5,8) guide: {guesses} guesses, {per_click:.3f} s per click and check "
          f"(the page redraws in {render:.1f} ms)")
    assert per_click < BUDGET, f"{per_click:.2f} s per click"
    assert guesses == next(r.guesses for r in lookup_rows(tree) if r.secret == "HGFED")
