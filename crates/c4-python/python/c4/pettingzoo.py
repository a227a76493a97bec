"""Opponents for PettingZoo's ``connect_four_v3``: perfect play, or a weaker level.

An ``Opponent`` reads the observation the environment gives the agent to move (the board as
planes, the agent's own stones in plane 0, and the action mask) and returns its action, so
it plugs into the usual loop::

    from pettingzoo.classic import connect_four_v3
    from c4.pettingzoo import Opponent

    env = connect_four_v3.env()
    env.reset(seed=0)
    opponent = Opponent("perfect")
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        elif agent == "player_1":
            action = opponent(observation)
        else:
            action = my_policy(observation)
        env.step(action)

Nothing here imports PettingZoo: ``pip install 'c4-engine[pettingzoo]'`` brings it for the
environment itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from c4._core import Board, Solver

__all__ = ["Opponent", "board_from_observation"]


def board_from_observation(observation: Mapping[str, Any] | np.ndarray) -> Board:
    """The ``Board`` of a ``connect_four_v3`` observation (the dict, or its ``observation``
    array of shape (6, 7, 2)) for the agent to move: its stones in plane 0, the other's in
    plane 1. Equal stone counts mean the agent moves first.

    Raises ValueError for planes that are not a reachable position.
    """
    planes = observation["observation"] if isinstance(observation, Mapping) else observation
    planes = np.asarray(planes)
    if planes.ndim != 3 or planes.shape[2] != 2:
        raise ValueError(f"expected planes of shape (rows, columns, 2), got {planes.shape}")
    mine, theirs = planes[:, :, 0] != 0, planes[:, :, 1] != 0
    # The first player has as many stones as the second when it is to move again.
    first, second = (mine, theirs) if mine.sum() == theirs.sum() else (theirs, mine)
    return Board.from_array(first.astype(np.int8) + 2 * second.astype(np.int8))


class Opponent:
    """A ``connect_four_v3`` player at ``level``: "perfect" (exact, wins fastest and loses
    slowest, ties to the centre), "random", or "lookahead N [left|right|random]" (sees N
    plies ahead, 1 to 12, and tells only wins from losses). ``tie_break`` ("centre", "left",
    "right" or "random") picks among perfect play's equal columns; ``seed`` fixes the random
    choices. ``solver`` may be shared with other code; by default the opponent has its own.
    """

    def __init__(
        self,
        level: str = "perfect",
        *,
        tie_break: str = "centre",
        seed: int | None = None,
        solver: Solver | None = None,
    ) -> None:
        self.level = level
        self.tie_break = tie_break
        self.solver = solver if solver is not None else Solver(seed=seed)

    def __call__(self, observation: Mapping[str, Any] | np.ndarray) -> int:
        """The action (column, 0-based) for the agent whose observation this is. Raises
        ValueError when the game is over."""
        board = board_from_observation(observation)
        if self.level == "perfect":
            return self.solver.best_move(board, tie_break=self.tie_break)
        return self.solver.choose(board, self.level)
