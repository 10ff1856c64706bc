"""Seeded positions for the reasons' tests: every decision with a choice in a few
games of a random seat 0 against greedy seat 1, with what each seat had seen."""

from __future__ import annotations

from dataclasses import dataclass

from durak_core import Event, Game, Rules
from durak_core.bots import GreedyBot, RandomBot, next_to_act, seat_events


@dataclass
class Position:
    game: Game  # the full game at the decision (a copy)
    seat: int
    events: list[Event]  # what the seat had seen so far


def positions(seeds: range, rules: Rules | None = None) -> list[Position]:
    out: list[Position] = []
    for seed in seeds:
        game = Game.new(rules or Rules(), seed=seed)
        bots = [RandomBot(seed=seed), GreedyBot()]
        seen: list[list[Event]] = [[] for _ in range(game.players)]
        while not game.is_over:
            seat = next_to_act(game)
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                out.append(Position(game.copy(), seat, list(seen[seat])))
            action = bots[seat].choose(game.observation(seat), legal)
            events = game.apply(action)
            for s in range(game.players):
                seen[s].extend(seat_events(s, events, game))
    return out
