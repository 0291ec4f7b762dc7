// The watch page: joins a room as a spectator and shows what the server sends,
// live. Every figure on the page comes from a server message; nothing is
// inferred from the deal, so the page never shows more than any spectator gets.

import { Link, socketUrl } from "./link.js";
import { Watch } from "./room.js";
import { renderPage, renderClock, renderStatus, revealTab, selectSeat, stepSeat } from "./view.js";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE = new RegExp(`^[${CODE_ALPHABET}]{6}$`);
const SPECTATOR_NAME = "web";
const SWIPE_PX = 60;
/** Refusals of a join that say "not now", not "never": the page joins again later. */
const ENTRY_LATER = new Set(["proto/rate-limited", "server/busy"]);
const ENTRY_RETRY_MS = 1000;
/** A racer's board that comes this much later than its move (beyond any spectator delay)
 * tells the spectator the page is behind: their connection cannot keep up. */
const BEHIND_MS = 3000;

/** The room code this page is for, from its address; null on the code form. */
export function codeFromPath(pathname) {
  const match = /\/watch\/([^/]*)$/.exec(pathname);
  return match !== null && CODE.test(match[1]) ? match[1] : null;
}

class Page {
  constructor(code) {
    this.watch = new Watch(code);
    this.token = null;
    this.entryId = null;
    this.drawPending = false;
    this.entryTimer = null;
    this.liveText = "live";
    this.behindS = 0;
    this.enteredAtMs = null;
    this.link = new Link(socketUrl(window.location), {
      onReady: () => this.enter(),
      onMessage: (message) => this.receive(message),
      onStatus: (state, text) => this.status(state, text),
    });
  }

  start() {
    document.getElementById("stage").hidden = false;
    document.getElementById("tabs").addEventListener("click", (click) => {
      const tab = click.target.closest("[data-seat]");
      if (tab === null) return;
      selectSeat(Number(tab.dataset.seat));
      revealTab();
    });
    followSwipes(document.getElementById("boards"));
    this.link.open();
    setInterval(() => renderClock(this.watch, this.link.serverNow()), 250);
  }

  /** The link's state; a page that stops before it could show the room offers the code box. */
  status(state, text) {
    renderStatus(state, text);
    if (state !== "stopped" || this.watch.room !== null) return;
    document.getElementById("stage").hidden = true;
    document.body.dataset.phase = "pick";
    showPicker(text);
  }

  /** A connection was agreed: resume where the page was, or join as a spectator. */
  enter() {
    clearTimeout(this.entryTimer);
    this.entryTimer = null;
    if (this.token !== null) {
      this.entryId = this.link.send({ type: "resume", token: this.token, last_seq: this.watch.lastSeq });
    } else {
      this.entryId = this.link.send({ type: "join_room", code: this.watch.code, name: SPECTATOR_NAME, role: "spectator" });
    }
  }

  receive(message) {
    const handle = HANDLERS[message.type];
    if (handle !== undefined && handle(this, message)) this.draw();
  }

  entryRefused(message) {
    if (message.code === "auth/bad-token" && this.token !== null) {
      this.token = null;
      this.enter();
      return;
    }
    if (ENTRY_LATER.has(message.code)) {
      this.enterLater(message);
      return;
    }
    const gone = this.watch.room === null
      ? `There is no room ${this.watch.code} (it may have expired).`
      : `Room ${this.watch.code} has closed; this is how it last stood.`;
    const stops = {
      "room/not-found": gone,
      "room/full": `Room ${this.watch.code} has no spectator places left.`,
    };
    this.link.stop(stops[message.code] ?? `The server refused: ${message.message} (${message.code})`);
  }

  /** Join again after the wait the server asked for ("try again in N s"), or a short one. */
  enterLater(message) {
    const asked = /try again in (\d+(?:\.\d+)?) s/.exec(message.message);
    const waitMs = Math.max(ENTRY_RETRY_MS, asked === null ? 0 : Number(asked[1]) * 1000);
    const reason = message.code === "server/busy" ? "the server is busy" : "too many joins from this address just now";
    renderStatus("connecting", `${reason}; joining again in ${Math.ceil(waitMs / 1000)} s`);
    clearTimeout(this.entryTimer);
    this.entryTimer = setTimeout(() => this.enter(), waitMs);
  }

  /** Connected and in the room: `text` says how, with how far behind the boards come. */
  live(text) {
    this.liveText = text;
    this.behindS = 0;
    this.enteredAtMs = this.link.serverNow();
    renderStatus("live", text);
  }

  /** How late a racer's next board came: its move's age beyond the spectator delay.
   * Only a move made since the page (re)joined, on the board right after the one shown,
   * counts: a board sent to catch up, or again because more cards may be shown, is as
   * old as its racer's last move. */
  timeBoard(event) {
    const known = this.watch.boards.get(event.seat);
    const now = this.link.serverNow();
    if (known === undefined || event.version !== known.version + 1 || now === null) return;
    if (this.enteredAtMs === null || event.at_ms < this.enteredAtMs) return;
    const lateMs = now - event.at_ms - this.watch.room.settings.spectator_delay_s * 1000;
    this.showBehind(lateMs >= BEHIND_MS ? Math.round(lateMs / 1000) : 0);
  }

  showBehind(seconds) {
    if (seconds === this.behindS) return;
    this.behindS = seconds;
    const behind = ` \u00b7 boards ${seconds} s behind: this connection is slow`;
    renderStatus("live", seconds === 0 ? this.liveText : `${this.liveText}${behind}`);
  }

  draw() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      renderPage(this.watch, this.link.serverNow());
    });
  }
}

const HANDLERS = {
  joined(page, message) {
    page.token = message.token;
    page.watch.replace(message.room, message.seq, message.results ?? null);
    page.live("live");
    return true;
  },
  snapshot(page, message) {
    page.watch.replace(message.room, message.seq, message.results ?? null);
    page.live("live");
    return true;
  },
  resumed(page) {
    page.live("live (resumed)");
    return false;
  },
  event(page, message) {
    if (page.watch.room === null) return false;
    const event = message.event;
    if (event.type === "board") page.timeBoard(event);
    if (event.type === "race_over") page.showBehind(0);
    return page.watch.onEvent(message.seq, event);
  },
  error(page, message) {
    if (message.id !== null && message.id === page.entryId) page.entryRefused(message);
    else renderStatus("live", `server error: ${message.message} (${message.code})`);
    return false;
  },
  going_away(page, message) {
    page.link.comeBackIn(message.reconnect_in_ms);
    renderStatus("reconnecting", "the server is restarting\u2026");
    return false;
  },
};

/** A sideways swipe over the boards shows the next or previous racer (phone width). */
function followSwipes(boards) {
  let start = null;
  boards.addEventListener("touchstart", (touch) => {
    start = touch.touches.length === 1 ? touch.touches[0] : null;
  }, { passive: true });
  boards.addEventListener("touchend", (touch) => {
    if (start === null) return;
    const end = touch.changedTouches[0];
    const dx = end.clientX - start.clientX;
    const dy = end.clientY - start.clientY;
    start = null;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) stepSeat(dx < 0 ? 1 : -1);
  }, { passive: true });
}

/** The code in what was typed or pasted into the code box: the code, or a page's link. */
export function typedCode(typed) {
  const text = typed.trim();
  const last = /\/watch\/([^/?#]+)\/?(?:[?#].*)?$/.exec(text);
  return (last === null ? text : last[1]).toUpperCase();
}

/** The code box, with `reason` (why this page shows no room) above a code typed wrong. */
function showPicker(reason = "") {
  const pick = document.getElementById("pick");
  pick.hidden = false;
  const input = document.getElementById("pick-code");
  const hint = document.getElementById("pick-hint");
  hint.textContent = reason;
  input.focus();
  document.getElementById("pick-form").addEventListener("submit", (submit) => {
    submit.preventDefault();
    const code = typedCode(input.value);
    if (!CODE.test(code)) {
      hint.textContent = `A room code is 6 characters of ${CODE_ALPHABET}.`;
      return;
    }
    window.location.assign(`./${code}`);
  });
}

function main() {
  const code = codeFromPath(window.location.pathname);
  if (code === null) {
    document.body.dataset.phase = "pick";
    showPicker();
    return;
  }
  document.title = `solrace: watching ${code}`;
  const play = document.getElementById("play-here");
  play.href = `../play/${code}`;
  play.hidden = false;
  new Page(code).start();
}

main();
