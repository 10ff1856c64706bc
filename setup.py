"""Build hook: compile durak_core's rules engine with mypyc where possible.

The metadata lives in pyproject.toml; this file only adds the optional C
extensions.  The same typed sources are the pure-Python fallback, so a machine
without a C compiler (or with ``DURAK_PURE=1`` set while installing) still gets a
working, only slower, engine.  Each compiled build records a hash of the sources
it was built from in ``durak_core/_compiled.json``; ``durak_core`` falls back to
the pure modules when the sources have changed since (see durak_core/_engine.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _load_engine_module():
    """durak_core/_engine.py on its own (importing durak_core would import the engine)."""
    path = HERE / "durak_core" / "_engine.py"
    spec = importlib.util.spec_from_file_location("_durak_engine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_engine = _load_engine_module()
# The engine's inner loop: these modules are compiled together, the rest of the
# package (actions, rules, bots, match, render) stays interpreted.
ENGINE = _engine.ENGINE
STAMP = _engine.STAMP.name


def want_compiled() -> bool:
    if os.environ.get("DURAK_PURE", "") not in ("", "0"):
        print("durak: DURAK_PURE is set, installing the pure-Python engine", file=sys.stderr)
        return False
    return platform.python_implementation() == "CPython"


class OptionalBuildExt(build_ext):
    """Build the mypyc extensions; on any failure, warn and leave pure Python."""

    def run(self) -> None:
        if self.inplace:  # an editable install: drop what an earlier build left there
            for old in (HERE / "durak_core").glob("*.so"):
                old.unlink()
            (HERE / "durak_core" / STAMP).unlink(missing_ok=True)
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers, ...: fall back, do not fail
            print(
                f"durak: compiling the engine failed ({exc}); using pure Python instead",
                file=sys.stderr,
            )
            self._remove_outputs()
            return
        self._write_stamp()

    def _targets(self) -> list[Path]:
        roots = [Path(self.build_lib)]
        if self.inplace:
            roots.append(HERE)
        return roots

    def _write_stamp(self) -> None:
        stamp = json.dumps(_engine.source_hashes(HERE / "durak_core"), indent=1, sort_keys=True)
        for root in self._targets():
            if (root / "durak_core").is_dir():
                (root / "durak_core" / STAMP).write_text(stamp + "\n", encoding="utf-8")

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            for root in self._targets():
                target = root / self.get_ext_filename(ext.name)
                if target.exists():
                    target.unlink()
        for root in self._targets():
            (root / "durak_core" / STAMP).unlink(missing_ok=True)


def engine_extensions() -> list:
    if not want_compiled():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("durak: mypy (mypyc) is not installed, using the pure-Python engine",
              file=sys.stderr)
        return []
    previous = os.getcwd()
    os.chdir(HERE)  # mypyc wants paths relative to the project
    try:
        return mypycify(
            [f"durak_core/{name}.py" for name in ENGINE],
            opt_level="3",
            # The shared library goes inside the package: durak_core/engine__mypyc.*.so
            group_name="durak_core.engine",
        )
    except Exception as exc:  # a mypyc that cannot handle these sources: stay pure
        print(f"durak: mypyc failed ({exc}); using the pure-Python engine", file=sys.stderr)
        return []
    finally:
        os.chdir(previous)


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": OptionalBuildExt})
