"""docs/lan-protocol.md is the specification: its test vectors (docs/lan-vectors.json)
are recomputed here from the page's formulas with the primitives alone (hashlib,
cryptography, libsodium, a plain msgpack decoder), and durak_net must give the very
same bytes.  A change to the protocol that the page does not describe fails here.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pysodium
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from durak_core import Card, Game, Rules, parse_action

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "lan-protocol.md").read_text(encoding="utf-8")
VECTORS: dict[str, Any] = json.loads((REPO / "docs" / "lan-vectors.json").read_text("utf-8"))


def u16(n: int) -> bytes:
    return n.to_bytes(2, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def h(data: bytes, bits: int, key: bytes = b"") -> bytes:
    return hashlib.blake2b(data, key=key, digest_size=bits // 8).digest()


def reduce(wide: bytes) -> bytes:
    return pysodium.crypto_core_ristretto255_scalar_reduce(wide)


def mul(s: bytes, p: bytes) -> bytes:
    return pysodium.crypto_scalarmult_ristretto255(s, p)


def doc_words() -> list[str]:
    block = DOC.split("The 256 words, indexed 0 to 255 in reading order:")[1]
    block = block.split("```")[1]
    return block.split()


# ---------------------------------------------------------------- the code agrees


def test_durak_net_gives_every_vector_byte_for_byte() -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    from lan_vectors import build

    assert build() == VECTORS


def test_the_word_list_in_the_code_is_the_documents() -> None:
    from durak_net.words import WORDS

    assert doc_words() == list(WORDS) and len(set(WORDS)) == 256


# ---------------------------------------------------------------- from the page


def card_point(index: int) -> bytes:
    return pysodium.crypto_core_ristretto255_from_hash(
        h(b"durak-lan v2 card" + bytes([index]), 512)
    )


def shuffle_key(seed: bytes) -> bytes:
    return reduce(h(b"shuffle" + u16(0), 512, key=seed))


def card_key(seed: bytes, j: int) -> bytes:
    return reduce(h(b"card" + u16(j), 512, key=seed))


def permutation(seed: bytes, n: int) -> list[int]:
    return sorted(range(n), key=lambda i: (h(b"perm" + u16(i), 128, key=seed), i))


def test_card_points() -> None:
    for row in VECTORS["cards"]:
        card = Card.parse(row["card"])
        assert card.index == row["index"] == card.suit * 13 + card.rank - 2
        assert card_point(row["index"]).hex() == row["point"]


def test_a_seeds_keys_and_permutation() -> None:
    v = VECTORS["seed_derivations"]
    seed = bytes.fromhex(v["seed"])
    assert shuffle_key(seed).hex() == v["shuffle_key"]
    assert [card_key(seed, j).hex() for j in range(36)] == v["card_keys"]
    assert permutation(seed, 36) == v["permutation_36"]
    assert permutation(seed, 24) == v["permutation_24"]


def test_a_whole_two_seat_deal() -> None:
    v = VECTORS["deal"]
    seeds = [bytes.fromhex(s) for s in v["seeds"]]
    n = v["deck_size"]
    cards = sorted((c for c in (Card.parse(r["card"]) for r in VECTORS["cards"])
                    if c.rank >= 6), key=lambda c: c.index)
    deck = [card_point(c.index) for c in cards]  # D_0
    # Step 0: seat 0 shuffles; step 1: seat 1 shuffles and locks; step 2: seat 0 locks.
    x0, perm0 = shuffle_key(seeds[0]), permutation(seeds[0], n)
    d0 = [mul(x0, deck[perm0[j]]) for j in range(n)]
    perm1 = permutation(seeds[1], n)
    d1 = [mul(card_key(seeds[1], j), d0[perm1[j]]) for j in range(n)]
    x0_inv = pysodium.crypto_core_ristretto255_scalar_invert(x0)
    d2 = [mul(pysodium.crypto_core_ristretto255_scalar_mul(card_key(seeds[0], j), x0_inv),
              d1[j]) for j in range(n)]
    assert [[p.hex() for p in d] for d in (d0, d1, d2)] == v["steps"]
    # Open the locked deck with both seats' keys: the deck order.
    points = {card_point(c.index): c for c in cards}
    order = []
    for j, p in enumerate(d2):
        both = pysodium.crypto_core_ristretto255_scalar_mul(card_key(seeds[0], j),
                                                            card_key(seeds[1], j))
        inv = pysodium.crypto_core_ristretto255_scalar_invert(both)
        order.append(points[mul(inv, p)])
    assert [str(c) for c in order] == v["deck"]
    game = Game.new(Rules(), deck=order)
    assert str(game.trump_card) == v["trump"] == str(order[12])  # H = 12 < 36
    assert game.attacker == v["first_attacker"]
    assert [[str(c) for c in game.hand(s)] for s in (0, 1)] == v["hands"]
    assert game.public_hash() == v["public_hash"]
    trumps = [(s, c) for s in (0, 1) for c in game.hand(s) if c.suit == game.trump_suit]
    if trumps:
        lowest = min(trumps, key=lambda sc: sc[1].rank)
        assert v["shown_trump"] == [lowest[0], str(lowest[1])]
    # The dealer messages, as the page lists them.
    steps = {0: d0, 1: d1, 2: d2}
    seen_keys: dict[tuple[int, int], bytes] = {}
    for m in v["messages"]:
        message = msgspec.msgpack.decode(bytes.fromhex(m["hex"]))
        assert message[0] == m["tag"]
        if m["tag"] == "ready":
            assert message == ["ready"]
        elif m["tag"] == "pass":
            _, step, part, parts, pts = message
            assert parts == 2 and pts == steps[step][20 * part : 20 * part + 20]
            assert step in ((0, 2) if m["from"] == 0 else (1,))
        elif m["tag"] == "keys":
            _, positions, keys = message
            for j, k in zip(positions, keys, strict=True):
                assert k == card_key(seeds[m["from"]], j)
                seen_keys[(m["from"], j)] = k
        elif m["tag"] == "trump":
            _, round_no, position, key = message
            if position >= 0:
                assert key == card_key(seeds[m["from"]], position)
                assert str(order[position]) == v["shown_trump"][1]
                assert order[position].rank == 6 + round_no
    # Each seat published its keys of the other's hand and of the trump position (12).
    for seat in (0, 1):
        assert {j for s, j in seen_keys if s == seat} == {*range(1 - seat, 12, 2), 12}


def test_a_pairing() -> None:
    v = VECTORS["pairing"]
    a_priv = X25519PrivateKey.from_private_bytes(bytes.fromhex(v["inviter_private"]))
    b_priv = X25519PrivateKey.from_private_bytes(bytes.fromhex(v["invitee_private"]))
    a, b = a_priv.public_key().public_bytes_raw(), b_priv.public_key().public_bytes_raw()
    assert (a.hex(), b.hex()) == (v["inviter_public"], v["invitee_public"])
    assert h(b"durak-lan v2 key commitment" + a, 256).hex() == v["commitment"]
    shared = a_priv.exchange(b_priv.public_key())
    assert shared.hex() == v["shared"]
    invite = v["invite"]

    def session_key(ikm: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=u64(invite),
                    info=b"durak-lan v2 session key").derive(ikm)

    key = session_key(shared)
    assert key.hex() == v["session_key"]
    text = u64(invite) + a + b
    assert text.hex() == v["transcript"]
    assert h(b"durak-lan v2 pairing inviter" + text, 128, key=key).hex() == v["proof_inviter"]
    assert h(b"durak-lan v2 pairing invitee" + text, 128, key=key).hex() == v["proof_invitee"]
    digest = h(b"durak-lan v2 sas" + u64(invite) + a + b, 256)
    words = doc_words()
    assert " ".join(words[i] for i in digest[:4]) == v["words"]
    assert h(b"durak-lan v2 rendezvous", 64, key=key).hex() == v["rendezvous_tag"]
    # With a PIN: python-spake2, ed25519 group, the identities the page names.
    from spake2 import SPAKE2_A, SPAKE2_B

    p = v["pin"]
    ids = {"idA": b"durak-lan v2 inviter", "idB": b"durak-lan v2 invitee"}
    side_a = SPAKE2_A(p["pin"].encode(), entropy_f=lambda n: bytes.fromhex(p["inviter_entropy"]),
                      **ids)
    side_b = SPAKE2_B(p["pin"].encode(), entropy_f=lambda n: bytes.fromhex(p["invitee_entropy"]),
                      **ids)
    msg_a, msg_b = side_a.start(), side_b.start()
    assert (msg_a.hex(), msg_b.hex()) == (p["inviter_spake"], p["invitee_spake"])
    pin_key = side_a.finish(msg_b)
    assert pin_key == side_b.finish(msg_a) and pin_key.hex() == p["pin_key"]
    with_pin = session_key(shared + pin_key)
    assert with_pin.hex() == p["session_key"]
    pin_text = text + msg_a + msg_b
    assert h(b"durak-lan v2 pairing inviter" + pin_text, 128, key=with_pin).hex() == (
        p["proof_inviter"])
    assert h(b"durak-lan v2 pairing invitee" + pin_text, 128, key=with_pin).hex() == (
        p["proof_invitee"])


def _as_sent(want: Any, got: Any) -> Any:
    """A vector's listed input (hex for bytes, dicts for structs) in the shape sent."""
    if isinstance(want, bytes):
        return bytes.fromhex(got)
    if isinstance(got, dict) and not isinstance(want, dict):
        got = list(got.values())  # a struct, sent as an array
    if isinstance(want, list) and isinstance(got, list):
        return [_as_sent(w, g) for w, g in zip(want, got, strict=False)]
    return got


def test_datagrams() -> None:
    v = VECTORS["datagrams"]
    pair = VECTORS["pairing"]
    rules = Rules().to_dict()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    nodes = {}
    for who in ("alice", "bob"):
        private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v[f"{who}_node_private"]))
        key = private.public_key().public_bytes_raw()
        assert key.hex() == v[f"{who}_node_key"]
        # A node id: BLAKE2b-64("durak-lan v4 node" || node key), big-endian.
        assert int.from_bytes(h(b"durak-lan v4 node" + key, 64), "big") == v[f"{who}_node"]
        nodes[who] = (private, key, v[f"{who}_node"])
    (_, ak, alice), (_, bk, bob) = nodes["alice"], nodes["bob"]
    invite = pair["invite"]
    a, b = bytes.fromhex(pair["inviter_public"]), bytes.fromhex(pair["invitee_public"])
    expected = {
        "announce": ("alice", ["announce", "durak-lan", 6, alice, ak, 1, "Alice", 40123, rules,
                               False, [], None]),
        "announce_table": ("alice", ["announce", "durak-lan", 6, alice, ak, 2, "Alice", 40123,
                                     Rules(players=3).to_dict(), True, [],
                                     [0x7AB1E, ["Alice", "", ""], 30, 60, False, True]]),
        "join": ("bob", ["join", bob, bk, alice, 0x7AB1E, "Bob", -1]),
        "invite": ("alice", ["invite", alice, ak, bob, invite, "Alice", rules,
                             bytes.fromhex(pair["commitment"]), b"", 0, 1]),
        "answer": ("bob", ["answer", bob, bk, alice, invite, True, "", b, b""]),
        "confirm": ("alice", ["confirm", alice, ak, bob, invite, a,
                              bytes.fromhex(pair["proof_inviter"])]),
        "paired": ("bob", ["paired", bob, bk, alice, invite, True,
                           bytes.fromhex(pair["proof_invitee"]), ""]),
        "cancel": ("alice", ["cancel", alice, ak, bob, invite, "cancelled"]),
    }
    for name, (who, fields) in expected.items():
        data = bytes.fromhex(v[name])
        assert data[:4] == b"DK\x06D" and len(data) <= 1200
        signed, signature = data[:-64], data[-64:]
        assert msgspec.msgpack.decode(signed[4:]) == fields, name
        # Pure Ed25519 is deterministic: the node key's signature over the label and
        # every byte before it.
        assert nodes[who][0].sign(b"durak-lan v4 lobby" + signed) == signature, name
        # The vector lists its inputs by field name too (bytes as hex): the same values.
        listed = v["fields"][name]
        assert _as_sent(fields[1:], list(listed.values())) == fields[1:], name
    s = v["session"]
    data = bytes.fromhex(s["datagram"])
    header, tag, body = data[:12], data[12:28], data[28:]
    assert header == b"DK\x06S" + u64(invite) and header.hex() == s["header"]
    key = bytes.fromhex(pair["session_key"])
    assert h(header + bytes([s["seat"]]) + body, 128, key=key) == tag
    # A real first entry of the vector deal: seat 0 attacks with its card at position 0.
    deal = VECTORS["deal"]
    seed0 = bytes.fromhex(deal["seeds"][0])
    game = Game.new(Rules(), deck=[Card.parse(t) for t in deal["deck"]])
    action = f"0 attack {deal['deck'][0]}"
    assert s["action"] == action
    game.apply(parse_action(action))
    assert game.public_hash() == s["public_hash_after"]
    unsigned = ["entry", 0, 1, 0, action, bytes.fromhex(game.public_hash()), 0,
                [[0, card_key(seed0, 0)]], 0, b"", b"", "", b"", b"", b""]
    # Version 5: the host signs it.  digest = BLAKE2b-256(msgpack(the entry with seq 0,
    # prev and host_sig empty)); signed = "durak-lan v5 entry" || u64be(table) ||
    # u32be(game) || u32be(index) || [len(prev)] || prev || digest.
    digest = h(msgspec.msgpack.encode(unsigned), 256)
    assert digest.hex() == s["entry_digest"]
    table = s["entry_table"]
    signed = (b"durak-lan v5 entry" + u64(table) + (1).to_bytes(4, "big")
              + (0).to_bytes(4, "big") + bytes([0]) + digest)
    assert signed.hex() == s["entry_signed_bytes"]
    assert h(b"durak-lan v5 link" + digest, 256).hex() == s["entry_link"]
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    host = Ed25519PrivateKey.from_private_bytes(
        bytes.fromhex(VECTORS["signatures"]["seat0_private"]))
    packet = msgspec.msgpack.decode(body)
    assert packet == [1, 1, 5, 6, [8], [["entry", 7, *unsigned[2:-1], host.sign(signed)]]]


def test_signatures_and_table_words() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    v = VECTORS["signatures"]
    table = v["table"]
    keys = []
    for seat in (0, 1):
        private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v[f"seat{seat}_private"]))
        public = private.public_key().public_bytes_raw()
        assert public.hex() == v[f"seat{seat}_public"]
        keys.append((private, public))
    # A deal message: "durak-lan v3 deal" || u64be(table) || u32be(game) || [seat] || data.
    data = bytes.fromhex(VECTORS["deal"]["messages"][0]["hex"])
    signed = b"durak-lan v3 deal" + u64(table) + (1).to_bytes(4, "big") + bytes([0]) + data
    assert signed.hex() == v["deal_signed_bytes"]
    assert keys[0][0].sign(signed).hex() == v["deal_signature"]
    # A proposal commits to its move: BLAKE2b-256("durak-lan v4 proposal" || salt ||
    # action || 0x00 || [count] || reveals), and signs "durak-lan v4 propose" ||
    # u64be(table) || u32be(game) || [seat] || u64be(pid) || commit || u32be(seen) ||
    # seen_hash; the host places it with "durak-lan v4 order" || u64be(table) ||
    # u32be(game) || [seat] || u64be(pid) || commit || u32be(index).
    key = card_key(bytes.fromhex(VECTORS["deal"]["seeds"][1]), 1)
    inputs = v["proposal_inputs"]
    salt = bytes.fromhex(inputs["salt"])
    assert inputs["reveals"] == [[2, key.hex()]] and inputs["action"] == "1 take"
    commit = h(b"durak-lan v4 proposal" + salt + b"1 take\x00" + bytes([1]) + bytes([2]) + key,
               256)
    assert commit.hex() == v["proposal_commit"]
    signed = (b"durak-lan v4 propose" + u64(table) + (1).to_bytes(4, "big") + bytes([1])
              + u64(1) + commit + (3).to_bytes(4, "big") + bytes(range(32)))
    assert signed.hex() == v["proposal_signed_bytes"]
    assert keys[1][0].sign(signed).hex() == v["proposal_signature"]
    signed = (b"durak-lan v4 order" + u64(table) + (1).to_bytes(4, "big") + bytes([1])
              + u64(1) + commit + (3).to_bytes(4, "big"))
    assert signed.hex() == v["order_signed_bytes"]
    assert v["order_inputs"]["commit"] == commit.hex()
    assert keys[0][0].sign(signed).hex() == v["order_signature"]
    # The host's refusal: "durak-lan v4 refused" || u64be(table) || u32be(game) || [seat]
    # || u64be(pid) || u32be(at).
    assert v["refused_inputs"] == {"table": table, "game": 1, "seat": 1, "pid": 1, "at": 4}
    signed = (b"durak-lan v4 refused" + u64(table) + (1).to_bytes(4, "big") + bytes([1])
              + u64(1) + (4).to_bytes(4, "big"))
    assert signed.hex() == v["refused_signed_bytes"]
    assert keys[0][0].sign(signed).hex() == v["refused_signature"]
    # A fault: "durak-lan v5 fault" || u64be(table) || u32be(game) || u32be(index) ||
    # [seat] || code || 0x00 || detail || 0x00 || [by] || BLAKE2b-256((u32be(len(item))
    # || item)*) over its evidence.
    evidence = [bytes.fromhex(e) for e in v["fault_inputs"]["evidence"]]
    assert evidence
    signed = (b"durak-lan v5 fault" + u64(table) + (1).to_bytes(4, "big")
              + (3).to_bytes(4, "big") + bytes([0]) + b"forged\x00" + b"sent entry 3\x00"
              + bytes([1]) + h(b"".join(len(e).to_bytes(4, "big") + e for e in evidence), 256))
    assert signed.hex() == v["fault_signed_bytes"]
    assert keys[1][0].sign(signed).hex() == v["fault_signature"]
    # A leaving seat's Bye (version 6): "durak-lan v6 bye" || u64be(table) || [seat] ||
    # u32be(game) || u32be(index) || [len(prev)] || prev || reason; the host's Status
    # "left" carries it as evidence: msgpack(["bye", 0, reason, game, index, prev, sig]).
    bye = v["bye_inputs"]
    prev = bytes.fromhex(bye["prev"])
    assert (bye["table"], bye["seat"], bye["game"], bye["index"]) == (table, 1, 1, 3)
    signed = (b"durak-lan v6 bye" + u64(table) + bytes([1]) + (1).to_bytes(4, "big")
              + (3).to_bytes(4, "big") + bytes([len(prev)]) + prev + bye["reason"].encode())
    assert signed.hex() == v["bye_signed_bytes"]
    sig = keys[1][0].sign(signed)
    assert sig.hex() == v["bye_signature"]
    evidence = msgspec.msgpack.encode(["bye", 0, bye["reason"], 1, 3, prev, sig])
    assert evidence.hex() == v["bye_evidence"]
    assert msgspec.msgpack.decode(bytes.fromhex(v["status_left"])) == [
        "status", 9, 1, "left", bye["reason"], evidence]
    digest = h(b"durak-lan v3 table" + u64(table) + bytes([0]) + keys[0][1] + bytes([1])
               + keys[1][1], 256)
    assert " ".join(doc_words()[i] for i in digest[:4]) == v["table_words_2"]
    # A table of two binds them to its pairing words (section 5).
    digest = h(b"durak-lan v4 table of two" + u64(table) + bytes([0]) + keys[0][1]
               + bytes([1]) + keys[1][1] + v["pairing_words"].encode(), 256)
    assert " ".join(doc_words()[i] for i in digest[:4]) == v["table_words_of_two"]
    assert v["table_words_of_two"] != v["table_words_2"]


def test_escrow() -> None:
    """Section 8, the escrow: shares, commitments, check, nonces and sealed shares from
    the page's formulas with hashlib and libsodium's own calls."""
    v = VECTORS["escrow"]
    table, game, n, sender = v["table"], v["game"], v["players"], v["seat"]
    seed = bytes.fromhex(v["seed"])
    for s in range(n):
        public, secret = pysodium.crypto_sign_seed_keypair(bytes.fromhex(v["signing_private"][s]))
        assert public.hex() == v["signing_public"][s]
        assert pysodium.crypto_sign_pk_to_box_pk(public).hex() == v["box_public"][s]
        assert pysodium.crypto_sign_sk_to_box_sk(secret).hex() == v["box_secret"][s]
    first = hashlib.blake2b(b"escrow share" + bytes([0, n]), key=seed, digest_size=32).digest()
    last = bytes(a ^ b for a, b in zip(seed, first, strict=True))
    assert v["shares"] == {"0": first.hex(), "2": last.hex()}
    for s, share in ((0, first), (2, last)):
        assert h(b"durak-lan v3 escrow share" + share, 256).hex() == v["commits"][str(s)]
        nonce = h(b"durak-lan v3 escrow nonce" + u64(table) + game.to_bytes(4, "big")
                  + bytes([sender, s]), 192)
        assert nonce.hex() == v["nonces"][str(s)]
    check = h(b"durak-lan v3 escrow seed" + u64(table) + game.to_bytes(4, "big")
              + bytes([sender]) + seed, 256)
    assert check.hex() == v["check"]
    tag, shares, commits, got_check = msgspec.msgpack.decode(bytes.fromhex(v["message_hex"]))
    assert tag == "escrow" and got_check == check and shares[sender] == commits[sender] == b""
    for s, share in ((0, first), (2, last)):
        nonce = bytes.fromhex(v["nonces"][str(s)])
        sealed = pysodium.crypto_box(share, nonce, bytes.fromhex(v["box_public"][s]),
                                     bytes.fromhex(v["box_secret"][sender]))
        assert shares[s] == sealed and commits[s].hex() == v["commits"][str(s)]
        assert pysodium.crypto_box_open(sealed, nonce, bytes.fromhex(v["box_public"][sender]),
                                        bytes.fromhex(v["box_secret"][s])) == share


@pytest.mark.parametrize(
    "phrase",
    ["durak-lan v2 card", "durak-lan v2 key commitment", "durak-lan v2 session key",
     "durak-lan v2 pairing ", "durak-lan v2 sas", "durak-lan v2 rendezvous",
     "durak-lan v2 inviter", "durak-lan v2 invitee", "durak-lan v3 deal",
     "durak-lan v4 propose", "durak-lan v4 proposal", "durak-lan v4 order",
     "durak-lan v4 salt", "durak-lan v4 refused", "durak-lan v3 table", "durak-lan v4 table of two",
     "durak-lan v5 fault", "durak-lan v5 entry", "durak-lan v5 link", "durak-lan v6 bye",
     "durak-lan v4 address",
     "durak-lan v4 beacon",
     "durak-lan v3 escrow share",
     "durak-lan v3 escrow seed", "durak-lan v3 escrow nonce", "durak-lan v4 node",
     "durak-lan v4 lobby"],
)
def test_every_label_the_code_uses_is_on_the_page(phrase: str) -> None:
    assert phrase in DOC
    sources = "".join(p.read_text("utf-8") for p in (REPO / "durak_net").glob("*.py"))
    assert phrase in sources


# ------------------------------------------------------- section 14: the codes

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
ICE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def ice(text: str) -> bytes:
    bits = "".join(f"{ICE.index(c):06b}" for c in text)
    bits += "0" * (-len(bits) % 8)
    return bytes([len(text)]) + int(bits or "0", 2).to_bytes(len(bits) // 8, "big")


def base58(data: bytes) -> str:
    n, out = int.from_bytes(data, "big"), ""
    while n:
        n, d = divmod(n, 58)
        out = B58[d] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


@pytest.mark.parametrize("index", [0, 1])
def test_an_invitation_and_a_reply_code_from_the_page(index: int) -> None:
    import ipaddress
    import uuid

    v = VECTORS["online_codes"][index]
    flags = (1 if v["kind"] == "answer" else 0) | ["actpass", "active", "passive"].index(
        v["setup"]) << 1
    body = ice(v["ufrag"]) + ice(v["pwd"]) + bytes.fromhex(v["fingerprint"])
    body += bytes([len(v["candidates"])])
    lines = []
    for i, (address, port, kind) in enumerate(v["candidates"]):
        typ = ["host", "srflx", "prflx", "relay"].index(kind)
        if address.endswith(".local"):
            body += bytes([2 << 4 | typ]) + uuid.UUID(address[:-6]).bytes
        else:
            ip = ipaddress.ip_address(address)
            body += bytes([(0 if ip.version == 4 else 1) << 4 | typ]) + ip.packed
        body += u16(port)
        pref = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}[kind]
        related = " raddr 0.0.0.0 rport 0" if kind != "host" else ""
        lines.append(f"a=candidate:{i + 1} 1 udp {pref << 24 | (65535 - i) << 8 | 255} "
                     f"{address} {port} typ {kind}{related} generation 0")
    data = bytes([6, flags]) + v["expires"].to_bytes(4, "big") + body
    data += h(data, 24)
    assert data.hex() == v["data_hex"]
    assert base58(data) == v["code"]
    fp = bytes.fromhex(v["fingerprint"])
    sdp = [
        "v=0", f"o=- {int.from_bytes(fp[:8], 'big') >> 2} 2 IN IP4 127.0.0.1", "s=-",
        "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
        f"m=application {v['candidates'][0][1]} UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0", f"a=ice-ufrag:{v['ufrag']}", f"a=ice-pwd:{v['pwd']}",
        "a=fingerprint:sha-256 " + ":".join(f"{b:02X}" for b in fp),
        f"a=setup:{v['setup']}", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:65536",
        *lines,
    ]
    assert "\r\n".join(sdp) + "\r\n" == v["sdp"]
    from durak_net.online_code import unpack_description

    assert unpack_description(v["code"], now=v["expires"]) == (v["kind"], v["sdp"])


def test_a_rooms_topics_from_the_page() -> None:
    v = VECTORS["relay_room"]
    digest = h(b"durak room " + v["room"].encode(), 128).hex()
    assert v["offer_topic"] == f"durak/6/{digest}/offer"
    assert v["answer_topic"] == f"durak/6/{digest}/answer"
