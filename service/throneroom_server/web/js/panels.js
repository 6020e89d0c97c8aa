// The side panels of a game page: seats (join, bots), the event log, the
// history slider and the outcome. Each builds its DOM from plain data; the
// game page (game.js) owns the state and passes callbacks.

import { clear, h } from "./dom.js";
import { POLICIES } from "./bot.js";

export function seatName(snapshot, seat) {
  const info = snapshot?.seats?.find((s) => s.seat === seat);
  return info?.displayName ? `${info.displayName} (seat ${seat})` : `Seat ${seat}`;
}

/** Seats: who sits where, this browser's seats and bots, join and bot buttons. */
export function seatsPanel(snapshot, { mySeat, held, bots, policy, onJoin, onSwitch, onBots, onPolicy, onStopBot }) {
  const toAct = new Set(snapshot.toAct || []);
  const winners = new Set(snapshot.outcome?.winners || []);
  const free = (snapshot.seats || []).filter((s) => !s.taken);
  const items = (snapshot.seats || []).map((s) => {
    const tags = [];
    if (s.seat === mySeat) tags.push(h("span", { class: "tag you" }, "you"));
    if (bots.has(s.seat)) tags.push(h("span", { class: "tag bot" }, `bot: ${bots.get(s.seat).policy}`));
    if (toAct.has(s.seat) && !snapshot.finished) tags.push(h("span", { class: "tag act" }, "to act"));
    if (winners.has(s.seat)) tags.push(h("span", { class: "tag win" }, "winner"));
    let action = null;
    if (!s.taken) action = h("button", { type: "button", class: "join-seat", dataset: { seat: s.seat }, onclick: () => onJoin(s.seat) }, "Join");
    else if (bots.has(s.seat) && !snapshot.finished) action = h("button", { type: "button", class: "stop-bot", onclick: () => onStopBot(s.seat) }, "Stop bot");
    else if (held.has(s.seat) && s.seat !== mySeat) action = h("button", { type: "button", class: "switch-seat", onclick: () => onSwitch(s.seat) }, "Play this seat");
    return h(
      "li",
      { class: "seat", dataset: { seat: s.seat } },
      h("span", { class: `swatch seat-${s.seat}`, "aria-hidden": "true" }),
      h("span", {}, s.taken ? seatName(snapshot, s.seat) : `Seat ${s.seat}: free`),
      tags,
      action,
    );
  });
  const policySelect = h(
    "select",
    { id: "bot-policy", "aria-label": "Bot policy", onchange: (e) => onPolicy(e.target.value) },
    Object.entries(POLICIES).map(([value, label]) => h("option", { value, selected: value === policy }, label)),
  );
  return h(
    "section",
    { class: "panel seats", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, "Seats"),
    h("ul", {}, items),
    free.length
      ? h(
          "div",
          { class: "bots" },
          h("button", { type: "button", id: "seat-bots", onclick: onBots }, `Seat a bot in the ${free.length} free seat${free.length > 1 ? "s" : ""}`),
          policySelect,
          h("small", { class: "muted" }, "Bots run in this browser tab: they stop when it closes."),
        )
      : null,
  );
}

/** The log: one line per version, its events in words. */
export function logPanel(entries, { shownVersion, onVersion, snapshot }) {
  const list = h("ol", { id: "event-log", class: "log", "aria-label": "Event log" });
  for (const entry of entries) {
    const who = entry.seat >= 0 ? seatName(snapshot, entry.seat) : "Setup";
    const current = shownVersion !== null && Number(entry.version) === shownVersion;
    list.append(
      h(
        "li",
        { class: current ? "current" : "", dataset: { version: entry.version } },
        h("button", { type: "button", class: "version", onclick: () => onVersion(Number(entry.version)), "aria-label": `Show version ${entry.version}` }, `v${entry.version}`),
        h("span", { class: "who" }, `${who}${entry.timeout ? " (out of time)" : ""}: `),
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
    "aria-label": "Version shown",
    oninput: (e) => onChange(Number(e.target.value), false),
    onchange: (e) => onChange(Number(e.target.value), true),
  });
  return h(
    "section",
    { class: "panel history", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, "History"),
    h("div", { class: "slider" }, slider, h("output", { id: "history-label", for: "history-slider" }, shown === null ? `version ${liveVersion} (live)` : `version ${value} of ${liveVersion}`)),
    shown === null ? null : h("button", { type: "button", id: "history-live", onclick: onLive }, "Back to the live game"),
  );
}

/** The outcome, once the game is over. */
export function outcomePanel(snapshot) {
  if (!snapshot.finished) return null;
  const outcome = snapshot.outcome || {};
  const winners = (outcome.winners || []).map((w) => seatName(snapshot, w));
  return h(
    "section",
    { class: "panel outcome", id: "outcome", role: "status" },
    h("h2", {}, "Game over"),
    h("p", {}, winners.length ? `Won by ${winners.join(" and ")}.` : "No winner."),
    outcome.summary ? h("p", {}, outcome.summary) : null,
    outcome.termination ? h("p", { class: "muted" }, `Ended by: ${outcome.termination}${outcome.tiebreaks?.length ? `; tie-breaks: ${outcome.tiebreaks.join(", ")}` : ""}`) : null,
  );
}

export function replace(slot, element) {
  clear(slot);
  if (element) slot.append(element);
}
