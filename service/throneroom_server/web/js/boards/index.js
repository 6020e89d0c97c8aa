// The board module of each game type; a game without one gets the generic
// board (its view as data), so a newly registered game is still playable.

import generic from "./generic.js";
import killTheKing from "./kill_the_king.js";
import kingIsDead from "./king_is_dead.js";
import kingsLife from "./kings_life.js";
import nim from "./nim.js";

const BOARDS = { king_is_dead: kingIsDead, kings_life: kingsLife, kill_the_king: killTheKing, nim };

export function boardFor(gameType) {
  return BOARDS[gameType] ?? { ...generic, title: gameType };
}
