"""How long does ``trust=1`` trust an opponent?  The share of the AI's searches run without
searched replies, by opponent.

``builtin:ismcts?trust=1`` (a fixed budget of rollouts, so the games are the same every
run) plays each opponent on seeded deals, each twice with the seats swapped, and counts
its searches with the replies off (the opponent had played only moves the greedy policy
could have made, :mod:`durak_core.bots.style`) and the games in which the opponent was
caught straying, with the search a game was caught at.  Against greedy every search
trusts; against a searching opponent the count says how much of the game ``trust``
changes, which is what its arena figures (docs/ai.md) have to be read against.

    python benchmarks/trust_share.py [--deals 10] [--iterations 300] [--first 7301]
        [OPPONENT ...]   (default: greedy ismcts-v1?iterations=300 ismcts-v2?iterations=300)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import Game, Rules
from durak_core.bots import IsmctsBot, make_bot
from durak_core.bots.driver import play_game


def measure(opponent: str, deals: int, iterations: int, first: int) -> str:
    """One line: the trusted share of searches, the games caught, when they were caught."""
    searches = trusted = caught = 0
    caught_at: list[int] = []
    for deal in range(first, first + deals):
        for seat in (0, 1):
            ai = IsmctsBot(seed=deal, iterations=iterations, trust=1)
            other = make_bot(opponent, seed=deal)
            game = Game.new(Rules(), seed=deal)
            play_game(game, [ai, other] if seat == 0 else [other, ai])
            searches += len(ai.history)
            trusted += ai.trusted
            if ai.trusted < len(ai.history):
                caught += 1
                caught_at.append(ai.trusted + 1)  # the first search with replies searched
    games = 2 * deals
    when = (f", caught at search {statistics.median(caught_at):g} (median) of "
            f"{searches / games:.1f} a game" if caught_at else "")
    return (f"{opponent:<32} {trusted:5d}/{searches:<5d} searches trusted = "
            f"{100 * trusted / max(searches, 1):5.1f}%; caught in {caught:3d}/{games} games{when}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="*",
                        default=["greedy", "ismcts-v1?iterations=300", "ismcts-v2?iterations=300"])
    parser.add_argument("--deals", type=int, default=10, help="deals, each played twice")
    parser.add_argument("--iterations", type=int, default=300, help="the AI's rollouts")
    parser.add_argument("--first", type=int, default=7301, help="the first deal's seed")
    args = parser.parse_args()
    start = time.process_time()
    for opponent in args.opponents:
        print(measure(opponent, args.deals, args.iterations, args.first), flush=True)
    print(f"({time.process_time() - start:.0f} s of CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
