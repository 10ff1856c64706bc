"""README.md is the front door, read in five minutes; the figures and the AI's story live
in docs/benchmarks.md and docs/ai.md.

* README.md has at most 300 lines, and its sections in the order a newcomer needs them.
* Its shell blocks work in a new shell: they activate the environment before running
  the project's programs.
* No document carries commit hashes or talks of an issue its reader cannot see.
* docs/benchmarks.md opens with one table of headline figures, each with the command
  that prints it and the machine it ran on.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from . import mdexec
from .mdexec import REPO

README = REPO / "README.md"
BENCHMARKS = REPO / "docs" / "benchmarks.md"
DOCUMENTS = [README, *sorted((REPO / "docs").glob("*.md"))]

#: The README's sections, in this order (the title and what it is come first).
SECTIONS = [
    "Two commands",
    "Play the computer",
    "Play a friend",
    "Write a bot",
    "Play in a browser",
    "The tutorials",
    "Layout",
    "The docs",
]
MAX_LINES = 300


def _sections(path: Path) -> list[str]:
    return re.findall(r"^## (.+?)\s*$", path.read_text(encoding="utf-8"), flags=re.M)


def test_the_readme_is_at_most_300_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines; figures go to docs/benchmarks.md"


def test_the_readme_has_its_sections_in_order() -> None:
    assert _sections(README) == SECTIONS


def test_the_readme_shows_the_table_before_its_first_section() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.index("![") < text.index("\n## ")


def test_the_readme_links_every_document() -> None:
    text = README.read_text(encoding="utf-8")
    for name in ("widgets", "lan-protocol", "bot-protocol", "rules", "benchmarks", "ai",
                 "contributing"):
        assert f"(docs/{name}.md" in text, f"README.md does not link docs/{name}.md"


def test_readme_shell_blocks_activate_the_environment_before_the_projects_programs() -> None:
    """A new shell has no durak-lan, durak-arena or the environment's python on PATH: a
    block that runs one first runs `source .venv/bin/activate` (scripts/*.sh find the
    environment themselves)."""
    programs = {*mdexec.console_scripts(), "python", "python3"}
    doc = mdexec.read(README)
    bare = [
        f"README.md:{c.line}: {c.shown}"
        for c in doc.commands
        if not c.inline and not c.activated and mdexec.command_words(c.shown)[:1]
        and mdexec.command_words(c.shown)[0] in programs
    ]
    assert not bare, "commands a new shell cannot find (activate first):\n" + "\n".join(bare)


def test_the_bot_the_readme_shows_is_the_example_the_arena_runs() -> None:
    """The README's bot is examples/bots/mybot.py's, so `py:examples/bots/mybot.py:MyBot`
    runs exactly what the reader read."""
    doc = mdexec.read(README)
    shown = [b.code for b in doc.python if "class MyBot(Bot)" in b.code]
    assert len(shown) == 1, "README.md shows one bot, class MyBot(Bot)"
    assert shown[0] in (REPO / "examples" / "bots" / "mybot.py").read_text(encoding="utf-8")
    assert len(shown[0].strip().splitlines()) <= 25


# --------------------------------------------------------------- history stays in git

_HEX = re.compile(r"\b[0-9a-f]{7,40}\b")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_document_carries_commit_hashes(path: Path) -> None:
    """Git keeps the history; a hash in a document means nothing to its reader."""
    text = path.read_text(encoding="utf-8")
    said = re.findall(r"\bcommits?\s+([0-9a-f]{6,40})\b", text)
    assert not said, f"{path.name}: commit hashes {said}"
    candidates = sorted({h for h in _HEX.findall(text) if not h.isdigit() or len(h) >= 7})
    if not candidates:
        return
    done = subprocess.run(
        ["git", "cat-file", "--batch-check"], cwd=REPO, input="\n".join(candidates) + "\n",
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    commits = [line.split()[0] for line in done.stdout.splitlines() if " commit " in line]
    assert not commits, f"{path.name}: names commits of this repository: {commits}"


@pytest.mark.parametrize("path", [README, BENCHMARKS, REPO / "docs" / "ai.md"],
                         ids=lambda p: p.name)
def test_documents_do_not_talk_of_an_issue_the_reader_cannot_see(path: Path) -> None:
    found = re.findall(r"[^.\n]*\bthe issue(?:'s)?\b[^.\n]*", path.read_text(encoding="utf-8"),
                       flags=re.I)
    assert not found, f"{path.name}: {found}"


# ------------------------------------------------------------------ docs/benchmarks.md


def _headline_rows() -> list[dict[str, str]]:
    text = BENCHMARKS.read_text(encoding="utf-8")
    body = text.split("\n## ", 2)
    assert len(body) >= 2 and body[1].startswith("Headline figures"), (
        "docs/benchmarks.md's first section is the headline figures"
    )
    lines = [line for line in body[1].splitlines() if line.startswith("|")]
    assert len(lines) >= 3, "a table: a header, its rule and the rows"
    header = [c.strip().lower() for c in lines[0].strip("|").split("|")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    return [dict(zip(header, row, strict=True)) for row in rows]


def test_benchmarks_open_with_a_headline_table_naming_the_command_and_machine() -> None:
    rows = _headline_rows()
    assert len(rows) >= 8
    for row in rows:
        assert set(row) >= {"figure", "command", "machine"}, row
        commands = re.findall(r"`([^`]+)`", row["command"])
        assert commands, f"no command in {row}"
        assert mdexec.runs_project_program(commands[0]), (
            f"{commands[0]!r} runs none of the project's programs"
        )
        assert row["machine"], f"no machine in {row}"


def test_benchmarks_have_a_section_per_area() -> None:
    sections = [s.lower() for s in _sections(BENCHMARKS)]
    for area in ("engine", "ai", "lan", "site", "widgets", "tests"):
        assert any(re.search(rf"\b{area}\b", s) for s in sections), (area, sections)
