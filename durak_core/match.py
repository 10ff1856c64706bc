"""A match: a series of games with a running score.

With ``Rules(match=True)`` the first attack of each new game is made against
the previous game's durak, by the player on their right.  After a draw the
usual rule (lowest trump) applies again.

>>> from durak_core import Rules, Match
>>> m = Match(Rules(match=True), seed=3)
>>> g = m.new_game()
>>> m.games_played, m.score
(0, [0, 0])
"""

from __future__ import annotations

import random

from .game import Game
from .rules import Rules


class Match:
    """Deal games one after another and count how often each seat was the durak."""

    def __init__(self, rules: Rules | None = None, seed: int | None = None) -> None:
        self.rules = rules if rules is not None else Rules(match=True)
        self._rng = random.Random(seed)
        self.score = [0] * self.rules.players  #: times each seat was the durak
        self.draws = 0
        self.games_played = 0
        self.last_durak: int | None = None
        self.game: Game | None = None

    def new_game(self) -> Game:
        """Record the current game's result (if over) and deal the next one.

        A game still in progress is abandoned: it counts for nobody.
        """
        if self.game is not None and self.game.is_over:
            self.record(self.game)
        previous = self.last_durak if self.rules.match else None
        self.game = Game.new(
            self.rules, seed=self._rng.getrandbits(64), previous_durak=previous
        )
        return self.game

    def record(self, game: Game) -> None:
        """Count a finished game (called by :meth:`new_game`)."""
        if not game.is_over:
            raise ValueError("the game is not over yet")
        self.games_played += 1
        for seat in game.losers:
            self.score[seat] += 1
        if game.durak is None:
            self.draws += 1
        self.last_durak = game.durak
        if game is self.game:
            self.game = None
