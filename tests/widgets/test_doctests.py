"""The examples in durak_widgets' docstrings (CI collects doctests of durak_core only)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import durak_widgets

MODULES = sorted(info.name for info in pkgutil.iter_modules(durak_widgets.__path__,
                                                             "durak_widgets."))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
