"""Fixtures of the widget tests (helpers live in widget_helpers.py and widget_driver.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from durak_widgets import TableController


@pytest.fixture
def tables() -> Iterator[list[TableController]]:
    """Collects tables made in a test and closes them (threads, widgets) afterwards."""
    made: list[TableController] = []
    yield made
    for table in made:
        table.close()
