"""The audit-and-faults part on its own (no session, no network): a Fault counts only
signed by its finder, its evidence is checked by each seat, and the audit's verdict is
weighed against what only the signed messages tell."""

from __future__ import annotations

import random

from durak_net.audit import Stop, Verdict
from durak_net.gamelog import LogEntry
from durak_net.identity import Identity
from durak_net.notes import Note
from durak_net.outcomes import HOST, Outcomes, deal_signed, fault_signed, forged_for
from durak_net.proposals import (
    evidence,
    proposal_commit,
    proposal_signed,
    refused_signed,
    salt_for,
)
from durak_net.wire import Deal, Fault, Propose, Refused

TABLE, GAME = 0x7AB1E, 1
NAMES = ["Ann", "Ben", "Cat"]


def _keys() -> list[Identity]:
    rng = random.Random(11)
    return [Identity.generate(rng.randbytes) for _ in range(3)]


def _fault(by: int, signer: Identity, culprit: int = 2, code: str = "not_held",
           proof: list[bytes] | None = None) -> Fault:
    sig = signer.sign(*fault_signed(TABLE, GAME, 4, culprit, code, "it lied", by))
    return Fault(0, GAME, 4, culprit, code, "it lied", by, sig, proof or [])


def test_a_fault_counts_only_signed_by_the_seat_it_names_as_its_finder() -> None:
    ids = _keys()
    keys = [i.public for i in ids]

    def blamed(frame: Fault, me: int, sender: int) -> str | None:
        note = Outcomes.fault_sender_blamed(frame, table=TABLE, me=me, sender=sender,
                                            keys=keys)
        return None if note is None else note.code

    assert blamed(_fault(1, ids[1]), me=2, sender=HOST) is None  # passed on, as signed
    assert blamed(_fault(1, ids[0]), me=2, sender=HOST) == "fault_unsigned_by"  # forged
    assert blamed(_fault(1, ids[1]), me=1, sender=HOST) == "fault_ours"  # not ours
    assert blamed(_fault(2, ids[2]), me=HOST, sender=1) == "fault_relayed"
    assert blamed(_fault(1, ids[0]), me=HOST, sender=1) == "fault_unsigned"
    assert blamed(_fault(5, ids[1]), me=2, sender=HOST) == "fault_unsigned_by"  # no seat 5


def _placed_and_refused(ids: list[Identity], seat: int = 1) -> list[bytes]:
    salt = salt_for(ids[seat].private, TABLE, GAME, 3)
    commit = proposal_commit(salt, f"{seat} take", [])
    propose = Propose(0, 3, GAME, commit, 4, bytes(16), ids[seat].sign(*proposal_signed(
        TABLE, GAME, seat, 3, commit, 4, bytes(16))))
    refusal = Refused(0, 3, "", 4, ids[HOST].sign(*refused_signed(TABLE, GAME, seat, 3, 4)))
    return evidence(propose, refusal)


def test_evidence_against_the_host_is_checked_by_each_seat_itself() -> None:
    ids = _keys()
    keys = [i.public for i in ids]
    proof = _placed_and_refused(ids)
    fault = _fault(1, ids[1], culprit=HOST, code="bad_refusal", proof=proof)
    assert Outcomes.proves(fault, table=TABLE, keys=keys, log=[])
    # The same evidence said to be another seat's finding, or against a seat: nothing.
    assert not Outcomes.proves(_fault(2, ids[2], culprit=HOST, code="bad_refusal",
                                      proof=proof), table=TABLE, keys=keys, log=[])
    assert not Outcomes.proves(_fault(1, ids[1], culprit=2, code="bad_refusal", proof=proof),
                               table=TABLE, keys=keys, log=[])
    assert not Outcomes.proves(_fault(1, ids[1], culprit=HOST, code="bad_refusal"),
                               table=TABLE, keys=keys, log=[])


def test_a_proven_fault_of_the_host_is_a_verdict_not_a_dispute() -> None:
    part = Outcomes()
    claim = Note.of("opened_more")
    part.replay_stop(GAME, Stop(1, 4, "refused", True, HOST, "bad_refusal", claim))
    disputed = Verdict.of(False, "disputed", Note.of("opened_more"), NAMES)
    assert part.judge(GAME, disputed, NAMES, me=2, log=[], forged=lambda s: False) == disputed
    part.replay_proven(GAME)
    verdict = part.judge(GAME, disputed, NAMES, me=2, log=[], forged=lambda s: False)
    assert (verdict.code, verdict.culprit) == ("bad_refusal", HOST)


def test_a_seat_blamed_for_what_it_never_signed_clears_it_and_names_the_host() -> None:
    part = Outcomes()
    blamed = Verdict.of(False, "not_held", Note.of("opened_more"), NAMES, 1)
    verdict = part.judge(GAME, blamed, NAMES, me=2, log=[], forged=lambda s: s == 1)
    assert (verdict.code, verdict.culprit) == ("forged", HOST)
    assert part.judge(GAME, blamed, NAMES, me=2, log=[], forged=lambda s: False) == blamed
    # The host audits what it saw itself: it forwards nothing of another's.
    assert part.judge(GAME, blamed, NAMES, me=HOST, log=[], forged=lambda s: True) == blamed


def test_a_clock_claim_the_log_bears_out_names_nobody() -> None:
    part = Outcomes()
    part.replay_stop(GAME, Stop(1, 2, "early", True, HOST, "early_clock"))
    false = Verdict.of(False, "false_claim", Note.of("opened_more"), NAMES, 1)
    log = [LogEntry("0 attack 6♠", bytes(16)), LogEntry("2 pass", bytes(16)),
           LogEntry("1 take", bytes(16), forced="timeout")]
    verdict = part.judge(GAME, false, NAMES, me=2, log=log, forged=lambda s: False)
    assert (verdict.code, verdict.culprit) == ("clock_disputed", None)
    # A claim about an entry that is no timeout of that seat stays false.
    assert part.judge(GAME, false, NAMES, me=2, log=[*log[:2], LogEntry("1 take", bytes(16))],
                      forged=lambda s: False) == false


def test_the_host_forged_a_seats_message_if_that_seat_did_not_sign_it() -> None:
    ids = _keys()
    good = Deal(0, GAME, 1, b"step", ids[1].sign(*deal_signed(TABLE, GAME, 1, b"step")))
    bad = Deal(0, GAME, 1, b"step", ids[0].sign(*deal_signed(TABLE, GAME, 1, b"step")))
    assert not forged_for(TABLE, GAME, 1, ids[1].public, [good], [])
    assert forged_for(TABLE, GAME, 1, ids[1].public, [good, bad], [])
    salt = salt_for(ids[1].private, TABLE, GAME, 3)
    commit = proposal_commit(salt, "1 take", [])
    sig = ids[1].sign(*proposal_signed(TABLE, GAME, 1, 3, commit, 0, b""))
    entry = LogEntry("1 take", bytes(16), 3, (), 0, b"", sig, "", salt)
    assert not forged_for(TABLE, GAME, 1, ids[1].public, [], [entry])
    made_up = LogEntry("1 take", bytes(16), 3, (), 0, b"", ids[0].sign(b"x"), "", salt)
    assert forged_for(TABLE, GAME, 1, ids[1].public, [], [made_up])
    assert not forged_for(TABLE, GAME, 1, ids[1].public, [], [LogEntry(
        "1 take", bytes(16), forced="timeout")])  # the clock's move: signed by nobody


def test_a_silent_seat_is_named_unless_its_heartbeats_still_reach_us_or_we_saw_a_fault(
) -> None:
    part = Outcomes()
    part.replay_stop(GAME, Stop(2, 7, "went silent", False))
    silent = part.abandon_verdict(GAME, 2, 75.0, NAMES, me=1, heard_ago=None, wait=60.0)
    assert (silent.code, silent.culprit) == ("abandoned", 2) and "75" in silent.detail
    # The host says seat 2 is silent, but we heard it 5 s ago: we cannot tell who lies.
    disputed = part.abandon_verdict(GAME, 2, 75.0, NAMES, me=1, heard_ago=5.0, wait=60.0)
    assert (disputed.code, disputed.culprit) == ("abandoned", None)
    assert part.abandon_verdict(GAME, 2, 75.0, NAMES, me=1, heard_ago=61.0,
                                wait=60.0).culprit == 2
    # Never heard straight from seat 2 (no address, or no way through): the host's word.
    unheard = part.abandon_verdict(GAME, 2, 75.0, NAMES, me=1, heard_ago=float("inf"),
                                   wait=60.0)
    assert (unheard.code, unheard.culprit) == ("abandoned", None)
    assert "cannot be heard here directly" in unheard.detail
    # We stopped the game on evidence against seat 2, which then went silent.
    found = Outcomes()
    found.replay_stop(GAME, Stop(1, 7, "played a card it does not hold", True, 2, "not_held",
                                 Note.of("opened_more")))
    verdict = found.abandon_verdict(GAME, 2, 75.0, NAMES, me=1, heard_ago=None, wait=60.0)
    assert (verdict.code, verdict.culprit) == ("not_held", 2)
