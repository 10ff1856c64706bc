"""The words a player reads: every sentence the table, the hint and the review show.

One place, so the table speaks one language: the button labels are the verbs ("Take",
"Beaten", "Pass", "Transfer"), a move reads the same in the status line, the log, the
hint and the review (:func:`say_action`), people are "you" or their names, never seat
numbers, and nothing says how the AI searches ("rollouts", "iterations").

Every literal goes through :func:`_`, the marker gettext's extractors (Babel's
``pybabel extract``) look for, which reads it from the catalog of the table's language
(:mod:`durak_widgets.i18n`); sentences with a number of things use :func:`n_`
(``ngettext``), fixed texts :func:`N_` (translated when read).  A sentence is a whole
msgid with its names as placeholders ("{name} takes"), never English glued from parts:
other languages order and inflect differently.

The LAN lobby and table (``lan.py``, ``lan_table.py``, ``lan_seating.py``) mark their
own sentences with these same markers where they are said (network states, pairing,
seating: words no other screen has), and scripts/catalogs.py extracts them into the
same catalog; the words for moves, cards and people they share with every table come
from here.  What the LAN session and audit find (a verdict, a stopped game, a desync) is
made by durak_net as a note, and :func:`say_note` says it with the terminal's sentences
(the ``durak_net`` catalog) in the table's language: one place for those words.

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

from collections.abc import Callable, Sequence
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
from durak_lang import reasons as engine_reasons

from . import i18n


def _(text: str) -> str:
    """``text`` in the table's language (gettext's marker and lookup)."""
    return i18n.gettext(text)


def n_(one: str, many: str, count: int) -> str:
    """The form of a sentence about ``count`` things (``ngettext``)."""
    return i18n.ngettext(one, many, count)


def N_(text: str) -> str:
    """Mark ``text`` for the catalog without translating it yet (a constant, translated
    when read: see :func:`__getattr__`)."""
    return text


# ---------------------------------------------------------------- constants

#: The fixed texts, by the name callers read (``words.TAKE``): kept in English and
#: translated when read (:func:`__getattr__`), as the table's language is known only then.
_TEXTS: dict[str, str] = {}


def _t(name: str) -> str:
    """The fixed text ``name`` in the language in force."""
    return _(_TEXTS[name])


def __getattr__(name: str) -> str:
    """``words.TAKE`` and the other fixed texts, in the language in force."""
    if name in _TEXTS:
        return _t(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------- button labels

_TEXTS["TAKE"] = N_("Take")
_TEXTS["BEATEN"] = N_("Beaten")
_TEXTS["PASS"] = N_("Pass")
_TEXTS["TRANSFER"] = N_("Transfer")
_TEXTS["SHOW"] = N_("Show")
_TEXTS["NEW_GAME"] = N_("New game")
_TEXTS["REVIEW"] = N_("Review")
_TEXTS["HIDE_REVIEW"] = N_("Hide review")
_TEXTS["REVIEWING"] = N_("Reviewing…")
_TEXTS["HINT"] = N_("Hint")
_TEXTS["HINT_TOOLTIP"] = N_(
    "Show the AI's suggestion and each move's chance of not being the durak")
_TEXTS["SHOW_MY_CARDS"] = N_("Show my cards")


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


def with_names(sentence: str, names: Sequence[str], you: int | None = None) -> str:
    """A sentence of the rules engine with its seat numbers ("player 1", "players 1 and
    3") replaced by names, for the status line: the engine numbers seats, people have
    names (:func:`durak_lang.reasons.with_names`, which every screen uses).

    >>> with_names("Wait for player 1 to beat the cards.", ["You", "Bob"], 0)
    'Wait for Bob to beat the cards.'
    >>> with_names("Only the defender, player 0, can take.", ["You", "Bob"], 0)
    'Only the defender, you, can take.'
    """
    return engine_reasons.with_names(sentence, names, you)


# ---------------------------------------------------------------- default names

#: The built-in bots' display names (their registry names are code, not words).
_BOT_NAMES = {"random": N_("random"), "greedy": N_("greedy"), "ismcts": N_("ismcts"),
              "ismcts-v1": N_("ismcts-v1"), "ismcts-v2": N_("ismcts-v2")}


def person_name(index: int | None) -> str:
    """The default name of the one person at the screen (None), or of the ``index``-th
    (from 0) of several sharing it."""
    if index is None:
        return _("You")
    return _("Player {number}").format(number=index + 1)


def is_you(name: str) -> bool:
    """Whether ``name`` is the default name of the one person at the screen ("You",
    "Вы"), who is spoken to as "you"."""
    return name.lower() in ("you", person_name(None).lower())


def bot_name(name: str) -> str:
    """A bot's display name: the built-in ones' in the table's language."""
    return _(_BOT_NAMES[name]) if name in _BOT_NAMES else name


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
    return _t("BEATEN") if seat == moment.attacker and not moment.taking else _t("PASS")


# ---------------------------------------------------------------- cards

#: A rank's name, for screen readers ("queen of clubs").
_RANK_NAMES = {"2": N_("two"), "3": N_("three"), "4": N_("four"), "5": N_("five"),
               "6": N_("six"), "7": N_("seven"), "8": N_("eight"), "9": N_("nine"),
               "10": N_("ten"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king"),
               "A": N_("ace")}
#: A suit's name after "of" ("of clubs"; Russian: "треф").
_SUIT_NAMES = {"♠": N_("of spades"), "♥": N_("of hearts"), "♦": N_("of diamonds"),
               "♣": N_("of clubs")}


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def card_text(card: Card | str | None) -> str:
    """A card as printed on it, in the table's language: ``"Q♣"`` (Russian ``"Д♣"``);
    ``"?"`` for a card nobody at this screen may see.  The rank letters are
    :mod:`durak_lang`'s, which says the engine's reasons with them too.

    >>> card_text("Qc"), card_text("10h"), card_text(None)
    ('Q♣', '10♥', '?')
    """
    return engine_reasons.card_text(card)


def card_name(card: Card | str, trump: bool = False) -> str:
    """A card in words, for screen readers: ``"queen of clubs"``, ``"queen of clubs,
    trump"`` (Russian ``"дама треф, козырь"``).

    >>> card_name("Qc", trump=True)
    'queen of clubs, trump'
    """
    c = _card(card)
    name = _("{rank} {suit}").format(rank=_(_RANK_NAMES[c.rank_name]),
                                     suit=_(_SUIT_NAMES[str(c)[-1]]))
    return _("{card}, trump").format(card=name) if trump else name


def _cards(cards: Sequence[Card | str | None]) -> str:
    return " ".join(card_text(c) for c in cards)


# ---------------------------------------------------------------- moves, in words

def _forms(action: Action, moment: Moment) -> tuple[str, str, str]:
    """The move as (what to do, what "you" do, what "{name}" does): whole sentences,
    as languages differ in more than the verb's ending."""
    if isinstance(action, Attack):
        cards = _cards(action.cards)
        if moment.lead:
            return (_("lead {cards}").format(cards=cards),
                    _("you lead {cards}").format(cards=cards),
                    _("{name} leads {cards}").replace("{cards}", cards))
        return (_("throw in {cards}").format(cards=cards),
                _("you throw in {cards}").format(cards=cards),
                _("{name} throws in {cards}").replace("{cards}", cards))
    if isinstance(action, Defend):
        a, c = card_text(action.attack_card), card_text(action.card)
        return (_("beat {attack} with {card}").format(attack=a, card=c),
                _("you beat {attack} with {card}").format(attack=a, card=c),
                _("{name} beats {attack} with {card}").replace("{attack}", a)
                .replace("{card}", c))
    if isinstance(action, Transfer):
        c = card_text(action.card)
        if action.show:
            return (_("show {card} to transfer").format(card=c),
                    _("you show {card} to transfer").format(card=c),
                    _("{name} shows {card} to transfer").replace("{card}", c))
        return (_("transfer with {card}").format(card=c),
                _("you transfer with {card}").format(card=c),
                _("{name} transfers with {card}").replace("{card}", c))
    if isinstance(action, Take):
        return _("take"), _("you take"), _("{name} takes")
    if pass_label(action.player, moment) == _t("BEATEN"):
        label = _t("BEATEN")
        return (_("say “{label}”").format(label=label),
                _("you say “{label}”").format(label=label),
                _("{name} says “{label}”").replace("{label}", label))
    return _("pass"), _("you pass"), _("{name} passes")


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
    base, yours, theirs = _forms(action, moment)
    if names is None:
        return base
    if action.player == you:
        return yours
    return theirs.replace("{name}", names[action.player])


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

    def verb(seat: int, yours: str, theirs: str, **values: Any) -> str:
        if seat == you:
            return yours.format(**values)
        return theirs.format(name=names[seat], **values)

    if isinstance(event, PickedUp):
        n = len(event.cards)
        return verb(event.player, n_("you pick up {n} card", "you pick up {n} cards", n),
                    n_("{name} picks up {n} card", "{name} picks up {n} cards", n), n=n)
    if isinstance(event, Discarded):
        n = len(event.cards)
        return n_("beaten: {n} card to the discard pile",
                  "beaten: {n} cards to the discard pile", n).format(n=n)
    if isinstance(event, Drew):
        n = len(event.cards)
        return verb(event.player, n_("you draw {n} card", "you draw {n} cards", n),
                    n_("{name} draws {n} card", "{name} draws {n} cards", n), n=n)
    if isinstance(event, Left):
        return verb(event.player, _("you are out (place {place})"),
                    _("{name} is out (place {place})"), place=event.place)
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
        return _("You show {card}, the lowest trump, and attack first.").format(
            card=card_text(card))
    return _("{name} shows {card}, the lowest trump, and attacks first.").format(
        name=names[seat], card=card_text(card))


def too_late(action: Action, moment: Moment) -> str:
    """A move of ours that another seat's move overtook on its way to the host (at a
    LAN table moves cross: a card thrown in while our "Beaten" travels).  Not a mistake
    and nothing was played; the table shows what changed.

    >>> from durak_core import parse_action
    >>> too_late(parse_action("2 attack 10s"), Moment(lead=False, attacker=0, taking=False))
    'Too late to throw in 10♠: the table moved on while your move was on its way.'
    """
    return _("Too late to {move}: the table moved on while your move was on its way.").format(
        move=say_action(action, moment))


# ---------------------------------------------------------------- the table

_TEXTS["TABLE_EMPTY"] = N_("the table is empty")
_TEXTS["THINKING"] = N_("thinking…")
_TEXTS["MAY_NOT_THROW"] = N_("may not throw in")
_TEXTS["TALON_TITLE"] = N_("cards in the talon")
_TEXTS["TRUMP_TITLE"] = N_("trump card")
_TEXTS["CLOCK_TITLE"] = N_("move clock")
#: A seat's part in the bout, beside an opponent's name (the controller's role keys).
_ROLES = {"attacks": N_("attacks"), "defends": N_("defends"), "takes": N_("takes"),
          "throws in": N_("throws in"), "passed": N_("passed"), "out": N_("out"),
          "durak": N_("durak")}
#: The same, on the viewer's own line ("You: 6 cards · defending").
_MY_ROLES = {"attacks": N_("attacking"), "defends": N_("defending"), "takes": N_("taking"),
             "throws in": N_("throwing in"), "passed": N_("passed"), "out": N_("out"),
             "durak": N_("the durak")}


def role(key: str) -> str:
    """An opponent's part in the bout ("defends"), from the controller's role key."""
    return _(_ROLES[key]) if key in _ROLES else key


def known_cards(cards: Sequence[str]) -> str:
    return _("known: {cards}").format(cards=_cards(cards))


def talon_empty(trump_symbol: str) -> tuple[str, str]:
    """The two lines where the talon was: it is empty, and the trump suit."""
    return _("talon empty"), _("trump {suit}").format(suit=trump_symbol)


def discard_pile(count: int) -> str:
    return _("discard pile: {count}").format(count=count)


def my_line(name: str, count: int, role: str) -> str:
    """The viewer's own line above the hand: "You: 6 cards · defending"."""
    line = f"{name}: {cards_count(count)}"
    return f"{line} · {_(_MY_ROLES[role]) if role in _MY_ROLES else role}" if role else line


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
        name=name, button=_t("SHOW_MY_CARDS"))


_TEXTS["STATUS_OUT"] = N_("<b>You are out: safe!</b> The others play on.")
_TEXTS["STATUS_MAY_THROW_MEANWHILE"] = N_(
    " You may throw in a card of a rank on the table meanwhile.")


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
            button=_t("TRANSFER")))
    options.append(_("click {button}").format(button=_t("TAKE")))
    return _("<b>Your move:</b> {options} or {last}.").format(
        options=", ".join(options[:-1]), last=options[-1])


def status_selected(card: Card, can_transfer: bool) -> str:
    if can_transfer:
        return _(" Selected {card}: click the card to beat, or {button}.").format(
            card=card_text(card), button=_t("TRANSFER"))
    return _(" Selected {card}: click the card to beat; click it again to cancel.").format(
        card=card_text(card))


def status_others_take(defender: str, room: int) -> str:
    return _("<b>Your move:</b> {defender} takes; throw in more (up to {room}) or click "
             "{button}.").format(defender=defender, room=room, button=_t("PASS"))


def status_throw_in(label: str) -> str:
    return _("<b>Your move:</b> throw in a card of a rank on the table, or click "
             "{button}.").format(button=label)


def status_over(can_review: bool) -> str:
    """The status line once the game is over (the banner says who lost)."""
    if can_review:
        return _("<b>Game over.</b> {new} deals the next one; {review} shows what the AI "
                 "thought of your moves.").format(new=_t("NEW_GAME"), review=_t("REVIEW"))
    return _("<b>Game over.</b> {new} deals the next one.").format(new=_t("NEW_GAME"))


# ---------------------------------------------------------------- the banner

#: Why a game ended, as the engine says it (``end_reason``; a draw's is shown).
_END_REASONS = (N_("bout limit reached"), N_("everybody went out together"),
                N_("one team still holds cards"), N_("the last player holding cards"))


def banner(obs: dict[str, Any], names: Sequence[str], you: int | None) -> str:
    """The game-over banner: who is the durak, and what that means for you."""
    losers = obs["losers"]
    durak = obs["durak"]
    if durak is None:
        reason = obs.get("end_reason") or ""
        if reason and reason != "everybody went out together":
            if reason in _END_REASONS:
                reason = _(reason)
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

_TEXTS["NOTICE_ALREADY_BEATEN"] = N_("That card is already beaten.")
_TEXTS["NOTICE_SHOW_FIRST"] = N_("Show your cards first.")
_TEXTS["NOTICE_PICK_FIRST"] = N_("Pick a card from your hand first.")
_TEXTS["NOTICE_PICK_THEN_TARGET"] = N_(
    "Pick a card from your hand first, then click the card to beat.")
_TEXTS["NOTICE_FINISH_FIRST"] = N_("Finish this game first.")
_TEXTS["NEW_GAME_LOG"] = N_("— new game —")


def notice_over() -> str:
    return _("The game is over: click {button} to play again.").format(button=_t("NEW_GAME"))


def cannot_play(card: Card) -> str:
    return _("{card} cannot be played now.").format(card=card_text(card))


def select_to_transfer(rank: str) -> str:
    letter = engine_reasons.rank_text(rank)
    return _("Select the card to transfer with (a {rank}), then click {button}.").format(
        rank=letter, button=_t("TRANSFER"))


def internal_error(kind: str, detail: str) -> str:
    return _("Internal error: {kind}: {detail}").format(kind=kind, detail=detail)


def not_at_this_screen(name: str) -> str:
    return _("{name} is a bot: its moves are not made at this screen.").format(name=name)


# ---------------------------------------------------------------- LAN findings

def _net_gettext() -> Callable[[str], str]:
    """The terminal peer's catalog (``durak_net``) in the table's language: a verdict,
    a stopped game, a desync or a refusal reason is made by durak_net as a note
    (:mod:`durak_net.notes`), and its sentences are translated once, in that catalog,
    for both screens.  (Imported late: a table without the network never needs it.)"""
    from durak_net import i18n as net_i18n

    return net_i18n.translation(net_i18n.normalize(i18n.current())).gettext


def say_note(note: Any, english: str, names: Sequence[str]) -> str:
    """A LAN finding (a :class:`durak_net.notes.Note`) in the table's language, each
    seat said by its name in ``names``; ``english`` (made safe) when there is no note
    (a verdict restored from an older journal).  A rules engine's reason in it is said
    as the table says the engine's reasons (:func:`durak_lang.reasons.say_reason`).

    >>> from durak_net.notes import Note, Seat
    >>> note = Note.of("no_keys", seat=Seat(1))
    >>> with i18n.speaking("ru"):
    ...     say_note(note, "", ["Ann", "Bob"])
    'Bob не опубликовал свои ключи для проверки'
    """
    from durak_net.text import plain

    if note is None:
        return plain(english)
    return str(note.say(names, _net_gettext(), engine_reasons.say_reason))


def say_net_reason(reason: str) -> str:
    """A reason that came over the network (a refusal, a goodbye): one our programs
    send in the table's language, any other quoted as its sender's own words, made
    safe (:func:`durak_net.notes.say_reason`)."""
    from durak_net.notes import say_reason

    return say_reason(reason, _net_gettext())


# ---------------------------------------------------------------- the keyboard

def keys_help() -> tuple[str, list[str]]:
    """The "?" panel: its title and a line a key (durak_widgets/keys.py reads the
    letters by their place on the keyboard, so a Russian layout's Е is T)."""
    return _("Keys"), [
        _("Tab, arrow keys: move across your hand, the buttons and the table"),
        _("Enter or Space: play the card or press the button in focus"),
        _("T: {button}").format(button=_t("TAKE")),
        _("B: {beaten} or {passing}").format(beaten=_t("BEATEN"), passing=_t("PASS")),
        _("P: {button}").format(button=_t("TRANSFER")),
        _("S: show the trump to transfer"),
        _("N: {button}").format(button=_t("NEW_GAME")),
        _("H: {button}; R: {review}").format(button=_t("HINT"), review=_t("REVIEW")),
        _("?: show or hide these keys; Esc: hide them"),
    ]


# ---------------------------------------------------------------- the hint

_TEXTS["HINT_SHOW_CARDS"] = N_("<b>Hint:</b> show your cards first.")
_TEXTS["HINT_NOTHING_NOW"] = N_("<b>Hint:</b> nothing to decide for you now.")
_TEXTS["HINT_NOTHING"] = N_("<b>Hint:</b> nothing to decide.")
_TEXTS["HINT_THINKING"] = N_("<b>Hint:</b> the AI is thinking…")
_TEXTS["HINT_CHANCES"] = N_("Chance of not being the durak after each move:")
_TEXTS["CERTAIN"] = N_(" (certain)")


def hint_failed(error: str) -> str:
    return _("<b>Hint:</b> the AI failed ({error}).").format(error=error)


def hint_best(move: str) -> str:
    """The hint's first line; ``move`` is :func:`say_action`'s words, escaped."""
    return _("<b>Hint:</b> the AI would <b>{move}</b>.").format(move=move)


def hint_search_prefers(move: str) -> str:
    """Said when the search's own score ranks ``move`` (:func:`say_action`'s words,
    escaped) first although the hint's first move shows a higher chance: the score
    counts a draw as half a win, the chance shown counts it in full."""
    return _("(The AI's search, which counts a draw as half a win, ranks <b>{move}</b> "
             "first.)").format(move=move)


def more_moves(count: int) -> str:
    return n_("… {n} more move", "… {n} more moves", count).format(n=count)


# ---------------------------------------------------------------- the review

_TEXTS["REVIEW_BUSY"] = N_("The AI is reviewing your decisions…")
_TEXTS["REVIEW_NOT_YET_LAN"] = N_(
    "The review is there once the game's audit has opened every card.")
_TEXTS["REVIEW_NO_LOG"] = N_("This table keeps no game log to review.")
_TEXTS["REVIEW_NOT_OVER"] = N_("The review is there when the game is over.")
_TEXTS["REVIEW_DROPS"] = N_("Where the chance dropped most:")
_TEXTS["REVIEW_NO_DROP"] = N_("No move fell clearly short of the AI's choice.")
_TEXTS["REVIEW_NO_DECISIONS"] = N_("No decisions to review (every move was forced).")
_TEXTS["REVIEW_CHART_LABEL"] = N_("chance of not being the durak after each move")
_TEXTS["REVIEW_AXIS"] = N_(
    "your decisions, in the order played (the number is the move of the game)")
_TEXTS["REVIEW_CHANCES"] = N_("chance after each decision (%)")


def review_failed(error: str) -> str:
    return _("The review failed: {error}").format(error=error)


def review_title(who: str, outcome: str, decisions: int) -> str:
    """``who``: a name, or "you" for the person at this screen; ``outcome``: "safe",
    "durak" or "draw".  No word on the AI's budget: that is how it searched, not what
    the player did."""
    if is_you(who):
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
    return _("your") if is_you(who) else _("{who}'s").format(who=who)


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
#: The suits as "no higher ..." names them, by suit index (translated when read).
SUITS_PLURAL = (N_("spades"), N_("clubs"), N_("diamonds"), N_("hearts"))

_OUTCOMES = {"win": N_("wins"), "draw": N_("draws"), "loss": N_("loses")}


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
        suit = _(SUITS_PLURAL[reason.taken.suit])
        if reason.heads_up:
            return _("the opponent took rather than beat {card}: they probably hold no "
                     "higher {suit}").format(card=card_text(reason.taken), suit=suit)
        return _("the defender took rather than beat {card} before: they probably hold "
                 "no higher {suit}").format(card=card_text(reason.taken), suit=suit)
    if isinstance(reason, CannotBeat):
        who = _("the opponent") if reason.heads_up else _("the defender")
        if reason.certain:
            return _("{who} holds nothing that beats {card}: you know all their "
                     "cards").format(who=who, card=card_text(reason.card))
        if reason.chance < 0.05:
            return _("{who} almost surely holds nothing that beats {card}").format(
                who=who, card=card_text(reason.card))
        return _("{who} probably holds nothing that beats {card} (about {p:.0f}% that "
                 "they do)").format(who=who, card=card_text(reason.card), p=100 * reason.chance)
    if isinstance(reason, BeatCheaply):
        return n_("beat {attack} with {card}: it costs no trump, and taking would add "
                  "{n} card to your hand",
                  "beat {attack} with {card}: it costs no trump, and taking would add "
                  "{n} cards to your hand",
                  reason.taken).format(attack=card_text(reason.attack),
                                       card=card_text(reason.card), n=reason.taken)
    if isinstance(reason, KeepHigh):
        count = len(reason.beaters_out)
        if not count:
            return _("play low and keep your {card}: no card still out beats it").format(
                card=card_text(reason.card))
        return n_("play low and keep your {card}: only {n} card still out beats it",
                  "play low and keep your {card}: only {n} cards still out beat it",
                  count).format(card=card_text(reason.card), n=count)
    if not isinstance(reason, KeepTrumps):
        raise TypeError(f"not a reason: {reason!r}")
    count = len(reason.higher_out)
    if not count:
        return _("keep your trumps: {card} is the highest trump left in the game").format(
            card=card_text(reason.trump))
    return n_("keep your trumps: {n} higher trump than {card} is still out",
              "keep your trumps: {n} higher trumps than {card} are still out",
              count).format(n=count, card=card_text(reason.trump))


def _solved(reason: Solved) -> str:
    solved = _("the talon is empty: from here the game is solved")
    if reason.against is not None:
        return _("{solved}: the AI's move {value}, the move played {against}").format(
            solved=solved, value=_(_OUTCOMES[reason.value]), against=_(_OUTCOMES[reason.against]))
    if reason.every and reason.value == "loss":
        return _("{solved}, and every move loses if the opponent plays well").format(
            solved=solved)
    if reason.every:
        return _("{solved}, and every move {value}").format(
            solved=solved, value=_(_OUTCOMES[reason.value]))
    return _("{solved}, and this move {value}").format(
        solved=solved, value=_(_OUTCOMES[reason.value]))


def hint_why(reason: str) -> str:
    """The hint's reason line; ``reason`` is :func:`say_reason`'s words, escaped."""
    return _("<b>Why:</b> {reason}.").format(reason=reason)


def review_why(line: str, reason: str) -> str:
    """A marked move of the review (:func:`review_drop`'s ``line``) with its reason."""
    return _("{line}. Why: {reason}").format(line=line, reason=reason)
