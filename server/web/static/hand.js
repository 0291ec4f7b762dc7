// What a player holds and the move text it makes (engine notation, docs/engine-api.md),
// as the race screen's keys do (client_cli/tui/keys.py): pick a pile, the waste or the
// reserve up, then put it on a pile or home. Nothing here decides a move is legal; the
// server does, and only its move_ok changes the board.

/** The key of tableau pile i is PILE_KEYS[i]; letters that are commands are left out. */
export const PILE_KEYS = "1234567890bcegijklmnopstuv";

const RANK_OF = { A: 1, T: 10, J: 11, Q: 12, K: 13 };

function rankOf(card) {
  return RANK_OF[card[0]] ?? Number(card[0]);
}

/** A pick: { source: "t" | "w" | "r", index, count } (count null: the run the engine finds). */
export function pickText(pick) {
  if (pick.source !== "t") return pick.source;
  return pick.count === null ? `t${pick.index + 1}` : `t${pick.index + 1}:${pick.count}`;
}

/** The pick after tapping tableau pile `index`: that pile's top, one more card of it, or
 * nothing (an empty pile, or every face-up card of it was already held). */
export function pickPile(held, index, board) {
  const pile = board.tableau[index];
  if (pile.length === 0) return null;
  if (held === null || held.source !== "t" || held.index !== index) return { source: "t", index, count: null };
  const count = held.count === null ? 2 : held.count + 1;
  return count <= pile.length ? { source: "t", index, count } : null;
}

/** How many cards of its pile a pick holds, to mark them (1 for waste and reserve). */
export function heldCount(pick) {
  return pick.source === "t" && pick.count !== null ? pick.count : 1;
}

/** The waste or reserve top picked up, or null when there is none. */
export function pickTop(board, source) {
  const top = source === "w" ? board.waste.at(-1) : board.reserve;
  return top === undefined || top === null ? null : { source, index: 0, count: null };
}

/** The move putting `pick` on tableau pile `index`, or home with index null. */
export function dropText(pick, index) {
  return index === null ? `${pickText(pick)} f` : `${pickText(pick)} t${index + 1}`;
}

/** What the stock button does on this board: draw, recycle, deal or redeal; null: nothing. */
export function stockAction(board) {
  if (board.variant === "little-milligan") return board.stock > 0 ? "deal" : null;
  if (board.variant === "little-billie") return board.passes_left === 0 ? null : "redeal";
  if (board.stock > 0) return "draw";
  if (board.waste.length === 0 || board.passes_left === 0) return null;
  return "recycle";
}

// Foundations with a fixed suit and direction each (docs/rules.md), as board.js draws them:
// Little Billie's 1-4 go up from the Ace in clubs, diamonds, hearts, spades, 5-8 down from the King.
const FIXED = { "little-billie": [..."cdhscdhs"].map((suit, i) => ({ suit, down: i >= 4 })) };

function fitsFixed(card, board, fixed) {
  const rank = rankOf(card);
  return board.foundations.some((top, i) => {
    const { suit, down } = fixed[i];
    if (card[1] !== suit) return false;
    if (top === null) return rank === (down ? 13 : board.base_rank);
    return top !== "??" && rank === rankOf(top) + (down ? -1 : 1);
  });
}

/** Whether `card` could go on some foundation: a first card (base rank) with a
 * foundation free, or the next of a top of its suit either way. A hint to choose what to
 * try, never a rule: the server says yes or no. */
export function mayGoHome(card, board) {
  const fixed = FIXED[board.variant];
  if (fixed !== undefined) return fitsFixed(card, board, fixed);
  const rank = rankOf(card);
  if (rank === board.base_rank && board.foundations.some((top) => top === null)) return true;
  return board.foundations.some((top) => {
    if (top === null || top === "??" || top[1] !== card[1]) return false;
    const gap = (rank - rankOf(top) + 13) % 13;
    return gap === 1 || gap === 12;
  });
}

/** The sources whose top card may go home now, waste and reserve first, as move texts. */
export function homeCandidates(board) {
  const found = [];
  const waste = board.waste.at(-1);
  if (waste !== undefined && mayGoHome(waste, board)) found.push("w f");
  if (board.reserve !== null && mayGoHome(board.reserve, board)) found.push("r f");
  board.tableau.forEach((pile, i) => {
    if (pile.length > 0 && mayGoHome(pile.at(-1), board)) found.push(`t${i + 1} f`);
  });
  return found;
}
