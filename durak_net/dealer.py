"""The deal as a replaceable step: how two peers agree on a deck without a server.

A :class:`Dealer` handles one game's deal as an exchange of opaque messages that the
session carries reliably and in order (``Deal`` frames).  The default,
:class:`CommitRevealDealer`, makes the deck order depend on a secret of each peer:

1. each peer draws a random 32-byte secret and sends a commitment to it (a hash);
2. once it holds the other's commitment, it reveals its secret;
3. each checks the revealed secret against the commitment and both compute
   ``seed = H(secret of seat 0 || secret of seat 1)`` -> ``Game.new(rules, seed=seed)``.

Neither peer can steer the deal: its secret was fixed before it saw the other's.  Both
peers then hold the whole deck (this issue's scope); a later dealer that hides hands
(mental poker) replaces this class without touching the session.

>>> import random
>>> from durak_core import Rules
>>> rng = random.Random(3)
>>> a = CommitRevealDealer(DealContext(sid=5, game=1, seat=0, entropy=rng.randbytes))
>>> b = CommitRevealDealer(DealContext(sid=5, game=1, seat=1, entropy=rng.randbytes))
>>> to_b, to_a = a.begin(), b.begin()
>>> to_b += [m for x in to_a for m in a.receive(x)]
>>> to_a = [m for x in to_b for m in b.receive(x)]
>>> _ = [a.receive(x) for x in to_a]
>>> a.done and b.done
True
>>> a.deal(Rules()).state_hash() == b.deal(Rules()).state_hash()
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from durak_core import Game, Rules

from .crypto import Entropy, check_commitment, commitment, joint_seed


class DealError(Exception):
    """The peer broke the deal protocol (a bad reveal, a changed commitment...)."""


@dataclass(frozen=True)
class DealContext:
    """What a dealer needs to know: which session and game, our seat, a random source."""

    sid: int
    game: int
    seat: int
    entropy: Entropy

    @property
    def label(self) -> bytes:
        """Binds commitments and seeds to this session and game."""
        return self.sid.to_bytes(8, "big") + self.game.to_bytes(4, "big")


class Dealer(Protocol):
    """One game's deal between two peers, as opaque messages (at most 256 bytes each)."""

    def begin(self) -> list[bytes]:
        """We are ready to deal: the messages to send (idempotent)."""
        ...

    def receive(self, data: bytes) -> list[bytes]:
        """A message from the peer; returns messages to send.  Raises :class:`DealError`."""
        ...

    @property
    def began(self) -> bool:
        """Has :meth:`begin` been called (do we agree to deal this game)?"""
        ...

    @property
    def done(self) -> bool:
        """Can :meth:`deal` be called?"""
        ...

    def deal(self, rules: Rules, previous_durak: int | None = None) -> Game:
        """The dealt game, identical on both peers."""
        ...

    def sent(self) -> list[bytes]:
        """Every message sent so far, to resend to a peer that restarted."""
        ...

    def record(self) -> dict[str, Any]:
        """JSON-able state for the journal (restored by the factory's ``record``)."""
        ...


#: Builds the dealer of one game; ``record`` is a journal record to restore from.
DealerFactory = Callable[[DealContext, "dict[str, Any] | None"], Dealer]


class CommitRevealDealer:
    """Commit to a secret, reveal it, seed the shuffle with both secrets (see module doc)."""

    def __init__(self, context: DealContext, record: dict[str, Any] | None = None) -> None:
        self.context = context
        self._secret: bytes | None = None
        self._began = False
        self._revealed = False
        self._peer_commit: bytes | None = None
        self._peer_secret: bytes | None = None
        if record is not None:
            self._restore(record)

    @property
    def began(self) -> bool:
        return self._began

    @property
    def done(self) -> bool:
        return self._began and self._peer_secret is not None

    def _commit_message(self) -> bytes:
        assert self._secret is not None
        return b"C" + commitment(self._secret, self.context.label)

    def begin(self) -> list[bytes]:
        if self._began:
            return []
        self._began = True
        if self._secret is None:
            self._secret = self.context.entropy(32)
        out = [self._commit_message()]
        if self._peer_commit is not None:
            self._revealed = True
            out.append(b"R" + self._secret)
        return out

    def receive(self, data: bytes) -> list[bytes]:
        kind, body = data[:1], data[1:]
        if kind == b"C":
            if len(body) != 32:
                raise DealError("a commitment has 32 bytes")
            if self._peer_commit is not None:
                if body != self._peer_commit:
                    raise DealError("the peer changed its commitment")
                return []
            self._peer_commit = body
            if self._began and not self._revealed:
                assert self._secret is not None
                self._revealed = True
                return [b"R" + self._secret]
            return []
        if kind == b"R":
            if len(body) != 32:
                raise DealError("a secret has 32 bytes")
            if self._peer_commit is None:
                raise DealError("the peer revealed its secret before committing to it")
            if self._peer_secret is not None:
                if body != self._peer_secret:
                    raise DealError("the peer revealed two different secrets")
                return []
            if not check_commitment(self._peer_commit, body, self.context.label):
                raise DealError("the peer's secret does not match its commitment")
            self._peer_secret = body
            return []
        raise DealError(f"unknown deal message {kind!r}")

    def seed(self) -> int:
        """The joint seed (both secrets, seat 0's first)."""
        if not self.done:
            raise RuntimeError("the deal is not complete")
        assert self._secret is not None and self._peer_secret is not None
        mine, theirs = self._secret, self._peer_secret
        ordered = (mine, theirs) if self.context.seat == 0 else (theirs, mine)
        return joint_seed(self.context.label, *ordered)

    def deal(self, rules: Rules, previous_durak: int | None = None) -> Game:
        return Game.new(rules, seed=self.seed(), previous_durak=previous_durak)

    def sent(self) -> list[bytes]:
        if not self._began:
            return []
        out = [self._commit_message()]
        if self._revealed:
            assert self._secret is not None
            out.append(b"R" + self._secret)
        return out

    def record(self) -> dict[str, Any]:
        def hx(b: bytes | None) -> str | None:
            return None if b is None else b.hex()

        return {
            "secret": hx(self._secret),
            "began": self._began,
            "revealed": self._revealed,
            "peer_commit": hx(self._peer_commit),
            "peer_secret": hx(self._peer_secret),
        }

    def _restore(self, record: dict[str, Any]) -> None:
        def bx(v: Any) -> bytes | None:
            return None if v is None else bytes.fromhex(v)

        self._secret = bx(record.get("secret"))
        self._began = bool(record.get("began"))
        self._revealed = bool(record.get("revealed"))
        self._peer_commit = bx(record.get("peer_commit"))
        self._peer_secret = bx(record.get("peer_secret"))


def commit_reveal_dealer(context: DealContext, record: dict[str, Any] | None = None) -> Dealer:
    """The default :data:`DealerFactory`."""
    return CommitRevealDealer(context, record)
