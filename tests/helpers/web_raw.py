"""A raw peer of the live map's server, for the tests and benches of its edges: WebSocket pages that never read
their socket (a tiny receive buffer, nothing read), silent or half-sent connections, and requests no HTTP
client library would send."""

from __future__ import annotations

import asyncio
import json
import os
import socket


async def raw_socket(port: int, *, rcvbuf: int = 0, host: str = "127.0.0.1") -> socket.socket:
    """A connected non-blocking TCP socket (`rcvbuf`: its receive buffer, set before connecting, so that a peer
    that never reads stops taking data after a few kilobytes)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return sock


def ws_frame(text: str, opcode: int = 0x1) -> bytes:
    """One masked client frame (RFC 6455 5.2)."""
    payload = text.encode()
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def upgrade_request(path: str) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def silent_page(port: int, game_id: str, session: str, *, rcvbuf: int = 4096) -> socket.socket:
    """A live page that says hello and then never reads its socket."""
    sock = await raw_socket(port, rcvbuf=rcvbuf)
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, upgrade_request(f"/api/games/{game_id}/live"))
    await loop.sock_sendall(sock, ws_frame(json.dumps({"type": "hello", "session": session})))
    return sock


class FrameReader:
    """Reads the server's frames from a raw page's socket (after the 101 answer), when the test chooses."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""
        self.upgraded = False

    async def _more(self, timeout: float) -> None:
        data = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(self.sock, 1 << 16), timeout)
        if not data:
            raise ConnectionError("closed")
        self.buffer += data

    async def frame(self, timeout: float = 5.0) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame."""
        while not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                assert self.buffer.startswith(b"HTTP/1.1 101"), self.buffer[:80]
                self.buffer, self.upgraded = self.buffer[end + 4 :], True
            else:
                await self._more(timeout)
        while True:
            b = self.buffer
            if len(b) >= 2:
                n, at = b[1] & 0x7F, 2
                if n == 126 and len(b) >= 4:
                    n, at = int.from_bytes(b[2:4], "big"), 4
                elif n == 127 and len(b) >= 10:
                    n, at = int.from_bytes(b[2:10], "big"), 10
                if (n < 126 or at > 2) and len(b) >= at + n:
                    self.buffer = b[at + n :]
                    return b[0] & 0x0F, b[at : at + n]
            await self._more(timeout)
