"""Checkpoints: the saved state of a long search, in one layout for every search.

A checkpoint file is a header line, then records:

- the **header** is one line of JSON naming what was searched
  (:func:`header`: the kind of search, the game by its name, scoring and a
  digest of its codes, then the search's settings); a run resumes only from a
  checkpoint whose header is the one it would write;
- each **record** is one line of JSON listing arrays (name, dtype, shape),
  then the arrays' raw bytes in that order.  A record holds rows that are new
  since the last one, so saving stays cheap as a search grows
  (:meth:`Checkpoint.append`); :func:`load` joins the records array by array.

A record cut short (the process was killed while writing) is ignored, so a
checkpoint is never worse than its last complete record.  When a run saves is
:mod:`strategytree.runner`'s (one cadence for every run).  :meth:`Checkpoint.rewrite`
replaces the whole file atomically (a fresh start, or compaction).

>>> import tempfile, pathlib, numpy as np
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.ckpt"
>>> saved = Checkpoint(path, {"search": "example", "game": "MM(2,3)"})
>>> saved.rewrite({"rows": np.arange(6).reshape(3, 2)})
>>> saved.append({"rows": np.array([[6, 7]])})
>>> saved.append({"rows": np.zeros((0, 2), dtype=int)})   # nothing new: an empty record
>>> saved.append({"rows": np.array([[8, 9]])})
>>> load(path, {"search": "example", "game": "MM(2,3)"})["rows"].tolist()
[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .errors import StrategyTreeError
from .files import atomic_path

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Checkpoint", "CheckpointError", "each_record", "header", "load"]

#: the first key of every header: says the file is one of ours
FORMAT = "strategytree-checkpoint"
VERSION = 3
#: the longest JSON line read (headers and record descriptions are short)
MAX_LINE = 1 << 16


class CheckpointError(StrategyTreeError):
    """A checkpoint cannot be used: damaged, not ours, or of another search."""


def header(search: str, game: Game, **settings: object) -> dict:
    """The header of a checkpoint of the search ``search`` of ``game`` with
    ``settings`` (JSON values): what a later run compares with its own.

    >>> from strategytree.game import mastermind
    >>> sorted(header("optimal", mastermind(2, 3), max_guesses=None))
    ['codes', 'game', 'max_guesses', 'scoring', 'search']
    """
    return {"search": search, "game": game.name, "scoring": game.scoring, "codes": game.digest,
            **settings}


class Checkpoint:
    """A checkpoint file being written: its header, then records."""

    def __init__(self, path: str | os.PathLike[str], header: dict) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT, "version": VERSION, **header, "byteorder": sys.byteorder}

    def rewrite(self, arrays: dict[str, np.ndarray]) -> None:
        """Replace the file (atomically) by the header and one record of ``arrays``."""
        with atomic_path(self.path) as tmp, open(tmp, "wb") as out:
            out.write(json.dumps(self.header).encode("ascii") + b"\n")
            _write_record(out, arrays)

    def cut(self, end: int) -> None:
        """Drop what follows the complete records (a record cut short, the run
        killed while writing it), which end at ``end`` (:func:`each_record`), so
        that :meth:`append` adds after them."""
        try:
            if self.path.stat().st_size > end:
                with open(self.path, "r+b") as out:
                    out.truncate(end)
        except OSError as err:
            raise CheckpointError(f"cannot write {self.path}: {err.strerror or err}") from None

    def append(self, arrays: dict[str, np.ndarray]) -> None:
        """Add a record of ``arrays`` (new rows) at the end of the file, flushed to disk.

        The file must exist (:meth:`rewrite` starts it).  A write stopped
        half-way (Ctrl-C, SIGTERM) is cut off again before the stop goes on, so
        that later records are never left behind a record cut short.
        """
        try:
            with open(self.path, "ab") as out:
                start = out.tell()
                try:
                    _write_record(out, arrays)
                    out.flush()
                    os.fsync(out.fileno())
                except BaseException:
                    out.seek(start)
                    out.truncate()
                    raise
        except OSError as err:
            raise CheckpointError(f"cannot write {self.path}: {err.strerror or err}") from None


def _write_record(out, arrays: dict[str, np.ndarray]) -> None:
    items = [(name, np.ascontiguousarray(a)) for name, a in arrays.items()]
    head = [{"name": n, "dtype": a.dtype.str, "shape": list(a.shape)} for n, a in items]
    out.write(json.dumps({"arrays": head}).encode("ascii") + b"\n")
    for _, a in items:
        out.write(memoryview(a.reshape(-1).view(np.uint8)))  # raw bytes, no copy; empty is fine


def load(path: str | os.PathLike[str], header: dict) -> dict[str, np.ndarray] | None:
    """The arrays saved in the checkpoint at ``path``, each record's rows joined
    in order; None when there is no file.

    Raises :class:`CheckpointError` when the file is not a checkpoint, is
    damaged before its last record, or was written for another search (its
    header differs from ``header``).
    """
    parts: dict[str, list[np.ndarray]] = {}

    def take(record: dict[str, np.ndarray]) -> None:
        for name, array in record.items():
            parts.setdefault(name, []).append(array)

    if each_record(path, header, take) is None:
        return None
    try:
        return {name: np.concatenate(arrays) for name, arrays in parts.items()}
    except ValueError as err:  # arrays that do not join
        raise _damaged(path, err) from None


def each_record(path: str | os.PathLike[str], header: dict,
                take: Callable[[dict[str, np.ndarray]], None]) -> int | None:
    """Hand each complete record of the checkpoint at ``path`` to ``take``, in
    order, in pieces (``{name: rows}``, an array's rows split in order, so that
    a long run's checkpoint of gigabytes is read a few megabytes at a time); the
    place in the file where the complete records end (a run that goes on adds
    its records there: :meth:`Checkpoint.cut`), or None when there is no file.

    Raises :class:`CheckpointError` as :func:`load` does.
    """
    path = Path(path)
    if not path.exists():
        return None
    expected = {"format": FORMAT, "version": VERSION, **header, "byteorder": sys.byteorder}
    try:
        with open(path, "rb") as source:
            try:
                found = json.loads(source.readline(MAX_LINE))
            except ValueError:  # not JSON, not text: another kind of file
                found = None
            _check_header(path, found, expected)
            end = source.tell()
            while (arrays := _read_record(source)) is not None:
                for name, dtype, shape in arrays:
                    _read_pieces(source, name, dtype, shape, take)
                end = source.tell()
    except CheckpointError:
        raise
    except OSError as err:
        why = err.strerror or err
        raise CheckpointError(f"{path}: cannot read the checkpoint: {why}") from None
    except (ValueError, TypeError) as err:  # what ``take`` could not use
        raise _damaged(path, err) from None
    return end


def _damaged(path: str | os.PathLike[str], err: Exception) -> CheckpointError:
    return CheckpointError(
        f"{path}: not a usable checkpoint: damaged ({type(err).__name__}); use another file"
    )


def _check_header(path: Path, found: object, expected: dict) -> None:
    """Raises :class:`CheckpointError` unless ``found`` (the file's header) is ``expected``."""
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise CheckpointError(
            f"{path}: not a usable checkpoint: not one of strategytree's (its first "
            "line is not a checkpoint header); use another file"
        )
    if found.get("version") != VERSION:
        raise CheckpointError(
            f"{path}: a checkpoint of another version of strategytree "
            f"({found.get('version')!s}, this one reads {VERSION}); use another file"
        )
    if found.get("search") != expected.get("search"):
        raise CheckpointError(
            f"{path}: a checkpoint of the {found.get('search')} search, not of the "
            f"{expected.get('search')} search; use another file"
        )
    if found != expected:
        keys = expected.keys() | found.keys()
        differ = sorted(k for k in keys if expected.get(k) != found.get(k))
        raise CheckpointError(
            f"{path}: a checkpoint of another search ({', '.join(differ)} differ); "
            "use another file, or the same search"
        )


#: the most bytes of an array read at once: a long run's checkpoint holds records
#: of gigabytes, handed on in pieces (rows of an array split, in order)
PIECE = 1 << 26


def _read_record(source) -> list[tuple[str, np.dtype, tuple[int, ...]]] | None:
    """The arrays (name, dtype, shape) of the next complete record, the file
    left where their bytes start; None at the end (or at a record cut short).

    The sizes a record describes are checked against what is left of the file
    before anything is read: a record claiming more bytes than the file holds
    (a damaged description, or a record cut short) reads nothing."""
    line = source.readline(MAX_LINE)
    if not line.endswith(b"\n"):
        return None
    try:
        left = os.fstat(source.fileno()).st_size - source.tell()
        described = json.loads(line)["arrays"]
        arrays = []
        for item in described:
            dtype = np.dtype(item["dtype"])
            shape = tuple(int(x) for x in item["shape"])
            if dtype.hasobject or any(x < 0 for x in shape):
                return None  # no array of ours: damaged
            size = dtype.itemsize * math.prod(shape)  # Python's integers: no overflow
            if size > left:
                return None  # more than the file holds: cut short (or damaged)
            left -= size
            arrays.append((str(item["name"]), dtype, shape))
    except (KeyError, TypeError, ValueError):
        return None
    return arrays


def _read_pieces(source, name: str, dtype: np.dtype, shape: tuple[int, ...],
                 take: Callable[[dict[str, np.ndarray]], None]) -> None:
    """Read an array of a record, handing it to ``take`` in pieces of whole rows
    (of at most :data:`PIECE` bytes, when a row is no bigger)."""
    rows = shape[0] if shape else 1
    row = dtype.itemsize * math.prod(shape[1:])
    step = max(1, PIECE // row) if row else max(1, rows)
    start = 0
    while True:
        count = min(step, rows - start)
        piece = np.empty((count, *shape[1:]) if shape else (), dtype=dtype)
        size = piece.nbytes
        if source.readinto(memoryview(piece.reshape(-1).view(np.uint8))) != size:
            raise ValueError("the file ended inside a record")  # it shrank under us
        take({name: piece})
        start += count
        if start >= rows:
            return
