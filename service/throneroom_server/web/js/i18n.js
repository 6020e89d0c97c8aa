// The page's own words (status line, panels, lobby, board labels) in English,
// Spanish and Portuguese: one table per language, every key in each (a test
// checks). The moves' and events' sentences come from the server
// (describe_language), from each game's text source.

import { preference, setPreference } from "./storage.js";

export const LANGUAGES = { en: "English", es: "Español", pt: "Português" };

const en = {};
const es = {};
const pt = {};
export const TABLES = { en, es, pt };

let current = null;

/** The language of the page's words: the one chosen in this browser. */
export function lang() {
  if (current === null) current = preference("lang", "en") in TABLES ? preference("lang", "en") : "en";
  return current;
}

export function setLang(code) {
  current = code in TABLES ? code : "en";
  setPreference("lang", current);
  document.documentElement.lang = current;
}

/** The words of `key` in the page's language, `{name}` filled from `params`. */
export function t(key, params = {}) {
  const text = TABLES[lang()][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Add words: define("key", "English", "Español", "Português"). */
function define(key, english, spanish, portuguese) {
  en[key] = english;
  es[key] = spanish;
  pt[key] = portuguese;
}

// -- connection and pending moves
define("offline", "Offline: the server cannot be reached. Trying again…", "Sin conexión: no se puede contactar con el servidor. Reintentando…", "Sem ligação: não é possível contactar o servidor. A tentar de novo…");
define("offlineMoves", "Moves are disabled until the connection is back.", "Las jugadas están desactivadas hasta que vuelva la conexión.", "As jogadas estão desativadas até a ligação voltar.");
define("pending", "Sending your move…", "Enviando tu jugada…", "A enviar a tua jogada…");
define("pendingOffline", "Your move waits for the connection: it is sent when the server is back.", "Tu jugada espera la conexión: se enviará cuando vuelva el servidor.", "A tua jogada espera pela ligação: será enviada quando o servidor voltar.");
define("connLive", "live", "en directo", "em direto");
define("connReconnecting", "offline, reconnecting…", "sin conexión, reconectando…", "sem ligação, a religar…");
define("connFinished", "finished", "terminada", "terminado");
define("connFailed", "stream failed: {error}", "el flujo falló: {error}", "o fluxo falhou: {error}");
define("retry", "Retry", "Reintentar", "Tentar de novo");
define("loadFailed", "Game {id} could not be loaded: {error}", "No se pudo cargar la partida {id}: {error}", "Não foi possível carregar o jogo {id}: {error}");
define("loadRetrying", "The page tries again every few seconds.", "La página lo reintenta cada pocos segundos.", "A página tenta de novo a cada poucos segundos.");
define("lobbyFailed", "The lobby could not be loaded: {error}", "No se pudo cargar el vestíbulo: {error}", "Não foi possível carregar a entrada: {error}");
define("backToLobby", "Back to the lobby", "Volver al vestíbulo", "Voltar à entrada");
define("loadingGame", "Loading the game…", "Cargando la partida…", "A carregar o jogo…");

// -- seat links and tokens
define("noToken", "This is seat {seat}'s link, but this browser does not hold its token (the link works only in the browser that took the seat): you are spectating.", "Este es el enlace del asiento {seat}, pero este navegador no guarda su clave (el enlace solo funciona en el navegador que ocupó el asiento): estás mirando.", "Esta é a ligação do lugar {seat}, mas este navegador não guarda a sua chave (a ligação só funciona no navegador que ocupou o lugar): estás a assistir.");
define("badToken", "The server refuses the token kept for seat {seat} ({error}): you are spectating.", "El servidor rechaza la clave guardada para el asiento {seat} ({error}): estás mirando.", "O servidor recusa a chave guardada para o lugar {seat} ({error}): estás a assistir.");
define("forgetToken", "Forget this token", "Olvidar esta clave", "Esquecer esta chave");
define("tokenForgotten", "The token of seat {seat} is forgotten: you are spectating.", "La clave del asiento {seat} se ha olvidado: estás mirando.", "A chave do lugar {seat} foi esquecida: estás a assistir.");
define("staleMove", "Another seat moved first and that move is no longer possible: pick again from the list brought up to date.", "Otro asiento jugó antes y esa jugada ya no es posible: elige de nuevo en la lista actualizada.", "Outro lugar jogou primeiro e essa jogada já não é possível: escolhe de novo na lista atualizada.");
