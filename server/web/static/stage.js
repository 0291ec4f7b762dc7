// Which part of the play page shows in each phase of the room, the banner over it, the
// player's board and buttons, the links to share, and every racer's moves once it is over.

import { stockAction } from "./hand.js";
import { racing as isRacing } from "./moves.js";
import { GAMES } from "./words.js";

const byId = (id) => document.getElementById(id);
const STOCK_WORDS = { draw: "Draw", recycle: "Turn over", deal: "Deal", redeal: "Redeal" };

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function bannerFor(room, you) {
  const banner = element("div", `banner-${room.phase}`);
  const me = room.players.find((player) => player.seat === you);
  if (room.phase === "lobby") {
    const waiting = room.players.filter((player) => !player.ready).length;
    banner.append(element("strong", "", "In the lobby"), ` \u2014 ${waiting} not ready yet`);
    if (me !== undefined && !me.ready) banner.append(element("span", "terms", "Press Ready when you are: the race starts once everyone is."));
  } else if (room.phase === "countdown") {
    banner.append(element("span", "", "Get set: the race starts in "), element("strong", "count-down", ""));
    banner.append(element("span", "commit", `deal committed: SHA-256 ${room.seed_commit}`));
  } else if (room.phase === "racing") {
    const racing = room.players.filter((player) => player.outcome === "playing").length;
    banner.append(element("strong", "", "Race on"), ` \u2014 ${racing} of ${room.players.length} still racing`);
  } else {
    banner.append(element("strong", "", `Race ${room.race_no} is over`));
  }
  return banner;
}

function drawTable(play) {
  const mine = play.mine;
  const shown = play.shownTable ?? {};
  if (shown.board === mine?.board && shown.pick === play.pick && shown.version === mine?.version) return;
  play.shownTable = { board: mine?.board, pick: play.pick, version: mine?.version };
  play.table.area.dataset.version = mine === null ? "" : String(mine.version);
  if (mine === null) play.table.clear("Your board shows when the race starts.");
  else play.table.draw(mine.board, play.pick);
}

function drawControls(play) {
  const board = play.mine?.board ?? null;
  const racing = isRacing(play);
  const action = board === null ? null : stockAction(board);
  const stock = byId("stock-action");
  stock.textContent = STOCK_WORDS[action] ?? "Draw";
  stock.disabled = !racing || action === null;
  for (const id of ["all-home", "let-go", "resign"]) byId(id).disabled = !racing;
  const hint = byId("hint");
  hint.hidden = play.watch.room?.settings.practice !== true;
  hint.disabled = !racing;
  byId("let-go").disabled = !racing || play.pick === null;
}

/** Every racer's moves as the server logged them, once the race is over. */
function drawLogs(watch) {
  const logs = byId("logs");
  const result = watch.result;
  if (result === null) {
    logs.replaceChildren();
    return;
  }
  if (logs.dataset.race === String(result.race_no)) return;
  logs.dataset.race = String(result.race_no);
  logs.replaceChildren(...result.ranking.map((line) => {
    const block = element("details", "log");
    block.dataset.seat = String(line.seat);
    block.append(element("summary", "", `${line.name}: ${line.log.length} moves`));
    block.append(element("p", "log-moves", line.log.map((entry) => entry.move).join(" \u00b7 ")));
    return block;
  }));
}

function drawLinks(play) {
  const here = new URL(window.location.href);
  here.search = "";
  here.hash = "";
  const watch = new URL(`../watch/${play.code}`, here);
  byId("play-link").href = here.href;
  byId("play-link").textContent = here.href;
  byId("watch-link").href = watch.href;
  byId("watch-link").textContent = watch.href;
}

export function renderStage(play) {
  const room = play.watch.room;
  document.body.dataset.phase = room.phase;
  const id = byId("room-id");
  id.replaceChildren("Room ", element("strong", "code", room.code), ` \u00b7 ${GAMES[room.variant] ?? room.variant} \u00b7 race ${room.race_no}`);
  byId("banner").replaceChildren(bannerFor(room, play.seat));
  byId("lobby").hidden = room.phase !== "lobby" && room.phase !== "countdown";
  byId("race").hidden = room.phase !== "racing" && room.phase !== "finished";
  byId("ready").disabled = room.phase !== "lobby";
  byId("leave").disabled = room.phase !== "lobby";
  byId("rematch").hidden = room.host !== play.seat;
  if (room.phase !== "finished") byId("challenge-made").hidden = true;
  drawTable(play);
  drawControls(play);
  drawLogs(play.watch);
  drawLinks(play);
  byId("spectators").textContent = room.spectators === 1 ? "1 watching" : `${room.spectators} watching`;
}
