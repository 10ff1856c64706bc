"""Exact play once the talon is empty and two seats are left.

Then every card is known to both players: the cards nobody has seen can
only be in the other hand.  The rest of the game is a finite game of
perfect information, and :class:`EndgameSolver` solves it: alpha-beta
(minimax) over a compact state of bitmasks, a transposition table, and
iterative deepening so that a search cut short by its budget still has a
move.  A result marked ``exact`` is the game-theoretic value, not an
estimate.  There are only three results (win, draw, loss), so each depth
is searched with two null windows ("a win?", then "a draw?"), which prune
far more than an open window.

The compact state mirrors the engine (:mod:`durak_core.game`) for two seats
with an empty talon, in the fixed order of
:func:`durak_core.bots.driver.next_to_act`: the defender acts while a card
lies unbeaten and no take was declared, then the other seat throws in or
passes.  ``tests/bots/test_endgame.py`` checks it against a brute-force
minimax over the engine itself.  One reduction keeps the tree small without
changing any value: the defender beats the unbeaten cards in a fixed order
(beating some cards and then taking only hands the attacker more ranks to
throw in, so it is never better than taking at once).

A bout or so earlier, with a few cards still in the talon, a game whose talon
is known (a full game, a deal made from a view, or a view whose talon holds
only the face-up trump card) is still one of perfect information:
``EndgameSolver(..., talon=N)`` solves positions with up to N cards to draw,
dealt at each bout's end as the engine deals them (the attacker first, up to
six cards each).  Such solves cost far more (``benchmarks/solver_near.py``).

>>> from durak_core import Game, Rules
>>> from durak_core.bots import GreedyBot, next_to_act
>>> game, greedy = Game.new(Rules(), seed=3), GreedyBot()
>>> while not applies(game):  # two greedy bots play until the talon is empty
...     seat = next_to_act(game)
...     _ = game.apply(greedy.choose(game.observation(seat), game.legal_actions(seat)))
>>> seat = next_to_act(game)
>>> result = EndgameSolver(game.rules, int(game.trump_suit)).solve(game, seat)
>>> result.exact, result.value in (WIN, DRAW, LOSS), result.action in game.legal_actions(seat)
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .actions import Action, Attack, Defend, Pass, Take, Transfer
from .cards import ALL_CARDS, BEATERS, RANK_MASK, SUIT_MASK, popcount
from .game import Game
from .rules import Rules

#: Values, from the point of view of the seat the solver plays for.
WIN: Final = 1000
DRAW: Final = 0
LOSS: Final = -1000
_BIG: Final = 4000  # beyond every value
_EXACT_DEPTH: Final = 1 << 20  # the depth stored for results that met no horizon

# Move kinds (low 3 bits); the card indices sit above: attack card << 3, card << 9.
# A multi-card lead stores its rank << 3 and its suits (4 bits) << 7.
_LEAD: Final = 0
_LEADN: Final = 1
_THROW: Final = 2
_PASS: Final = 3
_DEFEND: Final = 4
_TRANSFER: Final = 5
_SHOW: Final = 6
_TAKE: Final = 7

# Status bits of a state.
_TAKING: Final = 1
_PASSED: Final = 2
_DISCARD: Final = 4  # something was discarded already: the bout limit is 6

# Transposition-table entry flags.
_T_EXACT: Final = 0
_T_LOWER: Final = 1
_T_UPPER: Final = 2

#: ``_SUITS[s]``: the cards of the suits in the 4-bit set ``s``.
_SUITS: Final[tuple[int, ...]] = tuple(
    sum(SUIT_MASK[x] for x in range(4) if s >> x & 1) for s in range(16)
)


class _Abort(Exception):
    """The node budget or the stop callback ended the search."""


class Solution:
    """What :meth:`EndgameSolver.solve` found.

    value: WIN, DRAW or LOSS.
    exact: the value is the game-theoretic one.  A search cut short by its budget
        scores what lies beyond its horizon as a draw: a WIN or LOSS found is
        still proven, a DRAW is then only "no result found" (``exact`` False).
    action: a best action for the seat, when the seat is the one to move.
    depth: the depth (in moves) of the deepest finished iteration.
    nodes: positions searched.
    """

    __slots__ = ("action", "depth", "exact", "nodes", "value")

    def __init__(
        self, value: int, exact: bool, action: Action | None, depth: int, nodes: int
    ) -> None:
        self.value = value
        self.exact = exact
        self.action = action
        self.depth = depth
        self.nodes = nodes

    @property
    def reward(self) -> float:
        """The value as a reward in 0..1: 1 safe, 0.5 a draw, 0 the durak."""
        return (self.value / WIN + 1) / 2

    def __repr__(self) -> str:
        kind = "exact" if self.exact else f"estimate at depth {self.depth}"
        return f"<Solution {self.value} ({kind}), {self.action}, {self.nodes} nodes>"


def seats_left(game: Game, talon: int = 0) -> list[int]:
    """The two seats an endgame is played between, or [] when the solver does not apply.

    Usually the two seats still in the game.  A seat that went out in this bout
    (it played its last card) counts too while the bout lasts: if the defender
    also runs out, the game is a draw, not a win for that seat.

    talon: with up to this many cards still in the talon, a position applies too
    when the talon's cards are known (a full game, one dealt from a view, or a view
    whose talon holds only the trump card): the game is then still one of perfect
    information.
    """
    left = len(game._talon) - game._tpos
    if game._over or game._teams or left > talon:
        return []
    if left:
        talon_cards = game._talon
        for i in range(game._tpos, len(talon_cards)):
            if talon_cards[i] is None:
                return []
    active = game._active
    seats = [s for s in range(game._n) if active >> s & 1]
    if len(seats) == 1 and game._finish:
        seats.append(game._finish[-1])  # out in this bout, else the game would be over
    if len(seats) != 2:
        return []
    unknown = 0
    live = popcount(game._tmask) + left
    for s in seats:
        unknown += game._unk[s]
        live += popcount(game._hand[s]) + game._unk[s]
    if unknown != popcount(game._unseen):
        return []
    # Without transfers a bout either discards cards or costs its attacker one, so
    # fewer than live * live bouts remain: then the rules' bout limit cannot matter.
    if game._bouts + live * live >= game._bout_limit:
        return []
    return seats


def applies(game: Game) -> bool:
    """Whether :class:`EndgameSolver` can solve ``game``: an empty talon, two seats
    left (no teams), and every card of theirs known (a full game, or a seat's view,
    where the unseen cards can only be in the other hand)."""
    return bool(seats_left(game))


def _talon_code(game: Game) -> int:
    """The cards still to draw as one number, six bits a card (its index + 1), the next
    card lowest: the solver's state takes them off one by one (0: the talon is empty).
    Only for a game whose talon is known (see :func:`seats_left`)."""
    code = 0
    talon = game._talon
    for i in range(len(talon) - 1, game._tpos - 1, -1):
        card = talon[i]
        assert card is not None
        code = code << 6 | (card.index + 1)
    return code


def _hand(game: Game, seat: int) -> int:
    if game._unk[seat]:
        return game._hand[seat] | game._unseen
    return game._hand[seat]


class EndgameSolver:
    """Solves two-seat endgames of one game (its rules and trump suit).

    The transposition table is kept between calls: positions of one game
    repeat from decision to decision, so later calls are mostly lookups.
    It is cleared when it holds more than ``max_entries`` positions.
    """

    def __init__(
        self, rules: Rules, trump: int, max_entries: int = 1 << 20, talon: int = 0
    ) -> None:
        self.rules = rules
        self.trump = trump
        self.max_entries = max_entries
        #: Also solve positions of a dealt game with up to this many cards still in the
        #: talon (drawn as the rules say when a bout ends; :func:`seats_left`).
        self.talon = talon
        self._cap0 = rules.limit_cap(first_bout=True)
        self._perev = rules.variant == "perevodnoy"
        self._several = rules.open_with_several
        self._showopt = rules.transfer_by_showing_trump
        self._beaters = BEATERS[trump]
        self._trumps = SUIT_MASK[trump]
        self._tt: dict[int, int] = {}
        # Transfers can bring a position back (cards taken, transferred, taken back):
        # then a repetition on the current line is scored as a draw (endless play ends
        # in a draw at the rules' bout limit) and kept apart from proven results.
        self._cyclic = self._perev
        self._line: set[int] = set()
        self.nodes = 0
        self._limit = 0
        self._horizon = 0
        self._cuts = 0
        self._stop: Callable[[], bool] | None = None

    # ------------------------------------------------------------ public

    def solve(
        self,
        game: Game,
        seat: int,
        max_nodes: int = 0,
        stop: Callable[[], bool] | None = None,
    ) -> Solution:
        """Search the position for ``seat`` (one of the two seats left).

        max_nodes: give up after about this many positions (0: no limit).
        stop: called every few hundred positions; True ends the search.
        Iterative deepening: a search cut short returns the best action of
        its deepest finished iteration, with ``exact`` False (or None when
        not even the first finished).
        """
        seats = seats_left(game, self.talon)
        if not seats:
            if self.talon:
                raise ValueError(
                    f"the solver needs two seats left, every card known and at most "
                    f"{self.talon} cards in the talon"
                )
            raise ValueError("the endgame solver needs an empty talon and two seats left")
        if seat not in seats:
            raise ValueError(f"seat {seat} is not one of the two seats left")
        if len(self._tt) > self.max_entries:
            self._tt.clear()
        other = seats[1] if seats[0] == seat else seats[0]
        h0 = _hand(game, seat)
        h1 = _hand(game, other)
        d = 0 if game._defender == seat else 1
        unbeaten = 0
        for i in range(len(game._att)):
            if game._def[i] is None:
                unbeaten |= game._att[i].bit
        thrower = other if d == 0 else seat
        st = 0
        if game._taking:
            st |= _TAKING
        if game._passed >> thrower & 1:
            st |= _PASSED
        if game._discard:
            st |= _DISCARD
        T = game._tmask
        k = len(game._att)
        dstart = game._dstart
        shown = game._shown
        self.nodes = 0
        self._limit = max_nodes
        self._stop = stop
        tl = _talon_code(game)
        key = self._key(h0, h1, d, T, unbeaten, st, dstart, shown, tl)
        value = DRAW
        best = -1
        exact = False
        done = 0
        depth = 16
        try:
            while True:
                # Two null-window tests: a win?  If not, at least a draw?  With three
                # possible results these prune far more than one open window.
                self._horizon = 0
                self._cuts = 0
                self._line.clear()
                v = self._ab(
                    h0, h1, d, T, unbeaten, k, st, dstart, shown, tl, depth, DRAW, DRAW + 1
                )
                if v <= DRAW:
                    v = self._ab(
                        h0, h1, d, T, unbeaten, k, st, dstart, shown, tl, depth, DRAW - 1, DRAW
                    )
                entry = self._tt.get(key)
                value = v
                best = -1 if entry is None else (entry >> 12 & 0x3FFFF) - 1
                done = depth
                # A win or a loss is proven even past a horizon (which scores a draw);
                # a draw only when no horizon was met.
                if v != DRAW or self._horizon == 0:
                    exact = True
                    break
                if not self._cuts:
                    break  # only repetitions stood in the way: deeper will not tell more
                depth *= 2
        except _Abort:
            pass
        finally:
            self._stop = None
        mover = d if unbeaten and not st & _TAKING else 1 - d
        action: Action | None = None
        if best >= 0 and mover == 0:
            action = self._action(best, seat)
        return Solution(value, exact, action, done, self.nodes)

    def values(
        self,
        game: Game,
        seat: int,
        actions: Sequence[Action],
        max_nodes: int = 0,
        stop: Callable[[], bool] | None = None,
    ) -> list[Solution]:
        """The solution after each of ``actions`` (legal for ``seat`` in ``game``)."""
        out: list[Solution] = []
        for action in actions:
            after = game.copy()
            after.apply(action)
            if after.is_over:
                losers = after.losers
                value = DRAW if not losers else LOSS if seat in losers else WIN
                out.append(Solution(value, True, None, 0, 0))
            else:
                out.append(self.solve(after, seat, max_nodes, stop))
        return out

    # ------------------------------------------------------------ search

    def _key(
        self, h0: int, h1: int, d: int, T: int, U: int, st: int, dstart: int, shown: int,
        tl: int,
    ) -> int:
        small = (((tl << 4) + d * 8 + st) * 64 + dstart) << 52 | shown
        return (((small << 52 | U) << 52 | T) << 52 | h1) << 52 | h0

    def _tick(self) -> None:
        if self._limit and self.nodes >= self._limit:
            raise _Abort()
        stop = self._stop
        if stop is not None and stop():
            raise _Abort()

    def _ab(
        self,
        h0: int,
        h1: int,
        d: int,
        T: int,
        U: int,
        k: int,
        st: int,
        dstart: int,
        shown: int,
        tl: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Minimax value for player 0 (the solver's seat), alpha-beta, fail-soft."""
        self.nodes += 1
        if self.nodes & 255 == 0:
            self._tick()
        key = self._key(h0, h1, d, T, U, st, dstart, shown, tl)
        tt = self._tt
        entry = tt.get(key)
        first = -1
        if entry is not None:
            first = (entry >> 12 & 0x3FFFF) - 1
            info = entry >> 30
            edepth = info >> 2
            if edepth >= depth:
                value = (entry & 0xFFF) - 2048
                flag = info & 3
                if (
                    flag == _T_EXACT
                    or (flag == _T_LOWER and value >= beta)
                    or (flag == _T_UPPER and value <= alpha)
                ):
                    if edepth < _EXACT_DEPTH:
                        self._horizon += 1
                    return value
        if depth <= 0:
            self._horizon += 1
            self._cuts += 1
            return DRAW  # unknown: scored as a draw, so it never proves a win or a loss
        line = self._line
        if self._cyclic:
            if key in line:
                self._horizon += 1
                return DRAW  # a repetition: endless play is a draw
            line.add(key)
        moves = self._moves(h0, h1, d, T, U, k, st, dstart, shown)
        if first >= 0:
            for i in range(len(moves)):
                if moves[i] == first:
                    moves[i] = moves[0]
                    moves[0] = first
                    break
        mover = d if U and not st & _TAKING else 1 - d
        horizon = self._horizon
        a0 = alpha
        b0 = beta
        best_move = moves[0]
        if mover == 0:
            best = -_BIG
            for m in moves:
                v = self._play(m, h0, h1, d, T, U, k, st, dstart, shown, tl, depth - 1, alpha, beta)
                if v > best:
                    best = v
                    best_move = m
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = _BIG
            for m in moves:
                v = self._play(m, h0, h1, d, T, U, k, st, dstart, shown, tl, depth - 1, alpha, beta)
                if v < best:
                    best = v
                    best_move = m
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if self._cyclic:
            line.discard(key)
        if best <= a0:
            flag = _T_UPPER
        elif best >= b0:
            flag = _T_LOWER
        else:
            flag = _T_EXACT
        # A win or a loss is only ever reached through real ends of the game; a draw
        # may stand for a horizon, unless none was met below this node.
        stored = _EXACT_DEPTH if best != DRAW or self._horizon == horizon else depth
        tt[key] = ((stored * 4 + flag) << 18 | (best_move + 1)) << 12 | (best + 2048)
        return best

    def _play(
        self,
        m: int,
        h0: int,
        h1: int,
        d: int,
        T: int,
        U: int,
        k: int,
        st: int,
        dstart: int,
        shown: int,
        tl: int,
        depth: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Apply move ``m``, settle the bout, and search on (or score the end)."""
        kind = m & 7
        if d == 0:
            hd = h0
            ho = h1
        else:
            hd = h1
            ho = h0
        if kind == _DEFEND:
            abit = 1 << (m >> 3 & 63)
            cbit = 1 << (m >> 9 & 63)
            hd ^= cbit
            T |= cbit
            U ^= abit
            st &= ~_PASSED
        elif kind == _TAKE:
            st = (st | _TAKING) & ~_PASSED
        elif kind == _PASS:
            st |= _PASSED
        elif kind != _LEADN and kind < _PASS:  # a lead or a throw-in of one card
            cbit = 1 << (m >> 3 & 63)
            ho ^= cbit
            T |= cbit
            U |= cbit
            k += 1
            st &= ~_PASSED
        elif kind == _LEADN:
            cards = RANK_MASK[m >> 3 & 15] & _SUITS[m >> 7 & 15]
            ho ^= cards
            T |= cards
            U |= cards
            k += popcount(cards)
            st &= ~_PASSED
        else:  # a transfer: the defender passes the bout on to the other seat
            cbit = 1 << (m >> 3 & 63)
            if kind == _TRANSFER:
                hd ^= cbit
                T |= cbit
                U |= cbit
                k += 1
            else:
                shown |= cbit
            st &= ~_PASSED
            d = 1 - d
            swap = hd
            hd = ho
            ho = swap
            dstart = popcount(hd)
        # Settle: does the bout go on?
        if not (U and not st & _TAKING):
            cap = 6 if st & _DISCARD else self._cap0
            limit = cap if cap < dstart else dstart
            if k >= limit or not ho or st & _PASSED:
                # The bout ends.
                if st & _TAKING:
                    hd |= T
                    while tl and popcount(ho) < 6:  # the attacker draws first
                        ho |= 1 << ((tl & 63) - 1)
                        tl >>= 6
                    while tl and popcount(hd) < 6:
                        hd |= 1 << ((tl & 63) - 1)
                        tl >>= 6
                    # An empty hand after the draw: the talon is empty too.
                    if not ho:  # the other seat went out: the defender is the durak
                        return LOSS if d == 0 else WIN
                    dstart = popcount(hd)
                else:
                    while tl and popcount(ho) < 6:
                        ho |= 1 << ((tl & 63) - 1)
                        tl >>= 6
                    while tl and popcount(hd) < 6:
                        hd |= 1 << ((tl & 63) - 1)
                        tl >>= 6
                    if not ho:
                        if not hd:
                            return DRAW
                        return LOSS if d == 0 else WIN
                    if not hd:
                        return WIN if d == 0 else LOSS
                    d = 1 - d
                    swap = hd
                    hd = ho
                    ho = swap
                    dstart = popcount(hd)
                st = _DISCARD if st & _DISCARD or not st & _TAKING else 0
                T = 0
                U = 0
                k = 0
                shown = 0
        if d == 0:
            return self._ab(hd, ho, d, T, U, k, st, dstart, shown, tl, depth, alpha, beta)
        return self._ab(ho, hd, d, T, U, k, st, dstart, shown, tl, depth, alpha, beta)

    def _moves(
        self,
        h0: int,
        h1: int,
        d: int,
        T: int,
        U: int,
        k: int,
        st: int,
        dstart: int,
        shown: int,
    ) -> list[int]:
        """The moves of the seat to act, cheapest first (a good order for alpha-beta)."""
        moves: list[int] = []
        trumps = self._trumps
        if d == 0:
            hd = h0
            ho = h1
        else:
            hd = h1
            ho = h0
        if U and not st & _TAKING:
            # The defender: beat the lowest unbeaten card (a fixed order, see the module
            # docstring), transfer, or take.
            low = U & -U
            a = low.bit_length() - 1
            beaters = hd & self._beaters[a]
            self._cheap_first(beaters & ~trumps, a << 3 | _DEFEND, 9, moves)
            self._cheap_first(beaters & trumps, a << 3 | _DEFEND, 9, moves)
            if self._perev and U == T and ho:
                rank = a % 13 + 2
                same = RANK_MASK[rank]
                if not T & ~same:
                    cap = 6 if st & _DISCARD else self._cap0
                    size = popcount(ho)
                    if self._showopt and size >= k:
                        tc = same & trumps
                        if hd & tc and not shown & tc:
                            moves.insert(0, (tc.bit_length() - 1) << 3 | _SHOW)
                    if k < cap and size > k:
                        self._cheap_first(hd & same & ~trumps, _TRANSFER, 3, moves)
                        self._cheap_first(hd & same & trumps, _TRANSFER, 3, moves)
            moves.append(_TAKE)
            return moves
        if not T:
            # The lead: single cards, cheapest first, then several of one rank.
            self._cheap_first(ho & ~trumps, _LEAD, 3, moves)
            self._cheap_first(ho & trumps, _LEAD, 3, moves)
            if self._several:
                cap = 6 if st & _DISCARD else self._cap0
                limit = cap if cap < dstart else dstart
                if limit > 1:
                    most = 4 if limit > 4 else limit
                    for rank in range(2, 15):
                        group = ho & RANK_MASK[rank]
                        if group & (group - 1):
                            low = group >> (rank - 2)
                            suits = (low & 1) | (low >> 12 & 2) | (low >> 24 & 4) | (low >> 36 & 8)
                            sub = suits
                            while sub:
                                n = popcount(sub)
                                if 2 <= n <= most:
                                    moves.append((sub << 4 | rank) << 3 | _LEADN)
                                sub = (sub - 1) & suits
            return moves
        # Throw in (cards of a rank on the table), or pass.
        ranks = 0
        m = T
        while m:
            low = m & -m
            ranks |= RANK_MASK[(low.bit_length() - 1) % 13 + 2]
            m ^= low
        fits = ho & ranks
        self._cheap_first(fits & ~trumps, _THROW, 3, moves)
        self._cheap_first(fits & trumps, _THROW, 3, moves)
        moves.append(_PASS)
        return moves

    def _cheap_first(self, mask: int, base: int, shift: int, moves: list[int]) -> None:
        """Append ``base | index << shift`` for the cards of ``mask``, low ranks first."""
        if not mask:
            return
        for rank in range(2, 15):
            m = mask & RANK_MASK[rank]
            while m:
                low = m & -m
                moves.append(base | (low.bit_length() - 1) << shift)
                m ^= low

    def _action(self, m: int, seat: int) -> Action:
        """The engine's action for move ``m`` of ``seat``."""
        kind = m & 7
        if kind == _LEADN:
            cards = [c for c in ALL_CARDS if RANK_MASK[m >> 3 & 15] & _SUITS[m >> 7 & 15] & c.bit]
            return Attack(seat, cards[0], tuple(cards[1:]))
        if kind == _PASS:
            return Pass(seat)
        if kind == _TAKE:
            return Take(seat)
        if kind == _DEFEND:
            return Defend(seat, ALL_CARDS[m >> 3 & 63], ALL_CARDS[m >> 9 & 63])
        card = ALL_CARDS[m >> 3 & 63]
        if kind == _TRANSFER:
            return Transfer(seat, card)
        if kind == _SHOW:
            return Transfer(seat, card, True)
        return Attack(seat, card)

