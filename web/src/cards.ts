// Cards drawn by the client as SVG: real faces for the standard deck (pips, court cards,
// Jokers) and for the Decktet (rank, suits, name), no image files and nothing from another
// origin. The Decktet table is data (../shared/reference/decktet.md): canonical order, rank,
// suits and which deck each card belongs to. deal.js shuffles this same order.

export const SUITS: Record<string, [string, string]> = { C: ["♣", "Clubs"], D: ["♦", "Diamonds"], H: ["♥", "Hearts"], S: ["♠", "Spades"] };
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const RANK_NAMES: Record<string, string> = {
  A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King",
};
const RANK_SHOWN: Record<string, string> = { T: "10" };

export const DECKTET_SUITS: Record<string, string> = {
  moons: "☾", suns: "☀", waves: "≈", leaves: "❦", wyrms: "§", knots: "∞",
};

// code, rank, suits, kind, deck: in canonical order.
const DECKTET_TABLE = `
ace-moons 1 moons ace basic|ace-suns 1 suns ace basic|ace-waves 1 waves ace basic
ace-leaves 1 leaves ace basic|ace-wyrms 1 wyrms ace basic|ace-knots 1 knots ace basic
author 2 moons,knots personality basic|desert 2 suns,wyrms location basic
origin 2 waves,leaves location,event basic|journey 3 moons,waves event basic
painter 3 suns,knots personality basic|savage 3 leaves,wyrms personality basic
mountain 4 moons,suns location basic|battle 4 wyrms,knots event basic
sailor 4 waves,leaves personality basic|discovery 5 suns,waves event basic
forest 5 moons,leaves location basic|soldier 5 wyrms,knots personality basic
lunatic 6 moons,waves personality basic|market 6 leaves,knots location,event basic
penitent 6 suns,wyrms personality basic|castle 7 suns,knots location basic
cave 7 waves,wyrms location basic|chance-meeting 7 moons,leaves event basic
betrayal 8 wyrms,knots event basic|diplomat 8 moons,suns personality basic
mill 8 waves,leaves location basic|darkness 9 waves,wyrms location basic
merchant 9 leaves,knots personality basic|pact 9 moons,suns event basic
huntress 10 moons personality basic|bard 10 suns personality basic
sea 10 waves location basic|end 10 leaves location,event basic
calamity 10 wyrms event basic|windfall 10 knots event basic
watchman 10 moons,wyrms,knots personality pawn|light-keeper 10 suns,waves,knots personality pawn
borderland 10 waves,leaves,wyrms location pawn|harvest 10 moons,suns,leaves event pawn
consul 10 moons,waves,knots personality court|island 10 suns,waves,wyrms location court
rite 10 moons,leaves,wyrms event court|window 10 suns,leaves,knots location court
excuse - - excuse excuse`;

/** A Decktet card: its canonical place, rank (none for the Excuse), suits and kinds. */
export interface DecktetCard {
  code: string;
  index: number;
  deck: string;
  rank: number | null;
  suits: string[];
  kinds: string[];
}

export const DECKTET: DecktetCard[] = DECKTET_TABLE.trim().split(/[|\n]/).map((row, index) => {
  const [code, rank, suits, kinds, deck] = row.trim().split(/\s+/);
  return {
    code, index, deck, rank: rank === "-" ? null : Number(rank),
    suits: suits === "-" ? [] : suits.split(","), kinds: kinds.split(","),
  };
});
export const DECKTET_BY_CODE = new Map(DECKTET.map((c) => [c.code, c]));

/** A standard card code: rank, suit, and the deck digit of a two-deck game ("KH2"). */
export const STANDARD = /^([A2-9TJQK])([CDHS])([12])?$/;
const JOKER = /^X([12])$/;

/** Whether a string names a card this client can draw. */
export function isCard(value: unknown): boolean {
  return typeof value === "string" &&
    (STANDARD.test(value) || JOKER.test(value) || DECKTET_BY_CODE.has(value));
}

/** A card's suit as a word ("hearts"), or its Decktet suits joined by spaces; "" for none. */
export function cardSuit(code: string): string {
  const m = STANDARD.exec(code);
  if (m) return SUITS[m[2]][1].toLowerCase();
  return DECKTET_BY_CODE.get(code)?.suits.join(" ") ?? "";
}

function titleCase(slug: string): string {
  return slug.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

/** The card's name for screen readers and tooltips: "Queen of Hearts (deck 2)". */
export function cardName(code: string): string {
  const m = STANDARD.exec(code);
  if (m) return `${RANK_NAMES[m[1]]} of ${SUITS[m[2]][1]}${m[3] ? ` (deck ${m[3]})` : ""}`;
  const j = JOKER.exec(code);
  if (j) return `Joker ${j[1]}`;
  const d = DECKTET_BY_CODE.get(code);
  if (d) return d.kinds.includes("ace") ? `Ace of ${titleCase(d.suits[0])}` : `The ${titleCase(code)}`;
  return code;
}

// ---- drawing ---------------------------------------------------------------------------------
// Each face is an SVG document, written once per card and shown as an image (a data: URL,
// which the page's CSP allows): the page holds no text of the card but its name, and a board
// of many cards costs the browser a few images, not thousands of shapes.

const W = 100;
const H = 140;
const RED = "#c0102a";
const BLACK = "#15151a";
const DECKTET_COLOURS: Record<string, string> = {
  moons: "#4f4f9a", suns: "#b86e00", waves: "#1b64a8", leaves: "#2b7a32", wyrms: "#b3261e", knots: "#7a4a1c",
};

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escape = (value: unknown): string => String(value).replace(/[&<>"]/g, (c) => ENTITIES[c]);

type SvgAttrs = Record<string, string | number>;

function svg(tag: string, attrs: SvgAttrs = {}, ...children: string[]): string {
  const list = Object.entries(attrs).map(([k, v]) => ` ${k}="${escape(v)}"`).join("");
  return `<${tag}${list}>${children.join("")}</${tag}>`;
}

// The suit symbols in a 20 × 20 box: filled (and stroked, for the line symbols) in the
// `color` of the group that places them.
const SYMBOLS: Record<string, [string, SvgAttrs][]> = {
  C: [["circle", { cx: 10, cy: 5.2, r: 4.7 }], ["circle", { cx: 4.8, cy: 11.6, r: 4.7 }],
    ["circle", { cx: 15.2, cy: 11.6, r: 4.7 }],
    ["path", { d: "M9 10 h2 c0.3 4.5 1.3 7.6 3.6 9.5 h-9.2 c2.3-1.9 3.3-5 3.6-9.5z" }]],
  D: [["path", { d: "M10 0 L18 10 L10 20 L2 10Z" }]],
  H: [["path", { d: "M10 19.5 C4 14 0 10.4 0 6 C0 2.8 2.4 0.5 5.3 0.5 C7.3 0.5 9 1.7 10 3.5 C11 1.7 12.7 0.5 14.7 0.5 C17.6 0.5 20 2.8 20 6 C20 10.4 16 14 10 19.5Z" }]],
  S: [["path", { d: "M10 0.3 C15.8 5.8 20 8.9 20 12.6 C20 15.4 17.9 17.2 15.4 17.2 C13.6 17.2 12.1 16.3 11.1 14.8 C11.4 17 12.3 18.5 14.2 19.7 H5.8 C7.7 18.5 8.6 17 8.9 14.8 C7.9 16.3 6.4 17.2 4.6 17.2 C2.1 17.2 0 15.4 0 12.6 C0 8.9 4.2 5.8 10 0.3Z" }]],
  moons: [["path", { d: "M12 1.2 A9 9 0 1 0 12 18.8 A10.5 10.5 0 0 1 12 1.2Z" }]],
  suns: [["circle", { cx: 10, cy: 10, r: 4.4 }],
    ["path", { d: Array.from({ length: 8 }, (_, i) => {
      const a = (i * Math.PI) / 4;
      const p = (r: number, da: number) => `${(10 + r * Math.cos(a + da)).toFixed(2)} ${(10 + r * Math.sin(a + da)).toFixed(2)}`;
      return `M${p(9.8, 0)} L${p(6, 0.28)} L${p(6, -0.28)}Z`;
    }).join(" ") }]],
  waves: [["path", { d: "M1 5 Q5.5 1.5 10 5 T19 5 M1 10.5 Q5.5 7 10 10.5 T19 10.5 M1 16 Q5.5 12.5 10 16 T19 16",
    fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round" }]],
  leaves: [["path", { d: "M2.5 17.5 C2.5 8 8.5 2 18 2 C18 11.5 12 17.5 2.5 17.5Z" }],
    ["path", { d: "M3.5 16.5 L13 7", fill: "none", stroke: "#fff", "stroke-width": 1.2 }]],
  wyrms: [["path", { d: "M15.5 3.5 C7 2.5 4 8.5 10 10.2 C16 12 14 18 4 17",
    fill: "none", stroke: "currentColor", "stroke-width": 3.2, "stroke-linecap": "round" }],
  ["circle", { cx: 15.8, cy: 3.6, r: 2.6 }]],
  knots: [["path", { d: "M10 10 C6.5 4 1.2 5 1.2 10 C1.2 15 6.5 16 10 10 C13.5 4 18.8 5 18.8 10 C18.8 15 13.5 16 10 10Z",
    fill: "none", stroke: "currentColor", "stroke-width": 2.6 }]],
};
const SHAPES = Object.fromEntries(Object.entries(SYMBOLS).map(([name, shapes]) =>
  [name, shapes.map(([tag, attrs]) => svg(tag, { fill: "currentColor", ...attrs })).join("")]));

function symbol(name: string, x: number, y: number, size: number, colour: string, flip = false): string {
  const place = `translate(${x} ${y}) scale(${size / 20})`;
  const transform = flip ? `rotate(180 ${x + size / 2} ${y + size / 2}) ${place}` : place;
  return svg("g", { transform, color: colour }, SHAPES[name]);
}

function text(value: string, x: number, y: number, size: number, attrs: SvgAttrs = {}): string {
  return svg("text", { x, y, "font-size": size, "font-family": "DejaVu Sans, Verdana, sans-serif", ...attrs }, escape(value));
}

// Pip positions (in the 100 × 140 face) of each number card, as in a printed deck.
const COLS: Record<string, number> = { l: 30, m: 50, r: 70 };
const PIPS: Record<string, [string, number][]> = {
  2: [["m", 30], ["m", 110]],
  3: [["m", 30], ["m", 70], ["m", 110]],
  4: [["l", 30], ["r", 30], ["l", 110], ["r", 110]],
  5: [["l", 30], ["r", 30], ["m", 70], ["l", 110], ["r", 110]],
  6: [["l", 30], ["r", 30], ["l", 70], ["r", 70], ["l", 110], ["r", 110]],
  7: [["l", 30], ["r", 30], ["m", 50], ["l", 70], ["r", 70], ["l", 110], ["r", 110]],
  8: [["l", 30], ["r", 30], ["m", 50], ["l", 70], ["r", 70], ["m", 90], ["l", 110], ["r", 110]],
  9: [["l", 30], ["r", 30], ["l", 56.7], ["r", 56.7], ["m", 70], ["l", 83.3], ["r", 83.3], ["l", 110], ["r", 110]],
  T: [["l", 30], ["r", 30], ["m", 43.3], ["l", 56.7], ["r", 56.7], ["l", 83.3], ["r", 83.3], ["m", 96.7], ["l", 110], ["r", 110]],
};
const CROWNS: Record<string, string> = {
  K: "M32 66 L32 46 L41 56 L50 40 L59 56 L68 46 L68 66Z",
  Q: "M34 66 L30 48 L41 57 L50 44 L59 57 L70 48 L66 66Z",
  J: "M33 66 C33 52 40 46 50 46 C60 46 67 52 67 66Z M50 46 L56 36 L60 40Z",
};

function corners(rank: string, suit: string, colour: string): string[] {
  const index = (flip: boolean) => svg("g", flip ? { transform: `rotate(180 ${W / 2} ${H / 2})` } : {},
    text(rank, 11, 27, rank.length > 1 ? 22 : 26, { "text-anchor": "middle", fill: colour, "font-weight": "bold",
      ...(rank.length > 1 ? { textLength: 21, lengthAdjust: "spacingAndGlyphs" } : {}) }),
    symbol(suit, 3, 31, 16, colour));
  return [index(false), index(true)];
}

function standardFace(rank: string, suit: string, deck: string | undefined): string[] {
  const colour = suit === "D" || suit === "H" ? RED : BLACK;
  const shown = RANK_SHOWN[rank] ?? rank;
  const parts = corners(shown, suit, colour);
  if (rank === "A") {
    parts.push(symbol(suit, 26, 46, 48, colour));
  } else if (PIPS[rank]) {
    for (const [col, y] of PIPS[rank]) parts.push(symbol(suit, COLS[col] - 8, y - 8, 16, colour, y > 70));
  } else {
    parts.push(svg("rect", { x: 24, y: 18, width: 52, height: 104, rx: 4, fill: "#fbf3dc", stroke: colour, "stroke-width": 1.5 }),
      svg("path", { d: CROWNS[rank], fill: "#e2b93b", stroke: colour, "stroke-width": 1.5 }),
      text(rank, 50, 100, 34, { "text-anchor": "middle", fill: colour, "font-weight": "bold" }),
      symbol(suit, 42, 104, 16, colour));
  }
  void deck; // two decks' cards look alike: the name (read out) says which deck
  return parts;
}

function jokerFace(digit: string): string[] {
  const colour = digit === "1" ? "#5b2a86" : "#1f5f3a";
  const star = Array.from({ length: 10 }, (_, i) => {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const r = i % 2 ? 10 : 24;
    return `${(50 + r * Math.cos(a)).toFixed(1)},${(72 + r * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  const letters = "JOKER".split("").map((ch, i) => text(ch, 11, 20 + i * 13, 12, { "text-anchor": "middle", fill: colour, "font-weight": "bold" }));
  return [...letters, svg("polygon", { points: star, fill: "#e2b93b", stroke: colour, "stroke-width": 2 }),
    text(digit, 88, 130, 16, { "text-anchor": "middle", fill: colour, "font-weight": "bold" })];
}

const DECKTET_RANK = { ace: "A" };
function decktetRank(card: DecktetCard): string {
  if (card.kinds.includes("ace")) return DECKTET_RANK.ace;
  if (card.deck === "pawn") return "P";
  if (card.deck === "court") return "C";
  return card.rank === 10 ? "♛" : String(card.rank);
}

function decktetFace(card: DecktetCard): string[] {
  const parts = [svg("rect", { x: 4, y: 4, width: 92, height: 132, rx: 6, fill: card.kinds.includes("personality") ? "#f7ecd0" : "#f4f1e8" })];
  if (card.code === "excuse") {
    parts.push(text("Excuse", 50, 76, 18, { "text-anchor": "middle", fill: "#333", "font-style": "italic" }));
    return parts;
  }
  const first = DECKTET_COLOURS[card.suits[0]];
  parts.push(text(decktetRank(card), 16, 27, 24, { "text-anchor": "middle", fill: first, "font-weight": "bold" }));
  card.suits.forEach((s, i) => parts.push(symbol(s, 7, 32 + i * 19, 17, DECKTET_COLOURS[s])));
  // The emblem: each suit large, in a row (one), side by side (two) or a triangle (three).
  const emblems: Record<number, [number, number][]> = { 1: [[58, 62]], 2: [[46, 50], [70, 78]], 3: [[58, 40], [44, 72], [72, 72]] };
  const spots = emblems[card.suits.length] || [];
  const size = card.suits.length === 1 ? 40 : 26;
  card.suits.forEach((s, i) => {
    const [x, y] = spots[i];
    parts.push(svg("circle", { cx: x, cy: y, r: size / 2 + 4, fill: "#fff", stroke: DECKTET_COLOURS[s], "stroke-width": 1.5 }),
      symbol(s, x - size / 2, y - size / 2, size, DECKTET_COLOURS[s]));
  });
  const name = card.kinds.includes("ace") ? "Ace" : titleCase(card.code);
  const band = card.kinds.includes("personality") ? "#7a5a00" : "#4a4a55";
  parts.push(svg("rect", { x: 4, y: 106, width: 92, height: 30, fill: band, rx: 4 }),
    text(name, 50, 127, 17, { "text-anchor": "middle", fill: "#fff", "font-weight": "bold",
      ...(name.length > 8 ? { textLength: 86, lengthAdjust: "spacingAndGlyphs" } : {}) }));
  return parts;
}

function face(code: string): string[] {
  const m = STANDARD.exec(code);
  if (m) return standardFace(m[1], m[2], m[3]);
  const j = JOKER.exec(code);
  if (j) return jokerFace(j[1]);
  const d = DECKTET_BY_CODE.get(code);
  if (d) return decktetFace(d);
  return [text(code, 50, 75, 16, { "text-anchor": "middle", fill: BLACK })];
}

function el(tag: string, className?: string, textContent?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (textContent !== undefined) node.textContent = textContent;
  return node;
}

const FACES = new Map<string, string>(); // card code (or "back 12") -> its face, as a data: URL

function drawing(key: string, parts: () => string[]): HTMLImageElement {
  let url = FACES.get(key);
  if (!url) {
    const markup = svg("svg", { xmlns: "http://www.w3.org/2000/svg", viewBox: `0 0 ${W} ${H}` },
      svg("rect", { x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 8, fill: "#fff", stroke: "#8a8a8a", "stroke-width": 1.5 }),
      ...parts());
    url = `data:image/svg+xml,${encodeURIComponent(markup)}`;
    FACES.set(key, url);
  }
  const img = document.createElement("img");
  img.className = "face";
  img.alt = "";
  img.draggable = false;
  img.src = url;
  return img;
}

/** One face-up card: `data-card` and the key `card:<code>` (the board's element for it),
 * `data-suit` its suit. `note` (a role, a strength) is read out and shown as a small tag. */
export function cardElement(code: string, note?: string): HTMLElement {
  const card = el("span", "card");
  card.setAttribute("role", "img");
  card.dataset.card = code;
  card.dataset.key = `card:${code}`;
  const suit = cardSuit(code);
  if (suit) card.dataset.suit = suit;
  const m = STANDARD.exec(code);
  if (m) card.classList.add(m[2] === "D" || m[2] === "H" ? "red" : "black");
  else if (JOKER.test(code)) card.classList.add("joker");
  else {
    const decktet = DECKTET_BY_CODE.get(code);
    if (decktet) card.classList.add("decktet", `kind-${decktet.kinds[0]}`);
  }
  card.append(drawing(code, () => face(code)));
  const name = cardName(code);
  card.setAttribute("aria-label", note ? `${name}, ${note}` : name);
  card.title = card.getAttribute("aria-label") || "";
  if (note) card.append(el("span", "note", note));
  return card;
}

/** A face-down card or pile: only its count is known (none shown for a single card). */
export function backElement(count: number, label = "face down"): HTMLElement {
  const back = el("span", "card back");
  back.setAttribute("role", "img");
  back.setAttribute("aria-label", `${count} ${label}`);
  back.title = back.getAttribute("aria-label") || "";
  back.append(drawing(`back ${count}`, () => {
    const lattice: string[] = [];
    for (let i = -140; i < 140; i += 14) {
      lattice.push(svg("path", { d: `M${i} 0 L${i + 140} 140 M${i + 140} 0 L${i} 140`, stroke: "#4d7cc0", "stroke-width": 2 }));
    }
    const parts = [svg("defs", {}, svg("clipPath", { id: "inside" }, svg("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5 }))),
      svg("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "#23487a" }),
      svg("g", { "clip-path": "url(#inside)" }, ...lattice)];
    if (count !== 1) {
      parts.push(svg("circle", { cx: 50, cy: 70, r: 22, fill: "#fff" }),
        text(String(count), 50, 79, count > 99 ? 20 : 26, { "text-anchor": "middle", fill: "#23487a", "font-weight": "bold" }));
    }
    return parts;
  }));
  return back;
}

/** A row of cards (or "none"). */
export function cardRow(codes: readonly (string | null)[] | null | undefined, label?: string): HTMLElement {
  const row = el("div", "cards");
  if (label) row.setAttribute("aria-label", label);
  if (!codes || codes.length === 0) row.append(el("span", "empty", "none"));
  for (const code of codes || []) row.append(code === null ? backElement(1) : cardElement(code));
  return row;
}
