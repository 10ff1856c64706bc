"""The table's look: one <style> block, shipped in an HTML widget (no external assets).

Every rule is scoped under ``.durak-root`` so it cannot leak into the rest of
JupyterLab, and is specific enough (``.durak-root button.durak-card``) to win over
ipywidgets' own button styles.  Users restyle by adding their own rules for the same
classes (see docs/widgets.md for the list).
"""

from __future__ import annotations

import html

CSS = """
.durak-root {
  --durak-card-w: 56px;
  --durak-card-h: 80px;
  --durak-red: #c62828;
  --durak-black: #1b1b1b;
  --durak-blue: #1546b0;
  --durak-green: #1b6e20;
  /* A card's ink by suit: two colours, or four with the durak-four-colour class. */
  --durak-ink-S: var(--durak-black);
  --durak-ink-H: var(--durak-red);
  --durak-ink-D: var(--durak-red);
  --durak-ink-C: var(--durak-black);
  --durak-card-bg: #fffdf7;
  /* A card that cannot be played now: a grey face, its ink as dark as ever (no
     opacity, which would take its contrast below WCAG AA's 4.5:1). */
  --durak-dimmed-bg: #e8e8e8;
  --durak-focus: #0b57d0;
  --durak-felt: #1f6f43;
  --durak-gold: #f2b705;
  font-family: var(--jp-ui-font-family, sans-serif);
  gap: 6px;
  /* The table lays itself out: a redraw does not lay out the notebook around it, nor
     the notebook the table (docs/benchmarks.md, "Online play between two pages"). */
  contain: layout style;
}
/* ipywidgets gives HTML text the height of a button row (28 px a line): text lines
   here take their own height, so a status of two lines or the hint's rows stay short. */
.durak-root .widget-html-content { line-height: 1.35; }
.durak-root .durak-board { gap: 12px; align-items: flex-start; flex-wrap: wrap; }
.durak-root .durak-play { flex: 1 1 520px; min-width: 0; gap: 5px; }
.durak-root .durak-felt {
  background: var(--durak-felt);
  border-radius: 10px;
  padding: 6px 12px;
  color: #f5f5f5;
  gap: 4px;
}
.durak-root .durak-opponents { gap: 12px; flex-wrap: wrap; }
.durak-root .durak-opponent {
  min-width: 84px;
  padding: 2px 6px;
  border-radius: 8px;
  border: 2px solid transparent;
}
.durak-root .durak-opponent.durak-thinking { border-color: var(--durak-gold); }
.durak-root .durak-opponent.durak-out { opacity: 0.5; }
.durak-root .durak-seat-name { font-weight: 600; color: #fff; }
.durak-root .durak-role {
  font-size: 11px; font-weight: 600; padding: 0 5px; border-radius: 6px;
  background: rgba(255,255,255,0.18); margin-left: 4px;
}
.durak-root .durak-backs { display: flex; align-items: center; height: 36px; }
.durak-root .durak-back {
  display: inline-block; width: 22px; height: 32px; margin-right: -16px;
  border-radius: 4px; border: 2px solid #fff;
  background: repeating-linear-gradient(45deg, #3949ab 0 4px, #283593 4px 8px);
}
.durak-root .durak-count { margin-left: 22px; font-weight: 700; color: #fff; }
.durak-root .durak-known { font-size: 12px; color: #e0e0e0; }
.durak-root .durak-thinking-note { font-size: 12px; color: var(--durak-gold); }
.durak-root .durak-opponent.durak-away { border-color: #ef9a9a; border-style: dashed; }
.durak-root .durak-seat-kind { font-size: 11px; color: #c8e6c9; }
.durak-root .durak-seat-state { font-size: 12px; font-weight: 600; color: #ffcdd2; }
.durak-root .durak-me .durak-seat-state { color: var(--durak-red); }
.durak-root .durak-no-throw { font-size: 11px; color: #a5d6a7; font-style: italic; }
.durak-root .durak-clock { font-size: 12px; font-weight: 700; color: #fff; }
.durak-root .durak-me .durak-clock { color: inherit; }
.durak-root .durak-clock.durak-clock-low { color: var(--durak-gold); }
.durak-root .durak-me .durak-clock.durak-clock-low { color: var(--durak-red); }
.durak-root .durak-table-line { font-size: 12px; color: #e8f5e9; }
.durak-root .durak-middle { align-items: center; gap: 24px; min-height: 104px; }
.durak-root .durak-deck { min-width: 110px; }
.durak-root .durak-talon { position: relative; height: 86px; width: 110px; }
.durak-root .durak-talon .durak-trump-under {
  position: absolute; left: 0; top: 4px; width: 50px; height: 72px; background: #fffdf7;
  border-radius: 6px; border: 2px solid var(--durak-gold); font-weight: 700;
  font-size: 15px; line-height: 1.1; padding: 3px 0 0 3px; box-sizing: border-box;
  transform: rotate(-8deg);
}
/* Rank over suit in the strip the pile leaves uncovered (26 px): "10" fits, and the
   suit always shows. */
.durak-root .durak-talon .durak-trump-rank,
.durak-root .durak-talon .durak-trump-suit { display: block; width: 24px; text-align: center; }
.durak-root .durak-talon .durak-trump-rank { letter-spacing: -1px; }
.durak-root .durak-talon .durak-trump-suit { font-size: 18px; }
.durak-root .durak-talon .durak-talon-pile {
  position: absolute; left: 30px; top: 10px; width: 50px; height: 72px; border-radius: 6px;
  border: 2px solid #fff; color: #fff; font-weight: 700; display: flex;
  align-items: center; justify-content: center; box-sizing: border-box;
  background: repeating-linear-gradient(45deg, #3949ab 0 5px, #283593 5px 10px);
}
.durak-root .durak-talon .durak-talon-empty { color: #e0e0e0; font-size: 13px; }
.durak-root .durak-discard { font-size: 13px; color: #e0e0e0; }
.durak-root .durak-table { gap: 14px; min-height: 104px; align-items: flex-start; flex-wrap: wrap; }
.durak-root .durak-table-empty { color: #c8e6c9; font-style: italic; }
.durak-root .durak-pair {
  position: relative; width: calc(var(--durak-card-w) + 30px); height: 108px;
}
/* Room above the cards for a selected one, which rises by 12 px. */
.durak-root .durak-hand {
  flex-wrap: wrap; gap: 4px; align-items: flex-end; padding-top: 12px; margin: 0;
}
.durak-root button.durak-card {
  width: var(--durak-card-w); height: var(--durak-card-h); min-width: var(--durak-card-w);
  margin: 0; border-radius: 7px; border: 1px solid #9e9e9e;
  background: var(--durak-card-bg); box-shadow: 0 1px 3px rgba(0,0,0,0.35);
  font-size: 17px; font-weight: 700; line-height: 1; position: relative;
  display: flex; align-items: flex-start; justify-content: flex-start;
  padding: 5px 0 0 5px; text-align: left; box-sizing: border-box;
  transition: transform 0.12s ease, opacity 0.12s ease;
}
.durak-root button.durak-card::after {
  position: absolute; right: 6px; bottom: 5px; font-size: 26px; line-height: 1;
}
.durak-root button.durak-suit-S::after { content: "\\2660"; }
.durak-root button.durak-suit-C::after { content: "\\2663"; }
.durak-root button.durak-suit-D::after { content: "\\2666"; }
.durak-root button.durak-suit-H::after { content: "\\2665"; }
.durak-root.durak-four-colour {
  --durak-ink-D: var(--durak-blue); --durak-ink-C: var(--durak-green);
}
.durak-root button.durak-suit-S { color: var(--durak-ink-S); }
.durak-root button.durak-suit-H { color: var(--durak-ink-H); }
.durak-root button.durak-suit-D { color: var(--durak-ink-D); }
.durak-root button.durak-suit-C { color: var(--durak-ink-C); }
.durak-root button.durak-trump { border: 2px solid var(--durak-gold); }
.durak-root button.durak-trump::before {
  content: "\\2605"; position: absolute; right: 4px; top: 4px; font-size: 12px;
  color: var(--durak-gold);
}
.durak-root button.durak-playable { box-shadow: 0 0 0 2px #43a047, 0 2px 5px rgba(0,0,0,0.4); }
.durak-root button.durak-playable:hover { transform: translateY(-4px); }
.durak-root button.durak-dimmed {
  background: var(--durak-dimmed-bg); border: 1px dashed #757575; box-shadow: none;
}
/* The keyboard's focus: a ring that shows on the felt, on white and on a card. */
.durak-root button:focus-visible {
  outline: 3px solid var(--durak-focus); outline-offset: 2px;
  box-shadow: 0 0 0 5px #fff;
}
/* The screen readers' live region: read out, not shown. */
.durak-root .durak-live {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap;
}
.durak-root .durak-keys-help {
  font-size: 13px; padding: 6px 10px; border-radius: 8px; border: 2px solid var(--durak-focus);
  background: var(--jp-layout-color1, #fff); color: var(--jp-ui-font-color1, #1b1b1b);
}
.durak-root .durak-keys-help ul { margin: 4px 0 0; padding-left: 18px; }
.durak-root button.durak-selected {
  transform: translateY(-12px); box-shadow: 0 0 0 3px #1e88e5, 0 4px 8px rgba(0,0,0,0.4);
}
.durak-root button.durak-target { box-shadow: 0 0 0 3px #1e88e5, 0 0 12px #90caf9; }
.durak-root .durak-pair button.durak-attack { position: absolute; left: 0; top: 0; }
.durak-root .durak-pair button.durak-defence {
  position: absolute; left: 24px; top: 30px; transform: rotate(6deg);
}
.durak-root .durak-me { font-weight: 600; }
.durak-root .durak-status {
  padding: 5px 10px; border-radius: 6px; border-left: 5px solid #9e9e9e;
  background: var(--jp-layout-color2, #f3f3f3);
}
.durak-root .durak-status.durak-your-move { border-left-color: #43a047; }
.durak-root .durak-status.durak-over { border-left-color: var(--durak-gold); }
.durak-root .durak-notice { color: var(--durak-red); font-weight: 600; }
.durak-root .durak-move { float: right; font-size: 11px; color: #888; }
.durak-root .durak-actions { gap: 8px; }
.durak-root .durak-actions button { font-weight: 600; }
.durak-root .durak-banner {
  align-items: center; gap: 16px; padding: 10px 14px; border-radius: 8px;
  background: var(--durak-gold); color: #222; font-size: 18px; font-weight: 700;
}
.durak-root .durak-actions .durak-btn-hint { margin-left: auto; }
.durak-root .durak-hint {
  flex: 0 1 250px; font-size: 13px; padding: 6px 10px; border-radius: 8px;
  background: var(--jp-layout-color2, #f3f3f3);
}
.durak-root .durak-hint table { border-collapse: collapse; }
.durak-root .durak-hint td { padding: 0 10px 0 0; }
.durak-root .durak-hint .durak-hint-best { font-weight: 700; }
.durak-root .durak-review-panel { max-width: 680px; }
.durak-root .durak-log { font-size: 12px; color: var(--jp-ui-font-color2, #555); }
.durak-root .durak-log ol { margin: 0; padding-left: 18px; }
.durak-root .durak-score { font-size: 12px; }
"""

#: The script of the scroll hook (``{tries}``: how many times it looks for the drawn
#: board, 100 ms apart).  A notebook stays scrolled where it was when a cell's output
#: appears, so the table of a cell below an introduction would start below the screen:
#: once the board (the opponents to the hand) is drawn, the nearest scrolling box (Lab's
#: notebook, or the page in Voila) scrolls by the least that shows it, its top kept on
#: screen.  Then, while the board's top is on screen, a board that grows (a second row
#: of cards on the table, an opponent's known cards, the hint narrowing it) scrolls by
#: at most its growth, so the hand stays where it was; a person who scrolled away is
#: left alone.  It goes in an HTML attribute, escaped.
_SCROLL_SCRIPT = """(function (img, tries) {
  const margin = 8;
  const scroller = function (el) {
    let box = el.parentElement;
    while (box && box !== document.body) {
      const overflow = getComputedStyle(box).overflowY;
      if ((overflow === 'auto' || overflow === 'scroll') && box.scrollHeight > box.clientHeight) {
        return box;
      }
      box = box.parentElement;
    }
    return document.scrollingElement || document.documentElement;
  };
  const view = function (box) {
    if (box === document.scrollingElement || box === document.documentElement) {
      return {top: 0, bottom: window.innerHeight};
    }
    return box.getBoundingClientRect();
  };
  const show = function (board, most) {
    const box = scroller(board);
    const area = view(box);
    const rect = board.getBoundingClientRect();
    let by = 0;
    if (rect.bottom > area.bottom - margin) {
      by = Math.min(rect.bottom - area.bottom + margin, rect.top - area.top - margin, most);
    } else if (rect.top < area.top && most === Infinity) {
      by = rect.top - area.top - margin;
    }
    if (by !== 0) { box.scrollBy({top: by, left: 0, behavior: 'instant'}); }
  };
  const step = function () {
    const root = img.closest('.durak-root');
    const board = root && root.querySelector('.durak-board');
    const status = root && root.querySelector('.durak-status');
    const drawn = board && status && status.textContent.trim() !== ''
      && root.querySelector('.durak-hand, .durak-banner');
    if (!drawn) { if (--tries > 0) { setTimeout(step, 100); } return; }
    show(board, Infinity);
    if (board.durakWatched || typeof ResizeObserver === 'undefined') { return; }
    board.durakWatched = true;
    let height = board.getBoundingClientRect().height;
    new ResizeObserver(function () {
      const now = board.getBoundingClientRect();
      const growth = now.height - height;
      height = now.height;
      const area = view(scroller(board));
      if (growth > 0 && now.top >= area.top) { show(board, growth); }
    }).observe(board);
  };
  setTimeout(step, 50);
})(this, {tries})"""

#: The hook itself: an image whose load runs the script, once per drawing (the
#: widgets have no other way to run code in the page).
SCROLL_INTO_VIEW = (
    '<img alt="" class="durak-scroll-hook" style="display:none" '
    'src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==" '
    'onload="' + html.escape(" ".join(_SCROLL_SCRIPT.replace("{tries}", "60").split())) + '">'
)
