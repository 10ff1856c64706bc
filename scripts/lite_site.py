"""Build the JupyterLite site (``site/``) that plays durak in a browser, and serve it.

    python scripts/lite_site.py build            # build site/ (or reuse the cached build)
    python scripts/lite_site.py serve [--port N] # build, then serve site/ on 127.0.0.1

``bash scripts/site.sh`` runs these in the project's environment.  The site needs no
network at all once built: JupyterLab and the Pyodide kernel come from the
``jupyterlite-core`` and ``jupyterlite-pyodide-kernel`` packages, Pyodide itself from its
npm package (the version the kernel was made for), libsodium for the hidden-hand deal
from libsodium.js's npm packages (its WebAssembly build, ``static/sodium/``: see
durak_net/sodium_js.py), and every Python package the kernel
and the notebooks import is a wheel in the site, listed in the site's own
``pyodide-lock.json`` (so a plain ``import durak_widgets`` loads it, the way Pyodide loads
its own packages): the pinned wheels of ``lite/requirements.txt`` from PyPI (pure
Python, but msgspec's own build for Pyodide: :data:`PYODIDE_BUILT`)
and durak's own wheel, built without the compiled engine (``DURAK_PURE=1``).

The play notebook starts its table by itself (``lite/durak-start.js``, which the lab's
page loads): its code cell selected, run once the kernel is there, with a note saying
what the page waits for until the table is drawn.

Building takes a minute or two, so a finished build is kept in a cache folder outside
git (``$DURAK_CACHE_DIR``, else ``~/.cache/durak``) under the hash of everything it is made
from (durak's sources, the notebooks, ``lite/``, this script and the versions of the
JupyterLite packages); an unchanged checkout copies it instead of building again.  The
downloads (the npm packages, the wheels) are cached by version.
"""

from __future__ import annotations

import argparse
import contextlib
import email.parser
import functools
import hashlib
import http.server
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import lite_pyc  # noqa: E402  (beside this file)

LITE = ROOT / "lite"
SITE = ROOT / "site"
PACKAGES = ("durak_core", "durak_lang", "durak_widgets", "durak_net", "durak_arena")
#: The page a person lands on (relative to the site's root).
PLAY_PATH = "lab/index.html?path=play.ipynb"
#: The table alone, no notebook around it: JupyterLite's REPL app (a console) running
#: the play notebook's first cell as it opens, its code hidden (the REPL's URL options).
TABLE_PATH = ("repl/index.html?kernel=python&showBanner=0&hideCodeInput=1"
              "&code=from%20durak_widgets%20import%20play%3B%20play()")
#: The lab extensions the site's JupyterLab gets (nothing else from the environment:
#: a Voilà or other extension installed next to JupyterLab stays out of the site).
LAB_EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager",
                  "anywidget")  # the table's keys (durak_widgets/keys.py)
#: The files of Pyodide's npm package the site serves (no source maps, no TypeScript).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
    "package.json",
)
#: libsodium's own JavaScript/WebAssembly build (libsodium.js) for the deal in the kernel
#: (durak_net/sodium_js.py): the npm packages of its wrappers and of the "sumo" build (the
#: one with ristretto255), at one version, served in ``static/sodium/`` (the kernel finds
#: it beside Pyodide's ``static/pyodide/``).
LIBSODIUM_JS = ("libsodium-wrappers-sumo", "libsodium-sumo")
LIBSODIUM_JS_VERSION = "0.8.4"
SODIUM_DIR = "static/sodium"
#: The wrappers' ES module imports the WebAssembly module by its npm name; the site
#: serves no import map, so the build points that import at the file beside it.
SODIUM_IMPORT = ('from"libsodium-sumo"', 'from"./libsodium-sumo.mjs"')
#: Requirements of the served wheels that are deliberately not served, and why.  Any
#: other requirement missing from lite/requirements.txt stops the build.
NOT_SERVED = {
    "ipykernel": "the Pyodide kernel ships its own stand-in",
    "widgetsnbextension": "the Pyodide kernel ships its own stand-in (classic-notebook files)",
    "jupyterlab-widgets": "the widgets' front end is the site's lab extension",
    "jupyterlab": "the site is the JupyterLab",
    "cryptography": "no build for Pyodide on PyPI: the site's kernel takes X25519 and "
                    "Ed25519 from libsodium.js instead (durak_net/primitives.py)",
    "pysodium": "the site's kernel takes libsodium from libsodium.js (LIBSODIUM_JS below)",
    "spake2": "LAN play only (durak_net: the PIN pairing), which a browser cannot do",
}
#: Wheels with compiled code, built for Pyodide's ABI (its lock's ``abi_version``) and
#: published on PyPI by their authors (the ``pyemscripten`` platform tag): online play in
#: the page (durak_net's wire format) needs msgspec.  Pinned in lite/requirements.txt too.
PYODIDE_BUILT = ("msgspec",)
#: The environment markers of Pyodide 314 (Python 3.14, Emscripten), for Requires-Dist.
PYODIDE_MARKERS = {
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "extra": "",
}
#: Code that cannot run in a page: UDP sockets, processes, and durak_net's LAN play
#: (``online()`` runs in the page; the notebooks' durak_net cells are LAN ones).  The
#: site's copy of a notebook says so above each such cell (the repository's notebooks
#: stay as they are).
NEEDS_LOCAL_PYTHON = re.compile(r"\blan\(|\bdurak_net\b|\bsubprocess\b|\bsocket\b")
LOCAL_ONLY_NOTE = (
    "> **Needs a local Python.** In this browser site the next cell cannot run: it uses "
    "UDP sockets, other processes, the LAN package or plots (matplotlib), which this "
    "site does not have. "
    "Run this notebook in JupyterLab on your computer (`bash scripts/play.sh`) for it."
)
#: The kernel name of the Pyodide kernel: the site's notebooks name it so that they open
#: with it (the repository's name the local ``python3`` kernel).
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
#: What the Pyodide kernel says of its language (its kernel_info reply, fixed in the
#: kernel's JavaScript).  A notebook saved with other ``language_info`` is changed by Lab
#: as soon as the kernel answers, and the browser then asks "Leave site?" on a reload.
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "python", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.8",
}
#: The notebooks that start by themselves in the site (lite/durak-start.js): the first
#: code cell selected, run as soon as the kernel is there, a note while it starts.
AUTOSTART = ("play.ipynb",)
#: The script that does it, served at the site's root and loaded by lab/index.html.
START_SCRIPT = "durak-start.js"


def site_notebooks() -> list[Path]:
    """The notebooks the site serves, each at ``lab/index.html?path=NAME`` (the README
    lists those links): every notebook of ``notebooks/``."""
    return sorted((ROOT / "notebooks").glob("*.ipynb"))


def log(message: str) -> None:
    print(f"site: {message}", file=sys.stderr, flush=True)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def cache_dir() -> Path:
    configured = os.environ.get("DURAK_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "durak"


def pyodide_version() -> str:
    """The Pyodide the installed jupyterlite-pyodide-kernel was made for."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    return str(PYODIDE_VERSION)


def lab_extension_dirs() -> list[Path]:
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    found = []
    for name in LAB_EXTENSIONS:
        path = share / name
        if not (path / "package.json").is_file():
            raise SystemExit(f"site: the lab extension {name} is not installed in {sys.prefix}")
        found.append(path)
    return found


# ------------------------------------------------------------------ inputs and the key


def source_files() -> list[Path]:
    """Every file the site is made from, in a stable order."""
    files = [ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "README.md", Path(__file__),
             Path(lite_pyc.__file__)]
    for package in PACKAGES:
        files += sorted((ROOT / package).rglob("*.py")) + sorted((ROOT / package).rglob("py.typed"))
        files += sorted((ROOT / package).rglob("*.mo"))  # the translations the wheel ships
        files += sorted((ROOT / package).glob("static/*"))  # mqtt.js (durak_widgets)
        files += sorted((ROOT / package).rglob("value_model.json"))  # the AI's learnt value
    files += site_notebooks()
    files += sorted(p for p in LITE.rglob("*") if p.is_file())
    return [p for p in files if "__pycache__" not in p.parts]


def input_hash() -> str:
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for dist in ("jupyterlite-core", "jupyterlite-pyodide-kernel", "jupyterlab_widgets"):
        digest.update(f"{dist}={importlib.metadata.version(dist)}\0".encode())
    return digest.hexdigest()[:20]


# ------------------------------------------------------------------ downloads


def npm_pack(spec: str, dest: Path, cache: Path) -> None:
    """Unpack the npm package ``spec`` (``name@version``) into ``dest`` (``npm pack``:
    the npm registry, no CDN)."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(f"site: npm is needed once to fetch {spec} (apt-get install npm)")
    (cache / "npm").mkdir(parents=True, exist_ok=True)
    log(f"npm pack {spec}")
    with tempfile.TemporaryDirectory(dir=cache / "npm") as tmp:
        subprocess.run(
            [npm, "pack", spec, "--pack-destination", tmp, "--silent"],
            check=True, stdout=subprocess.DEVNULL,
        )
        (tarball,) = Path(tmp).glob("*.tgz")
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        os.replace(Path(tmp) / "package", dest)


def fetch_pyodide(version: str, cache: Path) -> Path:
    """Pyodide's npm package, unpacked."""
    unpacked = cache / "npm" / f"pyodide-{version}"
    if not (unpacked / "pyodide.mjs").is_file():
        npm_pack(f"pyodide@{version}", unpacked, cache)
    return unpacked


def fetch_libsodium_js(version: str, cache: Path) -> list[Path]:
    """libsodium.js's npm packages (:data:`LIBSODIUM_JS`), unpacked."""
    folders = []
    for name in LIBSODIUM_JS:
        unpacked = cache / "npm" / f"{name}-{version}"
        if not (unpacked / "package.json").is_file():
            npm_pack(f"{name}@{version}", unpacked, cache)
        folders.append(unpacked)
    return folders


def add_libsodium_js(target: Path, cache: Path) -> None:
    """The ES modules of libsodium.js's wrappers and WebAssembly build, and its licence,
    into ``target``; the wrappers' import of the build pointed at the file beside it."""
    wrappers, build = fetch_libsodium_js(LIBSODIUM_JS_VERSION, cache)
    target.mkdir(parents=True)
    shutil.copy2(build / "dist" / "modules-sumo-esm" / "libsodium-sumo.mjs", target)
    shutil.copy2(build / "LICENSE", target / "LICENSE")
    code = (wrappers / "dist" / "modules-sumo-esm" / "libsodium-wrappers.mjs").read_text(
        encoding="utf-8")
    bare, relative = SODIUM_IMPORT
    if code.count(bare) != 1:
        raise SystemExit(f"site: libsodium-wrappers.mjs {LIBSODIUM_JS_VERSION} does not "
                         f"import {bare!r} once; check SODIUM_IMPORT in {Path(__file__).name}")
    (target / "libsodium-wrappers.mjs").write_text(code.replace(bare, relative),
                                                   encoding="utf-8")


def pinned_requirements() -> list[tuple[str, str]]:
    pins = []
    for line in (LITE / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep:
            raise SystemExit(f"site: lite/requirements.txt: pin an exact version: {line!r}")
        pins.append((canonical(name.strip()), version.strip()))
    return pins


def _wheel_key(path: Path) -> tuple[str, str]:
    name, version = path.name.split("-")[:2]
    return canonical(name), version


def pyodide_platform(pyodide: Path) -> str:
    """The wheel platform tag of this Pyodide's ABI (``pyemscripten_2026_0_wasm32``)."""
    info = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    return f"pyemscripten_{info['abi_version']}_{info['arch']}"


def fetch_wheels(cache: Path, platform: str) -> list[Path]:
    """The pinned wheels, from the cache or downloaded from PyPI for Pyodide's Python:
    pure-Python ones, and those of :data:`PYODIDE_BUILT` for Pyodide's ``platform``."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    pins = pinned_requirements()
    patterns = ("*-py3-none-any.whl", "*-py2.py3-none-any.whl", f"*-{platform}.whl")

    def found() -> dict[tuple[str, str], Path]:
        return {_wheel_key(p): p for pattern in patterns for p in folder.glob(pattern)}

    have = found()
    missing = [(n, v) for n, v in pins if (n, v) not in have]
    pure = [f"{n}=={v}" for n, v in missing if n not in PYODIDE_BUILT]
    built = [f"{n}=={v}" for n, v in missing if n in PYODIDE_BUILT]
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
           "--no-deps", "--only-binary=:all:", "--python-version", "3.14", "--dest", str(folder)]
    if pure:
        log(f"pip download {' '.join(pure)}")
        subprocess.run([*pip, "--implementation", "py", "--abi", "none", "--platform", "any",
                        *pure], check=True)
    if built:
        log(f"pip download {' '.join(built)} ({platform})")
        subprocess.run([*pip, "--implementation", "cp", "--abi", "cp314", "--abi", "abi3",
                        "--platform", platform, *built], check=True)
    have = found()
    wheels = []
    for pin in pins:
        if pin not in have:
            raise SystemExit(f"site: no wheel of {pin[0]}=={pin[1]} for Pyodide was found")
        wheels.append(have[pin])
    return wheels


def build_durak_wheel(dest: Path) -> Path:
    """durak's wheel without the compiled engine: ``DURAK_PURE=1 pip wheel``.

    Built from a copy of the sources (the work tree's own ``build/`` may hold a compiled
    engine from an earlier install), and checked: pure Python only.
    """
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        for name in ("pyproject.toml", "setup.py", "README.md"):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
        for package in PACKAGES:
            for path in (ROOT / package).rglob("*"):
                if path.is_file() and (path.suffix in (".py", ".mo")
                                       or path.name in ("py.typed", "value_model.json")
                                       or path.parent.name == "static") \
                        and "__pycache__" not in path.parts:
                    target = src / path.relative_to(ROOT)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, target)
        env = dict(os.environ, DURAK_PURE="1")
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
             "--no-deps", "--wheel-dir", str(dest), str(src)],
            check=True, env=env, stdout=subprocess.DEVNULL,
        )
    (wheel,) = dest.glob("durak-*.whl")
    if not wheel.name.endswith("-py3-none-any.whl"):
        raise SystemExit(f"site: {wheel.name} is not a pure-Python wheel")
    with zipfile.ZipFile(wheel) as archive:
        compiled = [n for n in archive.namelist() if n.endswith((".so", ".pyd", "_compiled.json"))]
    if compiled:
        raise SystemExit(f"site: {wheel.name} carries compiled files: {compiled}")
    return wheel


# ------------------------------------------------------------------ the lock file


def lock_entry(wheel: Path, served: set[str]) -> dict[str, Any]:
    """The pyodide-lock.json entry of one pure-Python wheel, read from the wheel itself."""
    from packaging.markers import default_environment
    from packaging.requirements import Requirement

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(archive.read(meta_name).decode("utf-8"))
    name = canonical(metadata["Name"])
    imports = sorted({
        top.removesuffix(".py")
        for top in (n.split("/", 1)[0] for n in names)
        if not top.endswith((".dist-info", ".data")) and (top.endswith(".py") or "." not in top)
    })
    environment: dict[str, str] = {**default_environment(), **PYODIDE_MARKERS}
    depends = []
    for text in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        dep = canonical(requirement.name)
        if dep in served:
            depends.append(dep)
        elif dep not in NOT_SERVED:
            raise SystemExit(
                f"site: {wheel.name} needs {dep}, which the site does not serve: add it to "
                "lite/requirements.txt (or to NOT_SERVED in scripts/lite_site.py, saying why)"
            )
    return {
        "name": name,
        "version": metadata["Version"],
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "package_type": "package",
        "imports": imports,
        "depends": sorted(set(depends)),
        "unvendored_tests": False,
    }


def write_lock(pyodide: Path, wheels: list[Path], target: Path) -> None:
    """Pyodide's lock with only the packages this site serves (the wheels given)."""
    original = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    served = {_wheel_key(w)[0] for w in wheels}
    packages = {}
    for wheel in wheels:
        entry = lock_entry(wheel, served)
        packages[entry["name"]] = entry
    lock = {"info": original["info"], "packages": dict(sorted(packages.items()))}
    target.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# ------------------------------------------------------------------ building


def prepare_lite_dir(lite_dir: Path, cache: Path) -> None:
    """Everything ``jupyter lite build`` reads: config, contents, Pyodide with its wheels."""
    shutil.copytree(LITE, lite_dir, ignore=shutil.ignore_patterns("requirements.txt", "*.js"))
    pyodide_dir = lite_dir / "static" / "pyodide"
    pyodide_dir.mkdir(parents=True)
    npm = fetch_pyodide(pyodide_version(), cache)
    for name in PYODIDE_FILES:
        shutil.copy2(npm / name, pyodide_dir / name)
    wheels = [shutil.copy2(w, pyodide_dir / w.name)
              for w in fetch_wheels(cache, pyodide_platform(npm))]
    wheels.append(build_durak_wheel(pyodide_dir))
    lite_pyc.precompile([Path(w) for w in wheels], npm, cache)  # the page's byte code
    write_lock(npm, [Path(w) for w in wheels], pyodide_dir / "pyodide-lock.json")

    files = lite_dir / "files"
    files.mkdir()
    for notebook in site_notebooks():
        data = json.loads(notebook.read_text(encoding="utf-8"))
        metadata = data.setdefault("metadata", {})
        metadata["kernelspec"] = dict(KERNELSPEC)
        metadata["language_info"] = dict(LANGUAGE_INFO)
        if notebook.name in AUTOSTART:
            start_by_itself(data)
        data["cells"] = mark_local_only(data["cells"])
        (files / notebook.name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    config = {
        "LiteBuildConfig": {
            "ignore_sys_prefix": True,
            "federated_extensions": [str(p) for p in lab_extension_dirs()],
            "no_sourcemaps": True,
            "apps": ["lab", "repl"],
            "no_unused_shared_packages": True,
            "contents": [str(files)],
            "output_dir": str(lite_dir / "_output"),
        },
    }
    (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1) + "\n")


def start_by_itself(notebook: dict[str, Any]) -> None:
    """Mark ``notebook`` to start by itself, without the outputs it was saved with.

    Those outputs are a table that a page cannot show before its kernel runs (the
    widgets' saved state, ~150 kB, which Lab would still read and restore) and the text
    that stands in for it; the notebook runs as soon as it opens, so they would only
    flash by.
    """
    notebook["metadata"]["durak"] = {"autostart": True}
    notebook["metadata"].pop("widgets", None)
    for cell in notebook["cells"]:
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None


def needs_local_python(cell: dict[str, Any]) -> bool:
    """Whether a notebook's code cell cannot run in a page: its code says so
    (:data:`NEEDS_LOCAL_PYTHON`), or the notebook's author tagged it ``needs-local-python``
    (a plot: no matplotlib in the site; a bot program started as a process; a cell that
    uses what such a cell made).  tests/notebooks checks the tags against a run of every
    cell with a page's limits."""
    if cell.get("cell_type") != "code":
        return False
    source = "".join(cell.get("source", []))
    tagged = "needs-local-python" in cell.get("metadata", {}).get("tags", [])
    return tagged or bool(NEEDS_LOCAL_PYTHON.search(source))


def mark_local_only(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cells, with a note above each code cell that cannot run in a page."""
    marked = []
    for number, cell in enumerate(cells):
        if needs_local_python(cell):
            marked.append({"cell_type": "markdown", "id": f"local-only-{number}",
                           "metadata": {"tags": ["needs-local-python"]},
                           "source": [LOCAL_ONLY_NOTE]})
            tags = cell.setdefault("metadata", {}).setdefault("tags", [])
            if "needs-local-python" not in tags:
                tags.append("needs-local-python")
        marked.append(cell)
    return marked


def build_into(output: Path, cache: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="durak-lite-") as tmp:
        lite_dir = Path(tmp) / "lite"
        prepare_lite_dir(lite_dir, cache)
        log("jupyter lite build")
        subprocess.run(
            [sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(lite_dir)],
            check=True, cwd=lite_dir, stdout=subprocess.DEVNULL,
            env=dict(os.environ, JUPYTER_PLATFORM_DIRS="1"),
        )
        finish_pages(lite_dir / "_output", input_hash())
        add_libsodium_js(lite_dir / "_output" / SODIUM_DIR, cache)  # static files as they are
        shutil.move(str(lite_dir / "_output"), output)


#: The icon every page names, so that a browser does not ask the server's root for
#: /favicon.ico (a 404 there, or outside the site when it is published under a path).
FAVICON = "lab/favicon.ico"


def finish_pages(output: Path, key: str) -> None:
    """Name the icon in every page, and load the start script in the lab's page."""
    shutil.copy2(LITE / START_SCRIPT, output / START_SCRIPT)
    for page in sorted(output.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        up = "../" * (len(page.relative_to(output).parts) - 1)
        head = ""
        if 'rel="icon"' not in html:
            head += f'<link rel="icon" href="{up}{FAVICON}">'
        if page.relative_to(output).as_posix() in ("lab/index.html", "repl/index.html"):
            head += f'<script src="{up}{START_SCRIPT}?_={key}" defer></script>'
        if head:
            if "</head>" not in html:
                raise SystemExit(f"site: {page} has no </head> to add {head!r} to")
            page.write_text(html.replace("</head>", f"    {head}\n  </head>", 1), encoding="utf-8")


def build(site: Path = SITE, force: bool = False) -> Path:
    """Make ``site`` the site of this checkout, building it only if no cached build fits.

    One process at a time: another that asks meanwhile (a second pytest worker) waits,
    then finds the site up to date, rather than replacing it under a page that is
    loading it."""
    with _one_at_a_time(site):
        return _build(site, force)


@contextlib.contextmanager
def _one_at_a_time(site: Path) -> Iterator[None]:
    """Hold an exclusive lock on a file beside ``site`` (POSIX; elsewhere, no lock)."""
    try:
        import fcntl
    except ImportError:  # Windows: builds are not run side by side there
        yield
        return
    site.parent.mkdir(parents=True, exist_ok=True)
    with open(site.parent / f".{site.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build(site: Path, force: bool) -> Path:
    started = time.monotonic()
    key = input_hash()
    stamp = site / ".durak-site-key"
    if not force and stamp.is_file() and stamp.read_text().strip() == key:
        log(f"{site} is up to date ({key})")
        return site
    cache = cache_dir()
    cached = cache / "site" / key
    if force or not (cached / ".durak-site-key").is_file():
        partial = cache / "site" / f"{key}.partial-{os.getpid()}"
        shutil.rmtree(partial, ignore_errors=True)
        partial.parent.mkdir(parents=True, exist_ok=True)
        build_into(partial, cache)
        (partial / ".durak-site-key").write_text(key + "\n")
        shutil.rmtree(cached, ignore_errors=True)
        os.replace(partial, cached)
        _prune(cache / "site", keep=cached)
        how = "built"
    else:
        how = "reused the cached build"
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(cached, site)
    log(f"{how} {key} into {site} in {time.monotonic() - started:.1f} s "
        f"({_size(site) / 1e6:.1f} MB)")
    return site


def _prune(folder: Path, keep: Path, count: int = 3) -> None:
    """Keep the newest few cached builds (every edit of a source makes a new one)."""
    builds = sorted(
        (p for p in folder.iterdir() if p.is_dir() and p != keep and ".partial-" not in p.name),
        key=lambda p: p.stat().st_mtime, reverse=True,
    )
    for old in builds[count - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


# ------------------------------------------------------------------ serving


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a browser insists on for modules and WebAssembly."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".whl": "application/octet-stream",
    }

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.quiet:  # type: ignore[attr-defined]
            return
        super().log_message(format, *args)


@contextlib.contextmanager
def serving(site: Path = SITE, port: int = 0, quiet: bool = True) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 from a thread; yields the base URL (ending in "/")."""
    handler = functools.partial(_Handler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.quiet = quiet  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, name="durak-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["build", "serve"])
    parser.add_argument("--port", type=int, default=8765, help="port for serve (0: any free)")
    parser.add_argument("--force", action="store_true", help="build even if a cached one fits")
    parser.add_argument("--output", type=Path, default=SITE, help="the site folder (site/)")
    args = parser.parse_args(argv)
    site = build(args.output, force=args.force)
    if args.command == "build":
        return 0
    with serving(site, args.port, quiet=False) as url:
        print(f"\nPlay in your browser: {url}{PLAY_PATH}\n"
              f"The table alone: {url}{TABLE_PATH}\n(Ctrl+C stops the server)\n", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
