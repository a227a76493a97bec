"""c4: a fast, exact Connect Four engine.

``Board`` holds a game of any size, connect length and number of players; ``Solver`` scores
positions exactly (two players, connect 4), plays perfectly or at a chosen level, and labels
many positions at once on threads. The functions below use one shared ``Solver`` with the
built-in opening book, made at their first call::

    import c4
    board = c4.Board("4455")       # columns 4, 4, 5, 5 counted from 1
    c4.analyze(board)              # every column's score, one per column
    c4.best_move(board)            # 0-based column

Scores are from the side to move: a win scores 22 minus the winner's stones on 7x6 (a win
with the 4th stone scores 18), a loss the negative, a draw 0. The PettingZoo opponent is in
``c4.pettingzoo``.
"""

# No `from __future__ import annotations` and no bare helper imports: each would show in
# dir(c4) as a name of the package (`annotations`, `Sequence`).
from collections.abc import Sequence as _Sequence

from c4._core import Board, Solver, __version__

__all__ = [
    "Board",
    "Solver",
    "__version__",
    "analyze",
    "analyze_many",
    "best_move",
    "default_solver",
    "solve",
    "weak_solve",
]

_default_solver: Solver | None = None


def default_solver() -> Solver:
    """The shared ``Solver`` of the module's functions: 2 MiB table, one thread, built-in book."""
    global _default_solver
    if _default_solver is None:
        _default_solver = Solver()
    return _default_solver


def solve(board: Board) -> int:
    """The exact score of ``board`` for the side to move (``Solver.solve``)."""
    return default_solver().solve(board)


def weak_solve(board: Board) -> int:
    """1, 0 or -1: who wins ``board`` from the side to move (``Solver.weak_solve``)."""
    return default_solver().weak_solve(board)


def analyze(board: Board) -> list[int | None]:
    """Every column's exact score, None for a full column (``Solver.analyze``)."""
    return default_solver().analyze(board)


def best_move(board: Board, *, tie_break: str = "centre") -> int:
    """A best column, 0-based (``Solver.best_move``)."""
    return default_solver().best_move(board, tie_break=tie_break)


def analyze_many(boards: _Sequence[Board], *, threads: int = 1) -> list[list[int | None]]:
    """Every column's score for each board, on ``threads`` threads (``Solver.analyze_many``)."""
    return default_solver().analyze_many(boards, threads=threads)
