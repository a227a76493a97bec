"""Solver: scores equal to `c4 solve --analyze` and the other fixtures, best moves, levels,
settings, and the batch analysis on threads."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, read_lines

import c4


def score_or_none(field: str) -> int | None:
    return None if field == "-" else int(field)


def test_every_column_scores_as_the_fixture_says(solver: c4.Solver) -> None:
    # fixtures/bench/analyze/plies.txt: 388 positions of plies 0-20, each with the seven
    # scores in the form `c4 solve --analyze` writes (BitBully's, which c4 agrees with).
    lines = read_lines("bench/analyze/plies.txt")
    assert len(lines) == 388
    for moves, fields in lines:
        expected = [score_or_none(f) for f in fields]
        assert solver.analyze(c4.Board(moves)) == expected, moves


def c4_program() -> Path | None:
    """The `c4` program to compare with: $C4_PROGRAM, else the workspace's release or debug build
    (CI's `cargo test` builds the debug one first), in $CARGO_TARGET_DIR if set."""
    if "C4_PROGRAM" in os.environ:
        return Path(os.environ["C4_PROGRAM"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", FIXTURES.parent / "target"))
    builds = (target / build / "c4" for build in ("release", "debug"))
    return next((program for program in builds if program.is_file()), None)


def test_every_column_scores_as_the_c4_program_says(solver: c4.Solver) -> None:
    program = c4_program()
    if program is None:
        # CI builds the program (`cargo test`) before these tests: there, not finding it fails.
        if os.environ.get("CI") == "true":
            pytest.fail("no c4 program in the target directory; cargo test builds it")
        pytest.skip("no c4 program: cargo build, or name one in C4_PROGRAM")
    lines = read_lines("bench/analyze/plies.txt")
    written = subprocess.run(
        [program, "solve", "--analyze"],
        input="".join(f"{moves}\n" for moves, _ in lines),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout.splitlines()
    assert len(written) == len(lines)
    for (moves, _), line in zip(lines, written):
        said_moves, _, fields = line.partition(" ")
        assert said_moves == moves
        expected = [score_or_none(f) for f in fields.split()]
        assert solver.analyze(c4.Board(moves)) == expected, moves


def test_batch_analysis_on_threads_equals_one_at_a_time(solver: c4.Solver) -> None:
    lines = read_lines("bench/analyze/plies.txt")[::4]
    boards = [c4.Board(moves) for moves, _ in lines]
    expected = [[score_or_none(f) for f in fields] for _, fields in lines]
    assert solver.analyze_many(boards, threads=1) == expected
    assert solver.analyze_many(boards, threads=2) == expected
    assert c4.analyze_many(boards, threads=2) == expected
    assert solver.analyze_many([]) == []


def test_a_bad_board_in_a_batch_is_named() -> None:
    boards = [c4.Board("44"), c4.Board(connect=5)]
    with pytest.raises(ValueError, match="board 1: the solver plays connect 4"):
        c4.Solver().analyze_many(boards)


def test_a_finished_game_is_answered_and_has_no_move() -> None:
    # The one rule of every door: a finished game's value is the score its last move left, from
    # the side to move (as `c4 solve` prints it, and the protocol's `= over; x won with its 4th
    # stone, on ply 7`); it has no column to analyze; a move asked of it is refused.
    solver = c4.Solver()
    won = c4.Board("4455667")
    assert solver.solve(won) == -18
    assert solver.solve(c4.Board("445566")) == 18
    assert solver.weak_solve(won) == -1
    assert solver.analyze(won) == [None] * 7
    assert solver.analyze_many([c4.Board("4455666"), won], threads=2)[1] == [None] * 7
    assert solver.analyze_many([won]) == [[None] * 7]
    refusal = "^the game is over \\(x won\\); there is no move to choose$"
    for call in (solver.best_move, solver.choose):
        with pytest.raises(ValueError, match=refusal):
            call(won)


@pytest.mark.parametrize(
    ("size", "path"),
    [((9, 5), "bench/9x5/endgame_L1.txt"), ((10, 6), "bench/10x6/midgame_L1.txt")],
)
def test_other_board_sizes_score_as_their_fixtures(size: tuple[int, int], path: str) -> None:
    # 0-based one-digit columns; 10x6 needs the solver's 128-bit board.
    width, height = size
    solver = c4.Solver()
    for moves, (score,) in read_lines(path)[:10]:
        board = c4.Board([int(c) for c in moves], width=width, height=height)
        assert solver.solve(board) == int(score), moves


def test_solve_weak_solve_and_best_move_agree_with_analyze(solver: c4.Solver) -> None:
    for moves in ["", "4455", "44444", "3344523", "1234567"]:
        board = c4.Board(moves)
        scores = solver.analyze(board)
        best = max(s for s in scores if s is not None)
        assert solver.solve(board) == best
        assert solver.weak_solve(board) == (best > 0) - (best < 0)
        best_columns = [c for c, s in enumerate(scores) if s == best]
        assert solver.best_move(board, tie_break="left") == best_columns[0]
        assert solver.best_move(board, tie_break="right") == best_columns[-1]
        assert solver.best_move(board, tie_break="random") in best_columns
        centre = min(best_columns, key=lambda c: (abs(2 * c - 6), c))
        assert solver.best_move(board) == centre
        assert c4.best_move(board) == centre


def test_module_functions_use_the_shared_solver() -> None:
    board = c4.Board("4455")
    assert c4.solve(board) == 18
    assert c4.weak_solve(board) == 1
    assert c4.analyze(board) == [-4, -3, 18, 2, 2, 18, -3]
    assert c4.default_solver() is c4.default_solver()


def test_levels_choose_legal_columns() -> None:
    solver = c4.Solver(seed=3)
    board = c4.Board("444444")
    for level in [
        "random",
        "lookahead 1",
        "lookahead 4 right",
        "lookahead:4:right",
        "lookahead 2 random",
        "perfect",
    ]:
        assert solver.choose(board, level) in board.legal_moves()
    # A look-ahead of one ply takes a win in one; perfect play too.
    win_now = c4.Board("445566")
    assert solver.choose(win_now, "lookahead 1") in (2, 6)
    assert solver.choose(win_now) in (2, 6)
    # Perfect play falls back on the heuristic search where the solver does not play.
    three = c4.Board(players=3)
    assert solver.choose(three, "perfect") in three.legal_moves()
    with pytest.raises(ValueError, match="expected a level"):
        solver.choose(board, "grandmaster")
    with pytest.raises(ValueError, match="lookahead depth must be from 1 to 12"):
        solver.choose(board, "lookahead 13")
    with pytest.raises(ValueError, match="no move to choose"):
        solver.choose(c4.Board("4455667"))


def test_unsolvable_boards_say_why() -> None:
    solver = c4.Solver()
    cases = [
        (c4.Board(connect=5), "the solver plays connect 4; this game is connect 5"),
        (c4.Board(players=3), "two-player games; this game has 3 players"),
        (c4.Board(width=12, height=12), "width x \\(height \\+ 1\\) <= 128"),
    ]
    for board, message in cases:
        for call in (solver.solve, solver.weak_solve, solver.analyze, solver.best_move):
            with pytest.raises(ValueError, match=message):
                call(board)


def test_settings() -> None:
    solver = c4.Solver(table_mib=8, threads=2, book=False)
    assert (solver.table_mib, solver.threads, solver.book_depth) == (8, 2, None)
    solver.threads = 1
    assert solver.threads == 1
    solver.set_book(True)
    assert solver.book_depth == 13
    assert c4.Solver().book_depth == 13
    assert c4.Solver(book=None).book_depth is None
    # Without the book, the same scores from search.
    assert solver.analyze(c4.Board("4455")) == c4.Solver(book=False).analyze(c4.Board("4455"))
    solver.reset()
    for bad, message in [
        (lambda: c4.Solver(threads=0), "the thread count must be a whole number from 1 to 64, got '0'"),
        (
            lambda: c4.Solver(table_mib=1),
            "the table size must be a whole number of MiB from 2 to 524288, got '1'",
        ),
        (lambda: c4.Solver(book="/no/such/book"), "/no/such/book: no such file"),
        (lambda: c4.Solver().best_move(c4.Board(), tie_break="middle"), "tie_break must be"),
    ]:
        with pytest.raises(ValueError, match=message):
            bad()
    with pytest.raises(ValueError, match="the thread count must be"):
        solver.threads = 65
    with pytest.raises(TypeError):
        c4.Solver(book=3.5)


def test_the_built_in_book_stores_every_ply() -> None:
    # The committed book leaves ply 12 out; the package's stores it, so that a ply-11 analysis
    # reads one entry per column instead of computing each from 7.
    assert c4.Solver().book_stored_plies == list(range(14))
    assert c4.Solver(book=False).book_stored_plies is None
    assert c4.Solver().analyze(c4.Board("44444433333")) == c4.Solver(book=False).analyze(
        c4.Board("44444433333")
    )


def test_a_book_file_is_read(tmp_path) -> None:
    not_a_book = tmp_path / "book.c4book"
    not_a_book.write_bytes(b"not a book")
    with pytest.raises(ValueError, match=str(not_a_book)):
        c4.Solver(book=not_a_book)


def test_a_pickled_solver_keeps_its_settings_book_and_random_state() -> None:
    small_book = FIXTURES / "files" / "small.book"
    board = c4.Board("444")
    for book, depth in [(True, 13), (None, None), (small_book, c4.Solver(book=small_book).book_depth)]:
        solver = c4.Solver(table_mib=8, threads=2, book=book, seed=11)
        solver.choose(board, "random")
        copy_of = pickle.loads(pickle.dumps(solver))
        assert (copy_of.table_mib, copy_of.threads, copy_of.book_depth) == (8, 2, depth)
        # The copy goes on with the original's random choices.
        picks = [solver.choose(board, "random") for _ in range(20)]
        assert [copy_of.choose(board, "random") for _ in range(20)] == picks
        assert len(set(picks)) > 1
    solver.set_book(False)
    assert pickle.loads(pickle.dumps(solver)).book_depth is None


class Stopped(Exception):
    """What the test's SIGINT handler raises, in place of KeyboardInterrupt."""


@pytest.mark.parametrize(
    "call",
    ["solve", "analyze", "best_move", "weak_solve", "analyze_many", "choose", "choose lookahead"],
)
def test_a_signal_stops_a_long_search(call: str) -> None:
    # The empty board without the book takes a search of many seconds; SIGINT comes after 0.3 s.
    solver = c4.Solver(book=False)
    searches = {
        "solve": lambda: solver.solve(c4.Board()),
        "analyze": lambda: solver.analyze(c4.Board()),
        "best_move": lambda: solver.best_move(c4.Board()),
        "weak_solve": lambda: solver.weak_solve(c4.Board("4")),
        "analyze_many": lambda: solver.analyze_many([c4.Board(), c4.Board("4")], threads=2),
        "choose": lambda: solver.choose(c4.Board()),
        # Twelve plies ahead from the empty board: far more than the test's five seconds.
        "choose lookahead": lambda: solver.choose(c4.Board(), "lookahead 12"),
    }

    def stop(signum: int, frame: object) -> None:
        raise Stopped

    previous = signal.signal(signal.SIGINT, stop)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        start = time.perf_counter()
        with pytest.raises(Stopped):
            searches[call]()
        assert time.perf_counter() - start < 5
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # The solver is whole after the stop.
    moves, fields = read_lines("bench/analyze/plies.txt")[-1]
    assert solver.analyze(c4.Board(moves)) == [score_or_none(f) for f in fields]
