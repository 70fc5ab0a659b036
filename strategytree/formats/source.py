"""Reading a strategy file's text: the one place where bytes become text.

:func:`read_text` reads a path, ``-`` (the standard input) or an open stream,
at most ``max_bytes`` of it (in chunks, so that an endless stream costs no
more), refuses what would not fit in memory, and checks that it is UTF-8.
:class:`Source` is the text being read and its name, and turns offsets into
``line:column`` for messages.  This module imports nothing heavy: the command
line reads :data:`MAX_INPUT_BYTES` from it before any command runs.
"""

from __future__ import annotations

import bisect
import os
import re
import stat
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, BinaryIO

from ..errors import InputTooLargeError, StrategyFileError
from ..memory import too_much

if TYPE_CHECKING:
    from ..tree import Node, Strategy

__all__ = [
    "CHUNK", "MAX_INPUT_BYTES", "MEMORY_PER_BYTE", "STDIN", "Input", "Offset", "Source",
    "read_text", "source_name",
]

#: the most bytes of a strategy file read unless asked for more (a whole MM(5,8)
#: strategy, 32,768 secrets, takes about 350 KB)
MAX_INPUT_BYTES = 256 * 2**20
#: what ``path`` :func:`read_text` takes for the standard input
STDIN = "-"
#: bytes read at a time from a file, pipe or device
CHUNK = 1 << 20
#: the most memory reading takes per byte of file: a valid file takes about 10
#: (the :class:`Preorder` arrays), explaining an error less; a lenient reading
#: of a file in a dialect builds node objects, up to this
MEMORY_PER_BYTE = 120


#: what is read: a path, ``-`` (the standard input), or an open stream (binary or text)
Input = str | os.PathLike[str] | IO[bytes] | IO[str]


def _is_stream(path: Input) -> bool:
    return hasattr(path, "read")


def source_name(path: Input) -> str:
    """What a file read is called in messages: its path, ``<stdin>`` for ``-``,
    a stream's name (``<stream>`` if it has none)."""
    if _is_stream(path):
        name = getattr(path, "name", None)
        return name if isinstance(name, str) else "<stream>"
    return "<stdin>" if str(path) == STDIN else str(path)


def read_text(path: Input, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The text of a strategy file (in any format), checked to be UTF-8 and to fit in memory:
    the one reading of every strategy file.

    ``path`` may be a regular file, a pipe, a device, ``-`` for the standard
    input, or a stream open for reading (binary, or text with a binary
    ``buffer``, read from where it stands and left open); at most ``max_bytes`` are read
    (in chunks, so an endless stream costs no more), and a longer input raises
    :class:`InputTooLargeError`.  Raises :class:`StrategyFileError` naming the file
    (and, for a byte that is not UTF-8, its line and column).

    >>> import io, sys
    >>> stdin, sys.stdin = sys.stdin, io.TextIOWrapper(io.BytesIO(b"A" * 11))
    >>> try:
    ...     read_text("-", max_bytes=10)
    ... except InputTooLargeError as err:
    ...     print(err)
    ... finally:
    ...     sys.stdin = stdin
    <stdin>: more than 10 bytes, the most read (a larger max_bytes would read it)
    """
    if not (isinstance(path, (str, os.PathLike)) or _is_stream(path)):
        raise StrategyFileError(f"a strategy file is a path, - or a stream open for reading, "
                                f"not {type(path).__name__}", source=str(path))
    if not isinstance(max_bytes, int) or max_bytes < 1:
        raise StrategyFileError(f"max_bytes is a whole number of bytes, at least 1, not "
                                f"{max_bytes!r}", source=str(path))
    name = source_name(path)
    try:
        if _is_stream(path):
            data = _read_capped(getattr(path, "buffer", path), name, max_bytes)  # type: ignore[arg-type]
        elif str(path) == STDIN:
            data = _read_capped(sys.stdin.buffer, name, max_bytes)
        else:
            size = _regular_size(Path(path))  # type: ignore[arg-type]
            if size > max_bytes:
                raise InputTooLargeError(name, max_bytes)
            _check_memory(size, name)
            with open(path, "rb") as source:  # type: ignore[arg-type]
                data = _read_capped(source, name, max_bytes)
    except FileNotFoundError:
        raise StrategyFileError("no such file", source=name) from None
    except IsADirectoryError:
        raise StrategyFileError("is a folder, not a strategy file", source=name) from None
    except OSError as err:
        raise StrategyFileError(f"cannot read: {err.strerror or err}", source=name) from None
    _check_memory(len(data), name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise StrategyFileError(
            f"byte 0x{data[err.start]:02x} is not UTF-8 text", source=name, line=line, column=column
        ) from None
    return text


def _regular_size(path: Path) -> int:
    """The size of a regular file (0 for a pipe or device, whose size is known only once read)."""
    info = path.stat()
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


def _read_capped(source: BinaryIO, name: str, max_bytes: int) -> bytearray:
    """All of ``source``, read in chunks; :class:`InputTooLargeError` past ``max_bytes``.

    A pipe's size is known only once read: past :data:`MAX_INPUT_BYTES` (a larger
    ``max_bytes``), the memory its reading would take is checked as it grows, so
    that it is refused as soon as it is too big, not once held whole (below, the
    size cap speaks first, and the memory is checked once read)."""
    data = bytearray()
    while chunk := source.read(min(CHUNK, max_bytes + 1 - len(data))):
        data += chunk.encode("utf-8") if isinstance(chunk, str) else chunk
        if len(data) > max_bytes:
            raise InputTooLargeError(name, max_bytes)
        if len(data) > MAX_INPUT_BYTES:
            _check_memory(len(data), name, so_far=True)
    return data


def _check_memory(size: int, name: str, *, so_far: bool = False) -> None:
    """Refuse a file whose reading could take more memory than the system has left
    (``so_far``: ``size`` bytes have come in, and more may follow)."""
    need = size * MEMORY_PER_BYTE
    free = too_much(need)
    if free is not None:
        raise StrategyFileError(
            f"the file is {'at least ' if so_far else ''}{size / 2**20:,.0f} MiB; reading it "
            "could take up to "
            f"{need / 2**30:,.1f} GiB of memory, more than the {free / 2**30:,.1f} GiB available",
            source=name,
        )

#: an offset in the text being read
Offset = int


class Source:
    """A text being read and its name: turns offsets into ``line:column`` for messages."""

    def __init__(self, text: str, name: str = "<string>") -> None:
        text = text.removeprefix("\ufeff")
        self.text = text
        """the text, without a byte-order mark"""
        self.name = name
        """the file it came from (or ``<string>``)"""
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        """offsets of the line ends"""

    def position(self, offset: Offset) -> tuple[int, int]:
        """The 1-based (line, column) of ``offset``."""
        line = bisect.bisect_left(self.newlines, offset)
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def error(self, offset: Offset | None, message: str) -> StrategyFileError:
        """A :class:`StrategyFileError` at ``offset`` (the whole file if None)."""
        if offset is None:
            return StrategyFileError(message, source=self.name)
        line, column = self.position(offset)
        return StrategyFileError(message, source=self.name, line=line, column=column)

    def strategy(self, root: Node) -> Strategy:
        """The strategy under ``root``, knowing where its guesses were written."""
        from ..tree import Strategy

        return Strategy(root, source=self.name, newlines=self.newlines)
