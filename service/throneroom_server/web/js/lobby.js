// The lobby: the game types, the open games (ListGames, or the games this
// browser knows when the server has no ListGames), and the form that creates
// a game with its options and seat count.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { loadData } from "./gamedata.js";
import { recordFileInput } from "./record.js";
import { knownGames, rememberGame } from "./storage.js";
import { t } from "./i18n.js";

const STATUS_FILTERS = [
  ["GAME_STATUS_FILTER_OPEN", "Open seats"],
  ["GAME_STATUS_FILTER_STARTED", "Started"],
  ["GAME_STATUS_FILTER_FINISHED", "Finished"],
  ["GAME_STATUS_FILTER_ANY", "Any"],
];
const PAGE_SIZE = 20;

export function gameLink(gameId, seat) {
  return seat === undefined || seat === null ? `#/game/${gameId}` : `#/game/${gameId}/seat/${seat}`;
}

/** The lobby page into `main`; `go` changes the route. */
export async function showLobby(main, { go, notice }) {
  clear(main);
  const typesSection = h("section", { class: "panel", "aria-labelledby": "types-title" }, h("h2", { id: "types-title" }, "Games"));
  const listSection = h("section", { class: "panel", "aria-labelledby": "list-title" });
  const createSection = h("section", { class: "panel", "aria-labelledby": "create-title" });
  const recordSection = h(
    "section",
    { class: "panel", "aria-labelledby": "open-record-title" },
    h("h2", { id: "open-record-title" }, "Open a record file"),
    h("p", { class: "muted" }, "A finished game's record (JSON or binary) from this computer, stepped through with its board."),
    recordFileInput(go),
  );
  main.append(h("div", { class: "lobby" }, typesSection, createSection, listSection, recordSection));
  if (notice) main.prepend(h("p", { class: "error", role: "alert" }, notice));

  let types = [];
  try {
    types = (await api.gameTypes()).gameTypes;
  } catch (error) {
    // The server cannot be reached (or failed): say so, offer Retry, and try
    // again by itself every few seconds while this lobby is shown.
    const retry = () => {
      clearTimeout(timer);
      if (typesSection.isConnected) showLobby(main, { go, notice });
    };
    const timer = setTimeout(retry, 3000);
    typesSection.append(
      h("p", { class: "error", role: "alert", id: "load-error" }, t("lobbyFailed", { error: error.message })),
      h("p", { class: "muted" }, t("loadRetrying")),
      h("button", { type: "button", id: "retry", onclick: retry }, t("retry")),
    );
    return;
  }
  typesSection.append(
    h(
      "ul",
      { class: "types" },
      types.map((t) =>
        h(
          "li",
          {},
          h("strong", {}, t.title),
          ` (${t.minSeats}–${t.maxSeats} players${t.hiddenInformation ? ", hidden information" : ""}${t.simultaneousDecisions ? ", simultaneous decisions" : ""})`,
          t.description ? h("p", { class: "muted" }, t.description) : null,
        ),
      ),
    ),
  );
  const optionData = (await loadData("options"))?.options ?? {};
  createSection.append(createForm(types, optionData, go));
  await showList(listSection, types, go);
}

// -- creating a game ----------------------------------------------------------------------

function jsonName(name) {
  return name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

function optionInput(gameKey, info, defaults, spec) {
  const key = jsonName(info.name);
  const id = `opt-${gameKey}-${key}`;
  const current = defaults?.[key];
  const label = h("label", { for: id }, info.name.replace(/_/g, " "));
  let input;
  const kind = spec?.kind ?? (typeof current === "boolean" || info.defaultValue === "false" || info.defaultValue === "true" ? "bool" : "number");
  if (kind === "bool") {
    input = h("input", { type: "checkbox", id, checked: current === true || info.defaultValue === "true" });
  } else if (kind === "enum") {
    const chosen = current ?? spec.values[0];
    input = h("select", { id }, spec.values.map((v) => h("option", { value: v, selected: v === chosen }, v)));
  } else if (kind === "number") {
    input = h("input", { type: "number", id, value: current ?? info.defaultValue ?? "" });
  } else {
    input = h("input", { type: "text", id, value: current ?? info.defaultValue ?? "" });
  }
  input.dataset.option = key;
  input.dataset.kind = kind;
  return h("div", { class: "field" }, label, input, info.description ? h("small", { class: "muted" }, info.description) : null);
}

function readOptions(fieldset) {
  const out = {};
  for (const input of fieldset.querySelectorAll("[data-option]")) {
    const key = input.dataset.option;
    if (input.dataset.kind === "bool") out[key] = input.checked;
    else if (input.dataset.kind === "number") {
      if (input.value !== "") out[key] = Number(input.value);
    } else if (input.value !== "") out[key] = input.value;
  }
  return out;
}

function createForm(types, optionData, go) {
  const typeSelect = h("select", { id: "create-type", name: "type" }, types.map((t) => h("option", { value: t.name }, t.title)));
  const seatsSelect = h("select", { id: "create-seats", name: "seats" });
  const optionsBox = h("fieldset", { class: "options" });
  const nameInput = h("input", { id: "create-name", type: "text", maxLength: 64, value: "", placeholder: "your name", autocomplete: "nickname" });
  const seedInput = h("input", { id: "create-seed", type: "number", min: 0, placeholder: "random" });
  const joinBox = h("input", { id: "create-join", type: "checkbox", checked: true });
  const message = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", id: "create-submit" }, "Create game");

  const refresh = () => {
    const type = types.find((t) => t.name === typeSelect.value);
    clear(seatsSelect);
    for (let n = type.minSeats; n <= type.maxSeats; n++) seatsSelect.append(h("option", { value: n }, `${n} seats`));
    clear(optionsBox);
    optionsBox.append(h("legend", {}, "Options"));
    const gameKey = Object.keys(type.defaultOptions || {})[0] || jsonName(type.name);
    const defaults = type.defaultOptions?.[gameKey] ?? {};
    const specs = optionData[gameKey]?.fields ?? {};
    if (!type.options?.length) optionsBox.append(h("p", { class: "muted" }, "This game has no options."));
    for (const info of type.options || []) optionsBox.append(optionInput(gameKey, info, defaults, specs[jsonName(info.name)]));
    optionsBox.dataset.game = gameKey;
  };
  typeSelect.addEventListener("change", refresh);
  refresh();

  const form = h(
    "form",
    {
      id: "create-form",
      onsubmit: async (event) => {
        event.preventDefault();
        message.textContent = "";
        submit.disabled = true;
        try {
          const type = types.find((t) => t.name === typeSelect.value);
          const body = { options: { [optionsBox.dataset.game]: readOptions(optionsBox) }, numSeats: Number(seatsSelect.value) };
          if (seedInput.value !== "") body.seed = String(seedInput.value);
          const created = await api.createGame(body);
          rememberGame(created.gameId, type.name);
          if (joinBox.checked) {
            const { joinSeat } = await import("./seats.js");
            const seat = await joinSeat(created.gameId, null, nameInput.value.trim());
            go(gameLink(created.gameId, seat));
          } else {
            go(gameLink(created.gameId));
          }
        } catch (error) {
          message.textContent = error.message;
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h2", { id: "create-title" }, "New game"),
    h("div", { class: "field" }, h("label", { for: "create-type" }, "Game"), typeSelect),
    h("div", { class: "field" }, h("label", { for: "create-seats" }, "Seats"), seatsSelect),
    optionsBox,
    h("div", { class: "field" }, h("label", { for: "create-name" }, "Your name"), nameInput),
    h("div", { class: "field" }, h("label", { for: "create-seed" }, "Seed (optional)"), seedInput),
    h("div", { class: "field inline" }, joinBox, h("label", { for: "create-join" }, "Take the first seat")),
    submit,
    message,
  );
  return form;
}

// -- the list of games ---------------------------------------------------------------------

async function showList(section, types, go) {
  const titleOf = (name) => types.find((t) => t.name === name)?.title ?? name;
  const typeFilter = h("select", { id: "list-type", "aria-label": "Game type" }, h("option", { value: "" }, "All games"), types.map((t) => h("option", { value: t.name }, t.title)));
  const statusFilter = h("select", { id: "list-status", "aria-label": "Status" }, STATUS_FILTERS.map(([v, label]) => h("option", { value: v }, label)));
  const table = h("div", { id: "game-list" });
  const more = h("button", { type: "button", id: "list-more", hidden: true }, "More");
  const refreshButton = h("button", { type: "button", id: "list-refresh" }, "Refresh");
  section.append(h("h2", { id: "list-title" }, "Open games"), h("div", { class: "filters" }, typeFilter, statusFilter, refreshButton), table, more);
  let token = "";

  const load = async (append) => {
    const page = await api.listGames({ game_type: typeFilter.value, status: statusFilter.value, page_size: PAGE_SIZE, page_token: append ? token : "" }).catch((error) => {
      table.replaceChildren(h("p", { class: "error", role: "alert" }, error.message));
      return undefined;
    });
    if (page === undefined) return;
    if (page === null) {
      showKnown(table, titleOf, go);
      more.hidden = true;
      return;
    }
    token = page.nextPageToken || "";
    more.hidden = !token;
    if (!append) clear(table);
    const games = page.games || [];
    if (!games.length && !append) {
      table.append(h("p", { class: "muted" }, "No game matches. Create one!"));
      return;
    }
    const list = table.querySelector("ul") || table.appendChild(h("ul", { class: "games" }));
    for (const g of games) list.append(gameRow(g, titleOf, go));
  };
  typeFilter.addEventListener("change", () => load(false));
  statusFilter.addEventListener("change", () => load(false));
  refreshButton.addEventListener("click", () => load(false));
  more.addEventListener("click", () => load(true));
  await load(false);
}

function gameRow(g, titleOf, go) {
  const open = g.openSeats || [];
  const status = (g.status || "").replace(/^GAME_STATUS_/, "").toLowerCase();
  return h(
    "li",
    { class: "game-row", dataset: { gameId: g.gameId } },
    h("a", { href: gameLink(g.gameId) }, `${titleOf(g.gameType)} · ${g.gameId}`),
    h("span", { class: "muted" }, ` ${g.seatsTaken}/${g.seats} seats · ${status} · version ${g.version}`),
    open.length ? h("button", { type: "button", class: "join", onclick: () => go(`${gameLink(g.gameId)}?join=${open[0]}`) }, `Join seat ${open[0]}`) : null,
    h("button", { type: "button", class: "watch", onclick: () => go(gameLink(g.gameId)) }, "Spectate"),
  );
}

function showKnown(table, titleOf, go) {
  clear(table);
  table.append(
    h("p", { class: "notice", id: "lobby-fallback" }, "This server has no game list (GET /v1/games): showing only the games created or joined in this browser."),
  );
  const games = knownGames();
  if (!games.length) {
    table.append(h("p", { class: "muted" }, "None yet. Create one, or open a link someone shared."));
    return;
  }
  table.append(
    h(
      "ul",
      { class: "games" },
      games.map((g) =>
        h(
          "li",
          { class: "game-row", dataset: { gameId: g.gameId } },
          h("a", { href: gameLink(g.gameId) }, `${titleOf(g.gameType)} · ${g.gameId}`),
          h("button", { type: "button", class: "watch", onclick: () => go(gameLink(g.gameId)) }, "Open"),
        ),
      ),
    ),
  );
}
