// The ranking of a finished race as far as the room itself says it, for a page that
// joined after the race_over event (which alone carries the ranking): the keys are
// those of docs/protocol.md, "Ranking".

const hasWon = (player) => player.outcome === "won";

/** Whether the ranking's keys the room carries put `a` and `b` in a known order: winners by
    finish time, then seat; the others by cards home, then by when they reached them, which
    only the race_over event says. */
function orderKnown(a, b) {
  if (hasWon(a) !== hasWon(b)) return true;
  return hasWon(a) || a.progress !== b.progress;
}

function rankOrder(a, b) {
  if (hasWon(a) !== hasWon(b)) return hasWon(a) ? -1 : 1;
  if (hasWon(a) && a.finished_at_ms !== b.finished_at_ms) return a.finished_at_ms - b.finished_at_ms;
  if (!hasWon(a) && a.progress !== b.progress) return b.progress - a.progress;
  return a.seat - b.seat;
}

/** The players of a finished race in ranking order, for a page that joined after its
    race_over: each with its rank, or the ranks it lies between ("2\u20133") where the
    room does not say which of two players with as many cards home reached them first. */
export function rankedFromRoom(room) {
  const players = [...room.players].sort(rankOrder);
  return players.map((player, at) => {
    let first = at;
    while (first > 0 && !orderKnown(players[first - 1], player)) first -= 1;
    let last = at;
    while (last + 1 < players.length && !orderKnown(player, players[last + 1])) last += 1;
    return [first === last ? String(first + 1) : `${first + 1}\u2013${last + 1}`, player];
  });
}
