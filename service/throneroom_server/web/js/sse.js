// A Server-Sent Events reader over fetch(): unlike EventSource it can send an
// Authorization header (a seat's private stream) and tells errors apart.
//
// watchStream(url, {headers, onEvent, onStatus, signal, lastEventId}) reads
// the stream, reconnects after a dropped connection with Last-Event-ID (the
// id of the last event received) and a growing delay, and stops for good on
// 204 (a finished game with nothing left), on an HTTP error (its JSON error is
// passed to onStatus) or when `signal` aborts.

const MAX_DELAY_MS = 10000;
const MAX_LINE = 8 * 1024 * 1024; // one event's data: a snapshot is far smaller

/** Split a text/event-stream into events; `feed` takes decoded text chunks. */
export class EventParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = "";
    this.reset();
  }

  reset() {
    this.event = "";
    this.data = [];
    this.id = null;
  }

  feed(text) {
    this.buffer += text;
    if (this.buffer.length > MAX_LINE) throw new Error("an event longer than the client allows");
    let end;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, end);
      const sep = this.buffer.startsWith("\r\n", end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + sep);
      this.line(line);
    }
  }

  line(line) {
    if (line === "") {
      if (this.data.length) {
        this.onEvent({ event: this.event || "message", data: this.data.join("\n"), id: this.id });
      }
      this.reset();
      return;
    }
    if (line.startsWith(":")) return; // a comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id") this.id = value;
  }
}

/** Resolves after ``ms``, or at once when ``signal`` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Follow an SSE url until it ends for good. Returns a promise that resolves
 * when the stream is over ("finished", "aborted" or "failed").
 */
export async function watchStream(url, { headers = {}, onEvent, onStatus = () => {}, signal, lastEventId = null }) {
  let lastId = lastEventId;
  let delay = 500;
  while (!signal?.aborted) {
    const sent = { Accept: "text/event-stream", ...headers };
    if (lastId !== null) sent["Last-Event-ID"] = lastId;
    let response;
    try {
      response = await fetch(url, { headers: sent, signal, cache: "no-store" });
    } catch (error) {
      if (signal?.aborted) return "aborted";
      onStatus({ state: "reconnecting", error: String(error) });
      await sleep(delay, signal);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
      continue;
    }
    if (response.status === 204) {
      onStatus({ state: "finished" });
      return "finished";
    }
    if (!response.ok) {
      let error = { message: `HTTP ${response.status}` };
      try {
        error = (await response.json()).error ?? error;
      } catch {
        /* not JSON */
      }
      if (response.status === 429 || response.status === 503) {
        onStatus({ state: "reconnecting", error: error.message });
        await sleep(delay, signal);
        delay = Math.min(delay * 2, MAX_DELAY_MS);
        continue;
      }
      onStatus({ state: "failed", error });
      return "failed";
    }
    onStatus({ state: "open" });
    delay = 500;
    let failed = null;
    const parser = new EventParser((event) => {
      if (event.id !== null) lastId = event.id;
      if (event.event === "failure") {
        try {
          failed = JSON.parse(event.data).error;
        } catch {
          failed = { message: event.data };
        }
        return;
      }
      onEvent(event);
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch (error) {
      if (signal?.aborted) return "aborted";
      onStatus({ state: "reconnecting", error: String(error) });
    }
    if (signal?.aborted) return "aborted";
    if (failed) onStatus({ state: "reconnecting", error: failed.message });
    // The server ends the stream after the update that finishes the game, or
    // when it shuts down: reconnect; a finished game then answers 204.
    await sleep(failed ? delay : 200, signal);
    if (failed) delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
  return "aborted";
}
