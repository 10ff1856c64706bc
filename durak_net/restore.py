"""Resuming a session from its journal: the records replayed through the session's code.

A restarted kernel rebuilds its seat of a table from the journal it wrote (see
:mod:`durak_net.journal`): the header (table, seat, rules, our signing key), the links
with their pairing keys, every deal message received, every entry and proposal, stops,
audits.  Each record goes through the same code that handled it the first time, with
sending and reporting switched off, so the rebuilt session is the one that was running
(every hash and every opened card is checked again on the way).  Then a new epoch
starts: when a peer hears it, both streams of that link restart and each side resends
what the other may lack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from durak_core import Rules, parse_action

from .audit import Stop, Verdict
from .crypto import Entropy
from .dealer import DealFault
from .identity import Identity
from .notes import Note
from .proposals import proposal_commit
from .wire import Deal, Propose

if TYPE_CHECKING:
    from .session import DealerFactory, LogEntry, Session, SessionConfig


def replay_journal(cls: type[Session], records: list[dict[str, Any]], now: float, *,
                   entropy: Entropy, dealer_factory: DealerFactory,
                   config: SessionConfig | None) -> Session:
    """The session ``records`` describe, resumed in a new epoch (``ValueError`` if they
    are not a session journal of this version or do not replay)."""
    from .session import JOURNAL_VERSION, Role, parse_addr

    if not records or records[0].get("t") != "session":
        raise ValueError("not a session journal (no header record)")
    head = records[0]
    if head.get("version") != JOURNAL_VERSION:
        raise ValueError(f"a journal of version {head.get('version', 1)} (this durak "
                         f"writes version {JOURNAL_VERSION}); it cannot be resumed")
    try:
        session = cls.__new__(cls)
        session.role = Role(head["role"])
        session._setup(int(head["table"]), Rules.from_dict(head["rules"]), int(head["seat"]),
                       now, entropy=entropy, dealer_factory=dealer_factory, config=config,
                       name=str(head.get("name", "")),
                       identity=Identity.from_private(bytes.fromhex(head["identity"])),
                       restoring=True, own_addr=parse_addr(str(head.get("addr", ""))))
        _replay(session, records[1:], now)
    except (KeyError, TypeError, ValueError, DealFault) as exc:
        raise ValueError(f"journal: {exc}") from None
    session.resumed(now)
    return session


def _reveals(rec: dict[str, Any]) -> list[tuple[int, bytes]]:
    return [(int(p), bytes.fromhex(k)) for p, k in rec.get("reveals", [])]


def _replay(session: Session, records: list[dict[str, Any]], now: float) -> None:
    from .session import HOST, Player

    epoch = 0
    for rec in records:
        kind = rec.get("t")
        if kind == "epoch":
            epoch = max(epoch, int(rec["epoch"]))
        elif kind == "link":
            seat = int(rec["seat"])
            what = str(rec.get("kind", "player"))
            if session.seat == HOST:
                session.players[seat] = Player(seat, str(rec.get("name", "")), b"", what)
            else:
                session.players[HOST] = Player(HOST, str(rec.get("name", "")), b"", "host")
            session._open_link(int(rec["sid"]), bytes.fromhex(rec["key"]), seat,
                               (str(rec["addr"][0]), int(rec["addr"][1])), now,
                               str(rec.get("name", "")), str(rec.get("sas", "")), what)
        elif kind == "hello":
            seat = int(rec["seat"])
            what = session.players[seat].kind
            session.players[seat] = Player(seat, str(rec["name"]), bytes.fromhex(rec["key"]),
                                           what if what != "open" else "player",
                                           str(rec.get("addr", "")),
                                           bytes.fromhex(rec.get("addr_sig", "")))
        elif kind == "seating":
            for seat, name, key, what, *addr in rec["seats"]:
                if int(seat) != session.seat:
                    session.players[int(seat)] = Player(
                        int(seat), str(name), bytes.fromhex(key), str(what),
                        str(addr[0]) if addr else "", bytes.fromhex(addr[1]) if addr else b"")
            session.clock, session.grace = int(rec["clock"]), int(rec["grace"])
            if rec.get("start"):
                session.started = True
        elif kind == "start":
            session.started = True
        elif kind == "dealer":
            number = int(rec["game"])
            if number in session.dealers:
                raise ValueError(f"game {number} has two dealers")
            previous = rec.get("previous")
            context = session._deal_context(number, None if previous is None else int(previous))
            session.dealers[number] = session._dealer_factory(context,
                                                              bytes.fromhex(rec["seed"]))
        elif kind == "begin":
            number = int(rec["game"])
            session._deal_out(number, session.dealers[number].begin(), now)
            session._maybe_deal(number, now)
        elif kind == "dealmsg":
            number = int(rec["game"])
            seat, data = int(rec["seat"]), bytes.fromhex(rec["data"])
            session.replay_deal(Deal(0, number, seat, data,
                                     bytes.fromhex(rec.get("sig", "00" * 64))), now)
        elif kind == "entry":
            _replay_entry(session, rec, now)
        elif kind == "propose":
            pid = int(rec["pid"])
            action = parse_action(rec["action"])
            salt, reveals = bytes.fromhex(rec["salt"]), _reveals(rec)
            frame = Propose(0, pid, int(rec["game"]),
                            proposal_commit(salt, str(rec["action"]), reveals),
                            int(rec.get("seen", 0)), bytes.fromhex(rec.get("seen_hash", "")),
                            bytes.fromhex(rec["sig"]))
            session.proposals.replay_propose(action, reveals, salt, frame, bool(rec.get("auto")))
        elif kind == "order":  # the host placed our proposal (we opened it)
            session.proposals.replay_order(int(rec["pid"]), int(rec["index"]),
                                           bytes.fromhex(rec["sig"]))
        elif kind == "proposal":  # host: a proposal placed (its opening or refusal follows)
            seat, number = int(rec["seat"]), int(rec.get("game", session.game_no))
            frame = Propose(0, int(rec["pid"]), number, bytes.fromhex(rec["commit"]),
                            int(rec["seen"]), bytes.fromhex(rec["seen_hash"]),
                            bytes.fromhex(rec["sig"]))
            session.proposals.place(seat, frame, len(session.logs.get(number, [])), number)
        elif kind == "refused":
            pid, reason = int(rec["pid"]), str(rec.get("reason", ""))
            if session.seat != HOST:
                action_, proposal = session.proposals.replay_refused(pid)
                if action_ is not None and proposal is not None:
                    session.note_refusal(action_, reason, (proposal.game, proposal.seen))
            else:
                session.proposals.refused(int(rec["seat"]), pid, reason, int(rec.get("at", 0)))
        elif kind == "share":  # we published our share of a seat's seed (it went to a bot)
            number = int(rec["game"])
            session._deal_out(number, session.dealers[number].share(int(rec["seat"])), now)
            session._reveal_open_hands(now)
        elif kind == "handover":
            session.bots.add(int(rec["seat"]))
            session.seat_state[int(rec["seat"])] = "bot"
            session.proposals.void(int(rec["seat"]))  # (its refusal follows)
        elif kind == "back":
            session.bots.discard(int(rec["seat"]))
            session.seat_state.pop(int(rec["seat"]), None)
        elif kind == "stop":
            number = int(rec["game"])
            culprit = rec.get("culprit")
            session.outcomes.replay_stop(number, Stop(
                int(rec["seat"]), int(rec["index"]), str(rec["reason"]),
                bool(rec.get("claim", True)), None if culprit is None else int(culprit),
                str(rec.get("code", "stopped")), _note(rec)))
        elif kind == "proven":  # a fault of the host whose evidence we checked
            session.outcomes.replay_proven(int(rec["game"]))
        elif kind == "publish":
            number = int(rec["game"])
            session._deal_out(number, session.dealers[number].publish_seed(), now)
            session.outcomes.replay_publish(number, now)
        elif kind == "audit":
            number = int(rec["game"])
            culprit = rec.get("culprit")
            session.outcomes.replay_audit(number, Verdict(
                bool(rec["fair"]), str(rec["code"]), str(rec["detail"]),
                None if culprit is None else int(culprit), str(rec.get("state_hash", "")),
                str(rec.get("full", "")), _note(rec)))
        elif kind == "left":  # a player got up before play: its seat is open again
            session.open_seat_again(int(rec["seat"]))
        elif kind == "abandon":  # a seat went silent for the grace period: the table ends
            silent = int(rec["seat"])
            session._ending = f"{session.players[silent].name or f'seat {silent}'} went silent"
        elif kind == "gone":  # host: a player left after play began (the table ends)
            left = int(rec["seat"])
            session._ending = f"{session.players[left].name or f'seat {left}'} left the table"
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


def _replay_entry(session: Session, rec: dict[str, Any], now: float) -> None:
    from .session import HOST, LogEntry, action_cards

    number = int(rec["game"])
    if number != session.game_no or session.game is None:
        raise ValueError(f"an entry of game {number} while at game {session.game_no}")
    index = int(rec["index"])
    if index != len(session.log):
        raise ValueError(f"game {number} entry {len(session.log)} is missing")
    action = parse_action(rec["action"])
    reveals = _reveals(rec)
    pid = int(rec.get("pid", 0))
    dealer = session.dealer
    assert dealer is not None
    if action.player == session.seat:
        for card in action_cards(action):
            dealer.reveal(card)
        if session.seat != HOST and pid:
            session.proposals.done(pid)
    elif not session._check_reveals(action.player, action, reveals, now):
        raise ValueError(f"game {number} entry {index} opens a card that does not check")
    if session.seat == HOST and pid:
        session.proposals.applied(action.player, pid)
    digest, keys = session._apply(action)
    session._deal_out(number, keys, now)
    if digest != rec["hash"]:
        raise ValueError(f"game {number} entry {index} does not replay")
    entry: LogEntry = LogEntry(rec["action"], bytes.fromhex(digest), pid, tuple(reveals),
                               int(rec.get("seen", 0)), bytes.fromhex(rec.get("seen_hash", "")),
                               bytes.fromhex(rec.get("sig", "")), str(rec.get("forced", "")),
                               bytes.fromhex(rec.get("salt", "")))
    session.logs[number].append(entry)
    session._take_new_cards(now)
    session._after_change(now)
