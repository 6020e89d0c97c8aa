// What the browser keeps in localStorage: the seat tokens it holds (per game
// and seat) and the games it created or joined (the lobby's fallback list when
// the server has no ListGames). Bounded: the oldest games are forgotten.

const PREFIX = "throneroom.";
const MAX_GAMES = 200;

function read(key, fallback) {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the page still works for this visit */
  }
}

/** {seat: {token, name, bot}} for one game. */
export function seatsOf(gameId) {
  return read(`seats.${gameId}`, {});
}

export function tokenFor(gameId, seat) {
  return seatsOf(gameId)[seat]?.token ?? null;
}

export function keepSeat(gameId, seat, token, { name = "", bot = false } = {}) {
  const seats = seatsOf(gameId);
  seats[seat] = { token, name, bot };
  write(`seats.${gameId}`, seats);
  rememberGame(gameId);
}

/** Forget the token kept for one seat (a token the server refuses). */
export function forgetSeat(gameId, seat) {
  const seats = seatsOf(gameId);
  delete seats[seat];
  write(`seats.${gameId}`, seats);
}

export function forgetGame(gameId) {
  try {
    localStorage.removeItem(`${PREFIX}seats.${gameId}`);
  } catch {
    /* ignore */
  }
  write("games", knownGames().filter((g) => g.gameId !== gameId));
}

/** Games this browser created or joined, newest first: [{gameId, gameType, at}]. */
export function knownGames() {
  return read("games", []);
}

export function rememberGame(gameId, gameType) {
  const games = knownGames();
  const old = games.find((g) => g.gameId === gameId);
  const entry = { gameId, gameType: gameType || old?.gameType || "", at: old?.at || Date.now() };
  const rest = games.filter((g) => g.gameId !== gameId);
  const kept = [entry, ...rest].slice(0, MAX_GAMES);
  for (const dropped of [entry, ...rest].slice(MAX_GAMES)) {
    try {
      localStorage.removeItem(`${PREFIX}seats.${dropped.gameId}`);
    } catch {
      /* ignore */
    }
  }
  write("games", kept);
}

export function preference(name, fallback) {
  return read(`pref.${name}`, fallback);
}

export function setPreference(name, value) {
  write(`pref.${name}`, value);
}
