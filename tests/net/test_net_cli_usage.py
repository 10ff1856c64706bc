"""``durak-lan --help`` and its usage errors read in the terminal's language (``--lang``,
else ``DURAK_LANG`` or ``LANG``): our help strings and checks through the ``durak_net``
catalog, argparse's own words ("usage:", "error:", "invalid int value") too, and English
left as it was; and what a session or the node refuses (``error: ...`` at the prompt) is
said in the reader's language while its ``str()`` stays English."""

from __future__ import annotations

import argparse
import gettext
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from durak_core import Game, Rules
from durak_net import i18n
from durak_net.botplay import build_bot
from durak_net.cli import _LINE, main
from durak_net.i18n import Reason, Refusal, Said, said
from durak_net.journal import read_journal
from durak_net.notes import OLDER_PEER
from durak_net.options import NOTEBOOK, LanOptions
from durak_net.peer import PeerCore
from durak_net.session import Session, SessionError
from durak_net.usage import CORE_WORDS, _pattern, argparse_speaks, language_asked, say_error

from .test_net_cli_events import FailingNode, _peer

#: What stays Latin in Russian: what a person types or reads as a name of a thing (an
#: option, a metavar, a value to type, a program, a protocol, a variable), never a
#: sentence's words.
TYPED = re.compile(
    r"--?[a-z][\w-]*|\b[A-Z][A-Z_:=,.]*\b(?:\.\.\.)?|\bdurak-lan\b|\b(?:ru|en)\b"
    r"|'[^']*'|\"[^\"]*\"|\b(?:random|greedy|ismcts|variant=perevodnoy,deck_size=24)\b"
    r"|\b(?:WebRTC|WebSocket|stdout|stderr|aiortc|pip install)\b|wss?://\S*|\w+:\S+"
    r"|\d+")
LATIN = re.compile(r"[A-Za-z]")


def english_words(text: str) -> list[str]:
    """The lines of ``text`` with Latin letters left once typed things are taken out."""
    return [line for line in text.splitlines() if LATIN.search(TYPED.sub("", line))]


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in ("DURAK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    yield
    i18n.use("en")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``durak-lan argv`` in this process: its exit status, stdout and stderr."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("how", ["--lang", "DURAK_LANG", "LANG"])
def test_help_reads_in_russian_however_russian_is_asked_for(
    how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = ["--help"]
    if how == "--lang":
        argv = ["--lang", "ru", "--help"]
    else:
        monkeypatch.setenv(how, "ru_RU.UTF-8")
    status, out, _err = run(argv, capsys)
    assert status == 0
    assert out.startswith("использование: durak-lan")
    for words in ("параметры:", "показать эту справку и выйти", "коды завершения:",
                  "имя, которое видят другие игроки", "играть через интернет (WebRTC)",
                  "сервер STUN или TURN"):
        assert words in out, words
    assert english_words(out) == []


def test_lang_on_the_command_line_wins_over_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DURAK_LANG", "ru")
    status, out, _err = run(["--lang=en", "--help"], capsys)
    assert status == 0 and out.startswith("usage: durak-lan") and "options:" in out


def test_help_stays_english_and_argparse_is_left_as_it_was(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run(["--lang", "ru", "--help"], capsys)
    assert vars(argparse)["_"] is gettext.gettext
    assert vars(argparse)["ngettext"] is gettext.ngettext
    status, out, _err = run(["--help"], capsys)
    assert status == 0 and out.startswith("usage: durak-lan")
    assert "options:" in out and "show this help message and exit" in out
    assert "exit status: 0 the games were played and every audit found them fair" in \
        " ".join(out.split())
    with argparse_speaks("en"):
        assert vars(argparse)["_"] is gettext.gettext


@pytest.mark.parametrize(("argv", "russian", "english"), [
    (["--port", "abc"], "durak-lan: ошибка: параметр --port: недопустимое значение: 'abc'",
     "durak-lan: error: argument --port: invalid int value: 'abc'"),
    (["--no-such-flag"], "непонятные аргументы: --no-such-flag",
     "unrecognized arguments: --no-such-flag"),
    (["--port"], "параметр --port: нужно одно значение",
     "argument --port: expected one argument"),
    (["--port", "99999"], "--port должен быть номером UDP-порта от 0 до 65535, а не 99999",
     "--port must be a UDP port number from 0 to 65535, not 99999"),
    (["--games", "0"], "--games должно быть не меньше 1", "--games must be at least 1"),
    (["--host", "9"], "--host принимает от 2 до 6 мест, а не 9",
     "--host takes 2 to 6 seats, not 9"),
    (["--clock", "30"], "--clock — для стола, который вы открываете: --host SEATS",
     "--clock is for a table you host: --host SEATS"),
    (["--host", "3", "--join", "Ann"], "выберите что-то одно: --host, --join и --invite",
     "choose one of --host, --join and --invite"),
    (["--pin", "12"], "в PIN-коде от 4 до 12 цифр", "a PIN has 4 to 12 digits"),
    (["--code", "abc"], "--code, --relay, --room и --ice-server — для --online",
     "--code, --relay, --room and --ice-server are for --online"),
    (["--online", "--join", "Ann"], "--join — для локальной сети",
     "--join is for the LAN"),
    (["--connect", "nowhere"], "нужно HOST:PORT (например, 10.0.0.5:40123), а не 'nowhere'",
     "expected HOST:PORT (e.g. 10.0.0.5:40123), not 'nowhere'"),
    (["--lang", "ru ru!"], None, "--lang takes a language code such as ru or en, not "
     "'ru ru!'"),
])
def test_a_bad_command_line_reads_in_russian_and_english_as_before(
    argv: list[str], russian: str | None, english: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _out, err = run(argv, capsys)
    assert status == 64 and english in err, err
    monkeypatch.setenv("DURAK_LANG", "ru")
    status, _out, err = run(argv, capsys)
    assert status == 64, err
    said_lines = [line for line in err.splitlines()
                  if not line.startswith(("использование:", " "))]
    assert said_lines == [said_lines[0]], err
    assert russian is None or russian in said_lines[0], err
    assert english_words(said_lines[0]) == [], err
    if russian is None:  # a --lang that is no language: the environment's Russian says so
        assert "--lang принимает код языка" in err


def test_lan_options_are_refused_in_the_tables_language() -> None:
    with pytest.raises(ValueError, match=r"^port должен быть номером UDP-порта"):
        LanOptions("Аня", port=70000, lang="ru").check(NOTEBOOK)
    with pytest.raises(ValueError, match=r"^clock — для стола, который вы открываете: "
                                         r"lan\(table=Rules"):
        LanOptions("Аня", clock=30, lang="ru").check(NOTEBOOK)
    with pytest.raises(ValueError, match=r"^port must be a UDP port number"):
        LanOptions("Ann", port=70000).check(NOTEBOOK)


def test_lang_is_read_off_the_command_line_before_the_parser() -> None:
    assert language_asked(["--name", "Ann", "--lang", "ru"]) == "ru"
    assert language_asked(["--lang=en", "--lan", "ru"]) == "ru"  # the last one, as argparse
    assert language_asked(["--loss", "0.1", "--l", "ru"]) is None  # --l: ambiguous
    assert language_asked(["--", "--lang", "ru"]) is None
    assert language_asked(["--lang"]) is None


# ---------------------------------------------------------------- refusals at the prompt


def _raised(call: object) -> BaseException:
    assert callable(call)
    try:
        call()
    except Exception as error:  # the refusal under test, whatever its kind
        return error
    raise AssertionError("no refusal")


def refusals() -> list[BaseException]:
    """What a session and the node really refuse, each from its own raise site."""
    host = Session.host_table(9, Rules(players=3), 0.0, name="Host")
    core = PeerCore("Doc", 0.0, entropy=random.Random(3).randbytes)
    table = core.host_table(Rules(players=2), 0.0)
    core.add_bot(table, 0.0, "random")
    return [
        _raised(lambda: host.start(0.0)),
        _raised(lambda: host.start_next_game(0.0)),
        _raised(lambda: core.invite("Nobody", 0.0)),
        _raised(lambda: core.add_bot(table, 0.0, "random")),
        _raised(lambda: core.host_table(Rules(players=2), 0.0, clock=9999)),
    ]


def test_what_a_session_or_the_node_refuses_is_english_for_programs() -> None:
    english = [str(error) for error in refusals()]
    assert english == [
        "every seat must be taken (and have said hello) first: 2 not yet",
        "the table has not started",
        "nobody called 'Nobody' is on the LAN",
        "no free seat",
        "the clock and the grace period are 0 to 3600 seconds",
    ]
    assert all(isinstance(error, Said) for error in refusals())
    assert isinstance(refusals()[0], SessionError) and isinstance(refusals()[2], ValueError)


def test_the_prompt_says_what_was_refused_in_russian() -> None:
    i18n.use("ru")
    for error in refusals():
        assert isinstance(error, Exception)
        node = FailingNode(error, ("Вы", "Анна"), Game.new(Rules(), seed=3))
        peer = _peer(["--name", "Me"], node)
        for line in ("start", "again", "invite Nobody", "bot"):
            peer.step((_LINE, line))
        said_lines = peer.out.getvalue().splitlines()
        assert len(said_lines) == 4 and all(s.startswith("ошибка: ") for s in said_lines)
        assert english_words("\n".join(said_lines)) == [], said_lines
        assert said_lines[0] == "ошибка: " + said(error)
    closed = SessionError(i18n.N_("the session is closed"))
    node = FailingNode(closed, ("Вы", "Анна"), Game.new(Rules(), seed=3))
    peer = _peer(["--name", "Me"], node)
    peer.step((_LINE, "take"))  # a move typed as the session closed under it
    assert peer.out.getvalue() == "ошибка: сеанс закрыт\n"
    assert str(closed) == "the session is closed"


def test_a_reason_from_the_network_is_said_within_a_refusal() -> None:
    """Inviting a peer of an older durak: the lobby's reason (OLDER_PEER, English in the
    event) is said in the reader's language inside the node's refusal."""
    error = Refusal(i18n.N_("{name} {reason}"), name="Bob",
                    reason=Reason(OLDER_PEER.format(version=3)))
    assert str(error) == ("Bob runs an older durak (LAN protocol 3); both players need the "
                          "same version")
    i18n.use("ru")
    assert said(error).startswith("Bob: у него старая версия программы (протокол локальной "
                                  "сети 3)")
    assert said(Refusal(i18n.N_("{name} {reason}"), name="Bob", reason=Reason("go away"))) \
        == "Bob: «go away»"  # another program's reason: quoted, as its own words


def _core_refusals() -> list[BaseException]:
    from durak_core.bots import make_bot

    def rules(**options: object) -> object:
        return lambda: Rules(**options)  # type: ignore[arg-type]

    calls = [rules(players=7), rules(deck_size=20), rules(players=6, deck_size=24),
             rules(variant="x"), rules(throw_in="x"), rules(first_bout_limit=9),
             rules(transfer_by_showing_trump=True), rules(players=3, teams=True),
             rules(bout_limit=0), rules(teams="yes"),
             lambda: Rules.from_dict({"foo": 1}), lambda: make_bot("nope"),
             lambda: make_bot("ismcts?x=1"), lambda: make_bot("random?oops")]
    return [_raised(call) for call in calls]


def test_every_settings_refusal_of_the_core_is_known_and_said_in_russian() -> None:
    """The core's English refusals of typed settings (``--rules``, ``--bot``) each match
    a template of CORE_WORDS (a new or reworded one fails here, so it gets its
    translation) and read in Russian."""
    errors = _core_refusals()
    assert all(any(_pattern(t).match(str(e)) for t in CORE_WORDS) for e in errors), \
        [str(e) for e in errors if not any(_pattern(t).match(str(e)) for t in CORE_WORDS)]
    i18n.use("ru")
    for error in errors:
        text = say_error(error)
        assert text != str(error)
        assert re.search("[а-я]", text), text
        # the sentence's own words are Russian; the settings' names and values stay typed
        assert not re.search(r"\b(must|need|needs|unknown|built|has no|bad|write|but|the|"
                             r"options are|its options|or|to|not)\b", text), text


def test_a_journal_that_cannot_be_resumed_says_why_in_russian(tmp_path: Path) -> None:
    damaged = tmp_path / "s.jsonl"
    damaged.write_text('{"t": "session"}\nnot json\n{"t": "x"}\n', encoding="utf-8")
    errors = [_raised(lambda: read_journal(damaged)),
              _raised(lambda: Session.restore([], 0.0)),
              _raised(lambda: Session.restore([{"t": "session", "version": 1}], 0.0))]
    assert [str(e).replace(str(damaged), "PATH") for e in errors] == [
        "PATH: line 2 is not JSON", "not a session journal (no header record)",
        "a journal of version 1 (this durak writes version 5); it cannot be resumed"]
    i18n.use("ru")
    assert [say_error(e).replace(str(damaged), "PATH") for e in errors] == [
        "PATH: строка 2 — не JSON", "это не журнал сеанса (нет заголовка)",
        "журнал версии 1 (эта программа пишет версию 5); его нельзя продолжить"]  # noqa: RUF001


def test_a_bot_the_prompt_cannot_seat_is_refused_in_russian() -> None:
    i18n.use("ru")
    node = FailingNode(_raised(lambda: build_bot("nope")), ("Вы", "Анна"),
                       Game.new(Rules(), seed=3))
    peer = _peer(["--name", "Me"], node)
    peer.step((_LINE, "bot nope"))
    assert peer.out.getvalue().startswith("ошибка: неизвестный бот 'nope'; встроенные: ")


def test_help_and_a_bad_command_line_load_no_node_and_no_session() -> None:
    """``durak-lan --help`` and a usage error answer without importing the node, the
    peer and their sessions (about a third of the program's start-up): those are
    imported where a peer is made.  A fresh interpreter, since this one has them."""
    import subprocess
    import sys

    probe = (
        "import contextlib, io, sys\n"
        "from durak_net.cli import main\n"
        "for argv in (['--help'], ['--games', '0']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        "        try:\n"
        "            status = main(argv)\n"
        "        except SystemExit as exit:\n"
        "            status = exit.code\n"
        "    print(status, sorted(m for m in ('durak_net.node', 'durak_net.peer', "
        "'durak_net.session') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split("\n")[:2] == ["0 []", "64 []"], done.stdout + done.stderr
