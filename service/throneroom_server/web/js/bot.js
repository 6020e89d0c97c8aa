// In-page bots: a bot is a seat joined through the API with its own token
// that plays on its own play session (a WebSocket, session.js; where none
// opens, its own watch stream and REST moves), in this browser tab.
// It stops when the tab closes; reopening the game resumes the bots whose
// tokens this browser keeps. Policies:
//   "random": any legal move, uniformly;
//   "rule":   a random move among those a simple rule prefers (attack rather
//             than move, act rather than pass or end the phase), else any.

import { api, ApiError, features, newKey, watchGame } from "./api.js";
import { innerMove } from "./moves.js";
import { PlaySession } from "./session.js";

export const POLICIES = { random: "random legal move", rule: "random, preferring action (attacks; cards over passing)" };

// Refusals meaning "the list the move was chosen from is out of date".
const STALE = new Set(["STALE_VERSION", "NOT_YOUR_TURN", "ILLEGAL_MOVE"]);
const MAX_RETRIES = 3;
const PASSIVE = new Set(["passTurn", "passing", "endPhase"]);
const AGGRESSIVE = new Set(["attack", "climb", "playCard", "play", "summon", "crown"]);

/** The index of the move a policy picks among `moves` (envelopes). */
export function chooseMove(moves, policy, random = Math.random) {
  if (!moves.length) return -1;
  let pool = moves.map((_, i) => i);
  if (policy === "rule") {
    const kinds = moves.map((m) => innerMove(m)[0]);
    const aggressive = pool.filter((i) => AGGRESSIVE.has(kinds[i]));
    const active = pool.filter((i) => !PASSIVE.has(kinds[i]));
    if (aggressive.length) pool = aggressive;
    else if (active.length) pool = active;
  }
  return pool[Math.floor(random() * pool.length)];
}

export class PageBot {
  /** onMove(bot, result) after each move it makes (the session's PlayMoveResult,
   * or ApplyMove's response on the REST face); onError(bot, error). */
  constructor({ gameId, seat, token, policy = "random", delayMs = 250, onMove = () => {}, onError = () => {} }) {
    Object.assign(this, { gameId, seat, token, policy, delayMs, onMove, onError });
    this.controller = new AbortController();
    this.moves = 0;
    this.busy = false;
    this.latest = -1;
    this.movedAt = -1; // the version its last move was chosen at
  }

  start() {
    const options = {
      token: this.token,
      fromVersion: 0,
      signal: this.controller.signal,
      onUpdate: (update) => this.seen(update),
      onStatus: (status) => {
        if (status.state === "failed") this.onError(this, new ApiError(0, status.error || {}));
      },
    };
    if (features.playSocket !== false) {
      this.session = new PlaySession(this.gameId, options);
      this.done = this.session.start().then((outcome) => {
        if (outcome !== "unsupported" || this.stopped) return outcome;
        features.playSocket = false;
        this.session = null;
        return this.watch(options);
      });
    } else {
      this.done = this.watch(options);
    }
    return this;
  }

  watch(options) {
    return watchGame(this.gameId, { ...options, includeCurrent: true, withLegalMoves: true });
  }

  stop() {
    this.controller.abort();
  }

  get stopped() {
    return this.controller.signal.aborted;
  }

  seen(update) {
    const version = Number(update.version);
    if (version < this.latest) return;
    this.latest = version;
    this.last = update;
    if (update.snapshot?.finished) {
      this.stop();
      return;
    }
    this.pump();
  }

  /** Act on the newest update seen, once; again after a move if a newer one came meanwhile. */
  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.last && !this.stopped) {
        const update = this.last;
        this.last = null;
        await this.act(update);
      }
    } finally {
      this.busy = false;
    }
  }

  async act(update) {
    const version = Number(update.version);
    const toAct = update.snapshot?.toAct || [];
    if (!toAct.includes(this.seat) || version <= this.movedAt) return;
    let moves = update.legalMoves || [];
    if (!moves.length) {
      // The stream gives legal moves only on the newest version it knows of.
      const listed = await api.legalMoves(this.gameId, this.token).catch(() => null);
      if (!listed || Number(listed.version) !== version) return;
      moves = listed.moves;
    }
    await this.play(version, moves);
  }

  async play(version, moves, attempt = 0) {
    await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.stopped || this.latest > version) return;
    const index = chooseMove(moves, this.policy);
    if (index < 0 || version <= this.movedAt) return;
    this.movedAt = version;
    const key = newKey(`bot${this.seat}`);
    const body = { expectedVersion: String(version), move: moves[index] };
    if (this.session) {
      // The session sends the move again after a dropped connection, with its key.
      try {
        const result = await this.session.move(body, key);
        this.moves++;
        this.onMove(this, result);
      } catch (error) {
        if (STALE.has(error.reason)) await this.again(version, attempt);
        else if (error.reason !== "SESSION_ENDED") this.onError(this, error);
      }
      return;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const result = await api.move(this.gameId, this.token, body, key);
        this.moves++;
        this.onMove(this, result);
        return;
      } catch (error) {
        // Stale: a newer version is on its way; a network error: retry with the same key.
        if (STALE.has(error.reason)) {
          await this.again(version, attempt);
          return;
        }
        if (error.status !== 0 && error.status !== 503) {
          this.onError(this, error);
          return;
        }
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  }

  /**
   * The move chosen at `version` was refused as stale: another seat's move
   * (a teammate's, in a simultaneous phase) came first and changed the list.
   * The newer update is on its way and the pump acts on it; if none has come
   * after a moment, the bot plays from a fresh list of its legal moves.
   */
  async again(version, attempt) {
    for (let waited = 0; waited < 10 && this.latest <= version && !this.stopped; waited++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (this.stopped || this.latest > version || attempt >= MAX_RETRIES) return;
    const listed = await api.legalMoves(this.gameId, this.token).catch(() => null);
    if (!listed?.moves?.length || this.latest > Number(listed.version)) return;
    await this.play(Number(listed.version), listed.moves, attempt + 1);
  }
}
