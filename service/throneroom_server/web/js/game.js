// A game page: the board of the version shown, the legal moves (clickable on
// the board and listed), live updates from the watch stream, the event log,
// the history slider, the seats with their bots, and the outcome.

import { api, ApiError, call, newKey, updateAt, watchGame, features } from "./api.js";
import { PlaySession } from "./session.js";
import { PageBot } from "./bot.js";
import { boardFor } from "./boards/index.js";
import { clear, h } from "./dom.js";
import { loadData } from "./gamedata.js";
import { moveList, Picker, summarizeMove } from "./moves.js";
import { eventTexts, historyPanel, logPanel, outcomePanel, replace, seatName, seatsPanel } from "./panels.js";
import { joinSeat } from "./seats.js";
import { preference, rememberGame, seatsOf, setPreference, forgetGame, forgetSeat } from "./storage.js";
import { addGameWords, lang, setLang, t } from "./i18n.js";

const MAX_LOG = 5000;
const MAX_CACHED = 300;
// Refusals meaning "the list the move was chosen from is out of date".
const STALE = new Set(["STALE_VERSION", "NOT_YOUR_TURN", "ILLEGAL_MOVE"]);

export class GamePage {
  constructor(main, { gameId, seat, joinSeat: wanted, go }) {
    Object.assign(this, { main, gameId, go, wanted });
    this.seat = seat;
    this.token = seat === null ? null : seatsOf(gameId)[seat]?.token ?? null;
    this.notice = null;
    this.refusedSeat = null; // a seat whose kept token the server refused
    if (seat !== null && this.token === null) {
      // A seat's link opened in a browser that does not hold its token (a
      // link shared, another device): the page spectates and says why.
      this.notice = t("noToken", { seat });
      this.seat = null;
    }
    this.lang = lang();
    this.policy = preference("botPolicy", "random");
    this.confirming = preference("confirmMoves", true) !== false;
    this.controller = new AbortController();
    this.bots = new Map();
    this.log = [];
    this.picker = new Picker();
    this.legal = { version: -1, moves: [], descriptions: null };
    this.shown = null; // null: live; else a past version
    this.past = new Map(); // version -> update (bounded)
    this.filter = "";
    this.minVersion = 1;
    this.online = true; // the stream or play session is up
    this.pendingMove = null; // the move sent and not yet answered
    this.outcomeText = ""; // a finished game's outcome in words, from its update
    this.pageTitle = document.title;
  }

  destroy() {
    document.title = this.pageTitle;
    clearTimeout(this.pollTimer);
    clearTimeout(this.retryTimer);
    this.controller.abort();
    this.watchController?.abort();
    for (const bot of this.bots.values()) bot.stop();
  }

  async start() {
    clear(this.main);
    this.main.append(h("p", { class: "muted" }, t("loadingGame")));
    try {
      await this.loadSnapshot();
    } catch (error) {
      this.loadFailed(error);
      return;
    }
    rememberGame(this.gameId, this.snapshot.gameType);
    this.board = await boardFor(this.snapshot.gameType);
    // The game's own words (board labels, endings), from its SDK package.
    addGameWords(this.snapshot.gameType, (await loadData(this.snapshot.gameType))?.words);
    this.data = this.board.dataName ? await loadData(this.board.dataName) : null;
    // Left while loading (the reader went elsewhere): start nothing more.
    if (this.controller.signal.aborted) return;
    this.layout();
    if (this.wanted !== null && this.wanted !== undefined && this.seat === null) await this.join(this.wanted);
    if (this.controller.signal.aborted) return;
    this.resumeBots();
    await this.loadHistory();
    if (this.controller.signal.aborted) return;
    this.watch();
    this.render();
    this.waitForPlayers();
  }

  /**
   * The game could not be loaded: say why, offer Retry, and try again by
   * itself every few seconds while the server cannot be reached (or is
   * unavailable), so the page comes back with the server.
   */
  loadFailed(error) {
    clear(this.main);
    const transient = error instanceof ApiError && (error.status === 0 || error.status === 503);
    const retry = () => {
      clearTimeout(this.retryTimer);
      if (!this.controller.signal.aborted) this.start();
    };
    this.main.append(
      h("p", { class: "error", role: "alert", id: "load-error" }, t("loadFailed", { id: this.gameId, error: error.message })),
      transient ? h("p", { class: "muted" }, t("loadRetrying")) : null,
      h("p", {}, h("button", { type: "button", id: "retry", onclick: retry }, t("retry")), " ", h("a", { href: "#/" }, t("backToLobby"))),
    );
    if (transient) this.retryTimer = setTimeout(retry, 3000);
  }

  /**
   * Seats taken do not make a version (the stream says nothing until the first
   * move), so while seats are free the page asks for the snapshot every few
   * seconds, and at once after a seat is taken from this page.
   */
  waitForPlayers() {
    clearTimeout(this.pollTimer);
    if (this.snapshot.started || this.controller.signal.aborted) return;
    this.pollTimer = setTimeout(async () => {
      await this.refresh();
      this.waitForPlayers();
    }, 3000);
  }

  async refresh() {
    try {
      const snapshot = (await api.game(this.gameId, this.token)).snapshot;
      if (Number(snapshot.version) < this.liveVersion) return;
      const started = snapshot.started && !this.snapshot.started;
      this.snapshot = snapshot;
      this.liveVersion = Number(snapshot.version);
      if (started && this.seat !== null && (snapshot.toAct || []).includes(this.seat)) await this.fetchLegal();
      this.render();
    } catch (error) {
      this.errorBox.textContent = error.message;
    }
  }

  async loadSnapshot() {
    try {
      this.snapshot = (await api.game(this.gameId, this.token)).snapshot;
    } catch (error) {
      if (this.token && error instanceof ApiError && (error.status === 400 || error.status === 401 || error.status === 403)) {
        // A token kept for this seat that the server refuses (malformed, or
        // not this game's): spectate, and offer to forget it.
        this.notice = t("badToken", { seat: this.seat, error: error.message });
        this.refusedSeat = this.seat;
        this.seat = null;
        this.token = null;
        this.snapshot = (await api.game(this.gameId, null)).snapshot;
      } else throw error;
    }
    this.liveVersion = Number(this.snapshot.version);
    if (this.liveVersion === 0) this.minVersion = 0;
  }

  // -- layout and rendering ----------------------------------------------------------------

  layout() {
    clear(this.main);
    const share = h("input", { id: "share-link", readOnly: true, value: this.shareLink(), "aria-label": t("shareLabel"), onfocus: (e) => e.target.select() });
    this.status = h("p", { id: "status", role: "status", "aria-live": "polite" });
    this.connection = h("span", { id: "connection", class: "muted" });
    this.errorBox = h("p", { id: "move-error", class: "error", role: "alert" });
    this.boardBox = h("div", { id: "board", class: "board-box" });
    this.movesBox = h("div", { id: "moves" });
    this.seatsBox = h("div", { class: "seats-box" });
    this.historyBox = h("div", { class: "history-box" });
    this.outcomeBox = h("div", { class: "outcome-box" });
    this.logBox = h("div", { class: "log-box" });
    const filter = h("input", { type: "search", id: "move-filter", placeholder: t("filterMoves"), "aria-label": t("filterLabel"), oninput: (e) => { this.filter = e.target.value; this.renderMoves(); } });
    const skip = (target, text, id) => h("a", { href: `#${target}`, class: "skip", id, onclick: (e) => { e.preventDefault(); document.getElementById(target)?.focus(); } }, text);
    this.boardBox.tabIndex = -1;
    this.main.append(
      skip("board", t("skipToBoard"), "skip-board"),
      h(
        "div",
        { class: "game-head" },
        h("h2", { id: "game-title" }, `${this.board.title} · ${this.gameId}`),
        h("div", { class: "head-tools" }, h("label", { for: "share-link" }, `${t("share")} `), share, this.connection),
        this.seat === null ? null : h("p", { class: "muted seat-link" }, t("seatLink"), h("a", { href: `#/game/${this.gameId}/seat/${this.seat}` }, `#/game/${this.gameId}/seat/${this.seat}`)),
      ),
      this.noticeBox(),
      this.status,
      h(
        "div",
        { class: "game" },
        h("div", { class: "main-col" }, this.zoomTools(), this.boardBox, this.outcomeBox, this.historyBox),
        h(
          "div",
          { class: "side-col" },
          this.seatsBox,
          h("section", { class: "panel moves-panel", "aria-labelledby": "moves-title" }, h("h2", { id: "moves-title" }, this.seat === null ? t("moves") : t("yourMoves")), this.errorBox, skip("log-section", t("skipMoves"), "skip-moves"), filter, this.confirmToggle(), this.movesBox),
          h("section", { class: "panel log-panel", "aria-labelledby": "log-title", id: "log-section", tabindex: "-1" }, h("h2", { id: "log-title" }, t("log")), this.logBox),
        ),
      ),
    );
  }

  /** Whether moves made by several clicks on the board wait for Confirm (kept in this browser). */
  confirmToggle() {
    if (this.seat === null) return null;
    const box = h("input", { type: "checkbox", id: "confirm-toggle", checked: this.confirming, onchange: (event) => {
      this.confirming = event.target.checked;
      setPreference("confirmMoves", this.confirming);
    } });
    return h("div", { class: "field inline confirm-toggle" }, box, h("label", { for: "confirm-toggle" }, t("confirmToggle")));
  }

  noticeBox() {
    const box = h("p", { class: "notice", id: "notice", hidden: !this.notice }, this.notice || "");
    if (this.refusedSeat !== null) {
      const seat = this.refusedSeat;
      box.append(
        " ",
        h("button", { type: "button", id: "forget-token", onclick: () => {
          forgetSeat(this.gameId, seat);
          this.refusedSeat = null;
          box.replaceChildren(t("tokenForgotten", { seat }));
        } }, t("forgetToken")),
      );
    }
    return box;
  }

  /** Zoom the board in its box (scroll or swipe to pan): on a phone, to make its targets big enough. */
  zoomTools() {
    this.zoom = this.zoom ?? 1;
    const shown = h("output", { id: "zoom-level", "aria-live": "polite" }, `${Math.round(this.zoom * 100)} %`);
    const set = (zoom) => {
      this.zoom = Math.max(1, Math.min(4, zoom));
      shown.textContent = `${Math.round(this.zoom * 100)} %`;
      this.applyZoom();
    };
    return h(
      "div",
      { class: "zoom" },
      h("button", { type: "button", id: "zoom-out", "aria-label": t("zoomOut"), onclick: () => set(this.zoom / 1.5) }, "−"),
      shown,
      h("button", { type: "button", id: "zoom-in", "aria-label": t("zoomIn"), onclick: () => set(this.zoom * 1.5) }, "+"),
      h("button", { type: "button", id: "zoom-fit", onclick: () => set(1) }, t("zoomFit")),
    );
  }

  applyZoom() {
    const svg = this.boardBox.querySelector("svg.board");
    if (svg) svg.style.width = `${this.zoom * 100}%`;
  }

  shareLink() {
    const base = `${location.origin}${location.pathname}#/game/${this.gameId}`;
    return base;
  }

  shownUpdate() {
    return this.shown === null ? null : this.past.get(this.shown);
  }

  render() {
    const snapshot = this.shownUpdate()?.snapshot ?? this.snapshot;
    const live = this.shown === null;
    const mine = live && this.seat !== null && (snapshot.toAct || []).includes(this.seat) && !snapshot.finished;
    const next = live && this.online && !this.pendingMove ? this.picker.nextKeys() : new Set();
    let svg;
    try {
      svg = this.board.render(snapshot, { data: this.data, lang: this.lang, seat: this.seat, selected: live ? this.picker.selected : [], clickable: next, seatName: (n) => seatName(snapshot, n), lastEvents: this.eventsOf(Number(snapshot.version)) });
    } catch (error) {
      console.warn("board", error);
      svg = h("pre", { class: "error" }, t("boardFailed", { error: error.message }));
    }
    this.wireBoard(svg, next);
    // Keep the place the player panned to while the board is redrawn.
    const { scrollLeft, scrollTop } = this.boardBox;
    replace(this.boardBox, svg);
    this.applyZoom();
    this.boardBox.scrollLeft = scrollLeft;
    this.boardBox.scrollTop = scrollTop;
    const toAct = (snapshot.toAct || []).map((n) => seatName(snapshot, n));
    let status;
    if (snapshot.finished) status = t("gameOver");
    else if (!snapshot.started) status = t("waiting", { free: snapshot.seats.filter((s) => !s.taken).length });
    else if (this.pendingMove) status = this.online ? t("pending") : t("pendingOffline");
    else if (!this.online) status = `${t("offline")} ${t("offlineMoves")}`;
    else if (mine) status = t("yourTurn");
    else status = t("toAct", { who: toAct.join(", ") || t("nobody") });
    const viewer = this.seat === null ? t("spectating") : t("youPlay", { seat: seatName(snapshot, this.seat) });
    this.status.textContent = `${viewer} ${t("versionLine", { version: snapshot.version })}${live ? "" : t("historyShown")}. ${status}`;
    this.status.dataset.state = this.pendingMove ? "pending" : this.online ? "online" : "offline";
    this.status.classList.toggle("offline", !this.online);
    // Attention: the tab's title says when this seat must act.
    const title = `${this.board.title} · ${this.pageTitle}`;
    document.title = mine && this.online && !this.pendingMove ? `● ${t("yourTurnTitle")} · ${title}` : title;
    replace(this.outcomeBox, outcomePanel(this.snapshot, this.endActions(), this.outcomeText));
    replace(
      this.historyBox,
      historyPanel({ minVersion: this.minVersion, liveVersion: this.liveVersion, shown: this.shown, onChange: (v, done) => this.showVersion(v, done), onLive: () => this.showVersion(null, true) }),
    );
    replace(
      this.seatsBox,
      seatsPanel(this.snapshot, {
        mySeat: this.seat,
        held: new Set(Object.keys(seatsOf(this.gameId)).map(Number)),
        bots: this.bots,
        policy: this.policy,
        onJoin: (seat) => this.join(seat),
        onSwitch: (seat) => this.go(`#/game/${this.gameId}/seat/${seat}`),
        onBots: () => this.seatBots(),
        onPolicy: (p) => { this.policy = p; setPreference("botPolicy", p); },
        onStopBot: (seat) => { this.bots.get(seat)?.stop(); this.bots.delete(seat); this.render(); },
      }),
    );
    this.renderMoves();
    this.renderLog();
  }

  /** A finished game's record to download, and a rematch with the same settings. */
  endActions() {
    if (!this.snapshot.finished) return null;
    const rematch = h("button", { type: "button", id: "rematch", onclick: () => this.rematch(rematch) }, t("rematch"));
    return h(
      "p",
      { class: "end-actions" },
      h("a", { id: "record-link", href: `/v1/games/${this.gameId}/record`, download: `${this.gameId}.record.json` }, t("record")),
      " ",
      rematch,
    );
  }

  /** A new game of the same type, options, seats and clocks (from the record), this browser in its first seat. */
  async rematch(button) {
    button.disabled = true;
    try {
      const { record } = await call("GET", `/v1/games/${this.gameId}/record`);
      const body = { options: record.options, numSeats: record.numSeats };
      if (record.timeControl) body.timeControl = record.timeControl;
      const created = await api.createGame(body);
      rememberGame(created.gameId, record.gameType);
      const seat = await joinSeat(created.gameId, null, preference("name", ""));
      this.go(`#/game/${created.gameId}/seat/${seat}`);
    } catch (error) {
      this.errorBox.textContent = t("rematchFailed", { error: error.message });
      button.disabled = false;
    }
  }

  /**
   * The board keys the events of the version shown name (a unit, a square,
   * a region, a card): the board marks them, so the last move stands out.
   */
  lastMoveKeys(events) {
    const keys = new Set();
    const walk = (value, field) => {
      if (Array.isArray(value)) return value.forEach((v) => walk(v, field));
      if (value && typeof value === "object") {
        if ("row" in value || "col" in value) keys.add(`sq:${value.row ?? 0},${value.col ?? 0}`);
        else {
          if (field === "unit" && typeof value.id === "number") keys.add(`unit:${value.id}`);
          for (const [k, v] of Object.entries(value)) walk(v, k);
        }
        return;
      }
      if (field === "unit" && typeof value === "number") keys.add(`unit:${value}`);
      if (typeof value === "string" && value.startsWith("REGION_") && !value.startsWith("REGION_CONTROL_")) keys.add(`region:${value}`);
    };
    walk(events, "");
    return keys;
  }

  wireBoard(svg, next) {
    if (!svg.querySelectorAll) return;
    const version = Number((this.shownUpdate()?.snapshot ?? this.snapshot).version);
    const marked = this.lastMoveKeys(this.eventsOf(version));
    for (const element of svg.querySelectorAll("[data-key]")) if (marked.has(element.dataset.key)) element.classList.add("last-move");
    for (const element of svg.querySelectorAll("[data-key]")) {
      const key = element.dataset.key;
      if (this.picker.selected.includes(key) && this.shown === null) element.classList.add("selected");
      if (!next.has(key)) continue;
      element.classList.add("clickable");
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "button");
      if (!element.getAttribute("aria-label")) element.setAttribute("aria-label", key);
      const pick = (event) => {
        event.preventDefault();
        this.pick(key);
      };
      element.addEventListener("click", pick);
      element.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") pick(event);
      });
    }
  }

  renderMoves() {
    const live = this.shown === null;
    const current = this.legal.version === this.liveVersion;
    const enabled = live && current && !this.sending && this.online;
    clear(this.movesBox);
    if (this.seat === null) {
      this.movesBox.append(h("p", { class: "muted" }, t("spectatorsNoMoves")));
      return;
    }
    if (!this.legal.moves.length || !current) {
      this.movesBox.append(h("p", { class: "muted", id: "no-moves" }, this.snapshot.finished ? t("gameOver") : t("noMoveNow")));
      return;
    }
    if (this.pendingMove) this.movesBox.append(h("p", { class: "pending", id: "pending-move" }, this.online ? t("pending") : t("pendingOffline"), " ", this.pendingMove));
    else if (!this.online) this.movesBox.append(h("p", { class: "offline", id: "offline-moves" }, t("offlineMoves")));
    const made = this.picker.selected.length > 1 ? this.picker.complete() : null;
    if (made === null) this.confirmShown = null; // the same move made again takes the focus again
    if (made !== null) {
      this.movesBox.append(this.confirmBox(made, enabled));
    } else if (this.picker.selected.length) {
      this.movesBox.append(h("p", { class: "picked" }, t("picked", { keys: this.picker.selected.map((k) => this.keyName(k)).join(" → ") }), h("button", { type: "button", id: "clear-pick", onclick: () => { this.picker.clear(); this.render(); } }, t("clear"))));
    }
    if (!features.describe && features.describe !== null) {
      this.movesBox.append(h("p", { class: "muted" }, t("noDescriptions")));
    }
    this.movesBox.append(moveList({ moves: this.legal.moves, descriptions: this.legal.descriptions, picker: this.picker, filter: this.filter, enabled, onChoose: (i) => this.send(i) }));
  }

  /** A board key in words: the label its element on the board has. */
  keyName(key) {
    const element = [...this.boardBox.querySelectorAll("[data-key]")].find((e) => e.dataset.key === key);
    return element?.getAttribute("aria-label") || key;
  }

  renderLog() {
    const list = logPanel(this.log, { shownVersion: this.shown, snapshot: this.snapshot, onVersion: (v) => this.showVersion(v, true) });
    const box = this.logBox;
    const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 20;
    replace(box, list);
    if (atBottom || this.shown === null) box.scrollTop = box.scrollHeight;
  }

  eventsOf(version) {
    return this.log.find((e) => Number(e.version) === version)?.events || [];
  }

  // -- history and the stream -------------------------------------------------------------

  async loadHistory() {
    const log = [];
    let from = 0;
    try {
      for (let pages = 0; pages < 50 && log.length < MAX_LOG; pages++) {
        const page = await api.history(this.gameId, this.token, { fromVersion: from, pageSize: 200 }, this.lang);
        for (const entry of page.entries || []) log.push(this.logEntry(entry));
        if (page.nextFromVersion === undefined) break;
        from = page.nextFromVersion;
      }
    } catch (error) {
      this.errorBox.textContent = `History: ${error.message}`;
    }
    this.log = log.filter((e) => Number(e.version) <= this.liveVersion);
  }

  logEntry(entry) {
    return { version: Number(entry.version), seat: entry.seat, timeout: entry.timeout, events: entry.events || [], texts: eventTexts(entry), move: entry.moveDescription || null };
  }

  /**
   * Follow the game live: a seat plays on a WebSocket play session (its
   * updates in, its moves out, on one connection); a spectator, or a seat
   * whose browser cannot open the WebSocket, follows the watch stream and
   * moves through the REST face.
   */
  watch() {
    this.watchController?.abort();
    const controller = new AbortController();
    this.watchController = controller;
    this.controller.signal.addEventListener("abort", () => controller.abort());
    this.session = null;
    const options = {
      token: this.token,
      fromVersion: this.liveVersion,
      lang: this.lang,
      signal: controller.signal,
      onStatus: (status) => this.onConnection(status),
      onUpdate: (update) => this.onUpdate(update),
    };
    if (this.token && features.playSocket !== false) {
      const session = new PlaySession(this.gameId, options);
      this.session = session;
      this.connection.dataset.transport = "websocket";
      session.start().then((outcome) => {
        if (outcome === "unsupported" && !controller.signal.aborted) {
          features.playSocket = false;
          this.watch();
        }
      });
      return;
    }
    this.connection.dataset.transport = "sse";
    watchGame(this.gameId, { ...options, includeCurrent: true, withLegalMoves: true });
  }

  /** The stream's or session's state: offline disables the moves and says so. */
  onConnection(status) {
    const words = { open: t("connLive"), reconnecting: t("connReconnecting"), finished: t("connFinished"), failed: t("connFailed", { error: status.error?.message ?? "" }) };
    this.connection.textContent = ` · ${words[status.state] ?? status.state}`;
    this.connection.dataset.state = status.state;
    const online = status.state === "open" || status.state === "finished";
    if (online === this.online) return;
    this.online = online;
    document.body.dataset.online = String(online);
    if (online) this.refresh();
    this.render();
  }

  onUpdate(update) {
    const version = Number(update.version);
    if (version < this.liveVersion) return;
    const isNew = version > this.liveVersion || !this.log.some((e) => e.version === version);
    this.snapshot = update.snapshot;
    this.liveVersion = version;
    if (update.outcomeText) this.outcomeText = update.outcomeText;
    if (version > 0 && isNew && !this.log.some((e) => e.version === version)) {
      this.log.push(this.logEntry(update));
      if (this.log.length > MAX_LOG) this.log.shift();
    }
    this.cache(version, update);
    if (this.seat !== null) {
      if (update.legalMoves?.length) this.setLegal(version, update.legalMoves, update.legalMoveDescriptions);
      else if ((update.snapshot.toAct || []).includes(this.seat) && !update.snapshot.finished) this.fetchLegal();
      else this.setLegal(version, [], null);
    }
    this.render();
  }

  cache(version, update) {
    this.past.set(version, update);
    if (this.past.size > MAX_CACHED) this.past.delete(this.past.keys().next().value);
  }

  /** The legal moves of `version`; a half-made selection stays as far as it is still legal. */
  setLegal(version, moves, descriptions) {
    this.legal = { version, moves, descriptions: descriptions?.length === moves.length ? descriptions : null };
    this.picker.update(moves.map((m) => this.board.pathOf?.(m, this.snapshot, this.data) ?? []));
  }

  async fetchLegal() {
    try {
      const listed = await api.legalMoves(this.gameId, this.token, this.lang);
      const version = Number(listed.version);
      if (version < this.liveVersion || version < this.legal.version) return;
      if (version === this.legal.version && this.legal.moves.length) return;
      this.setLegal(version, listed.moves, listed.descriptions);
      this.render();
    } catch (error) {
      this.errorBox.textContent = error.message;
    }
  }

  async showVersion(version, settled) {
    if (version === null || version >= this.liveVersion) {
      this.shown = null;
      this.render();
      return;
    }
    this.shown = version;
    if (!this.past.has(version) && settled) {
      const update = await updateAt(this.gameId, this.token, version, this.lang).catch(() => null);
      if (update) this.cache(version, update);
    }
    if (this.shown === version) this.render();
  }

  async setLanguage(code) {
    setLang(code);
    this.lang = lang();
    this.past.clear();
    this.outcomeText = ""; // the stream brings it again in the new language
    this.layout();
    await this.loadHistory();
    if (this.seat !== null && (this.snapshot.toAct || []).includes(this.seat)) await this.fetchLegal();
    this.watch();
    this.render();
  }

  // -- acting ----------------------------------------------------------------------------

  /**
   * Click a board key. A move made by one click is sent at once; a move made
   * by several (a unit, then a square, then a facing) waits for Confirm (or
   * Cancel) unless the player turned confirming off.
   */
  pick(key) {
    const index = this.picker.pick(key);
    if (index !== null && (this.picker.selected.length < 2 || !this.confirming)) this.send(index);
    else this.render();
  }

  /** The confirm step of a move made on the board: its words, Confirm and Cancel. */
  confirmBox(index, enabled) {
    const cancel = () => { this.picker.clear(); this.render(); };
    const confirm = h("button", { type: "button", id: "confirm-move", class: "primary", disabled: !enabled, onclick: () => this.send(index) }, t("confirmMove"));
    const box = h(
      "div",
      { class: "confirm", id: "confirm-box", role: "group", "aria-label": t("confirmLabel"), onkeydown: (event) => { if (event.key === "Escape") cancel(); } },
      h("p", {}, t("confirmAsk"), " ", h("strong", { id: "confirm-words" }, this.moveWords(index))),
      confirm,
      " ",
      h("button", { type: "button", id: "cancel-move", onclick: cancel }, t("cancelMove")),
    );
    // Enter confirms: the button takes the focus when the box first shows this move.
    const shown = `${this.legal.version}:${this.picker.selected.join(" ")}`;
    if (this.confirmShown !== shown) {
      this.confirmShown = shown;
      queueMicrotask(() => { if (confirm.isConnected && !confirm.disabled) confirm.focus({ preventScroll: true }); });
    }
    return box;
  }

  /** A legal move in words: its notation and sentence, else a summary of its data. */
  moveWords(index) {
    const described = this.legal.descriptions?.[index];
    return described ? `${described.notation ? `${described.notation}: ` : ""}${described.text}` : summarizeMove(this.legal.moves[index]);
  }

  async send(index) {
    if (this.sending) return;
    const move = this.legal.moves[index];
    this.sending = true;
    this.pendingMove = this.moveWords(index);
    this.errorBox.textContent = "";
    const version = this.legal.version;
    this.render();
    try {
      const body = { expectedVersion: String(version), move };
      const key = newKey(`seat${this.seat}`);
      if (this.session) {
        // The result rides on the update of the version it made, which the
        // session has handed to onUpdate (with the next legal moves) already.
        await this.session.move(body, key);
        if (this.legal.version <= version) {
          this.legal = { version: -1, moves: [], descriptions: null };
          this.picker.reset([]);
        }
        return;
      }
      const result = await api.move(this.gameId, this.token, body, key);
      // The stream may have brought the next version (and its moves) already.
      if (this.legal.version <= version) {
        this.legal = { version: -1, moves: [], descriptions: null };
        this.picker.reset([]);
        const next = result.snapshot;
        if (Number(result.version) >= this.liveVersion && (next?.toAct || []).includes(this.seat) && !next.finished) this.fetchLegal();
      }
    } catch (error) {
      if (STALE.has(error.reason)) {
        // Another seat's move (a teammate's, in a simultaneous phase) came
        // first: the list was out of date. Say so in words, list afresh.
        this.errorBox.textContent = t("staleMove");
        this.fetchLegal();
      } else this.errorBox.textContent = error.message;
    } finally {
      this.sending = false;
      this.pendingMove = null;
      this.render();
    }
  }

  async join(seat) {
    this.errorBox.textContent = "";
    try {
      const name = preference("name", "");
      const taken = await joinSeat(this.gameId, seat, name);
      this.go(`#/game/${this.gameId}/seat/${taken}`);
    } catch (error) {
      this.errorBox.textContent = error.message;
    }
  }

  async seatBots() {
    this.errorBox.textContent = "";
    const free = (this.snapshot.seats || []).filter((s) => !s.taken).map((s) => s.seat);
    for (const seat of free) {
      try {
        const taken = await joinSeat(this.gameId, seat, t("botName", { seat }), { bot: true });
        this.startBot(taken, seatsOf(this.gameId)[taken].token);
      } catch (error) {
        this.errorBox.textContent = t("botForSeat", { seat, error: error.message });
      }
    }
    await this.refresh();
  }

  startBot(seat, token) {
    if (this.bots.has(seat) || seat === this.seat) return;
    const bot = new PageBot({
      gameId: this.gameId,
      seat,
      token,
      policy: this.policy,
      onError: (b, error) => { this.errorBox.textContent = t("botForSeat", { seat: b.seat, error: error.message }); },
    });
    this.bots.set(seat, bot);
    this.controller.signal.addEventListener("abort", () => bot.stop());
    bot.start();
  }

  resumeBots() {
    if (this.snapshot.finished) return;
    for (const [seat, held] of Object.entries(seatsOf(this.gameId))) {
      if (held.bot) this.startBot(Number(seat), held.token);
    }
  }
}

export function forget(gameId) {
  forgetGame(gameId);
}
