"""What do the hidden cards cost the AI?  The default AI against ``ismcts-v1`` (or
another ``--opponent``), once as it is and once *told the opponent's hand* (a
diagnostic, not a bot anyone plays: its determinizations deal the opponent the cards it
really holds; the talon's order stays hidden), both at the same CPU time a decision, on
the same duplicate deals.

The difference is what perfect knowledge of the other hand is worth against this
opponent: an upper bound on what inferring that hand from its play
(:mod:`durak_core.bots.inference`; ``benchmarks/inference_quality.py`` measures how much
of it the inference recovers) could gain.  The two arms run interleaved, game by game,
so whatever else loads the machine loads both alike.

    python benchmarks/hidden_cards.py [--deals 100] [--first 600] [--ms 100] [--jobs 2]
        [--opponent SPEC] [--ai OPTIONS] [ARM ...]

An ARM is ``as-is``, ``told``, ``seer`` or ``hint=W``.  ``seer`` is told everything: the
hand and the talon's order, so every deal it searches is the game itself (a ceiling:
what this search wins with no hidden cards at all).  ``hint=W`` is the AI hinted at the
hand, its deals giving the opponent each card it holds W times as likely as another (an
inference of known sharpness: how sharp would the inference have to be to matter?).
The default arms are ``as-is told``.  ``--opponent`` is a bot spec without ``builtin:``;
``{ms}`` in it stands for ``--ms`` (default ``ismcts-v1?ms={ms}&cpu=1``).  ``--ai`` gives
the AI of every arm options of its own, as a query string (``model=0&replies=4``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_arena.stats import wilson
from durak_core import Game, Rules
from durak_core.bots import IsmctsBot, make_bot, parse_options
from durak_core.bots.driver import play_game
from durak_core.bots.inference import Inference


class ToldBot(IsmctsBot):
    """The AI, told the other seat's hand through ``truth`` (the game being played): a
    two-seat diagnostic only.  With ``seer`` set it is told the talon's order too.  With
    ``hint`` set it is only hinted at: its deals give
    the other seat each card it holds ``hint`` times as likely as each it does not
    (weighted sampling, as the inference deals), an inference of known sharpness."""

    truth: Game | None = None
    hint: float | None = None
    seer: bool = False

    def _deal(self, view: Game, rng: random.Random) -> Game:
        if self.truth is None:
            return super()._deal(view, rng)
        if self.seer:  # the game itself: the hand and the talon's order
            return self.truth.copy()
        held = set(self.truth.hand(1 - self.seat))
        if self.hint is not None:
            weights = [[1.0] * 52 for _ in range(2)]
            for card in held:
                weights[1 - self.seat][card.index] = self.hint
            inference = Inference.with_weights(2, self.seat, int(view.trump_suit), weights)
            return inference.deal(view, rng)
        unseen = list(view.unseen)
        theirs = [c for c in unseen if c in held]
        talon = [c for c in unseen if c not in held]
        rng.shuffle(talon)
        return view.deal_unseen(theirs + talon)


def hint_of(arm: str) -> float | None:
    """The weight W of an arm ``hint=W``; None for another arm (ValueError: W not a number)."""
    return float(arm.removeprefix("hint=")) if arm.startswith("hint=") else None


def arm_label(arm: str) -> str:
    if arm == "as-is":
        return "as it is (default)"
    if arm == "told":
        return "told the opponent's hand"
    if arm == "seer":
        return "told the hand and talon"
    return f"hinted, held cards x{hint_of(arm):g}"


def parse_arm(arm: str) -> str:
    """An arm of the command line, checked: ``as-is``, ``told``, ``seer`` or ``hint=W`` (W > 1)."""
    if arm in ("as-is", "told", "seer"):
        return arm
    try:
        weight = hint_of(arm)
    except ValueError:
        weight = None
    if weight is None or not weight > 1:
        raise argparse.ArgumentTypeError(
            f"an arm is as-is, told, seer or hint=W (W > 1), not {arm!r}"
        )
    return arm


OPPONENT = "ismcts-v1?ms={ms}&cpu=1"


def play(task: tuple[int, int, str, float, str, str]) -> str:
    """One game of deal ``deal`` with the AI in ``seat``: "win", "loss" or "draw"."""
    deal, seat, arm, ms, opponent, options = task
    game = Game.new(Rules(), seed=deal)
    extra = parse_options(options.split("&")) if options else {}
    ai = ToldBot(seed=1000 + deal, ms=ms, cpu=1, **extra)
    if arm != "as-is":
        ai.truth = game
    ai.hint = hint_of(arm)
    ai.seer = arm == "seer"
    other = make_bot(opponent.replace("{ms}", f"{ms:g}"), seed=2000 + deal)
    play_game(game, [ai, other] if seat == 0 else [other, ai])
    if not game.losers:
        return "draw"
    return "loss" if seat in game.losers else "win"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("arms", nargs="*", type=parse_arm, default=["as-is", "told"],
                        help="as-is, told, seer, hint=W (default: as-is told)")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice")
    parser.add_argument("--first", type=int, default=600, help="the first deal's seed")
    parser.add_argument("--ms", type=float, default=100, help="CPU time a decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--opponent", default=OPPONENT,
                        help="the other seat's bot spec, {ms} for --ms (default: %(default)s)")
    parser.add_argument("--ai", default="", metavar="OPTIONS",
                        help="the AI's options in every arm, a query string (default: none)")
    args = parser.parse_args()
    start = time.monotonic()
    tasks = [(deal, seat, arm, args.ms, args.opponent, args.ai)
             for deal in range(args.first, args.first + args.deals)
             for seat in (0, 1) for arm in args.arms]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(play, tasks, chunksize=1)
    else:
        results = [play(task) for task in tasks]
    opponent = args.opponent.replace("{ms}", f"{args.ms:g}")
    ai = f" (the AI with {args.ai})" if args.ai else ""
    print(f"{args.deals} deals played twice against {opponent}, {args.ms:g} ms of CPU time "
          f"a decision each{ai}:")
    for arm in args.arms:
        mine = [r for r, t in zip(results, tasks, strict=True) if t[2] == arm]
        won, lost = mine.count("win"), mine.count("loss")
        lo, hi = wilson(won, won + lost)
        print(f"  {arm_label(arm):<26} won {won:3d}/{won + lost:<3d} decided = "
              f"{100 * won / max(1, won + lost):5.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
              f"{mine.count('draw')} draws")
    print(f"{time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
