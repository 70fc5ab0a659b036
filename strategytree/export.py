"""Guides for a person in every format, and :func:`render`, the one call that
writes a guide in any format (``strategytree show``).

The text guide is :mod:`strategytree.guide`'s; the HTML page (to play the
strategy by clicking) and drawings through GraphViz's ``dot`` are here.  The
guides that are also files read back, the DOT text and the lookup table
(CSV, and its Markdown form), are written by their formats' modules,
:mod:`strategytree.formats.graphviz` and :mod:`strategytree.formats.lookup`.

All of them read a :class:`strategytree.guide.GuideTree` (the strategy
flattened by one walk) and loop over its flat lists: nothing here recurses.
Codes are spelled in the tree's alphabet (:attr:`GuideTree.alphabet
<strategytree.guide.GuideTree.alphabet>`: the game's own, digits for Bulls
and Cows and Bagel).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._page import PAGE
from .errors import ExportError, GuideArgumentError, StrategyTreeError
from .files import atomic_path
from .formats.graphviz import MAX_DOT_NODES, to_dot
from .formats.lookup import lookup_csv, lookup_markdown, lookup_rows
from .game import Game
from .guide import GuideTree, guide_rich, guide_text, play_secret, played_text, reply_legend
from .outcome import INVALID, OK, CommandOutcome
from .spelling import Alphabet
from .tree import Strategy
from .words import plural

if TYPE_CHECKING:  # rich is imported only when colour is asked for
    from rich.text import Text

__all__ = ["FORMATS", "Guide", "check_guide", "check_show", "guide_format", "html_data", "render",
           "render_dot", "show_outcome", "to_html", "write_guide"]

#: the formats of a guide, and the file suffixes that choose them
FORMATS = ("text", "markdown", "csv", "dot", "html")
SUFFIXES = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".csv": "csv",
            ".dot": "dot", ".gv": "dot", ".svg": "dot", ".png": "dot", ".pdf": "dot",
            ".html": "html", ".htm": "html"}
DRAWINGS = (".svg", ".png", ".pdf")


def guide_format(fmt: str | None, output: str | os.PathLike[str] | None) -> tuple[str, bool]:
    """The format a guide is written in, and whether GraphViz must draw it.

    An output whose suffix names no format is refused unless ``fmt`` is given
    (a guide's text in ``tree.jpg`` would surprise).

    >>> guide_format(None, "tree.svg"), guide_format("csv", None), guide_format(None, None)
    (('dot', True), ('csv', False), ('text', False))
    >>> guide_format(None, "tree.jpg")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.ExportError: tree.jpg: a guide is written as .txt, .md, .markdown, .csv,
    .dot, .gv, .svg, .png, .pdf, .html, .htm (by the suffix), not .jpg; name the format to write
    it anyway
    """
    suffix = Path(output).suffix.lower() if output is not None else ""
    drawing = suffix in DRAWINGS
    if fmt is None:
        if suffix and suffix not in SUFFIXES:
            raise ExportError(
                f"{output}: a guide is written as {', '.join(SUFFIXES)} (by the suffix), "
                f"not {suffix}; name the format to write it anyway"
            )
        return SUFFIXES.get(suffix, "text"), drawing
    kind = fmt.strip().lower()
    if kind == "md":
        kind = "markdown"
    if kind not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if drawing and kind != "dot":
        raise ExportError(f"{output}: only the dot format can be drawn as {suffix}")
    return kind, drawing


# -- GraphViz drawings ---------------------------------------------------------------
def render_dot(dot: str, path: str | os.PathLike[str]) -> Path:
    """Draw ``dot`` with GraphViz into ``path`` (format from its suffix), atomically."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise ExportError(f"{path}: GraphViz output must end in .svg, .png or .pdf")
    binary = shutil.which("dot")
    if binary is None:
        raise ExportError(
            "drawing needs GraphViz's dot program, which is not installed "
            "(apt-get install graphviz, brew install graphviz); "
            "or write the DOT text to a .dot file"
        )
    with atomic_path(path) as tmp:
        done = subprocess.run(
            [binary, f"-T{fmt}", "-o", str(tmp)], input=dot.encode(), capture_output=True,
            timeout=300, check=False,
        )
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace").strip()
            raise ExportError(f"dot could not draw {path}: {why}")
    return path


# -- HTML ----------------------------------------------------------------------------
def html_data(tree: GuideTree, start: int = 0, title: str = "strategy") -> dict:
    """The subtree at ``start`` as flat arrays, for the HTML guide's script.

    ``guess`` (index into ``codes``, the guesses spelled in the tree's
    alphabet), ``reply`` (``10 * black + white``, -1 at
    the top), ``count`` (secrets reaching the node), ``end`` (one past its
    subtree) and ``win`` (1 if the guess can be the secret there), per node;
    ``winReply`` is the winning reply and ``labels`` how replies read in a
    game whose replies are not key pegs.
    """
    stop = tree.end[start]
    game = tree.game
    win = game.reply(game.win)
    labels: dict[str, str] = {}  # how replies read, where key pegs would not say it
    if getattr(game, "scoring", "black-white") == "table":
        labels = {str(game.reply(c)): str(game.labels[c]) for c in sorted(game.possible_replies)}
    codes: dict[str, int] = {}
    guess = [codes.setdefault(g, len(codes)) for g in tree.shown[start:stop]]
    reply = [-1] + [10 * r.black + r.white for r in tree.reply[start + 1 : stop]]  # type: ignore[union-attr]
    return {
        "title": title,
        "game": tree.game.name,
        "pegs": tree.game.pegs,
        "prefix": [step.split(" ") for step in tree.steps(start)],
        "codes": list(codes),
        "guess": guess,
        "reply": reply,
        "count": tree.visits[start:stop].tolist(),
        "end": [e - start for e in tree.end[start:stop]],
        "win": (tree.won[start:stop] >= 0).astype(int).tolist(),
        "winReply": 10 * win.black + win.white,
        "labels": labels,
    }


def to_html(tree: GuideTree, start: int = 0, title: str = "strategy") -> str:
    """One self-contained HTML page to play the strategy by clicking (no network)."""
    data = json.dumps(html_data(tree, start, title), separators=(",", ":"))
    data = data.replace("</", "<\\/")  # never close the script element early
    return PAGE.replace("{{TITLE}}", escape(title)).replace("{{DATA}}", data)


# -- one call for every format --------------------------------------------------------
@dataclass(frozen=True)
class Guide:
    """A strategy rendered in one format (what :func:`render` returns)."""

    text: str
    """the guide (the text guide: a legend of the replies first), ending with a newline
    (empty when :attr:`styled` holds it)"""
    styled: Text | None = None
    """the text guide in colour, when asked for"""
    unsolved: bool = False
    """True when the one game shown (a secret's), or some secret behind the guide,
    is not solved"""
    warning: str | None = None
    """what a reader should know (secrets the strategy does not solve); every format
    but CSV also says it in the page itself"""


def check_guide(fmt: str, *, secret: str | None = None, depth: int | None = None,
                path: str | None = None) -> None:
    """Refuse arguments of :func:`render` that do not go together (before any file is read).

    >>> check_guide("csv", depth=2)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    strategytree.errors.GuideArgumentError: depth=2 applies to the text and dot formats,
    not format='csv'
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if secret is not None and (fmt != "text" or path is not None or depth is not None):
        others = {name: value for name, value in (
            ("format", None if fmt == "text" else fmt), ("path", path), ("depth", depth)
        ) if value is not None}
        raise GuideArgumentError("{secret} shows one game as text; drop "
                            + " and ".join(f"{{{name}}}" for name in others),
                            secret=secret, **others)
    if depth is not None and fmt in ("markdown", "csv", "html"):
        raise GuideArgumentError("{depth} applies to the text and dot formats, not {format}",
                            depth=depth, format=fmt)


def render(
    strategy: Strategy,
    game: Game,
    fmt: str = "text",
    *,
    depth: int | None = None,
    path: str | None = None,
    secret: str | None = None,
    title: str = "strategy",
    styled: bool = False,
    alphabet: Alphabet | None = None,
    drawing: bool = False,
) -> Guide:
    """``strategy`` as a guide in format ``fmt`` (one of :data:`FORMATS`).

    ``depth`` (text, dot) shows that many levels of replies, ``path`` only
    what follows a history (``"AABBC 10, ADEFE 40"``); ``secret`` shows the
    one game played against it instead (text only); ``title`` names the
    HTML page; ``styled`` asks for the text guide in colour (rich); ``drawing``:
    the DOT text is for GraphViz to draw, so at most
    :data:`~strategytree.formats.graphviz.MAX_DOT_NODES` nodes (the text alone has
    no limit).  Codes
    in and out (``path``, ``secret``, every format) are in ``alphabet``, by
    default the game's own (:class:`~strategytree.spelling.Alphabet`).
    """
    check_guide(fmt, secret=secret, depth=depth, path=path)
    if secret is not None:
        moves, problem = play_secret(strategy, game, secret, alphabet)
        return Guide(_line_ended(played_text(moves, problem)), unsolved=problem is not None)
    tree = GuideTree.build(strategy, game, alphabet)
    start = tree.locate(path)
    rows = lookup_rows(tree, start) if fmt in ("markdown", "csv") else []
    solved = int((tree.won[start:tree.end[start]] >= 0).sum())
    warning = _unsolved_warning(int(tree.visits[start]) - solved, solved, fmt)
    if fmt == "text":
        legend = reply_legend(game)
        if styled:
            styled_guide = guide_rich(tree, depth=depth, path=path)
            if legend:
                from rich.text import Text

                styled_guide = Text(legend + "\n", style="dim") + styled_guide
            return Guide("", styled=styled_guide, unsolved=bool(warning), warning=warning)
        text = _banner(_banner(guide_text(tree, depth=depth, path=path), legend, ""),
                       warning, "warning: ")
    elif fmt == "markdown":
        text = _banner(lookup_markdown(rows), warning, "> **warning:** ")
    elif fmt == "csv":
        text = lookup_csv(rows)  # read back as a table: the warning goes to the reader alone
    elif fmt == "dot":
        limit = MAX_DOT_NODES if drawing else None
        text = _banner(to_dot(tree, start, depth, limit=limit), warning, "// warning: ")
    else:
        text = to_html(tree, start, title=title)
        if warning:
            banner = (f'<p style="background:#fdd;padding:.5em;border:1px solid #c00">'
                      f"<b>warning:</b> {escape(warning)}</p>")
            text = text.replace("<body>", "<body>\n" + banner, 1)
    return Guide(_line_ended(text), unsolved=bool(warning), warning=warning)


def _unsolved_warning(missing: int, solved: int, fmt: str) -> str | None:
    """What a guide says of the ``missing`` secrets behind it its strategy does not solve."""
    if not missing:
        return None
    verb = "is" if missing == 1 else "are"
    said = f"{plural(missing, 'secret')} behind this guide {verb} not solved by the strategy"
    if fmt in ("markdown", "csv"):
        return f"{said}; the table lists the {solved:,} it solves"
    return f"{said} (strategytree verify names {'it' if missing == 1 else 'them'})"


def _banner(text: str, warning: str | None, lead: str) -> str:
    """``text`` with ``warning`` as its first line (``lead`` makes it a comment or a quote)."""
    return text if warning is None else f"{lead}{warning}\n{text}"


def _line_ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def write_guide(
    guide: Guide,
    output: str | os.PathLike[str] | None,
    *,
    drawing: bool = False,
    force: bool = False,
) -> str | None:
    """Write ``guide``'s text (:func:`render`) to the standard output (``output``
    None or ``-``), drawn with GraphViz (``drawing``, :func:`render_dot`), or to
    the file ``output`` atomically (an existing file only with ``force``); returns
    what was done to the file (``drew`` or ``wrote``), None for the standard output."""
    import sys

    from .files import is_stdout, write_text_atomic

    if output is None or is_stdout(output):
        sys.stdout.write(guide.text)
        return None
    if drawing:
        render_dot(guide.text, output)
        return "drew"
    write_text_atomic(output, guide.text, force=force)
    return "wrote"


# -- what ``strategytree show`` does ---------------------------------------------------
def check_show(fmt: str | None, output: str | os.PathLike[str] | None, *,
               secret: str | None = None, depth: int | None = None, path: str | None = None,
               as_json: bool = False) -> tuple[str, bool]:
    """Before the strategy is read: the guide's format and whether GraphViz draws it
    (:func:`guide_format`), the arguments checked (:func:`check_guide`); the game of
    one ``secret`` alone is printed ``as_json``, on the standard output."""
    kind, drawing = guide_format(fmt, output)
    if secret is not None and fmt is None and kind != "text":  # (told by the name)
        asked = "a drawing" if drawing else f"the {kind} format"
        raise GuideArgumentError("{secret} shows one game as text, where {output} asks for "
                                 f"{asked} by its name; name a .txt file, or -",
                                 secret=secret, output=output)
    check_guide(kind, secret=secret, depth=depth, path=path)
    if as_json and (secret is None or output is not None):
        raise StrategyTreeError("--json prints the game of one --secret on stdout; add --secret"
                                if secret is None else "--json prints to stdout; drop -o")
    return kind, drawing


def show_outcome(
    source: str | os.PathLike[str],
    fmt: str | None = None,
    output: str | os.PathLike[str] | None = None,
    *,
    read: dict[str, Any] | None = None,
    as_json: bool = False,
    force: bool = False,
    styled: bool = False,
    **how: Any,
) -> CommandOutcome:
    """What ``strategytree show`` does: its arguments checked (:func:`check_show`;
    the output, an existing file only with ``force``), the strategy at ``source``
    read (:func:`~strategytree.formats.reading.read_strategy`, ``read`` its
    keywords), the guide of :func:`render` (``how`` the rest of its keywords)
    printed (``styled``: the text guide in colour) or written to ``output``
    (:func:`write_guide`); ``as_json``, the game of one ``secret`` as
    :func:`~strategytree.guide.played_json` has it.  Exit 1 when a secret is not solved."""
    from .files import check_outputs
    from .formats.reading import read_strategy

    check_outputs([output], force=force, inputs={"the input": source}, stdout=True)
    kind, drawing = check_show(fmt, output, as_json=as_json, **how)
    loaded = read_strategy(source, **(read or {}))
    strategy, game, secret = loaded.strategy, loaded.game, how.get("secret")
    if as_json:
        from .guide import played_json

        played = played_json(game, secret, *play_secret(strategy, game, secret))
        return CommandOutcome(data=played, status=OK if played["solved"] else INVALID)
    guide = render(strategy, game, kind, **how, title=Path(source).name, drawing=drawing,
                   styled=styled and output is None)
    notes = [f"[yellow]warning:[/] {guide.warning}"] if guide.warning else []
    shown = [guide.styled] if guide.styled is not None else []
    if not shown and (done := write_guide(guide, output, drawing=drawing, force=force)):
        notes.append(f"{done} {output}")
    return CommandOutcome(shown, notes=notes, status=INVALID if guide.unsolved else OK)
