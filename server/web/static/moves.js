// The moves of the play page: what a tap, a double tap, a drag, a key or a button sends,
// one move at a time at the version of the last move_ok, and "all home" as a run of
// moves. Nothing here changes the board: only the server's answer does (play.js).

import { dropText, homeCandidates, mayGoHome, pickPile, pickText, pickTop, stockAction } from "./hand.js";

export function racing(play) {
  return play.watch.room?.phase === "racing" && play.mine !== null && play.mine.board.outcome === "playing";
}

/** Send one move; one at a time, each at the version the last move_ok gave. */
export function send(play, move) {
  if (!racing(play)) return;
  if (play.pending !== null) {
    play.say("Waiting for the server's answer to the last move\u2026");
    return;
  }
  play.moveNo += 1;
  const moveId = `${play.seat}.${play.mine.version}.${Date.now().toString(36)}.${play.moveNo}`;
  const version = play.mine.version;
  play.pending = { move, moveId, version, id: null };
  play.pick = null;
  play.resend();
  play.say("");
}

export function tap(play, target) {
  if (!racing(play)) return;
  const board = play.mine.board;
  if (target === "s") stock(play);
  else if (target === "f") home(play);
  else if (target === "w" || target === "r") {
    play.pick = play.pick?.source === target ? null : pickTop(board, target);
    if (play.pick === null) play.say(`Nothing to pick up there.`);
  } else {
    const index = Number(target.slice(1));
    if (play.pick !== null && !(play.pick.source === "t" && play.pick.index === index)) {
      send(play, dropText(play.pick, index));
    } else {
      play.pick = pickPile(play.pick, index, board);
    }
  }
  play.draw();
}

/** A double tap or click sends that card home, when it may go; otherwise its two taps
 * stand (the second took one more card of the run). */
export function double(play, target) {
  if (!racing(play) || !/^[twr]/.test(target)) return;
  const board = play.mine.board;
  const top = target === "w" ? board.waste.at(-1) : target === "r" ? board.reserve : board.tableau[Number(target.slice(1))].at(-1);
  if (top === undefined || top === null || !mayGoHome(top, board)) return;
  play.pick = null;
  const source = target === "w" || target === "r" ? target : `t${Number(target.slice(1)) + 1}`;
  send(play, `${source} f`);
}

export function dragged(play, from, count, onto) {
  if (!racing(play) || !/^[tf]/.test(onto)) return;
  const source = from.startsWith("t") ? `t${Number(from.slice(1)) + 1}:${count}` : from;
  send(play, onto === "f" ? `${source} f` : `${source} t${Number(onto.slice(1)) + 1}`);
}

/** The picked card home; with nothing picked, every card that can go (key h). */
export function home(play) {
  if (play.pick !== null) send(play, `${pickText(play.pick)} f`);
  else allHome(play);
}

export function stock(play) {
  if (!racing(play)) return;
  const action = stockAction(play.mine.board);
  if (action === null) refused(play, "The stock has nothing more to give.");
  else send(play, action);
}

export function letGo(play) {
  play.pick = null;
  play.draw();
}

/** Every card that may go home, one move at a time, until none is left to try. */
export function allHome(play) {
  if (!racing(play)) return;
  play.homeRun = { tried: new Set(), sent: 0 };
  homeStep(play);
}

export function homeStep(play) {
  const run = play.homeRun;
  if (run === null || !racing(play) || play.pending !== null) return;
  const version = play.mine.version;
  const next = homeCandidates(play.mine.board).find((move) => !run.tried.has(`${version}/${move}`));
  if (next === undefined) {
    play.homeRun = null;
    play.say(run.sent === 0 ? "No card can go home now." : `${run.sent} sent home.`);
    return;
  }
  run.tried.add(`${version}/${next}`);
  send(play, next);
}

export function moveAnswered(play, message) {
  play.pending = null;
  play.mine = { board: message.board, version: message.version };
  if (play.homeRun !== null) {
    play.homeRun.sent += 1;
    homeStep(play);
  }
}

export function moveRefused(play, message) {
  play.pending = null;
  if (message.code === "move/stale-version") {
    play.homeRun = null;
    play.request("sync", { type: "sync" });
    return;
  }
  if (play.homeRun !== null && message.code === "move/illegal") {
    homeStep(play);
    return;
  }
  play.homeRun = null;
  refused(play, message.message);
}

export function refused(play, text) {
  play.say(`Refused: ${text}`);
  play.table.shake();
}

const STOCK_WORDS = { draw: "draw from the stock", recycle: "turn the waste over", deal: "deal", redeal: "redeal" };
const MOVE = /^(t(\d+)(?::(\d+))?|w|r) (t(\d+)|f\d*)$/;

/** A move in the engine's notation ("t3:2 t7", "w f", "draw") said in words, with the
 * notation after it. */
export function moveWords(move) {
  if (move in STOCK_WORDS) return `${STOCK_WORDS[move]} (${move})`;
  const found = MOVE.exec(move);
  if (found === null) return move;
  const [, source, pile, count, , onto] = found;
  const from = source === "w" ? "the waste's top card" : source === "r" ? "the reserve's top card"
    : count !== undefined && count !== "1" ? `${count} cards of pile ${pile}` : `pile ${pile}'s top card`;
  return `${from} ${onto === undefined ? "home" : `onto pile ${onto}`} (${move})`;
}

/** Practice rooms: ask the server for the next move of a winning line (key H). */
export function hint(play) {
  if (!racing(play)) return;
  if (!play.watch.room.settings.practice) {
    play.say("Hints are given in practice rooms only.");
    return;
  }
  play.request("hint", { type: "hint" });
  play.say("Looking for a winning line\u2026");
}

/** The server's hint, said if it is still for the board shown. */
export function hintAnswered(play, message) {
  if (play.mine === null || message.version !== play.mine.version) return;
  if (message.move != null) play.say(`Hint: ${moveWords(message.move)}`);
  else if (message.verdict === "unwinnable") play.say("No winning line is left from here.");
  else play.say("The server found no winning line in its time; ask again after a move or two.");
}
