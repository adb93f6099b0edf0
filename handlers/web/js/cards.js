// Cards drawn by the client as styled HTML: rank, suit symbol, colour. No card art.
// The Decktet table is data (../shared/reference/decktet.md): canonical
// order, rank, suits and which deck each card belongs to. deal.js shuffles this same order.

export const SUITS = { C: ["♣", "Clubs"], D: ["♦", "Diamonds"], H: ["♥", "Hearts"], S: ["♠", "Spades"] };
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const RANK_NAMES = {
  A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King",
};
const RANK_SHOWN = { T: "10" };

export const DECKTET_SUITS = {
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

export const DECKTET = DECKTET_TABLE.trim().split(/[|\n]/).map((row, index) => {
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
export function isCard(value) {
  return typeof value === "string" &&
    (STANDARD.test(value) || JOKER.test(value) || DECKTET_BY_CODE.has(value));
}

function titleCase(slug) {
  return slug.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

/** The card's name for screen readers and tooltips: "Queen of Hearts (deck 2)". */
export function cardName(code) {
  const m = STANDARD.exec(code);
  if (m) return `${RANK_NAMES[m[1]]} of ${SUITS[m[2]][1]}${m[3] ? ` (deck ${m[3]})` : ""}`;
  const j = JOKER.exec(code);
  if (j) return `Joker ${j[1]}`;
  const d = DECKTET_BY_CODE.get(code);
  if (d) return d.kinds.includes("ace") ? `Ace of ${titleCase(d.suits[0])}` : `The ${titleCase(code)}`;
  return code;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One face-up card. `note` is a small caption under it (a role, a strength). */
export function cardElement(code, note) {
  const card = el("span", "card");
  card.setAttribute("role", "img");
  card.dataset.card = code;
  const m = STANDARD.exec(code);
  const j = JOKER.exec(code);
  const d = DECKTET_BY_CODE.get(code);
  if (m) {
    const red = m[2] === "D" || m[2] === "H";
    card.classList.add(red ? "red" : "black");
    card.append(el("span", "rank", RANK_SHOWN[m[1]] ?? m[1]), el("span", "suit", SUITS[m[2]][0]));
    if (m[3]) card.append(el("span", "deck", m[3]));
  } else if (j) {
    card.classList.add("joker");
    card.append(el("span", "rank", "★"), el("span", "suit", `J${j[1]}`));
  } else if (d) {
    card.classList.add("decktet", `kind-${d.kinds[0]}`);
    card.append(el("span", "rank", d.rank === null ? "–" : String(d.rank)));
    card.append(el("span", "suit", d.suits.map((s) => DECKTET_SUITS[s]).join("")));
    card.append(el("span", "name", d.kinds.includes("ace") ? "Ace" : titleCase(code)));
  } else {
    card.append(el("span", "rank", code));
  }
  const name = cardName(code);
  card.setAttribute("aria-label", note ? `${name}, ${note}` : name);
  card.title = card.getAttribute("aria-label");
  if (note) card.append(el("span", "note", note));
  return card;
}

/** A face-down card or pile: only its count is known. */
export function backElement(count, label = "face down") {
  const back = el("span", "card back");
  back.setAttribute("role", "img");
  back.setAttribute("aria-label", `${count} ${label}`);
  back.title = back.getAttribute("aria-label");
  back.append(el("span", "count", String(count)));
  return back;
}

/** A row of cards (or "none"). */
export function cardRow(codes, label) {
  const row = el("div", "cards");
  if (label) row.setAttribute("aria-label", label);
  if (!codes || codes.length === 0) row.append(el("span", "empty", "none"));
  for (const code of codes || []) row.append(cardElement(code));
  return row;
}
