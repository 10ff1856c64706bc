"""axe-core in JupyterLab finds no serious or critical accessibility violation in the LAN
lobby (two tabs, two kernels, one machine): the list of players, an invitation, and the
pairing words with the table they open, in English and in Russian.

One game covers both languages: Ann's lobby speaks Russian, Ben's English, and axe
checks both tabs at each step (each lobby's words are its own).  Only the invitation as
received is seen in one language (Russian); as sent, it is seen in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from axe_support import axe_script, violations
from browser_support import PATH_CELL, LabTabs, free_udp_port, run_notebooks_in_lab, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOBBY = ".durak-lan"
TABLE = f"{LOBBY} .durak-root"


@pytest.fixture(scope="module")
def axe() -> Path:
    try:
        return axe_script()
    except (RuntimeError, OSError) as exc:  # no npm and nothing cached
        pytest.skip(f"axe-core is not available: {exc}")


def _notebook(root: Path, name: str, port: int, lang: str) -> str:
    relative = f"e2e_axe_lobby/{lang}-{name.lower()}.ipynb"
    cell = (f"from durak_widgets import lan\n\n"
            f"lan(name={name!r}, port={port}, journal_dir=None, lang={lang!r})")
    write_notebook(root / relative, [PATH_CELL, cell])
    return relative


def test_no_serious_accessibility_violations_in_the_lobby_in_either_language(
    axe: Path, jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs,
) -> None:
    port = free_udp_port()
    ann, ben = lab_tabs.take(2)  # Ann's lobby in Russian, Ben's in English
    run_notebooks_in_lab([(ann, _notebook(lab_root_dir, "Ann", port, "ru")),
                          (ben, _notebook(lab_root_dir, "Ben", port, "en"))],
                         jupyterlab_server)
    expect(ben.locator(f"{LOBBY} .durak-lan-peers")).to_contain_text("Ann", timeout=30_000)
    expect(ann.locator(f"{LOBBY} .durak-lan-peers")).to_contain_text("Ben", timeout=30_000)
    found = {"the players (en)": violations(ben, LOBBY),
             "the players (ru)": violations(ann, LOBBY)}
    ben.locator(f"{LOBBY} .durak-lan-peers .durak-lan-invite").first.click()
    expect(ann.locator(f"{LOBBY} .durak-lan-invites")).to_contain_text("Ben")
    found["an invitation received (ru)"] = violations(ann, LOBBY)
    found["an invitation sent (en)"] = violations(ben, LOBBY)
    ann.locator(f"{LOBBY} .durak-lan-accept").first.click()
    for page in (ann, ben):
        expect(page.locator(f"{TABLE} .durak-status")).to_be_visible(timeout=30_000)
        expect(page.locator(f"{LOBBY} .durak-lan-sas")).to_contain_text(re.compile(r"\w"))
    # Each lobby in its own language: the table's Hint button says so.
    expect(ann.locator(f"{TABLE} .durak-btn-hint")).to_have_text("Подсказка")
    expect(ben.locator(f"{TABLE} .durak-btn-hint")).to_have_text("Hint")
    found["the pairing words and the table (ru)"] = violations(ann, LOBBY)
    found["the pairing words and the table (en)"] = violations(ben, LOBBY)
    assert not any(found.values()), "\n".join(
        f"{where}: {line}" for where, lines in found.items() for line in lines)
