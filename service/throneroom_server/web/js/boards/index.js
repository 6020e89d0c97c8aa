// Each game's board module is boards/<game type>.js, found by the game's
// registered name (no list of games here): the REST face serves there the
// board.js of the game's own server package. A game without one gets the
// generic board (its view as data), so a newly registered game is still
// playable.

import generic from "./generic.js";

const GAME_NAME = /^[a-z][a-z0-9_]*$/;
const loaded = new Map();

export async function boardFor(gameType) {
  if (!loaded.has(gameType)) {
    let board = null;
    if (GAME_NAME.test(gameType)) {
      try {
        board = (await import(`./${gameType}.js`)).default;
      } catch {
        board = null; // no board module for this game
      }
    }
    loaded.set(gameType, board ?? { ...generic, title: gameType });
  }
  return loaded.get(gameType);
}
