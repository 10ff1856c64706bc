"""A baseline for benchmarks/core_speed.py: a Durak engine in the style of the
tutorial the project grew from.

Cards are (rank, suit) tuples, hands are lists, the table is a dict from attack
card to defence card, and the game has three methods: attack, defend and
finish_turn.  Like the tutorial's, it checks almost nothing (no throw-in limit,
no turn order beyond two players, no draw) and it is not part of the project:
it exists only so that the benchmark can time both engines in one process.

Unlike the tutorial, the game runs to its true end (one player left holding
cards with the talon empty), so that both engines play *full* games.
"""

from __future__ import annotations

import random

RANKS = list(range(6, 15))
SUITS = ["S", "C", "D", "H"]


class TutorialDurak:
    def __init__(self, rng: random.Random) -> None:
        self.deck = [(r, s) for r in RANKS for s in SUITS]
        rng.shuffle(self.deck)
        self.hands: list[list[tuple[int, str]]] = [[], []]
        for hand in self.hands:
            self._refill(hand)
        self.trump = self.deck[-1][1] if self.deck else "H"
        self.table: dict[tuple[int, str], tuple[int, str] | None] = {}
        self.attacker = 0
        self.winner: int | None = None
        self.over = False

    def _refill(self, hand: list[tuple[int, str]]) -> None:
        while len(hand) < 6 and self.deck:
            hand.append(self.deck.pop(0))

    def can_beat(self, attack: tuple[int, str], card: tuple[int, str]) -> bool:
        if card[1] == attack[1]:
            return card[0] > attack[0]
        return card[1] == self.trump

    def attack(self, card: tuple[int, str]) -> None:
        self.hands[self.attacker].remove(card)
        self.table[card] = None

    def defend(self, attack: tuple[int, str], card: tuple[int, str]) -> None:
        self.hands[1 - self.attacker].remove(card)
        self.table[attack] = card

    def finish_turn(self) -> str:
        defender = 1 - self.attacker
        took = any(d is None for d in self.table.values())
        if took:
            self.hands[defender] += [c for pair in self.table.items() for c in pair if c]
        self.table = {}
        for seat in (self.attacker, defender):
            self._refill(self.hands[seat])
        if not self.deck:
            holding = [s for s in (0, 1) if self.hands[s]]
            if len(holding) < 2:
                self.over = True
                self.winner = None if not holding else 1 - holding[0]
                return "game_over"
        if took:
            return "took_cards"
        self.attacker = defender
        return "normal"


def play_random_game(rng: random.Random) -> int:
    """Play one game with uniformly random choices; return the number of moves."""
    g = TutorialDurak(rng)
    moves = 0
    while not g.over:
        hand_a = g.hands[g.attacker]
        hand_d = g.hands[1 - g.attacker]
        if not g.table:
            if not hand_a:
                g.finish_turn()
                continue
            g.attack(rng.choice(hand_a))
            moves += 1
            continue
        unbeaten = [a for a, d in g.table.items() if d is None]
        if unbeaten:
            a = unbeaten[0]
            options = [c for c in hand_d if g.can_beat(a, c)]
            choice = rng.randrange(len(options) + 1)
            moves += 1
            if choice == len(options):
                g.finish_turn()
            else:
                g.defend(a, options[choice])
            continue
        ranks = {c[0] for pair in g.table.items() for c in pair if c}
        options = [c for c in hand_a if c[0] in ranks] if len(g.table) < 6 and hand_d else []
        choice = rng.randrange(len(options) + 1)
        moves += 1
        if choice == len(options):
            g.finish_turn()
        else:
            g.attack(options[choice])
    return moves
