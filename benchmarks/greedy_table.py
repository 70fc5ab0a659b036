"""Our greedy totals beside the published ones (the README's table).

Prints a Markdown table: for MM(4,6), MM(5,8) and Bulls and Cows (4 distinct
of 10, distinct guesses), each rule's total and worst case, and the
published figure from strategytree.literature.

    python benchmarks/greedy_table.py
"""

from __future__ import annotations

import strategytree as st
from strategytree.builders import build_greedy
from strategytree.literature import published

from _common import print_machine

print_machine()

games = {
    "MM(4,6)": st.mastermind(4, 6),
    "MM(5,8)": st.mastermind(5, 8),
    "bulls-and-cows": st.distinct(4, 10, distinct_guesses=True),
}
print("| game | rule | ours: total | ours: max | published total | source |")
print("|---|---|---:|---:|---:|---|")
for name, game in games.items():
    for rule in ("minimax", "expected", "entropy", "parts"):
        report = st.verify(build_greedy(game, rule=rule), game)
        assert report.valid
        figure = published(name, rule)
        if figure is None:
            paper, source = "", ""
        else:
            paper = (f"{figure.low:,}" if figure.low == figure.high
                     else f"{figure.low:,}–{figure.high:,}")
            if figure.max_guesses:
                paper += f" (max {figure.max_guesses})"
            source = figure.source
        print(f"| {name} | {rule} | {report.total:,} | {report.max_guesses} | {paper} | {source} |")
