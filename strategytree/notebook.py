"""How a strategy and a verifier's report show themselves in a Jupyter notebook.

:class:`~strategytree.tree.Strategy` and :class:`~strategytree.verify.Report`
have a ``_repr_html_`` that calls :func:`strategy_html` and :func:`report_html`
(registered in :mod:`strategytree.display` by :func:`show_in_notebooks`, when the
package is imported):
the totals, the histogram of guesses per secret as bars, the gap to the
optimum; for a small strategy also the interactive guide of
``strategytree show --format html``, in a frame.  The game of a strategy is
inferred from it as :func:`strategytree.verify.verify` infers it (classic
Mastermind); ``strategy_html(tree, game)`` shows it in another game.

>>> import strategytree as st
>>> tree = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
>>> page = tree._repr_html_()
>>> "MM(2,3)" in page and "<iframe" in page
True
>>> "21 guesses" in st.verify(tree)._repr_html_()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .display import register
from .words import plural

if TYPE_CHECKING:
    from .game import Game
    from .tree import Strategy
    from .verify import Report

__all__ = ["GUIDE_NODES", "report_html", "show_in_notebooks", "strategy_html"]

#: the most nodes of a strategy whose interactive guide a notebook shows inline
GUIDE_NODES = 5_000


def report_html(report: Report) -> str:
    """A verifier's report as HTML: the game, totals, validity, the gap and a histogram."""
    from html import escape

    if report.valid:
        verdict = '<span style="color:#276b1c">valid</span>'
    else:
        verdict = f'<span style="color:#a22">invalid: {escape(report.reason or "")}</span>'
    rows = [
        ("strategy", escape(report.source)),
        ("game", f"{escape(report.game)}, {report.secrets:,} secrets"),
        ("total", f"{plural(report.total, 'guess', 'guesses')} "
                  f"(average {report.average:.4f}, max {report.max_guesses})"),
        ("verdict", verdict),
    ]
    if report.gap is not None:
        rows.append(("gap", escape(str(report.gap))))
    table = "".join(
        f'<tr><th style="text-align:left;padding-right:1em">{k}</th><td style="text-align:left">'
        f"{v}</td></tr>" for k, v in rows
    )
    most = max(report.histogram.values(), default=1)
    bars = "".join(
        f'<tr><td style="text-align:right">{k}</td><td style="text-align:left">'
        f'<div style="background:#69c;height:.9em;width:{max(1, round(180 * n / most))}px;'
        f'display:inline-block"></div> {n:,}</td></tr>'
        for k, n in sorted(report.histogram.items())
    )
    return (
        f'<div class="strategytree-report"><table>{table}</table>'
        '<table><tr><th>guesses</th><th style="text-align:left">secrets</th></tr>'
        f'{bars}</table></div>'
    )


def strategy_html(strategy: Strategy, game: Game | None = None) -> str:
    """A strategy as HTML: its report (:func:`report_html`) and, when it has at most
    :data:`GUIDE_NODES` nodes, the interactive guide in a frame."""
    from html import escape

    from .export import to_html
    from .guide import GuideTree
    from .verify import verify

    report = verify(strategy, game)
    head = (f"<p>first guess <code>{escape(strategy.root_guess)}</code>, "
            f"{strategy.count_nodes():,} nodes, {strategy.depth()} levels</p>")
    html = head + report_html(report)
    if report.errors or strategy.count_nodes() > GUIDE_NODES:
        return html
    from .presets import resolve_game

    played = game if game is not None else resolve_game(strategy=strategy)[0]
    page = to_html(GuideTree.build(strategy, played), title=strategy.source)
    page = escape(page, quote=True).replace("\n", "&#10;")  # one line: fits in Markdown too
    return html + (f'<iframe srcdoc="{page}" title="interactive guide" '
                   f'style="width:100%;height:28em;border:1px solid #ddd"></iframe>')


def show_in_notebooks() -> None:
    """Register :func:`strategy_html` and :func:`report_html` as how a strategy and
    a report show in Jupyter (:mod:`strategytree.display`; done when the package is
    imported)."""
    register("strategytree.tree.Strategy", strategy_html)
    register("strategytree.verify.Report", report_html)
