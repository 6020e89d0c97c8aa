// The lobby: the game types, the open games (ListGames, or the games this
// browser knows when the server has no ListGames), and the form that creates
// a game with its options and seat count.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { loadData } from "./gamedata.js";
import { recordFileInput } from "./record.js";
import { knownGames, rememberGame } from "./storage.js";
import { addGameWords, gameWord, t, words } from "./i18n.js";

const STATUS_FILTERS = [
  ["GAME_STATUS_FILTER_OPEN", "filterOpen"],
  ["GAME_STATUS_FILTER_STARTED", "filterStarted"],
  ["GAME_STATUS_FILTER_FINISHED", "filterFinished"],
  ["GAME_STATUS_FILTER_ANY", "filterAny"],
];
const PAGE_SIZE = 20;

export function gameLink(gameId, seat) {
  return seat === undefined || seat === null ? `#/game/${gameId}` : `#/game/${gameId}/seat/${seat}`;
}

/** The lobby page into `main`; `go` changes the route. */
export async function showLobby(main, { go, notice }) {
  clear(main);
  const typesSection = h("section", { class: "panel", "aria-labelledby": "types-title" }, h("h2", { id: "types-title" }, t("games")));
  const listSection = h("section", { class: "panel", "aria-labelledby": "list-title" });
  const createSection = h("section", { class: "panel", "aria-labelledby": "create-title" });
  const recordSection = h(
    "section",
    { class: "panel", "aria-labelledby": "open-record-title" },
    h("h2", { id: "open-record-title" }, t("openRecord")),
    h("p", { class: "muted" }, t("openRecordHelp")),
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
      types.map((type) =>
        h(
          "li",
          {},
          h("strong", {}, type.title),
          ` (${t("players", { min: type.minSeats, max: type.maxSeats })}${type.hiddenInformation ? t("hiddenInfo") : ""}${type.simultaneousDecisions ? t("simultaneous") : ""})`,
          type.description ? h("p", { class: "muted" }, type.description) : null,
        ),
      ),
    ),
  );
  const optionData = (await loadData("options"))?.options ?? {};
  // Each game's own words (its options' and modes' names) come in its web data.
  await Promise.all(types.map(async (type) => addGameWords(type.name, (await loadData(type.name))?.words)));
  createSection.append(createForm(types, optionData, go));
  await showList(listSection, types, go);
}

// -- creating a game ----------------------------------------------------------------------

function jsonName(name) {
  return name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

function optionInput(gameType, gameKey, info, defaults, spec) {
  const key = jsonName(info.name);
  const id = `opt-${gameKey}-${key}`;
  const current = defaults?.[key];
  const label = h("label", { for: id }, gameWord(gameType, `opt.${info.name}`));
  let input;
  const kind = spec?.kind ?? (typeof current === "boolean" || info.defaultValue === "false" || info.defaultValue === "true" ? "bool" : "number");
  if (kind === "bool") {
    input = h("input", { type: "checkbox", id, checked: current === true || info.defaultValue === "true" });
  } else if (kind === "enum") {
    const chosen = current ?? spec.values[0];
    input = h("select", { id }, spec.values.map((v) => h("option", { value: v, selected: v === chosen }, optionValue(gameType, v))));
  } else if (kind === "number") {
    input = h("input", { type: "number", id, value: current ?? info.defaultValue ?? "" });
  } else {
    input = h("input", { type: "text", id, value: current ?? info.defaultValue ?? "" });
  }
  input.dataset.option = key;
  input.dataset.kind = kind;
  // The server's description of the option (in English) is the label's tooltip.
  if (info.description) label.title = info.description;
  return h("div", { class: "field" }, label, input);
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
  const typeSelect = h("select", { id: "create-type", name: "type" }, types.map((type) => h("option", { value: type.name }, type.title)));
  const seatsSelect = h("select", { id: "create-seats", name: "seats" });
  const optionsBox = h("fieldset", { class: "options" });
  const nameInput = h("input", { id: "create-name", type: "text", maxLength: 64, value: "", placeholder: t("yourName"), autocomplete: "nickname" });
  const seedInput = h("input", { id: "create-seed", type: "number", min: 0, placeholder: t("random") });
  const joinBox = h("input", { id: "create-join", type: "checkbox", checked: true });
  const message = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", id: "create-submit" }, t("createGame"));

  // The seat counts the chosen options allow: a game's modes (in its board
  // data) on one board seat two, on two boards up to four.
  const seatChoices = async () => {
    const type = types.find((candidate) => candidate.name === typeSelect.value);
    let max = type.maxSeats;
    const mode = optionsBox.querySelector("[data-option='mode']")?.value;
    if (mode) {
      const modes = (await loadData(type.name))?.modes;
      const boards = modes?.[mode]?.field?.boards;
      if (boards) max = Math.min(max, Math.max(type.minSeats, 2 * boards));
    }
    if (type.name !== typeSelect.value) return;
    const chosen = Number(seatsSelect.value);
    clear(seatsSelect);
    for (let n = type.minSeats; n <= max; n++) seatsSelect.append(h("option", { value: n, selected: n === chosen }, t("seatCount", { count: n })));
  };
  const refresh = () => {
    const type = types.find((candidate) => candidate.name === typeSelect.value);
    clear(seatsSelect);
    for (let n = type.minSeats; n <= type.maxSeats; n++) seatsSelect.append(h("option", { value: n }, t("seatCount", { count: n })));
    clear(optionsBox);
    optionsBox.append(h("legend", {}, t("options")));
    const gameKey = Object.keys(type.defaultOptions || {})[0] || jsonName(type.name);
    const defaults = type.defaultOptions?.[gameKey] ?? {};
    const specs = optionData[gameKey]?.fields ?? {};
    if (!type.options?.length) optionsBox.append(h("p", { class: "muted" }, t("noOptions")));
    for (const info of type.options || []) optionsBox.append(optionInput(type.name, gameKey, info, defaults, specs[jsonName(info.name)]));
    optionsBox.dataset.game = gameKey;
    seatChoices();
  };
  typeSelect.addEventListener("change", refresh);
  optionsBox.addEventListener("change", seatChoices);
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
          const type = types.find((candidate) => candidate.name === typeSelect.value);
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
    h("h2", { id: "create-title" }, t("newGame")),
    h("div", { class: "field" }, h("label", { for: "create-type" }, t("game")), typeSelect),
    h("div", { class: "field" }, h("label", { for: "create-seats" }, t("seats")), seatsSelect),
    optionsBox,
    h("div", { class: "field" }, h("label", { for: "create-name" }, t("yourNameLabel")), nameInput),
    h("div", { class: "field" }, h("label", { for: "create-seed" }, t("seedLabel")), seedInput),
    h("div", { class: "field inline" }, joinBox, h("label", { for: "create-join" }, t("takeFirstSeat"))),
    submit,
    message,
  );
  return form;
}

// -- the list of games ---------------------------------------------------------------------

async function showList(section, types, go) {
  const titleOf = (name) => types.find((type) => type.name === name)?.title ?? name;
  const typeFilter = h("select", { id: "list-type", "aria-label": t("gameType") }, h("option", { value: "" }, t("allGames")), types.map((type) => h("option", { value: type.name }, type.title)));
  const statusFilter = h("select", { id: "list-status", "aria-label": t("status") }, STATUS_FILTERS.map(([v, label]) => h("option", { value: v }, t(label))));
  const table = h("div", { id: "game-list" });
  const more = h("button", { type: "button", id: "list-more", hidden: true }, t("more"));
  const refreshButton = h("button", { type: "button", id: "list-refresh" }, t("refresh"));
  section.append(h("h2", { id: "list-title" }, t("openGames")), h("div", { class: "filters" }, typeFilter, statusFilter, refreshButton), table, more);
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
      table.append(h("p", { class: "muted" }, t("noGameMatches")));
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

/** A game's options in words ("mode: Attack and Defense · advanced units"), defaults left out. */
function optionWords(gameType, options) {
  const fields = Object.values(options || {})[0] || {};
  const parts = [];
  for (const [key, value] of Object.entries(fields)) {
    const name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (value === false || value === "" || value === 0) continue;
    if (value === true) parts.push(gameWord(gameType, `opt.${name}`));
    else parts.push(`${gameWord(gameType, `opt.${name}`)}: ${optionValue(gameType, value)}`);
  }
  return parts.join(" · ");
}

/** An option's value in words: a mode's name (the game's "mode.<VALUE>"), else the value. */
function optionValue(gameType, value) {
  return typeof value === "string" && /^[A-Z][A-Z0-9_]+$/.test(value) ? gameWord(gameType, `mode.${value}`) : String(value);
}

/** How long ago, in words. */
function age(unixMs) {
  const minutes = Math.floor((Date.now() - Number(unixMs || 0)) / 60000);
  if (!unixMs || minutes < 1) return t("ageNow");
  if (minutes < 60) return t("ageMinutes", { n: minutes });
  if (minutes < 48 * 60) return t("ageHours", { n: Math.floor(minutes / 60) });
  return t("ageDays", { n: Math.floor(minutes / 1440) });
}

function gameRow(g, titleOf, go) {
  const open = g.openSeats || [];
  const status = words("st", (g.status || "").replace(/^GAME_STATUS_/, "").toLowerCase());
  const options = optionWords(g.gameType, g.options);
  return h(
    "li",
    { class: "game-row", dataset: { gameId: g.gameId } },
    h("a", { href: gameLink(g.gameId) }, `${titleOf(g.gameType)} · ${g.gameId}`),
    h("span", { class: "muted" }, ` ${t("rowSeats", { taken: g.seatsTaken, seats: g.seats })} · ${status} · ${t("rowVersion", { version: g.version })} · ${age(g.createdUnixMs)}`),
    options ? h("span", { class: "row-options" }, options) : null,
    open.length ? h("button", { type: "button", class: "join", onclick: () => go(`${gameLink(g.gameId)}?join=${open[0]}`) }, t("joinSeat", { seat: open[0] })) : null,
    h("button", { type: "button", class: "watch", onclick: () => go(gameLink(g.gameId)) }, t("spectate")),
  );
}

function showKnown(table, titleOf, go) {
  clear(table);
  table.append(
    h("p", { class: "notice", id: "lobby-fallback" }, t("noList")),
  );
  const games = knownGames();
  if (!games.length) {
    table.append(h("p", { class: "muted" }, t("noneYet")));
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
          h("button", { type: "button", class: "watch", onclick: () => go(gameLink(g.gameId)) }, t("open")),
        ),
      ),
    ),
  );
}
