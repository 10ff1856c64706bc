"""A game dealt in memory for the parts' unit tests: every seat's :class:`Dealing`
passes its signed deal frames to the others until the deal is done (no session, no
network)."""

from __future__ import annotations

import random

from durak_net.dealing import Dealing
from durak_net.identity import Identity
from durak_net.wire import Deal


def dealt(table: int, ids: list[Identity], seed: int, deck: int = 36) -> list[Dealing]:
    """Each seat's dealing with game 1 dealt by all of them (``ids``: the seats' keys,
    one seat each; ``seed``: the randomness of their secrets)."""
    rng = random.Random(seed)
    seats = len(ids)
    keys = [i.public for i in ids]
    deals = [Dealing(table, s, seats, deck, ids[s], rng.randbytes) for s in range(seats)]
    queue: list[Deal] = [f for d in deals for f in d.sign(1, d.make(1, None, keys).begin())]
    while queue:
        frame = queue.pop(0)
        for deal in deals:
            if deal.seat != frame.seat:
                deal.keep(frame)
                queue += deal.sign(1, deal.dealers[1].receive(frame.data, frame.seat))
    return deals
