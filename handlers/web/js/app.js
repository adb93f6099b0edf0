// The router of the single-page client: /, /play → start; /play/{id} → a game; /daily.

import { api } from "./api.js";
import { dailyPage } from "./daily.js";
import { gamePage } from "./game.js";
import { startPage } from "./start.js";
import { fill, h } from "./ui.js";

const root = document.getElementById("app");
let rulesets = null;
let leave = () => {};

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

async function route() {
  leave();
  leave = () => {};
  if (rulesets === null) {
    try {
      rulesets = (await api("GET", "/v1/rulesets")).data.rulesets;
    } catch (e) {
      fill(root, h("p", { class: "message error", role: "alert" }, `The API did not answer: ${e.message}`));
      return;
    }
  }
  const game = /^\/play\/([^/]+)$/.exec(location.pathname);
  root.setAttribute("aria-busy", "true");
  const titled = document.title;
  if (game) leave = await gamePage(root, decodeURIComponent(game[1]), rulesets);
  else if (location.pathname === "/daily") leave = await dailyPage(root, rulesets, navigate);
  else leave = await startPage(root, rulesets, navigate);
  root.removeAttribute("aria-busy");
  // A page that titles itself (the game's "▶ Your turn") keeps its title.
  if (document.title === titled) document.title = `${root.querySelector("h1")?.textContent || "Royal Court"} · Royal Court`;
}

// Links inside the app change the page without a reload (a seat's fragment stays client-side).
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href^='/']");
  if (!link || link.hasAttribute("download") || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const url = new URL(link.href);
  if (url.pathname.startsWith("/v1/") || url.pathname.startsWith("/docs") || url.pathname.endsWith(".yaml")) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
window.addEventListener("popstate", route);
route();
