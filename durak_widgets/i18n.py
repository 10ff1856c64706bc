"""Which language the table speaks, and the gettext catalogs that say it.

The words live in :mod:`durak_widgets.words`, in English, marked with ``_()``; the
translations are gettext catalogs, one ``.po`` file a language, managed with Babel
(``python scripts/catalogs.py``: extract ``messages.pot``, update and compile the
``.po`` files), so a third language is one new file.  The compiled ``.mo`` files ship in
the package (``durak_widgets/locale/<lang>/LC_MESSAGES/durak.mo``) and stdlib
:mod:`gettext` reads them: nothing beyond the standard library at run time, in a kernel
or in Pyodide.

A table speaks one language and two tables in one notebook may speak two, so the
language is not a process-wide setting: each table runs its drawing and its click
handling inside :func:`speaking` (a context variable), and every ``_()`` in that time
reads the table's catalog.  Outside any table, the language comes from the
environment (:func:`default_language`).

>>> with speaking("ru"):
...     gettext("Take")
'Беру'
>>> with speaking("en"):
...     gettext("Take")
'Take'
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

#: The gettext domain: ``locale/<lang>/LC_MESSAGES/durak.mo``.
DOMAIN = "durak"
#: Where the catalogs are, inside the package.
LOCALE_DIR = Path(__file__).with_name("locale")
#: The language the words are written in (no catalog needed).
SOURCE_LANGUAGE = "en"
#: Read before the usual gettext variables: a language for durak alone.
ENV = "DURAK_LANG"

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("durak_lang", default=None)


def languages() -> tuple[str, ...]:
    """The languages the table speaks: English and each compiled catalog.

    >>> languages()
    ('en', 'ru')
    """
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


def normalize(lang: str | None) -> str:
    """``lang`` as one of :func:`languages`: ``"ru_RU.UTF-8"`` and ``"ru-RU"`` are
    ``"ru"``; a language without a catalog is English.  Raise on what is not a language
    tag at all, so a typo in ``play(lang=...)`` is not silently English.

    >>> normalize("ru_RU.UTF-8"), normalize("ru-RU"), normalize("de"), normalize("C")
    ('ru', 'ru', 'en', 'en')
    """
    if not lang:
        return SOURCE_LANGUAGE
    if not isinstance(lang, str):
        raise TypeError(f"lang must be a language code such as 'ru' or 'en', not {lang!r}")
    base = lang.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return SOURCE_LANGUAGE
    if not base.isalpha() or len(base) > 8:
        raise ValueError(f"lang must be a language code such as 'ru' or 'en', not {lang!r}")
    return base if base in languages() else SOURCE_LANGUAGE


def default_language() -> str:
    """The language the environment asks for: ``DURAK_LANG``, else gettext's own
    variables (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); in a browser (the
    JupyterLite site) the browser's language comes first.  English when none names a
    language with a catalog."""
    wanted: list[str] = []
    env = os.environ.get(ENV)
    if env:
        wanted.append(env)
    else:
        browser = _browser_language()
        if browser:
            wanted.append(browser)
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


def _browser_language() -> str | None:
    """``navigator.language`` in Pyodide (the kernel runs in a web worker, which has a
    ``navigator`` too); None elsewhere."""
    from .browser import IN_BROWSER

    if not IN_BROWSER:
        return None
    try:
        import js  # type: ignore[import-not-found]  # Pyodide's bridge to JavaScript

        return str(js.navigator.language)
    except Exception:  # no navigator in this worker: the environment decides
        return None


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalog of ``lang`` (a normalised code); English is the identity."""
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def current() -> str:
    """The language in force: the innermost :func:`speaking`, else the environment's."""
    lang = _current.get()
    return lang if lang is not None else default_language()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Within the block, ``_()`` reads ``lang``'s catalog (None: the environment's
    language).  Yields the normalised code."""
    code = normalize(lang) if lang is not None else default_language()
    token = _current.set(code)
    try:
        yield code
    finally:
        _current.reset(token)


def gettext(text: str) -> str:
    """``text`` in the language in force."""
    return translation(current()).gettext(text)


def ngettext(one: str, many: str, count: int) -> str:
    """The form of a sentence about ``count`` things, in the language in force (Russian
    has three: 1 карта, 2 карты, 5 карт)."""
    return translation(current()).ngettext(one, many, count)
