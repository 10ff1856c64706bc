"""The codes through a relay: an MQTT broker over WebSocket, reached by a short room name.

Copying two codes by chat always works; a relay saves the second copy.  The inviter
names a room (three words, :func:`new_room`) and tells it to the friend; both connect
to the same broker, the inviter leaves its invitation code in the room and the friend's
terminal answers with its reply code there (docs/lan-protocol.md, section 14: the
topics and messages).  MQTT over WebSocket is what serverless WebRTC libraries use, so
any well-known public broker, or one of the player's own, will do.

The broker is untrusted, like a chat: a code it rewrites makes the DTLS fingerprints or
ICE credentials differ, and a man in the middle who rewrites both ends up between two
sessions whose pairing words differ.  Messages are retained so that whoever comes second
still finds the code; the inviter clears the room once its channel is open.

The topic derivation and the messages are pure (:func:`topic`); :class:`Room` is the
thin part that owns the MQTT client (paho-mqtt, whose network thread does the I/O).
"""

from __future__ import annotations

import hashlib
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urlsplit

from .crypto import Entropy
from .i18n import _
from .wire import PROTOCOL_VERSION
from .words import WORDS

#: Every topic starts here: the protocol and its version.
TOPIC_PREFIX: Final = f"durak/{PROTOCOL_VERSION}"
#: The two messages of a room.
KINDS: Final = ("offer", "answer")


class RelayError(RuntimeError):
    """The relay could not be used (unreachable, refused): one line for a person."""


def new_room(entropy: Entropy = os.urandom) -> str:
    """Three words of the pairing list, joined by ``-``: 24 bits, to be read out or
    typed (``"falcon-river-teapot"``)."""
    return "-".join(WORDS[b] for b in entropy(3))


def normalise_room(room: str) -> str:
    """A room name as typed (case, spaces or dashes between the words) as one form.

    >>> normalise_room("  Falcon River teapot ")
    'falcon-river-teapot'
    """
    words = room.replace("-", " ").lower().split()
    if not words or any(not w.isascii() or not w.isalnum() for w in words):
        raise ValueError(_("a room is words joined by dashes, like falcon-river-teapot, "
                           "not {room!r}").format(room=room))
    return "-".join(words)


def topic(room: str, kind: str) -> str:
    """``durak/<version>/<BLAKE2b-128(room) in hex>/<kind>``: the room's words are not
    shown to whoever lists the broker's topics.

    >>> topic("falcon-river-teapot", "offer")
    'durak/6/fa7b823504b1488e85ae65fd7e534622/offer'
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be 'offer' or 'answer', not {kind!r}")
    digest = hashlib.blake2b(b"durak room " + normalise_room(room).encode(),
                             digest_size=16).hexdigest()
    return f"{TOPIC_PREFIX}/{digest}/{kind}"


def parse_url(url: str) -> tuple[str, str, int, str]:
    """``ws://host:port/path`` or ``wss://...`` -> (scheme, host, port, path)."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(_("a relay is an MQTT broker's WebSocket URL, "
                           "ws://HOST:PORT/PATH or wss://HOST:PORT/PATH, not {url!r}")
                         .format(url=url))
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    return parts.scheme, parts.hostname, port, parts.path or "/"


class Room:
    """One room on one broker: post our code, wait for the other's.

    url: the broker's WebSocket URL; room: the room's name.  ``connect_timeout``:
    seconds to reach the broker before :class:`RelayError`.
    """

    def __init__(self, url: str, room: str, *, connect_timeout: float = 10.0,
                 client_factory: Callable[..., Any] | None = None) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.scheme, self.host, self.port, self.path = parse_url(url)
        self.room = normalise_room(room)
        self._inbox: queue.Queue[tuple[str, str]] = queue.Queue()
        self._connected = threading.Event()
        self._refused: str | None = None
        factory = client_factory or mqtt.Client
        self._client = factory(CallbackAPIVersion.VERSION2, transport="websockets",
                               protocol=mqtt.MQTTv311)
        self._client.ws_set_options(path=self.path)
        if self.scheme == "wss":
            self._client.tls_set()
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        try:
            self._client.connect(self.host, self.port, keepalive=30)
        except (OSError, ValueError) as exc:
            raise RelayError(_("cannot reach the relay {url}: {reason}").format(
                url=url, reason=exc)) from None
        self._client.loop_start()
        if not self._connected.wait(connect_timeout) or self._refused:
            self.close()
            raise RelayError(_("the relay {url} did not let us in: {reason}").format(
                url=url, reason=self._refused or _("no answer")))

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            self._refused = str(reason)
        self._connected.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            text = message.payload.decode("ascii")
        except UnicodeDecodeError:
            return  # not a code: the reader of the code would refuse it anyway
        if text:
            self._inbox.put((message.topic, text))

    def post(self, kind: str, code: str) -> None:
        """Leave ``code`` in the room as its ``kind`` message (retained)."""
        self._client.publish(topic(self.room, kind), code.encode("ascii"), qos=1,
                             retain=True).wait_for_publish(10.0)

    def wait(self, kind: str, timeout: float | None) -> str | None:
        """The room's ``kind`` message; None if none came within ``timeout``."""
        wanted = topic(self.room, kind)
        self._client.subscribe(wanted, qos=1)
        while True:
            try:
                got, text = self._inbox.get(timeout=timeout)
            except queue.Empty:
                return None
            if got == wanted:
                return text

    def clear(self) -> None:
        """Remove our retained messages (an empty retained message clears a topic)."""
        for kind in KINDS:
            self._client.publish(topic(self.room, kind), b"", qos=1,
                                 retain=True).wait_for_publish(5.0)

    def close(self) -> None:
        self._client.loop_stop()
        self._client.disconnect()
