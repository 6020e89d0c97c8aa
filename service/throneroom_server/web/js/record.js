// A record page: a game record file (ExportGame's, `throneroom export`'s or a
// tournament's: JSON or binary) opened from this computer, replayed by the
// server (POST /v1/records/replay: nothing is stored) and stepped through
// with the game's own board, as a spectator or as any seat (a record reveals
// every secret anyway), with the log and the outcome.

import { call } from "./api.js";
import { boardFor } from "./boards/index.js";
import { clear, h } from "./dom.js";
import { loadData } from "./gamedata.js";
import { eventTexts, logPanel, outcomePanel, replace, seatName } from "./panels.js";
import { preference, setPreference } from "./storage.js";

const LANGUAGES = { en: "English", es: "Español", pt: "Português" };
const PAGE = 1000;

let pending = null; // the file chosen on the lobby, read by the next record page

/** Remember a chosen file for the record page the caller goes to next. */
export function openRecordFile(file) {
  pending = file;
}

/** A file input that opens the record page on the chosen file. */
export function recordFileInput(go, id = "record-file") {
  return h("input", {
    type: "file",
    id,
    accept: ".json,.pb,.bin,application/json,application/octet-stream",
    "aria-label": "Open a record file",
    onchange: (e) => {
      const file = e.target.files?.[0];
      if (!file) return;
      openRecordFile(file);
      go("#/record");
    },
  });
}

/** The request body for a file: its JSON as `record`, else its bytes as `recordData`. */
async function recordBody(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (/^\s*\{/.test(text)) {
    try {
      return { record: JSON.parse(text) };
    } catch {
      // not JSON after all: sent as bytes, the server says what it is
    }
  }
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { recordData: btoa(binary) };
}

export class RecordPage {
  constructor(main, { go }) {
    Object.assign(this, { main, go });
    this.file = pending;
    pending = null;
    this.lang = preference("lang", "en");
    this.viewer = null; // null: a spectator's view; else a seat
    this.updates = [];
    this.shown = 0;
    this.controller = new AbortController();
    this.onKey = (event) => this.key(event);
  }

  destroy() {
    this.controller.abort();
    document.removeEventListener("keydown", this.onKey);
  }

  async start() {
    clear(this.main);
    if (!this.file) {
      this.main.append(
        h("section", { class: "panel", "aria-labelledby": "record-title" },
          h("h2", { id: "record-title" }, "Open a record file"),
          h("p", {}, "A game record (JSON or binary, from ExportGame, `throneroom export` or a tournament's records) is replayed by the server, nothing stored, and shown with the game's board."),
          recordFileInput(this.go, "record-file-page"),
          h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))),
      );
      return;
    }
    this.main.append(h("p", { class: "muted", id: "record-loading" }, `Replaying ${this.file.name}…`));
    try {
      this.body = await recordBody(this.file);
      await this.load();
    } catch (error) {
      clear(this.main);
      this.main.append(
        h("p", { class: "error", role: "alert", id: "record-error" }, `${this.file.name}: ${error.message}`),
        recordFileInput(this.go, "record-file-page"),
        h("p", {}, h("a", { href: "#/" }, "Back to the lobby")),
      );
      return;
    }
    const first = this.updates[0].snapshot;
    this.board = await boardFor(first.gameType);
    this.data = this.board.dataName ? await loadData(this.board.dataName) : null;
    this.layout();
    document.addEventListener("keydown", this.onKey);
    this.render();
  }

  /** Every version of the record, as the chosen viewer, in the chosen language. */
  async load() {
    const updates = [];
    let from = 0;
    for (;;) {
      const body = { ...this.body, fromVersion: from, pageSize: PAGE, describeLanguage: this.lang };
      if (this.viewer !== null) body.viewerSeat = this.viewer;
      const page = await call("POST", "/v1/records/replay", { body });
      updates.push(...(page.updates || []));
      if (page.nextFromVersion === undefined) break;
      from = Number(page.nextFromVersion);
    }
    if (!updates.length) throw new Error("the record has no versions");
    this.updates = updates;
    this.log = updates.slice(1).map((u) => ({ version: Number(u.version), seat: u.seat, timeout: u.timeout, events: u.events || [], texts: eventTexts(u), move: u.moveDescription || null }));
    this.shown = Math.min(this.shown, updates.length - 1);
  }

  get last() {
    return this.updates.length - 1;
  }

  layout() {
    clear(this.main);
    const first = this.updates[0].snapshot;
    const viewerSelect = h(
      "select",
      { id: "record-viewer", "aria-label": "Whose view", onchange: (e) => this.reload({ viewer: e.target.value === "" ? null : Number(e.target.value) }) },
      h("option", { value: "" }, "Spectator"),
      Array.from({ length: first.numSeats }, (_, n) => h("option", { value: String(n) }, seatName(first, n))),
    );
    const langSelect = h(
      "select",
      { id: "language", "aria-label": "Language of the descriptions", onchange: (e) => this.reload({ lang: e.target.value }) },
      Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === this.lang }, name)),
    );
    const step = (id, label, to) => h("button", { type: "button", id, "aria-label": label, onclick: () => this.show(to()) }, label);
    this.status = h("p", { id: "status", role: "status", "aria-live": "polite" });
    this.errorBox = h("p", { id: "record-error", class: "error", role: "alert" });
    this.boardBox = h("div", { id: "board", class: "board-box" });
    this.outcomeBox = h("div");
    this.logBox = h("div", { class: "log-box" });
    this.slider = h("input", { type: "range", id: "record-slider", min: 0, max: this.last, step: 1, value: this.shown, "aria-label": "Version shown", oninput: (e) => this.show(Number(e.target.value)) });
    this.label = h("output", { id: "record-label", for: "record-slider" });
    this.main.append(
      h("div", { class: "game-head" },
        h("p", {}, h("a", { href: "#/" }, "← Lobby"), ` · Record ${this.file.name} · `, h("label", {}, "View: ", viewerSelect), " ", h("label", {}, "Language: ", langSelect)),
        this.status, this.errorBox),
      h("div", { class: "game" },
        h("div", { class: "main-col" },
          this.boardBox,
          h("section", { class: "panel history", "aria-labelledby": "record-steps" },
            h("h2", { id: "record-steps" }, "Versions"),
            h("div", { class: "slider" }, this.slider, this.label),
            h("div", { class: "steps" },
              step("record-first", "First", () => 0),
              step("record-prev", "Previous", () => this.shown - 1),
              step("record-next", "Next", () => this.shown + 1),
              step("record-last", "Last", () => this.last)),
            h("p", { class: "muted" }, "Keys: ← → step, Home and End jump.")),
          this.outcomeBox),
        h("div", { class: "side-col" },
          h("section", { class: "panel", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, "Log"), this.logBox))),
    );
  }

  async reload(change) {
    if (change.lang !== undefined) {
      this.lang = change.lang;
      setPreference("lang", change.lang);
    }
    if (change.viewer !== undefined) this.viewer = change.viewer;
    try {
      await this.load();
      this.errorBox.textContent = "";
    } catch (error) {
      this.errorBox.textContent = error.message;
    }
    this.render();
  }

  key(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const to = { ArrowLeft: this.shown - 1, ArrowRight: this.shown + 1, Home: 0, End: this.last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.show(to);
  }

  show(version) {
    this.shown = Math.max(0, Math.min(this.last, version));
    this.render();
  }

  render() {
    if (this.controller.signal.aborted) return;
    const update = this.updates[this.shown];
    const snapshot = update.snapshot;
    let svg;
    try {
      svg = this.board.render(snapshot, { data: this.data, lang: this.lang, seat: this.viewer, selected: [], clickable: new Set(), seatName: (n) => seatName(snapshot, n), lastEvents: update.events || [] });
    } catch (error) {
      console.warn("board", error);
      svg = h("pre", { class: "error" }, `This board cannot be drawn: ${error.message}`);
    }
    replace(this.boardBox, svg);
    const toAct = (snapshot.toAct || []).map((n) => seatName(snapshot, n));
    const state = snapshot.finished ? "The game is over." : `To act: ${toAct.join(", ") || "nobody"}.`;
    const viewer = this.viewer === null ? "A spectator's view." : `${seatName(snapshot, this.viewer)}'s view.`;
    this.status.textContent = `${viewer} Version ${this.shown} of ${this.last}. ${state}`;
    this.slider.max = String(this.last);
    this.slider.value = String(this.shown);
    this.label.textContent = `version ${this.shown} of ${this.last}`;
    for (const [id, disabled] of [["record-first", this.shown === 0], ["record-prev", this.shown === 0], ["record-next", this.shown === this.last], ["record-last", this.shown === this.last]]) {
      this.main.querySelector(`#${id}`).disabled = disabled;
    }
    replace(this.outcomeBox, outcomePanel(snapshot));
    const list = logPanel(this.log, { shownVersion: this.shown, snapshot, onVersion: (v) => this.show(v) });
    replace(this.logBox, list);
    list.querySelector("li.current")?.scrollIntoView({ block: "nearest" });
  }
}
