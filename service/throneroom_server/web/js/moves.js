// Legal moves: the list (notation and description) and the board's picking.
//
// A board module maps each legal move to a path of board keys, the things a
// player clicks in order ("region:REGION_DEVA", then "follower:REGION_DEVA:
// FACTION_SCOTS"). The picker keeps the keys clicked so far: the board marks
// the keys that can come next, the list shows the moves that still match, and
// a click that completes exactly one move's path sends that move.

import { enumWords, h } from "./dom.js";
import { t } from "./i18n.js";

const MAX_ROWS = 400;

/** The one entry of a move envelope: {kingIsDead: {playCard: {...}}} -> ["playCard", {...}]. */
export function innerMove(envelope) {
  const game = Object.values(envelope || {})[0] || {};
  const [kind] = Object.keys(game);
  return [kind || "", game[kind] || {}];
}

const ENUM_PREFIXES = ["ACTION_CARD_", "REGION_CONTROL_", "REGION_", "FACTION_", "DIRECTION_", "SIDE_", "UNIT_TYPE_", "ACTIVITY_", "DAY_", "LEVEL_", "CHARACTER_"];

function words(value) {
  if (typeof value === "string" && /^[A-Z][A-Z0-9_]+$/.test(value)) {
    const prefix = ENUM_PREFIXES.find((p) => value.startsWith(p)) || "";
    return enumWords(value, prefix);
  }
  if (Array.isArray(value)) return value.map(words).join(", ");
  if (value && typeof value === "object") {
    if ("row" in value || "col" in value) return `(${value.row ?? 0},${value.col ?? 0})`;
    return Object.entries(value)
      .map(([k, v]) => `${k} ${words(v)}`)
      .join(" ");
  }
  return String(value);
}

/** A move in words when the server gives no description (an older server). */
export function summarizeMove(envelope) {
  const [kind, fields] = innerMove(envelope);
  const parts = Object.entries(fields).map(([k, v]) => `${k}: ${words(v)}`);
  return parts.length ? `${kind} (${parts.join("; ")})` : kind || "(move)";
}

export class Picker {
  constructor() {
    this.selected = [];
    this.paths = [];
  }

  /** New moves: the paths of each (board keys) and no selection. */
  reset(paths) {
    this.paths = paths;
    this.selected = [];
  }

  /**
   * New moves of a later version (another seat moved meanwhile): the
   * selection is kept as far as it is still the start of a legal move's path,
   * so a half-made move survives the update. Returns true when all of it was
   * kept.
   */
  update(paths) {
    const before = this.selected;
    this.paths = paths;
    let depth = before.length;
    while (depth > 0 && !paths.some((path) => before.slice(0, depth).every((key, i) => path[i] === key))) depth--;
    this.selected = before.slice(0, depth);
    return depth === before.length;
  }

  matches(index) {
    const path = this.paths[index] || [];
    return this.selected.every((key, i) => path[i] === key);
  }

  /** Indexes of the moves whose path starts with the selection. */
  matching() {
    return this.paths.map((_, i) => i).filter((i) => this.matches(i));
  }

  /** Keys that can be clicked next. */
  nextKeys() {
    const keys = new Set();
    const depth = this.selected.length;
    for (const i of this.matching()) {
      const path = this.paths[i];
      if (path.length > depth) keys.add(path[depth]);
    }
    return keys;
  }

  /**
   * Click `key`: returns the index of the move to send when the selection now
   * completes exactly one move's path, else null (the list narrows).
   */
  pick(key) {
    if (this.selected.includes(key)) {
      this.selected = this.selected.slice(0, this.selected.indexOf(key));
      return null;
    }
    this.selected = [...this.selected, key];
    const matching = this.matching();
    if (!matching.length) {
      this.selected = [key].filter(() => this.paths.some((p) => p[0] === key));
      return null;
    }
    return this.complete();
  }

  /** The move the selection makes: its index when the selection completes exactly one move's path, else null. */
  complete() {
    if (!this.selected.length) return null;
    const matching = this.matching();
    const complete = matching.filter((i) => this.paths[i].length === this.selected.length);
    return complete.length === 1 && matching.length === 1 ? complete[0] : null;
  }

  clear() {
    this.selected = [];
  }
}

/**
 * The list of legal moves as buttons; onChoose(index). `descriptions`
 * aligned with `moves` ({notation, text}), or absent.
 */
export function moveList({ moves, descriptions, picker, filter, enabled, onChoose }) {
  const rows = [];
  const shown = picker.matching();
  const needle = (filter || "").toLowerCase();
  let count = 0;
  let hidden = 0;
  for (const i of shown) {
    const d = descriptions?.[i];
    const notation = d?.notation ?? "";
    const text = d?.text ?? summarizeMove(moves[i]);
    if (needle && !`${notation} ${text}`.toLowerCase().includes(needle)) continue;
    if (count >= MAX_ROWS) {
      hidden++;
      continue;
    }
    count++;
    rows.push(
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: "move", disabled: !enabled, dataset: { index: i, notation }, onclick: () => onChoose(i) },
          notation ? h("code", { class: "notation" }, notation) : null,
          h("span", { class: "text" }, text),
        ),
      ),
    );
  }
  const list = h("ol", { class: "moves", id: "move-list", "aria-label": t("legalMoves") }, rows);
  if (hidden) list.append(h("li", { class: "muted" }, t("moreMoves", { count: hidden })));
  return list;
}
