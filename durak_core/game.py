"""The game state: who may do what now, why not, and what happens.

A :class:`Game` is its rules, its deck order and the actions applied so far.
It answers, for every seat at any moment, which actions are legal
(:meth:`Game.legal_actions`) and why any other is not (:meth:`Game.why_illegal`);
:meth:`Game.apply` changes the state only for a legal action.

The same class also holds a game *seen from one seat* (:meth:`Game.view`,
:meth:`Game.from_observation`): other hands and the talon are then partly
unknown, a hand being a mask of known cards plus a count of unknown ones.
Opponents' actions apply to such a view, unknown cards are drawn as unknown,
and :meth:`Game.determinize` deals the unknown cards at random to turn a view
into a full game, as ISMCTS needs.

>>> from durak_core import Rules, Game, Card, Attack, Take
>>> game = Game.new(Rules(), seed=7)
>>> game.attacker, game.defender, str(game.trump_card)
(1, 0, 'K♥')
>>> [str(c) for c in game.hand(1)]
['J♠', '10♦', 'J♦', 'Q♦', '9♣', '6♥']
>>> events = game.apply(Attack(1, Card.parse("9♣")))
>>> for action in game.legal_actions(0):
...     print(action)
0 defend 9♣ with J♣
0 defend 9♣ with 7♥
0 defend 9♣ with 8♥
0 defend 9♣ with 10♥
0 take
>>> game.why_illegal(Attack(0, Card.parse("7♣")))
'You are the defender: beat the attack cards or take them; you cannot attack yourself.'
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Iterable, Sequence
from typing import Any, Final, cast

from .actions import Action, Attack, Defend, Pass, Take, Transfer, parse_action
from .cards import (
    ALL_CARDS,
    BEATERS,
    RANK_MASK,
    RANK_NAMES,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    Suit,
    cards_of,
    deck_mask,
    display_key,
    mask_of,
    new_deck,
    popcount,
    ranks_of,
)
from .events import (
    Attacked,
    Defended,
    Discarded,
    Drew,
    Event,
    GameOver,
    Left,
    NewBout,
    Passed,
    PickedUp,
    TakeDeclared,
    Transferred,
)
from .rules import HAND_SIZE, Rules

_HAND_SIZE: Final = HAND_SIZE  # a constant to compiled code, not a namespace lookup

JSON_FORMAT = "durak-game"
JSON_VERSION = 1


class IllegalAction(Exception):
    """An action that the rules refuse; ``reason`` is a sentence for the player."""

    def __init__(self, reason: str, action: object = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


# Actions and events are values; the common ones are made once and shared.
_ATTACK: Final = tuple(tuple(Attack(p, c) for c in ALL_CARDS) for p in range(6))
_TRANSFER: Final = tuple(tuple(Transfer(p, c) for c in ALL_CARDS) for p in range(6))
_SHOW: Final = tuple(tuple(Transfer(p, c, True) for c in ALL_CARDS) for p in range(6))
_TAKE: Final = tuple(Take(p) for p in range(6))
_PASS: Final = tuple(Pass(p) for p in range(6))
_ATTACKED: Final = tuple(tuple(Attacked(p, (c,)) for c in ALL_CARDS) for p in range(6))
_PASSED: Final = tuple(Passed(p) for p in range(6))
_TAKEN: Final = tuple(TakeDeclared(p) for p in range(6))
_NEW_BOUT: Final = tuple(tuple(NewBout(a, d) for d in range(6)) for a in range(6))
# Each defence with its event, made when first needed: (player * 52 + attack) * 52 + card.
_DEFENCES: Final[list[tuple[Defend, Defended] | None]] = [None] * (6 * 52 * 52)
# Who may throw in depends only on a few small values (see Game._throwers):
# computed once per combination.
_THROWERS: Final[dict[int, list[int]]] = {}
_DRAW_ORDER: Final[dict[int, list[int]]] = {}
# The action classes under Final names: compiled code then reads them as constants,
# not from the module's namespace.
_ATTACK_T: Final = Attack
_DEFEND_T: Final = Defend
_TRANSFER_T: Final = Transfer
_TAKE_T: Final = Take


def _defence(p: int, a: Card, c: Card) -> tuple[Defend, Defended]:
    """``p`` beats ``a`` with ``c``: the shared action and the shared event."""
    key = (p * 52 + a.index) * 52 + c.index
    found = _DEFENCES[key]
    if found is None:
        found = _DEFENCES[key] = (Defend(p, a, c), Defended(p, a, c))
    return found


# Multi-card leads by (rank, suits held, seat, most cards): see _multi_leads.
_LEADS: Final[list[list[Action] | None]] = [None] * (15 * 16 * 6 * 8)


def _multi_leads(p: int, rank: int, group: int, most: int) -> list[Action]:
    """Every lead of 2..most cards taken from ``group`` (cards of ``rank``), made once."""
    low = group >> (rank - 2)  # the rank's cards of suits 0..3 are 13 bits apart
    suits = (low & 1) | (low >> 12 & 2) | (low >> 24 & 4) | (low >> 36 & 8)
    if most > 4:
        most = 4  # a rank has four cards: a larger limit allows nothing more
    key = ((rank * 16 + suits) * 6 + p) * 8 + most
    leads = _LEADS[key]
    if leads is None:
        cards = list(cards_of(group))
        k = len(cards)
        leads = []
        for bits in range(1, 1 << k):
            chosen = [cards[i] for i in range(k) if bits >> i & 1]
            if 2 <= len(chosen) <= most:
                leads.append(_lead_of(p, chosen))
        _LEADS[key] = leads
    return leads


# Each multi-card lead once, by seat and cards, whichever lists of _LEADS hold it: every
# legal action of a game is then one shared object per value (searches find a tree's
# actions by identity, see durak_core.tree._child).
_LEAD_OF: Final[dict[int, Action]] = {}


def _lead_of(p: int, chosen: list[Card]) -> Action:
    """The one shared lead of ``chosen`` (two or more cards of a rank, index order) by ``p``."""
    key = p << 52 | mask_of(chosen)
    found = _LEAD_OF.get(key)
    if found is None:
        found = _LEAD_OF[key] = Attack(p, chosen[0], tuple(chosen[1:]))
    return found


def _fisher_yates(rng: random.Random, items: list[Card]) -> None:
    """random.shuffle's own algorithm, compiled: the same order from the same state."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]


def _fisher_yates_matches() -> bool:
    for seed in range(4):
        ours = list(ALL_CARDS)
        theirs = list(ALL_CARDS)
        _fisher_yates(random.Random(seed), ours)
        random.Random(seed).shuffle(theirs)
        if ours != theirs:
            return False
    return True


# Deals must not depend on the build: the compiled shuffle is used only where it was
# checked to give exactly what random.Random.shuffle gives on this Python.
_FAST_SHUFFLE: Final = _fisher_yates_matches()


def _shuffle(rng: random.Random, items: list[Card]) -> None:
    if _FAST_SHUFFLE and type(rng) is random.Random:
        _fisher_yates(rng, items)
    else:
        rng.shuffle(items)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _cards_text(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


_PRIVATE: Final = object()


class Game:
    """A game of Durak, in full or as one seat sees it.  See the module docstring."""

    __slots__ = (
        "_active",
        "_att",
        "_attacker",
        "_bout_limit",
        "_bouts",
        "_cache",
        "_cap0",
        "_deck",
        "_def",
        "_defender",
        "_discard",
        "_dstart",
        "_durak",
        "_finish",
        "_hand",
        "_log",
        "_losers",
        "_n",
        "_neigh",
        "_over",
        "_passed",
        "_perev",
        "_prev_durak",
        "_public",
        "_rankmask",
        "_reason",
        "_several",
        "_shown",
        "_showopt",
        "_taking",
        "_talon",
        "_team_of",
        "_teams",
        "_thr",
        "_tmask",
        "_tpos",
        "_trump",
        "_trump_card",
        "_unk",
        "_unseen",
        "_viewer",
        "rules",
    )

    rules: Rules
    _n: int
    _trump: int
    _trump_card: Card
    _talon: tuple[Card | None, ...]
    _tpos: int
    _hand: list[int]
    _unk: list[int]
    _public: list[int]
    _att: list[Card]
    _def: list[Card | None]
    _rankmask: int
    _tmask: int
    _attacker: int
    _defender: int
    _taking: bool
    _passed: int
    _shown: int
    _dstart: int
    _discard: int
    _active: int
    _finish: list[int]
    _over: bool
    _durak: int | None
    _losers: tuple[int, ...]
    _reason: str
    _bouts: int
    _log: list[Action]
    _deck: tuple[Card, ...] | None
    _viewer: int | None
    _unseen: int
    _prev_durak: int | None
    _cache: list[list[Action] | None]
    _thr: list[int] | None
    _cap0: int
    _perev: bool
    _several: bool
    _showopt: bool
    _teams: bool
    _neigh: bool
    _bout_limit: int
    _team_of: tuple[int, ...]

    # ------------------------------------------------------------------ setup

    def __init__(self, _token: object = None) -> None:
        if _token is not _PRIVATE:
            raise TypeError("use Game.new(rules, seed=...) or Game.new(rules, deck=[...])")

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: int | None = None,
        deck: Sequence[Card] | None = None,
        previous_durak: int | None = None,
    ) -> Game:
        """Deal a new game.

        seed: shuffle the deck with ``random.Random(seed)``.
        deck: an explicit deck order instead: card ``i`` of the first ``6n``
            goes to seat ``i % n``, the next card is the trump card (it lies
            under the talon and is drawn last), the talon is drawn from the
            card after it onwards.
        previous_durak: with ``Rules(match=True)``, the durak of the previous
            game of the series: the first attack is made against them by the
            player on their right.
        """
        rules = rules if rules is not None else Rules()
        if deck is None:
            cards = new_deck(rules.deck_size)
            _shuffle(random.Random(seed), cards)
        else:
            if seed is not None:
                raise ValueError("give either seed or deck, not both")
            cards = list(deck)
            if not all(isinstance(c, Card) for c in cards):
                raise ValueError("deck must be a sequence of Card")
            if len(cards) != rules.deck_size or mask_of(cards) != deck_mask(rules.deck_size):
                raise ValueError(
                    f"deck must hold each card of the {rules.deck_size}-card deck exactly once"
                )
        if previous_durak is not None:
            if not rules.match:
                raise ValueError("previous_durak needs Rules(match=True)")
            if not 0 <= previous_durak < rules.players:
                raise ValueError(f"previous_durak must be a seat, not {previous_durak!r}")
        game = Game(_PRIVATE)
        game._setup(rules, tuple(cards), previous_durak)
        return game

    def _set_rules(self, rules: Rules) -> None:
        self.rules = rules
        self._n = rules.players
        # Rule switches read on every move, copied out of the Rules object once.
        self._cap0 = rules.limit_cap(first_bout=True)
        self._perev = rules.variant == "perevodnoy"
        self._several = rules.open_with_several
        self._showopt = rules.transfer_by_showing_trump
        self._teams = rules.teams
        self._neigh = rules.throw_in == "neighbours"
        self._bout_limit = rules.bout_limit
        self._team_of = tuple(rules.team_of(s) for s in range(rules.players))

    def _setup(self, rules: Rules, deck: tuple[Card, ...], previous_durak: int | None) -> None:
        n = rules.players
        self._set_rules(rules)
        self._n = n
        self._deck = deck
        self._prev_durak = previous_durak
        self._hand = [0] * n
        self._unk = [0] * n
        self._public = [0] * n
        dealt = _HAND_SIZE * n
        for i in range(dealt):
            self._hand[i % n] = self._hand[i % n] | deck[i].bit
        if dealt < len(deck):
            self._trump_card = deck[dealt]
            self._talon = (*deck[dealt + 1 :], deck[dealt])
        else:
            # Everything was dealt: the last card dealt shows trump, in its owner's hand.
            self._trump_card = deck[-1]
            self._talon = ()
            self._public[(dealt - 1) % n] = self._public[(dealt - 1) % n] | deck[-1].bit
        self._trump = int(self._trump_card.suit)
        self._tpos = 0
        self._att = []
        self._def = []
        self._rankmask = 0
        self._tmask = 0
        self._taking = False
        self._passed = 0
        self._shown = 0
        self._discard = 0
        self._active = (1 << n) - 1
        self._finish = []
        self._over = False
        self._durak = None
        self._losers = ()
        self._reason = ""
        self._bouts = 0
        self._log = []
        self._viewer = None
        self._unseen = 0
        self._forget()
        if previous_durak is not None:
            self._defender = previous_durak
            self._attacker = (previous_durak - 1) % n
        else:
            self._attacker = self._lowest_trump_holder()
            self._defender = (self._attacker + 1) % n
        self._dstart = self._size(self._defender)

    def _lowest_trump_holder(self) -> int:
        trumps = SUIT_MASK[self._trump]
        holder = 0
        lowest = 0  # the lowest trump seen, as its bit (a lower rank is a lower bit)
        for seat in range(self._n):
            held = self._hand[seat] & trumps
            if held:
                low = held & -held
                if not lowest or low < lowest:
                    holder, lowest = seat, low
        return holder

    # ------------------------------------------------------------ read access

    @property
    def players(self) -> int:
        return self._n

    @property
    def attacker(self) -> int:
        """The main attacker of the bout (after a transfer: the player who transferred)."""
        return self._attacker

    @property
    def defender(self) -> int:
        return self._defender

    @property
    def trump_card(self) -> Card:
        """The card turned up under the talon; its suit is trump."""
        return self._trump_card

    @property
    def trump_suit(self) -> Suit:
        return Suit(self._trump)

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        """The bout's (attack card, defence card or None) pairs, in the order played."""
        return list(zip(self._att, self._def, strict=True))

    @property
    def talon_size(self) -> int:
        return len(self._talon) - self._tpos

    @property
    def discard_size(self) -> int:
        return self._discard.bit_count()

    @property
    def discarded(self) -> list[Card]:
        """The discarded cards (face down, but every player saw them beaten)."""
        return list(cards_of(self._discard))

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def durak(self) -> int | None:
        """The loser, or None while playing and for a draw.

        With teams, the first seat of the losing team that still held cards;
        :attr:`losers` names the whole team.
        """
        return self._durak

    @property
    def losers(self) -> tuple[int, ...]:
        """The durak, or with teams every seat of the losing team; () for a draw."""
        return self._losers

    @property
    def end_reason(self) -> str:
        return self._reason

    @property
    def finish_order(self) -> list[int]:
        """Seats that went out (safe), in the order they left."""
        return list(self._finish)

    @property
    def active_players(self) -> list[int]:
        """Seats still in the game (holding cards or able to draw)."""
        return [s for s in range(self._n) if self._active >> s & 1]

    @property
    def taking(self) -> bool:
        """Whether the defender has declared take in this bout."""
        return self._taking

    @property
    def passed(self) -> list[int]:
        """Seats that passed since the table last changed."""
        return [s for s in range(self._n) if self._passed >> s & 1]

    @property
    def bouts(self) -> int:
        """Bouts finished so far."""
        return self._bouts

    @property
    def log(self) -> list[Action]:
        """The actions applied so far, in order: with the rules and deck, a replay."""
        return list(self._log)

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The deck order the game was dealt from (None for a seat's view)."""
        return self._deck

    @property
    def viewer(self) -> int | None:
        """The seat this game is seen from, or None for the full game."""
        return self._viewer

    @property
    def limit(self) -> int:
        """How many attack cards this bout may hold in all."""
        return min(self.rules.limit_cap(self._discard == 0), self._dstart)

    def hand(self, player: int) -> list[Card]:
        """A player's cards, sorted as players hold them (by suit, trumps last, then rank).

        In a seat's view, only the cards that seat knows of.
        """
        self._check_seat(player)
        return sorted(cards_of(self._hand[player]), key=lambda c: display_key(c, self._trump))

    def hand_size(self, player: int) -> int:
        return self._size(player)

    def known_cards(self, player: int) -> list[Card]:
        """Cards of ``player`` that every seat knows of (picked up or drawn in the open)."""
        return list(cards_of(self._public[player]))

    def throwers(self) -> list[int]:
        """Seats that may throw in this bout (ignoring which cards they hold)."""
        return list(self._throwers())

    # ---------------------------------------------------------------- helpers

    def _size(self, p: int) -> int:
        return popcount(self._hand[p]) + self._unk[p]

    def _unbeaten(self) -> int:
        """How many attack cards on the table are not beaten yet."""
        # The table mask holds each attack card and each defence once.
        return 2 * len(self._att) - popcount(self._tmask)

    def _cards(self, p: int) -> int:
        """The cards ``p`` may hold: known ones, plus every unseen card if some are unknown."""
        if self._unk[p]:
            return self._hand[p] | self._unseen
        return self._hand[p]

    def _holds(self, p: int, card: Card) -> bool:
        return bool(self._hand[p] & card.bit) or bool(self._unk[p] and self._unseen & card.bit)

    def _remove(self, p: int, card: Card) -> None:
        # Written out as `x[p] = x[p] ^ bit`: compiled, `x[p] ^= bit` is generic
        # (boxed) arithmetic, the written-out form is native.
        bit = card.bit
        hands = self._hand
        hand = hands[p]
        if hand & bit:
            hands[p] = hand ^ bit
            public = self._public
            if public[p] & bit:
                public[p] = public[p] ^ bit
        else:
            self._unk[p] = self._unk[p] - 1
            self._unseen ^= bit

    def _team(self, seat: int) -> int:
        return self._team_of[seat]

    def _next_active(self, seat: int) -> int | None:
        n = self._n
        for k in range(1, n):
            s = (seat + k) % n
            if self._active >> s & 1:
                return s
        return None

    def _next_opponent(self, seat: int) -> int | None:
        """The next seat clockwise still in the game and not on ``seat``'s team."""
        n = self._n
        team = self._team(seat)
        for k in range(1, n):
            s = (seat + k) % n
            if self._active >> s & 1 and self._team(s) != team:
                return s
        return None

    def _throwers(self) -> list[int]:
        """Who may throw in this bout; kept in ``_thr`` until the seats change (every
        change of attacker, defender or active seats sets ``_thr`` to None)."""
        found = self._thr
        if found is not None:
            return found
        key = (self._n << 2 | self._teams << 1 | self._neigh) << 12 | (
            self._attacker * 6 + self._defender
        ) << 6 | self._active
        found = _THROWERS.get(key)
        if found is None:
            found = _THROWERS[key] = self._compute_throwers()
        self._thr = found
        return found

    def _compute_throwers(self) -> list[int]:
        d = self._defender
        n = self._n
        active = self._active
        teams = self._teams
        dteam = self._team(d)
        if self._neigh:
            out = []
            a = self._attacker
            if a != d and active >> a & 1 and not (teams and self._team(a) == dteam):
                out.append(a)
            for k in range(1, n):
                s = (d + k) % n
                if active >> s & 1:
                    if s != a and not (teams and self._team(s) == dteam):
                        out.append(s)
                    break
            return out
        a = self._attacker
        return [
            s
            for s in ((a + k) % n for k in range(n))
            if s != d and active >> s & 1 and not (teams and self._team(s) == dteam)
        ]

    def _limit(self) -> int:
        cap = 6 if self._discard else self._cap0
        return cap if cap < self._dstart else self._dstart

    # ----------------------------------------------------------- legal moves

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """What ``player`` may do now; with no argument, every seat's actions (by seat).

        In a seat's view, an opponent's list names every action they *might*
        have (their unknown cards could be any unseen card).
        """
        if player is None:
            out = self._legal(0) + self._legal(1)  # a new list, made once
            for p in range(2, self._n):
                out += self._legal(p)
            return out
        self._check_seat(player)
        return list(self._legal(player))

    def _check_seat(self, seat: int) -> None:
        """Refuse anything but a seat of this table, with the same sentence everywhere."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise ValueError(f"no seat {seat!r} in a {self._n}-player game")

    def automatic_actions(self) -> list[Action]:
        """Passes that nobody needs to click: seats whose only legal action is Pass.

        A player who cannot throw in counts as having passed.  The engine
        decides that by itself when it is public (no cards left, the limit
        reached); when it depends on the hand, the hand's owner passes, and a
        user interface or a bot can apply these without asking.
        """
        out: list[Action] = []
        for p in range(self._n):
            if self._unk[p]:
                continue
            legal = self._legal(p)
            if len(legal) == 1 and type(legal[0]) is Pass:
                out.append(legal[0])
        return out

    def _legal(self, p: int) -> list[Action]:
        cached = self._cache[p]
        if cached is not None:
            return cached
        res: list[Action] = []
        self._cache[p] = res
        if self._over or not self._active >> p & 1:
            return res
        att = self._att
        if p == self._defender:
            if att and not self._taking:
                self._defender_moves(p, res)
            return res
        for s in self._throwers():  # (`p in` compiles to a generic comparison per item)
            if s == p:
                break
        else:
            return res
        hand = self._hand[p]
        if self._unk[p]:
            hand |= self._unseen
        if not att:
            if p == self._attacker:
                self._opening_moves(p, hand, res)
            return res
        if len(att) >= self._limit() or not (self._hand[p] or self._unk[p]):
            return res
        m = hand & self._rankmask
        if m:
            attack = _ATTACK[p]
            while m:
                low = m & -m
                res.append(attack[low.bit_length() - 1])
                m ^= low
        if not self._passed >> p & 1 and (self._taking or not self._unbeaten()):
            res.append(_PASS[p])
        return res

    def _opening_moves(self, p: int, hand: int, res: list[Action]) -> None:
        attack = _ATTACK[p]
        m = hand
        while m:
            low = m & -m
            res.append(attack[low.bit_length() - 1])
            m ^= low
        if self._several:
            limit = self._limit()
            if limit > 1:
                # Ranks held at least twice: any two suits' rank rows overlap there.
                s0 = hand & 0x1FFF
                s1 = hand >> 13 & 0x1FFF
                s2 = hand >> 26 & 0x1FFF
                s3 = hand >> 39
                pairs = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
                while pairs:
                    low = pairs & -pairs
                    rank = low.bit_length() + 1
                    res += _multi_leads(p, rank, hand & RANK_MASK[rank], limit)
                    pairs ^= low

    def _defender_moves(self, p: int, res: list[Action]) -> None:
        hand = self._hand[p]
        if self._unk[p]:
            hand |= self._unseen
        beaters = BEATERS[self._trump]
        att = self._att
        defs = self._def
        unbeaten = False
        beaten = False
        for i in range(len(att)):
            if defs[i] is None:
                unbeaten = True
                a = att[i]
                m = hand & beaters[a.index]
                while m:
                    low = m & -m
                    res.append(_defence(p, a, ALL_CARDS[low.bit_length() - 1])[0])
                    m ^= low
            else:
                beaten = True
        if not beaten and self._perev:
            rank = self._att[0].rank
            if self._rankmask == RANK_MASK[rank]:
                nd = self._next_opponent(p)
                count = len(self._att)
                nsize = -1 if nd is None else self._size(nd)
                cap = 6 if self._discard else self._cap0
                if count < cap and nsize > count:
                    m = hand & RANK_MASK[rank]
                    while m:
                        low = m & -m
                        res.append(_TRANSFER[p][low.bit_length() - 1])
                        m ^= low
                if self._showopt and nsize >= count:
                    tc = Card(rank, self._trump)
                    if hand & tc.bit and not self._shown & tc.bit:
                        res.append(_SHOW[p][tc.index])
        if unbeaten:
            res.append(_TAKE[p])

    # --------------------------------------------------------------- reasons

    def why_illegal(self, action: object) -> str | None:
        """None if ``action`` is legal now, else a sentence a player understands.

        >>> from durak_core import Rules, Game, Card, Take
        >>> Game.new(Rules(), seed=7).why_illegal(Take(0))
        'There is nothing on the table to take yet.'
        """
        if not isinstance(action, (Attack, Defend, Transfer, Take, Pass)):
            if isinstance(action, str):
                return (
                    f"{action!r} is text, not an action: read it with "
                    f"parse_action({action!r}) first."
                )
            return f"{action!r} is not an action (Attack, Defend, Transfer, Take or Pass)."
        # The seat as given: reading `.player` as an int in the compiled build would
        # already have turned True into 1.
        seat: object = getattr(action, "player", None)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            return f"There is no seat {seat!r} at this {self._n}-player table."
        p = action.player
        if self._over:
            return "The game is over."
        if not self._active >> p & 1:
            return f"Player {p} is out of the game and plays no more."
        if isinstance(action, Defend):
            return self._why_defend(p, action)
        if isinstance(action, Attack):
            return self._why_attack(p, action)
        if isinstance(action, Transfer):
            return self._why_transfer(p, action)
        if isinstance(action, Take):
            return self._why_take(p)
        return self._why_pass(p)

    def _defender_options(self) -> str:
        if self.rules.variant == "perevodnoy":
            return "beat the attack cards, transfer or take them"
        return "beat the attack cards or take them"

    def _not_thrower(self, p: int) -> str | None:
        if p in self._throwers():
            return None
        d = self._defender
        if self.rules.teams and self._team(p) == self._team(d):
            return f"Player {d} is your partner; you may not attack them."
        throwers = self._throwers()
        names = " and ".join(str(s) for s in throwers)
        who = f"player {names}" if len(throwers) == 1 else f"players {names}"
        return (
            "Only the main attacker and the player on the defender's left "
            f"({who}) may throw in (throw_in='neighbours')."
        )

    def _not_held(self, p: int, card: Card) -> str:
        if not card.bit & deck_mask(self.rules.deck_size):
            return f"{card} is not in a {self.rules.deck_size}-card deck."
        if self._viewer is not None and p != self._viewer:
            return f"Player {p} cannot hold {card}: it is known to be elsewhere."
        return f"You do not hold {card}."

    def _limit_reason(self, extra: int) -> str:
        count = len(self._att)
        first = self._discard == 0
        cap = self.rules.limit_cap(first)
        if count + extra > cap:
            when = "before the first discard" if first and cap < 6 else "in a bout"
            return (
                f"At most {cap} attack cards may be played {when}; "
                f"the table has {count} already."
            )
        return (
            f"Player {self._defender} had {self._dstart} cards when they began defending, "
            f"so the bout may hold only {self._dstart} attack cards; "
            f"the table has {count} already."
        )

    def _why_attack(self, p: int, action: Attack) -> str | None:
        if p == self._defender:
            return (
                f"You are the defender: {self._defender_options()}; "
                "you cannot attack yourself."
            )
        att = self._att
        cards = action.cards
        if not att:
            if p != self._attacker:
                return (
                    f"Player {self._attacker} leads this bout; the others may throw in "
                    "after the first card."
                )
        else:
            reason = self._not_thrower(p)
            if reason:
                return reason
            if action.more:
                return "Only the opening lead may be several cards; throw in one card at a time."
        for c in cards:
            if not self._holds(p, c):
                return self._not_held(p, c)
        if len(cards) > 1:
            if not self.rules.open_with_several:
                return (
                    "Lead one card at a time (open_with_several is off); "
                    "throw in the others after it."
                )
            if len({c.rank for c in cards}) > 1:
                return "Cards led together must all have the same rank."
        if att:
            card = cards[0]
            if not self._rankmask & card.bit:
                ranks = ", ".join(RANK_NAMES[r] for r in ranks_of(self._tmask))
                return (
                    f"You can only throw in a rank already on the table ({ranks}); "
                    f"{card} does not match."
                )
        if len(att) + len(cards) > self._limit():
            return self._limit_reason(len(cards))
        return None

    def _why_not_beat(self, card: Card, attack: Card) -> str:
        trump = self._trump
        symbol = SUIT_SYMBOLS[trump]
        if card.suit == trump and attack.suit == trump:
            return f"{card} is a lower trump than {attack}; a trump beats only a lower trump."
        if attack.suit == trump:
            return f"{attack} is a trump; only a higher trump beats it."
        suit = SUIT_NAMES[attack.suit][:-1]
        if card.suit == attack.suit:
            return (
                f"{card} is lower than {attack}; "
                f"beat it with a higher {suit} or a trump ({symbol})."
            )
        return f"{card} cannot beat {attack}: play a higher {suit} or a trump ({symbol})."

    def _why_defend(self, p: int, action: Defend) -> str | None:
        d = self._defender
        if p != d:
            return f"Only the defender, player {d}, beats cards."
        if not self._att:
            return "There is nothing to beat yet."
        a = action.attack_card
        if a not in self._att:
            return f"{a} is not an attack card on the table."
        beaten_by = self._def[self._att.index(a)]
        if beaten_by is not None:
            return f"{a} is already beaten by {beaten_by}."
        if self._taking:
            return "You have declared take: you will pick up the table and beat no more cards."
        c = action.card
        if not self._holds(p, c):
            return self._not_held(p, c)
        if not BEATERS[self._trump][a.index] & c.bit:
            return self._why_not_beat(c, a)
        return None

    def _why_transfer(self, p: int, action: Transfer) -> str | None:
        if self.rules.variant != "perevodnoy":
            return "Transfers belong to perevodnoy; this game is podkidnoy."
        d = self._defender
        if p != d:
            return f"Only the defender, player {d}, can transfer."
        att = self._att
        if not att:
            return "There is nothing to transfer yet."
        if self._taking:
            return "You have declared take, so you can no longer transfer."
        if any(x is not None for x in self._def):
            return "You can transfer only before beating any card of the bout."
        rank = att[0].rank
        if self._rankmask != RANK_MASK[rank]:
            return "You can transfer only when every attack card has the same rank."
        card = action.card
        if card.rank != rank:
            return f"Transfer with a card of rank {RANK_NAMES[rank]}; {card} does not match."
        if action.show:
            if not self.rules.transfer_by_showing_trump:
                return "Transferring by showing a trump needs transfer_by_showing_trump=True."
            if card.suit != self._trump:
                name = RANK_NAMES[rank]
                return f"Only the trump of rank {name} can be shown; {card} is no trump."
            if self._shown & card.bit:
                return f"{card} has already been shown this bout; play a card to transfer again."
        if not self._holds(p, card):
            return self._not_held(p, card)
        nd = self._next_opponent(p)
        if nd is None:
            return "Nobody is left in the game to transfer to."
        need = len(att) + (0 if action.show else 1)
        cap = self.rules.limit_cap(self._discard == 0)
        if need > cap:
            return f"A transfer would make {need} attack cards; the limit is {cap}."
        if self._size(nd) < need:
            return (
                f"Player {nd} holds only {_count(self._size(nd), 'card')}, fewer than the {need} "
                "attack cards a transfer would give them."
            )
        return None

    def _why_take(self, p: int) -> str | None:
        d = self._defender
        if p != d:
            return f"Only the defender, player {d}, can take."
        if not self._att:
            return "There is nothing on the table to take yet."
        if self._taking:
            return "You have already declared take."
        if None not in self._def:
            return "Every attack card is beaten; there is nothing to take."
        return None

    def _why_pass(self, p: int) -> str | None:
        if p == self._defender:
            return f"The defender cannot pass: {self._defender_options()}."
        att = self._att
        if not att:
            if p == self._attacker:
                return "You lead this bout: play a card first."
            return f"The bout has not started: player {self._attacker} must lead a card."
        reason = self._not_thrower(p)
        if reason:
            return reason
        if not self._taking and None in self._def:
            return (
                f"Wait for player {self._defender} to beat the cards or take them; "
                "pass once the table is beaten."
            )
        if self._passed >> p & 1:
            return "You have already passed; you may throw in again when the table changes."
        if not self._size(p):
            return "You have no cards, so you count as passed already."
        if len(att) >= self._limit():
            return "No more cards can be thrown in, so you count as passed already."
        return None

    # ------------------------------------------------------------- applying

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened.

        Raises :class:`IllegalAction` with the reason, and changes nothing,
        if the action is not legal now.
        """
        # Fast path: the very object handed out by legal_actions() is legal (each
        # seat's list holds only that seat's actions, so no seat needs reading).
        cache = self._cache
        for seat in range(self._n):
            legal = cache[seat]
            if legal is not None:
                for x in legal:
                    if x is action:
                        return self._apply(action, seat)
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        return self._apply(action, action.player)

    def _forget(self) -> None:
        """Drop what was computed for the current state (legal moves, throwers)."""
        self._cache = [None] * self._n
        self._thr = None

    def _apply(self, action: Action, p: int) -> list[Event]:
        """Apply ``action`` of seat ``p`` (its player), known to be legal."""
        cache = self._cache
        for i in range(self._n):
            cache[i] = None
        self._log.append(action)
        events: list[Event] = []
        kind = type(action)
        # cast(), not isinstance(): the kind is known, and compiled code skips a check.
        # Every attribute read of an action is a slow generic one (actions are plain
        # Python objects), so the common cases read as few as they can.
        if kind is _ATTACK_T:
            attack = cast(Attack, action)
            card = attack.card
            # The shared one-card action needs no read of .more.
            more = () if attack is _ATTACK[p][card.index] else attack.more
            self._lay(p, card)
            for c in more:
                self._lay(p, c)
            events.append(Attacked(p, (card, *more)) if more else _ATTACKED[p][card.index])
            self._passed = 0
            self._maybe_leave(p, events)
        elif kind is _DEFEND_T:
            defend = cast(Defend, action)
            c = defend.card
            a = defend.attack_card
            self._remove(p, c)
            self._def[self._att.index(a)] = c
            self._rankmask |= RANK_MASK[c.rank]
            self._tmask |= c.bit
            self._passed = 0
            events.append(_defence(p, a, c)[1])
        elif kind is _TRANSFER_T:
            transfer = cast(Transfer, action)
            c = transfer.card
            if transfer.show:
                if not self._hand[p] & c.bit:  # a view learns the shown card
                    self._unk[p] = self._unk[p] - 1
                    self._unseen ^= c.bit
                    self._hand[p] = self._hand[p] | c.bit
                self._public[p] = self._public[p] | c.bit
                self._shown |= c.bit
            else:
                self._remove(p, c)
                self._att.append(c)
                self._def.append(None)
                self._tmask |= c.bit
            nd = self._next_opponent(p)
            assert nd is not None
            self._attacker = p
            self._defender = nd
            self._thr = None
            self._dstart = self._size(nd)
            self._passed = 0
            events.append(Transferred(p, c, transfer.show, nd))
            self._maybe_leave(p, events)
        elif kind is _TAKE_T:
            self._taking = True
            self._passed = 0
            events.append(_TAKEN[p])
        else:
            self._passed |= 1 << p
            events.append(_PASSED[p])
        self._settle(events)
        return events

    def _lay(self, p: int, c: Card) -> None:
        """``p`` puts ``c`` on the table as an attack card."""
        self._remove(p, c)
        self._att.append(c)
        self._def.append(None)
        self._rankmask |= RANK_MASK[c.rank]
        self._tmask |= c.bit

    def _maybe_leave(self, p: int, events: list[Event]) -> None:
        """An attacker who plays their last card with the talon empty is out at once."""
        if self._tpos < len(self._talon) or self._size(p) or p == self._defender:
            return
        self._leave(p, events)
        if p == self._attacker:
            for s in self._throwers():
                self._attacker = s
                self._thr = None
                break

    def _leave(self, p: int, events: list[Event]) -> None:
        self._active &= ~(1 << p)
        self._thr = None
        self._finish.append(p)
        events.append(Left(p, len(self._finish)))

    def _settle(self, events: list[Event]) -> None:
        """End the bout when nothing more can happen in it."""
        att = self._att
        if not att or (not self._taking and self._unbeaten()):
            return
        if len(att) < self._limit():
            passed = self._passed
            for s in self._throwers():
                if not passed >> s & 1 and self._size(s):
                    return
        self._end_bout(events)

    def _end_bout(self, events: list[Event]) -> None:
        d = self._defender
        table: list[Card] = []
        att = self._att
        defs = self._def
        for i in range(len(att)):
            table.append(att[i])
            x = defs[i]
            if x is not None:
                table.append(x)
        tmask = self._tmask
        took = self._taking
        if took:
            self._hand[d] = self._hand[d] | tmask
            self._public[d] = self._public[d] | tmask
            events.append(PickedUp(d, tuple(table)))
        else:
            self._discard |= tmask
            events.append(Discarded(tuple(table)))
        self._att = []
        self._def = []
        self._rankmask = 0
        self._tmask = 0
        self._taking = False
        self._passed = 0
        self._shown = 0
        # Draw: the main attacker first, the other attackers clockwise, the defender last.
        order = self._draw_order()
        talon = self._talon
        hands = self._hand
        trump_card = self._trump_card
        for s in order:
            tpos = self._tpos
            if tpos >= len(talon):
                break
            hand = hands[s]
            need = _HAND_SIZE - popcount(hand) - self._unk[s]
            if need <= 0:
                continue
            got = talon[tpos : tpos + need]
            self._tpos = tpos + len(got)
            for c in got:
                if c is None:
                    self._unk[s] = self._unk[s] + 1
                else:
                    hand |= c.bit
                    if c is trump_card:
                        self._public[s] = self._public[s] | c.bit
            hands[s] = hand
            events.append(Drew(s, got))
        if self._tpos >= len(talon):
            for s in order:
                if self._active >> s & 1 and not self._size(s):
                    self._leave(s, events)
        self._bouts += 1
        if self._check_over(events):
            return
        if self._bouts >= self._bout_limit:
            self._finish_game(None, (), "bout limit reached", events)
            return
        if took:
            nxt = self._next_active(d)
        else:
            nxt = d if self._active >> d & 1 else self._next_active(d)
        assert nxt is not None
        self._attacker = nxt
        nd = self._next_opponent(nxt)
        assert nd is not None
        self._defender = nd
        self._thr = None
        self._dstart = self._size(nd)
        events.append(_NEW_BOUT[nxt][nd])

    def _draw_order(self) -> list[int]:
        """Who draws, in order: the main attacker, the other attackers clockwise, the
        defender last (seats out of the game skipped, except a defender who just left)."""
        n = self._n
        first = self._attacker
        d = self._defender
        active = self._active
        key = (n * 6 + first) * 6 + d << 6 | active
        order = _DRAW_ORDER.get(key)
        if order is None:
            order = [s for s in ((first + k) % n for k in range(n)) if s != d and active >> s & 1]
            order.append(d)
            _DRAW_ORDER[key] = order
        return order

    def _check_over(self, events: list[Event]) -> bool:
        active = self._active
        if not self._teams and active & (active - 1):
            return False  # two players or more still in: the common case, decided at once
        left = [s for s in range(self._n) if active >> s & 1]
        if self._teams:
            if len({self._team(s) for s in left}) > 1:
                return False
            if not left:
                self._finish_game(None, (), "everybody went out together", events)
                return True
            team = self._team(left[0])
            losers = tuple(s for s in range(self._n) if self._team(s) == team)
            self._finish_game(left[0], losers, "one team still holds cards", events)
            return True
        if len(left) > 1:
            return False
        if not left:
            self._finish_game(None, (), "everybody went out together", events)
        else:
            self._finish_game(left[0], (left[0],), "the last player holding cards", events)
        return True

    def _finish_game(
        self, durak: int | None, losers: tuple[int, ...], reason: str, events: list[Event]
    ) -> None:
        self._over = True
        self._durak = durak
        self._losers = losers
        self._reason = reason
        events.append(GameOver(durak, losers, tuple(self._finish), reason))

    # ------------------------------------------------------------- copying

    def copy(self) -> Game:
        """An independent copy (cheap: a few small lists), for search and bots."""
        g: Game = Game(_PRIVATE)
        g.rules = self.rules
        g._n = self._n
        g._cap0 = self._cap0
        g._perev = self._perev
        g._several = self._several
        g._showopt = self._showopt
        g._teams = self._teams
        g._neigh = self._neigh
        g._bout_limit = self._bout_limit
        g._team_of = self._team_of
        g._trump = self._trump
        g._trump_card = self._trump_card
        g._talon = self._talon
        g._tpos = self._tpos
        g._hand = self._hand[:]
        g._unk = self._unk[:]
        g._public = self._public[:]
        g._att = self._att[:]
        g._def = self._def[:]
        g._rankmask = self._rankmask
        g._tmask = self._tmask
        g._attacker = self._attacker
        g._defender = self._defender
        g._taking = self._taking
        g._passed = self._passed
        g._shown = self._shown
        g._dstart = self._dstart
        g._discard = self._discard
        g._active = self._active
        g._finish = self._finish[:]
        g._over = self._over
        g._durak = self._durak
        g._losers = self._losers
        g._reason = self._reason
        g._bouts = self._bouts
        g._log = self._log[:]
        g._deck = self._deck
        g._viewer = self._viewer
        g._unseen = self._unseen
        g._prev_durak = self._prev_durak
        g._forget()
        return g

    def __copy__(self) -> Game:
        return self.copy()

    # ------------------------------------------------------ a seat's view

    def view(self, seat: int) -> Game:
        """This game as ``seat`` knows it: other hands and the talon hidden.

        Cards that everybody has seen stay known: those picked up from the
        table, the trump card, the discards.
        """
        self._check_seat(seat)
        if self._viewer is not None and self._viewer != seat:
            raise ValueError(f"this game is seen from seat {self._viewer}, not seat {seat}")
        g = self.copy()
        for s in range(self._n):
            if s != seat:
                g._unk[s] = self._size(s) - self._public[s].bit_count()
                g._hand[s] = self._public[s]
        remaining = self._talon[self._tpos :]
        if remaining:
            g._talon = (*(None,) * (len(remaining) - 1), self._trump_card)
        else:
            g._talon = ()
        g._tpos = 0
        g._viewer = seat
        g._deck = None
        g._unseen = g._compute_unseen()
        return g

    def _compute_unseen(self) -> int:
        known = self._discard | self._tmask
        for m in self._hand:
            known |= m
        if self._tpos < len(self._talon):
            known |= mask_of(c for c in self._talon[self._tpos :] if c is not None)
        return deck_mask(self.rules.deck_size) & ~known

    def reveal(self, seat: int, cards: Iterable[Card]) -> None:
        """Learn that unknown cards of ``seat`` are these (e.g. the viewer's own draws)."""
        m = mask_of(cards)
        count = m.bit_count()
        if m & ~self._unseen:
            bad = ", ".join(_cards_text(m & ~self._unseen))
            raise ValueError(f"{bad} cannot be hidden in player {seat}'s hand")
        if count > self._unk[seat]:
            raise ValueError(f"player {seat} has only {self._unk[seat]} unknown cards")
        self._hand[seat] = self._hand[seat] | m
        self._unk[seat] = self._unk[seat] - count
        self._unseen &= ~m
        self._cache = [None] * self._n

    def unknown_count(self, seat: int) -> int:
        """How many of ``seat``'s cards this view does not know."""
        return self._unk[seat]

    @property
    def unseen(self) -> list[Card]:
        """Cards whose place this view does not know (hidden hands and talon)."""
        return list(cards_of(self._unseen))

    def determinize(self, rng: random.Random) -> Game:
        """A full game consistent with this view: unseen cards dealt at random.

        Everything known stays where it is (the viewer's hand, cards seen
        picked up, the trump under the talon, the discards).
        """
        if self._viewer is None:
            return self.copy()
        pool = list(cards_of(self._unseen))
        _shuffle(rng, pool)
        return self._deal(pool)

    def deal_unseen(self, order: Sequence[Card]) -> Game:
        """A full game consistent with this view, the unseen cards placed in ``order``:
        first each seat's unknown cards (seat 0 first), then the talon's hidden cards
        from the top.  :meth:`determinize` deals them at random; a search that weighs
        what the opponents' play revealed deals them in its own order.

        >>> from durak_core import Rules, Game
        >>> view = Game.new(Rules(), seed=7).view(0)
        >>> full = view.deal_unseen(view.unseen)  # seat 1 gets the first 6 unseen cards
        >>> set(full.hand(1)) == set(view.unseen[:6]), full.public_hash() == view.public_hash()
        (True, True)
        """
        if self._viewer is None:
            raise ValueError("deal_unseen needs a seat's view; this is the full game")
        cards = list(order)
        if len(cards) != popcount(self._unseen) or mask_of(cards) != self._unseen:
            raise ValueError("order must hold each unseen card of this view exactly once")
        return self._deal(cards)

    def deal_weighted(self, weights: Sequence[Sequence[float]], rng: random.Random) -> Game:
        """A full game consistent with this view, each seat's unknown cards drawn by
        ``weights[seat][card index]`` (how likely, relative to 1, the seat holds the
        card): a weighted sample without replacement, each unseen card keyed by an
        exponential draw divided by its weight, the smallest keys first, seat 0 first;
        the talon gets the rest in random order.  What
        :meth:`durak_core.bots.inference.Inference.deal` does, compiled (searches deal
        once a paired round): the same cards from the same generator state.

        >>> from durak_core import Rules, Game
        >>> view = Game.new(Rules(), seed=7).view(0)
        >>> weights = [[1.0] * 52, [1.0] * 26 + [0.02] * 26]  # seat 1: spades and clubs
        >>> full = view.deal_weighted(weights, random.Random(1))
        >>> full.public_hash() == view.public_hash()
        True
        """
        if self._viewer is None:
            raise ValueError("deal_weighted needs a seat's view; this is the full game")
        pool: list[Card] = []
        m = self._unseen
        while m:
            low = m & -m
            pool.append(ALL_CARDS[low.bit_length() - 1])
            m ^= low
        order: list[Card] = []
        for s in range(self._n):
            u = self._unk[s]
            if not u:
                continue
            w = weights[s]
            # (key, position): sorted, the same order as a stable sort by key.
            keyed: list[tuple[float, int]] = []
            for i in range(len(pool)):
                keyed.append((-math.log(1.0 - rng.random()) / w[pool[i].index], i))
            keyed.sort()
            ranked = [pool[i] for _, i in keyed]
            order += ranked[:u]
            pool = ranked[u:]
        _shuffle(rng, pool)
        order += pool
        return self._deal(order)

    def _deal(self, pool: list[Card]) -> Game:
        g = self.copy()
        k = 0
        for s in range(self._n):
            u = self._unk[s]
            if u:
                g._hand[s] = g._hand[s] | mask_of(pool[k : k + u])
                g._unk[s] = 0
                k += u
        talon = list(self._talon[self._tpos :])
        for i, c in enumerate(talon):
            if c is None:
                talon[i] = pool[k]
                k += 1
        g._talon = tuple(talon)
        g._tpos = 0
        g._unseen = 0
        g._viewer = None
        return g

    # -------------------------------------------------------- observation

    def observation(self, player: int) -> dict[str, Any]:
        """Everything ``player`` may know, as JSON-able data.

        Own hand, every hand's size and the cards of it seen by all, the
        table, the trump, talon and discard sizes, the discarded cards,
        whose turn it is, and ``legal``: ``player``'s legal actions as text.
        :meth:`from_observation` rebuilds the seat's view from it.
        """
        self._check_seat(player)
        if self._viewer is not None and self._viewer != player:
            raise ValueError(f"this game is seen from seat {self._viewer}, not seat {player}")
        obs: dict[str, Any] = {
            "seat": player,
            "rules": self.rules.to_dict(),
            "trump_card": str(self._trump_card),
            "trump_suit": SUIT_SYMBOLS[self._trump],
            "hand": [str(c) for c in self.hand(player)],
            "hands": [
                {"count": self._size(s), "known": _cards_text(self._public[s])}
                for s in range(self._n)
            ],
            "table": [
                [str(a), None if d is None else str(d)]
                for a, d in zip(self._att, self._def, strict=True)
            ],
            "attacker": self._attacker,
            "defender": self._defender,
            "taking": self._taking,
            "passed": self.passed,
            "shown": _cards_text(self._shown),
            "defender_start": self._dstart,
            "limit": self.limit,
            "talon": self.talon_size,
            "discarded": _cards_text(self._discard),
            "active": self.active_players,
            "out": list(self._finish),
            "bouts": self._bouts,
            "over": self._over,
            "durak": self._durak,
            "losers": list(self._losers),
            "end_reason": self._reason,
            "legal": [str(a) for a in self._legal(player)],
        }
        if self._unk[player]:
            obs["unrevealed"] = self._unk[player]
        return obs

    @classmethod
    def from_observation(cls, obs: dict[str, Any]) -> Game:
        """The view of the observing seat, rebuilt from :meth:`observation` data."""
        rules = Rules.from_dict(obs["rules"])
        n = rules.players
        seat = int(obs["seat"])
        g: Game = Game(_PRIVATE)
        g._set_rules(rules)
        g._trump_card = Card.parse(obs["trump_card"])
        g._trump = int(g._trump_card.suit)
        talon_size = int(obs["talon"])
        g._talon = (*(None,) * (talon_size - 1), g._trump_card) if talon_size else ()
        g._tpos = 0
        hands = obs["hands"]
        if len(hands) != n:
            raise ValueError("observation: one entry in 'hands' per seat expected")
        g._public = [mask_of(Card.parse(t) for t in h["known"]) for h in hands]
        g._hand = g._public[:]
        g._unk = [int(h["count"]) - g._public[s].bit_count() for s, h in enumerate(hands)]
        own = mask_of(Card.parse(t) for t in obs["hand"])
        g._hand[seat] = own
        g._unk[seat] = int(obs.get("unrevealed", 0))
        g._att = [Card.parse(a) for a, _ in obs["table"]]
        g._def = [None if d is None else Card.parse(d) for _, d in obs["table"]]
        g._rankmask = 0
        g._tmask = 0
        for c in (*g._att, *(d for d in g._def if d is not None)):
            g._rankmask |= RANK_MASK[c.rank]
            g._tmask |= c.bit
        g._attacker = int(obs["attacker"])
        g._defender = int(obs["defender"])
        g._taking = bool(obs["taking"])
        g._passed = sum(1 << s for s in obs["passed"])
        g._shown = mask_of(Card.parse(t) for t in obs["shown"])
        g._dstart = int(obs["defender_start"])
        g._discard = mask_of(Card.parse(t) for t in obs["discarded"])
        g._active = sum(1 << s for s in obs["active"])
        g._finish = [int(s) for s in obs["out"]]
        g._over = bool(obs["over"])
        g._durak = obs["durak"]
        g._losers = tuple(obs["losers"])
        g._reason = str(obs.get("end_reason", ""))
        g._bouts = int(obs["bouts"])
        g._log = []
        g._deck = None
        g._viewer = seat
        g._prev_durak = None
        g._forget()
        g._unseen = g._compute_unseen()
        expected = sum(g._unk) + max(talon_size - 1, 0)
        if any(u < 0 for u in g._unk) or g._unseen.bit_count() != expected:
            raise ValueError("observation is inconsistent: the cards do not add up")
        return g

    # ------------------------------------------------- save, load, hash

    def to_json(self) -> str:
        """Rules, deck order and action log as JSON: a save file and a replay."""
        if self._deck is None:
            raise ValueError("a seat's view has no deck order to save")
        data = {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "rules": self.rules.to_dict(),
            "deck": [str(c) for c in self._deck],
            "previous_durak": self._prev_durak,
            "log": [str(a) for a in self._log],
        }
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a game saved with :meth:`to_json` by replaying its log.

        Anything else, from text that is not JSON to a log entry the rules
        refuse, is a :class:`ValueError` that says what is wrong.

        >>> Game.from_json("not json")
        Traceback (most recent call last):
        ...
        ValueError: not a saved durak game (not JSON: Expecting value at line 1, column 1)
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"not a saved durak game (not JSON: {exc.msg} at line {exc.lineno}, "
                f"column {exc.colno})"
            ) from None
        except (TypeError, ValueError) as exc:  # not text at all, or undecodable bytes
            raise ValueError(f"not a saved durak game ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
            raise ValueError("not a saved durak game")
        if data.get("version") != JSON_VERSION:
            raise ValueError(f"unsupported saved-game version {data.get('version')!r}")
        rules_data = data.get("rules")
        if not isinstance(rules_data, dict):
            raise ValueError("saved game: 'rules' must be an object of rule options")
        deck_text = data.get("deck")
        log_text = data.get("log")
        for key, value in (("deck", deck_text), ("log", log_text)):
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                raise ValueError(f"saved game: {key!r} must be a list of strings")
        previous = data.get("previous_durak")
        if previous is not None and (not isinstance(previous, int) or isinstance(previous, bool)):
            raise ValueError(f"saved game: 'previous_durak' must be a seat, not {previous!r}")
        rules = Rules.from_dict(rules_data)
        deck = [Card.parse(t) for t in cast(list[str], deck_text)]
        return cls.replay(rules, deck, cast(list[str], log_text), previous_durak=previous)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        deck: Sequence[Card],
        log: Iterable[Action | str],
        previous_durak: int | None = None,
    ) -> Game:
        """Deal ``deck`` and apply every action of ``log`` (objects or text)."""
        game = cls.new(rules, deck=deck, previous_durak=previous_durak)
        for i, entry in enumerate(log):
            action = parse_action(entry) if isinstance(entry, str) else entry
            reason = game.why_illegal(action)
            if reason is not None:
                raise ValueError(f"log entry {i} ({action}) is illegal: {reason}")
            game._apply(action, action.player)
        return game

    def _state_tuple(self, public: bool) -> tuple[Any, ...]:
        talon = self._talon[self._tpos :]
        if public:
            hands: tuple[Any, ...] = tuple(self._size(s) for s in range(self._n))
            talon_part: Any = len(talon)
        else:
            hands = (tuple(self._hand), tuple(self._unk))
            talon_part = tuple(-1 if c is None else c.index for c in talon)
        return (
            self.rules.hash_items,
            self._trump_card.index,
            talon_part,
            hands,
            tuple(self._public),
            tuple(c.index for c in self._att),
            tuple(-1 if c is None else c.index for c in self._def),
            self._attacker,
            self._defender,
            self._taking,
            self._passed,
            self._shown,
            self._dstart,
            self._discard,
            self._active,
            tuple(self._finish),
            self._over,
            self._durak,
            self._losers,
            self._bouts,
        )

    def state_hash(self) -> str:
        """A stable hash of the whole state (hands and talon order included)."""
        data = repr(self._state_tuple(public=False)).encode()
        return hashlib.blake2b(data, digest_size=16).hexdigest()

    def public_hash(self) -> str:
        """A stable hash of what every seat can see; equal for a game and all its views."""
        data = repr(self._state_tuple(public=True)).encode()
        return hashlib.blake2b(data, digest_size=16).hexdigest()

    def __repr__(self) -> str:
        status = "over" if self._over else f"{self._attacker} attacks {self._defender}"
        seen = "" if self._viewer is None else f", seen from {self._viewer}"
        return f"<Game {self._n} players, {status}, talon {self.talon_size}{seen}>"

    def _repr_html_(self) -> str:
        """Cards for Jupyter; the renderer is imported only when a notebook asks."""
        from .render import table_html

        return table_html(self)

    def to_text(self) -> str:
        """A few lines for a terminal: trump, talon, table, hands."""
        lines = [
            f"trump {self._trump_card} | talon {self.talon_size} | discard {self.discard_size}",
            "table: "
            + (
                "  ".join(
                    f"{a}/{'' if d is None else d}"
                    for a, d in zip(self._att, self._def, strict=True)
                )
                or "(empty)"
            ),
        ]
        for s in range(self._n):
            role = "A" if s == self._attacker else "D" if s == self._defender else " "
            cards = " ".join(str(c) for c in self.hand(s))
            if self._unk[s]:
                cards += " ?" * self._unk[s]
            out = "" if self._active >> s & 1 else " (out)"
            lines.append(f"{role} {s}: {cards}{out}")
        return "\n".join(lines)


def suit_mask(suit: int) -> int:
    return SUIT_MASK[suit]
