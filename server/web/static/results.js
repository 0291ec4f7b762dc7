// The watch page's results: the ranking (each account's name leads to its
// profile, and a rated race shows each account's rating change), links to the
// game's leaderboards, the seed check and the solver's verdict.

import { boardHref, changeText, element, gameName, link, playerHref } from "./records.js";
import { checkSeed, describeSeed } from "./seed.js";
import { OUTCOMES, STOPPED, formatDuration, hostEndText, redealRule, stoppedByHost } from "./words.js";

let seedChecked = null;

const byId = (id) => document.getElementById(id);

/** One line per racer: from the race's results, or, for a room finished before its
 * replies carried them, its players unranked. */
function resultRows(watch) {
  const room = watch.room;
  if (watch.result !== null) {
    const total = watch.startBoard?.total ?? watch.boardOf(watch.result.ranking[0]?.seat)?.total;
    const end = watch.result.ended_by_host;
    return watch.result.ranking.map((r) => ({
      rank: String(r.rank), seat: r.seat, name: r.name, outcome: r.outcome, progress: r.progress, total,
      moves: r.moves, elapsed: r.elapsed_ms, stopped: stoppedByHost(r, end),
    }));
  }
  return room.players.map((p) => ({
    rank: "", seat: p.seat, name: p.name, outcome: p.outcome, progress: p.progress, total: watch.boardOf(p.seat)?.total,
    moves: p.moves, elapsed: p.finished_at_ms === null ? null : p.finished_at_ms - room.start_at_ms, stopped: false,
  }));
}

/** A racer's name, leading to their profile when they raced as an account. */
function nameCell(room, line) {
  const cell = element("td");
  const player = room.players.find((p) => p.seat === line.seat);
  if (player?.account === true && player.name === line.name) cell.append(link(playerHref(line.name), line.name));
  else cell.textContent = line.name;
  return cell;
}

/** "1500 \u2192 1514 (+14)" for an account a rated race moved; empty otherwise. */
function ratingCell(change, shown) {
  const cell = element("td", "rating-change");
  cell.hidden = !shown;
  if (change === undefined) return cell;
  cell.append(`${change.before} \u2192 ${change.after} (${changeText(change.before, change.after)})`);
  if (change.provisional) cell.append(" ", element("span", "provisional", "provisional"));
  return cell;
}

function rankingRow(room, line, changes) {
  const row = element("tr", `result-${line.outcome}`);
  const home = line.total === undefined ? String(line.progress) : `${line.progress} / ${line.total}`;
  const time = line.elapsed === null ? "" : formatDuration(line.elapsed, true);
  const said = line.stopped ? STOPPED : OUTCOMES[line.outcome] ?? line.outcome;
  row.append(element("td", "", line.rank), nameCell(room, line));
  for (const text of [said, home, String(line.moves), time]) row.append(element("td", "", text));
  row.append(ratingCell(changes.find((change) => change.seat === line.seat), changes.length > 0));
  return row;
}

/** The game's board by rating and, for a public deal, that deal's fastest wins. */
function boardLinks(room) {
  const game = gameName(room.variant);
  const links = [link(boardHref(room.variant), `${game} leaderboard`)];
  const deal = room.settings.deal_number;
  if (deal !== null) links.push(" \u00b7 ", link(boardHref(room.variant, deal), `fastest wins of deal ${deal}`));
  byId("board-links").replaceChildren(...links);
}

export function renderResults(watch) {
  const room = watch.room;
  const results = byId("results");
  results.hidden = room.phase !== "finished";
  if (room.phase !== "finished") seedChecked = null;
  if (results.hidden) return;
  const ended = byId("ended");
  ended.hidden = watch.result?.ended_by_host == null;
  ended.textContent = ended.hidden ? "" : hostEndText(watch.result);
  byId("rule").textContent = redealRule(room.variant, room.settings.rule_option ?? "");
  const changes = room.rating_changes ?? [];
  byId("rating-head").hidden = changes.length === 0;
  byId("ranking").replaceChildren(...resultRows(watch).map((line) => rankingRow(room, line, changes)));
  boardLinks(room);
  renderSeed(watch);
  byId("verdict").textContent = verdictText(room.verdict, room.race_no);
}

/** The solver's verdict on the deal just raced, once the server has one. */
function verdictText(verdict, raceNo) {
  if (!verdict || verdict.race_no !== raceNo) return "";
  if (verdict.verdict === "won") return `Solver: this deal can be won; it found a line of ${verdict.line_moves} moves.`;
  if (verdict.verdict === "unwinnable") return "Solver: this deal cannot be won, whatever the play.";
  return `Solver: no verdict on this deal within ${verdict.budget_s} s of search.`;
}

function renderSeed(watch) {
  const seed = watch.result?.seed ?? watch.room.seed;
  const published = watch.result?.seed_commit ?? watch.room.seed_commit;
  const commit = watch.commitSeen ?? published;
  if (seed === null || commit === null || seedChecked === `${seed}/${commit}`) return;
  seedChecked = `${seed}/${commit}`;
  byId("seed").textContent = `Deal: ${describeSeed(seed)}`;
  const check = byId("seed-check");
  const when = watch.commitSeen === null ? "published with the results" : "published at the countdown";
  check.dataset.ok = "";
  check.textContent = "checking the seed\u2026";
  checkSeed(seed, commit).then(({ ok, digest }) => {
    if (seedChecked !== `${seed}/${commit}`) return;
    const same = commit === published;
    check.dataset.ok = String(ok && same);
    check.textContent = ok && same
      ? `\u2713 SHA-256 of the seed is ${digest.slice(0, 16)}\u2026, the commitment ${when}: the deal was fixed before the start.`
      : `\u2717 The seed does not match the commitment ${when} (SHA-256 ${digest.slice(0, 16)}\u2026, commitment ${commit.slice(0, 16)}\u2026).`;
  });
}
