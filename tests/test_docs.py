"""The documentation cannot rot: its examples run, its command reference covers the program.

- every ```python block of the site (``docs/**/*.md``) runs on its own, as a
  reader would paste it (the README's run in ``test_readme.py``);
- every shell block marked ``<!-- runs -->`` (on the line before it) in the site
  and the README runs: a page's marked blocks in order, in one fresh folder
  that sees the checkout's ``examples/`` and ``tests/``, each command exiting 0
  (a block shows a failing command as ``cmd || echo "exit $?"``).  Mark only
  blocks that take about a second;
- the generated command reference names every command and option;
- a strategy and a report display themselves in a notebook (``_repr_html_``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import strategytree as st
from strategytree.literature import best_known_lower_bound

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
PYTHON = re.compile(r"```python\n(.*?)```", re.S)
RUNS = re.compile(r"<!-- runs -->\n```(?:sh|bash|console)\n(.*?)```", re.S)


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


SNIPPETS = [(page, code) for page in PAGES for code in PYTHON.findall(page.read_text("utf-8"))]
SHELL = [(page, blocks) for page in [ROOT / "README.md", *PAGES]
         if (blocks := RUNS.findall(page.read_text("utf-8")))]


def _folder(tmp_path: Path) -> dict[str, str]:
    """A fresh working folder that sees the checkout's examples and test data; the
    environment with this Python's scripts (``strategytree``, ``python``) first on PATH."""
    for name in ("examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def test_the_site_has_examples() -> None:
    assert len(SNIPPETS) >= 4
    assert len(SHELL) >= 10


@pytest.mark.parametrize(("page", "code"), SNIPPETS,
                         ids=[f"{_name(p)} {i}" for i, (p, _) in enumerate(SNIPPETS)])
def test_python_example_runs(page: Path, code: str, tmp_path: Path) -> None:
    env = _folder(tmp_path)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize(("page", "blocks"), SHELL, ids=[_name(p) for p, _ in SHELL])
def test_shell_examples_run(page: Path, blocks: list[str], tmp_path: Path) -> None:
    env = _folder(tmp_path)
    script = "set -e\n" + "\n".join(blocks)
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.stdout[-1000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr


def test_the_readme_is_short_and_keeps_its_quick_start() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    assert len(text.splitlines()) <= 400
    for marker in ("<!-- quickstart:main -->", "<!-- quickstart:tests -->"):
        assert marker in text


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    for page in PAGES:
        assert str(page.relative_to(DOCS)) in nav, page


def _hooks():
    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        import cli_reference
    finally:
        sys.path.pop(0)
    return cli_reference


def test_the_command_reference_covers_the_program() -> None:
    hooks = _hooks()
    group = hooks.program()
    text = hooks.reference(group)
    ctx = group.context_class(group, info_name="strategytree")
    for name in group.list_commands(ctx):
        assert f"\n## {name}\n" in text
        for param in group.get_command(ctx, name).params:
            if getattr(param, "hidden", False):
                continue
            for opt in getattr(param, "opts", []):
                assert f"`{opt}`" in text or f"`{opt.upper()}`" in text, (name, opt)


def test_a_strategy_shows_itself_in_a_notebook() -> None:
    tree = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    page = tree._repr_html_()
    assert "MM(2,3)" in page and "21 guesses" in page and "max 3" in page
    assert "optimal" in page  # the gap
    assert "<iframe" in page and "\n" not in page  # the interactive guide, on one line


def test_a_report_shows_itself_in_a_notebook() -> None:
    report = st.verify(st.load(ROOT / "examples" / "mm58.txt"))
    page = report._repr_html_()
    assert "178,308 guesses" in page and "max 7" in page and "valid" in page
    bound = best_known_lower_bound(st.mastermind(5, 8)).total
    assert f"{bound:,}" in page  # the gap, from the proven lower bound
    assert all(f"{n:,}" in page for n in report.histogram.values())
    assert "<iframe" not in page


def test_the_pages_give_the_stored_mm58_bound() -> None:
    """The README, the docs' front page and the frontier table carry MM(5,8)'s
    stored lower bound and the gap it gives the shipped record."""
    bound = best_known_lower_bound(st.mastermind(5, 8)).total
    gap = f"{(178308 / bound - 1) * 100:.1f}%"
    for page in (ROOT / "README.md", DOCS / "index.md"):
        text = page.read_text("utf-8")
        assert f"{bound:,}" in text and f"{gap} above" in text, page
    (row,) = [line for line in (DOCS / "explanation" / "frontier.md").read_text("utf-8")
              .splitlines() if line.startswith("| MM(5,8) |")]
    assert f"| {bound:,} |" in row and f"within {gap}" in row


def test_a_large_strategy_shows_no_guide() -> None:
    assert "<iframe" not in st.load(ROOT / "examples" / "mm58.txt")._repr_html_()


def test_an_invalid_strategy_shows_why() -> None:
    page = st.loads("{AB:{10:AA}}")._repr_html_()
    assert "invalid" in page and "not solved" in page


def test_the_mm49_optimum_file_totals_what_the_docs_say() -> None:
    report = st.verify(st.load(ROOT / "examples" / "mm49.txt"))
    assert (report.total, report.max_guesses, report.valid) == (34666, 8, True)
    assert list(report.histogram.values()) == [1, 6, 59, 686, 3260, 2412, 136, 1]
