"""Which language the table speaks, and the gettext catalog that says it.

The words live in :mod:`durak_widgets.words`, in English, marked with ``_()``; the
translations are gettext catalogs, one ``.po`` file a language, managed with Babel
(``python scripts/catalogs.py``: extract ``messages.pot``, update and compile the
``.po`` files), so a third language is one new file.  The compiled ``.mo`` files ship in
the package (``durak_widgets/locale/<lang>/LC_MESSAGES/durak.mo``) and stdlib
:mod:`gettext` reads them: nothing beyond the standard library at run time, in a kernel
or in Pyodide.

The choice of language is every screen's, so it lives in :mod:`durak_lang.language`
(the terminal peer chooses the same way, and durak_net may not import this package): a
table runs its drawing and its click handling inside :func:`speaking` (a context
variable, so two tables in one notebook may speak two languages), and every ``_()`` in
that time reads the table's catalog.  Outside any table, the language comes from the
environment (:func:`default_language`; in the JupyterLite site the browser's language
first).  This module only adds the table's own catalog, the ``durak`` domain.

>>> with speaking("ru"):
...     gettext("Take")
'Беру'
>>> with speaking("en"):
...     gettext("Take")
'Take'
"""

from __future__ import annotations

import gettext as _gettext
from pathlib import Path

from durak_lang.language import (
    ENV,
    SOURCE_LANGUAGE,
    catalog,
    current,
    default_language,
    languages,
    normalize,
    speaking,
)

__all__ = ["DOMAIN", "ENV", "LOCALE_DIR", "SOURCE_LANGUAGE", "current", "default_language",
           "gettext", "languages", "ngettext", "normalize", "speaking", "translation"]

#: The gettext domain: ``locale/<lang>/LC_MESSAGES/durak.mo``.
DOMAIN = "durak"
#: Where the catalogs are, inside the package.
LOCALE_DIR = Path(__file__).with_name("locale")


def translation(lang: str) -> _gettext.NullTranslations:
    """The table's catalog of ``lang`` (a normalised code); English is the identity."""
    return catalog(DOMAIN, LOCALE_DIR, lang)


def gettext(text: str) -> str:
    """``text`` in the language in force."""
    return translation(current()).gettext(text)


def ngettext(one: str, many: str, count: int) -> str:
    """The form of a sentence about ``count`` things, in the language in force (Russian
    has three: 1 карта, 2 карты, 5 карт)."""
    return translation(current()).ngettext(one, many, count)
