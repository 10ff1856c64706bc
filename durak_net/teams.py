"""Teams at a table: which seat a player who asks for a team gets, and how it is said.

With ``Rules(teams=True)`` (4 or 6 seats) partners sit opposite: seat ``s`` plays in
team ``Rules.team_of(s)``, and its partner is the seat half the table away.  A joiner
may ask for a team (``durak-lan --join NAME --team K`` in a terminal; the team choice
beside Join, or ``lan(join=NAME, team=K)``, in a notebook).  Both send the same Join
(docs/lan-protocol.md, section 4), and the host gives the seat :func:`seat_for_team`
picks: this module is the one place that decides it, and the one place that says a
table's teams in words, so a terminal and a notebook show the same.

No I/O: pure functions of the rules and the seats' names (``""`` for an open seat, as
a table's announcement lists them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from durak_core import Rules

from .i18n import _

#: A Join's team when the joiner has no wish ("any team").
ANY_TEAM = -1


def team_count(rules: Rules) -> int:
    """How many teams a table has (0 when it does not play in teams).

    >>> team_count(Rules(players=4, teams=True)), team_count(Rules(players=6, teams=True))
    (2, 3)
    >>> team_count(Rules(players=4))
    0
    """
    return rules.players // 2 if rules.teams else 0


def team_seats(rules: Rules, team: int) -> tuple[int, ...]:
    """The seats of ``team``, in seat order (two: partners sit opposite).

    >>> team_seats(Rules(players=6, teams=True), 1)
    (1, 4)
    """
    return tuple(s for s in range(rules.players) if rules.teams and rules.team_of(s) == team)


def partner(rules: Rules, seat: int) -> int | None:
    """The seat opposite ``seat`` at a table of teams (None without teams).

    >>> partner(Rules(players=4, teams=True), 3), partner(Rules(players=4), 3)
    (1, None)
    """
    if not rules.teams:
        return None
    return (seat + rules.players // 2) % rules.players


def check_team(rules: Rules, team: int) -> None:
    """Refuse a team the table does not have, saying which it has (``ValueError``).

    >>> check_team(Rules(players=4, teams=True), 2)
    Traceback (most recent call last):
    ...
    ValueError: a table of 4 in teams has teams 0 and 1, not 2
    >>> check_team(Rules(players=4), 1)
    Traceback (most recent call last):
    ...
    ValueError: this table does not play in teams: ask for any seat (team -1)
    """
    if team == ANY_TEAM:
        return
    if not rules.teams:
        raise ValueError(_("this table does not play in teams: ask for any seat (team -1)"))
    count = team_count(rules)
    if not 0 <= team < count:
        names = ", ".join(str(t) for t in range(count - 1)) + _(" and ") + str(count - 1)
        raise ValueError(_("a table of {count} in teams has teams {teams}, not {team}").format(
            count=rules.players, teams=names, team=team))


def seat_for_team(rules: Rules, free: Iterable[int], team: int) -> int | None:
    """The seat the host gives a joiner: the lowest free seat, of ``team`` when it asked
    for one at a table of teams (None: no such seat).  A wish for a team at a table
    without teams is no wish.

    >>> rules = Rules(players=4, teams=True)
    >>> seat_for_team(rules, [1, 2, 3], 0), seat_for_team(rules, [1, 3], 0)
    (2, None)
    >>> seat_for_team(rules, [2, 3], ANY_TEAM), seat_for_team(Rules(players=4), [2, 3], 1)
    (2, 2)
    """
    seats = sorted(free)
    if team != ANY_TEAM and rules.teams:
        seats = [s for s in seats if rules.team_of(s) == team]
    return seats[0] if seats else None


def team_choices(rules: Rules, names: Sequence[str]) -> list[tuple[str, int]]:
    """What a joiner may ask for at a table (``names``: each seat's player, ``""``
    open), as (label, team): any seat, then each team that has an open seat.  Empty
    when the table does not play in teams.

    >>> team_choices(Rules(players=4, teams=True), ["Ann", "random bot", "", ""])
    [('any team', -1), ('team 0, with Ann', 0), ('team 1, with random bot', 1)]
    >>> team_choices(Rules(players=4, teams=True), ["Ann", "Bo", "Cy", ""])
    [('any team', -1), ('team 1, with Bo', 1)]
    """
    if not rules.teams:
        return []
    choices = [(_("any team"), ANY_TEAM)]
    for team in range(team_count(rules)):
        seats = team_seats(rules, team)
        if all(s < len(names) and names[s] for s in seats):
            continue  # full
        seated = [names[s] for s in seats if s < len(names) and names[s]]
        label = (_("team {team}, with {names}").format(team=team, names=_(" and ").join(seated))
                 if seated else _("team {team}, both seats open").format(team=team))
        choices.append((label, team))
    return choices


def seat_team_note(rules: Rules, seat: int, names: Sequence[str]) -> str:
    """A seat's team and partner, in words, for the seating ("" without teams).
    ``names``: each seat's player, ``""`` open; empty when the seating is not known yet.

    A partner is said by name, never by seat number: one not seated yet is "to come".

    >>> rules, names = Rules(players=4, teams=True), ["Ann", "", "", ""]
    >>> seat_team_note(rules, 2, names), seat_team_note(rules, 1, names)
    ("team 0, Ann's partner", 'team 1, partner still to come')
    >>> seat_team_note(rules, 3, [])
    'team 1'
    """
    other = partner(rules, seat)
    if other is None:
        return ""
    team = rules.team_of(seat)
    if other >= len(names):
        return _("team {team}").format(team=team)
    if names[other]:
        return _("team {team}, {name}'s partner").format(team=team, name=names[other])
    return _("team {team}, partner still to come").format(team=team)
