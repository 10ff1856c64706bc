"""The host's signature on every log entry, and what two signed entries prove.

Version 5 of the protocol (section 7 of docs/lan-protocol.md): the host signs each
Entry it sends with its seat key over the table, the game, the index, the *link hash*
of the log before the entry (``prev``) and the entry's digest.  The link hash after an
entry chains them, so one signature binds the host to the whole log up to it::

    digest(e)  = BLAKE2b-256(msgpack(e with seq 0, prev and host_sig empty))
    link(e)    = BLAKE2b-256("durak-lan v5 link" || prev || digest(e))
    signed     = "durak-lan v5 entry" || u64be(table) || u32be(game) || u32be(index)
                 || [len(prev)] || prev || digest(e)

``prev`` of entry 0 is empty; of entry ``i`` it is ``link`` of entry ``i - 1``.  A
seat's proposal names the log it was made on by its link hash (``seen_hash``), so a
proposal the host passes on is placed on a log the host signed.

Why this proves a fork by itself: an honest host signs one log.  Two heads (entry
``index`` as signed: ``prev``, digest, signature) for the same game and index that
differ, or for consecutive indexes where the later one's ``prev`` is not the earlier
one's link, are signed words of the host that no single log holds; and an entry the host
signed that places a seat's proposal elsewhere than on the log it signed before it
(``seen`` not its index, or ``seen_hash`` not its ``prev``), or a first entry with a
``prev``, is one an honest host never writes.  Either is evidence every seat checks
with the host's key alone (:func:`proves_fork`), whoever carries it.

>>> from durak_net.wire import Entry
>>> e = Entry(0, 1, 0, "0 attack 6♠", bytes(16), 0, [], 0, b"", b"")
>>> len(digest(e)), len(link(b"", digest(e))), digest(e) == digest(e)
(32, 32, True)
"""

from __future__ import annotations

import hashlib

import msgspec

from .identity import Identity, verify
from .wire import Entry, Head

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Head | Entry)


def digest(frame: Entry) -> bytes:
    """The entry's digest: its msgpack with ``seq`` 0 and no ``prev`` or signature."""
    bare = msgspec.structs.replace(frame, seq=0, prev=b"", host_sig=b"")
    return hashlib.blake2b(_encoder.encode(bare), digest_size=32).digest()


def link(prev: bytes, entry_digest: bytes) -> bytes:
    """The link hash of a log whose last entry has ``entry_digest`` after ``prev``."""
    return hashlib.blake2b(b"durak-lan v5 link" + prev + entry_digest,
                           digest_size=32).digest()


def entry_signed(table: int, game: int, index: int, prev: bytes,
                 entry_digest: bytes) -> list[bytes]:
    """What the host signs for entry ``index`` of game ``game``."""
    return [b"durak-lan v5 entry", table.to_bytes(8, "big"), game.to_bytes(4, "big"),
            index.to_bytes(4, "big"), bytes([len(prev)]), prev, entry_digest]


def sign(identity: Identity, table: int, frame: Entry, prev: bytes) -> Entry:
    """``frame`` with ``prev`` set and the host's signature."""
    sig = identity.sign(*entry_signed(table, frame.game, frame.index, prev, digest(frame)))
    return msgspec.structs.replace(frame, prev=prev, host_sig=sig)


def head_of(frame: Entry) -> Head:
    """The compact evidence of a signed entry: its place, ``prev``, digest, signature."""
    return Head(frame.game, frame.index, frame.prev, digest(frame), frame.host_sig)


def head_signed(head: Head, *, table: int, host_key: bytes) -> bool:
    """Did the host sign ``head``?"""
    return verify(host_key, head.sig, *entry_signed(table, head.game, head.index, head.prev,
                                                    head.digest))


def signed(frame: Entry, *, table: int, host_key: bytes) -> bool:
    """Did the host sign this Entry (over its own ``prev``)?"""
    return head_signed(head_of(frame), table=table, host_key=host_key)


def misplaced(frame: Entry, host: int = 0) -> bool:
    """Does a signed Entry place a seat's proposal elsewhere than on the log the host
    signed before it?  (The host's own entries and its clock's or bots' name no
    proposal.)"""
    if not frame.pid or frame.action.split(" ", 1)[0] == str(host):
        return False
    return frame.seen != frame.index or frame.seen_hash != frame.prev


def contradict(a: Head, b: Head) -> bool:
    """Do two signed heads of one game fail to make one log?  The same index with
    another ``prev`` or entry, or consecutive indexes where the later ``prev`` is not the
    earlier's link."""
    if a.game != b.game:
        return False
    if a.index == b.index:
        return (a.prev, a.digest) != (b.prev, b.digest)
    first, second = (a, b) if a.index < b.index else (b, a)
    return second.index == first.index + 1 and second.prev != link(first.prev, first.digest)


def encode(item: Head | Entry) -> bytes:
    """An evidence item (an Entry with ``seq`` 0)."""
    if isinstance(item, Entry):
        item = msgspec.structs.replace(item, seq=0)
    return _encoder.encode(item)


def signed_entry(items: list[bytes], *, table: int, game: int,
                 host_key: bytes) -> Entry | None:
    """The one Entry of game ``game`` among a Fault's evidence that the host signed
    (None: none).  An ``early_clock`` Fault carries the "timed out" entry so: the host's
    word that it wrote it, though not when the seat's clock started."""
    for item in items:
        try:
            decoded = _decoder.decode(item)
        except (msgspec.DecodeError, ValueError):
            continue
        if (isinstance(decoded, Entry) and decoded.game == game
                and signed(decoded, table=table, host_key=host_key)):
            return decoded
    return None


def proves_fork(items: list[bytes], *, table: int, game: int, host_key: bytes) -> bool:
    """Does a Fault's evidence prove that the host signed what no single log of game
    ``game`` holds: two signed heads that contradict each other, or one signed Entry
    that places a proposal off the log it follows?  Anything unsigned proves nothing."""
    heads: list[Head] = []
    for item in items:
        try:
            decoded = _decoder.decode(item)
        except (msgspec.DecodeError, ValueError):
            return False
        if decoded.game != game:
            return False
        if isinstance(decoded, Entry):
            if not signed(decoded, table=table, host_key=host_key):
                return False
            if misplaced(decoded):
                return True
            decoded = head_of(decoded)
        elif not head_signed(decoded, table=table, host_key=host_key):
            return False
        heads.append(decoded)
    return any(h.index == 0 and h.prev for h in heads) or any(
        contradict(a, b) for i, a in enumerate(heads) for b in heads[i + 1:])
