"""The command line's own words: ``durak-lan --help`` and its usage errors in the
terminal's language.

Our help strings and checks are marked in :mod:`durak_net.cli` (and
:mod:`durak_net.options`, :mod:`durak_net.online_terminal`) like every sentence of the
terminal; but argparse writes words of its own around them ("usage:", "options:", "the
following arguments are required", "invalid int value"), which it looks up with
:func:`gettext.gettext` and :func:`gettext.ngettext` bound in its module, in the
process's global gettext domain, where no catalog of ours is.  So the few it can say to
a person are marked here, in the ``durak_net`` catalog, and :func:`argparse_speaks`
points argparse's two lookups at that catalog while the parser is built and used, then
puts them back: nothing else in the process reads through them, and English is
argparse's own words untouched.

The rules engine and its bots refuse a ``--rules`` or ``--bot`` a person typed in
English (durak_core stays pure: no catalogs); :func:`say_error` reads those sentences
off :data:`CORE_WORDS` (templates that are at once the pattern and the msgid, as
:mod:`durak_lang.reasons` reads the engine's reasons) and says them in the terminal's
language; one it does not know stays English rather than lost.

The language must be known before the parser exists (its help strings are said when it
is built): :func:`language_asked` reads ``--lang`` off the command line first, the
environment deciding otherwise (:func:`durak_net.i18n.use`).

>>> import argparse
>>> with argparse_speaks("ru"):
...     parser = argparse.ArgumentParser(prog="durak-lan", add_help=False)
...     _ = parser.add_argument("--port", type=int)
...     print(parser.format_usage().strip())
использование: durak-lan [--port PORT]
>>> print(argparse.ArgumentParser(prog="durak-lan", add_help=False).format_usage().strip())
usage: durak-lan
>>> language_asked(["--name", "Ann", "--lang=ru"]), language_asked(["--la", "en"])
('ru', 'en')
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

from .i18n import N_, SOURCE_LANGUAGE, _, said, translation


def n_(one: str, many: str) -> tuple[str, str]:
    """Mark a plural pair for the catalog (argparse says it with ``ngettext``)."""
    return one, many


#: argparse's own words a person can meet at ``durak-lan`` (Python 3.10 to 3.13), kept
#: in the ``durak_net`` catalog.  (Its words for a programmer's mistakes in building a
#: parser are left English: a person never sees them.)
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unexpected option string: %s"),
)
ARGPARSE_PLURALS = (
    n_("expected %s argument", "expected %s arguments"),
)


@contextmanager
def argparse_speaks(lang: str) -> Iterator[None]:
    """Within the block argparse says its own words in ``lang`` (a normalised code) from
    the ``durak_net`` catalog; English leaves argparse as it is."""
    if lang == SOURCE_LANGUAGE:
        yield
        return
    words = translation(lang)
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = words.gettext  # type: ignore[attr-defined]
    argparse.ngettext = words.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def language_asked(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` (``--lang X``, ``--lang=X``, or a prefix argparse takes
    for it, such as ``--la``) on a command line, read before the parser is built; None
    when it is not given.  The last one counts, as argparse's does."""
    words = list(argv)
    value = None
    for index, word in enumerate(words):
        if word == "--":
            break
        option, eq, rest = word.partition("=")
        # "--l" could be --loss too: argparse refuses it as ambiguous, and so do we.
        if len(option) > 3 and "--lang".startswith(option):
            value = rest if eq else (words[index + 1] if index + 1 < len(words) else None)
    return value


#: What durak_core says of settings a person types (``Rules``' checks, the bots'
#: registry), as templates: the pattern a refusal is read with and its msgid.
CORE_WORDS = (
    N_("{option} must be True or False, not {value}"),
    N_("players must be 2 to 6, not {value}"),
    N_("deck_size must be 24, 36 or 52, not {value}"),
    N_("{players} players need {need} cards for the deal, but a {size}-card deck has "
       "{cards}"),
    N_("variant must be 'podkidnoy' or 'perevodnoy', not {value}"),
    N_("throw_in must be 'all' or 'neighbours', not {value}"),
    N_("first_bout_limit must be None or 1 to 6, not {value}"),
    N_("transfer_by_showing_trump needs variant='perevodnoy'"),
    N_("teams need 4 or 6 players, not {value}"),
    N_("bout_limit must be a positive number, not {value}"),
    N_("unknown rule option(s): {names} (the options are {known})"),
    N_("unknown bot {name}; built in: {known}"),
    N_("bot {bot} has no option {option} (its options: {known})"),
    N_("bad option {word} for bot {bot}: write key=value"),
)


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
                              for i, part in enumerate(parts)) + r"\Z", re.S)


def say_error(error: BaseException) -> str:
    """An error a person's command line met, in the terminal's language: ours
    (:func:`~durak_net.i18n.said`), the core's settings refusals by :data:`CORE_WORDS`.

    >>> from durak_net import i18n
    >>> i18n.use("ru"); say_error(ValueError("teams need 4 or 6 players, not 3"))
    'ru'
    'для команд нужно 4 или 6 игроков, а не 3'
    >>> i18n.use("en"); say_error(ValueError("teams need 4 or 6 players, not 3"))
    'en'
    'teams need 4 or 6 players, not 3'
    """
    text = said(error)
    for template in CORE_WORDS:
        found = _pattern(template).match(text)
        if found:
            return _(template).format(**found.groupdict())
    return text
