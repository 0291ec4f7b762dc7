// A player's page, /players/NAME: the account's ratings per game and its best
// time on each public deal won, read from /api/players/NAME, and its races, newest
// first, of every game or one, a page at a time from /api/players/NAME/races.

import {
  boardHref, changeText, dateCell, element, failureText, formatDate, gameName, getJson, keepTableRoles,
  lastSegment, link, ratingCell, row, showStatus,
} from "./records.js";
import { CARDS, GAMES, OUTCOMES, formatDuration } from "./words.js";

export const RACES_PAGE = 20;
const byId = (id) => document.getElementById(id);

/** Fill `table`'s body with `rows`, or say it is empty with the paragraph `emptyId`. */
function fill(table, emptyId, rows) {
  table.tBodies[0].replaceChildren(...rows);
  table.hidden = rows.length === 0;
  byId(emptyId).hidden = rows.length !== 0;
}

function ratingRows(table, ratings) {
  return ratings.map((rating) => row(table, [
    gameCell(rating.variant),
    ratingCell(rating.rating, rating.provisional),
    element("td", "num", String(rating.races)),
  ]));
}

function gameCell(variant, dealNumber = null) {
  const cell = element("td", "game");
  cell.append(link(boardHref(variant, dealNumber), gameName(variant)));
  return cell;
}

function dealCell(variant, dealNumber) {
  const cell = element("td", "deal");
  if (dealNumber === null) cell.textContent = "secret";
  else cell.append(link(boardHref(variant, dealNumber), `deal ${dealNumber}`));
  return cell;
}

/** How a race counted: its rating's move, or why it moved none. */
function ratedCell(race) {
  const cell = element("td", "rated");
  if (race.practice) cell.textContent = "practice";
  else if (!race.rated || race.rating_before === null || race.rating_after === null) cell.textContent = "unrated";
  else {
    const change = changeText(race.rating_before, race.rating_after);
    const kind = race.rating_after > race.rating_before ? "up" : race.rating_after < race.rating_before ? "down" : "same";
    cell.append(`${race.rating_before} \u2192 ${race.rating_after} `, element("span", `change ${kind}`, `(${change})`));
  }
  return cell;
}

function raceRows(table, races) {
  return races.map((race) => {
    const total = CARDS[race.variant];
    const line = row(table, [
      dateCell(race.at_ms),
      gameCell(race.variant),
      element("td", "room", `${race.code} \u00b7 race ${race.race_no}`),
      dealCell(race.variant, race.deal_number),
      element("td", "num", `${race.place} / ${race.racers}`),
      element("td", `outcome outcome-${race.outcome}`, OUTCOMES[race.outcome] ?? race.outcome),
      element("td", "num", total === undefined ? String(race.progress) : `${race.progress} / ${total}`),
      element("td", "num", formatDuration(race.elapsed_ms, true)),
      element("td", "num", String(race.moves)),
      ratedCell(race),
    ]);
    if (race.place === 1) line.classList.add("first");
    return line;
  });
}

function bestRows(table, best) {
  return best.map((time) => row(table, [
    gameCell(time.variant),
    dealCell(time.variant, time.deal_number),
    element("td", "num", formatDuration(time.elapsed_ms, true)),
    dateCell(time.at_ms),
  ]));
}

/** The account's races from the newest on, only of `game` unless it is "". */
class Races {
  constructor(name) {
    this.name = name;
    this.game = "";
    this.next = null;
    this.asked = 0; // the latest request; an older answer that comes late is dropped
  }

  async show(game) {
    this.game = game;
    this.next = null;
    byId("recent").tBodies[0].replaceChildren();
    return this.more();
  }

  /** The next page after those shown; false when the server could not answer. */
  async more() {
    const asked = ++this.asked;
    const params = new URLSearchParams({ limit: String(RACES_PAGE) });
    if (this.game !== "") params.set("game", this.game);
    if (this.next !== null) params.set("before", String(this.next));
    let answer;
    try {
      answer = await getJson(`../api/players/${encodeURIComponent(this.name)}/races?${params}`);
    } catch {
      answer = { status: 0, body: { message: "the server could not be reached" } };
    }
    if (asked !== this.asked) return true;
    if (answer.status !== 200 || answer.body === null) {
      byId("recent-empty").textContent = failureText(answer);
      return false;
    }
    this.append(answer.body);
    return true;
  }

  append(page) {
    const table = byId("recent");
    table.tBodies[0].append(...raceRows(table, page.races));
    keepTableRoles(table);
    const count = table.tBodies[0].rows.length;
    table.hidden = count === 0;
    const none = this.game === "" ? "No race yet." : `No race of ${gameName(this.game)} yet.`;
    byId("recent-empty").textContent = count === 0 ? none : "";
    this.next = page.next_before;
    byId("older").hidden = this.next === null;
  }
}

function followRaces(races) {
  const picker = byId("races-game");
  picker.append(...Object.entries(GAMES).map(([key, name]) => {
    const option = element("option", "", name);
    option.value = key;
    return option;
  }));
  picker.addEventListener("change", () => races.show(picker.value));
  byId("older").addEventListener("click", () => races.more());
}

async function render(profile) {
  document.title = `solrace: ${profile.name}`;
  byId("name").textContent = profile.name;
  const since = element("time", "", formatDate(profile.created_ms).slice(0, 10));
  since.dateTime = new Date(profile.created_ms).toISOString();
  byId("since").replaceChildren("Member since ", since);
  fill(byId("ratings"), "ratings-empty", ratingRows(byId("ratings"), profile.ratings));
  fill(byId("best"), "best-empty", bestRows(byId("best"), profile.best));
  const races = new Races(profile.name);
  followRaces(races);
  await races.show("");
  byId("profile").hidden = false;
  showStatus("shown", "");
}

async function main() {
  const name = lastSegment(window.location.pathname);
  if (name === null || name === "") {
    showStatus("missing", "That is not a player's name.");
    return;
  }
  document.title = `solrace: ${name}`;
  let answer;
  try {
    answer = await getJson(`../api/players/${encodeURIComponent(name)}`);
  } catch {
    showStatus("failed", "The server could not be reached; reload the page to try again.");
    return;
  }
  if (answer.status === 200 && answer.body !== null) await render(answer.body);
  else if (answer.status === 404) showStatus("missing", `There is no player named \u201c${name}\u201d on this server.`);
  else showStatus("failed", failureText(answer));
}

main();
