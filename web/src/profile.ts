// A player's page (/players/{id}): the public profile the API gives anyone, its name, when it
// joined, whether it signed in, and each solitaire's daily challenges: attempts, wins, the
// best score, the streak of days and the badges streaks earn.

import { ApiError, answer, client } from "./api";
import type { PlayerProfile, RulesetDescription } from "./api";
import { fill, h } from "./ui";
import { nameParts } from "./daily";

const BADGE_WORDS: Record<string, string> = {
  "streak-3": "3 days in a row", "streak-7": "A week in a row", "streak-30": "30 days in a row",
  "streak-100": "100 days in a row", "streak-365": "A whole year in a row",
};

function days(n: number): string {
  return n === 1 ? "1 day" : `${n} days`;
}

function joinedOn(at: string): string {
  return new Date(at).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

function statistics(profile: PlayerProfile, rulesets: readonly RulesetDescription[]): HTMLElement {
  const title = (id: string) => rulesets.find((r) => r.id === id)?.title || id;
  // One card per solitaire, its figures a list of terms: a phone's width holds it.
  return h("div", { class: "profile-dailies" }, profile.dailies.map((row) => {
    const figures: [string, string | number][] = [
      ["Played", row.played], ["Won", row.won], ["Lost", row.lost],
      ["Best score", row.best_score === null ? "—" : row.best_score],
      ["Streak now", days(row.current_streak)], ["Best streak", days(row.best_streak)],
    ];
    return h("section", { class: "profile-ruleset", "data-profile-ruleset": row.ruleset },
      h("h3", {}, title(row.ruleset)),
      h("dl", {}, figures.flatMap(([term, value]) => [h("dt", {}, term), h("dd", { "data-figure": term }, value)])));
  }));
}

function badges(profile: PlayerProfile, rulesets: readonly RulesetDescription[]): HTMLElement {
  const title = (id: string) => rulesets.find((r) => r.id === id)?.title || id;
  const earned = profile.dailies.flatMap((row) => row.badges.map((b) => `${BADGE_WORDS[b] || b} · ${title(row.ruleset)}`));
  if (!earned.length) return h("p", { class: "empty" }, "No badges yet: finish the daily challenge three days in a row for the first.");
  return h("ul", { class: "badges" }, earned.map((b) => h("li", { class: "badge" }, "🏅 ", b)));
}

export async function profilePage(root: HTMLElement, playerId: string,
                                  rulesets: readonly RulesetDescription[]): Promise<() => void> {
  let profile: PlayerProfile;
  try {
    ({ data: profile } = await answer(client.GET("/v1/players/{player_id}", { params: { path: { player_id: playerId } } })));
  } catch (e) {
    const text = e instanceof ApiError && e.status === 404 ? "No player has this link." : `The API did not answer: ${e instanceof Error ? e.message : String(e)}`;
    fill(root, h("h1", {}, "Player"), h("p", { class: "message error", role: "alert" }, text));
    return () => {};
  }
  fill(root,
    h("h1", { class: "player-name" }, ...nameParts(profile.name)),
    h("p", {}, `Joined ${joinedOn(profile.joined)} · `,
      profile.signed_in ? "signed-in player" : "guest (not signed in)"),
    h("h2", {}, "Daily challenges"), statistics(profile, rulesets),
    h("h2", {}, "Badges"), badges(profile, rulesets),
    h("p", {}, h("a", { href: "/daily" }, "Today's daily challenges")));
  return () => {};
}
