"""The package's version: the workspace's one, which `c4 --version` and the protocol also say."""

from __future__ import annotations

from conftest import FIXTURES

import c4


def workspace_version() -> str:
    """The version in the repository's Cargo.toml, under [workspace.package]."""
    section = None
    for line in (FIXTURES.parent / "Cargo.toml").read_text().splitlines():
        if line.startswith("["):
            section = line.strip()
        elif section == "[workspace.package]" and line.startswith("version = "):
            return line.split("=", 1)[1].strip().strip('"')
    raise AssertionError("Cargo.toml has no version under [workspace.package]")


def test_version_is_the_workspace_version() -> None:
    assert c4.__version__ == workspace_version()
