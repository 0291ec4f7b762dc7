// The play page: takes a seat in a room and races in the browser, speaking the same
// protocol as the terminal client (docs/protocol.md). The board shown is always the
// last one the server sent for this seat (joined, resumed, snapshot, move_ok): a move
// is sent, never applied here, so a refused move changes nothing.

import { PRACTICE_FIELD, fillSettings, readSettings, renderLobby } from "./lobby.js";
import { Link, socketUrl } from "./link.js";
import { bindKeys, bindButtons } from "./keys.js";
import { renderClock, renderRacers } from "./racers.js";
import { renderResults } from "./results.js";
import { Watch } from "./room.js";
import { forgetSeat, keepKey, saveSeat, savedKey, savedSeat } from "./seats.js";
import { renderStage } from "./stage.js";
import { Table } from "./table.js";
import { double, dragged, hintAnswered, moveAnswered, moveRefused, refused, tap } from "./moves.js";

const CODE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/;
const DEFAULTS = {
  max_players: 4, time_limit_s: 900, spectator_delay_s: 0, countdown_s: 3, deal_number: null,
  winnable_only: false, idle_limit_s: null, practice: false, rated: false,
};
const byId = (id) => document.getElementById(id);

/** The room code this page is for, from its address; null on the create form. */
export function codeFromPath(pathname) {
  const match = /\/play\/([^/]*)$/.exec(pathname);
  return match !== null && CODE.test(match[1]) ? match[1] : null;
}

/** The race this page's address asks for instead of a room: a challenge
 * (``/challenge/CODE``) or a game's deal of the day (``/daily/GAME``); null: none. */
export function raceFromPath(pathname) {
  const challenge = /\/challenge\/([^/]*)$/.exec(pathname);
  if (challenge !== null && CODE.test(challenge[1])) return { type: "join_challenge", code: challenge[1] };
  const daily = /\/daily\/([a-z0-9-]+)$/.exec(pathname);
  return daily === null ? null : { type: "daily", variant: daily[1] };
}

export class Play {
  constructor(code, race = null) {
    this.watch = new Watch(code);
    this.race = race; // a challenge or daily race to enter: its room is made on joining
    this.seat = null;
    this.token = null;
    this.name = "";
    this.mine = null; // { board, version }: this seat's board as the server last sent it
    this.pick = null;
    this.pending = null; // the move sent and not yet answered
    this.homeRun = null; // "all home": the moves tried at each version
    this.intent = null; // what to do once connected: join or create
    this.replies = new Map(); // request id -> what it asked
    this.moveNo = 0;
    this.drawPending = false;
    this.table = new Table(byId("table"), {
      tap: (target) => tap(this, target),
      double: (target) => double(this, target),
      drag: (from, count, onto) => dragged(this, from, count, onto),
    });
    this.link = new Link(socketUrl(window.location), {
      onReady: () => this.enter(),
      onMessage: (message) => this.receive(message),
      onStatus: (state, text) => this.status(state, text),
      client: "solrace play page",
    });
  }

  get code() {
    return this.watch.code;
  }

  start() {
    const saved = this.code === null ? null : savedSeat(this.code);
    if (saved !== null) {
      this.token = saved.token;
      this.name = saved.name;
    }
    bindButtons(this);
    bindKeys(this);
    this.link.open();
    setInterval(() => renderClock(this.watch, this.link.serverNow(), (text) => this.say(text)), 250);
  }

  status(state, text) {
    document.body.dataset.link = state;
    byId("link").textContent = text;
    if (state === "stopped" && this.watch.room === null) this.formSays(text);
  }

  /** A connection was agreed: take the seat back, or do what the form asked. */
  enter() {
    if (this.token !== null) {
      this.request("resume", { type: "resume", token: this.token, last_seq: this.watch.lastSeq });
    } else if (this.intent !== null) {
      this.carryOut();
    } else {
      this.showForm();
    }
  }

  request(kind, fields) {
    const id = this.link.send(fields);
    this.replies.set(id, kind);
    return id;
  }

  /** Whether the page takes a seat (in a room, or a challenge's own) rather than makes a room. */
  get joining() {
    return this.code !== null || this.race !== null;
  }

  showForm() {
    document.body.dataset.step = this.joining ? "join" : "create";
    byId("create").hidden = this.joining;
    byId("join").hidden = !this.joining;
    const key = savedKey();
    for (const prefix of ["create", "join"]) {
      byId(`${prefix}-key`).value = key;
      byId(`${prefix}-remember`).checked = key !== "";
      if (this.name !== "") byId(`${prefix}-name`).value = this.name;
    }
    if (this.race !== null) {
      byId("join-what").textContent = this.race.type === "daily"
        ? `Type a name and race today's deal of ${this.race.variant}, against the day's best runs as ghosts.`
        : `Type a name and race challenge ${this.race.code}: its deal, against its best runs as ghosts.`;
      byId("join-watch").hidden = true;
      byId("join-name").focus();
    } else if (this.code === null) {
      fillSettings(byId("create-settings"), "little-forty", DEFAULTS);
      byId("create-name").focus();
    } else {
      byId("join-what").textContent = `Type a name and take a seat in room ${this.code}.`;
      byId("join-watch").href = `../watch/${this.code}`;
      byId("join-name").focus();
    }
  }

  formSays(text) {
    byId(this.joining ? "join-said" : "create-said").textContent = text;
  }

  /** The form was sent: sign in first when a key was given, then join or create. */
  submit(intent) {
    if (intent.name.trim() === "" && intent.key === "") {
      this.formSays("Type a name (or an account key).");
      return;
    }
    keepKey(intent.key, intent.remember);
    this.intent = intent;
    this.formSays("");
    this.carryOut();
  }

  carryOut() {
    const intent = this.intent;
    if (intent.key !== "" && !intent.signedIn) {
      this.request("sign_in", { type: "sign_in", key: intent.key });
      return;
    }
    const name = intent.name.trim() || "player";
    if (intent.kind === "create") {
      this.request("entry", { type: "create_room", variant: intent.variant, name, settings: intent.settings });
    } else if (this.race !== null) {
      this.request("entry", { ...this.race, name });
    } else {
      this.request("entry", { type: "join_room", code: this.code, name, role: "player" });
    }
  }

  receive(message) {
    const kind = message.id === undefined || message.id === null ? null : this.replies.get(message.id);
    if (kind !== undefined && kind !== null) this.replies.delete(message.id);
    const handle = HANDLERS[message.type];
    if (handle !== undefined) handle(this, message, kind);
    this.draw();
  }

  /** Joined a seat (or made the room): keep the token for this tab, show the room. */
  seated(message) {
    if (this.code === null) {
      // The page becomes the room's play page, so that a reload resumes this seat.
      this.watch.code = message.code;
      history.replaceState(null, "", `${this.race === null ? "." : "../play"}/${message.code}`);
      this.race = null;
    }
    this.seat = message.seat;
    this.token = message.token;
    this.name = message.room.players.find((player) => player.seat === message.seat)?.name ?? this.name;
    saveSeat(this.code, this.seat, this.token, this.name);
    const bots = this.intent?.bots ?? [];
    this.intent = null;
    this.watch.replace(message.room, message.seq, message.results ?? null);
    this.mine = null;
    this.showRoom();
    for (const level of bots) this.addBot(level);
  }

  /** Ask the server to seat a house bot of `level` (host, lobby). */
  addBot(level) {
    this.request("bot", { type: "add_bot", level });
  }

  removeBot(seat) {
    this.request("bot", { type: "remove_bot", seat });
  }

  showRoom() {
    document.body.dataset.step = "room";
    byId("create").hidden = true;
    byId("join").hidden = true;
    byId("stage").hidden = false;
    this.status("live", "live");
    document.title = `solrace: racing in ${this.code}`;
  }

  /** resumed or snapshot: this seat's board and version as the server has them. */
  resumedAt(message) {
    this.seat = message.seat;
    this.mine = message.board === null ? null : { board: message.board, version: message.version };
    if (this.watch.startBoard === null && message.board !== null) this.watch.startBoard = message.board;
    this.showRoom();
    if (this.pending !== null) this.resend();
  }

  /** A move sent before the connection dropped is sent again as it was: the server
   * applies a move_id once (docs/protocol.md, "Shutdown"). */
  resend() {
    const { move, moveId, version } = this.pending;
    this.pending.id = this.request("move", { type: "move", move, move_id: moveId, expected_version: version });
  }

  entryRefused(message) {
    if (message.code === "auth/bad-token") {
      forgetSeat(this.code);
      this.token = null;
      this.watch = new Watch(this.code);
      if (this.name !== "") {
        const key = savedKey();
        this.intent = { kind: "join", name: this.name, key, remember: key !== "" };
        this.carryOut();
      } else {
        this.showForm();
      }
      return;
    }
    this.intent = null;
    if (this.token === null) this.showForm();
    const why = {
      "room/not-found": `There is no room ${this.code} (it may have expired).`,
      "room/full": `Room ${this.code} has no free seat.`,
      "room/wrong-phase": `The race in room ${this.code} has started; you can watch it.`,
      "account/bad-key": "No account has this key.",
    };
    this.formSays(why[message.code] ?? `The server refused: ${message.message}`);
  }

  /** A line to the player, under the lobby or under the board, wherever they are. */
  say(text) {
    const phase = this.watch.room?.phase;
    byId(phase === "lobby" || phase === "countdown" ? "lobby-said" : "said").textContent = text;
  }

  draw() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      if (this.watch.room === null) return;
      renderStage(this);
      renderLobby(this.watch.room, this.seat);
      renderRacers(this.watch.room, this.seat);
      renderResults(this.watch);
      renderClock(this.watch, this.link.serverNow(), (text) => this.say(text));
    });
  }
}

const HANDLERS = {
  joined(play, message) {
    play.seated(message);
  },
  signed_in(play, message) {
    if (play.intent === null) return;
    play.intent.signedIn = true;
    play.name = message.account.name;
    play.carryOut();
  },
  snapshot(play, message) {
    play.watch.replace(message.room, message.seq, message.results ?? null);
    play.resumedAt(message);
  },
  resumed(play, message) {
    // A page just loaded has no room to apply the missed events to: it asks for the whole room.
    if (play.watch.room === null) play.request("sync", { type: "sync" });
    else play.resumedAt(message);
  },
  move_ok(play, message) {
    moveAnswered(play, message);
  },
  challenge_created(play, message) {
    // The finished race made a challenge: its code, link, and the key shown this once.
    const info = message.challenge;
    const closes = new Date(info.closes_at_ms).toISOString().slice(0, 16).replace("T", " ");
    byId("challenge-said").textContent =
      `Challenge ${info.code}: anyone races this deal against this race's runs until ${closes} UTC.`;
    const link = byId("challenge-link");
    link.href = `../challenge/${info.code}`;
    link.textContent = new URL(link.href, window.location.href).href;
    const key = byId("challenge-key");
    key.hidden = false;
    key.textContent = message.key === null || message.key === undefined
      ? "Another racer made this race's challenge first; it is the same one."
      : `Its key closes it early (kept nowhere else, shown once): ${message.key}`;
    byId("challenge-made").hidden = false;
  },
  hint(play, message) {
    hintAnswered(play, message);
  },
  event(play, message) {
    if (play.watch.room === null) return;
    const event = message.event;
    if (!play.watch.onEvent(message.seq, event)) return;
    if (event.type === "race_started") {
      play.mine = { board: event.board, version: 0 };
      play.pick = null;
      play.say("Go!");
    }
    if (event.type === "rematch") play.mine = null;
    if (event.type === "player_left" && event.seat === play.seat && !event.away) {
      forgetSeat(play.code);
      window.location.reload();
    }
  },
  ok(play, message, kind) {
    if (kind === "resign") play.say("You resigned.");
    if (kind === "bot") play.say("");
    if (kind === "leave") {
      forgetSeat(play.code);
      window.location.assign(`../watch/${play.code}`);
    }
  },
  dead_end(play, message) {
    if (play.mine !== null && message.version === play.mine.version) {
      play.say("No card can go home any more from here, whatever you play. You may resign.");
    }
  },
  error(play, message, kind) {
    if (kind === "entry" || kind === "resume" || kind === "sign_in") play.entryRefused(message);
    else if (kind === "move") moveRefused(play, message);
    else refused(play, message.message);
  },
  going_away(play, message) {
    play.link.comeBackIn(message.reconnect_in_ms);
  },
};

function main() {
  const code = codeFromPath(window.location.pathname);
  const play = new Play(code, code === null ? raceFromPath(window.location.pathname) : null);
  play.start();
  byId("create-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    const practice = submit.submitter?.id === "practice";
    const { variant, settings } = readSettings(byId("create-settings"), DEFAULTS);
    // A practice race: you and the server's bots alone, unrated, with a seat for each.
    if (practice) Object.assign(settings, { practice: true, rated: false, max_players: PRACTICE_FIELD.length + 1 });
    play.submit({
      kind: "create", name: byId("create-name").value, key: byId("create-key").value,
      remember: byId("create-remember").checked, variant, settings, bots: practice ? PRACTICE_FIELD : [],
    });
  });
  byId("bot-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    play.addBot(byId("bot-level").value);
  });
  byId("seats").addEventListener("click", (click) => {
    const remove = click.target.closest("[data-remove-bot]");
    if (remove !== null) play.removeBot(Number(remove.dataset.removeBot));
  });
  byId("join-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    play.submit({ kind: "join", name: byId("join-name").value, key: byId("join-key").value, remember: byId("join-remember").checked });
  });
  byId("settings-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    const { variant, settings } = readSettings(byId("host-settings"), play.watch.room.settings);
    play.request("settings", { type: "set_settings", variant, settings });
  });
}

main();
