"""Before a tournament: does every bot start and answer the handshake?

A ``py:`` file with a syntax error, a missing class or a class without ``choose``, or a
``cmd:`` program that does not start or does not answer ``hello``, would otherwise
forfeit every one of its games, one traceback at a time.  The arena starts each
subprocess bot once, shakes hands, says bye, and refuses to begin while any bot fails,
with one line per failing bot.  Built-in bots were already built once when their spec
was parsed (:meth:`durak_arena.referee.BotSpec.parse`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .process import BotFailure, ProcessBot
from .referee import BotSpec, bot_env

#: Seconds a bot program has to answer ``hello`` (the protocol's limit).
HELLO_TIME = 20.0


def check_bot(spec: BotSpec, hello_time: float = HELLO_TIME) -> str | None:
    """None if the bot starts and answers ``hello``, else the reason, in one line."""
    if spec.kind == "builtin":
        return None
    bot = ProcessBot(spec.argv(), cwd=spec.cwd, env=bot_env(), startup_time=hello_time)
    try:
        bot.ensure_started()
    except BotFailure as exc:
        return _reason(exc, bot.stderr_since(0))
    finally:
        bot.close()
    return None


def check_bots(specs: Sequence[BotSpec], hello_time: float = HELLO_TIME) -> list[str]:
    """One line per bot that fails its check, naming the bot and the reason."""
    failures = []
    for spec in specs:
        reason = check_bot(spec, hello_time)
        if reason is not None:
            failures.append(f"bot {spec.text!r} cannot play: {reason}")
    return failures


def _reason(exc: BotFailure, stderr: str) -> str:
    """The failure, with the last thing the program said on stderr when it said why."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    if last.startswith("botrunner: "):
        return last.removeprefix("botrunner: ")  # the helper's own one-line diagnosis
    if last:
        return f"{exc.reason}; its last words on stderr: {last[:300]}"
    return exc.reason
