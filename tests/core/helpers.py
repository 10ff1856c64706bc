"""Builders for constructed-deck scenarios and checks shared by the core tests.

A scenario names only the cards that matter; :func:`build_deck` turns per-seat
hands, the trump card and the start of the talon into the explicit deck order
that :meth:`durak_core.Game.new` takes (card ``i`` of the first ``6n`` goes to
seat ``i % n``, the next card is the trump card, drawn last, and the talon is
drawn from the card after it).  Unnamed places are filled deterministically
with the lowest non-trump cards first, so a filler card never decides who holds
the lowest trump.

End-game positions (talon empty, some players already out) would need dozens of
scripted bouts from a deck; :func:`position` builds them directly from an
observation-shaped description instead, through the public
``Game.from_observation`` and ``Game.determinize``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any

import durak_core
from durak_core import Card, Event, Game, Rules, cards_of, mask_of, new_deck, parse_action
from durak_core.cards import deck_mask
from durak_core.rules import ThrowIn, Variant

CardsLike = str | Iterable[Card | str]


def examples(count: int) -> int:
    """``count`` on the compiled engine; half as many on the pure-Python one.

    scripts/test.sh runs tests/core twice: on the compiled engine, then (DURAK_PURE=1)
    on the pure-Python one, about five times slower.  Every rule is checked on both; the
    long searches (hypothesis examples by the hundred, endgames solved by brute force)
    take half their examples in that second pass, where the same examples once more
    would mostly repeat the first pass's work at five times the cost.
    """
    return count if durak_core.COMPILED else count // 2


def card(text: str | Card) -> Card:
    """One card from text (``"10h"``, ``"A♠"``) or a card."""
    return text if isinstance(text, Card) else Card.parse(text)


def cards(spec: CardsLike) -> list[Card]:
    """Cards from a space-separated string (``"7s 8h 10d"``) or an iterable of cards/texts."""
    if isinstance(spec, str):
        return [Card.parse(t) for t in spec.split()]
    return [card(c) for c in spec]


def build_deck(
    hands: Sequence[CardsLike],
    trump: str | Card,
    talon: CardsLike = (),
    deck_size: int = 36,
) -> list[Card]:
    """An explicit deck order dealing ``hands`` (seat by seat), ``trump`` and ``talon``.

    hands: one entry per seat, at most 6 cards each; missing cards are filled.
    trump: the card turned up under the talon (drawn last).  When the deal uses
        every card (6 players, 36 cards) it is the last card dealt, so it must be
        in the last seat's hand (it is moved to that hand's last place).
    talon: the first cards drawn from the talon, in order; the rest is filled.
    """
    n = len(hands)
    hand_lists = [cards(h) for h in hands]
    trump_card = card(trump)
    talon_list = cards(talon)
    dealt = 6 * n
    if dealt > deck_size:
        raise ValueError(f"{n} hands of 6 do not fit in {deck_size} cards")
    deals_all = dealt == deck_size
    named = [c for h in hand_lists for c in h] + talon_list + ([] if deals_all else [trump_card])
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    if mask_of(named) & ~deck_mask(deck_size):
        raise ValueError(f"a named card is not in the {deck_size}-card deck")
    if any(len(h) > 6 for h in hand_lists):
        raise ValueError("a hand holds at most 6 cards")
    if deals_all:
        if talon_list:
            raise ValueError("everything is dealt: there is no talon")
        last = hand_lists[-1]
        if trump_card in last:
            last.remove(trump_card)
        elif len(last) == 6:
            raise ValueError("with everything dealt the trump card is the last seat's card")
    trump_suit = trump_card.suit
    rest = sorted(
        cards_of(deck_mask(deck_size) & ~mask_of(named) & ~trump_card.bit),
        key=lambda c: (c.suit == trump_suit, c.rank, c.suit),
    )
    for s, h in enumerate(hand_lists):
        # With everything dealt the last seat's sixth card is the trump card.
        size = 5 if deals_all and s == n - 1 else 6
        while len(h) < size:
            h.append(rest.pop(0))
    if deals_all:
        hand_lists[-1].append(trump_card)
    deck = [hand_lists[i % n][i // n] for i in range(dealt)]
    if not deals_all:
        deck.append(trump_card)
        deck += talon_list + rest
    assert sorted(deck, key=lambda c: c.index) == new_deck(deck_size)
    return deck


def new_game(
    rules: Rules,
    hands: Sequence[CardsLike],
    trump: str | Card,
    talon: CardsLike = (),
    previous_durak: int | None = None,
) -> Game:
    """A game dealt from :func:`build_deck` (``rules.players`` must match ``len(hands)``)."""
    if len(hands) != rules.players:
        raise ValueError(f"{rules.players} players but {len(hands)} hands")
    deck = build_deck(hands, trump, talon, rules.deck_size)
    return Game.new(rules, deck=deck, previous_durak=previous_durak)


def play(game: Game, *actions: str) -> list[Event]:
    """Apply actions given as text, in order; return every event they caused."""
    events: list[Event] = []
    for text in actions:
        events += game.apply(parse_action(text))
    return events


def legal_texts(game: Game, player: int) -> set[str]:
    """A seat's legal actions as text, for readable assertions."""
    return {str(a) for a in game.legal_actions(player)}


def position(
    rules: Rules,
    hands: Sequence[CardsLike],
    trump: str | Card,
    *,
    attacker: int,
    defender: int,
    table: Sequence[tuple[str, str | None]] = (),
    taking: bool = False,
    out: Sequence[int] = (),
    defender_start: int | None = None,
) -> Game:
    """A full game in an end-game position: talon empty, every other card discarded.

    hands: every seat's cards (an out seat holds none).  table: (attack, defence
    or None) pairs of the bout in progress.  The position is written as seat 0's
    observation with every hand known, read back with ``Game.from_observation``
    and completed with ``determinize`` (nothing is unknown, so that is exact).
    """
    hand_lists = [cards(h) for h in hands]
    table_cards = [(card(a), None if d is None else card(d)) for a, d in table]
    on_table = [a for a, _ in table_cards] + [d for _, d in table_cards if d is not None]
    used = mask_of([c for h in hand_lists for c in h] + on_table)
    discarded = cards_of(deck_mask(rules.deck_size) & ~used)
    obs: dict[str, Any] = {
        "seat": 0,
        "rules": rules.to_dict(),
        "trump_card": str(card(trump)),
        "hand": [str(c) for c in hand_lists[0]],
        "hands": [
            {"count": len(h), "known": [] if s == 0 else [str(c) for c in h]}
            for s, h in enumerate(hand_lists)
        ],
        "table": [[str(a), None if d is None else str(d)] for a, d in table_cards],
        "attacker": attacker,
        "defender": defender,
        "taking": taking,
        "passed": [],
        "shown": [],
        "defender_start": (
            len(hand_lists[defender]) + sum(1 for _, d in table_cards if d is not None)
            if defender_start is None
            else defender_start
        ),
        "talon": 0,
        "discarded": [str(c) for c in discarded],
        "active": [s for s in range(rules.players) if s not in out],
        "out": list(out),
        "bouts": 1,
        "over": False,
        "durak": None,
        "losers": [],
    }
    return Game.from_observation(obs).determinize(random.Random(0))


def all_cards_placed(game: Game) -> list[Card]:
    """Every card of a full game where it lies: hands, table, talon, discard.

    The talon is read through the public ``deck`` and ``talon_size``: the talon is
    the deck after the deal, with the trump card last, drawn from the front.
    """
    placed: list[Card] = []
    for s in range(game.players):
        placed += game.hand(s)
    for a, d in game.table:
        placed.append(a)
        if d is not None:
            placed.append(d)
    placed += talon_cards(game)
    placed += game.discarded
    return placed


def talon_cards(game: Game) -> list[Card]:
    """The cards still in the talon of a game dealt from a deck, next card first."""
    if game.talon_size == 0:
        return []
    deck = game.deck
    if deck is None:
        raise ValueError("a seat's view or determinized game has no deck order")
    dealt = 6 * game.players
    if dealt >= len(deck):
        return []
    order = [*deck[dealt + 1 :], deck[dealt]]
    return order[len(order) - game.talon_size :]


def all_valid_rules() -> list[Rules]:
    """Every combination of option values that Rules accepts."""
    out: list[Rules] = []
    variants: tuple[Variant, ...] = ("podkidnoy", "perevodnoy")
    throw_ins: tuple[ThrowIn, ...] = ("all", "neighbours")
    for players, deck, variant, throw_in, first, several, show, teams, match in itertools.product(
        range(2, 7),
        (24, 36, 52),
        variants,
        throw_ins,
        (5, None),
        (True, False),
        (False, True),
        (False, True),
        (False, True),
    ):
        try:
            out.append(
                Rules(
                    players=players,
                    deck_size=deck,
                    variant=variant,
                    throw_in=throw_in,
                    first_bout_limit=first,
                    open_with_several=several,
                    transfer_by_showing_trump=show,
                    teams=teams,
                    match=match,
                )
            )
        except ValueError:
            continue
    return out


#: Every valid Rules combination (bout_limit left at its default), for property tests.
ALL_RULES = all_valid_rules()
