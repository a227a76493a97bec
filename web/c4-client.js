// c4-client.js: a client for the c4 protocol (protocol.md), with two ways to reach c4:
//   - a Web Worker running c4 compiled to WebAssembly (c4-worker.js, web/build): nothing to
//     install, served by any static server; one thread, no files;
//   - a WebSocket to a native c4 (`c4 serve`): threads, big tables, an engine of one's own.
//
// This module knows the protocol's framing and nothing about the game: it numbers every command,
// writes it as one line, reads the reply that carries the same id and hands it back as a promise.
// The page's user interface is in app.js; a GUI in another language needs only what is here.
//
// The framing, from protocol.md:
//   - a command is one line, here always with an id: `12 play 4`;
//   - its reply starts with `=12` (success) or `?12` (failure); a one-line reply has its text after
//     one space (`=12 ply 1, o to move`), a multi-line reply has the marker alone and its lines
//     after it; every reply ends with an empty line, and no reply contains one;
//   - replies come in the order of the commands;
//   - `analyze stream` answers `=ID` at once and then `info` lines until the next command is sent,
//     which ends it (its empty line is written, then the new command runs).
//
// `c4 serve` (the server, src/serve/) starts one c4 per connection and turns every line c4 writes
// into one WebSocket message, the empty lines included; the worker posts what c4 writes as it
// writes it (a whole reply, or one line of a stream). A message we send may hold several lines.

/** The engine refused a command: `message` is its own words (the text after `?ID `). */
export class RefusedError extends Error {
  constructor(command, message) {
    super(message);
    this.name = "RefusedError";
    this.command = command;
  }
}

/** The connection closed (the engine process ended, the network went, or the worker failed)
 * before the reply came. */
export class ConnectionLost extends Error {
  constructor(command) {
    super(`the connection to the engine was lost before '${command}' was answered`);
    this.name = "ConnectionLost";
    this.command = command;
  }
}

/** The command was abandoned by `interrupt`: its search ended without an answer (a worker's;
 * see C4Client.interrupt). */
export class Interrupted extends Error {
  constructor(command) {
    super(`'${command}' was interrupted before it was answered`);
    this.name = "Interrupted";
    this.command = command;
  }
}

/** A WebSocket to a native c4: one message per line c4 writes. */
class SocketTransport {
  constructor(url) {
    this.url = url;
    this.socket = null;
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Opens it: resolves when open, rejects if it cannot be; then `onText` hears what c4 writes
   * and `onClose` that it closed. */
  connect(onText, onClose) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      let opened = false;
      socket.onopen = () => {
        opened = true;
        resolve();
      };
      socket.onmessage = (event) => onText(`${event.data}\n`);
      socket.onclose = () => {
        if (this.socket === socket) this.socket = null;
        if (opened) onClose();
        else reject(new Error(`cannot connect to ${this.url}`));
      };
    });
  }

  write(text) {
    this.socket.send(text);
  }

  close() {
    if (this.socket) this.socket.close();
  }
}

/** c4 as WebAssembly in a Web Worker (c4-worker.js): messages of text each way. */
class WorkerTransport {
  constructor(url) {
    this.url = url;
    this.worker = null;
    this.onText = null;
    this.onClose = null;
    // What the first worker loaded ({module, book}), for the workers that replace it: compiled
    // once, downloaded once.
    this.loaded = null;
  }

  get open() {
    return this.worker !== null;
  }

  /** Starts the worker (it loads the engine and its book, holding input until then). */
  connect(onText, onClose) {
    this.onText = onText;
    this.onClose = onClose;
    this.start();
    return Promise.resolve();
  }

  start() {
    const worker = new Worker(this.url, { type: "module" });
    this.worker = worker;
    const end = (reason) => {
      if (this.worker !== worker) return;
      worker.terminate();
      this.worker = null;
      this.onClose(reason);
    };
    worker.onmessage = (event) => {
      if (this.worker !== worker) return; // a worker replaced by restart: its last words are not read
      if (typeof event.data === "string") this.onText(event.data);
      else if (event.data.loaded) this.loaded = event.data.loaded;
      else {
        // `quit` was answered, or the engine could not load or failed: the reason says which.
        if (event.data.error) console.error(`c4 worker: ${event.data.error}`);
        end(event.data.error);
      }
    };
    worker.onerror = (event) => {
      console.error(`c4 worker: ${event.message}`);
      end(event.message);
    };
    if (this.loaded !== null) {
      // The worker keeps nothing of the bytes it is given (the engine copies them in): a copy
      // is handed over, so that the next worker has them too.
      const book = this.loaded.book?.slice(0) ?? null;
      worker.postMessage({ module: this.loaded.module, book }, book ? [book] : []);
    }
  }

  /** Ends the worker, whatever it is doing, and starts a fresh one in its place: a worker reads
   * nothing while a search runs, so this is how a search is interrupted. */
  restart() {
    this.worker.terminate();
    this.start();
  }

  write(text) {
    this.worker.postMessage(text);
  }

  /** Ends the worker, as a closed socket ends its c4. */
  close() {
    const worker = this.worker;
    if (worker === null) return;
    worker.terminate();
    this.worker = null;
    this.onClose();
  }
}

/**
 * One connection to one c4: a worker of this page, or a native c4 through a WebSocket.
 *
 *   const c4 = new C4Client("worker:");         // or "ws://localhost:8080/engine"
 *   await c4.connect();
 *   const reply = await c4.send("play 4");      // {text: "ply 1, o to move", lines: []}
 *   const status = await c4.send("status");     // {text: "", lines: ["to-move o", ...]}
 *   c4.send("analyze stream interval 250", {onLine: (line) => show(line)});
 *
 * `send` resolves with `{text, lines}` on `=`, and rejects with RefusedError on `?` and with
 * ConnectionLost if the connection closes first. Listeners of the "close" event hear when the
 * connection ends, whoever ended it; its `detail.reason`, when the worker's engine could not load
 * or failed, says why.
 */
export class C4Client extends EventTarget {
  /** `engine`: "worker:" for c4-worker.js beside this module, "worker:URL" for another, or the
   * ws:// or wss:// URL of a native c4. */
  constructor(engine) {
    super();
    this.engine = engine;
    this.transport = engine.startsWith("worker:")
      ? new WorkerTransport(new URL(engine.slice("worker:".length) || "c4-worker.js", import.meta.url))
      : new SocketTransport(engine);
    this.nextId = 1;
    this.pending = []; // commands sent and not yet answered, oldest first
    this.reading = null; // the reply being read: {entry, text, lines}
    this.partial = ""; // the start of a line not yet whole
    this.log = []; // the last lines sent and received, for a page that wants to show them
  }

  get connected() {
    return this.transport.open;
  }

  /** Opens the connection; resolves when it is open, rejects if it cannot be opened. */
  connect() {
    return this.transport.connect(
      (text) => this.receiveText(text),
      (reason) => {
        this.failPending();
        this.dispatchEvent(new CustomEvent("close", { detail: { reason } }));
      },
    );
  }

  /**
   * Ends the search running now (`genmove`, `hint`, `analyze`...) at once, and drops what else
   * is waiting for a reply. Natively this is protocol.md's `stop`: the search answers with what
   * it found (`genmove` plays its best move so far), and the commands sent after it run as usual.
   * A worker reads nothing while it searches, so there every command waiting for a reply is
   * rejected with Interrupted (a `genmove` plays nothing), the worker is replaced by a fresh one
   * (the engine already compiled, the book already downloaded), and `session`, the commands that
   * set up the state the caller relies on (the game's settings and position, say), is sent to
   * it before anything sent after this; their replies are not handed back (one refused is a
   * failure of the connection: it is closed). With nothing waiting, nothing is done.
   */
  interrupt(session) {
    if (!this.connected) return;
    if (!(this.transport instanceof WorkerTransport)) {
      this.send("stop").catch(() => {}); // its reply only says that it was read
      return;
    }
    if (this.pending.length === 0 && this.reading === null) return;
    this.transport.restart();
    this.partial = "";
    this.failPending((command) => new Interrupted(command));
    for (const command of session) {
      this.send(command).catch((error) => {
        if (!(error instanceof RefusedError)) return; // the connection's end is reported by it
        console.error(`c4: the fresh worker refused '${command}' (${error.message})`);
        this.close();
      });
    }
  }

  /** Closes the connection; commands still waiting are rejected with ConnectionLost. */
  close() {
    this.transport.close();
  }

  /**
   * Sends one command (without an id: one is added) and returns the promise of its reply.
   * `onLine`, if given, is called with each line of a multi-line reply as it arrives: this is
   * how the `info` lines of `analyze stream` are read while the analysis runs. Such a reply keeps
   * no lines of its own (an analysis left running for hours would otherwise grow without end).
   */
  send(command, { onLine = null } = {}) {
    if (!this.connected) return Promise.reject(new ConnectionLost(command));
    if (/[\r\n]/.test(command)) throw new Error("a command is one line");
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.push({ id, command, onLine, resolve, reject });
      this.record(">", `${id} ${command}`);
      this.transport.write(`${id} ${command}\n`);
    });
  }

  /** Text as it comes: whole lines, each ending in "\n", or pieces of them. */
  receiveText(text) {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop();
    for (const line of lines) this.receive(line);
  }

  receive(line) {
    this.record("<", line);
    const reply = this.reading;
    if (reply === null) {
      this.readHeader(line);
    } else if (line === "") {
      this.reading = null;
      this.finish(reply);
    } else if (reply.text !== "") {
      this.protocolError(`a one-line reply went on: '${line}'`);
    } else {
      if (reply.entry.onLine) reply.entry.onLine(line);
      else reply.lines.push(line);
    }
  }

  readHeader(line) {
    const match = /^([=?])(\d*)(?: (.*))?$/.exec(line);
    if (match === null) {
      this.protocolError(`expected a reply, got '${line}'`);
      return;
    }
    const [, marker, id, text = ""] = match;
    // Replies come in order, so the oldest command is the one answered. A refusal without an
    // id (a line c4 could not read, or an id too large) answers it too.
    const entry = this.pending.shift();
    if (entry === undefined || (id !== "" && Number(id) !== entry.id)) {
      this.protocolError(`a reply to a command that was not sent: '${line}'`);
      return;
    }
    this.reading = { entry, ok: marker === "=", text, lines: [] };
  }

  finish({ entry, ok, text, lines }) {
    if (ok) entry.resolve({ text, lines });
    else entry.reject(new RefusedError(entry.command, text));
  }

  /** Rejects every command waiting for a reply, with `error(command)`. */
  failPending(error = (command) => new ConnectionLost(command)) {
    const pending = this.pending;
    if (this.reading !== null) pending.unshift(this.reading.entry);
    this.pending = [];
    this.reading = null;
    for (const entry of pending) entry.reject(error(entry.command));
  }

  protocolError(message) {
    console.error(`c4 protocol: ${message}`);
    this.close();
  }

  record(direction, line) {
    this.log.push(`${direction} ${line}`);
    if (this.log.length > 200) this.log.shift();
  }
}
