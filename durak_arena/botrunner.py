"""Run a :class:`durak_core.bots.Bot` as a subprocess bot speaking the arena protocol.

Two ways to use it:

* from the command line, naming a class in a file or a module, with
  options passed to its constructor::

      python -m durak_arena.botrunner mybot.py:MyBot depth=3
      python -m durak_arena.botrunner mypackage.bots:MyBot

  (the arena's ``py:mybot.py:MyBot`` bot spec does exactly this);

* from the bot's own file, which then runs as ``cmd:python mybot.py``::

      from durak_arena.botrunner import serve
      if __name__ == "__main__":
          serve(MyBot)

If the bot's constructor takes a ``seed`` parameter, a fresh bot is made for
every game with the seed the arena sends, so games replay exactly; otherwise
one bot object plays every game.  The helper answers ``hello``, forwards
``start``, events and ``act`` to the bot, and leaves on ``bye`` or end of
input.  Anything the bot prints goes to stderr, which the arena logs: stdout
carries the protocol only.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from durak_core import Rules, parse_action
from durak_core.bots import Bot, check_options, parse_options

from .protocol import PROTOCOL, VERSION, decode, encode, event_from_dict

BotSource = Bot | Callable[..., Bot]


def _wants_seed(factory: Callable[..., Bot]) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def serve(
    bot: BotSource,
    options: dict[str, Any] | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Speak the protocol on stdin/stdout for ``bot`` until ``bye``; returns an exit code.

    bot: a Bot (plays every game), or a Bot class / factory, called with
        ``seed=`` for each game when it takes one, else once.
    options: keyword arguments for the factory.
    """
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    options = dict(options or {})
    per_game: Callable[..., Bot] | None = None
    current: Bot | None = None
    if isinstance(bot, Bot):
        current = bot
    elif _wants_seed(bot):
        per_game = bot
    else:
        current = bot(**options)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # a stray print() in the bot must not corrupt the protocol
    try:
        for raw in inp:
            if not raw.strip():
                continue
            message = decode(raw)
            kind = message["type"]
            if kind == "hello":
                name = getattr(current, "name", None) or getattr(per_game, "name", "bot")
                _send(out, {"type": "hello", "protocol": PROTOCOL, "version": VERSION,
                            "name": str(name)})
            elif kind == "start":
                if per_game is not None:
                    current = per_game(seed=message.get("seed"), **options)
                assert current is not None
                current.start(int(message["seat"]), Rules.from_dict(message["rules"]))
            elif kind == "act":
                assert current is not None, "act before start"
                _deliver(current, message.get("events", []))
                legal = [parse_action(t) for t in message["legal"]]
                action = current.choose(message["observation"], legal)
                _send(out, {"type": "action", "action": str(action)})
            elif kind == "end":
                if current is not None:
                    _deliver(current, message.get("events", []))
            elif kind == "bye":
                return 0
            # Unknown message types are ignored: newer arenas may send more.
    finally:
        sys.stdout = real_stdout
    return 0


def _deliver(bot: Bot, events: Sequence[dict[str, Any]]) -> None:
    if events:
        bot.on_events([event_from_dict(e) for e in events])


def _send(out: BinaryIO, message: dict[str, Any]) -> None:
    out.write(encode(message))
    out.flush()


def load_bot_class(target: str) -> Callable[..., Bot]:
    """Load ``path/to/file.py:Class`` or ``package.module:Class``.

    Whatever goes wrong (no such file, a syntax error, an exception while importing, no
    such class, a class without a ``choose`` method) is a ValueError of one line that
    says where.
    """
    where, sep, name = target.rpartition(":")
    if not sep or not where or not name:
        raise ValueError(f"name the bot class: 'file.py:Class' or 'module:Class', not {target!r}")
    if where.endswith(".py"):
        path = Path(where).resolve()
        if not path.is_file():
            raise ValueError(f"no such file: {path}")
        spec = importlib.util.spec_from_file_location(f"_durak_bot_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        sys.path.insert(0, str(path.parent))  # the bot may import its neighbours
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the bot's own code: any error at all
            raise ValueError(f"cannot import {path.name}: {_where(exc, path)}") from None
    else:
        try:
            module = importlib.import_module(where)
        except Exception as exc:
            raise ValueError(f"cannot import {where}: {type(exc).__name__}: {exc}") from None
    factory = getattr(module, name, None)
    if factory is None:
        raise ValueError(f"{Path(where).name} has no {name!r}")
    if not callable(factory):
        raise ValueError(f"{name} in {Path(where).name} is not a Bot class")
    if isinstance(factory, type) and not _has_choose(factory):
        raise ValueError(
            f"{name} in {Path(where).name} has no choose(observation, legal) method "
            "(subclass durak_core.bots.Bot and write one)"
        )
    return factory


def _has_choose(cls: type) -> bool:
    choose = getattr(cls, "choose", None)
    return callable(choose) and choose is not Bot.choose


def _where(exc: BaseException, path: Path) -> str:
    """An exception from importing the bot's file, with the line of that file it came from."""
    if isinstance(exc, SyntaxError):
        return f"{exc.msg} (line {exc.lineno})"
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    at = f" (line {line})" if line is not None else ""
    return f"{type(exc).__name__}: {exc}{at}"


def make_probe(factory: Callable[..., Bot], options: dict[str, Any], label: str) -> Bot:
    """Build the bot once, before any game, so bad options and a failing constructor are
    reported at start-up (the arena checks every bot this way before a tournament)."""
    check_options(factory, options, label)
    try:
        bot = factory(seed=0, **options) if _wants_seed(factory) else factory(**options)
    except Exception as exc:
        raise ValueError(f"{label}: making the bot failed: {type(exc).__name__}: {exc}") from None
    if not _has_choose(type(bot)):
        raise ValueError(f"{label} made {bot!r}, which has no choose(observation, legal) method")
    return bot


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        factory = load_bot_class(args[0])
        options = parse_options(args[1:])
        probe = make_probe(factory, options, args[0].rpartition(":")[2])
    except ValueError as exc:
        print(f"botrunner: {exc}", file=sys.stderr)
        return 2
    # A bot that takes a seed is made afresh for every game; any other plays them all.
    return serve(factory if _wants_seed(factory) else probe, options)


if __name__ == "__main__":
    sys.exit(main())
