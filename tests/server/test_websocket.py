"""The kernel websocket of the servers play.sh starts sends each message at once.

A real jupyter_server (in this process, without its extensions) with a real kernel: the
test opens the kernel's websocket as a browser does and reads TCP_NODELAY off the
server's end of it.  The stock connection class is checked too: it leaves Nagle on
(what durak_server.websocket works around); when that test fails, jupyter_server has
fixed it upstream and play.sh can drop the setting.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest

pytest.importorskip("jupyter_server")

from jupyter_server.serverapp import ServerApp
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado.httpclient import AsyncHTTPClient
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.websocket import websocket_connect

from durak_server import websocket

pytestmark = pytest.mark.slow


async def _nodelay_of_a_kernel_websocket(root: Path, connection_class: str | None) -> int:
    """TCP_NODELAY on the server's socket of a kernel websocket, as a browser opens it."""
    argv = [
        f"--ServerApp.root_dir={root}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        "--ServerApp.open_browser=False",
    ]
    if connection_class is not None:
        argv.append(f"--ServerApp.kernel_websocket_connection_class={connection_class}")
    app = ServerApp()
    app.init_signal = lambda: None  # type: ignore[method-assign]  # keep pytest's handlers
    app.initialize(argv=argv, find_extensions=False, new_httpserver=False)
    server = HTTPServer(app.web_app)
    [listening] = bind_sockets(0, "127.0.0.1")
    server.add_sockets([listening])
    base = f"127.0.0.1:{listening.getsockname()[1]}"
    try:
        reply = await AsyncHTTPClient().fetch(f"http://{base}/api/kernels", method="POST",
                                              body="{}")
        kernel = json.loads(reply.body)["id"]
        client = await websocket_connect(
            f"ws://{base}/api/kernels/{kernel}/channels?session_id=browser"
        )
        # The first message (the kernel's status) comes after the handler's open() ran.
        assert await asyncio.wait_for(client.read_message(), timeout=60) is not None
        [handler] = [h for h in ZMQChannelsWebsocketConnection._open_sessions.values()
                     if h.kernel_id == kernel]
        sock = handler.ws_connection.stream.socket
        nodelay = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        client.close()
        return int(nodelay)
    finally:
        server.stop()
        await app.kernel_manager.shutdown_all()


def test_the_kernel_websocket_of_play_sh_sends_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    assert asyncio.run(_nodelay_of_a_kernel_websocket(tmp_path, websocket.CLASS_NAME)) == 1


def test_the_stock_kernel_websocket_waits_for_nagle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    assert asyncio.run(_nodelay_of_a_kernel_websocket(tmp_path, None)) == 0
