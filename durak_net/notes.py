"""What the session and the audit found, as a code with its arguments: each screen says it.

A verdict, a stopped game, a desync or a protocol violation is read by a person, in
their language, with the names of their table; the protocol knows neither.  So it does
not word them: it makes a :class:`Note`, a stable ``code`` (one of :data:`TEMPLATES`)
and typed arguments, and each screen says it: the terminal with :meth:`Note.say` in
the ``durak_net`` gettext domain (:mod:`durak_net.i18n`), the notebook through
``durak_widgets.words.say_note`` (the same sentences, in the table's language).

The arguments are typed so that a screen knows how to say each one:

* :class:`Seat`: a seat, said by its player's name (never its number);
* :class:`Rule`: the rules engine's reason a move is illegal, said by each screen as
  it says the engine's reasons (both translate them with :mod:`durak_lang.reasons`);
* :class:`Theirs`: text another program sent (the reason in a peer's fault or
  refusal): shown made safe (:func:`durak_net.text.plain`) and in quotation marks, as
  that program's own words, never translated;
* a nested :class:`Note` (a verdict quotes the stop it settles);
* an :data:`~durak_core.Action`: the move as a player types it (``attack 7s``: its
  seat goes without saying, or is named by the sentence);
* :class:`~durak_core.Card`, numbers, and ``str`` for program text (a hash, the rules
  engine's reason): shown as they are.

The English sentence (:meth:`Note.english`, with the session's names) is what goes
where programs read: the ``detail`` of a Fault on the wire (signed: its text is part of
the protocol), the journal, the ``--json`` line.  Those stay English whatever a
screen's language.

>>> from durak_core import parse_action
>>> note = Note.of("cheated", culprit=Seat(1), detail=Note.of("entry_marked", index=4,
...                move=parse_action("1 attack 7s"), mark=Theirs("sneaky")))
>>> note.english(["Ann", "Bob"])
'Bob cheated: sent entry 4 (attack 7♠) marked “sneaky”'
>>> from durak_net import i18n
>>> note.say(["Ann", "Bob"], i18n.translation("ru").gettext)
'Bob сжульничал: прислал запись 4 (attack 7♠) с пометкой «sneaky»'
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from durak_core import Action, Attack, Card, Defend, Pass, Take, Transfer, parse_action

from .text import NAME_LIMIT, plain


def N_(text: str) -> str:
    """Mark ``text`` for the ``durak_net`` catalog (translated when said)."""
    return text


@dataclass(frozen=True)
class Seat:
    """A seat a note names: each screen says its player's name."""

    index: int


@dataclass(frozen=True)
class Theirs:
    """Words another program sent (a peer's reason): shown safe and quoted, as theirs."""

    text: str


@dataclass(frozen=True)
class FaultCode:
    """A Fault's code (another seat's finding), said as what the seat it names did
    (:data:`FAULT_WORDS`); a code we do not know is shown as it came."""

    code: str


@dataclass(frozen=True)
class Rule:
    """The rules engine's reason a move is illegal (``Game.why_illegal``: English, seats
    as "player 1"): each screen says it in its language with :mod:`durak_lang.reasons`
    (the notebook with a Russian deck's card letters, the terminal with cards as typed),
    passed to :meth:`Note.say` as ``rule``; the English of programs (:meth:`Note.english`)
    keeps the engine's words, with names for the seat numbers."""

    text: str


Arg = Union[Seat, Theirs, FaultCode, Rule, "Note", Action, Card, int, float, str]
#: How a screen says a rules engine's reason, given the table's names.
SayRule = Callable[[str, Sequence[str]], str]

#: Every note's sentence, by code: the English msgid of the ``durak_net`` catalog, its
#: placeholders the note's arguments.  A detail (what a seat did) is a verb phrase
#: without its subject, so that a verdict can say who did it ("{culprit} cheated:
#: {detail}") and a claim can quote it ("claiming that {culprit} {claim}").
TEMPLATES: dict[str, str] = {
    # ---- the verdicts of the audit
    "fair": N_("every card, key and move checks out"),
    "fair_unfinished": N_("every card, key and move checks out (the game was left unfinished)"),
    "cheated": N_("{culprit} cheated: {detail}"),
    "no_keys": N_("{seat} did not publish its keys for the audit"),
    "no_keys_relayed": N_("{seat}'s keys for the audit never reached us through {host}, "
                          "and we cannot hear {seat} ourselves: either may have kept them "
                          "back"),
    "bad_deck": N_("the locked deck opens to no deck, though every step follows from its seed"),
    "bad_start": N_("{lowest} holds the lowest trump but {first} attacked first"),
    "incomplete": N_("the deal never finished"),
    "step_missing": N_("deal step {step} is missing"),
    "claim_against": N_("claiming that {culprit} {claim}"),
    "disputed": N_("{by} stopped the game ({claim}); the audit finds no fault it can check"),
    "false_claim": N_("{by} stopped the game ({claim}), but the audit finds no fault"),
    "silent_after": N_("{verdict} (and then {seat} went silent)"),
    "silent_disputed": N_("{host} reports {seat} silent, but {seat} is still heard here: "
                          "nobody can tell which of them withholds the game"),
    "silent_reported": N_("{host} reports {seat} silent for {seconds} s; {seat} cannot be "
                          "heard here directly, so nobody can tell whether it went silent "
                          "or {host} withholds it"),
    "silent": N_("{seat} went silent and was not heard for {seconds} s (the grace period)"),
    "idle_unheard": N_("{seat} made no move for {seconds} s while the game waited for it, "
                       "and {host} told us nothing of it; {seat} cannot be heard here "
                       "directly, so nobody can tell whether it held the game up or {host} "
                       "kept its moves from us"),
    "clock_disputed": N_("{seat} says {host} timed it out before its move clock ran out "
                         "(entry {index}); no other seat can check a clock"),
    # ---- what a seat did (details: verb phrases, the seat is said by the frame)
    "bad_key_held": N_("sent a wrong key for position {position} ({holder}'s card, {card})"),
    "bad_key": N_("sent a wrong key for position {position} ({card})"),
    "played_other": N_("played {card} from position {position}, which held {held}"),
    "unreadable_logged": N_("logged an unreadable entry {index}"),
    "illegal_logged": N_("played entry {index} ({move}), which was illegal: {reason}"),
    "wrong_state_logged": N_("logged a wrong state after entry {index}"),
    "bad_seed": N_("published a seed that gives a zero key"),
    "duplicate_step": N_("duplicated a card in deal step {step}"),
    "bad_pass": N_("made deal step {step} with other keys than its seed's (a card was "
                   "replaced)"),
    "hid_trump": N_("said it held no {card} but did (it should have attacked first)"),
    "relayed_unsigned": N_("passed on messages of {seat} that {seat} did not sign"),
    "bot_cards_not_ours": N_("sent entry {index}, a bot's move for our seat ({move}) with "
                             "cards that are not ours"),
    "bot_opens_more": N_("sent entry {index}, a bot's move for our seat that opens more "
                         "cards than it plays"),
    "cannot_hold": N_("played {card}, a card it cannot hold"),
    "not_opened": N_("played {card} without opening it"),
    "opened_more": N_("opened more cards than it played"),
    "forked": N_("showed {seat} a log that differs from ours at entry {index}"),
    "proposed_forked": N_("proposed on a log that differs from ours at entry {index}"),
    "forked_signed": N_("signed two logs that differ at entry {index}"),
    "refused_own_log": N_("refused our move {move}, made on its own log (entry {index}), "
                          "saying: {reason}"),
    "refused_unsent": N_("refused our move {move} as stale, after entries up to {index} "
                         "it never sent"),
    "entry_for_nobody": N_("sent entry {index} for a seat the table does not have"),
    "entry_marked": N_("sent entry {index} ({move}) marked {mark}"),
    "bot_never_opened": N_("sent entry {index} ({move}) as a bot's move for {seat}, whose "
                           "hand was never opened"),
    "early_clock": N_("timed out our seat with entry {index} ({move}) {seconds} s before "
                      "our move clock ran out"),
    "stalled": N_("neither placed nor refused our move for {seconds} s while it "
                  "answered"),
    "stalled_clock": N_("wrote no entry for {seconds} s after the move clock of {seat} "
                        "ran out, while it answered"),
    "idle": N_("{seat} made no move for {seconds} s while the game waited for it, and "
               "was still there"),
    # (said_left: a verdict of version 5, which judged the host's "left" by our hearing;
    # kept so that a journal holding one still reads)
    "said_left": N_("said {seat} left the table, but {seat} was still heard here after "
                    "that"),
    "left_unbacked": N_("said {seat} left the game, with no goodbye signed by {seat}"),
    "not_proposed": N_("sent entry {index}, which plays our seat ({move}) though we did "
                       "not propose it"),
    "no_proposal": N_("sent entry {index} ({move}) without {seat}'s proposal"),
    "illegal_entry": N_("sent entry {index} ({move}), which is illegal: {reason}"),
    "fault_ours": N_("sent a fault in our name that we never sent"),
    "fault_relayed": N_("sent a fault as found by {seat}"),
    "fault_unsigned_by": N_("sent a fault of {seat} that {seat} did not sign"),
    "fault_unsigned": N_("sent a fault it did not sign"),
    "fault_unproven": N_("sent a fault against {seat} whose evidence does not check out"),
    # ---- a stopped game: who the evidence names and what they did
    "found": N_("{culprit} {detail}"),
    "found_desync": N_("out of step with {culprit}: {detail}"),
    "stopped_by": N_("{by} stopped the game: {culprit} {detail}"),
    # (another seat's finding: its code in our words, its detail as its program wrote it)
    "did_theirs": N_("{what} (as {by}'s program puts it: {detail})"),
    # ---- what a seat did to the deal (durak_net.dealer's faults)
    "deal_as_itself": N_("sent a deal message as another seat"),
    "deal_unreadable": N_("sent an unreadable deal message: {reason}"),
    "deal_step_of": N_("sent deal step {step}, which is {seat}'s"),
    "deal_step_parts": N_("sent deal step {step} in {parts} parts"),
    "deal_part_size": N_("sent part {part} of deal step {step} with {count} points, not "
                         "{expected}"),
    "deal_step_twice": N_("sent deal step {step} twice, differently"),
    "deal_not_points": N_("sent a deal step {step} that holds something other than card "
                          "points"),
    "keys_unmatched": N_("sent keys with unmatched positions"),
    "key_outside_deck": N_("sent a key for position {position} of a {size}-card deck"),
    "two_keys": N_("sent two keys for position {position}"),
    "key_opens_nothing": N_("sent a key for position {position} that opens no card"),
    "key_opens_outside": N_("sent a key for position {position} that opens a card outside "
                            "this deck"),
    "key_size": N_("sent a key that is not 32 bytes"),
    "same_trump": N_("showed the same trump as {seat}"),
    "wrong_trump_shown": N_("showed {card} as the trump {trump}"),
    "trump_round_unasked": N_("answered a trump round in a game whose first attack the "
                              "rules set"),
    "two_trump_answers": N_("gave two different trump answers"),
    "trump_round_early": N_("answered trump round {round} during round {current}"),
    "showed_other_card": N_("showed position {position}, which is not one of its cards"),
    "played_not_held": N_("played {card}, a card it does not hold (position {position} is "
                          "{opened})"),
    "opened_outside": N_("opened a card at position {position}"),
    "opened_not_hidden": N_("opened position {position}, which is not one of its hidden "
                            "cards"),
    "opened_early": N_("opened position {position} before it was dealt"),
    "two_seeds": N_("published two different seeds"),
    "escrow_of_two": N_("sent an escrow at a table of two"),
    "escrow_size": N_("sent an escrow for {count} seats"),
    "escrow_malformed": N_("sent a malformed escrow (the share for {seat})"),
    "two_escrows": N_("sent two different escrows"),
    "share_of": N_("published a share of {seat}'s seed"),
    "share_unescrowed": N_("published a share of {seat}'s seed, which was never put in "
                           "escrow"),
    "share_wrong": N_("published a share of {seat}'s seed that is not the one it was given"),
    "two_shares": N_("published two different shares"),
    "escrow_not_seed": N_("put in escrow shares that do not make its seed"),
    "escrow_other_seed": N_("put in escrow a seed other than the one its keys come from"),
    "seed_not_escrowed": N_("published another seed than its escrow"),
    # ---- desyncs: the host and we disagree
    "desync_game": N_("entry for game {game}, but game {current} is dealt"),
    "desync_gap": N_("entry {index} arrived but only {count} are applied"),
    "desync_unreadable": N_("unreadable entry: {reason}"),
    "desync_host_pid": N_("an entry of the host's own seat names a proposal"),
    "desync_hash": N_("state hash after entry {index} differs (mine {mine}, the host's "
                      "{theirs})"),
    "desync_unsent": N_("a seat has entries I never sent"),
    "desync_peer": N_("{by} is out of step with the host: {detail}"),
    # ---- protocol violations: an authenticated message the protocol does not allow
    "hello_wrong_link": N_("a hello for another seat came on {seat}'s link"),
    "key_changed": N_("{seat} changed its signing key"),
    "seating_from_player": N_("a seated player sent the seating"),
    "our_seat_taken": N_("the host seated another key at our seat"),
    "host_changed_key": N_("the host changed {seat}'s signing key"),
    "deal_as_other": N_("{seat} sent a deal message as {other}"),
    "deal_bad_author": N_("a deal message of a seat that may not send one"),
    "deal_wrong_game": N_("deal message for game {game} while at game {current}"),
    "deal_unsigned": N_("{seat}'s deal message is not signed by it"),
    "proposal_from_host": N_("the host sent a proposal"),
    "entry_from_player": N_("a seated player sent a log entry"),
    "fault_undealt": N_("a fault reported for game {game}, never dealt"),
    # ---- proposals, committed first and opened once placed (section 7)
    "host_sent_opening": N_("the host sent an opening"),
    "order_unsigned": N_("an order of proposal {pid} the host did not sign"),
    "refusal_unsigned": N_("a refusal of proposal {pid} the host did not sign"),
    "opened_other": N_("opened its proposal {pid} with another move than it committed to"),
    "committed_unreadable": N_("committed to an unreadable move ({reason})"),
    "committed_other_seat": N_("committed to a move of {seat} ({move})"),
    "committed_illegal": N_("committed to {move}, which is illegal on the log it was made "
                            "on: {reason}"),
    "placed_elsewhere": N_("placed our move {move} at entry {index}, not on the log it was "
                           "made on (entry {seen})"),
    "refused_after_placing": N_("refused our move {move} after placing it at entry {index} "
                                "and seeing it, saying: {reason}"),
    "entry_at_our_place": N_("sent entry {index} ({move}) at the place it gave our move "
                             "{ours}"),
    "never_opened": N_("did not open its move, placed at entry {index}, within {seconds} s "
                       "while connected"),
    "proven": N_("{host} cheated: {claim} (as {by} showed, with {host}'s own signature)"),
    "internal": N_("internal error: {error}"),
    # ---- a refusal: the refusing program's own words
    "refused_saying": N_("{seat} refused this move, saying: {reason}"),
    # ---- a text as it is: another program's words (quoted), or ours from a journal
    "text": "{text}",
}
#: How another program's words are quoted (the quotation marks are the language's).
QUOTE = N_("“{text}”")

#: What each fault code of the protocol (a Fault's ``code``) says a seat did, for a
#: fault another seat found: its own detail is quoted after it.
FAULT_WORDS: dict[str, str] = {
    "forged": N_("forged a message"),
    "illegal": N_("made an illegal move"),
    "desync": N_("is out of step"),
    "forked": N_("showed seats different logs"),
    "bad_refusal": N_("refused a move it had to log"),
    "bad_order": N_("placed a move elsewhere than where it was made"),
    "bad_open": N_("opened another move than it committed to"),
    "early_clock": N_("timed a seat out early"),
    "bad_key": N_("sent a wrong key"),
    "not_held": N_("played a card it does not hold"),
    "bad_trump": N_("lied about the lowest trump"),
    "bad_pass": N_("broke a deal step"),
    "duplicate_card": N_("duplicated a card in the deal"),
    "bad_seed": N_("published a bad seed"),
    "bad_share": N_("published a bad share of a seed"),
    "bad_escrow": N_("put a bad escrow in"),
    "protocol": N_("broke the protocol"),
    "unopened": N_("committed to a move and never opened it"),
    "stalled": N_("kept a seat's move waiting"),
    "stalled_clock": N_("let a move clock run out and wrote no entry"),
    "idle": N_("kept the table waiting for its move"),
    "said_left": N_("said a seat still playing had left"),
}
#: A fault code nobody here knows (another program's): said as this.
FAULT_UNKNOWN = N_("broke the rules ({code})")

_FIELDS = {code: frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f)
           for code, text in TEMPLATES.items()}


def _identity(text: str) -> str:
    return text


@dataclass(frozen=True)
class Note:
    """A finding to say: ``code`` (a key of :data:`TEMPLATES`, stable for programs) and
    its arguments (name, value), in the order given."""

    code: str
    args: tuple[tuple[str, Arg], ...] = ()

    @classmethod
    def of(cls, code: str, **args: Arg) -> Note:
        """The note ``code`` with ``args``; ValueError when the code is unknown or the
        arguments are not its sentence's placeholders (a typo is caught where it is made,
        not on a player's screen)."""
        fields = _FIELDS.get(code)
        if fields is None:
            raise ValueError(f"no such note: {code!r}")
        if set(args) != fields:
            raise ValueError(f"note {code!r} takes {sorted(fields)}, not {sorted(args)}")
        return cls(code, tuple(args.items()))

    @classmethod
    def quote(cls, text: str) -> Note:
        """Words from another program (a peer's fault detail or reason), quoted."""
        return cls.of("text", text=Theirs(text))

    @classmethod
    def plain_text(cls, text: str) -> Note:
        """A sentence of ours kept only as English text (a journal from before notes)."""
        return cls.of("text", text=text)

    @classmethod
    def did_theirs(cls, by: int, code: str, detail: str) -> Note:
        """What another seat's Fault says the seat it names did: its code in our words
        (as far as we know the code), its detail as its program wrote it."""
        return cls.of("did_theirs", what=FaultCode(code), by=Seat(by), detail=Theirs(detail))

    def seats(self) -> tuple[int, ...]:
        """Every seat the note names (nested notes included), in order, once each."""
        found: list[int] = []
        for _, value in self.args:
            inner = value.seats() if isinstance(value, Note) else (
                (value.index,) if isinstance(value, Seat) else ())
            found.extend(s for s in inner if s not in found)
        return tuple(found)

    def say(self, names: Sequence[str], gettext: Callable[[str], str] = _identity,
            rule: SayRule | None = None) -> str:
        """The sentence in the language of ``gettext`` (a catalog's lookup; the default
        is English), each seat said by its name in ``names``, a rules engine's reason
        by ``rule`` (default: its English, names for its seat numbers)."""
        values: Mapping[str, object] = {
            key: _said(value, names, gettext, rule or engine_words) for key, value in self.args}
        text = TEMPLATES[self.code]
        return (gettext(text) if text != "{text}" else text).format(**values)

    def english(self, names: Sequence[str]) -> str:
        """The sentence in English: what programs read (a Fault's detail, the journal)."""
        return self.say(names)

    def to_json(self) -> dict[str, Any]:
        """The note as JSON values (the journal keeps it, so a session restored from it
        still says its verdict in the reader's language).

        >>> from durak_core import parse_action
        >>> note = Note.of("no_proposal", index=3, move=parse_action("2 take"), seat=Seat(2))
        >>> Note.from_json(note.to_json()) == note
        True
        """
        return {"code": self.code, "args": [[key, *_to_json(value)] for key, value in self.args]}

    @classmethod
    def from_json(cls, data: Any) -> Note:
        """A note from :meth:`to_json`'s values; ValueError (or KeyError, TypeError) for
        anything else."""
        args = {str(key): _from_json(str(kind), value) for key, kind, value in data["args"]}
        return cls.of(str(data["code"]), **args)


_PLAYERS = re.compile(r"\b([Pp])layers? (\d+(?:(?:, | and )\d+)*)\b")


def engine_words(text: str, names: Sequence[str]) -> str:
    """A rules engine's sentence with names for its seat numbers ("player 1" is Bob);
    numbers the names do not cover stay as they are.

    >>> engine_words("Only the defender, player 1, beats cards.", ["Ann", "Bob"])
    'Only the defender, Bob, beats cards.'
    """

    def named(match: re.Match[str]) -> str:
        seats = [int(s) for s in re.findall(r"\d+", match.group(2))]
        if any(s >= len(names) or not names[s] for s in seats):
            return match.group(0)
        said = [plain(names[s], NAME_LIMIT) for s in seats]
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]

    return plain(_PLAYERS.sub(named, text))


def _said(value: object, names: Sequence[str], gettext: Callable[[str], str],
          rule: SayRule) -> object:
    if isinstance(value, Note):
        return value.say(names, gettext, rule)
    if isinstance(value, Rule):
        return rule(value.text, names)
    if isinstance(value, Seat):
        if 0 <= value.index < len(names) and names[value.index]:
            return plain(names[value.index], NAME_LIMIT)
        return gettext(N_("a player"))
    if isinstance(value, Theirs):
        return gettext(QUOTE).format(text=plain(value.text))
    if isinstance(value, FaultCode):
        if value.code in FAULT_WORDS:
            return gettext(FAULT_WORDS[value.code])
        return gettext(FAULT_UNKNOWN).format(code=plain(value.code, 24))
    if isinstance(value, Attack | Defend | Transfer | Take | Pass):
        return str(value).split(" ", 1)[-1]
    if isinstance(value, float):
        return f"{value:.1f}"
    if isinstance(value, int | Card):
        return str(value)
    return plain(value)


#: The reasons our own programs send (a decline, a refused seat, a goodbye: English on
#: the wire, the protocol's words), said in the reader's language.  Any other reason
#: came from another program: :func:`say_reason` quotes it as that program's words.
REASONS: dict[str, str] = {
    "declined": N_("declined"), "cancelled": N_("cancelled"), "no answer": N_("no answer"),
    "already playing": N_("already playing"),
    "cancelled by the inviter": N_("cancelled by the inviter"),
    "refused by the invitee": N_("refused by the invitee"),
    "no seat offered": N_("no seat offered"), "the host gave no seat": N_("the host gave no seat"),
    "the game has started": N_("the game has started"), "no free seat": N_("no free seat"),
    "no free seat in that team": N_("no free seat in that team"),
    "no such table here": N_("no such table here"), "closed the table": N_("closed the table"),
    "left the game": N_("left the game"), "left": N_("left"),
    "played all games": N_("played all games"), "game stopped": N_("game stopped"),
    "the pairing words differed: someone may be in the middle": N_(
        "the pairing words differed: someone may be in the middle"),
    # (why a pairing failed: the lobby's own checks, or the other side's Paired)
    "the inviter's key does not match its commitment: someone is in the middle": N_(
        "the inviter's key does not match its commitment: someone is in the middle"),
    "the inviter's key is invalid": N_("the inviter's key is invalid"),
    "the PIN does not match, or someone is in the middle": N_(
        "the PIN does not match, or someone is in the middle"),
    "the pairing proof is wrong: someone is in the middle": N_(
        "the pairing proof is wrong: someone is in the middle"),
    "the invitee's proof is wrong: someone is in the middle": N_(
        "the invitee's proof is wrong: someone is in the middle"),
}


def say_reason(reason: str, gettext: Callable[[str], str] = _identity) -> str:
    """A reason that came over the network: one of ours (:data:`REASONS`) in the
    reader's language, any other made safe and quoted as its sender's own words.

    >>> say_reason("declined"), say_reason("go away\\x1b[2J")
    ('declined', '“go away [2J”')
    >>> say_reason("pairing failed: refused by the invitee"), say_reason("pairing failed: x")
    ('pairing failed: refused by the invitee', 'pairing failed: “x”')
    >>> say_reason("Ann went silent")
    'Ann went silent'
    >>> say_reason(OLDER_PEER.format(version=3))
    'runs an older durak (LAN protocol 3); both players need the same version'
    """
    if reason in REASONS:
        return gettext(REASONS[reason])
    older = _OLDER.match(reason)
    if older:  # a peer the lobby heard speak an older protocol
        return gettext(OLDER_PEER).format(version=older.group(1))
    head, _, rest = reason.partition(": ")
    if head == "pairing failed" and rest:  # our lobby's words around the other side's
        return gettext(N_("pairing failed: {reason}")).format(reason=say_reason(rest, gettext))
    for ending, sentence in _ENDINGS:  # why a table ended, as our session says it
        name = reason.removesuffix(ending)
        if name != reason and name:
            return gettext(sentence).format(name=plain(name, NAME_LIMIT))
    return Note.quote(reason).say((), gettext)


#: Why a table ended, as a session of ours says it in its goodbye ("Ann went silent").
_ENDINGS = ((" went silent", N_("{name} went silent")),
            (" left the table", N_("{name} left the table")))
#: Why a peer on the LAN cannot play with us (``PeerInfo.incompatible``), as the lobby
#: writes it (English in the event; each screen says it with :func:`say_reason`).
OLDER_PEER = N_("runs an older durak (LAN protocol {version}); both players need the same "
                "version")
_OLDER = re.compile("{}(\\d+){}\\Z".format(*map(re.escape, OLDER_PEER.split("{version}"))))


def _to_json(value: Arg) -> tuple[str, Any]:
    if isinstance(value, Note):
        return "note", value.to_json()
    if isinstance(value, Seat):
        return "seat", value.index
    if isinstance(value, Theirs):
        return "theirs", value.text
    if isinstance(value, FaultCode):
        return "fault", value.code
    if isinstance(value, Rule):
        return "rule", value.text
    if isinstance(value, Attack | Defend | Transfer | Take | Pass):
        return "move", str(value)
    if isinstance(value, Card):
        return "card", str(value)
    return "value", value


def _from_json(kind: str, value: Any) -> Arg:
    if kind == "note":
        return Note.from_json(value)
    if kind in ("seat", "theirs", "fault", "rule", "move", "card"):
        build: dict[str, Callable[[Any], Arg]] = {
            "seat": lambda v: Seat(int(v)), "theirs": lambda v: Theirs(str(v)),
            "rule": lambda v: Rule(str(v)),
            "fault": lambda v: FaultCode(str(v)), "move": lambda v: parse_action(str(v)),
            "card": lambda v: Card.parse(str(v))}
        return build[kind](value)
    if kind == "value" and isinstance(value, int | float | str) and not isinstance(value, bool):
        return value
    raise ValueError(f"not a note's argument: {kind} {value!r}")
