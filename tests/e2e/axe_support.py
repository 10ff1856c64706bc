"""axe-core, the accessibility checker, fetched from its npm package and run in a page.

``npm pack axe-core@AXE_VERSION`` (the npm registry, no CDN, as scripts/lite_site.py
fetches Pyodide) once into the cache (``$DURAK_CACHE_DIR``, else ``~/.cache/durak``);
:func:`violations` injects ``axe.min.js`` into a Playwright page and returns what axe
finds inside one element, at the impacts asked for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

#: The axe-core release the tests run (its rules change between versions).
AXE_VERSION = "4.10.3"
#: Impacts that fail a test: axe's "serious" and "critical" (not "moderate", "minor").
FAILING = ("serious", "critical")


def cache_dir() -> Path:
    configured = os.environ.get("DURAK_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "durak"


def axe_script(version: str = AXE_VERSION) -> Path:
    """``axe.min.js`` of ``version``, from the cache or ``npm pack``.  Raises
    RuntimeError when npm is missing and the cache is empty."""
    unpacked = cache_dir() / "npm" / f"axe-core-{version}"
    script = unpacked / "axe.min.js"
    if script.is_file():
        return script
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed once to fetch axe-core (apt-get install npm)")
    (cache_dir() / "npm").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir() / "npm") as tmp:
        subprocess.run(
            [npm, "pack", f"axe-core@{version}", "--pack-destination", tmp, "--silent"],
            check=True, stdout=subprocess.DEVNULL, timeout=300,
        )
        (tarball,) = Path(tmp).glob("axe-core-*.tgz")
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        os.replace(Path(tmp) / "package", unpacked)
    return script


def violations(page: Any, selector: str, impacts: tuple[str, ...] = FAILING) -> list[str]:
    """axe's violations inside the element ``selector`` at ``impacts``, one line each
    (rule, impact, the offending elements' HTML)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script()))
    found = page.evaluate(
        """async (selector) => {
          const result = await axe.run(document.querySelector(selector),
                                       {resultTypes: ['violations']});
          return result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.html.slice(0, 160) + ' ' + n.failureSummary),
          }));
        }""",
        selector,
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"][:5])
        for v in found
        if v["impact"] in impacts
    ]
