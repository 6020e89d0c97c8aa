#!/usr/bin/env node
// A reference bot for Throneroom's external bot protocol (docs/tournaments.md):
// one JSON object per line on stdin, one answer per "hello" and "decide" line on stdout.
// It plays a uniformly random legal move, seeded by the "start" message's seed
// (mulberry32), so a tournament with it replays exactly. Node.js 18+, no packages.
"use strict";
const readline = require("node:readline");

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = mulberry32(0);
const lines = readline.createInterface({ input: process.stdin, terminal: false });

lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello": // the handshake: every game this bot is asked about, it plays
      process.stdout.write(JSON.stringify({ type: "ready", version: "random_bot.js 2", plays: true }) + "\n");
      break;
    case "start":
      random = mulberry32(message.seed);
      process.stderr.write(`seat ${message.seat} of ${message.game_type} game ${message.game_id}\n`);
      break;
    case "decide": {
      const index = Math.floor(random() * message.legal_moves.length);
      // Answer with the move's notation (an index would do as well: {"move": index}).
      process.stdout.write(JSON.stringify({ move: message.legal_moves[index].notation }) + "\n");
      break;
    }
    case "end":
      lines.close();
      break;
    default:
      break; // newer runners may send more message types: ignore them
  }
});
