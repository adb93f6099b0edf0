// The router of the single-page client: /, /play → start; /play/{id} → a game; /daily;
// /players/{id} → a player's profile; /signed-in → back from the provider's sign-in page.
//
// This is the bundle's entry (esbuild bundles it and everything it imports into
// web/app.js, `make web`). It also exports the two independent implementations the
// verify panel trusts, the deal algorithm and the record's hash chain, so that a test can
// hold them to the server's (`import('/web/app.js')` gives the page's own module again).

import { answer, client } from "./api";
import type { RulesetDescription } from "./api";
import { dailyPage } from "./daily";
import { gamePage } from "./game";
import { profilePage } from "./profile";
import { SIGNED_IN_PATH, finishSignIn } from "./signin";
import { startPage } from "./start";
import { fill, h } from "./ui";

export { DealStream, deriveDeck, planProblem, sha256Hex, shuffled } from "./deal";
export { CanonicalJsonError, canonicalJson, chainCheck, moveHash, verifyChain } from "./record";

let rulesets: RulesetDescription[] | null = null;
let leave = () => {};

function navigate(path: string): void {
  history.pushState(null, "", path);
  // A new page opens at its top (the page it came from may have been scrolled down; going
  // back, the browser restores that page's place itself).
  window.scrollTo(0, 0);
  route();
}

async function route(): Promise<void> {
  const root = document.getElementById("app");
  if (!root) return;
  leave();
  leave = () => {};
  if (rulesets === null) {
    try {
      rulesets = (await answer(client.GET("/v1/rulesets"))).data.rulesets;
    } catch (e) {
      fill(root, h("p", { class: "message error", role: "alert" }, `The API did not answer: ${e instanceof Error ? e.message : String(e)}`));
      return;
    }
  }
  if (location.pathname === SIGNED_IN_PATH) {
    try {
      await finishSignIn();
      history.replaceState(null, "", "/daily");
    } catch (e) {
      history.replaceState(null, "", "/daily");
      sessionStorage.setItem("royal-court:sign-in-failed", e instanceof Error ? e.message : String(e));
    }
  }
  const game = /^\/play\/([^/]+)$/.exec(location.pathname);
  const player = /^\/players\/([^/]+)$/.exec(location.pathname);
  root.setAttribute("aria-busy", "true");
  const titled = document.title;
  if (game) leave = await gamePage(root, decodeURIComponent(game[1]), rulesets);
  else if (player) leave = await profilePage(root, decodeURIComponent(player[1]), rulesets);
  else if (location.pathname === "/daily") leave = await dailyPage(root, rulesets, navigate);
  else leave = await startPage(root, rulesets, navigate);
  root.removeAttribute("aria-busy");
  // A page that titles itself (the game's "▶ Your turn") keeps its title.
  if (document.title === titled) document.title = `${root.querySelector("h1")?.textContent || "Royal Court"} · Royal Court`;
}

// Links inside the app change the page without a reload (a seat's fragment stays client-side).
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href^='/']") : null;
  if (!link || link.hasAttribute("download") || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const url = new URL(link.href);
  if (url.pathname.startsWith("/v1/") || url.pathname.startsWith("/docs") || url.pathname.endsWith(".yaml")) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
window.addEventListener("popstate", route);
route();
