"""A pool of helpers that takes the tasks and runs none (tests/bots): the bot then runs
their share itself, and the test reads what each helper was sent."""

from __future__ import annotations

import pytest

from durak_core.bots import parallel
from durak_core.bots.ismcts import HelperTask


class Unstarted:
    """Keeps every batch of tasks sent, in ``sent``; collects no result."""

    def __init__(self) -> None:
        self.sent: list[list[HelperTask]] = []

    def send(self, job: object, tasks: list[HelperTask]) -> int:
        self.sent.append(tasks)
        return 0

    def collect(self, sent: int, timeout: float) -> list[object]:
        return []


def unstarted_pool(monkeypatch: pytest.MonkeyPatch) -> Unstarted:
    """Every pool the bots ask for, from here on in the test, is this one."""
    pool = Unstarted()
    monkeypatch.setattr(parallel, "pool", lambda size: pool)
    return pool
