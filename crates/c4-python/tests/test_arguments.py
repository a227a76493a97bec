"""Arguments of the wrong value or type: ints of any size, named in every error; the module's
own names."""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import c4

HUGE = 2**64


def set_threads(solver: c4.Solver, threads: Any) -> None:
    solver.threads = threads


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: c4.Solver(threads=-1),
            "threads: the thread count must be a whole number from 1 to 64, got '-1'",
        ),
        (
            lambda: set_threads(c4.Solver(), -1),
            "threads: the thread count must be a whole number from 1 to 64, got '-1'",
        ),
        (
            lambda: c4.Solver().analyze_many([c4.Board()], threads=-1),
            "threads: the thread count must be a whole number from 1 to 64, got '-1'",
        ),
        (
            lambda: c4.analyze_many([c4.Board()], threads=HUGE),
            "threads: the thread count must be a whole number from 1 to 64, got "
            "'18446744073709551616'",
        ),
        (
            lambda: c4.Solver(table_mib=-5),
            "table_mib: the table size must be a whole number of MiB from 2 to 524288, got '-5'",
        ),
        (
            lambda: c4.Solver(table_mib=2**100),
            "table_mib: the table size must be a whole number of MiB from 2 to 524288, got "
            "'1267650600228229401496703205376'",
        ),
        (
            lambda: c4.Solver(seed=-1),
            "seed: a seed must be from 0 to 18446744073709551615, got -1",
        ),
        (
            lambda: c4.Solver(seed=HUGE),
            "seed: a seed must be from 0 to 18446744073709551615, got 18446744073709551616",
        ),
        (lambda: c4.Board(width=-1), "width: a board width must be from 1 to 16, got -1"),
        (lambda: c4.Board(width=17), "width: a board width must be from 1 to 16, got 17"),
        (
            lambda: c4.Board(height=HUGE),
            "height: a board height must be from 1 to 16, got 18446744073709551616",
        ),
        (lambda: c4.Board(connect=-4), "connect: the connect length must be from 2 to 16, got -4"),
        (
            lambda: c4.Board(players=2**70),
            "players: the number of players must be from 2 to 8, got 1180591620717411303424",
        ),
        (lambda: c4.Board(players=9), "players: the number of players must be from 2 to 8, got 9"),
        (
            lambda: c4.Board.from_fen("7/7/7/7/7/7 x", connect=-1),
            "connect: the connect length must be from 2 to 16, got -1",
        ),
        (
            lambda: c4.Board.from_array([[0, 0]], players=-2),
            "players: the number of players must be from 2 to 8, got -2",
        ),
        (
            lambda: c4.Board().play(HUGE),
            "column index 18446744073709551616 is off the board \\(indices 0-6\\)",
        ),
        (lambda: c4.Board().play(-1), "column index -1 is off the board \\(indices 0-6\\)"),
        (
            lambda: c4.Board([3, HUGE]),
            "move 2: column index 18446744073709551616 is off the board",
        ),
        (
            lambda: c4.Board.from_array([[0, -HUGE]]),
            "the cell at row 0, column 1 holds -18446744073709551616; expected 0 for empty",
        ),
    ],
)
def test_an_int_out_of_range_is_a_value_error_naming_the_argument(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{message}") as refused:
        call()
    assert type(refused.value) is ValueError


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: c4.Solver(book=5),
            "book must be True, False, None or the path of a book file (str or os.PathLike), "
            "not int",
        ),
        (
            lambda: c4.Solver().set_book(2.5),
            "book must be True, False, None or the path of a book file (str or os.PathLike), "
            "not float",
        ),
        (lambda: c4.Solver(threads="2"), "threads must be an int, not str"),
        (lambda: set_threads(c4.Solver(), 1.5), "threads must be an int, not float"),
        (lambda: c4.analyze_many([c4.Board()], threads="x"), "threads must be an int, not str"),
        (lambda: c4.Solver(table_mib=None), "table_mib must be an int, not NoneType"),
        (lambda: c4.Solver(seed="7"), "seed must be an int, not str"),
        (lambda: c4.Board(width=7.0), "width must be an int, not float"),
        (lambda: c4.Board().play("3"), "column must be an int, not str"),
        (lambda: c4.Board().is_legal(None), "column must be an int, not NoneType"),
        (
            lambda: c4.Board(5),
            "moves must be a string such as '4455' or a sequence of 0-based column indices, "
            "not int",
        ),
        (lambda: c4.Board([3, "a"]), "move 2 must be an int, not str"),
        (lambda: c4.Board.from_array([[0, 1.0]]), "the cell at row 0, column 1 must be an int"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_type_error_naming_the_argument(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(TypeError) as refused:
        call()
    assert str(refused.value).startswith(message)


def test_a_refused_move_changes_nothing() -> None:
    board = c4.Board("44")
    for column in (HUGE, -HUGE, -1, 7):
        with pytest.raises(ValueError):
            board.play(column)
        assert not board.is_legal(column)
    assert board.moves == [3, 3]


def test_ints_of_every_kind_python_uses_as_ints_are_taken() -> None:
    board = c4.Board(width=np.int8(7), height=np.uint64(6))
    board.play(np.int64(3))
    board.play(True)
    assert board.moves == [3, 1]
    assert c4.Board([np.int32(3), 3]).moves == [3, 3]
    assert c4.Solver(threads=np.int64(2), table_mib=np.uint16(4)).threads == 2
    # The largest seed, past what a signed 64-bit int holds.
    c4.Solver(seed=2**64 - 1)


def test_a_huge_book_file_is_refused_unread(tmp_path: Path) -> None:
    sparse = tmp_path / "huge.book"
    # 10 GiB, all of it a hole: reading up to the book's limit took 1 GiB and seconds.
    with open(sparse, "wb") as file:
        file.truncate(10 << 30)
    before = bytes_read()
    with pytest.raises(ValueError) as refused:
        c4.Solver(book=sparse)
    assert str(refused.value) == (
        f"{sparse}: the file has more than 1073741824 bytes, too many for a book"
    )
    # Far less than the limit's worth; other threads of this process read a little meanwhile.
    assert bytes_read() - before < 1 << 28


def bytes_read() -> int:
    """The bytes this process has read so far (Linux's count; 0 elsewhere)."""
    if not sys.platform.startswith("linux") or not os.path.exists("/proc/self/io"):
        return 0
    with open("/proc/self/io") as io:
        for line in io:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    return 0


def test_the_module_has_a_version_and_only_its_own_names() -> None:
    assert isinstance(c4.__version__, str) and c4.__version__
    public = {name for name in dir(c4) if not name.startswith("_")}
    # The submodules `pettingzoo` and `cluster` once another test imported them.
    assert public - {"pettingzoo", "cluster"} == set(c4.__all__) - {"__version__"}
    assert "Sequence" not in dir(c4) and "annotations" not in dir(c4)


def test_the_signatures_show_the_defaults_the_calls_take() -> None:
    # PyO3 takes a text signature only as a literal: the defaults it writes out must be those
    # that the engine's constants give a call without the arguments.
    board, solver = c4.Board(), c4.Solver()
    shown = {
        name: parameter.default
        for call in (c4.Board, c4.Board.from_fen, c4.Board.from_array, c4.Solver)
        for name, parameter in inspect.signature(call).parameters.items()
    }
    assert shown["width"] == board.width and shown["height"] == board.height
    assert shown["connect"] == board.connect and shown["players"] == board.players
    assert shown["table_mib"] == solver.table_mib and shown["threads"] == solver.threads
