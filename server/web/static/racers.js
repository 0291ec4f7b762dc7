// The live panel beside a player's board: every racer's cards home, moves, state and (for
// a bot) level, then a challenge's ghosts (progress only, as the server shows them), and
// the race clock with the terminal's warnings at 60 and 10 seconds left.

import { CARDS, OUTCOMES, formatDuration } from "./words.js";

const byId = (id) => document.getElementById(id);
const WARNINGS_S = [60, 10];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function racerLine(player, room, you) {
  const total = CARDS[room.variant] ?? 0;
  const line = element("li", "racer");
  line.dataset.seat = String(player.seat);
  line.dataset.outcome = player.outcome;
  const name = element("span", "racer-name", player.name);
  if (player.seat === you) name.append(element("span", "seat-mark you", "you"));
  const state = player.away && player.outcome === "playing" ? "away" : OUTCOMES[player.outcome] ?? player.outcome;
  const bar = element("div", "progress");
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-label", `${player.name}: cards home`);
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", String(total));
  bar.setAttribute("aria-valuenow", String(player.progress));
  const fill = element("div", "fill");
  fill.style.width = total === 0 ? "0%" : `${(100 * player.progress) / total}%`;
  bar.append(fill, element("span", "progress-text", `${player.progress} / ${total}`));
  const foot = element("span", "racer-foot");
  foot.append(element("span", "racer-moves", player.moves === 1 ? "1 move" : `${player.moves} moves`));
  if (player.bot) foot.append(element("span", "seat-mark bot", player.level ? `bot, ${player.level}` : "bot"));
  line.append(name, element("span", `badge badge-${player.outcome}`, state), bar, foot);
  return line;
}

/** A ghost drawn as a racer would be, marked as a ghost. */
function ghostLine(ghost, room) {
  const line = racerLine({ ...ghost, seat: -1, away: false, bot: false }, room, null);
  delete line.dataset.seat;
  line.classList.add("ghost");
  line.dataset.ghost = String(ghost.ghost);
  line.querySelector(".racer-name").append(element("span", "seat-mark ghost", "ghost"));
  return line;
}

export function renderRacers(room, you) {
  const racers = room.players.map((player) => racerLine(player, room, you));
  const ghosts = (room.ghosts ?? []).map((ghost) => ghostLine(ghost, room));
  byId("racers").replaceChildren(...racers, ...ghosts);
}

/** The clock's warning level (60, 10) for `leftMs` left, or 0 for none. */
export function warningFor(leftMs) {
  const left = leftMs / 1000;
  return WARNINGS_S.filter((limit) => left <= limit).at(-1) ?? 0;
}

let warned = 0;

/** The header clock: the countdown, the time left (with its warnings), or the race time. */
export function renderClock(watch, now, say) {
  const room = watch.room;
  const clock = byId("clock");
  if (room === null || now === null) return;
  let text = "";
  let warning = 0;
  if (room.phase === "countdown") text = `starts in ${Math.max(0, Math.ceil((room.start_at_ms - now) / 1000))}`;
  if (room.phase === "racing" && watch.endsAtMs !== null) {
    const left = watch.endsAtMs - now;
    warning = warningFor(left);
    text = `${formatDuration(left)} left`;
  }
  if (room.phase === "finished" && watch.result !== null) {
    text = `finished in ${formatDuration(watch.result.ended_at_ms - watch.result.start_at_ms, true)}`;
  }
  clock.textContent = text;
  clock.dataset.warn = warning === 0 ? "" : String(warning);
  if (warning !== 0 && warning !== warned) say(`${warning} seconds left`);
  warned = warning;
  const count = byId("banner").querySelector(".count-down");
  if (count !== null && room.phase === "countdown") {
    count.textContent = String(Math.max(0, Math.ceil((room.start_at_ms - now) / 1000)));
  }
}
