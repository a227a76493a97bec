"""Solve a position split into jobs that Ray runs, on this machine or on a cluster.

The engine splits the solve (``Split``: the questions asked of the root, the proof trees, the
jobs wanted now); this module only runs the jobs. Each Ray worker holds one ``Prover`` actor,
which answers jobs with a long-lived ``c4 solve --at-least line --checkpoint-dir DIR`` process, so
that the jobs one worker answers share a table as one search would, and a job cut short goes
on from its own checkpoint wherever it is taken up again. Every answer is appended to
``FOLDER/results.txt`` (synced) before it is used, so a stopped driver started again with the
same command goes on where it stood and never runs a finished job again. A worker that dies is
restarted by Ray and its job retried; its ``c4`` process, ended with it, saved its progress.

From the command line (``python -m c4.cluster --help``)::

    python -m c4.cluster FOLDER --board 10x4              # this machine's cores
    python -m c4.cluster FOLDER --board 13x4 --address auto   # a running Ray cluster

The last line written is the score as ``c4 solve`` writes it (``MOVES SCORE``). The folder
must be one every machine sees, and ``c4`` (``--c4 PATH``) a program every machine can run.
Without Ray, ``c4 split plan`` and ``c4 split merge`` run the same solve from plan files.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from c4._core import Split

__all__ = ["Split", "Progress", "solve", "main"]

RESULTS = "results.txt"


@dataclass
class Progress:
    """How far a run has come: what ``solve`` reports as it goes."""

    lower: int
    upper: int
    questions: int
    answered: int
    settled_quickly: int
    re_expanded: int
    running: int
    wanted: int
    seconds: float

    def line(self) -> str:
        """One line for a log: the score's range, the jobs done and left, an estimate."""
        done = self.answered
        left = self.wanted + self.running
        estimate = ""
        if done and left:
            per_job = self.seconds * max(1, self.running) / done
            estimate = f", about {per_job * left / max(1, self.running):.0f} s left at this pace"
        return (
            f"c4.cluster: score between {self.lower} and {self.upper}; question "
            f"{self.questions}; {done} jobs done, {self.re_expanded} re-expanded, "
            f"{self.settled_quickly} settled quickly, {self.running} running, "
            f"{self.wanted} waiting{estimate} ({self.seconds:.0f} s)"
        )


class Prover:
    """One worker's prover: a long-lived ``c4 solve --at-least line`` process answering jobs
    of any bound one line at a time (``MOVES B``), with a checkpoint per position in a folder
    all workers see. Its table lies in a file of ``shared`` (a folder of the machine's memory
    file system, when it has one), shared with the other provers of the same machine as the
    threads of one search share theirs, and kept across jobs, questions and restarts."""

    #: Processes kept at once: a solve's jobs all take the same arguments; others replace it.
    KEPT = 1

    def __init__(self, c4: str, checkpoints: str, table_mib: int | None,
                 shared: str | None) -> None:
        self.c4 = c4
        self.checkpoints = checkpoints
        self.table_mib = table_mib
        self.shared = shared
        self.processes: dict[tuple[str, ...], Any] = {}
        # The job under way, its process, and whether `stop` was asked to end it; `stop` runs
        # on another of the actor's threads, so these change under the lock.
        self.current: str | None = None
        self.process: Any = None
        self.stopped = False
        self.lock = threading.Lock()

    def pid(self) -> int:
        """The worker process's id (for tests that kill it)."""
        return os.getpid()

    def prove(self, question: str, arguments: list[str]) -> str | None:
        """The answer line of the job ``question`` (``MOVES B``) run with ``arguments``, or
        None if ``stop`` ended it first."""
        key = tuple(arguments)
        with self.lock:
            self.current, self.stopped = question, False
        for _ in range(60):
            process = self._process(key)
            with self.lock:
                self.process = process
            try:
                process.stdin.write(question + "\n")
                process.stdin.flush()
            except BrokenPipeError:
                # It ended between jobs (a signal, its parent's end): a fresh process.
                self._forget(key, process)
                continue
            line = process.stdout.readline()
            with self.lock:
                # Answered or not, a stop that comes from now on finds nothing under way.
                stopped, self.current = self.stopped, None
            if not line or stopped or "error: stopped before the end" in line:
                # Stopped (c4 says so on its line, saved, and ends): a fresh process next time.
                self._forget(key, process)
                return None
            line = line.rstrip("\n")
            # A checkpoint still held by the process of a worker that died (it saves first):
            # wait for it.
            if " error: " in line and "in use" in line:
                time.sleep(1)
                with self.lock:
                    self.current = question
                continue
            return line
        raise RuntimeError(f"c4 could not answer {question!r}: its checkpoint stayed in use")

    def stop(self, question: str) -> None:
        """Ends the job ``question`` if it is under way, its progress saved (SIGTERM), and its
        process with it; a stop that comes after the job ended leaves the next one alone."""
        with self.lock:
            if self.process is not None and self.current == question:
                self.stopped = True
                self.process.send_signal(signal.SIGTERM)

    def close(self) -> None:
        """Ends this prover's ``c4`` processes (a job under way saves its progress) and
        removes the shared table's folder from its machine, once the solve is over."""
        # A job under way forgets its process on another thread as it ends: a copy is ended.
        processes = list(self.processes.values())
        self.processes.clear()
        for process in processes:
            process.stdin.close()
            process.send_signal(signal.SIGTERM)
            process.wait()
        if self.shared is not None:
            shutil.rmtree(self.shared, ignore_errors=True)

    def _forget(self, key: tuple[str, ...], process: Any) -> None:
        """Waits for ``process`` to end and drops it, so that the next job starts another."""
        process.wait()
        if self.processes.get(key) is process:
            del self.processes[key]

    def _process(self, arguments: tuple[str, ...]) -> Any:
        """The running process for ``arguments``, started if need be, the oldest closed past
        ``KEPT``."""
        import subprocess

        process = self.processes.get(arguments)
        if process is not None and process.poll() is None:
            return process
        while len(self.processes) >= self.KEPT:
            oldest = next(iter(self.processes))
            self.processes.pop(oldest).stdin.close()
        command = [self.c4, *arguments, "--checkpoint-dir", self.checkpoints]
        command += ["--checkpoint-every", "60"]
        if self.shared is not None:
            command += ["--shared-table", self.shared]
        if self.table_mib is not None:
            command += ["--hash", str(self.table_mib)]
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=_end_with_parent,
        )
        self.processes[arguments] = process
        return process


def _end_with_parent() -> None:
    """In the child, before c4 starts: SIGTERM when the worker that started it dies (Linux), so
    that c4 saves its progress and ends instead of running on unowned."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    except OSError:
        pass


def open_results(folder: Path, split: Split | None) -> tuple[Split, TextIO]:
    """The solve of ``folder``'s results file, with every answer in it handed in, and the file
    open for appending; a new file for ``split`` where there is none."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ckpt").mkdir(exist_ok=True)
    results = folder / RESULTS
    if results.exists():
        with results.open() as lines:
            header = lines.readline().rstrip("\n")
            stored = Split.from_header(header)
            if split is not None and stored.header() != split.header():
                raise ValueError(
                    f"{results} holds another solve ({header}): use another folder, or the "
                    "same settings"
                )
            for line in lines:
                if line.strip():
                    stored.record_line(line.rstrip("\n"))
        split = stored
    elif split is None:
        raise ValueError(f"{results} does not exist: give the board to start a solve")
    else:
        results.write_text(split.header() + "\n")
    return split, results.open("a")


def solve(
    folder: str | os.PathLike[str],
    split: Split | None = None,
    *,
    address: str | None = None,
    workers: int | None = None,
    c4: str | None = None,
    table_mib: int | None = None,
    stop_after: int | None = None,
    log: TextIO | None = sys.stderr,
    every: float = 10.0,
) -> int | None:
    """Runs the split solve of ``folder`` on Ray until its score is known, and returns it.

    ``split`` starts a new solve (the folder's results file names it); without it the folder's
    solve goes on. ``address`` is a Ray cluster's (None: Ray on this machine's cores, or
    ``workers`` of them); ``c4`` the program the workers run (default: ``c4`` on the PATH);
    ``table_mib`` each prover's table (default: c4's pick for the board). ``stop_after``
    answers at most that many jobs and returns None if the score is not known by then. A line
    of progress goes to ``log`` every ``every`` seconds.
    """
    try:
        import ray
    except ImportError as missing:
        raise ImportError("c4.cluster needs Ray: pip install 'ray>=2.60'") from missing
    program = c4 or shutil.which("c4")
    if program is None:
        raise ValueError("c4 is not on the PATH: give c4=PATH (a program every worker can run)")
    folder = Path(folder).resolve()
    split, results = open_results(folder, split)
    started = time.monotonic()
    if split.score is not None:
        _say_progress(split, {}, 0, started, log)
        return split.score
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=workers if address is None else None,
                 include_dashboard=False, log_to_driver=False)
    count = workers or int(ray.cluster_resources().get("CPU", 1))
    # Ray's stubs know no max_concurrency on this form; an actor needs it to take `stop`
    # while `prove` runs.
    remote: Any = ray.remote
    prover = remote(num_cpus=1, max_restarts=-1, max_task_retries=-1, max_concurrency=2)(Prover)
    checkpoints = str(folder / "ckpt")
    shared = _shared_tables(folder)
    provers = [prover.remote(str(Path(program).resolve()), checkpoints, table_mib, shared)
               for _ in range(count)]
    arguments = split.job_arguments()
    running: dict[Any, tuple[int, tuple[str, int]]] = {}
    stopping: set[Any] = set()
    answered = 0
    last_said = started
    try:
        while split.score is None:
            wanted = split.wanted()
            if split.score is not None:
                break
            busy = {index for index, _ in running.values()}
            wanted_set = set(wanted)
            # Jobs no longer needed (a sibling settled their node) are stopped, once.
            for ref, (index, job) in running.items():
                if job not in wanted_set and ref not in stopping:
                    provers[index].stop.remote(_question(job))
                    stopping.add(ref)
            taken = {job for _, job in running.values()}
            free = [index for index in range(count) if index not in busy]
            for job in wanted:
                if not free:
                    break
                if job in taken:
                    continue
                index = free.pop(0)
                ref = provers[index].prove.remote(_question(job), arguments)
                running[ref] = (index, job)
            if not running:
                raise RuntimeError("the split solve wants no job and has no score")
            ready, _ = ray.wait(list(running), num_returns=1, timeout=every)
            for ref in ready:
                index, job = running.pop(ref)
                stopping.discard(ref)
                line = ray.get(ref)
                if line is None:
                    continue
                if " error: " in line:
                    raise RuntimeError(f"c4 could not answer the job {job}: {line}")
                # Kept before used: a driver stopped now loses no answer.
                results.write(line + "\n")
                results.flush()
                os.fsync(results.fileno())
                split.record_line(line)
                answered += 1
            if stop_after is not None and answered >= stop_after and split.score is None:
                return None
            if time.monotonic() - last_said >= every:
                _say_progress(split, running, len(wanted), started, log)
                last_said = time.monotonic()
    finally:
        results.close()
        for index, job in running.values():
            provers[index].stop.remote(_question(job))
        # The tables go with the run (a run that goes on later starts them anew).
        ray.get([p.close.remote() for p in provers])
    _say_progress(split, {}, 0, started, log)
    return split.score


def _shared_tables(folder: Path) -> str | None:
    """The folder, on each machine's memory file system, of the table its provers share for
    the solve of ``folder``: one per user and solve, so that no two runs meet; None where
    there is no ``/dev/shm``."""
    if not Path("/dev/shm").is_dir():
        return None
    run = hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    return f"/dev/shm/c4-tables-{os.getuid()}-{run}"


def _question(job: tuple[str, int]) -> str:
    """The line ``c4 solve --at-least line`` reads for ``job``: its moves and bound."""
    moves, bound = job
    return f"{moves} {bound}"


def _say_progress(split: Split, running: dict[Any, Any], wanted: int, started: float,
                  log: TextIO | None) -> None:
    if log is None:
        return
    lower, upper, questions, answered, quickly, re_expanded = split.progress()
    progress = Progress(lower, upper, questions, answered, quickly, re_expanded,
                        len(running), max(0, wanted - len(running)),
                        time.monotonic() - started)
    print(progress.line(), file=log, flush=True)


def _board(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"'{text}' is not a board: expected WIDTHxHEIGHT (10x4)")
    return int(width), int(height)


def main(argv: list[str] | None = None) -> int:
    """``python -m c4.cluster``: the command line of ``solve``."""
    parser = argparse.ArgumentParser(
        prog="python -m c4.cluster",
        description="Solve a position split into jobs that Ray runs. The last line is the "
        "score as c4 solve writes it. Run the same command again to go on after a stop.",
    )
    parser.add_argument("folder", help="the solve's folder, seen by every machine")
    parser.add_argument("moves", nargs="?", default="",
                        help="the position: moves from the empty board (none: the empty board)")
    parser.add_argument("--board", type=_board, metavar="WxH",
                        help="the board of a new solve (default 7x6; a solve under way keeps its own)")
    parser.add_argument("--depth", type=int, default=None, metavar="PLIES",
                        help="plies from the position to the jobs (default 4)")
    parser.add_argument("--expect", type=int, default=0, metavar="SCORE",
                        help="the score expected, if roughly known (default 0)")
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address ('auto': the one this machine belongs to); "
                        "default: Ray on this machine")
    parser.add_argument("--workers", type=int, default=None,
                        help="provers to run (default: one per CPU Ray has)")
    parser.add_argument("--c4", default=None, metavar="PATH",
                        help="the c4 program every worker runs (default: c4 on the PATH)")
    parser.add_argument("--hash", type=int, default=None, metavar="MB",
                        help="each prover's table in MiB (default: c4's pick for the board)")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    split = None
    if not (folder / RESULTS).exists() or args.board is not None:
        width, height = args.board or (7, 6)
        depth = 4 if args.depth is None else args.depth
        split = Split(width, height, args.moves, depth, args.expect)
    try:
        score = solve(folder, split, address=args.address, workers=args.workers, c4=args.c4,
                      table_mib=args.hash)
    except (ValueError, RuntimeError, ImportError) as error:
        print(f"python -m c4.cluster: {error}", file=sys.stderr)
        return 2
    root = split.root if split is not None else Split.from_header(
        (folder / RESULTS).read_text().splitlines()[0]).root
    print(f"{root} {score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
