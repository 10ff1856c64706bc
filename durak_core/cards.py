"""Cards, suits, ranks, decks and bitmask card sets.

A card is a value: ``Card(rank, suit)`` always returns the same interned
object, so cards compare and hash cheaply.  Every card also has an *index*
(``suit * 13 + rank - 2``, 0..51) and a *bit* (``1 << index``); a set of
cards is an ``int`` with one bit per card.  The engine works on these masks,
which is what makes move generation fast.

>>> Card.parse("10♥") == Card.parse("10h") == Card.parse("Th")
True
>>> str(Card.parse("as"))
'A♠'
>>> [str(c) for c in cards_of(mask_of([Card.parse("9♦"), Card.parse("6♠")]))]
['6♠', '9♦']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    """The four suits.  No suit outranks another except the trump suit."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """One ASCII letter, upper case: S, C, D or H."""
        return SUIT_LETTERS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __str__(self) -> str:
        return SUIT_SYMBOLS[self]


SUIT_SYMBOLS: Final = ("♠", "♣", "♦", "♥")
SUIT_LETTERS: Final = ("S", "C", "D", "H")
SUIT_NAMES: Final = ("spades", "clubs", "diamonds", "hearts")
_SUIT_INPUT: Final = {
    "♠": 0, "♤": 0, "s": 0,
    "♣": 1, "♧": 1, "c": 1,
    "♦": 2, "♢": 2, "d": 2,
    "♥": 3, "♡": 3, "h": 3,
}

#: Rank names, indexed by rank value (2..14).
RANK_NAMES: Final = ("", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_INPUT: Final = {name.lower(): value for value, name in enumerate(RANK_NAMES) if name}
_RANK_INPUT["t"] = 10
JACK, QUEEN, KING, ACE = 11, 12, 13, 14

#: The lowest rank of each supported deck size.
LOWEST_RANK: Final = {24: 9, 36: 6, 52: 2}


_MADE: Final[list[Card]] = []


class Card:
    """A playing card.  Interned: ``Card(10, Suit.HEARTS) is Card.parse("10h")``.

    >>> c = Card(12, Suit.SPADES)
    >>> c.rank, c.suit, str(c), c.code
    (12, <Suit.SPADES: 0>, 'Q♠', 'QS')
    """

    __slots__ = ("_text", "bit", "index", "rank", "suit")

    rank: int
    suit: Suit
    index: int
    bit: int
    _text: str

    def __new__(cls, rank: int, suit: int) -> Card:
        if not (2 <= rank <= 14) or not (0 <= suit <= 3):
            raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}")
        index = suit * 13 + rank - 2
        made = _MADE
        if len(made) == 52:
            return made[index]
        card = super().__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", Suit(suit))
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "bit", 1 << index)
        # Text is asked for on every observation and log line: made once.
        object.__setattr__(card, "_text", RANK_NAMES[rank] + SUIT_SYMBOLS[suit])
        made.append(card)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (self.rank, int(self.suit)))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank then suit, e.g. ``10♥``, ``A♠``, ``10h``, ``AS``, ``Th``.

        >>> Card.parse(" qd ")
        Card('Q♦')
        >>> Card.parse("1h")
        Traceback (most recent call last):
        ...
        ValueError: not a card: '1h' (write rank then suit, e.g. 10♥, 10h, AS)
        """
        s = text.strip()
        if len(s) >= 2:
            suit = _SUIT_INPUT.get(s[-1].lower())
            rank = _RANK_INPUT.get(s[:-1].strip().lower())
            if suit is not None and rank is not None:
                return _BY_INDEX[suit * 13 + rank - 2]
        raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 10♥, 10h, AS)")

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _BY_INDEX[index]

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank]

    @property
    def code(self) -> str:
        """ASCII code, upper case, for CSS classes and file names: ``10H``, ``AS``."""
        return RANK_NAMES[self.rank] + SUIT_LETTERS[self.suit]

    @property
    def ascii(self) -> str:
        """ASCII text form that :meth:`parse` reads back: ``10h``, ``As``."""
        return RANK_NAMES[self.rank] + SUIT_LETTERS[self.suit].lower()

    def beats(self, other: Card, trump: int) -> bool:
        """Whether this card beats ``other`` when ``trump`` is the trump suit.

        >>> Card.parse("7♥").beats(Card.parse("A♠"), Suit.HEARTS)
        True
        >>> Card.parse("7♥").beats(Card.parse("9♥"), Suit.HEARTS)
        False
        """
        return bool(BEATERS[trump][other.index] & self.bit)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.suit) < (other.rank, other.suit)

    def __le__(self, other: Card) -> bool:
        return (self.rank, self.suit) <= (other.rank, other.suit)

    def __gt__(self, other: Card) -> bool:
        return (self.rank, self.suit) > (other.rank, other.suit)

    def __ge__(self, other: Card) -> bool:
        return (self.rank, self.suit) >= (other.rank, other.suit)

    def __hash__(self) -> int:
        return self.index


for _suit in range(4):
    for _rank in range(2, 15):
        Card(_rank, _suit)
_BY_INDEX: Final[tuple[Card, ...]] = tuple(_MADE)
#: All 52 cards by index.
ALL_CARDS: Final = _BY_INDEX

#: ``RANK_MASK[r]``: the four cards of rank ``r``.
RANK_MASK: Final[tuple[int, ...]] = tuple(
    0 if r < 2 else sum(1 << (s * 13 + r - 2) for s in range(4)) for r in range(15)
)
#: ``SUIT_MASK[s]``: the thirteen cards of suit ``s``.
SUIT_MASK: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (s * 13) for s in range(4))


def _beaters(trump: int, index: int) -> int:
    suit = index // 13
    higher_same_suit = SUIT_MASK[suit] & ~((1 << (index + 1)) - 1)
    if suit == trump:
        return higher_same_suit
    return higher_same_suit | SUIT_MASK[trump]


#: ``BEATERS[trump][i]``: mask of the cards that beat card ``i`` under that trump.
BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_beaters(t, i) for i in range(52)) for t in range(4)
)


def _bits_set_table(width: int) -> bytes:
    """Byte i: how many bits are set in i, for i < 2**width (width <= 16)."""
    plus_one = bytes(range(1, 256)) + b"\0"
    table = b"\0"
    for _ in range(width):  # numbers with the next bit set: one bit more than those below
        table += table.translate(plus_one)
    return table


# Bits set in each 16-bit number: popcount() below reads four of these.
_POP16: Final[bytes] = _bits_set_table(16)


def popcount(mask: int) -> int:
    """How many cards a mask holds (``mask.bit_count()``, which compiled code calls
    as a slow method; this is four table reads).

    >>> popcount(RANK_MASK[14]), popcount(deck_mask(36))
    (4, 36)
    """
    pop = _POP16
    return (
        pop[mask & 0xFFFF] + pop[mask >> 16 & 0xFFFF] + pop[mask >> 32 & 0xFFFF] + pop[mask >> 48]
    )


def deck_mask(size: int) -> int:
    """Mask of the cards of a 24-, 36- or 52-card deck."""
    low = LOWEST_RANK[size]
    return sum(RANK_MASK[r] for r in range(low, 15))


def new_deck(size: int = 36) -> list[Card]:
    """The cards of a deck, in a fixed order (by suit, then rank).

    >>> len(new_deck(24)), len(new_deck(36)), len(new_deck(52))
    (24, 36, 52)
    """
    deck = _DECKS.get(size)
    if deck is None:
        raise ValueError(f"deck size must be 24, 36 or 52, not {size!r}")
    return list(deck)


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= c.bit
    return m


def cards_of(mask: int) -> Iterator[Card]:
    """The cards of a mask, in index order (by suit, then rank)."""
    by_index = _BY_INDEX
    while mask:
        low = mask & -mask
        yield by_index[low.bit_length() - 1]
        mask ^= low


# Each deck in index order, for new_deck.
_DECKS: Final[dict[int, tuple[Card, ...]]] = {
    size: tuple(cards_of(deck_mask(size))) for size in LOWEST_RANK
}


def ranks_of(mask: int) -> list[int]:
    """The distinct ranks present in a mask, low to high."""
    return [r for r in range(2, 15) if mask & RANK_MASK[r]]


#: Suit order for showing a hand: colours alternate (♠ ♦ ♣ ♥).
DISPLAY_SUIT_ORDER: Final = (0, 2, 1, 3)


def display_key(card: Card, trump: int | None = None) -> tuple[int, int, int]:
    """Sort key for a hand as players hold it: by suit, trumps last, then rank.

    >>> hand = [Card.parse(t) for t in ("7♥", "A♠", "6♠", "K♦")]
    >>> [str(c) for c in sorted(hand, key=lambda c: display_key(c, Suit.SPADES))]
    ['K♦', '7♥', '6♠', 'A♠']
    """
    is_trump = 1 if trump is not None and card.suit == trump else 0
    return (is_trump, DISPLAY_SUIT_ORDER.index(card.suit), card.rank)
