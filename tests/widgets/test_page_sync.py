"""A page that loads a running table's widgets (a Voila app, a reloaded notebook) may
miss changes the kernel made meanwhile; once the page has drawn the table, the table
sends the whole state of its widgets again (durak_widgets.keys explains the race, and
tests/e2e/test_voila_browser.py shows it in a real page)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pytest

from durak_widgets import Handoff, TableController, play


def _reachable(root: widgets.Widget) -> set[int]:
    """Every widget the page needs for ``root``: any reached through a synced trait
    (children, layout, style...), found without TableView's own list."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        for name in widget.keys:
            value = getattr(widget, name)
            for item in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(item, widgets.Widget):
                    stack.append(item)
    return seen


def _page_says(keys: widgets.Widget, content: dict[str, Any]) -> None:
    """A message from the keys' view in the page, through ipywidgets' own dispatch."""
    keys._handle_msg(
        {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}
    )


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Any]]:
    """Each state a widget sends from now on: (the widget's id, the keys; None: all)."""
    out: list[tuple[int, Any]] = []
    monkeypatch.setattr(widgets.Widget, "send_state",
                        lambda self, key=None: out.append((id(self), key)))
    return out


def test_a_page_that_drew_the_table_gets_every_widgets_whole_state_again(
    tables: list[TableController], sent: list[tuple[int, Any]]
) -> None:
    table = play(opponents=["random"], seed=1, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    _page_says(table.view.keys, {"event": "shown"})
    whole = {widget for widget, key in sent if key is None}
    assert whole == _reachable(table.view.root)
    assert len(whole) > 100  # the buttons, the boxes, and each one's layout and style


def test_the_state_goes_out_in_turn_on_the_tables_thread(
    tables: list[TableController], sent: list[tuple[int, Any]]
) -> None:
    # The message comes on whatever thread delivers comm messages; the widgets change
    # only on the hand-off's thread, after what was posted before.
    handoff = Handoff(mode="manual")
    table = play(opponents=["random"], seed=1, delay=0, handoff=handoff)
    tables.append(table)
    handoff.pump()
    sent.clear()
    _page_says(table.view.keys, {"event": "shown"})
    assert sent == []
    handoff.pump()
    assert {widget for widget, key in sent if key is None} == _reachable(table.view.root)


def test_other_messages_from_the_page_send_nothing(
    tables: list[TableController], sent: list[tuple[int, Any]]
) -> None:
    table = play(opponents=["random"], seed=1, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    sent.clear()
    _page_says(table.view.keys, {"event": "something else"})
    _page_says(table.view.keys, {"kind": "anywidget-command"})
    assert sent == []
