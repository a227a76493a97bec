"""The Python package's benchmark (docs/benchmarks.md, "From Python"), in one run:

1. every column's score at plies 0-24, c4 against BitBully (the `bitbully` package, with its
   12-ply book), on the same random positions, each engine with one solver for the whole run
   and each ply's positions in a block per engine;
2. a fresh interpreter's `import` plus the first answer on the empty board, for both;
3. `Solver.analyze_many` on 10,000 random positions with 1 and with 2 threads.

BitBully is no dependency of c4: install it beside the c4 wheel in a scratch venv
(`pip install bitbully`). Run: `python bench/compare.py [--per-ply N] [--seed S] [--parts ...]`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import time

import c4

STARTUP = {
    "c4": "import c4; c4.analyze(c4.Board())",
    "BitBully": "import bitbully as bb; bb.BitBully().score_all_moves(bb.Board())",
}


def random_position(ply: int, rng: random.Random) -> list[int]:
    """`ply` random moves (0-based columns) from the empty board, none of them ending the game."""
    while True:
        board, moves = c4.Board(), []
        while len(moves) < ply:
            candidates = board.legal_moves()
            rng.shuffle(candidates)
            for column in candidates:
                board.play(column)
                if not board.is_over:
                    moves.append(column)
                    break
                board.undo()
            else:
                break  # every move ends the game: draw again
        if len(moves) == ply:
            return moves


def positions_by_ply(per_ply: int, seed: int) -> dict[int, list[list[int]]]:
    rng = random.Random(seed)
    found: dict[int, list[list[int]]] = {}
    for ply in range(25):
        seen: set[tuple[int, ...]] = set()
        # Ply 0 has one position and ply 1 seven.
        wanted = min(per_ply, 7**ply)
        while len(seen) < wanted:
            seen.add(tuple(random_position(ply, rng)))
        found[ply] = [list(moves) for moves in sorted(seen)]
    return found


def per_ply(per_ply_count: int, seed: int) -> None:
    import bitbully as bb

    solver = c4.Solver()
    agent = bb.BitBully()
    print("| ply | positions | BitBully ms/call | c4 ms/call | c4 / BitBully |")
    print("|---:|---:|---:|---:|---:|")
    total = {"c4": 0.0, "BitBully": 0.0}
    for ply, games in positions_by_ply(per_ply_count, seed).items():
        ours = [c4.Board(moves) for moves in games]
        theirs = [bb.Board(moves) for moves in games]
        # Each engine scores the ply's positions in a block of its own, so that neither finds
        # its caches emptied by the other's search between two of its calls.
        start = time.perf_counter()
        scores = [solver.analyze(board) for board in ours]
        middle = time.perf_counter()
        expected = [agent.score_all_moves(board) for board in theirs]
        end = time.perf_counter()
        spent = {"c4": middle - start, "BitBully": end - middle}
        for moves, columns, theirs_by_column in zip(games, scores, expected):
            ours_by_column = {c: s for c, s in enumerate(columns) if s is not None}
            if ours_by_column != theirs_by_column:
                sys.exit(f"scores differ on {moves}: c4 {ours_by_column}, BitBully {theirs_by_column}")
        n = len(games)
        for engine in total:
            total[engine] += spent[engine]
        print(
            f"| {ply} | {n} | {1000 * spent['BitBully'] / n:.3f} | {1000 * spent['c4'] / n:.4f} "
            f"| {spent['c4'] / spent['BitBully']:.3f} |"
        )
    print(
        f"| all | | {total['BitBully']:.2f} s | {total['c4']:.2f} s "
        f"| {total['c4'] / total['BitBully']:.3f} |"
    )
    print("(every column's score agreed on every position)\n")


def startup(runs: int) -> None:
    print("| engine | import + first answer on the empty board, ms (median of %d runs) |" % runs)
    print("|---|---:|")
    for engine, code in STARTUP.items():
        timed = (
            "import time; t = time.perf_counter(); "
            + code
            + "; print(time.perf_counter() - t)"
        )
        times = [
            float(subprocess.run([sys.executable, "-c", timed], check=True, capture_output=True,
                                 text=True).stdout)
            for _ in range(runs)
        ]
        print(f"| {engine} | {1000 * statistics.median(times):.1f} |")
    print()


def batch(count: int, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    # Plies 0-30 alike: from the book's openings to the end games a data set holds.
    boards = [c4.Board(random_position(rng.randint(0, 30), rng)) for _ in range(count)]
    solver = c4.Solver()
    wall = {1: float("inf"), 2: float("inf")}
    cpu = {1: float("inf"), 2: float("inf")}
    results = {}
    for _ in range(rounds):
        for threads in (1, 2):
            start, start_cpu = time.perf_counter(), time.process_time()
            results[threads] = solver.analyze_many(boards, threads=threads)
            wall[threads] = min(wall[threads], time.perf_counter() - start)
            cpu[threads] = min(cpu[threads], time.process_time() - start_cpu)
    assert results[1] == results[2]
    # The processor time of all threads shows what the wall time would be on idle cores.
    print(f"| analyze_many, {count} positions (best of {rounds}) | wall s | processor s |")
    print("|---|---:|---:|")
    print(f"| 1 thread | {wall[1]:.2f} | {cpu[1]:.2f} |")
    print(f"| 2 threads | {wall[2]:.2f} | {cpu[2]:.2f} |")
    print(f"| 2 threads / 1 thread | {wall[2] / wall[1]:.3f} | {cpu[2] / cpu[1]:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-ply", type=int, default=100, help="positions per ply (default 100)")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--batch", type=int, default=10_000, help="positions of analyze_many")
    parser.add_argument(
        "--parts",
        default="plies,startup,batch",
        help="which measurements, comma-separated (default: plies,startup,batch)",
    )
    args = parser.parse_args()
    parts = args.parts.split(",")
    import bitbully

    print(
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, BitBully {bitbully.__version__}, "
        f"load average {os.getloadavg()[0]:.1f}\n"
    )
    if "plies" in parts:
        per_ply(args.per_ply, args.seed)
    if "startup" in parts:
        startup(runs=7)
    if "batch" in parts:
        batch(args.batch, args.seed, rounds=3)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
