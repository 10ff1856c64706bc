"""An example Python bot for the arena: a :class:`durak_core.bots.Bot` subclass (README.md
shows the class as it is here).

Run it in a tournament either way:

    durak-arena builtin:greedy "py:examples/bots/mybot.py:MyBot" --games 20
    durak-arena builtin:greedy "cmd:python examples/bots/mybot.py" --games 20

It plays its cheapest card (every trump dearer than any plain card), takes or passes
only when it has nothing to play, and never throws in a trump.  Its only knowledge is
the seat's observation and legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from durak_core import Action, Attack, Card
from durak_core.bots import Bot


class MyBot(Bot):
    """The cheapest card first; take or pass only when there is nothing to play."""

    name = "mybot"

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        trump = Card.parse(observation["trump_card"]).suit

        def cost(action: Action) -> int:
            card = getattr(action, "card", None)  # take and pass carry no card
            if card is None:
                return 100
            if card.suit != trump:
                return card.rank
            throw_in = isinstance(action, Attack) and observation["table"]
            return 200 if throw_in else 50 + card.rank  # never throw in a trump

        return min(legal, key=cost)


if __name__ == "__main__":
    from durak_arena.botrunner import serve

    serve(MyBot)
