// The King Is Dead: the map of the eight regions (borders from the game's
// data), followers per colour, control and Saxon tokens, the region cards
// with the current power struggle and the crowns, and every seat's court,
// cards and played pile; the viewer's hand is clickable.
//
// Which regions border which, the homes and all names come from
// /web/data/king_is_dead.json (throneroom.games.king_is_dead.data). The only
// thing this module adds is where each region is drawn (LAYOUT): the printed
// map is not in the rulebook's text, so this is a schematic map.

import { s, svgRoot, tip } from "../dom.js";
import { gameWords } from "../i18n.js";

// The page's words of this game (its board's labels), from its SDK package
// (throneroom.games.king_is_dead.web_words) through /web/data/king_is_dead.json.
const tr = gameWords("king_is_dead");

const WIDTH = 1060;
const HEIGHT = 700;

// Map position of each region (north at the top): a drawing choice, not game data.
const LAYOUT = {
  REGION_CALEDONIA: [270, 80],
  REGION_DIN_EIDYN: [300, 200],
  REGION_DEVA: [180, 320],
  REGION_EBORACUM: [400, 310],
  REGION_CAERLEON: [100, 460],
  REGION_RATAE: [290, 440],
  REGION_LONDINIUM: [460, 540],
  REGION_AQUAE_SULIS: [230, 590],
};
const RADIUS = 62;

export const COLOURS = {
  FACTION_SCOTS: "#2f6fd6",
  FACTION_WELSH: "#d0352b",
  FACTION_ROMANO_BRITISH: "#e3b81c",
  FACTION_LOYALISTS: "#1d1d1d",
  SAXONS: "#6f8a4e",
};
const COUNT_FIELDS = { FACTION_SCOTS: "scots", FACTION_WELSH: "welsh", FACTION_ROMANO_BRITISH: "romanoBritish", FACTION_LOYALISTS: "loyalists" };
const CONTROL_FACTION = {
  REGION_CONTROL_SCOTS: "FACTION_SCOTS",
  REGION_CONTROL_WELSH: "FACTION_WELSH",
  REGION_CONTROL_ROMANO_BRITISH: "FACTION_ROMANO_BRITISH",
  REGION_CONTROL_LOYALISTS: "FACTION_LOYALISTS",
};
const SEAT_COLOURS = ["#7b3fa0", "#0f8a7a", "#c2571a", "#4a5a8c"];

function nameOf(list, key, field, lang) {
  return list?.find((x) => x[field] === key)?.names?.[lang] ?? key;
}

function followersRow(x, y, counts, colours, { keyOf, label }) {
  const group = s("g", { class: "followers" });
  let dx = 0;
  for (const faction of colours) {
    const n = counts[COUNT_FIELDS[faction]] || 0;
    if (!n) continue;
    const chip = s(
      "g",
      { class: "follower-count", dataset: { faction, count: n, ...(keyOf ? { key: keyOf(faction) } : {}) }, "aria-label": `${n} ${label(faction)}` },
      s("circle", { cx: x + dx, cy: y, r: 10, fill: COLOURS[faction], stroke: "#fff", "stroke-width": 1.5 }),
      s("text", { x: x + dx, y: y + 4, class: "chip-count", fill: faction === "FACTION_ROMANO_BRITISH" ? "#222" : "#fff" }, String(n)),
    );
    tip(chip, `${n} × ${label(faction)}`);
    group.append(chip);
    dx += 24;
  }
  return group;
}

function drawMap(view, data, lang, colours) {
  const map = s("g", { class: "map" });
  map.append(s("rect", { x: 0, y: 0, width: 570, height: HEIGHT, rx: 12, class: "sea" }));
  for (const [a, b] of data.borders) {
    const [x1, y1] = LAYOUT[a];
    const [x2, y2] = LAYOUT[b];
    map.append(s("line", { x1, y1, x2, y2, class: "border", dataset: { from: a, to: b } }));
  }
  const homes = Object.fromEntries(Object.entries(data.homes).map(([faction, region]) => [region, faction]));
  const label = (f) => nameOf(data.factions, f, "faction", lang);
  for (const region of view.regions) {
    const id = region.region;
    const [cx, cy] = LAYOUT[id] || [0, 0];
    const name = nameOf(data.regions, id, "region", lang);
    const struggle = view.currentStruggle === id;
    const shape = s("circle", {
      cx,
      cy,
      r: RADIUS,
      class: `region${struggle ? " struggle" : ""}`,
      dataset: { key: `region:${id}`, region: id },
      "aria-label": name,
    });
    tip(shape, name);
    map.append(shape);
    if (homes[id]) {
      map.append(s("path", { d: `M${cx - 48} ${cy - 44} l0 -22 l14 6 l-14 6`, fill: COLOURS[homes[id]], class: "home", "aria-hidden": "true" }));
    }
    map.append(s("text", { x: cx, y: cy - 20, class: "region-name" }, name));
    const control = region.control && region.control !== "REGION_CONTROL_UNRESOLVED" ? region.control : null;
    if (control) {
      const colour = control === "REGION_CONTROL_SAXONS" ? COLOURS.SAXONS : COLOURS[CONTROL_FACTION[control]];
      const who = control === "REGION_CONTROL_SAXONS" ? data.saxons[lang] : label(CONTROL_FACTION[control]);
      const token = s(
        "g",
        { class: `control-token${control === "REGION_CONTROL_SAXONS" ? " saxon" : ""}`, dataset: { control } },
        s("rect", { x: cx - 22, y: cy - 8, width: 44, height: 44, rx: 6, fill: colour, stroke: "#fff", "stroke-width": 2 }),
        s("text", { x: cx, y: cy + 20, class: "token-order", fill: control === "REGION_CONTROL_ROMANO_BRITISH" ? "#222" : "#fff" }, String(region.resolvedOrder)),
      );
      tip(token, `${who} (${region.resolvedOrder})`);
      map.append(token);
    } else {
      const counts = followersRow(cx - (24 * 3) / 2 + 12, cy + 8, region, colours, { keyOf: (f) => `follower:${id}:${f}`, label });
      map.append(counts);
    }
    if (struggle) map.append(s("text", { x: cx, y: cy + 46, class: "struggle-label" }, "⚔"));
  }
  return map;
}

function drawRegionCards(view, data, lang, ctx, x0, y0) {
  const group = s("g", { class: "region-cards" });
  group.append(s("text", { x: x0, y: y0 - 8, class: "panel-title" }, tr("b.regionCards")));
  const w = 54;
  view.regionCards.forEach((card, i) => {
    const x = x0 + i * (w + 4);
    const name = nameOf(data.regions, card.region, "region", lang);
    const current = view.currentStruggle === card.region;
    const g = s(
      "g",
      { class: `region-card${card.faceUp ? "" : " face-down"}${current ? " current" : ""}`, dataset: { key: `rcard:${card.region}`, region: card.region, position: i + 1 }, "aria-label": `${i + 1}. ${name}` },
      s("rect", { x, y: y0, width: w, height: 70, rx: 5 }),
      s("text", { x: x + w / 2, y: y0 + 14, class: "card-pos" }, String(i + 1)),
      name.split(" ").map((word, n) => s("text", { x: x + w / 2, y: y0 + 34 + n * 12, class: "card-name tiny" }, card.faceUp ? word : n ? "" : "—")),
    );
    if (card.crownedBy !== undefined) {
      g.append(s("text", { x: x + w / 2, y: y0 + 60, class: "crown", fill: SEAT_COLOURS[card.crownedBy % 4], dataset: { crownedBy: card.crownedBy } }, "♛"));
      tip(g, tr("b.crownOf", { name, seat: ctx.seatName(card.crownedBy) }));
    } else tip(g, name);
    group.append(g);
  });
  return group;
}

function drawSeats(view, data, lang, ctx, colours, x0, y0) {
  const group = s("g", { class: "seats" });
  const label = (f) => nameOf(data.factions, f, "faction", lang);
  view.seats.forEach((seat, i) => {
    const y = y0 + i * 62;
    const acting = view.toMove === seat.seat && !view.outcome?.winners;
    const g = s("g", { class: `seat-row${acting ? " acting" : ""}`, dataset: { seat: seat.seat } });
    g.append(s("rect", { x: x0, y, width: 470, height: 56, rx: 6, class: "seat-box", stroke: SEAT_COLOURS[seat.seat % 4] }));
    g.append(s("text", { x: x0 + 8, y: y + 18, class: "seat-name" }, `${ctx.seatName(seat.seat)}${view.numSeats === 4 ? tr("b.team", { team: seat.team }) : ""}${seat.hasCrownToken ? " ♛" : ""}`));
    g.append(s("text", { x: x0 + 8, y: y + 42, class: "small" }, tr("b.court")));
    g.append(followersRow(x0 + 60, y + 38, seat.court, colours.filter((c) => c !== "FACTION_LOYALISTS"), { label }));
    const top = seat.topCard && seat.topCard !== "ACTION_CARD_UNSPECIFIED" ? nameOf(data.cards, seat.topCard, "card", lang) : "—";
    g.append(s("text", { x: x0 + 200, y: y + 42, class: "small played", dataset: { played: seat.playedCount } }, tr("b.played", { count: seat.playedCount, top, hand: seat.cardsLeft })));
    group.append(g);
  });
  return group;
}

function drawHand(view, data, lang, x0, y0) {
  const group = s("g", { class: "hand" });
  if (view.viewer === undefined) return group;
  group.append(s("text", { x: x0, y: y0 - 8, class: "panel-title" }, tr("b.yourHand")));
  const w = 52;
  view.myHand.forEach((card, i) => {
    const x = x0 + i * (w + 5);
    const info = data.cards.find((c) => c.card === card);
    const fill = info?.faction ? COLOURS[info.faction] : "#f4ecd8";
    const name = info?.names?.[lang] ?? card;
    const g = s(
      "g",
      { class: "hand-card", dataset: { key: `card:${card}`, card }, "aria-label": name },
      s("rect", { x, y: y0, width: w, height: 84, rx: 6, fill, class: "card-face" }),
      s("text", { x: x + w / 2, y: y0 + 46, class: "card-name small", fill: info?.faction && info.faction !== "FACTION_ROMANO_BRITISH" ? "#fff" : "#222" }, name.length > 9 ? `${name.slice(0, 8)}…` : name),
    );
    tip(g, `${name}: ${info?.texts?.[lang] ?? ""}`);
    group.append(g);
  });
  group.append(
    s(
      "g",
      { class: "pass-button", dataset: { key: "pass" }, "aria-label": tr("b.pass") },
      s("rect", { x: x0, y: y0 + 94, width: 64, height: 32, rx: 16 }),
      s("text", { x: x0 + 32, y: y0 + 115, class: "small" }, tr("b.pass")),
    ),
  );
  return group;
}

function drawSupply(view, data, lang, colours, x0, y0) {
  const label = (f) => nameOf(data.factions, f, "faction", lang);
  const saxons = view.regions.filter((r) => r.control === "REGION_CONTROL_SAXONS").length;
  const g = s("g", { class: "supply" });
  g.append(s("text", { x: x0, y: y0, class: "small" }, tr("b.supply")));
  g.append(followersRow(x0 + 60, y0 - 4, view.supply, colours.filter((c) => c !== "FACTION_LOYALISTS"), { label }));
  g.append(s("text", { x: x0 + 150, y: y0, class: "small saxon-count", dataset: { saxons } }, `${tr("b.saxons", { count: saxons, max: data.saxonTokensForInvasion })}${view.mordred ? tr("b.loyalists", { count: view.loyalistPool }) : ""}${tr("b.passes", { count: view.consecutivePasses })}`));
  return g;
}

export default {
  title: "The King Is Dead",
  dataName: "king_is_dead",

  render(snapshot, ctx) {
    const view = snapshot.view.kingIsDead;
    const { data, lang } = ctx;
    const colours = view.mordred ? ["FACTION_SCOTS", "FACTION_WELSH", "FACTION_ROMANO_BRITISH", "FACTION_LOYALISTS"] : ["FACTION_SCOTS", "FACTION_WELSH", "FACTION_ROMANO_BRITISH"];
    const root = svgRoot(WIDTH, HEIGHT, `The King Is Dead, version ${snapshot.version}`, { class: "board king-is-dead" });
    root.append(drawMap(view, data, lang, colours));
    root.append(drawRegionCards(view, data, lang, ctx, 580, 40));
    root.append(drawSupply(view, data, lang, colours, 580, 146));
    root.append(drawSeats(view, data, lang, ctx, colours, 580, 170));
    root.append(drawHand(view, data, lang, 580, 190 + view.seats.length * 62 + 20));
    if (view.pending?.decision && view.pending.decision !== "DECISION_NONE" && view.pending.decision !== "DECISION_TURN") {
      const card = nameOf(data.cards, view.pending.card, "card", lang);
      const colour = view.pending.colour !== "FACTION_UNSPECIFIED" ? ` · ${nameOf(data.factions, view.pending.colour, "faction", lang)}` : "";
      root.append(s("text", { x: 580, y: HEIGHT - 16, class: "pending" }, `${tr("b.resolving", { card })}${colour}${view.pending.remaining ? tr("b.toPlace", { count: view.pending.remaining }) : ""}`));
    }
    return root;
  },

  /** The board keys a move is picked with, in order. */
  pathOf(envelope) {
    const move = envelope.kingIsDead || {};
    if (move.passTurn) return ["pass"];
    if (move.playCard) return [`card:${move.playCard.card}`];
    if (move.place) return [`region:${move.place.region}`];
    if (move.settle) return [`region:${move.settle.region}`];
    if (move.summon) return [`region:${move.summon.region}`, `follower:${move.summon.region}:${move.summon.faction}`];
    if (move.crown) {
      const { regionA, regionB, crowned } = move.crown;
      return [`rcard:${crowned}`, `rcard:${crowned === regionA ? regionB : regionA}`];
    }
    if (move.garrison) return [`region:${move.garrison.fromRegion}`, `region:${move.garrison.toRegion}`];
    if (move.ambassador) return [`region:${move.ambassador.regionA}`, `region:${move.ambassador.regionB}`];
    return [];
  },
};
