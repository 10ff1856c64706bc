"""How much of the opponent's hidden hand does the AI's inference recover?

The AI (``builtin:ismcts``, a fixed budget of rollouts, so the games are the same every
run) plays ``ismcts-v1`` on seeded deals, each twice with the seats swapped.  At each of
its decisions while the talon still holds cards, the script notes what its seat has
seen and which of the unseen cards the opponent really holds.  It then replays
:class:`durak_core.bots.inference.Inference` over those events and scores the weights
it gives at each decision: a weight ``w`` makes the chance that the opponent holds an
unseen card ``u * w / sum(w)`` (``u``: how many of its cards are unknown), and the
score is

* the mean chance given to the cards the opponent does hold (uniform weights give
  ``u`` over the number of unseen cards; telling the AI the hand gives 1), and
* the log loss of those chances over every unseen card (lower is better).

No arena noise: this judges the inference by itself, and ``--sweep`` shows how each of
its constants moves the score (each varied alone, the others as they are).

    python benchmarks/inference_quality.py [--deals 20] [--first 3000] [--sweep] [--hints W ...]
        [--particles 200] [--sharp] [--opponent ismcts-v1?iterations=300]

``--particles N`` also scores the particle filter over whole hands
(:mod:`durak_core.bots.particles`) with N particles; ``--opponent greedy`` plays the
greedy bot instead, the opponent the filter's model describes best; ``--sharp`` also
scores the filter with its model of the greedy bot itself (``particles.GREEDY``, what
the AI's ``sharp`` option deals by).

``--hints 2 4`` also scores weights that know the hand, each held card W times as likely
as another: how sharp ``benchmarks/hidden_cards.py``'s ``hint=W`` arms are.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import Game, Rules
from durak_core.bots import IsmctsBot, inference, make_bot
from durak_core.bots import particles as particles_module
from durak_core.bots.driver import play_game
from durak_core.events import Event

#: The constants of :mod:`durak_core.bots.inference` that ``--sweep`` varies.
CONSTANTS = ("TOOK_PLAIN", "TOOK_TRUMP", "PASSED_PLAIN", "PASSED_DEAR", "CHEAPER")

#: One decision: how many events the seat had seen, the unseen cards' indices, how
#: many of the opponent's cards were unknown, which unseen cards it held, and the
#: seat's observation (for the particle filter, which syncs with the seat's view).
Point = tuple[int, list[int], int, set[int], dict[str, Any]]


class Noting(IsmctsBot):
    """The AI, noting at each decision what :data:`Point` needs (``truth``: the game)."""

    truth: Game

    def start(self, seat: int, rules: Rules) -> None:
        super().start(seat, rules)
        self.seen: list[Event] = []
        self.points: list[Point] = []

    def on_events(self, events: Sequence[Event]) -> None:
        super().on_events(events)
        self.seen.extend(events)

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Any:
        view = Game.from_observation(observation)
        other = 1 - self.seat
        unknown = view.unknown_count(other)
        if unknown and view.talon_size:
            unseen = list(view.unseen)
            held = {c.index for c in self.truth.hand(other)} & {c.index for c in unseen}
            self.points.append(
                (len(self.seen), [c.index for c in unseen], unknown, held, observation)
            )
        return super().choose(observation, legal)


def collect(first: int, deals: int, opponent: str = "ismcts-v1?iterations=300"
            ) -> list[tuple[int, int, list[Event], list[Point]]]:
    games = []
    for deal in range(first, first + deals):
        for seat in (0, 1):
            game = Game.new(Rules(), seed=deal)
            ai = Noting(seed=deal, iterations=150)
            ai.truth = game
            v1 = make_bot(opponent, seed=deal + 7)
            play_game(game, [ai, v1] if seat == 0 else [v1, ai])
            games.append((seat, int(game.trump_suit), ai.seen, ai.points))
    return games


def score(games: list[tuple[int, int, list[Event], list[Point]]], uniform: bool = False,
          hint: float | None = None) -> tuple[float, float, int]:
    """(log loss per unseen card, mean chance of the held cards, decisions scored).

    uniform: weights all 1; hint: weight ``hint`` for each held card, 1 for the others
    (what ``benchmarks/hidden_cards.py``'s ``hint=W`` arm deals by).
    """
    loss = 0.0
    cards = 0
    held_chance = 0.0
    held_cards = 0
    decisions = 0
    for seat, trump, seen, points in games:
        learner = inference.Inference(2, seat, trump)
        done = 0
        for upto, unseen, unknown, held, _ in points:
            learner.observe(seen[done:upto])
            done = upto
            theirs = learner.weights(1 - seat)
            if hint is not None:
                weights = [hint if i in held else 1.0 for i in unseen]
            else:
                weights = [1.0 if uniform else theirs[i] for i in unseen]
            total = sum(weights)
            for index, weight in zip(unseen, weights, strict=True):
                p = min(0.995, max(0.005, unknown * weight / total))
                if index in held:
                    loss -= math.log(p)
                    held_chance += p
                    held_cards += 1
                else:
                    loss -= math.log(1 - p)
                cards += 1
            decisions += 1
    return loss / cards, held_chance / held_cards, decisions


def score_particles(games: list[tuple[int, int, list[Event], list[Point]]], particles: int,
                    model: particles_module.PolicyModel = particles_module.LOOSE
                    ) -> tuple[float, float, int]:
    """:func:`score` for the particle filter over whole hands
    (:class:`durak_core.bots.particles.HandFilter`, with ``model`` of the opponent's
    policy): the chance of each unseen card is the weight of the particles that hold it."""
    loss = 0.0
    cards = 0
    held_chance = 0.0
    held_cards = 0
    decisions = 0
    for n, (seat, trump, seen, points) in enumerate(games):
        hands = particles_module.HandFilter(seat, trump, particles, seed=n, model=model)
        done = 0
        for upto, unseen, _, held, observation in points:
            hands.observe(seen[done:upto])
            done = upto
            hands.sync(Game.from_observation(observation))
            chances = hands.chances()
            for index in unseen:
                p = min(0.995, max(0.005, chances[index]))
                if index in held:
                    loss -= math.log(p)
                    held_chance += p
                    held_cards += 1
                else:
                    loss -= math.log(1 - p)
                cards += 1
            decisions += 1
    return loss / cards, held_chance / held_cards, decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals, each played twice")
    parser.add_argument("--first", type=int, default=3000, help="the first deal's seed")
    parser.add_argument("--sweep", action="store_true", help="vary each constant alone")
    parser.add_argument("--opponent", default="ismcts-v1?iterations=300",
                        help="the bot the AI plays (a spec of durak_core.bots.make_bot)")
    parser.add_argument("--particles", type=int, default=200,
                        help="particles of the filter over whole hands (0: skip it)")
    parser.add_argument("--sharp", action="store_true",
                        help="also score the particles with the model of the greedy bot itself")
    parser.add_argument("--hints", type=float, nargs="*", default=[],
                        help="also score weights W for the held cards (hidden_cards.py hint=W)")
    args = parser.parse_args()
    start = time.process_time()
    games = collect(args.first, args.deals, args.opponent)
    loss, chance, decisions = score(games, uniform=True)
    print(f"{len(games)} games against {args.opponent}, {decisions} decisions with cards hidden "
          f"({time.process_time() - start:.0f} s of CPU time):")
    print(f"  uniform weights      mean chance of a held card {chance:.3f}, log loss {loss:.4f}")
    loss, chance, _ = score(games)
    print(f"  inference            mean chance of a held card {chance:.3f}, log loss {loss:.4f}")
    if args.particles:
        start = time.process_time()
        loss, chance, _ = score_particles(games, args.particles)
        label = f"particles ({args.particles})"
        print(f"  {label:<20} mean chance of a held card {chance:.3f}, log loss {loss:.4f} "
              f"({time.process_time() - start:.1f} s of CPU time)")
        if args.sharp:
            loss, chance, _ = score_particles(games, args.particles, particles_module.GREEDY)
            label = f"sharp ({args.particles})"
            print(f"  {label:<20} mean chance of a held card {chance:.3f}, log loss {loss:.4f}")
    for hint in args.hints:
        loss, chance, _ = score(games, hint=hint)
        label = f"held cards x{hint:g}"
        print(f"  {label:<20} mean chance of a held card {chance:.3f}, log loss {loss:.4f}")
    if args.sweep:
        for name in CONSTANTS:
            kept = getattr(inference, name)
            try:
                for value in (0.05, 0.2, 0.35, 0.6, 0.85, 1.0):
                    setattr(inference, name, value)
                    loss, chance, _ = score(games)
                    mark = "  (as it is)" if math.isclose(value, kept) else ""
                    print(f"    {name}={value:<5} mean chance {chance:.3f}, "
                          f"log loss {loss:.4f}{mark}")
            finally:
                setattr(inference, name, kept)
    return 0


if __name__ == "__main__":
    sys.exit(main())
