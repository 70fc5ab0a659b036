"""Writing files without ever losing what the user had.

Everything strategytree writes to a regular file goes to a temporary file in
the same folder, is flushed to disk, and is renamed over the target: the
target holds the old content or the new, never half of either.  A symbolic
link is followed: its target is replaced and the link kept.  What is not a
regular file (``-`` for the standard output, ``/dev/stdout``, a device, a
FIFO) is never replaced: the content is streamed into it.

Before any long work, :func:`check_writable` says whether a path can be
written (its folder exists and is writable; an existing file only with
``force``), and :func:`check_not_same` that an output is not one of the
files a command reads.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text_atomic(folder / "a.txt", "new").read_text()
'new'
>>> (folder / "link.txt").symlink_to("a.txt")
>>> _ = write_text_atomic(folder / "link.txt", "newer")
>>> (folder / "link.txt").is_symlink(), (folder / "a.txt").read_text()
(True, 'newer')
>>> sorted(p.name for p in folder.iterdir())
['a.txt', 'link.txt']
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import OutputExistsError, StrategyTreeError

__all__ = [
    "STDOUT", "OutputError", "SameFileError", "atomic_path", "check_json_output", "check_not_same",
    "check_outputs", "file_state", "stdout_failed", "stopped_output_words", "whole_stdout",
    "check_writable", "is_stdout", "is_stream", "remove_stale", "same_file", "target",
    "to_stdout",
    "write_bytes_atomic", "write_text_atomic",
]

#: the path that means the standard output
STDOUT = "-"

PathLike = str | os.PathLike[str]


class OutputError(StrategyTreeError):
    """A path cannot be written: its folder is missing or not writable, or it is a folder."""


class SameFileError(OutputError):
    """An output would be written over a file the same run reads or writes.

    >>> str(SameFileError("s.txt", "s.txt", "the input"))
    's.txt is the same file as the input s.txt; write to another file'
    """

    def __init__(self, path: object, other: object, role: str) -> None:
        self.path = path
        """the output"""
        self.other = other
        """the file it would overwrite"""
        self.role = role
        """what that file is to the run, e.g. ``"the input"``, ``"the checkpoint"``"""
        super().__init__(f"{path} is the same file as {role} {other}; write to another file")


def is_stdout(path: PathLike) -> bool:
    """True when ``path`` is ``-``, the standard output.

    >>> is_stdout("-"), is_stdout("a.txt")
    (True, False)
    """
    return os.fspath(path) == STDOUT


def _stream_fd(path: PathLike) -> int | None:
    """1 or 2 when ``path`` is ``-`` or names this process's standard output or
    error (``/dev/stdout``, a link to it, or the file stdout is redirected to)."""
    if is_stdout(path):
        return 1
    try:
        here = os.stat(path)
    except (OSError, ValueError):
        return None
    for fd in (1, 2):
        try:
            there = os.fstat(fd)
        except OSError:
            continue
        if (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino):
            return fd
    return None


def to_stdout(path: PathLike | None) -> bool:
    """True when writing to ``path`` writes to this process's standard output:
    ``-``, ``/dev/stdout`` (or a link to it), or the file stdout is redirected to.

    >>> to_stdout("-"), to_stdout("no-such-file.txt"), to_stdout(None)
    (True, False, False)
    """
    return path is not None and _stream_fd(path) == 1


def check_json_output(as_json: bool, output: PathLike | None) -> None:
    """Refuse a JSON report (``as_json``) when the strategy itself goes to the
    standard output (``output`` None, or :func:`to_stdout`), where the report would."""
    if as_json and (output is None or to_stdout(output)):
        where = "the tree goes to" if output is None else f"-o {output} is"
        raise StrategyTreeError(f"{where} the standard output, where --json prints the report: "
                                "name a file (-o FILE), or drop --json")


#: what writing the standard output can meet: a full disk, a quota, a file too big, a
#: device error, a closed pipe
STDOUT_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE}


class _WholeWrites(io.RawIOBase):
    """File descriptor ``fd`` written whole: a write the system cut short (a pipe
    whose reader went away mid-write) goes on until all is written or it fails
    (``BrokenPipeError``).  Python's own writer returns the short count, which
    its callers drop: the rest of the output was lost, silently, exit 0."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data) -> int:  # type: ignore[override]
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            done += os.write(self.fd, view[done:])
        return done


def whole_stdout() -> None:
    """Make the standard output write whole (:class:`_WholeWrites`): what cannot be
    delivered raises, as a full disk does (:func:`stdout_failed`).  For the command
    line, once, before anything is printed."""
    old = sys.stdout
    if old is None or not hasattr(old, "fileno"):
        return
    try:
        fd = old.fileno()
    except (OSError, ValueError):  # closed, or not a real file
        return
    old.flush()
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_WholeWrites(fd)), encoding=old.encoding, errors=old.errors,
        newline=None, line_buffering=old.line_buffering, write_through=False)


def stdout_failed(problem: OSError) -> str | None:
    """What to say when writing the standard output met ``problem`` (one of
    :data:`STDOUT_ERRORS`): a line, or None for a pipe whose reader has gone (as
    ``| head`` does); what is left in the buffer is dropped."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass
    if problem.errno == errno.EPIPE:
        return None
    return f"error: cannot write the standard output: {problem.strerror or problem}"


def is_stream(path: PathLike) -> bool:
    """True when ``path`` is written by streaming into it, never replaced:
    ``-``, the standard output or error, or anything that exists and is not a
    regular file or a folder (a character device such as ``/dev/null``, a FIFO).

    >>> is_stream("-"), is_stream("/dev/null"), is_stream("no-such-file.txt")
    (True, True, False)
    """
    if _stream_fd(path) is not None:
        return True
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def file_state(path: PathLike | None) -> tuple[int, int, int] | None:
    """What tells whether a file was replaced or changed (inode, modification
    time, size); None when it is missing, a stream, or no path."""
    if path is None or is_stream(path):
        return None
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def stopped_output_words(path: PathLike | None, before: tuple[int, int, int] | None) -> str | None:
    """What a command stopped outside its run (before it began, or as it ended)
    says of its output ``path``, its :func:`file_state` at the start ``before``:
    whether it was written (writes are atomic: whole or not at all).

    >>> stopped_output_words("no-such-file.txt", None)
    'nothing is written to no-such-file.txt'
    """
    if path is None or is_stream(path):
        return None
    if file_state(path) == before:
        kept = " (the file is as it was)" if before is not None else ""
        return f"nothing is written to {path}{kept}"
    return f"{path} is written (before the stop)"


def target(path: PathLike) -> Path:
    """The file a write to ``path`` replaces: ``path`` with every symbolic link
    followed (the target of a dangling link is created)."""
    return Path(os.path.realpath(path))


def same_file(a: PathLike, b: PathLike) -> bool:
    """True when ``a`` and ``b`` name the same file, through links or other
    names (same device and inode); paths not yet there are compared by their
    :func:`target`.  ``-`` is never the same as a file."""
    if is_stdout(a) or is_stdout(b):
        return False
    try:
        one, two = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return target(a) == target(b)
    return (one.st_dev, one.st_ino) == (two.st_dev, two.st_ino)


def check_not_same(path: PathLike | None, others: dict[str, PathLike | None]) -> None:
    """Raise :class:`SameFileError` when ``path`` is one of ``others``, a dict
    from what each is to the run (``"the input"``) to its path.  A stream
    (``-``, a device, a FIFO) is never refused: nothing is replaced there."""
    if path is None or is_stream(path):
        return
    for role, other in others.items():
        if other is not None and not is_stdout(other) and same_file(path, other):
            raise SameFileError(path, other, role)


def check_writable(path: PathLike | None, *, force: bool = False, stream: bool = True) -> None:
    """Check, before any work, that ``path`` can be written.

    Raises :class:`OutputExistsError` when a regular file is there and
    ``force`` is false, :class:`OutputError` when the folder of its
    :func:`target` is missing or not writable, or ``path`` is a folder, or is
    a stream (a device, a FIFO, ``-``) while ``stream`` is false.  A stream is
    not an existing output: streaming into it loses nothing.
    """
    if path is None:
        return
    if is_stream(path):
        if not stream:
            raise OutputError(f"{path} is not a regular file")
        if not is_stdout(path) and not os.access(path, os.W_OK):
            raise OutputError(f"cannot write {path}: permission denied")
        return
    real = target(path)
    if real.is_dir():
        raise OutputError(f"{path} is a folder")
    if real.exists() and not force:
        raise OutputExistsError(path)
    folder = real.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: folder {folder} is not writable")


@contextmanager
def atomic_path(path: PathLike, *, force: bool = True) -> Iterator[Path]:
    """A temporary file to write; at the end it becomes ``path``.

    A regular file (or a new one) is replaced by renaming the temporary file,
    made in the same folder, over it; a symbolic link's target is replaced and
    the link kept.  A stream (:func:`is_stream`) gets the content copied into
    it.  If the block raises, the temporary file is removed and ``path`` is
    left as it was.  With ``force=False`` an existing regular file is refused
    with :class:`OutputExistsError`.  The new file gets the mode of the file it
    replaces, or the usual mode of a new file.
    """
    streamed = is_stream(path)
    real = target(path)
    if not streamed and not force and real.exists():
        raise OutputExistsError(path)
    folder = None if streamed else real.parent
    if folder is not None:
        remove_stale(real)
    try:
        fd, name = tempfile.mkstemp(prefix=_temporary_prefix(real), suffix=".tmp", dir=folder)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror or err}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if streamed:
            _stream_into(path, tmp)
        else:
            with open(tmp, "rb+") as handle:
                os.fsync(handle.fileno())
            os.chmod(tmp, _usual_mode(real))
            os.replace(tmp, real)
    except BaseException as err:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(err, OSError) and not (streamed and err.errno in STDOUT_ERRORS
                                             and _stream_fd(path) == 1):
            raise OutputError(f"cannot write {path}: {err.strerror or err}") from None
        raise  # (the standard output's own failures: said as the command line says them)
    if streamed:
        tmp.unlink()


def _temporary_prefix(real: Path) -> str:
    """How the temporary files of ``real`` begin: ``.NAME.PID.`` (the process
    writing it, so that a later run can tell one left behind by a process that
    was killed, :func:`remove_stale`); a random part and ``.tmp`` follow."""
    return f".{real.name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (or may: not ours to signal)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    except OSError:
        return True
    return True


def remove_stale(real: Path) -> list[Path]:
    """Remove the temporary files of ``real`` (``.NAME.PID.XXXXXXXX.tmp`` beside it)
    left by a writer that was killed (SIGKILL, a power cut) while writing: those
    whose process is gone.  Files of a process still running, and any file of
    another pattern, are left alone.  Returns the files removed.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> left = folder / ".run.ckpt.999999999.abcd1234.tmp"  # no such process
    >>> _ = left.write_text("half a checkpoint"); _ = (folder / ".run.ckpt.x.tmp").write_text("?")
    >>> [p.name for p in remove_stale(folder / "run.ckpt")]
    ['.run.ckpt.999999999.abcd1234.tmp']
    >>> sorted(p.name for p in folder.iterdir())
    ['.run.ckpt.x.tmp']
    """
    removed = []
    prefix = f".{real.name}."
    try:
        names = [name for name in os.listdir(real.parent)
                 if name.startswith(prefix) and name.endswith(".tmp")]
    except OSError:
        return removed
    for name in names:
        middle = name[len(prefix):-len(".tmp")].split(".")
        if len(middle) != 2 or not middle[0].isdigit() or len(middle[0]) > 10:
            continue  # not of our naming: not ours to remove
        if _alive(int(middle[0])):
            continue
        stale = real.parent / name
        try:
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
                removed.append(stale)
        except OSError:
            pass
    return removed


def _stream_into(path: PathLike, tmp: Path) -> None:
    """Copy the written file ``tmp`` into the stream ``path``."""
    fd = _stream_fd(path)
    if fd is not None:
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.flush()
        with open(tmp, "rb") as source:
            sink = getattr(stream, "buffer", None)
            if sink is None:
                stream.write(source.read().decode("utf-8", errors="replace"))
            else:
                shutil.copyfileobj(source, sink)
        stream.flush()
        return
    with open(tmp, "rb") as source, open(path, "wb") as sink:
        shutil.copyfileobj(source, sink)


def write_text_atomic(path: PathLike, text: str, *, force: bool = True) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically (:func:`atomic_path`)."""
    with atomic_path(path, force=force) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
    return Path(path)


def write_bytes_atomic(path: PathLike, data: bytes, *, force: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically (:func:`atomic_path`)."""
    with atomic_path(path, force=force) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def _usual_mode(path: Path) -> int:
    """The mode of the file being replaced, or the one a new file gets (umask)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def check_outputs(
    outputs: list[PathLike | None],
    *,
    force: bool,
    inputs: dict[str, PathLike | None] | None = None,
    checkpoint: PathLike | None = None,
    stdout: bool = False,
) -> None:
    """Before any work: each output is not a file the command reads (``inputs``,
    by what they are), nor the checkpoint, nor another output; its folder is
    writable, and an existing file is overwritten only with ``force`` (a device,
    FIFO or ``-`` is streamed into, never replaced; ``-``, or a name of the standard
    output, only where ``stdout`` allows it, for commands that write text); the
    checkpoint's folder is writable.
    A ``force`` with no output to overwrite is refused (it would do nothing)."""
    from .errors import refuse_inert

    read = {**(inputs or {}), "the checkpoint": checkpoint}
    if force and all(output is None or is_stream(output) for output in outputs):
        refuse_inert({"force": True}, (), "without an output file to overwrite (a stream "
                     "is written into, never replaced)")
    for k, output in enumerate(outputs):
        if output is not None and is_stdout(output) and not stdout:
            raise StrategyTreeError(
                "- (the standard output) is taken by show, convert, format and generate -o only; "
                "name a file"
            )
        if output is not None and not stdout and to_stdout(output):  # /dev/stdout, or where
            raise StrategyTreeError(  # it is redirected: the report's place
                f"{output} is the standard output, where the report goes; name another file")
        check_not_same(output, read)
        for other in outputs[:k]:
            check_not_same(output, {"another output": other})
        check_writable(output, force=force)
    check_not_same(checkpoint, inputs or {})
    check_writable(checkpoint, force=True, stream=False)
