// Small DOM helpers and the words for moves and effects, shared by every page and board.

import { cardName, DECKTET_BY_CODE, DECKTET_SUITS, isCard, STANDARD, SUITS } from "./cards.js";

/** h("div", {class: "x", "data-move": "…"}, child, "text", …): one element. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces a node's children, skipping the absent ones (null, false) a page leaves out. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

/** A card code in a line of text: "Q♥", "10♦²", "the Author". */
export function short(code) {
  const m = STANDARD.exec(code);
  if (m) return `${m[1] === "T" ? "10" : m[1]}${SUITS[m[2]][0]}${m[3] ? (m[3] === "1" ? "¹" : "²") : ""}`;
  const d = DECKTET_BY_CODE.get(code);
  if (d) return `${cardName(code)} ${d.suits.map((s) => DECKTET_SUITS[s]).join("")}`;
  return cardName(code);
}

function words(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return isCard(value) ? short(value) : value.replaceAll("_", " ");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 2 && value.every((v) => Number.isInteger(v))) {
      return `row ${value[0] + 1}, column ${value[1] + 1}`; // a map cell [r, c]
    }
    return value.length ? value.map(words).join(" + ") : "none";
  }
  return Object.entries(value).map(([k, v]) => `${k.replaceAll("_", " ")} ${words(v)}`).join(", ");
}

const MOVE_VERBS = { with: "with", to: "to", target: "", column: "", card: "", cards: "" };

/** A legal move in words, for its button: "attack hearts", "control the Author with …". */
export function moveLabel(move) {
  const parts = [move.type.replaceAll("_", " ")];
  for (const [field, value] of Object.entries(move)) {
    if (field === "type") continue;
    const verb = field in MOVE_VERBS ? MOVE_VERBS[field] : field.replaceAll("_", " ");
    parts.push(verb ? `${verb} ${words(value)}` : words(value));
  }
  return parts.join(" ");
}

const SEAT_FIELDS = new Set(["seat", "by", "owner", "mover", "winner"]);

/** One effect in words, for the game's log. Seats are counted from 1, as on the page. */
export function effectLine(effect) {
  const { type, ...fields } = effect;
  const rest = Object.fromEntries(Object.entries(fields).map(([k, v]) =>
    [k, SEAT_FIELDS.has(k) && Number.isInteger(v) ? (k === "seat" ? v + 1 : `seat ${v + 1}`) : v]));
  if (type === "bot_move") return `Seat ${effect.seat + 1} (bot) plays: ${moveLabel(effect.move)}`;
  if (type === "forced") return `Forced: ${moveLabel(effect.move)}`;
  if (type === "roll") {
    const foe = effect.foe ? ` against ${effect.foe.join(" ")} (${effect.foe_total})` : "";
    const you = effect.player ? `rolled ${effect.player.join(" ")} (${effect.player_total})` : "rolled";
    return `Dice: ${you}${foe}${effect.winner ? `, ${effect.winner} wins` : ""}`;
  }
  const detail = words(rest);
  return `${type.replaceAll("_", " ")}${detail ? `: ${detail}` : ""}`;
}

export { words };
