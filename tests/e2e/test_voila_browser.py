"""The play notebook as a Voila app: the table only, no code, the same widgets.

`bash scripts/play.sh --app` is started for real (on a free port) and must show the
shipped notebook's table without any code (neither its code cell nor the examples in
its text); a seeded notebook served by the
same `voila` command is then played against the random bot by clicking, to the end; and
a page that misses the bot's first lead while it loads the table still shows it.
Screenshots land in tests/e2e/artifacts/; the app's one is copied to docs/img/voila.png
when that is missing or DURAK_UPDATE_SCREENSHOT=1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
# Looked up, not imported: importing voila takes seconds, in every pytest worker that
# collects this file, and the tests only start its command.
if importlib.util.find_spec("voila") is None:
    pytest.skip("the Voila app needs the [app] extra", allow_module_level=True)

from browser_support import (
    PATH_CELL,
    REPO_ROOT,
    TABLE_ROOT,
    TABLE_STATUS,
    OfflineContext,
    free_port,
    play_game_by_clicking,
    running_server,
    voila_command,
    write_notebook,
)
from playwright.sync_api import Page, expect

psutil = pytest.importorskip("psutil", reason="the app's tests read its server process")

pytestmark = pytest.mark.browser

README_IMAGE = REPO_ROOT / "docs" / "img" / "voila.png"
#: A whole game by clicking in the app, from 24 cards: the app is tested, not a long game.
SEEDED_GAME = ("from durak_core import Rules\nfrom durak_widgets import play\n\n"
               "play(opponents=['random'], rules=Rules(deck_size=24), seed=3, delay=0)")
#: A table whose bot (seed 1: it leads) moves at the worst moment for a page loading it,
#: as on a loaded machine.  Voila's page asks for every widget's state at once and gives
#: up after 4 s; then it asks widget by widget and listens to none of them until all have
#: answered.  Here the first request goes unanswered (its answer would come too late),
#: and the bot leads just after the status line has answered: the status line, the
#: table's cards and more miss the lead, as they did in CI after a reload.
LATE_LEAD_GAME = """\
import threading

from ipywidgets.widgets.widget import Widget

from durak_core.bots import RandomBot
from durak_widgets import play

answered = threading.Event()


class AfterTheStatusAnswered(RandomBot):
    def choose(self, observation, legal):
        answered.wait(120)
        return super().choose(observation, legal)


def unanswered(cls, msg):
    pass


Widget._handle_control_comm_msg = classmethod(unanswered)
answer = Widget._handle_msg


def answer_then_lead(widget, msg):
    answer(widget, msg)
    if widget is table.view.status:
        answered.set()


Widget._handle_msg = answer_then_lead
table = play(opponents=[AfterTheStatusAnswered(seed=1)], seed=1, delay=0)
table"""


def _play_sh_app(port: int, *settings: str) -> list[str]:
    return ["bash", str(REPO_ROOT / "scripts" / "play.sh"), "--app", "--no-browser",
            f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", *settings]


@pytest.fixture(scope="module")
def app_url(artifacts_dir: Path) -> Iterator[str]:
    """`bash scripts/play.sh --app` on a free port: the shipped play notebook."""
    port = free_port()
    with running_server(_play_sh_app(port), f"http://127.0.0.1:{port}/",
                        artifacts_dir / "voila-play-sh.log") as url:
        yield url


@pytest.fixture(scope="module")
def seeded_apps(tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Iterator[str]:
    """One `voila` serving the seeded notebooks as apps: ``<url>voila/render/<name>``."""
    folder = tmp_path_factory.mktemp("voila")
    write_notebook(folder / "seeded.ipynb", [PATH_CELL, SEEDED_GAME])
    write_notebook(folder / "late_lead.ipynb", [PATH_CELL, LATE_LEAD_GAME])
    port = free_port()
    with running_server(voila_command(folder, port), f"http://127.0.0.1:{port}/",
                        artifacts_dir / "voila-seeded.log", cwd=folder) as url:
        yield url


def test_play_sh_app_shows_the_table_and_no_code(
    app_url: str, browser_page: Page, artifacts_dir: Path
) -> None:
    page = browser_page
    page.goto(app_url)
    expect(page.locator(f"{TABLE_STATUS}.durak-your-move")).to_contain_text(
        re.compile(r"Your (lead|move)"), timeout=90_000
    )
    expect(page.locator(f"{TABLE_ROOT} .durak-hand button.durak-card:visible")).to_have_count(6)
    # An app, not a notebook: no code cell, no source text of the notebook.
    expect(page.locator(".cm-content, .jp-InputPrompt, pre")).to_have_count(0)
    text = page.locator("body").inner_text()
    assert "import" not in text and "play(" not in text, text
    expect(page.get_by_role("heading", level=1)).to_have_accessible_name("Durak")
    # A closed tab's kernel goes once idle for two minutes (see the reload test below).
    log = (artifacts_dir / "voila-play-sh.log").read_text()
    assert "Culling kernels with idle durations > 120 seconds" in log
    # That came from the app's own config file, which also gives its kernel websocket
    # TCP_NODELAY (durak_server.websocket).
    server = psutil.Process(_server_pid(int(app_url.rstrip("/").rsplit(":", 1)[1])))
    config_dir = server.environ()["JUPYTER_CONFIG_PATH"].split(os.pathsep)[0]
    config = json.loads((Path(config_dir) / "voila.json").read_text())
    assert config["MappingKernelManager"]["cull_idle_timeout"] == 120
    assert config["Voila"]["kernel_websocket_connection_class"] == (
        "durak_server.websocket.NoDelayWebsocketConnection")
    path = artifacts_dir / "voila_app.png"
    page.screenshot(path=str(path), full_page=True)
    if not README_IMAGE.exists() or os.environ.get("DURAK_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(path, README_IMAGE)


def test_voila_app_plays_a_whole_game_by_clicking(
    seeded_apps: str, browser_page: Page, artifacts_dir: Path
) -> None:
    page = browser_page
    page.goto(f"{seeded_apps}voila/render/seeded.ipynb")
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=90_000)
    clicks = play_game_by_clicking(page, timeout=120)
    expect(page.locator(f"{TABLE_ROOT} .durak-banner")).to_contain_text(re.compile(r"durak|draw"))
    expect(page.locator(TABLE_STATUS)).to_contain_text("Game over")
    expect(page.locator(f"{TABLE_ROOT} .durak-score")).to_contain_text("games 1")
    assert clicks >= 5
    page.screenshot(path=str(artifacts_dir / "voila_game_over.png"), full_page=True)


def test_a_page_that_misses_the_first_lead_while_loading_still_shows_it(
    seeded_apps: str, browser_page: Page
) -> None:
    page = browser_page
    page.goto(f"{seeded_apps}voila/render/late_lead.ipynb")
    # Drawn, the table asks its kernel for its whole state again (durak_widgets.keys).
    status = page.locator(f"{TABLE_STATUS}.durak-your-move")
    expect(status).to_contain_text("Your move: beat the cards", timeout=90_000)
    expect(page.locator(f"{TABLE_ROOT} .durak-live")).to_contain_text("random leads")
    expect(page.locator(f"{TABLE_ROOT} .durak-table .durak-attack").first).to_be_visible()
    expect(page.locator(f"{TABLE_ROOT} .durak-table-empty")).to_be_hidden()
    expect(page.locator(f"{TABLE_ROOT} .durak-btn-take")).to_be_visible()
    expect(page.locator(TABLE_STATUS)).not_to_contain_text("thinking")


def test_the_app_asks_nothing_of_any_other_machine(
    app_url: str, offline: OfflineContext, offline_page: Page
) -> None:
    # Voila's template links Font Awesome from a CDN; the app's pages forbid it.
    offline_page.goto(app_url)
    expect(offline_page.locator(f"{TABLE_STATUS}.durak-your-move")).to_be_visible(
        timeout=90_000
    )
    offline_page.reload()
    expect(offline_page.locator(f"{TABLE_STATUS}.durak-your-move")).to_be_visible(
        timeout=90_000
    )
    assert offline.blocked == [], f"the app tried to reach: {offline.blocked}"
    assert any("/api/kernels/" in url for _, url in offline.requests)


def _kernels_of(server_pid: int) -> int:
    """How many kernels the server runs: its child processes (Voila lists none)."""
    return len(psutil.Process(server_pid).children())


#: Reloads of the app in the test below: each leaves a kernel behind until it is culled,
#: so without the culling there would be RELOADS + 1 kernels, above the bound of 2 (each
#: reload starts a kernel and draws a table: more of them only cost the suite's time; two
#: leave three kernels started, one more than the bound, and the culler must end one).
RELOADS = 2


@pytest.mark.slow
def test_reloads_leave_a_bounded_number_of_kernels(
    browser_page: Page, artifacts_dir: Path
) -> None:
    # A reload's old kernel is not shut down by the page (voila#1458), so play.sh culls
    # kernels that are idle with no page connected; its two minutes are two seconds here.
    port = free_port()
    env = dict(os.environ, DURAK_APP_IDLE_SECONDS="2")
    with running_server(_play_sh_app(port), f"http://127.0.0.1:{port}/",
                        artifacts_dir / "voila-reloads.log", env=env) as url:
        server = _server_pid(port)
        page = browser_page
        page.goto(url)
        for _ in range(RELOADS):
            expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=90_000)
            page.reload()
        expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=90_000)
        # Waited for on the server's own word: its log names each kernel it started and
        # each it shut down (after the culler's "Culling ..." line), and the culler runs
        # every second on its own clock.  Only the processes count as the bound's proof,
        # once the log says the culling is done; the deadline is generous, for a loaded
        # machine (the wait ends as soon as both agree).
        log = artifacts_dir / "voila-reloads.log"
        deadline = time.monotonic() + 180
        while True:
            started, stopped = _kernels_logged(log)
            live = [kernel for kernel in started if kernel not in stopped]
            count = _kernels_of(server)
            if (len(live) <= 2 and count <= 2) or time.monotonic() > deadline:
                break
            page.wait_for_timeout(250)
        assert len(started) >= RELOADS + 1, f"{len(started)} kernels started, log {log}"
        assert count <= 2 and len(live) <= 2, (
            f"{count} kernel processes, {len(live)} kernels not shut down after {RELOADS}"
            f" reloads; the culler said: {_culled(log)}")
        # The page open now kept its kernel, the last one started.
        assert started[-1] in live
        # The open page keeps its kernel: the table still answers.
        expect(page.locator(f"{TABLE_ROOT} .durak-hand button.durak-card")).to_have_count(6)


def _kernels_logged(log: Path) -> tuple[list[str], set[str]]:
    """The ids of the kernels the server's ``log`` says it started, in order, and of those
    it says it shut down."""
    text = log.read_text(errors="replace")
    return (re.findall(r"Kernel started: ([0-9a-f-]+)", text),
            set(re.findall(r"Kernel shutdown: ([0-9a-f-]+)", text)))


def _culled(log: Path) -> list[str]:
    """The culler's lines in the server's ``log`` (for a failure's message)."""
    return [line for line in log.read_text(errors="replace").splitlines() if "Culling" in line]


def _server_pid(port: int) -> int:
    """The process of this test's that listens on ``port`` (play.sh execs Voila in its own
    process).  Looked for among this process's children: listing every socket of the
    machine needs root on macOS."""
    for child in psutil.Process().children(recursive=True):
        try:
            listening = [c for c in child.net_connections(kind="tcp")
                         if c.status == psutil.CONN_LISTEN and c.laddr.port == port]
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if listening:
            return int(child.pid)
    raise AssertionError(f"no process of this test listens on port {port}")
