"""An OpenID Connect issuer of the tests' own, served over real HTTP on 127.0.0.1: its
discovery document and its keys (JWKS), RSA keys made here, and ID tokens minted with them
(PyJWT), good ones and every kind of bad one. The server under test fetches and checks them
as it would a real provider's (infra/oidc.py); nothing in it is stubbed."""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

AUDIENCE = "royal-court-web"
_kids = itertools.count(1)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SigningKey:
    def __init__(self) -> None:
        self.kid = f"key-{next(_kids)}"
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def jwk(self) -> dict[str, Any]:
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private.public_key()))
        return public | {"kid": self.kid, "use": "sig", "alg": "RS256"}

    def public_pem(self) -> bytes:
        return self.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


class Issuer:
    """`url` is the issuer; `published` the keys its JWKS lists; `fetches` counts JWKS reads."""

    def __init__(self) -> None:
        self.published = [SigningKey()]
        self.fetches = 0
        self.down = False  # its key set answers 503, as a provider in an outage
        # Set: the key set is served at once; cleared: its requests wait until it is set (a
        # provider that hangs), so that a test decides when a fetch ends.
        self.answering = threading.Event()
        self.answering.set()
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/.well-known/openid-configuration":
                    body = {"issuer": issuer.url, "jwks_uri": f"{issuer.url}/jwks",
                            "id_token_signing_alg_values_supported": ["RS256"],
                            "response_types_supported": ["code"],
                            "subject_types_supported": ["public"],
                            "authorization_endpoint": f"{issuer.url}/authorize"}  # fmt: skip
                elif self.path == "/jwks":
                    issuer.fetches += 1
                    issuer.answering.wait(timeout=30)
                    if issuer.down:
                        self.send_error(503)
                        return
                    body = {"keys": [k.jwk() for k in issuer.published]}
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def claims(self, subject: str = "alice", **changes: Any) -> dict[str, Any]:
        now = int(time.time())
        out = {
            "iss": self.url,
            "aud": AUDIENCE,
            "sub": subject,
            "iat": now,
            "exp": now + 300,
            "jti": hashlib.sha256(f"{subject}{now}{next(_kids)}".encode()).hexdigest()[:24],
        }
        out.update(changes)
        return {k: v for k, v in out.items() if v is not None}  # None: leave the claim out

    def token(self, subject: str = "alice", key: SigningKey | None = None,
              header: dict[str, Any] | None = None, **changes: Any) -> str:  # fmt: skip
        """An ID token signed with `key` (the first published one by default); `header`
        adds to or changes its JOSE header (`alg` there only names an algorithm: the
        signature is still RS256)."""
        key = key or self.published[0]
        token = jwt.encode(self.claims(subject, **changes), key.private, algorithm="RS256",
                           headers={"kid": key.kid})  # fmt: skip
        if not header:
            return token
        head, body, signature = token.split(".")
        named = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))) | header
        return f"{_b64(json.dumps(named).encode())}.{body}.{signature}"

    def unsigned(self, subject: str = "alice") -> str:
        """`alg: none`: no signature at all."""
        head = _b64(json.dumps({"alg": "none", "typ": "JWT"}).encode())
        return f"{head}.{_b64(json.dumps(self.claims(subject)).encode())}."

    def signed_with_public_key_as_secret(self, subject: str = "alice") -> str:
        """HS256 keyed with the issuer's public key: the algorithm-confusion attack."""
        key = self.published[0]
        head = _b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": key.kid}).encode())
        body = _b64(json.dumps(self.claims(subject)).encode())
        mac = hmac.new(key.public_pem(), f"{head}.{body}".encode(), hashlib.sha256).digest()
        return f"{head}.{body}.{_b64(mac)}"
