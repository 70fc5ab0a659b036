"""The lark transformers of the brace grammar: what a parse of
``grammars/strategy*.lark`` builds (imported by :mod:`strategytree.formats.brace`
only when a parser is first made, so that lark is imported only then).

- :class:`Fine` builds nodes from ``strategy.lark``;
- :class:`Check` accepts ``strategy_fast.lark`` and builds nothing (the text is
  then laid out as arrays by :func:`strategytree.formats.brace.preorder`);
- :class:`Lenient` builds nodes from ``strategy_lenient.lark``, noting each repair,
  and :class:`LenientCheck` notes the repairs alone.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer, v_args

from ..game import Reply
from ..tree import Node

__all__ = ["BUILDERS", "Check", "Fine", "Lenient", "LenientCheck", "builder"]


class Fine(Transformer):
    """Builds nodes from the fine tokens of ``strategy.lark``."""

    @v_args(inline=True)
    def known(self, guess: Any) -> Node:
        return Node(str(guess), (), guess.start_pos)

    def guessing(self, children: list[Any]) -> Node:
        guess = children[0]
        return Node(str(guess), tuple(children[1:]), guess.start_pos)

    @v_args(inline=True)
    def branch(self, reply: Any, node: Node) -> tuple[Reply, Node]:
        return Reply(ord(reply[0]) - 48, ord(reply[1]) - 48), node

    @v_args(inline=True)
    def start(self, node: Node) -> Node:
        return node


class Check(Transformer):
    """Accepts the coarse tokens of ``strategy_fast.lark`` and builds nothing:
    once the text is known to be in the grammar, :func:`preorder` lays it
    out as arrays (far faster and smaller than a node per guess)."""

    def start(self, children: list[Any]) -> None:
        return None

    known = guessing = inner = next_inner = chain = next_chain = branch = start


class Lenient(Fine):
    """Builds nodes from ``strategy_lenient.lark``, noting each repair."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.repairs: list[tuple[int, str]] = []

    def _guess(self, token: Any) -> str:
        text = str(token)
        if not text.isupper():
            self.repairs.append(
                (token.start_pos, f"lower-case guess {text!r} read as {text.upper()!r}")
            )
        return text.upper()

    @v_args(inline=True)
    def known(self, guess: Any) -> Node:
        return Node(self._guess(guess), (), guess.start_pos)

    def guessing(self, children: list[Any]) -> Node:
        guess = children[0]
        return Node(self._guess(guess), tuple(children[1:]), guess.start_pos)

    def bare_branch(self, children: list[Any]) -> tuple[Reply, Node]:
        reply, guess = children[0], children[1]
        node = Node(self._guess(guess), tuple(children[2:]), guess.start_pos)
        self.repairs.append(
            (
                reply.start_pos,
                f"branch {reply}:{guess}:{{...}} has no braces around its subtree; "
                f"read as {reply}:{{{guess}:{{...}}}}",
            )
        )
        return Reply(ord(reply[0]) - 48, ord(reply[1]) - 48), node

    def extra_braces(self, children: list[Any]) -> Node:
        self.repairs.append((0, "extra braces around the whole strategy removed"))
        return children[0]


class LenientCheck(Lenient):
    """Notes the repairs ``strategy_lenient.lark`` makes, and builds no nodes."""

    def known(self, children: list[Any]) -> None:
        self._guess(children[0])

    def guessing(self, children: list[Any]) -> None:
        self._guess(children[0])

    def branch(self, children: list[Any]) -> None:
        return None

#: the transformer that builds nodes from each grammar
BUILDERS: dict[str, type[Transformer]] = {
    "strategy_fast": Check, "strategy": Fine, "strategy_lenient": Lenient,
}


def builder(name: str, build: bool = True) -> Transformer:
    """A new transformer for the grammar ``name``: one that builds nodes, or
    (without ``build``, and always for ``strategy_fast``) one that only accepts the
    text, noting the repairs of a lenient reading."""
    made = BUILDERS[name] if build else LenientCheck if name == "strategy_lenient" else Check
    return made() if issubclass(made, Lenient) else made(visit_tokens=False)
