"""Shared fixtures: the repository's position files, read where the tests stand in it."""

from __future__ import annotations

from pathlib import Path

import pytest

import c4

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def read_lines(relative: str) -> list[tuple[str, list[str]]]:
    """Each line of a fixture file as its moves field and the fields after it."""
    lines = []
    for line in (FIXTURES / relative).read_text().splitlines():
        # The empty board's line starts with the scores: an empty moves field.
        moves, _, rest = line.partition(" ")
        lines.append((moves, rest.split()))
    return lines


@pytest.fixture(scope="session")
def solver() -> c4.Solver:
    return c4.Solver(seed=7)
