#!/usr/bin/env python3
"""How late each kind of search answers after its deadline: its `movetime`, or a `stop` (any
line, for `analyze stream`) sent while it runs. Prints one table row per game and search: how
late the reply's last line came, in ms (negative when the search finished before its deadline),
min / median / max over the runs. Each run is a fresh `c4` process; the game is set up first, and
only the search is timed. The figures in docs/benchmarks.md ("Searches end on time") come from

    cargo build --release && python3 docs/overshoot.py target/release/c4 --runs 10
"""

import argparse
import statistics
import subprocess
import time

# Protocol searches: (the line, its movetime in ms, or the line that ends it and after how many ms)
PROTOCOL_SEARCHES = [
    ("go movetime 1", 1),
    ("go movetime 1000", 1000),
    ("genmove perfect movetime 5000", 5000),
    ("go lookahead 12 movetime 100", 100),
    ("perft 12", ("stop", 200)),
    ("analyze stream", ("stop", 200)),
    ("hint", ("stop", 200)),
    ("solve", ("stop", 200)),
]

# UGI searches, as above: its replies end with `bestmove`.
UGI_SEARCHES = [
    ("go movetime 1", 1),
    ("go movetime 1000", 1000),
    ("go infinite", ("stop", 200)),
]

# (the game, c4's arguments, the lines that set it up, its searches)
GAMES = [
    ("7x6, book off", [], ["book off"], PROTOCOL_SEARCHES),
    ("9x7 connect 5, 3 players", [], ["new 9x7 connect 5 players 3"], PROTOCOL_SEARCHES),
    ("16x16, 8 players", [], ["new 16x16 players 8"], PROTOCOL_SEARCHES),
    ("UGI 7x6, book off", ["ugi"], ["setoption name book value false"], UGI_SEARCHES),
    ("UGI 16x16", ["ugi"], ["position fen " + "/".join(["16"] * 16) + " x"], UGI_SEARCHES),
]


def reply(c4, ugi):
    """Reads one reply: up to the empty line that ends it, or in UGI up to `bestmove`."""
    while True:
        line = c4.stdout.readline()
        if line == "" or (line.startswith("bestmove") if ugi else line == "\n"):
            return


def lateness(program, args, setup, search, ends):
    """Runs `search` after `setup` in a fresh c4; how late its reply came, in ms."""
    ugi = args == ["ugi"]
    c4 = subprocess.Popen(
        [program, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        c4.stdin.write(line + "\n")
        c4.stdin.flush()

    for line in setup:
        send(line)
        if not ugi:
            reply(c4, ugi)
    if ugi:
        # UGI answers setup lines with nothing: `isready` waits for them (and makes the table).
        send("isready")
        c4.stdout.readline()
    sent = time.perf_counter()
    send(search)
    if isinstance(ends, tuple):
        line, after_ms = ends
        time.sleep(after_ms / 1000)
        deadline = time.perf_counter()
        send(line)
    else:
        deadline = sent + ends / 1000
    reply(c4, ugi)
    done = time.perf_counter()
    c4.stdin.close()
    c4.wait()
    return (done - deadline) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program", help="the c4 binary")
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    print("| game | search | deadline | late by, ms: min / median / max |")
    print("|---|---|---|---:|")
    for game, args, setup, searches in GAMES:
        for search, ends in searches:
            late = [lateness(options.program, args, setup, search, ends) for _ in range(options.runs)]
            deadline = f"`{ends[0]}` after {ends[1]} ms" if isinstance(ends, tuple) else f"{ends} ms"
            figures = " / ".join(f"{x:.1f}" for x in (min(late), statistics.median(late), max(late)))
            print(f"| {game} | `{search}` | {deadline} | {figures} |", flush=True)


if __name__ == "__main__":
    main()
