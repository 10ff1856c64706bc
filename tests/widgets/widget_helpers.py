"""Helpers for the widget tests: scripted bots, hand-made deals, a synchronous table."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from durak_core import Action, Card, Game, Rules, new_deck, parse_action
from durak_core.bots import Bot
from durak_widgets import Handoff, LocalBackend, TableController


class ScriptedBot(Bot):
    """Plays the first of its preferred moves that is legal, else its first legal move.

    Records every observation it was shown and the thread it chose on.
    """

    name = "scripted"

    def __init__(self, preferences: Sequence[str] = ()) -> None:
        self.preferences = [parse_action(p) for p in preferences]
        self.seen: list[dict[str, Any]] = []
        self.threads: list[str] = []

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.seen.append(observation)
        self.threads.append(threading.current_thread().name)
        for action in self.preferences:
            if action in legal:
                return action
        return legal[0]


class GatedBot(ScriptedBot):
    """A scripted bot that waits, inside ``choose``, until the test opens the gate."""

    name = "gated"

    def __init__(self, preferences: Sequence[str] = ()) -> None:
        super().__init__(preferences)
        self.gate = threading.Event()
        self.entered = threading.Event()

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.entered.set()
        if not self.gate.wait(timeout=30):
            raise TimeoutError("the test never opened the gate")
        return super().choose(observation, legal)


def deal(hands: Sequence[Sequence[str]], trump: str, rules: Rules) -> Game:
    """A game whose seats hold exactly ``hands`` and whose trump card is ``trump``."""
    n = rules.players
    assert len(hands) == n and all(len(h) == 6 for h in hands)
    order = [Card.parse(hands[i % n][i // n]) for i in range(6 * n)]
    order.append(Card.parse(trump))
    order += [c for c in new_deck(rules.deck_size) if c not in order]
    return Game.new(rules, deck=order)


def sync_table(
    rules: Rules,
    bots: dict[int, Bot],
    first_game: Game | None = None,
    seed: int | None = 1,
    handoff: Handoff | None = None,
    threads: bool | None = None,
    delay: float = 0.0,
) -> TableController:
    names = ["You" if s not in bots else bots[s].name for s in range(rules.players)]
    backend = LocalBackend(
        rules, bots, names, seed=seed, delay=delay, threads=threads, first_game=first_game
    )
    return TableController(backend, handoff or Handoff(mode="sync"))
