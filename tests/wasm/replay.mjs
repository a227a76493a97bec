// Replays the protocol fixtures (fixtures/protocol/*.c4) through the WebAssembly build under
// Node, each in a fresh instance with the book provided as the page provides it, and compares
// every transcript byte for byte with the native c4's snapshot (tests/snapshots/
// transcripts__protocol_fixtures@NAME.c4.snap; insta keeps a snapshot without its final line
// endings, so those are left out of both sides). The fixtures answered differently on purpose
// (DIFFERENT below: files, threads, the UGI dialect) are compared with their own expected
// transcripts, tests/wasm/expected/NAME.txt, instead.
//
//   node tests/wasm/replay.mjs WASM_FILE            compare (tests/wasm/run builds and runs it)
//   node tests/wasm/replay.mjs WASM_FILE --bless    write the expected transcripts of DIFFERENT
//
// Exits 1 if any transcript differs.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The fixtures a page's engine answers differently, and why. */
export const DIFFERENT = {
  "save_load.c4": "save and load are refused: a page has no files",
  "book.c4": "book load is refused: a page has no files",
  "hostile.c4": "save and load of system files are refused as every file is: a page has no files",
  "threads.c4": "threads above 1 are refused: a page's engine has one thread",
  "ugi_switch.c4": "ugi is an unknown command: the UGI dialect is for match runners, which drive a native c4",
};

/** A fresh instance of `module`, given `book` (or no book: null): `feed(bytes)` hands it input,
 * `end()` ends the input, and `output()` is all it has written so far. */
export async function engine(module, book) {
  let memory = null;
  let out = "";
  const decoder = new TextDecoder();
  const instance = await WebAssembly.instantiate(module, {
    c4: {
      now_ms: () => performance.now(),
      write: (address, len) => {
        out += decoder.decode(new Uint8Array(memory.buffer, address, len));
      },
    },
  });
  const c4 = instance.exports;
  memory = c4.memory;
  const put = (bytes) => {
    // The buffer first: making it may grow the memory, which replaces memory.buffer.
    const address = c4.c4_buffer(bytes.length);
    new Uint8Array(memory.buffer, address, bytes.length).set(bytes);
    return bytes.length;
  };
  if (book !== null && c4.c4_provide_book(put(book)) !== 0) throw new Error("the book was refused");
  return {
    feed: (bytes) => c4.c4_feed(put(bytes)),
    end: () => c4.c4_end(),
    output: () => out,
  };
}

/** What a fresh instance of `module`, given `book` (or null), writes for the whole of `input`. */
export async function transcript(module, book, input) {
  const c4 = await engine(module, book);
  c4.feed(input);
  c4.end();
  return c4.output();
}

/** The transcript a snapshot holds: what follows its header. */
function snapshotBody(path) {
  const text = readFileSync(path, "utf8");
  const header = /^---\n[\s\S]*?\n---\n/.exec(text);
  return text.slice(header[0].length);
}

const withoutFinalLineEndings = (text) => text.replace(/\n+$/, "");

async function main() {
  const [wasmPath, flag] = process.argv.slice(2);
  const bless = flag === "--bless";
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const book = readFileSync(join(root, "book", "c4.book"));
  const fixtures = join(root, "fixtures", "protocol");
  let failed = 0;
  for (const name of readdirSync(fixtures).filter((n) => n.endsWith(".c4")).sort()) {
    const started = performance.now();
    const out = await transcript(module, book, readFileSync(join(fixtures, name)));
    const ms = (performance.now() - started).toFixed(0);
    const native = snapshotBody(
      join(root, "tests", "snapshots", `transcripts__protocol_fixtures@${name}.snap`),
    );
    const same = withoutFinalLineEndings(out) === withoutFinalLineEndings(native);
    if (!(name in DIFFERENT)) {
      console.log(`${same ? "same" : "DIFFERS"}  ${name} (${ms} ms)`);
      if (!same) {
        failed++;
        writeFileSync(join("/tmp", `c4-wasm-${name}.txt`), out);
        console.log(`  the WebAssembly transcript is in /tmp/c4-wasm-${name}.txt`);
      }
      continue;
    }
    const expectedPath = join(root, "tests", "wasm", "expected", name.replace(/\.c4$/, ".txt"));
    if (bless) writeFileSync(expectedPath, out);
    const expected = readFileSync(expectedPath, "utf8");
    const asExpected = out === expected;
    const changed = out.split("\n").filter((line, i) => line !== native.split("\n")[i]).length;
    console.log(
      `${asExpected ? "expected" : "UNEXPECTED"}  ${name} (${ms} ms): differs from native on ` +
        `purpose (${DIFFERENT[name]}); ${same ? "yet the same as native" : `${changed} lines differ`}`,
    );
    if (!asExpected) {
      failed++;
      writeFileSync(join("/tmp", `c4-wasm-${name}.txt`), out);
      console.log(`  the WebAssembly transcript is in /tmp/c4-wasm-${name}.txt`);
    }
  }
  if (failed) {
    console.log(`${failed} transcripts differ`);
    process.exit(1);
  }
  console.log("every transcript as expected");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
