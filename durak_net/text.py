"""Text that came over the network, made safe to show: one place for every name and
reason a peer sends.

Anyone on the LAN can send a name or a reason, and a terminal obeys escape codes: a
name holding ``ESC[2J`` clears the screen, one holding a newline and ``PROBLEM:``
forges a line, a right-to-left override turns text around.  So every such string is
shown through :func:`plain` (control and format characters removed, whitespace runs
made one space, the length capped), and the terminal peer's every line through
:func:`printable` as well.  HTML (the notebook) escapes the plain text on top
(``html.escape(plain(...))``).

>>> plain("Eve\\x1b[2J\\nPROBLEM: desync")
'Eve [2J PROBLEM: desync'
>>> plain("Bob\\u202eevil", 40)
'Bob evil'
>>> plain("x" * 50, 10)
'xxxxxxxxx…'
"""

from __future__ import annotations

import unicodedata

#: Longest name (as the wire allows) and reason shown.
NAME_LIMIT = 40
REASON_LIMIT = 200


def _is_control(ch: str) -> bool:
    """Unicode's "Other" categories: controls (C0, C1, DEL), formats (bidi overrides,
    zero-width characters), surrogates, private use, unassigned."""
    return unicodedata.category(ch)[0] == "C"


def plain(text: object, limit: int = REASON_LIMIT) -> str:
    """``text`` on one line: control and format characters become spaces, whitespace
    runs one space, and at most ``limit`` characters (the last one ``…`` if cut)."""
    cleaned = "".join(" " if _is_control(ch) else ch for ch in str(text))
    cleaned = " ".join(cleaned.split())
    if len(cleaned) > limit:
        cleaned = cleaned[: max(limit - 1, 0)].rstrip() + "…"
    return cleaned


def printable(text: str) -> str:
    """``text`` with every control and format character removed but newlines (the
    terminal peer's last guard: whatever a line holds, it cannot steer the terminal)."""
    return "".join(ch for ch in text if ch == "\n" or not _is_control(ch))
