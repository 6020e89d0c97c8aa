// The side panels of a game page: seats (join, bots), the event log, the
// history slider and the outcome. Each builds its DOM from plain data; the
// game page (game.js) owns the state and passes callbacks.

import { clear, h } from "./dom.js";
import { POLICIES } from "./bot.js";
import { gameWord, lang, t } from "./i18n.js";

export function seatName(snapshot, seat) {
  const info = snapshot?.seats?.find((s) => s.seat === seat);
  return info?.displayName ? t("seatNamed", { name: info.displayName, seat }) : t("seatN", { seat });
}

/** Seats: who sits where, this browser's seats and bots, join and bot buttons. */
export function seatsPanel(snapshot, { mySeat, held, bots, policy, onJoin, onSwitch, onBots, onPolicy, onStopBot }) {
  const toAct = new Set(snapshot.toAct || []);
  const winners = new Set(snapshot.outcome?.winners || []);
  const free = (snapshot.seats || []).filter((s) => !s.taken);
  const items = (snapshot.seats || []).map((s) => {
    const tags = [];
    if (s.seat === mySeat) tags.push(h("span", { class: "tag you" }, t("tagYou")));
    if (bots.has(s.seat)) tags.push(h("span", { class: "tag bot" }, t("tagBot", { policy: bots.get(s.seat).policy })));
    if (toAct.has(s.seat) && !snapshot.finished) tags.push(h("span", { class: "tag act" }, t("tagToAct")));
    if (winners.has(s.seat)) tags.push(h("span", { class: "tag win" }, t("tagWinner")));
    let action = null;
    if (!s.taken) action = h("button", { type: "button", class: "join-seat", dataset: { seat: s.seat }, onclick: () => onJoin(s.seat) }, t("join"));
    else if (bots.has(s.seat) && !snapshot.finished) action = h("button", { type: "button", class: "stop-bot", onclick: () => onStopBot(s.seat) }, t("stopBot"));
    else if (held.has(s.seat) && s.seat !== mySeat) action = h("button", { type: "button", class: "switch-seat", onclick: () => onSwitch(s.seat) }, t("playThisSeat"));
    return h(
      "li",
      { class: "seat", dataset: { seat: s.seat } },
      h("span", { class: `swatch seat-${s.seat}`, "aria-hidden": "true" }),
      h("span", {}, s.taken ? seatName(snapshot, s.seat) : t("seatFree", { seat: s.seat })),
      tags,
      action,
    );
  });
  const policySelect = h(
    "select",
    { id: "bot-policy", "aria-label": t("botPolicy"), onchange: (e) => onPolicy(e.target.value) },
    Object.keys(POLICIES).map((value) => h("option", { value, selected: value === policy }, t(value === "rule" ? "policyRule" : "policyRandom"))),
  );
  return h(
    "section",
    { class: "panel seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("seats")),
    h("ul", {}, items),
    free.length
      ? h(
          "div",
          { class: "bots" },
          h("button", { type: "button", id: "seat-bots", onclick: onBots }, t("seatBots", { count: free.length })),
          policySelect,
          h("small", { class: "muted" }, t("botsHere")),
        )
      : null,
  );
}

/** The log: one line per version, its events in words. */
export function logPanel(entries, { shownVersion, onVersion, snapshot }) {
  const list = h("ol", { id: "event-log", class: "log", "aria-label": t("eventLog") });
  for (const entry of entries) {
    const who = entry.seat >= 0 ? seatName(snapshot, entry.seat) : t("setup");
    const current = shownVersion !== null && Number(entry.version) === shownVersion;
    list.append(
      h(
        "li",
        { class: current ? "current" : "", dataset: { version: entry.version } },
        h("button", { type: "button", class: "version", onclick: () => onVersion(Number(entry.version)), "aria-label": t("showVersion", { version: entry.version }) }, `v${entry.version}`),
        h("span", { class: "who" }, `${who}${entry.timeout ? t("outOfTime") : ""}: `),
        entry.move?.notation ? h("code", { class: "notation" }, entry.move.notation) : null,
        entry.move?.text ? h("span", { class: "move-text" }, ` ${entry.move.text}. `) : null,
        h("span", { class: "events" }, entry.texts.join(" ")),
      ),
    );
  }
  return list;
}

/** Words for the events of one history entry or update. */
export function eventTexts(entry) {
  if (entry.eventTexts?.length) return entry.eventTexts;
  return (entry.events || []).map((event) => {
    const game = Object.values(event)[0] || {};
    const kind = Object.keys(game)[0] || "event";
    return `${kind.replace(/([A-Z])/g, " $1").toLowerCase()}.`;
  });
}

/** The history slider: versions minVersion..liveVersion, `shown` (null: live). */
export function historyPanel({ minVersion, liveVersion, shown, onChange, onLive }) {
  const value = shown ?? liveVersion;
  const slider = h("input", {
    type: "range",
    id: "history-slider",
    min: minVersion,
    max: liveVersion,
    step: 1,
    value,
    disabled: liveVersion <= minVersion,
    "aria-label": t("versionShown"),
    oninput: (e) => onChange(Number(e.target.value), false),
    onchange: (e) => onChange(Number(e.target.value), true),
  });
  return h(
    "section",
    { class: "panel history", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, t("history")),
    h("div", { class: "slider" }, slider, h("output", { id: "history-label", for: "history-slider" }, shown === null ? t("versionLive", { version: liveVersion }) : t("versionOf", { version: value, live: liveVersion }))),
    shown === null ? null : h("button", { type: "button", id: "history-live", onclick: onLive }, t("backToLive")),
  );
}

/** Each seat's score when the game's view has one (players[seat].score), else null. */
function scoreOf(snapshot, seat) {
  const view = Object.values(snapshot.view || {})[0] || {};
  const score = view.players?.[seat]?.score;
  return score === undefined ? null : score;
}

/** The end of a game: every seat, its player, won or not, its score. */
function scoreTable(snapshot) {
  const winners = new Set(snapshot.outcome?.winners || []);
  const seats = snapshot.seats || [];
  const scored = seats.some((s) => scoreOf(snapshot, s.seat) !== null);
  return h(
    "table",
    { class: "scores", id: "score-table" },
    h("caption", {}, t("scoreTable")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("colSeat")), h("th", { scope: "col" }, t("colPlayer")), h("th", { scope: "col" }, t("colResult")), scored ? h("th", { scope: "col" }, t("colScore")) : null)),
    h(
      "tbody",
      {},
      seats.map((s) =>
        h(
          "tr",
          { class: winners.has(s.seat) ? "winner" : "", dataset: { seat: s.seat } },
          h("td", {}, String(s.seat)),
          h("td", {}, s.displayName || t("seatN", { seat: s.seat })),
          h("td", {}, winners.has(s.seat) ? t("won") : t("lost")),
          scored ? h("td", {}, String(scoreOf(snapshot, s.seat) ?? 0)) : null,
        ),
      ),
    ),
  );
}

/**
 * The outcome, once the game is over; `actions` (links, buttons) below it.
 * `text`: the outcome in the page's language for this viewer (an update's
 * outcomeText, from the game's own words); without it the server's English
 * summary is shown to English readers only.
 */
export function outcomePanel(snapshot, actions = null, text = "") {
  if (!snapshot.finished) return null;
  const outcome = snapshot.outcome || {};
  const sentence = text || (lang() === "en" ? outcome.summary : "");
  const winners = (outcome.winners || []).map((w) => seatName(snapshot, w));
  return h(
    "section",
    { class: "panel outcome", id: "outcome", role: "status" },
    h("h2", {}, t("gameOverTitle")),
    h("p", {}, winners.length ? t("wonBy", { winners: winners.join(t("and")) }) : t("noWinner")),
    sentence ? h("p", { id: "outcome-text" }, sentence) : null,
    outcome.termination ? h("p", { class: "muted", id: "outcome-end" }, `${t("endedBy", { how: gameWord(snapshot.gameType, `end.${outcome.termination}`) })}${outcome.tiebreaks?.length ? t("tiebreaks", { list: outcome.tiebreaks.map((tb) => gameWord(snapshot.gameType, `tb.${tb}`)).join(", ") }) : ""}`) : null,
    scoreTable(snapshot),
    actions,
  );
}

export function replace(slot, element) {
  clear(slot);
  if (element) slot.append(element);
}
