"""The end-of-game audit: every seat's seed is published, and each seat recomputes the
whole game from them to find whether anybody cheated, and who.

The seeds give every key and permutation of the deal (:mod:`durak_net.mental`), so
the audit can open the locked deck into the real deck order (each card exactly once),
check every key a seat sent during play against its seed, check the trump answers
that settled the first attack, and replay the whole log on the full game, comparing
the public state hash after every entry with the one every seat agreed on.  When the
locked deck does not open to the deck, it redoes each deal step from the one before it
to find the seat whose step was wrong.

The first check that fails names the seat at fault; the verdict is ``fair`` only
when every check passes.  If a seat stopped the game claiming a fault, the claim
stands only where the auditor saw the evidence itself (an authenticated message
that was wrong on its face, such as a forged or illegal log entry, or a key that
opened no card).  Another seat's claim against us that the audit cannot confirm is
itself the fault (``false_claim``: we know we did not cheat); one against a third seat
is ``disputed``, naming nobody (the claimant may lie, or may have been shown what we
were not).

>>> Verdict.fair_game().text
'audited: fair'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from durak_core import Card, Game, Rules, parse_action

from . import mental
from .dealer import HAND, MentalDealer, step_seat
from .notes import Note, Rule, Seat


@dataclass(frozen=True)
class Verdict:
    """What the audit found.  ``culprit`` is the seat at fault (None when fair or when
    nothing could be checked), ``code`` a stable name for the kind of fault,
    ``state_hash`` the hash of the full game the audit rebuilt (when it got that far).
    ``game``: that full game as :meth:`durak_core.Game.to_json` writes it (rules, deck
    order, log), when the audit found it fair: every card is public once the seeds are,
    so each seat may keep the whole game (the coach's review replays it).

    ``detail`` is the finding in English, for programs (the journal, ``--json``);
    ``note`` the same finding as a code and its arguments, which each screen says in
    its language with its names (None for a verdict restored from an older journal:
    then ``detail`` is all there is)."""

    fair: bool
    code: str
    detail: str
    culprit: int | None = None
    state_hash: str = ""
    game: str = field(default="", compare=False, repr=False)
    note: Note | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, fair: bool, code: str, note: Note, names: Sequence[str],
           culprit: int | None = None, state_hash: str = "", game: str = "") -> Verdict:
        """The verdict saying ``note`` (its English, with ``names``, is the detail)."""
        return cls(fair, code, note.english(names), culprit, state_hash, game, note)

    @classmethod
    def fair_game(cls, state_hash: str = "", unfinished: bool = False, game: str = "") -> Verdict:
        return cls.of(True, "fair", Note.of("fair_unfinished" if unfinished else "fair"), (),
                      None, state_hash, game)

    @property
    def text(self) -> str:
        """One line for the table, the journal and the CLI's ``--json``."""
        if self.fair:
            return "audited: fair" + (" (unfinished)" if "unfinished" in self.detail else "")
        return f"audit: {self.detail}"

    def to_json(self) -> str:
        """``"fair"`` or the fault, as the CLI's ``--json`` line says it."""
        return "fair" if self.fair else self.detail


@dataclass(frozen=True)
class Stop:
    """The game was stopped before its end: by whom, at which log length, and why.

    ``claim``: the seat stopped it claiming a fault (which the audit must confirm, or
    the claim is the fault); False when a seat simply left the game.
    """

    seat: int
    index: int
    reason: str
    claim: bool = True
    #: Whom the stopping seat's evidence names, and the kind of fault.
    culprit: int | None = None
    code: str = "stopped"
    #: ``reason`` as a note (what the culprit did), for the screens; None when only
    #: the text is known (a stop restored from the journal).
    note: Note | None = field(default=None, compare=False)

    @property
    def said(self) -> Note:
        """What the culprit did, as a note (the reason's text when there is no note)."""
        return self.note if self.note is not None else Note.plain_text(self.reason)


def _fault(seat: int, code: str, detail: Note, names: Sequence[str]) -> Verdict:
    return Verdict.of(False, code, Note.of("cheated", culprit=Seat(seat), detail=detail),
                      names, seat)


def audit(
    dealer: MentalDealer,
    rules: Rules,
    log: Sequence[tuple[str, bytes]],
    names: Sequence[str] | None = None,
    stop: Stop | None = None,
) -> Verdict:
    """Check the game that ``dealer`` dealt and ``log`` (action text, public hash
    after it) played, once every seat's seed is in ``dealer.seeds``."""
    n = dealer.n
    who = list(names) if names is not None else [f"seat {s}" for s in range(n)]
    seeds = dealer.seeds
    missing = [s for s in range(n) if s not in seeds]
    if missing:
        return Verdict.of(False, "refused", Note.of("no_keys", seat=Seat(missing[0])), who,
                          missing[0])
    # 1. The locked deck, opened with every seat's keys, is the deck: each card once.
    deck = _open_deck(dealer, seeds)
    if deck is None:
        # 2. It is not: redo the deal steps from the seeds, to find whose step was wrong.
        verdict = _check_steps(dealer, seeds, who, stop)
        if verdict is not None:
            return verdict
        if dealer.locked is None:
            return _stopped(stop, who, dealer.seat)
        return Verdict.of(False, "bad_deck", Note.of("bad_deck"), who)  # pragma: no cover
    # 3. Every key sent during the game is the seat's own.
    for (seat, j), key in sorted(dealer.keys.items()):
        if key != dealer.key_of(seeds[seat], j):
            holder = dealer.owner.get(j)
            said = (Note.of("bad_key_held", position=j, holder=Seat(holder), card=deck[j])
                    if holder is not None else Note.of("bad_key", position=j, card=deck[j]))
            return _fault(seat, "bad_key", said, who)
    for seat, card, j, key in dealer.reveals:
        if key != dealer.key_of(seeds[seat], j) or deck[j] is not card:
            return _fault(seat, "not_held", Note.of("played_other", card=card, position=j,
                                                    held=deck[j]), who)
    # 4. The trump answers that settled the first attack.
    verdict = _check_trumps(dealer, deck, who)
    if verdict is not None:
        return verdict
    # 5. The log replays on the full game, with the agreed hash after every entry.
    game = Game.new(rules, deck=deck, previous_durak=dealer.context.previous_durak)
    if dealer.first_attacker is not None and game.attacker != dealer.first_attacker:
        return Verdict.of(False, "bad_start", Note.of(
            "bad_start", lowest=Seat(game.attacker), first=Seat(dealer.first_attacker)), who,
            game.attacker)
    for index, (text, digest) in enumerate(log):
        try:
            action = parse_action(text)
        except ValueError:
            return _fault(0, "bad_log", Note.of("unreadable_logged", index=index), who)
        reason = game.why_illegal(action)
        if reason is not None:
            actor = action.player if 0 <= action.player < n else 0
            return _fault(actor, "illegal", Note.of("illegal_logged", index=index,
                                                    move=action, reason=Rule(reason)), who)
        game.apply(action)
        if bytes.fromhex(game.public_hash()) != digest:
            return _fault(0, "bad_log", Note.of("wrong_state_logged", index=index), who)
    if stop is not None:
        return _stopped(stop, who, dealer.seat, game.state_hash(), game.to_json())
    return Verdict.fair_game(game.state_hash(), game=game.to_json())


def _stopped(stop: Stop | None, who: Sequence[str], me: int, state_hash: str = "",
             game: str = "") -> Verdict:
    """The verdict on a stopped game whose cards and log check out."""
    if stop is None:
        return Verdict.of(False, "incomplete", Note.of("incomplete"), who)
    if not stop.claim:
        return Verdict.fair_game(state_hash, unfinished=True, game=game)
    if stop.seat == me and stop.culprit is not None and stop.culprit != me:
        # We saw the evidence ourselves: an authenticated message that was wrong.
        return Verdict.of(False, stop.code, Note.of("cheated", culprit=Seat(stop.culprit),
                                                    detail=stop.said), who, stop.culprit,
                          state_hash)
    claim = stop.said
    if stop.culprit is not None and stop.culprit != stop.seat:
        claim = Note.of("claim_against", culprit=Seat(stop.culprit), claim=claim)
    if stop.culprit is not None and stop.culprit not in (me, stop.seat):
        # A claim against a third seat that our audit does not confirm: the claimant may
        # have lied, or the accused (or the host, passing messages on) may have shown it
        # something it did not show us.  We cannot tell which: nobody is named.
        return Verdict.of(False, "disputed", Note.of("disputed", by=Seat(stop.seat),
                                                     claim=claim), who, None, state_hash)
    return Verdict.of(False, "false_claim", Note.of("false_claim", by=Seat(stop.seat),
                                                    claim=claim), who, stop.seat, state_hash)


def _open_deck(dealer: MentalDealer, seeds: dict[int, bytes]) -> list[Card] | None:
    """The deck order the locked deck holds under the seeds' keys, or None when it does
    not open to each card of the deck exactly once (or was never completed)."""
    locked = dealer.locked
    if locked is None or not all(mental.seed_is_usable(seeds[s], dealer.size, dealer.key_of)
                                 for s in range(dealer.n)):
        return None
    by_index = {c.index: c for c in dealer.cards}
    deck: list[Card] = []
    for j, point in enumerate(locked):
        keys = [dealer.key_of(seeds[s], j) for s in range(dealer.n)]
        try:
            index = mental.card_of_point(mental.unlock(point, keys))
        except mental.MentalError:
            return None
        card = by_index.get(index) if index is not None else None
        if card is None:
            return None
        deck.append(card)
    return deck if len(set(deck)) == len(deck) else None


def _check_steps(dealer: MentalDealer, seeds: dict[int, bytes], who: Sequence[str],
                 stop: Stop | None) -> Verdict | None:
    """The first deal step that does not follow from its maker's seed and the step
    before it (None when every step received does)."""
    n = dealer.n
    for step in range(2 * n - 1):
        seat = step_seat(step, n)
        sent = dealer.steps.get(step)
        if sent is None:
            if stop is not None:
                return None  # stopped during the deal: what was sent checks out
            return Verdict.of(False, "incomplete", Note.of("step_missing", step=step), who,
                              seat)
        if not mental.seed_is_usable(seeds[seat], dealer.size, dealer.key_of):
            return _fault(seat, "bad_seed", Note.of("bad_seed"), who)
        if sent != _recompute(dealer, step, seeds[seat]):
            if len(set(sent)) != len(sent):
                return _fault(seat, "duplicate_card", Note.of("duplicate_step", step=step),
                              who)
            return _fault(seat, "bad_pass", Note.of("bad_pass", step=step), who)
    return None


def _recompute(dealer: MentalDealer, step: int, seed: bytes) -> list[bytes]:
    n = dealer.n
    if step == 0:
        source = mental.initial_deck(dealer.size, [c.index for c in dealer.cards])
    else:
        source = dealer.steps[step - 1]
    if step < n - 1:
        return mental.shuffle_pass(seed, source)
    if step == n - 1:
        return mental.shuffle_lock_pass(seed, source)
    return mental.lock_pass(seed, source)


def _check_trumps(dealer: MentalDealer, deck: list[Card], who: Sequence[str]) -> Verdict | None:
    if dealer.context.previous_durak is not None:
        return None
    n = dealer.n
    trump = deck[dealer.trump_pos].suit
    low = min(c.rank for c in dealer.cards)
    dealt = min(HAND * n, dealer.size)
    for round_no, answers in sorted(dealer.trump_answers.items()):
        rank = low + round_no
        for seat, answer in sorted(answers.items()):
            held = [j for j in range(seat, dealt, n)
                    if deck[j].suit == trump and deck[j].rank == rank]
            if answer.position < 0 and held:
                return _fault(seat, "bad_trump", Note.of("hid_trump", card=deck[held[0]]),
                              who)
    return None
