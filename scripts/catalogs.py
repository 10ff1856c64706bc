"""The table's translations: extract, update, compile and check the gettext catalogs.

    python scripts/catalogs.py            # all three steps: extract, update, compile
    python scripts/catalogs.py check      # exit 1 if a catalog is stale or incomplete
    python scripts/catalogs.py init de    # start a new language's .po

Three gettext domains: ``durak``, the notebook's words, marked in durak_widgets
(``_()``, ``n_()``, ``N_()``, see durak_widgets/words.py); ``durak_net``, the
terminal peer's sentences (durak_net/cli.py, usage.py (argparse's own words too),
options.py, teams.py, online_code.py, online_terminal.py, rtc.py and relay.py; notes.py,
the findings both screens say; and the refusals of session.py, peer.py, lobby.py, node.py,
crypto.py, journal.py and restore.py, said where they are shown; see durak_net/i18n.py:
durak_net sits below durak_widgets and has its own catalogs);
and ``durak_lang``, the rules engine's reasons both screens say (durak_lang/reasons.py,
the leaf both packages import).
For each, Babel reads them (the keywords below, no source locations so the template
changes only when the words do) into
``<package>/locale/messages.pot``, merges that into each
``locale/<lang>/LC_MESSAGES/<domain>.po`` (a translator's file, kept in git) and compiles
each ``.po`` to the ``.mo`` the package ships and stdlib gettext reads at run time.
Babel is a development tool (the ``dev`` extra); the table needs only the ``.mo``.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "durak_widgets"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "messages.pot"
DOMAIN = "durak"
#: The markers of durak_widgets/words.py, as Babel's keyword specs.
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}
#: The files that hold words (the LAN modules mark theirs where they are said).
METHOD_MAP = [("words.py", "python"), ("play.py", "python"),
              ("lan.py", "python"), ("lan_table.py", "python"), ("lan_seating.py", "python"),
              ("online.py", "python")]
#: The terminal peer's domain: its package, its files with sentences.
NET_DOMAIN = "durak_net"
NET_PACKAGE = ROOT / "durak_net"
NET_METHOD_MAP = [("cli.py", "python"), ("teams.py", "python"), ("notes.py", "python"),
                  ("online_code.py", "python"), ("online_terminal.py", "python"),
                  ("rtc.py", "python"), ("relay.py", "python"), ("usage.py", "python"),
                  ("options.py", "python"), ("i18n.py", "python"), ("session.py", "python"),
                  ("peer.py", "python"), ("lobby.py", "python"), ("crypto.py", "python"),
                  ("node.py", "python"), ("journal.py", "python"),
                  ("restore.py", "python")]
#: The shared leaf's domain: the engine's reasons, with the card letters they use.
LANG_DOMAIN = "durak_lang"
LANG_PACKAGE = ROOT / "durak_lang"
LANG_METHOD_MAP = [("reasons.py", "python")]


def domains() -> list[tuple[str, Path, list[tuple[str, str]]]]:
    """Each domain: its name, its package (``locale/`` inside) and its files' map."""
    return [(DOMAIN, PACKAGE, METHOD_MAP), (NET_DOMAIN, NET_PACKAGE, NET_METHOD_MAP),
            (LANG_DOMAIN, LANG_PACKAGE, LANG_METHOD_MAP)]


def _where(domain: str) -> tuple[Path, Path, list[tuple[str, str]]]:
    """A domain's package, locale folder and files' map (``LOCALE`` may be patched)."""
    if domain == DOMAIN:
        return PACKAGE, LOCALE, METHOD_MAP
    if domain == LANG_DOMAIN:
        return LANG_PACKAGE, LANG_PACKAGE / "locale", LANG_METHOD_MAP
    return NET_PACKAGE, NET_PACKAGE / "locale", NET_METHOD_MAP


def extract(domain: str = DOMAIN) -> Catalog:
    """The catalog of every marked string in the domain's package, as the code is now."""
    package, _locale, method_map = _where(domain)
    catalog = Catalog(project="durak", version="0.1.0", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        package, method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(message, locations=[(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def po_text(catalog: Catalog, **options: bool) -> str:
    out = io.BytesIO()
    write_po(out, catalog, no_location=True, width=100, **options)
    return out.getvalue().decode("utf-8")


def languages(domain: str = DOMAIN) -> list[str]:
    locale = _where(domain)[1]
    return sorted(p.parent.parent.name for p in locale.glob(f"*/LC_MESSAGES/{domain}.po"))


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return _where(domain)[1] / lang / "LC_MESSAGES" / f"{domain}.po"


def template_path(domain: str = DOMAIN) -> Path:
    return _where(domain)[1] / "messages.pot"


def read(path: Path, lang: str | None = None, domain: str = DOMAIN) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    """The messages of a catalog (id and context), without its header."""
    return {(m.id, m.context) for m in catalog if m.id}


def update_all() -> None:
    """For each domain: write the template, merge it into every language's .po (a new
    language of the notebook gets the terminal's .po too), compile every .mo."""
    for domain, _package, _map in domains():
        template = extract(domain)
        template_path(domain).parent.mkdir(parents=True, exist_ok=True)
        template_path(domain).write_text(po_text(template, omit_header=False),
                                         encoding="utf-8")
        for lang in languages(DOMAIN):
            path = po_path(lang, domain)
            if not path.is_file():
                init(lang, domain)
            catalog = read(path, lang, domain)
            catalog.update(template, no_fuzzy_matching=True)
            path.write_text(po_text(catalog, ignore_obsolete=True), encoding="utf-8")
            path.with_suffix(".mo").write_bytes(mo_bytes(read(path, lang, domain)))
            print(f"{domain} {lang}: {len(problems(lang, domain))} problems")


def init(lang: str, domain: str = DOMAIN) -> None:
    """Start ``lang``'s .po of ``domain`` (every message untranslated)."""
    catalog = Catalog(locale=lang, domain=domain, project="durak", charset="utf-8")
    catalog.update(extract(domain))
    po_path(lang, domain).parent.mkdir(parents=True, exist_ok=True)
    po_path(lang, domain).write_text(po_text(catalog), encoding="utf-8")


def problems(lang: str, domain: str = DOMAIN) -> list[str]:
    """What is wrong with ``lang``'s catalog: messages missing, untranslated or fuzzy,
    a plural without every form, a placeholder the English has not, a stale .mo."""
    found: list[str] = []
    template = extract(domain)
    if not po_path(lang, domain).is_file():
        return [f"no {domain} catalog for {lang}"]
    catalog = read(po_path(lang, domain), lang, domain)
    for message in template:
        if not message.id:
            continue
        have = catalog.get(message.id, context=message.context)
        name = message.id if isinstance(message.id, str) else message.id[0]
        if have is None:
            found.append(f"missing: {name!r}")
            continue
        strings = have.string if isinstance(have.string, tuple) else (have.string,)
        if have.fuzzy or not all(strings):
            found.append(f"untranslated or fuzzy: {name!r}")
        if isinstance(message.id, tuple) and len(strings) != catalog.num_plurals:
            found.append(f"{name!r}: {len(strings)} plural forms, not {catalog.num_plurals}")
        allowed = set(_placeholders(" ".join(message.id if isinstance(message.id, tuple)
                                             else (message.id,))))
        for s in strings:
            extra = set(_placeholders(s)) - allowed
            if extra:
                found.append(f"{name!r}: unknown placeholders {sorted(extra)}")
    mo = po_path(lang, domain).with_suffix(".mo")
    if not mo.is_file() or _contents(_read_mo(mo)) != _contents(catalog):
        found.append(f"{mo.name} of {lang} is not compiled from its .po")
    return found


def _read_mo(path: Path) -> Catalog:
    from babel.messages.mofile import read_mo

    with path.open("rb") as f:
        return read_mo(f)


def _contents(catalog: Catalog) -> dict[tuple[object, str | None], object]:
    """What a compiled catalog says (not how its bytes are laid out, which may differ
    between Babel versions): each translated message's strings."""
    def key(value: object) -> object:
        return tuple(value) if isinstance(value, (list, tuple)) else value

    return {(key(m.id), m.context): key(m.string) for m in catalog
            if m.id and m.string and not m.fuzzy}


def _placeholders(text: str) -> list[str]:
    import re

    return re.findall(r"\{(\w+)[^}]*\}", text)


def stale_template(domain: str = DOMAIN) -> list[str]:
    """Messages the code has and messages.pot has not, or the other way round."""
    code = keys(extract(domain))
    saved = keys(read(template_path(domain), domain=domain))
    return ([f"not in messages.pot: {k[0]!r}" for k in code - saved]
            + [f"no longer in the code: {k[0]!r}" for k in saved - code])


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "all"
    if command == "all":
        update_all()
        return 0
    if command == "init":
        for domain, _package, _map in domains():
            init(argv[1], domain)
        return 0
    if command == "check":
        bad = [f"{domain}: {p}" for domain, _package, _map in domains()
               for p in stale_template(domain)
               + [f"{lang}: {q}" for lang in languages(DOMAIN) for q in problems(lang, domain)]]
        print("\n".join(bad) or "catalogs: up to date and complete")
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
