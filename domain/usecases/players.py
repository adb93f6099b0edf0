"""Players (docs/accounts.md): guests, and accounts signed in with OpenID Connect.

A guest is a player made by `POST /v1/players`: a name and a token, nothing else. Signing in
with an ID token from the configured provider makes (or finds) the account's player and hands
out a session token of this server, in the same `player_id.secret` form as a guest's, so that
a client keeps one kind of bearer token. A guest that signs in while holding its own token
becomes the account's player, its games with it. Only tokens' hashes are kept.
"""

from __future__ import annotations

import hmac
from dataclasses import replace

from domain.errors import (
    AccountTaken,
    InvalidRequest,
    Json,
    NoSignIn,
    NotAPlayersToken,
    PlayerNotFound,
    SignInRefused,
    SignInRequired,
    Unauthenticated,
)
from domain.identity import Identity
from domain.names import display_name
from domain.registry import GAMES
from domain.stored import PlayerRecord
from domain.streaks import daily_statistics, since
from domain.usecases.court import GAME_ID, Court, token_digest

MAX_SESSIONS = 8
"""Session tokens an account keeps at once (devices signed in); the oldest goes first."""
MAX_ID_TOKEN = 8192
"""Characters of an ID token read at most: a provider's are about 1 KB."""
GUEST_NAME = "Player"
"""An account's first name when the sign-in names none (renamed later by the player)."""


def create_player(court: Court, name: object) -> Json:
    """A guest: a name and a token."""
    player_id = court.new_secret()[:16]
    shown = display_name(name, player_id)
    secret = court.new_secret()
    court.players.create_player(PlayerRecord(player_id, shown, token_digest(secret), court.clock()))
    return {"player_id": player_id, "name": shown, "token": f"{player_id}.{secret}"}


def player_of(court: Court, token: str | None) -> PlayerRecord:
    """The player a token is for: a guest's token or one of an account's session tokens."""
    if token is None:
        raise Unauthenticated("this needs a player's token (POST /v1/players, or sign in)")
    player_id, _, secret = token.partition(".")
    player = court.players.load_player(player_id) if GAME_ID.fullmatch(player_id) else None
    if player is None or not _holds(player, token_digest(secret)):
        raise NotAPlayersToken(
            "this is not a player's token (signed out, or replaced by newer sign-ins): sign in "
            "again, or make a guest"
        )
    return player


def _holds(player: PlayerRecord, digest: str) -> bool:
    # Every hash compared, in constant time each: which one matched is nobody's business.
    found = bool(player.token_hash) and hmac.compare_digest(digest, player.token_hash)
    for session in player.sessions:
        found |= hmac.compare_digest(digest, session)
    return found


def provider(court: Court) -> Json:
    """Whether a client may sign in here and where: the issuer, the client id its ID tokens
    must be for, and where to send a person to sign in (the code flow). A server without a
    provider says so (`available: false`): a normal answer, which every client asks first."""
    if court.identities is None:
        return {"available": False}
    return {"available": True, "issuer": court.identities.issuer,
            "audience": court.identities.audience,
            "authorization_endpoint": court.identities.authorization_endpoint()}  # fmt: skip


def sign_in_with_code(
    court: Court, code: str, code_verifier: str, redirect_uri: str, name: object,
    guest_token: str | None,
) -> Json:  # fmt: skip
    """Sign in with an authorization code a web page came back with: the provider gives its
    ID token for it here (the page talks to this API alone), then as `sign_in`."""
    if court.identities is None:
        raise NoSignIn(NO_PROVIDER)
    if guest_token is not None:
        player_of(court, guest_token)  # refused before the code is spent
    id_token = court.identities.exchange(code, code_verifier, redirect_uri)
    return sign_in(court, id_token, name, guest_token)


NO_PROVIDER = "this server has no sign-in provider: players are guests (POST /v1/players)"


def sign_in(court: Court, id_token: object, name: object, guest_token: str | None) -> Json:
    """Verify the ID token, find or make its account's player, and hand out a session token.

    The token signs in once (a copied or replayed token is refused); `name` names a new
    account's player (a guest attached keeps its own); `guest_token` attaches that guest."""
    if court.identities is None:
        raise NoSignIn(NO_PROVIDER)
    if not isinstance(id_token, str) or not 1 <= len(id_token) <= MAX_ID_TOKEN:
        raise SignInRefused(f"an ID token is a JWT of at most {MAX_ID_TOKEN} characters")
    identity = court.identities.verify(id_token)
    guest = player_of(court, guest_token) if guest_token is not None else None
    if name is not None:
        display_name(name, "0")  # refused before anything is written
    found = court.players.load_account(identity.account)
    if guest is not None and guest.account != identity.account:
        if guest.account is not None:
            raise AccountTaken("this guest token is another account's player's")
        if found is not None:
            raise AccountTaken("that account has a player already: sign in without the guest")
    # The player is found, made or attached first, the token claimed after: a sign-in that
    # loses a race (AccountTaken) leaves its token unused. Only an account with no player yet
    # is written to before the claim, and its token cannot have signed in before.
    player = _account_player(court, identity, name, guest, found)
    once = token_digest(f"{identity.issuer}\n{identity.token_key}")  # kept as a digest
    if not court.players.claim_once(once, identity.expires_at):
        raise SignInRefused("this ID token was used already: sign in again for a new one")
    secret = court.new_secret()
    _add_session(court, player, token_digest(secret))
    return {"player_id": player.id, "name": player.name, "token": f"{player.id}.{secret}"}


def _account_player(
    court: Court, identity: Identity, name: object, guest: PlayerRecord | None, found: str | None
) -> PlayerRecord:
    account = identity.account
    if guest is not None:
        if guest.account == account:
            return guest  # signed in again on a device that holds the account's token
        court.players.attach_account(guest.id, account)  # AccountTaken if one came first
        return replace(guest, account=account, token_hash="")
    if found is None:
        player_id = court.new_secret()[:16]
        shown = display_name(GUEST_NAME if name is None else name, player_id)
        made = PlayerRecord(player_id, shown, "", court.clock(), account)
        try:
            court.players.create_player(made)
            return made
        except AccountTaken:  # a sign-in of the same account on another device came first
            found = court.players.load_account(account)
    player = court.players.load_player(found) if found is not None else None
    if player is None:
        raise PlayerNotFound("the account's player could not be read; sign in again")
    return player


def _add_session(court: Court, player: PlayerRecord, digest: str) -> None:
    """Keep the new session's hash, newest first, at most MAX_SESSIONS; a sign-in on another
    device meanwhile is read again, so that neither session is lost."""
    for _ in range(5):
        sessions = (digest, *player.sessions)[:MAX_SESSIONS]
        if court.players.save_sessions(player.id, player.sessions, sessions):
            return
        again = court.players.load_player(player.id)
        if again is None:
            raise PlayerNotFound("the player was deleted meanwhile")
        player = again
    raise AccountTaken("too many sign-ins of this account at once: retry")


def sign_out(court: Court, token: str | None) -> None:
    """Forget this session token. A guest's token is the guest itself: refused, unchanged."""
    player = player_of(court, token)
    digest = token_digest((token or "").partition(".")[2])
    if player.token_hash and hmac.compare_digest(digest, player.token_hash):
        raise InvalidRequest("token", "a guest's token is the guest itself: it has no session")
    for _ in range(5):
        kept = tuple(s for s in player.sessions if not hmac.compare_digest(s, digest))
        if kept == player.sessions or court.players.save_sessions(player.id, player.sessions, kept):
            return
        player = player_of(court, token)


def rename(court: Court, token: str | None, name: object) -> Json:
    """A new name, under the name rules; its tag (from the player's id) stays, so that
    others still tell the player apart. Boards keep the name each entry was made under."""
    player = player_of(court, token)
    shown = display_name(name, player.id)
    court.players.rename_player(player.id, shown)
    return _own(court, replace(player, name=shown))  # as read, renamed: no second read


def me(court: Court, token: str | None) -> Json:
    """The player a token is for, as only that player sees it."""
    return _own(court, player_of(court, token))


def _own(court: Court, player: PlayerRecord) -> Json:
    return _public(court, player) | {"sessions": len(player.sessions)}


def profile(court: Court, player_id: str) -> Json:
    """What anyone may see of a player: its name, when it joined, whether it is an account's
    (signed in) or a guest, and its daily statistics (domain/streaks.py)."""
    player = court.players.load_player(player_id) if GAME_ID.fullmatch(player_id) else None
    if player is None:
        raise PlayerNotFound(f"no player {player_id[:80]!r}")
    return _public(court, player)


def _public(court: Court, player: PlayerRecord) -> Json:
    today = court.today()
    attempts = court.deals.attempts_of(player.id, since(today))
    solitaires = [g.id for g in GAMES.values() if g.ruleset.max_seats == 1]
    return {
        "player_id": player.id,
        "name": player.name,
        "joined": player.created_at,
        "signed_in": player.account is not None,
        "dailies": daily_statistics(solitaires, attempts, today),
    }


def require_account(court: Court, player: PlayerRecord) -> None:
    """Where a provider is configured, what ranks is a signed-in account's (one per person)."""
    if court.identities is not None and player.account is None:
        raise SignInRequired(
            "today's ranked challenge is for signed-in players (POST /v1/sessions); a guest "
            "may practise any past day's deal"
        )
