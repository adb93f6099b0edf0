// Small DOM helpers and plain words for values, shared by every page and board. A game's own
// words (its sentences for moves and effects, its panels, its ending) are in words.ts.

import { cardName, DECKTET_BY_CODE, DECKTET_SUITS, isCard, STANDARD, SUITS } from "./cards";

/** What h() and fill() take as children: nodes, text, nested lists; absent ones skipped. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** An element's attributes: `class`, `on<event>` listeners, anything else as an attribute
 * (true: present and empty; null, undefined, false: left out). */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => unknown)>;

/** JSON as the API sends it, walked by the code that knows no game. */
export type JsonObject = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function flatten(children: readonly Child[], out: (Node | string)[] = []): (Node | string)[] {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) flatten(child, out);
    else if (child instanceof Node) out.push(child);
    else out.push(String(child));
  }
  return out;
}

/** h("div", {class: "x", "data-move": "…"}, child, "text", …): one element. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") {
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    } else if (name === "class") node.className = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of flatten(children)) {
    node.append(child instanceof Node ? child : document.createTextNode(child));
  }
  return node;
}

/** Replaces a node's children, skipping the absent ones (null, false) a page leaves out. */
export function fill(node: Element, ...children: Child[]): void {
  node.replaceChildren(...flatten(children));
}

/** A card code in a line of text: "Q♥", "10♦²", "The Author ☾∞". */
export function short(code: string): string {
  const m = STANDARD.exec(code);
  if (m) return `${m[1] === "T" ? "10" : m[1]}${SUITS[m[2]][0]}${m[3] ? (m[3] === "1" ? "¹" : "²") : ""}`;
  const d = DECKTET_BY_CODE.get(code);
  if (d) return `${cardName(code)} ${d.suits.map((s) => DECKTET_SUITS[s]).join("")}`;
  return cardName(code);
}

/** "a", "a and b", "a, b and c". */
export function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Plain words for any JSON value: cards by name, lists joined, objects as "key value"
 * pairs; never a raw dump, never a pair of numbers read as a place. */
export function words(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return isCard(value) ? short(value) : value.replaceAll("_", " ");
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length ? joinWords(value.map(words)) : "none";
  if (isObject(value)) return Object.entries(value).map(([k, v]) => `${k.replaceAll("_", " ")} ${words(v)}`).join(", ");
  return String(value);
}

/** What moveLabel needs of the game's words (a words.ts Speaker). */
export interface MoveSayer {
  viewer: number | null;
  move(move: JsonObject, seat: number | null): string;
}

let speaker: MoveSayer | null = null;

/** The game's words (a words.ts Speaker) that move labels use; null: plain words. */
export function useSpeaker(next: MoveSayer | null): void {
  speaker = next;
}

function plainLabel(move: JsonObject): string {
  const parts = [String(move.type).replaceAll("_", " ")];
  for (const [field, value] of Object.entries(move)) {
    if (field !== "type") parts.push(words(value));
  }
  return parts.join(" ");
}

/** A legal move in words, for its button: the game's sentence for it, said as an order
 * ("Attack the ♣ clubs Pretender with the current card"), or plain words for a partial move. */
export function moveLabel(move: JsonObject): string {
  if (speaker && speaker.viewer !== null) {
    const said = speaker.move(move, speaker.viewer);
    if (said && !said.includes("—")) {
      const order = said.replace(/^You /, "");
      return order[0].toUpperCase() + order.slice(1);
    }
  }
  return plainLabel(move);
}
