// The game page, /play/{id}: the board of the seat's view, its legal moves, every move in the
// game's own words (words.ts: yours, the other seat's as it arrives, a bot's, a forced one),
// panels of text over the view, waiting for the other seat (and calling the player back: the
// tab's title, a sound, a notification), and around a finished game: who won, the deal
// verified, the record, the replay and the share link.

import { answer, answerOrUnchanged, ApiError, auth, client, eventStream, newKey, pushLink, pushStream, storage } from "./api";
import type { Effect, Game, GameEvent, LoggedMoveBody, Move, ReplayStep, RulesetDescription, View } from "./api";
import { highlightCards, renderBoard } from "./boards";
import { splitName } from "./daily";
import { verifyDeal } from "./deal";
import type { Check } from "./deal";
import { focusNext, movesPanel } from "./moves";
import { verifyChain } from "./record";
import { fill, h, isObject, useSpeaker } from "./ui";
import type { Child, JsonObject } from "./ui";
import { capitalized, cardsNamed, Speaker } from "./words";

const LONG_POLL_SECONDS = 20;
/** How many of the newest moves a load reads with their effects (one GET …/replay?at=k each:
 * the API has no way to read many steps' effects at once), and how many more at each ask. */
const DETAILED_ON_LOAD = 20;
const DETAILED_PER_ASK = 40;
const STEPS_AT_ONCE = 4;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Reads a token or an invite from the fragment, keeps it, and takes it out of the address. */
async function takeFragment(gameId: string): Promise<string | null> {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.has("token") && !fragment.has("invite")) return null;
  history.replaceState(null, "", location.pathname + location.search);
  const token = fragment.get("token");
  if (token !== null) {
    const seat = fragment.has("seat") ? Number(fragment.get("seat")) : null;
    storage.saveSeat(gameId, { token, seat });
    return null;
  }
  const seat = Number(fragment.get("seat") ?? 1);
  try {
    const { data } = await answer(client.POST("/v1/games/{game_id}/seats/{seat}", {
      params: { path: { game_id: gameId, seat } }, body: { invite: fragment.get("invite") ?? "" } }));
    storage.saveSeat(gameId, { token: data.token, seat: data.seat, ruleset: data.game.ruleset });
    const order = ["first", "second"][data.seat] ?? `in turn ${data.seat + 1}`;
    return `You joined the game: you play ${order}.`;
  } catch (e) {
    if (storage.seat(gameId)) return null; // this browser already holds the seat: a reload
    return `This invite could not be used: ${message(e)}`;
  }
}

const PREFS_KEY = "royal-court:callbacks";

interface Prefs {
  sound: boolean;
  notify: boolean;
}

/** The player's call-back choices, kept in this browser: a sound, a notification. */
function prefs(): Prefs {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}");
    const read = (key: keyof Prefs) => (isObject(saved) ? Boolean(saved[key]) : false);
    return { sound: read("sound"), notify: read("notify") };
  } catch {
    return { sound: false, notify: false };
  }
}

function savePrefs(next: Prefs): void {
  localStorage.setItem(PREFS_KEY, JSON.stringify(next));
}

let audio: AudioContext | null = null;

/** A short two-note chime, made by the page (no file to fetch). */
function chime(): void {
  try {
    const context = audio || new AudioContext();
    audio = context;
    const now = context.currentTime;
    [660, 880].forEach((hz, i) => {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
      tone.connect(gain).connect(context.destination);
      tone.start(now + i * 0.15);
      tone.stop(now + i * 0.15 + 0.15);
    });
  } catch {
    // no sound on this browser
  }
}

/** One move of the move list: what it did is `effects` (null: not known here). */
interface Listed {
  seq: number;
  seat: number | null;
  move: LoggedMoveBody | Move | JsonObject; // a bot's move comes inside an effect
  effects: Effect[] | null;
  fresh: boolean;
}

type Unlisted = Omit<Listed, "fresh">;

interface Verification {
  running?: boolean;
  ok?: boolean;
  checks?: Check[];
}

type ReplayShown = ReplayStep | { error: string; at: number };

/** The seat of a view (a game of several seats says whose it is), or null. */
const viewSeat = (view: View): number | null => ("seat" in view && typeof view.seat === "number" ? view.seat : null);

/** The seats that may move now (a game of several seats says so), or none. */
const toMove = (view: View): readonly number[] => ("to_move" in view ? view.to_move : []);

export async function gamePage(root: HTMLElement, gameId: string, rulesets: readonly RulesetDescription[]): Promise<() => void> {
  const joined = await takeFragment(gameId);
  const seatInfo = () => storage.seat(gameId);
  const token = () => seatInfo()?.token;
  const rulesetOf = (id: string): RulesetDescription | undefined => rulesets.find((r) => r.id === id);
  const title = (id: string) => rulesetOf(id)?.title || id;
  const layout = (id: string) => rulesetOf(id)?.board || "generic";
  const gestures = (id: string) => rulesetOf(id)?.gestures || {};
  const maxSeats = (id: string) => rulesetOf(id)?.seats?.max || 1;
  const params = { path: { game_id: gameId } };
  const baseTitle = document.title;

  const readGame = () => answer(client.GET("/v1/games/{game_id}", { params, headers: auth(token()) }));

  let first;
  try {
    first = await readGame();
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) {
      fill(root, h("h1", {}, "A ranked daily attempt"),
        h("p", { class: "message", role: "alert" }, "This game is a player's ranked attempt at a daily challenge: it stays ",
          "private until the day is over (UTC), then anyone can see it and check it here."),
        h("p", {}, h("a", { href: "/daily" }, "Play today's challenges yourself"), " · ", h("a", { href: "/" }, "Start a game")));
      return () => {};
    }
    fill(root, h("h1", {}, "Game not found"), h("p", { class: "message error", role: "alert" }, message(e)),
      h("p", {}, h("a", { href: "/" }, "Start a game")));
    return () => {};
  }

  const page = {
    game: first.data.game as Game,
    view: first.data.view as View,
    etag: first.headers.get("ETag"),
    /** On AWS, the WebSocket to wait on instead of /events (null for good once it has failed). */
    push: pushLink(first.headers) as string | null,
    pushFailed: false,
    streams: true, // false: this page long-polls from now on
    latest: first.data.game.version, // the newest version heard of (the other seat's sealed move)
    message: joined || "",
    messageKind: "info",
    busy: false,
    heldBack: [] as GameEvent["data"][], // events heard while our move was being sent
    poll: null as AbortController | null,
    replayAt: null as number | null,
    replay: null as ReplayShown | null,
    verify: null as Verification | null,
    alive: true,
    events: [] as Listed[], // the move list
    historyLoaded: false, // the log was read once: from then on, only missing moves are asked for
    detailing: false, // the effects of moves read from the log are being read (GET …/replay?at=k)
    said: new WeakMap<Listed, HTMLLIElement>(), // each move of the list → its list item, said once
    learning: Promise.resolve(),
    animate: false,
    announce: "", // the other seat's last move, said once as it arrives
    presence: null as ReturnType<typeof setTimeout> | null, // a timer while an invited seat has not joined yet
    rematchWatch: null as ReturnType<typeof setTimeout> | null, // a timer while the other seat may ask for a rematch
  };

  /** The game's words as this page's reader hears them (seats from its side). */
  function speaker(): Speaker {
    const r = rulesetOf(page.game.ruleset);
    return new Speaker(r?.words, { seats: page.game.seats || [], viewer: mySeat(), maxSeats: r?.seats?.max || 1 });
  }

  /**
   * Puts moves in the list by their seq, newest last: a move already listed with its effects
   * is kept; with `fresh`, these are the newest (lit on the board, revealed one by one).
   */
  function putEvents(list: readonly Unlisted[], fresh: boolean): void {
    if (fresh) page.events.forEach((e) => { e.fresh = false; });
    const bySeq = new Map(page.events.map((e) => [e.seq, e]));
    for (const e of list) {
      const had = bySeq.get(e.seq);
      if (!had || (had.effects === null && e.effects !== null)) bySeq.set(e.seq, { ...e, fresh });
    }
    page.events = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    if (fresh) page.animate = true;
  }

  /** The newest version this page knows of: the game's, or a sealed move heard since. */
  const heard = () => Math.max(page.game.version, page.latest);

  /** The seqs up to the newest version that the list does not hold yet. */
  function missingSeqs(): number[] {
    const have = new Set(page.events.map((e) => e.seq));
    return Array.from({ length: heard() }, (_, i) => i + 1).filter((seq) => !have.has(seq));
  }

  const readLog = () => answer(client.GET("/v1/games/{game_id}/moves", { params, headers: auth(token()) }));
  const readStep = (at: number) => answer(client.GET("/v1/games/{game_id}/replay", {
    params: { ...params, query: { at } }, headers: auth(token()) }));
  const readRecord = () => answer(client.GET("/v1/games/{game_id}/record", { params, headers: auth(token()) }));

  /**
   * The move list from the log (GET …/moves), then what the newest moves set off. The log
   * holds no effects, and the API gives a move's effects only one step at a time (GET
   * …/replay?at=k), so a load reads them for the newest DETAILED_ON_LOAD moves only; the
   * earlier ones are read a batch at a time when the player asks (historyPanel's button).
   */
  async function loadHistory(): Promise<void> {
    try {
      const { data } = await readLog();
      putEvents(data.moves.map((m) => ({ seq: m.seq, seat: m.seat, move: m.move, effects: null })), false);
      page.historyLoaded = true;
      refreshWords();
      if (missingSeqs().length) learn();
      await detail(undetailed().slice(-DETAILED_ON_LOAD));
    } catch {
      // the list stays as it is; the next move fills it in
    }
  }

  /** Whether this page may read the steps of the game (a spectator of a game in play may not). */
  const maySteps = () => Boolean(token()) || page.game.status !== "playing";

  /** The seqs of the list whose effects are not known yet, oldest first. */
  const undetailed = () => (maySteps() ? page.events.filter((e) => e.effects === null).map((e) => e.seq) : []);

  /** Reads what the moves `seqs` set off, STEPS_AT_ONCE requests at a time, into the list. */
  async function detail(seqs: readonly number[]): Promise<void> {
    if (!seqs.length || page.detailing || !maySteps()) return;
    page.detailing = true;
    try {
      for (let i = 0; i < seqs.length && page.alive; i += STEPS_AT_ONCE) {
        const steps = await Promise.all(seqs.slice(i, i + STEPS_AT_ONCE)
          .map((seq) => readStep(seq).then((a) => a.data, () => null)));
        const got = steps.flatMap((step) => (step?.move ? [{ seq: step.at, seat: step.move.seat,
                                                              move: step.move.move, effects: step.effects || [] }] : []));
        if (!got.length) break; // the steps cannot be read here: the list stays as the log says it
        putEvents(got, false);
      }
    } finally {
      page.detailing = false;
      refreshWords();
    }
  }

  /**
   * The moves the list misses, up to the game's version, with what each set off (GET
   * …/replay?at=k, a seat's own view of each step); a spectator of a game in play, which may
   * not step through it, reads them from the log. The other seat's newest moves are announced.
   * `callBack`: the page was waiting, so this may be its turn again (a sound, a notification).
   */
  function learn(callBack = true): Promise<void> {
    page.learning = page.learning.then(async () => {
      if (!page.historyLoaded) return; // the whole log comes first (loadHistory learns after it)
      const wanted = missingSeqs();
      if (!wanted.length) return;
      let fresh: Unlisted[] = [];
      try {
        if (!token() && page.game.status === "playing") throw new Error("a spectator reads the log");
        const steps = await Promise.all(wanted.map((seq) => readStep(seq).then((a) => a.data)));
        fresh = steps.flatMap((step) => (step.move ? [{ seq: step.at, seat: step.move.seat, move: step.move.move,
                                                        effects: step.effects || [] }] : []));
      } catch {
        const moves = await readLog().then((a) => a.data.moves, () => []);
        fresh = moves.filter((m) => wanted.includes(m.seq))
          .map((m) => ({ seq: m.seq, seat: m.seat, move: m.move, effects: null }));
      }
      if (!fresh.length) return;
      putEvents(fresh, true);
      const theirs = fresh.filter((e) => e.seat !== mySeat());
      if (theirs.length) announce(theirs, callBack);
      refreshWords();
    });
    return page.learning;
  }

  /** Says the other seat's moves once (the live region), and calls the player back. */
  function announce(events: readonly Unlisted[], calling: boolean): void {
    const voice = speaker();
    page.announce = events.map((e) => [voice.move(e.move, e.seat),
      ...(e.effects || []).map((x) => voice.effect(x, e.seat))].filter(Boolean).join(". ")).join(". ");
    if (calling) callBack(voice);
  }

  /** It is this seat's turn again after waiting: the tab's title, a sound, a notification. */
  function callBack(voice: Speaker): void {
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
  function watchPresence(): void {
    const open = (page.game.seats || []).some((s) => s.player === "human" && !s.joined);
    if (!open || page.presence || !page.alive || page.game.status !== "playing" || mySeat() === null) return;
    page.presence = setTimeout(async () => {
      page.presence = null;
      try {
        const { data } = await readGame();
        const joinedNow = (data.game.seats || []).filter((s) => s.joined && !(page.game.seats || [])
          .find((t) => t.seat === s.seat)?.joined);
        if (data.game.version === page.game.version) {
          page.game = data.game;
          page.view = data.view;
        }
        if (joinedNow.length) {
          page.announce = `${joinedNow.map((s) => capitalized(speaker().seatName(s.seat))).join(", ")} joined the game.`;
          root.querySelector("#seats")?.replaceWith(...seatsLine().filter((n): n is HTMLElement => n?.id === "seats"));
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

  function say(text: string, kind = "info"): void {
    page.message = text;
    page.messageKind = kind;
  }

  async function load(): Promise<void> {
    const { data, headers } = await readGame();
    page.game = data.game;
    page.view = data.view;
    page.etag = headers.get("ETag");
    if (!page.pushFailed) page.push = pushLink(headers);
  }

  function stopPolling(): void {
    if (page.poll) page.poll.abort();
    page.poll = null;
  }

  /** Whether this page waits for another seat (or watches): nothing to play but resign/undo. */
  function waitingNow(): boolean {
    const legal: readonly Move[] = page.view.legal_moves || [];
    return page.game.status === "playing" && !legal.some((m) => m.type !== "resign" && m.type !== "undo");
  }

  /** A simultaneous step: this seat may move, and so may another, whose sealed move the page
   * shows as it comes ("Opponent places…") while the player chooses. */
  function othersMoveToo(): boolean {
    const me = mySeat();
    return page.game.status === "playing" && me !== null && toMove(page.view).some((s) => s !== me);
  }

  /** Whether the page follows the game's events now: while it waits, or in a simultaneous step. */
  const following = () => waitingNow() || othersMoveToo();

  /** The legal moves as text: what decides whether the board must be drawn again. */
  const legalText = () => JSON.stringify(page.view.legal_moves || []);

  /**
   * An event of the stream (or an answer of a long-poll), shown. Returns true when the page
   * stops following: it is our move alone now.
   *
   * In a simultaneous step, while this seat is choosing, the other seat's sealed move leaves
   * this seat's moves as they were (and its version current: the server accepts a move at it):
   * the move is said and the panels follow ("Opponent: done"), while the board, what the
   * player has selected on it and the version it plays at stay as they are.
   */
  function arrived(data: GameEvent["data"]): boolean {
    const waited = waitingNow();
    page.latest = Math.max(page.latest, data.game.version);
    if (!waited && othersMoveToo() && data.game.status === "playing"
        && JSON.stringify(data.view.legal_moves || []) === legalText()) {
      page.view = data.view;
      learn(false);
      refreshState();
      return !following();
    }
    page.game = data.game;
    page.view = data.view;
    learn(waited);
    render();
    return !following();
  }

  /**
   * Follows the game's event stream from the first time it is not our move alone until the
   * game ends (docs/api.md, "Streams"): each event is the game and this seat's view at a new
   * version. It stays open through our own moves (their events are already known and skipped),
   * so that a seat holds one connection for a whole game, not one per turn: on AWS a reconnect
   * is a WebSocket connect and a watch (issue 39's capacity model). Events heard while our move
   * is being sent are held back until its answer is in. A stream the server ends (a bounded
   * one, or a restart) is opened again with Last-Event-ID. Returns false when streams fail (an
   * old server, a proxy that buffers them): the page then long-polls.
   */
  async function followStream(controller: AbortController): Promise<boolean> {
    let failures = 0;
    while (page.alive && page.poll === controller) {
      const started = Date.now();
      let events = 0;
      try {
        const from = { token: token(), lastEventId: heard(), signal: controller.signal };
        const source = page.push ? pushStream(page.push, from) : eventStream(gameId, from);
        for await (const { data } of source) {
          events += 1;
          failures = 0;
          if (page.busy) {
            page.heldBack.push(data);
            continue;
          }
          if (data.game.version > heard()) arrived(data); // else known (our own move's, say)
          if (page.game.status !== "playing") { // over: the stream has done its work
            page.poll = null;
            controller.abort();
            return true;
          }
        }
        // Ended by the server (a bounded stream, a restart). While it is our move alone, it is
        // not opened again until we have moved (render calls waitForChange): a bounded stream
        // would otherwise hold one of the server's waiting places all through our turn.
        if (!following()) {
          page.poll = null;
          return true;
        }
        // Else at once again, unless it ended at once with nothing (a bounded stream with no
        // place to wait), which is retried after a second, not in a loop.
        if (!events && Date.now() - started < 1000) await new Promise((resolve) => setTimeout(resolve, 1000));
      } catch (e) {
        if (controller.signal.aborted) return true;
        failures += 1;
        if (failures >= 2) return false;
        const retry = Number(e instanceof ApiError ? e.problem.retryAfter : undefined);
        await new Promise((resolve) => setTimeout(resolve, (retry > 0 ? Math.min(retry, 30) : 1) * 1000));
      }
    }
    return true;
  }

  /** While it is not our move alone: the push WebSocket where the API links one (AWS), else
   * the event stream, else long-polls (each answers as soon as the version changes). */
  async function waitForChange(): Promise<void> {
    if (page.poll || !page.alive) return;
    const controller = new AbortController();
    page.poll = controller;
    if (page.streams) {
      if (await followStream(controller)) return;
      if (page.push && page.poll === controller && page.alive) {
        page.push = null; // the WebSocket failed twice: the event stream, then long-polls
        page.pushFailed = true;
        if (await followStream(controller)) return;
      }
      page.streams = false; // this page long-polls from now on
      if (page.poll !== controller || !page.alive) return;
    }
    while (page.alive && page.poll === controller) {
      try {
        const got = await answerOrUnchanged(client.GET("/v1/games/{game_id}", {
          params: { ...params, query: { wait: LONG_POLL_SECONDS } }, signal: controller.signal,
          headers: auth(token(), { "If-None-Match": `"${heard()}"` }),
        }));
        if (got.status === 200 && got.data) {
          if (page.busy) { // our move is being sent: its answer first, then ask again
            page.heldBack.push(got.data);
            page.poll = null;
            return;
          }
          if (got.data.game.version === heard()) {
            page.game = got.data.game;
            page.view = got.data.view;
            page.poll = null;
            render();
            return;
          }
          if (arrived(got.data)) {
            page.poll = null;
            return;
          }
          continue; // still following (a simultaneous step): wait for the next change
        }
        // Answered at once because the server's waiting places were all taken: ask again
        // when it says (docs/api.md, "Limits"), not in a tight loop.
        const retry = Number(got.headers.get("Retry-After"));
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(retry, 30) * 1000));
      } catch {
        if (controller.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, 2000)); // the network: try again
      }
    }
  }

  async function play(move: Move): Promise<void> {
    if (page.busy) return;
    page.busy = true;
    if (!page.streams) stopPolling(); // a long-poll ends; a stream stays open (followStream)
    root.querySelectorAll<HTMLButtonElement>("[data-move]").forEach((b) => { b.disabled = true; });
    const post = (key: string) => answer(client.POST("/v1/games/{game_id}/moves", {
      params, body: { version: page.game.version, move }, headers: auth(token(), { "Idempotency-Key": key }) }));
    const key = newKey();
    try {
      // No answer at all (the network): the same key again can never play the move twice.
      const sent = await post(key).catch((e: unknown) => { if (e instanceof ApiError) throw e; return post(key); });
      page.game = sent.data.game;
      page.view = sent.data.view;
      // This move and the bots' replies, each `bot_move` opening the next one's effects; the
      // bots' moves were logged after ours, so ours is the version less their number.
      const played: Omit<Unlisted, "seq">[] = [{ seat: mySeat(), move, effects: [] }];
      for (const effect of sent.data.effects || []) {
        if (effect.type === "bot_move") {
          played.push({ seat: typeof effect.seat === "number" ? effect.seat : null,
                        move: isObject(effect.move) ? effect.move : {}, effects: [] });
        } else played[played.length - 1].effects?.push(effect);
      }
      const firstSeq = page.game.version - played.length + 1;
      putEvents(played.map((e, i) => ({ ...e, seq: firstSeq + i })), true);
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
        say(`Could not play: ${message(e)}`, "error");
        await load().catch(() => {});
      }
    } finally {
      page.busy = false;
      for (const data of page.heldBack.splice(0)) { // heard while our move was being sent
        if (data.game.version > heard()) arrived(data);
      }
      if (page.game.status !== "playing") stopPolling(); // our move ended it: nothing to follow
      render();
      focusNext(root);
    }
  }

  function statusLine(): HTMLElement {
    const g = page.game;
    const over = g.status !== "playing";
    const mine = mySeat() !== null;
    const several = maxSeats(g.ruleset) > 1;
    const ending = over ? speaker().ending(g.outcome, page.view.outcome) : null;
    const text = ending ? `Game over: ${ending.headline}`
      : !mine ? "Watching"
        : waitingNow() ? "Waiting for your opponent"
          : several ? "Your turn" : "Your move";
    return h("p", { id: "game-status", class: `status ${over ? "over" : ""}`, "data-status": g.status,
                    "data-version": g.version, "data-verdict": ending?.verdict, role: "status" },
      // The moves heard of: in a simultaneous step the other seat's sealed move counts at once
      // on both pages (data-version stays the version this page plays at).
      h("strong", {}, text), ` · ${heard() === 1 ? "1 move" : `${heard()} moves`} played`);
  }

  function mySeat(): number | null {
    const mine = seatInfo();
    if (!mine) return null;
    return viewSeat(page.view) ?? mine.seat ?? 0;
  }

  function seatsLine(): (HTMLElement | null)[] {
    const voice = speaker();
    const me = mySeat();
    const seats = page.game.seats || [];
    const daily = page.game.daily
      ? h("p", { class: "daily-tag", id: "daily-tag" }, `Daily challenge of ${page.game.daily.date}: `,
        ...(me === null ? [splitName(page.game.daily.name).typed, " ",
          h("span", { class: "player-tag" }, splitName(page.game.daily.name).tag), "'s ranked attempt."]
          : ["your one ranked attempt."]))
      : null;
    if (seats.length < 2) {
      return [daily, me === null ? h("p", { class: "seats" }, "You are watching this game.") : null];
    }
    const others = seats.filter((s) => s.seat !== me).map((s) => {
      const name = capitalized(voice.seatName(s.seat));
      const state = s.player === "bot" ? "" : s.joined ? "" : " (not joined yet)";
      return `${name}${state}`;
    });
    const order = (s: number) => (s === 0 ? "first" : s === 1 ? "second" : `in turn ${s + 1}`);
    const who = me === null ? `You are watching ${others.join(" against ")}.`
      : `You play ${order(me)}, against ${others.join(" and ")}.`;
    return [daily, h("p", { class: "seats", id: "seats" }, who)];
  }

  function invitesPanel(): HTMLElement | null {
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

  function commitmentLine(): HTMLElement {
    const g = page.game;
    return h("details", { class: "fairness" },
      h("summary", {}, "Fair deal: ", g.seed ? `seed ${g.seed}` : "seed sealed until the end"),
      h("p", {}, "Seed commitment (SHA-256 of the seed, published before play): ",
        h("code", { class: "commitment" }, g.seed_commitment)),
      g.seed ? h("p", {}, "Seed: ", h("code", { class: "seed" }, g.seed)) : null);
  }

  async function runVerify(): Promise<void> {
    page.verify = { running: true };
    render();
    try {
      const [{ data: step }, { data: record }] = await Promise.all([readStep(0), readRecord()]);
      const deal = await verifyDeal(page.game, step.deal_plan, step.deck || [], step.view);
      const chain = await verifyChain(page.game, record);
      page.verify = { ok: deal.ok && chain.ok, checks: [...deal.checks, chain] };
    } catch (e) {
      page.verify = { ok: false, checks: [{ name: "Verification could not run", ok: false, detail: message(e) }] };
    }
    render();
  }

  async function downloadRecord(): Promise<void> {
    try {
      const { data } = await readRecord();
      const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `royal-court-${gameId}.json` });
      document.body.append(link);
      link.click();
      link.remove();
    } catch (e) {
      say(`Could not fetch the record: ${message(e)}`, "error");
      render();
    }
  }

  async function showReplay(at: number): Promise<void> {
    page.replayAt = at;
    try {
      const { data } = await readStep(at);
      if (page.replayAt === at) page.replay = data;
    } catch (e) {
      page.replay = { error: message(e), at };
    }
    render();
  }

  function verifyPanel(): HTMLElement {
    const v = page.verify;
    const result = v && !v.running
      ? h("div", { id: "verify-result", "data-verified": String(v.ok), role: "status" },
          h("p", { class: v.ok ? "ok" : "bad" }, v.ok ? "✔ This deal is verified." : "✘ This deal did not verify."),
          h("ul", {}, (v.checks || []).map((c) => h("li", { class: c.ok ? "ok" : "bad" },
            `${c.ok ? "✔" : "✘"} ${c.name}`, h("br"), h("small", {}, c.detail)))))
      : v?.running ? h("p", { role: "status" }, "Checking…") : null;
    return h("section", { class: "verify", "aria-label": "Verify this deal" }, h("h2", {}, "Verify this deal"),
      h("p", {}, "Your browser hashes the revealed seed, re-deals the cards with the public deal algorithm ",
        "and compares them with the game the server dealt, then re-computes the record's hash chain ",
        "move by move from the commitment."),
      h("button", { type: "button", id: "verify-deal", onclick: runVerify }, "Verify this deal"), result);
  }

  function replayPanel(): HTMLElement {
    const max = page.game.version;
    const at = page.replayAt ?? max;
    const shown = page.replay;
    const step = shown && !("error" in shown) && shown.at === at ? shown : null;
    const slider = h("input", { type: "range", id: "replay-at", min: 0, max, value: at, step: 1,
                               "aria-label": "Replay position" });
    slider.addEventListener("change", () => showReplay(Number(slider.value)));
    const go = (k: number) => () => showReplay(Math.max(0, Math.min(max, k)));
    return h("section", { class: "replay", "aria-label": "Replay" }, h("h2", {}, "Replay"),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: go(0) }, "« Deal"),
        h("button", { type: "button", onclick: go(at - 1) }, "◀ Back"),
        slider,
        h("button", { type: "button", onclick: go(at + 1) }, "Next ▶"),
        h("output", { for: "replay-at", id: "replay-position" }, `step ${at} of ${max}`)),
      step ? h("div", { class: "replay-step", "data-at": step.at },
        h("p", {}, step.move ? `Move ${step.at}: ${speaker().move(step.move.move, step.move.seat)}.` : "The deal."),
        step.effects?.length ? h("ul", { class: "effects" }, step.effects
          .map((e) => speaker().effect(e, step.move?.seat)).filter(Boolean).map((line) => h("li", {}, line))) : null,
        renderBoard(layout(page.game.ruleset), step.view)) : null,
      shown && "error" in shown ? h("p", { class: "bad" }, shown.error) : null);
  }

  /**
   * The rematch, in one click (POST …/rematch with this seat's token): the same ruleset,
   * options and seats, a new secret deal. The first seat to ask deals it, at once against
   * bots; another person's seat stays open for them, their invite being their token of this
   * game, so the same click on their page seats them in it (the page offers it as soon as it
   * sees the finished game point at its rematch).
   */
  async function rematch(): Promise<void> {
    try {
      const { data } = await answer(client.POST("/v1/games/{game_id}/rematch", { params, headers: auth(token()) }));
      storage.saveSeat(data.game.id, { token: data.token, seat: data.seat, ruleset: data.game.ruleset, invites: data.invites });
      history.pushState(null, "", `/play/${encodeURIComponent(data.game.id)}`);
      dispatchEvent(new PopStateEvent("popstate"));
    } catch (e) {
      say(`No rematch: ${message(e)}`, "error");
      render();
    }
  }

  /** Whether another person sits at this finished game, who may deal its rematch. */
  function anotherPerson(): boolean {
    const me = mySeat();
    return me !== null && (page.game.seats || []).some((s) => s.seat !== me && s.player === "human");
  }

  /** Once the game is over, a seat's page looks every two seconds (a 304 while nothing has
   * changed) for the other person to have dealt the rematch, and then offers to join it. */
  function watchRematch(): void {
    if (page.rematchWatch || !page.alive || page.game.status === "playing" || page.game.rematch
        || page.game.daily || !anotherPerson()) return;
    page.rematchWatch = setTimeout(async () => {
      page.rematchWatch = null;
      try {
        const got = await answerOrUnchanged(client.GET("/v1/games/{game_id}", {
          params, headers: auth(token(), page.etag ? { "If-None-Match": page.etag } : {}) }));
        if (got.status === 200 && got.data) {
          page.etag = got.headers.get("ETag");
          if (got.data.game.rematch && page.alive) {
            page.game = got.data.game;
            page.view = got.data.view;
            page.announce = "Opponent asked for a rematch.";
            render();
            return;
          }
        }
      } catch {
        // try again at the next tick
      }
      watchRematch();
    }, 2000);
  }

  /** The rematch line of a finished game of several seats, from this seat's side. */
  function rematchControl(): Child {
    const g = page.game;
    if ((g.seats || []).length < 2 || mySeat() === null || g.daily) return null;
    const dealt = g.rematch;
    if (dealt && storage.seat(dealt.game_id)) {
      return h("a", { href: `/play/${encodeURIComponent(dealt.game_id)}`, id: "rematch-link", class: "button primary" },
        "Go to the rematch");
    }
    if (dealt) {
      return [h("span", { id: "rematch-offer", class: "rematch-offer" }, "Opponent asked for a rematch: "),
        h("button", { type: "button", id: "rematch", class: "primary", "data-rematch": dealt.game_id, onclick: rematch },
          "Join the rematch")];
    }
    return h("button", { type: "button", id: "rematch", class: "primary", onclick: rematch },
      anotherPerson() ? "Rematch (your opponent is invited)" : "Rematch");
  }

  /**
   * A finished ranked daily attempt whose day is not over: the server still masks what the
   * player never saw (face-down cards, the rest of the stock, who would have taken the throne),
   * since everyone plays the same deal until the day's challenge closes at 00:00 UTC.
   */
  function dailyHidden(date: string): HTMLElement {
    const [y, m, d] = date.split("-").map(Number);
    const closes = new Date(Date.UTC(y, m - 1, d + 1));
    const valid = !Number.isNaN(closes.getTime());
    const utc = valid ? closes.toISOString().slice(0, 10) : "the next day";
    const local = valid ? closes.toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" }) : "";
    return h("p", { class: "message info", id: "daily-hidden", role: "note" },
      "This is today's daily deal, the same for every player, so what you never saw stays hidden: ",
      "face-down cards, the rest of the stock, and with them what decided the end. ",
      `The rest of the deal stays hidden until the day's challenge closes at 00:00 UTC on ${utc}`,
      local ? ` (${local} your time)` : "", "; come back then to see it, with its seed.");
  }

  function endPanel(): HTMLElement {
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
      g.daily && !g.seed ? dailyHidden(g.daily.date) : null,
      daily && !g.seed ? h("div", { class: "daily-share" },
        h("p", {}, h("label", { for: "share-link" }, "Challenge a friend to today's deal: "),
          h("input", { id: "share-link", readonly: true, value: daily, size: 40 }), " ",
          h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(daily).then(
            () => { say("Link copied."); render(); }, () => {}) }, "Copy")),
        h("p", { class: "small" }, "Your game itself is private until the day is over (UTC); then ",
          h("a", { href: `/play/${encodeURIComponent(gameId)}` }, "its page"), " shows it to anyone, with its seed.")) : null,
      h("p", {}, h("button", { type: "button", id: "download-record", onclick: downloadRecord }, "Download the record"),
        " ", again ? h("a", { href: again, id: "share-deal" }, "Play this deal again") : null,
        " ", rematchControl(),
        " ", h("a", { href: "/" }, "New game")),
      again ? h("p", {}, h("label", { for: "share-link" }, "Share this deal: "),
        h("input", { id: "share-link", readonly: true, value: location.origin + again, size: 40 }))
        : g.seed ? h("p", { id: "no-same-deal" }, "This game deals only secret deals, so this one is not ",
          "dealt again; its seed (above) and its record are there to check it.") : null,
      g.seed ? verifyPanel() : h("p", {}, "The seed is revealed once the day's challenge is over."),
      replayPanel());
  }

  /** The view in the game's words: its panels (running totals, the battle, the goal). */
  function wordsPanels(voice: Speaker): HTMLElement | null {
    const panels = voice.panels(page.view);
    if (!panels.length) return null;
    return h("section", { class: "words-panels", "aria-label": "The game in words" },
      panels.map((p) => h("section", { class: "words-panel", "aria-label": p.label },
        h("h3", {}, p.label), h("ul", {}, p.lines.map((line) => h("li", {}, line))))));
  }

  /** One move of the list, said once and kept (a long game's list is not said again at every
   * render); only the newest arrive with an animation, their effects one after another. */
  function eventItem(e: Listed, voice: Speaker, me: number | null): HTMLLIElement {
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
  function historyPanel(voice: Speaker): HTMLElement {
    const me = mySeat();
    const several = maxSeats(page.game.ruleset) > 1;
    return h("section", { class: "log", "aria-label": "Moves" },
      h("div", { class: "log-head" }, h("h2", {}, "Moves"),
        callbackControls(several && me !== null && page.game.status === "playing")),
      page.events.length
        ? h("ol", { id: "effects", tabindex: 0, "aria-label": "Every move, in order" },
          page.events.map((e) => eventItem(e, voice, me)))
        : h("p", { class: "empty" }, "No move yet."),
      moreDetails());
  }

  /** The earlier moves read from the log say only the move: a button reads what they set off. */
  function moreDetails(): HTMLElement | null {
    const left = undetailed();
    if (!left.length || !page.historyLoaded) return null;
    const button = h("button", { type: "button", id: "more-details", disabled: page.detailing },
      page.detailing ? "Reading what the moves set off…"
        : `Show what the ${left.length === 1 ? "earlier move" : `${left.length} earlier moves`} set off`);
    button.addEventListener("click", () => { detail(undetailed().slice(-DETAILED_PER_ASK)); refreshWords(); });
    return h("p", { class: "more-details" }, button);
  }

  /** The call-back choices of a game of several seats: a sound, a notification. */
  function callbackControls(shown: boolean): HTMLElement | null {
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

  function announceLine(): HTMLElement {
    return h("p", { id: "announce", class: page.announce ? "announce" : "announce empty", role: "status",
                    "aria-live": "polite" }, page.announce);
  }

  /**
   * What the arriving moves change, put in place without drawing the page again (a player's
   * selection on the board stays as it is): the announcement, the move list, the lit cards.
   */
  function refreshWords(): void {
    if (!page.alive) return;
    root.querySelector("#announce")?.replaceWith(announceLine());
    root.querySelector("section.log")?.replaceWith(historyPanel(speaker()));
    settleWords();
  }

  /**
   * A new version whose legal moves for this seat are the same (the other seat's sealed move
   * in a simultaneous step): the status, the seats and the panels in words put in place, the
   * board left as the player is using it.
   */
  function refreshState(): void {
    if (!page.alive) return;
    root.querySelector("#game-status")?.replaceWith(statusLine());
    root.querySelector("#seats")?.replaceWith(...seatsLine().filter((n): n is HTMLElement => n?.id === "seats"));
    const panels = wordsPanels(speaker());
    const old = root.querySelector("section.words-panels");
    if (old && panels) old.replaceWith(panels);
    else if (old) old.remove();
    else if (panels) root.querySelector("section.log")?.before(panels);
    refreshWords();
  }

  /** After the words are on the page: the newest move in sight, its cards lit on the board. */
  function settleWords(): void {
    const log = root.querySelector("#effects");
    if (log) log.scrollTop = log.scrollHeight;
    highlightCards(root, cardsNamed(page.events.filter((e) => e.fresh).map((e) => [e.move, e.effects])));
    page.animate = false; // the newest moves arrive (and reveal) once, not at every render
  }

  function render(): void {
    if (!page.alive) return;
    const g = page.game;
    const v = page.view;
    const playing = g.status === "playing";
    const legal: readonly Move[] = v.legal_moves || [];
    // Resign (and undo) are always open to a seat: it is our turn only if something else is.
    const waiting = waitingNow();
    const voice = speaker();
    const words = rulesetOf(g.ruleset)?.words;
    useSpeaker(voice); // the move controls' labels, in the game's words
    const parts: Child[] = [
      h("h1", {}, title(g.ruleset)),
      statusLine(),
      seatsLine(),
      announceLine(),
      page.message ? h("p", { id: "message", class: `message ${page.messageKind || "info"}`, role: "alert" }, page.message) : null,
      invitesPanel(),
      commitmentLine(),
      waiting ? h("p", { class: "waiting", id: "waiting", role: "status" },
        seatInfo() ? "Waiting for your opponent…" : "Watching: the board follows the game.") : null,
      renderBoard(layout(g.ruleset), v, { terms: words?.terms, cardValues: words?.card_values,
        ...(playing && !page.busy ? { gestures: gestures(g.ruleset), play } : {}) }),
      playing && legal.length ? movesPanel(legal, play) : null,
      wordsPanels(voice),
      historyPanel(voice),
      playing ? null : endPanel(),
    ];
    fill(root, parts);
    settleWords();
    const over = g.status !== "playing";
    const turn = !over && mySeat() !== null && !waiting && maxSeats(g.ruleset) > 1;
    document.title = `${turn ? "▶ Your turn · " : ""}${title(g.ruleset)} · Royal Court`;
    if (following() && !page.busy) waitForChange();
    watchPresence();
    watchRematch();
    if (page.historyLoaded && missingSeqs().length) learn(); // a reload after a conflict, say
  }

  const at = new URLSearchParams(location.search).get("at");
  render();
  loadHistory();
  if (at !== null && page.game.status !== "playing") showReplay(Number(at));
  return () => {
    page.alive = false;
    stopPolling();
    if (page.presence !== null) clearTimeout(page.presence);
    if (page.rematchWatch !== null) clearTimeout(page.rematchWatch);
    document.title = baseTitle;
  };
}

