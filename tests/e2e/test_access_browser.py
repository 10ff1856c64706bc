"""axe-core in JupyterLab finds no serious or critical accessibility violation on the
table, its hint, its keys panel and its review, in English and in Russian; the cards
carry their names in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from axe_support import axe_script, violations
from browser_support import (
    PATH_CELL,
    TABLE_ROOT,
    TABLE_STATUS,
    play_game_by_clicking,
    run_notebook_in_lab,
    write_notebook,
)
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = TABLE_ROOT
#: A 24-card game: the review needs a game played to its end, of any length.
GAME = ("from durak_core import Rules\nfrom durak_widgets import play\n\n"
        "table = play(opponents=['random'], rules=Rules(deck_size=24), seed=3, delay=0, "
        "lang={lang!r})\n"
        "table.coach.iterations = 40\n"
        "table")
#: A card's name for screen readers: "queen of clubs", "дама треф, козырь".
NAMES = {"en": re.compile(r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace)"
                          r" of (spades|hearts|diamonds|clubs)(, trump)?"),
         "ru": re.compile(r"[а-яё]+ (пик|червей|бубен|треф)(, козырь)?")}


@pytest.fixture(scope="module")
def axe() -> Path:
    try:
        return axe_script()
    except (RuntimeError, OSError) as exc:  # no npm and nothing cached
        pytest.skip(f"axe-core is not available: {exc}")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_serious_accessibility_violations_on_the_table_hint_and_review(
    lang: str, axe: Path, jupyterlab_server: str, lab_root_dir: Path, lab_page: Page,
    artifacts_dir: Path,
) -> None:
    page = lab_page
    path = f"e2e_axe/{lang}.ipynb"
    write_notebook(lab_root_dir / path, [PATH_CELL, GAME.format(lang=lang)])
    run_notebook_in_lab(page, jupyterlab_server, path)
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=30_000)
    expect(page.locator(f"{ROOT} .durak-hand button.durak-card:visible")).to_have_count(
        6, timeout=15_000)

    # Every visible card is named in words (the tooltip, copied to aria-label).
    labels = page.locator(f"{ROOT} .durak-hand button.durak-card:visible")
    expect(labels.first).to_have_attribute("aria-label", re.compile(".+"))
    names = labels.evaluate_all("(bs) => bs.map((b) => b.getAttribute('aria-label') || '')")
    assert all(NAMES[lang].fullmatch(n) for n in names), names
    assert page.locator(f"{ROOT} [role='status'][aria-live='polite']").count() == 1

    # The checker is live: a nameless button planted in the table is a violation.
    page.evaluate("""() => {
      const probe = document.createElement('button');
      probe.className = 'durak-axe-probe';
      document.querySelector('.durak-root').append(probe);
    }""")
    assert any(v.startswith("button-name") for v in violations(page, ROOT))
    page.evaluate("() => document.querySelector('.durak-axe-probe').remove()")

    found = {"table": violations(page, ROOT)}
    every = violations(page, ROOT, ("minor", "moderate", "serious", "critical"))
    (artifacts_dir / f"axe_table_{lang}.txt").write_text("\n".join(every), encoding="utf-8")
    page.locator(f"{ROOT} .durak-btn-hint").click()
    expect(page.locator(f"{ROOT} .durak-hint table")).to_be_visible(timeout=30_000)
    page.locator(f"{ROOT} .durak-btn-hint").focus()
    page.keyboard.press("?")
    expect(page.locator(f"{ROOT} .durak-keys-help")).to_be_visible()
    found["hint and keys"] = violations(page, ROOT)
    page.keyboard.press("Escape")
    page.locator(f"{ROOT} .durak-btn-hint").click()  # off: the game goes faster

    play_game_by_clicking(page, timeout=120)
    page.locator(f"{ROOT} .durak-btn-review").click()
    expect(page.locator(f"{ROOT} .durak-review-panel svg")).to_be_visible(timeout=60_000)
    found["review"] = violations(page, ROOT)
    page.screenshot(path=str(artifacts_dir / f"axe_review_{lang}.png"), full_page=True)
    assert not any(found.values()), "\n".join(
        f"{where}: {line}" for where, lines in found.items() for line in lines)
