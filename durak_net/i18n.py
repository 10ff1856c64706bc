"""The terminal peer's language: its own small gettext domain, ``durak_net``.

``durak-lan`` prints sentences for a person (the lobby, the table, the verdicts); they
are marked with :func:`_` and :func:`n_` in :mod:`durak_net.cli` (and, for what the
session and the audit find, in :mod:`durak_net.notes`, whose sentences the notebook
says too) and translated by the catalogs in
``durak_net/locale/<lang>/LC_MESSAGES/durak_net.mo`` (managed with the notebook's by
``python scripts/catalogs.py``).  durak_net has its own domain because it
sits below durak_widgets (widgets -> net -> core): it never imports the notebook's
words.  What is for programs stays English whatever the language: the ``--json``
lines, the commands a person types (``invite``, ``attack 7s``), the protocol's reasons
(a reason from another program is shown quoted, as its own words).

The choice of language is every screen's, :mod:`durak_lang.language`: a terminal speaks
one language for its whole run, the process's (:func:`use`: ``--lang``, else the
environment, :func:`default_language`); inside a notebook table's
:func:`~durak_lang.language.speaking` these sentences follow the table.  The rules
engine's reasons are said by :func:`say_rule` (:mod:`durak_lang.reasons`), in the same
language.

What the session and the node refuse (a :class:`SessionError
<durak_net.session.SessionError>`, a :class:`Refusal`) is a :class:`Said`: a marked
sentence and its arguments, English in ``str()`` for logs and programs, said in the
reader's language where a screen shows it (:func:`said`).  The command line's own words
(``--help``, argparse's, a bad option) are :mod:`durak_net.usage`'s.

>>> use("ru"); _("you won")
'ru'
'вы выиграли'
>>> use("en"); _("you won")
'en'
'you won'
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Sequence
from pathlib import Path

from durak_lang import reasons
from durak_lang.language import (
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

from .notes import say_reason

__all__ = [
    "DOMAIN",
    "ENV",
    "LOCALE_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "Reason",
    "Refusal",
    "Said",
    "_",
    "current",
    "default_language",
    "languages",
    "n_",
    "normalize",
    "said",
    "said_and",
    "say_rule",
    "speaking",
    "translation",
    "use",
]

#: The gettext domain: ``locale/<lang>/LC_MESSAGES/durak_net.mo``.
DOMAIN = "durak_net"
#: Where the catalogs are, inside the package.
LOCALE_DIR = Path(__file__).with_name("locale")


def translation(lang: str) -> _gettext.NullTranslations:
    """The terminal's catalog of ``lang`` (a normalised code); English is the identity."""
    return catalog(DOMAIN, LOCALE_DIR, lang)


def _(text: str) -> str:
    """``text`` in the language in force (gettext's marker and lookup)."""
    return translation(current()).gettext(text)


def n_(one: str, many: str, count: int) -> str:
    """The form of a sentence about ``count`` things (``ngettext``)."""
    return translation(current()).ngettext(one, many, count)


def N_(text: str) -> str:
    """Mark ``text`` for the catalog; it is translated when read (``_(text)``)."""
    return text


def say_rule(text: str, names: Sequence[str], you: int | None = None) -> str:
    """A rules engine's reason as the terminal says it, in the language in force: names
    (``you`` for seat ``you``) for its seat numbers, cards as a player types them.

    >>> use("ru"); say_rule("You do not hold Q♣.", ["Ann", "Bob"])
    'ru'
    'У вас нет карты Q♣.'
    >>> use("en"); say_rule("Only the defender, player 1, can take.", ["Ann", "Bob"])
    'en'
    'Only the defender, Bob, can take.'
    """
    return reasons.say_reason(text, names, you, typed=True)


class Said(Exception):
    """An error a person reads: its sentence is a msgid of the ``durak_net`` catalog
    (marked ``N_`` where it is raised) and its arguments, said in the reader's language
    when shown (:func:`said`: the terminal's ``error:`` line, the notebook lobby's status
    line, each in its own language), while ``str()`` stays English for logs, programs
    and tests.  The arguments are program text (a name made safe where it is shown, a
    number): never a seat number (a seat is said by its player's name).

    >>> error = Said(N_("nobody called {name} is on the LAN"), name="Ann")
    >>> str(error)
    'nobody called Ann is on the LAN'
    >>> use("ru"); said(error)
    'ru'
    'в локальной сети нет никого с именем Ann'
    >>> use("en"); said(error)
    'en'
    'nobody called Ann is on the LAN'
    """

    def __init__(self, text: str, /, **args: object) -> None:
        super().__init__(text.format(**args) if args else text)
        #: The English sentence (a msgid) and its arguments.
        self.text = text
        self.words = args

    def say(self) -> str:
        """The sentence in the language in force (a :class:`Reason` among the arguments
        said in it too)."""
        text = _(self.text)
        if not self.words:
            return text
        return text.format(**{key: say_reason(value, _) if isinstance(value, Reason) else value
                              for key, value in self.words.items()})


class Reason(str):
    """A reason a :class:`Said` quotes as the network gave it (English, or another
    program's words): said by :func:`durak_net.notes.say_reason`, ours translated, any
    other quoted as its sender's."""


class Refusal(Said, ValueError):
    """A request the node refuses (a bad name, a seat that is taken...), said in the
    reader's language: still the ValueError its callers catch."""


def said(error: BaseException) -> str:
    """An error as a person reads it: a :class:`Said` in the language in force, any
    other as it is (another library's English, or a sentence already translated)."""
    return error.say() if isinstance(error, Said) else str(error)


def said_and(items: Sequence[str]) -> str:
    """A list as a sentence says it, in the language in force: "a, b and c".

    >>> said_and(["--host", "--join", "--invite"])
    '--host, --join and --invite'
    """
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])
