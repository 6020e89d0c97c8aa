// Nim (the fixture game): the pile as stones; a stone n from the end takes n.

import { s, svgRoot } from "../dom.js";
import { t as tr } from "../i18n.js";

export default {
  title: "Nim",
  dataName: null,
  render(snapshot) {
    const view = snapshot.view.nim;
    const pile = view.pile || 0;
    const per = 15;
    const rows = Math.max(1, Math.ceil(pile / per));
    const root = svgRoot(40 * per + 20, rows * 40 + 50, `Nim: ${pile} stones`, { class: "board nim" });
    for (let i = 0; i < pile; i++) {
      const fromEnd = pile - i;
      root.append(s("circle", { cx: 30 + (i % per) * 40, cy: 30 + Math.floor(i / per) * 40, r: 15, class: "stone", dataset: { key: `take:${fromEnd}` }, "aria-label": `take ${fromEnd}` }));
    }
    root.append(s("text", { x: 10, y: rows * 40 + 35, class: "small" }, tr("b.stones", { pile, max: view.maxTake })));
    return root;
  },
  pathOf(envelope) {
    return [`take:${envelope.nim?.take}`];
  },
};
