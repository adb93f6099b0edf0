"""API Gateway's WebSocket API on this machine, for a browser: what AWS runs in front of the
`socket` and `push` functions (handlers/aws/push.py), the part this project does not ship.

- Clients connect to `ws://127.0.0.1:<port>/<stage>?game=<id>`. The handshake waits for the
  `$connect` route's answer (a status other than 200 refuses the upgrade, as API Gateway
  does); each message a client sends is the `$default` route's event, and its close the
  `$disconnect` route's. The events are the recorded shapes of tests/integration/events/.
- The Management API (`POST`/`DELETE <endpoint>/@connections/<id>`, what boto3's
  `apigatewaymanagementapi` calls) sends to and closes those connections; a connection that is
  gone answers 410 GoneException.
- `pump`: the games table's stream, as Lambda's event source mapping hands it to the `push`
  function (tests.integration.test_lambda_push.TableStream), polled every 50 ms.
"""

from __future__ import annotations

import asyncio
import base64
import os
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from tests.integration.test_lambda_push import (
    STAGE,
    TableStream,
    connect_event,
    disconnect_event,
    message_event,
)
from tests.stores import _free_port

Handler = Callable[[dict[str, Any], object], dict[str, Any]]


class WebSocketGateway:
    """The WebSocket API, its routes handled by `socket`; `url` for clients, `endpoint` for
    the Management API."""

    def __init__(self, socket: Handler) -> None:
        self.socket = socket
        self.connections: dict[str, ServerConnection] = {}
        self.opened = 0
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.port = _free_port()
        self.server = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)
        self.management = ThreadingHTTPServer(("127.0.0.1", _free_port()), self._management())
        self.management.daemon_threads = True
        threading.Thread(target=self.management.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/{STAGE}"

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.management.server_address[1]}/{STAGE}"

    async def _start(self) -> Any:
        return await serve(self._connected, "127.0.0.1", self.port, process_request=self._connect)

    async def _route(self, event: dict[str, Any]) -> dict[str, Any]:
        return await asyncio.get_running_loop().run_in_executor(None, self.socket, event, None)

    async def _connect(self, connection: ServerConnection, request: Request) -> Response | None:
        """`$connect`: the upgrade is accepted only if the route answers 200."""
        connection_id = base64.b64encode(os.urandom(12)).decode()
        game = parse_qs(urlsplit(request.path).query).get("game", [None])[0]
        answer = await self._route(connect_event(connection_id, game))
        if answer.get("statusCode") != 200:
            status = int(answer.get("statusCode", 500))
            return Response(status, "Refused", Headers(), str(answer.get("body", "")).encode())
        connection.connection_id = connection_id  # type: ignore[attr-defined]
        return None

    async def _connected(self, connection: ServerConnection) -> None:
        connection_id = connection.connection_id  # type: ignore[attr-defined]
        self.connections[connection_id] = connection
        self.opened += 1
        try:
            async for message in connection:
                text = message if isinstance(message, str) else message.decode()
                await self._route(message_event(connection_id, text))
        except ConnectionClosed:  # a dropped connection ends like a closed one
            pass
        finally:
            self.connections.pop(connection_id, None)
            await self._route(disconnect_event(connection_id))

    def _management(self) -> type[BaseHTTPRequestHandler]:
        gateway = self

        class Management(BaseHTTPRequestHandler):
            def _target(self) -> ServerConnection | None:
                prefix = f"/{STAGE}/@connections/"
                if not self.path.startswith(prefix):
                    return None
                return gateway.connections.get(unquote(self.path[len(prefix) :]))

            def _answer(self, ok: bool) -> None:
                body = b"" if ok else b'{"message":null}'
                self.send_response(200 if ok else 410)
                if not ok:
                    self.send_header("x-amzn-ErrorType", "GoneException")
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                target = self._target()
                delivered = target is not None
                if target is not None:
                    sending = target.send(data.decode())
                    try:
                        asyncio.run_coroutine_threadsafe(sending, gateway.loop).result(5)
                    except ConnectionClosed:  # closed meanwhile: gone, as API Gateway says
                        delivered = False
                self._answer(delivered)

            def do_DELETE(self) -> None:
                target = self._target()
                if target is not None:
                    asyncio.run_coroutine_threadsafe(target.close(), gateway.loop).result(5)
                self._answer(target is not None)

            def log_message(self, *args: Any) -> None:
                pass

        return Management

    async def _close(self) -> None:
        self.server.close()  # closes every connection: each runs its `$disconnect`
        await self.server.wait_closed()

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(10)
        self.management.shutdown()
        self.loop.call_soon_threadsafe(self.loop.stop)


class StreamPump:
    """Lambda's event source mapping of the games table's stream: new records, every 50 ms,
    handed to `push` as one batch."""

    def __init__(self, stream: TableStream, push: Handler) -> None:
        self.stream, self.push = stream, push
        self.batches = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.wait(0.05):
            records = self.stream.take()
            if records["Records"]:
                self.push(records, None)
                self.batches += 1

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(10)
