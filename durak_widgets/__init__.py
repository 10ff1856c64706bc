"""Notebook UI for Durak: views render an observation, a controller turns clicks into actions.

In a notebook cell::

    from durak_widgets import play
    play()                                        # you against one bot
    play(opponents=["random", "random"], seed=4)  # three players
    play(hot_seat=2)                              # two people, one screen

    from durak_widgets import review
    review(table)                                 # the AI's review of the finished game

    from durak_widgets import lan
    lan(name="Alice")                             # another notebook on the LAN

    from durak_widgets import online
    online(name="Alice")                          # a person anywhere: an invitation code
    online(name="Bob", code="...")                # the friend pastes it

In a browser (the JupyterLite site, Pyodide) ``play()`` works as here, while ``lan()``
says that LAN play needs a local Python; the network package is not imported there.

The pieces, for custom tables and network play (see docs/widgets.md):
:class:`TableBackend` (the protocol a game source implements), :class:`LocalBackend`
(a match on this machine with bots), :class:`Handoff` (the one hand-off point onto
the kernel's event loop), :class:`TableController` and :class:`TableView`.  Every word
a player reads comes from :mod:`durak_widgets.words` (one function puts a move into
words, :func:`~durak_widgets.words.say_action`), in the table's language
(:mod:`durak_widgets.i18n`: gettext catalogs, English and Russian); the engine's
reasons for a refused move go through :mod:`durak_widgets.reasons`, and
:mod:`durak_widgets.keys` gives the table its keyboard and its screen-reader names.
"""

from .backend import LocalBackend, Score, TableBackend, waiting_on
from .browser import IN_BROWSER
from .controller import TableController, describe
from .handoff import Handoff
from .play import default_bot, play
from .review import Review, review
from .view import TableModel, TableView

if IN_BROWSER:
    from .browser import (
        lan,  # LAN play needs UDP sockets, which a web page has not
        online,  # the site's own kernel does not carry online play yet
    )
else:
    from .lan import lan
    from .online import online

__all__ = [
    "Handoff",
    "LocalBackend",
    "Review",
    "Score",
    "TableBackend",
    "TableController",
    "TableModel",
    "TableView",
    "default_bot",
    "describe",
    "lan",
    "online",
    "play",
    "review",
    "waiting_on",
]
