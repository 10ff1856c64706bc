"""A room of an MQTT broker, reached from the player's page: ``online()``'s relay.

Copying two codes by chat always works; a relay saves the copying.  The terminal's
``durak-lan --online --relay`` talks MQTT over WebSocket from Python (paho-mqtt,
:mod:`durak_net.relay`); a notebook's kernel may have no socket at all (the JupyterLite
site's kernel runs in a Web Worker), so here the MQTT client runs in the page, as the
WebRTC channel does (:mod:`durak_widgets.channel`): mqtt.js, the MQTT client of the npm
registry that serverless WebRTC libraries use, in its browser build as published
(``static/mqtt.esm.js``, MIT, with its licence beside it), handed to the page once over
the widget's comm and imported from a ``blob:`` URL, so it works wherever the kernel is
and needs no server of ours.

The room's topics and messages are the terminal's (docs/lan-protocol.md section 14:
:func:`durak_net.relay.topic`); the kernel computes the topics and says what to post
and what to watch; the page only moves text.  One page owns the client, as with the
channel (the first that asks; a notebook open in two tabs does not post twice).  The
broker is as untrusted as a chat: a code it rewrites is caught by the pairing words,
and a code that is not one is refused by :func:`durak_net.online_code.unpack_description`.

>>> room = PageRoom(url="ws://127.0.0.1:1883/", room="falcon-river-teapot")
>>> room.state, room.topics["offer"]
('new', 'durak/6/fa7b823504b1488e85ae65fd7e534622/offer')
>>> room._handle({"t": "claim", "page": "p1"}, [])
>>> room._handle({"t": "claim", "page": "p2"}, [])
>>> room.owner, room.drops["claim_refused"]
('p1', 1)
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import anywidget
import traitlets

from durak_net.relay import KINDS, normalise_room, parse_url, topic

from .channel import OWNERSHIP_JS, from_owner

#: mqtt.js's browser build (npm ``mqtt``), as published, and its SHA-256 (checked when
#: read: a changed file is refused rather than run in the page).
MQTT_JS: Final = Path(__file__).with_name("static") / "mqtt.esm.js"
MQTT_JS_VERSION: Final = "5.16.0"
MQTT_JS_SHA256: Final = "6e009e77fc644cbf7b46ea37ba77fbdaf5780452389a57f2b4a676437c2defdd"

#: The states :attr:`PageRoom.state` goes through.
STATES: Final = ("new", "connecting", "ready", "failed", "closed")

_ESM = OWNERSHIP_JS + r"""
let LIBRARY = null;  // mqtt.js, imported once per page

async function mqttLibrary(source) {
  if (LIBRARY === null) {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    try { LIBRARY = (await import(url)).default; } finally { URL.revokeObjectURL(url); }
  }
  return LIBRARY;
}

function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return String(Math.random()).slice(2) + String(Date.now());
}

function initialize({ model }) {
  const me = { page: newId(), client: null };
  const tell = (msg) => { msg.page = me.page; model.send(msg); };
  const fail = (error) => tell({ t: "error", detail: String((error && error.message) || error) });

  const start = async (msg) => {
    if (me.client) return;
    let mqtt;
    try { mqtt = await mqttLibrary(msg.library); } catch (error) { fail(error); return; }
    let client;
    try {
      client = mqtt.connect(msg.url, { protocolVersion: 4, clean: true, reconnectPeriod: 0,
                                       connectTimeout: msg.timeout_ms,
                                       clientId: "durak-" + me.page.slice(0, 12) });
    } catch (error) { fail(error); return; }
    me.client = client;
    client.on("connect", () => tell({ t: "ready" }));
    client.on("error", (error) => fail(error));
    client.on("close", () => tell({ t: "closed" }));
    client.on("message", (topic, payload) => {
      const text = new TextDecoder().decode(payload);  // not a code: refused by the kernel
      if (text) tell({ t: "message", topic, text });
    });
  };

  const onMessage = async (msg) => {
    if (!msg || msg.to !== me.page) return;
    const client = me.client;
    if (msg.t === "start") { await start(msg); return; }
    if (!client) return;
    if (msg.t === "post") {
      client.publish(msg.topic, msg.text, { qos: 1, retain: true }, (error) => {
        if (error) fail(error); else tell({ t: "posted", topic: msg.topic, text: msg.text });
      });
    } else if (msg.t === "watch") {
      client.subscribe(msg.topic, { qos: 1 }, (error) => { if (error) fail(error); });
    } else if (msg.t === "close") {
      client.end();
    }
  };
  model.on("msg:custom", onMessage);
  const disown = ownership(model, me, tell);
  return () => {
    disown();
    model.off("msg:custom", onMessage);
    if (me.client) me.client.end(true);
  };
}

export default { initialize };
"""


def mqtt_library() -> str:
    """mqtt.js's text, checked against :data:`MQTT_JS_SHA256`."""
    data = MQTT_JS.read_bytes()
    if hashlib.sha256(data).hexdigest() != MQTT_JS_SHA256:
        raise RuntimeError(f"{MQTT_JS} is not mqtt.js {MQTT_JS_VERSION} as published")
    return data.decode("utf-8")


class PageRoom(anywidget.AnyWidget):
    """One room on one MQTT broker, its client in the owner page (module doc).

    url: the broker's WebSocket URL (``ws://`` or ``wss://``); room: the room's words.
    ``on_message(kind, text)`` is called with each message of a watched topic (on the
    comm's thread); commands sent before the page is ready wait for it, in order.
    """

    _esm = _ESM
    #: One of :data:`STATES`.
    state = traitlets.Unicode("new").tag(sync=True)
    #: The page that owns the client ("" until one asks).
    owner = traitlets.Unicode("").tag(sync=True)
    #: What went wrong, in the page's words ("" while nothing did).
    error = traitlets.Unicode("")

    def __init__(self, *, url: str, room: str, timeout_ms: int = 10_000,
                 clock: Callable[[], float] = time.monotonic, **kwargs: Any) -> None:
        parse_url(url)  # ValueError: one line
        super().__init__(**kwargs)
        self.layout.display = "none"  # nothing to see: the lobby says what the room does
        self.url = url
        self.room = normalise_room(room)
        self.timeout_ms = timeout_ms
        self.topics = {kind: topic(self.room, kind) for kind in KINDS}
        self._kinds = {t: k for k, t in self.topics.items()}
        self._pending: list[dict[str, Any]] = []
        #: Called with (kind, text) for each message of a watched topic.
        self.on_message: Callable[[str, str], None] | None = None
        #: What was posted and acknowledged by the broker, by kind ("" a clearing).
        self.posted: dict[str, str] = {}
        self.drops: Counter[str] = Counter()
        #: The clock the owner's probe is timed on (channel.from_owner).
        self.clock = clock
        self.probed_at: float | None = None
        self._watching: list[str] = []
        self.on_msg(lambda _widget, content, buffers: self._handle(content, buffers))

    # ------------------------------------------------------------ commands

    def post(self, kind: str, text: str) -> None:
        """Leave ``text`` (a code; "" clears) in the room as its ``kind`` message."""
        self._command({"t": "post", "topic": self.topics[kind], "text": text})

    def clear(self) -> None:
        """Remove both messages of the room (an empty retained message clears a topic)."""
        for kind in KINDS:
            self.post(kind, "")

    def watch(self, kind: str) -> None:
        """Have :attr:`on_message` called with the room's ``kind`` message."""
        if kind not in self._watching:
            self._watching.append(kind)
        self._command({"t": "watch", "topic": self.topics[kind]})

    def close_room(self) -> None:
        self._command({"t": "close"})
        if self.state != "failed":
            self.state = "closed"

    def _command(self, content: dict[str, Any]) -> None:
        if self.state == "ready" and self.owner:
            self.send({**content, "to": self.owner})
        elif self.state in ("new", "connecting"):
            self._pending.append(content)

    # ------------------------------------------------------------ the page's messages

    def _handle(self, content: Any, buffers: Sequence[Any]) -> None:
        got = from_owner(self, content)
        if got is None:
            return
        kind, page = got
        if kind in ("takeover", "bye") and self.state in ("connecting", "ready"):
            # The owner's tab is gone, and its client with it: the next owner connects
            # again and watches what was watched (the lobby posts its new code itself).
            self.state = "new"
            self._pending = [{"t": "watch", "topic": self.topics[k]} for k in self._watching]
        if kind in ("claim", "takeover"):
            if self.state != "new":
                return  # closed or failed: the new owner has nothing to start
            self.state = "connecting"
            self.send({"t": "start", "to": page, "url": self.url, "timeout_ms": self.timeout_ms,
                       "library": mqtt_library()})
            return
        if kind == "ready":
            self.state = "ready"
            pending, self._pending = self._pending, []
            for each in pending:
                self._command(each)
        elif kind == "message":
            which, text = self._kinds.get(content.get("topic", "")), content.get("text")
            if which is None or not isinstance(text, str):
                self.drops["not_ours"] += 1
            elif self.on_message is not None:
                self.on_message(which, text)
        elif kind == "posted":
            which = self._kinds.get(content.get("topic", ""))
            if which is not None and isinstance(content.get("text"), str):
                self.posted[which] = content["text"]
        elif kind == "error":
            self.error = str(content.get("detail", ""))
            self.state = "failed"
        elif kind == "closed":
            if self.state not in ("failed",):
                if self.state != "ready":
                    self.error = self.error or "the relay closed the connection"
                    self.state = "failed"
                else:
                    self.state = "closed"
        else:
            self.drops["unknown_message"] += 1
