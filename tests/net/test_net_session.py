"""The session's promises one by one: validation, authentication, desync reports, outages,
resuming from the journal.  All in simulated time over :class:`durak_net.simlink.SimNet`."""

from __future__ import annotations

import random
import re

import pytest

from durak_core import Attack, IllegalAction, Pass, Rules, Take, parse_action
from durak_net import events as ev
from durak_net.node import LanNode
from durak_net.session import Role, Session, SessionError
from durak_net.wire import Propose, Refused

from .helpers import FAST, FOL_ADDR, SEQ_ADDR, entry, make_pair, propose, replace_session
from .secrets_scan import hidden_positions, opened_by, pickled_candidates


def _dealt(seed: int = 3, **kw):
    """A freshly dealt pair without bots in which seat 0 (the sequencer) leads."""
    for attempt in range(seed, seed + 50):
        pair = make_pair(attempt, bots=False, **kw)
        assert pair.net.run(
            lambda p=pair: p.seq.session.game is not None and p.fol.session.game is not None,
            limit=10.0,
        )
        if pair.seq.session.game.attacker == 0:
            return pair
    raise AssertionError("no deal with seat 0 leading")


def _settle(pair, seconds: float = 1.0) -> None:
    """Run the network until it is quiet (everything delivered and acknowledged)."""
    end = pair.net.now + seconds
    pair.net.run(
        lambda: pair.net.now >= end and all(s.session.channel.in_flight == 0 for s in pair.sides),
        limit=end + 30,
    )


def _events(side, kind):
    return [e for e in side.events if isinstance(e, kind)]


# ------------------------------------------------------------------ local errors


def test_an_illegal_local_move_raises_with_the_reason_and_sends_nothing() -> None:
    pair = _dealt()
    seq = pair.seq.session
    game = seq.game
    illegal = Take(seq.seat)
    reason = game.why_illegal(illegal)
    assert reason is not None
    before = seq.channel.in_flight
    with pytest.raises(IllegalAction, match=re.escape(reason)):
        seq.act(illegal, pair.net.now)
    with pytest.raises(IllegalAction, match="you play seat 0"):
        seq.act(Take(1), pair.net.now)
    assert seq.channel.in_flight == before and seq.log == []


def test_a_rematch_before_the_game_ends_is_a_local_error() -> None:
    pair = _dealt()
    with pytest.raises(SessionError, match="not over"):
        pair.seq.session.start_next_game(pair.net.now)


def test_agreeing_again_to_a_game_already_dealt_is_harmless() -> None:
    """Both peers may agree to game 2 at once; the late answer to the peer's request
    (a NextGameRequested still queued in the application) must not fail."""
    pair = make_pair(5)
    assert pair.net.run(pair.done, limit=600.0)
    pair.seq.driver = pair.fol.driver = None  # game 2 is dealt, then waits
    seq, fol = pair.seq.session, pair.fol.session
    assert seq.start_next_game(pair.net.now) == 2
    assert pair.net.run(lambda: bool(_events(pair.fol, ev.NextGameRequested)), limit=10.0)
    (request,) = _events(pair.fol, ev.NextGameRequested)
    assert fol.start_next_game(pair.net.now, request.game) == 2
    assert pair.net.run(lambda: seq.game_no == fol.game_no == 2, limit=10.0)
    _settle(pair)
    # The stale answer, on both sides: no error, nothing sent, game 2 goes on.
    for session in (fol, seq):
        assert session.start_next_game(pair.net.now, request.game) == 2
        assert session.channel.in_flight == 0 and session.game_no == 2
    with pytest.raises(SessionError, match="not over"):
        fol.start_next_game(pair.net.now)


def test_a_seat_must_fit_its_table() -> None:
    with pytest.raises(ValueError, match="seat 3 of a 3-seat table"):
        Session(1, Role.FOLLOWER, bytes(32), Rules(players=3), SEQ_ADDR, 0.0, table=5, seat=3)
    with pytest.raises(ValueError, match="joined with its table id"):
        Session(1, Role.FOLLOWER, bytes(32), Rules(players=3), SEQ_ADDR, 0.0)
    with pytest.raises(ValueError, match=r"seat 0 .* as follower"):
        Session(1, Role.FOLLOWER, bytes(32), Rules(), SEQ_ADDR, 0.0, seat=0)


# ------------------------------------------------------------------ remote misbehaviour


def test_a_move_opened_at_its_place_that_is_illegal_stops_the_game_naming_its_proposer(
) -> None:
    """The host placed the proposal on the log it was made on, where its seat's own peer
    checked it; opened illegal there, it is the proposer's fault, never a refusal (the
    host has seen it by then: refusing it would read cards)."""
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    game = seq.game
    # An action of the follower's seat that the rules refuse now.
    illegal = next(a for a in [Take(1), Pass(1)] if game.why_illegal(a))
    fol.pending[99] = illegal
    for frame in propose(fol, 99, str(illegal)):
        fol.channel.push(frame, pair.net.now)
    _settle(pair)
    assert seq.log == [] and seq.game.public_hash() == game.public_hash()
    assert not _events(pair.seq, ev.PeerActionRefused)
    (stopped,) = _events(pair.seq, ev.GameStopped)
    move = str(illegal).split(" ", 1)[1]  # (the finding says the move as a player types it)
    assert stopped.culprit == 1 and f"committed to {move}, which is illegal" in stopped.detail


def test_a_proposal_that_opens_as_the_sequencers_move_stops_the_game() -> None:
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    forged = seq.game.legal_actions(0)[0]  # legal for seat 0, but the follower is seat 1
    for frame in propose(fol, 5, str(forged)):
        fol.channel.push(frame, pair.net.now)
    _settle(pair)
    assert seq.log == []
    (stopped,) = _events(pair.seq, ev.GameStopped)
    assert stopped.culprit == 1 and "committed to a move of Alice" in stopped.detail


def test_a_proposal_that_opens_unreadable_stops_the_game() -> None:
    pair = _dealt()
    fol = pair.fol.session
    for frame in propose(fol, 6, "1 juggle 7♠"):
        fol.channel.push(frame, pair.net.now)
    _settle(pair)
    assert pair.seq.session.log == []
    (stopped,) = _events(pair.seq, ev.GameStopped)
    assert stopped.culprit == 1 and "unreadable" in stopped.detail


def test_an_entry_playing_the_followers_seat_without_its_proposal_stops_the_game() -> None:
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    before = fol.game.public_hash()
    forged = fol.game.legal_actions(1)
    if not forged:  # make seat 1 the one able to act: the sequencer attacks first
        seq.act(seq.game.legal_actions(0)[0], pair.net.now)
        _settle(pair)
        before = fol.game.public_hash()
        forged = fol.game.legal_actions(1)
    action = forged[0]
    seq.channel.push(
        entry(seq.game_no, len(seq.log), str(action), bytes(16), host=seq), pair.net.now
    )
    _settle(pair)
    assert fol.game.public_hash() == before
    (stopped,) = _events(pair.fol, ev.GameStopped)
    assert "did not propose" in stopped.detail and stopped.culprit == 0
    assert _events(pair.seq, ev.GameStopped)[0].by_peer
    # Both publish their keys; the follower's verdict names the forger.
    (verdict,) = _events(pair.fol, ev.GameAudited)
    assert not verdict.fair and verdict.culprit == 0
    assert verdict.verdict.startswith("audit: Alice cheated: sent entry")
    assert "did not propose" in verdict.verdict


def test_an_illegal_entry_stops_the_game_and_is_not_applied() -> None:
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    before = fol.game.public_hash()
    bogus = Take(0)  # seat 0 is not defending at the start
    assert fol.game.why_illegal(bogus)
    seq.channel.push(entry(seq.game_no, 0, str(bogus), bytes(16), host=seq), pair.net.now)
    _settle(pair)
    assert fol.game.public_hash() == before and fol.log == []
    assert "illegal" in _events(pair.fol, ev.GameStopped)[0].detail
    (verdict,) = _events(pair.fol, ev.GameAudited)
    assert verdict.culprit == 0 and verdict.code == "illegal"


def test_a_different_state_hash_is_reported_as_a_desync() -> None:
    pair = _dealt()
    seq = pair.seq.session
    action = seq.game.legal_actions(seq.seat)[0]
    reveal = seq.dealer.reveal(action.card)  # a proper entry, but for its hash
    seq.channel.push(entry(seq.game_no, 0, str(action), bytes(16),
                           reveals=[(reveal.position, reveal.key)], host=seq), pair.net.now)
    _settle(pair)
    (desync,) = _events(pair.fol, ev.DesyncDetected)
    assert "hash" in desync.detail
    assert _events(pair.seq, ev.DesyncDetected)  # the sequencer hears about it too


def test_a_third_host_without_the_key_cannot_inject_a_move() -> None:
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    intruder = Session(
        seq.sid,
        Role.SEQUENCER,
        bytes(32),
        seq.rules,
        FOL_ADDR,
        pair.net.now,
        entropy=random.Random(5).randbytes,
    )
    action = seq.game.legal_actions(0)[0]
    intruder.channel.push(
        entry(seq.game_no, 0, str(action), bytes.fromhex(seq.game.public_hash())),
        pair.net.now,
    )
    before = fol.game.public_hash()
    for data, _ in intruder.datagrams_to_send(pair.net.now):
        fol.receive(data, ("10.77.0.66", 40066), pair.net.now)
    assert fol.game.public_hash() == before and fol.drops["bad_mac"] >= 1
    assert fol.peer_addr == SEQ_ADDR  # nor can it redirect the session


# ------------------------------------------------------------------ outages


def test_a_silent_peer_is_reported_lost_and_the_game_resumes_when_it_is_back() -> None:
    pair = make_pair(31, games=1, config=FAST)
    net = pair.net
    assert net.run(lambda: len(pair.seq.session.log) >= 10, limit=60.0)
    net.loss = 1.0  # the cable is pulled
    start = net.now
    net.run(lambda: net.now > start + 10.0, limit=start + 11.0)
    for side in pair.sides:
        (lost,) = _events(side, ev.PeerLost)
        assert lost.at - start == pytest.approx(FAST.lost_after, abs=0.1)
    net.loss = 0.0
    assert net.run(pair.done, limit=net.now + 600.0)
    for side in pair.sides:
        assert _events(side, ev.PeerBack)
        assert not side.bad()
    assert pair.seq.finished[0].state_hash == pair.fol.finished[0].state_hash


def test_heartbeats_keep_an_idle_session_alive() -> None:
    pair = _dealt()
    start = pair.net.now
    pair.net.run(lambda: pair.net.now > start + 30.0, limit=start + 31.0)
    for side in pair.sides:
        assert not _events(side, ev.PeerLost)
        assert 20 <= side.session.stats["packets_sent"] <= 80


# ------------------------------------------------------------------ resume


@pytest.mark.parametrize("who", ["follower", "sequencer"])
def test_a_restarted_peer_resumes_from_its_journal(who: str) -> None:
    pair = make_pair(41, loss=0.2, duplicate=0.1, games=2, config=FAST)
    net = pair.net
    assert net.run(lambda: len(pair.seq.session.log) >= 25, limit=600.0)
    side = pair.fol if who == "follower" else pair.seq
    old = side.session
    seed = random.Random(9)
    replace_session(
        pair,
        side,
        lambda records: Session.restore(records, net.now, entropy=seed.randbytes, config=FAST),
        ("10.77.0.99", 41999),  # a restarted kernel comes back on a new port
    )
    assert side.session.epoch == 2 and side.session.log == old.log
    assert net.run(pair.done, limit=net.now + 3600.0)
    seq, fol = pair.seq, pair.fol
    assert not seq.bad() and not fol.bad()
    for number in (1, 2):
        assert seq.session.logs[number] == fol.session.logs[number]
    assert [e.state_hash for e in seq.finished] == [e.state_hash for e in fol.finished]
    assert any(isinstance(e, ev.GameStarted) and e.resumed for e in side.events)
    other = pair.seq if side is pair.fol else pair.fol
    assert other.session.stats["peer_restarts"] == 1
    assert other.session.peer_addr == ("10.77.0.99", 41999)


def test_a_refused_proposal_opens_nothing_and_its_card_is_proven_when_played() -> None:
    """A proposal the table moved past is refused before it is opened: the host never
    sees its move nor its key (its memory opens no card of Bob's), both keep the card
    hidden, and a later play of it proves it again (also after the host resumed from its
    journal)."""
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    card = fol.game.hand(1)[0]
    reveal = fol.dealer.reveal(card, commit=False)  # as act() does for a proposal
    assert reveal is not None
    fol.pending[50] = parse_action(f"1 attack {card}")
    commitment, _ = propose(fol, 50, f"1 attack {card}", [(reveal.position, reveal.key)])
    seq.act(next(a for a in seq.game.legal_actions(0) if isinstance(a, Attack)), pair.net.now)
    fol.channel.push(commitment, pair.net.now)  # made on the log before Alice's attack
    _settle(pair)
    assert _events(pair.seq, ev.PeerActionRefused) and not _events(pair.seq, ev.GameStopped)
    assert [str(e.action) for e in _events(pair.fol, ev.ActionRefused)] == [f"1 attack {card}"]
    assert card not in seq.game.hand(1) and reveal.position not in seq.dealer.opened
    hidden = hidden_positions(seq.dealer, 1)
    assert reveal.position in hidden
    assert opened_by(seq.dealer, hidden, pickled_candidates(seq)) == {}
    assert fol.dealer.hidden_position(card) == reveal.position  # still hidden for Bob
    seed = random.Random(3)
    replace_session(pair, pair.seq, lambda records: Session.restore(
        records, pair.net.now, entropy=seed.randbytes, config=FAST), ("10.77.0.98", 41998))
    restored = pair.seq.session
    assert card not in restored.game.hand(1) and reveal.position not in restored.dealer.opened
    # When Bob plays it later, its reveal proves it again (the position is not spent).
    action = parse_action(f"1 attack {card}")
    assert restored.play.check_reveals(restored, 1, action, [(reveal.position, reveal.key)],
                                       pair.net.now, commit=False)
    assert not _events(pair.seq, ev.GameStopped)


def test_a_journal_that_does_not_replay_is_refused() -> None:
    pair = make_pair(43, games=1)
    assert pair.net.run(lambda: len(pair.fol.session.log) >= 5, limit=60.0)
    records = pair.fol.journal + pair.fol.session.journal_records()
    tampered = [dict(r) for r in records]
    entry = next(r for r in tampered if r["t"] == "entry")
    entry["hash"] = "0" * 32
    with pytest.raises(ValueError, match="does not replay"):
        Session.restore(tampered, 0.0)
    with pytest.raises(ValueError, match="not a session journal"):
        Session.restore(records[1:], 0.0)


def test_closing_says_goodbye_and_the_peer_learns_it() -> None:
    pair = _dealt()
    pair.fol.session.close(pair.net.now, "bedtime")
    _settle(pair)
    (closed,) = _events(pair.seq, ev.SessionClosed)
    assert closed.by_peer and closed.reason == "bedtime"
    assert _events(pair.fol, ev.SessionClosed)[0].by_peer is False
    with pytest.raises(SessionError):
        pair.fol.session.act(parse_action("1 take"), pair.net.now)


def test_a_datagram_reflected_back_to_its_sender_is_refused() -> None:
    pair = _dealt()
    pair.seq.session.act(pair.seq.session.game.legal_actions(0)[0], pair.net.now)
    own = pair.seq.session.datagrams_to_send(pair.net.now)
    assert own
    for data, _ in own:
        pair.seq.session.receive(data, ("10.77.0.66", 40066), pair.net.now)
    assert pair.seq.session.drops["bad_mac"] == len(own)
    assert pair.seq.session.peer_addr == FOL_ADDR


# ------------------------------------------------------------------ copies and replays


def test_a_copied_or_replayed_packet_is_dropped_but_a_late_one_is_taken_in() -> None:
    pair = _dealt()
    _settle(pair)
    seq, fol = pair.seq.session, pair.fol.session
    now = pair.net.now
    # A move, then the packets that resend it while no ack comes back.
    seq.act(seq.game.legal_actions(0)[0], now)
    sent: list[bytes] = []
    for _ in range(3):
        sent += [data for data, _ in seq.datagrams_to_send(now)]
        now += 1.5
    assert len(sent) >= 3
    first, *rest = sent
    reordered = fol.stats["packets_reordered"]  # the simulated link reorders a few too
    for data in rest:  # the first one is late: it arrives after the others
        fol.receive(data, SEQ_ADDR, now)
    drops = sum(fol.drops.values())
    fol.receive(first, SEQ_ADDR, now)
    assert sum(fol.drops.values()) == drops
    assert fol.stats["packets_reordered"] == reordered + 1
    assert fol.game.public_hash() == seq.game.public_hash()  # every move arrived
    # Each packet again, as the network may copy it or an eavesdropper replay it:
    # dropped and counted, and not taken as a sign that the peer is alive.
    last_heard = fol._last_recv
    for data in sent:
        fol.receive(data, SEQ_ADDR, now + 5.0)
    assert fol.drops["duplicate"] == len(sent)
    assert fol._last_recv == last_heard
    assert fol.game.public_hash() == seq.game.public_hash()


# ------------------------------------------------------------------ proposal flood


class _RefusingSequencer(Session):
    """A sequencer that refuses every proposal (a broken or hostile peer)."""

    def _on_propose(self, link, frame: Propose, now: float) -> None:  # type: ignore[no-untyped-def]
        self.proposals_seen = getattr(self, "proposals_seen", 0) + 1
        self._refuse(link, frame.pid, "refused for no reason", now)


def test_a_host_that_refuses_a_move_made_on_its_own_log_is_named_at_once() -> None:
    """A host may refuse only a proposal the table has moved past (section 7): one that
    refuses every proposal (a broken or hostile peer; say, to make the other seat take
    every time) is named by the proposer at the first refusal, and the game stops."""
    for attempt in range(20):
        pair = make_pair(40 + attempt, config=FAST)
        pair.net.run(lambda p=pair: p.fol.session.game is not None, limit=10.0)
        if pair.fol.session.game.attacker == 1:
            break
    seq = pair.seq.session
    refusing = _RefusingSequencer.__new__(_RefusingSequencer)
    refusing.__dict__.update(seq.__dict__)
    pair.net.remove(SEQ_ADDR)
    pair.net.add(SEQ_ADDR, refusing)
    pair.seq.session = refusing
    pair.seq.driver = None
    assert pair.net.run(lambda: bool(pair.fol.audited), limit=pair.net.now + 60.0)
    assert refusing.proposals_seen == 1
    (stopped,) = [e for e in pair.fol.events if isinstance(e, ev.GameStopped)]
    assert stopped.culprit == 0 and "made on its own log" in stopped.detail
    verdict = pair.fol.audited[0]
    assert (verdict.code, verdict.culprit) == ("bad_refusal", 0)
    assert "refused for no reason" in verdict.verdict
    assert not [e for e in pair.fol.events if isinstance(e, ev.ActionRefused)]


def test_a_refusal_of_a_move_the_table_moved_past_is_taken_and_not_held() -> None:
    """A race: Bob proposes to take while Alice throws in another card; the host refuses
    the take as stale (its log has moved past the one Bob proposed on, and the entry
    that moved it reached Bob first).  Bob accepts that refusal without blaming anyone,
    and the take is not "refused" in the new state: not in the session, not in the view
    the notebook's table and the bots read, nor after Bob's kernel restarts from its
    journal.  (Kept, it hid a legal move, perhaps the only one, from a bot.)"""
    for seed in range(3, 200):
        pair = _dealt(seed)
        seq, fol = pair.seq.session, pair.fol.session
        attack = next((a for a in seq.game.legal_actions(0)
                       if isinstance(a, Attack)), None)
        seq.act(attack, pair.net.now)
        _settle(pair)
        more = [a for a in seq.game.legal_actions(0) if isinstance(a, Attack)]
        if more and fol.game.why_illegal(Take(1)) is None:
            break
    else:
        raise AssertionError("no deal where Alice can throw in a second card")
    on_propose = seq._on_propose

    def throw_in_then_refuse(link, frame, now):  # type: ignore[no-untyped-def]
        seq._on_propose = on_propose  # type: ignore[method-assign]
        seq.act(more[0], now)
        seq._refuse(link, frame.pid, "the table moved on", now)

    seq._on_propose = throw_in_then_refuse  # type: ignore[method-assign]
    fol.act(Take(1), pair.net.now)
    _settle(pair)
    refused = [e for e in pair.fol.collect() + pair.fol.events
               if isinstance(e, ev.ActionRefused)]
    assert refused and refused[0].reason == "the table moved on"
    assert not pair.fol.bad() and fol.in_game
    assert fol.refused == {}
    assert LanNode._make_view(fol).refused == {}  # what the table and the bots read
    fol.act(Take(1), pair.net.now)  # the take, proposed again in the new state
    _settle(pair)
    assert seq.log[-1].action == "1 take"
    replace_session(pair, pair.fol, lambda records: Session.restore(
        records, pair.net.now, entropy=random.Random(4).randbytes, config=FAST),
        ("10.77.0.97", 41997))
    restored = pair.fol.session
    assert len(restored.log) == len(seq.log) and restored.refused == {}


def test_a_proposal_id_used_before_is_refused_not_ignored() -> None:
    """Proposal ids count per session; a new proposal under an old id gets an answer."""
    pair = _dealt()
    seq, fol = pair.seq.session, pair.fol.session
    sent: list[Refused] = []
    push = seq._push_to

    def spy(link, frame, now):  # type: ignore[no-untyped-def]
        if isinstance(frame, Refused):
            sent.append(frame)
        push(link, frame, now)

    seq._push_to = spy  # type: ignore[method-assign]
    stale, _ = propose(fol, 7, "1 pass")
    seq.act(next(a for a in seq.game.legal_actions(0) if isinstance(a, Attack)), pair.net.now)
    fol.channel.push(stale, pair.net.now)  # made before Alice's attack: refused
    _settle(pair)
    for frame in propose(fol, 7, "1 take"):
        fol.channel.push(frame, pair.net.now)
    _settle(pair)
    assert [f.pid for f in sent] == [7, 7]
    assert "proposal id 7 was used before" in sent[1].reason
    assert len(seq.log) == 1
