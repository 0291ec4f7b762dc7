// What the page keeps in the browser's storage: a seat's token per room (this tab's
// sessionStorage, so a reload takes the seat back and another tab can take its own),
// and an account key only where the player ticked "remember" (localStorage).

const SEAT = (code) => `solrace.seat.${code}`;
const KEY = "solrace.key";

function read(storage, name) {
  try {
    return JSON.parse(storage.getItem(name) ?? "null");
  } catch {
    return null;
  }
}

/** The seat this tab holds in room `code`: { seat, token, name }, or null. */
export function savedSeat(code) {
  const saved = read(sessionStorage, SEAT(code));
  return saved !== null && typeof saved.token === "string" ? saved : null;
}

export function saveSeat(code, seat, token, name) {
  sessionStorage.setItem(SEAT(code), JSON.stringify({ seat, token, name }));
}

export function forgetSeat(code) {
  sessionStorage.removeItem(SEAT(code));
}

/** The account key kept with "remember", or "". */
export function savedKey() {
  return localStorage.getItem(KEY) ?? "";
}

/** Keep `key` on this device when `remember` is ticked; forget any kept key otherwise. */
export function keepKey(key, remember) {
  if (remember && key !== "") localStorage.setItem(KEY, key);
  else localStorage.removeItem(KEY);
}
