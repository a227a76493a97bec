// c4-client.js: a client for the c4 protocol (protocol.md) over a WebSocket.
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
// websocketd (the server, see web/serve) starts one c4 per connection and turns every line c4
// writes into one WebSocket message, the empty lines included; a message we send may hold several
// lines.

/** The engine refused a command: `message` is its own words (the text after `?ID `). */
export class RefusedError extends Error {
  constructor(command, message) {
    super(message);
    this.name = "RefusedError";
    this.command = command;
  }
}

/** The socket closed (the engine process ended, or the network went) before the reply came. */
export class ConnectionLost extends Error {
  constructor(command) {
    super(`the connection to the engine was lost before '${command}' was answered`);
    this.name = "ConnectionLost";
    this.command = command;
  }
}

/**
 * One connection to one c4 process.
 *
 *   const c4 = new C4Client("ws://localhost:8080/");
 *   await c4.connect();
 *   const reply = await c4.send("play 4");      // {text: "ply 1, o to move", lines: []}
 *   const status = await c4.send("status");     // {text: "", lines: ["to-move o", ...]}
 *   c4.send("analyze stream interval 250", {onLine: (line) => show(line)});
 *
 * `send` resolves with `{text, lines}` on `=`, and rejects with RefusedError on `?` and with
 * ConnectionLost if the socket closes first. Listeners of the "close" event hear when the
 * connection ends, whoever ended it.
 */
export class C4Client extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.socket = null;
    this.nextId = 1;
    this.pending = []; // commands sent and not yet answered, oldest first
    this.reading = null; // the reply being read: {entry, text, lines}
    this.log = []; // the last lines sent and received, for a page that wants to show them
  }

  get connected() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Opens the socket; resolves when it is open, rejects if it cannot be opened. */
  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      let opened = false;
      socket.onopen = () => {
        opened = true;
        resolve();
      };
      socket.onmessage = (event) => {
        // One line per message from websocketd; split anyway, in case a server batches them.
        for (const line of String(event.data).split("\n")) this.receive(line);
      };
      socket.onclose = () => {
        if (this.socket === socket) this.socket = null;
        this.failPending();
        if (opened) this.dispatchEvent(new Event("close"));
        else reject(new Error(`cannot connect to ${this.url}`));
      };
    });
  }

  /** Closes the socket; commands still waiting are rejected with ConnectionLost. */
  close() {
    if (this.socket) this.socket.close();
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
      this.socket.send(`${id} ${command}\n`);
    });
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

  failPending() {
    const pending = this.pending;
    if (this.reading !== null) pending.unshift(this.reading.entry);
    this.pending = [];
    this.reading = null;
    for (const entry of pending) entry.reject(new ConnectionLost(entry.command));
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
