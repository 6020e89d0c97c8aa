// Taking a seat: JoinGame, and the token kept in localStorage for this game
// and seat (it is shown only once by the server).

import { api } from "./api.js";
import { keepSeat } from "./storage.js";

/** Join `seat` (or the next free one when null); returns the seat taken. */
export async function joinSeat(gameId, seat, name, { bot = false } = {}) {
  const body = { displayName: name || "" };
  if (seat !== null && seat !== undefined) body.seat = Number(seat);
  const joined = await api.join(gameId, body);
  keepSeat(gameId, joined.seat, joined.seatToken, { name, bot });
  return joined.seat;
}
