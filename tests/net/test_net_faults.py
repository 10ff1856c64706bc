"""Faults are signed by the seat that found them, and no cheater can get an honest seat
named: a forged Fault names the seat that passed it on.

At a table every seat hears the others through the host.  A host that makes up a Fault
"found by seat 2" (naming seat 1) cannot sign it for seat 2: seat 1 sees the signature
fail, seat 2 sees a fault in its own name it never sent; both name the host.  A claim a
seat cannot check (one seat says another cheated; its own audit finds nothing) names
nobody; only the accused, which knows it did not cheat, names the claimant.
"""

from __future__ import annotations

from durak_core import Rules
from durak_net import events as ev
from durak_net.proposals import evidence
from durak_net.session import fault_signed
from durak_net.wire import Fault, Order, Refused

from .helpers import propose
from .tables import Table, host_altering_seat2s_keys, make_table


def _verdicts(table: Table, seat: int) -> list[ev.GameAudited]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.GameAudited)]


def _all_audited(table: Table) -> bool:
    return all(_verdicts(table, s) for s in range(len(table.seats)))


def _dealt(seed: int, players: int) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), bots=False)
    assert table.net.run(lambda: all(s.session.game is not None for s in table.seats),
                         limit=30.0)
    return table


def _forge(table: Table, culprit: int, by: int) -> None:
    """The host tells every seat but ``by`` that ``by`` found ``culprit`` cheating (it
    cannot sign for ``by``: a signature of its own, or none), and tells ``by`` the same
    in its own name."""
    host, now = table.host, table.net.now
    fault = Fault(0, 1, len(host.log), culprit, "not_held", "played a card it does not hold",
                  by, host.identity.sign(*fault_signed(host.table, 1, len(host.log), culprit,
                                                       "not_held", "x", by)))
    for link in host.links.values():
        link.push(fault, now)


def _no_honest_seat_named(table: Table, honest: range | tuple[int, ...]) -> None:
    for seat in honest:
        for verdict in _verdicts(table, seat):
            assert verdict.culprit not in honest, (seat, verdict)


def test_a_host_that_forges_a_fault_in_a_seats_name_is_named_by_every_seat() -> None:
    for players in (3, 4):
        table = _dealt(90 + players, players)
        _forge(table, culprit=1, by=players - 1)
        assert table.net.run(lambda t=table: _all_audited(t), limit=120.0)
        for seat in range(1, players):
            (verdict,) = _verdicts(table, seat)
            assert (verdict.code, verdict.culprit) == ("forged", 0), (seat, verdict)
        stopped = [e for e in table.seats[players - 1].events if isinstance(e, ev.GameStopped)]
        assert "a fault in our name that we never sent" in stopped[0].detail
        _no_honest_seat_named(table, range(1, players))


def test_at_a_table_of_two_a_fault_in_the_players_name_names_the_host() -> None:
    table = _dealt(95, 2)
    _forge(table, culprit=0, by=1)
    assert table.net.run(lambda: bool(_verdicts(table, 1)), limit=60.0)
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("forged", 0)


def test_a_host_that_alters_a_seats_deal_message_gets_no_honest_seat_named() -> None:
    table, forged = host_altering_seat2s_keys(23, Rules(players=3, deck_size=36))
    net = table.net
    assert net.run(lambda: _all_audited(table), limit=60.0) and forged
    # Seat 1 checks seat 2's signature before naming it: the host altered the message.
    stopped = next(e for e in table.seats[1].events if isinstance(e, ev.GameStopped))
    assert stopped.culprit == 0
    assert _verdicts(table, 1)[0].culprit == 0
    # Seat 2 cannot check what seat 1 was shown: it names nobody (never seat 1).
    assert _verdicts(table, 2)[0].culprit in (0, None)
    _no_honest_seat_named(table, (1, 2))


def test_a_seat_that_falsely_accuses_another_is_named_by_the_accused_only() -> None:
    table = _dealt(97, 3)
    liar = table.seats[1].session
    # Seat 1 signs a claim that seat 2 played a card it does not hold (with the code an
    # honest seat stops a game with: signed, sent, its seed published).
    liar._stop(1, 2, "not_held", "played a card it does not hold", table.net.now)
    assert table.net.run(lambda: _all_audited(table), limit=60.0)
    accused = _verdicts(table, 2)[0]
    assert (accused.code, accused.culprit) == ("false_claim", 1)
    host = _verdicts(table, 0)[0]
    assert (host.code, host.culprit) == ("disputed", None)
    _no_honest_seat_named(table, (0, 2))


def test_a_fault_a_seat_signs_wrongly_is_its_own() -> None:
    table = _dealt(98, 3)
    seat1 = table.seats[1].session
    seat1.links[0].push(Fault(0, 1, 0, 2, "not_held", "x", 1, bytes(64)), table.net.now)
    assert table.net.run(lambda: _all_audited(table), limit=60.0)
    for seat in (0, 2):
        verdict = _verdicts(table, seat)[0]
        assert verdict.culprit in (1, None), verdict
    assert (_verdicts(table, 0)[0].code, _verdicts(table, 0)[0].culprit) == ("forged", 1)


def test_a_seat_that_accuses_the_host_with_made_up_evidence_gets_no_honest_seat_named(
) -> None:
    """A Fault against the host may carry evidence (the host's signed Order and Refused
    of a proposal), which every seat checks itself.  A seat that makes up the host's
    part (it cannot sign for the host) convinces nobody: the others name nobody, and the
    host, which knows it did not, names the liar; at 3 and 4 seats."""
    for players in (3, 4):
        table = _dealt(95 + players, players)
        liar = table.seats[1].session
        commitment, _ = propose(liar, 1, "1 take")
        order = Order(0, 1, 1, commitment.seen, bytes(64))  # not the host's signature
        refusal = Refused(0, 1, "", commitment.seen, liar.identity.sign(b"x"))
        liar._stop(1, 0, "bad_refusal", "refused our move take after placing it",
                   table.net.now, proof=evidence(commitment, order, refusal))
        assert table.net.run(lambda t=table: _all_audited(t), limit=60.0)
        host = _verdicts(table, 0)[0]
        assert (host.code, host.culprit) == ("false_claim", 1)
        for seat in range(2, players):
            verdict = _verdicts(table, seat)[0]
            assert (verdict.code, verdict.culprit) == ("disputed", None), verdict
        _no_honest_seat_named(table, (0, *range(2, players)))
