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

A terminal speaks one language for its whole run, so the language is one setting of
the process (:func:`use`), English until ``durak-lan`` chooses (``--lang``, else the
environment: :func:`default_language`).

>>> use("ru"); _("you won")
'ru'
'вы выиграли'
>>> use("en"); _("you won")
'en'
'you won'
"""

from __future__ import annotations

import gettext as _gettext
import os
from functools import cache
from pathlib import Path

#: The gettext domain: ``locale/<lang>/LC_MESSAGES/durak_net.mo``.
DOMAIN = "durak_net"
#: Where the catalogs are, inside the package.
LOCALE_DIR = Path(__file__).with_name("locale")
#: The language the sentences are written in (no catalog needed).
SOURCE_LANGUAGE = "en"
#: Read before the usual gettext variables: a language for durak alone.
ENV = "DURAK_LANG"

_current = SOURCE_LANGUAGE


def languages() -> tuple[str, ...]:
    """English and each language with a compiled catalog."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


def normalize(lang: str | None) -> str:
    """``lang`` as one of :func:`languages` (``"ru_RU.UTF-8"`` is ``"ru"``; a language
    without a catalog is English); ValueError for what is no language tag at all.

    >>> normalize("ru_RU.UTF-8"), normalize("de"), normalize("C")
    ('ru', 'en', 'en')
    """
    if not lang:
        return SOURCE_LANGUAGE
    base = lang.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return SOURCE_LANGUAGE
    if not base.isalpha() or len(base) > 8:
        raise ValueError(f"not a language code such as 'ru' or 'en': {lang!r}")
    return base if base in languages() else SOURCE_LANGUAGE


def default_language() -> str:
    """The language the environment asks for: ``DURAK_LANG``, else gettext's own
    variables (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English when none
    names a language with a catalog."""
    wanted: list[str] = []
    env = os.environ.get(ENV)
    if env:
        wanted.append(env)
    else:
        for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
            value = os.environ.get(var)
            if value:
                wanted.extend(value.split(":"))  # LANGUAGE is a list: "ru:en"
                break
    for lang in wanted:
        try:
            chosen = normalize(lang)
        except ValueError:
            continue
        if chosen != SOURCE_LANGUAGE or lang.lower().startswith("en"):
            return chosen
    return SOURCE_LANGUAGE


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalog of ``lang`` (a normalised code); English is the identity."""
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def use(lang: str | None) -> str:
    """Speak ``lang`` from now on (None: the environment's); returns the code."""
    global _current
    _current = normalize(lang) if lang is not None else default_language()
    return _current


def current() -> str:
    """The language in force."""
    return _current


def _(text: str) -> str:
    """``text`` in the language in force (gettext's marker and lookup)."""
    return translation(_current).gettext(text)


def n_(one: str, many: str, count: int) -> str:
    """The form of a sentence about ``count`` things (``ngettext``)."""
    return translation(_current).ngettext(one, many, count)


def N_(text: str) -> str:
    """Mark ``text`` for the catalog; it is translated when read (``_(text)``)."""
    return text
