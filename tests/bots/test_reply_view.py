"""reply_view: the opponent's first searched reply is scored on a deal from its own view,
so it does not answer the searcher's true hand (issue 36, "Replies that do not see the
AI's hand")."""

from __future__ import annotations

import random

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsConfig, next_to_act, play_game
from durak_core.tree import Lazy, Node, Walk, opponent_deal


def _midgame(seed: int = 5) -> Game:
    """A full game some moves in (cards picked up in the open, some discarded)."""
    game = Game.new(Rules(), seed=seed)
    greedy = GreedyBot()
    for _ in range(14):
        seat = next_to_act(game)
        if seat is None or game.is_over:
            break
        game.apply(greedy.choose(game.observation(seat), game.legal_actions(seat)))
    return game


def test_an_opponent_deal_keeps_what_the_opponent_knows_and_moves_the_rest() -> None:
    game = _midgame()
    seat = next_to_act(game)
    assert seat is not None
    other = 1 - seat
    moved = 0
    for k in range(20):
        dealt = opponent_deal(game, seat, random.Random(k))
        assert dealt.hand(seat) == game.hand(seat)
        assert dealt.table == game.table and dealt.discarded == game.discarded
        assert dealt.hand_size(other) == game.hand_size(other)
        assert dealt.talon_size == game.talon_size and dealt.trump_card is game.trump_card
        assert set(game.known_cards(other)) <= set(dealt.hand(other))  # seen in the open
        hidden = set(dealt.hand(other)) | set(dealt._talon[dealt._tpos:])
        assert hidden == set(game.hand(other)) | set(game._talon[game._tpos:])
        moved += dealt.hand(other) != game.hand(other)
    assert moved >= 15


def _grow(reply_view: float) -> tuple[Node, int]:
    """Paired rounds on one position with a rollout that tells the real deal from an
    opponent's deal: the opponent scores 1 on the real deal, 0 on one of its own."""
    game = Game.new(Rules(), seed=9)
    seat = game.attacker
    view = game.view(seat)
    legal = game.legal_actions(seat)[:3]
    bot = IsmctsBot(seed=1, iterations=1, compiled=0)
    real: list[Game] = []

    def rollout(played: Game, rng: Lazy) -> list[float]:
        rewards = [1.0, 1.0]
        rewards[1 - seat] = 1.0 if played is real[0] else 0.0
        return rewards

    walk = Walk(seat, compiled=False, model=True, replies=2, reply_width=0, reply_greedy=0,
                greedy_first=True, paired=True, depth=0, c=0.7, greedy=bot._python_greedy,
                next_to_act=next_to_act, rollout=rollout, reply_view=reply_view)
    root = Node()
    rng = random.Random(3)
    for _ in range(60):
        dealt = view.determinize(rng)
        for action in legal:
            real[:] = [dealt.copy()]
            walk.iterate(root, real[0], list(legal), action, Lazy(1))
    return root, seat


def _opponent_nodes(node: Node, seat: int, first: bool = True):
    """(is it the opponent's first reply on its line, node) for every opponent node."""
    for action, child in node.children.items():
        if action.player != seat:
            yield first, child
            yield from _opponent_nodes(child, seat, False)
        else:
            yield from _opponent_nodes(child, seat, first)


def test_reply_view_scores_the_first_reply_on_the_opponents_own_deal() -> None:
    plain, seat = _grow(0.0)
    nodes = list(_opponent_nodes(plain, seat))
    assert nodes and all(n.reward == n.visits for _, n in nodes)  # all on the real deal
    viewed, seat = _grow(1.0)
    nodes = list(_opponent_nodes(viewed, seat))
    firsts = [n for first, n in nodes if first]
    later = [n for first, n in nodes if not first]
    assert firsts and all(n.reward == 0 for n in firsts)  # judged on its own deals
    assert later and all(n.reward == n.visits for n in later)  # deeper: the real deal
    # The searcher's own decisions are scored on the real deal either way.
    assert all(c.reward == c.visits for c in viewed.children.values())


def test_reply_view_is_off_by_default_checked_and_reproducible() -> None:
    assert IsmctsConfig().reply_view == 0
    with pytest.raises(ValueError, match="reply_view"):
        IsmctsConfig(reply_view=1.5)

    def game() -> Game:
        bots = [IsmctsBot(seed=2, iterations=60, reply_view=0.5), GreedyBot()]
        return play_game(Game.new(Rules(), seed=4), bots)

    assert game().log == game().log
