"""The deal with hidden hands: how N seats share a deck that none of them can see.

A :class:`MentalDealer` is one seat's side of one game's deal, a state machine with
no I/O: the session carries its messages (opaque ``Deal`` frames, reliable and in
order) and asks it about cards.  Every seat runs the same steps (see
docs/lan-protocol.md, "8. The deal: mental poker with per-card keys"):

1. **Shuffle.**  Seats ``0 .. N-2`` in turn multiply every card point by their
   shuffle key and permute the deck; the last seat shuffles and locks at once
   (its per-card keys instead of a shuffle key).
2. **Lock.**  Seats ``0 .. N-2`` in turn swap their shuffle key for per-card
   keys.  The result is the *locked deck*: position ``j`` holds its card under
   one key of every seat.
3. **Deal.**  A card goes to seat ``s`` when every other seat publishes its key
   for that position: only ``s`` then holds the last key.  The open trump (and,
   later, each card a seat plays) is opened to everyone by its holder's key.
4. **The first attack.**  Rank by rank from the lowest, every seat says whether
   it holds that trump; the first "yes" opens the card (as a person shows their
   lowest trump) and that seat attacks first.
5. **Audit.**  When the game ends (or stops on a fault), every seat publishes its
   32-byte seed, from which all its keys and its permutation follow;
   :mod:`durak_net.audit` recomputes the whole deal and game from them.

Nothing is taken on trust during play either: a pass that is not made of group
points or that repeats a point, a key that does not open a card, a card played
from a position the seat does not hold, a trump shown that is not a trump of
that rank: each raises :class:`DealFault` naming the seat, and the session stops
the game for an audit.

>>> import random
>>> from durak_core import Rules
>>> rng = random.Random(5)
>>> dealers = [MentalDealer(DealContext(9, 1, s, 2, 36, rng.randbytes)) for s in (0, 1)]
>>> mail = [(s, m) for s in (0, 1) for m in dealers[s].begin()]
>>> while mail:
...     sender, data = mail.pop(0)
...     mail += [(1 - sender, m) for m in dealers[1 - sender].receive(data, sender)]
>>> all(d.done for d in dealers)
True
>>> views = [d.deal(Rules()) for d in dealers]
>>> views[0].public_hash() == views[1].public_hash()
True
>>> len(views[0].hand(0)), len(views[1].hand(1))
(6, 6)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Protocol

import msgspec
from msgspec import Meta, Struct

from durak_core import Card, Game, Rules
from durak_core.cards import new_deck

from . import escrow, mental
from .crypto import Entropy
from .notes import Note, Seat

#: A deal message carries at most this many points or keys (keeps a frame in one datagram).
PER_MESSAGE = 20
#: Cards dealt to each seat.
HAND = 6

Point = Annotated[bytes, Meta(min_length=32, max_length=32)]
Position = Annotated[int, Meta(ge=0, le=51)]


class Ready(Struct, tag="ready", array_like=True, frozen=True):
    """"I agree to deal this game" (lets the others see that a rematch is wanted)."""


class Pass(Struct, tag="pass", array_like=True, frozen=True):
    """Part ``part`` of ``parts`` of the deck after deal step ``step``."""

    step: Annotated[int, Meta(ge=0, le=10)]
    part: Annotated[int, Meta(ge=0, le=2)]
    parts: Annotated[int, Meta(ge=1, le=3)]
    points: Annotated[list[Point], Meta(min_length=1, max_length=PER_MESSAGE)]


class Keys(Struct, tag="keys", array_like=True, frozen=True):
    """The sender's keys for these positions (cards dealt or drawn to others, the trump)."""

    positions: Annotated[list[Position], Meta(min_length=1, max_length=PER_MESSAGE)]
    keys: Annotated[list[Point], Meta(min_length=1, max_length=PER_MESSAGE)]


class Trump(Struct, tag="trump", array_like=True, frozen=True):
    """Round ``round`` of finding the first attacker: "I hold the trump of this
    round's rank" (``position`` and its key open it) or not (``position`` -1)."""

    round: Annotated[int, Meta(ge=0, le=12)]
    position: Annotated[int, Meta(ge=-1, le=51)]
    key: Annotated[bytes, Meta(max_length=32)] = b""


class Seed(Struct, tag="seed", array_like=True, frozen=True):
    """The sender's seed for this game, published for the audit."""

    seed: Point


class Escrow(Struct, tag="escrow", array_like=True, frozen=True):
    """The sender's seed in escrow (tables of 3 or more; see :mod:`durak_net.escrow`):
    per seat, the share sealed for it and the public hash of that share (both empty
    at the sender's own seat), and the public hash of the seed."""

    shares: Annotated[list[Annotated[bytes, Meta(max_length=escrow.SEALED_BYTES)]],
                      Meta(min_length=3, max_length=6)]
    commits: Annotated[list[Annotated[bytes, Meta(max_length=32)]],
                       Meta(min_length=3, max_length=6)]
    check: Point


class Share(Struct, tag="share", array_like=True, frozen=True):
    """The sender's share of seat ``seat``'s seed, published so everyone can rebuild
    it (the seat was handed to a bot)."""

    seat: Annotated[int, Meta(ge=0, le=5)]
    share: Point


DealMessage = Ready | Pass | Keys | Trump | Seed | Escrow | Share

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(DealMessage)


def encode(message: DealMessage) -> bytes:
    return _encoder.encode(message)


def decode(data: bytes) -> DealMessage:
    """A deal message, or :class:`DealFault`-worthy ``ValueError``."""
    try:
        return _decoder.decode(data)
    except (msgspec.DecodeError, ValueError) as exc:
        raise ValueError(f"unreadable deal message: {exc}") from None


class DealFault(Exception):
    """A seat broke the deal: ``seat`` is whom the evidence names, ``code`` the kind
    of fault (``bad_pass``, ``duplicate_card``, ``bad_key``, ``not_held``,
    ``bad_trump``, ``protocol``), ``detail`` what it did, as a phrase that follows its
    name ("played 8♠, a card it does not hold"), in English; ``note`` the same as a
    note, which each screen says in its language with its names (:mod:`durak_net.notes`:
    the dealer knows seats, not names)."""

    def __init__(self, seat: int, code: str, note: Note) -> None:
        self.note = note
        self.detail = note.english(())
        super().__init__(self.detail)
        self.seat = seat
        self.code = code


@dataclass(frozen=True)
class DealContext:
    """What a dealer needs to know.

    previous_durak: with ``Rules(match=True)``, the durak of the previous game (the
    first attack is then set by the rules and no trump is shown); None otherwise.
    """

    sid: int
    game: int
    seat: int
    players: int
    deck_size: int
    entropy: Entropy
    previous_durak: int | None = None
    #: Tables of 3 or more: every seat's X25519 public key (from its signing key) and
    #: our secret one, for the escrow of our seed; empty for no escrow.
    box_public: tuple[bytes, ...] = ()
    box_secret: bytes = b""


@dataclass(frozen=True)
class Reveal:
    """A card opened by its holder: the position it was dealt to and the holder's key."""

    position: int
    key: bytes


@dataclass
class _Declaration:
    round: int = 0
    #: Answers by round, then by seat (kept, so a copy resent after a restart is known).
    answers: dict[int, dict[int, Trump]] = field(default_factory=dict)
    attacker: int | None = None
    card: Card | None = None
    finished: bool = False


class Dealer(Protocol):
    """What the session needs of a dealer (see :class:`MentalDealer`)."""

    @property
    def began(self) -> bool: ...

    @property
    def done(self) -> bool: ...

    def begin(self) -> list[bytes]: ...

    def receive(self, data: bytes, sender: int) -> list[bytes]: ...

    def deal(self, rules: Rules) -> Game: ...

    def sent(self) -> list[bytes]: ...


#: Builds the dealer of one game.
DealerFactory = Callable[[DealContext], "MentalDealer"]


def talon_order(players: int, deck_size: int) -> list[int]:
    """Deck positions in the order they are drawn: the talon from the card after the
    trump onwards, the trump (under the talon) last."""
    dealt = HAND * players
    if dealt >= deck_size:
        return []
    return [*range(dealt + 1, deck_size), dealt]


def trump_position(players: int, deck_size: int) -> int:
    """The position of the open trump: the card after the hands, or, when the deal
    uses every card, the last card dealt (it stays in its owner's hand)."""
    dealt = HAND * players
    return dealt if dealt < deck_size else deck_size - 1


def step_count(players: int) -> int:
    return 2 * players - 1


def step_seat(step: int, players: int) -> int:
    """Who performs deal step ``step``: shuffles 0..N-1, then locks 0..N-2."""
    return step if step < players else step - players


class MentalDealer:
    """One seat's side of one game's deal and its card custody (see the module doc)."""

    def __init__(self, context: DealContext, seed: bytes | None = None) -> None:
        n = context.players
        if not 2 <= n <= 6:
            raise ValueError(f"2 to 6 seats, not {n}")
        if not 0 <= context.seat < n:
            raise ValueError(f"no seat {context.seat} at a table of {n}")
        self.context = context
        self.n = n
        self.seat = context.seat
        self.size = context.deck_size
        self.cards = sorted(new_deck(self.size), key=lambda c: c.index)
        self._by_index: dict[int, Card] = {c.index: c for c in self.cards}
        self._derived: dict[tuple[bytes, int], bytes] = {}  # see key_of()
        if seed is None:
            seed = context.entropy(mental.SEED_BYTES)
            while not mental.seed_is_usable(  # pragma: no cover (2**-246)
                    seed, self.size, self.key_of):
                seed = context.entropy(mental.SEED_BYTES)
        if len(seed) != mental.SEED_BYTES:
            raise ValueError("a seed has 32 bytes")
        #: Our secret for this game: every key and our permutation follow from it.
        self.seed = seed
        self._began = False
        self._ready: set[int] = set()
        self._sent: list[bytes] = []
        # The deck after each step (received, or computed by us), and parts arriving.
        self.steps: dict[int, list[bytes]] = {}
        self._parts: dict[int, dict[int, list[bytes]]] = {}
        self._last = step_count(n) - 1
        # Who holds which position: the hands now, the talon as it is drawn.
        self.owner: dict[int, int] = {j: j % n for j in range(min(HAND * n, self.size))}
        self.trump_pos = trump_position(n, self.size)
        self._talon = talon_order(n, self.size)
        self._drawn = 0
        #: Keys received: (seat, position) -> key.  Our own are derived from the seed.
        self.keys: dict[tuple[int, int], bytes] = {}
        #: Positions opened to every seat (the trump, shown and played cards) -> card.
        self.opened: dict[int, Card] = {}
        #: Our own cards by position (known once every other seat's key is in).
        self.mine: dict[int, Card] = {}
        self._new_mine: list[Card] = []
        self._keys_sent: set[int] = set()
        self._partial: dict[int, bytes] = {}
        self._dealt = False
        self._awaited: set[int] = set()  # our drawn positions whose card is not known yet
        self._decl = _Declaration(finished=context.previous_durak is not None)
        self.trump_card: Card | None = None
        #: Cards opened by other seats during play: (seat, card, position, key).
        self.reveals: list[tuple[int, Card, int, bytes]] = []
        #: Seeds published for the audit, by seat.
        self.seeds: dict[int, bytes] = {}
        self._seed_sent = False
        #: The escrow of each seat's seed, our own shares of them, the shares published
        #: for a seat handed to a bot, and the seeds rebuilt from them.
        self.escrows: dict[int, Escrow] = {}
        self._my_shares: dict[int, bytes] = {}
        #: Seats whose escrow gave us a share that does not open or match its hash.
        self.bad_escrows: set[int] = set()
        self.shares: dict[int, dict[int, bytes]] = {}
        self.adopted: dict[int, bytes] = {}
        self._shares_sent: set[int] = set()

    # ================================================================ state

    @property
    def began(self) -> bool:
        """Have we agreed to deal this game?"""
        return self._began

    @property
    def heard(self) -> bool:
        """Has another seat sent anything for this game (it wants to deal it)?"""
        return bool(self._ready - {self.seat}) or bool(self.steps)

    @property
    def locked(self) -> list[bytes] | None:
        """The locked deck, once every step is done."""
        return self.steps.get(self._last)

    @property
    def done(self) -> bool:
        """Dealt: our hand and the trump are known and the first attacker is settled."""
        if not self._dealt:
            self._dealt = (
                self._began
                and self.trump_card is not None
                and self._hand_known()
                and self._decl.finished
            )
        return self._dealt

    @property
    def first_attacker(self) -> int | None:
        """Who showed the lowest trump (seat 0 when nobody holds one); None in a match
        game with a previous durak, where the rules decide."""
        if self.context.previous_durak is not None:
            return None
        return self._decl.attacker if self._decl.attacker is not None else 0

    @property
    def trump_answers(self) -> dict[int, dict[int, Trump]]:
        """The answers of the rounds that settled the first attack: round -> seat -> answer."""
        return self._decl.answers

    @property
    def shown_trump(self) -> tuple[int, Card] | None:
        """The seat that showed the lowest trump, and the card."""
        if self._decl.attacker is None or self._decl.card is None:
            return None
        return self._decl.attacker, self._decl.card

    def _hand_positions(self) -> list[int]:
        """Our positions in the deal (before any draw)."""
        return [j for j in range(self.seat, min(HAND * self.n, self.size), self.n)]

    def _hand_known(self) -> bool:
        return all(j in self.mine for j in self._hand_positions())

    # ================================================================ messages

    def _send(self, message: DealMessage) -> bytes:
        data = encode(message)
        self._sent.append(data)
        return data

    def sent(self) -> list[bytes]:
        """Every message sent so far (resent to a peer that restarted)."""
        return list(self._sent)

    def begin(self) -> list[bytes]:
        """We agree to deal: our Ready, and our first step if it is due (idempotent)."""
        if self._began:
            return []
        self._began = True
        self._ready.add(self.seat)
        out = [self._send(Ready())]
        if self.context.box_public:
            out.append(self._send(self._escrow()))
        out += self._advance()
        return out

    def receive(self, data: bytes, sender: int) -> list[bytes]:
        """A message from seat ``sender``; returns messages to send.

        Raises :class:`DealFault` naming ``sender`` when the message breaks the deal.
        """
        if not 0 <= sender < self.n or sender == self.seat:
            raise DealFault(sender, "protocol", Note.of("deal_as_itself"))
        try:
            message = decode(data)
        except ValueError as exc:
            raise DealFault(sender, "protocol", Note.of("deal_unreadable",
                                                         reason=str(exc))) from None
        if isinstance(message, Ready):
            self._ready.add(sender)
            return self._advance()
        if isinstance(message, Pass):
            self._on_pass(message, sender)
            return self._advance()
        if isinstance(message, Keys):
            self._on_keys(message, sender)
            return self._advance()
        if isinstance(message, Trump):
            self._on_trump(message, sender)
            return self._advance()
        if isinstance(message, Escrow):
            self._on_escrow(message, sender)
            return []
        if isinstance(message, Share):
            self._on_share(message, sender)
            return []
        self._on_seed(message, sender)
        return []

    # ------------------------------------------------------------ the steps

    def _on_pass(self, msg: Pass, sender: int) -> None:
        if msg.step > self._last or step_seat(msg.step, self.n) != sender:
            raise DealFault(sender, "protocol", Note.of(
                "deal_step_of", step=msg.step, seat=Seat(step_seat(msg.step, self.n))))
        parts = -(-self.size // PER_MESSAGE)
        if msg.parts != parts or msg.part >= parts:
            raise DealFault(sender, "protocol", Note.of(
                "deal_step_parts", step=msg.step, parts=msg.parts))
        expected = min(PER_MESSAGE, self.size - msg.part * PER_MESSAGE)
        if len(msg.points) != expected:
            raise DealFault(sender, "protocol", Note.of(
                "deal_part_size", part=msg.part, step=msg.step, count=len(msg.points),
                expected=expected))
        got = self._parts.setdefault(msg.step, {})
        if msg.step in self.steps or msg.part in got:
            old = self.steps.get(msg.step)
            first = msg.part * PER_MESSAGE
            before = old[first : first + expected] if old is not None else got[msg.part]
            if before != list(msg.points):
                raise DealFault(sender, "protocol", Note.of("deal_step_twice", step=msg.step))
            return
        got[msg.part] = list(msg.points)
        if len(got) < parts:
            return
        deck = [p for i in range(parts) for p in got[i]]
        del self._parts[msg.step]
        sodium = mental.sodium()
        if not all(sodium.crypto_core_ristretto255_is_valid_point(p) for p in deck):
            raise DealFault(sender, "bad_pass", Note.of("deal_not_points", step=msg.step))
        if len(set(deck)) != len(deck):
            raise DealFault(sender, "duplicate_card", Note.of("duplicate_step", step=msg.step))
        self.steps[msg.step] = deck

    def _compute(self, step: int) -> list[bytes]:
        if step == 0:
            source = mental.initial_deck(self.size, [c.index for c in self.cards])
        else:
            source = self.steps[step - 1]
        if step < self.n - 1:
            return mental.shuffle_pass(self.seed, source)
        if step == self.n - 1:
            return mental.shuffle_lock_pass(self.seed, source)
        return mental.lock_pass(self.seed, source)

    def _advance(self) -> list[bytes]:
        """Do whatever has become possible: our steps, our keys, the trump rounds."""
        out: list[bytes] = []
        if not self._began:
            return out
        for step in (self.seat, self.n + self.seat):
            if step > self._last or step in self.steps:
                continue
            if step > 0 and step - 1 not in self.steps:
                continue
            deck = self._compute(step)
            self.steps[step] = deck
            parts = -(-self.size // PER_MESSAGE)
            for part in range(parts):
                chunk = deck[part * PER_MESSAGE : (part + 1) * PER_MESSAGE]
                out.append(self._send(Pass(step, part, parts, chunk)))
        if self.locked is None:
            return out
        if not self._keys_sent:
            # Our keys for every card dealt to another seat, and for the open trump.
            wanted = [j for j, s in sorted(self.owner.items()) if s != self.seat]
            if self.trump_pos not in wanted:
                wanted.append(self.trump_pos)
            out += self._publish(wanted)
        self._learn()
        self._prepare([j for j, s in self.owner.items() if s != self.seat])
        out += self._trump_round()
        return out

    def _prepare(self, positions: list[int]) -> None:
        """Work out, ahead of time, what checking another seat's card at these positions
        needs (so a card played is checked with one multiplication)."""
        locked = self.locked
        if locked is None:
            return
        for j in positions:
            holder = self.owner.get(j)
            if holder is None or holder == self.seat or j in self._partial or j in self.opened:
                continue
            others = self._others_keys(j, holder)
            if others is not None:
                self._partial[j] = mental.unlock(locked[j], others)

    def _publish(self, positions: list[int]) -> list[bytes]:
        """Our keys for ``positions`` (each published once)."""
        fresh = [j for j in positions if j not in self._keys_sent]
        self._keys_sent.update(fresh)
        out = []
        for i in range(0, len(fresh), PER_MESSAGE):
            chunk = fresh[i : i + PER_MESSAGE]
            keys = [self.key_of(self.seed, j) for j in chunk]
            out.append(self._send(Keys(chunk, keys)))
        return out

    def _on_keys(self, msg: Keys, sender: int) -> None:
        if len(msg.positions) != len(msg.keys) or len(set(msg.positions)) != len(msg.positions):
            raise DealFault(sender, "protocol", Note.of("keys_unmatched"))
        for j, key in zip(msg.positions, msg.keys, strict=True):
            if j >= self.size:
                raise DealFault(sender, "protocol", Note.of(
                    "key_outside_deck", position=j, size=self.size))
            old = self.keys.get((sender, j))
            if old is not None and old != key:
                raise DealFault(sender, "protocol", Note.of("two_keys", position=j))
            self.keys[(sender, j)] = key

    def key_of(self, seed: bytes, position: int) -> bytes:
        """``mental.card_key(seed, position)``, derived once per game: the deal, the
        reveals and the audit ask for the same keys again and again (the audit for each
        of every seat's, up to four times), and each is a keyed hash and a reduction."""
        key = self._derived.get((seed, position))
        if key is None:
            key = self._derived[(seed, position)] = mental.card_key(seed, position)
        return key

    def _others_keys(self, position: int, holder: int) -> list[bytes] | None:
        """Every seat's key for ``position`` except ``holder``'s (None while one is missing)."""
        out = []
        for s in range(self.n):
            if s == holder:
                continue
            if s == self.seat:
                out.append(self.key_of(self.seed, position))
                continue
            key = self.keys.get((s, position))
            if key is None:
                return None
            out.append(key)
        return out

    def _learn(self) -> None:
        """Open what the keys received allow: the trump, our own cards."""
        locked = self.locked
        if locked is None:
            return
        if self.trump_card is None:
            keys = self._others_keys(self.trump_pos, -1)
            if keys is not None:
                self.trump_card = self._open(locked[self.trump_pos], keys, self.trump_pos)
                self.opened[self.trump_pos] = self.trump_card
        for j, s in self.owner.items():
            if s != self.seat or j in self.mine:
                continue
            if j in self.opened:
                card = self.opened[j]
            else:
                keys = self._others_keys(j, self.seat)
                if keys is None:
                    continue
                keys.append(self.key_of(self.seed, j))
                card = self._open(locked[j], keys, j)
            self.mine[j] = card
            if j >= HAND * self.n:
                self._new_mine.append(card)

    def _open(self, point: bytes, keys: list[bytes], position: int) -> Card:
        try:
            index = mental.open_card(point, keys)
        except mental.MentalError:
            culprit = self._blame_key(position)
            raise DealFault(culprit, "bad_key", Note.of("key_opens_nothing",
                                                         position=position)) from None
        card = self._by_index.get(index)
        if card is None:
            raise DealFault(self._blame_key(position), "bad_key",
                            Note.of("key_opens_outside", position=position))
        return card

    def _blame_key(self, position: int) -> int:
        """Whom to name when keys do not open a card: the lowest other seat that sent one
        (the audit settles who it really was)."""
        for s in range(self.n):
            if s != self.seat and (s, position) in self.keys:
                return s
        return (self.seat + 1) % self.n

    # ------------------------------------------------------ the first attack

    def _trump_rank(self, round_no: int) -> int:
        return min(c.rank for c in self.cards) + round_no

    def _trump_round(self) -> list[bytes]:
        """Answer round after round once our hand is known (rank by rank, lowest first),
        as long as every seat has answered the round before with "no"."""
        decl = self._decl
        if decl.finished or self.trump_card is None or not self._hand_known():
            return []
        out: list[bytes] = []
        while not decl.finished:
            answers = decl.answers.setdefault(decl.round, {})
            if self.seat not in answers:
                message = self._trump_answer(decl.round)
                answers[self.seat] = message
                out.append(self._send(message))
            if len(answers) < self.n:
                break
            self._settle_round(answers)
        return out

    def _trump_answer(self, round_no: int) -> Trump:
        """Our answer to a round: the trump of its rank, opened, or "not held"."""
        assert self.trump_card is not None
        rank = self._trump_rank(round_no)
        held = [j for j in self._hand_positions()
                if self.mine[j].suit == self.trump_card.suit and self.mine[j].rank == rank]
        if held and held[0] in self.opened:  # the open trump, dealt to us
            return Trump(round_no, held[0])
        if held:
            return Trump(round_no, held[0], self.key_of(self.seed, held[0]))
        return Trump(round_no, -1)

    def _settle_round(self, answers: dict[int, Trump]) -> None:
        decl = self._decl
        yes = sorted((s, m) for s, m in answers.items() if m.position >= 0)
        if yes:
            if len(yes) > 1:
                s, _ = yes[1]
                raise DealFault(s, "bad_trump", Note.of("same_trump", seat=Seat(yes[0][0])))
            s, m = yes[0]
            decl.card = self._trump_shown(s, m)
            decl.attacker = s
            decl.finished = True
            return
        decl.round += 1
        if self._trump_rank(decl.round) > 14:
            decl.finished = True  # nobody holds a trump: seat 0 attacks first

    def _trump_shown(self, seat: int, msg: Trump) -> Card:
        assert self.trump_card is not None
        if seat == self.seat:
            card = self.mine[msg.position]
        else:
            opened = self.opened.get(msg.position)
            if opened is not None and not msg.key and self.owner.get(msg.position) == seat:
                card = opened  # the open trump card, which the deal gave to that seat
            else:
                card = self._check_reveal(seat, msg.position, msg.key)
            rank = self._trump_rank(msg.round)
            if card.suit != self.trump_card.suit or card.rank != rank:
                raise DealFault(seat, "bad_trump", Note.of(
                    "wrong_trump_shown", card=card, trump=Card(rank, self.trump_card.suit)))
            if msg.key:
                self.reveals.append((seat, card, msg.position, msg.key))
        self.opened[msg.position] = card
        return card

    def _on_trump(self, msg: Trump, sender: int) -> None:
        decl = self._decl
        if self.context.previous_durak is not None:
            raise DealFault(sender, "protocol", Note.of("trump_round_unasked"))
        answers = decl.answers.setdefault(msg.round, {})
        old = answers.get(sender)
        if old is not None:
            if old != msg:
                raise DealFault(sender, "protocol", Note.of("two_trump_answers"))
            return  # a copy resent after a restart
        if msg.round > decl.round + 1 or (decl.finished and msg.round > decl.round):
            raise DealFault(sender, "protocol", Note.of(
                "trump_round_early", round=msg.round, current=decl.round))
        if msg.position >= 0 and (len(msg.key) not in (0, 32)
                                  or self.owner.get(msg.position) != sender
                                  or msg.position >= HAND * self.n):
            raise DealFault(sender, "not_held", Note.of("showed_other_card", position=msg.position))
        answers[sender] = msg

    # ================================================================ play

    def deal(self, rules: Rules) -> Game:
        """Our seat's view of the dealt game (the hands of others hidden)."""
        if not self.done:
            raise RuntimeError("the deal is not complete")
        assert self.trump_card is not None
        n = self.n
        if self.context.previous_durak is not None:
            defender = self.context.previous_durak
            attacker = (defender - 1) % n
        else:
            attacker = self.first_attacker or 0
            defender = (attacker + 1) % n
        dealt = HAND * n
        known: list[list[str]] = [[] for _ in range(n)]
        if dealt >= self.size:  # the last card dealt shows trump, in its owner's hand
            known[self.owner[self.trump_pos]].append(str(self.trump_card))
        talon = max(self.size - dealt, 0)
        observation = {
            "seat": self.seat,
            "rules": rules.to_dict(),
            "trump_card": str(self.trump_card),
            "hand": [str(self.mine[j]) for j in self._hand_positions()],
            "hands": [{"count": HAND, "known": known[s]} for s in range(n)],
            "table": [],
            "attacker": attacker,
            "defender": defender,
            "taking": False,
            "passed": [],
            "shown": [],
            "defender_start": HAND,
            "talon": talon,
            "discarded": [],
            "active": list(range(n)),
            "out": [],
            "bouts": 0,
            "over": False,
            "durak": None,
            "losers": [],
        }
        view = Game.from_observation(observation)
        shown = self.shown_trump
        if shown is not None and shown[0] != self.seat and shown[1] not in view.hand(shown[0]):
            view.reveal(shown[0], [shown[1]])
        self._new_mine = []
        return view

    def hidden_position(self, card: Card) -> int | None:
        """The position of one of our cards that the others have not seen opened."""
        for j, c in self.mine.items():
            if c is card and j not in self.opened:
                return j
        return None

    def reveal(self, card: Card, commit: bool = True) -> Reveal | None:
        """Open one of our cards to everyone (we play or show it); None when it is
        already known to all (picked up, or opened before).  ``commit=False``: only the
        reveal, for a proposal that may be refused (the card is opened when the move is
        in the log: :meth:`reveal` again)."""
        j = self.hidden_position(card)
        if j is None:
            return None
        if commit:
            self.opened[j] = card
        return Reveal(j, self.key_of(self.seed, j))

    def check_reveal(self, seat: int, card: Card, reveal: Reveal, commit: bool = True) -> None:
        """Seat ``seat`` opens ``card`` from ``reveal.position`` (it plays or shows it).

        Raises :class:`DealFault` unless the position is one of that seat's unopened
        cards and the key opens exactly ``card`` there.  ``commit=False``: check only
        (a proposal that may yet be refused); :meth:`commit_reveal` when it is logged.
        """
        j = reveal.position
        partial = self._partial_for(seat, j)
        if len(reveal.key) != 32 or not mental.opens_to(partial, reveal.key, card.index):
            opened = self._check_reveal(seat, j, reveal.key)  # raises if no card at all
            raise DealFault(seat, "not_held", Note.of(
                "played_not_held", card=card, position=j, opened=opened))
        if commit:
            self.commit_reveal(seat, card, reveal)

    def commit_reveal(self, seat: int, card: Card, reveal: Reveal) -> None:
        """A checked reveal is in the log: the card is open to everyone from now on."""
        self.opened[reveal.position] = card
        self.reveals.append((seat, card, reveal.position, reveal.key))

    def _partial_for(self, seat: int, position: int) -> bytes:
        """The locked point at ``position`` with every key but its holder's removed."""
        if self.locked is None or not 0 <= position < self.size:
            raise DealFault(seat, "protocol", Note.of("opened_outside", position=position))
        if self.owner.get(position) != seat or position in self.opened:
            raise DealFault(seat, "not_held", Note.of("opened_not_hidden", position=position))
        partial = self._partial.get(position)
        if partial is None:
            others = self._others_keys(position, seat)
            if others is None:
                raise DealFault(seat, "protocol", Note.of("opened_early", position=position))
            partial = mental.unlock(self.locked[position], others)
            self._partial[position] = partial
        return partial

    def _check_reveal(self, seat: int, position: int, key: bytes) -> Card:
        """The card ``seat`` opens with ``key`` at ``position`` (a :class:`DealFault` when
        the position is not its hidden card or the key opens nothing)."""
        partial = self._partial_for(seat, position)
        if len(key) != 32:
            raise DealFault(seat, "protocol", Note.of("key_size"))
        try:
            card = self._by_index.get(mental.open_card(partial, [key]))
        except mental.MentalError:
            card = None
        if card is None:
            raise DealFault(seat, "bad_key", Note.of("key_opens_nothing", position=position))
        return card

    def drawn(self, seat: int, count: int) -> list[bytes]:
        """Seat ``seat`` drew ``count`` cards from the talon (in the log's order);
        returns our keys for them when they are another seat's."""
        positions = self._talon[self._drawn : self._drawn + count]
        if len(positions) != count:
            raise RuntimeError(f"seat {seat} drew {count} cards from a talon of "
                               f"{len(self._talon) - self._drawn}")
        self._drawn += count
        for j in positions:
            self.owner[j] = seat
        if seat == self.seat:
            self._awaited.update(positions)
            self._learn()
            return []
        out = self._publish([j for j in positions if j != self.trump_pos])
        self._prepare(positions)
        return out

    @property
    def waiting_for_cards(self) -> bool:
        """Have we drawn cards whose keys have not all arrived?"""
        if self._awaited:
            self._awaited = {j for j in self._awaited if j not in self.mine}
        return bool(self._awaited)

    def new_cards(self) -> list[Card]:
        """Our drawn cards opened since the last call (the session reveals them to our view)."""
        self._learn()
        out, self._new_mine = self._new_mine, []
        return [c for c in out if c is not self.trump_card]

    # ================================================================ audit

    def publish_seed(self) -> list[bytes]:
        """Our seed, for the audit (once the game is over or stopped)."""
        if self._seed_sent:
            return []
        self._seed_sent = True
        self.seeds[self.seat] = self.seed
        return [self._send(Seed(self.seed))]

    def _on_seed(self, msg: Seed, sender: int) -> None:
        old = self.seeds.get(sender)
        if old is not None and old != msg.seed:
            raise DealFault(sender, "protocol", Note.of("two_seeds"))
        self.seeds[sender] = msg.seed

    @property
    def seeds_in(self) -> bool:
        return len(self.seeds) == self.n

    # ================================================================ escrow

    def _escrow(self) -> Escrow:
        """Our seed in escrow: a share sealed for each other seat (see escrow.py)."""
        ctx = self.context
        others = [s for s in range(self.n) if s != self.seat]
        shares = escrow.split(self.seed, self.n, others)
        sealed = [b""] * self.n
        commits = [b""] * self.n
        for s, share in shares.items():
            sealed[s] = escrow.seal(share, escrow.nonce(ctx.sid, ctx.game, self.seat, s),
                                    ctx.box_public[s], ctx.box_secret)
            commits[s] = escrow.commitment(share)
        return Escrow(sealed, commits, escrow.seed_check(ctx.sid, ctx.game, self.seat,
                                                         self.seed))

    def _on_escrow(self, msg: Escrow, sender: int) -> None:
        ctx = self.context
        if not ctx.box_public:
            raise DealFault(sender, "protocol", Note.of("escrow_of_two"))
        if len(msg.shares) != self.n or len(msg.commits) != self.n:
            raise DealFault(sender, "protocol", Note.of("escrow_size", count=len(msg.shares)))
        for s in range(self.n):
            own = s == sender
            if own != (not msg.shares[s]) or own != (not msg.commits[s]) or (
                    not own and (len(msg.shares[s]) != escrow.SEALED_BYTES
                                 or len(msg.commits[s]) != 32)):
                raise DealFault(sender, "protocol", Note.of("escrow_malformed", seat=Seat(s)))
        old = self.escrows.get(sender)
        if old is not None:
            if old != msg:
                raise DealFault(sender, "protocol", Note.of("two_escrows"))
            return
        self.escrows[sender] = msg
        share = escrow.unseal(msg.shares[self.seat],
                              escrow.nonce(ctx.sid, ctx.game, sender, self.seat),
                              ctx.box_public[sender], ctx.box_secret)
        if share is None or escrow.commitment(share) != msg.commits[self.seat]:
            self.bad_escrows.add(sender)  # its seed cannot be rebuilt: no hand-over
        else:
            self._my_shares[sender] = share

    def can_rebuild(self, seat: int) -> bool:
        """Could the others rebuild ``seat``'s seed (its escrow is in and opened for us)?"""
        return seat in self._my_shares or seat in self.adopted

    def share(self, seat: int) -> list[bytes]:
        """Our share of ``seat``'s seed, published (the seat goes to a bot)."""
        if seat in self._shares_sent or seat not in self._my_shares:
            return []
        self._shares_sent.add(seat)
        share = self._my_shares[seat]
        self.shares.setdefault(seat, {})[self.seat] = share
        out = [self._send(Share(seat, share))]
        self._maybe_adopt(seat)
        return out

    def _on_share(self, msg: Share, sender: int) -> None:
        seat = msg.seat
        if seat == sender or not 0 <= seat < self.n:
            raise DealFault(sender, "protocol", Note.of("share_of", seat=Seat(seat)))
        escrowed = self.escrows.get(seat) if seat != self.seat else None
        if seat != self.seat and escrowed is None:
            raise DealFault(sender, "protocol", Note.of("share_unescrowed", seat=Seat(seat)))
        if seat == self.seat:
            expected = escrow.split(self.seed, self.n,
                                    [s for s in range(self.n) if s != self.seat])[sender]
            ok = msg.share == expected
        else:
            assert escrowed is not None
            ok = escrow.commitment(msg.share) == escrowed.commits[sender]
        if not ok:
            raise DealFault(sender, "bad_share", Note.of("share_wrong", seat=Seat(seat)))
        old = self.shares.setdefault(seat, {}).get(sender)
        if old is not None and old != msg.share:
            raise DealFault(sender, "protocol", Note.of("two_shares"))
        self.shares[seat][sender] = msg.share
        self._maybe_adopt(seat)

    def _maybe_adopt(self, seat: int) -> None:
        """Every other seat's share of ``seat``'s seed is in: rebuild it, check it, and
        from now on know every key of that seat (its hand is open to us)."""
        got = self.shares.get(seat, {})
        if seat in self.adopted or len(got) < self.n - 1:
            return
        seed = escrow.combine(got.values())
        if seat == self.seat:
            self.adopted[seat] = seed  # our own seed, opened by the others
            return
        ctx = self.context
        escrowed = self.escrows[seat]
        if escrow.seed_check(ctx.sid, ctx.game, seat, seed) != escrowed.check or (
            not mental.seed_is_usable(seed, self.size, self.key_of)
        ):
            raise DealFault(seat, "bad_escrow", Note.of("escrow_not_seed"))
        for (s, j), key in self.keys.items():
            if s == seat and key != self.key_of(seed, j):
                raise DealFault(seat, "bad_escrow", Note.of("escrow_other_seed"))
        self.adopted[seat] = seed
        old = self.seeds.get(seat)
        if old is not None and old != seed:  # pragma: no cover (its keys already matched)
            raise DealFault(seat, "bad_escrow", Note.of("seed_not_escrowed"))
        self.seeds[seat] = seed
        for j in range(self.size):
            self.keys.setdefault((seat, j), self.key_of(seed, j))
        self._partial = {}
        self._learn()
        self._prepare([j for j, s in self.owner.items() if s != self.seat])

    def hand_of(self, seat: int) -> list[Card]:
        """The cards dealt or drawn to a seat whose seed was rebuilt, not yet played
        (its open hand); [] for another seat."""
        seed = self.adopted.get(seat)
        locked = self.locked
        if seed is None or locked is None or seat == self.seat:
            return []
        out = []
        for j, s in sorted(self.owner.items()):
            if s != seat or j in self.opened:
                continue
            keys = self._others_keys(j, seat)
            if keys is None:
                continue  # drawn, and another seat's key is still on its way
            out.append(self._open(locked[j], [*keys, self.key_of(seed, j)], j))
        return out

    def reveal_for(self, seat: int, card: Card) -> Reveal | None:
        """The reveal that opens ``card`` of a seat whose seed was rebuilt (the host's bot
        plays it); None when the card is already open to everyone."""
        seed = self.adopted.get(seat)
        locked = self.locked
        if seed is None or locked is None:
            return None
        for j, s in sorted(self.owner.items()):
            if s != seat or j in self.opened:
                continue
            keys = self._others_keys(j, seat)
            if keys is not None and self._open(locked[j], [*keys, self.key_of(seed, j)],
                                               j) is card:
                return Reveal(j, self.key_of(seed, j))
        return None

    def check_own_reveal(self, card: Card, reveal: Reveal) -> bool:
        """Is ``reveal`` our own key for one of our hidden cards, ``card`` (a bot played
        it for us while we were away)?"""
        return (self.mine.get(reveal.position) is card and reveal.position not in self.opened
                and reveal.key == self.key_of(self.seed, reveal.position))

    # ================================================================ journal

    def replay(self, messages: list[tuple[int, bytes]], began: bool) -> None:
        """Rebuild from the messages received (in order) after a restart; what we sent is
        computed again (our steps follow from our seed)."""
        if began:
            self.begin()
        for sender, data in messages:
            self.receive(data, sender)
