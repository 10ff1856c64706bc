"""Which language a player reads, and the gettext catalogs that say it.

One choice for every screen.  A terminal speaks one language for its whole run: the
process's choice (:func:`use`, from ``durak-lan --lang``).  A notebook may hold two
tables speaking two languages, so a table runs its drawing and its clicks inside
:func:`speaking` (a context variable), and every sentence said in that time reads the
table's catalogs.  :func:`current` is the innermost :func:`speaking`, else the
process's :func:`use`, else the environment's :func:`default_language`.

The words are gettext catalogs, one ``.po`` file a language and a package, managed
with Babel (``python scripts/catalogs.py``) and shipped compiled (``.mo``); stdlib
:mod:`gettext` reads them, so nothing beyond the standard library runs at play time, in
a kernel or in Pyodide.  The languages there are: English (the source) and each with a
compiled catalog of this package (``scripts/catalogs.py init`` makes one for every
package at once).

>>> with speaking("ru"):
...     current(), catalog("durak_lang", LOCALE_DIR, current()).gettext("you")
('ru', 'вы')
>>> normalize("ru_RU.UTF-8"), normalize("ru-RU"), normalize("de"), normalize("C")
('ru', 'ru', 'en', 'en')
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

#: This package's own gettext domain (the engine's reasons): ``locale/<lang>/LC_MESSAGES``.
DOMAIN = "durak_lang"
#: Where this package's catalogs are; the languages there are the languages spoken.
LOCALE_DIR = Path(__file__).with_name("locale")
#: The language the words are written in (no catalog needed).
SOURCE_LANGUAGE = "en"
#: Read before the usual gettext variables: a language for durak alone.
ENV = "DURAK_LANG"
#: True inside Pyodide (the JupyterLite site's kernel), whose platform is Emscripten.
IN_BROWSER = sys.platform == "emscripten"
#: gettext's own variables, in the order gettext reads them.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "durak_lang", default=None)
#: The process's choice (:func:`use`); None until a program chooses.
_chosen: str | None = None


@cache
def languages() -> tuple[str, ...]:
    """The languages spoken: English and each with a compiled catalog (looked up once:
    the catalogs ship with the package and do not change while it runs).

    >>> languages()
    ('en', 'ru')
    """
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


def normalize(lang: str | None) -> str:
    """``lang`` as one of :func:`languages`: ``"ru_RU.UTF-8"`` and ``"ru-RU"`` are
    ``"ru"``; a language without a catalog is English.  Raise on what is not a language
    tag at all, so a typo in ``play(lang=...)`` or ``--lang`` is not silently English."""
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
    """The language the environment asks for: ``DURAK_LANG``, else (in a browser, the
    JupyterLite site) the browser's language, then gettext's own variables
    (``LANGUAGE``, a list such as ``"de:ru"``, then ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``): the first that names a language with a catalog, else English."""
    wanted: list[str] = []
    env = os.environ.get(ENV)
    if env:
        wanted.append(env)
    else:
        browser = browser_language()
        if browser:
            wanted.append(browser)
        for var in LOCALE_VARIABLES:
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


def browser_language() -> str | None:
    """``navigator.language`` in Pyodide, whose platform is Emscripten (the kernel runs
    in a web worker, which has a ``navigator`` too); None elsewhere."""
    if not IN_BROWSER:
        return None
    try:
        import js  # type: ignore[import-not-found]  # Pyodide's bridge to JavaScript

        return str(js.navigator.language)
    except Exception:  # no navigator in this worker: the environment decides
        return None


def current() -> str:
    """The language in force: the innermost :func:`speaking`, else the process's
    :func:`use`, else the environment's."""
    lang = _speaking.get()
    if lang is not None:
        return lang
    return _chosen if _chosen is not None else default_language()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Within the block, every screen's sentences read ``lang``'s catalogs (None: the
    environment's language).  Yields the normalised code."""
    code = normalize(lang) if lang is not None else default_language()
    token = _speaking.set(code)
    try:
        yield code
    finally:
        _speaking.reset(token)


def use(lang: str | None) -> str:
    """The process speaks ``lang`` from now on (None: the environment's), where no
    :func:`speaking` says otherwise; returns the code."""
    global _chosen
    _chosen = normalize(lang) if lang is not None else default_language()
    return _chosen


@cache
def catalog(domain: str, locale_dir: Path, lang: str) -> _gettext.NullTranslations:
    """The catalog of ``domain`` (in ``locale_dir``) for ``lang``, a normalised code;
    English, and a language this domain has no catalog for, is the identity."""
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(domain, locale_dir, languages=[lang], fallback=True)
