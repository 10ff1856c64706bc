"""Chromium and aiortc accept the descriptions that invitation and reply codes expand
to (docs/lan-protocol.md, section 14): Chromium's own offer goes through a code to a
second connection in the page and to aiortc, their answers come back through codes, and
the data channel (``durak``, unordered, no retransmits) carries a message both ways.

Chromium runs in a network namespace of its own with one veth interface and a default
route (without a route it gathers no candidate), through a wrapper that ``ip netns
exec``s it; aiortc runs in the same namespace.  Its Playwright runs on a thread of its
own, so it does not meet the shared browser of the other browser tests (Playwright's
sync API allows one instance per thread).  It needs no JupyterLab, so the file is not
named like the browser tests that share one (conftest.py puts those on one worker).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from durak_net import online_code

from .test_net_udp import peer_env

pytestmark = [pytest.mark.browser, pytest.mark.netns, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
HERE = Path(__file__).resolve().parent

#: The page's side: a connection that offers the channel (or answers one), every
#: description only once its candidates are gathered, as a code needs them.
PAGE_JS = """
window.gathered = (pc) => new Promise((done) => {
  if (pc.iceGatheringState === 'complete') return done();
  pc.addEventListener('icegatheringstatechange',
                      () => pc.iceGatheringState === 'complete' && done());
});
window.received = [];
window.listen = (ch, name) => {
  ch.binaryType = 'arraybuffer';
  ch.onmessage = (e) => {
    window.received.push(name + ' <- ' + new TextDecoder().decode(e.data));
    if (name === 'answerer') ch.send(new TextEncoder().encode('pong'));
  };
};
window.offer = async () => {
  const pc = new RTCPeerConnection({iceServers: []});
  window.offerer = pc;
  const ch = pc.createDataChannel('durak', {ordered: false, maxRetransmits: 0});
  window.listen(ch, 'offerer');
  ch.onopen = () => ch.send(new TextEncoder().encode('ping'));
  await pc.setLocalDescription(await pc.createOffer());
  await window.gathered(pc);
  return pc.localDescription.sdp;
};
window.answer = async (sdp) => {
  const pc = new RTCPeerConnection({iceServers: []});
  window.answerer = pc;
  pc.ondatachannel = (e) => {
    window.channel = [e.channel.label, e.channel.ordered, e.channel.maxRetransmits];
    window.listen(e.channel, 'answerer');
  };
  await pc.setRemoteDescription({type: 'offer', sdp});
  await pc.setLocalDescription(await pc.createAnswer());
  await window.gathered(pc);
  return pc.localDescription.sdp;
};
window.complete = (sdp) => window.offerer.setRemoteDescription({type: 'answer', sdp});
"""


def _ip(*args: str) -> None:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {proc.stderr.strip()}")


@contextlib.contextmanager
def routed_namespace(tmp: Path) -> Iterator[tuple[str, str]]:
    """A namespace with one veth interface (10.79.0.1/24) and a default route through
    it; yields its name and a Chromium that runs inside it; deleted on the way out."""
    ns = f"dkw{os.getpid() % 1000:03d}{random.randrange(100):02d}"
    _ip("netns", "add", ns)
    try:
        _ip("-n", ns, "link", "add", "web0", "type", "veth", "peer", "name", "web1")
        _ip("-n", ns, "addr", "add", "10.79.0.1/24", "dev", "web0")
        for link in ("web0", "web1", "lo"):
            _ip("-n", ns, "link", "set", link, "up")
        _ip("-n", ns, "route", "add", "default", "dev", "web0")
        wrapper = tmp / "chromium-in-namespace"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {ns} {CHROMIUM} "$@"\n')
        wrapper.chmod(0o755)
        yield ns, str(wrapper)
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def _in_browser(executable: str, work: Callable[[Any], None]) -> None:
    """Run ``work(page)`` on a blank page of a Chromium of its own, on a thread of its
    own; its exception, if any, is raised here."""
    failure: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        from tests.e2e.browser_support import CHROMIUM_ARGS

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable,
                                                     headless=True, args=list(CHROMIUM_ARGS))
                try:
                    page = browser.new_page()
                    page.goto("about:blank")
                    page.add_script_tag(content=PAGE_JS)
                    work(page)
                finally:
                    browser.close()
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(240)
    assert not thread.is_alive(), "the browser work did not end in 240 s"
    if failure:
        raise failure[0]


@pytest.fixture
def chromium_in_namespace(tmp_path: Path) -> Iterator[tuple[str, str]]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs Chromium at {CHROMIUM}")
    if shutil.which("ip") is None:
        pytest.skip("needs the ip tool")
    with routed_namespace(tmp_path) as found:
        yield found


def _through_code(sdp: str, kind: str) -> str:
    """What the other side gets: the description packed into a code and expanded."""
    code = online_code.pack_description(sdp, kind, now=time.time())
    assert code.isalnum() and len(code) < 160, code
    got_kind, expanded = online_code.unpack_description(code, now=time.time())
    assert got_kind == kind
    return expanded


def test_two_chromium_connections_open_the_channel_through_codes(
        chromium_in_namespace: tuple[str, str]) -> None:
    _, chromium = chromium_in_namespace

    def work(page: Any) -> None:
        offer = page.evaluate("window.offer()")
        # What Chromium writes reduces to what ICE and DTLS need: mDNS host candidates.
        reduced = online_code.parse_sdp(offer, "offer")
        assert reduced.candidates and all(c.address.endswith(".local")
                                          for c in reduced.candidates)
        answer = page.evaluate("(sdp) => window.answer(sdp)", _through_code(offer, "offer"))
        page.evaluate("(sdp) => window.complete(sdp)", _through_code(answer, "answer"))
        page.wait_for_function("window.received.length >= 2", timeout=30_000)
        assert sorted(page.evaluate("window.received")) == ["answerer <- ping",
                                                            "offerer <- pong"]
        assert page.evaluate("window.channel") == ["durak", False, 0]

    _in_browser(chromium, work)


def test_aiortc_answers_chromium_through_codes_and_chromium_takes_its_reply(
        chromium_in_namespace: tuple[str, str]) -> None:
    ns, chromium = chromium_in_namespace
    echo = subprocess.Popen(
        ["ip", "netns", "exec", ns, sys.executable, str(HERE / "rtc_echo.py")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=peer_env())

    def work(page: Any) -> None:
        assert echo.stdin is not None and echo.stdout is not None
        offer = page.evaluate("window.offer()")
        echo.stdin.write(online_code.pack_description(offer, "offer", now=time.time()) + "\n")
        echo.stdin.flush()
        reply = echo.stdout.readline()
        kind, answer = online_code.unpack_description(reply, now=time.time())
        assert kind == "answer" and "a=setup:active" in answer
        page.evaluate("(sdp) => window.complete(sdp)", answer)
        page.wait_for_function("window.received.length >= 1", timeout=30_000)
        assert page.evaluate("window.received") == ["offerer <- echo: ping"]

    try:
        _in_browser(chromium, work)
        assert echo.stdin is not None
        echo.stdin.close()
        assert echo.wait(timeout=30) == 0
        assert echo.stderr is not None
        assert "channel durak ordered=False maxRetransmits=0" in echo.stderr.read()
    finally:
        if echo.poll() is None:
            echo.kill()
            echo.wait()
