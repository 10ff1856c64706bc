"""The words a player reads: every sentence the table, the hint and the review show.

One place, so the table speaks one language: the button labels are the verbs ("Take",
"Beaten", "Pass", "Transfer"), a move reads the same in the status line, the log, the
hint and the review (:func:`say_action`), people are "you" or their names, never seat
numbers, and nothing says how the AI searches ("rollouts", "iterations").

Every literal goes through :func:`_`, the marker gettext's extractors (Babel's
``pybabel extract``) look for; it returns its text unchanged until a translation is
installed.  Sentences with a number of things use :func:`n_` (gettext's ``ngettext``).

>>> from durak_core import Card, Pass, parse_action
>>> lead = Moment(lead=True, attacker=0, taking=False)
>>> say_action(parse_action("0 attack 7s"), lead)
'lead 7♠'
>>> throw_in = Moment(lead=False, attacker=0, taking=False)
>>> say_action(parse_action("1 attack As"), throw_in, ["You", "Bob"], you=0)
'Bob throws in A♠'
>>> say_action(Pass(0), throw_in), say_action(Pass(0), throw_in, ["You", "Bob"], you=0)
('say “Beaten”', 'you say “Beaten”')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from durak_core import (
    Action,
    Attack,
    Attacked,
    Card,
    Defend,
    Defended,
    Discarded,
    Drew,
    GameOver,
    Left,
    NewBout,
    Pass,
    Passed,
    PickedUp,
    Take,
    TakeDeclared,
    Transfer,
    Transferred,
)


def _(text: str) -> str:
    """Mark ``text`` as words a player reads (gettext's marker; identity for now)."""
    return text


def n_(one: str, many: str, count: int) -> str:
    """The singular or plural form of a sentence about ``count`` things (``ngettext``)."""
    return one if count == 1 else many


# ---------------------------------------------------------------- button labels

TAKE = _("Take")
BEATEN = _("Beaten")
PASS = _("Pass")
TRANSFER = _("Transfer")
SHOW = _("Show")
NEW_GAME = _("New game")
REVIEW = _("Review")
HIDE_REVIEW = _("Hide review")
REVIEWING = _("Reviewing…")
HINT = _("Hint")
HINT_TOOLTIP = _("Show the AI's suggestion and each move's chance of not being the durak")
SHOW_MY_CARDS = _("Show my cards")


def show_label(card: Card | str) -> str:
    """The button that transfers by showing the trump ``card``."""
    return _("Show {card} (transfer)").format(card=card)


def reveal_label(name: str) -> str:
    """The hot-seat button that shows the hand of the person whose turn it is."""
    return _("{name}: show my cards").format(name=name)


# ---------------------------------------------------------------- who

def name_of(seat: int, names: Sequence[str], you: int | None) -> str:
    """``"you"`` for the one person at this screen, else the seat's name."""
    return _("you") if seat == you else names[seat]


def capital(text: str) -> str:
    """``text`` with its first letter capitalised (a sentence that starts with "you")."""
    return text[:1].upper() + text[1:]


_PLAYERS = re.compile(r"\b([Pp])layers? (\d+(?:(?:, | and )\d+)*)\b")


def with_names(sentence: str, names: Sequence[str], you: int | None = None) -> str:
    """A sentence of the rules engine with its seat numbers ("player 1", "players 1 and
    3") replaced by names, for the status line: the engine numbers seats, people have
    names.

    >>> with_names("Wait for player 1 to beat the cards.", ["You", "Bob"], 0)
    'Wait for Bob to beat the cards.'
    >>> with_names("Only the defender, player 0, can take.", ["You", "Bob"], 0)
    'Only the defender, you, can take.'
    """

    def named(match: re.Match[str]) -> str:
        seats = [int(s) for s in re.findall(r"\d+", match.group(2))]
        if any(s >= len(names) for s in seats):
            return match.group(0)
        words = [name_of(s, names, you) for s in seats]
        text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + _(" and ") + words[-1]
        return capital(text) if match.group(1) == "P" else text

    return _PLAYERS.sub(named, sentence)


# ---------------------------------------------------------------- moves

@dataclass(frozen=True)
class Moment:
    """What the words for a move depend on, besides the move.

    lead: the table is empty, so an attack card is a lead, not a throw-in.
    attacker: the bout's main attacker, whose pass is said "Beaten" (None: not known).
    taking: the defender declared take, so a pass is a plain "Pass".
    """

    lead: bool
    attacker: int | None
    taking: bool

    @classmethod
    def of(cls, observation: dict[str, Any]) -> Moment:
        """The moment an observation (:meth:`durak_core.Game.observation`) shows."""
        return cls(not observation["table"], int(observation["attacker"]),
                   bool(observation["taking"]))

    def after(self, event: Any) -> Moment:
        """The moment after ``event`` (events of the same game, in order)."""
        if isinstance(event, NewBout):
            return Moment(True, event.attacker, False)
        if isinstance(event, Attacked):
            return replace(self, lead=False)
        if isinstance(event, Transferred):
            return replace(self, lead=False, attacker=event.player)
        if isinstance(event, TakeDeclared):
            return replace(self, taking=True)
        if isinstance(event, Left) and event.player == self.attacker:
            return replace(self, attacker=None)  # the engine names another main attacker
        if isinstance(event, GameOver):
            return Moment(True, None, False)
        return self


def pass_label(seat: int, moment: Moment) -> str:
    """The Pass button's label for ``seat``: "Beaten" for the main attacker when the
    defender beat everything, else "Pass"."""
    return BEATEN if seat == moment.attacker and not moment.taking else PASS


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join("?" if c is None else str(c) for c in cards)


#: A move's words: (what a person is told to do / "you ..." / what another player does).
def _forms(action: Action, moment: Moment) -> tuple[str, str]:
    """The move as (base form, third person): ("throw in A♠", "throws in A♠")."""
    if isinstance(action, Attack):
        cards = _cards(action.cards)
        if moment.lead:
            return _("lead {cards}").format(cards=cards), _("leads {cards}").format(cards=cards)
        return (_("throw in {cards}").format(cards=cards),
                _("throws in {cards}").format(cards=cards))
    if isinstance(action, Defend):
        a, c = action.attack_card, action.card
        return (_("beat {attack} with {card}").format(attack=a, card=c),
                _("beats {attack} with {card}").format(attack=a, card=c))
    if isinstance(action, Transfer):
        if action.show:
            return (_("show {card} to transfer").format(card=action.card),
                    _("shows {card} to transfer").format(card=action.card))
        return (_("transfer with {card}").format(card=action.card),
                _("transfers with {card}").format(card=action.card))
    if isinstance(action, Take):
        return _("take"), _("takes")
    if pass_label(action.player, moment) == BEATEN:
        return _("say “{label}”").format(label=BEATEN), _("says “{label}”").format(label=BEATEN)
    return _("pass"), _("passes")


def say_action(
    action: Action,
    moment: Moment,
    names: Sequence[str] | None = None,
    you: int | None = None,
) -> str:
    """An action in the table's words: the one place a move is put into words.

    Without ``names``: what to do ("throw in A♠", "say “Beaten”", "take"), for the
    hint and the review.  With them: who did it ("you take", "Bob throws in A♠").
    ``moment``: the table when it was played (:class:`Moment`).
    """
    base, third = _forms(action, moment)
    if names is None:
        return base
    if action.player == you:
        return f"{name_of(action.player, names, you)} {base}"
    return f"{name_of(action.player, names, you)} {third}"


def _action_of(event: Any) -> Action | None:
    """The action an action event reports (None for other events)."""
    if isinstance(event, Attacked):
        return Attack(event.player, event.cards[0], tuple(event.cards[1:]))
    if isinstance(event, Defended):
        return Defend(event.player, event.attack_card, event.card)
    if isinstance(event, Transferred):
        return Transfer(event.player, event.card, event.shown)
    if isinstance(event, TakeDeclared):
        return Take(event.player)
    if isinstance(event, Passed):
        return Pass(event.player)
    return None


def say_event(
    event: Any, names: Sequence[str], you: int | None = None, moment: Moment | None = None
) -> str:
    """One log line for an engine event, in the same words as :func:`say_action`.

    moment: the table before the event (the controller follows it event by event);
        None reads an attack as a lead and a pass as "passes".

    >>> from durak_core import Card
    >>> say_event(Defended(1, Card.parse("7s"), Card.parse("9s")), ["You", "random"], 0)
    'random beats 7♠ with 9♠'
    """
    moment = moment or Moment(True, None, False)
    action = _action_of(event)
    if action is not None:
        line = say_action(action, moment, names, you)
        if isinstance(event, Transferred):
            line += _(" to {name}").format(name=name_of(event.defender, names, you))
        return line

    def verb(seat: int, plain: str, third: str) -> str:
        return f"{name_of(seat, names, you)} {plain if seat == you else third}"

    if isinstance(event, PickedUp):
        n = len(event.cards)
        return verb(event.player, _("pick up"), _("picks up")) + " " + cards_count(n)
    if isinstance(event, Discarded):
        return _("beaten: {cards} to the discard pile").format(cards=cards_count(len(event.cards)))
    if isinstance(event, Drew):
        return verb(event.player, _("draw"), _("draws")) + " " + cards_count(len(event.cards))
    if isinstance(event, Left):
        return verb(event.player, _("are out"), _("is out")) + _(" (place {place})").format(
            place=event.place)
    if isinstance(event, NewBout):
        return f"— {name_of(event.attacker, names, you)} → {name_of(event.defender, names, you)} —"
    if isinstance(event, GameOver):
        if event.durak is None:
            return _("game over: a draw")
        if len(event.losers) > 1:
            return _("game over: {team} lose").format(
                team=" & ".join(name_of(s, names, you) for s in event.losers))
        if event.durak == you:
            return _("game over: you are the durak")
        return _("game over: {name} is the durak").format(name=name_of(event.durak, names, you))
    return str(event)  # an event type added to the core later


def cards_count(n: int) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return n_("{n} card", "{n} cards", n).format(n=n)


def shows_lowest_trump(seat: int, card: Card | str, names: Sequence[str], you: int | None) -> str:
    """The opening of a LAN game: who holds the lowest trump and so leads.

    >>> shows_lowest_trump(1, "7♥", ["Ann", "Ben"], 0)
    'Ben shows 7♥, the lowest trump, and attacks first.'
    >>> shows_lowest_trump(0, "7♥", ["Ann", "Ben"], 0)
    'You show 7♥, the lowest trump, and attack first.'
    """
    if seat == you:
        return _("You show {card}, the lowest trump, and attack first.").format(card=card)
    return _("{name} shows {card}, the lowest trump, and attacks first.").format(
        name=names[seat], card=card)


# ---------------------------------------------------------------- the table

TABLE_EMPTY = _("the table is empty")
THINKING = _("thinking…")
MAY_NOT_THROW = _("may not throw in")
TALON_TITLE = _("cards in the talon")
TRUMP_TITLE = _("trump card")
CLOCK_TITLE = _("move clock")
#: A seat's part in the bout, beside an opponent's name (the controller's role keys).
ROLES = {"attacks": _("attacks"), "defends": _("defends"), "takes": _("takes"),
         "throws in": _("throws in"), "passed": _("passed"), "out": _("out"),
         "durak": _("durak")}
#: The same, on the viewer's own line ("You: 6 cards · defending").
MY_ROLES = {"attacks": _("attacking"), "defends": _("defending"), "takes": _("taking"),
            "throws in": _("throwing in"), "passed": _("passed"), "out": _("out"),
            "durak": _("the durak")}


def known_cards(cards: Sequence[str]) -> str:
    return _("known: {cards}").format(cards=" ".join(cards))


def talon_empty(trump_symbol: str) -> tuple[str, str]:
    """The two lines where the talon was: it is empty, and the trump suit."""
    return _("talon empty"), _("trump {suit}").format(suit=trump_symbol)


def discard_pile(count: int) -> str:
    return _("discard pile: {count}").format(count=count)


def my_line(name: str, count: int, role: str) -> str:
    """The viewer's own line above the hand: "You: 6 cards · defending"."""
    line = f"{name}: {cards_count(count)}"
    return f"{line} · {MY_ROLES.get(role, role)}" if role else line


def move_counter(bout: int, move: int) -> str:
    """The small counter in the status line (browser tests wait for it to change)."""
    return _("bout {bout} · move {move}").format(bout=bout, move=move)


def throw_in_line(rule: str, defender: str, throwers: Sequence[str], teams: bool) -> str:
    """The line above the opponents at more than two seats: who may throw in (HTML-free
    parts; the names are escaped by the caller and the thrower names come in bold)."""
    if rule == "neighbours":
        who = _(" and ").join(throwers) or _("nobody")
        line = _("Throw-in: only {defender}'s neighbours (<b>{who}</b>)").format(
            defender=defender, who=who)
    else:
        line = _("Throw-in: everyone but the defender, {defender}").format(defender=defender)
    return line + (_(" (not the defender's partner)") if teams else "")


# ---------------------------------------------------------------- the status line

def status_pass_screen(name: str) -> str:
    return _("<b>{name}'s turn:</b> pass the screen, then click {button}.").format(
        name=name, button=SHOW_MY_CARDS)


STATUS_OUT = _("<b>You are out: safe!</b> The others play on.")
STATUS_MAY_THROW_MEANWHILE = _(" You may throw in a card of a rank on the table meanwhile.")


def status_waiting(name: str, what: str) -> str:
    """"Waiting for Bob to lead." ``what``: "lead", "defend" or "throw in"."""
    doing = {"lead": _("lead"), "defend": _("beat the cards or take them"),
             "throw in": _("throw in or pass")}[what]
    return _("Waiting for {name} to {doing}.").format(name=name, doing=doing)


def status_thinking(name: str) -> str:
    return _(" {name} is thinking…").format(name=name)


def status_lead(defender: str) -> str:
    return _("<b>Your lead:</b> click a card to attack {defender}.").format(defender=defender)


def status_defend(can_transfer: bool) -> str:
    options = [_("beat the cards (click a card, then the card to beat)")]
    if can_transfer:
        options.append(_("transfer (click a card of the same rank, then {button})").format(
            button=TRANSFER))
    options.append(_("click {button}").format(button=TAKE))
    return _("<b>Your move:</b> {options} or {last}.").format(
        options=", ".join(options[:-1]), last=options[-1])


def status_selected(card: Card, can_transfer: bool) -> str:
    if can_transfer:
        return _(" Selected {card}: click the card to beat, or {button}.").format(
            card=card, button=TRANSFER)
    return _(" Selected {card}: click the card to beat; click it again to cancel.").format(
        card=card)


def status_others_take(defender: str, room: int) -> str:
    return _("<b>Your move:</b> {defender} takes; throw in more (up to {room}) or click "
             "{button}.").format(defender=defender, room=room, button=PASS)


def status_throw_in(label: str) -> str:
    return _("<b>Your move:</b> throw in a card of a rank on the table, or click "
             "{button}.").format(button=label)


def status_over(can_review: bool) -> str:
    """The status line once the game is over (the banner says who lost)."""
    if can_review:
        return _("<b>Game over.</b> {new} deals the next one; {review} shows what the AI "
                 "thought of your moves.").format(new=NEW_GAME, review=REVIEW)
    return _("<b>Game over.</b> {new} deals the next one.").format(new=NEW_GAME)


# ---------------------------------------------------------------- the banner

def banner(obs: dict[str, Any], names: Sequence[str], you: int | None) -> str:
    """The game-over banner: who is the durak, and what that means for you."""
    losers = obs["losers"]
    durak = obs["durak"]
    if durak is None:
        reason = obs.get("end_reason") or ""
        if reason and reason != "everybody went out together":
            return _("A draw: nobody is the durak ({reason}).").format(reason=reason)
        return _("A draw: nobody is the durak.")
    if len(losers) > 1:
        return _("Team {team} lose!").format(team=" & ".join(names[s] for s in losers))
    if durak == you:
        return _("You are the durak!")
    line = _("{name} is the durak!").format(name=names[durak])
    if you is not None:
        line += _(" You win!") if len(obs["hands"]) == 2 else _(" You are safe.")
    return line


def score_line(games: int, counts: Sequence[tuple[str, int]], draws: int) -> str:
    parts = " · ".join(f"{name} {count}" for name, count in counts)
    return _("<b>Match</b> · games {games} · times durak: {parts} · draws {draws}").format(
        games=games, parts=parts, draws=draws)


# ---------------------------------------------------------------- notices

NOTICE_ALREADY_BEATEN = _("That card is already beaten.")
NOTICE_SHOW_FIRST = _("Show your cards first.")
NOTICE_OVER = _("The game is over: click {button} to play again.").format(button=NEW_GAME)
NOTICE_PICK_FIRST = _("Pick a card from your hand first.")
NOTICE_PICK_THEN_TARGET = _("Pick a card from your hand first, then click the card to beat.")
NOTICE_FINISH_FIRST = _("Finish this game first.")
NEW_GAME_LOG = _("— new game —")


def cannot_play(card: Card) -> str:
    return _("{card} cannot be played now.").format(card=card)


def select_to_transfer(rank: str) -> str:
    return _("Select the card to transfer with (a {rank}), then click {button}.").format(
        rank=rank, button=TRANSFER)


def internal_error(kind: str, detail: str) -> str:
    return _("Internal error: {kind}: {detail}").format(kind=kind, detail=detail)


def not_at_this_screen(name: str) -> str:
    return _("{name} is a bot: its moves are not made at this screen.").format(name=name)


# ---------------------------------------------------------------- the hint

HINT_SHOW_CARDS = _("<b>Hint:</b> show your cards first.")
HINT_NOTHING_NOW = _("<b>Hint:</b> nothing to decide for you now.")
HINT_NOTHING = _("<b>Hint:</b> nothing to decide.")
HINT_THINKING = _("<b>Hint:</b> the AI is thinking…")
HINT_CHANCES = _("Chance of not being the durak after each move:")
CERTAIN = _(" (certain)")


def hint_failed(error: str) -> str:
    return _("<b>Hint:</b> the AI failed ({error}).").format(error=error)


def hint_best(move: str) -> str:
    """The hint's first line; ``move`` is :func:`say_action`'s words, escaped."""
    return _("<b>Hint:</b> the AI would <b>{move}</b>.").format(move=move)


def more_moves(count: int) -> str:
    return n_("… {n} more move", "… {n} more moves", count).format(n=count)


# ---------------------------------------------------------------- the review

REVIEW_BUSY = _("The AI is reviewing your decisions…")
REVIEW_NOT_YET_LAN = _("The review is there once the game's audit has opened every card.")
REVIEW_NO_LOG = _("This table keeps no game log to review.")
REVIEW_NOT_OVER = _("The review is there when the game is over.")
REVIEW_DROPS = _("Where the chance dropped most:")
REVIEW_NO_DROP = _("No move fell clearly short of the AI's choice.")
REVIEW_NO_DECISIONS = _("No decisions to review (every move was forced).")
REVIEW_CHART_LABEL = _("chance of not being the durak after each move")
REVIEW_AXIS = _("your decisions, in the order played (the number is the move of the game)")
REVIEW_CHANCES = _("chance after each decision (%)")


def review_failed(error: str) -> str:
    return _("The review failed: {error}").format(error=error)


def review_title(who: str, outcome: str, decisions: int) -> str:
    """``who``: a name, or "you" for the person at this screen; ``outcome``: "safe",
    "durak" or "draw".  No word on the AI's budget: that is how it searched, not what
    the player did."""
    if who.lower() == "you":
        end = {"safe": _("you got out safe"), "durak": _("you were the durak"),
               "draw": _("you drew")}[outcome]
        return n_("Review of your game ({end}): {n} decision, with the AI's estimate",
                  "Review of your game ({end}): {n} decisions, with the AI's estimates",
                  decisions).format(end=end, n=decisions)
    end = {"safe": _("{who} got out safe"), "durak": _("{who} was the durak"),
           "draw": _("{who} drew")}[outcome].format(who=who)
    return n_("Review of {who}'s game ({end}): {n} decision, with the AI's estimate",
              "Review of {who}'s game ({end}): {n} decisions, with the AI's estimates",
              decisions).format(who=who, end=end, n=decisions)


def review_point(number: int, played: str, chance: float) -> str:
    """A chart point's tooltip."""
    return _("move {number}: {played} ({chance:.0f}%)").format(
        number=number, played=played, chance=100 * chance)


def review_drop(number: int, whose: str, played: str, chance: float, best: str,
                best_chance: float) -> str:
    """One of the review's biggest drops. ``whose``: "your" or "Bob's"."""
    return _("move {number}, {whose} move: {played} — {chance:.0f}%; the AI would "
             "{best} — {best_chance:.0f}%").format(
        number=number, whose=whose, played=played, chance=100 * chance, best=best,
        best_chance=100 * best_chance)


def whose(who: str) -> str:
    """"your" for "you", else "Bob's"."""
    return _("your") if who.lower() == "you" else _("{who}'s").format(who=who)


# ---------------------------------------------------------------- the notebook

def table_repr(names: Sequence[str]) -> str:
    """The table's plain-text form: what a notebook shows where the widgets cannot be
    drawn (a saved output whose kernel is gone, a terminal, a static page)."""
    return _("<Durak table: {players} — run this cell in Jupyter to play>").format(
        players=_(" vs ").join(names))


# ---------------------------------------------------------------- the coach's reasons
# Sentences for the records of durak_core.bots.reasons (why the AI prefers a move):
# the hint shows the top one beside its move, the review beside each marked move.

from durak_core.bots.reasons import (  # noqa: E402
    BeatCheaply,
    CannotBeat,
    KeepHigh,
    KeepTrumps,
    NoHigher,
    Reason,
    Solved,
)

#: Suit names in the plural, by suit number (spades, clubs, diamonds, hearts).
SUITS_PLURAL = (_("spades"), _("clubs"), _("diamonds"), _("hearts"))

_OUTCOMES = {"win": _("wins"), "draw": _("draws"), "loss": _("loses")}


def say_reason(reason: Reason) -> str:
    """A reason in the player's words (no seat numbers: "the opponent", "the defender").

    >>> from durak_core import Card
    >>> say_reason(KeepTrumps(Card.parse("9h"), tuple(Card.parse(c) for c in ("Jh", "Ah"))))
    'keep your trumps: 2 higher trumps than 9♥ are still out'
    >>> say_reason(NoHigher(1, Card.parse("7h"), Card.parse("9h"), 0.35, True))
    'the opponent took rather than beat 7♥: they probably hold no higher hearts'
    >>> say_reason(Solved("win", None, False))
    'the talon is empty: from here the game is solved, and this move wins'
    """
    if isinstance(reason, Solved):
        return _solved(reason)
    if isinstance(reason, NoHigher):
        suit = SUITS_PLURAL[reason.taken.suit]
        if reason.heads_up:
            return _("the opponent took rather than beat {card}: they probably hold no "
                     "higher {suit}").format(card=reason.taken, suit=suit)
        return _("the defender took rather than beat {card} before: they probably hold "
                 "no higher {suit}").format(card=reason.taken, suit=suit)
    if isinstance(reason, CannotBeat):
        who = _("the opponent") if reason.heads_up else _("the defender")
        if reason.certain:
            return _("{who} holds nothing that beats {card}: you know all their "
                     "cards").format(who=who, card=reason.card)
        if reason.chance < 0.05:
            return _("{who} almost surely holds nothing that beats {card}").format(
                who=who, card=reason.card)
        return _("{who} probably holds nothing that beats {card} (about {p:.0f}% that "
                 "they do)").format(who=who, card=reason.card, p=100 * reason.chance)
    if isinstance(reason, BeatCheaply):
        return n_("beat {attack} with {card}: it costs no trump, and taking would add "
                  "{n} card to your hand",
                  "beat {attack} with {card}: it costs no trump, and taking would add "
                  "{n} cards to your hand",
                  reason.taken).format(attack=reason.attack, card=reason.card, n=reason.taken)
    if isinstance(reason, KeepHigh):
        count = len(reason.beaters_out)
        if not count:
            return _("play low and keep your {card}: no card still out beats it").format(
                card=reason.card)
        return n_("play low and keep your {card}: only {n} card still out beats it",
                  "play low and keep your {card}: only {n} cards still out beat it",
                  count).format(card=reason.card, n=count)
    if not isinstance(reason, KeepTrumps):
        raise TypeError(f"not a reason: {reason!r}")
    count = len(reason.higher_out)
    if not count:
        return _("keep your trumps: {card} is the highest trump left in the game").format(
            card=reason.trump)
    return n_("keep your trumps: {n} higher trump than {card} is still out",
              "keep your trumps: {n} higher trumps than {card} are still out",
              count).format(n=count, card=reason.trump)


def _solved(reason: Solved) -> str:
    solved = _("the talon is empty: from here the game is solved")
    if reason.against is not None:
        return _("{solved}: the AI's move {value}, the move played {against}").format(
            solved=solved, value=_OUTCOMES[reason.value], against=_OUTCOMES[reason.against])
    if reason.every and reason.value == "loss":
        return _("{solved}, and every move loses if the opponent plays well").format(
            solved=solved)
    if reason.every:
        return _("{solved}, and every move {value}").format(
            solved=solved, value=_OUTCOMES[reason.value])
    return _("{solved}, and this move {value}").format(
        solved=solved, value=_OUTCOMES[reason.value])


def hint_why(reason: str) -> str:
    """The hint's reason line; ``reason`` is :func:`say_reason`'s words, escaped."""
    return _("<b>Why:</b> {reason}.").format(reason=reason)


def review_why(line: str, reason: str) -> str:
    """A marked move of the review (:func:`review_drop`'s ``line``) with its reason."""
    return _("{line}. Why: {reason}").format(line=line, reason=reason)
