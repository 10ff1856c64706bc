"""The examples in durak_net's docstrings (CI collects doctests of durak_core only)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import durak_net

MODULES = sorted(
    info.name for info in pkgutil.iter_modules(durak_net.__path__, "durak_net.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
