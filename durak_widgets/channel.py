"""The WebRTC data channel in the player's page, and its datagrams to and from the kernel.

A web page can carry peer-to-peer datagrams (a WebRTC data channel, unordered and
without retransmits: UDP-like, with NAT traversal); a kernel on a server cannot.  So
the connection lives in the page, in this :class:`PageChannel`, an `anywidget
<https://anywidget.dev>`_ (one ES module, no build step), and datagrams cross between
the page and the kernel over the widget's comm as binary buffers
(``model.send(msg, callbacks, buffers)`` one way, ``msg:custom`` the other).  It works
wherever the kernel runs: on the laptop, on a server, or in the page itself.

One page owns the connection.  Every front end of a kernel gets every widget's
messages (the notebook open in two tabs, or two views of one output), so each page
asks for the channel when it loads the widget (anywidget's ``initialize``, once per
page) and the kernel grants it to the first page that asks; the others show that the
table is open elsewhere (:attr:`PageChannel.elsewhere`).  Messages name the page they
are for, and a page's datagrams are taken only from the owner (others are counted in
:attr:`PageChannel.drops`).  The owner's tab may be closed (its connection goes with
it): another page then takes the channel over (:func:`from_owner`), makes new codes if
the old ones were not used yet, and otherwise says the connection was lost with the
closed tab (:attr:`PageChannel.page_lost`).

The steps, for the inviting side (``role="offer"``) and the invited one (``"answer"``):

1. the owner page makes an RTCPeerConnection (:attr:`PageChannel.ice_servers`), the
   inviter a data channel ``durak`` (``ordered: false, maxRetransmits: 0``), and the
   offer; the invited page takes the offer (given at creation) and makes the answer;
2. the page waits for ICE gathering to complete (or :attr:`PageChannel.gather_ms`) and
   sends its whole local description to the kernel: :attr:`PageChannel.local`, which
   the caller turns into a code for the other player;
3. the inviter's kernel takes the reply (:meth:`PageChannel.answer_with`) to its page;
4. once the data channel is open (:attr:`PageChannel.state` ``"open"``), datagrams
   go both ways: :meth:`PageChannel.send_datagram` and :attr:`PageChannel.on_datagram`.

The page can also spoil its own datagram path on purpose (:attr:`PageChannel.impair`:
loss, duplication and reordering, seeded) so tests see the protocol cope; its view
counts what it spoiled (``data-lost``, ``data-duplicated``, ``data-reordered``).

:attr:`PageChannel.on_datagram` is called on the thread that handles the comm (the
kernel's); :class:`ChannelCarrier` hands each datagram to the table's
:class:`~durak_widgets.handoff.Handoff` instead, under an opaque address.

>>> channel = PageChannel(role="offer", ice_servers=[])
>>> channel.state, channel.owner
('new', '')
>>> channel._handle({"t": "claim", "page": "p1"}, [])
>>> channel._handle({"t": "claim", "page": "p2"}, [])
>>> channel.owner, channel.drops["claim_refused"]
('p1', 1)
"""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import anywidget
import traitlets

from .handoff import Handoff

#: The public STUN server used when ``ice_servers`` is not given: enough for most home
#: networks; a TURN server (with its credentials) is for networks that block UDP.
DEFAULT_ICE_SERVERS: tuple[dict[str, Any], ...] = ({"urls": "stun:stun.l.google.com:19302"},)

#: The data channel's label and parameters (the spec's transport section).
CHANNEL_LABEL = "durak"

#: The states :attr:`PageChannel.state` goes through.
STATES = ("new", "gathering", "waiting", "connecting", "open", "closed", "failed")

#: How long (ms) a page that found a widget owned by another page waits before it
#: claims it once more; it then waits twice as long each time, up to a minute (a claim
#: made more than :data:`OWNER_SILENCE` after a probe the owner left unanswered takes
#: the widget over).
RECLAIM_MS = 5000

#: The page's half of :func:`from_owner`, shared by every widget one page owns: claim
#: the widget, answer the kernel's probes, say goodbye when the tab goes (or the model
#: leaves this page), claim it at once when its owner said goodbye, and once in a
#: while when another page holds it (that page may be gone without a word).
OWNERSHIP_JS = r"""
function ownership(model, me, tell) {
  const onPing = (msg) => {
    if (msg && msg.to === me.page && msg.t === "ping") tell({ t: "pong" });
  };
  model.on("msg:custom", onPing);
  // A page that said goodbye claims nothing more: the kernel's word that the widget is
  // free can reach a closing tab before it is gone, and its claim would hand the widget
  // to a dead page (the tab left would then wait for a probe to go unanswered).
  let gone = false;
  const bye = () => {
    gone = true;
    if (model.get("owner") === me.page) tell({ t: "bye" });
  };
  globalThis.addEventListener("pagehide", bye);
  const back = (event) => {  // a tab restored from the back-forward cache plays on
    if (event.persisted) { gone = false; tell({ t: "claim" }); }
  };
  globalThis.addEventListener("pageshow", back);
  const freed = () => { if (!gone && model.get("owner") === "") tell({ t: "claim" }); };
  model.on("change:owner", freed);
  let wait = RECLAIM_MS, timer = null;
  const again = () => {
    if (!gone && model.get("owner") !== me.page) tell({ t: "claim" });
    wait = Math.min(2 * wait, 60000);
    timer = setTimeout(again, wait);
  };
  tell({ t: "claim" });
  timer = setTimeout(again, wait);
  return () => {  // the model is gone from this page (its notebook closed): so is its work
    clearTimeout(timer);
    try { bye(); } catch (error) { /* the comm may be closed already */ }
    model.off("msg:custom", onPing);
    model.off("change:owner", freed);
    globalThis.removeEventListener("pagehide", bye);
    globalThis.removeEventListener("pageshow", back);
  };
}
""".replace("RECLAIM_MS", str(RECLAIM_MS))

_ESM = OWNERSHIP_JS + r"""
// One entry per channel (its id from the kernel) in this page: the connection and
// this page's id.  Module state, so a view drawn later finds the page's connection.
const PAGES = new Map();

function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return String(Math.random()).slice(2) + String(Date.now());
}

// A seeded generator (mulberry32) for the impairments a test asks for.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function initialize({ model }) {
  const id = model.get("channel_id");
  const me = { page: newId(), pc: null, dc: null, held: [], views: new Set(),
               impaired: { lost: 0, duplicated: 0, reordered: 0 } };
  PAGES.set(id, me);
  const tell = (msg, buffers) => {
    msg.page = me.page;
    model.send(msg, undefined, buffers || []);
  };
  const fail = (what, error) =>
    tell({ t: "error", what, detail: String((error && error.message) || error) });

  const waitGathered = (pc) => new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") { resolve(); return; }
    const timer = setTimeout(resolve, model.get("gather_ms"));
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
    });
  });

  // The page's own datagram path, spoiled on purpose when the kernel asks (tests).
  let random = null;
  const deliver = (send, data) => {
    const impair = model.get("impair") || {};
    if (!impair.loss && !impair.duplicate && !impair.reorder) { send(data); return; }
    if (random === null) random = rng(impair.seed || 1);
    const count = (what) => {
      me.impaired[what] += 1;
      for (const view of me.views) view();
    };
    if (random() < (impair.loss || 0)) { count("lost"); return; }
    const copies = random() < (impair.duplicate || 0) ? 2 : 1;
    if (copies > 1) count("duplicated");
    for (let i = 0; i < copies; i++) {
      if (random() < (impair.reorder || 0)) {
        me.held.push(data);  // overtaken by the next datagram
        count("reordered");
      } else {
        send(data);
        while (me.held.length) send(me.held.shift());
      }
    }
  };

  const useChannel = (dc) => {
    me.dc = dc;
    dc.binaryType = "arraybuffer";
    dc.onopen = () => tell({ t: "open" });
    dc.onclose = () => tell({ t: "closed" });
    // Datagrams that arrive together (a burst of the deal) cross to the kernel in one
    // comm message: each message costs a websocket frame and a turn of the kernel.
    let batch = [];
    const flush = () => {
      const buffers = batch;
      batch = [];
      if (buffers.length) tell({ t: "d" }, buffers);
    };
    dc.onmessage = (event) => {
      if (typeof event.data === "string") { tell({ t: "text" }); return; }
      deliver((data) => {
        if (!batch.length) queueMicrotask(flush);
        batch.push(data);
      }, event.data);
    };
  };

  const start = async (msg) => {
    if (me.pc) return;
    let pc;
    try {
      pc = new RTCPeerConnection({ iceServers: model.get("ice_servers") });
    } catch (error) { fail("connection", error); return; }
    me.pc = pc;
    pc.onconnectionstatechange = () => tell({ t: "state", state: pc.connectionState });
    try {
      if (msg.role === "offer") {
        useChannel(pc.createDataChannel(model.get("label"), { ordered: false, maxRetransmits: 0 }));
        await pc.setLocalDescription(await pc.createOffer());
      } else {
        pc.ondatachannel = (event) => useChannel(event.channel);
        await pc.setRemoteDescription({ type: "offer", sdp: msg.sdp });
        await pc.setLocalDescription(await pc.createAnswer());
      }
    } catch (error) { fail(msg.role === "offer" ? "offer" : "remote", error); return; }
    tell({ t: "gathering" });
    await waitGathered(pc);
    tell({ t: "local", kind: pc.localDescription.type, sdp: pc.localDescription.sdp });
  };

  const onMessage = async (msg, buffers) => {
    if (!msg || msg.to !== me.page) return;
    if (msg.t === "d") {
      const dc = me.dc;
      if (!dc || dc.readyState !== "open") return;
      for (const buffer of buffers || []) deliver((data) => dc.send(data), buffer);
    } else if (msg.t === "start") {
      await start(msg);
    } else if (msg.t === "remote") {
      try {
        await me.pc.setRemoteDescription({ type: "answer", sdp: msg.sdp });
        tell({ t: "connecting" });
      } catch (error) { fail("remote", error); }
    } else if (msg.t === "close") {
      if (me.dc) me.dc.close();
      if (me.pc) me.pc.close();
    }
  };
  model.on("msg:custom", onMessage);
  const disown = ownership(model, me, tell);
  return () => {
    disown();
    model.off("msg:custom", onMessage);
    if (me.dc) me.dc.close();
    if (me.pc) me.pc.close();
    PAGES.delete(id);
  };
}

function render({ model, el }) {
  el.classList.add("durak-rtc");
  const line = document.createElement("div");
  line.className = "durak-rtc-line";
  el.append(line);
  const draw = () => {
    const mine = PAGES.get(model.get("channel_id"));
    const owner = model.get("owner");
    const elsewhere = owner !== "" && (!mine || mine.page !== owner);
    el.classList.toggle("durak-rtc-elsewhere", elsewhere);
    el.dataset.state = model.get("state");
    if (mine) {  // what this page spoiled on purpose (impair), for tests to read
      for (const [what, n] of Object.entries(mine.impaired)) el.dataset[what] = String(n);
    }
    line.textContent = elsewhere ? model.get("elsewhere") : model.get("status");
  };
  const mine = PAGES.get(model.get("channel_id"));
  if (mine) mine.views.add(draw);
  model.on("change:owner", draw);
  model.on("change:status", draw);
  model.on("change:state", draw);
  model.on("change:elsewhere", draw);
  draw();
  return () => {
    if (mine) mine.views.delete(draw);
    model.off("change:owner", draw);
    model.off("change:status", draw);
    model.off("change:state", draw);
    model.off("change:elsewhere", draw);
  };
}

export default { initialize, render };
"""


#: How long (s) the page that owns a widget may leave a probe unanswered before a page
#: that asks for the widget takes it over: the owner's tab was closed (or its page
#: froze), and the widget's work has nobody to carry it.
OWNER_SILENCE = 3.0


class _OwnedByOnePage(Protocol):
    owner: str
    drops: Counter[str]
    #: When the owner was probed and has not answered since (None: not probed).
    probed_at: float | None
    clock: Callable[[], float]

    def send(self, content: dict[str, Any], buffers: Any = None) -> None: ...


def from_owner(widget: _OwnedByOnePage, content: Any) -> tuple[Any, str] | None:
    """The kind and page of a message a page sent ``widget``, a widget whose work one
    page owns (:class:`PageChannel`, :class:`~durak_widgets.relay_room.PageRoom`); None
    when it is dropped, and counted: malformed, a claim while another page owns it, or
    anything else from a page that does not.  A claim that stands makes its page the
    owner (kind ``"claim"``: the widget then tells that page to start).

    A closed tab leaves no word behind for sure (its last message, ``"bye"`` on
    ``pagehide``, may not get out), so the owner is probed when another page claims: a
    ``"ping"`` it answers at once.  Any message from the owner answers it; a claim
    made again :data:`OWNER_SILENCE` seconds or more after an unanswered probe takes
    the widget over (kind ``"takeover"``: the widget's work, which died with the owner
    page, is the widget's to mend).  An owner's ``"bye"`` frees the widget at once
    (kind ``"bye"``, its owner then "")."""
    if not isinstance(content, dict) or not isinstance(content.get("page"), str):
        widget.drops["malformed"] += 1
        return None
    kind, page = content.get("t"), content["page"]
    if kind == "claim":
        if widget.owner and widget.owner != page:
            now = widget.clock()
            if widget.probed_at is not None and now - widget.probed_at >= OWNER_SILENCE:
                widget.probed_at = None
                widget.owner = page
                return "takeover", page
            widget.drops["claim_refused"] += 1
            if widget.probed_at is None:
                widget.probed_at = now
                widget.send({"t": "ping", "to": widget.owner})
            return None
        widget.owner = page
    elif page != widget.owner:
        widget.drops["not_owner"] += 1
        return None
    else:
        widget.probed_at = None  # the owner is alive
        if kind == "bye":
            widget.owner = ""
        elif kind == "pong":
            return None
    return kind, page


class PageChannel(anywidget.AnyWidget):
    """One WebRTC data channel, owned by one page (see the module docstring).

    role: ``"offer"`` (we invite: the page makes the offer) or ``"answer"`` (we were
        invited: ``remote`` is the inviter's offer).
    remote: the inviter's description (SDP text), for ``role="answer"``.
    ice_servers: RTCIceServer dicts (``{"urls": "stun:..."}``; a TURN server with
        ``username`` and ``credential``); [] for none (this machine and the LAN only).
    """

    _esm = _ESM
    #: Which channel this is, so a page's module finds its own connection.
    channel_id = traitlets.Unicode("").tag(sync=True)
    #: The page that owns the connection ("" until one asks).
    owner = traitlets.Unicode("").tag(sync=True)
    #: RTCIceServer dicts for the page's RTCPeerConnection.
    ice_servers = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: The data channel's label.
    label = traitlets.Unicode(CHANNEL_LABEL).tag(sync=True)
    #: How long the page waits for ICE gathering before sending what it has (ms).
    gather_ms = traitlets.Int(5000).tag(sync=True)
    #: ``{"loss": p, "duplicate": p, "reorder": p, "seed": n}``: spoil the page's
    #: datagrams both ways on purpose (tests); {} for none.
    impair = traitlets.Dict().tag(sync=True)
    #: One of :data:`STATES`.
    state = traitlets.Unicode("new").tag(sync=True)
    #: The line the owner page shows, and the one other pages show (in the table's
    #: language: the caller sets them).
    status = traitlets.Unicode("").tag(sync=True)
    elsewhere = traitlets.Unicode("").tag(sync=True)
    #: Our local description (SDP) once the page has gathered it ("" before).
    local = traitlets.Unicode("")
    #: Why the channel failed (what the page's WebRTC said), "" while it has not.
    error = traitlets.Unicode("")
    #: The connection was lost with the page that held it (its tab closed): another
    #: page took the channel over, or the owner said goodbye, once it had connected.
    page_lost = traitlets.Bool(False)

    def __init__(
        self,
        *,
        role: str,
        remote: str = "",
        ice_servers: Sequence[dict[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        if role not in ("offer", "answer"):
            raise ValueError(f"role is 'offer' or 'answer', not {role!r}")
        if role == "answer" and not remote:
            raise ValueError("the invited side needs the inviter's description (remote=...)")
        servers = list(DEFAULT_ICE_SERVERS if ice_servers is None else ice_servers)
        for server in servers:
            if not isinstance(server, dict) or "urls" not in server:
                raise ValueError(f"an ICE server is a dict with 'urls', not {server!r}")
        super().__init__(channel_id=uuid.uuid4().hex, ice_servers=servers, **kwargs)
        self.role = role
        self._remote = remote
        self._answered = False
        #: The clock the owner's probe is timed on (tests move a fake one on).
        self.clock = clock
        self.probed_at: float | None = None
        #: How many times a page was asked for the connection afresh (its codes with it).
        self.attempt = 0
        #: Called with each datagram from the other peer, on the comm's thread.
        self.on_datagram: Callable[[bytes], None] | None = None
        #: Datagrams refused or lost on our side, by reason.
        self.drops: Counter[str] = Counter()
        #: Datagrams and comm messages carried, by direction.
        self.counts: Counter[str] = Counter()
        self.on_msg(lambda _widget, content, buffers: self._handle(content, buffers))

    # ------------------------------------------------------------ commands

    def answer_with(self, remote: str) -> None:
        """The inviter: hand the other player's answer (SDP text) to the owner page."""
        if self.role != "offer":
            raise ValueError("only the inviting side takes an answer")
        if self._answered:
            raise ValueError("this channel has its answer already")
        if not self.local:
            raise ValueError("the page has not made its offer yet")
        self._answered = True
        self._remote = remote
        self._to_owner({"t": "remote", "sdp": remote})
        if self.state in ("new", "gathering", "waiting"):
            self.state = "connecting"

    def send_datagram(self, data: bytes) -> bool:
        """Send one datagram to the other peer through the owner page; False (and
        counted in :attr:`drops`) when the channel is not open.  On the kernel's
        thread (the one that sends on its comms)."""
        return self.send_datagrams([data]) == 1

    def send_datagrams(self, datagrams: Sequence[bytes]) -> int:
        """Send several datagrams in one comm message (one websocket frame, one turn
        of the page); returns how many were sent (0 when the channel is not open)."""
        if not datagrams:
            return 0
        if self.state != "open" or not self.owner:
            self.drops["not_open"] += len(datagrams)
            return 0
        self.send({"t": "d", "to": self.owner}, buffers=[bytes(d) for d in datagrams])
        self.counts["sent"] += len(datagrams)
        self.counts["messages_sent"] += 1
        return len(datagrams)

    def close_channel(self) -> None:
        """Close the page's connection (the widget stays, showing its last state)."""
        if self.owner:
            self._to_owner({"t": "close"})
        if self.state != "failed":
            self.state = "closed"

    # ------------------------------------------------------------ the page's messages

    def _page_gone(self) -> None:
        """The owner page is gone, and its RTCPeerConnection with it.  A connection that
        had begun (an answer given, the channel open) cannot be carried on by another
        page: it is closed, and said to be lost with the page.  Before that, nothing
        was lost but the codes: the next owner makes them anew (``local`` is ""
        until it has, :attr:`attempt` counts the fresh starts)."""
        if self.state in ("connecting", "open"):
            self.page_lost = True
            self.state = "closed"
        elif self.state in ("gathering", "waiting"):
            self.attempt += 1
            self.local = ""
            self.state = "new"

    def _to_owner(self, content: dict[str, Any]) -> None:
        if self.owner:
            self.send({**content, "to": self.owner})

    def _handle(self, content: Any, buffers: Sequence[Any]) -> None:
        """A message from a page (on the thread that handles the kernel's comms)."""
        got = from_owner(self, content)
        if got is None:
            return
        kind, _ = got
        if kind in ("takeover", "bye"):
            self._page_gone()
        if kind in ("claim", "takeover"):
            if self.state != "new":
                return  # the new owner shows how it ended; nothing to start again
            start: dict[str, Any] = {"t": "start", "role": self.role}
            if self.role == "answer":
                start["sdp"] = self._remote
            self._to_owner(start)
            return
        if kind == "bye":
            return
        if kind == "d":
            for buffer in buffers:
                self.counts["received"] += 1
                if self.on_datagram is not None:
                    self.on_datagram(bytes(buffer))
        elif kind == "gathering":
            self.state = "gathering"
        elif kind == "local":
            sdp = content.get("sdp")
            if not isinstance(sdp, str):
                self.drops["malformed"] += 1
                return
            self.local = sdp
            if self.state in ("new", "gathering"):
                self.state = "waiting" if self.role == "offer" else "connecting"
        elif kind == "connecting":
            if self.state not in ("open", "closed", "failed"):
                self.state = "connecting"
        elif kind == "open":
            self.state = "open"
        elif kind == "closed":
            if self.state != "failed":
                self.state = "closed"
        elif kind == "state":
            if content.get("state") == "failed":
                self.error = "no route between the two pages"
                self.state = "failed"
        elif kind == "error":
            self.error = f"{content.get('what', '?')}: {content.get('detail', '')}"
            self.state = "failed"
        elif kind == "text":
            self.drops["text_message"] += 1
        else:
            self.drops["unknown_message"] += 1


_addresses = itertools.count(1)


class ChannelCarrier:
    """A :class:`PageChannel` as a byte mover for the peer core: the channel is one peer
    at an opaque address (:attr:`address`), and every datagram from it is handed to
    ``deliver(data, address)`` through the table's :class:`Handoff` (the one hand-off
    point onto the kernel's event loop), never on the comm's thread directly.

    Datagrams that arrive while earlier ones wait for the loop join them: one turn of
    the loop takes them all, then calls ``after()`` once (the peer sends its answers
    to the whole burst together).

    >>> channel = PageChannel(role="offer", ice_servers=[])
    >>> got = []
    >>> carrier = ChannelCarrier(channel, Handoff(mode="manual"),
    ...                          lambda d, a: got.append((d, a)), lambda: got.append("after"))
    >>> channel._handle({"t": "claim", "page": "p"}, [])
    >>> channel._handle({"t": "d", "page": "p"}, [b"hi", b"there"])
    >>> carrier.handoff.pump(), got == [(b"hi", carrier.address), (b"there", carrier.address),
    ...                                 "after"]
    (1, True)
    """

    def __init__(self, channel: PageChannel, handoff: Handoff,
                 deliver: Callable[[bytes, tuple[str, int]], None],
                 after: Callable[[], None] | None = None) -> None:
        self.channel = channel
        self.handoff = handoff
        #: The peer behind the channel, as the core knows it: opaque, never a host.
        self.address: tuple[str, int] = ("rtc", next(_addresses))
        self._deliver = deliver
        self._after = after
        self._waiting: list[bytes] = []
        self._lock = threading.Lock()
        channel.on_datagram = self._arrived

    def _arrived(self, data: bytes) -> None:
        with self._lock:
            first = not self._waiting
            self._waiting.append(data)
        if first:
            self.handoff.post(self._drain)

    def _drain(self) -> None:
        with self._lock:
            datagrams, self._waiting = self._waiting, []
        for data in datagrams:
            self._deliver(data, self.address)
        if self._after is not None and datagrams:
            self._after()

    def send(self, data: bytes, address: tuple[str, int]) -> bool:
        """Send ``data`` if ``address`` is this channel's; False otherwise or when closed."""
        if address != self.address:
            return False
        return self.channel.send_datagram(data)

    def send_many(self, datagrams: Sequence[bytes]) -> int:
        """Send datagrams for this channel's peer in one comm message; how many went."""
        return self.channel.send_datagrams(datagrams)
