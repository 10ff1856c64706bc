"""Play by keyboard, and what a screen reader says: the table's own bit of JavaScript.

ipywidgets' buttons take Tab and Enter by themselves; the rest needs code in the page,
so this is an `anywidget <https://anywidget.dev>`_ (one ES module, no build step) placed
in the table's root:

- the arrow keys move the focus along the hand, the action buttons and the table's
  cards (left/right within a row, up/down between rows), Enter or Space plays the
  focused card or button; letters stand for the buttons (:data:`KEYS`: T Take, B
  Beaten/Pass, P Transfer, S show the trump, N new game, H hint, R review), read by the
  key's place (``KeyboardEvent.code``) so they work in a Russian layout too; "?" shows
  the keys and Escape hides them (or, with them hidden, hands the focus back to the
  notebook's cell); the focused element gets a visible ring (style.py);
- every card button is named for screen readers by its tooltip ("queen of clubs,
  trump"), copied to ``aria-label``;
- a polite live region (``role="status"``) reads out :attr:`TableKeys.announce`: what
  the others played, whose move it is, why a click was refused.

The table keeps JupyterLab's own single-letter shortcuts (B inserts a cell, H shows
help) from firing while its focus is inside (``data-lm-suppress-shortcuts``).

Each time the table is drawn in a page, this view tells the kernel so (``{"event":
"shown"}``, :attr:`TableKeys.on_shown`), and the table sends the whole state of its
widgets again (:meth:`~durak_widgets.view.TableView.resync`).  A page that connects to a
running kernel (a Voila app, a reloaded notebook) asks for the widgets' state and only
then starts listening to them; a change the kernel makes in between (a bot's first
lead) is lost, and the table would stay as it was, half old and half new, waiting for a
move already made.  When this view is drawn, every widget of the table has its model in
the page, listening; what the kernel sends from then on arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

#: The buttons' keys, by ``KeyboardEvent.code``: the CSS class of the button each
#: clicks (the first visible of several).  Shown on the table by "?" (words.keys_help).
KEYS: dict[str, tuple[str, ...]] = {
    "KeyT": ("durak-btn-take",),
    "KeyB": ("durak-btn-pass",),
    "KeyP": ("durak-btn-transfer",),
    "KeyS": ("durak-btn-show",),
    "KeyN": ("durak-btn-new", "durak-btn-reveal"),
    "KeyH": ("durak-btn-hint",),
    "KeyR": ("durak-btn-review",),
}

_ESM = r"""
function visible(el) {
  return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
}

function buttonsIn(row) {
  return Array.from(row.querySelectorAll("button")).filter((b) => visible(b) && !b.disabled);
}

function rowsOf(root) {
  const rows = [];
  for (const selector of [".durak-hand", ".durak-actions", ".durak-table", ".durak-banner"]) {
    const row = root.querySelector(selector);
    if (row && buttonsIn(row).length) rows.push(row);
  }
  const reveal = root.querySelector(".durak-btn-reveal");
  if (reveal && visible(reveal)) rows.unshift(reveal.parentElement);
  return rows;
}

function name(root) {
  for (const b of root.querySelectorAll("button.durak-card")) {
    const title = b.getAttribute("title");
    if (title && b.getAttribute("aria-label") !== title) b.setAttribute("aria-label", title);
  }
}

function render({ model, el }) {
  el.classList.add("durak-keys");
  const live = document.createElement("div");
  live.className = "durak-live";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  const help = document.createElement("div");
  help.className = "durak-keys-help";
  help.setAttribute("role", "note");
  help.hidden = true;
  el.append(live, help);
  // Drawn: every model of the table is in the page and listening (see the module's
  // docstring); the kernel answers with the table's whole state (in one message if
  // this page's durak_widgets/sync.py script said it applies batches: the same page).
  model.send({ event: "shown", page: window.__durakPage || "" });

  const say = () => { live.textContent = model.get("announce"); };
  const drawHelp = () => {
    help.replaceChildren();
    const title = document.createElement("strong");
    title.textContent = model.get("help_title");
    const list = document.createElement("ul");
    for (const line of model.get("help_lines")) {
      const item = document.createElement("li");
      item.textContent = line;
      list.append(item);
    }
    help.append(title, list);
  };
  model.on("change:announce", say);
  model.on("change:help_lines", drawHelp);
  say();
  drawHelp();

  let root = null;
  let observer = null;
  let focused = null;
  // A focused card or button that a redraw hides (a card played, a button no longer
  // offered) would drop the focus to the page: hand it to its row's nearest button, or
  // the first row's, so the next key still reaches the table.
  const keepFocus = () => {
    if (!focused || visible(focused)) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== focused) return;
    const rows = rowsOf(root);
    const row = rows.find((r) => r.contains(focused)) || rows[0];
    if (!row) return;
    const buttons = buttonsIn(row);
    const playable = buttons.find((b) => b.classList.contains("durak-playable"));
    const next = playable || buttons[0];
    if (next) next.focus();
  };
  const onFocus = (event) => { focused = event.target; };
  const onKey = (event) => {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "?") {
      help.hidden = !help.hidden;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (event.key === "Escape") {
      if (!help.hidden) {
        help.hidden = true;
      } else {
        // Out of the table, back to the notebook's cell, where Lab's own keys work
        // again (B inserts a cell below, as a notebook user expects).
        const cell = root.closest(".jp-Cell") || root.closest(".jp-Notebook");
        if (cell) cell.focus();
      }
      event.stopPropagation();
      return;
    }
    const arrows = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
    if (arrows.includes(event.key)) {
      const rows = rowsOf(root);
      if (!rows.length) return;
      let r = rows.findIndex((row) => row.contains(document.activeElement));
      let buttons = r >= 0 ? buttonsIn(rows[r]) : [];
      let i = buttons.indexOf(document.activeElement);
      if (r < 0) { r = 0; buttons = buttonsIn(rows[0]); i = -1; }
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        const step = event.key === "ArrowRight" ? 1 : -1;
        i = i < 0 ? 0 : (i + step + buttons.length) % buttons.length;
      } else {
        const step = event.key === "ArrowDown" ? 1 : -1;
        r = (r + step + rows.length) % rows.length;
        buttons = buttonsIn(rows[r]);
        i = Math.min(Math.max(i, 0), buttons.length - 1);
      }
      if (buttons[i]) buttons[i].focus();
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const classes = model.get("shortcuts")[event.code];
    if (classes) {
      for (const cls of classes) {
        const button = root.querySelector("." + cls);
        if (button && visible(button) && !button.disabled) {
          button.click();
          event.preventDefault();
          event.stopPropagation();
          return;
        }
      }
    }
  };

  const attach = () => {
    root = el.closest(".durak-root");
    if (!root) { requestAnimationFrame(attach); return; }
    root.setAttribute("data-lm-suppress-shortcuts", "true");
    root.setAttribute("data-p-suppress-shortcuts", "true");
    root.addEventListener("keydown", onKey);
    root.addEventListener("focusin", onFocus);
    name(root);
    observer = new MutationObserver(() => { name(root); keepFocus(); });
    observer.observe(root, { subtree: true, attributes: true, childList: true,
                             attributeFilter: ["title", "style", "class"] });
  };
  attach();
  return () => {
    if (root) {
      root.removeEventListener("keydown", onKey);
      root.removeEventListener("focusin", onFocus);
    }
    if (observer) observer.disconnect();
  };
}

export default { render };
"""


class TableKeys(anywidget.AnyWidget):
    """The keyboard, the screen readers' names and the live region of one table."""

    _esm = _ESM
    #: What the live region says now (a change is read out).
    announce = traitlets.Unicode("").tag(sync=True)
    #: The "?" panel: its title and one line a key, in the table's language.
    help_title = traitlets.Unicode("").tag(sync=True)
    help_lines = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: ``KeyboardEvent.code`` -> the classes of the buttons the key clicks.
    shortcuts = traitlets.Dict(
        default_value={code: list(classes) for code, classes in KEYS.items()}
    ).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Called when a page has drawn the table (on whatever thread delivers comm
        #: messages): the table re-sends its state, which that page may have missed.
        self.on_shown: Callable[[], None] = lambda: None
        #: The page that drew the table last (its id, from durak_widgets.sync's script;
        #: "" if unknown).
        self.shown_in = ""
        self.on_msg(self._from_page)

    def _from_page(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "shown":
            page = content.get("page")
            self.shown_in = page if isinstance(page, str) else ""
            self.on_shown()
