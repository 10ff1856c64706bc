"""N dealers at one table, in memory: the deal, play with reveals and draws, the audit.

This is what a session does with its dealer, without the network: every message a
dealer sends reaches every other seat (in order), every seat keeps its own view of
the game, and the cards a seat plays are opened by its holder's key and checked by
all the others.  Tests use it to check the dealer for 2 to 6 seats and to play
cheaters against it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from durak_core import Attack, Card, Defend, Game, Rules, Transfer
from durak_core.events import Drew
from durak_net import mental
from durak_net.audit import Stop, Verdict, audit
from durak_net.dealer import DealContext, DealFault, MentalDealer, Reveal

#: A hook that may rewrite (or drop: None) a message on its way from ``sender``.
Tamper = Callable[[int, bytes], bytes | None]


def action_cards(action: object) -> list[Card]:
    """The cards an action takes out of (or shows from) its player's hand."""
    if isinstance(action, Attack):
        return [action.card, *action.more]
    if isinstance(action, Defend | Transfer):
        return [action.card]
    return []


@dataclass
class Table:
    rules: Rules
    seed: int
    previous_durak: int | None = None
    tamper: Tamper | None = None
    dealers: list[MentalDealer] = field(init=False)
    views: list[Game] = field(init=False)
    log: list[tuple[str, bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        n = self.rules.players
        self.dealers = [
            MentalDealer(DealContext(7, 1, s, n, self.rules.deck_size, rng.randbytes,
                                     self.previous_durak))
            for s in range(n)
        ]
        self.views = []

    def post(self, sender: int, messages: list[bytes]) -> None:
        """Deliver ``messages`` of ``sender`` to every other seat, and what they answer."""
        queue = [(sender, m) for m in messages]
        while queue:
            frm, data = queue.pop(0)
            if self.tamper is not None:
                data = self.tamper(frm, data)
                if data is None:
                    continue
            for s, dealer in enumerate(self.dealers):
                if s != frm:
                    queue += [(s, m) for m in dealer.receive(data, frm)]

    def deal(self) -> None:
        for s, dealer in enumerate(self.dealers):
            self.post(s, dealer.begin())
        assert all(d.done for d in self.dealers)
        self.views = [d.deal(self.rules) for d in self.dealers]

    def truth(self) -> Game:
        """The full game, from every seat's seed (what the audit rebuilds)."""
        deck = self.deck()
        return Game.new(self.rules, deck=deck, previous_durak=self.previous_durak)

    def deck(self) -> list[Card]:
        dealer = self.dealers[0]
        locked = dealer.locked
        assert locked is not None
        by_index = {c.index: c for c in dealer.cards}
        return [
            by_index[mental.open_card(p, [mental.card_key(d.seed, j) for d in self.dealers])]
            for j, p in enumerate(locked)
        ]

    def play(self, action: object, reveals: list[Reveal] | None = None) -> None:
        """Seat ``action.player`` plays ``action``: it opens its hidden cards, every other
        seat checks them, every view applies the action, draws are keyed."""
        actor = action.player  # type: ignore[attr-defined]
        view = self.views[actor]
        cards = action_cards(action)
        if reveals is None:
            reveals = [r for r in (self.dealers[actor].reveal(c) for c in cards) if r]
        else:
            for c in cards:  # a cheater's own reveals: mark its positions as opened
                self.dealers[actor].reveal(c)
        for s, dealer in enumerate(self.dealers):
            if s == actor:
                continue
            other = self.views[s]
            known = set(other.hand(actor))
            pending = list(reveals)
            for c in cards:
                if c in known:
                    continue
                dealer.check_reveal(actor, c, pending.pop(0))
        events = view.apply(action)  # type: ignore[arg-type]
        for s, other in enumerate(self.views):
            if s != actor:
                events = other.apply(action)  # type: ignore[arg-type]
        self.log.append((str(action), bytes.fromhex(self.views[0].public_hash())))
        for e in events:
            if isinstance(e, Drew):
                for s, dealer in enumerate(self.dealers):
                    self.post(s, dealer.drawn(e.player, len(e.cards)))
        for s, dealer in enumerate(self.dealers):
            fresh = dealer.new_cards()
            if fresh:
                self.views[s].reveal(s, fresh)

    def play_out(self, rng: random.Random, limit: int = 3000) -> None:
        """Random legal actions (from each seat's own view) to the end of the game."""
        for _ in range(limit):
            if self.views[0].is_over:
                return
            choices = [(s, a) for s, v in enumerate(self.views) for a in v.legal_actions(s)]
            _, action = rng.choice(choices)
            self.play(action)
        raise AssertionError("the game did not end")

    def publish_seeds(self, skip: tuple[int, ...] = ()) -> None:
        for s, dealer in enumerate(self.dealers):
            if s not in skip:
                self.post(s, dealer.publish_seed())

    def verdicts(self, names: list[str] | None = None, stop: Stop | None = None) -> list[Verdict]:
        return [audit(d, self.rules, self.log, names, stop) for d in self.dealers]


def expect_fault(fn: Callable[[], object]) -> DealFault:
    try:
        fn()
    except DealFault as fault:
        return fault
    raise AssertionError("no DealFault was raised")
