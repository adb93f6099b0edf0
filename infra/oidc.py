"""The sign-in provider's adapter (domain/identity.py's port): an OpenID Connect ID token
checked against the issuer's published keys with PyJWT (docs/accounts.md).

Discovery (`<issuer>/.well-known/openid-configuration`) names the keys' URL (`jwks_uri`);
the keys are fetched once and kept. A token signed by a key not among them (a provider
rotates its keys) fetches them again, at most once per `REFETCH_SECONDS`, so that tokens
with made-up key ids cannot make every request a fetch; the kept keys are fetched again
after `KEYS_SECONDS`. A fetch, whether it works or not, comes at most once per
`REFETCH_SECONDS` and at most one at a time; no request waits for another's fetch, and while
the provider is down the keys kept go on checking the tokens they signed. Accepted:
asymmetric signatures only (`none` and the HMAC algorithms never: a public key must not be
usable as a shared secret), the
configured issuer exactly, the configured audience among `aud` (and as `azp` where a token
names several), `exp`, `iat` and `sub` present, `exp` and `nbf` within `LEEWAY_SECONDS`,
a lifetime of at most a day, and an algorithm of its key's type.
"""

from __future__ import annotations

import hashlib
import json
import logging
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
FAMILIES = {"RSA": ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512"),
            "EC": ("ES256", "ES384", "ES512"), "OKP": ("EdDSA",)}  # fmt: skip
"""The algorithms each type of key (its JWK `kty`) signs with."""
MAX_LIFETIME_SECONDS = 86_400
"""An ID token valid for longer (exp - iat) is refused: it would be replayable that long."""
LEEWAY_SECONDS = 60
REFETCH_SECONDS = 60
KEYS_SECONDS = 3600
FETCH_TIMEOUT = 3.0
MAX_DOCUMENT = 256 * 1024  # bytes of a discovery document or key set read at most
log = logging.getLogger("royal_court")
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Where a provider may be served over plain HTTP (a development or test issuer)."""

Fetch = Callable[[str], Any]
Post = Callable[[str, dict[str, str]], Any]


def fetch_json(url: str) -> Any:
    """GET a small JSON document over HTTPS (HTTP for a local issuer only)."""
    _check_scheme(url)
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


def post_form(url: str, form: dict[str, str]) -> Any:
    """POST a form to the provider's token endpoint; its JSON answer. A 4xx is the
    provider refusing the code (SignInRefused, its `error` named); anything else is
    SignInUnavailable."""
    _check_scheme(url)
    data = urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(
        url,
        data=data,
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:
            body = response.read(MAX_DOCUMENT + 1)
    except urllib.error.HTTPError as e:
        if 400 <= e.code < 500:
            try:
                said = json.loads(e.read(4096)).get("error", "")
            except (ValueError, AttributeError):
                said = ""
            raise SignInRefused(
                f"the provider refused the code ({str(said)[:40] or e.code})"
            ) from e
        raise SignInUnavailable(f"the token endpoint answered {e.code}") from e
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        raise SignInUnavailable(f"cannot reach the token endpoint: {e}") from e
    try:
        return json.loads(body[:MAX_DOCUMENT])
    except ValueError as e:
        raise SignInUnavailable("the token endpoint's answer is not JSON") from e


def _check_scheme(url: str) -> None:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "https" and not (parts.scheme == "http" and parts.hostname in LOCAL_HOSTS):
        raise SignInUnavailable(f"the provider's {url!r} is not HTTPS", retry_after=300)


class OidcVerifier:
    """Checks ID tokens of one issuer for one audience (the app's client id)."""

    def __init__(
        self,
        issuer: str,
        audience: str,
        fetch: Fetch = fetch_json,
        clock: Callable[[], float] = time.time,
        post: Post | None = None,
    ) -> None:
        self.issuer = issuer  # compared with `iss` exactly, as OpenID Connect says
        self.audience = audience
        self._fetch = fetch
        self._post = post or post_form
        self._clock = clock
        # One fetch at a time, and no request waits for another's: a request that finds a
        # fetch under way uses the keys kept (a slow provider holds one thread, not all).
        self._fetching = threading.Lock()
        self._keys: dict[str, tuple[jwt.PyJWK, str | None]] = {}  # kid -> key, its `alg`
        self._fetched_at: float | None = None  # when the kept keys were fetched
        self._tried_at: float | None = None  # the last fetch, whether or not it worked
        self._discovered: dict[str, Any] | None = None  # the discovery document, once fetched

    def verify(self, id_token: str) -> Identity:
        import jwt  # with cryptography, ~0.1 s: loaded at the first sign-in, not at a cold start

        try:
            header = jwt.get_unverified_header(id_token)
        except jwt.PyJWTError:
            raise SignInRefused("the ID token is not a JWT") from None
        algorithm = header.get("alg")
        if algorithm not in ALGORITHMS:
            raise SignInRefused(f"ID tokens signed with {str(algorithm)[:40]!r} are not accepted")
        key = self._key(header.get("kid"), algorithm)
        if algorithm not in FAMILIES.get(str(key.key_type), ()):
            # A key's type fixes its algorithms: an RSA key never checks an ES256 signature
            # (PyJWT would raise on the key's form, not refuse the token).
            raise SignInRefused("the ID token's algorithm is not one of its key's")
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
        except jwt.DecodeError:
            raise SignInRefused("the ID token is not a well-formed signed JWT") from None
        except (jwt.PyJWTError, TypeError, ValueError):
            raise SignInRefused("the ID token is not valid") from None
        audiences = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
        if len(audiences) > 1 and claims.get("azp") != self.audience:
            raise SignInRefused("the ID token names several audiences but not this one as azp")
        subject = claims["sub"]
        if not isinstance(subject, str) or not 1 <= len(subject) <= 255:
            raise SignInRefused("the ID token's subject is not a string of 1 to 255 characters")
        expires, issued = claims["exp"], claims["iat"]
        if not all(
            isinstance(t, int | float) and not isinstance(t, bool) for t in (expires, issued)
        ):
            raise SignInRefused("the ID token's exp and iat are not numbers of seconds")
        if expires - issued > MAX_LIFETIME_SECONDS:
            # It would stay a replayable sign-in for that long: providers' last an hour or a day.
            raise SignInRefused("the ID token is valid for more than a day")
        once = claims.get("jti")
        if not isinstance(once, str) or not once:
            once = hashlib.sha256(id_token.encode()).hexdigest()
        return Identity(self.issuer, subject, int(expires), once)

    def _key(self, key_id: object, algorithm: str) -> jwt.PyJWK:
        stale = self._fetched_at is None or self._clock() - self._fetched_at >= KEYS_SECONDS
        self._refresh(stale or not isinstance(key_id, str) or key_id not in self._keys)
        keys = self._keys
        found = keys.get(key_id) if isinstance(key_id, str) else None
        if found is None and key_id is None and len(keys) == 1:
            found = next(iter(keys.values()))  # a provider with one key may omit kid
        if found is None:
            raise SignInRefused("the ID token is signed by a key its issuer does not publish")
        key, named = found
        if named is not None and named != algorithm:
            raise SignInRefused("the ID token's algorithm is not its key's")
        return key

    def _refresh(self, wanted: bool) -> None:
        """Fetch the discovery document and the keys again if `wanted` and due (a fetch,
        whether it works or not, at most once per REFETCH_SECONDS) and no other is under
        way; a request never waits for another's fetch, but for a new process's first."""
        now = self._clock()
        due = self._tried_at is None or now - self._tried_at >= REFETCH_SECONDS
        if wanted and due and self._fetching.acquire(blocking=False):
            try:
                self._tried_at = now
                self._keys, self._fetched_at = self._fetch_keys(), now
            except SignInUnavailable:
                if not self._keys:
                    raise
                # The provider is down: the keys kept still check the tokens they signed.
                log.warning("the sign-in provider's keys could not be fetched; using those kept")
            finally:
                self._fetching.release()
        elif not self._keys:
            # No keys yet (a new process): wait for the fetch under way, as long as it may
            # take, rather than refuse the first sign-ins of a burst.
            if self._fetching.acquire(timeout=FETCH_TIMEOUT + 1):
                self._fetching.release()
            if not self._keys:
                raise SignInUnavailable("the sign-in provider's keys could not be fetched")

    def _endpoint(self, name: str) -> str:
        """An endpoint the discovery document names: fetched as the keys are (a cheap
        `GET /v1/sign-in` makes no request of the provider of its own)."""
        if self._discovered is None:
            self._refresh(True)
        endpoint = (self._discovered or {}).get(name)
        if not isinstance(endpoint, str):
            raise SignInUnavailable(f"the provider names no {name}", 300)
        return endpoint

    def _discovery(self) -> dict[str, Any]:
        """The provider's discovery document, fetched again with the keys, and kept."""
        found = self._fetch(f"{self.issuer.rstrip('/')}/.well-known/openid-configuration")
        if not isinstance(found, dict) or found.get("issuer") != self.issuer:
            # OpenID Connect Discovery 1.0, 4.3: the document must name this very issuer
            raise SignInUnavailable("the provider's discovery document names another issuer", 300)
        self._discovered = found
        return found

    def authorization_endpoint(self) -> str:
        return self._endpoint("authorization_endpoint")

    def exchange(self, code: str, code_verifier: str, redirect_uri: str) -> str:
        """The ID token the provider's token endpoint gives for an authorization code: the
        code flow with PKCE of a public client (RFC 7636), the exchange made here so that
        the web page talks to this API alone. Any refusal is the provider's to explain."""
        endpoint = self._endpoint("token_endpoint")
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                "client_id": self.audience, "code_verifier": code_verifier}  # fmt: skip
        answer = self._post(endpoint, form)
        token = answer.get("id_token") if isinstance(answer, dict) else None
        if not isinstance(token, str):
            raise SignInRefused("the provider gave no ID token for that code")
        return token

    def _fetch_keys(self) -> dict[str, tuple[jwt.PyJWK, str | None]]:
        import jwt

        discovery = self._discovery()
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
