// Drawing the page from a Watch (room.js): header, banner, one panel per racer
// with its progress bar and board, the tabs used at phone width; the results
// and the seed check are results.js's. Only boards that changed are drawn again.

import { drawBoard } from "./board.js";
import { renderResults } from "./results.js";
import { CARDS, GAMES, OUTCOMES, STOPPED, formatDuration, lastRaceLines, redealRule, stoppedByHost } from "./words.js";

const drawn = new Map(); // seat -> the board object its panel shows
let selected = null;

const byId = (id) => document.getElementById(id);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The previous race in brief, under the lobby's terms. */
function lastRaceFor(summary) {
  const [heading, ...places] = lastRaceLines(summary);
  const block = element("div", "last-race");
  const list = element("ol");
  list.append(...places.map((place) => element("li", "", place)));
  block.append(element("span", "", heading), list);
  return block;
}

export function renderStatus(state, text) {
  document.body.dataset.link = state;
  byId("link").textContent = text;
  if (state === "stopped") byId("spectators").textContent = "";
}

/** Show one racer's panel (at phone width; every panel shows on a wide screen). */
export function selectSeat(seat) {
  selected = seat;
  for (const node of document.querySelectorAll("#tabs [data-seat], #boards [data-seat]")) {
    const on = Number(node.dataset.seat) === seat;
    node.classList.toggle("active", on);
    if (node.getAttribute("role") === "tab") node.setAttribute("aria-selected", String(on));
  }
}

/** Show the next (1) or previous (-1) racer's panel, as a swipe at phone width does. */
export function stepSeat(direction) {
  const seats = Array.from(document.querySelectorAll("#tabs [data-seat]"), (tab) => Number(tab.dataset.seat));
  const at = seats.indexOf(selected);
  const next = seats[at + direction];
  if (next !== undefined) {
    selectSeat(next);
    revealTab();
  }
}

/** Scroll the row of tabs (not the page) so the chosen racer's tab is in sight. */
export function revealTab() {
  const strip = byId("tabs");
  const tab = strip.querySelector(".tab.active");
  if (tab === null) return;
  const left = tab.getBoundingClientRect().left - strip.getBoundingClientRect().left + strip.scrollLeft;
  const right = left + tab.offsetWidth;
  if (left < strip.scrollLeft) strip.scrollLeft = left;
  else if (right > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = right - strip.clientWidth;
}

function clockText(watch, now) {
  const room = watch.room;
  if (room.phase === "countdown") return `starts in ${Math.max(0, Math.ceil((room.start_at_ms - now) / 1000))}`;
  if (room.phase === "racing") {
    return `${formatDuration(now - room.start_at_ms)} \u00b7 ${formatDuration(watch.endsAtMs - now)} left`;
  }
  if (room.phase === "finished" && watch.result !== null) {
    return `finished in ${formatDuration(watch.result.ended_at_ms - watch.result.start_at_ms, true)}`;
  }
  return "";
}

export function renderClock(watch, now) {
  if (watch.room === null || now === null) return;
  byId("clock").textContent = clockText(watch, now);
  for (const left of document.querySelectorAll("#boards .idle")) {
    left.querySelector(".idle-left").textContent = idleLeft(Number(left.dataset.timeoutAt), now);
  }
  if (watch.room.phase === "countdown") {
    const left = Math.max(0, Math.ceil((watch.room.start_at_ms - now) / 1000));
    const count = byId("banner").querySelector(".count-down");
    if (count !== null) count.textContent = String(left);
  }
}

/** The race the host set up: the deal, the time limit and what else applies. */
function termsText(settings) {
  const deal = settings.deal_number !== null ? `public deal ${settings.deal_number}`
    : settings.winnable_only ? "secret deal the solver has won" : "secret deal";
  const terms = [deal, `${formatDuration(settings.time_limit_s * 1000)} time limit`];
  if (settings.idle_limit_s !== null) terms.push(`idle limit ${settings.idle_limit_s} s once someone has finished`);
  if (settings.spectator_delay_s > 0) terms.push(`boards shown ${settings.spectator_delay_s} s late`);
  if (settings.practice) terms.push("practice room");
  return terms.join(" \u00b7 ");
}

function bannerFor(room, result) {
  const banner = element("div", `banner-${room.phase}`);
  if (room.phase === "lobby") {
    const waiting = room.players.filter((player) => !player.ready).length;
    const seats = `${room.players.length} of ${room.settings.max_players} seats taken`;
    banner.append(element("strong", "", "In the lobby"), ` \u2014 ${seats}, ${waiting} not ready yet`);
    banner.append(element("span", "terms", termsText(room.settings)));
    const rule = redealRule(room.variant, room.settings.rule_option ?? "");
    if (rule !== "") banner.append(element("span", "terms", rule));
    if (room.last_race != null) banner.append(lastRaceFor(room.last_race));
  } else if (room.phase === "countdown") {
    banner.append(element("span", "", "Get set: the race starts in "), element("strong", "count-down", ""));
    banner.append(element("span", "terms", termsText(room.settings)));
    const rule = redealRule(room.variant, room.settings.rule_option ?? "");
    if (rule !== "") banner.append(element("span", "terms", rule));
    banner.append(element("span", "commit", `deal committed: ${room.seed_commit.slice(0, 16)}\u2026`));
  } else if (room.phase === "racing") {
    const racing = room.players.filter((player) => player.outcome === "playing").length;
    banner.append(element("strong", "", "Race on"), ` \u2014 ${racing} of ${room.players.length} still racing`);
    const delay = room.settings.spectator_delay_s;
    if (delay > 0) {
      banner.append(element("span", "delay", `boards are shown ${delay} s late; cards home and moves are live`));
    }
  } else {
    banner.append(element("strong", "", `Race ${room.race_no} is over`));
    if (result?.ended_by_host != null) banner.append(" \u2014 the host ended it early");
  }
  return banner;
}

/** A racer's badge: its race's outcome once it has one, even if it has left since;
 * `stopped`: the host's early end of the race is what ended it. */
function badgeFor(player, phase, stopped) {
  const racing = phase === "racing" || phase === "finished";
  if (player.away && !(racing && player.outcome !== "playing")) return ["away", "away"];
  if (!racing) return player.ready ? ["ready", "ready"] : ["waiting", "not ready"];
  return [player.outcome, stopped ? STOPPED : OUTCOMES[player.outcome] ?? player.outcome];
}

/** Whether the race's results say the host's early end stopped the racer in `seat`. */
function stoppedAt(watch, seat) {
  const line = watch.result?.ranking.find((result) => result.seat === seat);
  return line !== undefined && stoppedByHost(line, watch.result.ended_by_host);
}

/** What a seat is beside its name: a bot (and its level), a guest among accounts, or an account's
 * rating for the room's game (once it has one); null when there is nothing to say. */
function seatMark(player, room) {
  if (player.bot) return element("span", "seat-mark", player.level ? `bot, ${player.level}` : "bot");
  if (!player.account) return room.players.some((p) => p.account) ? element("span", "seat-mark", "guest") : null;
  if (player.rating == null) return null;
  return element("span", "seat-mark rating", `rating ${player.rating}${player.provisional ? ", provisional" : ""}`);
}

function panelHead(player, watch, board, idleAt, now) {
  const room = watch.room;
  const head = element("header", "panel-head");
  const [kind, label] = badgeFor(player, room.phase, stoppedAt(watch, player.seat));
  const name = element("h3", "name", player.name);
  if (room.host === player.seat) name.append(element("span", "host", "host"));
  const mark = seatMark(player, room);
  if (mark !== null) name.append(mark);
  head.append(name, element("span", `badge badge-${kind}`, label));
  if (room.phase === "lobby" || room.phase === "countdown") return head;
  const total = board === null ? 0 : board.total;
  const bar = element("div", "progress");
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-label", `${player.name}: cards home`);
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", String(total));
  bar.setAttribute("aria-valuenow", String(player.progress));
  const fill = element("div", "fill");
  fill.style.width = total === 0 ? "0%" : `${(100 * player.progress) / total}%`;
  bar.append(fill, element("span", "progress-text", total === 0 ? "" : `${player.progress} / ${total}`));
  const stats = element("div", "stats");
  stats.append(element("span", "moves", player.moves === 1 ? "1 move" : `${player.moves} moves`));
  if (player.finished_at_ms !== null && room.start_at_ms !== null) {
    stats.append(element("span", "finish", formatDuration(player.finished_at_ms - room.start_at_ms, true)));
  }
  head.append(bar, stats);
  if (idleAt !== null && player.outcome === "playing") head.append(idleWarning(idleAt, now));
  return head;
}

/** How long until an idle racer times out, for the warning on their panel. */
function idleLeft(timeoutAtMs, now) {
  return now === null ? "" : ` in ${formatDuration(Math.ceil((timeoutAtMs - now) / 1000) * 1000)}`;
}

/** The warning the server gave a racer idle too long: when the timeout drops them. */
function idleWarning(timeoutAtMs, now) {
  const warning = element("p", "idle");
  warning.setAttribute("role", "status");
  warning.dataset.timeoutAt = String(timeoutAtMs);
  warning.append(
    element("strong", "", "Idle too long"),
    ": times out",
    element("span", "idle-left", idleLeft(timeoutAtMs, now)),
    " unless they move",
  );
  return warning;
}

function panelFor(seat) {
  let panel = byId("boards").querySelector(`:scope > [data-seat="${seat}"]`);
  if (panel === null) {
    panel = element("article", "panel");
    panel.dataset.seat = String(seat);
    panel.setAttribute("role", "tabpanel");
    panel.append(element("header", "panel-head"), element("div", "board"));
    drawn.delete(seat);
  }
  return panel;
}

function renderPanel(player, watch, now) {
  const board = watch.room.phase === "lobby" || watch.room.phase === "countdown" ? null : watch.boardOf(player.seat);
  const panel = panelFor(player.seat);
  panel.dataset.outcome = player.outcome;
  panel.dataset.version = String(watch.boards.get(player.seat)?.version ?? 0);
  const idleAt = watch.room.phase === "racing" ? watch.idleTimeoutAt(player.seat) : null;
  panel.dataset.idle = String(idleAt !== null && player.outcome === "playing");
  panel.querySelector(".panel-head").replaceWith(panelHead(player, watch, board, idleAt, now));
  if (drawn.get(player.seat) !== board) {
    drawn.set(player.seat, board);
    const area = panel.querySelector(".board");
    area.replaceChildren(board === null ? element("p", "no-board", "The board shows when the race starts.") : drawBoard(board));
  }
  return panel;
}

function renderTabs(room, watch) {
  const tabs = room.players.map((player) => {
    const tab = element("button", "tab");
    tab.type = "button";
    tab.dataset.seat = String(player.seat);
    tab.setAttribute("role", "tab");
    const board = watch.boardOf(player.seat);
    const share = board === null ? "" : ` ${Math.round((100 * player.progress) / board.total)}%`;
    tab.append(element("span", "tab-name", player.name), element("span", "tab-share", share));
    if (room.phase === "racing" && player.outcome === "playing" && watch.idleTimeoutAt(player.seat) !== null) {
      tab.append(element("span", "tab-idle", "idle"));
    }
    return tab;
  });
  byId("tabs").replaceChildren(...tabs);
}

/** A challenge race's ghosts: each recorded run's progress as the server last showed
 * it (never its moves or board); hidden in any other room. */
function renderGhosts(room) {
  const ghosts = room.ghosts ?? [];
  byId("ghosts").hidden = ghosts.length === 0;
  const total = CARDS[room.variant] ?? 0;
  byId("ghost-list").replaceChildren(...ghosts.map((ghost) => {
    const line = element("li", "ghost");
    line.dataset.ghost = String(ghost.ghost);
    line.dataset.outcome = ghost.outcome;
    const moves = ghost.moves === 1 ? "1 move" : `${ghost.moves} moves`;
    line.append(
      element("span", "ghost-name", ghost.name + (ghost.guest ? " (guest)" : "")),
      element("span", `badge badge-${ghost.outcome}`, OUTCOMES[ghost.outcome] ?? ghost.outcome),
      element("span", "ghost-progress", `${ghost.progress} / ${total} home`),
      element("span", "ghost-moves", moves),
    );
    return line;
  }));
}

export function renderPage(watch, now) {
  const room = watch.room;
  if (room === null) return;
  document.body.dataset.phase = room.phase;
  const variant = GAMES[room.variant] ?? room.variant;
  const id = byId("room-id");
  id.replaceChildren("Room ", element("strong", "code", room.code), ` \u00b7 ${variant} \u00b7 race ${room.race_no}`);
  byId("banner").replaceChildren(bannerFor(room, watch.result));
  const seats = new Set(room.players.map((player) => player.seat));
  for (const seat of drawn.keys()) if (!seats.has(seat)) drawn.delete(seat);
  byId("boards").replaceChildren(...room.players.map((player) => renderPanel(player, watch, now)));
  renderTabs(room, watch);
  renderGhosts(room);
  if (!seats.has(selected) && room.players.length > 0) selected = room.players[0].seat;
  selectSeat(selected);
  renderResults(watch);
  if (document.body.dataset.link !== "stopped") {
    byId("spectators").textContent = room.spectators === 1 ? "1 watching" : `${room.spectators} watching`;
  }
  renderClock(watch, now);
}
