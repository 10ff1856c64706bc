"""The AI's options as one checked value (:class:`IsmctsConfig`), given whole or by name."""

from __future__ import annotations

import dataclasses

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsConfig, IsmctsV1Bot, make_bot, play_game
from durak_core.bots.ismcts import V1_CONFIG


def _log(bot: IsmctsBot) -> list[str]:
    return [str(a) for a in play_game(Game.new(Rules(), seed=4), [bot, GreedyBot()]).log]


def test_a_config_and_the_same_options_by_name_play_the_same_game() -> None:
    config = IsmctsConfig(iterations=30, width=5, reply_greedy=0.25, halving=True)
    by_name = IsmctsBot(seed=2, iterations=30, width=5, reply_greedy=0.25, halving=1)
    assert by_name.config == config
    assert _log(IsmctsBot(seed=2, config=config)) == _log(by_name)


def test_options_by_name_override_a_given_config() -> None:
    bot = IsmctsBot(seed=1, config=IsmctsConfig(iterations=30, width=5), width=2)
    assert (bot.config.width, bot.iterations, bot.ms) == (2, 30, None)


def test_the_config_is_frozen_and_every_option_has_a_comment_line() -> None:
    config = IsmctsConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.width = 5  # type: ignore[misc]
    import inspect

    source = inspect.getsource(IsmctsConfig)
    for field in dataclasses.fields(IsmctsConfig):
        before = source.split(f"\n    {field.name}:")[0].rstrip().splitlines()[-1]
        assert before.strip().startswith("#:"), field.name


def test_flags_are_bools_and_the_budget_defaults_to_100_ms() -> None:
    config = IsmctsConfig(paired=0, cpu=1)
    assert config.paired is False and config.cpu is True
    assert IsmctsConfig().budget_ms == 100 and IsmctsConfig(iterations=5).budget_ms is None
    assert make_bot("ismcts").ms == 100  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"ms": 0}, "ms must be positive"),
        ({"iterations": 2.5}, "iterations must be a positive whole number"),
        ({"workers": 0}, "workers must be a whole number from 1"),
        ({"width": -1}, "width must be 0"),
        ({"halving": 2}, "halving must be 0 or 1"),
        ({"solver": 3}, "solver must be 0, 1 or 2"),
        ({"epsilon": 1.5}, "epsilon must lie in 0..1"),
        ({"reply_greedy": -0.1}, "reply_greedy is a probability"),
        ({"endgame_ms": 0}, "endgame_ms is a share of ms"),
        ({"widen": -1}, "widen must be 0 (off)"),
        ({"tail_nodes": 0}, "tail_nodes must be a positive number"),
    ],
)
def test_a_wrong_option_is_refused_in_one_sentence_naming_it(options, message) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        IsmctsConfig(**options)
    with pytest.raises(ValueError, match=next(iter(options))):
        IsmctsBot(seed=1, **options)


def test_a_spec_is_checked_against_the_config_fields() -> None:
    with pytest.raises(ValueError, match=r"has no option 'speed' \(its options: ms, iterations"):
        make_bot("ismcts?speed=3")
    with pytest.raises(ValueError, match="option halving of bot 'ismcts' wants 0 or 1, not 2"):
        make_bot("ismcts?halving=2")
    with pytest.raises(ValueError, match="option width of bot 'ismcts-v1' wants a whole number"):
        make_bot("ismcts-v1?width=2.5")
    bot = make_bot("ismcts?ms=100&width=3", seed=1)
    assert isinstance(bot, IsmctsBot) and (bot.ms, bot.config.width) == (100, 3)


def test_the_yardstick_keeps_its_own_defaults_under_options_by_name() -> None:
    bot = IsmctsV1Bot(seed=1, iterations=30)
    assert bot.config == V1_CONFIG.replace(iterations=30)
    assert (bot.ms, bot.config.width, bot.config.compiled) == (None, 5, False)


def test_a_subclass_may_add_options_of_its_own_beside_the_configs() -> None:
    from durak_core.bots import check_options

    class Tinted(IsmctsBot):
        def __init__(self, seed: int | None = None, tint: int = 0, **options: object) -> None:
            super().__init__(seed, **options)  # type: ignore[arg-type]
            self.tint = tint

    check_options(Tinted, {"tint": 2, "width": 4}, "tinted")
    with pytest.raises(ValueError, match="option tint of bot 'tinted' wants a whole number"):
        check_options(Tinted, {"tint": "x"}, "tinted")
    with pytest.raises(ValueError, match="has no option 'config'"):
        check_options(Tinted, {"config": "x"}, "tinted")
    with pytest.raises(ValueError, match="clock of bot 'ismcts' cannot be given in a spec"):
        make_bot("ismcts?clock=1")
