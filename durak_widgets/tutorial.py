"""The tutorials' helpers (notebooks/01-04): the code a lesson uses but does not teach.

A tutorial cell should show the interface it is about in a few lines; the scaffolding
around it (dealing a scripted position, printing every seat's legal actions, playing
duplicate deals, checking an exercise) lives here, where it is tested and typed once.
Everything here runs in the browser site too (Pyodide), except :func:`tapped_game`,
which starts a bot program as a process.

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
from durak_core.bots import (
    REGISTRY,
    Bot,
    GreedyBot,
    IsmctsBot,
    RandomBot,
    make_bot,
    play_game,
)
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
    "plot_results",
    "plot_strength",
    "print_results",
    "print_tree",
    "report",
    "show",
    "show_search",
    "strength",
    "tapped_game",
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


def show(game: Game, *refused: str, draw: bool = False) -> None:
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


def report(make_bot_: Callable[[], Bot], deals: int = 20) -> None:
    """Print the bot's record against the built-in random and greedy bots on ``deals``
    duplicate deals."""
    makers: list[tuple[str, Callable[[], Bot]]] = [("random", lambda: RandomBot(seed=7)),
                                                   ("greedy", GreedyBot)]
    for name, rival in makers:
        won, lost, drawn = duel(make_bot_, rival, deals)
        print(f"against {name}: {won} won, {lost} lost, {drawn} drawn of {2 * deals}")


def print_results(results: Any) -> None:
    """A tournament's tables (:class:`durak_arena.tournament.Results`): each bot against
    the field, then each pair, with 95% intervals (no timings, so a notebook's output
    stays the same from run to run)."""
    print(f"{'bot':<21} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6}"
          "  win rate  95% interval  rating")
    for row in results.bot_rows():
        lo, hi = row["ci95"]
        print(f"{row['name']:<21} {row['games']:>5} {row['wins']:>5} {row['draws']:>5}"
              f" {row['losses']:>6}  {row['win_rate']:>8.1%}  {lo:>5.1%}-{hi:<6.1%}"
              f"  {row['rating']:>6.0f}")
    print()
    for pair in results.pair_rows():
        lo, hi = pair["ci95"]
        print(f"{pair['a']} vs {pair['b']}: {pair['a_wins']}-{pair['b_wins']},"
              f" {pair['draws']} drawn; {pair['a']} wins {pair['a_win_rate']:.1%}"
              f" (95% interval {lo:.1%}-{hi:.1%})")


def plot_results(results: Any) -> None:
    """The win rates of a tournament with their intervals: each bot against the field,
    and each pair head to head."""
    import matplotlib.pyplot as plt

    rows, pairs = results.bot_rows(), results.pair_rows()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6), width_ratios=(2, 3))
    panels = [
        (left, [r["name"] for r in rows], [r["win_rate"] for r in rows], [r["ci95"] for r in rows]),
        (right, [f"{p['a']}\nvs {p['b']}" for p in pairs], [p["a_win_rate"] for p in pairs],
         [p["ci95"] for p in pairs]),
    ]
    for ax, labels, rates, intervals in panels:
        below = [rate - lo for rate, (lo, _) in zip(rates, intervals, strict=True)]
        above = [hi - rate for rate, (_, hi) in zip(rates, intervals, strict=True)]
        ax.errorbar(range(len(rates)), rates, yerr=[below, above], fmt="o", capsize=5)
        ax.set_xticks(range(len(rates)), labels, fontsize=8)
        ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlim(-0.5, len(rates) - 0.5)
        ax.set_ylim(0, 1)
        ax.grid(axis="y", alpha=0.3)
    left.set_title("Each bot against the field")
    left.set_ylabel("share of decided games won")
    right.set_title("Head to head: the first-named bot's win rate")
    fig.tight_layout()
    plt.show()


def tapped_game(program_spec: str, rival_spec: str, seed: int = 11) -> tuple[list[str], Any]:
    """Referee one game between a bot program (a ``py:`` or ``cmd:`` spec, run as a
    process) and an in-process bot, with the arena's own referee, noting every line of
    the program's conversation: ``>`` what the arena sent, ``<`` what the program
    answered, the bulky ``observation`` and ``rules`` (and all but two events) as
    ``"..."``.  Returns the lines and the game's record."""
    import json

    from durak_arena.referee import BotSpec, InProcessSeat, ProcessSeat, referee_game

    program = ProcessSeat(BotSpec.parse(program_spec))
    wire: list[str] = []

    def note(direction: str, message: dict[str, Any]) -> None:
        brief = {k: "..." if k in ("observation", "rules") else v for k, v in message.items()}
        if len(message.get("events", [])) > 2:
            brief["events"] = [*message["events"][:2], "..."]
        wire.append(f"{direction} {json.dumps(brief, ensure_ascii=False)}")

    send, request = program.process.send, program.process.request

    def tapped_send(message: dict[str, Any]) -> None:
        note(">", message)
        send(message)

    def tapped_request(message: dict[str, Any], timeout: float) -> dict[str, Any]:
        reply = request(message, timeout)  # writes through tapped_send
        note("<", reply)
        return reply

    program.process.send = tapped_send  # type: ignore[method-assign]
    program.process.request = tapped_request  # type: ignore[method-assign]
    seats = [program, InProcessSeat(BotSpec.parse(rival_spec))]
    try:
        record = referee_game(Rules(), 0, seed, seats, [0, 0], 10.0, "demo")
    finally:
        program.close()  # says bye; the program exits
    return wire, record


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


def print_tree(node: Any, levels: int = 2, indent: str = "") -> None:
    """Print a search tree (:attr:`IsmctsBot.last_root`) ``levels`` deep: each action with
    its visits and mean reward, the most visited first."""
    if levels <= 0:
        return
    children = sorted(node.children.items(), key=lambda item: -item[1].visits)
    for action, child in children:
        mean = child.reward / child.visits if child.visits else 0.0
        print(f"{indent}{action!s:<22}{child.visits:>4} visits, mean {mean:.2f}")
        print_tree(child, levels - 1, indent + "    ")


def hint_spread(observation: dict[str, Any], events: Sequence[Event], iterations: int,
                seeds: Sequence[int]) -> dict[str, list[float]]:
    """The hint's estimate of every move under several seeds: how much a budget's
    figures move with the luck of the sampled deals.  Printed as each move's range and
    mean (the seeds' figures beside them), best mean first."""
    spread: dict[str, list[float]] = {}
    for seed in seeds:
        for estimate in hint(observation, events, iterations=iterations, seed=seed):
            spread.setdefault(str(estimate.action), []).append(estimate.safe)
    print(f"{iterations} rollouts, seeds {seeds[0]}-{seeds[-1]}: "
          "each move's chance of not being the durak")
    for action, values in sorted(spread.items(), key=lambda kv: -sum(kv[1])):
        low, high, mean = min(values), max(values), sum(values) / len(values)
        figures = " ".join(f"{100 * v:.0f}" for v in values)
        print(f"  {action:<14} {100 * low:.0f}-{100 * high:.0f}%, mean {100 * mean:.1f}%"
              f"   ({figures})")
    return spread


#: The durak of each game :func:`strength` played between bots with no time budget, by
#: all that decides it: the two specs and the factories the registry held for them, the
#: rules, the deal and the seat of ``spec``.  Such a game is the same every time, and
#: tutorial 04 asks for the same games again and again: its exercise replays the
#: 30-rollout figure of the cell before, and its solution plays 24, then 48, then 96
#: games, the first deals of each the deals of the one before (the seeds come from one
#: generator).  A kernel plays each of them once; what is printed does not change.
_PLAYED: dict[tuple[Any, ...], int | None] = {}


def _factory(spec: str) -> Any:
    """The registry's factory for ``spec`` (re-registering a name is a new key)."""
    return REGISTRY.get(spec.partition("?")[0])


def strength(spec: str, games: int = 24, rival: str = "greedy", seed: int = 1,
             rules: Rules | None = None) -> tuple[float, float, float]:
    """Play the built-in bot ``spec`` (``"ismcts?iterations=30"``) against ``rival`` on
    games/2 duplicate deals in this process; print and return its win rate among the
    decided games with the 95% interval.  (A game of bots without a time budget is
    played once per process and remembered: see ``_PLAYED``.)"""
    rules = rules or Rules()
    rng = random.Random(seed)
    seeds = [rng.getrandbits(32) for _ in range(games // 2)]
    won = lost = 0
    for deal_seed in seeds:
        for a_seat in (0, 1):
            key = (spec, _factory(spec), rival, _factory(rival), rules, deal_seed, a_seat)
            if key in _PLAYED:
                durak = _PLAYED[key]
            else:
                bots = [make_bot(spec, seed=deal_seed), make_bot(rival, seed=deal_seed)]
                if a_seat == 1:
                    bots.reverse()
                durak = play_game(Game.new(rules, seed=deal_seed), bots).durak
                # A time budget (``ms``) makes the moves depend on the machine's speed.
                if all(getattr(bot, "ms", None) is None for bot in bots):
                    _PLAYED[key] = durak
            if durak is not None:
                won, lost = (won, lost + 1) if durak == a_seat else (won + 1, lost)
    rate = won / (won + lost) if won + lost else 0.0
    low, high = wilson(won, won + lost)
    print(f"{spec} vs {rival}: {won} won, {lost} lost of {2 * len(seeds)};"
          f" {rate:.1%} of the decided games (95% interval {low:.1%}-{high:.1%})")
    return rate, low, high


def plot_strength(figures: dict[int, tuple[float, float, float]], games: int = 24) -> None:
    """Win rate against budget, with the 95% intervals: ``figures`` maps rollouts per
    decision to :func:`strength`'s (rate, low, high)."""
    import matplotlib.pyplot as plt

    budgets = sorted(figures)
    rates = [figures[n][0] for n in budgets]
    below = [figures[n][0] - figures[n][1] for n in budgets]
    above = [figures[n][2] - figures[n][0] for n in budgets]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.errorbar(budgets, rates, yerr=[below, above], fmt="o-", capsize=5)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xticks(budgets, [str(n) for n in budgets])
    ax.set_ylim(0, 1)
    ax.set_xlabel("rollouts per decision")
    ax.set_ylabel("share of decided games won")
    ax.set_title(f"ISMCTS against greedy: {games} games per budget, 95% intervals")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    plt.show()
