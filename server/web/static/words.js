// How the pages say a race's times and how it ended: games, durations, outcomes,
// the host's early end, and a race summed up for the next lobby (docs/protocol.md).

/** m:ss, or m:ss.t with `tenths`; negative durations count as zero. */
export function formatDuration(ms, tenths = false) {
  const total = Math.max(0, ms);
  const minutes = Math.floor(total / 60000);
  const seconds = Math.floor((total % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
  return tenths ? `${text}.${Math.floor((total % 1000) / 100)}` : text;
}

/** Each game's name, by its variant key, in the server's order. */
export const GAMES = {
  "little-forty": "Little Forty",
  "little-milligan": "Little Milligan",
  "little-billie": "Little Billie",
  "double-canfield-40": "Double Canfield 40",
};

/** Cards in a game of each variant: what "all home" is. */
export const CARDS = { "little-forty": 104, "little-milligan": 52, "little-billie": 104, "double-canfield-40": 104 };
/** Redeals allowed in all by each game's standard rules, for the games that redeal. */
const REDEALS = { "little-billie": 2 };

/** The line naming a room's redeal rule under its rule option (docs/rules.md);
 * "" for a game that never redeals. */
export function redealRule(variant, option) {
  if (!(variant in REDEALS)) return "";
  if (option === "unlimited-redeals") {
    return "Redeals: unlimited until blocked - redeal whenever no fan's top card fits;"
      + " a redeal that leaves none fitting ends the game";
  }
  return `Redeals: ${REDEALS[variant]} in all, when no fan's top card fits (the standard rules)`;
}

/** How a racer's race ended, said before its race time. */
const ENDINGS = {
  won: "won in",
  stuck: "got stuck after",
  resigned: "resigned after",
  timeout: "timed out after",
};
/** A racer's state, and then how their race ended, as the page shows it. */
export const OUTCOMES = {
  playing: "racing",
  won: "won",
  stuck: "stuck",
  resigned: "resigned",
  timeout: "timed out",
};
/** The outcome shown for a racer the host's early end stopped (`timeout` on the wire). */
export const STOPPED = "stopped by the host";

/** Whether the host's early end of the race is what ended this ranking line's race
 * (docs/protocol.md, "HostEnd"). */
export function stoppedByHost(result, hostEnd) {
  return hostEnd != null && result.outcome === "timeout" && result.elapsed_ms === hostEnd.elapsed_ms;
}

/** The name of the racer in `seat`, from a race's ranking. */
function seatName(ranking, seat) {
  return ranking.find((line) => line.seat === seat)?.name ?? `seat ${seat + 1}`;
}

/** The host's early end of a race in a sentence, naming the host from the ranking. */
export function hostEndText(over) {
  const end = over.ended_by_host;
  const host = seatName(over.ranking, end.seat);
  return `The host, ${host}, ended the race early at ${formatDuration(end.elapsed_ms, true)}: those still racing stopped.`;
}

/** The previous race in brief (a RaceSummary), for the lobby: a heading, then each
 * racer's place and how their race ended. */
export function lastRaceLines(summary) {
  const end = summary.ended_by_host;
  let heading = `Last race (race ${summary.race_no})`;
  if (end != null) {
    heading += `, ended early by the host, ${seatName(summary.ranking, end.seat)}, at ${formatDuration(end.elapsed_ms, true)}`;
  }
  const total = CARDS[summary.variant];
  const places = summary.ranking.map((line) => {
    const time = formatDuration(line.elapsed_ms, true);
    if (line.outcome === "won") return `${line.rank}. ${line.name} won in ${time}`;
    const ending = stoppedByHost(line, end) ? "was stopped by the host after" : ENDINGS[line.outcome] ?? line.outcome;
    const home = total === undefined ? `${line.progress}` : `${line.progress}/${total}`;
    return `${line.rank}. ${line.name} ${ending} ${time} with ${home} cards home`;
  });
  return [`${heading}:`, ...places];
}
