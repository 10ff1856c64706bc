"""Notebook UI for Durak: views render an observation, a controller turns clicks into actions.

In a notebook cell::

    from durak_widgets import play
    play()                                        # you against one bot
    play(opponents=["random", "random"], seed=4)  # three players
    play(hot_seat=2)                              # two people, one screen

    from durak_widgets import lan
    lan(name="Alice")                             # another notebook on the LAN

The pieces, for custom tables and network play (see docs/widgets.md):
:class:`TableBackend` (the protocol a game source implements), :class:`LocalBackend`
(a match on this machine with bots), :class:`Handoff` (the one hand-off point onto
the kernel's event loop), :class:`TableController` and :class:`TableView`.
"""

from .backend import LocalBackend, Score, TableBackend, waiting_on
from .controller import TableController, describe
from .handoff import Handoff
from .lan import lan
from .play import default_bot, play
from .view import TableModel, TableView

__all__ = [
    "Handoff",
    "LocalBackend",
    "Score",
    "TableBackend",
    "TableController",
    "TableModel",
    "TableView",
    "default_bot",
    "describe",
    "lan",
    "play",
    "waiting_on",
]
