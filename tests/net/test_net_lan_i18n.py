"""The LAN lobby and table speak Russian too (``lan(..., lang="ru")``): every text a
person reads from the first lobby screen to the audited end of a game, at a game of two
and at a hosted table of three, is Russian (names aside).

As in test_net_lan_widgets.py, each lobby has a ``Handoff(mode="manual")`` that the test
pumps, over UDP on localhost; bots play every seat, seeded.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from widgets.test_i18n import _everything_shown, text_of

from durak_core import Rules
from durak_widgets import lan
from durak_widgets.handoff import Handoff
from durak_widgets.lan import LanLobby

from .test_net_lan_widgets import pump_until
from .test_net_udp import free_udp_port

pytestmark = pytest.mark.waits

LATIN = re.compile(r"[A-Za-z]")
#: Latin a Russian screen may show: what the network names (bots' seat names), and
#: the technical words a person types (PIN, connect=HOST:PORT).  The pairing and table
#: words are a code both screens compare, whatever language each speaks: not words to
#: translate (taken out by :func:`english_in`).
NOT_WORDS = re.compile(r"random bot|greedy bot|connect=HOST:PORT|PIN")


def lobby_texts(lobby: LanLobby) -> list[str]:
    """Every text the lobby shows now (shown or hidden: a hidden text is still the
    lobby's language), the table's included."""
    texts = [lobby.title.value, lobby.status.value, lobby.sas_label.value, lobby.badge.value,
             lobby.table_words.value, lobby.seating.title.value, lobby.seating.hint.value,
             lobby.leave_button.description, lobby.same_button.description,
             lobby.differ_button.description, lobby.seating.start_button.description]
    for _row, label, choice, add in lobby.seating.rows:
        texts += [label.value, add.description, *(str(o[0]) for o in choice.options)]
    for row in lobby._peer_rows.values():
        texts += [row[1].value, *(b.description for b in row[2:5]), row[5].description]
    seen = [text_of(t) for t in texts]
    if lobby.controller is not None:
        seen += _everything_shown(lobby.controller)
    return seen


def english_in(seen: set[str], lobbies: list[LanLobby]) -> list[str]:
    """The texts with English left once names and codes are taken out."""
    codes = {w for lb in lobbies for w in lb.sas.split()}
    for lb in lobbies:
        view = lb.node.view(lb.sid) if lb.sid is not None else None
        codes |= set(view.table_words.split()) if view is not None else set()
        codes |= {w for _name, words in lb.seat_words.values() for w in words.split()}

    def rest(text: str) -> str:
        words = NOT_WORDS.sub("", text).split()
        return " ".join(w for w in words if w.strip("<>:.,()") not in codes)

    return sorted(t for t in seen if LATIN.search(rest(t)))


def play_watching(lobbies: list[LanLobby], seen: set[str]) -> None:
    """Pump until every table's game is audited, noting each text shown on the way."""

    def done() -> bool:
        for lobby in lobbies:
            seen.update(lobby_texts(lobby))
        return all(lb.backend is not None and lb.backend.verdicts for lb in lobbies)

    pump_until(lobbies, done, timeout=60)
    for lobby in lobbies:
        seen.update(lobby_texts(lobby))


def make(name: str, port: int, **kw: Any) -> LanLobby:
    return lan(name, port=port, handoff=Handoff(mode="manual"), journal_dir=None, lang="ru",
               **kw)


def test_a_game_of_two_on_the_lan_reads_in_russian_from_the_lobby_to_the_audit() -> None:
    port = free_udp_port()
    anya = make("Аня", port, bot="random", seed=1, auto_accept=True)
    boris = make("Борис", port, bot="random", seed=2, invite="Аня")
    try:
        seen: set[str] = set(lobby_texts(anya))
        assert "Ищем игроков в локальной сети…" in seen
        play_watching([anya, boris], seen)
        assert english_in(seen, [anya, boris]) == []
        badge = text_of(anya.badge.value)
        assert "руки скрыты · проверено" in badge and "проверено: честно" in badge
        assert any("слова сверки" in t.lower() for t in seen)
        assert any(t.startswith("— игра 1: карты розданы") for t in seen)
        assert anya.controller is not None and anya.controller.lang == "ru"
    finally:
        anya.close()
        boris.close()


def test_a_hosted_table_of_three_reads_in_russian_without_seat_numbers() -> None:
    port = free_udp_port()
    anya = make("Аня", port, table=Rules(players=3), add_bots=["greedy"], bot="random",
                seed=3)
    try:
        rows = [text_of(r[1].value) for r in anya.seating.rows[:3]]
        assert rows == ["Аня (вы, хозяин стола)", "greedy bot (бот, работает в вашем ядре)",
                        "свободное место"]
        assert text_of(anya.seating.title.value) == "Ваш стол · занято мест: 2 из 3"
        boris = make("Борис", port, join="Аня", bot="random", seed=4,
                     connect=f"127.0.0.1:{anya.node.game_port}")
        try:
            pump_until([anya, boris], lambda: not anya.seating.start_button.disabled)
            seen = set(lobby_texts(anya)) | set(lobby_texts(boris))
            assert "Все на местах: нажмите «Начать», чтобы раздать." in seen
            anya.seating.start_button.click()
            play_watching([anya, boris], seen)
            assert english_in(seen, [anya, boris]) == []
            assert not any(re.search(r"\d+ (attack|defend|pass|take)", t) for t in seen)
            assert not any(re.search(r"(?i)место \d|seat \d", t) for t in seen)
            assert any("Все игроки открывают ключи" in t for t in seen)
        finally:
            boris.close()
    finally:
        anya.close()


def test_a_declined_invitation_says_why_in_russian() -> None:
    """A reason our own programs send (here "declined") reads in the table's language."""
    port = free_udp_port()
    anya = make("Аня", port)
    boris = make("Борис", port)
    try:
        pump_until([anya, boris], lambda: bool(boris.peers))
        boris.invite("Аня")
        pump_until([anya, boris], lambda: bool(anya.incoming))
        anya.decline()
        pump_until([anya, boris], lambda: "отказ" in boris.status.value)
        assert english_in({text_of(boris.status.value)}, [anya, boris]) == []
    finally:
        anya.close()
        boris.close()


def test_an_older_program_on_the_lan_is_said_in_russian_in_the_lobby() -> None:
    """A peer speaking an older protocol shows in the list with why it cannot play, in
    the lobby's language (the lobby's sentence, said back by each screen)."""
    from durak_net import events as ev
    from durak_net.notes import OLDER_PEER

    anya = make("Аня", free_udp_port())
    try:
        old = ev.PeerInfo(99, "Старик", ("10.0.0.9", 40000), {},
                          incompatible=OLDER_PEER.format(version=2))
        anya._on_event(ev.PeerSeen(old, 0.0))
        (label,) = [text_of(row[1].value) for row in anya._peer_rows.values()
                    if "Старик" in row[1].value]
        assert "старая версия программы (протокол локальной сети 2)" in label, label
        assert english_in({label}, [anya]) == [], label
    finally:
        anya.close()
