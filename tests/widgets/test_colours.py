"""The cards' look for low vision: a four-colour deck, and every card's ink, playable or
dimmed, in both decks, readable against its face at WCAG AA contrast (4.5:1)."""

from __future__ import annotations

import re

from durak_widgets import Handoff, TableController, play
from durak_widgets.style import CSS

#: WCAG 2.x's minimum contrast for normal text (AA); a card's 17 px bold rank is below
#: the "large text" size that would need only 3:1.
AA = 4.5


def variables() -> dict[str, str]:
    """The CSS custom properties the stylesheet sets, by name; a var() of another is
    resolved (the last setting of a name wins, as in the cascade for one element)."""
    found = dict(re.findall(r"(--durak-[\w-]+):\s*([^;]+);", CSS))

    def resolve(value: str) -> str:
        ref = re.fullmatch(r"var\((--durak-[\w-]+)\)", value.strip())
        return resolve(found[ref.group(1)]) if ref else value.strip()

    return {name: resolve(value) for name, value in found.items()}


def rule(selector: str) -> str:
    """The declarations of the rule for exactly ``selector``."""
    found = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert found, selector
    return found.group(1)


def luminance(colour: str) -> float:
    """WCAG's relative luminance of a #rrggbb colour."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_computed_as_wcag_does() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # the classic just-fails grey


def test_every_suits_ink_reads_on_a_card_and_on_a_dimmed_card() -> None:
    css = variables()
    four = dict(re.findall(r"(--durak-ink-[SHDC]):\s*var\((--durak-[\w-]+)\)",
                           rule(".durak-root.durak-four-colour")))
    inks = {name: css[name] for name in ("--durak-ink-S", "--durak-ink-H")}
    inks |= {"two-colour ♦": css["--durak-red"], "two-colour ♣": css["--durak-black"]}
    inks |= {f"four-colour {name}": css[ref] for name, ref in four.items()}
    assert {css[four["--durak-ink-D"]], css[four["--durak-ink-C"]]} == {
        css["--durak-blue"], css["--durak-green"]}
    for face in ("--durak-card-bg", "--durak-dimmed-bg"):
        for name, ink in inks.items():
            ratio = contrast(ink, css[face])
            assert ratio >= AA, f"{name} {ink} on {face} {css[face]}: {ratio:.2f}"


def test_a_dimmed_card_is_not_faded_with_opacity() -> None:
    """Opacity blends the ink into what lies behind the card, below the ratio above."""
    dimmed = rule(".durak-root button.durak-dimmed")
    assert "opacity" not in dimmed and "var(--durak-dimmed-bg)" in dimmed


def test_the_four_colour_deck_is_an_option_of_the_table(tables: list[TableController]) -> None:
    table = play(opponents=["random"], seed=1, delay=0, handoff=Handoff(mode="sync"),
                 four_colour=True)
    plain = play(opponents=["random"], seed=1, delay=0, handoff=Handoff(mode="sync"))
    tables += [table, plain]
    assert "durak-four-colour" in table.view.root._dom_classes
    assert "durak-four-colour" not in plain.view.root._dom_classes
    suits = {c for b in table.view.visible_hand() for c in b._dom_classes
             if c.startswith("durak-suit-")}
    assert suits  # the ink follows the suit's class, which every card has
