"""Who a player is: the identity an OpenID Connect provider vouches for, and the port that
checks an ID token (docs/accounts.md).

The port is all the use cases see; infra/oidc.py is its adapter (discovery, the issuer's keys,
PyJWT). An identity is the pair (issuer, subject): OpenID Connect promises that a subject is
never reassigned within its issuer, so the pair names one person's account for good.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Identity:
    """A verified ID token: whose it is, until when it is valid, and what makes it once-only."""

    issuer: str
    subject: str
    expires_at: int  # Unix seconds: the token's `exp`
    token_key: str  # its `jti` if it has one, else the digest of the whole token

    @property
    def account(self) -> str:
        """The account's key: a digest of issuer and subject, so that neither is stored."""
        return account_key(self.issuer, self.subject)


def account_key(issuer: str, subject: str) -> str:
    """
    >>> account_key("https://id.example", "248289761001")[:16]
    '73c9c0a739b043b6'
    """
    return hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()


class IdentityPort(Protocol):
    """Checks an ID token against the configured provider: `issuer`, for `audience`."""

    issuer: str
    audience: str

    def authorization_endpoint(self) -> str:
        """Where a client sends the person to sign in (the code flow)."""

    def exchange(self, code: str, code_verifier: str, redirect_uri: str) -> str:
        """The ID token the provider gives for an authorization code and its PKCE verifier;
        SignInRefused if it refuses the code."""

    def verify(self, id_token: str) -> Identity:
        """The token's identity; SignInRefused if the token is not one to accept (say why),
        SignInUnavailable if the provider's keys cannot be fetched now."""
