// Signing in (docs/accounts.md): the code flow with PKCE against the provider this API names
// (GET /v1/sign-in). The page sends the person to the provider's sign-in page with an S256
// challenge; the provider sends the browser back to /signed-in with a code, and the page
// hands the code and its verifier to this API (POST /v1/sessions), which gets the ID token
// from the provider and answers a session token. The page talks to this API alone.

import { answer, auth, client, storage } from "./api";

const PENDING_KEY = "royal-court:sign-in";
export const SIGNED_IN_PATH = "/signed-in";

function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomText(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Where to sign in, or null where this server signs nobody in (its players are guests). */
export async function provider(): Promise<Provider | null> {
  try {
    const { data } = await answer(client.GET("/v1/sign-in"));
    const { issuer, audience, authorization_endpoint: page } = data;
    return data.available && issuer && audience && page ? { issuer, audience, page } : null;
  } catch {
    return null;  // not answering now: the page offers no sign-in (a guest may still practise)
  }
}

export interface Provider { issuer: string; audience: string; page: string }

/** Off to the provider's sign-in page; back at /signed-in (`finishSignIn`). */
export async function startSignIn(where: Provider): Promise<void> {
  const verifier = randomText();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const state = randomText(16);
  const redirect = location.origin + SIGNED_IN_PATH;
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, redirect }));
  const ask = new URLSearchParams({
    response_type: "code", client_id: where.audience, redirect_uri: redirect, scope: "openid",
    state, code_challenge: base64url(digest), code_challenge_method: "S256",
  });
  location.assign(`${where.page}?${ask}`);
}

interface Pending { verifier: string; state: string; redirect: string }

function pendingSignIn(): Pending | null {
  const value: unknown = JSON.parse(sessionStorage.getItem(PENDING_KEY) || "null");
  if (typeof value !== "object" || value === null) return null;
  const { verifier, state, redirect } = value as Record<string, unknown>;
  return typeof verifier === "string" && typeof state === "string" && typeof redirect === "string"
    ? { verifier, state, redirect } : null;
}

/** Back from the provider: the session token for its code, kept as this browser's player
 * (a guest held here becomes the account's player, its games with it). */
export async function finishSignIn(): Promise<void> {
  const back = new URLSearchParams(location.search);
  const pending = pendingSignIn();
  sessionStorage.removeItem(PENDING_KEY);
  const code = back.get("code");
  if (!pending || !code || back.get("state") !== pending.state) {
    throw new Error(back.get("error_description") || back.get("error") || "The sign-in did not come back from this page: sign in again.");
  }
  const guest = storage.player();
  const { data } = await answer(client.POST("/v1/sessions", {
    body: { code, code_verifier: pending.verifier, redirect_uri: pending.redirect },
    headers: auth(guest?.token),
  }));
  storage.savePlayer(data);
}

export async function signOut(): Promise<void> {
  const player = storage.player();
  if (player) {
    try {
      await answer(client.DELETE("/v1/sessions/current", { headers: auth(player.token) }));
    } catch {
      // signed out already, or a guest's token: forgotten here either way
    }
  }
  storage.forgetPlayer();
}
