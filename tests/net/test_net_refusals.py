"""Refusals every seat can check: the host may refuse only a proposal the table has
moved past.

A refusal says the length of the host's log when it was made (``at``).  The entries
that moved the log on travel before the refusal on the same ordered stream, so the
proposer checks it at once: a refusal of a move made on the host's own log (legal in
the proposer's view, signed by it), or one that claims entries never sent, is a fault
of the host, named by the proposer at the first one.  So a host cannot refuse every
defence to force takes, nor read the proposals it refuses one after another.
"""

from __future__ import annotations

from durak_core import Rules, parse_action
from durak_net import events as ev
from durak_net.session import Session, action_cards
from durak_net.wire import Propose

from .secrets_scan import hidden_positions, opened_by, pickled_candidates
from .tables import Table, make_table


class _RefusingHost(Session):
    """A host that refuses every proposal of ``victim`` and looks, each time, at what
    its own memory then opens of the victim's hidden cards."""

    victim = 1
    looks: list[tuple[str, dict[int, int]]]

    def _on_propose(self, link, frame: Propose, now: float) -> None:  # type: ignore[no-untyped-def]
        if link.peer_seat != self.victim:
            super()._on_propose(link, frame, now)
            return
        self._refuse(link, frame.pid, frame.action, "not now", now)
        dealer = self.dealer
        assert dealer is not None
        hidden = hidden_positions(dealer, self.victim)
        self.looks.append((frame.action, opened_by(dealer, hidden, pickled_candidates(self))))


def _refusing_table(seed: int, players: int) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), start=False)
    host = table.host
    host.__class__ = _RefusingHost
    host.looks = []  # type: ignore[attr-defined]
    assert table.net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    host.start(table.net.now)
    assert table.net.run(lambda: all(s.audited for s in table.seats), limit=300.0)
    return table


def test_a_host_that_refuses_every_move_of_a_seat_is_named_by_it_at_the_first() -> None:
    for players in (2, 3):
        table = _refusing_table(60 + players, players)
        host = table.host
        assert len(host.looks) == 1  # one refusal, then the game stops
        (stopped,) = [e for e in table.seats[1].events if isinstance(e, ev.GameStopped)]
        assert stopped.culprit == 0 and "made on its own log" in stopped.detail
        assert (table.seats[1].audited[0].code, table.seats[1].audited[0].culprit) == (
            "bad_refusal", 0)
        for seat in range(2, players):  # a bystander cannot check: it names nobody
            verdict = table.seats[seat].audited[0]
            assert verdict.culprit is None and verdict.code == "disputed", verdict
        assert not [e for e in table.seats[1].events if isinstance(e, ev.ActionRefused)]


def test_a_refusing_host_learns_no_card_but_those_of_the_one_move_it_refused() -> None:
    for seed in (71, 72, 73):
        table = _refusing_table(seed, 2)
        ((action, opened),) = table.host.looks  # type: ignore[attr-defined]
        # Its memory opens no hidden card of seat 1 beyond the one proposal (the move
        # names its cards; commit-first proposals that hide them are future work).
        assert len(opened) <= len(action_cards(parse_action(action)))
