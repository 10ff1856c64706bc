"""UDP sockets for the LAN game: the only module (with node.py) that touches the network.

Two sockets per peer:

* the **discovery** socket, bound to ``0.0.0.0:37020`` with ``SO_REUSEADDR`` and
  ``SO_REUSEPORT``, so several processes on one machine share the port.  The kernel
  hands every *broadcast* datagram to all of them, but a *unicast* datagram to only
  one, so this socket only ever receives announcements;
* the **game** socket, on an ephemeral port (one per process, no fixed port pair),
  which sends everything and receives all unicast traffic (invitations, session
  datagrams, announcements from ``connect`` peers).

Announcements go to 255.255.255.255, to each interface's subnet broadcast address,
and to 127.255.255.255, which the loopback interface delivers to every listener on
this machine (checked: 127.0.0.1 would reach only one of them).  A network without
a default route refuses 255.255.255.255; such errors are counted, never raised.
"""

from __future__ import annotations

import contextlib
import errno
import random
import socket
import struct
import sys
from collections import Counter

Addr = tuple[str, int]

LIMITED_BROADCAST = "255.255.255.255"
LOOPBACK_BROADCAST = "127.255.255.255"

_SIOCGIFFLAGS = 0x8913
_SIOCGIFBRDADDR = 0x8919
_IFF_UP = 0x1
_IFF_BROADCAST = 0x2


def interface_broadcasts() -> list[str]:
    """The IPv4 broadcast address of every interface that is up (Linux; [] elsewhere)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    out: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("16s24x", name.encode()[:15])
            try:
                flags = struct.unpack("H", fcntl.ioctl(probe, _SIOCGIFFLAGS, request)[16:18])[0]
                if not flags & _IFF_UP or not flags & _IFF_BROADCAST:
                    continue
                answer = fcntl.ioctl(probe, _SIOCGIFBRDADDR, request)
            except OSError:  # no IPv4 address on this interface
                continue
            address = socket.inet_ntoa(answer[20:24])
            if address != "0.0.0.0" and address not in out:
                out.append(address)
    return out


def broadcast_targets() -> list[str]:
    """Where announcements go (see the module docstring)."""
    targets = [LIMITED_BROADCAST, *interface_broadcasts(), LOOPBACK_BROADCAST]
    return list(dict.fromkeys(targets))


def _udp_socket(host: str, port: int, *, shared: bool) -> socket.socket:
    """A non-blocking UDP socket bound to (host, port) that may broadcast; ``shared``:
    other processes may bind the same port.  Closed again if anything fails."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        if shared:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if hasattr(socket, "SO_REUSEPORT"):
                with contextlib.suppress(OSError):  # some kernels lack it; REUSEADDR suffices
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        else:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        sock.bind((host, port))
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def open_discovery_socket(port: int, host: str = "0.0.0.0") -> socket.socket:
    """The shared discovery socket (raises ``OSError`` if the port cannot be shared)."""
    return _udp_socket(host, port, shared=True)


def open_game_socket(port: int = 0, host: str = "0.0.0.0") -> socket.socket:
    """This peer's own socket (ephemeral port unless ``port`` is given)."""
    return _udp_socket(host, port, shared=False)


class Sender:
    """Sends datagrams from the game socket, dropping a share ``loss`` of them on purpose
    (``--loss``, for demos and tests), and counting what the network refused."""

    def __init__(self, sock: socket.socket, loss: float = 0.0, seed: int | None = None) -> None:
        if not 0.0 <= loss < 1.0:
            raise ValueError(f"loss must be in [0, 1), not {loss!r}")
        self.sock = sock
        self.loss = loss
        self._rng = random.Random(seed)
        self.stats: Counter[str] = Counter()

    def send(self, data: bytes, addr: Addr) -> None:
        if self.loss and self._rng.random() < self.loss:
            self.stats["dropped_on_purpose"] += 1
            return
        try:
            self.sock.sendto(data, addr)
            self.stats["sent"] += 1
        except OSError as exc:
            # ENETUNREACH for 255.255.255.255 without a default route, EAGAIN on a full
            # buffer, EPERM from a firewall: the protocol's retries cover all of them.
            name = errno.errorcode.get(exc.errno or 0, "error")
            self.stats[f"send_error_{name}"] += 1
