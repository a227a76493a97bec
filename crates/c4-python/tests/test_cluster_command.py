"""``python -m c4.cluster``: the line it ends with, and its stop on SIGINT or SIGTERM."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_cluster import C4, processes

pytest.importorskip("ray")

# The processes a run starts: Ray's (its agents, which a start cut short leaves waiting for
# ever), and the provers' c4 (found by the run's folder in their arguments).
AGENT = b"ray::RuntimeEnvAgent"
RAY_KINDS = [b"gcs_server", b"raylet", b"monitor.py", b"ray::DashboardAgent", AGENT,
             b"ray::Prover"]


def command(folder: Path, board: str) -> list[str]:
    return [sys.executable, "-m", "c4.cluster", str(folder), "--board", board,
            "--workers", "2", "--c4", C4]


def answers(folder: Path) -> list[str]:
    """The answers in the run's results file, in order."""
    results = folder / "results.txt"
    return results.read_text().splitlines()[1:] if results.exists() else []


def wait_for(condition, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} after {seconds} s"
        time.sleep(0.05)


def test_the_command_ends_with_the_line_c4_solve_writes(tmp_path):
    run = subprocess.run(command(tmp_path / "8x4", "8x4"), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    solved = subprocess.run([C4, "solve", "--board", "8x4", "--no-book"], input="\n",
                            capture_output=True, text=True, check=True)
    assert run.stdout == solved.stdout == " -1\n"


def stopped_run(folder: Path, arguments: list[str], kind: int, ready, log: Path,
                before: dict[bytes, set[int]]) -> list[str]:
    """Runs the command on ``folder`` until ``ready(log)``, stops it with ``kind``, checks that
    it ended cleanly (by the signal, with the stop line, nothing of it left running); the
    answers in its results file."""
    with log.open("w") as errors:
        driver = subprocess.Popen([*command(folder, "10x4"), *arguments],
                                  stdout=subprocess.PIPE, stderr=errors, text=True)
    try:
        wait_for(lambda: ready(log) or driver.poll() is not None, "moment to stop")
        assert driver.poll() is None, log.read_text()
        driver.send_signal(kind)
        out, _ = driver.communicate(timeout=60)
    finally:
        driver.kill()
    said = log.read_text()
    # Ended by the signal, as a shell running it in a script expects.
    assert driver.returncode == -kind, said
    assert out == "", "a stopped run has no score"
    assert "Traceback" not in said and "SIGTERM received" not in said, said
    stopped = re.search(r"^python -m c4\.cluster: stopped by (\w+); (\d+) answers kept in "
                        r"(.+): the same command goes on from them$", said, re.MULTILINE)
    assert stopped is not None, said
    assert stopped.group(1) == signal.Signals(kind).name
    assert stopped.group(3) == str(folder / "results.txt")
    now = answers(folder)
    assert int(stopped.group(2)) == len(now)
    assert len(set(now)) == len(now), "a job was answered twice"

    # Nothing of the run is left running, in a moment.
    def left() -> dict[bytes, set[int]]:
        found = {marker: set(processes(marker)) - before[marker] for marker in RAY_KINDS}
        found[b"c4"] = set(processes(str(folder).encode()))
        return {marker: ids for marker, ids in found.items() if ids}
    deadline = time.monotonic() + 30
    while left() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left(), left()
    return now


@pytest.mark.parametrize("kind", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stopping_signal_ends_the_run_cleanly_and_the_same_command_goes_on(tmp_path, kind):
    folder = tmp_path / "10x4"
    before = {marker: set(processes(marker)) for marker in RAY_KINDS}
    kept: list[str] = []
    searched: list[str] = []
    # The first run is stopped while Ray starts (its agents started, the driver's own provers at
    # work), the second as the driver joins it (its core worker set up: in Ray's own handling,
    # SIGTERM prints a stack trace there), the third once Ray's provers have taken over.
    for run, ready in enumerate([lambda log: set(processes(AGENT)) - before[AGENT],
                                 lambda log: "Started a local Ray instance" in log.read_text(),
                                 lambda log: "Ray started after" in log.read_text()]):
        now = stopped_run(folder, [], kind, ready, tmp_path / f"run-{run}.log", before)
        # Every answer of the run before is kept, none asked again; and the quick searches of
        # its splitting, stopped or not.
        assert now[:len(kept)] == kept and len(now) > len(kept)
        kept = now
        quick = (folder / "quick.txt").read_text().splitlines()
        assert quick[:len(searched)] == searched and len(quick) > 1
        searched = quick


def test_a_stop_while_ray_waits_for_long_jobs_ends_cleanly(tmp_path):
    # Jobs two plies down take seconds: a second after the handover, the driver waits in
    # Ray's wait, which runs the signal's handler from its own loop.
    before = {marker: set(processes(marker)) for marker in RAY_KINDS}
    handed_over: list[float] = []

    def ready(log: Path) -> bool:
        if not handed_over and "Ray started after" in log.read_text():
            handed_over.append(time.monotonic())
        return bool(handed_over) and time.monotonic() > handed_over[0] + 1

    stopped_run(tmp_path / "10x4", ["--depth", "2"], signal.SIGTERM, ready,
                tmp_path / "run.log", before)
