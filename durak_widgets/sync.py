"""One comm message for one redraw: the changes to many widgets, applied in the page at once.

ipywidgets sends a change as one comm message per widget (``hold_sync`` groups a
widget's own traits, not several widgets').  A table redraw after a move changes a
dozen or more widgets (the cards that moved along the hand, a pair on the table, the
counts, the log, the status line, their layouts), so it cost a dozen or more messages,
and between two pages of an online game each crosses the one Jupyter server that both
kernels talk through, whose queue under load is most of a move's time
(docs/benchmarks.md, "Where a move's time goes").

:class:`TableSync` is a tiny `anywidget <https://anywidget.dev>`_ beside the table.
:meth:`TableSync.batch` holds the sending of every given widget while a redraw sets
their traits (as ``hold_sync`` does for one), then sends everything that changed as
one custom message, ``{"sync": [[model_id, state], ...]}``; the page looks each model
up in its widget manager and applies the states together, as if each had come in its
own ``update`` message (``set_state``, so nothing is echoed back).  The kernel's
widgets hold the same values either way, so reading them, resending their whole state
(:meth:`~durak_widgets.view.TableView.resync`) and tests that click them are as before.

A page says it can apply batches (``{"event": "batching"}``, from anywidget's model
``initialize``, so once per page and with no view needed); until one has said so
(a test with no page, a front end without a widget manager to look models up in),
each widget sends its own message as ipywidgets does.  What a batch cannot carry
(binary buffers, a trait the page is setting at that moment) goes the ordinary way.

>>> import ipywidgets as widgets
>>> sync, a, b = TableSync(), widgets.HTML(), widgets.HTML()
>>> sync._from_page(sync, {"event": "batching"}, [])
>>> sent = []
>>> sync.send = lambda content, buffers=None: sent.append(content)
>>> with sync.batch([a, b]):
...     a.value, b.value = "one", "two"
>>> [[state for _id, state in message["sync"]] for message in sent]
[[{'value': 'one'}, {'value': 'two'}]]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

_ESM = r"""
// Apply one redraw's changes to many models together (see durak_widgets/sync.py).
function initialize({ model }) {
  const manager = model.widget_manager;
  if (!manager || typeof manager.get_model !== "function") return;
  // This page, to the kernel (and to durak_widgets/keys.py's script in the same page).
  window.__durakPage = window.__durakPage || Math.random().toString(36).slice(2);
  let queue = Promise.resolve();
  const load = async ([id, state]) => {
    const found = await manager.get_model(id);
    const kind = found && found.constructor;
    return [found, kind && kind._deserialize_state
      ? await kind._deserialize_state(state, manager) : state];
  };
  const apply = async (changes) => {
    // Every model first, then every state at once: the page shows the whole redraw
    // or none of it.  A model the page lacks (closed meanwhile) is skipped, not fatal.
    const loaded = await Promise.allSettled(changes.map(load));
    for (const result of loaded) {
      if (result.status !== "fulfilled") { console.warn("durak sync", result.reason); continue; }
      const [found, state] = result.value;
      if (found) found.set_state(state);
    }
  };
  model.on("msg:custom", (msg) => {
    if (!msg || !Array.isArray(msg.sync)) return;
    // In order, one batch after the other, as the kernel sent them.
    queue = queue.then(() => apply(msg.sync)).catch((e) => console.warn("durak sync", e));
  });
  model.send({ event: "batching", page: window.__durakPage });
}

export default { initialize };
"""


class TableSync(anywidget.AnyWidget):
    """Sends a redraw's changes to many widgets as one message, once a page applies them."""

    _esm = _ESM
    #: A page has said it applies batches (until then, widgets send their own messages).
    batching = traitlets.Bool(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Batches sent, and the widget messages they stood for (tests and benchmarks).
        self.batches = 0
        self.merged = 0
        #: The pages (their ids) that said they apply batches.
        self.pages: set[str] = set()
        self.on_msg(self._from_page)

    def _from_page(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "batching":
            page = content.get("page")
            self.pages.add(page if isinstance(page, str) else "")
            self.batching = True

    def resend(self, members: Sequence[widgets.Widget], page: str = "") -> None:
        """Send the whole state of every one of ``members`` again, for ``page`` (the id
        of a page that may have missed changes while loading): in one message if that
        page applies batches (a table's hundred-odd widgets would be a hundred-odd
        messages through the server at once), else one each as ipywidgets does.  Only
        that page's word counts here: its script may still be loading, so a batch
        could be lost on it, the very page this is for."""
        batch = page in self.pages
        changes: list[list[Any]] = []
        for widget in members:
            if widget.comm is None:
                continue
            state = widget.get_state()
            if not batch or widget._property_lock or _has_buffers(state):
                widget.send_state()
                continue
            changes.append([widget.model_id, state])
        if changes:
            self.batches += 1
            self.merged += len(changes)
            self.send({"sync": changes})

    @contextmanager
    def batch(self, members: Sequence[widgets.Widget]) -> Iterator[None]:
        """Hold the sending of ``members`` meanwhile; then send what changed, in one
        message if a page applies batches, else one message per widget as usual."""
        held = [w for w in members if not w._holding_sync]
        for widget in held:
            widget._holding_sync = True
        try:
            yield
        finally:
            changes: list[list[Any]] = []
            batched: list[tuple[widgets.Widget, set[str]]] = []
            for widget in held:
                widget._holding_sync = False
                keys = set(widget._states_to_send)
                widget._states_to_send.clear()
                if not keys:
                    continue
                if not self.batching or widget._property_lock or widget.comm is None:
                    widget.send_state(keys)
                    continue
                state = widget.get_state(key=keys)
                if _has_buffers(state):
                    widget.send_state(keys)
                    continue
                changes.append([widget.model_id, state])
                batched.append((widget, keys))
            if len(batched) == 1:  # one widget: its own message is as short
                widget, keys = batched[0]
                widget.send_state(keys)
            elif changes:
                self.batches += 1
                self.merged += len(changes)
                self.send({"sync": changes})


def _has_buffers(state: dict[str, Any]) -> bool:
    """Does this state hold binary buffers (which a JSON batch cannot carry)?"""
    return bool(widgets.widget._remove_buffers(state)[2])
