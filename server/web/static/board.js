// Drawing one player's board (a BoardView of docs/protocol.md) as DOM elements.
// A card is text: rank A23456789TJQK then suit cdhs. "??" is a card a spectator
// may not see yet: it is drawn as a card back, like the face-down counts.

export const HIDDEN_CARD = "??";

const SUITS = {
  c: { symbol: "\u2663", name: "clubs", red: false },
  d: { symbol: "\u2666", name: "diamonds", red: true },
  h: { symbol: "\u2665", name: "hearts", red: true },
  s: { symbol: "\u2660", name: "spades", red: false },
};
const RANKS = {
  A: ["A", "ace"], 2: ["2", "two"], 3: ["3", "three"], 4: ["4", "four"], 5: ["5", "five"],
  6: ["6", "six"], 7: ["7", "seven"], 8: ["8", "eight"], 9: ["9", "nine"], T: ["10", "ten"],
  J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"],
};
const RANK_NAMES = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** A card's parts to draw it, or null for the hidden placeholder. Throws on anything else. */
export function parseCard(text) {
  if (text === HIDDEN_CARD) return null;
  const rank = typeof text === "string" && text.length === 2 ? RANKS[text[0]] : undefined;
  const suit = rank ? SUITS[text[1]] : undefined;
  if (!suit) throw new Error(`not a card: ${JSON.stringify(text)}`);
  return { rank: rank[0], suit: suit.symbol, red: suit.red, label: `${rank[1]} of ${suit.name}` };
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One face-down card; `count` (if given) is how many lie there. */
export function cardBack(count, label) {
  const back = element("div", "card back");
  if (count === undefined) back.dataset.card = HIDDEN_CARD;
  else back.dataset.count = String(count);
  back.setAttribute("role", "img");
  back.setAttribute("aria-label", label);
  back.title = label;
  if (count !== undefined) back.append(element("span", "count", String(count)));
  return back;
}

/** One card, face up, or as a back for "??". */
export function cardElement(text) {
  const card = parseCard(text);
  if (card === null) return cardBack(undefined, "a card not yet seen by every racer");
  const face = element("div", card.red ? "card face red" : "card face black");
  face.dataset.card = text;
  face.setAttribute("role", "img");
  face.setAttribute("aria-label", card.label);
  face.title = card.label;
  const corner = element("span", "corner");
  corner.append(element("span", "rank", card.rank), element("span", "suit", card.suit));
  face.append(corner, element("span", "pip", card.suit));
  return face;
}

function slot(className, label) {
  const node = element("div", `slot ${className}`);
  node.setAttribute("aria-label", label);
  return node;
}

function pileElement(cards, index, fanned) {
  const pile = element("div", fanned ? "pile fan" : "pile column");
  pile.dataset.pile = `t${index + 1}`;
  pile.setAttribute("aria-label", `pile ${index + 1}: ${cards.length} cards`);
  pile.style.setProperty("--cards", String(Math.max(cards.length, 1)));
  if (cards.length === 0) pile.append(element("div", "card empty"));
  cards.forEach((text) => pile.append(cardElement(text)));
  return pile;
}

function stockElement(board) {
  const stock = slot("stock", `stock: ${board.stock} face-down cards`);
  stock.append(board.stock > 0 ? cardBack(board.stock, `${board.stock} face-down stock cards`) : element("div", "card empty"));
  return stock;
}

function wasteElement(waste) {
  const node = slot("waste", `waste: ${waste.length} cards`);
  node.dataset.count = String(waste.length);
  const shown = waste.slice(-3);
  if (shown.length === 0) node.append(element("div", "card empty"));
  shown.forEach((text) => node.append(cardElement(text)));
  return node;
}

function reserveElement(board) {
  const node = slot("reserve", `reserve: ${board.reserve_hidden} face-down cards under the top`);
  if (board.reserve_hidden > 0) node.append(cardBack(board.reserve_hidden, `${board.reserve_hidden} face-down reserve cards`));
  node.append(board.reserve === null ? element("div", "card empty") : cardElement(board.reserve));
  return node;
}

// Foundations with a fixed suit and direction each (docs/rules.md): Little Billie's
// 1-4 go up from the Ace in clubs, diamonds, hearts, spades, 5-8 down from the King.
const FIXED_FOUNDATIONS = {
  "little-billie": [..."cdhscdhs"].map((suit, i) => ({ suit: SUITS[suit], down: i >= 4 })),
};

function foundationsElement(board) {
  const row = element("div", "foundations");
  const fixed = FIXED_FOUNDATIONS[board.variant] ?? [];
  board.foundations.forEach((top, i) => {
    const rule = fixed[i];
    const way = rule === undefined ? "" : `: ${rule.suit.name}, ${rule.down ? "down from the King" : "up from the Ace"}`;
    const node = slot("foundation", `foundation ${i + 1}${way}`);
    node.title = `foundation ${i + 1}${way}`;
    const card = top === null ? element("div", "card empty") : cardElement(top);
    if (rule !== undefined) {
      const arrow = rule.down ? "\u2193" : "\u2191";
      node.dataset.direction = rule.down ? "down" : "up";
      if (top === null) card.append(element("span", rule.suit.red ? "mark red" : "mark", `${rule.suit.symbol}${arrow}`));
      else node.append(element("span", "direction", arrow));
    }
    node.prepend(card);
    row.append(node);
  });
  return row;
}

// What each game lays out beside its foundations, and what passes_left counts.
const GAMES = {
  // passes_left counts turn-overs: 3 passes through the stock are 2 turn-overs (docs/rules.md).
  "little-forty": { stock: true, waste: true, passes: ["turn-over", "turn-overs"] },
  "little-milligan": { stock: true, waste: false, passes: null },
  "little-billie": { stock: false, waste: false, passes: ["redeal", "redeals"] },
  "double-canfield-40": { stock: true, waste: true, passes: ["pass", "passes"] },
};
const OTHER_GAME = { stock: true, waste: true, passes: ["pass", "passes"] };

function handElements(board) {
  const game = GAMES[board.variant] ?? OTHER_GAME;
  const hand = [];
  if (game.stock || board.stock > 0) hand.push(stockElement(board));
  if (game.waste || board.waste.length > 0) hand.push(wasteElement(board.waste));
  if (board.reserve !== null || board.reserve_hidden > 0) hand.push(reserveElement(board));
  return hand;
}

function passesText(board) {
  const words = (GAMES[board.variant] ?? OTHER_GAME).passes;
  if (words === null) return null;
  if (board.passes_left === null) return `unlimited ${words[1]}`;
  return `${board.passes_left} ${board.passes_left === 1 ? words[0] : words[1]} left`;
}

/** What the board does not show by itself; `hidden`: the cards drawn as backs for "??". */
function notesText(board, hidden) {
  const notes = [passesText(board), `${board.progress}/${board.total} home`].filter((note) => note !== null);
  if (board.base_rank !== 1) notes.push(`foundations start at ${RANK_NAMES[board.base_rank]}`);
  if (hidden > 0) notes.push(`${hidden === 1 ? "1 card" : `${hidden} cards`} hidden until every racer still racing has seen ${hidden === 1 ? "it" : "them"}`);
  return notes.join(" \u00b7 ");
}

/** The whole board: stock, waste and reserve, foundations, then the tableau. */
export function drawBoard(board) {
  const root = element("div", `cards variant-${board.variant}`);
  const top = element("div", "top-row");
  const hand = element("div", "hand");
  hand.append(...handElements(board));
  top.append(hand, foundationsElement(board));
  const fanned = board.tableau.length > 12;
  const tableau = element("div", fanned ? "tableau fans" : "tableau columns");
  tableau.style.setProperty("--piles", String(board.tableau.length));
  board.tableau.forEach((cards, i) => tableau.append(pileElement(cards, i, fanned)));
  root.append(top, tableau);
  const hidden = root.querySelectorAll(`.card[data-card="${HIDDEN_CARD}"]`).length;
  root.append(element("div", "board-notes", notesText(board, hidden)));
  return root;
}

/** The cards a drawn board shows, as text in document order (face-down counts left out). */
export function shownCards(root) {
  return Array.from(root.querySelectorAll(".card[data-card]"), (card) => card.dataset.card);
}
