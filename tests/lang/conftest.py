"""Fixtures of the language tests: English unless a test asks, whatever the machine's."""

from __future__ import annotations

import pytest

from durak_lang import language


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """No language from the machine running the tests, and no process choice left over
    from another test (``use`` ends with the test)."""
    monkeypatch.setenv("DURAK_LANG", "en")
    monkeypatch.setattr(language, "_chosen", None)
