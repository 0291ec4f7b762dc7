// What the profile and leaderboard pages share: reading the server's JSON
// (server/web/api.py), links between the pages, and how a rating, a date and a
// race's place are said. Every page sits one folder below the site's root
// (/players/NAME, /leaderboard/GAME), so links are relative to "../".

import { GAMES } from "./words.js";

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The last segment of the page's path, percent-decoded; null when it is not UTF-8. */
export function lastSegment(pathname) {
  const segment = pathname.slice(pathname.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** GET `url` as JSON: `{ status, body }`; `body` is null when the answer is not JSON. */
export async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** What the page says when the server refused or did not answer. */
export function failureText(answer) {
  const said = answer.body?.message ?? `HTTP ${answer.status}`;
  return `The server could not answer: ${said}.`;
}

/** The page's state for tests and styles (`loading`, `shown`, `missing`, `failed`)
 * and the line that says it. */
export function showStatus(state, text) {
  document.body.dataset.state = state;
  const status = document.getElementById("status");
  status.textContent = text;
  status.hidden = text === "";
}

export function gameName(variant) {
  return GAMES[variant] ?? variant;
}

export function playerHref(name) {
  return `../players/${encodeURIComponent(name)}`;
}

export function boardHref(variant, dealNumber = null) {
  const game = `../leaderboard/${encodeURIComponent(variant)}`;
  return dealNumber === null ? game : `${game}?deal=${dealNumber}`;
}

export function link(href, text, className = "") {
  const anchor = element("a", className, text);
  anchor.href = href;
  return anchor;
}

/** A rating with its provisional mark said in words, not by colour alone. */
export function ratingCell(rating, provisional) {
  const cell = element("td", "num rating", String(rating));
  if (provisional) {
    const mark = element("span", "provisional", "provisional");
    mark.title = "fewer than a few rated races so far: the rating may still move a lot";
    cell.append(" ", mark);
  }
  return cell;
}

/** A rating's move: "+14", "\u22123" or "\u00b10". */
export function changeText(before, after) {
  const change = after - before;
  if (change === 0) return "\u00b10";
  return change > 0 ? `+${change}` : `\u2212${-change}`;
}

const pad = (value) => String(value).padStart(2, "0");

/** A server instant as the reader's local date and time: "2026-12-02 14:05". */
export function formatDate(ms) {
  const at = new Date(ms);
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${day} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A date cell that gives machines the exact instant too. */
export function dateCell(ms) {
  const cell = element("td", "date");
  const time = element("time", "", formatDate(ms));
  time.dateTime = new Date(ms).toISOString();
  cell.append(time);
  return cell;
}

/** A table row of `cells` (text or td elements), each labelled with its column's
 * heading for the narrow layout that stacks a row's cells. */
export function row(table, cells) {
  const headings = Array.from(table.tHead.rows[0].cells, (th) => th.textContent);
  const line = element("tr");
  cells.forEach((cell, at) => {
    const td = typeof cell === "string" ? element("td", "", cell) : cell;
    td.dataset.label = headings[at];
    line.append(td);
  });
  return line;
}

/** Keep a table a table for screen readers when CSS lays its rows out as blocks. */
export function keepTableRoles(table) {
  table.setAttribute("role", "table");
  for (const group of table.querySelectorAll("thead, tbody")) group.setAttribute("role", "rowgroup");
  for (const tr of table.querySelectorAll("tr")) tr.setAttribute("role", "row");
  for (const th of table.querySelectorAll("th")) th.setAttribute("role", "columnheader");
  for (const td of table.querySelectorAll("td")) td.setAttribute("role", "cell");
}
