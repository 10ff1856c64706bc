"""The tutorials as a path: play.ipynb leads to 01-05; each opens with what you will
learn, need and how long, has an exercise with a target, and ends with where next; and
exactly the cells marked "needs a local Python" cannot run in the browser site."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from durak_core.bots import REGISTRY

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
TUTORIALS = sorted(p.name for p in NOTEBOOKS.glob("0[0-9]-*.ipynb"))
EVERY = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
sys.path.insert(0, str(REPO / "scripts"))
import lite_site  # noqa: E402


def cells(name: str) -> list[dict[str, Any]]:
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return list(notebook["cells"])


def text(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def tags(cell: dict[str, Any]) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def test_there_are_five_tutorials() -> None:
    assert [name[:2] for name in TUTORIALS] == ["01", "02", "03", "04", "05"]


@pytest.mark.parametrize("name", TUTORIALS)
def test_a_tutorial_opens_with_what_you_will_learn_need_and_how_long(name: str) -> None:
    first = cells(name)[0]
    assert first["cell_type"] == "markdown"
    for part in ("**You will learn**", "**You need**", "**Time**"):
        assert part in text(first), f"{name} does not open with {part}"
    assert re.search(r"\*\*Time\*\* about \d+ minutes", text(first)), name


@pytest.mark.parametrize("name", TUTORIALS)
def test_a_tutorial_ends_with_where_next_and_links_onwards(name: str) -> None:
    last = cells(name)[-1]
    assert last["cell_type"] == "markdown" and text(last).startswith("## Where next"), name
    for link in re.findall(r"\]\(([^)#]+)\)", text(last)):
        assert (NOTEBOOKS / link).resolve().exists(), f"{name}: where next links to {link}"


@pytest.mark.parametrize("name", TUTORIALS)
def test_a_tutorial_has_an_exercise_with_a_target(name: str) -> None:
    found = cells(name)
    exercises = [i for i, c in enumerate(found) if "exercise" in tags(c)]
    assert exercises, f"{name} has no cell tagged exercise"
    for i in exercises:
        assert found[i]["cell_type"] == "code"
        heading = next(text(c) for c in reversed(found[:i]) if c["cell_type"] == "markdown")
        assert heading.startswith("## Exercise"), f"{name}: cell {i} has no exercise heading"
        assert "**Target:**" in heading, f"{name}: exercise {i} states no target"


@pytest.mark.parametrize("name", TUTORIALS)
def test_a_solution_is_folded(name: str) -> None:
    for cell in cells(name):
        if "solution" in tags(cell):
            assert cell["metadata"].get("jupyter", {}).get("source_hidden") is True


@pytest.mark.parametrize("name", TUTORIALS)
def test_every_exercise_has_a_folded_solution_in_its_section(name: str) -> None:
    """The solution follows its exercise before the next section begins, folded, and is
    run by nbval like every other cell (so it has to meet the exercise's target)."""
    found = cells(name)
    for i in [i for i, c in enumerate(found) if "exercise" in tags(c)]:
        after = found[i + 1:]
        end = next((k for k, c in enumerate(after)
                    if c["cell_type"] == "markdown" and text(c).startswith("## ")), len(after))
        solutions = [c for c in after[:end] if "solution" in tags(c)]
        assert solutions, f"{name}: the exercise in cell {i} has no solution in its section"
        for cell in solutions:
            assert cell["cell_type"] == "code", f"{name}: a solution is a cell nbval runs"
            assert "nbval-skip" not in tags(cell), f"{name}: nbval skips a solution"


#: A figure in a tutorial's prose that a reader could take for a measurement: a share
#: with a decimal (85.2%) or a count of games (98/115).
FIGURE = re.compile(r"(?<![\w.])\d+\.\d+%|(?<![\w./])\d+/\d+(?![\w/])")
#: Where a tutorial may quote a measured figure from, with the command that printed it.
FIGURE_SOURCES = ("docs/ai.md", "docs/benchmarks.md")


def outputs_text(cell: dict[str, Any]) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts.append("".join(output.get("text", [])))
        parts.append("".join(output.get("data", {}).get("text/plain", [])))
    return "".join(parts)


@pytest.mark.parametrize("name", TUTORIALS)
def test_every_figure_in_the_prose_is_an_output_beside_it_or_quoted_from_the_docs(
        name: str) -> None:
    found = cells(name)
    printed = "\n".join(outputs_text(c) for c in found)
    quoted = "\n".join((REPO / doc).read_text(encoding="utf-8") for doc in FIGURE_SOURCES)
    prose = [text(c) for c in found if c["cell_type"] == "markdown"]
    unsourced = sorted({figure for part in prose for figure in FIGURE.findall(part)
                        if figure not in printed and figure not in quoted})
    assert not unsourced, f"{name}: figures neither printed nor in {FIGURE_SOURCES}: {unsourced}"


README = REPO / "README.md"
#: How the README names a notebook's page in the site (from the site's root).
SITE_LINK = re.compile(r"`(lab/index\.html\?path=([\w.-]+\.ipynb))`")


def site_links() -> dict[str, str]:
    """The README's link into the site for each notebook it lists."""
    return {name: link for link, name in SITE_LINK.findall(README.read_text(encoding="utf-8"))}


def test_the_readme_links_play_and_every_tutorial_to_its_page_in_the_site() -> None:
    """One click to each tutorial in the browser: the README lists each one's page, and
    each page opens a notebook the site serves (tests/lite and tests/e2e open them)."""
    links = site_links()
    assert {"play.ipynb", *TUTORIALS} <= set(links), sorted(links)
    served = {path.name for path in lite_site.site_notebooks()}
    assert set(links) <= served, sorted(set(links) - served)
    assert links["play.ipynb"] == lite_site.PLAY_PATH


def test_play_is_the_entry_rules_picture_and_every_tutorial() -> None:
    found = cells("play.ipynb")
    assert [i for i, c in enumerate(found) if c["cell_type"] == "code"] == [1]  # play() only
    markdown = "\n".join(text(c) for c in found if c["cell_type"] == "markdown")
    rules = re.search(r"## The rules in five lines\n\n((?:\d\. .*\n?)+)", markdown)
    assert rules and len(rules.group(1).strip().splitlines()) == 5
    picture = next(c for c in found if "attachment:table.png" in text(c))
    assert picture["attachments"]["table.png"]["image/png"]
    table = markdown[markdown.index("## The tutorials"):]
    for name in TUTORIALS:
        row = next(line for line in table.splitlines() if f"]({name})" in line)
        assert re.search(r"\| \d+ min \|$", row), f"play.ipynb: {name}'s row has no time"


def test_play_names_the_bots_the_registry_holds() -> None:
    intro = text(cells("play.ipynb")[0])
    sentence = intro[intro.index("Bots: "):intro.index("a name may carry options")]
    assert set(re.findall(r'`"([\w-]+)"`', sentence)) == set(REGISTRY)


def marked(name: str) -> set[int]:
    return {i for i, cell in enumerate(cells(name)) if lite_site.needs_local_python(cell)}


@pytest.mark.slow
@pytest.mark.parametrize("name", EVERY)
def test_exactly_the_marked_cells_cannot_run_in_a_page(name: str) -> None:
    """Every code cell run with a page's limits (tests/notebooks/pagerun.py: no
    processes, threads, sockets, durak_net or matplotlib): the site marks those that fail."""
    run = subprocess.run([sys.executable, str(Path(__file__).with_name("pagerun.py")),
                          str(NOTEBOOKS / name)], capture_output=True, text=True, timeout=300,
                         check=False)
    assert run.returncode == 0, run.stderr
    failed = {int(k): v for k, v in json.loads(run.stdout.splitlines()[-1])["failed"].items()}
    unmarked = {i: failed[i] for i in sorted(set(failed) - marked(name))}
    runs = sorted(marked(name) - set(failed))
    assert not unmarked, f"{name}: cells that cannot run in a page but are not marked: {unmarked}"
    assert not runs, f"{name}: cells marked as needing a local Python that run in a page: {runs}"


def test_the_runner_counts_a_cell_that_caught_a_refused_process() -> None:
    """A cell that starts a process and catches the error still cannot run in a page."""
    notebook = {"cells": [
        {"cell_type": "code", "source": ["x = 1"]},
        {"cell_type": "code", "source": [
            "import subprocess\n", "try:\n", "    subprocess.run(['true'])\n",
            "except OSError:\n", "    pass"]},
        {"cell_type": "code", "source": ["import matplotlib"]},
    ]}
    path = Path(__file__).with_name("pagerun.py")
    run = subprocess.run([sys.executable, str(path), "-"], input=json.dumps(notebook),
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    failed = json.loads(run.stdout.splitlines()[-1])["failed"]
    assert set(failed) == {"1", "2"}
    assert "processes" in failed["1"] and "matplotlib" in failed["2"]


def test_a_cell_tagged_in_the_notebook_is_marked_once_in_the_site() -> None:
    """The site marks what the notebook's author tagged (a plot, a bot program) as well as
    what its code names (lan(, durak_net, ...), and never tags a cell twice."""
    cells_in = [
        {"cell_type": "code", "metadata": {"tags": ["needs-local-python"]},
         "source": ["plot_strength(figures)"]},
        {"cell_type": "code", "metadata": {}, "source": ["strength('ismcts')"]},
        {"cell_type": "markdown", "metadata": {"tags": ["needs-local-python"]}, "source": ["x"]},
    ]
    out = lite_site.mark_local_only(cells_in)
    assert [c["cell_type"] for c in out] == ["markdown", "code", "code", "markdown"]
    assert out[1]["metadata"]["tags"] == ["needs-local-python"]
    assert "tags" not in out[2]["metadata"]
