"""Byte-compile the site's wheels for the Python inside the page, once, at build time.

The site serves pure-Python wheels from PyPI (and durak's own), which hold only ``.py``
files; the page's Python would compile every module it imports on every visit (its
file system lives in memory), the kernel's IPython and the table's ipywidgets and durak
alike.  Pyodide's own package repository serves its wheels compiled for that reason.
So :func:`precompile` adds to each wheel the byte code of each module, in the place
CPython looks for it (``pkg/__pycache__/mod.cpython-314.pyc``), as *unchecked* hash-based
``.pyc`` files (PEP 552): the page loads them without reading the source's time stamp,
and the source stays beside them for tracebacks and ``inspect``.

The byte code must be the page's own Python's (its magic number and cache tag), and
this machine has another, so the compiling is done by that very Python: Pyodide's npm
package run under Node (``node``, which the site's build needs anyway).  Compiled wheels
are kept in the build cache under the hash of the wheel they came from.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Runs under Node: Pyodide with the folder of wheels mounted at /work, running COMPILE.
NODE_SCRIPT = """
import { loadPyodide } from %(module)s;
const pyodide = await loadPyodide({ indexURL: %(index)s });
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: %(work)s }, "/work");
pyodide.runPython(%(compile)s);
"""

#: Runs in Pyodide: each wheel of /work/in is written to /work/out with its byte code.
COMPILE = r'''
import importlib.util, os, sys, sysconfig, warnings, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

warnings.simplefilter("ignore", SyntaxWarning)  # the packages' own, not ours to fix here
site_packages = os.path.normpath(sysconfig.get_paths()["purelib"])
tag = sys.implementation.cache_tag
for name in sorted(os.listdir("/work/in")):
    added = []
    with zipfile.ZipFile(f"/work/in/{name}") as source, \
            zipfile.ZipFile(f"/work/out/{name}", "w", zipfile.ZIP_DEFLATED) as target:
        record = None
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = (info, data)
                continue
            target.writestr(info, data)
            if not info.filename.endswith(".py") or ".data/" in info.filename:
                continue
            folder, _, module = info.filename.rpartition("/")
            try:
                code = compile(data, f"{site_packages}/{info.filename}", "exec",
                               dont_inherit=True)
            except SyntaxError:  # a file that is not for this Python (a template, a test)
                continue
            pyc = f"{folder}/__pycache__/" if folder else "__pycache__/"
            pyc += f"{module[:-3]}.{tag}.pyc"
            entry = zipfile.ZipInfo(pyc, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(entry, bytes(_code_to_hash_pyc(
                code, importlib.util.source_hash(data), checked=False)))
            added.append(pyc)
        if record is not None:
            info, data = record
            lines = data.decode("utf-8").rstrip("\n").split("\n")
            target.writestr(info, "\n".join(lines + [f"{p},," for p in added]) + "\n")
    print(f"{name}: {len(added)} modules")
'''


def _key(wheel: Path) -> str:
    return hashlib.sha256(wheel.read_bytes()).hexdigest()[:16]


def precompile(wheels: list[Path], pyodide: Path, cache: Path) -> None:
    """Replace each wheel by itself plus its byte code for ``pyodide``'s Python.

    ``pyodide`` is Pyodide's unpacked npm package; ``cache`` keeps compiled wheels by the
    hash of the wheel they came from (per Pyodide version: its Python makes the byte code).
    """
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    folder = cache / "pyc" / f"pyodide-{version}"
    folder.mkdir(parents=True, exist_ok=True)
    cached = {wheel: folder / _key(wheel) / wheel.name for wheel in wheels}
    missing = [wheel for wheel in wheels if not cached[wheel].is_file()]
    if missing:
        node = shutil.which("node")
        if node is None:
            raise SystemExit("site: node is needed to compile the wheels (apt-get install nodejs)")
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            work = Path(tmp)
            (work / "in").mkdir()
            (work / "out").mkdir()
            for wheel in missing:
                shutil.copy2(wheel, work / "in" / wheel.name)
            script = work / "compile.mjs"
            script.write_text(NODE_SCRIPT % {
                "module": json.dumps((pyodide / "pyodide.mjs").as_uri()),
                "index": json.dumps(str(pyodide) + "/"),
                "work": json.dumps(str(work)),
                "compile": json.dumps(COMPILE),
            }, encoding="utf-8")
            print(f"site: byte-compiling {len(missing)} wheels in Pyodide (node)",
                  file=sys.stderr, flush=True)
            subprocess.run([node, str(script)], check=True, stdout=subprocess.DEVNULL)
            for wheel in missing:
                cached[wheel].parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(work / "out" / wheel.name), cached[wheel])
    for wheel in wheels:
        shutil.copy2(cached[wheel], wheel)
    _prune(folder, keep={cached[wheel].parent for wheel in wheels})


def _prune(folder: Path, keep: set[Path], hours: float = 1.0) -> None:
    """Drop compiled wheels this build did not use (durak's of earlier builds, older pins)
    once they are an hour old: another checkout's build may be using one right now."""
    old = time.time() - hours * 3600
    for entry in folder.iterdir():
        if entry.is_dir() and entry not in keep and entry.stat().st_mtime < old:
            shutil.rmtree(entry, ignore_errors=True)
