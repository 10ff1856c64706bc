"""``ismcts-v1`` is the ISMCTS of before issue 12, kept as the yardstick of the AI."""

from __future__ import annotations

import json
from pathlib import Path

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsV1Bot, make_bot, play_game

GAMES = Path(__file__).parent / "data" / "ismcts_v1_games.json"


def test_ismcts_v1_replays_the_games_of_the_old_bot_move_for_move() -> None:
    recorded = json.loads(GAMES.read_text(encoding="utf-8"))["games"]
    assert len(recorded) == 4
    for case in recorded:
        rules = Rules.from_dict(case["rules"])
        spec = case["bot"].replace("ismcts", "ismcts-v1", 1)
        bot = make_bot(spec, seed=case["bot_seed"])
        assert isinstance(bot, IsmctsV1Bot)
        bots = [bot, *(GreedyBot() for _ in range(rules.players - 1))]
        game = play_game(Game.new(rules, seed=case["deal_seed"]), bots)
        assert [str(a) for a in game.log] == case["log"], case["name"]


def test_the_yardstick_has_its_own_name_and_none_of_the_new_parts() -> None:
    bot = make_bot("ismcts-v1?iterations=10", seed=1)
    assert bot.name == "ismcts-v1"
    assert isinstance(bot, IsmctsV1Bot)
    config = bot.config
    assert (config.solver, config.infer, config.compiled, config.model) == (0, False, False, False)
    assert make_bot("ismcts", seed=1).config.model  # type: ignore[attr-defined]
    assert make_bot("ismcts", seed=1).name == "ismcts"
