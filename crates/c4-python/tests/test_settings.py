"""A bad table size or thread count gets the sentence every door gives (fixtures/settings)."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

import c4


def bad_values() -> list[tuple[str, int, str]]:
    """The fixture's bad values that are ints, negative ones too: setting, value, sentence."""
    values = []
    for line in (FIXTURES / "settings" / "bad-values.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        setting, value, sentence = line.split(" ", 2)
        if value.lstrip("-").isdigit():
            values.append((setting, int(value), sentence))
    assert any(value < 0 for _, value, _ in values)
    return values


@pytest.mark.parametrize(("setting", "value", "sentence"), bad_values())
def test_a_bad_value_gets_the_sentence_of_every_door(
    setting: str, value: int, sentence: str
) -> None:
    keyword = {"table": "table_mib", "threads": "threads"}[setting]
    # After the argument's name, as every range error of the package says it.
    with pytest.raises(ValueError) as refused:
        c4.Solver(**{keyword: value})
    assert str(refused.value) == f"{keyword}: {sentence}"
