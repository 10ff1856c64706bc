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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from .i18n import N_, SOURCE_LANGUAGE, translation


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
