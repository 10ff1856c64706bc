"""Which build of the engine modules this process uses: compiled or pure Python.

``pip install`` compiles the modules named in ``ENGINE`` (the rules engine
``cards``, ``events`` and ``game``, the endgame solver ``endgame``, the
searches' greedy playouts ``playout`` and the ISMCTS tree walk ``tree``) with
mypyc when it can (see setup.py) and records a hash of the sources it compiled
in ``_compiled.json``.  The compiled modules sit next to their
``.py`` sources and Python would import them first, so before anything else
:mod:`durak_core` calls :func:`choose` which keeps the pure-Python modules when

- ``DURAK_PURE=1`` is set (to test or debug the reference code), or
- a source file changed after the last build (an edited checkout): then the
  compiled code would run stale rules.  A warning says how to rebuild.

This module must stay importable without the compiled ones (it is never compiled);
setup.py loads it by path for ``ENGINE`` and :func:`source_hashes`.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ENGINE = ("cards", "events", "game", "endgame", "playout", "tree")
PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent
STAMP = HERE / "_compiled.json"

#: Why the pure modules were chosen ("" when the compiled ones are used or none exist).
reason = ""


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the engine modules as their ``.py`` sources, never the compiled files."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in ENGINE:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def _compiled_files() -> list[Path]:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [p for p in HERE.iterdir() if p.name.endswith(suffixes)]


def source_hashes(package_dir: Path = HERE) -> dict[str, str]:
    """The SHA-256 of each engine source (setup.py records them in the stamp)."""
    return {
        name: hashlib.sha256((package_dir / f"{name}.py").read_bytes()).hexdigest()
        for name in ENGINE
    }


def _stale() -> str:
    """Why the compiled modules may not be used, or "" if they may."""
    try:
        built = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"{STAMP.name} is missing or unreadable"
    for name, digest in source_hashes().items():
        if built.get(name) != digest:
            return f"durak_core/{name}.py changed after the engine was compiled"
    return ""


def choose() -> None:
    """Put the pure-Python finder in front when the compiled modules must not be used."""
    global reason
    if any(f"{PACKAGE}.{name}" in sys.modules for name in ENGINE):
        return  # already imported one way or the other
    if os.environ.get("DURAK_PURE", "") not in ("", "0"):
        reason = "DURAK_PURE is set"
    elif _compiled_files():
        reason = _stale()
        if reason:
            warnings.warn(
                f"durak_core: {reason}; running the pure-Python engine (slower). "
                "Rebuild with `pip install -e .` (or `bash scripts/setup.sh`).",
                RuntimeWarning,
                stacklevel=3,
            )
    if reason and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def compiled() -> bool:
    """Whether the engine modules in use are the compiled ones."""
    game = sys.modules.get(f"{PACKAGE}.game")
    return game is not None and not (game.__file__ or "").endswith(".py")
