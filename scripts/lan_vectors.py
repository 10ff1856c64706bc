"""Write docs/lan-vectors.json: the LAN protocol's test vectors, made by durak_net itself.

Every value comes from fixed inputs (seeds, private keys, ids) through the same code a
peer runs: the dealer's steps and messages from two real dealers, the datagrams from a
real lobby and session.  docs/lan-protocol.md explains each one;
tests/net/test_net_vectors.py recomputes them from that page's formulas and checks
that the code still gives the same bytes.

    python scripts/lan_vectors.py            # print the vectors
    python scripts/lan_vectors.py --write    # write docs/lan-vectors.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import msgspec

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from durak_core import Card, Game, Rules, parse_action  # noqa: E402
from durak_core.cards import new_deck  # noqa: E402
from durak_net import entry_sig, escrow, leaving, mental, online_code, relay  # noqa: E402
from durak_net.crypto import (  # noqa: E402
    KeyPair,
    Pin,
    key_commitment,
    mac,
    pairing_proof,
    rendezvous_tag,
    session_key,
    short_auth_string,
    transcript,
)
from durak_net.dealer import DealContext, MentalDealer, decode  # noqa: E402
from durak_net.dealer import encode as dealer_encode  # noqa: E402
from durak_net.identity import Identity  # noqa: E402
from durak_net.lobby import DISCOVERY_LABEL, node_id  # noqa: E402
from durak_net.proposals import (  # noqa: E402
    order_signed,
    proposal_commit,
    proposal_signed,
    refused_signed,
)
from durak_net.session import (  # noqa: E402
    deal_signed,
    fault_signed,
    table_words,
)
from durak_net.wire import (  # noqa: E402
    PROTOCOL,
    PROTOCOL_VERSION,
    Announce,
    Answer,
    Cancel,
    Confirm,
    Entry,
    Invite,
    Join,
    Packet,
    Paired,
    Status,
    TableInfo,
    encode_discovery,
    encode_packet_body,
    session_header,
)

OUT = REPO / "docs" / "lan-vectors.json"


def _seed(label: str) -> bytes:
    """A fixed 32-byte input, named."""
    import hashlib

    return hashlib.blake2b(label.encode(), digest_size=32).digest()


def _hex(values: list[bytes]) -> list[str]:
    return [v.hex() for v in values]


def cards() -> list[dict[str, Any]]:
    by_index = {c.index: c for c in new_deck(52)}
    return [{"index": i, "card": str(by_index[i]), "point": mental.card_point(i).hex()}
            for i in range(52)]


def seed_derivations() -> dict[str, Any]:
    seed = _seed("vector seed")
    return {
        "seed": seed.hex(),
        "shuffle_key": mental.shuffle_key(seed).hex(),
        "card_keys": _hex([mental.card_key(seed, j) for j in range(36)]),
        "permutation_36": mental.permutation(seed, 36),
        "permutation_24": mental.permutation(seed, 24),
    }


def deal() -> dict[str, Any]:
    """A whole two-seat, 36-card deal between two real dealers."""
    seeds = [_seed("seat 0 seed"), _seed("seat 1 seed")]
    dealers = [
        MentalDealer(DealContext(1, 1, s, 2, 36, random.Random(s).randbytes), seeds[s])
        for s in (0, 1)
    ]
    mail = [(s, m) for s in (0, 1) for m in dealers[s].begin()]
    messages = []
    while mail:
        sender, data = mail.pop(0)
        message = decode(data)
        messages.append({"from": sender, "tag": type(message).__name__.lower(),
                         "hex": data.hex()})
        mail += [(1 - sender, m) for m in dealers[1 - sender].receive(data, sender)]
    views = [d.deal(Rules()) for d in dealers]
    locked = dealers[0].locked
    assert locked is not None and all(d.done for d in dealers)
    by_index = {c.index: c for c in dealers[0].cards}
    deck = [str(by_index[mental.open_card(p, [mental.card_key(s, j) for s in seeds])])
            for j, p in enumerate(locked)]
    shown = dealers[0].shown_trump
    return {
        "players": 2,
        "deck_size": 36,
        "seeds": _hex(seeds),
        "steps": [_hex(dealers[0].steps[s]) for s in range(3)],
        "messages": messages,
        "deck": deck,
        "trump": str(dealers[0].trump_card),
        "first_attacker": dealers[0].first_attacker,
        "shown_trump": None if shown is None else [shown[0], str(shown[1])],
        "hands": [[str(c) for c in views[s].hand(s)] for s in (0, 1)],
        "public_hash": views[0].public_hash(),
    }


def pairing() -> dict[str, Any]:
    invite = 0x0123456789ABCDEF
    inviter = KeyPair.generate(lambda n: _seed("inviter x25519")[:n])
    invitee = KeyPair.generate(lambda n: _seed("invitee x25519")[:n])
    shared = inviter.exchange(invitee.public)
    key = session_key(shared, b"", invite)
    text = transcript(invite, inviter.public, invitee.public)
    out: dict[str, Any] = {
        "invite": invite,
        "inviter_private": _seed("inviter x25519").hex(),
        "inviter_public": inviter.public.hex(),
        "invitee_private": _seed("invitee x25519").hex(),
        "invitee_public": invitee.public.hex(),
        "commitment": key_commitment(inviter.public).hex(),
        "shared": shared.hex(),
        "session_key": key.hex(),
        "transcript": text.hex(),
        "proof_inviter": pairing_proof(key, True, text).hex(),
        "proof_invitee": pairing_proof(key, False, text).hex(),
        "words": short_auth_string(invite, inviter.public, invitee.public),
        "rendezvous_tag": rendezvous_tag(key).hex(),
    }
    # With a PIN: each side's SPAKE2 draws 64 random bytes (python-spake2 makes its
    # secret scalar of them: a big-endian integer modulo the group order).
    pin = "482193"
    entropy_a = random.Random(1).randbytes(64)
    entropy_b = random.Random(2).randbytes(64)
    side_a = Pin(pin, True, lambda n: entropy_a[:n])
    side_b = Pin(pin, False, lambda n: entropy_b[:n])
    pin_key = side_a.key(side_b.message)
    assert pin_key == side_b.key(side_a.message)
    with_pin = session_key(shared, pin_key, invite)
    pin_text = transcript(invite, inviter.public, invitee.public, side_a.message, side_b.message)
    out["pin"] = {
        "pin": pin,
        "inviter_entropy": entropy_a.hex(),
        "invitee_entropy": entropy_b.hex(),
        "inviter_spake": side_a.message.hex(),
        "invitee_spake": side_b.message.hex(),
        "pin_key": pin_key.hex(),
        "session_key": with_pin.hex(),
        "proof_inviter": pairing_proof(with_pin, True, pin_text).hex(),
        "proof_invitee": pairing_proof(with_pin, False, pin_text).hex(),
    }
    return out


def _fields(message: Any) -> dict[str, Any]:
    """A message's fields by name, as JSON: bytes as hex, nested structs as dicts."""
    def plain(value: Any) -> Any:
        if isinstance(value, bytes):
            return value.hex()
        if hasattr(value, "__struct_fields__"):
            return _fields(value)
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        return value
    return {name: plain(getattr(message, name)) for name in message.__struct_fields__}


def datagrams(pair: dict[str, Any], dealt: dict[str, Any]) -> dict[str, Any]:
    # Node keys: each signs its node's discovery datagrams; a node id is its key's hash.
    a_node, b_node = (Identity.from_private(_seed(f"{who} node key")) for who in ("Alice", "Bob"))
    alice, bob, invite = node_id(a_node.public), node_id(b_node.public), pair["invite"]
    ak, bk = a_node.public, b_node.public
    rules = Rules().to_dict()
    a_pub, b_pub = bytes.fromhex(pair["inviter_public"]), bytes.fromhex(pair["invitee_public"])
    discovery = {
        "announce": (a_node, Announce(PROTOCOL, PROTOCOL_VERSION, alice, ak, 1, "Alice", 40123,
                                      rules, False, [])),
        "announce_table": (a_node, Announce(PROTOCOL, PROTOCOL_VERSION, alice, ak, 2, "Alice",
                                            40123, Rules(players=3).to_dict(), True, [],
                                            TableInfo(0x7AB1E, ["Alice", "", ""], 30, 60,
                                                      False, True))),
        "join": (b_node, Join(bob, bk, alice, 0x7AB1E, "Bob", -1)),
        "invite": (a_node, Invite(alice, ak, bob, invite, "Alice", rules,
                                  bytes.fromhex(pair["commitment"]))),
        "answer": (b_node, Answer(bob, bk, alice, invite, True, "", b_pub)),
        "confirm": (a_node, Confirm(alice, ak, bob, invite, a_pub,
                                    bytes.fromhex(pair["proof_inviter"]))),
        "paired": (b_node, Paired(bob, bk, alice, invite, True,
                                  bytes.fromhex(pair["proof_invitee"]))),
        "cancel": (a_node, Cancel(alice, ak, bob, invite, "cancelled")),
    }
    out: dict[str, Any] = {
        "alice_node_private": a_node.private.hex(), "alice_node_key": ak.hex(),
        "alice_node": alice,
        "bob_node_private": b_node.private.hex(), "bob_node_key": bk.hex(), "bob_node": bob,
    }
    for name, (signer, msg) in discovery.items():
        out[name] = encode_discovery(
            msg, lambda data, signer=signer: signer.sign(DISCOVERY_LABEL, data)).hex()
    # The inputs of each, field by field (bytes as hex), for an implementer's own encoder.
    out["fields"] = {name: _fields(msg) for name, (_, msg) in discovery.items()}
    # A session datagram from seat 0 (the first attacker of the vector deal): one packet
    # carrying log entry 0, seat 0 attacking with the card at position 0, opened by its key.
    key = bytes.fromhex(pair["session_key"])
    deck = [Card.parse(t) for t in dealt["deck"]]
    game = Game.new(Rules(), deck=deck)
    assert game.attacker == 0 and dealt["shown_trump"] != [0, str(deck[0])]
    action = f"0 attack {deck[0]}"
    game.apply(parse_action(action))
    unsigned = Entry(7, 1, 0, action, bytes.fromhex(game.public_hash()), 0,
                     [(0, mental.card_key(bytes.fromhex(dealt["seeds"][0]), 0))], 0, b"", b"")
    # Version 5: the host signs it (seat 0's signing key of the signatures vector, table
    # id the invitation's), over the empty link hash before entry 0.
    host_key = Identity.from_private(_seed("seat 0 signing key"))
    entry = entry_sig.sign(host_key, invite, unsigned, b"")
    entry_parts = entry_sig.entry_signed(invite, 1, 0, b"", entry_sig.digest(unsigned))
    body = encode_packet_body(Packet(1, 1, 5, 6, [8], [entry]))
    header = session_header(invite)
    tag = mac(key, header, bytes([0]), body)
    out["session"] = {
        "sid": invite,
        "seat": 0,
        "key": key.hex(),
        "packet": {"epoch": 1, "peer_epoch": 1, "pn": 5, "ack": 6, "sack": [8]},
        "entry": _fields(entry),
        "entry_table": invite,
        "entry_digest": entry_sig.digest(unsigned).hex(),
        "entry_signed_bytes": b"".join(entry_parts).hex(),
        "entry_link": entry_sig.link(b"", entry_sig.digest(unsigned)).hex(),
        "action": action,
        "public_hash_after": game.public_hash(),
        "header": header.hex(),
        "body": body.hex(),
        "tag": tag.hex(),
        "datagram": (header + tag + body).hex(),
    }
    return out


#: The pairing words a table of two binds its table words to (those of the pairing
#: vector).
PAIRING_WORDS = "cousin circus willow turtle"


def signatures(dealt: dict[str, Any]) -> dict[str, Any]:
    """A seat's signing key, a deal message and a proposal (its commitment) signed with
    it, the host's order placing that proposal, the table's words."""
    host = Identity.from_private(_seed("seat 0 signing key"))
    member = Identity.from_private(_seed("seat 1 signing key"))
    table = 0x7AB1E
    data = bytes.fromhex(dealt["messages"][0]["hex"])
    deal_parts = deal_signed(table, 1, 0, data)
    reveal = (2, mental.card_key(bytes.fromhex(dealt["seeds"][1]), 1))
    salt = bytes(range(100, 116))
    commit = proposal_commit(salt, "1 take", [reveal])
    proposal_parts = proposal_signed(table, 1, 1, 1, commit, 3, bytes(range(32)))
    order_parts = order_signed(table, 1, 1, 1, commit, 3)
    refused_parts = refused_signed(table, 1, 1, 1, 4)
    evidence = [bytes(range(5)), b"head"]
    fault_parts = fault_signed(table, 1, 3, 0, "forged", "sent entry 3", 1, evidence)
    # Version 6: seat 1 leaves game 1 at log length 3 (its link hash: bytes 32..63).
    bye_prev = bytes(range(32, 64))
    bye_parts = leaving.bye_signed(table, 1, 1, 3, bye_prev, "dinner")
    bye = leaving.signed_bye(member, table=table, seat=1, game=1, index=3, prev=bye_prev,
                             reason="dinner")
    return {
        "table": table,
        "seat0_private": host.private.hex(),
        "seat0_public": host.public.hex(),
        "seat1_private": member.private.hex(),
        "seat1_public": member.public.hex(),
        "deal_inputs": {"table": table, "game": 1, "seat": 0, "data": data.hex()},
        "deal_signed_bytes": b"".join(deal_parts).hex(),
        "deal_signature": host.sign(*deal_parts).hex(),
        "proposal_inputs": {"table": table, "game": 1, "seat": 1, "pid": 1,
                            "action": "1 take", "reveals": [[reveal[0], reveal[1].hex()]],
                            "salt": salt.hex(), "seen": 3,
                            "seen_hash": bytes(range(32)).hex()},
        "proposal_commit": commit.hex(),
        "proposal_signed_bytes": b"".join(proposal_parts).hex(),
        "proposal_signature": member.sign(*proposal_parts).hex(),
        "order_inputs": {"table": table, "game": 1, "seat": 1, "pid": 1,
                         "commit": commit.hex(), "index": 3},
        "order_signed_bytes": b"".join(order_parts).hex(),
        "order_signature": host.sign(*order_parts).hex(),
        "refused_inputs": {"table": table, "game": 1, "seat": 1, "pid": 1, "at": 4},
        "refused_signed_bytes": b"".join(refused_parts).hex(),
        "refused_signature": host.sign(*refused_parts).hex(),
        "table_words_2": table_words(table, [host.public, member.public]),
        "fault_inputs": {"table": table, "game": 1, "index": 3, "seat": 0, "code": "forged",
                         "detail": "sent entry 3", "by": 1,
                         "evidence": _hex(evidence)},
        "fault_signed_bytes": b"".join(fault_parts).hex(),
        "fault_signature": member.sign(*fault_parts).hex(),
        "bye_inputs": {"table": table, "seat": 1, "game": 1, "index": 3,
                       "prev": bye_prev.hex(), "reason": "dinner"},
        "bye_signed_bytes": b"".join(bye_parts).hex(),
        "bye_signature": member.sign(*bye_parts).hex(),
        "bye_evidence": leaving.encode(bye).hex(),
        # The host's Status "left" carrying it (msgpack, as in a packet's frames).
        "status_left": msgspec.msgpack.encode(Status(9, 1, "left", "dinner",
                                                     leaving.encode(bye))).hex(),
        "pairing_words": PAIRING_WORDS,
        "table_words_of_two": table_words(table, [host.public, member.public], PAIRING_WORDS),
    }


def escrow_vector() -> dict[str, Any]:
    """Seat 1 of three puts its seed in escrow for game 1 of a table: its Escrow message
    and the shares, commitments, nonces and X25519 keys behind it."""
    table, game, players, sender = 0x7AB1E, 1, 3, 1
    ids = [Identity.from_private(_seed(f"escrow seat {s} signing key")) for s in range(3)]
    seed = _seed("escrow seed of seat 1")
    box = [escrow.box_keys(i.private) for i in ids]
    context = DealContext(table, game, sender, players, 36, lambda n: bytes(n), None,
                          tuple(escrow.box_public(i.public) for i in ids), box[sender][1])
    message = MentalDealer(context, seed)._escrow()
    shares = escrow.split(seed, players, [0, 2])
    return {
        "table": table, "game": game, "players": players, "seat": sender,
        "signing_private": [i.private.hex() for i in ids],
        "signing_public": [i.public.hex() for i in ids],
        "box_public": [b[0].hex() for b in box],
        "box_secret": [b[1].hex() for b in box],
        "seed": seed.hex(),
        "shares": {str(s): v.hex() for s, v in shares.items()},
        "commits": {str(s): escrow.commitment(v).hex() for s, v in shares.items()},
        "nonces": {str(s): escrow.nonce(table, game, sender, s).hex() for s in shares},
        "check": escrow.seed_check(table, game, sender, seed).hex(),
        "message_hex": dealer_encode(message).hex(),
    }


def online_codes() -> list[dict[str, Any]]:
    """Section 14: the example offer and answer, their fields, bytes, code and the SDP
    the code expands to."""
    out = []
    for kind in online_code.KINDS:
        description = online_code.parse_sdp(online_code.example_sdp(kind), kind)
        expires = 1_800_001_800
        data = online_code.encode(description, expires)
        out.append({
            "kind": kind,
            "ufrag": description.ufrag,
            "pwd": description.pwd,
            "fingerprint": description.fingerprint.hex(),
            "setup": description.setup,
            "candidates": [[c.address, c.port, c.type] for c in description.candidates],
            "expires": expires,
            "data_hex": data.hex(),
            "code": online_code.base58_encode(data),
            "sdp": online_code.to_sdp(description),
        })
    return out


def build() -> dict[str, Any]:
    dealt = deal()
    pair = pairing()
    return {
        "about": "Test vectors of docs/lan-protocol.md (version 6); made by "
                 "scripts/lan_vectors.py, checked by tests/net/test_net_vectors.py.",
        "version": 6,
        "cards": cards(),
        "seed_derivations": seed_derivations(),
        "deal": dealt,
        "pairing": pair,
        "signatures": signatures(dealt),
        "escrow": escrow_vector(),
        "datagrams": datagrams(pair, dealt),
        "online_codes": online_codes(),
        "relay_room": {"room": "falcon-river-teapot",
                       "offer_topic": relay.topic("falcon-river-teapot", "offer"),
                       "answer_topic": relay.topic("falcon-river-teapot", "answer")},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(REPO)}")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    if args.write:
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT.relative_to(REPO)} ({len(text)} bytes)")
    else:
        print(text)


if __name__ == "__main__":
    main()
