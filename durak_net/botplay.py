"""A computer player for one side of a session: the terminal peer's ``--bot``, and the tests'.

The driver looks at the session's own view of the game after every event and, when
its seat may act, asks the bot.  It never acts while one of its proposals is still on
its way (the follower learns the outcome from the sequencer) or while its drawn cards
are still being opened, it never offers the bot a move the sequencer refused in this
very state, and it leaves a lone Pass to the session's automatic pass, so nothing is
sent twice.

>>> from durak_core.bots import RandomBot
>>> driver = BotDriver(RandomBot(seed=1))
>>> driver.choose(None) is None
True
"""

from __future__ import annotations

from typing import Any, Protocol

from durak_core import Action, Game, Pass
from durak_core.bots import Bot, make_bot


class _SessionLike(Protocol):
    """A :class:`~durak_net.session.Session` or a :class:`~durak_net.node.SessionView`."""

    @property
    def game(self) -> Game | None: ...

    @property
    def seat(self) -> int: ...

    @property
    def game_no(self) -> int: ...

    @property
    def pending(self) -> dict[int, Action]: ...

    @property
    def in_game(self) -> bool: ...

    @property
    def waiting_for_cards(self) -> bool: ...

    @property
    def refused(self) -> dict[str, str]: ...


def build_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from durak_core's registry; ``greedy`` falls back to ``random`` while the
    greedy bot is not written yet (said on the bot's ``name``)."""
    try:
        return make_bot(spec, seed=seed)
    except ValueError:
        if spec.partition("?")[0] != "greedy":
            raise
        bot = make_bot("random", seed=seed)
        bot.name = "random (greedy is not available)"
        return bot


class BotDriver:
    """Plays one seat of a session with a :class:`~durak_core.bots.Bot`."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._started: tuple[int, int] | None = None

    def choose(self, session: _SessionLike | None) -> Action | None:
        """The bot's next action for ``session``'s seat, or None if it should wait."""
        if session is None or not session.in_game or session.pending:
            return None
        if session.waiting_for_cards:
            return None
        game = session.game
        assert game is not None
        seat = session.seat
        if self._started != (session.game_no, seat):
            self._started = (session.game_no, seat)
            self.bot.start(seat, game.rules)
        legal = game.legal_actions(seat)
        if not legal or (len(legal) == 1 and isinstance(legal[0], Pass)):
            return None  # nothing to do, or the session's automatic pass
        refused = session.refused
        if refused:
            legal = [a for a in legal if str(a) not in refused]
            if not legal:
                return None  # everything was refused: wait for the state to change
        observation: dict[str, Any] = game.observation(seat)
        return self.bot.choose(observation, legal)
