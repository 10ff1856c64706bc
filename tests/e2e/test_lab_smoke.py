"""The widget stack works end to end: a notebook run in a real JupyterLab page renders
ipywidgets, and a click in the page reaches the kernel and comes back as a new label.

If this fails, every other browser test would fail for the same reason; look here first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import run_notebook_in_lab, write_notebook
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

CLICK_COUNTER = """\
import ipywidgets as widgets
from IPython.display import display

clicks = 0
label = widgets.Label(value="not clicked yet")
label.add_class("smoke-label")
button = widgets.Button(description="Click me")
button.add_class("smoke-button")


def on_click(_button):
    global clicks
    clicks += 1
    label.value = f"clicked {clicks} times"


button.on_click(on_click)
display(widgets.VBox([button, label]))
"""


def test_button_click_in_lab_round_trips_through_the_kernel(
    jupyterlab_server: str, lab_root_dir: Path, lab_page: Page, artifacts_dir: Path
) -> None:
    write_notebook(lab_root_dir / "e2e_smoke" / "click_counter.ipynb", [CLICK_COUNTER])

    run_notebook_in_lab(lab_page, jupyterlab_server, "e2e_smoke/click_counter.ipynb")

    # ipywidgets 8 marks every rendered view with .jupyter-widgets and a per-type class.
    button = lab_page.locator(".jupyter-widgets.widget-button.smoke-button")
    label = lab_page.locator(".jupyter-widgets.widget-label.smoke-label")
    expect(button).to_have_text("Click me", timeout=30_000)
    expect(label).to_have_text("not clicked yet")

    button.click()
    expect(label).to_have_text("clicked 1 times", timeout=15_000)
    button.click()
    expect(label).to_have_text("clicked 2 times", timeout=15_000)

    lab_page.screenshot(path=str(artifacts_dir / "lab_smoke.png"), full_page=True)
