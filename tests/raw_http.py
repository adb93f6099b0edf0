"""HTTP/1.1 answers read off a raw socket, for the tests that speak to `court serve` as hostile
clients do (pipelined, half-read, never read): the one place that parses an answer's head."""

from __future__ import annotations

import socket


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """An answer's status and headers, from its head (without the blank line ending it)."""
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines if line)
    return int(status_line.split()[1]), headers


def read_answer(
    connection: socket.socket, buffer: bytes = b""
) -> tuple[int, dict[str, str], bytes, bytes]:
    """The next answer on `connection` (what was read of it already in `buffer`): its status,
    headers and body (by its Content-Length; none without one), and what was read past it."""
    while b"\r\n\r\n" not in buffer:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("the connection closed before an answer's head")
        buffer += chunk
    head, buffer = buffer.split(b"\r\n\r\n", 1)
    status, headers = parse_head(head)
    length = int(next((v for k, v in headers.items() if k.lower() == "content-length"), 0))
    while len(buffer) < length:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("the connection closed inside an answer's body")
        buffer += chunk
    return status, headers, buffer[:length], buffer[length:]


def raw_exchange(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """One request sent as bytes on a connection of its own; the answer's status, headers and
    body (all the connection carried after the head, until the server closed it)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return (*parse_head(head), body)
