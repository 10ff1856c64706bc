"""The ISMCTS tree and one iteration's walk down it, compiled with the engine.

:class:`durak_core.bots.IsmctsBot` chooses what to search and when to stop; the
work of every iteration (select, expand, roll out, back up) is here, in a module
that setup.py compiles with the rules engine (see :mod:`durak_core._engine`), so
the walk's bookkeeping runs at the speed of the playouts beneath it.  The search
itself is described in :mod:`durak_core.bots.ismcts`; the same moves either way.

>>> from durak_core import Game, Rules
>>> game = Game.new(Rules(), seed=5)
>>> seat = game.attacker
>>> walk = Walk(seat, compiled=True, model=True, replies=2, reply_width=2,
...             reply_greedy=0.5, greedy_first=True, paired=True, depth=0, c=0.7)
>>> root = Node()
>>> legal = game.legal_actions(seat)
>>> for action in legal[:3]:
...     walk.iterate(root, game.copy(), legal, action, Lazy(seed=1))
>>> sum(child.visits for child in root.children.values())
3
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from .actions import Action, Pass
from .endgame import EndgameSolver
from .game import Game
from .playout import (
    among,
    blend_finish,
    cut_finish,
    finish,
    greedy_choice,
    next_seat,
    outcome,
    playout,
    shortlist_after,
)


class Tape:
    """The 32-bit words of ``random.Random(seed)``, drawn once and read by every
    :class:`Lazy` of that seed.

    A paired round plays each root action on one deal with generators of one seed,
    and each of them draws the same numbers: seeding a Mersenne Twister (a few
    microseconds, most of an iteration's own bookkeeping) then happens once a round
    instead of once an iteration.  Every draw of ``random.Random`` (``random()``,
    ``choice()``, ``getrandbits()``) takes whole words from one stream, so reading the
    same words gives the same numbers (:data:`TAPE_MATCHES` checks it on this Python).
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.words: list[int] = []
        self._source: random.Random | None = None

    def word(self, i: int) -> int:
        """The ``i``-th word of the stream (drawn when first asked for)."""
        words = self.words
        while len(words) <= i:
            source = self._source
            if source is None:
                source = self._source = random.Random(self.seed)
            words.append(source.getrandbits(32))
        return words[i]


class Lazy:
    """A ``random.Random`` made on first use, from ``seed`` (or an existing one).

    A paired round gives each root action a fresh generator of one seed, and most
    iterations never draw from it (the greedy move is expanded first; compiled
    playouts draw nothing): making it only when needed saves a good share of an
    iteration.  The numbers drawn are the same as from one made up front.

    With a ``tape`` (that seed's words, shared by a round's generators),
    :meth:`random` and :meth:`choice` read the tape instead of seeding a generator of
    their own; :meth:`get` still gives a generator, advanced past what was read.
    """

    def __init__(
        self, seed: int = 0, rng: random.Random | None = None, tape: Tape | None = None
    ) -> None:
        self._seed = seed
        self._rng = rng
        self._tape = tape
        self._pos = 0  # the words of the tape read so far

    def get(self) -> random.Random:
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
            for _ in range(self._pos):  # where this generator's draws have got to
                rng.getrandbits(32)
            self._tape = None
        return rng

    def random(self) -> float:
        """``get().random()``: the same number, from the tape when there is one."""
        tape = self._tape
        if tape is None:
            return self.get().random()
        pos = self._pos
        a = tape.word(pos) >> 5
        b = tape.word(pos + 1) >> 6
        self._pos = pos + 2
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def choice(self, seq: list[Action]) -> Action:
        """``get().choice(seq)``: the same action, from the tape when there is one."""
        tape = self._tape
        n = len(seq)
        if tape is None or n >= 1 << 31:
            return self.get().choice(seq)
        if n == 0:
            raise IndexError("Cannot choose from an empty sequence")
        k = 0  # n.bit_length(), which compiled code would call as a slow method
        while n >> k:
            k += 1
        pos = self._pos
        r = tape.word(pos) >> (32 - k)
        pos += 1
        while r >= n:
            r = tape.word(pos) >> (32 - k)
            pos += 1
        self._pos = pos
        return seq[r]


def _tape_matches() -> bool:
    """Whether :class:`Lazy` reads from a tape exactly what ``random.Random`` gives on
    this Python: ``random()`` from two words (27 and 26 bits), ``choice()`` by
    rejection from the top bits of one word a try, as CPython draws them; checked here
    rather than assumed of every version."""
    items: list[Action] = []
    for n in range(1, 40):
        items.append(Pass(n))
        for seed in (n, 1 << 63 | n):
            theirs = random.Random(seed)
            ours = Lazy(seed, tape=Tape(seed))
            for _ in range(3):
                if ours.choice(items) is not theirs.choice(items):
                    return False
                if ours.random() != theirs.random():
                    return False
            # a generator handed out goes on from there
            if ours.get().random() != theirs.random():
                return False
    return True


#: Tapes are read only where they were checked to give what ``random.Random`` gives.
TAPE_MATCHES: Final = _tape_matches()


def tape_for(seed: int) -> Tape | None:
    """A tape of ``seed`` for a round's generators (:class:`Lazy`), or None on a Python
    whose ``random.Random`` draws differently (each generator then seeds its own)."""
    return Tape(seed) if TAPE_MATCHES else None


class Node:
    """Statistics of one action in the tree, and the actions tried after it.

    ``safe`` counts the visits in which the acting seat was not the durak (for
    the coach's "chance of not being the durak"; ``reward`` counts a draw half).
    """

    def __init__(self, action: Action | None = None) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.safe = 0
        self.avail = 1
        #: The action that leads here (None at a search's root).
        self.action = action
        # ``children``'s nodes again, in the order they were made, for the walk to find
        # by identity (see :func:`_child`).
        self.kids: list[Node] = []

    def add(self, action: Action) -> Node:
        """A new child for ``action`` (not a child yet)."""
        child = Node(action)
        self.children[action] = child
        self.kids.append(child)
        return child


def _child(node: Node, action: Action) -> Node | None:
    """``node.children.get(action)``, without hashing the action where it can.

    Hashing an action (a frozen dataclass) runs Python code, and a walk asks several
    times a level.  Below a search's root every action the walk meets is one of the
    engine's shared objects (a legal action of a game is the same object whatever the
    deal; :func:`durak_core.game._multi_leads` shares multi-card leads too), so an
    equal action is the same object and a search by identity finds exactly what the
    dictionary would.  The root's actions come from the caller (parsed, perhaps, and
    equal to the engine's without being them), and anyone may add to a root's
    ``children``: there a miss asks the dictionary.
    """
    kids = node.kids
    for kid in kids:
        if kid.action is action:
            return kid
    if node.action is not None and len(kids) == len(node.children):
        return None
    return node.children.get(action)


#: The greedy policy's choice for a seat among its legal actions (the Python policy).
GreedyPolicy = Callable[[Game, int, Sequence[Action]], Action]


class Walk:
    """One search's iterations: the searching ``seat`` and the bot's settings (the
    options of :class:`durak_core.bots.IsmctsBot` of the same names).

    ``greedy``: the Python greedy policy, and ``next_to_act``: who acts next, both used
    when not ``compiled``; ``rollout``: plays a game out and gives every seat's reward,
    when the compiled greedy playout alone will not do (``epsilon``, solved endgames or
    the Python policy).  ``solver``, ``tail``, ``tail_nodes`` and ``throw``: the
    compiled rollout's refinements once the talon is empty
    (:func:`durak_core.playout.finish`; ``tail`` 0 and ``throw`` False: none).
    ``cutoff`` and ``weights``: compiled rollouts stop after ``cutoff`` bouts and the
    value model of those weights scores the position
    (:func:`durak_core.playout.cut_finish`; 0 or None: off).  ``blend``: with
    ``weights``, compiled rollouts play to the end and their reward is this share of the
    value model's score at the first bout's end and the rest the result
    (:func:`durak_core.playout.blend_finish`; 0: off; ``cutoff`` wins over it).
    ``every_seat``: with ``model``, each opponent's first ``replies`` decisions are
    searched (a count per seat) rather than the first ``replies`` of all opponents
    together; the same walk at two seats.
    """

    def __init__(
        self,
        seat: int,
        *,
        compiled: bool,
        model: bool,
        replies: int,
        reply_width: int,
        reply_greedy: float,
        greedy_first: bool,
        paired: bool,
        depth: int,
        c: float,
        greedy: GreedyPolicy | None = None,
        next_to_act: Callable[[Game], int | None] | None = None,
        rollout: Callable[[Game, Lazy], list[float]] | None = None,
        solver: EndgameSolver | None = None,
        tail: int = 0,
        tail_nodes: int = 2000,
        throw: bool = False,
        widen: float = 0.0,
        reply_view: float = 0.0,
        cutoff: int = 0,
        weights: list[float] | None = None,
        blend: float = 0.0,
        every_seat: bool = False,
    ) -> None:
        if not compiled and (greedy is None or next_to_act is None or rollout is None):
            raise ValueError("a walk without the compiled policy needs greedy, next_to_act "
                             "and rollout")
        self.seat = seat
        self.compiled = compiled
        self.model = model
        # The opponents' first ``replies`` decisions are searched still (with the model);
        # both reply options shape the model's searched replies only.
        self.replies = replies if model else 0
        self.reply_width = reply_width if model else 0
        self.reply_greedy = reply_greedy if model else 0.0
        self.greedy_first = greedy_first
        self.paired = paired
        self.depth = depth
        self.c = c
        self.greedy = greedy
        self.next_to_act = next_to_act
        self.rollout = rollout
        # The compiled rollout's refinements near the end (durak_core.playout.finish).
        self.solver = solver if tail > 0 else None
        self.tail = tail
        self.tail_nodes = tail_nodes
        self.throw = throw
        self.widen = widen
        # The share of iterations whose first searched reply is judged on a deal from
        # the replying seat's own view (the searcher's hidden cards dealt anew).
        self.reply_view = reply_view if model else 0.0
        self.refined = self.solver is not None or throw
        # The learnt value in place of the rollout's end (two seats only; the walk's
        # compiled rollout only).
        self.cutoff = cutoff if weights is not None else 0
        self.weights: list[float] = weights if weights is not None else []
        # The learnt value beside the rollout's result (two seats; compiled rollouts).
        self.blend = blend if weights is not None and not self.cutoff else 0.0
        # Each opponent's searched replies counted on their own (tables of 3+).
        self.every_seat = every_seat and model

    def choice(self, game: Game, actor: int, legal: Sequence[Action]) -> Action:
        """The greedy policy's choice (the same either way; compiled is faster)."""
        if self.compiled:
            return greedy_choice(game, actor)
        greedy = self.greedy
        assert greedy is not None
        return greedy(game, actor, legal)

    def iterate(
        self,
        root: Node,
        game: Game,
        root_legal: list[Action],
        first: Action | None,
        rng: Lazy,
    ) -> None:
        """One iteration on one determinization: select, expand, roll out, back up.

        ``first``: the root action to take (paired root), or None to choose
        it by UCB like any other node.
        """
        seat = self.seat
        node = root
        path: list[tuple[Node, int]] = []
        legal: list[Action] = root_legal
        actor = seat
        # The compiled engine's own "who acts next", and opponents modelled by the
        # greedy policy played without a tree level: the same moves, faster.
        fast = self.compiled
        model = self.model
        replies = self.replies
        # every_seat: the replies each seat has left to be searched, by seat; else one
        # count for all the opponents together (``replies``).
        left: list[int] | None = (
            [self.replies] * game.players if self.every_seat else None
        )
        reply_width = self.reply_width
        reply_greedy = self.reply_greedy
        # reply_view: the opponent's first searched reply is scored on ``shadow``, the
        # position as that opponent sees it with the searcher's hidden cards dealt anew,
        # so the reply does not answer a hand the opponent cannot see.
        shadow: Game | None = None
        shadow_node: Node | None = None
        viewing = False
        while True:
            if first is not None:
                action = first
                first = None
                child = _child(node, action)
                if child is None:
                    child = node.add(action)
                game.apply(action)
                node = child
                path.append((node, actor))
            elif len(legal) == 1:
                game.apply(legal[0])
            elif model and actor != seat and (replies if left is None else left[actor]) <= 0:
                game.apply(self.choice(game, actor, legal))
            else:
                # Below the root every action is the engine's shared object (_child).
                shared = node.action is not None
                modelled: Action | None = None
                # The greedy policy chooses among every legal action, not the shortlist
                # (the Python policy reads the order of the list it is given); asked
                # once per decision at most.
                whole = legal
                greedy_now: Action | None = None
                if actor != seat:
                    if left is None:
                        replies -= 1
                    else:
                        left[actor] -= 1
                    if self.reply_view and shadow_node is None:
                        viewing = rng.random() < self.reply_view
                    if reply_width and len(legal) > reply_width:
                        # Only the replies a sensible opponent would consider: weak
                        # ones, each tried once, would drag the root means around.
                        greedy_now = self.choice(game, actor, whole)
                        legal = shortlist_after(greedy_now, legal, game._trump, reply_width,
                                                shared)
                    if reply_greedy and rng.random() < reply_greedy:
                        # On this iteration the opponent plays as the model says: the
                        # node's mean blends the model's reply with the searched best.
                        if greedy_now is None:
                            greedy_now = self.choice(game, actor, whole)
                        modelled = greedy_now
                found: Node | None = None if modelled is None else _child(node, modelled)
                if found is not None:
                    action = modelled  # type: ignore[assignment]
                    child = found
                else:
                    untried: list[Action] = []
                    if modelled is not None:
                        untried.append(modelled)
                    else:
                        for a in legal:
                            if _child(node, a) is None:
                                untried.append(a)
                    if untried and self.widen and actor == seat and path:
                        # Progressive widening at the bot's own decisions below the
                        # root: another action only once this node has had the visits
                        # to judge the ones it has (the greedy one first).
                        tried = len(legal) - len(untried)
                        if tried >= 1 + int(self.widen * math.sqrt(node.visits)):
                            legal = [a for a in legal if _child(node, a) is not None]
                            untried = []
                    if untried:
                        greedy: Action | None = None
                        if self.greedy_first:  # the greedy move, if this decision has it
                            greedy = (greedy_now if greedy_now is not None
                                      else self.choice(game, actor, whole))
                        if self.paired and greedy is not None:
                            # The generator is this iteration's own: drawing from it only
                            # when the greedy move was tried already picks the same action.
                            action = greedy
                            if not among(untried, action, shared):
                                action = rng.choice(untried)
                        else:
                            action = rng.choice(untried)
                            if greedy is not None and among(untried, greedy, shared):
                                action = greedy
                        for a in legal:
                            kid = _child(node, a)
                            if kid is not None:
                                kid.avail += 1
                        child = node.add(action)
                        if viewing:
                            viewing = False
                            shadow, shadow_node = self._shadow(game, actor, action, rng), child
                        game.apply(action)
                        path.append((child, actor))
                        break
                    action = self.select(node, legal)
                    found = _child(node, action)
                    assert found is not None
                    child = found
                if viewing:
                    viewing = False
                    shadow = self._shadow(game, actor, action, rng)
                    shadow_node = child
                game.apply(action)
                node = child
                path.append((node, actor))
            if game.is_over or len(path) == self.depth:
                break
            if fast:
                actor = next_seat(game)
                if actor < 0:
                    break
                if model and actor != seat and (replies if left is None else left[actor]) <= 0:
                    # The greedy policy is the opponent's whole move: no list of
                    # actions needed (it plays a forced move too).
                    while True:
                        game.apply(greedy_choice(game, actor))
                        actor = next_seat(game)
                        if actor < 0 or actor == seat:
                            break
                        if left is not None and left[actor] > 0:
                            break  # a seat whose replies are searched still
                    if actor < 0:
                        break
            else:
                next_to_act = self.next_to_act
                assert next_to_act is not None
                nxt = next_to_act(game)
                if nxt is None:
                    break
                actor = nxt
            legal = game.legal_actions(actor)
        rewards, results = self.scored(game, rng)
        if shadow is None:
            seen, seen_results = rewards, results
        else:
            seen, seen_results = self.scored(shadow, rng)
        for child, who in path:
            child.visits += 1
            if child is shadow_node:
                reward, result = seen[who], seen_results[who]
            else:
                reward, result = rewards[who], results[who]
            child.reward += reward
            # Safe or a draw: by the result (a learnt value in place of one counts when
            # it says so; a blended reward does not decide it).
            if result >= 0.5:
                child.safe += 1

    def scored(self, game: Game, rng: Lazy) -> tuple[list[float], list[float]]:
        """Play ``game`` out: every seat's reward, and what decides whether a seat
        counts as safe (the result; the same list unless ``blend``)."""
        if self.blend and self.rollout is None and not self.refined:
            return blend_finish(game, self.seat, self.weights, self.blend)
        rewards = self.rewards(game, rng)
        return rewards, rewards

    def rewards(self, game: Game, rng: Lazy) -> list[float]:
        """Play ``game`` out with the rollout policy: every seat's reward."""
        rollout = self.rollout
        if rollout is None:
            if self.refined:
                return finish(game, self.solver, self.tail, self.tail_nodes, self.throw)
            if self.cutoff:
                return cut_finish(game, self.seat, self.weights, self.cutoff)
            playout(game)
            return outcome(game)
        return rollout(game, rng)

    def _shadow(self, game: Game, actor: int, action: Action, rng: Lazy) -> Game:
        """``game`` as ``actor`` sees it, dealt anew (the cards ``actor`` has not seen are
        shuffled among the other hands and the talon), with ``action`` applied: where
        ``actor``'s reply is scored under ``reply_view``.  The reply stays legal: it
        depends only on ``actor``'s own hand and the table, which the deal keeps."""
        shadow = opponent_deal(game, actor, rng.get())
        shadow.apply(action)
        return shadow

    def select(self, node: Node, legal: list[Action]) -> Action:
        """UCB1 over the children available now; bumps their availability counts."""
        best: Action = legal[0]
        best_score = -1.0
        c = self.c
        for a in legal:
            child = _child(node, a)
            assert child is not None
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            child.avail += 1
            if score > best_score:
                best, best_score = a, score
        return best


def opponent_deal(game: Game, seat: int, rng: random.Random) -> Game:
    """A full game as ``seat`` could believe it to be: ``game`` (a full game) seen from
    ``seat`` and dealt again at random.  ``seat``'s hand, the table, the discards and
    every card seen in the open stay; the other hidden cards change places."""
    return game.view(seat).determinize(rng)
