"""The line-based JSON protocol between the arena and a bot program (see docs/bot-protocol.md).

One message per line, UTF-8 JSON objects with a ``type`` key.  This module
holds what both sides share: the name and version, encoding and decoding of
lines, and turning event dicts back into :mod:`durak_core.events` values.

>>> decode(encode({"type": "bye"}))
{'type': 'bye'}
>>> decode(b"not json")
Traceback (most recent call last):
...
durak_arena.protocol.ProtocolError: not a JSON line: b'not json'
"""

from __future__ import annotations

import json
from typing import Any

from durak_core.events import Event
from durak_core.events import event_from_dict as core_event_from_dict

PROTOCOL = "durak-bot"
VERSION = 1
#: A longer line from a bot is garbage (an observation is a few kilobytes).
MAX_LINE = 1 << 20


class ProtocolError(ValueError):
    """A line that is not a message of this protocol."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line of UTF-8 JSON, newline included."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes | str) -> dict[str, Any]:
    """Parse one line into a message; :class:`ProtocolError` says what is wrong with it."""
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    try:
        message = json.loads(text)
    except ValueError:
        raise ProtocolError(f"not a JSON line: {_shorten(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a message (a JSON object with a 'type'): {_shorten(line)}")
    return message


def _shorten(line: bytes | str, most: int = 120) -> str:
    text = repr(line)
    return text if len(text) <= most else text[: most - 3] + "..."


def event_from_dict(data: dict[str, Any]) -> Event:
    """An event of a message, via :func:`durak_core.events.event_from_dict`.

    >>> from durak_core import Card, Drew, event_to_dict
    >>> e = Drew(1, (Card.parse("7h"), None))
    >>> event_from_dict(event_to_dict(e)) == e
    True
    """
    try:
        return core_event_from_dict(data)
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None
