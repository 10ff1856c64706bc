"""Fixtures of the widget tests (helpers live in widget_helpers.py and widget_driver.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from durak_widgets import TableController


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables speak English unless a test asks for another language, whatever the
    language of the machine running the tests (``LANG=ru_RU.UTF-8`` would make them
    Russian)."""
    monkeypatch.setenv("DURAK_LANG", "en")


@pytest.fixture
def tables() -> Iterator[list[TableController]]:
    """Collects tables made in a test and closes them (threads, widgets) afterwards."""
    made: list[TableController] = []
    yield made
    for table in made:
        table.close()
