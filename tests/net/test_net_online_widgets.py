"""``online()`` without a browser: two lobbies whose pages are played by the test.

Each :class:`~durak_widgets.channel.PageChannel` talks to its page through comm
messages; here a small fake page answers them (claims the channel, "gathers" a fixed
description, reports the channel open) and carries each datagram to the other lobby's
channel, as the two real pages and the data channel between them would.  The codes are
the real ones (durak_net.online_code), passed from one lobby to the other as a person
pastes them; the hand-offs are pumped as each kernel's loop would.  The real pages are
in tests/e2e/test_online_browser.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from durak_net.online_code import CodeError, example_sdp, pack_description
from durak_widgets.channel import PageChannel
from durak_widgets.handoff import Handoff
from durak_widgets.online import OnlineLobby, online

#: Each channel's fake pages by name (every front end gets a widget's messages; each
#: page takes those addressed to it).
ROUTES: dict[int, dict[str, FakePage]] = {}


class FakePage:
    """What the page's ES module does, for one channel: datagrams go to ``other``."""

    def __init__(self, channel: PageChannel, name: str) -> None:
        self.channel = channel
        self.name = name
        self.other: FakePage | None = None
        self.sent: list[dict[str, Any]] = []
        #: The page's tab was closed: it hears and says nothing any more.
        self.gone = False
        pages = ROUTES.setdefault(id(channel), {})
        pages[name] = self

        def route(content: dict[str, Any], buffers: Any = None) -> None:
            pages[content["to"]]._from_kernel(content, buffers)

        channel.send = route  # type: ignore[method-assign]

    def tell(self, content: dict[str, Any], buffers: list[bytes] | None = None) -> None:
        self.channel._handle({**content, "page": self.name}, buffers or [])

    def _from_kernel(self, content: dict[str, Any], buffers: Any = None) -> None:
        assert content.get("to") == self.name
        if self.gone:
            return
        self.sent.append(content)
        if content["t"] == "ping":
            self.tell({"t": "pong"})
        elif content["t"] == "start":
            self.tell({"t": "local", "kind": content["role"],
                       "sdp": example_sdp(content["role"])})
        elif content["t"] == "remote":
            self.open()
        elif content["t"] == "d" and self.other is not None:
            for data in buffers or []:
                self.other.tell({"t": "d"}, [data])

    def open(self) -> None:
        for page in (self, self.other):
            assert page is not None
            page.tell({"t": "open"})


class Clock:
    """The kernel's monotonic clock, moved on by the test (a silent peer is waited for
    a minute: the test skips it)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


def pump_until(lobbies: list[OnlineLobby], condition: Callable[[], bool],
               timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for lobby in lobbies:
            lobby.handoff.pump()
        if condition():
            return
        time.sleep(0.002)
    raise AssertionError("condition not met in time")


@pytest.fixture
def made() -> Any:
    lobbies: list[OnlineLobby] = []
    yield lobbies
    for lobby in lobbies:
        lobby.close()


def test_two_lobbies_pair_by_codes_and_their_bots_play_a_game_to_a_fair_audit(made) -> None:
    ann = online("Ann", ice_servers=[], bot="greedy", seed=1, lang="en",
                 handoff=Handoff(mode="manual"))
    made.append(ann)
    ann_page = FakePage(ann.channel, "ann-page")
    ann_page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code))
    assert "invitation code" in ann.code_label.value and ann.code_text.value == ann.code
    ben = online("Ben", code=ann.code, ice_servers=[], bot="greedy", seed=2, lang="en",
                 handoff=Handoff(mode="manual"))
    made.append(ben)
    ben_page = FakePage(ben.channel, "ben-page")
    ann_page.other, ben_page.other = ben_page, ann_page
    ben_page.tell({"t": "claim"})
    pump_until([ben], lambda: bool(ben.code))
    assert "reply code" in ben.code_label.value
    ann.reply_text.value = ben.code
    ann.connect_button.click()
    pump_until([ann, ben], lambda: bool(ann.sas and ben.sas))
    assert ann.sas == ben.sas and len(ann.sas.split()) == 4
    pump_until([ann, ben], lambda: all(lb.backend and lb.backend.verdicts
                                       for lb in (ann, ben)))
    for lobby in (ann, ben):
        assert "audited: fair" in lobby.badge.value
        assert lobby.code_box.layout.display == "none"  # the codes made way for the table
    (a,), (b,) = ann.results, ben.results
    assert (a.state_hash, a.log_hash) == (b.state_hash, b.log_hash)


def test_an_invitation_that_is_a_reply_is_refused_in_one_line() -> None:
    reply = pack_description(example_sdp("answer"), "answer", now=time.time())
    with pytest.raises(CodeError, match="reply code"):
        online("Ben", code=reply, ice_servers=[], handoff=Handoff(mode="manual"))


def test_an_expired_invitation_says_so() -> None:
    old = pack_description(example_sdp("offer"), "offer", now=time.time() - 7200)
    with pytest.raises(CodeError) as caught:
        online("Ben", code=old, ice_servers=[], handoff=Handoff(mode="manual"))
    assert "\n" not in str(caught.value)


def test_a_second_page_is_told_the_table_is_open_elsewhere_and_its_datagrams_are_dropped(
) -> None:
    channel = PageChannel(role="offer", ice_servers=[])
    first, second = FakePage(channel, "first"), FakePage(channel, "second")
    clock = channel.clock = Clock()
    first.tell({"t": "claim"})
    second.tell({"t": "claim"})
    # The owner is asked whether it is still there, and answers.
    assert channel.owner == "first" and [m["t"] for m in first.sent] == ["start", "ping"]
    assert second.sent == []  # nothing was addressed to it
    clock.ahead += 10  # the second page claims once more later: the owner still answers
    second.tell({"t": "claim"})
    assert channel.owner == "first" and channel.drops["claim_refused"] == 2
    got: list[bytes] = []
    channel.on_datagram = got.append
    first.tell({"t": "open"})
    second.tell({"t": "d"}, [b"forged"])
    first.tell({"t": "d"}, [b"real"])
    assert got == [b"real"] and channel.drops["not_owner"] == 1


def test_a_damaged_reply_is_refused_in_the_status_line_and_the_box_stays(made) -> None:
    ann = online("Ann", ice_servers=[], lang="en", handoff=Handoff(mode="sync"))
    made.append(ann)
    page = FakePage(ann.channel, "ann-page")
    page.tell({"t": "claim"})
    ann.reply_text.value = "not a code!"
    ann.connect_button.click()
    assert "not a durak code" in ann.status.value
    assert ann.channel.state == "waiting" and ann.reply_box.layout.display is None
    assert [m["t"] for m in page.sent] == ["start"]  # nothing went to the page


def test_a_connection_that_fails_says_so_in_one_line_with_the_next_thing_to_try(made) -> None:
    ann = online("Ann", ice_servers=[], lang="en", handoff=Handoff(mode="sync"))
    made.append(ann)
    page = FakePage(ann.channel, "ann-page")
    page.tell({"t": "claim"})
    page.tell({"t": "state", "state": "failed"})
    assert ann.channel.state == "failed"
    assert "No connection" in ann.status.value and "TURN server" in ann.status.value
    assert "\n" not in ann.status.value


def test_a_host_seats_two_friends_by_two_codes_and_a_table_of_three_plays_fair(made) -> None:
    from durak_core import Rules

    host = online("Hana", ice_servers=[], bot="greedy", seed=1, lang="en",
                  table=Rules(players=3), auto_start=True, handoff=Handoff(mode="manual"))
    made.append(host)
    friends = []
    for number, name in enumerate(("Ivo", "Jo")):
        host_page = FakePage(host.channel, f"hana-page-{number}")
        host_page.tell({"t": "claim"})
        pump_until([host, *friends], lambda: bool(host.code))
        friend = online(name, code=host.code, ice_servers=[], bot="greedy", seed=2 + number,
                        lang="en", handoff=Handoff(mode="manual"))
        made.append(friend)
        page = FakePage(friend.channel, f"{name}-page")
        host_page.other, page.other = page, host_page
        page.tell({"t": "claim"})
        pump_until([host, *friends, friend], lambda f=friend: bool(f.code))
        opened = host.channel
        host.reply_text.value = friend.code
        host.connect_button.click()
        friends.append(friend)
        pump_until([host, *friends], lambda f=friend: f.sid is not None)
        assert opened.state == "open"
    assert len(host.channels) == 2  # one channel a friend, no third code
    everyone = [host, *friends]
    pump_until(everyone, lambda: all(lb.backend and lb.backend.verdicts for lb in everyone),
               timeout=120)
    for lobby in everyone:
        assert "audited: fair" in lobby.badge.value
    words = {lobby.node.view(lobby.sid).table_words for lobby in everyone}
    assert len(words) == 1 and words != {""}  # every screen at the table shows the same


def test_a_tab_closed_mid_game_ends_in_an_abandoned_verdict_on_the_other_side(made) -> None:
    """Ben closes his notebook's tab while the game runs: his page, and the connection
    it owned, are gone (his kernel runs on, unheard).  Ann's page sees the data channel
    close; Ann is told the connection closed and what comes next, her table marks Ben's
    connection lost after a few seconds, and after the grace period the game is settled
    as abandoned by Ben: a verdict, not a table that waits for ever.  Ben's kernel, with
    nobody to hear it, settles its side the same way."""
    ann = online("Ann", ice_servers=[], bot="greedy", seed=1, lang="en",
                 handoff=Handoff(mode="manual"))
    made.append(ann)
    ann_page = FakePage(ann.channel, "ann-page")
    ann_page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code))
    ben = online("Ben", code=ann.code, ice_servers=[], bot="greedy", seed=2, lang="en",
                 handoff=Handoff(mode="manual"))
    made.append(ben)
    ben_page = FakePage(ben.channel, "ben-page")
    ann_page.other, ben_page.other = ben_page, ann_page
    ben_page.tell({"t": "claim"})
    pump_until([ben], lambda: bool(ben.code))
    clocks = {}
    for lobby in (ann, ben):
        assert lobby.online_node is not None
        clocks[lobby.node.name] = lobby.online_node.clock = Clock()
    ann.connect(ben.code)
    pump_until([ann, ben], lambda: all(
        lb.backend is not None and lb.backend.game is not None
        and len(lb.backend.game.log) >= 4 for lb in (ann, ben)))
    # Ben's tab closes: nothing reaches or leaves his page from now on, and Ann's page
    # sees its data channel close.
    ann_page.other = ben_page.other = None
    ben.channel.send = lambda *_args, **_kwargs: None  # type: ignore[method-assign]
    ann_page.tell({"t": "closed"})
    pump_until([ann, ben], lambda: ann.handoff.idle() and ben.handoff.idle())
    assert ann.channel.state == "closed"
    assert "connection closed" in ann.channel.status.lower()
    assert "abandoned" in ann.channel.status
    assert ann.code_box.layout.display == "none"  # no stale invitation comes back
    assert ann.backend is not None and not ann.backend.verdicts

    def later(seconds: float) -> None:
        for lobby in (ann, ben):
            clocks[lobby.node.name].ahead += seconds
            node = lobby.online_node
            assert node is not None
            lobby.handoff.post(node._tick)
        pump_until([ann, ben], lambda: ann.handoff.idle() and ben.handoff.idle())

    later(4.0)
    later(4.0)  # a link silent for 3 s is lost (a turn of the loop may fall between)
    assert ann.backend.lost_seats == {1}
    assert ann.backend.seat_notes()[1].state == "connection lost"
    for _ in range(7):  # the grace period (60 s), and the audit's wait after it
        later(15.0)
    assert ann.backend.verdicts and ben.backend is not None and ben.backend.verdicts
    (verdict,) = ann.backend.verdicts.values()
    assert not verdict.fair and verdict.culprit == 1  # Ben's seat
    assert "Ben went silent" in ann.badge.value
    (theirs,) = ben.backend.verdicts.values()
    assert not theirs.fair and theirs.culprit == 0


def test_a_friends_tab_closed_at_a_table_of_three_ends_as_abandoned_not_handed_over(
        made) -> None:
    """Online, a seated friend's only link is its channel to the host: it gives no
    address for the other seats' direct heartbeats (spec section 7), so the others
    cannot check the host's word that it is gone, and the spec never hands such a seat
    to a bot (its hand would open on the host's word alone).  When Jo's tab closes, the
    host marks Jo's connection lost; after the grace period the game is settled as
    abandoned on every screen left: a verdict, not a table that waits.  The host, whose
    link to Jo went silent, names Jo; Ivo has only the host's word for it (a host that
    held Jo's messages back would say the same), so Ivo names nobody."""
    from durak_core import Rules

    host = online("Hana", ice_servers=[], bot="greedy", seed=1, lang="en",
                  table=Rules(players=3), auto_start=True, handoff=Handoff(mode="manual"))
    made.append(host)
    friends: list[OnlineLobby] = []
    pages: dict[str, FakePage] = {}
    for number, name in enumerate(("Ivo", "Jo")):
        host_page = FakePage(host.channel, f"hana-page-{number}")
        host_page.tell({"t": "claim"})
        pump_until([host, *friends], lambda: bool(host.code))
        friend = online(name, code=host.code, ice_servers=[], bot="greedy", seed=2 + number,
                        lang="en", handoff=Handoff(mode="manual"))
        made.append(friend)
        page = FakePage(friend.channel, f"{name}-page")
        host_page.other, page.other = page, host_page
        pages[name] = host_page
        page.tell({"t": "claim"})
        pump_until([host, *friends, friend], lambda f=friend: bool(f.code))
        host.connect(friend.code)
        friends.append(friend)
        pump_until([host, *friends], lambda f=friend: f.sid is not None)
    everyone = [host, *friends]
    clocks = {}
    for lobby in everyone:
        assert lobby.online_node is not None
        clocks[lobby.node.name] = lobby.online_node.clock = Clock()
    pump_until(everyone, lambda: all(
        lb.backend is not None and lb.backend.game is not None
        and len(lb.backend.game.log) >= 3 for lb in everyone))
    ivo, jo = friends
    # Jo's tab closes: the host's page for Jo's channel sees it close.
    pages["Jo"].other = None
    jo.channel.send = lambda *_args, **_kwargs: None  # type: ignore[method-assign]
    pages["Jo"].tell({"t": "closed"})
    left = [host, ivo]

    def later(seconds: float) -> None:
        for lobby in left:
            clocks[lobby.node.name].ahead += seconds
            node = lobby.online_node
            assert node is not None
            lobby.handoff.post(node._tick)
        pump_until(left, lambda: all(lb.handoff.idle() for lb in left))

    later(4.0)
    later(4.0)  # a link silent for 3 s is lost (a turn of the loop may fall between)
    assert host.backend is not None and ivo.backend is not None
    assert host.backend.seat_notes()[2].state == "connection lost"
    for _ in range(8):  # the grace period (60 s), and the audit's wait after it
        if host.backend.verdicts and ivo.backend.verdicts:
            break
        later(15.0)
    for lobby, named, said in ((host, 2, "Jo went silent"),
                               (ivo, None, "Jo cannot be heard here directly")):
        assert lobby.backend is not None and lobby.backend.verdicts, lobby.node.name
        (verdict,) = lobby.backend.verdicts.values()
        assert not verdict.fair and verdict.code == "abandoned" and verdict.culprit == named
        assert said in lobby.badge.value, lobby.badge.value
        assert "bot" not in lobby.backend.seat_states  # no hand went to a bot


def test_a_redraw_that_changes_nothing_sends_the_page_nothing(made) -> None:
    """Every widget change is a comm message through the Jupyter server to the page,
    and a game redraws the lobby at every event: a redraw that changes nothing must
    change no widget (the title was once set to the LAN's and back to the online one
    at each redraw: two messages an event for nothing)."""
    import ipywidgets

    ann = online("Ann", ice_servers=[], lang="en", handoff=Handoff(mode="sync"))
    made.append(ann)
    FakePage(ann.channel, "ann-page").tell({"t": "claim"})
    assert "Durak online" in ann.title.value
    seen: list[str] = []
    todo: list[Any] = [ann.root]
    while todo:
        widget = todo.pop()
        for child in (*getattr(widget, "children", ()), getattr(widget, "layout", None)):
            if isinstance(child, ipywidgets.Widget):
                todo.append(child)
        widget.observe(lambda change, w=widget: seen.append(
            f"{type(w).__name__}.{change['name']}: {change['old']!r} -> {change['new']!r}"))
    ann._render()
    assert seen == []


def test_a_page_channel_waits_half_a_second_before_resending_what_a_busy_server_holds(
        made) -> None:
    """A datagram of a notebook crosses the kernel's comm and the Jupyter server twice a
    round trip, and a busy server holds messages for a second or more: the LAN's resend
    timing (a floor of 4 ms, a ceiling of 1 s) resent a third of the packets for nothing
    on a loaded machine.  Over a page's channel the streams resend no sooner than half
    a second, however fast the round trips measured, and wait up to 3 s."""
    from durak_net.reliable import ReliableChannel
    from durak_net.wire import Sync
    from durak_widgets.online_node import CHANNEL_RTO

    ann = online("Ann", ice_servers=[], lang="en", handoff=Handoff(mode="manual"))
    made.append(ann)
    assert ann.online_node is not None
    assert ann.online_node.core.session_config.rto == CHANNEL_RTO
    sender, receiver = ReliableChannel(CHANNEL_RTO), ReliableChannel(CHANNEL_RTO)
    now = 0.0
    for _ in range(20):  # quick round trips: 10 ms each
        sender.push(Sync(0, 1, 0), now)
        for frame in sender.due(now):
            receiver.receive(frame)
        now += 0.010
        sender.on_ack(*receiver.ack_state(), now=now)
    sender.push(Sync(0, 1, 0), now)
    assert len(sender.due(now)) == 1  # sent; its ack is held up in the server's queue
    assert sender.due(now + 0.49) == []
    assert len(sender.due(now + 0.51)) == 1  # resent once the floor has passed
    assert sender.due(now + 0.51 + 0.99) == []  # and then no sooner than after 1 s


# ------------------------------------------------------------ a tab closed and opened again


def _reopened(channel: PageChannel, old: FakePage, name: str, clock: Clock) -> FakePage:
    """``old``'s tab was closed (it hears nothing, says nothing); the notebook is opened
    again in a new tab, whose page claims the channel, is refused while the old owner
    is probed, and claims again a while later, as the page's script does."""
    old.gone = True
    new = FakePage(channel, name)
    new.tell({"t": "claim"})
    assert channel.owner == old.name  # not yet: the owner may only be slow
    clock.ahead += 4.0  # the page claims again after RECLAIM_MS (5 s), the probe older than 3 s
    new.tell({"t": "claim"})
    return new


def test_a_tab_reopened_before_the_reply_takes_the_channel_over_with_new_codes(made) -> None:
    """Ann closes the tab that showed her invitation before any reply came, and opens the
    notebook again: the old page's connection (and the code made from it) went with the
    tab, so the new page takes the channel over and makes a new invitation, shown in
    place of the old one; it is not told that the table is open in another tab."""
    ann = online("Ann", ice_servers=[], lang="en", handoff=Handoff(mode="sync"))
    made.append(ann)
    channel = ann.channel
    assert channel is not None
    clock = channel.clock = Clock()
    first = FakePage(channel, "ann-page")
    first.tell({"t": "claim"})
    old_code = ann.code
    assert old_code and channel.state == "waiting"
    again = _reopened(channel, first, "ann-page-2", clock)
    assert channel.owner == "ann-page-2" and not channel.page_lost
    assert [m["t"] for m in again.sent] == ["start"]  # the new page makes the offer anew
    assert ann.code and channel.state == "waiting" and ann.code_text.value == ann.code
    assert ann.code_box.layout.display is None and "invitation code" in ann.code_label.value


def test_a_tab_that_said_goodbye_leaves_the_channel_to_the_next_page_at_once(made) -> None:
    ann = online("Ann", ice_servers=[], lang="en", handoff=Handoff(mode="sync"))
    made.append(ann)
    channel = ann.channel
    assert channel is not None
    first = FakePage(channel, "ann-page")
    first.tell({"t": "claim"})
    first.tell({"t": "bye"})  # (on pagehide)
    assert channel.owner == "" and channel.state == "new" and ann.code == ""
    again = FakePage(channel, "ann-page-2")
    again.tell({"t": "claim"})
    assert channel.owner == "ann-page-2" and [m["t"] for m in again.sent] == ["start"]
    assert ann.code and channel.drops["claim_refused"] == 0


def test_a_tab_reopened_mid_game_is_told_the_connection_was_lost_with_the_old_tab(
        made) -> None:
    """The connection lived in the closed tab and cannot be carried on by another page:
    the reopened tab owns the channel (it is not sent to a tab that no longer exists)
    and says the game was lost with the old tab, not that it is open elsewhere."""
    ann = online("Ann", ice_servers=[], bot="greedy", seed=1, lang="en",
                 handoff=Handoff(mode="manual"))
    made.append(ann)
    ann_page = FakePage(ann.channel, "ann-page")
    ann_page.tell({"t": "claim"})
    pump_until([ann], lambda: bool(ann.code))
    ben = online("Ben", code=ann.code, ice_servers=[], bot="greedy", seed=2, lang="en",
                 handoff=Handoff(mode="manual"))
    made.append(ben)
    ben_page = FakePage(ben.channel, "ben-page")
    ann_page.other, ben_page.other = ben_page, ann_page
    ben_page.tell({"t": "claim"})
    pump_until([ben], lambda: bool(ben.code))
    ann.connect(ben.code)
    pump_until([ann, ben], lambda: all(
        lb.backend is not None and lb.backend.game is not None
        and len(lb.backend.game.log) >= 4 for lb in (ann, ben)))
    channel = ann.channel
    assert channel is not None
    clock = channel.clock = Clock()
    ann_page.other = ben_page.other = None
    again = _reopened(channel, ann_page, "ann-page-2", clock)
    pump_until([ann], ann.handoff.idle)
    assert channel.owner == "ann-page-2" and again.sent == []  # nothing to start again
    assert channel.state == "closed" and channel.page_lost
    assert "tab that held this game's connection was closed" in channel.status
    assert ann.code_box.layout.display == "none"  # the old codes do not come back


def test_a_cell_given_a_code_that_cannot_be_used_shows_one_line_not_a_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    """In a notebook, ``online(code=...)`` with an expired code shows the reason and
    nothing else: the frames of the lobby's code would bury it."""
    from IPython.core.interactiveshell import InteractiveShell

    old = pack_description(example_sdp("offer"), "offer", now=time.time() - 7200)
    shell = InteractiveShell.instance()
    try:
        shell.user_ns.update(online=online, Handoff=Handoff)
        capsys.readouterr()
        shell.run_cell(f"online('Ben', code={old!r}, ice_servers=[], "
                       "handoff=Handoff(mode='manual'))")
        shown = capsys.readouterr()
    finally:
        InteractiveShell.clear_instance()
    lines = [line for line in (shown.out + shown.err).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("CodeError: "), lines
    assert "expired" in lines[0]


def test_the_pages_ice_servers_are_public_stun_unless_given_and_a_turn_server_is_passed_on(
        made) -> None:
    from durak_widgets.channel import DEFAULT_ICE_SERVERS

    turn = {"urls": "turn:turn.example:3478", "username": "u", "credential": "p"}
    for given, expected in ((None, list(DEFAULT_ICE_SERVERS)), ([], []), ([turn], [turn])):
        lobby = online("Ann", ice_servers=given, handoff=Handoff(mode="manual"))
        made.append(lobby)
        assert lobby.channel is not None and lobby.channel.ice_servers == expected
    assert DEFAULT_ICE_SERVERS[0]["urls"].startswith("stun:")
