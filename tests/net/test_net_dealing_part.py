"""The deal part on its own (no session, no network): each game's dealer and signed
messages, which deal messages are taken, when the next game is asked for and dealt, the
hands open to every seat, and the checks of the cards a move opens."""

from __future__ import annotations

import random

import pytest

from durak_core import Attack, Pass, Rules
from durak_net.dealing import Dealing, action_cards, could_hold
from durak_net.identity import Identity, verify
from durak_net.outcomes import deal_signed
from durak_net.wire import Deal

TABLE = 0xDEA1
RULES = Rules(players=2, deck_size=36)


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


IDS = [_identity(1), _identity(2), _identity(3)]
KEYS = [i.public for i in IDS]


def _parts(players: int = 2, seed: int = 5) -> list[Dealing]:
    rng = random.Random(seed)
    return [Dealing(TABLE, s, players, 36, IDS[s], rng.randbytes) for s in range(players)]


def _deal(parts: list[Dealing], number: int = 1) -> None:
    """Every seat's messages of game ``number`` reach every other seat (in memory)."""
    keys = KEYS[:len(parts)]
    queue = [f for p in parts for f in p.sign(number, p.make(number, None, keys).begin())]
    while queue:
        frame = queue.pop(0)
        for part in parts:
            if part.seat != frame.seat:
                part.keep(frame)
                queue += part.sign(number, part.dealers[number].receive(frame.data, frame.seat))


def test_our_deal_messages_are_signed_as_ours_and_kept_to_resend() -> None:
    host, ben = _parts()
    frames = host.sign(1, host.make(1, None, KEYS[:2]).begin())
    assert frames and all(f.seat == 0 and f.game == 1 for f in frames)
    assert all(verify(KEYS[0], f.sig, *deal_signed(TABLE, 1, 0, f.data)) for f in frames)
    assert host.deal_log[1] == frames
    assert ben.resend(1, peer=0) == []  # (nothing of ours yet)
    assert host.resend(1, peer=1) == frames and host.resend(1, peer=0) == []


def test_the_host_resends_everybodys_messages_but_the_restarted_seats_own() -> None:
    parts = _parts(3)
    _deal(parts)
    host, ben, _ = parts
    assert {f.seat for f in host.resend(1, peer=1)} == {0, 2}
    assert {f.seat for f in ben.resend(1, peer=0)} == {1}  # a seated player: its own


def test_a_deal_message_as_another_seat_unsigned_or_for_another_game_is_a_violation() -> None:
    host, ben = _parts()
    data = ben.make(1, None, KEYS[:2]).begin()[0]
    good = ben.sign(1, [data])[0]
    assert host.check(good, link_seat=1, game_no=0, keys=KEYS[:2]) is None

    def code(frame: Deal, link_seat: int = 1, game_no: int = 0) -> str:
        note = host.check(frame, link_seat=link_seat, game_no=game_no, keys=KEYS[:2])
        assert note is not None
        return note.code

    assert code(good, link_seat=2) == "deal_as_other"
    assert code(Deal(0, 1, 0, data, good.sig), link_seat=0) == "deal_bad_author"
    assert code(Deal(0, 3, 1, data, good.sig)) == "deal_wrong_game"
    assert code(Deal(0, 1, 1, data + b"x", good.sig)) == "deal_unsigned"
    # A seated player keeps a signature it cannot check (it came through the host).
    assert ben.check(Deal(0, 1, 0, data, bytes(64)), link_seat=0, game_no=0,
                     keys=KEYS[:2]) is None


def test_a_message_of_an_old_game_we_never_dealt_is_stale() -> None:
    (host, _) = _parts()
    assert host.stale(1, game_no=2)
    host.make(1, None, KEYS[:2])
    assert not host.stale(1, game_no=2) and not host.stale(3, game_no=2)


def test_the_next_game_is_asked_for_once_and_dealt_when_done_and_not_stopped() -> None:
    parts = _parts()
    host, ben = parts
    keys = KEYS[:2]
    host_msgs = host.sign(1, host.make(1, None, keys).begin())
    ben.make(1, None, keys)
    for frame in host_msgs:
        ben.keep(frame)
        ben.sign(1, ben.dealers[1].receive(frame.data, 0))
    assert ben.request(game_no=0, in_game=True) is None  # not while a game is in play
    assert ben.request(game_no=0, in_game=False) == 1
    assert ben.request(game_no=0, in_game=False) is None  # told once
    assert ben.ready(1, 0, stopped=False, ending=False) is None  # not agreed yet
    dealt = _parts()
    _deal(dealt)
    part = dealt[1]
    assert part.ready(1, 0, stopped=False, ending=False) is part.dealers[1]
    assert part.ready(1, 1, stopped=False, ending=False) is None  # already ours
    assert part.ready(1, 0, stopped=True, ending=False) is None
    assert part.ready(1, 0, stopped=False, ending=True) is None
    assert part.ready(2, 0, stopped=False, ending=False) is None  # no dealer


def test_a_match_game_dealer_knows_the_previous_durak_and_a_big_table_gets_escrow() -> None:
    (host, _) = _parts()
    assert host.context(2, 1, KEYS[:2]).previous_durak == 1
    assert host.context(2, None, KEYS[:2]).box_public == ()  # a table of two: no escrow
    big = _parts(3)[0]
    assert len(big.context(1, None, KEYS).box_public) == 3
    assert big.context(1, None, [KEYS[0], b"", KEYS[2]]).box_public == ()  # a key missing


def test_the_cards_a_move_opens_are_checked_against_our_view() -> None:
    parts = _parts()
    _deal(parts)
    views = [p.dealers[1].deal(RULES) for p in parts]
    attacker = views[0].attacker
    mover, other = parts[attacker], parts[1 - attacker]
    card = sorted(views[attacker].hand(attacker), key=lambda c: c.index)[0]
    action = Attack(attacker, card)
    assert action_cards(action) == [card] and action_cards(Pass(attacker)) == []
    reveal = mover.dealers[1].reveal(card)
    assert reveal is not None
    pair = [(reveal.position, reveal.key)]
    dealer, view = other.dealers[1], views[1 - attacker]
    assert could_hold(view, attacker, card)
    assert other.reveal_fault(dealer, view, attacker, action, pair, commit=False) is None
    fault = other.reveal_fault(dealer, view, attacker, action, [], commit=False)
    assert fault is not None and fault.code == "not_held"
    more = other.reveal_fault(dealer, view, attacker, action, pair * 2, commit=False)
    assert more is not None and more.code == "protocol"
    mine = sorted(view.hand(1 - attacker), key=lambda c: c.index)[0]
    assert not could_hold(view, attacker, mine)
    held = other.reveal_fault(dealer, view, attacker, Attack(attacker, mine), pair, False)
    assert held is not None and held.note is not None and held.note.code == "cannot_hold"
    assert card not in other.open_to_all(dealer, view, attacker)
    other.commit_reveals(dealer, view, attacker, action, pair)
    view.reveal(attacker, [card])
    assert card in other.open_to_all(dealer, view, attacker)


def test_no_hand_is_open_to_all_until_a_seat_is_handed_to_a_bot() -> None:
    parts = _parts()
    _deal(parts)
    view = parts[0].dealers[1].deal(RULES)
    assert list(parts[0].open_hands(1, view)) == []
    assert list(parts[0].open_hands(2, view)) == []  # no such game


def test_a_forged_deal_message_is_the_hosts_when_the_audit_asks() -> None:
    host, ben = _parts()
    data = host.make(1, None, KEYS[:2]).begin()[0]
    ben.keep(Deal(0, 1, 0, data, bytes(64)))  # "the host's", signed by nobody
    assert ben.forged_for(1, 0, KEYS[0], [])
    assert not ben.forged_for(1, 1, KEYS[1], [])



def test_a_journal_replays_a_games_dealer_from_its_seed_once() -> None:
    host, _ = _parts()
    dealer = host.make(1, None, KEYS[:2])
    again = _parts()[0]
    replayed = again.replay_dealer(1, None, KEYS[:2], dealer.seed)
    assert replayed.seed == dealer.seed and again.dealers[1] is replayed
    assert replayed.begin() == dealer.begin()  # the same messages from the same seed
    with pytest.raises(ValueError, match="game 1 has two dealers"):
        again.replay_dealer(1, None, KEYS[:2], dealer.seed)
