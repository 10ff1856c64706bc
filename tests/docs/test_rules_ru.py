"""docs/rules.ru.md, the rules in Russian, keeps in step with docs/rules.md: the same
sections, and the options table names every option the engine has (a new option in
``Rules`` fails here until both pages list it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from durak_core import Rules

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ["rules.md", "rules.ru.md"]


def _options_table(text: str) -> list[str]:
    """The options the page's options table lists (its rows' first cells), in order."""
    return re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE)


@pytest.mark.parametrize("page", PAGES)
def test_the_options_table_lists_every_option_of_the_rules(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    assert _options_table(text) == list(Rules().to_dict())


def test_the_russian_rules_have_a_section_for_each_english_one() -> None:
    english, russian = ((DOCS / page).read_text(encoding="utf-8") for page in PAGES)
    headings = [re.findall(r"^## .+$", text, flags=re.MULTILINE) for text in (english, russian)]
    assert len(headings[0]) == len(headings[1]), headings
    assert not re.search(r"[A-Za-z]{4,}", " ".join(headings[1]).replace("`", "")), headings[1]
    assert "](rules.ru.md)" in english and "](rules.md)" in russian
