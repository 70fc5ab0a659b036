"""MkDocs hook: the command-line reference, generated from the installed program.

The page ``reference/cli.md`` holds the marker ``<!-- cli-reference -->``; at build
time it is replaced by every command, argument and option of the ``strategytree``
console script, read from its click command (typer builds one).  Nothing is
written twice, so the reference cannot drift from the program.

The notebook page's marker ``<!-- notebook-demo -->`` is replaced by what a
strategy shows in Jupyter (its ``_repr_html_``), and a marker
``<!-- output: ARGS -->`` by what ``strategytree ARGS`` prints, run from the
top of the checkout when the site is built (quick commands only).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

MARKER = "<!-- cli-reference -->"
NOTEBOOK = "<!-- notebook-demo -->"
OUTPUT = re.compile(r"<!-- output: (.+?) -->")
TOP = Path(__file__).resolve().parents[2]  # the checkout: mkdocs.yml, examples/, tests/


def program() -> Any:
    """The click group behind the ``strategytree`` console script (its typer app,
    :data:`strategytree.cli.app`)."""
    import typer

    from strategytree.cli import app

    return typer.main.get_command(app)


def _cell(text: str) -> str:
    """Text fit for one cell of a Markdown table."""
    return re.sub(r"\s+", " ", text).replace("|", "\\|").strip()


def _kind(param) -> str:
    """What an argument or option takes, in words (duck-typed: typer vendors click)."""
    kind = param.type
    name = getattr(kind, "name", str(kind)).lower()
    if getattr(param, "is_flag", False) or name == "boolean":
        return "flag"
    if hasattr(kind, "choices"):
        return " \\| ".join(f"`{c}`" for c in kind.choices)
    if hasattr(kind, "_describe_range"):
        number = "integer" if "int" in name else "number"
        return _cell(f"{number}, {kind._describe_range()}")
    return {"text": "text", "string": "text", "str": "text", "integer": "integer",
            "int": "integer", "float": "number", "path": "path", "filename": "file"}.get(name, name)


def _default(param: Any) -> str:
    if param.required:
        return "required"
    value = param.default
    if callable(value) or value is None or value == "" or value == () or value is False:
        return ""
    if isinstance(value, list | tuple):
        value = ",".join(map(str, value))
    return f"`{value}`"


def _help_text(text: str | None) -> str:
    """A command's help as Markdown: typer's ``\\b`` markers dropped, paragraphs kept."""
    text = (text or "").replace("\b\n", "").replace("\b", "")
    return "\n\n".join(
        " ".join(line.strip() for line in para.splitlines())
        for para in re.split(r"\n\s*\n", text.strip())
        if para.strip()
    )


def _params_table(params: list[Any]) -> list[str]:
    shown = [p for p in params if not getattr(p, "hidden", False)]
    if not shown:
        return []
    rows = ["| argument or option | takes | default | what it does |", "|---|---|---|---|"]
    for p in shown:
        if p.param_type_name == "argument":
            names = f"`{p.human_readable_name.upper()}`" + (" …" if p.nargs == -1 else "")
        else:
            names = ", ".join(f"`{o}`" for o in [*p.opts, *p.secondary_opts])
        help_cell = _cell(getattr(p, "help", None) or "")
        rows.append(f"| {names} | {_kind(p)} | {_default(p)} | {help_cell} |")
    return rows


def reference(group: Any | None = None) -> str:
    """The whole command-line reference as Markdown."""
    group = group or program()
    ctx = group.context_class(group, info_name="strategytree")
    lines = [_help_text(group.help), "", "```text",
             f"strategytree {group.collect_usage_pieces(ctx)[0]} COMMAND [ARGS]...", "```", ""]
    lines += _params_table(group.params) + [""]
    names = group.list_commands(ctx)
    lines += ["| command | what for |", "|---|---|"]
    lines += [f"| [`{n}`](#{n}) | {_cell(group.get_command(ctx, n).get_short_help_str(200))} |"
              for n in names]
    for name in names:
        command = group.get_command(ctx, name)
        sub = command.context_class(command, info_name=name, parent=ctx)
        usage = re.sub(r"\{(\w+)\}", lambda m: m[1].upper(),
                       " ".join(command.collect_usage_pieces(sub)))
        lines += ["", f"## {name}", "", "```text", f"strategytree {name} {usage}", "```", "",
                  _help_text(command.help), ""]
        lines += _params_table(command.params)
    return "\n".join(lines) + "\n"


def notebook_demo() -> str:
    """What a small strategy and its report show in Jupyter."""
    import strategytree as st

    tree = st.loads("{AB:{10:{AC:{10:AA,01:CB,00:BB}},02:BA,01:{BC:{01:CA}},00:CC}}")
    return tree._repr_html_()


def output(args: str) -> str:
    """What ``strategytree ARGS`` prints (stdout, then stderr), as a fenced block."""
    done = subprocess.run([sys.executable, "-m", "strategytree", *args.split()], cwd=TOP,
                          capture_output=True, text=True, timeout=120)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"strategytree {args}: exit {done.returncode}: {done.stderr[-500:]}")
    text = (done.stdout + done.stderr).rstrip()
    return f"```text\n$ strategytree {args}\n{text}\n```"


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, reference())
    if NOTEBOOK in markdown:
        markdown = markdown.replace(NOTEBOOK, notebook_demo())
    return OUTPUT.sub(lambda m: output(m[1]), markdown)


ROLE = re.compile(r":(?:py:)?(?:func|class|mod|attr|meth|data|exc|obj):(<code>)(~?)([^<]*)</code>")


def on_page_content(html: str, page, config, files) -> str:
    """Docstrings are written for Sphinx: ``:func:`x``` shows as ``x``, ``~a.b.C`` as ``C``."""
    return ROLE.sub(lambda m: f"<code>{m[3].rsplit('.', 1)[-1] if m[2] else m[3]}</code>", html)
