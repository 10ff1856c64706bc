"""durak_core: the rules of Durak as a pure, fast engine.

>>> from durak_core import Rules, Game, Card, Attack, Take
>>> game = Game.new(Rules(players=2), seed=1)
>>> len(game.hand(0)), game.talon_size
(6, 24)

The engine modules are compiled with mypyc when the install could (see
setup.py); ``durak_core.COMPILED`` says which build runs, and ``DURAK_PURE=1``
picks the pure-Python one.
"""

from . import _engine

_engine.choose()

from .actions import Action, Attack, Defend, Pass, Take, Transfer, parse_action
from .cards import Card, Suit, cards_of, display_key, mask_of, new_deck
from .events import (
    Attacked,
    Defended,
    Discarded,
    Drew,
    Event,
    GameOver,
    Left,
    NewBout,
    Passed,
    PickedUp,
    TakeDeclared,
    Transferred,
    event_from_dict,
    event_to_dict,
)
from .game import Game, IllegalAction
from .match import Match
from .rules import Rules

__all__ = [
    "Action", "Attack", "Attacked", "Card", "Defend", "Defended", "Discarded", "Drew",
    "Event", "Game", "GameOver", "IllegalAction", "Left", "Match", "NewBout", "Pass",
    "Passed", "PickedUp", "Rules", "Suit", "Take", "TakeDeclared", "Transfer",
    "Transferred", "cards_of", "display_key", "event_from_dict", "event_to_dict", "mask_of",
    "new_deck", "parse_action",
]
__version__ = "0.1.0"
#: True when the compiled (mypyc) engine runs, False for the pure-Python one.
COMPILED = _engine.compiled()
