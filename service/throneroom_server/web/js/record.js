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
import { addGameWords, lang, setLang, t } from "./i18n.js";

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
    "aria-label": t("openRecord"),
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
    this.lang = lang();
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
          h("h2", { id: "record-title" }, t("openRecord")),
          h("p", {}, t("recordHelp")),
          recordFileInput(this.go, "record-file-page"),
          h("p", {}, h("a", { href: "#/" }, t("backToLobby")))),
      );
      return;
    }
    this.main.append(h("p", { class: "muted", id: "record-loading" }, t("replaying", { name: this.file.name })));
    try {
      this.body = await recordBody(this.file);
      await this.load();
    } catch (error) {
      clear(this.main);
      this.main.append(
        h("p", { class: "error", role: "alert", id: "record-error" }, `${this.file.name}: ${error.message}`),
        recordFileInput(this.go, "record-file-page"),
        h("p", {}, h("a", { href: "#/" }, t("backToLobby"))),
      );
      return;
    }
    const first = this.updates[0].snapshot;
    this.board = await boardFor(first.gameType);
    // The game's own words (board labels, endings), from its SDK package.
    addGameWords(first.gameType, (await loadData(first.gameType))?.words);
    this.data = this.board.dataName ? await loadData(this.board.dataName) : null;
    if (this.controller.signal.aborted) return; // left while loading
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
    if (!updates.length) throw new Error(t("recordEmpty"));
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
      { id: "record-viewer", "aria-label": t("whoseView"), onchange: (e) => this.reload({ viewer: e.target.value === "" ? null : Number(e.target.value) }) },
      h("option", { value: "" }, t("spectator")),
      Array.from({ length: first.numSeats }, (_, n) => h("option", { value: String(n) }, seatName(first, n))),
    );
    const step = (id, label, to) => h("button", { type: "button", id, "aria-label": label, onclick: () => this.show(to()) }, label);
    this.status = h("p", { id: "status", role: "status", "aria-live": "polite" });
    this.errorBox = h("p", { id: "record-error", class: "error", role: "alert" });
    this.boardBox = h("div", { id: "board", class: "board-box" });
    this.outcomeBox = h("div");
    this.logBox = h("div", { class: "log-box" });
    this.slider = h("input", { type: "range", id: "record-slider", min: 0, max: this.last, step: 1, value: this.shown, "aria-label": t("versionShown"), oninput: (e) => this.show(Number(e.target.value)) });
    this.label = h("output", { id: "record-label", for: "record-slider" });
    this.main.append(
      h("div", { class: "game-head" },
        h("p", {}, h("a", { href: "#/" }, t("lobbyBack")), t("recordName", { name: this.file.name }), h("label", {}, t("view"), viewerSelect)),
        this.status, this.errorBox),
      h("div", { class: "game" },
        h("div", { class: "main-col" },
          this.boardBox,
          h("section", { class: "panel history", "aria-labelledby": "record-steps" },
            h("h2", { id: "record-steps" }, t("versions")),
            h("div", { class: "slider" }, this.slider, this.label),
            h("div", { class: "steps" },
              step("record-first", t("first"), () => 0),
              step("record-prev", t("previous"), () => this.shown - 1),
              step("record-next", t("next"), () => this.shown + 1),
              step("record-last", t("last"), () => this.last)),
            h("p", { class: "muted" }, t("keysHelp"))),
          this.outcomeBox),
        h("div", { class: "side-col" },
          h("section", { class: "panel", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, t("log")), this.logBox))),
    );
  }

  /** The page's words and the descriptions in another language. */
  async setLanguage(code) {
    setLang(code);
    if (!this.updates.length) {
      await this.start();
      return;
    }
    await this.reload({ lang: lang() });
    this.layout();
    this.render();
  }

  async reload(change) {
    if (change.lang !== undefined) this.lang = change.lang;
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
      svg = h("pre", { class: "error" }, t("boardFailed", { error: error.message }));
    }
    replace(this.boardBox, svg);
    const toAct = (snapshot.toAct || []).map((n) => seatName(snapshot, n));
    const state = snapshot.finished ? t("gameOver") : t("toAct", { who: toAct.join(", ") || t("nobody") });
    const viewer = this.viewer === null ? t("spectatorView") : t("seatView", { seat: seatName(snapshot, this.viewer) });
    this.status.textContent = `${viewer} ${t("versionOfCap", { version: this.shown, last: this.last })}. ${state}`;
    this.slider.max = String(this.last);
    this.slider.value = String(this.shown);
    this.label.textContent = t("versionOf", { version: this.shown, live: this.last });
    for (const [id, disabled] of [["record-first", this.shown === 0], ["record-prev", this.shown === 0], ["record-next", this.shown === this.last], ["record-last", this.shown === this.last]]) {
      this.main.querySelector(`#${id}`).disabled = disabled;
    }
    replace(this.outcomeBox, outcomePanel(snapshot, null, update.outcomeText || ""));
    const list = logPanel(this.log, { shownVersion: this.shown, snapshot, onVersion: (v) => this.show(v) });
    replace(this.logBox, list);
    list.querySelector("li.current")?.scrollIntoView({ block: "nearest" });
  }
}
