"""What a site page's kernel must show before it plays online (tests/e2e/
test_site_online_browser.py runs it in Ben's page, one Pyodide start for both).

One click to a tutorial: the README's address of the rules tour opens it in the site's
JupyterLab, its first heading on the screen, and its helpers run in the page's own Python
(tests/lite checks that the site's Lab lists every notebook the README gives an address
for; the address is the same for each).

The site's kernel deals with libsodium: libsodium.js (libsodium's own WebAssembly build,
bundled into the site by scripts/lite_site.py) through Pyodide's JavaScript bridge, behind
the names the dealer takes from pysodium on a computer.  In a real browser cut off from
the network, the kernel computes what docs/lan-vectors.json says libsodium gives: every
card's point (hash-to-group), a seed's keys (scalar reduction), the three steps of a whole
two-seat deal (scalar multiplication, product, inversion), the deck opened, both hands, a
reveal checked, a non-point refused, the escrow's key conversion and boxes, and what
``cryptography`` does on a computer: the pairing's X25519 and HKDF and the seats' Ed25519
signatures (durak_net/primitives.py; tests/net/sodium_check.py, the same code that runs
over pysodium in tests/net).  Everything came from the local server.
"""

from __future__ import annotations

import json
import re

from browser_support import REPO_ROOT, OfflineContext, open_lite_notebook, run_in_site_kernel
from playwright.sync_api import Page, expect

CHECK = REPO_ROOT / "tests" / "net" / "sodium_check.py"
VECTORS = REPO_ROOT / "docs" / "lan-vectors.json"

#: How the README names each notebook's page in the site (tests/notebooks checks that it
#: lists play.ipynb and every tutorial, each a notebook the site serves).
README_LINK = re.compile(r"`(lab/index\.html\?path=([\w.-]+\.ipynb))`")
ACTIVE_NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
#: The tutorial opened by its README link.
TUTORIAL = "01-rules-tour.ipynb"


def open_tutorial_by_its_readme_link(page: Page, site_url: str) -> None:
    """Open the rules tour at the README's address; its heading shows, its kernel is
    ready and runs the tutorial's helpers."""
    links = dict((name, link) for link, name in README_LINK.findall(
        (REPO_ROOT / "README.md").read_text(encoding="utf-8")))
    notebook = json.loads((REPO_ROOT / "notebooks" / TUTORIAL).read_text(encoding="utf-8"))
    title = "".join(notebook["cells"][0]["source"]).splitlines()[0].lstrip("# ")
    page.goto(f"{site_url}{links[TUTORIAL]}")
    expect(page.locator(f"{ACTIVE_NOTEBOOK} h1").first).to_contain_text(title, timeout=90_000)
    open_lite_notebook(page, site_url, TUTORIAL, timeout=240)  # the same address; the kernel
    printed = run_in_site_kernel(page, (
        "from durak_widgets.tutorial import deal, show\n"
        "show(deal(['6♥ 9♠ 10♥ J♣ Q♦ K♠', '7♠ 10♠ 9♦ 8♥ A♥ K♣'], trump='9♥'))"))
    assert printed.startswith("player 0 may: attack"), printed


def check_sodium_vectors(page: Page, context: OfflineContext) -> None:
    """The page's kernel computes docs/lan-vectors.json with libsodium.js, fetched from
    the site itself (``context``: the page's offline context)."""
    # A first use without an await: a notebook cell can block until the library loads.
    first = run_in_site_kernel(page, (
        "import sys\n"
        "from durak_net import mental\n"
        "print(sys.platform, mental.card_point(0).hex(), type(mental.sodium()).__name__)\n"
    ), timeout=120)
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert first.split() == ["emscripten", vectors["cards"][0]["point"], "LibsodiumJs"]

    # The vectors, through what the deal uses (awaiting the library, as a table does).
    wanted = {k: vectors[k] for k in ("cards", "seed_derivations", "deal", "escrow",
                                      "pairing", "signatures")}
    code = (
        CHECK.read_text(encoding="utf-8")
        + "\nimport json, sys\nfrom durak_net import mental\n"
        + "await mental.load_sodium()\n"
        + f"results = check(json.loads({json.dumps(json.dumps(wanted))}))\n"
        + "from durak_net import primitives\n"
        + "print(json.dumps({'results': results, 'pysodium': 'pysodium' in sys.modules,\n"
        + "                  'backend': primitives.backend()}))\n"
    )
    out = json.loads(run_in_site_kernel(page, code, timeout=180).strip().splitlines()[-1])
    assert out["results"] == dict.fromkeys(out["results"], True), out["results"]
    assert len(out["results"]) >= 10
    assert {"x25519 shared", "session key", "ed25519 signature"} <= set(out["results"])
    assert out["pysodium"] is False
    assert out["backend"] == "libsodium"  # no cryptography in the page

    # libsodium.js came from the site itself, and nothing tried to leave this machine.
    fetched = {url.split("?")[0].rsplit("/", 1)[-1] for _, url in context.requests}
    assert {"libsodium-wrappers.mjs", "libsodium-sumo.mjs"} <= fetched
    assert context.blocked == [], f"the site tried to reach: {context.blocked}"
