// The play page's buttons and keys: the race screen's keys (client_cli/tui/keys.py and
// texts.py HELP) on a keyboard, and a button for every one of them.

import { PILE_KEYS } from "./hand.js";
import { allHome, hint, home, letGo, stock, tap } from "./moves.js";

const byId = (id) => document.getElementById(id);
const CONFIRM_MS = 3000;

/** Resign asks first: the first press arms the button, a second within 3 s resigns. */
function resign(play) {
  const button = byId("resign");
  if (button.dataset.armed === "true") {
    button.dataset.armed = "false";
    button.textContent = "Resign";
    play.request("resign", { type: "resign" });
    return;
  }
  button.dataset.armed = "true";
  button.textContent = "Really resign?";
  play.say("Press Resign (or x) again to resign.");
  setTimeout(() => {
    button.dataset.armed = "false";
    button.textContent = "Resign";
  }, CONFIRM_MS);
}

async function copy(link, play) {
  try {
    await navigator.clipboard.writeText(link.href);
    play.say("Link copied.");
  } catch {
    getSelection().selectAllChildren(link);
    play.say("Select the link and copy it.");
  }
}

export function bindButtons(play) {
  const on = (id, act) => byId(id).addEventListener("click", act);
  on("ready", () => {
    const me = play.watch.room?.players.find((player) => player.seat === play.seat);
    play.request("ready", { type: "ready", ready: !(me?.ready ?? false) });
  });
  on("leave", () => play.request("leave", { type: "leave" }));
  on("leave-after", () => play.request("leave", { type: "leave" }));
  on("rematch", () => play.request("rematch", { type: "rematch" }));
  on("make-challenge", () => play.request("challenge", { type: "create_challenge" }));
  on("stock-action", () => stock(play));
  on("all-home", () => allHome(play));
  on("hint", () => hint(play));
  on("let-go", () => letGo(play));
  on("resign", () => resign(play));
  on("show-help", () => byId("help").showModal());
  on("copy-play", () => copy(byId("play-link"), play));
  on("copy-watch", () => copy(byId("watch-link"), play));
}

/** Keys typed into a form or with a modifier are not moves. */
function isMoveKey(key) {
  if (key.ctrlKey || key.metaKey || key.altKey) return false;
  const into = key.target.closest?.("input, select, textarea, dialog") ?? null;
  return into === null;
}

export function bindKeys(play) {
  document.addEventListener("keydown", (key) => {
    if (!isMoveKey(key) || document.body.dataset.phase !== "racing") return;
    const pile = PILE_KEYS.indexOf(key.key);
    const board = play.mine?.board;
    if (pile >= 0 && board !== undefined && pile < board.tableau.length) tap(play, `t${pile}`);
    else if (key.key === "w" || key.key === "r") tap(play, key.key);
    else if (key.key === "f") play.pick === null ? play.say("Pick a card up first (a pile's key, w or r).") : home(play);
    else if (key.key === "h") home(play);
    else if (key.key === "H") hint(play);
    else if (key.key === "a") allHome(play);
    else if (key.key === "d" || key.key === " ") stock(play);
    else if (key.key === "Escape") letGo(play);
    else if (key.key === "x") resign(play);
    else if (key.key === "?") byId("help").showModal();
    else return;
    key.preventDefault();
  });
}
