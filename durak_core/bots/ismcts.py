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
go further (the options of :class:`IsmctsConfig`; docs/ai.md has what
each bought):

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
deterministic.  The time budget (``ms=``) reads an injectable clock, and nothing
else here reads a clock: with ``cpu=1`` only the process's CPU time counts.

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
from ..tree import Lazy, Node, Walk, tape_for
from . import parallel
from .base import Bot
from .driver import next_to_act
from .greedy import rollout_action, shortlist
from .inference import Inference
from .ismcts_config import IsmctsConfig
from .particles import GREEDY, LOOSE, HandFilter
from .style import GreedyCheck
from .value import value_weights


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


class IsmctsBot(Bot):
    """ISMCTS on a time budget (``ms``) and/or an iteration budget (``iterations``).

    seed: seeds the determinizations and rollouts (a new bot, or each game's).
    config: the search's options (:class:`IsmctsConfig`, where each is described);
        the defaults when not given.
    clock: seconds as a float, for the ``ms`` budget: ``time.perf_counter``, or
        ``time.process_time`` with ``cpu``, unless given (tests give a fake one).
    options: any option of :class:`IsmctsConfig` by name, over ``config``'s
        (``IsmctsBot(seed=1, iterations=200, width=5)``), as a spec gives them
        (``"ismcts?iterations=200&width=5"``, :func:`durak_core.bots.make_bot`).

    ``ms`` and ``iterations`` are the budget in force (``ms`` 100 when neither is
    given); every other option is read from ``config``.
    """

    name = "ismcts"
    #: What a spec's options are checked against (:func:`durak_core.bots.check_options`).
    config_class = IsmctsConfig

    def __init__(
        self,
        seed: int | None = None,
        config: IsmctsConfig | None = None,
        *,
        clock: Callable[[], float] | None = None,
        **options: Any,
    ) -> None:
        if config is None:
            config = IsmctsConfig(**options)
        elif options:
            config = config.replace(**options)
        #: The search's options, checked.
        self.config = config
        #: The budget in force: think time in ms (None: iterations alone) and rollouts.
        self.ms = config.budget_ms
        self.iterations = config.iterations
        if clock is None:
            clock = time.process_time if config.cpu else time.perf_counter
        self._clock = clock
        #: Helper searches that failed (their share then ran in this process).
        self.helper_failures = 0
        self._rng = random.Random(seed)
        #: Iterations run for each decision so far (for benchmarks and tests).
        self.history: list[int] = []
        #: Decisions taken by the endgame solver alone (for benchmarks and tests).
        self.solved = 0
        #: Decisions taken by the solver with cards still in the talon (``exact_talon``).
        self.solved_early = 0
        #: Searches run with no searched replies because the opponents had played only
        #: greedy moves so far (``trust``).
        self.trusted = 0
        #: The root of the last search (``choose`` or ``analyse``; None before the first
        #: search, and after a decision the endgame solver took alone), kept to study
        #: what the search saw: ``last_root.children`` maps each compared root action to
        #: its node, whose ``visits`` and ``reward / visits`` (the mean reward) decide,
        #: and whose own ``children`` are the moves tried right after it
        #: (:func:`tree_size` measures the whole tree; notebook 04 prints it).
        self.last_root: Node | None = None
        self._pending: list[Event] = []
        self._inference: Inference | None = None
        self._hands: HandFilter | None = None
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
        self._hands = None
        self._style = None
        self._endgame = None

    def on_events(self, events: Sequence[Event]) -> None:
        config = self.config
        if config.infer or config.watches_style or config.particles:
            self._pending.extend(events)

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.last_root = None
        if len(legal) == 1:
            return legal[0]
        seat = int(observation["seat"])
        view = Game.from_observation(observation)
        deadline = None if self.ms is None else self._clock() + self.ms / 1000
        if self.config.solver and seats_left(view):
            action = self._play_endgame(view, seat, legal, deadline)
            if action is not None:
                self.solved += 1
                return action
        elif self.config.exact_talon and 0 < view.talon_size <= self.config.exact_talon:
            action = self._play_early(view, seat, legal, deadline)
            if action is not None:
                self.solved_early += 1
                return action
        if self.config.width and len(legal) > self.config.width:
            legal = shortlist(
                legal, int(view.trump_suit), view.talon_size, view.table, self.config.width
            )
        self._halve = self.config.halving
        root = self.last_root = self._search(view, seat, legal, deadline, observation)
        return max(legal, key=lambda a: self._preference(root, a))

    def analyse(
        self, observation: dict[str, Any], legal: Sequence[Action] | None = None
    ) -> list[MoveEstimate]:
        """What the search thinks of each legal action, best first (the coach's view).

        Every legal action is compared (``width`` is ignored), on the same deals
        when ``paired``; an endgame is solved exactly when the solver can (then
        the estimates are ``exact``).  Uses this bot's budget and random numbers.
        """
        self.last_root = None
        if legal is None:
            legal = [parse_action(a) for a in observation["legal"]]
        legal = list(legal)
        if not legal:
            return []
        seat = int(observation["seat"])
        view = Game.from_observation(observation)
        deadline = None if self.ms is None else self._clock() + self.ms / 1000
        if self.config.solver and seats_left(view):
            solver = self._solver_for(view)
            stop = self._stopper(deadline)
            results = solver.values(view, seat, legal, self.config.endgame_nodes, stop)
            if all(r.exact for r in results):
                out = [
                    MoveEstimate(a, r.reward, 0.0 if r.value == LOSS else 1.0, 0, True)
                    for a, r in zip(legal, results, strict=True)
                ]
                out.sort(key=lambda e: -e.score)
                return out
        self._halve = False  # an estimate for every action, not a choice
        root = self.last_root = self._search(view, seat, legal, deadline, observation)
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
            solver = self._endgame = EndgameSolver(
                view.rules, int(view.trump_suit), talon=self.config.exact_talon
            )
        return solver

    def _stopper(self, deadline: float | None) -> Callable[[], bool] | None:
        """A stop test for the solver: at ``endgame_ms`` of the time budget."""
        if deadline is None or self.ms is None:
            return None
        clock = self._clock
        stop_at = deadline - self.ms / 1000 * (1 - self.config.endgame_ms)
        return lambda: clock() >= stop_at

    def _play_endgame(
        self, view: Game, seat: int, legal: Sequence[Action], deadline: float | None
    ) -> Action | None:
        """The solver's action when it proves a win or a draw; None (search on) when the
        position is lost, where only a mistake of the other seat can help, or when the
        solver ran out of budget."""
        solver = self._solver_for(view)
        nodes = self.config.endgame_nodes if deadline is None else 0
        solution = solver.solve(view, seat, nodes, self._stopper(deadline))
        if solution.exact and solution.value != LOSS and solution.action in legal:
            return solution.action
        return None

    def _play_early(
        self, view: Game, seat: int, legal: Sequence[Action], deadline: float | None
    ) -> Action | None:
        """``exact_talon``: the solver's action with cards still in the talon, or None
        (search on).

        With only the trump card left the view is already a game of perfect information
        (the unseen cards can only be in the other hand) and is solved as an endgame.
        With more, the talon's order is hidden too: each deal from the inference is
        solved once, for its best move only (one search a deal, where solving every
        compared root move cost about three), and the deals settled within the solver's
        share of the budget vote: a deal won gives its move 1, a drawn one 0.5, a lost
        one nothing (every move loses there).  The most votes win (ties: the shortlist's
        order, then the legal order).  Fewer than ``EARLY_DEALS`` settled deals, or none
        that is not lost, say too little, and the search decides.
        """
        if seats_left(view, self.config.exact_talon):
            return self._play_endgame(view, seat, legal, deadline)
        if view.rules.teams or len(view.active_players) != 2:
            return None  # the solver plays two seats
        self._learn(view, seat)
        compared = list(legal)
        if self.config.width and len(compared) > self.config.width:
            compared = shortlist(
                compared, int(view.trump_suit), view.talon_size, view.table, self.config.width
            )
        solver = self._solver_for(view)
        stop = self._stopper(deadline)
        budget = self.config.endgame_nodes if deadline is None else 0
        votes = [0.0] * len(legal)
        settled = 0
        while settled < EARLY_MAX_DEALS:
            deal = self._deal(view, self._rng)
            if not seats_left(deal, self.config.exact_talon):
                return None  # e.g. the rules' bout limit could be reached
            result = solver.solve(deal, seat, budget, stop)
            if not result.exact:
                break  # out of time or positions
            settled += 1
            if result.value != LOSS and result.action in legal:
                votes[legal.index(result.action)] += result.reward
            if deadline is None:
                budget -= result.nodes
                if budget <= 0:
                    break
            elif stop is not None and stop():
                break
        if settled < EARLY_DEALS or not any(votes):
            return None
        rank = {a: i for i, a in enumerate(compared)}
        best = max(
            range(len(legal)), key=lambda i: (votes[i], -rank.get(legal[i], len(compared)), -i)
        )
        return legal[best]

    def _solve_rewards(self, game: Game) -> list[float] | None:
        """Rewards of every seat if the solver settles ``game`` within its node budget."""
        seats = seats_left(game)
        if not seats:
            return None
        assert self._endgame is not None
        return solved_rewards(self._endgame, game, seats, self.config.solver_nodes)

    # ------------------------------------------------------------ the search

    def _deal(self, view: Game, rng: random.Random) -> Game:
        hands = self._particles()
        if hands is not None:
            return hands.deal(view, rng)
        if self._inference is not None:
            return self._inference.deal(view, rng)
        return view.determinize(rng)

    def _learn(self, view: Game, seat: int) -> None:
        """Take in the events seen since the last decision."""
        if self.config.infer:
            if self._inference is None:
                self._inference = Inference(view.players, seat, int(view.trump_suit))
            self._inference.observe(self._pending)
        if self.config.watches_style:
            if self._style is None:
                transfers = view.rules.variant == "perevodnoy"
                self._style = GreedyCheck(view.players, seat, int(view.trump_suit), transfers)
            self._style.observe(self._pending)
        if self.config.particles and view.players == 2:
            if self._hands is None:
                self._hands = HandFilter(seat, int(view.trump_suit), self.config.particles,
                                         seed=self._rng.getrandbits(64),
                                         model=GREEDY if self.config.sharp else LOOSE)
            self._hands.observe(self._pending)
            self._hands.sync(view)
        self._pending = []

    def _replies(self) -> int:
        """``replies`` for this search: 0 while the opponents have played only moves the
        greedy policy could have made (``trust``; at the first decision too)."""
        if self.config.trust and self.config.model and not self._strayed():
            return 0
        return self.config.replies

    def _model(self) -> bool:
        """``model`` for this search: off once an opponent has strayed (``drop``)."""
        if self.config.drop and self._strayed():
            return False
        return self.config.model

    def _strayed(self) -> bool:
        """Whether an opponent has made a move the greedy policy could not have made."""
        return self._style is not None and self._style.strays()

    def _particles(self) -> HandFilter | None:
        """The particle filter this search deals from (``particles``; with ``sharp``, only
        while no opponent has strayed from the greedy moves), or None."""
        if self.config.sharp and self._strayed():
            return None
        return self._hands

    def _reply_greedy(self) -> float:
        """``reply_greedy`` for this search: 0 once an opponent strayed from the model
        (``adapt``; ``trust`` and ``drop`` watch for it too, see ``watches_style``)."""
        if self._strayed():
            return 0.0
        return self.config.reply_greedy

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
        self._solve_in_search = self.config.solver == 2 and view.talon_size <= self.config.near
        if self._solve_in_search or self.config.tail:
            self._solver_for(view)
        self._walk = self._walk_for(seat)
        if self.config.trust and self.config.model and self._walk.replies == 0:
            self.trusted += 1
        legal = list(legal)
        root = Node()
        if self.config.workers > 1 and observation is not None:
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
        if self._halve and self.config.paired and len(legal) > 2:
            return self._run_halving(root, view, seat, legal, deadline, limit)
        rng = self._rng
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or done == 0 or self._clock() < deadline
        ):
            if self.config.paired:
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
        # One tape of the seed's numbers for the round: seeded once, read by each.
        tape = tape_for(seed)
        iterate = self._walk.iterate
        for action in actions:
            iterate(root, deal.copy(), legal, action, Lazy(seed, tape=tape))
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
        config = self.config
        workers = config.workers
        share = None if self.iterations is None else -(-self.iterations // workers)
        seeds = [self._rng.getrandbits(64) for _ in range(workers - 1)]
        ms = None if deadline is None else max(1.0, 1000 * (deadline - self._clock()))
        weights = None if self._inference is None else self._inference.weights_table()
        hands = self._particles()
        if hands is not None:  # helpers deal by the particles' card chances
            weights = hands.weights_table()
        actions = [str(a) for a in legal]
        # A helper has not seen the game: it searches with this search's model, replies
        # and reply_greedy, on its own share of the budget, alone.
        helper = config.replace(ms=ms, iterations=share, workers=1, model=self._model(),
                                replies=self._replies(), reply_greedy=self._reply_greedy(),
                                adapt=False, trust=False, sharp=False, drop=False)
        tasks = [
            HelperTask(helper, seed, seat, observation, actions, weights, self._halve)
            for seed in seeds
        ]
        helpers = parallel.pool(workers - 1)
        sent = helpers.send(run_task, tasks)
        done = self._run(root, view, seat, legal, deadline, share)
        wait = parallel.ITERATION_WAIT if ms is None else ms / 1000 + parallel.GRACE
        results: list[list[Stats] | None] = helpers.collect(sent, wait)
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
        if self.config.paired and not self._halve:
            return (mean, child.visits)
        # Halving: the actions compared to the end have the most deals.
        return (child.visits, mean)

    def _walk_for(self, seat: int) -> Walk:
        """The iterations' walk for this search (:mod:`durak_core.tree`, compiled with the
        engine): this bot's settings, and its Python parts where the compiled ones will
        not do."""
        compiled = self.config.compiled
        fast_rollout = compiled and not self.config.epsilon and not self._solve_in_search
        return Walk(
            seat,
            compiled=compiled,
            model=self._model(),
            replies=self._replies(),
            reply_width=self.config.reply_width,
            reply_greedy=self._reply_greedy(),
            greedy_first=self.config.greedy_first,
            paired=self.config.paired,
            depth=self.config.depth,
            c=self.config.c,
            greedy=None if compiled else self._python_greedy,
            next_to_act=None if compiled else next_to_act,
            rollout=None if fast_rollout else self._rollout,
            solver=self._endgame,
            tail=self.config.tail,
            tail_nodes=self.config.tail_nodes,
            throw=self.config.throw,
            widen=self.config.widen,
            reply_view=self.config.reply_view,
            cutoff=self.config.cutoff,
            weights=value_weights() if self.config.cutoff or self.config.blend else None,
            blend=self.config.blend,
            every_seat=self.config.every_seat,
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
        eps = self.config.epsilon
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
            elif eps and rng.random() < eps:
                action = rng.choice(legal)
            else:
                action = rollout_action(game, actor, legal, trump)
            game.apply(action)
        return outcome(game)


#: ``exact_talon``: the fewest deals solved in time for their mean to decide (one deal
#: alone plays as if the talon's order were known).
EARLY_DEALS = 4
#: ``exact_talon``: the most deals solved for one decision.
EARLY_MAX_DEALS = 32


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
        config: IsmctsConfig | None = None,
        *,
        clock: Callable[[], float] | None = None,
        **options: Any,
    ) -> None:
        super().__init__(seed, V1_CONFIG if config is None else config, clock=clock, **options)


#: The options of ``ismcts-v1`` (any other option as the AI's).
V1_CONFIG = IsmctsConfig(
    solver=0, infer=False, compiled=False, model=False, replies=0, reply_width=0,
    reply_greedy=0.0, adapt=False, drop=False, width=5,
)



class IsmctsV2Bot(IsmctsBot):
    """The default AI as it stood when issue 36 began (``ismcts-v2``), frozen: the bar
    the next AI must clear (issue 36 aims at 60% against it).  Its options are pinned one
    by one in :data:`V2_CONFIG`, not taken from :class:`IsmctsConfig`'s defaults, so a
    later change of a default changes ``ismcts`` and leaves this bot as it was; the
    recorded games of tests/bots/data/ismcts_v2_games.json catch a change of the search
    code itself.  Options given (``ms``, ``cpu``, ``iterations``...) apply over the pinned
    ones, as for ``ismcts-v1``."""

    name = "ismcts-v2"

    def __init__(
        self,
        seed: int | None = None,
        config: IsmctsConfig | None = None,
        *,
        clock: Callable[[], float] | None = None,
        **options: Any,
    ) -> None:
        config = V2_CONFIG if config is None else config
        if options:
            config = config.replace(**options)
        if config.ms is None and config.iterations is None:  # pinned too, not DEFAULT_MS
            config = config.replace(ms=V2_MS)
        super().__init__(seed, config, clock=clock)


#: Every option of ``ismcts-v2``, each written out (the default AI's at issue 36), so that
#: no later change of :class:`IsmctsConfig`'s defaults reaches it.  A new option of the
#: config must be added here with the value that keeps the old behaviour (a test checks
#: that every field is named).
V2_OPTIONS: dict[str, Any] = {
    # the budget: V2_MS of wall time a decision unless a spec says otherwise
    "ms": None, "iterations": None, "cpu": False, "workers": 1,
    # the root
    "paired": True, "width": 3, "halving": False,
    # the tree
    "c": 0.7, "depth": 0, "greedy_first": True, "widen": 0.0,
    # the opponents
    "model": True, "replies": 2, "reply_width": 2, "reply_greedy": 0.5, "reply_view": 0.0,
    "every_seat": False, "adapt": False, "trust": False, "drop": False, "infer": True,
    "particles": 0, "sharp": False,
    # the rollouts
    "epsilon": 0.0, "compiled": True, "tail": 0, "tail_nodes": 2000, "throw": False,
    "cutoff": 0, "blend": 0.0,
    # the endgame
    "solver": 1, "near": 0, "solver_nodes": 2000, "endgame_ms": 0.5, "endgame_nodes": 100_000,
    "exact_talon": 0,
}
#: ``ismcts-v2``'s think time when neither ``ms`` nor ``iterations`` is given.
V2_MS = 100.0
#: The options of ``ismcts-v2`` as a checked config.
V2_CONFIG = IsmctsConfig(**V2_OPTIONS)


#: One root action's statistics from a helper: visits, summed reward, visits not the durak.
Stats = tuple[int, float, int]


@dataclass(frozen=True)
class HelperTask:
    """One helper's search (:mod:`durak_core.bots.parallel`): what the bot knows, and
    the helper's own options (its share of the budget, one process), seed and position."""

    config: IsmctsConfig
    seed: int
    seat: int
    observation: dict[str, Any]
    actions: list[str]  # the root actions, as text
    weights: list[list[float]] | None  # the inference's card weights, or None
    halve: bool = False  # sequential halving at the root (a choice, not an analysis)


def tree_size(node: Node) -> tuple[int, int]:
    """How many nodes lie below ``node`` and how many actions deep its longest line goes:
    the size of a search's tree (:attr:`IsmctsBot.last_root`), which shows how far a
    budget reaches."""
    nodes = depth = 0
    for child in node.children.values():
        below, longest = tree_size(child)
        nodes += 1 + below
        depth = max(depth, 1 + longest)
    return nodes, depth


def run_task(task: HelperTask) -> list[Stats]:
    """The search of one task: the statistics of each root action, in ``task.actions``
    order.  Runs in a helper process (and in tests, in this one)."""
    bot = IsmctsBot(seed=task.seed, config=task.config)
    view = Game.from_observation(task.observation)
    if task.weights is not None:
        bot._inference = Inference.with_weights(
            view.players, task.seat, int(view.trump_suit), task.weights
        )
    bot._halve = task.halve
    legal = [parse_action(a) for a in task.actions]
    deadline = None if bot.ms is None else bot._clock() + bot.ms / 1000
    root = bot._search(view, task.seat, legal, deadline)
    out: list[Stats] = []
    for action in legal:
        child = root.children.get(action)
        out.append((0, 0.0, 0) if child is None else (child.visits, child.reward, child.safe))
    return out
