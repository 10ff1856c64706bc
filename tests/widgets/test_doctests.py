"""The examples in durak_widgets' docstrings (CI collects doctests of durak_core only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["durak_widgets.review"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
