// A game's leaderboard, /leaderboard/GAME: accounts by rating, or with ?deal=N
// the fastest wins of that public deal; ?page=P shows places 20 at a time.
// Read from /api/leaderboard/GAME?deal=N&offset=K&limit=20.

import {
  dateCell, element, failureText, gameName, getJson, lastSegment, link, playerHref, ratingCell, row, showStatus,
} from "./records.js";
import { GAMES, formatDuration } from "./words.js";

export const PAGE_SIZE = 20;
const byId = (id) => document.getElementById(id);

/** What the address asks for: the game, the deal (or null) and the page (from 1). */
export function boardQuery(location) {
  const params = new URLSearchParams(location.search);
  const page = /^[1-9][0-9]{0,5}$/.test(params.get("page") ?? "") ? Number(params.get("page")) : 1;
  return { game: lastSegment(location.pathname), deal: params.get("deal"), page };
}

/** The address of page `page` of the board (null: the rating board). */
function pageHref(query, page) {
  const params = new URLSearchParams();
  if (query.deal !== null) params.set("deal", query.deal);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search === "" ? `./${encodeURIComponent(query.game)}` : `?${search}`;
}

function renderGames(current) {
  const links = Object.entries(GAMES).map(([key, name]) => {
    const anchor = link(`./${key}`, name, "game");
    if (key === current) anchor.setAttribute("aria-current", "page");
    return anchor;
  });
  byId("games").replaceChildren(...links);
}

function renderForm(query) {
  const known = Object.hasOwn(GAMES, query.game ?? "");
  byId("deal-form").hidden = !known;
  if (!known) return;
  byId("deal").value = query.deal ?? "";
  const byRating = byId("by-rating");
  byRating.href = `./${encodeURIComponent(query.game)}`;
  byRating.hidden = query.deal === null;
}

function headings(table, names) {
  table.tHead.rows[0].replaceChildren(...names.map(([name, className]) => {
    const th = element("th", className, name);
    th.scope = "col";
    return th;
  }));
}

function nameCell(name) {
  const cell = element("td", "player");
  cell.append(link(playerHref(name), name));
  return cell;
}

function ratingRows(table, rows) {
  headings(table, [["#", "num"], ["player", ""], ["rating", "num"], ["rated races", "num"]]);
  return rows.map((line) => row(table, [
    element("td", "num place", String(line.place)),
    nameCell(line.name),
    ratingCell(line.rating, line.provisional),
    element("td", "num", String(line.races)),
  ]));
}

function dealRows(table, rows) {
  headings(table, [["#", "num"], ["player", ""], ["time", "num"], ["date", ""]]);
  return rows.map((line) => row(table, [
    element("td", "num place", String(line.place)),
    nameCell(line.name),
    element("td", "num", formatDuration(line.elapsed_ms, true)),
    dateCell(line.at_ms),
  ]));
}

function renderPages(query, board) {
  const first = (query.page - 1) * PAGE_SIZE;
  const pages = byId("pages");
  pages.hidden = board.total <= PAGE_SIZE && query.page === 1;
  byId("previous").hidden = query.page === 1;
  byId("previous").href = pageHref(query, query.page - 1);
  byId("next").hidden = first + board.rows.length >= board.total;
  byId("next").href = pageHref(query, query.page + 1);
  const range = board.rows.length === 0 ? "no places here" : `places ${first + 1}\u2013${first + board.rows.length}`;
  byId("range").textContent = `${range} of ${board.total}`;
}

function render(query, board) {
  const game = gameName(board.variant);
  const title = board.deal_number === null ? `${game}: by rating` : `${game}: fastest wins of deal ${board.deal_number}`;
  byId("title").textContent = title;
  document.title = `solrace: ${title}`;
  byId("note").textContent = board.deal_number === null
    ? `Accounts show here once they have ${board.min_races} rated races of ${game}.`
    : `Each account's fastest win of public deal ${board.deal_number}, outside practice rooms.`;
  const table = byId("board");
  const rows = board.deal_number === null ? ratingRows(table, board.rows) : dealRows(table, board.rows);
  table.tBodies[0].replaceChildren(...rows);
  table.hidden = rows.length === 0;
  renderPages(query, board);
  showStatus("shown", rows.length === 0 ? "No one is on this board yet." : "");
}

async function main() {
  const query = boardQuery(window.location);
  renderGames(query.game);
  renderForm(query);
  if (!Object.hasOwn(GAMES, query.game ?? "")) {
    byId("title").textContent = "No such game";
    showStatus("missing", `There is no game \u201c${query.game ?? ""}\u201d: pick one of the games above.`);
    return;
  }
  const params = new URLSearchParams({ offset: String((query.page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE) });
  if (query.deal !== null) params.set("deal", query.deal);
  let answer;
  try {
    answer = await getJson(`../api/leaderboard/${encodeURIComponent(query.game)}?${params}`);
  } catch {
    showStatus("failed", "The server could not be reached; reload the page to try again.");
    return;
  }
  if (answer.status === 200 && answer.body !== null) render(query, answer.body);
  else showStatus("failed", failureText(answer));
}

main();
