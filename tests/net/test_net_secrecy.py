"""No peer can see a card it does not hold: an attacker's look through one peer's memory
(a pickle of its whole session, or its whole process) finds no way to open the other
seat's hidden cards, at any point of a game.  The same look does find the cards the
memory may open (its own), so the search is real.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

from durak_core import IllegalAction, Rules
from durak_net import LanNode
from durak_net.botplay import BotDriver, build_bot

from .helpers import FAST, make_pair
from .secrets_scan import (
    candidates_in,
    hidden_positions,
    opened_by,
    opened_own_positions,
    pickled_candidates,
    strings_in_memory,
)


def test_a_pickle_of_a_whole_session_opens_none_of_the_other_seats_hidden_cards() -> None:
    checked = 0
    for seed, rules in ((1, Rules()), (2, Rules(deck_size=52, variant="perevodnoy"))):
        pair = make_pair(seed, rules=rules, loss=0.2, config=FAST)
        for moves in (0, 15, 40):  # after the deal, mid-game, after several draws
            pair.net.run(lambda m=moves, p=pair: p.seq.session.game is not None
                         and p.fol.session.game is not None
                         and len(p.fol.session.log) >= m, limit=120.0)
            if not pair.seq.session.in_game:
                break
            for side, other in ((pair.fol, 0), (pair.seq, 1)):
                session = side.session
                dealer = session.dealer
                assert dealer is not None
                keys = pickled_candidates(session)
                hidden = hidden_positions(dealer, other)
                assert hidden and len(keys) > 10
                assert opened_by(dealer, hidden, keys) == {}, (seed, moves, side)
                # The view holds nothing of them either.
                truth = {pair_dealer_card(pair, j) for j in hidden}
                assert not truth & set(session.game.hand(other))
                checked += 1
                # The control: the same search opens our own hidden cards (their keys
                # are ours to hold), so finding nothing above means something.
                mine = opened_own_positions(dealer)[:3]
                assert mine
                assert sorted(opened_by(dealer, mine, keys)) == mine
    assert checked >= 8


def test_at_a_table_of_four_the_host_holds_no_key_to_another_seats_hidden_cards() -> None:
    """The host passes every message on and holds a share of every seat's seed in
    escrow: still nothing in its memory opens another seat's hidden card."""
    from .tables import make_table

    table = make_table(5, Rules(players=4, deck_size=36), loss=0.1)
    host = table.host
    checked = 0
    for moves in (0, 12, 30):
        table.net.run(lambda m=moves: host.game is not None and len(host.log) >= m,
                      limit=table.net.now + 120.0)
        if not host.in_game:
            break
        dealer = host.dealer
        assert dealer is not None and len(dealer.escrows) == 3
        keys = pickled_candidates(host)
        assert len(keys) > 30
        for other in (1, 2, 3):
            hidden = hidden_positions(dealer, other)
            assert hidden
            assert opened_by(dealer, hidden, keys) == {}, (moves, other)
            checked += 1
        mine = opened_own_positions(dealer)[:3]
        assert mine and sorted(opened_by(dealer, mine, keys)) == mine  # the control
    assert checked >= 6


def pair_dealer_card(pair, position: int):  # type: ignore[no-untyped-def]
    """The card at a position, from both seeds (the test knows both sides)."""
    from durak_net import mental

    seq, fol = pair.seq.session.dealer, pair.fol.session.dealer
    keys = [mental.card_key(seq.seed, position), mental.card_key(fol.seed, position)]
    index = mental.open_card(seq.locked[position], keys)
    return next(c for c in seq.cards if c.index == index)


def test_a_process_finds_no_key_to_the_other_seats_cards_in_its_own_memory() -> None:
    """Alice plays in this process, Bob in another (`durak-lan`); mid-game, this process
    searches every string it holds for a key to Bob's hidden cards."""
    alice = LanNode("Alice", port=0, host="127.0.0.1", journal_dir=None)
    bob = subprocess.Popen(
        [sys.executable, "-m", "durak_net", "--name", "Bob", "--port", "0", "--connect",
         f"127.0.0.1:{alice.game_port}", "--bot", "random", "--seed", "2", "--auto-accept",
         "--timeout", "60"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        driver = BotDriver(build_bot("random", seed=1))
        sid = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if sid is None and alice.find_peer("Bob") is not None:
                sid = alice.invite("Bob")
            view = alice.view(sid) if sid is not None else None
            if view is not None and view.game is not None and len(view.game.log) >= 20:
                break
            action = driver.choose(view)
            if action is not None and sid is not None:
                with contextlib.suppress(IllegalAction):  # the game moved on: try again
                    alice.act(sid, action)
            time.sleep(0.001)
        else:
            raise AssertionError("no game with Bob in time")
        alice.close()  # freeze: nothing more arrives while we look
        session = next(iter(alice.sessions.values()))
        dealer = session.dealer
        assert dealer is not None and session.in_game
        keys = candidates_in(strings_in_memory())
        hidden = hidden_positions(dealer, 1)
        assert hidden and len(keys) > 20
        assert opened_by(dealer, hidden, keys) == {}
        # The control: this process does hold the keys of Alice's own cards.
        mine = opened_own_positions(dealer)[:3]
        assert mine and sorted(opened_by(dealer, mine, keys)) == mine
    finally:
        alice.close()
        bob.kill()
        bob.communicate(timeout=10)
