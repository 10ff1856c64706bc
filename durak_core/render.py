"""HTML pictures of cards and games, for notebooks.

:meth:`durak_core.Game._repr_html_` calls :func:`table_html`, so a game shown in
Jupyter (``display(game)`` or a cell ending in ``game``) is drawn as cards: the
table with defence cards laid over the attack cards they beat, every hand, the
talon with the trump card under it, the discard count and whose move it is.

The functions here are pure: a game (or card) in, a string out, no I/O.  The
HTML is self-contained and carries its look in ``style`` attributes, not in a
``<style>`` block: JupyterLab strips ``<style>`` from the outputs of a notebook
it does not trust (any notebook opened from disk), but keeps inline styles, so
a committed tutorial still shows cards.  Elements also carry ``durak-*`` classes
(for tests and for finding cards) and never a generated id, so the same game
always renders to the same text: notebooks checked by nbval compare it byte for
byte.

A picture for one seat (``table_html(game, seat=k)``, or a seat's view from
:meth:`Game.view`) is drawn from that seat's view only, so a card the seat may
not see cannot reach the HTML: hidden cards become card backs.

>>> from durak_core import Card, Game, Rules, Suit
>>> card_html(Card.parse("10h"), trump=Suit.HEARTS)[:73]
'<span class="durak-card durak-red durak-trump" data-card="10H" title="10♥'
>>> game = Game.new(Rules(), seed=7)
>>> table_html(game, seat=0).count('class="durak-card durak-back"')  # seat 1 and the talon
7
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from .cards import Card, Suit

if TYPE_CHECKING:  # the game module imports this one lazily; no cycle at run time
    from .game import Game

# Colours are explicit, never inherited, so the cards read the same in light and
# dark themes.  Only CSS properties JupyterLab's sanitizer allows are used (no
# transform, no gradients).
_RED = "#c62828"
_BLACK = "#1b1b1b"
_GOLD = "#f2b705"
_CARD = (
    "display:inline-block;position:relative;box-sizing:border-box;width:42px;height:60px;"
    "border-radius:5px;font-weight:700;"
)
_FACE = _CARD + "background:#fff;"
_PLAIN_EDGE = "border:1px solid #555;"
_TRUMP_EDGE = f"border:2px solid {_GOLD};box-shadow:0 0 0 1px {_GOLD};"
_BACK = _CARD + "background:#303f9f;border:3px double #fff;"
_INDEX = "position:absolute;left:3px;top:2px;font-size:13px;line-height:14px;text-align:center;"
_PIP = (
    "position:absolute;left:0;right:0;top:26px;font-size:22px;line-height:24px;text-align:center;"
)
_ROOT = (
    "display:inline-block;background:#1f6f43;color:#f5f5f5;border-radius:10px;"
    "padding:8px 12px;font-family:sans-serif;font-size:13px;line-height:1.3;"
)
_ROW = (
    "display:inline-flex;flex-wrap:wrap;gap:3px;align-items:center;vertical-align:middle;"
    "min-height:60px;"
)


def _class(*names: str) -> str:
    return " ".join(n for n in names if n)


def card_html(card: Card, trump: Suit | int | None = None, role: str = "", style: str = "") -> str:
    """One card face: rank and suit in the corner and a large suit in the middle.

    Red or black by suit; a trump (when ``trump`` is given) gets a gold edge.
    ``data-card`` holds the card's ASCII code (``10H``) so tests can find a card
    without parsing suit symbols.  ``role`` adds a class (``durak-attack``,
    ``durak-defence``, ``durak-trump-card``); ``style`` adds placement.
    """
    is_trump = trump is not None and card.suit == trump
    colour = _RED if card.suit.is_red else _BLACK
    classes = _class(
        "durak-card",
        "durak-red" if card.suit.is_red else "durak-black",
        "durak-trump" if is_trump else "",
        role,
    )
    title = f"{card} (trump)" if is_trump else str(card)
    look = _FACE + (_TRUMP_EDGE if is_trump else _PLAIN_EDGE) + f"color:{colour};" + style
    symbol = card.suit.symbol
    return (
        f'<span class="{classes}" data-card="{card.code}" title="{escape(title)}" '
        f'style="{look}"><span class="durak-rank" style="{_INDEX}">{card.rank_name}<br>'
        f'{symbol}</span><span class="durak-suit" style="{_PIP}">{symbol}</span></span>'
    )


def back_html(style: str = "") -> str:
    """A card lying face down: what a hidden card or the talon looks like."""
    return f'<span class="durak-card durak-back" title="hidden card" style="{_BACK}{style}"></span>'


def cards_html(cards: Iterable[Card], trump: Suit | int | None = None) -> str:
    """A row of card faces, e.g. one hand, as a picture of its own."""
    faces = "".join(card_html(c, trump) for c in cards)
    return (
        f'<div class="durak-html" style="{_ROOT}"><span class="durak-row" style="{_ROW}">'
        f"{faces or _empty('no cards')}</span></div>\n"
    )


def _empty(text: str) -> str:
    return f'<span class="durak-empty" style="font-style:italic;opacity:0.8;">{escape(text)}</span>'


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _status(game: Game, to_act: list[int]) -> str:
    """One sentence on the state of the bout, and who may act now.

    In a seat's view "may act" is what that seat can tell: an opponent whose
    hidden cards might allow a throw-in is listed.
    """
    if game.is_over:
        if game.durak is None:
            return f"Game over: a draw ({game.end_reason})."
        if len(game.losers) > 1:
            team = ", ".join(str(s) for s in game.losers)
            return f"Game over: players {team} lose."
        return f"Game over: player {game.durak} is the durak."
    a, d = game.attacker, game.defender
    table = game.table
    if not table:
        text = f"Player {a} leads against player {d}."
    else:
        unbeaten = sum(1 for _, x in table if x is None)
        count = f"{_plural(len(table), 'attack card')} of at most {game.limit}"
        if game.taking:
            text = f"Player {d} takes ({count}); the others may still throw in."
        elif unbeaten:
            text = f"Player {a} attacks player {d} ({count}): {unbeaten} to beat or take."
        else:
            text = f"Player {a} attacks player {d} ({count}): all beaten, throw in or pass."
    if to_act:
        names = ", ".join(str(s) for s in to_act)
        text += f" May act now: {'player' if len(to_act) == 1 else 'players'} {names}."
    return text


def _seat_html(game: Game, s: int, viewer: int | None, to_act: list[int]) -> str:
    out = s not in game.active_players
    playing = not out and not game.is_over
    roles = []
    if out:
        roles.append("out")
    elif playing:
        if s == game.attacker:
            roles.append("attacker")
        if s == game.defender:
            roles.append("defender (takes)" if game.taking else "defender")
        if s in game.passed:
            roles.append("passed")
    classes = _class(
        "durak-seat",
        "durak-attacker" if playing and s == game.attacker else "",
        "durak-defender" if playing and s == game.defender else "",
        "durak-out" if out else "",
        "durak-to-act" if s in to_act else "",
        "durak-you" if s == viewer else "",
    )
    look = "margin:4px 0;padding:2px 6px;border-radius:6px;"
    look += f"border:2px solid {_GOLD};" if s in to_act else "border:2px solid transparent;"
    if out:
        look += "opacity:0.55;"
    name = f"Player {s}" + (" (you)" if s == viewer else "")
    label = name + "".join(f" · {r}" for r in roles) + f" ({_plural(game.hand_size(s), 'card')})"
    trump = game.trump_suit
    # In a seat's view, game.hand(s) of an opponent holds only the cards everybody
    # saw (picked up, the trump dealt face up): those face up, the rest as backs.
    faces = "".join(card_html(c, trump) for c in game.hand(s))
    backs = back_html() * game.unknown_count(s)
    row = faces + backs or _empty("no cards")
    return (
        f'<div class="{classes}" data-seat="{s}" style="{look}">'
        '<span class="durak-seat-name" style="display:inline-block;min-width:220px;'
        f'vertical-align:middle;">{escape(label)}</span>'
        f'<span class="durak-row" style="{_ROW}">{row}</span></div>\n'
    )


def _table_part(game: Game) -> str:
    trump = game.trump_suit
    pairs = []
    for attack, defence in game.table:
        if defence is None:
            classes = "durak-pair durak-unbeaten"
            ring = "box-shadow:0 0 0 3px #ff7043;"
            cover = ""
        else:
            classes = "durak-pair"
            ring = ""
            place = "position:absolute;left:14px;top:20px;"
            cover = card_html(defence, trump, "durak-defence", place)
        pairs.append(
            f'<div class="{classes}" style="position:relative;width:58px;height:82px;">'
            f"{card_html(attack, trump, 'durak-attack', ring)}{cover}</div>"
        )
    look = (
        "display:flex;flex-wrap:wrap;gap:10px;min-width:120px;min-height:84px;"
        "align-items:flex-start;"
    )
    content = "".join(pairs) or _empty("the table is empty")
    return f'<div class="durak-table" style="{look}">{content}</div>'


def _talon_part(game: Game) -> str:
    trump = game.trump_suit
    size = game.talon_size
    pile = 'class="durak-pile" style="font-size:12px;"'
    if size:
        # The trump card lies face up under the talon: its corner shows beside the pile.
        cards = card_html(game.trump_card, trump, "durak-trump-card", "position:absolute;left:0;")
        if size > 1:
            cards += back_html("position:absolute;left:24px;")
        talon = (
            '<div class="durak-talon" style="position:relative;width:70px;height:62px;">'
            f"{cards}</div><div {pile}>talon: {_plural(size, 'card')}</div>"
        )
    else:
        talon = f"<div {pile}>talon empty; trump {trump.symbol}</div>"
    discard = f"<div {pile}>discard: {_plural(game.discard_size, 'card')}</div>"
    return f'<div class="durak-deck">{talon}{discard}</div>'


def table_html(game: Game, seat: int | None = None) -> str:
    """The whole game as HTML: status, table, talon, discard and every hand.

    seat: draw only what that seat may know (other hands and the talon face
        down, except cards everybody saw).  A seat's view (:meth:`Game.view`)
        is always drawn from its own seat; asking it for another raises
        ``ValueError``.
    """
    viewer = game.viewer
    if seat is not None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
            raise ValueError(f"no seat {seat!r} in a {game.players}-player game")
        if viewer is None:
            game = game.view(seat)
        elif viewer != seat:
            raise ValueError(f"this game is seen from seat {viewer}, not seat {seat}")
        viewer = seat
    to_act = [] if game.is_over else [s for s in range(game.players) if game.legal_actions(s)]
    seats = "".join(_seat_html(game, s, viewer, to_act) for s in range(game.players))
    middle = (
        '<div class="durak-middle" style="display:flex;gap:24px;align-items:center;'
        f'margin:8px 0;min-height:90px;">\n{_table_part(game)}\n{_talon_part(game)}\n</div>\n'
    )
    status = (
        '<div class="durak-status" style="font-weight:700;margin-bottom:6px;">'
        f"{escape(_status(game, to_act))}</div>\n"
    )
    return f'<div class="durak-html" style="{_ROOT}">\n{status}{middle}{seats}</div>\n'
