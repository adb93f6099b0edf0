// The game page, /play/{id}: the board of the seat's view, its legal moves, every move in the
// game's own words (words.js: yours, the other seat's as it arrives, a bot's, a forced one),
// panels of text over the view, waiting for the other seat (and calling the player back: the
// tab's title, a sound, a notification), and around a finished game: who won, the deal
// verified, the record, the replay and the share link.

import { api, ApiError, eventStream, newKey, pushLink, pushStream, storage } from "./api.js";
import { highlightCards, renderBoard } from "./boards.js";
import { verifyDeal } from "./deal.js";
import { focusNext, movesPanel } from "./moves.js";
import { verifyChain } from "./record.js";
import { fill, h, useSpeaker } from "./ui.js";
import { capitalized, cardsNamed, Speaker } from "./words.js";

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
    const order = ["first", "second"][data.seat] ?? `in turn ${data.seat + 1}`;
    return `You joined the game: you play ${order}.`;
  } catch (e) {
    if (storage.seat(gameId)) return null; // this browser already holds the seat: a reload
    return `This invite could not be used: ${e.message}`;
  }
}

const PREFS_KEY = "royal-court:callbacks";

/** The player's call-back choices, kept in this browser: a sound, a notification. */
function prefs() {
  try {
    return { sound: false, notify: false, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") };
  } catch {
    return { sound: false, notify: false };
  }
}

function savePrefs(next) {
  localStorage.setItem(PREFS_KEY, JSON.stringify(next));
}

let audio = null;

/** A short two-note chime, made by the page (no file to fetch). */
function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((hz, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.15);
      tone.stop(now + i * 0.15 + 0.15);
    });
  } catch {
    // no sound on this browser
  }
}

export async function gamePage(root, gameId, rulesets) {
  const page = {
    gameId, game: null, view: null, message: "", busy: false, poll: null,
    replayAt: null, verify: null, alive: true,
    events: [], // the move list: {seq, seat, move, effects (null: not known here), fresh}
    historyLoaded: false, // the log was read once: from then on, only missing moves are asked for
    said: new WeakMap(), // each move of the list → its list item, said once
    learning: Promise.resolve(),
    announce: "", // the other seat's last move, said once as it arrives
    presence: null, // a timer while an invited seat has not joined yet
  };
  const joined = await takeFragment(gameId);
  if (joined) page.message = joined;
  const seatInfo = () => storage.seat(gameId);
  const token = () => seatInfo()?.token;
  const title = (id) => rulesets.find((r) => r.id === id)?.title || id;
  const layout = (id) => rulesets.find((r) => r.id === id)?.board || "generic";
  const gestures = (id) => rulesets.find((r) => r.id === id)?.gestures || {};
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  const rulesetOf = (id) => rulesets.find((r) => r.id === id) || {};
  const baseTitle = document.title;

  /** The game's words as this page's reader hears them (seats from its side). */
  function speaker() {
    const r = rulesetOf(page.game.ruleset);
    return new Speaker(r.words, { seats: page.game.seats || [], viewer: mySeat(), maxSeats: r.seats?.max || 1 });
  }

  /**
   * Puts moves in the list by their seq, newest last: a move already listed with its effects
   * is kept; with `fresh`, these are the newest (lit on the board, revealed one by one).
   */
  function putEvents(list, fresh) {
    if (fresh) page.events.forEach((e) => { e.fresh = false; });
    const bySeq = new Map(page.events.map((e) => [e.seq, e]));
    for (const e of list) {
      const had = bySeq.get(e.seq);
      if (!had || (had.effects === null && e.effects !== null)) bySeq.set(e.seq, { ...e, fresh: Boolean(fresh) });
    }
    page.events = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    if (fresh) page.animate = true;
  }

  /** The seqs up to the game's version that the list does not hold yet. */
  function missingSeqs() {
    const have = new Set(page.events.map((e) => e.seq));
    return Array.from({ length: page.game.version }, (_, i) => i + 1).filter((seq) => !have.has(seq));
  }

  /** The move list from the log (GET …/moves): each move said, its effects not known here. */
  async function loadHistory() {
    try {
      const { data } = await api("GET", `${path}/moves`, { token: token() });
      putEvents(data.moves.map((m) => ({ seq: m.seq, seat: m.seat, move: m.move, effects: null })), false);
      page.historyLoaded = true;
      refreshWords();
      if (missingSeqs().length) learn();
    } catch {
      // the list stays as it is; the next move fills it in
    }
  }

  /**
   * The moves the list misses, up to the game's version, with what each set off (GET
   * …/replay?at=k, a seat's own view of each step); a spectator of a game in play, which may
   * not step through it, reads them from the log. The other seat's newest moves are announced.
   */
  function learn() {
    page.learning = page.learning.then(async () => {
      if (!page.historyLoaded) return; // the whole log comes first (loadHistory learns after it)
      const wanted = missingSeqs();
      if (!wanted.length) return;
      let fresh = [];
      try {
        if (!token() && page.game.status === "playing") throw new Error("a spectator reads the log");
        const steps = await Promise.all(wanted.map((seq) =>
          api("GET", `${path}/replay?at=${seq}`, { token: token() }).then((a) => a.data)));
        fresh = steps.map((step) => ({ seq: step.at, seat: step.move.seat, move: step.move.move,
                                       effects: step.effects || [] }));
      } catch {
        const { data } = await api("GET", `${path}/moves`, { token: token() }).catch(() => ({ data: { moves: [] } }));
        fresh = data.moves.filter((m) => wanted.includes(m.seq))
          .map((m) => ({ seq: m.seq, seat: m.seat, move: m.move, effects: null }));
      }
      if (!fresh.length) return;
      putEvents(fresh, true);
      const theirs = fresh.filter((e) => e.seat !== mySeat());
      if (theirs.length) announce(theirs);
      refreshWords();
    });
    return page.learning;
  }

  /** Says the other seat's moves once (the live region), and calls the player back. */
  function announce(events) {
    const voice = speaker();
    page.announce = events.map((e) => [voice.move(e.move, e.seat),
      ...(e.effects || []).map((x) => voice.effect(x, e.seat))].filter(Boolean).join(". ")).join(". ");
    callBack(voice);
  }

  /** It is this seat's turn again after waiting: the tab's title, a sound, a notification. */
  function callBack(voice) {
    if (mySeat() === null || waitingNow() || page.game.status !== "playing") return;
    const p = prefs();
    if (p.sound) chime();
    if (p.notify && document.hidden && globalThis.Notification?.permission === "granted") {
      try {
        new Notification(`Your turn · ${title(page.game.ruleset)}`, { body: page.announce || voice.move({ type: "" }, null), tag: gameId });
      } catch {
        // notifications are not offered here (a page without a service worker on some phones)
      }
    }
  }

  /** While an invited seat is still open, the host's page looks for it to be joined. */
  function watchPresence() {
    const open = (page.game.seats || []).some((s) => s.player === "human" && !s.joined);
    if (!open || page.presence || !page.alive || page.game.status !== "playing" || mySeat() === null) return;
    page.presence = setTimeout(async () => {
      page.presence = null;
      try {
        const { data } = await api("GET", path, { token: token() });
        const joinedNow = (data.game.seats || []).filter((s) => s.joined && !(page.game.seats || [])
          .find((t) => t.seat === s.seat)?.joined);
        if (data.game.version === page.game.version) {
          page.game = data.game;
          page.view = data.view;
        }
        if (joinedNow.length) {
          page.announce = `${joinedNow.map((s) => capitalized(speaker().seatName(s.seat))).join(", ")} joined the game.`;
          root.querySelector("#seats")?.replaceWith(...seatsLine().filter((n) => n?.id === "seats"));
          root.querySelector("section.invites")?.remove();
          refreshWords();
          return;
        }
      } catch {
        // try again at the next tick
      }
      watchPresence();
    }, 2000);
  }

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
          learn();
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
          if (page.game.version !== before) learn();
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
      // This move and the bots' replies, each `bot_move` opening the next one's effects; the
      // bots' moves were logged after ours, so ours is the version less their number.
      const played = [{ seat: mySeat(), move, effects: [] }];
      for (const effect of answer.data.effects || []) {
        if (effect.type === "bot_move") played.push({ seat: effect.seat, move: effect.move, effects: [] });
        else played[played.length - 1].effects.push(effect);
      }
      const first = page.game.version - played.length + 1;
      putEvents(played.map((e, i) => ({ ...e, seq: first + i })), true);
      if (missingSeqs().length) learn(); // another seat moved meanwhile (a simultaneous step)
      page.announce = played.length > 1 ? played.slice(1).map((e) => speaker().move(e.move, e.seat)).join(". ") : "";
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
      focusNext(root);
    }
  }

  function statusLine() {
    const g = page.game;
    const over = g.status !== "playing";
    const mine = mySeat() !== null;
    const several = (rulesetOf(g.ruleset).seats?.max || 1) > 1;
    const ending = over ? speaker().ending(g.outcome, page.view.outcome) : null;
    const text = over ? `Game over: ${ending.headline}`
      : !mine ? "Watching"
        : waitingNow() ? "Waiting for your opponent"
          : several ? "Your turn" : "Your move";
    return h("p", { id: "game-status", class: `status ${over ? "over" : ""}`, "data-status": g.status,
                    "data-version": g.version, "data-verdict": ending?.verdict, role: "status" },
      h("strong", {}, text), ` · ${g.version === 1 ? "1 move" : `${g.version} moves`} played`);
  }

  function mySeat() {
    const mine = seatInfo();
    if (!mine) return null;
    return typeof page.view.seat === "number" ? page.view.seat : mine.seat ?? 0;
  }

  function seatsLine() {
    const voice = speaker();
    const me = mySeat();
    const seats = page.game.seats || [];
    const daily = page.game.daily
      ? h("p", { class: "daily-tag", id: "daily-tag" }, `Daily challenge of ${page.game.daily.date}: `,
        me === null ? `${page.game.daily.name}'s ranked attempt.` : "your one ranked attempt.")
      : null;
    if (seats.length < 2) {
      return [daily, me === null ? h("p", { class: "seats" }, "You are watching this game.") : null];
    }
    const others = seats.filter((s) => s.seat !== me).map((s) => {
      const name = capitalized(voice.seatName(s.seat));
      const state = s.player === "bot" ? "" : s.joined ? "" : " (not joined yet)";
      return `${name}${state}`;
    });
    const order = (s) => (s === 0 ? "first" : s === 1 ? "second" : `in turn ${s + 1}`);
    const who = me === null ? `You are watching ${others.join(" against ")}.`
      : `You play ${order(me)}, against ${others.join(" and ")}.`;
    return [daily, h("p", { class: "seats", id: "seats" }, who)];
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
        const whom = (page.game.seats || []).length > 2 ? `The player ${inv.seat + 1}` : "Your opponent";
        return h("p", {}, h("label", { for: id }, `${whom}'s invite: send this link`), " ",
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
        h("p", {}, step.move ? `Move ${step.at}: ${speaker().move(step.move.move, step.move.seat)}.` : "The deal."),
        step.effects?.length ? h("ul", { class: "effects" }, step.effects
          .map((e) => speaker().effect(e, step.move?.seat)).filter(Boolean).map((line) => h("li", {}, line))) : null,
        renderBoard(layout(page.game.ruleset), step.view)) : null,
      step?.error ? h("p", { class: "bad" }, step.error) : null);
  }

  /**
   * A new deal with the same seats (POST /v1/games: the same ruleset, options and seats, a
   * new secret seed): at once against bots; another person gets a new invite link to send,
   * shown on the new game's page (the API carries no invite over from a finished game).
   */
  async function rematch() {
    const g = page.game;
    const seats = (g.seats || []).map((s) => (s.player === "bot" ? { player: "bot", policy: s.policy } : { player: "human" }));
    try {
      const { data } = await api("POST", "/v1/games", { body: { ruleset: g.ruleset, options: g.options, seats } });
      storage.saveSeat(data.game.id, { token: data.token, seat: data.seat, ruleset: g.ruleset, invites: data.invites });
      history.pushState(null, "", `/play/${encodeURIComponent(data.game.id)}`);
      dispatchEvent(new PopStateEvent("popstate"));
    } catch (e) {
      say(`No rematch: ${e.message}`, "error");
      render();
    }
  }

  function endPanel() {
    const g = page.game;
    // Only a game whose deals may be chosen offers its deal again (share.same_deal): in a
    // two-seat game a known deal would show one seat the other's cards.
    const same = g.share?.same_deal;
    const again = same ? `/play?from_game=${encodeURIComponent(same.from_game)}` : null;
    const ending = speaker().ending(g.outcome, page.view.outcome);
    // A ranked daily game is private until its day is over: what a player can share at once
    // is the day's challenge itself; the game's own page is public from the next day (UTC).
    const daily = g.daily ? `${location.origin}/daily` : null;
    return h("section", { class: "end", "aria-label": "After the game" },
      h("h2", {}, "Game over"),
      h("p", { class: `headline verdict-${ending.verdict}`, id: "outcome", "data-verdict": ending.verdict },
        `${ending.headline}.`),
      ending.reason ? h("p", { class: "reason", id: "outcome-reason" }, `${ending.reason}.`) : null,
      ending.score ? h("p", { class: "score", id: "outcome-score" }, `${ending.score}.`) : null,
      daily && !g.seed ? h("div", { class: "daily-share" },
        h("p", {}, h("label", { for: "share-link" }, "Challenge a friend to today's deal: "),
          h("input", { id: "share-link", readonly: true, value: daily, size: 40 }), " ",
          h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(daily).then(
            () => { say("Link copied."); render(); }, () => {}) }, "Copy")),
        h("p", { class: "small" }, "Your game itself is private until the day is over (UTC); then ",
          h("a", { href: `/play/${encodeURIComponent(gameId)}` }, "its page"), " shows it to anyone, with its seed.")) : null,
      h("p", {}, h("button", { type: "button", id: "download-record", onclick: downloadRecord }, "Download the record"),
        " ", again ? h("a", { href: again, id: "share-deal" }, "Play this deal again") : null,
        " ", (g.seats || []).length > 1 && mySeat() !== null
          ? h("button", { type: "button", id: "rematch", class: "primary", onclick: rematch },
            (g.seats || []).some((s) => s.seat !== mySeat() && s.player === "human") ? "Rematch (a new invite to send)" : "Rematch")
          : null,
        " ", h("a", { href: "/" }, "New game")),
      again ? h("p", {}, h("label", { for: "share-link" }, "Share this deal: "),
        h("input", { id: "share-link", readonly: true, value: location.origin + again, size: 40 }))
        : g.seed ? h("p", { id: "no-same-deal" }, "This game deals only secret deals, so this one is not ",
          "dealt again; its seed (above) and its record are there to check it.") : null,
      g.seed ? verifyPanel() : h("p", {}, "The seed is revealed once the day's challenge is over."),
      replayPanel());
  }

  /** The view in the game's words: its panels (running totals, the battle, the goal). */
  function wordsPanels(voice) {
    const panels = voice.panels(page.view);
    if (!panels.length) return null;
    return h("section", { class: "words-panels", "aria-label": "The game in words" },
      panels.map((p) => h("section", { class: "words-panel", "aria-label": p.label },
        h("h3", {}, p.label), h("ul", {}, p.lines.map((line) => h("li", {}, line))))));
  }

  /** One move of the list, said once and kept (a long game's list is not said again at every
   * render); only the newest arrive with an animation, their effects one after another. */
  function eventItem(e, voice, me) {
    let item = page.said.get(e);
    if (!item) {
      const details = (e.effects || []).map((x) => voice.effect(x, e.seat)).filter(Boolean);
      item = h("li", { class: `event ${e.seat === me ? "mine" : "theirs"}`, "data-seq": e.seq, value: e.seq },
        h("span", { class: "event-move" }, `${voice.move(e.move, e.seat)}.`),
        details.length ? h("ul", { class: "event-effects" }, details.map((line) => h("li", {}, `${line}.`))) : null);
      page.said.set(e, item);
    }
    const arriving = Boolean(e.fresh && page.animate);
    item.classList.toggle("fresh", arriving);
    item.querySelectorAll(".event-effects > li").forEach((li, i) => {
      li.className = arriving ? `reveal reveal-${Math.min(i + 1, 12)}` : "";
    });
    return item;
  }

  /** Every move of the game in its words, newest last, with what each set off. */
  function historyPanel(voice) {
    const me = mySeat();
    const several = (rulesetOf(page.game.ruleset).seats?.max || 1) > 1;
    return h("section", { class: "log", "aria-label": "Moves" },
      h("div", { class: "log-head" }, h("h2", {}, "Moves"),
        callbackControls(several && me !== null && page.game.status === "playing")),
      page.events.length
        ? h("ol", { id: "effects", tabindex: 0, "aria-label": "Every move, in order" },
          page.events.map((e) => eventItem(e, voice, me)))
        : h("p", { class: "empty" }, "No move yet."));
  }

  /** The call-back choices of a game of several seats: a sound, a notification. */
  function callbackControls(shown) {
    if (!shown) return null;
    const p = prefs();
    const sound = h("button", { type: "button", class: "toggle", id: "sound-toggle", "aria-pressed": String(p.sound) },
      p.sound ? "♪ Sound: on" : "♪ Sound: off");
    sound.addEventListener("click", () => {
      savePrefs({ ...prefs(), sound: !p.sound });
      if (!p.sound) chime(); // a sample, and the browser's leave to play sounds
      render();
    });
    const allowed = globalThis.Notification?.permission;
    const notify = globalThis.Notification && allowed !== "denied"
      ? h("button", { type: "button", class: "toggle", id: "notify-toggle", "aria-pressed": String(p.notify && allowed === "granted") },
        p.notify && allowed === "granted" ? "Notify me: on" : "Notify me when it is my turn")
      : null;
    notify?.addEventListener("click", async () => {
      if (p.notify && allowed === "granted") savePrefs({ ...prefs(), notify: false });
      else if ((await Notification.requestPermission()) === "granted") savePrefs({ ...prefs(), notify: true });
      render();
    });
    return h("div", { class: "callbacks" }, sound, notify);
  }

  function announceLine() {
    return h("p", { id: "announce", class: page.announce ? "announce" : "announce empty", role: "status",
                    "aria-live": "polite" }, page.announce);
  }

  /**
   * What the arriving moves change, put in place without drawing the page again (a player's
   * selection on the board stays as it is): the announcement, the move list, the lit cards.
   */
  function refreshWords() {
    if (!page.alive || !page.game) return;
    root.querySelector("#announce")?.replaceWith(announceLine());
    root.querySelector("section.log")?.replaceWith(historyPanel(speaker()));
    settleWords();
  }

  /** After the words are on the page: the newest move in sight, its cards lit on the board. */
  function settleWords() {
    const log = root.querySelector("#effects");
    if (log) log.scrollTop = log.scrollHeight;
    highlightCards(root, cardsNamed(page.events.filter((e) => e.fresh).map((e) => [e.move, e.effects])));
    page.animate = false; // the newest moves arrive (and reveal) once, not at every render
  }

  function render() {
    if (!page.alive) return;
    const g = page.game;
    const v = page.view;
    const playing = g.status === "playing";
    const legal = v.legal_moves || [];
    // Resign (and undo) are always open to a seat: it is our turn only if something else is.
    const waiting = waitingNow();
    const voice = speaker();
    useSpeaker(voice); // the move controls' labels, in the game's words
    fill(root, 
      h("h1", {}, title(g.ruleset)),
      statusLine(),
      seatsLine(),
      announceLine(),
      page.message ? h("p", { id: "message", class: `message ${page.messageKind || "info"}`, role: "alert" }, page.message) : null,
      invitesPanel(),
      commitmentLine(),
      waiting ? h("p", { class: "waiting", id: "waiting", role: "status" },
        seatInfo() ? "Waiting for your opponent…" : "Watching: the board follows the game.") : null,
      renderBoard(layout(g.ruleset), v, { terms: rulesetOf(g.ruleset).words?.terms,
        ...(playing && !page.busy ? { gestures: gestures(g.ruleset), play } : {}) }),
      playing && legal.length ? movesPanel(legal, play) : null,
      wordsPanels(voice),
      historyPanel(voice),
      playing ? null : endPanel(),
    );
    settleWords();
    const over = g.status !== "playing";
    const turn = !over && mySeat() !== null && !waiting && (rulesetOf(g.ruleset).seats?.max || 1) > 1;
    document.title = `${turn ? "▶ Your turn · " : ""}${title(g.ruleset)} · Royal Court`;
    if (waiting) waitForChange();
    watchPresence();
    if (page.historyLoaded && missingSeqs().length) learn(); // a reload after a conflict, say
  }

  try {
    await load();
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) {
      fill(root, h("h1", {}, "A ranked daily attempt"),
        h("p", { class: "message", role: "alert" }, "This game is a player's ranked attempt at a daily challenge: it stays ",
          "private until the day is over (UTC), then anyone can see it and check it here."),
        h("p", {}, h("a", { href: "/daily" }, "Play today's challenges yourself"), " · ", h("a", { href: "/" }, "Start a game")));
      return () => {};
    }
    fill(root, h("h1", {}, "Game not found"), h("p", { class: "message error", role: "alert" }, e.message),
      h("p", {}, h("a", { href: "/" }, "Start a game")));
    return () => {};
  }
  const at = new URLSearchParams(location.search).get("at");
  render();
  loadHistory();
  if (at !== null && page.game.status !== "playing") showReplay(Number(at));
  return () => {
    page.alive = false;
    stopPolling();
    clearTimeout(page.presence);
    document.title = baseTitle;
  };
}
