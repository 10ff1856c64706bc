"""environment.yml, the conda way in, installs what pyproject.toml asks for: every
requirement with the same bounds, plus the system libraries conda must bring itself."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 reads TOML with tomli where it is installed
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[2]


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised (``Jupyter_Client`` -> ``jupyter-client``)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement.strip())
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


def _bounds(requirement: str) -> set[str]:
    spec = requirement.split(";")[0]
    spec = re.sub(r"^[A-Za-z0-9._-]+(\[[^\]]*\])?", "", spec.strip())
    return {part.replace(" ", "") for part in spec.split(",") if part.strip()}


def _pyproject() -> dict[str, set[str]]:
    """Each requirement of pyproject.toml -> its bounds; the highest lower bound where a
    name appears twice (mypy: >=1.10 to check the code, >=1.18 to compile the engine)."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    project = data["project"]
    requirements = [*data["build-system"]["requires"], *project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        requirements += extra
    out: dict[str, set[str]] = {"python": {project["requires-python"]}}
    for requirement in requirements:
        name = _name(requirement)
        if name == "durak":  # an extra naming other extras of this project
            continue
        names = ["dask", "distributed"] if requirement.startswith("dask[distributed]") else [name]
        for one in names:
            bounds = _bounds(requirement)
            if one in out and out[one] != bounds:
                lows = [b for b in out[one] | bounds if b.startswith(">=")]
                best = max(lows, key=lambda b: tuple(int(x) for x in b[2:].split(".")))
                bounds = {b for b in out[one] | bounds if not b.startswith(">=")} | {best}
            out[one] = bounds
    return out


def _environment() -> tuple[dict[str, set[str]], list[str]]:
    data = yaml.safe_load((REPO / "environment.yml").read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    pip: list[str] = []
    for entry in data["dependencies"]:
        if isinstance(entry, dict):
            pip = entry["pip"]
            entries = [p for p in pip if not p.startswith("-e")]
        else:
            entries = [entry]
        for requirement in entries:
            out[_name(requirement)] = _bounds(requirement)
    return out, pip


def test_environment_yml_brings_the_system_libraries_lan_play_and_the_site_need() -> None:
    env, _ = _environment()
    assert "libsodium" in env, "LAN play needs libsodium, and conda must install it"
    assert "nodejs" in env, "the site's build needs npm (nodejs)"
    assert "c-compiler" in env, "the engine is compiled with mypyc on install"


def test_environment_yml_has_every_requirement_with_pyprojects_bounds() -> None:
    env, pip = _environment()
    wanted = _pyproject()
    missing = sorted(set(wanted) - set(env))
    assert not missing, f"environment.yml lacks {missing} (pyproject.toml asks for them)"
    differ = {name: (sorted(env[name]), sorted(bounds))
              for name, bounds in wanted.items() if env[name] != bounds}
    assert not differ, f"environment.yml's bounds differ from pyproject.toml's: {differ}"
    assert "-e .[dev]" in pip, "the project itself, editable, with its dev extra"
