"""``durak-arena``: play bots against each other and rank them.

Example::

    durak-arena builtin:random builtin:greedy "builtin:ismcts?ms=100" \\
        "py:mybot.py:MyBot" "cmd:node examples/bots/random.js" \\
        --games 200 --jobs 2 --seed 1 --json results.json

Bots: ``builtin:NAME?key=value&...`` (a name of :data:`durak_core.bots.REGISTRY`:
random, greedy, ismcts, ismcts-v1, ismcts-v2) run inside the
workers; ``py:FILE.py:CLASS?key=value`` runs a :class:`durak_core.bots.Bot`
subclass as a subprocess through :mod:`durak_arena.botrunner`;
``cmd:COMMAND`` runs any program that speaks docs/bot-protocol.md.

Every bot is checked before the first game (:mod:`durak_arena.check`): one that
cannot play gets one line with the reason, and the tournament does not start.
A bot that breaks later forfeits that game; the terminal gets one line the first
time, the details (its stderr, a traceback) go to the ``--log`` file.

Exit status: 0 after a tournament, 1 if a bot forfeited every game it played (or a
worker died), 2 for a bad command line or a bot that failed its check, 130 when
interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from typing import Any, TextIO

from durak_core import Rules
from durak_core.bots import REGISTRY

from .check import check_bots
from .referee import BotSpec, GameRecord
from .tournament import (
    DaskExecutor,
    Executor,
    ProcessExecutor,
    Results,
    SerialExecutor,
    run_tournament,
    total_games,
)

#: The forfeit log's default name, in the current directory.
DEFAULT_LOG = "durak-arena.log"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="durak-arena",
        description="Round-robin tournaments between Durak bots, with duplicate deals.",
        epilog=f"Bots: builtin:NAME?k=v ({', '.join(REGISTRY)}; builtin:NAME#2 enters one "
        "twice), py:FILE.py:CLASS?k=v, cmd:COMMAND.  The protocol for cmd: bots is in "
        "docs/bot-protocol.md.  Ratings: Bradley-Terry on the Elo scale.",
    )
    p.add_argument("bots", nargs="+", metavar="BOT", help="bot specs (at least two)")
    p.add_argument("--games", type=int, default=100,
                   help="games per pairing (rounded up to whole duplicate deals; default 100)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--json", metavar="PATH",
                   help="also write the results as JSON to PATH (its directory is made if "
                        "missing); the path written is printed last")
    p.add_argument("--players", type=int, default=2,
                   help="players per game: 2 (default) plays pairs, N plays every N-bot table")
    p.add_argument("--deck", type=int, default=36, choices=(24, 36, 52), help="deck size")
    p.add_argument("--variant", default="podkidnoy", choices=("podkidnoy", "perevodnoy"))
    p.add_argument("--move-time", type=float, default=10.0, metavar="SECONDS",
                   help="per-move time limit; slower bots forfeit the game (default 10)")
    p.add_argument("--dask", metavar="SCHEDULER_ADDRESS",
                   help="run the games on this Dask cluster instead of --jobs local processes")
    p.add_argument("--log", metavar="PATH", default=DEFAULT_LOG,
                   help="where forfeits are logged with the bot's stderr, written only if a bot "
                        f"forfeits (default {DEFAULT_LOG})")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p



class ForfeitLog:
    """Forfeits: every detail to a log file, one line per bot and kind to the terminal.

    A crashing bot can forfeit hundreds of games; its traceback on the terminal each
    time would bury everything else.  The file is created at the first forfeit.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.count = 0
        self.kinds: dict[tuple[str, str], int] = {}
        self._file: TextIO | None = None

    def add(self, record: GameRecord) -> str | None:
        """Log a forfeit; returns the terminal line, or None when one was printed already."""
        f = record.forfeit
        assert f is not None
        if self._file is None:
            self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 (closed in close())
        self._file.write(format_forfeit(record) + "\n\n")
        self._file.flush()
        self.count += 1
        key = (str(f["bot"]), str(f["kind"]))
        self.kinds[key] = self.kinds.get(key, 0) + 1
        if self.kinds[key] > 1:
            return None
        return (
            f"forfeit: {f['bot']} {f['kind']} in game {record.game}: {f['reason']} "
            f"(this and later forfeits, with the bot's stderr, in {self.path})"
        )

    def summary(self) -> str | None:
        if not self.count:
            return None
        parts = ", ".join(f"{bot} {n} {kind}" for (bot, kind), n in self.kinds.items())
        plural = "" if self.count == 1 else "s"
        return f"durak-arena: {self.count} forfeit{plural} ({parts}); details in {self.path}"

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.enabled = enabled
        self.start = time.monotonic()
        self._last = 0.0

    def step(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if self.enabled and (now - self._last >= 0.1 or self.done >= self.total):
            self._last = now
            self.draw(now)

    def draw(self, now: float) -> None:
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        rate = self.done / max(now - self.start, 1e-9)
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} games  {rate:.1f} games/s ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_tables(results: Results) -> str:
    """The bot table and the pairs table, for a terminal."""
    rows = results.bot_rows()
    width = max(12, *(len(r["name"]) for r in rows))
    lines = [
        f"{'#':>2}  {'bot':<{width}}  {'games':>6} {'wins':>6} {'draws':>5} {'losses':>6} "
        f"{'forf.':>5}  {'win rate':>8}  {'95% CI':<15} {'rating':>6} {'ms/move':>7}"
    ]
    for i, r in enumerate(rows, 1):
        lo, hi = r["ci95"]
        ci = f"[{100 * lo:.1f}, {100 * hi:.1f}]"
        ms = "-" if r["ms_per_decision"] is None else f"{r['ms_per_decision']:.1f}"
        lines.append(
            f"{i:>2}  {r['name']:<{width}}  {r['games']:>6} {r['wins']:>6} {r['draws']:>5} "
            f"{r['losses']:>6} {r['forfeits']:>5}  {_pct(r['win_rate']):>8}  {ci:<15} "
            f"{r['rating']:>6.0f} {ms:>7}"
        )
    lines.append("")
    lines.append("win rate: wins / decided games (draws left out), Wilson 95% interval; rating:")
    lines.append("Bradley-Terry on the Elo scale (1500 + 400 log10 strength).")
    pairs = results.pair_rows()
    if pairs:
        pw = max(len(p["a"]) for p in pairs)
        qw = max(len(p["b"]) for p in pairs)
        lines.append("")
        lines.append(
            f"{'a':<{pw}}  {'b':<{qw}}  {'games':>6} {'a wins':>6} {'b wins':>6} {'draws':>5} "
            f"{'forf.':>5}  {'a win rate':>10}  95% CI"
        )
        for p in pairs:
            lo, hi = p["ci95"]
            lines.append(
                f"{p['a']:<{pw}}  {p['b']:<{qw}}  {p['games']:>6} {p['a_wins']:>6} "
                f"{p['b_wins']:>6} {p['draws']:>5} {p['forfeits']:>5}  "
                f"{_pct(p['a_win_rate']):>10}  [{100 * lo:.1f}, {100 * hi:.1f}]"
            )
    return "\n".join(lines)


def format_forfeit(record: GameRecord) -> str:
    f = record.forfeit
    assert f is not None
    who = f"{f['bot']} (seat {f['seat']})"
    text = f"forfeit in game {record.game}: {who} {f['kind']}: {f['reason']}"
    stderr = str(f.get("stderr") or "").rstrip()
    if stderr:
        text += "\n  bot stderr:\n" + "\n".join("    " + line for line in stderr.splitlines())
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if len(args.bots) < 2:
        parser.error("name at least two bots")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.move_time <= 0:
        parser.error("--move-time must be positive")
    if not os.path.isdir(os.path.dirname(os.path.abspath(args.log))):
        parser.error(f"--log {args.log}: no such directory")
    try:
        rules = Rules(players=args.players, deck_size=args.deck, variant=args.variant)
    except ValueError as exc:
        parser.error(str(exc))
    bots = []
    bad = False
    for text in args.bots:
        try:
            bots.append(BotSpec.parse(text))
        except ValueError as exc:  # one line per bad bot, each naming its bot
            print(f"durak-arena: {exc}", file=sys.stderr)
            bad = True
    if bad:
        return 2
    if len(bots) < rules.players:
        parser.error(f"{rules.players}-player games need at least {rules.players} bots")
    if len({b.text for b in bots}) != len(bots):
        parser.error("each bot may be named once (builtin:NAME#2 enters a built-in bot again)")
    failures = check_bots(bots)
    if failures:
        for line in failures:
            print(f"durak-arena: {line}", file=sys.stderr)
        return 2

    total = total_games(len(bots), args.games, rules.players)
    if total != math.comb(len(bots), rules.players) * args.games:
        per = total // math.comb(len(bots), rules.players)
        print(f"note: {per} games per pairing (whole duplicate deals)", file=sys.stderr)
    groups = math.comb(len(bots), rules.players)
    deals = math.ceil(args.games / rules.players)
    workers = 8 if args.dask else args.jobs
    tasks_per_group = max(1, min(max(1, deals // 5), max(4, math.ceil(4 * workers / groups))))

    executor: Executor
    if args.dask:
        try:
            executor = DaskExecutor(args.dask)
        except (RuntimeError, OSError) as exc:
            print(f"durak-arena: {exc}", file=sys.stderr)
            return 2
    elif args.jobs == 1:
        executor = SerialExecutor()
    else:
        executor = ProcessExecutor(args.jobs)

    progress = Progress(total, sys.stderr, enabled=not args.quiet and sys.stderr.isatty())
    forfeits = ForfeitLog(args.log)

    def on_record(record: GameRecord) -> None:
        if record.forfeit is not None:
            line = forfeits.add(record)
            if line is not None:
                if progress.enabled:
                    sys.stderr.write("\r")
                print(line, file=sys.stderr)
        progress.step()

    try:
        results = run_tournament(
            bots,
            games=args.games,
            seed=args.seed,
            rules=rules,
            move_time=args.move_time,
            executor=executor,
            tasks_per_group=tasks_per_group,
            on_record=on_record,
        )
    except KeyboardInterrupt:
        progress.close()
        print("durak-arena: interrupted", file=sys.stderr)
        return 130
    except BrokenExecutor as exc:
        progress.close()
        print(f"durak-arena: a worker died, the tournament is incomplete: {exc}", file=sys.stderr)
        return 1
    finally:
        executor.close()
        forfeits.close()
    progress.close()
    print(format_tables(results))
    if args.json:
        settings: dict[str, Any] = {
            "bots": [b.text for b in bots],
            "games_per_pairing": total // groups,
            "seed": args.seed,
            "jobs": args.jobs,
            "dask": args.dask,
            "rules": rules.to_dict(),
            "move_time": args.move_time,
            "cwd": os.getcwd(),
        }
        path = os.path.abspath(args.json)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(results.to_dict(settings), fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        # A relative path lands wherever the arena was started: say where that was.
        print(f"durak-arena: results written to {path}")
    summary = forfeits.summary()
    if summary:
        print(summary, file=sys.stderr)
    never = [
        (name, t.games) for name, t in results.tallies.items() if t.games and t.forfeits == t.games
    ]
    for name, games in never:
        print(
            f"durak-arena: {name} forfeited every one of its {games} games; "
            f"see {forfeits.path}",
            file=sys.stderr,
        )
    return 1 if never else 0


if __name__ == "__main__":
    sys.exit(main())
