"""The settings durak-lan and lan() share are one :class:`~durak_net.options.LanOptions`,
checked once: a rule either front end had is now the other's too, each naming the
setting as it spells it."""

from __future__ import annotations

import pytest

from durak_core import Rules
from durak_net.cli import build_parser, check_args, options_from_args
from durak_net.options import NOTEBOOK, TERMINAL, LanOptions
from durak_widgets.lan import lan

CASES = [
    # (command line, lan() keywords, the terminal's words, the notebook's words)
    (["--clock", "30"], {"clock": 30},
     "--clock is for a table you host: --host SEATS",
     "clock is for a table you host: lan(table=Rules(players=N), ...)"),
    (["--team", "1"], {"team": 1},
     "--team is for joining a table of teams: --join NAME --team K",
     "team is for joining a table of teams: lan(join=NAME, team=K)"),
    (["--rules", "players=3"], {"rules": Rules(players=3)},
     "an invitation is for 2 players, not 3: host a table of 3 (--host SEATS)",
     "an invitation is for 2 players, not 3: host a table of 3 (lan(table=Rules(players=N)"),
    (["--port", "70000"], {"port": 70000},
     "--port must be a UDP port number from 0 to 65535, not 70000",
     "port must be a UDP port number from 0 to 65535, not 70000"),
    (["--game-port", "70000"], {}, "--game-port must be a UDP port number", None),
    (["--host", "3", "--auto-accept"], {"table": Rules(players=3), "auto_accept": True},
     "a host does not accept invitations (--auto-accept)",
     "a host does not accept invitations (auto_accept)"),
    (["--join", "Ann", "--invite", "Bob"], {"join": "Ann", "invite": "Bob"},
     "choose one of --host, --join and --invite", "choose one of table, join and invite"),
    (["--pin", "12"], {"pin": "12"}, "PIN", "PIN"),
]


@pytest.mark.parametrize(("argv", "keywords", "terminal", "notebook"), CASES)
def test_both_front_ends_refuse_the_same_settings_in_their_own_words(
        argv: list[str], keywords: dict, terminal: str, notebook: str | None) -> None:
    with pytest.raises(ValueError) as refused:
        check_args(build_parser().parse_args(["--name", "Dan", *argv]))
    assert terminal in str(refused.value)
    if notebook is not None:
        with pytest.raises(ValueError) as refused:
            lan("Dan", journal_dir=None, **keywords)
        assert notebook in str(refused.value)


def test_the_command_line_reads_as_the_options_lan_takes() -> None:
    args = build_parser().parse_args(
        ["--name", "Ann", "--host", "4", "--rules", "deck_size=52", "--add-bot", "greedy",
         "--clock", "20", "--bot", "random", "--connect", "10.0.0.5:40123"])
    options = options_from_args(args)
    assert options.table == Rules(players=4, deck_size=52)
    assert options.rules == Rules()  # what we would invite with: a game of two
    assert options.add_bots == ("greedy",) and options.clock == 20
    assert options.auto_start  # a headless host deals once every seat is taken
    assert options.connect == ("10.0.0.5:40123",)
    options.check(TERMINAL)
    LanOptions("Ann", table=Rules(players=4), add_bots=("greedy",), clock=20,
               auto_start=True).check(NOTEBOOK)
