"""durak_lang, the leaf both screens import: one choice of language for the table and the
terminal, the engine's reasons said by both, and a catalog of its own kept complete."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import durak_lang
from durak_core import Rules
from durak_lang import language, reasons

REPO = Path(__file__).resolve().parents[2]
MODULES = sorted(info.name for info in pkgutil.iter_modules(durak_lang.__path__, "durak_lang."))


@pytest.mark.parametrize("name", ["durak_lang", *MODULES])
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _imported_after(statement: str) -> list[str]:
    """The durak packages a fresh interpreter has loaded after ``statement``."""
    code = (f"import sys; {statement}; "
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules "
            "if m.startswith('durak')})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout.split()


def test_the_leaf_imports_neither_screen_and_the_terminal_not_the_notebook() -> None:
    """durak_lang sits below both screens (it needs only the core's cards), and
    durak_net, which uses it, still never imports durak_widgets."""
    assert _imported_after("import durak_lang.reasons") == ["durak_core", "durak_lang"]
    assert "durak_widgets" not in _imported_after("import durak_net.cli")


def test_the_table_and_the_terminal_choose_the_language_with_one_function() -> None:
    from durak_net import i18n as net
    from durak_widgets import i18n as widgets

    for name in ("default_language", "normalize", "languages", "current"):
        assert getattr(widgets, name) is getattr(language, name) is getattr(net, name), name
    assert widgets.speaking is language.speaking and net.use is language.use


@pytest.mark.parametrize("var", ["DURAK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"])
def test_each_variable_of_the_locale_chooses_russian(
    monkeypatch: pytest.MonkeyPatch, var: str
) -> None:
    for other in ("DURAK_LANG", *language.LOCALE_VARIABLES):
        monkeypatch.delenv(other, raising=False)
    assert language.default_language() == "en"
    monkeypatch.setenv(var, "ru_RU.UTF-8")
    assert language.default_language() == "ru"
    assert language.current() == "ru"  # nothing chosen: the environment speaks


def test_the_browsers_language_comes_before_the_locale_in_the_site(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DURAK_LANG")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.setattr(language, "browser_language", lambda: "ru-RU")
    assert language.default_language() == "ru"
    monkeypatch.setenv("DURAK_LANG", "en")  # durak's own variable still comes first
    assert language.default_language() == "en"


def test_a_tables_language_overrides_the_process_choice_for_every_screens_words() -> None:
    """Inside a table's ``speaking`` the terminal's words (durak_net's catalog, the team
    choices the lobby shows) follow the table; outside, the process's ``use``."""
    from durak_net import i18n as net
    from durak_net.teams import team_choices

    rules = Rules(players=4, teams=True)
    net.use("en")
    assert net._("you won") == "you won"
    with language.speaking("ru"):
        assert net._("you won") == "вы выиграли"
        labels = [label for label, _team in team_choices(rules, ["Аня", "", "", ""])]
        assert labels[:2] == ["любая команда", "команда 0, с Аня"]
        assert labels[2].startswith("команда 1, ") and "team" not in labels[2]
    assert team_choices(rules, ["Ann", "", "", ""])[0][0] == "any team"
    net.use("ru")
    assert net._("you won") == "вы выиграли"
    with language.speaking("en"):
        assert net._("you won") == "you won"


def test_an_engine_reason_is_said_with_the_tables_cards_or_the_terminals() -> None:
    reason = "Q♣ cannot beat K♣: play a higher club or a trump (♥)."
    with language.speaking("ru"):
        assert reasons.say_reason(reason, ["Вы", "Боб"], 0).startswith("Д♣ не бьёт К♣")
        assert reasons.say_reason(reason, ["Вы", "Боб"], 0, typed=True).startswith(
            "Q♣ не бьёт K♣")
        said = reasons.say_reason("Transfer with a card of rank Q; K♣ does not match.", [])
        assert "Д" in said and "Q" not in said
    assert reasons.say_reason(reason, ["Вы", "Боб"], 0) == reason


def test_a_sentence_no_template_knows_stays_the_engines_with_names() -> None:
    with language.speaking("ru"):
        assert reasons.say_reason("Player 1 did something new.", ["Ann", "Bob"]) == (
            "Bob did something new.")


def test_the_leafs_catalog_is_current_and_complete_in_every_language_of_the_others() -> None:
    pytest.importorskip("babel", reason="the catalog checks need Babel (the dev extra)")
    spec = importlib.util.spec_from_file_location("catalogs", REPO / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    catalogs = importlib.util.module_from_spec(spec)
    sys.modules["catalogs"] = catalogs
    spec.loader.exec_module(catalogs)
    assert catalogs.stale_template("durak_lang") == []
    assert catalogs.problems("ru", "durak_lang") == []
    spoken = {domain: catalogs.languages(domain) for domain, _p, _m in catalogs.domains()}
    assert len(set(map(tuple, spoken.values()))) == 1, spoken
    assert list(language.languages()) == ["en", *spoken["durak_lang"]]
