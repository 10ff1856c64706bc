"""The notebook lobby (``durak_widgets.lan``) over real UDP on this machine.

Each lobby gets its own ``Handoff(mode="manual")`` standing in for a kernel's event loop:
the network threads post to it, and the test pumps it, as the kernel would between cells.
Clicks are widget ``click()`` calls, so the same handlers run as in the browser.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from durak_core import Attack
from durak_net import events as ev
from durak_widgets import TableBackend, lan
from durak_widgets import review as review_of
from durak_widgets.handoff import Handoff
from durak_widgets.lan import LanLobby

from .test_net_udp import free_udp_port

pytestmark = pytest.mark.waits


def pump_until(lobbies: list[LanLobby], condition: Callable[[], bool],
               timeout: float = 30.0) -> None:
    """Pump every lobby's hand-off (as each kernel's loop would) until ``condition``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for lobby in lobbies:
            lobby.handoff.pump()
        if condition():
            return
        time.sleep(0.002)
    raise AssertionError("condition not met in time")


@pytest.fixture
def pair_of_lobbies():
    made: list[LanLobby] = []

    def make(**kw) -> tuple[LanLobby, LanLobby]:
        port = free_udp_port()
        common = {"port": port, "journal_dir": None}
        ann = lan("Ann", handoff=Handoff(mode="manual"), **common, **kw.get("ann", {}))
        ben = lan("Ben", handoff=Handoff(mode="manual"), **common, **kw.get("ben", {}))
        made.extend([ann, ben])
        return ann, ben

    yield make
    for lobby in made:
        lobby.close()


def test_two_bot_driven_tables_play_a_game_and_agree(pair_of_lobbies) -> None:
    ann, ben = pair_of_lobbies(
        ann={"bot": "random", "seed": 1, "auto_accept": True},
        ben={"bot": "random", "seed": 2, "invite": "Ann"},
    )
    pump_until([ann, ben], lambda: all(lb.backend and lb.backend.verdicts for lb in (ann, ben)),
               timeout=30)
    (a,), (b,) = ann.results, ben.results
    assert (a.state_hash, a.log_hash) == (b.state_hash, b.log_hash)
    (va,), (vb,) = ann.backend.verdicts.values(), ben.backend.verdicts.values()
    assert va.fair and vb.fair and va.state_hash == vb.state_hash
    for lobby in (ann, ben):
        assert lobby.controller is not None
        assert isinstance(lobby.backend, TableBackend)  # the widgets' documented protocol
        assert lobby.backend.game.public_hash() == a.state_hash  # the mirror kept up
        assert "Game over" in lobby.controller.view.status.value
        assert lobby.lobby_box.layout.display == "none"  # the lobby made way for the table
        assert "hidden hands · verified" in lobby.badge.value
        assert "audited: fair" in lobby.badge.value
        assert lobby.sas and lobby.sas in lobby.sas_label.value
        assert not lobby.node.handler_errors
    assert ann.sas == ben.sas  # nobody in the middle: both screens show the same words


def test_a_finished_lan_game_is_reviewed_from_the_log_its_audit_rebuilt(pair_of_lobbies) -> None:
    """The table holds only its seat's view while the game runs (no Review button: there
    is nothing to replay); the fair audit opens every card, and the full game it rebuilt
    is what the Review replays, one decision of our seat at a time."""
    from durak_core import Drew

    ann, ben = pair_of_lobbies(
        ann={"bot": "greedy", "seed": 1, "auto_accept": True},
        ben={"bot": "random", "seed": 2, "invite": "Ann"},
    )
    pump_until([ann, ben], lambda: bool(ann.backend and ann.backend.results), timeout=30)
    backend, table = ann.backend, ann.controller
    assert backend is not None and table is not None
    mirror = backend.game
    assert mirror is not None and mirror.is_over and mirror.deck is None  # a seat's view
    # What the hint reads the opponent from: our seat's events, the other's draws hidden.
    # (Either seat may never draw: one that takes every time keeps six cards or more; but
    # the first bout's attacker always draws, so the two seats' histories have a draw.)
    hidden = []
    for lobby in (ann, ben):
        seat_backend = lobby.backend
        assert seat_backend is not None and seat_backend.game is not None
        trump = seat_backend.game.trump_card
        theirs = [e for e in seat_backend.seat_history(seat_backend.seat)
                  if isinstance(e, Drew) and e.player != seat_backend.seat]
        assert all(c is None or c is trump for e in theirs for c in e.cards)
        hidden += theirs
    assert hidden
    pump_until([ann, ben], lambda: bool(backend.verdicts), timeout=30)
    (verdict,) = backend.verdicts.values()
    assert verdict.fair and verdict.full_game
    full = backend.review_game
    assert full is not None and full.deck is not None
    assert full.log == mirror.log and full.public_hash() == mirror.public_hash()
    assert full.state_hash() == verdict.state_hash  # the game both seats audited
    pump_until([ann], lambda: table.view.review_button.layout.display != "none")
    table.coach.iterations = 20
    table.view.review_button.click()
    pump_until([ann], lambda: "<svg" in table.view.review.value, timeout=60)
    review = table.coach._review
    assert review is not None and review.report.seat == backend.seat
    assert review.report.losers == tuple(full.losers)
    # review() in a cell takes the lobby itself, the same way.
    again = review_of(ann, iterations=20)
    assert again.report == review.report


def test_a_game_audited_before_a_restart_is_still_reviewed_after_resuming(tmp_path) -> None:
    """Ann's kernel dies after the game's fair audit, before another game: her new
    lobby resumes the session from its journal, and the Review still replays the full
    game the audit rebuilt (the journal keeps it with the verdict)."""
    port = free_udp_port()
    common = {"port": port, "journal_dir": tmp_path}
    ann = lan("Ann", handoff=Handoff(mode="manual"), bot="greedy", seed=1, auto_accept=True,
              **common)
    ben = lan("Ben", handoff=Handoff(mode="manual"), bot="random", seed=2, invite="Ann",
              **common)
    again = None
    try:
        pump_until([ann, ben], lambda: bool(ann.backend and ann.backend.verdicts), timeout=60)
        (verdict,) = ann.backend.verdicts.values()
        assert verdict.fair
        ann.close(leave=False)
        again = lan("Ann", handoff=Handoff(mode="manual"), **common)
        (resume,) = again.resume_box.children
        resume.click()
        pump_until([again, ben], lambda: again.controller is not None
                   and again.backend.review_game is not None)
        full = again.backend.review_game
        assert full.state_hash() == verdict.state_hash and full.deck is not None
        table = again.controller
        pump_until([again], lambda: table.view.review_button.layout.display != "none")
        table.coach.iterations = 20
        table.view.review_button.click()
        pump_until([again], lambda: "<svg" in table.view.review.value, timeout=60)
        assert table.coach._review.report.losers == tuple(full.losers)
    finally:
        for lobby in (ann, ben, again):
            if lobby is not None:
                lobby.close()


def _row_button(box, css: str):
    for row in box.children:
        for child in row.children:
            if css in child._dom_classes:
                return child
    return None


def test_invite_and_accept_by_clicking_then_a_move_appears_on_the_other_table(
    pair_of_lobbies,
) -> None:
    ann, ben = pair_of_lobbies()
    pump_until([ann, ben], lambda: _row_button(ben.peer_box, "durak-lan-invite") is not None)
    assert "Ann" in ben.peer_box.children[0].children[0].value
    _row_button(ben.peer_box, "durak-lan-invite").click()
    pump_until([ann, ben], lambda: _row_button(ann.invite_box, "durak-lan-accept") is not None)
    assert "Ben</b> invites you" in ann.invite_box.children[0].children[0].value
    _row_button(ann.invite_box, "durak-lan-accept").click()
    pump_until([ann, ben], lambda: ann.controller is not None and ben.controller is not None)
    # Whoever leads clicks a playable card; it must land on the other table by itself.
    leader = next(x for x in (ann, ben) if x.backend.game.attacker == x.backend.seat)
    other = ben if leader is ann else ann
    hand = leader.controller.view.visible_hand()
    playable = next(b for b in hand if "durak-playable" in b._dom_classes)
    card = playable.description
    playable.click()
    pump_until([ann, ben], lambda: bool(other.controller.view.visible_pairs()))
    ((attack, defence),) = other.controller.view.visible_pairs()
    assert attack.description == card and defence is None
    assert isinstance(other.backend.game.log[0], Attack)
    assert (
        "to beat" in other.controller.view.status.value
        or "Waiting" in other.controller.view.status.value
    )


def test_a_declined_invitation_shows_the_reason(pair_of_lobbies) -> None:
    ann, ben = pair_of_lobbies()
    pump_until([ann, ben], lambda: bool(ben.peers))
    ben.invite("Ann")
    pump_until([ann, ben], lambda: bool(ann.incoming))
    _row_button(ann.invite_box, "durak-lan-decline").click()
    pump_until([ann, ben], lambda: "declined" in ben.status.value)
    assert ben.controller is None and ann.controller is None


def test_running_the_cell_again_closes_the_previous_lobby() -> None:
    port = free_udp_port()
    first = lan("Cat", port=port, journal_dir=None, handoff=Handoff(mode="manual"))
    second = lan("Cat", port=port, journal_dir=None, handoff=Handoff(mode="manual"))
    try:
        assert not first.node.alive and second.node.alive
    finally:
        second.close()
    assert not second.node.alive


def test_bad_arguments_are_refused_with_the_reason() -> None:
    from durak_core import Rules

    with pytest.raises(ValueError, match="2 players"):
        lan("Dan", rules=Rules(players=3), journal_dir=None)
    with pytest.raises(ValueError, match="loss"):
        lan("Dan", loss=2.0, journal_dir=None)
    with pytest.raises(ValueError, match="HOST:PORT"):
        lan("Dan", connect="nowhere", journal_dir=None, handoff=Handoff(mode="manual"))


def test_a_restarted_notebook_resumes_its_game_with_one_click(tmp_path) -> None:
    """Both notebooks share one journal folder (one machine); Ann's kernel "restarts"
    mid-game (her lobby is closed without a goodbye, as a dying kernel would) and the
    new lobby offers her game back; the game then finishes identically on both sides."""
    port = free_udp_port()
    common = {"port": port, "journal_dir": tmp_path, "bot": "random"}
    ann = lan("Ann", handoff=Handoff(mode="manual"), seed=1, auto_accept=True, **common)
    ben = lan("Ben", handoff=Handoff(mode="manual"), seed=2, invite="Ann", **common)
    again = None
    try:
        pump_until([ann, ben], lambda: ann.backend is not None
                   and len(ann.backend.game.log) >= 10)
        ann.close(leave=False)
        # Ben's notebook says what is going on, and waits.
        pump_until([ben], lambda: "Connection to Ann lost, waiting" in ben.status.value,
                   timeout=10)
        assert "lost" in ben.controller.view.log.value
        again = lan("Ann", handoff=Handoff(mode="manual"), seed=3, auto_accept=True, **common)
        resume = again.resume_box.children
        assert len(resume) == 1 and "Resume the game with Ben" in resume[0].description
        resume[0].click()
        pump_until([again, ben], lambda: bool(again.results and ben.results), timeout=30)
        (a,), (b,) = again.results, ben.results
        assert (a.state_hash, a.log_hash) == (b.state_hash, b.log_hash)
        assert again.node.sessions[again.sid].epoch == 2  # a new incarnation, same session
        assert "Playing Ann" in ben.status.value
        assert a.actions > 10
    finally:
        for lobby in (ann, ben, again):
            if lobby is not None:
                lobby.close()


def test_leaving_tells_the_opponent_and_brings_the_lobby_back(pair_of_lobbies) -> None:
    ann, ben = pair_of_lobbies(ann={"auto_accept": True}, ben={"invite": "Ann"})
    pump_until([ann, ben], lambda: ann.controller is not None and ben.controller is not None)
    assert ben.leave_button.layout.display is None
    ben.leave_button.click()
    # Both sides: Ann can hear of it before Ben's own lobby has handled its leaving.
    pump_until([ann, ben], lambda: "Ben left the game" in ann.status.value and ben.sid is None)
    for lobby in (ann, ben):
        assert lobby.sid is None and lobby.lobby_box.layout.display is None
        assert lobby.backend.closed and lobby.leave_button.layout.display == "none"
    assert "You left the game" in ben.status.value
    # Ben's lobby invites Ann by itself once only: hearing her again after leaving, it
    # does not call her back (it did, and her auto_accept seated them again).
    heard: list[object] = []
    handle = ben._on_event
    ben._on_event = lambda event: (heard.append(event), handle(event))[1]  # type: ignore[method-assign]
    pump_until([ann, ben], lambda: any(isinstance(e, ev.PeerSeen) and e.peer.name == "Ann"
                                       for e in heard))
    ben.handoff.pump()
    assert ben.sid is None and not ben.outgoing and not ann.incoming
    assert "You left the game" in ben.status.value


def test_not_the_same_words_ends_the_session_and_tells_the_other_player(
    pair_of_lobbies,
) -> None:
    ann, ben = pair_of_lobbies(ann={"auto_accept": True}, ben={"invite": "Ann"})
    pump_until([ann, ben], lambda: bool(ann.sas) and bool(ben.sas))
    assert ann.sas == ben.sas and ann.sas in ann.sas_label.value
    assert ann.sas_box.layout.display is None
    ann.differ_button.click()
    pump_until([ann, ben], lambda: ann.sid is None and ben.sid is None)
    assert "the pairing words differed" in ann.status.value
    assert "the pairing words differed: someone may be in the middle" in ben.status.value
    assert ann.sas_box.layout.display == "none"


def test_same_words_are_confirmed_with_a_tick(pair_of_lobbies) -> None:
    ann, ben = pair_of_lobbies(ann={"auto_accept": True}, ben={"invite": "Ann"})
    pump_until([ann, ben], lambda: bool(ben.sas))
    ben.same_button.click()
    pump_until([ann, ben], lambda: ben.sas_confirmed)
    assert "✓" in ben.sas_label.value and ben.same_button.layout.display == "none"


def test_a_pin_invitation_by_clicking(pair_of_lobbies) -> None:
    ann, ben = pair_of_lobbies()
    pump_until([ann, ben], lambda: _row_button(ben.peer_box, "durak-lan-invite-pin") is not None)
    _row_button(ben.peer_box, "durak-lan-invite-pin").click()
    pump_until([ann, ben], lambda: bool(ben.pin) and bool(ann.incoming))
    assert ben.pin in ben.status.value and len(ben.pin) == 6  # read it out to Ann
    assert "type the PIN they read out" in ann.invite_box.children[0].children[0].value
    # Accepting without the PIN is refused, with the reason.
    _row_button(ann.invite_box, "durak-lan-accept").click()
    pump_until([ann, ben], lambda: "asked for a PIN" in ann.status.value)
    _row_button(ann.invite_box, "durak-lan-pin").value = ben.pin
    _row_button(ann.invite_box, "durak-lan-accept").click()
    pump_until([ann, ben], lambda: ann.controller is not None and ben.controller is not None)
    assert ann.pin_paired and ben.pin_paired and "PIN checked" in ann.sas_label.value


def test_a_wrong_pin_fails_the_pairing_on_both_sides(pair_of_lobbies) -> None:
    ann, ben = pair_of_lobbies()
    pump_until([ann, ben], lambda: bool(ben.peers))
    ben.invite("Ann", pin="123456")
    pump_until([ann, ben], lambda: bool(ann.incoming))
    ann.accept(pin="654321")
    pump_until([ann, ben], lambda: "pairing failed" in ben.status.value)
    assert ann.sid is None and ben.sid is None
    assert "the PIN does not match" in ben.status.value
