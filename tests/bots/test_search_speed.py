"""The cheaper iteration of issue 36 changes the speed of a search, never its numbers:
a round's shared tape draws what each generator would have drawn, the walk's lookups
by identity find what the dictionary would, and every legal action of a game is one
shared object per value (which those lookups rely on)."""

from __future__ import annotations

import random

import pytest

from durak_core import Game, Rules, parse_action
from durak_core.actions import Action, Pass
from durak_core.bots import IsmctsBot, RandomBot, next_to_act
from durak_core.bots.inference import Inference
from durak_core.playout import shortlist_after
from durak_core.tree import TAPE_MATCHES, Lazy, Node, Tape, _child

SEEDS = [0, 1, 7, 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1]
LENGTHS = [1, 2, 3, 5, 8, 9, 31, 33]


def test_the_tape_is_read_on_this_python() -> None:
    """Else every round seeds a generator per iteration again (correct, only slower)."""
    assert TAPE_MATCHES


@pytest.mark.parametrize("seed", SEEDS)
def test_generators_on_one_tape_draw_what_their_own_generators_draw(seed: int) -> None:
    tape = Tape(seed)
    pattern = random.Random(seed ^ 99)
    for _ in range(3):  # each generator of a round reads the tape from its start
        ours = Lazy(seed, tape=tape)
        theirs = random.Random(seed)
        for _ in range(200):
            if pattern.random() < 0.5:
                assert ours.random() == theirs.random()
            else:
                # lengths around powers of two, where choice() may draw again
                items: list[Action] = [Pass(i % 6) for i in range(pattern.choice(LENGTHS))]
                assert ours.choice(items) is theirs.choice(items)
        # a generator handed out goes on from where the tape's draws stopped
        assert ours.get().getrandbits(32) == theirs.getrandbits(32)


@pytest.mark.parametrize("seed", SEEDS)
def test_choice_from_a_tape_picks_the_item_random_choice_picks(seed: int) -> None:
    tape = Tape(seed)
    ours = Lazy(seed, tape=tape)
    theirs = random.Random(seed)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 1000] * 5:
        items: list[Action] = [Pass(i % 6) for i in range(n)]
        picked = ours.choice(items)
        expected = theirs.choice(items)
        assert picked is expected
    with pytest.raises(IndexError):
        ours.choice([])


def test_a_generator_without_a_tape_is_made_once_from_its_seed() -> None:
    lazy = Lazy(5)
    theirs = random.Random(5)
    assert [lazy.random() for _ in range(3)] == [theirs.random() for _ in range(3)]
    assert lazy.get() is lazy.get()


def every_legal_action(rules: Rules, games: int) -> list[Action]:
    """Each seat's legal actions at every step of random games (views included)."""
    out: list[Action] = []
    for deal in range(games):
        game = Game.new(rules, seed=deal)
        bot = RandomBot(seed=deal)
        while not game.is_over:
            seat = next_to_act(game)
            assert seat is not None
            out += game.legal_actions()
            for viewer in range(game.players):
                out += game.view(viewer).legal_actions(viewer)
            game.apply(bot.choose(game.observation(seat), game.legal_actions(seat)))
    return out


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=4, deck_size=52), Rules(variant="perevodnoy",
                                                    transfer_by_showing_trump=True)],
    ids=["podkidnoy", "52-cards-4", "perevodnoy"],
)
def test_every_legal_action_is_one_shared_object_per_value(rules: Rules) -> None:
    """Multi-card leads too, whatever limit or other cards of the rank made the list."""
    first: dict[Action, Action] = {}
    leads = 0
    for action in every_legal_action(rules, 12):
        seen = first.setdefault(action, action)
        assert seen is action, action
        leads += bool(getattr(action, "more", ()))
    assert leads > 20  # the multi-card leads were met, in several lists


def test_lookups_by_identity_find_what_the_dictionary_finds() -> None:
    game = Game.new(Rules(), seed=3)
    legal = game.legal_actions(game.attacker)
    root = Node()
    below = root.add(legal[0])
    for a in legal[:3]:
        below.add(a)
    # below the root: the engine's objects, found by identity, a miss is a miss
    assert [_child(below, a) for a in legal[:3]] == [below.children[a] for a in legal[:3]]
    assert _child(below, legal[3]) is None
    # at the root: an equal action that is not the same object is found all the same
    copy = parse_action(str(legal[0]))
    assert copy == legal[0] and copy is not legal[0]
    assert _child(root, copy) is below
    # and a child added to a root's dictionary by hand is found too
    root.children[legal[1]] = extra = Node()
    assert _child(root, legal[1]) is extra


def test_a_search_is_the_same_with_parsed_root_actions() -> None:
    """The caller's actions at the root (parsed in the arena) are not the engine's
    objects: the search and its choice are the same all the same."""
    game = Game.new(Rules(), seed=9)
    seat = game.attacker
    legal = game.legal_actions(seat)
    parsed = [parse_action(str(a)) for a in legal]
    roots = []
    for actions in (legal, parsed):
        bot = IsmctsBot(seed=4, iterations=300)
        bot.start(seat, game.rules)
        choice = bot.choose(game.observation(seat), actions)
        assert bot.last_root is not None
        roots.append((str(choice), [(str(a), n.visits, n.reward)
                                    for a, n in bot.last_root.children.items()]))
    assert roots[0] == roots[1]


def test_the_compiled_weighted_deal_is_the_inference_deal_of_before() -> None:
    """Game.deal_weighted gives exactly the deal Inference.deal made in Python: each
    seat's unknown cards by weighted sampling (hidden_hands), then the talon shuffled."""
    weights_rng = random.Random(5)
    checked = 0
    for rules in (Rules(), Rules(players=3), Rules(players=4, deck_size=52)):
        for deal in range(6):
            game = Game.new(rules, seed=deal)
            bot = RandomBot(seed=deal)
            while not game.is_over:
                seat = next_to_act(game)
                assert seat is not None
                view = game.view(seat)
                inference = Inference(game.players, seat, int(game.trump_suit))
                # weights as evidence leaves them: most 1, some lowered to the floor
                for row in inference._w:
                    for i in range(52):
                        row[i] = weights_rng.choice([1.0, 1.0, 0.35, 0.6, 0.02])
                before = random.Random(checked)
                hands, pool = inference.hidden_hands(view, before)
                before.shuffle(pool)
                expected = view.deal_unseen([c for hand in hands for c in hand] + pool)
                after = random.Random(checked)
                dealt = inference.deal(view, after)
                assert dealt.state_hash() == expected.state_hash()
                assert after.getstate() == before.getstate()
                checked += 1
                game.apply(bot.choose(game.observation(seat), game.legal_actions(seat)))
    assert checked > 300


def test_the_shortlist_by_identity_is_the_shortlist_by_equality() -> None:
    for action_list in sample_legal_lists():
        for width in (1, 2, 3, 4):
            for first in action_list:
                trump = 2
                assert shortlist_after(first, action_list, trump, width, True) == \
                    shortlist_after(first, action_list, trump, width)


def sample_legal_lists() -> list[list[Action]]:
    out = []
    for deal in range(4):
        game = Game.new(Rules(variant="perevodnoy"), seed=deal)
        bot = RandomBot(seed=deal)
        while not game.is_over:
            seat = next_to_act(game)
            assert seat is not None
            legal = game.legal_actions(seat)
            if len(legal) > 2:
                out.append(legal)
            game.apply(bot.choose(game.observation(seat), legal))
    return out
