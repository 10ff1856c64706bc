"""Fixtures for tests/net: the browser fixtures of tests/e2e/conftest.py, re-exported.

The LAN browser test (test_net_browser.py) needs the same JupyterLab server and Chromium
page fixtures as tests/e2e; pytest only shares conftest fixtures down a directory
tree, so that conftest is loaded here under its own name and its fixtures re-exported.
Nothing here runs unless a test asks for one of them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from durak_lang import language

_E2E = Path(__file__).resolve().parents[1] / "e2e"


def _load_e2e_conftest():  # type: ignore[no-untyped-def]
    if str(_E2E) not in sys.path:
        sys.path.insert(0, str(_E2E))  # for its `import browser_support`
    spec = importlib.util.spec_from_file_location("durak_e2e_fixtures", _E2E / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_e2e = _load_e2e_conftest()
artifacts_dir = _e2e.artifacts_dir
lab_root_dir = _e2e.lab_root_dir
jupyterlab_server = _e2e.jupyterlab_server
_chromium = _e2e._chromium
browser_page = _e2e.browser_page
_lab_tabs = _e2e._lab_tabs
lab_tabs = _e2e.lab_tabs
# The hook that lets browser_page save a screenshot when its test failed.
pytest_runtest_makereport = _e2e.pytest_runtest_makereport


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal and the tables speak English unless a test asks for another language,
    whatever the language of the machine running the tests; a language a test chose for
    the process (``i18n.use``) ends with the test."""
    monkeypatch.setenv("DURAK_LANG", "en")
    monkeypatch.setattr(language, "_chosen", None)
