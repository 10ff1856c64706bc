"""What libsodium must give the deal, checked against docs/lan-vectors.json.

Plain Python over durak_net.mental and durak_net.escrow (and the pure durak_core), so the
same source runs wherever durak_net finds its libsodium: here over pysodium (or a stand-in
for libsodium.js, tests/net/test_net_sodium_backend.py) and in the site's Pyodide kernel
over libsodium.js (tests/e2e/sodium_support.py sends this file there).

``check(vectors)`` gives one boolean per claim, named, so that a failure says which.
"""

from __future__ import annotations

from typing import Any


def check(vectors: dict[str, Any]) -> dict[str, bool]:
    from durak_core import Card, Game, Rules
    from durak_net import escrow, mental

    out: dict[str, bool] = {}
    # hash-to-group: every card's point.
    out["card points"] = (
        [mental.card_point(i).hex() for i in range(52)] == [c["point"] for c in vectors["cards"]]
    )
    # scalar reduction: a seed's keys.
    derived = vectors["seed_derivations"]
    seed = bytes.fromhex(derived["seed"])
    out["shuffle key"] = mental.shuffle_key(seed).hex() == derived["shuffle_key"]
    out["card keys"] = [mental.card_key(seed, j).hex() for j in range(36)] == derived["card_keys"]

    # A whole two-seat deal: scalar mult, scalar product and inversion, then opening.
    deal = vectors["deal"]
    seeds = [bytes.fromhex(s) for s in deal["seeds"]]
    cards = sorted((c for c in (Card.parse(r["card"]) for r in vectors["cards"]) if c.rank >= 6),
                   key=lambda c: c.index)
    start = mental.initial_deck(36, [c.index for c in cards])
    d0 = mental.shuffle_pass(seeds[0], start)
    d1 = mental.shuffle_lock_pass(seeds[1], d0)
    d2 = mental.lock_pass(seeds[0], d1)
    out["deal steps"] = [[p.hex() for p in d] for d in (d0, d1, d2)] == deal["steps"]
    sodium = mental.sodium()
    out["steps are points"] = all(sodium.crypto_core_ristretto255_is_valid_point(p)
                                  for d in (d0, d1, d2) for p in d)
    by_index = {c.index: c for c in cards}
    order = [by_index[mental.open_card(p, [mental.card_key(s, j) for s in seeds])]
             for j, p in enumerate(d2)]
    out["deck opened"] = [str(c) for c in order] == deal["deck"]
    game = Game.new(Rules(), deck=order)
    out["hands"] = [[str(c) for c in game.hand(s)] for s in (0, 1)] == deal["hands"]
    out["public hash"] = game.public_hash() == deal["public_hash"]
    # One seat's layer off, then the other's key proves the card (a reveal's check).
    partial = mental.unlock(d2[0], [mental.card_key(seeds[0], 0)])
    out["a reveal checks"] = mental.opens_to(partial, mental.card_key(seeds[1], 0),
                                             order[0].index)
    out["a wrong reveal fails"] = not mental.opens_to(partial, mental.card_key(seeds[0], 0),
                                                      order[0].index)
    # Bad input is refused as pysodium refuses it.
    try:
        mental.mul(mental.card_key(seed, 0), b"\xff" * 32)
        out["a non-point is refused"] = False
    except mental.MentalError:
        out["a non-point is refused"] = True
    out["a non-point is not valid"] = not sodium.crypto_core_ristretto255_is_valid_point(
        b"\xff" * 32)

    # The escrow: Ed25519 keys to X25519, and crypto_box both ways.
    v = vectors["escrow"]
    keys = [escrow.box_keys(bytes.fromhex(k)) for k in v["signing_private"]]
    out["escrow box keys"] = (
        [k[0].hex() for k in keys] == v["box_public"]
        and [k[1].hex() for k in keys] == v["box_secret"]
        and [escrow.box_public(bytes.fromhex(k)).hex() for k in v["signing_public"]]
        == v["box_public"]
    )
    sender, sealed_ok, opened_ok = v["seat"], True, True
    for seat, share in v["shares"].items():
        nonce = bytes.fromhex(v["nonces"][seat])
        sealed = escrow.seal(bytes.fromhex(share), nonce, keys[int(seat)][0], keys[sender][1])
        sealed_ok &= sealed.hex() in v["message_hex"]
        opened_ok &= escrow.unseal(sealed, nonce, keys[sender][0], keys[int(seat)][1]) \
            == bytes.fromhex(share)
        opened_ok &= escrow.unseal(sealed, nonce, keys[sender][0], keys[sender][1]) is None
    out["escrow sealed"] = sealed_ok
    out["escrow opened"] = opened_ok
    if "pairing" in vectors:
        out.update(check_keys(vectors))
    return out


def check_keys(vectors: dict[str, Any]) -> dict[str, bool]:
    """The pairing's X25519 and HKDF and the seats' Ed25519 signatures, through
    durak_net.crypto and durak_net.identity (durak_net.primitives: ``cryptography`` on a
    computer, libsodium where it is missing, as in a page)."""
    from durak_net import crypto, identity

    out: dict[str, bool] = {}
    v = vectors["pairing"]
    keys = [crypto.KeyPair.generate(lambda n, k=k: bytes.fromhex(v[k])[:n])
            for k in ("inviter_private", "invitee_private")]
    out["x25519 public keys"] = [k.public.hex() for k in keys] == [v["inviter_public"],
                                                                  v["invitee_public"]]
    shared = keys[0].exchange(keys[1].public)
    out["x25519 shared"] = shared.hex() == v["shared"] == keys[1].exchange(keys[0].public).hex()
    try:
        keys[0].exchange(bytes(32))  # a low-order point: the all-zero secret
        out["a low-order key is refused"] = False
    except ValueError:
        out["a low-order key is refused"] = True
    out["session key"] = crypto.session_key(shared, b"", v["invite"]).hex() == v["session_key"]
    out["pairing words"] = crypto.short_auth_string(
        v["invite"], keys[0].public, keys[1].public) == v["words"]
    s = vectors["signatures"]
    seat = identity.Identity.from_private(bytes.fromhex(s["seat0_private"]))
    out["ed25519 public key"] = seat.public.hex() == s["seat0_public"]
    signed = bytes.fromhex(s["deal_signed_bytes"])
    signature = seat.sign(signed[:10], signed[10:])
    out["ed25519 signature"] = signature.hex() == s["deal_signature"]
    out["ed25519 verifies"] = identity.verify(seat.public, signature, signed)
    out["a bad signature fails"] = not identity.verify(seat.public, signature, signed + b"x")
    return out
