"""What the session and the audit found is said in the reader's language, with names.

durak_net makes each verdict, stopped game, desync and protocol violation as a note (a
code and typed arguments, :mod:`durak_net.notes`); the terminal and the notebook say
it in English or Russian with their table's names, never seat numbers.  Words another
program sent (the detail of its Fault, the reason of its refusal) are shown made safe
and quoted as its own, in either language's frame.  The English a program reads (the
Fault's detail on the wire, ``--json``) is the note's English.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from dataclasses import replace

import pytest

from durak_core import Card, Rules
from durak_net import events as ev
from durak_net import i18n
from durak_net.audit import Stop, Verdict, _stopped
from durak_net.notes import FAULT_WORDS, QUOTE, REASONS, TEMPLATES, Note, Seat, say_reason

from .tables import make_table
from .test_net_cli_events import FailingNode, _peer

NAMES = ("Анна", "Борис", "Вера")
RU = i18n.translation("ru").gettext
#: What may stay Latin in a Russian sentence: a move as typed, cards, hashes, numbers.
TYPED = re.compile(r"\b(attack|defend|with|transfer|take|pass)\b|\b[0-9a-f]{6,}\b"
                   r"|(10|[2-9JQKA])[♠♥♦♣shdc]")
LATIN = re.compile(r"[A-Za-z]")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _said_both(note: Note) -> tuple[str, str]:
    return note.say(NAMES), note.say(NAMES, RU)


def test_every_finding_has_a_russian_sentence_with_the_same_placeholders() -> None:
    for code, text in TEMPLATES.items():
        if text == "{text}":
            continue
        ru = RU(text)
        assert ru != text or code == "found", code
        assert _fields(ru) == _fields(text), code
    for text in (*FAULT_WORDS.values(), *REASONS.values(), QUOTE):
        assert RU(text) != text and _fields(RU(text)) == _fields(text), text


def test_a_note_with_the_wrong_arguments_is_refused_where_it_is_made() -> None:
    with pytest.raises(ValueError, match="no such note"):
        Note.of("nonsense")
    with pytest.raises(ValueError, match=r"takes \['seat'\]"):
        Note.of("no_keys", culprit=Seat(1))


def _verdicts() -> dict[str, Verdict]:
    """A verdict of every kind, each made by the code that makes it in a game (the
    audit's own functions) where that code runs without a game; the session's own
    (abandoned, clock) from the notes it makes."""
    cheat = Note.of("not_proposed", index=4, move="1 attack 7s")
    ours = Stop(0, 4, "x", True, 1, "forged", cheat)
    against_third = Stop(1, 4, "x", True, 2, "not_held", Note.did_theirs(1, "not_held", "lie"))
    against_us = Stop(1, 4, "x", True, 0, "not_held", Note.did_theirs(1, "not_held", "lie"))
    silent = Note.of("silent", seat=Seat(2), seconds=60)
    return {
        "fair": Verdict.fair_game(),
        "cheated": _stopped(ours, NAMES, 0),
        "disputed": _stopped(against_third, NAMES, 0),
        "false_claim": _stopped(against_us, NAMES, 0),
        "incomplete": _stopped(None, NAMES, 0),
        "refused": Verdict.of(False, "refused", Note.of("no_keys", seat=Seat(1)), NAMES, 1),
        "abandoned": Verdict.of(False, "abandoned", silent, NAMES, 2),
        "abandoned_disputed": Verdict.of(False, "abandoned", Note.of(
            "silent_disputed", host=Seat(0), seat=Seat(2)), NAMES),
        "cheated_then_silent": Verdict.of(False, "forged", Note.of(
            "silent_after", verdict=Note.of("cheated", culprit=Seat(1), detail=cheat),
            seat=Seat(1)), NAMES, 1),
        "clock_disputed": Verdict.of(False, "clock_disputed", Note.of(
            "clock_disputed", seat=Seat(1), host=Seat(0), index=7), NAMES),
        "bad_key": Verdict.of(False, "bad_key", Note.of("cheated", culprit=Seat(2), detail=Note.of(
            "bad_key_held", position=3, holder=Seat(1), card=Card.parse("Qc"))), NAMES, 2),
        "forged": Verdict.of(False, "forged", Note.of("cheated", culprit=Seat(0), detail=Note.of(
            "relayed_unsigned", seat=Seat(2))), NAMES, 0),
    }


def test_every_kind_of_verdict_is_said_in_english_and_russian_with_names() -> None:
    for kind, verdict in _verdicts().items():
        assert verdict.note is not None, kind
        en, ru = _said_both(verdict.note)
        assert en == verdict.detail, kind  # what programs read is the note's English
        for seat in verdict.note.seats():
            assert NAMES[seat] in en and NAMES[seat] in ru, kind
        assert not re.search(r"\bseat \d", en), (kind, en)
        rest = TYPED.sub("", re.sub("«[^»]*»", "", ru))  # (their words are theirs)
        for name in NAMES:
            rest = rest.replace(name, "")
        assert not LATIN.search(rest), (kind, ru)
        assert ru != en, kind


def test_a_verdict_restored_without_its_note_is_said_from_its_text() -> None:
    stop = Stop(0, 4, "sent entry 4, which plays our seat", True, 1, "forged")
    verdict = _stopped(stop, NAMES, 0)
    assert verdict.note is not None
    assert verdict.detail == "Борис cheated: sent entry 4, which plays our seat"
    assert verdict.note.say(NAMES, RU) == "Борис сжульничал: sent entry 4, which plays our seat"


def test_another_programs_fault_is_quoted_as_its_words_and_made_safe() -> None:
    hostile = "Eve\x1b[2J\nPROBLEM: \u202edesync"
    note = Note.of("stopped_by", by=Seat(1), culprit=Seat(2),
                   detail=Note.did_theirs(1, "not_held", hostile))
    en, ru = _said_both(note)
    assert en == ("Борис stopped the game: Вера played a card it does not hold (as Борис's "
                  "program puts it: “Eve [2J PROBLEM: desync”)")
    assert ru == ("Борис остановил игру: Вера сыграл карту, которой у него нет (по словам "
                  "программы Борис: «Eve [2J PROBLEM: desync»)")
    odd = Note.did_theirs(1, "zap\x1b", "x").say(NAMES, RU)
    assert odd == "нарушил правила (zap) (по словам программы Борис: «x»)"


def test_reasons_our_programs_send_are_translated_and_others_quoted() -> None:
    assert say_reason("no free seat in that team", RU) == "в этой команде нет свободного места"
    assert say_reason("no free seat in that team") == "no free seat in that team"
    assert say_reason("go\naway", RU) == "«go away»"
    assert say_reason("go\naway") == "“go away”"
    assert say_reason("pairing failed: the PIN does not match, or someone is in the middle",
                      RU) == "сверка не удалась: PIN не совпадает, или между игроками кто-то третий"
    assert say_reason("pairing failed: nope", RU) == "сверка не удалась: «nope»"
    assert say_reason("Анна went silent", RU) == "Анна замолчал"
    assert say_reason("Анна\x1b left the table", RU) == "Анна ушёл из-за стола"


def test_a_seat_missing_from_the_names_is_a_player_never_a_number() -> None:
    note = Note.of("no_keys", seat=Seat(5))
    assert note.say(NAMES) == "a player did not publish its keys for the audit"
    assert "5" not in note.say(NAMES, RU)


@pytest.fixture
def russian() -> Iterator[None]:
    i18n.use("ru")
    yield
    i18n.use("en")


def _terminal(events: list[object]) -> list[str]:
    node = FailingNode(ValueError("нет сеанса"), ("Вы", "Анна"), None)
    peer = _peer(["--name", "Me"], node)
    for event in events:
        peer.step(event)
    # (the stand-in node refuses what follows a verdict, the next game: not said here)
    return [line for line in peer.out.getvalue().splitlines()
            if not line.startswith(("error:", "ошибка:"))]


def _findings() -> list[object]:
    cheat = Note.of("cheated", culprit=Seat(1), detail=Note.of("not_opened",
                                                               card=Card.parse("7s")))
    return [
        ev.GameStopped(1, 1, 1, "x", False, 0.0,
                       Note.of("found", culprit=Seat(1), detail=Note.of(
                           "not_opened", card=Card.parse("7s")))),
        ev.GameStopped(1, 2, 0, "x", True, 0.0, Note.of(
            "stopped_by", by=Seat(1), culprit=Seat(0),
            detail=Note.did_theirs(1, "forged", "they lie"))),
        ev.GameAudited(1, 1, False, "audit: x", "not_held", 1, "", "", 0.0, note=cheat),
        ev.DesyncDetected(1, 3, 5, "x", False, 0.0, Note.of(
            "desync_hash", index=5, mine="abcdef123456", theirs="000000000000")),
        ev.ProtocolViolation(1, "x", 0.0, Note.of("key_changed", seat=Seat(1))),
    ]


def test_the_terminal_says_stops_verdicts_desyncs_and_violations_in_russian(
    russian: None,
) -> None:
    said = _terminal(_findings())
    assert said == [
        "игра 1 остановлена: Анна сыграл 7♠, не открыв её (проверяем...)",
        "игра 2 остановлена: Анна остановил игру: Вы подделал сообщение (по словам "
        "программы Анна: «they lie») (проверяем...)",
        "игра 1: проверка: Анна сжульничал: сыграл 7♠, не открыв её",
        "ПРОБЛЕМА: расхождение после записи 5: хеш состояния после записи 5 расходится "
        "(у меня abcdef123456, у хозяина стола 000000000000)",
        "ПРОБЛЕМА: программа за столом нарушила протокол: Анна сменил ключ подписи",
    ]


def test_the_terminal_says_them_in_english_with_names() -> None:
    said = _terminal(_findings())
    assert said[0] == "game 1 stopped: Анна played 7♠ without opening it (auditing...)"
    assert said[2] == "game 1: audit: Анна cheated: played 7♠ without opening it"
    assert said[-1] == ("PROBLEM: a program at the table broke the protocol: Анна changed its "
                       "signing key")


def test_the_terminal_quotes_the_hosts_refusal_as_its_words(russian: None) -> None:
    from durak_core import Game

    game = Game.new(Rules(), seed=3)
    node = FailingNode(ValueError("нет сеанса"), ("Хозяин", "Вы"), game)
    move = game.legal_actions(game.attacker)[0]
    node._view = replace(node._view, seat=game.attacker, refused={str(move): "nope\x1b[2J"})
    peer = _peer(["--name", "Me"], node)
    peer.move(str(move).split(" ", 1)[1])
    assert peer.out.getvalue().splitlines()[-1] == (
        "нельзя: Хозяин не принял этот ход со словами: «nope [2J»")


def test_a_false_accusation_is_said_in_russian_with_names_by_every_seat() -> None:
    """A real table (simulated network): seat 1 accuses seat 2 in words of its own."""
    table = make_table(97, Rules(players=3, deck_size=36), bots=False)
    net = table.net
    assert net.run(lambda: all(s.session.game is not None for s in table.seats), limit=30.0)
    table.seats[1].session._stop(1, 2, "not_held", "played\x1b a card it does not hold",
                                 net.now)
    audited = lambda s: [e for e in table.seats[s].events  # noqa: E731
                         if isinstance(e, ev.GameAudited)]
    assert net.run(lambda: all(audited(s) for s in range(3)), limit=60.0)
    names = table.host.names
    accused = audited(2)[0]
    assert accused.note is not None and accused.code == "false_claim"
    ru = accused.note.say(names, RU)
    assert ru == (f"{names[1]} остановил игру (утверждая, что {names[2]} сыграл карту, которой "
                  f"у него нет (по словам программы {names[1]}: «played a card it does not "
                  "hold»)), но проверка не находит нарушения")
    host = audited(0)[0]
    assert host.note is not None and host.code == "disputed"
    assert host.note.say(names, RU).startswith(
        f"{names[1]} остановил игру (утверждая, что {names[2]} сыграл карту")
    stopped = next(e for e in table.seats[0].events if isinstance(e, ev.GameStopped))
    assert stopped.note is not None
    assert stopped.note.say(names) == (
        f"{names[1]} stopped the game: {names[2]} played a card it does not hold (as "
        f"{names[1]}'s program puts it: “played a card it does not hold”)")


def _notebook(events: list[object], lang: str) -> tuple[list[str], str]:
    """The log lines and the audit badge of a notebook's table (seat 1 of Анна's table
    of three) for ``events``, in ``lang``."""
    from durak_core import Game
    from durak_net.node import SessionView
    from durak_widgets.handoff import Handoff
    from durak_widgets.i18n import speaking
    from durak_widgets.lan_table import LanBackend

    from .test_net_refusals import _StillNode

    rules = Rules(players=3)
    view = SessionView(1, 1, "Анна", 1, Game.new(rules, seed=3).view(1), True, {}, False,
                       False, names=("Анна", "Борис", "Вера"),
                       kinds=("host", "player", "player"), table=1, rules=rules)
    with speaking(lang):
        backend = LanBackend(_StillNode(view), 1, None, 1)  # type: ignore[arg-type]
        shown: list[object] = []
        backend.attach(Handoff(mode="sync"), shown.extend)
        for event in events:
            backend.on_event(event)
        return [str(line) for line in shown], backend.verdict_html()


def test_the_notebook_says_stops_verdicts_desyncs_and_violations_in_both_languages() -> None:
    findings = _findings()
    ru, badge = _notebook(findings, "ru")
    assert ru == [
        "Игра 1 остановлена: Борис сыграл 7♠, не открыв её. Проверяем…",
        "Игра 2 остановлена: Борис остановил игру: Анна подделал сообщение (по словам "
        "программы Борис: «they lie»). Проверяем…",
        "Игра 1: проверка: Борис сжульничал: сыграл 7♠, не открыв её",
        "Расхождение с Анна после хода 5: хеш состояния после записи 5 расходится (у меня "
        "abcdef123456, у хозяина стола 000000000000).",
        "Программа Анна нарушила протокол: Борис сменил ключ подписи",
    ]
    assert "игра 1: проверка: Борис сжульничал" in badge
    en, badge = _notebook(findings, "en")
    assert en[2] == "Game 1: audit: Борис cheated: played 7♠ without opening it"
    assert en[1] == ("Game 2 stopped: Борис stopped the game: Анна forged a message (as "
                     "Борис's program puts it: “they lie”). Auditing…")
    assert "game 1: audit: Борис cheated" in badge


def test_the_notebook_quotes_a_refusal_that_is_not_the_rules_engines() -> None:
    from durak_widgets.i18n import speaking
    from durak_widgets.lan_table import reason_words

    with speaking("ru"):
        assert reason_words("no free seat in that team") == "в этой команде нет свободного места"
        assert reason_words("left the game") == "вышел из игры"
        assert reason_words("bye\x1b[2J") == "«bye [2J»"
    assert reason_words("bye\x1b[2J") == "“bye [2J”"


def test_a_seat_restored_from_its_journal_still_says_its_verdict_in_russian() -> None:
    import json

    from durak_net.session import Session

    from .helpers import FAST

    table = make_table(96, Rules(players=3, deck_size=36), bots=False)
    net = table.net
    assert net.run(lambda: all(s.session.game is not None for s in table.seats), limit=30.0)
    table.seats[1].session._stop(1, 2, "not_held", "played a card it does not hold", net.now)
    assert net.run(lambda: all(1 in s.session.audits for s in table.seats), limit=60.0)
    before = table.seats[2].session.audits[1]
    records = json.loads(json.dumps(table.seats[2].journal))  # as the journal file keeps it
    restored = Session.restore(records, net.now, config=FAST)
    after = restored.audits[1]
    assert after.note is not None and after.note == before.note
    names = table.host.names
    assert after.note.say(names, RU).endswith("но проверка не находит нарушения")
    assert restored.outcomes.stops[1].note == table.seats[2].session.outcomes.stops[1].note


def test_the_json_line_keeps_its_english_and_adds_the_findings_code(russian: None) -> None:
    import json

    node = FailingNode(ValueError("нет сеанса"), ("Анна", "Борис"), None)
    peer = _peer(["--name", "Me", "--bot", "random", "--json"], node)
    verdict = Verdict.of(False, "refused", Note.of("no_keys", seat=Seat(1)), ("Анна", "Борис"),
                         1)
    peer.step(ev.GameAudited(1, 1, False, verdict.text, verdict.code, 1, "", "", 0.0,
                             note=verdict.note))
    (record,) = [json.loads(line) for line in peer.out.getvalue().splitlines()]
    assert (record["audit"], record["code"], record["culprit"], record["finding"]) == (
        "Борис did not publish its keys for the audit", "refused", 1, "no_keys")
    assert "игра 1: проверка: Борис не опубликовал свои ключи для проверки" in (
        peer.err.getvalue())


def test_a_rules_engine_reason_in_a_verdict_names_seats_and_the_notebook_translates_it() -> None:
    from durak_core import parse_action
    from durak_net.notes import Rule
    from durak_widgets.i18n import speaking
    from durak_widgets.words import say_note

    note = Note.of("cheated", culprit=Seat(0), detail=Note.of(
        "illegal_entry", index=3, move=parse_action("0 take"),
        reason=Rule("Only the defender, player 1, can take.")))
    assert note.say(NAMES) == ("Анна cheated: sent entry 3 (take), which is illegal: Only the "
                               "defender, Борис, can take.")
    assert note.say(NAMES, RU) == ("Анна сжульничал: прислал запись 3 (take) не по правилам: "
                                   "Only the defender, Борис, can take.")  # the terminal's
    with speaking("ru"):
        assert say_note(note, "", NAMES) == ("Анна сжульничал: прислал запись 3 (take) не по "
                                             "правилам: Брать может только защищающийся, Борис.")
    assert Note.from_json(note.to_json()) == note
