// Kill the King: the field of the game's mode (terrain of every space from
// /web/data/kill_the_king.json, i.e. the SDK's board map: grass, road,
// reinforcement edges, castle ground, walls, the gate, stairs, the King's
// Door), destroyed walls and gate from the view, the units with owner, type,
// facing and level, leaders ringed, the reserves, and the dice of the move
// shown. Row 0 (the attacker's edge) is drawn at the bottom, the castle on top.

import { enumWords, s, svgRoot, tip } from "../dom.js";
import { gameWords } from "../i18n.js";

// The page's words of this game (labels, sides, modes), from its SDK package
// (throneroom.games.kill_the_king.web_words) through /web/data/kill_the_king.json.
const tr = gameWords("kill_the_king");

const TERRAIN_CLASS = {
  ".": "grass",
  "=": "road",
  ":": "edge",
  _: "ground",
  "+": "ground-road",
  "#": "wall",
  "^": "gate",
  "/": "stairs",
  "@": "door",
};
const SIDE_COLOURS = { SIDE_ATTACKER: "#1f1f1f", SIDE_DEFENDER: "#f7f4ec" };
const DIRECTIONS = ["DIRECTION_NORTH", "DIRECTION_EAST", "DIRECTION_SOUTH", "DIRECTION_WEST"];
// Degrees clockwise from "up" on screen: north (towards the castle) is up.
const ANGLE = { DIRECTION_NORTH: 0, DIRECTION_EAST: 90, DIRECTION_SOUTH: 180, DIRECTION_WEST: 270 };
const PANEL_W = 330;

const key = (sq) => `sq:${sq.row ?? 0},${sq.col ?? 0}`;

function unitSpec(data, type) {
  return data.units.find((u) => u.type === type);
}

function geometry(field) {
  const cell = field.rows > 16 ? 26 : 40;
  return { cell, x0: 24, y0: 24, rows: field.rows, cols: field.cols };
}

function cellXY(g, row, col) {
  return [g.x0 + col * g.cell, g.y0 + (g.rows - 1 - row) * g.cell];
}

function drawTerrain(field, view, g) {
  const layer = s("g", { class: "terrain" });
  const ruins = new Set((view.ruins || []).map((r) => key(r.square)));
  const gates = new Map((view.gates || []).map((gate) => [key(gate.square), gate]));
  for (let row = 0; row < field.rows; row++) {
    for (let col = 0; col < field.cols; col++) {
      const ch = field.terrain[row][col];
      const k = `sq:${row},${col}`;
      const [x, y] = cellXY(g, row, col);
      let cls = TERRAIN_CLASS[ch] || "grass";
      const gate = gates.get(k);
      if (ruins.has(k) || (gate && gate.destroyed)) cls = "rubble";
      if (ch === "@" && view.doorDestroyed) cls = "door destroyed";
      const rect = s("rect", { x, y, width: g.cell, height: g.cell, class: `cell ${cls}`, dataset: { key: k, row, col, terrain: ch }, "aria-label": `${field.squareNames?.[row]?.[col] ?? `${row},${col}`}: ${cls}` });
      layer.append(rect);
      if (ch === "=" || ch === "+") layer.append(s("rect", { x: x + g.cell * 0.35, y, width: g.cell * 0.3, height: g.cell, class: "road-band", "pointer-events": "none" }));
      if (cls === "wall") layer.append(s("path", { d: `M${x} ${y + 6} h${g.cell / 4} v-4 h${g.cell / 4} v4 h${g.cell / 4} v-4 h${g.cell / 4} v4`, class: "crenel", "pointer-events": "none" }));
      if (cls === "stairs") for (let i = 1; i < 4; i++) layer.append(s("line", { x1: x + 3, x2: x + g.cell - 3, y1: y + (i * g.cell) / 4, y2: y + (i * g.cell) / 4, class: "stair-step", "pointer-events": "none" }));
      if (cls === "gate") {
        // A portcullis: bars and a crossbar.
        const bars = s("g", { class: "portcullis", dataset: { controlledBy: gate?.controlledBy ?? "" }, "pointer-events": "none" });
        for (let i = 1; i < 4; i++) bars.append(s("line", { x1: x + (i * g.cell) / 4, x2: x + (i * g.cell) / 4, y1: y + 4, y2: y + g.cell - 4 }));
        bars.append(s("line", { x1: x + 4, x2: x + g.cell - 4, y1: y + g.cell / 2, y2: y + g.cell / 2 }));
        layer.append(bars);
      }
      if (ch === "@") layer.append(s("text", { x: x + g.cell / 2, y: y + g.cell * 0.68, class: "terrain-mark" }, view.doorDestroyed ? "✕" : "♔"));
      if (ch === ":") {
        const ex = col === 0 ? x + 3 : x + g.cell - 3;
        layer.append(s("line", { x1: ex, x2: ex, y1: y, y2: y + g.cell, class: "edge-mark", "pointer-events": "none" }));
      }
      if (cls === "rubble") layer.append(s("text", { x: x + g.cell / 2, y: y + g.cell * 0.68, class: "terrain-mark rubble-mark" }, "⁂"));
    }
  }
  return layer;
}

/** The field's coordinates, spelt as the notation spells a square (`b10`: column b, row 10). */
function drawCoordinates(field, g) {
  const layer = s("g", { class: "coordinates", "aria-hidden": "true" });
  const parts = (row, col) => /^([a-z]+)(\d+)$/.exec(field.squareNames?.[row]?.[col] ?? "");
  for (let col = 0; col < field.cols; col++) {
    const [x] = cellXY(g, 0, col);
    const letter = parts(0, col)?.[1] ?? String(col);
    layer.append(s("text", { x: x + g.cell / 2, y: g.y0 + field.rows * g.cell + 16, class: "coordinate" }, letter));
    layer.append(s("text", { x: x + g.cell / 2, y: g.y0 - 8, class: "coordinate" }, letter));
  }
  for (let row = 0; row < field.rows; row++) {
    const [, y] = cellXY(g, row, 0);
    const number = parts(row, 0)?.[2] ?? String(row + 1);
    layer.append(s("text", { x: g.x0 - 12, y: y + g.cell / 2 + 4, class: "coordinate" }, number));
  }
  return layer;
}

function drawUnit(unit, data, g, { onWall }) {
  const spec = unitSpec(data, unit.type);
  const [x, y] = cellXY(g, unit.square.row, unit.square.col);
  const size = onWall ? g.cell * 0.62 : g.cell * 0.8;
  const cx = x + (onWall ? g.cell * 0.62 : g.cell / 2);
  const cy = y + (onWall ? g.cell * 0.38 : g.cell / 2);
  const fill = SIDE_COLOURS[unit.side] || "#999";
  const ink = unit.side === "SIDE_ATTACKER" ? "#fff" : "#111";
  const letter = spec ? (unit.side === "SIDE_DEFENDER" ? spec.letter.toLowerCase() : spec.letter.toUpperCase()) : "?";
  const name = `${spec?.name ?? unit.type}${unit.dismounted ? " (dismounted)" : ""}`;
  const glyph = s("g", {
    class: `unit ${unit.side === "SIDE_ATTACKER" ? "attacker" : "defender"}${spec?.leader ? " leader" : ""}${unit.level === "LEVEL_WALL" ? " on-wall" : ""}`,
    dataset: { key: `unit:${unit.id}`, unit: unit.id, type: unit.type, side: unit.side, seat: unit.seat, facing: unit.facing },
    "aria-label": `${name} ${unit.id} of seat ${unit.seat}`,
  });
  glyph.append(s("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size * 0.2, fill, class: "counter" }));
  if (spec?.leader) glyph.append(s("rect", { x: cx - size / 2 - 2, y: cy - size / 2 - 2, width: size + 4, height: size + 4, rx: size * 0.25, class: "leader-ring" }));
  // The facing arrow: a triangle on the front edge.
  const angle = ANGLE[unit.facing] ?? 0;
  glyph.append(s("path", { d: `M${cx - size * 0.18} ${cy - size * 0.34} L${cx} ${cy - size * 0.5 - 5} L${cx + size * 0.18} ${cy - size * 0.34} Z`, class: "facing", fill: unit.side === "SIDE_ATTACKER" ? "#ffcc33" : "#b8401f", transform: `rotate(${angle} ${cx} ${cy})` }));
  glyph.append(s("text", { x: cx, y: cy + size * 0.18, class: "unit-letter", fill: ink, "font-size": size * 0.5 }, letter));
  tip(glyph, `${name} #${unit.id}, seat ${unit.seat}, ${enumWords(unit.side, "SIDE_")}, facing ${enumWords(unit.facing, "DIRECTION_")}, ${enumWords(unit.level, "LEVEL_")}${unit.immobile ? ", immobile" : ""}`);
  return glyph;
}

function drawFaceChoices(anchor, g, clickable) {
  const group = s("g", { class: "face-choices" });
  if (!anchor || ![...clickable].some((k) => k.startsWith("face:"))) return group;
  const [x, y] = cellXY(g, anchor.row, anchor.col);
  const cx = x + g.cell / 2;
  const cy = y + g.cell / 2;
  for (const direction of DIRECTIONS) {
    const angle = ANGLE[direction];
    const arrow = s("path", {
      d: `M${cx - 9} ${cy - g.cell * 0.55} L${cx} ${cy - g.cell * 0.55 - 14} L${cx + 9} ${cy - g.cell * 0.55} Z`,
      transform: `rotate(${angle} ${cx} ${cy})`,
      class: "face-arrow",
      dataset: { key: `face:${direction}` },
      "aria-label": `face ${enumWords(direction, "DIRECTION_")}`,
    });
    group.append(arrow);
  }
  return group;
}

function drawDice(events, x0, y0) {
  const group = s("g", { class: "dice" });
  const dice = events.map((e) => e.killTheKing?.dieRolled).filter(Boolean);
  group.append(s("text", { x: x0, y: y0, class: "panel-title" }, dice.length ? tr("b.dice") : tr("b.noDice")));
  dice.slice(0, 12).forEach((die, i) => {
    const x = x0 + (i % 6) * 50;
    const y = y0 + 10 + Math.floor(i / 6) * 56;
    const ok = die.success;
    const d = s("g", { class: `die ${ok ? "success" : "failure"}`, dataset: { value: die.value, purpose: die.purpose } });
    d.append(s("rect", { x, y, width: 36, height: 36, rx: 7, class: "die-face" }));
    d.append(s("text", { x: x + 18, y: y + 25, class: "die-value" }, String(die.value)));
    const purpose = enumWords(die.purpose, "DIE_PURPOSE_");
    d.append(s("text", { x: x + 18, y: y + 48, class: "tiny" }, die.needed ? `${purpose} ≤${die.needed}` : purpose));
    tip(d, `${purpose}: rolled ${die.value}${die.needed ? `, needed ${die.needed} or less: ${ok ? "success" : "failure"}` : ""}`);
    group.append(d);
  });
  return group;
}

function drawPanel(view, data, modeInfo, ctx, x0, height) {
  const panel = s("g", { class: "ktk-panel" });
  const phase = enumWords(view.phase, "PHASE_");
  let y = 40;
  const line = (text, cls = "left") => {
    panel.append(s("text", { x: x0, y, class: cls }, text));
    y += 18;
  };
  line(`${tr(`modeName.${view.mode}`, {}, modeInfo.name)}${view.advanced ? tr("b.advanced") : ""}`, "left title");
  line(tr("b.round", { round: view.round, rounds: modeInfo.rounds, phase }));
  if (view.turnSide && view.turnSide !== "SIDE_UNSPECIFIED") line(tr("b.turn", { side: tr(`side.${view.turnSide}`) }));
  // Giga (KK-123): two teams, seat % 2; a team's coins are on each of its seats.
  const giga = modeInfo.field.boards > 1;
  view.seats.forEach((seat, n) => {
    const side = seat.side && seat.side !== "SIDE_UNSPECIFIED" ? tr(`side.${seat.side}`) : tr("b.noSide");
    const team = giga ? tr("b.teamOf", { team: seat.team ?? 0 }) : "";
    const extra = view.phase === "PHASE_PURCHASE" || view.phase === "PHASE_EXTRA_PURCHASE" ? tr("b.coins", { count: (seat.coins ?? 0) + (seat.extraCoins ?? 0) }) : "";
    line(`${ctx.seatName(n)}: ${side}${team}${extra}${seat.movementLocked ? tr("b.locked") : ""}`);
  });
  (view.gates || []).forEach((gate, n) => {
    const which = view.gates.length > 1 ? ` ${n + 1}` : "";
    line(tr("b.gate", { which, state: gate.destroyed ? tr("b.destroyed") : tr("b.heldBy", { side: tr(`side.${gate.controlledBy}`) }) }));
  });
  if (view.gates?.length) line(tr(giga ? "b.doors" : "b.door", { state: view.doorDestroyed ? tr("b.destroyed") : tr("b.standing") }));
  const dead = view.units.filter((u) => u.status === "STATUS_DEAD").length;
  line(tr("b.units", { count: view.units.filter((u) => u.status === "STATUS_ON_FIELD").length, dead }));
  y += 8;
  const reserve = view.units.filter((u) => u.status === "STATUS_RESERVE");
  if (reserve.length) {
    panel.append(s("text", { x: x0, y, class: "panel-title" }, tr("b.reserves")));
    y += 8;
    reserve.slice(0, 40).forEach((unit, i) => {
      const spec = unitSpec(data, unit.type);
      const x = x0 + (i % 8) * 38;
      const yy = y + Math.floor(i / 8) * 38;
      const mySide = ctx.seat != null ? view.seats[ctx.seat]?.side : undefined;
      const mine = unit.seat === ctx.seat || (giga && mySide && unit.side === mySide);
      const g = s(
        "g",
        { class: `reserve ${unit.side === "SIDE_ATTACKER" ? "attacker" : "defender"}`, dataset: { key: `reserve:${unit.id}`, unit: unit.id, type: unit.type }, "aria-label": tr("b.inReserve", { name: spec?.name ?? unit.type, id: unit.id }) },
        s("rect", { x, y: yy, width: 32, height: 32, rx: 6, fill: SIDE_COLOURS[unit.side] || "#bbb", class: "counter" }),
        s("text", { x: x + 16, y: yy + 21, class: "unit-letter", fill: unit.side === "SIDE_ATTACKER" ? "#fff" : "#111" }, spec && unit.side !== "SIDE_UNSPECIFIED" ? spec.letter : "?"),
      );
      tip(g, `${spec?.name ?? tr("b.hiddenUnit")} #${unit.id}${mine ? tr(giga ? "b.yourTeams" : "b.yours") : ""}`);
      panel.append(g);
    });
    y += Math.ceil(Math.min(reserve.length, 40) / 8) * 38 + 16;
  }
  panel.append(drawDice(ctx.lastEvents || [], x0, Math.min(y + 10, height - 130)));
  return panel;
}

export default {
  title: "Kill the King",
  dataName: "kill_the_king",

  render(snapshot, ctx) {
    const view = snapshot.view.killTheKing;
    const modeInfo = ctx.data.modes[view.mode] ?? Object.values(ctx.data.modes)[0];
    const field = modeInfo.field;
    const g = geometry(field);
    const width = g.x0 * 2 + field.cols * g.cell + PANEL_W;
    const height = Math.max(g.y0 * 2 + field.rows * g.cell, 620);
    const root = svgRoot(width, height, `Kill the King, version ${snapshot.version}`, { class: "board kill-the-king", dataset: { rows: field.rows, cols: field.cols } });
    root.append(drawTerrain(field, view, g));
    root.append(drawCoordinates(field, g));
    const units = s("g", { class: "units" });
    const onField = view.units.filter((u) => u.status === "STATUS_ON_FIELD" && u.carriedBy === -1 && u.square);
    const crews = new Map();
    for (const u of view.units) if (u.status === "STATUS_ON_FIELD" && u.carriedBy >= 0) crews.set(u.carriedBy, (crews.get(u.carriedBy) || 0) + 1);
    for (const unit of onField) {
      const glyph = drawUnit(unit, ctx.data, g, { onWall: unit.level === "LEVEL_WALL" && field.terrain[unit.square.row][unit.square.col] === "^" });
      if (crews.has(unit.id)) {
        const [x, y] = cellXY(g, unit.square.row, unit.square.col);
        glyph.append(s("text", { x: x + g.cell - 6, y: y + g.cell - 3, class: "tiny crew" }, `+${crews.get(unit.id)}`));
      }
      if (unit.id === view.activeUnit) glyph.classList.add("active");
      units.append(glyph);
    }
    root.append(units);
    // Squares of the move's dice: the targets hit or missed.
    for (const event of ctx.lastEvents || []) {
      const die = event.killTheKing?.dieRolled;
      if (!die?.target || die.purpose === "DIE_PURPOSE_INITIATIVE") continue;
      const [x, y] = cellXY(g, die.target.row ?? 0, die.target.col ?? 0);
      root.append(s("rect", { x: x + 2, y: y + 2, width: g.cell - 4, height: g.cell - 4, class: `target-mark ${die.success ? "success" : "failure"}`, "pointer-events": "none" }));
    }
    const selected = ctx.selected || [];
    const lastSquare = [...selected].reverse().find((k) => k.startsWith("sq:"));
    let anchor = null;
    if (lastSquare) {
      const [row, col] = lastSquare.slice(3).split(",").map(Number);
      anchor = { row, col };
    } else if (selected[0]?.startsWith("unit:")) {
      anchor = view.units.find((u) => `unit:${u.id}` === selected[0])?.square ?? null;
    }
    root.append(drawFaceChoices(anchor, g, ctx.clickable || new Set()));
    root.append(drawPanel(view, ctx.data, modeInfo, ctx, g.x0 * 2 + field.cols * g.cell, height));
    return root;
  },

  pathOf(envelope, snapshot, data) {
    const move = envelope.killTheKing || {};
    const view = snapshot?.view?.killTheKing;
    const unitOf = (id) => view?.units?.find((u) => u.id === id);
    const towards = (id, direction) => {
      const unit = unitOf(id);
      const delta = data?.directions?.[direction];
      if (!unit?.square || !delta) return null;
      return `sq:${(unit.square.row ?? 0) + delta.dRow},${(unit.square.col ?? 0) + delta.dCol}`;
    };
    for (const kind of ["step", "climb", "prepareClimb"]) {
      if (move[kind]) {
        const to = towards(move[kind].unit, move[kind].direction);
        return to ? [`unit:${move[kind].unit}`, to] : [`unit:${move[kind].unit}`];
      }
    }
    if (move.attack) return [`unit:${move.attack.unit}`, key(move.attack.target || {})];
    if (move.rotate) return [`unit:${move.rotate.unit}`, `face:${move.rotate.facing}`];
    if (move.place) return [`reserve:${move.place.unit}`, key(move.place.square || {}), `face:${move.place.facing}`];
    if (move.reinforce) return [key(move.reinforce.square || {}), `face:${move.reinforce.facing}`];
    if (move.dismount) return [`unit:${move.dismount.unit}`];
    if (move.disband) return [`unit:${move.disband.unit}`];
    return [];
  },
};
