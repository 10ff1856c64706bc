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

In a browser (the JupyterLite site, Pyodide) ``play()`` and ``online()`` work as here
(the channel is the page's own WebRTC), while ``lan()`` says that LAN play needs a local
Python.

The pieces, for custom tables and network play (see docs/widgets.md):
:class:`TableBackend` (the protocol a game source implements), :class:`LocalBackend`
(a match on this machine with bots), :class:`Handoff` (the one hand-off point onto
the kernel's event loop), :class:`TableController` and :class:`TableView`.  Every word
a player reads comes from :mod:`durak_widgets.words` (one function puts a move into
words, :func:`~durak_widgets.words.say_action`), in the table's language
(:mod:`durak_widgets.i18n`: gettext catalogs, English and Russian); the engine's
reasons for a refused move go through :mod:`durak_lang.reasons` (the terminal says
them with it too), and
:mod:`durak_widgets.keys` gives the table its keyboard and its screen-reader names.
"""

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from .backend import LocalBackend, Score, TableBackend, waiting_on
from .browser import IN_BROWSER
from .controller import TableController, describe
from .handoff import Handoff
from .play import default_bot, play
from .review import Review, review
from .view import TableModel, TableView

if TYPE_CHECKING:
    from .lan import lan
    from .online import online
elif IN_BROWSER:
    from .browser import lan  # LAN play needs UDP sockets, which a web page has not

#: The names imported when first asked for, each its module's function of that name
#: (``online`` in a web page too: its channel is the page's own WebRTC).
_LAZY = ("lan", "online")


def __getattr__(name: str) -> Any:
    """``lan`` and ``online``, imported when first asked for: each imports the whole
    network package (durak_net: mental poker, sockets, the lobby; about 0.3 s of a
    notebook's start on this machine), which a table against bots never uses."""
    if name in _LAZY:
        importlib.import_module(f".{name}", __name__)  # _Package makes the name the function
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """This package, whose names ``lan`` and ``online`` stay the functions.

    ``durak_widgets.lan`` is also the lobby's module (and ``online`` the online
    table's); importing a submodule sets the package's attribute of that name to the
    module, which would make a later ``from durak_widgets import lan`` give the module
    instead of the function, depending on what imported what first.  So the module is
    replaced by its function.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
