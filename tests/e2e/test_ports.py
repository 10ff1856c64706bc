"""The servers the tests start get ports no other socket can take first, and a port that
answers in something other than HTTP is "not up yet", not a crash of the test.

A JupyterLab once failed to start in the test command because a kernel's ZMQ socket,
bound to port 0, had been given the port chosen for the Lab a moment before: the status
poll read ZMQ's greeting and raised ``BadStatusLine``."""

from __future__ import annotations

import socket
import threading

from browser_support import _ephemeral_start, _status_ok, free_port, free_udp_port


def test_ports_are_drawn_below_the_range_sockets_bound_to_port_0_get() -> None:
    start = _ephemeral_start()
    with socket.socket() as anyport:
        anyport.bind(("127.0.0.1", 0))
        assert anyport.getsockname()[1] >= start  # what a kernel's socket gets
    ports = {free_port() for _ in range(20)} | {free_udp_port() for _ in range(20)}
    assert all(1024 <= port < start for port in ports), sorted(ports)
    assert len(ports) > 30  # drawn, not one port over and over
    port = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))  # free for the server


def test_a_port_answering_zmq_is_not_up_and_raises_nothing() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]

        def greet() -> None:
            conn, _ = listener.accept()
            with conn:
                conn.recv(1024)
                conn.sendall(b"\xff" + bytes(8) + b"\x7f")  # ZMQ's greeting

        thread = threading.Thread(target=greet)
        thread.start()
        assert _status_ok(f"http://127.0.0.1:{port}/api/status") is False
        thread.join(timeout=10)
    assert _status_ok(f"http://127.0.0.1:{port}/api/status") is False  # nobody there
