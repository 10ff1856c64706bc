"""A malicious peer, written as a test double that speaks the protocol, tries each way of
cheating; the honest peer catches it and the audit names the fault and the cheater.

Bob (the follower) runs the real session code with a dealer that cheats, or sends
frames the honest code never would; Alice is honest.  Each game must end with a
verdict naming Bob, never with a crash (no internal error) or a silent desync.
"""

from __future__ import annotations

import random

from durak_core import Attack, Card
from durak_net import events as ev
from durak_net import mental
from durak_net.dealer import DealContext, DealMessage, Keys, MentalDealer, Trump
from durak_net.session import SessionConfig

from .helpers import FAST, Pair, deal, make_pair, propose


def _run(pair: Pair, limit: float = 120.0) -> None:
    pair.net.run(lambda: bool(_audits(pair.seq)) and bool(_audits(pair.fol)), limit=limit)


def _audits(side) -> list[ev.GameAudited]:
    return [e for e in side.events if isinstance(e, ev.GameAudited)]


def _honest_verdict(pair: Pair) -> ev.GameAudited:
    (verdict,) = _audits(pair.seq)
    assert not pair.seq.session.drops["internal_error"]
    return verdict


# ---------------------------------------------------------------- cheating dealers


class DuplicatingDealer(MentalDealer):
    """Copies one card over another in its shuffle (to hold two of a card it likes)."""

    def _compute(self, step: int) -> list[bytes]:
        deck = super()._compute(step)
        if step == self.seat:
            deck[1] = deck[0]
        return deck


class ReplacingDealer(MentalDealer):
    """Swaps a card of the deck for a point of its own making."""

    def _compute(self, step: int) -> list[bytes]:
        deck = super()._compute(step)
        if step == self.seat:
            deck[0] = mental.mul(mental.card_key(self.seed, 99), mental.card_point(51))
        return deck


class WrongKeyDealer(MentalDealer):
    """Sends a wrong key for the first card it deals to the other seat (position 0)."""

    def _send(self, message: DealMessage) -> bytes:
        if isinstance(message, Keys) and 0 in message.positions:
            keys = list(message.keys)
            keys[message.positions.index(0)] = bytes([7]) + bytes(31)
            message = Keys(message.positions, keys)
        return super()._send(message)


class TrumpHidingDealer(MentalDealer):
    """Never shows its lowest trump (so that it need not attack first)."""

    def _trump_answer(self, round_no: int) -> Trump:
        return Trump(round_no, -1)


class SilentDealer(MentalDealer):
    """Never publishes its seed: it refuses the audit."""

    def publish_seed(self) -> list[bytes]:
        return []


def _with(dealer_class: type[MentalDealer]):  # type: ignore[no-untyped-def]
    def factory(context: DealContext, seed: bytes | None = None) -> MentalDealer:
        return dealer_class(context, seed)

    return factory


# ---------------------------------------------------------------- the tests


def test_a_card_duplicated_in_the_shuffle_is_caught_at_once() -> None:
    pair = make_pair(1, fol_dealer=_with(DuplicatingDealer), config=FAST)
    _run(pair)
    (stopped,) = [e for e in pair.seq.events if isinstance(e, ev.GameStopped)]
    assert stopped.culprit == 1 and stopped.detail == "duplicated a card in deal step 1"
    verdict = _honest_verdict(pair)
    assert (verdict.culprit, verdict.code) == (1, "duplicate_card")
    assert verdict.verdict == "audit: Bob cheated: duplicated a card in deal step 1"
    assert pair.seq.session.game is None  # nothing was dealt from the bad deck


def test_a_card_replaced_in_the_shuffle_is_caught_when_opened_and_named_by_the_audit() -> None:
    pair = make_pair(2, fol_dealer=_with(ReplacingDealer), config=FAST)
    _run(pair)
    verdict = _honest_verdict(pair)
    assert (verdict.culprit, verdict.code) == (1, "bad_pass")
    assert verdict.verdict.startswith("audit: Bob cheated: made deal step 1 with other keys")


def test_a_wrong_key_for_a_dealt_card_is_named_by_the_audit() -> None:
    pair = make_pair(3, fol_dealer=_with(WrongKeyDealer), config=FAST)
    _run(pair)
    verdict = _honest_verdict(pair)
    assert (verdict.culprit, verdict.code) == (1, "bad_key")
    assert "Bob cheated: sent a wrong key for position 0 (Alice's card" in verdict.verdict


def test_a_card_played_that_its_player_does_not_hold_stops_the_game_at_once() -> None:
    for seed in range(10, 60):
        pair = make_pair(seed, bots=False, config=FAST)
        pair.net.run(lambda p=pair: p.fol.session.game is not None
                     and p.seq.session.game is not None, limit=10.0)
        fol = pair.fol.session
        if fol.game.attacker == 1:
            break
    else:  # pragma: no cover
        raise AssertionError("no deal where Bob leads")
    # Bob claims a card still in the talon (unseen by both), opening one of his own
    # positions for it.
    mine = fol.game.hand(1)
    claimed = next(c for c in fol.game.unseen if c in pair.seq.session.game.unseen)
    position = fol.dealer.hidden_position(mine[0])
    assert position is not None
    key = mental.card_key(fol.dealer.seed, position)
    for frame in propose(fol, 99, str(Attack(1, claimed)), [(position, key)]):
        fol.channel.push(frame, pair.net.now)
    _run(pair)
    (stopped,) = [e for e in pair.seq.events if isinstance(e, ev.GameStopped)]
    assert stopped.culprit == 1
    assert stopped.detail == f"played {claimed}, a card it does not hold (position {position} " \
                             f"is {mine[0]})"
    verdict = _honest_verdict(pair)
    assert (verdict.culprit, verdict.code) == (1, "not_held")
    assert verdict.verdict.startswith(f"audit: Bob cheated: played {claimed}, a card it does not")
    assert pair.seq.session.log == []  # never applied


def test_a_card_the_other_seat_is_known_to_hold_is_refused_as_cheating() -> None:
    pair = make_pair(10, bots=False, config=FAST)
    pair.net.run(lambda: pair.fol.session.game is not None and pair.seq.session.game is not None,
                 limit=10.0)
    fol = pair.fol.session
    alices = pair.seq.session.game.hand(0)[0]  # Alice holds it: Bob cannot
    for frame in propose(fol, 99, str(Attack(1, alices))):
        fol.channel.push(frame, pair.net.now)
    _run(pair)
    (stopped,) = [e for e in pair.seq.events if isinstance(e, ev.GameStopped)]
    assert (stopped.culprit, stopped.detail) == (1, f"played {alices}, a card it cannot hold")
    assert _honest_verdict(pair).culprit == 1


def test_hiding_the_lowest_trump_is_found_by_the_audit_and_only_then() -> None:
    caught = fair = 0
    for seed in range(20, 40):
        pair = make_pair(seed, fol_dealer=_with(TrumpHidingDealer), config=FAST)
        pair.net.run(pair.done, limit=600.0)
        verdict = _honest_verdict(pair)
        dealer = pair.fol.session.dealers[1]
        trump = dealer.trump_card
        assert trump is not None
        low = {s: min((c.rank for c in _hand(pair, s) if c.suit == trump.suit), default=99)
               for s in (0, 1)}
        if low[1] < low[0]:  # Bob held the lowest trump and hid it
            assert (verdict.culprit, verdict.code) == (1, "bad_trump"), verdict
            assert f"Bob cheated: said it held no {Card(low[1], trump.suit)} but did" in (
                verdict.verdict
            )
            caught += 1
        else:  # nothing to hide: the game was fair
            assert verdict.fair, verdict
            fair += 1
    assert caught and fair


def _hand(pair: Pair, seat: int) -> list[Card]:
    """A seat's dealt hand, from its own dealer (what it saw at the deal)."""
    side = pair.seq if seat == 0 else pair.fol
    dealer = side.session.dealers[1]
    return [dealer.mine[j] for j in range(seat, 12, 2)]


def test_withholding_the_seed_is_named_as_refusing_the_audit() -> None:
    config = SessionConfig(rto=FAST.rto, audit_timeout=10.0)
    pair = make_pair(5, fol_dealer=_with(SilentDealer), config=config)
    pair.net.run(lambda: bool(_audits(pair.seq)), limit=600.0)
    verdict = _honest_verdict(pair)
    assert (verdict.culprit, verdict.code) == (1, "refused")
    assert verdict.verdict == "audit: Bob did not publish its keys for the audit"
    finished = next(e for e in pair.seq.events if isinstance(e, ev.GameFinished))
    assert 9.9 <= verdict.at - finished.at <= 11.0  # after the audit timeout, not at once


def test_leaving_mid_game_publishes_the_keys_so_the_cards_played_can_be_audited() -> None:
    pair = make_pair(6, config=FAST)
    pair.net.run(lambda: len(pair.seq.session.log) >= 12, limit=60.0)
    pair.fol.driver = None
    pair.fol.session.close(pair.net.now, "bored")
    pair.net.run(lambda: bool(_audits(pair.seq)), limit=pair.net.now + 30)
    verdict = _honest_verdict(pair)
    assert verdict.fair and verdict.verdict == "audited: fair (unfinished)"


def test_random_bytes_in_place_of_deal_messages_never_raise_into_the_application() -> None:
    rng = random.Random(9)
    for seed in range(8):
        pair = make_pair(seed, bots=False, config=FAST)
        fol = pair.fol.session
        garbage = rng.randbytes(rng.randrange(0, 700))
        fol.channel.push(deal(fol, 1, garbage), 0.0)
        pair.net.run(lambda p=pair: bool(_audits(p.seq)) or p.net.now > 5, limit=30.0)
        assert not pair.seq.session.drops["internal_error"]
        stops = [e for e in pair.seq.events if isinstance(e, ev.GameStopped)]
        assert stops and stops[0].culprit == 1
