// A board for a game without its own module: the view as indented data.

import { h } from "../dom.js";

export default {
  title: "Game",
  dataName: null,
  render(snapshot) {
    return h("pre", { class: "generic-view", "aria-label": "The game's view as data" }, JSON.stringify(snapshot.view, null, 2));
  },
  pathOf() {
    return [];
  },
};
