"""Shared helpers for the arena tests: fixture bot paths and a quick tournament runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from durak_arena.referee import BotSpec

FIXTURES = Path(__file__).parent / "fixtures"
#: The fixtures are bot programs run by the tests, not test modules.
collect_ignore = ["fixtures"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def spec():
    """Parse a bot spec relative to the repository root (where examples/ lives)."""

    def parse(text: str) -> BotSpec:
        return BotSpec.parse(text, cwd=str(ROOT))

    return parse
