"""The ``strategytree`` command group: its usage errors, how a command is
registered (:func:`command`: bundles of options spread, library errors worded),
and the console script's entry point (:func:`main`)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperGroup

from .. import __version__
from ..errors import StrategyTreeError
from ..files import STDOUT_ERRORS, file_state, stdout_failed, stopped_output_words, whole_stdout
from ..formats.source import MAX_INPUT_BYTES
from ..runner import stop_like_ctrl_c, stop_status, stop_words
from . import terminal
from .options import Bundle
from .terminal import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, err, say

#: click's usage error (a missing option, a bad value, an unknown option) and the
#: base of all its errors, as the installed typer has them (its own copy of click, or click)
_UsageError: type[Exception] = typer.BadParameter.__mro__[1]
_ClickError: type[Exception] = typer.BadParameter.__mro__[2]


class _Commands(TyperGroup):
    """The command group, whose usage errors (a missing option, a bad number, an
    unknown option) are one ``error:`` line and exit 2, as every argument error is,
    instead of click's usage text and typer's framed box."""

    def main(self, *args: Any, standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            code = super().main(*args, standalone_mode=False, **extra)
        except _ClickError as problem:
            if type(problem).__name__ != "NoArgsIsHelpError":  # (that one has shown the help)
                err.print(f"[bold red]error:[/] {escape(_usage_words(problem))}", soft_wrap=True)
            usage = isinstance(problem, _UsageError)
            code = EXIT_UNREADABLE if usage else getattr(problem, "exit_code", EXIT_UNREADABLE)
        except typer.Abort:
            say("aborted")
            code = EXIT_INVALID
        if not isinstance(code, int):
            code = EXIT_OK  # a command's return value, not an exit code
        if code == EXIT_INTERRUPTED:
            code = stop_status()  # typer turns every KeyboardInterrupt into 130
        if not standalone_mode:
            return code
        sys.exit(code)


def _usage_words(problem: Exception) -> str:
    """A usage error in one line: click's message, and where to read more."""
    message = " ".join(problem.format_message().split())  # type: ignore[attr-defined]
    message = message[:1].lower() + message[1:].rstrip(".")
    context = getattr(problem, "ctx", None)
    return message if context is None else f"{message} (see {context.command_path} --help)"


app = typer.Typer(
    name="strategytree",
    cls=_Commands,
    help="Build, check and explain decision-tree strategies for Mastermind.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (bash, zsh, fish, powershell)
    pretty_exceptions_enable=False,
    epilog="Exit codes: 0 success, 1 invalid strategy, 2 unreadable input or bad arguments, "
    "130 Ctrl-C, 143 SIGTERM, 129 SIGHUP.  Strategy files, pipes and - (stdin) are read up "
    f"to {MAX_INPUT_BYTES // 2**20} MiB (--max-input-mb).",
)


@app.callback(invoke_without_command=True)
def _main(version: Annotated[bool, typer.Option("--version", help="Print the version and "
                                                 "exit.")] = False) -> None:
    if version:
        terminal.out.print(f"strategytree {__version__}")
        raise typer.Exit(EXIT_OK)


def command(name: str, *, stops: bool = False) -> Callable[[Callable[..., Any]], Any]:
    """Register a command of :data:`app` named ``name``: each parameter whose
    ``Annotated`` metadata is a :class:`~.options.Bundle` becomes the bundle's
    options, gathered back into one value when it runs; a library error ends it
    with one line (:func:`~.terminal.failed`); with ``stops``, Ctrl-C (SIGTERM,
    SIGHUP) says so, and where its ``checkpoint`` keeps the work (exit 130, 143, 129)."""

    def register(function: Callable[..., Any]) -> Any:
        signature = inspect.signature(function, eval_str=True)
        parameters: list[inspect.Parameter] = []
        bundles: dict[str, Bundle] = {}
        for parameter in signature.parameters.values():
            metadata = getattr(parameter.annotation, "__metadata__", ())
            bundle = next((m for m in metadata if isinstance(m, Bundle)), None)
            if bundle is None:
                parameters.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))
            else:
                bundles[parameter.name] = bundle
                parameters += bundle.parameters

        @functools.wraps(function)
        def run(**values: Any) -> Any:
            for key, bundle in bundles.items():
                gathered = {p.name: values.pop(p.name) for p in bundle.parameters}
                values[key] = bundle.gather(**gathered)
            output = values.get("output")
            before = file_state(output) if stops else None
            try:
                return function(**values)
            except StrategyTreeError as problem:
                raise terminal.failed(problem) from None
            except KeyboardInterrupt:  # (stopped outside the run: before it, or as it ended)
                if not stops:
                    raise
                if (held := stopped_output_words(output, before)) is not None:
                    say(held)
                say(stop_words(values.get("checkpoint")))
                raise typer.Exit(stop_status()) from None
            except OSError as problem:  # (typer would make a closed pipe exit 1)
                if not _on_stdout(problem):
                    raise
                raise typer.Exit(_output_failed(problem)) from None

        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return app.command(name)(run)

    return register


def main() -> None:
    """Entry point of the console script: SIGTERM and SIGHUP stop a command as Ctrl-C
    does (:func:`~strategytree.runner.stop_like_ctrl_c`); once it has finished (files
    closed, output flushed), the process ends at once (tearing down numba and LLVM
    would add about a third of a second to every command)."""
    stop_like_ctrl_c()
    for stream in (sys.stdout, sys.stderr):  # an ASCII or Latin-1 terminal: '?' for '→'
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
    whole_stdout()  # a pipe closed mid-write: exit 2, not 0 with the rest dropped
    code: int | None = EXIT_OK
    try:
        app()
    except KeyboardInterrupt:
        say(stop_words())
        code = stop_status()
    except MemoryError:  # inputs are capped and estimated; this is the last guard
        say("error: out of memory (a smaller game, or a machine with more memory)")
        code = EXIT_UNREADABLE
    except OSError as problem:
        if not _on_stdout(problem):
            raise
        code = _output_failed(problem)
    except SystemExit as stop:
        if not (stop.code is None or isinstance(stop.code, int)):
            raise  # a message to print: let Python do it
        code = stop.code or EXIT_OK
    try:
        sys.stdout.flush()  # what is still buffered must reach the output too
    except OSError as problem:
        code = _output_failed(problem) if code == EXIT_OK else code
    except (ValueError, AttributeError):  # closed (None: closed before the start)
        pass
    with contextlib.suppress(OSError, ValueError, AttributeError):  # closed: nothing more to say
        sys.stderr.flush()
    os._exit(code)


def _on_stdout(problem: OSError) -> bool:
    """Whether ``problem`` is the standard output failing (a full disk, a closed
    pipe: :data:`~strategytree.files.STDOUT_ERRORS`), not a named file's."""
    return problem.filename is None and problem.errno in STDOUT_ERRORS


def _output_failed(problem: OSError) -> int:
    """The standard output could not be written: what :func:`~strategytree.files.stdout_failed`
    says, exit 2."""
    if (words := stdout_failed(problem)) is not None:
        say(words)
    return EXIT_UNREADABLE
