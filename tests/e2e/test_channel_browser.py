"""The page's WebRTC data channel alone: two JupyterLab tabs (two kernels), offline.

Each tab's notebook shows a :class:`~durak_widgets.channel.PageChannel` with a bare
harness around it (a text box with the page's description, one for the other's, a
button): the test copies the inviter's description into the other tab and the answer
back, as two people would paste codes, and then datagrams sent by one kernel arrive at
the other kernel, having crossed both pages and the data channel between them.  With
the inviter's notebook open in a second tab too, that tab shows the channel as open
elsewhere and the first keeps carrying it.  No network beyond this machine (no ICE
servers), nothing but the pages' DOM is read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import (
    PATH_CELL,
    LabTabs,
    open_notebook_in_lab,
    run_cell_source,
    run_notebooks_in_lab,
    write_notebook,
)
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The harness: a channel (the inviter's at once, the invited one's when "go" is
#: clicked with the offer pasted), its local description, the state, what arrived.
HARNESS = '''
import ipywidgets as w
import traitlets
from durak_widgets.channel import PageChannel

got = []
local, remote = w.Textarea(), w.Textarea()
go, send = w.Button(description="go"), w.Button(description="send")
seen, state = w.HTML(), w.HTML()
for widget, name in ((local, "local"), (remote, "remote"), (go, "go"), (send, "send"),
                     (seen, "seen"), (state, "state")):
    widget.add_class("t-" + name)
box = w.VBox([local, remote, go, send, seen, state])
ch = None


def attach(channel):
    global ch
    ch = channel
    traitlets.dlink((ch, "local"), (local, "value"))
    traitlets.dlink((ch, "state"), (state, "value"))

    def arrived(data):
        got.append(data.decode())
        seen.value = " ".join(sorted(got))

    ch.on_datagram = arrived
    ch.elsewhere = "open in another tab"
    box.children = (*box.children, ch)


def on_go(_button):
    if ROLE == "offer":
        ch.answer_with(remote.value)
    else:
        attach(PageChannel(role="answer", remote=remote.value, ice_servers=[]))


go.on_click(on_go)
send.on_click(lambda _b: [ch.send_datagram(f"{NAME}{i}".encode()) for i in range(5)])
if ROLE == "offer":
    attach(PageChannel(role="offer", ice_servers=[]))
box
'''


def _notebook(root: Path, name: str, role: str) -> str:
    relative = f"channel/{name.lower()}.ipynb"
    write_notebook(root / relative,
                   [PATH_CELL, f"ROLE, NAME = {role!r}, {name!r}\n" + HARNESS])
    return relative


def _paste(page, text: str) -> None:  # type: ignore[no-untyped-def]
    page.locator(".t-remote textarea").fill(text)
    page.locator(".t-go").click()


def test_datagrams_sent_by_one_kernel_arrive_at_the_other_through_both_pages(
    jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs
) -> None:
    ann, ben, again = lab_tabs.take(3)
    run_notebooks_in_lab([(ann, _notebook(lab_root_dir, "Ann", "offer")),
                          (ben, _notebook(lab_root_dir, "Ben", "answer"))],
                         jupyterlab_server)
    offer = ann.locator(".t-local textarea")
    expect(offer).to_have_value(re.compile(r"^v=0"), timeout=60_000)
    _paste(ben, offer.input_value())
    answer = ben.locator(".t-local textarea")
    expect(answer).to_have_value(re.compile(r"^v=0"), timeout=60_000)
    _paste(ann, answer.input_value())
    for page in (ann, ben):
        expect(page.locator(".t-state")).to_have_text("open", timeout=60_000)
        expect(page.locator(".durak-rtc")).to_have_attribute("data-state", "open")
    ann.locator(".t-send").click()
    expect(ben.locator(".t-seen")).to_have_text("Ann0 Ann1 Ann2 Ann3 Ann4", timeout=30_000)
    ben.locator(".t-send").click()
    expect(ann.locator(".t-seen")).to_have_text("Ben0 Ben1 Ben2 Ben3 Ben4", timeout=30_000)
    # Ann's notebook in a second tab (the same kernel): that page shows the channel as
    # open elsewhere, and Ann's first page keeps it.
    open_notebook_in_lab(again, jupyterlab_server, "channel/ann.ipynb")
    run_cell_source(again, 1, "ch")
    expect(again.locator(".durak-rtc")).to_have_class(re.compile("durak-rtc-elsewhere"),
                                                     timeout=60_000)
    expect(again.locator(".durak-rtc")).to_have_text("open in another tab")
    expect(ann.locator(".durak-rtc")).not_to_have_class(re.compile("durak-rtc-elsewhere"))
    ann.locator(".t-send").click()  # still through Ann's first page
    expect(ben.locator(".t-seen")).to_have_text(
        "Ann0 Ann0 Ann1 Ann1 Ann2 Ann2 Ann3 Ann3 Ann4 Ann4", timeout=30_000)
