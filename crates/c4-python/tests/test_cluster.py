"""c4.cluster: a solve split into jobs that Ray runs on this machine (2 workers), against a
single ``c4 solve``: the same scores, with a worker process killed mid-run, and after a stop,
going on without running a finished job again. Needs Ray and the c4 program (run-tests builds
it and sets C4_BINARY)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from c4.cluster import Prover, Split, _shared_tables, solve
from test_split import question

ray = pytest.importorskip("ray")

C4 = os.environ.get("C4_BINARY") or str(
    Path(__file__).resolve().parents[3] / "target" / "release" / "c4"
)


def exact(width: int, height: int, moves: str) -> int:
    """The score ``c4 solve`` gives."""
    run = subprocess.run(
        [C4, "solve", "--board", f"{width}x{height}", "--no-book"],
        input=moves + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return int(run.stdout.split()[-1])


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def provers() -> list[int]:
    """The ids of the processes of the Prover actors."""
    return processes(b"ray::Prover")


def processes(marker: bytes) -> list[int]:
    """The ids of the processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if marker in cmdline.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


def test_a_ray_solve_finds_the_score_c4_solve_does(tmp_path, local_ray):
    for width, height, moves, depth in [(6, 5, "", 3), (7, 4, "4", 3), (5, 6, "33", 2)]:
        folder = tmp_path / f"{width}x{height}-{moves}"
        split = Split(width, height, moves, depth)
        score = solve(folder, split, workers=2, c4=C4, log=None)
        assert score == exact(width, height, moves), (width, height, moves)
        # The provers' shared table goes with the run.
        assert not Path(_shared_tables(folder.resolve())).exists()


def test_a_killed_worker_is_restarted_and_the_score_is_the_same(tmp_path, local_ray):
    folder = tmp_path / "9x4"
    outcome: dict[str, int | None] = {}

    def run() -> None:
        outcome["score"] = solve(folder, Split(9, 4, "", 4), workers=2, c4=C4, log=None)

    thread = threading.Thread(target=run)
    thread.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.5)
        answered = len((folder / "results.txt").read_text().splitlines()) - 1 if (
            folder / "results.txt").exists() else 0
        pids = provers()
        if answered >= 3 and pids:
            killed = pids[0]
            os.kill(killed, signal.SIGKILL)
    assert killed is not None, "the run ended before a worker could be killed"
    # The provers share one table, which outlives the one killed.
    tables = Path(_shared_tables(folder.resolve()))
    assert sorted(t.name for t in tables.iterdir()) == [".lock", "9x4-2^18-folded-layout2.table"]
    thread.join(timeout=300)
    assert not thread.is_alive()
    assert outcome["score"] == exact(9, 4, "") == -1
    assert not tables.exists()


def test_a_stopped_run_goes_on_without_running_a_finished_job_again(tmp_path, local_ray):
    folder = tmp_path / "7x5"
    first = solve(folder, Split(6, 5, "", 3), workers=2, c4=C4, log=None, stop_after=4)
    assert first is None
    before = (folder / "results.txt").read_text().splitlines()
    assert len(before) >= 1 + 4
    # The splitting's quick searches are kept too: given them, the trees are split again
    # without making them (only those the answers since call for).
    searched = (folder / "quick.txt").read_text().splitlines()
    assert searched[0] == before[0] and len(searched) > 10
    again = Split.from_header(before[0])
    for line in before[1:]:
        again.record_line(line)
    for line in searched[1:]:
        again.record_quick_line(line)
    again.take_quick_searches()
    again.wanted()
    made = {question(line) for line in again.take_quick_searches()}
    assert not made & {question(line) for line in searched[1:]}
    score = solve(folder, workers=2, c4=C4, log=None)
    after = (folder / "results.txt").read_text().splitlines()
    assert score == exact(6, 5, "")
    assert after[: len(before)] == before
    answers = after[1:]
    assert len(answers) == len(set(answers)), "a job was answered twice"
    # Kept, and handed in: the second run asked none of them again.
    now = (folder / "quick.txt").read_text().splitlines()
    assert now[: len(searched)] == searched
    assert not {question(line) for line in now[len(searched):]} & {
        question(line) for line in searched[1:]}


# The arguments of a split solve's jobs on 8x5, where 'MOVES 2' asks for about 10 s of search
# and '5544 2' for none; on 10x4, ' 0' asks for about a minute.
JOB_8X5 = ["solve", "--board", "8x5", "--no-book", "--at-least=line"]
JOB_10X4 = ["solve", "--board", "10x4", "--no-book", "--at-least=line"]


def until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition()`` holds within ``seconds`` (looked at every tenth of a second)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_stop_names_one_call_even_when_it_comes_before_it(tmp_path):
    prover = Prover(C4, str(tmp_path), None, None)
    try:
        # An actor may run a stop before the call it names: the call then ends at once.
        prover.stop(2)
        began = time.monotonic()
        assert prover.prove(" 2", JOB_8X5, 2) is None
        assert time.monotonic() - began < 5, "the job ran on after its stop"
        # A stop of a call that is over leaves the one under way alone; its own ends it.
        answer: dict[str, str | None] = {}
        running = threading.Thread(
            target=lambda: answer.update(line=prover.prove(" 2", JOB_8X5, 3)), daemon=True)
        running.start()
        assert until(lambda: prover.process is not None, 10)
        prover.stop(2)
        time.sleep(1)
        assert running.is_alive() and prover.current == 3, answer
        prover.stop(3)
        running.join(timeout=10)
        assert not running.is_alive() and answer == {"line": None}
        assert prover.prove("5544 2", JOB_8X5, 4) == "5544 >=2"
    finally:
        prover.close()


def test_a_stop_that_comes_while_the_job_waits_for_its_checkpoint_ends_it(tmp_path):
    # Another c4 holds the job's checkpoint (as a stopped job's process does while it saves).
    holder = subprocess.Popen(
        [C4, *JOB_10X4, "--checkpoint-dir", str(tmp_path), "--checkpoint-every", "60"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    prover = Prover(C4, str(tmp_path), None, None)
    try:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write(" 0\n")
        holder.stdin.flush()
        time.sleep(0.5)
        answer: dict[str, str | None] = {}
        waiting = threading.Thread(
            target=lambda: answer.update(line=prover.prove(" 0", JOB_10X4, 1)), daemon=True)
        waiting.start()
        # The prover says in its log that the job waits.
        assert until(lambda: prover.log.exists() and "waits for its checkpoint" in
                     prover.log.read_text(), 10), answer
        assert waiting.is_alive() and prover.current == 1, answer
        prover.stop(1)
        waiting.join(timeout=4)
        assert not waiting.is_alive(), "the job waited on after its stop"
        assert answer == {"line": None}
        still = select.select([holder.stdout], [], [], 0)[0]
        assert holder.poll() is None and not still, "the checkpoint must be held throughout"
    finally:
        prover.close()
        holder.kill()
        holder.wait()


def test_another_solve_in_the_same_folder_is_refused(tmp_path):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "results.txt").write_text(Split(6, 5, "", 3).header() + "\n")
    with pytest.raises(ValueError, match="holds another solve"):
        solve(folder, Split(7, 4, "", 3), workers=2, c4=C4, log=None)
    with pytest.raises(ValueError, match="not the first line"):
        Split.from_header("# something else")


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="^width: a board side must be from 1 to 16, got -1"):
        Split(-1, 4)
    with pytest.raises(ValueError, match="^depth: a depth of plies must be from 1 to 40, got 0"):
        Split(9, 4, depth=0)
    with pytest.raises(ValueError, match="^prediction: .* got 100000000000000000000"):
        Split(9, 4, prediction=10**20)
    with pytest.raises(TypeError, match="^height must be an int, not str"):
        Split(9, "4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot be played"):
        Split(7, 6, "88")

