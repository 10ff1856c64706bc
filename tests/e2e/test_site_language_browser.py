"""The JupyterLite site speaks the browser's language: in a Russian browser the play
notebook's table, started by itself, is in Russian (``play()`` with no ``lang`` reads
``navigator.language`` in Pyodide's kernel worker)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")

from browser_support import REPO_ROOT, TABLE_ROOT, TABLE_STATUS, OfflineContext
from playwright.sync_api import expect

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import lite_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    try:
        site = lite_site.build()
    except SystemExit as exc:  # npm or a download missing: say so rather than error out
        pytest.fail(f"the site could not be built: {exc}")
    with lite_site.serving(site) as url:
        yield url


def test_a_russian_browser_gets_a_russian_table(site_url: str, _chromium: Any) -> None:
    offline = OfflineContext(_chromium, viewport={"width": 1400, "height": 900},
                             locale="ru-RU")
    try:
        page = offline.context.new_page()
        page.goto(f"{site_url}{lite_site.PLAY_PATH}")
        expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=120_000)
        expect(page.locator(f"{TABLE_ROOT} .durak-btn-hint")).to_have_text("Подсказка")
        expect(page.locator(TABLE_STATUS)).to_contain_text("Ваш", timeout=30_000)
        assert offline.blocked == [], offline.blocked
    finally:
        offline.close()
