"""The tutorials' helpers (notebooks/01-04): the code a lesson uses but does not teach.

A tutorial cell should show the interface it is about in a few lines; the scaffolding
around it (dealing a scripted position, printing every seat's legal actions, playing
duplicate deals, checking an exercise) lives here, where it is tested and typed once.
Everything here runs in the browser site too (Pyodide): no processes, no sockets.

>>> game = deal(["6♥ 9♠ 10♥ J♣ Q♦ K♠", "7♠ 10♠ 9♦ 8♥ A♥ K♣"], trump="9♥")
>>> print(game.hand(0)[0], game.trump_card, game.attacker)
9♠ 9♥ 0
>>> legal_texts(game, 0)[:2]
['0 attack 9♠', '0 attack K♠']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from durak_core import Card, Drew, Game, Rules, Transfer, new_deck, parse_action
from durak_core.bots import Bot, GreedyBot, IsmctsBot, RandomBot, make_bot, play_game
from durak_core.bots.coach import hint
from durak_core.bots.ismcts import tree_size
from durak_core.events import Event

__all__ = [
    "check_prediction",
    "check_transfer_finder",
    "deal",
    "duel",
    "hint_spread",
    "legal_texts",
    "play_moves",
    "report",
    "show",
    "show_search",
    "strength",
    "wilson",
]


def wilson(successes: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (the arena's, :mod:`durak_arena.stats`)."""
    from durak_arena.stats import wilson as arena_wilson

    return arena_wilson(successes, trials)


# ------------------------------------------------------------------ 01: scripted deals


def deal(hands: Sequence[str], trump: str, talon: str = "", rules: Rules | None = None) -> Game:
    """A game whose seats hold ``hands`` (six cards each, as text), with ``trump`` under
    the talon and ``talon`` (if given) its first cards; the rest follow in a fixed order.

    ``Game.new(rules, deck=...)`` deals card *i* of the first 6·n to seat *i* % n, then
    turns up the next card as the trump card: this builds that order from what matters.
    """
    rules = rules or Rules()
    n = len(hands)
    held = [[Card.parse(t) for t in hand.split()] for hand in hands]
    top = [Card.parse(t) for t in talon.split()]
    trump_card = Card.parse(trump)
    named = [c for hand in held for c in hand] + [trump_card] + top
    rest = [c for c in new_deck(rules.deck_size) if c not in named]
    deck = [held[i % n][i // n] for i in range(6 * n)] + [trump_card] + top + rest
    return Game.new(rules, deck=deck)


def legal_texts(game: Game, seat: int) -> list[str]:
    """The legal actions of ``seat`` as text, in the engine's order."""
    return [str(a) for a in game.legal_actions(seat)]


def show(game: Game, *refused: str, draw: bool = True) -> None:
    """Print what every seat may do, why each action in ``refused`` is illegal, and
    (``draw``) draw the game as cards."""
    for seat in range(game.players):
        actions = [text.split(" ", 1)[1] for text in legal_texts(game, seat)]
        if actions:
            print(f"player {seat} may: " + ", ".join(actions))
    for text in refused:
        reason = game.why_illegal(parse_action(text))
        if reason is None:
            raise ValueError(f"{text} is legal")
        print(f"refused  {text}: {reason}")
    if draw:
        from IPython.display import display

        display(game)


def play_moves(game: Game, *moves: str) -> None:
    """Apply moves given as text, printing what happened (and which cards were drawn)."""
    for text in moves:
        print(text)
        for event in game.apply(parse_action(text)):
            drawn = ": " + " ".join(map(str, event.cards)) if isinstance(event, Drew) else ""
            print(f"    {event}{drawn}")


def check_prediction(game: Game, seat: int, predicted: Iterable[str]) -> bool:
    """Compare a predicted set of legal actions of ``seat`` with the engine's answer.

    Says how many are right, missing and wrong without naming them (the exercise's
    solution does); each prediction is read as an action, so any spelling the engine
    reads will do (``"1 defend 9s with 10s"``).  True when all are right.
    """
    legal = set(legal_texts(game, seat))
    mine = {str(parse_action(text)) for text in predicted}
    right, missing, wrong = mine & legal, legal - mine, mine - legal
    print(f"{len(right)} of {len(legal)} legal actions predicted; "
          f"{len(missing)} missing, {len(wrong)} that the engine refuses")
    for text in sorted(wrong):
        print(f"  refused  {text}: {game.why_illegal(parse_action(text))}")
    if not missing and not wrong:
        print("all right")
    return not missing and not wrong


# ------------------------------------------------------------------ 02: the engine


def check_transfer_finder(find: Callable[[], Game | None]) -> bool:
    """Run an exercise's ``find()`` and check that some seat of the game it returns may
    transfer; print the position and the transfers."""
    game = find()
    if game is None:
        print("not yet: find() returned None")
        return False
    transfers = [a for seat in range(game.players) for a in game.legal_actions(seat)
                 if isinstance(a, Transfer)]
    if not transfers:
        print("not yet: no seat of this game may transfer")
        print(game.to_text())
        return False
    print(game.to_text())
    print("transfers:", ", ".join(map(str, transfers)))
    return True


# ------------------------------------------------------------------ 03: write a bot


def duel(make_a: Callable[[], Bot], make_b: Callable[[], Bot], deals: int,
         rules: Rules | None = None) -> tuple[int, int, int]:
    """Play deals (seeds) 0..deals-1 twice each with the seats swapped (*duplicate
    deals*); return (a's wins, b's wins, draws)."""
    rules = rules or Rules()
    a_wins = b_wins = draws = 0
    for seed in range(deals):
        for a_seat in (0, 1):
            bots = [make_a(), make_b()] if a_seat == 0 else [make_b(), make_a()]
            game = play_game(Game.new(rules, seed=seed), bots)
            if game.durak is None:
                draws += 1
            elif game.durak == a_seat:
                b_wins += 1
            else:
                a_wins += 1
    return a_wins, b_wins, draws


def report(make_bot_: Callable[[], Bot], deals: int = 20,
           rivals: Sequence[str] = ("random", "greedy")) -> dict[str, tuple[int, int, int]]:
    """The bot's record against the built-in random and greedy bots on ``deals`` duplicate
    deals; printed, and returned by rival."""
    makers: dict[str, Callable[[], Bot]] = {"random": lambda: RandomBot(seed=7),
                                            "greedy": GreedyBot}
    out = {}
    for name in rivals:
        won, lost, drawn = out[name] = duel(make_bot_, makers[name], deals)
        print(f"against {name}: {won} won, {lost} lost, {drawn} drawn of {2 * deals}")
    return out


# ------------------------------------------------------------------ 04: the AI


def show_search(bot: IsmctsBot, game: Game, seat: int) -> None:
    """Run one search of ``bot`` from ``seat``'s observation of ``game`` and print its
    root: every compared action with its visits, mean reward and the replies tried."""
    bot.start(seat, game.rules)
    legal = game.legal_actions(seat)
    choice = bot.choose(game.observation(seat), legal)
    root = bot.last_root
    if root is None:
        print(f"no search: {choice}")
        return
    nodes, depth = tree_size(root)
    print(f"{len(legal)} legal actions, {len(root.children)} compared;"
          f" {bot.history[-1]} rollouts; tree of {nodes} nodes, {depth} actions deep")
    print(f"{'root action':<18}{'visits':>7}{'mean reward':>13}{'replies tried':>15}")
    ranked = sorted(root.children.items(),
                    key=lambda item: (item[1].visits, item[1].reward / item[1].visits),
                    reverse=True)
    for action, child in ranked:
        mark = "  <- chosen" if action == choice else ""
        print(f"{action!s:<18}{child.visits:>7}{child.reward / child.visits:>13.3f}"
              f"{len(child.children):>15}{mark}")


def hint_spread(observation: dict[str, Any], events: Sequence[Event], iterations: int,
                seeds: Sequence[int]) -> dict[str, list[float]]:
    """The hint's estimate of every move under several seeds: how much a budget's
    figures move with the luck of the sampled deals.  Printed as each move's range."""
    spread: dict[str, list[float]] = {}
    for seed in seeds:
        for estimate in hint(observation, events, iterations=iterations, seed=seed):
            spread.setdefault(str(estimate.action), []).append(estimate.safe)
    print(f"{iterations} rollouts, seeds {seeds[0]}-{seeds[-1]}: "
          "each move's chance of not being the durak")
    for action, values in sorted(spread.items(), key=lambda kv: -sum(kv[1])):
        low, high = min(values), max(values)
        figures = " ".join(f"{100 * v:.0f}" for v in values)
        print(f"  {action:<14} {100 * low:.0f}-{100 * high:.0f}%   ({figures})")
    return spread


def strength(spec: str, games: int = 24, rival: str = "greedy", seed: int = 1,
             rules: Rules | None = None) -> tuple[float, float, float]:
    """Play the built-in bot ``spec`` (``"ismcts?iterations=30"``) against ``rival`` on
    games/2 duplicate deals in this process; print and return its win rate among the
    decided games with the 95% interval."""
    rules = rules or Rules()
    rng = random.Random(seed)
    seeds = [rng.getrandbits(32) for _ in range(games // 2)]
    won = lost = 0
    for deal_seed in seeds:
        for a_seat in (0, 1):
            bots = [make_bot(spec, seed=deal_seed), make_bot(rival, seed=deal_seed)]
            if a_seat == 1:
                bots.reverse()
            game = play_game(Game.new(rules, seed=deal_seed), bots)
            if game.durak is not None:
                won, lost = (won, lost + 1) if game.durak == a_seat else (won + 1, lost)
    rate = won / (won + lost) if won + lost else 0.0
    low, high = wilson(won, won + lost)
    print(f"{spec} vs {rival}: {won} won, {lost} lost of {2 * len(seeds)};"
          f" {rate:.1%} of the decided games (95% interval {low:.1%}-{high:.1%})")
    return rate, low, high
