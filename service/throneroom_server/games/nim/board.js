// Nim (the fixture game): the pile as stones; a stone n from the end takes n.
// Its words, in the reader's language, come from /web/data/nim.json
// (throneroom.games.nim.web, from the SDK's texts).

import { s, svgRoot } from "../dom.js";

function wordsOf(data, lang) {
  const all = data?.words ?? {};
  return all[lang] ?? all.en ?? { pile: "Pile: {n}", limit: "take 1 to {m} per move", stone: "stone", stones: "stones" };
}

function stones(words, n) {
  return `${n} ${n === 1 ? words.stone : words.stones}`;
}

export default {
  title: "Nim",
  dataName: "nim",
  render(snapshot, ctx = {}) {
    const view = snapshot.view.nim;
    const words = wordsOf(ctx.data, ctx.lang);
    const pile = view.pile || 0;
    const maxTake = view.maxTake || 0;
    const per = 15;
    const rows = Math.max(1, Math.ceil(pile / per));
    const caption = `${words.pile.replace("{n}", stones(words, pile))} · ${words.limit.replace("{m}", maxTake)}`;
    const root = svgRoot(40 * per + 20, rows * 40 + 50, `Nim, version ${snapshot.version}: ${caption}`, { class: "board nim" });
    for (let i = 0; i < pile; i++) {
      const fromEnd = pile - i;
      root.append(s("circle", { cx: 30 + (i % per) * 40, cy: 30 + Math.floor(i / per) * 40, r: 15, class: "stone", dataset: { key: `take:${fromEnd}` }, "aria-label": `take ${fromEnd}` }));
    }
    root.append(s("text", { x: 10, y: rows * 40 + 35, class: "small" }, caption));
    return root;
  },
  pathOf(envelope) {
    return [`take:${envelope.nim?.take}`];
  },
};
