// c4-worker.js: c4 compiled to WebAssembly (crates/c4-wasm), in a Web Worker of the page, speaking
// the protocol of protocol.md as the native c4 does on its standard input and output.
//
// Messages in are input text (one or more lines, each ending in "\n"); messages out are the text
// c4 writes, as it writes it: a whole reply, or one `info` line of `analyze stream` as it comes.
// After `quit` is answered, `{quit: true}` is posted and the worker ends, as the native c4 exits.
// The worker starts with its first message (input, or what to start from: see below).
// If the engine cannot start or fails, `{error: "why"}` is posted and nothing more.
//
// The book (c4.book, beside this file) is fetched as a file, which the browser's cache keeps, and
// handed to the engine before the first command runs; input that comes meanwhile waits. A search
// runs on this worker's one thread to its end: a `stop` sent while it runs is read after it (see
// crates/c4-wasm, "Stopping"). So a client that must interrupt a search ends the worker and
// starts another (c4-client.js, WorkerTransport.restart); to make that quick, the worker that
// loaded the engine and the book itself posts them, `{loaded: {module, book}}` (the compiled
// `WebAssembly.Module` and the book's bytes), and a worker whose first message is `{module, book}`
// starts from those instead of downloading and compiling (`book` null: none).

const ENGINE = new URL("c4.wasm", import.meta.url);
const BOOK = new URL("c4.book", import.meta.url);

let exports = null; // the engine's, once it has its book (input waits until then)
const waiting = []; // input that came before
let ended = false; // by `quit` or a failure: nothing more is read

function fail(why) {
  ended = true;
  postMessage({ error: String(why) });
}

/** The compiled engine, downloaded. */
async function compile() {
  const response = await fetch(ENGINE);
  if (!response.ok) {
    throw new Error(
      `the server answered ${response.status} for ${ENGINE.pathname}; web/build builds it into ` +
        "web/dist/, which c4 serve serves (with a native c4 too, at ?engine=native)",
    );
  }
  try {
    return await WebAssembly.compileStreaming(response.clone());
  } catch {
    // A server that does not say application/wasm: compiled from the bytes instead.
    return await WebAssembly.compile(await response.arrayBuffer());
  }
}

/** The engine, instantiated with the host functions it imports: the clock and its output. */
async function instantiate(module) {
  const decoder = new TextDecoder();
  let memory = null;
  const imports = {
    c4: {
      now_ms: () => performance.now(),
      write: (address, len) => postMessage(decoder.decode(new Uint8Array(memory.buffer, address, len))),
    },
  };
  const instance = await WebAssembly.instantiate(module, imports);
  memory = instance.exports.memory;
  return instance.exports;
}

/** Copies `bytes` into `engine`'s buffer; gives their length. */
function put(engine, bytes) {
  // The buffer first: making it may grow the memory, which replaces memory.buffer.
  const address = engine.c4_buffer(bytes.length);
  new Uint8Array(engine.memory.buffer, address, bytes.length).set(bytes);
  return bytes.length;
}

const encoder = new TextEncoder();

function feed(text) {
  let quit;
  try {
    quit = exports.c4_feed(put(exports, encoder.encode(text))) === 1;
  } catch (error) {
    // A trap leaves the engine's state unknown: it answers nothing more.
    fail(`the engine failed: ${error.message ?? error}`);
    return;
  }
  if (quit) {
    ended = true;
    postMessage({ quit: true });
    close();
  }
}

let started = false;

onmessage = (event) => {
  if (ended) return;
  if (!started) {
    // The first message says how to start: from what another worker loaded, or from the files.
    started = true;
    if (typeof event.data === "string") waiting.push(event.data);
    start(typeof event.data === "string" ? null : event.data);
  } else if (exports === null) waiting.push(event.data);
  else feed(event.data);
};

/** Starts the engine from `given` (`{module, book}`), or when null from the files, which are
 * then posted for the next worker. */
async function start(given) {
  // Both downloads at once; the book is a plain file the browser caches like any other.
  const book = given
    ? Promise.resolve(given.book)
    : fetch(BOOK).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null);
  let module;
  let engine;
  try {
    module = given ? given.module : await compile();
    engine = await instantiate(module);
  } catch (error) {
    fail(`the engine could not be loaded: ${error.message ?? error}`);
    return;
  }
  // The first search's table memory, taken while the book downloads.
  engine.c4_reserve_table_memory();
  const bytes = await book;
  // Without its book the engine still plays, as `c4 --no-book` does: `book` says so.
  if (bytes === null || engine.c4_provide_book(put(engine, new Uint8Array(bytes))) !== 0) {
    console.warn(`c4: no opening book from ${BOOK}: the first moves are searched`);
  }
  // The engine has its own copy of the book now: these bytes go to the client, not copied.
  if (!given) postMessage({ loaded: { module, book: bytes } }, bytes ? [bytes] : []);
  // The session starts with the first input, so only now: with the book.
  exports = engine;
  for (const text of waiting.splice(0)) if (!ended) feed(text);
}
