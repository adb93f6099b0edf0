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
import urllib.parse
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
        self.person = "browser-person"  # whom the sign-in page signs in
        self._codes: dict[str, tuple[str, str, str, str]] = {}  # code -> its request
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/.well-known/openid-configuration":
                    body = {"issuer": issuer.url, "jwks_uri": f"{issuer.url}/jwks",
                            "id_token_signing_alg_values_supported": ["RS256"],
                            "response_types_supported": ["code"],
                            "subject_types_supported": ["public"],
                            "authorization_endpoint": f"{issuer.url}/authorize",
                            "token_endpoint": f"{issuer.url}/token"}  # fmt: skip
                elif self.path == "/jwks":
                    issuer.fetches += 1
                    issuer.answering.wait(timeout=30)
                    if issuer.down:
                        self.send_error(503)
                        return
                    body = {"keys": [k.jwk() for k in issuer.published]}
                elif self.path.startswith("/authorize?"):
                    self.send_response(302)  # signed in at once, as `issuer.person`
                    self.send_header("Location", issuer.authorize(self.path))
                    self.end_headers()
                    return
                else:
                    self.send_error(404)
                    return
                self.answer(200, body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
                token = issuer.redeem(form) if self.path == "/token" else None
                if token is None:
                    self.answer(400, {"error": "invalid_grant"})
                else:
                    self.answer(200, {"id_token": token, "token_type": "Bearer"})

            def answer(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
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

    def authorize(self, path: str) -> str:
        """The sign-in page of a provider whose person is always signed in: where it sends
        the browser back, with a code for the request (the code flow with PKCE S256)."""
        asked = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query))
        assert asked["response_type"] == "code" and asked["code_challenge_method"] == "S256"
        assert "openid" in asked["scope"].split()
        code = hashlib.sha256(f"{path}{next(_kids)}".encode()).hexdigest()[:32]
        self._codes[code] = (asked["client_id"], asked["redirect_uri"],
                             asked["code_challenge"], self.person)  # fmt: skip
        back = {"code": code, "state": asked.get("state", "")}
        return f"{asked['redirect_uri']}?{urllib.parse.urlencode(back)}"

    def redeem(self, form: dict[str, str]) -> str | None:
        """The token endpoint: an ID token for a code, once, if the client, the redirect and
        the PKCE verifier are the sign-in's."""
        asked = self._codes.pop(form.get("code", ""), None)
        if asked is None or form.get("grant_type") != "authorization_code":
            return None
        client_id, redirect_uri, challenge, person = asked
        verifier = form.get("code_verifier", "").encode()
        if _b64(hashlib.sha256(verifier).digest()) != challenge:
            return None
        if form.get("client_id") != client_id or form.get("redirect_uri") != redirect_uri:
            return None
        return self.token(person, aud=client_id)

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
