// King's Life: the king's preference board, the five days with their support
// tokens and results, the deck and discard pile, every player's display (the
// cards in front of them), program, support and days won, and the viewer's
// hand (clickable). Card faces (what id 37 is) come from
// /web/data/kings_life.json (throneroom.games.kings_life).

import { s, svgRoot, tip } from "../dom.js";
import { gameWords } from "../i18n.js";

// The page's words of this game (its board's labels), from its SDK package
// (throneroom.games.kings_life.web_words) through /web/data/kings_life.json.
const tr = gameWords("kings_life");

const WIDTH = 1060;
const CARD_W = 44;
const CARD_H = 62;
const ACTIVITY_COLOURS = {
  ACTIVITY_TOURNEY: "#a93226",
  ACTIVITY_FEAST: "#ca6f1e",
  ACTIVITY_HUNT: "#1e8449",
  ACTIVITY_DANCE: "#7d3c98",
};
const CHARACTER_COLOUR = "#34495e";
const SEAT_COLOURS = ["#7b3fa0", "#0f8a7a", "#c2571a", "#4a5a8c", "#8c6d1f", "#2f7d32", "#a12a5e", "#555555"];

function faceOf(data, id) {
  return data.cards[id - 1];
}

function activityName(data, activity) {
  return data.activities.find((a) => a.activity === activity)?.name ?? "?";
}

/** One card, face up: its colour by activity, value and marks; a character by name. */
export function cardGlyph(data, id, x, y, { key, extra = "" } = {}) {
  const face = faceOf(data, id);
  const g = s("g", { class: `kl-card${extra}`, dataset: { card: id, ...(key ? { key } : {}) }, "aria-label": face?.name ?? `card ${id}` });
  const fill = face?.activity ? ACTIVITY_COLOURS[face.activity] : CHARACTER_COLOUR;
  g.append(s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, fill, class: "card-face" }));
  if (face?.activity) {
    g.append(s("text", { x: x + CARD_W / 2, y: y + 32, class: "card-value", fill: "#fff" }, String(face.value)));
    g.append(s("text", { x: x + CARD_W / 2, y: y + 50, class: "tiny", fill: "#fff" }, activityName(data, face.activity)));
    if (face.sun) g.append(s("text", { x: x + 9, y: y + 13, class: "tiny", fill: "#ffe680" }, "☀"));
    if (face.draws) g.append(s("text", { x: x + CARD_W - 10, y: y + 13, class: "tiny", fill: "#fff" }, "+1"));
  } else {
    const words = (face?.name ?? "?").split(" ");
    words.forEach((w, i) => g.append(s("text", { x: x + CARD_W / 2, y: y + 26 + i * 12, class: "tiny", fill: "#fff" }, w)));
  }
  const character = face?.character ? data.characters.find((c) => c.character === face.character) : null;
  tip(g, character ? `${face.name}: ${character.effect}` : face?.name ?? `card ${id}`);
  return g;
}

function cardBack(x, y, label) {
  return s("g", { class: "kl-card back" }, s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-back" }), s("text", { x: x + CARD_W / 2, y: y + 36, class: "tiny", fill: "#fff" }, label));
}

function drawKing(view, data, x0, y0) {
  const g = s("g", { class: "preferences" });
  g.append(s("text", { x: x0, y: y0 - 8, class: "panel-title" }, tr("b.kingsWill")));
  const labels = ["+1", tr("b.second"), tr("b.third"), tr("b.hidden")];
  for (let i = 0; i < 4; i++) {
    const activity = view.preferences[i];
    const x = x0 + i * 74;
    const pref = s("g", { class: "preference", dataset: { position: i, activity: activity ?? "" } });
    pref.append(s("rect", { x, y: y0, width: 68, height: 46, rx: 6, fill: activity ? ACTIVITY_COLOURS[activity] : "#8a7f6e", class: "pref-card" }));
    pref.append(s("text", { x: x + 34, y: y0 + 20, fill: "#fff" }, activity ? activityName(data, activity) : "?"));
    pref.append(s("text", { x: x + 34, y: y0 + 38, class: "tiny", fill: "#fff" }, labels[i]));
    g.append(pref);
  }
  return g;
}

function drawDays(view, data, ctx, x0, y0) {
  const g = s("g", { class: "days" });
  g.append(s("text", { x: x0, y: y0 - 8, class: "panel-title" }, tr("b.days")));
  data.days.forEach((day, i) => {
    const x = x0 + i * 96;
    const current = view.day === day.day;
    const record = view.days.find((d) => d.day === day.day);
    const token = view.tokens.find((t) => t.day === day.day);
    const cell = s("g", { class: `day${current ? " current" : ""}`, dataset: { day: day.day } });
    cell.append(s("rect", { x, y: y0, width: 90, height: 78, rx: 6, class: "day-card" }));
    cell.append(s("text", { x: x + 45, y: y0 + 15, class: "small" }, day.name));
    cell.append(s("text", { x: x + 45, y: y0 + 27, class: "tiny" }, tr("b.vp", { count: day.victoryPoints })));
    let result = current ? tr("b.today") : "";
    if (record) {
      result = record.result === "RESULT_WON" ? `${tr("b.wonBy", { seat: ctx.seatName(record.winner) })}${record.duke ? tr("b.duke") : ""}` : record.result.replace("RESULT_", "").replace("_", " ").toLowerCase();
    }
    cell.append(s("text", { x: x + 45, y: y0 + 39, class: "tiny day-result" }, result));
    if (token) {
      const status = token.status.replace("STATUS_", "").toLowerCase().replace("_", " ");
      const label = tr("b.token", { value: token.known ? token.value : "?" });
      const colour = token.status === "STATUS_WON" ? SEAT_COLOURS[token.holder % 8] : "#b7a98c";
      const t = s("g", { class: `support-token ${status.replace(" ", "-")}`, dataset: { status: token.status, holder: token.holder } });
      t.append(s("circle", { cx: x + 45, cy: y0 + 56, r: 14, fill: token.status === "STATUS_DISCARDED" ? "#ddd" : colour }));
      t.append(s("text", { x: x + 45, y: y0 + 60, class: "tiny", fill: "#fff" }, token.known ? String(token.value) : "?"));
      tip(t, `${label}, ${status}${token.holder >= 0 ? ` (${ctx.seatName(token.holder)})` : ""}`);
      cell.append(t);
    }
    g.append(cell);
  });
  return g;
}

function drawPiles(view, data, x0, y0) {
  const g = s("g", { class: "piles" });
  g.append(cardBack(x0, y0, String(view.deckSize)));
  g.append(s("text", { x: x0 + CARD_W / 2, y: y0 + CARD_H + 14, class: "tiny" }, tr("b.deck")));
  const top = view.discard[view.discard.length - 1];
  if (top) g.append(cardGlyph(data, top, x0 + 54, y0));
  else g.append(cardBack(x0 + 54, y0, "—"));
  g.append(s("text", { x: x0 + 54 + CARD_W / 2, y: y0 + CARD_H + 14, class: "tiny discard-count", dataset: { count: view.discard.length + view.faceDownDiscards } }, tr("b.discard", { count: view.discard.length + view.faceDownDiscards })));
  return g;
}

function drawPlayer(view, data, ctx, seat, x, y, w) {
  const p = view.players[seat];
  const acting = (view.toAct || []).includes(seat) && view.phase !== "PHASE_GAME_OVER";
  const program = view.programs.find((q) => q.seat === seat);
  const g = s("g", { class: `player${acting ? " acting" : ""}${p.passed ? " passed" : ""}`, dataset: { seat } });
  g.append(s("rect", { x, y, width: w, height: 130, rx: 7, class: "player-box", stroke: SEAT_COLOURS[seat % 8], dataset: { key: `player:${seat}` }, "aria-label": ctx.seatName(seat) }));
  const marks = [];
  if (seat === view.firstPlayer) marks.push(tr("b.first"));
  if (p.passed) marks.push(tr("b.passed"));
  if (p.supporter >= 0) marks.push(tr("b.supportedBy", { seat: p.supporter }));
  if (p.supporting >= 0) marks.push(tr("b.supports", { seat: p.supporting }));
  g.append(s("text", { x: x + 8, y: y + 16, class: "seat-name" }, `${ctx.seatName(seat)}${tr("b.handSize", { count: p.handSize })}${marks.length ? ` · ${marks.join(", ")}` : ""}`));
  const days = p.daysWon.map((d) => data.days.find((x2) => x2.day === d)?.name.slice(0, 3)).join(" ");
  const prog = program?.hasProgram ? `${activityName(data, program.activity)} ${program.value}` : tr("b.none");
  const score = view.phase === "PHASE_GAME_OVER" ? tr("b.score", { score: p.score, support: p.supportPoints }) : "";
  g.append(s("text", { x: x + 8, y: y + 124, class: "tiny left program" }, `${tr("b.program", { program: prog })}${days ? tr("b.daysWon", { days }) : ""}${p.kept.length ? tr("b.kept", { count: p.kept.length }) : ""}${score}`));
  const cards = [...p.display];
  const step = Math.min(CARD_W + 4, (w - 16 - CARD_W) / Math.max(cards.length - 1, 1));
  cards.forEach((id, i) => {
    let extra = "";
    if (id === view.merchantOn) extra = " merchant";
    if (id === view.sorcererOn) extra = " sorcerer";
    g.append(cardGlyph(data, id, x + 8 + i * step, y + 26, { key: `display:${seat}:${id}`, extra: ` display${extra}` }));
  });
  if (p.revealedCommitment) g.append(cardGlyph(data, p.revealedCommitment, x + w - CARD_W - 8, y + 26, { extra: " commitment" }));
  return g;
}

function drawHand(view, data, x0, y0) {
  const g = s("g", { class: "hand" });
  if (view.viewer < 0) return g;
  g.append(s("text", { x: x0, y: y0 - 8, class: "panel-title" }, tr("b.yourHand")));
  view.hand.forEach((id, i) => g.append(cardGlyph(data, id, x0 + i * (CARD_W + 6), y0, { key: `hand:${id}`, extra: " hand-card" })));
  let x = x0 + view.hand.length * (CARD_W + 6) + 10;
  if (view.myCommitment) {
    g.append(cardGlyph(data, view.myCommitment, x, y0, { extra: " commitment" }));
    g.append(s("text", { x: x + CARD_W / 2, y: y0 + CARD_H + 14, class: "tiny" }, tr("b.committed")));
    x += CARD_W + 10;
  }
  g.append(s("g", { class: "pass-button", dataset: { key: "pass" }, "aria-label": tr("b.passNoSupport") }, s("rect", { x, y: y0 + 14, width: 60, height: 34, rx: 17 }), s("text", { x: x + 30, y: y0 + 36, class: "small" }, tr("b.pass"))));
  return g;
}

export default {
  title: "King's Life",
  dataName: "kings_life",

  render(snapshot, ctx) {
    const view = snapshot.view.kingsLife;
    const { data } = ctx;
    const cols = view.numSeats > 4 ? 4 : 2;
    const rows = Math.ceil(view.numSeats / cols);
    const height = 170 + rows * 140 + 110;
    const root = svgRoot(WIDTH, height, `King's Life, version ${snapshot.version}`, { class: "board kings-life" });
    root.append(drawKing(view, data, 16, 30));
    root.append(drawDays(view, data, ctx, 330, 30));
    root.append(drawPiles(view, data, 830, 30));
    const phase = view.phase.replace("PHASE_", "").replace(/_/g, " ").toLowerCase();
    const windowed = view.window && view.window !== "WINDOW_NONE" ? tr("b.queenWindow", { window: view.window.replace("WINDOW_", "").toLowerCase().replace("_", " ") }) : "";
    root.append(s("text", { x: 16, y: 140, class: "phase left" }, `${tr("b.phase", { phase })}${windowed}${view.pending?.card ? tr("b.cardInPlay", { card: faceOf(data, view.pending.card)?.name }) : ""}`));
    const w = (WIDTH - 32 - (cols - 1) * 10) / cols;
    for (let seat = 0; seat < view.numSeats; seat++) {
      const col = seat % cols;
      const row = Math.floor(seat / cols);
      root.append(drawPlayer(view, data, ctx, seat, 16 + col * (w + 10), 160 + row * 140, w));
    }
    root.append(drawHand(view, data, 16, 170 + rows * 140 + 20));
    return root;
  },

  pathOf(envelope, snapshot) {
    const move = envelope.kingsLife || {};
    const viewer = snapshot?.view?.kingsLife?.viewer ?? -1;
    if (move.play) return [`hand:${move.play.card}`];
    if (move.commit) return move.commit.card ? [`hand:${move.commit.card}`] : [];
    if (move.takeBack) return move.takeBack.card ? [`display:${viewer}:${move.takeBack.card}`] : [];
    if (move.passing) return move.passing.support === undefined ? ["pass"] : [`player:${move.passing.support}`];
    return [];
  },
};
