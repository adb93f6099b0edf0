"""The sign-in provider's adapter (domain/identity.py's port): an OpenID Connect ID token
checked against the issuer's published keys with PyJWT (docs/accounts.md).

Discovery (`<issuer>/.well-known/openid-configuration`) names the keys' URL (`jwks_uri`);
the keys are fetched once and kept. A token signed by a key not among them (a provider
rotates its keys) fetches them again, at most once per `REFETCH_SECONDS`, so that tokens
with made-up key ids cannot make every request a fetch; the kept keys are fetched again
after `KEYS_SECONDS` whatever happens. Accepted: asymmetric signatures only (`none` and
the HMAC algorithms never: a public key must not be usable as a shared secret), the
configured issuer exactly, the configured audience among `aud` (and as `azp` where a token
names several), and `exp`, `iat` and `sub` present, `exp` and `nbf` within `LEEWAY_SECONDS`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.errors import SignInRefused, SignInUnavailable
from domain.identity import Identity

if TYPE_CHECKING:
    import jwt

ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
              "EdDSA")  # fmt: skip
"""Signatures accepted: public-key ones (Cognito, Google and Apple sign with RS256)."""
LEEWAY_SECONDS = 60
REFETCH_SECONDS = 60
KEYS_SECONDS = 3600
FETCH_TIMEOUT = 3.0
MAX_DOCUMENT = 256 * 1024  # bytes of a discovery document or key set read at most
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Where a provider may be served over plain HTTP (a development or test issuer)."""

Fetch = Callable[[str], Any]


def fetch_json(url: str) -> Any:
    """GET a small JSON document over HTTPS (HTTP for a local issuer only)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "https" and not (parts.scheme == "http" and parts.hostname in LOCAL_HOSTS):
        raise SignInUnavailable(f"the provider's {url!r} is not HTTPS", retry_after=300)
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:
            body = response.read(MAX_DOCUMENT + 1)
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        raise SignInUnavailable(f"cannot fetch {url}: {e}") from e
    if len(body) > MAX_DOCUMENT:
        raise SignInUnavailable(f"{url} is larger than {MAX_DOCUMENT} bytes", retry_after=300)
    try:
        return json.loads(body)
    except ValueError as e:
        raise SignInUnavailable(f"{url} is not JSON") from e


class OidcVerifier:
    """Checks ID tokens of one issuer for one audience (the app's client id)."""

    def __init__(
        self,
        issuer: str,
        audience: str,
        fetch: Fetch = fetch_json,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.issuer = (
            issuer.rstrip("/") if issuer.endswith("/") and issuer.count("/") > 3 else issuer
        )
        self.audience = audience
        self._fetch = fetch
        self._clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, tuple[jwt.PyJWK, str | None]] = {}  # kid -> key, its `alg`
        self._fetched_at: float | None = None

    def verify(self, id_token: str) -> Identity:
        import jwt  # with cryptography, ~0.1 s: loaded at the first sign-in, not at a cold start

        try:
            header = jwt.get_unverified_header(id_token)
        except jwt.PyJWTError:
            raise SignInRefused("the ID token is not a JWT") from None
        algorithm = header.get("alg")
        if algorithm not in ALGORITHMS:
            raise SignInRefused(f"ID tokens signed with {algorithm!r} are not accepted")
        key = self._key(header.get("kid"), algorithm)
        try:
            claims = jwt.decode(
                id_token, key.key, algorithms=[algorithm], audience=self.audience,
                issuer=self.issuer, leeway=LEEWAY_SECONDS,
                options={"require": ["exp", "iat", "iss", "aud", "sub"]},
            )  # fmt: skip
        except jwt.ExpiredSignatureError:
            raise SignInRefused("the ID token has expired: sign in again") from None
        except jwt.ImmatureSignatureError:
            raise SignInRefused("the ID token is not valid yet") from None
        except jwt.InvalidAudienceError:
            raise SignInRefused("the ID token is for another audience (client)") from None
        except jwt.InvalidIssuerError:
            raise SignInRefused("the ID token is from another issuer") from None
        except jwt.InvalidSignatureError:
            raise SignInRefused("the ID token's signature does not verify") from None
        except jwt.MissingRequiredClaimError as e:
            raise SignInRefused(f"the ID token has no {e.claim!r} claim") from None
        except jwt.PyJWTError as e:
            raise SignInRefused(f"the ID token is not valid: {e}") from None
        audiences = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
        if len(audiences) > 1 and claims.get("azp") != self.audience:
            raise SignInRefused("the ID token names several audiences but not this one as azp")
        subject = claims["sub"]
        if not isinstance(subject, str) or not 1 <= len(subject) <= 255:
            raise SignInRefused("the ID token's subject is not a string of 1 to 255 characters")
        once = claims.get("jti")
        if not isinstance(once, str) or not once:
            once = hashlib.sha256(id_token.encode()).hexdigest()
        return Identity(self.issuer, subject, int(claims["exp"]), once)

    def _key(self, key_id: object, algorithm: str) -> jwt.PyJWK:
        with self._lock:
            now = self._clock()
            stale = self._fetched_at is None or now - self._fetched_at >= KEYS_SECONDS
            unknown = key_id not in self._keys
            if stale or (unknown and now - (self._fetched_at or 0) >= REFETCH_SECONDS):
                self._keys = self._fetch_keys()
                self._fetched_at = now
            found = self._keys.get(key_id) if isinstance(key_id, str) else None
            if found is None and key_id is None and len(self._keys) == 1:
                found = next(iter(self._keys.values()))  # a provider with one key may omit kid
        if found is None:
            raise SignInRefused("the ID token is signed by a key its issuer does not publish")
        key, named = found
        if named is not None and named != algorithm:
            raise SignInRefused("the ID token's algorithm is not its key's")
        return key

    def _fetch_keys(self) -> dict[str, tuple[jwt.PyJWK, str | None]]:
        import jwt

        discovery = self._fetch(f"{self.issuer.rstrip('/')}/.well-known/openid-configuration")
        if not isinstance(discovery, dict) or discovery.get("issuer") != self.issuer:
            # OpenID Connect Discovery 1.0, 4.3: the document must name this very issuer
            raise SignInUnavailable("the provider's discovery document names another issuer", 300)
        jwks_uri = discovery.get("jwks_uri")
        if not isinstance(jwks_uri, str):
            raise SignInUnavailable("the provider's discovery document has no jwks_uri", 300)
        found = self._fetch(jwks_uri)
        keys: dict[str, tuple[jwt.PyJWK, str | None]] = {}
        for data in found.get("keys", []) if isinstance(found, dict) else []:
            if not isinstance(data, dict) or data.get("use", "sig") != "sig":
                continue
            try:
                key = jwt.PyJWK(data)
            except jwt.PyJWTError:
                continue  # a key of a kind this library does not use: the others still count
            named = data.get("alg")
            keys[str(data.get("kid", ""))] = (key, named if isinstance(named, str) else None)
        if not keys:
            raise SignInUnavailable("the provider publishes no signing key this server can use")
        return keys
