"""The rules engine's reasons for an illegal move, in the player's language.

:mod:`durak_core` stays pure and English: ``why_illegal`` returns a sentence, with seat
numbers ("player 1").  This module knows the engine's sentences as templates (``"{card}
cannot beat {attack}: ..."``) that are at once the pattern a reason is matched against
and the msgid of its translation (this package's ``durak_lang`` catalog); the
placeholders' values are put into the player's words (a seat number becomes a name or
"you", ``"Q♣"`` becomes ``"Д♣"`` on a table) and into the translated sentence.  In
English a reason keeps the engine's words, its seat numbers replaced by names.  A
sentence the engine adds later matches no template and is shown in English rather than
lost; a test walks seeded games and fails on any reason no template matches, so a new
one gets its translation.

Both screens say reasons here: the notebook's table (cards as a Russian deck prints
them, В Д К Т) and the terminal (``typed=True``: cards as a player types them, ``Q♣``,
since the terminal's table and commands show them so).

>>> from durak_lang import speaking
>>> with speaking("ru"):
...     say_reason("Only the defender, player 1, can take.", ["You", "Bob"], 0)
'Брать может только защищающийся, Bob.'
>>> say_reason("Only the defender, player 1, can take.", ["You", "Bob"], 0)
'Only the defender, Bob, can take.'
>>> with speaking("ru"):
...     say_reason("You do not hold Q♣.", ["Ann", "Bob"], 0, typed=True)
'У вас нет карты Q♣.'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from durak_core import Card

from .language import DOMAIN, LOCALE_DIR, SOURCE_LANGUAGE, catalog, current


def _(text: str) -> str:
    """``text`` in the language in force (gettext's marker and lookup)."""
    return catalog(DOMAIN, LOCALE_DIR, current()).gettext(text)


def n_(one: str, many: str, count: int) -> str:
    """The form of a sentence about ``count`` things (``ngettext``: Russian has three)."""
    return catalog(DOMAIN, LOCALE_DIR, current()).ngettext(one, many, count)


def N_(text: str) -> str:
    """Mark ``text`` for the catalog; it is translated when read (``_(text)``)."""
    return text


# ---------------------------------------------------------------- the words inside

#: A rank's letter on the card (Russian decks print В, Д, К, Т for J, Q, K, A).
RANK_LETTERS = {"J": N_("J"), "Q": N_("Q"), "K": N_("K"), "A": N_("A")}


def card_text(card: Card | str | None) -> str:
    """A card as printed on it, in the language in force: ``"Q♣"`` (Russian ``"Д♣"``);
    ``"?"`` for a card nobody at this screen may see.

    >>> card_text("Qc"), card_text("10h"), card_text(None)
    ('Q♣', '10♥', '?')
    """
    if card is None:
        return "?"
    c = card if isinstance(card, Card) else Card.parse(card)
    rank = c.rank_name
    return rank_text(rank) + str(c)[len(rank):]


def rank_text(letter: str) -> str:
    """A rank as a card prints it (``"Q"``, Russian ``"Д"``; numbers as they are)."""
    return _(RANK_LETTERS[letter]) if letter in RANK_LETTERS else letter


def cards_count(n: int) -> str:
    """``"1 card"``, ``"3 cards"`` (``"3 карты"``, ``"5 карт"``)."""
    return n_("{n} card", "{n} cards", n).format(n=n)


def name_of(seat: int, names: Sequence[str], you: int | None) -> str:
    """``"you"`` for the one person at this screen, else the seat's name."""
    return _("you") if seat == you else names[seat]


def capital(text: str) -> str:
    """``text`` with its first letter capitalised (a sentence that starts with "you")."""
    return text[:1].upper() + text[1:]


_PLAYERS = re.compile(r"\b([Pp])layers? (\d+(?:(?:, | and )\d+)*)\b")


def with_names(sentence: str, names: Sequence[str], you: int | None = None) -> str:
    """A sentence of the rules engine with its seat numbers ("player 1", "players 1 and
    3") replaced by names: the engine numbers seats, people have names.  A number the
    names do not cover stays as it is.

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


# ---------------------------------------------------------------- the engine's sentences

#: The engine's sentences (durak_core/game.py, ``why_illegal``), placeholders named by
#: what they hold (as :func:`say_reason` says each).  A placeholder that appears twice holds the
#: same text both times.
TEMPLATES: tuple[str, ...] = (
    N_("The game is over."),
    N_("Player {player} is out of the game and plays no more."),
    N_("You are the defender: {options}; you cannot attack yourself."),
    N_("Player {player} is your partner; you may not attack them."),
    N_("Only the main attacker and the player on the defender's left ({who}) may throw in "
       "(throw_in='neighbours')."),
    N_("{card} is not in a {deck}-card deck."),
    N_("Player {player} cannot hold {card}: it is known to be elsewhere."),
    N_("You do not hold {card}."),
    N_("At most {cap} attack cards may be played {when}; the table has {count} already."),
    N_("Player {player} had {start} cards when they began defending, so the bout may hold "
       "only {start} attack cards; the table has {count} already."),
    N_("Player {player} leads this bout; the others may throw in after the first card."),
    N_("Only the opening lead may be several cards; throw in one card at a time."),
    N_("Lead one card at a time (open_with_several is off); throw in the others after it."),
    N_("Cards led together must all have the same rank."),
    N_("You can only throw in a rank already on the table ({ranks}); {card} does not match."),
    N_("{card} is a lower trump than {attack}; a trump beats only a lower trump."),
    N_("{attack} is a trump; only a higher trump beats it."),
    N_("{card} is lower than {attack}; beat it with a higher {suit} or a trump ({symbol})."),
    N_("{card} cannot beat {attack}: play a higher {suit} or a trump ({symbol})."),
    N_("Only the defender, player {player}, beats cards."),
    N_("There is nothing to beat yet."),
    N_("{attack} is not an attack card on the table."),
    N_("{attack} is already beaten by {card}."),
    N_("You have declared take: you will pick up the table and beat no more cards."),
    N_("Transfers belong to perevodnoy; this game is podkidnoy."),
    N_("Only the defender, player {player}, can transfer."),
    N_("There is nothing to transfer yet."),
    N_("You have declared take, so you can no longer transfer."),
    N_("You can transfer only before beating any card of the bout."),
    N_("You can transfer only when every attack card has the same rank."),
    N_("Transfer with a card of rank {rank}; {card} does not match."),
    N_("Transferring by showing a trump needs transfer_by_showing_trump=True."),
    N_("Only the trump of rank {rank} can be shown; {card} is no trump."),
    N_("{card} has already been shown this bout; play a card to transfer again."),
    N_("Nobody is left in the game to transfer to."),
    N_("A transfer would make {need} attack cards; the limit is {cap}."),
    N_("Player {player} holds only {count}, fewer than the {need} attack cards a transfer "
       "would give them."),
    N_("Only the defender, player {player}, can take."),
    N_("There is nothing on the table to take yet."),
    N_("You have already declared take."),
    N_("Every attack card is beaten; there is nothing to take."),
    N_("The defender cannot pass: {options}."),
    N_("You lead this bout: play a card first."),
    N_("The bout has not started: player {player} must lead a card."),
    N_("Wait for player {player} to beat the cards or take them; pass once the table is "
       "beaten."),
    N_("You have already passed; you may throw in again when the table changes."),
    N_("You have no cards, so you count as passed already."),
    N_("No more cards can be thrown in, so you count as passed already."),
)

#: Phrases the engine puts inside its sentences ({options}, {when}, {suit}).
PHRASES: tuple[str, ...] = (
    N_("beat the attack cards, transfer or take them"),
    N_("beat the attack cards or take them"),
    N_("before the first discard"),
    N_("in a bout"),
    N_("spade"),
    N_("club"),
    N_("diamond"),
    N_("heart"),
)



@cache
def _pattern(template: str) -> re.Pattern[str]:
    """The regular expression that reads ``template``'s placeholders off a reason."""
    parts = re.split(r"\{(\w+)\}", template)
    out, seen = [], set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in seen:
            out.append(f"(?P={part})")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>.+?)")
    return re.compile("".join(out) + r"\Z")


def match(reason: str) -> tuple[str, dict[str, str]] | None:
    """The template ``reason`` is written from, and its placeholders' values; None for a
    sentence no template knows.

    >>> match("You do not hold Q♣.")
    ('You do not hold {card}.', {'card': 'Q♣'})
    """
    for template in TEMPLATES:
        found = _pattern(template).match(reason)
        if found:
            return template, found.groupdict()
    return None


def _count(text: str) -> str:
    found = re.match(r"(\d+) cards?$", text)
    return cards_count(int(found.group(1))) if found else text


def say_reason(reason: str, names: Sequence[str], you: int | None = None, *,
               typed: bool = False) -> str:
    """The engine's ``reason`` as a screen says it, in the language in force: names (or
    "you", for seat ``you``) for seat numbers, cards as printed (``typed``: as a player
    types them, the terminal's way).  A sentence no template knows stays the engine's
    English, with names."""
    if current() == SOURCE_LANGUAGE:
        return with_names(reason, names, you)
    found = match(reason)
    if found is None:
        return with_names(reason, names, you)
    template, values = found

    def seat(text: str) -> str:
        return name_of(int(text), names, you) if text.isdigit() and int(text) < len(names) else text

    def card(text: str) -> str:
        return text if typed else card_text(text)

    def rank(text: str) -> str:
        return text if typed else rank_text(text)

    said: dict[str, Callable[[str], str]] = {
        "player": seat,
        "who": lambda text: with_names(text, names, you),
        "card": card,
        "attack": card,
        "rank": rank,
        "ranks": lambda text: ", ".join(rank(r) for r in text.split(", ")),
        "options": _,
        "when": _,
        "suit": _,
        "count": _count,
    }
    words = {key: said.get(key, str)(value) for key, value in values.items()}
    return capital(_(template).format(**words))
