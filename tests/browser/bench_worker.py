"""The page's engine in Chromium's worker, timed (docs/benchmarks.md, "In the browser"): the first
exact scores of the empty board on screen after the page starts loading, and every column's score
(`analyze`) of each position of fixtures/bench/analyze/plies.txt (plies 0-20), each with the table
cleared first (`hash 64`, not timed), checked against the file and timed from the page: the time a
GUI waits, the worker's messages included. Prints the percentiles per ply and over all. Then how
long interrupting a search takes (C4Client.interrupt: a fresh worker from the compiled engine and
the downloaded book, the page's game set up in it): from the call to the answer of the first command
sent after it, a `genmove perfect` on the empty 8x7 board (no book: it runs for minutes) interrupted
INTERRUPTS times (10) a second after it starts.

    web/build && python3 tests/browser/bench_worker.py [LOADS [INTERRUPTS]]   (page loads: 5)

Needs what tests/browser/test_gui.py needs.
"""

import statistics
import sys

from playwright.sync_api import sync_playwright

from test_gui import CHROMIUM, CHROMIUM_ARGS, DIST, ROOT, StaticServer, first_scores_ms

PLIES = ROOT / "fixtures" / "bench" / "analyze" / "plies.txt"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main():
    loads = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    interrupts = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    assert (DIST / "c4.wasm").exists(), f"{DIST} is missing: web/build"
    positions = [line.split(" ") for line in PLIES.read_text().splitlines()]
    server = StaticServer()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            # The page's first exact scores: a fresh profile (nothing cached) for the first load,
            # then the same one (the engine and the book from the browser's cache).
            context = browser.new_context()
            times = []
            for _ in range(loads):
                page = context.new_page()
                page.goto(server.page_url)
                times.append(first_scores_ms(page))
                page.close()
            print(f"first exact scores on screen: {times[0]:.0f} ms with nothing cached; "
                  f"then cached, median {statistics.median(times[1:] or times):.0f} ms "
                  f"(of {len(times) - 1} loads)")
            page = context.new_page()
            page.goto(server.page_url)
            results = page.evaluate(
                """async ([engine, positions]) => {
                  const { C4Client } = await import("/c4-client.js");
                  const c4 = new C4Client(engine);
                  await c4.connect();
                  const out = [];
                  for (const [moves, ...scores] of positions) {
                    await c4.send("hash 64");
                    await c4.send(moves ? `position startpos moves ${moves}` : "position startpos");
                    const started = performance.now();
                    const reply = await c4.send("analyze");
                    out.push([moves.length, performance.now() - started,
                              reply.text === scores.map((s) => (s === "-" ? "full" : s)).join(" ")]);
                  }
                  c4.close();
                  return out;
                }""",
                [server.engine, positions])
            interrupted = page.evaluate(
                """async ([engine, count]) => {
                  const { C4Client } = await import("/c4-client.js");
                  const c4 = new C4Client(engine);
                  await c4.connect();
                  const session = ["new 8x7 connect 4 tokens xo early-draw off", "name x Ann",
                                   "name o Computer", "position startpos moves 4"];
                  for (const command of session) await c4.send(command);
                  const out = [];
                  for (let i = 0; i < count; i++) {
                    const search = c4.send("genmove perfect").catch((e) => e.name);
                    await new Promise((resolve) => setTimeout(resolve, 1000));
                    const started = performance.now();
                    c4.interrupt(session);
                    const fen = await c4.send("fen");
                    out.push([performance.now() - started, await search, fen.text]);
                  }
                  c4.close();
                  return out;
                }""",
                [server.engine, interrupts])
            browser.close()
    finally:
        server.close()
    wrong = [i for i, (_, _, right) in enumerate(results) if not right]
    assert not wrong, f"analyze disagrees with {PLIES} on lines {[i + 1 for i in wrong]}"
    print("ply  positions   p50 ms   p90 ms   max ms")
    for ply in sorted({ply for ply, _, _ in results}):
        ms = [t for p_, t, _ in results if p_ == ply]
        print(f"{ply:3} {len(ms):10} {percentile(ms, 50):8.1f} {percentile(ms, 90):8.1f} {max(ms):8.1f}")
    ms = [t for _, t, _ in results]
    print(f"all {len(ms):10} {percentile(ms, 50):8.1f} {percentile(ms, 90):8.1f} {max(ms):8.1f}")
    assert all(answer == "Interrupted" and fen == "3x4/8/8/8/8/8/8 o" for _, answer, fen in interrupted), \
        f"an interrupted search or the fresh worker's position was not as expected: {interrupted}"
    ms = [t for t, _, _ in interrupted]
    print(f"interrupting a search, to the first answer after it ({len(ms)} times): median "
          f"{statistics.median(ms):.0f} ms, at most {max(ms):.0f} ms")


if __name__ == "__main__":
    main()
