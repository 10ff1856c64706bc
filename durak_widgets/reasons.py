"""The rules engine's reasons for an illegal move, in the table's language.

:mod:`durak_core` stays pure and English: ``why_illegal`` returns a sentence.  This
module knows the engine's sentences as templates (``"{card} cannot beat {attack}: ..."``)
that are at once the pattern a reason is matched against and the msgid of its
translation; the placeholders' values are put into the table's words (a seat number
becomes a name, ``"Q♣"`` becomes ``"Д♣"``) and into the translated sentence.  In English
a reason keeps the engine's words, its seat numbers replaced by names
(:func:`~durak_widgets.words.with_names`).  A sentence the engine adds later matches no
template and is shown in English rather than lost; a test walks seeded games and fails
on any reason no template matches, so a new one gets its translation.

>>> from durak_widgets.i18n import speaking
>>> with speaking("ru"):
...     say_reason("Only the defender, player 1, can take.", ["You", "Bob"], 0)
'Брать может только защищающийся, Bob.'
>>> say_reason("Only the defender, player 1, can take.", ["You", "Bob"], 0)
'Only the defender, Bob, can take.'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from . import i18n
from .words import N_, _, capital, card_text, cards_count, name_of, with_names

#: The engine's sentences (durak_core/game.py, ``why_illegal``), placeholders named by
#: what they hold (see :data:`_VALUES`).  A placeholder that appears twice holds the
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


def _rank(letter: str) -> str:
    from .words import _RANK_LETTERS

    return _(_RANK_LETTERS[letter]) if letter in _RANK_LETTERS else letter


def _count(text: str) -> str:
    found = re.match(r"(\d+) cards?$", text)
    return cards_count(int(found.group(1))) if found else text


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


def say_reason(reason: str, names: Sequence[str], you: int | None = None) -> str:
    """The engine's ``reason`` as the table says it: names for seat numbers, and in the
    table's language."""
    if i18n.current() == i18n.SOURCE_LANGUAGE:
        return with_names(reason, names, you)
    found = match(reason)
    if found is None:
        return with_names(reason, names, you)
    template, values = found

    def seat(text: str) -> str:
        return name_of(int(text), names, you) if text.isdigit() and int(text) < len(names) else text

    said: dict[str, Callable[[str], str]] = {
        "player": seat,
        "who": lambda text: with_names(text, names, you),
        "card": card_text,
        "attack": card_text,
        "rank": _rank,
        "ranks": lambda text: ", ".join(_rank(r) for r in text.split(", ")),
        "options": _,
        "when": _,
        "suit": _,
        "count": _count,
    }
    words = {key: said.get(key, str)(value) for key, value in values.items()}
    return capital(_(template).format(**words))
