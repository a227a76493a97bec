"""c4.cluster starting Ray itself: the driver's own provers answer jobs while Ray starts."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest

from c4.cluster import Split, _shared_tables, solve
from test_cluster import C4, exact, processes

ray = pytest.importorskip("ray")


def test_jobs_are_answered_while_ray_starts_and_the_score_is_the_same(tmp_path, monkeypatch):
    if ray.is_initialized():
        ray.shutdown()
    # A cluster named in the environment is not used unless asked for.
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:9")
    folder = tmp_path / "8x4"
    log = io.StringIO()
    kinds = [b"gcs_server", b"raylet", b"monitor.py"]
    # Another Ray of this machine's (a test run beside this one) is not this run's.
    before = {kind: set(processes(kind)) for kind in kinds}
    try:
        score = solve(folder, Split(8, 4, "", 4), workers=2, c4=C4, log=log)
        # The Ray it started, it stopped, every process of it (its monitor too), in a moment.
        assert not ray.is_initialized()
        deadline = time.monotonic() + 10
        while True:
            left = {kind: set(processes(kind)) - before[kind] for kind in kinds}
            if not any(left.values()) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert not any(left.values()), left
    finally:
        ray.shutdown()
    assert score == exact(8, 4, "") == -1
    started = re.search(r"^c4\.cluster: Ray started after ([0-9.]+) s; (\d+) jobs answered "
                        r"before its provers took over, after ([0-9.]+) s$", log.getvalue(),
                        re.MULTILINE)
    assert started is not None, log.getvalue()
    assert int(started.group(2)) >= 1
    assert float(started.group(1)) <= float(started.group(3))
    answers = (folder / "results.txt").read_text().splitlines()[1:]
    assert len(answers) == len(set(answers)), "a job was answered twice"
    assert not Path(_shared_tables(folder.resolve())).exists()
