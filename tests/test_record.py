"""The shipped record MM(5,8) strategy verifies, and the README tells its figures."""

from __future__ import annotations

import re
from pathlib import Path

import strategytree as st

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_mm58_strategy_meets_the_target_and_the_readme_says_so() -> None:
    report = st.verify(st.load(ROOT / "examples" / "mm58.txt"), st.mastermind(5, 8))
    assert report.valid and report.secrets == 32768
    # below every public figure we know (179,274, claimed for consistent guesses after the second)
    assert report.total < 179_274 and report.max_guesses <= 7
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"`examples/mm58\.txt`: total ([\d,]+), max (\d+), histogram (\{[^}]*\})",
                     readme)
    assert said, "the README states the shipped strategy's figures"
    assert int(said.group(1).replace(",", "")) == report.total
    assert int(said.group(2)) == report.max_guesses
    assert said.group(3) == str(report.histogram)
