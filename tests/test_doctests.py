"""Run the ``>>>`` examples of every module of the installed package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import strategytree

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(strategytree.__path__, "strategytree.")
    if name not in ("strategytree.__main__",)
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
