// What the page knows of the room, kept current from server messages the way
// the terminal client keeps its own: the whole room once (joined, snapshot),
// then room events in seq order. Board frames are ordered by their version,
// not their seq (docs/protocol.md, "Room events").

function playersWith(room, change) {
  return { ...room, players: room.players.map((player) => change(player) ?? player) };
}

function updateSeat(room, seat, fields) {
  return playersWith(room, (player) => (player.seat === seat ? { ...player, ...fields } : null));
}

const FRESH_RACE = { outcome: "playing", progress: 0, moves: 0, finished_at_ms: null };

const CHANGES = {
  player_joined(room, event) {
    const { account = false, bot = false, rating = null, provisional = false } = event;
    const { level = null, house = false } = event;
    const newcomer = {
      seat: event.seat, name: event.name, ready: false, away: false,
      account, bot, rating, provisional, level, house, ...FRESH_RACE,
    };
    const players = room.players.filter((player) => player.seat !== event.seat);
    players.push(newcomer);
    players.sort((a, b) => a.seat - b.seat);
    return { ...room, players };
  },
  player_left(room, event) {
    if (event.away) return updateSeat(room, event.seat, { away: true });
    return { ...room, players: room.players.filter((player) => player.seat !== event.seat) };
  },
  player_back: (room, event) => updateSeat(room, event.seat, { away: false }),
  host_changed: (room, event) => ({ ...room, host: event.seat }),
  spectator_count: (room, event) => ({ ...room, spectators: event.count }),
  settings(room, event) {
    const changed = { ...room, variant: event.variant, settings: event.settings };
    const ratings = new Map((event.ratings ?? []).map((shown) => [shown.seat, shown]));
    return playersWith(changed, (player) => ({
      ...player, ready: false, rating: ratings.get(player.seat)?.rating ?? null,
      provisional: ratings.get(player.seat)?.provisional ?? false,
    }));
  },
  ready: (room, event) => updateSeat(room, event.seat, { ready: event.ready }),
  countdown: (room, event) => ({
    ...room,
    phase: "countdown",
    race_no: event.race_no,
    start_at_ms: event.start_at_ms,
    seed_commit: event.seed_commit,
    seed: null,
  }),
  race_started(room, event) {
    const started = { ...room, phase: "racing", start_at_ms: event.start_at_ms };
    // Every player starts from the deal, with the cards it deals home (a base card) home.
    const fresh = { ...FRESH_RACE, progress: event.board.progress };
    return playersWith(started, (player) => ({ ...player, ...fresh }));
  },
  progress: (room, event) =>
    updateSeat(room, event.seat, { progress: event.progress, moves: event.moves, outcome: event.outcome }),
  player_finished: (room, event) =>
    updateSeat(room, event.seat, { outcome: event.outcome, finished_at_ms: event.at_ms }),
  race_over(room, event) {
    let over = { ...room, phase: "finished", seed: event.seed, seed_commit: event.seed_commit };
    for (const result of event.ranking) {
      const { outcome, progress, moves, finished_at_ms } = result;
      over = updateSeat(over, result.seat, { outcome, progress, moves, finished_at_ms });
    }
    return over;
  },
  deal_analysed: (room, event) => ({ ...room, verdict: event.verdict }),
  ghost_progress(room, event) {
    // A challenge race's ghost as the server shows it now: progress only, by ghost number.
    if (event.race_no !== room.race_no) return room;
    const { ghost, name, guest, progress, moves, outcome, at_ms } = event;
    const ghosts = (room.ghosts ?? []).filter((shown) => shown.ghost !== ghost);
    ghosts.push({ ghost, name, guest, progress, moves, outcome, at_ms });
    ghosts.sort((a, b) => a.ghost - b.ghost);
    return { ...room, ghosts };
  },
  race_rated(room, event) {
    if (event.race_no !== room.race_no) return room;
    const changes = new Map(event.changes.map((change) => [change.seat, change]));
    const rated = { ...room, rating_changes: event.changes };
    return playersWith(rated, (player) => {
      const change = changes.get(player.seat);
      return change === undefined ? null : { ...player, rating: change.after, provisional: change.provisional };
    });
  },
  rematch(room, event) {
    const lobby = {
      ...room, phase: "lobby", race_no: event.race_no, start_at_ms: null, seed_commit: null, seed: null, verdict: null,
      last_race: event.last_race ?? null, rating_changes: null, ghosts: [],
    };
    return playersWith(lobby, (player) => ({ ...player, ready: false, ...FRESH_RACE }));
  },
};

/** The room after one event; events this page does not know change nothing. */
export function applyEvent(room, event) {
  const change = Object.hasOwn(CHANGES, event.type) ? CHANGES[event.type] : null;
  return change === null ? room : change(room, event);
}

/** Everything the page shows, rebuilt from messages only. */
export class Watch {
  constructor(code) {
    this.code = code;
    this.room = null;
    this.lastSeq = 0;
    this.boards = new Map(); // seat -> { version, board, at_ms }
    this.startBoard = null;
    this.endsAtMs = null;
    this.result = null; // the race_over event
    this.commitSeen = null; // seed_commit as published before the seed was revealed
    this.idle = new Map(); // seat -> instant the racer times out unless they move first
  }

  /** A joined or snapshot reply: the whole room, replacing what was known, and in a
   * finished room the race's results (the reply's `results`, as race_over gave them). */
  replace(room, seq, results = null) {
    if (this.room !== null && this.room.race_no !== room.race_no) {
      // A commitment seen at an earlier race's countdown says nothing of this race's seed.
      this.clearRace();
      this.commitSeen = null;
    }
    this.room = room;
    this.lastSeq = seq;
    if (room.phase === "lobby" || room.phase === "countdown") this.clearRace();
    if (room.phase !== "finished") this.result = null;
    else if (results !== null && results.race_no === room.race_no) this.result = results;
    this.commitSeen = room.phase === "finished" ? this.commitSeen : room.seed_commit;
    this.keepIdleWarnings();
    this.endsAtMs = room.start_at_ms === null ? null : room.start_at_ms + room.settings.time_limit_s * 1000;
  }

  clearRace() {
    this.boards.clear();
    this.startBoard = null;
    this.result = null;
    this.idle.clear();
  }

  /** After a whole room: the idle warnings it says still stand. */
  keepIdleWarnings() {
    this.idle.clear();
    if (this.room.phase !== "racing") return;
    for (const player of this.room.players) {
      const timeoutAtMs = player.idle_timeout_at_ms ?? null;
      if (timeoutAtMs !== null && player.outcome === "playing") this.idle.set(player.seat, timeoutAtMs);
    }
  }

  /** The instant an idle racer times out unless they move first; null when not warned. */
  idleTimeoutAt(seat) {
    return this.idle.get(seat) ?? null;
  }

  /** An event frame; false when it was old news (already seen) and changed nothing. */
  onEvent(seq, event) {
    if (event.type === "board") return this.onBoard(event);
    if (seq <= this.lastSeq) return false;
    this.lastSeq = seq;
    this.room = applyEvent(this.room, event);
    if (event.type === "countdown") this.commitSeen = event.seed_commit;
    if (event.type === "race_started") this.onStart(event);
    if (event.type === "race_over") this.result = event;
    if (event.type === "rematch") this.clearRace();
    this.onIdle(event);
    return true;
  }

  /** An idle warning stands until its racer moves or finishes, or the race ends. */
  onIdle(event) {
    if (event.type === "idle_warning") {
      this.idle.set(event.seat, event.timeout_at_ms);
    } else if (event.type === "progress" || event.type === "player_finished") {
      this.idle.delete(event.seat);
    } else if (event.type === "race_over") {
      this.idle.clear();
    }
  }

  onStart(event) {
    this.idle.clear();
    this.boards.clear();
    this.startBoard = event.board;
    this.endsAtMs = event.ends_at_ms;
  }

  onBoard(event) {
    const known = this.boards.get(event.seat);
    if (known !== undefined && known.version > event.version) return false;
    this.boards.set(event.seat, { version: event.version, board: event.board, at_ms: event.at_ms });
    return true;
  }

  /** The board to show for a seat: its latest, else the deal everyone starts from. */
  boardOf(seat) {
    const known = this.boards.get(seat);
    return known === undefined ? this.startBoard : known.board;
  }
}
