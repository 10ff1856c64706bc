"""How strong are the built-in bots?  Prints the arena's tables for two seats and for 3-4.

Two seats, 36 cards: a round robin of random, greedy, ``ismcts-v1`` (the ISMCTS of
before the endgame solver, the yardstick) and ``ismcts`` (the AI), with duplicate
deals (each deal played twice, seats swapped), Wilson 95% intervals over decided
games and Bradley-Terry ratings.  Three and four seats: the AI against greedy bots
on the same deals with the seats rotated; the figure is how often the AI is the
durak against how often a greedy seat is.

The searching bots think ``--ms`` milliseconds of wall time per decision, so the
figures depend on the machine and its load (a loaded machine gives them fewer
iterations, which underestimates them): the tables' ``ms/move`` column shows the
time the bots really took, the load average is printed at the start and the end,
and the last lines show how many iterations fit in that time here (a few extra
games in this process).

On a machine shared with other work, ``--cpu`` makes ``--ms`` CPU time instead
(``ms=100&cpu=1``: each decision may use that much of its process's CPU time, which
other work on the machine does not take away; the arena runs built-in bots in its
worker processes one move at a time).  The bots then think as long as each other
whatever the load, each at its own speed; the games still vary a little from run
to run.  ``--iterations AI,V1`` gives each bot a fixed budget of rollouts per
decision instead: the games are then the same whatever the load.  A fair pair of
budgets is what each bot runs in the same CPU time; the last lines print that rate
(rollouts per 100 ms of CPU time, measured in this process, the AI's endgame
solving included).

    python benchmarks/ai_strength.py [--games 200] [--table-games 200] [--jobs 2]
                                     [--ms 100 [--cpu] | --iterations 800,400] [--seed 1]
                                     [--opponents random,greedy,v1]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_arena.cli import format_tables
from durak_arena.referee import BotSpec
from durak_arena.tournament import (
    Executor,
    ProcessExecutor,
    Results,
    SerialExecutor,
    run_tournament,
)
from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsV1Bot, play_game

#: The bars of the issues: (winner, loser, minimum share of decided games won).
BARS = (
    ("builtin:greedy", "builtin:random", 0.85),
    ("AI", "builtin:random", 0.95),
    ("AI", "builtin:greedy", 0.90),
    ("AI", "V1", 0.65),
    ("V1", "builtin:greedy", 0.65),
)
#: With more seats: the AI is the durak at most this share as often as a greedy seat.
TABLE_BAR = 0.5


def pair_line(results: Results, winner: str, loser: str, bar: float) -> str:
    pairs = {(p["a"], p["b"]): p for p in results.pair_rows()}
    row = pairs.get((winner, loser)) or pairs[(loser, winner)]
    won = row["a_wins"] if row["a"] == winner else row["b_wins"]
    decided = row["a_wins"] + row["b_wins"]
    if not decided:  # a handful of games (--games 2) can all be draws
        return (f"{winner} vs {loser}: no decided game in {row['games']}, "
                f"bar {100 * bar:.0f}%: undecided")
    lo, hi = row["ci95"] if row["a"] == winner else (1 - row["ci95"][1], 1 - row["ci95"][0])
    verdict = "meets" if won / decided >= bar else "MISSES"
    return (
        f"{winner} vs {loser}: {won}/{decided} decided games = {100 * won / decided:.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), bar {100 * bar:.0f}%: {verdict}"
    )


def table_line(results: Results, ai: str, players: int) -> str:
    rows = {r["name"]: r for r in results.bot_rows()}
    games = rows[ai]["games"]
    greedy = [r for name, r in rows.items() if name != ai]
    ai_durak = rows[ai]["losses"] / games
    greedy_durak = sum(r["losses"] for r in greedy) / len(greedy) / games
    ratio = ai_durak / greedy_durak if greedy_durak else float("inf")
    draws = rows[ai]["draws"]
    verdict = "meets" if ratio <= TABLE_BAR else "MISSES"
    each = ", ".join(f"{100 * r['losses'] / games:.1f}%" for r in greedy)
    return (
        f"{players} seats, {games} games ({draws} draws): {ai} is the durak in "
        f"{100 * ai_durak:.1f}%, a greedy seat in {100 * greedy_durak:.1f}% ({each}); "
        f"ratio {ratio:.2f}, bar {TABLE_BAR:.2f}: {verdict}"
    )


def iterations_line(
    bot: IsmctsBot, label: str, ms: float, players: int = 2, cpu: bool = False
) -> str:
    history = bot.history
    if not history:
        return f"{label}: no searched decisions"
    kind = "of CPU time" if cpu else "here"
    return (
        f"{label} iterations per decision in {ms:g} ms {kind} ({players} seats): "
        f"{sum(history) / len(history):.0f} (min {min(history)}, max {max(history)}, "
        f"{len(history)} decisions)"
    )


def cpu_rate(bot: IsmctsBot, deals: int = 2) -> str:
    """Rollouts per 100 ms of CPU time of ``bot`` (on an iteration budget) in a few games
    against greedy, whatever else it does for its decisions (solving endgames) included."""
    start = time.process_time()
    for deal in range(deals):
        play_game(Game.new(Rules(), seed=deal), [bot, GreedyBot()])
    spent = time.process_time() - start
    return (f"{bot.name}: {sum(bot.history) / spent / 10:.0f} rollouts per 100 ms of CPU time "
            f"({len(bot.history)} searched decisions, {bot.solved} solved exactly)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing, 2 seats")
    parser.add_argument("--table-games", type=int, default=200,
                        help="games at 3 and at 4 seats (0: skip them)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ms", type=float, default=100, help="think time per decision")
    parser.add_argument("--cpu", action="store_true",
                        help="--ms is CPU time of the bot's process, not wall time")
    parser.add_argument("--iterations", default="",
                        help="AI,V1: fixed rollouts per decision instead of --ms")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="random,greedy,v1",
                        help="the bots of the two-seat round robin besides the AI "
                             "(some of random, greedy, v1: fewer pairings, a quicker run)")
    args = parser.parse_args()
    known = {"random": "builtin:random", "greedy": "builtin:greedy", "v1": "V1"}
    opponents = [w for w in args.opponents.split(",") if w]
    if not opponents or any(w not in known for w in opponents):
        parser.error(f"--opponents wants some of random,greedy,v1, not {args.opponents!r}")

    if args.iterations:
        try:
            ai_iterations, v1_iterations = (int(n) for n in args.iterations.split(","))
        except ValueError:
            parser.error(f"--iterations wants two numbers, AI,V1: not {args.iterations!r}")
        ai = f"builtin:ismcts?iterations={ai_iterations}"
        v1 = f"builtin:ismcts-v1?iterations={v1_iterations}"
        budget = f"--iterations {args.iterations}"
    else:
        cpu = "&cpu=1" if args.cpu else ""
        ai = f"builtin:ismcts?ms={args.ms:g}{cpu}"
        v1 = f"builtin:ismcts-v1?ms={args.ms:g}{cpu}"
        budget = f"--ms {args.ms:g}" + (" --cpu" if args.cpu else "")
    chosen = "" if args.opponents == "random,greedy,v1" else f" --opponents {args.opponents}"
    print(f"command: python benchmarks/ai_strength.py --games {args.games} "
          f"--table-games {args.table_games} --jobs {args.jobs} {budget} "
          f"--seed {args.seed}{chosen}")
    print(f"machine: {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
    executor: Executor = SerialExecutor() if args.jobs == 1 else ProcessExecutor(args.jobs)
    start = time.monotonic()
    try:
        names = {"AI": ai, "V1": v1}
        entrants = [names.get(known[w], known[w]) for w in ("random", "greedy", "v1")
                    if w in opponents]
        bots = [BotSpec.parse(t) for t in (*entrants, ai)]
        results = run_tournament(bots, games=args.games, seed=args.seed, rules=Rules(),
                                 move_time=30.0, executor=executor, tasks_per_group=8)
        tables = []
        if args.table_games:
            for players in (3, 4):
                seats = [BotSpec.parse(ai)] + [
                    BotSpec.parse(f"builtin:greedy#{k}") for k in range(1, players)
                ]
                tables.append((players, run_tournament(
                    seats, games=args.table_games, seed=args.seed, rules=Rules(players=players),
                    move_time=30.0, executor=executor, tasks_per_group=16)))
    finally:
        executor.close()
    elapsed = time.monotonic() - start
    print()
    print("Two seats, 36 cards:")
    print(format_tables(results))
    print()
    playing = {*entrants, ai}
    for winner, loser, bar in BARS:
        a, b = names.get(winner, winner), names.get(loser, loser)
        if a in playing and b in playing:
            print(pair_line(results, a, b, bar))
    for players, table in tables:
        print()
        print(f"{players} seats, 36 cards: {ai} against greedy bots, seats rotated:")
        print(format_tables(table))
        print(table_line(table, ai, players))
    print()
    rows = {r["name"]: r for r in results.bot_rows()}
    for name in (ai, v1):
        if name in rows:
            print(f"{name}: {rows[name]['ms_per_decision']:.1f} ms per decision on average")
    print(f"load average at the end {os.getloadavg()[0]:.2f}; wall time {elapsed:.0f} s")
    if args.iterations:
        print(cpu_rate(IsmctsBot(seed=args.seed, iterations=ai_iterations)))
        print(cpu_rate(IsmctsV1Bot(seed=args.seed, iterations=v1_iterations)))
        return 0
    cpu_flag = int(args.cpu)
    for label, bot in (("ismcts", IsmctsBot(seed=args.seed, ms=args.ms, cpu=cpu_flag)),
                       ("ismcts-v1", IsmctsV1Bot(seed=args.seed, ms=args.ms, cpu=cpu_flag))):
        for deal in range(2):
            play_game(Game.new(Rules(), seed=deal), [bot, GreedyBot()])
        print(iterations_line(bot, label, args.ms, cpu=args.cpu))
    if args.table_games:
        bot = IsmctsBot(seed=args.seed, ms=args.ms, cpu=cpu_flag)
        play_game(Game.new(Rules(players=4), seed=0), [bot, *(GreedyBot() for _ in range(3))])
        print(iterations_line(bot, "ismcts", args.ms, players=4, cpu=args.cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
