"""The session's side of the mental deal, one part of a seat's session: each game's
dealer, the deal messages every seat signed (kept, to pass on and to resend), when the
next game is asked for and when it is dealt, the hands that open to every seat, and the
checks of the cards a move opens.

The deal itself (steps, keys, reveals, seeds) is :class:`~durak_net.dealer.MentalDealer`'s;
this part says which dealer a message is for, signs what ours sends, checks what others
sign (the host checks a message before it passes it on: section 6 of the protocol), and
answers the session's questions about the cards of a move: which a seat could hold,
which every seat knows already, and what is wrong with the keys it opens them with.  No
I/O: the session sends the frames, journals the records and reports the events.

>>> from durak_net.identity import Identity
>>> identity = Identity.generate(lambda n: bytes([1]) * n)
>>> part = Dealing(7, 0, 2, 36, identity, lambda n: bytes([2]) * n)
>>> dealer = part.make(1, None, [identity.public, b""])
>>> {frame.seat for frame in part.sign(1, dealer.begin())}  # signed as ours
{0}
>>> part.request(game_no=0, in_game=False)  # nobody else asked for game 1
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from durak_core import Action, Attack, Card, Defend, Game, Transfer

from . import escrow
from .crypto import Entropy
from .dealer import DealContext, DealFault, MentalDealer, Reveal, Seed, decode, encode
from .gamelog import LogEntry
from .identity import Identity, verify
from .notes import Note, Seat
from .outcomes import HOST, deal_signed, forged_for
from .wire import Deal

#: Builds the dealer of one game (``seed``: restore one from the journal).
DealerFactory = Callable[[DealContext, "bytes | None"], MentalDealer]


def mental_dealer(context: DealContext, seed: bytes | None = None) -> MentalDealer:
    """The default :data:`DealerFactory`."""
    return MentalDealer(context, seed)


def action_cards(action: Action) -> list[Card]:
    """The cards an action takes out of its player's hand or shows from it."""
    if isinstance(action, Attack):
        return [action.card, *action.more]
    if isinstance(action, Defend | Transfer):
        return [action.card]
    return []


class Dealing:
    """Every game's dealer and deal messages of seat ``seat`` at table ``table`` (of
    ``players`` seats and ``deck_size`` cards), which signs with ``identity``."""

    def __init__(self, table: int, seat: int, players: int, deck_size: int,
                 identity: Identity, entropy: Entropy,
                 factory: DealerFactory = mental_dealer) -> None:
        self.table = table
        self.seat = seat
        self.players = players
        self.deck_size = deck_size
        self.identity = identity
        self.entropy = entropy
        self.factory = factory
        #: Each game's dealer, by game number.
        self.dealers: dict[int, MentalDealer] = {}
        #: Every deal message of every seat, as signed (the host resends them).
        self.deal_log: dict[int, list[Deal]] = {}
        #: Games another seat asked for that the application was told of.
        self.requested: set[int] = set()

    # ------------------------------------------------------------------ dealers

    def context(self, number: int, previous: int | None, keys: Sequence[bytes]
                ) -> DealContext:
        """What game ``number``'s dealer needs; at a table of three or more, with the
        seats' escrow keys (from their signing keys ``keys``), so a lost seat can go to
        a bot."""
        n = self.players
        box_public: tuple[bytes, ...] = ()
        box_secret = b""
        if n >= 3 and all(keys):
            box_public = tuple(escrow.box_public(k) for k in keys)
            box_secret = escrow.box_keys(self.identity.private)[1]
        return DealContext(self.table, number, self.seat, n, self.deck_size,
                           self.entropy, previous, box_public, box_secret)

    def make(self, number: int, previous: int | None, keys: Sequence[bytes],
             seed: bytes | None = None) -> MentalDealer:
        """Game ``number``'s dealer, new (``seed``: as the journal has it)."""
        dealer = self.factory(self.context(number, previous, keys), seed)
        self.dealers[number] = dealer
        return dealer

    def replay_dealer(self, number: int, previous: int | None, keys: Sequence[bytes],
                      seed: bytes) -> MentalDealer:
        """A journal's ``dealer`` record: game ``number``'s dealer, from its seed
        (``ValueError`` if the game has one already: a journal that does not replay)."""
        if number in self.dealers:
            raise ValueError(f"game {number} has two dealers")
        return self.make(number, previous, keys, seed)

    def sign(self, number: int, messages: Sequence[bytes]) -> list[Deal]:
        """Our deal messages of game ``number`` as frames, signed and kept."""
        out = []
        for data in messages:
            sig = self.identity.sign(*deal_signed(self.table, number, self.seat, data))
            frame = Deal(0, number, self.seat, data, sig)
            self.deal_log.setdefault(number, []).append(frame)
            out.append(frame)
        return out

    # ------------------------------------------------------------------ messages in

    def check(self, frame: Deal, *, link_seat: int, game_no: int, keys: Sequence[bytes]
              ) -> Note | None:
        """The protocol violation another seat's deal message is (None: none): sent as
        another seat's, by nobody or us, for a game not next nor current, or (the host,
        which passes it on) not signed by its author.  A seated player keeps the
        signature unchecked, and checks it only if the audit blames its author."""
        number, author = frame.game, frame.seat
        if self.seat == HOST and author != link_seat:
            return Note.of("deal_as_other", seat=Seat(link_seat), other=Seat(author))
        if author == self.seat or not 0 <= author < self.players:
            return Note.of("deal_bad_author")
        if number > game_no + 1 or number < 1:
            return Note.of("deal_wrong_game", game=number, current=game_no)
        if self.seat == HOST and not verify(
            keys[author], frame.sig, *deal_signed(self.table, number, author, frame.data),
        ):
            return Note.of("deal_unsigned", seat=Seat(author))
        return None

    def own_seed(self, number: int) -> Deal | None:
        """Our seed of game ``number`` as we published it for the audit (signed), if we
        have (our heartbeats carry it: section 7 of the protocol)."""
        dealer = self.dealers.get(number)
        if dealer is None or self.seat not in dealer.seeds:
            return None
        data = encode(Seed(dealer.seeds[self.seat]))
        return next((d for d in self.deal_log.get(number, [])
                     if d.seat == self.seat and d.data == data), None)

    def seed_heard(self, frame: Deal, *, seat: int, game_no: int, keys: Sequence[bytes]
                   ) -> bool | None:
        """``frame``, on seat ``seat``'s heartbeat: True if it is that seat's seed of game
        ``game_no``, signed by it, and one we still lack (straight from the seat, not
        through the host: taken as if the host had passed it on); None if it tells us
        nothing new (another game's, or a seed we have); False if it is not that seat's
        signed seed (dropped and counted)."""
        dealer = self.dealers.get(frame.game)
        if frame.game != game_no or dealer is None or seat in dealer.seeds:
            return None
        if frame.seat != seat or seat == self.seat or not 0 <= seat < self.players:
            return False
        try:
            message = decode(frame.data)
        except ValueError:
            return False
        return isinstance(message, Seed) and verify(
            keys[seat], frame.sig, *deal_signed(self.table, frame.game, seat, frame.data))

    def stale(self, number: int, game_no: int) -> bool:
        """A message of a game before ours that we never dealt: nothing to do with it."""
        return number < game_no and number not in self.dealers

    def keep(self, frame: Deal) -> None:
        """A checked message of another seat, kept (to pass on, and for the audit)."""
        self.deal_log.setdefault(frame.game, []).append(frame)

    def resend(self, number: int, peer: int) -> list[Deal]:
        """The deal messages of game ``number`` seat ``peer`` may lack after a restart:
        the host's copies of everybody's but its own; a seated player's own."""
        return [d for d in self.deal_log.get(number, [])
                if (d.seat == self.seat or self.seat == HOST) and d.seat != peer]

    def forged_for(self, number: int, seat: int, key: bytes, log: Sequence[LogEntry]
                   ) -> bool:
        """Did the host pass on, as ``seat``'s (signing key ``key``), a deal message or a
        proposal of game ``number`` that ``seat`` did not sign?"""
        return forged_for(self.table, number, seat, key, self.deal_log.get(number, []), log)

    # ------------------------------------------------------------------ next game

    def request(self, game_no: int, in_game: bool) -> int | None:
        """The next game, if another seat asked for it and we have not agreed nor told
        the application yet (once: then it is marked told)."""
        number = game_no + 1
        dealer = self.dealers.get(number)
        if (dealer is not None and not dealer.began and dealer.heard
                and number not in self.requested and not in_game):
            self.requested.add(number)
            return number
        return None

    def ready(self, number: int, game_no: int, *, stopped: bool, ending: bool
              ) -> MentalDealer | None:
        """Game ``number``'s dealer if it is dealt and the game can start now (a later
        game than ours, not stopped, and the session not ending); ``DealFault`` if the
        deal caught a seat cheating."""
        dealer = self.dealers.get(number)
        if dealer is None or number <= game_no or stopped or ending:
            return None
        return dealer if dealer.done else None

    # ------------------------------------------------------------------ open cards

    def open_hands(self, number: int, game: Game) -> Iterator[tuple[int, list[Card]]]:
        """The cards of the seats whose seed was rebuilt (handed to a bot), open to every
        seat, shown in ``game`` (our view of game ``number``) as they become known;
        yields each seat and its cards newly shown (``DealFault``: a share that does
        not check out)."""
        dealer = self.dealers.get(number)
        if dealer is None or not dealer.adopted:
            return
        for seat in sorted(dealer.adopted):
            if seat == self.seat:
                continue
            cards = dealer.hand_of(seat)
            known = set(game.hand(seat))
            fresh = [c for c in cards if c not in known]
            if fresh and game.unknown_count(seat) >= len(fresh):
                game.reveal(seat, fresh)
                yield seat, fresh

    def open_to_all(self, dealer: MentalDealer, game: Game, seat: int) -> set[Card]:
        """The cards of ``seat``'s hand every seat knows without a reveal (picked up
        from the table, shown, the open trump): what our view knows of that hand, but
        for the cards of an open hand (a seat handed to a bot) that were never opened."""
        known = set(game.hand(seat))
        if seat in dealer.adopted and seat != self.seat:
            known -= set(dealer.hand_of(seat))
        return known

    def reveal_fault(self, dealer: MentalDealer, game: Game, seat: int, action: Action,
                     reveals: Sequence[tuple[int, bytes]], commit: bool) -> DealFault | None:
        """What is wrong with the cards ``seat`` opens with ``action`` (None: nothing):
        a card it cannot hold, one not opened, a key that does not open it, or a key
        too many.  ``commit=False``: only check (a proposal, which may yet be refused)."""
        known = self.open_to_all(dealer, game, seat)
        pending = list(reveals)
        try:
            for card in action_cards(action):
                if card in known:
                    continue
                if not could_hold(game, seat, card):
                    raise DealFault(seat, "not_held", Note.of("cannot_hold", card=card))
                if not pending:
                    raise DealFault(seat, "not_held", Note.of("not_opened", card=card))
                position, key = pending.pop(0)
                dealer.check_reveal(seat, card, Reveal(position, key), commit)
            if pending:
                raise DealFault(seat, "protocol", Note.of("opened_more"))
        except DealFault as fault:
            return fault
        return None

    def commit_reveals(self, dealer: MentalDealer, game: Game, seat: int, action: Action,
                       reveals: Sequence[tuple[int, bytes]]) -> None:
        """A checked proposal is logged: its cards are open from now on."""
        known = self.open_to_all(dealer, game, seat)
        pending = list(reveals)
        for card in action_cards(action):
            if card not in known and pending:
                position, key = pending.pop(0)
                dealer.commit_reveal(seat, card, Reveal(position, key))


def could_hold(game: Game, seat: int, card: Card) -> bool:
    """Could ``seat`` hold ``card``, as ``game`` (our view) knows its hand?"""
    return card in game.hand(seat) or (game.unknown_count(seat) > 0 and card in game.unseen)
