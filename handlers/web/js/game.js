// The game page, /play/{id}: the board of the seat's view, its legal moves, the effects of each
// move, waiting for the other seat, and around a finished game: the deal verified, the record,
// the replay and the share link.

import { api, ApiError, eventStream, newKey, pushLink, pushStream, storage } from "./api.js";
import { generic, renderBoard } from "./boards.js";
import { verifyDeal } from "./deal.js";
import { movesPanel } from "./moves.js";
import { verifyChain } from "./record.js";
import { effectLine, fill, h, moveLabel, words } from "./ui.js";

const LONG_POLL_SECONDS = 20;

/** Reads a token or an invite from the fragment, keeps it, and takes it out of the address. */
async function takeFragment(gameId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.has("token") && !fragment.has("invite")) return null;
  history.replaceState(null, "", location.pathname + location.search);
  if (fragment.has("token")) {
    const seat = fragment.has("seat") ? Number(fragment.get("seat")) : null;
    storage.saveSeat(gameId, { token: fragment.get("token"), seat });
    return null;
  }
  const seat = Number(fragment.get("seat") ?? 1);
  try {
    const { data } = await api("POST", `/v1/games/${encodeURIComponent(gameId)}/seats/${seat}`,
      { body: { invite: fragment.get("invite") } });
    storage.saveSeat(gameId, { token: data.token, seat: data.seat, ruleset: data.game.ruleset });
    return `You joined as seat ${data.seat + 1}.`;
  } catch (e) {
    if (storage.seat(gameId)) return null; // this browser already holds the seat: a reload
    return `This invite could not be used: ${e.message}`;
  }
}

/** The result in one line: who won, from this seat's side when it has one. */
function headline(game, seat) {
  const o = game.outcome || {};
  const score = Array.isArray(o.score) ? ` (scores ${o.score.join(" to ")})`
    : typeof o.score === "number" ? ` (score ${o.score})` : "";
  if (Number.isInteger(o.winner)) {
    const who = o.winner === seat ? "You win" : `Seat ${o.winner + 1} wins`;
    return `${who}${o.reason || o.decided_by ? ` by ${(o.reason || o.decided_by).replaceAll("_", " ")}` : ""}${score}.`;
  }
  if (o.result) {
    const result = o.result.replaceAll("_", " ");
    const mine = seat === null ? `The game ended: ${result}` : `You ${result}`;
    return `${mine}${score}.`;
  }
  return `The game is ${game.status}${score}.`;
}

export async function gamePage(root, gameId, rulesets) {
  const page = {
    gameId, game: null, view: null, log: [], message: "", busy: false, poll: null,
    replayAt: null, verify: null, alive: true,
  };
  const joined = await takeFragment(gameId);
  if (joined) page.message = joined;
  const seatInfo = () => storage.seat(gameId);
  const token = () => seatInfo()?.token;
  const title = (id) => rulesets.find((r) => r.id === id)?.title || id;
  const layout = (id) => rulesets.find((r) => r.id === id)?.board || "generic";
  const path = `/v1/games/${encodeURIComponent(gameId)}`;

  function say(text, kind = "info") {
    page.message = text;
    page.messageKind = kind;
  }

  async function load() {
    const { data, headers } = await api("GET", path, { token: token() });
    page.game = data.game;
    page.view = data.view;
    page.etag = headers.get("ETag");
    // On AWS, the WebSocket to wait on instead of /events (null for good once it has failed).
    if (page.push !== null) page.push = pushLink(headers);
  }

  function stopPolling() {
    if (page.poll) page.poll.abort();
    page.poll = null;
  }

  /** Whether this page waits for another seat (or watches): nothing to play but resign/undo. */
  function waitingNow() {
    const legal = page.view.legal_moves || [];
    return page.game.status === "playing" && !legal.some((m) => m.type !== "resign" && m.type !== "undo");
  }

  /**
   * Follows the game's event stream while it is not our move (docs/api.md, "Streams"): each
   * event is the game and this seat's view at a new version. A stream the server ends (a
   * bounded one, or a restart) is opened again with Last-Event-ID. Returns false when
   * streams fail (an old server, a proxy that buffers them): the page then long-polls.
   */
  async function followStream(controller) {
    let failures = 0;
    while (page.alive && page.poll === controller) {
      const started = Date.now();
      let events = 0;
      try {
        const from = { token: token(), lastEventId: page.game.version, signal: controller.signal };
        const source = page.push ? pushStream(page.push, from) : eventStream(`${path}/events`, from);
        for await (const { data } of source) {
          events += 1;
          failures = 0;
          if (data.game.version === page.game.version) continue;
          page.game = data.game;
          page.view = data.view;
          page.log.push({ text: `The game moved on (version ${page.game.version}).` });
          if (!waitingNow()) { // our move: the stream has done its work
            page.poll = null;
            controller.abort();
            render();
            return true;
          }
          render();
        }
        // Ended by the server: at once again, unless it ended at once with nothing (a bounded
        // stream with no place to wait), which is retried after a second, not in a loop.
        if (!events && Date.now() - started < 1000) await new Promise((resolve) => setTimeout(resolve, 1000));
      } catch (e) {
        if (controller.signal.aborted) return true;
        failures += 1;
        if (failures >= 2) return false;
        const retry = Number(e?.problem?.retryAfter);
        await new Promise((resolve) => setTimeout(resolve, (retry > 0 ? Math.min(retry, 30) : 1) * 1000));
      }
    }
    return true;
  }

  /** While it is not our move: the push WebSocket where the API links one (AWS), else the
   * event stream, else long-polls (each answers as soon as the version changes). */
  async function waitForChange() {
    if (page.poll || !page.alive) return;
    const controller = new AbortController();
    page.poll = controller;
    if (page.streams !== false) {
      if (await followStream(controller)) return;
      if (page.push && page.poll === controller && page.alive) {
        page.push = null; // the WebSocket failed twice: the event stream, then long-polls
        if (await followStream(controller)) return;
      }
      page.streams = false; // this page long-polls from now on
      if (page.poll !== controller || !page.alive) return;
    }
    while (page.alive && page.poll === controller) {
      try {
        const answer = await api("GET", `${path}?wait=${LONG_POLL_SECONDS}`, {
          token: token(), signal: controller.signal,
          headers: { "If-None-Match": `"${page.game.version}"` },
        });
        if (answer.status === 200) {
          const before = page.game.version;
          page.game = answer.data.game;
          page.view = answer.data.view;
          if (page.game.version !== before) page.log.push({ text: `The game moved on (version ${page.game.version}).` });
          page.poll = null;
          render();
          return;
        }
        // Answered at once because the server's waiting places were all taken: ask again
        // when it says (docs/api.md, "Limits"), not in a tight loop.
        const retry = Number(answer.headers.get("Retry-After"));
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(retry, 30) * 1000));
      } catch (e) {
        if (controller.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, 2000)); // the network: try again
      }
    }
  }

  async function play(move) {
    if (page.busy) return;
    page.busy = true;
    stopPolling();
    root.querySelectorAll("[data-move]").forEach((b) => { b.disabled = true; });
    const post = (key) => api("POST", `${path}/moves`, {
      body: { version: page.game.version, move }, token: token(), headers: { "Idempotency-Key": key } });
    const key = newKey();
    try {
      // No answer at all (the network): the same key again can never play the move twice.
      const answer = await post(key).catch((e) => { if (e instanceof ApiError) throw e; return post(key); });
      page.game = answer.data.game;
      page.view = answer.data.view;
      page.log.push({ text: `You: ${moveLabel(move)}`, mine: true });
      for (const effect of answer.data.effects || []) page.log.push({ text: effectLine(effect) });
      say("");
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        say(`${e.message} The game was refreshed: look again and choose.`, "warning");
        await load().catch(() => {});
      } else if (e instanceof ApiError && e.status === 422) {
        say(`That move was refused: ${e.message}`, "error");
      } else {
        say(`Could not play: ${e.message}`, "error");
        await load().catch(() => {});
      }
    } finally {
      page.busy = false;
      render();
      root.querySelector("[data-move]:not([disabled])")?.focus();
    }
  }

  function statusLine() {
    const g = page.game;
    const over = g.status !== "playing";
    const text = over ? `Game over: ${g.status}` : "Playing";
    return h("p", { id: "game-status", class: `status ${over ? "over" : ""}`, "data-status": g.status,
                    "data-version": g.version, role: "status" },
      h("strong", {}, text), ` · move ${g.version}`,
      g.outcome ? ` · ${words(g.outcome)}` : "");
  }

  function mySeat() {
    const mine = seatInfo();
    if (!mine) return null;
    return typeof page.view.seat === "number" ? page.view.seat : mine.seat ?? 0;
  }

  function seatsLine() {
    const mine = seatInfo();
    const seatOf = mySeat();
    const who = mine ? `You play seat ${(seatOf ?? 0) + 1}.` : "You are watching (no seat on this browser).";
    const seats = (page.game.seats || []).map((s) =>
      `seat ${s.seat + 1}: ${s.player === "bot" ? `bot (${s.policy})` : s.joined ? "human" : "open"}`);
    return h("p", { class: "seats" }, who, seats.length > 1 ? ` ${seats.join(" · ")}` : "");
  }

  function invitesPanel() {
    const mine = seatInfo();
    const open = (mine?.invites || []).filter((inv) =>
      !(page.game.seats || []).find((s) => s.seat === inv.seat)?.joined);
    if (!open.length || page.game.status !== "playing") return null;
    return h("section", { class: "invites", "aria-label": "Invite" }, h("h2", {}, "Invite a player"),
      open.map((inv) => {
        const link = `${location.origin}/play/${gameId}#invite=${encodeURIComponent(inv.invite)}&seat=${inv.seat}`;
        const id = `invite-${inv.seat}`;
        return h("p", {}, h("label", { for: id }, `Seat ${inv.seat + 1}: send this link`), " ",
          h("input", { id, class: "invite-link", readonly: true, value: link, size: 40 }), " ",
          h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link).then(
            () => { say("Invite link copied."); render(); }, () => {}) }, "Copy"));
      }));
  }

  function commitmentLine() {
    const g = page.game;
    return h("details", { class: "fairness" },
      h("summary", {}, "Fair deal: ", g.seed ? `seed ${g.seed}` : "seed sealed until the end"),
      h("p", {}, "Seed commitment (SHA-256 of the seed, published before play): ",
        h("code", { class: "commitment" }, g.seed_commitment)),
      g.seed ? h("p", {}, "Seed: ", h("code", { class: "seed" }, g.seed)) : null);
  }

  async function runVerify() {
    page.verify = { running: true };
    render();
    try {
      const [{ data: step }, { data: record }] = await Promise.all([
        api("GET", `${path}/replay?at=0`, { token: token() }),
        api("GET", `${path}/record`, { token: token() }),
      ]);
      const deal = await verifyDeal(page.game, step.deal_plan, step.deck || [], step.view);
      const chain = await verifyChain(page.game, record);
      page.verify = { ok: deal.ok && chain.ok, checks: [...deal.checks, chain], deck: deal.deck };
    } catch (e) {
      page.verify = { ok: false, checks: [{ name: "Verification could not run", ok: false, detail: e.message }] };
    }
    render();
  }

  async function downloadRecord() {
    try {
      const { data } = await api("GET", `${path}/record`, { token: token() });
      const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `royal-court-${gameId}.json` });
      document.body.append(link);
      link.click();
      link.remove();
    } catch (e) {
      say(`Could not fetch the record: ${e.message}`, "error");
      render();
    }
  }

  async function showReplay(at) {
    page.replayAt = at;
    try {
      const { data } = await api("GET", `${path}/replay?at=${at}`, { token: token() });
      if (page.replayAt === at) page.replay = data;
    } catch (e) {
      page.replay = { error: e.message, at };
    }
    render();
  }

  function verifyPanel() {
    const v = page.verify;
    const result = v && !v.running
      ? h("div", { id: "verify-result", "data-verified": String(v.ok), role: "status" },
          h("p", { class: v.ok ? "ok" : "bad" }, v.ok ? "✔ This deal is verified." : "✘ This deal did not verify."),
          h("ul", {}, v.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" },
            `${c.ok ? "✔" : "✘"} ${c.name}`, h("br"), h("small", {}, c.detail)))))
      : v?.running ? h("p", { role: "status" }, "Checking…") : null;
    return h("section", { class: "verify", "aria-label": "Verify this deal" }, h("h2", {}, "Verify this deal"),
      h("p", {}, "Your browser hashes the revealed seed, re-deals the cards with the public deal algorithm ",
        "and compares them with the game the server dealt, then re-computes the record's hash chain ",
        "move by move from the commitment."),
      h("button", { type: "button", id: "verify-deal", onclick: runVerify }, "Verify this deal"), result);
  }

  function replayPanel() {
    const max = page.game.version;
    const at = page.replayAt ?? max;
    const step = page.replay;
    const slider = h("input", { type: "range", id: "replay-at", min: 0, max, value: at, step: 1,
                               "aria-label": "Replay position" });
    slider.addEventListener("change", () => showReplay(Number(slider.value)));
    const go = (k) => () => showReplay(Math.max(0, Math.min(max, k)));
    return h("section", { class: "replay", "aria-label": "Replay" }, h("h2", {}, "Replay"),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: go(0) }, "« Deal"),
        h("button", { type: "button", onclick: go(at - 1) }, "◀ Back"),
        slider,
        h("button", { type: "button", onclick: go(at + 1) }, "Next ▶"),
        h("output", { for: "replay-at", id: "replay-position" }, `step ${at} of ${max}`)),
      step && !step.error && step.at === at ? h("div", { class: "replay-step", "data-at": step.at },
        h("p", {}, step.move ? `Move ${step.at}: ${moveLabel(step.move.move || step.move)}` : "The deal."),
        step.effects?.length ? h("ul", { class: "effects" }, step.effects.map((e) => h("li", {}, effectLine(e)))) : null,
        renderBoard(layout(page.game.ruleset), step.view)) : null,
      step?.error ? h("p", { class: "bad" }, step.error) : null);
  }

  function endPanel() {
    const g = page.game;
    // Only a game whose deals may be chosen offers its deal again (share.same_deal): in a
    // two-seat game a known deal would show one seat the other's cards.
    const same = g.share?.same_deal;
    const again = same ? `/play?from_game=${encodeURIComponent(same.from_game)}` : null;
    return h("section", { class: "end", "aria-label": "After the game" },
      h("h2", {}, "Game over"),
      h("p", { class: "headline", id: "outcome" }, headline(g, mySeat())),
      h("details", { class: "outcome" }, h("summary", {}, "The outcome in full"), generic(g.outcome)),
      h("p", {}, h("button", { type: "button", id: "download-record", onclick: downloadRecord }, "Download the record"),
        " ", again ? h("a", { href: again, id: "share-deal" }, "Play this deal again") : null,
        " ", h("a", { href: "/" }, "New game")),
      again ? h("p", {}, h("label", { for: "share-link" }, "Share this deal: "),
        h("input", { id: "share-link", readonly: true, value: location.origin + again, size: 40 }))
        : g.seed ? h("p", { id: "no-same-deal" }, "This game deals only secret deals, so this one is not ",
          "dealt again; its seed (above) and its record are there to check it.") : null,
      g.seed ? verifyPanel() : h("p", {}, "The seed is revealed once the day's challenge is over."),
      replayPanel());
  }

  function render() {
    if (!page.alive) return;
    const g = page.game;
    const v = page.view;
    const playing = g.status === "playing";
    const legal = v.legal_moves || [];
    // Resign (and undo) are always open to a seat: it is our turn only if something else is.
    const waiting = waitingNow();
    fill(root, 
      h("h1", {}, title(g.ruleset)),
      statusLine(),
      seatsLine(),
      page.message ? h("p", { id: "message", class: `message ${page.messageKind || "info"}`, role: "alert" }, page.message) : null,
      invitesPanel(),
      commitmentLine(),
      playing && legal.length ? movesPanel(legal, play) : null,
      waiting ? h("p", { class: "waiting", id: "waiting", role: "status" },
        seatInfo() ? "Waiting for your opponent…" : "Watching: the board follows the game.") : null,
      renderBoard(layout(g.ruleset), v),
      page.log.length ? h("section", { class: "log", "aria-label": "What happened" }, h("h2", {}, "What happened"),
        h("ol", { id: "effects", "aria-live": "polite", tabindex: 0, "aria-label": "Effects of each move" }, page.log.slice(-40).map((line) =>
          h("li", { class: line.mine ? "mine" : "" }, line.text)))) : null,
      playing ? null : endPanel(),
    );
    const log = root.querySelector("#effects");
    if (log) log.scrollTop = log.scrollHeight; // the newest line in sight
    if (waiting) waitForChange();
  }

  try {
    await load();
  } catch (e) {
    fill(root, h("h1", {}, "Game not found"), h("p", { class: "message error", role: "alert" }, e.message),
      h("p", {}, h("a", { href: "/" }, "Start a game")));
    return () => {};
  }
  const at = new URLSearchParams(location.search).get("at");
  render();
  if (at !== null && page.game.status !== "playing") showReplay(Number(at));
  return () => { page.alive = false; stopPolling(); };
}
