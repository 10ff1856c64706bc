"""A table redraw reaches the page in one comm message (durak_widgets/sync.py), and the
page ends up showing exactly what the kernel's widgets hold, as when every widget sent
its own messages.

The comm here is a stand-in for the page: it keeps each widget's state as the page's
models would (the state the widget opened with, then each ``update``), and applies the
table's ``sync`` batches as the page's script does, model by model.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import comm
import pytest
from comm.base_comm import BaseComm

from durak_core import Rules
from durak_widgets import Handoff, TableController, play


class PageComm(BaseComm):
    """A comm whose far end is a pretend page: it records every message and keeps the
    state of every model as the page would."""

    models: ClassVar[dict[str, dict[str, Any]]] = {}
    messages: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                    buffers: Any = None, **keys: Any) -> None:
        data = json.loads(json.dumps(data or {}))  # what crosses the wire: JSON
        PageComm.messages.append((msg_type, data))
        if msg_type == "comm_open":
            PageComm.models[self.comm_id] = dict(data.get("state", {}))
        elif msg_type == "comm_msg" and data.get("method") == "update":
            PageComm.models[self.comm_id].update(data["state"])
        elif msg_type == "comm_msg" and data.get("method") == "custom":
            for model_id, state in data["content"].get("sync", ()):
                PageComm.models[model_id].update(state)


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> type[PageComm]:
    PageComm.models = {}
    PageComm.messages = []
    monkeypatch.setattr(comm, "create_comm", PageComm)
    return PageComm


def _page_says(widget: Any, content: dict[str, Any]) -> None:
    """A message from a page's script, through ipywidgets' own dispatch."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}},
                        "buffers": []})


def _page_applies_batches(table: TableController, page: str = "p1") -> None:
    """What the page's script says once it has loaded."""
    _page_says(table.view.sync, {"event": "batching", "page": page})


def _click_a_move(table: TableController, rng: random.Random) -> None:
    """One move by clicking a shown option (a card, then its target if it asks one)."""
    view = table.view
    options: list[Any] = [b for b in view.visible_hand() if "durak-playable" in b._dom_classes]
    options += [b for n, b in view.visible_buttons().items() if n != "transfer"]
    rng.choice(options).click()
    if table.selected is not None:
        targets = [a for a, _ in view.visible_pairs() if "durak-target" in a._dom_classes]
        (rng.choice(targets) if targets else view.buttons["transfer"]).click()


def _play_counting(table: TableController, seed: int) -> list[int]:
    """Plays the game out by clicks; the messages to existing models each redraw sent
    (a hand that outgrows its slots opens new ones, and their row changes: one more)."""
    counts: list[int] = []
    original = table.refresh

    def counted() -> None:
        before = len(PageComm.messages)
        original()
        new = PageComm.messages[before:]
        grown = any(kind == "comm_open" for kind, _ in new)
        counts.append(sum(kind == "comm_msg" for kind, _ in new) - grown)

    table.refresh = counted  # type: ignore[method-assign]
    rng = random.Random(seed)
    game = table.backend.game  # type: ignore[attr-defined]
    while not game.is_over:
        _click_a_move(table, rng)
        game = table.backend.game  # type: ignore[attr-defined]
    return counts


def _new_table(tables: list[TableController], players: int, seed: int) -> TableController:
    table = play(opponents=["random"] * (players - 1), rules=Rules(players=players),
                 seed=seed, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    return table


def _page_shows_what_the_kernel_holds(table: TableController) -> None:
    for widget in [*table.view.all_widgets(), table.view.sync]:
        kernel = json.loads(json.dumps(widget.get_state()))
        shown = {k: PageComm.models[widget.model_id].get(k) for k in kernel}
        assert shown == kernel, widget


@pytest.mark.parametrize("players", [2, 4])
def test_a_redraw_after_a_move_is_one_message_to_the_page(
    page: type[PageComm], tables: list[TableController], players: int
) -> None:
    table = _new_table(tables, players, seed=3)
    _page_applies_batches(table)
    counts = _play_counting(table, seed=3)
    sent = [n for n in counts if n]
    assert len(sent) > 10  # a whole game of redraws that changed something
    assert max(sent) == 1
    assert table.view.sync.batches > 0
    _page_shows_what_the_kernel_holds(table)


def test_without_a_page_that_applies_batches_each_widget_sends_its_own(
    page: type[PageComm], tables: list[TableController]
) -> None:
    table = _new_table(tables, 2, seed=3)
    counts = _play_counting(table, seed=3)
    assert max(counts) > 5  # the old way: a message per changed widget
    assert table.view.sync.batches == 0
    _page_shows_what_the_kernel_holds(table)


def test_a_page_that_drew_the_table_gets_its_whole_state_in_one_message(
    page: type[PageComm], tables: list[TableController]
) -> None:
    table = _new_table(tables, 2, seed=3)
    _page_applies_batches(table, "p1")
    for widget in table.view.all_widgets():  # the page missed everything so far
        PageComm.models[widget.model_id].clear()
    before = len(PageComm.messages)
    _page_says(table.view.keys, {"event": "shown", "page": "p1"})
    assert [kind for kind, _ in PageComm.messages[before:]] == ["comm_msg"]
    _page_shows_what_the_kernel_holds(table)


def test_a_page_whose_batching_script_has_not_said_so_gets_a_message_per_widget(
    page: type[PageComm], tables: list[TableController]
) -> None:
    """Another page applies batches, but the one that drew the table has not said so
    yet (its script may still be loading): a batch could be lost on it."""
    table = _new_table(tables, 2, seed=3)
    _page_applies_batches(table, "p1")
    before = len(PageComm.messages)
    _page_says(table.view.keys, {"event": "shown", "page": "p2"})
    assert len(PageComm.messages) - before == len(table.view.all_widgets())
