// The lobby of the play page: every seat with its ready state and marks (host, bot and
// its level, guest, rating), the host's terms, the settings fields the host (and the
// create form) fills in: game, deal, time limit, rated; and the host's house bots, added
// at a level and removed by seat (docs/protocol.md, `add_bot` and `remove_bot`).

import { GAMES, formatDuration, redealRule } from "./words.js";

const byId = (id) => document.getElementById(id);

/** The bot levels, weakest first, as the protocol names them (`BotLevel`). */
export const BOT_LEVELS = ["beginner", "casual", "good", "strong", "expert"];
/** The levels of the bots a practice race seats: a field a newcomer can race. */
export const PRACTICE_FIELD = ["casual", "good"];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function labelled(text, control) {
  const label = element("label", "", text);
  label.append(" ", control);
  return label;
}

function input(name, type, value) {
  const box = element("input");
  box.name = name;
  box.type = type;
  if (type === "checkbox") box.checked = value;
  else box.value = value;
  return box;
}

/** The fields of the settings a room is made with, filled from `settings` and `variant`. */
export function fillSettings(fieldset, variant, settings) {
  const game = element("select");
  game.name = "variant";
  for (const [key, name] of Object.entries(GAMES)) {
    const option = element("option", "", name);
    option.value = key;
    option.selected = key === variant;
    game.append(option);
  }
  const deal = input("deal_number", "number", settings.deal_number ?? "");
  deal.min = "1";
  deal.placeholder = "secret";
  const minutes = input("minutes", "number", String(Math.round(settings.time_limit_s / 60)));
  minutes.min = "1";
  minutes.max = "60";
  const seats = input("max_players", "number", String(settings.max_players));
  seats.min = "1";
  seats.max = "8";
  fieldset.replaceChildren(
    labelled("Game", game),
    labelled("Public deal number (empty: a secret deal)", deal),
    labelled("Time limit, minutes", minutes),
    labelled("Seats", seats),
    labelled("Rated (accounts only; not with a public deal)", input("rated", "checkbox", settings.rated)),
  );
}

/** The variant and settings the fields say, over `base` (the room's, or the defaults). */
export function readSettings(fieldset, base) {
  const field = (name) => fieldset.querySelector(`[name="${name}"]`);
  const deal = field("deal_number").value.trim();
  const settings = {
    ...base,
    deal_number: deal === "" ? null : Number(deal),
    time_limit_s: Math.round(Number(field("minutes").value) * 60),
    max_players: Number(field("max_players").value),
    rated: field("rated").checked,
  };
  if (settings.deal_number !== null) settings.winnable_only = false;
  const variant = field("variant").value;
  // Unlimited redeals are Little Billie's alone, and never rated: a game or a rated
  // room that cannot have them plays the standard rules.
  if ((settings.rule_option ?? "") !== "" && (redealRule(variant, "") === "" || settings.rated)) {
    settings.rule_option = "";
  }
  return { variant, settings };
}

/** The race the host set up, in one line. */
export function termsText(room) {
  const settings = room.settings;
  const deal = settings.deal_number !== null ? `public deal ${settings.deal_number}`
    : settings.winnable_only ? "secret deal the solver has won" : "secret deal";
  const terms = [GAMES[room.variant] ?? room.variant, deal, `${formatDuration(settings.time_limit_s * 1000)} time limit`];
  terms.push(settings.rated ? "rated" : "unrated");
  if (settings.idle_limit_s !== null) terms.push(`idle limit ${settings.idle_limit_s} s once someone has finished`);
  if (settings.practice) terms.push("practice room");
  if ((settings.rule_option ?? "") !== "") terms.push(redealRule(room.variant, settings.rule_option));
  return terms.join(" \u00b7 ");
}

function seatLine(player, room, you) {
  const line = element("li", "seat-line");
  line.dataset.seat = String(player.seat);
  line.dataset.ready = String(player.ready);
  const who = element("span", "seat-who");
  who.append(element("span", "seat-name", player.name));
  if (player.seat === you) who.append(element("span", "seat-mark you", "you"));
  if (room.host === player.seat) who.append(element("span", "host", "host"));
  if (player.bot) who.append(element("span", "seat-mark bot", player.level ? `bot, ${player.level}` : "bot"));
  else if (!player.account && room.players.some((p) => p.account)) who.append(element("span", "seat-mark", "guest"));
  if (player.rating != null) {
    who.append(element("span", "seat-mark rating", `rating ${player.rating}${player.provisional ? ", provisional" : ""}`));
  }
  const state = player.away ? "away" : player.ready ? "ready" : "not ready";
  line.append(who, element("span", `badge badge-${player.ready ? "ready" : "waiting"}`, state));
  if (player.house && room.host === you && room.phase === "lobby") {
    const remove = element("button", "remove-bot", "Remove");
    remove.type = "button";
    remove.dataset.removeBot = String(player.seat);
    remove.setAttribute("aria-label", `remove ${player.name}`);
    line.append(remove);
  }
  return line;
}

/** The host's form to seat a house bot: shown in the lobby while a seat is free. */
function renderBotForm(room, you, free) {
  const form = byId("bot-form");
  form.hidden = room.host !== you || room.phase !== "lobby" || free < 1;
  const level = byId("bot-level");
  if (level.options.length === 0) {
    level.append(...BOT_LEVELS.map((name, index) => {
      const option = element("option", "", `${index + 1} ${name}`);
      option.value = name;
      option.selected = name === "good";
      return option;
    }));
  }
}

/** The lobby as the room stands; the host's settings form is filled only when it is not
 * being edited, so a change by someone else never wipes what the host is typing. */
export function renderLobby(room, you) {
  // A Remove button that had the focus keeps it when the seats are drawn again.
  const focused = document.activeElement?.dataset?.removeBot;
  const seats = byId("seats");
  seats.replaceChildren(...room.players.map((player) => seatLine(player, room, you)));
  if (focused !== undefined) seats.querySelector(`[data-remove-bot="${focused}"]`)?.focus();
  const free = room.settings.max_players - room.players.length;
  byId("terms").textContent = `${termsText(room)} \u00b7 ${free === 1 ? "1 seat free" : `${free} seats free`}`;
  renderBotForm(room, you, free);
  const me = room.players.find((player) => player.seat === you);
  const ready = byId("ready");
  ready.textContent = me?.ready ? "Not ready" : "Ready";
  ready.setAttribute("aria-pressed", String(me?.ready === true));
  const form = byId("settings-form");
  form.hidden = room.host !== you;
  const fields = byId("host-settings");
  const shown = `${room.variant}/${JSON.stringify(room.settings)}`;
  if (!form.hidden && !fields.contains(document.activeElement) && fields.dataset.shown !== shown) {
    fields.dataset.shown = shown;
    fillSettings(fields, room.variant, room.settings);
  }
}
