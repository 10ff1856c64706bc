"""The hidden-hand deal: mental poker for 2 to 6 seats, the audit, and cheaters caught."""

from __future__ import annotations

import random

import pytest

from durak_core import Attack, Card, Rules
from durak_net import mental
from durak_net.audit import Stop
from durak_net.dealer import Keys, Pass, Reveal, Trump, decode, encode

from .mental_table import Table, expect_fault

# ---------------------------------------------------------------- primitives


def test_card_points_are_distinct_group_points_and_map_back() -> None:
    points = [mental.card_point(i) for i in range(52)]
    assert len(set(points)) == 52
    assert all(mental.card_of_point(p) == i for i, p in enumerate(points))


def test_a_seed_gives_a_permutation_and_keys_that_commute() -> None:
    seed_a, seed_b = bytes(range(32)), bytes(range(1, 33))
    assert sorted(mental.permutation(seed_a, 36)) == list(range(36))
    assert mental.permutation(seed_a, 36) != mental.permutation(seed_b, 36)
    p = mental.card_point(5)
    ka, kb = mental.card_key(seed_a, 3), mental.card_key(seed_b, 3)
    assert mental.mul(ka, mental.mul(kb, p)) == mental.mul(kb, mental.mul(ka, p))
    assert mental.open_card(mental.mul(ka, mental.mul(kb, p)), [kb, ka]) == 5


def test_a_wrong_key_opens_no_card() -> None:
    seed = bytes(32)
    locked = mental.mul(mental.card_key(seed, 0), mental.card_point(7))
    with pytest.raises(mental.MentalError):
        mental.open_card(locked, [mental.card_key(seed, 1)])
    with pytest.raises(mental.MentalError):
        mental.mul(mental.card_key(seed, 0), b"\xff" * 32)  # not a group element


# ---------------------------------------------------------------- honest tables


@pytest.mark.parametrize(
    ("players", "deck"), [(2, 24), (2, 36), (2, 52), (3, 36), (4, 36), (5, 52), (6, 36), (6, 52)]
)
def test_every_seat_sees_its_own_hand_and_the_first_attacker_is_the_lowest_trump(
    players: int, deck: int
) -> None:
    for seed in range(3):
        table = Table(Rules(players=players, deck_size=deck), seed)
        table.deal()
        truth = table.truth()
        for s, view in enumerate(table.views):
            assert view.hand(s) == truth.hand(s)
            assert view.trump_card is truth.trump_card
            assert view.attacker == truth.attacker
            assert view.public_hash() == truth.public_hash()
            for other in range(players):
                if other != s:  # nothing of another hand is known but open trumps
                    shown = table.dealers[s].shown_trump
                    known = set(truth.known_cards(other))  # the trump, if all was dealt
                    if shown is not None and shown[0] == other:
                        known.add(shown[1])
                    assert set(view.hand(other)) == known


def test_only_the_lowest_trump_is_shown_as_a_person_would() -> None:
    for seed in range(6):
        table = Table(Rules(players=4), seed)
        table.deal()
        truth = table.truth()
        shown = table.dealers[1].shown_trump
        trumps = [c for s in range(4) for c in truth.hand(s) if c.suit == truth.trump_suit]
        if not trumps:
            assert shown is None and truth.attacker == 0
            continue
        assert shown is not None
        assert shown == (truth.attacker, min(trumps, key=lambda c: c.rank))
        assert len(table.dealers[1].opened) == 2  # the open trump and the shown one


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(deck_size=52, variant="perevodnoy"),
        Rules(players=3, variant="perevodnoy", transfer_by_showing_trump=True),
        Rules(players=4, throw_in="neighbours"),
        Rules(players=6),
    ],
    ids=["2p", "2p-52-perevodnoy", "3p-show", "4p-neighbours", "6p"],
)
def test_whole_games_played_from_views_keep_every_view_true_and_audit_fair(rules: Rules) -> None:
    for seed in range(4):
        table = Table(rules, seed)
        table.deal()
        table.play_out(random.Random(seed))
        truth = table.truth()
        for text, _ in table.log:
            truth.apply(_parse(text))
        for s, view in enumerate(table.views):
            assert view.public_hash() == truth.public_hash()
            assert view.hand(s) == truth.hand(s)
            assert not table.dealers[s].waiting_for_cards
        table.publish_seeds()
        assert [v.text for v in table.verdicts()] == ["audited: fair"] * rules.players


def test_a_match_game_deals_without_showing_a_trump() -> None:
    table = Table(Rules(players=3, match=True), 4, previous_durak=2)
    table.deal()
    assert table.dealers[0].shown_trump is None
    assert all(v.defender == 2 and v.attacker == 1 for v in table.views)
    assert all(not d.trump_answers for d in table.dealers)


def _parse(text: str) -> object:
    from durak_core import parse_action

    return parse_action(text)


# ---------------------------------------------------------------- cheaters


def _rewrite_pass(step: int, change) -> object:  # type: ignore[no-untyped-def]
    def tamper(sender: int, data: bytes) -> bytes:
        message = decode(data)
        if isinstance(message, Pass) and message.step == step and message.part == 0:
            return encode(Pass(message.step, 0, message.parts, change(list(message.points))))
        return data

    return tamper


def test_a_card_duplicated_in_the_shuffle_is_caught_at_once() -> None:
    table = Table(Rules(), 1, tamper=_rewrite_pass(1, lambda p: [p[0], p[0], *p[2:]]))
    fault = expect_fault(table.deal)
    assert (fault.seat, fault.code) == (1, "duplicate_card")
    assert fault.detail == "duplicated a card in deal step 1"


def test_a_card_replaced_in_the_shuffle_is_caught_and_the_audit_names_the_shuffler() -> None:
    # Seat 1 swaps a locked card for another card point of its own making.
    other = mental.mul(bytes([9]) + bytes(31), mental.card_point(51))
    table = Table(Rules(), 2, tamper=_rewrite_pass(1, lambda p: [other, *p[1:]]))
    try:
        table.deal()
        table.play_out(random.Random(2))
    except Exception as exc:  # a DealFault when the replaced card is opened
        assert type(exc).__name__ == "DealFault"
    table.publish_seeds()
    verdict = table.verdicts(["Alice", "Bob"], Stop(0, len(table.log), "bad key"))[0]
    assert verdict.culprit == 1 and verdict.code == "bad_pass"
    assert verdict.text.startswith("audit: Bob cheated: made deal step 1 with other keys")


def test_a_wrong_key_for_a_dealt_card_is_caught_and_the_audit_names_the_sender() -> None:
    def tamper(sender: int, data: bytes) -> bytes:
        message = decode(data)
        if sender == 1 and isinstance(message, Keys):
            keys = [bytes([3]) + bytes(31), *message.keys[1:]]
            return encode(Keys(message.positions, keys))
        return data

    table = Table(Rules(), 3, tamper=tamper)
    fault = expect_fault(table.deal)
    assert fault.code == "bad_key"
    table.tamper = None
    table.publish_seeds()
    verdict = table.verdicts(["Alice", "Bob"], Stop(0, 0, fault.detail))[0]
    assert (verdict.culprit, verdict.code) == (1, "bad_key")
    assert "Bob cheated: sent a wrong key for position" in verdict.detail


def test_playing_a_card_not_held_is_caught_at_once_with_the_card_it_really_was() -> None:
    table = Table(Rules(), 4)
    table.deal()
    truth = table.truth()
    attacker = truth.attacker
    mine = truth.hand(attacker)
    theirs = next(c for c in truth.hand(1 - attacker))
    # The attacker claims the opponent's card, opening one of its own positions.
    own = table.dealers[attacker].hidden_position(mine[0])
    assert own is not None
    key = mental.card_key(table.dealers[attacker].seed, own)
    checker = table.dealers[1 - attacker]
    fault = expect_fault(lambda: checker.check_reveal(attacker, theirs, Reveal(own, key)))
    assert (fault.seat, fault.code) == (attacker, "not_held")
    assert fault.detail == f"played {theirs}, a card it does not hold (position {own} is {mine[0]})"
    # A position of the other seat cannot be opened at all.
    their_pos = next(j for j, s in checker.owner.items() if s == 1 - attacker)
    fault = expect_fault(lambda: checker.check_reveal(attacker, theirs, Reveal(their_pos, key)))
    assert fault.code == "not_held"


def test_a_card_played_twice_from_one_position_is_refused() -> None:
    table = Table(Rules(), 5)
    table.deal()
    truth = table.truth()
    a = truth.attacker
    card = truth.hand(a)[0]
    reveal = table.dealers[a].reveal(card)
    assert reveal is not None
    table.dealers[1 - a].check_reveal(a, card, reveal)
    fault = expect_fault(lambda: table.dealers[1 - a].check_reveal(a, card, reveal))
    assert fault.code == "not_held"


def test_hiding_the_lowest_trump_is_found_by_the_audit() -> None:
    # Find a deal where the holder of the lowest trump is seat 1, then make seat 1 lie.
    for seed in range(40):
        honest = Table(Rules(), seed)
        honest.deal()
        if honest.truth().attacker == 1 and honest.dealers[0].shown_trump is not None:
            break
    else:  # pragma: no cover
        pytest.fail("no such deal")

    def tamper(sender: int, data: bytes) -> bytes:
        message = decode(data)
        if sender == 1 and isinstance(message, Trump) and message.position >= 0:
            return encode(Trump(message.round, -1))
        return data

    table = Table(Rules(), seed, tamper=tamper)
    table.dealers[1]._send = _lie_to_self(table.dealers[1])  # type: ignore[method-assign]
    table.deal()
    table.publish_seeds()
    verdict = table.verdicts(["Alice", "Bob"])[0]
    assert (verdict.culprit, verdict.code) == (1, "bad_trump")
    assert "Bob cheated: said it held no" in verdict.detail


def _lie_to_self(dealer):  # type: ignore[no-untyped-def]
    """A cheating dealer believes its own lie (so its state matches what it sent)."""
    real = dealer._send

    def send(message):  # type: ignore[no-untyped-def]
        if isinstance(message, Trump) and message.position >= 0:
            message = Trump(message.round, -1)
            dealer._decl.answers[message.round][dealer.seat] = message
        return real(message)

    return send


def test_a_seat_that_keeps_its_seed_is_named_as_refusing_the_audit() -> None:
    table = Table(Rules(), 6)
    table.deal()
    table.play_out(random.Random(6))
    table.publish_seeds(skip=(1,))
    verdict = table.verdicts(["Alice", "Bob"])[0]
    assert (verdict.culprit, verdict.code) == (1, "refused")
    assert verdict.text == "audit: Bob did not publish its keys for the audit"


def test_a_false_claim_of_cheating_is_itself_named() -> None:
    table = Table(Rules(), 7)
    table.deal()
    table.play(table.views[table.truth().attacker].legal_actions(table.truth().attacker)[0])
    table.publish_seeds()
    verdict = table.verdicts(["Alice", "Bob"], Stop(1, 1, "I do not like my cards"))[0]
    assert (verdict.culprit, verdict.code) == (1, "false_claim")
    assert "Bob stopped the game (I do not like my cards), but the audit finds no fault" in (
        verdict.detail
    )


def test_messages_from_the_wrong_seat_or_malformed_are_faults_not_crashes() -> None:
    table = Table(Rules(), 8)
    dealer = table.dealers[0]
    dealer.begin()
    for data, sender in [
        (b"\x00garbage", 1),
        (encode(Pass(0, 0, 2, [mental.card_point(0)] * 20)), 1),  # step 0 is seat 0's
        (encode(Keys([0, 1], [bytes(32)])), 1),
    ]:
        fault = expect_fault(lambda d=data, s=sender: dealer.receive(d, s))  # type: ignore[misc]
        assert fault.seat == 1 and fault.code == "protocol"


def test_an_attack_card_known_to_all_needs_no_reveal() -> None:
    # After a take, the picked-up cards are public: playing one opens nothing.
    for seed in range(30):
        table = Table(Rules(), seed)
        table.deal()
        a = table.views[0].attacker
        d = 1 - a
        card = table.truth().hand(a)[0]
        table.play(Attack(a, card))
        take = next(x for x in table.views[d].legal_actions(d) if str(x).endswith("take"))
        table.play(take)
        while not table.views[0].bouts:
            _, action = next(
                (s, x) for s in (0, 1) for x in table.views[s].legal_actions(s)
            )
            table.play(action)
        if card in table.views[a].known_cards(d):
            assert table.dealers[d].hidden_position(card) is None
            assert table.dealers[d].reveal(card) is None
            return
    pytest.fail("no take in 30 deals")  # pragma: no cover


def test_card_keys_stay_in_the_deck_range() -> None:
    with pytest.raises(ValueError):
        mental.card_point(52)
    assert isinstance(Card.parse("6s"), Card)
