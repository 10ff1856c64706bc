"""A seat that gets up, a part of the session: its signed goodbye, and the host's
Status ``"left"`` that must carry it.

One job: a player leaving the table (section 7 of docs/lan-protocol.md, "A player who
leaves").  Before play a seated player's Bye opens its seat again.  Once play has
begun, a player that gets up signs its Bye with its own seat key over the table, its
seat, the game it leaves, the log length it left at, that log's link hash and its
reason (version 6)::

    signed = "durak-lan v6 bye" || u64be(table) || [seat] || u32be(game)
             || u32be(index) || [len(prev)] || prev || reason (UTF-8)

The host passes that Bye on, unchanged, as the ``evidence`` of its Status ``"left"``.
Why: "left" stops the game in play unfinished and fair, naming nobody; taken on the
host's word, a host losing a game could say a seat that is still playing left (and,
where the seats hear each other only through the host, as over channels, nobody could
tell).  With the seat's own signature nobody but the seat can say it left: a seat takes
``"left"`` only with a valid signed Bye of that seat for the game in play, on its log
(so a Bye of an old game, or of another table, is no evidence), and one without it, or
about itself, is a claim the host cannot back: the host is named (``forged``,
``left_unbacked``), which the seat checked itself (proven).

It holds no session: what it needs done around it (a frame sent, an event, a journal
record, a game stopped, our seed published, a seat opened again, the table ended) it
asks of an :class:`Effects` passed to each call (tests/net/test_net_leaving_part.py
fakes it with a recorder and hand-made signed frames).

>>> import random
>>> from durak_net.identity import Identity
>>> me = Identity.generate(random.Random(5).randbytes)
>>> bye = signed_bye(me, table=7, seat=2, game=1, index=0, prev=b"", reason="dinner")
>>> backs(bye, table=7, seat=2, game=1, key=me.public, link=lambda n: b"")
True
>>> backs(bye, table=7, seat=2, game=2, key=me.public, link=lambda n: b"")
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from . import events as ev
from .audit import Stop
from .gamelog import GameLog
from .handover import HandOver
from .identity import Identity, verify
from .notes import Note, Seat
from .outcomes import HOST, Outcomes
from .presence import Presence
from .seating import SeatingChart
from .wire import BYE_EVIDENCE_BYTES, BYE_REASON_BYTES, Bye, Frame, Status

#: The label of a leaving seat's signature (new in version 6).
BYE_LABEL = b"durak-lan v6 bye"

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Bye)


def fit_reason(reason: str) -> str:
    """``reason`` cut to 200 characters and :data:`~durak_net.wire.BYE_REASON_BYTES`
    UTF-8 bytes (whole characters), so that a signed Bye fits as a Status's evidence.

    >>> fit_reason("я" * 150) == "я" * 100
    True
    """
    reason = reason[:200]
    while len(reason.encode()) > BYE_REASON_BYTES:
        reason = reason[:-1]
    return reason


def bye_signed(table: int, seat: int, game: int, index: int, prev: bytes,
               reason: str) -> list[bytes]:
    """What seat ``seat`` signs when it leaves game ``game`` having seen ``index``
    entries (``prev``: their link hash)."""
    return [BYE_LABEL, table.to_bytes(8, "big"), bytes([seat]), game.to_bytes(4, "big"),
            index.to_bytes(4, "big"), bytes([len(prev)]), prev, reason.encode()]


def signed_bye(identity: Identity, *, table: int, seat: int, game: int, index: int,
               prev: bytes, reason: str) -> Bye:
    """Our Bye, signed: we leave game ``game`` having seen ``index`` entries."""
    reason = fit_reason(reason)
    sig = identity.sign(*bye_signed(table, seat, game, index, prev, reason))
    return Bye(0, reason, game, index, prev, sig)


def encode(bye: Bye) -> bytes:
    """A Bye as the evidence a Status ``"left"`` carries (its ``seq`` 0)."""
    return _encoder.encode(msgspec.structs.replace(bye, seq=0))


def decode(data: bytes) -> Bye | None:
    """The Bye a Status carries, or None (none, or unreadable)."""
    if not data:
        return None
    try:
        return _decoder.decode(data)
    except (msgspec.DecodeError, ValueError):
        return None


def backs(bye: Bye | None, *, table: int, seat: int, game: int, key: bytes,
          link: Callable[[int], bytes], seen: int | None = None) -> bool:
    """Is ``bye`` seat ``seat``'s own signed goodbye from game ``game`` of this table,
    small enough to pass on?  ``key``: the seat's signing key; ``link(n)``: our link hash
    of the game's first ``n`` entries, checked against the Bye's where we have seen that
    many (``seen``: our log length; None: as many as it names), so a Bye made on one
    log cannot be placed on another."""
    if bye is None or not bye.sig or not key or bye.game != game:
        return False
    if len(encode(bye)) > BYE_EVIDENCE_BYTES:
        return False
    if not verify(key, bye.sig, *bye_signed(table, seat, bye.game, bye.index, bye.prev,
                                            bye.reason)):
        return False
    return (seen is not None and bye.index > seen) or link(bye.index) == bye.prev


class Effects(Protocol):
    """What the leaving part asks of the session around it (the session implements it;
    while a journal replays, it sends, reports and records nothing)."""

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        """Send ``frame`` to every seat we have a link to, but seat ``but``."""

    def emit(self, event: Any, /) -> None:
        """An event for the application."""

    def record(self, **record: Any) -> None:
        """A journal record."""

    def stop(self, number: int, culprit: int, code: str, note: Note, now: float, /) -> None:
        """Stop game ``number`` on a finding against ``culprit`` (and audit it)."""

    def set_stop(self, number: int, stop: Stop, /) -> None:
        """Game ``number`` stopped (kept and journalled), not on a fault."""

    def publish_seed(self, number: int, now: float, /) -> None:
        """Publish our seed of game ``number`` for its audit (and audit it if we can)."""

    def open_seat_again(self, seat: int, /) -> None:
        """Host: the player of ``seat`` got up before play: its link goes, its seat is
        open again."""

    def seating_changed(self, now: float, /) -> None:
        """Host: tell every seat the new seating."""

    def end_table(self, reason: str, /) -> None:
        """Host: the table ends once the game's audit is in (``reason``: why)."""

    def audit_under_way(self, number: int, /) -> bool:
        """Is game ``number`` waiting for its audit?"""

    def close(self, now: float, reason: str, /) -> None:
        """Say goodbye to every seat: the table ends now."""


class Leaving:
    """Seat ``seat``'s side of players leaving (see the module docstring).  The other
    arguments are the sibling parts it reads (and the outcomes part, whose stops and
    proofs it writes)."""

    def __init__(self, table: int, seat: int, identity: Identity, *, seating: SeatingChart,
                 game_log: GameLog, outcomes: Outcomes, handover: HandOver,
                 presence: Presence) -> None:
        self.table = table
        self.seat = seat
        self.identity = identity
        self.seating = seating
        self.game_log = game_log
        self.outcomes = outcomes
        self.handover = handover
        self.presence = presence

    # ------------------------------------------------------------------ ours

    def goodbye(self, reason: str, *, started: bool, game_no: int, in_game: bool) -> Bye:
        """Our Bye.  Once play has begun a seated player signs it, for the game it
        leaves: the one in play, or (between games, or while the next is dealt) the
        next, which it will not play."""
        if self.seat == HOST or not started:
            return Bye(0, reason[:200])
        number = game_no if in_game else game_no + 1
        index, prev = self.game_log.head(number)
        return signed_bye(self.identity, table=self.table, seat=self.seat, game=number,
                          index=index, prev=prev, reason=reason)

    # ------------------------------------------------------------------ host

    def backed(self, seat: int, bye: Bye | None, game: int) -> bool:
        """Is ``bye`` seat ``seat``'s own signed goodbye from game ``game``, on our log?"""
        log = self.game_log
        return backs(bye, table=self.table, seat=seat, game=game,
                     key=self.seating.keys()[seat], seen=len(log.of(game)),
                     link=lambda n: log.link(game, n))

    def on_bye(self, fx: Effects, seat: int, frame: Bye, now: float, *, started: bool,
               in_game: bool, game_no: int) -> bool:
        """Host of a table of three or more: seat ``seat``'s player says goodbye.  Before
        play its seat opens again; once play has begun, its signed Bye goes on to the
        others as the evidence of our Status ``"left"``, the game in play stops for the
        audit, and the table ends.  A Bye that is not the seat's own for the game in play
        is dropped (False: the session counts it, ``bye_unsigned``): what we could pass
        on would not convince anyone; the seat goes silent and is named as any seat that
        does."""
        if not started:
            fx.record(t="left", seat=seat, reason=frame.reason[:200])
            fx.open_seat_again(seat)
            fx.broadcast(Status(0, seat, "left", frame.reason[:200]), now)
            fx.seating_changed(now)
            fx.emit(ev.SeatStatus(self.table, seat, "left", frame.reason, now))
            return True
        if in_game and not self.backed(seat, frame, game_no):
            return False
        reason = fit_reason(frame.reason)
        name = self.seating.players[seat].name or f"seat {seat}"
        fx.record(t="gone", seat=seat, reason=reason)
        self.handover.reported(seat, "left")
        evidence = encode(frame) if frame.sig else b""
        fx.broadcast(Status(0, seat, "left", reason, evidence), now, but=seat)
        fx.emit(ev.SeatStatus(self.table, seat, "left", reason, now))
        ending = f"{name} left the table"
        fx.end_table(ending)
        if in_game:
            self.outcomes.broken.add(game_no)
            fx.set_stop(game_no, Stop(seat, len(self.game_log.of(game_no)), "left the game",
                                      False))
            fx.publish_seed(game_no, now)  # the audit ends the table
            return True
        if not fx.audit_under_way(game_no):
            fx.close(now, ending)
        return True

    def replay_gone(self, fx: Effects, seat: int) -> None:
        """A journal's ``gone`` record (host): seat ``seat``'s player left after play
        began; the table ends once the game's audit is done."""
        self.handover.reported(seat, "left")
        fx.end_table(f"{self.seating.players[seat].name or f'seat {seat}'} left the table")

    def replay_left(self, fx: Effects, seat: int) -> None:
        """A journal's ``left`` record (host): seat ``seat``'s player got up before play."""
        fx.open_seat_again(seat)

    # ------------------------------------------------------------------ a seat

    def on_status(self, fx: Effects, frame: Status, now: float, *, started: bool,
                  in_game: bool, game_no: int) -> None:
        """A seated player: the host says seat ``frame.seat`` left.  While a game is in
        play that stops it, so it must carry that seat's signed Bye of this game; one
        that does not, or says so of us, names the host (checked by us: proven)."""
        seat = frame.seat
        bye = decode(frame.evidence)
        if started and in_game and (seat in (self.seat, HOST)
                                    or not self.backed(seat, bye, game_no)):
            self.unbacked(fx, game_no, seat, now)
            return
        detail = bye.reason if bye is not None and bye.sig else frame.detail
        self.handover.reported(seat, "left")
        self.presence.reported(seat, "left", now)
        fx.emit(ev.SeatStatus(self.table, seat, "left", detail, now))
        if started and in_game:
            # The game cannot go on without it: stop it, and publish our seed for the
            # audit of what was played (the host ends the table afterwards).
            self.outcomes.broken.add(game_no)
            fx.set_stop(game_no, Stop(seat, len(self.game_log.of(game_no)), "left the game",
                                      False))
            fx.publish_seed(game_no, now)

    def unbacked(self, fx: Effects, number: int, seat: int, now: float) -> None:
        """The host said seat ``seat`` left game ``number`` without that seat's signed
        Bye (or said so of us, who are here): a claim only the host makes, so the host is
        named (``forged``).  We checked it ourselves: as proven as a claim backed by
        evidence (journalled as such, so a restored seat reaches the same verdict)."""
        out = self.outcomes
        if number in out.stops or number in out.audits:
            return
        out.proven.add(number)
        fx.record(t="proven", game=number)
        fx.stop(number, HOST, "forged", Note.of("left_unbacked", seat=Seat(seat)), now)
