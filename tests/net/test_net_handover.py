"""A seat whose peer vanishes: after the grace period a bot finishes its game, and the
player who comes back takes the seat again.

In simulated time over the in-memory link: a table of four with bots at every seat;
seat 2's peer disappears from the network mid-game.  The host waits the grace period,
hands the seat to a bot of its own: every other seat publishes its share of seat 2's
seed (the escrow made at the deal), so seat 2's hand opens to all alike, and the host's
bot plays it ("bot" entries).  Nothing is lost and the log stays one log; every audit
is fair.  Then the same with the player returning from its journal mid-game.
"""

from __future__ import annotations

from durak_core import Rules, Take, parse_action
from durak_core.bots import RandomBot
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.dealer import Share, decode, encode
from durak_net.node import LanNode
from durak_net.presence import MIN_ABANDON
from durak_net.session import Session, action_cards

from .helpers import FAST
from .tables import Table, make_table, seat_addr

RULES = Rules(players=4, deck_size=36)
GRACE = 20


def _lost_mid_game(seed: int, moves: int = 8, clock: int = 0) -> Table:
    table = make_table(seed, RULES, grace=GRACE, clock=clock)
    net = table.net
    assert net.run(lambda: len(table.host.log) >= moves, limit=60.0)
    net.remove(seat_addr(2))  # seat 2's kernel is gone
    return table


def test_a_seat_lost_for_the_grace_period_is_played_by_a_bot_to_the_end() -> None:
    # With a move clock too: until the hand-over, the clock takes or passes for it.
    table = _lost_mid_game(41, clock=5)
    net, host = table.net, table.host
    vanished_at = host.links[2].last_recv  # (the grace counts from the last word heard)
    # Before the hand-over nobody can open seat 2's cards: each holds one share.
    assert net.run(lambda: 2 in host.seat_state, limit=30.0)
    assert host.seat_state[2] == "lost" and not host.bots
    for s in (0, 1, 3):
        dealer = table.seats[s].session.dealer
        assert dealer.hand_of(2) == [] and 2 not in dealer.adopted
    assert net.run(lambda: bool(host.bots), limit=60.0)
    assert GRACE <= net.now - vanished_at < GRACE + FAST.lost_after + 1
    others = [table.seats[s] for s in (0, 1, 3)]
    assert net.run(lambda: all(s.audited for s in others), limit=600.0), \
        f"stalled at {net.now:.0f} s"
    log = host.logs[1]
    bot_moves = [e for e in log if e.forced == "bot"]
    assert bot_moves and all(e.action.startswith("2 ") for e in bot_moves)
    assert not [e for s in others for e in s.bad()]
    for s in others:
        assert s.session.logs[1] == log
        assert s.audited[0].fair and s.audited[0].state_hash == others[0].audited[0].state_hash
        # Everyone saw seat 2's hand alike once it went to the bot.
        assert s.session.seat_state.get(2) == "bot"
        assert 2 in s.session.dealer.adopted
    status = [e for e in table.seats[1].events if isinstance(e, ev.SeatStatus)]
    assert [e.state for e in status if e.seat == 2][:2] == ["lost", "bot"]


def test_the_player_back_from_its_journal_takes_the_seat_at_the_next_move() -> None:
    table = _lost_mid_game(42)
    net, host = table.net, table.host
    assert net.run(lambda: bool(host.bots), limit=120.0)
    assert net.run(lambda: any(e.forced == "bot" for e in host.log), limit=net.now + 60.0)
    bot_entries = sum(e.forced == "bot" for e in host.log)
    # Seat 2's kernel restarts and resumes from its journal (written before anything
    # it sent), on the same address.
    back = table.restart(2)
    assert net.run(lambda: 2 not in host.bots, limit=net.now + 30.0)
    assert net.run(table.done, limit=net.now + 600.0), f"stalled at {net.now:.0f} s"
    log = table.fair_log()
    after = log[[i for i, e in enumerate(log) if e.forced == "bot"][-1] + 1:]
    assert sum(e.forced == "bot" for e in log) >= bot_entries
    # From its return on, seat 2 plays its own moves again (signed proposals).
    mine = [e for e in after if e.action.startswith("2 ")]
    assert mine and all(e.pid and len(e.sig) == 64 for e in mine if e.forced != "timeout")
    assert not table.bad()
    assert back.dealer.adopted.get(2) == back.dealer.seed  # the others opened its seed


def test_a_seat_that_publishes_a_false_share_is_named() -> None:
    table = _lost_mid_game(43)
    net = table.net
    link = table.seats[3].session.links[0]
    honest = link.push
    lied: list[bool] = []

    def push(frame, now):  # type: ignore[no-untyped-def]
        from durak_net.session import deal_signed
        from durak_net.wire import Deal

        if isinstance(frame, Deal) and frame.seat == 3 and isinstance(decode(frame.data), Share):
            message = decode(frame.data)
            data = encode(Share(message.seat, bytes(32)))
            me = table.seats[3].session
            frame = Deal(frame.seq, frame.game, 3, data,
                         me.identity.sign(*deal_signed(me.table, frame.game, 3, data)))
            lied.append(True)
        honest(frame, now)

    link.push = push  # type: ignore[method-assign]
    stopped = [table.seats[s] for s in (0, 1)]
    assert net.run(lambda: all(any(isinstance(e, ev.GameStopped) for e in s.events)
                               for s in stopped), limit=600.0)
    assert lied
    for s in stopped:
        stop = next(e for e in s.events if isinstance(e, ev.GameStopped))
        assert stop.culprit == 3 and "share" in stop.detail
    # Seat 2's seed could not be rebuilt, and seat 2 has been silent for longer than the
    # grace period: the game is settled without it, on the evidence each seat saw.
    assert net.run(lambda: all(s.audited for s in stopped), limit=net.now + 120.0)
    for s in stopped:
        verdict = s.audited[0]
        assert not verdict.fair and verdict.culprit == 3 and verdict.code == "bad_share", verdict


def test_a_table_of_two_has_no_escrow_and_its_lost_player_forfeits_after_the_grace_period(
) -> None:
    """No hand-over to the other player (the only other seat): the game waits the
    grace period for its player, then ends abandoned, the lost hand never opened."""
    table = make_table(44, Rules(players=2), grace=5)
    net, host = table.net, table.host
    assert net.run(lambda: len(host.log) >= 4, limit=60.0)
    assert not host.dealer.escrows
    net.remove(seat_addr(1))
    gone = net.now
    assert net.run(lambda: host.seat_state.get(1) == "lost", limit=gone + 5.0)
    assert not host.bots and host.in_game
    assert net.run(lambda: not host.in_game, limit=gone + MIN_ABANDON + 1.0)
    # Not before MIN_ABANDON (its grace, 5 s, is shorter): it waited for its player.
    assert net.now - gone >= MIN_ABANDON
    assert net.run(lambda: bool(table.seats[0].audited), limit=gone + MIN_ABANDON + 1.0)
    verdict = table.seats[0].audited[0]
    assert (verdict.code, verdict.culprit) == ("abandoned", 1) and not host.bots
    assert host.dealer.hand_of(1) == []


def test_a_move_chosen_on_the_view_before_the_bot_played_for_the_seat_is_refused_not_blamed(
) -> None:
    """A player back from its journal sees the game as it left it until the host's
    entries arrive, and may choose a move on that view at once (a notebook's bot does):
    here, a card that the host's bot has played for it meanwhile.  The proposal names
    the log it was made on; the host refuses it as stale instead of stopping the game
    and naming the seat for playing a card it does not hold (it did not cheat), and the
    game goes on to a fair audit."""
    table = make_table(54, RULES, grace=GRACE, idle=(2,))  # seat 2 moves only when told
    net, host = table.net, table.host
    seat = table.seats[2]
    away = seat.session

    def seat_2_must_play_a_card() -> bool:
        game = away.game
        return (game is not None and away.in_game and not away.waiting_for_cards
                and any(action_cards(a) for a in game.legal_actions(2)))

    assert net.run(seat_2_must_play_a_card, limit=60.0)  # the table waits for it
    seat.collect()  # its journal, up to date
    assert away.game is not None
    stale = set(away.game.hand(2))
    net.remove(seat_addr(2))  # seat 2's kernel is gone; its journal stays

    def bot_played_a_card_of_that_hand() -> bool:
        return any(e.forced == "bot" and set(action_cards(parse_action(e.action))) & stale
                   for e in host.log)

    assert net.run(bot_played_a_card_of_that_hand, limit=net.now + 120.0)
    gone = {c for e in host.log if e.forced == "bot"
            for c in action_cards(parse_action(e.action))} & stale
    back = table.restart(2)
    # Before the host's entries arrive, the restored view still holds those cards.
    assert back.game is not None and gone <= set(back.game.hand(2))
    move = next((a for a in back.game.legal_actions(2) if set(action_cards(a)) & gone), None)
    assert move is not None, "the seed no longer gives a stale move with a card played"
    back.act(move, net.now)  # proposed on the log it has: the bot's moves not in it
    seat.driver = BotDriver(RandomBot(452))  # then it plays on by itself
    done = net.run(table.done, limit=net.now + 600.0)
    assert not table.bad(), table.bad()
    assert done, f"stalled at {net.now:.0f} s"
    refused = [e for e in seat.events if isinstance(e, ev.ActionRefused)]
    assert [e.action for e in refused][:1] == [move]
    assert "bot" in refused[0].reason
    log = table.fair_log()
    assert str(move) not in [e.action for e in log if e.pid]  # (only the bot's entry)


class _BeatsButLeavesTheTake(BotDriver):
    """The host's stand-in for a seat in the next test: it beats when it can, and when
    the seat can only take it is still thinking (its player is back before it takes)."""

    def choose(self, session):  # type: ignore[no-untyped-def]
        game = session.game
        if game is not None and session.in_game and not session.waiting_for_cards:
            legal = game.legal_actions(session.seat)
            if Take(session.seat) in legal:
                return next((a for a in legal if not isinstance(a, Take)), None)
        return super().choose(session)


def test_a_move_refused_as_stale_is_not_held_against_the_seat_in_the_state_after_it() -> None:
    """Seat 2's kernel dies while it must defend; the host's bot beats for it until the
    bout leaves seat 2 nothing but to take, and the table waits for it alone.  Its player
    comes back from its journal and, on the view it left, takes the first card.  The
    host refuses that take as stale (made before the bot's entries), and the refusal
    arrives after those entries.  It is about the log the take was made on: in the state
    now, the same take is legal, and seat 2's only move.  Held as "refused" there, the
    seat (a notebook's bot, the session's own check) never took, and the table waited
    for it for ever; the take is proposed again and the game goes on to a fair audit."""
    table = make_table(6, Rules(players=3), grace=GRACE, idle=(2,))  # seat 2: when told
    net, host = table.net, table.host
    seat = table.seats[2]
    away = seat.session

    def seat_2_must_defend() -> bool:
        game = away.game
        return (game is not None and away.in_game and not away.waiting_for_cards
                and Take(2) in game.legal_actions(2) and len(game.legal_actions(2)) > 1)

    assert net.run(seat_2_must_defend, limit=60.0)
    seat.collect()  # its journal, up to date
    left_at = len(away.log)
    net.remove(seat_addr(2))  # seat 2's kernel is gone; its journal stays
    table.stand_ins[2] = _BeatsButLeavesTheTake(RandomBot(6))

    def only_seat_2_can_move_and_only_take() -> bool:
        game = host.game
        if game is None or 2 not in host.bots or game.unknown_count(2):
            return False
        others = [table.seats[s].session for s in (0, 1)]
        return (any(e.forced == "bot" for e in host.log[left_at:])
                and game.legal_actions(2) == [Take(2)]
                and all(len(o.log) == len(host.log) and not o.pending
                        and not o.game.legal_actions(o.seat) for o in others))

    assert net.run(only_seat_2_can_move_and_only_take, limit=net.now + 300.0), \
        "the seed no longer leads to a bout that seat 2 can only take"
    back = table.restart(2)
    assert len(back.log) == left_at and Take(2) in back.game.legal_actions(2)
    back.act(Take(2), net.now)  # on the view it left: the bot's entries not in it
    assert net.run(lambda: not back.pending, limit=net.now + 30.0)
    refused = [e for e in seat.events if isinstance(e, ev.ActionRefused)]
    assert [e.action for e in refused] == [Take(2)] and "bot" in refused[0].reason
    # The refusal came after the host's entries: the take is seat 2's only move now.
    assert len(back.log) == len(host.log) > left_at
    assert back.game.legal_actions(2) == [Take(2)]
    assert back.refused == {} and LanNode._make_view(back).refused == {}  # what bots read
    seat.collect()  # and so after another restart, from the journal that records it
    assert Session.restore(seat.journal, net.now, config=FAST).refused == {}
    seat.driver = BotDriver(RandomBot(452))  # seat 2 plays on by itself
    done = net.run(table.done, limit=net.now + 600.0)
    assert not table.bad(), table.bad()
    assert done, f"stalled at {net.now:.0f} s"
    log = table.fair_log()
    assert any(e.action == "2 take" and e.pid for e in log[left_at:])  # its own take
