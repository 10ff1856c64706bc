"""The LAN tutorial's helpers (durak_widgets/tutorial_lan.py) read what a terminal peer
printed where it prints it, and let a cell await what the lobby does meanwhile."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

from durak_core import Rules
from durak_net import DealContext, MentalDealer
from durak_net.audit import audit
from durak_widgets import tutorial_lan


@pytest.fixture
def peer(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A stand-in for a started ``durak-lan`` process: only its pid and what it printed."""
    fake = SimpleNamespace(pid=-1)
    monkeypatch.setitem(tutorial_lan._OUTPUT, fake.pid, ([], [], []))
    return fake


def test_the_pairing_words_are_read_from_a_terminal_peers_stdout(peer: Any) -> None:
    out, _, _ = tutorial_lan._OUTPUT[peer.pid]
    assert tutorial_lan.pairing_words(peer) is None
    out += ['playing "Alice" (127.0.0.1:4000), session 1f, you were invited',
            'pairing words: robin flute thistle bubble ("Alice"\'s screen must show the same)']
    assert tutorial_lan.pairing_words(peer) == "robin flute thistle bubble"


def test_with_json_the_words_come_from_stderr_and_the_last_line_counts(peer: Any) -> None:
    out, err, _ = tutorial_lan._OUTPUT[peer.pid]
    out.append('{"state_hash": "ab"}')
    err += ["pairing words: one two three four (as when the session began)",
            "pairing words: five six seven eight (Alice's screen must show the same)"]
    assert tutorial_lan.said(peer, "pairing words: ") == (
        "five six seven eight (Alice's screen must show the same)")
    assert tutorial_lan.pairing_words(peer) == "five six seven eight"


def test_until_lets_the_event_loop_run_while_a_cell_waits() -> None:
    async def cell() -> list[str]:
        done: list[str] = []
        asyncio.get_running_loop().call_soon(done.append, "the lobby's event")
        await tutorial_lan.until(lambda: done, timeout=5.0)
        return done

    assert asyncio.run(cell()) == ["the lobby's event"]


def test_until_gives_up_with_a_timeout_error() -> None:
    with pytest.raises(TimeoutError):
        asyncio.run(tutorial_lan.until(lambda: False, timeout=0.0))


def test_the_delivery_shares_count_entries_at_or_under_the_bound() -> None:
    run: Any = SimpleNamespace(delays_ms=[1.0, 5.0, 5.1, 60.0])
    assert tutorial_lan.ROWS["entries delivered within 5 ms"](run) == "50.0%"
    assert tutorial_lan.ROWS["entries delivered within 50 ms"](run) == "75.0%"


def test_after_publish_seeds_each_dealer_holds_both_seeds_and_audits_the_deal_fair(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rng = random.Random(5)
    dealers = {name: MentalDealer(DealContext(sid=1, game=1, seat=seat, players=2,
                                              deck_size=36, entropy=rng.randbytes))
               for seat, name in enumerate(("Alice", "Bob"))}
    tutorial_lan.exchange(dealers)
    assert "trump round" in capsys.readouterr().out
    assert all(set(dealer.seeds) != {0, 1} for dealer in dealers.values())  # not yet
    tutorial_lan.publish_seeds(dealers)
    for dealer in dealers.values():
        assert set(dealer.seeds) == {0, 1}
        assert audit(dealer, Rules(), log=[], names=["Alice", "Bob"]).culprit is None
