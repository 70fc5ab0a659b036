"""Splitting secrets by their reply to a guess: a compiled counting sort.

The replies come from :mod:`strategytree.feedback`; :func:`group_by_reply`
and :func:`reply_groups` group the positions of the secrets by them, highest
reply first, keeping their order within a reply.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

__all__ = ["group_by_reply", "reply_groups"]


@njit(cache=True)
def _group(replies, n_replies, order, counts):
    """Counting sort: ``order`` lists positions by reply, highest reply first,
    keeping their order within a reply; ``counts[r]`` secrets got reply ``r``."""
    for r in range(n_replies):
        counts[r] = 0
    for j in range(replies.shape[0]):
        counts[replies[j]] += 1
    starts = np.empty(n_replies, dtype=np.int64)
    at = 0
    for r in range(n_replies - 1, -1, -1):
        starts[r] = at
        at += counts[r]
    for j in range(replies.shape[0]):
        r = replies[j]
        order[starts[r]] = j
        starts[r] += 1


def group_by_reply(replies: np.ndarray, n_replies: int) -> list[tuple[int, np.ndarray]]:
    """``(reply code, positions)`` for each reply that occurs, highest reply first;
    positions in increasing order (so the parts of sorted secrets stay sorted)."""
    order = np.empty(len(replies), dtype=np.int64)
    counts = np.empty(n_replies, dtype=np.int64)
    _group(replies, n_replies, order, counts)
    groups = []
    at = 0
    for r in range(n_replies - 1, -1, -1):
        c = int(counts[r])
        if c:
            groups.append((r, order[at : at + c]))
            at += c
    return groups


def reply_groups(replies: np.ndarray, n_replies: int) -> tuple[list[int], list[int], np.ndarray]:
    """:func:`group_by_reply` in one piece: the replies that occur (highest
    first) and how many got each, as lists, and the positions grouped so
    (increasing within a reply)."""
    order = np.empty(len(replies), dtype=np.int64)
    counts = np.empty(n_replies, dtype=np.int64)
    _group(replies, n_replies, order, counts)
    codes = np.flatnonzero(counts)[::-1]
    return codes.tolist(), counts[codes].tolist(), order

