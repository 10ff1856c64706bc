"""An example Python bot for the arena: a :class:`durak_core.bots.Bot` subclass.

Run it in a tournament either way:

    durak-arena builtin:greedy "py:examples/bots/mybot.py:MyBot" --games 20
    durak-arena builtin:greedy "cmd:python examples/bots/mybot.py" --games 20

It plays the lowest-ranked card it can (trumps count as higher than any
plain card), never takes while it can beat, and passes instead of throwing
in trumps.  Its only knowledge is the seat's observation and legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from durak_core import Action, Attack, Card, Defend, Pass, Take, Transfer
from durak_core.bots import Bot


class MyBot(Bot):
    """Lowest card first; the seed only breaks ties."""

    name = "mybot"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        trump = Card.parse(observation["trump_card"]).suit
        throwing_in = bool(observation["table"])
        plays: list[tuple[int, float, Action]] = []
        for action in legal:
            if isinstance(action, (Attack, Defend, Transfer)):
                card = action.card
                if throwing_in and isinstance(action, Attack) and card.suit == trump:
                    continue  # never throw in a trump: passing is better
                cost = card.rank + (50 if card.suit == trump else 0)
                plays.append((cost, self._rng.random(), action))
        if plays:
            return min(plays, key=lambda p: (p[0], p[1]))[2]
        # Nothing worth playing: pass or take, whichever is offered.
        for action in legal:
            if isinstance(action, (Pass, Take)):
                return action
        return legal[0]

if __name__ == "__main__":
    from durak_arena.botrunner import serve

    serve(MyBot)
