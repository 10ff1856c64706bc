"""The player's language, shared by every screen: which language, and the rules
engine's reasons in it.

Two screens speak to a player: the notebook's table (:mod:`durak_widgets`) and the
terminal peer (``durak-lan``, :mod:`durak_net`).  Both choose a language the same way
(``play(lang=...)``, ``lan(lang=...)``, ``durak-lan --lang``; else ``DURAK_LANG``,
gettext's ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, and the browser's own
language in the JupyterLite site), and both must say the rules engine's reasons for an
illegal move (``Game.why_illegal``: English sentences with seat numbers) in it.  The
arrows forbid either to hold it for the other: durak_widgets sits above durak_net, which
must never import it, and durak_core stays pure (no environment, no files, no gettext:
its reasons are data, in English).  So this package sits beside the core as a leaf:

    durak_widgets -> durak_net -> durak_lang -> durak_core
    durak_widgets ----------------^

It imports the standard library and durak_core's cards, nothing else; importing it
reads nothing (a catalog is opened the first time a sentence asks for it), so a site
or a test may import it anywhere.

- :mod:`durak_lang.language`: the language chosen (a process's, a table's), the
  environment's default, and the gettext catalogs of each domain (one per package:
  ``durak`` for the table, ``durak_net`` for the terminal, ``durak_lang`` here).
- :mod:`durak_lang.reasons`: the engine's sentences as templates, read off a reason and
  said in the language in force, with names for seat numbers.

>>> with speaking("ru"):
...     say_reason("You do not hold Q♣.", ["Ann", "Bob"], 0)
'У вас нет карты Д♣.'
"""

from __future__ import annotations

from .language import (
    ENV,
    SOURCE_LANGUAGE,
    catalog,
    current,
    default_language,
    languages,
    normalize,
    speaking,
    use,
)
from .reasons import match, say_reason

__all__ = [
    "ENV",
    "SOURCE_LANGUAGE",
    "catalog",
    "current",
    "default_language",
    "languages",
    "match",
    "normalize",
    "say_reason",
    "speaking",
    "use",
]
