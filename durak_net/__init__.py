"""Play Durak between machines: a sans-I/O protocol plus one thin socket/thread shuttle.

In a notebook, use :func:`durak_widgets.lan`; from a shell, ``durak-lan`` (see
:mod:`durak_net.cli`).  The layers, top to bottom (docs/lan-protocol.md has the details):

* :class:`LanNode` owns the UDP sockets and one daemon thread: it moves bytes and
  timers for a :class:`PeerCore` and hands its events, in order, to one callback;
* :class:`PeerCore` is one peer with no I/O: the lobby wired to its sessions, the
  tables it hosts and their bot seats (any carrier drives it: UDP, a WebRTC data
  channel, :class:`SimNet`);
* :class:`Lobby` (discovery, invitations) and :class:`Session` (one game session:
  sequencing, validation, the deal, resuming) are state machines with no I/O:
  ``receive(data, addr, now)``, ``timer(now)``, ``datagrams_to_send(now)``, ``events()``;
* :class:`MentalDealer` deals a deck whose cards each seat sees only when it may
  (mental poker), and :mod:`durak_net.audit` checks a whole game afterwards;
* :mod:`durak_net.wire` is the schema, :mod:`durak_net.simlink` a simulated lossy
  network for tests.
"""

from . import events
from .dealer import DealContext, Dealer, DealFault, MentalDealer
from .journal import Journal, default_journal_dir, read_journal, resumable
from .lobby import Lobby, LobbyConfig
from .node import LanNode, SessionView, parse_hostport
from .peer import PeerCore
from .reliable import ReliableChannel, RtoConfig
from .session import LogEntry, Role, Session, SessionConfig, SessionError, log_hash
from .simlink import SimNet
from .wire import DISCOVERY_PORT, MAX_DATAGRAM, PROTOCOL, PROTOCOL_VERSION

__all__ = [
    "DISCOVERY_PORT",
    "MAX_DATAGRAM",
    "PROTOCOL",
    "PROTOCOL_VERSION",
    "DealContext",
    "DealFault",
    "Dealer",
    "Journal",
    "LanNode",
    "Lobby",
    "LobbyConfig",
    "LogEntry",
    "MentalDealer",
    "PeerCore",
    "ReliableChannel",
    "Role",
    "RtoConfig",
    "Session",
    "SessionConfig",
    "SessionError",
    "SessionView",
    "SimNet",
    "default_journal_dir",
    "events",
    "log_hash",
    "parse_hostport",
    "read_journal",
    "resumable",
]
