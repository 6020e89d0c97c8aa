// The Throneroom web client: routes by the URL's hash.
//   #/                          the lobby
//   #/game/<id>                 a game, as a spectator (join from there)
//   #/game/<id>?join=<seat>     join that seat, then play it
//   #/game/<id>/seat/<n>        a game as seat n (its token kept in this browser)
//   #/record                    a record file opened from this computer, replayed

import { GamePage } from "./game.js";
import { showLobby } from "./lobby.js";
import { RecordPage } from "./record.js";
import { lang, setLang, t } from "./i18n.js";

const main = document.getElementById("main");
let page = null;

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function parse(hash) {
  const [path, search] = hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(search || "");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1] && /^[A-Za-z0-9]{1,64}$/.test(parts[1])) {
    const seat = parts[2] === "seat" && /^\d+$/.test(parts[3] || "") ? Number(parts[3]) : null;
    const join = params.has("join") && /^\d+$/.test(params.get("join")) ? Number(params.get("join")) : null;
    return { name: "game", gameId: parts[1], seat, join };
  }
  if (parts[0] === "record") return { name: "record" };
  return { name: "lobby" };
}

let routed = 0;

async function route() {
  page?.destroy();
  page = null;
  delete document.body.dataset.ready;
  // Each route draws into an element of its own: a page left while it is
  // still loading (its start() awaiting the server) goes on drawing into an
  // element no longer shown, never over the page that replaced it.
  const root = document.createElement("div");
  main.replaceChildren(root);
  const mine = ++routed;
  const where = parse(location.hash);
  if (where.name === "game") {
    page = new GamePage(root, { gameId: where.gameId, seat: where.seat, joinSeat: where.join, go });
    await page.start();
  } else if (where.name === "record") {
    page = new RecordPage(root, { go });
    await page.start();
  } else {
    await showLobby(root, { go });
  }
  if (mine === routed) document.body.dataset.ready = where.name;
}

/** The page's frame (header, footer) in the chosen language. */
function frame() {
  document.documentElement.lang = lang();
  document.getElementById("nav").setAttribute("aria-label", t("navMain"));
  document.getElementById("nav-lobby").textContent = t("navLobby");
  document.getElementById("language-label").textContent = t("language");
  document.getElementById("language").setAttribute("aria-label", t("languageLabel"));
  document.getElementById("footer").textContent = t("footer");
  document.getElementById("language").value = lang();
}

document.getElementById("language").addEventListener("change", async (event) => {
  const code = event.target.value;
  if (page?.setLanguage) await page.setLanguage(code);
  else {
    setLang(code);
    await route();
  }
});
window.addEventListener("throneroom-language", frame);
frame();

window.addEventListener("hashchange", route);
window.addEventListener("unhandledrejection", (event) => {
  console.warn("unhandled", event.reason);
});
route();
