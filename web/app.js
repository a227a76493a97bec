// app.js: the page. It keeps the game's record (settings, start position, moves), asks c4 for
// everything the rules decide (the board, whose turn, the result, the scores) and draws it.
// All talk with c4 goes through c4-client.js.
//
// The commands it sends (protocol.md): `protocol_version`, `name`, `version` on connecting;
// `new`, `name TOKEN NAME`, `position startpos|fen … moves …` to set up or restore a game;
// `status` and `fen` after every change; `play`, `undo N`, `hint`; `genmove LEVEL` for the
// computer's moves; `analyze stream interval 250` while a person thinks (the next command ends
// it; in a worker, bounded: see ANALYSIS); `stop` to end a `genmove` or `hint` early (in a worker,
// the client replaces the worker instead and sets the game up in the new one: see interrupt).

import { C4Client, ConnectionLost, Interrupted, RefusedError } from "./c4-client.js";

// ---------------------------------------------------------------------------------------------
// The record of the game. It is the page's own: saved in the browser after every change and
// replayed into a new c4 after a reconnect or a reload, so nothing the player did is lost.

const DEFAULT_TOKENS = "xoabcdef"; // protocol.md: `players N` gives these tokens
const DEFAULT_COLOURS = ["#d7263d", "#f2b705", "#1b6ec2", "#2a9d3f", "#8e44ad", "#e8710a", "#0fa3b1", "#7a4b2a"];
const SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "star", "cross", "pentagon"];
// Who plays a player: a person, or the computer at one of the protocol's levels (`genmove LEVEL`).
const LEVELS = [
  ["person", "a person"],
  ["perfect", "perfect play"],
  ["perfect movetime 5000", "perfect, 5 s a move"],
  ["lookahead 8", "look-ahead 8"],
  ["lookahead 4", "look-ahead 4"],
  ["lookahead 2", "look-ahead 2"],
  ["random", "random moves"],
];

function levelWords(level) {
  const words = LEVELS.find(([value]) => value === level)?.[1] ?? level;
  return level === "person" ? words : `computer: ${words}`;
}
const STORAGE_KEY = "c4-gui-game";

function defaultGame() {
  return {
    width: 7,
    height: 6,
    connect: 4,
    earlyDraw: false,
    players: [
      { token: "x", name: "You", colour: DEFAULT_COLOURS[0], level: "person" },
      { token: "o", name: "Computer", colour: DEFAULT_COLOURS[1], level: "perfect" },
    ],
    start: null, // a FEN the game started from, or null for the empty board
    moves: [], // columns (1-based) played since the start
  };
}

// A colour as the page stores and draws it; nothing else is put into a style.
const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Why a player of a saved record cannot be used, in words (never quoting the record), or null. */
function playerFault(player) {
  if (player === null || typeof player !== "object") return "entry is not a player";
  const { token, name, colour, level } = player;
  if (typeof token !== "string" || [...token].length !== 1 || /[\s#\p{Cc}]/u.test(token)) {
    return "token is not one character (a space or '#' cannot be one)";
  }
  if (typeof name !== "string" || name.length === 0 || name.length > 64 || /[#\p{Cc}]/u.test(name)) {
    return "name is not 1-64 characters without '#'";
  }
  if (typeof colour !== "string" || !COLOUR.test(colour)) return "colour is not a colour (#rrggbb)";
  if (!LEVELS.some(([value]) => value === level)) return "player is neither a person nor a computer level of this page";
  return null;
}

/** Why a saved record cannot be set up, in words (never quoting it), or null: every field is
 * checked for its type, length and range, as the new-game dialog would have made it. */
function recordFault(record) {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return "it is not a game";
  const whole = (value, lo, hi) => Number.isInteger(value) && value >= lo && value <= hi;
  if (!whole(record.width, 1, 16) || !whole(record.height, 1, 16)) return "its board is not 1-16 cells a side";
  if (!whole(record.connect, 2, 16)) return "its connect length is not 2-16";
  if (typeof record.earlyDraw !== "boolean") return "its early draw rule is neither on nor off";
  const players = record.players;
  if (!Array.isArray(players) || players.length < 2 || players.length > 8) return "it does not have 2-8 players";
  for (const [i, player] of players.entries()) {
    const fault = playerFault(player);
    if (fault !== null) return `player ${i + 1}'s ${fault}`;
  }
  if (new Set(players.map((p) => p.token)).size !== players.length) return "two players have the same token";
  const start = record.start;
  if (start !== null && (typeof start !== "string" || start.length > 400 || /[#\p{Cc}]/u.test(start))) {
    return "its start position is not a FEN";
  }
  const moves = record.moves;
  if (!Array.isArray(moves) || moves.length > record.width * record.height || !moves.every((m) => whole(m, 1, record.width))) {
    return "its moves are not columns of its board";
  }
  return null;
}

// Why the saved game was not used, for the page to say once it is drawn (null: it was, or there
// was none).
let savedGameFault = null;

/** The game saved in the browser, checked (see recordFault) and copied field by field; null if
 * there is none or it cannot be used (savedGameFault then says why). */
function loadGame() {
  let record;
  try {
    record = JSON.parse(localStorage.getItem(STORAGE_KEY));
  } catch (error) {
    // storage may be off (private mode): nothing is saved; text that is not JSON is a fault
    if (error instanceof SyntaxError) savedGameFault = "it is not a record of a game";
    return null;
  }
  if (record === null) return null;
  savedGameFault = recordFault(record);
  if (savedGameFault !== null) return null;
  const { width, height, connect, earlyDraw, start, moves } = record;
  const players = record.players.map(({ token, name, colour, level }) => ({ token, name, colour, level }));
  return { width, height, connect, earlyDraw, players, start, moves: [...moves] };
}

function saveGame() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(game));
  } catch {
    // storage may be off (private mode): the game still lives in the page
  }
}

let game = loadGame() ?? defaultGame();

// What c4 last said about the position (see refresh()), and the `generation` it was read in.
let view = null;

// ---------------------------------------------------------------------------------------------
// Reading c4's replies.

/** A FEN's board as rows of tokens (null for empty), bottom row first. */
function parseFen(fen) {
  const [rowsText, toMove] = fen.trim().split(" ");
  const rows = rowsText.split("/").map((rowText) => {
    const row = [];
    for (const part of rowText.match(/\d+|./g)) {
      if (/^\d+$/.test(part)) for (let i = 0; i < Number(part); i++) row.push(null);
      else row.push(part);
    }
    return row;
  });
  return { rows, width: rows[0].length, height: rows.length, toMove };
}

/** A cell name (`d4`) as 1-based column and row. */
function parseCell(cell) {
  return { col: cell.charCodeAt(0) - 96, row: Number(cell.slice(1)) };
}

/** The multi-line reply of `status`. */
function parseStatus(lines, width) {
  const status = {
    toMove: null, ply: 0, moves: [], result: { kind: "in-progress", lines: [] }, noLineLeft: false,
  };
  for (const line of lines) {
    const [key, ...rest] = line.split(" ");
    if (key === "to-move") status.toMove = rest[0] === "none" ? null : rest[0];
    else if (key === "ply") status.ply = Number(rest[0]);
    else if (key === "moves") status.moves = parseMoveList(rest.join(" "), width);
    else if (key === "result") {
      if (rest[0] === "win") status.result = { kind: "win", winner: rest[1], lines: [] };
      else if (rest[0] === "draw") status.result = { kind: "draw", reason: rest[1], lines: [] };
    } else if (key === "line") {
      status.result.lines.push({ direction: rest[0], cells: rest.slice(1).map(parseCell) });
    } else if (key === "note" && rest[0] === "no-line-left") {
      status.noLineLeft = true;
    }
  }
  return status;
}

/** `status`'s move list: one digit per column on boards up to 9 wide, else numbers and spaces. */
function parseMoveList(text, width) {
  if (text === "") return [];
  if (text.includes(" ") || width > 9) return text.split(" ").map(Number);
  return [...text].map(Number);
}

/** The moves as c4 reads them on any board: numbers separated by spaces. */
function moveText(moves) {
  return moves.join(" ");
}

// ---------------------------------------------------------------------------------------------
// Scores in words.

/**
 * One column's exact score in words. protocol.md: scores are from the side to move; a win on ply
 * P (the stones on the board once the winning one is down) scores (cells + 2 - P) / 2 rounded
 * down, a loss the negative, a draw 0. `moves` counts the winner's own moves from now, this
 * column's included.
 */
function exactScoreWords(score, position) {
  const { cells, ply, mover, other } = position;
  if (score === 0) return { short: "draw", rest: "", long: "draw with perfect play", winner: null };
  const moverWins = score > 0;
  const winner = moverWins ? mover : other;
  // The winner's stones land on plies of one parity (the mover's on ply + 1, ply + 3, ...): the
  // win is on the one of cells + 2 - 2|score| and the ply below it that has it.
  const firstPly = moverWins ? ply + 1 : ply + 2;
  const highest = cells + 2 - 2 * Math.abs(score);
  const winPly = (highest - firstPly) % 2 === 0 ? highest : highest - 1;
  const moves = (winPly - firstPly) / 2 + 1;
  // The first player's stones land on odd plies, the second's on even ones.
  const stone = Math.floor((winPly + 1) / 2);
  const long = `${winner} wins with its ${ordinal(stone)} stone, on ply ${winPly}`;
  if (moverWins && moves === 1) return { short: `${winner} wins`, rest: "now", long, winner };
  return { short: `${winner} wins`, rest: `in ${moves}`, long, winner };
}

/** A column's bounds while the search runs (`-19..8`), in words. */
function boundWords(lo, hi, position) {
  const { mover, other } = position;
  if (lo > 0) return { short: `${mover} wins`, rest: "…", long: `${mover} wins (still searching how fast)`, winner: mover };
  if (hi < 0) return { short: `${other} wins`, rest: "…", long: `${other} wins (still searching how fast)`, winner: other };
  if (lo === 0) return { short: `${mover} draws`, rest: "or wins…", long: `${mover} draws or wins (still searching)`, winner: null };
  if (hi === 0) return { short: `${other} draws`, rest: "or wins…", long: `${other} draws or wins (still searching)`, winner: null };
  return { short: "…", rest: "", long: "still searching", winner: null };
}

/** The heuristic's value of a column (0 loss to 100 win), where the solver does not play. */
function valueWords(value, position) {
  const { mover } = position;
  if (value === 100) return { short: `${mover} wins`, rest: "", long: `${mover} can force a win`, winner: mover };
  if (value === 0) return { short: `${mover} loses`, rest: "", long: `${mover} cannot avoid a loss`, winner: null };
  return { short: String(value), rest: "of 100", long: `estimate ${value} of 100 for ${mover} (a 5-move look-ahead, not exact)`, winner: null };
}

function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}

// ---------------------------------------------------------------------------------------------
// The connection.

const params = new URLSearchParams(location.search);
// Which c4 (c4-client.js): by default c4 as WebAssembly in a worker of this page (web/build's
// static folder); `?engine=native`, a native c4 through a WebSocket to the server of this page
// (`c4 serve`); `?engine=ws://HOST:PORT/PATH`, one elsewhere, once the user has confirmed it.
const CHOSEN = engineOf(params.get("engine"));
const ENGINE = CHOSEN.engine;

// The analysis while a person thinks. A worker reads the next command only when its search ends
// (crates/c4-wasm, "Stopping"), and interrupting it means a fresh worker with a cold table (see
// interrupt), too much for every move a person makes; so there it is bounded to about a second of
// search (5 million positions), and the page shows the bounds proven so far, as it does while a
// native c4 searches on.
const ANALYSIS = ENGINE.startsWith("worker:")
  ? "analyze stream interval 250 nodes 5000000"
  : "analyze stream interval 250";

/**
 * The engine `?engine=` asks for, as C4Client takes it, and why another was taken instead, if it
 * was. A WebSocket to this page's own server (the same host and port, ws: for http:, wss: for
 * https:) is taken as it is; one elsewhere only if the user confirms it, since a link could
 * otherwise hand the game and the players' names to anyone's server. Anything else, or an
 * address the user declines, leaves c4 in the page.
 */
function engineOf(asked) {
  const inPage = "worker:";
  if (asked === null || asked === "worker") return { engine: inPage };
  const own = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}`;
  if (asked === "native") return { engine: `${own}/engine` };
  let url = null;
  try {
    url = new URL(asked);
  } catch {
    // not an address: said below
  }
  if (url === null || (url.protocol !== "ws:" && url.protocol !== "wss:")) {
    return { engine: inPage, declined: "The page's address asks for an engine that is not a ws:// or wss:// address; c4 runs in this page instead." };
  }
  if (`${url.protocol}//${url.host}` === own) return { engine: url.href };
  const question = `This link asks the page to play through an engine at ${url.href}, which is not this page's own server. It would see your game and the players' names. Connect to it?`;
  if (window.confirm(question)) return { engine: url.href };
  return { engine: inPage, declined: `The engine at ${url.href} was not used (it is not this page's own server); c4 runs in this page instead.` };
}

let engine = null; // the connection, once c4 holds the game (see connect)
let socket = null; // the connection being opened or in use
let engineName = "";
let reconnectTimer = null;
let reconnectDelay = 1000;

function online() {
  return engine !== null;
}

/** Sends a command to c4; without a connection, fails as a lost connection does. */
function send(command, options) {
  if (engine === null) return Promise.reject(new ConnectionLost(command));
  return engine.send(command, options);
}

async function connect() {
  clearTimeout(reconnectTimer);
  reconnectTimer = null;
  if (socket !== null) return;
  const client = new C4Client(ENGINE);
  socket = client;
  showConnection("Connecting to the engine…", false);
  try {
    await client.connect();
  } catch {
    connectionLost(client);
    return;
  }
  client.addEventListener("close", (event) => connectionLost(client, event.detail?.reason));
  // The handshake and the restore run in turn with the page's actions, on this connection only.
  await act(async () => {
    const ask = (command) => client.send(command);
    try {
      const version = await ask("protocol_version");
      if (version.text !== "3") throw new Error(`c4 speaks protocol ${version.text}; this page speaks 3`);
      engineName = `${(await ask("name")).text} ${(await ask("version")).text}`;
      $("engine").textContent = `Engine: ${engineName}, protocol ${version.text}`;
      try {
        await restore(game, ask);
      } catch (error) {
        if (!(error instanceof RefusedError)) throw error;
        showMessage(`The saved game could not be set up (c4 refused '${error.command}': ${error.message}); a new game starts.`, "error");
        game = defaultGame();
        await restore(game, ask);
      }
    } catch (error) {
      if (error instanceof ConnectionLost) return; // connectionLost has it in hand
      // The engine answers but cannot serve this page: say why, and let Reconnect try again.
      socket = null;
      client.close();
      showConnection(`The engine cannot be used: ${error.message ?? error}`, true);
      setStatus("No engine.");
      return;
    }
    engine = client;
    reconnectDelay = 1000;
    hideConnection();
    changed();
  });
}

function connectionLost(client, reason = "its connection closed") {
  if (socket !== client) return;
  socket = null;
  engine = null;
  generation++;
  thinking = null;
  const seconds = Math.round(reconnectDelay / 1000);
  showConnection(`The engine is not answering: ${reason}. Your game is kept and will be restored when it is back. Trying again in ${seconds} s.`, true);
  setStatus("No engine: reconnecting…");
  $("engine").textContent = "Engine: not connected";
  document.body.dataset.turn = "offline";
  render();
  reconnectTimer = setTimeout(connect, reconnectDelay);
  reconnectDelay = Math.min(reconnectDelay * 2, 10000);
}

/** The commands that set c4 up with the game's record: its settings, names, start position and
 * moves. */
function setupCommands(record) {
  const tokens = record.players.map((p) => p.token).join("");
  const commands = [
    `new ${record.width}x${record.height} connect ${record.connect} tokens ${tokens} early-draw ${record.earlyDraw ? "on" : "off"}`,
    ...record.players.map((player) => `name ${player.token} ${player.name}`),
  ];
  const moves = record.moves.length ? ` moves ${moveText(record.moves)}` : "";
  if (record.start) commands.push(`position fen ${record.start}${moves}`);
  else if (moves) commands.push(`position startpos${moves}`);
  return commands;
}

/** Sets c4 up with the game's record, a command at a time. */
async function restore(record, ask = send) {
  for (const command of setupCommands(record)) await ask(command);
}

/** Asks c4 for the position (`status` and `fen`) of generation `mine` and draws it. */
async function refresh(mine) {
  const [status, fen] = await Promise.all([send("status"), send("fen")]);
  const board = parseFen(fen.text);
  const parsed = parseStatus(status.lines, board.width);
  // The ply the game's record starts from (a pasted FEN may have stones already).
  const startPly = parsed.ply - game.moves.length;
  view = { ...parsed, board, fen: fen.text, startPly, generation: mine };
  game.width = board.width;
  game.height = board.height;
  saveGame();
  render();
}

// ---------------------------------------------------------------------------------------------
// Turns. Every action that talks to c4 runs in `act`, one at a time. `generation` counts the
// changes of position, so that a computer move or an analysis asked for before a change is
// dropped after it.

let chain = Promise.resolve();
let generation = 0;
let thinking = null; // what c4 is searching for the page (a `genmove` or `hint`), if anything
let analysis = null; // the running analysis: {generation, scores, info}
let animateColumn = null;
let hintColumn = null;

function act(fn) {
  chain = chain.then(fn).catch(report);
  return chain;
}

/** Ends a `genmove` or `hint` search at once: natively a `stop` right after it (protocol.md),
 * which answers it; in a worker, a fresh worker set up with the game's record, which answers
 * it with Interrupted (c4-client.js). Either way c4 then holds the game as the record has it,
 * once computerMove has taken back the move a stopped `genmove` plays. */
function interrupt() {
  if (thinking) engine?.interrupt(setupCommands(game));
}

/**
 * For an action that changes the position: a computer move or hint asked for before it is
 * dropped, and a search already running is stopped (see interrupt), so that the action finds
 * the game as it was.
 */
function supersede() {
  generation++;
  interrupt();
  markBusy();
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function playerOf(token) {
  return game.players.find((p) => p.token === token);
}

function isOver() {
  return view !== null && view.result.kind !== "in-progress";
}

function humanToMove() {
  return view !== null && !isOver() && playerOf(view.toMove)?.level === "person";
}

/** After every change of position: draw it, then let a computer move or analyse for a person. */
function changed() {
  generation++;
  analysis = null;
  markBusy();
  const mine = generation;
  act(async () => {
    if (mine !== generation || !online()) return;
    await refresh(mine);
    if (isOver()) return;
    const player = playerOf(view.toMove);
    if (player.level === "person") {
      startAnalysis(mine);
      return;
    }
    // Computers that play each other wait a moment between moves, so that people can follow.
    if (lastMover()?.level !== "person" && game.moves.length > 0) {
      setStatus(`${player.name} (${player.token}) is thinking…`);
      await pause(600);
      if (mine !== generation) return;
    }
    await computerMove(mine, player);
  });
}

async function computerMove(mine, player) {
  if (mine !== generation) return; // an undo or a new game came while the board was read
  setStatus(`${player.name} (${player.token}) is thinking…`);
  thinking = "genmove";
  let reply;
  try {
    // In a worker, an interrupted search is rejected (Interrupted): it played nothing.
    reply = await send(`genmove ${player.level}`);
  } finally {
    thinking = null;
  }
  if (mine !== generation) {
    // An undo, a new game or a paste stopped the search, and a native c4 played what it had
    // found: take it back, so that the action finds the game as it was, and one that c4 refuses
    // leaves it so (the computer then thinks again).
    await send("undo 1");
    return;
  }
  const column = Number(/bestmove (\d+)/.exec(reply.text)[1]);
  game.moves.push(column);
  saveGame();
  animateColumn = column;
  changed();
}

function startAnalysis(mine) {
  render();
  if (!document.getElementById("show-scores").checked) return;
  analysis = { generation: mine, scores: null, state: "started", depth: 0, info: "Analysing…" };
  renderScores();
  send(ANALYSIS, {
    onLine: (line) => {
      if (analysis?.generation === mine) readInfo(line);
    },
  }).catch(() => {}); // ended by the next command; a lost connection is reported elsewhere
}

/** One `info` line of `analyze stream` (protocol.md). */
function readInfo(line) {
  const words = line.split(" ");
  const field = (name) => words.indexOf(name);
  const width = view.board.width;
  const nodes = Number(words[field("nodes") + 1]);
  const pv = words.slice(field("pv") + 1).map(Number);
  if (field("scores") >= 0) {
    const scores = words.slice(field("scores") + 1, field("scores") + 1 + width).map(parseScore);
    const open = scores.filter((s) => s.kind !== "full");
    const done = open.every((s) => s.kind === "exact");
    const source = nodes === 0 ? "from the opening book" : `after ${nodes.toLocaleString("en")} positions`;
    const state = done ? `Exact scores ${source}.` : `Searching… ${nodes.toLocaleString("en")} positions so far.`;
    analysis.scores = scores;
    analysis.state = done ? "exact" : "searching";
    analysis.info = `${state} Best line: ${pv.join(" ")}.`;
  } else {
    const depth = words[field("depth") + 1];
    const values = words.slice(field("values") + 1, field("values") + 1 + width);
    analysis.scores = values.map((v) => (v === "full" ? { kind: "full" } : { kind: "value", value: Number(v) }));
    analysis.state = "estimate";
    analysis.depth = Number(depth);
    analysis.info = `Estimates from a ${depth}-move look-ahead (the exact solver plays two players, connect 4, boards up to width × (height + 1) ≤ 64). Best column: ${pv[0]}.`;
  }
  renderScores();
  renderLog();
}

function parseScore(word) {
  if (word === "full") return { kind: "full" };
  const bounds = /^(-?\d+)\.\.(-?\d+)$/.exec(word);
  if (bounds) return { kind: "bounds", lo: Number(bounds[1]), hi: Number(bounds[2]) };
  return { kind: "exact", score: Number(word) };
}

// ---------------------------------------------------------------------------------------------
// What people do.

function drop(column) {
  // Only on the board shown for the position as it now is (not one a change has just replaced).
  if (!online() || !humanToMove() || !isCurrent()) return;
  if (view.board.rows[view.board.height - 1][column - 1] !== null) {
    showMessage(`Column ${column} is full.`, "error");
    return;
  }
  if (thinking === "hint") interrupt();
  const mine = generation;
  act(async () => {
    if (mine !== generation) return;
    hideMessage();
    hintColumn = null;
    // The move is in the record before c4 answers: if the connection goes now, the restore
    // plays it. If c4 refuses it, it is taken out again.
    game.moves.push(column);
    saveGame();
    try {
      await send(`play ${column}`);
    } catch (error) {
      if (error instanceof RefusedError) {
        game.moves.pop();
        saveGame();
      }
      throw error;
    }
    animateColumn = column;
    changed();
  });
}

function undo() {
  if (!online() || view === null) return;
  const count = undoCount();
  if (count === 0) {
    showMessage("There is nothing to undo: no move was played since the game started.", "info");
    return;
  }
  supersede();
  act(async () => {
    const n = undoCount();
    if (n === 0) {
      changed(); // nothing to take back after all: show the position again
      return;
    }
    await send(`undo ${n}`);
    game.moves.splice(game.moves.length - n, n);
    saveGame();
    hideMessage();
    hintColumn = null;
    changed();
  });
}

/** Back to before the last move of a person, so that a person is to move again. */
function undoCount() {
  const n = game.players.length;
  const startPly = view.startPly;
  const people = game.players.map((p) => p.level === "person");
  if (!people.some(Boolean)) return Math.min(1, game.moves.length);
  for (let i = game.moves.length - 1; i >= 0; i--) {
    if (people[(startPly + i) % n]) return game.moves.length - i;
  }
  return 0;
}

function hint() {
  if (!online() || !humanToMove()) return;
  const mine = generation;
  act(async () => {
    if (mine !== generation) return;
    setStatus("Looking for a hint…");
    thinking = "hint";
    let reply;
    try {
      reply = await send("hint");
    } finally {
      thinking = null;
    }
    if (mine !== generation) return;
    hintColumn = Number(/column (\d+)/.exec(reply.text)?.[1]);
    showMessage(`Hint: ${reply.text}.`, "info");
    startAnalysis(mine);
  });
}

function setUp(text) {
  text = text.trim().replace(/\s+/g, " ");
  if (text === "" || !online()) return;
  supersede();
  // A FEN's rows are separated by '/', but a one-row board's FEN has none: "fen …" or
  // "moves …" says which the text is.
  const prefixed = /^(fen|moves) (.+)$/i.exec(text);
  const isFen = prefixed ? prefixed[1].toLowerCase() === "fen" : text.includes("/");
  if (prefixed) text = prefixed[2];
  act(async () => {
    const [start] = text.split(" moves ");
    const reply = await send(isFen ? `position fen ${text}` : `position startpos moves ${text}`);
    const fen = parseFen((await send("fen")).text);
    const status = parseStatus((await send("status")).lines, fen.width);
    game.start = isFen ? start : null;
    game.moves = status.moves;
    saveGame();
    hintColumn = null;
    document.getElementById("paste").value = "";
    showMessage(`Set up: ${reply.text}.`, "info");
    changed();
  });
}

/** Starts the game set in the dialog; a setting c4 refuses is shown there and nothing changes. */
async function startGame(settings) {
  supersede();
  let refused = null;
  await act(async () => {
    try {
      await restore(settings);
    } catch (error) {
      if (error instanceof ConnectionLost) {
        refused = error; // the dialog stays open: the game that was on comes back on reconnecting
        return;
      }
      if (!(error instanceof RefusedError)) throw error;
      refused = error;
      await restore(game); // back to the game that was on
      changed();
      return;
    }
    game = settings;
    saveGame();
    hideMessage();
    hintColumn = null;
    changed();
  });
  return refused;
}

// ---------------------------------------------------------------------------------------------
// Drawing.

const $ = (id) => document.getElementById(id);
let cursor = 4;

const SVG = "http://www.w3.org/2000/svg";
// Each shape's element and attributes, in a 100 x 100 box.
const SHAPE_PARTS = {
  circle: ["circle", { cx: 50, cy: 50, r: 44 }],
  square: ["rect", { x: 9, y: 9, width: 82, height: 82, rx: 10 }],
  triangle: ["polygon", { points: "50,5 95,90 5,90" }],
  diamond: ["polygon", { points: "50,3 97,50 50,97 3,50" }],
  hexagon: ["polygon", { points: "27,8 73,8 96,50 73,92 27,92 4,50" }],
  star: ["polygon", { points: "50,3 61,37 97,37 68,58 79,94 50,72 21,94 32,58 3,37 39,37" }],
  cross: ["polygon", { points: "35,4 65,4 65,35 96,35 96,65 65,65 65,96 35,96 35,65 4,65 4,35 35,35" }],
  pentagon: ["polygon", { points: "50,4 96,38 78,94 22,94 4,38" }],
};

/** A colour to draw with: a `#rrggbb` colour as it is, anything else grey. */
function safeColour(colour) {
  return COLOUR.test(colour) ? colour : "#888888";
}

function svgElement(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** Player `index`'s token as an SVG element, built with the DOM (no markup): its shape, its
 * colour and, if given, the token's character as text. */
function shapeSvg(index, colour, token) {
  const shape = SHAPES[index % SHAPES.length];
  const svg = svgElement("svg", { viewBox: "0 0 100 100", class: `token ${shape}`, "aria-hidden": "true" });
  svg.style.setProperty("--colour", safeColour(colour));
  const [tag, attributes] = SHAPE_PARTS[shape];
  svg.append(svgElement(tag, attributes));
  if (token) {
    const y = shape === "triangle" ? 72 : shape === "pentagon" ? 64 : 62;
    const label = svgElement("text", { x: 50, y, "text-anchor": "middle" });
    label.textContent = token;
    svg.append(label);
  }
  return svg;
}

function playerIndex(token) {
  return game.players.findIndex((p) => p.token === token);
}

function render() {
  if (view === null) return;
  const { width, height, rows } = view.board;
  document.documentElement.style.setProperty("--cols", width);
  document.documentElement.style.setProperty("--rows", height);
  cursor = Math.min(Math.max(cursor, 1), width);

  const canDrop = canDropNow();
  const drops = $("drops");
  // The buttons are made again below: keyboard focus on one goes to its successor, or to the
  // board (whose arrow keys and Enter play) while it cannot be pressed.
  const focused = document.activeElement;
  const focusedCol = focused?.classList.contains("drop") ? Number(focused.dataset.col) : null;
  drops.innerHTML = "";
  for (let col = 1; col <= width; col++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "drop";
    button.dataset.col = col;
    button.textContent = col;
    const full = rows[height - 1][col - 1] !== null;
    button.disabled = !canDrop || full;
    button.setAttribute("aria-label", `Drop in column ${col}${full ? " (full)" : ""}`);
    if (col === hintColumn) button.classList.add("hinted");
    button.addEventListener("click", () => drop(col));
    drops.append(button);
  }
  if (focusedCol !== null) {
    const again = drops.children[focusedCol - 1];
    if (again && !again.disabled) again.focus();
    else $("board").focus();
  }

  const winning = new Set();
  for (const line of view.result.lines) for (const { col, row } of line.cells) winning.add(`${col},${row}`);
  const lastCol = game.moves.length ? game.moves[game.moves.length - 1] : null;
  let lastRow = 0;
  if (lastCol !== null) for (let r = 0; r < height; r++) if (rows[r][lastCol - 1] !== null) lastRow = r + 1;

  const board = $("board");
  board.innerHTML = "";
  board.classList.toggle("disabled", !canDrop);
  for (let row = height; row >= 1; row--) {
    for (let col = 1; col <= width; col++) {
      const cell = document.createElement("div");
      const token = rows[row - 1][col - 1];
      const name = `${String.fromCharCode(96 + col)}${row}`;
      cell.className = "cell";
      cell.dataset.cell = name;
      cell.dataset.col = col;
      if (col === cursor) cell.classList.add("cursor-col");
      if (token !== null) {
        const index = playerIndex(token);
        cell.append(shapeSvg(index, game.players[index]?.colour, token));
        cell.dataset.token = token;
        if (winning.has(`${col},${row}`)) cell.classList.add("win");
        if (col === lastCol && row === lastRow) {
          cell.classList.add("last");
          if (animateColumn === col) {
            cell.classList.add("falling");
            cell.style.setProperty("--fall", height - row + 1);
          }
        }
      }
      cell.addEventListener("click", () => drop(col));
      board.append(cell);
    }
  }
  animateColumn = null;

  renderStatus();
  renderPlayers();
  renderMoves();
  renderScores();
  renderLog();
  $("fen").value = view.fen;
  $("moves-text").value = width <= 9 ? game.moves.join("") : game.moves.join(" ");
  $("undo").disabled = !online() || undoCount() === 0;
  document.body.dataset.turn = turnNow();
  $("hint").disabled = !canDrop;
}

/** Whether the board shown is the position as it now is, not one a change is replacing. */
function isCurrent() {
  return view !== null && view.generation === generation;
}

/** Whether a person may drop a stone (or ask for a hint) now. */
function canDropNow() {
  return isCurrent() && online() && humanToMove() && thinking === null;
}

/** For tests and scripts (`document.body.dataset.turn`): who is to act now. "busy" while a
 * change of position is read from c4, during which a drop would be dropped. */
function turnNow() {
  if (!online()) return "offline";
  if (!isCurrent()) return "busy";
  return isOver() ? "over" : humanToMove() ? "person" : "computer";
}

/** A change of position has begun: until it is drawn, nothing can be dropped. The rest of the
 * page stays as it is, since the board shown may belong to another game than the record. */
function markBusy() {
  const drops = $("drops");
  // A button turned off drops the keyboard's focus to the page; the board keeps it, as render()
  // does while the buttons cannot be pressed.
  if (drops.contains(document.activeElement)) $("board").focus();
  for (const button of drops.children) button.disabled = true;
  $("hint").disabled = true;
  document.body.dataset.turn = turnNow();
}

/** The last protocol lines, for people who want to see what the page and c4 say. */
function renderLog() {
  if (!$("log-box").open || socket === null) return;
  const log = $("log");
  log.textContent = socket.log.join("\n");
  log.scrollTop = log.scrollHeight;
}

function renderStatus() {
  if (!online()) return;
  const result = view.result;
  if (result.kind === "win") {
    const p = playerOf(result.winner);
    const lines = result.lines.map(
      (l) => `a ${directionWords(l.direction)} line of ${l.cells.length}: ${l.cells.map(cellName).join(" ")}`,
    );
    setStatus(`${p.name} (${p.token}) wins with ${lines.join(" and ")}.`, "over");
  } else if (result.kind === "draw") {
    const why = result.reason === "board-full"
      ? "the board is full"
      : `nobody can complete a line of ${game.connect} any more (${plural(cellsLeft(), "cell")} still empty)`;
    setStatus(`Draw: ${why}.`, "over");
  } else if (thinking === null) {
    const p = playerOf(view.toMove);
    const last = lastMover();
    const played = last ? `${last.name} (${last.token}) played column ${game.moves[game.moves.length - 1]}. ` : "";
    // Standard rules play on to a full board; say that nothing can be won any more.
    const drawn = view.noLineLeft ? ` Nobody can complete a line of ${game.connect} any more: the game will be a draw.` : "";
    setStatus(`${played}${p.name} (${p.token}) ${p.level === "person" ? "to move." : "is thinking…"}${drawn}`);
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The player who made the last move of the record, if any. */
function lastMover() {
  if (view === null || game.moves.length === 0) return null;
  return game.players[(view.startPly + game.moves.length - 1) % game.players.length];
}

function cellsLeft() {
  return view.board.rows.flat().filter((t) => t === null).length;
}

function cellName({ col, row }) {
  return `${String.fromCharCode(96 + col)}${row}`;
}

function directionWords(direction) {
  return { horizontal: "horizontal", vertical: "vertical", "diagonal-up": "rising diagonal", "diagonal-down": "falling diagonal" }[direction] ?? direction;
}

function renderPlayers() {
  const list = $("players");
  list.innerHTML = "";
  game.players.forEach((p, i) => {
    const item = document.createElement("li");
    if (view.toMove === p.token && !isOver()) item.classList.add("to-move");
    const level = levelWords(p.level);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = `${p.name} (${p.token})`;
    const levelText = document.createElement("span");
    levelText.className = "level";
    levelText.textContent = level;
    item.append(shapeSvg(i, p.colour, p.token), name, levelText);
    list.append(item);
  });
}

function renderMoves() {
  const list = $("move-list");
  list.innerHTML = "";
  const n = game.players.length;
  const startPly = view.startPly;
  game.moves.forEach((col, i) => {
    const item = document.createElement("li");
    item.value = startPly + i + 1;
    const p = game.players[(startPly + i) % n];
    const text = document.createElement("span");
    text.textContent = `${p.token} ${col}`;
    item.append(shapeSvg((startPly + i) % n, p.colour, ""), text);
    item.title = `ply ${startPly + i + 1}: ${p.name} played column ${col}`;
    list.append(item);
  });
  list.scrollTop = list.scrollHeight;
}

function renderScores() {
  const box = $("scores");
  box.innerHTML = "";
  if (view === null) return;
  const width = view.board.width;
  const show = $("show-scores").checked && humanToMove() && analysis !== null && online();
  const position = positionWords();
  for (let col = 1; col <= width; col++) {
    const cell = document.createElement("div");
    cell.className = "score";
    cell.dataset.col = col;
    const score = show && analysis.scores ? analysis.scores[col - 1] : null;
    if (show && !score) cell.textContent = "…";
    if (score) {
      let words;
      if (score.kind === "full") words = { short: "full", rest: "", long: "the column is full", winner: null };
      else if (score.kind === "exact") words = exactScoreWords(score.score, position);
      else if (score.kind === "bounds") words = boundWords(score.lo, score.hi, position);
      else words = valueWords(score.value, position);
      cell.dataset.kind = score.kind;
      if (score.kind === "exact") cell.dataset.score = score.score;
      if (score.kind === "value") cell.dataset.score = score.value;
      cell.innerHTML = `<b></b><span></span>`;
      cell.querySelector("b").textContent = words.short;
      cell.querySelector("span").textContent = words.rest;
      cell.dataset.words = `${words.short} ${words.rest}`.trim();
      cell.title = `Column ${col}: ${words.long}`;
      cell.setAttribute("aria-label", cell.title);
      if (words.winner !== null) {
        const index = playerIndex(words.winner);
        cell.style.setProperty("--colour", safeColour(game.players[index]?.colour));
        cell.classList.add("winning");
      }
    }
    box.append(cell);
  }
  $("analysis").textContent = show ? analysis.info : "";
  // For tests and scripts: how far the analysis shown has got.
  $("analysis").dataset.state = show ? analysis.state : "none";
  $("analysis").dataset.depth = show ? analysis.depth : 0;
}

function positionWords() {
  const mover = view.toMove;
  const index = playerIndex(mover);
  const other = game.players[(index + 1) % game.players.length]?.token;
  return { cells: view.board.width * view.board.height, ply: view.ply, mover, other };
}

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = kind;
}

function showMessage(text, kind) {
  $("message-text").textContent = text;
  $("message").className = `banner ${kind}`;
  $("message").hidden = false;
}

function hideMessage() {
  $("message").hidden = true;
}

function showConnection(text, withButton) {
  $("connection-text").textContent = text;
  $("reconnect").hidden = !withButton;
  $("connection").hidden = false;
}

function hideConnection() {
  $("connection").hidden = true;
}

/** Errors of actions: c4's refusals in its own words; a lost connection is shown by its banner,
 * and a search interrupted was meant to end. */
function report(error) {
  if (error instanceof RefusedError) showMessage(`c4 refused '${error.command}': ${error.message}`, "error");
  else if (error instanceof ConnectionLost || error instanceof Interrupted) return;
  else {
    console.error(error);
    showMessage(String(error.message ?? error), "error");
  }
  // Any command ends a running analysis: start it again, unless the computer's own move failed
  // (asking again would fail again).
  if (error instanceof RefusedError && online() && view && !error.command.startsWith("genmove")) changed();
}

// ---------------------------------------------------------------------------------------------
// The new-game dialog.

function openNewGame() {
  const dialog = $("new-dialog");
  $("g-width").value = game.width;
  $("g-height").value = game.height;
  $("g-connect").value = game.connect;
  $("g-players").value = game.players.length;
  $("g-early-draw").checked = game.earlyDraw;
  $("g-player-table").querySelector("tbody").innerHTML = "";
  game.players.forEach((p, i) => addPlayerRow(i, p));
  $("new-error").hidden = true;
  dialog.showModal();
}

/** One row of the dialog per player: rows are added or taken off the end as the count changes,
 * and the rows kept are left as they are (with what was typed in them). */
function matchPlayerCount() {
  const body = $("g-player-table").querySelector("tbody");
  const count = Math.min(Math.max(Number($("g-players").value) || 2, 2), 8);
  while (body.rows.length > count) body.rows[body.rows.length - 1].remove();
  while (body.rows.length < count) {
    const i = body.rows.length;
    addPlayerRow(i, { token: DEFAULT_TOKENS[i], name: `Player ${i + 1}`, colour: DEFAULT_COLOURS[i], level: "person" });
  }
}

function addPlayerRow(i, p) {
  const row = document.createElement("tr");
  row.innerHTML = `
    <td><span class="swatch"></span><input class="p-token" maxlength="1" size="1" aria-label="Player ${i + 1}'s token" required></td>
    <td><input class="p-name" maxlength="64" aria-label="Player ${i + 1}'s name"></td>
    <td><input class="p-colour" type="color" aria-label="Player ${i + 1}'s colour"></td>
    <td><select class="p-level" aria-label="Who plays player ${i + 1}"><option value="person">a person</option><optgroup label="the computer">${LEVELS.slice(1).map(([v, t]) => `<option value="${v}">${t}</option>`).join("")}</optgroup></select></td>`;
  row.querySelector(".swatch").append(shapeSvg(i, p.colour, ""));
  row.querySelector(".p-token").value = p.token;
  row.querySelector(".p-name").value = p.name;
  row.querySelector(".p-colour").value = safeColour(p.colour);
  row.querySelector(".p-colour").addEventListener("input", (e) => {
    row.querySelector(".swatch").replaceChildren(shapeSvg(i, e.target.value, ""));
  });
  row.querySelector(".p-level").value = LEVELS.some(([v]) => v === p.level) ? p.level : "perfect";
  $("g-player-table").querySelector("tbody").append(row);
}

function readPlayerRows() {
  return [...$("g-player-table").querySelectorAll("tbody tr")].map((row, i) => ({
    token: row.querySelector(".p-token").value,
    name: row.querySelector(".p-name").value.trim() || `Player ${i + 1}`,
    colour: row.querySelector(".p-colour").value,
    level: row.querySelector(".p-level").value,
  }));
}

async function submitNewGame(event) {
  event.preventDefault();
  const players = readPlayerRows();
  const error = $("new-error");
  const bad = players.find((p) => p.name.includes("#"));
  if (bad) {
    error.textContent = `A name cannot contain '#' (c4 reads the rest of the line as a comment): '${bad.name}'.`;
    error.hidden = false;
    return;
  }
  // A space or '#' would change the line itself (c4 refuses the other unusable tokens in words).
  const badToken = players.find((p) => /[\s#]/.test(p.token));
  if (badToken) {
    error.textContent = `A token cannot be a space or '#': player ${players.indexOf(badToken) + 1}'s is '${badToken.token}'.`;
    error.hidden = false;
    return;
  }
  const settings = {
    width: Number($("g-width").value),
    height: Number($("g-height").value),
    connect: Number($("g-connect").value),
    earlyDraw: $("g-early-draw").checked,
    players,
    start: null,
    moves: [],
  };
  if (!online()) {
    error.textContent = "The engine is not connected; the game can start when it is back.";
    error.hidden = false;
    return;
  }
  const refused = await startGame(settings);
  if (refused instanceof ConnectionLost) {
    error.textContent = "The engine's connection closed before the game was set up: try again once it is back.";
    error.hidden = false;
  } else if (refused) {
    error.textContent = `c4 refused it: ${refused.message}`;
    error.hidden = false;
  } else {
    $("new-dialog").close();
  }
}

// ---------------------------------------------------------------------------------------------
// Keys and buttons.

function typing(event) {
  const tag = event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || $("new-dialog").open;
}

document.addEventListener("keydown", (event) => {
  if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
  const width = view?.board.width ?? 7;
  if (event.key === "n") openNewGame();
  else if (event.key === "u") undo();
  else if (event.key === "h") hint();
  else if (/^[1-9]$/.test(event.key) && Number(event.key) <= width) drop(Number(event.key));
  else if (event.target === $("board")) {
    if (event.key === "ArrowLeft") cursor = cursor > 1 ? cursor - 1 : width;
    else if (event.key === "ArrowRight") cursor = cursor < width ? cursor + 1 : 1;
    else if (event.key === "Enter" || event.key === " " || event.key === "ArrowDown") drop(cursor);
    else return;
    event.preventDefault();
    render();
    $("board").focus();
  }
});

$("board").addEventListener("focus", () => $("board").classList.add("focused"));
$("board").addEventListener("blur", () => $("board").classList.remove("focused"));
$("new-game").addEventListener("click", openNewGame);
$("undo").addEventListener("click", undo);
$("hint").addEventListener("click", hint);
$("reconnect").addEventListener("click", connect);
$("message-close").addEventListener("click", hideMessage);
$("g-players").addEventListener("input", matchPlayerCount);
$("new-form").addEventListener("submit", submitNewGame);
$("new-cancel").addEventListener("click", () => $("new-dialog").close());
$("paste-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setUp($("paste").value);
});
$("log-box").addEventListener("toggle", renderLog);
$("show-scores").addEventListener("change", () => {
  if (humanToMove()) changed();
  else renderScores();
});
for (const [button, field] of [["copy-fen", "fen"], ["copy-moves", "moves-text"]]) {
  $(button).addEventListener("click", async () => {
    const text = $(field).value;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      $(field).select();
      document.execCommand("copy");
    }
    showMessage(`Copied: ${text}`, "info");
  });
}

if (savedGameFault !== null) showMessage(`The game saved in this browser could not be used (${savedGameFault}); a new game starts.`, "error");
if (CHOSEN.declined) showMessage(CHOSEN.declined, "error");
connect();
