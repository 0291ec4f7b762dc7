// The page's WebSocket to the race server: binary msgpack frames, hello first,
// the server clock estimated from welcome and pong, and reconnection with
// backoff whenever the socket drops (docs/protocol.md, "Resuming", "Clock").
// What to send once a connection is agreed is the owner's call (`onReady`).

import { decode, encode } from "./msgpack.js";

const PROTOCOL_VERSION = 1;
const PING_EVERY_MS = 15000;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15000;

/** Close codes after which reconnecting cannot help. */
export const FINAL_CLOSES = {
  4000: "The server does not speak this page's protocol version.",
  4002: "This watch was resumed from another page.",
};

/** The WebSocket address of the server that served `location` (a page under /watch/ or /play/). */
export function socketUrl(location) {
  const url = new URL(location.href);
  const cut = Math.max(url.pathname.lastIndexOf("/watch/"), url.pathname.lastIndexOf("/play/"));
  url.pathname = cut < 0 ? "/" : url.pathname.slice(0, cut + 1);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.href;
}

export class Link {
  constructor(url, { onReady, onMessage, onStatus, client = "solrace watch page" }) {
    this.url = url;
    this.client = client;
    this.onReady = onReady;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.nextId = 1;
    this.pings = new Map(); // request id -> performance.now() when sent
    this.offsetMs = null;
    this.bestRttMs = Infinity;
    this.retryMs = RETRY_FIRST_MS;
    this.retryTimer = null;
    this.pingTimer = null;
    this.stopped = false;
    this.restarting = false; // the server said going_away: it is restarting
  }

  /** Server clock now, in ms, or null before the first welcome. */
  serverNow() {
    return this.offsetMs === null ? null : performance.now() + this.offsetMs;
  }

  open() {
    this.onStatus("connecting", "connecting\u2026");
    const socket = new WebSocket(this.url);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => this.hello(socket));
    socket.addEventListener("message", (frame) => this.receive(socket, frame));
    socket.addEventListener("close", (closed) => this.closed(socket, closed));
    this.socket = socket;
  }

  /** Send one request with the next id; the id, to match its reply. */
  send(fields) {
    const id = this.nextId;
    this.nextId = id >= 0x7fffffff ? 1 : id + 1;
    if (this.socket !== null && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(encode({ ...fields, id }));
    }
    return id;
  }

  /** Give up for good, saying why. */
  stop(reason) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.onStatus("stopped", reason);
    if (this.socket !== null) this.socket.close(1000);
  }

  /** The server asked to come back later (going_away): reconnect after `delayMs`. */
  comeBackIn(delayMs) {
    this.retryMs = Math.max(delayMs, RETRY_FIRST_MS);
    this.restarting = true;
  }

  hello(socket) {
    this.pings.set(this.send({ type: "hello", version: PROTOCOL_VERSION, client: this.client }), performance.now());
    this.onStatus("connecting", "joining\u2026");
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (socket === this.socket) this.pings.set(this.send({ type: "ping" }), performance.now());
    }, PING_EVERY_MS);
  }

  receive(socket, frame) {
    if (socket !== this.socket) return;
    let message;
    try {
      message = decode(new Uint8Array(frame.data));
    } catch (error) {
      this.onStatus("live", `unreadable frame from the server: ${error.message}`);
      return;
    }
    if (message.type === "welcome" || message.type === "pong") this.clockSample(message);
    if (message.type === "welcome") {
      this.retryMs = RETRY_FIRST_MS;
      this.restarting = false;
      this.onReady();
      return;
    }
    if (message.type !== "pong") this.onMessage(message);
  }

  clockSample(message) {
    const sent = this.pings.get(message.id);
    this.pings.delete(message.id);
    if (sent === undefined) return;
    const now = performance.now();
    const rtt = now - sent;
    if (this.offsetMs === null || rtt <= this.bestRttMs * 1.5) {
      this.bestRttMs = Math.min(this.bestRttMs, rtt);
      this.offsetMs = message.server_ms - (sent + now) / 2;
    }
  }

  closed(socket, closed) {
    if (socket !== this.socket || this.stopped) return;
    clearInterval(this.pingTimer);
    this.socket = null;
    this.pings.clear();
    this.bestRttMs = Infinity;
    const final = FINAL_CLOSES[closed.code];
    if (final !== undefined) {
      this.stop(final);
      return;
    }
    const delay = this.retryMs * (0.75 + Math.random() / 2);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    const why = this.restarting ? "the server is restarting" : "connection lost";
    this.onStatus("reconnecting", `${why}; reconnecting in ${Math.ceil(delay / 1000)} s`);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }
}
