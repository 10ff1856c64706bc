"""Information Set Monte Carlo Tree Search (single-observer ISMCTS).

The bot cannot see the other hands or the talon, so each iteration first
*determinizes*: it deals the cards it cannot place at random, consistently
with everything its seat knows (its own hand, cards seen picked up, the
trump under the talon, the discards; see :meth:`durak_core.Game.determinize`).
It then walks one tree shared by all determinizations, whose edges are
actions; a node's children are chosen among the actions legal *in this
determinization* (an opponent's node offers the opponent's legal actions
in the dealt hand), by UCB1 with availability counts: a child's exploration
term counts only the iterations in which it could have been chosen.

Durak lets several seats act at one moment; the tree follows the fixed
order of :func:`durak_core.bots.driver.next_to_act`, and every node stores
the reward of the seat whose action led to it.  Forced moves (a single
legal action) are applied without a tree level.  Below the tree the greedy
policy (:mod:`durak_core.bots.greedy`) plays the game out: cheap, and a
fair model of a sensible opponent.  A new child is expanded greedy move
first, so even a small budget starts from the greedy line.  This class
decides what to search and for how long; each iteration's walk down the tree
is :class:`durak_core.tree.Walk`, compiled with the engine.

Two choices make a small budget (about 200 rollouts in 100 ms of Python)
go further.  Against the greedy bot, 200 games with 60 rollouts per
decision: UCB at the root over every action won 61% of the decided games,
the paired root 65%, paired with a shortlist of 3 to 8 actions 72-77%.

* **Paired root** (``paired=1``): each deal is played out once for every
  candidate root action, with the same rollout randomness.  The luck of the
  deal, by far the largest source of noise, is then common to all
  candidates and cancels out of their comparison; the best mean wins.
* **Shortlist** (``width=3``): only the greedy choice, take or pass, and
  the cheapest other action are compared at the root.  Comparing three
  sensible moves on many deals beats comparing thirty on a few (an opening
  hand can be led in dozens of ways).

Randomness comes only from a seeded :class:`random.Random`; with an
iteration budget (``iterations=``) and no time budget the bot is fully
deterministic.  The time budget (``ms=``) reads an injectable clock.

>>> from durak_core import Game, Rules
>>> from durak_core.bots import IsmctsBot
>>> game = Game.new(Rules(), seed=5)
>>> bot = IsmctsBot(seed=1, iterations=50)
>>> bot.start(game.attacker, game.rules)
>>> action = bot.choose(game.observation(game.attacker), game.legal_actions(game.attacker))
>>> action in game.legal_actions(game.attacker)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, parse_action
from ..endgame import LOSS, EndgameSolver, seats_left
from ..events import Event
from ..game import Game
from ..playout import outcome, solved_rewards
from ..rules import Rules
from ..tree import Lazy, Node, Walk
from . import parallel
from .base import Bot
from .driver import next_to_act
from .greedy import rollout_action, shortlist
from .inference import Inference
from .style import GreedyCheck


@dataclass(frozen=True)
class MoveEstimate:
    """What a search thinks of one action (see :meth:`IsmctsBot.analyse`).

    score: the mean reward, 0..1 (1 safe, 0 the durak, a draw 0.5).
    safe: the estimated chance of not being the durak (a draw counts as safe).
    samples: deals the action was tried on (0 for an exact result).
    exact: the endgame solver proved the result (``safe`` is then 0 or 1).
    """

    action: Action
    score: float
    safe: float
    samples: int
    exact: bool = False

    def __str__(self) -> str:
        how = "exact" if self.exact else f"{self.samples} deals"
        return f"{self.action}: {100 * self.safe:.0f}% not the durak ({how})"


#: IsmctsBot's parameters a helper process does not take from it (see ``_options``).
_NOT_FOR_HELPERS = frozenset({"self", "seed", "ms", "iterations", "workers", "clock"})


class IsmctsBot(Bot):
    """ISMCTS with a time budget (``ms``) and/or an iteration budget (``iterations``).

    seed: seeds the determinizations and rollouts.
    ms: think time per decision in milliseconds (read from ``clock``).
    iterations: rollouts per decision (a paired round counts one per candidate,
        and is never cut short, so a few more may run); with ``ms`` too,
        whichever ends first.  With neither, ``ms=100``.
    c: the UCB1 exploration constant (rewards lie in 0..1).
    epsilon: how often a rollout step plays a random legal action instead of
        the greedy one (0: the deal alone brings the randomness).
    greedy_first: expand a node's greedy action before the others (1) or
        pick untried actions at random (0).
    paired: 1 for the paired root described above, 0 for UCB at the root too
        (the final choice is then the most visited action).
    width: how many root actions to compare (0: all of them; 3, the default: the
        greedy choice, take or pass, the cheapest other,
        :func:`durak_core.bots.greedy.shortlist`).  At 100 ms of CPU time a decision
        against ``ismcts-v1`` 3 did better than 5 (the default before) on the same
        deals, and 8 worse (docs/ai.md).
    depth: at most this many tree levels (0: no limit; 1: flat Monte Carlo,
        every root action followed by rollouts only).
    model: 1 (the default): opponents play the greedy default policy inside
        the tree (below their first ``replies`` decisions), so mostly the bot's
        own decisions are searched; 0: opponents' moves below the root are
        searched like the bot's own.  At 800 rollouts, on the same 120 duplicate
        deals (``benchmarks/ai_ablation.py``, with ``replies=0``), 1 won 97.4% of
        the decided games against greedy where 0 won 85.2%, and 59.7% against
        ``ismcts-v1`` (400 rollouts, the same CPU time) where 0 won 63.6%.  It
        assumes sensible (greedy-like) opponents, and its searches are cheaper.
    replies: with ``model=1``, the opponents' first this many decisions below the
        root action are searched all the same (their replies to it), the greedy
        policy playing them only deeper down (2, the default; 0: none).  Against
        ``ismcts-v1`` (800 rollouts against 400, the same 120 duplicate deals,
        ``benchmarks/ai_ablation.py``) 2 won 67.2% of the decided games where 0
        won 59.7% and ``model=0`` 63.6%: the greedy model alone is too sure of
        what a searching opponent answers.  Alone (``reply_width=0,
        reply_greedy=0``) it costs much of what the model gains against greedy
        (82.2% of 185 decided games where 0 won 96.4%; docs/ai.md); the next two
        options win that back.
    reply_width: with ``model=1``, at most this many replies are searched at each
        of the opponents' first ``replies`` decisions: the greedy policy's choice,
        take or pass, then the cheapest others
        (:func:`durak_core.bots.greedy.shortlist`); 0: every legal reply; 2 (the
        default).  Each reply in the tree is tried at least once and averaged into
        the value of the root action above it, so replies no sensible opponent
        plays (a high trump on a six) pull good root actions' means down.
    reply_greedy: with ``model=1``, at each searched opponent decision, the chance
        that an iteration plays the greedy policy's reply there instead of choosing
        one by UCB (from this iteration's seeded generator): the reply's mean is
        then a blend of the model's answer and the searched best one, an opponent
        who plays sensibly but not always the same way.  0: always searched; 1:
        always the model's, as with ``replies=0``; 0.5 (the default).  Against
        greedy on 100 duplicate deals at 800 rollouts (``benchmarks/ai_ablation.py``,
        seed 1) ``replies=2`` alone
        won 89.7% of the decided games, with ``reply_width=2`` 91.6%, with both
        that and ``reply_greedy=0.5`` 96.8% (0.3: 90.1%); the figures of the
        default on new deals are in docs/benchmarks.md.
    adapt: 1: once an opponent has made a move the greedy policy could not have made
        (:mod:`durak_core.bots.style`: proven by the cards it is known to hold), the
        model no longer answers for the opponents at the searched replies
        (``reply_greedy`` 0 for the rest of the game): that opponent does not play
        like the model.  Against greedy nothing changes (a greedy seat is never
        caught); against ``ismcts-v1`` (caught in about two games of three, mostly
        mid-game) it won 61.8% of 314 decided games where 0 won 64.6%, on the same
        320 deals at 100 ms of CPU time (``benchmarks/ai_strength.py --seed 5``):
        searching the replies without the model is no better against a searching
        opponent, so 0 (the default): ``reply_greedy`` always.
    halving: 1: the paired root by sequential halving (the budget in phases, the
        worse half of the root actions dropped after each, so the close
        contenders get the most deals; the final choice is among the last two);
        0: every root action on every deal (the default: on seed 5's 320 deals at
        100 ms of CPU time against ``ismcts-v1``, ``benchmarks/ai_ablation.py``, 1 won
        60.3% of 315 decided games where 0 won 64.6%, and 62.5% when run again).
    solver: 0: never; 1: play the endgame exactly (an empty talon, two seats
        left: :mod:`durak_core.endgame`); 2: also solve the endgames that the
        determinized searches reach when the talon holds at most ``near``
        cards at the root.
    near: see ``solver``.
    solver_nodes: the most positions one solve inside a search may visit
        (beyond it that rollout goes on with the greedy policy).
    endgame_ms: at most this share of ``ms`` goes to solving the position
        itself; without ``ms``, at most ``endgame_nodes`` positions.
    tail: 0 (the default): rollouts are the greedy policy's to the end; N: once the
        talon is empty and the two seats left hold at most N cards together, a rollout
        ends with the endgame solver's exact result when it finds one within
        ``tail_nodes`` positions (:func:`durak_core.playout.finish`; compiled rollouts
        only).  A greedy rollout from the start of a two-seat endgame ends as the exact
        result says in 68% of them, with ``tail=6`` in 80%, at about four times the
        cost (``benchmarks/rollout_accuracy.py``); in the arena against ``ismcts-v1``
        neither ``tail`` nor ``throw`` beat the default by more than the noise of a
        run (docs/ai.md), so both are off.
    tail_nodes: see ``tail``.
    throw: 1: in the rollouts, once the talon is empty and two seats are left, the
        attacker throws in a card the defender cannot beat when it has one (the
        deal is a full game, so it sees the defender's hand); 0 (the default): the
        greedy policy's throw-in.  Compiled rollouts only.
    widen: 0 (the default): at the bot's own decisions below the root, every legal
        action is tried once before UCB chooses among them; k > 0: progressive
        widening, a node that has had ``v`` visits tries at most ``1 + int(k *
        sqrt(v))`` actions (the greedy one first), so deep in the tree, where visits
        are few, the bot plays much as its rollouts do instead of trying each
        action once.
    infer: 1: deal the hidden cards by what the opponents' play revealed
        (:mod:`durak_core.bots.inference`); 0: uniformly.
    compiled: 1: the greedy policy of playouts and of the tree runs in the
        engine's compiled code (:mod:`durak_core.playout`, the same moves 2-3
        times faster); 0: in Python (:mod:`durak_core.bots.greedy`).
    cpu: 1: ``ms`` is CPU time of this process (``time.process_time``), not wall
        time: a think time that other work on the machine does not shorten, for
        comparing bots fairly on a shared machine (the arena runs built-in bots in
        its own process, one move at a time); 0: wall time.
    workers: 1: search in this process only; N > 1: N - 1 helper processes search
        the same position too and the root statistics are added up
        (:mod:`durak_core.bots.parallel`: root-parallel search; each helper takes
        a core of its own, so it is off by default).  With ``iterations`` each
        process runs its share and the bot stays deterministic; with ``ms`` each
        thinks the whole time.  A helper that fails never fails the bot.
    clock: seconds as a float; ``time.perf_counter`` (or ``time.process_time``
        with ``cpu=1``) unless given.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        ms: float | None = None,
        iterations: int | None = None,
        c: float = 0.7,
        epsilon: float = 0.0,
        greedy_first: int = 1,
        paired: int = 1,
        width: int = 3,
        depth: int = 0,
        model: int = 1,
        replies: int = 2,
        reply_width: int = 2,
        reply_greedy: float = 0.5,
        adapt: int = 0,
        halving: int = 0,
        solver: int = 1,
        near: int = 0,
        solver_nodes: int = 2000,
        endgame_ms: float = 0.5,
        endgame_nodes: int = 100_000,
        tail: int = 0,
        tail_nodes: int = 2000,
        throw: int = 0,
        widen: float = 0.0,
        infer: int = 1,
        compiled: int = 1,
        cpu: int = 0,
        workers: int = 1,
        clock: Callable[[], float] | None = None,
    ) -> None:
        #: What a helper process needs to build the same search: every parameter but
        #: the budget, the seed, the clock and the helpers (read before anything else is
        #: bound here, so a new parameter is passed on without being listed again).
        self._options: dict[str, Any] = {
            name: value for name, value in locals().items() if name not in _NOT_FOR_HELPERS
        }
        if ms is None and iterations is None:
            ms = 100
        if ms is not None and ms <= 0:
            raise ValueError(f"ms must be positive, not {ms!r}")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a positive whole number, not {iterations!r}")
        if not 0 <= epsilon <= 1:
            raise ValueError(f"epsilon must lie in 0..1, not {epsilon!r}")
        self.ms = ms
        self.iterations = iterations
        self.c = c
        self.epsilon = epsilon
        self.greedy_first = bool(greedy_first)
        self.paired = bool(paired)
        if not isinstance(width, int) or width < 0:
            raise ValueError(f"width must be 0 (every action) or a positive number, not {width!r}")
        self.width = width
        if not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be 0 (no limit) or a positive number, not {depth!r}")
        self.depth = depth
        self.model = bool(model)
        if halving not in (0, 1):
            raise ValueError(f"halving must be 0 or 1, not {halving!r}")
        self.halving = bool(halving)
        if not isinstance(replies, int) or replies < 0:
            raise ValueError(f"replies must be a number of decisions (0 or more), not {replies!r}")
        self.replies = replies
        if not isinstance(reply_width, int) or reply_width < 0:
            raise ValueError(
                f"reply_width must be 0 (every reply) or a positive number of replies, "
                f"not {reply_width!r}"
            )
        self.reply_width = reply_width
        if isinstance(reply_greedy, bool) or not 0 <= reply_greedy <= 1:
            raise ValueError(f"reply_greedy is a probability, in 0..1, not {reply_greedy!r}")
        self.reply_greedy = float(reply_greedy)
        if adapt not in (0, 1):
            raise ValueError(f"adapt must be 0 or 1, not {adapt!r}")
        self.adapt = bool(adapt)
        if solver not in (0, 1, 2):
            raise ValueError(f"solver must be 0, 1 or 2, not {solver!r}")
        self.solver = solver
        if not isinstance(near, int) or near < 0:
            raise ValueError(f"near must be a number of talon cards (0 or more), not {near!r}")
        self.near = near
        if not isinstance(solver_nodes, int) or solver_nodes < 1:
            raise ValueError(f"solver_nodes must be a positive number, not {solver_nodes!r}")
        self.solver_nodes = solver_nodes
        if not 0 < endgame_ms <= 1:
            raise ValueError(f"endgame_ms is a share of ms, in (0, 1], not {endgame_ms!r}")
        self.endgame_ms = endgame_ms
        if not isinstance(endgame_nodes, int) or endgame_nodes < 1:
            raise ValueError(f"endgame_nodes must be a positive number, not {endgame_nodes!r}")
        self.endgame_nodes = endgame_nodes
        if not isinstance(tail, int) or tail < 0:
            raise ValueError(f"tail must be a number of cards (0: off), not {tail!r}")
        self.tail = tail
        if not isinstance(tail_nodes, int) or tail_nodes < 1:
            raise ValueError(f"tail_nodes must be a positive number, not {tail_nodes!r}")
        self.tail_nodes = tail_nodes
        if throw not in (0, 1):
            raise ValueError(f"throw must be 0 or 1, not {throw!r}")
        self.throw = bool(throw)
        if isinstance(widen, bool) or not widen >= 0:
            raise ValueError(f"widen must be 0 (off) or a positive number, not {widen!r}")
        self.widen = float(widen)
        self.infer = bool(infer)
        self.compiled = bool(compiled)
        if cpu not in (0, 1):
            raise ValueError(f"cpu must be 0 (wall time) or 1 (CPU time), not {cpu!r}")
        self.cpu = bool(cpu)
        if clock is None:
            clock = time.process_time if cpu else time.perf_counter
        self._clock = clock
        if not isinstance(workers, int) or not 1 <= workers <= parallel.MAX_WORKERS:
            raise ValueError(
                f"workers must be a whole number from 1 (no helper processes) to "
                f"{parallel.MAX_WORKERS}, not {workers!r}"
            )
        self.workers = workers
        #: Helper searches that failed (their share then ran in this process).
        self.helper_failures = 0
        self._rng = random.Random(seed)
        #: Iterations run for each decision so far (for benchmarks and tests).
        self.history: list[int] = []
        #: Decisions taken by the endgame solver alone (for benchmarks and tests).
        self.solved = 0
        self._pending: list[Event] = []
        self._inference: Inference | None = None
        self._style: GreedyCheck | None = None
        self._endgame: EndgameSolver | None = None
        self._solve_in_search = False
        self._halve = False
        #: The current search's walk (made in ``_search``).
        self._walk = self._walk_for(0)

    def start(self, seat: int, rules: Rules) -> None:
        super().start(seat, rules)
        self._pending = []
        self._inference = None
        self._style = None
        self._endgame = None

    def on_events(self, events: Sequence[Event]) -> None:
        if self.infer or self.adapt:
            self._pending.extend(events)

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = int(observation["seat"])
        view = Game.from_observation(observation)
        deadline = None if self.ms is None else self._clock() + self.ms / 1000
        if self.solver and seats_left(view):
            action = self._play_endgame(view, seat, legal, deadline)
            if action is not None:
                self.solved += 1
                return action
        if self.width and len(legal) > self.width:
            legal = shortlist(
                legal, int(view.trump_suit), view.talon_size, view.table, self.width
            )
        self._halve = self.halving
        root = self._search(view, seat, legal, deadline, observation)
        return max(legal, key=lambda a: self._preference(root, a))

    def analyse(
        self, observation: dict[str, Any], legal: Sequence[Action] | None = None
    ) -> list[MoveEstimate]:
        """What the search thinks of each legal action, best first (the coach's view).

        Every legal action is compared (``width`` is ignored), on the same deals
        when ``paired``; an endgame is solved exactly when the solver can (then
        the estimates are ``exact``).  Uses this bot's budget and random numbers.
        """
        if legal is None:
            legal = [parse_action(a) for a in observation["legal"]]
        legal = list(legal)
        if not legal:
            return []
        seat = int(observation["seat"])
        view = Game.from_observation(observation)
        deadline = None if self.ms is None else self._clock() + self.ms / 1000
        if self.solver and seats_left(view):
            solver = self._solver_for(view)
            stop = self._stopper(deadline)
            results = solver.values(view, seat, legal, self.endgame_nodes, stop)
            if all(r.exact for r in results):
                out = [
                    MoveEstimate(a, r.reward, 0.0 if r.value == LOSS else 1.0, 0, True)
                    for a, r in zip(legal, results, strict=True)
                ]
                out.sort(key=lambda e: -e.score)
                return out
        self._halve = False  # an estimate for every action, not a choice
        root = self._search(view, seat, legal, deadline, observation)
        out = []
        for a in legal:
            child = root.children.get(a)
            if child is None or not child.visits:
                continue
            out.append(
                MoveEstimate(a, child.reward / child.visits, child.safe / child.visits,
                             child.visits)
            )
        out.sort(key=lambda e: (-e.score, -e.samples))
        return out

    # ------------------------------------------------------------ the endgame

    def _solver_for(self, view: Game) -> EndgameSolver:
        solver = self._endgame
        if solver is None or solver.trump != int(view.trump_suit) or solver.rules != view.rules:
            solver = self._endgame = EndgameSolver(view.rules, int(view.trump_suit))
        return solver

    def _stopper(self, deadline: float | None) -> Callable[[], bool] | None:
        """A stop test for the solver: at ``endgame_ms`` of the time budget."""
        if deadline is None or self.ms is None:
            return None
        clock = self._clock
        stop_at = deadline - self.ms / 1000 * (1 - self.endgame_ms)
        return lambda: clock() >= stop_at

    def _play_endgame(
        self, view: Game, seat: int, legal: Sequence[Action], deadline: float | None
    ) -> Action | None:
        """The solver's action when it proves a win or a draw; None (search on) when the
        position is lost, where only a mistake of the other seat can help, or when the
        solver ran out of budget."""
        solver = self._solver_for(view)
        nodes = self.endgame_nodes if deadline is None else 0
        solution = solver.solve(view, seat, nodes, self._stopper(deadline))
        if solution.exact and solution.value != LOSS and solution.action in legal:
            return solution.action
        return None

    def _solve_rewards(self, game: Game) -> list[float] | None:
        """Rewards of every seat if the solver settles ``game`` within its node budget."""
        seats = seats_left(game)
        if not seats:
            return None
        assert self._endgame is not None
        return solved_rewards(self._endgame, game, seats, self.solver_nodes)

    # ------------------------------------------------------------ the search

    def _deal(self, view: Game, rng: random.Random) -> Game:
        if self._inference is not None:
            return self._inference.deal(view, rng)
        return view.determinize(rng)

    def _learn(self, view: Game, seat: int) -> None:
        """Take in the events seen since the last decision."""
        if self.infer:
            if self._inference is None:
                self._inference = Inference(view.players, seat, int(view.trump_suit))
            self._inference.observe(self._pending)
        if self.adapt:
            if self._style is None:
                transfers = view.rules.variant == "perevodnoy"
                self._style = GreedyCheck(view.players, seat, int(view.trump_suit), transfers)
            self._style.observe(self._pending)
        self._pending = []

    def _reply_greedy(self) -> float:
        """``reply_greedy`` for this search: 0 once an opponent strayed from the model
        (``adapt``)."""
        if self._style is not None and self._style.strays():
            return 0.0
        return self.reply_greedy

    def _search(
        self,
        view: Game,
        seat: int,
        legal: Sequence[Action],
        deadline: float | None,
        observation: dict[str, Any] | None = None,
    ) -> Node:
        """Run the search from ``view`` over the root actions ``legal``; the root.

        With ``workers`` > 1 and the seat's ``observation``, helper processes search
        the same position too (:mod:`durak_core.bots.parallel`) and their root
        statistics are added to this one's.
        """
        self._learn(view, seat)
        self._solve_in_search = self.solver == 2 and view.talon_size <= self.near
        if self._solve_in_search or self.tail:
            self._solver_for(view)
        self._walk = self._walk_for(seat)
        legal = list(legal)
        root = Node()
        if self.workers > 1 and observation is not None:
            done = self._search_parallel(root, view, seat, legal, deadline, observation)
        else:
            done = self._run(root, view, seat, legal, deadline, self.iterations)
        self.history.append(done)
        return root

    def _run(
        self,
        root: Node,
        view: Game,
        seat: int,
        legal: list[Action],
        deadline: float | None,
        limit: int | None,
    ) -> int:
        """Iterations into ``root`` until ``limit`` or ``deadline``; how many ran."""
        if self._halve and self.paired and len(legal) > 2:
            return self._run_halving(root, view, seat, legal, deadline, limit)
        rng = self._rng
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or done == 0 or self._clock() < deadline
        ):
            if self.paired:
                done += self._paired_round(root, view, seat, legal, legal)
            else:
                deal = self._deal(view, rng)
                self._walk.iterate(root, deal, legal, None, Lazy(rng=rng))
                done += 1
        return done

    def _paired_round(
        self,
        root: Node,
        view: Game,
        seat: int,
        legal: list[Action],
        actions: Sequence[Action],
    ) -> int:
        """One deal with every root action in ``actions`` tried on it, with the same
        rollout randomness: the luck of the deal, by far the largest source of noise,
        cancels out of the comparison between them.  How many iterations ran."""
        rng = self._rng
        deal = self._deal(view, rng)
        seed = rng.getrandbits(64)
        iterate = self._walk.iterate
        for action in actions:
            iterate(root, deal.copy(), legal, action, Lazy(seed))
        return len(actions)

    def _run_halving(
        self,
        root: Node,
        view: Game,
        seat: int,
        legal: list[Action],
        deadline: float | None,
        limit: int | None,
    ) -> int:
        """The paired root by sequential halving: the budget in equal phases, and after
        each phase the worse half of the actions still compared is dropped.

        The last phases then compare the few close contenders on many more deals
        than an even split would give them; every action still compared has had
        every deal of its phases, so the comparison stays paired.
        """
        alive = list(legal)
        phases = math.ceil(math.log2(len(alive)))
        start = self._clock() if deadline is not None else 0.0
        done = 0
        for phase in range(phases):
            stop = None if limit is None else limit * (phase + 1) // phases
            until = None if deadline is None else start + (deadline - start) * (phase + 1) / phases
            rounds = 0
            while (stop is None or done < stop) and (
                until is None or rounds == 0 or self._clock() < until
            ):
                done += self._paired_round(root, view, seat, legal, alive)
                rounds += 1
            if phase < phases - 1:
                children = root.children
                # Stable: among equal means the earlier action (the greedy one first) stays.
                alive.sort(key=lambda a: -children[a].reward / children[a].visits)
                del alive[(len(alive) + 1) // 2 :]
        return done

    def _search_parallel(
        self,
        root: Node,
        view: Game,
        seat: int,
        legal: list[Action],
        deadline: float | None,
        observation: dict[str, Any],
    ) -> int:
        """This process's search and ``workers - 1`` helpers' searches, added up.

        On an iteration budget each runs its share, seeded from this bot's generator
        (so the result is the same every time); a helper that fails leaves its share
        to this process.  On a time budget each uses the whole think time.
        """
        workers = self.workers
        share = None if self.iterations is None else -(-self.iterations // workers)
        seeds = [self._rng.getrandbits(64) for _ in range(workers - 1)]
        ms = None if deadline is None else max(1.0, 1000 * (deadline - self._clock()))
        weights = None if self._inference is None else self._inference.weights_table()
        actions = [str(a) for a in legal]
        # A helper has not seen the game: it searches with this search's reply_greedy.
        options = {**self._options, "reply_greedy": self._reply_greedy(), "adapt": 0}
        tasks = [
            parallel.Task(
                options, seed, seat, observation, actions, weights, share, ms, self._halve
            )
            for seed in seeds
        ]
        helpers = parallel.pool(workers - 1)
        sent = helpers.send(tasks)
        done = self._run(root, view, seat, legal, deadline, share)
        wait = parallel.ITERATION_WAIT if ms is None else ms / 1000 + parallel.GRACE
        results = helpers.collect(sent, wait)
        missing = len(tasks) - sum(r is not None for r in results)
        self.helper_failures += missing
        for stats in results:
            if stats is None:
                continue
            for action, (visits, reward, safe) in zip(legal, stats, strict=True):
                if not visits:
                    continue
                child = root.children.get(action)
                if child is None:
                    child = root.children[action] = Node()
                child.visits += visits
                child.reward += reward
                child.safe += safe
            done += sum(v for v, _, _ in stats)  # a visit of a root action per iteration
        if missing and share is not None:
            # A helper failed: its share of the budget runs here, so the search is
            # as large as asked (only slower).
            done += self._run(root, view, seat, legal, None, missing * share)
        return done

    def _preference(self, root: Node, action: Action) -> tuple[float, float]:
        """How good a root action looks: the best mean when every action had the same
        deals (paired), else the usual most-visited child."""
        child = root.children.get(action)
        if child is None or not child.visits:
            return (-1.0, -1.0)
        mean = child.reward / child.visits
        if self.paired and not self._halve:
            return (mean, child.visits)
        # Halving: the actions compared to the end have the most deals.
        return (child.visits, mean)

    def _walk_for(self, seat: int) -> Walk:
        """The iterations' walk for this search (:mod:`durak_core.tree`, compiled with the
        engine): this bot's settings, and its Python parts where the compiled ones will
        not do."""
        compiled = self.compiled
        fast_rollout = compiled and not self.epsilon and not self._solve_in_search
        return Walk(
            seat,
            compiled=compiled,
            model=self.model,
            replies=self.replies,
            reply_width=self.reply_width,
            reply_greedy=self._reply_greedy(),
            greedy_first=self.greedy_first,
            paired=self.paired,
            depth=self.depth,
            c=self.c,
            greedy=None if compiled else self._python_greedy,
            next_to_act=None if compiled else next_to_act,
            rollout=None if fast_rollout else self._rollout,
            solver=self._endgame,
            tail=self.tail,
            tail_nodes=self.tail_nodes,
            throw=self.throw,
            widen=self.widen,
        )

    def _iterate(
        self,
        root: Node,
        game: Game,
        seat: int,
        root_legal: Sequence[Action],
        first: Action | None,
        rng: Lazy,
    ) -> None:
        """One iteration on one determinization (see :meth:`durak_core.tree.Walk.iterate`;
        a search makes its walk once, this makes one for each call)."""
        self._walk_for(seat).iterate(root, game, list(root_legal), first, rng)

    def _python_greedy(self, game: Game, actor: int, legal: Sequence[Action]) -> Action:
        """The greedy policy in Python (``compiled=0``; the same choice as compiled)."""
        return rollout_action(game, actor, legal, int(game.trump_suit))

    def _rollout(self, game: Game, rng: Lazy) -> list[float]:
        """Play to the end with the Python greedy policy; the reward of every seat.

        The walk plays the compiled playout itself (:func:`durak_core.playout.playout`)
        and calls this only when that will not do (see :meth:`_walk_for`): ``epsilon``
        mixes in random moves, near the end (``solver=2``) an endgame reached on the
        way is solved instead when the solver settles it within ``solver_nodes``, or
        ``compiled=0``.
        """
        eps = self.epsilon
        solve = self._solve_in_search
        trump = int(game.trump_suit)
        while not game.is_over:
            if solve and not game.talon_size:
                solve = False  # one attempt per rollout
                rewards = self._solve_rewards(game)
                if rewards is not None:
                    return rewards
            actor = next_to_act(game)
            if actor is None:
                break
            legal = game.legal_actions(actor)
            if len(legal) == 1:
                action = legal[0]
            elif eps and rng.get().random() < eps:
                action = rng.get().choice(legal)
            else:
                action = rollout_action(game, actor, legal, trump)
            game.apply(action)
        return outcome(game)


class IsmctsV1Bot(IsmctsBot):
    """The ISMCTS of before the endgame solver, the inference, the compiled
    playouts and the opponent model (``ismcts-v1``): the yardstick the default AI
    is measured against.  The same search with ``solver=0, infer=0, compiled=0,
    model=0`` and the root shortlist of then (``width=5``; the AI compares three); it
    plays exactly as that bot did, move for move.  Its tree walk is the
    AI's, compiled with the engine since :mod:`durak_core.tree` (a tenth faster than
    the Python walk it had: a little more search in the same time, so a slightly
    harder yardstick; its rollouts, most of its time, are the Python policy's still)."""

    name = "ismcts-v1"

    def __init__(
        self,
        seed: int | None = None,
        solver: int = 0,
        infer: int = 0,
        compiled: int = 0,
        model: int = 0,
        replies: int = 0,
        reply_width: int = 0,
        reply_greedy: float = 0.0,
        adapt: int = 0,
        width: int = 5,
        **options: Any,
    ) -> None:
        super().__init__(
            seed=seed, solver=solver, infer=infer, compiled=compiled, model=model,
            replies=replies, reply_width=reply_width, reply_greedy=reply_greedy,
            adapt=adapt, width=width, **options
        )
