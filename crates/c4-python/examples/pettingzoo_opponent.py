"""A perfect and a level-limited opponent in PettingZoo's connect_four_v3.

The perfect opponent plays first against one that looks 4 plies ahead, then second against
uniformly random moves; each game's result is printed. Run it with
`pip install 'c4-engine[pettingzoo]'` done: `python examples/pettingzoo_opponent.py`.
"""

from __future__ import annotations

from pettingzoo.classic import connect_four_v3

from c4.pettingzoo import Opponent


def play(players: dict[str, Opponent], seed: int) -> dict[str, float]:
    """One game of connect_four_v3 between `players` (by agent name); the rewards at its end."""
    env = connect_four_v3.env()
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        action = None if termination or truncation else players[agent](observation)
        env.step(action)
    env.close()
    return rewards


def main() -> None:
    perfect = Opponent("perfect")
    games = {
        "perfect vs lookahead 4": {"player_0": perfect, "player_1": Opponent("lookahead 4", seed=1)},
        "random vs perfect": {"player_0": Opponent("random", seed=2), "player_1": perfect},
    }
    for seed, (name, players) in enumerate(games.items()):
        print(f"{name}: {play(players, seed)}")


if __name__ == "__main__":
    main()
