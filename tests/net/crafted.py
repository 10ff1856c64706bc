"""Someone on the LAN who writes discovery datagrams by hand (an attacker, or a test
pushing a message the code would not send).

It holds only its own node key: what it signs names its own node id, and a message
that names another's node id can only be signed with the wrong key.
"""

from __future__ import annotations

import random
from typing import Any

from durak_core import Rules
from durak_net.identity import Identity
from durak_net.lobby import DISCOVERY_LABEL, node_id
from durak_net.wire import PROTOCOL, PROTOCOL_VERSION, Announce, encode_discovery


class Crafter:
    """A node key of its own, and datagrams signed with it."""

    def __init__(self, seed: int) -> None:
        self.identity = Identity.generate(random.Random(seed).randbytes)
        self.key = self.identity.public
        self.node = node_id(self.key)
        self.seq = 0

    def sign(self, unsigned: bytes) -> bytes:
        return self.identity.sign(DISCOVERY_LABEL, unsigned)

    def datagram(self, message: Any) -> bytes:
        """``message`` encoded and signed with this crafter's key (whatever node it
        names)."""
        return encode_discovery(message, self.sign)

    def announce(self, name: str, port: int = 40100, *, node: int | None = None,
                 busy: bool = False, rules: Rules | None = None,
                 proto: str = PROTOCOL, version: int = PROTOCOL_VERSION) -> bytes:
        """A signed announcement (of ``node``, ours unless given), numbered after the
        last."""
        self.seq += 1
        return self.datagram(Announce(proto, version, self.node if node is None else node,
                                      self.key, self.seq, name, port,
                                      (rules or Rules()).to_dict(), busy))
