"""An aiortc peer that answers an invitation code and echoes one message (a helper of
tests/net/test_net_online_chromium.py, run in the browser's network namespace).

Reads the invitation code on stdin, prints the reply code on stdout, then waits for
the data channel labelled ``durak`` and answers its first binary message with
``b"echo: " + message``; then exits 0 when its stdin closes (the test has seen the
echo), or 1 if no message came in 30 s.
"""

from __future__ import annotations

import asyncio
import sys
import time

from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription

from durak_net.online_code import pack_description, unpack_description


async def main() -> int:
    kind, sdp = unpack_description(sys.stdin.readline(), now=time.time())
    assert kind == "offer", kind
    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @pc.on("datachannel")
    def channel(ch) -> None:  # type: ignore[no-untyped-def]
        print(f"channel {ch.label} ordered={ch.ordered} "
              f"maxRetransmits={ch.maxRetransmits}", file=sys.stderr, flush=True)

        @ch.on("message")
        def message(data: bytes) -> None:
            ch.send(b"echo: " + data)
            if not done.done():
                done.set_result(None)

    await pc.setRemoteDescription(RTCSessionDescription(sdp, "offer"))
    await pc.setLocalDescription(await pc.createAnswer())
    print(pack_description(pc.localDescription.sdp, "answer", now=time.time()), flush=True)
    try:
        await asyncio.wait_for(done, 30)
    except asyncio.TimeoutError:
        await pc.close()
        return 1
    # Keep the connection until the test has the echo (it closes our stdin then).
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await pc.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
