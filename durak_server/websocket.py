"""A kernel websocket that sends each message at once (TCP_NODELAY).

jupyter_server's kernel websocket leaves Nagle's algorithm on.  A widget click's reply
comes back as several small websocket frames (status busy, the comm messages, status
idle); Nagle holds each small frame until the previous one is acknowledged, and the
browser delays its acknowledgement by up to 40 ms, so every click waits for it.  Turning
Nagle off on this one socket is tornado's ``WebSocketHandler.set_nodelay(True)``, which
its documentation recommends for exactly this: small messages where latency matters.

The connection class is a setting of both servers, so this is a subclass named in their
settings, not a patch: ``--ServerApp.kernel_websocket_connection_class=
durak_server.websocket.NoDelayWebsocketConnection`` (the Voila app: ``Voila.``).  The
fix upstream is the same call in jupyter_server's own ``KernelWebsocketHandler.open()``;
tests/server checks that the stock class still leaves Nagle on, so it tells when this
class can go.
"""

from __future__ import annotations

import asyncio

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

#: The name the servers' settings take.
CLASS_NAME = f"{__name__}.NoDelayWebsocketConnection"


class NoDelayWebsocketConnection(ZMQChannelsWebsocketConnection):
    """The stock kernel websocket connection, with Nagle's algorithm off on its socket."""

    # The stock class's connect() returns a Future, not the base class's coroutine.
    def connect(self) -> asyncio.Future[None] | None:  # type: ignore[override]
        # Called from the handler's open(): the websocket (and its TCP stream) exists.
        self.websocket_handler.set_nodelay(True)
        result: asyncio.Future[None] | None = super().connect()
        return result
