"""What the JupyterLite site is made of (scripts/lite_site.py), without a browser.

The site is built (or reused from the cache) once per run; the browser tests then open
it (tests/e2e/test_site_browser.py).
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "scripts"))
import lite_site  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site() -> Path:
    return lite_site.build()


def test_the_site_serves_pyodide_and_its_own_lock_with_only_the_wheels_it_has(site: Path) -> None:
    pyodide = site / "static" / "pyodide"
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (pyodide / name).is_file()
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    for entry in lock.values():
        assert (pyodide / entry["file_name"]).is_file(), entry["file_name"]
        assert set(entry["depends"]) <= set(lock), entry
    # The table and its keys (anywidget), msgspec for online play (its build for
    # Pyodide); not cryptography (libsodium.js stands in: durak_net/primitives.py).
    assert lock["durak"]["depends"] == ["anywidget", "ipywidgets", "msgspec"]
    assert lock["msgspec"]["file_name"].endswith(f"-{lite_site.pyodide_platform(pyodide)}.whl")
    assert set(lock["durak"]["imports"]) >= {"durak_core", "durak_widgets"}
    assert lock["ipywidgets"]["depends"] == ["comm", "ipython", "traitlets"]
    # The kernel points at this Pyodide, not a CDN.
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    settings = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert settings["disablePyPIFallback"] is True


def test_the_site_serves_libsodium_js_where_the_kernel_looks_for_it(site: Path) -> None:
    # durak_net/sodium_js.py imports the wrappers from beside Pyodide's folder.
    from durak_net import sodium_js

    folder = (site / "static" / "pyodide" / sodium_js.FROM_PYODIDE).resolve()
    assert folder == (site / lite_site.SODIUM_DIR).resolve()
    wrappers = (folder / sodium_js.WRAPPERS_FILE).read_text(encoding="utf-8")
    # Its one import is the WebAssembly build beside it (no bare npm name, no CDN).
    assert re.findall(r'\bfrom"([^"]+)"', wrappers) == ["./libsodium-sumo.mjs"]
    assert "crypto_core_ristretto255_from_hash" in wrappers
    build = (folder / "libsodium-sumo.mjs").read_text(encoding="utf-8")
    assert "https://" not in build.replace("https://github.com", "")
    assert "ISC" in (folder / "LICENSE").read_text(encoding="utf-8")


def test_durak_is_served_as_a_pure_python_wheel(site: Path) -> None:
    (wheel,) = (site / "static" / "pyodide").glob("durak-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "durak_core/game.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", "_compiled.json"))]


def test_every_served_wheel_carries_its_byte_code_for_the_pages_python(site: Path) -> None:
    """The page loads these .pyc files instead of compiling each module on each visit
    (scripts/lite_pyc.py); the sources stay beside them for tracebacks."""
    pyodide = site / "static" / "pyodide"
    data = json.loads((pyodide / "pyodide-lock.json").read_text())
    lock = data["packages"]
    tag = "cpython-" + "".join(data["info"]["python"].split(".")[:2])  # "cpython-314"
    for entry in lock.values():
        names = set(zipfile.ZipFile(pyodide / entry["file_name"]).namelist())
        sources = [n for n in names if n.endswith(".py") and ".data/" not in n]
        compiled = [n for n in names if n.endswith(f".{tag}.pyc")]
        assert sources and compiled, entry["file_name"]
    durak = set(zipfile.ZipFile(pyodide / lock["durak"]["file_name"]).namelist())
    assert {"durak_core/game.py", f"durak_core/__pycache__/game.{tag}.pyc",
            f"durak_widgets/__pycache__/play.{tag}.pyc"} <= durak


def test_the_site_notebooks_run_on_the_pyodide_kernel_and_mark_lan_cells(site: Path) -> None:
    notebooks = sorted(p.name for p in (site / "files").glob("*.ipynb"))
    assert notebooks == sorted(p.name for p in (REPO_ROOT / "notebooks").glob("*.ipynb"))
    lan = json.loads((site / "files" / "05-lan-play.ipynb").read_text())
    assert lan["metadata"]["kernelspec"]["name"] == "python"
    marked = [c for c in lan["cells"]
              if c["cell_type"] == "code" and "needs-local-python" in c["metadata"].get("tags", [])]
    assert any("lan(" in "".join(c["source"]) for c in marked)


def test_every_notebook_the_readme_links_is_a_notebook_of_the_sites_lab(site: Path) -> None:
    """The README's addresses (``lab/index.html?path=NAME``) open notebooks the site's
    JupyterLab lists in its contents (tests/e2e opens each in a browser)."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    names = re.findall(r"`lab/index\.html\?path=([\w.-]+\.ipynb)`", readme)
    contents = json.loads((site / "api" / "contents" / "all.json").read_text())
    listed = {c["path"] for c in contents["content"] if c["type"] == "notebook"}
    assert len(names) >= 6 and set(names) <= listed, (names, listed)
    assert all((site / "files" / name).is_file() for name in names)
    assert (site / "lab" / "index.html").is_file()


def test_a_code_cell_that_needs_sockets_gets_a_note_above_it() -> None:
    cells = [
        {"cell_type": "code", "metadata": {}, "source": ["play()"]},
        {"cell_type": "code", "metadata": {}, "source": ["lobby = lan(name='Alice')"]},
    ]
    marked = lite_site.mark_local_only(cells)
    assert [c["cell_type"] for c in marked] == ["code", "markdown", "code"]
    assert "Needs a local Python" in marked[1]["source"][0]
    assert marked[2]["metadata"]["tags"] == ["needs-local-python"]


def test_the_cache_key_follows_every_input(monkeypatch: pytest.MonkeyPatch) -> None:
    files = lite_site.source_files()
    names = {p.relative_to(REPO_ROOT).as_posix() for p in files}
    assert {"durak_core/game.py", "notebooks/play.ipynb", "lite/requirements.txt",
            "scripts/lite_site.py", "scripts/lite_pyc.py"} <= names
    before = lite_site.input_hash()
    monkeypatch.setattr(lite_site, "source_files", lambda: files[:-1])
    assert lite_site.input_hash() != before


def _js_literal(value: object) -> str:
    """``value`` as minified JavaScript writes an object literal (keys unquoted)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_js_literal(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def test_the_site_notebooks_say_what_the_pyodide_kernel_says_of_its_language(site: Path) -> None:
    # Lab rewrites a notebook's language_info when the kernel answers, and a rewritten
    # notebook makes a reload ask "Leave site?": the saved one must already match.
    kernel_js = "\n".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in (site / "extensions" / "@jupyterlite" / "pyodide-kernel-extension").rglob("*.js")
    )
    assert f"language_info:{_js_literal(lite_site.LANGUAGE_INFO)}" in kernel_js
    for notebook in (site / "files").glob("*.ipynb"):
        metadata = json.loads(notebook.read_text())["metadata"]
        assert metadata["language_info"] == lite_site.LANGUAGE_INFO, notebook.name


def test_only_the_play_notebook_starts_by_itself(site: Path) -> None:
    marked = sorted(
        p.name for p in (site / "files").glob("*.ipynb")
        if json.loads(p.read_text())["metadata"].get("durak", {}).get("autostart")
    )
    assert marked == ["play.ipynb"]
    # Without the table it was saved with: a page cannot show it before the kernel runs.
    play = json.loads((site / "files" / "play.ipynb").read_text())
    assert "widgets" not in play["metadata"]
    assert all(c["outputs"] == [] for c in play["cells"] if c["cell_type"] == "code")
    tour = json.loads((site / "files" / "01-rules-tour.ipynb").read_text())
    assert any(c.get("outputs") for c in tour["cells"])  # the tutorials keep theirs
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert config["exposeAppInBrowser"] is True  # the start script drives window.jupyterapp
    lab = (site / "lab" / "index.html").read_text()
    assert f'<script src="../{lite_site.START_SCRIPT}?_=' in lab
    assert (site / lite_site.START_SCRIPT).read_text() == (
        REPO_ROOT / "lite" / lite_site.START_SCRIPT).read_text()


def test_every_page_names_an_icon_the_site_has(site: Path) -> None:
    # Without one the browser asks for /favicon.ico at the server's root: a 404.
    pages = sorted(site.rglob("index.html"))
    assert site / "lab" / "index.html" in pages
    for page in pages:
        html = page.read_text()
        match = re.search(r'<link rel="icon" href="([^"]+)"', html)
        assert match, page
        assert (page.parent / match.group(1)).resolve().is_file(), (page, match.group(1))
