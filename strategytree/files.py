"""Writing files without ever losing what the user had.

Everything strategytree writes goes to a temporary file in the same folder,
is flushed to disk, and is renamed over the target: the target holds the old
content or the new, never half of either.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text_atomic(folder / "a.txt", "new").read_text()
'new'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import OutputExistsError, StrategyTreeError


@contextmanager
def atomic_path(path: str | os.PathLike[str], *, force: bool = True) -> Iterator[Path]:
    """A temporary file beside ``path`` to write; renamed over ``path`` at the end.

    If the block raises, the temporary file is removed and ``path`` is left as
    it was.  With ``force=False`` an existing ``path`` is refused with
    :class:`OutputExistsError`.  The new file gets the mode of the file it
    replaces, or the usual mode of a new file.
    """
    path = Path(path)
    if not force and path.exists():
        raise OutputExistsError(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise StrategyTreeError(f"cannot write {path}: {err.strerror or err}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, _usual_mode(path))
        os.replace(tmp, path)
    except BaseException as err:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(err, OSError):
            raise StrategyTreeError(f"cannot write {path}: {err.strerror or err}") from None
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str, *, force: bool = True) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically."""
    with atomic_path(path, force=force) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
    return Path(path)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *, force: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically."""
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
