// A seat's play session on a WebSocket (GET /v1/play in JSON, docs/api.md
// "Play sessions over a WebSocket"): the seat's updates in, its moves out,
// each move's result riding on the update it made. One connection per seat
// where the REST face needs a watch stream and a request per move.
//
// A dropped connection is opened again from the last version seen, and the
// moves still unanswered are sent again with their idempotency keys (the
// server applies each once, and answers a retry with the first result). A
// browser or proxy that cannot open the WebSocket at all makes `start()`
// resolve "unsupported": the page then plays through the REST face.

import { ApiError } from "./api.js";
import { sleep } from "./sse.js";

const STATUS_NAMES = [
  "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
  "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
  "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
  "UNAUTHENTICATED",
];
// The REST face's statuses for the same errors (docs/rest.md), so that a
// move's error reads the same whichever way it was sent.
const HTTP_STATUS = {
  INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 409, ABORTED: 409, UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403, NOT_FOUND: 404, UNAVAILABLE: 503, RESOURCE_EXHAUSTED: 429,
};
// An error that ends a session but not the game: open it again (a watcher
// too slow, the store or the server unavailable for a moment, a stream limit).
const RETRY = new Set(["UNAVAILABLE", "RESOURCE_EXHAUSTED"]);
const CLOSE_DELIVERED = 1000; // the game was delivered to its end
const MAX_DELAY_MS = 8000;

/** A move's error (a PlayMoveResult's `error`) as the REST face's ApiError. */
export function moveError(error) {
  const code = STATUS_NAMES[error.code] ?? "UNKNOWN";
  return new ApiError(HTTP_STATUS[code] ?? 500, { ...error, code });
}

export class PlaySession {
  constructor(gameId, { token, fromVersion = 0, lang, onUpdate, onStatus = () => {}, signal }) {
    Object.assign(this, { gameId, token, lang, onUpdate, onStatus, signal });
    this.version = fromVersion;
    this.pending = new Map(); // idempotency key -> { body, resolve, reject }
    this.socket = null;
    this.open = false;
    this.ended = null; // how the session ended, once it has
  }

  /**
   * Play until the session is over for good: "finished" (the game delivered
   * to its end), "failed", "aborted" (the signal), or "unsupported" (no
   * WebSocket could be opened at all).
   */
  async start() {
    let delay = 500;
    let everOpened = false;
    while (!this.signal?.aborted) {
      const closed = await this.connect();
      if (this.signal?.aborted) break;
      if (!closed.opened && !everOpened) return this.end("unsupported");
      everOpened = true;
      if (closed.code === CLOSE_DELIVERED) {
        this.onStatus({ state: "finished" });
        return this.end("finished");
      }
      if (closed.error && !RETRY.has(closed.error.code)) {
        this.onStatus({ state: "failed", error: closed.error });
        return this.end("failed");
      }
      this.onStatus({ state: "reconnecting", error: closed.error?.message ?? `connection closed (${closed.code})` });
      await sleep(closed.opened ? 200 : delay, this.signal);
      delay = closed.opened ? 500 : Math.min(delay * 2, MAX_DELAY_MS);
    }
    return this.end("aborted");
  }

  /** Send a move ({expectedVersion, move}); resolves with its result, rejects with its error. */
  move(body, key) {
    return new Promise((resolve, reject) => {
      if (this.ended) {
        reject(this.endError());
        return;
      }
      this.pending.set(key, { body, resolve, reject });
      if (this.open) this.send({ move: { ...body, idempotencyKey: key } });
    });
  }

  send(request) {
    this.socket.send(JSON.stringify(request));
  }

  connect() {
    return new Promise((resolve) => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/v1/play`);
      this.socket = socket;
      let opened = false;
      let error = null;
      const abort = () => socket.close();
      this.signal?.addEventListener("abort", abort);
      socket.onopen = () => {
        opened = true;
        this.send({
          open: {
            gameId: this.gameId,
            seatToken: this.token,
            fromVersion: String(this.version),
            includeCurrent: true,
            withLegalMoves: true,
            describeLanguage: this.lang || "",
          },
        });
        this.open = true;
        for (const [key, { body }] of this.pending) this.send({ move: { ...body, idempotencyKey: key } });
        this.onStatus({ state: "open" });
      };
      socket.onmessage = (event) => {
        const frame = JSON.parse(event.data);
        if (frame.error) {
          error = frame.error; // the close follows
          return;
        }
        if (frame.update) {
          this.version = Number(frame.update.version);
          this.onUpdate(frame.update);
        }
        for (const result of frame.results || []) this.settle(result);
      };
      socket.onclose = (event) => {
        this.open = false;
        this.signal?.removeEventListener("abort", abort);
        resolve({ opened, code: event.code, error });
      };
    });
  }

  settle(result) {
    const waiting = this.pending.get(result.idempotencyKey);
    if (!waiting) return;
    this.pending.delete(result.idempotencyKey);
    if (result.error) waiting.reject(moveError(result.error));
    else waiting.resolve(result);
  }

  /** The session is over: every move still waiting, and every later one, is refused. */
  end(outcome) {
    this.ended = outcome;
    const left = this.endError();
    for (const { reject } of this.pending.values()) reject(left);
    this.pending.clear();
    return outcome;
  }

  endError() {
    return new ApiError(0, { code: "UNAVAILABLE", reason: "SESSION_ENDED", message: `the play session ended (${this.ended})` });
  }
}
