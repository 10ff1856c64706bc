"""The browser test files are two units of work (conftest.py, ``work_unit``), each on a
pytest-xdist worker of its own: the files that open notebooks in the shared JupyterLab,
and those that start their own servers.  A file in the second unit that asked for the
JupyterLab would start a second one; a file of the second kind left in the first unit
would make that unit, the run's long pole, longer than it needs to be."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
#: The fixtures that start (or share) the JupyterLab server of tests/e2e/conftest.py.
LAB_FIXTURES = re.compile(r"\b(jupyterlab_server|lab_page|lab_tabs)\b")
#: Files of the apps-and-site unit that also start a JupyterLab of their own: the site's
#: page hosts a table that a JupyterLab notebook joins.  The site is built into one
#: folder by one worker, so the file stays with the other site files, and its
#: JupyterLab starts beside the other unit's (the lab unit, the run's long pole, does
#: not wait for it).
LAB_IN_APPS_UNIT = {"tests/e2e/test_site_online_browser.py"}
#: The fixtures that give a test a browser page or the browser itself.
BROWSER_FIXTURES = re.compile(r"\b(browser_page|offline_page|offline|_chromium)\b")


def _root_conftest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("root_conftest", REPO / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _browser_files() -> dict[str, str]:
    """Each test file that uses a browser (its path from the repository), and its text."""
    files = {}
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(encoding="utf-8")
        if LAB_FIXTURES.search(text) or BROWSER_FIXTURES.search(text):
            files[path.relative_to(REPO).as_posix()] = text
    return files


def test_the_browser_files_that_need_no_jupyterlab_are_a_unit_of_their_own() -> None:
    conftest = _root_conftest()
    lab_unit, apps_unit = conftest.BROWSER_UNITS
    units: dict[str, list[str]] = {lab_unit: [], apps_unit: []}
    for path, text in _browser_files().items():
        unit = conftest.work_unit(f"{path}::test_x")
        assert unit in units, f"{path} uses a browser but is not in a browser unit: {unit}"
        units[unit].append(path)
        wants_lab = bool(LAB_FIXTURES.search(text)) and path not in LAB_IN_APPS_UNIT
        assert wants_lab == (unit == lab_unit), (
            f"{path} {'asks' if wants_lab else 'does not ask'} for JupyterLab, "
            f"yet it is in the unit {unit!r}")
    assert len(units[lab_unit]) >= 5 and len(units[apps_unit]) >= 2, units
    for path in LAB_IN_APPS_UNIT:  # an exception that is still needed, and still one
        assert path in units[apps_unit] and LAB_FIXTURES.search(_browser_files()[path]), path
    # Any other test is a unit of its own file (or, for the long table games, its own).
    assert conftest.work_unit("tests/core/test_game.py::test_x") == "tests/core/test_game.py"


def test_the_documents_commands_go_one_by_one() -> None:
    """Each of the documents' commands is a process of its own: they spread over the
    workers instead of keeping one busy for a minute; the rest of the file stays together."""
    cmd = "tests/docs/test_docs.py::test_readme_commands_run[README.md:12: durak-lan]"
    example = "tests/docs/test_docs.py::test_python_examples_run_and_show_real_results[x]"
    conftest = _root_conftest()
    assert conftest.work_unit(cmd) == cmd
    assert conftest.work_unit(example) == example
    page = ("tests/notebooks/test_notebooks.py::"
            "test_exactly_the_marked_cells_cannot_run_in_a_page[x]")
    assert conftest.work_unit(page) == page
    links = "tests/docs/test_docs.py::test_relative_links_lead_to_files_and_headings_that_exist"
    assert conftest.work_unit(links) == "tests/docs/test_docs.py"
