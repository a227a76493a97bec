// The WebAssembly build's search speed against the native c4's on one thread (docs/benchmarks.md,
// "In the browser"): each benchmark position of a set solved in turn without the book (`position
// startpos moves M`, `solve`), the table kept from one to the next, through the native c4 and
// through the WebAssembly build under Node. Each run's time is that of the whole script (`book
// off`, `hash 64`, then the solves) less that of the script without the solves, so that the start
// of a process or an instance and the making of the table are left out; each is the median of
// RUNS runs. The transcripts must be the same; the ratio of the times is the speed.
//
//   node tests/wasm/bench.mjs WASM_FILE NATIVE_C4 [SET.txt...]    (default: fixtures/bench/*.txt)

import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { transcript } from "./replay.mjs";

const SETUP = "book off\nhash 64\n";
const RUNS = 5;

/** The median time of `run` over RUNS runs, and what the last run gave. */
async function timed(run) {
  const times = [];
  let out;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    out = await run();
    times.push(performance.now() - started);
  }
  return [times.sort((a, b) => a - b)[RUNS >> 1], out];
}

/** The time of `script` through the native c4, and what it wrote. */
function native(program, script) {
  return timed(() => {
    const run = spawnSync(program, [], { input: script, maxBuffer: 1 << 26 });
    if (run.status !== 0) throw new Error(`${program} exited with ${run.status}`);
    return run.stdout.toString();
  });
}

/** The time of `script` through the WebAssembly build, and what it wrote. */
function wasm(module, script) {
  // Without the book (the script turns it off): its check is no part of the search.
  return timed(() => transcript(module, null, Buffer.from(script)));
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasmPath, nativePath, ...asked] = process.argv.slice(2);
const bench = join(root, "fixtures", "bench");
const sets = asked.length
  ? asked
  : readdirSync(bench).filter((n) => n.endsWith(".txt")).sort().map((n) => join(bench, n));
const module = await WebAssembly.compile(readFileSync(wasmPath));

let nativeTotal = 0;
let wasmTotal = 0;
const [nativeSetup] = await native(nativePath, SETUP);
const [wasmSetup] = await wasm(module, SETUP);
console.log("set                 positions   native ms     wasm ms   wasm speed (native = 1)");
for (const set of sets) {
  const positions = readFileSync(set, "utf8").split("\n").filter((l) => l.trim() !== "");
  const script =
    SETUP + positions.map((l) => `position startpos moves ${l.split(" ")[0]}\nsolve\n`).join("");
  const [nativeWhole, nativeOut] = await native(nativePath, script);
  const [wasmWhole, wasmOut] = await wasm(module, script);
  if (wasmOut !== nativeOut) throw new Error(`${basename(set)}: the transcripts differ`);
  const nativeMs = nativeWhole - nativeSetup;
  const wasmMs = wasmWhole - wasmSetup;
  nativeTotal += nativeMs;
  wasmTotal += wasmMs;
  console.log(
    `${basename(set).padEnd(20)}${String(positions.length).padStart(9)}${nativeMs.toFixed(1).padStart(12)}` +
      `${wasmMs.toFixed(1).padStart(12)}${(nativeMs / wasmMs).toFixed(2).padStart(12)}`,
  );
}
console.log(
  `${"all".padEnd(29)}${nativeTotal.toFixed(1).padStart(12)}${wasmTotal.toFixed(1).padStart(12)}` +
    `${(nativeTotal / wasmTotal).toFixed(2).padStart(12)}`,
);
