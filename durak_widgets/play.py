"""``play()``: a game of Durak in a notebook cell, against bots or hot-seat."""

from __future__ import annotations

from collections.abc import Sequence

from durak_core import Rules
from durak_core.bots import REGISTRY, Bot, make_bot

from . import i18n, words
from .backend import LocalBackend
from .browser import IN_BROWSER
from .controller import TableController
from .handoff import Handoff

#: The bot ``play()`` seats when no opponents are named: the strongest quick one built in.
PREFERRED_DEFAULT_BOTS = ("greedy", "random")
#: Seconds between a bot being asked and its card landing, so people can follow.
DEFAULT_DELAY = 0.6
#: What ``"ismcts"`` means in a browser (the JupyterLite site): Pyodide runs the pure
#: engine, about 750 of the AI's iterations a second against 13,000 compiled, and the
#: kernel can do nothing else while a bot thinks (no threads).  300 ms of search (a
#: median 225-240 iterations, a fifth of the 1,300 the default 100 ms buy compiled; the
#: slowest of 30 decisions took 306 ms) keeps a bot's move well under a second and within
#: the display delay: `python benchmarks/site_speed.py --ms 100 300`.  On 240 iterations
#: the AI still beats greedy in 92% of decided games (README, "Speed and strength").
BROWSER_ISMCTS = "ismcts?ms=300"


def default_bot() -> str:
    """The name of the bot ``play()`` uses when no opponents are named."""
    return next(name for name in (*PREFERRED_DEFAULT_BOTS, *sorted(REGISTRY)) if name in REGISTRY)


def _seed_for(seed: int | None, seat: int) -> int | None:
    """A distinct, reproducible seed per bot seat (None stays None: fresh randomness)."""
    return None if seed is None else seed * 1009 + seat


def play(
    opponents: Sequence[str | Bot] | None = None,
    rules: Rules | None = None,
    seed: int | None = None,
    hot_seat: int | None = None,
    delay: float = DEFAULT_DELAY,
    names: Sequence[str] | None = None,
    handoff: Handoff | None = None,
    lang: str | None = None,
    four_colour: bool = False,
) -> TableController:
    """Open a Durak table in the notebook; the returned controller displays as the table.

    opponents: bots by name (``"random"``, ``"greedy"``, ``"ismcts?ms=200"``, see
        ``durak_core.bots.REGISTRY``) or :class:`~durak_core.bots.Bot` instances, one per
        bot seat.  Default: one bot per seat not played by a person.
    rules: :class:`~durak_core.Rules`; default ``Rules(players=people + bots)``.
    seed: makes the deals and the bots' choices reproducible.
    hot_seat: how many people share this screen (they get seats 0, 1, ...; their hands
        are hidden between turns).  Default: one person, seat 0.
    delay: seconds a bot's move takes at least, so its card is seen landing (0: at once).
    names: a display name per seat.
    handoff: the hand-off point (tests pass ``Handoff(mode="sync")`` or ``"manual"``).
    lang: the table's language, ``"ru"`` or ``"en"`` (see ``durak_widgets.i18n``);
        default: the environment's (``DURAK_LANG``, ``LANG``; the browser's in the site).
    four_colour: a four-colour deck: ♠ black, ♥ red, ♦ blue, ♣ green.

    Games follow each other as a match (``durak_core.Match``): "New game" keeps the score.

    >>> from durak_widgets.handoff import Handoff
    >>> table = play(opponents=["random"], seed=1, delay=0, handoff=Handoff(mode="sync"))
    >>> table.backend.names
    ('You', 'random')
    >>> table.close()
    """
    if hot_seat is not None and (
        not isinstance(hot_seat, int) or isinstance(hot_seat, bool) or not 1 <= hot_seat <= 6
    ):
        raise ValueError(
            f"hot_seat must be the number of people at the screen (1 to 6), not {hot_seat!r}"
        )
    people = hot_seat or 1
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a durak_core.Rules, not {type(rules).__name__}")
    if opponents is None:
        if rules is not None:
            count = rules.players - people
            if count < 0:
                raise ValueError(
                    f"{_count(people, 'person', 'people')} at the screen but the rules are "
                    f"for {_count(rules.players, 'player')}"
                )
        else:
            count = 0 if people >= 2 else 1
        opponents = [default_bot()] * count
    elif isinstance(opponents, (str, Bot)):
        raise TypeError("opponents must be a list, e.g. opponents=['random']")
    opponents = list(opponents)
    if rules is None:
        total = people + len(opponents)
        if not 2 <= total <= 6:
            raise ValueError(
                f"{_count(people, 'person', 'people')} and {_count(len(opponents), 'bot')} "
                f"make {_count(total, 'player')}; a table seats 2 to 6"
            )
        rules = Rules(players=total)
    elif rules.players != people + len(opponents):
        raise ValueError(
            f"the rules are for {_count(rules.players, 'player')}, but there "
            f"{'is' if people + len(opponents) == 1 else 'are'} "
            f"{_count(people, 'person', 'people')} and {_count(len(opponents), 'bot')}"
        )
    if delay is None or delay < 0:
        raise ValueError(f"delay must be >= 0 seconds, not {delay!r}")

    bots: dict[int, Bot] = {}
    for k, spec in enumerate(opponents):
        seat = people + k
        if isinstance(spec, Bot):
            bots[seat] = spec
        elif isinstance(spec, str):
            if IN_BROWSER and spec == "ismcts":
                spec = BROWSER_ISMCTS  # a budget made for Pyodide; given options are kept
            bots[seat] = make_bot(spec, seed=_seed_for(seed, seat))  # ValueError names the bots
        else:
            raise TypeError(f"opponent {k}: expected a bot name or a Bot, not {spec!r}")

    code = i18n.normalize(lang) if lang is not None else i18n.default_language()
    if names is None:
        with i18n.speaking(code):
            names = default_names(people, [bots[s] for s in sorted(bots)])
    names = [str(x) for x in names]
    backend = LocalBackend(rules, bots, names, seed=seed, delay=delay)
    return TableController(backend, handoff, lang=code, four_colour=four_colour)


def _count(n: int, one: str, many: str | None = None) -> str:
    """``1 person``, ``2 people``, ``0 bots``: a number with its noun in the right form.

    >>> _count(1, "person", "people"), _count(6, "bot")
    ('1 person', '6 bots')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def default_names(people: int, bots: Sequence[Bot]) -> list[str]:
    """Names: "You" (or "Player 1", "Player 2"... in hot-seat), then the bots', made unique.

    >>> from durak_core.bots import RandomBot
    >>> default_names(1, [RandomBot(), RandomBot()])
    ['You', 'random', 'random 2']
    """
    out = [words.person_name(None)] if people == 1 else [
        words.person_name(i) for i in range(people)]
    seen: dict[str, int] = {}
    for bot in bots:
        base = words.bot_name(getattr(bot, "name", None) or type(bot).__name__)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base} {seen[base]}")
    return out
