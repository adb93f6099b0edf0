// The daily challenges page: today's deal of every solitaire, one ranked attempt per player,
// and the leaderboards. A player is a name and a token kept in this browser.

import { api, storage } from "./api.js";
import { fill, h } from "./ui.js";

function board(data) {
  if (!data.entries.length) return h("p", { class: "empty" }, "Nobody has finished yet.");
  return h("table", { class: "leaderboard" },
    h("thead", {}, h("tr", {}, ["#", "player", "result", "score", "moves"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, data.entries.map((e) => h("tr", {},
      h("td", {}, e.rank), h("td", {}, e.name), h("td", {}, e.result), h("td", {}, e.score), h("td", {}, e.moves)))));
}

export async function dailyPage(root, rulesets, navigate) {
  const title = (id) => rulesets.find((r) => r.id === id)?.title || id;
  const message = h("p", { class: "message", role: "alert" });
  let day;
  try {
    ({ data: day } = await api("GET", "/v1/daily/today"));
  } catch (e) {
    fill(root, h("h1", {}, "Daily challenges"), h("p", { class: "message error", role: "alert" }, e.message));
    return () => {};
  }
  const player = storage.player();
  const nameForm = h("form", { class: "player", "aria-label": "Your player name" },
    h("label", { for: "player-name" }, "Your name on the leaderboards "),
    h("input", { id: "player-name", name: "name", maxlength: 40, required: true, value: player?.name || "" }),
    " ", h("button", { type: "submit" }, player ? "Change" : "Save"));
  nameForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { data } = await api("POST", "/v1/players", { body: { name: nameForm.elements.name.value } });
      storage.savePlayer(data);
      dailyPage(root, rulesets, navigate);
    } catch (e) {
      message.textContent = e.message;
    }
  });
  const sections = await Promise.all(day.challenges.map(async (c) => {
    let leaders;
    try {
      ({ data: leaders } = await api("GET", `${c.leaderboard}?limit=10`, { token: player?.token }));
    } catch (e) {
      leaders = null;
    }
    const you = leaders?.you;
    const play = h("button", { type: "button", class: "primary", "data-daily": c.ruleset, disabled: !player },
      you?.finished ? "See your game" : you?.played ? "Resume your attempt" : "Play today's deal");
    play.addEventListener("click", async () => {
      try {
        if (you?.game_id) {
          navigate(`/play/${you.game_id}`);
          return;
        }
        const { data } = await api("POST", `/v1/daily/${day.date}/${c.ruleset}/games`, { token: player.token });
        storage.saveSeat(data.game.id, { token: data.token, seat: 0, ruleset: c.ruleset });
        navigate(`/play/${data.game.id}`);
      } catch (e) {
        message.textContent = e.message;
      }
    });
    return h("section", { class: "ruleset daily", "data-daily-ruleset": c.ruleset, "aria-labelledby": `daily-${c.ruleset}` },
      h("h2", { id: `daily-${c.ruleset}` }, title(c.ruleset)),
      h("p", {}, `Difficulty ${c.difficulty} · bots win ${Math.round(c.bot_win_rate * 100)}% · ${c.players} players`),
      h("p", { class: "small" }, "Commitment ", h("code", {}, c.seed_commitment.slice(0, 16) + "…")),
      you?.finished ? h("p", { class: "you" }, `You: rank ${you.rank}, ${you.result}, score ${you.score}`) : null,
      player ? play : h("p", {}, "Save a name to play."),
      h("h3", {}, "Leaderboard"), leaders ? board(leaders) : h("p", {}, "unavailable"));
  }));
  fill(root, h("h1", {}, `Daily challenges · ${day.date}`),
    h("p", {}, "One ranked attempt a day at each game; everyone gets the same deal. The seeds are revealed tomorrow."),
    nameForm, message, h("div", { class: "rulesets" }, sections));
  return () => {};
}
