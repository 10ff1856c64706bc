"""The options of the AI's search (:class:`durak_core.bots.IsmctsBot`), in one checked value.

A frozen dataclass, checked once in ``__post_init__``: a wrong value is refused with a
sentence naming the option before any search starts, and a checked value can be handed
to a helper process (:mod:`durak_core.bots.parallel`) as it is.  What each choice of
default bought in the arena is written up in docs/ai.md; here each option
says only what it does.

>>> config = IsmctsConfig(iterations=200, width=5)
>>> config.width, config.paired, config.budget_ms
(5, True, None)
>>> IsmctsConfig().budget_ms  # neither budget given: 100 ms
100.0
>>> IsmctsConfig(reply_greedy=1.5)
Traceback (most recent call last):
...
ValueError: reply_greedy is a probability, in 0..1, not 1.5
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

#: The most processes one search may use (``workers``).
MAX_WORKERS = 16
#: The think time when neither ``ms`` nor ``iterations`` is given.
DEFAULT_MS = 100.0

#: Options that are on or off: given as 0 or 1 (a spec has no other way), kept as bools.
_FLAGS = ("greedy_first", "paired", "model", "adapt", "halving", "throw", "infer",
          "compiled", "cpu", "every_seat", "trust", "sharp", "drop")


@dataclass(frozen=True)
class IsmctsConfig:
    """How the AI searches: its budget, its tree, its opponent model, its rollouts."""

    # ---------------------------------------------------------------- the budget
    #: Think time per decision in milliseconds (wall time, or CPU time with ``cpu``);
    #: with ``iterations`` too, whichever ends first; with neither, 100 (``budget_ms``).
    ms: float | None = None
    #: Rollouts per decision (a paired round counts one per candidate and is never cut
    #: short, so a few more may run).  Without ``ms`` the bot is fully deterministic.
    iterations: int | None = None
    #: Measure ``ms`` in CPU time of this process (``time.process_time``), which other
    #: work on the machine does not take away, instead of wall time.
    cpu: bool = False
    #: Processes that search each position: 1, this one only; N > 1 adds N - 1 helper
    #: processes whose root statistics are added up (root-parallel search).
    workers: int = 1

    # ---------------------------------------------------------------- the root
    #: Paired root: each deal is played out once for every candidate root action with
    #: the same rollout randomness, and the best mean wins; off: UCB at the root too,
    #: and the most visited action wins.
    paired: bool = True
    #: How many root actions to compare: the greedy choice, take or pass, then the
    #: cheapest others (:func:`durak_core.bots.greedy.shortlist`); 0: every action.
    width: int = 3
    #: The paired root by sequential halving: the budget in phases, the worse half of
    #: the root actions dropped after each; the final choice is among the last two.
    halving: bool = False

    # ---------------------------------------------------------------- the tree
    #: The UCB1 exploration constant (rewards lie in 0..1).
    c: float = 0.7
    #: At most this many tree levels (0: no limit; 1: flat Monte Carlo).
    depth: int = 0
    #: Expand a node's greedy action before the others; off: untried actions at random.
    greedy_first: bool = True
    #: Progressive widening at the bot's own decisions below the root: a node with ``v``
    #: visits tries at most ``1 + int(widen * sqrt(v))`` actions, greedy first; 0: every
    #: legal action is tried once before UCB chooses.
    widen: float = 0.0

    # ---------------------------------------------------------------- the opponents
    #: Opponents play the greedy policy inside the tree below their first ``replies``
    #: decisions, so mostly the bot's own decisions are searched; off: their moves
    #: are searched like the bot's own.
    model: bool = True
    #: With ``model``: the opponents' first this many decisions below the root action
    #: are searched all the same (their replies to it); 0: none.
    replies: int = 2
    #: With ``model``: at most this many replies are searched at each of those
    #: decisions (the greedy choice, take or pass, then the cheapest others); 0: all.
    reply_width: int = 2
    #: With ``model``: the chance that an iteration plays the greedy policy's reply at a
    #: searched opponent decision instead of choosing one by UCB (0: always searched;
    #: 1: always the model's).
    reply_greedy: float = 0.5
    #: With ``model``: the share of iterations on which an opponent's first searched
    #: reply is scored on a deal from that opponent's own view (this bot's hidden cards
    #: dealt anew, :func:`durak_core.tree.opponent_deal`; one more rollout), so the
    #: reply does not answer a hand the opponent cannot see; 0: off.
    reply_view: float = 0.0
    #: With ``model``, at tables of three or more: ``replies`` counts each opponent's
    #: decisions on its own, so every other seat's first ``replies`` decisions below the
    #: root action are searched (each node keeps the reward of the seat acting there);
    #: off: the first ``replies`` opponent decisions in all, whoever makes them, and
    #: the later seats play the greedy policy.  Two seats play the same either way.
    every_seat: bool = False
    #: Once an opponent has made a move the greedy policy could not have made
    #: (:mod:`durak_core.bots.style`), ``reply_greedy`` is 0 for the rest of the game.
    adapt: bool = False
    #: With ``model``: while every move the opponents have made so far is one the greedy
    #: policy could have made (:mod:`durak_core.bots.style`), no replies are searched
    #: (as ``replies`` 0: the model plays every opponent move, and the search exploits
    #: it fully); once an opponent has strayed, ``replies`` as given for the rest of
    #: the game, with ``reply_greedy`` 0 as under ``adapt``.
    trust: bool = False
    #: With ``model``: once an opponent has made a move the greedy policy could not have
    #: made, the model is dropped for the rest of the game (the search runs as with
    #: ``model`` 0: every opponent move searched).  Against greedy it never strays, so
    #: the model stays all game; with ``trust``, no replies are searched until then.
    drop: bool = True
    #: Deal the hidden cards by what the opponents' play revealed (card weights,
    #: :mod:`durak_core.bots.inference`); off: uniformly.
    infer: bool = True
    #: Deal the hidden cards from a particle filter over the opponent's whole hand
    #: (:mod:`durak_core.bots.particles`), in place of ``infer``'s card weights, at
    #: tables of two; 0: off; N > 0: N candidate hands.
    particles: int = 0
    #: With ``particles`` and ``trust``: the filter models the opponent as the greedy bot
    #: itself (:data:`durak_core.bots.particles.GREEDY`, its cheapest card all but
    #: certainly), and deals from it only while the opponent has made greedy moves
    #: alone; once it strays, ``infer``'s card weights (or uniform deals) take over.
    sharp: bool = False

    # ---------------------------------------------------------------- the rollouts
    #: How often a rollout step plays a random legal action instead of the greedy one.
    epsilon: float = 0.0
    #: The greedy policy of rollouts and tree in the engine's compiled code (the same
    #: moves, faster); off: in Python (:mod:`durak_core.bots.greedy`).
    compiled: bool = True
    #: Once the talon is empty and the two seats left hold at most this many cards
    #: together, a rollout ends with the endgame solver's exact result when it finds one
    #: within ``tail_nodes`` positions (compiled rollouts only); 0: off.
    tail: int = 0
    #: See ``tail``.
    tail_nodes: int = 2000
    #: In rollouts with an empty talon and two seats left, the attacker throws in a card
    #: the defender cannot beat when it has one (compiled rollouts only).
    throw: bool = False
    #: At tables of two, a rollout stops once this many bouts have ended while the
    #: talon still holds cards, and a learnt value model scores the position (the
    #: chance a greedy playout would leave each seat safe, from the hands' cards:
    #: :func:`durak_core.playout.cut_finish`, :mod:`durak_core.bots.value`); shorter
    #: rollouts, so more of them in the same time.  0: off, every rollout to the end.
    cutoff: int = 0
    #: At tables of two, each rollout still plays to the end, but its reward is this
    #: share of the learnt value model's score at the first bout's end (the chance a
    #: greedy playout from there leaves the seat safe, over every talon order) and the
    #: rest the rollout's result (:func:`durak_core.playout.blend_finish`): the value
    #: beside the rollouts, not in their place.  Whether a move is counted safe (the
    #: coach's chance) still goes by the result.  0: off; ``cutoff`` overrides it.
    blend: float = 0.0

    # ---------------------------------------------------------------- the endgame
    #: 0: never solve; 1: play an endgame (empty talon, two seats left) exactly
    #: (:mod:`durak_core.endgame`); 2: also solve the endgames the searches reach when
    #: the talon holds at most ``near`` cards at the root.
    solver: int = 1
    #: See ``solver``.
    near: int = 0
    #: The most positions one solve inside a search may visit (beyond it that rollout
    #: goes on with the greedy policy).
    solver_nodes: int = 2000
    #: At most this share of ``ms`` goes to solving the position itself.
    endgame_ms: float = 0.5
    #: Without ``ms``: at most this many positions for solving the position itself.
    endgame_nodes: int = 100_000
    #: At tables of two, with 1 to this many cards still in the talon, play exactly a
    #: bout or so before the endgame: with the trump card alone left the seat's view is
    #: a game of perfect information, solved as an endgame is; with more, deals from
    #: the inference (the talon's order dealt too) are each solved once for their best
    #: move, and the deals' votes decide (PIMC over the solver), within
    #: ``endgame_ms`` of the think time (``endgame_nodes`` without ``ms``).  With fewer
    #: than :data:`durak_core.bots.ismcts.EARLY_DEALS` deals settled in time, or a
    #: solved loss, the search plays.  0: off.
    exact_talon: int = 0

    def __post_init__(self) -> None:
        for name in _FLAGS:
            value = getattr(self, name)
            if value not in (0, 1) or isinstance(value, float):
                raise ValueError(f"{name} must be 0 or 1, not {value!r}")
            object.__setattr__(self, name, bool(value))
        ms, iterations = self.ms, self.iterations
        if ms is not None and (isinstance(ms, bool) or not ms > 0):
            raise ValueError(f"ms must be positive, not {ms!r}")
        if iterations is not None and (not _whole(iterations) or iterations < 1):
            raise ValueError(f"iterations must be a positive whole number, not {iterations!r}")
        if not _whole(self.workers) or not 1 <= self.workers <= MAX_WORKERS:
            raise ValueError(
                f"workers must be a whole number from 1 (no helper processes) to "
                f"{MAX_WORKERS}, not {self.workers!r}"
            )
        self._at_least(0, "width", "must be 0 (every action) or a positive number")
        self._at_least(0, "depth", "must be 0 (no limit) or a positive number")
        self._at_least(0, "replies", "must be a number of decisions (0 or more)")
        self._at_least(0, "reply_width", "must be 0 (every reply) or a positive number of replies")
        self._at_least(0, "particles", "must be 0 (off) or a positive number of hands")
        if self.sharp and not (self.particles and self.trust):
            raise ValueError("sharp needs particles (a number of hands) and trust")
        self._at_least(0, "tail", "must be a number of cards (0: off)")
        self._at_least(0, "cutoff", "must be a number of bouts (0: off)")
        self._at_least(1, "tail_nodes", "must be a positive number")
        self._at_least(0, "near", "must be a number of talon cards (0 or more)")
        self._at_least(1, "solver_nodes", "must be a positive number")
        self._at_least(1, "endgame_nodes", "must be a positive number")
        self._at_least(0, "exact_talon", "must be a number of talon cards (0: off)")
        if self.solver not in (0, 1, 2) or isinstance(self.solver, (bool, float)):
            raise ValueError(f"solver must be 0, 1 or 2, not {self.solver!r}")
        if not _number(self.c):
            raise ValueError(f"c must be a number, not {self.c!r}")
        if not _number(self.epsilon) or not 0 <= self.epsilon <= 1:
            raise ValueError(f"epsilon must lie in 0..1, not {self.epsilon!r}")
        if not _number(self.reply_greedy) or not 0 <= self.reply_greedy <= 1:
            raise ValueError(f"reply_greedy is a probability, in 0..1, not {self.reply_greedy!r}")
        if not _number(self.reply_view) or not 0 <= self.reply_view <= 1:
            raise ValueError(f"reply_view is a share, in 0..1, not {self.reply_view!r}")
        if not _number(self.blend) or not 0 <= self.blend <= 1:
            raise ValueError(f"blend is a share, in 0..1, not {self.blend!r}")
        if not _number(self.endgame_ms) or not 0 < self.endgame_ms <= 1:
            raise ValueError(f"endgame_ms is a share of ms, in (0, 1], not {self.endgame_ms!r}")
        if not _number(self.widen) or not self.widen >= 0:
            raise ValueError(f"widen must be 0 (off) or a positive number, not {self.widen!r}")
        object.__setattr__(self, "reply_greedy", float(self.reply_greedy))
        object.__setattr__(self, "reply_view", float(self.reply_view))
        object.__setattr__(self, "widen", float(self.widen))
        object.__setattr__(self, "blend", float(self.blend))

    def _at_least(self, low: int, name: str, wants: str) -> None:
        value = getattr(self, name)
        if not _whole(value) or value < low:
            raise ValueError(f"{name} {wants}, not {value!r}")

    @property
    def budget_ms(self) -> float | None:
        """The think time in force: ``ms``, or 100 when neither budget is given."""
        if self.ms is None and self.iterations is None:
            return DEFAULT_MS
        return self.ms

    @property
    def watches_style(self) -> bool:
        """Whether the search watches for an opponent's move the greedy policy could not
        have made (:mod:`durak_core.bots.style`): ``adapt``, ``trust`` and ``drop`` act on
        it."""
        return self.adapt or self.trust or self.drop

    def replace(self, **changes: Any) -> IsmctsConfig:
        """A copy with ``changes`` (checked like a new one)."""
        return dataclasses.replace(self, **changes)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
