// The start page (/ and /play): every ruleset of GET /v1/rulesets with a form built from its
// option schema, an optional seed, and for games of several seats who sits where.

import { answer, client, storage } from "./api";
import type { CreateGame, OptionDescription, RulesetDescription } from "./api";
import { fill, h } from "./ui";

const SEED_PATTERN = "[A-Za-z0-9._:\\-]{1,128}";

function optionField(ruleset: RulesetDescription, option: OptionDescription): HTMLElement {
  const id = `${ruleset.id}-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  const help = h("small", { id: `${id}-help` }, option.description);
  if (option.type === "boolean") {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, name: option.name, checked: option.default === true,
                   "aria-describedby": `${id}-help` }),
      h("label", { for: id }, label), help);
  }
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { type: "number", id, name: option.name, min: option.minimum, max: option.maximum,
                 step: 1, value: typeof option.default === "number" ? option.default : "", placeholder: option.nullable ? "default" : null,
                 required: !option.nullable, "aria-describedby": `${id}-help` }),
    help);
}

function seatField(ruleset: RulesetDescription, seat: number): HTMLElement {
  const id = `${ruleset.id}-seat-${seat}`;
  const who = ruleset.seats.max === 2 ? "Your opponent" : `Player ${seat + 1}`;
  // A seat past the game's fewest may stay empty (a game of 3 to 4 players).
  const optional = seat >= ruleset.seats.min
    ? h("option", { value: "none", selected: true }, "nobody (fewer players)") : null;
  return h("div", { class: "field" }, h("label", { for: id }, who),
    h("select", { id, name: `seat-${seat}` }, optional,
      h("option", { value: "human" }, "a person (you get an invite link)"),
      ruleset.policies.map((p) => h("option", { value: `bot:${p}`, selected: p === "best" && seat === 1 }, `Bot (${p})`))));
}

// `seats` (offered where the number of players may vary) is set by the server from the seats
// chosen below, so it is not asked for twice.
const gameOptions = (ruleset: RulesetDescription) => ruleset.options.filter((o) => o.name !== "seats");

/** The form's input of this name (every field of the form is an input or a select). */
function field(form: HTMLFormElement, name: string): HTMLInputElement | HTMLSelectElement | null {
  const input = form.elements.namedItem(name);
  return input instanceof HTMLInputElement || input instanceof HTMLSelectElement ? input : null;
}

function readOptions(form: HTMLFormElement, ruleset: RulesetDescription): Record<string, boolean | number | null> {
  const options: Record<string, boolean | number | null> = {};
  for (const option of gameOptions(ruleset)) {
    const input = field(form, option.name);
    if (!input) continue;
    if (option.type === "boolean") options[option.name] = input instanceof HTMLInputElement && input.checked;
    else if (input.value === "") options[option.name] = null;
    else options[option.name] = Number(input.value);
  }
  return options;
}

function rulesetCard(ruleset: RulesetDescription, navigate: (path: string) => void, fromGame: string | null): HTMLElement {
  const form = h("form", { class: "new-game", "aria-label": `New game of ${ruleset.title}` });
  const status = h("p", { class: "message", role: "alert" });
  const seats = ruleset.seats.max > 1
    ? h("fieldset", {}, h("legend", {}, "Who plays (you play first)"),
        Array.from({ length: ruleset.seats.max - 1 }, (_, i) => seatField(ruleset, i + 1)))
    : null;
  const options = !fromGame && gameOptions(ruleset).length
    ? h("details", { class: "options" }, h("summary", {}, "Options"), gameOptions(ruleset).map((o) => optionField(ruleset, o)))
    : null;
  const seedId = `${ruleset.id}-seed`;
  // A ruleset whose deals are always the server's secret (`chosen_deals: false`: a seed one
  // seat knew would show it the other's cards) takes no seed.
  const seed = fromGame || ruleset.chosen_deals === false ? null : h("div", { class: "field" },
    h("label", { for: seedId }, "Seed (optional: share a deal)"),
    h("input", { id: seedId, name: "seed", pattern: SEED_PATTERN, maxlength: 128, autocomplete: "off",
                 placeholder: "secret, revealed at the end" }));
  form.append(...[options, seed, seats].flatMap((n) => (n ? [n] : [])),
    h("button", { type: "submit", class: "primary" }, fromGame ? "Play this deal" : "Deal"), status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body: { ruleset: string; from_game?: string; options?: Record<string, boolean | number | null>; seed?: string;
                  seats?: { player: "human" | "bot"; policy?: string }[] } = { ruleset: ruleset.id };
    if (fromGame) body.from_game = fromGame;
    else {
      body.options = readOptions(form, ruleset);
      const seedValue = field(form, "seed")?.value;
      if (seedValue) body.seed = seedValue;
    }
    if (ruleset.seats.max > 1) {
      const seats: { player: "human" | "bot"; policy?: string }[] = [{ player: "human" }];
      for (let seat = 1; seat < ruleset.seats.max; seat += 1) {
        const [player, policy] = (field(form, `seat-${seat}`)?.value || "none").split(":");
        if (player === "human" || player === "bot") seats.push(policy ? { player, policy } : { player });
      }
      body.seats = seats;
    }
    try {
      // The spec's create request is one variant per ruleset (its options' schema); this page
      // names none, so it sends what the ruleset's own description (GET /v1/rulesets) offers.
      const { data } = await answer(client.POST("/v1/games", { body: body as CreateGame }));
      storage.saveSeat(data.game.id, { token: data.token, seat: data.seat, ruleset: ruleset.id,
                                       invites: data.invites });
      navigate(`/play/${data.game.id}`);
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
      status.classList.add("error");
    }
  });
  return h("section", { class: "ruleset", "data-ruleset": ruleset.id, "aria-labelledby": `${ruleset.id}-title` },
    h("h2", { id: `${ruleset.id}-title` }, ruleset.title),
    h("p", { class: "seats" }, ruleset.seats.max === 1 ? "Solitaire"
      : ruleset.seats.min < ruleset.seats.max ? `${ruleset.seats.min} to ${ruleset.seats.max} players`
        : `${ruleset.seats.max} players`),
    form);
}

export async function startPage(root: HTMLElement, rulesets: readonly RulesetDescription[],
                                navigate: (path: string) => void): Promise<() => void> {
  const fromGame = new URLSearchParams(location.search).get("from_game");
  let shown = rulesets;
  let intro = h("p", {}, "Pick a game. Every deal is fair and checkable: its seed is sealed by a published ",
    "commitment before play and revealed when the game is over.");
  if (fromGame) {
    try {
      const { data } = await answer(client.GET("/v1/games/{game_id}", { params: { path: { game_id: fromGame } } }));
      shown = rulesets.filter((r) => r.id === data.game.ruleset);
      const when = new Date(data.game.created_at);
      const dealt = Number.isNaN(when.getTime()) ? ""
        : ` dealt on ${when.toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" })}`;
      const name = shown[0]?.title || "this game";
      intro = h("p", {}, `Play the same deal as a finished game of ${name}${dealt}: the same cards, a fresh game.`);
      if (shown.some((r) => r.chosen_deals === false)) {
        intro = h("p", { class: "message error", role: "alert" },
          "That deal cannot be shared: this game deals only secret deals.");
        shown = [];
      }
    } catch (e) {
      intro = h("p", { class: "message error", role: "alert" }, `That deal cannot be shared: ${e instanceof Error ? e.message : String(e)}`);
      shown = [];
    }
  }
  const recent = storage.recent();
  fill(root, 
    h("h1", {}, "Royal Court"),
    intro,
    h("div", { class: "rulesets" }, shown.map((r) => rulesetCard(r, navigate, fromGame))),
    recent.length ? h("section", { class: "recent", "aria-label": "Your games" }, h("h2", {}, "Your games on this browser"),
      h("ul", {}, recent.map((g) => h("li", {}, h("a", { href: `/play/${g.id}` }, rulesets.find((r) => r.id === g.ruleset)?.title || "A game"),
        ` · ${g.at.slice(0, 16).replace("T", " ")}`)))) : null,
  );
  return () => {};
}
