"""The table speaks Russian or English: the catalogs are complete and current, whole
games read in one language, and the engine's reasons for a refusal are translated."""

from __future__ import annotations

import html
import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from durak_core import Attack, Defend, Game, Pass, Rules, Take, Transfer, new_deck
from durak_core.bots import REGISTRY
from durak_lang.reasons import TEMPLATES, match, say_reason
from durak_widgets import Handoff, TableController, i18n, play
from durak_widgets.words import bot_name

from .widget_driver import click_one_move, game_of, play_to_the_end

REPO = Path(__file__).resolve().parents[2]
LATIN = re.compile(r"[A-Za-z]")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def catalogs() -> ModuleType:
    """scripts/catalogs.py (Babel's extraction and checks), imported from its path."""
    pytest.importorskip("babel", reason="the catalog checks need Babel (the dev extra)")
    spec = importlib.util.spec_from_file_location("catalogs", REPO / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogs"] = module
    spec.loader.exec_module(module)
    return module


def text_of(value: str) -> str:
    """An HTML value as a person reads it (tags dropped)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def test_the_template_holds_every_word_the_code_marks_and_no_other() -> None:
    assert catalogs().stale_template() == []


def test_every_word_has_a_russian_translation_with_every_plural_form() -> None:
    assert catalogs().problems("ru") == []


def test_a_language_is_chosen_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("DURAK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert i18n.default_language() == "en"
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert i18n.default_language() == "ru"
    monkeypatch.setenv("LANGUAGE", "de:ru")  # gettext's list: the first with a catalog
    assert i18n.default_language() == "ru"
    monkeypatch.setenv("DURAK_LANG", "en")
    assert i18n.default_language() == "en"
    with pytest.raises(ValueError, match="language code"):
        i18n.normalize("ru ru!")


# ---------------------------------------------------------------- the engine's reasons

def _attempts(game: Game) -> list[object]:
    """Every action anyone could click now: each card led, thrown in, beaten with or
    transferred, two cards led together, take and pass, for every seat."""
    deck = new_deck(game.rules.deck_size)
    table = [a for a, _ in game.table]
    out: list[object] = []
    for seat in range(game.rules.players):
        out += [Take(seat), Pass(seat)]
        for card in deck:
            out += [Attack(seat, card), Transfer(seat, card), Transfer(seat, card, show=True)]
            out += [Defend(seat, a, card) for a in table[:2]]
            out.append(Defend(seat, deck[0], card))
        same_rank = [c for c in deck if c.rank == deck[-1].rank]
        out.append(Attack(seat, same_rank[0], (same_rank[1],)))
        out.append(Attack(seat, deck[0], (deck[-1],)))
    return out


def _reasons(rules: Rules, seed: int) -> set[str]:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    found: set[str] = set()
    while not game.is_over:
        for attempt in _attempts(game):
            reason = game.why_illegal(attempt)
            if reason is not None:
                found.add(reason)
        legal = game.legal_actions()
        game.apply(rng.choice(legal))
    found.add(game.why_illegal(Take(0)) or "")
    return found


@pytest.mark.slow
def test_every_reason_the_engine_gives_has_a_template_and_reads_in_russian() -> None:
    reasons: set[str] = set()
    for rules, seed in [
        (Rules(), 1),
        (Rules(players=3, variant="perevodnoy", transfer_by_showing_trump=True), 2),
        (Rules(players=4, teams=True, throw_in="neighbours"), 3),
        (Rules(players=3, deck_size=52, open_with_several=False), 4),
    ]:
        reasons |= _reasons(rules, seed)
    unknown = sorted(r for r in reasons if match(r) is None)
    assert unknown == [], "reasons no template in durak_lang/reasons.py matches"
    names = ["Вы", "Боб", "Ева", "Ян", "Оля", "Макс"]
    used = set()
    with i18n.speaking("ru"):
        for reason in reasons:
            template, _ = match(reason)  # type: ignore[misc]
            used.add(template)
            said = say_reason(reason, names, 0)
            assert not LATIN.search(said), (reason, said)
            assert not re.search(r"\d+ (attack|card)", said)
    # The walk reaches most templates: a reason the engine stopped giving shows here.
    assert len(used) >= len(TEMPLATES) * 2 // 3, sorted(set(TEMPLATES) - used)


def test_a_refusal_in_russian_names_the_player_and_the_cards_as_russians_do() -> None:
    names = ["Вы", "Боб"]
    with i18n.speaking("ru"):
        said = say_reason("Q♣ cannot beat K♣: play a higher club or a trump (♥).", names, 0)
        assert said == "Д♣ не бьёт К♣: нужна старшая карта той же масти или козырь (♥)."
        said = say_reason("Wait for player 1 to beat the cards or take them; pass once the "
                          "table is beaten.", names, 0)
        assert said.startswith("Подождите, пока Боб отобьётся")
    assert say_reason("Only the defender, player 1, can take.", names, 0) == (
        "Only the defender, Боб, can take.")


def test_every_built_in_bot_has_a_display_name_in_russian() -> None:
    """A bot added to the registry (``ismcts-v2``) is named in the table's language too."""
    with i18n.speaking("ru"):
        shown = {name: bot_name(name) for name in REGISTRY}
    assert shown["ismcts-v2"] == "ИИ v2"
    assert all(shown[name] != name for name in REGISTRY), shown


def test_the_russian_table_says_the_cards_and_moves_as_players_do() -> None:
    """The words of a Russian game: валет, дама, король, туз; козырь; бита; «Беру»,
    «Бито», «Перевод»; and the card letters of a Russian deck (В, Д, К, Т)."""
    from durak_widgets import words

    with i18n.speaking("ru"):
        names = [words.card_name(f"{rank}c") for rank in "JQKA"]
        assert names == ["валет треф", "дама треф", "король треф", "туз треф"]
        assert words.card_name("6h", trump=True) == "шестёрка червей, козырь"
        assert [words.card_text(f"{rank}s") for rank in "JQKA"] == ["В♠", "Д♠", "К♠", "Т♠"]
        assert (words.TAKE, words.BEATEN, words.TRANSFER) == ("Беру", "Бито", "Перевод")
        assert words.discard_pile(4) == "бита: 4"


# ---------------------------------------------------------------- whole games

def _everything_shown(table: TableController) -> list[str]:
    """Every text a person reads on the table now (visible or not: a hidden text is
    still the table's language), tags dropped."""
    view = table.view
    texts = [view.status.value, view.log.value, view.banner_text.value, view.me.value,
             view.talon.value, view.discard.value, view.table_line.value, view.hint.value,
             view.review.value, view.score.value, view.table_empty.value, repr(table),
             view.keys.announce, view.keys.help_title]
    texts += [box.value for box in view.opponent_boxes]
    texts += [b.description for b in (*view.buttons.values(), view.new_game,
                                      view.review_button, view.reveal, view.hint_toggle)]
    texts += [b.description for b in view.visible_hand()]
    texts += [b.tooltip or "" for b in view.visible_hand()]
    texts += [b.description for pair in view.visible_pairs() for b in pair if b is not None]
    titles = re.findall(r'(?:title|aria-label)="([^"]*)"', "".join(texts))
    return [text_of(t) for t in texts + titles]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_whole_seeded_games_read_in_one_language(
    lang: str, tables: list[TableController]
) -> None:
    other = LATIN if lang == "ru" else CYRILLIC
    for seed, opponents in [(5, ["greedy"]), (8, ["random", "greedy"])]:
        table = play(opponents=opponents, seed=seed, delay=0, handoff=Handoff(mode="sync"),
                     lang=lang)
        tables.append(table)
        table.coach.iterations = 20
        table.view.hint_toggle.value = True
        rng = random.Random(seed)
        seen: set[str] = set()
        while not game_of(table).is_over:
            seen.update(_everything_shown(table))
            click_one_move(table, rng)
            table.view.hand_cards[0].click()  # whatever it is: a move or a refusal
        table.view.review_button.click()
        table.view.new_game.click()
        seen.update(_everything_shown(table))
        for text in seen:
            assert not other.search(text), text
        assert any("—" in t for t in seen)  # the log's bout lines were read


def test_hot_seat_names_and_the_pass_screen_in_russian(tables: list[TableController]) -> None:
    table = play(hot_seat=2, seed=2, delay=0, handoff=Handoff(mode="sync"), lang="ru")
    tables.append(table)
    assert table.names == ["Игрок 1", "Игрок 2"]
    assert "Передайте экран" in text_of(table.view.status.value)
    play_to_the_end(table, random.Random(2))
    assert "Игра окончена" in text_of(table.view.status.value)


def test_the_review_in_russian_speaks_to_you() -> None:
    from durak_core.bots import GreedyBot, play_game
    from durak_widgets import review

    game = play_game(Game.new(Rules(), seed=3), [GreedyBot(), GreedyBot()])
    report = review(game, seat=0, iterations=40, seed=1, names=["Вы", "Жадный"])
    assert report.drops
    with i18n.speaking("ru"):
        for text in (repr(report), text_of(report._repr_html_())):
            assert "Разбор вашей игры" in text and "(ваш)" in text, text
            assert "ИИ советовал" in text
            assert not LATIN.search(text), text


def test_the_russian_play_notebook_as_saved_shows_the_russian_table(
    tables: list[TableController],
) -> None:
    """notebooks/play-ru.ipynb is saved like play.ipynb (no widget state, the table's
    text form) and its saved output is the Russian table's (nbval checks it too)."""
    import json

    notebook = json.loads((REPO / "notebooks" / "play-ru.ipynb").read_text(encoding="utf-8"))
    assert "widgets" not in notebook["metadata"]
    (cell,) = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert "nbval-ignore-output" not in cell["metadata"].get("tags", [])
    (output,) = cell["outputs"]
    assert set(output["data"]) == {"text/plain"}
    table = play(delay=0, handoff=Handoff(mode="sync"), lang="ru")
    tables.append(table)
    assert "".join(output["data"]["text/plain"]) == repr(table)
    intro = "".join(notebook["cells"][0]["source"])
    assert "docs/rules.ru.md" in intro and (REPO / "docs" / "rules.ru.md").is_file()


def test_the_catalog_check_catches_an_untranslated_word_and_a_stale_mo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    module = catalogs()
    copy = tmp_path / "locale"
    shutil.copytree(module.LOCALE, copy)
    monkeypatch.setattr(module, "LOCALE", copy)
    po = module.po_path("ru")
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgstr "Беру"', 'msgstr ""'), encoding="utf-8")
    found = module.problems("ru")
    assert "untranslated or fuzzy: 'Take'" in found
    assert any("is not compiled from its .po" in p for p in found)


def test_the_terminals_own_catalog_is_current_and_complete_too() -> None:
    """durak-lan's sentences are a second domain (durak_net), checked like the table's."""
    module = catalogs()
    assert module.stale_template("durak_net") == []
    assert module.problems("ru", "durak_net") == []
