"""Resuming a session from its journal: the records replayed through the session's code.

A restarted kernel rebuilds its seat of a table from the journal it wrote (see
:mod:`durak_net.journal`): the header (table, seat, rules, our signing key), the links
with their pairing keys, every deal message received, every entry and proposal, stops,
audits.  Each record goes through the same code that handled it the first time, with
sending and reporting switched off, so the rebuilt session is the one that was running
(every hash and every opened card is checked again on the way).  Then a new epoch
starts: when a peer hears it, both streams of that link restart and each side resends
what the other may lack.

Nothing here writes a session's private fields: each record goes to its part's own
replay method (:mod:`durak_net.seating`, :mod:`durak_net.dealing`,
:mod:`durak_net.dealflow`, :mod:`durak_net.joining`, :mod:`durak_net.play`,
:mod:`durak_net.proposals`, :mod:`durak_net.absence`, :mod:`durak_net.outcomes`,
:mod:`durak_net.endings`, :mod:`durak_net.leaving`), the parts that act around them
passed the session as their effects; only what is the session's own (its links) goes
to its ``replay_*`` methods.  This
module imports nothing of :mod:`durak_net.session` (which imports it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from durak_core import parse_action

from .audit import Stop, Verdict
from .crypto import Entropy
from .dealer import DealFault
from .i18n import N_, Refusal
from .notes import Note
from .outcomes import HOST
from .proposals import proposal_commit
from .wire import Deal, Propose

if TYPE_CHECKING:
    from .session import DealerFactory, Session, SessionConfig

#: The version of the journal this durak writes (and the only one it resumes).
JOURNAL_VERSION = 5  # (5: entries carry the host's signature and link hash)


def replay_journal(cls: type[Session], records: list[dict[str, Any]], now: float, *,
                   entropy: Entropy, dealer_factory: DealerFactory,
                   config: SessionConfig | None) -> Session:
    """The session ``records`` describe, resumed in a new epoch (``ValueError`` if they
    are not a session journal of this version or do not replay)."""
    if not records or records[0].get("t") != "session":
        raise Refusal(N_("not a session journal (no header record)"))
    head = records[0]
    if head.get("version") != JOURNAL_VERSION:
        raise Refusal(N_("a journal of version {version} (this durak writes version "
                         "{ours}); it cannot be resumed"), version=head.get("version", 1),
                      ours=JOURNAL_VERSION)
    try:
        session = cls.from_header(head, now, entropy=entropy, dealer_factory=dealer_factory,
                                  config=config)
        _replay(session, records[1:], now)
    except (KeyError, TypeError, ValueError, DealFault) as exc:
        raise Refusal(N_("journal: {reason}"), reason=str(exc)) from None
    session.resumed(now)
    return session


def _reveals(rec: dict[str, Any]) -> list[tuple[int, bytes]]:
    return [(int(p), bytes.fromhex(k)) for p, k in rec.get("reveals", [])]


def _replay(session: Session, records: list[dict[str, Any]], now: float) -> None:
    """Each record through the session's or its part's own replay method."""
    epoch = 0
    for rec in records:
        kind = rec.get("t")
        if kind == "epoch":
            epoch = max(epoch, int(rec["epoch"]))
        elif kind == "link":
            session.replay_link(rec, now)
        elif kind == "hello":
            session.seating.replay_hello(rec)
        elif kind == "seating":
            session.joining.replay_seating(rec)
        elif kind == "start":
            session.joining.replay_start()
        elif kind == "dealer":
            previous = rec.get("previous")
            session.dealing.replay_dealer(int(rec["game"]),
                                          None if previous is None else int(previous),
                                          session.seating.keys(), bytes.fromhex(rec["seed"]))
        elif kind == "begin":
            session.deal_flow.replay_begin(session, int(rec["game"]), now)
        elif kind == "dealmsg":
            number = int(rec["game"])
            seat, data = int(rec["seat"]), bytes.fromhex(rec["data"])
            session.deal_flow.replay_deal(session, Deal(
                0, number, seat, data, bytes.fromhex(rec.get("sig", "00" * 64))), now)
        elif kind == "entry":
            session.play.replay_entry(session, rec, now)
        elif kind == "propose":
            pid = int(rec["pid"])
            action = parse_action(rec["action"])
            salt, reveals = bytes.fromhex(rec["salt"]), _reveals(rec)
            frame = Propose(0, pid, int(rec["game"]),
                            proposal_commit(salt, str(rec["action"]), reveals),
                            int(rec.get("seen", 0)), bytes.fromhex(rec.get("seen_hash", "")),
                            bytes.fromhex(rec["sig"]))
            session.proposals.replay_propose(action, reveals, salt, frame, bool(rec.get("auto")),
                                              now)
        elif kind == "order":  # the host placed our proposal (we opened it)
            session.proposals.replay_order(int(rec["pid"]), int(rec["index"]),
                                           bytes.fromhex(rec["sig"]))
        elif kind == "proposal":  # host: a proposal placed (its opening or refusal follows)
            seat, number = int(rec["seat"]), int(rec.get("game", session.game_no))
            frame = Propose(0, int(rec["pid"]), number, bytes.fromhex(rec["commit"]),
                            int(rec["seen"]), bytes.fromhex(rec["seen_hash"]),
                            bytes.fromhex(rec["sig"]))
            session.proposals.place(seat, frame, len(session.game_log.of(number)), number)
        elif kind == "refused":
            pid, reason = int(rec["pid"]), str(rec.get("reason", ""))
            if session.seat != HOST:
                action_, proposal = session.proposals.replay_refused(pid)
                if action_ is not None and proposal is not None:
                    session.play.note_refusal(action_, reason, (proposal.game, proposal.seen))
            else:
                session.proposals.refused(int(rec["seat"]), pid, reason, int(rec.get("at", 0)))
        elif kind == "share":  # we published our share of a seat's seed (it went to a bot)
            session.absence.replay_share(session, int(rec["game"]), int(rec["seat"]), now)
        elif kind == "handover":  # (its placed move void: its refusal follows)
            session.absence.replay_handover(int(rec["seat"]))
        elif kind == "back":
            session.absence.replay_back(int(rec["seat"]))
        elif kind == "stop":
            number = int(rec["game"])
            culprit = rec.get("culprit")
            session.outcomes.replay_stop(number, Stop(
                int(rec["seat"]), int(rec["index"]), str(rec["reason"]),
                bool(rec.get("claim", True)), None if culprit is None else int(culprit),
                str(rec.get("code", "stopped")), _note(rec)))
        elif kind == "proven":  # a fault of the host whose evidence we checked
            session.outcomes.replay_proven(
                int(rec["game"]), None if rec.get("fork") is None else int(rec["fork"]))
        elif kind == "publish":
            session.endings.replay_publish(session, int(rec["game"]), now)
        elif kind == "audit":
            number = int(rec["game"])
            culprit = rec.get("culprit")
            session.outcomes.replay_audit(number, Verdict(
                bool(rec["fair"]), str(rec["code"]), str(rec["detail"]),
                None if culprit is None else int(culprit), str(rec.get("state_hash", "")),
                str(rec.get("full", "")), _note(rec)))
        elif kind == "left":  # a player got up before play: its seat is open again
            session.leaving.replay_left(session, int(rec["seat"]))
        elif kind == "abandon":  # a seat went silent for the grace period: the table ends
            session.absence.replay_abandon(session, int(rec["seat"]),
                                           str(rec.get("what", "went silent")))
        elif kind == "gone":  # host: a player left after play began (the table ends)
            session.leaving.replay_gone(session, int(rec["seat"]))
        elif kind == "bye":
            session.closed = True
    session.epoch = epoch + 1  # (the new epoch: see Session.resumed)


def _note(rec: dict[str, Any]) -> Note | None:
    """A record's note (a stop's or a verdict's finding, for the screens); None in a
    journal from before notes, or one it cannot read: the record's text stands."""
    try:
        return Note.from_json(rec["note"]) if rec.get("note") is not None else None
    except (ValueError, KeyError, TypeError):
        return None
