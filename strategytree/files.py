"""Reading and writing files without ever losing what the user had."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import StrategyTreeError


def write_text_atomic(path: str | os.PathLike[str], text: str, *, force: bool = True) -> Path:
    """Write ``text`` to ``path`` so that it holds the old or the new content, never half.

    The text goes to a temporary file in the same folder, is flushed to disk,
    and is renamed over ``path``.  With ``force=False`` an existing file is
    left alone and :class:`StrategyTreeError` is raised.
    """
    path = Path(path)
    if not force and path.exists():
        raise StrategyTreeError(f"{path} exists; use --force to overwrite it")
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise StrategyTreeError(f"cannot write {path}: {err.strerror}") from None
    try:
        # mkstemp makes the file private; give it the mode a new file would have
        # (or the mode of the file it replaces)
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise StrategyTreeError(f"cannot write {path}: {err.strerror or err}") from None
        raise
    return path
