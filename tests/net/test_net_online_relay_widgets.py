"""``online(relay=..., room=...)`` without a browser: the rooms' pages played by the test.

Each :class:`~durak_widgets.relay_room.PageRoom` talks to its page's MQTT client through
comm messages; here a fake page answers them against a fake broker (retained messages
by topic, delivered to whoever watches the topic, as MQTT does), and the channels' pages
are tests/net/test_net_online_widgets.py's.  The real page (mqtt.js against a local
mosquitto) is in tests/e2e/test_site_online_browser.py.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from durak_core import Rules
from durak_net.online_code import example_sdp, pack_description
from durak_widgets.handoff import Handoff
from durak_widgets.online import OnlineLobby, online
from durak_widgets.relay_room import PageRoom, mqtt_library

from .test_net_online_widgets import Clock, FakePage, pump_until

URL = "ws://127.0.0.1:1883/"


class FakeBroker:
    """Retained messages by topic; ``rewrite(topic, text, page) -> text`` plays a relay
    that changes what it carries (None: an honest one)."""

    def __init__(self) -> None:
        self.retained: dict[str, str] = {}
        self.watchers: dict[str, list[FakeRoomPage]] = {}
        self.rewrite: Any = None

    def publish(self, topic: str, text: str) -> None:
        if text:
            self.retained[topic] = text
        else:
            self.retained.pop(topic, None)
            return
        for page in self.watchers.get(topic, []):
            page.deliver(topic, text)

    def subscribe(self, page: FakeRoomPage, topic: str) -> None:
        self.watchers.setdefault(topic, []).append(page)
        if topic in self.retained:
            page.deliver(topic, self.retained[topic])


#: Each room's fake pages by name (every front end gets a widget's messages).
ROOM_PAGES: dict[int, dict[str, FakeRoomPage]] = {}


class FakeRoomPage:
    """What the room's ES module does in the owner page, against ``broker``."""

    def __init__(self, room: PageRoom, name: str, broker: FakeBroker | None) -> None:
        self.room, self.name, self.broker = room, name, broker
        self.sent: list[dict[str, Any]] = []
        #: The page's tab was closed: it hears and says nothing any more.
        self.gone = False
        pages = ROOM_PAGES.setdefault(id(room), {})
        pages[name] = self
        room.send = lambda content, buffers=None: pages[content["to"]]._from_kernel(
            content, buffers)
        room._handle({"t": "claim", "page": name}, [])

    def tell(self, content: dict[str, Any]) -> None:
        self.room._handle({**content, "page": self.name}, [])

    def deliver(self, topic: str, text: str) -> None:
        rewrite = self.broker.rewrite if self.broker else None
        self.tell({"t": "message", "topic": topic,
                   "text": rewrite(topic, text, self) if rewrite else text})

    def _from_kernel(self, content: dict[str, Any], buffers: Any = None) -> None:
        assert content["to"] == self.name
        if self.gone:
            return
        self.sent.append(content)
        if content["t"] == "ping":
            self.tell({"t": "pong"})
        elif content["t"] == "start":
            assert content["library"] == mqtt_library() and content["url"] == URL
            if self.broker is None:
                self.tell({"t": "error", "detail": "WebSocket connection failed"})
                self.tell({"t": "closed"})
            else:
                self.tell({"t": "ready"})
        elif content["t"] == "post":
            assert self.broker is not None
            self.broker.publish(content["topic"], content["text"])
            self.tell({"t": "posted", "topic": content["topic"], "text": content["text"]})
        elif content["t"] == "watch":
            assert self.broker is not None
            self.broker.subscribe(self, content["topic"])


@pytest.fixture
def made() -> Any:
    lobbies: list[OnlineLobby] = []
    yield lobbies
    for lobby in lobbies:
        lobby.close()


def _lobby(made: list[OnlineLobby], name: str, seed: int, **kwargs: Any) -> OnlineLobby:
    lobby = online(name, ice_servers=[], bot="greedy", seed=seed, lang="en",
                   handoff=Handoff(mode="manual"), relay=URL, **kwargs)
    made.append(lobby)
    return lobby


def test_two_lobbies_meet_in_a_room_and_pair_with_the_same_words(made) -> None:
    broker = FakeBroker()
    ann = _lobby(made, "Ann", 1)
    assert ann.room is not None and len(ann.room.room.split("-")) == 3
    assert ann.room.room in ann.room_label.value  # the words to tell the friend
    FakeRoomPage(ann.room, "ann-room", broker)
    ann_page = FakePage(ann.channel, "ann-page")
    ann_page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code))
    assert broker.retained[ann.room.topics["offer"]] == ann.code  # left in the room
    # Ben comes to the room (typed as a person might); his channel waits for the offer.
    ben = _lobby(made, "Ben", 2, room=ann.room.room.upper().replace("-", " "))
    assert ben.channel is None and "Waiting for the invitation" in ben.status.value
    FakeRoomPage(ben.room, "ben-room", broker)  # type: ignore[arg-type]
    pump_until([ben], lambda: ben.channel is not None)
    ben_page = FakePage(ben.channel, "ben-page")  # type: ignore[arg-type]
    ann_page.other, ben_page.other = ben_page, ann_page
    ben_page.tell({"t": "claim"})
    # Ben's reply goes back through the room; nobody copies a code.
    pump_until([ann, ben], lambda: bool(ann.sas and ben.sas))
    assert ann.sas == ben.sas
    assert broker.retained == {}  # the inviter cleared the room once the channel opened
    assert ann.room.state == ben.room.state == "closed"  # type: ignore[union-attr]


def test_an_inviters_tab_reopened_before_the_friend_came_leaves_a_new_invitation_in_the_room(
        made) -> None:
    """Ann's tab, which held the room's client and the connection, is closed before Ben
    comes; she opens the notebook again.  The new page takes both over (after probing
    the old one), makes a new invitation and leaves it in the same room in place of the
    old one, which led to a connection that no longer exists; Ben then pairs with her."""
    broker = FakeBroker()
    ann = _lobby(made, "Ann", 1)
    assert ann.room is not None and ann.channel is not None
    clock = ann.room.clock = ann.channel.clock = Clock()
    old_room = FakeRoomPage(ann.room, "ann-room", broker)
    old_page = FakePage(ann.channel, "ann-page")
    old_page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code))
    old_room.gone = old_page.gone = True  # the tab is closed
    new_room = FakeRoomPage(ann.room, "ann-room-2", broker)
    new_page = FakePage(ann.channel, "ann-page-2")
    new_page.tell({"t": "claim"})
    assert ann.room.owner == "ann-room" and ann.channel.owner == "ann-page"  # probed
    clock.ahead += 4.0  # the pages claim again (RECLAIM_MS)
    new_room.tell({"t": "claim"})
    new_page.tell({"t": "claim"})
    assert ann.room.owner == "ann-room-2" and ann.channel.owner == "ann-page-2"
    pump_until([ann], lambda: broker.retained.get(ann.room.topics["offer"]) == ann.code
               and bool(ann.code))
    assert new_room.sent[0]["t"] == "start"
    # The new page's invitation went into the room through the new page's client (the
    # fake pages make the same description, so it reads as the old one here).
    assert {"t": "post", "to": "ann-room-2", "topic": ann.room.topics["offer"],
            "text": ann.code} in new_room.sent
    ben = _lobby(made, "Ben", 2, room=ann.room.room)
    FakeRoomPage(ben.room, "ben-room", broker)  # type: ignore[arg-type]
    pump_until([ben], lambda: ben.channel is not None)
    ben_page = FakePage(ben.channel, "ben-page")  # type: ignore[arg-type]
    new_page.other, ben_page.other = ben_page, new_page
    ben_page.tell({"t": "claim"})
    pump_until([ann, ben], lambda: bool(ann.sas and ben.sas))
    assert ann.sas == ben.sas


def test_a_host_seats_two_friends_through_one_room_one_after_the_other_and_all_play_fair(
        made) -> None:
    """Hana hosts a table of three and names one room.  Ivo comes to it; once he is
    connected, Hana's next invitation takes the place of the first in the same room, and
    Jo comes to it.  Nobody copies a code; the three play a game each audits fair, with
    the same table words on every screen; the room is empty and closed after."""
    broker = FakeBroker()
    hana = _lobby(made, "Hana", 1, table=Rules(players=3), auto_start=True)
    assert hana.room is not None
    offer = hana.room.topics["offer"]
    hana_room = FakeRoomPage(hana.room, "hana-room", broker)
    assert "one after the other" in hana.room_label.value

    def invitations() -> int:
        return sum(1 for c in hana_room.sent if c["t"] == "post" and c["topic"] == offer
                   and c["text"])

    friends: list[OnlineLobby] = []
    for number, name in enumerate(("Ivo", "Jo")):
        host_page = FakePage(hana.channel, f"hana-page-{number}")  # type: ignore[arg-type]
        host_page.tell({"t": "claim"})
        pump_until([hana, *friends], lambda n=number: invitations() == n + 1
                   and broker.retained.get(offer) == hana.code != "")
        friend = _lobby(made, name, 2 + number, room=hana.room.room)
        FakeRoomPage(friend.room, f"{name}-room", broker)  # type: ignore[arg-type]
        pump_until([hana, *friends, friend], lambda f=friend: f.channel is not None)
        page = FakePage(friend.channel, f"{name}-page")  # type: ignore[arg-type]
        host_page.other, page.other = page, host_page
        page.tell({"t": "claim"})
        friends.append(friend)
        pump_until([hana, *friends], lambda f=friend: f.sid is not None)
        assert hana.room.state == ("ready" if number == 0 else "closed")
    assert len(hana.channels) == 2 and invitations() == 2  # no third invitation
    everyone = [hana, *friends]
    pump_until(everyone, lambda: all(lb.backend and lb.backend.verdicts for lb in everyone),
               timeout=120)
    for lobby in everyone:
        assert "audited: fair" in lobby.badge.value
    words = {lobby.node.view(lobby.sid).table_words for lobby in everyone}  # type: ignore[union-attr,arg-type]
    assert len(words) == 1 and words != {""}
    assert broker.retained == {}


def test_a_relay_in_the_middle_is_caught_by_the_pairing_words(made) -> None:
    """The relay hands Ben its own invitation and Ann its own reply: each pairs with a
    lobby of the relay's, and the two screens show different words."""
    broker = FakeBroker()
    ann = _lobby(made, "Ann", 1)
    FakeRoomPage(ann.room, "ann-room", broker)  # type: ignore[arg-type]
    ann_page = FakePage(ann.channel, "ann-page")
    ann_page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code))
    # The relay's two faces: "Ben" for Ann (answers her offer), "Ann" for Ben.
    # (OnlineLobby itself: online() would close our own Ann and Ben of the same names.)
    as_ben = OnlineLobby("Ben", code=ann.code, ice_servers=[], seed=7, lang="en",
                         handoff=Handoff(mode="manual"))
    as_ann = OnlineLobby("Ann", ice_servers=[], seed=8, lang="en",
                         handoff=Handoff(mode="manual"))
    made += [as_ben, as_ann]
    to_ann, to_ben = FakePage(as_ben.channel, "m1"), FakePage(as_ann.channel, "m2")
    to_ann.tell({"t": "claim"})
    to_ben.tell({"t": "claim"})
    pump_until([as_ben, as_ann], lambda: bool(as_ben.code and as_ann.code))
    offer, answer = ann.room.topics["offer"], ann.room.topics["answer"]  # type: ignore[union-attr]
    broker.rewrite = lambda topic, text, page: (
        as_ann.code if topic == offer else as_ben.code if topic == answer else text)
    ben = _lobby(made, "Ben", 2, room=ann.room.room)  # type: ignore[union-attr]
    FakeRoomPage(ben.room, "ben-room", broker)  # type: ignore[arg-type]
    pump_until([ben], lambda: ben.channel is not None)
    ben_page = FakePage(ben.channel, "ben-page")  # type: ignore[arg-type]
    # The data channels go where the rewritten codes lead: Ann to the relay, Ben too.
    ann_page.other, to_ann.other = to_ann, ann_page
    ben_page.other, to_ben.other = to_ben, ben_page
    ben_page.tell({"t": "claim"})
    pump_until([ben], lambda: bool(ben.code))
    as_ann.connect(ben.code)
    everyone = [ann, ben, as_ben, as_ann]
    pump_until(everyone, lambda: bool(ann.sas and ben.sas))
    assert ann.sas == as_ben.sas and ben.sas == as_ann.sas  # each paired with the relay
    assert ann.sas != ben.sas  # and the two friends, comparing, see it


def test_what_the_room_holds_that_is_no_invitation_is_a_notice_and_the_friend_waits(
        made) -> None:
    broker = FakeBroker()
    ben = _lobby(made, "Ben", 2, room="falcon-river-teapot")
    topic = ben.room.topics["offer"]  # type: ignore[union-attr]
    broker.retained[topic] = "not a code!"
    FakeRoomPage(ben.room, "ben-room", broker)  # type: ignore[arg-type]
    pump_until([ben], lambda: "cannot be used" in ben.status.value)
    assert ben.channel is None and "\n" not in ben.status.value
    broker.publish(topic, pack_description(example_sdp("answer"), "answer", now=time.time()))
    pump_until([ben], lambda: "a reply, not an invitation" in ben.status.value)
    assert ben.channel is None
    broker.publish(topic, pack_description(example_sdp("offer"), "offer", now=time.time()))
    pump_until([ben], lambda: ben.channel is not None)  # the real one is taken


def test_a_relay_that_cannot_be_reached_says_so_and_the_codes_stay(made) -> None:
    ann = _lobby(made, "Ann", 1)
    FakeRoomPage(ann.room, "ann-room", None)  # type: ignore[arg-type]
    page = FakePage(ann.channel, "ann-page")
    page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code) and "cannot be used" in ann.room_label.value)
    assert "WebSocket connection failed" in ann.room_label.value
    assert "copy the codes by hand" in ann.room_label.value
    assert ann.code_text.value == ann.code and ann.reply_box.layout.display is None


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"room": "falcon-river-teapot"}, "a room is on a relay"),
    ({"relay": URL, "code": "x"}, "give the room, not the code"),
    ({"relay": "http://broker/"}, "WebSocket URL"),
    ({"relay": URL, "room": "two words!"}, "words joined by dashes"),
    ({"relay": URL, "room": "falcon-river-teapot", "table": Rules(players=3)},
     "a host names the room"),
])
def test_a_relay_or_room_that_cannot_work_is_refused_in_one_line(
        kwargs: dict[str, Any], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        online("Ann", ice_servers=[], handoff=Handoff(mode="manual"), **kwargs)


def test_the_page_gets_mqtt_js_as_published() -> None:
    text = mqtt_library()
    assert "export default" in text and len(text) > 100_000
