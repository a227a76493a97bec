"""The PettingZoo opponent: connect_four_v3 passes PettingZoo's API test, the opponents read
its observations and play only legal moves, and the perfect one wins as the first player."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

import c4
from c4.pettingzoo import Opponent, board_from_observation

connect_four_v3 = pytest.importorskip("pettingzoo.classic.connect_four_v3")
api_test = pytest.importorskip("pettingzoo.test").api_test

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "pettingzoo_opponent.py"


def test_the_environment_passes_the_api_test() -> None:
    api_test(connect_four_v3.env(), num_cycles=100)


def play(players: dict[str, Opponent], seed: int) -> dict[str, float]:
    """One game; checks every observation against the board the moves made."""
    env = connect_four_v3.env()
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.agents, 0.0)
    board = c4.Board()
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert np.array_equal(observation["observation"], board.to_numpy())
        assert np.array_equal(observation["action_mask"], board.action_mask())
        assert board_from_observation(observation) == board
        action = players[agent](observation)
        assert observation["action_mask"][action] == 1
        board.play(action)
        env.step(action)
    assert board.is_over
    return rewards


def test_the_perfect_opponent_wins_as_first_player() -> None:
    for seed, level in enumerate(["random", "lookahead 2", "lookahead 4 random"]):
        players = {"player_0": Opponent("perfect"), "player_1": Opponent(level, seed=seed)}
        assert play(players, seed) == {"player_0": 1, "player_1": -1}, level


def test_tie_breaks_and_levels_play_whole_games() -> None:
    players = {
        "player_0": Opponent("lookahead 3 right", seed=5),
        "player_1": Opponent("perfect", tie_break="random", seed=6),
    }
    rewards = play(players, 9)
    assert sorted(rewards.values()) in ([-1, 1], [0, 0])


def test_observations_that_are_no_position_are_refused() -> None:
    with pytest.raises(ValueError, match="expected planes of shape"):
        board_from_observation(np.zeros((6, 7)))
    two_of_mine = np.zeros((6, 7, 2), dtype=np.int8)
    two_of_mine[5, 0, 0] = two_of_mine[5, 1, 0] = 1
    with pytest.raises(ValueError, match="stone counts"):
        board_from_observation(two_of_mine)


def test_the_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "perfect vs lookahead 4: {'player_0': 1" in out
    assert "random vs perfect: {'player_0': -1" in out
