// The page's own words (status line, panels, lobby, record page) in English,
// Spanish and Portuguese: one table per language, every key in each (a test
// checks). Nothing here belongs to one game: a game's words (its board's
// labels, modes, options, endings, tie-breaks, sides) come from its SDK
// package in its web data (/web/data/<game>.json, `words`), added with
// addGameWords and looked up with gameWord. The moves' and events' sentences
// come from the server (describe_language), from each game's text source.

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
  window.dispatchEvent(new Event("throneroom-language"));
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** The words of `key` in the page's language, `{name}` filled from `params`. */
export function t(key, params = {}) {
  return fill(TABLES[lang()][key] ?? en[key] ?? key, params);
}

// Each game's own words by its registered name: {en: {key: words}, es, pt}.
const GAME_WORDS = new Map();

/**
 * Add game `gameType`'s words (its web data's `words`, from its SDK package:
 * "b.<label>", "mode.<MODE>", "opt.<option>", "end.<termination>", ...), so
 * that a page shows them without naming the game.
 */
export function addGameWords(gameType, words) {
  if (words) GAME_WORDS.set(gameType, words);
}

/**
 * `key` in game `gameType`'s words in the page's language (else English),
 * `{name}` filled from `params`; else the page's own entry for `key` (words
 * every game shares); else `fallback`; else the id after
 * the key's prefix, in words ("end.last_stone" -> "last stone").
 */
export function gameWord(gameType, key, params = {}, fallback = null) {
  const table = GAME_WORDS.get(gameType);
  const text = table?.[lang()]?.[key] ?? table?.en?.[key];
  if (text !== undefined) return fill(text, params);
  if (key in en) return t(key, params);
  return fallback ?? key.slice(key.indexOf(".") + 1).replace(/[_:]+/g, " ");
}

/** gameWord for one game: a board module's `t`. */
export function gameWords(gameType) {
  return (key, params = {}, fallback = null) => gameWord(gameType, key, params, fallback);
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

// -- the page's frame (header, footer, language)
define("appTitle", "Throneroom", "Throneroom", "Throneroom");
define("navMain", "Main", "Principal", "Principal");
define("navLobby", "Lobby", "Vestíbulo", "Entrada");
define("navApi", "API", "API", "API");
define("footer", "Served by Throneroom. Bots seated from this page run in this browser tab.", "Servido por Throneroom. Los bots sentados desde esta página funcionan en esta pestaña del navegador.", "Servido pelo Throneroom. Os bots sentados a partir desta página funcionam neste separador do navegador.");
define("language", "Language", "Idioma", "Idioma");
define("languageLabel", "Language of the page and the descriptions", "Idioma de la página y de las descripciones", "Idioma da página e das descrições");
define("skipToBoard", "Skip to the board", "Saltar al tablero", "Saltar para o tabuleiro");
define("skipMoves", "Skip the list of moves", "Saltar la lista de jugadas", "Saltar a lista de jogadas");

// -- the game page
define("share", "Share", "Compartir", "Partilhar");
define("shareLabel", "Link to this game", "Enlace a esta partida", "Ligação para este jogo");
define("seatLink", "Your seat's link (it works in this browser, which keeps the token): ", "El enlace de tu asiento (funciona en este navegador, que guarda la clave): ", "A ligação do teu lugar (funciona neste navegador, que guarda a chave): ");
define("filterMoves", "filter moves", "filtrar jugadas", "filtrar jogadas");
define("filterLabel", "Filter the legal moves", "Filtrar las jugadas legales", "Filtrar as jogadas legais");
define("moves", "Moves", "Jugadas", "Jogadas");
define("yourMoves", "Your moves", "Tus jugadas", "As tuas jogadas");
define("log", "Log", "Registro", "Registo");
define("boardFailed", "This board cannot be drawn: {error}", "Este tablero no se puede dibujar: {error}", "Este tabuleiro não pode ser desenhado: {error}");
define("gameOver", "The game is over.", "La partida ha terminado.", "O jogo terminou.");
define("waiting", "Waiting for players: {free} free seat(s).", "Esperando jugadores: {free} asiento(s) libre(s).", "À espera de jogadores: {free} lugar(es) livre(s).");
define("yourTurn", "Your turn: click the board or pick a move in the list.", "Tu turno: haz clic en el tablero o elige una jugada de la lista.", "A tua vez: clica no tabuleiro ou escolhe uma jogada da lista.");
define("toAct", "To act: {who}.", "Le toca a: {who}.", "A jogar: {who}.");
define("nobody", "nobody", "nadie", "ninguém");
define("spectating", "You are spectating.", "Estás mirando.", "Estás a assistir.");
define("youPlay", "You play {seat}.", "Juegas como {seat}.", "Jogas como {seat}.");
define("versionLine", "Version {version}", "Versión {version}", "Versão {version}");
define("historyShown", " (history)", " (historial)", " (histórico)");
define("spectatorsNoMoves", "Spectators have no moves: join a free seat to play.", "Los espectadores no tienen jugadas: ocupa un asiento libre para jugar.", "Os espectadores não têm jogadas: ocupa um lugar livre para jogar.");
define("noMoveNow", "No move to make now.", "Ahora no hay jugada que hacer.", "Agora não há jogada a fazer.");
define("picked", "Picked on the board: {keys} ", "Elegido en el tablero: {keys} ", "Escolhido no tabuleiro: {keys} ");
define("clear", "Clear", "Borrar", "Limpar");
define("confirmAsk", "Your move:", "Tu jugada:", "A tua jogada:");
define("confirmMove", "Confirm", "Confirmar", "Confirmar");
define("cancelMove", "Cancel", "Cancelar", "Cancelar");
define("confirmLabel", "Confirm the move", "Confirmar la jugada", "Confirmar a jogada");
define("confirmToggle", "Confirm moves made with several clicks", "Confirmar las jugadas de varios clics", "Confirmar as jogadas de vários cliques");
define("noDescriptions", "This server gives no move descriptions: moves are shown as data.", "Este servidor no da descripciones de jugadas: se muestran como datos.", "Este servidor não dá descrições das jogadas: são mostradas como dados.");
define("botName", "Bot {seat}", "Bot {seat}", "Bot {seat}");
define("botForSeat", "Bot for seat {seat}: {error}", "Bot del asiento {seat}: {error}", "Bot do lugar {seat}: {error}");
define("legalMoves", "Legal moves", "Jugadas legales", "Jogadas legais");
define("moreMoves", "{count} more: type in the filter or click the board to narrow the list", "{count} más: escribe en el filtro o haz clic en el tablero para acotar la lista", "Mais {count}: escreve no filtro ou clica no tabuleiro para reduzir a lista");
define("yourTurnTitle", "Your turn", "Tu turno", "A tua vez");

// -- the panels
define("seatNamed", "{name} (seat {seat})", "{name} (asiento {seat})", "{name} (lugar {seat})");
define("seatN", "Seat {seat}", "Asiento {seat}", "Lugar {seat}");
define("seatFree", "Seat {seat}: free", "Asiento {seat}: libre", "Lugar {seat}: livre");
define("tagYou", "you", "tú", "tu");
define("tagBot", "bot: {policy}", "bot: {policy}", "bot: {policy}");
define("tagToAct", "to act", "le toca", "a jogar");
define("tagWinner", "winner", "ganador", "vencedor");
define("join", "Join", "Unirse", "Entrar");
define("stopBot", "Stop bot", "Parar el bot", "Parar o bot");
define("playThisSeat", "Play this seat", "Jugar este asiento", "Jogar este lugar");
define("botPolicy", "Bot policy", "Estrategia del bot", "Estratégia do bot");
define("policyRandom", "random legal move", "jugada legal al azar", "jogada legal ao acaso");
define("policyRule", "random, preferring action (attacks; cards over passing)", "al azar, prefiriendo actuar (ataques; cartas antes que pasar)", "ao acaso, preferindo agir (ataques; cartas em vez de passar)");
define("seats", "Seats", "Asientos", "Lugares");
define("seatBots", "Seat a bot in the {count} free seat(s)", "Sentar un bot en los {count} asiento(s) libre(s)", "Sentar um bot nos {count} lugar(es) livre(s)");
define("botsHere", "Bots run in this browser tab: they stop when it closes.", "Los bots funcionan en esta pestaña: se detienen al cerrarla.", "Os bots funcionam neste separador: param quando ele fecha.");
define("eventLog", "Event log", "Registro de sucesos", "Registo de acontecimentos");
define("setup", "Setup", "Preparación", "Preparação");
define("outOfTime", " (out of time)", " (sin tiempo)", " (sem tempo)");
define("showVersion", "Show version {version}", "Mostrar la versión {version}", "Mostrar a versão {version}");
define("versionShown", "Version shown", "Versión mostrada", "Versão mostrada");
define("history", "History", "Historial", "Histórico");
define("versionLive", "version {version} (live)", "versión {version} (en directo)", "versão {version} (em direto)");
define("versionOf", "version {version} of {live}", "versión {version} de {live}", "versão {version} de {live}");
define("backToLive", "Back to the live game", "Volver a la partida en directo", "Voltar ao jogo em direto");
define("gameOverTitle", "Game over", "Fin de la partida", "Fim do jogo");
define("wonBy", "Won by {winners}.", "Ganada por {winners}.", "Ganho por {winners}.");
define("and", " and ", " y ", " e ");
define("noWinner", "No winner.", "Sin ganador.", "Sem vencedor.");
define("endedBy", "Ended by: {how}", "Terminada por: {how}", "Terminado por: {how}");
define("tiebreaks", "; tie-breaks: {list}", "; desempates: {list}", "; desempates: {list}");

// How a game ended and its tie-breaks are the game's words (gameWord), the
// endings every game shares (a timeout, a forfeit) among them: the server adds
// those to each game's web data from the SDK's outcomes.SHARED_ENDINGS.

/** An identifier the server sends (a termination, a tie-break) in words: its entry, else its words. */
export function words(prefix, id, fallback = null) {
  const key = `${prefix}.${id}`;
  return key in en ? t(key) : fallback ?? String(id).replace(/[_:]+/g, " ");
}

// -- the lobby
define("filterOpen", "Open seats", "Asientos libres", "Lugares livres");
define("filterStarted", "Started", "Empezadas", "Começados");
define("filterFinished", "Finished", "Terminadas", "Terminados");
define("filterAny", "Any", "Todas", "Todos");
define("games", "Games", "Juegos", "Jogos");
define("openRecord", "Open a record file", "Abrir un archivo de registro", "Abrir um ficheiro de registo");
define("openRecordHelp", "A finished game's record (JSON or binary) from this computer, stepped through with its board.", "El registro de una partida terminada (JSON o binario) de este ordenador, recorrido con su tablero.", "O registo de um jogo terminado (JSON ou binário) deste computador, percorrido com o seu tabuleiro.");
define("players", "{min}–{max} players", "{min}–{max} jugadores", "{min}–{max} jogadores");
define("hiddenInfo", ", hidden information", ", información oculta", ", informação oculta");
define("simultaneous", ", simultaneous decisions", ", decisiones simultáneas", ", decisões simultâneas");
define("yourName", "your name", "tu nombre", "o teu nome");
define("createGame", "Create game", "Crear partida", "Criar jogo");
define("options", "Options", "Opciones", "Opções");
define("noOptions", "This game has no options.", "Este juego no tiene opciones.", "Este jogo não tem opções.");
define("seatCount", "{count} seats", "{count} asientos", "{count} lugares");
define("newGame", "New game", "Nueva partida", "Novo jogo");
define("game", "Game", "Juego", "Jogo");
define("yourNameLabel", "Your name", "Tu nombre", "O teu nome");
define("seedLabel", "Seed (optional)", "Semilla (opcional)", "Semente (opcional)");
define("random", "random", "al azar", "ao acaso");
define("takeFirstSeat", "Take the first seat", "Ocupar el primer asiento", "Ocupar o primeiro lugar");
define("gameType", "Game type", "Tipo de juego", "Tipo de jogo");
define("allGames", "All games", "Todos los juegos", "Todos os jogos");
define("status", "Status", "Estado", "Estado");
define("more", "More", "Más", "Mais");
define("refresh", "Refresh", "Actualizar", "Atualizar");
define("openGames", "Open games", "Partidas abiertas", "Jogos abertos");
define("noGameMatches", "No game matches. Create one!", "Ninguna partida coincide. ¡Crea una!", "Nenhum jogo corresponde. Cria um!");
define("rowSeats", "{taken}/{seats} seats", "{taken}/{seats} asientos", "{taken}/{seats} lugares");
define("rowVersion", "version {version}", "versión {version}", "versão {version}");
define("joinSeat", "Join seat {seat}", "Unirse al asiento {seat}", "Entrar no lugar {seat}");
define("spectate", "Spectate", "Mirar", "Assistir");
define("open", "Open", "Abrir", "Abrir");
define("noList", "This server has no game list (GET /v1/games): showing only the games created or joined in this browser.", "Este servidor no tiene lista de partidas (GET /v1/games): solo se muestran las creadas o unidas en este navegador.", "Este servidor não tem lista de jogos (GET /v1/games): só se mostram os jogos criados ou em que se entrou neste navegador.");
define("noneYet", "None yet. Create one, or open a link someone shared.", "Ninguna todavía. Crea una o abre un enlace compartido.", "Nenhum ainda. Cria um ou abre uma ligação partilhada.");
define("st.open", "open", "abierta", "aberto");
define("st.started", "started", "empezada", "começado");
define("st.finished", "finished", "terminada", "terminado");
define("ageNow", "just now", "ahora mismo", "agora mesmo");
define("ageMinutes", "{n} min ago", "hace {n} min", "há {n} min");
define("ageHours", "{n} h ago", "hace {n} h", "há {n} h");
define("ageDays", "{n} days ago", "hace {n} días", "há {n} dias");
define("yes", "yes", "sí", "sim");

// -- the record page
define("recordHelp", "A game record (JSON or binary, from ExportGame, `throneroom export` or a tournament's records) is replayed by the server, nothing stored, and shown with the game's board.", "El servidor reproduce un registro de partida (JSON o binario, de ExportGame, `throneroom export` o los registros de un torneo), sin guardar nada, y se muestra con el tablero del juego.", "O servidor reproduz um registo de jogo (JSON ou binário, de ExportGame, `throneroom export` ou dos registos de um torneio), sem guardar nada, e mostra-o com o tabuleiro do jogo.");
define("replaying", "Replaying {name}…", "Reproduciendo {name}…", "A reproduzir {name}…");
define("recordEmpty", "the record has no versions", "el registro no tiene versiones", "o registo não tem versões");
define("whoseView", "Whose view", "Vista de quién", "Vista de quem");
define("spectator", "Spectator", "Espectador", "Espectador");
define("lobbyBack", "← Lobby", "← Vestíbulo", "← Entrada");
define("recordName", " · Record {name} · ", " · Registro {name} · ", " · Registo {name} · ");
define("view", "View: ", "Vista: ", "Vista: ");
define("versions", "Versions", "Versiones", "Versões");
define("first", "First", "Primera", "Primeira");
define("previous", "Previous", "Anterior", "Anterior");
define("next", "Next", "Siguiente", "Seguinte");
define("last", "Last", "Última", "Última");
define("keysHelp", "Keys: ← → step, Home and End jump.", "Teclas: ← → paso a paso, Inicio y Fin saltan.", "Teclas: ← → passo a passo, Home e End saltam.");
define("spectatorView", "A spectator's view.", "La vista de un espectador.", "A vista de um espectador.");
define("seatView", "{seat}'s view.", "La vista de {seat}.", "A vista de {seat}.");
define("versionOfCap", "Version {version} of {last}", "Versión {version} de {last}", "Versão {version} de {last}");


// -- the end of a game, the record, attention
define("scoreTable", "Result", "Resultado", "Resultado");
define("colSeat", "Seat", "Asiento", "Lugar");
define("colPlayer", "Player", "Jugador", "Jogador");
define("colResult", "Result", "Resultado", "Resultado");
define("colScore", "Score", "Puntos", "Pontos");
define("won", "won", "ganó", "ganhou");
define("lost", "—", "—", "—");
define("record", "Download the game's record", "Descargar el registro de la partida", "Descarregar o registo do jogo");
define("rematch", "Rematch (same settings)", "Revancha (misma configuración)", "Desforra (mesma configuração)");
define("rematchFailed", "The rematch could not be created: {error}", "No se pudo crear la revancha: {error}", "Não foi possível criar a desforra: {error}");
define("lastMove", "Highlighted on the board: what the last move changed.", "Resaltado en el tablero: lo que cambió la última jugada.", "Destacado no tabuleiro: o que a última jogada mudou.");
define("zoomIn", "Zoom in on the board", "Acercar el tablero", "Aproximar o tabuleiro");
define("zoomOut", "Zoom out", "Alejar", "Afastar");
define("zoomFit", "Fit", "Ajustar", "Ajustar");
