// The REST face (docs/rest.md) from the browser: JSON in and out, the seat
// token in `Authorization: Bearer`, errors as ApiError carrying the server's
// code, reason and sentence.

import { watchStream } from "./sse.js";

export class ApiError extends Error {
  constructor(status, error) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || "";
    this.reason = error.reason || "";
    this.metadata = error.metadata || {};
  }
}

function query(params) {
  const parts = [];
  for (const [name, value] of Object.entries(params || {})) {
    if (value === undefined || value === null || value === "") continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

function authHeaders(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export async function call(method, path, { token, body, params, headers } = {}) {
  const sent = { Accept: "application/json", ...authHeaders(token), ...(headers || {}) };
  const init = { method, headers: sent, cache: "no-store" };
  if (method === "POST") {
    sent["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path + query(params), init);
  } catch (error) {
    throw new ApiError(0, { code: "UNAVAILABLE", reason: "NETWORK", message: `the server cannot be reached (${error.message})` });
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(response.status, { message: `the server answered ${response.status} with a body that is not JSON` });
  }
  if (!response.ok) throw new ApiError(response.status, data.error || {});
  return data;
}

/** A random idempotency key (the server keeps it for a retry). */
export function newKey(prefix = "web") {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * What this server offers beyond the base REST face (docs/web.md): ListGames
 * (`GET /v1/games`), `describe_language` on legal moves, watch and history,
 * and play sessions on a WebSocket (`GET /v1/play`, session.js).
 * Unknown (null) until a call tells; an older server answers 404 or 400 and
 * the client does without (the lobby then lists the games this browser knows;
 * a seat follows the watch stream and moves through the REST face).
 */
export const features = { listGames: null, describe: null, playSocket: null };

function describeUnsupported(error) {
  return error instanceof ApiError && error.status === 400 && /describe_language/.test(error.message);
}

async function described(lang, send) {
  if (lang && features.describe !== false) {
    try {
      const result = await send(lang);
      features.describe = true;
      return result;
    } catch (error) {
      if (!describeUnsupported(error)) throw error;
      features.describe = false;
    }
  }
  return send(undefined);
}

const gamePath = (gameId) => `/v1/games/${encodeURIComponent(gameId)}`;

export const api = {
  gameTypes: () => call("GET", "/v1/game-types"),
  async listGames(params) {
    try {
      const result = await call("GET", "/v1/games", { params });
      features.listGames = true;
      return result;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 405)) {
        features.listGames = false;
        return null;
      }
      throw error;
    }
  },
  createGame: (body) => call("POST", "/v1/games", { body }),
  join: (gameId, body) => call("POST", `${gamePath(gameId)}/seats`, { body }),
  game: (gameId, token) => call("GET", gamePath(gameId), { token }),
  legalMoves: (gameId, token, lang) =>
    described(lang, (l) => call("GET", `${gamePath(gameId)}/legal-moves`, { token, params: { describe_language: l } })),
  move: (gameId, token, body, key) =>
    call("POST", `${gamePath(gameId)}/moves`, { token, body, headers: { "Idempotency-Key": key } }),
  history: (gameId, token, params, lang) =>
    described(lang, (l) => call("GET", `${gamePath(gameId)}/history`, { token, params: { ...params, describe_language: l } })),
};

/**
 * Follow a game's watch stream (a seat's with its token, else a spectator's).
 * onUpdate(update, id) for each version, onStatus for the connection's state.
 * Resolves when the stream is over for good ("finished", "aborted", "failed").
 */
export async function watchGame(gameId, options) {
  const { lang, onStatus = () => {} } = options;
  if (lang && features.describe !== false) {
    let unsupported = false;
    const result = await openWatch(gameId, {
      ...options,
      onStatus: (status) => {
        if (status.state === "failed" && describeUnsupported(new ApiError(400, status.error))) {
          unsupported = true;
          return;
        }
        onStatus(status);
      },
    });
    if (!unsupported) return result;
    features.describe = false;
  }
  return openWatch(gameId, { ...options, lang: undefined });
}

function openWatch(gameId, { token, fromVersion = 0, includeCurrent = false, withLegalMoves = false, lang, heartbeatSeconds, onUpdate, onStatus, signal }) {
  const url = `${gamePath(gameId)}/watch${query({
    fromVersion,
    includeCurrent: includeCurrent ? "true" : undefined,
    withLegalMoves: withLegalMoves && token ? "true" : undefined,
    describe_language: lang,
    heartbeatSeconds,
  })}`;
  return watchStream(url, {
    headers: authHeaders(token),
    signal,
    onStatus,
    onEvent: (event) => {
      if (event.event !== "update") return;
      onUpdate(JSON.parse(event.data).update, event.id);
    },
  });
}

/**
 * The update that made one past version (its snapshot, events and texts): a
 * watch from the version before, first update only. Version 0 (no move made
 * it) is only to be had while it is the current version.
 */
export async function updateAt(gameId, token, version, lang) {
  const controller = new AbortController();
  let found = null;
  await watchGame(gameId, {
    token,
    fromVersion: Math.max(0, version - 1),
    includeCurrent: version === 0,
    lang,
    signal: controller.signal,
    onStatus: (status) => {
      if (status.state !== "open") controller.abort();
    },
    onUpdate: (update) => {
      if (!found) found = update;
      controller.abort();
    },
  });
  return found && String(found.version) === String(version) ? found : null;
}
