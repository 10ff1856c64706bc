"""``durak-lan --lang ru``: the terminal's sentences read in Russian (its own gettext
domain, durak_net: durak_net never imports the notebook's words), its catalog is
complete, and the ``--json`` lines stay English for programs."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from durak_core import Card, Game, IllegalAction, Rules, new_deck, parse_action
from durak_net import events as ev
from durak_net import i18n
from durak_net.cli import _LINE, build_parser, main
from durak_net.notes import OLDER_PEER

from .test_net_cli_events import FailingNode, _peer

REPO = Path(__file__).resolve().parents[2]
LATIN = re.compile(r"[A-Za-z]")
#: What stays Latin on a Russian terminal: what a person types (a command in
#: backticks, a move's notation and its cards, an option), hexadecimal ids.
TYPED = re.compile(r"`[^`]*`|--\w+ ID|\b(attack|defend|with|transfer|take|pass|show)\b"
                   r"|\b[0-9a-f]{1,16}\b|PIN|(10|[2-9JQKA])[♠♥♦♣shdc]")


def catalogs() -> ModuleType:
    pytest.importorskip("babel", reason="the catalog checks need Babel (the dev extra)")
    spec = importlib.util.spec_from_file_location("catalogs", REPO / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogs"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def russian() -> Iterator[None]:
    i18n.use("ru")
    yield
    i18n.use("en")


def test_the_terminals_catalog_is_current_and_complete_in_russian() -> None:
    module = catalogs()
    assert module.stale_template("durak_net") == []
    assert module.problems("ru", "durak_net") == []


def test_the_terminals_language_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var in ("DURAK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert i18n.default_language() == "en"
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert i18n.default_language() == "ru"
    monkeypatch.setenv("DURAK_LANG", "en")
    assert i18n.default_language() == "en"
    assert build_parser().parse_args(["--lang", "ru"]).lang == "ru"


def _script(game: Game) -> list[Any]:
    """One of every event the terminal prints a sentence for, at a game of two."""
    anna = ev.PeerInfo(7, "Анна", ("10.0.0.5", 40123), {}, busy=True)
    first = game.legal_actions()[0]
    return [
        ev.PeerSeen(anna, 0.0),
        ev.PeerSeen(ev.PeerInfo(8, "Старик", ("10.0.0.6", 40123), {},
                                incompatible=OLDER_PEER.format(version=3)), 0.0),
        ev.PeerGone(anna, 0.0),
        ev.InviteReceived(3, anna, Rules(), 0.0, pin=True),
        ev.InviteReceived(4, anna, Rules(), 0.0),
        ev.InviteClosed(4, anna, False, "отказ", 0.0),
        ev.SessionAgreed(1, True, anna, b"", Rules(), 0.0, "яблоко колокол облако барабан",
                         True),
        ev.GameStarted(1, 1, 0, "00", 0.0, shown=(1, Card.parse("6h"))),
        ev.GameStarted(1, 1, 0, "00", 0.0, shown=(0, Card.parse("6h"))),
        ev.ActionApplied(1, 1, 0, first, (), False, "00", 0.0, forced="timeout"),
        ev.ActionApplied(1, 1, 0, first, (), True, "00", 0.0, forced="bot"),
        ev.ActionRefused(1, parse_action("0 take"), "причина", 0.0),
        *(ev.SeatStatus(1, 1, state, "", 0.0)
          for state in ("lost", "back", "left", "bot", "timeout", "opened")),
        ev.PeerLost(1, 5.0, 0.0, 1),
        ev.PeerBack(1, 0.0, 1),
        ev.GameStopped(1, 1, 1, "причина", True, 0.0),
        ev.GameFinished(1, 1, 1, (), 41, "00", "00", 0.0),
        ev.GameAudited(1, 1, True, "audited: fair", "fair", None, "00", "00", 0.0),
        ev.GameFinished(1, 2, None, (), 1, "00", "00", 0.0),
        ev.GameAudited(1, 2, True, "audited: fair (unfinished)", "fair", None, "00", "00",
                       0.0),
        ev.NextGameRequested(1, 3, 0.0),
    ]


def test_the_terminal_prints_every_event_in_russian(russian: None) -> None:
    game = Game.new(Rules(), seed=3)
    node = FailingNode(ValueError("нет сеанса"), ("Вы", "Анна"), game)
    peer = _peer(["--name", "Me"], node)
    peer.active = None  # in the lobby until SessionAgreed
    for event in _script(game):
        peer.step(event)
    for line in ("table", "peers", "accept", "9", "again"):
        peer.step((_LINE, line))
    peer.step(ev.SessionClosed(1, "", True, 0.0))
    said = peer.out.getvalue().splitlines()
    assert len(said) > 30
    english = [line for line in said if LATIN.search(TYPED.sub("", line))]
    assert english == []
    text = "\n".join(said)
    assert "Старик" in text and "старая версия программы (протокол локальной сети 3)" in text
    for words in ("козырь", "стол:", "проверено: честно", "вы выиграли", "приглашает вас",
                  "за вас зашли самой младшей картой", "слова сверки"):
        assert words in text, words


def test_json_lines_stay_english_in_russian(russian: None) -> None:
    game = Game.new(Rules(), seed=3)
    node = FailingNode(ValueError("нет сеанса"), ("Вы", "Анна"), game)
    peer = _peer(["--name", "Me", "--bot", "random", "--json"], node)
    peer.step(ev.GameFinished(1, 1, 1, (), 41, "00", "00", 0.0))
    peer.step(ev.GameAudited(1, 1, True, "audited: fair", "fair", None, "00", "00", 0.0))
    (record,) = [json.loads(line) for line in peer.out.getvalue().splitlines()]
    assert record["audit"] == "fair" and record["event"] == "game_over"
    assert "игра 1 окончена" in peer.err.getvalue()


def test_a_bad_lang_is_refused_with_the_option_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--name", "Me", "--lang", "ru ru!"]) == 64
    assert "ru ru!" in capsys.readouterr().err
    i18n.use("en")


def test_the_terminals_team_notes_read_in_russian(russian: None) -> None:
    from durak_net.teams import seat_team_note, team_choices

    rules = Rules(players=4, teams=True)
    assert seat_team_note(rules, 2, ["Аня", "", "", ""]) == "команда 0, напарник Аня"
    labels = [label for label, _team in team_choices(rules, ["Аня", "Бот", "", ""])]
    assert labels == ["любая команда", "команда 0, с Аня", "команда 1, с Бот"]


# ---------------------------------------------------------------- the engine's reasons

class EngineNode(FailingNode):
    """A node at a real game whose host checks a move with the rules engine, as the
    session does: an illegal one raises the engine's reason (English, seat numbers)."""

    def __init__(self, names: tuple[str, ...], game: Game, seat: int = 0) -> None:
        super().__init__(ValueError("нет сеанса"), names, game)
        self._view = dataclasses.replace(self._view, seat=seat)
        self.played: list[Any] = []

    def act(self, sid: int, action: Any) -> None:
        reason = self._view.game.why_illegal(action)  # type: ignore[union-attr]
        if reason is not None:
            raise IllegalAction(reason, action)
        self.played.append(action)


def _illegal_lines(game: Game, seat: int) -> list[str]:
    """Moves a person could type at ``seat`` that the engine refuses, one of each kind
    the game allows now (take as the attacker, a card not held, a throw-in that does
    not match, ...), each with the engine's reason."""
    lines = ["take", "pass", "transfer 6h", "defend 7s with 9s", "attack As Ah", "14"]
    held = set(game.hand(seat))
    lines += [f"attack {card}" for card in new_deck(game.rules.deck_size) if card not in held][:1]
    return [line for line in lines if line == "14" or game.why_illegal(
        parse_action(f"{seat} {line}")) is not None]


@pytest.mark.parametrize("seat", [0, 1])
def test_an_illegal_typed_move_is_refused_in_russian_with_names(
    russian: None, seat: int
) -> None:
    """The rules engine's reasons reach the Russian terminal in Russian: the seat a
    reason numbers is the player's name (or "вы"), its cards as typed."""
    game = Game.new(Rules(), seed=3)
    node = EngineNode(("Анна", "Вы")[::1 if seat else -1], game, seat)
    peer = _peer(["--name", "Me"], node)
    lines = _illegal_lines(game, seat)
    assert len(lines) >= 4, lines
    for line in [*lines, "atack 7s", "join team 1", "join Анна team один"]:
        peer.step((_LINE, line))
    said = peer.out.getvalue().splitlines()
    assert node.played == []
    assert len([line for line in said if line.startswith("нельзя: ")]) >= len(lines) - 1, said
    english = [line for line in said if LATIN.search(TYPED.sub("", line))]
    assert english == [], said
    text = "\n".join(said)
    assert "player" not in text and "это не ход: `atack 7s`" in text


def test_the_same_moves_are_refused_in_english_with_names_not_seat_numbers() -> None:
    game = Game.new(Rules(), seed=3)
    node = EngineNode(("Ann", "Me"), game, 1)
    peer = _peer(["--name", "Me"], node)
    for line in _illegal_lines(game, 1):
        peer.step((_LINE, line))
    text = peer.out.getvalue()
    assert 'Only the defender, "Ann", can take.' in text, text
    assert not re.search(r"\b[Pp]layers? \d", text), text


def test_a_refusal_of_the_host_in_the_engines_words_reads_in_russian(russian: None) -> None:
    """The host refused our move with a sentence of the rules engine: said in our
    language; a reason in other words is the host's program's own, quoted."""
    game = Game.new(Rules(), seed=3)
    node = EngineNode(("Анна", "Вы"), game, 1)
    reason = game.why_illegal(parse_action("1 take"))
    assert reason is not None and "player 0" in reason
    node._view.refused.update({"1 take": reason, "1 pass": "нет, и всё"})
    peer = _peer(["--name", "Me"], node)
    peer.step((_LINE, "take"))
    peer.step((_LINE, "pass"))
    first, second = peer.out.getvalue().splitlines()
    assert first.startswith("нельзя: ") and not LATIN.search(TYPED.sub("", first)), first
    assert "Анна" in first
    assert "«нет, и всё»" in second


def test_a_verdict_and_a_stop_with_an_engines_reason_read_in_russian(russian: None) -> None:
    """A verdict naming an illegal entry quotes the engine's reason: in Russian too."""
    from durak_net.notes import Note, Rule, Seat

    game = Game.new(Rules(), seed=3)
    move = parse_action("1 take")
    reason = game.why_illegal(move) if game.defender != 1 else game.why_illegal(
        parse_action("1 pass"))
    assert reason is not None
    detail = Note.of("illegal_logged", index=4, move=move, reason=Rule(reason))
    verdict = Note.of("cheated", culprit=Seat(1), detail=detail)
    stop = Note.of("found", culprit=Seat(1), detail=Note.of(
        "illegal_entry", index=4, move=move, reason=Rule(reason)))
    node = EngineNode(("Вы", "Анна"), game)
    peer = _peer(["--name", "Me"], node)
    peer.step(ev.GameStopped(1, 1, 1, stop.english(["Вы", "Анна"]), True, 0.0, note=stop))
    peer.step(ev.GameAudited(1, 1, False, "audit: " + verdict.english(["Вы", "Анна"]),
                             "illegal", 1, "00", "00", 0.0, note=verdict))
    said = peer.out.getvalue().splitlines()
    assert any("Анна сжульничал" in line for line in said), said
    english = [line for line in said if LATIN.search(TYPED.sub("", line))]
    assert english == [], said


@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_a_whole_run_of_durak_lan_speaks_russian_from_the_option_or_the_locale(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``durak-lan --lang ru``, or a Russian locale and no option: from its first line
    (its ports) to the last (the timeout), a run says nothing in English."""
    argv = ["--name", "Аня", "--port", "0", "--bot", "random", "--journal",
            str(tmp_path / "lan"), "--resume", "--timeout", "0.3"]
    if how == "--lang":
        argv += ["--lang", "ru"]
    else:
        for var in ("DURAK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(var, raising=False)
        monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(argv) == 3  # nothing to resume, nobody to play: the timeout
    said = capsys.readouterr().out.splitlines()
    i18n.use("en")
    assert said[0].startswith("Аня: игровой порт ") and said[-1].startswith("время вышло")
    assert "нечего продолжать" in said[1:-1], said
    assert [line for line in said if LATIN.search(TYPED.sub("", line))] == [], said
