"""A minimal Server-Sent Events client over a raw socket, for the e2e tests and the bench: it
opens `GET /v1/games/{id}/events` and reads events as they come, with no thread of its own
(a caller may hold a thousand of them and read only those it cares about)."""

from __future__ import annotations

import json
import socket
import time
from typing import Any


class StreamClosed(Exception):
    """The server closed the stream."""


class SseStream:
    def __init__(
        self,
        base: str,
        game_id: str,
        token: str | None = None,
        last_event_id: int | None = None,
        timeout: float = 10,
        source: str | None = None,
    ) -> None:
        """`source`: the loopback address to connect from (127.0.0.2, ...: another client)."""
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection(
            (host, int(port)), timeout=timeout, source_address=(source, 0) if source else None
        )
        headers = f"Host: {host}\r\nAccept: text/event-stream\r\n"
        if token:
            headers += f"Authorization: Bearer {token}\r\n"
        if last_event_id is not None:
            headers += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall(f"GET /v1/games/{game_id}/events HTTP/1.1\r\n{headers}\r\n".encode())
        self.buffer = b""
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""

    def _fill(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no event in time")
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            raise TimeoutError("no event in time") from None
        if not data:
            raise StreamClosed
        self.buffer += data

    def head(self, timeout: float = 10) -> int:
        """Read the status and headers: the status code (a problem's body in `body`)."""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status, *lines = head.decode("latin-1").split("\r\n")
        self.status = int(status.split()[1])
        self.headers = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines)}
        if "content-length" in self.headers:
            length = int(self.headers["content-length"])
            while len(self.buffer) < length:
                self._fill(deadline)
            self.body, self.buffer = self.buffer[:length], self.buffer[length:]
        return self.status

    def next(self, timeout: float = 10) -> tuple[int, Any]:
        """The next event: its id (the version) and its data as JSON; comments skipped."""
        deadline = time.monotonic() + timeout
        if not self.status:
            self.head(timeout)
        while True:
            while b"\n\n" not in self.buffer:
                self._fill(deadline)
            block, self.buffer = self.buffer.split(b"\n\n", 1)
            fields = dict(
                line.split(": ", 1) for line in block.decode().split("\n") if ": " in line
            )
            if "data" in fields:
                return int(fields["id"]), json.loads(fields["data"])

    def comment(self, timeout: float) -> str:
        """The next comment line (a heartbeat), skipping events."""
        deadline = time.monotonic() + timeout
        if not self.status:
            self.head(timeout)
        while True:
            while b"\n\n" not in self.buffer:
                self._fill(deadline)
            block, self.buffer = self.buffer.split(b"\n\n", 1)
            if block.startswith(b":"):
                return block.decode()

    def close(self) -> None:
        self.sock.close()
