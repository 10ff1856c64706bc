"""The coach says why: the top reason beside the hint's move and each marked move."""

from __future__ import annotations

import html
import re

from durak_core import Game, Rules, parse_action
from durak_core.bots import GreedyBot, MoveEstimate, RandomBot, play_game
from durak_core.bots.coach import hint, hint_reasons, review, shown_order
from durak_core.bots.reasons import KeepTrumps
from durak_widgets import TableController, words
from durak_widgets.coach import hint_table
from durak_widgets.review import review_html, review_text
from durak_widgets.words import Moment, say_action

from .widget_helpers import deal, sync_table

RULES = Rules()
# Seat 0 holds the lowest trump (6♣) and leads; clubs are trumps (K♣ under the talon).
HANDS = [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]]


def test_the_hint_says_why_beside_the_suggested_move(tables: list[TableController]) -> None:
    table = sync_table(RULES, {1: GreedyBot()}, first_game=deal(HANDS, "K♣", RULES))
    table.coach.iterations = 60
    tables.append(table)
    table.view.hint_toggle.value = True
    observation = table.backend.game.observation(0)  # type: ignore[attr-defined]
    estimates = hint(observation, (), iterations=60)
    reasons = hint_reasons(observation, (), estimates)
    # The AI leads a plain card rather than its one trump: the trumps above 6♣ are out.
    assert isinstance(reasons[0], KeepTrumps) and str(reasons[0].trump) == "6♣"
    assert len(reasons[0].higher_out) == 8  # 7♣ to A♣: none in its hand, on the table
    text = html.unescape(re.sub(r"<[^>]+>", "", table.view.hint.value))
    assert f"Why: {words.say_reason(reasons[0])}." in text
    assert text.index("the AI would") < text.index("Why:") < text.index("Chance of")


def test_a_hint_without_reasons_shows_the_chances_alone() -> None:
    game = Game.new(RULES, seed=1)
    estimates = hint(game.observation(game.attacker), (), iterations=20)
    moment = Moment.of(game.observation(game.attacker))
    assert "Why:" not in hint_table(estimates, moment)
    assert hint_table(estimates, moment, []) == hint_table(estimates, moment)


def test_each_marked_move_of_the_review_shows_its_top_reason() -> None:
    game = play_game(Game.new(RULES, seed=2), [RandomBot(seed=2), GreedyBot()])
    report = review(game, 0, iterations=40, seed=1)
    marked = report.biggest_drops()
    told = [d for d in marked if d.reasons]
    assert told, "this seeded game has a marked move with a reason"
    page, text = html.unescape(review_html(report)), review_text(report)
    for d in marked:
        sentence = words.say_reason(d.reasons[0]) if d.reasons else None
        if sentence is not None:
            assert f"Why: {sentence}" in page and f"Why: {sentence}" in text
    assert page.count("Why:") == len(told)


def test_every_kind_of_reason_has_words_and_no_seat_numbers() -> None:
    from durak_core import Card
    from durak_core.bots.reasons import (
        BeatCheaply,
        CannotBeat,
        KeepHigh,
        KeepTrumps,
        NoHigher,
        Solved,
    )

    c = Card.parse
    reasons = [
        Solved("win", None, False), Solved("loss", None, True), Solved("draw", "loss", False),
        NoHigher(3, c("7h"), c("9h"), 0.35, False), NoHigher(1, c("7h"), c("9h"), 0.35, True),
        CannotBeat(2, c("Jd"), 0.2, False), CannotBeat(1, c("Jd"), 0.0, True, certain=True),
        CannotBeat(1, c("Jd"), 0.01, True),
        KeepTrumps(c("9h"), ()), KeepTrumps(c("9h"), (c("Ah"),)),
        BeatCheaply(c("6d"), c("9d"), 3), KeepHigh(c("Kc"), (c("Ac"),)), KeepHigh(c("Ac"), ()),
    ]
    said = [words.say_reason(r) for r in reasons]
    assert len(set(said)) == len(said)  # each says something of its own
    for r, text in zip(reasons, said, strict=True):
        assert not re.search(r"\b(seat|player)s? \d", text), text
        seat = getattr(r, "opponent", None)
        if seat is not None:  # the opponent is "the opponent" or "the defender"
            assert not re.search(rf"(?<![\d%])\b{seat}\b(?!%)", text), text
        assert r.kind  # a stable code for each kind, no words in it


def test_the_hint_suggests_the_highest_chance_shown_and_says_what_the_search_ranks_first(
) -> None:
    game = Game.new(RULES, seed=7)  # hearts are trumps; seat 1 leads
    observation = game.observation(1)
    moment = Moment.of(observation)
    low, trump = parse_action("1 attack 9c"), parse_action("1 attack 6h")
    # The search's score puts the low lead first; the trump shows the higher chance
    # (more of its deals end in a draw, which the score counts half).
    estimates = shown_order([MoveEstimate(low, 0.60, 0.60, 40),
                             MoveEstimate(trump, 0.575, 0.65, 40)])
    text = html.unescape(re.sub(r"<[^>]+>", "", hint_table(estimates, moment)))
    led_trump, led_low = say_action(trump, moment), say_action(low, moment)
    assert f"the AI would {led_trump}." in text
    assert text.index(f"{led_trump}65%") < text.index(f"{led_low}60%")
    assert f"counts a draw as half a win, ranks {led_low} first" in text
    # When the two orders agree, no such line.
    agree = shown_order([MoveEstimate(low, 0.60, 0.70, 40), MoveEstimate(trump, 0.5, 0.6, 40)])
    assert "ranks" not in hint_table(agree, moment)
