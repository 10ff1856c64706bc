"""The waits part on its own (no session, no network): what the host's move clock
does when a seat's time runs out, and when a host that stalls or a seat that idles is
named, driven with a dealt game in memory and a recorder for its effects."""

from __future__ import annotations

from dataclasses import dataclass, field

from durak_core import Action, Game, Rules, Take
from durak_net.clock import CLOCK_ALLOWANCE
from durak_net.dealing import Dealing
from durak_net.gamelog import GameLog
from durak_net.handover import HandOver
from durak_net.identity import Identity
from durak_net.notes import Note, Seat
from durak_net.outcomes import Outcomes
from durak_net.play import Play
from durak_net.presence import Presence
from durak_net.proposals import OwnProposal, Proposals
from durak_net.timers import idle_bound, stall_bound
from durak_net.waits import Waits
from durak_net.wire import Fault, Frame, Propose, Status

TABLE = 0x3A17
RULES = Rules(players=3, deck_size=24)
SEED_LEAD_1 = 2  # (seat 1 leads first)
GRACE = 40


@dataclass
class Recorder:
    """The effects a waits part asks for, kept to look at."""

    stops: list[tuple[int, int, str, Note]] = field(default_factory=list)
    moves: list[tuple[Action, str]] = field(default_factory=list)
    leads: list[str] = field(default_factory=list)
    sent: list[tuple[int, Frame]] = field(default_factory=list)

    def stop(self, number: int, culprit: int, code: str, note: Note, now: float, /, *,
             proof: list[bytes] | None = None) -> None:
        self.stops.append((number, culprit, code, note))

    def append(self, action: Action, now: float, /, *, forced: str) -> None:
        self.moves.append((action, forced))

    def lead_cheapest(self, now: float, /, *, forced: str) -> None:
        self.leads.append(forced)

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        self.sent.append((seat, frame))


def _waits(seat: int, game: Game, clock: int = 0) -> Waits:
    """Seat ``seat``'s waits part, game 1 (``game``) in play, the clocks started at 10."""
    identity = Identity.generate(lambda size: bytes([seat + 1]) * size)
    proposals, log = Proposals(), GameLog()
    play = Play(TABLE, seat, 3, identity, log, proposals,
                Dealing(TABLE, seat, 3, 24, identity, bytes))
    play.begin(1, game)
    handover = HandOver(3, host=seat == 0)
    handover.clock.seconds = clock
    waits = Waits(seat, handover=handover, presence=Presence(), proposals=proposals,
                  play=play, game_log=log, outcomes=Outcomes())
    waits.restart(10.0, grace=GRACE, in_game=True)
    return waits


def _game(seed: int = SEED_LEAD_1) -> Game:
    return Game.new(RULES, seed=seed)


def test_after_an_entry_the_clock_runs_for_whom_the_game_waits_and_the_idle_bound_too(
        ) -> None:
    waits = _waits(2, _game(), clock=30)
    assert waits.due(1, True) == "lead" and waits.due(2, True) is None
    assert waits.due(1, False) is None  # no game in play: nothing is due
    assert waits.clock.deadlines == {1: 40.0}
    assert waits.handover.idle.deadlines == {1: 10.0 + idle_bound(GRACE, 30)}


def test_the_hosts_clock_plays_a_take_or_a_pass_and_asks_a_seat_to_lead() -> None:
    game = _game()
    host, fx = _waits(0, game, clock=30), Recorder()
    host.clock_ran_out(fx, 1, 40.0, in_game=True)  # seat 1 must lead: only it can
    assert fx.moves == [] and fx.sent == [(1, Status(0, 1, "timeout", "1:0"))]
    assert host.handover.was_nudged(1, (1, 0)) and 1 not in host.clock.deadlines
    attack = next(a for a in game.legal_actions(1) if not getattr(a, "more", False))
    game.apply(attack)  # now the defender must beat or take
    defender = game.defender
    host.restart(50.0, grace=GRACE, in_game=True)
    host.clock_ran_out(fx, defender, 80.0, in_game=True)
    assert fx.moves == [(Take(defender), "timeout")]
    own = _waits(0, _game(seed=1), clock=30)  # the host leads itself
    own.clock_ran_out(fx, 0, 40.0, in_game=True)
    assert fx.leads == ["timeout"]


def test_a_seat_names_its_host_stalled_once_its_proposal_waited_the_bound() -> None:
    seat, fx = _waits(1, _game()), Recorder()
    frame = Propose(0, 3, 1, bytes(32), 0, b"", bytes(64))
    seat.proposals.sent(OwnProposal(Take(1), [], bytes(16), frame))
    seat.proposals.sent_at[3] = 20.0
    bound = stall_bound(GRACE)
    assert seat.stall_due(grace=GRACE, judging=True) == (20.0 + bound, "stalled", 3)
    assert seat.stall_due(grace=GRACE, judging=False) is None  # (stopped, lost, ...)
    assert _waits(0, _game()).stall_due(grace=GRACE, judging=True) is None  # the host
    seat.stalled(fx, (20.0 + bound, "stalled", 3), 20.0 + bound, grace=GRACE)
    assert fx.stops == [(1, 0, "stalled", Note.of("stalled", seconds=40))]


def test_a_seat_heard_while_it_held_the_game_up_is_named_idle_once_its_bound_ran_out(
        ) -> None:
    bystander, fx = _waits(2, _game()), Recorder()
    bound = idle_bound(GRACE, 0)
    assert bystander.idle_due(judging=True) is None  # seat 1 never heard directly
    bystander.presence.heard_from(1, 100.0)
    assert bystander.idle_due(judging=True) == (10.0 + bound, 1)
    assert bystander.idle_due(judging=False) is None
    bystander.idle(fx, 1, 10.0 + bound)
    assert fx.stops == [(1, 1, "idle", Note.of("idle", seat=Seat(1), seconds=bound))]


def test_another_seats_claim_is_checked_on_our_own_clock() -> None:
    bystander = _waits(2, _game())
    bystander.presence.heard_from(1, 100.0)
    due = 10.0 + idle_bound(GRACE, 0)

    def claim(code: str, seat: int, index: int = 0) -> Fault:
        return Fault(0, 1, index, seat, code, "", 0, bytes(64))

    assert bystander.seen(claim("idle", 1), due - CLOCK_ALLOWANCE, grace=GRACE)
    assert not bystander.seen(claim("idle", 1), due - 60.0, grace=GRACE)  # too early
    assert not bystander.seen(claim("idle", 1, index=4), due, grace=GRACE)  # another log
    assert not bystander.seen(claim("idle", 2), due, grace=GRACE)  # about us: ours to say
    assert not bystander.seen(claim("stalled", 0), due, grace=GRACE)  # not ours to check


def test_a_seated_player_ends_a_wait_on_a_seat_it_cannot_hear_past_bound_and_margin(
        ) -> None:
    from durak_net.timers import unheard_margin

    waits = _waits(2, _game(), clock=0)  # seat 1 leads: the game waits for it
    deadline = waits.handover.idle.deadlines[1]
    assert waits.idle_due(judging=True) is None  # we never heard seat 1: not named
    assert waits.unheard_due(grace=GRACE, judging=True) == (
        deadline + unheard_margin(GRACE), 1)
    assert waits.unheard_due(grace=GRACE, judging=False) is None
    waits.presence.heard_from(1, 11.0)  # heard directly: judged at the bound instead
    assert waits.unheard_due(grace=GRACE, judging=True) is None
    assert _waits(0, _game()).unheard_due(grace=GRACE, judging=True) is None  # the host
