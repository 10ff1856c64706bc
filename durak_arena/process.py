"""A bot program run as a subprocess: start, handshake, ask with a deadline, stop.

The arena writes one message and then waits for one reply line with a
deadline (selectors on the raw pipe, no threads), so a bot that hangs,
dies or babbles is detected within its time limit.  The bot's stderr goes
to a temporary file: nothing can block on it, and the part written during
a game is attached to that game's forfeit report.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from .protocol import MAX_LINE, PROTOCOL, VERSION, ProtocolError, decode, encode

#: How much of a bot's stderr a forfeit report keeps (the end of it).
STDERR_TAIL = 4000


class BotFailure(Exception):
    """A bot broke the rules of the arena; ``kind`` is timeout, crash, garbage or illegal."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason


class ProcessBot:
    """One running bot program, reused for many games and restarted after a failure."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        startup_time: float = 20.0,
    ) -> None:
        if not argv:
            raise ValueError("a bot command needs at least a program name")
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self.startup_time = startup_time
        self.name: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        # Lives as long as this object (closed in close()), so no context manager.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115

    # -------------------------------------------------------------- lifecycle

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def ensure_started(self) -> None:
        """Start the program and shake hands, unless it is already running."""
        if self.running:
            return
        self.kill()
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=self.cwd,
                env=self.env,
                bufsize=0,
            )
        except OSError as exc:
            raise BotFailure("crash", f"cannot start {self.argv[0]!r}: {exc}") from None
        self._buffer.clear()
        reply = self.request(
            {"type": "hello", "protocol": PROTOCOL, "version": VERSION}, self.startup_time
        )
        if reply.get("type") != "hello":
            self.kill()
            raise BotFailure("garbage", f"expected a hello reply, got {reply!r:.200}")
        if reply.get("version") != VERSION:
            self.kill()
            raise BotFailure(
                "garbage", f"bot speaks protocol version {reply.get('version')!r}, not {VERSION}"
            )
        self.name = str(reply.get("name", "")) or None

    def close(self, grace: float = 2.0) -> None:
        """Say bye and wait a little for the program to leave; kill it if it stays."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                self.send({"type": "bye"})
                proc.wait(timeout=grace)
            except (BotFailure, subprocess.TimeoutExpired):
                pass
        self.kill()
        self._stderr.close()

    def kill(self) -> None:
        """Stop the program now (after a failure, or at the end)."""
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()

    # -------------------------------------------------------------- messages

    def send(self, message: dict[str, Any]) -> None:
        """Write one message; a closed pipe means the bot has crashed."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise BotFailure("crash", "the bot is not running")
        data = memoryview(encode(message))
        try:
            while data:
                written = proc.stdin.write(data)
                data = data[written or 0 :]
        except (BrokenPipeError, ConnectionResetError, ValueError):
            raise BotFailure("crash", self._exit_text()) from None

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send ``message`` and return the reply line, parsed, within ``timeout`` seconds."""
        self.send(message)
        line = self._read_line(time.monotonic() + timeout, timeout)
        try:
            return decode(line)
        except ProtocolError as exc:
            raise BotFailure("garbage", str(exc)) from None

    def _read_line(self, deadline: float, timeout: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        buffer = self._buffer
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                end = buffer.find(b"\n")
                if end >= 0:
                    line = bytes(buffer[:end])
                    del buffer[: end + 1]
                    if line.strip():
                        return line
                    continue
                if len(buffer) > MAX_LINE:
                    raise BotFailure("garbage", f"a reply line longer than {MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise BotFailure("timeout", f"no reply within {timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotFailure("crash", self._exit_text())
                buffer += chunk

    def _exit_text(self) -> str:
        proc = self._proc
        if proc is None:
            return "the bot is not running"
        try:
            code = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the bot closed its output before answering"
        if code == 0:
            # Exit status 0 reads as success; the point is that no answer came.
            return "the bot exited before answering (exit status 0)"
        if code < 0:
            return f"the bot was killed by signal {-code} before answering"
        return f"the bot exited with code {code} before answering"

    # ---------------------------------------------------------------- stderr

    def stderr_mark(self) -> int:
        """A position in the bot's stderr, for :meth:`stderr_since`."""
        self._stderr.seek(0, os.SEEK_END)
        return self._stderr.tell()

    def stderr_since(self, mark: int) -> str:
        """What the bot wrote to stderr since ``mark`` (the last few thousand characters)."""
        self._stderr.seek(0, os.SEEK_END)
        end = self._stderr.tell()
        start = max(mark, end - STDERR_TAIL)
        self._stderr.seek(start)
        return self._stderr.read(end - start).decode("utf-8", errors="replace")
