// The daily challenges page: today's deal of every solitaire, one ranked attempt per player
// (asked for once more before it is dealt: it cannot be taken again), and the leaderboards,
// readable on a phone. A player is a name and a token kept in this browser.

import { ApiError, answer, auth, client, storage } from "./api";
import type { DailyRuleset, Leaderboard, RulesetDescription } from "./api";
import { provider, signOut, startSignIn } from "./signin";
import { fill, h, words } from "./ui";
import type { Child } from "./ui";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A ruleset of today's challenges as the spec's daily paths name it: the server listed it
 * among them, and the spec's enum of daily rulesets is what this page may not spell out. */
const dailyRuleset = (id: string): DailyRuleset => id as DailyRuleset;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A result as the game's words say it ("won", "lost"), capitalised. */
function resultWords(ruleset: RulesetDescription | undefined, result: string | undefined): string {
  const results = ruleset?.words?.ending?.results || {};
  const said = (result !== undefined && Object.hasOwn(results, result) ? results[result] : "") || words(result);
  return said[0].toUpperCase() + said.slice(1);
}

/** A shown name split into what the player typed and the server's distinguishing tag
 * ("#1a2b3c4d": a name may not hold "#" itself, so the last one starts the tag). */
export function splitName(name: string): { typed: string; tag: string } {
  const at = name.lastIndexOf("#");
  return at > 0 ? { typed: name.slice(0, at), tag: name.slice(at) } : { typed: name, tag: "" };
}

/** A player's name as typed, then its tag set apart, whole: it may go to the next line but is
 * never split itself. */
export function nameParts(name: string): Child[] {
  const { typed, tag } = splitName(name);
  return tag ? [typed, " ", h("span", { class: "player-tag", title: "tells players of the same name apart" }, tag)]
    : [typed];
}

function board(data: Leaderboard, ruleset: RulesetDescription | undefined): HTMLElement {
  if (!data.entries.length) return h("p", { class: "empty" }, "Nobody has finished yet.");
  const head = [["Rank", "num"], ["Player", ""], ["Result", ""], ["Score", "num"], ["Moves", "num"]];
  return h("table", { class: "leaderboard" },
    h("thead", {}, h("tr", {}, head.map(([t, c]) => h("th", { scope: "col", class: c || null }, t)))),
    h("tbody", {}, data.entries.map((e) => h("tr", {},
      h("td", { class: "num" }, e.rank),
      h("td", { class: "name" }, h("a", { href: `/players/${encodeURIComponent(e.player_id)}`, title: "this player's profile" }, ...nameParts(e.name))),
      h("td", {}, resultWords(ruleset, e.result)), h("td", { class: "num" }, e.score),
      h("td", { class: "num" }, e.moves)))));
}

export async function dailyPage(root: HTMLElement, rulesets: readonly RulesetDescription[],
                                navigate: (path: string) => void): Promise<() => void> {
  const rulesetOf = (id: string) => rulesets.find((r) => r.id === id);
  const title = (id: string) => rulesetOf(id)?.title || id;
  const notice = h("p", { class: "message", role: "alert" });
  let day;
  try {
    ({ data: day } = await answer(client.GET("/v1/daily/{date}", { params: { path: { date: "today" } } })));
  } catch (e) {
    fill(root, h("h1", {}, "Daily challenges"), h("p", { class: "message error", role: "alert" }, message(e)));
    return () => {};
  }
  let player = storage.player();
  // Where the server signs players in, today's ranked attempts are for signed-in players: a
  // guest is offered the sign-in (and keeps its games: it becomes the account's player).
  const signIn = await provider();
  let signedIn = false;
  if (player && signIn) {
    try {
      signedIn = (await answer(client.GET("/v1/me", { headers: auth(player.token) }))).data.signed_in;
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) { storage.forgetPlayer(); player = null; }
    }
  }
  const failed = sessionStorage.getItem("royal-court:sign-in-failed");
  sessionStorage.removeItem("royal-court:sign-in-failed");
  const account = signIn ? h("div", { class: "account" },
    signedIn ? [h("span", {}, "Signed in as ", ...nameParts(player?.name || ""), " · "),
      h("a", { href: `/players/${encodeURIComponent(player?.player_id || "")}` }, "your profile"), " ",
      h("button", { type: "button", "data-sign-out": "" }, "Sign out")]
      : [h("button", { type: "button", class: "primary", "data-sign-in": "" }, "Sign in"),
        h("span", { class: "small" }, " Today's ranked attempts are for signed-in players",
          player ? "; your guest name and games come with you." : ".")]) : null;
  account?.querySelector("[data-sign-in]")?.addEventListener("click", () => {
    if (signIn) startSignIn(signIn).catch((e) => { notice.textContent = message(e); });
  });
  account?.querySelector("[data-sign-out]")?.addEventListener("click", async () => {
    await signOut();
    dailyPage(root, rulesets, navigate);
  });
  const canRank = Boolean(player) && (!signIn || signedIn);
  // The field holds the name as the player typed it; the tag the server added is shown apart.
  const mine = player ? splitName(player.name) : null;
  const nameForm = h("form", { class: "player", "aria-label": "Your player name" },
    h("label", { for: "player-name" }, "Your name on the leaderboards "),
    h("input", { id: "player-name", name: "name", maxlength: 40, required: true, value: mine?.typed || "" }),
    " ", h("button", { type: "submit" }, player ? "Change" : "Save"),
    mine?.tag ? h("p", { class: "small", id: "player-shown" }, "Shown as ", h("strong", {}, mine.typed), " ",
      h("span", { class: "player-tag" }, mine.tag), ": the tag tells players of the same name apart.") : null);
  nameForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const input = nameForm.elements.namedItem("name");
      const name = input instanceof HTMLInputElement ? input.value : "";
      if (signedIn && player) {
        const { data: renamed } = await answer(client.PATCH("/v1/me", { body: { name }, headers: auth(player.token) }));
        storage.savePlayer({ ...player, name: renamed.name });
      } else {
        const { data } = await answer(client.POST("/v1/players", { body: { name } }));
        storage.savePlayer(data);
      }
      dailyPage(root, rulesets, navigate);
    } catch (e) {
      notice.textContent = message(e);
    }
  });
  const sections = await Promise.all(day.challenges.map(async (c) => {
    let leaders: Leaderboard | null;
    // Your own place is asked only of a board you have an attempt on (dealt on this device, or
    // named by the server when you asked for a second): a rank costs the server more reads
    // than the board, and most of the boards a page shows are not yours.
    const attempted = storage.dailyAttempt(day.date, c.ruleset) !== null;
    try {
      ({ data: leaders } = await answer(client.GET("/v1/daily/{date}/{ruleset}/leaderboard", {
        params: { path: { date: day.date, ruleset: dailyRuleset(c.ruleset) }, query: { limit: 10 } },
        headers: auth(attempted ? player?.token : undefined) })));
    } catch {
      leaders = null;
    }
    const you = leaders?.you;
    const play = h("button", { type: "button", class: "primary", "data-daily": c.ruleset, disabled: !canRank },
      you?.finished ? "See your game" : you?.played ? "Resume your attempt" : "Play today's deal");
    // The one ranked attempt is dealt only once the player has said so, here.
    const confirm = h("div", { class: "daily-confirm", role: "alertdialog", hidden: true,
                               "aria-labelledby": `daily-confirm-${c.ruleset}` },
      h("p", { id: `daily-confirm-${c.ruleset}` }, h("strong", {}, "This is your one ranked attempt at today's ",
        title(c.ruleset), ".")),
      h("p", {}, "It counts from the first card: a lost game, or one left unfinished, uses it up, and ",
        "there is no second try today. Everyone plays this same deal."),
      h("button", { type: "button", class: "primary", "data-daily-confirm": c.ruleset }, "Deal my ranked attempt"),
      " ", h("button", { type: "button", class: "daily-cancel" }, "Not now"));
    const [go, cancel] = confirm.querySelectorAll("button");
    const deal = async () => {
      try {
        const { data } = await answer(client.POST("/v1/daily/{date}/{ruleset}/games", {
          params: { path: { date: day.date, ruleset: dailyRuleset(c.ruleset) } }, headers: auth(player?.token) }));
        storage.saveSeat(data.game.id, { token: data.token, seat: 0, ruleset: c.ruleset });
        storage.saveDailyAttempt(day.date, c.ruleset, data.game.id);
        navigate(`/play/${data.game.id}`);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409 && e.problem.gameId) {
          // Dealt already (on another device): from now on this page shows your place.
          storage.saveDailyAttempt(day.date, c.ruleset, e.problem.gameId);
        }
        notice.textContent = message(e);
      }
    };
    play.addEventListener("click", () => {
      if (you?.game_id) {
        navigate(`/play/${you.game_id}`);
        return;
      }
      confirm.hidden = false;
      play.hidden = true;
      go.focus();
    });
    go.addEventListener("click", () => { go.disabled = true; deal(); });
    cancel.addEventListener("click", () => {
      confirm.hidden = true;
      play.hidden = false;
      play.focus();
    });
    const stars = "★".repeat(c.difficulty) + "☆".repeat(Math.max(0, 5 - c.difficulty));
    return h("section", { class: "ruleset daily", "data-daily-ruleset": c.ruleset, "aria-labelledby": `daily-${c.ruleset}` },
      h("h2", { id: `daily-${c.ruleset}` }, title(c.ruleset)),
      h("p", {}, h("span", { "aria-label": `difficulty ${c.difficulty} of 5` }, stars),
        ` · bots win ${Math.round(c.bot_win_rate * 100)}% · ${plural(c.players, "player")} so far`),
      h("p", { class: "small" }, "Commitment ", h("code", {}, c.seed_commitment.slice(0, 16) + "…")),
      you?.finished ? h("p", { class: "you" },
        `You: rank ${you.rank}, ${resultWords(rulesetOf(c.ruleset), you.result).toLowerCase()}, score ${you.score}`) : null,
      canRank ? [play, confirm] : h("p", {}, signIn ? "Sign in to play." : "Save a name to play."),
      h("h3", {}, "Leaderboard"), leaders ? board(leaders, rulesetOf(c.ruleset)) : h("p", {}, "unavailable"));
  }));
  fill(root, h("h1", {}, `Daily challenges · ${day.date}`),
    h("p", {}, "One ranked attempt a day at each game; everyone gets the same deal. The seeds are revealed tomorrow."),
    account, nameForm, notice, h("div", { class: "rulesets" }, sections));
  if (failed) notice.textContent = failed;
  return () => {};
}
